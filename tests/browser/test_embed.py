"""The game embedded in a host page on another origin: the README's host-page example, served
from http://localhost:<port>/, frames the site served from http://127.0.0.1:<port>/.

Checked: the poster (embed.html) asks nothing of the engine before Play and stays light; the
messages (height, deal start and end, a new deal asked by the host); the host sizing the frame
to the posted height; a deal played to its end inside the frame; and `start=view`, which loads
the game once the frame is scrolled into view.
"""
from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from pagekit import shot, watched_context
from test_delivery import SET_PREFS, Site, play, settle

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_URL = "https://<user>.github.io/<repo>/"
# What only the engine fetches: none of it may travel before Play.
ENGINE_FILES = ("js/worker.js", "js/build-info.js", "pyodide/", "wheels/", "js/app.js")
# Messages the host page receives, noted by an init script in the top frame only.
NOTE_MESSAGES = """
if (window === window.top) {
  window.__messages = [];
  addEventListener("message", (e) => {
    if (e.data && typeof e.data.type === "string" && e.data.type.startsWith("briscola:")) {
      window.__messages.push({ origin: e.origin, ...e.data });
    }
  });
}
"""


def host_example() -> str:
    """The host-page example of the README, as written there."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    m = re.search(r"```html\n(\s*<!-- Briscola host page example -->.*?)```", text, re.S)
    assert m, "the README has no host page example"
    return m.group(1)


class Host(Site):
    """The host page on its own origin (localhost), framing `site_url` (on 127.0.0.1)."""

    def __init__(self, tmp: Path, site_url: str, query: str, above: int = 0):
        html = host_example().replace(EXAMPLE_URL, site_url)
        html = re.sub(r'(embed\.html)\?[^"]*"', lambda m: f'{m.group(1)}?{query}"', html)
        spacer = f'<div style="height:{above}px">the post, before the game</div>' if above else ""
        (tmp / "post.html").write_text(f"<!doctype html><meta charset=utf-8><title>A post</title><link rel=icon href=data:,>"
                                       f"<body>{spacer}{html}</body>", encoding="utf-8")
        super().__init__(tmp)
        self.url = f"http://localhost:{self.server.server_address[1]}/post.html"


@pytest.fixture
def host_context(browser):
    with watched_context(browser, 800, 900, SET_PREFS, NOTE_MESSAGES) as ctx:
        yield ctx


def messages(page, kind: str) -> list[dict]:
    return [m for m in page.evaluate("window.__messages") if m["type"] == f"briscola:{kind}"]


def wait_message(page, kind: str, count: int = 1, timeout: float = 120.0) -> dict:
    end = time.monotonic() + timeout
    while len(messages(page, kind)) < count:
        assert time.monotonic() < end, f"no briscola:{kind} message (#{count}) in time"
        time.sleep(0.1)
    return messages(page, kind)[-1]


def frame_height(page) -> float:
    return page.evaluate("document.getElementById('briscola').getBoundingClientRect().height")


def test_host_page_poster_messages_and_a_deal_played_in_the_frame(dist_dir, host_context, bot_level,
                                                                   tmp_path):
    site = Site(dist_dir)
    host = Host(tmp_path, site.url, f"variant=classic&lang=en&level={bot_level}&seed=7")
    try:
        page = host_context.new_page()
        page.goto(host.url)
        poster = wait_message(page, "height")
        assert poster["origin"] == site.origin
        assert abs(frame_height(page) - poster["height"]) < 1  # the host sized the frame
        frame = page.frame_locator("#briscola")
        frame.locator("#poster-play").wait_for()
        time.sleep(1.0)  # anything the poster would fetch has been asked for by now
        paths = [r["path"] for r in site.requests]
        assert not [p for p in paths if p.lstrip("/").startswith(ENGINE_FILES)], paths
        sent = sum(r["wire"] for r in site.requests)
        # The poster loads its own words alone (js/poster-words.js, written by the build), not
        # every language's whole locale file (those two cost 33 KB gzipped: 52.7 KB sent).
        print("poster bytes sent:", sent)
        assert sent <= 50_000, f"the poster cost {sent} bytes"

        frame.locator("#poster-play").click()
        wait_message(page, "deal-start")
        game = page.frames[1]  # the same frame, now holding the game
        assert settle(game) == "waiting"
        # The start-up trace (js/engine.js, js/worker.js) is there, stage by stage, in order.
        marks = game.evaluate("Object.fromEntries(performance.getEntriesByType('mark')"
                              ".filter((m) => m.name.startsWith('briscola:'))"
                              ".map((m) => [m.name.slice(9), m.startTime]))")
        stages = ["worker spawned", "worker script", "wasm compiled", "wasm instantiated",
                  "file system", "python started", "engine imported", "ready", "first reply"]
        assert all(s in marks for s in stages), marks
        assert [marks[s] for s in stages] == sorted(marks[s] for s in stages), marks
        start = messages(page, "deal-start")[-1]
        assert start["variant"] == "classic" and start["origin"] == site.origin
        # The game's own height arrives and the frame follows it; nothing inside scrolls.
        page.wait_for_function("() => { const h = window.__messages.filter((m) => m.type === 'briscola:height');"
                               " const f = document.getElementById('briscola').getBoundingClientRect().height;"
                               " return h.length > 1 && Math.abs(f - h[h.length - 1].height) < 1; }")
        assert game.evaluate("document.documentElement.scrollHeight <= innerHeight + 1")

        assert play(game) in ("summary", "over")
        end = wait_message(page, "deal-end")
        assert end["variant"] == "classic" and end["result"] in ("won", "lost", "draw")
        assert end["points"] + end["opponents"] == 120  # a classic deck's points, all taken
        mine = game.evaluate("(() => { const o = window.__briscola.state.summary.outcome;"
                             " return o.side_points[o.sides.findIndex((s) => s.includes(0))]; })()")
        assert end["points"] == mine
        assert page.locator("#result").text_content() == f"{end['result']}: {end['points']} to {end['opponents']}"

        # The host asks for a new deal: a fresh deal on the table, in the same frame.
        page.locator("#new-deal").click()
        wait_message(page, "deal-start", count=2)
        assert settle(game) == "waiting"
        assert game.evaluate("window.__briscola.state.view.phase") != "over"
        assert not game.evaluate("document.querySelector('dialog[open]')")
    finally:
        host.stop()
        site.stop()


def test_poster_with_start_view_loads_the_game_once_scrolled_to(dist_dir, host_context, bot_level,
                                                                tmp_path):
    site = Site(dist_dir)
    host = Host(tmp_path, site.url, f"variant=classic&lang=en&level={bot_level}&start=view", above=3000)
    try:
        page = host_context.new_page()
        page.goto(host.url)
        # loading="lazy": the frame far below the fold is not even loaded yet; nothing of the
        # engine is, for sure.
        time.sleep(1.0)
        assert not [r for r in site.requests if r["path"].lstrip("/").startswith(ENGINE_FILES)]
        page.locator("#briscola").scroll_into_view_if_needed()
        wait_message(page, "deal-start")
        game = page.frames[1]
        assert settle(game) == "waiting"
        assert any(r["path"].endswith("pyodide.asm.wasm") for r in site.requests)
    finally:
        host.stop()
        site.stop()


# What the frame may keep: Chromium, as a player's browser, refuses another site's frame its
# storage (its local storage and the databases the engine's worker keeps the games in).
FRAME_STORAGE_JS = """async () => {
  let local = "ok";
  try { localStorage.setItem("briscola.probe", "1"); localStorage.removeItem("briscola.probe"); } catch (err) { local = err.name; }
  const db = await new Promise((done) => {
    try {
      const req = indexedDB.open("briscola-probe");
      req.onsuccess = () => { req.result.close(); indexedDB.deleteDatabase("briscola-probe"); done("ok"); };
      req.onerror = () => done(req.error ? req.error.name : "error");
    } catch (err) { done(err.name); }
  });
  return { local, db };
}"""


def test_storage_refused_in_the_frame_is_said_once_small_and_aside(dist_dir, whole_browser, bot_level, tmp_path,
                                                                    artifacts):
    """A frame whose storage the browser refuses: the game plays, and "can't save" is one small
    line over the top bar, hiding none of the table (the seats, the trick, the hand, its
    buttons), said once. In the whole browser: the headless shell the other tests use keeps a
    frame's storage as its own (it has no profile's settings to refuse it by)."""
    site = Site(dist_dir)
    host = Host(tmp_path, site.url, f"variant=classic&lang=en&level={bot_level}&seed=7")
    try:
        with watched_context(whole_browser, 800, 900, SET_PREFS, NOTE_MESSAGES) as ctx:
            page = ctx.new_page()
            page.goto(host.url)
            frame = page.frame_locator("#briscola")
            frame.locator("#poster-play").click()
            wait_message(page, "deal-start")
            game = page.frames[1]
            refused = game.evaluate(FRAME_STORAGE_JS)
            assert "ok" not in refused.values(), f"this browser keeps a third-party frame's storage: {refused}"
            assert settle(game) == "waiting"
            game.wait_for_selector("#notice.quiet:not([hidden])", timeout=10000)
            shot(page, str(artifacts / "embed-storage-refused.png"))
            shown = game.evaluate("""() => { const n = document.getElementById('notice');
                const r = n.getBoundingClientRect(); const hidden = [];
                for (const e of document.querySelectorAll('#table .seat, #table .trick-card, #table .hand, #table .actions, #table .felt .center')) {
                  const q = e.getBoundingClientRect();
                  if (q.width && r.width && q.left < r.right && r.left < q.right && q.top < r.bottom && r.top < q.bottom) hidden.push(e.className); }
                return {quiet: n.classList.contains('quiet'), text: n.textContent, h: r.height,
                        font: parseFloat(getComputedStyle(n).fontSize), hidden, visible: !n.hidden && r.width > 0}; }""")
            assert shown["visible"] and shown["quiet"] and shown["font"] <= 12 and shown["h"] <= 48, shown
            assert shown["hidden"] == [], shown
            assert shown["text"] == "This game cannot be saved here: a reload loses it.", shown
            # the game plays on; a later refusal is not said again
            assert play(game, moves=2) in ("waiting", "summary", "over")
            game.evaluate("window.__briscola.app.storageTrouble()")
            assert game.evaluate("document.getElementById('notice').textContent.split('saved').length - 1") <= 1
            # without session storage too, the frame narrows its policy to its own origin
            # (test_a_page_without_friends_reaches_its_own_origin_alone sees it refuse)
            assert game.evaluate(NARROWED_JS)
    finally:
        host.stop()
        site.stop()


NARROWED_JS = ("[...document.querySelectorAll('meta[http-equiv=Content-Security-Policy]')]"
               ".some((m) => m.content === \"connect-src 'self'\")")


# ---- a host page that floods the game with requests --------------------------------------------

# The game framed by a page of its own origin in the warm profile (its engine's snapshot kept:
# the frame starts warm), the messages the frame sends noted in the top page.
FRAME_GAME_JS = """(src) => new Promise((done) => {
  window.__messages = [];
  addEventListener("message", (e) => {
    if (e.data && typeof e.data.type === "string" && e.data.type.startsWith("briscola:")) window.__messages.push(e.data);
  });
  document.body.replaceChildren();
  const f = document.createElement("iframe");
  f.id = "briscola";
  f.style.cssText = "width: 760px; height: 760px; border: 0";
  f.src = src;
  f.onload = () => done(true);
  document.body.append(f);
})"""

FLOOD_JS = """(n) => { const w = document.getElementById("briscola").contentWindow;
  for (let i = 0; i < n; i++) w.postMessage({ type: "briscola:new-deal" }, "*"); }"""

STORED_GAMES_JS = """async () => {
  const db = await new Promise((ok, no) => { const r = indexedDB.open('briscola-games');
    r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
  const all = await new Promise((ok, no) => { const r = db.transaction('games').objectStore('games').getAll();
    r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
  db.close();
  return all.map((g) => ({ id: g.id, touched: g.info && g.info.touched, over: g.info && g.info.over,
    bytes: JSON.stringify(g).length }));
}"""


def test_a_host_page_posting_10000_new_deals_gets_one_playable_deal(page, base_url, bot_level):
    """10,000 `briscola:new-deal` in one loop: one deal in flight at a time, the requests that
    came meanwhile coalesced into the last (two deals dealt, two deal-start messages); the frame
    is playable again within moments of the last request and keeps one game, not 10,000."""
    page.goto(base_url + "build-manifest.json")
    page.evaluate(FRAME_GAME_JS, f"{base_url}index.html?embed=1&variant=classic&lang=en&level={bot_level}&seed=7")
    page.wait_for_function("() => window.__messages.some((m) => m.type === 'briscola:deal-start')", timeout=120000)
    game = page.frames[1]
    assert settle(game) == "waiting"
    flood_start = time.monotonic()
    page.evaluate(FLOOD_JS, 10_000)
    posted = time.monotonic()
    # The frame deals the first request and then the last one (the rest replaced on the way).
    page.wait_for_function("() => window.__messages.filter((m) => m.type === 'briscola:deal-start').length >= 3",
                           timeout=30000)
    game.wait_for_selector(".hand .hand-card.playable", timeout=30000)
    playable = time.monotonic()
    print(f"10,000 posted in {posted - flood_start:.2f} s; a card playable {playable - posted:.2f} s after the last")
    time.sleep(0.5)  # any deal still to come would have started by now
    starts = len(messages(page, "deal-start"))
    assert starts <= 4, f"{starts} deals dealt for 10,000 requests"
    assert settle(game) == "waiting"
    assert play(game, moves=1) in ("waiting", "summary", "over")  # it plays
    stored = game.evaluate(STORED_GAMES_JS)
    print("stored:", stored)
    # The deals nobody played were forgotten as each was replaced: one game, the one played.
    assert len(stored) <= 2, stored
    assert [g for g in stored if g["touched"]]


SEED_GAMES_JS = """async (games) => {
  const db = await new Promise((ok, no) => { const r = indexedDB.open('briscola-games');
    r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
  await new Promise((ok, no) => { const t = db.transaction('games', 'readwrite');
    for (const g of games) t.objectStore('games').put(g);
    t.oncomplete = ok; t.onerror = () => no(t.error); });
  db.close();
}"""


def test_unfinished_games_are_bounded_and_the_person_told(page, base_url, bot_level):
    """Past ten unfinished games the oldest go: deals nobody played first and silently, then the
    oldest a person played, with a notice; the games played most recently stay listed."""
    page.goto(base_url + f"?variant=classic&lang=en&level={bot_level}&seed=3")
    settle(page)
    now = int(time.time() * 1000)
    info = {"variant": "classic", "custom": False, "players": 2,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": bot_level}], "names": ["", ""],
            "score": [0, 0], "deal": 0, "side_points": [12, 4], "phase": "play", "over": False}
    # twelve games a person played (an hour apart), one dealt and left untouched
    played = [{"id": f"played-{i:02d}", "save": "{}", "meta": None, "info": {**info, "touched": True},
               "created": now - (20 - i) * 3_600_000, "updated": now - (20 - i) * 3_600_000} for i in range(12)]
    left = {"id": "left", "save": "{}", "meta": None, "info": {**info, "touched": False, "side_points": [0, 0]},
            "created": now - 1000, "updated": now - 1000}
    # and one kept by a build before `touched`, nothing on its score: most likely nobody played it
    legacy = {**left, "id": "legacy", "info": {k: v for k, v in left["info"].items() if k != "touched"}}
    page.evaluate(SEED_GAMES_JS, [*played, left, legacy])
    page.goto(base_url + f"?variant=classic&lang=en&level={bot_level}&seed=4")
    settle(page)
    page.wait_for_function("() => document.getElementById('notice').textContent.includes('unfinished games were let go')",
                           timeout=20000)
    assert "4 older unfinished games were let go: at most 10 are kept" in page.text_content("#notice")
    ids = sorted(g["id"] for g in page.evaluate(STORED_GAMES_JS))
    # 16 unfinished games (the twelve, the untouched one, the older build's, the first link's
    # deal, this one): the two deals nobody played go, then the older build's blank one and
    # the three oldest played (those four said); ten stay.
    assert len(ids) == 10, ids
    assert [i for i in ids if i.startswith("played-")] == [f"played-{i:02d}" for i in range(3, 12)]
    assert "left" not in ids and "legacy" not in ids


# ---- what each page may reach ----------------------------------------------------------------

# A WebSocket to another origin (the loopback's port 9, where nothing listens): refused by the
# page's policy, or let through to fail on its own.
REACH_JS = """(url) => new Promise((done) => {
  document.addEventListener("securitypolicyviolation", (e) => done("refused: " + e.violatedDirective), { once: true });
  try {
    const ws = new WebSocket(url);
    ws.onopen = () => done("opened");
    ws.onerror = () => setTimeout(() => done("let through"), 300);
  } catch (err) { done("thrown: " + err.name); }
})"""
OTHER_ORIGIN = "ws://127.0.0.1:9/relay"


def reached(target) -> str:
    return target.evaluate(REACH_JS, OTHER_ORIGIN)


def expected_reports(page) -> None:
    """The browser's own console reports of the probes (the refusal, the failed connection)."""
    time.sleep(0.5)
    page.console_watch.errors[:] = [e for e in page.console_watch.errors if OTHER_ORIGIN not in e]


def test_a_page_without_friends_reaches_its_own_origin_alone(page, base_url, bot_level):
    """index.html allows a table with friends its relays; a page that holds none narrows that to
    its own origin at once, the embedded game too; a tab that holds a table with friends (after
    the reload into it) reaches other origins' WebSockets."""
    page.goto(base_url + f"?variant=classic&lang=en&level={bot_level}&seed=3")
    settle(page)
    assert reached(page) == "refused: connect-src"
    page.goto(base_url + "build-manifest.json")
    page.evaluate(FRAME_GAME_JS, f"{base_url}index.html?embed=1&variant=classic&lang=en&level={bot_level}&seed=7")
    game = page.frames[1]
    settle(game)
    assert game.evaluate(NARROWED_JS)
    assert reached(game) == "refused: connect-src"
    # a tab that holds tables with friends (js/embed.js reloadForFriends), as after a person
    # started one: the policy of index.html, which lets the relays through
    page.goto(base_url + f"?variant=classic&lang=en&level={bot_level}&seed=3")
    settle(page)
    page.evaluate("sessionStorage.setItem('briscola.friends-tab', '1')")
    page.reload()
    settle(page)
    assert reached(page) == "let through"
    expected_reports(page)
