// Writes an HTML gallery of every card of every style, plus the backs.
// Usage: node tests/js/cards_gallery.mjs OUT.html [card width in px] [style ...]
import { writeFileSync } from "node:fs";
import { LANGS, loadLang } from "../../js/i18n.js"; // the card names: the locale files
import { cardSVG, backSVG, cardName, deckRanks, STYLES } from "../../js/cards.js";
import "../../js/decks.js";

await Promise.all(LANGS.map(loadLang)); // a page holds its own language's words alone: every one here

const out = process.argv[2];
if (!out) {
  console.error("usage: node tests/js/cards_gallery.mjs OUT.html [width] [style ...]");
  process.exit(2);
}
const width = Number(process.argv[3]) || 120;
const styles = process.argv.length > 4 ? process.argv.slice(4) : STYLES;

let body = "";
for (const style of styles) {
  body += `<h2>${style}</h2>`;
  const ranks = deckRanks(style);
  for (const suit of ["D", "C", "S", "B"]) {
    body += `<div class="row">`;
    for (const rank of ranks) {
      const code = rank + suit;
      body += `<figure>${cardSVG(code, style, "it")}<figcaption>${cardName(code, "it", style)}</figcaption></figure>`;
    }
    if (suit === "D") body += `<figure>${backSVG(style)}<figcaption>back</figcaption></figure>`;
    body += `</div>`;
  }
}
const html = `<!doctype html><html><head><meta charset="utf-8"><title>Cards</title><style>
body{background:#2d5a3a;color:#fff;font:12px sans-serif;margin:8px}
h2{margin:6px 0}
.row{display:flex;flex-wrap:wrap;gap:6px;margin-bottom:6px}
figure{margin:0;width:${width}px}
figure svg{width:${width}px;display:block;filter:drop-shadow(0 1px 2px rgba(0,0,0,.5))}
figcaption{font-size:${width < 80 ? 8 : 11}px;text-align:center;white-space:nowrap;overflow:hidden}
</style></head><body>${body}</body></html>`;
writeFileSync(out, html);
