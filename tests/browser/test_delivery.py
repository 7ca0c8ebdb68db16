"""How the site is delivered, in Chromium: offline play from the service worker, the one-file
page from disk, the site under a sub-path (GitHub project pages), deal links and embed mode,
that the page asks nothing of any other origin, and that Chromium finds it installable.

Each test serves dist/ itself (build.make_server: gzip and validators as a static host) when
it needs to stop the server or move the site, and starts every game from a deal link
(index.html?variant=...&seed=...), which goes straight to the table. Preferences are set before
the page's own scripts run (an init script), so no extra page load is needed for them.
"""
from __future__ import annotations

import hashlib
import json
import re
import shutil
import threading
from pathlib import Path

import pytest

import build  # the repository's root is on the path (conftest.py)
from briscola import bridge
from pagekit import QUIET, read, watched_context
from tools import chromium
from tools.build.friends import lazy
from tools.build.service_worker import sri
from tools.build.site import modules_when_needed, shown_when_asked
from tools.chromium import OFFLINE_READY, until

pytestmark = pytest.mark.browser

PREFS = {"speed": "instant", "lang": "en", "tips": {"all": True}, **QUIET}
SET_PREFS = ("try { if (!localStorage.getItem('briscola.prefs')) "
             f"localStorage.setItem('briscola.prefs', {json.dumps(json.dumps(PREFS))}); }} catch (e) {{}}")
# Any Content-Security-Policy violation fails the test (the console watch sees the error).
WATCH_CSP = ("document.addEventListener('securitypolicyviolation', (e) => "
             "console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI));")
SETTLED = 'html[data-ui="waiting"], html[data-ui="summary"], html[data-ui="error"], html[data-ui="over"]'


class Site:
    """dist/ served on 127.0.0.1 under `prefix`; `requests` lists what reached the server."""

    def __init__(self, directory: Path, prefix: str = "/"):
        self.requests: list = []
        self.server = build.make_server(directory, 0, prefix, cache_control="max-age=600",
                                        record=self.requests)
        # One request per connection: once stopped, nothing at all gets through.
        self.server.RequestHandlerClass.func.protocol_version = "HTTP/1.0"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.url = self.origin + self.server.RequestHandlerClass.func.prefix

    def stop(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def site(dist_dir):
    s = Site(dist_dir)
    yield s
    s.stop()


@pytest.fixture
def context(browser):
    """A fresh profile, with the console watched (errors fail the test) and the prefs set."""
    with watched_context(browser, 1000, 700, SET_PREFS, WATCH_CSP) as ctx:
        yield ctx


def link(bot_level: str, seed: int = 42, **extra) -> str:
    args = {"variant": "classic", "lang": "en", "level": bot_level, "seed": seed, **extra}
    return "?" + "&".join(f"{k}={v}" for k, v in args.items())


def settle(page, timeout=120000) -> str:
    page.wait_for_selector(SETTLED, state="attached", timeout=timeout)
    ui = page.evaluate("document.documentElement.dataset.ui")
    assert ui != "error", page.evaluate(
        "document.getElementById('load-error-msg').textContent + ' ' + document.getElementById('notice').textContent")
    return ui


def play(page, moves: int | None = None) -> str:
    """Click playable cards until the deal ends (or `moves` cards were played)."""
    played = 0
    for _ in range(200):
        ui = settle(page)
        if ui in ("summary", "over") or (moves is not None and played >= moves):
            return ui
        before = page.evaluate("window.__briscola.state.view.events.length")
        page.locator(".hand .hand-card.playable").first.click()
        page.wait_for_function(
            "b => document.documentElement.dataset.ui !== 'waiting' || "
            "window.__briscola.state.view.events.length !== b", arg=before)
        played += 1
    pytest.fail("the deal did not end")


def stages(page) -> set[str]:
    """The start's stages this page went through (its performance marks, the worker's included)."""
    return set(page.evaluate("""performance.getEntriesByType("mark").map((m) => m.name)
        .filter((n) => n.startsWith("briscola:")).map((n) => n.slice(9))"""))


def dealt(page) -> dict:
    v = read(page, "() => window.__briscola.state.view")
    return {"hand": sorted(v["hand"]), "trump": v["trump_card"]}


def test_second_visit_plays_with_the_network_gone(dist_dir, context, bot_level):
    site = Site(dist_dir)
    try:
        page = context.new_page()
        page.goto(site.url + link(bot_level))
        settle(page)
        # The page compiled the wasm (js/start.js) and the worker took its module; no snapshot yet.
        first = stages(page)
        assert {"wasm received", "python started"} <= first and "python restored" not in first, first
        # The first visit is over once the service worker has the whole build (and the engine
        # its snapshot).
        until(page, OFFLINE_READY)
        # The statistics opened: the modules loaded when first needed (js/later.js: the review,
        # the puzzle...) in sight, the service worker fetches and keeps them all (sw.js).
        page.click("#btn-stats")
        page.wait_for_selector("#stats-dialog[open] #btn-puzzle")
        until(page, """async () => { for (const name of await caches.keys()) {
            const c = await caches.open(name);
            if (await c.match(new URL('js/review.js', location.href).href) && await c.match(new URL('js/decks.js', location.href).href)) return true;
        } return false; }""")
        page.close()
    finally:
        site.stop()
    site.requests.clear()
    # Nothing answers any more: no server, and the browser is offline too.
    context.set_offline(True)
    page = context.new_page()
    failed = []
    page.on("requestfailed", lambda r: failed.append(r.url))
    page.goto(site.url + link(bot_level, seed=7))
    assert play(page) in ("summary", "over")
    # The worker read the snapshot from its file, the page compiled the wasm from the offline
    # copy for it.
    second = stages(page)
    assert {"snapshot file read", "wasm received", "python restored"} <= second, second
    # Pyodide's bootstrap after the restore was answered without Python's compiler (js/worker.js
    # bootstrapWithoutCompiling): all five of its snippets.
    assert "bootstrap without compiling" in second, second
    assert page.evaluate("navigator.serviceWorker.controller !== null")
    assert not site.requests and not failed, (site.requests, failed)
    # Where the browser has static routes (sw.js), the page's files came straight from the
    # build's cache, not through the service worker's fetch handler.
    sources = page.evaluate("""performance.getEntriesByType("resource")
        .filter((e) => "workerFinalSourceType" in e && new URL(e.name).origin === location.origin)
        .map((e) => [new URL(e.name).pathname, e.workerFinalSourceType])""")
    if sources:
        assert any(path.endswith("/js/start.js") for path, _ in sources), sources
        assert all(source == "cache" for _, source in sources), sources
    # the review of the deal, which the first visit never opened, opens offline (its modules
    # come through the fetch handler: later files, checked against the build)
    if page.evaluate("document.documentElement.dataset.ui") == "summary":
        page.click("#sum-review")
        page.wait_for_selector("#review-dialog[open] #rv-pos")
    assert not failed, failed


def test_a_broken_engine_snapshot_is_replaced(site, context, bot_level):
    """A snapshot that does not restore is dropped: the start goes on afresh and keeps a new one."""
    page = context.new_page()
    page.goto(site.url + link(bot_level))
    settle(page)
    snapshot = """async () => {
        for (const name of await caches.keys()) {
            if (!name.endsWith(':snapshot')) continue;
            const cache = await caches.open(name);
            for (const request of await cache.keys()) return [name, request.url, (await (await cache.match(request)).arrayBuffer()).byteLength];
        }
        return null;
    }"""
    until(page, snapshot)
    name, url, size = page.evaluate(snapshot)
    assert size > 1_000_000
    # Its file (OPFS), which a start reads first.
    snapshot_file = """async () => {
        const dir = await navigator.storage.getDirectory();
        for await (const name of dir.keys()) {
            if (name.startsWith('briscola-snapshot-')) return [name, (await (await dir.getFileHandle(name)).getFile()).size];
        }
        return null;
    }"""
    until(page, snapshot_file)
    assert page.evaluate(snapshot_file)[1] == size
    # The worker's layout (magic, size, run count, the runs): the cache's copy well formed but
    # not Pyodide's (its header all zeros, which Pyodide refuses), the file's cut short (no
    # runs, which the worker refuses): the start reads the file, drops it, restores from the
    # cache, fails, and goes on afresh.
    page.evaluate("""([name, url]) => {
        const words = new Uint32Array(5 + 1024);
        words.set([0x31534e42, 65536, 1, 0, 4096]);
        return caches.open(name).then((c) => c.put(url, new Response(words)));
    }""", [name, url])
    page.evaluate("""async () => {
        const dir = await navigator.storage.getDirectory();
        for await (const name of dir.keys()) {
            if (!name.startsWith('briscola-snapshot-')) continue;
            const out = await (await dir.getFileHandle(name)).createWritable();
            await out.write(new Uint32Array([0x31534e42, 65536, 0]));
            await out.close();
        }
    }""")
    page.reload()
    assert play(page, moves=2) in ("waiting", "summary", "over")
    until(page, f"async () => {{ const s = await ({snapshot})(); return s && s[2] > 1000000; }}")
    until(page, f"async () => {{ const f = await ({snapshot_file})(); return f && f[1] > 1000000; }}")


def test_one_file_page_plays_a_deal_from_disk(dist_dir, context, bot_level, tmp_path):
    # A copy elsewhere: the page must need nothing beside it.
    page_file = tmp_path / "briscola.html"
    page_file.write_bytes((dist_dir / build.ONE_FILE).read_bytes())
    page = context.new_page()
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(page_file.as_uri() + link(bot_level, seed=3))
    assert play(page) in ("summary", "over")
    assert "wasm received" in stages(page)  # the page compiled the wasm it carries, for the worker
    summary = page.evaluate("window.__briscola.state.summary")
    assert summary and sum(summary["outcome"]["side_points"]) == 120
    outside = [u for u in requests if not u.startswith((page_file.as_uri(), "data:", "blob:"))]
    assert not outside, outside


def lazy_model(dist_dir: Path, variant: str) -> str:
    """The path of the model `variant` searches with, a file of its own (tools/build/models.py)."""
    manifest = json.loads((dist_dir / "build-manifest.json").read_text(encoding="utf-8"))
    bridge.reset()
    name = json.loads(bridge.call("model", json.dumps({"rules": variant})))["result"]["name"]
    assert name in manifest["models"], (variant, name, sorted(manifest["models"]))
    return manifest["models"][name]["path"]


MODEL = "window.__briscola.engine.call('model', {})"
# A variant whose model ships apart from the wheel (Portuguese Bisca, two players).
LAZY = "bisca"


def model_requests(site: Site) -> list[str]:
    return [r["path"] for r in site.requests if r["path"].startswith("/models/")]


def plays_lazy_with_its_model_offline(context, site: Site, moves: int):
    """A new deal of the LAZY variant with the network gone: the expert searches with its model."""
    context.set_offline(True)
    page = context.new_page()
    page.goto(site.url + link("expert", seed=9, variant=LAZY))
    play(page, moves=moves)
    model = page.evaluate(MODEL)
    assert model["installed"] and "learned" in model["searched"], model
    return page


def test_a_variants_model_loads_when_that_variant_is_played(dist_dir, context):
    """A classic visit never asks for another variant's model; a game of the LAZY variant asks for its
    own, once, and the expert searches with it; a later visit offline has it (the build's cache)."""
    path = lazy_model(dist_dir, LAZY)
    site = Site(dist_dir)
    try:
        page = context.new_page()
        page.goto(site.url + link("expert", seed=4))
        play(page, moves=2)
        model = page.evaluate(MODEL)
        assert model["name"] == "classic" and model["installed"], model
        until(page, OFFLINE_READY)
        assert not model_requests(site)
        page.goto(site.url + link("expert", seed=4, variant=LAZY))
        play(page, moves=2)
        model = page.evaluate(MODEL)
        assert model["name"] == LAZY and model["installed"], model
        assert "learned" in model["searched"], model
        assert model_requests(site) == ["/" + path]
        page.close()
    finally:
        site.stop()
    page = plays_lazy_with_its_model_offline(context, site, moves=2)
    # A reload resumes the game (the worker's `resume`): the model is installed again.
    events = page.evaluate("window.__briscola.state.view.events.length")
    page.reload()
    settle(page)
    assert page.evaluate("window.__briscola.state.view.events.length") == events  # the same game
    play(page, moves=1)
    model = page.evaluate(MODEL)
    assert model["installed"] and "learned" in model["searched"], model


RATING = "(JSON.parse(localStorage.getItem('briscola.stats') || '{}').__rating || null)"


def test_a_model_that_does_not_check_out_is_left_and_the_game_plays(dist_dir, context, tmp_path):
    """A model file that is not the build's (its SHA-256): the game plays on without it (the
    expert's heuristic), with no error, and the table says so: the seat's badge and a notice,
    with why; the deal is not rated. The next game of the variant asks for the model again."""
    path = lazy_model(dist_dir, LAZY)
    served = tmp_path / "dist"
    shutil.copytree(dist_dir, served)
    data = (served / path).read_bytes()
    (served / path).write_bytes(data[:-1] + bytes([data[-1] ^ 1]))  # one weight's bit flipped
    site = Site(served)
    try:
        page = context.new_page()
        warnings = []
        page.on("console", lambda m: warnings.append(m.text) if m.type == "warning" else None)
        page.goto(site.url + link("expert", seed=4, variant=LAZY))
        play(page, moves=3)
        model = page.evaluate(MODEL)
        assert model["name"] == LAZY and not model["installed"], model
        assert any(model["searched"]) and "learned" not in model["searched"], model
        said = [w for w in warnings if f"{LAZY} model could not be loaded" in w]
        assert len(said) == 1, warnings
        # said on the table, in words, with why
        note = page.evaluate("window.__briscola.state.model")
        assert note == {"now": True, "why": "damaged", "deals": [0]}, note
        assert page.text_content(".seat .badge.level") == "expert, rules of thumb: model did not check out"
        assert "The expert is playing on rules of thumb" in page.text_content("#notice")
        assert "not rated" in page.get_attribute(".seat .badge.level", "title")
        page.goto(site.url + link("expert", seed=6, variant=LAZY))
        assert play(page) in ("summary", "over")  # a computer player's turn waits for the model's try
        said = [w for w in warnings if f"{LAZY} model could not be loaded" in w]
        assert len(said) == 2, warnings  # tried again (the second copy from the HTTP cache)
        assert model_requests(site) == ["/" + path]
        # the deal is counted, not rated: an expert without its model is not the expert rated
        rating = page.evaluate(RATING)
        assert rating and rating["rating"] is None and rating["history"][-1].get("nomodel"), rating
    finally:
        site.stop()


def test_one_file_page_plays_a_variant_with_its_model(dist_dir, context, tmp_path):
    path = lazy_model(dist_dir, LAZY)
    page_file = tmp_path / "briscola.html"
    page_file.write_bytes((dist_dir / build.ONE_FILE).read_bytes())
    assert f'data-path="{path}"'.encode() in page_file.read_bytes()
    page = context.new_page()
    page.goto(page_file.as_uri() + link("expert", seed=5, variant=LAZY))
    play(page, moves=2)
    model = page.evaluate(MODEL)
    assert model["installed"] and "learned" in model["searched"], model


def test_site_under_a_sub_path(dist_dir, context, bot_level):
    site = Site(dist_dir, "/briscola/")
    try:
        page = context.new_page()
        page.goto(site.url + link(bot_level, seed=11))
        assert play(page, moves=3) in ("waiting", "summary", "over")
        paths = [r["path"] for r in site.requests]
        assert paths and all(p.startswith("/briscola/") for p in paths), paths
        scope = page.evaluate("navigator.serviceWorker.ready.then((r) => r.scope)")
        assert scope == site.url
    finally:
        site.stop()


def test_embed_link_deals_the_same_cards_twice(site, browser, bot_level):
    url = site.url + link(bot_level, seed=42, embed=1)
    seen = []
    for _ in range(2):  # two fresh profiles: nothing is shared but the URL
        ctx = browser.new_context(viewport={"width": 480, "height": 640}, reduced_motion="reduce")
        ctx.add_init_script(SET_PREFS)
        page = ctx.new_page()
        page.goto(url)
        settle(page)
        assert page.evaluate("document.documentElement.classList.contains('embed')")
        assert not page.locator("#topbar").is_visible()
        seen.append(dealt(page))
        # The deal's options leave the address bar: a reload resumes, it does not redeal.
        assert "seed=" not in page.url and "embed=1" in page.url
        ctx.close()
    assert seen[0] == seen[1]
    bridge.reset()
    reply = json.loads(bridge.call("new_match", json.dumps({
        "rules": {"name": "classic"}, "seed": 42,
        "seats": [{"kind": "human"}, {"kind": "bot", "level": bot_level}]})))["result"]
    assert seen[0] == {"hand": sorted(reply["view"]["hand"]), "trump": reply["view"]["trump_card"]}


def test_every_request_stays_on_the_sites_origin(site, context, bot_level):
    urls = []
    context.on("request", lambda r: urls.append(r.url))
    page = context.new_page()
    page.goto(site.url + link(bot_level, seed=5))
    play(page, moves=2)
    # Let the service worker fetch what it keeps, too.
    until(page, OFFLINE_READY)
    foreign = [u for u in urls if not u.startswith((site.origin + "/", "data:", "blob:"))]
    assert urls and not foreign, foreign
    served = {r["path"].split("?")[0] for r in site.requests}
    assert "/pyodide/pyodide.asm.wasm" in served and "/sw.js" in served


def test_installable_as_an_app(site, browser, tmp_path):
    """Chromium's own check: no installability errors, and the manifest parses cleanly."""
    # Incognito contexts are never installable: a real profile, in the same Chromium.
    ctx = chromium.launch_profile(browser.browser_type, tmp_path / "profile")
    try:
        page = ctx.pages[0] if ctx.pages else ctx.new_page()
        page.goto(site.url)
        page.wait_for_selector(SETTLED, state="attached", timeout=120000)
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        cdp = ctx.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"] == site.url + "manifest.webmanifest" and not manifest["errors"]
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    finally:
        ctx.close()


def test_service_worker_lists_every_file_of_the_build(dist_dir):
    manifest = json.loads((dist_dir / "build-manifest.json").read_text(encoding="utf-8"))
    sw = (dist_dir / "sw.js").read_text(encoding="utf-8")
    start = sw.index("const PRECACHE = ") + len("const PRECACHE = ")
    precache = json.loads(sw[start:sw.index("};", start) + 1])
    assert precache["hash"] == manifest["hash"]
    # Not precached either: the engine's wheels for micropip, which the page never fetches, the
    # code of playing with friends, loaded only when chosen (tools/build/friends.py), and the
    # models of the other variants, kept once fetched (tools/build/models.py)
    # models of the other variants, kept once fetched (tools/build/models.py), and the languages
    # but English (the fallback): a page fetches its own language's words alone (js/i18n.js)
    from test_locales import listed  # tests/ (bench/stored_games.py imports this module)
    micropip = {manifest["micropip"]["wheel"], manifest["micropip"]["latest"]}
    models = {m["path"] for m in manifest["models"].values()}
    langs = {f"js/locales/{lang}.js" for lang in listed() if lang != "en"} | {"js/locales/index.js"}
    assert "js/locales/en.js" in manifest["files"] and langs <= set(manifest["files"])
    # ... nor what the browser asks for when it needs it: the installed app's raster icons, the
    # embed's poster (tools/build/site.py shown_when_asked)
    asked = {"img/icon-192.png", "img/icon-512.png", "img/apple-touch-icon.png", "embed.html",
             "css/poster.css", "js/poster.js", "js/poster-words.js"}
    assert shown_when_asked(dist_dir) == asked
    # ... nor the page's modules that a first deal does not run, imported when first needed
    # (js/later.js; tools/build/site.py modules_when_needed)
    needed = {"js/review.js", "js/replay.js", "js/puzzle.js", "js/carry.js", "js/limits.js", "js/decks.js", "js/chiamata.js"}
    assert modules_when_needed(dist_dir) == needed
    langs |= asked | needed
    expected = {p for p in manifest["files"] if p not in ("sw.js", "build-manifest.json", build.ONE_FILE,
                                                          *micropip, *models, *langs) and not lazy(p)}
    assert any(lazy(p) for p in manifest["files"])
    assert set(precache["files"]) == expected
    assert set(precache["keep"]) == models
    # ... but listed with their hashes: fetched when first asked for, and checked (sw.js `later`)
    assert set(precache["later"]) == {p for p in manifest["files"] if lazy(p)} | langs
    for path, integrity in [*precache["files"].items(), *precache["keep"].items(), *precache["later"].items()]:
        assert integrity == manifest["files"][path]["integrity"]
    assert {"index.html", "manifest.webmanifest", manifest["wheel"], manifest["stdlib"],
            "pyodide/pyodide.asm.wasm"} <= expected


def test_a_page_preloads_english_alone_and_the_one_file_page_carries_every_language(dist_dir):
    """The page's modules import English's words (the fallback) and every language's name, no
    other language's file: those are fetched when needed (js/lang-files.js). briscola.html,
    which fetches nothing, carries every language's whole file."""
    from test_locales import locales
    html = (dist_dir / "index.html").read_text(encoding="utf-8")
    preloaded = set(re.findall(r'<link rel="modulepreload" href="([^"]+)"', html))
    assert {"js/locales/en.js", "js/lang-names.js", "js/lang-files.js"} <= preloaded
    assert not {p for p in preloaded if p.startswith("js/locales/")} - {"js/locales/en.js"}, preloaded
    names = (dist_dir / "js" / "lang-names.js").read_text(encoding="utf-8")
    assert "import" not in names and len(names) < 1000  # the names alone, as the build wrote them
    one = (dist_dir / build.ONE_FILE).read_text(encoding="utf-8")
    assert "import(" not in one
    for lang, words in locales().items():
        assert json.dumps(words["lang.name"], ensure_ascii=False) in names
        for key in ("notice.lang.failed", "rules.text.01.p", "card.suit.italian.D"):  # the whole file, inside
            assert json.dumps(words[key], ensure_ascii=False) in one, (lang, key)


def test_a_language_is_fetched_when_picked_and_kept_for_offline(site, browser):
    """A page fetches its own language's words alone (and English's, the fallback); another
    language's file is fetched when picked in the menu, the page switching once it is in. Where
    it cannot be fetched (offline, never fetched before) the page says so in its language and
    stays in it; a language once fetched is kept by the service worker (and the first visit's
    own, fetched before the worker took the page over), and the page starts in it offline."""
    from test_locales import locales
    it, sl = locales()["it"], locales()["sl"]
    context = browser.new_context(viewport={"width": 1000, "height": 700}, reduced_motion="reduce", locale="en-US")
    context.add_init_script(SET_PREFS)
    context.add_init_script(WATCH_CSP)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    try:
        fetched_and_kept(page, context, site, it, sl, errors)
    finally:
        context.close()
    assert not errors, errors


def fetched_and_kept(page, context, site, it, sl, errors):
    asked = []
    page.on("request", lambda r: asked.append(r.url.split("/js/locales/")[1]) if "/js/locales/" in r.url else None)
    page.goto(site.url + "?lang=it")
    settle(page)
    assert page.evaluate("document.documentElement.lang") == "it"
    assert sorted(set(asked)) == ["en.js", "it.js"], asked
    until(page, OFFLINE_READY)  # the first visit over: the service worker has the build
    # offline, Slovene never fetched: said in Italian, the page stays Italian
    context.set_offline(True)
    page.click("#btn-lang")
    page.click("#lang-menu button[data-lang=sl]")
    failed = it["notice.lang.failed"].replace("{lang}", sl["lang.name"])
    page.wait_for_function("t => document.getElementById('notice').textContent.includes(t)", arg=failed)
    # the browser's own line for the file it could not fetch, and nothing else
    assert errors and all(e.startswith("Failed to load resource: net::ERR_") for e in errors), errors
    errors.clear()
    assert page.evaluate("document.documentElement.lang") == "it"
    assert page.text_content("#btn-lang-text") == "IT"
    assert page.locator("#btn-rules").get_attribute("title") == it["menu.rules"]
    assert json.loads(page.evaluate("localStorage.getItem('briscola.prefs')"))["lang"] == "it"
    # online again: fetched, then shown whole, and kept
    context.set_offline(False)
    page.click("#btn-lang")
    page.click("#lang-menu button[data-lang=sl]")
    page.wait_for_function("() => document.documentElement.lang === 'sl'")
    assert "sl.js" in asked
    assert page.locator("#btn-rules").get_attribute("title") == sl["menu.rules"]
    assert page.text_content("#btn-lang-text") == "SL"
    until(page, """async () => !!(await caches.match(new URL('js/locales/sl.js', location.href).href))
        && !!(await caches.match(new URL('js/locales/it.js', location.href).href))""")
    context.set_offline(True)
    page.reload()
    settle(page)
    assert page.evaluate("document.documentElement.lang") == "sl"
    assert page.locator("#btn-rules").get_attribute("title") == sl["menu.rules"]


# ---- a page and its worker are one build -----------------------------------------------------------

@pytest.fixture(scope="module")
def second_build(dist_dir, tmp_path_factory):
    """The same sources built again as another build (a deploy over dist/)."""
    out = tmp_path_factory.mktemp("deploy") / "dist"
    build.stage_dist(out=out, stamp="a second build")
    return out


def point(served: Path, to: Path) -> None:
    """Serve `to` from now on (the server resolves `served`, a link, at each request): a deploy."""
    tmp = served.with_name(served.name + ".new")
    tmp.unlink(missing_ok=True)
    tmp.symlink_to(to)
    tmp.replace(served)


PAGE_BUILD = "import(new URL('js/engine.js', location.href).href).then((m) => m.PAGE_BUILD)"


def builds(page) -> tuple[str, str]:
    """The build of the page's own engine client and of the worker it runs against."""
    return page.evaluate(PAGE_BUILD), page.evaluate("window.__briscola.engine.build")


def manifest_hash(d: Path) -> str:
    return json.loads((d / "build-manifest.json").read_text(encoding="utf-8"))["hash"]


def test_a_page_never_runs_against_another_builds_worker(dist_dir, second_build, context, bot_level, tmp_path):
    """A host that serves one build's page and the other's worker (what a tab met when a new
    build took over while it loaded): the page reloads once, then says so with the reload
    button, never half-working; once the host serves one build, the reload plays it."""
    old, new = manifest_hash(dist_dir), manifest_hash(second_build)
    assert old != new
    mixed = tmp_path / "mixed"
    shutil.copytree(dist_dir, mixed)
    shutil.copyfile(second_build / "js" / "worker.js", mixed / "js" / "worker.js")
    served = tmp_path / "site"
    point(served, mixed)
    site = Site(served)
    try:
        page = context.new_page()
        loads = []
        page.on("domcontentloaded", lambda p: loads.append(p.url))
        page.goto(site.url + link(bot_level))
        page.wait_for_selector('html[data-ui="error"]', state="attached", timeout=120000)
        assert len(loads) == 2, loads  # the one reload into one build, which did not help here
        assert "two versions" in page.text_content("#load-error-msg")
        assert page.locator("#load-retry").is_visible()
        assert page.evaluate(PAGE_BUILD) == old
        # A page of a build from before pages said theirs: the worker answers it only that.
        said = page.evaluate("""() => new Promise((ok) => {
            const w = new Worker(new URL('js/worker.js', location.href), {type: 'module'});
            w.onmessage = (e) => { if (e.data.type === 'fatal') { w.terminate(); ok(e.data.code); } };
            w.postMessage({id: 1, type: 'ping', args: {}}); })""")
        assert said == "build_mismatch"
        point(served, second_build)  # the host serves one build again
        with page.expect_navigation():
            page.click("#load-retry")
        assert play(page, moves=2) in ("waiting", "summary", "over")
        assert builds(page) == (new, new)
        page.close()
    finally:
        site.stop()


# Another tab of the old build goes out of sight just as this one loads: js/offline.js then lets
# the waiting new build take over (sw.js), in the middle of this tab's load. Before pages checked
# their worker's build, this ran the old build's app.js against the new build's worker (1 run of 2).
OTHER_TAB_HIDDEN = ("navigator.serviceWorker.getRegistration().then((r) => r && r.waiting"
                    " && r.waiting.postMessage({type: 'skip-waiting'}))")


@pytest.mark.parametrize("run", [1, 2])
def test_a_deploy_with_a_tab_of_the_old_build_open(dist_dir, second_build, browser, bot_level, tmp_path, run):
    """Two tabs of one build, a new build deployed and installed, one tab reloaded as the other
    goes out of sight: each tab runs one build's page and worker (the reloaded one reloads once
    more when it caught the switch halfway), and both play."""
    served = tmp_path / "site"
    point(served, dist_dir)
    site = Site(served)
    try:
        with watched_context(browser, 1000, 700, SET_PREFS) as ctx:
            first = ctx.new_page()
            first.goto(site.url + link(bot_level))
            settle(first)
            until(first, OFFLINE_READY)
            second = ctx.new_page()
            second.goto(site.url + link(bot_level, seed=8))
            settle(second)
            point(served, second_build)
            first.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
            until(first, "() => navigator.serviceWorker.getRegistration().then((r) => !!r.waiting)")
            second.add_init_script(OTHER_TAB_HIDDEN)
            second.reload()
            assert play(second, moves=1) in ("waiting", "summary", "over")
            assert builds(second) == (manifest_hash(second_build),) * 2
            assert play(first, moves=1) in ("waiting", "summary", "over")
            assert builds(first) == (manifest_hash(dist_dir),) * 2
    finally:
        site.stop()


def test_a_new_build_keeps_the_models_a_visit_fetched(dist_dir, second_build, context, tmp_path):
    """A model fetched under one build is copied into the next build's cache when its hash is the
    same (sw.js install, never fetched again): after the deploy, offline, the variant plays
    with its model."""
    path = lazy_model(dist_dir, LAZY)
    assert lazy_model(second_build, LAZY) == path
    served = tmp_path / "site"
    point(served, dist_dir)
    site = Site(served)
    has_model = """async ([hash, path]) => { const name = (await caches.keys()).find((n) => n.endsWith(':' + hash));
        return !!name && !!(await (await caches.open(name)).match(new URL(path, location.href).href)); }"""
    try:
        page = context.new_page()
        page.goto(site.url + link("expert", seed=4, variant=LAZY))
        play(page, moves=1)
        until(page, OFFLINE_READY)
        assert page.evaluate(has_model, [manifest_hash(dist_dir), path])
        point(served, second_build)
        site.requests.clear()
        page.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
        until(page, "() => navigator.serviceWorker.getRegistration().then((r) => !!r.waiting)")
        page.evaluate(OTHER_TAB_HIDDEN)
        until(page, f"() => caches.keys().then((k) => !k.some((n) => n.endsWith(':{manifest_hash(dist_dir)}')))")
        assert page.evaluate(has_model, [manifest_hash(second_build), path])
        assert not model_requests(site)
        page.close()
    finally:
        site.stop()
    page = plays_lazy_with_its_model_offline(context, site, moves=1)
    assert builds(page) == (manifest_hash(second_build),) * 2


# ---- the friends layer of the page's build -----------------------------------------------------

FRIENDS_OPEN = "window.__briscola.app.withFriends(async (f) => typeof f.joinEarly === 'function')"


def friends_changed(second: Path, to: Path) -> Path:
    """The second build with its friends code changed (a deploy that changes what they exchange):
    one module's bytes, and their hash where its service worker lists it."""
    shutil.copytree(second, to)
    wire = to / "js" / "friends" / "wire.js"
    old = sri(hashlib.sha256(wire.read_bytes()).hexdigest())
    wire.write_bytes(wire.read_bytes() + b"\n// a later build's friends code\n")
    new = sri(hashlib.sha256(wire.read_bytes()).hexdigest())
    sw = to / "sw.js"
    assert sw.read_text(encoding="utf-8").count(old) == 1
    sw.write_text(sw.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    return to


def test_a_tab_open_across_a_deploy_never_runs_the_new_builds_friends_code(dist_dir, second_build, browser,
                                                                          bot_level, tmp_path):
    """Two tabs of one build open, a build that changes the friends code deployed and waiting: the
    first tab's "play with friends" gets none of the new build's friends code (its service worker
    refuses files that are not its build's); it says so, lets the new build in and reloads into
    it, and then plays with friends on the new build's code. The second tab, still the old
    build's page under the new build's service worker, reloads the same way before a table."""
    deployed = friends_changed(second_build, tmp_path / "deployed")
    served = tmp_path / "site"
    point(served, dist_dir)
    site = Site(served)
    old, new = manifest_hash(dist_dir), manifest_hash(deployed)
    # the console watched as watched_context does, but for the one refusal the test asks for
    ctx = browser.new_context(viewport={"width": 1000, "height": 700}, reduced_motion="reduce", locale="en-US")
    ctx.add_init_script(SET_PREFS)
    errors = []
    ctx.on("page", lambda pg: (pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None),
                               pg.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))))
    try:
        with ctx:
            first = ctx.new_page()
            first.goto(site.url + link(bot_level))
            settle(first)
            until(first, OFFLINE_READY)
            second = ctx.new_page()
            second.goto(site.url + link(bot_level, seed=8))
            settle(second)
            point(served, deployed)
            first.evaluate("navigator.serviceWorker.getRegistration().then((r) => r.update())")
            until(first, "() => navigator.serviceWorker.getRegistration().then((r) => !!r.waiting)")
            # the old build's service worker serves no friends file of the new build (sw.js `later`)
            probe = "fetch('js/friends/wire.js').then((r) => r.status, () => 'refused')"
            assert first.evaluate(probe) == "refused"
            assert first.evaluate("fetch('js/friends/identity.js').then((r) => r.status)") == 200  # unchanged
            assert errors == ["Failed to load resource: net::ERR_FAILED"], errors
            errors.clear()
            with first.expect_navigation(timeout=60000):
                assert first.evaluate(FRIENDS_OPEN) is False  # refused, said, and reloading
            settle(first)
            assert builds(first) == (new, new)
            assert first.evaluate(FRIENDS_OPEN) is True
            wire = first.evaluate("fetch('js/friends/wire.js').then((r) => r.text())")
            assert wire.endswith("// a later build's friends code\n")
            # the other tab: the old build's page, now under the new build's service worker
            assert builds(second)[0] == old
            with second.expect_navigation(timeout=60000):
                assert second.evaluate(FRIENDS_OPEN) is False
            settle(second)
            assert builds(second) == (new, new)
            assert second.evaluate(FRIENDS_OPEN) is True
        assert not errors, errors
    finally:
        site.stop()
