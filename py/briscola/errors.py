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
