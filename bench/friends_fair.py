#!/usr/bin/env python3
"""The fair deal in the page: five devices, each CPU throttled, on the loopback.

    python bench/friends_fair.py [--deals 1] [--throttle 4] [--ways direct,relay] [--seed 3] [--dist DIR]

Serves the built site (dist/, `python3 build.py` first), starts the local relays (`npm run
relays`: the WebTorrent tracker and the Nostr relay) and, for each deal, opens a table for
friends that deals fairly (`?friends=1&variant=chiamata&fair=1`) in one browser context and its
invitation in four others: five pages, five devices, Briscola Chiamata (40 cards, eight to each,
all dealt at once, then the auction and eight tricks), played to its end by clicking (the
first to speak bids the least, the others pass, the call names a card the caller lacks, then
each person's first playable card). Once the five pages are up and four of them seated, every
page's CPU is throttled (`--throttle`, 4 unless said: a phone, through the DevTools protocol's
`Emulation.setCPUThrottlingRate`), then the fifth person sits, which starts the deal.

`--ways`: `direct` (WebRTC data channels on the loopback) and `relay` (the relay fallback:
every ICE candidate removed in every page, as tests/browser/test_friends_fallback.py does, so
the whole deal goes through the Nostr relay). Each page's `FairTable` (js/fair/table.js, in the
page's js/fair/vendor.js) is wrapped before the deal: every call's start (`Date.now()`, the one
clock of every page on this machine) and its time on the page's thread, every event, and the
JSON of every message the device sends. From them, per deal:

- the set-up: from the first device's key (`start`) to the last device's deck ready (`ready`);
- a card reaching its holder: from the first device dealing its position (`deal`: the game
  deals the forty at once) to the holder reading it (`card`); every card, median and p90;
- a play: from the player's `play` to the last other device opening the card (`opened`);
- the check after the deal: from the device's `finish` to its `check` (the others' openings
  waited for, then the five shuffles replayed), the slowest device; and its own work (the
  time inside the call that ran the check), the slowest;
- bytes: what each device's FairTable sends in the deal (the JSON of its messages, each
  counted once: the host's page carries them to the others, the friends layer wraps them).

This machine has two cores: five throttled pages (and their five engines' workers) contend for
them, so each figure is a device's time on a shared CPU, not a phone's alone; the figures are
printed as measured. Prints a markdown table with the load average before and after.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "py"), str(ROOT / "bench"), str(ROOT / "tests" / "browser")]

from pace import serve  # noqa: E402
from tools import chromium  # noqa: E402

# Runs before the page's scripts: once the page has loaded, its fair deal's bundle is imported
# (the same module the table imports later) and FairTable's methods are wrapped.
PROBE = """(() => {
  const log = window.__fairlog = { calls: [], events: [], bytes: 0, messages: 0 };
  const note = (t, name, at, ms, out) => {
    log.calls.push({ name, at, ms, round: t.round });
    const end = Date.now();
    for (const e of (out && out.events) || []) log.events.push({ ...e, at: end, round: t.round, me: t.me });
    for (const { msg } of (out && out.send) || []) { log.bytes += JSON.stringify(msg).length; log.messages += 1; }
    return out;
  };
  const wrap = (proto, name) => {
    const f = proto[name];
    proto[name] = function (...args) {
      const at = Date.now(), t0 = performance.now();
      const out = f.apply(this, args);
      if (out && typeof out.then === "function") return out.then((o) => note(this, name, at, performance.now() - t0, o));
      const o = note(this, name, at, performance.now() - t0, out);
      if (name === "deal") log.calls[log.calls.length - 1].positions = args[0].map(([p]) => p);
      if (name === "play" || name === "give") log.calls[log.calls.length - 1].p = args[0];
      return o;
    };
  };
  addEventListener("load", async () => {
    const { FairTable } = await import(new URL("js/fair/vendor.js", document.baseURI).href);
    // receive() queues its step (_receive, where the work is): the step is timed, not the wait
    for (const name of ["start", "deal", "play", "give", "take", "say", "finish", "check", "_receive", "show"]) wrap(FairTable.prototype, name);
    log.ready = true;
  });
})();"""

PROBED = "() => !!(window.__fairlog && window.__fairlog.ready)"
# What a page's fair deal did, for a failure's message: its calls and events by name.
DIAG = """() => { const l = window.__fairlog, n = (xs, k) => xs.reduce((o, x) => (o[x[k]] = (o[x[k]] || 0) + 1, o), {});
  return l ? JSON.stringify({ calls: n(l.calls, "name"), events: n(l.events, "type"),
    notice: document.getElementById("notice")?.textContent || "" }) : "no probe"; }"""


class Device:
    """One person's browser context and page, for the helpers of tests/browser/test_friends.py."""

    def __init__(self, browser, scripts):
        self.context = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce", locale="en-US")
        for script in scripts:
            self.context.add_init_script(script)
        self.page = self.context.new_page()
        self.page.set_default_timeout(120000)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))

    def state(self):
        from pagekit import read
        return read(self.page, "() => window.__briscola && window.__briscola.state")

    def throttle(self, rate):
        self.cdp = self.context.new_cdp_session(self.page)
        self.cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})


def median(xs):
    return statistics.median(xs) if xs else float("nan")


def p90(xs):
    if not xs:
        return float("nan")
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, -(-9 * len(s) // 10) - 1))]


def figures(logs: list[dict]) -> dict:
    """The deal's figures from the five pages' logs (one clock: Date.now())."""
    calls = [[c for c in log["calls"]] for log in logs]
    events = [[e for e in log["events"]] for log in logs]
    starts = [c["at"] for cs in calls for c in cs if c["name"] == "start"]
    ready = [e["at"] for es in events for e in es if e["type"] == "ready"]
    out = {"setup_ms": max(ready) - min(starts) if len(ready) == len(logs) and starts else None}
    # the set-up's work on each device: its calls until its own deck was ready
    work = []
    for cs, es in zip(calls, events):
        r = next((e["at"] for e in es if e["type"] == "ready"), None)
        work.append(sum(c["ms"] for c in cs if r is not None and c["at"] <= r))
    out["setup_work_ms"] = max(work)
    dealt = {}
    for cs in calls:
        for c in cs:
            for p in c.get("positions", []):
                dealt[p] = min(dealt.get(p, c["at"]), c["at"])
    cards = [e["at"] - dealt[e["pos"]] for es in events for e in es if e["type"] == "card" and e["pos"] in dealt]
    out["card_ms"] = cards
    plays = []
    for d, cs in enumerate(calls):
        for c in cs:
            if c["name"] in ("play", "give"):
                seen = [e["at"] for k, es in enumerate(events) if k != d
                        for e in es if e["type"] == "opened" and e["pos"] == c["p"]]
                if len(seen) == len(logs) - 1:
                    plays.append(max(seen) - c["at"])
    out["play_ms"] = plays
    checks, check_work = [], []
    for cs, es in zip(calls, events):
        fin = next((c["at"] for c in cs if c["name"] == "finish"), None)
        chk = next((e for e in es if e["type"] == "check"), None)
        if fin is not None and chk is not None:
            checks.append(chk["at"] - fin)
            # the call that ran the check: the last one to start before the event
            ran = max((c for c in cs if c["at"] <= chk["at"]), key=lambda c: c["at"])
            check_work.append(ran["ms"])
    out["check_ms"] = max(checks) if len(checks) == len(logs) else None
    out["check_work_ms"] = max(check_work) if check_work else None
    out["fair"] = all(any(e["type"] == "check" and e.get("fair") for e in es) for es in events)
    out["bytes"] = [log["bytes"] for log in logs]
    out["messages"] = [log["messages"] for log in logs]
    return out


def one_deal(browser, base, relays, way, throttle, seed):
    from test_friends import PREFS, PREFS_SCRIPT, host_table, join, dealt, play_one, short_auction
    scripts = [PREFS_SCRIPT % json.dumps(PREFS), PROBE]
    if way == "relay":
        from test_friends_fallback import NO_ICE
        scripts.append(NO_ICE)
    people = [Device(browser, scripts) for _ in range(5)]
    host, *friends = people
    try:
        href = host_table(host, base, relays, "chiamata", seed, extra="&fair=1")
        names = ["Bruno", "Carla", "Dario", "Elena"]
        for seat, (friend, name) in enumerate(zip(friends[:3], names), start=1):
            join(friend, href, seat, name=name)
        # the fifth page up, its name typed, before the CPUs are throttled: its seat starts the deal
        last = friends[3]
        last.page.goto(href)
        last.page.wait_for_selector("#friends-name", timeout=180000)
        last.page.fill("#friends-name", names[3])
        last.page.wait_for_selector("[data-take='4']", timeout=180000)
        for p in people:
            p.page.wait_for_function(PROBED, timeout=60000)
            if throttle > 1:
                p.throttle(throttle)
        t0 = time.monotonic()
        last.page.click("[data-take='4']")
        try:
            dealt(*people, timeout=600000)
        except AssertionError:
            for p in people:
                print("  a page's fair deal so far:", p.page.evaluate(DIAG), file=sys.stderr)
            raise
        plays = 0
        while play_one(people, timeout=600, decide=short_auction):
            plays += 1
        for p in people:
            p.page.wait_for_function("() => window.__fairlog.events.some((e) => e.type === 'check')", timeout=600000)
        took = time.monotonic() - t0
        logs = [p.page.evaluate("window.__fairlog") for p in people]
        out = figures(logs)
        out["actions"] = plays
        out["deal_s"] = took
        out["errors"] = [e for p in people for e in p.errors]
        return out
    finally:
        for p in people:
            p.context.close()


def row(name, xs, unit="ms"):
    return f"| {name} | {median(xs):.0f} {unit} | {p90(xs):.0f} {unit} |"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=1, help="deals for each way (1 unless said: a deal of five throttled pages takes minutes here)")
    ap.add_argument("--throttle", type=float, default=4, help="the CPU throttling rate of every page (4: a phone; 1: none)")
    ap.add_argument("--ways", default="direct,relay", help="direct (WebRTC), relay (the relay fallback), or both, comma-separated")
    ap.add_argument("--seed", type=int, default=3, help="the host's seed for the first deal (each next deal one more)")
    ap.add_argument("--dist", type=Path, default=ROOT / "dist")
    ap.add_argument("--json", action="store_true", help="print each deal's figures as JSON too")
    args = ap.parse_args(argv)
    ways = [w for w in args.ways.split(",") if w]
    if not set(ways) <= {"direct", "relay"}:
        ap.error("--ways: direct, relay")
    if not (args.dist / "index.html").exists():
        print(f"{args.dist} has no site: run python3 build.py first", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    server, base = serve(args.dist)
    relay = subprocess.Popen(["node", "tools/relay/relays.mjs", "--port", "0"], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    relays = json.loads(relay.stdout.readline())["relays"]
    load = os.getloadavg()
    results: dict[str, list[dict]] = {w: [] for w in ways}
    try:
        with sync_playwright() as p:
            browser = chromium.launch(p.chromium, extra_args=chromium.WEBRTC_LOOPBACK_ARGS)
            for d in range(args.deals):
                for way in ways:
                    out = one_deal(browser, base, relays, way, args.throttle, args.seed + d)
                    results[way].append(out)
                    print(f"  {way}: a deal of {out['actions']} actions in {out['deal_s']:.0f} s, set-up {out['setup_ms']} ms, "
                          f"fair {out['fair']}, load {os.getloadavg()[0]:.2f}", flush=True)
                    if args.json:
                        print(json.dumps({k: v for k, v in out.items()}), flush=True)
            browser.close()
    finally:
        relay.terminate()
        try:
            relay.wait(timeout=10)
        except subprocess.TimeoutExpired:
            relay.kill()
        server.shutdown()
    print(f"\nThe fair deal in the page: five devices (Chiamata), CPU throttled {args.throttle:g}x, {args.deals} deal(s) "
          f"each way (load average before {load[0]:.2f}, after {os.getloadavg()[0]:.2f}; two cores for five pages)\n")
    for way, outs in results.items():
        label = "WebRTC on the loopback" if way == "direct" else "the relay fallback (Nostr relay on the loopback)"
        print(f"{label}:\n")
        print("| what | median | p90 |\n| --- | ---: | ---: |")
        print(row("the set-up (the first key to the last device's deck ready)", [o["setup_ms"] for o in outs if o["setup_ms"] is not None]))
        print(row("  its work on the busiest device", [o["setup_work_ms"] for o in outs]))
        print(row("a card reaching its holder (the forty dealt at once)", [x for o in outs for x in o["card_ms"]]))
        print(row("a card played, opened on every other device", [x for o in outs for x in o["play_ms"]]))
        print(row("the check after the deal (finish to the check, slowest device)", [o["check_ms"] for o in outs if o["check_ms"] is not None]))
        print(row("  the check's own work (slowest device)", [o["check_work_ms"] for o in outs if o["check_work_ms"] is not None]))
        print(row("bytes one device's fair deal sends (JSON)", [b for o in outs for b in o["bytes"]], unit="B"))
        print(f"\nevery deal checked fair on every device: {all(o['fair'] for o in outs)}; "
              f"page errors: {sum(len(o['errors']) for o in outs)}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
