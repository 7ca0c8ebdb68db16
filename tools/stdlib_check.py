"""Import every module of the standard library zip on sys.path.

Runs INSIDE Pyodide (driven by tools/build_stdlib.mjs), once with the stock
stdlib and once with the trimmed one; the driver compares the two results so
that trimming can never break a module that is still shipped.

It also runs a few things that import lazily, inside functions (what
loadPackage, tracebacks, warnings and the engine's usual modules do), since an
import check alone cannot see those.

After running, the global RESULT holds JSON: {"zip": path, "modules":
{name: null | "ErrorType: message"}, "exercises": {name: null | error},
"loaded_from": {...}}.
"""

import contextlib
import fnmatch
import importlib
import io
import json
import sys
import traceback
import warnings
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


def _exercise_tracebacks():
    try:
        {}["missing"]
    except KeyError:
        text = traceback.format_exc()
    assert "KeyError" in text


def _exercise_warnings():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        warnings.warn("check", DeprecationWarning)
    assert caught


def _exercise_metadata():
    from importlib import metadata

    importlib.invalidate_caches()
    list(metadata.distributions())


def _exercise_common():
    import bisect, collections, dataclasses, enum, functools, heapq, itertools
    import json, math, random, re, time, typing

    rng = random.Random(1)
    deck = list(range(40))
    rng.shuffle(deck)
    assert json.loads(json.dumps({"deck": deck}))["deck"] == deck
    assert re.fullmatch(r"\d+", "42")
    assert bisect.bisect([1, 3], 2) == 1 and heapq.nsmallest(1, deck) == [0]
    time.strftime("%Y", time.gmtime(0))

    @dataclasses.dataclass(frozen=True)
    class Card:
        rank: int
        suit: str

    class Suit(enum.Enum):
        CUPS = "c"

    hash(Card(1, Suit.CUPS.value))


def _exercise_asyncio():
    import asyncio

    async def main():
        await asyncio.sleep(0)
        return 7

    coro = main()
    try:
        coro.send(None)
    except StopIteration as stop:
        assert stop.value == 7


EXERCISES = {
    "tracebacks": _exercise_tracebacks,
    "warnings": _exercise_warnings,
    "importlib.metadata": _exercise_metadata,
    "common modules": _exercise_common,
    "asyncio": _exercise_asyncio,
}


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
    exercises = {}
    for name, func in EXERCISES.items():
        try:
            with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
                func()
        except BaseException as exc:  # noqa: BLE001
            exercises[name] = "%s: %s" % (type(exc).__name__, exc)
        else:
            exercises[name] = None
    loaded_from = {
        name: getattr(sys.modules.get(name), "__file__", None)
        for name in ("json", "random", "asyncio", "pyodide", "_pyodide._base")
    }
    return {"zip": zpath, "modules": results, "exercises": exercises,
            "loaded_from": loaded_from}


RESULT = json.dumps(check())
