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


# ---- hostile saves: the library's own entry points raise SaveError, and say little ----------

def _deep(n):
    return "[" * n + "]" * n


def _match_save():
    from briscola.match import Match
    m = Match("classic", seed=7)
    g = m.game
    for _ in range(5):
        g.apply(g.legal_actions()[0])
    return m


@pytest.mark.parametrize("text", [
    _deep(2_000), _deep(100_000), '{"format": ' * 5_000 + "1" + "}" * 5_000,
    '{"format": "briscola/game", "x": ' + _deep(70) + "}",
    "[" + "0," * 300_000 + "0]", '"' + "x" * 2_100_000 + '"', None, 12, b"{}",
])
def test_hostile_text_raises_save_error(text):
    """Nested past the stack (a RecursionError before), too large, or not text at all: the
    documented SaveError, for a game, a match and a table alike."""
    from briscola.bridge import Table
    from briscola.match import Match
    for load in (Game.from_json, Match.from_json, Table.load):
        with pytest.raises(SaveError):
            load(text)


def test_a_lone_surrogate_seed_is_a_save_error():
    """A seed text UTF-8 cannot write (a lone surrogate) raised UnicodeEncodeError when dealt."""
    from briscola.errors import RulesError
    from briscola.match import Match
    m = _match_save()
    game = json.loads(m.game.to_json())
    match = json.loads(m.to_json())
    for cls, data in ((Game, game), (Match, match)):
        data["seed"] = "deal \ud800"
        with pytest.raises(SaveError, match="seed"):
            cls.from_json(json.dumps(data))
        with pytest.raises(SaveError, match="seed"):
            cls.from_dict(data)
    for make in (lambda: Game.new("classic", seed="\udfff"), lambda: Match("classic", "\ud800")):
        with pytest.raises(RulesError, match="seed"):
            make()
    assert Game.new("classic", seed="è ☃ 🂡").seed == "è ☃ 🂡"  # any real text still seeds


def test_the_bridge_says_a_lone_surrogate_seed_is_bad():
    from briscola import bridge
    bridge.reset()
    for text in ('{"seed": "\\ud800"}', '{"seed": "a\\udc00b", "rules": "four"}'):
        got = json.loads(bridge.call("new_match", text))
        assert got["error"]["code"] == "bad_request" and "seed" in got["error"]["message"]
    assert json.loads(bridge.call("state", "{}"))["error"]["code"] == "bad_request"  # no table
    bridge.reset()


def test_an_error_quotes_a_short_prefix_of_what_it_refuses():
    """A 1.9 MB action, request type, level or seat is named by its first 80 characters."""
    from briscola import bridge
    from briscola.match import Match
    huge = "Q" * 1_900_000
    bridge.reset()
    bridge.call("new_match", json.dumps({"seed": 3}))
    asked = [("act", {"seat": 0, "action": huge}), (huge, {}), ("state", {"seat": huge}),
             ("new_match", {"seats": [{"kind": "bot", "level": huge}, {"kind": "human"}]}),
             ("new_match", {"seed": [[huge]]}), ("replay", {"deal": huge}),
             ("act", '{"seat": 0, "action": 1' + "0" * 6000 + "}"),
             ("state", '{"seat": 1' + "0" * 4000 + "}")]
    for kind, args in asked:
        got = json.loads(bridge.call(kind, args if isinstance(args, str) else json.dumps(args)))
        message = got["error"]["message"]
        assert len(message) < 500 and "Q" * 81 not in message, (kind[:20], message[:100])
        assert "Q" * 80 + "'…" in message or "Q" not in message, message[:200]
    bridge.reset()
    m = _match_save()
    data = json.loads(m.to_json())
    data["deals"][0].append(huge[:500_000])
    data["format"] = "briscola/match"
    with pytest.raises(SaveError) as e:
        Match.from_json(json.dumps(data))
    assert len(str(e.value)) < 500
    data = json.loads(m.game.to_json())
    data["version"] = huge[:500_000]
    with pytest.raises(SaveError) as e:
        Game.from_json(json.dumps(data))
    assert len(str(e.value)) < 200


def test_a_card_and_an_action_refuse_a_bool():
    """Card(True) was the Two of Coins (True == 1); Action(False) the Ace of Coins."""
    from briscola.actions import Action, ActionError
    from briscola.cards import Card, CardError
    from briscola.rules import find_variant
    for b in (True, False):
        with pytest.raises(CardError):
            Card(b)
        with pytest.raises(ActionError):
            Action(b)
    assert str(Card(1)) == "2D" and str(Action(0)) == "AD"
    deck = [int(c) for c in Game.new("classic", seed=1).deck]
    assert Game(find_variant("classic"), deck).deck == tuple(deck)
    with pytest.raises(CardError):  # a deck of numbers: True is none of them (it was the 2D)
        Game(find_variant("classic"), [True if c == 1 else c for c in deck])
