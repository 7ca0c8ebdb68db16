"""The table a player trusts at a glance, in Chromium: a whole classic deal at 390×844 with
tips and hints where nothing moves (layout shift ≤ 0.02, counted as Web Vitals count it), the
trick's taker written on the felt after every trick, every card named as its corner prints it
(three decks, both languages), the Rules opening at their top at every size, and tables
(classic, four, six, Chiamata's auction, play and end) at 360×740, 390×844, 412×915 and
1280×800 with no sideways scroll, no text cut by an ellipsis, bubbles apart and inside the
window, and a ≥ 44×44 px target per card (eight-card hands included). Lean: one page per
size.
"""
from __future__ import annotations

import re

import pytest

from pagekit import pick_lang, read, shot, act_and_wait, checked, wait_ui

pytestmark = pytest.mark.browser

SIZES = [(360, 740), (390, 844), (412, 915), (1280, 800)]

# layout-shift entries as Web Vitals counts them (none within 500 ms of an input), and every
# text the trick's note shows, noted from the first frame on
WATCH_JS = """
window.__shifts = 0;
new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.__shifts += e.value; })
  .observe({ type: "layout-shift", buffered: true });
window.__notes = [];
let shownNote = "";
new MutationObserver(() => {  // a note drawn anew for a trick of its own (a frame redrawn keeps its text)
  const n = document.querySelector("#table .trick-note");
  const key = n && n.getBoundingClientRect().width > 0
    ? n.textContent + "#" + (window.__briscola ? window.__briscola.state.view.tricks.length + (window.__briscola.state.view.trick.length ? 1 : 0) : 0) : "";
  if (key && key !== shownNote) window.__notes.push(n.textContent);
  if (key) shownNote = key;
}).observe(document, { subtree: true, childList: true, characterData: true });
"""

# Every figure's word in the page's text and names (the table, the tip, the tracker, the dialogs
# of the last trick and the end): with the index its card prints, "(10)", unless the word starts
# with it (French cards in English: "King" is the K).
FIGURES = {"it": r"Fante|Cavallo|Donna|Re", "en": r"Jack|Horse|Queen|King"}
NAMES_JS = """
() => { const out = [];
  const roots = ['#table', '#tip', '#tracker', '#trick-dialog', '#summary-dialog', '#live'];
  for (const sel of roots) { const root = document.querySelector(sel); if (!root) continue;
    out.push(root.innerText || root.textContent || '');
    for (const e of root.querySelectorAll('[aria-label], [title]')) out.push((e.getAttribute('aria-label') || '') + ' ' + (e.getAttribute('title') || '')); }
  return out.join('\\n'); }
"""
PRINTED = {"italian": {"Fante": "8", "Cavallo": "9", "Re": "10", "Jack": "8", "Horse": "9", "King": "10"},
           "french": {"Fante": "J", "Donna": "Q", "Re": "K"},
           "spagnole": {"Fante": "10", "Cavallo": "11", "Re": "12", "Jack": "10", "Horse": "11", "King": "12"}}
# What the tracker prints for each rank, per deck (the Spanish deck's figures 10, 11, 12).
TRACKER = {"italian": {"A": "1", "J": "8", "H": "9", "K": "10"}, "french": {"A": "A", "T": "10", "J": "J", "H": "Q", "K": "K"},
           "spagnole": {"A": "1", "J": "10", "H": "11", "K": "12"}}


def bad_names(text: str, lang: str, deck: str) -> list[str]:
    """Figure words not followed by the index their card prints."""
    bad = []
    for m in re.finditer(rf"\b({FIGURES[lang]})\b( \((\w+)\))?", text):
        want = PRINTED[deck].get(m.group(1))
        if want and m.group(3) != want:
            bad.append(text[max(0, m.start() - 20):m.end() + 8])
    return bad


def first_visit(page, base_url, prefs):
    page.goto(base_url + "build-manifest.json")
    page.evaluate("p => { localStorage.clear(); localStorage.setItem('briscola.prefs', JSON.stringify(p)); }", prefs)
    page.goto(base_url)
    return wait_ui(page)


def hand_of_svg_indices(page) -> list[list[str]]:
    """Each hand card's name and the index its drawing prints."""
    return page.eval_on_selector_all(".hand .hand-card", """els => els.map(e =>
        [e.getAttribute('aria-label'), e.querySelector('svg text').textContent])""")


def test_a_classic_deal_at_a_glance(new_page, base_url, artifacts):
    """Tips and hints in use over a whole deal: nothing moves, every trick's taker is written,
    every card is named as it prints."""
    context, page = new_page(390, 844)
    page.add_init_script(WATCH_JS)
    with checked((context, page)):
        assert first_visit(page, base_url, {"lang": "en"}) == "waiting"
        assert page.locator("#tip").is_visible()
        # whose turn, as text in the page that screen readers read too (not only announced)
        assert page.text_content("#table .sb-turn") == "Your turn"
        assert page.evaluate("document.querySelector('#table .sb-turn').closest('[aria-hidden=true]') === null")
        # the sound button: its shown label, title and name say one thing, pressed while muted
        sound = page.locator("#btn-sound")
        assert sound.get_attribute("aria-label") == sound.text_content().strip() == "Mute the sounds"
        assert sound.get_attribute("aria-pressed") == "false" and sound.get_attribute("title").endswith("Sound on")
        shot(page, str(artifacts / "glance-classic-tip-phone.png"))
        steps = 0
        while page.evaluate("document.documentElement.dataset.ui") == "waiting":
            if steps % 3 == 1:  # a hint now and then: its words take their room, nothing moves
                page.click(".actions .hint-btn")
                page.wait_for_function("() => document.querySelector('.hint-line').textContent !== ''")
            act_and_wait(page, lambda: page.locator(".hand-card.playable").first.click())
            steps += 1
            if steps == 4:
                shot(page, str(artifacts / "glance-classic-play-phone.png"))
                for name, printed in hand_of_svg_indices(page):
                    assert not bad_names(name, "en", "italian"), name
            assert not bad_names(page.evaluate(NAMES_JS), "en", "italian")
        assert wait_ui(page, ("summary",)) == "summary"
        shot(page, str(artifacts / "glance-classic-end-phone.png"))
        shift = page.evaluate("window.__shifts")
        assert shift <= 0.02, f"cumulative layout shift {shift:.3f}"
        # the taker of each trick, in words, in the order of the tricks
        tricks = page.evaluate("window.__briscola.state.view.tricks")
        names = page.evaluate("window.__briscola.app.names()")
        want = [f"You took the trick: {tr['points']} point{'' if tr['points'] == 1 else 's'}" if tr["winner"] == 0
                else f"{names[tr['winner']]} took the trick: {tr['points']} point{'' if tr['points'] == 1 else 's'}"
                for tr in tricks]
        assert page.evaluate("window.__notes") == want
        # the last trick's dialog and the tracker name cards as they print too
        page.keyboard.press("Escape")
        page.click(".actions button:has-text('Last trick')")
        page.wait_for_selector("#trick-dialog[open]")
        assert not bad_names(page.evaluate(NAMES_JS), "en", "italian")


@pytest.mark.parametrize("style,lang", [("piacentine", "it"), ("french", "it"), ("french", "en"), ("spagnole", "en")])
def test_cards_are_named_as_they_print(new_page, base_url, style, lang):
    """Another deck, another language: the hand's names, the tracker's marks and a hint name each
    card by what its corner prints."""
    with checked(new_page(1280, 800)) as page:
        prefs = {"lang": lang, "style": style, "tracker": True, "tips": {"all": True}}
        assert first_visit(page, base_url, prefs) == "waiting"
        if style == "french":  # a French-deck variant (the deck comes with the variant)
            start(page, "french", 4)
        deck = style if style in PRINTED else "italian"
        for name, printed in hand_of_svg_indices(page):
            assert not bad_names(name, lang, deck), (name, printed)
        page.wait_for_selector("#tracker:not([hidden]) .tr-card")
        marks = page.eval_on_selector_all("#tracker .tr-card", "els => els.map(e => [e.dataset.card, e.textContent])")
        assert marks
        index = TRACKER[deck]
        for code, text in marks:
            assert text == index.get(code[0], code[0]), (code, text)
        # the trumps it counts are the trumps it lists (the face-up one among them)
        listed = page.locator("#tracker .tr-suit.trump :is(.tr-card, .tr-up)").count()
        assert page.text_content("#tracker .tr-trumps").endswith(f" {listed}"), (listed, page.text_content("#tracker .tr-trumps"))
        page.click(".actions .hint-btn")
        page.wait_for_function("() => document.querySelector('.hint-line').textContent !== ''")
        assert not bad_names(page.evaluate(NAMES_JS), lang, deck)
        if style == "spagnole":  # the Settings list every deck, the one in play chosen
            page.click("#btn-settings")
            page.wait_for_selector("#settings-dialog[open] #set-style")
            assert page.eval_on_selector_all("#set-style option", "os => os.map((o) => o.value)") == [
                "napoletane", "piacentine", "siciliane", "trevisane", "triestine", "bergamasche", "spagnole", "french"]
            assert page.input_value("#set-style") == "spagnole"


def test_a_regional_deck_picked_in_the_settings_is_drawn_at_once(new_page, base_url):
    """The regional decks' art (js/decks.js) is not loaded by the page's start (js/later.js):
    picked in the settings, it comes in and the hand is drawn and named in it."""
    with checked(new_page(1280, 800)) as page:
        assert first_visit(page, base_url, {"lang": "en", "style": "napoletane"}) == "waiting"
        loaded = "() => performance.getEntriesByType('resource').some((e) => e.name.endsWith('/js/decks.js'))"
        assert not page.evaluate(loaded)
        art = "() => [...document.querySelectorAll('.hand .hand-card svg')].map((e) => e.outerHTML).join('')"
        before = page.evaluate(art)
        page.click("#btn-settings")
        page.wait_for_selector("#settings-dialog[open] #set-style")
        page.select_option("#set-style", "spagnole")
        page.wait_for_function("() => window.__briscola.app.style() === 'spagnole'")
        assert page.evaluate(loaded)
        hand = hand_of_svg_indices(page)
        assert hand and all(not bad_names(name, "en", "spagnole") for name, _ in hand), hand
        page.wait_for_function(f"b => ({art})() !== b", arg=before)  # the hand redrawn in its art


@pytest.mark.parametrize("width,height", SIZES)
def test_rules_open_at_their_top(new_page, base_url, width, height, artifacts):
    """At every size and in both languages the Rules open with their title in view, and their
    tables fit the window's width."""
    with checked(new_page(width, height)) as page:
        assert first_visit(page, base_url, {"lang": "en", "tips": {"all": True}}) == "waiting"
        for lang in ("en", "it"):
            if lang == "it":
                pick_lang(page, "it")
            page.click("#btn-rules")
            page.wait_for_selector("#rules-dialog[open]")
            res = page.evaluate("""() => { const d = document.getElementById('rules-dialog');
                const t = document.getElementById('rules-title').getBoundingClientRect();
                return {top: d.scrollTop, title: t.top, bottom: t.bottom, h: innerHeight,
                        cut: [...d.querySelectorAll('.table-wrap')].filter(w => w.scrollWidth > w.clientWidth + 1).length}; }""")
            assert res["top"] == 0 and 0 <= res["title"] and res["bottom"] <= res["h"], res
            assert res["cut"] == 0, res
            text = page.text_content("#rules-dialog")
            assert ("60 is enough" if lang == "en" else "bastano 60") in text
            assert ("must take 61" not in text) and ("deve fare 61" not in text)
            shot(page, str(artifacts / f"glance-rules-{width}x{height}-{lang}.png"))
            page.keyboard.press("Escape")


# Visible text cut by an ellipsis in the table (seats, buttons, chips, bubbles), and whether the
# page scrolls sideways.
CUT_JS = """
() => { const cut = [...document.querySelectorAll('#table *')].filter(e => {
    const r = e.getBoundingClientRect(); if (!r.width || !e.textContent.trim()) return false;
    const cs = getComputedStyle(e); return cs.textOverflow === 'ellipsis' && cs.overflow !== 'visible'
      && e.scrollWidth > e.clientWidth + 1; }).map(e => e.className + ': ' + e.textContent);
  const shown = [...document.querySelectorAll('#table .bubble.show')].map(b => b.getBoundingClientRect());
  let bubbles = shown.filter(r => r.left < -1 || r.right > innerWidth + 1).length;
  for (let i = 0; i < shown.length; i++) for (let j = i + 1; j < shown.length; j++) {
    const a = shown[i], b = shown[j];
    if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1) bubbles++; }
  return {cut, bubbles, wide: document.documentElement.scrollWidth > innerWidth + 1}; }
"""

# Each hand card: a 44×44 px square whose points all hit that card (elementFromPoint, a 4 px grid).
TAP_JS = """
() => document.querySelectorAll('.hand .hand-card').length ? [...document.querySelectorAll('.hand .hand-card')].map(card => {
  const r = card.getBoundingClientRect(); const step = 4, need = 44 / step;
  const cols = Math.floor(r.width / step), rows = Math.floor(r.height / step);
  const hit = []; for (let y = 0; y < rows; y++) { hit.push([]); for (let x = 0; x < cols; x++) {
    const e = document.elementFromPoint(r.left + x * step + 2, r.top + y * step + 2);
    hit[y].push(!!e && e.closest('.hand-card') === card); } }
  for (let y = 0; y + need <= rows; y++) for (let x = 0; x + need <= cols; x++) {
    let ok = true; for (let yy = y; ok && yy < y + need; yy++) for (let xx = x; xx < x + need; xx++) if (!hit[yy][xx]) { ok = false; break; }
    if (ok) return true; }
  return card.getAttribute('aria-label'); }).filter(x => x !== true) : ['no hand']
"""


def start(page, variant, seed):
    page.click("#btn-new")
    page.wait_for_selector("#newgame-dialog[open]")
    page.select_option("#ng-variant", variant)
    if not page.locator("#ng-seed").is_visible():
        page.click("details.advanced summary")
    page.fill("#ng-seed", str(seed))
    page.wait_for_function("() => !document.getElementById('ng-start').disabled")
    page.click("#ng-start")
    return wait_ui(page, ("waiting", "summary"))


def check_fit(page, where, hand=True):
    res = page.evaluate(CUT_JS)
    assert not res["cut"] and not res["bubbles"] and not res["wide"], (where, res)
    if hand:  # the deal over, the hand is empty
        assert page.evaluate(TAP_JS) == [], where
    # the computers' level is in view: on their seats, or once in the score bar
    levels = page.locator("#table .badge.level:visible, #table .sb-level:visible")
    assert levels.count() >= 1 and levels.first.text_content(), where


@pytest.mark.parametrize("width,height", SIZES)
def test_phone_tables_fit(new_page, base_url, width, height, artifacts):
    """Classic, four, six and Chiamata (its auction, play and end) on phones and a desktop, both
    languages: nothing sideways, no name or label cut, bubbles inside the window and apart,
    every card of the hand with its own target, the computers' level in view."""
    with checked(new_page(width, height)) as page:
        assert first_visit(page, base_url, {"lang": "en", "tips": {"all": True}, "speed": "instant"}) == "waiting"
        for lang in ("en", "it"):
            if lang == "it":
                pick_lang(page, "it")
            for variant in ("classic", "four", "six", "chiamata"):
                start(page, variant, 5)
                while page.evaluate("document.documentElement.dataset.ui") == "waiting":
                    view = read(page, "() => window.__briscola.state.view")
                    check_fit(page, (variant, lang, view["phase"]))
                    if variant != "chiamata" and view["tricks_done"] >= 1:
                        break
                    action = "pass" if "pass" in view["legal"] else view["legal"][0]
                    act_and_wait(page, lambda: page.evaluate("a => window.__briscola.app.play(a)", action))
                shot(page, str(artifacts / f"glance-{variant}-{width}x{height}-{lang}.png"))
                if variant == "chiamata":  # the end: the table behind the summary
                    wait_ui(page, ("summary",))
                    page.click("#summary-dialog .buttons .btn:not(.primary)")
                    wait_ui(page, ("over",))
                    check_fit(page, (variant, lang, "over"), hand=False)
