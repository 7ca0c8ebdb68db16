"""A newcomer's first minutes at 1280×800, 390×844 and 844×390: the first visit lands on a
playable deal, the New game panel's Start is in view, controls are big enough for a finger,
no "null" or "undefined" on any screen in either language, cards by role and name, tips
that hide nothing of the table, sound only after a gesture and never when muted, links that
cannot be dealt, and a link's language applied once. Kept lean: one engine start per size, a few more for links.
"""
from __future__ import annotations

import re

import pytest

from pagekit import pick_lang, shot, act_and_wait, checked, ui, wait_ui
from tools import chromium

pytestmark = pytest.mark.browser

SIZES = {"desktop": (1280, 800), "phone": (390, 844), "landscape": (844, 390)}

# Visible buttons and form controls under `root` shorter than 44 px (a fingertip).
SMALL_JS = """
root => [...root.querySelectorAll('button, select, input:not([type=checkbox]), summary')]
  .filter(e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0
    && getComputedStyle(e).visibility !== 'hidden' && e.closest('[hidden]') === null; })
  .filter(e => e.getBoundingClientRect().height < 43.5)
  .map(e => (e.id || e.className || e.tagName) + ' ' + Math.round(e.getBoundingClientRect().height) + 'px')
"""

# Text on the page that reads "null" or "undefined" (a slip of the code, not a word).
NULL_JS = """
() => { const out = []; const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode())
    if (/\\b(null|undefined|NaN)\\b/.test(n.textContent)) out.push(n.parentElement.id || n.parentElement.className);
  for (const e of document.querySelectorAll('[aria-label], [title]'))
    if (/\\b(null|undefined|NaN)\\b/.test((e.getAttribute('aria-label') || '') + (e.getAttribute('title') || ''))) out.push(e.className);
  return out; }
"""


# What a tip must never hide, under its box: the seats across the table, the trick, the talon,
# the person's hand and the buttons under it (class names of those it overlaps).
UNDER_TIP_JS = """
() => { const tip = document.getElementById('tip').getBoundingClientRect(); const out = [];
  for (const e of document.querySelectorAll('#table .seat, #table .trick-card, #table .deck, #table .hand, #table .actions')) {
    const r = e.getBoundingClientRect();
    if (r.width > 0 && r.height > 0 && r.left < tip.right && tip.left < r.right && r.top < tip.bottom && tip.top < r.bottom)
      out.push(e.className); }
  return out; }
"""


def first_visit(page, base_url, prefs=None, query=""):
    page.goto(base_url + "build-manifest.json")
    page.evaluate("p => { localStorage.clear(); if (p) localStorage.setItem('briscola.prefs', JSON.stringify(p)); }", prefs)
    page.goto(base_url + query)
    return wait_ui(page)


def small_controls(page, selector="body"):
    return page.eval_on_selector(selector, SMALL_JS)


def nulls(page):
    return page.evaluate(NULL_JS)

# ... nor a notice, the person's hand and the buttons under it.
UNDER_NOTICE_JS = UNDER_TIP_JS.replace("getElementById('tip')", "getElementById('notice')").replace(
    "#table .seat, #table .trick-card, #table .deck, ", "")


@pytest.mark.parametrize("size", list(SIZES))
def test_first_visit_lands_on_a_deal_and_start_is_in_view(new_page, base_url, size, artifacts):
    w, h = SIZES[size]
    with checked(new_page(w, h)) as page:
        assert first_visit(page, base_url, {"lang": "en"}) == "waiting"
        assert page.locator(".hand .hand-card.playable").count() >= 1
        assert page.evaluate("window.__briscola.state.seats[1].level") == "intermediate"
        assert page.locator("#tip").is_visible()  # the first tip: the trump
        assert page.locator("#table .seat").count() == 1
        assert page.evaluate(UNDER_TIP_JS) == []  # the tip hides no seat, card or button
        shot(page, str(artifacts / f"newcomer-first-{size}.png"))
        phone = size != "desktop"
        if phone:
            assert not small_controls(page), small_controls(page)
        page.click("#tip-ok")
        assert page.locator("#tip").is_hidden()
        # two players: the other seat says its points with the word, on a phone too
        assert re.fullmatch(r"0 tricks · 0 points", page.inner_text("#table .seat .pile-count")), \
            page.inner_text("#table .seat .pile-count")
        # a notice (storage trouble, an error) hides none of the hand or its buttons; a tap puts it away
        page.evaluate("window.__briscola.app.notice('A notice long enough to take two lines on a phone, or three on the smallest.', 20000)")
        assert page.locator("#notice").is_visible()
        assert page.evaluate(UNDER_NOTICE_JS) == []
        page.click("#notice")
        assert page.locator("#notice").is_hidden()
        page.click("#btn-new")
        page.wait_for_selector("#newgame-dialog[open]")
        page.wait_for_function("() => !document.getElementById('ng-start').disabled")
        box = page.locator("#ng-start").bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= h, box
        page.click("details.house summary")  # a longer panel: Start stays pinned
        box = page.locator("#ng-start").bounding_box()
        assert box["y"] + box["height"] <= h, box
        if phone:
            assert not small_controls(page, "#newgame-dialog"), small_controls(page, "#newgame-dialog")
        shot(page, str(artifacts / f"newcomer-newgame-{size}.png"))
        page.keyboard.press("Escape")
        # the dismissed tip does not come back; the Rules can bring the tips back
        page.reload()
        wait_ui(page, ("waiting",))
        assert page.evaluate("JSON.parse(localStorage.getItem('briscola.prefs')).tips.trump") is True
        assert page.locator("#tip").is_hidden()


def test_a_tip_left_up_gives_way_to_the_next(new_page, base_url):
    """The trump tip, not dismissed, gives way to the cards' points once a trick is done; a
    hint asked for puts the tip away."""
    with checked(new_page(*SIZES["desktop"])) as page:
        assert first_visit(page, base_url, {"lang": "en", "speed": "instant"}) == "waiting"
        assert "sets the trump" in page.text_content("#tip .tip-text")
        # the language changed with the tip up: the tip in the new words too (it stayed in
        # the old ones), and back
        page.evaluate("window.__briscola.app.setLanguage('it')")
        page.wait_for_function("() => document.documentElement.lang === 'it'")
        assert "briscola" in page.text_content("#tip .tip-text").lower() and "sets the trump" not in page.text_content("#tip")
        assert page.text_content("#tip-ok") != "Got it"
        page.evaluate("window.__briscola.app.setLanguage('en')")
        page.wait_for_function("() => document.documentElement.lang === 'en'")
        assert "sets the trump" in page.text_content("#tip .tip-text")
        while page.evaluate("window.__briscola.state.view.tricks_done") < 1:
            act_and_wait(page, lambda: page.locator(".hand-card.playable").first.click())
        assert page.locator("#tip").is_visible()
        assert "What the cards are worth" in page.text_content("#tip .tip-text")
        assert page.evaluate("JSON.parse(localStorage.getItem('briscola.prefs')).tips || {}") == {}
        # a hint asked for: its words take the tip's room (the tip not learnt: it comes back)
        page.click(".actions .hint-btn")
        page.wait_for_function("() => document.querySelector('.hint-line').textContent !== ''")
        assert page.locator("#tip").is_hidden()
        assert page.evaluate("JSON.parse(localStorage.getItem('briscola.prefs')).tips || {}") == {}


def test_every_screen_in_both_languages_phone(new_page, base_url, artifacts):
    """No "null"/"undefined" text on any screen, in either language; names, roles, points."""
    with checked(new_page(*SIZES["phone"])) as page:
        first_visit(page, base_url, {"lang": "it", "speed": "instant", "tips": {"all": True}})
        for lang in ("it", "en"):
            if page.evaluate("document.documentElement.lang") != lang:
                pick_lang(page, lang)
            assert not nulls(page), (lang, "table", nulls(page))
            for button, dialog in (("#btn-new", "#newgame-dialog"), ("#btn-rules", "#rules-dialog"),
                                   ("#btn-stats", "#stats-dialog"), ("#btn-settings", "#settings-dialog")):
                page.click(button)
                page.wait_for_selector(f"{dialog}[open]")
                if dialog == "#newgame-dialog":
                    page.click("details.house summary")
                    page.select_option("#ng-variant", "three")  # the removed 2: card names, not codes
                    page.wait_for_selector("#ng-opt-removed_two", state="attached")
                    labels = page.eval_on_selector("#ng-opt-removed_two", "s => [...s.options].map(o => o.text)")
                    assert not any(re.fullmatch(r"2[DCSB]", x) for x in labels), labels
                assert not nulls(page), (lang, dialog, nulls(page))
                assert not small_controls(page, dialog), (dialog, small_controls(page, dialog))
                shot(page, str(artifacts / f"newcomer-{lang}-{dialog[1:]}.png"))
                page.keyboard.press("Escape")
                page.wait_for_selector(f"{dialog}[open]", state="detached")
        # the Rules show the cards' names with the chosen deck's pictures
        page.click("#btn-rules")
        names = page.locator("#rules-dialog .card-names")
        assert names.locator(".names-card").count() == 4
        assert "8 = Jack" in names.text_content() and "10 = King" in names.text_content()
        page.keyboard.press("Escape")
        # scores say points; the trump card and the trick's cards by role and name
        assert re.search(r"\d+ points", page.text_content(".mybar .pile"))
        trump = page.evaluate("window.__briscola.state.view.trump_card")
        assert page.get_by_role("img", name=re.compile(r"^Trump: ")).count() == 1, trump
        for _ in range(20):  # play until a computer's card waits on the table
            if page.evaluate("window.__briscola.state.view.trick.length") and ui(page) == "waiting":
                break
            act_and_wait(page, lambda: page.locator(".hand-card.playable").first.click())
        plays = page.evaluate("window.__briscola.state.view.trick")
        assert plays
        assert page.get_by_role("img", name=re.compile(r"^Carla: \w+( \(\d+\))? of \w+$")).count() == len(plays)
        # the end of a deal: what was needed and the tricks each side took
        while ui(page) == "waiting":
            act_and_wait(page, lambda: page.locator(".hand-card.playable").first.click())
        page.wait_for_selector("#summary-dialog[open]")
        assert "61" in page.text_content("#summary-dialog .sum-need")
        tricks = [int(x) for x in re.findall(r": (\d+) trick", page.text_content("#summary-dialog .sum-tricks"))]
        assert sum(tricks) == 20, tricks
        # the welcome deal is a single deal; a 60-60 draw is replayed (the match goes on)
        if page.evaluate("window.__briscola.state.summary.outcome.draw"):
            assert "The drawn deal is replayed." in page.text_content("#summary-dialog")
            assert page.text_content("#sum-next") == "Next deal of this match"
        else:
            assert page.text_content("#sum-again") == "Play again"  # a single deal: play again
        assert not nulls(page)
        assert not small_controls(page, "#summary-dialog"), small_controls(page, "#summary-dialog")
        # the summary in Italian too, then the deal's review in one click (js/coach.js)
        pick_lang(page, "it")
        assert "61" in page.text_content("#summary-dialog .sum-need") and not nulls(page)
        shot(page, str(artifacts / "newcomer-it-summary.png"))
        page.click("#sum-review")
        page.wait_for_selector("#review-dialog[open]")


def play_to_the_end(page):
    """Click the first playable card until the deal's end screen; a drawn deal is replayed
    (its end screen offers the next deal of the match) until one is won."""
    while True:
        while ui(page) == "waiting":
            act_and_wait(page, lambda: page.locator(".hand-card.playable").first.click())
        page.wait_for_selector("#summary-dialog[open]")
        if not page.evaluate("window.__briscola.state.summary.outcome.draw"):
            return
        act_and_wait(page, lambda: page.click("#sum-next"))


def test_the_first_deals_end_screen_buttons(new_page, base_url):
    """A newcomer plays the welcome deal to its end and presses each button of the end screen:
    the highlighted one deals and shows a new game (it once failed because the New game panel had
    never been opened), the others look at the table and choose another game."""
    with checked(new_page(*SIZES["phone"])) as page:
        first_visit(page, base_url, {"lang": "en", "speed": "instant"})
        first = page.evaluate("window.__briscola.app.game")
        play_to_the_end(page)
        primary = page.locator("#summary-dialog .btn.primary")
        assert primary.get_attribute("id") == "sum-again"
        assert page.locator("#newgame-dialog[open]").count() == 0
        primary.click()
        assert wait_ui(page, ("waiting",)) == "waiting"  # the new deal is on the table, playable
        assert page.locator("#summary-dialog[open]").count() == 0
        assert page.evaluate("window.__briscola.app.game") != first
        assert page.evaluate("window.__briscola.state.view.phase") == "play"
        assert page.evaluate("window.__briscola.state.view.tricks.length") == 0
        assert page.locator(".hand .hand-card.playable").count() == 3
        # the second deal's end: look at the table, then (after a reload brings the end screen
        # back) choose another game
        play_to_the_end(page)
        page.click("#summary-dialog >> text=Look at the table")
        assert wait_ui(page, ("over",)) == "over"
        assert page.locator("#summary-dialog[open]").count() == 0
        assert page.evaluate("window.__briscola.state.view.phase") == "over"
        page.reload()
        page.wait_for_selector("#summary-dialog[open]")
        page.click("#summary-dialog >> text=Choose another game")
        page.wait_for_selector("#newgame-dialog[open]")
        page.wait_for_function("() => !document.getElementById('ng-start').disabled")
        page.click("#ng-start")
        assert wait_ui(page, ("waiting",)) == "waiting"
        assert page.evaluate("window.__briscola.state.view.tricks.length") == 0


def test_sound_only_after_a_gesture_and_never_when_muted(new_page, base_url):
    with checked(new_page(*SIZES["desktop"])) as page:
        first_visit(page, base_url, {"lang": "en", "speed": "instant", "tips": {"all": True}})
        log = "import('./js/sound.js').then(m => m.log.length)"
        # the audio context: made at the first gesture, running only while it sounds
        audio = "import('./js/sound.js').then(m => m.state())"
        assert page.evaluate(log) == 0  # the deal was dealt, nothing sounded: no gesture yet
        assert page.evaluate(audio) == "none"
        act_and_wait(page, lambda: page.locator(".hand-card.playable").first.click())
        assert page.evaluate(log) > 0
        assert page.evaluate(audio) == "running"
        # at rest a little after its last sound (2.5 s), as it is while muted
        chromium.until(page, f"() => {audio}.then((s) => s === 'suspended')", timeout=10, what="the sounds at rest")
        assert page.locator("#btn-sound").get_attribute("aria-pressed") == "false"
        page.click("#btn-sound")
        assert page.locator("#btn-sound").get_attribute("aria-pressed") == "true"
        before = page.evaluate(log)
        act_and_wait(page, lambda: page.locator(".hand-card.playable").first.click())
        page.wait_for_timeout(700)
        assert page.evaluate(log) == before
        assert page.evaluate(audio) == "suspended"
        page.click("#btn-sound")  # unmuted: the next sound wakes it
        act_and_wait(page, lambda: page.locator(".hand-card.playable").first.click())
        assert page.evaluate(log) > before and page.evaluate(audio) == "running"
        page.click("#btn-sound")
        page.reload()  # remembered
        wait_ui(page)
        assert page.locator("#btn-sound").get_attribute("aria-pressed") == "true"
        # a page opened muted makes no audio context at all, gestures or not
        act_and_wait(page, lambda: page.locator(".hand-card.playable").first.click())
        assert page.evaluate(log) == 0 and page.evaluate(audio) == "none"


def test_links_that_cannot_be_dealt_and_a_links_language(new_page, base_url):
    with checked(new_page(*SIZES["landscape"])) as page:
        # an unknown variant, asked in Italian: the page says why, in Italian, and deals anyway
        first_visit(page, base_url, {"tips": {"all": True}}, "?variant=nope&lang=it")
        notice = page.locator("#notice")
        notice.wait_for(state="visible")
        assert "nope" in notice.text_content() and "variante" in notice.text_content()
        assert "lang=" not in page.url and "variant=" not in page.url
        assert ui(page) == "waiting"
        # the person picks English in Settings: a reload keeps it (the link's lang applied once)
        page.click("#btn-settings")
        page.select_option("#set-lang", "en")
        page.keyboard.press("Escape")
        page.reload()
        wait_ui(page)
        assert page.evaluate("document.documentElement.lang") == "en"
        # a malformed seed, then an unknown level: each named, in English now
        for query, words in (("?seed=" + "9" * 80, "seed"), ("?level=grandmaster", "grandmaster")):
            page.goto(base_url + query)
            wait_ui(page)
            notice.wait_for(state="visible")
            assert words in notice.text_content() and "could not be dealt" in notice.text_content()
        # five players of classic Briscola, asked in Italian: the engine refuses; its reason is
        # worded in Italian (the option by the panel's name), not in the engine's English
        page.goto(base_url + "?players=5&lang=it")
        wait_ui(page)
        notice.wait_for(state="visible")
        text = notice.text_content()
        assert "«Giocatori»" in text and "non è compatibile" in text, text
        assert "five play" not in text and "players:" not in text, text


def test_an_engine_that_cannot_start_says_so_in_the_page_language(new_page, base_url):
    """The engine's wasm refused: the loading screen says the engine did not start and what to
    do, in the person's language, with the reload button and the engine's own (English)
    message folded under it, for a bug report."""
    context, page = new_page(*SIZES["phone"], fresh=True)
    try:
        context.route(re.compile(r".*pyodide\.asm\.wasm(\?.*)?$"), lambda route: route.abort())
        for lang, stage, hint, reload in (
                ("it", "Il motore del gioco non è partito.", "Di solito basta ricaricare", "Ricarica la pagina"),
                ("en", "The game engine did not start.", "Reloading the page usually helps", "Reload the page")):
            assert first_visit(page, base_url, {"lang": lang}) == "error"
            assert page.text_content("#load-stage") == stage
            assert page.text_content("#load-error-msg").startswith(hint)
            assert page.locator("#load-retry").is_visible() and page.text_content("#load-retry") == reload
            assert page.locator("#load-error-details").is_visible()
            assert not page.locator("#load-error-tech").is_visible()  # folded
            page.click("#load-error-details summary")
            assert page.text_content("#load-error-tech").strip()
            assert not nulls(page) and not small_controls(page, "#loading")
    finally:
        context.close()
