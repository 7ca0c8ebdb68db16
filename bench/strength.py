#!/usr/bin/env python3
"""How strong the computer players are: duplicate-deal matches, printed as a markdown table.

    python bench/strength.py [--deals 2000] [--workers 2] [--only NAME,...] [--seed S]

Each row is one arena match (``briscola.arena.run_arena``): every deal is played with the
seats swapped (two players), the teams swapped (team games) or rotated (several players
alone), so the luck of the cards cancels out. ``--deals`` is the number of deal groups of
the two-player rows; the rows with more players and the long expert rows use a fraction of
it (shown in the table). Figures are reported as measured, targets met or not.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if os.path.join(ROOT, "py") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "py"))

from briscola.arena import run_arena  # noqa: E402

# name, variant, bot A, bot B, share of --deals, target (kind, value) or None
PAIRINGS = [
    ("int-rand", "classic", "intermediate", "random", 1.0, ("win", 0.88)),
    ("exp-int", "classic", "expert", "intermediate", 1.0, ("diff", 12.0, 10.0, 0.68)),
    ("beg-rand", "classic", "beginner", "random", 1.0, None),
    ("int-beg", "classic", "intermediate", "beginner", 1.0, None),
    ("exp-int-four", "four", "expert", "intermediate", 0.25, ("diff", 15.0)),
    ("exp-rand", "classic", "expert", "random", 0.25, None),
    ("exp-int-three", "three", "expert", "intermediate", 0.1, None),
    ("exp-int-six", "six", "expert", "intermediate", 0.05, None),
    ("exp-int-double", "double", "expert", "intermediate", 0.1, None),
    ("exp-int-scoperta", "scoperta", "expert", "intermediate", 0.1, None),
    ("exp-int-bisca", "bisca", "expert", "intermediate", 0.1, None),
    ("exp-int-bosnian", "bosnian", "expert", "intermediate", 0.1, None),
    ("int-rand-four", "four", "intermediate", "random", 0.25, None),
]


def _target_text(target, r) -> tuple[str, str]:
    if target is None:
        return "–", "–"
    kind, value = target[0], target[1]
    if kind == "win":
        return f"≥ {100 * value:.0f} % wins", "yes" if r["win_rate"] >= value else "**no**"
    # ("diff", mean, lowest CI bound, win rate): the last two optional (CI above 0).
    floor = target[2] if len(target) > 2 else 0.0
    wins = target[3] if len(target) > 3 else None
    ok = r["mean_diff"] >= value and r["ci95"][0] is not None and r["ci95"][0] > floor
    text = f"≥ +{value:g} points, CI > {floor:+g}".replace("> +0", "> 0")
    if wins is not None:
        ok = ok and r["win_rate"] >= wins
        text += f", ≥ {100 * wins:.0f} % wins"
    return text, "yes" if ok else "**no**"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Arena strength table of the computer players.")
    ap.add_argument("--deals", type=int, default=2000, help="deal groups of the 2-player rows")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", default="strength")
    ap.add_argument("--only", default="", help="comma-separated row names: "
                    + ", ".join(p[0] for p in PAIRINGS))
    args = ap.parse_args(argv)
    only = {x for x in args.only.split(",") if x}
    unknown = only - {p[0] for p in PAIRINGS}
    if unknown:
        print(f"strength: unknown rows {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    print(f"Arena results (duplicate deals, seed {args.seed!r}); mean diff is bot A's side "
          "minus the other side per deal (several players alone: A minus the mean of the "
          "others)\n")
    print("| row | variant | A v B | deal groups | A wins | mean diff | 95 % CI | target | met | "
          "time |")
    print("| --- | --- | --- | ---: | ---: | ---: | --- | --- | --- | ---: |")
    sys.stdout.flush()
    for name, variant, a, b, share, target in PAIRINGS:
        if only and name not in only:
            continue
        deals = max(10, int(args.deals * share))
        t0 = time.perf_counter()
        r = run_arena(variant, a, b, deals, args.seed, workers=args.workers)
        dt = time.perf_counter() - t0
        ttext, met = _target_text(target, r)
        lo, hi = r["ci95"]
        print(f"| {name} | {variant} | {a} v {b} | {deals} | {100 * r['win_rate']:.1f} % | "
              f"{r['mean_diff']:+.2f} | [{lo:+.2f}, {hi:+.2f}] | {ttext} | {met} | "
              f"{dt:.0f} s |")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
