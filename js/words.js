// The machinery of the interface's words: the current language, t() with its counts, the
// static texts of a page. The words themselves are registered by whoever loads them:
// js/i18n.js registers every language's whole file (the game's pages); the embed's poster
// registers only its own few words (js/poster-words.js), so a blog's reader downloads no more.
//
//   t("key", {name: "Anna"})  -> the text in the current language, {name} filled in
//   a sentence with a count says it in both numbers: "{n, plural, one {# card} other {# cards}}"
//   (plurals(), below); every sentence that holds a count is written so, in every language
//   (tests/test_reason_words.py renders them all with 0, 1, 2 and 1.5)
//   setLang("en"), getLang(), onLangChange(fn); langName("hr") -> "Hrvatski" (a language's
//   name in itself), locale() -> "hr-HR" (how Intl writes its numbers and dates)
//   applyStatic(root): fills [data-i18n] (text), [data-i18n-aria] (aria-label),
//                      [data-i18n-title] (title) below root
//
// Missing keys fall back to English, then to the key itself, so nothing is ever blank.

/** @type {Record<string, Record<string, string>>} every registered language's words */
const TEXT = {};

/** The languages registered, by code (filled by addWords: the same array throughout). */
export const LANGS = [];

/** Register words: {lang: {key: text}}; a language's words add to those it had. */
export function addWords(tables) {
  for (const [lang, words] of Object.entries(tables)) {
    if (!(lang in TEXT)) {
      TEXT[lang] = {};
      LANGS.push(lang);
    }
    Object.assign(TEXT[lang], words);
  }
  LANGS.sort();
}

let current = "it";
const listeners = [];

/** The registered language a language tag names ("hr-HR" -> "hr"), or null. */
function known(tag) {
  const base = String(tag || "").toLowerCase().split(/[-_]/)[0];
  return LANGS.includes(base) ? base : null;
}

/** The first of the browser's languages (navigator.languages, in the person's order) that the
 * page speaks; English when it speaks none of them, Italian with no browser to ask. */
export function detectLang() {
  if (typeof navigator === "undefined") return "it";
  const wanted = [...(navigator.languages || []), navigator.language].filter(Boolean);
  for (const tag of wanted) {
    const lang = known(tag);
    if (lang) return lang;
  }
  return wanted.length ? "en" : "it";
}

/** A language's name in itself ("Slovenščina"), from its file. */
export function langName(lang) {
  return (TEXT[lang] || {})["lang.name"] || lang;
}

/** The Intl locale of a language (the current one by default): "it-IT", "en-GB", "hr-HR". */
export function locale(lang = current) {
  return (TEXT[lang] || {})["lang.locale"] || lang;
}

/** The words of `key` in `lang` (any tag of a registered language, else English) as written,
 * nothing filled in; undefined when neither has the key. For the card names (js/cards.js). */
export function wordIn(lang, key) {
  const l = known(lang) || "en";
  const s = (TEXT[l] || {})[key];
  return s === undefined ? (TEXT.en || {})[key] : s;
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
  return key in (TEXT[current] || {}) || key in (TEXT.en || {});
}

export function t(key, vars) {
  let s = (TEXT[current] || {})[key];
  if (s === undefined) s = (TEXT.en || {})[key];
  if (s === undefined) s = key;
  if (vars) {
    s = plurals(s, vars, current);
    s = s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
  }
  return s;
}

// Counts: "{n, plural, one {# card} other {# cards}}" picks the form the language's rules
// (Intl.PluralRules) give for the number n ("=0 {…}" matches exactly 0), "#" writes n as
// given. n may come as a number or as the text the page wrote it in ("1,5" in Italian). A
// count left out keeps a "{n}" in the sentence, so the caller sees it unfilled.
const RULES = {};
function category(value, lang) {
  // a loss comes signed ("−3,2"): its size counts
  const x = Math.abs(typeof value === "number" ? value
    : Number(String(value).replace(/\s/g, "").replace(/^[−-]/, "").replace(",", ".")));
  if (!Number.isFinite(x)) return { x, cat: "other" };
  if (!(lang in RULES)) {
    try { RULES[lang] = new Intl.PluralRules(locale(lang)); } catch { RULES[lang] = null; }
  }
  const rules = RULES[lang];
  // "1,0" or "1.0" is written with a fraction: the plural in both languages
  const fraction = typeof value === "string" && /[.,]\d/.test(value);
  const cat = rules ? rules.select(fraction && Number.isInteger(x) ? x + 0.5 : x) : (x === 1 && !fraction ? "one" : "other");
  return { x, cat };
}

export function plurals(s, vars, lang = current) {
  const open = /\{(\w+),\s*plural,/g;
  let out = "";
  let from = 0;
  let m;
  while ((m = open.exec(s)) !== null) {
    // the forms, each "selector {text}", up to the brace that closes the count
    let i = m.index + m[0].length;
    const forms = {};
    for (;;) {
      while (i < s.length && /\s/.test(s[i])) i++;
      if (s[i] === "}" || i >= s.length) break;
      const sel = /^(=\d+|zero|one|two|few|many|other)\s*\{/.exec(s.slice(i));
      if (!sel) { i = s.length; break; }
      let depth = 1;
      let j = i + sel[0].length;
      const start = j;
      for (; j < s.length && depth; j++) {
        if (s[j] === "{") depth++;
        else if (s[j] === "}") depth--;
      }
      forms[sel[1]] = s.slice(start, j - 1);
      i = j;
    }
    if (i >= s.length || !("other" in forms)) break; // not a well-formed count: left as it is
    const name = m[1];
    let text;
    if (!(name in vars)) text = `{${name}}`;
    else {
      const { x, cat } = category(vars[name], lang);
      text = (forms[`=${x}`] ?? forms[cat] ?? forms.other).replace(/#/g, String(vars[name]));
    }
    out += s.slice(from, m.index) + text;
    from = i + 1;
    open.lastIndex = from;
  }
  return out + s.slice(from);
}

/** The keys that start with `prefix`, as English has them (every language has the same). */
export function keysOf(prefix) {
  return Object.keys(TEXT.en || TEXT[current] || {}).filter((k) => k.startsWith(prefix));
}

/** Translate `key` if known, else return `fallback` (e.g. the engine's English text). */
export function tOr(key, fallback, vars) {
  return has(key) ? t(key, vars) : fallback;
}

/** A number as the current language writes it: 17,0 in Italian, 17.0 in English. */
export function formatNumber(x, digits = 0) {
  try {
    return new Intl.NumberFormat(locale(), { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
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
