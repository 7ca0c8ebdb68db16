"""The coach's principles hold where they are said, and the hint never throws points away.

Positions come from seeded deals played by the computer players in every family of variants.
At each card play with a choice the evaluation's values are drawn at random (ties within the
noise, clear gaps, exact and not: every kind of reason comes up) and settled as the real
evaluation settles them (:func:`briscola.ai.evaluate.settle`); the hint and the review of every
legal card are then checked:

* the principle each reason states holds in the position (:func:`briscola.ai.teach.holds`),
  and the checker itself is checked here against facts recomputed without it;
* a hint never throws a card with points onto a trick the others hold (no partner to play
  after) while a card of fewer points would lose it as well, unless the reason compares it
  with such a card and says why that card is kept;
* a tie between two small cards is said as such, not as a principle that does not separate
  them; where one is said ("keep a suit you can still answer") it is recomputed here.

Three deals per variant with the real evaluation close (marked ``slow``).
"""
from __future__ import annotations

import itertools
import random

import pytest

from briscola.ai import make_bot
from briscola.ai.evaluate import GIVE_BIAS, NOISE, Budget, Evaluation, card_plays, evaluate, settle
from briscola.ai.explain import explain
from briscola.ai.teach import Facts, holds
from briscola.cards import N_RANKS, Card
from briscola.game import Game

SMALL = Budget(rollout_worlds=8, search_worlds=6, node_budget=15000, ch_worlds=6,
               ch_node_budget=6000, learned_worlds=16, learned_leaves=600)
VARIANTS = {"classic": 60, "three": 30, "four": 24, "six": 15, "double": 30, "scoperta": 40,
            "bisca": 40, "bosnian": 40, "chiamata": 16}  # about 700 positions each
# What a hint that throws points anyway may say: why the cheaper card is kept.
KEEPS = {"coach_give_keep", "coach_keep_trump", "coach_tie_keep_trump", "coach_keep_later",
         "coach_keep_stronger", "coach_keep_safer", "coach_keep_master",
         "coach_tie_worth_same"}


def fake(view, rng: random.Random) -> Evaluation:
    plays = card_plays(view)
    exact = rng.random() < 0.25
    spread = rng.choice([0.3, 1.5, 2.5, 6.0, 20.0])
    values = {c: round(rng.uniform(0, spread), 2) for c in plays}
    return settle(view, Evaluation(view.seat, values, "exact" if exact else "search", 1, exact))


def positions(variant: str, deals: int):
    for d in range(deals):
        game = Game.new(variant, seed=f"principles/{variant}/{d}")
        levels = ("random", "intermediate")
        bots = [make_bot(levels[(s + d) % 2], seed=f"principles/{d}/{s}") for s in range(game.n)]
        while not game.is_over:
            s = game.current_player
            view = game.view(s)
            if view.phase == "play" and len(card_plays(view)) > 1:
                yield view
            game.apply(bots[s].decide(view).action)


def cards_of(why):
    p = why["params"]
    return int(Card.parse(p["card"])), int(Card.parse(p["alt"]))


class Plain:
    """Who beats whom and who may hold what, recomputed from the view without the engine's
    tables: the same suit and a higher rank, or a trump on a plain card."""

    def __init__(self, view) -> None:
        t = view.rules.tables
        self.pts, self.strength, self.trump = t.points, t.strength, view.trump_suit
        self.pos = len(view.trick)
        best = None
        for _s, c in view.trick:
            if best is None or self.beats(best, int(c)):
                best = int(c)
        self.best = best

    def beats(self, x: int, y: int) -> bool:
        if y // N_RANKS == x // N_RANKS:
            return self.strength[y] > self.strength[x]
        return self.trump is not None and y // N_RANKS == self.trump

    def wins(self, c: int) -> bool:
        return self.best is None or self.beats(self.best, c)

    def lower_out(self, view, c: int) -> int:
        """Cards of ``c``'s suit, lower than it, not in the hand and not played."""
        played = {int(y) for _s, y in view.trick}
        for _o, cards, _w, _p in view.tricks:
            played |= {int(y) for y in cards}
        hand = {int(y) for y in view.hand}
        return sum(1 for y in view.rules.tables.deck if y // N_RANKS == c // N_RANKS
                   and int(y) not in played | hand and self.strength[y] < self.strength[c])

    def covers(self, view, c: int) -> bool:
        """A small card, the only one of its suit in hand, that still beats one still out."""
        alone = sum(1 for y in view.hand if int(y) // N_RANKS == c // N_RANKS) == 1
        return (self.pts[c] == 0 and c // N_RANKS != self.trump and alone
                and self.lower_out(view, c) > 0)


def check_hint(view, ev: Evaluation, why: dict) -> None:
    code = why["code"]
    if code == "coach_forced":
        return
    f = Facts(view)
    assert holds(view, code, why["params"], f), (why, view.trick, view.hand)
    b, a = cards_of(why)
    assert b == ev.best
    x = Plain(view)
    if f.pts[b] and f.lost(b) and not f.partner_after:
        cheaper = [c for c in f.legal if f.lost(c) and f.given(c) < f.given(b)]
        if cheaper:
            # the points are thrown only with a reason that compares a cheaper card and keeps it
            assert a in cheaper and code in KEEPS, (why, view.trick, view.hand)
            assert not x.wins(b) and not x.wins(a)
            if ev.tied(a):  # tied: only a trump kept may justify it (or, every card's place
                # known and the values equal, that the deal ends the same either way)
                assert code == "coach_tie_keep_trump" or (
                    ev.exact and code == "coach_tie_worth_same"), why
            # the search's bias for a figure thrown (about a point) is allowed for: a cheaper
            # card within it and the noise of the best is tied, and kept only as a trump
            top = max(ev.values.values())
            if not ev.exact and any(ev.values[c] + NOISE + GIVE_BIAS >= top + 1e-6
                                    for c in cheaper):
                assert code == "coach_tie_keep_trump" or (
                    ev.exact and code == "coach_tie_worth_same"), (why, ev.values)
    if code == "coach_tie_blanks":
        assert x.pts[a] == x.pts[b] == 0 and x.trump not in (a // N_RANKS, b // N_RANKS)
    if code == "coach_tie_keep_suit":
        # two small cards; the one kept is the last of its suit in hand and still beats a
        # lower card of its suit still out; the one played does not leave such a suit
        assert x.pts[a] == x.pts[b] == 0 and x.trump not in (a // N_RANKS, b // N_RANKS)
        assert x.covers(view, a) and not x.covers(view, b), (why, view.hand)
        assert why["params"]["below"] == x.lower_out(view, a)
    if code in ("coach_tie_keep_stronger", "coach_keep_stronger"):
        assert a // N_RANKS == b // N_RANKS and x.strength[a] > x.strength[b]
    if code == "coach_tie_discard":  # no card in hand gives fewer points and loses as well
        assert not any(not x.wins(c) and x.pts[c] < x.pts[b] for c in f.legal), why
    if code in ("coach_tie_take_points", "coach_tie_take_points_may"):
        assert all(x.pts[c] <= x.pts[b] for c in f.legal if x.wins(c)), why


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_principles_hold_and_points_are_not_thrown(variant):
    rng = random.Random(variant)
    n = 0
    codes = set()
    for view in positions(variant, VARIANTS[variant]):
        ev = fake(view, rng)
        why = explain(view, ev)
        check_hint(view, ev, why)
        codes.add(why["code"])
        for c in card_plays(view):
            got = explain(view, ev, c)
            assert holds(view, got["code"], got["params"]), got
        n += 1
    assert n >= 400, n
    assert len(codes) >= 8, codes


def test_the_checker_refuses_what_does_not_hold():
    """The checker says no where the claim is false: a load "the others can take" that no card
    still out beats, points "given" where a card of fewer points loses as well, a take "for
    sure" that a player still to come may beat, "the same job" for cards that do not."""
    refused = {"lead_keep_load": 0, "discard": 0, "sure": 0, "same": 0, "keep_suit": 0}
    said = 0
    for view in itertools.chain(positions("classic", 12), positions("four", 6)):
        f = Facts(view)
        legal = f.legal
        x = Plain(view)
        for b in legal:
            for a in legal:
                if a == b:
                    continue
                p = {"card": str(Card(b)), "alt": str(Card(a))}
                if f.pos == 0 and f.pts[a] >= 10 and not f.is_trump(a) and f.beaters(a) == 0:
                    assert not holds(view, "coach_tie_lead_keep_load", p)
                    refused["lead_keep_load"] += 1
                if f.pos and not x.wins(b) and any(not x.wins(c) and x.pts[c] < x.pts[b]
                                                   for c in legal):
                    assert not holds(view, "coach_tie_discard", p)
                    refused["discard"] += 1
                if f.pos and x.wins(b) and not x.wins(a) and f.opp_after and f.threat(b):
                    assert not holds(view, "coach_take", p)
                    assert holds(view, "coach_take_lead_may", p)
                    refused["sure"] += 1
                if not x.covers(view, a) or x.covers(view, b):
                    # the card kept is not the last of a suit it can still take a lead in,
                    # or the card played is one as well
                    assert not holds(view, "coach_tie_keep_suit", p)
                    refused["keep_suit"] += 1
                elif holds(view, "coach_tie_keep_suit", p):
                    said += 1
                if x.wins(b) != x.wins(a) or x.pts[a] != x.pts[b]:
                    assert not holds(view, "coach_equal", p)
                    refused["same"] += 1
    assert all(refused.values()), refused
    assert said > 0  # and it does hold somewhere


@pytest.mark.slow
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_real_hints_hold(variant):
    n = 0
    for view in positions(variant, 3):
        ev = evaluate(view, SMALL)
        check_hint(view, ev, explain(view, ev))
        n += 1
    assert n >= 20, n
