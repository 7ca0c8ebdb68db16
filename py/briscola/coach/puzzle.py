"""Puzzles: positions where every card is known, solved exactly.

Two-player Briscola once the talon is empty: each player holds three cards and every card's
place is known (the other's hand is what has not been seen), so the exact search
(:func:`briscola.ai.evaluate.evaluate`, ``exact``) tells what each card is worth. A puzzle
asks the player to take the most points from there: every card they play must be one of the
best (the exact value of the best card); the other player answers with its own best card.

The puzzle of a day is drawn from the date alone (``puzzle:<YYYY-MM-DD>``), so it is the
same for everyone, offline: deals of that seed are played by the intermediate player until
one reaches an empty talon where a wrong card costs at least :data:`MIN_STAKE` points. Its
difficulty is how many plays the player makes and how many points are still in play.
"""
from __future__ import annotations

import re

from ..actions import action_text
from ..ai import make_bot
from ..ai.evaluate import card_plays, evaluate
from ..ai.explain import explain
from ..game import Game

MIN_STAKE = 4  # a puzzle's worst card loses at least this many points against the best
DATE = re.compile(r"^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$")


def _start(date: object) -> tuple[Game, int]:
    """The deal and the number of its actions where the day's puzzle starts."""
    if not isinstance(date, str) or not DATE.match(date):
        raise ValueError(f"date: expected YYYY-MM-DD, got {date!r}")
    for k in range(200):
        seed = f"puzzle:{date}/{k}"
        game = Game.new("classic", seed=seed)
        bots = [make_bot("intermediate", seed=f"{seed}/{s}") for s in range(2)]
        while not game.is_over:
            turn = game.current_player
            assert turn is not None  # the deal is not over
            view = game.view(turn)
            if view.talon_size == 0 and not view.trick and len(view.hand) == 3:
                ev = evaluate(view)
                values = ev.values.values()
                if ev.exact and max(values) - min(values) >= MIN_STAKE:
                    return game, len(game.actions)
                break
            game.apply(bots[turn].decide(view).action)
    raise ValueError(f"no puzzle for {date}")  # pragma: no cover - one deal in a few has one


def _state(game: Game, seat: int, start_points: int, best: float) -> dict:
    view = game.view(seat)
    other = {int(c) for c in view.unseen()}
    for s, cards in enumerate(view.known):
        if s != seat:
            other |= {int(c) for c in cards}
    return {"view": view.to_dict(), "opponent": sorted(action_text(c) for c in other),
            "points": view.side_points[view.side_of_seat[seat]] - start_points,
            "best_points": round(best), "done": game.is_over}


def puzzle(date: object) -> dict:
    """The puzzle of ``date``: the position, the other player's cards, its difficulty."""
    game, _step = _start(date)
    seat = game.current_player
    assert seat is not None  # a puzzle starts with a card to play
    view = game.view(seat)
    best = max(evaluate(view).values.values())
    mine = view.side_points[view.side_of_seat[seat]]
    out = {"date": date, "seat": seat, "plays": len(view.hand),
           "stake": game.rules.tables.total_points - sum(view.points)}
    out.update(_state(game, seat, mine, best))
    return out


def move(date: object, moves: object) -> dict:
    """The player's cards so far in the puzzle of ``date``, checked one by one against the
    exact values: ``ok`` while each was one of the best (then the other's replies and the
    position after them), else the best card and why. Raises ``ValueError`` for a card that
    could not be played, or cards after a wrong one or after the end."""
    game, _step = _start(date)
    seat = game.current_player
    assert seat is not None  # a puzzle starts with a card to play
    first = game.view(seat)
    best = max(evaluate(first).values.values())
    mine = first.side_points[first.side_of_seat[seat]]
    replies: list[str] = []
    if not isinstance(moves, list) or not moves:
        raise ValueError("moves: expected the cards played so far, at least one")
    for i, text in enumerate(moves):
        if game.is_over:
            raise ValueError("the puzzle is over")
        view = game.view(seat)
        if not isinstance(text, str) or text not in {str(a) for a in view.legal}:
            raise ValueError(f"{text!r} cannot be played now")
        card = next(int(a) for a in card_plays(view) if action_text(int(a)) == text)
        ev = evaluate(view)
        top = max(ev.values.values())
        if ev.values[card] < top - 1e-6:
            if i != len(moves) - 1:
                raise ValueError("no card can follow a wrong one")
            return {"ok": False, "best": action_text(ev.best), "reason": explain(view, ev, card),
                    "lost": round(top - ev.values[card]), "replies": replies,
                    **_state(game, seat, mine, best)}
        game.apply(card, seat)
        while not game.is_over and game.current_player != seat:
            other = game.current_player
            assert other is not None  # the deal is not over
            reply = evaluate(game.view(other)).best
            replies.append(action_text(reply))
            game.apply(reply, other)
    return {"ok": True, "replies": replies, **_state(game, seat, mine, best)}
