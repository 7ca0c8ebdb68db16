"""The page in Chromium: whole deals of every variant played by clicking, reloads, keyboard
play, the hand-off screen, languages, the engine's refusals, and layout at phone and desktop
sizes (screenshots in tests/artifacts/).

The expected scores come from the Python engine in this process: the page's stored save is
loaded into the CPython bridge and its summary compared with what the page shows.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from briscola import bridge
from pagekit import (pick_lang, read, shot, PLAYING, QUIET, STORED_SAVE_JS, Layout, act_and_wait, assert_in_window, hand_over, new_game,
                     stored_save, table_state, ui, wait_ui)

pytestmark = pytest.mark.browser


# ---- helpers ----------------------------------------------------------------------------------

def catalog() -> dict:
    return json.loads(bridge.call("catalog", "{}"))["result"]


# Presets whose table is another's (the seats, the hand and the actions of three, four or six
# players): their rules are checked in tests/test_country_rules.py, their table here by the
# variant they share it with. Brisca (its exchange) and Bisca de Nove (a hand of nine) are played.
SAME_TABLE = {"brisca-three", "brisca-four", "bisca-four", "briskula", "briskula-three", "briskula-six"}


def playable_variants() -> list[str]:
    out = []
    for v in catalog()["variants"]:
        if v["rules"].get("mode") == "chiamata" or v["name"] in SAME_TABLE:
            continue
        out.append(v["name"])
    return out


def prefs_for(level: str, **extra) -> dict:
    seats = [{"kind": "human", "name": ""}] + [{"kind": "bot", "level": level}] * 5
    p = {"speed": "instant", "lang": "en", "reasons": True, "tips": {"all": True}, **QUIET,
         "newgame": {"variant": "classic", "seats": seats, "seed": "7"}}
    p.update(extra)
    return p


def boot(page, base_url, prefs=None, clear=True):
    """Open the site with fresh storage (and `prefs`), wait until the engine is up."""
    if clear:
        page.goto(base_url + "build-manifest.json")
        page.evaluate("p => { localStorage.clear(); if (p) localStorage.setItem('briscola.prefs', JSON.stringify(p)); }",
                      prefs)
    page.goto(base_url)
    wait_ui(page)


def start_game(page, variant, seed=7, humans=()):
    """Start `variant` from the new-game panel; seats in `humans` are people."""
    return new_game(page, variant, seed, lambda n: "human" if n in humans else None)


def play_turn(page, step=0):
    """Play as a person: sometimes an extra action (exchange, signal), else the first playable card."""
    extra = page.locator(".extra-actions .btn")
    if extra.count() and step % 2 == 0:
        act_and_wait(page, lambda: extra.first.click())
        return
    act_and_wait(page, lambda: page.locator(".hand-card.playable").first.click())


def play_until(page, stop, max_steps=600):
    for step in range(max_steps):
        state = table_state(page)
        if stop(page, state):
            return state
        if state == "handoff":
            hand_over(page)
            continue
        if state == "summary":
            pytest.fail("the deal ended before the stop condition")
        play_turn(page, step)
    pytest.fail("too many steps")


def play_deal(page):
    return play_until(page, lambda pg, s: s == "summary")


def expected_summary(page) -> dict:
    """Load the page's stored save into the CPython engine and read its summary."""
    save = stored_save(page)
    assert save, "the page stored no save"
    bridge.reset()
    reply = json.loads(bridge.call("load", json.dumps({"save": save})))
    assert "result" in reply, reply
    result = reply["result"]
    assert "summary" in result, "the stored game is not at the end of a deal"
    return result


def check_summary(page):
    page.wait_for_selector("#summary-dialog[open] .sum-side")
    expected = expected_summary(page)
    shown = page.eval_on_selector_all(
        "#summary-dialog .sum-side .pts", "els => els.map(e => [Number(e.dataset.side), e.textContent])")
    side_points = expected["summary"]["side_points"]
    assert len(shown) == len(side_points)
    for side, text in shown:
        assert int(re.search(r"\d+", text).group()) == side_points[side], (text, side_points)
    received = page.evaluate("window.__briscola.state.summary")
    assert received["side_points"] == side_points
    assert received["counting_cards"] == expected["summary"]["counting_cards"]
    total = sum(expected["card_points"].values())
    assert sum(side_points) == total
    # the counting cards shown are the engine's, per side
    n_cards = page.locator("#summary-dialog .sum-card").count()
    assert n_cards == sum(len(c) for c in expected["summary"]["counting_cards"])
    return expected


LAYOUT = Layout(
    [["topbar", ".topbar"], ["scorebar", ".scorebar"], ["seat", ".seat"], ["deck", ".deck .talon, .deck .talon-count"],
     ["trick", ".trick-card"], ["hand", ".hand-card"], ["mybar", ".mybar"], ["actions", ".actions .btn"],
     ["hintline", ".hint-line", True]],
    boxes=".seat, .mybar", parts=".name, .badge, .seat-hand, .pile, .pile-count")
check_layout = LAYOUT.check


# ---- a page shared by the per-variant tests (one engine start) ------------------------------

@pytest.fixture(scope="module")
def shared(new_page, base_url, bot_level):
    context, page = new_page(1280, 800)
    boot(page, base_url, prefs_for(bot_level))
    yield page
    context.close()


@pytest.fixture
def table(shared):
    shared.console_watch.errors.clear()
    shared.set_viewport_size({"width": 1280, "height": 800})
    yield shared
    assert not shared.console_watch.errors, "console errors:\n" + "\n".join(shared.console_watch.errors)


# ---- tests ------------------------------------------------------------------------------------

def test_a_page_fixture_reports_the_sites_errors(new_page, base_url):
    """What fails a page's test besides its console: an answer of 400 or more from the site
    while the page is open (the server reports it: conftest.py's ConsoleWatch)."""
    context, page = new_page()
    try:
        page.goto(base_url + "build-manifest.json")
        assert page.console_watch.errors == []
        status = page.evaluate("fetch('no-such-file.js').then((r) => r.status)")
        assert status == 404
        assert "HTTP 404: /no-such-file.js" in page.console_watch.errors
    finally:
        context.close()
    before = list(page.console_watch.errors)
    context2, other = new_page()  # a closed page's watch hears no more
    try:
        other.goto(base_url + "build-manifest.json")
        other.evaluate("fetch('gone-too.js').then((r) => r.status)")
        assert page.console_watch.errors == before
        assert "HTTP 404: /gone-too.js" in other.console_watch.errors
    finally:
        context2.close()


def test_loads_with_progress_then_deals_and_the_panel_is_one_click_away(page, base_url, bot_level):
    page.goto(base_url + "build-manifest.json")
    page.evaluate("localStorage.clear()")
    # The table is shown with its deal, not empty first (one layout; the start's last step).
    page.add_init_script("""new MutationObserver(() => {
      const main = document.getElementById("app-main");
      if (main && !main.hidden && window.__cardsWhenShown === undefined)
        window.__cardsWhenShown = document.querySelectorAll("#table .hand-card").length;
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ["hidden"] });""")
    page.goto(base_url)
    assert page.locator("#loading").is_visible()
    assert page.locator("#load-progress").count() == 1
    # a first visit lands on a dealt, playable classic deal against the intermediate level
    assert wait_ui(page, ("waiting",)) == "waiting"
    assert page.evaluate("document.getElementById('load-progress').value") == 1
    assert page.locator("#loading").is_hidden()
    assert page.evaluate("window.__cardsWhenShown") >= 1
    st = read(page, "() => window.__briscola.state")
    assert st["view"]["rules"]["name"] == "classic" and st["view"]["players"] == 2
    assert [s["kind"] for s in st["seats"]] == ["human", "bot"] and st["seats"][1]["level"] == "intermediate"
    assert page.locator(".hand-card.playable").count() >= 1
    # the New game panel: one click away, classic first, the others grouped, Start in view
    page.click("#btn-new")
    page.wait_for_selector("#newgame-dialog[open]")
    first = page.eval_on_selector("#ng-variant", "s => [s.options[0].value, s.options[0].parentElement.tagName]")
    assert first == ["classic", "SELECT"]
    assert page.locator("#ng-variant optgroup").count() >= 4
    # every option of the catalog has its row and a one-line explanation
    page.click("details.house summary")
    for name in ("rebury", "exchange_two", "exchange_seven", "partner_view", "signals", "open_hands",
                 "double", "ranking", "deck", "natural_three", "southern", "exchange_brisca", "removed",
                 "hand_cards"):
        row = page.locator(f"#ng-opt-{name}").locator("xpath=ancestor::div[contains(@class,'opt')][1]")
        assert row.locator(".help").text_content().strip()
    # the games of Spain, Portugal, Croatia and Bosnia in a group of their own; Brisca and
    # Briškula bring the deck they are played with at home
    group = page.eval_on_selector("#ng-variant", "s => [...s.querySelectorAll('optgroup')].map((g) => "
                                  "[g.label, [...g.children].map((o) => o.value)]).find(([, v]) => v.includes('brisca'))")
    assert {"brisca", "bisca-nine", "briskula", "bisca", "bosnian"} <= set(group[1]), group
    for variant, style in (("brisca", "spagnole"), ("briskula", "triestine")):
        page.select_option("#ng-variant", variant)
        page.wait_for_function(f"() => document.querySelector('#ng-style').value === '{style}'")


# The variants whose table is also checked on a phone (portrait and landscape) and on a
# desktop mid-deal and at the end (each a different layout: 2 to 6 seats, open hands, two decks,
# signals, the exchange); every other variant is checked on a desktop mid-deal.
LAYOUT_VARIANTS = ["classic", "three", "four", "six", "scoperta", "double", "double-four", "bosnian-five",
                   "four-signals", "exchange-seven"]


@pytest.mark.parametrize("variant", playable_variants())
def test_whole_deal_of_every_variant(table, variant, artifacts):
    """A whole deal of every variant played by clicking, its summary the engine's; its layout
    checked mid-deal (and, for LAYOUT_VARIANTS, at the start and mid-deal on a phone in both
    orientations, on a desktop, and the summary on both)."""
    phones = variant in LAYOUT_VARIANTS
    if phones:
        table.set_viewport_size({"width": 360, "height": 640})
    start_game(table, variant, seed=5 if phones else 11)
    if phones:
        check_layout(table, artifacts, f"phone-{variant}-start")
        play_until(table, lambda pg, s: s == "waiting" and pg.evaluate("window.__briscola.state.view.tricks_done") >= 1
                   and pg.evaluate("window.__briscola.state.view.trick.length") >= 1
                   or pg.evaluate("window.__briscola.state.view.tricks_done") >= 6)
        check_layout(table, artifacts, f"phone-{variant}")
        table.set_viewport_size({"width": 1280, "height": 800})
        check_layout(table, artifacts, f"desktop-{variant}-mid")
        table.set_viewport_size({"width": 640, "height": 360})
        check_layout(table, artifacts, f"phone-landscape-{variant}")
        table.set_viewport_size({"width": 1280, "height": 800})
    # mid-deal: check the layout once a trick or two has been played
    play_until(table, lambda pg, s: s == "waiting" and pg.evaluate("window.__briscola.state.view.tricks_done") >= 2)
    check_layout(table, artifacts, f"desktop-{variant}")
    play_deal(table)
    check_summary(table)
    if phones:
        check_layout_dialog(table, artifacts, f"desktop-{variant}-summary")
        table.set_viewport_size({"width": 360, "height": 640})
        check_layout_dialog(table, artifacts, f"phone-{variant}-summary")


def check_layout_dialog(page, artifacts, name):
    page.wait_for_timeout(50)
    shot(page, str(artifacts / f"{name}.png"))
    assert_in_window(page, "#summary-dialog")


def test_start_pressed_while_the_variant_is_checked_deals_that_variant(page, base_url, bot_level):
    """Start pressed at once after picking a variant, before the engine has answered about it:
    the panel waits for that answer and deals the variant picked, with its number of seats
    (it used to deal with the answer about the variant before: an error, no deal)."""
    boot(page, base_url, prefs_for(bot_level))
    page.evaluate("""() => { const e = window.__briscola.engine; const call = e.call.bind(e);
        e.call = (type, args) => (type === 'check_rules'
          ? new Promise((ok) => setTimeout(ok, 800)).then(() => call(type, args)) : call(type, args)); }""")
    page.click("#btn-new")
    page.wait_for_selector("#newgame-dialog[open]")
    page.wait_for_function("() => document.querySelector('#newgame-dialog .teams-note').textContent !== ''")
    assert page.input_value("#ng-variant") == "classic"
    page.select_option("#ng-variant", "four")
    page.click("#ng-start")
    page.wait_for_function("""() => !document.querySelector('#newgame-dialog[open]')
        || !document.querySelector('#newgame-dialog .form-error').hidden""")
    error = page.locator("#newgame-dialog[open] .form-error")
    assert not error.count() or not error.is_visible(), error.text_content()
    table_state(page)
    assert page.evaluate("window.__briscola.state.view.players") == 4
    assert page.evaluate("window.__briscola.state.view.rules.name") == "four"


def test_a_deal_is_drawn_from_its_own_reply(page, base_url, bot_level):
    """The table's reply carries the ranks' order: drawing a new deal asks the engine nothing
    more (a `card_points` round trip used to delay every new deal and every start)."""
    page.add_init_script("""(() => { window.__sent = []; const post = Worker.prototype.postMessage;
        Worker.prototype.postMessage = function (m, ...rest) {
          if (m && typeof m.type === 'string' && m.id !== undefined) window.__sent.push(m.type);
          return post.call(this, m, ...rest); }; })()""")
    boot(page, base_url, prefs_for(bot_level))
    page.goto(base_url + f"?variant=classic&level={bot_level}&seed=5")
    assert wait_ui(page, PLAYING) == "waiting"
    sent = page.evaluate("window.__sent")
    assert "new_match" in sent and "card_points" not in sent, sent
    assert page.evaluate("typeof window.__briscola.app.order") == "string"
    start_game(page, "bisca", seed=4)
    sent = page.evaluate("window.__sent")
    assert sent.count("new_match") == 2 and "card_points" not in sent, sent
    assert page.evaluate("window.__briscola.app.order") == page.evaluate("window.__briscola.state.order")


def test_reload_mid_deal_resumes(page, base_url, bot_level):
    boot(page, base_url, prefs_for(bot_level))
    start_game(page, "four", seed=3)
    play_until(page, lambda pg, s: s == "waiting" and pg.evaluate("window.__briscola.state.view.tricks_done") >= 3)
    before = read(page, "() => window.__briscola.state")
    kept = stored_save(page)
    page.reload()
    assert wait_ui(page, ("waiting", "busy", "handoff", "summary")) == "waiting"
    after = read(page, "() => window.__briscola.state")
    assert after["view"]["hand"] == before["view"]["hand"]
    assert after["view"]["events"] == before["view"]["events"]
    assert "save" not in after and after["game"] == before["game"]
    assert stored_save(page) == kept
    # Reads leave the kept game alone: the worker writes only after a request that changed it.
    written = page.evaluate(STORED_AT_JS)
    page.evaluate("""async (seat) => { const app = window.__briscola.app;
      for (const [type, args] of [["state", {seat}], ["hint", {seat}], ["tracker", {seat}], ["history", {}]])
        await app.engine.call(type, {...args, game: app.game}); }""", after["seat"])
    assert page.evaluate(STORED_AT_JS) == written and stored_save(page) == kept
    shown = page.eval_on_selector_all(".hand .hand-card", "els => els.map(e => e.dataset.code)")
    assert shown == before["view"]["hand"]
    play_deal(page)
    check_summary(page)


STORED_AT_JS = STORED_SAVE_JS.replace("rec.save", "rec.updated")


def test_corrupt_save_of_an_older_page_is_set_aside(page, base_url, bot_level):
    """A save an older page kept in localStorage that the engine refuses: set aside by the
    worker (IndexedDB), said so, and only then taken out of localStorage."""
    page.goto(base_url + "build-manifest.json")
    page.evaluate("""p => { localStorage.clear(); localStorage.setItem('briscola.prefs', JSON.stringify(p));
                     localStorage.setItem('briscola.save', '{"format": "briscola/table", "version": 99}'); }""",
                  prefs_for(bot_level))
    page.goto(base_url)
    assert wait_ui(page) == "waiting"  # a fresh deal instead, and the notice says why
    assert "set aside" in page.text_content("#notice")
    aside = page.evaluate(ASIDE_JS)
    assert len(aside) == 1 and "version" in aside[0]["record"]["save"]
    assert page.evaluate("localStorage.getItem('briscola.save')") is None


ASIDE_JS = """async () => {
  const db = await new Promise((ok, no) => { const r = indexedDB.open('briscola-games');
    r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
  const all = await new Promise((ok, no) => { const r = db.transaction('aside').objectStore('aside').getAll();
    r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
  db.close();
  return all;
}"""


def test_keyboard_only_deal(page, base_url, bot_level):
    boot(page, base_url, prefs_for(bot_level))
    start_game(page, "classic", seed=21)
    # reach the hand with Tab alone
    for _ in range(40):
        if page.evaluate("!!document.activeElement.closest('.hand')"):
            break
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.classList.contains('hand-card')")
    step = 0
    while True:
        state = wait_ui(page, ("waiting", "summary"))
        if state == "summary":
            break
        assert page.evaluate("document.activeElement.classList.contains('hand-card')"), "focus left the hand"
        # arrow keys move between cards, Enter plays
        page.keyboard.press("ArrowRight")
        if step % 2:
            page.keyboard.press("ArrowLeft")
        focused = page.evaluate("document.activeElement.dataset.code")
        assert focused in page.evaluate("window.__briscola.state.view.hand")
        act_and_wait(page, lambda: page.keyboard.press("Enter"))
        step += 1
        assert step < 60
    check_summary(page)
    # the summary's main button has the focus: Enter starts the next step
    assert page.evaluate("document.activeElement.closest('dialog') !== null")


def test_handoff_hides_hands(page, base_url, bot_level):
    prefs = prefs_for(bot_level)
    prefs["newgame"]["seats"][0]["name"] = "Anna"
    prefs["newgame"]["seats"][2] = {"kind": "human", "name": "Bruno"}
    boot(page, base_url, prefs)
    state = start_game(page, "four", seed=9)
    assert state == "handoff"
    seen = 0
    for _ in range(80):
        state = wait_ui(page, ("waiting", "summary", "handoff"))
        if state == "summary":
            break
        if state == "handoff":
            assert page.locator("#handoff").is_visible()
            title = page.text_content("#handoff-title")
            assert "Anna" in title or "Bruno" in title
            # nothing of any hand is visible while the device changes hands
            assert page.locator(".hand .card.face").count() == 0
            cover = page.locator("#handoff").bounding_box()
            assert cover["width"] >= 1280 - 1 and cover["height"] >= 800 - 1
            page.click("#handoff-go")
            seen += 1
            continue
        seat = page.evaluate("window.__briscola.state.view.seat")
        assert page.evaluate("window.__briscola.state.seats")[seat]["kind"] == "human"
        assert page.locator(".hand .card.face").count() == len(page.evaluate("window.__briscola.state.view.hand"))
        assert page.locator(".undo-btn").is_hidden()  # an undo would show another person's cards
        if seen >= 4:
            break
        play_turn(page, 1)
    assert seen >= 3


def test_switch_language(page, base_url, bot_level):
    boot(page, base_url, prefs_for(bot_level))
    start_game(page, "classic", seed=2)
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.text_content(".sb-turn") == "Your turn"
    english_rules = page.locator("#btn-rules").get_attribute("title")
    pick_lang(page, "it")
    assert page.evaluate("document.documentElement.lang") == "it"
    assert page.text_content(".sb-turn") == "Tocca a te"
    assert page.locator("#btn-rules").get_attribute("title") == "Regole"
    assert page.locator(".hand-card").first.get_attribute("aria-label") != ""
    page.click("#btn-rules")
    assert "Regole" in page.text_content("#rules-dialog h2")
    assert "briscola" in page.text_content("#rules-dialog").lower()
    page.keyboard.press("Escape")
    pick_lang(page, "en")
    assert page.locator("#btn-rules").get_attribute("title") == english_rules
    page.click("#btn-rules")
    assert "rules" in page.text_content("#rules-dialog h2").lower()
    page.keyboard.press("Escape")
    # remembered
    assert json.loads(page.evaluate("localStorage.getItem('briscola.prefs')"))["lang"] == "en"


def locale_words(lang: str) -> dict:
    text = (Path(__file__).resolve().parents[2] / "js" / "locales" / f"{lang}.js").read_text(encoding="utf-8")
    return json.loads(text[text.index("\nexport default ") + len("\nexport default "):].strip().rstrip(";"))


def test_a_first_visit_speaks_the_browser_language_and_the_menu_names_each(page, base_url, bot_level):
    """No language chosen yet and a browser that asks for Croatian first: the page speaks
    Croatian (its words, its card names), the menu lists every language in its own name, and a
    pick in the menu changes it (and is kept)."""
    hr = locale_words("hr")
    page.add_init_script("Object.defineProperty(Navigator.prototype, 'languages', {get: () => ['hr-HR', 'en-US']})")
    boot(page, base_url, {k: v for k, v in prefs_for(bot_level).items() if k != "lang"})
    assert page.evaluate("document.documentElement.lang") == "hr"
    assert page.locator("#btn-rules").get_attribute("title") == hr["menu.rules"]
    assert page.text_content("#btn-lang-text") == "HR"
    start_game(page, "classic", seed=2)
    assert page.text_content(".sb-turn") == hr["table.turn.you"]
    names = page.eval_on_selector_all(".hand-card", "els => els.map(e => e.getAttribute('aria-label'))")
    assert names and all(re.search(r" (od dinara|od kupa|od špada|od bata)$", n) for n in names), names
    # the menu: every language by its own name, the current one marked; Escape gives the focus back
    page.click("#btn-lang")
    items = page.eval_on_selector_all("#lang-menu button", "els => els.map(e => [e.dataset.lang, e.textContent, e.getAttribute('aria-current')])")
    langs = [code for code, _, _ in items]
    assert {"en", "it", "es", "hr"} <= set(langs)
    assert all(name == locale_words(code)["lang.name"] for code, name, _ in items)
    assert [code for code, _, cur in items if cur == "true"] == ["hr"]
    assert page.evaluate("document.activeElement.dataset.lang") == "hr"
    page.keyboard.press("Escape")
    assert page.evaluate("document.activeElement.id") == "btn-lang" and page.locator("#lang-menu").is_hidden()
    pick_lang(page, "es")
    assert page.text_content(".sb-turn") == locale_words("es")["table.turn.you"]
    assert json.loads(page.evaluate("localStorage.getItem('briscola.prefs')"))["lang"] == "es"


def test_illegal_action_is_refused_and_changes_nothing(page, base_url, bot_level):
    boot(page, base_url, prefs_for(bot_level))
    start_game(page, "classic", seed=4)
    res = page.evaluate("""async () => {
      const e = window.__briscola.engine;
      const before = await e.call('state', {seat: 0});
      const out = [];
      for (const action of ['XX', '2D', 'AD', 'KS', 'swap-7D']) {
        if (before.view.hand.includes(action)) continue;
        try { await e.call('act', {seat: 0, action}); out.push('accepted ' + action); }
        catch (err) { out.push(err.code); }
      }
      try { await e.call('act', {seat: 1, action: before.view.hand[0]}); out.push('accepted other seat'); }
      catch (err) { out.push(err.code); }
      const after = await e.call('state', {seat: 0});
      return {out, same: JSON.stringify(before) === JSON.stringify(after)};
    }""")
    assert res["same"]
    assert all(code in ("illegal_action", "bad_action", "bad_request") for code in res["out"]), res["out"]
    # the page still plays normally
    play_deal(page)
    check_summary(page)


def test_statistics_count_and_reset(page, base_url, bot_level):
    boot(page, base_url, prefs_for(bot_level))
    start_game(page, "classic", seed=8)
    play_deal(page)
    check_summary(page)
    page.keyboard.press("Escape")
    page.click("#btn-stats")
    row = page.locator("#stats-dialog tr[data-variant='classic'] td")
    assert row.nth(0).text_content() == "1"
    page.once("dialog", lambda d: d.accept())
    page.click("#stats-reset")
    assert page.locator("#stats-dialog tr[data-variant]").count() == 0
    page.keyboard.press("Escape")


def test_match_chart_and_next_deal(page, base_url, bot_level):
    boot(page, base_url, prefs_for(bot_level))
    start_game(page, "best-of-3", seed=12)
    play_deal(page)
    check_summary(page)
    assert page.locator("#summary-dialog svg.chart rect.bar").count() >= 2
    page.click("#sum-next")
    wait_ui(page, ("waiting", "busy"))
    assert page.evaluate("window.__briscola.state.match.deal") == 1
    play_deal(page)
    check_summary(page)


def test_hint_and_last_trick_review(page, base_url, bot_level):
    boot(page, base_url, prefs_for(bot_level))
    start_game(page, "three", seed=6)
    page.click(".actions button:has-text('Hint')")
    page.wait_for_function("() => document.querySelector('.hint-line').textContent.startsWith('Hint:')")
    hinted = page.locator(".hand-card.hinted")
    assert hinted.count() == 1
    assert hinted.get_attribute("data-code") in page.evaluate("window.__briscola.state.view.legal")
    act_and_wait(page, lambda: hinted.click())
    play_until(page, lambda pg, s: s == "waiting" and pg.evaluate("window.__briscola.state.view.tricks_done") >= 1)
    page.click(".actions button:has-text('Last trick')")
    page.wait_for_selector("#trick-dialog[open]")
    last = page.evaluate("window.__briscola.state.view.tricks.at(-1)")
    assert page.locator("#trick-dialog .review figure").count() == len(last["plays"])
    assert page.locator("#trick-dialog figure.won").count() == 1
    page.keyboard.press("Escape")
    assert page.locator("#trick-dialog[open]").count() == 0


def test_chiamata_is_playable_from_the_table(page, base_url, bot_level, artifacts):
    """Chiamata from the new-game panel: the auction and the call are played from the panel in
    the middle of the felt (tests/browser/test_chiamata.py covers them in depth)."""
    boot(page, base_url, prefs_for(bot_level))
    page.click("#btn-new")  # a first visit deals a classic game: the panel is one click away
    page.wait_for_selector("#newgame-dialog[open]")
    page.select_option("#ng-players", "5")
    if not page.locator("#ng-opt-mode").is_visible():
        page.click("details.house summary")
    page.select_option("#ng-opt-mode", "chiamata")
    page.wait_for_function("() => !document.getElementById('ng-start').disabled")
    page.click("#ng-start")
    wait_ui(page, ("waiting", "summary", "error"))
    for step in range(200):
        state = wait_ui(page, ("waiting", "summary", "error"))
        assert state != "error", page.text_content("#notice")
        if state == "summary":
            break
        phase = page.evaluate("window.__briscola.state.view.phase")
        if phase in ("auction", "call"):
            assert page.text_content(".board")
            if step == 0:
                shot(page, str(artifacts / "desktop-chiamata-auction.png"))
                page.set_viewport_size({"width": 360, "height": 640})
                shot(page, str(artifacts / "phone-chiamata-auction.png"))
                page.set_viewport_size({"width": 1280, "height": 800})
            act_and_wait(page, lambda: page.locator(".board button[data-action]:not(:disabled)").first.click())
        else:
            play_turn(page, 1)
    check_summary(page)
