"""The Pyodide runtime the site ships: which version package.json pins, whether
node_modules holds it, the lock file's `info` the worker passes at start, and the
runtime files a start fetches (copied to dist/pyodide/ by site.py). Also finds
Node, which runs the steps that must happen inside Pyodide (stdlib.py, wheel.py).
"""

from __future__ import annotations

import json
import shutil

from .common import PYODIDE_DIR, ROOT, BuildError

# The Pyodide runtime files a start really fetches. pyodide-lock.json is not
# among them: the worker passes `lockFileContents` (an empty package index
# carrying only the lock file's "info", whose abi_version Pyodide checks), and
# python_stdlib.zip is replaced by our trimmed, precompiled one (`stdLibURL`).
PYODIDE_RUNTIME = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm"]


def pinned_pyodide_version() -> str:
    pkg = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))
    return pkg["dependencies"]["pyodide"]


def check_pyodide() -> str:
    want = pinned_pyodide_version()
    pkg_json = PYODIDE_DIR / "package.json"
    if not pkg_json.is_file():
        raise BuildError(f"{PYODIDE_DIR.relative_to(ROOT)} is missing: run `npm ci` first")
    have = json.loads(pkg_json.read_text(encoding="utf-8"))["version"]
    if have != want:
        raise BuildError(f"node_modules has pyodide {have}, package.json pins {want}: run `npm ci`")
    for name in PYODIDE_RUNTIME + ["python_stdlib.zip", "pyodide-lock.json"]:
        if not (PYODIDE_DIR / name).is_file():
            raise BuildError(f"{PYODIDE_DIR / name} is missing: run `npm ci`")
    return have


def lock_info() -> dict:
    """The 'info' of Pyodide's lock file (abi_version is checked at start)."""
    lock = json.loads((PYODIDE_DIR / "pyodide-lock.json").read_text(encoding="utf-8"))
    return lock["info"]


def node_binary() -> str:
    node = shutil.which("node")
    if not node:
        raise BuildError("node is not on PATH: it is needed to compile the stdlib inside Pyodide "
                         "(or pass --stock-stdlib)")
    return node
