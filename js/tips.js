// Tips for a newcomer's first deals: short, dismissible, each at the moment it matters
// (what the trump is when the first card is to be played, what the cards are worth once a
// trick is taken, that you need 61 a little later, how to ask for a hint). A dismissed tip
// never shows again (remembered in the preferences); the Rules have an entry that shows
// them all again.
//
//   tips.atTurn(state, ctx)   the person's turn: show the tip whose moment has come, if any
//   tips.hide()               off the table (a dialog, the end of the deal)
//   tips.hintAsked()          the person asked for a hint: the tip makes way for it
//   tips.rulesEntry(onShow)   the Rules' "show the tips again" section

import { h, clear } from "./dom.js";
import { t } from "./i18n.js";
import { rankName, suitName } from "./cards.js";
import * as store from "./storage.js";

// In order; each with the number of tricks that must be done before it shows.
const TIPS = [
  { id: "trump", after: 0 },
  { id: "points", after: 1 },
  { id: "target", after: 3 },
  { id: "hint", after: 5 },
];
const LATEST_FIRST = [...TIPS].reverse();

let box = null;
let shown = null;

function seen() {
  const prefs = store.loadPrefs();
  return prefs.tips && typeof prefs.tips === "object" ? prefs.tips : {};
}

function remember(changes) {
  store.updatePrefs({ tips: { ...seen(), ...changes } });
}

/** Words of a tip for this deal, or null when it does not apply to it. */
function words(id, view, ctx) {
  const style = ctx.style;
  const lang = ctx.lang;
  if (id === "trump") {
    if (!view.trump_suit) return null;
    return t("tip.trump", { suit: suitName(view.trump_suit, lang, style) });
  }
  const points = ctx.cardPoints || {};
  if (id === "points") {
    const byRank = new Map();
    for (const [code, p] of Object.entries(points)) if (p > 0) byRank.set(code[0], p);
    if (!byRank.size) return null;
    const list = [...byRank].sort((a, b) => b[1] - a[1]).map(([r, p]) => `${rankName(r, lang, style)}: ${p}`);
    return t("tip.points", { list: list.join(", ") });
  }
  if (id === "target") {
    if (!view.sides || view.sides.length !== 2) return null;
    const total = Object.values(points).reduce((a, b) => a + b, 0);
    if (!total) return null;
    return t("tip.target", { n: Math.floor(total / 2) + 1, total });
  }
  if (id === "hint") return t("tip.hint");
  return null;
}

/** The person's turn: the latest undismissed tip whose moment has come (one left up gives way
 * to the next when that one's moment comes, and shows again in a later deal). */
export function atTurn(view, ctx) {
  if (ctx.humans !== 1 || (view.rules && view.rules.mode === "chiamata")) return hide();
  const done = seen();
  if (done.all) return hide();
  for (const tip of LATEST_FIRST) {
    if (done[tip.id] || view.tricks_done < tip.after) continue;
    const text = words(tip.id, view, ctx);
    if (!text) continue;
    return show(tip.id, text);
  }
  return hide();
}

/** A tip may still show in this deal: the felt keeps its room from the first frame (.tips-live). */
export function live(view, ctx) {
  if (ctx.humans !== 1 || (view.rules && view.rules.mode === "chiamata")) return false;
  const done = seen();
  return !done.all && TIPS.some((tip) => !done[tip.id] && words(tip.id, view, ctx) !== null);
}

/** The tip's place: on the felt, in its room (put back when the table is rebuilt). */
function place() {
  const felt = document.querySelector("#table > .felt");
  if (felt) {
    if (box.parentElement !== felt) felt.append(box);
  } else if (!box.isConnected) document.body.append(box);
}

function show(id, text) {
  if (!box) {
    box = h("aside", { id: "tip", class: "tip", attrs: { role: "note", "aria-labelledby": "tip-title" } });
    // the table's frame rebuilt under a tip that is up (a phone turned): back in its place
    const table = document.getElementById("table");
    if (table) new MutationObserver(() => { if (shown) place(); }).observe(table, { childList: true });
    // off the table (a dialog, the end of the deal, the hand-off screen): the tip goes
    new MutationObserver(() => {
      if (!["waiting", "busy"].includes(document.documentElement.dataset.ui)) hide();
    }).observe(document.documentElement, { attributes: true, attributeFilter: ["data-ui"] });
  }
  shown = id;
  place();
  clear(box).append(
    h("div", { class: "tip-words" },
      h("p", { id: "tip-title", class: "tip-title", text: t("tip.title") }),
      h("p", { class: "tip-text", text })),
    h("div", { class: "tip-buttons" },
      h("button", { class: "btn small", type: "button", id: "tip-none", text: t("tip.none"),
        on: { click: () => { remember({ all: true }); hide(); } } }),
      h("button", { class: "btn small primary", type: "button", id: "tip-ok", text: t("tip.ok"),
        on: { click: () => { remember({ [id]: true }); hide(); } } })));
  box.hidden = false;
  return id;
}

export function hide() {
  shown = null;
  if (box) box.hidden = true;
  return null;
}

/** The person asked for a hint: the tip makes way for it (the hint's own tip is learnt; the
 * others come back at a later turn). */
export function hintAsked() {
  if (shown === "hint") remember({ hint: true });
  return hide();
}

export function current() {
  return shown;
}

/** The Rules' entry: the tips can be seen again from the next turn on. */
export function rulesEntry(onShow) {
  const note = h("p", { class: "muted small", attrs: { role: "status" } });
  return h("section", { class: "tips-entry" },
    h("h3", { text: t("tip.rules.title") }),
    h("p", { text: t("tip.rules.text") }),
    h("button", { class: "btn", type: "button", id: "tips-again", text: t("tip.rules.again"),
      on: { click: () => { store.updatePrefs({ tips: {} }); note.textContent = t("tip.rules.done"); if (onShow) onShow(); } } }),
    note);
}
