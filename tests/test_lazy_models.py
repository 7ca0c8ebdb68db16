"""The learned evaluations shipped apart from the engine's wheel (tools/build/models.py):
which models the build leaves out, the file it writes for each, and how the engine installs
one (briscola.ai.learn.install) and says which one a game needs (the bridge's `model`)."""
from __future__ import annotations

import json
import re
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from briscola import bridge  # noqa: E402
from briscola.ai import learn  # noqa: E402
from briscola.ai.learn import IN_WHEEL, install, load, load_file, model_name  # noqa: E402
from briscola.rules import VARIANTS  # noqa: E402
from tools.build import BuildError  # noqa: E402
from tools.build.common import sha256  # noqa: E402
from tools.build.models import in_wheel, lazy_models, left_out, model_json, stage_models  # noqa: E402
from tools.build.wheel import package_files  # noqa: E402

LEARN = ROOT / "py" / "briscola" / "ai" / "learn"


@pytest.fixture
def package(tmp_path) -> Path:
    """A package whose learn/ holds the real __init__.py and the wheel's models, and one model
    more ('demo': the classic weights under another name)."""
    pkg = tmp_path / "briscola"
    (pkg / "ai" / "learn").mkdir(parents=True)
    (pkg / "__init__.py").write_text('__version__ = "0.1.0"\n')
    for name in ["__init__.py", "chiamata.py", *(f"weights_{n}.py" for n in IN_WHEEL)]:
        shutil.copyfile(LEARN / name, pkg / "ai" / "learn" / name)
    text = (LEARN / "weights_classic.py").read_text(encoding="utf-8")
    (pkg / "ai" / "learn" / "weights_demo.py").write_text(
        text.replace("'name': 'classic'", "'name': 'demo'"), encoding="utf-8")
    return pkg


def test_the_build_reads_the_wheels_models_from_the_package():
    assert in_wheel() == IN_WHEEL
    assert {"classic", "four", "chiamata"} <= set(IN_WHEEL)
    present = {p.stem[len("weights_"):] for p in LEARN.glob("weights_*.py")}
    assert set(lazy_models()) == present - set(IN_WHEEL)


def test_a_model_outside_the_wheel_ships_apart(package, tmp_path):
    assert list(lazy_models(package)) == ["demo"]
    assert left_out(package) == {"ai/learn/weights_demo.py"}
    browser = {name for name, _ in package_files(package)}
    full = {name for name, _ in package_files(package, full=True)}
    assert "briscola/ai/learn/weights_demo.py" not in browser
    assert {"briscola/ai/learn/weights_classic.py", "briscola/ai/learn/weights_four.py",
            "briscola/ai/learn/weights_chiamata.py"} <= browser
    assert full - browser >= {"briscola/ai/learn/weights_demo.py"}

    stage = tmp_path / "stage"
    stage.mkdir()
    listed = stage_models(stage, package)
    assert list(listed) == ["demo"]
    path, digest = listed["demo"]["path"], listed["demo"]["sha256"]
    data = (stage / path).read_bytes()
    assert sha256(data) == digest and re.fullmatch(rf"models/demo-{digest[:12]}\.json", path)
    # The engine installs it, and its numbers are the module's.
    module = load_file(str(package / "ai" / "learn" / "weights_demo.py"))
    try:
        model = install("demo", data.decode())
        assert load("demo") is model
        flags, scalars = [0, 41, 77, 171], [0.1, 0.2, 0.5, 0.0]
        assert model.value(flags, scalars) == module.value(flags, scalars)
        assert model.meta == module.meta
    finally:
        learn._MODELS.pop("demo", None)


def test_the_build_refuses_a_model_named_otherwise(package):
    path = package / "ai" / "learn" / "weights_demo.py"
    assert json.loads(model_json("demo", path))["name"] == "demo"
    with pytest.raises(BuildError, match="names the model 'demo'"):
        model_json("other", path)
    path.write_text("META = {'name': 'demo'}\n")
    with pytest.raises(BuildError, match="META"):
        model_json("demo", path)
    (package / "ai" / "learn" / "__init__.py").write_text("IN_WHEEL = None\n")
    with pytest.raises(BuildError, match="IN_WHEEL"):
        lazy_models(package)


def _text(name="classic", **changes) -> str:
    data = json.loads(model_json("classic", LEARN / "weights_classic.py"))
    data["meta"]["name"] = data["name"] = name
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize("text", [
    "not json", "[]", "{}", _text(name="other"), _text(weights="AAAA"), _text(weights="A"),
    _text(meta={"name": "demo"}), _text(meta={"name": "demo", "hidden": "x", "inputs": 181}),
    _text(meta={"name": "demo", "hidden": 64, "inputs": 181, "format": "f32"}),
    json.dumps({"name": "demo", "meta": [], "weights": ""}),
])
def test_a_text_that_is_not_the_model_is_refused_and_changes_nothing(text):
    good = install("demo", _text("demo"))
    try:
        with pytest.raises(ValueError, match="model 'demo'"):
            install("demo", text)
        assert load("demo") is good
    finally:
        learn._MODELS.pop("demo", None)


def test_load_answers_none_until_a_model_is_installed():
    try:
        assert load("demo") is None
        model = install("demo", _text("demo"))
        assert load("demo") is model and load("demo") is not load("classic")
    finally:
        learn._MODELS.pop("demo", None)


def call(kind, args):
    return json.loads(bridge.call(kind, json.dumps(args)))


def test_the_bridge_says_which_model_a_game_needs_and_how_its_bots_searched():
    bridge.reset()
    for name, rules in VARIANTS.items():
        reply = call("model", {"rules": name})["result"]
        want = model_name(rules)
        assert reply["name"] == want
        assert reply["installed"] == (want is not None and load(want) is not None)
        assert reply["searched"] == [None] * rules.players
    assert call("model", {})["error"]["code"] == "bad_request"  # no game yet
    assert call("model", {"rules": "nonesuch"})["error"]["code"] != "internal"
    seats = [{"kind": "bot", "level": "expert"}, {"kind": "human"}]
    state = call("new_match", {"rules": "classic", "seed": 2, "seats": seats})["result"]
    assert call("model", {})["result"] == {"name": "classic", "installed": True,
                                           "searched": [None, None]}
    assert state["view"]["turn"] == 0 or call("act", {"seat": 1, "action": state["view"]["legal"][0]})
    call("bot_step", {})
    searched = call("model", {})["result"]["searched"]
    assert searched == ["learned", None]  # the expert searched with the classic model
    bridge.reset()
