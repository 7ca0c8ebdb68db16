"""The engine's half of the fair deal (py/briscola/masked.py): what one device's engine spends
on a whole deal when it knows only its own seats' cards and those opened, against the whole
game's engine (Game) playing the same deal, in the same run.

For each variant, one device a seat; every device's engine is given the cards it is shown as
the fair protocol would (its own when dealt, every card when played) and every action. Per
device: the engine's time for the deal (reveals, actions, one view of its seat after each
action, as the page asks), and the same deal's cost on the whole game (apply, one view). The
median of --runs deals.

    python3 bench/masked.py [--runs N] [--json]
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "py"))

from briscola.game import Game  # noqa: E402
from briscola.masked import MaskedDeal  # noqa: E402
from briscola.rules import find_variant  # noqa: E402

VARIANTS = ["classic", "four", "chiamata"]


def one(name: str, seed: int) -> tuple[float, float, int]:
    rules = find_variant(name)
    g = Game.new(rules, seed=f"bench/{name}/{seed}")
    n = rules.players
    deals = [MaskedDeal(rules, g.dealer, sees={s}) for s in range(n)]
    spent = [0.0] * n
    whole = 0.0


    def sync() -> None:
        for k, d in enumerate(deals):
            t0 = time.perf_counter()
            for p in d.setup_needs():
                for j, e in enumerate(deals):
                    e.reveal(p, g.deck[p])
            for p in d.needs():
                d.reveal(p, g.deck[p])
            spent[k] += time.perf_counter() - t0

    sync()
    truth = Game._deal(rules, g.deck, g.dealer)
    while not g.is_over:
        cur = g.current_player
        v = deals[cur].view(cur)
        a = v.legal[(len(g.actions) * 7) % len(v.legal)]
        c = int(a)
        t0 = time.perf_counter()
        truth.apply(a, cur)
        truth.view(cur).to_dict()
        whole += time.perf_counter() - t0
        g.apply(a, cur)
        for k, d in enumerate(deals):
            t0 = time.perf_counter()
            if c < 52 and g.phase in (3, 4) and k != cur and c in g.deck:
                d.reveal(g.deck.index(c), c)
            d.act(a, cur)
            spent[k] += time.perf_counter() - t0
        sync()
        for k, d in enumerate(deals):
            t0 = time.perf_counter()
            if not d.is_over:
                d.view(k).to_dict()
            spent[k] += time.perf_counter() - t0
    for d in deals:
        d.check()
    return max(spent) * 1000, whole * 1000, len(g.actions)


def main() -> None:
    ap = argparse.ArgumentParser(description="one device's engine at a fair deal, against the whole game's")
    ap.add_argument("--runs", type=int, default=5, help="deals per variant (the median is shown)")
    ap.add_argument("--json", action="store_true", help="the rows as JSON")
    opts = ap.parse_args()
    runs = opts.runs
    rows = []
    for name in VARIANTS:
        got = [one(name, i) for i in range(runs)]
        rows.append({"variant": name, "actions": got[0][2],
                     "masked_ms": statistics.median(x[0] for x in got),
                     "whole_ms": statistics.median(x[1] for x in got)})
    if opts.json:
        print(json.dumps(rows))
        return
    print("| variant | actions | one device's engine, whole deal (ms) | the whole game's engine (ms) | per action (ms) |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for r in rows:
        print(f"| {r['variant']} | {r['actions']} | {r['masked_ms']:.0f} | {r['whole_ms']:.0f} | "
              f"{r['masked_ms'] / r['actions']:.1f} |")


if __name__ == "__main__":
    main()
