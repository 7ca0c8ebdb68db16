"""Import every module of the standard library zip on sys.path.

Runs INSIDE Pyodide (driven by tools/build_stdlib.mjs), once with the stock
stdlib and once with the trimmed one; the driver compares the two results so
that trimming can never break a module that is still shipped.

After running, the global RESULT holds JSON: {"zip": path, "modules":
{name: null | "ErrorType: message"}, "loaded_from": {...}}.
"""

import contextlib
import fnmatch
import importlib
import io
import json
import sys
import zipfile

# Modules with side effects on import (they print, open browsers, run
# programs) or that only make sense as scripts.
SKIP = [
    "*.__main__",
    "__main__",
    "__hello__",
    "__phello__*",
    "antigravity",
    "this",
    "idlelib*",
    "tkinter*",
    "turtle*",
]


def stdlib_zip():
    for entry in sys.path:
        if entry.endswith(".zip"):
            return entry
    raise RuntimeError("no stdlib zip on sys.path: %r" % (sys.path,))


def names_in(zpath):
    names = set()
    with zipfile.ZipFile(zpath) as z:
        for path in z.namelist():
            for ext in (".py", ".pyc"):
                if path.endswith(ext) and not path.startswith("site-packages/"):
                    parts = path[: -len(ext)].split("/")
                    if parts[-1] == "__init__":
                        parts.pop()
                    if parts:
                        names.add(".".join(parts))
    return sorted(names)


def check():
    zpath = stdlib_zip()
    results = {}
    sink = io.StringIO()
    for name in names_in(zpath):
        if any(fnmatch.fnmatchcase(name, pat) for pat in SKIP):
            continue
        try:
            with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
                importlib.import_module(name)
        except BaseException as exc:  # noqa: BLE001 - we report everything
            results[name] = "%s: %s" % (type(exc).__name__, exc)
        else:
            results[name] = None
    loaded_from = {
        name: getattr(sys.modules.get(name), "__file__", None)
        for name in ("json", "random", "asyncio", "pyodide", "_pyodide._base")
    }
    return {"zip": zpath, "modules": results, "loaded_from": loaded_from}


RESULT = json.dumps(check())
