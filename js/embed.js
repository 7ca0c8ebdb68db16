// Links and embedding: game options in the page's URL.
//
//   index.html?variant=classic&lang=en&level=expert&seed=42
//   index.html?embed=1&variant=four&players=4&deck=french&lang=it&level=beginner&seed=7
//
//   embed     1: compact, without the menu bar, for an <iframe> in a blog post; the page
//             then talks to its host page (js/host.js). embed.html is the light poster
//             that loads this page when the reader presses Play (js/poster.js)
//   variant   a variant of the catalog ("classic", "four", "chiamata", ...)
//   players   the number of players (an option of the rules)
//   deck      "italian" or "french" (an option of the rules)
//   level     the computer players' strength: "beginner", "intermediate" or "expert"
//   seed      a whole number or a word: the same seed deals the same cards
//   lang      a language of js/locales/index.js ("it", "en", "es", ...)
//
// A URL with variant, players, deck, level or seed deals that game at once instead of
// resuming the saved one: sharing the link shares the deal. The game options then leave
// the address bar (history.replaceState), so that a reload resumes the game in progress
// instead of dealing it again. `lang` applies once too: it leaves the address bar at once,
// so that a reload keeps the language the person chose later. Nothing from the URL is ever
// inserted as HTML: the values go to the engine, which checks them; a link that cannot be
// dealt says why on the page, in the person's language (js/welcome.js), and the page goes
// on as without it.

import { LANGS } from "./i18n.js";
import { errorText } from "./errors.js";
import * as store from "./storage.js";
import { connectGame } from "./host.js";
import { linkRefused } from "./welcome.js";
import { deckStyle } from "./cards.js";

const DEAL_KEYS = ["variant", "players", "deck", "level", "seed"];

/** The options of a query string, checked for shape (the engine checks the rest). */
export function readLink(search) {
  const q = new URLSearchParams(search);
  const bad = [];
  const text = (key, max = 40) => {
    const v = q.get(key);
    if (v === null || !v.trim()) return null;
    if (v.length > max) { bad.push(key); return null; }
    return v.trim();
  };
  const shaped = (key, re, max) => {
    const v = text(key, max);
    if (v === null) return null;
    if (!re.test(v)) { bad.push(key); return null; }
    return v;
  };
  const link = {
    embed: ["1", "true", "yes", ""].includes(q.get("embed") ?? "no"),
    lang: LANGS.includes(text("lang")) ? text("lang") : null,
    variant: shaped("variant", /^[a-z0-9-]+$/),
    players: /** @type {string | number | null} */ (shaped("players", /^[1-9]$/)),
    deck: shaped("deck", /^[a-z0-9-]+$/),
    level: shaped("level", /^[a-z-]+$/),
    seed: /** @type {string | number | null} */ (shaped("seed", /^[\w.-]+$/, 64)),
  };
  if (link.players !== null) link.players = Number(link.players);
  if (link.seed !== null && /^\d{1,15}$/.test(/** @type {string} */ (link.seed))) link.seed = Number(link.seed);
  link.bad = bad; // the deal keys the link gives in a shape no deal has
  link.deal = DEAL_KEYS.some((k) => link[k] !== null || bad.includes(k));
  return link;
}

export const LINK = readLink(typeof location === "undefined" ? "" : location.search);

// Before the page's controller starts: the language it will read from the preferences,
// and the compact layout.
if (LINK.lang) {
  store.updatePrefs({ lang: LINK.lang });
  // Where storage is refused (a frame on another site's page, in browsers that block
  // third-party storage) the language stays in the address for a reload to find.
  if (store.loadPrefs().lang === LINK.lang) forget(["lang"]);
}
if (LINK.embed && typeof document !== "undefined") document.documentElement.classList.add("embed");

// What the page may reach (docs/embedding.md, "What each page may reach"). index.html's policy
// lets a table with friends open WebSockets to its relays (any host: the relays are a setting
// a person may change, and a policy set in the page can be narrowed, never widened). A page
// that holds no table with friends narrows it at once, before anything could connect: its own
// origin alone. A tab holds tables with friends from an invitation (or the test hook
// ?friends=1) on, or once a person starts or resumes one: the page then reloads into the
// policy that allows them (`reloadForFriends`), and the tab keeps it for its session (in
// session storage, or where that is refused, a frame on another site's page, in its address:
// `friends_tab=1`).
const FRIENDS_TAB = "briscola.friends-tab";
const FRIENDS_START = "briscola.friends-start";
const TAB_PARAM = /[?&]friends_tab=1(&|$)/;
export const FRIENDS_PAGE = typeof location === "undefined" || location.protocol === "file:"
  || TAB_PARAM.test(location.search) || friendsTab(/[?&](join|friends)=/.test(location.search));

/** Whether this tab holds tables with friends (`link`: it is opened by an invitation now). */
function friendsTab(link) {
  try {
    if (link) sessionStorage.setItem(FRIENDS_TAB, "1"); // a reload keeps it, the link gone
    return sessionStorage.getItem(FRIENDS_TAB) === "1";
  } catch {
    return link; // nowhere to remember it: the address does (reloadForFriends)
  }
}

if (!FRIENDS_PAGE && typeof document !== "undefined" && document.head) {
  const narrow = document.createElement("meta");
  narrow.httpEquiv = "Content-Security-Policy";
  narrow.content = "connect-src 'self'";
  document.head.append(narrow);
}

/** Reload this tab into the policy that lets a table with friends reach its relays; `start`
 * (JSON-shaped: the New game panel's choice) is taken by the next load (`takeFriendsStart`). */
export function reloadForFriends(start = null) {
  try {
    sessionStorage.setItem(FRIENDS_TAB, "1");
    if (start) sessionStorage.setItem(FRIENDS_START, JSON.stringify(start));
  } catch {
    // no session storage (nor any kept game: the table is started again after the reload)
    const url = new URL(location.href);
    url.searchParams.set("friends_tab", "1");
    location.replace(url.href);
    return;
  }
  location.reload();
}

/** The table with friends a person started before this load's reload, once; or null. */
export function takeFriendsStart() {
  try {
    const text = sessionStorage.getItem(FRIENDS_START);
    sessionStorage.removeItem(FRIENDS_START);
    const start = text ? JSON.parse(text) : null;
    return start && typeof start === "object" && Array.isArray(start.seats) ? start : null;
  } catch {
    return null;
  }
}

/**
 * Deal the game the URL asks for. `app` is the page's controller (js/app.js): its engine and
 * catalog are ready. Returns true when the deal is on the table, false when there is none
 * in the URL or the engine refused it (then the caller goes on as usual).
 */
export async function startFromLink(app, link = LINK) {
  // Embedded: the host page hears of each deal and may ask for a new one (js/host.js).
  if (link === LINK && LINK.embed) connectGame(app, (seed) => startFromLink(app, { ...LINK, seed, deal: true }));
  if (!link.deal) return false;
  const catalog = app.catalog || { variants: [], levels: [] };
  const problem = linkProblem(link, catalog);
  if (problem) {
    forget(DEAL_KEYS);
    linkRefused(app, problem);
    return false;
  }
  const variant = link.variant || "classic";
  const rules = { name: variant };
  if (link.players !== null) rules.players = link.players;
  if (link.deck !== null) rules.deck = link.deck;
  const level = link.level || (catalog.levels.includes("intermediate") ? "intermediate" : catalog.levels[0]);
  // A link's seed is public by choice (the same link deals the same cards); without one the
  // engine's worker draws it and keeps it.
  const seed = link.seed ?? undefined;
  let reply;
  let meta;
  try {
    // A variant as it is: its players and deck are in the catalog (no round trip to the engine).
    const listed = link.players === null && link.deck === null
      && (catalog.variants || []).find((v) => v.name === variant && v.players && v.deck);
    const checked = listed || (await app.engine.call("check_rules", { rules }));
    const seats = [{ kind: "human" }];
    for (let i = 1; i < checked.players; i++) seats.push({ kind: "bot", level });
    meta = {
      variant,
      custom: link.players !== null || link.deck !== null,
      names: seats.map(() => ""),
      style: deckStyle(checked.deck) || app.prefs.style,
    };
    reply = await app.engine.call("new_match", { rules, ...(seed === undefined ? {} : { seed }), seats, meta });
  } catch (err) {
    forget(DEAL_KEYS);
    linkRefused(app, { key: "other", value: "", message: errorText(err) });
    return false;
  }
  forget(DEAL_KEYS);
  app.meta = meta;
  await app.startShowing(reply);
  return true;
}

/**
 * Why the link's deal cannot be dealt, before asking the engine: {key, value} for the first
 * option that is malformed or unknown to the catalog, or null.
 */
export function linkProblem(link, catalog) {
  const raw = new URLSearchParams(typeof location === "undefined" ? "" : location.search);
  for (const key of DEAL_KEYS) {
    if (link.bad.includes(key)) return { key, value: (raw.get(key) || "").slice(0, 24) };
  }
  const option = (name) => (catalog.options || []).find((o) => o.name === name);
  if (link.variant !== null && catalog.variants && !catalog.variants.some((v) => v.name === link.variant)) {
    return { key: "variant", value: link.variant };
  }
  if (link.level !== null && catalog.levels && !catalog.levels.includes(link.level)) return { key: "level", value: link.level };
  const deck = option("deck");
  if (link.deck !== null && deck && deck.choices && !deck.choices.includes(link.deck)) return { key: "deck", value: link.deck };
  const players = option("players");
  if (link.players !== null && players && players.choices && !players.choices.includes(link.players)) {
    return { key: "players", value: String(link.players) };
  }
  return null;
}

/** Take options out of the address bar: a reload resumes, it does not redeal or relabel. */
export function forget(keys) {
  try {
    const url = new URL(location.href);
    for (const k of keys) url.searchParams.delete(k);
    history.replaceState(history.state, "", url.href);
  } catch {
    // file:// pages and sandboxed frames may refuse: nothing is lost
  }
}
