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
)
