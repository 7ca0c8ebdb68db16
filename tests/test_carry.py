"""A person's data carried to another browser: the file of js/carry.js (run in Node) refused when
damaged or hostile, field by field, before anything is kept; the engine's check of each game
(the bridge's `check_save`, which reads a save as `load` does and leaves the table as it was);
two browsers' statistics merged. The export and import through the page: tests/browser/test_data.py."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from briscola import bridge

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tests" / "js" / "carry.mjs"


def run(node, **what):
    out = subprocess.run([node, str(SCRIPT)], input=json.dumps(what), capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def call(kind, args):
    return json.loads(bridge.call(kind, json.dumps(args)))


@pytest.fixture(scope="module")
def saves():
    bridge.reset()
    a = call("new_match", {"rules": "classic", "seed": 3})["result"]["save"]
    b = call("new_match", {"rules": "classic", "seed": 9})["result"]["save"]
    bridge.reset()
    return [a, b]


STATS = {"classic": {"played": 3, "won": 2, "drawn": 0, "lost": 1, "points": 190},
         "__counted": ["g1/0", "g1/1", "g1/2"],
         "__rating": {"rating": 1012.5, "history": [{"at": 1.7e12, "level": "beginner", "score": 1, "variant": "classic", "rating": 1012.5}]},
         "__puzzle": {"last": "2026-01-01", "solved": "2026-01-01", "streak": 2, "best": 4}}
PREFS = {"speed": "fast", "lang": "it", "showPoints": False, "friendsTokens": {"room": "secret"}}


def good_file(node, saves):
    games = [{"id": f"m{i}-abc", "save": s, "meta": {"variant": "classic", "names": ["", ""]},
              "created": 1.7e12 + i, "updated": 1.7e12 + 10 + i} for i, s in enumerate(saves)]
    return run(node, make=[games, STATS, PREFS])["made"]


def test_a_file_made_is_read_back_the_same(node, saves):
    made = good_file(node, saves)
    assert made["format"] == "briscola/data" and made["version"] == 1
    assert made["exported"] == "2026-01-02T00:00:00.000Z"
    assert "friendsTokens" not in made["settings"]  # a device's own: never carried
    value = run(node, files=[json.dumps(made)])["read"][0]["value"]
    assert [g["save"] for g in value["games"]] == saves
    assert value["stats"] == {"classic": STATS["classic"]}
    assert value["counted"] == STATS["__counted"]
    assert value["rating"] == STATS["__rating"] and value["puzzle"] == STATS["__puzzle"]
    assert value["settings"] == {"speed": "fast", "lang": "it", "showPoints": False}


def spoil(made, path, value):
    data = json.loads(json.dumps(made))
    *head, last = path
    box = data
    for k in head:
        box = box[k]
    box[last] = value
    return json.dumps(data)


def test_damaged_and_hostile_files_are_refused_with_the_reason(node, saves):
    made = good_file(node, saves)
    cases = [
        ("not json {", "format"),
        ("[" * 5000 + "]" * 5000, "size"),  # the parser's depth never reached
        (json.dumps({"format": "other", "version": 1}), "format"),
        (json.dumps([1, 2]), "format"),
        (spoil(made, ["version"], 2), "version"),
        (spoil(made, ["version"], "1"), "damaged"),
        (spoil(made, ["games"], {"a": 1}), "damaged"),
        (spoil(made, ["games"], [made["games"][0]] * 201), "damaged"),
        (spoil(made, ["games"], [made["games"][0]] * 2), "damaged"),  # the same id twice
        (spoil(made, ["games", 0, "id"], "../../x"), "damaged"),
        (spoil(made, ["games", 0, "save"], 5), "damaged"),
        (spoil(made, ["games", 0, "save"], "x" * 2_000_001), "damaged"),
        (spoil(made, ["games", 0, "created"], "yesterday"), "damaged"),
        (spoil(made, ["games", 0, "meta"], [1]), "damaged"),
        (spoil(made, ["stats", "classic", "won"], 3), "damaged"),  # won + drawn + lost != played
        (spoil(made, ["stats", "classic", "played"], -1), "damaged"),
        (spoil(made, ["stats", "classic", "points"], "many"), "damaged"),
        (spoil(made, ["stats", "__rating"], {"rating": 1}), "damaged"),
        (spoil(made, ["stats", "x" * 41], STATS["classic"]), "damaged"),
        (spoil(made, ["counted"], ["d"] * 501), "damaged"),
        (spoil(made, ["counted"], [1]), "damaged"),
        (spoil(made, ["rating", "history"], [STATS["__rating"]["history"][0]] * 301), "damaged"),
        (spoil(made, ["rating", "history", 0, "score"], 2), "damaged"),
        (spoil(made, ["rating", "rating"], "high"), "damaged"),
        (spoil(made, ["puzzle", "streak"], -1), "damaged"),
        (spoil(made, ["puzzle", "last"], "<script>"), "damaged"),
        (spoil(made, ["settings", "speed"], 5), "damaged"),
        (spoil(made, ["settings", "showPoints"], "yes"), "damaged"),
        (spoil(made, ["settings"], []), "damaged"),
        (json.dumps(made) + " " * 20_000_001, "size"),
        (spoil(made, ["settings", "newgame"], {"a": [0] * 200_001}), "size"),  # values past the bound
    ]
    out = run(node, files=[text for text, _ in cases])["read"]
    for (text, why), verdict in zip(cases, out):
        assert "error" in verdict, (text[:120], verdict)
        assert verdict["error"]["why"] == why, (text[:120], verdict)
        assert 0 < len(verdict["error"]["message"]) <= 200


def test_a_file_cannot_pollute_the_page_objects(node, saves):
    made = good_file(node, saves)
    text = json.dumps(made).replace('"settings": {', '"settings": {"__proto__": {"x": 1, "speed": "z"}, ', 1)
    text2 = json.dumps(made).replace('"stats": {', '"stats": {"__proto__": {"played": 0}, ', 1)
    out = run(node, files=[text, text2])
    assert "value" in out["read"][0] and "speed" in out["read"][0]["value"]["settings"]
    assert out["read"][0]["value"]["settings"]["speed"] == "fast"  # the unknown key left out
    assert out["read"][1]["error"]["why"] == "damaged"
    assert out["polluted"] is False


def test_statistics_merge_without_counting_a_deal_twice(node, saves):
    made = good_file(node, saves)
    mine = {"stats": {"classic": {"played": 2, "won": 2, "drawn": 0, "lost": 0, "points": 150},
                      "four": {"played": 1, "won": 0, "drawn": 0, "lost": 1, "points": 40},
                      "__counted": ["g2/0", "g1/0"],
                      "__rating": {"rating": 990, "history": [{"at": 1.8e12, "level": "expert", "score": 0, "variant": "four", "rating": 990}]},
                      "__puzzle": {"last": "2025-12-30", "solved": "2025-12-30", "streak": 6, "best": 6}},
            "prefs": {"speed": "slow", "friendsTokens": {"r": "t"}}}
    merged, replaced = run(node, merges=[[mine, made, "merge"], [mine, made, "replace"]])["merged"]
    s = merged["stats"]
    assert s["classic"] == STATS["classic"]  # the record of more deals played
    assert s["four"] == mine["stats"]["four"]  # only here: kept
    assert sorted(s["__counted"]) == ["g1/0", "g1/1", "g1/2", "g2/0"]
    assert s["__rating"]["rating"] == 990  # the later rated deal's
    assert s["__puzzle"] == {"last": "2026-01-01", "solved": "2026-01-01", "streak": 2, "best": 6}
    assert merged["settings"] == {"speed": "slow", "lang": "it", "showPoints": False, "friendsTokens": {"r": "t"}}
    r = replaced["stats"]
    assert "four" not in r and r["classic"] == STATS["classic"] and r["__rating"] == STATS["__rating"]
    assert replaced["settings"] == {"speed": "fast", "lang": "it", "showPoints": False, "friendsTokens": {"r": "t"}}


def test_the_engine_checks_a_save_and_leaves_its_table(saves):
    bridge.reset()
    table = call("new_match", {"rules": "classic", "seed": 21})["result"]["save"]
    checked = call("check_save", {"save": saves[0]})["result"]
    assert checked["match"]["deal"] == 0 and len(checked["seats"]) == 2 and "save" not in checked
    data = json.loads(saves[0])
    hostile = [
        "{" * 3000,
        json.dumps({"format": "briscola/table", "version": 1, "match": "[" * 70 + "]" * 70}),
        json.dumps({**data, "version": 2}),
        json.dumps({**data, "seats": [{"kind": "god"}, {"kind": "bot"}]}),
        saves[0][:-9],
        5,
    ]
    for save in hostile:
        out = call("check_save", {"save": save})
        assert out["error"]["code"] == "bad_save", (str(save)[:80], out)
    assert call("state", {"save": True})["result"]["save"] == table  # the table as it was
    bridge.reset()
