"""The coach in Chromium, played by clicking as a person would: the card tracker, a hint with
its reason, an undo, a whole deal, then its review (every decision, the accuracy, the
replay stepped through, all hands), a duplicate replay and its comparison, the rating in the
statistics with the computer levels' lines, and an earlier deal reviewed from the match's
list there. Desktop in English, a phone in Italian; no console errors (the page
fixtures fail on any). Screenshots in tests/artifacts/coach-*.png.

What the page shows is checked against the engine's own replies (the page's engine, asked
through window.__briscola), never against numbers written here.
"""
from __future__ import annotations

import re

import pytest
from pagekit import read, shot, act_and_wait
from test_table import boot, play_until, prefs_for, start_game, wait_ui

pytestmark = pytest.mark.browser

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def engine(page, kind, args):
    return page.evaluate("([k, a]) => window.__briscola.engine.call(k, a)", [kind, args])


def state(page):
    return read(page, "() => window.__briscola.state")


def shown_tracker(page) -> dict:
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll('#tracker .tr-suit')]
        .map(r => [r.dataset.suit, [...r.querySelectorAll('.tr-card')].map(c => c.dataset.card)]))""")


def check_tracker(page):
    """The panel shows exactly what the engine's tracker says for the person's seat."""
    page.wait_for_selector("#tracker:not([hidden]) .tr-suit")
    for _ in range(100):  # the panel follows the table's reply with a request of its own
        data = engine(page, "tracker", {"seat": state(page)["seat"]})
        if shown_tracker(page) == data["unseen"]:
            break
        page.wait_for_timeout(100)
    assert shown_tracker(page) == data["unseen"]
    facts = page.text_content("#tracker .tr-facts")
    assert str(data["points_out"]) in facts and str(data["talon"]) in facts
    v = state(page)["view"]
    seen = set(v["hand"]) | {p["card"] for tr in v["tricks"] for p in tr["plays"]} | {p["card"] for p in v["trick"]}
    assert not seen & {c for cards in data["unseen"].values() for c in cards}


def hint_with_reason(page, prefix):
    page.click(".actions .hint-btn")
    page.wait_for_function("p => document.querySelector('.hint-line').textContent.startsWith(p)", arg=prefix)
    line = page.text_content(".hint-line")
    hinted = page.locator(".hand-card.hinted")
    assert hinted.count() == 1
    assert hinted.get_attribute("data-code") in state(page)["view"]["legal"]
    # a reason sentence after the card, worded by the page: no code, no raw data
    reason = line.split(".", 1)[1].strip()
    assert len(reason) > 20, line
    assert not re.search(r"[{}]|coach_|reason\.", line), line
    return line


def undo_restores(page):
    """Play a card; Undo takes it back (and the computer's reply): the same view, redrawn."""
    before = state(page)
    hand_before = page.eval_on_selector_all(".hand .hand-card", "els => els.map(e => e.dataset.code)")
    act_and_wait(page, lambda: page.locator(".hand-card.playable").first.click())
    assert page.locator(".undo-btn").is_enabled()
    page.click(".undo-btn")
    page.wait_for_function("n => window.__briscola.state.view.events.length === n && document.documentElement.dataset.ui === 'waiting'",
                           arg=len(before["view"]["events"]))
    after = state(page)
    assert after["view"] == before["view"]
    assert after["match"]["undone"] is True
    assert page.eval_on_selector_all(".hand .hand-card", "els => els.map(e => e.dataset.code)") == hand_before


def person_against_computer(page, base_url, lang, tracker):
    """The page booted in `lang`, a classic game of seed 11: the person against the
    intermediate computer player."""
    prefs = prefs_for("intermediate", tracker=tracker, lang=lang)
    prefs["newgame"]["seats"] = [{"kind": "human", "name": ""}, {"kind": "bot", "level": "intermediate"}]
    boot(page, base_url, prefs)
    start_game(page, "classic", seed=11)


def review_deal(page, artifacts, name):
    page.click("#sum-review")
    page.wait_for_selector("#review-dialog[open]")
    # Cancel stops asking (what was evaluated stays); Continue goes on from there
    page.wait_for_selector("#rv-cancel, #rv-accuracy")
    shot(page, str(artifacts / f"coach-{name}-progress.png"))
    if page.evaluate("() => { const b = document.querySelector('#rv-cancel'); if (b) b.click(); return !!b; }"):
        page.wait_for_selector("#rv-resume")
        done = page.locator("#review-dialog .rv-item:not(.pending)").count()
        page.wait_for_timeout(300)
        assert page.locator("#review-dialog .rv-item:not(.pending)").count() == done
        page.click("#rv-resume")
    page.wait_for_selector("#rv-accuracy", timeout=120000)
    shot(page, str(artifacts / f"coach-{name}-review.png"))
    st = state(page)
    seat = st["seat"]
    plan = engine(page, "review_plan", {"seat": seat, "deal": st["match"]["deal"]})
    summary = engine(page, "review_summary", {"seat": seat, "deal": st["match"]["deal"]})
    rows = page.locator("#review-dialog .rv-item")
    assert rows.count() == plan["count"] > 0
    assert page.locator("#review-dialog .rv-item.pending").count() == 0
    assert page.text_content("#rv-accuracy") == f"{round(summary['accuracy'])}%"
    labels = page.eval_on_selector_all("#review-dialog .rv-row .rv-label", "els => els.map(e => e.className)")
    assert all(re.search(r"label-(best|equal|good|inaccuracy|mistake|blunder)", c) for c in labels)
    # each play says what it did to its trick: the points its side took, or lost and gave
    effects = page.eval_on_selector_all("#review-dialog .rv-item .rv-effect", "els => els.map(e => e.textContent)")
    assert len(effects) == plan["count"], effects
    assert all(e and not re.search(r"[{}]|\b0\b", e) for e in effects), effects
    # step through: forwards, a trick at a time, back
    steps = engine(page, "replay", {"deal": st["match"]["deal"], "seat": seat, "step": 0})["steps"]
    assert page.text_content("#rv-pos").startswith(("Step 0 of", "Passo 0 di"))
    page.click("#rv-next")
    page.wait_for_function("() => /\\b1\\b/.test(document.querySelector('#rv-pos').textContent)")
    page.click("#rv-next-trick")
    page.wait_for_function("() => document.querySelector('#rv-trick, .rv-trick') && !/\\b1 (of|di)\\b/.test(document.querySelector('#rv-pos').textContent)")
    page.click("#rv-prev")
    page.click("#rv-all")
    page.wait_for_function("() => document.querySelectorAll('#review-dialog .rv-handbox').length >= 2")
    # a decision row jumps to that decision, its card just played: marked on the felt
    first = plan["decisions"][-1]
    rows.nth(plan["count"] - 1).locator(".rv-row").click()
    page.wait_for_function("s => document.querySelector('#rv-pos').textContent.match(/\\d+/)[0] === String(s)", arg=first["step"] + 1)
    page.wait_for_selector(f"#review-dialog #rv-felt figure.rv-played[data-card='{first['action']}']")
    assert 0 < first["step"] < steps
    page.locator("#rv-replay-title").scroll_into_view_if_needed()
    shot(page, str(artifacts / f"coach-{name}-replay.png"))
    page.click("#rv-close")
    assert page.locator("#review-dialog[open]").count() == 0


def bot_reason_worded(page):
    """With reasons shown, the computer's card play is explained by the coach's evaluation
    (the page asks bot_step with reasons): a worded sentence with its figures, no raw code."""
    names = page.evaluate("window.__briscola.app.names()")
    for _ in range(12):  # until the computer has had a choice of cards
        line = page.text_content(".hint-line") or ""
        if line.startswith(names[1] + ":") and re.search(r"\d", line):
            break
        act_and_wait(page, lambda: page.locator(".hand-card.playable").first.click())
    assert line.startswith(names[1] + ":") and re.search(r"\d", line), line
    assert not re.search(r"[{}]|bot_|coach_|reason\.", line), line


def check_rating_chart(page):
    """The rating chart has a dashed line for each computer level at the engine's rating."""
    page.wait_for_selector("#stats-dialog[open] .rating-chart")
    levels = engine(page, "rating_levels", {})["levels"]
    page.wait_for_function("n => document.querySelectorAll('#stats-dialog .level-line').length === n", arg=len(levels))
    labels = page.eval_on_selector_all("#stats-dialog .level-label", "els => els.map(e => e.textContent)")
    assert sorted(int(x.rsplit(" ", 1)[1]) for x in labels) == sorted(round(v) for v in levels.values())


def review_from_history(page, artifacts, name, finished):
    """The statistics list this match's finished deals; the first one's review opens from there."""
    page.wait_for_selector("#match-history:not([hidden]) .mh-deal")
    history = engine(page, "history", {})["deals"]
    assert page.locator("#match-history .mh-deal").count() == finished == sum(d["over"] for d in history)
    page.locator("#match-history").scroll_into_view_if_needed()
    shot(page, str(artifacts / f"coach-{name}-history.png"))
    page.locator("#match-history .mh-review").first.click()
    page.wait_for_selector("#review-dialog[open] #rv-accuracy", timeout=120000)
    assert page.locator("#stats-dialog[open]").count() == 0
    assert page.input_value("#rv-deal") == "0"
    shot(page, str(artifacts / f"coach-{name}-history-review.png"))
    page.click("#rv-close")


@pytest.mark.parametrize("size,lang", [("desktop", "en"), ("phone", "it")])
def test_coach_at_the_table(new_page, base_url, artifacts, size, lang):
    width, height = SIZES[size]
    context, page = new_page(width, height)
    try:
        person_against_computer(page, base_url, lang, tracker=True)
        check_tracker(page)
        hint_with_reason(page, "Hint:" if lang == "en" else "Consiglio:")
        shot(page, str(artifacts / f"coach-{size}-{lang}-hint.png"))
        undo_restores(page)
        act_and_wait(page, lambda: page.locator(".hand-card.playable").first.click())
        check_tracker(page)
        shot(page, str(artifacts / f"coach-{size}-{lang}-tracker.png"))
        bot_reason_worded(page)
        play_until(page, lambda pg, s: s == "summary")
        assert page.locator("#summary-dialog .sum-undone").count() == 1  # the deal had an undo
        # said as an undo; a friend back mid-deal in the seat a computer played for them (the
        # summary's `back`, the bridge's set_seat) was said so too, and is now said as it was
        undo_words, back_words = {"en": ("taken back", "came back"), "it": ("annullata", "ripreso il suo posto")}[lang]
        assert undo_words in page.text_content("#summary-dialog .sum-undone")
        said = page.evaluate("""(names) => { const app = window.__briscola.app, st = app.state;
            return app.coach.summaryParts({ ...st, summary: { ...st.summary, back: [1] } }, names)
              .filter((el) => el && el.classList && el.classList.contains('sum-undone')).map((el) => el.textContent); }""",
                             ["Tu", "Bruno"])
        assert len(said) == 1 and back_words in said[0] and "Bruno" in said[0] and undo_words not in said[0], said
        # on the page of the friend who came back, to that person
        said = page.evaluate("""() => { const app = window.__briscola.app, st = app.state;
            return app.coach.summaryParts({ ...st, summary: { ...st.summary, back: [0] } }, ["Bruno", "Carla"])
              .filter((el) => el && el.classList && el.classList.contains('sum-undone')).map((el) => el.textContent); }""")
        you = {"en": "you came back", "it": "hai ripreso il tuo posto"}[lang]
        assert len(said) == 1 and you in said[0] and "Bruno" not in said[0], said
        review_deal(page, artifacts, f"{size}-{lang}")
        if size == "phone":
            # the statistics: the undo deal's mark, the levels' lines (asked of the engine: no
            # rated deal has stored them yet), and the deal reviewed again from the match's list
            page.keyboard.press("Escape")
            page.click("#btn-stats")
            check_rating_chart(page)
            assert page.locator("#stats-undone").count() == 1  # not in the won counts
            review_from_history(page, artifacts, f"{size}-{lang}", 1)
            assert not page.console_watch.errors, page.console_watch.errors
            return
        # duplicate: the person now holds what the computer held at the start of deal 1
        deal = state(page)["match"]["deal"]
        first = engine(page, "replay", {"deal": deal, "seat": 1, "step": 0, "all_hands": True})
        page.click("#sum-duplicate")
        wait_ui(page, ("waiting",))
        st = state(page)
        assert st["match"]["deal"] == deal + 1 and st["match"]["duplicate"]["of_deal"] == deal
        # (the deal in play has no replay: its hand before the person's first card is the one dealt)
        assert len(st["view"]["hand"]) == len(first["hands"][1])
        assert sorted(st["view"]["hand"]) == sorted(first["hands"][1])
        play_until(page, lambda pg, s: s == "summary")
        dup = state(page)["match"]["duplicate"]
        assert page.locator("#summary-dialog .sum-undone").count() == 0
        cells = page.eval_on_selector_all("#summary-dialog .dup-table td", "els => Object.fromEntries(els.map(e => [e.dataset.dup, Number(e.textContent)]))")
        assert cells == {"original-person": dup["original"]["person_points"], "original-bot": dup["original"]["bot_points"],
                         "now-person": dup["now"]["person_points"], "now-bot": dup["now"]["bot_points"]}
        assert page.text_content("#dup-verdict")
        page.locator(".sum-dup").scroll_into_view_if_needed()
        shot(page, str(artifacts / f"coach-{size}-{lang}-duplicate.png"))
        # the rating: two deals, the first with an undo, the second a seats-swapped replay of
        # it: both marked, neither rated (the person may remember every card of a replay)
        page.keyboard.press("Escape")
        page.click("#btn-stats")
        page.wait_for_selector("#stats-dialog[open] .rating-chart")
        assert page.locator("#stats-dialog .rating-dot").count() == 2
        assert page.locator("#stats-dialog .rating-dot.undo").count() == 2
        assert page.locator("#stats-dialog .rating-dot.replay").count() == 1
        assert page.locator("#rating-value").count() == 0
        assert page.locator("#rating-replays").count() == 1 and page.locator("#rating-undos").count() == 1
        # the won counts: the replay is counted, the deal with an undo is not
        played = page.text_content("#stats-dialog table.stats tbody td")
        assert played == "1", played
        assert page.locator("#stats-undone").count() == 1
        check_rating_chart(page)
        page.locator(".rating").scroll_into_view_if_needed()
        shot(page, str(artifacts / f"coach-{size}-{lang}-rating.png"))
        # an earlier deal (the first, before the duplicate) reviewed from the match's list
        review_from_history(page, artifacts, f"{size}-{lang}", 2)
        assert not page.console_watch.errors, page.console_watch.errors
    finally:
        context.close()


def retry_a_mistake(page, artifacts, name):
    """From the review, a play that lost points is tried again with the same cards: a card
    that is not good enough says so and may be left for another; the best card (the engine's
    own) is found, its reason is shown, and the tally counts it."""
    page.wait_for_selector("#rv-accuracy", timeout=120000)
    st = state(page)
    deal, seat = st["match"]["deal"], st["seat"]
    plan = engine(page, "review_plan", {"seat": seat, "deal": deal})
    results = [engine(page, "review_decision", {"seat": seat, "deal": deal, "index": d["index"]})
               for d in plan["decisions"]]
    rows = [i for i, r in enumerate(results) if r["label"] in ("inaccuracy", "mistake", "blunder")]
    assert rows, [r["label"] for r in results]
    assert page.locator("#review-dialog .rv-retry-btn").count() == len(rows)
    i = rows[0]
    r = results[i]
    row = page.locator(f"#review-dialog li[data-i='{i}']")
    row.locator(".rv-retry-btn").click()
    row.locator(".rv-retry-hand button").first.wait_for()
    hand = row.locator(".rv-retry-hand button")
    codes = [hand.nth(k).get_attribute("data-card") for k in range(hand.count())]
    view = engine(page, "replay", {"deal": deal, "seat": seat, "step": r["step"]})["view"]
    assert sorted(codes) == sorted(view["hand"])
    # the card played first: not good enough, said with its label and loss
    row.locator(f".rv-retry-hand button[data-card='{r['action']}']").click()
    row.locator(".rv-retry-miss").wait_for()
    miss = row.locator(".rv-retry-miss").text_content()
    assert re.search(r"\d", miss) and not re.search(r"[{}]", miss), miss
    assert row.locator(f".rv-retry-hand button[data-card='{r['action']}']").is_disabled()
    # then the best card: found, with the reason
    row.locator(f".rv-retry-hand button[data-card='{r['best']}']").click()
    row.locator(".rv-retry-found").wait_for()
    reason = row.locator(".rv-retry .rv-reason").text_content()
    assert len(reason) > 20 and not re.search(r"[{}]|coach_|reason\.", reason), reason
    assert page.text_content("#rv-tally") == (f"Mistakes found again: 1 of {len(rows)}" if "en" in name
                                              else f"Errori ritrovati: 1 su {len(rows)}")
    assert row.locator(".rv-retry-hand button:not([disabled])").count() == 0
    row.scroll_into_view_if_needed()
    shot(page, str(artifacts / f"coach-{name}-retry.png"))


@pytest.mark.parametrize("size,lang", [("desktop", "en"), ("phone", "it"), ("desktop", "it"), ("phone", "en")])
def test_learn_from_a_mistake(new_page, base_url, artifacts, size, lang):
    width, height = SIZES[size]
    context, page = new_page(width, height)
    try:
        person_against_computer(page, base_url, lang, tracker=False)
        play_until(page, lambda pg, s: s == "summary")
        page.click("#sum-review")
        page.wait_for_selector("#review-dialog[open]")
        retry_a_mistake(page, artifacts, f"{size}-{lang}")
        assert not page.console_watch.errors, page.console_watch.errors
    finally:
        context.close()


@pytest.mark.parametrize("size,lang,solve", [("desktop", "en", True), ("phone", "it", True),
                                             ("desktop", "it", False), ("phone", "en", False)])
def test_puzzle_of_the_day(new_page, base_url, artifacts, size, lang, solve):
    """From the statistics, the puzzle of the day: every card known, the person plays; the
    engine's exact values (asked here for each card, as the page does not know them) decide.
    Solved: the most points, the streak 1. Failed: the best card named with why, streak 0."""
    width, height = SIZES[size]
    context, page = new_page(width, height)
    try:
        boot(page, base_url, prefs_for("intermediate", tracker=False, lang=lang))
        page.click("#btn-stats")
        page.click("#btn-puzzle")
        page.wait_for_selector("#puzzle-dialog[open] .puzzle-hand button")
        date = page.get_attribute("#puzzle-body", "data-date")
        first = engine(page, "puzzle", {"date": date})
        assert sorted(page.eval_on_selector_all("#puzzle-dialog .puzzle-hand button", "els => els.map(e => e.dataset.card)")) \
            == sorted(first["view"]["hand"])
        moves = []
        while True:
            hand = engine(page, "puzzle_move", {"date": date, "moves": moves})["view"]["hand"] if moves \
                else first["view"]["hand"]
            tries = {c: engine(page, "puzzle_move", {"date": date, "moves": moves + [c]}) for c in hand}
            good = [c for c, r in tries.items() if r["ok"]]
            bad = [c for c, r in tries.items() if not r["ok"]]
            pick = good[0] if solve or not bad else bad[0]
            page.wait_for_selector(f"#puzzle-dialog .puzzle-hand button[data-card='{pick}']:not([disabled])")
            name = page.get_attribute(f"#puzzle-dialog .puzzle-hand button[data-card='{pick}']", "title")
            page.click(f"#puzzle-dialog .puzzle-hand button[data-card='{pick}']")
            moves.append(pick)
            got = tries[pick]
            if not got["ok"] or got["done"]:
                break
        page.wait_for_selector("#puzzle-dialog .puzzle-status.solved, #puzzle-dialog .puzzle-status.failed")
        status = page.text_content("#puzzle-dialog .puzzle-status")
        streak = page.text_content("#puzzle-streak")
        assert not re.search(r"[{}]", status + streak)
        if solve:
            assert got["ok"] and got["points"] == first["best_points"]
            assert page.locator("#puzzle-dialog .puzzle-status.solved").count() == 1
            assert str(first["best_points"]) in status and re.search(r"\b1\b", streak)
        else:
            assert not got["ok"]
            assert page.locator("#puzzle-dialog .puzzle-status.failed").count() == 1
            reason = page.text_content("#puzzle-dialog .puzzle-reason")
            assert len(reason) > 20 and not re.search(r"[{}]|coach_", reason)
            assert re.search(r"\b0\b", streak)
            assert name in status  # the failure names the card played
        assert page.locator("#puzzle-dialog .puzzle-hand button:not([disabled])").count() == 0
        shot(page, str(artifacts / f"coach-{size}-{lang}-puzzle.png"))
        entry = page.text_content("#btn-puzzle")
        page.click("#puzzle-close")
        # the statistics behind it current at once, the day's puzzle shown as played
        assert page.text_content("#stats-puzzle-streak") == streak
        assert page.text_content("#btn-puzzle") != entry
        page.click("#btn-puzzle")
        page.wait_for_selector("#puzzle-dialog[open] .puzzle-next")
        assert page.text_content("#puzzle-dialog .puzzle-status") == status
        assert page.locator("#puzzle-dialog .puzzle-hand button:not([disabled])").count() == 0
        page.click("#puzzle-close")
        # the streak in the statistics, counted once for the day
        page.keyboard.press("Escape")
        page.click("#btn-stats")
        assert page.text_content("#stats-puzzle-streak") == streak
        assert not page.console_watch.errors, page.console_watch.errors
    finally:
        context.close()


def test_the_replay_note_is_about_the_trick_shown(new_page, base_url, artifacts):
    """The replay of a whole deal stepped through one play at a time: wherever a note speaks
    of the seat's decision, the card it names lies on the felt (in the trick on the table, or
    the trick it has just completed), marked as the card played, and the step's trick number
    is that card's trick."""
    context, page = new_page(*SIZES["desktop"])
    try:
        person_against_computer(page, base_url, "en", tracker=False)
        play_until(page, lambda pg, s: s == "summary")
        page.click("#sum-review")
        page.wait_for_selector("#review-dialog[open] #rv-accuracy", timeout=120000)
        st = state(page)
        seat, deal = st["seat"], st["match"]["deal"]
        plan = engine(page, "review_plan", {"seat": seat, "deal": deal})
        steps = engine(page, "replay", {"deal": deal, "seat": seat, "step": 0})["steps"]
        by_step = {d["step"] + 1: d for d in plan["decisions"]}
        if page.is_enabled("#rv-start"):
            page.click("#rv-start")
        notes = 0
        for step in range(steps + 1):
            if step:
                page.click("#rv-next")
            page.wait_for_function("s => document.querySelector('#rv-pos').textContent.match(/\\d+/)[0] === String(s)"
                                   " && document.querySelector('#rv-felt, #rv-replay-title')", arg=step)
            felt = page.eval_on_selector_all("#rv-felt figure", "els => els.map(e => [e.dataset.card, e.className])")
            note = page.evaluate("() => { const n = document.querySelector('#rv-note'); return n ? [n.dataset.card, n.textContent] : null; }")
            pos = page.text_content("#rv-pos")
            d = by_step.get(step)
            if d is None:  # no decision of the seat's was just made: no note, no card marked
                assert note is None or not note[0], (step, note)
                assert not [c for c, cls in felt if "rv-played" in cls], (step, felt)
                continue
            notes += 1
            assert note and note[0] == d["action"], (step, note, d)
            assert d["action"] in [c for c, _ in felt], (step, d["action"], felt)
            assert [c for c, cls in felt if "rv-played" in cls] == [d["action"]], (step, felt)
            name = page.evaluate("c => window.__briscola.app.coach.review.actionWords(c)", d["action"])
            assert name in note[1], (step, name, note[1])
            assert re.search(rf"trick {d['trick'] + 1}$", pos), (step, pos, d)
            if notes == 3:
                page.locator("#rv-replay-title").scroll_into_view_if_needed()
                shot(page, str(artifacts / "coach-replay-note.png"))
        assert notes == plan["count"] > 5
        page.click("#rv-close")
    finally:
        context.close()
    assert not page.console_watch.errors, page.console_watch.errors
