"""Self-play deals for training the learned evaluation (``briscola.ai.learn``).

    python tools/train/selfplay.py --variant classic --deals 20000 --seed 1 --out data.npz

Every seat plays the card-counting heuristic (the intermediate player's rules of thumb, on
bit masks: ``briscola.ai.rollout.FastPolicy``). The search asks the evaluation about every
card it might play, not only the heuristic's choice, so each deal has one deviation: at a
trick chosen at random, one seat chosen at random plays a random card (``--explore`` adds
random cards anywhere, off by default). From the trick after the deviation on, at the start
of every trick, each seat's view of the position is encoded (``briscola.ai.learn.Encoder``);
its label is the points that seat's side took from there to the end of the deal. With ``--solve-from N``, once N cards or fewer are left to
play (hands plus talon) the deal stops and the rest is solved exactly with every card's
place known (``briscola.ai.solver``): the labels then count, from there on, what perfect
play by every seat would take, as the expert's endgame search nearly does. The same seed
gives the same file.

With ``--bot NAME`` (``expert``), the deals are played by the package's players instead:
one seat, chosen at random each deal, is ``NAME`` and the others ``--against`` (the
intermediate by default), with the same one random card at a random trick; only the views
of ``NAME``'s seat are labelled (all seats when both are the same player), so the labels
count what that player goes on to take from each position, which is how its search will
use the evaluation. Much slower: every decision is the bot's own.
"""
from __future__ import annotations

import argparse
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if os.path.join(ROOT, "py") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "py"))

from briscola.ai.learn import Encoder  # noqa: E402
from briscola.ai.rollout import FastPolicy  # noqa: E402
from briscola.ai.solver import Solver  # noqa: E402
from briscola.cards import N_RANKS  # noqa: E402
from briscola.rules import find_variant  # noqa: E402


def play_deal(rules, rng: random.Random, policies: dict, encoders: dict, explore: float,
              solve_from: int = 0, deviate: bool = True):
    """One deal; per trick start and seat: (flags, scalars, label)."""
    t = rules.tables
    n = rules.players
    pts = t.points
    deck = list(t.deck_ints)
    rng.shuffle(deck)
    k = rules.hand_size
    hands = [0] * n
    for s in range(n):
        for c in deck[s * k:(s + 1) * k]:
            hands[s] |= 1 << c
    rest = deck[n * k:]
    talon = rest  # talon[-1] is drawn next, talon[0] is face up
    faceup = talon[0]
    trump = faceup // N_RANKS
    key = trump
    if key not in policies:
        policies[key] = FastPolicy(rules, trump)
        encoders[key] = (Encoder(rules, trump), Solver(rules, trump))
    policy, (enc, solver) = policies[key], encoders[key]
    beats = t.beats(trump)
    side_of = t.side_of
    orders, rot, per_round = t.orders, t.rot, t.per_round
    leader = rng.randrange(n)
    order = orders[leader]
    tn = len(talon)
    live = t.deck_mask
    known_at = -1  # the seat that drew the face-up card (known to all), until played
    side_pts = [0] * t.n_sides
    samples = []
    tricks = len(deck) // n
    last = tricks - 1 if not solve_from else tricks - (solve_from + n - 1) // n
    dev_trick = rng.randrange(max(last, 1)) if deviate else -1
    dev_seat = rng.randrange(n)
    trick_no = -1
    while True:
        trick_no += 1
        # Trick start: every seat's view.
        for me in range(n):
            if trick_no <= dev_trick:
                break
            kn = 0
            if known_at >= 0 and known_at != me and hands[known_at] >> faceup & 1:
                kn = 1 << faceup
            fu = faceup if tn else -1
            unseen = live & ~hands[me] & ~kn
            if fu >= 0:
                unseen &= ~(1 << fu)
            mine = side_pts[side_of[me]]
            flags, scal = enc.encode(me, hands[me], unseen, kn, fu, [], -1, order[0], mine,
                                     sum(side_pts) - mine, tn, 0)
            samples.append((flags, scal, side_of[me], mine))
        left = sum(bin(h).count("1") for h in hands) + tn
        if solve_from and left <= solve_from:
            first = side_of[order[0]]
            maxside = [side_of[s] == first for s in range(n)]
            vals = solver.values(hands, talon[:tn], [], order, maxside, exact=False)
            v = max(vals.values())
            left_pts = sum(pts[c] for c in deck if live >> c & 1)
            final = [p + (v if i == first else left_pts - v) for i, p in enumerate(side_pts)]
            return [(f, sc, final[side] - then) for f, sc, side, then in samples]
        b, bs, tp = -1, -1, 0
        fh = (1 << faceup) if tn else 0
        for pos in range(len(order)):
            seat = order[pos]
            h = hands[seat]
            if (explore and rng.random() < explore) or (trick_no == dev_trick
                                                         and seat == dev_seat):
                cards = [x for x in deck if h >> x & 1]
                c = rng.choice(cards)
            else:
                c = policy.choose(hands, live, fh, order, pos, b, bs, tp, tn)
            hands[seat] ^= 1 << c
            live ^= 1 << c
            tp += pts[c]
            if b < 0 or beats[(b << 6) | c]:
                b, bs = c, seat
        side_pts[side_of[bs]] += tp
        if tn:
            seq = orders[bs] if tn >= per_round else rot[bs][:tn]
            for s in seq:
                tn -= 1
                hands[s] |= 1 << talon[tn]
                if tn == 0:
                    known_at = s
            order = seq
        else:
            if not hands[bs]:
                break
            order = orders[bs]
    return [(f, sc, side_pts[side] - then) for f, sc, side, then in samples]


def encode_view(enc, view):
    """A seat's view at a trick's start, encoded as :func:`play_deal` encodes it; in the
    variants :func:`play_deal` does not know (scoperta's open hands, six players' partners
    seen in the last tricks) as the view shows them: ``--bot`` deals use this."""
    from briscola.ai.common import Situation
    sit = Situation(view)
    known = 0
    for m in sit.known:
        known |= m
    hand = sit.hand_mask
    tn = sit.talon_size
    fu = sit.faceup if tn else -1
    unseen = view.rules.tables.deck_mask & ~sit.played & ~hand & ~known
    if fu >= 0:
        unseen &= ~(1 << fu)
    # Scoperta: the talon's next card lies face up; the table's plane (empty at a trick's
    # start) holds it.
    table = []
    if view.talon_next is not None:
        table = [(-1, int(view.talon_next))]
        unseen &= ~(1 << int(view.talon_next))
    sp = view.side_points
    mine = sp[sit.side]
    return enc.encode(sit.me, hand, unseen, known, fu, table, -1, sit.order[0], mine,
                      sum(sp) - mine, tn, 0), sit.side, mine


def play_bot_deal(rules, rng: random.Random, deal_seed: str, bot: str, against: str,
                  solvers: dict, solve_from: int = 0, deviate: bool = True):
    """One deal played by the package's bots (``bot`` at one random seat, ``against`` at
    the others); per trick start and labelled seat: (flags, scalars, label)."""
    from briscola.ai import make_bot
    from briscola.game import Game
    n = rules.players
    game = Game.new(rules, seed=deal_seed)
    first = rng.randrange(n)
    seats = [bot if s == first or bot == against else against for s in range(n)]
    bots = [make_bot(name, f"{deal_seed}:{s}") for s, name in enumerate(seats)]
    for b in bots:
        b.reset()
    labelled = [s for s in range(n) if seats[s] == bot]
    trump = game.trump
    if trump not in solvers:
        solvers[trump] = (Encoder(rules, trump), Solver(rules, trump))
    enc, solver = solvers[trump]
    pts = rules.tables.points
    side_of = rules.tables.side_of
    tricks = len(rules.tables.deck_ints) // n
    last = tricks - 1 if not solve_from else tricks - (solve_from + n - 1) // n
    dev_trick = rng.randrange(max(last, 1)) if deviate else -1
    dev_seat = rng.randrange(n)
    trick_no = -1
    samples = []
    while not game.is_over:
        seat = game.current_player
        if not game.trick:
            trick_no += 1
            views = {s: game.view(s) for s in range(n)}
            if trick_no > dev_trick:
                for s in labelled:
                    (flags, scal), side, mine = encode_view(enc, views[s])
                    samples.append((flags, scal, side, mine))
            left = sum(len(h) for h in game.hands) + len(game.talon)
            if solve_from and left <= solve_from:
                from briscola.ai.common import trick_order
                order = trick_order(views[seat])
                hands = [0] * n
                for s in range(n):
                    for c in game.hands[s]:
                        hands[s] |= 1 << c
                lead = side_of[order[0]]
                maxside = [side_of[s] == lead for s in range(n)]
                vals = solver.values(hands, list(game.talon), [], order, maxside, exact=False)
                v = max(vals.values())
                left_pts = (sum(pts[c] for h in game.hands for c in h)
                            + sum(pts[c] for c in game.talon))
                sp = list(views[seat].side_points)
                final = [p + (v if i == lead else left_pts - v) for i, p in enumerate(sp)]
                return [(f, sc, final[side] - then) for f, sc, side, then in samples]
        view = game.view(seat)
        if trick_no == dev_trick and seat == dev_seat:
            action = rng.choice([a for a in view.legal if a < 52])
        else:
            action = bots[seat].decide(view).action
        game.apply(action, seat)
    sp = game.outcome().side_points
    return [(f, sc, sp[side] - then) for f, sc, side, then in samples]


def generate(variant: str, deals: int, seed, explore: float = 0.0, solve_from: int = 0,
             deviate: bool = True, bot: str | None = None, against: str = "intermediate",
             sizes: list | None = None):
    """Flags (lists of indices), scalars and labels for ``deals`` deals. With ``sizes`` (a
    list), the number of positions of each deal is appended to it, in order."""
    rules = find_variant(variant)
    out = []
    if bot:
        rng = random.Random(f"selfplay:{variant}:{bot}:{against}:{seed}")
        solvers: dict = {}
        for i in range(deals):
            got = play_bot_deal(rules, rng, f"selfplay:{variant}:{seed}:{i}", bot,
                                against, solvers, solve_from, deviate)
            out.extend(got)
            if sizes is not None:
                sizes.append(len(got))
        return out
    rng = random.Random(f"selfplay:{variant}:{seed}")
    policies: dict = {}
    encoders: dict = {}
    for _ in range(deals):
        got = play_deal(rules, rng, policies, encoders, explore, solve_from, deviate)
        out.extend(got)
        if sizes is not None:
            sizes.append(len(got))
    return out


def to_arrays(samples):
    import numpy as np
    from briscola.ai.learn import N_FLAGS, N_SCALARS
    flags = np.zeros((len(samples), N_FLAGS), dtype=np.uint8)
    scal = np.zeros((len(samples), N_SCALARS), dtype=np.float32)
    y = np.zeros(len(samples), dtype=np.float32)
    for i, (f, sc, lab) in enumerate(samples):
        flags[i, f] = 1
        scal[i] = sc
        y[i] = lab
    return flags, scal, y


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Self-play positions for the learned evaluation.")
    ap.add_argument("--variant", default="classic")
    ap.add_argument("--deals", type=int, default=20000)
    ap.add_argument("--seed", default="1")
    ap.add_argument("--explore", type=float, default=0.0)
    ap.add_argument("--no-deviation", action="store_true",
                    help="no random card at a random trick (pure self-play)")
    ap.add_argument("--solve-from", type=int, default=0,
                    help="cards left from which the rest is solved exactly (0: never)")
    ap.add_argument("--bot", default=None,
                    help="play the deals with this player at one seat (e.g. expert)")
    ap.add_argument("--against", default="intermediate",
                    help="the player at the other seats with --bot")
    ap.add_argument("--out", required=True)
    args = ap.parse_args(argv)
    import numpy as np
    if args.bot:
        from briscola.ai import make_bot
        from briscola.rules import RulesError
        try:
            make_bot(args.bot, 0), make_bot(args.against, 0)
        except RulesError as e:
            print(f"selfplay: {e}", file=sys.stderr)
            return 2
    sizes: list = []
    flags, scal, y = to_arrays(generate(args.variant, args.deals, args.seed, args.explore,
                                        args.solve_from, not args.no_deviation,
                                        args.bot, args.against, sizes))
    # Each position's deal (0, 1, ...): train.py holds whole deals out, not positions.
    deal = np.repeat(np.arange(len(sizes), dtype=np.int32), sizes)
    np.savez_compressed(args.out, flags=flags, scalars=scal, labels=y, deals=deal)
    print(f"{args.out}: {len(y)} positions from {args.deals} deals, mean label {y.mean():.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
