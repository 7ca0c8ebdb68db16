"""Briscola Chiamata: the auction, the call, the secret partner and every scoring line."""
import json
import random

import pytest

from briscola.cards import Card
from briscola.errors import IllegalActionError, SaveError
from briscola.game import Game
from briscola.match import Match
from briscola.rules import find_variant

# Seat 0 bids first (the dealer is seat 4). Denari to seat 0 mostly, coppe to seat 1, ...
HANDS = [
    "AD 3D KD HD JD 7D 6D 5D",
    "AC 3C KC HC JC 7C 6C 5C",
    "AS 3S KS HS JS 7S 6S 5S",
    "AB 3B KB HB JB 7B 6B 5B",
    "4D 2D 4C 2C 4S 2S 4B 2B",
]


def deal(name="chiamata", hands=HANDS):
    return Game.from_hands(name, hands, dealer=4)


def legal(g):
    return [str(a) for a in g.legal_actions()]


def run(g, *actions):
    for a in actions:
        g.apply(a)


def test_auction_by_rank_bids_go_down_and_passes_are_final():
    g = deal()
    assert g.phase_name == "auction" and g.current_player == 0
    assert g.view(0).hand_sizes == [8] * 5 and g.talon == []
    assert "pass" in legal(g) and "bid-A" in legal(g) and "bid-64" not in legal(g)
    run(g, "bid-3")
    assert g.current_player == 1
    assert "bid-A" not in legal(g) and "bid-3" not in legal(g) and "bid-K" in legal(g)
    run(g, "pass")  # seat 1 is out for good
    run(g, "bid-K", "pass", "pass")
    assert g.current_player == 0
    run(g, "bid-7")
    assert g.current_player == 2  # seat 1 passed: skipped
    with pytest.raises(IllegalActionError):
        g.apply("bid-A")
    run(g, "pass")
    assert g.phase_name == "call" and g.current_player == 0
    assert legal(g) == ["call-D", "call-C", "call-S", "call-B"]
    run(g, "call-C")  # the 7 of cups, held by seat 1
    assert g.phase_name == "play" and g.trump_suit == "C" and g.current_player == 0
    assert g.auction.called == Card.parse("7C") and g.auction.target == 60


def test_after_the_two_bids_are_points_from_62():
    g = deal()
    run(g, "bid-2")
    assert legal(g)[:3] == ["pass", "bid-62", "bid-63"] and "bid-K" not in legal(g)
    run(g, "bid-70")
    assert "bid-70" not in legal(g) and "bid-71" in legal(g)
    run(g, "pass", "pass", "pass", "pass")
    assert g.auction.caller == 1 and g.phase_name == "call"
    run(g, "call-B")
    assert g.auction.called == Card.parse("2B") and g.auction.target == 70


def test_the_last_player_must_bid_if_everyone_else_passed():
    g = deal()
    run(g, "pass", "pass", "pass", "pass")
    assert "pass" not in legal(g) and g.current_player == 4
    run(g, "bid-A")
    assert g.phase_name == "call" and g.auction.caller == 4


def test_forced_call_of_the_lowest_missing_rank():
    g = deal()
    run(g, "pass", "pass", "pass", "pass", "bid-2")
    # Seat 4 holds every 2 and every 4: the lowest missing rank is the 5.
    assert "call-5D" in legal(g) and "call-5B" in legal(g)
    run(g, "call-5S")
    assert g.auction.called == Card.parse("5S") and g.trump_suit == "S"
    assert g.auction.partner(g) == 2


def test_forced_call_switch_off():
    g = deal("chiamata-plain")
    run(g, "pass", "pass", "pass", "pass", "bid-2")
    assert legal(g) == ["call-D", "call-C", "call-S", "call-B"]


def test_auction_by_points_and_calling_any_card():
    g = deal("chiamata-points")
    assert "bid-61" in legal(g) and "bid-60" not in legal(g) and "bid-A" not in legal(g)
    run(g, "bid-65", "bid-66", "pass", "pass", "pass", "bid-72", "pass")
    assert g.auction.caller == 0 and g.phase_name == "call"
    assert len(legal(g)) == 40
    run(g, "call-AB")
    assert g.trump_suit == "B" and g.auction.target == 72 and g.auction.partner(g) == 3


def test_a_carichi_ends_the_auction_no_trump_follow_suit():
    g = deal()
    run(g, "bid-A", "carichi")
    assert g.phase_name == "play" and g.trump is None and g.auction.caller == 1
    assert g.current_player == 0
    run(g, "5D")  # seat 0 leads coins
    assert legal(g) == [c for c in legal(g) if c.endswith("C")]  # seat 1 has no coins
    run(g, "AC")
    assert legal(g)[0].endswith("S")  # seat 2 has no coins either
    run(g, "5S", "5B")
    assert legal(g) == ["2D", "4D"]  # seat 4 must follow coins
    with pytest.raises(IllegalActionError, match="followed"):
        g.apply("4C")


def secret_partner_game():
    g = deal()
    run(g, "bid-K", "pass", "pass", "pass", "pass", "call-S")  # KS: seat 2 is the partner
    return g


def test_the_partner_is_secret_until_the_called_card_falls():
    g = secret_partner_game()
    assert g.auction.partner(g) == 2
    for seat in (0, 1, 3, 4):
        v = g.view(seat)
        assert v.chiamata["partner"] is None
        assert v.side_of_seat[2] == -1
        text = json.dumps(v.to_dict())
        assert '"partner": 2' not in text
    assert g.view(2).chiamata["partner"] == 2 and g.view(2).side_of_seat[0] == 0
    # Play until seat 2 plays the king of swords.
    while Card.parse("KS") in g.hands[2]:
        seat = g.current_player
        g.apply("KS" if seat == 2 else g.legal_actions()[0])
    for seat in range(5):
        v = g.view(seat)
        assert v.chiamata["partner"] == 2 and v.chiamata["partner_revealed"]
        assert v.side_of_seat == [0, 1, 0, 1, 1]
        assert {"type": "partner", "seat": 2, "card": "KS"} in v.events


def finished(g, points):
    rng = random.Random(0)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    g.points = list(points)
    return g.outcome()


@pytest.mark.parametrize("points,target_line,gp", [
    # caller 0 with partner 2 (king of swords), target 60 (no point raise)
    ([40, 0, 21, 30, 29], "made", (2, -1, 1, -1, -1)),
    ([30, 0, 30, 30, 30], "made 60-60", (2, -1, 1, -1, -1)),
    ([30, 0, 29, 31, 30], "short", (-2, 1, -1, 1, 1)),
    ([60, 0, 60, 0, 0], "cappotto", (4, -2, 2, -2, -2)),
    ([0, 40, 0, 40, 40], "all 120 to the opponents: no bonus", (-2, 1, -1, 1, 1)),
])
def test_scoring_with_a_partner(points, target_line, gp):
    o = finished(secret_partner_game(), points)
    assert o.game_points == gp, target_line
    assert sum(o.game_points) == 0


def test_scoring_alone_self_call():
    g = deal()
    run(g, "bid-A", "pass", "pass", "pass", "pass", "call-D")  # seat 0 holds the ace of coins
    assert g.auction.partner(g) == 0
    assert finished(g.clone(), [61, 20, 20, 10, 9]).game_points == (4, -1, -1, -1, -1)
    assert finished(g.clone(), [59, 20, 20, 11, 10]).game_points == (-4, 1, 1, 1, 1)
    assert finished(g.clone(), [120, 0, 0, 0, 0]).game_points == (8, -2, -2, -2, -2)


def test_scoring_a_carichi():
    g = deal()
    run(g, "carichi")
    o = finished(g.clone(), [61, 15, 15, 15, 14])
    assert o.target == 61 and o.game_points == (4, -1, -1, -1, -1)
    o = finished(g.clone(), [60, 15, 15, 15, 15])
    assert o.game_points == (-4, 1, 1, 1, 1)


@pytest.mark.parametrize("bid,mult", [("bid-70", 1), ("bid-71", 2), ("bid-80", 2),
                                      ("bid-81", 3)])
def test_multipliers_above_70_and_80(bid, mult):
    g = deal()
    run(g, "bid-2", bid, "pass", "pass", "pass", "pass", "call-S")  # 2S: seat 4
    caller, partner = g.auction.caller, g.auction.partner(g)
    assert (caller, partner) == (1, 4)
    points = [0, 50, 0, 0, 50]
    o = finished(g, points)
    assert o.game_points[1] == 2 * mult and o.game_points[4] == 1 * mult
    assert o.game_points[0] == -mult


def test_multipliers_switch_off():
    g = deal("chiamata-plain")
    run(g, "bid-2", "bid-85", "pass", "pass", "pass", "pass", "call-S")
    o = finished(g, [0, 50, 0, 0, 50])
    assert o.game_points == (-1, 2, -1, -1, 1)


def test_point_target_must_be_reached():
    g = deal()
    run(g, "bid-2", "bid-75", "pass", "pass", "pass", "pass", "call-S")
    o = finished(g, [30, 40, 0, 16, 34])
    assert o.target == 75 and o.winners == (1,)


def test_chiamata_match_to_a_target_and_to_a_number_of_deals():
    m = Match("chiamata", seed=1)
    rng = random.Random(1)
    while True:
        g = m.game
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
        if m.is_over:
            break
        m.next_deal()
    assert max(m.score()) >= 10 and sum(m.score()) == 0
    assert Match.from_json(m.to_json()).score() == m.score()
    m = Match("chiamata-5-deals", seed=1)
    for k in range(5):
        g = m.game
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
        if k < 4:
            assert not m.is_over
            m.next_deal()
    assert m.is_over and m.deal_number == 4


def test_chiamata_saves_round_trip_and_refuse_tampering():
    g = secret_partner_game()
    run(g, g.legal_actions()[0])
    back = Game.from_json(g.to_json())
    assert back == g and back.auction.called == g.auction.called
    data = json.loads(g.to_json())
    data["actions"][0] = "bid-64"  # not legal as an opening rank bid
    with pytest.raises(SaveError):
        Game.from_dict(data)


def test_chiamata_options_are_checked():
    with pytest.raises(ValueError, match="players"):
        find_variant("chiamata").replace(players=4)
    with pytest.raises(ValueError, match="exchange_two"):
        find_variant("chiamata").replace(exchange_two=True)
    with pytest.raises(ValueError, match="auction"):
        find_variant("classic").replace(auction="points")
