"""Briscola Chiamata computer players: duplicate-deal arena, and the fits of the models they ship.

Arena: every deal is played five times with the same cards; one seat holds the player under
test (A) and the four others the reference player (B), and A moves round the table. The
game points A scores, averaged over the five seatings, are one sample per deal: luck of the
cards cancels out and a player exactly as good as the field scores 0. Also reported: how
often A's seat won the auction and made its target as caller, how often the side made it
when A was the secret partner, and as a baseline the callers' success rate in the same deals
with B in all five seats. ``--reverse`` swaps the roles (one B among four As).

    PYTHONPATH=py python3 bench/chiamata.py table --deals 100 --seed final   # the strength table
    PYTHONPATH=py python3 bench/chiamata.py arena --a expert --b intermediate --deals 100
    PYTHONPATH=py python3 bench/chiamata.py arena --deals 500 --contracts  # where calls fail
    PYTHONPATH=py python3 bench/chiamata.py compare --a expert --a2 expert-netfile --deals 300
    PYTHONPATH=py python3 bench/chiamata.py fit --deals 3000       # refit chiamata.bid
    PYTHONPATH=py python3 bench/chiamata.py fit-eval --deals 1500  # refit the linear EVAL_COEF
    PYTHONPATH=py python3 bench/chiamata.py fit-reads --deals 3000   # the expert's PLAY_READS
    PYTHONPATH=py python3 bench/chiamata.py reads-check --deals 1000  # the beliefs' accuracy
    PYTHONPATH=py python3 bench/chiamata.py fit-choice --deals 2000  # chiamata.choice's model

``compare`` plays two players in the one seat on the same deals and prints the paired
difference; ``expert-netfile`` is the expert with a candidate network (a model file
written by ``tools/train/train.py --out``, its path in ``CHIAMATA_WEIGHTS``). The figures,
and the screens of settings that were not kept, are in docs/players.md and
docs/research-log.md.

Fit: seat 0 wins a points auction at 61 and calls, by a spread of sensible and less sensible
choices (a card of a suit it likes, sometimes its own card); the intermediate players play
the deal out. A least-squares fit of the caller's side's points on the hand features of
:func:`briscola.ai.chiamata.bid.features` gives the coefficients (partner call and alone).
"""
from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from multiprocessing import Pool

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "py"))

from briscola.ai import make_bot  # noqa: E402
from briscola.cards import CARDS, N_RANKS  # noqa: E402
from briscola.game import Game  # noqa: E402
from briscola.rules import find_variant  # noqa: E402


def _register_variants() -> None:
    """``expert-netfile``: the expert searching with the Chiamata network of a model file
    written by ``tools/train/train.py --out`` (its path in ``CHIAMATA_WEIGHTS``), to screen a
    candidate network against the shipped one (``compare --a expert --a2 expert-netfile``)."""
    from briscola.ai import BOTS, load_all, register_bot, register_chiamata_bot
    from briscola.ai.chiamata.expert import ExpertChiamataBot
    load_all()

    class FileNetExpert(ExpertChiamataBot):
        loaded: list = []

        @property
        def model(self):
            if self._model is False and FileNetExpert.loaded:
                self._model = FileNetExpert.loaded[0]
            if self._model is False:
                from briscola.ai.learn import load_file
                from briscola.ai.learn.chiamata import N_CH_INPUTS
                self._model = load_file(os.environ["CHIAMATA_WEIGHTS"], N_CH_INPUTS)
                FileNetExpert.loaded.append(self._model)
            return self._model

    register_bot("expert-netfile", BOTS["intermediate"])
    register_chiamata_bot("expert-netfile", FileNetExpert)


_register_variants()


# ---- arena ----------------------------------------------------------------------------------------

def _play(variant: str, names: list[str], seed: str) -> Game:
    game = Game.new(variant, seed=seed)
    # Fresh players, seeded by deal and seat (not by who sits there).
    bots = [make_bot(name, f"{seed}:{s}") for s, name in enumerate(names)]
    while not game.is_over:
        seat = game.current_player
        game.apply(bots[seat].decide(game.view(seat)).action, seat)
    return game


def _deal_group(args) -> dict:
    variant, a, b, seed, index = args
    deal_seed = f"{seed}:{index}"
    out = {"gp": [], "caller": 0, "caller_made": 0, "partner": 0, "partner_made": 0,
           "base_callers": 0, "base_made": 0, "alone": 0, "alone_made": 0, "seconds": 0.0,
           "roles": []}
    out["contracts"] = []
    t0 = time.perf_counter()
    for k in range(5):
        names = [a if s == k else b for s in range(5)]
        g = _play(variant, names, deal_seed)
        oc = g.outcome()
        auc = g.auction
        made = 0 in oc.winners
        out["gp"].append(oc.game_points[k])
        partner = auc.partner(g)
        out["roles"].append("caller" if auc.caller == k else
                            "partner" if partner == k else "opponent")
        if auc.caller == k:
            out["caller"] += 1
            out["caller_made"] += made
            out["contracts"].append(_contract(variant, a, deal_seed, g, k, made,
                                              oc.game_points[k]))
            if auc.carichi or partner == k:
                out["alone"] += 1
                out["alone_made"] += made
        elif partner == k:
            out["partner"] += 1
            out["partner_made"] += made
    out["seconds"] = time.perf_counter() - t0
    g = _play(variant, [b] * 5, deal_seed)
    out["base_callers"] = 1
    out["base_made"] = int(0 in g.outcome().winners)
    out["base_gp"] = list(g.outcome().game_points)
    return out


def _contract(variant: str, a: str, deal_seed: str, g: Game, k: int, made: bool,
              gp: int) -> dict:
    """A's contract as caller: the bid it won with, its trumps, the bid model's estimate
    (with A's own bonus, as A bid it) and the chance of making it that the estimate gives."""
    from briscola.ai.chiamata.bid import estimate, p_reach
    from briscola.actions import BID_RANK
    auc = g.auction
    rules = g.rules
    hand = [int(c) for c in Game.new(variant, seed=deal_seed).hands[k]]
    alone = auc.carichi or auc.partner(g) == k
    trump = auc.called // N_RANKS if auc.called >= 0 else -1
    if auc.carichi:
        level = "a carichi"
    elif rules.auction == "points" or auc.point_raise:
        level = f"{auc.target} points"
    else:
        level = "rank " + CARDS[auc.high - BID_RANK].rank
    policy = getattr(make_bot(a, "contract").chiamata, "policy", None)
    est = p = None
    if trump >= 0 and policy is not None:
        est = estimate(hand, trump, auc.called, rules, alone) + policy.bonus[alone]
        p = p_reach(est, auc.target, alone)
    return {"level": level, "alone": alone, "made": made, "gp": gp, "est": est, "p": p,
            "trumps": sum(1 for c in hand if c // N_RANKS == trump)}


def contracts_report(contracts: list[dict]) -> str:
    """A's contracts as caller, by the bid they were won with, by trumps held and by the
    bid model's estimate: how many, how often made, how often the estimate said they
    would be, and A's game points a contract."""
    def rows(title, key):
        groups: dict = {}
        for c in contracts:
            groups.setdefault(key(c), []).append(c)
        out = [f"| {title} | contracts | made | expected by the estimate | game points |",
               "| --- | ---: | ---: | ---: | ---: |"]
        for k in sorted(groups, key=lambda x: (str(type(x)), x)):
            cs = groups[k]
            ps = [c["p"] for c in cs if c["p"] is not None]
            exp = f"{100 * sum(ps) / len(ps):.0f}%" if ps else "–"
            out.append(f"| {k} | {len(cs)} | {100 * sum(c['made'] for c in cs) / len(cs):.0f}% | "
                       f"{exp} | {sum(c['gp'] for c in cs) / len(cs):+.2f} |")
        return "\n".join(out)

    def bucket(c):
        if c["est"] is None:
            return "–"
        lo = int(c["est"] // 5) * 5
        return f"{lo}–{lo + 5}"
    return "\n\n".join([rows("bid won with", lambda c: c["level"]),
                        rows("trumps held", lambda c: c["trumps"]),
                        rows("estimate (card points)", bucket),
                        rows("alone", lambda c: "alone" if c["alone"] else "with a partner")])


def mean_ci(xs: list[float]) -> tuple[float, float]:
    n = len(xs)
    if n == 0:
        return 0.0, 0.0
    m = sum(xs) / n
    if n < 2:
        return m, float("inf")
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    return m, 1.96 * math.sqrt(var / n)


def rate_ci(k: int, n: int) -> tuple[float, float]:
    """Wilson 95 % interval as (centre-free) rate and half-width."""
    if n == 0:
        return float("nan"), float("nan")
    p = k / n
    z = 1.96
    denom = 1 + z * z / n
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return p, half


def arena(variant: str, a: str, b: str, deals: int, seed: str = "bench", workers: int = 2,
          reverse: bool = False) -> dict:
    if reverse:
        a, b = b, a
    jobs = [(variant, a, b, seed, i) for i in range(deals)]
    if workers > 1:
        with Pool(workers) as pool:
            groups = pool.map(_deal_group, jobs, chunksize=1)
    else:
        groups = [_deal_group(j) for j in jobs]
    per_deal = [sum(g["gp"]) / 5.0 for g in groups]
    tot = {k: sum(g[k] for g in groups) for k in groups[0]
           if k not in ("gp", "roles", "base_gp", "contracts")}
    # The B-only deal's game points sum to zero over the seats, so A's mean splits exactly
    # into what A's seat gained over B's in the same seat, by A's part in the deal.
    by_role = {"caller": 0.0, "partner": 0.0, "opponent": 0.0}
    for g in groups:
        for k, role in enumerate(g["roles"]):
            by_role[role] += (g["gp"][k] - g["base_gp"][k]) / (5.0 * deals)
    m, h = mean_ci(per_deal)
    return {"variant": variant, "a": a, "b": b, "deals": deals, "mean_gp": m, "ci": h,
            "per_deal": per_deal, "by_role": by_role,
            "caller_rate": rate_ci(tot["caller"], deals * 5),
            "caller_made": rate_ci(tot["caller_made"], tot["caller"]),
            "partner_made": rate_ci(tot["partner_made"], tot["partner"]),
            "alone": (tot["alone"], tot["alone_made"]),
            "base_made": rate_ci(tot["base_made"], tot["base_callers"]),
            "contracts": [c for g in groups for c in g["contracts"]],
            "seconds_per_deal": tot["seconds"] / deals}


def cached_arena(cache: str | None, variant: str, a: str, b: str, deals: int, seed: str,
                 workers: int) -> dict:
    """:func:`arena`, its result kept in the JSON file ``cache`` (if given) under its
    arguments, so that screens against the same reference on the same deals play it once.
    The cache knows nothing of the code: delete it when the players change."""
    import json
    key = f"{variant}|{a}|{b}|{deals}|{seed}"
    got = {}
    if cache and os.path.exists(cache):
        with open(cache) as f:
            got = json.load(f)
    if key in got:
        return got[key]
    r = arena(variant, a, b, deals, seed, workers)
    if cache:
        if os.path.exists(cache):  # read again: a screen beside this one may have written
            with open(cache) as f:
                got = json.load(f)
        got[key] = r
        with open(cache, "w") as f:
            json.dump(got, f)
    return r


def compare(variant: str, a: str, a2: str, b: str, deals: int, seed: str = "bench",
            workers: int = 2, cache: str | None = None) -> str:
    """Players in the one seat against the same field on the same deals: the paired
    difference of their game points a deal (each of ``a2``, comma-separated, minus ``a``),
    with its 95% interval. ``cache``: a JSON file keeping ``a``'s results (see
    :func:`cached_arena`)."""
    rows = [cached_arena(cache, variant, a, b, deals, seed, workers)]
    lines = []
    for other in a2.split(","):
        r2 = arena(variant, other, b, deals, seed, workers)
        rows.append(r2)
        d, h = mean_ci([y - x for x, y in zip(rows[0]["per_deal"], r2["per_deal"])])
        lines.append(f"{other} - {a}: {d:+.3f} ± {h:.3f} game points a deal ({deals} deals, "
                     "paired)")
        print(table(rows[-1:]).splitlines()[-1], "|", lines[-1], flush=True)
    for r in rows:
        lines.append(f"{r['a']} over {b} in the same seat: " + ", ".join(
            f"{k} {v:+.3f}" for k, v in r["by_role"].items()))
    return table(rows) + "\n\n" + "\n".join(lines)


def fmt_rate(r: tuple[float, float]) -> str:
    p, h = r
    if p != p:
        return "–"
    return f"{100 * p:.0f}% ± {100 * h:.0f}"


def table(rows: list[dict]) -> str:
    out = ["| variant | A (one seat) | B (four seats) | deals | A's game points per deal "
           "(95% CI) | A's seat calls | A made as caller | side made, A partner | "
           "B-only callers made |",
           "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in rows:
        out.append(f"| {r['variant']} | {r['a']} | {r['b']} | {r['deals']} | "
                   f"{r['mean_gp']:+.3f} ± {r['ci']:.3f} | {fmt_rate(r['caller_rate'])} | "
                   f"{fmt_rate(r['caller_made'])} | {fmt_rate(r['partner_made'])} | "
                   f"{fmt_rate(r['base_made'])} |")
    return "\n".join(out)


# ---- fitting the bidding model ---------------------------------------------------------------------

def _fit_deal(i: int, alone_only: bool = False, variant: str = "chiamata-points") -> list[tuple[bool, list[float], int]]:
    from briscola.ai.chiamata.bid import features
    rules = find_variant(variant)
    rng = random.Random(f"fit:{i}")
    g = Game.new(rules, seed=f"fit:{i}", dealer=4)
    hand = [int(c) for c in g.hands[0]]
    for a in ("bid-61", "pass", "pass", "pass", "pass"):
        g.apply(a)
    pts = rules.tables.points
    strength = rules.tables.strength
    weight = [0.0] * 4
    for c in hand:
        weight[c // N_RANKS] += 1.0 + pts[c] / 5.0
    suits = [s for s in range(4)]
    trump = rng.choices(suits, weights=[w * w + 0.3 for w in weight])[0]
    suit = sorted((c for c in rules.tables.deck_ints if c // N_RANKS == trump),
                  key=lambda c: -strength[c])
    mine = [c for c in suit if c in hand]
    missing = [c for c in suit if c not in hand]
    alone = bool(mine) and (rng.random() < 0.25 or not missing)
    if alone_only:
        # Playing alone is only ever chosen with many trumps: fit on such hands.
        if len(mine) < 4:
            return []
        alone = True
    if alone:
        called = mine[0]
    elif rng.random() < 0.7:
        called = missing[0]
    else:
        called = rng.choice(missing)
    g.apply(f"call-{CARDS[called]}")
    bots = [make_bot("intermediate", f"fit:{i}:{s}") for s in range(5)]
    while not g.is_over:
        s = g.current_player
        g.apply(bots[s].decide(g.view(s)).action, s)
    oc = g.outcome()
    return [(alone, features(hand, trump, called, rules, alone), oc.side_points[0])]


def _lstsq(xs: list[list[float]], ys: list[float], ridge: float = 1e-3) -> list[float]:
    k = len(xs[0])
    a = [[0.0] * k for _ in range(k)]
    b = [0.0] * k
    for x, y in zip(xs, ys):
        for i in range(k):
            b[i] += x[i] * y
            for j in range(k):
                a[i][j] += x[i] * x[j]
    for i in range(k):
        a[i][i] += ridge
    # Gaussian elimination with partial pivoting.
    for col in range(k):
        piv = max(range(col, k), key=lambda r: abs(a[r][col]))
        a[col], a[piv] = a[piv], a[col]
        b[col], b[piv] = b[piv], b[col]
        for r in range(k):
            if r != col and a[col][col]:
                f = a[r][col] / a[col][col]
                for j in range(col, k):
                    a[r][j] -= f * a[col][j]
                b[r] -= f * b[col]
    return [b[i] / a[i][i] if a[i][i] else 0.0 for i in range(k)]


def _fit_job(args):
    i, alone_only = args
    return _fit_deal(i, alone_only)


def fit(deals: int, workers: int, alone_only: bool = False) -> None:
    jobs = [(i, alone_only) for i in range(deals)]
    with Pool(workers) as pool:
        rows = [r for chunk in pool.map(_fit_job, jobs, chunksize=20) for r in chunk]
    for alone in ((True,) if alone_only else (False, True)):
        data = [(x, y) for al, x, y in rows if al == alone]
        xs = [x for x, _y in data]
        ys = [float(y) for _x, y in data]
        if alone:
            # The partner features are zero alone: drop them from the fit.
            keep = [0, 1, 2, 3, 4, 5, 6, 7, 10]
        else:
            keep = list(range(len(xs[0])))
        coef_k = _lstsq([[x[i] for i in keep] for x in xs], ys)
        coef = [0.0] * len(xs[0])
        for i, c in zip(keep, coef_k):
            coef[i] = c
        res = [y - sum(c * v for c, v in zip(coef, x)) for x, y in zip(xs, ys)]
        sigma = math.sqrt(sum(r * r for r in res) / max(1, len(res) - len(keep)))
        label = "ALONE" if alone else "PARTNER"
        print(f"{label}_COEF = ({', '.join(f'{c:.2f}' for c in coef)})  # {len(data)} deals")
        print(f"{label}_SIGMA = {sigma:.1f}")


def _fit_eval_game(i: int) -> list[tuple[list[float], int]]:
    """Positions at the start of tricks 2 to 6 of a deal played by intermediates: the
    evaluation's features (true hands, true sides) and the caller's side's points to come."""
    from briscola.ai.chiamata.expert import Evaluator
    g = Game.new("chiamata", seed=f"eval:{i}")
    bots = [make_bot("intermediate", f"eval:{i}:{s}") for s in range(5)]
    snaps = []
    while not g.is_over:
        if g.phase_name == "play" and not g.trick and 1 <= g.tricks_done <= 5:
            snaps.append(([sum(1 << c for c in h) for h in g.hands], g.order[0]))
        s = g.current_player
        g.apply(bots[s].decide(g.view(s)).action, s)
    team = g.outcome().sides[0]
    if len(team) != 2:
        return []  # too few deals alone to fit them: the same model serves
    maxside = [s in team for s in range(5)]
    ev = Evaluator(g.rules, g.trump, maxside)
    final = sum(g.points[s] for s in team)
    rows = []
    g2 = g.replay(0)
    # Points already taken at each snapshot: replay to find them.
    taken = {}
    for a in g.actions:
        if g2.phase_name == "play" and not g2.trick:
            taken.setdefault(g2.tricks_done, sum(g2.points[s] for s in team))
        g2.apply_fast(a)
    for k, (hands, leader) in enumerate(snaps):
        done = 8 - bin(hands[leader]).count("1")
        rows.append((ev.features(hands, leader), final - taken[done]))
    return rows


def fit_eval(deals: int, workers: int) -> None:
    with Pool(workers) as pool:
        rows = [r for chunk in pool.map(_fit_eval_game, range(deals), chunksize=10)
                for r in chunk]
    xs = [x[:5] for x, _y in rows]  # with two seats a side the last feature is constant
    ys = [float(y) for _x, y in rows]
    coef = _lstsq(xs, ys) + [0.0]
    res = [y - sum(c * v for c, v in zip(coef, x)) for x, y in zip(xs, ys)]
    sigma = math.sqrt(sum(r * r for r in res) / max(1, len(res) - len(coef)))
    print(f"EVAL_COEF = ({', '.join(f'{c:.3f}' for c in coef)})  # {len(rows)} positions, "
          f"residual {sigma:.1f}")


# ---- fitting the expert's reading of the plays ------------------------------------------------------

def _play_decisions(variant: str, seed: str, i: int):
    """One deal the intermediate players play out: (game, seat, decision, state) at each
    decision of the play (the auction and the call are played, not yielded), the decision
    applied after each."""
    from briscola.ai.chiamata.common import ChState
    g = Game.new(variant, seed=f"{seed}:{i}")
    bots = [make_bot("intermediate", f"{seed}:{i}:{s}") for s in range(5)]
    while not g.is_over:
        seat = g.current_player
        v = g.view(seat)
        d = bots[seat].decide(v)
        if v.phase == "play":
            yield g, seat, d, ChState(v)
        g.apply(d.action, seat)


def _reads_deal(args) -> list[tuple[int, bool]]:
    """One deal of intermediate players: each play made before the called card fell by a
    seat other than the caller (the called card aside), as (its kind, made by the partner)."""
    from briscola.ai.chiamata.common import fine_kind, play_kind
    variant, seed, i, fine = args
    out = []
    for g, seat, d, st in _play_decisions(variant, seed, i):
        c = int(d.action)
        if st.caller is not None and not st.carichi and not st.revealed \
                and seat != st.caller and c != st.called:
            k = play_kind(st.pos == 0, st.caller in st.trick_seats,
                          st.best_seat == st.caller, st.would_win(c), st.pts[c],
                          st.is_trump(c))
            if fine:
                k = fine_kind(k, st.pos == st.n - 1, st.table_pts >= 10)
            out.append((k, seat == g.auction.partner(g)))
    return out


def fit_reads(variant: str, deals: int, workers: int, seed: str = "reads",
              fine: bool = False) -> tuple:
    """How much more often the partner makes each kind of play than an opponent (per play:
    the kind's share of the partner's plays over its share of the opponents'). ``fine``:
    the 216 finer kinds (``PLAY_READS_FINE``) instead of the 54."""
    from briscola.ai.chiamata.common import N_FINE_KINDS, N_KINDS
    nk = N_FINE_KINDS if fine else N_KINDS
    jobs = [(variant, seed, i, fine) for i in range(deals)]
    if workers > 1:
        with Pool(workers) as pool:
            groups = pool.map(_reads_deal, jobs, chunksize=10)
    else:
        groups = [_reads_deal(j) for j in jobs]
    part = [0] * nk
    opp = [0] * nk
    for g in groups:
        for k, is_partner in g:
            (part if is_partner else opp)[k] += 1
    tp, to = sum(part) or 1, sum(opp) or 1
    # Four plays of each kind added in the overall proportion pull rare kinds towards 1.
    fp, fo = 4.0 * tp / (tp + to), 4.0 * to / (tp + to)
    ratio = tuple(round(((part[k] + fp) / tp) / ((opp[k] + fo) / to), 3) for k in range(nk))
    print(f"{variant}: {deals} deals, {tp} plays by the partner, {to} by opponents")
    return ratio


def partner_views(variant: str, deals: int, seed: str):
    """(game, view, true partner) at each decision of a seat that does not hold the called
    card, before it falls, in deals the intermediate players play out."""
    for i in range(deals):
        for g, seat, _d, st in _play_decisions(variant, seed, i):
            partner = g.auction.partner(g)
            if partner is not None and seat != partner and not st.carichi \
                    and not st.revealed:
                yield g, st.view, partner


def reads_check(variant: str, deals: int, seed: str = "unseen") -> str:
    """At the decisions of the seats that do not hold the called card before it falls, in
    deals the intermediate players play out: the chance each belief gives the true partner
    and its mean log-likelihood (the rules of thumb, and the 54 kinds the expert reads)."""
    from briscola.ai.chiamata.common import ChState
    acc = {False: [0, 0.0, 0.0], True: [0, 0.0, 0.0]}
    for _g, v, partner in partner_views(variant, deals, seed):
        for r, a in acc.items():
            b = ChState(v, r).belief[partner]
            a[0] += 1
            a[1] += b
            a[2] += math.log(max(b, 1e-9))
    names = {False: "rules of thumb", True: "54 kinds"}
    return "\n".join(f"{variant}, {names[r]}: true partner {s / n:.3f}, log-likelihood "
                     f"{ll / n:.3f} ({n} decisions)" for r, (n, s, ll) in acc.items())


def _choice_deal(args) -> list[tuple[list[list[tuple[int, float]]], int]]:
    """Every choice of a card among two or more in one deal the intermediate players play
    out: each candidate's features (``chiamata.choice``) and which one was played."""
    from briscola.ai.chiamata.choice import candidate_features
    variant, seed, i = args
    out = []
    for g, seat, d, st in _play_decisions(variant, seed, i):
        plays = st.legal_plays()
        if len(plays) > 1 and st.caller is not None:
            partner = g.auction.partner(g)
            role = 0 if seat == st.caller else (1 if seat == partner and not st.carichi else 2)
            lead = st.pos == 0
            cb = st.caller in st.trick_seats
            cw = st.best_seat == st.caller
            feats = [candidate_features(st, role, lead, cb, cw, st.best, x) for x in plays]
            out.append((feats, plays.index(int(d.action))))
    return out


def fit_choice(variant: str, deals: int, workers: int, seed: str = "choice",
               ridge: float = 0.01) -> tuple:
    """The conditional logit of ``chiamata.choice`` fitted by maximum likelihood (with a
    little ridge) on the intermediate players' choices in ``deals`` deals."""
    import numpy as np
    from scipy.optimize import minimize
    from briscola.ai.chiamata.choice import N_CHOICE
    jobs = [(variant, seed, i) for i in range(deals)]
    if workers > 1:
        with Pool(workers) as pool:
            groups = pool.map(_choice_deal, jobs, chunksize=10)
    else:
        groups = [_choice_deal(j) for j in jobs]
    rows = [r for g in groups for r in g]
    width = 8
    k = 4
    idx = np.full((len(rows), width, k), N_CHOICE, dtype=np.int64)  # N_CHOICE: a zero slot
    val = np.zeros((len(rows), width, k))
    valid = np.zeros((len(rows), width), dtype=bool)
    chosen = np.zeros(len(rows), dtype=np.int64)
    for d, (feats, c) in enumerate(rows):
        chosen[d] = c
        for j, f in enumerate(feats):
            valid[d, j] = True
            for q, (i, v) in enumerate(f):
                idx[d, j, q] = i
                val[d, j, q] = v

    def nll(w):
        wz = np.append(w, 0.0)
        z = (wz[idx] * val).sum(axis=2)
        z = np.where(valid, z, -1e9)
        zmax = z.max(axis=1, keepdims=True)
        e = np.exp(z - zmax) * valid
        tot = e.sum(axis=1, keepdims=True)
        p = e / tot
        ll = (z[np.arange(len(rows)), chosen] - zmax[:, 0] - np.log(tot[:, 0])).sum()
        g = -p
        g[np.arange(len(rows)), chosen] += 1.0
        grad = np.zeros(N_CHOICE + 1)
        np.add.at(grad, idx.reshape(-1), (g[:, :, None] * val).reshape(-1))
        grad = grad[:N_CHOICE]
        return -ll + ridge * (w * w).sum(), -grad + 2 * ridge * w

    res = minimize(nll, np.zeros(N_CHOICE), jac=True, method="L-BFGS-B")
    base = np.log(valid.sum(axis=1)).sum()
    print(f"{variant}: {deals} deals, {len(rows)} choices; log-likelihood a choice "
          f"{-res.fun / len(rows):.3f} (uniform {-base / len(rows):.3f})")
    return tuple(round(float(x), 3) for x in res.x)


def print_table(name: str, values: tuple) -> None:
    """A fitted table as Python source to paste: ``name = (`` and nine numbers a line."""
    print(f"{name} = (")
    for i in range(0, len(values), 9):
        print("    " + ", ".join(f"{x:g}" for x in values[i:i + 9]) + ",")
    print(")")


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    pa = sub.add_parser("arena")
    pa.add_argument("--variant", default="chiamata")
    pa.add_argument("--a", default="expert")
    pa.add_argument("--b", default="intermediate")
    pa.add_argument("--deals", type=int, default=100)
    pa.add_argument("--seed", default="bench")
    pa.add_argument("--workers", type=int, default=2)
    pa.add_argument("--reverse", action="store_true")
    pa.add_argument("--contracts", action="store_true",
                    help="also break A's contracts as caller down by bid, trumps, estimate")
    pc = sub.add_parser("compare", help="two players in the one seat, paired on the same deals")
    pc.add_argument("--variant", default="chiamata")
    pc.add_argument("--a", default="expert")
    pc.add_argument("--a2", required=True)
    pc.add_argument("--b", default="intermediate")
    pc.add_argument("--deals", type=int, default=100)
    pc.add_argument("--seed", default="bench")
    pc.add_argument("--workers", type=int, default=2)
    pc.add_argument("--cache", help="a JSON file keeping the reference player's results")
    pt = sub.add_parser("table")
    pt.add_argument("--deals", type=int, default=100)
    pt.add_argument("--reverse-deals", type=int, default=60)
    pt.add_argument("--weak-deals", type=int, default=300)
    pt.add_argument("--seed", default="bench")
    pt.add_argument("--workers", type=int, default=2)
    pf = sub.add_parser("fit")
    pf.add_argument("--deals", type=int, default=3000)
    pf.add_argument("--workers", type=int, default=2)
    pf.add_argument("--alone", action="store_true", help="fit the self-call model on hands "
                    "with four trumps or more")
    pe = sub.add_parser("fit-eval")
    pe.add_argument("--deals", type=int, default=1500)
    pe.add_argument("--workers", type=int, default=2)
    pr = sub.add_parser("fit-reads", help="the expert's reading of the plays (PLAY_READS)")
    pr.add_argument("--deals", type=int, default=3000)
    pr.add_argument("--workers", type=int, default=2)
    pr.add_argument("--seed", default="reads")
    pr.add_argument("--fine", action="store_true", help="the 216 finer kinds "
                    "(PLAY_READS_FINE)")
    px = sub.add_parser("fit-choice", help="the expert's model of the others' choices "
                        "(the tables of briscola/ai/chiamata/choice_weights.py)")
    px.add_argument("--deals", type=int, default=2000)
    px.add_argument("--workers", type=int, default=2)
    px.add_argument("--seed", default="choice")
    pk = sub.add_parser("reads-check", help="how often each belief names the true partner")
    pk.add_argument("--deals", type=int, default=1000)
    pk.add_argument("--seed", default="unseen")
    args = p.parse_args(argv)
    if args.cmd == "reads-check":
        for variant in ("chiamata", "chiamata-points"):
            print(reads_check(variant, args.deals, args.seed))
        return
    if args.cmd == "fit-choice":
        for auction, variant in (("rank", "chiamata"), ("points", "chiamata-points")):
            print_table(f"WEIGHTS[{auction!r}]",
                        fit_choice(variant, args.deals, args.workers, args.seed))
        return
    if args.cmd == "fit-reads":
        for auction, variant in (("rank", "chiamata"), ("points", "chiamata-points")):
            print_table(f"PLAY_READS{'_FINE' if args.fine else ''}[{auction!r}]",
                        fit_reads(variant, args.deals, args.workers, args.seed, args.fine))
        return
    if args.cmd == "fit-eval":
        fit_eval(args.deals, args.workers)
        return
    if args.cmd == "fit":
        fit(args.deals, args.workers, args.alone)
        return
    if args.cmd == "compare":
        print(compare(args.variant, args.a, args.a2, args.b, args.deals, args.seed,
                      args.workers, args.cache))
        return
    if args.cmd == "arena":
        r = arena(args.variant, args.a, args.b, args.deals, args.seed, args.workers,
                  args.reverse)
        print(table([r]))
        print(f"\n{r['seconds_per_deal']:.1f} s per deal (5 seatings + baseline)")
        print("A's gain over B in the same seat, by A's part in the deal: " + ", ".join(
            f"{k} {v:+.3f}" for k, v in r["by_role"].items()))
        if args.contracts:
            print("\nA's contracts as caller\n")
            print(contracts_report(r["contracts"]))
        return
    rows = []
    plan = [("chiamata", "expert", "intermediate", args.deals, False),
            ("chiamata-points", "expert", "intermediate", args.deals, False),
            ("chiamata", "expert", "intermediate", args.reverse_deals, True),
            ("chiamata-points", "expert", "intermediate", args.reverse_deals, True),
            ("chiamata", "intermediate", "beginner", args.weak_deals, False),
            ("chiamata", "intermediate", "random", args.weak_deals, False),
            ("chiamata-points", "intermediate", "beginner", args.weak_deals, False),
            ("chiamata-points", "intermediate", "random", args.weak_deals, False)]
    for variant, a, b, n, rev in plan:
        t0 = time.perf_counter()
        rows.append(arena(variant, a, b, n, args.seed, args.workers, rev))
        print(table(rows[-1:]).splitlines()[-1], f"({time.perf_counter() - t0:.0f} s)",
              flush=True)
    print()
    print(table(rows))


if __name__ == "__main__":
    main()
