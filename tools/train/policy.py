"""The model of the other players' choices of card (``briscola.ai.policy``): decisions from
self-play, then a conditional logit fitted by maximum likelihood.

    python tools/train/policy.py data --variant classic --bot expert --deals 400 --seed 1 \\
        --out /tmp/policy.pkl
    python tools/train/policy.py fit /tmp/policy.pkl [/tmp/more.pkl ...] [--ridge 0.01]

``data`` plays deals with ``--bot`` at every seat and keeps each decision with two cards or
more: the features of every card in the seat's hand, as the expert reads that play later
from another seat (the same :class:`~briscola.ai.policy.PolicyEvidence` context), and which
was played. ``fit`` prints the log-likelihood a choice on the fitted decisions and on the
last tenth of the deals held out (fitted on the rest), then the weights as Python source
for ``py/briscola/ai/policy_weights.py``. The same seed gives the same file.
"""
from __future__ import annotations

import argparse
import os
import pickle
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if os.path.join(ROOT, "py") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "py"))

from briscola.ai.policy import N_POLICY, PolicyEvidence, card_features  # noqa: E402


def deal_decisions(rules, deal_seed: str, bot: str) -> list:
    """One deal played by ``bot`` at every seat: per decision with a choice, (features of
    each card in hand, index of the card played)."""
    from briscola.ai import make_bot
    from briscola.ai.common import Situation
    from briscola.ai.rollout import FastPolicy
    from briscola.game import Game
    n = rules.players
    game = Game.new(rules, seed=deal_seed)
    bots = [make_bot(bot, f"{deal_seed}:{s}") for s in range(n)]
    for b in bots:
        b.reset()
    fp = FastPolicy(rules, game.trump)
    out = []
    while not game.is_over:
        seat = game.current_player
        view = game.view(seat)
        hand = [int(c) for c in view.hand]
        action = bots[seat].decide(view).action
        game.apply(action, seat)
        if len(hand) < 2 or game.is_over:
            continue
        # The play as another seat reads it afterwards.
        other = (seat + 1) % n
        ev = PolicyEvidence(Situation(game.view(other)), fp, [0.0] * N_POLICY)
        r = next((r for r in reversed(ev.records) if r.seat == seat), None)
        if r is None or r.card != int(action):
            continue
        s, sizes, live, fh, o, pos, b, bs, tp, tn, deck = r.ctx
        feats = [card_features(fp, s, x, sizes, live, fh, o, pos, b, bs, tp, tn, deck)
                 for x in hand]
        out.append((feats, hand.index(int(action))))
    return out


def generate(variant: str, bot: str, deals: int, seed) -> list:
    from briscola.rules import find_variant
    rules = find_variant(variant)
    return [deal_decisions(rules, f"policy:{variant}:{seed}:{i}", bot) for i in range(deals)]


def fit(decisions: list, ridge: float = 0.01):
    """The weights maximizing the likelihood of the choices (a little ridge), and the
    log-likelihood a choice they reach."""
    import numpy as np
    from scipy.optimize import minimize
    width = max(len(f) for f, _c in decisions)
    k = max(len(x) for f, _c in decisions for x in f)
    m = len(decisions)
    idx = np.full((m, width, k), N_POLICY, dtype=np.int64)  # N_POLICY: a zero slot
    val = np.zeros((m, width, k))
    valid = np.zeros((m, width), dtype=bool)
    chosen = np.zeros(m, dtype=np.int64)
    for d, (feats, c) in enumerate(decisions):
        chosen[d] = c
        for j, f in enumerate(feats):
            valid[d, j] = True
            for q, (i, v) in enumerate(f):
                idx[d, j, q] = i
                val[d, j, q] = v
    rows = np.arange(m)

    def nll(w):
        wz = np.append(w, 0.0)
        z = np.where(valid, (wz[idx] * val).sum(axis=2), -1e9)
        zmax = z.max(axis=1, keepdims=True)
        e = np.exp(z - zmax) * valid
        tot = e.sum(axis=1, keepdims=True)
        ll = (z[rows, chosen] - zmax[:, 0] - np.log(tot[:, 0])).sum()
        g = -e / tot
        g[rows, chosen] += 1.0
        grad = np.zeros(N_POLICY + 1)
        np.add.at(grad, idx.reshape(-1), (g[:, :, None] * val).reshape(-1))
        return -ll + ridge * (w * w).sum(), -grad[:N_POLICY] + 2 * ridge * w

    res = minimize(nll, np.zeros(N_POLICY), jac=True, method="L-BFGS-B")
    return res.x, -(res.fun - ridge * float((res.x ** 2).sum())) / m


def loglik(decisions: list, w) -> float:
    import math
    total = 0.0
    for feats, c in decisions:
        z = [sum(w[i] * v for i, v in f) for f in feats]
        top = max(z)
        total += z[c] - top - math.log(sum(math.exp(x - top) for x in z))
    return total / len(decisions)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    pd = sub.add_parser("data")
    pd.add_argument("--variant", default="classic")
    pd.add_argument("--bot", default="expert")
    pd.add_argument("--deals", type=int, default=400)
    pd.add_argument("--seed", default="1")
    pd.add_argument("--out", required=True)
    pf = sub.add_parser("fit")
    pf.add_argument("files", nargs="+")
    pf.add_argument("--ridge", type=float, default=0.01)
    args = ap.parse_args(argv)
    if args.cmd == "data":
        deals = generate(args.variant, args.bot, args.deals, args.seed)
        with open(args.out, "wb") as f:
            pickle.dump(deals, f)
        print(f"{args.out}: {sum(len(d) for d in deals)} decisions from {len(deals)} deals")
        return 0
    deals = []
    for name in args.files:
        with open(name, "rb") as f:
            deals.extend(pickle.load(f))
    cut = len(deals) - len(deals) // 10
    train = [x for d in deals[:cut] for x in d]
    held = [x for d in deals[cut:] for x in d]
    import math
    uniform = sum(math.log(len(f)) for f, _c in held) / max(len(held), 1)
    if held:
        w, _ = fit(train, args.ridge)
        print(f"held out ({len(held)} choices): log-likelihood a choice {loglik(held, w):.3f} "
              f"(uniform {-uniform:.3f}; the heuristic alone: see the weight at the end)")
    every = train + held
    w, ll = fit(every, args.ridge)
    print(f"all {len(every)} choices: log-likelihood a choice {ll:.3f}")
    print("(")
    for i in range(0, len(w), 8):
        print("    " + ", ".join(f"{round(float(x), 3):g}" for x in w[i:i + 8]) + ",")
    print(")")
    return 0


if __name__ == "__main__":
    sys.exit(main())
