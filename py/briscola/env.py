"""The engine as a research environment: PettingZoo's AEC and parallel APIs for every variant.

    pip install ".[rl]"            # PettingZoo and Gymnasium (the engine itself needs neither)

    from briscola.env import env
    e = env(variant="four", seed=1)
    e.reset()
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        action = None if terminated else pick(obs["observation"], obs["action_mask"])
        e.step(action)

One episode is one deal of the variant (a match format of the variant is not played: an
episode ends with its deal). The agents are the seats, ``seat_0`` .. ``seat_{n-1}``; the one
to act is the one the rules say (a trick's winner leads the next). Each agent's observation
is a dict: ``observation``, a fixed-length float vector of what its seat may know, encoded
from its :class:`~briscola.view.View` only (:class:`Encoding` lists the planes; never a card
the seat may not see), and ``action_mask``, the legal actions of that seat now (all zero when
it is not its turn). An action is the engine's own action number (:mod:`briscola.actions`:
a card is its number 0-51, then exchanges, signals, Chiamata's bids and calls), so the action
space is ``Discrete(512)`` in every variant and the mask selects. An illegal action raises
:class:`~briscola.errors.IllegalActionError` and changes nothing.

Rewards (``reward=``): ``"points"`` (default), at each completed trick every agent receives
the card points its side took in it (an episode's sum is its side's card points); in Briscola
Chiamata, where the sides are secret until the end, each agent receives its game points at
the end instead. ``"win"``: at the end, +1 for a seat of a winning side, -1 for the others,
0 for everyone in a drawn deal. ``render_mode="ansi"``: :meth:`render` returns the table as
text, every hand included (an onlooker's picture, never an agent's observation).

Seeding: ``seed=`` (or ``reset(seed=)``) starts a stream of deals, ``"{seed}/0"``,
``"{seed}/1"``, ... (the engine's own ``Game.new(rules, seed)``); each ``reset()`` without a
seed deals the next one. The same seed gives the same deals, in the same order.

Also here: :class:`BotOpponents`, a Gymnasium environment where one learning seat plays
against the engine's computer players, and :func:`evaluate`, duplicate deals of a policy
against a level with the arena's code (mean and 95 % interval). docs/env.md has the details.
"""
from __future__ import annotations

import functools
import math
import random
from typing import Any, Callable

import numpy as np
from gymnasium import Env as _GymEnv
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from .actions import ACTIONS, N_ACTIONS
from .ai import make_bot
from .ai.base import Bot, Decision
from .arena import run_arena
from .cards import CODES, N_CARDS, N_RANKS, RANK_INDEX, SUITS, Card
from .errors import IllegalActionError, RulesError
from .game import Game
from .rules import Rules, find_variant
from .view import View

__all__ = ["env", "raw_env", "parallel_env", "BriscolaEnv", "BriscolaParallelEnv", "Encoding",
           "BotOpponents", "evaluate", "random_policy", "play_episode", "agent_name", "mask_of", "REWARDS",
           "LEVELS"]

REWARDS = ("points", "win")
LEVELS = ("random", "beginner", "intermediate", "expert")
_PHASES = ("auction", "call", "play", "over")
_SIGNALS = N_RANKS + 1  # a signal names a rank of trump, or "loaded"


def agent_name(seat: int) -> str:
    return f"seat_{seat}"


def _rules(variant: "str | Rules") -> Rules:
    if isinstance(variant, Rules):
        return variant
    return find_variant(variant)


class Encoding:
    """The observation vector of one variant: named planes, each a run of 0..1 values.

    Seats are named relative to the observing seat: ``+0`` is the seat itself, ``+1`` the
    next seat in playing order, and so on. A card plane has 52 entries, one per card number
    (``suit * 13 + rank``, :mod:`briscola.cards`); the cards a variant's deck lacks stay 0.
    ``planes`` lists ``(name, start, size)``; :meth:`encode` fills them from a view.
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        n = self.n = rules.players
        self.planes: list[tuple[str, int, int]] = []
        card, seats = N_CARDS, n
        self._add("hand", card)  # the seat's own cards
        for k in range(1, n):
            self._add(f"known+{k}", card)  # cards known to be in that seat's hand
        for k in range(n):
            self._add(f"played+{k}", card)  # cards that seat played in completed tricks
        for k in range(n):
            self._add(f"trick+{k}", card)  # that seat's cards in the trick on the table
        self._add("face_up", card)  # the face-up trump card while it lies on the table
        self._add("turned", card)  # the card turned up at the deal
        if rules.open_hands:
            self._add("talon_next", card)  # scoperta: the next card to be drawn
        self._add("unseen", card)  # cards whose place the seat does not know
        self._add("phase", len(_PHASES))  # auction, call, play, over
        self._add("trump_suit", len(SUITS))
        self._add("turn", seats)  # whose turn it is
        self._add("leader", seats)  # who led the trick on the table
        self._add("dealer", seats)
        self._add("hand_sizes", seats)  # cards in each hand / the hand size
        self._add("talon_size", 1)  # cards in the talon (face-up one included) / the deck
        self._add("tricks_done", 1)  # / the tricks of a deal
        self._add("points", seats)  # card points taken by each seat / the deck's points
        self._add("partner", seats)  # seats known to be on this seat's side
        self._add("opponent", seats)  # seats known to be on the other side
        if rules.signals:
            for k in range(n):
                self._add(f"signals+{k}", _SIGNALS)  # signals seen from that seat (13 ranks, loaded)
        self.chiamata = rules.mode == "chiamata"
        if self.chiamata:
            self._add("passed", seats)  # seats that passed in the auction
            self._add("bid_rank", N_RANKS)  # the rank of the highest bid
            self._add("bid_points", 1)  # the points of the highest bid: (points - 60) / 60
            self._add("high_seat", seats)  # who made the highest bid
            self._add("caller", seats)
            self._add("called", card)  # the called card
            self._add("carichi", 1)  # the caller plays 'a carichi'
            self._add("target", 1)  # the caller's side's target / 120
            self._add("partner_known", seats)  # the secret partner, once this seat knows him
        self.size = sum(size for _name, _start, size in self.planes)
        self.start = {name: start for name, start, _size in self.planes}
        tables = rules.tables
        self._deck = len(tables.deck)
        self._total = tables.total_points or 1
        self._tricks = math.ceil(self._deck / tables.per_round)
        self._hand = rules.hand_size
        names = ["known", "played", "trick", "turn", "leader", "dealer", "hand_sizes", "points",
                 "partner", "opponent", "signals", "passed", "high_seat", "caller",
                 "partner_known"]
        where = {name: self._seats(name) for name in names}
        self._at = [{name: where[name][me] for name in names} for me in range(n)]

    def _add(self, name: str, size: int) -> None:
        start = self.planes[-1][1] + self.planes[-1][2] if self.planes else 0
        self.planes.append((name, start, size))

    def space(self) -> spaces.Box:
        return spaces.Box(0.0, 1.0, (self.size,), np.float32)

    def _seats(self, prefix: str) -> list[list[int]]:
        """``[me][s]``: where seat ``s``'s entry is for observer ``me``: the start of its
        plane ``prefix+k`` if there are such planes, else its place in the plane ``prefix``."""
        n = self.n
        if prefix in self.start:
            return [[self.start[prefix] + (s - me) % n for s in range(n)] for me in range(n)]
        return [[self.start.get(f"{prefix}+{(s - me) % n}", -1) for s in range(n)]
                for me in range(n)]

    def encode(self, view: View) -> np.ndarray:
        """The seat's view as the vector; only what the view holds goes in."""
        out = np.zeros(self.size, np.float32)
        at = self.start
        n, me = self.n, view.seat
        seat = self._at[me]
        on: list[int] = []  # the entries set to 1
        base = at["hand"]
        on.extend(base + c for c in view.hand)
        known = seat["known"]
        for s in range(n):
            if s != me:
                base = known[s]
                on.extend(base + c for c in view.known[s])
        played = seat["played"]
        for order, cards, _w, _p in view.tricks:
            on.extend(played[s] + c for s, c in zip(order, cards))
        trick = seat["trick"]
        on.extend(trick[s] + c for s, c in view.trick)
        if view.trump_card is not None:
            on.append(at["face_up"] + view.trump_card)
        if view.original_trump_card is not None:
            on.append(at["turned"] + view.original_trump_card)
        if view.talon_next is not None:
            on.append(at["talon_next"] + view.talon_next)
        base = at["unseen"]
        on.extend(base + c for c in view.unseen())
        on.append(at["phase"] + _PHASES.index(view.phase))
        if view.trump_suit is not None:
            on.append(at["trump_suit"] + view.trump_suit)
        if view.turn is not None:
            on.append(seat["turn"][view.turn])
        if view.phase == "play":
            on.append(seat["leader"][view.leader])
        on.append(seat["dealer"][view.dealer])
        mine = view.side_of_seat[me]
        if mine >= 0:
            for s, side in enumerate(view.side_of_seat):
                if s != me and side >= 0:
                    on.append(seat["partner" if side == mine else "opponent"][s])
        if self.rules.signals:
            signals = seat["signals"]
            for e in view.events:
                if e["type"] == "signal" and e["signal"] is not None:
                    k = N_RANKS if e["signal"] == "loaded" else RANK_INDEX[e["signal"]]
                    on.append(signals[e["seat"]] + k)
        if self.chiamata and view.chiamata is not None:  # a Chiamata view always has it
            self._encode_chiamata(view.chiamata, out, on, seat)
        out[on] = 1.0
        sizes, points = seat["hand_sizes"], seat["points"]
        for s in range(n):
            out[sizes[s]] = view.hand_sizes[s] / self._hand
            out[points[s]] = view.points[s] / self._total
        out[at["talon_size"]] = view.talon_size / self._deck
        out[at["tricks_done"]] = min(view.tricks_done / self._tricks, 1.0)
        return out

    def _encode_chiamata(self, info: dict, out: np.ndarray, on: list[int], seat: dict) -> None:
        at = self.start
        on.extend(seat["passed"][s] for s, passed in enumerate(info["passed"]) if passed)
        high = info["high"]
        if high is not None:
            on.append(seat["high_seat"][high["seat"]])
            bid = high["bid"]
            if bid[4:].isdigit() and len(bid) > 5:  # points: "bid-64" (bid-2 is a rank)
                out[at["bid_points"]] = (int(bid[4:]) - 60) / 60
                if self.rules.auction == "rank":
                    on.append(at["bid_rank"] + RANK_INDEX["2"])
            elif bid.startswith("bid-"):
                on.append(at["bid_rank"] + RANK_INDEX[bid[4:]])
        if info["caller"] is not None:
            on.append(seat["caller"][info["caller"]])
        if info["called_card"] is not None:
            on.append(at["called"] + Card.parse(info["called_card"]))
        if info["carichi"]:
            on.append(at["carichi"])
        if info["target"] is not None:
            out[at["target"]] = info["target"] / 120
        if info["partner"] is not None:
            on.append(seat["partner_known"][info["partner"]])


def mask_of(view: View) -> np.ndarray:
    mask = np.zeros(N_ACTIONS, np.int8)
    if view.legal:
        mask[np.fromiter(view.legal, np.int64, len(view.legal))] = 1
    return mask


@functools.lru_cache(maxsize=None)
def _encoding(rules: Rules) -> Encoding:
    return Encoding(rules)


class _Deals:
    """What the AEC and the parallel environments share: the deal, the seeds, the rewards."""

    def __init__(self, variant: "str | Rules", seed: "int | str | None", reward: str) -> None:
        self.rules = _rules(variant)
        if reward not in REWARDS:
            raise RulesError(f"reward: {reward!r} is not one of {', '.join(REWARDS)}")
        self.reward = reward
        self.encoding = _encoding(self.rules)
        self.n = self.rules.players
        self.agents = [agent_name(s) for s in range(self.n)]
        self.seat_of = {a: s for s, a in enumerate(self.agents)}
        self.seed = seed
        self.count = 0
        self.game: Game | None = None
        self.observation_space = spaces.Dict({
            "observation": self.encoding.space(),
            "action_mask": spaces.Box(0, 1, (N_ACTIONS,), np.int8),
        })
        self.action_space = spaces.Discrete(N_ACTIONS)

    def deal(self, seed: "int | str | None" = None) -> Game:
        if seed is not None:
            if not isinstance(seed, (int, str)) or isinstance(seed, bool):
                raise RulesError(f"seed: expected a whole number or text, got {seed!r}")
            self.seed, self.count = seed, 0
        if self.seed is None:
            self.seed = random.SystemRandom().randrange(2**53)
        self.game = Game.new(self.rules, seed=f"{self.seed}/{self.count}")
        self.count += 1
        return self.game

    def playing(self) -> Game:
        """The deal being played; before the first one, a clear error."""
        game = self.game
        if game is None:
            raise IllegalActionError("no deal yet: call reset()")
        return game

    def observe(self, seat: int) -> dict[str, np.ndarray]:
        view = self.playing().view(seat)
        return {"observation": self.encoding.encode(view), "action_mask": mask_of(view)}

    def act(self, action: Any) -> list[float]:
        """Apply the action of the seat on turn; each seat's reward for it."""
        game = self.playing()
        seat = game.current_player
        if isinstance(action, np.integer):
            action = int(action)
        if not isinstance(action, int) or isinstance(action, bool) \
                or not 0 <= action < N_ACTIONS or ACTIONS[action] is None:
            raise IllegalActionError(f"action: expected an action number from 0 to "
                                     f"{N_ACTIONS - 1}, got {action!r}")
        tricks = len(game.history)
        game.apply(ACTIONS[action], seat=seat)
        return self.rewards(tricks)

    def rewards(self, tricks_before: int) -> list[float]:
        game, n = self.playing(), self.n
        out = [0.0] * n
        chiamata = self.rules.mode == "chiamata"
        if self.reward == "points" and not chiamata:
            side_of = self.rules.tables.side_of
            for _order, _cards, winner, points in game.history[tricks_before:]:
                for s in range(n):
                    if side_of[s] == side_of[winner]:
                        out[s] += points
        oc = game.outcome()
        if oc is not None:  # the deal is over
            if self.reward == "win":
                won = oc.winning_seats()
                out = [0.0 if oc.draw else (1.0 if s in won else -1.0) for s in range(n)]
            elif chiamata:
                out = [float(p) for p in oc.game_points]
        return out

    def render(self) -> str:
        game = self.game
        if game is None:
            return "(no deal yet: call reset())"
        rules = game.rules
        lines = [f"{rules.name}: phase {game.phase_name}, "
                 f"trump {game.trump_suit or '-'}"
                 + (f" (face up {CODES[game.faceup]})" if game.faceup >= 0 else "")
                 + f", talon {len(game.talon)}, tricks {len(game.history)}"]
        for s in range(self.n):
            mark = "*" if game.current_player == s else " "
            hand = " ".join(CODES[c] for c in game.hands[s])
            lines.append(f"{mark}{agent_name(s)}: {hand:<24} points {game.points[s]}")
        trick = " ".join(f"{agent_name(s)}:{CODES[c]}" for s, c in zip(game.order, game.trick))
        lines.append(f" trick: {trick or '-'}")
        oc = game.outcome()
        if oc is not None:  # the deal is over
            lines.append(f" over: side points {list(oc.side_points)}"
                         + (f", game points {list(oc.game_points)}" if oc.game_points else ""))
        return "\n".join(lines)


def _turn(game: Game) -> int:
    """The seat to act in a deal that is not over."""
    seat = game.current_player
    assert seat is not None, "the deal is over"
    return seat


def _render_mode(mode: "str | None") -> "str | None":
    if mode not in (None, "ansi"):
        raise RulesError(f"render_mode: {mode!r} is not 'ansi' or None")
    return mode


class _Common:
    """What the AEC and the parallel environment share beside the deal: construction, the
    spaces, the true state, rendering."""

    def __init__(self, variant: "str | Rules" = "classic", seed: "int | str | None" = None,
                 reward: str = "points", render_mode: "str | None" = None) -> None:
        self.render_mode = _render_mode(render_mode)
        self._deals = _Deals(variant, seed, reward)
        self.rules = self._deals.rules
        self.possible_agents = self._deals.agents[:]
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Dict:
        return self._deals.observation_space

    def action_space(self, agent: str) -> spaces.Discrete:
        return self._deals.action_space

    @property
    def game(self) -> Game | None:
        """The deal being played (the true state: for tests and tools, not for agents)."""
        return self._deals.game

    def render(self) -> "str | None":
        if self.render_mode is None:
            return None
        return self._deals.render()

    def close(self) -> None:
        pass


class BriscolaEnv(_Common, AECEnv):
    """One deal of a variant as a PettingZoo AEC environment (see the module's text)."""

    metadata = {"name": "briscola_v0", "render_modes": ["ansi"], "is_parallelizable": False}

    def reset(self, seed: "int | str | None" = None, options: dict | None = None) -> None:
        game = self._deals.deal(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self.agent_selection = agent_name(_turn(game))

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self._deals.observe(self._deals.seat_of[agent])

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        rewards = self._deals.act(action)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {a: rewards[self._deals.seat_of[a]] for a in self.agents}
        game = self._deals.playing()
        if game.is_over:
            self.terminations = {a: True for a in self.agents}
        else:
            self.agent_selection = agent_name(_turn(game))
        self._accumulate_rewards()


class BriscolaParallelEnv(_Common, ParallelEnv):
    """The same deal as a PettingZoo parallel environment.

    Briscola is played one action at a time, so each ``step(actions)`` applies the action of
    the one agent on turn (``infos[agent]["active_agent"]`` names it; its mask is the only
    non-empty one) and ignores the others' (they may send anything, or nothing).
    """

    metadata = {"name": "briscola_parallel_v0", "render_modes": ["ansi"]}

    def _infos(self) -> dict[str, dict]:
        turn = self._deals.playing().current_player
        active = None if turn is None else agent_name(turn)
        return {a: {"active_agent": active} for a in self.agents}

    def reset(self, seed: "int | str | None" = None, options: dict | None = None
              ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict]]:
        self._deals.deal(seed)
        self.agents = self.possible_agents[:]
        return {a: self._deals.observe(s) for s, a in enumerate(self.agents)}, self._infos()

    def step(self, actions: dict[str, Any]) -> tuple[
            dict[str, dict[str, np.ndarray]], dict[str, float], dict[str, bool],
            dict[str, bool], dict[str, dict]]:
        game = self._deals.game
        if game is None or not self.agents:
            raise IllegalActionError("the deal is over: call reset()")
        agent = agent_name(_turn(game))
        if agent not in actions:
            raise IllegalActionError(f"{agent} is to act and sent no action")
        r = self._deals.act(actions[agent])
        agents = self.agents
        obs = {a: self._deals.observe(self._deals.seat_of[a]) for a in agents}
        rewards = {a: r[self._deals.seat_of[a]] for a in agents}
        done = game.is_over
        terminations = {a: done for a in agents}
        truncations = {a: False for a in agents}
        infos = self._infos()
        if done:
            self.agents = []
        return obs, rewards, terminations, truncations, infos


def raw_env(variant: "str | Rules" = "classic", seed: "int | str | None" = None,
            reward: str = "points", render_mode: "str | None" = None) -> BriscolaEnv:
    return BriscolaEnv(variant, seed=seed, reward=reward, render_mode=render_mode)


def env(variant: "str | Rules" = "classic", seed: "int | str | None" = None,
        reward: str = "points", render_mode: "str | None" = None) -> BriscolaEnv:
    """The AEC environment of ``variant`` (a name of ``briscola.rules.VARIANTS`` or Rules).

    Illegal actions already raise, so no PettingZoo wrapper is put around it.
    """
    return raw_env(variant, seed=seed, reward=reward, render_mode=render_mode)


def parallel_env(variant: "str | Rules" = "classic", seed: "int | str | None" = None,
                 reward: str = "points",
                 render_mode: "str | None" = None) -> BriscolaParallelEnv:
    return BriscolaParallelEnv(variant, seed=seed, reward=reward, render_mode=render_mode)


# ---- one learning seat against the engine's players ----------------------------------------

# An observation dict -> an action number from its mask (a NumPy integer will do).
Policy = Callable[[dict], "int | np.integer"]


def random_policy(seed: "int | str | None" = None) -> Policy:
    """A policy that picks uniformly among the legal actions of the mask."""
    rng = random.Random(seed)

    def policy(obs: dict) -> int:
        return rng.choice(np.flatnonzero(obs["action_mask"]).tolist())

    return policy


def play_episode(aec: BriscolaEnv, policy: "Policy | dict[str, Policy]",
                 seed: "int | str | None" = None) -> dict[str, float]:
    """Deal (``aec.reset(seed)``) and play one episode, each agent's actions from ``policy``
    (one for all, or one per agent); each agent's rewards summed."""
    totals = {a: 0.0 for a in aec.possible_agents}
    aec.reset(seed=seed)
    for agent in aec.agent_iter():
        obs, reward, terminated, truncated, _info = aec.last()
        totals[agent] += reward
        if terminated or truncated:
            aec.step(None)
        else:
            aec.step((policy[agent] if isinstance(policy, dict) else policy)(obs))
    return totals


def _level(name: str) -> str:
    if name not in LEVELS:
        raise RulesError(f"level: {name!r} is not one of {', '.join(LEVELS)}")
    return name


class BotOpponents(_GymEnv):
    """A Gymnasium environment: the learner plays ``seat``, the engine's ``level`` the others.

    ``reset()`` deals and lets the players before the learner act; ``step(action)`` applies
    the learner's action, then the others' until the learner is to act again or the deal is
    over. The reward is the learner's, summed over those actions (as in the AEC
    environment). ``action_masks()`` returns the mask (the name MaskablePPO looks for).
    ``seat=None`` deals each episode's seat from the seed's stream.
    """

    metadata = {"render_modes": ["ansi"]}

    def __init__(self, level: str = "expert", variant: "str | Rules" = "classic",
                 seat: "int | None" = 0, seed: "int | str | None" = None,
                 reward: str = "points", render_mode: "str | None" = None) -> None:
        self.render_mode = _render_mode(render_mode)
        self.level = _level(level)
        self._deals = _Deals(variant, seed, reward)
        n = self._deals.n
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)
                                 or not 0 <= seat < n):
            raise RulesError(f"seat: must be a seat from 0 to {n - 1}, or None")
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.observation_space = self._deals.observation_space
        self.action_space = self._deals.action_space
        self._bots: list[Bot] = []
        self._obs: dict[str, np.ndarray] | None = None

    @property
    def game(self) -> Game | None:
        return self._deals.game

    def reset(self, *, seed: "int | str | None" = None, options: dict | None = None
              ) -> tuple[dict, dict[str, Any]]:
        super().reset(seed=seed if isinstance(seed, int) and not isinstance(seed, bool) else None)
        game = self._deals.deal(seed)
        deal_seed = game.seed
        if self.fixed_seat is None:
            self.seat = random.Random(f"{deal_seed}/seat").randrange(self._deals.n)
        self._bots = [make_bot(self.level, seed=f"{deal_seed}/{s}") for s in range(self._deals.n)]
        reward = self._others()
        return self._observe(), {"seat": self.seat, "reward_before": reward}

    def _others(self) -> float:
        """The other seats act until the learner is to act or the deal ends."""
        game, total = self._deals.playing(), 0.0
        while not game.is_over and game.current_player != self.seat:
            seat = _turn(game)
            total += self._deals.act(int(self._bots[seat].choose(game.view(seat))))[self.seat]
        return total

    def _observe(self) -> dict:
        self._obs = self._deals.observe(self.seat)
        return self._obs

    def action_masks(self) -> np.ndarray:
        if self._obs is None:
            raise IllegalActionError("no deal yet: call reset()")
        return self._obs["action_mask"].astype(bool)

    def step(self, action: Any) -> tuple[dict, float, bool, bool, dict[str, int]]:
        game = self._deals.game
        if game is None or game.is_over:
            raise IllegalActionError("the deal is over: call reset()")
        total = self._deals.act(action)[self.seat]
        total += self._others()
        return self._observe(), total, game.is_over, False, {"seat": self.seat}

    def render(self) -> "str | None":
        return self._deals.render() if self.render_mode == "ansi" else None


class _PolicyBot(Bot):
    """A policy over observations, seated in the arena like any bot."""

    name = "policy"

    def __init__(self, policy: Policy, rules: Rules, seed: int | str | None = None) -> None:
        super().__init__(seed)
        self.policy = policy
        self.encoding = _encoding(rules)

    def decide(self, view: View) -> Decision:
        obs = {"observation": self.encoding.encode(view), "action_mask": mask_of(view)}
        a = self.policy(obs)
        if isinstance(a, np.integer):
            a = int(a)
        if not isinstance(a, int) or isinstance(a, bool) or not 0 <= a < N_ACTIONS \
                or not obs["action_mask"][a]:
            raise IllegalActionError(f"the policy chose {a!r}, not a legal action now")
        return Decision(ACTIONS[a], {"code": "policy", "params": {}})


def evaluate(policy: Policy, level: str = "expert", variant: "str | Rules" = "classic",
             deals: int = 100, seed: "int | str" = 0) -> dict:
    """Duplicate deals of ``policy`` against the engine's ``level``: mean and 95 % interval.

    Classic variants: :func:`briscola.arena.run_arena` with the policy as player A (its
    ``mean_diff``: A's side's card points minus the others' per game, ``ci95``,
    ``win_rate``...). Briscola Chiamata (which the arena does not play): every deal five
    times, the policy in each seat in turn and ``level`` in the four others; ``mean`` is the
    policy's game points per game, ``ci95`` its interval over deals, ``made`` how often the
    policy's side won. The policy receives the same observation dict as in :func:`env`.
    """
    rules = _rules(variant)
    _level(level)
    if not isinstance(deals, int) or isinstance(deals, bool) or deals < 1:
        raise RulesError("deals: must be a whole number of at least 1")

    def factory(seed: int | str | None = None) -> Bot:
        return _PolicyBot(policy, rules, seed)

    factory.__name__ = getattr(policy, "__name__", "policy")
    if rules.mode != "chiamata":
        result = run_arena(rules, factory, level, deals, seed)
        result["mean"] = result["mean_diff"]
        return result
    per_deal, won, games = [], 0, 0
    for i in range(deals):
        total = 0.0
        for seat in range(rules.players):
            game = Game.new(rules, seed=f"{seed}:{i}")
            bots = [factory(f"{seed}:{i}:{s}") if s == seat else make_bot(level, f"{seed}:{i}:{s}")
                    for s in range(rules.players)]
            while not game.is_over:
                s = _turn(game)
                game.apply(bots[s].decide(game.view(s)).action, s)
            oc = game.outcome()
            assert oc is not None  # the deal is over
            total += oc.game_points[seat]
            won += seat in oc.winning_seats()
            games += 1
        per_deal.append(total / rules.players)
    mean = sum(per_deal) / deals
    half = (1.96 * math.sqrt(sum((x - mean) ** 2 for x in per_deal) / (deals - 1) / deals)
            if deals > 1 else float("inf"))
    ci = [round(mean - half, 3), round(mean + half, 3)] if math.isfinite(half) else [None, None]
    return {"variant": rules.name, "bot_a": factory.__name__, "bot_b": level, "seed": seed,
            "deals": deals, "games": games, "mean": round(mean, 3), "ci95": ci,
            "made": won / games}
