#!/usr/bin/env python3
"""The table's pace: seconds from the person's play to their next turn, in headless Chromium.

    python bench/pace.py [--deals 2] [--speeds normal,slow] [--level intermediate] [--dist DIR]

Serves the built site (dist/, `python3 build.py` first) on 127.0.0.1 and, for each speed,
plays whole classic deals against the computer by clicking the first playable card, with
motion on (the animations are part of the pace). A probe in the page notes the moment of
each click and the moment the page next marks the person's turn (`data-ui="waiting"`);
the time between them is one trick as the person lives it: their card's flight, the
computer's pause and move, the full trick shown, collected, the cards drawn. The last
trick of a deal ends the deal and is not counted. Prints the median and the range as a
markdown table, with the machine's load average (it is shared: single runs are noisy).
"""
from __future__ import annotations

import argparse
import functools
import http.server
import os
import statistics
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools import chromium  # noqa: E402

# Runs before the page's scripts: the time of every change of the page's mode.
PROBE = """
(() => {
  window.__pace = [];
  new MutationObserver(() => window.__pace.push([document.documentElement.dataset.ui, performance.now()]))
    .observe(document, { attributes: true, subtree: true, attributeFilter: ["data-ui"] });
})();
"""


class Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm"}

    def log_message(self, *args):
        pass


def serve(directory: Path):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def one_deal(browser, base: str, speed: str, level: str, seed: int) -> list[float]:
    """Seconds per trick of one deal, the person's play to their next turn."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="no-preference")
    ctx.add_init_script(PROBE)
    page = ctx.new_page()
    page.set_default_timeout(120000)
    page.goto(base + "build-manifest.json")
    page.evaluate("s => { localStorage.clear(); localStorage.setItem('briscola.prefs', JSON.stringify({speed: s, lang: 'en'})); }", speed)
    page.goto(f"{base}?variant=classic&level={level}&seed={seed}")
    settled = "() => ['waiting', 'summary', 'over', 'error'].includes(document.documentElement.dataset.ui)"
    page.wait_for_function(settled)
    times = []
    while page.evaluate("document.documentElement.dataset.ui") == "waiting":
        card = page.locator(".hand .hand-card.playable").first
        t0 = page.evaluate("performance.now()")
        card.click()
        page.wait_for_function("n => window.__pace.length > n && "
                               "['waiting', 'summary', 'over', 'error'].includes(document.documentElement.dataset.ui)",
                               arg=page.evaluate("window.__pace.length"))
        ui, t1 = page.evaluate("window.__pace[window.__pace.length - 1]")
        if ui == "waiting":
            times.append((t1 - t0) / 1000)
    ctx.close()
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=2)
    ap.add_argument("--speeds", default="normal,slow")
    ap.add_argument("--level", default="intermediate")
    ap.add_argument("--dist", type=Path, default=ROOT / "dist")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright
    if not (args.dist / "index.html").exists():
        raise SystemExit(f"{args.dist}/index.html missing: run python3 build.py first")
    server, base = serve(args.dist)
    load_before = os.getloadavg()[0]
    rows = []
    with sync_playwright() as p:
        browser = chromium.launch(p.chromium)
        for speed in args.speeds.split(","):
            times = []
            for d in range(args.deals):
                times += one_deal(browser, base, speed, args.level, seed=101 + d)
            rows.append((speed, len(times), statistics.median(times), min(times), max(times)))
        browser.close()
    server.shutdown()
    print(f"Classic deal against the {args.level} computer, motion on, 1280×800; "
          f"load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after ({os.cpu_count()} cores).\n")
    print("| speed | tricks | median s per trick | range |")
    print("| --- | ---: | ---: | --- |")
    for speed, n, med, lo, hi in rows:
        print(f"| {speed} | {n} | {med:.2f} | {lo:.2f}–{hi:.2f} |")


if __name__ == "__main__":
    main()
