"""The model of the other players' choices (briscola.ai.policy): its reading of the past plays,
the replies in the searched trick, and the pipeline that fits it."""
from __future__ import annotations

import math
import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_PY = os.path.join(ROOT, "py")
if _PY not in sys.path:
    sys.path.insert(0, _PY)

import pytest  # noqa: E402
from learnkit import train_tool  # noqa: E402

from briscola.ai.common import Situation  # noqa: E402
from briscola.ai.policy import (N_POLICY, PolicyEvidence, ReplyModel,  # noqa: E402
                                card_features)
from briscola.ai.policy_weights import WEIGHTS  # noqa: E402
from briscola.ai.rollout import FastPolicy  # noqa: E402
from briscola.game import Game  # noqa: E402
from briscola.rules import VARIANTS  # noqa: E402


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


@pytest.mark.parametrize("variant", ["classic", "four"])
def test_every_past_play_is_read_as_it_was_decided(variant):
    """Each play of another seat is read back from the history with the same context as the
    seat had when it decided (the reply model's, at the decision), and a play in the current
    trick is scored on the exact hand the seat held: its chance is the softmax share."""
    rules = VARIANTS[variant]
    n = rules.players
    w = WEIGHTS.get(variant) or WEIGHTS["classic"]
    rng = random.Random(variant)
    checked = 0
    for k in range(3):
        g = Game.new(rules, seed=f"policy-{k}")
        fp = FastPolicy(rules, g.trump)
        while not g.is_over:
            seat = g.current_player
            v = g.view(seat)
            hand = [int(c) for c in v.hand]
            replies = ReplyModel(Situation(v), fp, w)
            score = replies(seat, len(v.trick), *_best(v, fp), 0)
            action = rng.choice(v.legal)
            g.apply(action, seat)
            if len(hand) < 2 or g.is_over or not g.trick:
                continue
            other = (seat + 1) % n
            sit = Situation(g.view(other))
            ev = PolicyEvidence(sit, fp, w, uniform=0.0)
            r = ev.records[-1]
            assert (r.seat, r.card, r.n) == (seat, int(action), len(hand))
            hands = [_mask(h) for h in g.hands]
            z = [score(x) for x in hand]
            want = score(int(action)) / sum(z)
            assert ev.weight(hands) == pytest.approx(
                want * math.prod(_share(r2, hands, ev) for r2 in ev.records[:-1]))
            checked += 1
    assert checked > 10


def _best(v, fp):
    b, bs, tp = -1, -1, 0
    for s, c in v.trick:
        c = int(c)
        tp += fp.pts[c]
        if b < 0 or fp.beats[(b << 6) | c]:
            b, bs = c, s
    return b, bs, tp


def _share(r, hands, ev) -> float:
    one = PolicyEvidence.__new__(PolicyEvidence)
    one.fp, one.weights, one.uniform, one.power, one.records = ev.fp, ev.weights, 0.0, 1.0, [r]
    return one.weight(hands)


def test_the_true_hands_look_likelier_than_a_random_deal():
    """Against players who play like the model, the real deal gets more weight on average
    than the sampled worlds do."""
    from briscola.ai import make_bot
    from briscola.ai.sampler import Sampler
    rules = VARIANTS["classic"]
    ahead = total = 0
    for k in range(3):
        g = Game.new(rules, seed=f"likely-{k}")
        bots = [make_bot("intermediate", s) for s in range(2)]
        fp = FastPolicy(rules, g.trump)
        while not g.is_over:
            seat = g.current_player
            v = g.view(seat)
            if 2 < v.talon_size < 26:
                sit = Situation(v)
                ev = PolicyEvidence(sit, fp, WEIGHTS["classic"])
                smp = Sampler(sit, random.Random(k))
                mean = sum(math.log(ev.weight(smp.sample().hands)) for _ in range(30)) / 30
                ahead += math.log(ev.weight([_mask(h) for h in g.hands])) > mean
                total += 1
            g.apply(bots[seat].decide(v).action, seat)
    assert ahead > 0.7 * total


def test_features_stay_in_the_weights():
    rules = VARIANTS["classic"]
    fp = FastPolicy(rules, 0)
    for x in rules.tables.deck_ints:
        for b in (-1, 0, 13, 39):
            for i, _v in card_features(fp, 1, x, (3, 3), rules.tables.deck_mask, 0, (0, 1),
                                       0 if b < 0 else 1, b, 0 if b >= 0 else -1, 0, 30, 40.0):
                assert 0 <= i < N_POLICY
    assert all(len(w) == N_POLICY for w in WEIGHTS.values())


def test_policy_pipeline_end_to_end(tmp_path, capsys):
    """A few self-play deals, then the fit: a likelier choice than uniform, printed as the
    weights module's table."""
    tool = train_tool("policy")
    out = tmp_path / "d.pkl"
    assert tool.main(["data", "--deals", "3", "--seed", "t", "--bot", "intermediate",
                      "--out", str(out)]) == 0
    assert tool.main(["fit", str(out)]) == 0
    text = capsys.readouterr().out
    line = next(x for x in text.splitlines() if x.startswith("all "))
    got = float(line.split("choice ")[1])
    decisions = [x for d in __import__("pickle").load(open(out, "rb")) for x in d]
    uniform = -sum(math.log(len(f)) for f, _c in decisions) / len(decisions)
    assert got > uniform + 0.1
    table = text[text.index("(\n"):]
    assert len(eval(table)) == N_POLICY  # noqa: S307 - our own output


def test_head_to_head_screen_of_equal_settings_is_exactly_even():
    """``bench/strength.py --against base`` plays the two settings against each other on
    duplicate deals; the same settings on both sides cancel exactly."""
    from learnkit import script
    strength = script("bench", "strength")
    light = {"learned_worlds": 4, "samples": 3, "node_limit": 4000}
    r = strength.paired("classic", light, light, "base", 3, "even")
    assert r["other"] == (0.0, 0.0) and r["same"] == 3


@pytest.mark.parametrize("variant", ["classic", "four"])
def test_the_options_never_read_hidden_cards(variant):
    """With the model's weighing (learned search and exact search) and replies on, the same
    view with the hidden cards dealt otherwise gives the same card, and the weighing is
    used where the variant has a fitted model (else the heuristic's reading is)."""
    from test_ai import _hidden_twin

    from briscola.ai.expert import ExpertBot
    import briscola.ai.policy as policy
    rules = VARIANTS[variant]
    rng = random.Random(variant)
    calls = []
    real = policy.PolicyEvidence.weight

    def spy(self, hands):
        calls.append(1)
        return real(self, hands)

    policy.PolicyEvidence.weight = spy
    try:
        checked = 0
        for k in range(8):
            g = Game.new(rules, seed=f"policy-blind-{k}")
            for _ in range(rng.randrange(4, len(rules.tables.deck) - 2)):
                if g.is_over:
                    break
                g.apply_fast(rng.choice(g.legal_actions_fast()))
            if g.is_over:
                continue
            seat = g.current_player
            twin = _hidden_twin(g, seat)
            v1, v2 = g.view(seat), twin.view(seat)
            assert v1.to_dict() == v2.to_dict()
            opts = dict(learned_worlds=6, samples=3, node_limit=4000, learned_inference=2,
                        inference=2, learned_policy=1.0, learned_replies=True)
            assert ExpertBot(seed=3, **opts).decide(v1) == ExpertBot(seed=3, **opts).decide(v2)
            checked += 1
        assert checked
    finally:
        policy.PolicyEvidence.weight = real
    assert bool(calls) == (variant in WEIGHTS)
