"""The fair deal's protocol (js/fair/, docs/friends.md "The fair deal"), run in Node by
tests/js/fairdeal.mjs: one FairTable per device against a fake transport whose lanes cross at
random. Honest deals at two to six devices, and each cheat caught and named: a wrong reveal
token (alone, or among the shares proven together: one wrong, two swapped, two moved by opposite
amounts, the proof made again for them), a card duplicated or substituted in a shuffle, replayed, reordered and renumbered
messages, a card claimed that a device does not hold, a position played that was dealt to
another, a share sent for a card to a device the game did not deal it to, a commitment that
does not open, a false accusation. The truth each test compares with is read in the script
with every device's secret together (which no device has)."""
import json
import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest

from once import once

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tests" / "js" / "fairdeal.mjs"


@pytest.fixture(scope="module")
def runs(node, request, tmp_path_factory):
    """Every scenario in one Node process (the library loads once), once a test run (once.py:
    25 s of a core, not again for each worker that gets some of these tests)."""
    def run():
        return subprocess.run([node, str(SCRIPT), "all"], capture_output=True, text=True, check=True, timeout=300,
                              cwd=ROOT).stdout
    text = once(request, tmp_path_factory, "fairdeal", run)
    return {d["name"]: d for d in map(json.loads, text.splitlines())}


def honest_deal(d, *, hand, trump=True, partners=(), whole=True):
    n = d["devices"]
    truth = d["truth"]
    # the deck dealt is a permutation of the variant's deck
    assert sorted(truth) == sorted(d["deck"]) and len(set(truth)) == len(truth)
    seen = d["seen"]
    opened_by = {}
    for me, s in enumerate(seen):
        assert s["refused"] == [] and s["cheats"] == []
        assert s["ready"] == 1
        # every card this device was dealt reached it, and the right one
        for pos, card in s["cards"]:
            assert truth[pos] == card
        mine = {pos for pos, _ in s["cards"]}
        # it was dealt its positions of the first deal, and no position twice
        assert {k for k in range(n * hand) if k % n == me} <= mine
        assert len(mine) == len(s["cards"])
        # opened cards agree with the truth, on every device the same
        for pos, card, by in s["opened"]:
            assert truth[pos] == card
            opened_by.setdefault((pos, by), set()).add(me)
        assert s["checks"] == [[True, None, None, None]]
    # each card reached exactly one holder privately (the face-up trump, opened to all, none)
    holders = Counter(pos for s in seen for pos, _ in s["cards"])
    assert all(v == 1 for v in holders.values())
    face_up = {n * hand} if trump else set()
    assert set(holders) <= set(range(len(truth))) - face_up
    if whole:
        assert set(holders) == set(range(len(truth))) - face_up
    # every position opened was opened on every device (played, or the face-up trump); in a
    # whole deal, every position
    assert all(devs == set(range(n)) for devs in opened_by.values())
    if whole:
        assert {pos for pos, _ in opened_by} == set(range(len(truth)))
    # partners: each saw the others' hands once the talon was used up (their unplayed cards,
    # shown to it alone)
    for team in partners:
        for me in team:
            shown = seen[me]["shown"]
            assert shown, (me, team)
            assert {holder for _, _, holder in shown} == set(team) - {me}
            for pos, card, holder in shown:
                assert truth[pos] == card
                assert [pos, card] in seen[holder]["cards"] or pos == n * hand
    others = set(range(n)) - {m for team in partners for m in team}
    for me in others:
        assert seen[me]["shown"] == []


def test_honest_deal_two_devices_with_the_exchange_of_the_trump(runs):
    d = runs["honest2"]
    honest_deal(d, hand=3)
    # device 1 gave up a card of its first hand face up (opened, by 1) for the face-up trump,
    # before any trick: the first card it opened, the same on both devices
    given = [o for o in d["seen"][0]["opened"] if o[2] == 1][0]
    assert given[0] in (1, 3, 5) and given == [o for o in d["seen"][1]["opened"] if o[2] == 1][0]
    # and whoever drew last took that card (its position opened a second time when played)
    assert sum(1 for o in d["seen"][0]["opened"] if o[0] == given[0]) == 2


def test_honest_deal_three_devices_39_cards(runs):
    d = runs["honest3"]
    assert len(d["deck"]) == 39 and "2B" not in d["deck"]
    # three tricks (the whole deal is honest2's): each device drew and led once
    honest_deal(d, hand=3, whole=False)
    assert all(len(s["cards"]) == 3 + 3 for s in d["seen"])
    assert all(len(s["opened"]) == 1 + 3 * 3 for s in d["seen"])


def test_honest_deal_four_devices_partners_see_each_others_hands(runs):
    d = runs["honest4"]
    # eight tricks of ten: the talon used up in the seventh, the partners' hands shown with the
    # eighth's first card
    honest_deal(d, hand=3, partners=[(0, 2), (1, 3)], whole=False)
    assert sum(len(s["cards"]) for s in d["seen"]) == 39  # every card but the face-up trump (taken last)
    assert all(len(s["opened"]) == 1 + 8 * 4 for s in d["seen"])


def test_honest_chiamata_five_devices_eight_cards_each_no_face_up_card(runs):
    d = runs["chiamata5"]
    honest_deal(d, hand=8, trump=False, whole=False)  # (two tricks of eight: there is no talon)
    assert all(len(s["cards"]) == 8 for s in d["seen"])
    assert all(len(s["opened"]) == 2 * 5 for s in d["seen"])


def test_honest_deal_six_devices_36_cards_teams_of_three(runs):
    d = runs["honest6"]
    assert len(d["deck"]) == 36
    # three tricks of six: the whole talon drawn, the partners shown their hands
    honest_deal(d, hand=3, partners=[(0, 2, 4), (1, 3, 5)], whole=False)
    assert all(len(s["cards"]) == 6 or len(s["cards"]) == 5 for s in d["seen"])
    assert sum(len(s["cards"]) for s in d["seen"]) == 35  # every card but the face-up trump
    assert all(len(s["opened"]) == 1 + 3 * 6 for s in d["seen"])


def test_a_device_that_reloads_mid_deal_carries_on_from_its_snapshot(runs):
    d = runs["reload"]
    # the table made again from the snapshot (through JSON) has the hand and the very messages
    # it had sent (so nothing changes for the others), and the deal goes on to a fair end
    assert d["same"] is True
    honest_deal(d, hand=3, whole=False)
    assert len(d["seen"][1]["opened"]) == 1 + 4 * 2  # the face-up trump and four tricks
    assert d["refused"] == ["fair: not a saved fair deal of this version"] * 2 + [
        "fair: a saved step that is not one (shuffle)"]


def cheat_named(d, device, code, honest):
    for me in honest:
        s = d["seen"][me]
        assert s["checks"] and s["checks"][0][:3] == [False, device, code], (me, s["checks"])
        assert s["checks"][0][3]  # said in words


def test_a_wrong_reveal_token_stops_the_deal_and_names_the_device(runs):
    d = runs["bad_token"]
    # the holder (device 0) finds device 1's share of its card wrong; device 2 checks the share itself
    assert [c[:2] for c in d["seen"][0]["cheats"]] == [[1, "bad_token"]]
    assert [c[:2] for c in d["seen"][2]["cheats"]] == [[1, "bad_token"]]
    assert [pos for pos, _ in d["seen"][0]["cards"]] == []  # the card never reached device 0 wrong
    cheat_named(d, 1, "bad_token", honest=[0, 2])


@pytest.mark.parametrize("name", ["batch_one_wrong", "batch_swapped", "batch_offset"])
def test_a_wrong_share_among_those_proven_together_is_caught_and_names_the_sender(runs, name):
    """Device 1's eight shares for device 0 go with one proof (of their combination, its weights
    hashed from every share): one share wrong, two swapped between their positions, or two moved
    by opposite amounts (their sum the true one's, which a proof of the plain sum would pass)
    stops the deal at the holder, and every other device checks the proof itself."""
    d = runs[name]
    for me in (0, 2):
        assert [c[:2] for c in d["seen"][me]["cheats"]] == [[1, "bad_token"]], (me, d["seen"][me]["cheats"])
    assert d["seen"][0]["cards"] == []  # none of device 0's cards read with a wrong share
    cheat_named(d, 1, "bad_token", honest=[0, 2])


def test_a_counter_accusation_is_checked_too(runs):
    d = runs["counter_accusation"]
    # device 2 heard device 1's "device 0 accused me falsely" before device 0's accusation: it
    # checked the share itself, and named device 1
    assert [c[:2] for c in d["seen"][2]["cheats"]] == [[1, "bad_token"]]
    cheat_named(d, 1, "bad_token", honest=[0, 2])


@pytest.mark.parametrize("name", ["duplicate_shuffle", "substitute_shuffle"])
def test_a_card_duplicated_or_substituted_in_a_shuffle_is_caught_and_the_check_names_the_shuffler(runs, name):
    d = runs[name]
    # during the deal, the same card at two positions stops it (nobody can say who yet) ...
    assert [c[:2] for c in d["seen"][0]["cheats"]] == [[None, "duplicate"]]
    # ... and the commitments opened then name the device whose shuffle is not a re-masked permutation
    cheat_named(d, 1, "shuffle", honest=[0])


def test_replayed_and_reordered_messages_are_refused_and_change_nothing(runs):
    d = runs["replay"]
    refused = Counter(code for dev, code in d["seen"][0]["refused"] if dev == 1)
    assert refused["replay"] >= 5 and refused["out_of_order"] == 1 and set(refused) == {"replay", "out_of_order"}
    honest_deal({**d, "seen": [{**s, "refused": []} for s in d["seen"]]}, hand=3, whole=False)
    assert len(d["seen"][0]["opened"]) == 1 + 4 * 2  # the face-up trump and four tricks


def test_a_message_sent_again_under_a_new_number_is_a_cheat(runs):
    d = runs["renumbered"]
    assert [c[:2] for c in d["seen"][0]["cheats"]] == [[1, "protocol"]]
    cheat_named(d, 1, "protocol", honest=[0])


def test_every_proof_is_bound_to_its_message(runs):
    assert runs["binding"]["verified"] == {"same": True, "seq": False, "pos": False, "to": False, "sender": False,
                                           "kind": False, "table": False, "round": False}
    # the one proof of a message's shares for one recipient: the shares in any order, nothing else
    assert runs["binding"]["shares"] == {"same": True, "order": True, "seq": False, "to": False, "sender": False,
                                         "kind": False, "table": False, "round": False, "pos": False, "fewer": False,
                                         "more": False, "swapped": False, "wrong": False}


def test_a_card_claimed_that_the_device_does_not_hold_is_caught(runs):
    d = runs["claim"]
    assert [c[:2] for c in d["seen"][0]["cheats"]] == [[1, "claimed"]]
    cheat_named(d, 1, "claimed", honest=[0])


def test_a_position_dealt_to_another_played_is_caught(runs):
    d = runs["not_its_card"]
    assert [c[:2] for c in d["seen"][0]["cheats"]] == [[1, "not_its_card"]]
    cheat_named(d, 1, "not_its_card", honest=[0])


def test_a_share_sent_for_a_card_the_game_dealt_to_another_is_caught(runs):
    d = runs["opens_another"]
    for me in (0, 1):
        assert [c[:2] for c in d["seen"][me]["cheats"]] == [[2, "unasked"]]
    cheat_named(d, 2, "unasked", honest=[0, 1])
    # the card (position 10, drawn by device 0 after the first trick) reached nobody else
    assert all(10 not in [pos for pos, _ in s["cards"]] for s in d["seen"][1:])


def test_a_commitment_that_does_not_open_is_named_by_the_check(runs):
    d = runs["bad_opening"]
    assert d["seen"][0]["cheats"] == []  # the deal itself went through
    cheat_named(d, 1, "commitment", honest=[0])


def test_a_device_that_sends_different_messages_to_different_devices_is_caught_by_the_check(runs):
    d = runs["two_faced"]
    assert d["seen"][0]["cheats"] == [] and d["seen"][2]["cheats"] == []  # the deal went on
    cheat_named(d, None, "transcripts", honest=[0, 2])


@pytest.mark.parametrize("name,code", [("rogue_key", "key_proof"), ("unmasked", "shuffle")])
def test_a_key_without_its_proof_or_a_card_left_unmasked_stops_the_deal_before_it_is_dealt(runs, name, code):
    d = runs[name]
    assert [c[:2] for c in d["seen"][0]["cheats"]] == [[1, code]]
    assert d["seen"][0]["ready"] == 0 and d["seen"][0]["cards"] == []
    assert d["seen"][0]["checks"][0][:3] == [False, 1, code]


def test_a_message_changed_on_the_way_names_the_device_that_carried_it(runs):
    """js/fair/sign.js: the hub (device 0, the host's page) changes device 1's shares on their
    way to device 2. Without signatures device 2 would find device 1's share wrong and name
    device 1, who sent it right; signed, device 2 names the hub, and so does every device."""
    d = runs["changed_on_the_way"]
    assert [c[:2] for c in d["seen"][2]["cheats"]] == [[0, "changed"]]
    assert "device 0 carried it" in d["seen"][2]["cheats"][0][2]
    for s in d["seen"]:
        assert s["checks"] and s["checks"][0][:3] == [False, 0, "changed"]
        assert all(c[0] != 1 for c in s["cheats"])  # the sender, honest, is named nowhere


def test_a_message_its_sender_did_not_sign_is_refused_and_carried_to_no_one(runs):
    """A device that sends a message under a signature that is not its own (to have the host
    named for changing it) has it refused by the host, which changes nothing and carries it to
    no one: nobody is named, and the deal goes on with its real message to a fair end."""
    d = runs["unsigned_by_its_sender"]
    assert d["dropped"] == 1  # the hub did not pass it to device 2
    assert d["seen"][0]["refused"] == [[1, "unsigned"]]
    for s in d["seen"]:
        assert s["cheats"] == [] and s["checks"] == [[True, None, None, None]]
    assert d["seen"][2]["refused"] == []  # device 2 never heard it


def test_a_false_accusation_names_the_accuser(runs):
    d = runs["false_accusation"]
    for me in (0, 1):
        assert [c[:2] for c in d["seen"][me]["cheats"]] == [[2, "false_accusation"]]
    cheat_named(d, 2, "false_accusation", honest=[0, 1])



def test_a_cheat_one_device_s_engine_finds_stops_the_deal_on_every_device(runs):
    """What the protocol cannot see (an action the rules refuse, judged with cards only one
    device knows) is told by that device (FairTable.accuse): every other device stops too,
    saying it as that device's word, and the check after the deal names the device it accused;
    the accusation is in the device's log, so a reload keeps it."""
    d = runs["accused"]
    assert [c[:2] + c[3:] for c in d["seen"][1]["cheats"]] == [[2, "illegal", None]]
    for me in (0, 2):
        assert [c[:2] + c[3:] for c in d["seen"][me]["cheats"]] == [[2, "illegal", 1]]  # device 1's word
    cheat_named(d, 2, "illegal", honest=[0, 1, 2])
    assert d["restored"] == [2, "illegal"]


def test_the_bundle_the_page_loads_deals_and_is_not_precached(node, tmp_path):
    import sys
    sys.path.insert(0, str(ROOT))
    from tools.build import friends

    assert friends.lazy(friends.FAIR_VENDOR)  # loaded when a table deals fairly, never precached
    sources = sorted((ROOT / "js" / friends.FAIR_DIR).glob("*.js"))
    friends._bundle(tmp_path, friends.FAIR_VENDOR, friends.FAIR_ENTRY, friends.FAIR_LIBRARIES, sources)
    bundle = tmp_path / friends.FAIR_VENDOR
    text = bundle.read_text(encoding="utf-8")
    assert text.startswith("// Bundled from npm (MIT licences): @noble/curves 2.4.0")
    assert not re.search(r"""(?:from|import)\s*\(?\s*["']@noble""", text)  # no bare import left for a browser
    out = subprocess.run([node, str(ROOT / "tests" / "js" / "fair_bundle.mjs"), str(bundle)],
                         capture_output=True, text=True, check=True, timeout=120, cwd=tmp_path)
    kinds, checks = map(json.loads, out.stdout.splitlines())
    for evs in kinds:
        assert evs.count("ready") == 1 and evs.count("card") == 3 and "cheat" not in evs
    assert checks == [[{"type": "check", "fair": True}]] * 2


# Five devices dealt their forty cards at once (Chiamata, as the page deals them): every
# message a device sends fits what the friends layer takes from a friend's page to the host's
# (js/friends/wire.js LIMIT_TO_HOST, with the wrapper the host's page carries it in), and every
# card reaches its holder. A single `tokens` message of the 32 shares, each with its own proof, was
# 4.7 KB: refused; with one proof for each recipient's shares, it is 2 KB.
WHOLE_HAND = """
import { FairTable } from "./js/fair/index.js";
const SUITS = ["D", "C", "S", "B"];
const DECK = SUITS.flatMap((s) => ["A", "2", "3", "4", "5", "6", "7", "J", "H", "K"].map((r) => r + s));
const N = 5, tables = Array.from({ length: N }, (_, me) => new FairTable({ table: "t", round: 0, devices: N, me, deck: DECK }));
const sizes = [], cards = new Array(N).fill(0);
let lanes = [];
const take = (d, out) => {
  for (const { msg } of out.send) {
    sizes.push(JSON.stringify({ t: "fair", to: null, m: msg }).length);
    for (let k = 0; k < N; k++) if (k !== d) lanes.push([d, k, JSON.stringify(msg)]);
  }
  cards[d] += out.events.filter((e) => e.type === "card").length;
};
const drain = async () => { while (lanes.length) { const [f, to, text] = lanes.shift(); take(to, await tables[to].receive(JSON.parse(text), f)); } };
for (const t of tables) take(t.me, t.start());
await drain();
const list = DECK.map((_, p) => [p, p % N]);
for (const t of tables) take(t.me, t.deal(list));
await drain();
console.log(JSON.stringify({ largest: Math.max(...sizes), cards, tokens: tables[0].seq }));
"""


def test_a_whole_hand_dealt_at_once_fits_the_friends_layer_messages(node):
    from_wire = (ROOT / "js" / "friends" / "wire.js").read_text(encoding="utf-8")
    limit = int(re.search(r"LIMIT_TO_HOST = (\d+)", from_wire).group(1))
    out = subprocess.run([node, "--input-type=module", "-e", WHOLE_HAND], capture_output=True, text=True,
                         check=True, timeout=120, cwd=ROOT)
    got = json.loads(out.stdout)
    assert got["cards"] == [8] * 5
    assert got["largest"] <= limit, got
    assert got["tokens"] == 3  # device 0 sent its key, its shuffle and one `tokens` message
