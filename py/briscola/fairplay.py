"""The bridge's requests for a fair deal's engine (py/briscola/masked.py; docs/friends.md,
"The fair deal"): one :class:`~briscola.masked.MaskedDeal` a device, kept apart from the
table, with what this device knows of the deal and nothing more.

``fair_deal {rules, dealer, sees, bots}`` starts it (``sees``: this device's seats, ``bots``:
those of them its computers play; or ``{deal, bots}``, ``deal`` what ``fair_save`` gave,
carries it on after a reload); ``fair_open {cards: [[position, card], ...]}`` gives it the cards the
fair protocol opened to this device; ``fair_act {seat, action}`` takes a seat's action (``"signal"``:
a signal this device is not told, its seats all the signaller's opponents);
``fair_view {seat}`` is a seat's view (one of this device's seats, a computer's refused: its
cards are not the page's); ``fair_bot {seat, level}`` a computer's choice from its own view; ``fair_check {told}`` replays the finished deal through the
rules, told first the signals this device was not (``told``: ``[[action index, signal]]``, read from the
seeds opened: js/fair/signal.js), and says ``{fair: true}``, or ``{fair: false, seat, reason}``; ``fair_state {seat}`` is the
seat's table in the shape of the table's ``state`` (what the page draws: the view, the seats as
``fair_deal {seats}`` named them, a match of one deal, and once over the summary). Each reply says where each
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
from .errors import BridgeError, HiddenSeatError, quote
from .actions import action_text
from .masked import CheatError, MaskedDeal
from .record import card_points_of, deal_record, deal_summary

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


class FairRequests:
    """The fair deal of this device, and the requests that read and move it."""

    def __init__(self) -> None:
        self.deal: MaskedDeal | None = None
        self.bots: frozenset[int] = frozenset()
        self.seats: list[dict] = []

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
        else:
            sees = _seats(args.get("sees"), "sees: this device's seats")
            deal = MaskedDeal(rules_arg(args.get("rules")), args.get("dealer"), sees)  # type: ignore[arg-type]
        if not set(bots) <= deal.sees:
            raise BridgeError("bots: a computer's seat must be one of this device's (sees)")
        seats = _names(args.get("seats"), deal.rules.players)
        self.deal, self.bots, self.seats = deal, frozenset(bots), seats
        # the variant's cards, for the protocol's deck (each card's point is its code hashed);
        # each seat's side (a signal is told to the devices of the signaller's partners)
        return {**self._reply(), "deck": [str(c) for c in deal.rules.tables.deck],
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
        try:
            full = d.check()
        except CheatError as e:
            return {"fair": False, "seat": e.seat, "action": e.action, "reason": str(e)}
        out = full.outcome()
        assert out is not None  # the deal is over (check refuses it before)
        return {"fair": True, "points": list(out.points),
                "deck": [str(CARDS[c]) for c in full.deck]}

    def fair_state(self, args: dict) -> dict:
        """``seat``'s table at this fair deal in the shape of the table's ``state`` (what the
        page draws): ``seat``, ``view``, ``seats``, ``match`` (one deal), ``card_points``,
        ``order``; once the deal is over, its ``summary`` and ``checked`` (``fair_check``'s)."""
        d = self._deal()
        seat = _seat(args.get("seat"), d)
        view = self.fair_view({"seat": seat})["view"]
        g = d.game
        out = g.outcome()
        state: dict[str, Any] = {
            "seat": seat, "view": view, "seats": self.seats,
            # (the match's score: per side, per seat in Chiamata, as Match.score counts it)
            "match": {"format": "single", "deal": 0,
                      "score": [0] * (d.rules.players if d.rules.mode == "chiamata"
                                      else d.rules.tables.n_sides),
                      "over": out is not None,
                      "winners": None if out is None else list(out.winners),
                      "deals": [] if out is None else [out.to_dict()],
                      "undone": False, "undone_deals": []},
            "card_points": card_points_of(d.rules), "order": d.rules.tables.order,
        }
        if out is not None:
            state["summary"] = {**deal_summary(g), "undone": False, "back": []}
        if out is not None and not d.untold():  # (the check waits for the signals to be told)
            state["checked"] = checked = self.fair_check({})
            if checked["fair"]:  # every card public now: the deal's record, for the review
                state["record"] = deal_record(d.check(), 0, self.seats)
        return state

    def fair_save(self, args: dict) -> dict:
        # (not `save`: the worker keeps a reply's `save` as the table's)
        return {"deal": self._deal().to_dict(), "bots": sorted(self.bots)}
