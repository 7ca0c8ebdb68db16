"""A view costs the same at the first trick and the last.

Timings are for bench/engine.py; these tests check the work instead: every action is logged
once however often the views are read, a view made while the deal goes on never rebuilds
the deal, no text is parsed to make or read one, and a view read late still shows the deal
as it was when it was made.
"""
import random

import pytest

from briscola import game as game_mod
from briscola.actions import Action
from briscola.cards import Card
from briscola.game import Game

VARIANTS = ["classic", "four-signals", "exchange-seven", "bosnian-five", "chiamata", "rebury"]


def _play(g: Game, rng: random.Random, each=None) -> None:
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
        if each:
            each(g)


@pytest.mark.parametrize("name", VARIANTS)
def test_each_action_is_logged_once_however_often_the_views_are_read(name, monkeypatch):
    calls = []
    note = game_mod._note
    monkeypatch.setattr(game_mod, "_note", lambda *a: calls.append(1) or note(*a))

    def refuse(self, upto=None):
        raise AssertionError("the deal was rebuilt")

    g = Game.new(name, seed=7)
    for s in range(g.n):
        g.view(s).to_dict()
    monkeypatch.setattr(Game, "replay", refuse)
    _play(g, random.Random(7), lambda g: [g.view(s).to_dict() for s in range(g.n)])
    assert len(calls) == len(g.actions)
    assert g.events()[-1] == {"type": "end"}


@pytest.mark.parametrize("name", VARIANTS)
def test_no_text_is_parsed_to_make_or_read_a_view(name, monkeypatch):
    g = Game.new(name, seed=3)
    rng = random.Random(3)
    for _ in range(len(g.rules.tables.deck) // 2):
        g.apply(rng.choice(g.legal_actions()))

    def refuse(*a, **k):
        raise AssertionError("text parsed")

    monkeypatch.setattr(Card, "parse", classmethod(refuse))
    monkeypatch.setattr(Action, "parse", classmethod(refuse))
    monkeypatch.setattr(game_mod, "parse_cards", refuse)
    for s in range(g.n):
        v = g.view(s)
        v.to_dict()
        assert v.events and v.unseen() is not None


@pytest.mark.parametrize("name", VARIANTS)
def test_a_view_read_late_shows_the_deal_as_it_was(name):
    g = Game.new(name, seed=11)
    rng = random.Random(11)
    kept = []
    while not g.is_over:
        seat = rng.randrange(g.n)
        kept.append((g.view(seat), g.view(seat).to_dict()))
        a = rng.choice(g.legal_actions())
        if rng.random() < 0.5:
            g.apply(a)
        else:
            g.apply_fast(int(a))
    for late, then in kept:
        assert late.to_dict() == then


def test_once_read_the_log_is_kept_as_the_deal_goes_on(monkeypatch):
    g = Game.new("classic", seed=5)
    assert g.view(1).events  # the log is read once, at the start
    _play(g, random.Random(5))
    monkeypatch.setattr(Game, "replay", lambda self, upto=None: pytest.fail("rebuilt"))
    v = g.view(0)
    assert v.outcome is not None and v.tricks_done == 20 and v.events[-1]["type"] == "end"
