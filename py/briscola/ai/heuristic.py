"""Rule-of-thumb players: the beginner and the card-counting intermediate.

Both decide from the view only. The intermediate scores each card by the points it expects
the trick to bring (who plays after, and the chance that they can beat the best card, from
the cards still out) minus what the card is worth kept in hand (trumps, above all the ace
and three of trump). The beginner plays like someone who has just learnt the rules: grabs
tricks with whatever wins, spends trumps on empty tricks, throws points away, and now and
then plays a card without thinking.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..actions import PASS, Action
from ..cards import N_RANKS
from .base import Bot, Decision, register_bot, why
from .common import Situation, special_action

if TYPE_CHECKING:  # for the annotations only
    from ..rules import Rules
    from ..view import View


def _non_play(view: View) -> Decision | None:
    """Actions outside the card play (auction, calls): a careful pass or the first legal."""
    if view.phase == "play":
        return None
    legal = view.legal
    if PASS in legal:
        return Decision(Action(PASS), why("bot_pass"))
    return Decision(legal[0], why("bot_only_option"))


def routine_decision(view: View) -> Decision | None:
    """What a sensible player does without weighing cards: the actions outside the card
    play (:func:`_non_play`), then an exchange or signal worth making now
    (:func:`~.common.special_action`). ``None`` when a card is to be chosen."""
    d = _non_play(view)
    if d is not None:
        return d
    sp = special_action(view)
    if sp is not None:
        return Decision(Action(sp[0]), sp[1])
    return None


# The weights of the intermediate player (points of the deck's scale).
PARAMS = {
    "trump_top": 13.0,  # keeping the best trump of the deck (the ace)
    "trump_second": 11.0,  # keeping the second trump (the three)
    "trump_base": 6.0,  # keeping a lesser trump...
    "trump_slope": 0.4,  # ...minus this per step down the trump order
    "trump_pts": 0.3,  # ...plus this per point of the card
    "master": 4.0,  # the highest trump still out is mine
    "loaded": 2.0,  # keeping a non-trump ace or three for a carico
    "partner": 0.8,  # a partner who can beat the best card does so this often
    "add": 2.0,  # points each later player is guessed to add to the trick
    # Points an opponent adds by beating a lead in its suit: measured no better at 1.0 or 0.4.
    "suit_risk": 0.0,
}


def trump_keep(r: int, points: int, P: dict[str, float] = PARAMS) -> float:
    """What a trump is worth kept, by its rank ``r`` among the trumps (0 for the best card
    of the deck order) and its ``points``; before counting who holds the stronger ones."""
    if r == 0:
        return P["trump_top"]
    if r == 1:
        return P["trump_second"]
    return P["trump_base"] - P["trump_slope"] * r + P["trump_pts"] * points


def keep_value(sit: Situation, c: int, P: dict[str, float] = PARAMS) -> float:
    """What card ``c`` is worth kept in hand for later tricks (its points excluded)."""
    if sit.talon_size == 0:
        # Everything still out gets played: holding matters less as the deal ends.
        scale = min(1.0, sum(sit.view.hand_sizes) / (2.0 * sit.n))
    else:
        scale = 1.0
    if sit.trump is not None and c // N_RANKS == sit.trump:
        order = sit.tables.order
        # Strength rank among trumps: 0 for the best card of the deck order.
        v = trump_keep(len(order) - sit.strength[c], sit.pts[c], P)
        higher_out = 0
        for x in sit.tables.deck_ints:
            if (x // N_RANKS == sit.trump and sit.strength[x] > sit.strength[c]
                    and sit.live_mask >> x & 1 and not sit.hand_mask >> x & 1):
                higher_out += 1
        if higher_out == 0:
            v += P["master"]  # the master trump
        return v * scale
    # A non-trump ace or three is a threat kept for a carico; the rest is worth little.
    if sit.pts[c] >= 10:
        return P["loaded"] * scale
    return 0.0


def _p_side_wins(sit: Situation, card: int, P: dict[str, float] = PARAMS) -> float:
    """Chance that my side takes the trick after I play ``card``, by those still to play."""
    side_of = sit.side_of
    if sit.would_win(card):
        best, best_side = card, sit.side
    else:
        best, best_side = sit.best, side_of[sit.best_seat]
    mine = 1.0 if best_side == sit.side else 0.0
    if not sit.after:
        return mine
    beat_mask = sit.beaters(best)
    for s in sit.after:
        p = sit.p_holds_any(s, beat_mask)
        if side_of[s] == sit.side:
            # A partner beats an opponent's card when it can and the trick is worth it.
            mine += (1.0 - mine) * p * P["partner"]
        else:
            mine *= 1.0 - p
    return mine


def score_card(sit: Situation, c: int, P: dict[str, float] = PARAMS) -> float:
    pts = sit.pts
    total = sit.table_pts + pts[c]
    p = _p_side_wins(sit, c, P)
    # Expected swing of the trick's points, plus a guess at what those after me add.
    swing = total * (2.0 * p - 1.0)
    if sit.after:
        avg_add = P["add"] * len(sit.after)
        swing += avg_add * (2.0 * p - 1.0) * 0.5
        if P["suit_risk"] and not sit.is_trump(c) and sit.would_win(c):
            swing -= P["suit_risk"] * _suit_risk(sit, c)
    return swing - keep_value(sit, c, P)


def _suit_risk(sit: Situation, c: int) -> float:
    """Points an opponent still to play is expected to add by beating ``c`` in its suit.

    A low card led in a suit whose ace or three is still out invites the opponent to take
    it with that ace or three: the trick then costs their card's points as well.
    """
    pts = sit.pts
    strength = sit.strength
    suit = c // N_RANKS
    opp_after = [s for s in sit.after if sit.side_of[s] != sit.side]
    if not opp_after:
        return 0.0
    risk = 0.0
    cand = sit.live_mask & ~sit.hand_mask
    base = suit * N_RANKS
    pool = len(sit.unknown)
    for r in range(N_RANKS):
        x = base + r
        if not cand >> x & 1 or pts[x] == 0 or strength[x] <= strength[c]:
            continue
        p = 0.0
        for s in opp_after:
            if sit.known[s] >> x & 1:
                p = 1.0
                break
            if sit.unknown_mask >> x & 1 and pool:
                p += sit.unknown_slots[s] / pool
        risk += pts[x] * min(p, 1.0)
    return risk


def reason_for(sit: Situation, c: int, rules: Rules) -> dict:
    """What the play of ``c`` does, as a reason (``{code, params}``)."""
    if len(sit.hand) == 1:
        return why("bot_last_card", card=c)
    total = sit.table_pts + sit.pts[c]
    wins = sit.would_win(c)
    if sit.pos == 0:
        if sit.pts[c] == 0 and not sit.is_trump(c):
            return why("bot_lead_worthless", card=c)
        if sit.is_trump(c):
            return why("bot_lead_trump", card=c)
        return why("bot_lead", card=c)
    ours = sit.side_of[sit.best_seat] == sit.side
    if wins and not ours:
        if total:
            return why("bot_take_points", card=c, points=total)
        return why("bot_take", card=c)
    if ours and sit.pts[c] > 0 and not wins:
        return why("bot_load_partner", card=c, points=sit.pts[c])
    if ours:
        return why("bot_let_partner", card=c)
    if sit.pts[c] == 0:
        return why("bot_give_up_worthless", card=c)
    if sit.pts[c] <= min(sit.pts[x] for x in sit.hand):
        return why("bot_give_up_cheapest", card=c)
    return why("bot_give_up_points", card=c, points=sit.pts[c])


class IntermediateBot(Bot):
    """Counts cards and plays by expected points; cooperates with partners."""

    name = "intermediate"

    def __init__(self, seed: int | str | None = None, params: dict | None = None) -> None:
        super().__init__(seed)
        self.params = dict(PARAMS, **(params or {}))

    def decide(self, view: View) -> Decision:
        d = routine_decision(view)
        if d is not None:
            return d
        sit = Situation(view)
        c = self.pick(sit)
        return Decision(Action(c), reason_for(sit, c, view.rules))

    def pick(self, sit: Situation) -> int:
        best, best_v = -1, -1e9
        P = self.params
        for c in sit.hand:
            v = score_card(sit, c, P)
            # Ties: prefer the weaker card (keeps strength), then the lower number.
            v -= 0.001 * sit.strength[c]
            if v > best_v:
                best, best_v = c, v
        return best

    def scores(self, sit: Situation) -> dict[int, float]:
        return {c: score_card(sit, c, self.params) for c in sit.hand}


class BeginnerBot(Bot):
    """A friendly opponent: knows the rules, not the tactics."""

    name = "beginner"

    def decide(self, view: View) -> Decision:
        d = _non_play(view)
        if d is not None:
            return d
        rng = self.rng
        sit = Situation(view)
        if rng.random() < 0.5:
            sp = special_action(view)
            if sp is not None:
                return Decision(Action(sp[0]), sp[1])
        hand = sit.hand
        pts = sit.pts
        if rng.random() < 0.2:
            c = rng.choice(hand)
            return Decision(Action(c), why("bot_careless", card=c))
        if sit.pos == 0:
            # Leads its lowest card, often a point card or a trump by mistake.
            c = min(hand, key=lambda x: (pts[x], sit.strength[x], rng.random()))
            if rng.random() < 0.3:
                c = rng.choice(hand)
            return Decision(Action(c), why("bot_lead", card=c))
        ours = sit.side_of[sit.best_seat] == sit.side
        winners = [c for c in hand if sit.would_win(c)]
        if winners and not ours:
            # Grabs the trick with the strongest winner, trump or not, points or not.
            c = max(winners, key=lambda x: (pts[x], sit.strength[x]))
            total = sit.table_pts + pts[c]
            return Decision(Action(c), why("bot_take_points", card=c, points=total) if total
                            else why("bot_take", card=c))
        # Cannot win (or the partner is winning): plays any non-trump card it likes.
        plain = [c for c in hand if not sit.is_trump(c)] or hand
        c = rng.choice(plain)
        return Decision(Action(c), why("bot_play", card=c))


register_bot("beginner", BeginnerBot)
register_bot("intermediate", IntermediateBot)
