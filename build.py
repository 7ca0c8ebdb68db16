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

The work is done by the package tools/build/ (one module per product: the site,
the one-file page, the stdlib, the wheel; see its __init__.py and tools/README.md).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from tools.build import ONE_FILE, BuildError, main, make_server, stage_dist  # noqa: E402,F401

if __name__ == "__main__":
    sys.exit(main())
