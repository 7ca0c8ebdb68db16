"""A finished deal's public record (py/briscola/record.py): the host's page sends it to each
friend once the deal is over, and the friend's own engine loads it (``review_load``) and reviews
the deal itself. The record holds that deal and nothing of another; a forged one is refused."""
import json
import random
import re

import pytest

from briscola import bridge
from briscola.cards import CARDS
from briscola.record import DealNotOver, RecordError, deal_record, load_record

from test_bridge import err, ok

SEATS = {
    "classic": [{"kind": "human"}, {"kind": "friend", "name": "Bruno"}],
    "best-of-5": [{"kind": "human"}, {"kind": "friend", "name": "Bruno"}],
    "chiamata": [{"kind": "human"}, {"kind": "friend", "name": "Bruno"}, {"kind": "bot", "level": "random"},
                 {"kind": "friend", "name": "Carla"}, {"kind": "friend", "name": "Dario"}],
}
SEED = "the-match-seed-XYZ"


@pytest.fixture(autouse=True)
def fresh():
    bridge.reset()
    yield
    bridge.reset()


def play_deal(rules="classic", seed=SEED, pick=0):
    """A friends table's first deal played to its end; the last reply (the host's)."""
    rng = random.Random(pick)
    st = ok("new_match", {"rules": rules, "seed": seed, "seats": SEATS[rules]})
    game = bridge._BRIDGE.table.match.game
    while not game.is_over:
        assert "record" not in st and all("record" not in v for v in st["views"].values())
        turn = game.current_player
        if SEATS[rules][turn]["kind"] == "bot":
            st = ok("bot_step", {"seat": 0})
        else:
            st = ok("act", {"seat": turn, "action": rng.choice([str(a) for a in game.legal_actions()]),
                            "viewer": 0})
    return st


def host_record(rules="classic"):
    """A friends table's first deal played out: its record, as every friend's view has it."""
    st = play_deal(rules)
    record = st["record"]
    # every friend's view carries the same record, and state {seat} gives it too
    for s, v in st["views"].items():
        assert v["record"] == record
        assert ok("state", {"seat": int(s)})["record"] == record
    return record


def loaded_elsewhere(record):
    """The record loaded by another engine (a friend's worker: its own bridge, no table)."""
    host = bridge._BRIDGE
    bridge._BRIDGE = bridge.Bridge()
    try:
        return ok("review_load", {"record": record}), bridge._BRIDGE
    finally:
        bridge._BRIDGE = host


def on(engine, kind, args):
    host = bridge._BRIDGE
    bridge._BRIDGE = engine
    try:
        return json.loads(bridge.call(kind, json.dumps(args)))
    finally:
        bridge._BRIDGE = host


@pytest.mark.parametrize("rules", ["classic", "chiamata"])
def test_a_friends_own_review_equals_the_hosts(rules):
    record = host_record(rules)
    got, friend = loaded_elsewhere(record)
    assert got == {"deal": 0, "seats": SEATS[rules], "steps": len(record["actions"])}
    for seat in [s for s, x in enumerate(SEATS[rules]) if x["kind"] == "friend"][:1]:
        plan = ok("review_plan", {"deal": 0, "seat": seat})
        assert on(friend, "review_plan", {"deal": 0, "seat": seat, "record": True}) == {"result": plan}
        for step in (0, 7, plan["decisions"][-1]["step"], len(record["actions"])):
            for all_hands in (False, True):
                args = {"deal": 0, "seat": seat, "step": step, "all_hands": all_hands}
                assert on(friend, "replay", {**args, "record": True}) == {"result": ok("replay", args)}
        decisions = plan["decisions"] if rules == "classic" else plan["decisions"][:2]
        for d in decisions:
            args = {"deal": 0, "seat": seat, "index": d["index"]}
            assert on(friend, "review_decision", {**args, "record": True}) == {"result": ok("review_decision", args)}
        if rules == "classic":
            assert on(friend, "review_summary", {"deal": 0, "seat": seat, "record": True}) == \
                {"result": ok("review_summary", {"deal": 0, "seat": seat})}
            play = next(d for d in plan["decisions"] if d["phase"] == "play")
            hand = ok("replay", {"deal": 0, "seat": seat, "step": play["step"]})["view"]["hand"]
            args = {"deal": 0, "seat": seat, "index": play["index"], "action": hand[-1]}
            assert on(friend, "review_retry", {**args, "record": True}) == {"result": ok("review_retry", args)}
    # the friend's engine has no table: a review without `record` is not of the record
    assert on(friend, "review_plan", {"deal": 0, "seat": 1})["error"]["code"] == "bad_request"


def test_the_record_holds_no_seed_and_nothing_of_a_later_deal():
    record = host_record("best-of-5")
    text = json.dumps(record)
    assert SEED not in text and "seed" not in text
    assert set(record) == {"format", "version", "deal", "rules", "dealer", "deck", "actions", "seats"}
    match = bridge._BRIDGE.table.match
    assert record["deck"] == " ".join(str(CARDS[c]) for c in match.history()[0].deck)
    st = ok("next_deal", {"seat": 0})
    assert "record" not in st and all("record" not in v for v in st["views"].values())
    game = bridge._BRIDGE.table.match.game
    assert deal_record(match.history()[0], 0, SEATS["classic"]) == record  # it does not move on
    assert record["deck"] != " ".join(str(CARDS[c]) for c in game.deck)


def test_a_deal_not_over_has_no_record():
    ok("new_match", {"rules": "classic", "seed": 3, "seats": SEATS["classic"]})
    game = bridge._BRIDGE.table.match.game
    with pytest.raises(DealNotOver, match="being played"):
        deal_record(game, 0, SEATS["classic"])
    game.apply(game.legal_actions()[0])
    with pytest.raises(DealNotOver):
        deal_record(game, 0, SEATS["classic"])
    # a table without friends sends none either, over or not
    st = play_deal()
    ok("new_match", {"rules": "classic", "seed": 3})
    g = bridge._BRIDGE.table.match.game
    while not g.is_over:
        st = ok("act", {"seat": g.current_player, "action": str(g.legal_actions()[0])}) \
            if g.current_player == 0 else ok("bot_step", {})
    assert "summary" in st and "record" not in st


def forged(record):
    """Records forged from a true one, each with what its refusal says."""
    words = record["deck"].split()
    moved = words[:]
    moved[0], moved[-1] = moved[-1], moved[0]  # a card of the first hand moved into the talon
    twice = words[:]
    twice[1] = twice[0]
    illegal = list(record["actions"])
    first_hand = set(words[:6])
    illegal[0] = next(w for w in words if w not in first_hand)  # a card no hand held then
    return [
        ({**record, "deck": " ".join(moved)}, "not legal"),
        ({**record, "deck": " ".join(twice)}, "deck"),
        ({**record, "deck": " ".join(words[:-1])}, "deck"),
        ({**record, "actions": illegal}, "action 1"),
        ({**record, "actions": record["actions"][:-1]}, "not over"),
        ({**record, "actions": record["actions"] + [record["actions"][0]]}, "after the deal is over"),
        ({**record, "seed": SEED}, "unknown fields seed"),
        ({**record, "next": {"deck": record["deck"]}}, "unknown fields next"),
        ({k: v for k, v in record.items() if k != "dealer"}, "missing dealer"),
        ({**record, "format": "briscola/game"}, "format"),
        ({**record, "deal": -1}, "deal"),
        ({**record, "deal": True}, "deal"),
        ({**record, "dealer": 2}, "dealer"),
        ({**record, "rules": {"name": "nonsense"}}, "rules"),
        ({**record, "rules": ["classic"]}, "rules"),
        ({**record, "deck": 12}, "deck"),
        ({**record, "actions": "AD 3S"}, "actions"),
        ({**record, "actions": [None] * 3}, "action 1"),
        ({**record, "seats": record["seats"][:1]}, "seats"),
        ({**record, "seats": [{"kind": "human", "seed": 1}, record["seats"][1]]}, "seats[0]"),
        ({**record, "seats": [{"kind": "god"}, record["seats"][1]]}, "seats[0]"),
        (None, "object"),
        ([record], "object"),
        ("garbage", "object"),
    ]


def test_a_forged_or_broken_record_is_refused_and_changes_nothing():
    record = host_record()
    good, friend = loaded_elsewhere(record)
    plan = on(friend, "review_plan", {"deal": 0, "seat": 1, "record": True})["result"]
    first = on(friend, "review_decision", {"deal": 0, "seat": 1, "index": 0, "record": True})["result"]
    for bad, says in forged(record):
        with pytest.raises(RecordError, match=re.escape(says)):
            load_record(bad)
        reply = on(friend, "review_load", {"record": bad})
        assert reply["error"]["code"] == "bad_record" and says in reply["error"]["message"], (says, reply)
        # nothing changed: the record loaded before still answers, its decisions kept
        assert list(friend.records) == [0] and friend.record_reviews[(0, 1)][0] == first
        assert on(friend, "review_plan", {"deal": 0, "seat": 1, "record": True})["result"] == plan
    assert on(friend, "review_load", {})["error"]["code"] == "bad_record"
    # a review of a deal never loaded, or with a record flag that is not true or false
    assert on(friend, "review_plan", {"deal": 1, "seat": 1, "record": True})["error"]["code"] == "bad_request"
    assert on(friend, "replay", {"deal": 0, "seat": 1, "step": 0, "record": 1})["error"]["code"] == "bad_request"
    assert on(friend, "review_plan", {"deal": 0, "seat": 2, "record": True})["error"]["code"] == "bad_request"


def test_loading_leaves_the_friends_own_table_as_it_was():
    record = host_record()
    bridge._BRIDGE = bridge.Bridge()
    ok("new_match", {"rules": "classic", "seed": 11})  # the friend's own game, elsewhere
    before = bridge._BRIDGE.table.save()
    assert ok("review_load", {"record": record})["deal"] == 0
    assert bridge._BRIDGE.table.save() == before
    # the table's own deal 0 is not over: not the record's
    assert err("review_plan", {"deal": 0, "seat": 0})["code"] == "deal_not_over"
    assert ok("review_plan", {"deal": 0, "seat": 0, "record": True})["seat"] == 0
    # a record of the same number but another deal replaces it, and its evaluations
    ok("review_decision", {"deal": 0, "seat": 1, "index": 0, "record": True})
    other = play_deal(pick=5)["record"]
    assert other != record
    ok("review_load", {"record": other})
    assert (0, 1) not in bridge._BRIDGE.record_reviews
    assert ok("replay", {"deal": 0, "seat": 0, "record": True})["view"]["events"] != []
