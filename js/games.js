// The unfinished games this browser keeps (js/worker.js holds them): shown when the page
// opens without a game of its own, to resume one or start another. A game open in another
// tab is shown as such and cannot be taken over from here. A table with friends this browser
// hosted says so, with the friends' names (resuming it hosts it again: js/app.js).

import { h, clear } from "./dom.js";
import { t, tOr, locale } from "./i18n.js";

/**
 * The computers' names at a table, by seat ("" for the others): each seat's own from the list,
 * by its number, unless a person at the table goes by that name (a friend who called themself
 * Carla) or an earlier computer took it; then the list's next one.
 * @param seats [{kind}] @param given the names the people gave, by seat ("" where none)
 */
export function computerNames(seats, given) {
  const list = t("seat.bots").split("|");
  const taken = new Set(given.filter(Boolean).map((n) => n.toLowerCase()));
  return seats.map((s, i) => {
    if (s.kind !== "bot" || given[i]) return "";
    const name = list.map((_, k) => list[(i + k) % list.length]).find((n) => !taken.has(n.toLowerCase())) || list[i % list.length];
    taken.add(name.toLowerCase());
    return name;
  });
}

/**
 * @param {HTMLElement} box
 * @param {Array<{id, info, meta, updated, open_elsewhere}>} games the worker's `games` list
 * @param {{onResume: (id: string) => void, onNew: () => void}} on
 */
export function renderGames(box, games, on) {
  clear(box);
  box.append(h("h2", { id: "games-title", text: t("games.title") }));
  const list = h("ul", { class: "games" });
  for (const g of games) {
    const info = g.info || {};
    const variant = tOr(`variant.${info.variant}`, String(info.variant ?? "?"))
      + (info.custom ? ` (${t("variant.custom").toLowerCase()})` : "");
    const seats = Array.isArray(info.seats) ? info.seats : [];
    const people = seats.filter((s) => s.kind === "human").length;
    const given = seats.map((s, i) => (info.names && info.names[i]) || "");
    const computers = computerNames(seats, given);
    const names = seats.map((s, i) => given[i] || (s.kind === "bot"
      ? `${computers[i]} (${tOr(`level.${s.level}`, s.level)})`
      : s.kind === "human" && people === 1 ? t("seat.you") : t("seat.player", { n: i + 1 })));
    const score = Array.isArray(info.score) && (info.deal > 0 || info.score.some((x) => x))
      ? info.score.join(" – ") : "";
    const points = Array.isArray(info.side_points) && info.side_points.length ? info.side_points.join(" – ") : "–";
    const when = g.updated ? new Date(g.updated).toLocaleString(locale(),
      { dateStyle: "medium", timeStyle: "short" }) : "";
    // a table with friends this browser hosted: their seats kept with their tokens (a seat a
    // computer plays for now, its friend away, included); resuming it hosts it again
    const kept = g.meta && g.meta.friends && Array.isArray(g.meta.friends.seats) ? g.meta.friends.seats : [];
    const friends = seats.map((s, i) => (s.kind === "friend" || (kept[i] && typeof kept[i].token === "string") ? i : -1)).filter((i) => i >= 0);
    const friendNames = friends.map((i) => given[i] || (kept[i] && typeof kept[i].name === "string" && kept[i].name.slice(0, 40)) || t("friends.friend"));
    const elsewhere = !!g.open_elsewhere;
    list.append(h("li", { class: ["game-entry", elsewhere ? "elsewhere" : ""], data: { game: g.id, friends: friends.length ? "1" : "0" } },
      h("div", { class: "game-what" },
        h("strong", { text: variant }),
        friends.length ? h("span", { class: "small game-friends", text: t("games.friends", { names: friendNames.join(", ") }) }) : null,
        h("span", { class: "muted small", text: t("games.players", { names: names.join(", ") }) }),
        h("span", { class: "small", text: t(score ? "games.where.match" : "games.where", { deal: (info.deal ?? 0) + 1, score, points }) }),
        h("span", { class: "muted small", text: t("games.when", { when }) }),
        elsewhere ? h("span", { class: "small warn", text: t("games.elsewhere") }) : null),
      h("button", { class: "btn primary", type: "button", text: t("games.resume"),
        attrs: elsewhere ? { disabled: "" } : {}, on: { click: () => on.onResume(g.id) } })));
  }
  box.append(list);
  box.append(h("div", { class: "buttons" },
    h("button", { class: "btn", id: "games-new", type: "button", text: t("games.new"), on: { click: () => on.onNew() } })));
}
