"""Random play of every registered variant, checking invariants after every action."""
import json
import random

import pytest

from briscola.cards import Card, CardError
from briscola.game import Game
from briscola.rules import VARIANTS

ALL_VARIANTS = list(VARIANTS)
DEALS = 200  # per variant, with every view checked at every step of some deals


def cards_in(obj, out):
    """Every card named anywhere in a JSON-like structure (its values, not its keys)."""
    todo = [obj]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            if len(item) == 2:
                text = item
            elif item.startswith(("swap-", "call-")) and len(item) in (7, 8):
                text = item[-2:]
            else:
                continue
            try:
                out.add(Card.parse(text))
            except CardError:
                pass
        elif isinstance(item, dict):
            todo.extend(item.values())
        elif isinstance(item, (list, tuple)):
            todo.extend(item)
    return out


def may_know(game, seat):
    """What ``seat`` may know, computed independently of the view code."""
    rules = game.rules
    allowed = set(Card(c) for c in game.hands[seat])
    for _order, cards, _w, _p in game.history:
        allowed.update(Card(c) for c in cards)
    allowed.update(Card(c) for c in game.trick)
    if game.turned >= 0:
        allowed.add(Card(game.turned))
    allowed.update(Card(c) for c in game.reburied)
    for a in game.actions:  # exchanges happen in public
        if 64 <= a < 116:
            allowed.add(Card(a - 64))
    if game.faceup >= 0:
        allowed.add(Card(game.faceup))
    if game.public_known:
        allowed.update(Card(c) for c, _s in game.public_known)
    if rules.mode == "chiamata" and game.auction.called >= 0:
        allowed.add(Card(game.auction.called))  # the called card is announced, not its holder
    if rules.open_hands:
        for h in game.hands:
            allowed.update(Card(c) for c in h)
        if game.talon:
            allowed.add(Card(game.talon[-1]))
    if rules.is_team_game:
        partners = [s for s in range(game.n) if s != seat and game.side_of(s) == game.side_of(seat)]
        if rules.partner_view != "never" and not game.talon:
            for p in partners:
                allowed.update(Card(c) for c in game.hands[p])
        if rules.partner_view == "first":
            for p in partners:
                allowed.update(Card(c) for c in game.initial_hands[p])
    return allowed


def check_views(game):
    for seat in range(game.n):
        view = game.view(seat)
        d = view.to_dict()
        json.dumps(d)  # JSON-compatible
        # Legal actions name cards the seat itself holds or may call: not a leak.
        seen = cards_in({k: v for k, v in d.items() if k != "legal"}, set())
        leaked = seen - may_know(game, seat)
        assert not leaked, f"seat {seat} sees {sorted(map(str, leaked))} in {game!r}"
        if game.rules.mode == "chiamata":
            auction = game.auction
            holder = auction.partner(game)
            if auction.done and not auction.revealed(game) and seat != holder:
                assert view.chiamata["partner"] is None
                assert holder == auction.caller or view.side_of_seat[holder] == -1
        unseen = set(view.unseen())
        assert not unseen & set(Card(c) for c in game.hands[seat])
        hidden, talon_hidden = view.hidden_counts()
        assert sum(hidden) + talon_hidden == len(unseen)


def play_random(game, rng, check_every_step):
    while not game.is_over:
        legal = game.legal_actions()
        assert legal, repr(game)
        assert legal == sorted(legal)
        assert sorted(game.legal_actions_fast()) == [int(a) for a in legal]
        action = rng.choice(legal)
        before = len(game.actions)
        game.apply(action, seat=game.current_player)
        assert len(game.actions) == before + 1
        if check_every_step:
            check_views(game)
    check_views(game)


@pytest.mark.parametrize("name", ALL_VARIANTS)
def test_random_play_invariants(name):
    rules = VARIANTS[name]
    deck = sorted(rules.tables.deck)
    for k in range(DEALS):
        rng = random.Random(k)
        game = Game.new(rules, seed=f"sim/{name}/{k}")
        start = game.clone()
        play_random(game, rng, check_every_step=k < 3)
        # Points sum to the deck's total; every card was played exactly once.
        assert sum(game.points) == rules.tables.total_points
        played = sorted(c for _o, cards, _w, _p in game.history for c in cards)
        assert played == deck
        assert all(not h for h in game.hands) and not game.talon and not game.trick
        outcome = game.outcome()
        assert sum(outcome.side_points) == rules.tables.total_points
        # JSON round-trip and replay reproduce the deal exactly.
        assert Game.from_json(game.to_json()) == game
        assert game.replay() == game
        # A clone taken at the start, given the same actions, ends the same.
        for a in game.actions:
            start.apply_fast(a)
        assert start == game
        # Every draw in the full log matches the cards the seats later played.
        log = game.events()
        assert sum(1 for e in log if e["type"] == "play") == len(deck)
        assert sum(1 for e in log if e["type"] == "trick") == len(game.history)


def test_clone_is_independent():
    game = Game.new("four-signals", seed=3)
    copy = game.clone()
    assert copy == game
    game.apply(game.legal_actions()[0])
    assert copy != game
    assert len(copy.actions) == 0


def test_replay_of_a_prefix():
    game = Game.new("classic", seed=9)
    rng = random.Random(1)
    play_random(game, rng, check_every_step=False)
    half = game.replay(upto=17)
    assert half.actions == game.actions[:17]
    assert len(half.trick) == 1
