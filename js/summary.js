// End of a deal (who took which counting cards, the points, the winner, the match score),
// the chart of a match's deals, and the statistics table.

import { h, s, clear } from "./dom.js";
import { t, tOr, formatNumber } from "./i18n.js";
import { cardFace } from "./table.js";
import { chiamataIn } from "./later.js";
import { signed } from "./names.js";

/** Names of a side: "Anna", or "Anna + Gino". */
export function sideName(side, names) {
  return side.map((x) => names[x]).join(" + ");
}

/**
 * The deal result into `box`. ctx: {names, me (the seat whose side is "you"), humans, style,
 * lang, onNext, onNew, onAgain, onLook, friends}; `friends` at a table with friends: the
 * host's {again} (its "again" plays the next match with them), a friend's {waiting, leave}
 * (whom the next deal waits for, and the way out instead of any button that deals); either's
 * `note` at a fair table (the check on this device and the table's code)
 */
export function renderSummary(box, state, ctx) {
  clear(box);
  const sum = state.summary;
  const out = sum.outcome;
  const match = state.match;
  const sides = out.sides;
  const meSide = sides.findIndex((sd) => sd.includes(ctx.me));
  const team = sides.some((sd) => sd.length > 1);
  // Briscola Chiamata: game points per seat, a match of several deals
  const chiamata = !!(out.game_points && out.game_points.length);
  const multi = match.format !== "single" || chiamata;

  const title = match.over && multi ? t("sum.match.title") : t("sum.title");
  box.append(h("h2", { id: "summary-title", text: title }));

  let banner;
  if (out.draw) banner = t("sum.draw");
  else if (out.winners.length > 1) banner = t("sum.tie", { names: out.winners.map((w) => sideName(sides[w], ctx.names)).join(", ") });
  else if (chiamata) {
    const gp = out.game_points[ctx.me];
    const caller = state.view.chiamata ? state.view.chiamata.caller : null;
    const made = out.winners.includes(0);
    if (ctx.humans === 1) banner = `${gp > 0 ? t("sum.win.you") : t("sum.lose.you")} ${t(Math.abs(gp) === 1 ? "sum.ch.gp.you.one" : "sum.ch.gp.you", { gp: signed(gp) })}`;
    else banner = t(made ? "sum.ch.made.banner" : "sum.ch.missed.banner", { name: caller === null ? "" : ctx.names[caller], points: out.side_points[0], target: out.target });
  } else if (ctx.humans === 1 && meSide >= 0) {
    if (out.winners.includes(meSide)) banner = team ? t("sum.win.team.you") : t("sum.win.you");
    else banner = t("sum.lose.you");
  } else banner = t("sum.win.name", { name: sideName(sides[out.winners[0]], ctx.names) });
  const won = chiamata ? out.game_points[ctx.me] > 0 : !out.draw && out.winners.includes(meSide);
  box.append(h("p", { class: `banner ${out.draw ? "draw" : won ? "won" : "lost"}`, attrs: { role: "status" }, text: banner }));
  if (chiamata && chiamataIn()) chiamataIn().chiamataFacts(box, state, ctx);
  box.append(dealFacts(state, ctx));

  const list = h("div", { class: "sum-sides" });
  sides.forEach((side, i) => {
    const cards = h("div", { class: "sum-cards", attrs: { "aria-label": t("sum.cards") } });
    let any = false;
    for (const seat of side) {
      for (const code of sum.counting_cards[seat] || []) {
        any = true;
        const c = h("div", { class: "slot sum-card" }, cardFace(code, ctx.style, ctx.lang, "s"));
        c.title = `${ctx.names[seat]}: ${code}`;
        cards.append(c);
      }
    }
    if (!any) cards.append(h("span", { class: "muted", text: t("sum.nocards") }));
    list.append(h("section", { class: `sum-side ${out.winners.includes(i) && !out.draw ? "winner" : ""}` },
      h("h3", {},
        h("span", { class: "who", text: sideName(side, ctx.names) }),
        h("span", { class: "pts", data: { side: i }, text: t("sum.points", { n: out.side_points[i] }) })),
      cards));
  });
  box.append(list);

  if (chiamata && chiamataIn()) chiamataIn().chiamataPoints(box, state, ctx);
  else if (match.format !== "single" || match.deals.length > 1) {
    box.append(h("p", { class: "match-score" },
      `${t("sum.match")}: `,
      ...scoreOwners(match, sides).map((side, i) => h("span", { class: "ms" }, `${sideName(side, ctx.names)} `, h("b", { text: String(match.score[i]) }))).flatMap((x, i) => (i ? [" · ", x] : [x]))));
    box.append(chart(match.deals, sides, ctx));
  }
  if (!match.over && out.draw) box.append(h("p", { class: "muted", text: t("sum.replay") }));
  if (match.over && match.winners && multi) {
    const owners = scoreOwners(match, sides);
    box.append(h("p", { class: "banner small", text: t("sum.match.won", { name: match.winners.map((w) => sideName(owners[w] || [w], ctx.names)).join(", ") }) }));
  }

  for (const part of ctx.coach || []) box.append(part); // js/coach.js: review, duplicate
  const buttons = h("div", { class: "buttons" });
  buttons.append(h("button", { class: "btn", type: "button", text: t("sum.look"), on: { click: ctx.onLook } }));
  const friends = ctx.friends;
  // a table that deals fairly: the check on this device, and the table's code to compare
  if (friends && friends.note) box.append(h("p", { id: "sum-fair", class: "sum-fair", text: friends.note }));
  if (friends && friends.waiting) {
    // a friend's page: the host deals the next deal or match; nothing to press but leaving
    box.append(h("p", { id: "sum-waiting", class: "muted", attrs: { role: "status" }, text: friends.waiting }));
    buttons.append(h("button", { class: "btn", id: "sum-leave", type: "button", text: t("sum.leave"), on: { click: friends.leave } }));
  } else if (friends && friends.again && match.over) {
    // the host's page: the next match with the same friends, in the same room; or another game
    buttons.append(h("button", { class: "btn", id: "sum-new", type: "button", text: t("sum.newmatch"), on: { click: ctx.onNew } }));
    buttons.append(h("button", { class: "btn primary", id: "sum-again", type: "button", text: t("sum.again.friends"), on: { click: ctx.onAgain } }));
  } else if (!match.over) {
    buttons.append(h("button", { class: "btn primary", id: "sum-next", type: "button", text: t("sum.next"), on: { click: ctx.onNext } }));
  } else {
    buttons.append(h("button", { class: "btn", id: "sum-new", type: "button", text: t("sum.newmatch"), on: { click: ctx.onNew } }));
    buttons.append(h("button", { class: "btn primary", id: "sum-again", type: "button", text: t(match.format === "single" ? "sum.again.single" : "sum.again"), on: { click: ctx.onAgain } }));
  }
  box.append(buttons);
}

/** The bar on the felt while the table is looked at after a deal: back to the result, and on
 * to the next deal (or, the match over, a new one), with the summary's own actions (ctx:
 * onResult, onNext, onNew, onAgain). Shown by the page's mode "over" (css/app.css). */
export function renderLookBar(bar, state, ctx) {
  const match = state.match;
  clear(bar);
  bar.setAttribute("role", "group");
  bar.setAttribute("aria-label", t("look.bar"));
  bar.append(h("button", { class: "btn", id: "look-result", type: "button", text: t("look.result"), on: { click: ctx.onResult } }));
  if (ctx.friends && ctx.friends.waiting) return; // a friend's page: the host deals the next
  if (ctx.friends && ctx.friends.again && match.over) {
    bar.append(h("button", { class: "btn primary", id: "look-again", type: "button", text: t("look.again.friends"), on: { click: ctx.onAgain } }));
  } else if (!match.over) bar.append(h("button", { class: "btn primary", id: "look-next", type: "button", text: t("look.next"), on: { click: ctx.onNext } }));
  else {
    bar.append(h("button", { class: "btn primary", id: "look-again", type: "button",
      text: t(match.format === "single" ? "look.again" : "look.newmatch"), on: { click: ctx.onAgain } }));
  }
}

/** What was needed (61 of 120, or the Chiamata target) and the tricks each side took. */
function dealFacts(state, ctx) {
  const out = state.summary.outcome;
  const total = Object.values(state.card_points || {}).reduce((a, b) => a + b, 0) || 120;
  const need = out.target || Math.floor(total / 2) + 1;
  const tricks = out.sides.map((side) => (state.view.tricks || []).filter((tr) => side.includes(tr.winner)).length);
  const parts = out.sides.map((side, i) => t(tricks[i] === 1 ? "sum.tricks.one" : "sum.tricks",
    { name: sideName(side, ctx.names), n: tricks[i] }));
  return h("div", { class: "deal-facts" },
    h("p", { class: "sum-need", text: out.target ? t("sum.need.target", { n: need, total }) : t("sum.need", { n: need, total }) }),
    h("p", { class: "sum-tricks", text: parts.join(" · ") }));
}

/** Who each entry of the match score belongs to: the sides, or every seat (Chiamata). */
function scoreOwners(match, sides) {
  if (match.score.length === sides.length) return sides;
  return match.score.map((_, i) => [i]);
}

/** A bar chart of the card points of each side in each deal, as inline SVG. */
export function chart(deals, sides, ctx) {
  const W = 320, H = 150, pad = 24, top = 10;
  const n = Math.max(1, deals.length);
  const groupW = (W - pad - 8) / n;
  const barW = Math.max(3, Math.min(22, (groupW - 6) / sides.length));
  const max = 120;
  const svg = s("svg", { viewBox: `0 0 ${W} ${H + 20}`, class: "chart", role: "img",
    "aria-label": t("sum.chart") });
  svg.append(s("title", {}, t("sum.chart")));
  for (const y of [0, 60, 120]) {
    const yy = top + (H - top) * (1 - y / max);
    svg.append(s("line", { x1: pad, x2: W - 4, y1: yy, y2: yy, class: y === 60 ? "grid mid" : "grid" }));
    svg.append(s("text", { x: pad - 4, y: yy + 4, class: "axis", "text-anchor": "end" }, String(y)));
  }
  deals.forEach((d, i) => {
    const x0 = pad + 6 + i * groupW;
    (d.side_points || []).forEach((p, j) => {
      const hgt = (H - top) * (p / max);
      const rect = s("rect", { x: x0 + j * barW, y: H - hgt, width: barW - 1, height: Math.max(0, hgt),
        class: `bar side${j % 6}`, rx: 2 });
      rect.append(s("title", {}, `${sideName(sides[j] || [j], ctx.names)}: ${p}`));
      svg.append(rect);
    });
    svg.append(s("text", { x: x0 + (sides.length * barW) / 2, y: H + 14, class: "axis", "text-anchor": "middle" },
      t("sum.chart.deal", { n: i + 1 })));
  });
  const legend = h("div", { class: "legend" },
    sides.map((side, j) => h("span", { class: "lg" }, h("i", { class: `sw side${j % 6}` }), sideName(side, ctx.names))));
  return h("figure", { class: "chart-box" }, svg, legend);
}

export function renderStats(box, stats, onReset) {
  clear(box);
  box.append(h("h2", { text: t("stats.title") }));
  const keys = Object.keys(stats).filter((k) => !k.startsWith("__"));
  if (!keys.length) box.append(h("p", { class: "muted", text: t("stats.none") }));
  else {
    const table = h("table", { class: "stats" });
    table.append(h("thead", {}, h("tr", {},
      ...["stats.variant", "stats.played", "stats.won", "stats.drawn", "stats.avg"].map((k) => h("th", { attrs: { scope: "col" }, text: t(k) })))));
    const body = h("tbody");
    for (const k of keys.sort()) {
      const v = stats[k];
      const custom = k.endsWith("*");
      const base = custom ? k.slice(0, -1) : k;
      const label = tOr(`variant.${base}`, base) + (custom ? ` (${t("variant.custom").toLowerCase()})` : "");
      body.append(h("tr", { data: { variant: k } },
        h("th", { attrs: { scope: "row" }, text: label }),
        h("td", { text: String(v.played) }), h("td", { text: String(v.won) }), h("td", { text: String(v.drawn) }),
        h("td", { text: v.played ? formatNumber(v.points / v.played, 1) : "–" })));
    }
    table.append(body);
    box.append(h("div", { class: "table-wrap" }, table));
    const undone = keys.reduce((n, k) => n + (Number.isInteger(stats[k].undone) ? stats[k].undone : 0), 0);
    if (undone) box.append(h("p", { class: "muted small", id: "stats-undone", text: t("stats.undone", { n: undone }) }));
  }
  box.append(h("p", { class: "muted small", text: t("stats.note") }));
  box.append(h("div", { class: "buttons" },
    h("button", { class: "btn danger", id: "stats-reset", type: "button", text: t("stats.reset"), on: { click: onReset } })));
}
