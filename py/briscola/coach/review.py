"""A deal reviewed for one seat: every decision scored, the accuracy, the turning points.

The decisions reviewed are the seat's card plays where it had a choice (a play forced by
the rules, such as the last card, teaches nothing and is left out) and, in Briscola
Chiamata, its bids and passes in the auction and its call (valued in game points, see
:func:`briscola.ai.evaluate.evaluate_bidding`; "a carichi" is left out). Each is evaluated
from the view the seat had at that moment, so a review never judges a play by cards the
player could not see (its loss); only the label of a load lost for nothing also weighs what
then happened to the trick (:func:`lost_load`, docs/coach.md). The page asks for one
decision at a time (the table never freezes and the review can be abandoned);
``python -m briscola review`` runs :func:`review_deal`.
"""
from __future__ import annotations

from typing import Any, Sequence

from ..actions import CARICHI, action_text
from ..ai.evaluate import (CARD_POINTS, DEFAULT_BUDGET, LABELS, Budget, Evaluation, accuracy_of,
                           card_plays, evaluate, evaluate_bidding, label_for, severity)
from ..ai.explain import because, explain, explain_bidding
from ..game import Game

TURNING_POINTS = 3  # at most this many turning points a deal
TURNING_LABELS = ("inaccuracy", "mistake", "blunder")  # ... each at least an inaccuracy
LOAD_POINTS = 10  # a load (carico): a card worth this many points or more, an Ace or a Three
LOST_LOAD_LABEL = "inaccuracy"  # the least label of an unforced lost load
_ORDER = ("best", "equal", "good", "inaccuracy", "mistake", "blunder")


def plan(game: Game, seat: int) -> list[dict]:
    """The seat's decisions in ``game``: ``{index, step, trick, phase, action}`` each, in
    order.

    ``step`` is the number of actions of the deal before the decision (the replay position),
    ``trick`` the trick's number (0 for the first, and in the auction and the call),
    ``phase`` "play", "auction" or "call".
    """
    g = Game._deal(game.rules, game.deck, game.dealer, game.seed)
    out: list[dict] = []
    for step, a in enumerate(game.actions):
        if g.current_player == seat:
            phase = g.phase_name
            if phase == "play" and a < 52:
                legal = [x for x in g.legal_actions_fast() if x < 52]
            elif phase in ("auction", "call") and a != CARICHI:
                legal = g.legal_actions_fast()
            else:
                legal = []
            if len(legal) > 1:
                out.append({"index": len(out), "step": step, "trick": g.tricks_done,
                            "phase": phase, "action": action_text(int(a))})
        g.apply_fast(a)
    return out


def decision(game: Game, seat: int, step: int, budget: Budget = DEFAULT_BUDGET) -> dict:
    """One decision evaluated: the card played, the best, the loss, its label and why."""
    g = game.replay(step)
    view = g.view(seat)
    played = int(game.actions[step])
    if g.current_player != seat:
        raise ValueError(f"action {step} of the deal is not seat {seat}'s")
    if view.phase in ("auction", "call"):
        ev = evaluate_bidding(view, played)
        why = explain_bidding(view, ev, played)
    elif played in card_plays(view):
        from ..ai.chiamata.teach import reveal_reason
        ev = evaluate(view, budget)
        why = explain(view, ev, played)
        p = why.get("params", {})
        rev = reveal_reason(view, p["card"], p.get("alt")) if "card" in p else None
        if rev is not None:  # Chiamata: the called card played, or kept, and the sides
            last = why
            while isinstance(last.get("then"), dict):
                last = last["then"]
            last["then"] = rev
    else:
        raise ValueError(f"action {step} of the deal is not a card played by seat {seat}")
    loss = round(ev.loss(played), 2)
    out: dict[str, Any] = {"action": action_text(played), "best": action_text(ev.best), "loss": loss,
           "label": ev.label(played), "unit": ev.unit, "values": ev.to_list(),
           "method": ev.method, "reason": why}
    if ev.unit == CARD_POINTS:
        out["effect"] = fx = trick_effect(game, seat, step)
        kept = lost_load(ev, played, fx, game.rules.tables.points)
        if kept is not None:
            # a load tied with the best lost nothing over the deal: said, never a label worse
            # than "equal" nor a turning point (the label, the note and the reason agree)
            tied = ev.tied(played)
            out["load_lost"] = {"card": action_text(played), "points": fx["given"],
                                "kept": action_text(kept), "tied": tied}
            if not tied:
                out["label"] = worse_label(out["label"], LOST_LOAD_LABEL)
    return out


def worse_label(a: str, b: str) -> str:
    """The worse of two card-play labels."""
    return a if _ORDER.index(a) >= _ORDER.index(b) else b


def lost_load(ev: Evaluation, played: int, effect: dict, points: Sequence[int]) -> int | None:
    """Was ``played`` an *unforced lost load*? The card is a load (worth ``LOAD_POINTS`` or
    more: an Ace or a Three), its trick went to the others, and the seat held another legal
    card worth fewer points that the evaluation rates no lower than the load (within its
    noise): that card would have given the others less now and cost nothing over the deal.
    Returns that card (the best such: the highest value, then the fewest points), else None.
    A load lost when every cheaper card was clearly worse over the deal was forced by the
    position and is judged by its loss alone."""
    played = int(played)
    if effect.get("won") or points[played] < LOAD_POINTS:
        return None
    floor = ev.values[played] - ev.noise - 1e-6
    kept = [c for c in ev.values
            if c != played and points[c] < points[played] and ev.values[c] >= floor]
    if not kept:
        return None
    best: int = min(kept, key=lambda c: (-ev.values[c], points[c], c))
    return best


# Labels a retried play must reach to count as found (a good card: the best, one as good
# as the best, or one that loses less than 3 points over the deal).
FOUND_LABELS = ("best", "equal", "good")


def retry(game: Game, seat: int, step: int, card: int,
          budget: Budget = DEFAULT_BUDGET) -> dict:
    """Another card tried at a card play of the deal (learning from a mistake): its label and
    loss from the same evaluation as the review's, whether it is good enough to count as
    found, and -- once found -- why the card found beats the card first played. Raises
    ``ValueError`` for a decision that is not the seat's card play or a card it could not
    play there."""
    g = game.replay(step)
    if g.current_player != seat:
        raise ValueError(f"action {step} of the deal is not seat {seat}'s")
    view = g.view(seat)
    card = int(card)
    plays = card_plays(view)
    if int(game.actions[step]) not in plays:
        raise ValueError(f"action {step} of the deal is not a card played by seat {seat}")
    if card not in plays:
        raise ValueError(f"{action_text(card)} could not be played there")
    ev = evaluate(view, budget)
    label = ev.label(card)
    first = int(game.actions[step])
    if card == first:  # the card first played: the review's own label, its lost load included
        fx = trick_effect(game, seat, step)
        if lost_load(ev, card, fx, game.rules.tables.points) is not None and not ev.tied(card):
            label = worse_label(label, LOST_LOAD_LABEL)
    found = label in FOUND_LABELS
    why = None
    if found:  # why the card found beats the card first played (never why it is the worse)
        if card == ev.best:
            why = explain(view, ev, first)
        elif ev.values[card] >= ev.values[first] - 1e-9:
            why = because(view, ev, card, first)
        else:  # found (it keeps a load) though valued below the first: why the best is better
            why = explain(view, ev, first)
    return {"action": action_text(card), "label": label, "loss": round(ev.loss(card), 2),
            "found": found, "reason": why}


def trick_effect(game: Game, seat: int, step: int) -> dict:
    """What the card played at ``step`` did to its trick (a decision's ``effect``), for the
    seat's side: ``{points,
    won, given}``: the trick's points, whether the side took it, and the card's own points
    when the others took it (what it gave them; 0 when the side took it)."""
    done = game.replay(step).tricks_done
    card = int(game.actions[step])
    view = game.view(seat)  # the deal's end: every trick and, in Chiamata, the sides
    if done >= len(view.tricks):  # pragma: no cover - a finished deal completes every trick
        return {"points": 0, "won": False, "given": 0}
    _order, _cards, winner, points = view.tricks[done]
    sides = view.side_of_seat
    won = winner == seat or (sides[winner] is not None and sides[seat] is not None
                             and sides[seat] >= 0 and sides[winner] == sides[seat])
    pts = game.rules.tables.points[card]
    return {"points": points, "won": bool(won), "given": 0 if won else pts}


def summary(results: list[dict]) -> dict:
    """Accuracy, mean loss, label counts and the turning points of evaluated decisions
    (each a :func:`decision` result with its ``index``). ``mean_loss`` is in card points,
    over the card plays; the auction and the call (game points) count in the accuracy, the
    labels and the turning points, compared with the plays by :func:`severity`."""
    units = [r.get("unit", CARD_POINTS) for r in results]
    counts = {name: 0 for name in LABELS}
    for r in results:
        counts[r["label"]] += 1
    plays = [r["loss"] for r, u in zip(results, units) if u == CARD_POINTS]
    # a turning point only where points were lost over the deal
    worst = sorted((r for r in results if r["label"] in TURNING_LABELS and r["loss"] > 0),
                   key=lambda r: (-severity(r["loss"], r.get("unit", CARD_POINTS)),
                                  r["index"]))[:TURNING_POINTS]
    return {"accuracy": round(accuracy_of([r["loss"] for r in results], units), 1),
            "mean_loss": round(sum(plays) / len(plays), 2) if plays else 0.0,
            "counts": counts, "turning_points": sorted(r["index"] for r in worst)}


def review_deal(game: Game, seat: int, budget: Budget = DEFAULT_BUDGET) -> dict:
    """Every decision of ``seat`` in ``game`` and the summary."""
    decisions = []
    for d in plan(game, seat):
        r = decision(game, seat, d["step"], budget)
        r.update(index=d["index"], step=d["step"], trick=d["trick"], phase=d["phase"])
        decisions.append(r)
    out = {"seat": seat, "count": len(decisions), "decisions": decisions}
    out.update(summary(decisions))
    return out
