import json
import pathlib
import random

import pytest

from briscola.errors import SaveError
from briscola.game import Game


def played(name="classic", seed=3, moves=15):
    g = Game.new(name, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        g.apply(rng.choice(g.legal_actions()))
    return g


def test_round_trip_mid_deal():
    g = played()
    back = Game.from_json(g.to_json())
    assert back == g and back.to_json() == g.to_json()
    assert back.view(0).to_dict() == g.view(0).to_dict()


def tamper(text, fn):
    data = json.loads(text)
    fn(data)
    return json.dumps(data)


@pytest.mark.parametrize("change", [
    lambda d: d.update(format="chess"),
    lambda d: d.update(version=2),
    lambda d: d.update(rules={"name": "nonsense"}),
    lambda d: d.update(rules={"players": 9}),
    lambda d: d.update(deck=d["deck"].replace("AD", "AX")),
    lambda d: d.update(deck=" ".join(d["deck"].split()[:-1])),
    lambda d: d.update(deck=" ".join(sorted(d["deck"].split()))) or d["actions"].insert(0, "KB"),
    lambda d: d.update(dealer=5),
    lambda d: d.update(dealer="0"),
    lambda d: d.update(actions="AD"),
    lambda d: d["actions"].append("pass"),
    lambda d: d["actions"].insert(3, d["actions"][0]),
    lambda d: d.pop("deck"),
    lambda d: d.update(seed=[1]),
])
def test_tampered_saves_are_refused(change):
    text = played().to_json()
    with pytest.raises(SaveError):
        Game.from_json(tamper(text, change))


@pytest.mark.parametrize("text", ["", "not json", "null", "[]", "42", '{"format": 1}'])
def test_corrupt_saves_are_refused(text):
    with pytest.raises(SaveError):
        Game.from_json(text)


# ---- saves written before the engine kept its event log as it goes --------------------------
# tests/data/saves_before_issue11.json was written by the code of commit 88becad (its
# "written_by"): games, matches and tables of many variants, stopped mid-deal, with every
# seat's view as that code showed it. They must still load and show the same views.

FIXTURE = pathlib.Path(__file__).parent / "data" / "saves_before_issue11.json"


def _old_saves() -> dict:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def _same_view(view: dict, expected: dict) -> None:
    got = {k: v for k, v in view.items() if k != "rules"}
    assert got == expected


@pytest.mark.parametrize("i", range(len(_old_saves()["games"])))
def test_games_saved_before_still_load(i):
    entry = _old_saves()["games"][i]
    g = Game.from_json(entry["save"])
    assert g.to_json() == entry["save"]
    for seat, expected in enumerate(entry["views"]):
        _same_view(g.view(seat).to_dict(), expected)


def test_matches_and_tables_saved_before_still_load():
    from briscola.bridge import Table
    from briscola.match import Match
    data = _old_saves()
    assert data["matches"] and data["tables"]
    for entry in data["matches"]:
        m = Match.from_json(entry["save"])
        assert m.to_json() == entry["save"] and m.score() == entry["score"]
        for seat, expected in enumerate(entry["views"]):
            _same_view(m.game.view(seat).to_dict(), expected)
    for entry in data["tables"]:
        t = Table.load(entry["save"])
        assert t.save() == entry["save"]
        _same_view(t.state(0)["view"], entry["view"])
