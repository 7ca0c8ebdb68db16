// The embed's poster's words (js/poster.js): the few keys it shows, in every language, taken
// from the locale files. As written here it loads the whole files and picks the keys; the
// build writes this module as the picked words alone (tools/build/site.py, poster_words), so
// the poster sends a blog's reader only these (its budget: 50 KB before Play).
import it from "./locales/it.js";
import en from "./locales/en.js";

export const POSTER_KEYS = ["app.title", "app.tagline", "poster.line", "poster.play", "poster.opening"];

/** @param {Record<string, string>} words */
const pick = (words) => Object.fromEntries(POSTER_KEYS.map((k) => [k, words[k]]));

export default { it: pick(it), en: pick(en) };
