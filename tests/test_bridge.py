"""The bridge: JSON text in, JSON text out; bad requests change nothing."""
import json

import pytest

from briscola import bridge
from briscola.game import Game, Phase


def call(kind, args=None):
    reply = json.loads(bridge.call(kind, json.dumps(args or {})))
    assert set(reply) in ({"result"}, {"error"})
    return reply


def ok(kind, args=None):
    reply = call(kind, args)
    assert "result" in reply, reply
    return reply["result"]


def err(kind, args=None):
    reply = call(kind, args)
    assert "error" in reply, reply
    assert set(reply["error"]) == {"code", "message"}
    return reply["error"]


@pytest.fixture(autouse=True)
def fresh():
    bridge.reset()


SEATS = [{"kind": "human"}, {"kind": "bot", "level": "random"}]


def test_ping_and_catalog():
    assert ok("ping")["version"]
    cat = ok("catalog")
    assert "classic" in [v["name"] for v in cat["variants"]]
    names = [o["name"] for o in cat["options"]]
    assert "exchange_seven" in names and "partner_view" in names
    assert cat["levels"] == ["beginner", "intermediate", "expert"]
    # Each variant's players and deck are what check_rules says of its rules (a deal link
    # of a variant as it is deals from the catalog alone).
    for v in cat["variants"]:
        checked = ok("check_rules", {"rules": v["rules"]})
        assert (v["players"], v["deck"]) == (checked["players"], checked["deck"]), v["name"]
    assert {v["deck"] for v in cat["variants"]} >= {"italian", "french"}


def test_the_catalog_is_made_once_and_stays_what_the_engine_says():
    """The catalog's text is kept after its first request (the page's first on every start):
    the same text again, equal to a fresh bridge's catalog; bad arguments are still refused."""
    first = bridge.call("catalog", "{}")
    assert bridge._CATALOG_TEXT == first
    assert bridge.call("catalog", "{}") is first
    made = json.dumps({"result": bridge.Bridge().handle("catalog", {})}, separators=(",", ":"))
    assert first == made
    assert "error" in json.loads(bridge.call("catalog", "[1]"))
    assert "error" in json.loads(bridge.call("catalog", "{not json"))


def test_a_whole_deal_through_the_bridge_matches_the_engine():
    st = ok("new_match", {"rules": "classic", "seed": 12, "seats": SEATS})
    while st["view"]["phase"] != "over":
        if st["view"]["turn"] == 0:
            st = ok("act", {"seat": 0, "action": st["view"]["legal"][0]})
        else:
            st = ok("bot_step", {"seat": 0})
            assert st["bot"]["seat"] == 1 and st["bot"]["reason"]
    saved = json.loads(st["save"])
    first_dealer = saved["match"]["first_dealer"]
    game = Game.new("classic", seed="12/0", dealer=first_dealer)
    for action in saved["match"]["deals"][0]:
        game.apply(action)
    assert game.is_over
    assert st["summary"]["points"] == game.points
    assert st["match"]["over"] and st["match"]["winners"] == list(game.outcome().winners)
    assert sum(st["summary"]["points"]) == 120


def test_the_bridge_takes_every_language_the_page_lists_and_refuses_others():
    """The languages are the page's (js/locales/index.js): each is taken; any other code, or
    a language that is not text, is a clear refusal that changes nothing."""
    from test_locales import listed
    from briscola.languages import languages
    assert list(languages()) == listed() and {"it", "en"} <= set(languages())
    bots = [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    ok("new_match", {"rules": "classic", "seed": 4, "seats": bots})
    for lang in languages():
        assert ok("bot_step", {"seat": 1, "lang": lang})["bot"]["reason"]
    before = bridge._BRIDGE.table.save()
    for wrong in ["de", "EN", "it-IT", "", "xx", 3, None, ["en"]]:
        e = err("bot_step", {"seat": 1, "lang": wrong})  # a computer's turn: only the language is wrong
        assert e["code"] == "bad_request", e
        assert e["message"].startswith("lang: one of 'en', ") and repr(wrong) in e["message"], e
        assert all(repr(lang) in e["message"] for lang in languages())
        assert bridge._BRIDGE.table.save() == before


def test_illegal_action_is_an_error_and_changes_nothing():
    st = ok("new_match", {"rules": "classic", "seed": 3, "seats": SEATS})
    seat = st["view"]["turn"]
    if seat == 1:
        st = ok("bot_step")
    before = ok("state", {"seat": 0})
    not_mine = next(c for c in ["AD", "3S", "KB", "2C", "7D"] if c not in before["view"]["hand"])
    e = err("act", {"seat": 0, "action": not_mine})
    assert e["code"] == "illegal_action" and "not in seat 0's hand" in e["message"]
    assert err("act", {"seat": 0, "action": "nonsense"})["code"] == "bad_action"
    assert err("act", {"seat": 1, "action": "AD"})["code"] == "illegal_action"
    assert err("act", {"seat": 7, "action": "AD"})["code"] == "bad_request"
    assert err("act", {"seat": 0})["code"] == "bad_request"
    assert ok("state", {"seat": 0}) == before


def test_bad_requests():
    assert err("nope")["code"] == "bad_request"
    assert json.loads(bridge.call("act", "{not json"))["error"]["code"] == "bad_request"
    assert json.loads(bridge.call("act", "[1,2]"))["error"]["code"] == "bad_request"
    assert err("state")["code"] == "bad_request"  # no game yet
    assert err("new_match", {"rules": "nonsense"})["code"] == "bad_option"
    assert err("new_match", {"rules": {"name": "custom", "players": 9}})["code"] == "bad_option"
    assert err("new_match", {"seats": [{"kind": "human"}]})["code"] == "bad_request"
    assert err("new_match", {"seats": [{"kind": "human"}, {"kind": "bot", "level": "god"}]})[
        "code"] == "bad_request"


def test_save_and_load_resume_exactly():
    st = ok("new_match", {"rules": "four", "seed": 8,
                          "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * 3})
    for _ in range(9):
        if st["view"]["turn"] == 0:
            st = ok("act", {"seat": 0, "action": st["view"]["legal"][-1]})
        else:
            st = ok("bot_step", {"seat": 0})
    bridge.reset()
    back = ok("load", {"save": st["save"], "seat": 0})
    assert back["view"] == st["view"] and back["save"] == st["save"]


@pytest.mark.parametrize("save", ["", "garbage", "{}", json.dumps({"format": "briscola/table"}),
                                  None, 5])
def test_corrupt_save_is_refused(save):
    ok("new_match", {"rules": "classic", "seed": 1, "seats": SEATS})
    before = ok("state", {"seat": 0})
    assert err("load", {"save": save})["code"] == "bad_save"
    assert ok("state", {"seat": 0}) == before


def test_tampered_save_is_refused():
    st = ok("new_match", {"rules": "classic", "seed": 1, "seats": SEATS})
    data = json.loads(st["save"])
    data["match"]["deals"][0] = ["AD", "AD"]
    assert err("load", {"save": json.dumps(data)})["code"] == "bad_save"


def test_trick_winner_and_card_points():
    assert ok("trick_winner", {"rules": "classic", "trump": "S", "cards": ["5B", "AB"]})[
        "index"] == 1
    assert ok("trick_winner", {"rules": "classic", "trump": "S", "cards": ["AD", "6S"]})[
        "card"] == "6S"
    assert err("trick_winner", {"rules": "classic", "trump": "X", "cards": ["AD"]})
    assert err("trick_winner", {"rules": "bosnian", "trump": "S", "cards": ["2D", "AD"]})
    pts = ok("card_points", {"rules": "bisca"})
    assert pts["points"]["7D"] == 10 and pts["total"] == 120


def test_views_from_the_bridge_hide_the_other_hand():
    st = ok("new_match", {"rules": "classic", "seed": 1, "seats": SEATS})
    v = st["view"]
    assert v["known"][1] == [] and v["hand_sizes"] == [3, 3]
    assert len(v["hand"]) == 3


def test_next_deal_in_a_match():
    st = ok("new_match", {"rules": "best-of-3", "seed": 2, "seats": SEATS})
    assert err("next_deal")["code"] == "illegal_action"
    while st["view"]["phase"] != "over":
        if st["view"]["turn"] == 0:
            st = ok("act", {"seat": 0, "action": st["view"]["legal"][0]})
        else:
            st = ok("bot_step", {"seat": 0})
    if not st["match"]["over"]:
        st = ok("next_deal", {"seat": 0})
        assert st["match"]["deal"] == 1 and st["view"]["phase"] == "play"


def test_state_and_hint_only_for_seats_the_person_controls():
    st = ok("new_match", {"rules": "classic", "seed": 3, "seats": SEATS})
    before = ok("state", {"seat": 0})
    assert err("state", {"seat": 1})["code"] == "hidden_seat"
    if st["view"]["turn"] != 1:
        st = ok("act", {"seat": 0, "action": st["view"]["legal"][0]})
    assert err("hint", {"seat": 1})["code"] == "hidden_seat"
    assert ok("state", {"seat": 0})["view"]["hand"]
    while st["view"]["phase"] != "over":
        if st["view"]["turn"] == 0:
            st = ok("act", {"seat": 0, "action": st["view"]["legal"][0]})
        else:
            st = ok("bot_step", {"seat": 0})
    # Once the deal is over, every seat may be looked at.
    assert ok("state", {"seat": 1})["view"]["seat"] == 1
    assert before["view"]["hand"]


def test_hot_seat_shows_only_the_hand_of_the_seat_whose_turn_it_is():
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"},
             {"kind": "human"}, {"kind": "bot", "level": "random"}]
    st = ok("new_match", {"rules": "four", "seed": 5, "seats": seats})
    seen_hidden = 0
    while st["view"]["phase"] != "over":
        turn = st["view"]["turn"]
        for seat in (0, 2):
            if seat == turn:
                assert ok("state", {"seat": seat})["view"]["hand"]
            else:
                assert err("state", {"seat": seat})["code"] == "hidden_seat"
        v = st["view"]
        if v["seat"] != turn:
            assert v.get("hand_hidden") and v["hand"] == [] and v["legal"] == []
            assert v["known"][v["seat"]] == [] or not any(v["hands_visible"])
            assert all(e.get("signal") is None for e in v["events"] if e["type"] == "signal")
            seen_hidden += 1
        if turn in (0, 2):
            st = ok("act", {"seat": turn, "action": ok("state", {"seat": turn})["view"]["legal"][0]})
        else:
            st = ok("bot_step", {})
    assert seen_hidden
    assert ok("state", {"seat": 1})["view"]["seat"] == 1


def test_a_friends_seat_is_seen_by_the_referee_and_acts_only_for_itself():
    # A table with friends (js/friends/): the host's person at seat 0, a friend at seat 2
    # (their own device), computers between. The host's page may read the friend's view at
    # any time (it sends it to that device only); the friend acts for its seat only.
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "level": "random"},
             {"kind": "friend", "name": " Bruno "}, {"kind": "bot", "level": "random"}]
    st = ok("new_match", {"rules": "four", "seed": 8, "seats": seats})
    assert [s["kind"] for s in st["seats"]] == ["human", "bot", "friend", "bot"]
    assert st["seats"][2]["name"] == "Bruno"
    assert err("state", {"seat": 1})["code"] == "hidden_seat"
    assert err("undo", {"seat": 0})["code"] == "cannot_undo"
    while st["view"]["phase"] != "over":
        turn = st["view"]["turn"]
        friend = ok("state", {"seat": 2})["view"]
        assert friend["seat"] == 2 and not friend.get("hand_hidden")
        if turn in (0, 2):
            other = 2 - turn
            mine = ok("state", {"seat": turn})["view"]["hand"]
            theirs = ok("state", {"seat": other})["view"]["hand"]
            for card in theirs[:1]:  # not a card of the seat whose turn it is, nor its turn
                assert err("act", {"seat": other, "action": card})["code"] == "illegal_action"
                assert err("act", {"seat": turn, "action": card})["code"] == "illegal_action"
            assert ok("state", {"seat": turn})["view"]["hand"] == mine  # refused: nothing changed
            st = ok("act", {"seat": turn, "action": ok("state", {"seat": turn})["view"]["legal"][0]})
        else:
            assert err("act", {"seat": turn, "action": "AD"})["code"] == "illegal_action"
            st = ok("bot_step", {})
    assert st["summary"]


def test_a_computer_takes_an_away_friends_seat_and_gives_it_back():
    seats = [{"kind": "human"}, {"kind": "friend", "name": "Bruno"}]
    st = ok("new_match", {"rules": "classic", "seed": 4, "seats": seats})
    if st["view"]["turn"] == 0:
        st = ok("act", {"seat": 0, "action": st["view"]["legal"][0]})
    assert st["view"]["turn"] == 1
    assert err("bot_step", {})["code"] == "illegal_action"  # a friend's turn: nobody steps for it
    st = ok("set_seat", {"seat": 1, "kind": "bot", "level": "random"})
    assert st["seat"] == 0 and st["seats"][1] == {"kind": "bot", "level": "random", "stand_in": 0}
    st = ok("bot_step", {})
    assert [e["seat"] for e in st["view"]["events"] if e["type"] == "play"][-1] == 1
    again = ok("load", {"save": st["save"]})  # kept in the save
    assert again["seats"][1]["kind"] == "bot"
    st = ok("set_seat", {"seat": 1, "kind": "friend", "name": "Bruno"})
    assert st["seats"][1] == {"kind": "friend", "name": "Bruno"}
    # only those two trade places; a bad level changes nothing
    assert err("set_seat", {"seat": 0, "kind": "bot"})["code"] == "bad_request"
    assert err("set_seat", {"seat": 1, "kind": "human"})["code"] == "bad_request"
    assert err("set_seat", {"seat": 1, "kind": "bot", "level": "nobody"})["code"] == "bad_request"
    assert ok("state", {})["seats"][1] == {"kind": "friend", "name": "Bruno"}


def test_a_friends_seat_survives_a_save():
    seats = [{"kind": "friend", "name": "Bruno"}, {"kind": "human"}]
    st = ok("new_match", {"rules": "classic", "seed": 2, "seats": seats})
    again = ok("load", {"save": st["save"]})
    assert again["seats"] == [{"kind": "friend", "name": "Bruno"}, {"kind": "human"}]


def _without_save(reply):
    return {k: v for k, v in reply.items() if k != "save"}


@pytest.mark.parametrize("rules, hands, swapped, trump", [
    # two players: the computer's hand and the talon differ, seat 0's cards and the trump do not
    ("classic", ["AD 3S KB", "2C 4C 5C"], ["AD 3S KB", "6C JC HC"], "7B"),
    # teams: the partner's and the opponents' hands differ
    ("four", ["AD 3S KB", "2C 4C 5C", "6S 7S JS", "2B 4B 5B"],
     ["AD 3S KB", "6S 7S JS", "2B 4B 5B", "2C 4C 5C"], "7D"),
])
def test_same_replies_for_deals_that_differ_only_in_hidden_cards(monkeypatch, rules, hands, swapped,
                                                                 trump):
    """What the page is sent is a function of what the person may know: two deals whose
    hidden cards differ give the same replies (the save, kept by the worker, aside) until a
    hidden card is played."""
    from briscola import match as match_mod

    def run(deal_hands):
        bridge.reset()
        monkeypatch.setattr(match_mod.Match, "_deal", lambda self, k: Game.from_hands(
            self.rules, deal_hands, trump=trump, dealer=self.rules.players - 1))
        seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * (len(hands) - 1)
        out = [_without_save(ok("new_match", {"rules": rules, "seed": 1, "seats": seats}))]
        out.append(_without_save(ok("state", {"seat": 0})))
        out.append(ok("hint", {"seat": 0, "level": "beginner"}))
        out.append(_without_save(ok("act", {"seat": 0, "action": "KB"})))
        return out

    a, b = run(hands), run(swapped)
    assert a == b
    assert "KB" in json.dumps(a[-1]) and "2C" not in json.dumps(a) and "6C" not in json.dumps(b)


@pytest.mark.parametrize("rules", ["classic", "four", "chiamata", "three"])
def test_the_blind_view_is_the_same_from_every_seat(rules):
    """Between two people's turns the table is shown with the hand left out: what is shown
    then must not depend on whose seat it is drawn from (nothing private is left in it)."""
    import random
    from briscola.bridge import _blind
    from briscola.rules import find_variant
    players = find_variant(rules).players
    seats = [{"kind": "human"}] * players
    ok("new_match", {"rules": rules, "seed": 9, "seats": seats})
    rng = random.Random(4)
    game = bridge._BRIDGE.table.match.game
    steps = 0
    while not game.is_over:
        shown = [_blind(game, s) for s in range(players)]
        for d in shown:
            d.pop("seat")
        assert all(d == shown[0] for d in shown[1:]), steps
        turn = game.current_player
        action = rng.choice(ok("state", {"seat": turn})["view"]["legal"])
        ok("act", {"seat": turn, "action": action})
        steps += 1
    assert steps > 10


def test_prepare_imports_what_a_first_deal_needs():
    """The page's worker calls prepare() before it snapshots the engine: a deal against every
    computer level then imports nothing more (a fresh interpreter, so nothing is loaded yet),
    and every reply carries the ranks' order that the page would otherwise ask for."""
    import subprocess
    import sys
    from pathlib import Path
    code = """
import json, sys
import briscola.bridge as b
b.prepare()
assert b._BRIDGE.table is None  # the warm-up deal was on a table of its own
before = set(sys.modules)
for level in ("random", "beginner", "intermediate", "expert"):
    for rules in ("classic", "chiamata"):
        n = 5 if rules == "chiamata" else 2
        seats = [{"kind": "human"}] + [{"kind": "bot", "level": level}] * (n - 1)
        reply = json.loads(b.call("new_match", json.dumps({"rules": rules, "seed": 7, "seats": seats})))
        assert reply["result"]["order"], reply
print(json.dumps(sorted(m for m in set(sys.modules) - before if m.startswith("briscola"))))
"""
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", code], cwd=root / "py", capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == []
    order = json.loads(bridge.call("card_points", json.dumps({"rules": "classic"})))["result"]["order"]
    reply = json.loads(bridge.call("new_match", json.dumps(
        {"rules": "classic", "seed": 1, "seats": [{"kind": "human"}, {"kind": "bot", "level": "beginner"}]})))
    assert reply["result"]["order"] == order


# ---- the bounds of every JSON text (js/limits.js checks the same numbers first) ---------------

ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]


def nested(depth: int, inner: str = "0") -> str:
    return "[" * depth + inner + "]" * depth


def test_the_worker_has_the_same_bounds_and_measures_the_same():
    """js/limits.js (the worker's door, and the friends' messages) holds the bridge's numbers,
    and measures texts as the bridge does: strings' brackets do not count, bytes are UTF-8."""
    import re
    import subprocess
    src = (ROOT / "js" / "limits.js").read_text(encoding="utf-8")
    limits = re.search(r"LIMITS = Object\.freeze\((\{[^}]*\})\)", src).group(1)
    limits = json.loads(re.sub(r"(\w+):", r'"\1":', limits))
    assert limits == {"bytes": bridge.MAX_BYTES, "depth": bridge.MAX_DEPTH, "items": bridge.MAX_ITEMS}
    texts = [nested(64), nested(65), json.dumps({"a": ["[[[[{{", "\\\"[", {"b": [1, 2, {}]}]}),
             json.dumps(["é€😀" * 3, "\n"], ensure_ascii=False), nested(3000), "[1,2,3,[4,[5]]]"]
    script = ("import { measureJSON, checkJSON } from './js/limits.js';"
              "const texts = JSON.parse(process.argv[1]);"
              "console.log(JSON.stringify(texts.map((t) => [measureJSON(t), checkJSON(t)])));")
    out = subprocess.run(["node", "--input-type=module", "-e", script, json.dumps(texts)], cwd=ROOT,
                         capture_output=True, text=True, check=True)
    for text, (measured, refused) in zip(texts, json.loads(out.stdout)):
        assert measured["bytes"] == len(text.encode("utf-8")), text
        if '"' not in text:  # the depth, counted plainly
            level = deepest = 0
            for c in text:
                level += (c == "[") - (c == "]")
                deepest = max(deepest, level)
            assert measured["depth"] == deepest or refused["code"] == "input_too_deep"
        try:
            bridge.check_json(text)
            code = None
        except bridge.JSONBoundsError as e:
            code = e.code
        assert (refused or {}).get("code") == code, text
    assert json.loads(out.stdout)[2][0]["depth"] == 5  # brackets inside strings do not count


@pytest.mark.parametrize("text, code", [
    (json.dumps({"seat": json.loads(nested(64))}), None),  # 65 levels with the object
    (json.dumps({"seat": json.loads(nested(63))}), "bad_request"),  # within: refused as a seat
    (nested(100_000), "input_too_deep"),  # Python's parser would overflow the stack
    ('{"seat": "' + "[" * 5000 + '"}', "bad_request"),  # brackets in a string are text
    ('{"seat": "' + "x" * bridge.MAX_BYTES + '"}', "input_too_large"),
    ('{"seat": "' + "é" * (bridge.MAX_BYTES // 2) + '"}', "input_too_large"),  # bytes, not chars
    ("[" + "0," * bridge.MAX_ITEMS + "0]", "input_too_large"),
])
def test_deep_or_huge_requests_are_refused_unparsed(text, code):
    ok("new_match", {"rules": "classic", "seed": 1, "seats": SEATS})
    before = ok("state", {"seat": 0})
    reply = json.loads(bridge.call("state", text))
    if code is None:
        assert reply["error"]["code"] == "input_too_deep"
    else:
        assert reply["error"]["code"] == code, reply["error"]
    assert ok("state", {"seat": 0}) == before


@pytest.mark.parametrize("depth", [65, 5000, 100_000])
def test_a_deep_save_is_refused_as_a_bad_save(depth):
    """A save nested deeper than the bounds (a field of its own, so that only the depth is
    wrong) is refused as a bad save, unparsed; the table stays as it was."""
    st = ok("new_match", {"rules": "classic", "seed": 1, "seats": SEATS})
    text = st["save"].replace('"seats":', '"pad":' + nested(depth) + ',"seats":')
    before = ok("state", {"seat": 0})
    e = err("load", {"save": text})
    assert e["code"] == "bad_save" and "nested deeper than 64" in e["message"], e
    assert ok("state", {"seat": 0}) == before


def test_the_longest_real_save_is_far_within_the_bounds():
    """A Chiamata match of the most deals a match plays (MAX_DEALS) saved, loaded back."""
    from briscola.match import MAX_DEALS, Match
    from briscola.rules import Rules, find_variant
    import random
    rules = Rules.from_dict({**find_variant("chiamata").to_dict(), "match_target": 1000})
    match = Match(rules, 11)
    rng = random.Random(2)
    while True:
        while not match.game.is_over:
            match.game.apply_fast(rng.choice(match.game.legal_actions_fast()))
        if match.is_over:
            break
        match.next_deal()
    seats = [{"kind": "human", "name": "x" * 40}] * 5
    save = bridge.Table(match, bridge.Table.check_seats(seats, 5)).save()
    assert len(json.loads(save)["match"]["deals"]) == MAX_DEALS
    assert len(save.encode()) * 20 < bridge.MAX_BYTES
    assert bridge.check_json(save) == save
    assert ok("load", {"save": save, "seat": 0})["match"]["over"]


WRONG = [None, True, 1.5, -1, 10 ** 30, "x", "", [], {}, [[]], {"a": {}}, ["AD", None],
         [{"kind": []}], [{"kind": "bot", "level": []}]]


def test_wrong_types_are_refused_by_code_and_change_nothing():
    """Every request with every argument of a wrong type: a refusal with the request's code
    (never `internal`, which is a bug), and the table as it was."""
    from briscola.rules import OPTIONS
    start = {"rules": "classic", "seed": 3, "seats": SEATS}
    ok("new_match", start)
    keys = ["seat", "action", "rules", "seed", "seats", "save", "lang", "reasons", "deal", "index",
            "step", "all_hands", "rating", "level", "score", "trump", "cards", "sees", "bots",
            "dealer"]
    # (and the fair deal's engine started, so its requests are asked of one)
    ok("fair_deal", {"rules": "classic", "dealer": 0, "sees": [0], "bots": []})
    for kind in bridge._BRIDGE.handlers:
        for args in ([{key: v} for key in keys for v in WRONG]
                     + [{"seats": [{"kind": "human", "name": v}, {"kind": "bot", "level": v}]} for v in WRONG]
                     + [{"rules": {"name": "classic", o: v}} for o in OPTIONS for v in WRONG[:9]]):
            before = bridge._BRIDGE.table.save()
            reply = json.loads(bridge.call(kind, json.dumps(args)))
            assert reply.get("error", {}).get("code") != "internal", (kind, args, reply)
            if "error" in reply or kind in ("ping", "catalog", "state", "hint", "tracker", "history",
                                            "rate", "rating_levels", "trick_winner", "card_points",
                                            "check_rules", "replay", "review_plan"):
                assert bridge._BRIDGE.table.save() == before, (kind, args)
            else:
                ok("new_match", start)


@pytest.mark.parametrize("rules, options", [("chiamata", {}), ("four", {"signals": True})])
def test_a_bots_reason_tells_the_table_only_what_the_table_sees(rules, options):
    """A computer's reason for a bid or a call names what only its hand knows (its long suit,
    its estimate, a call of its own card), and a signal is seen by its partner alone: the
    page hears the action in words, and an opponent's signal not at all."""
    from briscola.rules import Rules, find_variant
    spec = {**find_variant(rules).to_dict(), **options}
    players = Rules.from_dict(spec).players
    public = {"bot_pass", "bot_bids_rank", "bot_bids_points", "bot_calls_card", "bot_calls_suit",
              "bot_goes_carichi"}
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "intermediate"}] * (players - 1)
    told, signals = [], []
    for seed in range(6):
        bridge.reset()
        ok("new_match", {"rules": spec, "seed": seed, "seats": seats})
        game = bridge._BRIDGE.table.match.game
        while not game.is_over:
            if game.current_player == 0:
                ok("act", {"seat": 0, "action": ok("state", {"seat": 0})["view"]["legal"][0]})
                continue
            seat, phase = game.current_player, game.phase
            st = ok("bot_step", {"seat": 0, "reasons": False})
            said = st["bot"]
            if phase in (Phase.AUCTION, Phase.CALL):
                told.append(said)
                assert said["reason"]["code"] in public, said
                shown = said["action"].split("-", 1)[-1]
                assert set(said["reason"]["params"].values()) <= {shown, int(shown) if shown.isdigit() else shown}, said
            if said["action"].startswith("signal") or said["reason"]["code"] in ("bot_signal", "bot_signals"):
                mine = game.side_of(seat) == game.side_of(0)
                signals.append(mine)
                if not mine:
                    assert said == {"seat": seat, "action": "signal",
                                    "reason": {"code": "bot_signals", "params": {}}}, said
                    assert "signal-" not in json.dumps(st["view"])  # the save stays in the worker
    if rules == "chiamata":
        assert len(told) > 20
    else:
        assert False in signals  # an opponent's signal was met and hidden



# ---- the page's own door: a computer's hand and an opponent's signal stay hidden ------------

def hand_of(seat):
    return {str(c) for c in bridge._BRIDGE.table.match.game.view(seat).hand}


def test_a_computer_made_a_friend_mid_deal_marks_the_deal_undone():
    """``set_seat {seat: 1, kind: "friend"}`` at a table of one person and a computer answered
    with the computer's hand, and ``state {seat: 1}`` then too; the computer put back, the deal
    was counted and rated as any. Now the deal is marked undone at once, as an undo marks it:
    in the reply, in the history, in the summary and in the save."""
    st = ok("new_match", {"rules": "best-of-3", "seed": 4, "seats": SEATS})
    assert st["match"]["undone"] is False
    secret = hand_of(1)
    st = ok("set_seat", {"seat": 1, "kind": "friend"})
    assert st["match"]["undone"] is True and st["match"]["undone_deals"] == [0]
    assert set(ok("state", {"seat": 1})["view"]["hand"]) == secret  # readable: the deal is off
    st = ok("set_seat", {"seat": 1, "kind": "bot", "level": "random"})
    assert st["match"]["undone"] is True and st["seats"][1]["stand_in"] == 0
    assert ok("load", {"save": st["save"]})["match"]["undone"] is True
    game = bridge._BRIDGE.table.match.game
    while not game.is_over:
        st = ok("act", {"seat": 0, "action": ok("state", {"seat": 0})["view"]["legal"][0]}) \
            if game.current_player == 0 else ok("bot_step", {"seat": 0})
    assert st["summary"]["undone"] is True
    assert ok("history", {})["deals"][0]["undone"] is True
    ok("next_deal", {})
    assert ok("state", {})["match"]["undone"] is False  # the next deal is a deal like any
    assert err("state", {"seat": 1})["code"] == "hidden_seat"


def test_a_friend_back_in_the_deal_it_left_changes_nothing_one_back_later_does():
    """A computer that plays an away friend's seat says since which deal (``stand_in``, kept in
    the save); the friend back in that deal takes its own seat back, no deal marked. Back in a
    deal the computer was dealt, the computer's hand would show: that deal is marked undone."""
    seats = [{"kind": "human"}, {"kind": "friend", "name": "Bruno"}]
    st = ok("new_match", {"rules": "best-of-3", "seed": 4, "seats": seats})
    st = ok("set_seat", {"seat": 1, "kind": "bot", "level": "random"})
    assert st["seats"][1] == {"kind": "bot", "level": "random", "stand_in": 0}
    st = ok("load", {"save": st["save"]})
    assert st["seats"][1]["stand_in"] == 0  # kept in the save
    st = ok("set_seat", {"seat": 1, "kind": "bot", "level": "beginner"})  # another level
    assert st["seats"][1]["stand_in"] == 0
    st = ok("set_seat", {"seat": 1, "kind": "friend", "name": "Bruno"})
    assert st["seats"][1] == {"kind": "friend", "name": "Bruno"} and st["match"]["undone"] is False
    ok("set_seat", {"seat": 1, "kind": "bot", "level": "random"})
    game = bridge._BRIDGE.table.match.game
    while not game.is_over:
        if game.current_player == 0:
            ok("act", {"seat": 0, "action": ok("state", {"seat": 0})["view"]["legal"][0]})
        else:
            ok("bot_step", {"seat": 0})
    st = ok("set_seat", {"seat": 1, "kind": "friend", "name": "Bruno"})  # the deal is over
    assert st["match"]["undone"] is False
    ok("set_seat", {"seat": 1, "kind": "bot", "level": "random"})
    st = ok("next_deal", {})
    assert st["seats"][1]["stand_in"] == 0 and st["match"]["undone"] is False
    st = ok("set_seat", {"seat": 1, "kind": "friend", "name": "Bruno"})
    assert st["match"]["undone"] is True and st["match"]["undone_deals"] == [1]


def test_the_summary_says_a_friend_came_back_not_that_a_play_was_taken_back():
    """A friend back mid-deal in the seat a computer took in an earlier deal marks the deal
    undone, and the summary said it as an undo ("a play was taken back"), which nobody did.
    The seat and the summary now say why (``back``), kept in the save; a deal marked by an
    undo, or the next deal, says no such thing."""
    seats = [{"kind": "human"}, {"kind": "friend", "name": "Bruno"}]
    ok("new_match", {"rules": "best-of-3", "seed": 4, "seats": seats})
    ok("set_seat", {"seat": 1, "kind": "bot", "level": "random"})
    game = bridge._BRIDGE.table.match.game
    while not game.is_over:
        ok("act", {"seat": 0, "action": ok("state", {"seat": 0})["view"]["legal"][0]}) \
            if game.current_player == 0 else ok("bot_step", {"seat": 0})
    ok("next_deal", {})
    st = ok("set_seat", {"seat": 1, "kind": "friend", "name": "Bruno"})  # back mid-deal 1
    assert st["seats"][1] == {"kind": "friend", "name": "Bruno", "back": 1}
    st = ok("load", {"save": st["save"]})
    assert st["seats"][1]["back"] == 1  # kept in the save
    game = bridge._BRIDGE.table.match.game
    while not game.is_over:
        seat = game.current_player
        st = ok("act", {"seat": seat, "action": ok("state", {"seat": seat})["view"]["legal"][0]})
    assert st["summary"]["undone"] is True and st["summary"]["back"] == [1]
    st = ok("next_deal", {})
    game = bridge._BRIDGE.table.match.game
    while not game.is_over:
        seat = game.current_player
        st = ok("act", {"seat": seat, "action": ok("state", {"seat": seat})["view"]["legal"][0]})
    assert st["summary"]["undone"] is False and st["summary"]["back"] == []
    # an undo, alone at the table: undone, and no friend said back
    ok("new_match", {"rules": "classic", "seed": 4, "seats": SEATS})
    game = bridge._BRIDGE.table.match.game
    while game.current_player != 0:
        ok("bot_step", {})
    ok("act", {"seat": 0, "action": ok("state", {"seat": 0})["view"]["legal"][0]})
    ok("undo", {"seat": 0})
    game = bridge._BRIDGE.table.match.game  # the deal replayed to before that play
    while not game.is_over:
        st = ok("act", {"seat": 0, "action": ok("state", {"seat": 0})["view"]["legal"][0]}) \
            if game.current_player == 0 else ok("bot_step", {"seat": 0})
    assert st["summary"]["undone"] is True and st["summary"]["back"] == []
    # a save whose human or computer seat says "back" is read without it
    seats = [{"kind": "human", "back": 0}, {"kind": "bot", "level": "random", "back": 0}]
    st = ok("new_match", {"rules": "classic", "seed": 4, "seats": seats})
    assert st["seats"] == [{"kind": "human"}, {"kind": "bot", "level": "random"}]


def test_a_new_match_cannot_say_its_computer_stands_in_for_a_friend():
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random", "stand_in": 0}]
    st = ok("new_match", {"rules": "classic", "seed": 4, "seats": seats})
    assert st["seats"][1] == {"kind": "bot", "level": "random"}
    assert ok("set_seat", {"seat": 1, "kind": "friend"})["match"]["undone"] is True


def test_bot_step_for_a_computers_seat_tells_no_secret_signal():
    """``bot_step {seat: 1}``, seat 1 a computer opponent of the person at seat 0: a signal of
    its partner (seat 3) was answered in full (``signal-A``), which the rule book keeps for the
    partners. A computer's seat is no viewer the page speaks for: it is told "signal"."""
    spec = {"name": "four", "signals": True}
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "intermediate"}] * 3
    hidden = 0
    for seed in range(8):
        bridge.reset()
        ok("new_match", {"rules": spec, "seed": seed, "seats": seats})
        game = bridge._BRIDGE.table.match.game
        while not game.is_over:
            if game.current_player == 0:
                ok("act", {"seat": 0, "action": ok("state", {"seat": 0})["view"]["legal"][0]})
                continue
            seat = game.current_player
            viewer = 3 - seat if seat in (1, 2) else 1  # a computer of the same side
            st = ok("bot_step", {"seat": viewer})
            said = st["bot"]
            assert not said["action"].startswith("signal-"), (seed, seat, viewer, said)
            if said["action"] == "signal":
                hidden += 1
                assert said["reason"] == {"code": "bot_signals", "params": {}}
                assert "signal-" not in json.dumps({k: v for k, v in st.items() if k != "save"})
    assert hidden
    assert err("bot_step", {"seat": 9})["code"] == "bad_request"

# ---- what travels to a friend, what a read leaves, the review of a deal not over ----------
FRIEND_TABLES = {
    # the host's person at seat 0; friends and computers around
    "classic": [{"kind": "human"}, {"kind": "friend", "name": "Bruno"}],
    "four": [{"kind": "human"}, {"kind": "friend", "name": "Bruno"}, {"kind": "bot", "level": "random"},
             {"kind": "friend", "name": "Carla"}],
    "chiamata": [{"kind": "human"}, {"kind": "friend", "name": "Bruno"}, {"kind": "bot", "level": "random"},
                 {"kind": "friend", "name": "Carla"}, {"kind": "friend", "name": "Dario"}],
}
TRAVELLING = ("seat", "view", "seats", "match", "card_points", "order", "summary", "record")


def _travelling(state):
    """What js/friends/common.js's travelling() kept of a state reply."""
    return {k: state[k] for k in TRAVELLING if k in state}


@pytest.mark.parametrize("rules", list(FRIEND_TABLES))
@pytest.mark.parametrize("seed", [1, 2])
def test_every_change_carries_each_friends_view_and_nothing_it_may_not_see(rules, seed):
    """A table with friends: every reply that changes it carries `views`, one per friend seat,
    equal to what `state {seat}` and the page's travelling() gave; no view names a card its
    seat may not know, at any step of whole deals; the host's reply is the host's table."""
    import random
    from test_simulation import cards_in, may_know
    seats = FRIEND_TABLES[rules]
    friends = [s for s, x in enumerate(seats) if x["kind"] == "friend"]
    rng = random.Random(seed)
    st = ok("new_match", {"rules": rules, "seed": seed, "seats": seats})
    game = bridge._BRIDGE.table.match.game
    steps = 0
    while True:
        assert st["changed"] is True and isinstance(st["save"], str)
        assert sorted(st["views"]) == [str(s) for s in friends]
        assert st["seat"] == 0 and not st["view"].get("hand_hidden")
        for s in friends:
            travelling = st["views"][str(s)]
            assert set(travelling) == {k for k in TRAVELLING if k not in ("summary", "record")
                                       or game.is_over}
            assert travelling == _travelling(ok("state", {"seat": s}))
            assert travelling == ok("friend_view", {"seat": s})
            leaked = cards_in({k: v for k, v in travelling["view"].items() if k != "legal"}, set()) \
                - may_know(game, s)
            assert not leaked, (s, sorted(map(str, leaked)))
            assert "save" not in json.dumps(travelling) and "bot" not in travelling
        if game.is_over:
            break
        turn = game.current_player
        if seats[turn]["kind"] == "bot":
            st = ok("bot_step", {"seat": 0})
        else:
            action = rng.choice(st["views"][str(turn)]["view"]["legal"] if turn else st["view"]["legal"])
            st = ok("act", {"seat": turn, "action": action, "viewer": 0})
        steps += 1
    assert steps >= len(game.history) and st["summary"]


def test_a_friends_view_only_for_a_friends_seat():
    ok("new_match", {"rules": "four", "seed": 3, "seats": FRIEND_TABLES["four"]})
    for seat in (0, 2):  # the host's person, a computer
        assert err("friend_view", {"seat": seat})["code"] == "bad_request"
    for seat in (4, -1, "1", None, True):
        assert err("friend_view", {"seat": seat})["code"] == "bad_request"
    # a table without friends: no views in its replies
    st = ok("new_match", {"rules": "classic", "seed": 3, "seats": SEATS})
    assert "views" not in st and st["changed"] is True


def test_an_action_shown_to_another_viewer():
    st = ok("new_match", {"rules": "classic", "seed": 4, "seats": FRIEND_TABLES["classic"]})
    if st["view"]["turn"] == 0:
        st = ok("act", {"seat": 0, "action": st["view"]["legal"][0]})
    action = st["views"]["1"]["view"]["legal"][0]
    assert err("act", {"seat": 1, "action": action, "viewer": 5})["code"] == "bad_request"
    assert err("act", {"seat": 1, "action": action, "viewer": True})["code"] == "bad_request"
    assert ok("state", {"seat": 1})["view"]["turn"] == 1  # refused before it acted
    got = ok("act", {"seat": 1, "action": action, "viewer": 0})
    assert got["seat"] == 0 and action not in got["view"]["hand"]
    assert got["views"]["1"]["seat"] == 1


READS = {"state": {"seat": 0}, "hint": {"seat": 0}, "tracker": {"seat": 0}, "history": {},
         "friend_view": {"seat": 1}, "card_points": {}, "check_rules": {}, "model": {},
         "rating_levels": {}, "ping": {}}


def test_a_read_changes_nothing_and_says_so():
    """After a read the table is as it was and the reply says so (``changed: false``, no
    save: the worker stores nothing); the bridge does not even make a save for one. Every
    change says ``changed: true`` with its save."""
    from briscola.bridge import CHANGES, Table
    assert set(READS).isdisjoint(CHANGES) and CHANGES <= set(bridge._BRIDGE.handlers)
    st = ok("new_match", {"rules": "classic", "seed": 6, "seats": FRIEND_TABLES["classic"]})
    saves = []
    real = Table.save

    def counted(self):
        saves.append(1)
        return real(self)

    for _ in range(12):
        if st["view"]["phase"] == "over":
            break
        before = bridge._BRIDGE.table.save()
        if st["view"]["turn"] == 0:
            for kind, args in READS.items():
                saves.clear()
                Table.save = counted
                try:
                    got = ok(kind, args)
                finally:
                    Table.save = real
                assert not saves, kind
                assert got.get("changed", False) is False and "save" not in got, kind
                assert bridge._BRIDGE.table.save() == before, kind
            st = ok("act", {"seat": 0, "action": st["view"]["legal"][0]})
        else:
            st = ok("act", {"seat": 1, "action": st["views"]["1"]["view"]["legal"][0], "viewer": 0})
        assert st["changed"] is True and st["save"] != before
    # the worker's own request, to keep a new meta: the save of a read, still no change
    got = ok("state", {"save": True})
    assert got["save"] == bridge._BRIDGE.table.save() and got["changed"] is False
    assert err("state", {"save": "yes"})["code"] == "bad_request"


def test_no_review_of_the_deal_being_played():
    """The review and the replay open once the deal is over, for whoever asks (the person's
    own seat too); a finished deal stays open to them while the next one is played."""
    st = ok("new_match", {"rules": "best-of-3", "seed": 5, "seats": FRIEND_TABLES["classic"]})
    asks = [("review_plan", {}), ("review_decision", {"index": 0}), ("review_summary", {}),
            ("review_retry", {"index": 0, "action": "AD"}), ("replay", {"step": 0})]

    def refused(deal):
        for kind, extra in asks:
            for seat in (0, 1):
                before = bridge._BRIDGE.table.save()
                e = err(kind, {"seat": seat, "deal": deal, **extra})
                assert e["code"] == "deal_not_over", (kind, seat, e)
                assert bridge._BRIDGE.table.save() == before
            assert err(kind, extra)["code"] == "deal_not_over"  # the last deal, by default

    while st["view"]["phase"] != "over":
        refused(0)
        turn = st["view"]["turn"]
        legal = st["view"]["legal"] if turn == 0 else st["views"]["1"]["view"]["legal"]
        st = ok("act", {"seat": turn, "action": legal[0], "viewer": 0})
    for seat in (0, 1):
        assert ok("review_plan", {"seat": seat, "deal": 0})["count"] > 0
        assert ok("replay", {"seat": seat, "deal": 0, "step": 0})["steps"] > 0
    ok("next_deal", {})
    refused(1)
    assert ok("review_plan", {"seat": 1, "deal": 0})["deal"] == 0


def test_the_workers_own_fields_pass_through_unread():
    """The worker passes the page's args text on as it came, with the game's id (`game`) and
    a new game's `meta` in it: the bridge reads neither, for any request."""
    extra = {"game": "g-1234", "meta": {"variant": "classic", "names": ["Ada", ""]}}
    start = {"rules": "classic", "seed": 3, "seats": SEATS}
    for kind in bridge._BRIDGE.handlers:
        replies = []
        for more in ({}, extra):
            bridge.reset()
            ok("new_match", start)
            replies.append(call(kind, {"seat": 0, **more}))
        plain, given = replies
        assert plain.get("error", {}).get("code") == given.get("error", {}).get("code"), kind
        if kind not in ("new_match", "ping"):  # (a new match draws its seed; ping says its Python)
            assert plain == given, kind
    bridge.reset()
    assert call("new_match", {**start, **extra}) == (bridge.reset(), call("new_match", start))[1]


@pytest.mark.parametrize("rules", ["classic", "four", "chiamata"])
def test_a_hint_from_a_seats_own_view_is_the_hint_of_the_table(rules):
    """A friend's page asks its own engine for a hint and the card tracker from the view the
    host sent it (``hint_view``, ``tracker_view``: no table): the same answer as the table's
    own ``hint`` and ``tracker`` for that seat, and nothing changes."""
    from briscola.rules import find_variant
    players = find_variant(rules).players
    seats = [{"kind": "human"}] * players
    ok("new_match", {"rules": rules, "seed": 5, "seats": seats})
    game = bridge._BRIDGE.table.match.game
    checked = 0
    while not game.is_over and checked < 12:
        seat = game.current_player
        view = ok("state", {"seat": seat})["view"]
        if len(view["legal"]) > 1 and checked % 3 == 0:
            before = len(game.actions)
            assert ok("hint_view", {"view": view}) == ok("hint", {"seat": seat})
            assert ok("tracker_view", {"view": view}) == ok("tracker", {"seat": seat})
            assert len(game.actions) == before
        checked += 1
        ok("act", {"seat": seat, "action": view["legal"][0]})
    bad = err("hint_view", {"view": {"seat": 0}})
    assert bad["code"] == "bad_view"
    assert err("hint_view", {})["code"] == "bad_request"
