// The interface's words, in every language of js/locales/.
//
//   t("key", {name: "Anna"})  -> the text in the current language, {name} filled in
//   setLang("en"), getLang(), onLangChange(fn)
//   applyStatic(root): fills [data-i18n] (text), [data-i18n-aria] (aria-label),
//                      [data-i18n-title] (title) below root
//
// Missing keys fall back to English, then to the key itself, so nothing is ever blank.

import it from "./locales/it.js";
import en from "./locales/en.js";

// One file a language in js/locales/: adding a language is adding its file and its line here.
const TEXT = { it, en };

export const LANGS = Object.keys(TEXT);

let current = "it";
const listeners = [];

export function detectLang() {
  const nav = (typeof navigator !== "undefined" && navigator.language) || "it";
  return nav.toLowerCase().startsWith("it") ? "it" : "en";
}

export function getLang() {
  return current;
}

export function setLang(lang) {
  const next = LANGS.includes(lang) ? lang : "it";
  const changed = next !== current;
  current = next;
  if (typeof document !== "undefined") document.documentElement.lang = current;
  if (changed) for (const fn of listeners) fn(current);
  return current;
}

export function onLangChange(fn) {
  listeners.push(fn);
}

export function has(key) {
  return key in TEXT[current] || key in TEXT.en;
}

export function t(key, vars) {
  let s = TEXT[current][key];
  if (s === undefined) s = TEXT.en[key];
  if (s === undefined) s = key;
  if (vars) {
    s = s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
    if (Object.values(vars).some((v) => v === 1 || v === "1")) s = singular(s);
  }
  return s;
}

// "1 points" -> "1 point": the language's pairs (key "grammar.one", "from=to|…", each with
// the number 1), applied where a 1 filled a sentence written for many.
const ONE = {};
function singular(s) {
  if (!(current in ONE)) {
    const pairs = (TEXT[current]["grammar.one"] || "").split("|").filter((p) => p.includes("="));
    ONE[current] = pairs.map((p) => {
      const [from, to] = p.split("=");
      const re = from.replace(/[.*+?^${}()[\]\\]/g, "\\$&").replace("1", "(?<![\\d.,])1(?!\\d|[.,]\\d)");
      return [new RegExp(re, "g"), to];
    });
  }
  for (const [re, to] of ONE[current]) s = s.replace(re, to);
  return s;
}

/** Translate `key` if known, else return `fallback` (e.g. the engine's English text). */
export function tOr(key, fallback, vars) {
  return has(key) ? t(key, vars) : fallback;
}

/** A number as the current language writes it: 17,0 in Italian, 17.0 in English. */
export function formatNumber(x, digits = 0) {
  try {
    return new Intl.NumberFormat(current, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
  } catch {
    return Number(x).toFixed(digits);
  }
}

export function applyStatic(root) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-aria]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nAria));
  }
  for (const el of root.querySelectorAll("[data-i18n-title]")) el.title = t(el.dataset.i18nTitle);
}
