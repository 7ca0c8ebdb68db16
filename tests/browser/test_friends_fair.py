"""A table that deals fairly (docs/friends.md, "The fair deal"; js/friends/fair.js), played by
two people, one browser context each, through the real friends layer: the host's link asks
for it (`fair=1`), each page deals by the fair protocol with its own engine, and a whole
classic deal is clicked through. At several points mid-deal the host's table (its state, what
its page draws) and its worker's fair deal (what it would keep) hold no card of the friend's
unplayed hand; the friend's the same of the host's; at the end both pages say, in words, that
the deal was checked fair on their device, with the same points; the friend reviews its seat,
and the next deal starts on both and plays. Helpers come from test_friends.py."""
import json
import re

import pytest

from pagekit import shot
from test_friends import Person, closing_all, dealt, host_table, join, play_one, relay  # noqa: F401 (relay: the fixture)

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
        href = host_table(host, base_url, relay, seed=11, extra="&fair=1")
        join(friend, href, 1)
        dealt(host, friend)
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
        shot(host.page, str(artifacts / "friends-fair-host-end-phone.png"))
        # each page reviews its own seat with its own engine, from the deal's record (every
        # card public by then, the deal checked fair)
        friend.page.wait_for_selector("#summary-dialog[open]")
        friend.page.click("#sum-review")
        friend.page.wait_for_selector("#review-dialog[open] #rv-accuracy", timeout=180000)
        assert friend.page.eval_on_selector_all("#rv-seat option", "os => os.map(o => o.value)") == ["1"]
        friend.page.click("#rv-close")
        # the next fair deal with the same friends: both pages show it, and it plays
        host.page.wait_for_selector("#summary-dialog[open]")
        host.page.click("#summary-dialog button:has-text('Play again with the same friends')")
        for p in (host, friend):
            p.page.wait_for_function("() => window.__briscola.state && window.__briscola.state.round === 1 && window.__briscola.state.view.events.length < 5", timeout=60000)
        assert play_one([host, friend], timeout=120) and play_one([host, friend], timeout=120)


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
