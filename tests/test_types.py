"""The types checked: mypy over py/briscola and TypeScript over the JavaScript jsconfig.json lists.

mypy reads its flags from pyproject.toml ([tool.mypy], explained in docs/engine.md, "Types
checked"); a failure prints mypy's own report. The JavaScript check runs the TypeScript
compiler (a devDependency in package.json) on the files jsconfig.json names. Also here: the
``py.typed`` marker ships in the engine's wheels, and the bugs the checker found stay fixed.
"""
from __future__ import annotations

import importlib.util
import io
import os
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

# The strictness docs/engine.md promises: none of these may be switched off quietly.
PROMISED = ("check_untyped_defs", "disallow_untyped_defs", "disallow_incomplete_defs",
            "disallow_untyped_calls", "no_implicit_optional", "no_implicit_reexport",
            "strict_equality", "warn_unused_ignores", "warn_redundant_casts", "warn_unreachable",
            "warn_return_any")


def _report(proc: subprocess.CompletedProcess) -> str:
    return (proc.stdout + proc.stderr).strip()


def test_mypy_finds_no_error():
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed (tests/requirements.txt pins it)")
    for module in ("numpy", "gymnasium", "pettingzoo"):
        # briscola.env is checked against the research environment's packages (the "rl" extra).
        pytest.importorskip(module)
    proc = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, "mypy found errors:\n" + _report(proc)
    assert "Success: no issues found" in proc.stdout


def test_mypy_checks_at_the_promised_strictness():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["files"] == ["py/briscola"]
    for flag in PROMISED:
        assert config.get(flag) is True, f"[tool.mypy] {flag} is not on"
    # Python 3.11 is the oldest the package runs on (requires-python): no newer syntax.
    assert config["python_version"] == "3.11"
    # The only module let off anything: PettingZoo, which ships no types.
    assert [o["module"] for o in config.get("overrides", [])] == [["pettingzoo"]]
    docs = (ROOT / "docs" / "engine.md").read_text(encoding="utf-8")
    for flag in PROMISED:
        assert flag in docs, f"docs/engine.md does not explain {flag}"


def test_the_checker_would_report_an_error(tmp_path):
    """The check can fail: the same configuration refuses a wrongly typed call."""
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed")
    bad = tmp_path / "bad.py"
    bad.write_text("from briscola.game import Game\n\n"
                   "def seat_of(game: Game) -> int:\n"
                   "    return game.current_player\n", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "mypy", "--config-file",
                           str(ROOT / "pyproject.toml"), str(bad)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "MYPYPATH": str(ROOT / "py")})
    assert proc.returncode == 1, _report(proc)
    assert 'Incompatible return value type (got "int | None", expected "int")' in proc.stdout


# ---- py.typed ---------------------------------------------------------------------------------

def test_py_typed_marks_the_package():
    assert (ROOT / "py" / "briscola" / "py.typed").is_file()
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "py.typed" in pyproject["tool"]["setuptools"]["package-data"]["*"]


@pytest.mark.parametrize("full", [False, True], ids=["page", "micropip"])
def test_py_typed_is_in_the_built_wheels(full):
    from tools.build.wheel import build_wheel
    _name, data, _version = build_wheel(full=full, sources=full)
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert "briscola/py.typed" in names


# ---- JavaScript -------------------------------------------------------------------------------

def test_javascript_types():
    tsc = ROOT / "node_modules" / ".bin" / "tsc"
    if not tsc.exists():
        pytest.skip("TypeScript is not installed (npm ci)")
    proc = subprocess.run([str(tsc), "-p", "jsconfig.json"], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, "tsc found errors:\n" + _report(proc)


# ---- what the checker found -------------------------------------------------------------------

def test_a_file_that_is_not_a_model_is_refused_clearly(tmp_path):
    from briscola.ai.learn import load_file
    path = tmp_path / "weights.txt"
    path.write_text("WEIGHTS = []\n", encoding="utf-8")
    with pytest.raises(ValueError, match="not a model file"):
        load_file(str(path))


def test_the_environment_before_its_first_deal_says_so():
    pytest.importorskip("numpy")
    pytest.importorskip("pettingzoo")
    from briscola.env import BotOpponents, env
    from briscola.errors import IllegalActionError
    aec = env("classic")
    with pytest.raises(IllegalActionError, match="call reset"):
        aec.observe(aec.possible_agents[0])
    with pytest.raises(IllegalActionError, match="call reset"):
        BotOpponents("beginner").action_masks()
