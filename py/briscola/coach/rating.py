"""An Elo-style rating of a person playing against the computer levels.

Each level has a fixed rating, calibrated from the arena's measured results
(docs/players.md): a win rate ``p`` between two players is a rating difference of
``400 * log10(p / (1 - p))``. Classic Briscola, 2000 duplicate deal pairs each, draws half:

* beginner v random: 67.9% -> +130
* intermediate v beginner: 81.0% -> +252
* expert v intermediate: 63.1% -> +93

Anchoring the intermediate at 1500 gives random 1118, beginner 1248, expert 1593 (and
intermediate v random then predicts 90.0%, as measured). After a deal against a level the
person's rating moves by ``K * (score - expected)``, ``score`` 1 for a win, 0.5 for a draw,
0 for a loss, ``expected`` the Elo expectation against the level's rating.
"""
from __future__ import annotations

import math

K = 32.0
INITIAL = 1200.0  # a new person's rating: a little above the beginner's floor
ANCHOR = ("intermediate", 1500.0)
# Measured win rates (docs/players.md): (stronger, weaker, stronger's win rate).
MEASURED = (("beginner", "random", 0.679), ("intermediate", "beginner", 0.810),
            ("expert", "intermediate", 0.631))


def elo_gap(p: float) -> float:
    """The rating difference that makes the stronger side win with probability ``p``."""
    return 400.0 * math.log10(p / (1.0 - p))


def _levels() -> dict[str, float]:
    out = {ANCHOR[0]: ANCHOR[1]}
    # Walk the chain both ways from the anchor until every level has a rating.
    changed = True
    while changed:
        changed = False
        for hi, lo, p in MEASURED:
            if hi in out and lo not in out:
                out[lo] = out[hi] - elo_gap(p)
                changed = True
            elif lo in out and hi not in out:
                out[hi] = out[lo] + elo_gap(p)
                changed = True
    return {k: round(v) for k, v in out.items()}


LEVELS: dict[str, float] = _levels()


def expected(rating: float, opponent: float) -> float:
    odds: float = 10.0 ** ((opponent - rating) / 400.0)
    return 1.0 / (1.0 + odds)


def update(rating: object, level: str, score: object) -> float:
    """The person's new rating after a deal against ``level`` (``score`` 1, 0.5 or 0)."""
    if level not in LEVELS:
        raise ValueError(f"level: one of {', '.join(sorted(LEVELS))}")
    if not isinstance(score, (int, float)) or score not in (0, 0.5, 1):
        raise ValueError("score: 1 for a win, 0.5 for a draw, 0 for a loss")
    if rating is None:
        rating = INITIAL
    if isinstance(rating, bool) or not isinstance(rating, (int, float)) or \
            not math.isfinite(rating) or not 0 <= rating <= 4000:
        raise ValueError("rating: a number from 0 to 4000")
    new = rating + K * (score - expected(rating, LEVELS[level]))
    return round(new, 1)
