"""A table that deals fairly (docs/friends.md, "The fair deal"; js/friends/fair.js), played by
two people, one browser context each, through the real friends layer: the host's link asks
for it (`fair=1`), each page deals by the fair protocol with its own engine, and a whole
classic deal is clicked through. At several points mid-deal the host's table (its state, what
its page draws) and its worker's fair deal (what it would keep) hold no card of the friend's
unplayed hand; the friend's the same of the host's; at the end both pages say, in words, that
the deal was checked fair on their device, with the same points; the friend reviews its seat,
and the next deal starts on both and plays. The table deals a match (best of three): each page
shows the same table's code under the names and on the end screen, the score after the first
deal on both, and the second deal is dealt by the match's next dealer, both pages' matches
agreeing; a deal the friend's page refuses as not the match's next ends uncounted on both, and
the next is a new match's. The reloads: each page's mid-deal; the host's after a deal of a match
(its end shown again, the next dealt when asked) while the friend's page lost its records (it
takes the host's, said to be the host's word); a new match after one, its dealer passed on; the
host's "End the deal now", said on both pages. Helpers come from test_friends.py."""
import json
import re

import pytest

from pagekit import shot
from test_a11y import TEXT_CONTRAST_JS, violations
from test_friends import Person, closing_all, dealt, host_table, join, play_one, relay, whose_turn  # noqa: F401 (relay: the fixture)

pytestmark = pytest.mark.browser

CODES = re.compile(r'"([A2-9JHK][DCSB])"')

# What the page's own fair deal holds (its worker's, through the page's engine) and its hand.
HELD_JS = """async () => {
  const app = window.__briscola.app;
  const fair = app.friends.fair;
  const { deal } = await fair.local.call("fair_save", {});
  return { known: deal.known, hand: fair.fs.fair.hand().map(([, c]) => c), seat: fair.seat,
           state: JSON.stringify({ ...window.__briscola.state, card_points: null }) }; // (every counting card's points)
}"""


def test_two_people_play_a_fair_deal_and_neither_device_sees_the_others_cards(rtc_browser, base_url, relay, artifacts):
    with closing_all(Person(rtc_browser, 390, 844), Person(rtc_browser, spy=True)) as (host, friend):
        href = host_table(host, base_url, relay, variant="best-of-3", seed=11, extra="&fair=1")
        join(friend, href, 1)
        dealt(host, friend)
        # the table's code under the names, the same on both pages once the keys are in
        codes = [p.page.wait_for_selector("#fair-code", timeout=60000).text_content() for p in (host, friend)]
        assert codes[0] == codes[1] and re.fullmatch(r"Table code \d{3}\u00a0\d{3}\u00a0\d{3}", codes[0])
        # read out (a status line), and axe finds nothing at the table with it, on a phone and a desktop
        assert all(p.page.get_attribute("#fair-code", "role") == "status" for p in (host, friend))
        found = [v for p, where in ((host, "host"), (friend, "friend")) for v in violations(p.page, f"the fair table, {where}")
                 + [f"{where}: text contrast {x}" for x in p.page.evaluate(TEXT_CONTRAST_JS)]]
        assert not found, "\n".join(found)
        first = [p.page.evaluate(DEALER_JS) for p in (host, friend)]
        assert first[0] == first[1] and first[0] in (0, 1)
        checks = 0
        steps = 0
        while play_one([host, friend], timeout=120):
            steps += 1
            if steps % 9 == 4:
                held = [p.page.evaluate(HELD_JS) for p in (host, friend)]
                for me, other in ((0, 1), (1, 0)):
                    theirs = set(held[other]["hand"])
                    if not theirs:
                        continue  # (the last cards played)
                    mine = set(held[me]["known"].values())
                    assert not theirs & mine, (me, theirs & mine)  # the worker's fair deal
                    shown = set(CODES.findall(held[me]["state"]))
                    assert not theirs & shown, (me, theirs & shown)  # the page's table
                checks += 1
                if checks == 2:
                    shot(host.page, str(artifacts / "friends-fair-host-phone.png"))
                    shot(friend.page, str(artifacts / "friends-fair-friend.png"))
        assert checks >= 3 and steps >= 40
        for p in (host, friend):
            p.page.wait_for_function("() => document.getElementById('notice')?.textContent.includes('the deal was fair')", timeout=60000)
        assert host.page.evaluate("window.__briscola.state.view.phase") == "over"
        points = [p.page.evaluate("window.__briscola.state.summary.points") for p in (host, friend)]
        assert points[0] == points[1] and sum(points[0]) == 120
        # the match after its first deal, the same on both pages: one deal won (none at 60-60)
        matches = [p.page.evaluate("window.__briscola.state.match") for p in (host, friend)]
        assert matches[0] == matches[1] and matches[0]["format"] == "best3" and not matches[0]["over"]
        assert sum(matches[0]["score"]) == (0 if points[0][0] == points[0][1] else 1), matches[0]
        for p in (host, friend):
            p.page.wait_for_selector("#summary-dialog[open] .match-score", timeout=30000)
            score = p.page.eval_on_selector_all("#summary-dialog .match-score b", "bs => bs.map((b) => Number(b.textContent))")
            assert score == matches[0]["score"], score
            # the end screen: the check on this device, and the table's code
            p.page.wait_for_function("c => { const e = document.getElementById('sum-fair'); return e && e.textContent.includes('the deal was fair') && e.textContent.includes(c); }",
                                     arg=codes[0].replace("\u00a0", " "), timeout=30000)
        shot(host.page, str(artifacts / "friends-fair-host-end-phone.png"))
        # each page reviews its own seat with its own engine, from the deal's record (every
        # card public by then, the deal checked fair)
        friend.page.wait_for_selector("#summary-dialog[open]")
        friend.page.click("#sum-review")
        friend.page.wait_for_selector("#review-dialog[open] #rv-accuracy", timeout=180000)
        assert friend.page.eval_on_selector_all("#rv-seat option", "os => os.map(o => o.value)") == ["1"]
        friend.page.click("#rv-close")
        # the match's next deal (the host's "Next deal"): both pages show it, dealt by the match's
        # next dealer (each friend's engine refuses another), and it plays
        host.page.wait_for_selector("#summary-dialog[open] #sum-next")
        assert not friend.page.query_selector("#summary-dialog #sum-next")  # (the host deals it)
        host.page.click("#sum-next")
        for p in (host, friend):
            p.page.wait_for_function("() => window.__briscola.state && window.__briscola.state.round === 1 && window.__briscola.state.view.events.length < 5", timeout=60000)
        assert [p.page.evaluate(DEALER_JS) for p in (host, friend)] == [1 - first[0]] * 2
        assert play_one([host, friend], timeout=120) and play_one([host, friend], timeout=120)
        again = [p.page.evaluate("window.__briscola.state.match") for p in (host, friend)]
        assert again[0] == again[1] and again[0]["deal"] == 1 and again[0]["score"] == matches[0]["score"]
        # a new round, new keys: another code, the same on both pages
        later = [p.page.wait_for_selector("#fair-code", timeout=60000).text_content() for p in (host, friend)]
        assert later[0] == later[1] and later[0] != codes[0]
        # a host's page that deals the match's third deal with another dealer than the match's: the
        # friend's engine refuses it, in words, and tells the host's page, which ends it uncounted
        # on every device, says so and offers the next deal: a new match (the devices disagree on
        # this one), dealt by the seat after the last deal counted, as "play again" passes it on
        host.page.evaluate(TAMPER_JS, {"dealer": first[0]})
        friend.page.wait_for_function(REFUSED_JS, timeout=60000)
        host.page.wait_for_function("() => document.getElementById('notice')?.textContent.includes('refused it')", timeout=60000)
        assert host.page.evaluate("window.__briscola.app.friends.fair.why") == "refused"
        host.page.wait_for_selector("#friends-bar .problem:has-text('starts a new match')", timeout=30000)
        host.page.evaluate(RANDOM_SEAT_JS, first[0])  # (a dealer drawn at random now: deal 1's)
        host.page.click("#fair-again")
        for p in (host, friend):
            p.page.wait_for_function("() => { const st = window.__briscola.state; return st && st.round === 3 && st.match.deal === 0"
                                     " && st.view.events.length < 5; }", timeout=60000)
        assert [p.page.evaluate(DEALER_JS) for p in (host, friend)] == [1 - first[0]] * 2
        assert [p.page.evaluate("window.__briscola.state.match.score") for p in (host, friend)] == [[0, 0]] * 2
        # a deal sent to the friend's page counting another number of deals before it: refused there
        for wrong in ({"dealer": 1 - first[0], "deal": 1}, {"dealer": 1 - first[0], "deal": 2}):
            said = friend.page.evaluate(WRONG_DEAL_JS, wrong)
            assert said["fs"] is False and said["refused"] and "not this match's next one" in said["notice"], said


def test_the_lobby_says_what_a_fair_table_checks_when_the_deal_ends(rtc_browser, base_url, relay):
    """Under rules whose obligations depend on the rest of a hand (here signals), the host's
    lobby says, with "Deal fairly" checked, that they are checked when the deal ends; unchecked,
    it says nothing of it (classic rules have nothing to say: test_masked.py's hand_checks)."""
    with closing_all(Person(rtc_browser)) as (host,):
        host_table(host, base_url, relay, variant="four-signals", extra="&fair=1")
        note = host.page.wait_for_selector("#friends-fair-later", timeout=60000)
        assert "each signal is true" in note.text_content() and "when the deal ends" in note.text_content()
        host.page.click("label[for=friends-fair]")
        host.page.wait_for_selector("#friends-fair-later", state="detached", timeout=10000)
        host.page.click("label[for=friends-fair]")
        host.page.wait_for_selector("#friends-fair-later", timeout=10000)


DEALER_JS = "() => window.__briscola.app.friends.fair.fs.dealer"


def next_deal_dealt_by(host, friend, button, round_, drawn, dealer):
    """The host clicks `button` for the next deal, the next random seat drawn on its page being
    `drawn` (so that a dealer drawn at random would be that one); both pages reach `round_`,
    and the deal's dealer is `dealer` on both."""
    host.page.evaluate(RANDOM_SEAT_JS, drawn)
    host.page.click(button)
    for p in (host, friend):
        p.page.wait_for_function(ROUND_JS, arg=round_, timeout=60000)
    assert [p.page.evaluate(DEALER_JS) for p in (host, friend)] == [dealer] * 2
# the host's page deals another deal mid-deal, its fair_go to the friend changed by `wrong`
TAMPER_JS = """async (wrong) => {
  const host = window.__briscola.app.friends, send = host.send;
  host.send = (peer, msg) => send.call(host, peer, msg && msg.t === "fair_go" ? { ...msg, ...wrong } : msg);
  try { await host.playAgain(); } finally { delete host.send; }
}"""
REFUSED_JS = """() => { const fair = window.__briscola.app.friends.fair;
  return fair.refused && !fair.fs && document.getElementById("notice")?.textContent.includes("not this match's next one"); }"""
# the next seat drawn at random on this page (a dealer: crypto.getRandomValues of one number) is `seat`
RANDOM_SEAT_JS = """(seat) => {
  const own = crypto.getRandomValues.bind(crypto);
  crypto.getRandomValues = (a) => { if (!(a instanceof Uint32Array && a.length === 1)) return own(a); crypto.getRandomValues = own; a[0] = seat; return a; };
}"""
# a friend's page sent the next round's fair_go with `wrong`'s dealer and count of deals
WRONG_DEAL_JS = """async (wrong) => {
  const g = window.__briscola.app.friends, fair = g.fair;
  g.heard({ t: "fair_go", table: fair.table + ":x", round: fair.round + 1, owner: fair.owner, rules: fair.rules, seats: fair.seats,
            me: fair.me, seat: fair.seat, ...wrong });
  for (let i = 0; i < 100 && g.fair === fair; i++) await new Promise((r) => setTimeout(r, 50));
  await g.fair.begun;
  return { fs: !!g.fair.fs, refused: !!g.fair.refused, notice: document.getElementById("notice")?.textContent || "" };
}"""


# What a page keeps of its fair deal in its own storage (js/friends/fair-kept.js), as JSON text,
# the deck's list of card codes (every code of the variant, in no dealt order) left out.
KEPT_JS = """async (key) => {
  const db = await new Promise((ok, no) => { const r = indexedDB.open("briscola-fair", 1); r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
  const rec = await new Promise((ok, no) => { const q = db.transaction("tables").objectStore("tables").get(key); q.onsuccess = () => ok(q.result ?? null); q.onerror = () => no(q.error); });
  db.close();
  if (rec && rec.deal) rec.deal.fs.fair.options.deck = null;
  return rec && JSON.stringify(rec);
}"""
# the record `key` of the page's fair storage deleted (as a person clearing the site's storage)
FORGET_JS = """async (key) => {
  const db = await new Promise((ok, no) => { const r = indexedDB.open("briscola-fair", 1); r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
  await new Promise((ok, no) => { const tx = db.transaction("tables", "readwrite"); tx.objectStore("tables").delete(key); tx.oncomplete = ok; tx.onerror = () => no(tx.error); });
  db.close();
}"""
HAND_JS = "() => window.__briscola.app.friends.fair.fs.fair.hand().map(([, c]) => c)"
ROOM_JS = "() => window.__briscola.app.friends.room"
BAD_INPUT_JS = """async () => {
  const g = window.__briscola.app.friends, fair = g.fair;
  for (const msg of [{ t: "fair_void", round: 3, device: 0 }, { t: "fair_void", round: 0, device: 1 }, { t: "fair_void", round: 0, device: 0 },
      { t: "fair_void", round: 0, device: "1" }, { t: "fair_go", round: 0, table: fair.table, seat: 0, me: 0, owner: fair.owner, rules: fair.rules, dealer: fair.dealer, seats: fair.seats, back: true },
      { t: "fair", from: 0, m: { v: 1, t: "fair", k: "say", table: fair.table, round: 9, from: 0, seq: 0, action: "pass" } }]) g.heard(msg);
  await new Promise((r) => setTimeout(r, 300));
  await fair.queue;
  return g.fair !== fair ? "another deal" : fair.voided || fair.fs.stopped || fair.lost || null;
}"""
# the page's table shows every card of `h` in its hand
HAS_HAND_JS = "h => { const mine = window.__briscola.state.view.hand; return h.every((c) => mine.includes(c)); }"
# the page shows the start of the fair deal of round `r`
ROUND_JS = "(r) => { const st = window.__briscola.state; return !!st && st.round === r && st.view.events.length < 5 && !!window.__briscola.app.friends.fair.fs; }"
FAIR_END_JS = "() => document.getElementById('notice')?.textContent.includes('the deal was fair')"


def kept_holds_nothing_of(page, key, others_hand, own_hand):
    """What `page` kept under `key` is its deal (its own unplayed cards in it) and holds no card
    of the other device's unplayed hand."""
    text = page.evaluate(KEPT_JS, key)
    assert text, f"nothing kept under {key}"
    kept = json.loads(text)
    assert kept["deal"]["fs"]["fair"]["secrets"]["x"]  # (the device's key: its own storage only)
    codes = set(CODES.findall(text))
    assert set(own_hand) <= codes, "the page's own cards are not in what it kept"
    assert others_hand and not set(others_hand) & codes, sorted(set(others_hand) & codes)


def until_the_turn_of(person, people, steps):
    """Play on (at least `steps` cards) until it is `person`'s turn; how many were played."""
    n = 0
    while n < steps or whose_turn(people) is not person:
        assert play_one(people, timeout=120)
        n += 1
    return n


def play_to_the_end_checked_fair(host, friend, steps):
    while play_one([host, friend], timeout=120):
        steps += 1
    assert steps == 40
    for p in (host, friend):
        p.page.wait_for_function(FAIR_END_JS, timeout=60000)
    points = [p.page.evaluate("window.__briscola.state.summary.points") for p in (host, friend)]
    assert points[0] == points[1] and sum(points[0]) == 120


def test_a_friend_s_page_reloaded_mid_deal_carries_on_and_the_deal_ends_checked_fair(rtc_browser, base_url, relay):
    with closing_all(Person(rtc_browser), Person(rtc_browser)) as (host, friend):
        href = host_table(host, base_url, relay, seed=13, extra="&fair=1")
        join(friend, href, 1)
        dealt(host, friend)
        steps = until_the_turn_of(host, [host, friend], 5)
        hand = friend.page.evaluate("window.__briscola.state.view.hand")
        room = friend.page.evaluate(ROOM_JS)
        friend.page.reload()
        # the host plays while the friend's page is away: its device missed that, and is sent it
        # again once back (it says what it has heard: fair_heard)
        assert play_one([host], timeout=120)
        dealt(friend)
        # its own deal again, from what it kept: the same hand (and the card drawn since, where the
        # host's card ended the trick), the same deal
        friend.page.wait_for_function(HAS_HAND_JS, arg=hand, timeout=60000)
        assert friend.page.evaluate("window.__briscola.app.friends.fair.fs.fair.round") == 0
        kept_holds_nothing_of(friend.page, f"guest:{room}", host.page.evaluate(HAND_JS), hand)
        # bad input changes nothing: an end of another deal, or naming this device or the host's,
        # a deal sent again for another seat, a fair message of another round
        assert friend.page.evaluate(BAD_INPUT_JS) is None
        play_to_the_end_checked_fair(host, friend, steps + 1)
        # the deal over and checked: its snapshot is gone from the friend's storage; what stays is
        # the deal's public record, for the match's next deal (classic: a single deal, none)
        friend.page.wait_for_function(f"() => ({KEPT_JS})('guest:{room}').then((t) => t !== null && JSON.parse(t).deal === null)", timeout=30000)
        assert json.loads(friend.page.evaluate(KEPT_JS, f"guest:{room}"))["past"] == []
        # a new match after this one (classic: a match of one deal) is dealt by the seat after
        # this deal's dealer, as "play again" passes the deal on at any table (a dealer drawn at
        # random there would be this one again)
        dealer = host.page.evaluate(DEALER_JS)
        host.page.wait_for_selector("#summary-dialog[open] #sum-again", timeout=30000)
        next_deal_dealt_by(host, friend, "#sum-again", 1, dealer, 1 - dealer)
        # its friend's page gone, the host ends the deal now: uncounted, said on the host's page,
        # and on the friend's once back; the next deal, dealt by the same seat (the deal ended did
        # not count), plays on both
        assert play_one([host, friend], timeout=120)
        url = friend.page.url
        friend.page.goto("about:blank")
        host.page.click("#fair-end", timeout=60000)
        host.page.wait_for_function("() => document.getElementById('notice')?.textContent.includes('does not count')", timeout=30000)
        host.page.wait_for_selector("#fair-again", timeout=30000)
        friend.page.goto(url)
        friend.page.wait_for_function("() => document.getElementById('notice')?.textContent.includes('while your device was away')", timeout=120000)
        assert friend.page.evaluate("window.__briscola.app.friends.fair.voided.device") == 1
        host.page.wait_for_selector("#friends-bar li[data-seat='1'][data-state='on']", timeout=60000)
        next_deal_dealt_by(host, friend, "#fair-again", 2, dealer, 1 - dealer)
        assert play_one([host, friend], timeout=120)


def test_the_host_s_page_reloaded_mid_deal_carries_on_and_the_deal_ends_checked_fair(rtc_browser, base_url, relay):
    with closing_all(Person(rtc_browser), Person(rtc_browser)) as (host, friend):
        href = host_table(host, base_url, relay, variant="best-of-3", seed=17, extra="&fair=1")
        join(friend, href, 1)
        dealt(host, friend)
        steps = until_the_turn_of(friend, [host, friend], 6)
        hand = host.page.evaluate("window.__briscola.state.view.hand")
        room = host.page.evaluate(ROOM_JS)
        host.page.reload()
        # the friend plays while the host's page is away: the host's device missed it, and is sent
        # it again once its page is back (how many it heard: fair_go's `heard`)
        assert play_one([friend], timeout=120)
        # the host's page hosts its table again, in the same room, and carries its deal on
        host.page.wait_for_function("() => window.__briscola && window.__briscola.state && window.__briscola.app.friends"
                                    " && window.__briscola.app.friends.fair && window.__briscola.app.friends.fair.fs", timeout=120000)
        assert host.page.evaluate(ROOM_JS) == room
        host.page.wait_for_function(HAS_HAND_JS, arg=hand, timeout=60000)
        host.page.wait_for_selector("#friends-bar li[data-seat='1'][data-state='on']", timeout=90000)
        kept = json.loads(host.page.evaluate(KEPT_JS, f"host:{room}"))
        assert kept["table"]["room"] == room and kept["table"]["seats"][1]["token"]
        kept_holds_nothing_of(host.page, f"host:{room}", friend.page.evaluate(HAND_JS), hand)
        play_to_the_end_checked_fair(host, friend, steps + 1)
        # a reload mid-match: the host's page back after the deal shows its end as before (the
        # summary, the check on its device, the match's score, "Next deal") and deals nothing
        # until asked; the friend's page back meanwhile with its storage cleared (none of the
        # match's records kept there) takes the host's, said to be the host's word, and both
        # deal the match's next, the score kept
        host.page.wait_for_selector("#summary-dialog[open] #sum-next", timeout=30000)
        score = host.page.evaluate("window.__briscola.state.match.score")
        dealer = host.page.evaluate(DEALER_JS)
        friend.page.evaluate(FORGET_JS, f"guest:{room}")
        friend.page.reload()
        host.page.reload()
        host.page.wait_for_selector("#summary-dialog[open] #sum-next", timeout=120000)
        host.page.wait_for_function("() => document.getElementById('sum-fair')?.textContent.includes('the deal was fair')", timeout=30000)
        assert host.page.evaluate("[window.__briscola.app.friends.fair.round, window.__briscola.state.match.score]") == [0, score]
        host.page.wait_for_selector("#friends-bar li[data-seat='1'][data-state='on']", timeout=120000)
        host.page.click("#sum-next")
        for p in (host, friend):
            p.page.wait_for_function("() => { const st = window.__briscola.state; return st && st.round === 1 && st.match.deal === 1"
                                     " && st.view.events.length < 5; }", timeout=90000)
        matches = [p.page.evaluate("window.__briscola.state.match") for p in (host, friend)]
        assert matches[0] == matches[1] and matches[0]["score"] == score, matches
        assert [p.page.evaluate(DEALER_JS) for p in (host, friend)] == [1 - dealer] * 2
        friend.page.wait_for_selector("#friends-bar .problem:has-text(\"the host's word\")", timeout=30000)
        assert play_one([host, friend], timeout=120)


def test_a_friend_gone_for_good_is_said_the_deal_ends_uncounted_and_a_computer_plays_the_next(rtc_browser, base_url, relay):
    with closing_all(Person(rtc_browser), Person(rtc_browser)) as (host, friend):
        href = host_table(host, base_url, relay, seed=19, extra="&fair=1&friends_timeout=4")
        join(friend, href, 1)
        dealt(host, friend)
        for _ in range(4):
            assert play_one([host, friend], timeout=120)
        friend.context.close()  # gone for good
        # the host's page says whom the deal waits for and what follows
        host.page.wait_for_selector("#friends-bar .problem:has-text(\"The deal waits for Bruno's device\")", timeout=60000)
        assert "within 4 s" in host.page.text_content("#friends-bar .problem")
        # then the deal ends uncounted, said in words, and the next deal is offered
        host.page.wait_for_function("() => document.getElementById('notice')?.textContent.includes('does not count')", timeout=60000)
        assert host.page.evaluate("window.__briscola.app.friends.fair.voided.device") == 1
        # a card played at the deal that ended is refused in words (not an error of the page's)
        refused = host.page.evaluate("""() => window.__briscola.app.engine.call("act", { action: window.__briscola.state.view.hand[0] })
          .then(() => null, (err) => err.code)""")
        assert refused == "fair_over"
        # the host's page reloaded now shows the deal as it ended, and what follows, again: the
        # next deal waits for the host
        host.page.reload()
        host.page.wait_for_selector("#fair-again", timeout=120000)
        assert host.page.evaluate("window.__briscola.app.friends.fair.voided.device") == 1
        assert host.page.evaluate("window.__briscola.state.view.events.filter((e) => e.type === 'play').length") == 4
        host.page.click("#fair-again")
        # no friend's device left at the table: the host's engine deals (a fair deal needs two
        # devices), a computer in the friend's seat, on the host's device
        host.page.wait_for_function("() => { const st = window.__briscola.state; return st && st.game && st.view.events.length < 5; }", timeout=60000)
        assert host.page.evaluate("window.__briscola.state.seats[1].kind") == "bot"
        assert host.page.evaluate("window.__briscola.app.friends.fair") is None
        for _ in range(3):
            assert play_one([host], timeout=120)
        events = host.page.evaluate("window.__briscola.state.view.events")
        assert any(e["type"] == "play" and e["seat"] == 1 for e in events)
