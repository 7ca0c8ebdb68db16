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


# ---- saves written before the rule book's corrections (tests/saves/, edition 1) -------------

import os

from briscola.bridge import Table
from briscola.cards import Card

SAVES = os.path.join(os.path.dirname(__file__), "saves")


def saved(name):
    with open(os.path.join(SAVES, name)) as f:
        return f.read()


def test_a_save_from_before_resumes_under_edition_1_and_a_new_one_under_the_current():
    from briscola.rules import EDITION
    old = Game.from_json(saved("game_rebury_natural_three.json"))
    assert old.rules.edition == 1
    new = Game.new(old.rules.replace(edition=EDITION), seed=2)
    data = json.loads(new.to_json())
    assert data["rules"]["edition"] == EDITION
    assert Game.from_json(new.to_json()).rules.edition == EDITION
    back = Game.from_json(old.to_json())  # saved again: still edition 1
    assert back.rules.edition == 1 and back == old


def test_old_single_drawn_deal_stays_drawn_and_over():
    table = Table.load(saved("table_single_drawn.json"))
    m = table.match
    assert m.game.outcome().draw and m.is_over and m.winners() == (0, 1)
    assert m.rules.name == "classic"  # a named variant keeps its name


def test_old_rebury_with_the_natural_three_keeps_its_deal():
    g = Game.from_json(saved("game_rebury_natural_three.json"))
    # Edition 1 buried the kings (the two strongest ranks, A and K, with the natural three).
    assert [str(Card(c)) for c in g.reburied] == ["KS", "KD"]
    assert str(Card(g.turned)) == "6B" and len(g.actions) == 5


def test_old_exchange_of_the_seven_keeps_its_limit():
    g = Game.from_json(saved("game_exchange_seven_natural_three.json"))
    assert not any(str(a).startswith("swap") for a in g.legal_actions())
    g2 = Game.from_dict({**json.loads(saved("game_exchange_seven_natural_three.json")),
                         "rules": {**g.rules.to_dict(), "edition": 2}})
    assert "swap-7S" in [str(a) for a in g2.legal_actions()]  # today's rule offers it


def test_old_signal_of_the_seven_still_replays():
    g = Game.from_json(saved("game_signal_seven_natural_three.json"))
    assert g.actions and str(g.view(2).events[-1]["signal"]) == "7"


def test_old_chiamata_points_auction_keeps_its_multiplier():
    g = Game.from_json(saved("game_chiamata_points_75.json"))
    o = g.outcome()
    assert o.target == 75 and not o.cappotto
    flat = Game.from_dict({**json.loads(saved("game_chiamata_points_75.json")),
                           "rules": {"name": "chiamata-points", "edition": 2}}).outcome()
    assert o.game_points == tuple(2 * x for x in flat.game_points)


def test_old_chiamata_match_tied_on_its_target_goes_on():
    table = Table.load(saved("table_chiamata_target_tied.json"))
    m = table.match
    first = m.outcomes()[0]
    # Edition 1: the opponents' cappotto doubled everything, and a tie on top went on.
    assert first.cappotto and first.game_points == (2, 2, 2, 2, -8)
    assert m.deal_number == 1 and not m.is_over and m.game.actions
    # Saved again by today's code, it keeps edition 1.
    again = Table.load(table.save())
    assert again.match.rules.edition == 1 and again.match.score() == m.score()


# ---- saves from before the engine kept its event log as it goes ------------------------------
# tests/data/saves_before_issue11.json: games, matches and tables of many variants, stopped
# mid-deal, saved by the code of commit 88becad ("written_by"), with every seat's view as the
# engine showed it just before the event log was kept as the deal goes on ("views_by": the
# same saves loaded by that engine, which follows the corrected rules). They must still load
# and show the same views, event for event.

FIXTURE = pathlib.Path(__file__).parent / "data" / "saves_before_issue11.json"


def _old_saves() -> dict:
    return json.loads(FIXTURE.read_text(encoding="utf-8"))


def _same_save(text: str, old: str) -> bool:
    """Saved again, the same save (an old one now names its rules' edition, 1)."""
    def strip(d):
        if isinstance(d, dict):
            return {k: strip(v) for k, v in d.items()
                    if not (k == "edition" and v == 1)}
        return d
    return strip(json.loads(text)) == json.loads(old)


def _same_view(view: dict, expected: dict) -> None:
    got = {k: v for k, v in view.items() if k != "rules"}
    if got.get("outcome") and "multiplier" not in (expected.get("outcome") or {}):
        # Chiamata outcomes name their multiplier since these views were recorded.
        got["outcome"] = {k: v for k, v in got["outcome"].items() if k != "multiplier"}
    assert got == expected


@pytest.mark.parametrize("i", range(len(_old_saves()["games"])))
def test_games_saved_before_still_load(i):
    entry = _old_saves()["games"][i]
    g = Game.from_json(entry["save"])
    assert _same_save(g.to_json(), entry["save"])
    for seat, expected in enumerate(entry["views"]):
        _same_view(g.view(seat).to_dict(), expected)


def test_matches_and_tables_saved_before_still_load():
    from briscola.match import Match
    data = _old_saves()
    assert data["matches"] and data["tables"]
    for entry in data["matches"]:
        m = Match.from_json(entry["save"])
        assert _same_save(m.to_json(), entry["save"]) and m.score() == entry["score"]
        for seat, expected in enumerate(entry["views"]):
            _same_view(m.game.view(seat).to_dict(), expected)
    for entry in data["tables"]:
        t = Table.load(entry["save"])
        assert _same_save(t.save(), entry["save"])
        _same_view(t.state(0)["view"], entry["view"])
