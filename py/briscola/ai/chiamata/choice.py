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
deals the intermediate players played out, one table for each auction. The expert's
``inference`` weighs its worlds with it (docs/players.md).
"""
from __future__ import annotations

import math
from typing import Callable, Protocol, Sequence

from ...cards import N_RANKS
from ..alphabeta import trick_so_far
from .choice_weights import WEIGHTS
from .common import N_KINDS, ChState, SUIT_MASKS, play_kind


class _Tables(Protocol):
    """What :func:`reply_values` reads of the deal's solver (:class:`ChSolver` of
    :mod:`briscola.ai.chiamata.expert`, which imports this module)."""

    pts: list[int]
    beats: list[bool]
    follow: bool


ROLES = 3  # caller, partner, opponent
_KINDS0 = 0
_CALLED0 = ROLES * N_KINDS
_STRENGTH0 = _CALLED0 + ROLES
_POINTS0 = _STRENGTH0 + ROLES * 6
N_CHOICE = _POINTS0 + ROLES * 6
UNIFORM = 0.1

# The fitted model of each auction (see :func:`candidate_features` for the order), as
# ``bench/chiamata.py fit-choice`` fitted it (:mod:`.choice_weights`).
CHOICE_WEIGHTS: dict[str, tuple[float, ...]] = WEIGHTS


def _card_terms(st: ChState, lead: bool, caller_before: bool, caller_winning: bool,
                best: int, x: int) -> tuple[int, int, float, float, bool]:
    """What of card ``x`` the model scores, whoever plays it: its kind, its context (0 a
    lead, 2 a card that takes, 4 one that does not; plus 1 for a trump), its strength and
    points scaled to about 1, and whether it is the called card."""
    takes = best < 0 or bool(st.beats[(best << 6) | x])
    trump = st.trump is not None and x // N_RANKS == st.trump
    pts = st.pts[x]
    k = play_kind(lead, caller_before, caller_winning, takes, pts, trump)
    ctx = (0 if lead else (2 if takes else 4)) + int(trump)
    return k, ctx, st.strength[x] / 10.0, pts / 10.0, x == st.called


def _role_features(terms: tuple[int, int, float, float, bool],
                   role: int) -> list[tuple[int, float]]:
    k, ctx, strength, points, called = terms
    ctx += role * 6
    out = [(_KINDS0 + role * N_KINDS + k, 1.0), (_STRENGTH0 + ctx, strength),
           (_POINTS0 + ctx, points)]
    if called:
        out.append((_CALLED0 + role, 1.0))
    return out


def candidate_features(st: ChState, role: int, lead: bool, caller_before: bool,
                       caller_winning: bool, best: int, x: int) -> list[tuple[int, float]]:
    """The (index, value) pairs of card ``x`` played by a seat of ``role``: its kind, its
    strength and its points within the kind's context (a lead, a card that takes, one that
    does not; a trump or not), and whether it is the called card."""
    return _role_features(_card_terms(st, lead, caller_before, caller_winning, best, x), role)


class _Record:
    __slots__ = ("seat", "card", "later", "follow", "ez")

    seat: int
    card: int
    later: int
    follow: int
    ez: list[list[float]]


class PlayEvidence:
    """Every play so far by the seats other than me, ready to weigh sampled deals."""

    def __init__(self, st: ChState, weights: tuple[float, ...], uniform: float = UNIFORM) -> None:
        self.st = st
        self.uniform = uniform
        self.records: list[_Record] = []
        self.caller = caller = st.caller
        self.called = called = st.called
        if caller is None:
            return
        me = st.me
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
        for s, c, lead, cb, cw, best, led in reversed(plays):
            if s != me:
                r = _Record()
                r.seat = s
                r.card = c
                r.later = later[s] | (1 << c)
                r.follow = SUIT_MASKS[led] if st.carichi and not lead else 0
                r.ez = _exp_scores(st, weights, lead, cb, cw, best)
                self.records.append(r)
            later[s] |= 1 << c

    def role(self, s: int, hands: list[int]) -> int:
        """Seat ``s``'s part in the deal ``hands``: 0 the caller, 1 his partner (who holds or
        played the called card), 2 an opponent."""
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


# exp(score) rows already computed: they depend only on the arguments of _exp_scores, so
# each deal's past plays are scored once, not again at every later decision.
_EXP_ROWS: dict[tuple, tuple[Sequence[float], list[list[float]]]] = {}


def _exp_scores(st: ChState, weights: Sequence[float], lead: bool, caller_before: bool,
                caller_winning: bool, best: int) -> list[list[float]]:
    """exp(score) of every card of the deck for each role, at one past play (the rows are
    shared: never modified)."""
    key = (st.rules, st.trump, st.called, id(weights), lead, caller_before, caller_winning,
           best)
    got = _EXP_ROWS.get(key)
    if got is not None and got[0] is weights:
        return got[1]
    if len(_EXP_ROWS) > 20000:
        _EXP_ROWS.clear()
    rows = [[0.0] * 64 for _ in range(ROLES)]
    for x in st.t.deck_ints:
        terms = _card_terms(st, lead, caller_before, caller_winning, best, x)
        for role in range(ROLES):
            z = 0.0
            for i, v in _role_features(terms, role):
                z += weights[i] * v
            rows[role][x] = math.exp(max(-30.0, min(30.0, z)))
    _EXP_ROWS[key] = (weights, rows)
    return rows


# Replies the model gives less than this share are left out of :func:`reply_values`.
REPLY_FLOOR = 0.05


def reply_values(st: ChState, weights: Sequence[float], solver: _Tables, hands: list[int],
                 trick: list[int], order: Sequence[int], maxside: Sequence[bool],
                 moves: Sequence[int], evaluate: Callable[[list[int], int], int],
                 floor: float = REPLY_FLOOR, beta: float = 1.0) -> tuple[dict, int]:
    """The points the caller's side takes from now on after each of ``moves`` in one sampled
    world, the seats after me in the current trick choosing as the model says players do in
    their parts of that world (the expectation over their replies, each under ``floor`` left
    out; ``beta``: the scores' exponent, above 1 sharper), the next trick's start valued by
    ``evaluate``. A perfect-information search would have every seat play as if it saw the
    world; players see only their hands. Also returns how many replies it weighed.
    ``solver``: the :class:`~briscola.ai.chiamata.expert.ChSolver` of the deal (its tables)."""
    pts, beats, follow = solver.pts, solver.beats, solver.follow
    caller = st.caller
    n = len(hands)
    roles = [0 if s == caller else (1 if maxside[s] else 2) for s in range(n)]
    hands = list(hands)
    pos = len(trick)
    me = order[pos]
    count = [0]

    def rest(p: int, b: int, bs: int, tp: int, cb: bool, ls: int) -> float:
        if p == n:
            v = tp if maxside[bs] else 0
            return v + evaluate(hands, bs) if hands[bs] else v
        count[0] += 1
        s = order[p]
        h = hands[s]
        legal = h
        if follow and h & SUIT_MASKS[ls]:
            legal = h & SUIT_MASKS[ls]
        ez = _exp_scores(st, weights, False, cb, bs == caller, b)[roles[s]]
        picks = []
        tot = 0.0
        while legal:
            low = legal & -legal
            x = low.bit_length() - 1
            w = ez[x] if beta == 1.0 else ez[x] ** beta
            picks.append((w, -x))
            tot += w
            legal ^= low
        keep = [(w, x) for w, x in picks if w >= floor * tot] or [max(picks)]
        z = sum(w for w, _x in keep)
        cb = cb or s == caller
        val = 0.0
        for w, x in keep:
            x = -x
            hands[s] = h ^ (1 << x)
            if beats[(b << 6) | x]:
                val += w * rest(p + 1, x, s, tp + pts[x], cb, ls)
            else:
                val += w * rest(p + 1, b, bs, tp + pts[x], cb, ls)
        hands[s] = h
        return val / z

    b, bs, tp = trick_so_far(trick, order, pts, beats)
    cb = caller in order[:pos] or me == caller
    out = {}
    h = hands[me]
    for c in moves:
        hands[me] = h ^ (1 << c)
        ls = (trick[0] if trick else c) // N_RANKS
        if b < 0 or beats[(b << 6) | c]:
            out[c] = rest(pos + 1, c, me, tp + pts[c], cb, ls)
        else:
            out[c] = rest(pos + 1, b, bs, tp + pts[c], cb, ls)
    hands[me] = h
    return out, count[0]
