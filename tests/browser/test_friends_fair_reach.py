"""A table that deals fairly (docs/friends.md, "The page at a fair table") for the players the
other fair tests leave out: a friend on WebKit (Safari's engine; Debian's WebKitGTK has no
WebRTC, so its page plays through the relay fallback, js/friends/fallback.js), a person who
plays by keyboard alone, and the relay fallback between two Chromium pages whose WebRTC finds
no path. Helpers come from test_friends.py, test_friends_fallback.py, test_a11y.py and
test_webkit.py."""
from __future__ import annotations

import json
import re
import time

import pytest

from pagekit import shot, shot_webdriver
from test_a11y import focus_desc, press, tab_to, wait_said
from test_friends import CARD, Person, closing_all, dealt, join, whose_turn
from test_friends_fair import KEPT_JS
from test_friends_fallback import NO_ICE, local_relays, relay_seen
from test_webkit import click, run_async, troubles, until, watch, webkit  # noqa: F401 (webkit: a fixture)

pytestmark = pytest.mark.browser

FAIR = "the deal was fair"
CODE = re.compile(r"Table code \d{3}\u00a0\d{3}\u00a0\d{3}")
EVENTS_JS = "() => window.__briscola.state.view.events.length"
# [the page's mode, whether it waits for its own seat]
TURN_JS = """() => { const ui = document.documentElement.dataset.ui, st = window.__briscola && window.__briscola.state;
  return [ui, ui === "waiting" && !!st && st.view.turn === st.seat]; }"""
# where a page's fair deal stands, for a failure's message: what its device heard of each device's,
# how many it sent, the cards its engine still waits for
STANDS_JS = """() => { const f = window.__briscola.app.friends.fair; return f && f.fs ? JSON.stringify({ heard: f.fs.fair.nextSeq,
  sent: f.sent.length, needs: f.fs.reply && f.fs.reply.needs, ui: document.documentElement.dataset.ui }) : String(!!f); }"""
# the host's page: what its FairPlay is given of each device's ([device, characters]), from now on
HEARD_JS = """() => { const f = window.__briscola.app.friends.fair, heard = window.__heard = [], receive = f.receive.bind(f);
  f.receive = (m, from) => { heard.push([from, JSON.stringify(m).length]); return receive(m, from); }; }"""
# the friend's page sends the host a fair message of 9 KB (its first one, numbered far ahead, a
# field of padding more): bigger than the 4 KB any other message may be; the host's device
# refuses it, changing nothing
BIG_JS = """const g = window.__briscola.app.friends, first = g.fair.sent[0];
g.send({ t: 'fair', to: first.to, m: { ...first.msg, seq: 1000000, pad: 'x'.repeat(9000) } });"""
# The line under the names drawn again (js/friends/common.js peopleBar) while a button of it has
# the focus, as the host's page draws it at a fair table whose friend has gone ("End the deal
# now", then "Deal the next one"), then without a button: where the focus is each time.
BAR_FOCUS_JS = """async () => {
  const { peopleBar } = await import(new URL("js/friends/common.js", document.baseURI).href);
  const people = [{ kind: "human", name: "A", connected: true }, { kind: "friend", name: "B", connected: false }];
  const button = (id) => Object.assign(document.createElement("button"), { id, className: "btn", type: "button", textContent: id });
  const where = () => { const a = document.activeElement; return a.id || (a.closest(".hand") ? "hand" : a.tagName); };
  peopleBar(people, 0, { text: "waits", button: button("fair-end") });
  document.getElementById("fair-end").focus();
  const out = [];
  peopleBar(people, 0, { text: "waits", button: button("fair-end") });
  out.push(where());
  peopleBar(people, 0, { text: "void", button: button("fair-again") });
  out.push(where());
  peopleBar(people, 0, null);
  out.push(where());
  window.__briscola.app.friends.bar();
  return out;
}"""
ON_CARD_JS = "() => !!document.activeElement && document.activeElement.classList.contains('hand-card')"
# ... or on the hand itself, its last card played (the friend's still to come)
ON_HAND_JS = """() => { const a = document.activeElement, hand = document.querySelector('#table .mine .hand');
  return !!a && (a.classList.contains('hand-card') || (a === hand && !hand.children.length)); }"""


def open_fair_host(host: Person, base_url, relays, seed, variant="best-of-3"):
    host.page.goto(f"{base_url}?friends=1&variant={variant}&seed={seed}&lang=en&relays={relays}&stun=&fair=1")
    host.page.wait_for_selector("a[data-invite]", timeout=120000)
    return host.page.get_attribute("a[data-invite]", "href")


def fair_events(log):
    """The events the Nostr relay heard from the pages (each sealed with the room's key)."""
    events = [m[1] for m in map(json.loads, relay_seen(log)) if m[0] == "EVENT" and isinstance(m[1], dict)]
    return events


def assert_nothing_in_clear(log, cards):
    text = "\n".join(relay_seen(log))
    assert not CARD.search(text), CARD.search(text)
    for card in cards:
        assert f'"{card}"' not in text
    for word in ('"t":"fair"', '"fair_go"', '"hand"', "legal", "Bruno", "Wanda"):
        assert word not in text, word


def keyboard_play(page, where):
    """The person's card played by keyboard (the focus on a card of the hand): sometimes an
    arrow first, then Enter."""
    assert page.evaluate(ON_CARD_JS), f"{where}: {focus_desc(page)}"
    n = page.evaluate(EVENTS_JS)
    if n % 3 == 1 and page.locator(".hand-card.playable").count() > 1:
        press(page, "ArrowRight", where)
    press(page, "Enter", f"{where}: a card played")
    page.wait_for_function("n => window.__briscola.state.view.events.length > n", arg=n, timeout=60000)


FRIEND_TURN = ("const s = window.__briscola.state; return document.documentElement.dataset.ui === 'waiting'"
               " && s.view.turn === s.seat")


def one_play(page, driver, plays):
    """Whoever's turn it is plays: the host (`page`) by keyboard, the WebKit friend by a click;
    the play reaches the other page."""
    end = time.monotonic() + 120
    while True:
        if page.evaluate(TURN_JS)[1]:
            n = driver.execute_script("return window.__briscola.state.view.events.length")
            keyboard_play(page, f"the host's play {plays}")
            until(driver, f"return window.__briscola.state.view.events.length > {n}", timeout=120, what="the host's play on WebKit")
            return
        if driver.execute_script(FRIEND_TURN):
            n = page.evaluate(EVENTS_JS)
            click(driver, ".hand-card.playable")
            page.wait_for_function("n => window.__briscola.state.view.events.length > n", arg=n, timeout=120000)
            return
        assert time.monotonic() < end, "nobody's turn came"
        time.sleep(0.05)


def until_at_rest(page, driver):
    """Until a page waits for its person, or the host's shows the end screen."""
    end = time.monotonic() + 120
    while not (page.evaluate(TURN_JS)[1] or driver.execute_script(FRIEND_TURN)
               or page.evaluate("document.documentElement.dataset.ui") == "summary"):
        assert time.monotonic() < end, "the table never came to rest"
        time.sleep(0.05)


def test_a_webkit_friend_plays_a_fair_match_through_the_relay_with_a_host_on_the_keyboard(webkit, rtc_browser, base_url, tmp_path, artifacts):
    """A Chromium host on a phone, who plays by keyboard alone, and a friend on WebKitGTK (no
    RTCPeerConnection: the relay fallback at once): the first deal of a fair best of three is
    dealt, played and checked fair on both devices, the table's code the same on both; on the
    host's page the focus is on a card of its hand after every play, its own or the friend's
    (the fair table redrawn), the table's code and the check are said, the end screen's "Next
    deal" is reached by Tab and deals the match's second deal on both pages. Through the relay
    nothing of the game is in clear, and a fair message of 9 KB from the WebKit page (past the
    4 KB of any other message) reaches the host's device and changes nothing."""
    driver = webkit
    driver.set_script_timeout(120)
    log = tmp_path / "nostr.log"
    with local_relays(log) as relays, closing_all(Person(rtc_browser, 390, 844)) as (host,):
        page = host.page
        href = open_fair_host(host, base_url, relays, seed=23)
        driver.get(base_url + "build-manifest.json")
        driver.execute_script("localStorage.clear(); localStorage.setItem('briscola.prefs', arguments[0]);",
                              json.dumps({"speed": "instant", "lang": "en", "tips": {"all": True}, "friendsName": "Wanda"}))
        assert driver.execute_script("return typeof RTCPeerConnection") == "undefined"
        driver.get(href)
        watch(driver)
        until(driver, "return !!document.querySelector(\"[data-take='1']\")", timeout=180, what="the free seat")
        click(driver, "[data-take='1']")
        dealt(host)
        until(driver, "return !!(window.__briscola && window.__briscola.state)"
              " && !(document.getElementById('friends-dialog') || {}).open", timeout=180, what="the deal")
        assert driver.execute_script("return !!window.__briscola.app.friends.fair && !!window.__briscola.app.friends.fair.fs")
        # the table's code under the names, the same on both pages, said on the host's
        code = page.wait_for_selector("#fair-code", timeout=120000).text_content()
        assert CODE.fullmatch(code), code
        assert until(driver, "const e = document.getElementById('fair-code'); return e && e.textContent",
                     timeout=60, what="the code on WebKit") == code
        assert page.get_attribute("#fair-code", "role") == "status"
        page.wait_for_selector("#friends-bar li[data-seat='1'][data-medium='relay']", timeout=60000)
        shot(page, str(artifacts / "friends-fair-keyboard-host-phone.png"))
        shot_webdriver(driver, str(artifacts / "webkit-friend-fair.png"))
        # the host's hand by the skip link, the page's first stop (as a Tab from the address bar)
        page.focus("a.skip")
        press(page, "Enter", "the skip link followed")
        page.evaluate(HEARD_JS)
        plays = 0
        while plays < 40:
            try:
                one_play(page, driver, plays)
                plays += 1
                # the fair table redrawn (the friend's play, a trick taken, the cards drawn): the
                # focus is still on a card of the host's hand, never on <body>, whoever's turn it is
                until_at_rest(page, driver)
            except (AssertionError, TimeoutError) as e:
                raise AssertionError(f"play {plays}: host {page.evaluate(STANDS_JS)}, "
                                     f"WebKit {driver.execute_script('return (' + STANDS_JS + ')()')}") from e
            if page.evaluate("document.documentElement.dataset.ui") != "summary":
                assert page.evaluate(ON_HAND_JS), f"after play {plays}: {focus_desc(page)}"
            if plays == 10:
                # the friend's device keeps its deal in WebKit's IndexedDB (a reload carries on)
                room = driver.execute_script("return window.__briscola.app.friends.room")
                kept = json.loads(run_async(driver, KEPT_JS, f"guest:{room}"))
                assert kept["deal"]["fs"]["fair"]["secrets"]["x"], kept
                driver.execute_script(BIG_JS)
        # the end: checked fair on both devices, the same points; said on the host's page inside
        # its end screen, where the focus is
        page.wait_for_selector("#summary-dialog[open]", timeout=120000)
        assert page.evaluate("document.activeElement.closest('#summary-dialog') !== null"), focus_desc(page)
        page.wait_for_function("f => (document.getElementById('sum-fair')?.textContent || '').includes(f)", arg=FAIR, timeout=120000)
        assert code.replace("\u00a0", " ") in page.text_content("#sum-fair")
        wait_said(page, FAIR)
        until(driver, "return (document.getElementById('sum-fair') || {}).textContent.includes(arguments[0])", FAIR,
              timeout=120, what="the check on WebKit")
        points = page.evaluate("window.__briscola.state.summary.points")
        assert driver.execute_script("return window.__briscola.state.summary.points") == points and sum(points) == 120
        shot(page, str(artifacts / "friends-fair-keyboard-host-end-phone.png"))
        shot_webdriver(driver, str(artifacts / "webkit-friend-fair-end.png"))
        # the match's next deal, by Tab and Enter, on both pages; the focus on a card of the host's hand
        tab_to(page, "#sum-next", "the host's end screen")
        press(page, "Enter", "the next deal")
        page.wait_for_function("() => window.__briscola.state.round === 1 && window.__briscola.state.view.events.length < 5", timeout=120000)
        until(driver, "return window.__briscola.state.round === 1", timeout=180, what="the next deal on WebKit")
        assert not driver.execute_script("return document.getElementById('summary-dialog').open")
        until_at_rest(page, driver)
        assert page.evaluate(ON_CARD_JS), f"the next deal: {focus_desc(page)}"
        later = page.wait_for_selector("#fair-code", timeout=120000).text_content()
        assert CODE.fullmatch(later) and later != code
        # the fair messages went through the relay, sealed: nothing of the game in clear; the
        # friend's 9 KB one reached the host's FairPlay (past the 4 KB of any other message), and
        # changed nothing: the deal went on and was checked fair
        assert len(fair_events(log)) > 60
        heard = page.evaluate("window.__heard")
        assert max(n for d, n in heard if d == 1) > 9000, heard
        assert_nothing_in_clear(log, set(CARD.findall(json.dumps(host.state()["view"]))))
        said = [x for x in troubles(driver) if not (x.startswith("notice: ") and ("Table code" in x or FAIR in x))]
        assert not said, said


def test_a_fair_deal_through_the_relay_between_two_chromium_pages_the_friend_on_the_keyboard(rtc_browser, base_url, tmp_path, artifacts):
    """Two Chromium pages whose WebRTC finds no path (every ICE candidate removed): the friend's
    page opens the relay fallback, and the first deal of a fair best of three goes through it,
    the friend on a phone playing by keyboard alone. On the friend's page the table's code is
    said, the focus is on a card of its hand after every play and redraw, the end screen says
    the check and whom the next deal waits for, and when the host deals the next one the focus
    is back on a card of the new hand (never on <body>)."""
    log = tmp_path / "nostr.log"
    with local_relays(log) as relays, closing_all(Person(rtc_browser), Person(rtc_browser, 390, 844)) as (host, friend):
        for p in (host, friend):
            p.add_init_script(NO_ICE)
        href = open_fair_host(host, base_url, relays, seed=29)
        join(friend, href, 1)
        dealt(host, friend)
        page = friend.page
        # the table says it: on the friend's page beside the host's name, on the host's beside the
        # friend's; no problem said once the relay carries the game, on either page
        page.wait_for_selector("#friends-bar li[data-seat='0'][data-medium='relay']", timeout=60000)
        assert "through the relay (slower)" in page.text_content("#friends-bar li[data-seat='0']")
        host.page.wait_for_selector("#friends-bar li[data-seat='1'][data-medium='relay']", timeout=30000)
        assert "through the relay (slower)" in host.page.text_content("#friends-bar li[data-seat='1']")
        assert host.page.locator("#friends-bar li.problem").count() == 0
        assert page.locator("#friends-bar li.problem").count() == 0
        code = page.wait_for_selector("#fair-code", timeout=120000).text_content()
        assert CODE.fullmatch(code) and host.page.text_content("#fair-code") == code
        assert page.get_attribute("#fair-code", "role") == "status"
        page.focus("a.skip")
        press(page, "Enter", "the skip link followed")
        plays = 0
        while plays < 40:
            turn = whose_turn([host, friend])
            if turn is friend:
                n = host.page.evaluate(EVENTS_JS)
                keyboard_play(page, f"the friend's play {plays}")
                host.page.wait_for_function("n => window.__briscola.state.view.events.length > n", arg=n, timeout=120000)
            elif turn is host:
                n = page.evaluate(EVENTS_JS)
                host.page.locator(".hand-card.playable").first.click()
                page.wait_for_function("n => window.__briscola.state.view.events.length > n", arg=n, timeout=120000)
            else:
                time.sleep(0.05)
                continue
            plays += 1
            end = time.monotonic() + 120
            while not (whose_turn([host, friend]) or page.evaluate("document.documentElement.dataset.ui") == "summary"):
                assert time.monotonic() < end, "the table never came to rest"
                time.sleep(0.05)
            if page.evaluate("document.documentElement.dataset.ui") != "summary":
                assert page.evaluate(ON_HAND_JS), f"after play {plays}: {focus_desc(page)}"
            if plays == 20:
                shot(page, str(artifacts / "friends-fair-relay-keyboard-friend-phone.png"))
        # the end screen: the check said where the focus is, whom the next deal waits for
        page.wait_for_selector("#summary-dialog[open]", timeout=120000)
        assert page.evaluate("document.activeElement.closest('#summary-dialog') !== null"), focus_desc(page)
        page.wait_for_function("f => (document.getElementById('sum-fair')?.textContent || '').includes(f)", arg=FAIR, timeout=120000)
        wait_said(page, FAIR)
        waits = page.text_content("#sum-waiting")
        assert "next deal" in waits and page.evaluate("window.__briscola.app.names()[0]") in waits, waits
        assert page.get_attribute("#sum-waiting", "role") == "status"
        tab_to(page, "#sum-leave", "the friend's end screen")  # (what there is to press there)
        shot(page, str(artifacts / "friends-fair-relay-keyboard-friend-end-phone.png"))
        host.page.wait_for_function("f => (document.getElementById('sum-fair')?.textContent || '').includes(f)", arg=FAIR, timeout=120000)
        # the host deals the match's next deal: the friend's end screen goes, its focus on a card
        host.page.click("#sum-next")
        page.wait_for_function("() => window.__briscola.state.round === 1 && window.__briscola.state.view.events.length < 5", timeout=120000)
        page.wait_for_selector("#summary-dialog", state="hidden", timeout=60000)
        end = time.monotonic() + 120
        while not whose_turn([host, friend]):
            assert time.monotonic() < end, "the next deal never came to rest"
            time.sleep(0.05)
        assert page.evaluate(ON_CARD_JS), f"the next deal: {focus_desc(page)}"
        # the line under the names drawn again under a focused button of it: the focus stays
        assert page.evaluate(BAR_FOCUS_JS) == ["fair-end", "fair-again", "hand"]
        assert friend.page.evaluate("window.__briscola.app.friends.conn.medium(window.__briscola.app.friends.hostId)") == "relay"
        assert len(fair_events(log)) > 60
        assert_nothing_in_clear(log, set(CARD.findall(json.dumps(host.state()["view"]))))
