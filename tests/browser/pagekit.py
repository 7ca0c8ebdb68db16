"""Page helpers shared by the browser tests."""
from __future__ import annotations

import re
import json
import os
from contextlib import contextmanager
from pathlib import Path

import pytest

PROGRESS_JS = ("window.__briscola.state.view.events.length"
               " + 1000 * window.__briscola.state.match.deal")
# The page's modes (`<html data-ui>`) in which it waits for the person (or has stopped).
SETTLED = ("waiting", "summary", "handoff", "error", "newgame", "over")
# The languages the page's tests walk through, each screen in each (a new language of
# js/locales/ is added here).
# every language of the page, in js/locales/index.js's order (one line a language there)
LANGUAGES = tuple(re.findall(r'^export \{ default as (\w+) \}', (Path(__file__).resolve().parents[2] / "js" / "locales" / "index.js").read_text(encoding="utf-8"), re.M))
# ... once a game is on: the person's turn, the end of the deal, the hand-off screen, an error.
PLAYING = ("waiting", "summary", "handoff", "error")


# Screenshots for a person to look at (tests/artifacts/), taken only with
# BRISCOLA_SCREENSHOTS=1: they assert nothing, and each costs about half a second of the
# machine's two cores (a whole run took about 200 of them).
SCREENSHOTS = os.environ.get("BRISCOLA_SCREENSHOTS", "") not in ("", "0")


# How the tests' Chromium runs the page's code, measured on the 2-core machine (docs/testing.md):
# - V8's baseline WebAssembly compiler only (Liftoff): each fresh page compiles Pyodide's 8 MB
#   module, and the optimising tier's background compiles of it cost about 1.5 s of a core per
#   page, more than the faster code gains back in a test's few deals. (The benchmarks and every
#   player's browser keep V8's default tiers; tools/chromium.py.)
TEST_JS_FLAGS = ("--liftoff-only",)
# - The service worker only in the tests of offline play and of deployment (test_delivery.py,
#   test_embed.py, through watched_context): elsewhere it cached the whole site (13 MB) behind
#   each fresh page, about 0.7 s of a core, for a visit no test makes.
NO_SERVICE_WORKER = {"service_workers": "block"}
# - The sounds muted in the preferences most tests start with: a muted page makes no audio
#   context (js/sound.js), whose threads rendered every card's sound, about 2 % of the suite's
#   cores. The sounds' own test (test_newcomer.py), the classic deal at a glance
#   (test_glance.py), the first visits and the deal in WebKit keep them on.
QUIET = {"sound": {"muted": True}}


def shot(target, path, **options) -> None:
    """A screenshot of `target` (a Playwright page or element) to `path`, with
    BRISCOLA_SCREENSHOTS=1 only."""
    if SCREENSHOTS:
        target.screenshot(path=str(Path(path)), **options)


def shot_webdriver(driver, path) -> None:
    """The same for a Selenium driver (WebKitGTK)."""
    if SCREENSHOTS:
        driver.save_screenshot(str(Path(path)))


def read(page, fn: str, arg=None):
    """What the page's function `fn` (its source: `() => window.__briscola.state`, or of one
    argument `arg`; it may return a promise) returns, carried back as one JSON text: Playwright
    checks a returned object value by value in the driver and in the test's process, which for
    a deal's states and views cost the test's process seconds of a core a test."""
    text = page.evaluate(f"async (a) => JSON.stringify(await ({fn})(a))", arg)
    return None if text is None else json.loads(text)


def pick_lang(page, lang: str) -> None:
    """The page's language from the top bar's menu (#btn-lang opens it, each language its
    button), as a person picks it; behind a modal dialog, where the top bar cannot be reached,
    the same menu item clicked by the page itself."""
    if page.evaluate("!!document.querySelector('dialog[open]:modal')"):
        page.evaluate("(l) => document.querySelector(`#lang-menu button[data-lang=${l}]`).click()", lang)
    else:
        page.click("#btn-lang")
        page.click(f"#lang-menu button[data-lang={lang}]")
    page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)


def ui(page) -> str:
    """The page's mode."""
    return page.evaluate("document.documentElement.dataset.ui")


def wait_ui(page, states=SETTLED, timeout=60000) -> str:
    """Wait until the page's mode is one of `states`; that mode."""
    page.wait_for_function("s => s.includes(document.documentElement.dataset.ui)", arg=list(states),
                           timeout=timeout)
    return ui(page)


def table_state(page) -> str:
    """Wait until the table is settled (PLAYING); a page that reports an error fails the test."""
    state = wait_ui(page, PLAYING)
    if state == "error":
        pytest.fail("the page reports: " + (page.text_content("#notice") or ""))
    return state


def hand_over(page) -> None:
    """Past the hand-off screen, as the next person at the device does."""
    page.click("#handoff-go")
    wait_ui(page, ("waiting", "summary", "handoff", "busy", "over"))


def new_game(page, variant: str, seed, seat=None) -> str:
    """Start `variant` from the new-game panel as a person does (the end-of-deal panel closed
    first): `seat(n)` is the choice for each seat n but the first ("human", "bot:<level>"; None
    leaves the seat as it is), then the seed (under Advanced) and Start. The table's state once
    it has dealt; an error fails the test, with the page's notice."""
    if page.locator("#summary-dialog[open]").count():
        page.keyboard.press("Escape")
    if not page.locator("#newgame-dialog[open]").count():
        page.click("#btn-new")
    page.wait_for_selector("#newgame-dialog[open]")
    page.select_option("#ng-variant", variant)
    if seat:
        for n in range(1, page.locator("select[id^=ng-seat-]").count()):
            if seat(n):
                page.select_option(f"#ng-seat-{n}", seat(n))
    if not page.locator("#ng-seed").is_visible():
        page.click("details.advanced summary")
    page.fill("#ng-seed", str(seed))
    page.wait_for_function("() => !document.getElementById('ng-start').disabled")
    page.click("#ng-start")
    state = wait_ui(page, PLAYING)
    assert state != "error", page.text_content("#notice")
    return state


@contextmanager
def checked(made):
    """`with checked(new_page(width, height)) as page:` the page, its context closed after the
    block; a console error on it fails the test (when the block itself passed)."""
    context, page = made
    try:
        yield page
    finally:
        context.close()
    assert not page.console_watch.errors, page.console_watch.errors


@contextmanager
def watched_context(browser, width, height, *init_scripts):
    """A fresh profile at this window size, `init_scripts` run in each of its pages (frames
    too) before the page's own; a console error or an uncaught exception in any of its pages
    fails the test once the context is closed."""
    ctx = browser.new_context(viewport={"width": width, "height": height}, reduced_motion="reduce",
                              locale="en-US")
    for script in init_scripts:
        ctx.add_init_script(script)
    errors = []

    def watch(page):
        page.on("console", lambda m: errors.append(f"console.error: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))

    ctx.on("page", watch)
    yield ctx
    ctx.close()
    assert not errors, "console errors:\n" + "\n".join(errors)


def assert_in_window(page, selector: str) -> None:
    """The element is wholly inside the window (1 px of rounding allowed at the far edges)."""
    box = page.locator(selector).bounding_box()
    vw = page.viewport_size
    assert box["x"] >= 0 and box["y"] >= 0
    assert box["x"] + box["width"] <= vw["width"] + 1 and box["y"] + box["height"] <= vw["height"] + 1


# The layout check: the table's parts (`items`, [group, selector, only with text]) overlap no
# part of another group by more than 2 px and stay inside the window; the parts of each box
# stay inside it; no element of `no_scroll` scrolls; the page does not scroll sideways.
LAYOUT_JS = """
([items, boxes, parts, noScroll]) => {
  const found = [];
  for (const [group, selector, withText] of items) document.querySelectorAll(selector).forEach(el => {
    if (withText && !el.textContent) return;
    const name = group === 'seat' ? 'seat' + el.dataset.seat : group;
    const r = el.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden')
      found.push({group: name, label: name + ':' + (el.dataset.key || el.dataset.seat || el.className), r});
  });
  const overlaps = [];
  const tol = 2;
  for (let i = 0; i < found.length; i++) for (let j = i + 1; j < found.length; j++) {
    const a = found[i], b = found[j];
    if (a.group === b.group) continue;
    const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
    const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
    if (w > tol && h > tol) overlaps.push(a.label + ' x ' + b.label + ` (${Math.round(w)}x${Math.round(h)})`);
  }
  document.querySelectorAll(boxes).forEach(box => {
    const r = box.getBoundingClientRect();
    box.querySelectorAll(parts).forEach(el => {
      const q = el.getBoundingClientRect();
      if (!q.width || getComputedStyle(el).display === 'none') return;
      if (q.left < r.left - tol || q.right > r.right + tol || q.top < r.top - tol || q.bottom > r.bottom + tol)
        overlaps.push('outside its box: ' + (box.dataset.seat ? 'seat ' + box.dataset.seat : box.className)
          + ' > ' + el.className);
    });
  });
  for (const selector of noScroll) document.querySelectorAll(selector).forEach(el => {
    if (el.scrollHeight > el.clientHeight + 2) overlaps.push('it scrolls: ' + selector);
  });
  const outside = found.filter(it => it.r.left < -1 || it.r.top < -1 || it.r.right > innerWidth + 1 || it.r.bottom > innerHeight + 1)
    .map(it => it.label + ` ${Math.round(it.r.left)},${Math.round(it.r.top)},${Math.round(it.r.right)},${Math.round(it.r.bottom)}`);
  const scroll = document.documentElement.scrollWidth > innerWidth + 1;
  return {overlaps, outside, scroll};
}
"""


class Layout:
    """A layout check for one kind of table: `items` are [group, selector] or [group, selector,
    True] (counted only with text); the group "seat" is one group per seat. The parts of each
    of `boxes` (`parts`, CSS selectors) stay inside it; no element of `no_scroll` scrolls."""

    def __init__(self, items, boxes: str, parts: str, no_scroll=(), prefix: str = ""):
        self.arg = [[list(it) + [False] * (3 - len(it)) for it in items], boxes, parts, list(no_scroll)]
        self.prefix = prefix

    def problems(self, page) -> dict:
        """{overlaps, outside, scroll} as the page is now."""
        return page.evaluate(LAYOUT_JS, self.arg)

    def check(self, page, artifacts, name: str) -> None:
        """A screenshot (artifacts/<prefix><name>.png), then the check."""
        page.wait_for_timeout(60)
        shot(page, str(artifacts / f"{self.prefix}{name}.png"))
        res = self.problems(page)
        assert not res["overlaps"], f"{name}: overlapping elements: {res['overlaps']}"
        assert not res["outside"], f"{name}: elements outside the window: {res['outside']}"
        assert not res["scroll"], f"{name}: the page scrolls sideways"


def progress(page) -> int:
    """Grows with every action the engine accepts (events of the deal, deals of the match)."""
    return page.evaluate(PROGRESS_JS)


def act_and_wait(page, do, timeout: float = 60000) -> None:
    """Do a game action, then wait until the engine has taken it and the page has settled.

    Waiting only for the page to leave "waiting" is not enough: it is "busy" at once, before
    the engine's reply has arrived.
    """
    before = progress(page)
    do()
    page.wait_for_function(
        "([b, settled]) => { const ui = document.documentElement.dataset.ui;"
        f" return ui === 'error' || (settled.includes(ui) && ({PROGRESS_JS}) !== b); }}",
        arg=[before, list(SETTLED)], timeout=timeout)


STORED_SAVE_JS = """async () => {
  const id = sessionStorage.getItem('briscola.game');
  const db = await new Promise((ok, no) => { const r = indexedDB.open('briscola-games');
    r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
  const rec = await new Promise((ok, no) => { const r = db.transaction('games').objectStore('games').get(id);
    r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
  db.close();
  return rec ? rec.save : null;
}"""


def stored_save(page) -> str | None:
    """The save the engine's worker keeps for this tab's game (IndexedDB; the page's own code
    never reads it: the test looks, as a curious person with developer tools could)."""
    return page.evaluate(STORED_SAVE_JS)
