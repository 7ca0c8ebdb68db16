"""Card play by rule of thumb in Briscola Chiamata: sides as probabilities.

Each card in hand is scored by the points the trick is expected to bring to my side, minus
what the card is worth kept for later. "My side" is uncertain until the called card falls,
so every other seat is on my side only with the probability the belief of
:class:`~briscola.ai.chiamata.common.ChState` gives it: the caller does not beat a seat that
is probably his partner, an opponent loads points onto a trick that another probable
opponent is winning, and nobody feeds a trick the other side is likely to keep.

The partner hides while hiding pays: playing the called card early shows everyone who he
is, so it needs a good trick to be worth it. The caller's side draws trumps when it holds
most of them; the opponents lead cards worth nothing and keep their trumps for the tricks
with points on them.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...cards import N_RANKS
from ..base import why
from .common import ChState, popcount

if TYPE_CHECKING:  # for the annotations only
    import random


def keep_value(st: ChState, c: int) -> float:
    """What ``c`` is worth kept for the later tricks (its own points aside)."""
    left = st.sizes[st.me] - 1  # tricks after this one
    if left <= 0:
        return 0.0
    scale = min(1.0, left / 4.0)
    pts = st.pts
    if st.is_trump(c):
        assert st.trump is not None  # a trump card: there is a trump suit
        higher = 0
        strength = st.strength
        for x in _suit_cards(st, st.trump):
            if st.unseen_mask >> x & 1 and strength[x] > strength[c]:
                higher += 1
        if higher == 0:
            v = 9.0
        elif higher == 1:
            v = 6.5
        elif higher == 2:
            v = 5.0
        else:
            v = max(2.0, 4.0 - 0.3 * higher)
        return (v + 0.15 * pts[c]) * scale
    if pts[c] >= 10:
        # A side ace or three: a winner when its suit is led and trumps are out, a risk too.
        return 1.0 * scale
    return 0.0


_SUIT_CACHE: dict = {}


def _suit_cards(st: ChState, suit: int) -> list[int]:
    key = (st.rules, suit)
    got = _SUIT_CACHE.get(key)
    if got is None:
        got = _SUIT_CACHE[key] = [c for c in st.t.deck_ints if c // N_RANKS == suit]
    return got


def trick_value(st: ChState, c: int, beat_cache: dict | None = None) -> tuple[float, float]:
    """Expected point swing of the trick for my side after I play ``c``; and P(my side wins)."""
    pts = st.pts
    q = st.q
    if st.would_win(c):
        best, owner = c, st.me
    else:
        best, owner = st.best, st.best_seat
    total = st.table_pts + pts[c]
    m = q[owner]
    add = 0.0
    if beat_cache is None:
        beat_cache = {}
    mask = beat_cache.get(best)
    if mask is None:
        mask = beat_cache[best] = st.beaters(best)
    last = len(st.after) - 1
    for i, r in enumerate(st.after):
        f = m * q[r] + (1.0 - m) * (1.0 - q[r])  # r is on the side now winning
        hb = st.p_holds_any(r, mask) if mask else 0.0
        want = 1.0 if total + add >= 3 or i == last else 0.6
        p_beat = (1.0 - f) * hb * want
        m = m * (1.0 - p_beat) + p_beat * q[r]
        # A friend of the winner throws on points, an enemy its cheapest card.
        add += f * 3.5 + (1.0 - f) * 0.8
    return (2.0 * m - 1.0) * (total + add), m


def score_card(st: ChState, c: int, beat_cache: dict | None = None) -> float:
    swing, m = trick_value(st, c, beat_cache)
    v = swing - keep_value(st, c)
    pts = st.pts
    left = st.sizes[st.me] - 1
    if st.called >= 0 and c == st.called and st.partner == st.me and st.me != st.caller \
            and not st.revealed:
        # The hidden partner shows himself by playing the called card: worth it only for
        # a trick that pays, and less costly late in the deal.
        v -= 1.0 * left
    if st.pos == 0 and st.is_trump(c) and st.on_caller_side and not st.carichi:
        # Draw the opponents' trumps while the caller's side holds most of them.
        mine = sum(1 for x in st.hand if st.is_trump(x))
        out = popcount(st.unseen_mask & _trump_mask(st))
        if mine >= 3 and mine >= out / 2:
            v += 1.5 + 0.5 * (mine - 3)
    if st.pos == 0 and not st.is_trump(c) and pts[c] >= 10 and not st.carichi:
        # A side ace or three led is caught by any trump still out.
        v -= 2.0 if popcount(st.unseen_mask & _trump_mask(st)) else 0.0
    return v


def _trump_mask(st: ChState) -> int:
    if st.trump is None:
        return 0
    m = 0
    for x in _suit_cards(st, st.trump):
        m |= 1 << x
    return m


def scores(st: ChState, plays: list[int]) -> dict[int, float]:
    cache: dict = {}
    return {c: score_card(st, c, cache) - 0.001 * st.strength[c] for c in plays}


def pick(st: ChState, plays: list[int]) -> int:
    sc = scores(st, plays)
    return max(plays, key=lambda c: (sc[c], -c))


def reason(st: ChState, c: int) -> dict:
    """What the play of ``c`` does, as a reason (``{code, params}``)."""
    pts = st.pts[c]
    total = st.table_pts + pts
    if st.called >= 0 and c == st.called and st.me != st.caller:
        return why("bot_called_card", card=c)
    if st.pos == 0:
        if st.is_trump(c):
            return why("bot_lead_trump", card=c)
        if pts == 0:
            return why("bot_lead_worthless", card=c)
        return why("bot_lead", card=c)
    wins = st.would_win(c)
    friend = st.q[st.best_seat] >= 0.5
    if wins and not friend:
        if total:
            return why("bot_take_points", card=c, points=total)
        return why("bot_take", card=c)
    if wins:
        return why("bot_over_friend", card=c)
    if friend and pts > 0:
        code = "bot_load_caller" if st.best_seat == st.caller else "bot_load_friend"
        return why(code, card=c, points=pts)
    if pts == 0:
        return why("bot_give_up_worthless", card=c)
    return why("bot_give_up_cheapest", card=c)


def pick_beginner(st: ChState, plays: list[int], rng: random.Random) -> tuple[int, dict]:
    """Knows the rules, not the tactics: grabs tricks, wastes trumps, ignores the partner."""
    pts = st.pts
    if rng.random() < 0.2:
        c = rng.choice(plays)
        return c, why("bot_careless", card=c)
    if st.pos == 0:
        c = min(plays, key=lambda x: (pts[x], st.strength[x], rng.random()))
        if rng.random() < 0.3:
            c = rng.choice(plays)
        return c, why("bot_lead", card=c)
    mine = st.best_seat == st.caller and st.on_caller_side and st.me != st.caller
    winners = [c for c in plays if st.would_win(c)]
    if winners and not mine:
        c = max(winners, key=lambda x: (pts[x], st.strength[x]))
        total = st.table_pts + pts[c]
        return c, (why("bot_take_points", card=c, points=total) if total
                   else why("bot_take", card=c))
    plain = [c for c in plays if not st.is_trump(c)] or plays
    c = rng.choice(plain)
    return c, why("bot_play", card=c)
