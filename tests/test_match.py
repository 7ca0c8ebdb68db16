import random

import pytest

from briscola.errors import IllegalActionError, SaveError
from briscola.game import Game
from briscola.match import Match
from briscola.rules import find_variant


def finish(game, rng):
    while not game.is_over:
        game.apply_fast(rng.choice(game.legal_actions_fast()))


def force_points(game, points):
    finish(game, random.Random(0))
    game.points = list(points)


def test_single_deal_match():
    m = Match("classic", seed=1)
    finish(m.game, random.Random(1))
    assert m.is_over and m.winners() == m.game.outcome().winners
    with pytest.raises(IllegalActionError):
        m.next_deal()


def test_best_of_three_needs_two_won_deals_and_rotates_the_dealer():
    m = Match("best-of-3", seed=2)
    dealers = [m.game.dealer]
    force_points(m.game, [70, 50])
    assert not m.is_over and m.score() == [1, 0]
    m.next_deal()
    dealers.append(m.game.dealer)
    force_points(m.game, [60, 60])  # drawn: replayed, counts for nobody
    assert m.score() == [1, 0] and not m.is_over
    m.next_deal()
    dealers.append(m.game.dealer)
    force_points(m.game, [80, 40])
    assert m.is_over and m.winners() == (0,)
    assert dealers[1] == (dealers[0] + 1) % 2 and dealers[2] == dealers[0]


def test_drawn_deal_counted_for_both():
    m = Match("best-of-3-draws-count", seed=2)
    force_points(m.game, [60, 60])
    assert m.score() == [1, 1]
    m.next_deal()
    force_points(m.game, [60, 60])
    assert m.score() == [2, 2] and m.is_over and m.winners() == (0, 1)


def test_first_to_120_card_points():
    m = Match("to-120", seed=3)
    force_points(m.game, [70, 50])
    assert m.score() == [70, 50] and not m.is_over
    m.next_deal()
    force_points(m.game, [40, 80])
    assert m.score() == [110, 130] and m.winners() == (1,)


@pytest.mark.parametrize("fmt,need", [("best-of-5", 3), ("best-of-7", 4)])
def test_best_of_n(fmt, need):
    m = Match(fmt, seed=4)
    for k in range(need):
        force_points(m.game, [100, 20])
        if k < need - 1:
            assert not m.is_over
            m.next_deal()
    assert m.is_over and m.score()[0] == need


def test_next_deal_refused_mid_deal():
    m = Match("best-of-3", seed=2)
    with pytest.raises(IllegalActionError):
        m.next_deal()


def test_deals_are_reproducible_from_the_match_seed():
    a, b = Match("best-of-5", seed="s"), Match("best-of-5", seed="s")
    assert a.game.deck == b.game.deck and a.first_dealer == b.first_dealer
    assert a.game.deck == Game.new("best-of-5", seed="s/0", dealer=a.first_dealer).deck


def test_match_round_trip_and_corrupt_saves():
    m = Match("best-of-3", seed=5)
    rng = random.Random(2)
    finish(m.game, rng)
    if not m.is_over:
        m.next_deal()
        for _ in range(7):
            m.game.apply(rng.choice(m.game.legal_actions()))
    text = m.to_json()
    back = Match.from_json(text)
    assert back.to_json() == text and back.score() == m.score()
    for bad in ["", "[]", "{}", text.replace('"version":1', '"version":9'),
                text.replace('"seed":5', '"seed":6'), text[:-5],
                text.replace('"deals":[', '"deals":[["ZZ"],')]:
        with pytest.raises(SaveError):
            Match.from_json(bad)


def test_rules_format_is_validated():
    with pytest.raises(ValueError):
        find_variant("classic").replace(match="best-of-4")
