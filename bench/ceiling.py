#!/usr/bin/env python3
"""How much any reading of the hidden cards could still gain: the expert told the truth.

    python bench/ceiling.py [--see hands|all] [--against expert|intermediate]
                            [--variant classic] [--deals 400] [--seed ceil] [--workers 2]

A measurement, never a player: the expert as it is, except that every world it searches
holds the other seats' true hands (``--see hands``; the talon's order is still drawn at
random) or the true hands and the true talon (``--see all``). It plays duplicate deal groups
(``briscola.arena``'s seatings, the same seeds) against ``--against``; beside it the expert
as it is plays the same groups against the same opponent, and the table prints both margins
and their paired difference.

What it bounds: the worlds the expert searches are weighed by the others' plays
(``learned_inference``, ``inference``); a better weighing, by a policy model over the whole
deal or anything else, can at best put the true hands in every world, which is ``hands``.
So the head-to-head margin of ``hands`` over the expert is more than any such change can
give. ``all`` adds the talon's order, which no play reveals.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if os.path.join(ROOT, "py") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "py"))

from briscola.ai import expert as expert_mod  # noqa: E402
from briscola.ai.sampler import Sampler  # noqa: E402

# (seat, the true hands as bit masks, the true talon, "hands" or "all") while a told
# expert decides; None otherwise. One process plays one game at a time.
TRUTH = None
# Each unknown card of another seat's hand is told with this chance, drawn afresh at each
# decision (1: the whole hand); REVEAL draws it, seeded per game.
SHARE = 1.0
REVEAL = random.Random(0)


class ToldSampler(Sampler):
    """Worlds with the true hands (and talon) of the game, for the seat being told."""

    def __init__(self, sit, rng) -> None:
        super().__init__(sit, rng)
        if TRUTH is None or TRUTH[0] != sit.me:
            return
        _, hands, talon, see = TRUTH
        fixed = 0
        for s in range(sit.n):
            if s != sit.me and self.slots[s]:
                for c in range(64):
                    if hands[s] >> c & 1 and not self.base_hands[s] >> c & 1 \
                            and (SHARE >= 1 or REVEAL.random() < SHARE):
                        self.base_hands[s] |= 1 << c
                        fixed |= 1 << c
                        self.slots[s] -= 1
        if see == "all" and self.free_talon:
            for j in self.free_talon:
                fixed |= 1 << talon[j]
            self.base_talon = list(talon)
            self.free_talon = []
        self.pool = [c for c in self.pool if not fixed >> c & 1]
        self.consistent = sum(self.slots) + len(self.free_talon) == len(self.pool)


# Cards left (hands and talon) from which the classic expert searches exactly.
HORIZON = 10


def _group(rules, against: str, see: str | None, when: str, seed, index: int) -> int:
    """One deal group: the (told or plain) expert's summed difference against ``against``."""
    global TRUTH
    from briscola.ai import make_bot
    from briscola.arena import _score, seatings
    from briscola.game import Game
    total = 0
    for seating in seatings(rules):
        game = Game.new(rules, seed=f"{seed}:{index}")
        REVEAL.seed(f"{seed}:{index}:{seating}")
        bots = [make_bot("expert" if seating[s] else against, f"{seed}:{index}:{s}")
                for s in range(rules.players)]
        for b in bots:
            b.reset()
        while not game.is_over:
            seat = game.current_player
            left = sum(len(h) for h in game.hands) + len(game.talon)
            if see and seating[seat] and (when == "always"
                                          or (left > HORIZON) == (when == "early")):
                TRUTH = (seat, [sum(1 << c for c in h) for h in game.hands],
                         list(game.talon), see)
            try:
                action = bots[seat].decide(game.view(seat)).action
            finally:
                TRUTH = None
            game.apply(action, seat)
        total += _score(rules, game, seating)[0]
    return total


def _part(args):
    global SHARE
    variant, against, see, when, share, seed, indices = args
    SHARE = share
    expert_mod.Sampler = ToldSampler  # this process plays only the bench's games
    from briscola.rules import find_variant
    rules = find_variant(variant)
    # The expert against itself on duplicate deals scores exactly 0: not played.
    return [(0 if against == "expert" else _group(rules, against, None, when, seed, i),
             _group(rules, against, see, when, seed, i)) for i in indices]


def placement(variant: str, deals: int, seed, worlds: int = 24, pool: int = 4,
              temperature: float = 2.5, uniform: float = 0.15, depth: int = 1) -> dict:
    """How much of the others' hands the worlds place right: at each decision of the experts
    (seat 0's side; the others intermediates) with more than the horizon's cards left, the
    share of the others' unknown hand cards that a world puts in the right hand, averaged over
    ``worlds`` plain worlds and over as many resampled from ``pool`` times more by the others'
    last plays (the expert's weighing, ``learned_inference``, with its model's
    ``temperature`` and ``uniform`` share, each seat's last ``depth`` plays)."""
    from briscola.ai import make_bot
    from briscola.ai.common import Situation, resample
    from briscola.ai.inference import Evidence
    from briscola.ai.rollout import FastPolicy
    from briscola.game import Game
    from briscola.rules import find_variant
    rules = find_variant(variant)
    rng = random.Random(f"{seed}:placement")
    sums = {"plain": 0.0, "weighed": 0.0}
    count = 0
    for i in range(deals):
        game = Game.new(rules, seed=f"{seed}:{i}")
        sides = rules.tables.teams
        mine = [s for s in range(rules.players) if (s in sides[0] if sides else s == 0)]
        bots = [make_bot("expert" if s in mine else "intermediate", f"{seed}:{i}:{s}")
                for s in range(rules.players)]
        policy = FastPolicy(rules, Situation(game.view(0)).trump)
        while not game.is_over:
            seat = game.current_player
            view = game.view(seat)
            left = sum(len(h) for h in game.hands) + len(game.talon)
            if seat in mine and left > max(HORIZON, 3 * rules.players) \
                    and len(view.tricks) >= 3:
                sit = Situation(view)
                sampler = Sampler(sit, rng)
                truth = [sum(1 << c for c in h) for h in game.hands]
                unknown = sum(sit.unknown_slots[s] for s in range(sit.n) if s != seat)
                if sampler.consistent and unknown:
                    def right(w):
                        return sum(bin(w.hands[s] & truth[s] & ~sit.known[s]).count("1")
                                   for s in range(sit.n) if s != seat) / unknown
                    plain = [sampler.sample() for _ in range(worlds)]
                    ev = Evidence(sit, policy, temperature, uniform, depth)
                    drawn = [sampler.sample() for _ in range(pool * worlds)]
                    weighed = (resample(drawn, [ev.weight(w.hands) for w in drawn], worlds, rng)
                               if ev.records else None) or drawn[:worlds]
                    sums["plain"] += sum(map(right, plain)) / worlds
                    sums["weighed"] += sum(map(right, weighed)) / worlds
                    count += 1
            game.apply(bots[seat].decide(view).action, seat)
    return {k: v / max(count, 1) for k, v in sums.items()} | {"decisions": count}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--see", choices=("hands", "all"), default="hands")
    ap.add_argument("--when", choices=("always", "early", "late"), default="always",
                    help="told at every play, only before the search horizon (more than "
                    f"{HORIZON} cards left in hands and talon), or only from there")
    ap.add_argument("--share", type=float, default=1.0,
                    help="the chance each unknown card of another hand is told (1: all)")
    ap.add_argument("--against", default="expert")
    ap.add_argument("--variant", default="classic")
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--seed", default="ceil")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--placement", action="store_true",
                    help="instead: how much of the others' hands plain and weighed worlds "
                    "place right, over --deals deals")
    ap.add_argument("--pool", type=int, default=4, help="with --placement: worlds drawn a "
                    "world kept by the weighing")
    ap.add_argument("--temperature", type=float, default=2.5,
                    help="with --placement: the weighing model's temperature")
    ap.add_argument("--uniform", type=float, default=0.15,
                    help="with --placement: the weighing model's uniform share")
    ap.add_argument("--depth", type=int, default=1,
                    help="with --placement: each other seat's last plays read")
    args = ap.parse_args(argv)
    if args.placement:
        t0 = time.perf_counter()
        r = placement(args.variant, args.deals, args.seed, pool=args.pool,
                      temperature=args.temperature, uniform=args.uniform, depth=args.depth)
        print(f"Worlds of the expert's side: the others' unknown hand cards placed right, "
              f"{args.variant}, {args.deals} deals, {r['decisions']} decisions, pool {args.pool}, "
              f"temperature {args.temperature}, uniform {args.uniform}, depth {args.depth} (seed "
              f"{args.seed!r}, {time.perf_counter() - t0:.0f} s)\n")
        print("| worlds | placed right |\n| --- | ---: |")
        print(f"| plain | {r['plain']:.3f} |\n| weighed by the last plays | {r['weighed']:.3f} |")
        return 0
    from briscola.arena import group_divisor, over_workers
    from briscola.rules import find_variant
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from strength import _load, _mean_ci
    scale = group_divisor(find_variant(args.variant))
    t0 = time.perf_counter()
    groups = over_workers(_part, lambda c: (args.variant, args.against, args.see, args.when,
                                       args.share, args.seed, c),
                          args.deals, args.workers)
    a = [x / scale for x, _ in groups]
    b = [y / scale for _, y in groups]
    d = [y - x for x, y in zip(a, b)]
    print(f"The expert told the {args.see} ({args.when}, share {args.share}) v {args.against}, {args.variant}, "
          f"{args.deals} deal groups (seed {args.seed!r}, {args.workers} workers, "
          f"{time.perf_counter() - t0:.0f} s, load {_load()})\n")
    print(f"| expert | mean diff v {args.against} | 95 % |")
    print("| --- | ---: | ---: |")
    for label, xs in (("as it is", a), (f"told the {args.see}", b), ("difference", d)):
        mu, half = _mean_ci(xs)
        print(f"| {label} | {mu:+.2f} | ± {half:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
