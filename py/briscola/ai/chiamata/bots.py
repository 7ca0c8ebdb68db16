"""The computer players of Briscola Chiamata: beginner, intermediate and expert.

All three decide from the view of their own seat only, give their reason as data
(``{code, params}``, worded by the page), and draw every random choice from their own seeded stream.

* **beginner**: bids on the points it holds and the length of its longest suit, calls the
  highest missing card of that suit, then grabs tricks and throws cards about without
  minding the partner.
* **intermediate**: bids from an estimate of the points the hand takes with its partner
  (:mod:`.bid`), plays by expected points with a belief about who the partner is
  (:mod:`.play`).
* **expert**: bids from the same estimate with the points its own play adds as caller;
  plays by searching sampled deals consistent with
  everything it has seen, weighted by the same belief (:mod:`.expert`).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...actions import BID_POINTS, BID_RANK, CALL_CARD, CALL_SUIT, PASS, Action
from ...cards import CARDS, N_RANKS, RANK_INDEX
from ...errors import RulesError
from ..base import Bot, Decision, register_chiamata_bot, why
from .bid import BidPolicy, decide_auction, decide_call
from .common import ChState
from .play import pick, pick_beginner, reason

if TYPE_CHECKING:  # for the annotations only
    from ...view import View


def _check(view: View) -> None:
    if not view.legal:
        raise RulesError(f"seat {view.seat} has nothing to do now")


class IntermediateChiamataBot(Bot):
    """Estimates its hand to bid; plays by expected points with a belief about the partner."""

    name = "intermediate"
    policy = BidPolicy()
    reads = False  # weigh the plays by the fitted reading (PLAY_READS) for the belief

    def decide(self, view: View) -> Decision:
        _check(view)
        if view.phase == "auction":
            return decide_auction(view, self.policy)
        if view.phase == "call":
            return decide_call(view, self.policy)
        st = ChState(view, self.reads)
        plays = st.legal_plays()
        if len(plays) == 1:
            return Decision(Action(plays[0]), reason(st, plays[0]))
        return self.play(st, plays)

    def play(self, st: ChState, plays: list[int]) -> Decision:
        c = pick(st, plays)
        return Decision(Action(c), reason(st, c))


class BeginnerChiamataBot(Bot):
    """Bids on raw points, plays greedily and ignores the partner."""

    name = "beginner"

    def decide(self, view: View) -> Decision:
        _check(view)
        if view.phase == "auction":
            return self._bid(view)
        if view.phase == "call":
            return self._call(view)
        st = ChState(view)
        plays = st.legal_plays()
        c, why = pick_beginner(st, plays, self.rng)
        return Decision(Action(c), why)

    def _longest(self, view: View) -> int:
        counts = [0, 0, 0, 0]
        pts = view.rules.tables.points
        for c in view.hand:
            counts[c // N_RANKS] += 10 + pts[c]
        return max(range(4), key=lambda s: counts[s])

    def _bid(self, view: View) -> Decision:
        legal = [int(a) for a in view.legal]
        pts = view.rules.tables.points
        suit = self._longest(view)
        length = sum(1 for c in view.hand if c // N_RANKS == suit)
        raw = sum(pts[c] for c in view.hand) + 5 * length + self.rng.randint(-6, 6)
        ranks = sorted((a for a in legal if BID_RANK <= a < BID_RANK + N_RANKS),
                       key=lambda a: view.rules.tables.order.index(CARDS[a - BID_RANK].rank))
        if view.rules.auction == "points":
            bids = sorted(a for a in legal if BID_POINTS <= a <= BID_POINTS + 120)
            if bids and (raw >= 45 + (bids[0] - BID_POINTS - 61) or PASS not in legal):
                n = bids[0] - BID_POINTS
                return Decision(Action(bids[0]), why("bot_bid_points_likes", n=n, n2=length,
                                                     suit=suit))
            return Decision(Action(PASS), why("bot_pass_weak"))
        # Goes down the ranks while it holds enough points, never below the jack.
        order = view.rules.tables.order
        for a in ranks:
            r = CARDS[a - BID_RANK].rank
            if order.index(r) <= order.index("J") and raw >= 40 + 3 * order.index(r):
                return Decision(Action(a), why("bot_bid_rank_likes", rank=r, n=length,
                                               suit=suit))
        if PASS in legal:
            return Decision(Action(PASS), why("bot_pass_weak"))
        a = ranks[0] if ranks else min(legal)
        return Decision(Action(a), why("bot_must_bid_first"))

    def _call(self, view: View) -> Decision:
        legal = [int(a) for a in view.legal]
        suit = self._longest(view)
        held = {int(c) for c in view.hand}
        rules = view.rules
        if rules.auction == "points":
            for r in rules.tables.order:
                c = RANK_INDEX[r] + suit * N_RANKS
                if c not in held and CALL_CARD + c in legal:
                    return Decision(Action(CALL_CARD + c),
                                    why("bot_call_longest_card", card=c, suit=suit))
        a = CALL_SUIT + suit
        if a not in legal:  # pragma: no cover - every suit is legal in a rank auction
            a = legal[0]
        return Decision(Action(a), why("bot_call_longest_suit", suit=suit))


register_chiamata_bot("beginner", BeginnerChiamataBot)
register_chiamata_bot("intermediate", IntermediateChiamataBot)

