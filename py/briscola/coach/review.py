"""A deal reviewed for one seat: every decision scored, the accuracy, the turning points.

The decisions reviewed are the seat's card plays where it had a choice (a play forced by
the rules, such as the last card, teaches nothing and is left out). Each is evaluated from
the view the seat had at that moment (:func:`briscola.ai.evaluate.evaluate`), so a
review never judges a play by cards the player could not see. The page asks for one
decision at a time (the table never freezes and the review can be abandoned);
``python -m briscola review`` runs :func:`review_deal`.
"""
from __future__ import annotations

from ..cards import CARDS
from ..game import Game
from ..ai.evaluate import (DEFAULT_BUDGET, THRESHOLDS, Budget, accuracy_of, card_plays, evaluate,
                       label_for)
from ..ai.explain import explain

TURNING_POINTS = 3  # at most this many turning points a deal
TURNING_MIN_LOSS = THRESHOLDS[1]  # ... each losing at least this much (an inaccuracy)


def plan(game: Game, seat: int) -> list[dict]:
    """The seat's decisions in ``game``: ``{index, step, trick, action}`` each, in order.

    ``step`` is the number of actions of the deal before the decision (the replay position),
    ``trick`` the trick's number (0 for the first).
    """
    g = Game._deal(game.rules, game.deck, game.dealer, game.seed)
    out = []
    for step, a in enumerate(game.actions):
        if g.current_player == seat and a < 52 and g.phase == 3:
            legal = [x for x in g.legal_actions_fast() if x < 52]
            if len(legal) > 1:
                out.append({"index": len(out), "step": step, "trick": g.tricks_done,
                            "action": str(CARDS[a])})
        g.apply_fast(a)
    return out


def decision(game: Game, seat: int, step: int, budget: Budget = DEFAULT_BUDGET) -> dict:
    """One decision evaluated: the card played, the best, the loss, its label and why."""
    g = game.replay(step)
    view = g.view(seat)
    played = int(game.actions[step])
    if g.current_player != seat or played not in card_plays(view):
        raise ValueError(f"action {step} of the deal is not a card played by seat {seat}")
    ev = evaluate(view, budget)
    loss = round(ev.loss(played), 2)
    best = played if ev.loss(played) == 0 else ev.best  # a tie with the best is the best
    return {"action": str(CARDS[played]), "best": str(CARDS[best]), "loss": loss,
            "label": label_for(loss), "values": ev.to_list(), "method": ev.method,
            "reason": explain(view, ev, played)}


def summary(results: list[dict]) -> dict:
    """Accuracy, mean loss, label counts and the turning points of evaluated decisions
    (each a :func:`decision` result with its ``index``)."""
    from ..ai.evaluate import LABELS
    losses = [r["loss"] for r in results]
    counts = {name: 0 for name in LABELS}
    for r in results:
        counts[r["label"]] += 1
    worst = sorted((r for r in results if r["loss"] >= TURNING_MIN_LOSS),
                   key=lambda r: (-r["loss"], r["index"]))[:TURNING_POINTS]
    return {"accuracy": round(accuracy_of(losses), 1),
            "mean_loss": round(sum(losses) / len(losses), 2) if losses else 0.0,
            "counts": counts, "turning_points": sorted(r["index"] for r in worst)}


def review_deal(game: Game, seat: int, budget: Budget = DEFAULT_BUDGET) -> dict:
    """Every decision of ``seat`` in ``game`` and the summary."""
    decisions = []
    for d in plan(game, seat):
        r = decision(game, seat, d["step"], budget)
        r.update(index=d["index"], step=d["step"], trick=d["trick"])
        decisions.append(r)
    out = {"seat": seat, "count": len(decisions), "decisions": decisions}
    out.update(summary(decisions))
    return out
