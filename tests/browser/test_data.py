"""A person's data carried from one browser to another, in Chromium: Export in Settings, then
Import in another profile gives back the same games, statistics and rating; a damaged file is
refused with its reason, and nothing is changed; when only localStorage refuses, the notice says
that the statistics, rating and settings are at risk, not the game (which is kept).
The file's checks field by field and the merge: tests/test_carry.py (Node and CPython)."""
from __future__ import annotations

import json

import pytest

from pagekit import QUIET, act_and_wait, pick_lang, read, stored_save, wait_ui, SETTLED

pytestmark = pytest.mark.browser

WITH_GAMES = SETTLED + ("games",)
RATING = {"rating": 1042.0, "levels": {"beginner": 800, "intermediate": 1000, "expert": 1300},
          "history": [{"at": 1767225600000, "level": "intermediate", "score": 1, "variant": "classic", "rating": 1042.0}]}
STATS = {"classic": {"played": 4, "won": 3, "drawn": 0, "lost": 1, "points": 290},
         "__counted": ["x/0", "x/1", "x/2", "x/3"], "__rating": RATING,
         "__puzzle": {"last": "2026-01-01", "solved": "2026-01-01", "streak": 3, "best": 5}}

ALL_GAMES_JS = """async () => {
  const db = await new Promise((ok, no) => { const r = indexedDB.open('briscola-games');
    r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
  const all = await new Promise((ok, no) => { const r = db.transaction('games').objectStore('games').getAll();
    r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
  db.close();
  return all.map((g) => ({id: g.id, save: g.save}));
}"""


def prefs(level, **extra):
    return {"speed": "instant", "lang": "en", "reasons": False, **QUIET, **extra,
            "newgame": {"variant": "classic", "seats": [{"kind": "human", "name": ""}, {"kind": "bot", "level": level}], "seed": "5"}}


def boot(page, base_url, p, stats=None, query=""):
    page.goto(base_url + "build-manifest.json")
    page.evaluate("""([p, s]) => { localStorage.clear(); sessionStorage.clear();
        localStorage.setItem('briscola.prefs', JSON.stringify(p));
        if (s) localStorage.setItem('briscola.stats', JSON.stringify(s)); }""", [p, stats])
    page.goto(base_url + query)
    return wait_ui(page, WITH_GAMES)


def kept(page):
    """What this browser keeps: the statistics and the settings (localStorage), the games."""
    return {"stats": page.evaluate("localStorage.getItem('briscola.stats')"),
            "prefs": page.evaluate("localStorage.getItem('briscola.prefs')"),
            "games": read(page, ALL_GAMES_JS)}


def choose_file(page, path):
    page.evaluate("() => { const d = document.getElementById('data-dialog'); if (d && d.open) d.close(); }")
    page.set_input_files("#data-file", str(path))
    page.wait_for_selector("#data-dialog[open] h2")


def test_export_then_import_in_another_profile_gives_back_the_games_stats_and_rating(new_page, base_url, bot_level, tmp_path):
    ctx_a, a = new_page(1280, 800)
    ctx_b, b = new_page(1280, 800)
    try:
        boot(a, base_url, prefs(bot_level, showPoints=False), STATS, f"?variant=classic&level={bot_level}&seed=7")
        assert wait_ui(a, ("waiting",)) == "waiting"
        for _ in range(2):
            act_and_wait(a, lambda: a.locator(".hand-card.playable").first.click())
        events = a.evaluate("window.__briscola.state.view.events.length")
        game = a.evaluate("window.__briscola.app.game")
        save = stored_save(a)
        # the browser asked to keep the site's storage on an export (js/data.js askPersist)
        a.evaluate("""() => { window.__persist = 0; Object.defineProperty(navigator, 'storage', { value: {
            persisted: async () => false, persist: async () => { window.__persist++; return true; } } }); }""")
        a.click("#btn-settings")
        with a.expect_download() as dl:
            a.click("#set-export")
        path = tmp_path / "data.json"
        dl.value.save_as(path)
        assert dl.value.suggested_filename.startswith("briscola-data-")
        data = json.loads(path.read_text(encoding="utf-8"))
        assert a.evaluate("window.__persist") == 1
        assert data["format"] == "briscola/data" and data["version"] == 1
        assert [g["id"] for g in data["games"]] == [game] and data["games"][0]["save"] == save

        # Another profile, with nothing of the first one's: its own deal on the table.
        boot(b, base_url, prefs(bot_level), None, f"?variant=classic&level={bot_level}&seed=8")
        assert wait_ui(b, ("waiting",)) == "waiting"
        before = kept(b)
        # A file damaged where only the engine can tell (its second game's save) is refused
        # whole: its first game is not kept either.
        bad = json.loads(json.dumps(data))
        bad["games"].append({**data["games"][0], "id": "zz-other", "save": save.replace('"deals":', '"deals":7,"x":', 1)})
        (tmp_path / "bad.json").write_text(json.dumps(bad), encoding="utf-8")
        b.click("#btn-settings")
        choose_file(b, tmp_path / "bad.json")
        assert "2 games" in b.text_content("#data-summary")
        b.click("#data-go")
        b.wait_for_selector("#data-refused")
        assert b.text_content("#data-refused") == "This file cannot be imported: it is damaged. Nothing was changed."
        assert "game 2" in b.text_content("#data-refused-detail")
        assert kept(b) == before
        (tmp_path / "junk.json").write_text("{\"format\": \"briscola/data\", \"version\": 9}", encoding="utf-8")
        choose_file(b, tmp_path / "junk.json")
        assert "newer version" in b.text_content("#data-refused")
        assert kept(b) == before

        choose_file(b, path)
        assert b.text_content("#data-summary") == "This file holds 1 game and the statistics of 4 deals."
        b.check("#data-replace")
        b.click("#data-go")
        b.wait_for_selector("#data-done")
        assert b.text_content("#data-done").startswith("Imported: 1 game added")
        after = kept(b)
        assert json.loads(after["stats"]) == STATS
        assert json.loads(after["prefs"])["showPoints"] is False  # the settings came too
        assert {"id": game, "save": save} in after["games"]
        # the game resumed from the list of unfinished games: the same table
        b.evaluate("document.getElementById('settings-dialog').close()")
        b.click("#data-games")
        b.wait_for_selector(f"#games-dialog[open] [data-game='{game}']")
        b.locator(f"[data-game='{game}'] button").first.click()
        wait_ui(b, ("waiting",))
        assert b.evaluate("window.__briscola.app.game") == game
        assert b.evaluate("window.__briscola.state.view.events.length") == events
        assert read(b, "() => window.__briscola.state.view.hand") == read(a, "() => window.__briscola.state.view.hand")
        b.click("#btn-stats")
        assert b.text_content("#rating-value") == "1042"
        assert b.locator("#stats-dialog tr[data-variant='classic'] td").nth(0).text_content() == "4"
        assert "this browser only" in b.text_content("#stats-data-here")
    finally:
        ctx_a.close()
        ctx_b.close()
    for p in (a, b):
        assert not p.console_watch.errors, p.console_watch.errors


def test_when_only_local_storage_refuses_the_notice_says_the_game_is_kept(page, base_url, bot_level):
    boot(page, base_url, prefs(bot_level), None, f"?variant=classic&level={bot_level}&seed=5")
    assert wait_ui(page, ("waiting",)) == "waiting"
    page.evaluate("() => { Storage.prototype.setItem = function () { throw new DOMException('refused', 'QuotaExceededError'); }; }")
    pick_lang(page, "it")  # a setting that cannot be kept (the notice in the words of before)
    page.wait_for_selector("#notice:not([hidden])")
    notice = page.text_content("#notice")
    assert "not letting the statistics, the rating and the settings be kept" in notice, notice
    assert "The game itself is saved" in notice
    assert "lose this game" not in notice and "not letting the game be saved" not in notice
    save = stored_save(page)
    act_and_wait(page, lambda: page.locator(".hand-card.playable").first.click())
    assert stored_save(page) not in (None, save)  # the game is kept all the same


PUT_BAD_GAMES_JS = """async (n) => {
  const db = await new Promise((ok, no) => { const r = indexedDB.open('briscola-games');
    r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
  await new Promise((ok, no) => { const t = db.transaction('games', 'readwrite');
    for (let i = 0; i < n; i++) t.objectStore('games').put({ id: `bad-${i}`, save: `{"format": "briscola/table", "n": ${i}}`,
      meta: null, info: null, created: 1, updated: 1 });
    t.oncomplete = ok; t.onerror = () => no(t.error); });
  db.close();
  const e = window.__briscola.engine;
  for (let i = 0; i < n; i++) await e.call('resume', { id: `bad-${i}` }).catch(() => {});
  return (await e.call('aside_list', {})).aside.map((a) => a.reason);
}"""


def test_the_records_set_aside_are_listed_bounded_and_each_can_go(page, base_url, bot_level, tmp_path):
    boot(page, base_url, prefs(bot_level), None, f"?variant=classic&level={bot_level}&seed=5")
    assert wait_ui(page, ("waiting",)) == "waiting"
    reasons = read(page, PUT_BAD_GAMES_JS, 23)
    assert len(reasons) == 20 and all("bad_save" in r for r in reasons)  # the last 20 kept
    page.click("#btn-settings")
    page.wait_for_selector("#aside-list .aside-entry")
    assert page.locator("#aside-list .aside-entry").count() == 20
    first = page.locator("#aside-list .aside-entry").first
    with page.expect_download() as dl:
        first.locator("button").first.click()
    dl.value.save_as(tmp_path / "aside.json")
    entry = json.loads((tmp_path / "aside.json").read_text(encoding="utf-8"))
    assert entry["record"]["id"] == "bad-3" and '"n": 3' in entry["record"]["save"]  # the oldest kept
    first.locator("button.danger").click()
    page.wait_for_function("() => document.querySelectorAll('#aside-list .aside-entry').length === 19")
    assert len(read(page, "async () => (await window.__briscola.engine.call('aside_list', {})).aside")) == 19
