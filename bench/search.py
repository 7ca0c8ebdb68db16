"""The two exact searches on fixed positions: nodes searched and seconds, CPU clock.

    python bench/search.py [--runs 5]

The classic search (``ai/solver.py``) solves 32 seeded positions of the classic, three- and
four-player games near the end of the talon; Chiamata's (``ai/chiamata/expert.py``) solves 10
seeded endings exactly and 10 mid-deal positions two tricks deep with its evaluation. Every
world is known (perfect information), so the nodes are the same on every machine and a
change that leaves them alone changes only the time. Times are the median of several runs,
by the process's CPU clock (this machine is shared).
"""
from __future__ import annotations

import os
import random
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if os.path.isdir(os.path.join(ROOT, "py")):
    sys.path.insert(0, os.path.join(ROOT, "py"))

from briscola.ai.chiamata.expert import ChSolver, Evaluator  # noqa: E402
from briscola.ai.solver import Solver  # noqa: E402
from briscola.game import Game  # noqa: E402


def _advance(g: Game, rng: random.Random, until) -> Game:
    while not until(g):
        g.apply_fast(rng.choice(g.legal_actions_fast()))
    return g


def classic_positions() -> list[tuple[Game, list[bool]]]:
    out = []
    for variant, left in (("classic", 14), ("classic", 18), ("four", 16), ("three", 15)):
        for seed in range(8):
            g = _advance(Game.new(variant, seed=f"sb{seed}"), random.Random(seed),
                         lambda g: sum(map(len, g.hands)) + len(g.talon) <= left)
            side = g.rules.tables.side_of
            out.append((g, [side[s] == side[g.current_player] for s in range(g.n)]))
    return out


def chiamata_positions() -> list[tuple[Game, list[bool], int | None]]:
    out = []
    for seed in range(20):
        exact = seed < 10
        rng = random.Random(seed % 10)
        g = _advance(Game.new("chiamata", seed=f"{'cb' if exact else 'cm'}{seed % 10}"), rng,
                     lambda g: g.phase == 3)
        played = sum(map(len, g.hands))
        left = 5 * (3 + seed % 3) if exact else played - (5 + seed % 5)
        g = _advance(g, rng, lambda g: sum(map(len, g.hands)) <= left)
        caller, partner = g.auction.caller, g.auction.partner(g)
        out.append((g, [s in (caller, partner) for s in range(5)], None if exact else 2))
    return out


def masks(g: Game) -> list[int]:
    return [sum(1 << c for c in h) for h in g.hands]


def run_classic(positions) -> tuple[float, int]:
    nodes = 0
    t0 = time.process_time()
    for g, maxside in positions:
        s = Solver(g.rules, g.trump)
        s.values(masks(g), list(g.talon), list(g.trick), g.order, maxside)
        nodes += s.nodes
    return time.process_time() - t0, nodes


def run_chiamata(positions) -> tuple[float, int]:
    nodes = 0
    t0 = time.process_time()
    for g, maxside, depth in positions:
        s = ChSolver(g.rules, g.trump, g.auction.carichi)
        ev = Evaluator(g.rules, g.trump, maxside) if depth else None
        s.values(masks(g), list(g.trick), g.order, maxside,
                 [int(a) for a in g.legal_actions_fast()], depth=depth, evaluate=ev)
        nodes += s.nodes
    return time.process_time() - t0, nodes


def main(argv: list[str] | None = None) -> int:
    import argparse
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--runs", type=int, default=5)
    args = p.parse_args(argv)
    cp, chp = classic_positions(), chiamata_positions()
    times: dict[str, list[float]] = {"classic": [], "chiamata": []}
    nodes = {}
    for _ in range(args.runs):
        t, nodes["classic"] = run_classic(cp)
        times["classic"].append(t)
        t, nodes["chiamata"] = run_chiamata(chp)
        times["chiamata"].append(t)
    load = " %.2f %.2f %.2f" % os.getloadavg() if hasattr(os, "getloadavg") else " unknown"
    print(f"Exact searches, median of {args.runs} runs by the CPU clock (load{load})\n")
    print("| search | positions | nodes | seconds |")
    print("| --- | ---: | ---: | ---: |")
    print(f"| classic (ai/solver.py) | {len(cp)} | {nodes['classic']:,} | "
          f"{statistics.median(times['classic']):.3f} |")
    print(f"| Chiamata (ai/chiamata/expert.py) | {len(chp)} | {nodes['chiamata']:,} | "
          f"{statistics.median(times['chiamata']):.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
