"""The coach: a fair evaluation of every decision, and what is built on it.

Owns, for any variant (Chiamata included):

* the evaluation it stands on lives with the bots, in :mod:`briscola.ai.evaluate` (the
  expected card points for the deciding seat's side after each legal card, from that seat's
  view only: worlds sampled consistently with the view, searched by the expert's own solver;
  exact once every card's place is known; the loss of a play and its label, thresholds
  documented there) and :mod:`briscola.ai.explain` (why one card beats another, as data,
  ``{code, params}``, worded by the page): one evaluation serves the hint, the review and
  the computer players' reasons;
* :mod:`.review` -- a deal's decisions for one seat, each evaluated, the accuracy figure and
  the turning points (the bridge and ``python -m briscola review`` share it);
* :mod:`.tracker` -- the card tracker: what is still out, from a view;
* :mod:`.rating` -- an Elo-style rating of a person against the computer levels.

Nothing here reads a hidden card: every function takes a :class:`~briscola.view.View` (or
builds one per decision from a finished deal for the seat under review).
"""
