"""Hidden cards stay hidden, no unfinished game is lost, the table never goes stale, storage
trouble is said: the page in Chromium.

1. Every message the page receives in a whole deal (two players, teams, Chiamata, people
   sharing the device) carries no seed and no save, and every view in it is exactly one the
   engine lets the person see at that point of the deal (their own seat; in hot-seat the
   seat whose turn it is, or the table with the hand left out; anything once it is over),
   replayed here in CPython from the save the worker kept.
2. Two tabs, two games: each tab's game survives its reload; a game open in another tab
   says so; a finished deal reloaded is counted once in the statistics.
3. A new game, a language switch, an undo and a review opened and closed at each step of
   a trick's animation and during a computer's thinking pause: the table shown is the
   engine's, and a whole deal then plays to the end.
4. Storage that refuses writes is said once; a save too big to set aside is left where it
   was (and said so); a corrupt statistics record is set aside and the rest shown; today's
   localStorage save moves to the worker once.
5. Input tampered with is refused at the door (js/limits.js), the page alive: a save nested
   5,000 deep in localStorage or in IndexedDB is set aside with a notice, a request nested
   deep gets an error reply, a malformed entry of the unfinished games is left out; an older
   save too large to reach the engine is set aside by the page.
"""
from __future__ import annotations

import json

import pytest

from briscola import bridge
from briscola.game import Game
from briscola.rules import Rules
from pagekit import QUIET, pick_lang, read, SETTLED, act_and_wait, hand_over, new_game, stored_save, table_state, ui, wait_ui

pytestmark = pytest.mark.browser

# ... or the list of unfinished games offered on a start.
WITH_GAMES = SETTLED + ("games",)

# Every message from the engine's worker, as the page receives it (recorded before the page's
# own listener sees it).
RECORD_JS = """
(() => {
  const Real = window.Worker;
  window.__received = [];
  window.Worker = class extends Real {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => {
        if (e.data && e.data.id !== undefined) window.__received.push(JSON.parse(JSON.stringify(e.data)));
      });
    }
  };
})();
"""


def prefs(level, speed="instant", **extra):
    p = {"speed": speed, "lang": "en", "reasons": False, **QUIET,
         "newgame": {"variant": "classic", "seats": [{"kind": "human", "name": ""}]
                     + [{"kind": "bot", "level": level}] * 4, "seed": "5"}}
    p.update(extra)
    return p


def boot(page, base_url, p, local=None):
    page.goto(base_url + "build-manifest.json")
    page.evaluate("""([p, extra]) => { localStorage.clear(); sessionStorage.clear();
        localStorage.setItem('briscola.prefs', JSON.stringify(p));
        for (const [k, v] of Object.entries(extra || {})) localStorage.setItem(k, v); }""", [p, local])
    page.goto(base_url)
    return wait_ui(page, WITH_GAMES)


def start(page, variant, seed, humans=(0,), level="beginner"):
    """A new game from the panel, as a person starts one."""
    new_game(page, variant, seed, lambda n: "human" if n in humans else f"bot:{level}")


def choose(view):
    """The person's decision: pass an auction, else the first legal action."""
    return "pass" if "pass" in view["legal"] else view["legal"][0]


def play_to_end(page, max_steps=400):
    for _ in range(max_steps):
        state = table_state(page)
        if state == "summary":
            return
        if state == "handoff":
            hand_over(page)
            continue
        action = choose(read(page, "() => window.__briscola.state.view"))
        act_and_wait(page, lambda: page.evaluate("a => window.__briscola.app.play(a)", action))
    pytest.fail("too many steps")


# ---- 1. the message stream -------------------------------------------------------------------

def keys_and_strings(value, path=""):
    if isinstance(value, dict):
        for k, v in value.items():
            yield "key", k, path
            yield from keys_and_strings(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from keys_and_strings(v, f"{path}[{i}]")
    elif isinstance(value, str):
        yield "str", value, path


def canonical(d):
    return json.dumps(d, sort_keys=True)


def allowed_views(save_text, humans):
    """Every view the engine lets the person see at some point of the deal, as JSON."""
    saved = json.loads(save_text)["match"]
    rules = Rules.from_dict(saved["rules"])
    game = Game.new(rules, seed=f"{saved['seed']}/0", dealer=saved["first_dealer"])
    actions = saved["deals"][0]
    out = set()
    for k in range(len(actions) + 1):
        if k:
            game.apply(actions[k - 1])
        for seat in range(rules.players):
            if game.is_over or (seat in humans and (len(humans) == 1 or game.current_player == seat)):
                out.add(canonical(game.view(seat).to_dict()))
            out.add(canonical(bridge._blind(game, seat)))
    return out


FAMILIES = [
    ("classic", 11, (0,)),  # two players
    ("four", 12, (0,)),  # teams
    ("chiamata", 13, (0,)),  # Chiamata
    ("classic", 14, (0, 1)),  # two people sharing the device
]


def test_no_message_determines_a_hidden_card(new_page, base_url, bot_level):
    context, page = new_page(1280, 800, fresh=True)
    context.add_init_script(RECORD_JS)
    boot(page, base_url, prefs(bot_level))
    for variant, seed, humans in FAMILIES:
        start(page, variant, seed, humans, bot_level)
        page.evaluate("window.__received.length = 0")  # from the new game on
        start_reply = read(page, "() => window.__briscola.state")
        play_to_end(page)
        received = read(page, "() => window.__received")
        save = stored_save(page)
        assert save and json.loads(save)["match"]["rules"]["name"] == variant
        allowed = allowed_views(save, humans)
        views = [start_reply["view"]]
        for msg in received:
            for kind, text, where in keys_and_strings(msg):
                assert not (kind == "key" and text in ("save", "seed")), (variant, where)
                assert not (kind == "str" and ('"seed"' in text or "briscola/table" in text)), (variant, where)
            result = msg.get("result")
            if isinstance(result, dict) and "view" in result:
                views.append(result["view"])
                assert set(result) <= {"seat", "view", "seats", "match", "card_points", "order", "summary",
                                       "game", "bot", "storage", "meta"}, set(result)
        assert len(views) > 10
        for v in views:
            assert canonical(v) in allowed, (variant, humans, v["seat"], v["turn"], v["hand"])
        # the page keeps nothing either: no save, no seed in its storage
        kept = page.evaluate("({...localStorage, ...sessionStorage})")
        prefs_kept = json.loads(kept.pop("briscola.prefs"))
        prefs_kept["newgame"].pop("seed")  # the seed the person typed: public by choice
        for text in [json.dumps(prefs_kept), *kept.values()]:
            assert "briscola/table" not in text and '"seed"' not in text, text[:200]
    assert not page.console_watch.errors, page.console_watch.errors
    context.close()


# ---- 2. two tabs ---------------------------------------------------------------------------------

def test_two_tabs_keep_two_games(new_page, base_url, bot_level):
    context, a = new_page(1280, 800)
    boot(a, base_url, prefs(bot_level))
    start(a, "classic", 21, level=bot_level)
    act_and_wait(a, lambda: a.locator(".hand-card.playable").first.click())
    game_a = read(a, "() => window.__briscola.state")
    b = context.new_page()
    b.console_watch = a.console_watch
    b.on("pageerror", lambda e: a.console_watch.errors.append(f"pageerror: {e}"))
    b.goto(base_url)
    # tab B offers the unfinished games; A's is open there and cannot be taken over
    wait_ui(b, ("games",))
    entry = b.locator(f"li.game-entry[data-game='{game_a['game']}']")
    assert "Open in another tab" in entry.text_content()
    assert "You, Carla (" in entry.text_content() and "undefined" not in entry.text_content()  # who plays
    assert entry.locator("button").is_disabled()
    b.click("#games-new")
    start(b, "four", 22, level=bot_level)
    act_and_wait(b, lambda: b.locator(".hand-card.playable").first.click())
    game_b = read(b, "() => window.__briscola.state")
    assert game_b["game"] != game_a["game"]
    for tab, before in ((a, game_a), (b, game_b)):
        tab.reload()
        wait_ui(tab, ("waiting", "handoff"))
        after = read(tab, "() => window.__briscola.state")
        assert after["game"] == before["game"]
        assert after["view"]["rules"] == before["view"]["rules"]
        assert after["view"]["hand"] == before["view"]["hand"]
    # a deal finished and reloaded on its summary counts once
    play_to_end(a)
    a.reload()
    wait_ui(a, ("summary",))
    a.keyboard.press("Escape")
    a.click("#btn-stats")
    assert a.locator("#stats-dialog tr[data-variant='classic'] td").nth(0).text_content() == "1"
    assert not a.console_watch.errors, a.console_watch.errors
    context.close()


# ---- 3. the table never goes stale ---------------------------------------------------------------

def table_is_the_engines(page):
    """The page's table is the worker's current game, seen from the person's seat."""
    res = page.evaluate("""async () => {
      const app = window.__briscola.app;
      const engine = await app.engine.call('state', {seat: app.display, game: app.game});
      return {shown: app.state.view, engine: engine.view, hand: [...document.querySelectorAll('.hand .hand-card')].map(e => e.dataset.code)};
    }""")
    assert res["shown"] == res["engine"]
    assert res["hand"] == res["engine"]["hand"]


MOMENTS = [0, 150, 450, 800, 1200, 1700]  # ms after a play: thinking, the trick, its collection, the draw


@pytest.mark.parametrize("what", ["new game", "language", "undo", "review"])
def test_the_table_never_goes_stale(page, base_url, bot_level, what):
    boot(page, base_url, prefs(bot_level, speed="normal"))
    if what == "review":  # a finished deal to review while the next one is played
        start(page, "best-of-3", 31, level=bot_level)
        page.evaluate("window.__briscola.app.prefs.speed = 'instant'")
        play_to_end(page)
        page.evaluate("window.__briscola.app.nextDeal()")
        wait_ui(page, ("waiting", "busy"))
        page.evaluate("window.__briscola.app.prefs.speed = 'normal'")
    else:
        start(page, "classic", 31, level=bot_level)
    if what == "undo" and page.evaluate("""() => window.__briscola.engine.call('undo', {seat: 0})
            .then(() => false, (e) => /unknown request/.test(e.message))"""):
        pytest.skip("the engine has no undo yet")
    for i, ms in enumerate(MOMENTS):
        wait_ui(page, ("waiting",))
        page.locator(".hand-card.playable").first.click()
        page.wait_for_timeout(ms)
        if what == "new game":  # "Play again": a new deal of the same kind, at once
            page.evaluate("window.__briscola.app.again()")
        elif what == "language":
            pick_lang(page, "it" if page.evaluate("document.documentElement.lang") == "en" else "en")
        elif what == "undo":
            page.evaluate("window.__briscola.app.coach.undo()")
        else:
            page.evaluate("window.__briscola.app.coach.review.open({deal: 0})")
            page.wait_for_selector("#review-dialog[open]")
            page.wait_for_timeout(200)
            page.evaluate("document.getElementById('review-dialog').close()")
        wait_ui(page, ("waiting", "summary"))
        table_is_the_engines(page)
    page.evaluate("window.__briscola.app.prefs.speed = 'instant'")
    play_to_end(page)


# ---- 4. storage trouble ----------------------------------------------------------------------

THROW_JS = """
  Storage.prototype.setItem = function () { throw new DOMException('refused', 'QuotaExceededError'); };
"""
STORAGE_WORDS = "not letting the game be saved"
# IndexedDB refuses the worker: the games' database is held at a version it cannot open.
HOLD_GAMES_DB_JS = """() => new Promise((ok, no) => { const r = indexedDB.open('briscola-games', 99);
    r.onsuccess = () => { r.result.close(); ok(); }; r.onerror = () => no(r.error); })"""


def test_storage_refusing_writes_is_said_once(new_page, base_url, bot_level):
    """localStorage throws and IndexedDB refuses (as with a full disk or a blocked frame): the
    game plays, the person is told once; a bad save of today's page that cannot be set
    aside is left where it was, and that is said too."""
    context, page = new_page(1280, 800, fresh=True)
    big = '{"format": "briscola/table", "version": 99, "pad": "' + "x" * 200000 + '"}'
    page.goto(base_url + "build-manifest.json")
    page.evaluate("""([p, s]) => { localStorage.clear(); localStorage.setItem('briscola.prefs', JSON.stringify(p));
        localStorage.setItem('briscola.save', s); }""", [prefs(bot_level), big])
    context.add_init_script(THROW_JS)
    page.evaluate(HOLD_GAMES_DB_JS)
    page.goto(base_url)
    assert wait_ui(page, WITH_GAMES) == "waiting"  # a deal all the same
    notice = page.text_content("#notice")
    assert "left where it was" in notice and STORAGE_WORDS in notice, notice
    assert page.evaluate("localStorage.getItem('briscola.save')") == big
    for _ in range(2):
        act_and_wait(page, lambda: page.locator(".hand-card.playable").first.click())
    pick_lang(page, "it")  # a preference that cannot be kept either
    pick_lang(page, "en")
    shown = page.evaluate("document.getElementById('notice').textContent")
    assert shown.count(STORAGE_WORDS) <= 1 and page.evaluate("window.__briscola.app.storageTold")
    assert not page.console_watch.errors, page.console_watch.errors
    context.close()


def test_a_new_deal_that_cannot_be_kept_is_said(page, base_url, bot_level):
    """A new deal is shown before the worker keeps it: when IndexedDB then refuses it, the
    worker says so by a message of its own and the person is told, once."""
    page.goto(base_url + "build-manifest.json")
    page.evaluate("p => { localStorage.clear(); localStorage.setItem('briscola.prefs', JSON.stringify(p)); }",
                  prefs(bot_level))
    page.evaluate(HOLD_GAMES_DB_JS)
    page.goto(base_url + f"?variant=classic&level={bot_level}&seed=5")
    assert wait_ui(page, ("waiting", "busy", "error")) != "error"
    page.wait_for_function("w => (document.getElementById('notice').textContent || '').includes(w)",
                           arg=STORAGE_WORDS)
    assert page.evaluate("window.__briscola.app.storageTold")
    act_and_wait(page, lambda: page.locator(".hand-card.playable").first.click())
    assert page.text_content("#notice").count(STORAGE_WORDS) <= 1


def test_a_corrupt_statistics_record_is_set_aside(page, base_url, bot_level):
    stats = {"classic": None, "four": {"played": 2, "won": 1, "drawn": 0, "lost": 1, "points": 130},
             "__counted": ["x/0", "y/0"]}
    boot(page, base_url, prefs(bot_level), {"briscola.stats": json.dumps(stats)})
    if page.locator("dialog[open]").count():
        page.keyboard.press("Escape")
    page.click("#btn-stats")
    assert page.locator("#stats-dialog tr[data-variant='four'] td").nth(0).text_content() == "2"
    assert page.locator("#stats-dialog tr[data-variant='classic']").count() == 0
    assert "set aside" in page.text_content("#notice")
    kept = page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('briscola.bad-stats-')).map(k => localStorage.getItem(k))")
    assert kept == [json.dumps({"classic": None}, separators=(",", ":"))]
    assert page.locator("#stats-reset").is_visible()


def test_todays_save_moves_to_the_worker_once(page, base_url, bot_level):
    """A save written as today's page writes it (the bridge's save text, the page's meta)."""
    bridge.reset()
    seats = [{"kind": "human"}, {"kind": "bot", "level": bot_level}]
    reply = json.loads(bridge.call("new_match", json.dumps({"rules": "classic", "seed": 61, "seats": seats})))["result"]
    if reply["view"]["turn"] == 0:
        reply = json.loads(bridge.call("act", json.dumps({"seat": 0, "action": reply["view"]["legal"][0]})))["result"]
    meta = {"id": "1700000000000-61", "variant": "classic", "custom": False, "names": ["Ada", ""],
            "style": "napoletane"}
    boot(page, base_url, prefs(bot_level), {"briscola.save": reply["save"], "briscola.meta": json.dumps(meta)})
    state = read(page, "() => window.__briscola.state")
    assert state["view"]["events"][: len(reply["view"]["events"])] == reply["view"]["events"]
    assert page.evaluate("localStorage.getItem('briscola.save')") is None
    assert stored_save(page).startswith(reply["save"][:40])
    assert page.evaluate("window.__briscola.app.meta.names[0]") == "Ada"
    page.reload()
    wait_ui(page, ("waiting",))
    assert page.evaluate("window.__briscola.state.game") == state["game"]


def test_finished_games_left_behind_are_forgotten(page, base_url, bot_level):
    """A finished game that no tab holds and that has not changed for a day is forgotten once
    the engine is idle; a finished game of today, and an unfinished one however old, stay."""
    boot(page, base_url, prefs(bot_level))
    day = 24 * 3600 * 1000
    records = {"old-done": (True, 2 * day), "new-done": (True, 60 * 1000), "old-open": (False, 30 * day)}
    page.evaluate("""(records) => new Promise((ok, no) => {
        const r = indexedDB.open('briscola-games', 1);
        r.onerror = () => no(r.error);
        r.onsuccess = () => {
            const t = r.result.transaction(['games'], 'readwrite');
            for (const [id, [over, age]] of Object.entries(records)) {
                t.objectStore('games').put({id, save: 'x', meta: null, created: Date.now() - age,
                    updated: Date.now() - age, info: {variant: 'classic', custom: false, players: 2,
                    seats: [{kind: 'human'}, {kind: 'bot', level: 'beginner'}], names: [], score: [0, 0],
                    deal: 1, side_points: [0, 0], phase: 'play', over}});
            }
            t.oncomplete = () => { r.result.close(); ok(); };
            t.onerror = () => no(t.error);
        };
    })""", records)
    page.reload()
    wait_ui(page, WITH_GAMES)
    ids = """() => new Promise((ok, no) => {
        const r = indexedDB.open('briscola-games', 1);
        r.onerror = () => no(r.error);
        r.onsuccess = () => {
            const q = r.result.transaction(['games']).objectStore('games').getAllKeys();
            q.onsuccess = () => { r.result.close(); ok(q.result); };
        };
    })"""
    for _ in range(100):  # the worker sweeps once the page's first requests are answered
        kept = set(page.evaluate(ids))
        if "old-done" not in kept:
            break
        page.wait_for_timeout(200)
    assert kept == {"new-done", "old-open", page.evaluate("window.__briscola.app.game")}, kept
    assert not page.console_watch.errors, page.console_watch.errors


# ---- 5. tampered input, bounded at the door --------------------------------------------------------

DEEP = "[" * 5000 + "]" * 5000
SET_DEEP_SAVE_JS = """(deep) => new Promise((ok, no) => { const r = indexedDB.open('briscola-games', 1);
    r.onerror = () => no(r.error);
    r.onsuccess = () => { const t = r.result.transaction(['games'], 'readwrite'); const st = t.objectStore('games');
        st.getAll().onsuccess = (e) => { for (const rec of e.target.result) { rec.save = deep; st.put(rec); } };
        t.oncomplete = () => { r.result.close(); ok(); }; }; })"""
PUT_RECORD_JS = """(rec) => new Promise((ok, no) => { const r = indexedDB.open('briscola-games', 1);
    r.onerror = () => no(r.error);
    r.onsuccess = () => { const t = r.result.transaction(['games'], 'readwrite'); t.objectStore('games').put(rec);
        t.oncomplete = () => { r.result.close(); ok(); }; }; })"""


def plays_on(page):
    """The page is alive: the table shown, a card played and answered."""
    if ui(page) == "games":
        page.click("#games-new")
        start(page, "classic", 5)
    assert page.locator("#loading").is_hidden() and page.locator("#app-main").is_visible()
    act_and_wait(page, lambda: page.locator(".hand-card.playable").first.click())
    assert wait_ui(page, ("waiting", "summary")) in ("waiting", "summary")


def test_a_deep_save_in_local_storage_is_set_aside_and_the_site_starts(page, base_url, bot_level):
    """An older page's save nested 5,000 deep (Python's parser would stop the engine) is
    refused unparsed, kept aside by the worker and removed from localStorage: said once, and
    the next start is a plain one."""
    boot(page, base_url, prefs(bot_level), {"briscola.save": DEEP})
    assert "set aside" in page.text_content("#notice")
    assert page.evaluate("localStorage.getItem('briscola.save')") is None
    plays_on(page)
    page.reload()
    wait_ui(page, WITH_GAMES)
    assert "set aside" not in (page.text_content("#notice") or "")
    plays_on(page)


def test_a_save_too_large_to_reach_the_engine_is_set_aside_by_the_page(page, base_url, bot_level):
    """An older page's save past the bounds in bytes is refused at the worker's door
    (input_too_large) before the worker could keep it: the page keeps it under bad-save-*."""
    big = '{"format": "briscola/table", "version": 1, "pad": "' + "x" * 2_000_100 + '"}'
    boot(page, base_url, prefs(bot_level), {"briscola.save": big})
    assert "set aside" in page.text_content("#notice")
    kept = page.evaluate("""Object.keys(localStorage).filter((k) => k.startsWith('briscola.bad-save-'))
        .map((k) => localStorage.getItem(k).length)""")
    assert kept == [len(big)] and page.evaluate("localStorage.getItem('briscola.save')") is None
    plays_on(page)


def test_a_deep_save_in_indexeddb_is_set_aside_and_the_tab_plays_on(page, base_url, bot_level):
    boot(page, base_url, prefs(bot_level))
    page.goto(base_url + f"?variant=classic&level={bot_level}&seed=5")
    assert wait_ui(page, ("waiting",)) == "waiting"
    page.evaluate(SET_DEEP_SAVE_JS, DEEP)
    page.reload()  # this tab's own game: its save is refused, kept aside, said
    wait_ui(page, WITH_GAMES)
    assert "set aside" in page.text_content("#notice")
    plays_on(page)
    page.reload()  # the refused game is gone from the list: the next start is a plain one
    wait_ui(page, WITH_GAMES)
    assert "set aside" not in (page.text_content("#notice") or "")
    plays_on(page)


def test_a_malformed_entry_of_the_unfinished_games_is_left_out(new_page, base_url, bot_level):
    """An entry whose seats hold a null (or whose info is not one at all) is skipped; a new tab
    shows the rest and plays."""
    context, a = new_page(1280, 800)
    boot(a, base_url, prefs(bot_level))
    good = {"variant": "classic", "custom": False, "players": 2, "names": [], "score": [0, 0], "deal": 0,
            "side_points": [0, 0], "phase": "play", "over": False,
            "seats": [{"kind": "human"}, {"kind": "bot", "level": bot_level}]}
    for rid, info in {"nulls": {**good, "seats": [None, None]}, "text": "x", "deep": {**good, "names": [[[]]] * 2},
                      "good": good}.items():
        a.evaluate(PUT_RECORD_JS, {"id": rid, "save": "x", "meta": None, "created": 1,
                                   "updated": 1700000000000, "info": info})
    b = context.new_page()
    b.console_watch = a.console_watch
    b.on("pageerror", lambda e: a.console_watch.errors.append(f"pageerror: {e}"))
    b.goto(base_url)
    assert wait_ui(b, WITH_GAMES) == "games"
    entries = b.eval_on_selector_all("li.game-entry", "els => els.map((e) => e.dataset.game)")
    assert "nulls" not in entries and "text" not in entries and {"good", "deep"} <= set(entries), entries
    assert b.locator("#loading").is_hidden()
    b.click("li.game-entry[data-game='good'] button")  # its save is not one: set aside, said
    # (the page may still be on the list when the click returns: wait for what the click does)
    b.wait_for_function("() => (document.getElementById('notice').textContent || '').includes('set aside')")
    wait_ui(b, WITH_GAMES)
    plays_on(b)
    assert not a.console_watch.errors, a.console_watch.errors
    context.close()


def test_a_deep_request_gets_an_error_reply(page, base_url, bot_level):
    boot(page, base_url, prefs(bot_level))
    page.goto(base_url + f"?variant=classic&level={bot_level}&seed=5")
    wait_ui(page, ("waiting",))
    for depth in (65, 2000, 100_000):
        got = page.evaluate("""(depth) => { const args = {}; let at = args;
            for (let i = 0; i < depth; i++) at = at.k = {};
            return window.__briscola.engine.call('state', args).then(() => 'answered', (e) => e.code); }""", depth)
        # (a text nested past what the page's own JSON.stringify can write: refused there)
        assert got == "input_too_deep" or (depth > 10000 and got == "bad_request"), (depth, got)
    huge = page.evaluate("""() => window.__briscola.engine.call('state', {seat: 'x'.repeat(2000001)})
        .then(() => 'answered', (e) => e.code)""")
    assert huge == "input_too_large"
    # A message the worker cannot read (its structured clone of an object nested 2,000 deep
    # fails there: a messageerror, with nothing of the message) was never answered: its request
    # waited for ever. The worker says which it was; the page rejects that one, the next answers.
    got = page.evaluate("""async () => {
        const post = Worker.prototype.postMessage;
        let deep = {}; for (let i = 0; i < 2000; i++) deep = { a: deep };
        let spoilt = 0;
        Worker.prototype.postMessage = function (m, ...rest) {
          if (m && m.type === 'ping' && spoilt < 2) { spoilt += 1; m = { ...m, args: deep }; }
          return post.call(this, m, ...rest); };
        const engine = window.__briscola.engine;
        const said = (p) => Promise.race([p.then((r) => ['answered', r.version], (e) => [e.code, e.message]),
          new Promise((ok) => setTimeout(() => ok(['never answered']), 20000))]);
        try {
          const two = await Promise.all([said(engine.call('ping')), said(engine.call('ping'))]);
          return [...two, await said(engine.call('ping'))];
        } finally { Worker.prototype.postMessage = post; } }""")
    assert [g[0] for g in got] == ["bad_request", "bad_request", "answered"], got
    assert "could not read this request" in got[0][1]
    assert page.evaluate("window.__briscola.engine.call(42).then(() => 'answered', (e) => e.code)") == "bad_request"
    plays_on(page)
