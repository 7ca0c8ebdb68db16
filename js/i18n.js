// The interface's words, registered with js/words.js (the machinery: t(), setLang(),
// applyStatic(), ...), which this module passes on, so the game's pages import everything
// from here. See js/words.js and docs/languages.md.
//
// A page holds every language's name (js/lang-names.js: the menus list them all), English's
// words (the fallback, always there) and the words of the language it starts in, fetched
// before the page's modules run (this module waits for them). Another language's file is
// fetched when a person picks it (loadLang(), js/lang-files.js); setLang() switches only to a
// language whose words are in, so the page never shows half of one.

import { LANGS, addWords, applyStatic, detectLang, formatNumber, getLang, has, keysOf, langName, locale, onLangChange, plurals, setLang as showLang, t, tOr } from "./words.js";
import NAMES from "./lang-names.js";
import en from "./locales/en.js";
import { importWords, keepOffline } from "./lang-files.js";
import { loadPrefs } from "./storage.js";

export { LANGS, addWords, applyStatic, detectLang, formatNumber, getLang, has, keysOf, langName, locale, onLangChange, plurals, t, tOr };

addWords(NAMES);
addWords({ en });

/** The languages whose whole words are in. */
const loaded = new Set(["en"]);
/** A language's load under way (or done), by code; a failed one is forgotten (tried again). */
const loading = new Map();

/** Whether the words of `lang` are in (setLang() shows it at once). */
export function isLoaded(lang) {
  return loaded.has(lang);
}

/** The words of `lang` fetched and registered: resolves once they are in, rejects when the
 * language is not one of the page's or its file cannot be fetched (offline, never kept). */
export function loadLang(lang) {
  if (loaded.has(lang)) return Promise.resolve();
  if (!LANGS.includes(lang)) return Promise.reject(new Error(`no language "${lang}"`));
  let load = loading.get(lang);
  if (!load) {
    load = importWords(lang).then((words) => {
      addWords({ [lang]: words });
      loaded.add(lang);
    });
    loading.set(lang, load);
    load.catch(() => loading.delete(lang));
  }
  return load;
}

/** The page's language, where its words are in; else it stays in the one it shows (English
 * before any). Returns the language shown. */
export function setLang(lang) {
  return showLang(loaded.has(lang) ? lang : loaded.has(getLang()) ? getLang() : "en");
}

/** The language a page starts in, as js/app.js reads it: the link's (?lang=, js/embed.js), else
 * the one kept in the settings, else the first of the browser's that the page speaks. */
function startLang() {
  const linked = typeof location === "undefined" ? null : new URLSearchParams(location.search).get("lang");
  const kept = loadPrefs().lang;
  return [linked && linked.trim(), kept].find((l) => LANGS.includes(l)) || detectLang();
}

const start = startLang();
try {
  await loadLang(start);
} catch (err) {
  // offline, its file never kept: the page starts in English and says so (js/app.js)
  console.warn(`the words of "${start}" could not be fetched:`, err && err.message ? err.message : err);
}
setLang(start);
keepOffline(() => loaded);
