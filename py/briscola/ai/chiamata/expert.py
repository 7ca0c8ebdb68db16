"""The expert's search for Briscola Chiamata: sampled deals, each searched exactly.

**Worlds.** :class:`ChSampler` deals the cards a seat cannot see into the other four hands,
keeping every hand size and everything the view implies: the called card goes to a seat
drawn from the belief about the partner (never the viewer unless he holds it; the caller
only as a self-call), a forced call leaves the 2 of trump and the ranks below the called
card with the caller, and in "a carichi" a seat that did not follow a suit gets none of it.
With voids the cards are placed one by one, each time only where the rest can still be
placed (Hall's condition over the sets of suits), so no sample is ever rejected.

**Search.** :class:`ChSolver` is alpha-beta on the points the caller's side takes from the
current position, with perfect information (the world is known): the caller's side
maximizes, the other side minimizes. Cards of one hand that are next to each other in a suit
with the same points are interchangeable and searched once; the positions at the start of a
trick are kept in a transposition table; "a carichi" obliges following suit. Deeper in the
deal than a few tricks from the end, the search stops after ``depth`` tricks and an
evaluation of the hands guesses the rest: a learned network
(:class:`~briscola.ai.learn.chiamata.ChNetEvaluator`), or the fitted linear
:class:`Evaluator` (the coach's evaluation, and the expert without the network). There the
seats after the expert in the current trick reply as the fitted model of the players'
choices says (:func:`~briscola.ai.chiamata.choice.reply_values`), not as if they saw the
world.

**Decision.** :class:`ExpertChiamataBot` solves as many worlds as its time budget allows,
turns each world's points into the game points of its own seat (the target, the multiplier,
playing alone, cappotto) and plays the card with the best mean; the card-counting heuristic
breaks ties and decides when the search has too little time.
"""
from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING, Literal, Sequence

from ...actions import Action
from ...cards import N_RANKS
from ...chiamata import game_points
from ..alphabeta import SearchAborted, make_distinct, stronger_in_suit, trick_so_far
from ..base import Decision, register_chiamata_bot
from ..common import deal, resample
from ..learn.chiamata import ChNetEvaluator, load_model
from .bid import BidPolicy
from .bots import IntermediateChiamataBot
from .choice import CHOICE_WEIGHTS, PlayEvidence, reply_values
from .common import SUIT_MASKS, ChState, bits, popcount
from .play import reason, scores

if TYPE_CHECKING:  # for the annotations only
    from ...rules import Rules
    from ..learn import Model


# ---- worlds -----------------------------------------------------------------------------------

class ChSampler:
    """Draws full deals (a card mask per seat) consistent with a :class:`ChState`."""

    def __init__(self, st: ChState, rng: random.Random) -> None:
        self.st = st
        self.rng = rng
        n = st.n
        me = st.me
        unseen = st.unseen_mask
        base = [0] * n
        base[me] = st.hand_mask
        for s in range(n):
            if s != me:
                base[s] |= st.fixed[s] & unseen
        placed = 0
        for s in range(n):
            if s != me:
                placed |= base[s]
        self.called = -1
        self.called_weights: list[float] = []
        c = st.called
        if c >= 0 and unseen >> c & 1 and not placed >> c & 1:
            holder = st.partner
            if holder is not None and holder != me:
                base[holder] |= 1 << c
                placed |= 1 << c
            else:
                self.called = c
                self.called_weights = [st.belief[s] if s != me else 0.0 for s in range(n)]
        self.base = base
        self.cap = [0 if s == me else st.sizes[s] - popcount(base[s]) for s in range(n)]
        pool_mask = unseen & ~placed
        if self.called >= 0:
            pool_mask &= ~(1 << self.called)
        self.pool = bits(pool_mask)
        self.voids = list(st.voids)
        self.has_voids = any(self.voids[s] for s in range(n) if s != me)
        need = sum(self.cap) - (1 if self.called >= 0 else 0)
        self.consistent = need == len(self.pool) and min(self.cap) >= 0
        if self.called >= 0 and sum(self.called_weights) <= 0:
            self.consistent = False

    def sample(self) -> list[int]:
        rng = self.rng
        hands = self.base[:]
        cap = self.cap[:]
        if self.called >= 0:
            w = [self.called_weights[s] if cap[s] > 0 and not self.voids[s] >> (
                self.called // N_RANKS) & 1 else 0.0 for s in range(len(cap))]
            x = rng.random() * sum(w)
            seat = 0
            for seat, ws in enumerate(w):
                if ws <= 0:
                    continue
                x -= ws
                if x <= 0:
                    break
            while w[seat] <= 0:  # rounding at the very end of the line
                seat -= 1
            hands[seat] |= 1 << self.called
            cap[seat] -= 1
        pool = self.pool[:]
        rng.shuffle(pool)
        if not self.has_voids:
            deal(hands, cap, pool)
            return hands
        return self._with_voids(hands, cap, pool)

    def _with_voids(self, hands: list[int], cap: list[int], pool: list[int]) -> list[int]:
        rng = self.rng
        n = len(cap)
        voids = self.voids
        left = [0, 0, 0, 0]
        for c in pool:
            left[c // N_RANKS] += 1
        seats = [s for s in range(n) if cap[s] > 0]
        for c in pool:
            su = c // N_RANKS
            left[su] -= 1
            options = [s for s in seats if cap[s] > 0 and not voids[s] >> su & 1]
            rng.shuffle(options)
            options.sort(key=lambda s: -cap[s] * rng.random())
            for s in options:
                cap[s] -= 1
                if _feasible(left, cap, voids):
                    hands[s] |= 1 << c
                    break
                cap[s] += 1
            else:  # pragma: no cover - the view's constraints always leave a way
                raise RuntimeError("no consistent world")
        return hands


def _feasible(left: list[int], cap: list[int], voids: list[int]) -> bool:
    """Can the remaining cards (``left`` per suit) fill the seats (``cap``) given the voids?"""
    for subset in range(1, 16):
        demand = 0
        for su in range(4):
            if subset >> su & 1:
                demand += left[su]
        if not demand:
            continue
        supply = 0
        for s, k in enumerate(cap):
            if k > 0 and (~voids[s]) & subset:
                supply += k
        if demand > supply:
            return False
    return sum(left) == sum(k for k in cap if k > 0)


# ---- perfect-information search ------------------------------------------------------------------

class ChSolver:
    """Alpha-beta on the caller's side's points for one rules value, trump and follow rule."""

    def __init__(self, rules: Rules, trump: int | None, follow: bool) -> None:
        t = rules.tables
        self.rules = rules
        self.pts = t.points
        self.strength = t.strength
        self.beats = t.beats(trump)
        self.rot = t.rot
        self.trump = trump
        self.follow = follow
        self.up, self.above = stronger_in_suit(t)
        self.nodes = 0

    def values(self, hands: list[int], trick: list[int], order: Sequence[int],
               maxside: Sequence[bool], moves: Sequence[int], node_limit: int = 10**9,
               depth: int | None = None, evaluate: Evaluator | ChNetEvaluator | None = None
              ) -> dict:
        """Points the maximizing side takes from now on, after each of ``moves``.

        ``hands``: mask per seat; ``trick``: the cards already played, by ``order[0..]``;
        ``maxside[s]``: seat ``s`` maximizes. ``depth``: stop after that many tricks are
        complete and add ``evaluate(hands, leader)``.
        """
        hands = list(hands)
        pts = self.pts
        beats = self.beats
        rot = self.rot
        follow = self.follow
        tt: dict[tuple[tuple[int, ...], int], tuple[int, int]] = {}
        count = [0]
        limit = node_limit
        big = 10**6

        dcache: dict = {}
        one_per_run = make_distinct(pts, self.up, self.above)

        def distinct(h: int, live: int) -> list[int]:
            """:func:`~briscola.ai.alphabeta.make_distinct`, remembered per (hand, live)."""
            key = (h, live)
            got = dcache.get(key)
            if got is None:
                got = dcache[key] = one_per_run(h, live)
            return got

        def trick_start(leader: int, done: int, alpha: int, beta: int) -> int:
            h0 = hands[leader]
            if not h0:
                return 0
            order = rot[leader]
            if not h0 & (h0 - 1):
                # The last trick: one card each.
                b = h0.bit_length() - 1
                bs = leader
                tp = pts[b]
                for s in order[1:]:
                    c = hands[s].bit_length() - 1
                    tp += pts[c]
                    if beats[(b << 6) | c]:
                        b, bs = c, s
                return tp if maxside[bs] else 0
            if depth is not None and done >= depth:
                # A search cut at a depth is given its evaluator (world_sides).
                return evaluate(hands, leader)  # type: ignore[misc]
            key = (tuple(hands), leader)
            hit = tt.get(key)
            if hit is not None:
                lo, hi = hit
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
            a0, b0 = alpha, beta
            live = 0
            for x in hands:
                live |= x
            v = play(order, 0, -1, -1, 0, done, alpha, beta, 0, live)
            lo, hi = hit if hit is not None else (-1, big)
            if v <= a0:
                hi = min(hi, v)
            elif v >= b0:
                lo = max(lo, v)
            else:
                lo = hi = v
            tt[key] = (lo, hi)
            return v

        def play(order: Sequence[int], pos: int, b: int, bs: int, tp: int, done: int, alpha: int,
                 beta: int, ls: int, live: int) -> int:
            count[0] += 1
            if count[0] > limit:
                raise SearchAborted
            seat = order[pos]
            h = hands[seat]
            ismax = maxside[seat]
            hp = h
            if follow and b >= 0:
                same = h & SUIT_MASKS[ls]
                if same:
                    hp = same
            cand: Sequence[int]
            if hp & (hp - 1):
                cand = distinct(hp, live)
                if len(cand) > 1:
                    if b < 0:
                        cand = sorted(cand, key=pts.__getitem__, reverse=True)
                    else:
                        friend = ismax == maxside[bs]
                        win = []
                        lose = []
                        for c in cand:
                            if beats[(b << 6) | c]:
                                win.append(c)
                            else:
                                lose.append(c)
                        if friend:
                            # Load points on a friend's trick first.
                            lose.sort(key=pts.__getitem__, reverse=True)
                            win.sort(key=pts.__getitem__, reverse=True)
                            cand = lose + win
                        else:
                            win.sort(key=pts.__getitem__, reverse=True)
                            lose.sort(key=pts.__getitem__)
                            cand = win + lose
            else:
                cand = (hp.bit_length() - 1,)
            last = pos == 4
            best = -1 if ismax else big
            for c in cand:
                hands[seat] = h ^ (1 << c)
                if b < 0:
                    ls = c // N_RANKS
                    nb, nbs = c, seat
                elif beats[(b << 6) | c]:
                    nb, nbs = c, seat
                else:
                    nb, nbs = b, bs
                np_ = tp + pts[c]
                if not last:
                    v = play(order, pos + 1, nb, nbs, np_, done, alpha, beta, ls, live)
                else:
                    v = np_ if maxside[nbs] else 0
                    v += trick_start(nbs, done + 1, alpha - v, beta - v)
                hands[seat] = h
                if ismax:
                    if v > best:
                        best = v
                        if v > alpha:
                            alpha = v
                            if alpha >= beta:
                                break
                else:
                    if v < best:
                        best = v
                        if v < beta:
                            beta = v
                            if alpha >= beta:
                                break
            return best

        pos = len(trick)
        seat = order[pos]
        b, bs, tp = trick_so_far(trick, order, pts, beats)
        ls = trick[0] // N_RANKS if trick else 0
        live = 0
        for x in hands:
            live |= x
        for c in trick:
            live |= 1 << c
        h = hands[seat]
        out: dict[int, int] = {}
        last = pos == len(hands) - 1
        for c in moves:
            hands[seat] = h ^ (1 << c)
            if b < 0:
                ls = c // N_RANKS
            if b < 0 or beats[(b << 6) | c]:
                nb, nbs = c, seat
            else:
                nb, nbs = b, bs
            np_ = tp + pts[c]
            if not last:
                v = play(order, pos + 1, nb, nbs, np_, 0, -1, big, ls, live)
            else:
                v = np_ if maxside[nbs] else 0
                v += trick_start(nbs, 1, -1 - v, big - v)
            hands[seat] = h
            out[c] = v
        self.nodes = count[0]
        return out


# ---- the expert -------------------------------------------------------------------------------------

def partner_in_world(st: ChState, hands: list[int], caller: int | None) -> int | None:
    """The caller's partner in one sampled world: the caller alone a carichi (or before any
    call), whoever holds the called card in ``hands`` while it is unplayed, else the known
    partner (the caller, on a self-call)."""
    if st.carichi or caller is None:
        return caller
    if st.called >= 0 and not st.played >> st.called & 1:
        return next(s for s in range(st.n) if hands[s] >> st.called & 1)
    return st.partner if st.partner is not None else caller


def world_sides(st: ChState, hands: list[int], caller: int | None, depth: int | None,
                evals: dict, model: Model | None = None
                ) -> tuple[int | None, list[bool], Evaluator | ChNetEvaluator | None]:
    """One sampled world's partner, its sides (``maxside[s]``: seat ``s`` is on the caller's
    side) and, for a search cut at ``depth``, the evaluator of those sides (one a partner,
    kept in ``evals``; ``None`` for an exact search): the fitted :class:`Evaluator`, or with
    ``model`` the learned network (:class:`~briscola.ai.learn.chiamata.ChNetEvaluator`,
    already told this world's hands). The expert's search and the coach's evaluation both
    walk their sampled worlds with it."""
    partner = partner_in_world(st, hands, caller)
    maxside = [s == caller or s == partner for s in range(st.n)]
    evaluate = None
    if depth is not None:
        evaluate = evals.get(partner)
        if evaluate is None:
            if model is not None:
                evaluate = ChNetEvaluator(model, st.rules, st.trump, maxside)
            else:
                evaluate = Evaluator(st.rules, st.trump, maxside)
            evals[partner] = evaluate
        if model is not None:
            assert isinstance(evaluate, ChNetEvaluator)  # made with the model above
            evaluate.start(hands)
    return partner, maxside, evaluate


def game_points_for(st: ChState, caller_side_pts: float, partner: int | None) -> float:
    """My game points if the caller's side ends with ``caller_side_pts`` (partner given)."""
    total = st.t.total_points
    made = caller_side_pts >= st.target
    alone = st.carichi or partner == st.caller
    cappotto = caller_side_pts == total or (st.rules.edition < 2 and caller_side_pts == 0)
    caller, partner_gp, opp = game_points(st.rules, st.target, alone, made, cappotto)
    if st.me == st.caller:
        return caller
    return partner_gp if st.me == partner else opp


_SQRT2 = math.sqrt(2.0)


def soft_game_points(st: ChState, caller_side_pts: float, partner: int | None, sigma: float,
                     stakes: dict | None = None) -> float:
    """My expected game points if the caller's side ends with ``caller_side_pts`` give or
    take a normal spread of ``sigma``: the game points of a made contract and of a failed
    one, weighed by the chance of reaching the target (a cappotto is not counted).
    ``stakes``: a dict that keeps the two game points of each partner between calls."""
    pair = stakes.get(partner) if stakes is not None else None
    if pair is None:
        target = st.target
        pair = (game_points_for(st, max(target, 1), partner),
                game_points_for(st, target - 1, partner))
        if stakes is not None:
            stakes[partner] = pair
    z = (caller_side_pts - (st.target - 0.5)) / (sigma * _SQRT2)
    p = 0.5 * (1.0 + math.erf(z))
    return p * pair[0] + (1.0 - p) * pair[1]


# Fitted by ``bench/chiamata.py fit-eval``: the caller's side's points still to come, from
# the hands at the start of a trick (see ``eval_features``).
EVAL_COEF = (0.444, 0.717, 0.062, -0.078, 2.175, 0.0)


_W = tuple(1.0 / (1.0 + 0.4 * i) for i in range(16))
_PTS13: dict = {}


def _pts13(rules: Rules) -> list[int]:
    """Points of every set of ranks of one suit (a 13-bit mask), for one rules value."""
    got = _PTS13.get(rules)
    if got is None:
        pts = rules.tables.points
        got = [0] * 8192
        for m in range(1, 8192):
            low = m & -m
            got[m] = got[m ^ low] + pts[low.bit_length() - 1]
        _PTS13[rules] = got
    return got


class Evaluator:
    """A quick guess at the maximizing side's points from the start of a trick to the end.

    Linear in a few counts that decide Briscola tricks: the points still out, who holds the
    strongest trumps (each trump weighted by its place among those left), the points each
    side holds, who leads, the trumps each side holds, and how many seats each side has.
    """

    def __init__(self, rules: Rules, trump: int | None, maxside: Sequence[bool],
                 coef: Sequence[float] | None = None) -> None:
        t = rules.tables
        self.p13 = _pts13(rules)
        self.maxside = maxside
        self.coef = coef or EVAL_COEF
        strength = t.strength
        self.trumps = [] if trump is None else sorted(
            (c for c in t.deck_ints if c // N_RANKS == trump), key=lambda c: -strength[c])
        self.tmask = 0
        for c in self.trumps:
            self.tmask |= 1 << c
        self.n_max = sum(1 for m in maxside if m)
        self.calls = 0

    def features(self, hands: list[int], leader: int) -> list[float]:
        maxside = self.maxside
        hmax = hmin = 0
        for s, h in enumerate(hands):
            if maxside[s]:
                hmax |= h
            else:
                hmin |= h
        p13 = self.p13
        pmax = p13[hmax & 8191] + p13[hmax >> 13 & 8191] + p13[hmax >> 26 & 8191] + p13[hmax >> 39]
        pmin = p13[hmin & 8191] + p13[hmin >> 13 & 8191] + p13[hmin >> 26 & 8191] + p13[hmin >> 39]
        r = pmax + pmin
        tmax = hmax & self.tmask
        tmin = hmin & self.tmask
        wsum = wmax = 0.0
        i = 0
        for c in self.trumps:
            bit = 1 << c
            if tmax & bit:
                w = _W[i]
                wsum += w
                wmax += w
                i += 1
            elif tmin & bit:
                wsum += _W[i]
                i += 1
        ctrl = wmax / wsum if wsum else 0.5
        h = hands[leader]
        tricks = bin(h).count("1") or 1
        return [r, (ctrl - 0.5) * r, pmax - pmin,
                (1.0 if maxside[leader] else -1.0) * r / tricks,
                bin(tmax).count("1") - bin(tmin).count("1"), (self.n_max - 2.5) * r / 5.0]

    def __call__(self, hands: list[int], leader: int) -> int:
        self.calls += 1
        f = self.features(hands, leader)
        c = self.coef
        v = c[0] * f[0] + c[1] * f[1] + c[2] * f[2] + c[3] * f[3] + c[4] * f[4] + c[5] * f[5]
        r = f[0]
        return int(v + 0.5) if 0.0 <= v <= r else (0 if v < 0 else int(r))


# Card points a tricks left that the secret partner counts against playing the called card
# before the endgame (screened 0, 2, 4 against the intermediate on the same deals).
EXPERT_HIDE = 2.0

# The search's leaves evaluated by the learned network (``briscola.ai.learn.chiamata``)
# instead of the fitted linear :class:`Evaluator`: screened paired against it on 1,200 deals
# of both auctions, +0.044 ± 0.029 game points a deal (docs/players.md).
EXPERT_LEARNED = True

# Card points the expert's own play adds to the bid model's estimate (with a partner):
# screened 0, 4, 5, 7, 10 against the intermediate on the same deals (bench/chiamata.py);
# 4 until the others' replies came from the model (``EXPERT_REPLIES``), which made more of
# its contracts: then 5 (docs/players.md).
EXPERT_BID_BONUS = 5.0

# After the 2, a raise straight to 71 or 81 when the doubled or tripled stake is worth more
# than the lowest raise; the worlds weighed by the others' plays (``EXPERT_INFERENCE``
# worlds drawn for each one searched). Screened together against the expert without them
# on 700 deals by rank and 300 in the points auction (docs/players.md). A lower bar to
# bid while another seat holds the high bid (``BidPolicy.contest_min``) scored more game
# points with them but fewer contracts made, under the 75 % the expert keeps: not kept.
# Eight worlds drawn for each one searched instead of four: +0.020 ± 0.030 game points a
# deal over 900 deals by rank, +0.017 ± 0.050 over 300 in the points auction, for a third
# more thinking at the median (docs/research-log.md); not kept.
EXPERT_JUMP = True
EXPERT_INFERENCE = 4

# Before the endgame, a world's evaluated points count as a chance of making the target,
# spread by this many card points times the square root of the points still out (the
# network's error on unseen deals: 11.3 points at the second trick with about 100 out, 5.3
# at the sixth with about 40), instead of a sure result; 0: a sure result. Screened with
# a spread of 1.0 on 600 deals by rank: no gain that shows, alone (+0.023 ± 0.027) or with
# eight worlds drawn for each one searched (docs/research-log.md); not kept.
EXPERT_SOFT = 0.0

# Before the endgame, the seats after the expert in the current trick play as the model of
# the players' choices says (:func:`~briscola.ai.chiamata.choice.reply_values`) instead of
# as if they saw the sampled world (docs/players.md: +0.095 game points a deal by rank
# over 900 deals, none that shows in the points auction).
EXPERT_REPLIES = True


class ExpertChiamataBot(IntermediateChiamataBot):
    """Bids from the intermediate's estimate of the hand plus ``EXPERT_BID_BONUS`` card
    points (the estimate was fitted on deals the intermediate played out; the expert's
    search takes more as caller: measured 81 % of contracts made against the
    intermediate's 59 % on the same hands), so it bids and calls where the intermediate
    would pass, and raises after the 2 straight to a multiplied stake when that is worth
    more (``EXPERT_JUMP``); plays by searching sampled worlds (see the module doc).

    The work per decision is counted in search nodes (``node_budget``), not in seconds, so
    the expert is reproducible from its seed on any machine; ``time_limit`` is only a
    safety net. ``mid_moves``: search only that many of the heuristic's best cards before
    the endgame. With ``exact_tricks`` or fewer tricks left each world is searched to the
    end; earlier (``mid_depth`` > 0) the search stops after that many tricks and evaluates.

    ``hide``: as the secret partner, before the endgame, the called card is worth that many
    card points a trick left less than the search says. Each sampled world is searched as
    if every seat knew the sides, so the search alone sees no value in hiding; in the real
    deal the others learn who the partner is when the called card falls, and play better
    against him from then on.

    ``reads``: the belief about the partner (who holds the called card in the sampled
    worlds) weighs each play by how much more often the intermediate's partner made that
    kind of play than an opponent (:data:`~briscola.ai.chiamata.common.PLAY_READS`) instead
    of the intermediate's rules of thumb.

    ``learned``: the search's leaves are evaluated by the learned network
    (:mod:`briscola.ai.learn.chiamata`) instead of the fitted linear :class:`Evaluator`;
    without shipped weights the linear one serves.

    ``inference``: draw that many worlds for each one searched and keep them in proportion
    to how likely the other seats' plays so far are in each (:mod:`.choice`, with the
    fitted model in :data:`~briscola.ai.chiamata.choice.CHOICE_WEIGHTS`); 0 or 1: every
    world drawn is searched.

    ``replies``: before the endgame, the seats still to play to the current trick choose
    their cards in each world as the fitted model of the players' choices says, its
    expectation over their likely replies (:func:`~briscola.ai.chiamata.choice.reply_values`),
    rather than as a perfect-information search has them play, each seeing the whole
    world: players see only their own hands. The endgame stays exact.

    ``soft``: before the endgame, where the search stops at an evaluation, a world's points
    are scored by :func:`soft_game_points` with a spread of ``soft`` times the square root
    of the card points still out, rather than as the made or failed contract they would be
    if the evaluation were exact (a leaf guessed at 60 is nearly as likely made as one at
    62); 0: as exact.
    """

    name = "expert"
    policy = BidPolicy(bonus=EXPERT_BID_BONUS, jump=EXPERT_JUMP)

    def __init__(self, seed: int | str | None = None, node_budget: int = 20000,
                 max_worlds: int = 40, exact_tricks: int = 3, mid_depth: int = 1,
                 time_limit: float = 1.0, mid_moves: int | None = None, hide: float = EXPERT_HIDE,
                 reads: bool = True, learned: bool = EXPERT_LEARNED,
                 inference: int = EXPERT_INFERENCE, soft: float = EXPERT_SOFT,
                 replies: bool = EXPERT_REPLIES) -> None:
        super().__init__(seed)
        self.replies = replies
        self.soft = soft
        self.inference = inference
        self.learned = learned
        self._model: Model | None | Literal[False] = False  # loaded by the first search needing it
        self.reads = reads
        self.hide = hide
        self.mid_moves = mid_moves
        self.node_budget = node_budget
        self.max_worlds = max_worlds
        self.exact_tricks = exact_tricks
        self.mid_depth = mid_depth
        self.time_limit = time_limit
        self._solvers: dict = {}
        self.last_info: dict = {}

    def reset(self) -> None:
        super().reset()
        self.last_info = {}

    @property
    def model(self) -> Model | None:
        """The learned evaluation for the search's leaves (``None``: the linear one), loaded
        when first needed, so that a deal's start imports no weights."""
        if self._model is False:
            self._model = load_model() if self.learned else None
        return self._model

    def _solver(self, st: ChState) -> ChSolver:
        key = (st.rules, st.trump, st.carichi)
        s = self._solvers.get(key)
        if s is None:
            s = self._solvers[key] = ChSolver(st.rules, st.trump, st.carichi)
        return s

    def play(self, st: ChState, plays: list[int]) -> Decision:
        heur = scores(st, plays)
        tricks_left = st.sizes[st.me]
        if tricks_left <= self.exact_tricks:
            got = self._search(st, plays, heur, None)
            if got is not None:
                return got
        elif self.mid_depth > 0:
            cand = plays
            if self.mid_moves and len(plays) > self.mid_moves:
                # Only the heuristic's best few cards are searched: more worlds each.
                cand = sorted(plays, key=lambda x: (-heur[x], x))[:self.mid_moves]
            got = self._search(st, cand, heur, self.mid_depth)
            if got is not None:
                return got
        c = max(plays, key=lambda x: (heur[x], -x))
        self.last_info = {"mode": "heuristic"}
        return Decision(Action(c), reason(st, c))

    def _evidence(self, st: ChState) -> list:
        """What weighs the worlds: functions of a deal giving how likely what the others
        did is in it; here how likely their plays so far are under the fitted model of their
        choices (:mod:`~briscola.ai.chiamata.choice`); none without a model or plays."""
        weights = CHOICE_WEIGHTS.get(st.rules.auction)
        if weights is None:
            return []
        ev = PlayEvidence(st, weights)
        return [ev.weight] if ev.records else []

    def _weighted_worlds(self, st: ChState, sampler: ChSampler) -> list | None:
        """``max_worlds`` deals resampled from ``inference`` times as many by the product
        of the :meth:`_evidence` weights; ``None`` with nothing to weigh them by."""
        evidence = self._evidence(st)
        if not evidence:
            return None
        pool = [sampler.sample() for _ in range(self.inference * self.max_worlds)]
        ws = []
        for h in pool:
            w = 1.0
            for f in evidence:
                w *= f(h)
            ws.append(w)
        return resample(pool, ws, self.max_worlds, self.rng)

    def _replies(self, st: ChState, weights: Sequence[float], solver: ChSolver, hands: list[int],
                 trick: list[int], order: Sequence[int], maxside: Sequence[bool], plays: list[int],
                 evaluate: Evaluator | ChNetEvaluator) -> tuple[dict, int]:
        """One world's values of ``plays`` with the others' replies from the model (the
        ``replies`` option; bench's experiments change how)."""
        return reply_values(st, weights, solver, hands, trick, order, maxside, plays, evaluate)

    def _search(self, st: ChState, plays: list[int], heur: dict, depth: int | None
               ) -> Decision | None:
        t0 = time.perf_counter()
        sampler = ChSampler(st, self.rng)
        if not sampler.consistent:
            return None
        solver = self._solver(st)
        order = st.order
        trick = st.trick_cards
        caller = st.caller
        totals = {c: 0.0 for c in plays}
        done = 0
        used = 0
        budget = self.node_budget
        single = len(sampler.pool) == 0 and sampler.called < 0
        evals: dict = {}
        hidden, hide_cost = -1, 0.0
        if self.hide and depth is not None and st.called >= 0 and st.partner == st.me \
                and st.me != st.caller and not st.revealed:
            hidden = st.called
            hide_cost = self.hide * (st.sizes[st.me] - 1)
        sigma = 0.0
        stakes: dict = {}
        if self.soft and depth is not None:
            out = st.t.total_points - st.points_of([True] * st.n) - st.table_pts
            sigma = max(1.0, self.soft * math.sqrt(max(out, 0)))
        choices = None  # the model of the others' replies, if they reply by it
        if self.replies and depth is not None and caller is not None:
            choices = CHOICE_WEIGHTS.get(st.rules.auction)
        drawn = None
        if not single and self.inference > 1:
            drawn = self._weighted_worlds(st, sampler)
        for i in range(1 if single else self.max_worlds):
            hands = sampler.sample() if drawn is None else drawn[i]
            partner, maxside, evaluate = world_sides(st, hands, caller, depth, evals,
                                                     self.model)
            got = st.points_of(maxside)
            if choices is not None:
                assert evaluate is not None  # replies are modelled only with a depth
                vals, nodes = self._replies(st, choices, solver, hands, trick, order, maxside,
                                            plays, evaluate)
            else:
                try:
                    vals = solver.values(hands, trick, order, maxside, plays,
                                         node_limit=budget - used, depth=depth,
                                         evaluate=evaluate)
                except SearchAborted:
                    break
                nodes = solver.nodes
            used += nodes + (4 * evaluate.calls if evaluate is not None else 0)
            if evaluate is not None:
                evaluate.calls = 0
            for c in plays:
                final = got + vals[c] - (hide_cost if c == hidden else 0.0)
                gp = soft_game_points(st, final, partner, sigma, stakes) if sigma else \
                    game_points_for(st, final, partner)
                totals[c] += gp + 0.01 * (
                    final if st.on_caller_side else -final)
            done += 1
            if used >= budget or time.perf_counter() - t0 > self.time_limit:
                break
        if done == 0:
            return None
        best = max(plays, key=lambda c: (round(totals[c] / done, 6), heur[c], -c))
        self.last_info = {"mode": "search" if depth is None else "mid", "worlds": done,
                          "nodes": used, "seconds": time.perf_counter() - t0,
                          "value": totals[best] / done}
        base = reason(st, best)
        base["params"]["worlds"] = done  # how many likely deals the search weighed
        return Decision(Action(best), base)


register_chiamata_bot("expert", ExpertChiamataBot)
