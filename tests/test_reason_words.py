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
    proc = subprocess.run([node, str(SCRIPT)], input=json.dumps(cases), cwd=ROOT,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def a_code_with_a_card(words):
    """A reason code of the locale whose sentence has a {card} placeholder, and its placeholders."""
    for key, text in sorted(words.items()):
        if key.startswith("reason.") and "{card}" in text and ", plural," not in text:
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


# A count written in the wrong number: a 1 with a plural word, or 0, 2 or 1.5 with a singular.
WRONG = {
    "en": [r"(?<![\d.,])1 (points|cards|trumps|tricks|players|deals|plays|decisions|records|"
           r"statistics records|card points|game points|are|were|have|beat)\b",
           r"\b1 \w+ still out beat\b",
           r"(?<![\d.,])1 (point|card|trump|trick|player|deal|play)s? (are|were|have)\b",
           r"(?<![\d.,])(0|2|1\.5) (point|card|trump|trick|player|deal|play|decision|record|"
           r"statistics record|card point|game point)\b(?! points?\b)(?!')",
           r"(?<![\d.,])(0|2|1\.5) (\w+s )?(is|was|has) still\b",
           r"\b(0|2|1\.5) \w+ still out beats\b"],
    "it": [r"(?<![\d.,])1 (punti|carte|briscole|prese|giocatori|mani|giocate|smazzate|decisioni|"
           r"voci|sono)\b",
           r"\bi (suoi )?1 punt",
           r"(?<![\d.,])1 (punt|cart|briscol|pres)\w* (sono|possono|battono|restano|valgono)\b", r"\b(restano|sono ancora|servono|servivano|rimangono) (fuori )?1(?![.,]?\d)",
           r"\b1 punto (carta |partita )?(persi|previsti)\b", r"\b1 carta (rimaste|ancora fuori battono|"
           r"ancora fuori possono)\b", r"\bdei 1(?![.,]?\d)",
           r"(?<![\d.,])(0|2|1,5) (punto|carta|briscola|presa|giocatore|giocata|smazzata|decisione|"
           r"voce|è)\b",
           r"\b(resta|serve|serviva) (fuori )?(0|2|1,5)\b", r"\b(0|2|1,5) punti (carta |partita )?"
           r"(perso|previsto)\b"],
}
CARD_HOLES = {"card", "alt", "best", "card2", "gave", "took"}
# placeholders that hold a name or a word, never a count
WORD_HOLES = {"name", "names", "suit", "trump", "rank", "rank2", "message", "level", "label",
              "what", "map", "list", "text", "reason", "where", "date", "field", "when", "bid",
              "high", "cards", "a", "b", "player"}


def test_every_sentence_with_a_count_agrees_with_it():
    """Every sentence of every language that holds a placeholder (each reason code through
    js/reasons.js, every other key through t()) rendered with every placeholder 0, 1, 2 and
    1.5 (a card's place a card, a name's a name): a 1 takes the singular, the other counts the plural."""
    all_ = locales()
    cases, where = [], []
    for lang in ("en", "it"):
        for key, text in sorted(all_[lang].items()):
            holes = set(re.findall(r"\{(\w+)[,}]", text))
            if not holes:
                continue
            # a key for a count of one alone ("sum.tricks.one") is only ever filled with 1
            for n in ((1,) if key.endswith(".one") else (0, 1, 2, 1.5)):
                params = {h: ("AD" if h in CARD_HOLES else "Carla" if h in WORD_HOLES else n)
                          for h in holes}
                if key.startswith("reason."):
                    cases.append([lang, {"code": key[len("reason."):], "params": params}, "napoletane"])
                else:
                    words = {h: v if isinstance(v, str) else (str(v).replace(".", ",") if lang == "it" else str(v))
                             for h, v in params.items()}
                    cases.append([lang, {"key": key, "vars": words}, "napoletane"])
                where.append((lang, key, n))
    got = run(cases)["out"]
    bad = []
    for (lang, key, n), text in zip(where, got):
        assert "{" not in text and "plural" not in text, (lang, key, text)
        bad += [(lang, key, n, text) for pattern in WRONG[lang] if re.search(pattern, text)]
    assert not bad, "\n".join(map(str, bad[:20]))
    assert len(where) > 600  # every sentence, each count


def test_counts_pick_the_language_form():
    """The plural helper itself: the form for 0, 1, 2, 1.5, a signed loss and text numbers;
    "=0" matches only 0; a count left out stays a visible "{n}"."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    code = """
import { plurals } from "./js/i18n.js";
const s = "{n, plural, =0 {none} one {# card is} other {# cards are}} left";
const out = [0, 1, 2, 1.5, "1", "1,0", "−1", "11", "x"].map((n) => plurals(s, { n }, "en"));
out.push(plurals("{n, plural, one {ne resta fuori #} other {ne restano fuori #}}", { n: "1" }, "it"));
out.push(plurals("{n, plural, one {ne resta fuori #} other {ne restano fuori #}}", { n: "0" }, "it"));
out.push(plurals(s, {}, "en"));
console.log(JSON.stringify(out));
"""
    proc = subprocess.run([node, "--input-type=module", "-e", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == [
        "none left", "1 card is left", "2 cards are left", "1.5 cards are left", "1 card is left",
        "1,0 cards are left", "−1 card is left", "11 cards are left", "x cards are left",
        "ne resta fuori 1", "ne restano fuori 0", "{n} left"]


def test_how_likely_a_take_holds_is_said_in_each_language():
    """A take that is not sure says how likely it holds, in per cent: "about 75 %" in English,
    "circa il 75 %" in Italian, with the article's elision before a vowel ("circa l'80 %")."""
    base = {"card": "AD", "alt": "7B", "taken": 11, "gain": 2.5}
    cases = [[lang, {"code": "coach_take_odds", "params": dict(base, chance=n)}, "napoletane"]
             for lang in ("en", "it") for n in (5, 75, 80, 85)]
    cases.append(["it", {"code": "coach_take_both_odds",
                         "params": {"card": "AD", "alt": "7B", "gain": 1, "chance": 80,
                                    "chance_alt": 45}}, "napoletane"])
    got = run(cases)["out"]
    en, it = got[:4], got[4:8]
    for n, text in zip((5, 75, 80, 85), en):
        assert f"about {n} % of the time" in text, text
    assert "circa il 5 %" in it[0] and "circa il 75 %" in it[1]
    assert "circa l'80 %" in it[2] and "circa l'85 %" in it[3] and "il 80" not in it[2]
    assert "circa l'80 %" in got[8] and "circa il 45 %" in got[8]


def test_a_risk_and_the_lines_said_before_and_after():
    """How likely a count of beaters is played here: "about 30 %", "under 3 %" below 2.5 %,
    "almost surely" above 97.5 % (Italian "circa 30 volte su 100"); a line said after the
    reason (``then``: the points a card given away puts on the trick, the called card that
    shows the sides) and one said before it (``context``, with its own ``then``: the aim)."""
    base = {"card": "AD", "alt": "7B", "points": 11, "beaters": 3, "gain": 2.5}
    cases = [[lang, {"code": "coach_lead_load_odds", "params": dict(base, risk=n)}, "napoletane"]
             for lang in ("en", "it") for n in (0, 30, 100)]
    chained = {"code": "coach_tie_blanks_lose", "params": {"card": "AD", "alt": "7B"},
               "then": {"code": "coach_gives", "params": {"card": "AD", "given": 11},
                        "then": {"code": "coach_reveal_keep", "params": {"alt": "7B"}}},
               "context": {"code": "coach_side_caller", "params": {"card": "AD"},
                           "then": {"code": "coach_aim_make", "params": {"need": 61}}}}
    cases += [[lang, chained, "napoletane"] for lang in ("en", "it")]
    got = run(cases)["out"]
    assert "under 3 % of the time" in got[0] and "about 30 % of the time" in got[1]
    assert "almost surely" in got[2]
    assert "meno di 3 volte su 100" in got[3] and "circa 30 volte su 100" in got[4]
    assert "quasi di sicuro" in got[5]
    for text, lang in zip(got[6:], ("en", "it")):
        gives = run([[lang, {"code": "coach_gives", "params": {"card": "AD", "given": 11}},
                      "napoletane"]])["out"][0]
        reveal = run([[lang, {"code": "coach_reveal_keep", "params": {"alt": "7B"}},
                       "napoletane"]])["out"][0]
        # the sides, the aim, the reason, the points given, the sides kept hidden: in order
        assert "{" not in text and text.index("61") < text.index(gives) < text.index(reveal), text
