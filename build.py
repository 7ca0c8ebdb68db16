#!/usr/bin/env python3
"""Build the static Briscola site into dist/.

    python build.py                  build dist/
    python build.py --out DIR        build into DIR instead (measurements, side by side)
    python build.py --serve [--port 8000] [--base /briscola/]
                                     build, then serve dist/ on 127.0.0.1 as a static
                                     host does (gzip, validators), under --base if given
    python build.py --serve --no-build      serve the dist/ that is there
    python build.py --check          build, then run tests/pyodide/smoke.py in Pyodide (Node)
    python build.py --stock-stdlib   ship Pyodide's own python_stdlib.zip untouched
    python build.py --no-pyc         ship the engine's .py sources instead of bytecode

What it does (standard library only, no pip):

1. Builds a reproducible pure-Python wheel of py/briscola
   (briscola-<version>-py3-none-any.whl, version from briscola/__init__.py).
   It holds the engine as bytecode only, compiled by Pyodide's Python
   (tools/compile_package.mjs, cached under build/pyc/) and placed beside where
   the sources would be (briscola/game.pyc): the page puts the wheel itself on
   sys.path and zipimport reads it, nothing to compile or install at start. The
   sources stay out (about 90 KB less to download); tracebacks keep file names
   and line numbers. This wheel is for Pyodide 3.14 only (`pip install .` is the
   way to the engine elsewhere).
2. Produces a trimmed standard library zip of precompiled .pyc files for
   Pyodide's own Python (compiled inside Pyodide by tools/build_stdlib.mjs,
   since the host Python is a different version), cached under
   build/stdlib/ keyed by the Pyodide version and the trim recipe.
3. Stages dist/: the static files (index.html, js/, css/, img/, the app
   manifest), the wheel, the stdlib zip, and only the Pyodide runtime files a
   start fetches. dist/index.html gets <link rel="modulepreload"> for every
   module the page imports. The wheel and stdlib paths carry a content hash;
   dist/js/build-info.js and dist/build-manifest.json list every file with its
   hash so that a cached old file is never mixed with a new one.
4. Writes dist/sw.js, the service worker, with the build hash and every file
   of the site with its SHA-256 (offline play: see sw.js), and
   dist/briscola.html, the whole game in one file that works from disk
   (see one_file_page below).
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
import urllib.parse
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
        "wave", "configparser", "optparse", "ctypes", "tomllib",
        "pickle", "_compat_pickle", "mimetypes", "zoneinfo", "json.tool",
        # command lines, numbers, dates and text tools nothing here calls (the
        # engine's own command line, briscola.cli, is not used in the browser)
        "argparse", "getopt", "gettext", "cmd", "shlex", "fileinput", "filecmp",
        "sched", "graphlib", "colorsys", "statistics", "fractions", "difflib",
        "calendar", "_strptime", "uuid", "pprint", "stringprep",
        "encodings.idna", "encodings.punycode", "socketserver", "symtable",
        "tracemalloc", "compileall", "logging.handlers", "logging.config",
        "asyncio.tools", "asyncio.proactor_events", "concurrent.interpreters",
        "concurrent.futures.interpreter", "gzip", "compression.gzip",
        "sysconfig", "_sysconfigdata_*",
        # Pyodide's REPL support and fetch from Python (the worker talks JSON)
        "pyodide.console", "pyodide.http", "code", "rlcompleter", "platform",
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


def build_wheel(pkg_dir: Path = PKG_DIR, extra: dict[str, bytes] | None = None,
                sources: bool = True) -> tuple[str, bytes, str]:
    """Return (file name, wheel bytes, version). Same input, same bytes.

    `extra` maps more paths inside the wheel (the bytecode) to their contents;
    with `sources` False the .py files are left out (a sourceless wheel).
    """
    version = read_version(pkg_dir)
    dist_info = f"{PKG_NAME}-{version}.dist-info"
    members = [(name, path.read_bytes()) for name, path in package_files(pkg_dir)
               if sources or not name.endswith(".py")]
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
        if name == "sw.js":
            continue  # written by service_worker(), with the build's file list
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, stage / name, ignore=shutil.ignore_patterns(
                ".*", "__pycache__", "*.map", "build-info.js"))
        elif src.is_file():
            shutil.copy2(src, stage / name)


def module_graph(stage: Path, entries: list[str]) -> list[str]:
    """Every module the entries import, directly or not (relative imports), in
    dependency order, the entries last."""
    order: list[str] = []

    def visit(rel: str, chain: tuple[str, ...]) -> None:
        if rel in chain:
            raise BuildError(f"import cycle: {' -> '.join(chain + (rel,))}")
        if rel in order:
            return
        path = stage / rel
        if not path.is_file():
            raise BuildError(f"{chain[-1] if chain else 'index.html'} imports {rel}, which is missing")
        for m in _IMPORT.finditer(path.read_text(encoding="utf-8")):
            visit(_resolve(rel, m.group(4)), chain + (rel,))
        order.append(rel)

    for entry in entries:
        visit(entry, ())
    return order


def page_entries(html: str) -> list[str]:
    return re.findall(r'<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"', html)


def preload_modules(stage: Path) -> None:
    """dist/index.html asks for every module of the page at once
    (<link rel="modulepreload">) instead of discovering them import by import."""
    html = (stage / "index.html").read_text(encoding="utf-8")
    entries = page_entries(html)
    links = "".join(f'  <link rel="modulepreload" href="{rel}">\n'
                    for rel in module_graph(stage, entries) if rel not in entries)
    if links and "</head>" in html:
        (stage / "index.html").write_text(html.replace("</head>", links + "</head>", 1),
                                          encoding="utf-8")


def build_info_js(info: dict) -> str:
    body = json.dumps(info, indent=2, sort_keys=False)
    return (
        "// Generated by build.py: do not edit. Paths are relative to the site root\n"
        "// (the folder holding index.html); `hash` changes whenever any shipped file does.\n"
        f"export const BUILD = Object.freeze({body});\n"
    )


def sri(sha256_hex: str) -> str:
    return "sha256-" + base64.b64encode(bytes.fromhex(sha256_hex)).decode()


def add_file(stage: Path, files: dict, rel: str, data: bytes) -> None:
    (stage / rel).write_bytes(data)
    files[rel] = {"sha256": sha256(data), "size": len(data),
                  "gzip": len(gzip.compress(data, 9, mtime=0))}


SW_PLACEHOLDER = "const PRECACHE = null; // build.py"


def service_worker(template: str, build_hash: str, precache: dict[str, str]) -> str:
    """sw.js with the build's hash and files (path -> integrity) filled in."""
    if template.count(SW_PLACEHOLDER) != 1:
        raise BuildError(f"sw.js: expected the line `{SW_PLACEHOLDER}` once")
    data = json.dumps({"hash": build_hash, "files": dict(sorted(precache.items()))}, indent=1)
    return template.replace(SW_PLACEHOLDER, f"const PRECACHE = {data};", 1)


# --------------------------------------------------------------------------
# The one-file page (dist/briscola.html)
#
# A file:// page may import no module from a file, start no module worker from a
# blob (its origin is opaque), and fetch nothing, not even its own blob: URLs from
# a worker. So the page carries everything: the UI's modules bundled into one
# inline module script, the stylesheets inline, and the engine's files as base64
# data blocks, gzip-compressed where that helps. The engine's worker is one
# classic script: Pyodide's classic loader (pyodide.js), pyodide.asm.mjs made a
# classic script, and js/worker.js with the build info inline. At load, a small
# inline bootstrap decodes the blocks into Blobs, starts that worker from a blob:
# URL (js/engine.js setWorker) and posts it the other files (the wasm, the stdlib,
# the wheel), which its fetch() then answers from memory.

ONE_FILE = "briscola.html"
WORKER_IMPORT = 'import { BUILD } from "./build-info.js";'
ASM_EXPORT = "export default _createPyodideModule;"

# import D from "./m.js";  import { a, b as c } from "./m.js";  import * as ns from "./m.js";
# import D, { a } from "./m.js";  import D, * as ns from "./m.js";  import "./m.js";
_IMPORT = re.compile(r"""^import\s+(?:(?:(\w+)\s*(?:,\s*)?)?(?:\{([^}]*)\}|\*\s+as\s+(\w+))?\s*from\s+)?"""
                     r"""["'](\.{1,2}/[^"']+)["'];?[ \t]*$""", re.M)
_EXPORT_DECL = re.compile(r"^export\s+((?:async\s+)?function\*?\s+(\w+)|class\s+(\w+)|"
                          r"(?:const|let|var)\s+(\w+))", re.M)
_EXPORT_DEFAULT = re.compile(r"^export\s+default\s+(?:((?:async\s+)?function\*?\s+(\w+)|class\s+(\w+))|(?=\S))",
                             re.M)
_EXPORT_LIST = re.compile(r"^export\s*\{([^}]*)\}\s*;?[ \t]*$", re.M)
_LEFTOVER = re.compile(r"^\s*(?:import\s*[\w{*\"']|export\b)|\bimport\s*\(", re.M)


def _bindings(names: str) -> list[tuple[str, str]]:
    """'a, b as c' -> [('a', 'a'), ('b', 'c')]"""
    out = []
    for part in filter(None, (x.strip() for x in names.split(","))):
        m = re.fullmatch(r"(\w+)(?:\s+as\s+(\w+))?", part)
        if not m:
            raise BuildError(f"cannot bundle the import/export list {names!r}")
        out.append((m.group(1), m.group(2) or m.group(1)))
    return out


def bundle_modules(stage: Path, entries: list[str], between: str = "") -> str:
    """One inline module script from the page's ES modules: each module becomes a
    block that publishes its exports in `__modules`; imports read from there.
    Only what the UI uses is supported (named and namespace imports of relative
    paths, exported declarations and lists); anything else fails the build.
    `between` runs after every dependency and before the entry modules."""
    order = module_graph(stage, entries)
    deps = [m for m in order if m not in entries]
    parts = ["const __modules = Object.create(null);"]
    for rel in deps + ["\0between"] + [e for e in order if e in entries]:
        if rel == "\0between":
            parts.append(between)
            continue
        code = (stage / rel).read_text(encoding="utf-8")
        exports: list[tuple[str, str]] = []

        def imp(m: re.Match, rel=rel) -> str:
            target = f"__modules[{json.dumps(_resolve(rel, m.group(4)))}]"
            default, names, namespace = m.group(1), m.group(2), m.group(3)
            out = []
            if default:
                out.append(f"const {default} = {target}.default;")
            if namespace:
                out.append(f"const {namespace} = {target};")
            if names is not None and names.strip():
                pairs = ", ".join(a if a == b else f"{a}: {b}" for a, b in _bindings(names))
                out.append(f"const {{ {pairs} }} = {target};")
            return " ".join(out)  # a bare import ("./m.js") only orders the modules

        def default(m: re.Match) -> str:
            if m.group(1):
                exports.append((m.group(2) or m.group(3), "default"))
                return m.group(1)
            exports.append(("__default", "default"))
            return "const __default = "

        def decl(m: re.Match) -> str:
            name = m.group(2) or m.group(3) or m.group(4)
            exports.append((name, name))
            return m.group(1)

        def lst(m: re.Match) -> str:
            exports.extend(_bindings(m.group(1)))
            return ""

        code = _IMPORT.sub(imp, code)
        code = _EXPORT_DEFAULT.sub(default, code)
        code = _EXPORT_DECL.sub(decl, code)
        code = _EXPORT_LIST.sub(lst, code)
        left = _LEFTOVER.search(code)
        if left:
            line = code.count("\n", 0, left.start()) + 1
            raise BuildError(f"{rel}:{line}: cannot bundle this import/export for {ONE_FILE}")
        table = ", ".join(b if a == b else f"{b}: {a}" for a, b in exports)
        if len({b for _, b in exports}) != len(exports):
            raise BuildError(f"{rel}: an export name twice")
        parts.append(f"// ---- {rel}\n{{\n{code.rstrip()}\n"
                     f"__modules[{json.dumps(rel)}] = Object.freeze({{ {table} }});\n}}")
    return "\n".join(parts) + "\n"


def _resolve(importer: str, spec: str) -> str:
    parts = importer.split("/")[:-1]
    for piece in spec.split("/"):
        if piece == "..":
            if not parts:
                raise BuildError(f"{importer}: {spec} leaves the site")
            parts.pop()
        elif piece not in (".", ""):
            parts.append(piece)
    return "/".join(parts)


def _csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


# Decodes the carried files (base64 data blocks, some gzip-compressed) into
# Blobs and chooses the engine's worker: the classic script, from a blob: URL.
ONE_FILE_BOOTSTRAP = """// ---- the one-file page: the engine's files, from this page's data blocks
await (async () => {
  const files = {};
  for (const el of document.querySelectorAll('script[type="application/octet-stream"][data-path]')) {
    const blob = await (await fetch(`data:${el.dataset.type};base64,${el.textContent}`)).blob();
    files[el.dataset.path] = { blob, type: el.dataset.type, gzip: el.dataset.encoding === "gzip" };
    el.remove();
  }
  const script = files["js/worker.js"];
  delete files["js/worker.js"];
  const code = script.gzip ? new Response(script.blob.stream().pipeThrough(new DecompressionStream("gzip"))) : script.blob;
  const url = URL.createObjectURL(new Blob([await code.arrayBuffer()], { type: "text/javascript" }));
  __modules["js/engine.js"].setWorker(url, { type: "classic", name: "briscola:carried", message: { type: "carried", files } });
})();"""


def classic_worker(stage: Path, info: dict) -> bytes:
    """The engine's worker as one classic script: pyodide.js, pyodide.asm.mjs and
    js/worker.js, each rewritten where it uses module-only syntax."""
    loader = (PYODIDE_DIR / "pyodide.js").read_text(encoding="utf-8")
    loader = re.sub(r"^//# sourceMappingURL=.*$", "", loader, flags=re.M)
    asm = (stage / "pyodide" / "pyodide.asm.mjs").read_text(encoding="utf-8")
    worker = (stage / "js" / "worker.js").read_text(encoding="utf-8")
    if asm.count(ASM_EXPORT) != 1:
        raise BuildError(f"pyodide.asm.mjs: expected `{ASM_EXPORT}` once (another Pyodide?)")
    if worker.count(WORKER_IMPORT) != 1:
        raise BuildError(f"js/worker.js: expected the line `{WORKER_IMPORT}` once")
    asm = asm.replace(ASM_EXPORT, "self._createPyodideModule = _createPyodideModule;")
    build = json.dumps({k: v for k, v in info.items() if k != "files"})
    worker = worker.replace(WORKER_IMPORT, f"const BUILD = Object.freeze({build});")
    parts = [loader, asm.replace("import.meta.url", "self.location.href"),
             worker.replace("import.meta.url", "self.location.href")]
    for name, part in zip(("pyodide.js", "pyodide.asm.mjs", "js/worker.js"), parts):
        if re.search(r"^\s*(import|export)\s[\w{*]", part, re.M) or "import.meta" in part:
            raise BuildError(f"{name}: module syntax left in the one-file worker")
    return "\n;\n".join(parts).encode()


def one_file_page(stage: Path, info: dict) -> bytes:
    html = (stage / "index.html").read_text(encoding="utf-8")
    styles: list[str] = []
    entries: list[str] = []

    def attrs(tag: str) -> dict[str, str]:
        return {k.lower(): v for k, v in re.findall(r'([\w-]+)="([^"]*)"', tag)}

    def link(m: re.Match) -> str:
        a = attrs(m.group(0))
        rel, href = a.get("rel", ""), a.get("href", "")
        if rel == "stylesheet":
            css = (stage / href).read_text(encoding="utf-8")
            if "url(" in css:
                raise BuildError(f"{href}: url(...) in a stylesheet is not carried into {ONE_FILE}")
            styles.append(css)
            return f"<style>{css}</style>"
        if rel == "icon":
            data = base64.b64encode((stage / href).read_bytes()).decode()
            return f'<link rel="icon" href="data:{a.get("type", "image/svg+xml")};base64,{data}">'
        if rel in ("manifest", "apple-touch-icon", "modulepreload", "preload", "prefetch"):
            return ""  # nothing to install or fetch from a file
        log(f"{ONE_FILE}: dropped {m.group(0)}")
        return ""

    def script(m: re.Match) -> str:
        entries.append(attrs(m.group(0))["src"])
        return ""

    html = re.sub(r"<link\b[^>]*>\n?", link, html)
    html = re.sub(r'<script\b[^>]*\bsrc="[^"]+"[^>]*>\s*</script>\n?', script, html)
    if re.search(r"<script\b(?![^>]*application/octet-stream)", html):
        raise BuildError(f"index.html has an inline script: {ONE_FILE} cannot carry it")
    if not entries:
        raise BuildError("index.html loads no module script")
    bundle = bundle_modules(stage, entries, ONE_FILE_BOOTSTRAP)
    if "</script" in bundle.lower():
        raise BuildError(f"a module contains the text </script: cannot inline it in {ONE_FILE}")
    if 'setWorker' not in (stage / "js" / "engine.js").read_text(encoding="utf-8"):
        raise BuildError("js/engine.js has no setWorker(): the one-file page needs it")

    carried = {"js/worker.js": classic_worker(stage, info)}
    for rel in ["pyodide/pyodide.asm.wasm", info["stdlib"], info["wheel"]]:
        carried[rel] = (stage / rel).read_bytes()
    blocks = []
    for rel, data in carried.items():
        packed, encoding = gzip.compress(data, 9, mtime=0), ' data-encoding="gzip"'
        if len(packed) > 0.95 * len(data):
            packed, encoding = data, ""
        ctype = MIME_TYPES.get(Path(rel).suffix, "application/octet-stream")
        blocks.append(f'<script type="application/octet-stream" data-path="{rel}" data-type="{ctype}"'
                      f'{encoding}>{base64.b64encode(packed).decode()}</script>\n')

    csp = ("default-src 'none'; "
           f"script-src {_csp_hash(bundle)} blob: 'wasm-unsafe-eval'; "
           "worker-src blob:; connect-src blob: data:; img-src data: blob:; "
           f"style-src {' '.join(_csp_hash(css) for css in styles) or chr(39) + 'none' + chr(39)}; "
           "font-src data:; base-uri 'none'; object-src 'none'")
    meta = f'<meta http-equiv="Content-Security-Policy" content="{csp}">'
    html, n = re.subn(r'<meta http-equiv="Content-Security-Policy"[^>]*>', lambda _: meta, html)
    if not n:
        html = html.replace('<meta charset="utf-8">', '<meta charset="utf-8">\n  ' + meta, 1)
    tail = "".join(blocks) + f'<script type="module">{bundle}</script>\n'
    if "</body>" not in html:
        raise BuildError("index.html has no </body>")
    html = html.replace("</body>", tail + "</body>", 1)
    return html.encode("utf-8")


def stage_dist(stock_stdlib: bool = False, verify_stdlib: bool = True,
               bytecode: bool = True, out: Path = DIST) -> dict:
    read_version()  # fails first, and clearly, when there is no package yet
    pyodide_version = check_pyodide()
    # The engine ships as bytecode only (no .py beside it): about 90 KB less to
    # download, nothing to compile at start, and zipimport takes it as it is.
    pycs = sourceless(engine_bytecode(pyodide_version)) if bytecode else {}
    wheel_name, wheel_bytes, version = build_wheel(extra=pycs, sources=not bytecode)

    # Per-process names: tests and people may build at the same time.
    # Staged beside the output (same file system, so the final swap is a rename).
    tmp_root = BUILD_DIR if out == DIST else out.parent
    stage = tmp_root / f"{out.name}-staging-{os.getpid()}"
    shutil.rmtree(stage, ignore_errors=True)
    stage.mkdir(parents=True)
    copy_static(stage)
    preload_modules(stage)

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

    # The service worker precaches every file the page can fetch, each checked
    # against its hash (Subresource Integrity form).
    for entry in files.values():
        entry["integrity"] = sri(entry["sha256"])
    precache = {p: f["integrity"] for p, f in files.items()}
    sw = service_worker((ROOT / "sw.js").read_text(encoding="utf-8"), build_hash, precache)
    add_file(stage, files, "sw.js", sw.encode())

    # The one-file page, for a download: everything inside, opens from file://.
    page = one_file_page(stage, info)
    add_file(stage, files, ONE_FILE, page)
    log(f"{ONE_FILE}: {len(page) / 1e6:.2f} MB, one file that works offline from disk")

    manifest = {**{k: v for k, v in info.items() if k != "files"},
                "files": dict(sorted(files.items())),
                "stdlib_report": stdlib_report}
    (stage / "build-manifest.json").write_text(json.dumps(manifest, indent=1) + "\n",
                                               encoding="utf-8")

    # Swap the finished staging folder in: dist/ is never half written.
    old = tmp_root / f"{out.name}-old-{os.getpid()}"
    out.parent.mkdir(parents=True, exist_ok=True)
    for attempt in range(50):
        try:
            if out.exists():
                out.rename(old)
            stage.rename(out)
            break
        except OSError:  # another build swapped at the same moment
            if attempt == 49:
                raise
            time.sleep(0.1)
    shutil.rmtree(old, ignore_errors=True)

    site = {p: f for p, f in files.items() if p in precache}
    raw = sum(f["size"] for f in site.values())
    gz = sum(f["gzip"] for f in site.values())
    log(f"dist/: {len(files)} files; the site {raw / 1e6:.2f} MB ({gz / 1e6:.2f} MB gzipped), "
        f"build {build_hash}, briscola {version}, pyodide {pyodide_version}")
    return manifest


# --------------------------------------------------------------------------
# Serving and checking


# Types a static host like GitHub Pages sends gzip-compressed (text, JSON, SVG and
# WebAssembly); zip and wheel files go as they are.
COMPRESSIBLE = ("text/", "application/javascript", "application/json",
                "application/manifest+json", "image/svg+xml", "application/wasm")


class Handler(http.server.SimpleHTTPRequestHandler):
    """Serves dist/ as a static host does: gzip for compressible types, validators
    (ETag, Last-Modified) for conditional requests, the site under `prefix`.

    Class attributes, set by make_server(): `prefix` ("/" or "/repo/", as GitHub
    project pages are), `cache_control`, `gzip`, and `record` (None, or a list
    that gets one dict per response: path, status, wire (bytes sent, headers
    included) and raw (the file's own size), for benchmarks).
    """

    protocol_version = "HTTP/1.1"  # keep-alive: the page makes a dozen requests
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    prefix = "/"
    cache_control = "no-cache"  # development: always revalidate, so a rebuild shows at once
    gzip = True
    record = None
    _gz_cache: dict = {}

    def log_message(self, fmt, *args):
        if os.environ.get("BUILD_SERVE_QUIET"):
            return
        super().log_message(fmt, *args)

    def do_GET(self):  # noqa: N802
        self._serve(head=False)

    def do_HEAD(self):  # noqa: N802
        self._serve(head=True)

    def _send(self, status, headers, body=b"", head=False, raw=0):
        self.send_response(status)
        for key, value in headers:
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head and body:
            self.wfile.write(body)
        if self.record is not None:
            wire = sum(len(k) + len(v) + 4 for k, v in headers) + 64 + (0 if head else len(body))
            self.record.append({"path": self.path, "status": status, "wire": wire,
                                "raw": 0 if head else raw})

    def _serve(self, head):
        path, _, query = self.path.split("#", 1)[0].partition("?")
        if path + "/" == self.prefix or (path == "/" and self.prefix != "/"):
            return self._send(301, [("Location", self.prefix + ("?" + query if query else ""))],
                              head=head)
        if not path.startswith(self.prefix):
            return self._send(404, [("Content-Type", "text/plain")], b"not found\n", head)
        rel = urllib.parse.unquote(path[len(self.prefix):])
        root = Path(self.directory).resolve()
        file = (root / rel).resolve()
        if not file.is_relative_to(root):
            return self._send(404, [("Content-Type", "text/plain")], b"not found\n", head)
        if file.is_dir():
            if rel and not rel.endswith("/"):
                return self._send(301, [("Location", path + "/")], head=head)
            file = file / "index.html"
        if not file.is_file():
            return self._send(404, [("Content-Type", "text/plain")], b"not found\n", head)
        stat = file.stat()
        ctype = self.guess_type(str(file))
        etag = f'"{stat.st_mtime_ns:x}-{stat.st_size:x}"'
        headers = [("Content-Type", ctype), ("Cache-Control", self.cache_control),
                   ("ETag", etag),
                   ("Last-Modified", self.date_time_string(int(stat.st_mtime)))]
        compress = self.gzip and ctype.startswith(COMPRESSIBLE)
        if compress:
            headers.append(("Vary", "Accept-Encoding"))
        if self.headers.get("If-None-Match") == etag:
            return self._send(304, headers[1:], head=True)
        body = raw = file.read_bytes()
        if compress and "gzip" in self.headers.get("Accept-Encoding", ""):
            key = (str(file), etag)
            if key not in self._gz_cache:
                self._gz_cache[key] = gzip.compress(body, compresslevel=6, mtime=0)
            body = self._gz_cache[key]
            headers.append(("Content-Encoding", "gzip"))
        self._send(200, headers, body, head, len(raw))


def make_server(directory: Path = DIST, port: int = 0, prefix: str = "/",
                cache_control: str = "no-cache", record: list | None = None,
                quiet: bool = True) -> http.server.ThreadingHTTPServer:
    """A ThreadingHTTPServer on 127.0.0.1 serving `directory` at `prefix`
    (port 0: any free one). The caller runs serve_forever() and server_close()."""
    prefix = "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"
    attrs = {"prefix": prefix, "cache_control": cache_control, "record": record,
             "_gz_cache": {}}
    if quiet:
        attrs["log_message"] = lambda self, *args: None
    handler = functools.partial(type("SiteHandler", (Handler,), attrs), directory=str(directory))
    return http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)


def serve(port: int, prefix: str = "/", directory: Path = DIST) -> None:
    if not (directory / "index.html").is_file():
        log(f"warning: {directory} has no index.html yet")
    try:
        server = make_server(directory, port, prefix, quiet=False)
    except OSError as exc:
        raise BuildError(f"cannot serve on 127.0.0.1:{port}: {exc.strerror}; try --port N") from exc
    url = f"http://127.0.0.1:{server.server_address[1]}{server.RequestHandlerClass.func.prefix}"
    log(f"serving {directory} at {url} (Ctrl-C stops)")
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
    parser.add_argument("--out", type=Path, default=DIST,
                        help="build into this folder instead of dist/ (e.g. for measurements)")
    parser.add_argument("--base", default="/",
                        help="with --serve: serve the site under this path, as GitHub project "
                             "pages do (e.g. /briscola/)")
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
                       bytecode=not args.no_pyc, out=args.out.resolve())
        if args.check:
            code = check()
            if code:
                return code
        if args.serve:
            serve(args.port, args.base, args.out.resolve())
    except BuildError as exc:
        log(f"error: {exc}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
