"""Typed errors. Each carries a stable ``code`` for the bridge and a human message.

The message is English, for developers and logs; the page words each code in the person's
language itself (``error.<code>`` in js/locales, checked by tests/test_locales.py), so a new
code needs its words there. A refused option's message names the option first
(``"teams: ..."``): the page shows that option by its label in the New game panel.
"""
from __future__ import annotations


class BriscolaError(ValueError):
    code = "error"

    def to_dict(self) -> dict:
        return {"code": self.code, "message": str(self)}


class RulesError(BriscolaError):
    """A bad option or a combination of options that makes no sense (refused at creation)."""

    code = "bad_option"


class IllegalActionError(BriscolaError):
    """An action that is not legal now: not in the hand, out of turn, wrong phase."""

    code = "illegal_action"


class SaveError(BriscolaError):
    """A saved game that cannot be loaded: corrupt, tampered with, or from an unknown format."""

    code = "bad_save"



class BridgeError(BriscolaError):
    """A request the bridge cannot read: a missing or malformed argument."""

    code = "bad_request"


class HiddenSeatError(BriscolaError):
    """A request for what a seat the person does not control may know."""

    code = "hidden_seat"


QUOTE_CHARS = 80


def quote(value: object, limit: int = QUOTE_CHARS) -> str:
    """``value`` for an error message, never long: text (``repr``) cut to its first ``limit``
    characters and "…", so that a message refusing a 2 MB action names it and stays short; a
    number or a constant as it is; a list or an object by its kind and size only (never read
    inside: a value nested 100,000 deep costs nothing here)."""
    if isinstance(value, (str, bytes)):
        return repr(value[:limit]) + ("…" if len(value) > limit else "")
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 256:
        return f"a number of {value.bit_length()} bits"  # (past 4,300 digits, repr raises)
    if value is None or isinstance(value, (bool, int, float)):
        text = repr(value)
        return text if len(text) <= limit else text[:limit] + "…"
    size = len(value) if isinstance(value, (list, tuple, dict, set, frozenset)) else None
    kind = {"list": "a list", "tuple": "a list", "dict": "an object"}.get(type(value).__name__,
                                                                          type(value).__name__)
    return kind if size is None else f"{kind} of {size}"
