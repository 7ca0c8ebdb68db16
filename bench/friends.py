#!/usr/bin/env python3
"""Playing with friends on the loopback: how long a friend waits, in headless Chromium.

    python bench/friends.py [--deals 2] [--dist DIR]
    python bench/friends.py --reloads 40 [--wait 45] [--dist DIR]

Serves the built site (dist/, `python3 build.py` first) on 127.0.0.1, starts the local relays
(`npm run relays`: the WebTorrent tracker server and a Nostr relay; `--media` which of the two
the pages are given, both unless said) and, for each deal, opens a table for friends
(`?friends=1`, classic) in one browser context and its invitation in another, then plays the
whole deal by clicking each person's first playable card (speed "instant": no animation, so
what is measured is the pages, the engine and the connection). It measures:

- from opening the invitation to seeing the free seats (the friend's page started, its engine
  up, connected to the host through the relay and WebRTC), and from taking the seat to seeing
  the table (the deal drawn on the friend's page);
- from a play (the click) to the other page showing that card on the table, both ways.

Both pages run on this machine's one clock (`Date.now()`). Prints the median and the 90th
percentile as a markdown table, with the machine's load average (it is shared: single runs
are noisy).

With `--reloads N`, one host's table (four players) and one friend's page reloaded N times
in a row, as a person on a bad connection would: how many times the free seats showed within
`--wait` seconds, how long that took, and the host's page's WebRTC connections by state at
the end (counted by wrapping the page's RTCPeerConnection), and whether the friend's peer id
sorted lower than the host's (the higher answers the other's offers; `--announce`: the seconds
the relay asks the pages to wait between announces, 2 unless said, which Trystero takes as
10). For a reload without seats it prints both pages' open connections (with their data
channels), their Trystero peers and what their consoles warned; for one over 5 s, the
warnings. `--trace` adds, for a reload over 5 s, every connection's life on both pages: made,
its remote description, its states, each message sent and received on its channel (by the
action's name Trystero writes first), closed.
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
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from pace import serve  # noqa: E402
from tools import chromium  # noqa: E402

PREFS = ('(() => { try { if (!localStorage.getItem("briscola.prefs")) localStorage.setItem("briscola.prefs", '
         'JSON.stringify({speed: "instant", lang: "en", tips: {all: true}, friendsName: "Bruno"})); } catch {} })();')

# Runs before the page's scripts: when each card was clicked, and when each card first
# appeared on the table (Date.now(), one clock for every page of the machine).
PROBE = """
(() => {
  const clicked = window.__clicked = {};
  const shown = window.__shown = {};
  document.addEventListener("click", (e) => {
    const card = e.target.closest && e.target.closest(".hand-card.playable");
    if (card && card.dataset.code && !(card.dataset.code in clicked)) clicked[card.dataset.code] = Date.now();
  }, true);
  new MutationObserver(() => {
    for (const el of document.querySelectorAll(".trick-card[data-key]")) {
      if (!(el.dataset.key in shown)) shown[el.dataset.key] = Date.now();
    }
  }).observe(document, { childList: true, subtree: true });
})();
"""


def quantile(xs, q):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def context(browser):
    ctx = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion="reduce", locale="en-US")
    ctx.add_init_script(PREFS)
    ctx.add_init_script(PROBE)
    page = ctx.new_page()
    page.set_default_timeout(120000)
    return ctx, page


# Counts the page's RTCPeerConnections (runs before the page's scripts).
COUNT = """(() => { const R = window.RTCPeerConnection; if (!R) return; const all = window.__pcs = [];
window.RTCPeerConnection = class extends R { constructor(...a) { super(...a); all.push(this); this.__dcs = [];
  this.addEventListener("datachannel", (e) => this.__dcs.push(e.channel)); }
  createDataChannel(...a) { const dc = super.createDataChannel(...a); this.__dcs.push(dc); return dc; } }; })();"""
# With --trace: every RTCPeerConnection's life on the page (runs before the page's scripts),
# each line "seconds since the page began, connection number, what happened"; a data channel's
# message by the action it carries (Trystero writes the action's name in its first 32 bytes).
TRACE = """(() => { const R = window.RTCPeerConnection; if (!R) return; const log = window.__trace = []; let n = 0;
const say = (id, what) => log.push(`${(performance.now() / 1000).toFixed(2)} #${id} ${what}`);
const kind = (data) => { try { const b = new Uint8Array(data instanceof ArrayBuffer ? data : data.buffer || new ArrayBuffer(0));
  return new TextDecoder().decode(b.slice(0, 32)).replace(/\\0/g, "").replace(/[^\\x20-\\x7e]/g, "") || `${b.length} bytes`; }
  catch { return "?"; } };
const watch = (id, dc) => { say(id, `dc ${dc.label} ${dc.readyState}`); dc.addEventListener("open", () => say(id, "dc open"));
  dc.addEventListener("close", () => say(id, "dc close")); dc.addEventListener("message", (e) => say(id, `got ${kind(e.data)}`));
  const send = dc.send.bind(dc); dc.send = (d) => { say(id, `sent ${kind(d)}`); return send(d); }; };
window.RTCPeerConnection = class extends R { constructor(...a) { super(...a); this.__id = ++n; say(this.__id, "new");
  this.addEventListener("connectionstatechange", () => say(this.__id, `state ${this.connectionState}`));
  this.addEventListener("datachannel", (e) => watch(this.__id, e.channel)); }
  createDataChannel(...a) { const dc = super.createDataChannel(...a); watch(this.__id, dc); return dc; }
  async createOffer(...a) { say(this.__id, "createOffer"); return super.createOffer(...a); }
  async setRemoteDescription(d) { say(this.__id, `remote ${d && d.type}`); return super.setRemoteDescription(d); }
  close() { say(this.__id, "close()"); return super.close(); } }; })();"""
# What a page's side of the friends' connection holds (a reload that never showed the seats).
DIAG = """(() => { const f = window.__briscola && window.__briscola.app && window.__briscola.app.friends;
const pcs = (window.__pcs || []).filter((pc) => pc.connectionState !== 'closed').map((pc) =>
  `${pc.connectionState}/${pc.signalingState}/${pc.iceGatheringState} dc:${pc.__dcs.map((d) => d.readyState).join(',')}`);
if (!f) return {pcs};
return {pcs, peers: f.conn ? f.conn.peers().map((p) => p.slice(0, 6)) : null, self: f.conn ? f.conn.self.slice(0, 6) : null,
  hostId: f.hostId ? f.hostId.slice(0, 6) : f.hostId, asked: f.asked ? f.asked.size : undefined,
  seats: f.lobbySeats ? f.lobbySeats.length : undefined, known: f.peers ? [...f.peers.keys()].map((p) => p.slice(0, 6)) : undefined}; })()"""
# The page's peer id in the room: of two pages, the higher answers the lower's offers.
SELF = "(() => { const f = window.__briscola.app.friends; return f && f.conn ? f.conn.self : null; })()"
STATES = ("(() => { const s = {}; for (const pc of window.__pcs || []) { const k = pc.connectionState"
          " + (pc.iceGatheringState === 'new' && pc.signalingState === 'have-local-offer' ? ' (offer never gathered)' : '');"
          " s[k] = (s[k] || 0) + 1; } return s; })()")


def reloads(browser, base: str, relay: str, n: int, wait: float, trace: bool = False) -> dict:
    """One host's table, one friend's page reloaded ``n`` times: per reload the seconds until the
    free seats showed (None: not within ``wait``); with ``trace``, both pages' connections' lives
    for a reload over 5 s."""
    hctx, host = context(browser)
    fctx, friend = context(browser)
    for c in (hctx, fctx):
        c.add_init_script(TRACE if trace else COUNT)
        if trace:
            c.add_init_script(COUNT)
    try:
        host.goto(f"{base}?friends=1&variant=four&seed=5&lang=en&relays={relay}&stun=&fair=0")
        host.wait_for_selector("a[data-invite]")
        href = host.get_attribute("a[data-invite]", "href")
        times = []
        said = []  # the friend's page's warnings and errors of this reload
        friend.on("console", lambda m: said.append(f"{time.time() - t:.1f}s {m.type}: {m.text[:160]}")
                  if m.type in ("warning", "error") else None)
        host_said = []
        host.on("console", lambda m: host_said.append(f"{m.type}: {m.text[:160]}")
                if m.type in ("warning", "error") else None)
        for i in range(n):
            said.clear()
            host_said.clear()
            t = time.time()
            if i:
                friend.reload()
            else:
                friend.goto(href)
            try:
                friend.wait_for_selector("[data-take='1']", timeout=wait * 1000)
                times.append(time.time() - t)
            except Exception:
                times.append(None)
                print(f"  friend's connections: {friend.evaluate(STATES)}; the host's: "
                      f"{host.evaluate(STATES)}\n  friend: {friend.evaluate(DIAG)}\n  host: "
                      f"{host.evaluate(DIAG)}", file=sys.stderr, flush=True)
            ids = [pg.evaluate(SELF) for pg in (friend, host)]
            order = "?" if None in ids else "lower" if ids[0] < ids[1] else "higher"
            print(f"reload {i}: {'no seats' if times[-1] is None else f'{times[-1]:.1f} s'} (the friend's id {order})",
                  file=sys.stderr, flush=True)
            if (times[-1] is None or times[-1] > 5) and (said or host_said):
                print(f"  friend said: {said}\n  host said: {host_said[-12:]}", file=sys.stderr, flush=True)
            if trace and (times[-1] is None or times[-1] > 5):
                since = host.evaluate("performance.now() / 1000") - (time.time() - t) - 1
                lines = [x for x in host.evaluate("window.__trace") if float(x.split()[0]) >= since]
                print("  friend's trace:\n    " + "\n    ".join(friend.evaluate("window.__trace"))
                      + "\n  host's trace:\n    " + "\n    ".join(lines), file=sys.stderr, flush=True)
        return {"times": times, "host": host.evaluate(STATES)}
    finally:
        hctx.close()
        fctx.close()


def one_deal(browser, base: str, relay: str, seed: int) -> dict:
    hctx, host = context(browser)
    fctx, friend = context(browser)
    try:
        host.goto(f"{base}?friends=1&variant=classic&seed={seed}&lang=en&relays={relay}&stun=&fair=0")
        host.wait_for_selector("a[data-invite]")
        href = host.get_attribute("a[data-invite]", "href")
        opened = time.time() * 1000
        friend.goto(href)
        friend.wait_for_selector("[data-take='1']")
        seats_at = friend.evaluate("Date.now()")
        at = "(name) => { const m = performance.getEntriesByName(name)[0]; return m ? performance.timeOrigin + m.startTime : null; }"
        room_at = friend.evaluate(f"({at})('briscola:friends room')")
        peer_at = friend.evaluate(f"({at})('briscola:friends peer')")
        take = friend.evaluate("Date.now()")
        friend.click("[data-take='1']")
        friend.wait_for_selector(".hand-card")
        table_at = friend.evaluate("Date.now()")
        # the friend's own engine up (its first reply), on the same clock: read once the table
        # shows (the seats show before it, the room joined beside its start)
        engine_at = friend.evaluate(f"({at})('briscola:first reply')")
        pages = [host, friend]
        while True:
            if all(p.evaluate("document.documentElement.dataset.ui") in ("summary", "over") for p in pages):
                break
            mover = next((p for p in pages if p.evaluate(
                "document.documentElement.dataset.ui === 'waiting' && window.__briscola.state.view.turn === window.__briscola.state.seat")), None)
            if not mover:
                time.sleep(0.01)
                continue
            n = mover.evaluate("window.__briscola.state.view.events.length")
            mover.locator(".hand-card.playable").first.click()
            mover.wait_for_function("n => window.__briscola.state.view.events.length > n", arg=n)
        delays = {"host→friend": [], "friend→host": []}
        for src, dst, key in ((host, friend, "host→friend"), (friend, host, "friend→host")):
            clicked = src.evaluate("window.__clicked")
            shown = dst.evaluate("window.__shown")
            delays[key] = [shown[c] - t for c, t in clicked.items() if c in shown]
        return {"seats": seats_at - opened, "engine": (engine_at or seats_at) - opened,
                "peer": (peer_at or seats_at) - (room_at or opened), "table": table_at - take, **delays}
    finally:
        hctx.close()
        fctx.close()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=2)
    ap.add_argument("--dist", type=Path, default=ROOT / "dist")
    ap.add_argument("--reloads", type=int, default=0, help="reload a friend's page this many times instead")
    ap.add_argument("--wait", type=float, default=45.0, help="seconds a reload waits for the seats")
    ap.add_argument("--trace", action="store_true", help="with --reloads: both pages' connections' lives for a reload over 5 s")
    ap.add_argument("--announce", type=int, default=2,
                    help="the seconds the relay asks the pages to wait between announces (Trystero waits 10 to 120)")
    ap.add_argument("--media", choices=("both", "trackers", "nostr"), default="both",
                    help="the signalling media the pages are given (the local tracker, the local Nostr relay, or both)")
    args = ap.parse_args(argv)
    if not (args.dist / "index.html").exists():
        print(f"{args.dist} has no site: run python3 build.py first", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    server, base = serve(args.dist)
    relay = subprocess.Popen(["node", "tools/relay/relays.mjs", "--port", "0", "--announce", str(args.announce)],
                             cwd=ROOT, stdout=subprocess.PIPE, text=True)
    both = json.loads(relay.stdout.readline())["relays"].split(",")
    url = ",".join(u for u in both if args.media == "both" or (u.startswith("nostr:") == (args.media == "nostr")))
    load = os.getloadavg()
    runs = []
    try:
        with sync_playwright() as p:
            browser = chromium.launch(p.chromium, extra_args=chromium.WEBRTC_LOOPBACK_ARGS)
            if args.reloads:
                r = reloads(browser, base, url, args.reloads, args.wait, args.trace)
                browser.close()
                ok = [x for x in r["times"] if x is not None]
                print(f"A friend's page reloaded {args.reloads} times ({args.dist}; media: {args.media}; the tracker asking "
                      f"{args.announce} s between announces; load average before {load[0]:.2f}, "
                      f"after {os.getloadavg()[0]:.2f})\n")
                print(f"- seats shown within {args.wait:.0f} s: {len(ok)} of {args.reloads}")
                if ok:
                    print(f"- time to the seats: median {statistics.median(ok):.1f} s, p90 {quantile(ok, 0.9):.1f} s")
                print(f"- the host's connections at the end: {r['host']}")
                return 0
            for i in range(args.deals):
                r = one_deal(browser, base, url, 100 + i)
                runs.append(r)
                print(f"deal {i + 1}: seats {r['seats'] / 1000:.2f} s, table {r['table'] / 1000:.2f} s, "
                      f"plays {len(r['host→friend'])} + {len(r['friend→host'])}", file=sys.stderr, flush=True)
            browser.close()
    finally:
        relay.terminate()
        server.shutdown()
    rows = [
        ("opening the invitation → the free seats shown", [r["seats"] for r in runs]),
        ("opening → the friend's own engine up (beside the join)", [r["engine"] for r in runs]),
        ("… of which: joining the room → the first peer connected", [r["peer"] for r in runs]),
        ("taking the seat → the table shown", [r["table"] for r in runs]),
        ("the host's play → shown on the friend's page", [x for r in runs for x in r["host→friend"]]),
        ("the friend's play → shown on the host's page", [x for r in runs for x in r["friend→host"]]),
    ]
    print(f"Playing with friends on the loopback ({args.deals} deals; media: {args.media}; load average before "
          f"{load[0]:.2f}, after {os.getloadavg()[0]:.2f})\n")
    print("| from → to | n | median | p90 |")
    print("| --- | ---: | ---: | ---: |")
    for name, xs in rows:
        print(f"| {name} | {len(xs)} | {statistics.median(xs):.0f} ms | {quantile(xs, 0.9):.0f} ms |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
