"""The rule book's corrections (edition 2, docs/rules.md §14), each from its own words.

Every test quotes the sentence of docs/rules.md it checks, with its section
(tests/test_docs.py checks that each quotation is there). Deals are written as compact text
(hands, the face-up card, the next cards of the talon) so that each scenario reads like the
rule.
"""
import json
import random

import pytest

from briscola import bridge
from briscola.actions import Action
from briscola.cards import Card
from briscola.errors import IllegalActionError, RulesError
from briscola.game import Game
from briscola.match import Match, chiamata_winners
from briscola.rules import Rules, find_variant
from test_chiamata_rules import deal as chiamata_deal  # its five hands, seat 4 deals


def play(game, *actions):
    for a in actions:
        game.apply(a)


def legal(game):
    return [str(a) for a in game.legal_actions()]


def finish(game, rng=None):
    rng = rng or random.Random(0)
    while not game.is_over:
        game.apply_fast(rng.choice(game.legal_actions_fast()))


def force_points(game, points):
    finish(game)
    game.points = list(points)


# ---- 1. a drawn single deal ---------------------------------------------------------------

def test_a_drawn_single_deal_is_replayed_by_default():
    # §9: "it counts for nobody and another deal is played, in a single-deal game too, until
    # one side wins"
    m = Match("classic", seed=5)
    force_points(m.game, [60, 60])
    assert not m.is_over and m.winners() is None
    m.next_deal()
    force_points(m.game, [60, 60])
    assert not m.is_over
    m.next_deal()
    force_points(m.game, [59, 61])
    assert m.is_over and m.winners() == (1,)
    with pytest.raises(IllegalActionError):
        m.next_deal()


def test_a_drawn_single_deal_counted_for_both_ends_drawn():
    # §9: "With both it counts as won by both sides [M]: a single-deal game then ends drawn"
    m = Match(find_variant("classic").replace(drawn_deal="both"), seed=5)
    force_points(m.game, [60, 60])
    assert m.is_over and m.winners() == (0, 1)


# ---- 2. the 7 of trump takes the face-up card whatever it is -------------------------------

@pytest.mark.parametrize("options,faceup", [
    (dict(natural_three=True), "3S"),  # the 3 ranks below the 7 but is worth 10
    ({}, "2S"),                         # weaker than the 7 in every order
    ({}, "AS"),
])
def test_the_seven_of_trump_takes_any_face_up_card(options, faceup):
    # §10.3: "A player holding the 7 of trump who has won at least one trick may, on his
    # turn, exchange it for the face-up card, whatever that card is"
    rules = Rules(exchange_seven=True, **options)
    g = Game.from_hands(rules, ["7S 5C 2C", "4C 7C 7D"], trump=faceup, talon="4D 5D")
    assert "swap-7S" not in legal(g)  # no trick won yet
    play(g, "5C", "4C")  # seat 0 takes the trick and leads again
    assert g.current_player == 0 and "swap-7S" in legal(g)
    g.apply("swap-7S")
    assert Card.parse(faceup) in g.hands[0] and g.faceup == Card.parse("7S")
    assert "swap-7S" not in legal(g)


# ---- 3. Chiamata checks its options like every other mode ------------------------------------

CHIAMATA = dict(players=5, mode="chiamata")


@pytest.mark.parametrize("options,option", [
    (dict(southern=True), "southern"),                                # Italian cards
    (dict(ranking="bisca"), "ranking"),                               # Italian cards
    (dict(deck="french", ranking="bisca", natural_three=True), "natural_three"),
    (dict(deck="french", ranking="bisca", southern=True), "southern"),
    (dict(removed_two="2S"), "removed_two"),                          # five players remove none
    (dict(points_multipliers=True), "points_multipliers"),            # auction by rank
])
def test_chiamata_refuses_what_every_mode_refuses(options, option):
    with pytest.raises(RulesError) as e:
        Rules(**CHIAMATA, **options)
    assert str(e.value).startswith(option + ":"), str(e.value)


@pytest.mark.parametrize("options,option", [
    (dict(raise_after_two=False), "raise_after_two"),            # classic: no auction
    (dict(points_multipliers=True), "points_multipliers"),
    (dict(**CHIAMATA, raise_after_two="no"), "raise_after_two"),
    (dict(**CHIAMATA, auction="points", points_multipliers=1), "points_multipliers"),
    (dict(match="first4"), "match"),
    (dict(edition=3), "edition"),
])
def test_the_new_options_are_checked(options, option):
    with pytest.raises(RulesError) as e:
        Rules(**options)
    assert str(e.value).startswith(option + ":"), str(e.value)


def test_an_old_save_keeps_its_unchecked_chiamata_options():
    # Edition 1 checked no deck option in Chiamata: a game saved then still loads.
    assert Rules(**CHIAMATA, southern=True, edition=1).tables.order == "A3KJH76542"


def test_chiamata_with_french_cards_keeps_the_right_order():
    north = Rules(**CHIAMATA, deck="french")
    south = Rules(**CHIAMATA, deck="french", southern=True)
    assert north.tables.order == "A3KHJ76542" and south.tables.order == "A3KJH76542"
    assert Rules(**CHIAMATA, natural_three=True).tables.order == "AKHJ765432"


# ---- 4. Chiamata match result -----------------------------------------------------------------

@pytest.mark.parametrize("score,winners", [
    ([5, 3, 3, -5, -6], (0, 1, 2)),     # one best, two share the next best: all three
    ([6, 2, -1, -1, -6], (0, 1)),       # the two best scores
    ([9, -1, -1, -1, -6], (0, 1, 2, 3)),  # three tied second: fewer than four
    ([8, -2, -2, -2, -2], (0,)),        # four tied second: he wins alone
    ([4, 4, -2, -3, -3], (0, 1)),       # several share the best score: they all win
    ([3, 3, 3, -4, -5], (0, 1, 2)),
])
def test_chiamata_match_winners(score, winners):
    # §12.9: "the players with the two best scores. If one player alone has the best score,
    # the players who share the next best score win with him, provided they are fewer than
    # four (four tied second: he wins alone). If several players share the best score, all
    # of them win, and only they."
    assert chiamata_winners(score) == winners


def test_chiamata_match_to_a_target_ends_when_someone_reaches_it_even_tied():
    # §12.9: "A match to a target ends after the first deal at which someone has reached it,
    # even if others reached it too."
    rules = Rules(**CHIAMATA, match_target=2)
    seen_tie = False
    for seed in range(12):
        m = Match(rules, seed=seed)
        rng = random.Random(seed)
        while True:
            finish(m.game, rng)
            score = m.score()
            reached = max(score) >= 2
            assert m.is_over == reached
            if reached:
                assert m.winners() == chiamata_winners(score)
                seen_tie |= score.count(max(score)) > 1
                break
            m.next_deal()
    assert seen_tie  # the case the old rule got wrong did occur


def test_chiamata_match_of_a_number_of_deals_names_the_two_best():
    m = Match(Rules(**CHIAMATA, match_deals=2), seed=3)
    rng = random.Random(3)
    finish(m.game, rng)
    assert not m.is_over
    m.next_deal()
    finish(m.game, rng)
    assert m.is_over and m.winners() == chiamata_winners(m.score())


# ---- 5. first to 3, 5 or 7 won deals ----------------------------------------------------------

@pytest.mark.parametrize("fmt,need", [("first3", 3), ("first5", 5), ("first7", 7)])
def test_first_to_n_won_deals(fmt, need):
    # §9: "when a side has won 3, 5 or 7 deals"
    m = Match(find_variant("classic").replace(match=fmt), seed=1)
    for k in range(need - 1):
        force_points(m.game, [70, 50])
        assert not m.is_over
        m.next_deal()
        force_points(m.game, [60, 60])  # replayed: counts for nobody
        assert not m.is_over
        m.next_deal()
    force_points(m.game, [30, 90])
    assert m.score() == [need - 1, 1] and not m.is_over
    m.next_deal()
    force_points(m.game, [61, 59])
    assert m.score() == [need, 1] and m.is_over and m.winners() == (0,)


def test_first_to_five_goes_on_where_best_of_five_stops():
    first, best = (Match(find_variant("classic").replace(match=f), seed=1)
                   for f in ("first5", "best5"))
    for m in (first, best):
        for k in range(3):
            force_points(m.game, [70, 50])
            if k < 2:
                m.next_deal()
    assert best.is_over and not first.is_over


# ---- 6. re-bury by points ------------------------------------------------------------------------

def rebury_deal(rules, turned, dealer=1, hands="2C 3C 4C 5C 6C 7C"):
    first = [*hands.split(), *turned]
    deck = [Card.parse(c) for c in first]
    deck += [c for c in rules.tables.deck if c not in deck]
    return Game(rules, deck, dealer=dealer)


@pytest.mark.parametrize("options,buried,kept", [
    ({}, ["AD", "3D"], "KD"),
    (dict(natural_three=True), ["3D", "AD"], "KD"),  # §10.1: "still ace and three"
    (dict(deck="french32"), ["TD", "AD"], "KD"),
])
def test_rebury_the_two_ranks_worth_most(options, buried, kept):
    # §10.1: "If the card turned up for trump is of one of the two ranks worth the most points
    # (ace and three; ace and 7 in Portuguese Bisca; ace and ten with the 32-card deck; still
    # ace and three when the three ranks in natural order), it goes back into the middle of
    # the face-down talon and the next card is turned, again and again until the face-up card
    # is of another rank."
    rules = Rules(rebury=True, **options)
    hands = "7C 8C 9C JC HC KC" if rules.deck == "french32" else "2C 3C 4C 5C 6C 7C"
    g = rebury_deal(rules, [*buried, kept], hands=hands)
    assert g.reburied == [Card.parse(c) for c in buried]
    assert g.faceup == Card.parse(kept) and g.trump_suit == "D"


def test_rebury_in_bisca_buries_the_seven():
    rules = Rules(deck="french", ranking="bisca", rebury=True)
    # Bisca turns the bottom card: the last of the deck.
    rest = [c for c in rules.tables.deck if str(c) not in ("7D", "KD")]
    deck = rest + [Card.parse("KD"), Card.parse("7D")]
    g = Game(rules, deck, dealer=1)
    assert g.reburied == [Card.parse("7D")] and g.faceup == Card.parse("KD")


def test_nobody_learns_where_the_buried_card_lies_nor_who_draws_it():
    # §10.1: "Everyone sees which cards were buried; nobody learns where they lie in the
    # talon, nor, later, who draws them."
    rules = Rules(rebury=True)
    g = rebury_deal(rules, ["AD", "2D"])
    ace = Card.parse("AD")
    for seat in (0, 1):
        v = g.view(seat)
        assert v.talon_known == [] and {"type": "rebury", "card": "AD"} in v.events
        assert ace in v.unseen()
    rng = random.Random(1)
    while not any(ace in h for h in g.hands):
        g.apply_fast(rng.choice(g.legal_actions_fast()))
    drawer = next(s for s in (0, 1) if ace in g.hands[s])
    other = 1 - drawer
    mine, theirs = g.view(drawer), g.view(other)
    assert ace in mine.hand
    assert ace not in theirs.known[drawer] and ace in theirs.unseen()
    assert "AD" not in json.dumps(theirs.to_dict()["events"][1:])


# ---- 7. signals name the same five cards ------------------------------------------------------------

@pytest.mark.parametrize("options", [dict(natural_three=True), {},
                                     dict(deck="french", ranking="bisca")])
def test_signals_name_ace_three_king_horse_jack_whatever_the_ranking(options):
    # §10.5: "the ace, three, king, horse (queen) or jack of trump (these five cards, whatever
    # the order of the cards in play"
    rules = Rules(players=4, signals=True, **options)
    g = Game.from_hands(rules, ["3S 7S AC", "4D 4B 4C", "5D 5B 5C", "6D 6B 6C"], trump="HS")
    play(g, "AC", "4C", "5C", "6C")  # seat 0 takes the first trick
    offered = [a for a in legal(g) if a.startswith("signal")]
    assert "signal-3" in offered and "signal-7" not in offered


# ---- 8, 9. Chiamata scoring -----------------------------------------------------------------------

def outcome_with(g, points):
    finish(g)
    g.points = list(points)
    return g.outcome()


@pytest.mark.parametrize("bid", [61, 75, 85])
def test_points_auction_scores_flat_by_default(bid):
    # §12.8: "Multipliers, auction by points (points_multipliers, off)" ... "Off, the table
    # applies whatever the bid"
    g = chiamata_deal(find_variant("chiamata-points"))
    play(g, f"bid-{bid}", "pass", "pass", "pass", "pass", "call-KS")  # seat 2 holds it
    assert outcome_with(g.clone(), [60, 0, 40, 10, 10]).game_points == (2, -1, 1, -1, -1)
    assert outcome_with(g.clone(), [30, 30, 20, 20, 20]).game_points == (-2, 1, -1, 1, 1)


def test_points_auction_multipliers_are_a_switch():
    # §12.8: "the same thresholds on the points bid"
    rules = find_variant("chiamata-points").replace(points_multipliers=True)
    for bid, mult in ((70, 1), (75, 2), (85, 3)):
        g = chiamata_deal(rules)
        play(g, f"bid-{bid}", "pass", "pass", "pass", "pass", "call-KS")
        o = outcome_with(g, [60, 0, 40, 10, 10])
        assert o.game_points == (2 * mult, -mult, mult, -mult, -mult)


def test_rank_auction_point_raise_multiplies():
    # §12.8: "when the winning bid was raised in points above 70, every figure of the table
    # doubles; above 80, it triples."
    g = chiamata_deal(find_variant("chiamata"))
    play(g, "bid-2", "bid-85", "pass", "pass", "pass", "pass", "call-S")  # 2S: seat 4
    assert outcome_with(g, [0, 50, 0, 0, 50]).game_points == (-3, 6, -3, -3, 3)


def test_cappotto_bonus_is_added_after_the_multiplier():
    # §12.8: "when the caller's side takes all 120 points, the caller gets 2 more, the
    # partner 1 more and each opponent 1 less" ... "The bonus is added after any multiplier,
    # not multiplied."
    g = chiamata_deal(find_variant("chiamata"))
    play(g, "bid-2", "bid-75", "pass", "pass", "pass", "pass", "call-S")
    o = outcome_with(g.clone(), [0, 70, 0, 0, 50])
    assert o.cappotto and o.game_points == (-3, 6, -3, -3, 3)  # x2, then +2 / +1 / -1


def test_no_bonus_when_the_opponents_take_all_120():
    # §12.8: "When the opponents take all 120, there is no bonus."
    g = chiamata_deal(find_variant("chiamata"))
    play(g, "bid-2", "bid-75", "pass", "pass", "pass", "pass", "call-S")
    o = outcome_with(g, [40, 0, 40, 40, 0])
    assert not o.cappotto and o.game_points == (2, -4, 2, 2, -2)


def test_cappotto_alone():
    # §12.8: "(alone: 4 more, each opponent 1 less)"
    g = chiamata_deal(find_variant("chiamata"))
    play(g, "bid-A", "pass", "pass", "pass", "pass", "call-D")  # his own ace: alone
    assert outcome_with(g, [120, 0, 0, 0, 0]).game_points == (8, -2, -2, -2, -2)


# ---- 10. the raise after the 2 ---------------------------------------------------------------------

def test_the_raise_after_the_two_is_on_by_default():
    g = chiamata_deal(find_variant("chiamata"))
    play(g, "bid-2")
    assert "bid-62" in legal(g) and g.phase_name == "auction"


def test_without_the_raise_the_first_two_ends_the_auction_and_60_is_enough():
    # §12.2: "Switched off, the first 2 named ends the auction at once"; §12.7: "auction by
    # rank, ended by a rank: 60; a 60-all tie goes to the caller"
    rules = find_variant("chiamata").replace(raise_after_two=False)
    g = chiamata_deal(rules)
    play(g, "bid-K", "bid-2")
    assert g.phase_name == "call" and g.auction.caller == 1 and g.current_player == 1
    assert not any(a.startswith("bid") for a in legal(g))
    play(g, "call-S")
    assert g.auction.target == 60 and g.auction.called == Card.parse("2S")
    assert outcome_with(g, [30, 30, 0, 30, 30]).winners == (0,)  # 60-60: the caller's side


# ---- 11. the dealer keeps rotating across matches ---------------------------------------------------

def test_a_new_match_at_the_same_table_continues_the_rotation():
    # §4: "The deal passes to the next seat after every deal, and on from one match to the
    # next when the same players stay at the table"
    m = Match("best-of-3", seed=4, first_dealer=0)
    force_points(m.game, [70, 50])
    m.next_deal()
    force_points(m.game, [70, 50])
    assert m.is_over and m.game.dealer == 1
    again = m.rematch(seed=9)
    assert again.game.dealer == 0 and again.first_dealer == 0
    chiamata = Match("chiamata", seed=1, first_dealer=3)
    assert chiamata.rematch().game.dealer == 4
    assert chiamata.rematch(find_variant("chiamata-points")).game.dealer == 4
    with pytest.raises(RulesError, match="players"):
        m.rematch("three")


def test_the_bridge_continues_the_rotation_for_the_same_players():
    bridge.reset()
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}]

    def new(rules, n_seats=seats, **seed):
        reply = json.loads(bridge.call("new_match", json.dumps(
            {"rules": rules, "seats": n_seats, **seed})))
        return reply["result"]["view"]["dealer"]

    first = new("classic")
    assert new("classic") == (first + 1) % 2
    assert new("best-of-3") == first  # other rules, same table: the rotation goes on
    save = json.loads(bridge.call("state", json.dumps({"save": True})))["result"]["save"]
    bridge.reset()
    bridge.call("load", json.dumps({"save": save}))
    assert new("classic") == (first + 1) % 2  # after a reload too
    assert new("three", [*seats, seats[1]]) in (0, 1, 2)  # another table: a fresh draw
    # A chosen seed replays its deal exactly, the dealer included, wherever it is played.
    bridge.reset()
    fresh = new("classic", seed=11)
    assert [new("classic", seed=11) for _ in range(3)] == [fresh] * 3
    bridge.reset()


# ---- 12. Bosnian Briskula for 2 to 6 ------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_bosnian_for_two_to_six_players_each_alone(players):
    # §11.8: "Two to six play each alone, or four play two against two"
    rules = Rules(deck="french32", players=players)
    assert not rules.is_team_game
    g = Game.new(rules, seed=players)
    finish(g, random.Random(players))
    taken = sorted(c for cards in g.captured() for c in cards)
    assert taken == sorted(rules.tables.deck) and sum(g.points) == 120
    assert Rules(deck="french32", players=4, teams=True).is_team_game


def test_a_new_game_follows_the_current_edition():
    bridge.reset()
    reply = json.loads(bridge.call("new_match", json.dumps(
        {"rules": {"name": "classic", "edition": 1}, "seed": 1})))
    assert reply["error"]["message"].startswith("edition:")
    reply = json.loads(bridge.call("check_rules", json.dumps(
        {"rules": {"name": "chiamata", "southern": True}})))
    assert reply["error"]["message"].startswith("southern:")
    bridge.reset()


def test_the_outcome_names_its_multiplier():
    g = chiamata_deal(find_variant("chiamata-points"))
    play(g, "bid-85", "pass", "pass", "pass", "pass", "call-KS")
    assert outcome_with(g, [60, 0, 40, 10, 10]).to_dict()["multiplier"] == 1
    g = chiamata_deal(find_variant("chiamata"))
    play(g, "bid-2", "bid-85", "pass", "pass", "pass", "pass", "call-S")
    assert outcome_with(g, [0, 50, 0, 0, 50]).to_dict()["multiplier"] == 3
