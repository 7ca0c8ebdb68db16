"""The referee of a table with friends (js/friends/referee.js, run in Node by
tests/js/referee.mjs against a fake transport and a fake worker): what the host's page does with
each message from a friend's page. A friend acts and asks for its own seat only; only its plays
and its view requests reach the worker, well formed (a finished deal's review is the friend's own
engine's); each peer is bounded in rate, in requests waiting and in chunked messages left
unfinished."""
import json
import subprocess
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tests" / "js" / "referee.mjs"


def run(node, *args):
    out = subprocess.run([node, str(SCRIPT), *map(str, args)], capture_output=True, text=True, check=True, timeout=300)
    return json.loads(out.stdout)


def code(msg):
    return msg.get("code") or (msg.get("error") or {}).get("code")


def test_a_friend_acts_and_asks_for_its_own_seat_only(node):
    out = run(node, "basics")
    sent = out["sent"]
    to = lambda peer: [m for p, m in sent if p == peer]  # noqa: E731
    # the worker was asked four things, each for the asking page's own seat whatever it said
    assert [(c["peer"], c["type"], c["args"]) for c in out["asked"]] == [
        ("p1", "act", {"game": "g1", "seat": 1, "action": "AD"}),  # args.seat 2 ignored
        ("p1", "state", {"game": "g1", "seat": 1}),  # args.seat 0 ignored
        ("p2", "act", {"game": "g1", "seat": 2, "action": "XX"}),
        ("p2", "state", {"game": "g1", "seat": 2}),  # a sync
    ]
    p1 = {m["id"]: m for m in to("p1") if m["t"] == "res"}
    # the play's answer: the seat's own view from the reply's views (no save, not the host's table)
    assert p1[1]["n"] == 2 and p1[1]["result"] == {"seat": 1, "view": {"hand": ["secret-of-1"]}, "seats": [], "match": {"deal": 0}}
    assert "save" not in json.dumps(sent)
    assert code(p1[3]) == code(p1[4]) == "friends_not_offered"  # a hint, the tracker: refused at once
    # a finished deal's review: the friend's page reviews it itself, from the deal's record
    assert code(p1[5]) == code(p1[6]) == "friends_not_offered"
    assert "own engine" in p1[6]["error"]["message"]
    assert code([m for m in to("p1") if m["t"] == "res" and m["id"] == 2][1]) == "friends_bad_message"  # an id again
    assert [code(m) for m in to("p1") if m["t"] == "error"] == ["friends_seat_taken"]  # another page's seat
    p2 = to("p2")
    assert [code(m) for m in p2 if m["t"] in ("res", "error")] == ["illegal_action", "friends_bad_message", "friends_bad_message"]
    assert [m["t"] for m in p2][-1] == "view" and p2[-1]["state"]["seat"] == 2
    p3 = to("p3")
    assert [code(m) for m in p3 if m["t"] in ("res", "error")] == [
        "friends_build", "friends_seat_taken", "friends_no_seat", "friends_not_seated", "friends_not_seated",
        "friends_bad_message"]  # a `who` with no key
    # one proof, with the host's ECDH key, signed over the nonce, both ids and both keys; the
    # same id asking with another key is answered nothing (js/friends/pairs.js)
    proofs = [m for m in p3 if m["t"] == "host"]
    assert proofs == [{"t": "host", "sig": f"sig:{len('n' * 20 + '|p3|host-peer|' + 'K' * 87 + '|' + 'H' * 87)}", "dh": "H" * 87}]
    # the seats: each friend's, with its token and peer; the host's untouched
    assert [(s.get("peer"), s.get("token", "")[:1]) for s in out["seats"]] == [(None, ""), ("p1", "T"), ("p2", "U")]
    assert out["played"] == 1 and out["seated"] == [["p1", 1], ["p2", 2]]
    assert out["dropped"] == [] and out["warnings"] == []


def test_a_friend_s_card_is_one_worker_call_each_friend_its_own_view_from_the_reply(node):
    """The worker's answer to a friend's play carries every friend seat's view (`views`): the
    friend who played is answered, and every other friend pushed its view, from it; one worker
    call a card at a table of 2 as of 4. Without the views (the reply of the play's own seat),
    each other friend's view is asked: 1 + (friends - 1) calls. A sync still asks."""
    out = run(node, "views")
    for name, friends in (("two", 1), ("four", 3)):
        row = out[name]
        assert row["asked"] == ["act"], (name, row["asked"])
        assert row["afterSync"] == ["state"]
        got = {peer: (t, n, state) for peer, t, n, state in row["sent"]}
        assert sorted(got) == [f"p{i}" for i in range(1, friends + 1)]
        assert got["p1"][:2] == ("res", 2)
        for i in range(1, friends + 1):
            t, n, state = got[f"p{i}"]
            assert n == 2 and t == ("res" if i == 1 else "view")
            assert state == {"seat": i, "view": {"hand": [f"secret-of-{i}"]}, "seats": [], "match": {"deal": 0}}
        before = out[name + "Before"]
        assert before["asked"] == ["act"] + ["state"] * (friends - 1)
        for peer, t, n, state in before["sent"]:
            assert state["seat"] == int(peer[1:]) and "save" not in state
    assert "secret-of-0" not in json.dumps(out)  # the host's table never went to a friend


def test_each_peer_is_held_to_its_rate_told_and_let_go_after_a_sustained_flood(node):
    out = run(node, "rate")
    b = out["bounds"]
    # 100 at once: the burst is heard (each refused at once: hints), the rest told once
    assert Counter(code(m) for _, m in out["burst"]) == {"friends_not_offered": b["burst"], "friends_slow_down": 1}
    # a page at half the rate for a minute is never held up
    assert Counter(code(m) for _, m in out["calm"]) == {"friends_not_offered": 600}
    # 200 a second: let go once it lasted floodMs (its burst spent first), its seat kept for it
    assert out["dropped"] == [["p1", "flood"]]
    assert b["floodMs"] <= out["floodMs"] <= b["floodMs"] + 500
    assert out["after"] is False and out["seat"] is None


def test_requests_waiting_for_the_worker_are_bounded_per_peer(node):
    out = run(node, "queue")
    q = 4
    assert out["asked"] == q  # four wait for the worker, the rest are refused at once
    assert out["refused"] == [[i, "friends_busy"] for i in range(q + 1, 9)]
    assert out["askedOther"] == q + 1  # another friend is not held up by the first
    assert out["askedAfter"] == q + 2  # an answer frees a place
    assert out["waiting"] == [0, 0]


def test_chunked_messages_left_unfinished_are_bounded_in_number_size_and_age(node):
    out = run(node, "parts")
    assert out["afterFinished"] == 0  # a message whose last part came is forgotten
    assert out["threeHeld"] == [3, 0]
    assert out["fourth"] == [0, [["p1", "parts"]], None]  # a fourth: the peer let go, its parts forgotten
    assert out["big"] == [0, [["p1", "parts"], ["p2", "parts"]]]  # one past 64 KB
    assert out["young"] == [1, 2]
    assert out["old"] == [0, [["p1", "parts"], ["p2", "parts"], ["p3", "parts"]]]  # one 10 s old
    assert out["afterDrop"] == 0  # what is still on its way from a peer let go is not heard
    assert out["back"] == [["p3", "friends_not_seated"]]  # the same page connected again is heard
    assert out["odd"] == [0, []]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_and_hostile_messages_never_break_the_referee(node, seed):
    """20,000 random steps from four pages (two seated friends, two strangers who know no seat's
    token): malformed shapes, wrong types, 100,000-character strings, unknown types, forged
    seats, ids again, floods, chunk floods and chunked messages never finished; a page let go
    comes back as a new peer. After every step: nothing thrown, every call the worker got well
    formed and for the asking page's own seat, and what the referee holds within its bounds."""
    out = run(node, "fuzz", seed)
    b = out["bounds"]
    assert out["badCount"] == 0, out["bad"]
    assert out["warnings"] == []
    m = out["maxima"]
    assert m["waiting"] <= b["queue"] and m["parts"] <= b["parts"] and m["ids"] <= b["ids"]
    assert m["peers"] <= 4 and m["dropped"] <= 64
    # the run went everywhere: the worker asked, peers let go and back, every kind of refusal
    assert out["asked"] > 500 and out["dropped"] > 50 and m["comebacks"] > 50
    for c in ("friends_bad_message", "friends_not_seated", "friends_seat_taken", "friends_no_seat",
              "friends_build", "friends_slow_down", "friends_busy", "friends_not_offered"):
        assert out["codes"].get(c, 0) > 0, (c, out["codes"])


def test_a_name_keeps_no_direction_of_its_own(node):
    """A friend's name with U+202E (right-to-left override) flipped the words around it
    ("yalp ot"): the marks and overrides of the text's direction are taken out, the letters kept."""
    script = ("import('./js/friends/referee.js').then((m) => console.log(JSON.stringify("
              "['Bru\\u202eno', '\\u2067Wanda\\u2069', 'a\\u200fb\\u061c', 'سارة'].map(m.cleanName))))")
    out = subprocess.run([node, "--input-type=module", "-e", script], capture_output=True, text=True, check=True, cwd=ROOT)
    assert json.loads(out.stdout) == ["Bruno", "Wanda", "ab", "سارة"]
