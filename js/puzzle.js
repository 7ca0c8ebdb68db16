// The puzzle of the day: a position where every card is known (two players, the talon empty),
// drawn by the engine from the date alone, so it is the same for everyone, offline. The
// person takes the most points from there; the engine checks each card against the exact
// values and answers for the other player (puzzle, puzzle_move). A solved or failed puzzle
// counts once a day in the streak kept with the statistics (js/storage.js).

import { h, clear, dialogLive, keepFocus } from "./dom.js";
import { t, getLang } from "./i18n.js";
import { cardName, suitName } from "./cards.js";
import { cardFace } from "./table.js";
import { reasonText } from "./reasons.js";
import { errorText } from "./errors.js";
import * as store from "./storage.js";
import { today, refreshEntry, streakText } from "./puzzle-entry.js";

export class Puzzle {
  constructor(app) {
    this.app = app;
    this.dialog = null;
    this.date = today(); // the day shown (open's)
  }

  ensureDialog() {
    if (this.dialog) return this.dialog;
    const d = h("dialog", { id: "puzzle-dialog", class: "sheet puzzle-sheet closable", attrs: { "aria-labelledby": "puzzle-title" } });
    this.body = h("div", { class: "panel", id: "puzzle-body" });
    d.append(this.body);
    d.addEventListener("click", (e) => { if (e.target === d) d.close(); });
    d.addEventListener("close", () => refreshEntry()); // the statistics behind it, current
    document.body.append(d);
    dialogLive(d); // what the puzzle says (app.say) is heard inside the dialog
    this.dialog = d;
    return d;
  }

  async open(date = today()) {
    const d = this.ensureDialog();
    Object.assign(this, { date, moves: [], state: null, outcome: null, error: null, busy: true, replies: [], answered: 0, already: false });
    this.render();
    if (!d.open) d.showModal();
    try {
      this.state = await this.app.engine.call("puzzle", { date });
      const played = store.puzzleResult(date);
      if (played && played.moves.length) await this.replayDay(played);
    } catch (err) {
      this.error = errorText(err);
    }
    this.busy = false;
    this.render();
    // the focus on the first card to play (it was on Close, the only button while loading)
    const first = /** @type {HTMLElement | null} */ (this.body.querySelector(".puzzle-hand button:not([disabled])"));
    if (first) first.focus({ preventScroll: true });
  }

  /** The day's puzzle already played: the position as it ended, shown, never played again. */
  async replayDay(played) {
    const r = await this.app.engine.call("puzzle_move", { date: this.date, moves: played.moves });
    this.moves = r.ok ? [...played.moves] : played.moves.slice(0, -1);
    this.replies = [];
    this.answered = r.replies.length;
    this.state = { ...this.state, ...r };
    this.outcome = r.ok ? { solved: true, points: r.points } : { solved: false, card: played.moves[played.moves.length - 1], ...r };
    this.already = true;
  }

  async play(card) {
    if (this.busy || this.outcome || !this.state) return;
    this.busy = true; // (not drawn: the card played keeps the focus until the reply)
    try {
      const r = await this.app.engine.call("puzzle_move", { date: this.date, moves: [...this.moves, card] });
      if (r.ok) {
        this.moves.push(card);
        this.replies = r.replies.slice(this.answered); // the other's cards since this one
        this.answered = r.replies.length;
        this.state = { ...this.state, ...r };
        if (r.done) this.outcome = { solved: true, points: r.points };
      } else {
        this.outcome = { solved: false, card, ...r };
      }
      if (this.outcome) store.recordPuzzle(this.date, this.outcome.solved, this.outcome.solved ? this.moves : [...this.moves, card]);
    } catch (err) {
      this.error = errorText(err);
    }
    this.busy = false;
    this.render();
    const line = this.body.querySelector(".puzzle-status");
    if (line) this.app.say(line.textContent);
  }

  /** Drawn again, the focus kept: on the same card, else the next card to play, else Close. */
  render() {
    keepFocus(this.body, () => this.draw(), [".puzzle-hand button:not([disabled])", "#puzzle-close"]);
  }

  draw() {
    const body = clear(this.body);
    const lang = getLang();
    const style = this.app.style();
    const ctx = { lang, style, names: this.app.names() };
    body.dataset.date = this.date;
    body.append(h("h2", { id: "puzzle-title", text: t("puzzle.title") }));
    if (this.error) body.append(h("p", { class: "form-error", text: this.error }));
    const st = this.state;
    if (!st) {
      if (!this.error) body.append(h("p", { class: "muted", text: t("puzzle.loading") }));
    } else {
      body.append(h("p", { class: "puzzle-intro", text: t("puzzle.intro", { date: this.date, plays: st.plays, stake: st.stake }) }));
      if (st.view.trump_suit) body.append(h("p", { class: "puzzle-trump" }, `${t("table.trump")}: `, h("b", { text: suitName(st.view.trump_suit, lang, style) })));
      const faces = (cards, cls) => h("div", { class: `puzzle-cards ${cls}` },
        ...cards.map((c) => h("div", { class: "slot puzzle-card", title: cardName(c, lang, style) }, cardFace(c, style, lang, "pz"))));
      body.append(h("h3", { text: t("puzzle.other") }), faces(st.opponent, "puzzle-other"));
      body.append(h("h3", { text: t("puzzle.table") }));
      const trick = (st.view.trick || []).map((p) => p.card);
      body.append(trick.length ? faces(trick, "puzzle-trick") : h("p", { class: "muted", text: t("puzzle.empty") }));
      if (this.replies.length) body.append(h("p", { class: "muted", text: t("puzzle.replies", { cards: this.replies.map((c) => cardName(c, lang, style)).join(", ") }) }));
      body.append(h("h3", { text: t("puzzle.hand") }));
      const legal = new Set(st.view.legal || []);
      body.append(h("div", { class: "puzzle-cards puzzle-hand", attrs: { role: "group", "aria-label": t("puzzle.hand") } },
        ...(st.view.hand || []).map((c) => h("button", { class: "slot puzzle-card", type: "button", title: cardName(c, lang, style),
          attrs: { "aria-label": cardName(c, lang, style) }, data: { card: c }, disabled: this.busy || !!this.outcome || !legal.has(c),
          on: { click: () => this.play(c) } }, cardFace(c, style, lang, "pz")))));
      const o = this.outcome;
      if (o && o.solved) body.append(h("p", { class: "puzzle-status solved", text: t("puzzle.solved", { points: o.points }) }));
      else if (o) {
        body.append(h("p", { class: "puzzle-status failed", text: o.card ? t("puzzle.failed.card", { card: cardName(o.card, lang, style), best: cardName(o.best, lang, style), lost: o.lost })
          : t("puzzle.failed", { best: cardName(o.best, lang, style), lost: o.lost }) }));
        body.append(h("p", { class: "puzzle-reason", text: reasonText(o.reason, ctx) }));
      } else if (this.moves.length) {
        body.append(h("p", { class: "puzzle-status", text: t("puzzle.good", { card: cardName(this.moves[this.moves.length - 1], lang, style) }) }));
      }
      if (o) body.append(h("p", { class: "puzzle-streak", id: "puzzle-streak", text: streakText() }));
      if (o) body.append(h("p", { class: "muted puzzle-next", text: t(this.already ? "puzzle.done" : "puzzle.tomorrow") }));
    }
    body.append(h("div", { class: "buttons" },
      h("button", { class: "btn primary", id: "puzzle-close", type: "button", text: t("menu.close"), on: { click: () => { this.dialog.close(); refreshEntry(); } } }))); // at once: its close event comes a task later
  }
}
