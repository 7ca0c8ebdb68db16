// Prints, as JSON, every card of every style (both languages), the backs,
// the names and what happens with invalid codes. Read by tests/test_cards_svg.py.
import { LANGS, loadLang } from "../../js/i18n.js"; // the card names: the locale files
import * as cards from "../../js/cards.js";
import "../../js/decks.js"; // registers the regional decks beyond the first three

await Promise.all(LANGS.map(loadLang)); // a page holds its own language's words alone: every one here

const { cardSVG, backSVG, cardName, suitName, rankName, deckRanks, STYLES } = cards;
const SUITS = ["D", "C", "S", "B"];

function attempt(fn) {
  try {
    const value = fn();
    return { threw: false, value: String(value).slice(0, 80) };
  } catch (e) {
    return { threw: true, isError: e instanceof Error, message: String(e && e.message) };
  }
}

const out = {
  exports: Object.keys(cards).sort(),
  styles: STYLES,
  decks: {},
  backs: {},
  suitNames: {},
  rankNames: {},
  invalid: [],
};
for (const style of STYLES) {
  const ranks = deckRanks(style);
  const deck = [];
  for (const suit of SUITS) {
    for (const rank of ranks) {
      const code = rank + suit;
      deck.push({
        code,
        svg: cardSVG(code, style),
        svgEn: cardSVG(code, style, "en"),
        nameIt: cardName(code, "it", style),
        nameEn: cardName(code, "en", style),
      });
    }
  }
  out.decks[style] = deck;
  out.backs[style] = backSVG(style);
  out.suitNames[style] = Object.fromEntries(SUITS.map((s) => [s, [suitName(s, "it", style), suitName(s, "en", style)]]));
  out.rankNames[style] = Object.fromEntries(ranks.map((r) => [r, [rankName(r, "it", style), rankName(r, "en", style)]]));
}
const bad = [
  ["8S", "napoletane"], ["9D", "napoletane"], ["TC", "piacentine"],
  ["XD", "napoletane"], ["AX", "napoletane"], ["A", "napoletane"], ["ADD", "french"],
  ["", "french"], ["ad", "french"], [null, "napoletane"], ["AD", "tarocchi"],
];
for (const [code, style] of bad) {
  out.invalid.push({ code, style, fn: "cardSVG", ...attempt(() => cardSVG(code, style)) });
  out.invalid.push({ code, style, fn: "cardName", ...attempt(() => cardName(code, "it", style)) });
}
out.invalid.push({ code: null, style: "tarocchi", fn: "backSVG", ...attempt(() => backSVG("tarocchi")) });
process.stdout.write(JSON.stringify(out));
