"""The card tracker: what a seat may know is still out, from its view alone."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import N_RANKS, SUITS

if TYPE_CHECKING:  # for the annotations only
    from ..view import View


def track(view: View) -> dict:
    """``unseen``: by suit (strongest first), the cards whose place the seat does not know
    (in other hands or the talon); ``points_out``: card points not yet played and not in the
    seat's hand; ``trumps_out``: the trumps not yet played and not in its hand (the face-up
    card included), strongest first; ``talon``: cards left in the talon (face-up included)."""
    t = view.rules.tables
    hand = 0
    for c in view.hand:
        hand |= 1 << c
    out = t.deck_mask & ~view.played_mask() & ~hand
    strongest = sorted(t.deck, key=lambda c: (-t.strength[c], c))
    unseen_mask = 0
    for c in view.unseen():
        unseen_mask |= 1 << c
    unseen = {s: [str(c) for c in strongest if c // N_RANKS == i and unseen_mask >> c & 1]
              for i, s in enumerate(SUITS)}
    trump = view.trump_suit
    trumps = [str(c) for c in strongest
              if trump is not None and c // N_RANKS == trump and out >> c & 1]
    return {"unseen": unseen,
            "points_out": sum(t.points[c] for c in t.deck if out >> c & 1),
            "trumps_out": trumps,
            "talon": view.talon_size}
