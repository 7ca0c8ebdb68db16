"""A view's dict read back: ``View.from_dict`` is the inverse of ``View.to_dict``."""
import json
import random

import pytest

from briscola.game import Game
from briscola.rules import VARIANTS
from briscola.view import View, ViewError


def _same(v: View, back: View) -> None:
    for name in ("seat", "players", "phase", "turn", "dealer", "leader", "hand", "hand_sizes",
                 "trump_suit", "trump_card", "original_trump_card", "talon_size", "talon_next",
                 "talon_known", "trick", "tricks", "tricks_done", "points", "side_points", "sides",
                 "side_of_seat", "known", "hands_visible", "events", "legal", "outcome", "chiamata"):
        assert getattr(back, name) == getattr(v, name), name
    assert back.rules == v.rules


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_view_of_random_deals_reads_back_as_itself(name):
    """Every seat's view at every step of random deals of every variant: the dict read back
    writes the same dict, through JSON text too, and holds the same values."""
    for k in range(2):
        rng = random.Random(f"{name}/{k}")
        game = Game.new(VARIANTS[name], seed=f"view-dict/{name}/{k}")
        while True:
            for seat in range(game.n):
                v = game.view(seat)
                d = v.to_dict()
                back = View.from_dict(json.loads(json.dumps(d)))
                assert back.to_dict() == d
                _same(v, back)
                # what the computer players read of a view works on the one read back
                assert back.unseen() == v.unseen() and back.hidden_counts() == v.hidden_counts()
                assert back.played_mask() == v.played_mask() and back.partners() == v.partners()
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()), seat=game.current_player)


def _a_view(name="chiamata", steps=12):
    game = Game.new(VARIANTS[name], seed="view-dict/bad")
    rng = random.Random(1)
    for _ in range(steps):
        game.apply(rng.choice(game.legal_actions()), seat=game.current_player)
    return game.view(game.current_player).to_dict()


@pytest.mark.parametrize("change, where", [
    (lambda d: d.pop("hand"), "missing hand"),
    (lambda d: d.update(hand_hidden=True), "unknown fields hand_hidden"),
    (lambda d: d.update(seat=9), "view.seat"),
    (lambda d: d.update(seat=True), "view.seat"),
    (lambda d: d.update(players=2), "view.players"),
    (lambda d: d.update(rules={"name": "nothing"}), "view.rules"),
    (lambda d: d.update(rules="classic"), "view.rules"),
    (lambda d: d.update(phase="dancing"), "view.phase"),
    (lambda d: d["hand"].append("ZZ"), "view.hand["),
    (lambda d: d["hand"].append(7), "view.hand["),
    (lambda d: d.update(hand_sizes=[1]), "view.hand_sizes"),
    (lambda d: d.update(trump_suit="X"), "view.trump_suit"),
    (lambda d: d.update(trick=[{"seat": 0}]), "view.trick[0]"),
    (lambda d: d.update(tricks=[{"plays": [], "winner": 0}]), "view.tricks[0]"),
    (lambda d: d.update(tricks_done=d["tricks_done"] + 1), "view.tricks_done"),
    (lambda d: d.update(known=[[]]), "view.known"),
    (lambda d: d.update(hands_visible=[1] * d["players"]), "view.hands_visible"),
    (lambda d: d.update(events=[{"seat": 1}]), "view.events[0]"),
    (lambda d: d.update(legal=["dance"]), "view.legal[0]"),
    (lambda d: d.update(outcome={"points": []}), "view.outcome"),
    (lambda d: d.pop("chiamata"), "view.chiamata"),
    (lambda d: d.update(chiamata=[]), "view.chiamata"),
])
def test_a_malformed_view_is_refused_by_its_field(change, where):
    d = _a_view()
    assert View.from_dict(d).to_dict() == d
    change(d)
    with pytest.raises(ViewError, match=where.replace("[", r"\[")) as e:
        View.from_dict(d)
    assert e.value.code == "bad_view"


@pytest.mark.parametrize("data", [None, [], "view", 3])
def test_not_an_object_is_refused(data):
    with pytest.raises(ViewError, match="expected an object"):
        View.from_dict(data)


def test_a_read_back_view_of_a_finished_deal_keeps_its_outcome():
    game = Game.new(VARIANTS["chiamata"], seed="view-dict/over")
    rng = random.Random(3)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()), seat=game.current_player)
    d = game.view(0).to_dict()
    back = View.from_dict(d)
    assert back.outcome == game.outcome() and back.to_dict() == d
    d["outcome"]["draw"] = "no"
    with pytest.raises(ViewError, match="outcome.draw"):
        View.from_dict(d)
