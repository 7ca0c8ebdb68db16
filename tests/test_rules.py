import pytest

from briscola.cards import Card
from briscola.rules import OPTIONS, VARIANTS, Rules, RulesError, find_variant


def strength_order(rules):
    t = rules.tables
    suit = [c for c in t.deck if c.suit == "B"]
    return "".join(c.rank for c in sorted(suit, key=lambda c: -t.strength[c]))


def test_standard_strength_and_points():
    r = find_variant("classic")
    assert strength_order(r) == "A3KHJ76542"
    pts = {c.rank: r.tables.points[c] for c in r.tables.deck if c.suit == "D"}
    assert pts == {"A": 11, "3": 10, "K": 4, "H": 3, "J": 2, "7": 0, "6": 0, "5": 0, "4": 0,
                   "2": 0}
    assert r.tables.total_points == 120


@pytest.mark.parametrize("name,order", [
    ("natural-three", "AKHJ765432"),
    ("french-southern", "A3KJH76542"),
    ("bisca", "A7KJH65432"),
    ("bosnian", "ATKHJ987"),
])
def test_variant_orders(name, order):
    assert strength_order(find_variant(name)) == order


def test_points_of_special_rankings():
    t = find_variant("french-southern").tables
    assert t.points[Card.parse("JD")] == 3 and t.points[Card.parse("HD")] == 2
    t = find_variant("bisca").tables
    assert t.points[Card.parse("7D")] == 10 and t.points[Card.parse("3D")] == 0
    assert t.points[Card.parse("JD")] == 3 and t.points[Card.parse("HD")] == 2
    t = find_variant("natural-three").tables
    assert t.points[Card.parse("3D")] == 10
    t = find_variant("bosnian").tables
    assert t.points[Card.parse("TD")] == 10


@pytest.mark.parametrize("name,deck,talon", [
    ("classic", 40, 34), ("three", 39, 30), ("four", 40, 28), ("six", 36, 18),
    ("double", 40, 32), ("double-four", 40, 24), ("bosnian", 32, 26),
])
def test_deck_and_talon_sizes(name, deck, talon):
    r = find_variant(name)
    assert len(r.tables.deck) == deck
    assert deck - r.players * r.hand_size == talon
    assert r.tables.total_points == 120


def test_three_players_remove_a_two_and_six_remove_all_twos():
    assert Card.parse("2D") not in find_variant("three").tables.deck
    r = find_variant("three").replace(removed_two="2S")
    assert Card.parse("2S") not in r.tables.deck and Card.parse("2D") in r.tables.deck
    assert not any(c.rank == "2" for c in find_variant("six").tables.deck)


def test_teams():
    assert find_variant("four").tables.teams == ((0, 2), (1, 3))
    assert find_variant("six").tables.teams == ((0, 2, 4), (1, 3, 5))
    assert find_variant("three").tables.teams is None
    assert find_variant("bosnian-four").tables.teams == ((0, 2), (1, 3))


@pytest.mark.parametrize("options,option", [
    (dict(players=7), "players"),
    (dict(players=5), "players"),
    (dict(players=3, teams=True), "teams"),
    (dict(players=4, teams=False), "teams"),
    (dict(southern=True), "southern"),
    (dict(ranking="bisca"), "ranking"),
    (dict(deck="french", ranking="bisca", southern=True), "southern"),
    (dict(deck="french32", natural_three=True), "natural_three"),
    (dict(deck="french32", exchange_two=True), "exchange_two"),
    (dict(signals=True), "signals"),
    (dict(partner_view="first"), "partner_view"),
    (dict(players=3, double=True), "double"),
    (dict(deck="french32", players=3, double=True), "double"),
    (dict(removed_two="2S"), "removed_two"),
    (dict(players=4, open_hands=True, signals=True), "signals"),
    (dict(match="best4"), "match"),
    (dict(double="yes"), "double"),
    (dict(players="2"), "players"),
    (dict(auction="points"), "auction"),
    (dict(mode="chiamata", players=4), "players"),
])
def test_nonsense_is_refused_naming_the_option(options, option):
    with pytest.raises(RulesError) as e:
        Rules(**options)
    assert str(e.value).startswith(option + ":"), str(e.value)


def test_unknown_option_and_variant():
    with pytest.raises(RulesError, match="colour: no such option"):
        find_variant("classic").replace(colour="red")
    with pytest.raises(RulesError, match="no variant named"):
        find_variant("briscolone")


def test_rules_round_trip_through_dicts():
    for rules in VARIANTS.values():
        assert Rules.from_dict(rules.to_dict()) == rules
    custom = find_variant("four").replace(signals=True, partner_view="never")
    back = Rules.from_dict(custom.to_dict())
    assert back == custom and back.signals and back.partner_view == "never"


def test_every_option_is_described():
    for opt in OPTIONS.values():
        assert opt.help and len(opt.help) < 120


def test_registry_has_every_variant_of_the_rule_book():
    names = set(VARIANTS)
    for needed in ["classic", "three", "four", "six", "french", "french-southern",
                   "natural-three", "rebury", "exchange-two", "exchange-seven",
                   "four-show-first", "four-show-never", "four-signals", "scoperta", "double",
                   "bisca", "bosnian", "bosnian-three", "best-of-3", "best-of-5", "best-of-7",
                   "to-120", "best-of-3-draws-count"]:
        assert needed in names
