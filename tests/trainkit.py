"""The training tools (tools/train/*.py) loaded as modules, for the tests of the learned
evaluations (they are scripts, not a package)."""
from __future__ import annotations

import importlib.util
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def train_tool(name: str):
    """tools/train/<name>.py, imported afresh."""
    path = os.path.join(ROOT, "tools", "train", f"{name}.py")
    spec = importlib.util.spec_from_file_location(f"train_{name}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
