"""The bid and the call from the learned evaluation: a hand's points with a called card,
averaged over deals of the other hands (an experiment of ``bench/chiamata.py``, its
``expert-netbid``; screened and not kept, so not in the package).

At the auction a bidder knows only his own hand (and who leads the first trick). For a trump
suit and a called card, :func:`net_estimate` deals the other cards at random among the four
other seats (the called card's holder becomes the partner) and asks the Chiamata network
(:mod:`briscola.ai.learn.chiamata`) for the points the caller's side takes from the first
trick, every hand known, as the search asks it at a leaf; the mean over the deals is the
estimate the bid model's linear guess gives otherwise (:func:`briscola.ai.chiamata.bid.estimate`).

The network's hidden layer is linear in its inputs up to the rectifier, so a deal costs the
rows of the partner's cards only: the caller's hand (on the caller's side) and every other
card (on the other side) are summed once, then each deal moves its partner's cards to the
caller's side. The deals are drawn from a generator seeded by the hand and the call, so the
same view gives the same estimate.
"""
from __future__ import annotations

import os
import random
import sys
from operator import add, sub

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "py"))

from briscola.ai.chiamata.bid import BidPolicy, estimate  # noqa: E402
from briscola.ai.learn import card_slots  # noqa: E402
from briscola.ai.learn.chiamata import CH_OTHER, CH_SIDE, CH_SIDEPOS, load_model  # noqa: E402

NET_DEALS = 24  # deals of the other hands averaged for one call


def net_estimate(model, rules, hand_mask: int, me: int, leader: int, trump: int, called: int,
                 deals: int = NET_DEALS, cache: dict | None = None) -> float:
    """The caller's side's card points with a partner holding ``called`` (not in the hand),
    by the network, averaged over ``deals`` random deals of the unseen cards."""
    key = (hand_mask, me, leader, trump, called, deals)
    if cache is not None and key in cache:
        return cache[key]
    t = rules.tables
    n = rules.players
    w1 = model.w1
    slot = card_slots(rules, trump)
    unseen = [c for c in t.deck_ints if not hand_mask >> c & 1 and c != called]
    acc = list(model.b1)
    for c in t.deck_ints:
        row = w1[(CH_SIDE if hand_mask >> c & 1 else CH_OTHER) + slot[c]]
        acc = list(map(add, acc, row))
    # The called card on the caller's side, whoever holds it.
    acc = list(map(add, acc, w1[CH_SIDE + slot[called]]))
    acc = list(map(sub, acc, w1[CH_OTHER + slot[called]]))
    rot = t.rot[leader]
    pos = {s: p for p, s in enumerate(rot)}
    base_by_partner = {}
    for s in range(n):
        if s == me:
            continue
        b = list(map(add, acc, w1[CH_SIDEPOS + pos[me]]))
        base_by_partner[s] = list(map(add, b, w1[CH_SIDEPOS + pos[s]]))
    diff = {c: list(map(sub, w1[CH_SIDE + slot[c]], w1[CH_OTHER + slot[c]])) for c in unseen}
    others = [s for s in range(n) if s != me]
    per = len(t.deck_ints) // n - 1  # the partner's cards besides the called one
    rng = random.Random(f"netbid:{hand_mask}:{me}:{leader}:{trump}:{called}")
    w2, b2 = model.w2, model.b2
    total = 0.0
    for _ in range(deals):
        h = list(base_by_partner[others[rng.randrange(len(others))]])
        for c in rng.sample(unseen, per):
            h = list(map(add, h, diff[c]))
        out = b2
        for a, w in zip(h, w2):
            if a > 0.0:
                out += a * w
        total += out
    est = total / deals * model.scale
    if cache is not None:
        cache[key] = est
    return est


class NetBidPolicy(BidPolicy):
    """A :class:`~briscola.ai.chiamata.bid.BidPolicy` whose estimate of a call with a partner
    is :func:`net_estimate` (plus the policy's bonus); a call of one's own card keeps the bid
    model's (the network saw few deals played alone). Without shipped weights, the bid model
    serves throughout."""

    def __init__(self, deals: int = NET_DEALS, **kw) -> None:
        super().__init__(**kw)
        self.deals = deals
        self._model: object = False
        self._cache: dict = {}

    def estimator(self, view):
        if self._model is False:
            self._model = load_model()
        model = self._model
        if model is None:
            return estimate
        if len(self._cache) > 4096:
            self._cache.clear()
        mask = 0
        for c in view.hand:
            mask |= 1 << int(c)
        me, leader, cache, deals = view.seat, view.leader, self._cache, self.deals

        def est(hand, trump, called, rules, alone):
            if alone:
                return estimate(hand, trump, called, rules, True)
            return net_estimate(model, rules, mask, me, leader, trump, called, deals, cache)
        return est


def offline_check(variant: str, deals: int, seed: str = "bidprobe") -> str:
    """On deals the intermediate players bid and play out (none the bid model or the network
    was fitted on), how well each estimate of the caller's call (with a partner) predicts
    the points the caller's side took: root mean square error, the log-loss of making the
    target (the bid model's spread), and the outcome by bins of the estimate."""
    import math

    from briscola.ai import make_bot
    from briscola.ai.chiamata.bid import PARTNER_SIGMA, p_reach
    from briscola.game import Game
    model = load_model()
    rows = []
    for i in range(deals):
        g = Game.new(variant, seed=f"{seed}:{i}")
        n = g.rules.players
        bots = [make_bot("intermediate", f"{seed}:{i}:{s}") for s in range(n)]
        while g.phase_name in ("auction", "call"):
            s = g.current_player
            g.apply(bots[s].decide(g.view(s)).action, s)
        auc = g.auction
        if g.phase_name != "play" or auc.caller is None or auc.carichi:
            continue
        caller, partner = auc.caller, auc.partner(g)
        if partner == caller:
            continue
        hand = [int(c) for c in g.hands[caller]]
        mask = sum(1 << c for c in hand)
        trump = g.trump
        a = estimate(hand, trump, auc.called, g.rules, False)
        b = net_estimate(model, g.rules, mask, caller, g.order[0], trump, auc.called)
        while not g.is_over:
            s = g.current_player
            g.apply(bots[s].decide(g.view(s)).action, s)
        got = g.points[caller] + g.points[partner]
        rows.append((got, auc.target, a, b))
    out = [f"{variant}: {len(rows)} contracts with a partner, mean points "
           f"{sum(r[0] for r in rows) / len(rows):.1f}"]
    for name, j in (("bid model", 2), ("network", 3)):
        rms = math.sqrt(sum((r[0] - r[j]) ** 2 for r in rows) / len(rows))
        ll = 0.0
        bins: dict = {}
        for r in rows:
            p = min(max(p_reach(r[j], r[1], False), 1e-4), 1 - 1e-4)
            made = r[0] >= r[1]
            ll -= math.log(p if made else 1.0 - p)
            bins.setdefault(int(r[j] // 10) * 10, []).append((r[0], made))
        out.append(f"{name}: mean estimate {sum(r[j] for r in rows) / len(rows):.1f}, "
                   f"error {rms:.2f} (root mean square), log-loss of making the target "
                   f"{ll / len(rows):.4f} (spread {PARTNER_SIGMA})")
        out.append("  " + "; ".join(
            f"{k}-{k + 10}: {len(v)}, took {sum(x for x, _ in v) / len(v):.1f}, made "
            f"{100 * sum(m for _, m in v) / len(v):.0f}%" for k, v in sorted(bins.items())))
    return "\n".join(out)


if __name__ == "__main__":
    import argparse
    ap = argparse.ArgumentParser(description="The network's estimate of a call against the "
                                 "bid model's, on deals neither saw.")
    ap.add_argument("--variant", default="chiamata")
    ap.add_argument("--deals", type=int, default=2000)
    ap.add_argument("--seed", default="bidprobe")
    args = ap.parse_args()
    print(offline_check(args.variant, args.deals, args.seed))
