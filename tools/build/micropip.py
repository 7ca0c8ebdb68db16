"""The engine for micropip: the wheels any Pyodide installs from the site, and micropip's own
wheel for the test that does it.

The page loads the engine its own way (wheel.py: bytecode for the pinned Pyodide, put on
sys.path). A person in JupyterLite, the Pyodide console or their own page installs it the
way that ecosystem installs packages:

    import micropip
    await micropip.install("<site>/wheels/briscola-0+latest-py3-none-any.whl")

These wheels hold the whole package as sources (any Python >= 3.11, any Pyodide), the
research environment and the command line included. Two copies of the same bytes:

- `wheels/<hash>/briscola-<version>-py3-none-any.whl`, the exact one, named in
  build-manifest.json (`micropip.wheel`, with its sha256);
- `wheels/briscola-0+latest-py3-none-any.whl`, the stable URL of the latest build.
  micropip reads a wheel's version from its file name and refuses one that is no PEP 440
  version (`briscola-latest-…` raises InvalidWheelFilename); `0+latest` is one (a local
  label), and what is installed is the wheel's own metadata (briscola 0.1.0). pip checks the
  two against each other and refuses the stable name: with pip, use the exact one.

Neither is precached by the service worker nor listed in js/build-info.js: the page never
fetches them, and a first visit's bytes do not change.

micropip's own wheel is fetched from the package index by the build, pinned by version and
hash (the version the pinned Pyodide distributes), cached in build/micropip/; the test under
Pyodide in Node (tests/test_pyodide.py) loads it from there, never from the network. Without
a network the build goes on and says so, and that test fails with the reason.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from .common import BUILD_DIR, PYODIDE_DIR, log, sha256
from .wheel import build_wheel

MICROPIP_VERSION = "0.11.1"
MICROPIP_WHEEL = f"micropip-{MICROPIP_VERSION}-py3-none-any.whl"
MICROPIP_SHA256 = "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3"
MICROPIP_CACHE = BUILD_DIR / "micropip"
LATEST = "wheels/briscola-0+latest-py3-none-any.whl"


def micropip_wheel() -> Path | None:
    """micropip's wheel from the cache, fetched once (pip download); None if it cannot be."""
    path = MICROPIP_CACHE / MICROPIP_WHEEL
    if path.is_file() and sha256(path.read_bytes()) == MICROPIP_SHA256:
        return path
    lock = json.loads((PYODIDE_DIR / "pyodide-lock.json").read_text(encoding="utf-8"))
    shipped = lock.get("packages", {}).get("micropip", {}).get("version")
    if shipped != MICROPIP_VERSION:
        log(f"warning: the pinned Pyodide distributes micropip {shipped}, "
            f"tools/build/micropip.py pins {MICROPIP_VERSION}")
    python = ".".join(lock["info"]["python"].split(".")[:2])
    tmp = MICROPIP_CACHE / f"tmp-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
           "--no-deps", "--only-binary=:all:", "--python-version", python, "--dest", str(tmp),
           f"micropip=={MICROPIP_VERSION}"]
    log(f"micropip: fetching {MICROPIP_WHEEL} (once; cached in build/micropip/)")
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        ok = proc.returncode == 0
        why = proc.stderr.strip().splitlines()[-1:] if not ok else []
    except (OSError, subprocess.TimeoutExpired) as exc:
        ok, why = False, [str(exc)]
    got = tmp / MICROPIP_WHEEL
    if ok and got.is_file() and sha256(got.read_bytes()) != MICROPIP_SHA256:
        ok, why = False, [f"sha256 {sha256(got.read_bytes())}, expected {MICROPIP_SHA256}"]
    if not ok or not got.is_file():
        shutil.rmtree(tmp, ignore_errors=True)
        log(f"warning: micropip's wheel could not be fetched ({' '.join(why) or 'no file'}); "
            "the site is built without it, the micropip test will fail")
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    os.replace(got, path)
    shutil.rmtree(tmp, ignore_errors=True)
    return path


def stage_micropip_wheels(stage: Path, files: dict, add_file) -> dict:
    """Write the micropip wheels into the staged site; their entry of build-manifest.json."""
    name, data, version = build_wheel(full=True)
    exact = f"wheels/{sha256(data)[:12]}/{name}"
    for rel in (exact, LATEST):
        (stage / rel).parent.mkdir(parents=True, exist_ok=True)
        add_file(stage, files, rel, data)
    log(f"micropip: {exact} and {LATEST} ({len(data)} bytes, sources)")
    micropip_wheel()  # for the test under Pyodide in Node; cached
    return {"wheel": exact, "latest": LATEST, "sha256": sha256(data), "version": version,
            "micropip": MICROPIP_VERSION}
