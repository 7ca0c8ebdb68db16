import pytest

from briscola.actions import Action, ActionError
from briscola.cards import CARDS, Card, CardError, cards_text, parse_cards


def test_every_card_round_trips_through_its_notation():
    for card in CARDS:
        assert Card.parse(str(card)) is card
        assert eval(repr(card)) is card  # repr pastes back


def test_notation_examples():
    assert str(Card.parse("AD")) == "AD"
    assert Card.parse("3S").rank == "3" and Card.parse("3S").suit == "S"
    assert Card.parse("HB").rank == "H" and Card.parse("HB").suit == "B"
    assert cards_text(parse_cards("AD, 3S KB")) == "AD 3S KB"


@pytest.mark.parametrize("text", ["ad", "1D", "AX", "A", "ADD", "", " AD", 10, None])
def test_parsing_is_strict(text):
    with pytest.raises(CardError):
        Card.parse(text)


def test_card_numbers_out_of_range_are_refused():
    with pytest.raises(CardError):
        Card(52)
    with pytest.raises(CardError):
        Card(-1)


@pytest.mark.parametrize("text", ["AD", "swap-7D", "signal-A", "signal-loaded", "pass",
                                  "bid-K", "bid-2", "bid-64", "call-D", "call-AD", "carichi"])
def test_actions_round_trip(text):
    a = Action.parse(text)
    assert str(a) == text
    assert Action.parse(int(a)) is a
    assert eval(repr(a)) is a


@pytest.mark.parametrize("text", ["play AD", "bid-60", "bid-121", "swap-", "call-X", "Pass", 600])
def test_bad_actions_are_refused(text):
    with pytest.raises(ActionError):
        Action.parse(text)
