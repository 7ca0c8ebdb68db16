"""The learned evaluations shipped apart from the engine: loaded when their variant is played.

Each model is a binary file of the package, `py/briscola/ai/learn/models/<name>.bin`
(briscola.ai.learn: a short header of JSON metadata, then the weights as bytes; a quarter
fewer bytes than the base64 text they were once shipped as, fewer even gzipped). The engine's
wheel (wheel.py) carries only the models named by `IN_WHEEL` in
py/briscola/ai/learn/__init__.py (two- and four-player Briscola, Briscola Chiamata's network).
Every other model file present at build time is copied, the same bytes, to a file of its own,
`models/<name>-<hash>.bin`, which briscola.ai.learn.install reads. Each is listed in
js/build-info.js and build-manifest.json (`models`: name -> {path, sha256}); the page's worker
fetches one, checks its SHA-256 and installs it before a game that searches with it plays
(js/worker/models.js "Models loaded when their variant is played").

The service worker does not precache them (a first visit's bytes stay what a classic game
needs) but keeps each once fetched (sw.js `KEEP`); the one-file page carries them all (it
plays every variant from disk); the wheels for micropip keep every model file.

The files are read, never run: `IN_WHEEL` from the package's source by ast.literal_eval, and
of each model file its header, checked to be that model's (the whole file is checked by the
engine that installs it).
"""

from __future__ import annotations

import ast
import json
import struct
from pathlib import Path

from .common import PKG_DIR, BuildError, sha256

LEARN = Path("ai") / "learn"  # inside the package
PKG_MODELS = LEARN / "models"  # inside the package: <name>.bin
MODELS_DIR = "models"  # inside the site: <name>-<hash>.bin


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


def model_files(pkg_dir: Path = PKG_DIR) -> dict[str, Path]:
    """name -> model file, for every model of the package, sorted."""
    return {p.stem: p for p in sorted((pkg_dir / PKG_MODELS).glob("*.bin"))}


def lazy_models(pkg_dir: Path = PKG_DIR) -> dict[str, Path]:
    """name -> model file, for every model the engine's wheel leaves out, sorted."""
    keep = set(in_wheel(pkg_dir))
    return {name: p for name, p in model_files(pkg_dir).items() if name not in keep}


def left_out(pkg_dir: Path = PKG_DIR) -> frozenset[str]:
    """The lazy models' files as paths under the package (`ai/learn/models/three.bin`)."""
    return frozenset((PKG_MODELS / p.name).as_posix() for p in lazy_models(pkg_dir).values())


def model_file(name: str, path: Path) -> bytes:
    """The file shipped for model `name`: the package's own, once its header says it is that
    model's (briscola.ai.learn's layout: b"BRNN", a version byte, the metadata's length in two
    bytes, the metadata as JSON)."""
    data = path.read_bytes()
    meta = None
    if data[:4] == b"BRNN" and len(data) >= 7:
        (n,) = struct.unpack_from("<H", data, 5)
        try:
            meta = json.loads(data[7:7 + n])
        except ValueError:
            meta = None
    if not isinstance(meta, dict):
        raise BuildError(f"{path}: not a model file (tools/train/train.py writes them)")
    if meta.get("name") != name:
        raise BuildError(f"{path}: its metadata name the model {meta.get('name')!r}, the file {name!r}")
    return data


def stage_models(stage: Path, pkg_dir: Path = PKG_DIR) -> dict[str, dict]:
    """Write each lazy model into the staged site; name -> {path, sha256} (build-info.js)."""
    out = {}
    for name, path in lazy_models(pkg_dir).items():
        data = model_file(name, path)
        rel = f"{MODELS_DIR}/{name}-{sha256(data)[:12]}.bin"
        (stage / rel).parent.mkdir(parents=True, exist_ok=True)
        (stage / rel).write_bytes(data)
        out[name] = {"path": rel, "sha256": sha256(data)}
    return out


def is_model(rel: str) -> bool:
    """Whether a file of dist/ is a lazy model (not precached, kept once fetched)."""
    return rel.startswith(MODELS_DIR + "/")
