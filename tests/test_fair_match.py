"""A match at a table that deals fairly (py/briscola/fairplay.py ``past``; match.py
``Match.of_deals``): each deal is dealt by the fair protocol and known whole only once it is
over and checked, so a device's engine makes the match from the deals' public records, each
found fair on that device: the score, the end, the winners and the next deal's dealer are the
very ones the whole match gives, and a record that is not the match's is refused."""
import dataclasses
import json
import random

import pytest

from briscola.bridge import Bridge
from briscola.cards import CARDS
from briscola.game import Game
from briscola.masked import MaskedDeal
from briscola.match import Match
from briscola.rules import find_variant

from test_masked import _ask


def _fair_deal(rules, game, past, seats=None):
    """``game`` played through one device's masked engine that sees every seat (the fair
    protocol standing in as what it guarantees), then given to a bridge's fair requests with
    the match's ``past``: what its ``fair_state`` says at the end."""
    d = MaskedDeal(rules, game.dealer, sees=range(rules.players))
    rng = random.Random(len(past))

    def sync():
        while d.needs():
            for p in d.needs():
                d.reveal(p, game.deck[p])
    sync()
    while not game.is_over:
        cur = game.current_player
        a = int(rng.choice(d.view(cur).legal))
        game.apply(a, cur)
        d.act(a, cur)
        sync()
    b = Bridge()
    got = _ask(b, "fair_deal", {"deal": d.to_dict(), "past": past, **({"seats": seats} if seats else {})})
    assert "error" not in got, got
    return b, _ask(b, "fair_state", {"seat": 0})


@pytest.mark.parametrize("name, fmt", [("classic", "best3"), ("four", "first3"), ("classic", "to120"),
                                       ("chiamata", None)])
def test_a_match_of_fair_deals_is_the_whole_match(name, fmt):
    rules = find_variant(name)
    if fmt:
        rules = dataclasses.replace(rules, match=fmt)
    whole = Match(rules, seed=f"fair-match/{name}/{fmt}")
    past = []
    while True:
        game = Game.new(rules, seed=f"{whole.seed}/{whole.deal_number}", dealer=whole.game.dealer)
        assert game.deck == whole.game.deck
        b, state = _fair_deal(rules, game, past)
        for a in game.actions:
            whole.game.apply(a)
        assert state["checked"]["fair"] is True
        # the match as the whole match says it, this deal counted
        assert state["match"] == whole.public(), (state["match"], whole.public())
        record = state["record"]
        assert record["deal"] == len(past)
        past.append(record)
        if whole.is_over:
            break
        whole.next_deal()
        # the next deal: its dealer the match's, the score so far before a card is played
        nxt = _ask(Bridge(), "fair_deal", {"rules": rules.to_dict(), "sees": [0], "past": past})
        assert nxt["dealer"] == whole.game.dealer
        during = _ask(Bridge(), "fair_deal", {"rules": rules.to_dict(), "sees": [0], "past": past,
                                               "dealer": whole.game.dealer})
        assert "error" not in during
        assert len(past) < 12
    # a match that is over starts no deal with its deals
    over = _ask(Bridge(), "fair_deal", {"rules": rules.to_dict(), "sees": [0], "past": past})
    assert over["error"]["code"] == "bad_request" and "over" in over["error"]["message"]


def _first_deal(fmt, seed):
    """A classic match of format ``fmt`` after its first deal, played fair: its rules, the whole
    match (that deal played in it too) and the deal's record."""
    rules = dataclasses.replace(find_variant("classic"), match=fmt)
    whole = Match(rules, seed=seed)
    game = Game.new(rules, seed=f"{whole.seed}/0", dealer=whole.game.dealer)
    _, state = _fair_deal(rules, game, [])
    for a in game.actions:
        whole.game.apply(a)
    return rules, whole, state["record"]


def test_the_match_is_carried_in_the_fair_save_and_the_state_mid_deal_has_its_score():
    rules, whole, record = _first_deal("best5", "fair-match/save")
    past = [record]
    whole.next_deal()
    b = Bridge()
    got = _ask(b, "fair_deal", {"rules": rules.to_dict(), "sees": [0, 1], "past": past})
    assert "error" not in got
    saved = _ask(b, "fair_save", {})
    assert saved["past"] == past
    again = Bridge()
    assert "error" not in _ask(again, "fair_deal", {"deal": saved["deal"], "past": saved["past"]})
    needs = _ask(again, "fair_open", {"cards": []})["needs"]
    while needs:
        needs = _ask(again, "fair_open", {"cards": [[p, str(CARDS[whole.game.deck[p]])] for p in needs]})["needs"]
    mid = _ask(again, "fair_state", {"seat": 0})
    assert mid["match"]["score"] == whole.score() and mid["match"]["deal"] == 1
    assert mid["match"]["over"] is False and len(mid["match"]["deals"]) == 1


def test_a_record_that_is_not_this_matchs_is_refused_and_changes_nothing():
    rules, _, record = _first_deal("best3", "fair-match/bad")
    b = Bridge()
    ok = _ask(b, "fair_deal", {"rules": rules.to_dict(), "sees": [0], "past": [record]})
    assert "error" not in ok
    before = _ask(b, "fair_save", {})
    cases = [
        ({"past": [record], "dealer": record["dealer"]}, "dealer"),           # not the match's next dealer
        ({"past": [{**record, "deal": 1}]}, "deal 1"),                          # numbered out of order
        ({"past": [{**record, "actions": record["actions"][:-1]}]}, None),      # unfinished
        ({"past": [record, record]}, "deal 2"),                                 # the same deal twice
        ({"past": "x"}, "past"),
    ]
    for extra, word in cases:
        got = _ask(b, "fair_deal", {"rules": rules.to_dict(), "sees": [0], **extra})
        assert "error" in got, extra
        if word:
            assert word in got["error"]["message"], (extra, got)
        assert _ask(b, "fair_save", {}) == before  # the deal it had is kept
    # other rules than the match's
    four = find_variant("classic")
    got = _ask(Bridge(), "fair_deal", {"rules": four.to_dict(), "sees": [0], "past": [record]})
    assert "error" in got and "rules" in got["error"]["message"]
