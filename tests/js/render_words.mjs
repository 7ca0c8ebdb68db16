// Renders every sentence of every language (js/locales/index.js) with the counts 0, 1, 2, 3, 5
// and 21 in each of its placeholders, and names every card of every deck style in every
// language; prints, as JSON, what went wrong (nothing, when all is well) and a few renderings
// for the test to look at. Read by tests/test_locales.py.
import { LANGS, keysOf, loadLang, locale, setLang, t } from "../../js/i18n.js";
import { STYLES, cardName, suitName, rankWord, deckRanks } from "../../js/cards.js";
import "../../js/decks.js"; // the regional decks: registered with js/cards.js
import * as LOCALES from "../../js/locales/index.js";

await Promise.all(LANGS.map(loadLang)); // a page holds its own language's words alone: every one here

const COUNTS = [0, 1, 2, 3, 5, 21];
const PLACEHOLDER = /\{(\w+)[,}]/g;
const COUNT = /\{(\w+),\s*plural,/g;
const problems = [];
const samples = {};

/** The plural categories a language's counts fall in (Intl.PluralRules, whole and half numbers). */
function categories(lang) {
  const rules = new Intl.PluralRules(locale(lang));
  const out = new Set();
  for (let i = 0; i <= 200; i++) out.add(rules.select(i)).add(rules.select(i + 0.5));
  return out;
}

for (const lang of LANGS) {
  setLang(lang);
  const raw = LOCALES[lang];
  const needed = categories(lang);
  samples[lang] = {};
  for (const key of keysOf("")) {
    const text = raw[key];
    if (text === undefined) { problems.push([lang, key, "missing"]); continue; }
    // each count has a form for every category the language's numbers fall in (a count that
    // only picks exact numbers, "=80 {l'80 %} other {il # %}", is a choice of words, not a plural)
    for (const m of text.matchAll(COUNT)) {
      const body = text.slice(m.index + m[0].length);
      const forms = new Set([...body.matchAll(/(?:^|\})\s*(zero|one|two|few|many|other)\s*\{/g)].map((f) => f[1]));
      if (forms.size <= 1) continue;
      const missing = [...needed].filter((c) => !forms.has(c));
      if (missing.length) problems.push([lang, key, `the count {${m[1]}} has no form ${missing.join(", ")}`]);
    }
    const names = [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1]))];
    for (const n of COUNTS) {
      const vars = Object.fromEntries(names.map((name) => [name, n]));
      let out;
      try {
        out = t(key, vars);
      } catch (e) {
        problems.push([lang, key, `threw with ${n}: ${e.message}`]);
        continue;
      }
      if (/\{\w+[,}]|\{|\}/.test(out) || (/#/.test(out) && !/#/.test(raw[key].replace(/\{[^{}]*#[^{}]*\}/g, "")))) {
        problems.push([lang, key, `left with ${n}: ${out}`]);
      }
      if (names.length) (samples[lang][key] ||= []).push(out);
    }
  }
  for (const style of STYLES) {
    const ranks = deckRanks(style).join("");
    for (const suit of "DCSB") {
      try {
        suitName(suit, lang, style);
        for (const rank of ranks) {
          rankWord(rank, lang, style);
          const name = cardName(rank + suit, lang, style);
          if (/[{}]/.test(name)) problems.push([lang, `${rank}${suit} ${style}`, `card name ${name}`]);
          (samples[lang].cards ||= []).push(name);
        }
      } catch (e) {
        problems.push([lang, `${suit} ${style}`, `card names threw: ${e.message}`]);
      }
    }
  }
}
console.log(JSON.stringify({ langs: LANGS, problems, samples }));
