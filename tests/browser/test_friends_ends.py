"""No dead ends at a table with friends (js/friends/, docs/friends.md): a friend who leaves the
lobby frees the seat, every waiting dialog has a way out, a full table says so, and a table
whose host has gone says that too, with the score so far and a new game.

The helpers (the relay, the browser with WebRTC on the loopback, the people) are those of
test_friends.py.
"""
from __future__ import annotations

import time

import pytest

from pagekit import SETTLED, wait_ui
from test_friends import (  # noqa: F401  (fixtures)
    Person, closing_all, dealt, host_table, join, named, open_table, play_one, received_views, relay,
)

pytestmark = pytest.mark.browser


def new_page(person: Person):
    """The person opens a new tab in the same browser (its storage kept): console errors counted."""
    person.new_page()


def lobby_seat(host: Person, seat: int, taken: str):
    host.page.wait_for_selector(f"#friends-seats li[data-seat='{seat}'][data-taken='{taken}']", timeout=90000)


def test_a_friend_leaving_the_lobby_frees_the_seat_and_a_dropped_seat_is_said_on_every_page(rtc_browser, base_url, relay):
    with closing_all(Person(rtc_browser), Person(rtc_browser), Person(rtc_browser)) as (host, ada, bea):
        href = host_table(host, base_url, relay, variant="four", seed=3, extra="&friends_timeout=2")
        host.page.fill("#friends-host-name", "Ann")
        host.page.press("#friends-host-name", "Tab")
        join(ada, href, 1, name="Ada")
        lobby_seat(host, 1, "1")
        # seated, the friend reads whom the game waits for
        ada.page.wait_for_selector("#friends-status:has-text('Waiting for Ann to start')")
        # Ada's tab goes before the start: the seat is free again on the host's page
        ada.page.close(run_before_unload=True)
        lobby_seat(host, 1, "0")
        assert host.page.locator("#friends-fill").is_enabled()
        join(bea, href, 2, name="Bea")
        # Ada comes back: seat 1 is free, she takes it again
        new_page(ada)
        join(ada, href, 1, name="Ada")
        lobby_seat(host, 1, "1")
        lobby_seat(host, 2, "1")
        host.page.click("#friends-fill")  # seat 3: a computer
        dealt(host, ada, bea)
        assert [s["kind"] for s in host.state()["seats"]] == ["human", "friend", "friend", "bot"]
        # Ada goes for good: after the host's timeout a computer plays her seat, and Bea's page says so
        ada.page.close(run_before_unload=True)
        host.page.wait_for_selector("#friends-bar li[data-seat='1'][data-state='away']", timeout=90000)
        bea.page.wait_for_selector("#friends-bar li[data-seat='1'][data-state='away']", timeout=60000)
        words = bea.page.locator("#friends-bar li[data-seat='1'] .state").text_content()
        assert words == "away: a computer plays for now"


def test_every_waiting_dialog_has_cancel_and_escape(rtc_browser, base_url, relay):
    with closing_all(Person(rtc_browser), Person(rtc_browser)) as (host, friend):
        href = host_table(host, base_url, relay, variant="four", seed=4)
        join(friend, href, 1)
        lobby_seat(host, 1, "1")
        # Escape on the friend's dialog: the room left (the seat free again), a new game offered
        friend.page.keyboard.press("Escape")
        friend.page.wait_for_selector("#newgame-dialog[open]")
        assert not friend.page.evaluate("document.getElementById('friends-dialog').open")
        assert friend.page.evaluate("window.__briscola.app.friends") is None
        lobby_seat(host, 1, "0")
        # the page is usable: a game against the computer starts from the panel
        friend.page.click("#ng-start")
        friend.page.wait_for_function("() => window.__briscola.state && !document.getElementById('newgame-dialog').open")
        # Cancel, before a seat is taken
        friend.page.goto(href)
        named(friend)  # a page opened again that stays loading is reloaded once (seen in a full run)
        friend.page.wait_for_selector("#friends-cancel")
        friend.page.click("#friends-cancel")
        friend.page.wait_for_selector("#newgame-dialog[open]")
        assert friend.page.evaluate("window.__briscola.app.friends") is None
        # Escape on the host's lobby: its Cancel (the New game panel)
        host.page.keyboard.press("Escape")
        host.page.wait_for_selector("#newgame-dialog[open]")
        assert host.page.evaluate("window.__briscola.app.friends") is None


@pytest.mark.parametrize("lang,words", [("en", "This table is full"), ("it", "Il tavolo è al completo")])
def test_a_late_arrival_at_a_full_table_is_told_so(rtc_browser, base_url, relay, lang, words):
    with closing_all(Person(rtc_browser), Person(rtc_browser), Person(rtc_browser, lang=lang)) as (host, friend, late):
        href = open_table(host, friend, base_url, relay, seed=8)
        late.page.goto(href)
        late.page.wait_for_selector(f"#friends-status:has-text('{words}')", timeout=120000)
        assert late.page.locator("[data-take]").count() == 0
        # and a way out
        late.page.click("#friends-cancel")
        late.page.wait_for_selector("#newgame-dialog[open]")


def test_a_host_leaving_for_another_game_closes_the_table(rtc_browser, base_url, relay):
    with closing_all(Person(rtc_browser), Person(rtc_browser), Person(rtc_browser)) as (host, friend, late):
        href = open_table(host, friend, base_url, relay, seed=9)
        for _ in range(4):
            play_one([host, friend])
        # the host starts a game against the computer: the friend is told the table has closed
        host.page.click("#btn-new")
        host.page.wait_for_selector("#newgame-dialog[open]")
        host.page.click("#ng-start")
        friend.page.wait_for_selector("#friends-dialog[open] #friends-title:has-text('The table has closed')", timeout=60000)
        score = friend.page.locator("#friends-score").text_content()
        assert score.startswith("Points this deal: ") and "Match: " in score
        points = friend.state()["view"]["side_points"]
        assert " – ".join(str(p) for p in points) in score
        friend.page.click("#friends-new")
        friend.page.wait_for_selector("#newgame-dialog[open]")
        # the old invitation, opened later, finds no host (not the old lobby)
        late.page.goto(href + "&friends_gone=4")
        late.page.wait_for_selector("#friends-status:has-text(\"The host's page is not there\")", timeout=60000)
        assert late.page.locator("[data-take]").count() == 0
        wait_ui(host.page, SETTLED)


def test_a_host_page_gone_for_long_is_said_and_its_return_takes_that_back(rtc_browser, base_url, relay):
    with closing_all(Person(rtc_browser), Person(rtc_browser)) as (host, friend):
        href = host_table(host, base_url, relay, seed=10)
        friend.page.goto(href + "&friends_gone=3")
        friend.page.wait_for_selector("#friends-name", timeout=120000)
        friend.page.fill("#friends-name", "Bruno")
        friend.page.click("[data-take='1']", timeout=120000)
        dealt(host, friend)
        play_one([host, friend])
        # the host's page goes (another page in its tab): after the bound the friend is told,
        # with the score so far
        url = host.page.url
        host.page.goto("about:blank")
        friend.page.wait_for_selector("#friends-dialog[open] #friends-title:has-text('The host is not there')", timeout=90000)
        assert friend.page.locator("#friends-score").text_content().startswith("Points this deal: ")
        # the host comes back to the table (it resumes): the friend's dialog goes by itself
        host.page.goto(url)
        try:
            friend.page.wait_for_function("() => !document.getElementById('friends-dialog').open", timeout=120000)
        except Exception as e:
            raise AssertionError(repr([host.page.evaluate("[document.documentElement.dataset.ui, location.href, !!(window.__briscola && window.__briscola.app.friends)]"),
                                       friend.page.evaluate("(() => { const g = window.__briscola.app.friends; return [g.hostHere, g.hostMissing, g.closed, g.conn && g.conn.peers().length]; })()"),
                                       host.errors, friend.errors])) from e
        dealt(host, friend)
        assert play_one([host, friend])


def test_a_new_table_on_the_host_s_page_leaves_the_old_room(rtc_browser, base_url, relay):
    with closing_all(Person(rtc_browser), Person(rtc_browser), Person(rtc_browser)) as (host, friend, late):
        old = open_table(host, friend, base_url, relay, seed=12)
        play_one([host, friend])
        # the host opens another table with a friend's seat from the New game panel
        host.page.click("#btn-new")
        host.page.wait_for_selector("#newgame-dialog[open]")
        host.page.select_option("#ng-seat-1", "friend")
        host.page.wait_for_function("() => !document.getElementById('ng-start').disabled")
        host.page.click("#ng-start")
        new = host.page.wait_for_selector("a[data-invite]", timeout=120000).get_attribute("href")
        assert new != old
        # the old table's friend is told it has closed
        friend.page.wait_for_selector("#friends-dialog[open] #friends-title:has-text('The table has closed')", timeout=60000)
        # the old invitation, opened later, finds nobody: not the new table's lobby, not the old one
        late.page.goto(old + "&friends_gone=4")
        late.page.wait_for_selector("#friends-status:has-text(\"The host's page is not there\")", timeout=60000)
        assert late.page.locator("#friends-seats").count() == 0


# ---- the end of a deal: playing on with the same friends, and a friends' game resumed ----------

def named_table(host: Person, friend: Person, base_url, relay, seed: int, extra="") -> str:
    """A table of two (classic) whose host is called Ann and whose friend Bruno; the deal
    shows on both pages. The invitation link."""
    href = host_table(host, base_url, relay, seed=seed, extra=extra)
    host.page.fill("#friends-host-name", "Ann")
    host.page.press("#friends-host-name", "Tab")
    join(friend, href, 1, name="Bruno")
    dealt(host, friend)
    return href


def to_the_end(host: Person, friend: Person):
    """The two play the deal to its end; both pages show the result."""
    while play_one([host, friend]):
        pass
    for p in (host, friend):
        p.page.wait_for_selector("#summary-dialog[open]")


def counted(person: Person):
    """The deals this browser's statistics counted (their keys)."""
    return person.page.evaluate("JSON.parse(localStorage.getItem('briscola.stats') || '{}').__counted || []")


def test_the_host_plays_again_with_the_same_friends(rtc_browser, base_url, relay):
    with closing_all(Person(rtc_browser), Person(rtc_browser, spy=True)) as (host, friend):
        href = named_table(host, friend, base_url, relay, seed=21)
        room = host.page.evaluate("window.__briscola.app.friends.room")
        old_game = host.state()["game"]
        first_hand = friend.state()["view"]["hand"]
        # marks that a reload of the friend's page, or another table object, would lose
        friend.page.evaluate("window.__same = window.__briscola.app.friends")
        to_the_end(host, friend)
        # the friend's end screen: whom the next deal waits for, and a way out; nothing that deals
        friend.page.wait_for_selector("#summary-dialog #sum-waiting:has-text('Waiting for Ann to start the next deal.')")
        assert friend.page.locator("#summary-dialog #sum-leave").is_visible()
        assert friend.page.locator("#summary-dialog #sum-again, #summary-dialog #sum-next, #summary-dialog .btn.primary").count() == 0
        # looking at the table: its bar leads back to the result, and deals nothing either
        friend.page.click("#summary-dialog button:has-text('Look at the table')")
        friend.page.wait_for_selector("#look-bar #look-result:focus")
        assert friend.page.locator("#look-bar .btn.primary").count() == 0
        friend.page.click("#look-result")
        friend.page.wait_for_selector("#summary-dialog[open] #sum-waiting")
        # the host's: play again with the same friends (the primary button), or another game
        again = host.page.locator("#summary-dialog #sum-again")
        assert again.text_content() == "Play again with the same friends"
        assert "primary" in again.get_attribute("class")
        assert host.page.locator("#summary-dialog #sum-new").is_visible()
        # each page counted the finished deal (nothing of it is lost by playing on)
        assert len(counted(host)) == 1 and counted(friend) == [f"friends:{room}/0"]
        again.click()
        # the new deal shows on both pages: the friend's without a reload, the same table
        # object, the same room; no lobby, no invitation
        friend.page.wait_for_function("() => !document.getElementById('summary-dialog').open"
                                      " && window.__briscola.state.view.phase !== 'over' && window.__briscola.state.round === 1")
        host.page.wait_for_function("() => window.__briscola.state.view.phase !== 'over'")
        assert friend.page.evaluate("window.__same === window.__briscola.app.friends")
        assert friend.page.url == href
        assert host.page.evaluate("window.__briscola.app.friends.room") == room
        assert host.page.locator("#friends-dialog[open], #newgame-dialog[open]").count() == 0
        new = host.state()
        assert new["game"] != old_game and new["match"]["deals"] == []
        assert [s["kind"] for s in new["seats"]] == ["human", "friend"]
        assert friend.state()["view"]["hand"] != first_hand  # a fresh deal, not the seed's again
        # the friend plays a card in it, and the host's page shows it
        while not [e for e in host.state()["view"]["events"] if e["type"] == "play" and e["seat"] == 1]:
            assert play_one([host, friend])
        # the host's page is still the friends' table: its meta says which game of it this is
        assert host.page.evaluate("window.__briscola.app.meta.friends.round") == 1
        # the new deal's views came for the friend's own seat, the host's hand never in them
        views = [v for v in received_views(friend) if v.get("round") == 1]
        assert views and all(v["seat"] == 1 for v in views)
        host_hand = set(new["view"]["hand"])
        assert not host_hand & set(views[0]["view"]["hand"])


def test_play_again_gives_a_friend_who_left_a_computer_until_the_friend_comes_back(rtc_browser, base_url, relay):
    with closing_all(Person(rtc_browser), Person(rtc_browser)) as (host, friend):
        href = named_table(host, friend, base_url, relay, seed=22, extra="&friends_timeout=2")
        to_the_end(host, friend)
        # the friend leaves from the end screen: the seat goes to a computer after the timeout
        friend.page.click("#summary-dialog #sum-leave")
        friend.page.wait_for_selector("#newgame-dialog[open]")
        host.page.wait_for_selector("#friends-bar li[data-seat='1'][data-state='away']", timeout=90000)
        host.page.click("#summary-dialog #sum-again")
        # the new deal: a computer plays the friend's seat, the host plays on
        host.page.wait_for_function("() => window.__briscola.state.view.phase !== 'over'"
                                    " && window.__briscola.state.seats[1].kind === 'bot'")
        # the friend comes back through the same invitation: its token takes the seat back
        new_page(friend)
        friend.page.goto(href)
        dealt(host, friend)
        host.page.wait_for_function("() => window.__briscola.state.seats[1].kind === 'friend'", timeout=60000)
        assert friend.state()["round"] == 1
        while not [e for e in host.state()["view"]["events"] if e["type"] == "play" and e["seat"] == 1]:
            assert play_one([host, friend])


def test_a_friends_game_is_among_the_unfinished_games_and_resuming_it_hosts_it_again(rtc_browser, base_url, relay):
    with closing_all(Person(rtc_browser), Person(rtc_browser)) as (host, friend):
        named_table(host, friend, base_url, relay, seed=23)
        for _ in range(3):
            play_one([host, friend])
        events = host.state()["view"]["events"]
        room = host.page.evaluate("window.__briscola.app.friends.room")
        # the host's tab closes; the site opened in a new tab lists the game, as a friends' one
        host.page.close(run_before_unload=True)
        new_page(host)
        entry = "#games-dialog[open] li.game-entry[data-friends='1']"
        for _ in range(5):
            host.page.goto(base_url)
            host.page.wait_for_selector(entry, timeout=60000)
            if host.page.locator(f"{entry}.elsewhere").count() == 0:
                break
            time.sleep(1)  # the closed tab's hold on the game not let go yet
        assert host.page.locator(entry).count() == 1
        assert host.page.locator(f"{entry} .game-friends").text_content().startswith("With friends: Bruno.")
        host.page.click(f"{entry} button.primary")
        # resumed: hosted again in the same room, the friend's page finds it and takes its seat
        host.page.wait_for_function("() => window.__briscola && window.__briscola.state && window.__briscola.app.friends")
        assert host.page.evaluate("window.__briscola.app.friends.room") == room
        assert host.state()["view"]["events"] == events
        host.page.wait_for_selector("#friends-bar li[data-seat='1'][data-state='on']", timeout=90000)
        before = len([e for e in host.state()["view"]["events"] if e["type"] == "play" and e["seat"] == 1])
        while len([e for e in host.state()["view"]["events"] if e["type"] == "play" and e["seat"] == 1]) == before:
            assert play_one([host, friend])
