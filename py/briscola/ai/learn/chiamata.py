"""A learned evaluation for Briscola Chiamata, applied in a sampled world (every hand known).

The expert's search (:mod:`briscola.ai.chiamata.expert`) stops one trick ahead and asks
for the points the caller's side takes from the start of a trick to the end of the deal,
with every hand known and the sides fixed (the world's partner). :class:`ChNetEvaluator`
answers with a small network (one hidden layer of rectified units, the same
:class:`~briscola.ai.learn.Model` as the classic evaluation) trained on deals played by the
intermediate players (``tools/train/chiamata_selfplay.py``), the last tricks solved exactly.

Inputs (:data:`N_CH_INPUTS`, all 0/1; a card's slot is ``suit_slot * 10 + rank_slot``, suit
slot 0 for the trump suit, rank slot by strength, as :class:`~briscola.ai.learn.Encoder`):
a card held by the caller's side 0..39, by the other side 40..79; the seat in each place of
the trick's order (leader first) is on the caller's side 80..84; the caller plays alone 85.
(Which cards the leader and the last seat hold, 80 more inputs, gave no smaller error on
held-out deals: 7.75 points against 7.70.)

**Incremental.** The search asks at every leaf, one trick below the position it searches
from, so the cards are nearly the same each time: :meth:`ChNetEvaluator.start` sums the
hidden layer's input over the world's hands once, and a leaf takes off the rows of the few
cards played since and adds the row of its leader's order.
"""
from __future__ import annotations

from operator import add, sub
from typing import TYPE_CHECKING

from . import card_slots, load

if TYPE_CHECKING:  # for the annotations only
    from . import Model
    from ...rules import Rules

CH_SIDE, CH_OTHER, CH_SIDEPOS, CH_ALONE = 0, 40, 80, 85
N_CH_INPUTS = 86
MODEL_NAME = "chiamata"


def encode(rules: Rules, trump: int | None, hands: list[int], leader: int, maxside: list[bool]
          ) -> list[int]:
    """The inputs set (indices) of a trick start: every hand known, the sides given."""
    slot = card_slots(rules, trump)
    idx = []
    for s, h in enumerate(hands):
        base = CH_SIDE if maxside[s] else CH_OTHER
        while h:
            low = h & -h
            idx.append(base + slot[low.bit_length() - 1])
            h ^= low
    for p, s in enumerate(rules.tables.rot[leader]):
        if maxside[s]:
            idx.append(CH_SIDEPOS + p)
    if sum(1 for m in maxside if m) == 1:
        idx.append(CH_ALONE)
    return sorted(idx)


def load_model() -> Model | None:
    """The shipped Chiamata network, or ``None`` if the package has none."""
    return load(MODEL_NAME, inputs=N_CH_INPUTS)


_ROWS: dict = {}


def _card_rows(model: Model, rules: Rules, trump: int | None) -> list:
    """Per card (by its bit): the first layer's rows of the card held by the other side and
    by the caller's side; kept per model and trump."""
    key = (id(model), rules.tables.deck_ints, trump)
    got = _ROWS.get(key)
    if got is None or got[0] is not model:
        w1 = model.w1
        slot = card_slots(rules, trump)
        rows: list = [None] * 64
        for c in rules.tables.deck_ints:
            rows[c] = (w1[CH_OTHER + slot[c]], w1[CH_SIDE + slot[c]])
        got = _ROWS[key] = (model, rows)
    return got[1]


class ChNetEvaluator:
    """The caller's side's points from a trick start to the end, by the network, for one
    trump and one assignment of the sides (``maxside[s]``: seat ``s`` is on the caller's
    side). Call :meth:`start` with each world's hands before searching it; then
    ``evaluator(hands, leader)`` for any trick start reached from there."""

    def __init__(self, model: Model, rules: Rules, trump: int | None, maxside: list[bool]) -> None:
        t = rules.tables
        w1 = model.w1
        self.maxside = maxside
        self.n = rules.players
        self.pts = t.points
        self.rows = _card_rows(model, rules, trump)
        alone = sum(1 for m in maxside if m) == 1
        # The bias, the order's sides and playing alone: one row per leader.
        self.const = []
        for leader in range(self.n):
            acc = list(model.b1)
            for p, s in enumerate(t.rot[leader]):
                if maxside[s]:
                    acc = list(map(add, acc, w1[CH_SIDEPOS + p]))
            if alone:
                acc = list(map(add, acc, w1[CH_ALONE]))
            self.const.append(acc)
        self.w2 = model.w2
        self.b2 = model.b2
        self.scale = model.scale
        self.calls = 0
        self.left = 0
        self.root: list[int] = []
        self.root_pts = 0
        self.base: list[list[float]] = []

    def start(self, hands: list[int]) -> None:
        """A new world: the hidden layer's input summed over its hands, one sum a leader."""
        maxside = self.maxside
        rows = self.rows
        pts = self.pts
        acc = [0.0] * len(self.w2)
        total = 0
        for s, h in enumerate(hands):
            side = 1 if maxside[s] else 0
            while h:
                low = h & -h
                c = low.bit_length() - 1
                total += pts[c]
                acc = list(map(add, acc, rows[c][side]))
                h ^= low
        self.root = list(hands)
        self.root_pts = total
        self.base = [list(map(add, acc, k)) for k in self.const]

    def hidden_input(self, hands: list[int], leader: int) -> list[float]:
        """The hidden layer's input (before the rectifier) at a trick start below the root."""
        acc = self.base[leader]
        root = self.root
        rows = self.rows
        pts = self.pts
        maxside = self.maxside
        left = self.root_pts
        for s, h in enumerate(hands):
            gone = root[s] & ~h
            if not gone:
                continue
            side = 1 if maxside[s] else 0
            while gone:
                low = gone & -gone
                c = low.bit_length() - 1
                left -= pts[c]
                acc = list(map(sub, acc, rows[c][side]))
                gone ^= low
        self.left = left
        return acc

    def value(self, hands: list[int], leader: int) -> float:
        """The network's estimate, in card points (not rounded or clamped)."""
        out = self.b2
        for a, w in zip(self.hidden_input(hands, leader), self.w2):
            if a > 0.0:
                out += a * w
        return out * self.scale

    def __call__(self, hands: list[int], leader: int) -> int:
        """The estimate rounded to whole points, within 0 and the points still in hands."""
        self.calls += 1
        v = self.value(hands, leader)
        left = self.left
        return int(v + 0.5) if 0.0 <= v <= left else (0 if v < 0 else left)
