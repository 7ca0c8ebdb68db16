// The seam between the play loop (js/play.js) and what drives a table from outside it: the
// friends layer (js/friends/), whose host's page learns of friends' plays from its referee and
// whose friend's page shows the views its host sends. Through it, and through nothing else of
// the loop, such a layer
//   - waits until nothing moves on the table (whenStill): no loop of turns, no trick being
//     presented; resolved by the loop and the presentation when they end, never polled;
//   - hands the table a state that came from outside (shown): after what is still shown, it
//     starts the deal, or presents the step and goes on;
//   - changes the seats' kinds under a table at rest (reseated), draws it again (redraw);
//   - replaces the table by a new game (replace, then start);
//   - is told after each call of this page's loop that moves the table on (onMoved).
// The states it hands in are shown in the order they were handed (one queue a page).

import { where } from "./requests.js";

/** The requests that move the table on, of those the loop makes (js/play.js ask()): `moves`
 * in the engine's table of requests (js/requests.js, from py/briscola/protocol.py). */
export const MOVES = where("moves", true);

/** The next task of the page's event loop: what the current one still does (a presentation
 * that ends and a loop that goes on at once, in promise callbacks) is done by then. */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

export class TableSeam {
  /** @param {any} loop the page's play loop (js/play.js PlayLoop) */
  constructor(loop) {
    this.loop = loop;
    this.app = loop.app;
    /** @type {Array<() => void>} */
    this.waiting = []; // whenStill()'s callers, woken when the table comes to rest
    /** @type {Set<(type: string, reply: any, args: any) => void>} */
    this.listeners = new Set();
    /** @type {Promise<void>} */
    this.queue = Promise.resolve(); // the outside states, one after the other
  }

  /** Whether nothing moves on the table now. */
  still() {
    return this.loop.looping === null && this.loop.presentingFor === null;
  }

  /**
   * Resolves once nothing moves on the table (no loop of turns, no trick being presented) and
   * `also()` (when given) returns nothing to wait for: a promise, awaited before looking again
   * (a friend's page: its own request to the host still unanswered). Looked at again in the next
   * task after each wake-up, so that a presentation followed at once by its loop is one motion.
   * @param {() => (Promise<any> | null)} [also]
   * @returns {Promise<void>}
   */
  async whenStill(also) {
    for (;;) {
      await nextTask();
      const other = also ? also() : null;
      if (other) {
        await other;
        continue;
      }
      if (this.still()) return;
      await new Promise((resolve) => this.waiting.push(() => resolve(undefined)));
    }
  }

  /** The loop or a presentation ended (or the table was replaced): whoever waits looks again. */
  settled() {
    if (!this.still() || !this.waiting.length) return;
    const woken = this.waiting.splice(0);
    for (const wake of woken) wake();
  }

  /**
   * `listener(type, reply, args)` is called after each request of this page's loop that moves
   * the table on (MOVES) and succeeded, with the worker's reply (before it is shown; also when
   * the page has moved to another table meanwhile: the worker's table moved all the same).
   * Returns the function that stops it.
   * @param {(type: string, reply: any, args: any) => void} listener
   */
  onMoved(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The worker answered the loop's request `type` (js/play.js ask()): the listeners are told
   * when it moved the table on. Returns the reply as the table keeps it: the friends' views it
   * carries (`views`, at a table with friends) are the listeners' only, never this page's table. */
  moved(type, reply, args) {
    if (MOVES.has(type)) {
      for (const listener of [...this.listeners]) {
        try {
          listener(type, reply, args);
        } catch (err) {
          console.error(err);
        }
      }
    }
    if (!reply || typeof reply !== "object" || !("views" in reply)) return reply;
    const { views, ...table } = reply;
    return table;
  }

  /** `job(value)` run after the outside states handed before it, once `coming` has come (its
   * value) and then the table is at rest; the promise resolves when it is done (a failure is
   * logged, never thrown). */
  after(job, { coming = undefined, also = undefined } = {}) {
    const run = this.queue.then(async () => {
      const value = await coming;
      await this.whenStill(also);
      await job(value);
    });
    this.queue = run.catch((err) => console.error(err));
    return this.queue;
  }

  /**
   * A state of this table that came from outside (a host's view on a friend's page; on the
   * host's page, its table after a friend played): shown after what is still shown. A new deal
   * (`fresh`, or `fresh()` when its turn comes; no table yet; another deal than the one shown) starts as a deal does, the
   * summary closed; `starting(state)`, when given, is called first and may take the deal itself
   * (true: a friend's "next deal" waiting for it). Otherwise its new events are presented, and
   * the turns go on.
   * @param {any} coming the bridge's state, as this page's table shows it, or a promise of it
   *   (of null: nothing to show)
   * @param {{fresh?: boolean | (() => boolean), starting?: (state: any) => boolean | void, also?: () => (Promise<any> | null)}} [how]
   */
  shown(coming, { fresh = false, starting, also } = {}) {
    const app = this.app;
    return this.after(async (state) => {
      if (!state) return;
      if ((typeof fresh === "function" ? fresh() : fresh) || !app.state || state.match.deal !== app.state.match.deal) {
        if (starting && starting(state) === true) return;
        const sum = document.getElementById("summary-dialog");
        if (sum instanceof HTMLDialogElement && sum.open) sum.close();
        await this.loop.startShowing(state);
        return;
      }
      if (await this.loop.present(state, this.loop.gen)) this.loop.advance();
    }, { coming, also });
  }

  /** The bridge's seats changed (a computer for a friend away, the friend back): once the
   * table is at rest, it takes them, is drawn again and goes on. */
  reseated(seats) {
    const app = this.app;
    return this.after(() => {
      if (!app.state) return;
      app.state = { ...app.state, seats };
      app.draw();
      this.loop.advance();
    });
  }

  /** The table drawn again once at rest (what the page knows of it changed: its friends). */
  redraw() {
    const app = this.app;
    return this.after(() => {
      if (app.state) app.draw();
    });
  }

  /**
   * A new game takes the table: whatever the old one still awaits is stale, and nobody plays
   * on it while `load()` asks the worker for the new one. Its reply is returned (then given to
   * start()); a failure puts the page back as it was and is thrown.
   * @template T
   * @param {() => Promise<T>} load
   * @returns {Promise<T>}
   */
  async replace(load) {
    const app = this.app;
    const before = { ui: document.documentElement.dataset.ui, busy: this.loop.busy };
    this.loop.bump();
    this.loop.busy = true;
    app.ui("busy");
    try {
      return await load();
    } catch (err) {
      this.loop.busy = before.busy;
      app.ui(before.ui);
      throw err;
    }
  }

  /** A new game's first state (the worker's new_match): its deal starts. */
  start(state) {
    return this.loop.startShowing(state);
  }
}
