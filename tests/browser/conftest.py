"""Fixtures for the browser tests: build dist/ once, serve it on 127.0.0.1, drive Chromium.

The browser is Debian's Chromium's headless shell when present (or the one named by
BRISCOLA_HEADLESS_SHELL or BRISCOLA_CHROMIUM), else Debian's Chromium; otherwise Playwright's
own (tools/chromium.py). Every page fixture fails its test on a console error.
"""
from __future__ import annotations

import functools
import http.server
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
ARTIFACTS = ROOT / "tests" / "artifacts"
sys.path.insert(0, str(ROOT / "py"))
sys.path.insert(0, str(ROOT))  # build.py, tools/

from tools import chromium  # noqa: E402
from tools.build.serve import SiteServer  # noqa: E402
from pagekit import NO_SERVICE_WORKER, TEST_JS_FLAGS  # noqa: E402


def pytest_configure(config):
    config.addinivalue_line("markers", "browser: drives the built page in Chromium")


@pytest.fixture(scope="session")
def dist_dir() -> Path:
    if os.environ.get("BRISCOLA_NO_BUILD") != "1":
        proc = subprocess.run([sys.executable, "build.py"], cwd=ROOT, capture_output=True, text=True)
        if proc.returncode:
            pytest.fail(f"build.py failed:\n{proc.stdout}\n{proc.stderr}")
    if not (DIST / "index.html").exists():
        pytest.fail("dist/index.html missing after the build")
    return DIST


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript", ".mjs": "text/javascript", ".wasm": "application/wasm",
        ".json": "application/json", ".svg": "image/svg+xml", ".whl": "application/zip",
        ".zip": "application/zip",
    }

    def log_message(self, *args):  # quiet
        pass

    def log_request(self, code="-", size="-"):
        # every answer of 400 or more while the site is up goes to the pages watching
        # (ConsoleWatch): the server sees each status it sends, where a page's "response"
        # listener had the browser report every response of every page to the test's process
        if self.server.answering and isinstance(code, int) and code >= 400:  # an HTTPStatus
            for watch in list(self.server.watches):
                watch.errors.append(f"HTTP {int(code)}: {self.path}")

    def do_GET(self):  # noqa: N802
        if not self.server.answering:  # the site is down: nothing but 503
            self.server.refused.append(self.path)
            self.send_error(503)
            return
        # Chromium asks for /favicon.ico on pages without an icon link (the JSON page the
        # tests use to reach localStorage before the game starts): answer it quietly.
        if self.path == "/favicon.ico" and not (Path(self.directory) / "favicon.ico").exists():
            self.send_response(204)
            self.end_headers()
            return
        super().do_GET()


class _Server(SiteServer):
    """The session's server of dist/ (room for a page's burst of requests: tools/build/serve.py).
    A test sets `answering` to False to take the site down (every request then gets 503;
    `refused` lists their paths) and back to True when done."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.answering = True
        self.refused: list[str] = []
        self.watches: set = set()  # the ConsoleWatch of each page open now


@pytest.fixture(scope="session")
def site_server(dist_dir):
    """The server behind `base_url` (tests/browser/test_webkit.py takes it down for a while)."""
    global _SITE
    server = _Server(("127.0.0.1", 0), functools.partial(_Handler, directory=str(dist_dir)))
    _SITE = server
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def base_url(site_server):
    return f"http://127.0.0.1:{site_server.server_address[1]}/"


@pytest.fixture(scope="session")
def playwright():
    """The one Playwright of the session: its sync API runs once per thread, so every browser
    the tests launch (the plain one, test_friends.py's with WebRTC on the loopback) comes from it."""
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        yield p


# The one browser of a test process, for the page's tests and the friends' alike (one pool of
# warm profiles: a friends' module with a browser of its own made each person's profile cold
# again, about 2.6 s of a core more a profile): WebRTC between its pages on the loopback
# (chromium.WEBRTC_LOOPBACK_ARGS), and `gc()` and unrounded `performance.memory` in its pages
# for the host's memory measured in test_friends_flood.py (nothing of the page's uses either).
BROWSER_ARGS = [*chromium.WEBRTC_LOOPBACK_ARGS, "--enable-precise-memory-info"]
BROWSER_JS_FLAGS = (*TEST_JS_FLAGS, "--expose-gc")


@pytest.fixture(scope="session")
def browser(playwright):
    """The tests' browser: Chromium's headless shell (tools/chromium.py says why)."""
    b = chromium.launch(playwright.chromium, extra_args=BROWSER_ARGS, js_flags=BROWSER_JS_FLAGS, shell=True)
    yield b
    b.close()


@pytest.fixture(scope="session")
def whole_browser(playwright):
    """The whole Chromium browser, for what the headless shell does not do as a player's
    browser does (its profile's settings: a third-party frame's storage refused)."""
    b = chromium.launch(playwright.chromium, js_flags=TEST_JS_FLAGS)
    yield b
    b.close()


@pytest.fixture(scope="session")
def bot_level() -> str:
    """The first computer level of the catalog that the engine can really seat (fast)."""
    from briscola import bridge
    catalog = json.loads(bridge.call("catalog", "{}"))["result"]
    for level in ["beginner", *catalog["levels"], "random"]:
        reply = json.loads(bridge.call("new_match", json.dumps(
            {"rules": "classic", "seed": 1, "seats": [{"kind": "human"}, {"kind": "bot", "level": level}]})))
        if "result" in reply:
            return level
    pytest.fail("no computer level works")


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


_SITE = None  # the session's server of dist/ (site_server), once started


class ConsoleWatch:
    """A page's console errors, uncaught exceptions, and the site's answers of 400 or more
    while the page is open (`errors`). The site's server reports those (`_Handler`); a
    "response" listener on the page cost the browser's driver and the test's process about
    0.15 s of a core a page load, for the forty-odd responses of each."""

    def __init__(self):
        self.errors: list[str] = []

    def attach(self, page):
        page.on("console", lambda m: self.errors.append(f"console.{m.type}: {m.text}")
                if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e} {e.stack}"))
        if _SITE is not None:
            _SITE.watches.add(self)
            page.on("close", lambda _page: _SITE.watches.discard(self))


# What every test page's context is given (a test's own options come on top).
PAGE_CONTEXT = {"reduced_motion": "reduce", "locale": "en-US", **NO_SERVICE_WORKER}


def _watched(page):
    page.set_default_timeout(60000)
    page.console_watch = ConsoleWatch()
    page.console_watch.attach(page)
    return page


def _make_page(browser, width, height, **options):
    """A fresh context and its page (`options`: more of the context's, e.g. `has_touch`);
    `page.console_watch.errors` collects the console errors."""
    context = browser.new_context(viewport={"width": width, "height": height}, **{**PAGE_CONTEXT, **options})
    return context, _watched(context.new_page())


# The shared profile. A fresh profile starts the engine cold: Pyodide's module compiled, Python
# started, the engine imported, its memory snapshot made and stored (about 3 s of a core, then
# more behind it). A player pays that once; their next visits restore the snapshot. Most tests
# need a fresh game, not a first visit: their pages open in one profile per test process, kept
# warm (the browser's caches and the engine's snapshot), its game storage emptied after each
# test (`_WarmProfiles.give_back`). A test that changes a profile itself (routes, init scripts,
# offline, permissions, its own options) or needs a first visit asks new_page(..., fresh=True).
_RESET_JS = """async () => {
  localStorage.clear();
  sessionStorage.clear();
  for (const name of await caches.keys()) if (!name.endsWith(":snapshot")) await caches.delete(name);
  // a database still open in a closing page's worker is deleted once it closes
  const gone = (req) => new Promise((done) => {
    req.onsuccess = () => done(true);
    req.onerror = () => done(false);
    setTimeout(() => done(false), 5000);
  });
  for (const db of await indexedDB.databases()) if (!(await gone(indexedDB.deleteDatabase(db.name)))) return false;
  return true;
}"""


class _WarmProfiles:
    """The warm profiles of this test process: a lease takes a free one (or makes one) and
    gives it back emptied. A test never shares a profile with another still open (a module's
    shared page holds one while the module's other tests run)."""

    def __init__(self, browser, base_url):
        self.browser = browser
        self.base_url = base_url
        self.free = []

    def take(self):
        """A warm profile as a test's context (a `_Lease`), with no page yet."""
        context = self.free.pop() if self.free else self.browser.new_context(
            viewport={"width": 1280, "height": 800}, **PAGE_CONTEXT)
        return _Lease(self, context)

    def lease(self, width, height):
        """A warm profile and a page in it at this window size: (context, page)."""
        lease = self.take()
        page = lease.new_page()
        page.set_viewport_size({"width": width, "height": height})
        return lease, _watched(page)

    def give_back(self, context):
        """Everything the test's pages kept goes but the engine's snapshot and the browser's
        own caches (HTTP, compiled code)."""
        page = context.new_page()
        try:
            page.goto(self.base_url + "build-manifest.json")
            emptied = page.evaluate(_RESET_JS)
        finally:
            page.close()
        if emptied:
            self.free.append(context)
        else:  # something held on to it: closed, and a later lease makes a new one
            context.close()

    def close(self):
        for context in self.free:
            context.close()


class _Lease:
    """A test's warm profile, handed to it as its context: it opens pages there, and `close()`
    closes them and gives the profile back. Anything else a context does would outlive the
    test, so it is refused: such a test asks for a fresh profile."""

    def __init__(self, profiles, context):
        self._profiles = profiles
        self._context = context
        self._pages = []

    def new_page(self):
        page = self._context.new_page()
        self._pages.append(page)
        return page

    @property
    def pages(self):
        return [p for p in self._pages if not p.is_closed()]

    def close(self):
        if self._context is None:
            return
        for p in self.pages:
            p.close()
        context, self._context = self._context, None
        self._profiles.give_back(context)

    def __getattr__(self, name):
        raise AttributeError(f"context.{name}: a page of a shared profile cannot change it; "
                             "ask new_page(..., fresh=True)")


@pytest.fixture(scope="session")
def warm_profile(browser, base_url):
    profiles = _WarmProfiles(browser, base_url)
    yield profiles
    profiles.close()


@pytest.fixture(scope="session")
def rtc_browser(browser, warm_profile):
    """The browser of the friends' tests (tests/browser/test_friends*.py): the same as the page's
    tests, its people's pages in the same warm profiles (`Person`)."""
    browser.warm_profiles = warm_profile
    return browser


@pytest.fixture(scope="session")
def new_page(browser, warm_profile):
    """A factory: ``new_page(width, height)`` -> (context, page) in a warm profile (above);
    ``new_page(width, height, fresh=True)`` in a profile of its own. ``page.console_watch.errors``."""
    def make(width=1280, height=800, fresh=False):
        return _make_page(browser, width, height) if fresh else warm_profile.lease(width, height)
    return make


def _checked_page(warm_profile, width, height):
    context, pg = warm_profile.lease(width, height)
    yield pg
    context.close()
    assert not pg.console_watch.errors, "console errors:\n" + "\n".join(pg.console_watch.errors)


@pytest.fixture
def page(warm_profile):
    yield from _checked_page(warm_profile, 1280, 800)


@pytest.fixture
def phone_page(warm_profile):
    yield from _checked_page(warm_profile, 360, 640)
