"""Positions of Briscola Chiamata deals for training its learned evaluation
(``briscola.ai.learn.chiamata``).

    python tools/train/chiamata_selfplay.py --variant chiamata --deals 20000 --seed 1 --out ch1.npz

The intermediate player sits at every seat (auction and play); each deal has one deviation:
at a trick chosen at random among the first five, one seat chosen at random plays a random
legal card, so the positions include plays the intermediate would not make (the search asks
the evaluation about every card, not only the likely ones). At the start of every trick
after the deviation, from the second trick to the sixth (the trick starts the expert's
one-trick search reaches before its exact endgame), the position is encoded with every hand
known and the true sides (:func:`briscola.ai.learn.chiamata.encode`), as the search sees a
sampled world; its label is the card points the caller's side takes from there to the end.
With ``--solve-tricks N`` (default 3; more costs much more) the deal stops when N tricks are left and the rest is
solved exactly with every card known (the expert's perfect-information search), so the
labels count perfect play from there on. Deals the auction ends without a contract (none in
these variants) or without a caller are skipped.

Besides the network's inputs the file keeps each position's hands, leader, sides, trump, the
trick number and its deal (``deals``: ``train.py`` holds out whole deals), so other
evaluations can be measured on the same positions (``chiamata_check.py``). The same seed
gives the same file.
"""
from __future__ import annotations

import argparse
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if os.path.join(ROOT, "py") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "py"))

from briscola.ai import make_bot  # noqa: E402
from briscola.ai.chiamata.expert import ChSolver  # noqa: E402
from briscola.ai.learn.chiamata import N_CH_INPUTS, encode  # noqa: E402
from briscola.game import Game  # noqa: E402

FIRST, LAST = 1, 5  # the tricks done at the positions kept


def masks(game) -> list[int]:
    out = []
    for h in game.hands:
        m = 0
        for c in h:
            m |= 1 << int(c)
        out.append(m)
    return out


def play_deal(variant: str, deal_seed: str, solve_tricks: int = 3, deviate: bool = True,
              solvers: dict | None = None) -> list[dict]:
    """One deal's positions: dicts of hands, leader, maxside, trump, trick, label."""
    rng = random.Random(f"deviation:{deal_seed}")
    g = Game.new(variant, seed=deal_seed)
    n = g.rules.players
    bots = [make_bot("intermediate", f"{deal_seed}:{s}") for s in range(n)]
    dev_trick = rng.randrange(LAST) if deviate else -1
    dev_seat = rng.randrange(n)
    tricks = len(g.rules.tables.deck_ints) // n
    snaps = []
    maxside = None
    solved = None
    while not g.is_over:
        seat = g.current_player
        if g.phase_name == "play" and not g.trick:
            if maxside is None:
                auc = g.auction
                if auc.caller is None:
                    return []
                partner = auc.partner(g)
                maxside = [s == auc.caller or s == partner for s in range(n)]
            done = g.tricks_done
            taken = sum(g.points[s] for s in range(n) if maxside[s])
            if FIRST <= done <= LAST and done > dev_trick:
                snaps.append({"hands": masks(g), "leader": g.order[0], "trick": done,
                              "taken": taken})
            if solve_tricks and tricks - done <= solve_tricks:
                hands = masks(g)
                key = (g.rules, g.trump, g.auction.carichi)
                if solvers is None:
                    solvers = {}
                sol = solvers.get(key)
                if sol is None:
                    sol = solvers[key] = ChSolver(g.rules, g.trump, g.auction.carichi)
                leader = g.order[0]
                vals = sol.values(hands, [], list(g.order), maxside, [
                    c for c in range(64) if hands[leader] >> c & 1])
                v = max(vals.values()) if maxside[leader] else min(vals.values())
                solved = taken + v
                break
        if g.phase_name == "play" and g.tricks_done == dev_trick and seat == dev_seat:
            action = rng.choice(list(g.view(seat).legal))
        else:
            action = bots[seat].decide(g.view(seat)).action
        g.apply(action, seat)
    if maxside is None:
        return []
    if solved is None:
        solved = sum(g.points[s] for s in range(n) if maxside[s])
    rules, trump = g.rules, g.trump
    out = []
    for sn in snaps:
        out.append({"hands": sn["hands"], "leader": sn["leader"], "maxside": maxside,
                    "trump": trump, "trick": sn["trick"], "label": solved - sn["taken"],
                    "inputs": encode(rules, trump, sn["hands"], sn["leader"], maxside)})
    return out


def generate(variant: str, deals: int, seed, solve_tricks: int = 3, deviate: bool = True,
             start: int = 0) -> list[tuple[int, dict]]:
    """(deal number, position) for deals ``start`` .. ``start + deals - 1`` of the seed."""
    solvers: dict = {}
    out = []
    for i in range(start, start + deals):
        for p in play_deal(variant, f"chselfplay:{variant}:{seed}:{i}", solve_tricks,
                           deviate, solvers):
            out.append((i, p))
    return out


def to_arrays(rows):
    import numpy as np
    n = len(rows)
    flags = np.zeros((n, N_CH_INPUTS), dtype=np.uint8)
    hands = np.zeros((n, 5), dtype=np.int64)
    side = np.zeros((n, 5), dtype=np.uint8)
    leader = np.zeros(n, dtype=np.int8)
    trump = np.zeros(n, dtype=np.int8)
    trick = np.zeros(n, dtype=np.int8)
    y = np.zeros(n, dtype=np.float32)
    deal = np.zeros(n, dtype=np.int32)
    for i, (d, p) in enumerate(rows):
        flags[i, p["inputs"]] = 1
        hands[i] = p["hands"]
        side[i] = p["maxside"]
        leader[i] = p["leader"]
        trump[i] = -1 if p["trump"] is None else p["trump"]  # None: a carichi, no trump
        trick[i] = p["trick"]
        y[i] = p["label"]
        deal[i] = d
    return {"flags": flags, "scalars": np.zeros((n, 0), dtype=np.float32), "labels": y,
            "deals": deal, "hands": hands, "maxside": side, "leader": leader,
            "trump": trump, "trick": trick}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Chiamata positions for the learned evaluation.")
    ap.add_argument("--variant", default="chiamata",
                    help="chiamata (auction by rank) or chiamata-points")
    ap.add_argument("--deals", type=int, default=20000)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--solve-tricks", type=int, default=3,
                    help="tricks left from which the rest is solved exactly (0: never)")
    ap.add_argument("--no-deviation", action="store_true",
                    help="no random card at a random trick (pure self-play)")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    import numpy as np
    from briscola.rules import RulesError, find_variant
    try:
        rules = find_variant(args.variant)
    except RulesError as e:
        print(f"chiamata_selfplay: {e}", file=sys.stderr)
        return 2
    if rules.mode != "chiamata":
        print(f"chiamata_selfplay: {args.variant!r} is not a Briscola Chiamata variant",
              file=sys.stderr)
        return 2
    arrays = to_arrays(generate(args.variant, args.deals, args.seed, args.solve_tricks,
                                not args.no_deviation))
    np.savez_compressed(args.out, **arrays)
    y = arrays["labels"]
    print(f"{args.out}: {len(y)} positions from {args.deals} deals, mean label "
          f"{y.mean() if len(y) else 0:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
