"""The model of the other players' choices of card (:mod:`.policy`), per network's variant,
as ``tools/train/policy.py fit`` fitted it."""
from __future__ import annotations

from .policy import HEURISTIC, N_POLICY

WEIGHTS: dict[str, tuple[float, ...]] = {}
WEIGHTS["classic"] = tuple(4.0 if i == HEURISTIC else 0.0 for i in range(N_POLICY))
