"""For the tests of the learned evaluations and the Chiamata experiments: the training tools
(tools/train/*.py) and benchmarks (bench/*.py), scripts, not a package, loaded as modules;
a deal played out by bots; an exhaustive search over the engine's own moves."""
from __future__ import annotations

import importlib.util
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def script(folder: str, name: str):
    """<folder>/<name>.py of the repository (a script, not a package), imported afresh."""
    path = os.path.join(ROOT, folder, f"{name}.py")
    spec = importlib.util.spec_from_file_location(f"{folder.replace('/', '_')}_{name}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def train_tool(name: str):
    """tools/train/<name>.py, imported afresh."""
    return script("tools/train", name)


def play_out(game, bots, kind) -> set:
    """Play ``game`` to its end with ``bots`` (one a seat; an illegal action raises); the
    ``last_info["mode"]`` values the bots of class ``kind`` reported on the way."""
    modes = set()
    while not game.is_over:
        seat = game.current_player
        decision = bots[seat].decide(game.view(seat))
        if isinstance(bots[seat], kind):
            modes.add(bots[seat].last_info.get("mode"))
        game.apply(decision.action, seat)
    return modes


def minimax(game, leaf, maximizes) -> float:
    """``game``'s value by exhaustive search over the engine's legal plays (``apply_fast`` on
    clones, the engine making the draws): ``leaf(game)`` where it answers a number (``None``:
    search on), else the largest value of a child where ``maximizes(seat)`` holds for the
    seat to play, the smallest where it does not."""
    value = leaf(game)
    if value is not None:
        return value
    children = []
    for action in game.legal_actions_fast():
        child = game.clone()
        child.apply_fast(action)
        children.append(minimax(child, leaf, maximizes))
    return max(children) if maximizes(game.current_player) else min(children)
