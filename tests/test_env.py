"""briscola.env: the PettingZoo environments, the bots as opponents, the evaluation helper.

PettingZoo's own API tests in the variants the issue names; a property test of random steps
through the environment in every variant (every action taken from the mask is legal; an
observation does not change when hidden cards change places); rewards, seeds, errors.
"""
from __future__ import annotations

import random
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, parallel_api_test  # noqa: E402

from briscola.env import (BotOpponents, Encoding, agent_name, env, evaluate,  # noqa: E402
                          parallel_env, play_episode, random_policy)
from briscola.errors import BriscolaError, IllegalActionError, RulesError  # noqa: E402
from briscola.game import Game  # noqa: E402
from briscola.rules import VARIANTS, find_variant  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
API_VARIANTS = ["classic", "three", "four", "six", "scoperta", "chiamata", "chiamata-points"]
# What PettingZoo's tests say of any dict observation (its own classic card games get the
# same two lines): the observation is a dict {observation, action_mask}, as documented.
DICT_OBSERVATION = {"Observation is not a NumPy array",
                    "Observation space for each agent probably should be gymnasium.spaces.box "
                    "or gymnasium.spaces.discrete"}


@pytest.mark.parametrize("variant", API_VARIANTS)
def test_pettingzoo_api_tests(variant):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(variant, seed=1), num_cycles=400)
        parallel_api_test(parallel_env(variant, seed=2), num_cycles=400)
    others = {str(w.message) for w in caught} - DICT_OBSERVATION
    assert not others, others


def _swapped(game: Game, seat: int, rng: random.Random) -> Game | None:
    """The same deal with two cards ``seat`` cannot place exchanged (in the deck, so in the
    hands or the talon that hold them), replayed through the same actions; None when the
    actions are not legal any more there (a hidden card decided one of them)."""
    view = game.view(seat)
    unseen = [c for c in view.unseen() if c not in game.reburied]
    where = {}
    for s, hand in enumerate(game.hands):
        for c in hand:
            where[c] = s
    pairs = [(a, b) for i, a in enumerate(unseen) for b in unseen[i + 1:]
             if a not in where or where.get(a) != where.get(b)]  # not two of one hand
    if not pairs:
        return None
    a, b = rng.choice(pairs)
    deck = list(game.deck)
    i, j = deck.index(a), deck.index(b)
    deck[i], deck[j] = deck[j], deck[i]
    other = Game(game.rules, deck, game.dealer)
    try:
        for act in game.actions:
            other.apply(act)
    except IllegalActionError:
        return None
    assert other.hands != game.hands or other.talon != game.talon
    return other


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_random_steps_take_legal_actions_and_observations_hide_cards(variant):
    """2,000 random steps: each action from the mask is legal; the observation of each seat
    is the same when two of the cards it cannot place change places."""
    e = env(variant, seed=f"prop-{variant}")
    enc = Encoding(find_variant(variant))
    rng = random.Random(variant)
    steps = swaps = tries = 0
    while steps < 2000:
        e.reset()
        for agent in e.agent_iter():
            obs, _reward, terminated, truncated, _info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            game = e.game
            mask = obs["action_mask"]
            assert obs["observation"].shape == (enc.size,)
            assert set(np.flatnonzero(mask).tolist()) == set(game.legal_actions())
            if steps % 7 == 0:
                seat = rng.randrange(game.n)
                tries += 1
                other = _swapped(game, seat, rng)
                if other is not None:
                    swaps += 1
                    here = e.observe(agent_name(seat))
                    there = {"observation": enc.encode(other.view(seat)),
                             "action_mask": here["action_mask"] * 0}
                    there["action_mask"][other.view(seat).legal] = 1
                    assert np.array_equal(here["observation"], there["observation"])
                    assert np.array_equal(here["action_mask"], there["action_mask"])
            action = rng.choice(np.flatnonzero(mask).tolist())
            assert action in game.legal_actions()
            e.step(action)
            steps += 1
    assert swaps >= tries // 2 > 0  # most tries found hidden cards to exchange


def test_the_observation_does_change_with_what_a_seat_sees():
    # The invariance above is not that of a constant: a card the seat holds is in it.
    game = Game.from_hands("classic", ["AD 2C 3C", "AB 7C 7D"], trump="4S")
    other = Game.from_hands("classic", ["AB 2C 3C", "AD 7C 7D"], trump="4S")
    enc = Encoding(game.rules)
    a, b = enc.encode(game.view(0)), enc.encode(other.view(0))
    assert not np.array_equal(a, b)
    hand = enc.start["hand"]
    assert a[hand + 0] == 1 and b[hand + 0] == 0  # AD is card 0


def test_every_plane_is_documented():
    doc = (ROOT / "docs" / "env.md").read_text(encoding="utf-8")
    names = set()
    for rules in VARIANTS.values():
        for name, _start, _size in Encoding(rules).planes:
            names.add(name.split("+")[0])
    missing = [n for n in sorted(names) if f"`{n}" not in doc]
    assert not missing, missing


@pytest.mark.parametrize("variant", ["classic", "three", "four", "six", "chiamata"])
def test_rewards_add_up_to_the_outcome(variant):
    for reward in ("points", "win"):
        e = env(variant, seed=3, reward=reward)
        totals = play_episode(e, random_policy(1))
        oc = e.game.outcome()
        for s in range(e.game.n):
            got = totals[agent_name(s)]
            if reward == "win":
                want = 0 if oc.draw else (1 if s in oc.winning_seats() else -1)
            elif variant == "chiamata":
                want = oc.game_points[s]
            else:
                want = next(p for side, p in zip(oc.sides, oc.side_points) if s in side)
            assert got == want, (reward, s, got, want)


def test_seeds_give_the_same_deals_in_the_same_order():
    a, b = env("four", seed=7), env("four", seed=7)
    a.reset(), b.reset()
    assert a.game.deck == b.game.deck
    a.reset(), b.reset()
    assert a.game.deck == b.game.deck and a.game.seed == "7/1"
    a.reset(seed=7)
    assert a.game.deck == Game.new("four", seed="7/0").deck
    c = env("four", seed=8)
    c.reset()
    assert c.game.deck != a.game.deck
    assert env("four").possible_agents == ["seat_0", "seat_1", "seat_2", "seat_3"]


def test_an_illegal_action_raises_and_changes_nothing():
    e = env("classic", seed=1)
    e.reset()
    obs = e.observe(e.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = e.game.to_json()
    for bad in (illegal, 512, -1, "AD", None, 1.5):
        with pytest.raises(IllegalActionError):
            e.step(bad)
    assert e.game.to_json() == before
    with pytest.raises(RulesError):
        env("classic", reward="money")
    with pytest.raises(RulesError):
        env("no-such-variant")
    with pytest.raises(RulesError):
        env("classic", render_mode="human")


def test_the_mask_is_empty_off_turn_and_render_shows_the_table():
    e = env("three", seed=2, render_mode="ansi")
    e.reset()
    off = [a for a in e.agents if a != e.agent_selection]
    assert all(e.observe(a)["action_mask"].sum() == 0 for a in off)
    text = e.render()
    assert "three" in text and all(a in text for a in e.agents)
    assert env("three").render() is None


def test_bot_opponents_plays_the_others_seats():
    g = BotOpponents("intermediate", variant="four", seat=1, seed=4)
    obs, info = g.reset()
    assert info["seat"] == 1 and g.game.current_player == 1
    total, done, policy = info["reward_before"], False, random_policy(5)
    while not done:
        assert g.game.current_player == 1
        assert np.array_equal(g.action_masks(), obs["action_mask"].astype(bool))
        obs, reward, done, truncated, _ = g.step(policy(obs))
        total += reward
        assert not truncated
    oc = g.game.outcome()
    assert total == oc.side_points[oc.sides.index((1, 3))]
    with pytest.raises(IllegalActionError):
        g.step(0)
    with pytest.raises(RulesError):
        BotOpponents("grandmaster")


def test_bot_opponents_observations_fit_the_space_and_seeds_repeat():
    # (Gymnasium's env_checker steps random unmasked actions, which this environment refuses.)
    g = BotOpponents("random", variant="chiamata", seat=None, seed=1)
    seats = set()
    for k in range(4):
        obs, info = g.reset(seed=k)
        again, info2 = g.reset(seed=k)
        assert info == info2 and np.array_equal(obs["observation"], again["observation"])
        seats.add(info["seat"])
        done = False
        while not done:
            assert g.observation_space.contains(obs)
            obs, _r, done, _t, _i = g.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert len(seats) > 1  # seat=None deals the learner's seat


def test_evaluate_uses_duplicate_deals():
    r1 = evaluate(random_policy(1), "random", variant="classic", deals=6, seed=3)
    r2 = evaluate(random_policy(1), "random", variant="classic", deals=6, seed=3)
    assert r1["games"] == 12 and r1["deals"] == 6
    assert r1["mean"] == r2["mean"] and r1["ci95"] == r2["ci95"]
    lo, hi = r1["ci95"]
    assert lo <= r1["mean"] <= hi
    c = evaluate(random_policy(1), "random", variant="chiamata", deals=2, seed=3)
    assert c["games"] == 10 and c["ci95"][0] <= c["mean"] <= c["ci95"][1]
    with pytest.raises(BriscolaError):
        evaluate(lambda obs: 999, "random", deals=1)


def test_importing_the_engine_imports_no_research_package():
    code = ("import sys; sys.path.insert(0, 'py')\n"
            "import briscola, briscola.game, briscola.ai, briscola.arena, briscola.bridge\n"
            "import briscola.cli, briscola.match, briscola.coach\n"
            "from briscola.ai import make_bot; make_bot('expert')\n"
            "bad = [m for m in ('pettingzoo', 'gymnasium', 'numpy') if m in sys.modules]\n"
            "assert not bad, bad\n")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
