#!/usr/bin/env python3
"""What the games' store keeps over 30 deals, in headless Chromium.

    python bench/stored_games.py [--deals 30] [--dist DIR]

Serves dist/ (build it first) on 127.0.0.1 and frames the embedded game
(index.html?embed=1, classic) in a page of the same origin, as a blog post does. Then, as
a host page asking for new deals (`briscola:new-deal`, one after the deal-start of the one
before):

  left     each deal dealt and left, no card played
  played   one card played in each deal before the next is asked for

and reads the engine worker's IndexedDB ("briscola-games", js/worker/games.js): the number
of records and their size (the JSON text of each record, the save and what the list shows).
The figures are in docs/embedding.md ("Bounded storage").
"""
from __future__ import annotations

import argparse
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "py"))
sys.path.insert(0, str(ROOT / "tests" / "browser"))

import build  # noqa: E402
from tools import chromium  # noqa: E402

from test_embed import FRAME_GAME_JS, STORED_GAMES_JS  # noqa: E402

PREFS = '{"speed":"instant","lang":"en","sound":{"muted":true}}'


def run(browser, url: str, deals: int, play: bool) -> list[dict]:
    ctx = browser.new_context(viewport={"width": 900, "height": 900}, reduced_motion="reduce",
                              service_workers="block")
    try:
        page = ctx.new_page()
        page.goto(url + "build-manifest.json")
        page.evaluate(f"localStorage.setItem('briscola.prefs', {PREFS!r})")
        page.evaluate(FRAME_GAME_JS, url + "index.html?embed=1&variant=classic&lang=en&level=beginner")
        starts = "n => window.__messages.filter((m) => m.type === 'briscola:deal-start').length >= n"
        page.wait_for_function(starts, arg=1, timeout=180000)
        game = page.frames[1]
        for n in range(deals):
            game.wait_for_selector(".hand .hand-card.playable", timeout=60000)
            if play:
                before = game.evaluate("window.__briscola.state.view.events.length")
                game.locator(".hand .hand-card.playable").first.click()
                game.wait_for_function("b => window.__briscola.state.view.events.length > b", arg=before)
            if n < deals - 1:
                page.evaluate("document.getElementById('briscola').contentWindow.postMessage({type: 'briscola:new-deal'}, '*')")
                page.wait_for_function(starts, arg=n + 2, timeout=60000)
        time.sleep(1.0)  # the last deal's save is written just after its reply
        return game.evaluate(STORED_GAMES_JS)
    finally:
        ctx.close()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--dist", type=Path, default=ROOT / "dist")
    args = ap.parse_args(argv)
    server = build.make_server(args.dist, 0, "/")
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        browser = chromium.launch(pw.chromium)
        try:
            print(f"| {args.deals} deals | records kept | bytes in all | largest record |")
            print("| --- | ---: | ---: | ---: |")
            for name, play in (("left", False), ("played", True)):
                rec = run(browser, url, args.deals, play)
                total = sum(r["bytes"] for r in rec)
                print(f"| {name} | {len(rec)} | {total:,} | {max((r['bytes'] for r in rec), default=0):,} |")
        finally:
            browser.close()
            server.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
