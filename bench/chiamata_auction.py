"""How likely the auction is in one sampled deal: weights for the expert's worlds in Briscola
Chiamata, from the bids, the passes and the call (an experiment of ``bench/chiamata.py``, its
``expert-au1`` and kin; screened and not kept, so not in the package).

A seat that bid down to the jack holds a strong suit; a seat that passed at once does not;
the caller named as trump the suit his hand is best in. With no talon, the eight cards each
seat held during the auction are known exactly in a sampled world: the cards it holds now
plus those it has played. So every bid, pass and call of the other seats can be scored by a
model of how players bid, and the worlds where the auction looks likely get more weight,
from the first card of the deal on (the plays' weights,
:mod:`briscola.ai.chiamata.choice`, need plays).

The model is the bid model's own (:mod:`briscola.ai.chiamata.bid`): the estimate of the points a hand takes with
a suit as trump and a card called (:func:`~briscola.ai.chiamata.bid.estimate`), and the bars
the card-counting players bid against. A seat bids at a rank, or raises, with a chance that
rises smoothly as its best estimate there passes the bar (a logistic curve, ``tau`` card
points wide), and passes with the rest; the caller picks his trump among the four suits in
proportion to ``exp(estimate / tau)``. Every chance is mixed with a coin toss
(:data:`UNIFORM`), so a bidder who bids by other rules only blurs the weights.
"""
from __future__ import annotations

import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "py"))

from briscola.actions import (BID_POINTS, BID_RANK, CARICHI, PASS, Action,  # noqa: E402
                              action_text)
from briscola.ai.chiamata.bid import PARTNER_COEF, BidPolicy, expected_score  # noqa: E402
from briscola.ai.chiamata.common import ChState  # noqa: E402
from briscola.ai.chiamata.expert import ExpertChiamataBot  # noqa: E402
from briscola.cards import CARDS, N_RANKS, RANK_INDEX  # noqa: E402

UNIFORM = 0.05
_SUIT_BITS = (1 << N_RANKS) - 1

# The bars of the players the model assumes (the intermediate's).
_POLICY = BidPolicy()


def _sigmoid(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


class _Tables:
    """Per rank, what a card adds to the partner estimate as a trump and in a side suit, and
    what calling it adds (the called card's term), for one rules' deck; per suit pattern
    (the ranks held, as bits), the sums, filled as patterns come up."""

    def __init__(self, rules) -> None:
        t = rules.tables
        pts = t.points
        top2 = t.order[:2]
        k = PARTNER_COEF
        self.const = k[0]
        self.short = k[10]
        # What a card of each rank adds to the estimate in trump and in a side suit.
        self.trump_value = [0.0] * N_RANKS
        self.side_value = [0.0] * N_RANKS
        for r in t.order:
            i = RANK_INDEX[r]
            honour = pts[i] > 0
            self.trump_value[i] = k[1] + (k[2] if r == top2[0] else k[3] if r == top2[1] else
                                          k[4] if honour else 0.0)
            self.side_value[i] = k[5] if r == top2[0] else k[6] if r == top2[1] else \
                k[7] if honour else 0.0
        # The called card's term by rank: a top card, an honour, nothing.
        self.called = {r: (k[8] if r in top2 else k[9] if pts[RANK_INDEX[r]] > 0 else 0.0)
                       for r in t.order}
        self.order = t.order
        self.strength = t.strength
        self.deck = t.deck_ints
        self.patterns: dict = {}

    def pattern(self, p: int) -> tuple[float, float, float]:
        """What the cards of one suit (their ranks as the bits of ``p``) add to the estimate
        when the suit is a side suit and when it is trump, and its shortness (1 void, 0.5 a
        singleton)."""
        side = trump = 0.0
        n = 0
        for i in range(N_RANKS):
            if p >> i & 1:
                side += self.side_value[i]
                trump += self.trump_value[i]
                n += 1
        return side, trump, (1.0 if n == 0 else 0.5 if n == 1 else 0.0)


_TABLES: dict = {}


def _tables(rules) -> _Tables:
    got = _TABLES.get(rules)
    if got is None:
        got = _TABLES[rules] = _Tables(rules)
    return got


def suit_estimates(tab: _Tables, hand: int) -> list[float]:
    """The partner estimate of ``hand`` (a card mask) with each suit as trump, before the
    called card's term: :func:`~briscola.ai.chiamata.bid.estimate` less that term."""
    pats = tab.patterns
    side = [0.0] * 4
    trump = [0.0] * 4
    short = [0.0] * 4
    for s in range(4):
        p = hand >> (s * N_RANKS) & _SUIT_BITS
        got = pats.get(p)
        if got is None:
            got = pats[p] = tab.pattern(p)
        side[s], trump[s], short[s] = got
    all_side = side[0] + side[1] + side[2] + side[3]
    all_short = short[0] + short[1] + short[2] + short[3]
    k = tab.short
    return [tab.const + all_side - side[s] + trump[s] + k * (all_short - short[s])
            for s in range(4)]


def _bar(rules, target: int, bar: float) -> float:
    """The estimate at which a partner call for ``target`` is worth ``bar`` expected game
    points (bisection: the expected score rises with the estimate)."""
    lo, hi = -60.0, 200.0
    for _ in range(50):
        mid = (lo + hi) / 2
        if expected_score(rules, mid, target, False) < bar:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


class _Decision:
    """One auction decision of another seat: what it could have called, and what it did.

    ``kind``: 0 a bid or raise at a rank (``ranks``: the ranks it could call there), the
    chance rising with the best estimate over ``ranks``; 1 a pass with those ranks open;
    2 the call of trump ``suit`` at ``ranks`` (one rank: the rank called; points: any card).
    """

    __slots__ = ("seat", "kind", "ranks", "bar", "suit")


class AuctionEvidence:
    """Every auction decision of the seats other than me, ready to weigh sampled deals."""

    def __init__(self, st: ChState, tau: float, uniform: float = UNIFORM) -> None:
        self.st = st
        self.tau = tau
        self.uniform = uniform
        self.decisions: list[_Decision] = []
        self._calls: dict = {}
        self.tab = tab = _tables(st.rules)
        self.played_by = played = [0] * st.n
        ch = st.view.chiamata or {}
        if st.caller is None or st.carichi or st.called < 0:
            return
        rules = st.rules
        order = tab.order
        weakest = order[-1]
        by_rank = rules.auction == "rank"
        # The cards each seat has played: with its hand now, the hand it bid with.
        for o, cards, _w, _p in st.history:
            for s, c in zip(o, cards):
                played[s] |= 1 << c
        for s, c in st.trick:
            played[s] |= 1 << c
        high: int | None = None
        bars: dict = {}

        def bar_at(target: int, bar: float) -> float:
            key = (target, bar)
            if key not in bars:
                bars[key] = _bar(rules, target, bar)
            return bars[key]

        seats_in = [True] * st.n
        for bid in ch.get("bids", []):
            seat, a = bid["seat"], Action.parse(bid["bid"])
            # What was open to the seat: the ranks it could bid, or the lowest raise.
            if by_rank and (high is None or high < BID_POINTS) and not (
                    high is not None and action_text(high)[-1] == weakest):
                start = 0 if high is None else order.index(action_text(high)[-1]) + 1
                ranks = tuple(order[start:])
                target, bar = 60, _POLICY.bid_min
            else:
                n = (62 if high is None or high < BID_POINTS else high - BID_POINTS + 1) \
                    if by_rank else (61 if high is None else high - BID_POINTS + 1)
                ranks = (weakest,) if by_rank else ()
                if a >= BID_POINTS:
                    n = a - BID_POINTS
                target = n
                bar = _POLICY.raise_min if by_rank else (
                    _POLICY.bid_min if n <= 61 else _POLICY.raise_min * 0.6)
            forced = a != PASS and seats_in.count(True) == 1 and high is None
            if seat != st.me and a != CARICHI and not forced and target <= 120:
                d = _Decision()
                d.seat = seat
                d.kind = 1 if a == PASS else 0
                d.ranks = ((action_text(a)[-1],) if by_rank and BID_RANK <= a < BID_POINTS
                           else ranks)
                d.bar = bar_at(target, bar)
                d.suit = -1
                self.decisions.append(d)
            if a == PASS:
                seats_in[seat] = False
            elif a != CARICHI:
                high = a
        if st.caller != st.me:
            d = _Decision()
            d.seat = st.caller
            d.kind = 2
            d.ranks = (CARDS[st.called].rank,) if by_rank else ()
            d.bar = 0.0
            d.suit = st.called // N_RANKS
            self.decisions.append(d)

    def _open_calls(self, ranks: tuple) -> list:
        """Per suit, the calls open at ``ranks`` as (mask, term) pairs, best term first;
        the weakest rank's card, if open, is the forced call's stand-in, open even when
        held (its term: nothing). Points auction: each suit's cards, strongest first."""
        got = self._calls.get(ranks)
        if got is not None:
            return got
        tab = self.tab
        weakest = tab.order[-1]
        out = []
        for s in range(4):
            if ranks:
                pairs = sorted(((1 << (RANK_INDEX[r] + s * N_RANKS), tab.called[r])
                                for r in ranks if r != weakest), key=lambda x: -x[1])
                if weakest in ranks:
                    pairs.append((-1, 0.0))  # -1: every bit set, open whatever is held
            else:
                cards = sorted((c for c in tab.deck if c // N_RANKS == s),
                               key=lambda c: -tab.strength[c])
                pairs = [(1 << c, tab.called[CARDS[c].rank]) for c in cards]
            out.append(pairs)
        self._calls[ranks] = out
        return out

    def _values(self, ests: list[float], hand: int, ranks: tuple) -> list[float | None]:
        """Per suit, the best estimate over the calls open at ``ranks``; ``None`` where
        none is open. A call of one's own card counts as not open: a world where the caller
        called himself keeps only the coin toss's share of the call's chance (self-calls
        are rare)."""
        out = []
        free = ~hand
        for s, pairs in enumerate(self._open_calls(ranks)):
            v = None
            for bit, term in pairs:
                if bit & free:
                    v = ests[s] + term
                    break
            out.append(v)
        return out

    def weight(self, hands: list[int]) -> float:
        """How likely the auction is in the deal ``hands`` (a product of chances)."""
        u = self.uniform
        tau = self.tau
        w = 1.0
        seat_ests: dict = {}
        vals: dict = {}
        for d in self.decisions:
            seat = d.seat
            hand = hands[seat] | self.played_by[seat]
            ests = seat_ests.get(seat)
            if ests is None:
                ests = seat_ests[seat] = suit_estimates(self.tab, hand)
            key = (seat, d.ranks)
            vs = vals.get(key)
            if vs is None:
                vs = vals[key] = self._values(ests, hand, d.ranks)
            if d.kind == 2:
                mine = vs[d.suit]
                if mine is None:
                    p = 0.0
                else:
                    top = max(v for v in vs if v is not None)
                    tot = sum(math.exp((v - top) / tau) for v in vs if v is not None)
                    p = math.exp((mine - top) / tau) / tot
                w *= (1.0 - u) * p + u * 0.25
                continue
            best = max((v for v in vs if v is not None), default=None)
            p = 0.0 if best is None else _sigmoid((best - d.bar) / tau)
            w *= (1.0 - u) * (p if d.kind == 0 else 1.0 - p) + u * 0.5
        return w


class AuctionExpert(ExpertChiamataBot):
    """The expert with its worlds weighed by the auction too: ``auction`` is ``tau``."""

    def __init__(self, seed=None, auction: float = 1.0, **kw) -> None:
        super().__init__(seed=seed, **kw)
        self.auction = auction

    def _evidence(self, st: ChState) -> list:
        """The plays' weights and, where the auction says anything, the auction's."""
        au = AuctionEvidence(st, self.auction)
        return super()._evidence(st) + ([au.weight] if au.decisions else [])
