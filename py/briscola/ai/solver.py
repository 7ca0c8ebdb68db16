"""Exact search of a Briscola position where every card's place is known.

A position is: one bit mask of cards per seat, the talon as a list (the last item is drawn
next, the first is the face-up card), the cards already in the current trick, and the order
of the seats in that trick. The search is alpha-beta on the points the maximizing side takes
from here to the end of the deal (maximizing them is the same as maximizing the point
difference, since the points still out are fixed). Seats on the maximizing side maximize,
every other seat minimizes: teams cooperate, and with several players each alone the search
is "paranoid" (all the others against one), which keeps it a two-sided game.

Drawing follows the engine: the trick's winner draws first, then the others in playing
order; in double Briskula everyone draws twice; in Bosnian Briskula a talon that runs out in
the middle of a round is drawn only by the first seats, and only those play the next trick.

No copies: hands are ints in one list, changed and restored in place. Cards of the same
suit and the same points with no live card between them in strength are interchangeable,
so only one of them is searched. A transposition table keeps the bounds found for positions
at the start of a trick.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

from .alphabeta import SearchAborted, make_distinct, stronger_in_suit, trick_so_far
from .common import bits

if TYPE_CHECKING:  # for the annotations only
    from ..rules import Rules

__all__ = ["SearchAborted", "Solver"]


class Solver:
    """Alpha-beta over perfect-information positions for one rules value and trump suit."""

    def __init__(self, rules: Rules, trump: int | None) -> None:
        t = rules.tables
        self.rules = rules
        self.pts = t.points
        self.strength = t.strength
        self.beats = t.beats(trump)
        self.orders = t.orders
        self.rot = t.rot
        self.per_round = t.per_round
        self.n = rules.players
        self.up_list, self.above = stronger_in_suit(t)
        self.nodes = 0

    # ------------------------------------------------------------------------------------
    def values(self, hands: list[int], talon: list[int], trick: list[int], order: Sequence[int],
               maxside: Sequence[bool], moves: Sequence[int] | None = None,
               node_limit: int = 10**9, exact: bool = True) -> dict[int, int]:
        """Points the maximizing side takes from now on, after each move of the seat to play.

        ``hands``: mask per seat (not changed on return); ``talon``: list, last drawn next;
        ``trick``: cards already played in the trick, by ``order[0..]``; ``maxside``: per
        seat, True for the maximizing side. ``moves``: the cards to evaluate (default the
        whole hand). Raises :class:`SearchAborted` past ``node_limit`` nodes.
        With ``exact`` False the values of moves other than the best are only upper bounds.
        """
        hands = list(hands)
        pts = self.pts
        beats = self.beats
        orders = self.orders
        rot = self.rot
        per_round = self.per_round
        above = self.above
        up_list = self.up_list
        tt: dict[tuple[tuple[int, ...], int, Sequence[int]], tuple[int, int]] = {}
        limit = node_limit
        count = [0]
        tmask = [0]
        for c in talon:
            tmask.append(tmask[-1] | (1 << c))

        distinct = make_distinct(pts, up_list, above)

        def trick_start(w: int, tn: int, alpha: int, beta: int) -> int:
            """Value of the position after seat ``w`` took a trick with ``tn`` cards left in
            the talon: the hands draw, then the next trick starts (memoized with bounds)."""
            if tn:
                order = orders[w] if tn >= per_round else rot[w][:tn]
                k = tn
                for s in order:
                    k -= 1
                    hands[s] |= 1 << talon[k]
            else:
                order = orders[w]
                k = 0
            if not k and not hands[order[0]] & (hands[order[0]] - 1):
                # The last trick: one card each, nothing to choose (or the deal is over).
                b = hands[order[0]].bit_length() - 1
                if b < 0:
                    return 0
                bs = order[0]
                tp = pts[b]
                for s in order[1:]:
                    c = hands[s].bit_length() - 1
                    tp += pts[c]
                    if beats[(b << 6) | c]:
                        b, bs = c, s
                v = tp if maxside[bs] else 0
            else:
                key = (tuple(hands), k, order)
                hit = tt.get(key)
                if hit is None:
                    v = play(order, 0, -1, -1, 0, k, alpha, beta)
                    tt[key] = (-1, v) if v <= alpha else (v, 10**6) if v >= beta else (v, v)
                else:
                    lo, hi = hit
                    if lo >= beta:
                        v = lo
                    elif hi <= alpha:
                        v = hi
                    elif lo == hi:
                        v = lo
                    else:
                        if lo > alpha:
                            alpha = lo
                        if hi < beta:
                            beta = hi
                        v = play(order, 0, -1, -1, 0, k, alpha, beta)
                        if v <= alpha:
                            hi = min(hi, v)
                        elif v >= beta:
                            lo = max(lo, v)
                        else:
                            lo = hi = v
                        tt[key] = (lo, hi)
            if tn:
                k = tn
                for s in order:
                    k -= 1
                    hands[s] ^= 1 << talon[k]
            return v

        def move(order: Sequence[int], pos: int, seat: int, h: int, c: int, b: int, bs: int, tp: int,
                 tn: int, alpha: int, beta: int) -> int:
            """Value after ``seat`` (holding ``h``) plays ``c``: the rest of the trick, then
            the rest of the deal."""
            hands[seat] = h ^ (1 << c)
            if b < 0 or beats[(b << 6) | c]:
                b, bs = c, seat
            tp += pts[c]
            if pos < len(order) - 1:
                v = play(order, pos + 1, b, bs, tp, tn, alpha, beta)
            else:
                v = tp if maxside[bs] else 0
                v += trick_start(bs, tn, alpha - v, beta - v)
            hands[seat] = h
            return v

        def play(order: Sequence[int], pos: int, b: int, bs: int, tp: int, tn: int, alpha: int,
                 beta: int) -> int:
            count[0] += 1
            if count[0] > limit:
                raise SearchAborted
            seat = order[pos]
            h = hands[seat]
            ismax = maxside[seat]
            if h & (h - 1):
                live = tmask[tn]
                for x in hands:
                    live |= x
                if b >= 0:
                    live |= 1 << b
                cand = distinct(h, live)
            else:
                cand = [h.bit_length() - 1]
            # Move ordering: cards that take the trick first (biggest points first), then the
            # cheapest cards.
            if len(cand) > 1:
                if b < 0:
                    cand.sort(key=pts.__getitem__, reverse=True)
                else:
                    win = [c for c in cand if beats[(b << 6) | c]]
                    if win:
                        win.sort(key=pts.__getitem__, reverse=True)
                        lose = [c for c in cand if not beats[(b << 6) | c]]
                        lose.sort(key=pts.__getitem__)
                        cand = win + lose
                    else:
                        cand.sort(key=pts.__getitem__)
            best = -1 if ismax else 10**6
            for c in cand:
                v = move(order, pos, seat, h, c, b, bs, tp, tn, alpha, beta)
                if ismax:
                    if v > best:
                        best = v
                        if v > alpha:
                            alpha = v
                            if alpha >= beta:
                                break
                else:
                    if v < best:
                        best = v
                        if v < beta:
                            beta = v
                            if alpha >= beta:
                                break
            return best

        # ---- the root: every move gets its own value ----
        pos = len(trick)
        seat = order[pos]
        b, bs, tp = trick_so_far(trick, order, pts, beats)
        h = hands[seat]
        if moves is None:
            moves = bits(h)
        out: dict[int, int] = {}
        ismax = maxside[seat]
        tn = len(talon)
        best_so_far = None
        try:
            for c in moves:
                if exact or best_so_far is None:
                    alpha, beta = -1, 10**6
                elif ismax:
                    alpha, beta = best_so_far, 10**6
                else:
                    alpha, beta = -1, best_so_far
                v = out[c] = move(order, pos, seat, h, c, b, bs, tp, tn, alpha, beta)
                if best_so_far is None or (v > best_so_far if ismax else v < best_so_far):
                    best_so_far = v
            return out
        finally:
            self.nodes = count[0]
