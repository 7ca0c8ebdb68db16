"""The rules as played in Spain, Portugal and Croatia (docs/rules.md §11.9 to §11.11).

Every test quotes the sentence of docs/rules.md it checks, with its section
(tests/test_docs.py checks that each quotation is there). Deals are written as compact text,
as in tests/test_rulebook.py: the hands, the face-up card and the next cards of the talon.
"""
import random

import pytest

from briscola.ai import make_bot
from briscola.ai.learn import model_name
from briscola.cards import Card
from briscola.errors import RulesError
from briscola.game import Game
from briscola.match import Match
from briscola.rules import Rules, find_variant


def legal(game):
    return [str(a) for a in game.legal_actions()]


def play(game, *actions):
    for a in actions:
        game.apply(a)


BRISCA = Rules(exchange_brisca=True)


# ---- §11.9 Spanish Brisca: its exchange of the face-up card ---------------------------------

@pytest.mark.parametrize("faceup", ["AS", "3S", "KS", "HS", "JS"])
def test_the_seven_of_trump_takes_a_face_up_card_above_the_seven(faceup):
    # §11.9: "A player who has won at least one trick may, on his turn and before he plays a
    # card, give the 7 of trump for a face-up card above the seven"
    g = Game.from_hands(BRISCA, ["7S 5C 2C", "4C 7C 7D"], trump=faceup, talon="4D 5D")
    assert "swap-7S" not in legal(g)  # no trick won yet
    play(g, "5C", "4C")  # seat 0 takes the trick and leads again
    assert g.current_player == 0 and "swap-7S" in legal(g)
    g.apply("swap-7S")
    assert Card.parse(faceup) in g.hands[0] and g.faceup == Card.parse("7S")
    assert [e for e in g.events() if e["type"] == "exchange"][-1]["gave"] == "7S"


@pytest.mark.parametrize("faceup", ["6S", "5S", "4S"])
def test_the_seven_never_takes_a_face_up_card_below_it(faceup):
    # §11.9: "Brisca's 7 and 2 each take the cards on their side of the seven"
    g = Game.from_hands(BRISCA, ["7S 5C 2C", "4C 7C 7D"], trump=faceup, talon="4D 5D")
    play(g, "5C", "4C")
    assert not any(a.startswith("swap") for a in legal(g))


@pytest.mark.parametrize("faceup,allowed", [("7S", True), ("6S", True), ("4S", True),
                                            ("JS", False), ("AS", False), ("3S", False)])
def test_the_two_of_trump_takes_a_face_up_card_of_seven_or_below(faceup, allowed):
    # §11.9: "or the 2 of trump for a face-up card of seven or below (7, 6, 5 or 4)"
    g = Game.from_hands(BRISCA, ["2S 5C 3C", "4C 7C 7D"], trump=faceup, talon="4D 5D")
    assert "swap-2S" not in legal(g)  # Brisca's 2 also waits for a won trick
    play(g, "5C", "4C")
    assert ("swap-2S" in legal(g)) is allowed


def test_the_two_may_take_the_seven_given_back_before_it_one_exchange_a_turn():
    # §11.9: "So the 2 may in turn take a 7 given back before it [Bn]. One exchange a turn
    # [Bv]: after one, the same player plays a card."
    g = Game.from_hands(BRISCA, ["7S 2S 5C", "4C 7C 7D"], trump="AS", talon="4D 5D 6D 6C")
    play(g, "5C", "4C")
    g.apply("swap-7S")
    assert g.faceup == Card.parse("7S")
    assert not any(a.startswith("swap") for a in legal(g))  # not twice in one turn
    play(g, "AS", "7C")  # seat 0 wins again and leads: a new turn
    assert g.current_player == 0 and "swap-2S" in legal(g)
    g.apply("swap-2S")
    assert Card.parse("7S") in g.hands[0] and g.faceup == Card.parse("2S")


def test_the_exchange_lasts_to_the_last_round_of_drawing():
    # §11.9: "at any trick after a won one, to the last round of drawing"
    seen = 0
    for seed in range(60):
        g = Game.new(BRISCA, seed=seed)
        rng = random.Random(seed)
        while g.talon:
            seat = g.current_player
            seven = Card.of("7", "DCSB"[g.trump])
            if (len(g.talon) == 2 and seven in g.hands[seat] and g.faceup >= 0
                    and g.rules.tables.strength[g.faceup] > g.rules.tables.strength[seven]
                    and any(h[2] == seat for h in g.history)):
                assert "swap-" + str(seven) in legal(g)  # the last round of drawing
                seen += 1
                # the 7 of the house rule of §10.3 needs more than one round left
                g7 = Game(Rules(exchange_seven=True), [str(Card(c)) for c in g.deck],
                          g.dealer)
                for a in g.actions:
                    g7.apply_fast(a)
                assert not any(str(a).startswith("swap") for a in g7.legal_actions())
                break
            g.apply_fast(rng.choice([a for a in g.legal_actions_fast() if a < 52]))
    assert seen >= 3


def test_once_the_face_up_card_is_drawn_nothing_is_exchanged():
    # §11.9: "while the face-up card still lies under the talon"
    g = Game.new(find_variant("brisca"), seed=11)
    rng = random.Random(2)
    while g.talon:
        g.apply_fast(rng.choice([a for a in g.legal_actions_fast() if a < 52]))
    while not g.is_over:
        assert all(a < 52 for a in g.legal_actions_fast())
        g.apply_fast(g.legal_actions_fast()[0])


@pytest.mark.parametrize("options,option", [
    (dict(exchange_brisca=True, exchange_two=True), "exchange_brisca"),
    (dict(exchange_brisca=True, exchange_seven=True), "exchange_brisca"),
    (dict(exchange_brisca=True, deck="french", ranking="bisca"), "exchange_brisca"),
    (dict(exchange_brisca=True, deck="french32"), "exchange_brisca"),
    (dict(exchange_brisca=True, players=5, mode="chiamata"), "exchange_brisca"),
])
def test_the_brisca_exchange_is_refused_where_it_means_nothing(options, option):
    # §11.9: "exchange_brisca is refused with either of them, with Bisca's order (where the 7
    # is the second-best card) and with the 32-card deck."
    with pytest.raises(RulesError) as e:
        Rules(**options)
    assert str(e.value).startswith(option + ":"), str(e.value)


def test_three_players_of_brisca_take_out_all_four_twos():
    # §11.9: "Three players take all four 2s out and play with 36 cards (removed twos)"
    r = find_variant("brisca-three")
    deck = r.tables.deck
    assert len(deck) == 36 and not any(c.rank == "2" for c in deck)
    assert r.tables.total_points == 120
    assert len(deck) - 3 * r.hand_size == 27  # nine rounds of drawing


def test_six_players_of_brisca_play_the_48_card_deck():
    # §11.9: "Six players play two teams of three, as in §11.3, but with the 48-card Spanish
    # deck: the forty cards and the 8s and 9s, nothing taken out"
    r = find_variant("brisca-six")
    t = r.tables
    assert len(t.deck) == 48 and t.teams == ((0, 2, 4), (1, 3, 5)) and t.total_points == 120
    # §11.9: "The 9 and the 8 rank between the jack and the 7 and count nothing"
    assert t.order == "A3KHJ9876542"
    assert t.points[Card.parse("9D")] == t.points[Card.parse("8D")] == 0
    g = Game.new(r, seed=2)
    assert len(g.talon) == 30
    # a 9 takes an 8 and a 7 of its suit, a jack takes the 9
    g2 = Game.from_hands(r, ["9C 2B 3B", "8C 4B 5B", "7C 6B 7B", "JC 2D 3D", "4D 5D 6D", "7D 4S 5S"],
                         trump="AS")
    for c in ("9C", "8C", "7C", "JC", "4D", "7D"):
        g2.apply(c)
    assert [e for e in g2.events() if e["type"] == "trick"][-1]["winner"] == 3


@pytest.mark.parametrize("options", [dict(deck="spanish48"), dict(deck="spanish48", players=4),
                                     dict(deck="spanish48", players=6, removed="fours")])
def test_the_48_card_deck_is_for_six_players(options):
    # §11.9: "The 48-card deck is for six players only"
    with pytest.raises(RulesError) as e:
        Rules(**options)
    assert str(e.value).split(":")[0] in ("deck", "removed"), str(e.value)


# ---- §11.10 Bisca with more cards --------------------------------------------------------

def test_bisca_de_nove_deals_nine_cards_and_draws_eleven_rounds():
    # §11.10: "With hand_cards 9 each player holds nine cards and the game goes on as with
    # three"
    r = find_variant("bisca-nine")
    g = Game.new(r, seed=4)
    assert [len(h) for h in g.hands] == [9, 9]
    assert len(g.talon) == 22
    assert g.faceup == g.deck[-1]  # the trump from the bottom of the deck, as in §11.7
    tricks = 0
    while not g.is_over:
        g.apply_fast(g.legal_actions_fast()[0])
        if not g.trick:
            tricks += 1
            if g.talon:
                assert [len(h) for h in g.hands] == [9, 9]
    assert tricks == 20 and sum(g.points) == 120


@pytest.mark.parametrize("options", [dict(hand_cards=9, double=True),
                                     dict(hand_cards=9, players=5, mode="chiamata"),
                                     dict(hand_cards=5)])
def test_a_hand_of_nine_is_refused_with_double_and_chiamata(options):
    # §11.10: "A hand of nine is refused with double Briškula (four cards) and in Chiamata
    # (eight)."
    with pytest.raises(RulesError) as e:
        Rules(**options)
    assert str(e.value).startswith("hand_cards:"), str(e.value)


def test_bisca_four_plays_in_two_teams():
    # §11.10: "Bisca de Quatro is the four-player game of §11.2 with Bisca's order"
    r = find_variant("bisca-four")
    assert r.tables.teams == ((0, 2), (1, 3)) and r.tables.order == "A7KJH65432"


# ---- §11.11 Croatian and Istrian Briškula ---------------------------------------------------

def test_the_croatian_match_is_won_by_the_first_pair_to_four_deals():
    # §11.11: "the first pair to win four deals wins it, the engine's best7"
    m = Match(find_variant("briskula"), seed=3)
    assert m.rules.tables.teams == ((0, 2), (1, 3))
    wins = [0, 0]
    rng = random.Random(1)
    deals = 0
    while not m.is_over:
        g = m.game
        while not g.is_over:
            g.apply_fast(rng.choice(g.legal_actions_fast()))
        pts = [g.points[0] + g.points[2], g.points[1] + g.points[3]]
        if pts[0] != pts[1]:
            wins[pts[1] > pts[0]] += 1
        deals += 1
        if not m.is_over:
            m.next_deal()
    assert max(wins) == 4 and min(wins) < 4
    assert m.winners() == ((0,) if wins[0] == 4 else (1,))  # the side that won four


@pytest.mark.parametrize("name,players", [("briskula-three", 3), ("briskula-six", 6)])
def test_three_or_six_take_out_the_four_fours(name, players):
    # §11.11: "Three or six play with 36 cards, the four 4s taken out instead of the 2s"
    r = find_variant(name)
    deck = r.tables.deck
    assert r.players == players and len(deck) == 36
    assert not any(c.rank == "4" for c in deck) and sum(c.rank == "2" for c in deck) == 4


@pytest.mark.parametrize("options", [dict(removed="fours"), dict(players=4, removed="twos"),
                                     dict(players=6, removed="twos"),
                                     dict(players=3, deck="french32", removed="fours"),
                                     dict(players=5, mode="chiamata", removed="fours")])
def test_removed_only_with_three_or_six_and_forty_cards(options):
    # §11.11: "Only with three or six players and a 40-card deck"
    with pytest.raises(RulesError) as e:
        Rules(**options)
    assert str(e.value).startswith("removed:"), str(e.value)


def test_removed_two_only_with_one_two_taken_out():
    # §11.11: "removed_two only with two"
    with pytest.raises(RulesError) as e:
        Rules(players=3, removed="fours", removed_two="2S")
    assert str(e.value).startswith("removed_two:")


# ---- every country's preset: the computer plays it, saved games come back -----------------

COUNTRY = ["brisca", "brisca-three", "brisca-four", "brisca-six", "bisca-nine", "bisca-four", "briskula",
           "briskula-three", "briskula-six"]


def test_a_brisca_match_to_six_won_deals():
    # §11.9: "A match is played to an agreed number of won deals, one, three or six [Bl]"
    m = Match(find_variant("brisca").replace(match="first6"), seed=5)
    rng = random.Random(3)
    while not m.is_over:
        g = m.game
        while not g.is_over:
            g.apply_fast(rng.choice(g.legal_actions_fast()))
        if not m.is_over:
            m.next_deal()
    won = [0, 0]
    for g in m.history():
        if g.points[0] != g.points[1]:
            won[g.points[1] > g.points[0]] += 1
    assert max(won) == 6 and min(won) < 6 and m.winners() == ((0,) if won[0] == 6 else (1,))
    assert m.score() == won


def test_the_expert_makes_brisca_s_exchange():
    # Every preset is played whole by the expert in tests/test_ai.py; here, the exchange itself.
    g = Game.from_hands(BRISCA, ["7S 5C 2C", "4C 7C 7D"], trump="AS", talon="4D 5D")
    play(g, "5C", "4C")
    d = make_bot("expert", seed=1).decide(g.view(0))
    assert str(d.action) == "swap-7S"


def test_no_learned_model_is_used_for_rules_it_was_not_trained_on():
    # The learned models know none of these rules: the expert searches and plays its rules of
    # thumb there (docs/players.md).
    for name in ("brisca", "brisca-three", "bisca-nine", "briskula-three", "briskula-six"):
        assert model_name(find_variant(name)) is None, name
    assert model_name(find_variant("briskula")) == model_name(find_variant("four"))


@pytest.mark.parametrize("name", COUNTRY)
def test_a_country_preset_round_trips_through_a_save(name):
    g = Game.new(find_variant(name), seed=9)
    rng = random.Random(0)
    for _ in range(7):
        g.apply(rng.choice(g.legal_actions()))
    back = Game.from_dict(g.to_dict())
    assert back.rules == g.rules and back.legal_actions() == g.legal_actions()
    assert back.hands == g.hands
