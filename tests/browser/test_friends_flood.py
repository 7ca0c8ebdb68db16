"""No friend can stall the table (docs/friends.md, "The referee"): a friend's page that floods
the host's with requests, or with parts of a message it never finishes, through its real data
channel. The host's own requests are still answered, the friend's own card is still taken, the
flooder is told, and the host's memory comes back.

The host's own request delay under the flood is measured and printed (run with -s), not
asserted: it depends on the machine's load. Helpers come from test_friends.py."""
import json
import statistics
import time

import pytest

from test_friends import Person, closing_all, open_table, play_one, relay, whose_turn  # noqa: F401 (relay: the fixture)

pytestmark = pytest.mark.browser

# The friend's page sends `n` requests through its real channel (the page's own send), spread
# over `ms` milliseconds.
FLOOD = """async ({n, ms, type}) => {
  const g = window.__briscola.app.friends;
  const batches = 10;
  for (let b = 0; b < batches; b++) {
    for (let i = 0; i < n / batches; i++) g.send({ t: "req", id: 500000 + b * 1000 + i, type, args: { lang: "en" } });
    await new Promise((r) => setTimeout(r, ms / batches));
  }
}"""

# On the host's page: its own worker asked for the table every `every` ms for `ms` ms, each
# answer's delay kept (window.__delays), from now on.
MEASURE = """({every, ms}) => {
  const app = window.__briscola.app;
  const out = window.__delays = [];
  const end = performance.now() + ms;
  const one = async () => {
    const t0 = performance.now();
    await app.engine.call("state", { game: app.game, seat: 0 });
    out.push(performance.now() - t0);
  };
  const loop = async () => {
    const pending = [];
    while (performance.now() < end) {
      pending.push(one());
      await new Promise((r) => setTimeout(r, every));
    }
    await Promise.all(pending);
    window.__measured = true;
  };
  window.__measured = false;
  loop();
}"""


def delays(host: Person):
    """The delays MEASURE kept, once its last request is answered."""
    host.page.wait_for_function("() => window.__measured", timeout=300000)
    return host.page.evaluate("window.__delays")


def friends_card_taken(host: Person, friend: Person, seat=1, timeout=120.0):
    """Plays until the friend's turn; the friend clicks a card: seconds until the host's table
    has it."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        p = whose_turn([host, friend])
        if p is host:
            play_one([host, friend])
            continue
        if p is friend:
            plays = sum(1 for e in host.state()["view"]["events"] if e["type"] == "play" and e["seat"] == seat)
            t0 = time.monotonic()
            friend.page.locator(".hand-card.playable").first.click()
            host.page.wait_for_function(
                "([seat, n]) => window.__briscola.state.view.events.filter(e => e.type === 'play' && e.seat === seat).length > n",
                arg=[seat, plays], timeout=int(timeout * 1000))
            return time.monotonic() - t0
        time.sleep(0.05)
    raise TimeoutError("the friend's turn never came")


@pytest.mark.parametrize("kind", ["hint", "state"])
def test_a_flood_of_requests_does_not_stall_the_host(rtc_browser, base_url, relay, artifacts, kind):
    """1,000 requests in 0.1 s through the friend's real channel: hints (refused without the
    worker) or views (at most 4 of a peer wait for the worker), while the host's page asks its
    own worker for the table every 50 ms."""
    with closing_all(Person(rtc_browser), Person(rtc_browser)) as (host, friend):
        open_table(host, friend, base_url, relay, seed=21)
        # calm: the host's own requests, for comparison
        host.page.evaluate(MEASURE, {"every": 50, "ms": 1500})
        calm = delays(host)
        host.page.evaluate(MEASURE, {"every": 50, "ms": 3000})
        t0 = time.monotonic()
        friend.page.evaluate(FLOOD, {"n": 1000, "ms": 100, "type": kind})
        sent_in = time.monotonic() - t0
        flooded = delays(host)
        # the table still plays: the friend's own card is taken
        took = friends_card_taken(host, friend)
        figures = {"kind": kind, "calm_median_ms": statistics.median(calm), "flood_median_ms": statistics.median(flooded),
                   "flood_max_ms": max(flooded), "flood_sent_s": sent_in, "friends_card_s": took, "asked": len(flooded)}
        print("flood figures:", json.dumps(figures))
        (artifacts / f"friends-flood-{kind}.json").write_text(json.dumps(figures, indent=1))
        # the flooder was told, in words its page shows; nothing of it waits for the worker
        friend.page.wait_for_function("() => /slow down/.test(document.getElementById('notice')?.textContent || '')",
                                      timeout=30000)
        referee = host.page.evaluate("(() => { const r = window.__briscola.app.friends.referee;"
                                     " return [...r.peers.values()].map((p) => ({seat: p.seat, waiting: p.waiting})); })()")
        assert {"seat": 1, "waiting": 0} in referee
        assert len(flooded) >= 40


# A frame of 16 KB to send (`part`) through the friend's open channel (`channel`), its room's
# header and action name copied from the last frame the page sent (FRAMES keeps them): `at`,
# where that header ends.
MODEL = """  const frames = [...window.__frames];
  const model = frames.reverse().find((f) => f.length > 40 && f[0] === 1);
  const at = 3 + ((model[1] << 8) | model[2]);
  const channel = [...window.__channels].find((c) => c.readyState === "open");
  const part = new Uint8Array(at + 36 + 16000);
  part.set(model.subarray(0, at + 32));
"""

# The friend's page sends, through its real channel, parts of one message it never finishes
# (Trystero's frames, with the room's header copied from a frame the page sent): `mb` megabytes
# in parts of 16 KB, as fast as the channel takes them, until the channel closes.
PARTS = """async ({mb}) => {
""" + MODEL + """  part[at + 32] = 0xbe; part[at + 33] = 0xef; // a nonce of its own
  part[at + 34] = 0; // not the last
  part[at + 35] = 1;
  let sent = 0;
  const parts = Math.round(mb * 1000000 / 16000);
  for (let i = 0; i < parts; i++) {
    if (channel.readyState !== "open") break;
    while (channel.bufferedAmount > 1000000 && channel.readyState === "open") await new Promise((r) => setTimeout(r, 5));
    try { channel.send(part); } catch { break; }
    sent++;
  }
  return { sent, state: channel.readyState };
}"""

# Every data channel the page sends on, and its last 20 frames (window.__channels,
# window.__frames): PARTS copies the room's header from one.
FRAMES = """(() => {
  const send = RTCDataChannel.prototype.send;
  window.__channels = new Set();
  window.__frames = [];
  RTCDataChannel.prototype.send = function (data) {
    window.__channels.add(this);
    if (data instanceof Uint8Array || data instanceof ArrayBuffer) {
      window.__frames.push(new Uint8Array(data.slice ? data.slice(0) : data));
      if (window.__frames.length > 20) window.__frames.shift();
    }
    return send.call(this, data);
  };
})();"""

HEAP = "(() => { if (window.gc) { window.gc(); window.gc(); } return performance.memory.usedJSHeapSize; })()"


def test_a_chunked_message_never_finished_lets_the_flooder_go_and_the_memory_comes_back(rtc_browser, base_url, relay):
    friend = Person(rtc_browser)
    friend.add_init_script(FRAMES)
    with closing_all(Person(rtc_browser), friend) as (host, friend):
        open_table(host, friend, base_url, relay, seed=22)
        time.sleep(2)
        before = host.page.evaluate(HEAP)
        sent = friend.page.evaluate(PARTS, {"mb": 52})
        host.page.wait_for_function("() => !window.__briscola.app.friends.referee.peers.size", timeout=30000)
        time.sleep(3)
        after = host.page.evaluate(HEAP)
        held = host.page.evaluate("window.__briscola.app.friends.referee.unfinished()")
        figures = {"heap_before_mb": before / 1e6, "heap_after_mb": after / 1e6, "parts_sent": sent["sent"],
                   "parts_held": held}
        print("parts figures:", json.dumps(figures))
        # let go after a few parts (past 64 KB), its parts forgotten, the host's memory as it was
        assert sent["sent"] < 200, sent
        assert held == 0
        assert after - before < 8e6, figures
        # the friend comes back to its seat, and the deal goes on
        host.page.wait_for_function("() => window.__briscola.app.friends.seats[1].peer", timeout=180000)
        friends_card_taken(host, friend)


# The friend's page sends, through its real channel, whole frames that Trystero would keep
# (mends.js, mend 5): of another room (its token's first character changed) or of an action no
# page uses ("zz"), 16 KB each, as fast as the channel takes them, until it closes or `mb` go.
KEPT = """async ({mb, kind}) => {
""" + MODEL + """  if (kind === "room") part[3] = part[3] === 0x61 ? 0x62 : 0x61;
  else { part.fill(0, at, at + 32); part[at] = 0x7a; part[at + 1] = 0x7a; }
  part[at + 34] = 1; // the last (a whole message)
  part[at + 35] = 255;
  let sent = 0;
  const t0 = performance.now();
  const parts = Math.round(mb * 1000000 / 16000);
  for (let i = 0; i < parts; i++) {
    if (channel.readyState !== "open") break;
    part[at + 32] = i >> 8; part[at + 33] = i & 255;
    while (channel.bufferedAmount > 1000000 && channel.readyState === "open") await new Promise((r) => setTimeout(r, 5));
    try { channel.send(part); } catch { break; }
    sent++;
  }
  return { sent, state: channel.readyState, ms: performance.now() - t0 };
}"""


@pytest.mark.parametrize("kind", ["room", "action"])
def test_frames_trystero_would_keep_are_refused_and_the_flooder_let_go(rtc_browser, base_url, relay, kind):
    """Whole frames of another room, or of an action no page uses, through the friend's real
    channel: Trystero kept every one (the host's heap 5.5 to 509 MB for 500 MB). They never
    reach it now: the flooder is let go within a few frames, and the host's heap stays."""
    friend = Person(rtc_browser)
    friend.add_init_script(FRAMES)
    with closing_all(Person(rtc_browser), friend) as (host, friend):
        open_table(host, friend, base_url, relay, seed=23)
        time.sleep(2)
        before = host.page.evaluate(HEAP)
        t0 = time.monotonic()
        sent = friend.page.evaluate(KEPT, {"mb": 40, "kind": kind})
        host.page.wait_for_function("() => !window.__briscola.app.friends.seats[1].peer", timeout=30000)
        let_go = time.monotonic() - t0
        time.sleep(2)
        after = host.page.evaluate(HEAP)
        figures = {"kind": kind, "heap_before_mb": before / 1e6, "heap_after_mb": after / 1e6, "frames_sent": sent["sent"],
                   "let_go_s": let_go}
        print("kept frames figures:", json.dumps(figures))
        assert sent["sent"] < 200, sent
        assert after - before < 20e6, figures
