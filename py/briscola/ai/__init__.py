"""Computer players. Every bot decides from a :class:`~briscola.view.View` only.

``make_bot(name, seed)`` builds one by name; ``BOTS`` lists the names. Each bot returns a
:class:`Decision`: the action and one short sentence saying why (hints in the UI).
"""
from __future__ import annotations

from .base import (BOTS, CHIAMATA_BOTS, Bot, Decision, RandomBot, make_bot, register_bot,
                   register_chiamata_bot)

__all__ = ["BOTS", "CHIAMATA_BOTS", "Bot", "Decision", "RandomBot", "make_bot", "register_bot",
           "register_chiamata_bot"]
