#!/usr/bin/env python3
"""How long the expert thinks per decision, across whole deals: CPython and Pyodide.

    python bench/thinking.py [--deals 20] [--variants classic,four] [--no-pyodide] [--no-build]

The expert plays whole deals against the intermediate player (taking each seat in turn);
every decision of the expert is timed (``decide`` on the view, as the page's worker calls
it). The table gives the median, the 90th percentile and the worst time in milliseconds.

Under Pyodide the same deals are played inside Node by ``tests/pyodide/run.mjs`` with the
engine wheel from ``dist/`` (rebuilt first with ``python build.py`` unless ``--no-build``).
If the harness or Node is missing, only CPython is reported, and the table says so.
"""
from __future__ import annotations

import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if os.path.isdir(os.path.join(ROOT, "py")) and os.path.join(ROOT, "py") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "py"))


def cpu_clock():
    """A clock of this process's CPU seconds (Node's, under Pyodide)."""
    if sys.platform == "emscripten":
        try:
            import js  # type: ignore[import-not-found]

            def node_cpu() -> float:
                u = js.process.cpuUsage()
                return (u.user + u.system) / 1e6

            node_cpu()
            return node_cpu
        except Exception:  # pragma: no cover - not under Node
            pass
    return time.process_time


def measure(variant: str, deals: int, seed: str = "thinking",
            cpu: list[float] | None = None) -> list[float]:
    """Milliseconds per expert decision over ``deals`` deals (expert in every other seat).

    Wall-clock times are returned; if ``cpu`` is a list, the process CPU times go there too
    (on a shared machine the CPU time is what an idle machine would take).
    """
    from briscola.ai import make_bot
    from briscola.game import Game
    from briscola.rules import find_variant

    rules = find_variant(variant)
    n = rules.players
    times: list[float] = []
    clock = cpu_clock()
    for i in range(deals):
        expert_seats = {s for s in range(n) if (s + i) % 2 == 0}
        bots = [make_bot("expert" if s in expert_seats else "intermediate", f"{seed}:{i}:{s}")
                for s in range(n)]
        game = Game.new(rules, seed=f"{seed}:{i}")
        while not game.is_over:
            seat = game.current_player
            view = game.view(seat)
            c0 = clock()
            t0 = time.perf_counter()
            action = bots[seat].decide(view).action
            dt = (time.perf_counter() - t0) * 1000.0
            dc = (clock() - c0) * 1000.0
            if seat in expert_seats:
                times.append(dt)
                if cpu is not None:
                    cpu.append(dc)
            game.apply(action, seat)
    return times


def summary(times: list[float], count: str = "decisions") -> dict:
    """How many times (under the key ``count``), their median, 90th percentile, worst and
    mean."""
    s = sorted(times)
    if not s:
        return {count: 0}

    def q(p: float) -> float:
        return s[min(len(s) - 1, int(p * (len(s) - 1) + 0.5))]

    return {count: len(s), "median": q(0.5), "p90": q(0.9), "worst": s[-1],
            "mean": sum(s) / len(s)}


def _row(runtime: str, variant: str, r: dict) -> str:
    if not r.get("decisions"):
        return f"| {runtime} | {variant} | 0 | – | – | – | – |"
    return (f"| {runtime} | {variant} | {r['decisions']} | {r['median']:.1f} | {r['p90']:.1f} | "
            f"{r['worst']:.1f} | {r['mean']:.1f} |")


def run_pyodide(script: str, variants: list[str], deals: int, build: bool) -> tuple[dict | None, str]:
    """Run ``script --inner --deals N --variants ...`` inside Pyodide under Node (after
    ``build.py`` when ``build``); its last JSON line, or None and why not."""
    import shutil
    import subprocess
    harness = os.path.join(ROOT, "tests", "pyodide", "run.mjs")
    if not os.path.exists(harness):
        return None, "tests/pyodide/run.mjs is not there: Pyodide not measured"
    node = shutil.which("node")
    if node is None:
        return None, "node is not installed: Pyodide not measured"
    if build:
        b = subprocess.run([sys.executable, os.path.join(ROOT, "build.py")], cwd=ROOT,
                           capture_output=True, text=True)
        if b.returncode != 0:
            return None, "python build.py failed: Pyodide not measured (" + \
                (b.stderr.strip().splitlines() or ["?"])[-1] + ")"
    p = subprocess.run([node, harness, os.path.abspath(script), "--inner", "--deals",
                        str(deals), "--variants", ",".join(variants)], cwd=ROOT,
                       capture_output=True, text=True)
    if p.returncode != 0:
        tail = (p.stderr.strip().splitlines() or ["?"])[-1]
        return None, f"the Pyodide run failed: {tail}"
    for line in reversed(p.stdout.strip().splitlines()):
        if line.startswith("{"):
            return json.loads(line), ""
    return None, "the Pyodide run printed no result"


def harness_parser(doc: str, deals: int, variants: str):
    """The options of a benchmark run on CPython and (through ``--inner``) in Pyodide;
    ``doc``: the script's docstring, its second line the description."""
    import argparse
    ap = argparse.ArgumentParser(description=doc.splitlines()[1])
    ap.add_argument("--deals", type=int, default=deals)
    ap.add_argument("--variants", default=variants)
    ap.add_argument("--no-pyodide", action="store_true")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--inner", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--json", action="store_true")
    return ap


def pyodide_into(results: dict, script: str, variants: list[str], args) -> str:
    """Runs ``script`` in Pyodide unless ``--no-pyodide`` and puts what it measured in
    ``results["pyodide"]``; returns the note saying why not ("" when it did)."""
    if args.no_pyodide:
        return "Pyodide not measured (--no-pyodide)"
    py, note = run_pyodide(script, variants, args.deals, not args.no_build)
    if py is not None:
        results["pyodide"] = py
    return note


def _inner(argv: list[str]) -> int:
    """Run inside Pyodide (whose trimmed standard library has no argparse)."""
    deals = int(argv[argv.index("--deals") + 1]) if "--deals" in argv else 20
    variants = (argv[argv.index("--variants") + 1] if "--variants" in argv
                else "classic").split(",")
    out: dict = {"cpu": {}}
    for v in variants:
        cpu: list[float] = []
        out[v] = summary(measure(v, deals, cpu=cpu))
        out["cpu"][v] = summary(cpu)
    out["_python"] = sys.version.split()[0] + " " + sys.platform
    print(json.dumps(out))
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--inner" in argv:
        return _inner(argv)
    args = harness_parser(__doc__, 20, "classic,four").parse_args(argv)
    variants = [v for v in args.variants.split(",") if v]
    results: dict = {"cpython": {}, "cpython_cpu": {}}
    for v in variants:
        cpu: list[float] = []
        results["cpython"][v] = summary(measure(v, args.deals, cpu=cpu))
        results["cpython_cpu"][v] = summary(cpu)
    note = pyodide_into(results, __file__, variants, args)
    if args.json:
        results["note"] = note
        print(json.dumps(results))
        return 0
    print(f"Expert thinking time per decision (ms), {args.deals} deals per variant, "
          f"expert v intermediate\n")
    print("| runtime | variant | decisions | median | p90 | worst | mean |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
    import platform
    label = f"CPython {platform.python_version()}"
    for v in variants:
        print(_row(label + " wall", v, results["cpython"][v]))
    for v in variants:
        print(_row(label + " CPU", v, results["cpython_cpu"][v]))
    if "pyodide" in results:
        plabel = "Pyodide " + results["pyodide"].get("_python", "").split()[0]
        for v in variants:
            print(_row(plabel + " (Node) wall", v, results["pyodide"][v]))
        for v in variants:
            print(_row(plabel + " (Node) CPU", v, results["pyodide"]["cpu"][v]))
    try:
        load = os.getloadavg()[0]
        print(f"\nLoad average during the run: {load:.1f} on {os.cpu_count()} cores "
              "(wall times on a shared machine include waiting for the CPU).")
    except (AttributeError, OSError):
        pass
    if note:
        print(f"\n{note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
