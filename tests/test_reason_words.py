"""The page words reasons ({code, params}) with js/reasons.js, run here through node: a card
code becomes the card's name in the page's language, numbers are written the language's way,
and an unknown code, a missing parameter or garbage gives the generic sentence, never raw
data. The expected sentences are built from the locale files themselves."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from test_locales import locales

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tests" / "js" / "reason_words.mjs"
FALLBACK = "coach.reason.unknown"


def run(cases):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: cannot run js/reasons.js")
    proc = subprocess.run([node, str(SCRIPT), json.dumps(cases)], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def a_code_with_a_card(words):
    """A reason code of the locale whose sentence has a {card} placeholder, and its placeholders."""
    for key, text in sorted(words.items()):
        if key.startswith("reason.") and "{card}" in text:
            return key[len("reason."):], set(re.findall(r"\{(\w+)\}", text))
    pytest.skip("no reason sentence with a card yet")


def test_reasons_are_worded_in_each_language():
    all_ = locales()
    code, holes = a_code_with_a_card(all_["en"])
    cards = ["AD", "3C", "KS", "7B"]
    params = {}
    for i, k in enumerate(sorted(holes)):
        params[k] = cards[i % len(cards)] if k in ("card", "alt", "best") else 2.5
    cases = [[lang, {"code": code, "params": params}, "napoletane"] for lang in ("en", "it")]
    got = run(cases)
    for (lang, _, _), text in zip(cases, got["out"]):
        expected = all_[lang][f"reason.{code}"]
        for k, v in params.items():
            word = got["names"][lang][v] if isinstance(v, str) else ("2,5" if lang == "it" else "2.5")
            expected = expected.replace("{" + k + "}", word)
        assert text == expected
        assert "{" not in text and "AD" not in text


def test_unknown_or_broken_reasons_give_the_generic_sentence():
    all_ = locales()
    code, holes = a_code_with_a_card(all_["en"])
    broken = [
        {"code": "no_such_reason_code", "params": {"card": "AD"}},
        {"code": code, "params": {}},  # a placeholder left unfilled
        {"code": 3},
        {"params": {"card": "AD"}},
        17,
    ]
    for lang in ("en", "it"):
        got = run([[lang, r, "napoletane"] for r in broken])["out"]
        assert got == [all_[lang][FALLBACK]] * len(broken)


def test_plain_text_and_nothing():
    got = run([["en", "Plays the ace", "napoletane"], ["it", None, "napoletane"], ["en", "", "napoletane"]])["out"]
    assert got == ["Plays the ace", "", ""]
