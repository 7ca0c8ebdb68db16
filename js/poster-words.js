// The embed's poster's words (js/poster.js): the few keys it shows and the card names its
// pictures carry, in every language, taken from the locale files. As written here it loads
// the whole files (js/locales/index.js) and picks the keys; the build writes this module as
// the picked words alone (tools/build/site.py, poster_words), so the poster sends a blog's
// reader only these (its budget: 50 KB before Play).
import * as LOCALES from "./locales/index.js";

export const POSTER_KEYS = ["app.title", "app.tagline", "poster.line", "poster.play", "poster.opening", "lang.locale"];
/** Every key that starts so: the card names (js/cards.js). */
export const POSTER_PREFIXES = ["card."];

/** @param {Record<string, string>} words */
const pick = (words) => Object.fromEntries(Object.entries(words)
  .filter(([k]) => POSTER_KEYS.includes(k) || POSTER_PREFIXES.some((p) => k.startsWith(p))));

export default Object.fromEntries(Object.entries(LOCALES).map(([lang, words]) => [lang, pick(words)]));
