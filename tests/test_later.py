"""What a first visit does not download: the page's modules that a first deal does not run
(js/later.js imports them when first needed; the service worker keeps them from then on:
tools/build/site.py modules_when_needed) and the engine's modules that its start does not
import (the page's wheel carries them as source: tools/build/wheel.py AS_SOURCE)."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.build.modules import module_graph, page_entries  # noqa: E402
from tools.build.onefile import LATER, one_file_modules  # noqa: E402
from tools.build.site import modules_when_needed  # noqa: E402
from tools.build.wheel import AS_SOURCE  # noqa: E402


def test_the_page_imports_at_its_start_none_of_the_modules_loaded_later():
    page = set(module_graph(ROOT, page_entries((ROOT / "index.html").read_text(encoding="utf-8"))))
    later = modules_when_needed(ROOT)
    assert {"js/review.js", "js/replay.js", "js/puzzle.js", "js/carry.js", "js/decks.js", "js/chiamata.js"} <= later, later
    assert not later & page, later & page
    assert "js/later.js" in page and "js/puzzle-entry.js" in page


def test_the_one_file_page_carries_the_modules_loaded_later():
    """briscola.html bundles a stand-in of js/later.js with the same exports that imports them
    (the build refuses a stand-in whose exports differ)."""
    stand_in = one_file_modules(ROOT)[LATER]
    graph = set(module_graph(ROOT, [LATER], replaced={LATER: stand_in}))
    assert modules_when_needed(ROOT) <= graph, modules_when_needed(ROOT) - graph


def test_the_engines_start_imports_none_of_the_modules_shipped_as_source():
    """bridge.prepare() is what the page's worker runs before its first deal (js/worker.js): a
    module it imported would be compiled at every start instead of read as bytecode."""
    modules = sorted("briscola." + m.removesuffix(".py").replace("/", ".") for m in AS_SOURCE)
    code = ("import sys; from briscola import bridge; bridge.prepare(); "
            f"started = [m for m in {modules!r} if m in sys.modules]; "
            "assert not started, started")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT / "py", timeout=120)
