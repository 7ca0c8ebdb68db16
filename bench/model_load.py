#!/usr/bin/env python3
"""How soon a variant's learned evaluation is there once a person chooses that variant, in
headless Chromium (the models the engine's wheel leaves out: tools/README.md, "The models of
the other variants").

    python bench/model_load.py [--dist dist] [--runs 5] [--variant bisca]

Serves the built site as bench/startup.py does (gzip, Cache-Control: max-age=600) and, for
each run, opens a fresh profile on a classic deal link, waits for the first visit to be over
(service worker and snapshot), then, twice (the first visit; after a reload, the model in the
build's cache):

  panel   opens the New game panel and chooses the variant: milliseconds from the choice to
          the engine saying the model is installed (the bridge's `model`, asked every 2 ms)
  direct  the page's `check_rules` for the variant, then the same wait (the worker's part:
          the download or the cache, the SHA-256, the install in Python)

Prints each run and the medians. Needs a build whose manifest lists a model for the variant.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "py"))

import build  # noqa: E402
from tools import chromium  # noqa: E402
from tools.chromium import OFFLINE_READY, until  # noqa: E402

WAIT = """async ([variant, panel]) => {
  const engine = window.__briscola.engine;
  const t0 = performance.now();
  if (panel) {
    const select = document.getElementById('ng-variant');
    select.value = variant;
    select.dispatchEvent(new Event('change', {bubbles: true}));
  } else {
    await engine.call('check_rules', {rules: variant});
  }
  while (!(await engine.call('model', {rules: variant})).installed) await new Promise((r) => setTimeout(r, 2));
  return performance.now() - t0;
}"""
SETTLED = 'html[data-ui="waiting"]'
FORGET = """async () => {
  for (const name of await caches.keys()) {
    const cache = await caches.open(name);
    for (const request of await cache.keys()) if (request.url.includes('/models/')) await cache.delete(request);
  }
}"""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dist", type=Path, default=ROOT / "dist")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--variant", default="bisca")
    args = ap.parse_args(argv)
    manifest = json.loads((args.dist / "build-manifest.json").read_text(encoding="utf-8"))
    if not manifest.get("models"):
        print(f"{args.dist}: this build ships no model apart", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright
    server = build.make_server(args.dist, 0, "/", cache_control="max-age=600")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/?variant=classic&level=beginner&seed=4&lang=en"
    out: dict[str, list[float]] = {}
    try:
        with sync_playwright() as p:
            browser = chromium.launch(p.chromium)
            for run in range(args.runs):
                ctx = browser.new_context()
                ctx.add_init_script("localStorage.setItem('briscola.prefs', JSON.stringify({speed: 'instant', lang: 'en'}))")
                page = ctx.new_page()
                page.goto(url)
                page.wait_for_selector(SETTLED, state="attached", timeout=120000)
                until(page, OFFLINE_READY)
                got = {}
                for visit in ("network", "cache"):
                    for panel in (False, True):
                        page.reload()  # the model forgotten by the engine (not by the cache)
                        page.wait_for_selector(SETTLED, state="attached", timeout=120000)
                        if panel:
                            page.click("#btn-new")
                            page.wait_for_selector("#newgame-dialog[open] #ng-variant")
                        time.sleep(0.5)
                        key = f"{'panel' if panel else 'direct'}, {visit}"
                        got[key] = page.evaluate(WAIT, [args.variant, panel])
                        if visit == "network" and not panel:
                            # the direct try kept it: gone again from the build's cache and the
                            # HTTP cache, for the panel's figure from the network
                            page.evaluate(FORGET)
                            ctx.new_cdp_session(page).send("Network.clearBrowserCache")
                print(f"run {run + 1}: " + ", ".join(f"{k} {v:.0f} ms" for k, v in got.items()), flush=True)
                for k, v in got.items():
                    out.setdefault(k, []).append(v)
                ctx.close()
            browser.close()
    finally:
        server.shutdown()
    print(f"medians of {args.runs} ({args.variant}): "
          + ", ".join(f"{k} {statistics.median(v):.0f} ms" for k, v in out.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
