"""The checks of a request's arguments that the bridge (bridge.py) and the fair deal's requests
(fairplay.py) share: a seat, the rules. Each refuses with :class:`BridgeError` (``bad_request``)."""
from __future__ import annotations

from typing import Any

from .errors import BridgeError, quote
from .rules import EDITION, Rules, find_variant


def check_seat(seat: Any, n: int) -> int:
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < n:
        raise BridgeError(f"seat: expected a seat from 0 to {n - 1}, got {quote(seat)}")
    return seat


def rules_arg(value: Any) -> Rules:
    if isinstance(value, str):
        return find_variant(value)
    if isinstance(value, dict):
        rules = Rules.from_dict(value)
        if rules.edition != EDITION:
            raise BridgeError(f"edition: only a saved game resumes under edition "
                              f"{rules.edition}; a new one follows the rule book as it is "
                              f"(edition {EDITION})")
        return rules
    raise BridgeError("rules: expected a variant name or an object of options")
