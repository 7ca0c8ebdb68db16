import io
import json
import os
import subprocess
import sys

import pytest

from briscola.cli import main
from briscola.rules import VARIANTS

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(*args, stdin=""):
    out = io.StringIO()
    code = main(list(args), out=out, inp=io.StringIO(stdin))
    return code, out.getvalue()


def test_variants_lists_every_variant_name_first():
    code, text = run("variants")
    assert code == 0
    lines = text.splitlines()
    assert [line.split()[0] for line in lines] == list(VARIANTS)
    assert all(len(line.split(None, 1)) == 2 for line in lines)


def test_simulate_json():
    code, text = run("simulate", "--deals", "20", "--seed", "4", "--json")
    assert code == 0
    result = json.loads(text)
    assert result["deals"] == 20 and result["variant"] == "classic"
    assert sum(result["wins"]) + result["draws"] == 20
    assert abs(sum(result["points"]) - 120) < 1e-6
    # Seeded: the same command gives the same answer.
    assert run("simulate", "--deals", "20", "--seed", "4", "--json")[1] == text


def test_simulate_per_seat_bots_and_teams():
    code, text = run("simulate", "--variant", "four", "--bots", "random,random,random,random",
                     "--deals", "5", "--json")
    assert code == 0 and json.loads(text)["sides"] == [[0, 2], [1, 3]]


def test_simulate_option_changes():
    code, text = run("simulate", "--option", "players=3", "--deals", "3", "--json")
    assert code == 0 and len(json.loads(text)["wins"]) == 3


@pytest.mark.parametrize("args", [
    ["simulate", "--variant", "nope"],
    ["simulate", "--bots", "random,random,random"],
    ["simulate", "--bots", "grandmaster"],
    ["simulate", "--deals", "0"],
    ["simulate", "--deals", "many"],
    ["simulate", "--option", "players"],
    ["simulate", "--option", "players=7"],
    ["simulate", "--option", "double=maybe"],
    ["frobnicate"],
    [],
])
def test_bad_arguments_exit_nonzero_with_one_line(args, capsys):
    code, _ = run(*args)
    assert code != 0
    err = capsys.readouterr().err.strip()
    assert err and "\n" not in err


def test_play_in_the_terminal():
    moves = "\n".join(["XX"] + ["AD 2D 3D 4D 5D 6D 7D JD HD KD AC 2C 3C 4C 5C 6C 7C JC HC KC"
                                .split()[0]] + ["quit"])
    code, text = run("play", "--bot", "random", "--seed", "1", stdin=moves)
    assert code == 0 and "your hand:" in text and "'XX' is not an action" in text


def test_play_a_whole_deal_by_typing_the_first_legal_card():

    # Feed the first card of the hand every time: parse the prompt to know the hand.
    class Feeder(io.StringIO):
        def __init__(self):
            super().__init__()
            self.out = None

        def readline(self):
            last = [ln for ln in self.out.getvalue().splitlines() if "your hand:" in ln][-1]
            return last.split("your hand:")[1].split()[0] + "\n"

    feeder = Feeder()
    out = io.StringIO()
    feeder.out = out
    assert main(["play", "--bot", "random", "--seed", "2"], out=out, inp=feeder) == 0
    assert "points per side" in out.getvalue()


def test_module_entry_point():
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "py"))
    proc = subprocess.run([sys.executable, "-m", "briscola", "variants"], capture_output=True,
                          text=True, env=env, timeout=60)
    assert proc.returncode == 0 and proc.stdout.startswith("classic")
    proc = subprocess.run([sys.executable, "-m", "briscola", "simulate", "--deals", "-3"],
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 2 and proc.stderr.count("\n") == 1


def test_review_json_is_deterministic(tmp_path):
    args = ("review", "--variant", "classic", "--seed", "5", "--bots", "beginner,expert",
            "--seat", "0", "--json")
    code, text = run(*args)
    assert code == 0
    r = json.loads(text)
    assert r["count"] == len(r["decisions"]) > 0 and 0 <= r["accuracy"] <= 100
    for d in r["decisions"]:
        assert {"card", "best", "loss", "label", "reason"} <= set(d)
        # (a reason may carry the line said after it, `then`: a figure given away says its points)
        assert d["loss"] >= 0 and {"code", "params"} <= set(d["reason"]) <= {"code", "params", "then"}
    assert run(*args)[1] == text
    # The same deal from a saved game gives the same review.
    from briscola.ai import make_bot
    from briscola.game import Game
    game = Game.new("classic", seed="5")
    bots = [make_bot(b, seed=f"5/bot{s}") for s, b in enumerate(["beginner", "expert"])]
    while not game.is_over:
        s = game.current_player
        game.apply(bots[s].decide(game.view(s)).action, seat=s)
    path = tmp_path / "deal.json"
    path.write_text(game.to_json())
    code, saved = run("review", "--save", str(path), "--seat", "0", "--json")
    assert code == 0 and json.loads(saved)["decisions"] == r["decisions"]


def test_review_bad_save(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "something"}')
    assert run("review", "--save", str(bad))[0] == 2
    assert run("review", "--save", str(tmp_path / "missing.json"))[0] == 2
