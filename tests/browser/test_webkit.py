"""The page in WebKit (WebKitGTK's MiniBrowser driven through WebKitWebDriver and Selenium): a
whole classic deal against the computer played by clicking cards, its result, a reload with the
site down that the service worker answers, and the deal's review.

Safari's engine is WebKit, and many players are on iPhones: this is the one test that runs the
page outside Chromium. It mirrors the Chromium tests' selectors (pagekit.py, test_table.py)
through WebDriver calls. WebDriver has no offline switch: the session's server of dist/ is taken
down (every request answered 503) before the reload, so only the service worker's cache can
bring the page back. The MiniBrowser in automation mode (a fresh, ephemeral profile) registers
the service worker as a browser does, and the reload asks the server for nothing but sw.js (the
browser's check for a newer worker).

Debian's MiniBrowser (WebKitGTK 4.1) has no `--headless` option (it refuses to start with it):
it runs with `--automation` on a display of its own, an Xvfb started for the test. Without
WebKitWebDriver, the MiniBrowser or Xvfb (a machine where tests/run.sh could not install
webkit2gtk-driver and xvfb) the test is skipped.
"""
from __future__ import annotations

import glob
import json
import os
import re
import select
import shutil
import socket
import subprocess
import time
import urllib.request

import pytest

from briscola import bridge
from pagekit import shot_webdriver, PLAYING, PROGRESS_JS, SETTLED, STORED_SAVE_JS

pytestmark = [pytest.mark.browser, pytest.mark.webkit]

WIDTH, HEIGHT = 1280, 800
MINIBROWSERS = ("/usr/lib/*/webkit2gtk-4.1/MiniBrowser", "/usr/lib/*/webkitgtk-6.0/MiniBrowser",
                "/usr/lib/*/webkit2gtk-4.0/MiniBrowser", "/usr/libexec/webkit2gtk-4.*/MiniBrowser")
# The first visit ends once a service worker controls the page: its cache then holds the build.
CONTROLLED_JS = "return navigator.serviceWorker && navigator.serviceWorker.controller !== null"
# Installed in each loaded page: what it reports as going wrong (WebDriver has no console).
WATCH_JS = """
if (!window.__watch) {
  const seen = window.__watch = [];
  const error = console.error;
  console.error = function (...args) { seen.push('console.error: ' + args.map(String).join(' ')); return error.apply(this, args); };
  addEventListener('error', (e) => seen.push('error: ' + e.message));
  addEventListener('unhandledrejection', (e) => seen.push('unhandled rejection: ' + ((e.reason && e.reason.message) || e.reason)));
  const box = document.getElementById('notice');
  const note = () => { if (!box.hidden && box.textContent) seen.push('notice: ' + box.textContent); };
  note();
  new MutationObserver(note).observe(box, {childList: true, subtree: true, attributes: true});
}
"""
# What the page may say in a notice during this run (anything else fails the test).
BENIGN_NOTICES = ("notice: Game resumed.",)


def minibrowser() -> str | None:
    named = os.environ.get("BRISCOLA_MINIBROWSER")
    if named:
        return named
    for pattern in MINIBROWSERS:
        found = sorted(glob.glob(pattern))
        if found:
            return found[0]
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_xvfb() -> tuple[subprocess.Popen, str]:
    """An X server on a display number it picks itself (-displayfd): (process, ":N")."""
    read, write = os.pipe()
    proc = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", f"{WIDTH}x{HEIGHT + 100}x24",
                             "-nolisten", "tcp"], pass_fds=[write], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    os.close(write)
    number = b""
    end = time.monotonic() + 30
    while not number.endswith(b"\n"):
        if not select.select([read], [], [], max(0.0, end - time.monotonic()))[0]:
            break  # nothing said in time
        chunk = os.read(read, 16)
        if not chunk:
            break  # it exited
        number += chunk
    os.close(read)
    if not number.strip().isdigit():
        proc.kill()
        proc.wait()
        pytest.fail("Xvfb did not start")
    return proc, ":" + number.decode().strip()


def start_driver(display: str) -> tuple[subprocess.Popen, str]:
    """WebKitWebDriver on a free port of 127.0.0.1, answering: (process, its URL)."""
    for _ in range(5):
        port = free_port()
        proc = subprocess.Popen(["WebKitWebDriver", f"--port={port}"], env={**os.environ, "DISPLAY": display},
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        url = f"http://127.0.0.1:{port}"
        end = time.monotonic() + 20
        while proc.poll() is None and time.monotonic() < end:
            try:
                with urllib.request.urlopen(url + "/status", timeout=2) as reply:
                    if json.load(reply)["value"]["ready"]:
                        return proc, url
            except OSError:
                time.sleep(0.1)
        stop(proc)  # the port was taken meanwhile, or it did not start: another port
    pytest.fail("WebKitWebDriver did not start")


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture(scope="module")
def webkit():
    """A Selenium session on WebKitGTK's MiniBrowser, its window (outside) WIDTH x HEIGHT."""
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.common.options import ArgOptions
    from selenium.webdriver.remote.client_config import ClientConfig
    from selenium.webdriver.remote.remote_connection import RemoteConnection
    missing = [name for name in ("WebKitWebDriver", "Xvfb") if not shutil.which(name)]
    binary = minibrowser()
    if not binary:
        missing.append("WebKitGTK's MiniBrowser")
    if missing:
        pytest.skip(f"{' and '.join(missing)} not installed (Debian: apt-get install webkit2gtk-driver xvfb)")
    xvfb, display = start_xvfb()
    driver_proc = None
    try:
        driver_proc, url = start_driver(display)
        options = ArgOptions()
        options.set_capability("browserName", "MiniBrowser")
        options.set_capability("webkitgtk:browserOptions", {"binary": binary, "args": ["--automation"]})
        # A browser that does not start leaves the new session unanswered: the client gives up.
        connection = RemoteConnection(client_config=ClientConfig(remote_server_addr=url, timeout=120))
        driver = webdriver.Remote(command_executor=connection, options=options)
        try:
            driver.set_window_size(WIDTH, HEIGHT)
            yield driver
        finally:
            driver.quit()
    finally:
        if driver_proc:
            stop(driver_proc)
        stop(xvfb)


# ---- the page through WebDriver (pagekit.py's helpers, by script) ------------------------------

def until(driver, script: str, *args, timeout: float = 60.0, what: str = ""):
    """Poll `script` (a function body: `return ...`) until it returns something truthy; that."""
    end = time.monotonic() + timeout
    while True:
        value = driver.execute_script(script, *args)
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"timed out ({timeout:.0f} s) waiting for {what or script}")
        time.sleep(0.1)


def run_async(driver, function: str, *args):
    """The value of an async JavaScript function (text) called with `args`."""
    return driver.execute_async_script(
        f"const done = arguments[arguments.length - 1]; ({function})(...Array.from(arguments).slice(0, -1))"
        ".then(done, (e) => done({failed: String(e)}));", *args)


def ui(driver) -> str:
    return driver.execute_script("return document.documentElement.dataset.ui")


def wait_ui(driver, states=SETTLED, timeout: float = 120.0) -> str:
    until(driver, "return arguments[0].includes(document.documentElement.dataset.ui)", list(states),
          timeout=timeout, what=f"the page's mode in {states}")
    state = ui(driver)
    assert state != "error", "the page reports: " + text(driver, "#notice")
    return state


def text(driver, selector: str) -> str:
    return driver.execute_script("const e = document.querySelector(arguments[0]); return e ? e.textContent : ''",
                                 selector)


def find(driver, selector: str):
    from selenium.webdriver.common.by import By
    return driver.find_element(By.CSS_SELECTOR, selector)


def click(driver, selector: str) -> None:
    """Click the first element of `selector` as a person does: scrolled to the middle of its
    box first (WebDriver scrolls it only to the box's bottom edge, under a sticky footer)."""
    element = find(driver, selector)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'nearest'})", element)
    element.click()


def count(driver, selector: str) -> int:
    return driver.execute_script("return document.querySelectorAll(arguments[0]).length", selector)


def watch(driver) -> None:
    driver.execute_script(WATCH_JS)


def troubles(driver) -> list[str]:
    """What went wrong since watch() on this page: console errors, uncaught errors, notices
    other than BENIGN_NOTICES (one still shown when it was called too); and now: the loading
    screen's error box, the error mode."""
    seen = [s for s in driver.execute_script("return window.__watch || []") if s not in BENIGN_NOTICES]
    if driver.execute_script("const b = document.getElementById('load-retry-box'); return !!b && !b.hidden"):
        seen.append("loading failed: " + text(driver, "#load-error-msg"))
    if ui(driver) == "error":
        seen.append("error mode: " + text(driver, "#notice"))
    return seen


def act_and_wait(driver, do, timeout: float = 60.0) -> None:
    """Do a game action, then wait until the engine has taken it and the page has settled."""
    before = driver.execute_script(f"return {PROGRESS_JS}")
    do()
    until(driver, "const ui = document.documentElement.dataset.ui;"
          f" return ui === 'error' || (arguments[1].includes(ui) && ({PROGRESS_JS}) !== arguments[0]);",
          before, list(SETTLED), timeout=timeout, what="the engine's answer")


def new_game(driver, variant: str, seed: int, level: str) -> None:
    """The new-game panel as a person uses it (pagekit.new_game): the variant, the computer's
    level for every other seat, the seed under Advanced, Start."""
    from selenium.webdriver.support.ui import Select
    if count(driver, "#summary-dialog[open]"):
        find(driver, "#summary-dialog").send_keys("\ue00c")  # Escape
    if not count(driver, "#newgame-dialog[open]"):
        click(driver, "#btn-new")
    until(driver, "return !!document.querySelector('#newgame-dialog[open]')", what="the new-game panel")
    Select(find(driver, "#ng-variant")).select_by_value(variant)
    for n in range(1, count(driver, "select[id^=ng-seat-]")):
        Select(find(driver, f"#ng-seat-{n}")).select_by_value(f"bot:{level}")
    if not find(driver, "#ng-seed").is_displayed():
        click(driver, "details.advanced summary")
    # (the advanced part opened and laid out: WebKitGTK under load once refused the box as not
    # interactable right after the click)
    until(driver, "const b = document.getElementById('ng-seed'); return !!b && b.getClientRects().length > 0 && !b.disabled"
          " && document.querySelector('details.advanced').open", what="the seed's box")
    seed_box = find(driver, "#ng-seed")
    seed_box.clear()
    seed_box.send_keys(str(seed))
    until(driver, "return !document.getElementById('ng-start').disabled", what="Start enabled")
    click(driver, "#ng-start")
    assert wait_ui(driver, PLAYING) == "waiting"


def shoot(driver, artifacts, name: str) -> None:
    """A screenshot (artifacts/webkit-<name>.png) once the page has drawn twice since the last
    change (taken at once, WebKitGTK's screenshot once showed the frame before the last move)."""
    run_async(driver, "() => new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => ok(true))))")
    shot_webdriver(driver, str(artifacts / f"webkit-{name}.png"))


# ---- the test ---------------------------------------------------------------------------------

def test_a_whole_deal_offline_reload_and_review_in_webkit(webkit, base_url, site_server, bot_level, artifacts):
    driver = webkit
    driver.set_script_timeout(120)
    # Fresh preferences: English, no animation, tips seen; then the site.
    driver.get(base_url + "build-manifest.json")
    driver.execute_script("localStorage.clear(); localStorage.setItem('briscola.prefs', arguments[0]);",
                          json.dumps({"speed": "instant", "lang": "en", "reasons": True, "tips": {"all": True}}))
    driver.get(base_url)
    wait_ui(driver, timeout=180)
    watch(driver)
    new_game(driver, "classic", seed=11, level=bot_level)
    assert driver.execute_script("return window.__briscola.state.view.rules.name") == "classic"
    assert driver.execute_script("return window.__briscola.state.seats.map((s) => s.level || s.kind)") == [
        "human", bot_level]

    # A whole deal, clicking the first playable card each turn.
    shot = False
    for _ in range(60):
        state = wait_ui(driver, PLAYING)
        if state == "summary":
            break
        assert state == "waiting"
        if not shot and driver.execute_script("return window.__briscola.state.view.tricks_done") >= 2:
            shoot(driver, artifacts, "middeal")
            shot = True
        cards = driver.execute_script("return window.__briscola.state.view.hand.length")
        assert count(driver, ".hand .hand-card") == cards
        act_and_wait(driver, lambda: click(driver, ".hand-card.playable"))
    else:
        pytest.fail("the deal did not end")
    assert shot

    # The result: each side's points as the engine in this process counts them from the page's
    # stored save; 120 in all.
    until(driver, "return !!document.querySelector('#summary-dialog[open] .sum-side')", what="the result")
    save = run_async(driver, STORED_SAVE_JS)
    assert isinstance(save, str) and save, save
    bridge.reset()
    expected = json.loads(bridge.call("load", json.dumps({"save": save})))["result"]["summary"]
    shown = driver.execute_script("return Array.from(document.querySelectorAll('#summary-dialog .sum-side .pts'),"
                                  " (e) => [Number(e.dataset.side), e.textContent])")
    assert len(shown) == len(expected["side_points"]) == 2
    for side, points in shown:
        assert int(re.search(r"\d+", points).group()) == expected["side_points"][side], (points, expected)
    assert sum(expected["side_points"]) == 120
    assert driver.execute_script("return window.__briscola.state.summary.side_points") == expected["side_points"]
    shoot(driver, artifacts, "result")
    assert not troubles(driver), troubles(driver)

    # Offline: once a service worker controls the page, the site goes down and the page reloads.
    until(driver, CONTROLLED_JS, timeout=180, what="a service worker controlling the page")
    refused = len(site_server.refused)
    site_server.answering = False
    try:
        driver.refresh()
        assert wait_ui(driver, timeout=180) == "summary"
        watch(driver)
        assert driver.execute_script("return window.__briscola.state.summary.side_points") == expected["side_points"]
        assert driver.execute_script("return document.documentElement.dataset.ui") == "summary"
        assert driver.execute_script(CONTROLLED_JS)
        # Only the browser's check for a newer service worker reached the (down) server: every
        # file of the page came from the service worker's cache.
        asked = site_server.refused[refused:]
        assert [path for path in asked if path != "/sw.js"] == [], asked
    finally:
        site_server.answering = True
    assert not troubles(driver), troubles(driver)

    # The review: every decision of the person's seat evaluated and labelled.
    click(driver, "#sum-review")
    until(driver, "return !!document.querySelector('#review-dialog[open] #rv-accuracy')", timeout=300,
          what="the review's accuracy")
    seat = driver.execute_script("return window.__briscola.state.seat")
    deal = driver.execute_script("return window.__briscola.state.match.deal")
    plan = run_async(driver, "(args) => window.__briscola.engine.call('review_plan', args)",
                     {"seat": seat, "deal": deal})
    assert plan["count"] == count(driver, "#review-dialog .rv-item") > 0, plan
    assert count(driver, "#review-dialog .rv-item.pending") == 0
    labels = driver.execute_script("return Array.from(document.querySelectorAll('#review-dialog .rv-row .rv-label'),"
                                   " (e) => [e.className, e.textContent])")
    assert len(labels) == plan["count"], labels
    for name, words in labels:
        assert re.search(r"label-(best|equal|good|inaccuracy|mistake|blunder)", name) and words.strip(), labels
    assert re.fullmatch(r"\d+%", text(driver, "#rv-accuracy")), text(driver, "#rv-accuracy")
    shoot(driver, artifacts, "review")
    assert not troubles(driver), troubles(driver)
