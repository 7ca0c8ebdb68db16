// The card tracker: an optional aid (off by default, a setting) beside the table that shows
// what the seat has not seen yet, suit by suit, with the points and trumps still out and the
// talon's size. Everything comes from the engine's `tracker {seat}`, which answers from that
// seat's view only: the page never counts cards itself.

import { h, clear } from "./dom.js";
import { t } from "./i18n.js";
import { cardName, suitName, printedIndex } from "./cards.js";

const SUIT_ORDER = ["D", "C", "S", "B"];

/**
 * Draw the tracker `data` ({unseen, points_out, trumps_out, talon}) into `box`.
 * ctx: {lang, style, trump (suit or null), order (ranks strongest first), cardPoints, talon (false:
 *   the variant has none)}
 */
export function renderTracker(box, data, ctx) {
  clear(box);
  box.append(h("h2", { class: "tr-title", text: t("tracker.title") }));
  const grid = h("div", { class: "tr-suits" });
  const unseen = (data && data.unseen) || {};
  const rankIndex = (code) => {
    const i = ctx.order ? ctx.order.indexOf(code[0]) : -1;
    return i < 0 ? 99 : i;
  };
  for (const suit of SUIT_ORDER) {
    const cards = [...(unseen[suit] || [])].sort((a, b) => rankIndex(a) - rankIndex(b));
    const names = cards.map((c) => safeName(c, ctx));
    const row = h("div", {
      class: `tr-suit${suit === ctx.trump ? " trump" : ""}`, data: { suit },
    });
    row.append(h("span", { class: "tr-name", attrs: { "aria-hidden": "true" } },
      h("span", { class: `suit-glyph suit-${suit}` }), ` ${suitName(suit, ctx.lang, ctx.style)}`));
    const marks = h("span", { class: "tr-ranks", attrs: { "aria-hidden": "true" } });
    // the face-up trump under the talon: seen by all, still to be drawn: one of the trumps out
    const up = suit === ctx.trump ? ((data && data.trumps_out) || []).filter((c) => c[1] === suit && !cards.includes(c)) : [];
    if (!cards.length && !up.length) marks.append(h("span", { class: "tr-none", text: "–" }));
    // each card by what its corner prints (1–10 on the Italian decks), its name as the title
    const mark = (c, cls, title) => {
      const pts = ctx.cardPoints ? ctx.cardPoints[c] || 0 : 0;
      marks.append(h("span", { class: `${cls}${pts ? " counts" : ""}`, data: { card: c }, title,
        text: printedIndex(c[0], ctx.style) }));
    };
    cards.forEach((c, i) => mark(c, "tr-card", names[i]));
    for (const c of up) names.push(`${safeName(c, ctx)} (${t("tracker.faceup")})`);
    up.forEach((c, i) => mark(c, "tr-up", names[cards.length + i]));
    row.setAttribute("aria-label", `${suitName(suit, ctx.lang, ctx.style)}: ${names.join(", ") || t("tracker.none")}`);
    row.append(marks);
    grid.append(row);
  }
  box.append(grid);
  const trumps = (data && data.trumps_out) || [];
  box.append(h("p", { class: "tr-facts" },
    h("span", { class: "tr-points", text: t("tracker.points", { n: data ? data.points_out : 0 }) }),
    // no trump yet (Chiamata's auction), no talon at all (Chiamata): nothing to count
    ctx.trump ? h("span", { class: "tr-trumps", text: t("tracker.trumps", { n: trumps.length }) }) : null,
    ctx.talon === false ? null : h("span", { class: "tr-talon", text: t("tracker.talon", { n: data ? data.talon : 0 }) })));
}

function safeName(code, ctx) {
  try {
    return cardName(code, ctx.lang, ctx.style);
  } catch {
    return code;
  }
}
