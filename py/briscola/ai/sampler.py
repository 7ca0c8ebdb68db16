"""Worlds consistent with a view: where the cards a seat cannot see might be.

A world gives every other seat a full hand and the talon a full order. Everything the view
implies is kept: the cards known in each hand (shown, drawn face up, exchanged, signalled),
the face-up trump card at the bottom of the talon, talon cards known by position (reburied,
the next card in scoperta), and every hand size. The unknown cards are dealt uniformly at
random into the unknown slots, so each consistent world is equally likely; an optional
weight (see :mod:`briscola.ai.expert`) may then favour the worlds where the opponents' past
plays were likely.
"""
from __future__ import annotations

import math
import random
from itertools import combinations, permutations

from .common import Situation, bits, deal


class World:
    __slots__ = ("hands", "talon")

    def __init__(self, hands: list[int], talon: list[int]) -> None:
        self.hands = hands  # bit mask per seat
        self.talon = talon  # last item drawn next; item 0 is the face-up card


class Sampler:
    """Draws worlds for one decision."""

    def __init__(self, sit: Situation, rng: random.Random) -> None:
        self.sit = sit
        self.rng = rng
        view = sit.view
        n = sit.n
        self.base_hands = [sit.known[s] for s in range(n)]
        self.base_hands[sit.me] = sit.hand_mask
        size = sit.talon_size
        talon: list[int | None] = [None] * size
        if size:
            if sit.faceup >= 0:
                talon[0] = sit.faceup
            for p, c in view.talon_known:
                talon[size - 1 - p] = int(c)
            if view.talon_next is not None:
                talon[size - 1] = int(view.talon_next)
        self.base_talon = talon
        self.free_talon = [i for i, c in enumerate(talon) if c is None]
        self.slots = list(sit.unknown_slots)
        self.pool = list(sit.unknown)
        need = sum(self.slots) + len(self.free_talon)
        self.consistent = need == len(self.pool)

    def sample(self) -> World:
        pool = self.pool[:]
        self.rng.shuffle(pool)
        hands = self.base_hands[:]
        i = deal(hands, self.slots, pool)
        talon = self.base_talon[:]
        for j in self.free_talon:
            talon[j] = pool[i]
            i += 1
        return World(hands, talon)  # type: ignore[arg-type]  # every free place filled above

    def count(self) -> int:
        """How many worlds are consistent with the view: the unknown cards shared among the
        hands (each hand a set) and the talon's free places (each place its own)."""
        total = math.factorial(len(self.pool))
        for k in self.slots:
            total //= math.factorial(k)
        return total

    def every_world(self, limit: int) -> list[World] | None:
        """Every consistent world, each once (equally likely), or ``None`` if there are more
        than ``limit``."""
        if not self.consistent or self.count() > limit:
            return None
        seats = [(s, k) for s, k in enumerate(self.slots) if k]
        out: list[World] = []

        def deal(i: int, left: list[int], hands: list[int]) -> None:
            if i == len(seats):
                for order in permutations(left):
                    talon = self.base_talon[:]
                    for j, c in zip(self.free_talon, order):
                        talon[j] = c
                    # every free place of the talon filled just above
                    out.append(World(hands, talon))  # type: ignore[arg-type]
                return
            s, k = seats[i]
            for got in combinations(left, k):
                m = hands[s]
                for c in got:
                    m |= 1 << c
                mine = hands[:]
                mine[s] = m
                deal(i + 1, [c for c in left if c not in got], mine)

        deal(0, self.pool, self.base_hands[:])
        return out

    def n_unknown(self) -> int:
        return len(self.pool)

    def single_world(self) -> bool:
        """Is there only one consistent world (every unknown card has a single place)?"""
        dest = sum(1 for k in self.slots if k) + (1 if self.free_talon else 0)
        if dest == 0:
            return True
        if dest == 1:
            return len(self.free_talon) <= 1
        return False


def world_cards(world: World) -> list[int]:
    out = []
    for h in world.hands:
        out.extend(bits(h))
    out.extend(world.talon)
    return out
