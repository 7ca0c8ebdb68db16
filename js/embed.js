// Links and embedding: game options in the page's URL.
//
//   index.html?variant=classic&lang=en&level=expert&seed=42
//   index.html?embed=1&variant=four&players=4&deck=french&lang=it&level=beginner&seed=7
//
//   embed     1: compact, without the menu bar, for an <iframe> in a blog post
//   variant   a variant of the catalog ("classic", "four", "chiamata", ...)
//   players   the number of players (an option of the rules)
//   deck      "italian" or "french" (an option of the rules)
//   level     the computer players' strength: "beginner", "intermediate" or "expert"
//   seed      a whole number or a word: the same seed deals the same cards
//   lang      "it" or "en"
//
// A URL with variant, players, deck, level or seed deals that game at once instead of
// resuming the saved one: sharing the link shares the deal. The game options then leave
// the address bar (history.replaceState), so that a reload resumes the game in progress
// instead of dealing it again. Nothing from the URL is ever inserted as HTML: the values
// go to the engine, which checks them, and anything it refuses falls back to the usual
// new-game panel.

import { LANGS } from "./i18n.js";
import * as store from "./storage.js";

const DEAL_KEYS = ["variant", "players", "deck", "level", "seed"];

/** The options of a query string, checked for shape (the engine checks the rest). */
export function readLink(search) {
  const q = new URLSearchParams(search);
  const text = (key, max = 40) => {
    const v = q.get(key);
    return v !== null && v.trim() && v.length <= max ? v.trim() : null;
  };
  const link = {
    embed: ["1", "true", "yes", ""].includes(q.get("embed") ?? "no"),
    lang: LANGS.includes(text("lang")) ? text("lang") : null,
    variant: /^[a-z0-9-]+$/.test(text("variant") ?? "") ? text("variant") : null,
    players: /^[1-9]$/.test(text("players") ?? "") ? Number(text("players")) : null,
    deck: /^[a-z-]+$/.test(text("deck") ?? "") ? text("deck") : null,
    level: /^[a-z-]+$/.test(text("level") ?? "") ? text("level") : null,
    seed: text("seed", 64),
  };
  if (link.seed !== null && /^\d{1,15}$/.test(link.seed)) link.seed = Number(link.seed);
  link.deal = DEAL_KEYS.some((k) => link[k] !== null);
  return link;
}

export const LINK = readLink(typeof location === "undefined" ? "" : location.search);

// Before the page's controller starts: the language it will read from the preferences,
// and the compact layout.
if (LINK.lang) store.updatePrefs({ lang: LINK.lang });
if (LINK.embed && typeof document !== "undefined") document.documentElement.classList.add("embed");

/**
 * Deal the game the URL asks for. `app` is the page's controller (js/app.js): its engine and
 * catalog are ready. Returns true when the deal is on the table, false when there is none
 * in the URL or the engine refused it (then the caller goes on as usual).
 */
export async function startFromLink(app) {
  if (!LINK.deal) return false;
  const catalog = app.catalog || { variants: [], levels: [] };
  const variant = LINK.variant || "classic";
  const rules = { name: variant };
  if (LINK.players !== null) rules.players = LINK.players;
  if (LINK.deck !== null) rules.deck = LINK.deck;
  const level = LINK.level || (catalog.levels.includes("intermediate") ? "intermediate" : catalog.levels[0]);
  // A link's seed is public by choice (the same link deals the same cards); without one the
  // engine's worker draws it and keeps it.
  const seed = LINK.seed ?? undefined;
  let reply;
  let meta;
  try {
    const checked = await app.engine.call("check_rules", { rules });
    const seats = [{ kind: "human" }];
    for (let i = 1; i < checked.players; i++) seats.push({ kind: "bot", level });
    meta = {
      variant,
      custom: LINK.players !== null || LINK.deck !== null,
      names: seats.map(() => ""),
      style: checked.deck && checked.deck !== "italian" ? "french" : app.prefs.style,
    };
    reply = await app.engine.call("new_match", { rules, ...(seed === undefined ? {} : { seed }), seats, meta });
  } catch (err) {
    console.warn("the link's game could not be dealt:", err);
    forgetDeal();
    return false;
  }
  forgetDeal();
  app.meta = meta;
  await app.startShowing(reply);
  return true;
}

/** Take the deal's options out of the address bar: a reload resumes, it does not redeal. */
function forgetDeal() {
  try {
    const url = new URL(location.href);
    for (const k of DEAL_KEYS) url.searchParams.delete(k);
    history.replaceState(history.state, "", url.href);
  } catch {
    // file:// pages and sandboxed frames may refuse: nothing is lost
  }
}
