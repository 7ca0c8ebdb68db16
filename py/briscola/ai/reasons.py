"""The computer players' reasons: codes with parameters, worded by the page.

A bot's :class:`~briscola.ai.base.Decision` carries ``reason = {"code", "params"}`` (built
with :func:`~briscola.ai.base.why`); the page words it in each language from the key
``reason.<code>`` of ``js/locales/*.js``, card codes as card names in its deck style. No
English sentence is built here and nothing is translated by patterns: a new reason is a new
code here and a sentence in every locale (the tests fail on a code without one).

Parameters: ``card``, ``card2`` card codes; ``suit`` a suit letter; ``rank`` a rank letter;
``points``, ``n``, ``n2``, ``worlds`` numbers (``worlds``: the likely deals a search weighed;
no sentence needs it).
"""
from __future__ import annotations

from ..actions import BID_POINTS, BID_RANK, CALL_CARD, CALL_SUIT, CARICHI, PASS, SIGNAL, SIGNAL_LOADED
from ..cards import CARDS, N_CARDS, RANKS, SUITS

CODES = (
    # every variant
    "bot_random", "bot_pass", "bot_only_option", "bot_exchange", "bot_signal",
    "bot_last_card", "bot_lead", "bot_lead_trump", "bot_lead_worthless", "bot_take",
    "bot_take_points", "bot_load_partner", "bot_let_partner", "bot_give_up_worthless",
    "bot_give_up_cheapest", "bot_give_up_points", "bot_careless", "bot_play",
    # Briscola Chiamata: the play
    "bot_called_card", "bot_over_friend", "bot_load_caller", "bot_load_friend",
    # Briscola Chiamata: the auction and the call
    "bot_carichi", "bot_bid_rank", "bot_bid_rank_likes", "bot_bid_points",
    "bot_bid_points_likes", "bot_raise", "bot_must_bid_rank", "bot_must_bid_first",
    "bot_must_raise", "bot_must_promise", "bot_pass_too_high", "bot_pass_weak",
    "bot_pass_not_lower", "bot_call_self", "bot_call_card", "bot_call_longest_card",
    "bot_call_longest_suit",
    # what the others are told of a bid, a call or a signal (:func:`public_reason`)
    "bot_bids_rank", "bot_bids_points", "bot_calls_card", "bot_calls_suit", "bot_goes_carichi",
    "bot_signals",
)

# A bot's reason for a bid, a pass or a call names what only its own hand knows (its long
# suit, the trump it would choose, its count of cards, its estimate, that it called its own
# card: the secret of Chiamata), and a signal is seen by the partner alone (docs/rules.md
# §10.5). What the table is told of such a decision is the action alone (:func:`public_reason`).


def public_reason(reason: dict, action: int, signal_seen: bool = True) -> dict:
    """A bot's ``reason`` for ``action`` as the others at the table may hear it: for the
    auction and the call, the action said in words and nothing of the hand; for a signal,
    the reason to the partner only (``signal_seen``); any other reason as it is."""
    a = int(action)
    if SIGNAL <= a <= SIGNAL_LOADED:
        return reason if signal_seen else {"code": "bot_signals", "params": {}}
    if a == PASS and str(reason.get("code", "")).startswith("bot_pass"):
        return {"code": "bot_pass", "params": {}}
    if a == CARICHI:
        return {"code": "bot_goes_carichi", "params": {}}
    if BID_RANK <= a < BID_RANK + len(RANKS):
        return {"code": "bot_bids_rank", "params": {"rank": RANKS[a - BID_RANK]}}
    if BID_POINTS + 61 <= a <= BID_POINTS + 120:
        return {"code": "bot_bids_points", "params": {"n": a - BID_POINTS}}
    if CALL_SUIT <= a < CALL_SUIT + len(SUITS):
        return {"code": "bot_calls_suit", "params": {"suit": SUITS[a - CALL_SUIT]}}
    if CALL_CARD <= a < CALL_CARD + N_CARDS:
        return {"code": "bot_calls_card", "params": {"card": str(CARDS[a - CALL_CARD])}}
    return reason
