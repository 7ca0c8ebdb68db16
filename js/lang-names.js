// Every language's name in itself and its locale (the keys NAME_KEYS), for the menus that list
// them all and for js/i18n.js to know which languages there are before it has their words. As
// written here it loads the whole files (js/locales/index.js) and picks the keys; the build
// writes this module as the picked words alone (tools/build/site.py, picked_words), so that a
// page downloads only its own language's file (and English's, the fallback).
import * as LOCALES from "./locales/index.js";

export const NAME_KEYS = ["lang.name", "lang.locale"];
export const NAME_PREFIXES = [];

/** @param {Record<string, string>} words */
const pick = (words) => Object.fromEntries(Object.entries(words)
  .filter(([k]) => NAME_KEYS.includes(k) || NAME_PREFIXES.some((p) => k.startsWith(p))));

export default Object.fromEntries(Object.entries(LOCALES).map(([lang, words]) => [lang, pick(words)]));
