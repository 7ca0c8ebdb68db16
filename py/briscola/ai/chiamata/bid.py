"""The auction and the call: how many points a hand can expect to take, and what to bid.

A hand is judged for a trump suit and a called card (whose holder becomes the partner, so
the called card is worth counting as if it were half in the hand). :func:`estimate` is a
linear model of the points the caller's side takes, on features a player counts at a glance:
trumps held, the ace and three of trump, the honours of trump, side aces and threes, the
strength of the called card, short side suits. Its coefficients were fitted on simulated
deals played out by the card-counting players (``python bench/chiamata.py fit``); the spread
of the outcome around the estimate gives the chance of reaching a target, and from it the
expected game points of each bid or call.

The bidders bid down the ranks while the best call at that rank is worth it, raise "2 and
N points" only when the hand is worth the higher (and multiplied) stake, and pass otherwise.
The call is the one with the best expected score: usually the highest card of the best suit
that the hand lacks; a call of one's own card (one against four) with a very strong hand;
a forced call when holding the 2 helps. "A carichi" is kept for hands that can run long
suits from the top.
"""
from __future__ import annotations

import math
from typing import TYPE_CHECKING, Callable

from ... import chiamata as _chiamata
from ...actions import BID_POINTS, BID_RANK, CALL_CARD, CALL_SUIT, CARICHI, PASS, Action
from ...cards import CARDS, N_RANKS, RANK_INDEX
from ..base import Decision, why

if TYPE_CHECKING:  # for the annotations only
    from ...rules import Rules
    from ...view import View

# Fitted by ``bench/chiamata.py fit`` (least squares on simulated deals; ALONE by ``fit
# --alone``, on hands with four trumps or more, the only ones that ever go alone).
# Features: see ``features``. PARTNER: a partner holds the called card; ALONE: one against four.
PARTNER_COEF = (30.09, 5.79, 5.18, 8.22, 3.43, 0.28, 0.58, -0.01, 11.62, 5.41, 0.85)
PARTNER_SIGMA = 17.4
ALONE_COEF = (-9.03, 5.90, 7.26, 8.92, 2.35, -1.04, -0.93, -0.34, 0.0, 0.0, -1.12)
ALONE_SIGMA = 8.3


def features(hand: list[int], trump: int, called: int, rules: Rules, alone: bool) -> list[float]:
    t = rules.tables
    pts = t.points
    order = t.order
    top2 = order[:2]
    n_trump = a_t = three_t = honours = side_top = side_ten = side_hon = 0
    counts = [0, 0, 0, 0]
    for c in hand:
        s = c // N_RANKS
        counts[s] += 1
        r = CARDS[c].rank
        if s == trump:
            n_trump += 1
            if r == top2[0]:
                a_t = 1
            elif r == top2[1]:
                three_t = 1
            elif pts[c] > 0:
                honours += 1
        else:
            if r == top2[0]:
                side_top += 1
            elif r == top2[1]:
                side_ten += 1
            elif pts[c] > 0:
                side_hon += 1
    p_top = p_hon = 0
    if not alone and called >= 0:
        r = CARDS[called].rank
        if r in top2:
            p_top = 1
        elif pts[called] > 0:
            p_hon = 1
    short: float = sum(1 for s in range(4) if s != trump and counts[s] == 0)
    short += sum(0.5 for s in range(4) if s != trump and counts[s] == 1)
    return [1.0, n_trump, a_t, three_t, honours, side_top, side_ten, side_hon, p_top, p_hon,
            short]


def estimate(hand: list[int], trump: int, called: int, rules: Rules, alone: bool) -> float:
    coef = ALONE_COEF if alone else PARTNER_COEF
    return sum(a * x for a, x in zip(coef, features(hand, trump, called, rules, alone)))


if TYPE_CHECKING:
    # estimate's shape: (hand, trump, called card, rules, alone) -> card points expected
    Estimate = Callable[[list[int], int, int, Rules, bool], float]


def p_reach(est: float, target: int, alone: bool) -> float:
    """Chance that the side's points reach ``target`` (normal spread around the estimate)."""
    sigma = ALONE_SIGMA if alone else PARTNER_SIGMA
    z = (est - (target - 0.5)) / sigma
    return 0.5 * (1.0 + math.erf(z / math.sqrt(2.0)))


def multiplier(rules: Rules, target: int) -> int:
    return _chiamata.multiplier(rules, target)


def _bands(rules: Rules) -> list[int]:
    """The targets above which the multiplier steps up (70 and 80 with multipliers)."""
    return [t for t in (70, 80) if multiplier(rules, t + 1) > multiplier(rules, t)]


def expected_score(rules: Rules, est: float, target: int, alone: bool) -> float:
    """The caller's expected game points."""
    p = p_reach(est, target, alone)
    return multiplier(rules, target) * (4 if alone else 2) * (2.0 * p - 1.0)


class Option:
    """One way to play the hand: the action that calls it, the trump and the called card."""

    __slots__ = ("action", "trump", "card", "alone", "est", "ev")

    def __init__(self, action: int, trump: int, card: int, alone: bool, est: float,
                 ev: float) -> None:
        self.action, self.trump, self.card, self.alone = action, trump, card, alone
        self.est, self.ev = est, ev


def rank_options(hand: list[int], rank: str, rules: Rules, target: int, forced_ok: bool = True,
                 bonus: tuple[float, float] = (0.0, 0.0),
                 est_fn: Estimate = estimate) -> list[Option]:
    """The calls open to the winner of a rank auction at ``rank`` (and its target).

    ``bonus``: card points added to the estimate with a partner and alone (what a player
    stronger than the one the model was fitted on takes more). ``est_fn``: the estimate
    (:func:`estimate` by default; same arguments)."""
    held = set(int(c) for c in hand)
    out = []
    weakest = rules.tables.order[-1]
    for s in range(4):
        card = RANK_INDEX[rank] + s * N_RANKS
        alone = card in held
        est = est_fn(hand, s, card, rules, alone) + bonus[alone]
        out.append(Option(CALL_SUIT + s, s, card, alone, est,
                          expected_score(rules, est, target, alone)))
        if alone and rank == weakest and rules.forced_call and forced_ok:
            for r in reversed(rules.tables.order):
                c = RANK_INDEX[r] + s * N_RANKS
                if c not in held:
                    est = est_fn(hand, s, c, rules, False) + bonus[0]
                    out.append(Option(CALL_CARD + c, s, c, False, est,
                                      expected_score(rules, est, target, False)))
                    break
    return out


def card_options(hand: list[int], rules: Rules, target: int,
                 bonus: tuple[float, float] = (0.0, 0.0),
                 est_fn: Estimate = estimate) -> list[Option]:
    """Points auction: any card may be called. Per suit, the best missing card and the self-call."""
    held = set(int(c) for c in hand)
    strength = rules.tables.strength
    out = []
    for s in range(4):
        suit = [c for c in rules.tables.deck_ints if c // N_RANKS == s]
        suit.sort(key=lambda c: -strength[c])
        missing = [c for c in suit if c not in held]
        mine = [c for c in suit if c in held]
        if missing:
            c = missing[0]
            est = est_fn(hand, s, c, rules, False) + bonus[0]
            out.append(Option(CALL_CARD + c, s, c, False, est,
                              expected_score(rules, est, target, False)))
        if mine:
            c = mine[-1]  # the weakest own card: calling it tells the others least
            est = est_fn(hand, s, c, rules, True) + bonus[1]
            out.append(Option(CALL_CARD + c, s, c, True, est,
                              expected_score(rules, est, target, True)))
    return out


def carichi_strength(hand: list[int], rules: Rules, leads_first: bool = True) -> float:
    """Tricks a hand is sure to win playing alone without trump, everyone following suit.

    A suit counts in full when the unbroken run from its top card is at least as long as the
    share of that suit the others are likely to hold; otherwise only the run counts. Without
    the first lead, the others lead their own suits first: every suit in which the hand has
    no sure winner costs a trick (or more) before the hand gets the lead.
    """
    order = rules.tables.order
    held = set(int(c) for c in hand)
    total = 0.0
    for s in range(4):
        cards = [c for c in held if c // N_RANKS == s]
        if not cards:
            continue
        run = 0
        for r in order:
            if RANK_INDEX[r] + s * N_RANKS in held:
                run += 1
            else:
                break
        others = len(order) - len(cards)
        if run >= (others + 1) // 2 + 1 or run >= others:
            total += len(cards)
        else:
            total += run
    if not leads_first:
        for s in range(4):
            if RANK_INDEX[order[0]] + s * N_RANKS not in held:
                total -= 1
    return total


# ---- bidding policy ------------------------------------------------------------------------

class BidPolicy:
    """Thresholds of one level: how much expected score a bid needs.

    ``bid_min``: the expected score a rank bid needs; ``contest_min``: the same while
    another seat holds the high bid (passing then most likely leaves this seat among that
    bidder's opponents, not in a deal nobody plays; the default is ``bid_min``).
    ``raise_min``: what a raise after the 2 needs. ``jump``: raise straight to the lowest
    target of a higher multiplier (71, 81) when its expected score beats the lowest raise's.
    """

    def __init__(self, bid_min: float = 0.25, raise_min: float = 0.6, best_slack: float = 0.35,
                 carichi_tricks: float = 7.0, self_call_edge: float = 0.4,
                 bonus: float = 0.0, alone_bonus: float = 0.0,
                 contest_min: float | None = None, jump: bool = False) -> None:
        self.bid_min = bid_min
        self.contest_min = bid_min if contest_min is None else contest_min
        self.jump = jump
        self.raise_min = raise_min
        self.best_slack = best_slack
        self.carichi_tricks = carichi_tricks
        self.self_call_edge = self_call_edge
        self.bonus = (bonus, alone_bonus)

    def estimator(self, view: View) -> Estimate:
        """The estimate of a hand's points for this view's decision (the linear bid model)."""
        return estimate

    def best(self, options: list[Option]) -> Option:
        """The best option; a self-call must beat the best partner call by a margin."""
        partner = [o for o in options if not o.alone]
        alone = [o for o in options if o.alone]
        bp = max(partner, key=lambda o: (o.ev, o.est)) if partner else None
        ba = max(alone, key=lambda o: (o.ev, o.est)) if alone else None
        if bp is None:  # then every option is a self-call: ``ba`` is one
            return ba  # type: ignore[return-value]
        if ba is not None and ba.ev > bp.ev + self.self_call_edge:
            return ba
        return bp


def _bid_reason_rank(rank: str, opt: Option, rules: Rules) -> dict:
    return why("bot_bid_rank", rank=rank, suit=opt.trump, points=round(opt.est))


def decide_auction(view: View, policy: BidPolicy) -> Decision:
    rules = view.rules
    hand = [int(c) for c in view.hand]
    legal = [int(a) for a in view.legal]
    can_pass = PASS in legal
    if CARICHI in legal and carichi_strength(hand, rules, view.leader == view.seat) \
            >= policy.carichi_tricks:
        return Decision(Action(CARICHI), why("bot_carichi"))
    if rules.auction == "points":
        return _points_auction(view, hand, legal, can_pass, policy)
    est_fn = policy.estimator(view)
    rank_bids = [a for a in legal if BID_RANK <= a < BID_RANK + N_RANKS]
    point_bids = [a for a in legal if BID_POINTS <= a <= BID_POINTS + 120]
    order = rules.tables.order
    if rank_bids:
        scored = []
        for a in rank_bids:
            rank = CARDS[a - BID_RANK].rank
            opt = policy.best(rank_options(hand, rank, rules, 60, bonus=policy.bonus,
                                           est_fn=est_fn))
            scored.append((order.index(rank), a, rank, opt))
        scored.sort()
        top = max(o.ev for _i, _a, _r, o in scored)
        high = (view.chiamata or {}).get("high")
        bar = policy.contest_min if high and high["seat"] != view.seat else policy.bid_min
        for _i, a, rank, opt in scored:
            if opt.ev >= bar and opt.ev >= top - policy.best_slack:
                return Decision(Action(a), _bid_reason_rank(rank, opt, rules))
        if not can_pass:
            _i, a, rank, opt = max(scored, key=lambda x: (x[3].ev, -x[0]))
            return Decision(Action(a), why("bot_must_bid_rank", rank=rank))
        return Decision(Action(PASS), why("bot_pass_not_lower"))
    if point_bids:
        a = min(point_bids)
        n = a - BID_POINTS

        def best_at(n: int) -> Option:
            return policy.best(rank_options(hand, order[-1], rules, n, bonus=policy.bonus,
                                            est_fn=est_fn))
        opt = best_at(n)
        if opt.ev < policy.raise_min and can_pass:
            return Decision(Action(PASS), why("bot_pass_too_high", n=n))
        code = "bot_raise" if opt.ev >= policy.raise_min else "bot_must_raise"
        if policy.jump:
            # Past 70 and 80 the stake doubles and triples: a strong hand may do better
            # to raise straight there than by one.
            for t in _bands(rules):
                if t + 1 > n and BID_POINTS + t + 1 in point_bids:
                    o = best_at(t + 1)
                    if o.ev > opt.ev:
                        n, opt, code = t + 1, o, "bot_raise"
        reason = why(code, n=n) if code == "bot_must_raise" else \
            why(code, n=n, points=round(opt.est))
        return Decision(Action(BID_POINTS + n), reason)
    return Decision(Action(legal[0]), why("bot_only_option"))


def _points_auction(view: View, hand: list[int], legal: list[int], can_pass: bool,
                    policy: BidPolicy) -> Decision:
    rules = view.rules
    bids = sorted(a for a in legal if BID_POINTS <= a <= BID_POINTS + 120)
    if not bids:
        return Decision(Action(PASS if can_pass else legal[0]), why("bot_pass"))
    a = bids[0]
    n = a - BID_POINTS
    opt = policy.best(card_options(hand, rules, n, policy.bonus, policy.estimator(view)))
    need = policy.bid_min if n <= 61 else policy.raise_min * 0.6
    if opt.ev >= need:
        return Decision(Action(a), why("bot_bid_points", n=n, card=opt.card,
                                       points=round(opt.est)))
    if not can_pass:
        return Decision(Action(a), why("bot_must_promise", n=n))
    return Decision(Action(PASS), why("bot_pass_too_high", n=n))


def decide_call(view: View, policy: BidPolicy) -> Decision:
    rules = view.rules
    hand = [int(c) for c in view.hand]
    legal = set(int(a) for a in view.legal)
    ch = view.chiamata or {}
    est_fn = policy.estimator(view)
    high = Action.parse(ch["high"]["bid"])
    if rules.auction == "points":
        target = high - BID_POINTS
        opts = [o for o in card_options(hand, rules, target, policy.bonus, est_fn)
                if o.action in legal]
    else:
        target = high - BID_POINTS if high >= BID_POINTS else 60
        rank = rules.tables.order[-1] if high >= BID_POINTS else CARDS[high - BID_RANK].rank
        opts = [o for o in rank_options(hand, rank, rules, target, bonus=policy.bonus,
                                        est_fn=est_fn) if o.action in legal]
    opt = policy.best(opts)
    return Decision(Action(opt.action), call_reason(opt, rules))


def call_reason(opt: Option, rules: Rules) -> dict:
    code = "bot_call_self" if opt.alone else "bot_call_card"
    return why(code, card=opt.card, suit=opt.trump, points=round(opt.est))
