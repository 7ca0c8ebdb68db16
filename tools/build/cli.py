"""The command line of build.py: build dist/, then serve it or check it (build.py's
docstring lists the commands; `python build.py --help` the options)."""

from __future__ import annotations

import argparse
import subprocess
from pathlib import Path

from .common import DIST, ROOT, BuildError, log
from .runtime import node_binary
from .serve import serve
from .site import stage_dist

DESCRIPTION = "Build the static Briscola site into dist/."


def check() -> int:
    cmd = [node_binary(), str(ROOT / "tests" / "pyodide" / "run.mjs"), "--timing",
           str(ROOT / "tests" / "pyodide" / "smoke.py")]
    log("check: " + " ".join(cmd))
    return subprocess.run(cmd, cwd=ROOT).returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=DESCRIPTION,
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
    parser.add_argument("--stamp", help="a line of text written into index.html: a build of the "
                        "same sources that is another build (a release's name)")
    parser.add_argument("--no-verify-stdlib", action="store_true",
                        help="skip the import check when (re)building the trimmed stdlib")
    args = parser.parse_args(argv)
    try:
        if not (args.serve and args.no_build):
            stage_dist(stock_stdlib=args.stock_stdlib, verify_stdlib=not args.no_verify_stdlib,
                       bytecode=not args.no_pyc, out=args.out.resolve(), stamp=args.stamp)
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

