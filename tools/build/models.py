"""The learned evaluations shipped apart from the engine: loaded when their variant is played.

The engine's wheel (wheel.py) carries only the weights modules named by `IN_WHEEL` in
py/briscola/ai/learn/__init__.py (two- and four-player Briscola, Briscola Chiamata's network).
Every other `py/briscola/ai/learn/weights_<name>.py` present at build time becomes a file of
its own, `models/<name>-<hash>.json`: the module's META and WEIGHTS as JSON
(`{"name", "meta", "weights"}`, which briscola.ai.learn.install reads), its name carrying a
content hash. Each is listed in js/build-info.js and build-manifest.json (`models`: name ->
{path, sha256}); the page's worker fetches one, checks its SHA-256 and installs it before a
game that searches with it plays (js/worker.js "Models loaded when their variant is played").

The service worker does not precache them (a first visit's bytes stay what a classic game
needs) but keeps each once fetched (sw.js `KEEP`); the one-file page carries them all (it
plays every variant from disk); the wheels for micropip keep every weights module as source.

The module is read, never run: its assignments of literals only (ast.literal_eval).
"""

from __future__ import annotations

import ast
import json
from pathlib import Path

from .common import PKG_DIR, BuildError, sha256

LEARN = Path("ai") / "learn"  # inside the package
MODELS_DIR = "models"


def _literals(path: Path) -> dict:
    """The module-level `NAME = <literal>` assignments of a Python file (a docstring aside)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    except SyntaxError as e:
        raise BuildError(f"{path}: {e}") from None
    out = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                out[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                continue  # not a literal: not what is read here
    return out


def in_wheel(pkg_dir: Path = PKG_DIR) -> tuple[str, ...]:
    """The models the engine's wheel carries: `IN_WHEEL` of briscola.ai.learn."""
    init = pkg_dir / LEARN / "__init__.py"
    names = _literals(init).get("IN_WHEEL")
    if not isinstance(names, (tuple, list)) or not all(isinstance(n, str) for n in names):
        raise BuildError(f"{init}: no `IN_WHEEL = (\"classic\", ...)` tuple of model names")
    return tuple(names)


def lazy_models(pkg_dir: Path = PKG_DIR) -> dict[str, Path]:
    """name -> weights module, for every model the engine's wheel leaves out, sorted."""
    keep = set(in_wheel(pkg_dir))
    found = sorted((pkg_dir / LEARN).glob("weights_*.py"))
    return {p.stem[len("weights_"):]: p for p in found if p.stem[len("weights_"):] not in keep}


def left_out(pkg_dir: Path = PKG_DIR) -> frozenset[str]:
    """The lazy models' modules as paths under the package (`ai/learn/weights_three.py`)."""
    return frozenset((LEARN / p.name).as_posix() for p in lazy_models(pkg_dir).values())


def model_json(name: str, path: Path) -> bytes:
    """The file shipped for model `name`: its weights module's META and WEIGHTS as JSON."""
    found = _literals(path)
    meta, weights = found.get("META"), found.get("WEIGHTS")
    if not isinstance(meta, dict) or not isinstance(weights, str):
        raise BuildError(f"{path}: expected META = {{...}} and WEIGHTS = \"...\" (tools/train/train.py)")
    if meta.get("name") != name:
        raise BuildError(f"{path}: META names the model {meta.get('name')!r}, the file {name!r}")
    return json.dumps({"name": name, "meta": meta, "weights": weights},
                      separators=(",", ":")).encode()


def stage_models(stage: Path, pkg_dir: Path = PKG_DIR) -> dict[str, dict]:
    """Write each lazy model into the staged site; name -> {path, sha256} (build-info.js)."""
    out = {}
    for name, path in lazy_models(pkg_dir).items():
        data = model_json(name, path)
        rel = f"{MODELS_DIR}/{name}-{sha256(data)[:12]}.json"
        (stage / rel).parent.mkdir(parents=True, exist_ok=True)
        (stage / rel).write_bytes(data)
        out[name] = {"path": rel, "sha256": sha256(data)}
    return out


def is_model(rel: str) -> bool:
    """Whether a file of dist/ is a lazy model (not precached, kept once fetched)."""
    return rel.startswith(MODELS_DIR + "/")
