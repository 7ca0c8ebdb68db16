// Names that match the cards: the Napoletane and Piacentine faces print 1–10, while the table,
// the hints, the rules and the auction say Ace, Jack, Horse, King. This module shows the
// mapping where a player meets it: in the Rules (pictures of the chosen deck) and in the
// Chiamata auction panel (one line, with what a bid means).

import { h } from "./dom.js";
import { t } from "./i18n.js";
import { rankWord, printedIndex } from "./cards.js";
import { cardFace } from "./table.js";

// The ace and the figures: what they print is not their name's word.
const PRINTED = ["A", "J", "H", "K"];

/** True when the deck prints numbers instead of letters on its figures. */
export function printsNumbers(style) {
  return style !== "french";
}

/** "1 = Ace, 8 = Jack, 9 = Horse, 10 = King" in the page's language. */
export function mappingText(lang, style) {
  return PRINTED.map((r) => `${printedIndex(r, style)} = ${rankWord(r, lang, style)}`).join(", ");
}

/** The Rules' figure: the ace and the three figures of the chosen deck with their names. */
export function cardNamesFigure(style, lang) {
  const italian = printsNumbers(style);
  const row = h("div", { class: "names-row" });
  for (const r of PRINTED) {
    row.append(h("figure", { class: "names-card" },
      h("div", { class: "slot" }, cardFace(`${r}D`, style, lang, "nm")),
      h("figcaption", {}, h("b", { text: printedIndex(r, style) }), " = ", rankWord(r, lang, style))));
  }
  return h("section", { class: "card-names", attrs: { "aria-label": t("names.title") } },
    h("h3", { text: t("names.title") }),
    h("p", { text: italian ? t("names.numbers", { map: mappingText(lang, style) }) : t("names.letters") }),
    row);
}

/** The number an Italian deck prints on a rank ("10" on the King), or null. */
export function printedNumber(rank, style) {
  if (!printsNumbers(style) || !PRINTED.includes(rank)) return null;
  return printedIndex(rank, style);
}

/**
 * The auction panel's line: what a bid means, and what the printed numbers are called
 * (small screens keep the first part; the rank buttons carry the numbers too).
 */
export function auctionNamesLine(lang, style) {
  const line = h("p", { class: "auc-names" }, h("span", { class: "bid-means", text: t("names.auction.bid") }));
  if (printsNumbers(style)) line.append(" ", h("span", { class: "map", text: t("names.auction.map", { map: mappingText(lang, style) }) }));
  return line;
}

/** A game-point count with its sign ("+2", "−1", "0"): Chiamata's scores. */
export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}
