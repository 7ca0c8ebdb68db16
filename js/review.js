// The review of a deal: every decision of one seat judged by the engine, an accuracy figure,
// the turning points, and a step-through replay of the deal as that seat saw it.
//
// The page drives the review one request at a time (review_plan, then review_decision for
// each decision, then review_summary), so the worker is never busy for long, the table
// stays alive, a progress bar moves, and Cancel simply stops asking. What was evaluated is
// kept (per game, deal and seat): reopening the review goes on from there.
//
// The replay asks `replay {deal, step, seat, all_hands}` for the seat's view after `step`
// actions of the deal. Steps are mapped to decisions and tricks from the events of the deal's
// last step (one event per action: a play, an exchange, a signal, a bid...).

import { h, clear, dialogLive, keepFocus } from "./dom.js";
import { t, tOr, getLang, locale } from "./i18n.js";
import { errorText } from "./errors.js";
import { cardName } from "./cards.js";
import { cardFace, actionLabel } from "./table.js";
import { reasonText } from "./reasons.js";
import { ReviewReplay, lossText, navIcon, noteStep, trickEffect } from "./replay.js";

const ACTION_EVENTS = new Set(["play", "exchange", "signal", "pass", "carichi", "bid", "call"]);
const CARD = /^[A2-9TJHK][DCSB]$/;
const LABELS = ["best", "equal", "good", "inaccuracy", "mistake", "blunder"];

/** Steps of the deal from the events of its last step: the actions, where tricks end. */
export function mapSteps(events) {
  const acts = [];
  const trickEnds = [];
  let trick = 1;
  for (const e of events || []) {
    if (ACTION_EVENTS.has(e.type)) acts.push({ step: acts.length, seat: e.seat, type: e.type, card: e.card, trick });
    else if (e.type === "trick") {
      trickEnds.push(acts.length);
      trick += 1;
    }
  }
  return { acts, trickEnds };
}

/** The step before each decision of `seat` (the position where that seat had to choose). */
export function decisionSteps(decisions, acts, seat) {
  const mine = acts.filter((a) => a.seat === seat);
  const others = mine.filter((a) => a.type !== "play");
  let k = 0;
  return decisions.map((d) => {
    if (Number.isInteger(d.step)) return d.step;
    if (CARD.test(d.action)) {
      const a = mine.find((x) => x.type === "play" && x.card === d.action);
      return a ? a.step : null;
    }
    const a = others[k++];
    return a ? a.step : null;
  });
}

export class Review {
  constructor(app) {
    /** @type {(scroll?: boolean) => Promise<void>} js/replay.js's, mixed in below (the same function) */
    this.renderReplay = this.renderReplay;
    this.app = app;
    this.entries = new Map(); // "game|deal|seat" -> what was learnt
    this.run = null;
    this.dialog = null;
    this.replayToken = 0;
  }

  // ---- the dialog --------------------------------------------------------------------------
  ensureDialog() {
    if (this.dialog) return this.dialog;
    const d = h("dialog", { id: "review-dialog", class: "sheet review-sheet closable", attrs: { "aria-labelledby": "review-title" } });
    this.body = h("div", { class: "panel", id: "review-body" });
    d.append(this.body);
    document.body.append(d);
    dialogLive(d); // what the review says (app.say) is heard inside the dialog
    d.addEventListener("click", (e) => { if (e.target === d) d.close(); });
    d.addEventListener("close", () => {
      this.cancel();
      if (this.app.state && !document.querySelector("dialog[open]")) this.app.advance();
    });
    d.addEventListener("keydown", (e) => {
      if (e.target.closest && e.target.closest("select, input")) return;
      if (e.key === "ArrowRight") { e.preventDefault(); this.move(1); }
      if (e.key === "ArrowLeft") { e.preventDefault(); this.move(-1); }
    });
    this.dialog = d;
    return d;
  }

  /** Deals of the match's history that can be reviewed (the current one once over). */
  deals() {
    const st = this.app.state;
    if (!st || !st.match) return 0;
    return st.match.deal + (st.view.phase === "over" ? 1 : 0);
  }

  /**
   * Open the review of `deal` (default: the last finished) for `seat` (default: the person).
   * @param {{deal?: number, seat?: number}} [which]
   */
  open({ deal, seat } = {}) {
    const app = this.app;
    const count = this.deals();
    if (!count) return;
    this.deal = Number.isInteger(deal) ? deal : count - 1;
    const humans = app.humans();
    this.seat = Number.isInteger(seat) && !app.friends ? seat : (humans.length === 1 ? humans[0] : app.display);
    this.showAll = false;
    this.step = 0;
    const d = this.ensureDialog();
    this.build();
    if (!d.open) d.showModal();
    this.start();
  }

  relabel() {
    if (this.dialog && this.dialog.open) {
      this.build();
      this.renderStatus();
      this.renderList();
      this.renderReplay();
    }
  }

  key() {
    const id = this.app.game || (this.app.meta && this.app.meta.id) || "?";
    return `${id}|${this.deal}|${this.seat}`;
  }

  entry() {
    let e = this.entries.get(this.key());
    if (!e) {
      e = { plan: null, results: [], summary: null, error: null, steps: null, acts: [], trickEnds: [], dsteps: [], cancelled: false, tries: {} };
      this.entries.set(this.key(), e);
    }
    return e;
  }

  names() {
    return this.app.names();
  }

  /** The person at the screen, named "You": sentences in the second person. */
  isYou(seat) {
    const humans = this.app.humans();
    return humans.length === 1 && seat === humans[0] && this.names()[seat] === t("seat.you");
  }

  ctx() {
    return { lang: getLang(), style: this.app.style(), names: this.names() };
  }

  build() {
    const body = clear(this.body);
    const names = this.names();
    body.append(h("h2", { id: "review-title", text: t("review.title", { n: this.deal + 1 }) }));
    const dealSel = h("select", { id: "rv-deal" });
    for (let i = 0; i < this.deals(); i++) dealSel.append(h("option", { value: String(i), text: t("review.deal.n", { n: i + 1 }) }));
    dealSel.value = String(this.deal);
    dealSel.addEventListener("change", () => this.switchTo(Number(dealSel.value), this.seat));
    const seatSel = h("select", { id: "rv-seat" });
    // at a table with friends each person reviews their own decisions only
    names.forEach((n, i) => { if (!this.app.friends || i === this.seat) seatSel.append(h("option", { value: String(i), text: n })); });
    seatSel.value = String(this.seat);
    seatSel.addEventListener("change", () => this.switchTo(this.deal, Number(seatSel.value)));
    body.append(h("div", { class: "rv-choose" },
      h("div", { class: "field" }, h("label", { attrs: { for: "rv-deal" }, text: t("review.deal") }), dealSel),
      h("div", { class: "field" }, h("label", { attrs: { for: "rv-seat" }, text: t("review.seat") }), seatSel)));
    this.el = {
      status: h("div", { class: "rv-status" }), // the progress is not read out decision by decision
      summary: h("div", { class: "rv-summary" }),
      list: h("ol", { class: "rv-list" }),
      replay: h("section", { class: "rv-replay", attrs: { "aria-labelledby": "rv-replay-title" } }),
    };
    body.append(this.el.status, this.el.summary, this.el.list, this.el.replay);
    body.append(h("div", { class: "buttons" },
      h("button", { class: "btn primary", id: "rv-close", type: "button", text: t("menu.close"), on: { click: () => this.dialog.close() } })));
  }

  switchTo(deal, seat) {
    this.cancel();
    this.deal = deal;
    this.seat = seat;
    this.step = 0;
    this.build();
    this.start();
  }

  cancel() {
    if (this.run) this.run.cancelled = true;
    this.run = null;
  }

  // ---- evaluating ----------------------------------------------------------------------
  async start() {
    const entry = this.entry();
    const run = { cancelled: false };
    this.cancel();
    this.run = run;
    entry.cancelled = false;
    entry.error = null;
    const { deal, seat } = this;
    const call = (type, args) => this.app.engine.call(type, args);
    this.renderStatus();
    try {
      if (!entry.plan) {
        entry.plan = await call("review_plan", { seat, deal });
        if (run.cancelled) return;
      }
      if (entry.steps === null) {
        const first = await call("replay", { deal, seat, step: 0 });
        const last = await call("replay", { deal, seat, step: first.steps });
        const mapped = mapSteps(last.view.events);
        entry.steps = first.steps;
        entry.acts = mapped.acts;
        entry.trickEnds = mapped.acts.length === first.steps ? mapped.trickEnds : [];
        entry.dsteps = decisionSteps(entry.plan.decisions || [], mapped.acts, seat);
        if (run.cancelled) return;
      }
      this.renderList();
      this.renderReplay();
      const decisions = entry.plan.decisions || [];
      for (let i = 0; i < decisions.length; i++) {
        if (entry.results[i]) continue;
        if (run.cancelled) return;
        this.renderStatus(i);
        const res = await call("review_decision", { seat, deal, index: decisions[i].index });
        entry.results[i] = res; // kept even if cancelled meanwhile: it is still true
        if (this.run !== run) return;
        this.renderRow(i);
        if (this.step === noteStep(entry, i)) this.renderReplay();
      }
      if (!entry.summary) entry.summary = await call("review_summary", { seat, deal });
      if (this.run !== run) return;
      this.run = null;
      this.renderStatus();
      this.renderList();
      this.app.say(t("review.done", { n: Math.round(entry.summary.accuracy) }));
    } catch (err) {
      if (this.run !== run) return;
      this.run = null;
      entry.error = errorText(err);
      this.renderStatus();
    }
  }

  stop() {
    const entry = this.entry();
    entry.cancelled = true;
    this.cancel();
    this.renderStatus();
  }

  // ---- drawing -------------------------------------------------------------------------
  renderStatus(current = null) {
    if (!this.el) return;
    const entry = this.entry();
    const box = clear(this.el.status);
    const sum = clear(this.el.summary);
    const count = entry.plan ? entry.plan.count ?? (entry.plan.decisions || []).length : 0;
    const done = entry.results.filter(Boolean).length;
    if (entry.error) {
      box.append(h("p", { class: "form-error", text: t("review.error", { message: entry.error }) }),
        h("button", { class: "btn small", type: "button", text: t("review.resume"), on: { click: () => this.start() } }));
      return;
    }
    if (entry.plan && count === 0) {
      box.append(h("p", { class: "muted", text: t("review.nodecisions") }));
      return;
    }
    if (this.run && !entry.summary) {
      const i = current === null ? done : current;
      box.append(h("div", { class: "rv-progress" },
        h("progress", { id: "rv-progress", max: String(Math.max(1, count)), value: String(done), attrs: { "aria-label": t("review.progress.aria") } }),
        h("span", { class: "rv-progress-text", text: entry.plan ? t("review.progress", { i: Math.min(count, i + 1), n: count }) : t("review.starting") }),
        h("button", { class: "btn small", id: "rv-cancel", type: "button", text: t("review.cancel"), on: { click: () => this.stop() } })));
      return;
    }
    if (!entry.summary) {
      box.append(h("p", { class: "muted", text: t("review.cancelled", { i: done, n: count }) }),
        h("button", { class: "btn small", id: "rv-resume", type: "button", text: t("review.resume"), on: { click: () => this.start() } }));
      return;
    }
    const s = entry.summary;
    const acc = typeof s.accuracy === "number" ? s.accuracy : null; // a percentage
    const fmt = (x) => (typeof x === "number" ? x.toLocaleString(locale(), { maximumFractionDigits: 1 }) : "–");
    sum.append(h("div", { class: "rv-figures" },
      h("div", { class: "rv-figure" }, h("b", { id: "rv-accuracy", text: acc === null ? "–" : `${Math.round(acc)}%` }), h("span", { text: t("review.accuracy") })),
      h("div", { class: "rv-figure" }, h("b", { text: fmt(s.mean_loss) }), h("span", { text: t("review.meanloss") }))));
    const counts = s.counts || {};
    const chips = h("p", { class: "rv-counts" });
    for (const label of [...LABELS, ...Object.keys(counts).filter((k) => !LABELS.includes(k))]) {
      if (!counts[label]) continue;
      chips.append(h("span", { class: `rv-chip label-${label}`, text: `${tOr(`review.label.${label}`, label)}: ${counts[label]}` }));
    }
    sum.append(chips);
    sum.append(h("h3", { text: t("review.turning") }));
    const tps = (s.turning_points || []).map((idx) => this.positionOf(idx)).filter((i) => i >= 0 && entry.results[i]);
    if (!tps.length) sum.append(h("p", { class: "muted", text: t("review.turning.none") }));
    else {
      const ul = h("ul", { class: "rv-turning" });
      for (const i of tps) {
        const r = entry.results[i];
        const ph = this.bidPhase(i);
        const words = { card: this.actionWords(r.action), best: this.actionWords(r.best) };
        const text = ph ? t("review.turning.bid", { ...words, where: t(`review.${ph}`), loss: lossText(r.loss, r.unit, false).replace(/^−/, "") })
          : t("review.turning.item", { ...words, trick: this.trickOf(i), loss: fmt(r.loss) });
        ul.append(h("li", {}, h("button", { class: "link", type: "button", on: { click: () => this.goto(noteStep(entry, i), true) }, text })));
      }
      sum.append(ul);
    }
    this.renderTally();
  }

  /** Position in the plan of the decision with `index`. */
  positionOf(index) {
    const ds = (this.entry().plan || {}).decisions || [];
    const i = ds.findIndex((d) => d.index === index);
    return i >= 0 ? i : (Number.isInteger(index) && index < ds.length ? index : -1);
  }

  /** "auction" or "call" for a Chiamata bid or call (valued in game points), else null. */
  bidPhase(i) {
    const d = ((this.entry().plan || {}).decisions || [])[i];
    return d && (d.phase === "auction" || d.phase === "call") ? d.phase : null;
  }

  /** The short place of decision i in the deal: "T3", or the auction / the call. */
  whereShort(i) {
    const ph = this.bidPhase(i);
    return ph ? t(`review.${ph}.short`) : t("review.trick.short", { n: this.trickOf(i) });
  }

  trickOf(i) {
    const entry = this.entry();
    const step = entry.dsteps[i];
    const a = Number.isInteger(step) ? entry.acts[step] : null;
    if (a) return a.trick;
    const d = entry.plan.decisions[i];
    return Number.isInteger(d.trick) ? d.trick + 1 : "?";
  }

  /** "…gave its 11 points to the others where … would have kept it" for an unforced lost load. */
  loadLost(r) {
    const ll = r && r.load_lost;
    if (!ll || !CARD.test(ll.card || "") || !CARD.test(ll.kept || "")) return "";
    // a load lost by a card worth the best over the deal lost nothing there: said as such
    return t(ll.tied ? "review.load.tied" : "review.load.lost", { card: this.actionWords(ll.card), kept: this.actionWords(ll.kept), points: ll.points });
  }

  actionWords(action) {
    if (!action) return "–";
    const lang = getLang();
    const style = this.app.style();
    try {
      return CARD.test(action) ? cardName(action, lang, style) : actionLabel(action, lang, style);
    } catch {
      return action;
    }
  }

  renderList() {
    if (!this.el) return;
    const entry = this.entry();
    const list = clear(this.el.list);
    list.setAttribute("aria-label", t("review.list"));
    const ds = (entry.plan && entry.plan.decisions) || [];
    list.classList.toggle("has-bids", ds.some((d) => d.phase === "auction" || d.phase === "call")); // wider loss column: "−0.25 gp"
    ds.forEach((d, i) => list.append(h("li", { class: "rv-item", data: { i } })));
    ds.forEach((d, i) => this.renderRow(i));
  }

  /** Row i drawn again, the focus kept in it (the card tried, else the next to try). */
  renderRow(i) {
    const li = this.el.list.querySelector(`li[data-i="${i}"]`);
    if (li) keepFocus(li, () => this.drawRow(i, li), [".rv-retry-hand button:not([disabled])", ".rv-retry-btn", ".rv-row"]);
  }

  drawRow(i, li) {
    const entry = this.entry();
    clear(li);
    const d = entry.plan.decisions[i];
    const r = entry.results[i];
    const turning = entry.summary && (entry.summary.turning_points || []).includes(d.index);
    li.className = `rv-item${r ? ` label-${r.label}` : " pending"}${turning ? " turning" : ""}${noteStep(entry, i) === this.step ? " current" : ""}`;
    const style = this.app.style();
    const lang = getLang();
    const played = r ? r.action : d.action;
    const mini = (code) => (CARD.test(code || "") ? h("span", { class: "rv-mini" }, cardFace(code, style, lang, "rv")) : null);
    const row = h("button", { class: "rv-row", type: "button", on: { click: () => this.goto(noteStep(entry, i), true) } },
      h("span", { class: "rv-trick", text: this.whereShort(i) }),
      h("span", { class: "rv-played" }, mini(played), h("span", { text: this.actionWords(played) })),
      r ? h("span", { class: "rv-best" }, r.best === r.action ? null : mini(r.best),
        h("span", { text: r.best === r.action ? t("review.same") : t("review.best.is", { card: this.actionWords(r.best) }) })) : h("span", { class: "rv-best muted", text: "…" }),
      h("span", { class: "rv-loss", text: r ? lossText(r.loss, r.unit) : "" }),
      h("span", { class: `rv-label label-${r ? r.label : "pending"}`, text: r ? tOr(`review.label.${r.label}`, r.label) : t("review.pending") }));
    li.append(row);
    const fx = r ? trickEffect(r) : "";
    if (fx) li.append(h("p", { class: "rv-effect", text: fx }));
    const lost = r ? this.loadLost(r) : "";
    if (lost) li.append(h("p", { class: "rv-load-lost", text: lost }));
    if (r && r.reason && r.label !== "best") li.append(h("p", { class: "rv-reason", text: reasonText(r.reason, this.ctx()) }));
    if (r && retryable(r, d)) li.append(this.retryBox(i));
  }

  // ---- learning from a mistake: the same cards, another try --------------------------------
  /** The retry of row i: a button, then the position (the trick, the hand) and the tries. */
  retryBox(i) {
    const entry = this.entry();
    const r = entry.results[i];
    const tr = entry.tries[i];
    const box = h("div", { class: "rv-retry", data: { i } });
    if (!tr) {
      box.append(h("button", { class: "btn small rv-retry-btn", type: "button", text: t("review.retry"),
        attrs: { "aria-label": t("review.retry.aria", { card: this.actionWords(r.action) }) }, on: { click: () => this.retry(i) } }));
      return box;
    }
    if (tr.error) {
      box.append(h("p", { class: "form-error", text: tr.error }));
      return box;
    }
    if (!tr.view) {
      box.append(h("p", { class: "muted", text: t("review.pending") }));
      return box;
    }
    const style = this.app.style();
    const lang = getLang();
    const names = this.names();
    box.append(h("p", { class: "rv-retry-ask", text: t("review.retry.ask", { card: this.actionWords(r.action) }) }));
    const table = h("div", { class: "rv-retry-table" });
    for (const p of tr.view.trick || []) {
      table.append(h("figure", {}, h("div", { class: "slot rv-retry-card" }, cardFace(p.card, style, lang, "rvr")),
        h("figcaption", { text: names[p.seat] })));
    }
    if (!(tr.view.trick || []).length) table.append(h("p", { class: "muted", text: t("review.retry.lead") }));
    box.append(table);
    const hand = h("div", { class: "rv-retry-hand", attrs: { role: "group", "aria-label": t("review.retry.hand") } });
    const legal = new Set(tr.view.legal || []);
    for (const c of tr.view.hand || []) {
      const tried = tr.tried[c];
      hand.append(h("button", { class: `slot rv-retry-card${tried ? ` tried label-${tried.label}` : ""}`, type: "button",
        title: cardName(c, lang, style), attrs: { "aria-label": cardName(c, lang, style) },
        disabled: !legal.has(c) || tr.found || tr.busy || !!tried, data: { card: c },
        on: { click: () => this.tryCard(i, c) } }, cardFace(c, style, lang, "rvr")));
    }
    box.append(hand);
    const last = tr.last && tr.tried[tr.last];
    if (last && last.found) {
      box.append(h("p", { class: "rv-retry-found", text: t("review.retry.found", { card: this.actionWords(last.action), label: tOr(`review.label.${last.label}`, last.label) }) }));
      if (last.reason) box.append(h("p", { class: "rv-reason", text: reasonText(last.reason, this.ctx()) }));
    } else if (last) {
      box.append(h("p", { class: "rv-retry-miss", text: t("review.retry.miss", { card: this.actionWords(last.action), label: tOr(`review.label.${last.label}`, last.label), loss: lossText(last.loss, "card_points", false) }) }));
    }
    return box;
  }

  async retry(i) {
    const entry = this.entry();
    const tr = { view: null, tried: {}, last: null, found: false, busy: false, error: null };
    entry.tries[i] = tr;
    this.renderRow(i);
    try {
      const got = await this.app.engine.call("replay", { deal: this.deal, seat: this.seat, step: entry.dsteps[i] });
      tr.view = got.view;
    } catch (err) {
      tr.error = errorText(err);
    }
    if (this.entry() === entry) {
      this.renderRow(i);
      const first = this.el.list.querySelector(`li[data-i="${i}"] .rv-retry-hand button:not([disabled])`);
      if (first) first.focus({ preventScroll: true });
    }
  }

  async tryCard(i, card) {
    const entry = this.entry();
    const tr = entry.tries[i];
    if (!tr || tr.busy || tr.found) return;
    tr.busy = true; // (not drawn: the card tried keeps the focus until the reply)
    try {
      const got = await this.app.engine.call("review_retry", { deal: this.deal, seat: this.seat, index: entry.plan.decisions[i].index, action: card });
      tr.tried[card] = got;
      tr.last = card;
      if (got.found) tr.found = true;
    } catch (err) {
      tr.error = errorText(err);
    }
    tr.busy = false;
    if (this.entry() !== entry) return;
    this.renderRow(i);
    this.renderTally();
    const last = tr.tried[card];
    if (last) this.app.say(last.found ? t("review.retry.found", { card: this.actionWords(last.action), label: tOr(`review.label.${last.label}`, last.label) })
      : t("review.retry.miss", { card: this.actionWords(last.action), label: tOr(`review.label.${last.label}`, last.label), loss: lossText(last.loss, "card_points", false) }));
  }

  /** "Mistakes found again: n of m" under the summary, once a mistake has been retried. */
  renderTally() {
    if (!this.el) return;
    const entry = this.entry();
    const old = this.el.summary.querySelector("#rv-tally");
    if (old) old.remove();
    const ds = (entry.plan && entry.plan.decisions) || [];
    const rows = ds.map((d, i) => i).filter((i) => entry.results[i] && retryable(entry.results[i], ds[i]));
    if (!rows.length || !Object.keys(entry.tries).length) return;
    const found = rows.filter((i) => entry.tries[i] && entry.tries[i].found).length;
    const p = h("p", { class: "rv-tally", id: "rv-tally", text: t("review.retry.tally", { n: found, m: rows.length }) });
    const chips = this.el.summary.querySelector(".rv-counts");
    if (chips) chips.after(p);
    else this.el.summary.append(p);
  }

  // ---- the replay --------------------------------------------------------------------------
  move(delta) {
    const entry = this.entry();
    if (entry.steps === null) return;
    this.goto(Math.max(0, Math.min(entry.steps, this.step + delta)));
  }

  moveTrick(dir) {
    const entry = this.entry();
    if (entry.steps === null) return;
    const ends = [0, ...entry.trickEnds, entry.steps];
    let target;
    if (dir > 0) target = ends.find((s) => s > this.step);
    else target = [...ends].reverse().find((s) => s < this.step);
    if (target === undefined) target = dir > 0 ? entry.steps : 0;
    this.goto(target);
  }

  goto(step, scroll = false) {
    if (!Number.isInteger(step)) return;
    this.step = step;
    this.tell = true; // the step read out once drawn
    this.renderReplay(scroll);
    for (const li of this.el.list.querySelectorAll("li.rv-item")) {
      li.classList.toggle("current", noteStep(this.entry(), Number(li.dataset.i)) === step);
    }
  }

}

// Replay buttons: start, previous trick, previous play, next play, next trick, end.


/** Can the play of result r (decision d) be tried again: a card play that lost 3 points or
 * more (an inaccuracy, a mistake, a blunder)? */
export function retryable(r, d) {
  return !!r && (!d || d.phase === "play") && CARD.test(r.action || "") && ["inaccuracy", "mistake", "blunder"].includes(r.label);
}



// The replay's methods (js/replay.js), Review's own.
for (const name of Object.getOwnPropertyNames(ReviewReplay.prototype)) {
  if (name !== "constructor") Object.defineProperty(Review.prototype, name, Object.getOwnPropertyDescriptor(ReviewReplay.prototype, name));
}
