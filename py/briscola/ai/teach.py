"""The coach's principles: how a good player chooses between cards the evaluation cannot tell
apart, and the plain facts of a trick that every reason names (``docs/coach.md``).

The evaluation (:mod:`briscola.ai.evaluate`) is accurate to about a point before every
card's place is known; cards within that of the best are *tied*, and among them the coach
picks what a teacher would, by the principles below, tried in order until one tells the
cards apart. Each principle is a number per card (lower is better, :func:`standing`) and a
reason code (``coach_tie_<name>``) that says it to the player. What applies depends on the trick:

* **leading** -- keep the loads (il carico non si gioca di mano); keep the trumps; lead what
  is cheapest to lose; keep the stronger card; keep the card that is harder to beat;
* **following a trick the others hold** -- take with a plain card when it takes the trick
  for sure; take a load on the table; keep the trumps; spend the lowest trump that takes;
  take the most points; give no points to a trick you lose; keep the loads; keep the
  stronger card; keep the card that is harder to beat;
* **following a trick the partner holds** -- keep the trumps; load the partner's trick when
  nobody can take it any more (carica), give it little while an opponent still plays; keep
  the stronger card; keep the card that is harder to beat.

Two cards no principle tells apart (two blanks of the same use) are "either will do".
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import N_RANKS

if TYPE_CHECKING:  # for the annotations only
    from ..view import View

LOAD = 10  # an Ace (11) or a Three (10): a carico


class Facts:
    """The plain facts of one card play that a reason may name, from the view."""

    def __init__(self, view: View) -> None:
        from .common import trick_order
        t = view.rules.tables
        self.pts = t.points
        self.strength = t.strength
        self.trump = view.trump_suit
        self.beats = t.beats(self.trump)
        seat = view.seat
        self.pos = len(view.trick)
        best, best_seat, tp = -1, -1, 0
        for s, card in view.trick:
            c = int(card)
            tp += self.pts[c]
            if best < 0 or self.beats[(best << 6) | c]:
                best, best_seat = c, s
        self.best, self.table_pts = best, tp
        sides = view.side_of_seat

        def friend(s: int) -> bool:
            a, b = sides[s], sides[seat]
            return s == seat or (a is not None and b is not None and a >= 0 and a == b)

        self.ours = best_seat >= 0 and best_seat != seat and friend(best_seat)
        order = trick_order(view)
        self.opp_after = any(not friend(s) for s in order[self.pos + 1:])
        self.partner_after = any(friend(s) and s != seat for s in order[self.pos + 1:])
        hand = 0
        for c in view.hand:
            hand |= 1 << c
        live = t.deck_mask & ~view.played_mask() & ~hand
        self.live = live
        self.trumps_out = 0 if self.trump is None else sum(
            1 for c in t.deck_ints if c // N_RANKS == self.trump and live >> c & 1)

    def wins(self, c: int) -> bool:
        """Would ``c`` be the best card of the trick now?"""
        return self.best < 0 or bool(self.beats[(self.best << 6) | c])

    def is_trump(self, c: int) -> bool:
        return self.trump is not None and c // N_RANKS == self.trump

    def is_load(self, c: int) -> bool:
        return self.pts[c] >= LOAD

    def beaters(self, c: int) -> int:
        """Cards still out (not in the seat's hand, not played) that would beat ``c`` led."""
        return sum(1 for x in range(64) if self.live >> x & 1 and self.beats[(c << 6) | x])

    def taken(self, c: int) -> int:
        """The trick's points if ``c`` takes it: the table's and its own."""
        return self.table_pts + self.pts[c]

    def given(self, c: int) -> int:
        """The points ``c`` puts on a trick it does not take now (0 if it takes it)."""
        return 0 if self.wins(c) and self.pos > 0 else self.pts[c]

    def plain_sure(self, c: int) -> bool:
        """Does ``c`` take the trick without a trump, with no opponent left to play?"""
        return self.pos > 0 and self.wins(c) and not self.is_trump(c) and not self.opp_after


def principles(f: Facts) -> tuple[str, ...]:
    """The names of the principles that apply to this trick, in order (:func:`standing`)."""
    if f.pos == 0:
        return ("lead_keep_load", "keep_trump", "lead_cheap", "keep_stronger", "keep_safer")
    if f.ours:
        share = "partner_unsafe" if f.opp_after else "load_partner"
        return ("keep_trump", share, "keep_stronger", "keep_safer")
    take = ("take_plain", "take_load") if f.table_pts >= LOAD else ("take_plain",)
    return take + ("keep_trump", "low_trump", "take_points", "discard", "keep_load",
                   "keep_stronger", "keep_safer")


def standing(f: Facts, name: str, c: int) -> int:
    """Card ``c`` by principle ``name``: lower is what a teacher prefers."""
    pts = f.pts[c]
    if name in ("keep_load", "lead_keep_load"):
        return 1 if pts >= LOAD else 0
    if name == "keep_trump":
        return 1 if f.is_trump(c) else 0
    if name in ("lead_cheap", "partner_unsafe"):
        return pts
    if name == "load_partner":
        return -pts
    if name == "keep_stronger":
        return f.strength[c]
    if name == "keep_safer":
        return -f.beaters(c)
    if name == "take_plain":
        return 0 if f.plain_sure(c) else 1
    if name == "take_load":
        return 0 if f.wins(c) else 1
    if name == "low_trump":
        # between trumps (plain cards were parted by keep_trump): the lowest that takes, and
        # a trump that does not take last
        return -1 if not f.is_trump(c) else f.strength[c] if f.wins(c) else 99
    if name == "take_points":
        return -f.taken(c) if f.wins(c) else 0
    return f.given(c)  # discard


def keys(view: View, plays: list[int]) -> dict[int, tuple]:
    """Each card's standing by the principles (lower first), the card number last."""
    f = Facts(view)
    names = principles(f)
    return {c: tuple(standing(f, n, c) for n in names) + (c,) for c in plays}


def tie_reason(f: Facts, b: int, a: int) -> tuple[str, dict] | None:
    """The first principle that prefers ``b`` to ``a``, as ``(code, numeric params)``;
    ``None`` if none tells them apart or the first that does prefers ``a``."""
    for name in principles(f):
        kb, ka = standing(f, name, b), standing(f, name, a)
        if kb == ka:
            continue
        if kb > ka:
            return None
        p: dict = {}
        if name == "low_trump" and not f.wins(a):  # a trump under a trump takes nothing
            name = "take_points"
        if name == "take_plain":
            if f.taken(b):
                p["taken"] = f.taken(b)
            else:
                name = "take_plain_lead"
        elif name == "take_load":
            p["points"] = f.table_pts
        elif name == "take_points":
            p["taken"] = f.taken(b)
            p["taken_alt"] = f.taken(a) if f.wins(a) else 0
        elif name in ("discard", "lead_cheap"):
            p["given"], p["given_alt"] = f.given(b), f.given(a)
        elif name in ("load_partner", "partner_unsafe"):  # the points put on the trick
            p["given"], p["given_alt"] = f.pts[b], f.pts[a]
        elif name in ("keep_load", "lead_keep_load"):
            p["points"] = f.pts[a]
        elif name == "keep_safer":
            p["beaters"], p["beaters_alt"] = f.beaters(b), f.beaters(a)
        return "coach_tie_" + name, p
    return None


TIE_CODES = tuple("coach_tie_" + n for n in (
    "lead_keep_load", "keep_trump", "lead_cheap", "keep_stronger", "keep_safer",
    "partner_unsafe", "load_partner", "take_plain", "take_plain_lead", "take_load",
    "take_points", "discard", "keep_load", "low_trump"))
