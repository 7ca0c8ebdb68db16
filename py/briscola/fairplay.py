"""The bridge's requests for a fair deal's engine (py/briscola/masked.py; docs/friends.md,
"The fair deal"): one :class:`~briscola.masked.MaskedDeal` a device, kept apart from the
table, with what this device knows of the deal and nothing more.

``fair_deal {rules, dealer, sees, bots}`` starts it (``sees``: this device's seats, ``bots``:
those of them its computers play; or ``{deal, bots}``, ``deal`` what ``fair_save`` gave,
carries it on after a reload; ``past``, the records of the match's deals before this one,
each found fair on this device when it ended: the match's score and its next dealer);
``fair_open {cards: [[position, card], ...]}`` gives it the cards the
fair protocol opened to this device; ``fair_act {seat, action}`` takes a seat's action (``"signal"``:
a signal this device is not told, its seats all the signaller's opponents);
``fair_view {seat}`` is a seat's view (one of this device's seats, a computer's refused: its
cards are not the page's); ``fair_bot {seat, level}`` a computer's choice from its own view; ``fair_check {told}`` replays the finished deal through the
rules, told first the signals this device was not (``told``: ``[[action index, signal]]``, read from the
seeds opened: js/fair/signal.js), and says ``{fair: true}``, or ``{fair: false, seat, reason}``; ``fair_state {seat}`` is the
seat's table in the shape of the table's ``state`` (what the page draws: the view, the seats as
``fair_deal {seats}`` named them, the match, and once over the summary). Each reply says where each
position is (``places``) and which positions this device must be shown before its seats'
views can be made (``needs``): the protocol's dealing follows them. ``fair_save`` is the
deal as the worker keeps it: it holds the cards of this device's own seats (its person's and
its computers'), so, as a table's save, it is the worker's, never the page's.
"""
from __future__ import annotations

from typing import Any, Callable

from .ai import BOTS, make_bot
from .cards import CARDS
from .args import check_seat, rules_arg
from .actions import action_text
from .errors import BridgeError, HiddenSeatError, IllegalActionError, quote
from .game import Game
from .masked import CheatError, MaskedDeal
from .match import MAX_DEALS, Match
from .record import card_points_of, deal_record, deal_summary, load_record

MAX_OPEN = 64  # cards opened in one request: more than any deck


def _seat(x: Any, deal: MaskedDeal) -> int:
    return check_seat(x, deal.rules.players)


def _seats(x: Any, what: str) -> list[int]:
    if not isinstance(x, list) or len(x) > 8 \
            or not all(isinstance(s, int) and not isinstance(s, bool) for s in x):
        raise BridgeError(f"{what}: expected a list of seats")
    return x


def _names(x: Any, n: int) -> list[dict]:
    """The seats as the page names them: ``[{kind, name?}]`` (``kind`` human, friend or bot)."""
    if x is None:
        return [{"kind": "friend"} for _ in range(n)]
    if not isinstance(x, list) or len(x) != n or not all(
            isinstance(s, dict) and s.get("kind") in ("human", "friend", "bot")
            and (s.get("name") is None or (isinstance(s.get("name"), str) and len(s["name"]) <= 40))
            for s in x):
        raise BridgeError(f"seats: expected {n} seats, each {{kind, name?}}")
    return [{"kind": s["kind"], **({"name": s["name"]} if s.get("name") else {})} for s in x]


def _past(x: Any, rules: Any, dealer: Any) -> tuple[list[dict], list[Game], Any]:
    """The match's deals before this one (``past``: their public records, each found fair on
    this device when it ended), each rebuilt through the rules' checks, numbered in order,
    under this deal's rules, in a match not over; and this deal's dealer: the seat whose turn
    it is (``dealer`` may be left out then; given, it must be that seat)."""
    if x is None or x == []:
        return [], [], dealer
    if not isinstance(x, list) or len(x) >= MAX_DEALS:
        raise BridgeError(f"past: expected the records of at most {MAX_DEALS - 1} deals")
    games = []
    for k, record in enumerate(x):
        number, game, _ = load_record(record)
        if number != k:
            raise BridgeError(f"past: the record of deal {k + 1} says it is deal {number + 1}")
        games.append(game)
    try:
        match = Match.of_deals(rules, games)
    except IllegalActionError as e:
        raise BridgeError(f"past: {e}") from None
    if match.is_over:
        raise BridgeError("past: that match is over; a new one starts without them")
    if dealer is not None and dealer != match.next_dealer():
        raise BridgeError(f"dealer: this match's next deal is dealt by seat {match.next_dealer()}")
    return list(x), games, match.next_dealer()


class FairRequests:
    """The fair deal of this device, and the requests that read and move it."""

    def __init__(self) -> None:
        self.deal: MaskedDeal | None = None
        self.bots: frozenset[int] = frozenset()
        self.seats: list[dict] = []
        self.past: list[dict] = []        # the match's deals before this one: their records
        self.past_games: list[Game] = []

    def handlers(self) -> dict[str, Callable[[dict], dict]]:
        return {"fair_deal": self.fair_deal, "fair_open": self.fair_open,
                "fair_act": self.fair_act, "fair_view": self.fair_view,
                "fair_bot": self.fair_bot, "fair_check": self.fair_check,
                "fair_save": self.fair_save, "fair_state": self.fair_state}

    def _deal(self) -> MaskedDeal:
        if self.deal is None:
            raise BridgeError("no fair deal: start one with fair_deal")
        return self.deal

    def _reply(self) -> dict:
        d = self._deal()
        g = d._game
        return {"places": d.places(), "needs": d.needs(), "over": d.is_over,
                "turn": None if g is None else g.current_player,
                "actions": len(d.actions), "open": d.rules.open_hands, "shows": d.shows()}

    def fair_deal(self, args: dict) -> dict:
        bots = _seats(args.get("bots", []), "bots: the seats this device's computers play")
        if "deal" in args:
            deal = MaskedDeal.from_dict(args["deal"])
            past, games, _ = _past(args.get("past"), deal.rules, deal.dealer)
        else:
            sees = _seats(args.get("sees"), "sees: this device's seats")
            rules = rules_arg(args.get("rules"))
            past, games, dealer = _past(args.get("past"), rules, args.get("dealer"))
            deal = MaskedDeal(rules, dealer, sees)
        if not set(bots) <= deal.sees:
            raise BridgeError("bots: a computer's seat must be one of this device's (sees)")
        seats = _names(args.get("seats"), deal.rules.players)
        self.deal, self.bots, self.seats = deal, frozenset(bots), seats
        self.past, self.past_games = past, games
        # the variant's cards, for the protocol's deck (each card's point is its code hashed);
        # each seat's side (a signal is told to the devices of the signaller's partners)
        return {**self._reply(), "dealer": deal.dealer, "deck": [str(c) for c in deal.rules.tables.deck],
                "side_of": list(deal.rules.tables.side_of)}

    def fair_open(self, args: dict) -> dict:
        d = self._deal()
        cards = args.get("cards")
        if not isinstance(cards, list) or len(cards) > MAX_OPEN \
                or not all(isinstance(x, list) and len(x) == 2 for x in cards):
            raise BridgeError(f"cards: expected at most {MAX_OPEN} pairs [position, card]")
        before = d.to_dict()
        try:
            for pos, card in cards:
                d.reveal(pos, card)
        except BaseException:
            self.deal = MaskedDeal.from_dict(before)  # nothing a refused opening did stays
            raise
        return self._reply()

    def fair_act(self, args: dict) -> dict:
        d = self._deal()
        d.act(args.get("action"), _seat(args.get("seat"), d))
        return self._reply()

    def fair_view(self, args: dict) -> dict:
        seat = _seat(args.get("seat"), self._deal())
        if seat in self.bots:
            raise HiddenSeatError(f"seat {seat} is a computer's: its cards are not the page's")
        return {**self._reply(), "view": self._deal().view(seat).to_dict()}

    def fair_bot(self, args: dict) -> dict:
        """A computer's choice at its turn, from its own view (not applied: the table sends
        it through the protocol, and ``fair_act`` takes it on every device alike)."""
        d = self._deal()
        seat = _seat(args.get("seat"), d)
        level = args.get("level", "expert")
        if not isinstance(level, str) or level not in BOTS:
            raise BridgeError(f"level: expected one of {', '.join(BOTS)}, got {quote(level)}")
        if seat not in self.bots:
            raise BridgeError(f"seat {quote(seat)} is not one of this device's computers")
        view = d.view(seat)
        if d.game.current_player != seat:
            raise BridgeError(f"it is not seat {quote(seat)}'s turn")
        decision = make_bot(level, seed=f"fair/{len(d.actions)}").decide(view)
        return {"action": str(decision.action)}

    def fair_check(self, args: dict) -> dict:
        d = self._deal()
        told = args.get("told", [])
        if not isinstance(told, list) or len(told) > MAX_OPEN \
                or not all(isinstance(x, list) and len(x) == 2 for x in told):
            raise BridgeError(f"told: expected at most {MAX_OPEN} pairs [action index, signal]")
        before = d.to_dict() if told else None
        try:
            for index, action in told:
                if index in d.untold():
                    d.tell(index, action)
                elif not (isinstance(index, int) and not isinstance(index, bool)
                          and 0 <= index < len(d.actions) and action_text(d.actions[index]) == action):
                    raise BridgeError(f"told: action {quote(index)} is no signal this device waits for")
        except BaseException:
            self.deal = MaskedDeal.from_dict(before)  # nothing a refused telling did stays
            raise
        return self._checked()[0]

    def _checked(self) -> tuple[dict, Game | None]:
        """The check after the deal (``fair_check``'s reply) and, found fair, the whole game."""
        try:
            full = self._deal().check()
        except CheatError as e:
            return {"fair": False, "seat": e.seat, "action": e.action, "reason": str(e)}, None
        out = full.outcome()
        assert out is not None  # the deal is over (check refuses it before)
        return {"fair": True, "points": list(out.points),
                "deck": [str(CARDS[c]) for c in full.deck]}, full

    def fair_state(self, args: dict) -> dict:
        """``seat``'s table at this fair deal in the shape of the table's ``state`` (what the
        page draws): ``seat``, ``view``, ``seats``, ``match`` (its deals before this one, given
        to ``fair_deal`` as ``past``, and this one once over and found fair), ``card_points``,
        ``order``; once the deal is over, its ``summary``, ``checked`` (``fair_check``'s) and,
        found fair, its ``record`` (every card public now: for the review and the match)."""
        d = self._deal()
        seat = _seat(args.get("seat"), d)
        view = self.fair_view({"seat": seat})["view"]
        g = d.game
        over = g.outcome() is not None
        # (the check waits for the signals this device was not told: fair_check {told})
        checked, full = self._checked() if over and not d.untold() else (None, None)
        state: dict[str, Any] = {
            "seat": seat, "view": view, "seats": self.seats, "match": self._match(full),
            "card_points": card_points_of(d.rules), "order": d.rules.tables.order,
        }
        if over:
            state["summary"] = {**deal_summary(g), "undone": False, "back": []}
            if checked is not None:
                state["checked"] = checked
            if full is not None:
                state["record"] = deal_record(full, len(self.past), self.seats)
        return state

    def _match(self, full: Game | None) -> dict:
        """The match as :meth:`Match.public` says it, from the deals before this one and this
        one's whole game (``full``) once it is over and found fair: a deal that stopped, or
        was found unfair, does not count."""
        rules = self._deal().rules
        games = self.past_games + ([full] if full is not None else [])
        if full is not None:
            return Match.of_deals(rules, games).public()
        n = rules.players if rules.mode == "chiamata" else rules.tables.n_sides
        return {"format": rules.match, "deal": len(games),
                "score": Match.of_deals(rules, games).score() if games else [0] * n,
                "over": False, "winners": None,
                "deals": [g.outcome().to_dict() for g in games],  # type: ignore[union-attr]
                "undone": False, "undone_deals": []}

    def fair_save(self, args: dict) -> dict:
        # (not `save`: the worker keeps a reply's `save` as the table's)
        return {"deal": self._deal().to_dict(), "bots": sorted(self.bots),
                **({"past": self.past} if self.past else {})}
