"""Whole fair deals, the protocol and the engine together (js/fair/seat.js over js/fair/table.js
and py/briscola/masked.py through the bridge's fair_* requests), run in Node by
tests/js/fairseat.mjs: one FairSeat a device, each with its own python3 engine, a transport
whose lanes cross at random. Every device plays the same deal in the same order and finds it
fair; no device's engine ever holds a card of another device's unplayed hand that it was not
shown (a partner's, where the rules show it); a card not followed a carichi is taken on trust during the deal and named, with its device and seat,
by every device at the end, and so is a false signal; a card named without being opened stops
the deal on every device.

The suite runs the scenarios below; ``node tests/js/fairseat.mjs all`` runs every variant
(classic, three, four with a computer on the host's device, Brisca, Bisca, re-burying,
scoperta, Bosnian five, six with two computers, the exchanges of the 2 and the 7, signals at
four and six, Brisca at six with the 48-card deck, the host's page reloaded at four with its
computer...). A device reloaded
mid-deal carries on from its snapshot."""
import json
import subprocess
from pathlib import Path

import pytest

from once import once

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tests" / "js" / "fairseat.mjs"
# (the suite's share: the others in `node tests/js/fairseat.mjs all`; a whole classic deal is
# classic_reload's, a computer on the host's device test_masked.py's bridges', the exchange's
# give and take test_fairdeal.py's whole deal of two)
IN_SUITE = ["four_show_first", "chiamata_revoke", "a_card_named_unopened", "classic_reload",
            "three_one_leaves", "four_false_signal"]


@pytest.fixture(scope="module")
def runs(node, request, tmp_path_factory):
    """The scenarios in one Node process, once a test run (once.py: each worker that got some
    of these tests ran them all again, 20 to 50 s each)."""
    def run():
        return subprocess.run([node, str(SCRIPT), *IN_SUITE], capture_output=True, text=True,
                              check=True, timeout=600, cwd=ROOT).stdout
    text = once(request, tmp_path_factory, "fairseat", run)
    return {d["name"]: d for d in map(json.loads, text.splitlines())}


def same(moved):
    """Every device took the same actions (a signal it was not told: "signal")."""
    told = [["signal" if a.startswith("signal") else a for a in m] for m in moved]
    return all(m == told[0] for m in told)


def honest(d, cards):
    moved = d["moved"]
    assert same(moved), "the devices played different deals"
    assert len([a for a in moved[0] if not a.startswith("swap-")]) >= cards
    assert all(r is not None and r["fair"] is True for r in d["results"]), d["results"]
    assert all(r["points"] == d["results"][0]["points"] for r in d["results"])
    assert sum(d["results"][0]["points"]) == 120
    assert d["cheats"] == [[]] * d["devices"]
    assert d["spied"] > 0 and d["leaks"] == [], d["leaks"]


@pytest.mark.parametrize("name, cards", [("four_show_first", 40)])
def test_an_honest_fair_deal_is_the_same_deal_on_every_device_and_found_fair(runs, name, cards):
    honest(runs[name], cards)


def test_partners_are_shown_each_others_hands_and_nobody_else_is(runs):
    d = runs["four_show_first"]
    # each device was shown its partner's hand as dealt (3 cards) and, when the talon ran out,
    # what it had not seen of it (a card face up, known to all, is not shown again); the spy
    # found nothing beyond what was shown
    assert all(n >= 4 for n in d["shown"]), d["shown"]
    honest(d, 40)


def test_a_card_not_followed_a_carichi_is_named_by_every_device_at_the_end(runs):
    d = runs["chiamata_revoke"]
    assert d["revoked"] is not None
    moved = d["moved"]
    assert all(m == moved[0] for m in moved) and moved[0].count(d["revoked"]) == 1
    for r in d["results"]:
        assert r["fair"] is False and r["device"] == 2 and r["seat"] == 2 and r["code"] == "rules"
        assert "followed" in r["reason"] and d["revoked"] in r["reason"]
    assert d["leaks"] == []


def test_a_false_signal_is_taken_on_trust_and_named_by_every_device_at_the_end(runs):
    """A signal is said as a commitment, sealed for the partner's device (js/fair/signal.js);
    a device whose code was changed signals a card its seat does not hold: the partner's device
    takes it on trust (the hand is hidden from it), the opponents' devices take "a signal" and
    read which from the seeds opened after the deal, the deal goes on the same everywhere, and
    the check after it names the seat and its device on every device."""
    d = runs["four_false_signal"]
    claim, s = d["signalled"], d["signaller"]  # (the first device whose seat might signal)
    assert claim is not None and s in range(4)
    partner, others = (s + 2) % 4, [(s + 1) % 4, (s + 3) % 4]
    moved = d["moved"]
    assert same(moved) and claim in moved[s] and claim in moved[partner]
    for r in d["results"]:
        assert r["fair"] is False and r["device"] == s and r["seat"] == s and r["code"] == "rules"
        assert "false signal" in r["reason"] and claim in r["reason"]
    assert d["cheats"] == [[]] * 4 and d["leaks"] == []
    # which signal, to the partners' devices only: the opponents' engines took "signal" (told
    # which at the end), and no message said one in clear
    at = moved[s].index(claim)
    assert moved[partner][at] == claim and all(moved[o][at] == "signal" for o in others)
    for a, b, c, e in zip(*moved):  # each signal told to one side, the other told one was made
        assert (a, c) == (b, e) or (a == c and b == e and "signal" in (a, b)), (a, b, c, e)
    assert d["clear"] == 0


def test_a_device_reloaded_mid_deal_carries_on_from_its_snapshot(runs):
    """Each device reloads once (a friend's at the ninth turn, the host's later): its FairSeat
    made again from what it kept (its table's snapshot, its engine's save) with a fresh engine,
    the deal goes on, the same on both, and is found fair. The replay makes again every message
    the device had sent (`sent`, the very ones), which it sends again, as a page that comes back
    does: the other device refuses them as replays, changing nothing."""
    d = runs["classic_reload"]
    assert d["reloaded"] == [1, 0]
    honest(d, 40)
    # (honest: no leak, and `sent` was what each had sent, or a leak says so)
    assert d["refused"][0] and set(d["refused"][0]) == {"replay"}
    assert d["refused"][1] and set(d["refused"][1]) == {"replay"}


def test_a_device_gone_for_good_ends_the_deal_uncounted_on_the_others(runs):
    d = runs["three_one_leaves"]
    assert d["voided"][:2] == [[2], [2]]  # said on both devices left, naming the one gone
    assert d["results"] == [None, None, None] and d["cheats"] == [[], [], []]
    assert d["moved"][0] == d["moved"][1] and 0 < len(d["moved"][0]) < 39


def test_a_card_named_without_being_opened_stops_the_deal_everywhere(runs):
    d = runs["a_card_named_unopened"]
    assert d["cheats"] == [[{"device": 1, "code": "unopened"}]] * 2
    assert d["moved"] == [[], []]
    # the device that found it told the other (FairTable.accuse): the commitments opened, and
    # the check after the deal names the device on both
    for r in d["results"]:
        assert r["fair"] is False and r["device"] == 1 and r["code"] == "unopened", r


def test_a_signal_is_sealed_for_the_partner_and_opened_by_the_seed_after_the_deal(node):
    """js/fair/signal.js (tests/js/fair_signal.mjs, three devices' tables): the partner's device
    opens the signal committed; an opponent's finds no box for it; a box bound to another
    signal's number, or holding another signal than the one committed (a device whose code was
    changed), opens to nothing (the partner's device stops the deal); after the deal every
    device reads the commitment from the opened seed, and a commitment not made from the seed
    opens to no signal (the check names the device)."""
    out = subprocess.run([node, str(ROOT / "tests" / "js" / "fair_signal.mjs")], capture_output=True,
                         text=True, check=True, timeout=120, cwd=ROOT)
    got = json.loads(out.stdout)
    assert got["phases"] == ["deal"] * 3 and got["prefix"] and got["length"] <= 320
    assert got["partner"] == "signal-A"
    assert got["opponent"] is None and got["other_number"] is None and got["forged_box"] is None
    assert got["malformed"] == [None, None, None]
    assert got["revealed"] == ["signal-A", "signal-A"]
    assert got["wrong_number"] is None and got["not_from_seed"] is None
