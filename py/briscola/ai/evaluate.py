"""How many card points each legal card is worth, judged from the deciding seat's view only.

For a decision of seat ``s`` the value of a card is the **expected card points that s's side
takes from this moment to the end of the deal** (the cards of the current trick included)
after playing it, with everyone playing on sensibly. The hidden cards are never read: the
view's unknown cards are dealt into worlds consistent with everything the view implies
(:mod:`briscola.ai.sampler`, the expert's own sampler; :class:`ChSampler` for Chiamata), and
every candidate card is scored in the *same* worlds, so the comparison between cards is far
less noisy than each value alone. How a world is scored is the expert's own search:

* **exact** -- every card's place is known (two players once the talon is empty, scoperta
  near the end, ...): the rest of the deal is solved exactly (:mod:`briscola.ai.solver`);
  the values are the true game-theoretic points;
* **search** -- from the expert's search horizon on (:func:`briscola.ai.expert._search_horizon`,
  or the expert's own for the rules: 10 cards left in two-player Briscola): each world is
  solved exactly and the values are the means over the worlds. Where the worlds consistent
  with the view are few (:attr:`Budget.every_world`: 3 or 4 with 7 or 8 cards left in
  two-player Briscola, 60 or 120 with 9 or 10) each of them is solved at most once, in an
  order seeded from the view that spreads the others' hands evenly, until the nodes reach
  :attr:`Budget.every_node_budget` (every one where they are cheap: the exact mean with no
  sampling noise; about half of the 120 with ten cards left); otherwise ``search_worlds``
  are drawn;
* **learned** -- earlier in the deal, where a learned evaluation fits the rules (two- and
  four-player Briscola, :mod:`briscola.ai.learn`): the expert's own one-trick search
  (:func:`briscola.ai.expert.learned_values`): in each world the rest of the trick by
  minimax, then the learned evaluation of the next trick from the seat's view, in as many
  worlds as the expert searches (``learned_worlds``); the worlds are weighed by how likely the others' last plays were in each, as the expert weighs them
  (:class:`briscola.ai.inference.Evidence`, four worlds drawn for each kept in two-player
  Briscola);
* **rollout** -- earlier in the deal elsewhere, where the expert itself plays by the
  card-counting heuristic: in each world the candidate is played and the rest of the deal is
  played out by every seat with that heuristic (:class:`briscola.ai.rollout.FastPolicy`,
  each seat seeing only its own hand); the values are the means over the worlds;
* Chiamata: the Chiamata expert's search (:class:`ChSolver`): exact over the last tricks,
  earlier a search of the current trick and the next completed by its fitted evaluation of
  the hands; the caller's side in each world follows the holder of the called card.

The work is counted in worlds and search nodes, never in seconds, so an evaluation is
reproducible; its random stream is seeded from the view itself (a hash of what the seat
sees), so the same view always gets the same values -- whatever the hidden cards are.

**Ties, loss and labels.** Before every card's place is known the values are accurate to
about a point (:data:`NOISE`: the worlds are a sample, and solving each as if its cards were
seen favours some plays a little); cards within that of the highest value are *tied*, and the
best card among them is the one a teacher would play, by the coach's principles
(:mod:`briscola.ai.teach`). With every card's place known the values are exact and only
equal values tie. The loss of a play is 0 for a tied card, else the best card's value minus
the played card's. Labels: ``best`` for the best card only, ``equal`` for another tied card
("as good as the best"), then by the loss in card points (a deal has 120; an ace is 11):

====================  ===============================
label                 loss (card points)
====================  ===============================
``best``              the best card
``equal``             a tied card (loss 0)
``good``              more than 0 to < 3
``inaccuracy``        3 to < 7
``mistake``           7 to < 14
``blunder``           14 or more
====================  ===============================

The accuracy of a set of decisions is the mean over them of ``100 * 0.5 ** (loss / 5)``:
100 for a play as good as the best, 50 for one that gives away 5 points, 25 for 10.

**Chiamata's auction and call** (:func:`evaluate_bidding`) are judged in *game points*, the
deal's score, not card points: each legal bid, pass or call is worth the expected game
points of the contract it commits the seat to, from the seat's hand only, as the Chiamata
players themselves weigh it (:mod:`briscola.ai.chiamata.bid`: the fitted estimate of the
card points the caller's side takes with the best call at that bid, its spread, the stake
and its multiplier) -- as if the auction ended with that bid; a pass is worth 0 (the
contract left to another). "A carichi" is not valued (no fitted estimate): a decision that
takes it is not reviewed. Labels by the loss in game points (a partner contract is won or
lost for 2, one against four for 4, times the multiplier):

====================  ===============================
label                 loss (game points)
====================  ===============================
``best``              < 0.05
``good``              0.05 to < 0.2
``inaccuracy``        0.2 to < 0.5
``mistake``           0.5 to < 1
``blunder``           1 or more
====================  ===============================

and their accuracy is ``100 * 0.5 ** (loss / 0.35)``.
"""
from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Sequence, TypeVar

from ..cards import CARDS, N_RANKS

if TYPE_CHECKING:  # for the annotations only
    from ..rules import Rules
    from ..view import View
    from .chiamata.bid import Option
    from .common import Situation

# Loss thresholds (card points) of the labels, see the module docstring.
LABELS = ("best", "equal", "good", "inaccuracy", "mistake", "blunder")
_BY_LOSS = ("best", "good", "inaccuracy", "mistake", "blunder")
THRESHOLDS = (0.5, 3.0, 7.0, 14.0)
# How far apart (card points) two values may be and still be told apart by the evaluation
# before every card's place is known (module docstring): the mean of a sample of worlds
# moves by about half a point from one sample to another, and the search's
# perfect-information bias is of the same size (a figure thrown onto a lost trick costs
# about a point where the evaluation calls it even).
NOISE = 1.0
# The same search favours a figure thrown onto a trick the others take by about a point (the
# sentence above): a card that gives fewer points to that trick is tied with a tied card that
# gives more when its value is within the noise once this is added to it (never with every
# card's place known: those values are exact).
GIVE_BIAS = 1.0
ACCURACY_HALF_LOSS = 5.0  # a play that loses this many points scores 50% accuracy


# The same for decisions valued in game points (Chiamata's auction and call).
GAME_THRESHOLDS = (0.05, 0.2, 0.5, 1.0)
GAME_HALF_LOSS = 0.35
CARD_POINTS, GAME_POINTS = "card_points", "game_points"


def label_for(loss: float, unit: str = CARD_POINTS) -> str:
    """The label of a loss alone (``best`` under the first threshold)."""
    limits = GAME_THRESHOLDS if unit == GAME_POINTS else THRESHOLDS
    for name, limit in zip(_BY_LOSS, limits):
        if loss < limit:
            return name
    return _BY_LOSS[-1]


def severity(loss: float, unit: str = CARD_POINTS) -> float:
    """A loss in half-accuracy steps: comparable between card points and game points."""
    return max(loss, 0.0) / (GAME_HALF_LOSS if unit == GAME_POINTS else ACCURACY_HALF_LOSS)


def accuracy_of(losses: list[float], units: list[str] | None = None) -> float:
    """Mean of ``100 * 0.5 ** (loss / 5)`` over the decisions (100 with none); a decision in
    game points (``units``) counts ``100 * 0.5 ** (loss / 0.35)``."""
    if not losses:
        return 100.0
    units = units or [CARD_POINTS] * len(losses)
    total: float = sum(100.0 * 0.5 ** severity(x, u) for x, u in zip(losses, units))
    return total / len(losses)


@dataclass(frozen=True)
class Budget:
    """How much search an evaluation may spend (counted in worlds and nodes, not seconds)."""

    rollout_worlds: int = 64  # worlds played out per candidate before the search horizon
    search_worlds: int = 24  # worlds solved exactly from the horizon on
    learned_worlds: int = 96  # worlds of the learned search (the expert's own count)
    every_world: int = 120  # from the horizon on, this many consistent worlds or fewer: all
    learned_pool: int | None = None  # worlds drawn per world kept by the others' last plays
    # (None: as the expert does for the rules; 0 or 1: no reading of the others' plays)
    node_limit: int = 20000  # nodes per world solved
    # nodes per decision, over all worlds (sampled worlds from the horizon on): 20 000 keeps
    # the slowest hint (four players, 16 cards left, seat to lead) near 200 ms of CPU in
    # CPython and within 500 ms in Pyodide (docs/coach-accuracy.md, "Cost")
    node_budget: int = 20000
    # Every consistent world solved (``every_world``): past this many nodes over the worlds
    # already solved (and at least ``search_worlds`` of them), the rest are left out. The
    # worlds are taken in an order shuffled from the view's seed, so those solved are a
    # sample drawn without replacement, equally weighed.
    every_node_budget: int = 20000
    learned_leaves: int = 2400  # positions the learned evaluation scores per decision
    ch_worlds: int = 24  # Chiamata: worlds searched per decision
    ch_node_budget: int = 16000  # Chiamata: nodes per decision
    ch_exact_tricks: int = 3  # Chiamata: tricks left from which a world is searched to the end


DEFAULT_BUDGET = Budget()


@dataclass
class Evaluation:
    """The values of one decision: card -> expected points for the seat's side from here."""

    seat: int
    values: dict[int, float]
    method: str  # "exact", "search", "learned", "rollout", "chiamata", "forced"
    worlds: int
    exact: bool
    # Per card: 1.0 if it would be the best card of the trick now, else 0.0.
    took: dict[int, float] = field(default_factory=dict)
    # Per card, the order among tied cards (lower first): the coach's principles for card
    # plays (:func:`briscola.ai.teach.keys`), the bid that promises least in the auction.
    tiebreak: dict[int, tuple] = field(default_factory=dict)
    unit: str = CARD_POINTS  # what the values count (game points for the auction and call)
    # Auction and call: per action, the contract it commits to (target, called card, alone,
    # the estimated card points of the caller's side); empty for card plays.
    contracts: dict[int, dict] = field(default_factory=dict)
    # Values this close to the highest are tied (0: only equal values, to 1e-6).
    noise: float = 0.0
    # Per card that follows a trick the others hold without taking it (and no partner to
    # play after): the points it gives that trick. Such a card is tied, by ``give_bias``
    # more, with a tied card that gives more (:data:`GIVE_BIAS`).
    given: dict[int, int] = field(default_factory=dict)
    give_bias: float = 0.0

    def tied(self, card: int) -> bool:
        """Is ``card`` within the evaluation's noise of the highest value (or within it once
        the search's bias against a card that gives fewer points to a lost trick is added)?"""
        values = self.values
        top = max(values.values()) - self.noise - 1e-6
        card = int(card)
        v = values[card]
        if v >= top:
            return True
        g = self.given.get(card)
        if g is None or not self.give_bias or v + self.give_bias < top:
            return False
        return any(g2 > g and values[c] >= top for c, g2 in self.given.items())

    @property
    def ranked(self) -> list[int]:
        """The cards, best first: the tied cards in the principles' order, then the others
        by value (equal values in the principles' order)."""
        tb = self.tiebreak
        tied = sorted((c for c in self.values if self.tied(c)), key=lambda c: (tb.get(c, ()), c))
        rest = sorted((c for c in self.values if not self.tied(c)),
                      key=lambda c: (-round(self.values[c], 6), tb.get(c, ()), c))
        return tied + rest

    @property
    def best(self) -> int:
        return self.ranked[0]

    def loss(self, card: int) -> float:
        """0 for a tied card, else the best card's value minus this card's."""
        if self.tied(card):
            return 0.0
        return max(0.0, round(self.values[self.best] - self.values[int(card)], 6))

    def label(self, card: int) -> str:
        """``best`` for the best card, ``equal`` for another tied card, else by the loss."""
        card = int(card)
        if card == self.best:
            return "best"
        if self.tied(card):
            return "equal"
        got = label_for(self.loss(card), self.unit)
        return "good" if got == "best" else got

    def to_list(self) -> list[dict]:
        from ..actions import action_text
        return [{"action": str(CARDS[c]) if c < 52 else action_text(c),
                 "value": round(self.values[c], 2)} for c in self.ranked]


def _view_seed(view: View) -> int:
    """A seed from what the seat sees (the same view gives the same seed, never the deal's)."""
    d = view.to_dict()
    d.pop("events", None)  # derived from the rest; long
    text = json.dumps(d, sort_keys=True, separators=(",", ":"))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


def card_plays(view: View) -> list[int]:
    return [int(a) for a in view.legal if a < 52]


def evaluate(view: View, budget: Budget = DEFAULT_BUDGET) -> Evaluation:
    """The value of every card ``view.seat`` may play now. Raises ``ValueError`` if none."""
    plays = card_plays(view)
    if view.phase != "play" or not plays:
        raise ValueError(f"seat {view.seat} has no card to play now")
    rng = random.Random(_view_seed(view))
    if view.rules.mode == "chiamata":
        ev = _evaluate_chiamata(view, plays, rng, budget)
    else:
        ev = _evaluate_classic(view, plays, rng, budget)
    return settle(view, ev)


def settle(view: View, ev: Evaluation) -> Evaluation:
    """How the values of ``ev`` (the cards ``view.seat`` may play) tie: the noise of an
    evaluation that is not exact, the search's bias against a card that gives fewer points
    to a lost trick, and the coach's principles among the tied cards."""
    from .teach import Facts, keys
    f = Facts(view)
    plays = list(ev.values)
    ev.tiebreak = keys(view, plays, f)
    ev.noise = 0.0 if ev.exact else NOISE
    ev.given, ev.give_bias = {}, 0.0
    if not ev.exact and not f.partner_after:
        ev.given = {c: f.given(c) for c in plays if f.lost(c)}
        ev.give_bias = GIVE_BIAS
    return ev


# ---- every variant but Chiamata ------------------------------------------------------------

_TABLES: dict = {}
_T = TypeVar("_T")
_W = TypeVar("_W")


def _cached(kind: object, rules: Rules, trump: int | None, make: Callable[[], _T]) -> _T:
    key = (kind, rules, trump)
    got = _TABLES.get(key)
    if got is None:
        if len(_TABLES) > 64:
            _TABLES.clear()
        got = _TABLES[key] = make()
    return got


def _evaluate_classic(view: View, plays: list[int], rng: random.Random, budget: Budget
                     ) -> Evaluation:
    from .common import Situation
    from .expert import _LEARNED_DEFAULTS, _search_horizon, learned_values
    from .inference import Evidence
    from .learn import load as load_model
    from .learn import model_name
    from .rollout import FastPolicy
    from .sampler import Sampler
    from .solver import SearchAborted, Solver

    sit = Situation(view)
    sampler = Sampler(sit, rng)
    if not sampler.consistent:  # pragma: no cover - a view always has a consistent world
        raise ValueError("the view admits no consistent deal")
    maxside = [sit.side_of[s] == sit.side for s in range(sit.n)]
    remaining = sum(view.hand_sizes) + view.talon_size
    trump = sit.trump
    rules = view.rules
    name = model_name(rules)
    # the expert's own horizon and reading of the others' plays for these rules
    defaults = _LEARNED_DEFAULTS.get(name, {}) if name else {}
    horizon = defaults.get("horizon") or _search_horizon(rules)
    if sampler.single_world() or remaining <= horizon:
        solver = _cached("solver", rules, trump, lambda: Solver(rules, trump))
        exact = sampler.single_world()
        # few worlds: every one of them, each once (the exact mean, no sampling noise)
        every = None if exact else sampler.every_world(budget.every_world)
        if every is not None:
            every = _spread(every, rng)  # a prefix cut by the node budget: a fair sample
        totals = {c: 0.0 for c in plays}
        done = nodes = 0
        k = 1 if exact else len(every) if every is not None else budget.search_worlds
        for i in range(k):
            w = every[i] if every is not None else sampler.sample()
            try:
                vals = solver.values(w.hands, w.talon, sit.trick, sit.order, maxside,
                                     moves=plays,
                                     node_limit=10**9 if exact else budget.node_limit)
            except SearchAborted:
                nodes += solver.nodes
                if done and every is None:
                    break
                continue
            nodes += solver.nodes
            for c in plays:
                totals[c] += vals[c]
            done += 1
            if every is None:
                if nodes >= budget.node_budget:
                    break
            elif nodes >= budget.every_node_budget and done >= budget.search_worlds:
                break
        if done:
            return Evaluation(view.seat, {c: totals[c] / done for c in plays},
                              "exact" if exact else "search", done, exact,
                              _took(sit, plays, maxside))
    model = load_model(name) if name else None
    if model is not None:
        pool = budget.learned_pool
        if pool is None:
            pool = defaults.get("learned_inference", 0)
        evidence = None
        if pool > 1:
            policy = _cached("policy", rules, trump, lambda: FastPolicy(rules, trump))
            evidence = Evidence(sit, policy)
        got = learned_values(sit, plays, model, rng, budget.learned_worlds,
                             budget.learned_leaves, evidence=evidence, pool=pool)
        if got is not None:
            means, done, _evals = got
            return Evaluation(view.seat, means, "learned", done, False,
                              _took(sit, plays, maxside))
    policy = _cached("policy", rules, trump, lambda: FastPolicy(rules, trump))
    totals = {c: 0.0 for c in plays}
    k = budget.rollout_worlds
    for _ in range(k):
        w = sampler.sample()
        for c in plays:
            totals[c] += policy.playout(w.hands[:], w.talon, sit.order, sit.trick, c, maxside)
    return Evaluation(view.seat, {c: totals[c] / k for c in plays}, "rollout", k, False,
                      _took(sit, plays, maxside))


def _spread(worlds: list[_W], rng: random.Random) -> list[_W]:
    """The worlds in an order any prefix of which is a fair, even sample: grouped by the
    hands (the worlds of a group differ only in the talon's order), the groups shuffled and
    each group shuffled, then one world of each group in turn. A prefix thus holds every
    deal of the hands about equally often, whatever the talon."""
    groups: dict[tuple, list[_W]] = {}
    for w in worlds:
        groups.setdefault(tuple(w.hands), []).append(w)  # type: ignore[attr-defined]
    rows = list(groups.values())
    rng.shuffle(rows)
    for row in rows:
        rng.shuffle(row)
    out: list[_W] = []
    for i in range(max(len(row) for row in rows)):
        out.extend(row[i] for row in rows if i < len(row))
    return out


def _took(sit: Situation, plays: list[int], maxside: Sequence[bool]) -> dict[int, float]:
    """Whether the card would be the best card of the trick now (1.0) or not (0.0)."""
    return {c: 1.0 if sit.would_win(c) else 0.0 for c in plays}


# ---- Chiamata ------------------------------------------------------------------------------

def _evaluate_chiamata(view: View, plays: list[int], rng: random.Random, budget: Budget
                      ) -> Evaluation:
    from .chiamata.common import ChState
    from .alphabeta import SearchAborted
    from .chiamata.expert import ChSampler, ChSolver, world_sides

    st = ChState(view)
    sampler = ChSampler(st, rng)
    if not sampler.consistent:  # pragma: no cover
        raise ValueError("the view admits no consistent deal")
    rules = view.rules
    solver = _cached(("chsolver", st.carichi), rules, st.trump,
                     lambda: ChSolver(rules, st.trump, st.carichi))
    captured = sum(p for _o, _c, _w, p in view.tricks)
    remaining = rules.tables.total_points - captured
    tricks_left = st.sizes[st.me]
    depth = None if tricks_left <= budget.ch_exact_tricks else 1
    single = len(sampler.pool) == 0 and sampler.called < 0
    caller = st.caller
    me = st.me
    totals = {c: 0.0 for c in plays}
    evals: dict = {}
    done = used = 0
    for _ in range(1 if single else budget.ch_worlds):
        hands = sampler.sample()
        _partner, maxside, evaluate_fn = world_sides(st, hands, caller, depth, evals)
        try:
            vals = solver.values(hands, st.trick_cards, st.order, maxside, plays,
                                 node_limit=max(budget.ch_node_budget - used, 1000),
                                 depth=depth, evaluate=evaluate_fn)
        except SearchAborted:
            if done:
                break
            used += solver.nodes
            continue
        used += solver.nodes + (4 * evaluate_fn.calls if evaluate_fn is not None else 0)
        if evaluate_fn is not None:
            evaluate_fn.calls = 0
        mine = maxside[me]
        for c in plays:
            totals[c] += vals[c] if mine else remaining - vals[c]
        done += 1
        if used >= budget.ch_node_budget:
            break
    if not done:  # pragma: no cover - the first world always gets its nodes
        raise ValueError("the search found no value")
    exact = single and depth is None
    took = {c: 1.0 if st.would_win(c) else 0.0 for c in plays}
    return Evaluation(view.seat, {c: totals[c] / done for c in plays},
                      "exact" if exact else "chiamata", done, exact, took)


# ---- Chiamata: the auction and the call ------------------------------------------------------

def bidding_actions(view: View) -> list[int]:
    """The auction or call actions :func:`evaluate_bidding` values now (``[]`` outside them):
    a pass, every rank bid, the lowest promise of points, every call (never "a carichi")."""
    from ..actions import BID_POINTS, CARICHI
    if view.rules.mode != "chiamata" or view.phase not in ("auction", "call"):
        return []
    legal = sorted(int(a) for a in view.legal if int(a) != CARICHI)
    points = [a for a in legal if BID_POINTS <= a <= BID_POINTS + 120]
    return [a for a in legal if a not in points or a == points[0]]


def evaluate_bidding(view: View, chosen: int | None = None) -> Evaluation:
    """The expected game points of each auction or call action for ``view.seat`` (module
    docstring), ``chosen`` valued too if the list leaves it out (a higher promise).
    Raises ``ValueError`` outside the auction and the call, or for "a carichi"."""
    from ..actions import BID_POINTS, BID_RANK, CALL_CARD, CALL_SUIT, CARICHI, PASS, Action
    from ..cards import RANK_INDEX
    from .chiamata import bid as B
    acts = bidding_actions(view)
    if not acts:
        raise ValueError(f"seat {view.seat} has no bid or call to make now")
    if chosen is not None:
        chosen = int(chosen)
        if chosen == CARICHI or chosen not in {int(a) for a in view.legal}:
            raise ValueError(f"action {chosen} is not valued (a carichi, or not legal now)")
        if chosen not in acts:
            acts.append(chosen)
    rules = view.rules
    hand = [int(c) for c in view.hand]
    held = set(hand)
    order = rules.tables.order
    policy = B.BidPolicy()
    values: dict[int, float] = {}
    contracts: dict[int, dict] = {}

    def put(a: int, opt: Option, target: int) -> None:
        values[a] = opt.ev
        contracts[a] = {"target": target, "card": opt.card, "trump": opt.trump,
                        "alone": opt.alone, "est": opt.est}

    if view.phase == "auction":
        for a in acts:
            if a == PASS:
                values[a] = 0.0
                contracts[a] = {}
            elif BID_RANK <= a < BID_RANK + N_RANKS:
                rank = CARDS[a - BID_RANK].rank
                put(a, policy.best(B.rank_options(hand, rank, rules, 60)), 60)
            elif BID_POINTS <= a <= BID_POINTS + 120:
                n = a - BID_POINTS
                if rules.auction == "points":
                    opt = policy.best(B.card_options(hand, rules, n))
                else:
                    opt = policy.best(B.rank_options(hand, order[-1], rules, n))
                put(a, opt, n)
        method = "auction"
    else:
        ch = view.chiamata or {}
        high = int(Action.parse(ch["high"]["bid"]))
        if high >= BID_POINTS:
            target = high - BID_POINTS
        else:
            target = 60
        for a in acts:
            if CALL_SUIT <= a < CALL_SUIT + 4:
                s = a - CALL_SUIT
                rank = order[-1] if high >= BID_POINTS else CARDS[high - BID_RANK].rank
                card = RANK_INDEX[rank] + s * N_RANKS
            elif CALL_CARD <= a < CALL_CARD + 52:
                card = a - CALL_CARD
                s = card // N_RANKS
            else:
                continue
            alone = card in held
            est = B.estimate(hand, s, card, rules, alone)
            put(a, B.Option(a, s, card, alone, est,
                            B.expected_score(rules, est, target, alone)), target)
        method = "call"
    # Equal values: a pass first (it risks nothing), then the bid that promises least (the
    # higher rank, the fewer points), then the action's number.
    def promise(a: int) -> int:
        if BID_RANK <= a < BID_RANK + N_RANKS:
            return order.index(CARDS[a - BID_RANK].rank)
        return a - BID_POINTS + 100 if BID_POINTS <= a <= BID_POINTS + 120 else 0

    tiebreak = {a: (a != PASS, promise(a), a) for a in values}
    return Evaluation(view.seat, values, method, 0, True, {}, tiebreak, GAME_POINTS, contracts)
