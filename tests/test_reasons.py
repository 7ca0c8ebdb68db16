"""Reasons are data (``{code, params}``) and every code reads in every language."""
import json
from pathlib import Path

import pytest

from briscola import bridge
from briscola.ai import make_bot
from briscola.ai.reasons import CODES as BOT_CODES
from briscola.ai.explain import CODES as COACH_CODES
from briscola.game import Game
from briscola.rules import VARIANTS

LEVELS = ["beginner", "intermediate", "expert"]
LOCALES = Path(__file__).resolve().parent.parent / "js" / "locales"
CARD_PARAMS = {"card", "card2", "alt"}


def locale(lang: str) -> dict:
    text = (LOCALES / f"{lang}.js").read_text(encoding="utf-8")
    body = text[text.index("\nexport default ") + len("\nexport default "):].strip()
    return json.loads(body[:-1])


@pytest.mark.parametrize("lang", sorted(p.stem for p in LOCALES.glob("*.js") if p.name != "index.js"))
def test_every_code_has_a_sentence(lang):
    words = locale(lang)
    for code in BOT_CODES + COACH_CODES:
        assert f"reason.{code}" in words, f"{lang}: no sentence for {code}"


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_reason_is_a_known_code_with_its_params(name):
    rules = VARIANTS[name]
    en = locale("en")
    seen = set()
    for k in range(2):
        game = Game.new(rules, seed=f"reasons/{k}")
        bots = [make_bot(LEVELS[(s + k) % 3], seed=s) for s in range(game.n)]
        while not game.is_over:
            seat = game.current_player
            d = bots[seat].decide(game.view(seat))
            r = d.reason
            assert set(r) == {"code", "params"} and r["code"] in BOT_CODES, r
            sentence = en[f"reason.{r['code']}"]
            for p in __import__("re").findall(r"\{(\w+)[,}]", sentence):
                assert p in r["params"], (r, sentence)
            for key in CARD_PARAMS & set(r["params"]):
                assert r["params"][key] in {str(c) for c in rules.tables.deck}
            json.dumps(r)
            seen.add(r["code"])
            game.apply(d.action)
    assert seen


def test_bridge_gives_reasons_as_data():
    bridge.reset()
    seats = [{"kind": "bot", "level": "intermediate"}, {"kind": "human"}]
    json.loads(bridge.call("new_match", json.dumps({"rules": "classic", "seed": 4, "seats": seats})))
    state = json.loads(bridge.call("state", json.dumps({"seat": 1})))["result"]
    if state["view"]["turn"] == 1:
        bridge.call("act", json.dumps({"seat": 1, "action": state["view"]["legal"][0]}))
    reply = json.loads(bridge.call("bot_step", json.dumps({"seat": 1})))["result"]
    assert reply["bot"]["reason"]["code"] in BOT_CODES
    assert reply["bot"]["reason"]["params"]["card"] == reply["bot"]["action"]
    bad = json.loads(bridge.call("bot_step", json.dumps({"lang": "fr"})))
    assert bad["error"]["code"] == "bad_request"
