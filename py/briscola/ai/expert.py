"""The expert: exact search where the cards are known, sampled worlds where they are not.

Decision by decision, from the view only:

* When every card's place is known (two players once the talon is empty, scoperta near the
  end, ...) the rest of the deal is solved exactly (:mod:`briscola.ai.solver`).
* Near the end, the unseen cards are dealt into worlds consistent with the view
  (:mod:`briscola.ai.sampler`); each world is solved exactly (the talon order becomes known
  in it) and the move with the best mean over the worlds is played. This "perfect
  information Monte Carlo" is known to err when it pretends to know future draws, so it is
  used only where few draws remain; ties go to the card-counting heuristic.
* Earlier, from the first trick, where a learned evaluation fits the rules
  (:mod:`briscola.ai.learn`: two-, four- and six-player Briscola, double Briskula, scoperta,
  Bisca and Bosnian Briskula for two), every card is tried in sampled
  worlds: the rest of the trick is played by minimax (partners for, opponents against), the
  draws are made, and the position at the start of the next trick is scored by the learned
  evaluation *from this seat's view* (its hand then, the cards it has not seen then), so the
  search never pretends to know the cards still hidden after that trick.
* Elsewhere with three players or more (three players, the other decks and house rules of
  team games), every candidate card is played out to the end by the card-counting
  heuristic in 128 sampled worlds (``rollout_worlds``, :mod:`.rollout`; the same worlds for
  every card, candidates clearly behind dropped as they go): the play-outs improve on the
  heuristic they play (three players +2.4 to +3.5 points a deal, docs/players.md).
* Elsewhere (two players without a network), the card-counting heuristic of
  :mod:`briscola.ai.heuristic` decides.

Two more ideas are built in but off by default, because they did not pay when measured in
duplicate deals against the intermediate player (300 deal pairs each): the heuristic's
play-outs before the horizon in two-player Briscola (noisy estimates, no gain or a loss;
measured before its network), and weighting the sampled worlds by how likely the other
players' last cards were in each (``inference``; the real deal does look likelier, but with
a soft model of the others the play did not improve measurably; a sharp model gains less
than a point, and only because it assumes the others play exactly like our heuristic). A
longer horizon (14 cards in two-player) did not pay either and costs twice the search.
With the learned search, a shorter one (10 cards) gained about +0.3 ± 0.45 points a deal
over 1,160 deal pairs, within the noise; 8 cards -0.74 ± 0.94. The learned search's worlds
weighed by the other player's last plays (``learned_inference=4``: four drawn for each
kept) gained +0.44 ± 1.94 and +0.75 ± 1.71 on 300 and 400 pairs. The two together, though,
gained +1.28 ± 1.67 and +1.81 ± 1.31 on 400 and 800 other pairs (about +1.6 ± 1.0 over the
1,200), so two-player Briscola with its network searches that way by default
(``_LEARNED_DEFAULTS``; the horizon at 10 cards, four worlds drawn a world kept).
Searching the next trick too before the learned evaluation (``learned_tricks=2``: in each
world both hands are known after the draws, so the next trick is played with the others'
cards in view) was clearly worse: -4.6 ± 2.5 points a deal against one trick, paired on the
same 300 deal pairs (32 worlds, about six times the time of 96 worlds at one trick).
Taking the other player's reply in the searched trick from the intermediate's scoring
(``learned_exploit``: 1 its card, 0.5 halfway between it and the worst reply) did not pay
against the intermediate either: -0.96 ± 1.77 and -0.62 ± 1.29 on the same pairs. Nor did
adding the heuristic's score of each card to its mean (``learned_prior=0.2``: -0.60 ± 1.92).

The search is anytime: worlds are solved until the sample count or the node budget of the
decision is reached; a node limit per world keeps any single solve short, and a time budget
is the safety net for slow machines. Node counts do not depend on the machine, so the bot is
reproducible from its seed unless the time budget is what stops it.
"""
from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING, Callable, TypeVar

from ..actions import Action
from .base import Bot, Decision, register_bot
from .common import Situation, resample
from .heuristic import IntermediateBot, reason_for, routine_decision, score_card
from .inference import Evidence
from .learn import Encoder, load as load_model, model_name
from .rollout import FastPolicy
from .sampler import Sampler
from .solver import SearchAborted, Solver

if TYPE_CHECKING:  # for the annotations only
    import random
    from ..rules import Rules
    from ..view import View
    from .learn import Model
    from .sampler import World


# The time budget counts this process's CPU time: on a busy machine (a benchmark sharing
# the cores) the bot then thinks as far as on an idle one. In the browser, the worker's
# wall clock is what the player waits for.
_clock = time.perf_counter if sys.platform == "emscripten" else time.process_time

_POLICIES: dict[tuple[Rules, int | None], FastPolicy] = {}  # (rules, trump) -> FastPolicy
T = TypeVar("T")
_SOLVERS: dict[tuple[Rules, int | None], Solver] = {}  # (rules, trump) -> Solver: its tables are shared, its search is not
_ENCODERS: dict[tuple[Rules, int | None], Encoder] = {}  # (rules, trump) -> Encoder


def _per_rules(cache: dict[tuple[Rules, int | None], T], make: Callable[[Rules, int | None], T],
               rules: Rules, trump: int | None) -> T:
    """``make(rules, trump)``, built once per rules value and trump suit and kept in
    ``cache`` (emptied when it passes 64 entries)."""
    key = (rules, trump)
    got = cache.get(key)
    if got is None:
        if len(cache) > 64:
            cache.clear()
        got = cache[key] = make(rules, trump)
    return got


def _search_horizon(rules: Rules) -> int:
    """Cards still to be played (hands plus talon) from which the search takes over.

    Chosen from measured tree sizes so that a world takes about a thousand nodes (a few
    thousand with four or more players) and two dozen worlds fit the node budget.
    """
    n = rules.players
    if rules.double:
        return 12
    return {2: 12, 3: 12, 4: 16, 5: 15, 6: 18}.get(n, 3 * n)


def _rollout_worlds(rules: Rules) -> int:
    """Worlds played out per decision before the horizon where no learned evaluation searches
    (0: the heuristic decides there). With three players or more, alone or in teams, the
    heuristic's play-outs improve on the heuristic itself; with two they did not pay
    (docs/players.md)."""
    return 128 if rules.players >= 3 else 0


# Where a shipped learned evaluation searches before the horizon, per model: the horizon
# (cards left), how many worlds are drawn per world kept by the others' last plays
# (``learned_inference``), the worlds a decision (``learned_worlds``, 96 if not said) and the
# evaluations a decision (``learned_leaves``, 2400 if not said).
# Measured together on two-player Briscola, then screened per variant (docs/players.md).
_LEARNED_DEFAULTS: dict[str | None, dict[str, int]] = {"classic": {"horizon": 10, "learned_inference": 4},
                     "bisca": {"horizon": 10, "learned_inference": 4},
                     "bosnian": {"horizon": 10, "learned_inference": 4},
                     # Six players: 3 ** 5 replies a card in each world; half the evaluations
                     # played as well (+18.59 against +18.56, 100 deal groups) in half the time.
                     "six": {"learned_leaves": 1200}}


class ExpertBot(Bot):
    """Exact endgame search plus sampled worlds near the end; heuristic before."""

    name = "expert"

    def __init__(self, seed: int | str | None = None, time_budget: float = 0.6, samples: int = 24,
                 node_limit: int = 20000, node_budget: int = 50000,
                 horizon: int | None = None, rollout_worlds: int | None = None,
                 prune_margin: float = 8.0, race_z: float = 2.0,
                 inference: int = 0, inference_temperature: float = 2.5,
                 inference_uniform: float = 0.15, inference_depth: int = 1,
                 learned: bool = True, learned_worlds: int | None = None,
                 learned_leaves: int | None = None, learned_inference: int | None = None,
                 learned_tricks: int = 1, learned_exploit: float = 0.0,
                 learned_prior: float = 0.0, learned_model: str | None = None) -> None:
        super().__init__(seed)
        # Which shipped weights to search with (None: the ones made for the variant).
        if learned_model is not None and load_model(learned_model) is None:
            raise ValueError(f"no shipped learned evaluation named {learned_model!r}")
        self.learned_model = learned_model
        # Weight of the heuristic's score of each card added to its searched mean.
        self.learned_prior = learned_prior
        # How far the others' replies in the searched trick follow the intermediate's scoring
        # (0: the reply worst for this seat, 1: the card that scoring picks in the world).
        self.learned_exploit = learned_exploit
        # Tricks searched by minimax in each world before the learned evaluation (1 or 2).
        self.learned_tricks = learned_tricks
        # Worlds drawn per world kept, by how likely the others' last plays were (0: off;
        # None: as measured for the variant's model, _LEARNED_DEFAULTS).
        self.learned_inference = learned_inference
        self.learned = learned  # the one-trick search with the learned evaluation
        # Most worlds per decision (None: as measured for the model, else 96).
        self.learned_worlds = learned_worlds
        # Evaluations per decision, then it stops (None: as set for the model, else 2400).
        self.learned_leaves = learned_leaves
        self.inference_depth = inference_depth
        self.inference_temperature = inference_temperature
        self.inference_uniform = inference_uniform
        self.inference = inference  # worlds drawn per world solved, resampled by weight
        # Most worlds played out per decision before the horizon where no learned evaluation
        # searches (None: as measured for the rules, _rollout_worlds; 0: the heuristic).
        self.rollout_worlds = rollout_worlds
        self.prune_margin = prune_margin  # candidates this far below the heuristic's best
        self.race_z = race_z  # a candidate this many standard errors behind is dropped
        self.time_budget = time_budget  # a safety net; the node budget is what normally stops
        self.samples = samples
        self.node_limit = node_limit  # per world
        self.node_budget = node_budget  # per decision, over all worlds
        self.horizon = horizon
        self.heuristic = IntermediateBot(seed)
        self.last_info: dict = {}

    def reset(self) -> None:
        super().reset()
        self.heuristic.reset()
        self.last_info = {}

    def decide(self, view: View) -> Decision:
        d = routine_decision(view)
        if d is not None:
            return d
        sit = Situation(view)
        plays = [int(a) for a in view.legal if a < 52]
        if len(plays) == 1:
            c = plays[0]
            self.last_info = {"mode": "forced"}
            return Decision(Action(c), reason_for(sit, c, view.rules))
        variant_model = model_name(view.rules) if self.learned else None
        defaults = _LEARNED_DEFAULTS.get(variant_model, {})
        horizon = self.horizon
        if horizon is None:
            horizon = defaults.get("horizon") or _search_horizon(view.rules)
        remaining = sum(view.hand_sizes) + view.talon_size
        if remaining <= horizon:
            got = self._search(sit, plays)
            if got is not None:
                return got
        if variant_model:
            name = self.learned_model or variant_model
            model = load_model(name)
            if model is not None:
                pool = self.learned_inference
                if pool is None:
                    pool = defaults.get("learned_inference", 0)
                got = self._learned(sit, plays, model, pool,
                                    self.learned_worlds or defaults.get("learned_worlds", 96),
                                    self.learned_leaves or defaults.get("learned_leaves", 2400))
                if got is not None:
                    return got
        rollout_worlds = self.rollout_worlds
        if rollout_worlds is None:
            rollout_worlds = _rollout_worlds(view.rules)
        if rollout_worlds > 0:
            got = self._rollouts(sit, plays, rollout_worlds)
            if got is not None:
                return got
        c = self.heuristic.pick(sit)
        self.last_info = {"mode": "heuristic"}
        return Decision(Action(c), reason_for(sit, c, view.rules))

    def _rollouts(self, sit: Situation, plays: list[int], worlds: int) -> Decision | None:
        """Each candidate played out by the heuristic in the same sampled worlds.

        Candidates the heuristic rates far below its favourite are not tried. Worlds are
        added in batches; a candidate whose paired difference to the leader is clearly
        negative is dropped (racing), and the search stops when one is left.
        """
        t0 = _clock()
        deadline = t0 + self.time_budget
        view = sit.view
        sampler = Sampler(sit, self.rng)
        if not sampler.consistent:
            return None
        scores = {c: score_card(sit, c) for c in plays}
        top = max(scores.values())
        alive = [c for c in plays if scores[c] >= top - self.prune_margin]
        if len(alive) == 1:
            c = alive[0]
            self.last_info = {"mode": "heuristic", "pruned": True}
            return Decision(Action(c), reason_for(sit, c, view.rules))
        policy = self._policy(view.rules, sit.trump)
        side_of = sit.side_of
        maxside = [side_of[s] == sit.side for s in range(sit.n)]
        results: dict[int, list[int]] = {c: [] for c in plays}
        done = 0
        batch = 8
        while done < worlds and len(alive) > 1:
            for _ in range(batch):
                w = sampler.sample()
                for c in alive:
                    results[c].append(policy.playout(w.hands[:], w.talon, sit.order,
                                                     sit.trick, c, maxside))
                done += 1
            if _clock() > deadline:
                break
            # Racing: drop candidates clearly behind the leader (paired over the same worlds).
            means = {c: sum(results[c][-done:]) / done for c in alive}
            lead = max(alive, key=lambda c: (means[c], scores[c]))
            keep = [lead]
            for c in alive:
                if c == lead:
                    continue
                d = [a - b for a, b in zip(results[lead][-done:], results[c][-done:])]
                mu = sum(d) / done
                var = sum((x - mu) ** 2 for x in d) / max(done - 1, 1)
                if mu <= self.race_z * (var / done) ** 0.5:
                    keep.append(c)
            alive = keep
        best, best_key = -1, None
        for c in alive:
            k = (sum(results[c][-done:]) / max(done, 1), scores[c])
            if best_key is None or k > best_key:
                best, best_key = c, k
        assert best_key is not None  # some card is alive
        self.last_info = {"mode": "rollouts", "worlds": done,
                          "seconds": _clock() - t0, "value": best_key[0]}
        return Decision(Action(best), reason_for(sit, best, view.rules))

    # ---- one trick ahead, the learned evaluation after it -----------------------------------
    def _learned(self, sit: Situation, plays: list[int], model: Model, pool: int,
                 worlds: int = 96, leaves: int = 2400) -> Decision | None:
        t0 = _clock()
        evidence = None
        if pool > 1:
            evidence = Evidence(sit, self._policy(sit.rules, sit.trump),
                                self.inference_temperature, self.inference_uniform,
                                self.inference_depth)
        got = learned_values(sit, plays, model, self.rng, worlds,
                             leaves, t0 + self.time_budget,
                             evidence=evidence, pool=pool,
                             tricks=self.learned_tricks,
                             policy=(self._policy(sit.rules, sit.trump)
                                     if self.learned_exploit else None),
                             lam=self.learned_exploit)
        if got is None:
            return None
        means, done, evals = got
        best, best_key = -1, None
        prior = self.learned_prior
        for c in plays:
            h = score_card(sit, c)
            key = (round(means[c] + prior * h, 6), h)
            if best_key is None or key > best_key:
                best, best_key = c, key
        self.last_info = {"mode": "learned", "worlds": done, "evaluations": evals,
                          "seconds": _clock() - t0, "value": round(means[best], 6)}
        return Decision(Action(best), reason_for(sit, best, sit.rules))

    # ---- search ----------------------------------------------------------------------------
    def _solver(self, rules: Rules, trump: int | None) -> Solver:
        return _per_rules(_SOLVERS, Solver, rules, trump)

    def _search(self, sit: Situation, plays: list[int]) -> Decision | None:
        t0 = _clock()
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
        worlds = None
        if not exact and self.inference > 1:
            worlds = self._weighted_worlds(sit, sampler, k_max)
        totals = {c: 0.0 for c in plays}
        done = 0
        nodes = 0
        for i in range(k_max):
            world = worlds[i] if worlds is not None else sampler.sample()
            try:
                vals = solver.values(world.hands, world.talon, trick, order, maxside,
                                     moves=plays, node_limit=self.node_limit)
            except SearchAborted:
                break
            finally:
                nodes += solver.nodes
            for c in plays:
                totals[c] += vals[c]
            done += 1
            if nodes > self.node_budget or _clock() > deadline:
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
        self.last_info = {"mode": "exact" if exact else "sampled", "worlds": done, "nodes": nodes,
                          "seconds": _clock() - t0, "value": mean}
        return Decision(Action(best), self._reason(sit, best, mean, exact))

    def _weighted_worlds(self, sit: Situation, sampler: Sampler, k: int) -> list[World] | None:
        """``k`` worlds resampled from ``inference * k`` by how likely the others' last plays
        were in each (systematic resampling keeps the draw low-variance)."""
        policy = self._policy(sit.rules, sit.trump)
        ev = Evidence(sit, policy, self.inference_temperature, self.inference_uniform,
                      self.inference_depth)
        if not ev.records:
            return None
        pool = [sampler.sample() for _ in range(self.inference * k)]
        return resample(pool, [ev.weight(w.hands) for w in pool], k, self.rng)

    def _policy(self, rules: Rules, trump: int | None) -> FastPolicy:
        return _per_rules(_POLICIES, FastPolicy, rules, trump)

    def _reason(self, sit: Situation, c: int, mean: float, exact: bool) -> dict:
        return reason_for(sit, c, sit.rules)


# The learned evaluation's sums kept for the sets of cards played since a decision, at most
# (each 64 floats, about 2 KB: a four-player decision meets about 700 sets, each at two leaves
# on average; a two-player one about 35, each at nine).
PLAYED_SUMS = 1024


def learned_values(sit: Situation, plays: list[int], model: Model, rng: random.Random,
                   worlds: int = 24, leaves: int = 600, deadline: float | None = None,
                   incremental: bool = True, evidence: Evidence | None = None, pool: int = 4,
                   tricks: int = 1, policy: FastPolicy | None = None, lam: float = 0.0
                  ) -> tuple[dict[int, float], int, int] | None:
    """Mean points for the seat's side from now, per card, over sampled worlds: in each, the
    rest of the trick by minimax (partners maximize, the others minimize), then the draws,
    then the learned evaluation of the next trick's start from this seat's view (what it
    will know then, no more). Stops after ``worlds`` worlds, once ``leaves`` positions have
    been evaluated, or past ``deadline`` (this process's clock). ``(means, worlds done,
    evaluations)``, or ``None`` if the view admits no world.

    With ``evidence`` (:class:`briscola.ai.inference.Evidence`), ``pool`` times as many
    worlds are drawn and ``worlds`` of them kept by how likely the others' last plays were in
    each (systematic resampling), so that the worlds follow what the play has shown.

    Every leaf shares most of its inputs with the decision's own position (the unseen cards
    differ only by the trick's cards and the draws), so with ``incremental`` the hidden
    layer's input from the position before the trick is summed once and each leaf adds and
    subtracts the few rows that differ (the same numbers as encoding every leaf afresh, up
    to rounding: a test compares the two)."""
    view = sit.view
    rules = view.rules
    t = rules.tables
    sampler = Sampler(sit, rng)
    if not sampler.consistent:
        return None
    enc = _encoder(rules, sit.trump)
    encode = enc.encode
    value = model.value
    pts = sit.pts
    beats = sit.beats
    side_of = sit.side_of
    me, my_side = sit.me, sit.side
    order = sit.order
    n_order = len(order)
    orders, rot, per_round = t.orders, t.rot, t.per_round
    hand0 = sit.hand_mask
    known0 = 0
    for m in sit.known:
        known0 |= m
    live0 = t.deck_mask & ~sit.played
    faceup = sit.faceup
    sp = view.side_points
    mine0 = sp[my_side] if 0 <= my_side < len(sp) else 0
    theirs0 = sum(sp) - mine0
    tn0 = sit.talon_size
    b0, bs0, tp0 = sit.best, sit.best_seat, sit.table_pts
    pos0 = sit.pos
    cache: dict = {}
    evals = [0]
    # The incremental evaluation's memos (value_at, below)
    after_played: dict[int, list[float]] = {}
    scalars: dict[tuple[float, float, int], list[float]] = {}
    second = tricks >= 2  # the next trick too, by minimax in the world
    if policy is None:
        lam = 0.0
    fu_hidden = (1 << faceup) if faceup >= 0 and tn0 else 0
    # Scoperta: every card another seat draws is seen, and the talon's next card lies face
    # up (encoded in the table's plane, empty at a trick's start).
    open_hands = rules.open_hands
    nxt0 = int(view.talon_next) if view.talon_next is not None else -1
    nxt0_mask = (1 << nxt0) if nxt0 >= 0 else 0
    # Partners see each other's hands once the talon is empty (six players, the last tricks).
    see_partners = (sit.partners if tn0 and rules.tables.teams is not None
                    and rules.partner_view != "never" else ())
    if incremental:
        from operator import add, sub
        from .learn import FACEUP, HAND, KNOWN, LEADER, SCALAR, TABLE, UNSEEN
        slot = enc.slot
        w1, w2, b2, scale = model.w1, model.w2, model.b2, model.scale
        s_mine, s_theirs, s_talon = w1[SCALAR], w1[SCALAR + 1], w1[SCALAR + 2]
        inv_total, inv_deck = 1.0 / enc.total, 1.0 / enc.deck_size
        n_seats = enc.n
        fu_row = w1[FACEUP + slot[faceup] % 10] if faceup >= 0 and tn0 else None
        unseen0 = live0 & ~hand0 & ~known0
        if faceup >= 0 and tn0:
            unseen0 &= ~(1 << faceup)
        unseen0 &= ~nxt0_mask
        from_sums = unseen0 | nxt0_mask  # a card that leaves one of these sums when drawn
        placed = ((HAND, hand0), (UNSEEN, unseen0), (KNOWN, known0), (TABLE, nxt0_mask))
        idx0 = []
        for base, m in placed:
            while m:
                low = m & -m
                idx0.append(base + slot[low.bit_length() - 1])
                m ^= low
        acc0 = model.hidden_base(idx0)
        # The row that leaves the sum when a card leaves its place (played or drawn by me).
        gone = {}
        for base, m in placed:
            while m:
                low = m & -m
                c = low.bit_length() - 1
                gone[c] = w1[base + slot[c]]
                m ^= low
        if faceup >= 0 and tn0:
            # The face-up card is in no sum: drawn by another seat and played, nothing leaves.
            gone[faceup] = [0.0] * len(acc0)

        def value_at(hand_new: int, known_new: int, tmask: int, bs: int, m: float, th: float,
                     tn: int, nxt: int) -> float:
            # The cards played since the decision leave the sums: the same sets of them at
            # many leaves, each taken out once per decision (up to PLAYED_SUMS sets kept).
            acc = after_played.get(tmask)
            if acc is None:
                acc = acc0
                x = tmask
                while x:
                    low = x & -x
                    acc = list(map(sub, acc, gone[low.bit_length() - 1]))
                    x ^= low
                if len(after_played) < PLAYED_SUMS:
                    after_played[tmask] = acc
            # Cards now in the hand, then cards now known elsewhere: each adds its input row
            # and, where the sums counted it among the cards gone, takes that row back out.
            for x, at in ((hand_new, HAND), (known_new, KNOWN)):
                while x:
                    low = x & -x
                    c = low.bit_length() - 1
                    acc = list(map(add, acc, w1[at + slot[c]]))
                    if from_sums & low:  # every card of from_sums has its row in gone
                        acc = list(map(sub, acc, gone[c]))
                    x ^= low
            if nxt >= 0:
                acc = list(map(add, acc, w1[TABLE + slot[nxt]]))
                if unseen0 >> nxt & 1:
                    acc = list(map(sub, acc, gone[nxt]))
            if tn:
                # A talon left at the leaf means one at the root, and its face-up card's row.
                acc = list(map(add, acc, fu_row))  # type: ignore[arg-type]
            acc = list(map(add, acc, w1[LEADER + (bs - me) % n_seats]))
            # The scalars' part of each hidden unit, the same for the few points and talon
            # sizes the leaves share: computed once per decision for each.
            scal = scalars.get((m, th, tn))
            if scal is None:
                x1, x2, x3 = m * inv_total, th * inv_total, tn * inv_deck
                scal = scalars[m, th, tn] = [x1 * r1 + x2 * r2 + x3 * r3
                                             for r1, r2, r3 in zip(s_mine, s_theirs, s_talon)]
            out = b2
            for h, sc, w in zip(acc, scal, w2):
                h += sc
                if h > 0.0:
                    out += h * w
            return out * scale

    def evaluate(drawn: int, shown: int, tmask: int, bs: int, m: float, th: float, tn: int,
                 nxt: int = -1) -> float:
        """The learned value of the next trick's start from my view: ``drawn``/``shown`` the
        cards I drew and the cards newly seen in another hand (the face-up card another seat
        drew; in scoperta every card drawn; partners' hands once the talon is empty), all
        still in hand, ``tmask`` every card played since the decision, ``m``/``th`` the
        points taken, ``nxt`` the talon's next card if it lies face up (scoperta)."""
        key = (drawn, shown, tmask, bs, m, nxt)
        v = cache.get(key)
        if v is None:
            if incremental:
                v = value_at(drawn, shown, tmask, bs, m, th, tn, nxt)
            else:
                hand = (hand0 | drawn) & ~tmask
                known = (known0 | shown) & ~tmask
                fu = faceup if tn else -1
                unseen = live0 & ~tmask & ~hand & ~known
                if fu >= 0:
                    unseen &= ~(1 << fu)
                table: tuple[tuple[int, int], ...] = ()
                if nxt >= 0:
                    unseen &= ~(1 << nxt)
                    table = ((-1, nxt),)
                flags, scal = encode(me, hand, unseen, known, fu, table, -1, bs, m, th, tn, 0)
                v = value(flags, scal)
            cache[key] = v
            evals[0] += 1
        return v

    def leaf(hands: list[int], talon: list[int], bs: int, tp: int, tmask: int) -> float:
        """Points for my side from the end of this trick on."""
        gained = tp if side_of[bs] == my_side else 0
        tn = tn0
        drawn = 0  # drawn by me
        shown = 0  # seen in another hand: the face-up card, drawn last by another seat
        nxt = -1
        pdrawn = 0  # drawn by a partner
        if tn:
            seq = orders[bs] if tn >= per_round else rot[bs][:tn]
            if second:
                hands = [h & ~tmask for h in hands]
            for s in seq:
                tn -= 1
                c = talon[tn]
                if s == me:
                    drawn |= 1 << c
                elif open_hands or (tn == 0 and c == faceup):
                    shown |= 1 << c
                elif see_partners and s in see_partners:
                    pdrawn |= 1 << c
                if second:
                    hands[s] |= 1 << c
            if see_partners and not tn:
                for p in see_partners:
                    shown |= hands[p] & ~tmask & ~known0
                shown |= pdrawn
            if open_hands and tn > 1:
                nxt = talon[tn - 1]
        if not (hand0 & ~tmask) | drawn:
            return gained
        if second:
            if not tn:
                hands = [h & ~tmask for h in hands]
            return gained + trick2(hands, talon, bs, tmask, gained, tp - gained, tn, drawn,
                                   shown)
        return gained + evaluate(drawn, shown, tmask, bs, mine0 + gained,
                                 theirs0 + tp - gained, tn, nxt)

    def trick2(hands: list[int], talon: list[int], lead: int, tmask0: int, g1: float, t1: float,
               tn1: int, drawn1: int, shown1: int) -> float:
        """The next trick by minimax in the world (every hand after the draws is known
        there), its draws, then the evaluation: my side's points from its start on."""
        seq = orders[lead]
        n_seq = len(seq)

        def go(pos: int, b: int, bs: int, tp: int, tmask: int) -> float:
            if pos == n_seq:
                gained = tp if side_of[bs] == my_side else 0
                tn = tn1
                drawn, shown = drawn1, shown1
                if tn:
                    for s in (orders[bs] if tn >= per_round else rot[bs][:tn]):
                        tn -= 1
                        c = talon[tn]
                        if s == me:
                            drawn |= 1 << c
                        elif tn == 0 and c == faceup:
                            shown = 1 << c
                drawn &= ~tmask
                shown &= ~tmask
                if not (hand0 & ~tmask) | drawn:
                    return gained
                return gained + evaluate(drawn, shown, tmask, bs, mine0 + g1 + gained,
                                         theirs0 + t1 + tp - gained, tn)
            seat = seq[pos]
            maxi = side_of[seat] == my_side
            best = None
            m = hands[seat] & ~tmask
            while m:
                low = m & -m
                x = low.bit_length() - 1
                m ^= low
                if b < 0 or beats[(b << 6) | x]:
                    v = go(pos + 1, x, seat, tp + pts[x], tmask | low)
                else:
                    v = go(pos + 1, b, bs, tp + pts[x], tmask | low)
                if best is None or (v > best if maxi else v < best):
                    best = v
            return 0 if best is None else best

        return go(0, -1, -1, 0, tmask0)

    def rest(hands: list[int], talon: list[int], pos: int, b: int, bs: int, tp: int,
             tmask: int) -> float:
        if pos == n_order:
            return leaf(hands, talon, bs, tp, tmask)
        seat = order[pos]
        h = hands[seat] & ~tmask  # double Briskula: a seat's first card of the trick is gone
        maxi = side_of[seat] == my_side
        best = None
        guess = -1
        if lam and not maxi and h & (h - 1):
            # The card the intermediate's scoring picks there, in this world.
            # ``lam`` is 0 without a policy (set so above).
            guess = policy.choose(  # type: ignore[union-attr]
                [x & ~tmask for x in hands], live0 & ~tmask, fu_hidden, order, pos, b, bs, tp,
                tn0)
        m = h
        while m:
            low = m & -m
            x = low.bit_length() - 1
            m ^= low
            if b < 0 or beats[(b << 6) | x]:
                v = rest(hands, talon, pos + 1, x, seat, tp + pts[x], tmask | low)
            else:
                v = rest(hands, talon, pos + 1, b, bs, tp + pts[x], tmask | low)
            if x == guess:
                vg = v
            if best is None or (v > best if maxi else v < best):
                best = v
        assert best is not None  # the seat to play holds a card: the loop ran
        if guess >= 0:
            return (1.0 - lam) * best + lam * vg
        return best

    totals = {c: 0.0 for c in plays}
    done = 0
    k_max = 1 if sampler.single_world() else worlds
    drawn = None
    if evidence is not None and k_max > 1 and evidence.records and pool > 1:
        cands = [sampler.sample() for _ in range(pool * k_max)]
        drawn = resample(cands, [evidence.weight(w.hands) for w in cands], k_max, rng)
    for i in range(k_max):
        w = drawn[i] if drawn is not None else sampler.sample()
        hands = w.hands
        for c in plays:
            low = 1 << c
            if b0 < 0 or beats[(b0 << 6) | c]:
                v = rest(hands, w.talon, pos0 + 1, c, me, tp0 + pts[c], low)
            else:
                v = rest(hands, w.talon, pos0 + 1, b0, bs0, tp0 + pts[c], low)
            totals[c] += v
        done += 1
        if evals[0] >= leaves or (deadline is not None and _clock() > deadline):
            break
    # The closures above refer to each other (trick2's go to itself): what they hold would
    # wait for the cycle collector, so the memos go now.
    cache.clear()
    after_played.clear()
    scalars.clear()
    return {c: totals[c] / done for c in plays}, done, evals[0]


def _encoder(rules: Rules, trump: int | None) -> Encoder:
    return _per_rules(_ENCODERS, Encoder, rules, trump)


register_bot("expert", ExpertBot)
