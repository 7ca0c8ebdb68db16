"""The coach's words for Chiamata's auction and call: the reason is the hand.

:func:`briscola.ai.evaluate.evaluate_bidding` values each bid, pass and call in game points,
from the contract each one commits to (the trump suit, the called card, whether the caller
plays alone, and the card points the hand is expected to take, :func:`.bid.estimate`: the
measure the computer players bid by). The figure decides; a player learns from the hand.
So every reason here says what the hand holds for the contract in question and what the
contract needs:

* ``trumps``: the cards the hand holds of the suit that would be trump (the called card's);
* ``loads``: its Aces and Threes, the cards of 10 and 11 points (i carichi);
* ``points``: the card points the hand is expected to take (the estimate, rounded);
* ``need``: the card points the contract needs (60 after a rank bid, or the points promised);
* ``card``: the called card, ``suit`` its suit (the trump).

A bid is explained by the contract it would play (its holder is the partner); a pass by the
best contract the next bid could play and what it falls short of; a call by the suit it makes
trump (the longest of the hand, or the one where the hand is strongest, or a short one when the
long suit's card is the caller's own and would leave him alone against four). Every number is
a fact of the seat's hand or of the auction, which ``tests/test_chiamata_coach.py`` recomputes.

:func:`side_reason` says, for the play of a Chiamata deal, what the seat knows of the sides
(the partner known or not, and what that changes).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from ...actions import BID_POINTS, BID_RANK, CALL_CARD, PASS
from ...cards import CARDS, N_RANKS, RANK_INDEX, SUITS

if TYPE_CHECKING:  # for the annotations only
    from ...rules import Rules
    from ...view import View
    from ..evaluate import Evaluation

# Every code this module gives (each has its sentence ``reason.<code>`` in every locale).
BID_CODES = (
    "coach_bid_hand", "coach_bid_hand_alone", "coach_bid_hand_lowest", "coach_bid_must",
    "coach_bid_must_points", "coach_bid_raise", "coach_bid_promise", "coach_bid_pass_hand", "coach_bid_pass_points_hand",
    "coach_bid_pass_strong", "coach_bid_pass_even",
)
CALL_CODES = (
    "coach_call_long", "coach_call_trumps", "coach_call_short", "coach_call_alone_hand",
    "coach_call_lowest",
)
SIDE_CODES = (
    "coach_side_caller", "coach_side_alone", "coach_side_partner_secret",
    "coach_side_opponent", "coach_side_known_ours", "coach_side_known_theirs",
    "coach_side_known_alone", "coach_side_known_alone_me",
)
# The aims of each side, and the moment the called card shows the sides (:func:`play_notes`).
PLAY_CODES = ("coach_aim_make", "coach_aim_stop", "coach_reveal", "coach_reveal_keep",
              "coach_reveal_alone")
CODES = BID_CODES + CALL_CODES + SIDE_CODES + PLAY_CODES

# A plain contract (a rank bid) needs 60; a hand that should take more is a good one.
PLAIN_NEED = 60


def _reason(code: str, **params: Any) -> dict:
    return {"code": code, "params": params}


def suit_count(hand: Sequence[int], suit: int) -> int:
    return sum(1 for c in hand if int(c) // N_RANKS == suit)


def loads(hand: Sequence[int], rules: Rules) -> int:
    """The hand's Aces and Threes (the two ranks of most points, whatever the deck)."""
    top = rules.tables.order[:2]
    return sum(1 for c in hand if CARDS[int(c)].rank in top)


def hand_params(hand: Sequence[int], contract: dict, rules: Rules) -> dict:
    """What the hand holds for ``contract`` (an entry of ``Evaluation.contracts``)."""
    card = int(contract["card"])
    suit = card // N_RANKS
    return {"card": str(CARDS[card]), "suit": SUITS[suit], "trumps": suit_count(hand, suit),
            "loads": loads(hand, rules), "points": int(round(contract["est"])),
            "need": int(contract["target"])}


def _rank_of(a: int) -> str | None:
    return CARDS[a - BID_RANK].rank if BID_RANK <= a < BID_RANK + N_RANKS else None


def _points_of(a: int) -> int | None:
    return a - BID_POINTS if BID_POINTS <= a <= BID_POINTS + 120 else None


def pick(ev: Evaluation, chosen: int | None) -> tuple[int, int | None]:
    """The action explained (``b``: the best, or ``chosen`` when it is as good as the best)
    and the one it is compared with (``a``: ``chosen`` otherwise, else the next best)."""
    ranked = ev.ranked
    b = ranked[0]
    if chosen is not None and int(chosen) in ev.values and ev.loss(int(chosen)) == 0:
        b = int(chosen)
    if chosen is not None and int(chosen) != b:
        return b, int(chosen)
    return b, next((c for c in ranked if c != b), None)


def bidding_reason(view: View, ev: Evaluation, chosen: int | None = None) -> dict | None:
    """The hand's reason for the best auction or call action (``ev``:
    :func:`~briscola.ai.evaluate.evaluate_bidding` of ``view``); ``None`` where no contract
    is valued (nothing to say of the hand)."""
    hand = [int(c) for c in view.hand]
    b, a = pick(ev, chosen)
    if ev.method == "call":
        return _call_reason(view, ev, hand, b, a)
    return _auction_reason(view, ev, hand, b, a)


def _auction_reason(view: View, ev: Evaluation, hand: list[int], b: int, a: int | None) -> dict | None:
    rules = view.rules
    legal = {int(x) for x in view.legal}
    if b == PASS:
        # the best bid there was (the next best action), and why the hand cannot make it
        bids = [x for x in ev.ranked if x != PASS and ev.contracts.get(x)]
        if not bids:
            return None
        alt = a if a is not None and a != PASS and ev.contracts.get(a) else bids[0]
        p = hand_params(hand, ev.contracts[alt], rules)
        n = _points_of(alt)
        if p["points"] >= p["need"]:  # as much as it needs: a coin toss that risks the stake
            return _reason("coach_bid_pass_even", **p)
        if n is not None:
            p.pop("need")
            if p["points"] > PLAIN_NEED:
                return _reason("coach_bid_pass_strong", n=n, **p)
            return _reason("coach_bid_pass_points_hand", n=n, **p)
        return _reason("coach_bid_pass_hand", rank=_rank_of(alt), **p)
    c = ev.contracts.get(b)
    if not c:
        return None
    p = hand_params(hand, c, rules)
    rank, n = _rank_of(b), _points_of(b)
    if PASS not in legal:  # everyone else passed: a bid there must be
        if rank is not None:
            return _reason("coach_bid_must", rank=rank, **p)
        p.pop("need")
        return _reason("coach_bid_must_points", n=n, **p)
    if rank is not None:
        if CARDS[int(c["card"])].rank != rank:  # the forced call: the 2 is in the hand
            own = RANK_INDEX[rank] + int(c["card"]) // N_RANKS * N_RANKS
            return _reason("coach_bid_hand_lowest", rank=rank, own=str(CARDS[own]), **p)
        return _reason("coach_bid_hand_alone" if c["alone"] else "coach_bid_hand", rank=rank, **p)
    p.pop("need")
    if rules.auction == "points":
        return _reason("coach_bid_promise", n=n, **p)
    return _reason("coach_bid_raise", n=n, **p)


def _call_reason(view: View, ev: Evaluation, hand: list[int], b: int, a: int | None) -> dict | None:
    rules = view.rules
    cb = ev.contracts.get(b)
    if not cb:
        return None
    p = hand_params(hand, cb, rules)
    suit = int(cb["card"]) // N_RANKS
    if cb["alone"]:
        return _reason("coach_call_alone_hand", **p)
    if rules.auction == "rank" and CALL_CARD <= b < CALL_CARD + 52:
        # the forced call: the hand holds the bid rank (the 2) of this suit, and calls the
        # lowest card of it that it lacks instead
        own = RANK_INDEX[rules.tables.order[-1]] + suit * N_RANKS
        return _reason("coach_call_lowest", own=str(CARDS[own]), **p)
    counts = [suit_count(hand, s) for s in range(4)]
    if counts[suit] >= max(counts):
        return _reason("coach_call_long", **p)
    # not the longest suit: the best call that makes the longest suit trump, for comparison
    longest = max(range(4), key=lambda s: (counts[s], -s))
    other = max((x for x, c in ev.contracts.items()
                 if c and int(c["card"]) // N_RANKS == longest),
                key=lambda x: (ev.values[x], -x))
    co = ev.contracts[other]
    alt = {"alt": str(CARDS[int(co["card"])]), "suit2": SUITS[longest],
           "trumps_alt": counts[longest], "points_alt": int(round(co["est"]))}
    if co["alone"]:
        # the long suit's card is the caller's own: calling it plays alone against four
        return _reason("coach_call_short", **alt, **p)
    # as trump this suit is worth more: its Aces and Threes in the hand, a better card to call
    top = rules.tables.order[:2]
    held_top = sum(1 for c in hand if c // N_RANKS == suit and CARDS[c].rank in top)
    return _reason("coach_call_trumps", top=held_top, **alt, **p)


def side_reason(view: View) -> dict | None:
    """What the seat knows of the sides in the play of a Chiamata deal, and what it changes
    (a sentence to go before a card's reason); ``None`` outside the play of a deal with a
    called card. It says only what the seat knows: the holder of the called card is told to
    nobody but the holder until the card is played."""
    ch = view.chiamata or {}
    if view.rules.mode != "chiamata" or view.phase != "play" or ch.get("carichi") \
            or not ch.get("called_card") or ch.get("caller") is None:
        return None
    me, caller, card = view.seat, int(ch["caller"]), ch["called_card"]
    partner = ch.get("partner")
    held = card in {str(c) for c in view.hand}
    if ch.get("partner_revealed"):
        partner = int(ch["partner"])
        if partner == caller:
            if me == caller:
                return _reason("coach_side_known_alone_me", card=card)
            return _reason("coach_side_known_alone", card=card, caller_seat=caller)
        if me in (caller, partner):
            return _reason("coach_side_known_ours", card=card,
                           mate_seat=partner if me == caller else caller)
        return _reason("coach_side_known_theirs", card=card, caller_seat=caller,
                       partner_seat=partner)
    if me == caller:
        if held:  # called his own card: one against four, the others don't know it
            return _reason("coach_side_alone", card=card)
        return _reason("coach_side_caller", card=card)
    if held:
        return _reason("coach_side_partner_secret", card=card, caller_seat=caller)
    return _reason("coach_side_opponent", card=card, caller_seat=caller)


def aim_reason(view: View) -> dict | None:
    """What the seat's side plays for in a Chiamata deal: the caller's side the contract's
    points (61, or the points promised), the others the points that stop it (121 less that)."""
    ch = view.chiamata or {}
    target = ch.get("target")
    if side_reason(view) is None or not target:
        return None
    me, caller = view.seat, int(ch["caller"])
    partner = ch.get("partner")
    held = ch["called_card"] in {str(c) for c in view.hand}
    if me == caller or held or (partner is not None and me == int(partner)):
        return _reason("coach_aim_make", need=int(target))
    return _reason("coach_aim_stop", need=121 - int(target), target=int(target))


def reveal_reason(view: View, card: str, alt: str | None) -> dict | None:
    """The moment the called card shows the sides: its holder playing it (the partner made
    known to all, or the caller who called his own card shown alone), or keeping it (the sides
    stay hidden); ``None`` where neither card named is the called card still hidden."""
    ch = view.chiamata or {}
    if side_reason(view) is None or ch.get("partner_revealed"):
        return None
    called, caller = ch["called_card"], int(ch["caller"])
    if called not in {str(c) for c in view.hand}:
        return None
    if card == called:
        if view.seat == caller:
            return _reason("coach_reveal_alone", card=card)
        return _reason("coach_reveal", card=card, caller_seat=caller)
    if alt == called:
        return _reason("coach_reveal_keep", alt=alt)
    return None


def play_notes(view: View, why: dict, aims: bool = True) -> dict:
    """A card play's reason in Chiamata with what the seat knows of the sides and its side's
    aim said first (``context``), and after it the moment the called card shows the sides
    (``then``, after any line already there); the reason as it is outside Chiamata's play."""
    side = side_reason(view)
    if side is None:
        return why
    why = dict(why)
    aim = aim_reason(view) if aims else None
    why["context"] = {**side, "then": aim} if aim else side
    p = why.get("params", {})
    rev = reveal_reason(view, p.get("card", ""), p.get("alt")) if "card" in p else None
    if rev is not None:
        last = why
        while isinstance(last.get("then"), dict):
            last = last["then"] = dict(last["then"])
        last["then"] = rev
    return why
