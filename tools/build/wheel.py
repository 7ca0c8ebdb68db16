"""The engine's wheel: a reproducible pure-Python wheel of py/briscola
(briscola-<version>-py3-none-any.whl, the version from briscola/__init__.py),
and the engine's bytecode that goes in it.

The bytecode is compiled by Pyodide's own Python (tools/compile_package.mjs,
cached under build/pyc/ keyed by the sources) and placed where the sources would
be (briscola/game.pyc): the page puts the wheel itself on sys.path and zipimport
reads it, nothing to compile or install at start. The sources stay out (about
90 KB less to download), and so do the docstrings (about 45 KB: the engine never reads
one at run time); tracebacks keep file names and line numbers. This wheel
is for Pyodide 3.14 only (`pip install .` is the way to the engine elsewhere).

The site also serves a second wheel, for micropip in any Pyodide (README: the engine by
micropip): the whole package as sources, research environment included (`full=True`),
which the page never downloads.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import zipfile
from pathlib import Path

from .common import (FIXED_DATE, PKG_DIR, PKG_NAME, PYC_CACHE, PYODIDE_DIR, ROOT, TOOLS,
                     BuildError, log, sha256)
from .models import left_out
from .runtime import node_binary


def read_version(pkg_dir: Path = PKG_DIR) -> str:
    init = pkg_dir / "__init__.py"
    if not init.is_file():
        raise BuildError(
            f"{init.relative_to(ROOT) if init.is_relative_to(ROOT) else init} "
            "not found: the briscola package is not there yet, nothing to build"
        )
    match = re.search(r"""^__version__\s*(?::\s*str\s*)?=\s*["']([^"']+)["']""",
                      init.read_text(encoding="utf-8"), re.M)
    if not match:
        raise BuildError(f"{init}: no line like __version__ = \"1.2.3\"")
    version = match.group(1)
    if not re.fullmatch(r"[0-9]+(\.[0-9]+)*((a|b|rc)[0-9]+)?(\.post[0-9]+)?(\.dev[0-9]+)?"
                        r"(\+[a-z0-9]+(\.[a-z0-9]+)*)?", version):
        raise BuildError(f"{init}: __version__ {version!r} is not a PEP 440 version")
    return version


# The engine's command line (`python3 -m briscola`) never runs in the browser (its argparse is
# not in the trimmed stdlib either): left out of the wheel, about 8 KB less to download. Nor
# does the research environment (briscola.env needs PettingZoo and numpy): the micropip wheel
# carries both. Nor do the learned evaluations of the variants other than two- and four-player
# Briscola and Chiamata (models.py): each is a file of its own, loaded when its variant is played.
NOT_IN_BROWSER = frozenset({"cli.py", "__main__.py", "env.py"})

# The modules that the engine's start (bridge.prepare: a first deal's imports) does not import,
# in the page's wheel as their source, which deflates to less than half of their bytecode,
# compiled when first imported: those a table that deals fairly runs (docs/friends.md, "The
# fair deal"; 18 KB of bytecode against 8 KB), the coach's review, puzzle, rating and tracker,
# Chiamata's teaching notes (the review's) and the command line's arena (33 KB of bytecode
# against 16 KB). The hint's (ai/teach.py, explain.py, evaluate.py) stay bytecode: a first
# deal may ask for one at any turn, and each visit would compile them again (about 95 KB).
AS_SOURCE = frozenset({"masked.py", "fairplay.py", "coach/review.py", "coach/puzzle.py", "coach/rating.py",
                       "coach/tracker.py", "ai/chiamata/teach.py", "arena.py"})


def not_in_browser(pkg_dir: Path) -> frozenset[str]:
    """The package's paths the page's wheel leaves out: NOT_IN_BROWSER and the lazy models."""
    return NOT_IN_BROWSER | left_out(pkg_dir)


def package_files(pkg_dir: Path, full: bool = False) -> list[tuple[str, Path]]:
    """(path inside the wheel, file) for every file of the package the browser needs (`full`:
    every file), sorted."""
    out = []
    skip = frozenset() if full else not_in_browser(pkg_dir)
    for path in sorted(pkg_dir.rglob("*")):
        rel = path.relative_to(pkg_dir)
        if not path.is_file() or any(p.startswith(".") or p == "__pycache__" for p in rel.parts):
            continue
        if path.suffix in (".pyc", ".pyo") or rel.as_posix() in skip:
            continue
        out.append((f"{PKG_NAME}/{rel.as_posix()}", path))
    return out


def zip_entry(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, FIXED_DATE)
    info.create_system = 3
    info.external_attr = 0o100644 << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    return info


def record_hash(data: bytes) -> str:
    digest = hashlib.sha256(data).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def page_languages(pkg_dir: Path = PKG_DIR) -> bytes:
    """briscola/languages.json: the languages js/locales/index.js lists, read as the engine reads
    them in a source checkout (briscola/languages.py, parse_index), for the bridge to check."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("_briscola_languages", pkg_dir / "languages.py")
    if spec is None or spec.loader is None or not (ROOT / "js" / "locales" / "index.js").is_file():
        raise BuildError("no js/locales/index.js or briscola/languages.py: the page's languages are unknown")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    try:
        langs = module.parse_index((ROOT / "js" / "locales" / "index.js").read_text(encoding="utf-8"))
    except ValueError as e:
        raise BuildError(str(e)) from None
    return (json.dumps(list(langs)) + "\n").encode()


def build_wheel(pkg_dir: Path = PKG_DIR, extra: dict[str, bytes] | None = None,
                sources: bool = True, full: bool = False) -> tuple[str, bytes, str]:
    """Return (file name, wheel bytes, version). Same input, same bytes.

    `extra` maps more paths inside the wheel (the bytecode) to their contents;
    with `sources` False the .py files are left out (a sourceless wheel); `full` keeps
    the modules the browser never runs (NOT_IN_BROWSER).
    """
    version = read_version(pkg_dir)
    dist_info = f"{PKG_NAME}-{version}.dist-info"
    as_source = {f"{PKG_NAME}/{m}" for m in AS_SOURCE}
    members = [(name, path.read_bytes()) for name, path in package_files(pkg_dir, full)
               if sources or not name.endswith(".py") or name in as_source]
    compiled = {k: v for k, v in (extra or {}).items()
                if sources or k.removesuffix(".pyc") + ".py" not in as_source}
    members += sorted({f"{PKG_NAME}/languages.json": page_languages(pkg_dir), **compiled}.items())
    metadata = (
        "Metadata-Version: 2.1\n"
        f"Name: {PKG_NAME}\n"
        f"Version: {version}\n"
        "Summary: Briscola card game engine and AI\n"
        "Requires-Python: >=3.11\n"
    ).encode()
    wheel = (
        "Wheel-Version: 1.0\n"
        "Generator: briscola build.py\n"
        "Root-Is-Purelib: true\n"
        "Tag: py3-none-any\n"
    ).encode()
    members += [(f"{dist_info}/METADATA", metadata), (f"{dist_info}/WHEEL", wheel),
                (f"{dist_info}/top_level.txt", f"{PKG_NAME}\n".encode())]
    record = "".join(f"{name},{record_hash(data)},{len(data)}\n" for name, data in members)
    record += f"{dist_info}/RECORD,,\n"
    members.append((f"{dist_info}/RECORD", record.encode()))

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in members:
            zf.writestr(zip_entry(name), data, compresslevel=9)
    return f"{PKG_NAME}-{version}-py3-none-any.whl", buf.getvalue(), version


def engine_bytecode(pyodide_version: str, pkg_dir: Path = PKG_DIR) -> dict[str, bytes]:
    """{path in the wheel: .pyc bytes} for every module, compiled inside Pyodide."""
    sources = [(name, path) for name, path in package_files(pkg_dir) if name.endswith(".py")]
    h = hashlib.sha256(pyodide_version.encode())
    h.update((TOOLS / "compile_package.mjs").read_bytes())
    for name, path in sources:
        h.update(f"{name}\0{sha256(path.read_bytes())}\n".encode())
    cache = PYC_CACHE / f"pyodide-{pyodide_version}-{h.hexdigest()[:12]}"
    out = cache / PKG_NAME
    if not (cache / "cache_tag.txt").is_file():
        log("bytecode: compiling the engine inside Pyodide")
        tmp = PYC_CACHE / f"tmp-{os.getpid()}"
        shutil.rmtree(tmp, ignore_errors=True)
        cmd = [node_binary(), str(TOOLS / "compile_package.mjs"), "--pyodide", str(PYODIDE_DIR),
               "--src", str(pkg_dir), "--out", str(tmp / PKG_NAME),
               "--skip", ",".join(sorted(not_in_browser(pkg_dir)))]
        proc = subprocess.run(cmd, cwd=ROOT)
        if proc.returncode != 0 or not (tmp / "cache_tag.txt").is_file():
            shutil.rmtree(tmp, ignore_errors=True)
            raise BuildError(f"compiling the engine failed (exit {proc.returncode}); "
                             "see the output above, or build with --no-pyc")
        shutil.rmtree(cache, ignore_errors=True)
        try:
            tmp.rename(cache)
        except OSError:  # a build running at the same time got there first
            shutil.rmtree(tmp, ignore_errors=True)
        for old in PYC_CACHE.iterdir():
            if old != cache and old.is_dir() and not old.name.startswith("tmp-"):
                shutil.rmtree(old, ignore_errors=True)
    else:
        log(f"bytecode: cached {cache.relative_to(ROOT)}")
    wanted = {name[:-len(".py")] for name, _ in sources}
    pycs = {f"{PKG_NAME}/{p.relative_to(out).as_posix()}": p.read_bytes()
            for p in sorted(out.rglob("*.pyc"))
            if f"{PKG_NAME}/{p.parent.parent.relative_to(out).as_posix()}/{p.name.split('.', 1)[0]}"
            .replace("/./", "/") in wanted}
    if len(pycs) != len(sources):
        raise BuildError(f"expected {len(sources)} .pyc files in {out}, found {len(pycs)}")
    return pycs


def sourceless(pycs: dict[str, bytes]) -> dict[str, bytes]:
    """Move each `pkg/__pycache__/mod.<tag>.pyc` to `pkg/mod.pyc`, where Python
    imports bytecode that has no source beside it, from a folder (after
    loadPackage) as from a zip on sys.path (zipimport, which never looks in
    __pycache__)."""
    out = {}
    for name, data in pycs.items():
        head, _, tail = name.rpartition("/__pycache__/")
        out[f"{head}/{tail.split('.', 1)[0]}.pyc"] = data
    return out
