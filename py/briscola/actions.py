"""Actions: small integers with a text round-trip.

Playing a card is the card's own number (0-51). Every other action has a number of its own
range, so the engine's fast path handles plain ints and the public API hands out
:class:`Action` values (an ``int`` subclass) whose ``str`` is the notation used in logs,
saved games and URLs:

========================  ==================  =========================================
action                    text                meaning
========================  ==================  =========================================
play a card               ``AD``              play the ace of coins
exchange                  ``swap-7D``         give the 7 (or 2) of trump, take the face-up card
signal                    ``signal-A``        tell the partner: I hold the ace of trump
signal                    ``signal-loaded``   tell the partner: I hold a loaded card (A/3)
pass (auction)            ``pass``
bid a rank (auction)      ``bid-K``           Chiamata: the called card will be a king
bid points (auction)      ``bid-64``          Chiamata: the caller's side promises 64 points
call a suit               ``call-D``          Chiamata rank auction: the suit of the called card
call a card               ``call-AD``         Chiamata points auction: the called card
a carichi                 ``carichi``         Chiamata: alone, no trump, follow suit
========================  ==================  =========================================
"""
from __future__ import annotations

from typing import cast

from .cards import CARDS, N_CARDS, RANK_INDEX, RANKS, SUIT_INDEX, SUITS, Card, CardError
from .errors import IllegalActionError, quote

SWAP = 64  # + card given
SIGNAL = 128  # + rank index of the trump signalled; SIGNAL_LOADED for a loaded card
SIGNAL_LOADED = SIGNAL + 13
PASS = 200
BID_RANK = 210  # + rank index
BID_POINTS = 300  # + points (61..120)
CALL_SUIT = 440  # + suit index
CALL_CARD = 450  # + card
CARICHI = 510
N_ACTIONS = 512


class ActionError(IllegalActionError):
    """Text that is not an action at all (as opposed to a legal-but-not-now action)."""

    code = "bad_action"


class Action(int):
    """One action. ``str(action)`` is its notation; ``Action.parse(text)`` reads it back."""

    __slots__ = ()

    def __new__(cls, value: int) -> "Action":
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < N_ACTIONS \
                and _TEXT[value] is not None:
            return ACTIONS[value]
        raise ActionError(f"no action has the number {quote(value)}")

    def __str__(self) -> str:
        return action_text(self)

    def __repr__(self) -> str:
        return f"Action.parse({_TEXT[self]!r})"

    def __reduce__(self) -> tuple[type[Action], tuple[int]]:
        return (Action, (int(self),))

    @property
    def card(self) -> Card | None:
        """The card this action plays (or gives, in an exchange; or calls)."""
        if self < N_CARDS:
            return CARDS[self]
        if SWAP <= self < SWAP + N_CARDS:
            return CARDS[self - SWAP]
        if CALL_CARD <= self < CALL_CARD + N_CARDS:
            return CARDS[self - CALL_CARD]
        return None

    @property
    def is_play(self) -> bool:
        return self < N_CARDS

    @classmethod
    def parse(cls, text: "str | int") -> "Action":
        if isinstance(text, Action):
            return text
        if isinstance(text, int) and not isinstance(text, bool):
            return cls(text)
        if not isinstance(text, str):
            raise ActionError(f"an action is written as text like 'AD', not {quote(text)}")
        a = _BY_TEXT.get(text)
        if a is None:
            raise ActionError(
                f"{quote(text)} is not an action: play a card ('AD'), 'swap-7D', 'signal-A', "
                "'signal-loaded', 'pass', 'bid-K', 'bid-64', 'call-D', 'call-AD' or 'carichi'"
            )
        return a


_TEXT: list[str | None] = [None] * N_ACTIONS
for _c in range(N_CARDS):
    _TEXT[_c] = str(CARDS[_c])
    _TEXT[SWAP + _c] = f"swap-{CARDS[_c]}"
    _TEXT[CALL_CARD + _c] = f"call-{CARDS[_c]}"
for _r, _ch in enumerate(RANKS):
    _TEXT[SIGNAL + _r] = f"signal-{_ch}"
    _TEXT[BID_RANK + _r] = f"bid-{_ch}"
_TEXT[SIGNAL_LOADED] = "signal-loaded"
_TEXT[PASS] = "pass"
for _p in range(61, 121):
    _TEXT[BID_POINTS + _p] = f"bid-{_p}"
for _s, _ch in enumerate(SUITS):
    _TEXT[CALL_SUIT + _s] = f"call-{_ch}"
_TEXT[CARICHI] = "carichi"

_INTERNED: list["Action | None"] = [
    int.__new__(Action, i) if t is not None else None for i, t in enumerate(_TEXT)
]
_BY_TEXT = {t: _INTERNED[i] for i, t in enumerate(_TEXT) if t is not None}
# ACTIONS[a] is Action(a) without the checks, for numbers known legal (never a gap's None).
ACTIONS = cast("list[Action]", _INTERNED)


def action_text(a: int) -> str:
    return _TEXT[a]  # type: ignore[return-value]  # an action's number: never a gap's None


def parse_action(text: "str | int") -> Action:
    return Action.parse(text)


__all__ = ["Action", "ActionError", "parse_action", "action_text", "SWAP", "SIGNAL",
           "SIGNAL_LOADED", "PASS", "BID_RANK", "BID_POINTS", "CALL_SUIT", "CALL_CARD", "CARICHI",
           "RANK_INDEX", "SUIT_INDEX", "CardError"]
