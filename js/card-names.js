//# allFunctionsCalledOnLoad
// The names of the cards, for every deck and language (the art is js/cards.js's, which gives
// these with its own to every module that imports it):
//
//   cardName(code, lang = "it", style = "napoletane") -> "Asso di Denari"
//   suitName(suit, lang, style), rankName(rank, lang, style), rankWord(rank, lang, style)
//   printedIndex(rank, style)                          -> "10" on the Re of an Italian deck
//   deckRanks(style), deckStyle(deck), STYLES
//   parseCode(code, style), checkStyle(style), backName(lang), registerDeck(name, art),
//   REGISTERED                                         -> for js/cards.js
//
// A deck drawn in js/decks.js registers with js/cards.js (registerStyle), which records it here:
// a deck's ranks (the Spanish deck's 8s and 9s) and what its corner prints are part of its names.
// This module imports no art: js/cards.js imports it, never the other way round.

import { wordIn } from "./words.js";

export const STYLES = ["napoletane", "piacentine", "siciliane", "trevisane", "triestine", "bergamasche",
  "spagnole", "french"];

// The styles js/cards.js draws itself; the others are drawn by js/decks.js when it is loaded.
const DRAWN_BY_CARDS = ["napoletane", "piacentine", "french"];

// The decks drawn in another module (js/decks.js), by name: {pal, look, ranks, index, suit,
// indexStick, ace, pips, court, over, back}; each part the deck does not give is drawn as the
// Piacentine's (or the Napoletane's, with look "napoletane"). Their names are the locale files'
// (card.rank.<style>.<rank>, card.suit.<style>.<suit>, looked up before the family's).
// Filled by registerDeck only; js/cards.js reads a deck's art from it.
export const REGISTERED = {};

/** Record one of STYLES drawn in another module (js/cards.js's registerStyle, for js/decks.js). */
export function registerDeck(name, art) {
  if (!STYLES.includes(name) || name === "french") throw new Error(`Unknown card style "${name}"`);
  REGISTERED[name] = art;
}

const ITALIAN_RANKS = ["A", "2", "3", "4", "5", "6", "7", "J", "H", "K"];
const FRENCH_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "H", "K"];
const SUITS = ["D", "C", "S", "B"];

// The names are each language's words (js/locales/<lang>.js, keys "card.*"): a deck's own
// word where its language has one ("card.rank.french.H", the Queen), else its family's
// (Italian-suited or French-suited), else the plain one.
const family = (style) => (style === "french" ? "french" : "italian");

function word(lang, ...keys) {
  for (const key of keys) {
    const w = wordIn(lang, key);
    if (w !== undefined) return w;
  }
  throw new Error(`No words for ${keys[keys.length - 1]}: the locale files (js/i18n.js) are not loaded`);
}

/** Whether `style` can be drawn now: one of STYLES that js/cards.js draws, or one that js/decks.js
 * (imported when first needed: js/later.js) registered. */
export function drawn(style) {
  return STYLES.includes(style) && (DRAWN_BY_CARDS.includes(style) || Object.hasOwn(REGISTERED, style));
}

/** The style itself, or an error: a style unknown, or drawn by js/decks.js not loaded. */
export function checkStyle(style) {
  if (!STYLES.includes(style)) {
    throw new Error(`Unknown card style "${style}" (expected one of ${STYLES.join(", ")})`);
  }
  if (!DRAWN_BY_CARDS.includes(style) && !REGISTERED[style]) {
    throw new Error(`The ${style} deck is drawn by js/decks.js, which is not loaded`);
  }
  return style;
}

export function parseCode(code, style) {
  checkStyle(style);
  if (typeof code !== "string" || code.length !== 2) {
    throw new Error(`Unknown card code "${code}": expected two characters, rank then suit`);
  }
  const rank = code[0];
  const suit = code[1];
  if (!FRENCH_RANKS.includes(rank) || !SUITS.includes(suit)) {
    throw new Error(`Unknown card code "${code}": rank must be one of ${FRENCH_RANKS.join(" ")}, suit one of ${SUITS.join(" ")}`);
  }
  if (!deckRanks(style).includes(rank)) {
    throw new Error(`${code} does not exist in the ${style} deck`);
  }
  return { rank, suit };
}

/** The ranks a style draws: 40 Italian cards, 52 French, the Spanish deck's 48 (its 8s and 9s). */
export function deckRanks(style) {
  checkStyle(style);
  if (style === "french") return FRENCH_RANKS;
  return (REGISTERED[style] && REGISTERED[style].ranks) || ITALIAN_RANKS;
}

/** The style a deck is drawn in whatever the person chose (null: the Italian 40, any style):
 * the French decks in French, the 48-card Spanish deck (its 8s and 9s) in the Spanish style. */
export function deckStyle(deck) {
  if (!deck || deck === "italian") return null;
  return deck === "spanish48" ? "spagnole" : "french";
}

/** The rank's word alone ("Re", "Queen"): for a legend that pairs it with the printed index. */
export function rankWord(rank, lang = "it", style = "napoletane") {
  checkStyle(style);
  if (!FRENCH_RANKS.includes(rank)) throw new Error(`Unknown card rank "${rank}"`);
  return word(lang, `card.rank.${style}.${rank}`, `card.rank.${family(style)}.${rank}`, `card.rank.${rank}`);
}

/** The rank's name as a player finds it on the card ("Re (10)", "Fante (J)", "Jack"). */
export function rankName(rank, lang = "it", style = "napoletane") {
  const word = rankWord(rank, lang, style);
  if (!"JHK".includes(rank)) return word;
  const printed = printedIndex(rank, style);
  return word.startsWith(printed) ? word : `${word} (${printed})`;
}

/** What a card's corner prints: 1–10 (Italian decks), A 2–10 J Q K (French). */
export function printedIndex(rank, style = "napoletane") {
  checkStyle(style);
  if (!FRENCH_RANKS.includes(rank)) throw new Error(`Unknown card rank "${rank}"`);
  return indexLabel(style, rank);
}

export function suitName(suit, lang = "it", style = "napoletane") {
  checkStyle(style);
  if (!SUITS.includes(suit)) throw new Error(`Unknown card suit "${suit}"`);
  return word(lang, `card.suit.${style}.${suit}`, `card.suit.${family(style)}.${suit}`);
}

export function cardName(code, lang = "it", style = "napoletane") {
  const { rank, suit } = parseCode(code, style);
  // the suit as it stands in a card's name ("card.of.*": Croatian's genitive, "špada")
  const of = word(lang, `card.of.${style}.${suit}`, `card.of.${family(style)}.${suit}`);
  return word(lang, "card.name").replace("{rank}", rankName(rank, lang, style)).replace("{suit}", of);
}

// What a card's corner prints, by style: a registered deck says its own.
function indexLabel(style, rank) {
  if (style === "french") return { A: "A", T: "10", J: "J", H: "Q", K: "K" }[rank] || rank;
  if (REGISTERED[style] && REGISTERED[style].index) return REGISTERED[style].index[rank] || rank;
  return { A: "1", J: "8", H: "9", K: "10" }[rank] || rank;
}

/** The name of a card's back ("the back of a card"), for its picture's label. */
export function backName(lang = "it") {
  return word(lang, "card.back");
}
