"""Computer players. Every bot decides from a :class:`~briscola.view.View` only.

``make_bot(name, seed)`` builds one by name; ``BOTS`` lists the names. Each bot returns a
:class:`Decision`: the action and one short sentence saying why (hints in the UI).

The bot modules register themselves (:func:`register_bot`, :func:`register_chiamata_bot` in
:mod:`.base`) when imported; :func:`make_bot` imports them on first use, so that a page that
only needs the rules starts without them. Arrows point one way: this package imports the
bot modules, they import :mod:`.base`, never this package.
"""
from __future__ import annotations

from .base import (BOTS, CHIAMATA_BOTS, Bot, Decision, RandomBot, _ByMode, register_bot,
                   register_chiamata_bot)
from ..errors import RulesError

__all__ = ["BOTS", "CHIAMATA_BOTS", "Bot", "Decision", "RandomBot", "make_bot", "register_bot",
           "register_chiamata_bot", "load_all"]


def make_bot(name: str, seed: int | str | None = None) -> Bot:
    """The bot called ``name``, seeded. ``RulesError`` names the known bots otherwise."""
    load_all()
    factory = BOTS.get(name)
    if factory is None:
        raise RulesError(f"no bot named {name!r}; known: {', '.join(BOTS)}")
    chiamata = CHIAMATA_BOTS.get(name)
    return _ByMode(name, factory(seed=seed), None if chiamata is None else chiamata(seed=seed))


def load_all() -> None:
    """Import the bot modules that register themselves (kept lazy for a fast start)."""
    from . import expert, heuristic  # noqa: F401
    from .chiamata import bots, expert as chiamata_expert  # noqa: F401
