//# allFunctionsCalledOnLoad
// The table's parts that need no TableView (js/table.js, which re-exports what other modules
// import of them): the cards' faces and backs, parsed once and cloned; where the seats sit
// around the felt; the words of the score, the turn and the actions.

import { cardSVG, backSVG, cardName, rankName, suitName } from "./cards.js";
import { h, svgBox } from "./dom.js";
import { t } from "./i18n.js";

const svgCache = new Map();
function faceMarkup(code, style, lang, suffix) {
  const k = `${code}|${style}|${lang}|${suffix}`;
  let m = svgCache.get(k);
  if (m === undefined) {
    m = cardSVG(code, style, lang, suffix);
    svgCache.set(k, m);
  }
  return m;
}
function backMarkup(style, lang, suffix) {
  const k = `back|${style}|${lang}|${suffix}`;
  let m = svgCache.get(k);
  if (m === undefined) {
    m = backSVG(style, lang, suffix);
    svgCache.set(k, m);
  }
  return m;
}

// Parsed card elements, cloned for each use: cloning is much cheaper than parsing the SVG.
const nodeCache = new Map();

/** A card face (or back when code is null) as a <div class="card">. */
export function cardFace(code, style, lang, suffix = "t", extra = "") {
  const k = `${code}|${style}|${lang}|${suffix}|${extra}`;
  let tpl = nodeCache.get(k);
  if (!tpl) {
    tpl = svgBox("div", code ? faceMarkup(code, style, lang, suffix) : backMarkup(style, lang, suffix),
      { class: `card ${code ? "face" : "back"} ${extra}`.trim() });
    const svg = tpl.firstElementChild;
    if (svg) svg.setAttribute("aria-hidden", "true");
    if (nodeCache.size > 600) nodeCache.clear();
    nodeCache.set(k, tpl);
  }
  return tpl.cloneNode(true);
}

export function hash(str) {
  let x = 7;
  for (let i = 0; i < str.length; i++) x = (x * 31 + str.charCodeAt(i)) | 0;
  return Math.abs(x);
}

/** Where seat offset k (0 = the bottom seat) sits around the table, counter-clockwise. */
export function seatVector(k, n) {
  const a = (2 * Math.PI * k) / n;
  return { x: Math.sin(a), y: Math.cos(a) };
}

/** Which border of the felt each other seat sits on (offset k from the bottom seat). */
export function seatPlaces(n, compact = false) {
  const places = { top: [], left: [], right: [] };
  const m = n - 1;
  if (compact) {
    // narrow screens: every other seat in one row across the top, in table order
    for (let k = m; k >= 1; k--) places.top.push(k);
    return places;
  }
  if (m === 1) places.top = [1];
  else if (m === 2) places.top = [2, 1];
  else if (m === 3) { places.right = [1]; places.top = [2]; places.left = [3]; }
  else if (m === 4) { places.right = [1]; places.top = [3, 2]; places.left = [4]; }
  else { places.right = [1]; places.top = [4, 3, 2]; places.left = [5]; }
  return places;
}

/** Two sides of partners (4 or 6 players, or Chiamata once the partner is known). */
export function teamGame(view) {
  return !!(view.sides && view.sides.length === 2 && view.sides.some((sd) => sd.length > 1));
}

export function cssEscape(s) {
  return (window.CSS && CSS.escape) ? CSS.escape(s) : String(s).replace(/["\\]/g, "\\$&");
}

export function matchText(ctx) {
  const m = ctx.match;
  if (!m || m.format === "single" || !m.score) return "";
  return `${t("table.score")} ${m.score.join("–")}`;
}

export function turnText(view, ctx) {
  if (view.phase === "over") return t("table.over");
  if (view.turn === null || view.turn === undefined) return "";
  if (view.turn === view.seat && ctx.kinds[view.turn].kind === "human") return t("table.turn.you");
  if (ctx.kinds[view.turn] && ctx.kinds[view.turn].kind === "bot") return t("table.turn.thinking", { name: ctx.names[view.turn] });
  return t("table.turn.other", { name: ctx.names[view.turn] });
}

/** Words for a non-card action of the legal list. */
export function actionLabel(a, lang, style) {
  let m;
  if ((m = /^swap-(\w\w)$/.exec(a))) return t("act.swap", { card: cardName(m[1], lang, style) });
  if (a === "signal-loaded") return t("act.signal", { what: t("act.signal.loaded") });
  if ((m = /^signal-(\w)$/.exec(a))) {
    return t("act.signal", { what: t("act.signal.rank", { rank: rankName(m[1], lang, style) }) });
  }
  if (a === "pass") return t("act.pass");
  if (a === "carichi") return t("act.carichi");
  if ((m = /^bid-(\d\d+)$/.exec(a))) return t("act.bid.points", { n: m[1] });
  if ((m = /^bid-(\w)$/.exec(a))) return t("act.bid.rank", { rank: rankName(m[1], lang, style) });
  if ((m = /^call-([DCSB])$/.exec(a))) return t("act.call", { what: suitName(m[1], lang, style) });
  if ((m = /^call-(\w\w)$/.exec(a))) return t("act.call", { what: cardName(m[1], lang, style) });
  return a;
}

export function signalWords(sig, lang, style) {
  if (sig === "loaded") return t("act.signal.loaded");
  return t("act.signal.rank", { rank: rankName(sig, lang, style) });
}

/** A computer level in words: an expert playing without its learned model says so, and why
 * (ctx.model, js/worker/games.js: offline, still downloading, not served, not this build's). */
export function levelName(level, model) {
  if (level !== "expert" || !model || !model.now) return t(`level.${level}`);
  return t("level.nomodel", { level: t(`level.${level}`), why: t(`level.nomodel.${model.why}`) });
}

export function levelBadge(level, model) {
  const weaker = level === "expert" && !!model && model.now;
  return h("span", { class: `badge level${weaker ? " nomodel" : ""}`, text: levelName(level, model),
    attrs: weaker ? { title: t(`model.missing.${model.why}`) } : {} });
}
