// Prints, as JSON, what js/reasons.js makes of the reasons given on standard input (a JSON
// list of [lang, reason, style] triples) and the card names it should use; a triple whose
// second item is {key, vars} is a locale key filled by t() instead. Read by
// tests/test_reason_words.py.
import { readFileSync } from "node:fs";
import { LANGS, loadLang, setLang, t } from "../../js/i18n.js";
import { cardName } from "../../js/cards.js";
import { reasonText } from "../../js/reasons.js";

await Promise.all(LANGS.map(loadLang)); // a page holds its own language's words alone: every one here

const cases = JSON.parse(readFileSync(0, "utf-8"));
const out = cases.map(([lang, reason, style]) => {
  setLang(lang);
  if (reason && typeof reason === "object" && typeof reason.key === "string") return t(reason.key, reason.vars);
  return reasonText(reason, { lang, style, names: ["You", "Carla"] });
});
const names = {};
for (const lang of ["en", "it"]) {
  names[lang] = {};
  for (const code of ["AD", "3C", "KS", "7B"]) names[lang][code] = cardName(code, lang, "napoletane");
}
console.log(JSON.stringify({ out, names }));
