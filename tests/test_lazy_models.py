"""The learned evaluations shipped apart from the engine's wheel (tools/build/models.py):
which models the build leaves out, the file it writes for each, and how the engine installs
one (briscola.ai.learn.install) and says which one a game needs (the bridge's `model`)."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from briscola import bridge  # noqa: E402
from briscola.ai import learn  # noqa: E402
from briscola.ai.learn import (IN_WHEEL, install, load, load_file, model_name,  # noqa: E402
                                pack_model, read_model)
from briscola.rules import VARIANTS  # noqa: E402
from tools.build import BuildError  # noqa: E402
from tools.build.common import sha256  # noqa: E402
from tools.build.models import in_wheel, lazy_models, left_out, model_file, stage_models  # noqa: E402
from tools.build.wheel import package_files  # noqa: E402

LEARN = ROOT / "py" / "briscola" / "ai" / "learn"
MODELS = LEARN / "models"


def _split(data: bytes) -> tuple[dict, bytes]:
    """A model file's metadata and weights, read here by hand (the layout the engine reads)."""
    n = int.from_bytes(data[5:7], "little")
    return json.loads(data[7:7 + n]), data[7 + n:]


def _file(name="classic", meta=None, raw=None, **changes) -> bytes:
    """The classic model's file, renamed ``name``, with its metadata or weights changed."""
    meta0, raw0 = _split((MODELS / "classic.bin").read_bytes())
    meta = dict(meta0 if meta is None else meta)
    meta.update(changes)
    if "name" not in changes and meta is not None:
        meta["name"] = name
    return pack_model(meta, raw0 if raw is None else raw)


@pytest.fixture
def package(tmp_path) -> Path:
    """A package whose learn/ holds the real __init__.py and the wheel's models, and one model
    more ('demo': the classic weights under another name)."""
    pkg = tmp_path / "briscola"
    (pkg / "ai" / "learn" / "models").mkdir(parents=True)
    (pkg / "__init__.py").write_text('__version__ = "0.1.0"\n')
    for name in ["__init__.py", "chiamata.py"]:
        shutil.copyfile(LEARN / name, pkg / "ai" / "learn" / name)
    for name in IN_WHEEL:
        shutil.copyfile(MODELS / f"{name}.bin", pkg / "ai" / "learn" / "models" / f"{name}.bin")
    (pkg / "ai" / "learn" / "models" / "demo.bin").write_bytes(_file("demo"))
    return pkg


def test_the_build_reads_the_wheels_models_from_the_package():
    assert in_wheel() == IN_WHEEL
    assert {"classic", "four", "chiamata"} <= set(IN_WHEEL)
    present = {p.stem for p in MODELS.glob("*.bin")}
    assert set(IN_WHEEL) < present
    assert set(lazy_models()) == present - set(IN_WHEEL)
    # Every model of the package loads, whole, with its own name (the Chiamata network has
    # its own encoder's inputs).
    for name in present:
        meta, _raw = _split((MODELS / f"{name}.bin").read_bytes())
        model = read_model((MODELS / f"{name}.bin").read_bytes(), name, meta["inputs"])
        assert model.meta["name"] == name and model.meta == meta


def test_a_model_outside_the_wheel_ships_apart(package, tmp_path):
    assert list(lazy_models(package)) == ["demo"]
    assert left_out(package) == {"ai/learn/models/demo.bin"}
    browser = {name for name, _ in package_files(package)}
    full = {name for name, _ in package_files(package, full=True)}
    assert "briscola/ai/learn/models/demo.bin" not in browser
    assert {"briscola/ai/learn/models/classic.bin", "briscola/ai/learn/models/four.bin",
            "briscola/ai/learn/models/chiamata.bin"} <= browser
    assert full - browser >= {"briscola/ai/learn/models/demo.bin"}

    stage = tmp_path / "stage"
    stage.mkdir()
    listed = stage_models(stage, package)
    assert list(listed) == ["demo"]
    path, digest = listed["demo"]["path"], listed["demo"]["sha256"]
    data = (stage / path).read_bytes()
    assert sha256(data) == digest and re.fullmatch(rf"models/demo-{digest[:12]}\.bin", path)
    # The package's own bytes, which the engine installs: the model's numbers and metadata.
    assert data == (package / "ai" / "learn" / "models" / "demo.bin").read_bytes()
    candidate = load_file(str(package / "ai" / "learn" / "models" / "demo.bin"))
    try:
        model = install("demo", data)
        assert load("demo") is model
        flags, scalars = [0, 41, 77, 171], [0.1, 0.2, 0.5, 0.0]
        assert model.value(flags, scalars) == candidate.value(flags, scalars) \
            == load("classic").value(flags, scalars)
        assert model.meta == candidate.meta == dict(load("classic").meta, name="demo")
    finally:
        learn._MODELS.pop("demo", None)


def test_the_build_refuses_a_model_named_otherwise(package):
    path = package / "ai" / "learn" / "models" / "demo.bin"
    assert model_file("demo", path) == path.read_bytes()
    with pytest.raises(BuildError, match="name the model 'demo'"):
        model_file("other", path)
    path.write_bytes(b"META = {'name': 'demo'}\n")
    with pytest.raises(BuildError, match="not a model file"):
        model_file("demo", path)
    (package / "ai" / "learn" / "__init__.py").write_text("IN_WHEEL = None\n")
    with pytest.raises(BuildError, match="IN_WHEEL"):
        lazy_models(package)


def test_a_model_file_reads_back_as_written():
    meta, raw = _split((MODELS / "classic.bin").read_bytes())
    data = pack_model(meta, raw)
    assert data == (MODELS / "classic.bin").read_bytes()
    assert data[:5] == b"BRNN\x01" and len(raw) == 181 * 64 + 2 * (181 + 64 + 64 + 1)  # i8
    model = read_model(memoryview(data), "classic")  # as the page's worker hands it over
    assert model.meta == meta and model.w1 == load("classic").w1


_GOOD_META = _split((MODELS / "classic.bin").read_bytes())[0]


@pytest.mark.parametrize("data, says", [
    ("not bytes", "expected a model file's bytes"),
    (b"", "not a model file"),
    (b"PK\x03\x04 a zip, say", "not a model file"),
    (_file("demo")[:6], "not a model file"),
    (b"BRNN\x02" + _file("demo")[5:], "version 2"),
    (b"BRNN\x01\xff\xff{}", "ends inside its metadata (65535 bytes said, 2 there)"),
    (b"BRNN\x01\x03\x00{x}", "metadata do not read"),
    (b"BRNN\x01\x02\x00\xff\xfe", "metadata do not read"),
    (b"BRNN\x01\x02\x00[]", "metadata name no model"),
    (_file(name="other"), "holds the model 'other'"),
    (_file("demo")[:-1], "12203 bytes of weights"),  # one byte short
    (_file("demo") + b"\0", "12205 bytes of weights"),  # one byte more
    (_file("demo", hidden=63), "for 181 inputs and 63 hidden units"),
    (_file("demo", inputs=86), "its encoder has 181 inputs"),  # Chiamata's shape, not this one's
    (_file("demo", hidden="64"), "whole numbers of inputs"),
    (_file("demo", meta={"name": "demo"}), "whole numbers of inputs"),
    (_file("demo", scale="x"), "numeric scale"),
    (_file("demo", format="f32"), "unknown weight format 'f32'"),
])
def test_a_file_that_is_not_the_model_is_refused_and_changes_nothing(data, says):
    good = install("demo", _file("demo"))
    try:
        with pytest.raises(ValueError, match=f"model 'demo'.*{re.escape(says)}"):
            install("demo", data)
        assert load("demo") is good
    finally:
        learn._MODELS.pop("demo", None)


def test_load_answers_none_until_a_model_is_installed():
    try:
        assert load("demo") is None
        assert load("../classic") is None and load("Classic") is None  # names, not paths
        model = install("demo", _file("demo"))
        assert load("demo") is model and load("demo") is not load("classic")
    finally:
        for name in ("demo", "../classic", "Classic"):
            learn._MODELS.pop(name, None)


def test_the_models_load_from_a_zipped_package(tmp_path):
    """As the page's wheel is read (zipimport, the wheel on sys.path): the models are found in
    the zip and give the same numbers; a name it lacks answers None."""
    from tools.build.wheel import build_wheel
    name, data, _version = build_wheel(full=True)
    wheel = tmp_path / name
    wheel.write_bytes(data)
    code = ("import json, sys\n"
            f"sys.path.insert(0, {str(wheel)!r})\n"
            "from briscola.ai import learn\n"
            "assert learn.__file__.startswith(sys.path[0]), learn.__file__\n"
            "m = learn.load('classic')\n"
            "print(json.dumps([m.value([0, 41, 77, 171], [0.1, 0.2, 0.5, 0.0]), m.meta,"
            " learn.load('nonesuch')]))\n")
    proc = subprocess.run([sys.executable, "-S", "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120, env={"PATH": "/usr/bin:/bin"})
    assert proc.returncode == 0, proc.stderr
    value, meta, missing = json.loads(proc.stdout)
    assert value == load("classic").value([0, 41, 77, 171], [0.1, 0.2, 0.5, 0.0])
    assert meta == load("classic").meta and missing is None


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
