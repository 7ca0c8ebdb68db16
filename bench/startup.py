#!/usr/bin/env python3
"""Start-up benchmark: from navigation to the first playable card, in headless Chromium.

    python bench/startup.py [--runs 5] [--dist DIR | --no-build] [--json FILE]

Builds the site into a temporary folder (dist/ is left alone), serves it on
127.0.0.1 the way GitHub Pages does (gzip for text, JSON, SVG and wasm; zip and
wheel files as they are; Cache-Control: max-age=600) and, for each run, opens a
fresh browser profile, and leaves each launched browser alone for --settle seconds (1.5)
before navigating, as a person opens the page in a browser already running:

  cold   the first visit: empty caches, no service worker
  warm   the browser restarted on the same profile: the second visit, served by the
         service worker, the engine restored from its memory snapshot
  file   dist/briscola.html opened from disk (file://) with the same deal link, a fresh profile
  embed  a post on another origin (localhost) framing embed.html, the poster, with the same
         deal: the bytes sent before Play, then Play to the first playable card

The page is a deal link (index.html?variant=classic&level=beginner&seed=S&lang=en,
a seed where the person leads), so it goes straight to the table. "Playable" is the
moment the page's own controller marks the person's turn, `html[data-ui="waiting"]`
with a `.hand-card.playable` in the hand, timed inside the page against the
navigation start (performance.now()). Motion is reduced, so the deal's animation
does not count. "Engine ready" is when the page has the engine (its first reply in):
the loading screen stays until the first deal is drawn.

Bytes: everything the server sent during the cold visit (headers included), and the
raw size of the same files; the warm visit should need none. Reports the median of
the runs (5 by default) as a markdown table, with the machine's load average: this
machine is shared, so single runs are noisy.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "py"))

import build  # noqa: E402
from tools import chromium  # noqa: E402
from tools.chromium import OFFLINE_READY, until  # noqa: E402

TARGETS = {"cold": 1.5, "warm": 0.5, "gzip_mb": 6.0, "poster_kb": 50}
PLAYABLE = 'html[data-ui="waiting"] .hand .hand-card.playable'

# Runs in the page before its own scripts: note when the engine is up and when a card
# of the hand first becomes playable, against the navigation start.
PROBE = """
(() => {
  const marks = (window.__startup = { ready: null, playable: null });
  const check = () => {
    if (marks.ready === null && window.__briscola) marks.ready = performance.now();
    if (marks.playable === null && document.querySelector('%s')) marks.playable = performance.now();
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, attributes: true });
})();
""" % PLAYABLE

# The start's trace, read once the card is playable: the navigation's own moments, then the
# page's and the engine worker's performance marks ("briscola:<stage>", js/engine.js and
# js/worker.js), in ms since the navigation started.
TRACE = """() => {
  const nav = performance.getEntriesByType("navigation")[0];
  const out = {};
  if (nav) {
    out["page received"] = nav.responseEnd;
    out["page parsed"] = nav.domContentLoadedEventStart;
  }
  for (const m of performance.getEntriesByType("mark")) {
    if (m.name.startsWith("briscola:") && !(m.name.slice(9) in out)) out[m.name.slice(9)] = m.startTime;
  }
  if (window.__startup.ready !== null) out["page has the engine"] = window.__startup.ready;
  if (window.__startup.playable !== null) out["first playable card"] = window.__startup.playable;
  return out;
}"""


def leading_seed(level: str) -> int:
    """A seed whose classic deal the person (seat 0) leads, so no computer move is timed."""
    from briscola import bridge
    for seed in range(1, 200):
        reply = json.loads(bridge.call("new_match", json.dumps(
            {"rules": "classic", "seed": seed, "seats": [{"kind": "human"}, {"kind": "bot", "level": level}]})))
        if reply["result"]["view"]["turn"] == 0:
            return seed
    raise SystemExit("no seed where the person leads")


def wait_marks(page, timeout: float = 120.0) -> dict:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        marks = page.evaluate("window.__startup || {}")
        if marks.get("playable") is not None:
            return marks
        ui = page.evaluate("document.documentElement.dataset.ui")
        if ui == "error":
            raise RuntimeError("the page failed: " + page.evaluate(
                "document.getElementById('load-error-msg').textContent"))
        time.sleep(0.05)
    raise TimeoutError("no playable card in time")


def offline_ready(page, timeout: float = 120.0) -> None:
    """Wait until the service worker controls the page and the engine's snapshot is kept."""
    until(page, OFFLINE_READY, timeout, "the service worker and the snapshot")


def launch(playwright, profile):
    """Chromium on the profile folder `profile` (kept across a restart), the probe in each page."""
    ctx = chromium.launch_profile(playwright.chromium, profile, headless=True,
                                  viewport={"width": 1280, "height": 800}, reduced_motion="reduce", locale="en-US")
    ctx.add_init_script(PROBE)
    return ctx


# Seconds a freshly launched browser is left alone before the navigation (--settle): a person
# opens the page in a browser that is already running, and on this 2-core machine the
# browser's own start-up (a new profile's databases, its GPU and network processes) would
# otherwise be timed with the site's. 0 navigates at launch, as the benchmark did before.
SETTLE = 1.5


def visit(ctx, url: str, record: list, name: str, out: dict, settle: float = SETTLE):
    """Open `url` in the context's page, `settle` seconds after the launch, the server's record
    cleared first; note in `out` the seconds to the first playable card (`name`) and to the
    engine ready, and the trace."""
    page = ctx.pages[0] if ctx.pages else ctx.new_page()
    time.sleep(settle)
    record.clear()
    page.goto(url)
    marks = wait_marks(page)
    out[name], out[f"{name}_ready"] = marks["playable"] / 1000, marks["ready"] / 1000
    out[f"{name}_trace"] = page.evaluate(TRACE)
    return page


def one_run(playwright, url: str, one_file: Path, record: list, settle: float = SETTLE) -> dict:
    out = {}
    with tempfile.TemporaryDirectory(prefix="briscola-profile-") as profile:
        ctx = launch(playwright, profile)
        page = visit(ctx, url, record, "cold", out, settle)
        offline_ready(page)  # the first visit is over once the offline copy is complete
        out["wire"] = sum(r["wire"] for r in record)
        out["raw"] = sum(r["raw"] for r in record)
        out["requests"] = len(record)
        out["cold_requests"] = [f"{r['path']} {r['status']} {r['wire']}" for r in record]
        ctx.close()

        ctx = launch(playwright, profile)  # the browser restarted: the second visit
        visit(ctx, url, record, "warm", out, settle)
        # The browser's own check for a newer sw.js (a 304) aside, nothing should travel.
        out["warm_wire"] = sum(r["wire"] for r in record if not r["path"].startswith("/sw.js"))
        out["warm_requests"] = [f"{r['path']} {r['status']}" for r in record]
        ctx.close()

    with tempfile.TemporaryDirectory(prefix="briscola-profile-") as profile:
        ctx = launch(playwright, profile)
        visit(ctx, one_file.as_uri() + "?" + url.split("?", 1)[1], record, "file", out, settle)  # the same deal link
        ctx.close()
    out.update(embed_run(playwright, url, record, settle))
    return out


def embed_run(playwright, url: str, record: list, settle: float = SETTLE) -> dict:
    """A blog post on another origin (localhost) framing the poster, embed.html, with the same
    deal: the bytes a reader who never plays downloads, then the time from Play to the first
    playable card in the frame (a first visit: a frame on another site gets no service
    worker and, in Chromium, no storage)."""
    site = url.split("?", 1)[0]
    with tempfile.TemporaryDirectory(prefix="briscola-host-") as tmp, \
            tempfile.TemporaryDirectory(prefix="briscola-profile-") as profile:
        (Path(tmp) / "post.html").write_text(
            '<!doctype html><meta charset="utf-8"><title>A post</title><link rel="icon" href="data:,">'
            f'<p>A post.</p><iframe id="game" src="{site}embed.html?{url.split("?", 1)[1]}" '
            'width="480" height="640" style="border:0"></iframe>', encoding="utf-8")
        host = build.make_server(Path(tmp), 0)
        threading.Thread(target=host.serve_forever, daemon=True).start()
        try:
            ctx = launch(playwright, profile)
            page = ctx.pages[0] if ctx.pages else ctx.new_page()
            time.sleep(settle)
            record.clear()
            page.goto(f"http://localhost:{host.server_address[1]}/post.html")
            frame = page.frames[1]
            frame.wait_for_selector("#poster-play")
            time.sleep(1.0)  # whatever the poster fetches, it has asked for by now
            out = {"poster_wire": sum(r["wire"] for r in record), "poster_requests": len(record)}
            clicked = frame.evaluate("performance.timeOrigin + performance.now()")
            frame.click("#poster-play")
            end = time.monotonic() + 120
            while True:
                try:
                    at = frame.evaluate("window.__startup && window.__startup.playable !== null"
                                        " && performance.timeOrigin + window.__startup.playable")
                except Exception:  # the frame is between its two documents
                    at = None
                if at:
                    break
                if time.monotonic() > end:
                    raise TimeoutError("no playable card in the frame")
                time.sleep(0.05)
            out["embed_play"] = (at - clicked) / 1000
            ctx.close()
        finally:
            host.shutdown()
            host.server_close()
    return out


# The stages in the order a start goes through them (a visit skips some).
STAGES = ["page received", "page parsed", "worker spawned", "worker script",
          "snapshot file read", "snapshot read", "pyodide scripts", "wasm compiled", "wasm received",
          "wasm instantiated", "file system", "stdlib fetched", "python restored",
          "python started", "engine imported", "page modules run", "ready", "first reply", "page has the engine",
          "first playable card"]


def trace_table(runs: list[dict]) -> str:
    """The stages of the start, median ms since the navigation started, cold, warm and from
    disk; a stage a visit does not go through (the snapshot on a cold visit) shows as -."""
    visits = ("cold", "warm", "file")
    stages: dict[str, list[float]] = {}
    for visit in visits:
        for r in runs:
            for stage, at in r.get(f"{visit}_trace", {}).items():
                stages.setdefault(stage, []).append(at)
    order = [s for s in STAGES if s in stages] + sorted(s for s in stages if s not in STAGES)
    lines = ["", "Where the time goes (ms since the navigation started, median of the runs; "
             "file = briscola.html from disk):", "",
             "| stage | cold | warm | file |", "| --- | ---: | ---: | ---: |"]
    for stage in order:
        cells = []
        for visit in visits:
            got = [r[f"{visit}_trace"][stage] for r in runs if stage in r.get(f"{visit}_trace", {})]
            cells.append(f"{statistics.median(got):.0f}" if got else "-")
        lines.append(f"| {stage} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--dist", type=Path, help="measure this built site instead of building one")
    ap.add_argument("--level", default="beginner")
    ap.add_argument("--json", type=Path, help="also write the runs as JSON here")
    ap.add_argument("--settle", type=float, default=SETTLE,
                    help="seconds a launched browser is left alone before the navigation "
                         "(default %(default)s; 0: at launch, the earlier method)")
    args = ap.parse_args(argv)
    settle = max(0.0, args.settle)
    from playwright.sync_api import sync_playwright

    tmp = None
    if args.dist:
        site = args.dist.resolve()
    else:
        tmp = Path(tempfile.mkdtemp(prefix="briscola-bench-"))
        site = tmp / "site"
        proc = subprocess.run([sys.executable, str(ROOT / "build.py"), "--out", str(site)],
                              cwd=ROOT, capture_output=True, text=True)
        if proc.returncode:
            print(proc.stderr, file=sys.stderr)
            return 1
    manifest = json.loads((site / "build-manifest.json").read_text(encoding="utf-8"))
    record: list = []
    server = build.make_server(site, 0, "/", cache_control="max-age=600", record=record)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    # The server compresses each file once and keeps it: do that before timing anything.
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    for rel in manifest["files"]:
        urllib.request.urlopen(urllib.request.Request(
            base + rel, headers={"Accept-Encoding": "gzip"})).read()
    seed = leading_seed(args.level)
    url = (f"http://127.0.0.1:{server.server_address[1]}/"
           f"?variant=classic&level={args.level}&seed={seed}&lang=en")

    load_before = os.getloadavg()
    runs = []
    try:
        with sync_playwright() as p:
            for i in range(args.runs):
                r = one_run(p, url, site / build.ONE_FILE, record, settle)
                runs.append(r)
                print(f"run {i + 1}: cold {r['cold']:.2f} s, warm {r['warm']:.2f} s, "
                      f"file {r['file']:.2f} s, embed Play {r['embed_play']:.2f} s, "
                      f"{r['wire'] / 1e6:.2f} MB sent",
                      file=sys.stderr, flush=True)
    finally:
        server.shutdown()
        server.server_close()
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    load_after = os.getloadavg()

    med = {k: statistics.median(r[k] for r in runs) for k in runs[0]
           if isinstance(runs[0][k], (int, float))}
    files = manifest["files"]
    site_files = [f for p, f in files.items() if p not in ("build-manifest.json", build.ONE_FILE)]
    mb = 1e6
    rows = [
        ("cold: navigation → first playable card", f"{med['cold']:.2f} s", f"≤ {TARGETS['cold']} s",
         med["cold"] <= TARGETS["cold"]),
        ("cold: engine ready", f"{med['cold_ready']:.2f} s", "", None),
        ("warm (service worker, snapshot): first playable card", f"{med['warm']:.2f} s",
         f"≤ {TARGETS['warm']} s", med["warm"] <= TARGETS["warm"]),
        ("warm: engine ready", f"{med['warm_ready']:.2f} s", "", None),
        ("warm: bytes from the network (the browser's sw.js update check aside)",
         f"{med['warm_wire']:.0f} B", "0", med["warm_wire"] == 0),
        ("first visit, sent (gzip as a static host does)", f"{med['wire'] / mb:.2f} MB",
         f"≤ {TARGETS['gzip_mb']} MB", med["wire"] / mb <= TARGETS["gzip_mb"]),
        ("first visit, raw size of the same files", f"{med['raw'] / mb:.2f} MB", "", None),
        ("first visit, requests", f"{med['requests']:.0f}", "", None),
        ("whole site, gzip -9 / raw (build-manifest)",
         f"{sum(f['gzip'] for f in site_files) / mb:.2f} / {sum(f['size'] for f in site_files) / mb:.2f} MB",
         "", None),
        (f"{build.ONE_FILE} from disk: first playable card", f"{med['file']:.2f} s",
         f"≤ {TARGETS['cold']} s", med["file"] <= TARGETS["cold"]),
        (f"{build.ONE_FILE} from disk: engine ready", f"{med['file_ready']:.2f} s", "", None),
        ("embedded (embed.html in a post on another origin): sent before Play",
         f"{med['poster_wire'] / 1e3:.1f} KB ({med['poster_requests']:.0f} requests)",
         f"≤ {TARGETS['poster_kb']} KB", med["poster_wire"] / 1e3 <= TARGETS["poster_kb"]),
        ("embedded: Play → first playable card", f"{med['embed_play']:.2f} s", "", None),
        (f"{build.ONE_FILE} size", f"{files[build.ONE_FILE]['size'] / mb:.2f} MB", "", None),
    ]
    print(f"\nStart-up, median of {len(runs)} runs; build {manifest['hash']}, "
          f"Pyodide {manifest['pyodide']}; the browser left {settle:g} s after its launch; "
          f"{os.cpu_count()} CPUs, load average "
          f"{load_before[0]:.1f} before, {load_after[0]:.1f} after\n")
    print("| measure | median | target | met |")
    print("| --- | --- | --- | --- |")
    for name, value, target, ok in rows:
        print(f"| {name} | {value} | {target} | {'' if ok is None else ('yes' if ok else 'no')} |")
    print(trace_table(runs))
    if args.json:
        args.json.write_text(json.dumps({"runs": runs, "median": med, "load": [load_before, load_after],
                                         "build": manifest["hash"]}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
