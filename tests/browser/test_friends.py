"""Playing with friends (js/friends/, docs/friends.md): one browser context per person, real
WebRTC connections on the loopback, signalled through the local relays (`npm run relays`: the
WebTorrent tracker server and a Nostr relay, both media at once) that this module starts;
nothing is mocked.

A spy (an init script wrapping RTCDataChannel's message events) keeps every message a friend's
page receives; each view in them is compared with what the engine, replaying the same deal
here in CPython, lets that seat see at that moment.
"""
from __future__ import annotations

import json
import re
import subprocess
import time
import warnings
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import quote

import pytest

from pagekit import QUIET, SETTLED, read, shot, wait_ui
from test_chiamata import call_any_card, call_other, click_action, first_card, start

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PREFS = {"speed": "instant", "lang": "en", "tips": {"all": True}, **QUIET}

# Every message the page's data channels receive, reassembled from Trystero's frames (a room
# frame: version 1, the room token's length in 2 bytes, the token; in it a 32-byte action name,
# a 2-byte nonce, a tag byte whose bit 0 marks the last chunk, a progress byte, then the
# payload), as `wire:<action>`; and each message the page opened of those sealed for its pair,
# as `m`: window.__spy = [{type, text}].
SPY = """(() => {
  const spy = window.__spy = [];
  const parts = new Map();
  const record = (event) => {
    const d = event.data;
    const raw = d instanceof ArrayBuffer ? new Uint8Array(d) : ArrayBuffer.isView(d) ? new Uint8Array(d.buffer, d.byteOffset, d.byteLength) : null;
    if (!raw || raw[0] !== 1 || raw.length < 3) return;
    const bytes = raw.subarray(3 + ((raw[1] << 8) | raw[2]));
    if (bytes.length < 36) return;
    const type = new TextDecoder().decode(bytes.subarray(0, 32)).replace(/\\0/g, "");
    const key = `${type}/${bytes[32]}/${bytes[33]}`;
    const list = parts.get(key) || [];
    list.push(bytes.slice(36));
    if (!(bytes[34] & 1)) { parts.set(key, list); return; }
    parts.delete(key);
    const all = new Uint8Array(list.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of list) { all.set(p, at); at += p.length; }
    spy.push({ type: `wire:${type}`, text: new TextDecoder().decode(all) });
  };
  // what the page opened of the messages sealed for its pair (js/friends/pairs.js: {n, m}):
  // each message inside, as the page's code heard it
  const decrypt = SubtleCrypto.prototype.decrypt;
  SubtleCrypto.prototype.decrypt = function (...args) {
    return decrypt.apply(this, args).then((plain) => {
      try {
        const inner = JSON.parse(new TextDecoder().decode(plain));
        if (inner && Number.isInteger(inner.n) && inner.m && typeof inner.m.t === "string") spy.push({ type: "m", text: JSON.stringify(inner.m) });
      } catch { /* not a pair's message */ }
      return plain;
    });
  };
  const desc = Object.getOwnPropertyDescriptor(RTCDataChannel.prototype, "onmessage");
  Object.defineProperty(RTCDataChannel.prototype, "onmessage", {
    configurable: true,
    get() { return desc.get.call(this); },
    set(fn) { desc.set.call(this, typeof fn === "function" ? function (e) { record(e); return fn.call(this, e); } : fn); },
  });
  const add = RTCDataChannel.prototype.addEventListener;
  RTCDataChannel.prototype.addEventListener = function (type, fn, opts) {
    if (type === "message") add.call(this, type, record, opts);
    return add.call(this, type, fn, opts);
  };
})();"""

# The first data-channel messages (whole ones, in one frame each; `drops` of them, 1 unless
# said) whose text matches a regular expression never reach the page: as when a channel is
# replaced while the message is on its way. window.__dropped counts those dropped.
def losing(lose_js: str) -> str:
    """A script run before the page's own: `lose_js` defines `lose(event)`, asked before every
    message listener of the page's data channels (Trystero's and the page's own); true drops
    that message for every listener, as if it never came."""
    return """(() => {
%s
  const desc = Object.getOwnPropertyDescriptor(RTCDataChannel.prototype, "onmessage");
  Object.defineProperty(RTCDataChannel.prototype, "onmessage", {
    configurable: true,
    get() { return desc.get.call(this); },
    set(fn) { desc.set.call(this, typeof fn === "function" ? function (e) { return lose(e) ? undefined : fn.call(this, e); } : fn); },
  });
  const add = RTCDataChannel.prototype.addEventListener;
  RTCDataChannel.prototype.addEventListener = function (type, fn, opts) {
    if (type !== "message" || typeof fn !== "function") return add.call(this, type, fn, opts);
    return add.call(this, type, function (e) { return lose(e) ? undefined : fn.call(this, e); }, opts);
  };
})();""" % lose_js


DROP_FIRST = losing(r"""  window.__dropped = 0;
  const marker = new RegExp(%s), most = %d;
  const lose = (event) => {
    if (window.__dropped >= most) return false;
    const d = event.data;
    const raw = d instanceof ArrayBuffer ? new Uint8Array(d) : ArrayBuffer.isView(d) ? new Uint8Array(d.buffer, d.byteOffset, d.byteLength) : null;
    if (!raw || !marker.test(new TextDecoder().decode(raw))) return false;
    window.__dropped += 1;
    return true;
  };
  // a message sealed for its pair (js/friends/pairs.js) is matched as the page opens it: its
  // opening fails, and the page never hears it, as if it never came
  const decrypt = SubtleCrypto.prototype.decrypt;
  SubtleCrypto.prototype.decrypt = function (...args) {
    return decrypt.apply(this, args).then((plain) => {
      if (window.__dropped >= most) return plain;
      let inner = null;
      try { inner = JSON.parse(new TextDecoder().decode(plain)); } catch { return plain; }
      if (!inner || !inner.m || !marker.test(JSON.stringify({ v: 3, ...inner.m }).replace(/^\{"v":3,/, "{"))) return plain;
      window.__dropped += 1;
      throw new DOMException("lost on the way", "OperationError");
    });
  };""")
PREFS_SCRIPT = ("(p => { try { if (!localStorage.getItem('briscola.prefs')) "
                "localStorage.setItem('briscola.prefs', JSON.stringify(p)); } catch {} })(%s);")

CARD = re.compile(r'"([A2-9TJHK][DCSB])"')


@contextmanager
def started(script, *args, says):
    """A relay of tools/relay/ (`script`, with `args`) while the block runs: the process and the
    first line it printed, which must start with `says`."""
    proc = subprocess.Popen(["node", f"tools/relay/{script}", "--port", "0", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline().strip()
    if not line.startswith(says):
        proc.kill()
        pytest.fail(f"{script} did not start: {line} {proc.stderr.read()}")
    try:
        yield proc, line
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:  # a socket still open keeps a server's close waiting
                proc.kill()
                proc.wait(timeout=10)


@contextmanager
def local_relay(*args, trackers_only=False):
    """The local relays (tools/relay/relays.mjs: the WebTorrent tracker and the Nostr relay,
    `args` more of its options) while the block runs: the `?relays=` value naming both, as
    `npm run relays` prints it. `trackers_only`: the tracker alone (tools/relay/relay.mjs), for
    the tests of what is mended in the tracker's medium: with a Nostr relay beside it the pages
    would also meet through the other medium, and the test would no longer show the mend."""
    if trackers_only:
        with started("relay.mjs", *args, says="relay ws://127.0.0.1:") as (_, line):
            yield line.split()[-1]
        return
    with started("relays.mjs", *args, says='{"relays":') as (_, line):
        yield json.loads(line)["relays"]


@pytest.fixture(scope="module")
def relay():
    with local_relay() as url:
        yield url


class Person:
    """One person's profile (a warm one of the test process's browser, conftest.py) and
    page; console errors collected. The scripts a person's pages run first are the person's
    (`add_init_script`), given to each page it opens (`new_page`)."""

    def __init__(self, browser, width=1280, height=800, spy=False, lang="en", drop_first=None, drops=1):
        self.context = browser.warm_profiles.take()
        self.size = {"width": width, "height": height}
        self.scripts = [PREFS_SCRIPT % json.dumps({**PREFS, "lang": lang})]
        if spy:
            self.scripts.append(SPY)
        if drop_first:
            self.scripts.append(DROP_FIRST % (json.dumps(drop_first), drops))
        self.errors: list[str] = []
        self.page = None
        self.new_page()

    def new_page(self):
        """A page of this person's (the last one opened is `page`)."""
        page = self.context.new_page()
        page.set_viewport_size(self.size)
        for script in self.scripts:
            page.add_init_script(script)
        page.set_default_timeout(60000)
        page.on("console", lambda m: self.errors.append(f"console.{m.type}: {m.text}") if m.type == "error" else None)
        page.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        self.page = page
        return page

    def add_init_script(self, script):
        """`script` runs first in this person's page from its next load, and in its later pages."""
        self.scripts.append(script)
        self.page.add_init_script(script)

    def state(self):
        return read(self.page, "() => window.__briscola && window.__briscola.state")

    def close(self):
        self.context.close()
        assert not self.errors, "console errors:\n" + "\n".join(self.errors)


@contextmanager
def closing_all(*people: Person):
    """The people's contexts, closed after the block; a console error on any page fails the test."""
    try:
        yield people
    finally:
        # what the pages said by the block's end: closing one person's pages takes a moment,
        # in which the others' go on (a refused socket retried is no error of the block's)
        errors = [e for person in people for e in person.errors]
        for person in people:
            person.context.close()
        assert not errors, "console errors:\n" + "\n".join(errors)


def invitation(host: Person, relay) -> str:
    host.page.wait_for_selector("a[data-invite]", timeout=120000)
    href = host.page.get_attribute("a[data-invite]", "href")
    assert f"relays={quote(relay, safe='')}" in href
    return href


def wait_or_reload(page, selector) -> bool:
    """Wait 90 s for `selector`; without it, reload the page once and say so (True). The
    browser's connection to the host can fail and the relays' next offers not mend it (seen
    on a loaded machine: a handshake or ICE failure): as a person would, they reload."""
    try:
        page.wait_for_selector(selector, timeout=90000)
        return False
    except Exception:
        page.reload()
        return True


def reloaded_once(page, wait, timeout: float) -> None:
    """`wait(ms)` until the page shows what it should. A page still on its loading screen after
    90 s (where it tells the person to reload; seen a few times in full runs, a page whose own
    modules never ran: docs/testing.md) is reloaded once, with a warning, and waited on again
    for `timeout` ms."""
    if timeout <= 90000:
        wait(timeout)
        return
    try:
        wait(90000)
        return
    except Exception:
        shows = page.evaluate(SHOWS_JS)
        if shows[0] != "loading":
            raise
    warnings.warn(f"a page stayed on its loading screen for 90 s ({shows!r}): reloaded once")
    page.reload()
    wait(timeout)


def named(friend: Person) -> None:
    """Wait for the invitation's name field (shown once the page's engine has started), a page
    stuck loading reloaded once (`reloaded_once`)."""
    page = friend.page
    try:
        reloaded_once(page, lambda ms: page.wait_for_selector("#friends-name", timeout=ms), 120000)
    except Exception as e:
        raise AssertionError(f"no name field on the friend's page: {page.evaluate(SHOWS_JS)!r}") from e


def join(friend: Person, href: str, seat: int, name="Bruno"):
    """The friend opens the invitation, types a name and takes seat `seat`."""
    friend.page.goto(href)
    named(friend)
    friend.page.fill("#friends-name", name)
    # the free seats show once the host's page is reached: a tracker's next announce can take
    # a while on a busy machine (seen past 60 s once in a full run)
    try:
        if wait_or_reload(friend.page, f"[data-take='{seat}']"):
            friend.page.wait_for_selector("#friends-name", timeout=120000)
            friend.page.fill("#friends-name", name)
        friend.page.click(f"[data-take='{seat}']", timeout=120000)
    except Exception as e:
        raise AssertionError(f"seat {seat} never showed free on the friend's page: {friend_page(friend)}") from e
    # a click can land while the lobby is redrawn (a new lobby from the host) and miss: as a
    # person would, the friend clicks again while the seat is still free here
    taken = f"#friends-seats li[data-seat='{seat}'][data-taken='1'], #friends-status:has-text('Seated')"
    for _ in range(8):
        try:
            friend.page.wait_for_selector(taken, timeout=15000)
            return
        except Exception:
            if not friend.page.evaluate("document.getElementById('friends-dialog')?.open"):
                return  # the deal already shows
            button = friend.page.locator(f"[data-take='{seat}']")
            if button.count():
                button.click()
    raise AssertionError(f"seat {seat} was never taken: {friend_page(friend)}")


def friend_page(friend: Person) -> str:
    """What a friend's page has, for a failure's message: its status and problem, its peers,
    whether the host proved itself, the lobby's seats, the take waiting for an answer, and
    the messages received (with the spy)."""
    return repr(friend.page.evaluate(
        "(() => { const g = window.__briscola && window.__briscola.app.friends;"
        " return [document.getElementById('friends-status')?.textContent || '',"
        " document.querySelector('#friends-body .form-error')?.textContent || '',"
        " g && g.conn ? g.conn.peers().length : null, !!(g && g.hostId), g ? g.lobbySeats.length : null,"
        " g ? JSON.stringify(g.taking) : null, (window.__spy || []).map((m) => m.text.slice(0, 40))]; })()"))


DEALT_JS = "() => window.__briscola && window.__briscola.state && !document.getElementById('friends-dialog')?.open"
# What a page shows, for a failure's message: its mode, whether it has a state, the friends'
# status line, the loading screen's stage, its bar (how far the engine's worker said it got:
# 0.05 Pyodide's scripts loaded, 0.6 its file system made, 0.85 Python started afresh, 0.95 the
# engine imported; js/worker.js) and the start's marks so far (`mark`, js/start.js).
SHOWS_JS = """() => [document.documentElement.dataset.ui, !!(window.__briscola && window.__briscola.state),
  document.getElementById('friends-status')?.textContent || '', document.getElementById('load-stage')?.textContent || '',
  document.getElementById('load-progress')?.value ?? null,
  performance.getEntriesByType('mark').map((m) => m.name.replace('briscola:', '')).join(', ')]"""


def dealt(*people, timeout=180000):
    """Every page shows the deal. Five pages on two busy cores can take a while; when one does
    not, the message says what each page shows. A page stuck loading is reloaded once
    (`reloaded_once`)."""
    try:
        for person in people:
            page = person.page
            reloaded_once(page, lambda ms: page.wait_for_function(DEALT_JS, timeout=ms), timeout)
    except Exception as e:
        raise AssertionError("the deal did not show on every page: "
                             + " / ".join(repr(p.page.evaluate(SHOWS_JS)) for p in people)) from e


def host_table(host: Person, base_url, relay, variant="classic", seed=7, lang="en", extra="") -> str:
    """The host opens a table for friends (?friends=1, the local relay, no STUN; `extra` more of
    the query). The invitation link."""
    if "fair=" not in extra:  # (a table that deals fairly is the default: these tests say when they want one)
        extra += "&fair=0"
    host.page.goto(f"{base_url}?friends=1&variant={variant}&seed={seed}&lang={lang}&relays={relay}&stun={extra}")
    return invitation(host, relay)


def open_table(host: Person, friend: Person, base_url, relay, variant="classic", seed=7, lang="en"):
    """The host opens a table for friends; the friend takes the free seat; the deal starts by
    itself. The invitation link."""
    href = host_table(host, base_url, relay, variant, seed, lang)
    join(friend, href, 1)
    dealt(host, friend)
    return href


# A page's state in one small answer (polled: the whole state each time cost the pages and the
# driver a serialisation of every event): [the page's ui, whether it waits for its own seat].
TURN_JS = """() => { const ui = document.documentElement.dataset.ui, st = window.__briscola && window.__briscola.state;
  return [ui, ui === "waiting" && !!st && st.view.turn === st.seat]; }"""


def whose_turn(people):
    """The person whose turn it is and whose page waits for them, or None."""
    return next((p for p in people if p.page.evaluate(TURN_JS)[1]), None)


def play_one(people, timeout=60.0, decide=None):
    """Wait until someone's page waits for them; they click their first playable card (or
    what `decide(view)` chooses, with the page's own controls)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        seen = [(p, *p.page.evaluate(TURN_JS)) for p in people]
        if all(ui in ("summary", "over") for _, ui, _ in seen):
            return False
        p = next((p for p, _, mine in seen if mine), None)
        if p:
            if decide:
                view = p.state()["view"]
                n = len(view["events"])
                click_action(p.page, view, decide(view))
            else:
                n = p.page.evaluate("window.__briscola.state.view.events.length")
                p.page.locator(".hand-card.playable").first.click()
            p.page.wait_for_function("n => window.__briscola.state.view.events.length > n", arg=n)
            return True
        time.sleep(0.05)
    raise TimeoutError("nobody's turn came: " + " / ".join(p.page.evaluate("document.documentElement.dataset.ui") for p in people))


def received(friend: Person):
    """Every message the friend's page received from the host, as it opened them."""
    return [json.loads(m["text"]) for m in friend.page.evaluate("window.__spy") if m["type"] == "m"]


def on_the_wire(friend: Person):
    """Every message the friend's page received on its data channels, as it came."""
    return [json.loads(m["text"]) for m in friend.page.evaluate("window.__spy") if m["type"] == "wire:m"]


def received_views(friend: Person):
    """Every table state the friend's page received: views pushed, answers to its plays, and a
    finished deal's replay steps (its review)."""
    out = []
    for msg in received(friend):
        state = msg.get("state") if msg.get("t") == "view" else msg.get("result") if msg.get("t") == "res" else None
        if isinstance(state, dict) and "view" in state:
            out.append(state)
    return out


# The events that are a seat's action (js/review.js ACTION_EVENTS): their count in a view is
# the number of actions the deal had when it was made.
ACTION_EVENTS = {"play", "exchange", "signal", "pass", "carichi", "bid", "call"}


def seen_by(host: Person, deal: int, step: int, seat: int):
    """The host engine's own view for `seat` after `step` actions of `deal`."""
    return read(host.page, "(a) => window.__briscola.engine.call('replay', a)", {"deal": deal, "step": step, "seat": seat})["view"]


def assert_no_leak(host: Person, views, seat):
    """Each view the friend at `seat` received shows no card that seat may not see at that
    moment: the cards it names are among those of the host engine's own view for that seat
    after as many actions (the deal replayed by the host's worker, once it is over)."""
    assert views
    truth = {}
    for st in views:
        if "steps" in st:  # a replay step of a finished deal, for the friend's own seat
            assert set(st) == {"deal", "step", "steps", "view"}, set(st)
            deal = st["deal"]
        else:
            assert set(st) <= {"seat", "view", "seats", "match", "card_points", "order", "summary", "round", "record"}, set(st)
            assert st["seat"] == seat
            deal = st["match"]["deal"]
            # a deal's record (every card of it) travels once that deal is over, never before
            if "record" in st:
                assert st["view"]["phase"] == "over" and st["record"]["deal"] == deal, "a record before the deal was over"
                assert "seed" not in json.dumps(st["record"])
        v = st["view"]
        k = sum(1 for e in v["events"] if e["type"] in ACTION_EVENTS)
        true = truth.setdefault((deal, k), seen_by(host, deal, k, seat))
        seen = set(CARD.findall(json.dumps(v)))
        allowed = set(CARD.findall(json.dumps(true)))
        assert seen <= allowed, f"after {k} actions the friend at seat {seat} was sent {sorted(seen - allowed)}"
        assert sorted(v["hand"]) == sorted(true["hand"])


def test_two_people_play_a_whole_classic_deal(rtc_browser, base_url, relay, artifacts):
    with closing_all(Person(rtc_browser), Person(rtc_browser, 390, 844, spy=True)) as (host, friend):
        open_table(host, friend, base_url, relay, seed=7)
        assert friend.state()["seat"] == 1 and host.state()["seat"] == 0
        # the invitation's page asked for the friends layer and its library with its own modules
        # (js/start.js); the host's page, opened without one, only once it opened the table
        preloaded = "() => [...document.querySelectorAll('link[rel=modulepreload]')].map((l) => l.getAttribute('href'))"
        assert {"js/friends/index.js", "js/friends/vendor.js", "js/table.js"} <= set(friend.page.evaluate(preloaded))
        assert "js/friends/vendor.js" not in host.page.evaluate(preloaded)
        # each sees its own hand only: the other's is not in its state
        assert friend.state()["view"]["hand"] != host.state()["view"]["hand"]
        assert friend.page.locator("#friends-bar [data-state=on]").count() == 2
        # the host's seat on the friend's table carries the dot; on the phone the line is read out only
        friend.page.wait_for_selector("#app-main .seat[data-seat='0'][data-link='on']")
        assert host.page.locator("#app-main .seat[data-seat='1'][data-link='on']").count() == 1
        box = friend.page.locator("#friends-bar li[data-seat='0']").bounding_box()
        assert box["width"] <= 1 and box["height"] <= 1
        shot(friend.page, str(artifacts / "friends-phone-en.png"))
        shot(host.page, str(artifacts / "friends-host-en.png"))
        # every request the host's worker is asked during the deal
        host.page.evaluate("""() => { const post = Worker.prototype.postMessage; window.__dealAsked = [];
          Worker.prototype.postMessage = function (m, ...rest) {
            if (m && typeof m.type === "string") window.__dealAsked.push(m.type);
            return post.call(this, m, ...rest); }; }""")
        steps, hinted = 0, False
        while True:
            if not hinted and friend.state()["view"]["legal"]:
                # a hint at the friend's seat: its own engine, from the view the host sent
                friend.page.click(".actions .hint-btn")
                friend.page.wait_for_function("() => document.querySelector('.hint-line').textContent.startsWith('Hint:')")
                card = friend.page.locator(".hand-card.hinted").get_attribute("data-code")
                assert card in friend.state()["view"]["legal"]
                hinted = True
            if not play_one([host, friend]):
                break
            steps += 1
            assert "views" not in host.state()  # the friends' views never stay on the host's table
            if steps == 6:
                shot(friend.page, str(artifacts / "friends-phone-mid-en.png"))
        assert steps == 40 and hinted
        # on the wire, only the host's proof travelled unsealed (js/friends/pairs.js)
        wire = on_the_wire(friend)
        assert wire and {m["t"] for m in wire} == {"host", "sealed"}, {m["t"] for m in wire}
        # one worker call a card, the host's or the friend's: each page's view came with the
        # play's reply (`views`); a view asked again (a sync after 15 s without one) at most twice
        during = host.page.evaluate("window.__dealAsked")
        assert during.count("act") == 40 and during.count("state") <= 2, during
        # nothing of it asked the host (whose referee would have refused it)
        assert "friends_not_offered" not in json.dumps(received(friend))
        for p in (host, friend):
            assert wait_ui(p.page, SETTLED) in ("summary", "over")
            p.page.wait_for_selector("#summary-dialog[open]")
        shot(friend.page, str(artifacts / "friends-phone-summary-en.png"))
        final = host.state()
        assert final["view"]["phase"] == "over"
        assert friend.state()["summary"]["side_points"] == final["summary"]["side_points"]
        plays = [e for e in final["view"]["events"] if e["type"] == "play"]
        assert len(plays) == 40
        # no undo and no duplicate at a table with friends; the review, of one's own seat
        for p in (host, friend):
            assert p.page.locator("#sum-review").count() == 1
            assert p.page.locator("#sum-duplicate").count() == 0
        # the deal's record came with the deal over (assert_no_leak: never before), no seed in it
        records = [st["record"] for st in received_views(friend) if "record" in st]
        assert records and all(r == records[0] for r in records)
        assert len(records[0]["actions"]) == 40 and "seed" not in json.dumps(records[0])
        # every request the host's worker is asked from now on
        host.page.evaluate("""() => { const post = Worker.prototype.postMessage; window.__asked = [];
          Worker.prototype.postMessage = function (m, ...rest) {
            if (m && typeof m.type === "string") window.__asked.push(m.type);
            return post.call(this, m, ...rest); }; }""")
        friend.page.click("#sum-review")
        friend.page.wait_for_selector("#review-dialog[open] #rv-accuracy", timeout=180000)
        assert friend.page.eval_on_selector_all("#rv-seat option", "os => os.map(o => o.value)") == ["1"]
        shot(friend.page, str(artifacts / "friends-phone-review-en.png"))
        mine = [e["card"] for e in plays if e["seat"] == 1]
        # the friend's own engine reviewed its seat (asked again: kept there, answered at once)
        ask = "([t, a]) => window.__briscola.app.engine.call(t, a)"
        plan = friend.page.evaluate(ask, ["review_plan", {"deal": 0}])
        assert plan["seat"] == 1 and plan["deal"] == 0
        decisions = plan["decisions"]
        assert decisions and all(d["action"] in mine for d in decisions)
        assert friend.page.locator(".rv-list li").count() == len(decisions)
        judged = [friend.page.evaluate(ask, ["review_decision", {"deal": 0, "index": d["index"]}]) for d in decisions]
        # a mistake tried again: the friend's engine answers
        wrong = [i for i, r in enumerate(judged) if r["label"] in ("inaccuracy", "mistake", "blunder")]
        assert wrong
        best = judged[wrong[0]]["best"]
        row = friend.page.locator(f"#review-dialog li[data-i='{wrong[0]}']")
        row.locator(".rv-retry-btn").click()
        row.locator(f".rv-retry-hand button[data-card='{best}']").click()
        row.locator(".rv-retry-found").wait_for()
        # the host's worker was asked no review, and a forged one is refused by its referee
        asked = host.page.evaluate("window.__asked")
        assert not {"review_plan", "review_decision", "review_summary", "review_retry", "replay"} & set(asked), asked
        send = "m => window.__briscola.app.friends.send(m)"
        friend.page.evaluate(send, {"t": "req", "id": 9101, "type": "review_plan", "args": {"deal": 0, "seat": 0}})
        friend.page.evaluate(send, {"t": "req", "id": 9102, "type": "replay", "args": {"deal": 0, "step": 0}})
        friend.page.wait_for_function("() => [9101, 9102].every(id => window.__spy.some(m => m.text.includes(`\"id\":${id}`)))")
        answers = {a["id"]: a for a in received(friend) if a.get("t") == "res"}
        assert answers[9101]["error"]["code"] == answers[9102]["error"]["code"] == "friends_not_offered"
        assert not {"review_plan", "replay"} & set(host.page.evaluate("window.__asked"))
        # each decision judged names only cards the seat saw there (its hand, the table), as the
        # host engine's replay shows it
        for r in judged:
            named = set(CARD.findall(json.dumps([r["action"], r["best"], r["values"]])))
            assert named <= set(CARD.findall(json.dumps(seen_by(host, 0, r["step"], 1)))), r
        # the friend's review is the host engine's own for that seat, decision for decision
        hosts = "([t, a]) => window.__briscola.engine.call(t, a)"
        assert host.page.evaluate(hosts, ["review_plan", {"deal": 0, "seat": 1}]) == plan
        for i in (0, wrong[0]):
            assert host.page.evaluate(hosts, ["review_decision", {"deal": 0, "seat": 1, "index": decisions[i]["index"]}]) == judged[i]
        assert_no_leak(host, received_views(friend), 1)
        # the host's review is the host's own seat's
        friend.page.click("#rv-close")
        host.page.click("#sum-review")
        host.page.wait_for_selector("#review-dialog[open] #rv-accuracy", timeout=180000)
        assert host.page.eval_on_selector_all("#rv-seat option", "os => os.map(o => o.value)") == ["0"]
        shot(host.page, str(artifacts / "friends-host-review-en.png"))
        host.page.click("#rv-close")


def test_forged_actions_are_refused_and_the_deal_goes_on(rtc_browser, base_url, relay, artifacts):
    with closing_all(Person(rtc_browser, lang="it"), Person(rtc_browser, 1280, 800, spy=True, lang="it")) as (host, friend):
        open_table(host, friend, base_url, relay, seed=12, lang="it")
        shot(friend.page, str(artifacts / "friends-desktop-it.png"))
        # the friend's page sends what a tampered page could: requests it should not
        host_hand = host.state()["view"]["hand"]
        mine = friend.state()["view"]["hand"]
        known = set(host_hand) | set(mine) | {friend.state()["view"]["trump_card"]}
        unseen = next(c for c in ("AD", "3D", "AC", "3C", "AS", "3S", "AB", "3B", "KD", "KC") if c not in known)
        send = "m => window.__briscola.app.friends.send(m)"
        before = host.state()["view"]["events"]
        forged = [
            ({"t": "req", "id": 9001, "type": "act", "args": {"action": host_hand[0]}}, 9001),  # another seat's card
            ({"t": "req", "id": 9002, "type": "act", "args": {"action": unseen}}, 9002),  # not in the hand
            ({"t": "req", "id": 9003, "type": "act", "args": {"action": 7}}, 9003),  # malformed
            ({"t": "req", "id": 9004, "type": "undo", "args": {}}, 9004),  # not offered
            ({"t": "req", "id": 9005, "type": "state", "args": {"seat": 0}}, 9005),  # another seat's view: its own instead
            ({"t": "req", "id": 9007, "type": "review_plan", "args": {"deal": 0}}, 9007),  # a review: the friend's own
            ({"t": "req", "id": 9008, "type": "replay", "args": {"deal": 0, "step": 0}}, 9008),
            ({"t": "take", "seat": 0, "name": "x", "token": "A" * 20}, None),  # the host's seat
            ({"t": "req", "id": 9006, "type": "act", "args": {"action": "AD", "pad": "x" * 9000}}, None),  # oversized
            ({"t": "nonsense"}, None),
            ({"t": "hello", "name": "x", "token": "C" * 24, "build": "another"}, None),  # another build's page
        ]
        for msg, _ in forged:
            friend.page.evaluate(send, msg)
        end = time.monotonic() + 30
        while True:
            answers = [json.loads(m["text"]) for m in friend.page.evaluate("window.__spy") if m["type"] == "m"]
            ids = {a.get("id") for a in answers if a.get("t") == "res"}
            if {9001, 9002, 9003, 9004, 9005, 9007, 9008} <= ids and sum(a.get("t") == "error" for a in answers) >= 4:
                break
            assert time.monotonic() < end, answers[-5:]
            time.sleep(0.1)
        by_id = {a["id"]: a for a in answers if a.get("t") == "res"}
        errors = [a["code"] for a in answers if a.get("t") == "error"]
        assert by_id[9001]["error"]["code"] == "illegal_action"
        assert by_id[9002]["error"]["code"] == "illegal_action"
        assert by_id[9003]["error"]["code"] == "friends_bad_message"
        assert by_id[9004]["error"]["code"] == "friends_bad_message"
        assert by_id[9005]["result"]["seat"] == 1 and by_id[9005]["result"]["view"]["hand"] == friend.state()["view"]["hand"]
        assert by_id[9007]["error"]["code"] == by_id[9008]["error"]["code"] == "friends_not_offered"
        assert 9006 not in by_id
        assert sorted(errors) == ["friends_bad_message", "friends_build", "friends_no_seat", "friends_too_big"]
        # told, in the person's language, with the way out
        friend.page.wait_for_function("() => /ricarica/.test(document.getElementById('notice').textContent)")
        # nothing changed, and the deal goes on
        assert host.state()["view"]["events"] == before
        steps = 0
        while steps < 6 and play_one([host, friend]):
            steps += 1
        # a replayed play (the friend's last card played, sent again) is refused too
        played = [e["card"] for e in host.state()["view"]["events"] if e["type"] == "play" and e["seat"] == 1]
        friend.page.evaluate(send, {"t": "req", "id": 9010, "type": "act", "args": {"action": played[-1]}})
        friend.page.wait_for_function("() => window.__spy.some(m => m.text.includes('\"id\":9010'))")
        replay = [json.loads(m["text"]) for m in friend.page.evaluate("window.__spy") if '"id":9010' in m["text"]][0]
        assert replay["error"]["code"] == "illegal_action"
        while play_one([host, friend]):
            steps += 1
        assert steps == 40
        friend.page.wait_for_selector("#summary-dialog[open]")
        friend.page.click("#sum-review")
        friend.page.wait_for_selector("#review-dialog[open] #rv-accuracy", timeout=180000)
        shot(friend.page, str(artifacts / "friends-desktop-review-it.png"))
        assert_no_leak(host, received_views(friend), 1)


def test_four_players_two_people_two_computers_from_the_new_game_panel(rtc_browser, base_url, relay, artifacts, bot_level):
    with closing_all(Person(rtc_browser), Person(rtc_browser, 390, 844, spy=True)) as (host, friend):
        host.page.goto(f"{base_url}?relays={relay}&stun=")
        wait_ui(host.page, SETTLED)
        host.page.click("#btn-new")
        host.page.wait_for_selector("#newgame-dialog[open]")
        host.page.select_option("#ng-variant", "four")
        for n, choice in ((1, f"bot:{bot_level}"), (2, "friend"), (3, f"bot:{bot_level}")):
            host.page.select_option(f"#ng-seat-{n}", choice)
        host.page.click("details.advanced summary")
        host.page.fill("#ng-seed", "5")
        host.page.wait_for_function("() => !document.getElementById('ng-start').disabled")
        host.page.click("#ng-start")
        href = invitation(host, relay)
        shot(host.page, str(artifacts / "friends-lobby-en.png"))
        assert host.page.locator("#friends-start").is_disabled()
        # "Deal fairly" is checked unless the host says otherwise; this table deals as before
        assert host.page.locator("#friends-fair").is_checked()
        host.page.click("label[for=friends-fair]")
        assert not host.page.locator("#friends-fair").is_checked()
        join(friend, href, 2, name="Carla")
        host.page.wait_for_function("() => !document.getElementById('friends-start').disabled")
        host.page.click("#friends-start")
        dealt(host, friend)
        assert friend.state()["seat"] == 2
        assert [s["kind"] for s in host.state()["seats"]] == ["human", "bot", "friend", "bot"]
        assert [s["kind"] for s in friend.state()["seats"]] == ["friend", "bot", "human", "bot"]
        # the friend is Carla, as is the list's computer at seat 2: that computer takes the next name
        for p in (host, friend):
            names = p.page.evaluate("window.__briscola.app.names()")
            assert names[2] == "Carla" and names.count("Carla") == 1 and len({n.lower() for n in names}) == 4, names
        steps = 0
        while play_one([host, friend], timeout=120):
            steps += 1
            if steps == 3:
                shot(friend.page, str(artifacts / "friends-phone-four-mid-en.png"))
        assert steps == 20  # each person's 10 cards; the computers played theirs
        for p in (host, friend):
            p.page.wait_for_selector("#summary-dialog[open]")
        shot(friend.page, str(artifacts / "friends-phone-four-summary-en.png"))
        assert friend.state()["summary"]["side_points"] == host.state()["summary"]["side_points"]
        assert_no_leak(host, received_views(friend), 2)


def test_a_game_without_friends_next_shows_none_of_them(rtc_browser, base_url, relay):
    with closing_all(Person(rtc_browser, 390, 844), Person(rtc_browser)) as (host, friend):
        open_table(host, friend, base_url, relay, seed=17)
        assert play_one([host, friend]) and play_one([host, friend])
        host.page.wait_for_selector("#app-main .seat[data-seat='1'][data-link='on']")
        start(host.page, "classic", 3)  # the host's New game: against a computer
        host.page.wait_for_function("() => window.__briscola.state && window.__briscola.state.seats[1].kind === 'bot'")
        assert host.page.locator("#app-main .seat[data-link]").count() == 0
        assert host.page.locator("#friends-bar").is_hidden()
        assert host.page.evaluate("!(window.__briscola.app.friends && window.__briscola.app.friends.conn)")  # let go


def test_a_friend_opens_the_day_s_puzzle_with_its_own_engine(rtc_browser, base_url, relay):
    """The day's puzzle needs no table: at a table with friends, a friend's page asks its own
    engine for it (it was refused, friends_host_only) and the deal goes on."""
    with closing_all(Person(rtc_browser), Person(rtc_browser)) as (host, friend):
        open_table(host, friend, base_url, relay, seed=19)
        friend.page.click("#btn-stats")
        friend.page.click("#btn-puzzle")
        friend.page.wait_for_selector("#puzzle-dialog[open] .puzzle-hand button")
        friend.page.keyboard.press("Escape")
        assert play_one([host, friend])


def test_a_friend_reloads_mid_deal_and_takes_the_seat_back(rtc_browser, base_url, relay):
    with closing_all(Person(rtc_browser), Person(rtc_browser, spy=True), Person(rtc_browser)) as (host, friend, other):
        href = open_table(host, friend, base_url, relay, seed=21)
        for _ in range(5):
            play_one([host, friend])
        hand = friend.state()["view"]["hand"]
        friend.page.reload()
        dealt(friend)
        assert friend.state()["seat"] == 1
        friend.page.wait_for_function("h => JSON.stringify(window.__briscola.state.view.hand.slice().sort()) === JSON.stringify(h)",
                                      arg=sorted(hand))
        # nobody else can take the seat: the invitation shows none free, and a forged take is refused
        other.page.goto(href)
        seats_seen = "#friends-seats li[data-seat='1'][data-taken='1']"
        if wait_or_reload(other.page, seats_seen):
            other.page.wait_for_selector(seats_seen, timeout=120000)
        assert other.page.locator("[data-take]").count() == 0
        # (the seats show while the page's engine still starts: its table once it is up)
        other.page.wait_for_function("() => window.__briscola && window.__briscola.app.friends")
        other.page.evaluate("m => window.__briscola.app.friends.send(m)", {"t": "take", "seat": 1, "name": "Eve", "token": "B" * 24})
        other.page.wait_for_selector("#friends-dialog .form-error")
        steps = 5
        while play_one([host, friend]):
            steps += 1
        assert steps == 40
        assert_no_leak(host, received_views(friend), 1)


def test_a_dropped_friend_is_shown_reconnecting_a_computer_plays_then_the_friend_plays_on(rtc_browser, base_url, relay):
    with closing_all(Person(rtc_browser), Person(rtc_browser, spy=True)) as (host, friend):
        href = host_table(host, base_url, relay, seed=31, extra="&friends_timeout=2")
        join(friend, href, 1)
        dealt(host, friend)
        for _ in range(4):
            play_one([host, friend])
        # the friend's tab goes (the context keeps its storage, as a browser does)
        friend.page.close(run_before_unload=True)
        host.page.wait_for_selector("#friends-bar li[data-seat='1'][data-state='off']", timeout=60000)
        # after the host's timeout a computer plays the seat: the deal goes on without the friend
        host.page.wait_for_selector("#friends-bar li[data-seat='1'][data-state='away']", timeout=60000)
        host.page.wait_for_function("() => window.__briscola.state.seats[1].kind === 'bot'", timeout=30000)  # once at rest
        before = sum(1 for e in host.state()["view"]["events"] if e["type"] == "play" and e["seat"] == 1)
        for _ in range(4):
            play_one([host])
        after = sum(1 for e in host.state()["view"]["events"] if e["type"] == "play" and e["seat"] == 1)
        assert after > before
        # the friend comes back through the same link and takes the seat again
        friend.new_page()
        friend.page.goto(href)
        dealt(friend)
        host.page.wait_for_selector("#friends-bar li[data-seat='1'][data-state='on']", timeout=60000)
        host.page.wait_for_function("() => window.__briscola.state.seats[1].kind === 'friend'", timeout=30000)  # once at rest
        assert friend.state()["seat"] == 1
        steps = 0
        while play_one([host, friend]):
            steps += 1
        mine = [e for e in host.state()["view"]["events"] if e["type"] == "play" and e["seat"] == 1]
        assert len(mine) == 20 and steps > 0
        assert_no_leak(host, received_views(friend), 1)


def test_the_host_reloads_and_everyone_reconnects(rtc_browser, base_url, relay):
    with closing_all(Person(rtc_browser), Person(rtc_browser, spy=True)) as (host, friend):
        open_table(host, friend, base_url, relay, seed=41)
        for _ in range(5):
            play_one([host, friend])
        events = host.state()["view"]["events"]
        host.page.reload()
        # the host's page resumes its game (kept by its worker) and hosts it again, in the same
        # room with the same key; the friend's page finds it, checks it, and takes its seat back
        host.page.wait_for_function("() => window.__briscola && window.__briscola.state && window.__briscola.app.friends")
        host.page.wait_for_selector("#friends-bar li[data-seat='1'][data-state='on']", timeout=90000)
        assert host.state()["view"]["events"] == events  # nothing lost
        host.page.wait_for_selector(".undo-btn", state="hidden")  # no undo with friends, after a reload too
        steps = 5
        while play_one([host, friend]):
            steps += 1
        assert steps == 40
        for p in (host, friend):
            p.page.wait_for_selector("#summary-dialog[open]")
        assert_no_leak(host, received_views(friend), 1)


def short_auction(view):
    """Chiamata: the first to speak bids the least, everyone after passes; the call names a
    card the caller lacks; then the first playable card."""
    if view["phase"] == "auction":
        if view["chiamata"].get("high") is None:
            return next(a for a in view["legal"] if a.startswith("bid-"))
        return "pass"
    if view["phase"] == "call":
        return (call_other if view["chiamata"]["auction"] == "rank" else call_any_card)(view)
    return first_card(view)


def test_a_name_typed_before_the_seats_show_is_kept(rtc_browser, base_url, relay):
    # the host's proof is lost on the way, twice, so the seats come some seconds after the page
    # (the page asks again every 5 s): the name typed meanwhile (keys only, the field never
    # left) survives the redraw they bring
    with closing_all(Person(rtc_browser), Person(rtc_browser, drop_first='"t":"host"', drops=2)) as (host, friend):
        href = host_table(host, base_url, relay, seed=4)
        friend.page.goto(href)
        friend.page.wait_for_selector("#friends-name", timeout=120000)
        assert not friend.page.locator("[data-take]").count()
        # the settings opened and a box ticked meanwhile stay so too (they closed and lost the
        # tick at each redraw)
        friend.page.click("#friends-dialog .friends-settings summary")
        friend.page.check("#friends-relay-only")
        assert friend.page.locator("#friends-share-turn").count() == 0  # a friend has no invitation to share it in
        friend.page.locator("#friends-name").press_sequentially("Bruno")
        friend.page.wait_for_selector("[data-take='1']", timeout=120000)
        assert friend.page.evaluate("window.__dropped") == 2
        assert friend.page.input_value("#friends-name") == "Bruno"
        assert friend.page.is_visible("#friends-relay-only") and friend.page.is_checked("#friends-relay-only")
        assert friend.page.evaluate("document.activeElement && document.activeElement.id") == "friends-name"
        friend.page.click("[data-take='1']")
        dealt(host, friend)
        assert host.state()["seats"][1].get("name") == "Bruno"


@pytest.mark.parametrize("lost", ['"t":"who"', '"t":"host"', '"t":"take"', '"t":"view"'])
def test_a_message_lost_on_the_way_is_asked_for_again(rtc_browser, base_url, relay, lost):
    # the host's page never receives the friend's first question (who is the host?) or its
    # first take, or the friend's page never receives the host's proof or its first view: the
    # friend's page asks again, and the deal starts on both
    drop_host, drop_friend = (lost, None) if "who" in lost or "take" in lost else (None, lost)
    with closing_all(Person(rtc_browser, drop_first=drop_host), Person(rtc_browser, drop_first=drop_friend)) as (host, friend):
        open_table(host, friend, base_url, relay, seed=11)
        assert (host if drop_host else friend).page.evaluate("window.__dropped") == 1
        assert friend.state()["seat"] == 1 and host.state()["seat"] == 0
        assert friend.state()["view"]["hand"] != host.state()["view"]["hand"]


@pytest.mark.parametrize("lost", [
    # a view pushed after the first (one the host's play sent): after a quiet while the
    # friend's page asks for the view again
    r'"t":"view","n":([2-9]|\d\d)',
    # the host's answer to the friend's first play: after a while the page gives the request
    # up, asks for the view, and shows the card played as the host has it
    r'"t":"res","id":\d+,"n":',
], ids=["view", "answer"])
def test_a_message_lost_during_the_deal_is_not_waited_for(rtc_browser, base_url, relay, lost):
    with closing_all(Person(rtc_browser), Person(rtc_browser, drop_first=lost)) as (host, friend):
        open_table(host, friend, base_url, relay, seed=11)
        for _ in range(6):
            assert play_one([host, friend], timeout=90)
        assert friend.page.evaluate("window.__dropped") == 1
        plays = lambda p: [(e["seat"], e["card"]) for e in p.state()["view"]["events"] if e["type"] == "play"]
        assert len(plays(host)) >= 6 and plays(friend) == plays(host)


def test_chiamata_with_five_people(rtc_browser, base_url, relay, artifacts):
    with closing_all(Person(rtc_browser), *[Person(rtc_browser, 1280, 800, spy=True) for _ in range(4)]) as people:
        host, *friends = people
        href = host_table(host, base_url, relay, "chiamata", 3)
        for seat, (friend, name) in enumerate(zip(friends, ["Bruno", "Carla", "Dario", "Elena"]), start=1):
            # (the last one's take starts the deal: its dialog may close at once)
            join(friend, href, seat, name=name)
        dealt(*people)
        assert sorted(f.state()["seat"] for f in friends) == [1, 2, 3, 4]
        phases = set()
        steps = 0
        while play_one(people, timeout=120, decide=short_auction):
            steps += 1
            phases.add(host.state()["view"]["phase"])
            if steps == 12:
                shot(friends[0].page, str(artifacts / "friends-chiamata-en.png"))
        assert {"call", "play"} <= phases or {"play"} <= phases
        final = host.state()
        assert final["view"]["phase"] == "over"
        assert any(e["type"] == "call" for e in final["view"]["events"])
        assert any(e["type"] == "partner" for e in final["view"]["events"]) or len(final["view"]["sides"]) == 2
        for p in people:
            p.page.wait_for_selector("#summary-dialog[open]")
            assert p.state()["summary"]["side_points"] == final["summary"]["side_points"]
        for friend in friends:
            assert_no_leak(host, received_views(friend), friend.state()["seat"])


def test_a_visit_loads_nothing_of_playing_with_friends_until_chosen(rtc_browser, base_url, relay, dist_dir):
    # what the service worker precaches and index.html preloads leaves js/friends/ out (the worker
    # lists it only to check it when a page asks: `later`); it is named only in
    # <template id="friends-modules">, which only an invitation's page loads
    sw = (dist_dir / "sw.js").read_text(encoding="utf-8")
    precache = json.loads(sw[sw.index("const PRECACHE = ") + 17:sw.index("};", sw.index("const PRECACHE = ")) + 1])
    manifest = json.loads((dist_dir / "build-manifest.json").read_text(encoding="utf-8"))
    assert "js/friends/vendor.js" in manifest["files"] and "js/friends/host.js" in manifest["files"]
    assert not [p for p in precache["files"] if p.startswith("js/friends/")]
    assert "js/friends/vendor.js" in precache["later"]
    html = (dist_dir / "index.html").read_text(encoding="utf-8")
    inert = re.search(r'<template id="friends-modules">(.*?)</template>', html, re.S)
    assert inert and 'href="js/friends/vendor.js"' in inert.group(1)
    assert "friends/" not in html.replace(inert.group(0), "")
    with closing_all(Person(rtc_browser)) as (person,):
        page = person.page
        fetched, sockets = [], []
        page.on("request", lambda r: fetched.append(r.url))
        page.on("websocket", lambda ws: sockets.append(ws.url))
        page.goto(f"{base_url}?relays={relay}&stun=")
        wait_ui(page, SETTLED)
        page.wait_for_timeout(1500)
        assert not [u for u in fetched if "/js/friends/" in u]
        assert not sockets
        # chosen: a friend's seat in the New game panel; now the code loads and the relay is asked
        page.click("#btn-new")
        page.wait_for_selector("#newgame-dialog[open]")
        page.select_option("#ng-seat-1", "friend")
        page.wait_for_function("() => !document.getElementById('ng-start').disabled")
        page.click("#ng-start")
        invitation(person, relay)
        assert [u for u in fetched if u.endswith("/js/friends/vendor.js")]
        # both media are asked: the tracker and the Nostr relay, nothing else
        urls = [u.removeprefix("nostr:") for u in relay.split(",")]
        assert len(urls) == 2 and all(any(s.startswith(u) for s in sockets) for u in urls)
        assert all(any(s.startswith(u) for u in urls) for s in sockets)
        # the lobby says the invitation goes through public relays
        assert "public relays" in page.text_content("#friends-dialog")


def test_the_one_file_page_says_playing_with_friends_needs_the_site(rtc_browser, dist_dir):
    # briscola.html plays from disk: it has none of js/friends/ and says so (its bundle has no
    # dynamic import left: the build makes it a refusal)
    with closing_all(Person(rtc_browser)) as (person,):
        person.page.goto((dist_dir / "briscola.html").as_uri() + "?friends=1&variant=classic")
        person.page.wait_for_function("() => /one-file page/.test(document.getElementById('notice').textContent)", timeout=120000)
        assert not person.page.locator("#friends-dialog").count()


# Two connections on one page, joined on the loopback; then the far one closes, as a reloaded
# page's does: the near one is disconnected after about 5 s and has failed after about 15.
CONNECTION_FAILS = """async () => {
  const net = await import("./js/friends/net.js");
  const Mended = net.mendedPeerConnection();
  const near = new Mended(), far = new RTCPeerConnection();
  const states = [];
  near.addEventListener("connectionstatechange", () => states.push(near.connectionState));
  near.onicecandidate = (e) => e.candidate && far.addIceCandidate(e.candidate);
  far.onicecandidate = (e) => e.candidate && near.addIceCandidate(e.candidate);
  near.createDataChannel("m");
  await near.setLocalDescription(); await far.setRemoteDescription(near.localDescription);
  await far.setLocalDescription(); await near.setRemoteDescription(far.localDescription);
  for (let i = 0; i < 100 && near.connectionState !== "connected"; i++) await new Promise((r) => setTimeout(r, 100));
  states.push("far closed");
  far.close();
  for (let i = 0; i < 300 && near.connectionState !== "closed"; i++) await new Promise((r) => setTimeout(r, 100));
  return states;
}"""


# Trystero's way of making an unanswered offer again: a rollback, an ICE restart, a new offer.
OFFER_MADE_AGAIN = """async () => {
  const net = await import("./js/friends/net.js");
  const pc = new (net.mendedPeerConnection())();
  pc.createDataChannel("m");
  await pc.setLocalDescription();
  const gathered = () => new Promise((r) => {
    const done = () => pc.iceGatheringState === "complete" && r(true);
    pc.addEventListener("icegatheringstatechange", done); done(); setTimeout(() => r(false), 10000);
  });
  const first = [await gathered(), /m=application/.test(pc.localDescription.sdp)];
  if (pc.signalingState !== "stable") await pc.setLocalDescription({ type: "rollback" });
  pc.restartIce();
  await pc.setLocalDescription(await pc.createOffer({ iceRestart: true }));
  const again = [await gathered(), /m=application/.test(pc.localDescription.sdp)];
  pc.close();
  return [first, again];
}"""


def test_an_offer_made_again_can_still_connect(rtc_browser, base_url):
    # In Chromium the rollback dropped the data channel's section: the offer made again had
    # nothing to connect and never gathered an address (a friend's page that got it stayed
    # "Connecting"; after ten quick reloads most of the host's offers were such)
    with closing_all(Person(rtc_browser)) as (person,):
        person.page.goto(f"{base_url}?lang=en")
        first, again = person.page.evaluate(OFFER_MADE_AGAIN)
        assert first == [True, True]
        assert again == [True, True], "the offer made again has no data channel or no address"


# Mend 4: with a TURN server, an offer Trystero makes ahead (20 a medium, each page) takes its
# allocation only once it is asked for (its localDescription read, to be sent), or made again.
OFFER_HELD = """async () => {
  const net = await import("./js/friends/net.js");
  const Mended = net.mendedPeerConnection();
  const turn = { iceServers: [{ urls: "turn:127.0.0.1:9", username: "u", credential: "p" }] };
  const own = Object.getOwnPropertyDescriptor(RTCPeerConnection.prototype, "localDescription").get;
  const pause = (ms) => new Promise((r) => setTimeout(r, ms));
  const out = {};
  // held until asked for
  let pc = new Mended(turn);
  pc.createDataChannel("data");
  let made = false;
  const setting = pc.setLocalDescription().then(() => { made = true; });
  await pause(300);
  out.held = [made, own.call(pc) === null, pc.iceGatheringState];
  const read = pc.localDescription; // Trystero's getOffer: the offer is made now
  await setting;
  for (let i = 0; i < 50 && pc.iceGatheringState === "new"; i++) await pause(100);
  out.asked = [read === null, /m=application/.test(pc.localDescription.sdp), pc.iceGatheringState !== "new"];
  pc.close();
  // made again with an ICE restart before it was asked for: the held one is let go, one offer
  pc = new Mended(turn);
  pc.createDataChannel("data");
  made = false;
  const first = pc.setLocalDescription().then(() => { made = true; });
  pc.restartIce();
  await pc.setLocalDescription(await pc.createOffer({ iceRestart: true }));
  await first;
  out.again = [made, pc.signalingState, /m=application/.test(own.call(pc).sdp)];
  pc.close();
  // without a TURN server, and an answering connection (no channel of its own): made at once
  for (const [name, config, channel] of [["plain", {}, true], ["answering", turn, false]]) {
    pc = new Mended(config);
    if (channel) pc.createDataChannel("data");
    else pc.addTransceiver("audio");
    await pc.setLocalDescription();
    out[name] = own.call(pc) !== null;
    pc.close();
  }
  return out;
}"""


def test_an_offer_made_ahead_takes_a_turn_allocation_only_once_sent(rtc_browser, base_url):
    # A TURN server given, each of the offers Trystero makes ahead gathered at once, and each
    # took an allocation: a table of two took 82 (tests/browser/test_friends_connect.py prints
    # the count; docs/friends.md, "Connecting through TURN")
    with closing_all(Person(rtc_browser)) as (person,):
        person.page.goto(f"{base_url}?lang=en")
        out = person.page.evaluate(OFFER_HELD)
        assert out["held"] == [False, True, "new"], out  # nothing gathered yet
        assert out["asked"] == [True, True, True], out
        assert out["again"] == [True, "have-local-offer", True], out
        assert out["plain"] is True and out["answering"] is True, out


def test_a_connection_that_failed_is_closed(rtc_browser, base_url):
    # Trystero lets go of a failed connection without closing it: each reload of a friend's
    # page left one open on the host's page (bench/friends.py --reloads). The page's
    # connections close themselves once failed.
    with closing_all(Person(rtc_browser)) as (person,):
        person.page.goto(f"{base_url}?lang=en")
        states = person.page.evaluate(CONNECTION_FAILS)
        assert states[:3] == ["connecting", "connected", "far closed"], states
        # its failure closed it (read as "closed" by a listener after the one that closed it)
        assert states[3:] == ["disconnected", "closed"], states


def test_a_readiness_lost_on_the_way_still_joins(rtc_browser, base_url):
    # Once connected, both pages say they are ready (Trystero's "@_hsready"). The friend's page
    # never gets the host's word: the host's page has joined the friend and never says it
    # again, and the friend's gives up its handshake after 10 s but keeps the connection, so
    # it stayed at "Connecting" (about one quick reload in 50, bench/friends.py --reloads).
    # The page closes a connection the room has not taken after 15 s; the friend's page, still
    # without the host, passes its offers on again every 10 s rather than at its next announce,
    # which this relay asks every 2 minutes (the reference tracker server's default).
    with local_relay("--announce", "120", trackers_only=True) as relay, \
            closing_all(Person(rtc_browser), Person(rtc_browser, drop_first="@_hsready")) as (host, friend):
        href = host_table(host, base_url, relay, seed=4)
        friend.page.goto(href)
        # no reload here: without the mends the seats never show in this time
        friend.page.wait_for_selector("[data-take='1']", timeout=75000)
        assert friend.page.evaluate("window.__dropped") == 1
        friend.page.fill("#friends-name", "Bruno")
        friend.page.click("[data-take='1']")
        dealt(host, friend)
        assert host.state()["seats"][1].get("name") == "Bruno"


# Every message that comes on the page's first data channel to receive one is lost (seen in
# bench/friends.py --reloads --trace: the host's first words on a new connection never reached
# the friend's channel); later channels are left alone.
LOSE_FIRST_CHANNEL = losing("""  window.__lost = 0;
  let chosen = null;
  const lose = (event) => {
    if (!chosen) chosen = event.target;
    if (event.target !== chosen) return false;
    window.__lost += 1;
    return true;
  };""")


def test_a_connection_that_hears_nothing_is_closed_before_the_handshake_gives_up(rtc_browser, base_url):
    # The friend's first connection to the host hears nothing. Before, Trystero's handshake gave
    # up after 10 s, the connection was closed 15 s after it came up and the friend's page
    # offered again 10 s after its last offers: about 21 s (bench/friends.py --reloads). Now a
    # connection that has heard nothing 5 s after it came up is closed, and the friend's page,
    # without the host, offers again at once: the handshake never times out.
    with local_relay("--announce", "120", trackers_only=True) as relay, \
            closing_all(Person(rtc_browser), Person(rtc_browser)) as (host, friend):
        warned = []
        friend.page.on("console", lambda m: warned.append(m.text) if m.type == "warning" else None)
        friend.add_init_script(LOSE_FIRST_CHANNEL)
        href = host_table(host, base_url, relay, seed=9)
        friend.page.goto(href)
        friend.page.wait_for_selector("[data-take='1']", timeout=75000)
        assert friend.page.evaluate("window.__lost") >= 1
        assert not [w for w in warned if "handshake timed out" in w], warned
        friend.page.fill("#friends-name", "Bruno")
        friend.page.click("[data-take='1']")
        dealt(host, friend)
        assert play_one([host, friend])


def test_a_connection_on_which_the_host_heard_nothing_is_made_again_at_once(rtc_browser, base_url):
    # The other way round: the host's page hears nothing on its first connection to the friend
    # and closes it (the sweep). The friend's page had heard the host's readiness and asked it
    # who it is: it sees a peer leave that never answered. Before, it offered again only at its
    # next announce without the host (10 s; here 120 s, as the relay's): the seats never showed.
    with local_relay("--announce", "120", trackers_only=True) as relay, \
            closing_all(Person(rtc_browser), Person(rtc_browser)) as (host, friend):
        host.add_init_script(LOSE_FIRST_CHANNEL)
        href = host_table(host, base_url, relay, seed=9)
        friend.page.goto(href.replace("?", "?friends_announce=120&", 1))
        friend.page.wait_for_selector("[data-take='1']", timeout=75000)
        assert host.page.evaluate("window.__lost") >= 1
        friend.page.fill("#friends-name", "Bruno")
        friend.page.click("[data-take='1']")
        dealt(host, friend)
        assert play_one([host, friend])


def peer_id(person: Person) -> str:
    """The page's id in the room (Trystero's), once its engine is up (the seats show before)."""
    person.page.wait_for_function("() => window.__briscola && window.__briscola.app.friends && window.__briscola.app.friends.conn")
    return person.page.evaluate("window.__briscola.app.friends.conn.self")


def test_a_page_that_comes_later_is_answered_at_once(rtc_browser, base_url):
    # Of two pages, only the one whose id sorts higher answers the other's offers; the other's
    # offers reach it only at the other's next announce, which this relay asks every 2 minutes
    # (as the reference tracker server does by default). Before, a friend opening the invitation or
    # reloading waited half the time, and so did friends after the host's reload. A page that
    # comes later has the lower id (js/friends/peer-id/start.mjs): the pages there answer its
    # first offers at once.
    # Each page that comes is met within 45 s, far under the relay's 2 minutes. A connection
    # whose handshake fails (seen on a loaded machine) is not mended before the next announce:
    # as a person would, the page is reloaded once, and the page that comes then is met as soon.
    def met(person, selector, then=None):
        try:
            person.page.wait_for_selector(selector, timeout=45000)
        except Exception:
            person.page.reload()
            if then:
                then()
            person.page.wait_for_selector(selector, timeout=45000)

    host_up = lambda: host.page.wait_for_function(  # noqa: E731
        "() => window.__briscola && window.__briscola.app.friends && window.__briscola.app.friends.conn")
    with local_relay("--announce", "120", trackers_only=True) as relay, closing_all(Person(rtc_browser), Person(rtc_browser)) as (host, friend):
        href = host_table(host, base_url, relay, seed=9)
        friend.page.goto(href)
        met(friend, "[data-take='1']")
        first = peer_id(friend)
        assert first < peer_id(host)
        friend.page.reload()
        met(friend, "[data-take='1']")
        assert peer_id(friend) < first
        friend.page.fill("#friends-name", "Bruno")
        friend.page.click("[data-take='1']")
        dealt(host, friend)
        play_one([host, friend])
        before = peer_id(host)
        host.page.reload()
        host_up()
        assert peer_id(host) < min(before, peer_id(friend))
        met(host, "#friends-bar li[data-seat='1'][data-state='on']", then=host_up)
        assert peer_id(host) < min(before, peer_id(friend))
        assert play_one([host, friend])


# Chromium refuses a 501st RTCPeerConnection in a tab's process (freeing earlier pages' lazily).
REFUSE_CONNECTIONS = """window.RTCPeerConnection = class {
  constructor() { throw new DOMException("Cannot create so many PeerConnections", "UnknownError"); }
};"""


def test_a_page_refused_its_connections_says_so_and_offers_the_reload(rtc_browser, base_url, relay):
    # a friend's page whose browser refuses the connections stayed at "Connecting" for good
    with closing_all(Person(rtc_browser), Person(rtc_browser)) as (host, friend):
        href = host_table(host, base_url, relay, seed=6)
        friend.add_init_script(REFUSE_CONNECTIONS)
        friend.page.goto(href)
        alert = friend.page.wait_for_selector("#friends-body .form-error[role='alert']")
        assert "could not be opened" in alert.text_content() and "Cannot create so many" in alert.text_content()
        assert friend.page.locator("#friends-body button", has_text="Reload").count() == 1
        assert friend.page.locator("#friends-status").count() == 0  # no "Connecting" beside it


# refused while the tab's sessionStorage says so (kept across reloads), or window.__refuse
REFUSE_WHILE_ASKED = """(() => {
  const Real = window.RTCPeerConnection;
  window.__refuse = sessionStorage.getItem("refuse") === "1";
  window.RTCPeerConnection = class extends Real {
    constructor(config) {
      if (window.__refuse) throw new DOMException("Cannot create so many PeerConnections", "UnknownError");
      super(config);
    }
  };
})();"""


def allow_connections(person: Person):
    person.page.evaluate("sessionStorage.removeItem('refuse'); window.__refuse = false")


def test_a_host_refused_its_connections_says_so_and_tries_again(rtc_browser, base_url, relay, artifacts):
    # the host's lobby said "Connecting" for good (a toast aside) when the room could not open
    with closing_all(Person(rtc_browser, 390, 844), Person(rtc_browser)) as (host, friend):
        host.add_init_script("sessionStorage.setItem('refuse', '1')")
        host.add_init_script(REFUSE_WHILE_ASKED)
        host.page.goto(f"{base_url}?friends=1&variant=classic&seed=8&lang=en&relays={relay}&stun=&fair=0")
        alert = host.page.wait_for_selector("#friends-body .form-error[role='alert']")
        assert "could not be opened" in alert.text_content() and "Cannot create so many" in alert.text_content()
        assert host.page.locator("#friends-body", has_text="Connecting").count() == 0
        assert host.page.locator("a[data-invite]").count() == 0
        shot(host.page, str(artifacts / "friends-host-refused-phone.png"))
        assert host.page.is_disabled("#friends-start") and host.page.is_disabled("#friends-fill")
        host.page.click("#friends-retry")  # still refused: said again
        host.page.wait_for_selector("#friends-body .form-error[role='alert']")
        allow_connections(host)
        host.page.click("#friends-retry")
        href = invitation(host, relay)
        assert host.page.locator("#friends-body .form-error").count() == 0
        join(friend, href, 1)
        dealt(host, friend)
        assert play_one([host, friend]) and play_one([host, friend])


def test_a_host_reloaded_without_its_connections_plays_on_and_tries_again(rtc_browser, base_url, relay, artifacts):
    # before, the friends' seats waited for good: their timers were set only once the room opened
    with closing_all(Person(rtc_browser, 390, 844, lang="it"), Person(rtc_browser, spy=True)) as (host, friend):
        host.add_init_script(REFUSE_WHILE_ASKED)
        href = host_table(host, base_url, relay, seed=43, lang="it", extra="&friends_timeout=2")
        join(friend, href, 1)
        dealt(host, friend)
        for _ in range(3):
            play_one([host, friend])
        events = host.state()["view"]["events"]
        host.page.evaluate("sessionStorage.setItem('refuse', '1')")
        host.page.reload()
        problem = host.page.wait_for_selector("#friends-bar li.problem[role='alert']", timeout=60000)
        assert "non possono raggiungere" in problem.text_content() and "Cannot create so many" in problem.get_attribute("title")
        assert host.state()["view"]["events"] == events  # nothing lost
        host.page.wait_for_selector(".undo-btn", state="hidden")  # no undo with friends, after a reload too
        shot(host.page, str(artifacts / "friends-host-refused-table-it.png"))
        host.page.set_viewport_size({"width": 1280, "height": 800})  # the line at the bottom left
        box = host.page.locator("#friends-bar li.problem").bounding_box()
        assert box["width"] > 200 and box["height"] < 90, box  # before: 124 by 111 px
        shot(host.page, str(artifacts / "friends-host-refused-table-desktop-it.png"))
        host.page.set_viewport_size({"width": 390, "height": 844})
        # the friend cannot come back: after the host's timeout a computer plays the seat
        host.page.wait_for_selector("#friends-bar li[data-seat='1'][data-state='away']", timeout=60000)
        for _ in range(3):
            play_one([host])
        allow_connections(host)
        host.page.click("#friends-bar #friends-retry")
        host.page.wait_for_selector("#friends-bar li[data-seat='1'][data-state='on']", timeout=90000)
        assert host.page.locator("#friends-bar li.problem").count() == 0
        # the friend is "on" once connected; the table takes the seat back once at rest (a
        # computer's card may be on its way)
        host.page.wait_for_function("() => window.__briscola.state.seats[1].kind === 'friend'", timeout=30000)
        steps = 0
        while play_one([host, friend]):
            steps += 1
        assert steps > 0 and len([e for e in host.state()["view"]["events"] if e["type"] == "play"]) == 40
        assert_no_leak(host, received_views(friend), 1)


def test_the_relays_are_a_setting(rtc_browser, base_url, artifacts):
    with closing_all(Person(rtc_browser, 390, 844, lang="it")) as (person,):
        page = person.page
        page.goto(base_url)
        wait_ui(page, SETTLED)
        page.click("#btn-settings")
        page.click("#set-friends")
        page.wait_for_selector("#friends-relays")
        page.locator("#friends-stun").scroll_into_view_if_needed()
        shot(page, str(artifacts / "friends-settings-phone-it.png"))
        assert "wss://" in page.input_value("#friends-relays")  # the default public ones
        page.fill("#friends-relays", "wss://relay.example/announce\nnot a relay")
        page.fill("#friends-stun", "")
        page.click(".friends-settings .buttons .btn")
        prefs = page.evaluate("JSON.parse(localStorage.getItem('briscola.prefs')).friends")
        assert prefs == {"relays": ["wss://relay.example/announce"], "stun": ""}
        page.fill("#friends-relays", "http://nope.example")
        page.click(".friends-settings .buttons .btn")
        assert "ws://" in page.text_content(".friends-settings [role=status]")  # refused, and why
        assert page.evaluate("JSON.parse(localStorage.getItem('briscola.prefs')).friends.relays") == ["wss://relay.example/announce"]


@pytest.mark.parametrize("part", ["host", "room"])
def test_a_damaged_invitation_is_said_with_the_way_out(rtc_browser, base_url, part):
    """An invitation with one character of the host's key changed (no key of the curve then),
    or a room id that is none: "this invitation is damaged: ask for it again", in a dialog of its
    own (not a notice behind the New game panel, not "Connecting…" for good), and New game out."""
    good_room, bad_key = "abcdefghjkmnpqrs", "A" * 87
    query = f"join={good_room}&host={bad_key}" if part == "host" else f"join=ab%21cd&host={bad_key}"
    with closing_all(Person(rtc_browser)) as (person,):
        person.page.goto(f"{base_url}?{query}&relays=ws://127.0.0.1:9&stun=")
        person.page.wait_for_selector("#friends-dialog[open] #friends-status:has-text('ask for it again')", timeout=30000)
        assert person.page.locator("#friends-dialog[open] #friends-seats").count() == 0
        person.page.click("#friends-new")
        person.page.wait_for_selector("#newgame-dialog[open]")
        assert "join=" not in person.page.url


def test_the_lobby_s_qr_code_shows_whole_on_a_small_phone(rtc_browser, base_url, relay):
    """On a 360×740 phone the QR code of the invitation is on the screen as the lobby opens, above
    the lobby's pinned buttons (below the link it went under them)."""
    with closing_all(Person(rtc_browser, 360, 740)) as (host,):
        host_table(host, base_url, relay)
        host.page.wait_for_selector(".invite-qr img")
        box = host.page.evaluate("""() => { const q = document.querySelector('.invite-qr img').getBoundingClientRect();
          const b = document.querySelector('#friends-dialog .buttons.pinned').getBoundingClientRect();
          return {top: q.top, bottom: q.bottom, height: q.height, pinned: b.top}; }""")
        assert box["height"] >= 150 and box["top"] >= 0 and box["bottom"] <= box["pinned"], box
