"""Reading the other players' last cards: weights for sampled worlds.

A player who throws a king on a trick it cannot win probably had no worthless card; one
who does not trump an ace probably had no trump to spare. In a sampled world the hand each
other seat held at its last decision is (almost) known, so the card it chose can be scored
with the card-counting heuristic (:class:`~briscola.ai.rollout.FastPolicy`): worlds where
the choice looks sensible get more weight. The model is soft (a softmax of the heuristic's
scores, mixed with a uniform choice), so a player who plays differently only blurs it.

Only each seat's most recent play is used: in the current trick its hand is then exactly
the world's hand plus the card played; in the last completed trick, the card it drew since
is not known, and the likelihood is averaged over the possibilities.
"""
from __future__ import annotations

import math
from itertools import combinations
from typing import TYPE_CHECKING

from .common import Situation, bits

if TYPE_CHECKING:  # for the annotations only
    from .rollout import FastPolicy


class _Record:
    __slots__ = ("seat", "card", "order", "pos", "b", "bs", "tp", "live", "faceup_hidden",
                 "tn", "sizes", "later", "drew")

    seat: int
    card: int
    order: tuple[int, ...]
    pos: int
    b: int
    bs: int
    tp: int
    live: int
    faceup_hidden: int
    tn: int
    sizes: list[int]
    later: int
    drew: int


class Evidence:
    """The last play of each other seat, as the public state before it."""

    def __init__(self, sit: Situation, policy: FastPolicy, temperature: float = 2.5,
                 uniform: float = 0.15, depth: int = 1) -> None:
        self.sit = sit
        self.policy = policy
        self.temperature = temperature
        self.uniform = uniform
        self.records: list[_Record] = []
        # A record's term of the likelihood for the hand its seat held then: the worlds drawn
        # for one decision share many of those hands (weight()).
        self._terms: dict[tuple[int, int], float] = {}
        view = sit.view
        rules = view.rules
        t = rules.tables
        n = view.players
        per_round = t.per_round
        deck_mask = t.deck_mask
        tricks = [(tuple(o), [int(c) for c in cards], w) for o, cards, w, _p in view.tricks]
        # The current trick has no winner yet.
        current: tuple[tuple[int, ...], list[int], int | None] = (sit.order, list(sit.trick), None)
        # Talon size before each trick, from the deal's arithmetic.
        talon = len(t.deck) - n * rules.hand_size if rules.mode != "chiamata" else 0
        before: list[int] = []
        draws_after: list[list[int]] = []  # per completed trick: seats that drew, in order
        for o, cards, w in tricks:
            before.append(talon)
            if talon:
                seq = t.orders[w] if talon >= per_round else t.rot[w][:talon]
                draws_after.append(list(seq))
                talon -= len(seq)
            else:
                draws_after.append([])
        before.append(talon)
        if talon != view.talon_size:
            return  # exchanges or a rule this reading does not know: use no evidence
        all_tricks = tricks + [current]
        played_before = [0] * (len(all_tricks) + 1)
        for k, (o, cards, _w) in enumerate(all_tricks):
            m = played_before[k]
            for c in cards:
                m |= 1 << c
            played_before[k + 1] = m
        faceup_card = int(view.original_trump_card) if view.original_trump_card is not None \
            else -1
        seen: dict[int, int] = {}
        for k in range(len(all_tricks) - 1, max(len(all_tricks) - 2 - depth, -1), -1):
            o, cards, _w = all_tricks[k]
            for pos in range(len(cards) - 1, -1, -1):
                s = o[pos]
                if s == sit.me or seen.get(s, 0) >= depth:
                    continue
                seen[s] = seen.get(s, 0) + 1
                r = _Record()
                r.seat = s
                r.card = cards[pos]
                r.order = o
                r.pos = pos
                b, bs, tp = -1, -1, 0
                beats = t.beats(sit.trump)
                for i in range(pos):
                    c = cards[i]
                    tp += t.points[c]
                    if b < 0 or beats[(b << 6) | c]:
                        b, bs = c, o[i]
                r.b, r.bs, r.tp = b, bs, tp
                played = played_before[k]
                for i in range(pos):
                    played |= 1 << cards[i]
                r.live = deck_mask & ~played
                r.tn = before[k]
                r.faceup_hidden = (1 << faceup_card) if before[k] and faceup_card >= 0 else 0
                # Cards this seat played after this decision (the current trick), and whether
                # it drew since: then its hand then is uncertain by one card.
                later = 0
                for k2 in range(k + 1, len(all_tricks)):
                    o2, cards2, _w2 = all_tricks[k2]
                    for i, c in enumerate(cards2):
                        if o2[i] == s:
                            later |= 1 << c
                r.later = later
                r.drew = sum(d.count(s) for d in draws_after[k:]) if k < len(tricks) else 0
                # Hand sizes then: now, plus cards played since, minus cards drawn since.
                sizes = list(view.hand_sizes)
                for k2 in range(k, len(all_tricks)):
                    o2, cards2, _w2 = all_tricks[k2]
                    for i in range(len(cards2)):
                        if k2 > k or i >= pos:
                            sizes[o2[i]] += 1
                for d in draws_after[k:]:
                    for s2 in d:
                        sizes[s2] -= 1
                r.sizes = sizes
                emptied = any(before[k2] > 0 and before[k2 + 1] == 0
                              for k2 in range(k, len(tricks)))
                if r.drew > depth or sizes[s] < 2 or emptied:
                    continue  # no real choice, or too uncertain
                self.records.append(r)

    def weight(self, hands: list[int]) -> float:
        """How likely the recorded plays were in the world with these ``hands``."""
        w = 1.0
        pol = self.policy
        tau = self.temperature
        eps = self.uniform
        known = self.sit.known
        terms = self._terms
        for i, r in enumerate(self.records):
            now = hands[r.seat]
            base = now | r.later | (1 << r.card)
            if r.drew:
                # The cards drawn since: any of the hand now (or played since) that are not
                # known to have come from elsewhere.
                free = [d for d in bits(now | r.later) if not known[r.seat] >> d & 1]
                options = [sum(1 << d for d in combo)
                           for combo in combinations(free, r.drew)]
                if not options:
                    continue
            else:
                options = [0]
            like = 0.0
            for d in options:
                h = base & ~d
                term = terms.get((i, h))
                if term is None:
                    sc = pol.scores(r.seat, h, r.sizes, r.live, r.faceup_hidden, r.order, r.pos,
                                    r.b, r.bs, r.tp, r.tn)
                    top = max(v for _c, v in sc)
                    z = 0.0
                    mine = 0.0
                    for c, v in sc:
                        e = math.exp((v - top) / tau)
                        z += e
                        if c == r.card:
                            mine = e
                    term = terms[i, h] = (1.0 - eps) * mine / z + eps / len(sc)
                like += term
            w *= like / len(options)
        return w
