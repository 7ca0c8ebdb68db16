"""The trimmed standard library: Pyodide's python_stdlib.zip less what a card
game in a Web Worker never imports (STDLIB_RECIPE), precompiled to bytecode by
Pyodide's own Python (tools/build_stdlib.mjs running tools/stdlib_compile.py,
checked by tools/stdlib_check.py) and cached under build/stdlib/, keyed by the
Pyodide version, the recipe and those tools.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import time
from pathlib import Path

from .common import PYODIDE_DIR, ROOT, STDLIB_CACHE, TOOLS, BuildError, log, sha256
from .runtime import node_binary

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
