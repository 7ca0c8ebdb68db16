"""Fast play-outs of a sampled world with the card-counting heuristic, on bit masks.

The expert uses these in the middle of a deal, where exact search would pretend to know
the future draws: for each candidate card and each sampled world, the rest of the deal is
played by every seat with the same rules of thumb as the intermediate player (each seat
sees only its own hand and the cards played, never the world's hidden cards), and the
candidate with the best mean result is chosen. The same worlds are used for every
candidate, so the comparison is far less noisy than the results themselves.

:class:`FastPolicy` mirrors :func:`briscola.ai.heuristic.score_card` without building a
view: per seat, the unknown pool is every card not played, not in its own hand, and not
the face-up trump still lying under the talon.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from ..cards import N_RANKS
from .alphabeta import trick_so_far
from .heuristic import PARAMS, trump_keep

if TYPE_CHECKING:  # for the annotations only
    from ..rules import Rules


def _popcount(m: int) -> int:
    return bin(m).count("1")


class FastPolicy:
    """The intermediate player's scoring on a world state (see the module docstring)."""

    def __init__(self, rules: Rules, trump: int | None, params: dict | None = None) -> None:
        t = rules.tables
        P = dict(PARAMS, **(params or {}))
        self.P = P
        self.rules = rules
        self.n = rules.players
        self.pts = t.points
        self.strength = t.strength
        self.beats = beats = t.beats(trump)
        self.side_of = t.side_of
        self.orders = t.orders
        self.rot = t.rot
        self.per_round = t.per_round
        deck = t.deck_ints
        self.deck_mask = t.deck_mask
        # Cards that beat c when c is the best card of the trick.
        self.beat_mask = [0] * 64
        for c in deck:
            m = 0
            for x in deck:
                if beats[(c << 6) | x]:
                    m |= 1 << x
            self.beat_mask[c] = m
        self.is_trump = [False] * 64
        self.higher_trumps = [0] * 64
        self.keep = [0.0] * 64
        n_order = len(t.order)
        for c in deck:
            if trump is not None and c // N_RANKS == trump:
                self.is_trump[c] = True
                m = 0
                for x in deck:
                    if x // N_RANKS == trump and t.strength[x] > t.strength[c]:
                        m |= 1 << x
                self.higher_trumps[c] = m
                self.keep[c] = trump_keep(n_order - t.strength[c], t.points[c], P)
            elif t.points[c] >= 10:
                self.keep[c] = P["loaded"]

    def choose(self, hands: list[int], live: int, faceup_hidden: int, order: Sequence[int],
               pos: int, b: int, bs: int, tp: int, tn: int) -> int:
        """The card the seat ``order[pos]`` plays. ``live``: cards not yet played (hands,
        talon); ``faceup_hidden``: bit of the face-up card if it still lies under the talon."""
        seat = order[pos]
        h = hands[seat]
        if not h & (h - 1):
            return h.bit_length() - 1
        sizes = [_popcount(x) for x in hands]
        best_c, best_v = -1, -1e9
        for c, v in self.scores(seat, h, sizes, live, faceup_hidden, order, pos, b, bs, tp,
                                tn):
            if v > best_v:
                best_c, best_v = c, v
        return best_c

    def scores(self, seat: int, h: int, sizes: list[int], live: int, faceup_hidden: int,
               order: Sequence[int], pos: int, b: int, bs: int, tp: int, tn: int
              ) -> list[tuple[int, float]]:
        """The heuristic's score of each card of ``h`` for ``seat`` (``sizes``: hand sizes)."""
        P = self.P
        pts = self.pts
        beats = self.beats
        side_of = self.side_of
        my_side = side_of[seat]
        after = [s for s in order[pos + 1:] if s != seat]
        pool_mask = live & ~h & ~faceup_hidden
        pool = _popcount(pool_mask)
        n = self.n
        if tn == 0:
            scale = min(1.0, sum(sizes) / (2.0 * n))
        else:
            scale = 1.0
        add = P["add"] * len(after) * 0.5
        partner_w = P["partner"]
        master = P["master"]
        out = []
        m = h
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            total = tp + pts[c]
            if b < 0 or beats[(b << 6) | c]:
                nb, mine = c, 1.0
            else:
                nb, mine = b, (1.0 if side_of[bs] == my_side else 0.0)
            if after:
                k = _popcount(self.beat_mask[nb] & pool_mask)
                for s in after:
                    u = sizes[s]
                    if k == 0 or u == 0 or pool == 0:
                        p = 0.0
                    else:
                        p_none = 1.0
                        for i in range(u):
                            if pool - i <= 0:
                                break
                            p_none *= max(pool - k - i, 0) / (pool - i)
                        p = 1.0 - p_none
                    if side_of[s] == my_side:
                        mine += (1.0 - mine) * p * partner_w
                    else:
                        mine *= 1.0 - p
            v = total * (2.0 * mine - 1.0)
            if after:
                v += add * (2.0 * mine - 1.0)
            keep = self.keep[c]
            if keep:
                if self.is_trump[c] and not self.higher_trumps[c] & live & ~h:
                    keep += master
                v -= keep * scale
            v -= 0.001 * self.strength[c]
            out.append((c, v))
        return out

    def playout(self, hands: list[int], talon: list[int], order: Sequence[int], trick: list[int],
                first: int, maxside: list[bool]) -> int:
        """Points the maximizing side takes from now on, playing ``first`` now, then the
        heuristic for every seat. ``hands`` is changed in place: pass a copy."""
        pts = self.pts
        beats = self.beats
        orders = self.orders
        rot = self.rot
        per_round = self.per_round
        tn = len(talon)
        live = 0
        for x in hands:
            live |= x
        for c in talon:
            live |= 1 << c
        faceup_hidden = (1 << talon[0]) if tn else 0
        b, bs, tp = trick_so_far(trick, order, pts, beats)
        pos = len(trick)
        gained = 0
        c = first
        while True:
            seat = order[pos]
            hands[seat] ^= 1 << c
            live ^= 1 << c
            tp += pts[c]
            if b < 0 or beats[(b << 6) | c]:
                b, bs = c, seat
            pos += 1
            if pos == len(order):
                if maxside[bs]:
                    gained += tp
                if tn:
                    seq = orders[bs] if tn >= per_round else rot[bs][:tn]
                    for s in seq:
                        tn -= 1
                        hands[s] |= 1 << talon[tn]
                    if not tn:
                        faceup_hidden = 0
                    order = seq
                else:
                    order = orders[bs]
                    if not hands[bs]:
                        return gained
                pos, b, bs, tp = 0, -1, -1, 0
            c = self.choose(hands, live, faceup_hidden, order, pos, b, bs, tp, tn)
