"""What one seat may know: the single owner of hidden information.

:func:`build_view` is the only place that decides which cards a seat can see. The UI gets
``view.to_dict()`` and the computer players get the :class:`View` itself; neither ever
touches the true state. Tests check that no view names a card its seat may not know.

A view costs the same at the first trick and the last: the game keeps its event log as it
goes (:meth:`briscola.game.Game.events`), this module keeps each seat's reading of it (what
that seat may see of every event) on the game and extends it by the new events only, and a
view hands out the seat's log and the tricks as they stand, copied only when read.

This module sits below the game: the game calls :func:`build_view`; nothing here imports
the game (:class:`Deal` says what is read of it).
"""
from __future__ import annotations

from typing import Any, Protocol

from . import chiamata as _ch
from .actions import Action
from .actions import ActionError
from .cards import CARDS, SUITS, Card, CardError, mask_of
from .errors import BriscolaError, IllegalActionError, RulesError
from .outcome import Outcome
from .rules import Rules


class Deal(_ch.Game, Protocol):
    """What a view reads of a deal in progress (:class:`briscola.game.Game`)."""

    dealer: int
    order: tuple[int, ...]
    talon: list[int]
    trump: int | None
    faceup: int
    turned: int
    public_known: list[tuple[int, int]]
    actions: list[int]
    _drawn: dict[int, int] | None  # index of each draw event in the log -> the card drawn
    _view_cache: Any  # this module's own, per game (None on a new game or a clone)

    @property
    def current_player(self) -> int | None: ...
    @property
    def phase_name(self) -> str: ...
    @property
    def tricks_done(self) -> int: ...
    def legal_actions(self) -> list[Action]: ...
    def outcome(self) -> Outcome | None: ...
    def side_of(self, seat: int) -> int: ...
    def sides(self) -> tuple[tuple[int, ...], ...]: ...
    def side_points(self) -> list[int]: ...
    def replay(self, upto: int | None = None) -> Deal: ...
    def _event_log(self) -> list[dict[str, Any]]: ...


class ViewError(BriscolaError):
    """A view's dict that is not one :meth:`View.to_dict` makes (:meth:`View.from_dict`)."""

    code = "bad_view"


class View:
    """Everything ``seat`` may know about a deal, and nothing more.

    Made in constant time: the seat, the turn and the legal actions are set at once (they
    are all a player needs to act), everything else when first read (all of it then). It
    stays a picture of the deal at the moment it was made: read after the game has moved
    on, it is filled from the deal as it was then (rebuilt from the deck and the actions).
    """

    __slots__ = (
        "_game", "_at",  # the game and its number of actions, until the rest is filled in
        "rules", "seat", "players", "phase", "turn", "dealer", "leader", "hand", "hand_sizes",
        "trump_suit", "trump_card", "talon_size", "talon_next", "talon_known", "trick",
        "points", "side_points", "sides", "side_of_seat", "known", "hands_visible",
        "legal", "outcome", "tricks_done", "original_trump_card", "chiamata",
        # ``tricks`` and ``events``, read on demand: the source list, its length when the
        # view was made, and (events) the draws shown at that moment though hidden in it
        "_tricks", "_tricks_src", "_tricks_n", "_events", "_events_src", "_events_n",
        "_events_shown",
    )

    _game: Deal | None
    _at: int
    _tricks: list[tuple[tuple[int, ...], tuple[Card, ...], int, int]] | None
    _tricks_src: list[tuple[tuple[int, ...], tuple[Card, ...], int, int]]
    _tricks_n: int
    _events: list[dict[str, Any]] | None
    _events_src: list[dict[str, Any]]
    _events_n: int
    _events_shown: dict[int, dict[str, Any]]
    rules: "Rules"
    seat: int
    players: int
    phase: str
    turn: int | None
    dealer: int
    leader: int
    hand: list[Card]
    hand_sizes: list[int]
    trump_suit: int | None  # suit index
    trump_card: Card | None  # the face-up card while it lies on the table
    original_trump_card: Card | None  # the card turned up at the deal (known to all)
    talon_size: int  # face-down cards plus the face-up one
    talon_next: Card | None  # scoperta: the next card to be drawn
    talon_known: list[tuple[int, Card]]  # (position from the top, card): none in any rule today
    trick: list[tuple[int, Card]]
    points: list[int]
    side_points: list[int]
    sides: tuple[tuple[int, ...], ...]
    side_of_seat: list[int]
    known: list[list[Card]]  # per seat: cards this seat knows are in that hand
    hands_visible: list[bool]  # per seat: the whole hand is known
    legal: list[Action]
    outcome: "Outcome | None"
    tricks_done: int
    chiamata: dict | None

    @property
    def tricks(self) -> list[tuple[tuple[int, ...], tuple[Card, ...], int, int]]:
        """The completed tricks: (seats in playing order, cards, winner, points)."""
        got = self._tricks
        if got is None:
            got = self._tricks = self._tricks_src[:self._tricks_n]
        return got

    @tricks.setter
    def tricks(self, value: list) -> None:
        self._tricks = value

    @property
    def events(self) -> list[dict]:
        """The deal's events as this seat saw them (cards it may not know are ``None``)."""
        got = self._events
        if got is None:
            got = self._events_src[:self._events_n]
            for i, e in self._events_shown.items():
                got[i] = e
            self._events = got
        return got

    @events.setter
    def events(self, value: list[dict]) -> None:
        self._events = value

    def __getattr__(self, name: str) -> Any:
        # Only called for a field not set yet: fill them all in, from the deal as it was.
        if name in ("_game", "_at") or name.startswith("__"):
            raise AttributeError(name)
        game = self._game
        if game is None:
            raise AttributeError(name)
        if len(game.actions) != self._at:
            game = game.replay(self._at)
        _fill(self, game)
        self._game = None
        return object.__getattribute__(self, name)

    # ---- helpers for the computer players -------------------------------------------------
    def played_mask(self) -> int:
        m = 0
        for _o, cards, _w, _p in self.tricks:
            for c in cards:
                m |= 1 << c
        for _s, c in self.trick:
            m |= 1 << c
        return m

    def unseen(self) -> list[Card]:
        """Cards whose place this seat does not know (in other hands or the talon)."""
        seen = self.played_mask() | mask_of(self.hand)
        for cards in self.known:
            seen |= mask_of(cards)
        if self.trump_card is not None:
            seen |= 1 << self.trump_card
        for _pos, c in self.talon_known:
            seen |= 1 << c
        if self.talon_next is not None:
            seen |= 1 << self.talon_next
        return [c for c in self.rules.tables.deck if not seen >> c & 1]

    def hidden_counts(self) -> tuple[list[int], int]:
        """Per seat, how many cards of its hand are unknown; and unknown talon cards."""
        per_seat = [self.hand_sizes[s] - len(self.known[s]) for s in range(self.players)]
        per_seat[self.seat] = 0
        talon = self.talon_size - (1 if self.trump_card is not None else 0)
        talon -= len(self.talon_known)
        if self.talon_next is not None:
            talon -= 1
        return per_seat, max(talon, 0)

    def partners(self) -> tuple[int, ...]:
        side = self.side_of_seat[self.seat]
        if side < 0:
            return ()
        return tuple(s for s in self.sides[side] if s != self.seat)

    # ---- for the UI ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        def cs(cards: list[Card]) -> list[str]:
            return [str(c) for c in cards]

        d: dict[str, Any] = {
            "seat": self.seat,
            "players": self.players,
            "rules": self.rules.to_dict(),
            "phase": self.phase,
            "turn": self.turn,
            "dealer": self.dealer,
            "leader": self.leader,
            "hand": cs(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "trump_suit": None if self.trump_suit is None else SUITS[self.trump_suit],
            "trump_card": None if self.trump_card is None else str(self.trump_card),
            "original_trump_card": (None if self.original_trump_card is None
                                    else str(self.original_trump_card)),
            "talon_size": self.talon_size,
            "talon_next": None if self.talon_next is None else str(self.talon_next),
            "talon_known": [[p, str(c)] for p, c in self.talon_known],
            "trick": [{"seat": s, "card": str(c)} for s, c in self.trick],
            "tricks": [
                {"plays": [{"seat": s, "card": str(c)} for s, c in zip(order, cards)],
                 "winner": w, "points": p}
                for order, cards, w, p in self.tricks
            ],
            "tricks_done": self.tricks_done,
            "points": list(self.points),
            "side_points": list(self.side_points),
            "sides": [list(s) for s in self.sides],
            "side_of_seat": list(self.side_of_seat),
            "known": [cs(k) for k in self.known],
            "hands_visible": list(self.hands_visible),
            "events": self.events,
            "legal": [str(a) for a in self.legal],
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
        }
        if self.chiamata is not None:
            d["chiamata"] = self.chiamata
        return d

    @classmethod
    def from_dict(cls, data: Any) -> "View":
        """The view :meth:`to_dict` wrote (the inverse: ``View.from_dict(v.to_dict())``
        writes the same dict again). Every field is checked; anything else is refused with
        a :class:`ViewError` naming the field (a view received from another device)."""
        return _view_from_dict(data)


def _partners_see(game: Deal) -> bool:
    rules = game.rules
    if not rules.is_team_game or rules.partner_view == "never":
        return False
    if game.phase == 3 and not game.talon:
        return True
    if rules.partner_view == "first":
        return not game.history and not game.trick  # no card played yet
    return False


def build_view(game: Deal, seat: int) -> View:
    """The view of ``seat``: what a player needs to act now, the rest filled in when read."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.n:
        raise IllegalActionError(f"no seat {seat!r}: seats are 0 to {game.n - 1}")
    v = View()
    v.rules = game.rules
    v.seat = seat
    v.players = game.n
    v.phase = game.phase_name
    v.turn = turn = game.current_player
    v.dealer = game.dealer
    v.legal = game.legal_actions() if turn == seat else []
    v._game = game
    v._at = len(game.actions)
    return v


def _fill(v: View, game: Deal) -> None:
    """Everything else ``v.seat`` may know of ``game``."""
    seat = v.seat
    rules = game.rules
    n = game.n
    cache = _cache_of(game)
    v.leader = game.order[0] if game.phase == 3 else (game.dealer + 1) % n
    v.hand = [CARDS[c] for c in game.hands[seat]]
    v.hand_sizes = [len(h) for h in game.hands]
    v.trump_suit = game.trump
    v.trump_card = CARDS[game.faceup] if game.faceup >= 0 else None
    # The card turned up at the deal (after any re-burying): announced to everyone.
    v.original_trump_card = CARDS[game.turned] if game.turned >= 0 else None
    v.talon_size = len(game.talon)
    v.talon_next = None
    if rules.open_hands and len(game.talon) > 1:
        v.talon_next = CARDS[game.talon[-1]]
    # A re-buried card is known to have gone back into the talon, not where: no talon card
    # is known by its place (the face-up one aside, and the next one in scoperta).
    v.talon_known = []
    v.trick = [(s, CARDS[c]) for s, c in zip(game.order, game.trick)]
    v._tricks = None
    v._tricks_src = cache.tricks_of(game)
    v._tricks_n = len(game.history)
    v.tricks_done = len(game.history)
    points = game.points
    v.points = points[:]
    chiamata = rules.mode == "chiamata"
    if chiamata:
        v.sides, v.side_of_seat, v.side_points = _ch.public_sides(game, seat)
        side_of = [game.side_of(s) for s in range(n)]
    else:
        v.sides = sides = game.sides()
        v.side_of_seat = side_of = list(rules.tables.side_of)
        v.side_points = [points[side[0]] if len(side) == 1 else sum(points[s] for s in side)
                         for side in sides]
    # Which cards of each hand this seat knows.
    partners_see = _partners_see(game)
    partner_first = rules.partner_view == "first" and rules.is_team_game
    my_side = side_of[seat]
    public = _public_cards(game)
    hands = game.hands
    v.known = known_all = []
    v.hands_visible = visible = []
    for s in range(n):
        hand = hands[s]
        if s == seat or rules.open_hands or (partners_see and side_of[s] == my_side):
            known_all.append([CARDS[c] for c in hand])
            visible.append(True)
            continue
        known = {c for c, holder in public.items() if holder == s and c in hand} if public \
            else set()
        if partner_first and side_of[s] == my_side:
            known.update(c for c in game.initial_hands[s] if c in hand)
        if chiamata:
            known.update(_ch.known_to(game, seat, s))
        known_all.append([CARDS[c] for c in sorted(known)])
        visible.append(len(known) == len(hand))
    log = cache.seat_log(game, seat)
    v._events = None
    v._events_src = log.events
    v._events_n = len(log.events)
    v._events_shown = log.shown(cache.log, public) if log.hidden and public else {}
    v.outcome = game.outcome() if game.phase == 4 else None
    v.chiamata = _ch.view_info(game, seat) if chiamata else None


def _public_cards(game: Deal) -> dict[int, int]:
    """Cards everyone knows the place of: card -> the seat holding it (or that took it)."""
    public = {}
    for c, s in game.public_known:
        public[c] = s
    return public


class _SeatLog:
    """One seat's reading of the game's event log, extended as the log grows.

    Another seat's draw is stored hidden (``card`` None); whether this seat may see it
    depends on what is public at the time of the view (a card given to the face-up place in
    an exchange and drawn again last becomes known, and with it its earlier draw), so
    ``hidden`` remembers where such draws are, and :meth:`shown` lists those a view shows.
    """

    __slots__ = ("events", "read", "hidden")

    def __init__(self) -> None:
        self.events: list[dict] = []
        self.read = 0  # entries of the game's log read so far
        # card -> [(index here, index in the log)]: a card given back in an exchange may be
        # drawn twice
        self.hidden: dict[int, list[tuple[int, int]]] = {}

    def extend(self, game: Deal, seat: int, log: list[dict]) -> None:
        if self.read == len(log):
            return
        rules = game.rules
        open_hands = rules.open_hands
        drawn = game._drawn
        assert drawn is not None  # made with the log (Game._event_log), before this reads it
        my_side = game.side_of(seat)
        out = self.events
        hidden = self.hidden
        for i in range(self.read, len(log)):
            e = log[i]
            kind = e["type"]
            if kind == "draw":
                if e["seat"] != seat and not open_hands:
                    hidden.setdefault(drawn[i], []).append((len(out), i))
                    e = {"type": "draw", "seat": e["seat"], "card": None}
            elif kind == "signal":
                # Signals are a team game's (never Chiamata's): the sides do not change.
                if game.side_of(e["seat"]) != my_side:
                    e = {"type": "signal", "seat": e["seat"], "signal": None}
            elif kind == "chiamata_private":
                if e.get("seat") != seat:
                    continue
            out.append(e)
        self.read = len(log)

    def shown(self, log: list[dict], public: dict[int, int]) -> dict[int, dict]:
        """The hidden draws a view made now shows: index here -> the event as logged."""
        hidden = self.hidden
        if not hidden:
            return {}
        return {here: log[i] for c in public if c in hidden for here, i in hidden[c]}


class _Cache:
    """This module's memory on a game: the seats' logs and the tricks as cards."""

    __slots__ = ("log", "seats", "tricks")

    def __init__(self, game: Deal, log: list[dict]) -> None:
        self.log = log  # the game's log these were read from
        self.seats: list[_SeatLog | None] = [None] * game.n
        self.tricks: list[tuple[tuple[int, ...], tuple[Card, ...], int, int]] = []

    def seat_log(self, game: Deal, seat: int) -> _SeatLog:
        got = self.seats[seat]
        if got is None:
            got = self.seats[seat] = _SeatLog()
        got.extend(game, seat, self.log)
        return got

    def tricks_of(self, game: Deal) -> list[tuple[tuple[int, ...], tuple[Card, ...], int, int]]:
        out = self.tricks
        history = game.history
        for k in range(len(out), len(history)):
            order, cards, w, p = history[k]
            out.append((order, tuple(CARDS[c] for c in cards), w, p))
        return out


def _cache_of(game: Deal) -> _Cache:
    log = game._event_log()
    cache: _Cache | None = game._view_cache
    if cache is None or cache.log is not log or len(cache.tricks) > len(game.history):
        cache = game._view_cache = _Cache(game, log)
    return cache


# ---- a view read back from its dict -------------------------------------------------------
_FIELDS = ("seat", "players", "rules", "phase", "turn", "dealer", "leader", "hand", "hand_sizes",
           "trump_suit", "trump_card", "original_trump_card", "talon_size", "talon_next",
           "talon_known", "trick", "tricks", "tricks_done", "points", "side_points", "sides",
           "side_of_seat", "known", "hands_visible", "events", "legal", "outcome")
_PHASES = ("auction", "call", "play", "over")


def _bad(where: str, what: str) -> ViewError:
    return ViewError(f"view.{where}: {what}")


def _int(x: Any, where: str, low: int = 0, high: int | None = None) -> int:
    if not isinstance(x, int) or isinstance(x, bool) or x < low or (high is not None and x > high):
        span = f"{low} to {high}" if high is not None else f"{low} or more"
        raise _bad(where, f"expected a whole number from {span}, got {x!r}")
    return x


def _list(x: Any, where: str, length: int | None = None) -> list:
    if not isinstance(x, list):
        raise _bad(where, f"expected a list, got {type(x).__name__}")
    if length is not None and len(x) != length:
        raise _bad(where, f"expected {length} entries, got {len(x)}")
    return x


def _card(x: Any, where: str) -> Card:
    if not isinstance(x, str):
        raise _bad(where, f"expected a card like 'AD', got {x!r}")
    try:
        return Card.parse(x)
    except CardError as e:
        raise _bad(where, str(e)) from None


def _cards(x: Any, where: str) -> list[Card]:
    return [_card(c, f"{where}[{i}]") for i, c in enumerate(_list(x, where))]


def _maybe_card(x: Any, where: str) -> Card | None:
    return None if x is None else _card(x, where)


def _plays(x: Any, where: str, n: int) -> list[tuple[int, Card]]:
    out = []
    for i, p in enumerate(_list(x, where)):
        if not isinstance(p, dict) or set(p) != {"seat", "card"}:
            raise _bad(f"{where}[{i}]", "expected {seat, card}")
        out.append((_int(p["seat"], f"{where}[{i}].seat", 0, n - 1),
                    _card(p["card"], f"{where}[{i}].card")))
    return out


def _outcome(x: Any, n: int) -> Outcome | None:
    if x is None:
        return None
    if not isinstance(x, dict):
        raise _bad("outcome", "expected an object or null")
    required = {"points", "sides", "side_points", "winners", "draw"}
    extra = {"game_points", "target", "cappotto", "multiplier"}
    if not required <= set(x) or not set(x) <= required | extra or (
            set(x) & extra and set(x) != required | extra):
        raise _bad("outcome", f"expected the fields {', '.join(sorted(required))} "
                              f"(and, in Chiamata, {', '.join(sorted(extra))})")
    def ints(v: Any, w: str, k: int | None = None) -> tuple[int, ...]:
        return tuple(_int(a, f"outcome.{w}[{i}]", -10**6) for i, a in enumerate(_list(v, f"outcome.{w}", k)))

    if not isinstance(x["draw"], bool):
        raise _bad("outcome.draw", "expected true or false")
    kw: dict[str, Any] = {}
    if "game_points" in x:
        if not isinstance(x["cappotto"], bool):
            raise _bad("outcome.cappotto", "expected true or false")
        kw = {"game_points": ints(x["game_points"], "game_points", n),
              "target": _int(x["target"], "outcome.target"), "cappotto": x["cappotto"],
              "multiplier": _int(x["multiplier"], "outcome.multiplier", 1)}
    return Outcome(points=ints(x["points"], "points", n),
                   sides=tuple(tuple(_int(s, f"outcome.sides[{i}]", 0, n - 1)
                                     for s in _list(side, f"outcome.sides[{i}]"))
                               for i, side in enumerate(_list(x["sides"], "outcome.sides"))),
                   side_points=ints(x["side_points"], "side_points"),
                   winners=ints(x["winners"], "winners"), draw=x["draw"], **kw)


def _view_from_dict(d: Any) -> View:
    if not isinstance(d, dict):
        raise ViewError(f"view: expected an object, got {type(d).__name__}")
    missing = [k for k in _FIELDS if k not in d]
    if missing:
        raise ViewError(f"view: missing {', '.join(missing)}")
    extra = sorted(set(d) - set(_FIELDS) - {"chiamata"})
    if extra:
        raise ViewError(f"view: unknown fields {', '.join(map(str, extra))}")
    try:
        rules = Rules.from_dict(d["rules"])
    except (RulesError, TypeError, ValueError) as e:
        raise _bad("rules", str(e)) from None
    n = _int(d["players"], "players", 1)
    if n != rules.players:
        raise _bad("players", f"{n} players, but the rules seat {rules.players}")
    def seat_(x: Any, w: str) -> int:
        return _int(x, w, 0, n - 1)

    v = View()
    object.__setattr__(v, "_game", None)  # nothing to fill in from: every field is set here
    v.rules = rules
    v.players = n
    v.seat = seat_(d["seat"], "seat")
    if d["phase"] not in _PHASES:
        raise _bad("phase", f"one of {', '.join(_PHASES)}, got {d['phase']!r}")
    v.phase = d["phase"]
    v.turn = None if d["turn"] is None else seat_(d["turn"], "turn")
    v.dealer = seat_(d["dealer"], "dealer")
    v.leader = seat_(d["leader"], "leader")
    v.hand = _cards(d["hand"], "hand")
    v.hand_sizes = [_int(x, f"hand_sizes[{i}]")
                    for i, x in enumerate(_list(d["hand_sizes"], "hand_sizes", n))]
    t = d["trump_suit"]
    if t is not None and (not isinstance(t, str) or len(t) != 1 or t not in SUITS):
        raise _bad("trump_suit", f"one of {' '.join(SUITS)} or null, got {t!r}")
    v.trump_suit = None if t is None else SUITS.index(t)
    v.trump_card = _maybe_card(d["trump_card"], "trump_card")
    v.original_trump_card = _maybe_card(d["original_trump_card"], "original_trump_card")
    v.talon_size = _int(d["talon_size"], "talon_size")
    v.talon_next = _maybe_card(d["talon_next"], "talon_next")
    v.talon_known = []
    for i, entry in enumerate(_list(d["talon_known"], "talon_known")):
        pair = _list(entry, f"talon_known[{i}]", 2)
        v.talon_known.append((_int(pair[0], f"talon_known[{i}][0]"),
                              _card(pair[1], f"talon_known[{i}][1]")))
    v.trick = _plays(d["trick"], "trick", n)
    tricks = []
    for i, tr in enumerate(_list(d["tricks"], "tricks")):
        if not isinstance(tr, dict) or set(tr) != {"plays", "winner", "points"}:
            raise _bad(f"tricks[{i}]", "expected {plays, winner, points}")
        plays = _plays(tr["plays"], f"tricks[{i}].plays", n)
        tricks.append((tuple(s for s, _c in plays), tuple(c for _s, c in plays),
                       seat_(tr["winner"], f"tricks[{i}].winner"),
                       _int(tr["points"], f"tricks[{i}].points")))
    v.tricks = tricks
    v.tricks_done = _int(d["tricks_done"], "tricks_done")
    if v.tricks_done != len(tricks):
        raise _bad("tricks_done", f"{v.tricks_done}, but {len(tricks)} tricks are listed")
    v.points = [_int(x, f"points[{i}]") for i, x in enumerate(_list(d["points"], "points", n))]
    v.side_points = [_int(x, f"side_points[{i}]")
                     for i, x in enumerate(_list(d["side_points"], "side_points"))]
    v.sides = tuple(tuple(seat_(s, f"sides[{i}]") for s in _list(side, f"sides[{i}]"))
                    for i, side in enumerate(_list(d["sides"], "sides")))
    v.side_of_seat = [_int(x, f"side_of_seat[{i}]", -1) for i, x in
                      enumerate(_list(d["side_of_seat"], "side_of_seat", n))]
    v.known = [_cards(k, f"known[{i}]") for i, k in enumerate(_list(d["known"], "known", n))]
    visible = _list(d["hands_visible"], "hands_visible", n)
    if not all(isinstance(x, bool) for x in visible):
        raise _bad("hands_visible", "expected true or false per seat")
    v.hands_visible = list(visible)
    events = _list(d["events"], "events")
    for i, ev in enumerate(events):
        if not isinstance(ev, dict) or not isinstance(ev.get("type"), str):
            raise _bad(f"events[{i}]", "expected an event {type, ...}")
    v.events = [dict(ev) for ev in events]
    legal = []
    for i, a in enumerate(_list(d["legal"], "legal")):
        if not isinstance(a, str):
            raise _bad(f"legal[{i}]", f"expected an action like 'AD', got {a!r}")
        try:
            legal.append(Action.parse(a))
        except ActionError as e:
            raise _bad(f"legal[{i}]", str(e)) from None
    v.legal = legal
    v.outcome = _outcome(d["outcome"], n)
    chiamata = d.get("chiamata")
    if chiamata is not None and not isinstance(chiamata, dict):
        raise _bad("chiamata", "expected an object")
    v.chiamata = chiamata
    if (rules.mode == "chiamata") != (chiamata is not None):
        raise _bad("chiamata", "present exactly when the rules are Chiamata's")
    return v
