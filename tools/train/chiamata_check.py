"""The Chiamata evaluations' errors on positions they were not fitted on.

    python tools/train/chiamata_check.py held_out.npz [more.npz] [--weights candidate.bin]

For each position of ``chiamata_selfplay.py`` files (use a seed the training did not see),
the root mean squared error, in card points, of the expert's fitted linear
:class:`~briscola.ai.chiamata.expert.Evaluator` and of the learned network
(:class:`~briscola.ai.learn.chiamata.ChNetEvaluator`: the shipped weights, or a model
file written by ``train.py --out``), both as the search uses them (rounded, within 0 and
the points still in hands), overall and by the trick the position starts.
"""
from __future__ import annotations

import argparse
import math
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if os.path.join(ROOT, "py") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "py"))

from briscola.ai.chiamata.expert import Evaluator  # noqa: E402
from briscola.ai.learn import load_file  # noqa: E402
from briscola.ai.learn.chiamata import N_CH_INPUTS, ChNetEvaluator, load_model  # noqa: E402
from briscola.rules import find_variant  # noqa: E402


def model_from(path: str | None):
    return load_file(path, N_CH_INPUTS) if path else load_model()


def errors(paths: list[str], model, variant: str = "chiamata") -> dict:
    """{'linear' | 'network': {trick or 'all': (rmse, positions)}}."""
    import numpy as np
    rules = find_variant(variant)
    sq = {"linear": {}, "network": {}}
    for p in paths:
        d = np.load(p)
        for i in range(len(d["labels"])):
            hands = [int(h) for h in d["hands"][i]]
            maxside = [bool(m) for m in d["maxside"][i]]
            trump, leader = int(d["trump"][i]), int(d["leader"][i])
            trump = None if trump < 0 else trump
            y = float(d["labels"][i])
            k = int(d["trick"][i])
            got = {"linear": Evaluator(rules, trump, maxside)(hands, leader)}
            if model is not None:
                net = ChNetEvaluator(model, rules, trump, maxside)
                net.start(hands)
                got["network"] = net(hands, leader)
            for name, v in got.items():
                for key in (k, "all"):
                    s, n = sq[name].get(key, (0.0, 0))
                    sq[name][key] = (s + (v - y) ** 2, n + 1)
    return {name: {k: (math.sqrt(s / n), n) for k, (s, n) in by.items()}
            for name, by in sq.items() if by}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Held-out errors of the Chiamata evaluations.")
    ap.add_argument("data", nargs="+")
    ap.add_argument("--weights", default=None, help="a model file, train.py --out (default: the shipped one)")
    args = ap.parse_args(argv)
    model = model_from(args.weights)
    got = errors(args.data, model)
    keys = sorted(k for k in got["linear"] if k != "all") + ["all"]
    print("| evaluation | " + " | ".join(f"trick {k + 1}" if k != "all" else "all"
                                          for k in keys) + " |")
    print("| --- |" + " ---: |" * len(keys))
    for name, by in got.items():
        print(f"| {name} | " + " | ".join(f"{by[k][0]:.2f}" for k in keys) + " |")
    print(f"({got['linear']['all'][1]} positions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
