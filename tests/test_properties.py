"""Property tests: the trick rule and the state contract on arbitrary deals."""
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from briscola.cards import Card
from briscola.errors import IllegalActionError
from briscola.game import Game, trick_winner
from briscola.rules import VARIANTS

NAMES = sorted(n for n, r in VARIANTS.items() if r.mode == "classic")


@given(name=st.sampled_from(NAMES), data=st.data())
@settings(max_examples=200, deadline=None)
def test_trick_winner_is_the_highest_trump_else_highest_of_suit_led(name, data):
    rules = VARIANTS[name]
    deck = list(rules.tables.deck)
    cards = data.draw(st.lists(st.sampled_from(deck), min_size=2, max_size=6, unique=True))
    trump = data.draw(st.integers(0, 3))
    i = trick_winner([int(c) for c in cards], trump, rules)
    win = cards[i]
    strength = rules.tables.strength
    trumps = [c for c in cards if c.suit_index == trump]
    if trumps:
        assert win == max(trumps, key=lambda c: strength[c])
    else:
        led = [c for c in cards if c.suit_index == cards[0].suit_index]
        assert win == max(led, key=lambda c: strength[c])


@given(name=st.sampled_from(NAMES), seed=st.integers(0, 2**32), moves=st.integers(0, 60),
       bad=st.sampled_from([str(c) for c in Card._interned] + ["swap-2S", "signal-A"]))
@settings(max_examples=150, deadline=None)
def test_illegal_actions_never_change_the_state(name, seed, moves, bad):
    game = Game.new(VARIANTS[name], seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    text = game.to_json()
    legal = {str(a) for a in game.legal_actions()}
    if bad in legal:
        return
    try:
        game.apply(bad)
    except IllegalActionError:
        pass
    else:
        raise AssertionError(f"{bad} was accepted but not legal")
    assert game.to_json() == text
    assert Game.from_json(text) == game


@given(name=st.sampled_from(NAMES), seed=st.integers(0, 2**32))
@settings(max_examples=60, deadline=None)
def test_explicit_deck_reproduces_a_seeded_deal(name, seed):
    game = Game.new(VARIANTS[name], seed=seed)
    again = Game(VARIANTS[name], [str(Card(c)) for c in game.deck], game.dealer)
    assert again.hands == game.hands and again.talon == game.talon
