"""The places of a long hand (js/handslots.js, run here through node): a card keeps the place
it was dealt in whatever is played, a card drawn takes the first free place, a hand not shown
leaves the places for when it shows again, a short hand has none."""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "tests" / "js" / "handslots.mjs"

EIGHT = ["1D", "3D", "KC", "7C", "2S", "JS", "1B", "5B"]


def places(*runs):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: cannot run js/handslots.js")
    proc = subprocess.run([node, str(SCRIPT)], input=json.dumps(runs), cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(proc.stdout)


def test_a_play_moves_no_other_card():
    run = [EIGHT]
    left = list(EIGHT)
    for card in ["3D", "JS", "1D", "5B", "KC"]:  # from either row, in any order
        left.remove(card)
        run.append(list(left))
    (got,) = places(run)
    dealt = got[0]
    assert dealt == {"cols": 4, "places": {c: i for i, c in enumerate(EIGHT)}}
    for hand, seen in zip(run[1:], got[1:]):
        assert seen["cols"] == 4
        assert seen["places"] == {c: dealt["places"][c] for c in hand}


def test_a_card_drawn_takes_the_first_free_place_and_a_hidden_hand_keeps_them():
    run = [EIGHT, [c for c in EIGHT if c != "KC"], [None] * 7, [c for c in EIGHT if c != "KC"] + ["4S"]]
    (got,) = places(run)
    assert got[2]["places"] == {f"x{i}": i for i in range(7)}  # not shown: in order
    after = got[3]["places"]
    assert after["4S"] == EIGHT.index("KC")  # the place the card played left
    assert {c: p for c, p in after.items() if c != "4S"} == {c: i for i, c in enumerate(EIGHT) if c != "KC"}


def test_short_hands_and_a_new_deal():
    got = places([["1D", "3D", "KC"]], [EIGHT, [], list(reversed(EIGHT))])
    assert got[0] == [None]
    assert got[1][1] is None  # the hand played out
    assert got[1][2]["places"] == {c: i for i, c in enumerate(reversed(EIGHT))}  # dealt anew
