"""Rules of play, one at a time, on deals written as compact text."""
import pytest

from briscola.actions import Action
from briscola.cards import Card
from briscola.errors import IllegalActionError, RulesError
from briscola.game import Game
from briscola.rules import find_variant


def play(game, *cards):
    for c in cards:
        game.apply(c)


def snapshot(game):
    return (game.to_json(), [h[:] for h in game.hands], game.talon[:], game.trick[:],
            game.points[:], game.faceup, game.order)


# ---- the worked examples of docs/rules.md §8 ----------------------------------------------

@pytest.mark.parametrize("lead,reply,winner", [
    ("5B", "AB", 1),  # same suit, higher card wins
    ("5C", "KB", 0),  # different suit, no trump: the leader wins
    ("AD", "6S", 1),  # a trump wins
])
def test_worked_examples_two_players(lead, reply, winner):
    g = Game.from_hands("classic", [f"{lead} 2C 3C", f"{reply} 7C 7D"], trump="4S")
    assert g.trump_suit == "S" and g.current_player == 0
    play(g, lead, reply)
    assert g.history[-1][2] == winner
    assert g.current_player == winner  # the winner leads the next trick


def test_worked_example_four_players():
    # Seats in playing order: D=0, C=1, B=2, A=3; partners 0+2 (D, B) and 1+3 (C, A).
    g = Game.from_hands("four", ["4S 2D 2B", "JS 4D 4B", "2C 5D 6B", "5B 6D 7B"], trump="3C")
    play(g, "4S", "JS", "2C", "5B")
    order, cards, w, p = g.history[-1]
    assert w == 2 and p == 2  # B takes the trick (the jack is worth 2) for team B+D
    assert g.side_points() == [2, 0]
    assert g.current_player == 2


def test_highest_trump_wins_and_off_suit_never_wins():
    g = Game.from_hands("three", ["KB AD 2C", "3B 4D 5C", "2S 6D 6C"], trump="7S")
    play(g, "KB", "3B", "2S")
    assert g.history[-1][2] == 2  # the 2 of trump beats the 3 of the suit led
    g = Game.from_hands("three", ["KB AD 2C", "3B 4D 5C", "AC 6D 6B"], trump="7S")
    play(g, "KB", "3B", "AC")
    assert g.history[-1][2] == 1  # an ace of another suit never wins


def test_trump_led_highest_trump_wins():
    g = Game.from_hands("classic", ["KS 2C 3C", "AS 7C 7D"], trump="4S")
    play(g, "KS", "AS")
    assert g.history[-1][2] == 1


def test_drawing_order_and_the_face_up_card_is_drawn_last():
    g = Game.from_hands("classic", ["5B 2C 3C", "AB 7C 7D"], trump="4S", talon="KD HD")
    play(g, "5B", "AB")  # seat 1 wins, draws first
    assert Card.parse("KD") in g.hands[1] and Card.parse("HD") in g.hands[0]
    while len(g.talon) > 0:
        play(g, g.legal_actions()[0])
        play(g, g.legal_actions()[0])
    last_drawer = g.history[-1][2] ^ 1  # the loser of the last drawing trick draws last
    assert Card.parse("4S") in g.hands[last_drawer]
    assert g.view(1 - last_drawer).known[last_drawer] == [Card.parse("4S")]


def test_a_deal_ends_when_the_hands_are_empty():
    g = Game.new("classic", seed=11)
    while not g.is_over:
        g.apply(g.legal_actions()[-1])
    assert g.tricks_done == 20 and sum(g.points) == 120
    assert g.current_player is None and g.legal_actions() == []
    with pytest.raises(IllegalActionError, match="over"):
        g.apply("AD")


# ---- checked apply: illegal actions change nothing -----------------------------------------

def test_illegal_card_changes_nothing():
    g = Game.from_hands("classic", ["5B 2C 3C", "AB 7C 7D"], trump="4S")
    before = snapshot(g)
    with pytest.raises(IllegalActionError, match="AB is not in seat 0's hand"):
        g.apply("AB")
    assert snapshot(g) == before


def test_out_of_turn_changes_nothing():
    g = Game.from_hands("classic", ["5B 2C 3C", "AB 7C 7D"], trump="4S")
    before = snapshot(g)
    with pytest.raises(IllegalActionError, match="turn"):
        g.apply("AB", seat=1)
    assert snapshot(g) == before


def test_bad_text_changes_nothing():
    g = Game.new("classic", seed=1)
    before = snapshot(g)
    for bad in ["ad", "", "pass", "swap-7D", "signal-A", "bid-K", 999]:
        with pytest.raises(IllegalActionError):
            g.apply(bad)
    assert snapshot(g) == before


def test_deck_must_be_a_permutation():
    deck = list(find_variant("classic").tables.deck)
    with pytest.raises(ValueError):
        Game(find_variant("classic"), deck[:-1] + deck[:1])
    with pytest.raises(ValueError):
        Game(find_variant("three"), deck[:39])  # 2D is not in the three-player deck
    with pytest.raises(RulesError):
        Game(find_variant("classic"), deck, dealer=2)


def test_same_seed_same_deal_different_seed_different_deal():
    assert Game.new("classic", seed=7).deck == Game.new("classic", seed=7).deck
    assert Game.new("classic", seed=7).deck != Game.new("classic", seed=8).deck
    assert Game.new("classic", seed="x").dealer == Game.new("classic", seed="x").dealer


def test_first_trick_is_led_by_the_seat_after_the_dealer():
    for dealer in range(4):
        g = Game.new("four", seed=3, dealer=dealer)
        assert g.current_player == (dealer + 1) % 4


def test_cards_are_dealt_one_at_a_time_from_the_seat_after_the_dealer():
    rules = find_variant("classic")
    deck = list(rules.tables.deck)
    g = Game(rules, deck, dealer=0)
    assert sorted(g.hands[1]) == sorted([deck[0], deck[2], deck[4]])
    assert sorted(g.hands[0]) == sorted([deck[1], deck[3], deck[5]])
    assert g.faceup == deck[6]


# ---- house rules ---------------------------------------------------------------------------

def test_exchange_two_before_the_first_trick_only():
    g = Game.from_hands("exchange-two", ["2S 2C 3C", "AB 7C 7D"], trump="AS")
    assert Action.parse("swap-2S") in g.legal_actions()
    g.apply("swap-2S")
    assert Card.parse("AS") in g.hands[0] and g.faceup == Card.parse("2S")
    assert g.view(1).trump_card == Card.parse("2S")
    assert g.view(1).known[0] == [Card.parse("AS")]  # everyone saw the exchange
    assert g.current_player == 0  # still seat 0's turn: it must play now
    assert not any(str(a).startswith("swap") for a in g.legal_actions())
    g2 = Game.from_hands("exchange-two", ["5B 2C 3C", "AB 7C 2S"], trump="AS")
    play(g2, "5B")
    assert Action.parse("swap-2S") in g2.legal_actions()  # seat 1, still the first trick
    play(g2, "AB")
    assert not any(str(a).startswith("swap") for a in g2.legal_actions())


def test_exchange_two_off_by_default():
    g = Game.from_hands("classic", ["2S 2C 3C", "AB 7C 7D"], trump="AS")
    with pytest.raises(IllegalActionError):
        g.apply("swap-2S")


def test_exchange_seven_needs_a_won_trick_and_a_drawing_round_to_spare():
    g = Game.from_hands("exchange-seven", ["7S 2C 3C", "AB 7C 7D"], trump="AS", talon="4D 5D")
    assert Action.parse("swap-7S") not in g.legal_actions()  # has not won a trick
    play(g, "2C", "7C")  # seat 0 wins (2 led, 7 of the suit: no, 7C beats 2C)
    assert g.history[-1][2] == 1
    g = Game.from_hands("exchange-seven", ["7S 2C 3C", "AB 7C 7D"], trump="AS", talon="4D 5D")
    play(g, "3C", "7C")
    assert g.history[-1][2] == 0 and g.current_player == 0
    assert Action.parse("swap-7S") in g.legal_actions()
    g.apply("swap-7S")
    assert Card.parse("AS") in g.hands[0] and g.faceup == Card.parse("7S")


def test_exchange_seven_not_in_the_last_round():
    g = Game.new("exchange-seven", seed=3)
    while len(g.talon) > 2:
        g.apply_fast(g.legal_actions_fast()[0])
    assert not any(str(a).startswith("swap") for a in g.legal_actions())


def test_signals_rules():
    g = Game.from_hands("four-signals", ["AS 3D 2C", "4D 4B 4C", "5D 5B 5C", "6D 6B 6C"],
                        trump="KS")
    assert not any(str(a).startswith("signal") for a in g.legal_actions())  # first trick
    play(g, "2C", "4C", "5C", "6C")  # seat 3 wins with the 6
    assert g.current_player == 3
    play(g, g.legal_actions()[0])
    assert g.current_player == 0
    legal = [str(a) for a in g.legal_actions()]
    assert "signal-A" in legal and "signal-loaded" in legal and "signal-3" not in legal
    g.apply("signal-A")
    assert not any(str(a).startswith("signal") for a in g.legal_actions())  # once a trick
    assert g.current_player == 0
    partner, opponent = g.view(2), g.view(1)
    assert partner.events[-1] == {"type": "signal", "seat": 0, "signal": "A"}
    assert opponent.events[-1] == {"type": "signal", "seat": 0, "signal": None}


def test_rebury_turned_up_ace():
    rules = find_variant("rebury")
    first = ["2C", "3C", "4C", "5C", "6C", "7C", "AD", "2D"]
    deck = [Card.parse(c) for c in first]
    deck += [c for c in rules.tables.deck if c not in deck]
    g = Game(rules, deck, dealer=1)
    assert g.faceup == Card.parse("2D")
    assert g.reburied == [Card.parse("AD")]
    talon_pos = len(g.talon) - 1 - g.talon.index(Card.parse("AD"))
    face_down = len(g.talon) - 1
    assert abs(talon_pos - face_down / 2) <= 1  # in the middle of the face-down talon
    v = g.view(0)
    # Everyone learns that the ace went back into the talon, nobody where (docs/rules.md §10.1).
    assert v.talon_known == [] and g.view(1).talon_known == []
    assert {"type": "rebury", "card": "AD"} in v.events


def test_bisca_trump_is_the_bottom_card():
    rules = find_variant("bisca")
    deck = list(rules.tables.deck)
    g = Game(rules, deck, dealer=0)
    assert g.faceup == deck[-1] and g.talon[-1] == deck[6]


def test_bosnian_short_trick_for_three():
    g = Game.new("bosnian-three", seed=4)
    while len(g.talon) > 2 or g.trick:
        g.apply(g.legal_actions()[0])
    g.apply(g.legal_actions()[0]); g.apply(g.legal_actions()[0]); g.apply(g.legal_actions()[0])
    # 2 cards were left for 3 players: only the two who drew play the next trick.
    assert len(g.order) == 2
    sizes = sorted(len(h) for h in g.hands)
    assert sizes == [2, 3, 3]
    g.apply(g.legal_actions()[0]); g.apply(g.legal_actions()[0])
    assert [len(h) for h in g.hands] == [2, 2, 2] and len(g.order) == 3


def test_double_briskula_two_plays_a_trick():
    g = Game.new("double", seed=2)
    assert all(len(h) == 4 for h in g.hands)
    leader = g.current_player
    seats = []
    for _ in range(4):
        seats.append(g.current_player)
        g.apply(g.legal_actions()[0])
    assert seats == [leader, 1 - leader, leader, 1 - leader]
    order, cards, w, p = g.history[-1]
    assert len(cards) == 4
    assert all(len(h) == 4 for h in g.hands) and len(g.talon) == 28


def test_partners_see_hands_in_the_last_tricks():
    g = Game.new("four", seed=5)
    v = g.view(0)
    assert v.hands_visible == [True, False, False, False]
    while g.talon:
        g.apply(g.legal_actions()[0])
    v = g.view(0)
    assert v.hands_visible == [True, False, True, False]
    assert v.known[2] == [Card(c) for c in g.hands[2]]


def test_partners_never_see_hands():
    g = Game.new("four-show-never", seed=5)
    while g.talon:
        g.apply(g.legal_actions()[0])
    assert g.view(0).hands_visible == [True, False, False, False]


def test_partners_see_hands_before_the_first_trick():
    g = Game.new("four-show-first", seed=5)
    assert g.view(0).hands_visible == [True, False, True, False]
    lead = g.current_player
    partner = (lead + 2) % 4
    shown = list(g.hands[lead])
    for _ in range(4):
        g.apply(g.legal_actions()[0])
    v = g.view(partner)
    # Once play starts the hand is no longer shown, but what was seen is remembered;
    # the card drawn since is not known.
    assert not v.hands_visible[lead]
    assert sorted(v.known[lead]) == sorted(Card(c) for c in shown if c in g.hands[lead])
    assert len(v.known[lead]) == 2


def test_scoperta_everything_is_face_up():
    g = Game.new("scoperta", seed=5)
    v = g.view(0)
    assert v.hands_visible == [True, True]
    assert v.known[1] == [Card(c) for c in g.hands[1]]
    assert v.talon_next == Card(g.talon[-1])


def test_outcomes_draw_and_shared_wins():
    g = Game.new("classic", seed=1)
    while not g.is_over:
        g.apply_fast(g.legal_actions_fast()[0])
    g.points = [60, 60]
    o = g.outcome()
    assert o.draw and o.winning_seats() == ()
    g = Game.new("three", seed=1)
    while not g.is_over:
        g.apply_fast(g.legal_actions_fast()[0])
    g.points = [45, 45, 30]
    o = g.outcome()
    assert not o.draw and o.winners == (0, 1)
