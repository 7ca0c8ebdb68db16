"""Engine speed: random deals per second for every variant, on CPython and under Pyodide.

    python bench/engine.py                 # CPython and (if built) Pyodide in Node
    python bench/engine.py --deals 2000 --runs 5 --variants classic,four
    python bench/engine.py --no-pyodide --cpu

A "random deal" is a freshly shuffled deal played to the end by choosing uniformly among
the legal actions, through the engine's fast path (``legal_actions_fast`` /
``apply_fast``), exactly as a search's rollouts use it. The same run measures a throwaway
hand-written loop for the classic two-player game as the reference: the engine must stay
within a factor of two of it. One more row plays classic deals the way
``python -m briscola simulate --bots random`` does (:func:`briscola.arena.simulate`): each
random bot decides from its seat's ``view`` and the game checks every action. Figures are
the median of several runs; ``--cpu`` times with the process's CPU clock (Node's under
Pyodide) instead of the wall clock, on a machine shared with other work; the table says which.
"""
from __future__ import annotations

import json
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if os.path.isdir(os.path.join(ROOT, "py")):
    sys.path.insert(0, os.path.join(ROOT, "py"))

from briscola.arena import simulate  # noqa: E402
from briscola.game import Game  # noqa: E402
from briscola.rules import VARIANTS  # noqa: E402

clock = time.perf_counter  # main() switches to cpu_clock() with --cpu


def engine_deals(rules, n: int, seed: int) -> float:
    """Random deals per second through the engine."""
    rng = random.Random(seed)
    rand = rng.random
    shuffle = rng.shuffle
    deck = list(rules.tables.deck_ints)
    players = rules.players
    deal = Game._deal
    t0 = clock()
    for i in range(n):
        d = deck[:]
        shuffle(d)
        g = deal(rules, d, i % players)
        while g.phase != 4:
            acts = g.legal_actions_fast()
            g.apply_fast(acts[int(rand() * len(acts))])
    return n / (clock() - t0)


# The reference: the classic game written as one throwaway function, no engine.
_PTS = [11, 0, 10, 0, 0, 0, 0, 2, 3, 4]
_STR = [9, 0, 8, 1, 2, 3, 4, 5, 6, 7]


def _reference_deal(rng: random.Random) -> None:
    deck = list(range(40))
    rng.shuffle(deck)
    hands = [deck[0:3], deck[3:6]]
    trump = deck[6] // 10
    talon = deck[7:] + [deck[6]]
    talon.reverse()
    leader = 0
    pts = [0, 0]
    rand = rng.random
    while hands[0] or hands[1]:
        h = hands[leader]
        a = h.pop(int(rand() * len(h)))
        o = 1 - leader
        h2 = hands[o]
        b = h2.pop(int(rand() * len(h2)))
        sa, sb = a // 10, b // 10
        if sa == sb:
            w = leader if _STR[a % 10] > _STR[b % 10] else o
        elif sb == trump:
            w = o
        else:
            w = leader
        pts[w] += _PTS[a % 10] + _PTS[b % 10]
        if talon:
            hands[w].append(talon.pop())
            hands[1 - w].append(talon.pop())
        leader = w


def reference_deals(n: int, seed: int) -> float:
    rng = random.Random(seed)
    t0 = clock()
    for _ in range(n):
        _reference_deal(rng)
    return n / (clock() - t0)


def simulate_deals(n: int, seed: int) -> float:
    """Classic deals per second as ``python -m briscola simulate --bots random`` plays them."""
    t0 = clock()
    simulate(VARIANTS["classic"], ["random", "random"], n, f"bench{seed}")
    return n / (clock() - t0)


SIMULATE = "simulate --bots random"


def measure(variants: list[str], deals: int, runs: int) -> dict:
    """Median deals/s per variant (interleaved with the reference, run by run)."""
    out: dict[str, list[float]] = {"reference": [], SIMULATE: []}
    for name in variants:
        out[name] = []
    for r in range(runs):
        out["reference"].append(reference_deals(deals, r))
        out[SIMULATE].append(simulate_deals(max(deals // 4, 1), r))
        for name in variants:
            rules = VARIANTS[name]
            n = deals if rules.players <= 3 else max(deals // 2, 1)
            out[name].append(engine_deals(rules, n, r))
    return {k: _median(v) for k, v in out.items()}


def _median(values: list[float]) -> float:
    v = sorted(values)
    mid = len(v) // 2
    return v[mid] if len(v) % 2 else (v[mid - 1] + v[mid]) / 2


def cpu_clock():
    """The process's CPU time: CPython's, or Node's under Pyodide."""
    if sys.platform == "emscripten":
        import js  # type: ignore[import-not-found]
        return lambda: (lambda u: (u.user + u.system) / 1e6)(js.process.cpuUsage())
    return time.process_time


def pyodide_measure(variants: list[str], deals: int, runs: int,
                    cpu: bool = False) -> tuple[dict | None, str]:
    import shutil
    import subprocess
    node = shutil.which("node")
    harness = os.path.join(ROOT, "tests", "pyodide", "run.mjs")
    if not node or not os.path.exists(harness):
        return None, "node or the Pyodide harness is missing"
    if not os.path.exists(os.path.join(ROOT, "dist", "build-manifest.json")):
        return None, "dist/ is not built (python build.py)"
    proc = subprocess.run(
        [node, harness, os.path.abspath(__file__), "--inner", "--deals", str(deals),
         "--runs", str(runs), "--variants", ",".join(variants), "--cpu", str(int(cpu))],
        capture_output=True, text=True, timeout=3600)
    if proc.returncode != 0:
        return None, f"Pyodide run failed: {proc.stderr.strip()[-300:]}"
    return json.loads(proc.stdout.strip().splitlines()[-1]), ""


def _inner(argv: list[str]) -> int:
    """Inside Pyodide (whose trimmed standard library has no argparse): measure, print JSON."""
    global clock
    opts = dict(zip(argv[0::2], argv[1::2]))
    if opts.get("--cpu") == "1":
        clock = cpu_clock()
    variants = [v for v in opts["--variants"].split(",") if v]
    print(json.dumps(measure(variants, int(opts["--deals"]), int(opts["--runs"]))))
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--inner"]:
        return _inner(argv[1:])
    import argparse
    import platform
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--deals", type=int, default=2000)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--variants", default=",".join(
        n for n, r in VARIANTS.items() if r.match == "single" or n == "best-of-3"))
    p.add_argument("--no-pyodide", action="store_true")
    p.add_argument("--pyodide-deals", type=int, default=300)
    p.add_argument("--cpu", action="store_true",
                   help="time with the process's CPU clock (Node's under Pyodide), not the wall")
    args = p.parse_args(argv)
    global clock
    if args.cpu:
        clock = cpu_clock()
    variants = [v for v in args.variants.split(",") if v]
    for v in variants:
        if v not in VARIANTS:
            p.error(f"--variants: no variant named {v!r}")
    cpy = measure(variants, args.deals, args.runs)
    pyo, why = (None, "skipped (--no-pyodide)") if args.no_pyodide else \
        pyodide_measure(variants, args.pyodide_deals, args.runs, args.cpu)
    load = ", load %.2f %.2f %.2f" % os.getloadavg() if hasattr(os, "getloadavg") else ""
    print(f"Engine speed: random deals per second, median of {args.runs} runs "
          f"({platform.python_implementation()} {platform.python_version()}, "
          f"{os.cpu_count()} cores{load}; timed by the {'CPU' if args.cpu else 'wall'} clock)\n")
    head = "| variant | CPython deals/s | engine / reference |"
    sep = "| --- | ---: | ---: |"
    if pyo:
        head += " Pyodide (Node) deals/s |"
        sep += " ---: |"
    print(head)
    print(sep)
    ref = cpy["reference"]
    for name in ["reference"] + variants + [SIMULATE]:
        label = {"reference": "hand-written classic loop (reference)",
                 SIMULATE: "classic, `simulate --bots random` (views, checked actions)"
                 }.get(name, name)
        row = f"| {label} | {cpy[name]:,.0f} | "
        row += "1.00 |" if name == "reference" else f"{ref / cpy[name]:.2f}x slower |" \
            if name == "classic" else "|"
        if pyo:
            row += f" {pyo[name]:,.0f}"
            if name == "classic":
                row += f" ({pyo['reference'] / pyo[name]:.2f}x slower than the reference)"
            row += " |"
        print(row)
    if not pyo:
        print(f"\nPyodide: {why}")
    if "classic" in cpy:
        print(f"\nclassic on CPython: {cpy['classic']:,.0f} deals/s (target 25,000); "
              f"reference {ref:,.0f} deals/s; ratio {ref / cpy['classic']:.2f} (target <= 2)")
    print(f"{SIMULATE} on CPython: {cpy[SIMULATE]:,.0f} classic deals/s (target 5,000)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
