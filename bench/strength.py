#!/usr/bin/env python3
"""How strong the computer players are: duplicate-deal matches, printed as a markdown table.

    python bench/strength.py [--deals 2000] [--workers 2] [--only NAME,...] [--seed S]
    python bench/strength.py --paired "learned_worlds=192" [--base ""] [--against intermediate]
                             [--variant classic] [--deals 300] [--seed scr] [--workers 1]

Each row is one arena match (``briscola.arena.run_arena``): every deal is played with the
seats swapped (two players), the teams swapped (team games) or rotated (several players
alone), so the luck of the cards cancels out. ``--deals`` is the number of deal groups of
the two-player rows; the rows with more players and the long expert rows use a fraction of
it (shown in the table). Figures are reported as measured, targets met or not.

``--paired`` compares two settings of the expert on the same deals: the expert as it is
(or with ``--base``'s settings) and the expert with ``--paired``'s settings (``name=value``
pairs separated by commas, passed to :class:`briscola.ai.expert.ExpertBot`), each against
``--against`` over the same duplicate deal groups with the same seeds. Besides each one's
margin it prints the interval of the per-deal *difference* between the two: the luck of
the cards cancels twice (seats swapped, and the same deals for both), so a change is seen
with far fewer deals than two separate margins would need.

``--against base`` plays the two settings head to head instead, on the same duplicate deal
groups: the other settings' margin against the expert as it is (or ``--base``); with
``--tails``, each setting finishes the games against the base.

``--tails N`` with ``--paired`` (settings groups separated by ``;``) is cheaper when the
settings differ only in how the expert plays once at most ``N`` cards are left (hands and
talon: ``horizon``, ``samples``, ``node_budget``...): each game is played once by the
expert as it is (or ``--base``) up to that point, then finished once per setting from the
same position, the bots copied there (same random streams), which is what playing each
setting from the start would give.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if os.path.join(ROOT, "py") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "py"))

from briscola.arena import play_group, run_arena  # noqa: E402

# name, variant, bot A, bot B, share of --deals, target (kind, value) or None
PAIRINGS = [
    ("int-rand", "classic", "intermediate", "random", 1.0, ("win", 0.88)),
    ("exp-int", "classic", "expert", "intermediate", 1.0, ("diff", 15.0, 0.0, 0.70)),
    ("beg-rand", "classic", "beginner", "random", 1.0, None),
    ("int-beg", "classic", "intermediate", "beginner", 1.0, None),
    ("exp-int-four", "four", "expert", "intermediate", 0.25, ("diff", 20.0)),
    ("exp-rand", "classic", "expert", "random", 0.25, None),
    ("exp-int-three", "three", "expert", "intermediate", 0.1, ("diff", 12.0)),
    ("exp-int-six", "six", "expert", "intermediate", 0.05, ("diff", 12.0)),
    ("exp-int-double", "double", "expert", "intermediate", 0.1, ("diff", 12.0)),
    ("exp-int-scoperta", "scoperta", "expert", "intermediate", 0.1, ("diff", 12.0)),
    ("exp-int-bisca", "bisca", "expert", "intermediate", 0.1, ("diff", 12.0)),
    ("exp-int-bosnian", "bosnian", "expert", "intermediate", 0.1, ("diff", 12.0)),
    ("int-rand-four", "four", "intermediate", "random", 0.25, None),
]


def _target_text(target, r) -> tuple[str, str]:
    if target is None:
        return "–", "–"
    kind, value = target[0], target[1]
    if kind == "win":
        return f"≥ {100 * value:.0f} % wins", "yes" if r["win_rate"] >= value else "**no**"
    # ("diff", mean, lowest CI bound, win rate): the last two optional (CI above 0).
    floor = target[2] if len(target) > 2 else 0.0
    wins = target[3] if len(target) > 3 else None
    ok = r["mean_diff"] >= value and r["ci95"][0] is not None and r["ci95"][0] > floor
    text = f"≥ +{value:g} points, CI > {floor:+g}".replace("> +0", "> 0")
    if wins is not None:
        ok = ok and r["win_rate"] >= wins
        text += f", ≥ {100 * wins:.0f} % wins"
    return text, "yes" if ok else "**no**"


def _timed(run, *args, **kwargs):
    """``run(*args, **kwargs)`` and the seconds it took (wall clock)."""
    t0 = time.perf_counter()
    r = run(*args, **kwargs)
    return r, time.perf_counter() - t0


def _load() -> str:
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "?"


def _settings(text: str) -> dict:
    """``"a=1,b=x"`` -> ``{"a": 1, "b": "x"}`` (numbers, booleans and None as Python reads them)."""
    import ast
    out = {}
    for part in (x.strip() for x in text.split(",")):
        if not part:
            continue
        key, sep, value = part.partition("=")
        if not sep or not key.strip().isidentifier():
            raise ValueError(f"expected name=value, got {part!r}")
        try:
            out[key.strip()] = ast.literal_eval(value.strip())
        except (ValueError, SyntaxError):
            out[key.strip()] = value.strip()
    return out


def _expert(settings: dict):
    import functools
    from briscola.ai.expert import ExpertBot
    return functools.partial(ExpertBot, **settings)


def _checked(texts: list, over_base: bool = False):
    """Each settings text parsed and tried on an expert (merged over the first, the base, when
    `over_base`); None once a bad one is said."""
    try:
        parsed = [_settings(t) for t in texts]
        for one in parsed:
            _expert(dict(parsed[0], **one) if over_base else one)(seed=0)
    except (ValueError, TypeError) as e:
        print(f"strength: bad settings: {e}", file=sys.stderr)
        return None
    return parsed


def _paired_part(args):
    """Deal groups ``indices``: per group, (base's difference, other's difference); the
    base's from ``known`` (index -> difference) where given."""
    variant, base, other, against, seed, indices, known = args
    from briscola.ai import make_bot
    from briscola.rules import find_variant
    rules = find_variant(variant)
    fo = lambda s: make_bot(against, s)  # noqa: E731
    fa, fb = _expert(base), _expert(other)
    if against == "base":
        # Head to head: the other settings against the base's; the base's column is 0.
        return [(0, sum(r[0] for r in play_group(rules, fb, fa, seed, i))) for i in indices]
    out = []
    for i in indices:
        a = known.get(i)
        if a is None:
            a = sum(r[0] for r in play_group(rules, fa, fo, seed, i))
        b = sum(r[0] for r in play_group(rules, fb, fo, seed, i))
        out.append((a, b))
    return out


def _tails_part(args):
    """Deal groups ``indices``: per group, the expert's difference per setting (the first
    the base), the games shared up to ``left`` cards and finished once per setting."""
    import copy
    from briscola.ai import make_bot
    from briscola.arena import _score, seatings
    from briscola.game import Game
    from briscola.rules import find_variant
    variant, settings, against, seed, indices, left = args
    rules = find_variant(variant)
    fa = _expert(settings[0])
    fo = fa if against == "base" else (lambda s: make_bot(against, s))  # noqa: E731
    out = []
    for i in indices:
        totals = [0] * len(settings)
        wins = [0.0] * len(settings)
        for seating in seatings(rules):
            game = Game.new(rules, seed=f"{seed}:{i}")
            bots = [fa(f"{seed}:{i}:{s}") if seating[s] else fo(f"{seed}:{i}:{s}")
                    for s in range(rules.players)]
            for bot in bots:
                bot.reset()
            while not game.is_over:
                seat = game.current_player
                v = game.view(seat)
                if sum(v.hand_sizes) + v.talon_size <= left:
                    break
                game.apply(bots[seat].decide(v).action, seat)
            for k, extra in enumerate(settings):
                g = game.clone()
                bs = copy.deepcopy(bots)
                for s in range(rules.players):
                    if seating[s]:
                        for name, value in extra.items():
                            if not hasattr(bs[s], name):
                                raise ValueError(f"the expert has no setting {name!r}")
                            setattr(bs[s], name, value)
                while not g.is_over:
                    seat = g.current_player
                    g.apply(bs[seat].decide(g.view(seat)).action, seat)
                diff = _score(rules, g, seating)[0]
                totals[k] += diff
                wins[k] += 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0
        out.append((totals, wins))
    return out


def tails(variant: str, base: dict, others: list[dict], against: str, deals: int, seed,
          left: int, workers: int = 1) -> dict:
    """Like :func:`paired` for settings that change play only from ``left`` cards on."""
    from briscola.arena import group_divisor, over_workers, seatings
    from briscola.rules import find_variant
    rules = find_variant(variant)
    games = len(seatings(rules))
    scale = group_divisor(rules)  # points a deal, as the arena's margin
    settings = [base] + [dict(base, **o) for o in others]
    groups = over_workers(_tails_part, lambda c: (variant, settings, against, seed, c, left),
                          deals, workers)
    n = len(settings)
    cols = [[g[0][k] / scale for g in groups] for k in range(n)]
    wins = [[g[1][k] / games for g in groups] for k in range(n)]
    return {"margins": [_mean_ci(c) for c in cols],
            "wins": [sum(w) / len(w) for w in wins],
            "win_diffs": [_mean_ci([y - x for x, y in zip(wins[0], w)]) for w in wins[1:]],
            "diffs": [_mean_ci([y - x for x, y in zip(cols[0], c)]) for c in cols[1:]],
            "same": [sum(1 for x, y in zip(cols[0], c) if x == y) for c in cols[1:]],
            "deals": deals}


def _mean_ci(xs: list[float]) -> tuple[float, float]:
    import math
    m = len(xs)
    mu = sum(xs) / m
    var = sum((x - mu) ** 2 for x in xs) / (m - 1) if m > 1 else 0.0
    return mu, 1.96 * math.sqrt(var / m)


def paired(variant: str, base: dict, other: dict, against: str, deals: int, seed,
           workers: int = 1, cache: str | None = None) -> dict:
    """The expert with ``base`` and with ``other`` settings against ``against`` on the same
    duplicate deal groups: each margin and the per-group difference (other minus base).

    With ``cache`` (a JSON file), the base's results per deal group are read from it when
    there and written to it after: the bots are reproducible from their seeds, so the base
    need not be played again for the next comparison (change the file when the code of the
    expert changes)."""
    import json
    from briscola.arena import group_divisor, over_workers
    from briscola.rules import find_variant
    scale = group_divisor(find_variant(variant))  # points a deal, as the arena's margin
    tag = json.dumps([variant, base, against, str(seed)], sort_keys=True)
    store: dict = {}
    if cache and os.path.exists(cache):
        with open(cache) as f:
            store = json.load(f)
    known = {int(k): v for k, v in store.get(tag, {}).items()}
    groups = over_workers(_paired_part, lambda c: (variant, base, other, against, seed, c, known),
                          deals, workers)
    if cache:
        store[tag] = {str(i): g[0] for i, g in enumerate(groups)} | {
            str(k): v for k, v in known.items()}
        with open(cache, "w") as f:
            json.dump(store, f)
    a = [x / scale for x, _ in groups]
    b = [y / scale for _, y in groups]
    d = [y - x for x, y in zip(a, b)]
    return {"base": _mean_ci(a), "other": _mean_ci(b), "diff": _mean_ci(d),
            "same": sum(1 for x in d if x == 0), "deals": deals}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Arena strength table of the computer players.")
    ap.add_argument("--deals", type=int, default=2000, help="deal groups of the 2-player rows")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", default="strength")
    ap.add_argument("--only", default="", help="comma-separated row names: "
                    + ", ".join(p[0] for p in PAIRINGS))
    ap.add_argument("--paired", default=None, metavar="SETTINGS",
                    help="compare the expert with these settings (name=value,...) to --base")
    ap.add_argument("--base", default="", metavar="SETTINGS",
                    help="the expert's settings to compare against (default: as it is)")
    ap.add_argument("--against", default="intermediate",
                    help="the opponent of both settings; 'base': --paired against --base")
    ap.add_argument("--tails", type=int, default=None, metavar="N",
                    help="settings that change play only from N cards left: share the games "
                    "up to there (--paired may then hold several groups separated by ';')")
    ap.add_argument("--cache", default=None, metavar="FILE",
                    help="JSON file keeping the base's results per deal group")
    ap.add_argument("--variant", default="classic")
    args = ap.parse_args(argv)
    if args.paired is not None and args.tails is not None:
        texts = [x.strip() for x in args.paired.split(";") if x.strip()]
        checked = _checked([args.base] + texts, over_base=True)
        if checked is None:
            return 2
        base, others = checked[0], checked[1:]
        r, dt = _timed(tails, args.variant, base, others, args.against, args.deals, args.seed,
                       args.tails, args.workers)
        print(f"Paired from {args.tails} cards left: expert settings v {args.against}, "
              f"{args.variant}, {r['deals']} deal groups (seed {args.seed!r}, {args.workers} "
              f"workers, {dt:.0f} s, load {_load()})\n")
        print(f"| expert | mean diff v {args.against} | 95 % | minus the first | 95 % | "
              "same | wins | wins minus the first |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
        for k, label in enumerate([args.base or "as it is"] + texts):
            mu, half = r["margins"][k]
            if k:
                d, dh = r["diffs"][k - 1]
                w, wh = r["win_diffs"][k - 1]
                extra = (f"{d:+.2f} | ± {dh:.2f} | {r['same'][k - 1]} | "
                         f"{100 * r['wins'][k]:.1f}% | {100 * w:+.1f} ± {100 * wh:.1f} pp")
            else:
                extra = f"| | | {100 * r['wins'][k]:.1f}% |"
            print(f"| {label} | {mu:+.2f} | ± {half:.2f} | {extra} |")
        return 0
    if args.paired is not None:
        checked = _checked([args.base, args.paired])
        if checked is None:
            return 2
        base, other = checked
        r, dt = _timed(paired, args.variant, base, other, args.against, args.deals, args.seed,
                       args.workers, args.cache)
        print(f"Paired: expert [{args.base or 'as it is'}] and expert [{args.paired}] v "
              f"{args.against}, {args.variant}, {r['deals']} deal groups (seed "
              f"{args.seed!r}, {args.workers} workers, {dt:.0f} s, load {_load()})\n")
        print("| expert | mean diff v " + args.against + " | 95 % |")
        print("| --- | ---: | ---: |")
        for label, key in ((args.base or "as it is", "base"), (args.paired, "other"),
                           ("difference", "diff")):
            mu, half = r[key]
            print(f"| {label} | {mu:+.2f} | ± {half:.2f} |")
        print(f"\nDeal groups where both scored the same: {r['same']} of {r['deals']}")
        return 0
    only = {x for x in args.only.split(",") if x}
    unknown = only - {p[0] for p in PAIRINGS}
    if unknown:
        print(f"strength: unknown rows {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    print(f"Arena results (duplicate deals, seed {args.seed!r}); mean diff is bot A's side "
          "minus the other side per deal (several players alone: A minus the mean of the "
          "others)\n")
    print("| row | variant | A v B | deal groups | A wins | mean diff | 95 % CI | target | met | "
          "time |")
    print("| --- | --- | --- | ---: | ---: | ---: | --- | --- | --- | ---: |")
    sys.stdout.flush()
    for name, variant, a, b, share, target in PAIRINGS:
        if only and name not in only:
            continue
        deals = max(10, int(args.deals * share))
        r, dt = _timed(run_arena, variant, a, b, deals, args.seed, workers=args.workers)
        ttext, met = _target_text(target, r)
        lo, hi = r["ci95"]
        print(f"| {name} | {variant} | {a} v {b} | {deals} | {100 * r['win_rate']:.1f} % | "
              f"{r['mean_diff']:+.2f} | [{lo:+.2f}, {hi:+.2f}] | {ttext} | {met} | "
              f"{dt:.0f} s |")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
