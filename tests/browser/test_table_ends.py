"""Two ends of the table: the felt after a deal keeps a way back to the result and on to the
next deal; an eight-card hand on a phone (Briscola Chiamata) plays, at every tap, the card
whose visible part was touched."""
from __future__ import annotations

import pytest

from conftest import _make_page
from pagekit import shot, act_and_wait, assert_in_window, checked, hand_over, table_state, wait_ui
from test_chiamata import boot as boot_chiamata
from test_chiamata import start as start_chiamata
from test_chiamata import view_of
from test_table import boot, prefs_for, start_game

# Each hand card's visible part: points sampled every 2 px across its box that hit the card
# itself; the box of those points (left, top, width, height) and how many there are.
VISIBLE = """() => [...document.querySelectorAll('.hand .hand-card')].map((el) => {
  const r = el.getBoundingClientRect();
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity, hits = 0, n = 0;
  for (let y = r.top + 1; y < r.bottom - 1; y += 2) for (let x = r.left + 1; x < r.right - 1; x += 2) {
    n++;
    const at = document.elementFromPoint(x, y);
    if (at && at.closest('.hand-card') === el) { hits++; x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y); }
  }
  return {code: el.dataset.code, seen: hits ? [x0, y0, x1 - x0 + 2, y1 - y0 + 2] : null, hits, n};
})"""
HIT = "([x, y]) => { const e = document.elementFromPoint(x, y); const c = e && e.closest('.hand-card'); return c ? c.dataset.code : null; }"


def touch_page(browser, width, height):
    """A phone's page: a touch screen (taps are touches), the suite's console watch."""
    return _make_page(browser, width, height, has_touch=True)


def to_the_play(page):
    """The person passes in the auction; the table once the play has begun (the hand-off
    screen passed)."""
    for _ in range(30):
        state = table_state(page)
        if state == "handoff":
            hand_over(page)
            continue
        v = view_of(page)
        if v["phase"] == "play" and v["turn"] == 0 and state == "waiting":
            return v
        if v["phase"] == "auction" and v["turn"] == 0 and state == "waiting":
            act_and_wait(page, lambda: page.click(".board button[data-action='pass']"))
        else:
            page.wait_for_timeout(100)
    pytest.fail("the play did not begin")


def visible_parts(page):
    parts = page.evaluate(VISIBLE)
    for p in parts:
        assert p["seen"], p
        # a fingertip's target: 44 px or more each way (the sampling's 2 px allowed)
        assert min(p["seen"][2:]) >= 42, p
    return parts


def inside(part, fx, fy):
    x, y, w, h = part["seen"]
    return x + w * fx, y + h * fy


@pytest.mark.parametrize("width,height", [(360, 640), (390, 844)])
def test_an_eight_card_hand_on_a_phone(browser, base_url, artifacts, width, height):
    with checked(touch_page(browser, width, height)) as page:
        boot_chiamata(page, base_url, "beginner")
        start_chiamata(page, "chiamata", 3)
        view = to_the_play(page)
        assert len(view["hand"]) == 8
        shot(page, str(artifacts / f"hand-eight-{width}.png"))
        # while the hand has two rows: every card's visible part is its own, at its corners
        # and its middle, before and after a finger rests on the card behind
        for turn in range(3):
            view = to_the_play(page) if turn else view
            parts = visible_parts(page)
            assert len(parts) == 8 - turn and len({p["seen"][1] for p in parts}) == 2  # two rows
            for p in parts:
                for fx, fy in ((.5, .5), (.1, .1), (.9, .1), (.1, .9), (.9, .9)):
                    assert page.evaluate(HIT, list(inside(p, fx, fy))) == p["code"], (p, fx, fy)
            back = min(parts, key=lambda p: (p["seen"][1], -p["seen"][0] if turn % 2 else p["seen"][0]))
            page.mouse.move(*inside(back, .5, .5))  # a finger over a back card: nothing moves
            assert [p["seen"] for p in visible_parts(page)] == [p["seen"] for p in parts]
            # a tap on the back card's visible picture, just above the card in front, plays it
            x, y = inside(back, .5, .85)
            act_and_wait(page, lambda: page.touchscreen.tap(x, y))
            mine = [p for t in page.evaluate("window.__briscola.state.view.tricks") for p in t["plays"]] \
                + page.evaluate("window.__briscola.state.view.trick")
            played = [p["card"] for p in mine if p["seat"] == 0]
            assert played and played[-1] == back["code"], (played, back)
            assert back["code"] not in page.evaluate("window.__briscola.state.view.hand")
            if turn == 0:
                shot(page, str(artifacts / f"hand-seven-{width}.png"))


@pytest.mark.parametrize("width,height", [(390, 844), (1280, 800)])
def test_look_at_the_table_and_back(new_page, base_url, artifacts, width, height):
    """A deal played to its end; "Look at the table" closes the result, and a bar on the felt
    leads back to the result and on to the next deal."""
    with checked(new_page(width, height)) as page:
        boot(page, base_url, prefs_for("beginner"))
        start_game(page, "best-of-3", seed=12)
        for _ in range(200):
            state = table_state(page)
            if state == "summary":
                break
            act_and_wait(page, lambda: page.locator(".hand-card.playable").first.click())
        page.wait_for_selector("#summary-dialog[open]")
        assert page.locator("#look-bar").is_hidden()  # the result is up: no bar behind it
        page.click("#summary-dialog >> text=Look at the table")
        assert wait_ui(page, ("over",)) == "over"
        assert page.locator("#summary-dialog[open]").count() == 0
        page.wait_for_selector("#look-bar #look-result")
        for sel in ("#look-bar", "#look-result", "#look-next"):
            assert_in_window(page, sel)
            box = page.locator(sel).bounding_box()
            assert box["height"] >= 44, (sel, box)
        assert page.text_content("#look-result") == "Result"
        assert page.text_content("#look-next") == "Next deal"
        assert page.evaluate("document.activeElement.id") == "look-next"
        shot(page, str(artifacts / f"look-at-the-table-{width}.png"))
        # back to the result, and once more to the felt: by its button, then by Escape
        for leave in ("button", "Escape"):
            page.click("#look-result")
            page.wait_for_selector("#summary-dialog[open]")
            assert page.locator("#look-bar").is_hidden()
            if leave == "button":
                page.click("#summary-dialog >> text=Look at the table")
            else:
                page.keyboard.press("Escape")
            page.wait_for_selector("#look-bar #look-next")
            assert page.locator("#summary-dialog[open]").count() == 0
        # on to the next deal, from the felt
        deal = page.evaluate("window.__briscola.state.match.deal")
        page.click("#look-next")
        assert wait_ui(page, ("waiting",)) == "waiting"
        assert page.evaluate("window.__briscola.state.match.deal") == deal + 1
        assert page.locator("#look-bar").is_hidden()
        assert page.locator(".hand .hand-card.playable").count() == 3
