#!/usr/bin/env python3
"""Playing with friends through a TURN server, against directly, on the loopback.

    python bench/friends_turn.py [--pairs 5] [--dist DIR]

Serves the built site (dist/, `python3 build.py` first), starts the local relay (`npm run
relay`) and Debian's coturn (`turnserver`, one user, loopback peers allowed: as
tests/browser/test_friends_connect.py does) and, for each pair, opens a table for friends in
one browser context and its invitation in another, once directly and once with both pages on
`?ice=relay&turn=...` (relayed addresses only). It measures, on the friend's page, from its
joining the room (the mark "briscola:friends room") to the free seats showing (the host's page
reached and proved), and reads which candidates the open connections selected (`getStats()`:
"host" directly, "relay" through TURN). Prints the medians with the load average.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "py"), str(ROOT / "bench"), str(ROOT / "tests" / "browser")]

from pace import serve  # noqa: E402
from tools import chromium  # noqa: E402

SEATS_SHOWN = ("() => document.querySelector(\"[data-take='1']\")"
               " && performance.now() - performance.getEntriesByName('briscola:friends room')[0].startTime")


def one_pair(browser, base, relay, query, prefs, keep) -> tuple[float, list]:
    """Seconds from the friend's page joining the room to the free seats; the friend's
    connections' selected candidate types."""
    contexts = []
    pages = []
    for _ in range(2):
        ctx = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce", locale="en-US")
        ctx.add_init_script(prefs)
        ctx.add_init_script(keep)
        contexts.append(ctx)
        pages.append(ctx.new_page())
    host, friend = pages
    try:
        host.goto(f"{base}?friends=1&variant=classic&seed=7&lang=en&relays={relay}&stun={query}&fair=0")
        host.wait_for_selector("a[data-invite]", timeout=120000)
        friend.goto(host.get_attribute("a[data-invite]", "href") + query)
        took = friend.wait_for_function(SEATS_SHOWN, timeout=120000).json_value() / 1000
        from test_friends_connect import SELECTED_PAIRS
        return took, friend.evaluate(SELECTED_PAIRS)
    finally:
        for ctx in contexts:
            ctx.close()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pairs", type=int, default=5, help="pairs of pages for each way")
    ap.add_argument("--dist", type=Path, default=ROOT / "dist")
    args = ap.parse_args(argv)
    if not (args.dist / "index.html").exists():
        print(f"{args.dist} has no site: run python3 build.py first", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    import test_friends_connect as tc
    from test_friends import PREFS, PREFS_SCRIPT

    server, base = serve(args.dist)
    relay = subprocess.Popen(["node", "tools/relay/relay.mjs", "--port", "0"], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    url = relay.stdout.readline().split()[-1]
    load = os.getloadavg()
    times: dict[str, list[float]] = {"directly": [], "through TURN": []}
    try:
        with tc.turn_server() as turn, sync_playwright() as p:
            browser = chromium.launch(p.chromium, extra_args=chromium.WEBRTC_LOOPBACK_ARGS)
            for _ in range(args.pairs):
                for way, query in (("directly", ""), ("through TURN", tc.turn_query(turn))):
                    took, pairs = one_pair(browser, base, url, query, PREFS_SCRIPT % json.dumps(PREFS), tc.KEEP_CONNECTIONS)
                    times[way].append(took)
                    print(f"  {way}: {took:.2f} s, selected candidates {pairs}", flush=True)
            browser.close()
    finally:
        relay.terminate()
        relay.wait(timeout=10)
        server.shutdown()
    print(f"\nThe free seats shown after the friend's page joined the room ({args.pairs} pairs each way; "
          f"load average before {load[0]:.2f}, after {os.getloadavg()[0]:.2f})\n")
    for way, xs in times.items():
        print(f"- {way}: median {statistics.median(xs):.2f} s (from {min(xs):.2f} to {max(xs):.2f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
