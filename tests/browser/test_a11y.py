"""Accessibility of the page in Chromium: axe-core (node_modules/axe-core, pinned in
package.json) over every screen in every language of pagekit.LANGUAGES, with no violation of
WCAG 2.2 A and AA: in English and Italian at three window sizes (the contrast and cut checks at
four), in each other language at one of them; a whole deal, the review's replay and the
puzzle by keyboard alone, the focus never on <body>; what the live regions inside the dialogs
say; Escape from a panel back to where the person was.

One warm page walks every screen and is resized on each (axe takes a fraction of a second a
screen, more as the page's document grows over the walk), so the whole check costs seconds a
size, not a page a screen.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from pagekit import LANGUAGES, act_and_wait, read, shot, wait_ui
from test_table import boot, play_until, prefs_for, start_game

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SIZES = [(1280, 800), (390, 844), (360, 740), (320, 640)]
AXE_WIDTHS = (1280, 390, 320)  # axe at these; the contrast and cut checks at every size
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]
# The layout at each size is the same code in every language: English and Italian are walked at
# every size, each other language at one (axe, contrast and cut there), the sizes shared out so
# that each size with axe sees the longer words of one at least: Spanish at 320 px (its New game
# was cut there), Croatian at 1280 px (its retry named otherwise than its visible words, seen
# there), Portuguese at 390 px, Slovene at 320; a language added later, at 320 px.
EVERY_SIZE = ("en", "it")
ONE_SIZE = {"es": (320, 640), "hr": (1280, 800), "pt": (390, 844), "sl": (320, 640)}


def sizes_for(lang):
    assert set(EVERY_SIZE) <= set(LANGUAGES)
    size = ONE_SIZE.get(lang, (320, 640))
    assert size in SIZES and size[0] in AXE_WIDTHS
    return SIZES if lang in EVERY_SIZE else [size]


# An open modal dialog is the screen (the rest of the page is inert behind it): axe looks at it
# alone, and at the whole page otherwise.
AXE_RUN_JS = """async (tags) => {
  const top = [...document.querySelectorAll('dialog')].filter((d) => d.matches(':modal')).pop();
  const res = await axe.run(top || document, {runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
  return res.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 4).map(n => [n.target.join(' '), n.failureSummary.split('\\n').slice(1, 2).join('')])}));
}"""


# Contrast as WCAG 1.4.3 and 1.4.11 count it, where axe cannot (it leaves text over a gradient
# undecided): each color of what lies behind (a gradient's every stop, the layers' alphas, the
# element's own opacity on its text) against the text, the worst of them; and the focus ring
# against what lies around it.
CONTRAST_JS = """
const parse = (c) => { const m = /rgba?\\(([^)]+)\\)/.exec(c || ''); if (!m) return null;
  const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
const over = (top, under) => { const a = top[3]; return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1); };
function behind(el) {
  const layers = [];
  for (let e = el; e; e = e.parentElement) {
    const cs = getComputedStyle(e);
    const img = cs.backgroundImage;
    const stops = img && img !== 'none' ? [...img.matchAll(/rgba?\\([^)]+\\)/g)].map((m) => parse(m[0])) : [];
    const bg = parse(cs.backgroundColor);
    if (stops.length) layers.push(stops);
    if (bg && bg[3] > 0) layers.push([bg]);
    if ((bg && bg[3] >= 1) || (stops.length && stops.every((x) => x[3] >= 1))) break;
    // a layer drawn under the element's content by its ::before (the felt)
    const pre = getComputedStyle(e, '::before');
    if (pre.content !== 'none' && pre.position === 'absolute') {
      const pimg = pre.backgroundImage;
      const pstops = pimg && pimg !== 'none' ? [...pimg.matchAll(/rgba?\\([^)]+\\)/g)].map((m) => parse(m[0])) : [];
      const pbg = parse(pre.backgroundColor);
      if (pstops.length) layers.push(pstops);
      if (pbg && pbg[3] > 0) layers.push([pbg]);
      if ((pbg && pbg[3] >= 1) || (pstops.length && pstops.every((x) => x[3] >= 1))) break;
    }
  }
  let under = [[255, 255, 255, 1]];
  for (const layer of layers.reverse()) {
    const next = [];
    for (const c of layer) for (const u of under) next.push(over(c, u));
    under = next.slice(0, 32);
  }
  return under;
}
const topModal = () => [...document.querySelectorAll('dialog')].filter((d) => d.matches(':modal')).pop() || null;
"""

TEXT_CONTRAST_JS = "() => {" + CONTRAST_JS + """
  const scope = topModal() || document.body;
  const out = [];
  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
  const seen = new Set();
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || seen.has(el) || el.closest('svg, [inert], [aria-hidden=true], .sr-only, :disabled, [aria-disabled=true], option')) continue;
    seen.add(el);
    if (!el.checkVisibility({opacityProperty: true, visibilityProperty: true})) continue;
    const r = el.getBoundingClientRect();
    if (r.width <= 2 || r.height <= 2 || r.bottom < 0 || r.right < 0 || r.left > innerWidth) continue;
    const cs = getComputedStyle(el);
    let fg = parse(cs.color);
    let alpha = fg[3];
    for (let e = el; e; e = e.parentElement) alpha *= Number(getComputedStyle(e).opacity);
    const size = parseFloat(cs.fontSize), bold = Number(cs.fontWeight) >= 700;
    if (size < 1) continue; // a word kept for screen readers only (the dealer's dot)
    const need = size >= 24 || (bold && size >= 18.66) ? 3 : 4.5;
    const worst = Math.min(...behind(el).map((b) => ratio(over([fg[0], fg[1], fg[2], alpha], b), b)));
    if (worst < need - 0.005) out.push(`${el.tagName.toLowerCase()}.${el.className} "${n.textContent.trim().slice(0, 30)}" ${worst.toFixed(2)}:1`);
  }
  return out;
}"""

RING_CONTRAST_JS = "() => {" + CONTRAST_JS + """
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const cs = getComputedStyle(el);
  if (cs.outlineStyle === 'none' || parseFloat(cs.outlineWidth) < 2) return `${el.tagName} ${el.id || el.className}: no focus ring`;
  const ring = parse(cs.outlineColor);
  const around = behind(el.parentElement || el);
  const worst = Math.min(...around.map((b) => ratio(over(ring, b), b)));
  return worst < 3 - 0.005 ? `${el.tagName.toLowerCase()}#${el.id}.${el.className}: ring ${worst.toFixed(2)}:1` : null;
}"""


def inject_axe(page):
    """axe-core into the page, by the driver (the page's CSP allows no script of another origin,
    and none is needed: the driver's own evaluation is not the page's script)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8") + "\n;undefined")
    assert page.evaluate("typeof window.axe.run === 'function'")


def violations(page, where: str) -> list[str]:
    inject_axe(page)
    page.wait_for_timeout(30)
    found = page.evaluate(AXE_RUN_JS, TAGS)
    return [f"{where}: {v['id']} ({v['impact']}) {v['help']}: {v['nodes']}" for v in found]


def focus_desc(page) -> str:
    return page.evaluate("""() => { const a = document.activeElement;
      return !a || a === document.body ? 'body' : a.tagName.toLowerCase() + (a.id ? '#' + a.id : '') + '.' + a.className; }""")


def assert_focus_kept(page, where: str):
    assert focus_desc(page) != "body", f"the focus fell to <body>: {where}"


def live_said(page) -> str:
    """What the live region the person can hear now holds: the one inside the open modal
    dialog that is on top, else the page's."""
    return page.evaluate("""() => {
      const top = [...document.querySelectorAll('dialog')].filter(d => d.matches(':modal')).pop();
      const box = top ? top.querySelector(':scope > .dialog-live') : document.getElementById('live');
      return box ? box.textContent : null; }""")


def wait_said(page, pattern: str):
    page.wait_for_function("""p => { const top = [...document.querySelectorAll('dialog')].filter(d => d.matches(':modal')).pop();
      const box = top ? top.querySelector(':scope > .dialog-live') : document.getElementById('live');
      return box && new RegExp(p).test(box.textContent); }""", arg=pattern)
    return live_said(page)


def open_screen(page, opener: str, ready: str):
    page.click(opener)
    page.wait_for_selector(ready)


def close_top(page):
    page.keyboard.press("Escape")


# What a narrow window cuts: the top dialog wider than the window or its content wider than
# it (a part past its right edge, outside a table that scrolls on purpose), a select's chosen
# words wider than the select.
CUT_JS = """() => {
  const out = [];
  const d = [...document.querySelectorAll('dialog')].filter((x) => x.matches(':modal')).pop();
  if (!d) return out;
  const box = d.getBoundingClientRect();
  if (box.left < -1 || box.right > innerWidth + 1) out.push(`the dialog ${d.id} runs past the window`);
  for (const el of d.querySelectorAll('*')) {
    if (el.closest('.table-wrap, svg') || !el.checkVisibility()) continue;
    const r = el.getBoundingClientRect();
    if (r.width && r.right > box.right + 1) out.push(`${el.tagName.toLowerCase()}#${el.id}.${el.className} past the dialog's edge by ${Math.round(r.right - box.right)} px`);
  }
  const ctx = document.createElement('canvas').getContext('2d');
  for (const sel of d.querySelectorAll('select')) {
    if (!sel.checkVisibility() || sel.selectedIndex < 0) continue;
    const cs = getComputedStyle(sel);
    ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const words = ctx.measureText(sel.options[sel.selectedIndex].text).width;
    const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20; // its arrow
    if (words > room + 1) out.push(`select#${sel.id}: "${sel.options[sel.selectedIndex].text}" cut (${Math.round(words)} px in ${Math.round(room)})`);
  }
  return out;
}"""


def check_sizes(page, where, found, sizes=SIZES):
    for w, h in sizes:
        page.set_viewport_size({"width": w, "height": h})
        if w in AXE_WIDTHS:
            found += violations(page, f"{where} {w}px")
        found += [f"{where} {w}px: text contrast {x}" for x in page.evaluate(TEXT_CONTRAST_JS)]
        found += [f"{where} {w}px: {x}" for x in page.evaluate(CUT_JS)]
        scroll = page.evaluate("document.documentElement.scrollWidth > innerWidth + 1")
        if scroll:
            found.append(f"{where} {w}px: the page scrolls sideways")
    page.set_viewport_size({"width": 1280, "height": 800})


def mid_deal_screens(page, lang, found):
    """The table mid-deal and the menus' panels."""
    check_sizes(page, f"{lang} table", found, sizes_for(lang))
    for name, opener, ready in [("new game", "#btn-new", "#newgame-dialog[open] #ng-start"),
                                ("rules", "#btn-rules", "#rules-dialog[open] #rules-title"),
                                ("statistics", "#btn-stats", "#stats-dialog[open] #btn-puzzle"),
                                ("settings", "#btn-settings", "#settings-dialog[open] #set-lang")]:
        open_screen(page, opener, ready)
        check_sizes(page, f"{lang} {name}", found, sizes_for(lang))
        close_top(page)
    # the puzzle, from the statistics
    open_screen(page, "#btn-stats", "#stats-dialog[open] #btn-puzzle")
    open_screen(page, "#btn-puzzle", "#puzzle-dialog[open] .puzzle-hand button")
    check_sizes(page, f"{lang} puzzle", found, sizes_for(lang))
    close_top(page)
    close_top(page)
    wait_ui(page, ("waiting",))


def end_screens(page, lang, found):
    """The result, the review (its replay and a retry), the table looked at after the deal."""
    page.wait_for_selector("#summary-dialog[open] .sum-side")
    check_sizes(page, f"{lang} end of deal", found, sizes_for(lang))
    page.click("#sum-review")
    page.wait_for_selector("#review-dialog[open] #rv-accuracy", timeout=120000)
    page.click("#rv-next")
    retry = page.locator("#review-dialog .rv-retry-btn")
    if retry.count():
        retry.first.click()
        page.wait_for_selector("#review-dialog .rv-retry-hand button")
    check_sizes(page, f"{lang} review", found, sizes_for(lang))
    page.click("#rv-close")
    close_top(page)  # the result closed: the table looked at
    page.wait_for_selector("#look-bar .btn")
    check_sizes(page, f"{lang} deal over", found, sizes_for(lang))
    page.click("#look-result")
    page.wait_for_selector("#summary-dialog[open]")


def test_axe_over_every_screen_at_three_sizes(new_page, base_url):
    context, page = new_page(1280, 800)
    found: list[str] = []
    try:
        boot(page, base_url, prefs_for("beginner", lang=LANGUAGES[0]))
        start_game(page, "classic", seed=11)
        act_and_wait(page, lambda: page.locator(".hand-card.playable").first.click())
        for lang in LANGUAGES:
            page.evaluate("l => window.__briscola.app.setLanguage(l)", lang)
            mid_deal_screens(page, lang, found)
        play_until(page, lambda pg, s: s == "summary")
        for lang in LANGUAGES:
            if page.locator("#summary-dialog[open]").count():
                page.keyboard.press("Escape")
            page.evaluate("l => window.__briscola.app.setLanguage(l)", lang)
            page.click("#look-result") if page.locator("#look-result").is_visible() else None
            end_screens(page, lang, found)
        # a table of four: the partners' badges, the sides' scores
        start_game(page, "four", seed=3)
        for lang in LANGUAGES:
            page.evaluate("l => window.__briscola.app.setLanguage(l)", lang)
            check_sizes(page, f"{lang} four players", found, sizes_for(lang))
    finally:
        context.close()
    print(f"axe: {len(found)} violations")
    assert not found, "\n".join(found)
    assert not page.console_watch.errors, page.console_watch.errors


# ---- by keyboard alone: where the focus is after each key, what the live regions say -------

def press(page, key: str, where: str):
    """A key; the focus is not on <body> after it, and a ring of 3:1 at least shows where it is."""
    page.keyboard.press(key)
    assert_focus_kept(page, f"{where}, after {key}")
    ring = page.evaluate(RING_CONTRAST_JS)
    assert ring is None, f"{where}, after {key}: {ring}"


TABBABLE_JS = """s => {
  const top = [...document.querySelectorAll('dialog')].filter(d => d.matches(':modal')).pop() || document.body;
  const all = [...top.querySelectorAll('a[href], button, input, select, textarea, summary, [tabindex]')]
    .filter(e => e.tabIndex >= 0 && !e.disabled && !e.closest('[inert]') && e.checkVisibility({visibilityProperty: true}));
  return [all.indexOf(document.activeElement), all.findIndex(e => e.matches(s))];
}"""


def tab_to(page, selector: str, where: str):
    """Tab (or Shift+Tab, the shorter way that stays inside the page) until the focus is on
    `selector`; never on <body> on the way."""
    here, there = page.evaluate(TABBABLE_JS, selector)
    assert there >= 0, f"{where}: nothing to tab to as {selector}"
    key = "Tab" if here < there else "Shift+Tab"
    for _ in range(abs(there - here) + 3):
        if page.evaluate("s => document.activeElement && document.activeElement.matches(s)", selector):
            return
        press(page, key, f"{where}: on the way to {selector}")
    pytest.fail(f"{where}: Tab never reached {selector}")


def keyboard_deal(page, where):
    """The skip link to the hand, then arrows and Enter: after every play a card of the hand
    has the focus (or the result's main button at the end)."""
    page.focus("a.skip")  # the page's first stop, as a Tab from the address bar reaches it
    press(page, "Enter", f"{where}: the skip link followed")
    assert page.evaluate("document.activeElement.classList.contains('hand-card')"), focus_desc(page)
    for step in range(60):
        state = wait_ui(page, ("waiting", "summary"))
        if state == "summary":
            break
        assert page.evaluate("document.activeElement.classList.contains('hand-card')"), f"{where}: {focus_desc(page)}"
        if step % 3 == 1:
            press(page, "ArrowRight", where)
        act_and_wait(page, lambda: page.keyboard.press("Enter"))
        state = wait_ui(page, ("waiting", "summary"))
        if state == "waiting":
            assert page.evaluate("document.activeElement.classList.contains('hand-card')"), \
                f"{where}: after a play the focus is on {focus_desc(page)}"
            # the turn said on the page's live region, with every card that may be played
            page.wait_for_function("""() => { const live = document.getElementById('live').textContent;
                const app = window.__briscola.app;
                const cards = app.state.view.legal.filter(a => /^[A2-9TJHK][DCSB]$/.test(a));
                return cards.length && cards.every(c => live.includes(app.cardText(c))); }""")
    else:
        pytest.fail("the deal did not end")
    page.wait_for_selector("#summary-dialog[open]")
    assert page.evaluate("document.activeElement.closest('#summary-dialog') !== null"), focus_desc(page)


def keyboard_review(page, where):
    """The review from the result, its replay stepped with ▶ (the focus stays on it: one key a
    step, the step said), a mistake tried again; "Review done" said inside the dialog."""
    tab_to(page, "#sum-review", where)
    press(page, "Enter", f"{where}: the review opened")
    page.wait_for_selector("#review-dialog[open] #rv-accuracy", timeout=120000)
    said = wait_said(page, r"\d+\s?%")
    assert re.search(r"\d", said), said
    tab_to(page, "#rv-next", where)
    steps = read(page, """() => window.__briscola.engine.call('replay', {deal: window.__briscola.state.match.deal,
        seat: window.__briscola.state.seat, step: 0})""")["steps"]
    for k in range(1, 6):
        press(page, "Enter", f"{where}: replay step {k}")
        page.wait_for_function("k => document.querySelector('#rv-pos').textContent.match(/\\d+/)[0] === String(k)", arg=k)
        said = wait_said(page, rf"^\D*\b{k}\b\D+\b{steps}\b")
        assert page.evaluate("document.activeElement.id") == "rv-next", f"{where}: step {k}: {focus_desc(page)}"
        # the step said: its number and the card just played, by name
        last = page.evaluate("() => [...document.querySelectorAll('#rv-felt figure')].map(f => f.dataset.card).pop()")
        if last:
            name = page.evaluate("c => window.__briscola.app.coach.review.actionWords(c)", last)
            assert name in said, (k, said, name)
    retry = page.locator("#review-dialog .rv-retry-btn")
    if retry.count():
        tab_to(page, ".rv-retry-btn", where)
        press(page, "Enter", f"{where}: try again")
        page.wait_for_function("() => document.activeElement.closest('.rv-retry-hand')")
        card = page.evaluate("document.activeElement.dataset.card")
        press(page, "Enter", f"{where}: a card tried again")
        page.wait_for_selector(".rv-retry-found, .rv-retry-miss")
        shown = page.text_content(".rv-retry-found, .rv-retry-miss")
        assert wait_said(page, re.escape(shown[:20])) == shown
        name = page.evaluate("c => window.__briscola.app.coach.review.actionWords(c)", card)
        assert name in shown
        assert_focus_kept(page, f"{where}: after the card tried")
    press(page, "Escape", f"{where}: the review closed")
    page.wait_for_selector("#review-dialog", state="hidden")
    assert page.evaluate("document.activeElement.closest('#summary-dialog') !== null"), focus_desc(page)


def keyboard_puzzle(page, where):
    """The puzzle from the statistics: the focus on a card to play at once, then after each
    card on the next (or Close), the verdict said inside the dialog."""
    tab_to(page, "#btn-stats", where)
    press(page, "Enter", f"{where}: the statistics")
    page.wait_for_selector("#stats-dialog[open] #btn-puzzle")
    tab_to(page, "#btn-puzzle", where)
    press(page, "Enter", f"{where}: the puzzle")
    page.wait_for_selector("#puzzle-dialog[open] .puzzle-hand button")
    page.wait_for_function("() => document.activeElement.closest('.puzzle-hand')")
    for _ in range(12):
        before = page.locator("#puzzle-dialog .puzzle-status").count() and page.text_content("#puzzle-dialog .puzzle-status")
        card = page.evaluate("document.activeElement.dataset.card")
        assert card, focus_desc(page)
        press(page, "Enter", f"{where}: a card of the puzzle")
        page.wait_for_function("b => { const s = document.querySelector('#puzzle-dialog .puzzle-status');"
                               " return s && s.textContent !== b; }", arg=before or "")
        status = page.text_content("#puzzle-dialog .puzzle-status")
        assert wait_said(page, re.escape(status[:20])) == status
        assert_focus_kept(page, f"{where}: after a card of the puzzle")
        if page.locator("#puzzle-dialog .puzzle-status.solved, #puzzle-dialog .puzzle-status.failed").count():
            assert page.evaluate("document.activeElement.id") == "puzzle-close", focus_desc(page)
            break
        assert page.evaluate("!!document.activeElement.closest('.puzzle-hand')"), focus_desc(page)
    else:
        pytest.fail("the puzzle never ended")
    press(page, "Enter", f"{where}: the puzzle closed")
    # a deal reviewed from the statistics' list: Escape goes back to the statistics
    page.wait_for_selector("#stats-dialog[open] .mh-review")
    tab_to(page, ".mh-review", where)
    press(page, "Enter", f"{where}: a deal of the list reviewed")
    page.wait_for_selector("#review-dialog[open] #rv-accuracy", timeout=120000)
    page.keyboard.press("Escape")
    page.wait_for_selector("#stats-dialog[open]")
    page.wait_for_function("() => document.activeElement.closest('#stats-dialog')")
    press(page, "Escape", f"{where}: the statistics closed")


# (the keys and the focus are the same in every language: two of them, one with the longest words)
@pytest.mark.parametrize("lang", ["it", "hr"])
def test_a_deal_its_review_and_the_puzzle_by_keyboard(new_page, base_url, lang):
    context, page = new_page(1280, 800)
    try:
        boot(page, base_url, prefs_for("beginner", lang=lang))
        start_game(page, "classic", seed=11)
        keyboard_deal(page, lang)
        keyboard_review(page, lang)
        # the result: Choose another game, then Escape: back to the result, not a dead end
        tab_to(page, "#sum-new", lang)
        press(page, "Enter", f"{lang}: another game")
        page.wait_for_selector("#newgame-dialog[open]")
        press(page, "Escape", f"{lang}: the new game panel closed")
        page.wait_for_selector("#summary-dialog[open]")
        assert page.evaluate("document.activeElement.closest('#summary-dialog') !== null"), focus_desc(page)
        page.keyboard.press("Escape")  # the result put away: the focus on the look bar's way on
        page.wait_for_function("() => document.activeElement.closest('#look-bar')")
        keyboard_puzzle(page, lang)
    finally:
        context.close()
    assert not page.console_watch.errors, page.console_watch.errors


# ---- the long hand on a phone: a play moves no other card; every pixel plays its card ------

# Each card's place in the hand (the hand as a whole may move, as the hint line under it grows).
HAND_JS = """() => { const h = document.querySelector('.hand').getBoundingClientRect();
  return [...document.querySelectorAll('.hand .hand-card')].map(c => {
  const r = c.getBoundingClientRect(); return [c.dataset.key, Math.round(r.left - h.left), Math.round(r.top - h.top)]; }); }"""

RECTS_JS = """() => [...document.querySelectorAll('.hand .hand-card')].map(c => {
  const r = c.getBoundingClientRect(), f = c.querySelector('.card').getBoundingClientRect();
  return c.dataset.key + ' btn ' + [r.top, r.bottom, r.left, r.right].map(Math.round) + ' face ' + [f.top, f.bottom, f.left, f.right].map(Math.round); })"""


# Each pixel of each card's face that shows (the faces of cards drawn over it taken out), at
# its centre: the card under the finger there is that card.
PIXELS_JS = """() => {
  const cards = [...document.querySelectorAll('.hand .hand-card')];
  const z = (c) => Number(getComputedStyle(c).zIndex) || 0;
  const faces = cards.map((c) => c.querySelector('.card').getBoundingClientRect());
  const wrong = [];
  cards.forEach((c, i) => {
    const f = faces[i];
    const above = cards.map((o, j) => j).filter((j) => j !== i && (z(cards[j]) > z(c) || (z(cards[j]) === z(c) && j > i)));
    for (let y = Math.floor(f.top) + 0.5; y < f.bottom; y += 1) for (let x = Math.floor(f.left) + 0.5; x < f.right; x += 2) {
      if (x < f.left + 1 || y < f.top + 1 || x > f.right - 1 || y > f.bottom - 1) continue; // a pixel's rounding
      // the rounded corners are not the card's
      const rx = f.width * 0.07, ry = f.height * 0.044;
      const cx = Math.min(Math.max(x, f.left + rx), f.right - rx), cy = Math.min(Math.max(y, f.top + ry), f.bottom - ry);
      if (((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 > 1) continue;
      if (above.some((j) => x >= faces[j].left - 1 && x < faces[j].right + 1 && y >= faces[j].top - 1 && y < faces[j].bottom + 1)) continue;
      const hit = document.elementFromPoint(x, y);
      if (!hit || hit.closest('.hand-card') !== c) wrong.push(`${c.dataset.key} at ${x},${y}: ${hit && hit.closest('.hand-card') ? hit.closest('.hand-card').dataset.key : hit && hit.className}`);
    }
  });
  return wrong;
}"""


def test_the_long_hand_on_a_phone_keeps_its_places(new_page, base_url, artifacts, height=640):
    """Chiamata's eight cards on a phone upright, in two rows: each card plays from every
    pixel of it that shows, and after each play every other card is where it was."""
    context, page = new_page(360, height)
    try:
        boot(page, base_url, prefs_for("beginner"))
        page.click("#btn-new")
        page.wait_for_selector("#newgame-dialog[open]")
        page.select_option("#ng-players", "5")
        if not page.locator("#ng-opt-mode").is_visible():
            page.click("details.house summary")
        page.select_option("#ng-opt-mode", "chiamata")
        page.wait_for_function("() => !document.getElementById('ng-start').disabled")
        page.click("#ng-start")
        plays = 0
        for _ in range(60):
            state = wait_ui(page, ("waiting", "summary"))
            if state == "summary" or plays == 4:
                break
            if page.evaluate("window.__briscola.state.view.phase") in ("auction", "call"):
                act_and_wait(page, lambda: page.locator(".board button[data-action]:not(:disabled)").first.click())
                continue
            if plays == 0:
                assert len({y for _, _, y in page.evaluate(HAND_JS)}) == 2, "the eight cards are not in two rows"
            wrong = page.evaluate(PIXELS_JS)
            assert not wrong, (wrong[:4], len(wrong), page.evaluate(RECTS_JS))
            shot(page, str(artifacts / f"a11y-long-hand-{height}-{plays}.png"))
            before = {k: (x, y) for k, x, y in page.evaluate(HAND_JS)}
            card = page.locator(".hand-card.playable").last
            played = card.get_attribute("data-key")
            act_and_wait(page, lambda: card.click())
            wait_ui(page, ("waiting", "summary"))
            after = {k: (x, y) for k, x, y in page.evaluate(HAND_JS)}
            assert played not in after
            moved = {k: (before[k], at) for k, at in after.items() if k in before and before[k] != at}
            assert not moved, f"a play moved other cards: {moved}"
            plays += 1
        assert plays == 4
    finally:
        context.close()
    assert not page.console_watch.errors, page.console_watch.errors


# ---- the friends' dialogs: the host's lobby and the friend's join dialog ---------------------

FRIENDS_SIZES = [(1280, 800), (390, 844)]


def friends_screen(page, where: str, found: list[str]) -> None:
    """axe, the text contrast and the cuts over the open friends dialog at FRIENDS_SIZES."""
    for w, h in FRIENDS_SIZES:
        page.set_viewport_size({"width": w, "height": h})
        found += violations(page, f"{where} {w}px")
        found += [f"{where} {w}px: text contrast {x}" for x in page.evaluate(TEXT_CONTRAST_JS)]
        found += [f"{where} {w}px: {x}" for x in page.evaluate(CUT_JS)]


def test_axe_over_the_friends_lobby_and_the_join_dialog(rtc_browser, base_url):
    """The host's lobby (js/friends/lobby.js: the invitation, its QR code, the seats) and the
    friend's dialog before the deal (js/friends/guest-dialog.js: the name, the seats to take),
    over the local relays, each drawn again in every language (a person picks the language
    before opening the table: the lobby's dialog is modal), at two sizes."""
    from test_friends import Person, closing_all, host_table, local_relay, named
    from test_locales import locales
    words = locales()
    found: list[str] = []
    with local_relay() as relay, closing_all(Person(rtc_browser), Person(rtc_browser)) as (host, friend):
        href = host_table(host, base_url, relay)
        host.page.wait_for_selector("#friends-dialog[open] .invite-qr img")
        friend.page.goto(href)
        named(friend)
        friend.page.wait_for_selector("#friends-dialog[open] [data-take='1']", timeout=120000)
        for lang in LANGUAGES:
            for person, where, title in ((host, "the host's lobby", "friends.title"),
                                         (friend, "the friend's dialog", "friends.join.title")):
                page = person.page
                page.evaluate("""async (l) => { const app = window.__briscola.app;
                  await app.setLanguage(l);
                  if (app.friends.drawLobby) app.friends.drawLobby(); else app.friends.draw(); }""", lang)
                assert page.text_content("#friends-dialog[open] #friends-title") == words[lang][title]
                if where == "the host's lobby":
                    page.wait_for_selector("#friends-dialog .invite-qr img")
                # the relays' settings, folded in the dialog, opened too
                page.evaluate("document.querySelectorAll('#friends-dialog details').forEach((d) => { d.open = true; })")
                friends_screen(page, f"{lang} {where}", found)
    print(f"axe over the friends' dialogs: {len(found)} violations")
    assert not found, "\n".join(found)
