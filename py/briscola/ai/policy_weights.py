"""The model of the other players' choices of card (:mod:`.policy`), per network's variant,
as ``tools/train/policy.py fit`` fitted it on the expert's decisions in self-play:
classic, 22,800 choices of 600 deals (``data --bot expert --deals 600 --seed 1``);
log-likelihood a choice -0.695 (held out -0.685), where a uniform choice scores -1.077 and
the heuristic's scores at temperature 2.5 (the ``Evidence`` of :mod:`.inference`) -0.79.
"""
from __future__ import annotations

WEIGHTS: dict[str, tuple[float, ...]] = {}
WEIGHTS["classic"] = (
    0.352, 1.175, 1.499, 0.726, 0.085, -0.36, -0.471, -0.647,
    -0.934, -0.542, -0.258, -0.626, -0.148, 1.359, 2.504, 2.786,
    3.87, 4.521, -1.239, -0.415, -0.631, -0.004, 0.093, -0.793,
    1.816, 0.735, 0.43, -0.333, -1.672, -3.163, -0.554, -1.569,
    -2.368, -1.847, -3.379, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0,
    -0.111, -0.96, -0.605, -0.906, 0.434, -1.175, 0, 0,
    0, 0, 0.654, 2.944, -1.851, -1.747, 0, 0,
    -0.836, 0.836, -0.365, 0.33, -1.087, 1.123, 0, 0,
    1.42,
)
