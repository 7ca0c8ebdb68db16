"""Briscola Chiamata (five players): auction, call, secret partner, scoring."""
from __future__ import annotations

from .errors import RulesError


class Auction:
    def __init__(self, rules, first):
        raise RulesError("mode: Briscola Chiamata is not available yet")
