"""The bots' one-sentence reasons in Italian.

The bots explain themselves in English sentences built from a small set of templates
(``Takes the trick with the ace of coins to win 21 points``). :func:`translate` turns each
template into Italian, with card names as Italian players say them (``l'asso di denari``,
``la donna di cuori``). A sentence no template knows is returned unchanged, so a new
reason is never lost — and the tests play every variant with every bot and fail on any
sentence left in English.
"""
from __future__ import annotations

import re

_RANKS = {"ace": "asso", "two": "due", "three": "tre", "four": "quattro", "five": "cinque",
          "six": "sei", "seven": "sette", "eight": "otto", "nine": "nove", "ten": "dieci",
          "jack": "fante", "horse": "cavallo", "queen": "donna", "king": "re"}
_SUITS_ITALIAN = {"coins": "denari", "cups": "coppe", "swords": "spade", "clubs": "bastoni"}
_SUITS_FRENCH = {"diamonds": "quadri", "hearts": "cuori", "spades": "picche", "clubs": "fiori"}

_RANK = "|".join(_RANKS)
_SUIT = "coins|cups|swords|clubs|diamonds|hearts|spades"
_CARD = rf"the (?:{_RANK}) of (?:{_SUIT})"
_N = r"-?\d+"


def _rank_it(word: str, article: bool = True) -> str:
    it = _RANKS[word]
    if not article:
        return it
    if it[0] in "aeiou":
        return "l'" + it
    return ("la " if it == "donna" else "il ") + it


def _suit_it(word: str, french: bool) -> str:
    table = _SUITS_FRENCH if french else _SUITS_ITALIAN
    return table.get(word) or _SUITS_ITALIAN.get(word) or _SUITS_FRENCH[word]


def _card_it(text: str, french: bool) -> str:
    m = re.fullmatch(rf"the ({_RANK}) of ({_SUIT})", text)
    assert m is not None
    return f"{_rank_it(m.group(1))} di {_suit_it(m.group(2), french)}"


# (English pattern, Italian template). Groups: C card, S suit, R rank, N number.
_TEMPLATES: list[tuple[str, str]] = [
    (r"Plays its last card, (?P<C>{C})", "Gioca la sua ultima carta, {C}"),
    (r"Leads (?P<C>{C}) to draw out the trumps", "Apre con {C} per far uscire le briscole"),
    (r"Leads (?P<C>{C}), a card worth nothing", "Apre con {C}, una carta che non vale nulla"),
    (r"Leads (?P<C>{C})", "Apre con {C}"),
    (r"Takes the trick with (?P<C>{C}) to win (?P<N>{N}) points",
     "Prende la presa con {C} e guadagna {N} punti"),
    (r"Takes the trick with (?P<C>{C})", "Prende la presa con {C}"),
    (r"Loads (?P<N>{N}) points onto the partner's trick with (?P<C>{C})",
     "Carica {N} punti sulla presa del compagno con {C}"),
    (r"Loads (?P<N>{N}) points onto the caller's trick with (?P<C>{C})",
     "Carica {N} punti sulla presa del chiamante con {C}"),
    (r"Loads (?P<N>{N}) points onto a likely friend's trick with (?P<C>{C})",
     "Carica {N} punti sulla presa di un probabile alleato con {C}"),
    (r"Lets the partner keep the trick and plays (?P<C>{C})",
     "Lascia la presa al compagno e gioca {C}"),
    (r"Gives up the trick and plays (?P<C>{C}), a card worth nothing",
     "Lascia la presa e gioca {C}, una carta che non vale nulla"),
    (r"Gives up the trick with (?P<C>{C}), a card worth nothing",
     "Lascia la presa con {C}, una carta che non vale nulla"),
    (r"Gives up the trick with (?P<C>{C}), the cheapest card it can spare",
     "Lascia la presa con {C}, la carta meno cara che può concedere"),
    (r"Gives up the trick with (?P<C>{C}), the cheapest card left",
     "Lascia la presa con {C}, la carta meno cara che le resta"),
    (r"Gives up (?P<N>{N}) points with (?P<C>{C}) to keep its stronger cards",
     "Cede {N} punti con {C} per tenersi le carte più forti"),
    (r"Plays (?P<C>{C}) without much thought", "Gioca {C} senza pensarci troppo"),
    (r"Plays (?P<C>{C}) over a friendly card to make sure of the trick",
     "Gioca {C} sopra la carta di un alleato per assicurarsi la presa"),
    (r"Plays (?P<C>{C}), the called card: it shows itself as the caller's partner",
     "Gioca {C}, la carta chiamata: si scopre compagno del chiamante"),
    (r"Plays (?P<C>{C})", "Gioca {C}"),
    (r"Exchanges (?P<C>{C}) for the face-up (?P<C2>{C})",
     "Scambia {C} con la briscola scoperta, {C2}"),
    (r"Signals to the partner that it holds the (?P<R>{R}) of trump",
     "Segnala al compagno che ha {R} di briscola"),
    (r"Bids the (?P<R>{R}): with (?P<S>{S}) as trump the side should take about (?P<N>{N}) "
     r"points", "Chiama {R}: con briscola a {S} la squadra dovrebbe fare circa {N} punti"),
    (r"Bids the (?P<R>{R}): it likes its (?P<N>{N}) (?P<S>{S})",
     "Chiama {R}: ha {N} carte di {S}"),
    (r"Bids (?P<N>{N}): calling (?P<C>{C}) the side should take about (?P<N2>{N}) points",
     "Dichiara {N}: chiamando {C} la squadra dovrebbe fare circa {N2} punti"),
    (r"Bids (?P<N>{N}): it likes its (?P<N2>{N}) (?P<S>{S})",
     "Dichiara {N}: ha {N2} carte di {S}"),
    (r"Raises to 2 and (?P<N>{N}) points: the hand should take about (?P<N2>{N})",
     "Rilancia a 2 e {N} punti: le carte in mano dovrebbero fare circa {N2}"),
    (r"Must bid and names the (?P<R>{R}), the least bad call",
     "Deve dichiarare e chiama {R}, il male minore"),
    (r"Must bid and names the first rank it can", "Deve dichiarare e chiama il primo valore che può"),
    (r"Must bid and raises to (?P<N>{N}) points", "Deve dichiarare e rilancia a {N} punti"),
    (r"Must bid and promises (?P<N>{N}) points", "Deve dichiarare e promette {N} punti"),
    (r"Passes: (?P<N>{N}) points is more than the hand can promise",
     "Passa: {N} punti sono più di quanto queste carte possano promettere"),
    (r"Passes: not enough points in hand", "Passa: troppo pochi punti in mano"),
    (r"Passes: the hand is not strong enough to go lower",
     "Passa: le carte in mano non sono abbastanza forti per scendere ancora"),
    (r"Passes", "Passa"),
    (r"Goes a carichi: its long suits from the top should win most tricks alone",
     "Va a carichi: i suoi semi lunghi e alti dovrebbero vincere da soli quasi tutte le mani"),
    (r"Calls its own (?P<R>{R}) of (?P<S>{S}): (?P<S2>{S}) are trump and it plays alone, "
     r"expecting about (?P<N>{N}) points",
     "Chiama una carta sua, {R} di {S}: briscola a {S2}, gioca da solo e conta su circa {N} "
     "punti"),
    (r"Calls (?P<C>{C}): (?P<S>{S}) are trump and its holder strengthens them, about "
     r"(?P<N>{N}) points expected",
     "Chiama {C}: briscola a {S}, chi ce l'ha la rinforza; attesi circa {N} punti"),
    (r"Calls (?P<C>{C}): (?P<S>{S}) is its longest suit", "Chiama {C}: {S} è il suo seme più lungo"),
    (r"Calls (?P<S>{S}), its longest suit", "Chiama a {S}, il suo seme più lungo"),
    (r"Takes the only option", "Fa l'unica mossa possibile"),
    (r"Takes the only sensible option", "Fa l'unica mossa sensata"),
    (r"a random legal action", "una mossa a caso"),
]

_COMPILED = [
    (re.compile(pattern.format(C=_CARD, S=_SUIT, R=_RANK, N=_N)), template)
    for pattern, template in _TEMPLATES
]
_SUFFIX = re.compile(rf", best over ({_N}) likely deals$")


def translate(reason: str, lang: str = "en", deck: str = "italian") -> str:
    """``reason`` in ``lang`` ("en" or "it"); unknown sentences come back unchanged."""
    if lang != "it" or not reason:
        return reason
    original = reason
    french = deck != "italian"
    suffix = ""
    m = _SUFFIX.search(reason)
    if m:
        reason = reason[:m.start()]
        suffix = f", la migliore su {m.group(1)} smazzate probabili"
    for pattern, template in _COMPILED:
        m = pattern.fullmatch(reason)
        if m is None:
            continue
        values = {}
        for key, text in m.groupdict().items():
            kind = key.rstrip("2")
            if kind == "C":
                values[key] = _card_it(text, french)
            elif kind == "S":
                values[key] = _suit_it(text, french)
            elif kind == "R":
                values[key] = _rank_it(text)
            else:
                values[key] = text
        return template.format(**values) + suffix
    return original


def is_translated(reason: str, lang: str = "it", deck: str = "italian") -> bool:
    return translate(reason, lang, deck) != reason
