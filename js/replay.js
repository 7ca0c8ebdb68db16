// The review's replay (js/review.js's Review: methods mixed into it): a step of the deal drawn
// as the reviewed seat saw it (or every hand), the step's buttons, the step said.

import { h, s, clear, keepFocus } from "./dom.js";
import { t, tOr, getLang, locale } from "./i18n.js";
import { errorText } from "./errors.js";
import { cardName, suitName } from "./cards.js";
import { cardFace } from "./table.js";
import { reasonText } from "./reasons.js";

const CARD = /^[A2-9TJHK][DCSB]$/;

export class ReviewReplay {
  // what of Review these methods use (for the type checker only: never made, the methods are
  // mixed into Review)
  constructor() {
    /** @type {any} */ this.actionWords = undefined;
    /** @type {any} */ this.app = undefined;
    /** @type {any} */ this.bidPhase = undefined;
    /** @type {any} */ this.ctx = undefined;
    /** @type {any} */ this.deal = undefined;
    /** @type {any} */ this.dialog = undefined;
    /** @type {any} */ this.el = undefined;
    /** @type {any} */ this.entry = undefined;
    /** @type {any} */ this.goto = undefined;
    /** @type {any} */ this.isYou = undefined;
    /** @type {any} */ this.loadLost = undefined;
    /** @type {any} */ this.move = undefined;
    /** @type {any} */ this.moveTrick = undefined;
    /** @type {any} */ this.names = undefined;
    /** @type {any} */ this.replayToken = undefined;
    /** @type {any} */ this.seat = undefined;
    /** @type {any} */ this.showAll = undefined;
    /** @type {any} */ this.step = undefined;
    /** @type {any} */ this.tell = undefined;
  }

  async renderReplay(scroll = false) {
    if (!this.el) return;
    const entry = this.entry();
    const box = this.el.replay;
    const token = ++this.replayToken;
    if (entry.steps === null) return;
    let reply;
    try {
      reply = await this.app.engine.call("replay", { deal: this.deal, step: this.step, seat: this.seat, all_hands: this.showAll });
    } catch (err) {
      if (token !== this.replayToken) return;
      clear(box).append(h("p", { class: "form-error", text: t("review.error", { message: errorText(err) }) }));
      return;
    }
    if (token !== this.replayToken || !this.dialog.open) return;
    // the focus stays on the button pressed (▶ again and again), or its neighbour at an end
    keepFocus(box, () => this.drawReplay(clear(box), reply, entry), ["#rv-next", "#rv-prev", "#rv-end", "#rv-start"]);
    if (this.tell) {
      this.tell = false;
      this.app.say(this.stepWords(reply, entry));
    }
    if (scroll) box.scrollIntoView({ block: "nearest", behavior: "auto" });
  }

  /** The step said: where it is, the card just played and by whom, the trick taken. */
  stepWords(reply, entry) {
    const v = reply.view;
    const names = this.names();
    const justTaken = v.trick.length === 0 && entry.trickEnds.includes(this.step) && v.tricks.length > 0;
    const trickNo = justTaken || v.phase === "over" ? v.tricks_done : v.tricks_done + 1;
    const words = [t("review.step", { i: this.step, n: entry.steps, trick: trickNo })];
    const shown = justTaken ? v.tricks[v.tricks.length - 1] : { plays: v.trick };
    const last = (shown.plays || [])[(shown.plays || []).length - 1];
    if (last && this.step > 0) words.push(`${names[last.seat]}: ${this.actionWords(last.card)}`);
    if (justTaken) words.push(this.isYou(shown.winner) ? t("review.taken.you", { points: shown.points }) : t("review.taken", { name: names[shown.winner], points: shown.points }));
    return words.join(". ");
  }

  drawReplay(box, reply, entry) {
    const v = reply.view;
    const names = this.names();
    const style = this.app.style();
    const lang = getLang();
    const step = this.step;
    const steps = entry.steps;
    const justTaken = v.trick.length === 0 && entry.trickEnds.includes(step) && v.tricks.length > 0;
    // the trick shown: the one just taken, else the one being played
    const trickNo = justTaken || v.phase === "over" ? v.tricks_done : v.tricks_done + 1;
    box.append(h("h3", { id: "rv-replay-title", text: t("review.replay") }));
    const btn = (id, label, icon, fn, disabled) => h("button", { class: "btn small step", id, type: "button",
      attrs: { "aria-label": label, title: label }, disabled, on: { click: fn } }, navIcon(icon));
    box.append(h("div", { class: "rv-nav" },
      btn("rv-start", t("review.nav.start"), "start", () => this.goto(0), step === 0),
      btn("rv-prev-trick", t("review.nav.prevtrick"), "prevtrick", () => this.moveTrick(-1), step === 0),
      btn("rv-prev", t("review.nav.prev"), "prev", () => this.move(-1), step === 0),
      h("span", { class: "rv-pos", id: "rv-pos", text: t("review.step", { i: step, n: steps, trick: trickNo }) }),
      btn("rv-next", t("review.nav.next"), "next", () => this.move(1), step >= steps),
      btn("rv-next-trick", t("review.nav.nexttrick"), "nexttrick", () => this.moveTrick(1), step >= steps),
      btn("rv-end", t("review.nav.end"), "end", () => this.goto(steps), step >= steps)));
    const all = h("input", { type: "checkbox", id: "rv-all" });
    all.checked = this.showAll;
    all.addEventListener("change", () => { this.showAll = all.checked; this.renderReplay(); });
    box.append(h("label", { class: "check rv-allcheck", attrs: { for: "rv-all" } }, all, h("span", { text: t("review.allhands") })));

    // what the seat sees: trump, talon, points
    const facts = h("p", { class: "rv-facts" });
    if (v.trump_card) facts.append(h("span", {}, `${t("table.trump")}: `, h("b", { text: cardName(v.trump_card, lang, style) })));
    else if (v.trump_suit) facts.append(h("span", {}, `${t("table.trump")}: `, h("b", { text: suitName(v.trump_suit, lang, style) })));
    if (typeof v.talon_size === "number" && (v.talon_size || v.trump_card)) facts.append(h("span", { text: t("table.talon", { n: v.talon_size }) }));
    const pts = (v.points || []).map((p, s) => `${names[s]} ${p}`).join(" · ");
    if (pts) facts.append(h("span", { text: `${t("review.points")}: ${pts}` }));
    box.append(facts);

    // the decision whose card was just played, if it is the seat's: its note goes with the
    // trick that card lies in (the one on the table, or the one it completed)
    const i = entry.dsteps.findIndex((_, k) => noteStep(entry, k) === step);
    const r = i >= 0 ? entry.results[i] : null;
    const played = i >= 0 ? (r ? r.action : entry.plan.decisions[i].action) : null;

    // the trick on the table, or the one just taken
    const shown = justTaken ? v.tricks[v.tricks.length - 1] : { plays: v.trick, winner: null };
    const trick = h("div", { class: "review rv-trick", id: "rv-felt" });
    for (const p of shown.plays || []) {
      const cls = [p.seat === shown.winner ? "won" : "", p.seat === this.seat && p.card === played ? "rv-played" : ""];
      trick.append(h("figure", { class: cls.filter(Boolean).join(" "), data: { card: p.card, seat: p.seat } },
        h("div", { class: "slot review-card" }, cardFace(p.card, style, lang, "rvt")),
        h("figcaption", { text: names[p.seat] })));
    }
    if (!(shown.plays || []).length) trick.append(h("p", { class: "muted", text: step === 0 ? t("review.atstart") : t("review.trick.empty") }));
    box.append(h("div", { class: "rv-table" },
      h("p", { class: "rv-caption", text: !justTaken ? t("review.ontable")
        : this.isYou(shown.winner) ? t("review.taken.you", { points: shown.points }) : t("review.taken", { name: names[shown.winner], points: shown.points }) }),
      trick));

    // the seat's decision whose card was just played
    const note = h("div", { class: `rv-note${r ? ` label-${r.label}` : ""}`, id: "rv-note", data: { card: played || "", trick: trickNo } });
    if (i >= 0) {
      const bid = this.bidPhase(i) ? ".bid" : "";
      note.append(h("p", { class: "rv-note-head", text: this.isYou(this.seat) ? t(`review.here.you${bid}`, { card: this.actionWords(played) })
        : t(`review.here${bid}`, { name: names[this.seat], card: this.actionWords(played) }) }));
      if (r) {
        const kept = r.load_lost && CARD.test(r.load_lost.kept || "") ? r.load_lost.kept : null;
        const verdict = r.best === r.action && kept ? t("review.here.load", { kept: this.actionWords(kept) })
          : r.best === r.action ? t("review.here.best")
          : r.label === "equal" ? t("review.here.equal", { best: this.actionWords(r.best) })
            : t(r.unit === "game_points" ? "review.here.loss.gp" : "review.here.loss", { best: this.actionWords(r.best), loss: lossText(r.loss, r.unit, false), label: tOr(`review.label.${r.label}`, r.label) });
        note.append(h("p", { text: verdict }));
        const fx = trickEffect(r);
        if (fx) note.append(h("p", { class: "rv-effect", text: fx }));
        const lost = r.best === r.action ? "" : this.loadLost(r); // the best's verdict says it
        if (lost) note.append(h("p", { class: "rv-load-lost", text: lost }));
        if (r.reason) note.append(h("p", { class: "rv-reason", text: reasonText(r.reason, this.ctx()) }));
      } else note.append(h("p", { class: "muted", text: t("review.pending") }));
    }
    if (note.childElementCount) box.append(note);

    // hands: the seat's own, every hand once asked for and allowed
    const hands = h("div", { class: "rv-hands" });
    const handRow = (seat, cards) => {
      const row = h("div", { class: "rv-hand", data: { seat } });
      for (const c of cards) {
        const cls = ["slot", "rv-hand-card"];
        if (r && seat === this.seat && c === r.best && r.best !== r.action) cls.push("rv-bestcard");
        const slot = h("div", { class: cls.join(" "), title: cardName(c, lang, style) }, cardFace(c, style, lang, "rvh"));
        row.append(slot);
      }
      if (!cards.length) row.append(h("span", { class: "muted", text: t("review.hand.empty") }));
      return h("div", { class: "rv-handbox" }, h("h4", { text: this.isYou(seat) ? t("table.hand") : t("table.hand.of", { name: names[seat] }) }), row);
    };
    hands.append(handRow(this.seat, v.hand || []));
    if (this.showAll && Array.isArray(reply.hands)) {
      reply.hands.forEach((cards, s) => { if (s !== this.seat && Array.isArray(cards)) hands.append(handRow(s, cards)); });
    } else {
      (v.known || []).forEach((cards, s) => {
        if (s !== this.seat && cards && cards.length) hands.append(handRow(s, cards));
      });
    }
    box.append(hands);
    if (this.showAll && !Array.isArray(reply.hands)) box.append(h("p", { class: "muted small", text: t("review.allhands.no") }));
  }
}

const ICONS = {
  start: "M7 5v14M18 5l-8 7 8 7z",
  prevtrick: "M12 5l-8 7 8 7zM20 5l-8 7 8 7z",
  prev: "M16 5l-9 7 9 7z",
  next: "M8 5l9 7-9 7z",
  nexttrick: "M4 5l8 7-8 7zM12 5l8 7-8 7z",
  end: "M17 5v14M6 5l8 7-8 7z",
};

export function navIcon(name) {
  return s("svg", { viewBox: "0 0 24 24", width: 18, height: 18, "aria-hidden": "true", class: "nav-icon" },
    s("path", { d: ICONS[name] }));
}

/** The replay step that shows decision i's note: the one just after its action, where a card
 * played lies on the felt (in the trick on the table, or in the trick it completed). */
export function noteStep(entry, i) {
  const step = entry.dsteps[i];
  return Number.isInteger(step) ? step + 1 : null;
}

/** What a reviewed card did to its trick: the points the side took, or the points that went
 * to the others and how many of them the card gave ("" for a bid or an older engine's result). */
export function trickEffect(r) {
  const fx = r && r.effect;
  if (!fx || typeof fx.points !== "number") return "";
  if (fx.points === 0) return t(fx.won ? "review.trick.won.none" : "review.trick.lost.none");
  if (fx.won) return t("review.trick.won", { points: fx.points });
  return fx.given > 0 ? t("review.trick.lost.gave", { points: fx.points, given: fx.given })
    : t("review.trick.lost", { points: fx.points });
}

/** "−3.2" card points; a Chiamata bid's loss in game points "−0.31 gp" (unit: false leaves
 * the unit out where the sentence names it). */
export function lossText(loss, unit = "card_points", withUnit = true) {
  if (typeof loss !== "number") return "";
  const gp = unit === "game_points";
  if (loss <= 0) return "0";
  const n = loss.toLocaleString(locale(), { maximumFractionDigits: gp ? 2 : 1 });
  return gp && withUnit ? `−${n} ${t("review.gp.short")}` : `−${n}`;
}
