#!/usr/bin/env python3
"""Build the static Briscola site into dist/.

    python build.py                  build dist/
    python build.py --serve [--port 8000]   build, then serve dist/ on 127.0.0.1
    python build.py --serve --no-build      serve the dist/ that is there
    python build.py --check          build, then run tests/pyodide/smoke.py in Pyodide (Node)
    python build.py --stock-stdlib   ship Pyodide's own python_stdlib.zip untouched
    python build.py --no-pyc         leave the engine's bytecode out of the wheel

What it does (standard library only, no pip):

1. Builds a reproducible pure-Python wheel of py/briscola
   (briscola-<version>-py3-none-any.whl, version from briscola/__init__.py).
   Besides the .py files it carries __pycache__/*.cpython-314.pyc compiled by
   Pyodide's Python (tools/compile_package.mjs, cached under build/pyc/), so
   the page does not compile the engine at every start; other Pythons ignore
   them (different cache tag).
2. Produces a trimmed standard library zip of precompiled .pyc files for
   Pyodide's own Python (compiled inside Pyodide by tools/build_stdlib.mjs,
   since the host Python is a different version), cached under
   build/stdlib/ keyed by the Pyodide version and the trim recipe.
3. Stages dist/: the static files (index.html, js/, css/, ...), the wheel,
   the stdlib zip, and only the Pyodide runtime files a start fetches.
   The wheel and stdlib paths carry a content hash; dist/js/build-info.js and
   dist/build-manifest.json list every file with its hash so that a cached
   old file is never mixed with a new one.
"""

from __future__ import annotations

import argparse
import base64
import functools
import gzip
import hashlib
import http.server
import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
PKG_NAME = "briscola"
PKG_DIR = ROOT / "py" / PKG_NAME
PYODIDE_DIR = ROOT / "node_modules" / "pyodide"
DIST = ROOT / "dist"
BUILD_DIR = ROOT / "build"
STDLIB_CACHE = BUILD_DIR / "stdlib"
PYC_CACHE = BUILD_DIR / "pyc"
TOOLS = ROOT / "tools"

# Static files and folders copied to dist/ as they are, when they exist.
STATIC = ["index.html", "js", "css", "img", "fonts", "sounds", "favicon.ico",
          "manifest.webmanifest", "sw.js"]

# The Pyodide runtime files a start really fetches. pyodide-lock.json is not
# among them: the worker passes `lockFileContents` (an empty package index
# carrying only the lock file's "info", whose abi_version Pyodide checks), and
# python_stdlib.zip is replaced by our trimmed, precompiled one (`stdLibURL`).
PYODIDE_RUNTIME = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm"]

# The trim recipe for the standard library (dotted module patterns; a name
# also covers its submodules). tools/build_stdlib.mjs --verify checks that
# every module still shipped imports exactly as well as with the stock zip,
# so a pattern here that something kept imports at load time fails the build.
# Pyodide's own packages (pyodide, _pyodide) and everything its start imports
# (asyncio, logging, zipfile, shutil, tempfile, inspect, ssl, socket, ...)
# stay, and so do importlib.metadata and email, which loadPackage() needs
# (importlib.invalidate_caches() imports importlib.metadata).
STDLIB_RECIPE = {
    "drop": [
        # tests, debuggers, docs, REPL and developer tools
        "unittest", "doctest", "pdb", "bdb", "pydoc", "_pyrepl", "trace",
        "cProfile", "profile", "pstats", "timeit", "tabnanny", "pyclbr",
        "modulefinder", "zipapp", "pickletools", "*.__main__",
        "__hello__", "__phello__", "antigravity", "this",
        # processes, network, mail, web and terminals: nothing a card game
        # in a Web Worker can use
        "multiprocessing", "concurrent.futures.process", "xmlrpc", "wsgiref",
        "http", "urllib.request", "urllib.robotparser", "email.mime", "mailbox",
        "imaplib", "smtplib", "poplib", "ftplib", "webbrowser", "pty", "tty",
        "getpass", "netrc", "nturl2path", "asyncio.windows_events",
        "asyncio.windows_utils",
        # file formats and databases the game does not read
        "xml", "html", "_markupbase", "plistlib", "sqlite3", "shelve",
        "wave", "configparser", "optparse", "ctypes",
        # pure-Python fallbacks of modules Pyodide has built in
        "_pyio", "_pydatetime",
        # single-byte and Windows codecs (cp437 stays: zipfile needs it)
        "encodings.cp[0-9]*", "encodings.mac_*", "encodings.iso8859_*",
        "encodings.koi8_*", "encodings.kz1048", "encodings.ptcp154",
        "encodings.hp_roman8", "encodings.tis_620", "encodings.palmos",
        "encodings.mbcs", "encodings.oem",
    ],
    "keep": ["encodings.cp437", "encodings.cp1252"],
    # -OO bytecode (no docstrings, no asserts) for the stdlib, as CPython's
    # own `python -OO` runs it. Pyodide's own packages keep level 0.
    "optimize": 2,
    "optimize_overrides": {"pyodide": 0, "_pyodide": 0},
    # os, site, codecs, io, ... are frozen into the interpreter: never read
    # from the zip.
    "drop_frozen": True,
}

FIXED_DATE = (1980, 1, 1, 0, 0, 0)  # zip timestamps, for reproducible files

MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".svg": "image/svg+xml",
    ".css": "text/css",
    ".html": "text/html",
    ".woff2": "font/woff2",
}


class BuildError(Exception):
    pass


def log(msg: str) -> None:
    print(f"[build] {msg}", file=sys.stderr, flush=True)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# --------------------------------------------------------------------------
# The wheel


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


def package_files(pkg_dir: Path) -> list[tuple[str, Path]]:
    """(path inside the wheel, file) for every file of the package, sorted."""
    out = []
    for path in sorted(pkg_dir.rglob("*")):
        rel = path.relative_to(pkg_dir)
        if not path.is_file() or any(p.startswith(".") or p == "__pycache__" for p in rel.parts):
            continue
        if path.suffix in (".pyc", ".pyo"):
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


def build_wheel(pkg_dir: Path = PKG_DIR,
                extra: dict[str, bytes] | None = None) -> tuple[str, bytes, str]:
    """Return (file name, wheel bytes, version). Same input, same bytes.

    `extra` maps more paths inside the wheel (the bytecode) to their contents.
    """
    version = read_version(pkg_dir)
    dist_info = f"{PKG_NAME}-{version}.dist-info"
    members = [(name, path.read_bytes()) for name, path in package_files(pkg_dir)]
    members += sorted((extra or {}).items())
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


# --------------------------------------------------------------------------
# Pyodide and the standard library


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
               "--src", str(pkg_dir), "--out", str(tmp / PKG_NAME)]
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
    pycs = {f"{PKG_NAME}/{p.relative_to(out).as_posix()}": p.read_bytes()
            for p in sorted(out.rglob("*.pyc"))}
    if len(pycs) != len(sources):
        raise BuildError(f"expected {len(sources)} .pyc files in {out}, found {len(pycs)}")
    return pycs


def stdlib_cache_key(pyodide_version: str) -> str:
    h = hashlib.sha256()
    h.update(pyodide_version.encode())
    h.update(sha256((PYODIDE_DIR / "python_stdlib.zip").read_bytes()).encode())
    h.update(json.dumps(STDLIB_RECIPE, sort_keys=True).encode())
    for tool in ("build_stdlib.mjs", "stdlib_compile.py", "stdlib_check.py"):
        h.update((TOOLS / tool).read_bytes())
    return f"pyodide-{pyodide_version}-{h.hexdigest()[:12]}"


def trimmed_stdlib(pyodide_version: str, verify: bool = True) -> tuple[Path, dict]:
    """Path of the trimmed precompiled stdlib zip (built on a cache miss) and its report."""
    cache = STDLIB_CACHE / stdlib_cache_key(pyodide_version)
    out, report_path = cache / "python_stdlib.zip", cache / "report.json"
    if out.is_file() and report_path.is_file():
        log(f"stdlib: cached {out.relative_to(ROOT)}")
        return out, json.loads(report_path.read_text(encoding="utf-8"))
    cache.mkdir(parents=True, exist_ok=True)
    recipe = cache / f"recipe-{os.getpid()}.json"
    recipe.write_text(json.dumps(STDLIB_RECIPE, indent=1, sort_keys=True), encoding="utf-8")
    log("stdlib: trimming and compiling inside Pyodide (once; cached afterwards)")
    cmd = [node_binary(), str(TOOLS / "build_stdlib.mjs"), "--pyodide", str(PYODIDE_DIR),
           "--config", str(recipe), "--out", str(out), "--report", str(report_path)]
    if verify:
        cmd.append("--verify")
    started = time.monotonic()
    proc = subprocess.run(cmd, cwd=ROOT)
    recipe.unlink(missing_ok=True)
    if proc.returncode != 0 or not out.is_file():
        raise BuildError(f"stdlib build failed (exit {proc.returncode}); see the output above")
    log(f"stdlib: built in {time.monotonic() - started:.0f} s")
    # Older cache entries for other versions or recipes are of no further use.
    for old in STDLIB_CACHE.iterdir():
        if old != cache and old.is_dir():
            shutil.rmtree(old, ignore_errors=True)
    return out, json.loads(report_path.read_text(encoding="utf-8"))


# --------------------------------------------------------------------------
# Staging dist/


def copy_static(stage: Path) -> None:
    for name in STATIC:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, stage / name, ignore=shutil.ignore_patterns(
                ".*", "__pycache__", "*.map", "build-info.js"))
        elif src.is_file():
            shutil.copy2(src, stage / name)


def build_info_js(info: dict) -> str:
    body = json.dumps(info, indent=2, sort_keys=False)
    return (
        "// Generated by build.py: do not edit. Paths are relative to the site root\n"
        "// (the folder holding index.html); `hash` changes whenever any shipped file does.\n"
        f"export const BUILD = Object.freeze({body});\n"
    )


def stage_dist(stock_stdlib: bool = False, verify_stdlib: bool = True,
               bytecode: bool = True) -> dict:
    read_version()  # fails first, and clearly, when there is no package yet
    pyodide_version = check_pyodide()
    pycs = engine_bytecode(pyodide_version) if bytecode else {}
    wheel_name, wheel_bytes, version = build_wheel(extra=pycs)

    # Per-process names: tests and people may build at the same time.
    stage = BUILD_DIR / f"dist-staging-{os.getpid()}"
    shutil.rmtree(stage, ignore_errors=True)
    stage.mkdir(parents=True)
    copy_static(stage)

    wheel_rel = f"wheels/{sha256(wheel_bytes)[:12]}/{wheel_name}"
    (stage / wheel_rel).parent.mkdir(parents=True)
    (stage / wheel_rel).write_bytes(wheel_bytes)
    log(f"wheel: {wheel_rel} ({len(wheel_bytes)} bytes)")

    (stage / "pyodide").mkdir()
    for name in PYODIDE_RUNTIME:
        shutil.copyfile(PYODIDE_DIR / name, stage / "pyodide" / name)
    if stock_stdlib:
        stdlib_src, stdlib_report = PYODIDE_DIR / "python_stdlib.zip", {"stock": True}
    else:
        stdlib_src, stdlib_report = trimmed_stdlib(pyodide_version, verify_stdlib)
    stdlib_bytes = stdlib_src.read_bytes()
    stdlib_rel = f"pyodide/python_stdlib-{sha256(stdlib_bytes)[:12]}.zip"
    (stage / stdlib_rel).write_bytes(stdlib_bytes)
    log(f"stdlib: {stdlib_rel} ({len(stdlib_bytes)} bytes)")

    files = {}
    for path in sorted(p for p in stage.rglob("*") if p.is_file()):
        data = path.read_bytes()
        files[path.relative_to(stage).as_posix()] = {
            "sha256": sha256(data),
            "size": len(data),
            "gzip": len(gzip.compress(data, compresslevel=9, mtime=0)),
        }
    build_hash = hashlib.sha256(
        "".join(f"{p}\0{f['sha256']}\n" for p, f in files.items()).encode()
    ).hexdigest()[:12]

    info = {
        "version": version,
        "hash": build_hash,
        "pyodide": pyodide_version,
        "lockInfo": lock_info(),
        "wheel": wheel_rel,
        "stdlib": stdlib_rel,
        "files": sorted([*files, "js/build-info.js"]),
    }
    (stage / "js").mkdir(exist_ok=True)
    info_js = build_info_js(info).encode()
    (stage / "js" / "build-info.js").write_bytes(info_js)
    files["js/build-info.js"] = {"sha256": sha256(info_js), "size": len(info_js),
                                 "gzip": len(gzip.compress(info_js, 9, mtime=0))}
    manifest = {**{k: v for k, v in info.items() if k != "files"},
                "files": dict(sorted(files.items())),
                "stdlib_report": stdlib_report}
    (stage / "build-manifest.json").write_text(json.dumps(manifest, indent=1) + "\n",
                                               encoding="utf-8")

    # Swap the finished staging folder in: dist/ is never half written.
    old = BUILD_DIR / f"dist-old-{os.getpid()}"
    for attempt in range(50):
        try:
            if DIST.exists():
                DIST.rename(old)
            stage.rename(DIST)
            break
        except OSError:  # another build swapped at the same moment
            if attempt == 49:
                raise
            time.sleep(0.1)
    shutil.rmtree(old, ignore_errors=True)

    raw = sum(f["size"] for f in files.values())
    gz = sum(f["gzip"] for f in files.values())
    log(f"dist/: {len(files)} files, {raw / 1e6:.2f} MB ({gz / 1e6:.2f} MB gzipped), "
        f"build {build_hash}, briscola {version}, pyodide {pyodide_version}")
    return manifest


# --------------------------------------------------------------------------
# Serving and checking


class Handler(http.server.SimpleHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: the page makes a dozen requests
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}

    def end_headers(self):
        # Development server: always revalidate, so a rebuild shows at once.
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, fmt, *args):
        if os.environ.get("BUILD_SERVE_QUIET"):
            return
        super().log_message(fmt, *args)


def serve(port: int) -> None:
    if not (DIST / "index.html").is_file() and not (DIST / "js").is_dir():
        log("warning: dist/ has no index.html yet")
    handler = functools.partial(Handler, directory=str(DIST))
    try:
        server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    except OSError as exc:
        raise BuildError(f"cannot serve on 127.0.0.1:{port}: {exc.strerror}; try --port N") from exc
    log(f"serving {DIST} at http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def check() -> int:
    cmd = [node_binary(), str(ROOT / "tests" / "pyodide" / "run.mjs"), "--timing",
           str(ROOT / "tests" / "pyodide" / "smoke.py")]
    log("check: " + " ".join(cmd))
    return subprocess.run(cmd, cwd=ROOT).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--serve", action="store_true", help="serve dist/ after building")
    parser.add_argument("--port", type=int, default=8000, help="port for --serve (default 8000)")
    parser.add_argument("--no-build", action="store_true", help="with --serve: serve dist/ as it is")
    parser.add_argument("--check", action="store_true",
                        help="after building, run tests/pyodide/smoke.py in Pyodide under Node")
    parser.add_argument("--stock-stdlib", action="store_true",
                        help="ship Pyodide's python_stdlib.zip instead of the trimmed one")
    parser.add_argument("--no-pyc", action="store_true",
                        help="do not put the engine's Pyodide bytecode in the wheel")
    parser.add_argument("--no-verify-stdlib", action="store_true",
                        help="skip the import check when (re)building the trimmed stdlib")
    args = parser.parse_args(argv)
    try:
        if not (args.serve and args.no_build):
            stage_dist(stock_stdlib=args.stock_stdlib, verify_stdlib=not args.no_verify_stdlib,
                       bytecode=not args.no_pyc)
        if args.check:
            code = check()
            if code:
                return code
        if args.serve:
            serve(args.port)
    except BuildError as exc:
        log(f"error: {exc}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
