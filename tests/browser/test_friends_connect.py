"""Playing with friends where people are (docs/friends.md, "Connecting through TURN", "When
the devices cannot connect" and "Two media"): the TURN server as a setting and in the link, a
whole deal through a real TURN server (Debian's coturn, started here on the loopback), every
failure to connect said in words, with what to try, on both pages, and the pages meeting
through either signalling medium when the other is down.

The helpers (the local relay, the browser with WebRTC on the loopback, a person's context, the
invitation, the join, the deal) are test_friends.py's.
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from contextlib import contextmanager
from urllib.parse import parse_qs, urlsplit

import pytest

from pagekit import shot, SETTLED, wait_ui
from test_friends import (  # noqa: F401  (relay: a fixture)
    Person, assert_no_leak, closing_all, dealt, friend_page, host_table, invitation, join, local_relay, play_one, received,
    received_views, relay, started)

pytestmark = pytest.mark.browser

TURNSERVER = shutil.which("turnserver") or "/usr/bin/turnserver"

# Every RTCPeerConnection the page makes, kept in window.__pcs (made before the page's own
# scripts run, so that the page's connections are made from it).
KEEP_CONNECTIONS = """(() => {
  const Base = window.RTCPeerConnection;
  const all = window.__pcs = [];
  window.RTCPeerConnection = class extends Base {
    constructor(...args) { super(...args); all.push(this); }
  };
})();"""

# The local and remote candidates' types of every connection open now, by the pair its
# transport selected: [[local, remote], ...].
SELECTED_PAIRS = """async () => {
  const out = [];
  for (const pc of window.__pcs) {
    if (pc.connectionState !== "connected") continue;
    const stats = await pc.getStats();
    const byId = new Map();
    stats.forEach((s) => byId.set(s.id, s));
    stats.forEach((s) => {
      if (s.type !== "transport" || !s.selectedCandidatePairId) return;
      const pair = byId.get(s.selectedCandidatePairId);
      out.push([byId.get(pair.localCandidateId).candidateType, byId.get(pair.remoteCandidateId).candidateType]);
    });
  }
  return out;
}"""

# How many connections the page made, and how many of them took a TURN allocation (a relayed
# candidate of their own): [made, relayed].
ALLOCATIONS = """async () => {
  let relayed = 0;
  for (const pc of window.__pcs) {
    const stats = await pc.getStats();
    let any = false;
    stats.forEach((s) => { if (s.type === "local-candidate" && s.candidateType === "relay") any = true; });
    if (any) relayed++;
  }
  return [window.__pcs.length, relayed];
}"""


def free_port(kind=socket.SOCK_DGRAM) -> int:
    with socket.socket(socket.AF_INET, kind) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def turn_server(user="u", password="p", ports=None):
    """coturn on 127.0.0.1 (a free port, UDP and TCP) with one user, relaying between loopback
    peers, while the block runs: its turn: URL."""
    if not os.path.exists(TURNSERVER):
        pytest.skip("coturn's turnserver is not installed (tests/run.sh installs it)")
    port = free_port()
    # the relayed addresses: any free port of coturn's own range (49152-65535; each page's every
    # connection holds one until it closes)
    args = [TURNSERVER, "--listening-ip", "127.0.0.1", "--relay-ip", "127.0.0.1", "--listening-port", str(port),
            "--user", f"{user}:{password}", "--lt-cred-mech", "--realm", "briscola.test",
            "--no-tls", "--no-dtls", "--allow-loopback-peers", "--no-cli", "--no-stdout-log", "--log-file", "/dev/null",
            "--userdb", "/dev/null"]
    if ports:  # a range of relayed ports this small: the server soon has none left (508)
        base = 49152 + (os.getpid() % 1000) * 16
        args += ["--min-port", str(base), "--max-port", str(base + ports - 1)]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        end = time.monotonic() + 20
        while True:  # listening once its TCP port takes a connection
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > end:
                    pytest.fail(f"turnserver did not start (exit {proc.poll()})")
                time.sleep(0.1)
        yield f"turn:127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="module")
def turn():
    with turn_server() as url:
        yield url


def turn_query(url, user="u", credential="p", relay_only=True) -> str:
    return (("&ice=relay" if relay_only else "") + f"&turn={url}&turn_user={user}&turn_credential={credential}")


def words_within(page, selector, text, seconds):
    """Wait up to `seconds` for `selector` to hold `text`: how long after the page began to
    connect (its mark "briscola:friends room", net.js) the words showed (s)."""
    took = page.wait_for_function(
        """([sel, text]) => { const el = document.querySelector(sel);
             if (!el || !el.textContent.includes(text)) return false;
             return performance.now() - performance.getEntriesByName("briscola:friends room")[0].startTime; }""",
        arg=[selector, text], timeout=seconds * 1000).json_value()
    return took / 1000


def open_settings(page):
    page.click("#btn-settings")
    page.click("#set-friends")
    page.wait_for_selector("#friends-turn")


def test_the_turn_server_is_a_setting_and_bad_input_changes_nothing(rtc_browser, base_url, relay, artifacts):
    with closing_all(Person(rtc_browser, 390, 844)) as (person,):
        page = person.page
        page.goto(base_url)
        wait_ui(page, SETTLED)
        open_settings(page)
        assert not page.is_checked("#friends-relay-only") and not page.is_checked("#friends-share-turn")  # off unless chosen
        save = ".friends-settings .buttons .btn"
        note = ".friends-settings [role=status]"
        kept = "JSON.parse(localStorage.getItem('briscola.prefs')).friendsTurn || null"
        # not a turn: address
        page.fill("#friends-turn", "http://turn.example:3478")
        page.fill("#friends-turn-user", "u")
        page.fill("#friends-turn-credential", "p")
        page.click(save)
        assert "turn:" in page.text_content(note) and page.evaluate(kept) is None
        # a credential too long
        page.fill("#friends-turn", "turn:turn.example:3478")
        page.fill("#friends-turn-credential", "x" * 129)
        page.click(save)
        assert "128" in page.text_content(note) and page.evaluate(kept) is None
        # no username
        page.fill("#friends-turn-user", "")
        page.fill("#friends-turn-credential", "p")
        page.click(save)
        assert "username" in page.text_content(note) and page.evaluate(kept) is None
        # a good one, with "hide my address" and shared in the invitation
        page.fill("#friends-turn-user", "u")
        page.check("#friends-relay-only")
        page.click(save)
        assert "Kept" in page.text_content(note)
        assert page.evaluate(kept) == {"url": "turn:turn.example:3478", "user": "u", "credential": "p", "relayOnly": True, "share": False}
        page.locator("#friends-share-turn").scroll_into_view_if_needed()
        shot(page, str(artifacts / "friends-settings-turn-phone-en.png"))
        # then a bad one: refused, and what was kept stays
        page.fill("#friends-turn", "turn:")
        page.click(save)
        assert "turn:" in page.text_content(note)
        assert page.evaluate(kept)["url"] == "turn:turn.example:3478"
        # not shared: the invitation carries no TURN server, and never "hide my address"
        href = host_table(person, base_url, relay)
        q = parse_qs(urlsplit(href).query)
        assert not {"turn", "turn_user", "turn_credential", "ice"} & set(q), q
        # shared from the lobby: the room opens again, and its invitation carries it
        page.click("#friends-dialog .friends-settings summary")
        assert page.input_value("#friends-turn") == "turn:turn.example:3478" and page.is_checked("#friends-relay-only")
        page.check("#friends-share-turn")
        page.click("#friends-dialog .friends-settings .buttons .btn")
        page.wait_for_selector("a[data-invite][href*='turn=']")
        href = invitation(person, relay)
        q = parse_qs(urlsplit(href).query)
        assert (q["turn"], q["turn_user"], q["turn_credential"]) == (["turn:turn.example:3478"], ["u"], ["p"])
        assert "ice" not in q
        # the link's TURN server comes first; a bad one in a link is said and left out
        person.page.goto(f"{base_url}?friends=1&variant=classic&relays={relay}&stun=&turn=http://x&turn_user=u&turn_credential=p&fair=0")
        invitation(person, relay)
        said = person.page.text_content("#notice")
        assert "The link's TURN server was left out" in said and "turn:" in said, said


def test_a_whole_deal_through_a_turn_server_with_addresses_hidden(rtc_browser, base_url, relay, turn, artifacts):
    with closing_all(Person(rtc_browser), Person(rtc_browser, 390, 844, spy=True)) as (host, friend):
        for p in (host, friend):
            p.add_init_script(KEEP_CONNECTIONS)
        href = host_table(host, base_url, relay, extra=turn_query(turn))
        assert "turn" not in parse_qs(urlsplit(href).query)  # not shared unless the host chose so
        t0 = time.monotonic()
        join(friend, href + turn_query(turn), 1)
        print(f"\nthrough TURN: the seat taken {time.monotonic() - t0:.1f} s after the invitation opened")
        dealt(host, friend)
        steps = 0
        while play_one([host, friend]):
            steps += 1
        assert steps == 40
        assert len([e for e in host.state()["view"]["events"] if e["type"] == "play"]) == 40
        assert_no_leak(host, received_views(friend), 1)
        # every connection open now went through the TURN server, on both sides
        for p in (host, friend):
            pairs = p.page.evaluate(SELECTED_PAIRS)
            assert pairs and all(pair == ["relay", "relay"] for pair in pairs), pairs
        for p in (host, friend):
            assert p.page.locator("#friends-connect-problem").count() == 0
        # an allocation for each offer sent and each answer, not for every offer made ahead (20
        # a medium): 5 of the host's 42 connections, 5 of the friend's 40 (before: all of them)
        made = [p.page.evaluate(ALLOCATIONS) for p in (host, friend)]
        print(f"\nthrough TURN: connections made, with a relayed address (an allocation): host {made[0]}, friend {made[1]}")
        assert all(relayed <= 10 for _, relayed in made), made


def test_a_turn_server_with_no_port_left_is_said(rtc_browser, base_url, relay):
    """A TURN server that refuses an allocation for want of ports (508: each connection a page
    makes takes one) is said in the lobby, not left for the next table to find out silently."""
    with turn_server(ports=2) as url, closing_all(Person(rtc_browser)) as (host,):
        host_table(host, base_url, relay, extra=turn_query(url))
        took = words_within(host.page, "#friends-connect-problem", "has no room left", 20)
        print(f"\nno TURN port left said: {took:.1f} s")
        assert took < 20


def test_a_wrong_turn_credential_is_said_on_both_pages(rtc_browser, base_url, relay, turn, artifacts):
    with closing_all(Person(rtc_browser), Person(rtc_browser, 390, 844)) as (host, friend):
        href = host_table(host, base_url, relay, extra=turn_query(turn, credential="wrong"))
        took = words_within(host.page, "#friends-connect-problem", "refused the username or credential", 15)
        friend.page.goto(href + turn_query(turn, credential="wrong"))
        took_friend = words_within(friend.page, "#friends-connect-problem", "refused the username or credential", 15)
        print(f"\nwrong TURN credential said: host {took:.1f} s, friend {took_friend:.1f} s")
        assert took < 15 and took_friend < 15
        assert "Connecting" not in friend.page.text_content("#friends-body")
        shot(friend.page, str(artifacts / "friends-turn-refused-phone-en.png"))


def test_no_relay_reachable_is_said_on_both_pages(rtc_browser, base_url):
    # a tracker and a Nostr relay where nothing listens: no relay of either medium answers
    closed = f"ws://127.0.0.1:{free_port(socket.SOCK_STREAM)},nostr:ws://127.0.0.1:{free_port(socket.SOCK_STREAM)}"
    with closing_all(Person(rtc_browser), Person(rtc_browser, 390, 844, lang="it")) as (host, friend):
        href = host_table(host, base_url, closed)
        took = words_within(host.page, "#friends-connect-problem", "No relay answers", 30)
        friend.page.goto(href)
        took_friend = words_within(friend.page, "#friends-connect-problem", "Nessun relay risponde", 30)
        print(f"\nno relay said: host {took:.1f} s, friend {took_friend:.1f} s after the page began to connect")
        assert took < 15 and took_friend < 15
        assert "another network" in host.page.text_content("#friends-connect-problem")
        assert "altra rete" in friend.page.text_content("#friends-connect-problem")
        # the browser's own reports of the refused sockets are no error of the page
        for p in (host, friend):
            p.errors = [e for e in p.errors if "WebSocket" not in e]


def test_no_webrtc_path_is_said_on_both_pages(rtc_browser, base_url, artifacts):
    """"Hide my address" with no TURN server: the relays introduce the pages, but no connection
    can open. The friend's page says why and what to try; the host's lobby says a friend cannot
    connect. The trackers alone: with a Nostr relay in the list the relay fallback would carry
    the game instead (tests/browser/test_friends_fallback.py)."""
    with local_relay(trackers_only=True) as relay, \
            closing_all(Person(rtc_browser), Person(rtc_browser, 390, 844)) as (host, friend):
        href = host_table(host, base_url, relay, extra="&ice=relay")
        # the host's own page knows at once that nothing can connect
        took_host = words_within(host.page, "#friends-connect-problem", "needs a TURN server", 15)
        print(f"\nhide my address without TURN said: host {took_host:.1f} s after its page began to connect")
        assert took_host < 15
        friend.page.goto(href + "&ice=relay")
        took_friend = words_within(friend.page, "#friends-connect-problem", "needs a TURN server", 15)
        assert "Connecting" not in friend.page.text_content("#friends-body")
        # the host hears the friend through the relay; no connection opens
        t0 = time.monotonic()
        words_within(host.page, "#friends-connect-problem", "A friend cannot connect", 30)
        friend_began = friend.page.evaluate("performance.timeOrigin + performance.getEntriesByName('briscola:friends room')[0].startTime")
        took = host.page.evaluate("Date.now()") / 1000 - friend_began / 1000
        print(f"\nno WebRTC path said: friend {took_friend:.1f} s after its page began to connect, the host "
              f"{took:.1f} s after it ({time.monotonic() - t0:.1f} s of waiting here)")
        assert took_friend < 15 and took < 15
        shot(friend.page, str(artifacts / "friends-no-path-phone-en.png"))
        shot(host.page, str(artifacts / "friends-no-path-host-en.png"))
        # what the words say to try works: "hide my address" unticked on both pages (the
        # host's room opens again, the friend's page reloads), and the two connect
        for p in (host, friend):
            p.page.click("#friends-dialog .friends-settings summary")
            assert p.page.is_checked("#friends-relay-only")  # what the page uses now (the link's)
            p.page.uncheck("#friends-relay-only")
            p.page.click("#friends-dialog .friends-settings .buttons .btn")
        try:
            friend.page.wait_for_selector("[data-take='1']", timeout=60000)
        except Exception as e:
            raise AssertionError(f"the friend never reached the host: {friend_page(friend)}") from e
        assert "ice=" not in friend.page.url
        for p in (host, friend):
            p.page.wait_for_selector("#friends-connect-problem", state="detached", timeout=30000)


def test_each_seat_says_its_connection_in_words_on_a_phone(rtc_browser, base_url, relay, artifacts):
    """Not a coloured dot only: the others' seats on a phone's table say "connected", then
    "reconnecting" when a friend's page goes, then that a computer plays for now."""
    with closing_all(Person(rtc_browser, 390, 844), Person(rtc_browser, 390, 844)) as (host, friend):
        href = host_table(host, base_url, relay, extra="&friends_timeout=4")
        join(friend, href, 1)
        dealt(host, friend)

        def label(person, seat):
            loc = person.page.locator(f"#app-main .seat[data-seat='{seat}'] .link-state")
            loc.wait_for()
            box = loc.bounding_box()
            assert box and box["width"] > 10 and box["height"] > 5 and 0 <= box["y"] < 844, box  # seen, not read out only
            return loc.text_content()

        assert label(friend, 0) == "connected" and label(host, 1) == "connected"
        shot(friend.page, str(artifacts / "friends-labels-phone-en.png"))
        friend.page.close()
        host.page.wait_for_selector("#app-main .seat[data-seat='1'] .link-state:has-text('reconnecting')", timeout=30000)
        assert label(host, 1) == "reconnecting"
        shot(host.page, str(artifacts / "friends-labels-reconnecting-phone-en.png"))
        host.page.wait_for_selector("#app-main .seat[data-seat='1'] .link-state:has-text('a computer plays for now')", timeout=30000)
        shot(host.page, str(artifacts / "friends-labels-away-phone-en.png"))
        # the line beside the table (from 700 px) says it in words too
        host.page.set_viewport_size({"width": 1280, "height": 800})
        assert "a computer plays for now" in host.page.text_content("#friends-bar li[data-seat='1'] .state")
        assert host.page.locator("#friends-bar li[data-seat='1'] .state").is_visible()
        shot(host.page, str(artifacts / "friends-labels-host-en.png"))


CONN = "window.__briscola.app.friends.conn"


def played_on_both(host, friend):
    """A card is played (by whoever's turn it is) and shown on both pages: the same play events."""
    assert play_one([host, friend])
    plays = lambda p: [e for e in p.state()["view"]["events"] if e["type"] == "play"]  # noqa: E731
    end = time.monotonic() + 30
    while time.monotonic() < end and not (plays(host) and plays(host) == plays(friend)):
        time.sleep(0.1)
    assert plays(host) and plays(host) == plays(friend), (plays(host), plays(friend))


def relays_open(person, n, timeout=30000):
    person.page.wait_for_function(f"n => {CONN} && {CONN}.health().relaysOpen === n", arg=n, timeout=timeout)


@contextmanager
def two_media():
    """The tracker (relay.mjs) and the Nostr relay (nostr.mjs) as two processes, so that either
    can be stopped: {"trackers": (process, URL), "nostr": (process, "nostr:" URL)}."""
    with started("relay.mjs", says="relay ws://127.0.0.1:") as (tracker, t_line), \
            started("nostr.mjs", says="nostr ws://127.0.0.1:") as (nostr, n_line):
        yield {"trackers": (tracker, t_line.split()[-1]), "nostr": (nostr, "nostr:" + n_line.split()[-1])}


@pytest.mark.parametrize("gone", ["trackers", "nostr"])
def test_either_medium_down_the_pages_still_meet(rtc_browser, base_url, gone):
    """The host's page opens the table through both media; one is stopped before the friend
    opens the invitation: the pages meet through the other, no page says that no relay
    answers, and a card played shows on both pages."""
    left = "nostr" if gone == "trackers" else "trackers"
    with two_media() as media, closing_all(Person(rtc_browser), Person(rtc_browser)) as (host, friend):
        relays = f"{media['trackers'][1]},{media['nostr'][1]}"
        href = host_table(host, base_url, relays, seed=5)
        relays_open(host, 2)
        proc = media[gone][0]
        proc.kill()  # down, as a relay that stops answering (not a clean close of its sockets)
        proc.wait(timeout=10)
        relays_open(host, 1)
        join(friend, href, 1)
        down = time.monotonic()  # both pages have seen the stopped relay refuse them by now
        dealt(host, friend)
        host_id = friend.page.evaluate(f"{CONN}.peers()")
        assert len(host_id) == 1
        assert friend.page.evaluate(f"p => {CONN}.mediaOf(p)", host_id[0]) == [left]
        played_on_both(host, friend)
        # past the time a page waits before it says no relay answers (RELAYS_MS, 5 s, in
        # js/friends/net.js) since both saw the stopped relay refuse them: one medium is enough
        # (the deal's start and the play above have taken part of that time already)
        time.sleep(max(0.0, 6 - (time.monotonic() - down)))
        for p in (host, friend):
            assert p.page.evaluate(f"{CONN}.health()")["problem"] != "relays"
            assert "No relay answers" not in (p.page.text_content("body") or "")
            # the browser's own reports of the stopped relay's refused sockets are no error of the page
            p.errors = [e for e in p.errors if "WebSocket" not in e]


@pytest.mark.parametrize("given", ["trackers", "nostr"])
def test_one_medium_alone_is_enough(rtc_browser, base_url, given):
    """Only trackers, or only Nostr relays, given: the pages meet through that one, and a card
    played shows on both pages."""
    with two_media() as media, closing_all(Person(rtc_browser), Person(rtc_browser)) as (host, friend):
        href = host_table(host, base_url, media[given][1], seed=6)
        join(friend, href, 1)
        dealt(host, friend)
        for p, other in ((host, friend), (friend, host)):
            other_id = other.page.evaluate(f"{CONN}.self")
            assert p.page.evaluate(f"{CONN}.peers()") == [other_id]
            assert p.page.evaluate(f"p => {CONN}.mediaOf(p)", other_id) == [given]
            assert p.page.evaluate(f"{CONN}.health()")["relaysOpen"] == 1
        played_on_both(host, friend)


def test_both_media_one_peer_each_message_once(rtc_browser, base_url, relay):
    """Both media up: each page connects to the other through both, yet sees one peer, and every
    message reaches the friend's page once: every data-channel message it received, on either
    connection, is kept (the spy), and no answer to its requests (each its own id) came twice."""
    with closing_all(Person(rtc_browser), Person(rtc_browser, spy=True)) as (host, friend):
        href = host_table(host, base_url, relay, seed=8)
        join(friend, href, 1)
        dealt(host, friend)
        host_id = friend.page.evaluate(f"{CONN}.peers()")
        assert len(host_id) == 1
        # the second medium's connection comes too (Nostr answers an announce at once)
        friend.page.wait_for_function(f"p => {CONN}.mediaOf(p).length === 2", arg=host_id[0], timeout=60000)
        friend_id = friend.page.evaluate(f"{CONN}.self")
        assert host.page.evaluate(f"{CONN}.peers()") == [friend_id]
        for _ in range(4):
            played_on_both(host, friend)
        answers = [m["id"] for m in received(friend) if m.get("t") == "res"]
        assert answers and len(answers) == len(set(answers)), answers
