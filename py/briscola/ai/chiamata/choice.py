"""How likely the other seats' past plays are in one sampled deal: weights for the expert's
worlds in Briscola Chiamata.

A seat that threw a king onto a trick it could not win probably had nothing cheaper; a
partner who did not load the caller's trick probably had no ace or three to load. With no
talon, the hand a seat held when it played is known exactly in a sampled world: the cards
it holds now plus those it has played since. So each past play can be scored by a model of
how players choose a card (:data:`CHOICE_WEIGHTS`), and worlds where the plays look likely
get more weight.

The model is a conditional logit: each card a seat could have played gets a score from its
kind (:func:`~briscola.ai.chiamata.common.play_kind`: lead or follow, whether the caller
has played to the trick and is winning it, whether the card takes, its points and whether a
trump), the seat's part in that world (caller, partner, opponent), whether it is the
called card, and its strength within the kind; the chance of the card played is its
share of the softmax, mixed with a uniform choice (:data:`UNIFORM`) so that a player who
plays differently only blurs the weights. Fitted by ``bench/chiamata.py fit-choice`` on
deals the intermediate players played out, one table for each auction.
"""
from __future__ import annotations

import math

from ...cards import N_RANKS
from .common import N_KINDS, ChState, SUIT_MASKS, play_kind

ROLES = 3  # caller, partner, opponent
_KINDS0 = 0
_CALLED0 = ROLES * N_KINDS
_STRENGTH0 = _CALLED0 + ROLES
_POINTS0 = _STRENGTH0 + ROLES * 6
N_CHOICE = _POINTS0 + ROLES * 6
UNIFORM = 0.1

# Fitted by ``bench/chiamata.py fit-choice --deals 2000`` (see :func:`candidate_features`
# for the order): 69,996 choices of each auction; log-likelihood a choice -0.993 by rank and
# -1.122 by points, where a uniform choice scores -1.515.
CHOICE_WEIGHTS: dict[str, tuple[float, ...]] = {}
CHOICE_WEIGHTS['rank'] = (
    1.746, 0.761, 0.79, -1.378, 2.533, -4.452, 1.531, -1.941, 1.666,
    -2.237, 0.756, -1.596, 3.369, -0.036, 2.715, -1.331, 1.851, -4.746,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0.398, -0.624, -0.661, -0.326, 0.221, 0.991, 3.028, -0.533, 0.79,
    0.617, -6.263, -0.04, 2.026, -0.52, 0.82, -0.552, -0.017, 0.645,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 3.269, -4.078, -2.742, -7.044, -16.578, -0.331,
    6.331, 3.152, 4.887, 3.485, 4.554, 5.095, 1.803, -3.351, 2.645,
    -2.073, -2.303, -0.092, 1.692, -1.29, 0.609, -0.337, 1.634, 1.061,
    2.484, -0.311, 1.856, -0.683, -3.74, 0.394, 3.126, -0.835, 3.424,
    -1.777, -1.552, -0.012, 2.062, -0.396, 0.128, -0.462, -2.896, -0.811,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 2.124, -0.925, 2.797, -2.843, -1.442, -0.05,
    1.622, -0.53, 2.045, -0.816, 0.623, -2.605, 3.346, -1.618, 0.698,
    -2.336, -5.713, -0.233, 2.315, 0.052, 2.391, -0.154, 1.162, 0.09,
    0, -1.248, 0, 1.533, 2.282, -2.036, -0.551, -5.373, -5.404,
    1.378, 3.983, -2.256, 2, -7.504, -4.608, -2.54, 4.82, -2.152,
    1.266, -8.384, -6.328, -5.433, 8.455, 0.565, 10.23, 1.322, -2.157,
    -2.032, -2.077, 1.576, 0.332, 12.325, -2.969, 5.088, 0.151, 4.668,
    3.831, 10.443, -2.434,
)
CHOICE_WEIGHTS['points'] = (
    1.761, 0.789, 0.469, -0.967, 0.102, -2.153, 1.413, -0.438, 1.689,
    -1.754, 0.611, -1.211, 1.109, 0.513, 0.408, -0.372, 0.363, -2.332,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    1.285, 0.402, 0.027, -0.626, 0.559, -1.647, 2.814, -0.084, 1.512,
    -0.159, -4.345, 0, 0.71, 0.104, 0.078, -1.041, 0.326, 0.084,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 2.358, -3.918, -3.421, -0.616, -16.334, 0,
    4.119, 3.168, 4.493, 3.28, 4.671, 2.2, 2.153, -3.126, 3.131,
    -2.46, -1.253, -0.365, 0.065, 0.621, -0.244, 0.469, 1.116, -0.107,
    1.31, -1.091, 0.611, -0.779, -3.345, 3.293, 2.724, -1.258, 2.917,
    -0.016, -0.921, -0.028, 2.081, -1.147, 0.398, -1.129, -3.008, -0.614,
    0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 2.96, -1.068, 2.472, -1.843, -1.416, -0.116,
    1.779, -0.985, 2.13, -1.285, 0.172, -2.802, 3.451, -1.494, 1.655,
    -2.753, -3.288, 0, 2.153, -0.62, 1.605, -0.314, -1.633, 1.239,
    0, -0.925, 0, 1.279, 2.681, 0.957, 0.453, -3.68, -4.815,
    1.363, 2.902, 0.319, 0.843, -7.056, -8.188, -2.736, 3.398, -4.688,
    1.332, -8.431, -5.256, -2.353, 5.101, -0.482, 7.702, 2.438, -1.537,
    -1.191, 3.334, -0.839, 2.096, 10.758, -1.225, 4.448, -1.1, 6.835,
    3.026, 8.961, -1.939,
)


def candidate_features(st: ChState, role: int, lead: bool, caller_before: bool,
                       caller_winning: bool, best: int, x: int) -> list[tuple[int, float]]:
    """The (index, value) pairs of card ``x`` played by a seat of ``role``: its kind, its
    strength and its points within the kind's context (a lead, a card that takes, one that
    does not; a trump or not), and whether it is the called card."""
    takes = best < 0 or bool(st.beats[(best << 6) | x])
    trump = st.trump is not None and x // N_RANKS == st.trump
    pts = st.pts[x]
    k = play_kind(lead, caller_before, caller_winning, takes, pts, trump)
    ctx = role * 6 + (0 if lead else (2 if takes else 4)) + int(trump)
    out = [(_KINDS0 + role * N_KINDS + k, 1.0), (_STRENGTH0 + ctx, st.strength[x] / 10.0),
           (_POINTS0 + ctx, pts / 10.0)]
    if x == st.called:
        out.append((_CALLED0 + role, 1.0))
    return out


class _Record:
    __slots__ = ("seat", "card", "later", "follow", "ez")


class PlayEvidence:
    """Every play so far by the seats other than me, ready to weigh sampled deals."""

    def __init__(self, st: ChState, weights: tuple[float, ...], uniform: float = UNIFORM) -> None:
        self.st = st
        self.uniform = uniform
        self.records: list[_Record] = []
        if st.caller is None:
            return
        me, caller, called = st.me, st.caller, st.called
        plays = []  # (seat, card, lead, caller_before, caller_winning, best, led suit)
        later = [0] * st.n
        tricks = [(o, cards) for o, cards, _w, _p in st.history]
        tricks.append((st.order, st.trick_cards))
        for order, cards in tricks:
            best, owner = -1, -1
            caller_before = False
            for s, c in zip(order, cards):
                plays.append((s, c, best < 0, caller_before, owner == caller, best,
                              cards[0] // N_RANKS))
                if s == caller:
                    caller_before = True
                if best < 0 or st.beats[(best << 6) | c]:
                    best, owner = c, s
        # Each seat's cards played after a given play: walk backwards.
        maybe = st.unseen_mask | st.played  # cards any other seat could have held
        for s, c, lead, cb, cw, best, led in reversed(plays):
            if s != me:
                r = _Record()
                r.seat = s
                r.card = c
                r.later = later[s] | (1 << c)
                r.follow = SUIT_MASKS[led] if st.carichi and not lead else 0
                r.ez = _exp_scores(st, weights, lead, cb, cw, best, maybe)
                self.records.append(r)
            later[s] |= 1 << c
        self.caller = caller
        self.called = called

    def role(self, s: int, hands: list[int]) -> int:
        if s == self.caller:
            return 0
        st = self.st
        if st.carichi or self.called < 0:
            return 2
        if hands[s] >> self.called & 1 or (st.partner == s):
            return 1
        return 2

    def weight(self, hands: list[int]) -> float:
        """How likely the plays so far are in the deal ``hands`` (a product of chances)."""
        u = self.uniform
        w = 1.0
        roles = [self.role(s, hands) for s in range(len(hands))]
        for r in self.records:
            h = hands[r.seat] | r.later
            if r.follow and h & r.follow:
                h &= r.follow
            ez = r.ez[roles[r.seat]]
            tot = 0.0
            n = 0
            m = h
            while m:
                low = m & -m
                tot += ez[low.bit_length() - 1]
                n += 1
                m ^= low
            w *= (1.0 - u) * ez[r.card] / tot + u / n
        return w


def _exp_scores(st: ChState, weights, lead: bool, caller_before: bool,
                caller_winning: bool, best: int, maybe: int) -> list[list[float]]:
    """exp(score) of every card in ``maybe`` for each role, at one past play."""
    rows = [[0.0] * 64 for _ in range(ROLES)]
    for x in _bits(maybe):
        for role in range(ROLES):
            z = 0.0
            for i, v in candidate_features(st, role, lead, caller_before, caller_winning,
                                           best, x):
                z += weights[i] * v
            rows[role][x] = math.exp(max(-30.0, min(30.0, z)))
    return rows


def _bits(m: int) -> list[int]:
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out
