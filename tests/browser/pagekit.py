"""Page helpers shared by the browser tests."""
from __future__ import annotations

PROGRESS_JS = ("window.__briscola.state.view.events.length"
               " + 1000 * window.__briscola.state.match.deal")
SETTLED = ("waiting", "summary", "handoff", "error", "newgame", "over")


def progress(page) -> int:
    """Grows with every action the engine accepts (events of the deal, deals of the match)."""
    return page.evaluate(PROGRESS_JS)


def act_and_wait(page, do, timeout: float = 60000) -> None:
    """Do a game action, then wait until the engine has taken it and the page has settled.

    Waiting only for the page to leave "waiting" is not enough: it is "busy" at once, before
    the engine's reply has arrived.
    """
    before = progress(page)
    do()
    page.wait_for_function(
        "([b, settled]) => { const ui = document.documentElement.dataset.ui;"
        f" return ui === 'error' || (settled.includes(ui) && ({PROGRESS_JS}) !== b); }}",
        arg=[before, list(SETTLED)], timeout=timeout)


STORED_SAVE_JS = """async () => {
  const id = sessionStorage.getItem('briscola.game');
  const db = await new Promise((ok, no) => { const r = indexedDB.open('briscola-games');
    r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
  const rec = await new Promise((ok, no) => { const r = db.transaction('games').objectStore('games').get(id);
    r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
  db.close();
  return rec ? rec.save : null;
}"""


def stored_save(page) -> str | None:
    """The save the engine's worker keeps for this tab's game (IndexedDB; the page's own code
    never reads it: the test looks, as a curious person with developer tools could)."""
    return page.evaluate(STORED_SAVE_JS)
