"""The Chiamata learned evaluation: its inputs, the incremental sums at the search's leaves,
the self-play positions, and the training pipeline end to end."""
from __future__ import annotations

import os
import random
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_PY = os.path.join(ROOT, "py")
if _PY not in sys.path:
    sys.path.insert(0, _PY)

import pytest  # noqa: E402
from learnkit import play_out, train_tool  # noqa: E402

from briscola.ai.chiamata.expert import ChSolver, ExpertChiamataBot  # noqa: E402
from briscola.ai.learn import Model, read_model  # noqa: E402
from briscola.ai.learn.chiamata import (N_CH_INPUTS, ChNetEvaluator, encode,  # noqa: E402
                                        load_model)
from briscola.game import Game  # noqa: E402
from briscola.rules import find_variant  # noqa: E402


_tool = train_tool


def random_model(hidden: int = 12, seed: int = 3) -> Model:
    rng = random.Random(seed)
    w1 = [[rng.gauss(0, 0.3) for _ in range(hidden)] for _ in range(N_CH_INPUTS)]
    b1 = [rng.gauss(0, 0.3) for _ in range(hidden)]
    w2 = [rng.gauss(0, 0.3) for _ in range(hidden)]
    return Model({"name": "test", "inputs": N_CH_INPUTS, "hidden": hidden, "scale": 120.0},
                 w1, b1, w2, 0.3)


def fresh_value(model: Model, idx: list[int]) -> float:
    acc = list(model.b1)
    for i in idx:
        acc = [a + w for a, w in zip(acc, model.w1[i])]
    return (model.b2 + sum(a * w for a, w in zip(acc, model.w2) if a > 0)) * model.scale


def deal_hands(seed: int):
    rules = find_variant("chiamata")
    cards = list(rules.tables.deck_ints)
    rng = random.Random(seed)
    rng.shuffle(cards)
    return rules, rng, [sum(1 << c for c in cards[8 * s:8 * s + 8]) for s in range(5)]


def test_inputs_name_every_card_once_by_side_and_the_order_of_the_sides():
    rules, rng, hands = deal_hands(1)
    maxside = [True, False, True, False, False]
    idx = encode(rules, 2, hands, 3, maxside)
    assert len(idx) == len(set(idx)) == 40 + 2
    assert sum(1 for i in idx if i < 40) == 16  # two seats of eight cards
    order = rules.tables.rot[3]
    assert [i - 80 for i in idx if 80 <= i < 85] == [p for p, s in enumerate(order)
                                                      if maxside[s]]
    assert 85 not in idx
    assert 85 in encode(rules, 2, hands, 3, [False, True, False, False, False])
    # The trump suit's strongest card takes slot 9 of its holder's side.
    t = rules.tables
    ace = max((c for c in t.deck_ints if c // 13 == 2), key=lambda c: t.strength[c])
    holder = next(s for s in range(5) if hands[s] >> ace & 1)
    assert (9 if maxside[holder] else 49) in idx


@pytest.mark.parametrize("alone", [False, True])
def test_leaves_summed_incrementally_match_a_fresh_encoding(alone):
    model = random_model()
    checked = 0
    for k in range(6):
        rules, rng, hands = deal_hands(10 + k)
        trump = rng.randrange(4)
        caller = rng.randrange(5)
        partner = caller if alone else (caller + rng.randrange(1, 5)) % 5
        maxside = [s in (caller, partner) for s in range(5)]
        ev = ChNetEvaluator(model, rules, trump, maxside)
        # The root: some tricks already gone.
        for _ in range(rng.randrange(4)):
            hands = [h ^ (1 << rng.choice([c for c in range(64) if h >> c & 1]))
                     for h in hands]
        ev.start(hands)
        for leader in range(5):
            assert ev.value(hands, leader) == pytest.approx(
                fresh_value(model, encode(rules, trump, hands, leader, maxside)), abs=1e-9)
        # A leaf one trick (and a part of a second) below.
        for _ in range(5):
            leaf = list(hands)
            for s in range(5):
                if rng.random() < 0.9:
                    leaf[s] ^= 1 << rng.choice([c for c in range(64) if leaf[s] >> c & 1])
            leader = rng.randrange(5)
            want = fresh_value(model, encode(rules, trump, leaf, leader, maxside))
            assert ev.value(leaf, leader) == pytest.approx(want, abs=1e-9)
            got = ev(leaf, leader)
            left = sum(rules.tables.points[c] for h in leaf for c in range(64) if h >> c & 1)
            assert got == min(max(int(want + 0.5) if want >= 0 else 0, 0), left)
            checked += 1
    assert checked == 30


def test_selfplay_positions_add_up_and_are_reproducible():
    sp = _tool("chiamata_selfplay")
    rows = sp.generate("chiamata", 6, 4)
    assert rows == sp.generate("chiamata", 6, 4)
    assert rows != sp.generate("chiamata", 6, 5)
    assert {d for d, _p in rows} <= set(range(6)) and len(rows) >= 6
    rules = find_variant("chiamata")
    pts = rules.tables.points
    for _d, p in rows:
        left = sum(pts[c] for h in p["hands"] for c in range(64) if h >> c & 1)
        assert 0 <= p["label"] <= left
        assert 1 <= p["trick"] <= 5
        assert all(bin(h).count("1") == 8 - p["trick"] for h in p["hands"])
        assert p["inputs"] == encode(rules, p["trump"], p["hands"], p["leader"], p["maxside"])
        if p["trick"] == 5:  # three tricks left: the label is the exact solution
            g_hands = p["hands"]
            sol = ChSolver(rules, p["trump"], False)
            order = list(rules.tables.rot[p["leader"]])
            vals = sol.values(g_hands, [], order, p["maxside"],
                              [c for c in range(64) if g_hands[p["leader"]] >> c & 1])
            best = max if p["maxside"][p["leader"]] else min
            assert p["label"] == best(vals.values())


def test_training_pipeline_end_to_end(tmp_path):
    """A tiny run: positions, fit, the model file (i8), loaded back: the evaluator gives
    the numbers of the stored weights; the same seed gives the same file; held-out errors."""
    np = pytest.importorskip("numpy")
    sp, train, check = _tool("chiamata_selfplay"), _tool("train"), _tool("chiamata_check")
    data = tmp_path / "ch.npz"
    assert sp.main(["--deals", "25", "--seed", "3", "--out", str(data)]) == 0
    d = np.load(data)
    assert d["flags"].shape[1] == N_CH_INPUTS and len(np.unique(d["deals"])) > 10
    outs = []
    for k in range(2):
        out = tmp_path / f"chiamata_tiny{k}.bin"
        assert train.main([str(data), "--name", "chiamata_tiny", "--hidden", "6", "--epochs",
                           "2", "--format", "i8", "--seed", "2", "--out", str(out)]) == 0
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]
    model = read_model(outs[0], "chiamata_tiny", N_CH_INPUTS)
    assert model.meta["inputs"] == N_CH_INPUTS and model.meta["format"] == "i8"
    with pytest.raises(ValueError, match="its encoder has 181 inputs"):
        read_model(outs[0], "chiamata_tiny")  # not the classic encoder's inputs
    rules = find_variant("chiamata")
    for i in range(0, len(d["labels"]), 7):
        hands = [int(h) for h in d["hands"][i]]
        maxside = [bool(m) for m in d["maxside"][i]]
        ev = ChNetEvaluator(model, rules, int(d["trump"][i]), maxside)
        ev.start(hands)
        idx = [j for j in range(N_CH_INPUTS) if d["flags"][i, j]]
        assert ev.value(hands, int(d["leader"][i])) == pytest.approx(
            fresh_value(model, idx), abs=1e-9)
    got = check.errors([str(data)], model)
    assert set(got) == {"linear", "network"}
    assert got["network"]["all"][1] == len(d["labels"]) and got["linear"]["all"][0] < 30


@pytest.mark.parametrize("variant", ["chiamata", "chiamata-points"])
def test_the_expert_searches_with_a_network_and_plays_legally(variant, monkeypatch):
    """With a network (here random weights) the expert's one-trick search evaluates its
    leaves with it, plays only legal cards, and stays reproducible from its seed."""
    import briscola.ai.chiamata.expert as expert
    model = random_model()
    monkeypatch.setattr(expert, "load_model", lambda: model)

    def run(seed):
        g = Game.new(variant, seed=f"net:{seed}")
        bots = [ExpertChiamataBot(seed=f"{seed}:{s}", node_budget=3000, max_worlds=4,
                                  learned=True) for s in range(5)]
        modes = set()
        while not g.is_over:
            s = g.current_player
            d = bots[s].decide(g.view(s))
            modes.add(bots[s].last_info.get("mode"))
            g.apply(d.action, s)  # checked: an illegal action raises
        return list(g.actions), modes

    acts, modes = run(1)
    assert "mid" in modes
    assert run(1)[0] == acts


def test_without_shipped_weights_the_linear_evaluation_serves(monkeypatch):
    import briscola.ai.chiamata.expert as expert
    monkeypatch.setattr(expert, "load_model", lambda: None)
    assert ExpertChiamataBot(seed=1, learned=True).model is None
    assert ExpertChiamataBot(seed=1, learned=False).model is None
    if load_model() is not None:
        monkeypatch.undo()
        assert ExpertChiamataBot(seed=1, learned=True).model is load_model()


def test_the_expert_with_the_shipped_network_plays_many_legal_deals():
    """A light expert searching with the shipped network, at two seats of every deal, in
    both auctions and a carichi: every action checked by the engine, every deal adds up."""
    model = load_model()
    assert model is not None
    from briscola.ai import make_bot
    modes = set()
    for i in range(40):
        variant = ("chiamata", "chiamata-points")[i % 2]
        g = Game.new(variant, seed=f"legal-net:{i}")
        if i % 10 == 9:
            g.apply("carichi")
        bots = [ExpertChiamataBot(seed=f"{i}:{s}", node_budget=1500, max_worlds=3,
                                  learned=True) if s in (i % 5, (i + 2) % 5)
                else make_bot("intermediate", f"{i}:{s}") for s in range(5)]
        modes |= play_out(g, bots, ExpertChiamataBot)  # an illegal action raises
        assert sum(g.outcome().game_points) == 0
    assert "mid" in modes
