"""What one seat may know: the single owner of hidden information.

:func:`build_view` is the only place that decides which cards a seat can see. The UI gets
``view.to_dict()`` and the computer players get the :class:`View` itself; neither ever
touches the true state. Tests check that no view names a card its seat may not know.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .actions import Action
from .cards import CARDS, SUITS, Card, mask_of

if TYPE_CHECKING:  # pragma: no cover
    from .game import Game, Outcome
    from .rules import Rules


class View:
    """Everything ``seat`` may know about a deal, and nothing more."""

    __slots__ = (
        "rules", "seat", "players", "phase", "turn", "dealer", "leader", "hand", "hand_sizes",
        "trump_suit", "trump_card", "talon_size", "talon_next", "talon_known", "trick",
        "tricks", "points", "side_points", "sides", "side_of_seat", "known", "hands_visible",
        "events", "legal", "outcome", "tricks_done", "original_trump_card", "chiamata",
    )

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
    tricks: list[tuple[tuple[int, ...], tuple[Card, ...], int, int]]  # order, cards, winner, pts
    points: list[int]
    side_points: list[int]
    sides: tuple[tuple[int, ...], ...]
    side_of_seat: list[int]
    known: list[list[Card]]  # per seat: cards this seat knows are in that hand
    hands_visible: list[bool]  # per seat: the whole hand is known
    events: list[dict]
    legal: list[Action]
    outcome: "Outcome | None"
    tricks_done: int
    chiamata: dict | None

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
        def cs(cards):
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


def _partners_see(game: "Game") -> bool:
    rules = game.rules
    if not rules.is_team_game or rules.partner_view == "never":
        return False
    if game.phase == 3 and not game.talon:
        return True
    if rules.partner_view == "first":
        return not any(a < 52 for a in game.actions)
    return False


def build_view(game: "Game", seat: int) -> View:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < game.n:
        from .errors import IllegalActionError
        raise IllegalActionError(f"no seat {seat!r}: seats are 0 to {game.n - 1}")
    rules = game.rules
    n = game.n
    v = View()
    v.rules = rules
    v.seat = seat
    v.players = n
    v.phase = game.phase_name
    v.turn = game.current_player
    v.dealer = game.dealer
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
    v.tricks = [(order, tuple(CARDS[c] for c in cards), w, p)
                for order, cards, w, p in game.history]
    v.tricks_done = game.tricks_done
    v.points = list(game.points)
    if rules.mode == "chiamata":
        from .chiamata import public_sides
        v.sides, v.side_of_seat, v.side_points = public_sides(game, seat)
    else:
        v.sides = game.sides()
        v.side_of_seat = [game.side_of(s) for s in range(n)]
        v.side_points = game.side_points()
    # Which cards of each hand this seat knows.
    partners_see = _partners_see(game)
    my_side = game.side_of(seat)
    public = {}
    for c, s in game.public_known:
        public[c] = s
    v.known = []
    v.hands_visible = []
    for s in range(n):
        hand = game.hands[s]
        if s == seat or rules.open_hands or (partners_see and game.side_of(s) == my_side):
            v.known.append([CARDS[c] for c in hand])
            v.hands_visible.append(True)
            continue
        known = {c for c, holder in public.items() if holder == s and c in hand}
        if (rules.partner_view == "first" and rules.is_team_game
                and game.side_of(s) == my_side):
            known.update(c for c in game.initial_hands[s] if c in hand)
        known.update(_ch_known(game, seat, s))
        v.known.append([CARDS[c] for c in sorted(known)])
        v.hands_visible.append(len(known) == len(hand))
    v.events = _events_for(game, seat, set(public))
    v.legal = game.legal_actions() if game.current_player == seat else []
    v.outcome = game.outcome()
    v.chiamata = None
    if rules.mode == "chiamata":
        from .chiamata import view_info
        v.chiamata = view_info(game, seat)
    return v


def _ch_known(game: "Game", seat: int, other: int) -> set[int]:
    if game.rules.mode != "chiamata":
        return set()
    from .chiamata import known_to
    return known_to(game, seat, other)


def _events_for(game: "Game", seat: int, public_cards: set[int]) -> list[dict]:
    rules = game.rules
    my_side = game.side_of(seat)
    out = []
    for e in game.events():
        kind = e["type"]
        if kind == "draw":
            c = Card.parse(e["card"])
            if e["seat"] != seat and not rules.open_hands and c not in public_cards:
                e = {"type": "draw", "seat": e["seat"], "card": None}
        elif kind == "signal":
            if game.side_of(e["seat"]) != my_side:
                e = {"type": "signal", "seat": e["seat"], "signal": None}
        elif kind in ("chiamata_private",):
            if e.get("seat") != seat:
                continue
        out.append(e)
    return out
