"""The bot interface and the uniformly random bot."""
from __future__ import annotations

import random
from typing import Any, Callable, NamedTuple

from ..actions import Action
from ..cards import CARDS, SUITS
from ..errors import RulesError
from ..view import View


class Decision(NamedTuple):
    action: Action
    reason: dict  # {"code", "params"}: see :func:`why`


def why(code: str, **params: Any) -> dict:
    """A bot's reason as data, ``{"code": "bot_...", "params": {...}}``, worded by the page
    (``reason.<code>`` in ``js/locales``). ``card``/``card2`` may be given as card ints and
    ``suit``/``suit2`` as suit indices: they travel as text ("AD", "D")."""
    for k, v in params.items():  # (only values change: the dict keeps its size)
        if k in ("card", "card2") and not isinstance(v, str):
            params[k] = str(CARDS[int(v)])
        elif k in ("suit", "suit2") and isinstance(v, int):
            params[k] = SUITS[v]
    return {"code": code, "params": params}


class Bot:
    """A computer player. Subclasses implement :meth:`decide`.

    A bot sees only the view of its own seat. It may keep memory within a deal (what it has
    inferred so far); :meth:`reset` clears it between deals. All chance comes from the
    bot's own ``random.Random``, seeded at creation, so a bot is reproducible.
    """

    name = "bot"

    def __init__(self, seed: int | str | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def reset(self) -> None:
        """Forget everything about the current deal (and restart the random stream)."""
        self.rng = random.Random(self.seed)

    def decide(self, view: View) -> Decision:  # pragma: no cover - abstract
        raise NotImplementedError

    def choose(self, view: View) -> Action:
        return self.decide(view).action


class RandomBot(Bot):
    """Plays a uniformly random legal action."""

    name = "random"

    def decide(self, view: View) -> Decision:
        if not view.legal:
            raise RulesError(f"seat {view.seat} has nothing to do now")
        return Decision(self.rng.choice(view.legal), why("bot_random"))


BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot}
# Five-player Briscola Chiamata has its own players (auction, call, a hidden partner); a bot
# name stands for both: ``briscola.ai.make_bot`` hands Chiamata views to the Chiamata bot
# of that name.
CHIAMATA_BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot}


def register_bot(name: str, factory: Callable[..., Bot]) -> None:
    BOTS[name] = factory


def register_chiamata_bot(name: str, factory: Callable[..., Bot]) -> None:
    CHIAMATA_BOTS[name] = factory


class _ByMode(Bot):
    """One name, two players: the classic bot, and the Chiamata bot for Chiamata deals."""

    def __init__(self, name: str, classic: Bot, chiamata: Bot | None) -> None:
        super().__init__(classic.seed)
        self.name = name
        self.classic = classic
        self.chiamata = chiamata

    def reset(self) -> None:
        self.classic.reset()
        if self.chiamata is not None:
            self.chiamata.reset()

    def decide(self, view: View) -> Decision:
        if view.rules.mode == "chiamata":
            if self.chiamata is None:
                raise RulesError(f"the {self.name} player does not play Briscola Chiamata yet")
            return self.chiamata.decide(view)
        return self.classic.decide(view)

