"""The result of a deal, as a value: card points, the sides, who won, game points.

Below the game and its phase modules (:mod:`briscola.chiamata` builds one too), above
nothing but the standard library.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Outcome:
    """The result of a deal: card points, the sides, who won, and game points (Chiamata)."""

    points: tuple[int, ...]  # card points per seat
    sides: tuple[tuple[int, ...], ...]  # seats of each side
    side_points: tuple[int, ...]  # card points per side
    winners: tuple[int, ...]  # indices of the winning sides; all of them when drawn
    draw: bool  # every side tied
    game_points: tuple[int, ...] = ()  # per seat (Chiamata), empty otherwise
    target: int = 0  # Chiamata: the points the caller's side needed
    cappotto: bool = False
    multiplier: int = 1  # Chiamata: the factor of a point raise (see chiamata.multiplier)

    def winning_seats(self) -> tuple[int, ...]:
        if self.draw:
            return ()
        return tuple(sorted(s for i in self.winners for s in self.sides[i]))

    def to_dict(self) -> dict[str, Any]:
        d = {
            "points": list(self.points),
            "sides": [list(s) for s in self.sides],
            "side_points": list(self.side_points),
            "winners": list(self.winners),
            "draw": self.draw,
        }
        if self.game_points:
            d["game_points"] = list(self.game_points)
            d["target"] = self.target
            d["cappotto"] = self.cappotto
            d["multiplier"] = self.multiplier
        return d
