"""The engine under Pyodide (Python 3.14, WebAssembly) in Node, as the browser runs it.

Builds dist/ with build.py (the trimmed stdlib is cached, so a rebuild takes
seconds; BRISCOLA_NO_BUILD=1, as tests/run.sh sets after its own build, uses dist/ as it is), then runs Python inside Pyodide through tests/pyodide/run.mjs with the
built wheel installed. Skipped when node_modules/pyodide is absent (run `npm ci`),
except in CI (CI=true), where that is a failure.
"""
from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.pyodide

ROOT = Path(__file__).resolve().parents[1]
RUN = ROOT / "tests" / "pyodide" / "run.mjs"
MODEL_FILES = ROOT / "py" / "briscola" / "ai" / "learn" / "models"
SMOKE = ROOT / "tests" / "pyodide" / "smoke.py"
PYODIDE_DIR = ROOT / "node_modules" / "pyodide"
BUILD_TIMEOUT = 900
RUN_TIMEOUT = 300


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


@pytest.fixture(scope="module")
def dist() -> dict:
    """Build dist/ once for this module; returns its build manifest."""
    node = shutil.which("node")
    missing = None
    if not (ROOT / "node_modules" / "pyodide" / "pyodide.mjs").is_file():
        missing = "node_modules/pyodide is missing (run `npm ci`)"
    elif node is None:
        missing = "node is not on PATH"
    if missing:
        if _in_ci():
            pytest.fail(f"{missing}: required in CI")
        pytest.skip(missing)
    if os.environ.get("BRISCOLA_NO_BUILD") != "1" or not (ROOT / "dist" / "build-manifest.json").is_file():
        proc = subprocess.run([sys.executable, str(ROOT / "build.py")], cwd=ROOT,
                              capture_output=True, text=True, timeout=BUILD_TIMEOUT)
        assert proc.returncode == 0, f"build.py failed:\n{proc.stdout}\n{proc.stderr}"
    return json.loads((ROOT / "dist" / "build-manifest.json").read_text(encoding="utf-8"))


# Node runs Pyodide's WebAssembly with V8's baseline compiler alone, as the page's tests run
# Chromium (tests/browser/pagekit.py, TEST_JS_FLAGS): each run compiles Pyodide's module anew,
# and the optimising tier's background compiles cost about a second of a core a run, more than
# the faster code gains back in these short programs. The benchmarks keep V8's defaults.
NODE = ("node", "--liftoff-only")


def run_pyodide(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*NODE, str(RUN), *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=RUN_TIMEOUT)


def source_version() -> str:
    text = (ROOT / "py" / "briscola" / "__init__.py").read_text(encoding="utf-8")
    return re.search(r"""^__version__\s*=\s*["']([^"']+)["']""", text, re.M).group(1)


def test_version_in_pyodide(dist):
    proc = run_pyodide("-c", "import sys, briscola; print(sys.version_info[:2]); "
                             "print(briscola.__version__)")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.split()
    assert lines[-1] == source_version() == dist["version"]
    assert "(3, 14)" in proc.stdout  # Pyodide 314 is Python 3.14


def test_smoke(dist):
    proc = run_pyodide(str(SMOKE))
    assert proc.returncode == 0, f"smoke.py failed:\n{proc.stdout}\n{proc.stderr}"
    assert f"briscola {source_version()}" in proc.stdout


def test_stdlib_is_trimmed_and_precompiled(dist):
    proc = run_pyodide("-c", "import json, random; print(json.__file__); "
                             "print(random.__spec__.origin)")
    assert proc.returncode == 0, proc.stderr
    assert all(line.endswith(".pyc") for line in proc.stdout.split()), proc.stdout
    report = dist["stdlib_report"]
    assert "unittest" in report["modules_dropped"]
    assert report["verify"]["broken"] == []


def test_the_harness_installs_the_models_the_page_loads_apart(dist):
    """tests/pyodide/run.mjs installs every model the wheel leaves out (as the page's worker
    does when its variant is played; bench/thinking.py measures the expert with them), unless
    --no-models."""
    code = ("import json\nfrom briscola.ai.learn import load\n"
            f"print(json.dumps([load(n) is not None for n in {sorted(dist['models'])!r}]))")
    for flags, want in (((), True), (("--no-models",), False)):
        proc = run_pyodide(*flags, "-c", code)
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout.strip().splitlines()[-1]) == [want] * len(dist["models"])


def test_python_errors_fail_the_run(dist):
    proc = run_pyodide("-c", "raise ValueError('boom')")
    assert proc.returncode == 1
    assert "ValueError: boom" in proc.stderr
    proc = run_pyodide("-c", "import sys; sys.exit(3)")
    assert proc.returncode == 3


def test_dist_holds_only_what_the_page_fetches(dist):
    files = set(dist["files"])
    pyodide = sorted(f for f in files if f.startswith("pyodide/"))
    assert pyodide[:3] == ["pyodide/pyodide.asm.mjs", "pyodide/pyodide.asm.wasm",
                           "pyodide/pyodide.mjs"]
    assert len(pyodide) == 4 and re.fullmatch(r"pyodide/python_stdlib-[0-9a-f]{12}\.zip",
                                              pyodide[3])
    assert not any(f.endswith((".map", ".d.ts")) or "console" in f for f in files)
    assert dist["wheel"] in files and dist["stdlib"] in files
    info = (ROOT / "dist" / "js" / "build-info.js").read_text(encoding="utf-8")
    assert f'"hash": "{dist["hash"]}"' in info
    # The engine's bytecode, all of it but the command line, which the page never runs.
    import zipfile
    with zipfile.ZipFile(ROOT / "dist" / dist["wheel"]) as wheel:
        names = set(wheel.namelist())
    assert {"briscola/bridge.pyc", "briscola/ai/expert.pyc", "briscola/match.pyc"} <= names, names
    assert not names & {"briscola/cli.pyc", "briscola/__main__.pyc", "briscola/env.pyc"}, names
    # as source only the modules the engine's start does not import (tools/build/wheel.py)
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from tools.build.wheel import AS_SOURCE
    assert {n for n in names if n.endswith(".py")} == {f"briscola/{m}" for m in AS_SOURCE}, names
    assert not names & {f"briscola/{m}c" for m in AS_SOURCE}, names
    # The learned evaluations: in the wheel, only IN_WHEEL's; each other one a file of its own,
    # named by its hash, listed with it (build-manifest.json, js/build-info.js), carried by the
    # one-file page, in the micropip wheel as source.
    sys.path.insert(0, str(ROOT / "py"))
    from briscola.ai.learn import IN_WHEEL
    present = {p.stem for p in MODEL_FILES.glob("*.bin")}
    assert set(IN_WHEEL) < present
    weights = {n for n in names if "/learn/" in n and not n.endswith(("/__init__.pyc", "/chiamata.pyc"))}
    assert weights == {f"briscola/ai/learn/models/{m}.bin" for m in IN_WHEEL}, weights
    assert set(dist["models"]) == present - set(IN_WHEEL)
    build_info = json.loads(info[info.index("freeze(") + len("freeze("):info.rindex(");")])
    assert build_info["models"] == dist["models"]
    page = (ROOT / "dist" / "briscola.html").read_text(encoding="utf-8")
    for name, model in dist["models"].items():
        data = (ROOT / "dist" / model["path"]).read_bytes()
        assert model["sha256"] == hashlib.sha256(data).hexdigest() == dist["files"][model["path"]]["sha256"]
        assert model["path"] == f"models/{name}-{model['sha256'][:12]}.bin"
        assert data == (MODEL_FILES / f"{name}.bin").read_bytes()  # the package's own file
        assert f'data-path="{model["path"]}"' in page
    # The wheels for micropip are there, but the page never fetches them: not in its files,
    # not precached by the service worker.
    mp = dist["micropip"]
    assert {mp["wheel"], mp["latest"]} <= files
    listed = (ROOT / "dist" / "sw.js").read_text(encoding="utf-8") + info
    assert mp["wheel"] not in listed and mp["latest"] not in listed
    with zipfile.ZipFile(ROOT / "dist" / mp["latest"]) as wheel:
        names = set(wheel.namelist())
    assert {"briscola/env.py", "briscola/game.py", "briscola/cli.py"} <= names, names
    assert {f"briscola/ai/learn/models/{m}.bin" for m in present} <= names, names
    assert (ROOT / "dist" / mp["latest"]).read_bytes() == (ROOT / "dist" / mp["wheel"]).read_bytes()


def test_micropip_installs_the_engine_from_the_site(dist):
    """A stock Pyodide (its own stdlib and lock file) loads micropip's wheel (fetched by the
    build) and installs the engine from the built site over HTTP by the stable URL; a deal is
    played and reviewed. micropip refuses a wheel named briscola-latest-... (no version)."""
    import functools
    import http.server
    import threading

    sys.path.insert(0, str(ROOT))
    from tools.build.micropip import MICROPIP_CACHE, MICROPIP_WHEEL

    wheel = MICROPIP_CACHE / MICROPIP_WHEEL
    assert wheel.is_file(), f"{wheel} missing: the build could not fetch micropip's wheel"
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(ROOT / "dist"))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}/"
        proc = subprocess.run(
            [*NODE, str(ROOT / "tests" / "pyodide" / "micropip.mjs"), str(wheel),
             base + dist["micropip"]["latest"], base + "wheels/briscola-latest-py3-none-any.whl"],
            cwd=ROOT, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    finally:
        server.shutdown()
        server.server_close()
    assert proc.returncode == 0, f"{proc.stdout}\n{proc.stderr}"
    out = proc.stdout
    assert "refused InvalidWheelFilename" in out, out
    assert f"installed {source_version()} {source_version()} " in out, out
    assert "/site-packages/briscola/" in out and "played [" in out, out
    assert re.search(r"reviewed [1-9]\d* decisions", out), out


def _positions(name: str, count: int, seed: int) -> list:
    """Inputs for model `name`: positions of a variant it serves (`model_name`), as its encoder
    makes them (classic's where no variant names it)."""
    from briscola.ai.learn import Encoder, model_name
    from briscola.rules import VARIANTS
    rules = next((r for r in VARIANTS.values() if model_name(r) == name), VARIANTS["classic"])
    t = rules.tables
    enc = Encoder(rules, 1)
    rng = __import__("random").Random(seed)
    out = []
    for _ in range(count):
        cards = list(t.deck_ints)
        rng.shuffle(cards)
        hand = sum(1 << c for c in cards[:rules.hand_size])
        unseen = sum(1 << c for c in cards[rules.hand_size:rules.hand_size + rng.randrange(3, len(cards) - 3)])
        mine = rng.randrange(0, t.total_points // 2)
        out.append(enc.encode(0, hand, unseen, 0, cards[-1], [], -1, rng.randrange(rules.players),
                              mine, rng.randrange(0, t.total_points - mine),
                              rng.randrange(0, len(cards) - rules.players * rules.hand_size), 0))
    return out


def test_learned_model_same_numbers_as_cpython(dist):
    """Every learned evaluation of two-player-style inputs (every model file but Chiamata's,
    tested below) gives CPython's values in Pyodide, bit for bit: those in the engine's wheel as
    it loads them, the others (shipped apart, tools/build/models.py) once installed from the
    site's file as the page's worker installs them, and none of those before."""
    sys.path.insert(0, str(ROOT / "py"))
    from briscola.ai.learn import load
    names = sorted(p.stem for p in MODEL_FILES.glob("*.bin") if p.stem != "chiamata")
    assert {"classic", "four"} <= set(names)
    positions = {n: _positions(n, 12, 7) for n in names}
    want = {n: [load(n).value(f, s) for f, s in positions[n]] for n in names}
    texts = {n: base64.b64encode((ROOT / "dist" / m["path"]).read_bytes()).decode()
             for n, m in dist["models"].items()}
    assert set(texts) == set(names) - {"classic", "four"}
    code = ("import base64, json\nfrom briscola.ai.learn import install, load\n"
            f"pos = json.loads({json.dumps(json.dumps(positions))})\n"
            f"texts = json.loads({json.dumps(json.dumps(texts))})\n"
            "missing = sorted(n for n in texts if load(n) is None)\n"
            "for n, text in texts.items(): install(n, base64.b64decode(text))\n"
            "print(json.dumps([missing, {n: [load(n).value(f, s) for f, s in p] for n, p in pos.items()}]))")
    proc = run_pyodide("--no-models", "-c", code)
    assert proc.returncode == 0, proc.stderr
    missing, got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert missing == sorted(texts)  # the wheel has none of them
    assert got == want


def test_chiamata_model_same_numbers_as_cpython(dist):
    """The shipped Chiamata network loads in Pyodide and gives CPython's values at leaves
    reached incrementally from a world's hands, bit for bit."""
    sys.path.insert(0, str(ROOT / "py"))
    from briscola.ai.learn.chiamata import ChNetEvaluator, load_model
    from briscola.rules import find_variant
    rules = find_variant("chiamata")
    rng = __import__("random").Random(5)
    cases = []
    for k in range(10):
        cards = list(rules.tables.deck_ints)
        rng.shuffle(cards)
        hands = [sum(1 << c for c in cards[8 * s:8 * s + 8]) for s in range(5)]
        leaf = [h ^ (1 << max(c for c in range(64) if h >> c & 1)) for h in hands]
        caller = rng.randrange(5)
        maxside = [s in (caller, (caller + k % 5) % 5) for s in range(5)]
        cases.append([hands, leaf, rng.randrange(5), maxside, k % 4 if k < 9 else None])
    code = ("import json\nfrom briscola.ai.learn.chiamata import ChNetEvaluator, load_model\n"
            "from briscola.rules import find_variant\n"
            "rules = find_variant('chiamata')\nm = load_model()\n"
            f"cases = json.loads({json.dumps(json.dumps(cases))})\n"
            "out = []\n"
            "for hands, leaf, leader, maxside, trump in cases:\n"
            "    ev = ChNetEvaluator(m, rules, trump, maxside)\n"
            "    ev.start(hands)\n"
            "    out.append([ev.value(hands, leader), ev.value(leaf, leader)])\n"
            "print(json.dumps(out))")
    model = load_model()
    assert model is not None
    want = []
    for hands, leaf, leader, maxside, trump in cases:
        ev = ChNetEvaluator(model, rules, trump, maxside)
        ev.start(hands)
        want.append([ev.value(hands, leader), ev.value(leaf, leader)])
    proc = run_pyodide("-c", code)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert got == want


def test_the_built_scripts_linking_resolves_what_the_main_module_imports(dist, tmp_path):
    """The built site's pyodide.asm.mjs (tools/build/linking.py: the JavaScript functions'
    table wrappers made by one module; the global offset table set only where the main
    module imports) against Pyodide's own: every entry it has is one Pyodide's has, none is
    left unresolved, data entries hold the same addresses and function entries a function
    of the same arity, and the same wasm function where Pyodide's holds one of the main
    module's (Pyodide's own wrappers each come from a module of one function: index 0)."""
    from tools.build.linking import patch_linking
    from tools.build.common import BuildError
    ours = (ROOT / "dist" / "pyodide" / "pyodide.asm.mjs").read_text(encoding="utf-8")
    stock = PYODIDE_DIR / "pyodide.asm.mjs"
    assert ours == patch_linking(stock.read_text(encoding="utf-8"))
    with pytest.raises(BuildError):
        patch_linking(ours)  # applied once, and only to the code it knows
    copy = tmp_path / "pyodide"
    copy.mkdir()
    for f in PYODIDE_DIR.iterdir():
        if f.name != "pyodide.asm.mjs":
            (copy / f.name).symlink_to(f)
    (copy / "pyodide.asm.mjs").write_text(ours, encoding="utf-8")
    script = ROOT / "tests" / "pyodide" / "linking.mjs"
    runs = []
    for where in (PYODIDE_DIR, copy):
        proc = subprocess.run([*NODE, str(script), str(where)], capture_output=True, text=True,
                              timeout=300)
        assert proc.returncode == 0, proc.stderr
        runs.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    stock_run, our_run = runs
    assert our_run["python"] == stock_run["python"] == "JsException 6"
    assert our_run["empty"] == [] and stock_run["empty"] == []
    mine, theirs = our_run["got"], stock_run["got"]
    assert 100 < len(mine) < len(theirs) and set(mine) <= set(theirs)
    functions = wrappers = 0
    for name, entry in mine.items():
        other = theirs[name]
        assert len(entry) == len(other), name  # a function where Pyodide has one
        if len(entry) == 1:
            assert entry == other, name  # the same address of data
            continue
        functions += 1
        assert entry[2] == other[2], name  # the same arity
        if other[1] == "0":
            wrappers += 1  # a JavaScript function's wrapper: ours come from one module
        else:
            assert entry[1] == other[1], name  # the same function of the main module
    assert functions > 100 and wrappers >= 200
    assert our_run["tableLength"] < stock_run["tableLength"]

def test_the_bridge_refuses_deep_and_huge_text_in_pyodide_too(dist):
    """The bridge's own check (the last line behind the worker's) runs in Pyodide without
    recursion: a request and a save nested 100,000 deep are refused, the interpreter alive;
    unchecked, json.loads of the same text stops Pyodide (a fatal error, not an exception)."""
    code = """
import json
from briscola import bridge
deep = "[" * 100000 + "]" * 100000
print(json.loads(bridge.call("state", deep))["error"]["code"])
print(json.loads(bridge.call("load", json.dumps({"save": deep})))["error"]["code"])
print(json.loads(bridge.call("state", '{"seat": "' + "é" * 1000001 + '"}'))["error"]["code"])
print(json.loads(bridge.call("ping", "{}"))["result"]["version"] == bridge.__version__)
"""
    proc = run_pyodide("-c", code)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split()[-4:] == ["input_too_deep", "bad_save", "input_too_large", "True"]
    proc = run_pyodide("-c", "import json; json.loads('[' * 100000 + ']' * 100000)")
    assert proc.returncode != 0 and "fatal error" in (proc.stdout + proc.stderr)


def test_the_built_worker_carries_the_bounds_and_no_comment_lines(dist, tmp_path):
    """dist/js/worker.js: js/limits.js inlined in place of its import (the page's engine client
    carries the build's hash), its comment lines left out, and it still parses as a module."""
    from tools.build.common import BuildError
    from tools.build.onefile import without_comment_lines
    worker = (ROOT / "dist" / "js" / "worker.js").read_text(encoding="utf-8")
    assert "function checkJSON(" in worker and "./limits.js" not in worker and "build-info" not in worker
    assert not [line for line in worker.splitlines() if line.strip().startswith(("//", "/*"))]
    engine = (ROOT / "dist" / "js" / "engine.js").read_text(encoding="utf-8")
    assert f'export const PAGE_BUILD = "{dist["hash"]}";' in engine
    copy = tmp_path / "worker.mjs"
    copy.write_text(worker, encoding="utf-8")
    proc = subprocess.run(["node", "--check", str(copy)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert without_comment_lines("a();\n  // b\n/* c\n d */\n/** e */ \nf(); // g") == "a();\nf(); // g"
    with pytest.raises(BuildError):
        without_comment_lines("const t = `one\n// two\n`;")
