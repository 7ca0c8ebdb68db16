"""Duplicate-deal matches between two computer players.

Every deal (seeded) is played once per seating: with two players the seats are swapped; in
team games the two bots' teams swap seats; with three or more players each alone, bot A
takes each seat in turn and bot B all the others. Luck of the cards cancels out, so the
mean point difference measures skill. The bots' memory is reset before every deal and their
random streams are seeded per (match seed, deal, seat), independent of which bot sits there:
a deterministic bot against itself comes out at exactly zero.

Command line (also ``python -m briscola.arena``)::

    python -m briscola arena --variant classic --bots expert,intermediate --deals 200 --seed 1
"""
from __future__ import annotations

import json
import math
import sys
import time
from typing import TYPE_CHECKING, Any, Callable, NoReturn, Sequence

from .errors import BriscolaError, RulesError
from .game import Game
from .rules import Rules, find_variant

if TYPE_CHECKING:  # for the annotations only
    import argparse

    from .ai.base import Bot


def _factory(spec: str | Callable[..., Bot]) -> Callable:
    from .ai import BOTS, make_bot
    if isinstance(spec, str):
        make_bot(spec, 0)  # raises a RulesError naming the known bots
        name = spec
        return lambda seed: make_bot(name, seed)
    if callable(spec):
        return lambda seed: spec(seed=seed)
    raise RulesError(f"bot: expected a name ({', '.join(BOTS)}) or a factory, got {spec!r}")


def simulate(rules: Rules, names: Sequence[str], deals: int, seed: int | str | None) -> dict:
    """Play ``deals`` seeded deals between the bots ``names`` (one per seat), checked.

    What ``python -m briscola simulate`` runs: each bot decides from its seat's view and the
    game checks every action. Returns the wins per side, the draws, the mean points per side.
    """
    from .ai import make_bot
    bots = [make_bot(name, seed=f"{seed}/bot{seat}") for seat, name in enumerate(names)]
    n_sides = None
    wins: list[int] = []
    points: list[float] = []
    draws = 0
    outcome = None
    for k in range(deals):
        game = Game.new(rules, seed=f"{seed}/{k}")
        for bot in bots:
            bot.reset()
        while not game.is_over:
            seat = game.current_player
            assert seat is not None  # the deal is not over
            game.apply(bots[seat].choose(game.view(seat)), seat=seat)
        outcome = game.outcome()
        assert outcome is not None
        if n_sides is None:
            n_sides = len(outcome.sides)
            wins = [0] * n_sides
            points = [0.0] * n_sides
        if outcome.draw:
            draws += 1
        else:
            for i in outcome.winners:
                wins[i] += 1
        for i, p in enumerate(outcome.side_points):
            points[i] += p
    assert outcome is not None
    return {
        "variant": rules.name,
        "rules": rules.to_dict(),
        "bots": list(names),
        "seed": seed,
        "deals": deals,
        "sides": [list(s) for s in outcome.sides],
        "wins": wins,
        "draws": draws,
        "points": [round(p / deals, 3) for p in points],
    }


def seatings(rules: Rules) -> list[tuple[bool, ...]]:
    """Per game of a deal group: for each seat, is bot A sitting there?"""
    n = rules.players
    teams = rules.tables.teams
    if teams is not None:
        return [tuple(s in teams[k] for s in range(n)) for k in (0, 1)]
    if n == 2:
        return [(True, False), (False, True)]
    return [tuple(s == k for s in range(n)) for k in range(n)]


def play_group(rules: Rules, fa: Callable, fb: Callable, seed: int | str | None, index: int
              ) -> list[tuple]:
    """Play deal ``index`` in every seating; per game, what :func:`_score` returns."""
    n = rules.players
    out = []
    deal_seed = f"{seed}:{index}"
    for seating in seatings(rules):
        game = Game.new(rules, seed=deal_seed)
        # Fresh bots seeded per (match seed, deal, seat): who sits there does not matter.
        bots = [(fa if seating[s] else fb)(f"{seed}:{index}:{s}") for s in range(n)]
        for bot in bots:
            bot.reset()
        while not game.is_over:
            seat = game.current_player
            assert seat is not None  # the deal is not over
            action = bots[seat].decide(game.view(seat)).action
            game.apply(action, seat)
        out.append(_score(rules, game, seating))
    return out


def _score(rules: Rules, game: Game, seating: tuple[bool, ...]
          ) -> tuple[int, tuple[int, int, int], bool]:
    """A's (scaled) difference, its head-to-head results (wins, draws, losses), first place.

    Two sides: one result per game. Several players alone: A against each other player, one
    result each (so that a bot against itself scores exactly half).
    """
    oc = game.outcome()
    assert oc is not None  # the deal is over
    n = rules.players
    sides = oc.sides
    a = next(i for i, side in enumerate(sides) if seating[side[0]])
    mine = oc.side_points[a]
    others = [p for i, p in enumerate(oc.side_points) if i != a]
    if len(sides) == 2:
        diff = mine - others[0]
    else:
        # A's points minus the mean of the others, times (n - 1) to stay an integer.
        diff = mine * (n - 1) - sum(others)
    w = sum(1 for p in others if mine > p)
    d = sum(1 for p in others if mine == p)
    first = a in oc.winners and len(oc.winners) == 1
    return diff, (w, d, len(others) - w - d), first


def _scale(rules: Rules) -> int:
    return 1 if len(seatings(rules)) == 2 and (rules.tables.teams is not None
                                              or rules.players == 2) else rules.players - 1


def group_divisor(rules: Rules) -> int:
    """What a deal group's summed differences (``_score``) are divided by to give the
    arena's points a deal: its games, times the others' count for several players alone."""
    return len(seatings(rules)) * _scale(rules)


def _worker(args: tuple[Rules, str | Callable[..., Bot], str | Callable[..., Bot],
                        int | str | None, list[int]]) -> list[list[tuple]]:
    rules, a, b, seed, indices = args
    fa, fb = _factory(a), _factory(b)
    return [play_group(rules, fa, fb, seed, i) for i in indices]


def run_arena(rules: Rules | str, bot_a: str | Callable[..., Bot], bot_b: str | Callable[..., Bot],
              deals: int, seed: int | str | None = 0, workers: int = 1,
              progress: Callable[[int], None] | None = None) -> dict:
    """Play ``deals`` duplicate deal groups of ``bot_a`` against ``bot_b``; results for A.

    ``bot_a``/``bot_b`` are bot names (or factories taking ``seed=``; names are needed with
    ``workers > 1``). ``mean_diff`` is A's side's points minus the other side's per game
    (several players alone: A's points minus the mean of the others); ``ci95`` is its 95 %
    interval computed over deal groups; ``win_rate`` counts draws as half. With several
    players alone, ``wins``/``draws``/``losses`` are A's head-to-head results against each
    other player (n - 1 per game) and ``first_places`` the games A won outright.
    """
    if isinstance(rules, str):
        rules = find_variant(rules)
    if not isinstance(rules, Rules):
        raise RulesError(f"rules: expected a variant name or Rules, got {rules!r}")
    if rules.mode == "chiamata":
        raise RulesError("variant: the arena plays classic Briscola, not Chiamata")
    if not isinstance(deals, int) or isinstance(deals, bool) or deals < 1:
        raise RulesError("deals: must be a whole number of at least 1")
    if not isinstance(workers, int) or workers < 1:
        raise RulesError("workers: must be a whole number of at least 1")
    _factory(bot_a), _factory(bot_b)
    t0 = time.perf_counter()
    if workers > 1 and isinstance(bot_a, str) and isinstance(bot_b, str):
        groups = over_workers(_worker, lambda c: (rules, bot_a, bot_b, seed, c), deals, workers)
    else:
        fa, fb = _factory(bot_a), _factory(bot_b)
        groups = []
        for i in range(deals):
            groups.append(play_group(rules, fa, fb, seed, i))
            if progress is not None:
                progress(i + 1)
    return summarize(rules, bot_a, bot_b, seed, groups, time.perf_counter() - t0)


def over_workers(part: Callable[[Any], list], job: Callable[[list[int]], Any], deals: int,
                 workers: int) -> list:
    """Deal groups 0 .. deals-1 shared out among ``workers`` processes (group i to worker
    i mod workers): ``part(job(indices))`` plays one worker's groups and returns their results
    in that order. The results of all the groups, in group order."""
    chunks = [list(range(w, deals, workers)) for w in range(workers)]
    jobs = [job(c) for c in chunks]
    if workers > 1:
        import multiprocessing as mp
        with mp.get_context("spawn" if sys.platform == "win32" else "fork").Pool(workers) as pool:
            parts = pool.map(part, jobs)
    else:
        parts = [part(j) for j in jobs]
    groups: list = [None] * deals
    for c, results in zip(chunks, parts):
        for i, g in zip(c, results):
            groups[i] = g
    return groups


def summarize(rules: Rules, bot_a: str | Callable[..., Bot], bot_b: str | Callable[..., Bot],
              seed: int | str | None,
              groups: Sequence[Sequence[tuple[int, tuple[int, int, int], bool]]],
              seconds: float = 0.0) -> dict:
    scale = _scale(rules)
    games = sum(len(g) for g in groups)
    wins = sum(r[1][0] for g in groups for r in g)
    draws = sum(r[1][1] for g in groups for r in g)
    losses = sum(r[1][2] for g in groups for r in g)
    firsts = sum(1 for g in groups for r in g if r[2])
    results = wins + draws + losses
    # Integer sums so that a bot against itself gives exactly zero.
    per_group = [sum(r[0] for r in g) for g in groups]
    k = len(groups[0]) if groups else 1
    total = sum(per_group)
    mean = total / (games * scale) if games else 0.0
    m = len(per_group)
    if m > 1:
        gm = [x / (k * scale) for x in per_group]
        mu = sum(gm) / m
        var = sum((x - mu) ** 2 for x in gm) / (m - 1)
        half = 1.96 * math.sqrt(var / m)
    else:
        half = float("inf") if m == 1 and total else 0.0
    if total == 0:
        mean = 0.0
    ci = [round(mean - half, 3), round(mean + half, 3)] if math.isfinite(half) else [None, None]
    return {
        "variant": rules.name,
        "bot_a": bot_a if isinstance(bot_a, str) else getattr(bot_a, "__name__", "bot"),
        "bot_b": bot_b if isinstance(bot_b, str) else getattr(bot_b, "__name__", "bot"),
        "seed": seed,
        "deals": len(groups),
        "games": games,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "win_rate": (wins + 0.5 * draws) / results if results else 0.0,
        "first_places": firsts,
        "mean_diff": round(mean, 3),
        "ci95": ci,
        "seconds": round(seconds, 2),
    }


class _BadArgs(Exception):
    pass


def _parser() -> argparse.ArgumentParser:
    import argparse  # here, not at the top: Pyodide's trimmed standard library has none

    class _Parser(argparse.ArgumentParser):
        def error(self, message: str) -> NoReturn:  # one line on stderr, exit 2
            raise _BadArgs(message)

    p = _Parser(prog="briscola arena", description="Duplicate-deal matches between two bots.")
    p.add_argument("--variant", default="classic", help="variant name (default classic)")
    p.add_argument("--bots", required=True, help="two bot names, A,B (e.g. expert,intermediate)")
    p.add_argument("--deals", type=int, default=100, help="deal groups to play (default 100)")
    p.add_argument("--seed", default="0", help="match seed (default 0)")
    p.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    return p


def cli(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = _parser().parse_args(argv)
        names = [b.strip() for b in args.bots.split(",")]
        if len(names) != 2 or not all(names):
            raise _BadArgs("--bots: give exactly two bot names separated by a comma, e.g. expert,random")
        if args.deals < 1:
            raise _BadArgs("--deals: must be at least 1")
        if args.workers < 1:
            raise _BadArgs("--workers: must be at least 1")
        rules = find_variant(args.variant)
        seed: int | str = int(args.seed) if args.seed.lstrip("-").isdigit() else args.seed
        result = run_arena(rules, names[0], names[1], args.deals, seed, workers=args.workers)
    except _BadArgs as e:
        print(f"briscola arena: {e}", file=sys.stderr)
        return 2
    except BriscolaError as e:
        print(f"briscola arena: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("briscola arena: interrupted", file=sys.stderr)
        return 130
    if args.json:
        print(json.dumps(result))
    else:
        print(format_result(result))
    return 0


def format_result(r: dict) -> str:
    lo, hi = r["ci95"]
    return (f"{r['variant']}: {r['bot_a']} v {r['bot_b']}, {r['deals']} deals "
            f"({r['games']} games): {r['bot_a']} wins {100 * r['win_rate']:.1f}% "
            f"(W{r['wins']} D{r['draws']} L{r['losses']}), mean diff {r['mean_diff']:+.2f} "
            f"points, 95% CI [{lo}, {hi}], {r['seconds']} s")


if __name__ == "__main__":
    sys.exit(cli())
