"""The relay fallback of "play with friends" (js/friends/fallback.js, rooms.js): when no WebRTC
path forms, or the browser has no WebRTC at all, the game's messages go through a Nostr relay,
encrypted end to end. The local relays (`tools/relay/relays.mjs`: the tracker and the Nostr
relay) run for each test, the Nostr relay writing every message it hears and sends to a log
that the test reads: no card code of the deal may be in it in clear.

- Two Chromium pages whose every ICE candidate is removed (`NO_ICE`, an init script): the
  friend's page finds no WebRTC path, says so, and the whole deal goes through the relay: at a
  table that deals fairly, the default (tests/browser/test_friends_fair_reach.py).
- A Chromium host and a friend on WebKitGTK (Selenium, tests/browser/test_webkit.py's
  fixtures), which has no RTCPeerConnection at all: the friend plays through the relay.
"""
from __future__ import annotations

import json
import subprocess
import time
from contextlib import contextmanager

import pytest

from pagekit import shot_webdriver
from test_friends import CARD, ROOT, Person, closing_all, dealt, join, whose_turn
from test_webkit import webkit  # noqa: F401 (a fixture)

pytestmark = pytest.mark.browser

# Every ICE candidate removed: none is delivered to the page (the icecandidate event, its
# handler), none taken from the other page (addIceCandidate does nothing, a description's
# candidate lines are cut). The relays still introduce the pages; no connection can open.
NO_ICE = """(() => {
  const Base = window.RTCPeerConnection;
  const cut = (d) => (d && typeof d.sdp === "string"
    ? { type: d.type, sdp: d.sdp.split("\\r\\n").filter((l) => !l.startsWith("a=candidate")).join("\\r\\n") } : d);
  const handler = Object.getOwnPropertyDescriptor(Base.prototype, "onicecandidate");
  class NoPath extends Base {
    addIceCandidate() { return Promise.resolve(); }
    setRemoteDescription(d) { return super.setRemoteDescription(cut(d)); }
    addEventListener(type, fn, opts) {
      if (type !== "icecandidate" || typeof fn !== "function") return super.addEventListener(type, fn, opts);
      return super.addEventListener(type, function (e) { if (!e.candidate) return fn.call(this, e); }, opts);
    }
  }
  Object.defineProperty(NoPath.prototype, "onicecandidate", {
    configurable: true,
    get() { return handler.get.call(this); },
    set(fn) { handler.set.call(this, typeof fn === "function" ? function (e) { if (!e.candidate) return fn.call(this, e); } : fn); },
  });
  window.RTCPeerConnection = NoPath;
})();"""


@contextmanager
def local_relays(log):
    """The tracker and the Nostr relay (`npm run relays`), the Nostr relay's log to `log`: the
    `relays` value of a link."""
    proc = subprocess.Popen(["node", "tools/relay/relays.mjs", "--port", "0", "--log", str(log)], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline().strip()
    try:
        relays = json.loads(line)["relays"]
    except ValueError:
        proc.kill()
        pytest.fail(f"the relays did not start: {line} {proc.stderr.read()}")
    try:
        yield relays
    finally:
        proc.terminate()  # (it waits for its sockets to close: a page still open holds one)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)


def open_host(host: Person, base_url, relays, seed):
    host.page.goto(f"{base_url}?friends=1&variant=classic&seed={seed}&lang=en&relays={relays}&stun=&fair=0")
    host.page.wait_for_selector("a[data-invite]", timeout=120000)
    href = host.page.get_attribute("a[data-invite]", "href")
    assert "nostr%3Aws%3A%2F%2F127.0.0.1" in href  # the invitation carries the Nostr relay
    return href


def relay_seen(log):
    """Every text the Nostr relay heard and sent."""
    return [json.loads(line)["text"] for line in log.read_text().splitlines() if line.strip()]


def assert_nothing_in_clear(log, host: Person):
    """The relay's log holds events of the page's kind, and no card code of the deal (those the
    host's view names, each quoted as in a view's JSON), nor any other text of the game."""
    seen = relay_seen(log)
    # the events as the pages sent them (["EVENT", event]; the relay passes each on as ["EVENT", sub, event])
    events = [m[1] for m in map(json.loads, seen) if m[0] == "EVENT" and isinstance(m[1], dict)]
    assert len(events) > 40, len(events)  # the deal went through the relay
    text = "\n".join(seen)
    assert not CARD.search(text), CARD.search(text)
    cards = set(CARD.findall(json.dumps(host.state()["view"])))
    assert len(cards) >= 20
    for card in cards:
        assert f'"{card}"' not in text
    for word in ('"t":"view"', '"hand"', "legal", "Bruno", "Wanda"):
        assert word not in text, word
    by = {}
    for ev in events:
        by[ev["pubkey"]] = by.get(ev["pubkey"], 0) + 1
    print(f"\nthe relay passed on {len(events)} events, by page: {sorted(by.values())}")


def test_a_friend_on_webkit_without_webrtc_plays_a_whole_deal_through_the_relay(webkit, rtc_browser, base_url, tmp_path, artifacts):
    """Debian's WebKitGTK has no RTCPeerConnection: the friend's page there plays through the
    relay, as any browser without WebRTC does (never a blank or stuck page)."""
    from test_webkit import click, troubles, until, watch
    driver = webkit
    driver.set_script_timeout(120)
    log = tmp_path / "nostr.log"
    began = time.monotonic()
    with local_relays(log) as relays, closing_all(Person(rtc_browser)) as (host,):
        href = open_host(host, base_url, relays, seed=11)
        driver.get(base_url + "build-manifest.json")
        driver.execute_script("localStorage.clear(); localStorage.setItem('briscola.prefs', arguments[0]);",
                              json.dumps({"speed": "instant", "lang": "en", "tips": {"all": True}, "friendsName": "Wanda"}))
        assert driver.execute_script("return typeof RTCPeerConnection") == "undefined"
        t0 = time.monotonic()
        driver.get(href)
        watch(driver)
        until(driver, "return !!document.querySelector(\"[data-take='1']\")", timeout=120, what="the free seat")
        seats_shown = time.monotonic() - t0
        # from the page's joining the room (its own engine up before) to the free seats shown
        from_room = driver.execute_script("return (performance.now() - performance.getEntriesByName('briscola:friends room')[0].startTime) / 1000")
        until(driver, "return !!document.getElementById('friends-relay')", timeout=30, what="the relay said")
        assert "through the relay (slower)" in driver.execute_script(
            "return document.getElementById('friends-relay').textContent")
        click(driver, "[data-take='1']")
        dealt(host)
        until(driver, "return !!(window.__briscola && window.__briscola.state)"
              " && !(document.getElementById('friends-dialog') || {}).open", timeout=120, what="the deal")
        until(driver, "return !!document.querySelector(\"#friends-bar li[data-seat='0'][data-medium='relay']\")",
              timeout=30, what="the relay said at the table")
        assert "through the relay (slower)" in driver.execute_script(
            "return document.querySelector(\"#friends-bar li[data-seat='0']\").textContent")
        host.page.wait_for_selector("#friends-bar li[data-seat='1'][data-medium='relay']", timeout=30000)
        shot_webdriver(driver, str(artifacts / "webkit-friend-relay.png"))
        friend_turn = ("const s = window.__briscola.state; return document.documentElement.dataset.ui === 'waiting'"
                       " && s.view.turn === s.seat")
        events = "return window.__briscola.state.view.events.length"
        plays = 0
        while plays < 40:
            end = time.monotonic() + 60
            while True:
                if whose_turn([host]) is host:
                    n = driver.execute_script(events)
                    host.page.locator(".hand-card.playable").first.click()
                    until(driver, f"return window.__briscola.state.view.events.length > {n}", timeout=60, what="the host's play")
                    break
                if driver.execute_script(friend_turn):
                    n = len(host.state()["view"]["events"])
                    click(driver, ".hand-card.playable")
                    host.page.wait_for_function("n => window.__briscola.state.view.events.length > n", arg=n, timeout=60000)
                    break
                assert time.monotonic() < end, "nobody's turn came"
                time.sleep(0.05)
            plays += 1
        host.page.wait_for_selector("#summary-dialog[open]", timeout=60000)
        until(driver, "return !!document.querySelector('#summary-dialog[open]')", timeout=60, what="the summary")
        final = host.state()
        assert final["view"]["phase"] == "over"
        assert driver.execute_script("return window.__briscola.state.summary.side_points") == final["summary"]["side_points"]
        assert_nothing_in_clear(log, host)
        assert not troubles(driver), troubles(driver)
        print(f"\nWebKit friend through the relay: the seats shown {seats_shown:.1f} s after the invitation was opened, "
              f"{from_room:.1f} s after its page joined the room; "
              f"the whole test {time.monotonic() - began:.0f} s")


# A page that holds the invitation (the room's key) writes to the room through the relay
# fallback under another page's id (`as`), as js/friends/fallback.js lets any page of the room:
# a `who` with an ECDH key of its own first, then `msgs` to `to`; `counter`: its events'
# counter starts there. What it heard in `wait` ms (the host's messages to the id it claims).
IMPOSTOR = """async ({base, room, relays, as, to, msgs, counter, wait}) => {
  const { Fallback } = await import(new URL("js/friends/fallback.js", base).href);
  const lib = await import(new URL("js/friends/vendor.js", base).href);
  const got = [];
  const fb = new Fallback({ room, relays, self: as, limit: 2000000, schnorr: lib.schnorr }, {
    join: () => {}, leave: () => {}, message: (peer, text) => got.push(text), refused: () => {}, problem: () => {} });
  fb.counter = counter;
  await fb.start();
  await new Promise((r) => setTimeout(r, 1500));
  const pair = await crypto.subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
  const raw = new Uint8Array(await crypto.subtle.exportKey("raw", pair.publicKey));
  const dh = btoa(String.fromCharCode(...raw)).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  fb.send(to, JSON.stringify({ v: 3, t: "who", nonce: "x".repeat(20), dh }));
  for (const m of msgs) fb.send(to, JSON.stringify(m));
  await new Promise((r) => setTimeout(r, wait));
  await fb.leave();
  return got;
}"""


def test_a_page_with_the_invitation_speaks_for_nobody_through_the_relay(rtc_browser, base_url, tmp_path):
    """docs/friends.md, "Every page authenticated": a third page that opened the invitation
    claims the seated friend's id on the relay fallback and asks the host for that seat's view and
    plays each of its cards: it reads nothing and plays nothing. Claiming the host's id with a
    counter far ahead, it sends the friend a forged view, a version notice and a `bye`: nothing
    of it is believed, and the real host's messages still come."""
    from urllib.parse import parse_qs, urlparse
    log = tmp_path / "nostr.log"
    with local_relays(log) as relays, closing_all(Person(rtc_browser), Person(rtc_browser), Person(rtc_browser)) as (host, friend, outsider):
        for p in (host, friend):
            p.add_init_script(NO_ICE)
        href = open_host(host, base_url, relays, seed=9)
        join(friend, href, 1)
        dealt(host, friend)
        end = time.monotonic() + 60
        while whose_turn([host, friend]) is not friend:
            assert time.monotonic() < end, "the friend's turn never came"
            if whose_turn([host, friend]) is host:
                host.page.locator(".hand-card.playable").first.click()
            time.sleep(0.1)
        query = parse_qs(urlparse(href).query)
        room, nostr = query["join"][0], [r[len("nostr:"):] for r in query["relays"][0].split(",") if r.startswith("nostr:")]
        self_id = "window.__briscola.app.friends.conn.self"
        host_id, friend_id = host.page.evaluate(self_id), friend.page.evaluate(self_id)
        before, mine = host.state()["view"]["events"], friend.state()["view"]
        outsider.page.goto(f"{base_url}manifest.webmanifest")
        acts = [{"v": 3, "t": "req", "id": 10 + i, "type": "act", "args": {"action": c}} for i, c in enumerate(mine["legal"])]
        got = outsider.page.evaluate(IMPOSTOR, {"base": base_url, "room": room, "relays": nostr, "as": friend_id, "to": host_id,
                                                "counter": 10 ** 6, "wait": 5000, "msgs": [
                                                    {"v": 3, "t": "req", "id": 1, "type": "state", "args": {}},
                                                    {"v": 3, "t": "sync"}, *acts]})
        # it heard only what the host sealed for the friend's page: no card, no view
        assert all(json.loads(text)["t"] == "sealed" for text in got), got
        assert not any(CARD.search(text) for text in got)
        # nothing was played for the friend; the host counted what it refused
        assert host.state()["view"]["events"] == before
        refused = host.page.evaluate("window.__briscola.app.friends.pairs.refusedCount")
        assert refused["unsealed"] >= 2 + len(acts) and refused["identity"] >= 1, refused
        # as the host: a forged view (a false hand), another version said, the table closed
        forged = {"v": 3, "t": "view", "n": 99999, "state": {"seat": 1, "view": {**mine, "hand": ["AD", "AC", "AS"]}}}
        outsider.page.evaluate(IMPOSTOR, {"base": base_url, "room": room, "relays": nostr, "as": host_id, "to": friend_id,
                                          "counter": 10 ** 9, "wait": 3000, "msgs": [
                                              forged, {"v": 4, "t": "host", "sig": "x" * 40},
                                              {"v": 3, "t": "error", "code": "friends_version", "message": "x"}, {"v": 3, "t": "bye"}]})
        assert friend.state()["view"]["hand"] == mine["hand"]
        assert friend.page.evaluate("document.getElementById('friends-dialog')?.open") in (None, False)
        assert "another version" not in (friend.page.text_content("#notice") or "")
        assert friend.page.evaluate("window.__briscola.app.friends.otherVersions") >= 1
        # the real host is still heard: the friend's card reaches its table, the deal goes on
        n = len(host.state()["view"]["events"])
        friend.page.locator(".hand-card.playable").first.click()
        host.page.wait_for_function("n => window.__briscola.state.view.events.length > n", arg=n, timeout=60000)
        nxt = whose_turn([host, friend]) or host
        m = len(friend.state()["view"]["events"])
        if nxt is host:
            host.page.locator(".hand-card.playable").first.click()
            friend.page.wait_for_function("n => window.__briscola.state.view.events.length > n", arg=m, timeout=60000)
