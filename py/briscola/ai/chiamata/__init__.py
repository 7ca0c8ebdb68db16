"""The computer players of Briscola Chiamata (five players, an auction, a secret partner).

One module per concern, each importing only those listed before it:

* :mod:`.common` — :class:`~.common.ChState`, what a Chiamata player reads off its view
  (the auction, the sides as far as known, a belief about who holds the called card);
* :mod:`.bid` — the auction and the call: the points a hand can expect, what to bid;
* :mod:`.play` — card play by rule of thumb, with the sides as probabilities;
* :mod:`.bots` — the beginner and intermediate players (registered under those names);
* :mod:`.expert` — the expert: sampled worlds, each searched by alpha-beta (registered as
  ``expert``).

Nothing here is imported until a Chiamata bot is asked for (``briscola.ai.make_bot``), so
the classic players start fast.
"""
