// The in-app rules page, written from the rule book (docs/rules.md), in each language's words:
// the keys "rules.text.<block>.<part>" of js/locales/<lang>.js, blocks in their number's order,
// each part saying what it is: h (a heading), h4 (a smaller one), p (a paragraph), li1, li2…
// (a list's items), dt1/dd1… (a term and what it means), th and tr1… (a table's head and rows,
// cells parted by " | "). Drawn with textContent only.

import { h, clear } from "./dom.js";
import { keysOf, t } from "./i18n.js";

const PART = /^rules\.text\.(\d+)\.(h4|h|p|li|dt|dd|th|tr)(\d*)$/;

/** The blocks of the rule book: [[block, [[kind, index, key], ...]], ...], in order. */
function blocks() {
  const out = new Map();
  for (const key of keysOf("rules.text.")) {
    const m = PART.exec(key);
    if (!m) continue;
    const n = Number(m[1]);
    if (!out.has(n)) out.set(n, []);
    out.get(n).push([m[2], Number(m[3] || 0), key]);
  }
  return [...out.entries()].sort((a, b) => a[0] - b[0]).map(([n, parts]) => [n, parts.sort((a, b) => a[1] - b[1])]);
}

const cells = (key) => t(key).split(" | ");

export function renderRules(box) {
  clear(box);
  box.append(h("h2", { id: "rules-title", text: t("rules.title") }));
  const art = h("div", { class: "rules-text" });
  for (const [, parts] of blocks()) {
    const kind = parts[0][0];
    if (kind === "h") art.append(h("h3", { text: t(parts[0][2]) }));
    else if (kind === "h4") art.append(h("h4", { text: t(parts[0][2]) }));
    else if (kind === "p") art.append(h("p", { text: t(parts[0][2]) }));
    else if (kind === "li") art.append(h("ul", {}, parts.map(([, , key]) => h("li", { text: t(key) }))));
    else if (kind === "dt" || kind === "dd") {
      art.append(h("dl", {}, parts.filter(([k]) => k === "dt")
        .map(([, i, key]) => [h("dt", { text: t(key) }), h("dd", { text: t(`${key.slice(0, key.lastIndexOf("."))}.dd${i}`) })])));
    } else if (kind === "th" || kind === "tr") {
      const head = parts.find(([k]) => k === "th");
      const rows = parts.filter(([k]) => k === "tr");
      // a narrow window scrolls it sideways: reachable by keyboard, named by its heading
      const heading = [...art.querySelectorAll("h3, h4")].pop();
      art.append(h("div", { class: "table-wrap", attrs: { tabindex: "0", role: "region", "aria-label": heading ? heading.textContent : (head ? cells(head[2])[0] : "") } }, h("table", { class: "points" },
        h("thead", {}, h("tr", {}, (head ? cells(head[2]) : []).map((x) => h("th", { attrs: { scope: "col" }, text: x })))),
        h("tbody", {}, rows.map(([, , key]) => h("tr", {}, cells(key).map((x, i) => (i ? h("td", { text: x }) : h("th", { attrs: { scope: "row" }, text: x })))))))));
    }
  }
  box.append(art);
}
