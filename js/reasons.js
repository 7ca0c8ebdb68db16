// Reasons as data, worded by the page: the engine's hints, the computer players' reasons and
// the review's comments travel as {code, params} and become one sentence here, in the page's
// language, from the key `reason.<code>` of js/locales/*.js.
//
//   reasonText({code: "lead_low", params: {card: "4C", points: 11}}, {style, names})
//
// Parameters are worded before they fill the sentence: a card code ("AD") becomes the card's
// name in the page's language and deck style, a list of cards a list of names, a suit ("D")
// under a key that says suit its name, a rank ("A") under a key that says rank its name,
// a seat number under a key that says seat/partner/opponent that player's name, a number
// with at most one decimal in the language's way. A code the page does not know, or a
// sentence whose placeholders are not all filled, gives a generic sentence (never raw data).
// A reason may carry a `context` (another {code, params}: in Chiamata, what the seat knows
// of the sides), said before it, and a `then` (another {code, params}: the points a card
// given away puts on the trick), said after it.
// Plain text (an older engine's reason) is shown as it is.

import { t, has, getLang, locale } from "./i18n.js";
import { cardName, suitName, rankName } from "./cards.js";

const CARD = /^[A2-9TJHK][DCSB]$/;
const FALLBACK = "coach.reason.unknown";

function number(value, lang) {
  if (Number.isInteger(value)) return String(value);
  // as precise as the engine sent it, to two decimals (card points come with one; game
  // points, a Chiamata bid's, with two)
  return value.toLocaleString(locale(lang), { maximumFractionDigits: 2 });
}

/** One parameter as words. */
export function paramWords(key, value, ctx = {}) {
  const lang = ctx.lang || getLang();
  const style = ctx.style || "napoletane";
  const k = key.toLowerCase();
  try {
    if (Array.isArray(value)) return value.map((v) => paramWords(key, v, ctx)).join(", ");
    if (typeof value === "number") {
      if (ctx.names && Number.isInteger(value) && /seat|partner|opponent|player|winner/.test(k)
        && value >= 0 && value < ctx.names.length) return ctx.names[value];
      return number(value, lang);
    }
    if (typeof value === "string") {
      if (CARD.test(value)) return cardName(value, lang, style);
      if (/suit|trump/.test(k) && /^[DCSB]$/.test(value)) return suitName(value, lang, style);
      if (/rank/.test(k) && /^[A2-9TJHK]$/.test(value)) return rankName(value, lang, style);
      return value;
    }
  } catch {
    // a card of another deck, a suit unknown to the style: the code itself, never an error
  }
  return value === null || value === undefined ? "" : String(value);
}

/** The sentence for a reason `{code, params}` (or plain text), in the page's language. */
export function reasonText(reason, ctx = {}) {
  if (reason === null || reason === undefined || reason === "") return "";
  if (typeof reason === "string") return reason;
  if (typeof reason !== "object" || typeof reason.code !== "string") return t(FALLBACK);
  const key = `reason.${reason.code}`;
  if (!has(key)) return t(FALLBACK);
  const raw = reason.params && typeof reason.params === "object" ? reason.params : {};
  const words = {};
  for (const [k, v] of Object.entries(raw)) words[k] = paramWords(k, v, ctx);
  const text = t(key, words);
  if (/\{\w+\}/.test(text)) return t(FALLBACK);
  let out = text;
  const then = reason.then; // a line said after (the points a card given away puts on the trick)
  if (then && typeof then === "object" && typeof then.code === "string" && has(`reason.${then.code}`)) {
    const after = reasonText({ code: then.code, params: then.params, then: then.then }, ctx);
    if (after !== t(FALLBACK)) out = `${out} ${after}`;
  }
  const ctx2 = reason.context;
  if (ctx2 && typeof ctx2 === "object" && typeof ctx2.code === "string" && has(`reason.${ctx2.code}`)) {
    const before = reasonText({ code: ctx2.code, params: ctx2.params, then: ctx2.then }, ctx);
    if (before !== t(FALLBACK)) return `${before} ${out}`;
  }
  return out;
}
