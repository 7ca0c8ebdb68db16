"""A finished deal's public record: what a friend's page needs to review that deal with its own
engine, and nothing about any other deal.

At a table with friends the host's engine deals and keeps the hidden cards. Once a deal is over,
every card of it is public (the review's replay already shows every hand then), so the host's
page sends each friend the deal's record (:func:`deal_record`) and the friend's own worker loads
it (:func:`load_record`) into a game used for the review only. The record holds the deal's
rules, its dealer, its deck in dealing order (the hands as dealt, the trump, the talon as
drawn), every action in order, the seats' kinds and names and the deal's number in the match.
It never holds a seed: a deal's seed is made from the match's (``match.py``), which determines
every later deal.

A record comes from another device: :func:`load_record` takes nothing on trust. It accepts the
fields above and no other, checks each, rebuilds the deal from its deck through the rules'
checks and applies every action with the checked :meth:`Game.apply`, so a record with a card
missing or twice, an illegal play or a deal left unfinished is refused (``bad_record``) with
what is wrong.
"""
from __future__ import annotations

from typing import Any

from .actions import action_text
from .cards import CARDS, CardError, parse_cards
from .errors import BriscolaError, IllegalActionError, RulesError
from .game import Game, saved_rules
from .rules import Rules

RECORD_FORMAT = "briscola/deal"
RECORD_VERSION = 1
FIELDS = frozenset(("format", "version", "deal", "rules", "dealer", "deck", "actions", "seats"))
MAX_DEAL = 9999  # the deal numbers a friend's page asks about (js/friends/referee.js `small`)
MAX_ACTIONS = 400  # the longest deal (Chiamata: an auction, a call, 40 plays) is far below
MAX_NAME = 40  # a seat's name as the bridge keeps it (Table.check_seats)
SEAT_KINDS = ("human", "friend", "bot")


class RecordError(BriscolaError):
    """A deal's record that cannot be reviewed: unfinished, malformed, forged."""

    code = "bad_record"


class DealNotOver(BriscolaError):
    """A review (or a replay, or a record) of a deal still being played: its plays are not
    public yet."""

    code = "deal_not_over"


def deal_record(game: Game, deal: int, seats: list[dict]) -> dict:
    """The public record of ``game``, deal number ``deal`` of its match, played by ``seats``
    (each ``{kind, name?, level?}``); refused (``deal_not_over``) while the deal is played."""
    if not game.is_over:
        raise DealNotOver(f"deal {deal} is being played: its record travels once it is over")
    return {
        "format": RECORD_FORMAT,
        "version": RECORD_VERSION,
        "deal": deal,
        "rules": {**game.rules.to_dict(), "edition": game.rules.edition},
        "dealer": game.dealer,
        "deck": " ".join(str(CARDS[c]) for c in game.deck),
        "actions": [action_text(a) for a in game.actions],
        "seats": [_public_seat(s) for s in seats],
    }


def _public_seat(seat: dict) -> dict:
    out: dict[str, Any] = {"kind": seat["kind"]}
    if seat["kind"] == "bot":
        out["level"] = seat["level"]
    elif "name" in seat:
        out["name"] = seat["name"]
    return out


def _whole(value: Any, name: str, top: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= top:
        raise RecordError(f"record: {name} must be a whole number from 0 to {top}, got {value!r}")
    return value


def load_record(data: Any) -> tuple[int, Game, list[dict]]:
    """A deal's record checked and replayed: ``(deal, game, seats)``; else ``bad_record``.

    ``game`` is the finished deal rebuilt from the record's deck, without a seed, every action
    applied through the rules' checks."""
    if not isinstance(data, dict):
        raise RecordError("record: expected an object")
    unknown = sorted(str(k)[:40] for k in data if k not in FIELDS)
    if unknown:
        raise RecordError(f"record: unknown fields {', '.join(unknown)} (a record holds "
                          f"{', '.join(sorted(FIELDS))} only)")
    missing = sorted(FIELDS - set(data))
    if missing:
        raise RecordError(f"record: missing {', '.join(missing)}")
    if data["format"] != RECORD_FORMAT or data["version"] != RECORD_VERSION:
        raise RecordError(f"record: not a deal's record of format {RECORD_FORMAT} "
                          f"version {RECORD_VERSION}")
    deal = _whole(data["deal"], "deal", MAX_DEAL)
    try:
        rules = Rules.from_dict(saved_rules(data["rules"]))
    except (RulesError, TypeError, ValueError) as e:
        raise RecordError(f"record: rules: {e}") from None
    dealer = _whole(data["dealer"], "dealer", rules.players - 1)
    deck = data["deck"]
    if not isinstance(deck, str) or len(deck) > 4 * 64:
        raise RecordError("record: deck must be the cards' text, like 'AD 3S ...'")
    try:
        game = Game(rules, parse_cards(deck), dealer)
    except (CardError, RulesError, ValueError) as e:
        raise RecordError(f"record: deck: {e}") from None
    actions = data["actions"]
    if not isinstance(actions, list) or len(actions) > MAX_ACTIONS:
        raise RecordError(f"record: actions must be a list of at most {MAX_ACTIONS}")
    for i, text in enumerate(actions):
        if game.is_over:
            raise RecordError(f"record: action {i + 1} comes after the deal is over")
        if not isinstance(text, str) or len(text) > 16:
            raise RecordError(f"record: action {i + 1} must be an action's text, like 'AD'")
        try:
            game.apply(text)
        except (IllegalActionError, CardError, ValueError) as e:
            raise RecordError(f"record: action {i + 1} ({text!r}) is not legal: {e}") from None
    if not game.is_over:
        raise RecordError(f"record: the deal is not over after its {len(actions)} actions")
    seats = data["seats"]
    if not isinstance(seats, list) or len(seats) != rules.players:
        raise RecordError(f"record: seats must be a list of {rules.players} seats")
    return deal, game, [_check_seat(s, i) for i, s in enumerate(seats)]


def _check_seat(seat: Any, i: int) -> dict:
    if not isinstance(seat, dict) or seat.get("kind") not in SEAT_KINDS:
        raise RecordError(f"record: seats[{i}] must be {{kind: human, friend or bot}}")
    allowed = {"kind", "level"} if seat["kind"] == "bot" else {"kind", "name"}
    if set(seat) - allowed:
        raise RecordError(f"record: seats[{i}] holds more than {', '.join(sorted(allowed))}")
    for key in allowed - {"kind"}:
        if key in seat and (not isinstance(seat[key], str) or len(seat[key]) > MAX_NAME):
            raise RecordError(f"record: seats[{i}].{key} must be text of at most {MAX_NAME}")
    return dict(seat)


def card_points_of(rules: Rules) -> dict[str, int]:
    """The points of each counting card of the variant's deck, by its text."""
    t = rules.tables
    return {str(c): t.points[c] for c in t.deck if t.points[c]}


def deal_summary(game: Game) -> dict:
    """Who took which counting cards, and the points per seat and side."""
    pts = game.rules.tables.points
    taken = game.captured()
    outcome = game.outcome()
    assert outcome is not None  # a summary of a deal that is over
    return {
        "counting_cards": [[str(c) for c in cards if pts[c]] for cards in taken],
        "points": list(game.points),
        "side_points": game.side_points(),
        "outcome": outcome.to_dict(),
    }
