// Prints, as JSON, what js/reasons.js makes of the reasons given on the command line (a JSON
// list of [lang, reason, style] triples) and the card names it should use. Read by
// tests/test_reason_words.py.
import { setLang } from "../../js/i18n.js";
import { cardName } from "../../js/cards.js";
import { reasonText } from "../../js/reasons.js";

const cases = JSON.parse(process.argv[2]);
const out = cases.map(([lang, reason, style]) => {
  setLang(lang);
  return reasonText(reason, { lang, style, names: ["You", "Carla"] });
});
const names = {};
for (const lang of ["en", "it"]) {
  names[lang] = {};
  for (const code of ["AD", "3C", "KS", "7B"]) names[lang][code] = cardName(code, lang, "napoletane");
}
console.log(JSON.stringify({ out, names }));
