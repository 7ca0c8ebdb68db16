"""What the two exact searches share: the classic one (:mod:`.solver`) and Chiamata's
(:mod:`.chiamata.expert`).

Both are alpha-beta over perfect-information positions written as one bit mask of cards per
seat, with a transposition table at the start of each trick; they differ in what a trick
does next (the classic game draws from a talon, Chiamata has none but may oblige following
suit) and in how they order moves, so each keeps its own search loop, the hot part. What is
the same lives here, written once:

* :class:`SearchAborted`, raised when the node budget runs out;
* :func:`stronger_in_suit`: per card, the cards of its suit that beat it, weakest first;
* :func:`make_distinct`: one card per run of interchangeable cards in a hand (same suit,
  same points, no live card between them), so that only one of them is searched;
* :func:`trick_so_far`: the winning card, its seat and the points of a trick in progress.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Sequence

from ..cards import N_RANKS

if TYPE_CHECKING:  # for the annotations only
    from ..rules import _Tables


class SearchAborted(Exception):
    """The node budget ran out before the search finished."""


_STRONGER: dict = {}


def stronger_in_suit(tables: _Tables) -> tuple[list[list[int]], list[int]]:
    """Per card number: the cards of its suit in the deck that beat it (weakest first), and
    the same as a bit mask. Computed once per rules tables."""
    got = _STRONGER.get(tables)  # the tables of one rules value: compared by identity
    if got is None:
        strength = tables.strength
        deck = tables.deck_ints
        up: list[list[int]] = [[] for _ in range(64)]
        above = [0] * 64
        for c in deck:
            up[c] = sorted((x for x in deck if x // N_RANKS == c // N_RANKS
                            and strength[x] > strength[c]), key=strength.__getitem__)
            for x in up[c]:
                above[c] |= 1 << x
        got = _STRONGER[tables] = (up, above)
    return got


def make_distinct(pts: Sequence[int], up: list[list[int]],
                  above: list[int]) -> Callable[[int, int], list[int]]:
    """``distinct(h, live)``: one card of ``h`` per run of interchangeable cards.

    Two cards of a hand are interchangeable when they are of one suit, worth the same points,
    and no card still in play (``live``, a mask) lies between them in strength: whichever is
    played, the rest of the deal goes the same way. The top card of each run is kept.
    """

    def distinct(h: int, live: int) -> list[int]:
        out = []
        m = h
        while m:
            low = m & -m
            c = low.bit_length() - 1
            m ^= low
            if h & above[c]:
                # the next live card above c in its suit: same hand, same points?
                for x in up[c]:
                    if live >> x & 1:
                        if h >> x & 1 and pts[x] == pts[c]:
                            break
                        out.append(c)
                        break
                else:
                    out.append(c)
            else:
                out.append(c)
        return out

    return distinct


def trick_so_far(trick: Sequence[int], order: Sequence[int], pts: Sequence[int],
                 beats: Sequence[bool]) -> tuple[int, int, int]:
    """(winning card, its seat, points) of the cards played so far (-1, -1, 0 if none)."""
    b, bs, tp = -1, -1, 0
    for i, c in enumerate(trick):
        tp += pts[c]
        if b < 0 or beats[(b << 6) | c]:
            b, bs = c, order[i]
    return b, bs, tp
