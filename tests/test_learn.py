"""The learned evaluation: its encoding, the shipped weights, and the training pipeline."""
from __future__ import annotations

import json
import os
import random
import sys
from pathlib import Path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_PY = os.path.join(ROOT, "py")
if _PY not in sys.path:
    sys.path.insert(0, _PY)

import pytest  # noqa: E402
from learnkit import minimax, play_out, train_tool  # noqa: E402

from briscola.ai.expert import ExpertBot  # noqa: E402
from briscola.ai.learn import (N_FLAGS, N_INPUTS, Encoder, Model, load, load_file,  # noqa: E402
                                model_name, read_model)
from briscola.game import Game  # noqa: E402
from briscola.rules import VARIANTS, find_variant  # noqa: E402

np = pytest.importorskip("numpy")


_tool = train_tool


def _numpy_value(model: Model, flags, scalars) -> float:
    x = np.zeros(N_INPUTS)
    x[flags] = 1.0
    x[N_FLAGS:] = scalars
    w1 = np.array(model.w1)
    h = np.maximum(x @ w1 + np.array(model.b1), 0.0)
    return float(h @ np.array(model.w2) + model.b2) * model.scale


def sample_positions(variant: str, deals: int, seed: int):
    selfplay = _tool("selfplay")
    return selfplay.generate(variant, deals, seed)


@pytest.mark.parametrize("name", ["classic", "four"])
def test_shipped_model_loads_and_matches_numpy(name):
    model = load(name)
    assert model is not None and model.meta["name"] == name
    variant = "classic" if name == "classic" else "four"
    for flags, scal, label in sample_positions(variant, 3, 5)[:40]:
        v = model.value(flags, scal)
        assert v == pytest.approx(_numpy_value(model, flags, scal), abs=1e-6)
        assert -10.0 < v < 130.0


def test_models_only_where_they_were_trained():
    from briscola.rules import Rules
    assert model_name(find_variant("classic")) == "classic"
    assert model_name(find_variant("best-of-3")) == "classic"
    assert model_name(find_variant("four")) == "four"
    for name in ("three", "six", "double", "scoperta", "bisca", "bosnian"):
        assert model_name(find_variant(name)) == name
    # Variants on other positions than those trained on: house rules, other decks, other
    # numbers of players, two of these variants at once.
    for name in ("four-signals", "six-signals", "double-four", "bosnian-three", "bosnian-four",
                 "bosnian-five", "french", "french-southern", "natural-three", "rebury",
                 "exchange-two", "exchange-seven", "chiamata", "chiamata-points"):
        assert model_name(find_variant(name)) is None, name
    assert model_name(Rules(players=3, removed_two="2S")) is None
    assert model_name(Rules(double=True, open_hands=True)) is None
    assert model_name(Rules(open_hands=True, rebury=True)) is None
    assert model_name(Rules(deck="french", ranking="bisca", open_hands=True)) is None
    assert model_name(Rules(players=6, partner_view="never")) is None
    assert load("no-such-model") is None


def _first_tricks_add_up(positions, deals):
    """Each deal's first two positions (one a seat, 40 a deal): labels adding up to the whole
    deck's points; each seat sees its own three cards and 36 unseen (the face-up card apart)."""
    assert len(positions) == deals * 40
    for d in range(deals):
        first = positions[d * 40:d * 40 + 2]
        assert first[0][2] + first[1][2] == 120
        for flags, scal, _ in first:
            assert sum(1 for f in flags if f < 40) == 3
            assert sum(1 for f in flags if 40 <= f < 80) == 36
            assert scal[:2] == [0.0, 0.0]


def test_selfplay_labels_add_up():
    """At the first trick, the two seats' labels are the whole deck's points."""
    _first_tricks_add_up(_tool("selfplay").generate("classic", 4, 9, deviate=False), 4)
    # With the exact solver from 12 cards left, the deal stops there (15 trick starts), and
    # the labels of the two seats still add up to the deck's points.
    solved = _tool("selfplay").generate("classic", 3, 9, solve_from=12, deviate=False)
    assert len(solved) == 3 * 30
    assert all(solved[i][2] + solved[i + 1][2] == 120 for i in range(0, 90, 30))
    # One random card a deal: positions from the trick after it only.
    dev = _tool("selfplay").generate("classic", 10, 9, solve_from=12)
    assert 0 < len(dev) < 10 * 30 and len(dev) % 2 == 0


def test_bot_selfplay_labels_the_bot_seats_only():
    """Deals played by the package's players: the views of the named player's seat only,
    labels adding up to the deck's points, the same seed giving the same positions."""
    selfplay = _tool("selfplay")
    _first_tricks_add_up(selfplay.generate("classic", 2, 9, deviate=False, bot="intermediate",
                                           against="intermediate"), 2)
    one = selfplay.generate("classic", 2, 9, solve_from=12, deviate=False, bot="expert")
    assert len(one) == 2 * 15  # one seat a deal, up to 12 cards left
    assert all(0 <= lab <= 120 for _f, _s, lab in one)
    again = selfplay.generate("classic", 2, 9, solve_from=12, deviate=False, bot="expert")
    assert [(f, s, lab) for f, s, lab in one] == [(f, s, lab) for f, s, lab in again]


def test_training_pipeline_end_to_end(tmp_path):
    """A tiny run: self-play, fit, write the model file, load it back, same numbers."""
    selfplay, train = _tool("selfplay"), _tool("train")
    flags, scal, y = selfplay.to_arrays(selfplay.generate("classic", 20, 3))
    path = tmp_path / "tiny.npz"
    np.savez_compressed(path, flags=flags, scalars=scal, labels=y)
    x, y2 = train.load_data([str(path)])
    assert x.shape == (len(y), N_INPUTS) and len(y) > 100 and (y2 == y).all()
    p1, err1, _ = train.fit(x, y2, 120.0, 8, 2, seed=4, log=lambda s: None)
    p2, err2, _ = train.fit(x, y2, 120.0, 8, 2, seed=4, log=lambda s: None)
    assert err1 == err2 and all((a == b).all() for a, b in zip(p1, p2))  # reproducible
    assert err1 < 40.0
    # Fine-tuning starts from the given weights: no epoch leaves them as they were.
    p3, err3, _ = train.fit(x, y2, 120.0, 8, 0, seed=4, log=lambda s: None, init=p1)
    assert err3 == pytest.approx(err1, rel=1e-5) and all((a == b).all() for a, b in zip(p1, p3))
    p4, _, _ = train.fit(x, y2, 120.0, 8, 1, seed=4, log=lambda s: None, init=p1)
    assert not all((a == b).all() for a, b in zip(p1, p4))
    sizes = {}
    for fmt in ("f16", "i8"):
        out = tmp_path / f"tiny_{fmt}.bin"
        meta = {"name": "tiny", "inputs": N_INPUTS, "hidden": 8, "scale": 120.0,
                "format": fmt}
        sizes[fmt] = train.write_model(str(out), p1, meta)
        data = out.read_bytes()
        assert len(data) == sizes[fmt] + 7 + len(json.dumps(meta, separators=(",", ":")))
        model = load_file(str(out))
        assert model.meta == meta
        (w1, b1, w2, b2), _raw = train.quantize(p1, fmt)
        f32 = [np.asarray(p, dtype=np.float64) for p in p1]
        for i in range(0, len(y), 37):
            xi = x[i].astype(np.float64)
            want = float(np.maximum(xi @ w1 + b1, 0) @ w2 + b2[0]) * 120.0
            exact = float(np.maximum(xi @ f32[0] + f32[1], 0) @ f32[2] + f32[3][0]) * 120.0
            f = [j for j in range(N_FLAGS) if x[i, j]]
            got = model.value(f, list(map(float, x[i, N_FLAGS:])))
            assert got == pytest.approx(want, abs=1e-3)
            assert got == pytest.approx(exact, abs=1.0)  # storing loses little
        with pytest.raises(ValueError, match="model 'tiny'.*for 181 inputs and 9 hidden"):
            Model.from_bytes(dict(meta, hidden=9), data[len(data) - sizes[fmt]:])
        with pytest.raises(ValueError, match="model 'other'.*holds the model 'tiny'"):
            read_model(data, "other")
    assert sizes["i8"] < 0.7 * sizes["f16"]  # about half for the shipped layer sizes



def test_requantize_rewrites_a_shipped_network_in_another_format(tmp_path, capsys):
    """tools/train/requantize.py: the shipped network in f16 and back in i8, the same numbers
    (within the storing), the i8 bytes unchanged, and --check reports the change."""
    selfplay, requantize = _tool("selfplay"), _tool("requantize")
    flags, scal, y = selfplay.to_arrays(selfplay.generate("classic", 6, 8))
    data = tmp_path / "check.npz"
    np.savez_compressed(data, flags=flags, scalars=scal, labels=y)
    shipped = load("classic")
    assert shipped.meta.get("format") == "i8"
    models = {}
    for fmt in ("f16", "i8"):
        out = tmp_path / f"classic_{fmt}.bin"
        assert requantize.main(["classic", "--format", fmt, "--out", str(out),
                                "--check", str(data)]) == 0
        assert "change rms" in capsys.readouterr().out
        models[fmt] = model = read_model(out.read_bytes(), "classic")
        assert model.meta.get("format", "f16") == fmt
        assert {k: v for k, v in model.meta.items() if k != "format"} == \
            {k: v for k, v in shipped.meta.items() if k != "format"}
        if fmt == "i8":  # already i8: the same bytes as the package's file
            assert out.read_bytes() == (Path(_PY) / "briscola" / "ai" / "learn" / "models"
                                        / "classic.bin").read_bytes()
    for f, sc, _label in sample_positions("classic", 2, 9)[:30]:
        v = shipped.value(f, sc)
        assert models["f16"].value(f, sc) == pytest.approx(v, abs=0.05)
        assert models["i8"].value(f, sc) == pytest.approx(v, abs=1e-9)
    assert requantize.main(["nonesuch", "--format", "i8", "--out", str(tmp_path / "x.bin")]) == 2
    assert not (tmp_path / "x.bin").exists()

def test_whole_deals_are_held_out(tmp_path):
    """selfplay.py notes each position's deal, and training holds out whole deals: a deal's
    positions are alike, so a held-out position of a trained deal would flatter the error."""
    selfplay, train = _tool("selfplay"), _tool("train")
    sizes: list = []
    samples = selfplay.generate("classic", 12, 5, sizes=sizes)
    assert len(sizes) == 12 and sum(sizes) == len(samples) and min(sizes) > 0
    flags, scal, y = selfplay.to_arrays(samples)
    deals = np.repeat(np.arange(12), sizes)
    paths = []
    for k, part in enumerate((slice(0, sizes[0] + sizes[1]), slice(sizes[0] + sizes[1], None))):
        paths.append(str(tmp_path / f"part{k}.npz"))
        np.savez_compressed(paths[-1], flags=flags[part], scalars=scal[part], labels=y[part],
                            deals=deals[part] - deals[part].min())
    got = train.load_deals(paths)
    assert (got == deals).all()  # numbered across the files
    val, tr = train.split(np.random.default_rng(2), len(y), got)
    assert set(got[val]).isdisjoint(set(got[tr])) and len(val) + len(tr) == len(y)
    assert len(set(got[val])) == 1  # a tenth of 12 deals
    again = train.split(np.random.default_rng(2), len(y), got)
    assert (again[0] == val).all()
    # Older files without deals: positions are held out, as before.
    np.savez_compressed(tmp_path / "old.npz", flags=flags, scalars=scal, labels=y)
    assert train.load_deals([paths[0], str(tmp_path / "old.npz")]) is None
    v2, t2 = train.split(np.random.default_rng(2), len(y))
    assert len(v2) == len(y) // 10 and len(v2) + len(t2) == len(y)
    x, _ = train.load_data(paths)
    _, err, n_train = train.fit(x, y, 120.0, 8, 1, seed=4, log=lambda s: None, deals=got)
    assert n_train == len(train.split(np.random.default_rng(4), len(y), got)[1])


def test_encoder_slots_put_trump_first():
    rules = find_variant("classic")
    enc = Encoder(rules, 2)  # trump: swords
    slots = [enc.slot[c] for c in rules.tables.deck_ints]
    assert sorted(slots) == list(range(40))
    from briscola.cards import Card
    assert enc.slot[int(Card.parse("AS"))] == 9  # the trump ace: suit slot 0, the top rank
    assert enc.slot[int(Card.parse("2S"))] == 0
    assert enc.slot[int(Card.parse("AD"))] == 19


@pytest.mark.parametrize("variant", ["classic", "four"])
def test_expert_searches_with_the_model_from_the_first_trick(variant):
    rules = VARIANTS[variant]
    g = Game.new(rules, seed="learned")
    bot = ExpertBot(seed=1)
    modes = []
    rng = random.Random(2)
    while not g.is_over:
        seat = g.current_player
        v = g.view(seat)
        if seat == 0:
            d = bot.decide(v)
            modes.append(bot.last_info.get("mode"))
            g.apply(d.action, seat)
        else:
            g.apply(rng.choice(v.legal), seat)
    assert modes[0] == "learned"
    assert "learned" in modes and ("exact" in modes or "sampled" in modes)


@pytest.mark.parametrize("variant,horizon,pool", [("classic", 10, 4), ("four", 16, 0),
                                                  ("bisca", 10, 4), ("french", 12, 0)])
def test_horizon_and_inference_as_measured_for_the_model(variant, horizon, pool, monkeypatch):
    """Two-player Briscola with its network (and Bisca with its own) searches with it down
    to 10 cards left and weighs its worlds by the other player's last plays (4 drawn a world
    kept); the four-player network and variants without one (the French deck) keep the usual
    horizon and no weighing. Settings given to the bot still win over these."""
    import briscola.ai.expert as expert
    pools = []
    real = expert.learned_values

    def spy(*args, **kw):
        pools.append(kw.get("pool"))
        return real(*args, **kw)

    monkeypatch.setattr(expert, "learned_values", spy)
    rules = VARIANTS[variant]
    rng = random.Random(5)
    for given in ({}, {"horizon": 14, "learned_inference": 2}):
        g = Game.new(rules, seed="defaults")
        bot = ExpertBot(seed=1, learned_worlds=4, samples=3, **given)
        searched_from = None
        pools.clear()
        while not g.is_over:
            seat = g.current_player
            v = g.view(seat)
            if seat == 0 and len(v.legal) > 1:
                d = bot.decide(v)
                left = sum(v.hand_sizes) + v.talon_size
                if bot.last_info.get("mode") in ("sampled", "exact") and searched_from is None:
                    searched_from = left
                g.apply(d.action, seat)
            else:
                g.apply(rng.choice(v.legal), seat)
        want_h = given.get("horizon", horizon)
        assert searched_from is not None and searched_from <= want_h
        assert searched_from > want_h - rules.players
        if load(model_name(rules) or "none"):
            assert pools and set(pools) == {given.get("learned_inference", pool)}
        else:
            assert not pools


def test_evaluations_a_decision_as_set_for_the_model(monkeypatch):
    """Six players' search stops after 1,200 evaluations a decision (``_LEARNED_DEFAULTS``),
    the others after 2,400; a count given to the bot wins."""
    import briscola.ai.expert as expert
    seen = []
    real = expert.learned_values

    def spy(sit, plays, model, rng, worlds, leaves, *args, **kw):
        seen.append((worlds, leaves))
        return real(sit, plays, model, rng, 2, leaves, *args, **kw)

    monkeypatch.setattr(expert, "learned_values", spy)
    for variant, given, want in (("six", {}, (96, 1200)), ("six", {"learned_leaves": 50},
                                                           (96, 50)),
                                 ("double", {}, (96, 2400)),
                                 ("double", {"learned_worlds": 8}, (8, 2400))):
        g = Game.new(VARIANTS[variant], seed="leaves")
        seen.clear()
        ExpertBot(seed=1, **given).decide(g.view(g.current_player))
        assert seen == [want]


def test_learned_expert_plays_many_legal_deals():
    """A lighter expert (fewer worlds) through many classic deals: every action is checked
    by the engine, every deal adds up, and the learned search decides early on."""
    from briscola.ai import make_bot
    rules = VARIANTS["classic"]
    modes = set()
    for i in range(200):
        bots = [ExpertBot(seed=i, learned_worlds=4, samples=3, node_limit=4000),
                make_bot("intermediate", i)]
        if i % 2:
            bots.reverse()
        g = Game.new(rules, seed=f"many-{i}")
        modes |= play_out(g, bots, ExpertBot)  # an illegal action raises
        assert sum(g.points) == 120
    assert "learned" in modes


LEARNED_VARIANTS = ["three", "six", "double", "scoperta", "bisca", "bosnian"]


def _random_model(hidden: int = 12, seed: int = 0) -> Model:
    """A network of random weights: every input has a row of its own, so an input set
    wrongly moves the value (a trained network may barely heed some)."""
    rng = random.Random(seed)
    w1 = [[rng.uniform(-0.4, 0.4) for _ in range(hidden)] for _ in range(N_INPUTS)]
    b1 = [rng.uniform(0.0, 0.5) for _ in range(hidden)]
    w2 = [rng.uniform(-0.5, 0.5) for _ in range(hidden)]
    meta = {"name": "random", "inputs": N_INPUTS, "hidden": hidden, "scale": 120.0}
    return Model(meta, w1, b1, w2, 0.2)


@pytest.mark.parametrize("variant,name,tricks",
                         [("classic", "classic", 1), ("four", "four", 1), ("classic", "classic", 2)]
                         + [(v, None, 1) for v in LEARNED_VARIANTS])
def test_incremental_leaves_give_the_same_values(variant, name, tricks):
    """The search's leaves summed incrementally (from the decision's position, the rows that
    differ added and taken away) give what encoding every leaf afresh gives; also with the
    next trick searched too (its cards and draws leave and enter the sums as well), and in
    every variant with a network (random weights where none ships)."""
    from briscola.ai.common import Situation
    from briscola.ai.expert import learned_values
    model = load(name) if name else _random_model()
    rules = VARIANTS[variant]
    checked = 0
    for k in range(4 if rules.players < 6 else 2):
        g = Game.new(rules, seed=f"incremental-{k}")
        rng = random.Random(k)
        while not g.is_over:
            seat = g.current_player
            v = g.view(seat)
            plays = [int(a) for a in v.legal if a < 52]
            if len(plays) > 1:
                sit = Situation(v)
                a = learned_values(sit, plays, model, random.Random(7), 6, 100_000,
                                   tricks=tricks)
                b = learned_values(sit, plays, model, random.Random(7), 6, 100_000,
                                   incremental=False, tricks=tricks)
                assert a[1:] == b[1:]
                for c in plays:
                    assert a[0][c] == pytest.approx(b[0][c], abs=1e-6)
                checked += 1
            g.apply(rng.choice(v.legal), seat)
    assert checked > 20


def _true_sampler(game):
    """A stand-in for the search's sampler that deals the real cards: its one world is the
    game itself, hidden cards and talon order included."""
    from briscola.ai.sampler import World

    class TrueSampler:
        consistent = True

        def __init__(self, sit, rng) -> None:
            pass

        def single_world(self) -> bool:
            return True

        def sample(self) -> World:
            return World([sum(1 << c for c in h) for h in game.hands], list(game.talon))

    return TrueSampler


def _played_out(game, me, plays, model, enc, encode_view):
    """Per card of ``plays``: the rest of the trick by minimax in the real game (``me``'s side
    maximizing), the engine making the draws, and at the next trick's start the points
    taken plus the model's value of ``me``'s real view there, encoded as the training data
    encodes it."""
    side_of = game.rules.tables.side_of
    side = side_of[me]
    t0, p0 = game.tricks_done, game.side_points()[side]

    def leaf(x):
        if not (x.is_over or x.tricks_done > t0):
            return None
        gained = x.side_points()[side] - p0
        if x.is_over or not x.hands[me]:
            return gained
        (flags, scal), _side, _mine = encode_view(enc, x.view(me))
        return gained + model.value(flags, scal)

    out = {}
    for c in plays:
        y = game.clone()
        y.apply_fast(c)
        out[c] = minimax(y, leaf, lambda seat: side_of[seat] == side)
    return out


@pytest.mark.parametrize("variant", ["classic", "four"] + LEARNED_VARIANTS)
def test_leaves_are_the_next_tricks_real_view(variant, monkeypatch):
    """In the real deal (the search's one world dealt from the game itself), every card's
    value is the rest of the trick by minimax over the engine's legal plays (double
    Briskula: each seat's second card of the trick from what it has left), the engine's
    draws, and the network's value of the seat's real view at the next trick's start,
    encoded as the training data is (``selfplay.encode_view``): the cards drawn, the face-up
    card another seat drew, scoperta's open hands and next talon card, six players'
    partners seen once the talon is empty. Incremental and fresh leaves alike."""
    import briscola.ai.expert as expert
    from briscola.ai.common import Situation
    encode_view = _tool("selfplay").encode_view
    model = _random_model(seed=3)
    rules = VARIANTS[variant]
    checked = 0
    for k in range(3):
        g = Game.new(rules, seed=f"real-leaf-{k}")
        rng = random.Random(k)
        monkeypatch.setattr(expert, "Sampler", _true_sampler(g))
        while not g.is_over and g.talon:
            seat = g.current_player
            v = g.view(seat)
            plays = [int(a) for a in v.legal if a < 52]
            # Six players from the trick's first card: 3 ** 5 lines a card; a third of them.
            if len(plays) > 1 and (rules.players < 6 or len(v.trick) >= 2 or k == 0):
                sit = Situation(v)
                enc = expert._encoder(rules, sit.trump)
                want = _played_out(g, seat, plays, model, enc, encode_view)
                for incremental in (True, False):
                    got, done, _ = expert.learned_values(sit, plays, model, random.Random(1),
                                                         4, 10 ** 6, incremental=incremental)
                    assert done == 1
                    for c in plays:
                        assert got[c] == pytest.approx(want[c], abs=1e-6), (variant, c)
                checked += 1
            g.apply(rng.choice(v.legal), seat)
    assert checked > 12


def test_replies_by_the_intermediates_scoring_are_never_below_the_worst_reply():
    """With ``lam`` 1 the other player's reply in the searched trick is the card the
    intermediate's scoring picks in each world, not the one worst for the searcher: never
    worth less to the searcher, sometimes more; the same worlds either way."""
    from briscola.ai.common import Situation
    from briscola.ai.expert import learned_values
    from briscola.ai.rollout import FastPolicy
    model = load("classic")
    rules = VARIANTS["classic"]
    higher = 0
    for k in range(3):
        g = Game.new(rules, seed=f"exploit-{k}")
        rng = random.Random(k)
        while not g.is_over and g.talon:
            seat = g.current_player
            v = g.view(seat)
            plays = [int(a) for a in v.legal if a < 52]
            if not v.trick and len(plays) > 1:
                sit = Situation(v)
                policy = FastPolicy(rules, sit.trump)
                a = learned_values(sit, plays, model, random.Random(3), 8, 100_000)
                b = learned_values(sit, plays, model, random.Random(3), 8, 100_000,
                                   policy=policy, lam=1.0)
                assert a[1] == b[1]
                for c in plays:
                    assert b[0][c] >= a[0][c] - 1e-9
                higher += any(b[0][c] > a[0][c] + 1e-6 for c in plays)
            g.apply(rng.choice(v.legal), seat)
    assert higher > 5


def test_a_heavy_prior_plays_the_heuristics_favourite():
    """``learned_prior`` adds the heuristic's score of each card to its searched mean: made
    huge, the learned search plays the card that scores best."""
    from briscola.ai.common import Situation
    from briscola.ai.heuristic import score_card
    rules = VARIANTS["classic"]
    checked = 0
    for k in range(3):
        g = Game.new(rules, seed=f"prior-{k}")
        rng = random.Random(k)
        while not g.is_over and len(g.talon) > 8:
            seat = g.current_player
            v = g.view(seat)
            plays = [int(a) for a in v.legal if a < 52]
            if len(plays) > 1:
                sit = Situation(v)
                bot = ExpertBot(seed=1, learned_worlds=4, learned_prior=1e6)
                d = bot.decide(v)
                assert bot.last_info["mode"] == "learned"
                best = max(score_card(sit, c) for c in plays)
                assert score_card(sit, int(d.action)) == best
                checked += 1
            g.apply(rng.choice(v.legal), seat)
    assert checked > 10
