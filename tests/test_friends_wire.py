"""What a page of "play with friends" does with a message from another device before reading
it (js/friends/wire.js, run in Node): the size of the text first, then JSON, then the envelope;
anything else is refused with a code the page words in every language."""
import json
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tests" / "js" / "friends_wire.mjs"


def run(node, cases):
    out = subprocess.run([node, str(SCRIPT), json.dumps(cases)], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def test_messages_are_checked_for_size_before_they_are_parsed_then_for_shape(node):
    v = run(node, [])["protocol"]
    good = json.dumps({"v": v, "t": "req", "id": 1, "type": "act", "args": {"action": "AD"}})
    limit = run(node, [])["limit"]
    cases = [
        [good, None],
        [good + " " * (limit - len(good) + 1), None],  # one character over the limit: not parsed
        ["{" * 5000, 10000],  # within the size, deep and broken: not JSON
        ["[" * 3000 + "]" * 3000, 100000],  # JSON, but not an object
        [json.dumps({"v": v}), None],  # no type
        [json.dumps({"v": v + 1, "t": "req"}), None],  # another version
        [json.dumps({"t": "req"}), None],  # no version
        [7, None],  # not text (a peer that sent an object or bytes)
        ["not json", None],
    ]
    out = run(node, cases)["read"]
    assert out[0] == {"value": json.loads(good)}
    codes = [r.get("error", {}).get("code") for r in out[1:]]
    assert codes == ["friends_too_big", "friends_bad_message", "friends_bad_message", "friends_bad_message",
                     "friends_version", "friends_version", "friends_bad_message", "friends_bad_message"]
    for r, code in zip(out[1:], codes):
        # a message of another version goes with its refusal (a host's proof is still checked:
        # js/friends/guest.js), no other refused message does
        assert set(r) == ({"error", "value"} if code == "friends_version" else {"error"}) and r["error"]["message"]
    assert out[5]["value"] == {"v": v + 1, "t": "req"}


def test_nesting_and_relays(node):
    out = run(node, [])
    # the frames the pages take from a data channel (mends.js, frameDoor): this room's, of the
    # pages' action or Trystero's own, and its presence; not another room's, nor an action no
    # page uses (Trystero would keep them), nor what is no frame
    assert out["frames"] == [None, None, "action", "room", None, "room", "frame", "frame", "frame"]
    # what a friend's page lets a peer leave unfinished (PartsBound): nothing from a page that is
    # not the host's; from the host's, two messages at once, each bounded in bytes and time
    assert [bool(x) for x in out["parts"]] == [True, False, False, False, False, True, False, True]
    assert out["ticks"] == [[], ["host"], []]
    assert out["deep"] == [False, True, True, False]
    assert out["relays"] == ["wss://a.example/announce", "ws://127.0.0.1:8000"]
    # a `nostr:` entry is a Nostr relay (the second signalling medium), any other a tracker
    assert out["media"] == {"trackers": ["wss://t.example"], "nostr": ["wss://n.example", "ws://127.0.0.1:9"]}


def test_a_fair_deals_messages_reach_the_host_and_nothing_else_grows(node):
    """A friend's page at a fair table sends the host its fair-deal messages to carry: the
    biggest a FairTable sends (a shuffle of the 48-card Spanish deck, 4.4 KB; of a 64-card deck;
    its shares of 64 positions at once, 9 KB) pass the host's bound (js/friends/pairs.js with
    wire.js limitFor), sealed and through the transport's size check; every other message keeps
    the 4 KB (a request as big is refused), and a fair message past LIMIT_FAIR is refused too
    (tests/js/fair_limit.mjs, the real FairTable messages, the real pairs)."""
    out = subprocess.run([node, str(ROOT / "tests" / "js" / "fair_limit.mjs")], capture_output=True,
                         text=True, check=True, timeout=120, cwd=ROOT)
    got = json.loads(out.stdout)
    assert got["limitFor"] == [got["fair"], got["limit"], 262144]
    for name in ("spanish_shuffle", "spanish_tokens", "shuffle_64", "tokens_64", "small_request"):
        assert got[name]["ok"] and got[name]["refused"] is None, (name, got[name])
    assert got["spanish_shuffle"]["size"] > got["limit"]  # what 4 KB refused
    assert got["tokens_64"]["size"] <= got["fair"] - 1000  # the biggest, with room to spare
    assert got["big_request"] == {"size": got["big_request"]["size"], "ok": False, "refused": "friends_too_big"}
    assert got["fair_too_big"]["refused"] == "friends_too_big" and got["fair_too_big"]["size"] > got["fair"]
