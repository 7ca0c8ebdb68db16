"""Steps per second through the research environment (briscola.env), random agents.

    python bench/env.py                     # the variants of the table in docs/env.md
    python bench/env.py --variants classic,chiamata --deals 200 --runs 5 --cpu

One step is one action through PettingZoo's AEC loop as a learner runs it
(:func:`briscola.env.play_episode`): ``last()`` (the observation of the agent on turn: its
view encoded, the mask), a uniformly random choice from the mask
(:func:`briscola.env.random_policy`), ``step(action)`` (the engine's checked ``apply``, the
rewards). The terminal
steps (``step(None)`` for each agent at the end of a deal) are not counted as steps but
their time is. Beside it, the same deals through the engine alone (views and checked
actions, no encoding: ``python -m briscola simulate --bots random``'s way) for the cost of
the environment. Figures are the median of ``--runs`` runs; ``--cpu`` times with the
process's CPU clock, on a machine shared with other work.
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "py"))

from briscola.env import env, play_episode, random_policy  # noqa: E402
from briscola.game import Game  # noqa: E402

VARIANTS = ["classic", "three", "four", "six", "scoperta", "four-signals", "chiamata",
            "chiamata-points"]


def env_steps(variant: str, deals: int, seed: int, clock) -> tuple[float, float]:
    """(steps per second, deals per second) through the AEC environment."""
    e = env(variant, seed=seed)
    policy = random_policy(seed)
    steps = 0
    t0 = clock()
    for _ in range(deals):
        play_episode(e, policy)
        steps += len(e.game.actions)
    dt = clock() - t0
    return steps / dt, deals / dt


def engine_steps(variant: str, deals: int, seed: int, clock) -> float:
    """Steps per second of the same kind of deals through views and checked actions."""
    rng = random.Random(seed)
    steps = 0
    t0 = clock()
    for k in range(deals):
        game = Game.new(variant, seed=f"{seed}/{k}")
        while not game.is_over:
            seat = game.current_player
            legal = game.view(seat).legal
            game.apply(legal[int(rng.random() * len(legal))], seat=seat)
            steps += 1
    return steps / (clock() - t0)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--variants", default=",".join(VARIANTS))
    p.add_argument("--deals", type=int, default=100, help="deals per run (default 100)")
    p.add_argument("--runs", type=int, default=3, help="runs; the median is shown (default 3)")
    p.add_argument("--cpu", action="store_true", help="time with the process's CPU clock")
    args = p.parse_args(argv)
    clock = time.process_time if args.cpu else time.perf_counter
    print(f"| variant | env steps/s | env deals/s | engine alone steps/s | env / engine |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for variant in args.variants.split(","):
        runs = [env_steps(variant, args.deals, r, clock) for r in range(args.runs)]
        steps = statistics.median(r[0] for r in runs)
        deals = statistics.median(r[1] for r in runs)
        alone = statistics.median(engine_steps(variant, args.deals, r, clock)
                                  for r in range(args.runs))
        print(f"| {variant} | {steps:,.0f} | {deals:,.1f} | {alone:,.0f} | "
              f"{steps / alone:.2f} |", flush=True)
    print(f"\n({'CPU' if args.cpu else 'wall'} clock, median of {args.runs} runs of "
          f"{args.deals} deals, Python {sys.version.split()[0]}, load "
          f"{os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
