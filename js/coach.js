// The coach at the table: hints and the computer's reasons worded from {code, params}, the
// undo of the person's last play, the card tracker, the end-of-deal review and duplicate
// replay, and the rating against the computer levels shown in the statistics.
//
// The controller (js/app.js) owns the game; it calls in here at a few points: when it draws
// (tracker), builds the table's context (undo), shows the end of a deal (review, duplicate,
// the comparison of a duplicate), records a finished deal (rating), and opens the statistics.
// Every judgement comes from the engine (hint, undo, tracker, review_*, replay, duplicate,
// rate); nothing here decides a rule or evaluates a card.

import { h, s } from "./dom.js";
import { t, tOr, getLang } from "./i18n.js";
import * as store from "./storage.js";
import { reasonText } from "./reasons.js";
import { renderTracker } from "./tracker.js";
import { entryLabel, streakText } from "./puzzle-entry.js";
import { loadReview, loadPuzzle, inSight } from "./later.js";
import { sideName } from "./summary.js";

// The rating a person starts from before the first rated deal (the engine's scale).
export const START_RATING = 1200;
const HISTORY = 300; // rated deals kept for the chart

export class Coach {
  constructor(app) {
    this.app = app;
    /** @type {any} js/review.js's Review once a review was opened, a stand-in until then */
    this.review = new ReviewToCome(this);
    this.puzzle = null; // js/puzzle.js's, at the button's first press
    const prefs = store.loadPrefs();
    this.trackerOn = prefs.tracker === true;
    this.trackerKey = null;
    this.trackerBox = null;
  }

  /** A reason {code, params} (or older plain text) as a sentence in the page's language. */
  words(reason) {
    const app = this.app;
    return reasonText(reason, { lang: getLang(), style: app.style(), names: app.state ? app.names() : undefined });
  }

  // ---- undo --------------------------------------------------------------------------------
  /** null: no undo button (hot-seat, deal over); false: shown, not now; true: can undo. */
  undoState() {
    const app = this.app;
    const st = app.state;
    if (!st || app.humans().length !== 1 || st.view.phase === "over" || app.friends) return null;
    const v = st.view;
    if (app.busy || v.turn !== app.display || app.hideHand) return false;
    return v.events.some((e) => e.seat === app.display && ["play", "exchange", "signal", "pass", "carichi", "bid", "call"].includes(e.type));
  }

  async undo() {
    const app = this.app;
    if (this.undoState() !== true) return;
    const my = app.bump(); // the table is replaced: a loop or animation of the old position stops
    app.busy = true;
    app.ui("busy");
    let reply;
    try {
      reply = await app.ask("undo", { seat: app.display });
    } catch (err) {
      if (err.name === "Stale" || my !== app.gen) return;
      app.busy = false;
      app.noticeError(err);
      app.draw();
      app.ui("waiting");
      return;
    }
    app.state = reply;
    app.display = reply.seat;
    app.hinted = null;
    app.hintText = "";
    app.busy = false;
    app.draw();
    app.say(t("undo.done"));
    app.advance();
    app.table.focusHand();
  }

  // ---- tracker -----------------------------------------------------------------------------
  setTracker(on) {
    this.trackerOn = !!on;
    store.updatePrefs({ tracker: this.trackerOn });
    this.trackerKey = null;
    this.onDraw();
  }

  box() {
    if (!this.trackerBox) {
      this.trackerBox = h("aside", { id: "tracker", class: "tracker", attrs: { "aria-label": t("tracker.title") } });
      this.trackerBox.hidden = true;
      document.getElementById("app-main").append(this.trackerBox);
    }
    return this.trackerBox;
  }

  /** After every frame: keep the tracker to the latest state (one request per position). */
  onDraw() {
    const app = this.app;
    const st = app.state;
    // an expert playing without its learned model: said once a deal, with why (js/table.js
    // keeps it on the seat's badge)
    const weaker = st && st.model && st.model.now ? `${app.game}/${st.match ? st.match.deal : 0}` : null;
    if (weaker && this.modelSaid !== weaker) {
      this.modelSaid = weaker;
      app.notice(t(`model.missing.${st.model.why}`), 15000);
    }
    const main = document.getElementById("app-main");
    const show = this.trackerOn && st && !app.hideHand && st.seats[st.seat] && st.seats[st.seat].kind === "human"
      && st.view.phase !== "over";
    if (!show) {
      if (this.trackerBox) this.trackerBox.hidden = true;
      if (main) main.classList.remove("with-tracker");
      this.trackerKey = null;
      return;
    }
    const v = st.view;
    const key = `${st.match.deal}|${v.events.length}|${st.seat}|${v.phase}|${getLang()}|${app.style()}|${app.gen}`;
    if (key === this.trackerKey) return;
    this.trackerKey = key;
    const seat = st.seat;
    app.engine.call("tracker", { seat }).then((data) => {
      if (this.trackerKey !== key || !this.trackerOn) return;
      const box = this.box();
      box.setAttribute("aria-label", t("tracker.title"));
      renderTracker(box, data, { lang: getLang(), style: app.style(), trump: app.state.view.trump_suit,
        order: app.order, cardPoints: app.state.card_points, talon: app.state.view.rules.mode !== "chiamata" });
      box.hidden = false;
      main.classList.add("with-tracker");
    }, () => {
      if (this.trackerKey !== key) return;
      if (this.trackerBox) this.trackerBox.hidden = true;
      main.classList.remove("with-tracker");
    });
  }

  // ---- end of a deal -----------------------------------------------------------------------
  /** Elements for the end-of-deal screen: the duplicate's comparison, review and replay. */
  summaryParts(st, names) {
    const app = this.app;
    const parts = [];
    if (st.summary && st.summary.undone && app.humans().length === 1) {
      // undone for a friend back mid-deal in a seat a computer played (the bridge's set_seat),
      // or for a play taken back: each said as it happened
      const back = Array.isArray(st.summary.back) ? st.summary.back.filter((s) => names[s]) : [];
      for (const s of back) {
        const text = app.humans().includes(s) ? t("sum.back.you") : t("sum.back", { name: names[s] }); // a friend's own page
        parts.push(h("p", { class: "muted small sum-undone", text }));
      }
      if (!back.length) parts.push(h("p", { class: "muted small sum-undone", text: t("sum.undone") }));
    }
    const dup = st.match && st.match.duplicate;
    if (dup && dup.now) parts.push(this.comparison(dup, st, names));
    const row = h("div", { class: "sum-coach" });
    inSight(loadReview); // the first deal over: every later module kept, the review's in
    row.append(h("button", { class: "btn", id: "sum-review", type: "button", text: t("review.button"),
      on: { click: () => this.review.open({ deal: st.match.deal }) } }));
    if (this.canDuplicate(st)) {
      row.append(h("button", { class: "btn", id: "sum-duplicate", type: "button", text: t("dup.button"),
        on: { click: () => this.duplicate() } }));
    }
    parts.push(row);
    return parts;
  }

  canDuplicate(st) {
    const app = this.app;
    // not a duplicate of a duplicate (that would only swap the seats back)
    // not with friends either: the duplicate is the person against the computer
    return !app.friends && app.humans().length === 1 && st.view.phase === "over" && st.view.rules.mode !== "chiamata"
      && !st.match.duplicate;
  }

  async duplicate() {
    const app = this.app;
    let reply;
    try {
      reply = await app.ask("duplicate", {});
    } catch (err) {
      if (err.name !== "Stale") app.noticeError(err);
      return;
    }
    const dialog = document.getElementById("summary-dialog");
    if (dialog.open) dialog.close();
    const of = reply.match && reply.match.duplicate ? reply.match.duplicate.of_deal : null;
    await app.startShowing(reply);
    app.notice(t("dup.started", { n: (Number.isInteger(of) ? of : reply.match.deal - 1) + 1 }), 5000);
  }

  /** Your result and the computer's on the same cards. */
  comparison(dup, st, names) {
    const app = this.app;
    const me = app.humans()[0];
    const bot = names.find((_, i) => st.seats[i].kind === "bot") || "";
    const you = names[me];
    const o = dup.original || {};
    const n = dup.now || {};
    const dealNo = (Number.isInteger(dup.of_deal) ? dup.of_deal : 0) + 1;
    const table = h("table", { class: "stats dup-table" },
      h("thead", {}, h("tr", {}, h("th", { text: "" }), h("th", { attrs: { scope: "col" }, text: you }), h("th", { attrs: { scope: "col" }, text: bot }))),
      h("tbody", {},
        h("tr", {}, h("th", { attrs: { scope: "row" }, text: t("dup.row.first", { n: dealNo, name: you }) }),
          h("td", { data: { dup: "original-person" }, text: String(o.person_points) }), h("td", { data: { dup: "now-bot" }, text: String(n.bot_points) })),
        h("tr", {}, h("th", { attrs: { scope: "row" }, text: t("dup.row.second", { n: dealNo, name: bot }) }),
          h("td", { data: { dup: "now-person" }, text: String(n.person_points) }), h("td", { data: { dup: "original-bot" }, text: String(o.bot_points) }))));
    const diff = (Number(o.person_points) + Number(n.person_points)) - (Number(o.bot_points) + Number(n.bot_points));
    const verdict = diff > 0 ? t("dup.more", { n: diff, name: bot }) : diff < 0 ? t("dup.less", { n: -diff, name: bot }) : t("dup.same", { name: bot });
    return h("section", { class: "sum-dup", attrs: { "aria-labelledby": "dup-title" } },
      h("h3", { id: "dup-title", text: t("dup.title") }),
      h("p", { class: "muted small", text: t("dup.explain") }),
      h("div", { class: "table-wrap" }, table),
      h("p", { class: `dup-verdict ${diff > 0 ? "won" : diff < 0 ? "lost" : ""}`, id: "dup-verdict", text: verdict }));
  }

  // ---- rating ------------------------------------------------------------------------------
  /** After a deal is counted in the statistics: the person's rating against the computer. */
  async rate(st, seat) {
    const app = this.app;
    if (app.humans().length !== 1) return;
    const out = st.summary.outcome;
    const side = out.sides.findIndex((sd) => sd.includes(seat));
    const chiamata = !!(out.game_points && out.game_points.length);
    const levels = [...new Set(st.seats.filter((x, i) => x.kind === "bot" && !(out.sides[side] || []).includes(i)).map((x) => x.level))];
    if (levels.length !== 1) return; // opponents of mixed levels: no fair comparison
    const level = levels[0];
    let score;
    if (chiamata) score = out.game_points[seat] > 0 ? 1 : out.game_points[seat] < 0 ? 0 : 0.5;
    else score = out.draw ? 0.5 : out.winners.includes(side) ? 1 : 0;
    const undone = dealUndone(st);
    // a seats-swapped replay: the person may remember every card, so it is not rated either
    const replay = !!st.match.duplicate;
    // an expert that decided without its learned model played weaker than the expert's rating
    // says, and stronger than the intermediate's: not rated (docs/players.md)
    const nomodel = !!(st.model && Array.isArray(st.model.deals) && st.model.deals.includes(st.match.deal));
    const r = store.loadRating() || { rating: null, history: [] };
    const entry = { at: Date.now(), level, score, variant: st.view.rules.name };
    if (undone || replay || nomodel) {
      r.history.push({ ...entry, rating: r.rating, ...(undone ? { undo: true } : replay ? { replay: true } : { nomodel: true }) });
    } else {
      let reply;
      try {
        reply = await app.engine.call("rate", { rating: typeof r.rating === "number" ? r.rating : null, level, score });
      } catch {
        return; // no rating from this engine: statistics still counted
      }
      const again = store.loadRating() || r;
      again.rating = reply.rating;
      if (reply.levels && typeof reply.levels === "object") again.levels = reply.levels;
      again.history = [...(again.history || []), { ...entry, rating: again.rating }].slice(-HISTORY);
      store.storeRating(again);
      return;
    }
    r.history = r.history.slice(-HISTORY);
    store.storeRating(r);
  }

  // ---- the match's deals -------------------------------------------------------------------
  /** The statistics dialog's list of this match's finished deals, each with its review (any
   * earlier deal, not only the one just over). Filled when the engine answers; empty while
   * no deal of the table is over. */
  historySection(onOpen) {
    const app = this.app;
    const box = h("section", { class: "match-history", id: "match-history", hidden: true, attrs: { "aria-labelledby": "history-title" } });
    if (!app.state || !app.state.match || !this.review.deals()) return box;
    inSight(loadReview);
    app.engine.call("history", {}).then((reply) => {
      const deals = (reply && Array.isArray(reply.deals) ? reply.deals : []).filter((d) => d.over && d.outcome);
      if (!deals.length || !box.isConnected) return;
      const names = app.names();
      const list = h("ol", { class: "mh-list" });
      for (const d of deals) {
        const out = d.outcome;
        const result = (out.sides || []).map((side, i) => `${sideName(side, names)} ${out.side_points[i]}`).join(" · ");
        const notes = [];
        if (Number.isInteger(d.duplicate_of)) notes.push(t("history.duplicate", { n: d.duplicate_of + 1 }));
        if (d.undone) notes.push(t("history.undone"));
        list.append(h("li", { class: "mh-deal", data: { deal: d.deal } },
          h("span", { class: "mh-name", text: t("review.deal.n", { n: d.deal + 1 }) }),
          h("span", { class: "mh-result", text: result }),
          notes.length ? h("span", { class: "mh-notes muted small", text: notes.join(" · ") }) : null,
          h("button", { class: "btn small mh-review", type: "button", text: t("history.review"),
            attrs: { "aria-label": t("history.review.aria", { n: d.deal + 1 }) },
            on: { click: () => { if (onOpen) onOpen(); this.review.open({ deal: d.deal }); } } })));
      }
      box.append(h("h3", { id: "history-title", text: t("history.title") }), list);
      box.hidden = false;
    }).catch(() => {});
    return box;
  }

  /** The rating and its chart, for the statistics dialog. */
  statsSection() {
    const r = store.loadRating();
    const box = h("section", { class: "rating", attrs: { "aria-labelledby": "rating-title" } });
    box.append(h("h3", { id: "rating-title", text: t("rating.title") }));
    const hist = r && Array.isArray(r.history) ? r.history.filter((x) => x && (typeof x.rating === "number" || x.undo || x.replay || x.nomodel)) : [];
    if (!r || r.rating === null || r.rating === undefined) {
      const unrated = hist.some((x) => x.undo || x.replay || x.nomodel);
      box.append(h("p", { class: "muted", text: t(unrated ? "rating.none.unrated" : "rating.none") }));
      if (!unrated) return box;
    } else {
      box.append(h("p", { class: "rating-now" }, `${t("rating.now")} `, h("b", { id: "rating-value", text: String(Math.round(r.rating)) })));
    }
    const undos = hist.filter((x) => x.undo).length;
    if (hist.length) {
      const levels = validLevels(r.levels) || this.levels;
      const chart = ratingChart(hist, levels);
      box.append(chart);
      if (!levels) {
        // A rating kept before the levels were stored with it: ask the engine once, then
        // draw the chart again with the computer levels' lines.
        this.app.engine.call("rating_levels", {}).then((reply) => {
          this.levels = validLevels(reply && reply.levels);
          if (this.levels && chart.isConnected) chart.replaceWith(ratingChart(hist, this.levels));
        }).catch(() => {});
      }
    }
    if (undos) box.append(h("p", { class: "muted small", id: "rating-undos", text: t("rating.undos", { n: undos }) }));
    const replays = hist.filter((x) => x.replay).length;
    if (replays) box.append(h("p", { class: "muted small", id: "rating-replays", text: t("rating.replays", { n: replays }) }));
    const nomodels = hist.filter((x) => x.nomodel).length;
    if (nomodels) box.append(h("p", { class: "muted small", id: "rating-nomodel", text: t("rating.nomodel", { n: nomodels }) }));
    box.append(h("p", { class: "muted small", text: t("rating.note") }));
    return box;
  }

  /** The puzzle of the day: its streak and the button that opens it. */
  puzzleSection() {
    inSight(loadPuzzle); // in by the time it is pressed
    return h("section", { class: "puzzle-entry", attrs: { "aria-labelledby": "stats-puzzle-title" } },
      h("h3", { id: "stats-puzzle-title", text: t("puzzle.title") }),
      h("p", { class: "muted", id: "stats-puzzle-streak", text: streakText() }),
      h("button", { class: "btn", id: "btn-puzzle", type: "button", text: entryLabel(), on: { click: () => this.openPuzzle() } }));
  }

  /** Open the puzzle of the day (js/puzzle.js imported at the first). */
  openPuzzle() {
    loadPuzzle().then(({ Puzzle }) => {
      this.puzzle = this.puzzle || new Puzzle(this.app);
      this.puzzle.open();
    }, () => this.app.laterFailed());
  }
}

/** The review until js/review.js is in (js/later.js): the end screen and the statistics ask
 * it what a review would (deals, relabel); the first `open` or `load` imports the module, and
 * the coach then holds the Review itself (kept for the whole page: what a review learnt). */
class ReviewToCome {
  constructor(coach) {
    this.coach = coach;
    this.loading = null;
  }

  /** @returns {Promise<any>} the Review, once its module is in */
  load() {
    const coach = this.coach;
    if (!this.loading) {
      this.loading = loadReview().then(({ Review }) => {
        if (coach.review === this) coach.review = new Review(coach.app);
        return coach.review;
      });
      this.loading.catch(() => { this.loading = null; }); // asked again at the next open
    }
    return this.loading;
  }

  /** Deals of the match's history that can be reviewed (js/review.js's, the same). */
  deals() {
    const st = this.coach.app.state;
    if (!st || !st.match) return 0;
    return st.match.deal + (st.view.phase === "over" ? 1 : 0);
  }

  /** @param {{deal?: number, seat?: number}} [which] */
  open(which) {
    this.load().then((review) => review.open(which), () => this.coach.app.laterFailed());
  }

  relabel() {} // no dialog yet
}

/** Did the person undo a play in the deal of state `st` (it then counts for neither the
 * rating nor the won counts)? */
export function dealUndone(st) {
  const out = st.summary && st.summary.outcome;
  return !!(st.match.undone || (st.summary && st.summary.undone) || (out && out.undone));
}

/** {level: rating} with numbers only, or null. */
function validLevels(levels) {
  if (!levels || typeof levels !== "object") return null;
  const out = {};
  for (const [k, v] of Object.entries(levels)) if (typeof v === "number" && Number.isFinite(v)) out[k] = v;
  return Object.keys(out).length ? out : null;
}

/** The rating deal after deal as an SVG line; deals with an undo and seats-swapped replays
 * (not rated) as hollow marks; the
 * computer levels' ratings ({level: rating}, from the engine) as dashed reference lines. */
export function ratingChart(hist, levels = null) {
  const W = 320, H = 150, left = 34, right = 8, top = 10, bottom = 18;
  const rated = hist.filter((x) => typeof x.rating === "number");
  const refs = Object.entries(levels || {}).sort((a, b) => a[1] - b[1]);
  const values = [...rated.map((x) => x.rating), ...refs.map((e) => e[1])];
  let lo = Math.min(...values, START_RATING), hi = Math.max(...values, START_RATING);
  if (hi - lo < 40) { lo -= 20; hi += 20; }
  const span = hi - lo;
  lo = Math.floor((lo - span * 0.08) / 10) * 10;
  hi = Math.ceil((hi + span * 0.08) / 10) * 10;
  const n = hist.length;
  const x = (i) => left + (n === 1 ? (W - left - right) / 2 : (i * (W - left - right)) / (n - 1));
  const y = (v) => top + (H - top - bottom) * (1 - (v - lo) / (hi - lo));
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart rating-chart", role: "img", "aria-label": t("rating.chart") });
  svg.append(s("title", {}, t("rating.chart")));
  for (const v of [lo, Math.round((lo + hi) / 20) * 10, hi]) {
    svg.append(s("line", { x1: left, x2: W - right, y1: y(v), y2: y(v), class: "grid" }));
    svg.append(s("text", { x: left - 4, y: y(v) + 4, class: "axis", "text-anchor": "end" }, String(v)));
  }
  // the computer levels: a dashed line each, named at the right end
  for (const [name, v] of refs) {
    const g = s("g", { class: `level-ref level-${name}` });
    const label = `${tOr(`level.${name}`, name)} ${Math.round(v)}`;
    g.append(s("title", {}, t("rating.level", { level: tOr(`level.${name}`, name), rating: Math.round(v) })));
    g.append(s("line", { x1: left, x2: W - right, y1: y(v).toFixed(1), y2: y(v).toFixed(1), class: "level-line" }));
    g.append(s("text", { x: W - right - 2, y: (y(v) - 3).toFixed(1), class: "level-label", "text-anchor": "end" }, label));
    svg.append(g);
  }
  // the line through the rated deals; an unrated deal sits at the rating it left unchanged
  let last = START_RATING;
  const pts = hist.map((p, i) => {
    const v = typeof p.rating === "number" ? p.rating : last;
    last = v;
    return { x: x(i), y: y(v), p, v };
  });
  svg.append(s("polyline", { points: pts.map((q) => `${q.x.toFixed(1)},${q.y.toFixed(1)}`).join(" "), class: "rating-line" }));
  for (const q of pts) {
    const unrated = q.p.undo || q.p.replay || q.p.nomodel;
    const dot = s("circle", { cx: q.x.toFixed(1), cy: q.y.toFixed(1), r: unrated ? 3.6 : 2.6,
      class: q.p.undo ? "rating-dot undo" : q.p.replay ? "rating-dot undo replay" : q.p.nomodel ? "rating-dot undo nomodel"
        : `rating-dot s${String(q.p.score).replace(".", "")}` });
    const lvl = tOr(`level.${q.p.level}`, q.p.level || "");
    dot.append(s("title", {}, q.p.undo ? t("rating.point.undo", { level: lvl }) : q.p.replay ? t("rating.point.replay", { level: lvl })
      : q.p.nomodel ? t("rating.point.nomodel") : t("rating.point", { rating: Math.round(q.v), level: lvl })));
    svg.append(dot);
  }
  svg.append(s("text", { x: W - right, y: H - 4, class: "axis", "text-anchor": "end" }, hist.length === 1 ? t("rating.deals.one") : t("rating.deals", { n: hist.length })));
  const legend = h("div", { class: "legend" },
    h("span", { class: "lg" }, h("i", { class: "sw rating-sw" }), t("rating.legend")),
    refs.length ? h("span", { class: "lg" }, h("i", { class: "sw level-sw" }), t("rating.legend.levels")) : null,
    hist.some((p) => p.undo) ? h("span", { class: "lg" }, h("i", { class: "sw rating-sw undo" }), t("rating.legend.undo")) : null,
    hist.some((p) => p.replay) ? h("span", { class: "lg" }, h("i", { class: "sw rating-sw undo" }), t("rating.legend.replay")) : null,
    hist.some((p) => p.nomodel) ? h("span", { class: "lg" }, h("i", { class: "sw rating-sw undo" }), t("rating.legend.nomodel")) : null);
  return h("figure", { class: "chart-box" }, svg, legend);
}

