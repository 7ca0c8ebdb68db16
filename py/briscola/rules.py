"""Rules as data: a frozen :class:`Rules` value, its validation, and the variant registry.

Every variant and house rule of the rule book (docs/rules.md; §13 lists them) is an option of
``Rules``. A combination that makes no sense is refused when the value is built
(``RulesError`` naming the option), never in the middle of a game. Derived tables (the deck,
card strength and points, the teams) are computed once per ``Rules`` value and shared by
every game that uses it.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .cards import N_CARDS, SUITS, Card
from .errors import RulesError

# Strength order, strongest first, and points, per ranking.
_STANDARD_ORDER = "A3KHJ9876542"  # the 8 and 9 (48-card Spanish deck) between the jack and the 7
_NATURAL_THREE_ORDER = "AKHJ98765432"  # the 3 ranks as a plain three
_BISCA_ORDER = "A7KJH65432"
_BOSNIAN_ORDER = "ATKHJ987"
_POINTS = {"A": 11, "3": 10, "K": 4, "H": 3, "J": 2}
_BISCA_POINTS = {"A": 11, "7": 10, "K": 4, "J": 3, "H": 2}
_SIGNAL_RANKS = "A3KHJ"  # ace, three, king, horse, jack of trump
_BOSNIAN_POINTS = {"A": 11, "T": 10, "K": 4, "H": 3, "J": 2}

DECKS = {
    "italian": "A234567JHK",
    "french": "A234567JHK",
    "french32": "A789TJHK",
    "spanish48": "A23456789JHK",  # the 48-card Spanish deck: 1 to 9, sota, caballo, rey
}

# Match formats: the deals of a best-of, the won deals of a first-to, 0 for card points.
MATCH_FORMATS = {"single": 1, "best3": 3, "best5": 5, "best7": 7, "first3": 3, "first5": 5,
                 "first6": 6, "first7": 7, "to120": 0}

# The edition of the rule book a game follows (docs/rules.md §14). Edition 2 corrected the
# first edition's sections 4 to 6 (a drawn single deal replayed, the 7 of trump takes any
# face-up card, Chiamata options validated, Chiamata match winners and scoring, re-bury and
# signals by fixed ranks). A game saved before carries no edition and is resumed under
# edition 1, the behaviour it was started with; a new game always follows the current edition.
EDITION = 2
EDITIONS = (1, 2)


@dataclass(frozen=True)
class Option:
    name: str
    kind: type
    choices: tuple | None
    help: str


OPTIONS: dict[str, Option] = {}


def _opt(name: str, kind: type, help: str, choices: tuple | None = None) -> None:
    OPTIONS[name] = Option(name, kind, choices, help)


_opt("players", int, "number of players at the table", (2, 3, 4, 5, 6))
_opt("deck", str, "italian 40 cards, French 40 (no 8, 9, 10), French 32 (Bosnian), or Spanish 48 "
     "(Brisca for six)", ("italian", "french", "french32", "spanish48"))
_opt("teams", bool, "two teams with partners in alternate seats (4 or 6 players)")
_opt("removed_two", str, "with three players, the 2 taken out of the deck", ("2D", "2C", "2S", "2B"))
_opt("removed", str, "cards three or six take out: one 2 (three) or four 2s (six); four 2s "
     "(Brisca for three); four 4s (Istria)", ("two", "twos", "fours"))
_opt("hand_cards", int, "cards in each hand: 3, or 9 as in Portuguese Bisca de Nove", (3, 9))
_opt("ranking", str, "card order: standard Briscola, or Portuguese Bisca (A 7 K J Q)",
     ("standard", "bisca"))
_opt("southern", bool, "French deck, southern order: the jack above the queen (3 points v 2)")
_opt("natural_three", bool, "the 3 ranks as a plain three but still counts 10 points")
_opt("double", bool, "double Briskula: four cards each, two plays per trick, draw two")
_opt("rebury", bool, "a turned-up card of the two ranks worth most (ace, three) goes back into "
     "the talon")
_opt("exchange_two", bool, "before the first trick, the 2 of trump may take the face-up card")
_opt("exchange_seven", bool, "after winning a trick, the 7 of trump may take the face-up card, "
     "whatever it is")
_opt("exchange_brisca", bool, "Brisca: after a won trick, the 7 of trump takes a face-up card "
     "above it, the 2 one of 7 or below")
_opt("partner_view", str, "when partners see each other's hands: last tricks, also before "
     "the first trick, or never", ("last", "first", "never"))
_opt("signals", bool, "partners may signal their best trumps and loaded cards")
_opt("open_hands", bool, "Briscola scoperta: every hand and the next talon card face up")
_opt("match", str, "single deal, best of 3/5/7 deals, first to 3/5/6/7 won deals, or first to "
     "120 card points",
     tuple(MATCH_FORMATS))
_opt("drawn_deal", str, "a 60-60 deal is replayed, or counted as won by both sides",
     ("replay", "both"))
_opt("mode", str, "classic Briscola, or five-player Briscola Chiamata", ("classic", "chiamata"))
_opt("auction", str, "Chiamata auction: by rank, or by points", ("rank", "points"))
_opt("carichi", bool, "Chiamata: the 'a carichi' bid (alone, no trump, follow suit)")
_opt("forced_call", bool, "Chiamata: calling a 2 you hold may call your lowest missing rank")
_opt("raise_after_two", bool, "Chiamata, auction by rank: after the 2, bids of 2 and 62 points or "
     "more (off: the 2 ends it)")
_opt("multipliers", bool, "Chiamata, auction by rank: a point raise above 70 doubles the score, "
     "above 80 triples it")
_opt("points_multipliers", bool, "Chiamata, auction by points: a bid above 70 doubles the score, "
     "above 80 triples it")
_opt("match_deals", int, "Chiamata: number of deals in a match (0: play to a target score)")
_opt("match_target", int, "Chiamata: game points that end the match when match_deals is 0")


@dataclass(frozen=True)
class Rules:
    """All options of a game. Build with keyword arguments, or ``find_variant(name)``."""

    name: str = "custom"
    players: int = 2
    deck: str = "italian"
    teams: bool | None = None  # None: teams exactly when 4 or 6 play (or never, Bosnian)
    removed_two: str = "2D"
    removed: str = "two"
    hand_cards: int = 3
    ranking: str = "standard"
    southern: bool = False
    natural_three: bool = False
    double: bool = False
    rebury: bool = False
    exchange_two: bool = False
    exchange_seven: bool = False
    exchange_brisca: bool = False
    partner_view: str = "last"
    signals: bool = False
    open_hands: bool = False
    match: str = "single"
    drawn_deal: str = "replay"
    mode: str = "classic"
    auction: str = "rank"
    carichi: bool = True
    forced_call: bool = True
    raise_after_two: bool = True
    multipliers: bool = True
    points_multipliers: bool = False
    match_deals: int = 0
    match_target: int = 10
    edition: int = EDITION  # the rule book's edition (see EDITIONS); not a player's option
    description: str = field(default="", compare=False)
    if TYPE_CHECKING:
        # Set once by __post_init__ (object.__setattr__), outside the dataclass's fields: the
        # checker sees it here, the runtime class never does (no option, no comparison).
        _tables: _Tables = field(init=False, repr=False, compare=False)

    # ---- construction -------------------------------------------------------------------
    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            if f.name in ("name", "description"):
                if not isinstance(getattr(self, f.name), str):
                    raise RulesError(f"{f.name}: must be text")
                continue
            if f.name == "edition":
                if self.edition not in EDITIONS or isinstance(self.edition, bool):
                    raise RulesError(f"edition: {self.edition!r} is not one of "
                                     f"{', '.join(map(str, EDITIONS))}")
                continue
            opt = OPTIONS[f.name]
            value = getattr(self, f.name)
            if f.name == "teams" and value is None:
                continue
            if opt.kind is bool:
                ok = isinstance(value, bool)
            elif opt.kind is int:
                ok = isinstance(value, int) and not isinstance(value, bool)
            else:
                ok = isinstance(value, str)
            if not ok:
                raise RulesError(f"{f.name}: expected {opt.kind.__name__}, got {value!r}")
            if opt.choices is not None and value not in opt.choices:
                raise RulesError(
                    f"{f.name}: {value!r} is not one of {', '.join(map(str, opt.choices))}"
                )
        self._validate()
        object.__setattr__(self, "_tables", _Tables(self))

    def replace(self, **changes: Any) -> "Rules":
        """A copy with some options changed (validated again)."""
        unknown = set(changes) - {f.name for f in dataclasses.fields(self)}
        if unknown:
            raise RulesError(f"{sorted(unknown)[0]}: no such option")
        if "name" not in changes:
            changes["name"] = "custom"
            changes.setdefault("description", "")
        return dataclasses.replace(self, **changes)

    def options(self) -> dict[str, Any]:
        """The options that differ from the defaults, as JSON-compatible values."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if f.name in ("name", "description"):
                continue
            value = getattr(self, f.name)
            if value != f.default:
                out[f.name] = value
        return out

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, **self.options()}

    @classmethod
    def from_dict(cls, data: Any) -> "Rules":
        if not isinstance(data, dict):
            raise RulesError("rules: expected an object of options")
        data = dict(data)
        name = data.pop("name", "custom")
        base = VARIANTS.get(name) if isinstance(name, str) else None
        known = {f.name for f in dataclasses.fields(cls)} - {"name", "description"}
        for key in data:
            if key not in known:
                raise RulesError(f"{key}: no such option")
        if base is not None:
            # A named variant plus changes keeps its name only if nothing changed.
            merged = {f.name: getattr(base, f.name) for f in dataclasses.fields(cls)}
            changed = {k: v for k, v in data.items() if merged.get(k) != v}
            if not changed:
                return base
            if set(changed) == {"edition"}:  # an old save of a named variant keeps its name
                return dataclasses.replace(base, edition=changed["edition"])
            merged.update(data)
            merged["name"] = "custom"
            merged["description"] = ""
            return cls(**merged)
        if name != "custom":
            raise RulesError(f"rules: no variant named {name!r}")
        return cls(**data)

    # ---- derived values -----------------------------------------------------------------
    @property
    def is_team_game(self) -> bool:
        return self._tables.teams is not None

    @property
    def tables(self) -> "_Tables":
        return self._tables

    @property
    def hand_size(self) -> int:
        if self.mode == "chiamata":
            return 8
        return 4 if self.double else self.hand_cards

    @property
    def hand_checks(self) -> tuple[str, ...]:
        """The options under which an action is allowed or not by the rest of the player's hand,
        not by the card played alone: ``carichi`` (after the bid a carichi, the suit led must be
        followed), ``forced_call`` (a call forced by the cards held, auction by rank),
        ``signals`` (a signal says what the hand holds). Where each device sees only its own
        hand (the fair deal, py/briscola/masked.py), these are checked after the deal."""
        out = []
        if self.mode == "chiamata" and self.carichi:
            out.append("carichi")
        if self.mode == "chiamata" and self.forced_call and self.auction != "points":
            out.append("forced_call")
        if self.signals:
            out.append("signals")
        return tuple(out)

    def _validate(self) -> None:
        n = self.players
        if self.mode == "chiamata":
            self._validate_chiamata()
            if self.edition < 2:
                return  # edition 1 checked no deck or ranking option in Chiamata
            self._validate_cards()
            return
        for opt, default in (("auction", "rank"), ("carichi", True), ("forced_call", True),
                             ("raise_after_two", True), ("multipliers", True),
                             ("points_multipliers", False), ("match_deals", 0),
                             ("match_target", 10)):
            if getattr(self, opt) != default:
                raise RulesError(f"{opt}: applies only to Briscola Chiamata (mode 'chiamata')")
        bosnian = self.deck == "french32"
        if n == 5 and not bosnian:
            raise RulesError(
                "players: five play Briscola Chiamata (mode 'chiamata') or Bosnian Briskula "
                "(deck 'french32')"
            )
        teams = self._teams_wanted()
        if teams and n not in (4, 6):
            raise RulesError(f"teams: {n} players cannot form two teams of partners")
        if bosnian and teams and n != 4:
            raise RulesError("teams: Bosnian Briskula has teams only with four players")
        if not bosnian and n in (4, 6) and not teams:
            raise RulesError(f"teams: {n} players play as two teams")
        self._validate_cards()
        if bosnian and self.exchange_two:
            raise RulesError("exchange_two: the 32-card deck has no 2")
        if self.exchange_brisca:
            if bosnian:
                raise RulesError("exchange_brisca: the 32-card deck has no 2")
            if self.exchange_two or self.exchange_seven:
                raise RulesError("exchange_brisca: Brisca's exchange replaces the exchanges of the "
                                 "2 (exchange_two) and of the 7 (exchange_seven)")
            if self.ranking == "bisca":
                raise RulesError("exchange_brisca: in Bisca the 7 is the second-best card")
        if self.double and self.hand_cards != 3:
            raise RulesError("hand_cards: double Briskula deals four cards each")
        if not teams:
            if self.signals:
                raise RulesError("signals: only partners in a team game signal")
            if self.partner_view != "last":
                raise RulesError("partner_view: only partners in a team game see hands")
        if self.open_hands and self.signals:
            raise RulesError("signals: with open hands (scoperta) there is nothing to signal")
        if self.open_hands and self.partner_view != "last":
            raise RulesError("partner_view: with open hands (scoperta) every hand is seen")
        # Deck and talon arithmetic.
        deck_size = len(DECKS[self.deck]) * 4 - self._removed_count()
        hand = self.hand_size
        if n * hand + 1 > deck_size:
            raise RulesError(f"players: {n} hands of {hand} do not fit a deck of {deck_size}")
        talon = deck_size - n * hand
        per_round = n * (2 if self.double else 1)
        if talon % per_round and (self.double or not bosnian):
            # Only Bosnian Briskula has a rule for a talon that runs out mid-round.
            raise RulesError(
                f"{'double' if self.double else 'players'}: {n} players leave {talon} cards to "
                f"draw, not whole rounds of {per_round}"
            )
        if self.exchange_seven and self.ranking == "bisca":
            raise RulesError("exchange_seven: in Bisca the 7 is the second-best card")

    def _validate_chiamata(self) -> None:
        if self.players != 5:
            raise RulesError("players: Briscola Chiamata is played by exactly 5")
        if self.deck == "french32":
            raise RulesError("deck: Briscola Chiamata needs a 40-card deck")
        for opt in ("double", "rebury", "exchange_two", "exchange_seven", "exchange_brisca",
                    "signals", "open_hands"):
            if getattr(self, opt):
                raise RulesError(f"{opt}: does not apply to Briscola Chiamata")
        if self.hand_cards != 3:
            raise RulesError("hand_cards: Briscola Chiamata deals eight cards each")
        if self.removed != "two":
            raise RulesError("removed: Briscola Chiamata plays all 40 cards")
        if self.teams:
            raise RulesError("teams: in Briscola Chiamata the sides come from the auction")
        if self.partner_view != "last":
            raise RulesError("partner_view: in Briscola Chiamata the partner is secret")
        if self.match != "single":
            raise RulesError("match: Briscola Chiamata uses match_deals / match_target")
        if self.match_deals < 0 or self.match_deals > 100:
            raise RulesError("match_deals: from 0 to 100")
        if self.match_deals == 0 and not 1 <= self.match_target <= 1000:
            raise RulesError("match_target: from 1 to 1000 game points")
        if self.edition < 2:
            return
        # Switching off what the other auction lacks is harmless; switching it on is not.
        if self.auction == "rank" and self.points_multipliers:
            raise RulesError("points_multipliers: applies only to the auction by points (the "
                             "auction by rank has multipliers)")

    def _validate_cards(self) -> None:
        """The deck, the ranking and the removed 2: the same checks in every mode."""
        bosnian = self.deck == "french32"
        if self.deck == "spanish48":
            if self.players != 6 or self.mode != "classic":
                raise RulesError("deck: the 48-card Spanish deck is dealt to six players (Brisca "
                                 "for six)")
            if self.removed != "two":
                raise RulesError("removed: six players with the 48-card deck take nothing out")
        if self.deck in ("italian", "spanish48") and self.southern:
            raise RulesError("southern: the picture order applies to French cards only")
        if self.ranking == "bisca":
            if self.deck != "french":
                raise RulesError("ranking: Portuguese Bisca is played with the French 40-card deck")
            if self.southern:
                raise RulesError("southern: Bisca already ranks the jack above the queen")
            if self.natural_three:
                raise RulesError("natural_three: Bisca ranks the 7, not the 3, second")
        if bosnian:
            if self.natural_three:
                raise RulesError("natural_three: the 32-card deck has no 3")
            if self.southern:
                raise RulesError("southern: Bosnian Briskula ranks the queen above the jack")
        if self.removed_two != "2D" and not (self.players == 3 and not bosnian):
            raise RulesError("removed_two: only three players with a 40-card deck remove a 2")
        if self.removed != "two":
            if bosnian or self.players not in (3, 6):
                raise RulesError("removed: only three or six players with a 40-card deck take "
                                 "cards out")
            if self.removed == "twos" and self.players != 3:
                raise RulesError("removed: six players take out the four 2s already ('twos' is "
                                 "for three)")
            if self.removed_two != "2D":
                raise RulesError("removed_two: which 2 is taken out applies only when one 2 is "
                                 "(removed 'two')")

    def _teams_wanted(self) -> bool:
        if self.teams is None:
            return self.deck != "french32" and self.players in (4, 6)
        return self.teams

    def _removed_count(self) -> int:
        if self.deck in ("french32", "spanish48"):
            return 0
        if self.players == 3:
            return 1 if self.removed == "two" else 4
        if self.players == 6:
            return 4
        return 0


class _Tables:
    """Per-Rules lookup tables used by the engine's hot path."""

    def beats(self, trump: int | None) -> list[bool]:
        """``beats(trump)[(b << 6) | c]``: does ``c`` take a trick that ``b`` is winning?"""
        table = self._beats.get(trump)
        if table is None:
            strength = self.strength
            table = [False] * (N_CARDS << 6)
            for b in self.deck:
                for c in self.deck:
                    bs, cs = b // 13, c // 13
                    if cs == bs:
                        table[(b << 6) | c] = strength[c] > strength[b]
                    else:
                        table[(b << 6) | c] = cs == trump
            self._beats[trump] = table
        return table

    __slots__ = ("deck", "strength", "points", "teams", "side_of", "n_sides", "total_points",
                 "order", "rank_chars", "deck_mask", "deck_ints", "rot", "orders", "per_round", "_beats",
                 "rebury_ranks", "signal_ranks")

    deck: tuple[Card, ...]
    strength: list[int]
    points: list[int]
    teams: tuple[tuple[int, ...], tuple[int, ...]] | None
    side_of: tuple[int, ...]
    n_sides: int
    total_points: int
    order: str
    rank_chars: str
    deck_mask: int
    deck_ints: tuple[int, ...]
    rot: tuple[tuple[int, ...], ...]
    orders: tuple[tuple[int, ...], ...]
    per_round: int
    _beats: dict[int | None, list[bool]]
    rebury_ranks: str
    signal_ranks: str

    def __init__(self, rules: Rules) -> None:
        ranks = DECKS[rules.deck]
        removed: set[int] = set()
        if rules.deck not in ("french32", "spanish48") and rules.players in (3, 6):
            if rules.removed == "fours":
                removed.update(Card.of("4", s) for s in SUITS)
            elif rules.players == 6 or rules.removed == "twos":
                removed.update(Card.of("2", s) for s in SUITS)
            else:
                removed.add(Card.parse(rules.removed_two))
        self.rank_chars = ranks
        self.deck = tuple(Card.of(r, s) for s in SUITS for r in ranks
                          if Card.of(r, s) not in removed)
        self.deck_ints = tuple(int(c) for c in self.deck)  # plain ints: faster as indices
        self.deck_mask = 0
        for c in self.deck:
            self.deck_mask |= 1 << c
        if rules.deck == "french32":
            order, points = _BOSNIAN_ORDER, _BOSNIAN_POINTS
        elif rules.ranking == "bisca":
            order, points = _BISCA_ORDER, _BISCA_POINTS
        else:
            order = _NATURAL_THREE_ORDER if rules.natural_three else _STANDARD_ORDER
            points = dict(_POINTS)
            if rules.southern:
                order = order.replace("H", "x").replace("J", "H").replace("x", "J")
                points["J"], points["H"] = 3, 2
        order = "".join(r for r in order if r in ranks)
        self.order = order
        self.strength = [0] * N_CARDS
        self.points = [0] * N_CARDS
        for c in self.deck:
            self.strength[c] = len(order) - order.index(c.rank)
            self.points[c] = points.get(c.rank, 0)
        self.total_points = sum(self.points[c] for c in self.deck)
        if rules.edition < 2:  # edition 1 took the two strongest and the five strongest ranks
            self.rebury_ranks = order[:2]
            self.signal_ranks = order[:5]
        else:
            # Re-bury: the two ranks worth the most points (A 3; A 7 in Bisca; A 10 Bosnian).
            by_points = sorted(order, key=lambda r: -points.get(r, 0))  # stable: by strength
            self.rebury_ranks = "".join(by_points[:2])
            # Signals name the same five cards whatever the ranking (those the deck has).
            self.signal_ranks = "".join(r for r in _SIGNAL_RANKS if r in ranks)
        self._beats = {}
        n = rules.players
        self.rot = tuple(tuple((s + i) % n for i in range(n)) for s in range(n))
        self.orders = tuple(r + r if rules.double else r for r in self.rot)
        self.per_round = n * (2 if rules.double else 1)
        if rules._teams_wanted():
            self.teams = (tuple(range(0, n, 2)), tuple(range(1, n, 2)))
            self.side_of = tuple(s % 2 for s in range(n))
            self.n_sides = 2
        else:
            self.teams = None
            self.side_of = tuple(range(n))
            self.n_sides = n


# ---- the registry ---------------------------------------------------------------------------

VARIANTS: dict[str, Rules] = {}


def _variant(name: str, description: str, **options: Any) -> None:
    VARIANTS[name] = Rules(name=name, description=description, **options)


_variant("classic", "Two players, Italian 40-card deck, three cards each")
_variant("three", "Three players each alone, 39 cards (the 2 of coins removed)", players=3)
_variant("four", "Four players, two teams of partners sitting opposite", players=4)
_variant("six", "Six players, two teams of three, 36 cards (all 2s removed)", players=6)
_variant("french", "Two players, French deck without 8, 9, 10 (queen above jack)", deck="french")
_variant("french-southern", "French deck in the southern order: jack above queen",
         deck="french", southern=True)
_variant("natural-three", "The 3 ranks as a plain three but still counts 10 points",
         natural_three=True)
_variant("rebury", "A turned-up ace or three is buried back in the talon", rebury=True)
_variant("exchange-two", "The 2 of trump may take the face-up card before the first trick",
         exchange_two=True)
_variant("exchange-seven", "The 7 of trump may take the face-up card after winning a trick",
         exchange_seven=True)
_variant("four-show-first", "Four players; partners also see each other's hands before the "
         "first trick", players=4, partner_view="first")
_variant("four-show-never", "Four players; partners never see each other's hands",
         players=4, partner_view="never")
_variant("four-signals", "Four players; partners may signal their best cards", players=4,
         signals=True)
_variant("six-signals", "Six players; partners may signal their best cards", players=6,
         signals=True)
_variant("scoperta", "Briscola scoperta: every hand and the next talon card face up",
         open_hands=True)
_variant("double", "Double Briskula: four cards each, everyone plays twice to each trick",
         double=True)
_variant("double-four", "Double Briskula for four players in two teams", players=4, double=True)
_variant("bisca", "Portuguese Bisca: French deck, A 7 K J Q, trump from the bottom card",
         deck="french", ranking="bisca")
_variant("bosnian", "Bosnian Briskula: French 32-card deck A 10 K Q J 9 8 7, two players",
         deck="french32")
_variant("bosnian-three", "Bosnian Briskula for three: a short last trick evens the hands",
         deck="french32", players=3)
_variant("bosnian-five", "Bosnian Briskula for five players each alone", deck="french32",
         players=5)
_variant("bosnian-four", "Bosnian Briskula for four players in two teams", deck="french32",
         players=4, teams=True)
_variant("brisca", "Spanish Brisca: the 7 or the 2 of trump may take the face-up card after a "
         "won trick", exchange_brisca=True)
_variant("brisca-three", "Spanish Brisca for three: 36 cards, the four 2s removed",
         players=3, removed="twos", exchange_brisca=True)
_variant("brisca-four", "Spanish Brisca for four players in two teams", players=4,
         exchange_brisca=True)
_variant("brisca-six", "Spanish Brisca for six in two teams, with the 48-card deck",
         players=6, deck="spanish48", exchange_brisca=True)
_variant("bisca-nine", "Portuguese Bisca de Nove: two players, nine cards each", deck="french",
         ranking="bisca", hand_cards=9)
_variant("bisca-four", "Portuguese Bisca for four players in two teams", deck="french",
         ranking="bisca", players=4)
_variant("briskula", "Croatian Briškula: four players in two teams, a match to four won deals",
         players=4, match="best7")
_variant("briskula-three", "Istrian Briškula for three: 36 cards, the four 4s removed",
         players=3, removed="fours")
_variant("briskula-six", "Istrian Briškula for six: 36 cards, the four 4s removed", players=6,
         removed="fours")
_variant("chiamata", "Briscola Chiamata: five players, an auction by rank, a secret partner",
         players=5, mode="chiamata")
_variant("chiamata-points", "Briscola Chiamata with an auction by points; any card is called",
         players=5, mode="chiamata", auction="points")
_variant("chiamata-plain", "Briscola Chiamata without 'a carichi', forced calls or multipliers",
         players=5, mode="chiamata", carichi=False, forced_call=False, multipliers=False)
_variant("chiamata-5-deals", "Briscola Chiamata, a match of five deals", players=5,
         mode="chiamata", match_deals=5)
_variant("best-of-3", "Two players, a match of up to three deals", match="best3")
_variant("best-of-5", "Two players, a match of up to five deals", match="best5")
_variant("best-of-7", "Two players, a match of up to seven deals", match="best7")
_variant("to-120", "Two players, a match to 120 card points over several deals", match="to120")
_variant("best-of-3-draws-count", "Best of three deals; a 60-60 deal counts for both",
         match="best3", drawn_deal="both")


def find_variant(name: str) -> Rules:
    """The registered variant called ``name``; ``RulesError`` lists the names otherwise."""
    try:
        return VARIANTS[name]
    except (KeyError, TypeError):
        raise RulesError(
            f"no variant named {name!r}; known: {', '.join(VARIANTS)}"
        ) from None


def register_variant(rules: Rules) -> None:
    VARIANTS[rules.name] = rules


__all__ = ["Rules", "RulesError", "VARIANTS", "OPTIONS", "find_variant", "register_variant",
           "MATCH_FORMATS"]
