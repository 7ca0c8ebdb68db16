"""Every reason a computer player gives reads in Italian too."""
import json

import pytest

from briscola import bridge
from briscola.ai import make_bot
from briscola.ai.reasons import translate
from briscola.game import Game
from briscola.rules import VARIANTS

LEVELS = ["beginner", "intermediate", "expert"]


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_reason_translates(name):
    rules = VARIANTS[name]
    for k in range(2):
        game = Game.new(rules, seed=f"reasons/{k}")
        bots = [make_bot(LEVELS[(s + k) % 3], seed=s) for s in range(game.n)]
        while not game.is_over:
            seat = game.current_player
            d = bots[seat].decide(game.view(seat))
            it = translate(d.reason, "it", rules.deck)
            assert it != d.reason, f"no Italian for {d.reason!r}"
            assert not any(w in it for w in (" the ", " of ", "trick")), it
            game.apply(d.action)


def test_card_names_in_italian():
    assert translate("Leads the ace of coins", "it") == "Apre con l'asso di denari"
    assert translate("Plays the queen of hearts", "it", "french") == "Gioca la donna di cuori"
    assert translate("Plays the jack of clubs", "it", "french") == "Gioca il fante di fiori"
    assert translate("Plays the jack of clubs", "it", "italian") == "Gioca il fante di bastoni"
    assert translate("Leads the ace of coins", "en") == "Leads the ace of coins"
    assert translate("Something new", "it") == "Something new"


def test_bridge_gives_reasons_in_the_language_asked():
    bridge.reset()
    seats = [{"kind": "bot", "level": "intermediate"}, {"kind": "human"}]
    json.loads(bridge.call("new_match", json.dumps({"rules": "classic", "seed": 4, "seats": seats})))
    state = json.loads(bridge.call("state", json.dumps({"seat": 1})))["result"]
    if state["view"]["turn"] == 1:
        bridge.call("act", json.dumps({"seat": 1, "action": state["view"]["legal"][0]}))
    reply = json.loads(bridge.call("bot_step", json.dumps({"seat": 1, "lang": "it"})))["result"]
    assert reply["bot"]["reason"]["params"]["text"].split()[0] in ("Apre", "Prende", "Lascia", "Gioca", "Carica",
                                                 "Cede")
    bad = json.loads(bridge.call("bot_step", json.dumps({"lang": "fr"})))
    assert bad["error"]["code"] == "bad_request"
