"""Checks the SVG card art produced by js/cards.js (run through node)."""

import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DUMP = ROOT / "tests" / "js" / "dump_cards.mjs"
SVG_NS = "{http://www.w3.org/2000/svg}"

ITALIAN_RANKS = "A 2 3 4 5 6 7 J H K".split()
FRENCH_RANKS = "A 2 3 4 5 6 7 8 9 T J H K".split()
SPANISH_RANKS = "A 2 3 4 5 6 7 8 9 J H K".split()  # the 48-card deck: Brisca for six
RANKS_IT = {"A": "Asso", "2": "Due", "3": "Tre", "4": "Quattro", "5": "Cinque", "6": "Sei",
            "7": "Sette", "8": "Otto", "9": "Nove", "T": "Dieci", "J": "Fante", "H": "Cavallo", "K": "Re"}
RANKS_EN = {"A": "Ace", "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six",
            "7": "Seven", "8": "Eight", "9": "Nine", "T": "Ten", "J": "Jack", "H": "Horse", "K": "King"}
SUITS = {
    "italian": ({"D": "Denari", "C": "Coppe", "S": "Spade", "B": "Bastoni"},
                {"D": "Coins", "C": "Cups", "S": "Swords", "B": "Clubs"}),
    "french": ({"D": "Quadri", "C": "Cuori", "S": "Picche", "B": "Fiori"},
               {"D": "Diamonds", "C": "Hearts", "S": "Spades", "B": "Clubs"}),
}


STYLES = ["napoletane", "piacentine", "siciliane", "trevisane", "triestine", "bergamasche", "spagnole",
          "french"]
# What the corner of a figure prints, written after its word where the word does not start with it:
# the Spanish deck's sota, caballo and rey 10, 11 and 12, the Triestine's figures 11, 12 and 13.
PRINTED = {"italian": {"J": "8", "H": "9", "K": "10"}, "french": {"J": "J", "H": "Q", "K": "K"},
           "spagnole": {"J": "10", "H": "11", "K": "12"}, "triestine": {"J": "11", "H": "12", "K": "13"}}


def expected_names(code, style):
    rank, suit = code
    it_rank, en_rank = RANKS_IT[rank], RANKS_EN[rank]
    if style == "french" and rank == "H":
        it_rank, en_rank = "Donna", "Queen"
    if style == "siciliane" and rank == "J":  # the Sicilian fante is a lady (js/locales)
        it_rank, en_rank = "Donna", "Lady"
    printed = PRINTED.get(style, PRINTED["italian"]).get(rank)
    if printed:
        it_rank = f"{it_rank} ({printed})"
        en_rank = en_rank if en_rank.startswith(printed) else f"{en_rank} ({printed})"
    it_suits, en_suits = SUITS["french" if style == "french" else "italian"]
    return f"{it_rank} di {it_suits[suit]}", f"{en_rank} of {en_suits[suit]}"


@pytest.fixture(scope="module")
def dump():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed: cannot run js/cards.js")
    proc = subprocess.run([node, str(DUMP)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def parse(svg):
    root = ET.fromstring(svg)
    assert root.tag == SVG_NS + "svg"
    return root


def test_exports(dump):
    for name in ["STYLES", "backSVG", "cardName", "cardSVG", "rankName", "suitName"]:
        assert name in dump["exports"]
    assert dump["styles"] == STYLES


@pytest.mark.parametrize("style", STYLES)
def test_deck_is_complete_and_wellformed(dump, style):
    deck = dump["decks"][style]
    ranks = {"french": FRENCH_RANKS, "spagnole": SPANISH_RANKS}.get(style, ITALIAN_RANKS)
    assert [c["code"] for c in deck] == [r + s for s in "DCSB" for r in ranks]
    assert len(deck) == {"french": 52, "spagnole": 48}.get(style, 40)
    for card in deck:
        it_name, en_name = expected_names(card["code"], style)
        assert card["nameIt"] == it_name
        assert card["nameEn"] == en_name
        for svg, label in ((card["svg"], it_name), (card["svgEn"], en_name)):
            root = parse(svg)
            assert root.get("viewBox") == "0 0 200 320"
            assert root.get("width") is None and root.get("height") is None
            assert root.get("role") == "img"
            assert root.get("aria-label") == label
            assert len(svg) < 12 * 1024, f"{card['code']} {style} is {len(svg)} bytes"
            # every reference points at an id of the same SVG
            ids = {el.get("id") for el in root.iter() if el.get("id")}
            for ref in re.findall(r'href="#([^"]+)"|url\(#([^)]+)\)', svg):
                assert (ref[0] or ref[1]) in ids
            # no text but the corner index and the words a deck prints (class "label"), no
            # external resources
            assert "<image" not in svg and "@font-face" not in svg
            for text in root.iter(SVG_NS + "text"):
                assert text.get("font-family") in ("serif", "sans-serif")


def test_known_names(dump):
    names = {(style, c["code"]): (c["nameIt"], c["nameEn"]) for style, deck in dump["decks"].items() for c in deck}
    assert names["napoletane", "AD"] == ("Asso di Denari", "Ace of Coins")
    assert names["napoletane", "3C"] == ("Tre di Coppe", "Three of Cups")
    assert names["napoletane", "JS"] == ("Fante (8) di Spade", "Jack (8) of Swords")
    assert names["piacentine", "HB"] == ("Cavallo (9) di Bastoni", "Horse (9) of Clubs")
    assert names["napoletane", "KD"] == ("Re (10) di Denari", "King (10) of Coins")
    assert names["piacentine", "7C"][0] == "Sette di Coppe"
    assert names["french", "AD"] == ("Asso di Quadri", "Ace of Diamonds")
    assert names["french", "HC"] == ("Donna (Q) di Cuori", "Queen of Hearts")
    assert names["french", "TS"] == ("Dieci di Picche", "Ten of Spades")
    assert names["french", "JB"] == ("Fante (J) di Fiori", "Jack of Clubs")
    assert dump["suitNames"]["french"]["C"] == ["Cuori", "Hearts"]
    assert dump["rankNames"]["french"]["H"] == ["Donna (Q)", "Queen"]
    assert dump["rankNames"]["napoletane"]["H"] == ["Cavallo (9)", "Horse (9)"]
    # the decks of Spain, Sicily and Trieste, by what they print
    assert names["spagnole", "HD"] == ("Cavallo (11) di Denari", "Horse (11) of Coins")
    assert names["spagnole", "JB"] == ("Fante (10) di Bastoni", "Jack (10) of Clubs")
    assert names["spagnole", "KC"] == ("Re (12) di Coppe", "King (12) of Cups")
    assert names["triestine", "KD"] == ("Re (13) di Denari", "King (13) of Coins")
    assert names["siciliane", "JC"] == ("Donna (8) di Coppe", "Lady (8) of Cups")
    assert names["trevisane", "AS"] == ("Asso di Spade", "Ace of Swords")


# The word of each index a card can print, per language: a name that is this word, or that
# carries the index in brackets, or (a French figure in English) starts with its letter,
# agrees with the card.
INDEX_WORDS = {
    "it": {"1": "Asso", "A": "Asso", "2": "Due", "3": "Tre", "4": "Quattro", "5": "Cinque", "6": "Sei",
           "7": "Sette", "8": "Otto", "9": "Nove", "10": "Dieci"},
    "en": {"1": "Ace", "A": "Ace", "2": "Two", "3": "Three", "4": "Four", "5": "Five", "6": "Six",
           "7": "Seven", "8": "Eight", "9": "Nine", "10": "Ten"},
}


def name_agrees(name, printed, lang):
    rank_part = name.split(" di " if lang == "it" else " of ")[0]
    return (rank_part == INDEX_WORDS[lang].get(printed) or rank_part.endswith(f"({printed})")
            or (printed.isalpha() and len(printed) == 1 and rank_part.startswith(printed) and "(" not in rank_part))


@pytest.mark.parametrize("style", STYLES)
def test_every_name_agrees_with_what_the_card_prints(dump, style):
    """A player finds the card a name speaks of: the index its corner prints (read from the
    drawing itself) is the name's word or is written in the name."""
    for card in dump["decks"][style]:
        texts = {t.text for t in parse(card["svg"]).iter(SVG_NS + "text") if t.get("class") != "label"}
        assert len(texts) == 1, (card["code"], texts)  # the corner index (drawn twice)
        printed = texts.pop()
        for name, lang in ((card["nameIt"], "it"), (card["nameEn"], "en")):
            assert name_agrees(name, printed, lang), (style, card["code"], printed, name)


def normalised(svg, style, code):
    svg = re.sub(r' aria-label="[^"]*"', "", svg)
    return svg.replace(f"{style}-{code}-", "ID-")


@pytest.mark.parametrize("style", STYLES)
def test_cards_are_pairwise_different(dump, style):
    deck = dump["decks"][style]
    drawings = {normalised(c["svg"], style, c["code"]) for c in deck}
    assert len(drawings) == len(deck)


def test_backs(dump):
    drawings = set()
    for style, svg in dump["backs"].items():
        root = parse(svg)
        assert root.get("viewBox") == "0 0 200 320"
        assert root.get("aria-label")
        assert len(svg) < 12 * 1024
        drawings.add(re.sub(r'id="[^"]*"|#[\w-]+', "", svg))
    assert len(drawings) == len(STYLES)


def labels(svg):
    return [t.text for t in parse(svg).iter(SVG_NS + "text") if t.get("class") == "label"]


def test_what_each_regional_deck_prints_and_draws(dump):
    """The marks a player who grew up with each deck looks for."""
    decks = {style: {c["code"]: c["svg"] for c in deck} for style, deck in dump["decks"].items()}
    # Spain: the frame's short sides broken once for copas, twice for espadas, three times for
    # bastos, whole for oros (la pinta): the pieces of the two short sides (y 16 and y 304)
    for suit, gaps in {"D": 0, "C": 1, "S": 2, "B": 3}.items():
        svg = decks["spagnole"][f"5{suit}"]
        frame = re.search(r'<path d="(M16 98V304[^"]*)"', svg).group(1)
        pieces = re.findall(r"M[\d.]+ (16|304)H", frame)
        assert len(pieces) == 2 * (gaps + 1), (suit, frame)
    # Trieste: every figure labelled across the middle, as RE DE DANARI
    assert labels(decks["triestine"]["KD"]) == ["RE DE DANARI"]
    assert labels(decks["triestine"]["JS"]) == ["FANTE DE SPADE"]
    assert not labels(decks["triestine"]["5D"])
    # Treviso: a motto on each ace
    assert labels(decks["trevisane"]["AC"]) == ["Per un punto Martin perse la capa"]
    assert all(labels(decks["trevisane"][f"A{s}"]) for s in "DCSB")
    # Bergamo: the ace of batons over VINCERAI; its figures cut on a slant
    assert labels(decks["bergamasche"]["AB"]) == ["VINCERAI"]
    assert "M10 167L190 153" in decks["bergamasche"]["KD"]
    # the double-headed figures of the north: each half drawn once and turned round
    for style in ("trevisane", "triestine", "bergamasche"):
        assert 'transform="rotate(180 100 160)"><use href=' in decks[style]["HC"]


def test_ids_unique_in_one_page(dump):
    svgs = [c["svg"] for deck in dump["decks"].values() for c in deck] + list(dump["backs"].values())
    page = "<html xmlns='http://www.w3.org/1999/xhtml'><body>" + "".join(svgs) + "</body></html>"
    root = ET.fromstring(page)
    ids = [el.get("id") for el in root.iter() if el.get("id")]
    assert ids, "expected ids for the shared definitions"
    duplicates = {i for i in ids if ids.count(i) > 1}
    assert not duplicates


def test_invalid_codes_throw(dump):
    for case in dump["invalid"]:
        assert case["threw"], case
        assert case["isError"], case
        assert case["message"], case
    messages = {(c["fn"], c["code"], c["style"]): c["message"] for c in dump["invalid"]}
    assert messages["cardSVG", "8S", "napoletane"] == "8S does not exist in the napoletane deck"
    assert messages["cardSVG", "TC", "piacentine"] == "TC does not exist in the piacentine deck"
    assert "XD" in messages["cardSVG", "XD", "napoletane"]
    assert "tarocchi" in messages["cardSVG", "AD", "tarocchi"]
