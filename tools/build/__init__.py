"""Builds the static Briscola site (`python3 build.py`, standard library only,
plus Node for the steps that run inside Pyodide). One module per product, and
what they share:

    site.py            dist/, the whole site: stages it and swaps it in
    onefile.py         dist/briscola.html, the game in one file that plays from disk
    stdlib.py          the trimmed, precompiled standard library zip
    wheel.py           the engine's wheel and its Pyodide bytecode
    service_worker.py  dist/sw.js with every file's hash (offline play)
    modules.py         the page's ES module graph (modulepreload, the bundle)
    runtime.py         the pinned Pyodide runtime and the files a start fetches
    linking.py         two changes to Pyodide's script (its dynamic linking), as the site is staged
    worker.py          js/worker.js with its modules (js/worker/) put in: one file shipped
    models.py          the learned evaluations the wheel leaves out, loaded with their variant
    micropip.py        the engine's wheels for micropip, and micropip's own for its test
    friends.py         js/friends/vendor.js, the bundled libraries of "play with friends"
    serve.py           the development server (`--serve`), also used by tests
    common.py          paths, errors, the log line, hashing, MIME types
    cli.py             the command line
"""

from .cli import main
from .common import DIST, ROOT, BuildError
from .onefile import ONE_FILE
from .serve import make_server
from .site import stage_dist

__all__ = ["DIST", "ONE_FILE", "ROOT", "BuildError", "main", "make_server", "stage_dist"]
