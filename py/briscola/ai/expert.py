"""The expert: exact search where the cards are known, sampled worlds where they are not.

Decision by decision, from the view only:

* When every card's place is known (two players once the talon is empty, scoperta near the
  end, ...) the rest of the deal is solved exactly (:mod:`briscola.ai.solver`).
* Near the end, the unseen cards are dealt into worlds consistent with the view
  (:mod:`briscola.ai.sampler`); each world is solved exactly (the talon order becomes known
  in it) and the move with the best mean over the worlds is played. This "perfect
  information Monte Carlo" is known to err when it pretends to know future draws, so it is
  used only where few draws remain; ties go to the card-counting heuristic.
* Earlier, the card-counting heuristic of :mod:`briscola.ai.heuristic` decides.

The search is anytime: worlds are solved until the sample count or the time budget is
reached, and a node budget per world keeps any single solve short. The bot is reproducible
from its seed as long as the time budget is not what stops it.
"""
from __future__ import annotations

import time

from ..actions import Action
from ..cards import N_RANKS
from .base import Bot, Decision, register_bot
from .common import Situation, card_name, special_action
from .heuristic import IntermediateBot, _non_play, reason_for, score_card
from .sampler import Sampler
from .solver import SearchAborted, Solver


_SOLVERS: dict = {}  # (rules, trump) -> Solver: its tables are shared, its search is not


def _search_horizon(rules) -> int:
    """Cards still to be played (hands plus talon) from which the search takes over."""
    n = rules.players
    if rules.double:
        return {2: 16}.get(n, 4 * n)
    return {2: 12, 3: 12, 4: 16, 5: 15, 6: 18}.get(n, 3 * n)


class ExpertBot(Bot):
    """Exact endgame search plus sampled worlds near the end; heuristic before."""

    name = "expert"

    def __init__(self, seed=None, time_budget: float = 0.25, samples: int = 24,
                 node_limit: int = 60000, horizon: int | None = None) -> None:
        super().__init__(seed)
        self.time_budget = time_budget
        self.samples = samples
        self.node_limit = node_limit
        self.horizon = horizon
        self.heuristic = IntermediateBot(seed)
        self.last_info: dict = {}

    def reset(self) -> None:
        super().reset()
        self.heuristic.reset()
        self.last_info = {}

    def decide(self, view) -> Decision:
        d = _non_play(view)
        if d is not None:
            return d
        sp = special_action(view)
        if sp is not None:
            return Decision(Action(sp[0]), sp[1])
        sit = Situation(view)
        plays = [int(a) for a in view.legal if a < 52]
        if len(plays) == 1:
            c = plays[0]
            self.last_info = {"mode": "forced"}
            return Decision(Action(c), reason_for(sit, c, view.rules))
        horizon = self.horizon if self.horizon is not None else _search_horizon(view.rules)
        remaining = sum(view.hand_sizes) + view.talon_size
        if remaining <= horizon:
            got = self._search(sit, plays)
            if got is not None:
                return got
        c = self.heuristic.pick(sit)
        self.last_info = {"mode": "heuristic"}
        return Decision(Action(c), reason_for(sit, c, view.rules))

    # ---- search ----------------------------------------------------------------------------
    def _solver(self, rules, trump) -> Solver:
        key = (rules, trump)
        s = _SOLVERS.get(key)
        if s is None:
            if len(_SOLVERS) > 64:
                _SOLVERS.clear()
            s = _SOLVERS[key] = Solver(rules, trump)
        return s

    def _search(self, sit: Situation, plays: list[int]) -> Decision | None:
        t0 = time.perf_counter()
        deadline = t0 + self.time_budget
        view = sit.view
        solver = self._solver(view.rules, sit.trump)
        sampler = Sampler(sit, self.rng)
        if not sampler.consistent:
            return None
        side_of = sit.side_of
        maxside = [side_of[s] == sit.side for s in range(sit.n)]
        order = sit.order
        trick = sit.trick
        exact = sampler.single_world()
        k_max = 1 if exact else self.samples
        totals = {c: 0.0 for c in plays}
        done = 0
        for _ in range(k_max):
            world = sampler.sample()
            try:
                vals = solver.values(world.hands, world.talon, trick, order, maxside,
                                     moves=plays, node_limit=self.node_limit)
            except SearchAborted:
                break
            for c in plays:
                totals[c] += vals[c]
            done += 1
            if time.perf_counter() > deadline:
                break
        if done == 0:
            return None
        # Mean points for my side from here; the heuristic breaks ties.
        best, best_key = -1, None
        for c in plays:
            key = (round(totals[c] / done, 6), score_card(sit, c))
            if best_key is None or key > best_key:
                best, best_key = c, key
        mean = totals[best] / done
        self.last_info = {"mode": "exact" if exact else "sampled", "worlds": done,
                          "seconds": time.perf_counter() - t0, "value": mean}
        return Decision(Action(best), self._reason(sit, best, mean, exact))

    def _reason(self, sit: Situation, c: int, mean: float, exact: bool) -> str:
        base = reason_for(sit, c, sit.rules)
        left = sit.tables.total_points - sum(sit.view.side_points) - 0
        if exact:
            return f"{base}; perfect play from here takes {round(mean)} more points"
        return f"{base}; it scores best over the likely deals (about {round(mean)} more points)"


register_bot("expert", ExpertBot)
