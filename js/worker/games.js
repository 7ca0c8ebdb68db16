// Keeping the games: the store of games (IndexedDB) and the Web Lock of the game open here.
// A module of js/worker.js (bundled into it by the build, tools/build/worker.py).
//
// IndexedDB "briscola-games" (IndexedDB is open to workers; the page never reads it):
//   games  {id, save, meta, info, created, updated}: one record per game, `save` the
//          bridge's text (secret: it holds the seed), `meta` what the page asked to keep
//          with it (variant chosen, names, card style), `info` what the list of unfinished
//          games shows (variant, seats, score, deal, over, touched: whether a person has
//          played in it)
//   aside  saves the bridge refused, kept with the reason (the last MAX_ASIDE; Settings lists
//          them, each to download or remove: js/worker/carry.js)
// A game open in a tab holds a Web Lock named after it: another tab sees that it is open
// there and does not take it over.
//
// Requests the worker answers itself (js/worker.js `keep`; the rest go to the bridge):
//   games {}                    -> {games: [{id, meta, info, updated, open_elsewhere}], storage}
//   resume {id}                 -> the game's state (as `state`), `game` its id;
//                                  errors: no_game, game_open_elsewhere, bad_save
//   import_save {save, meta}    -> a save kept by an older page (localStorage) becomes a game
//                                  here: as resume; bad_save when refused (set aside here),
//                                  bad_save_not_kept when it could not even be kept aside
//   set_meta {meta}             -> {} (the running game's meta)
// Every reply that carries a table has `game` (its id) and never `save`; `storage: "refused"`
// when the save could not be written (the game goes on, but a reload would lose it).
// Requests with `game` are refused (`stale`) unless that game is the one on the table.
// `load` is not for the page: saves live here.

import { checkJSON } from "../limits.js";
import { ask } from "./bridge.js";
import { modelFor, tableModel } from "./models.js";
import { SITE_ROOT, hex, noteRequest, whenIdle } from "./site.js";

const DB_NAME = "briscola-games";
const MAX_ASIDE = 20; // records set aside kept (the oldest go first)
const LOCK_PREFIX = `briscola:${SITE_ROOT.pathname}:game:`;
export let current = null; // {id, meta, created, touched, unmodelled} of the game on the bridge's table
let held = null; // {id, release} the Web Lock of the game open here
let dbPromise = null;

/** The game on the bridge's table is now `game` ({id, meta, created, touched}). */
export function setCurrent(game) {
  current = game;
}

// An expert that decides without its learned model (js/worker/models.js) plays on rules of
// thumb: the deals where one did are kept with the game (`unmodelled`: [{deal, why}]), for the
// page to say so and to leave them unrated (docs/players.md).
const hasExpert = (seats) => Array.isArray(seats) && seats.some((x) => x && x.kind === "bot" && x.level === "expert");

/** After a computer player's decision (nothing changed the model's state since): note its deal
 * if the decision was made without the table's model. */
export function noteDecision(seats, deal) {
  const missing = tableModel();
  if (!current || !missing || !hasExpert(seats) || !isInt(deal)) return;
  const list = current.unmodelled || (current.unmodelled = []);
  if (!list.some((d) => d.deal === deal)) list.push({ deal, why: missing.why });
}

/** What the page says of the table's computer players' model: {now, why, deals} or null.
 * `now`: its experts play without it from here (missing, or already deciding without it this
 * deal); `deals`: the deals of the match where one decided without it. */
export function modelNote(state) {
  const deals = (current && current.unmodelled) || [];
  const missing = hasExpert(state.seats) ? tableModel() : null;
  if (!missing && !deals.length) return null;
  const deal = state.match ? state.match.deal : 0;
  const here = deals.find((d) => d.deal === deal);
  const now = !!missing && (missing.why !== "downloading" || !!here);
  return { now, why: here ? here.why : missing ? missing.why : null, deals: deals.map((d) => d.deal) };
}

/** A person (here, or a friend through this page) acted in the game on the table: from now on
 * it holds something of theirs, and is never forgotten as a deal nobody played. */
export function touch() {
  if (current) current.touched = true;
}

export function openDB() {
  if (!dbPromise) {
    dbPromise = new Promise((resolve, reject) => {
      const req = indexedDB.open(DB_NAME, 1);
      req.onupgradeneeded = () => {
        const db = req.result;
        if (!db.objectStoreNames.contains("games")) db.createObjectStore("games", { keyPath: "id" });
        if (!db.objectStoreNames.contains("aside")) db.createObjectStore("aside", { autoIncrement: true });
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error || new Error("IndexedDB refused"));
      req.onblocked = () => reject(new Error("IndexedDB is blocked"));
    });
    dbPromise.catch(() => { dbPromise = null; }); // try again next time
  }
  return dbPromise;
}

/** Run `work(stores)` in one transaction; resolves with what it returned once committed. */
export async function tx(names, mode, work) {
  const db = await openDB();
  return new Promise((resolve, reject) => {
    let t;
    try {
      t = db.transaction(names, mode);
    } catch (err) {
      reject(err);
      return;
    }
    const stores = Object.fromEntries(names.map((n) => [n, t.objectStore(n)]));
    let out;
    try {
      out = work(stores);
    } catch (err) {
      t.abort();
      reject(err);
      return;
    }
    t.oncomplete = () => resolve(out);
    t.onerror = () => reject(t.error || new Error("IndexedDB write failed"));
    t.onabort = () => reject(t.error || new Error("IndexedDB write aborted"));
  });
}

function requestValue(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

export async function readGame(id) {
  let value;
  await tx(["games"], "readonly", (st) => { requestValue(st.games.get(id)).then((v) => { value = v; }); });
  return value;
}

export async function allGames() {
  let value = [];
  await tx(["games"], "readonly", (st) => { requestValue(st.games.getAll()).then((v) => { value = v; }); });
  return value;
}

/** What the list of unfinished games shows, from a state reply (nothing hidden in it). */
export function infoOf(state, meta) {
  return {
    variant: (meta && meta.variant) || state.view.rules.name,
    custom: !!(meta && meta.custom),
    players: state.view.players,
    seats: state.seats,
    names: meta && Array.isArray(meta.names) ? meta.names : [],
    score: state.match.score,
    deal: state.match.deal,
    side_points: state.view.side_points,
    phase: state.view.phase,
    over: !!state.match.over,
    touched: !!(current && current.touched) || state.match.deal > 0,
  };
}

/** Keep the current game's save; false when storage refused it. */
export async function store(state, save) {
  if (!current) return true;
  const now = Date.now();
  const record = { id: current.id, save, meta: current.meta, info: infoOf(state, current.meta),
    created: current.created, updated: now, unmodelled: current.unmodelled || [] };
  try {
    await tx(["games"], "readwrite", (st) => { st.games.put(record); });
    return true;
  } catch (err) {
    console.warn("could not keep the game:", err);
    return false;
  }
}

/** Move a refused record aside in one transaction: nothing is deleted unless it was kept. */
async function setAside(record, reason) {
  try {
    await tx(["games", "aside"], "readwrite", (st) => {
      st.aside.add({ reason, record, when: Date.now() });
      if (record.id) st.games.delete(record.id);
      // at most MAX_ASIDE kept: the oldest go (the page lists them, Settings)
      const keys = st.aside.getAllKeys();
      keys.onsuccess = () => { for (const k of keys.result.slice(0, -MAX_ASIDE)) st.aside.delete(k); };
    });
    return true;
  } catch (err) {
    console.warn("could not set the refused save aside:", err);
    return false;
  }
}

function lockName(id) {
  return LOCK_PREFIX + id;
}

/** Hold the lock of game `id` (releasing the one held before); false if another tab has it. */
function lockGame(id) {
  if (held && held.id === id) return Promise.resolve(true);
  if (!self.navigator || !navigator.locks) {
    releaseLock();
    return Promise.resolve(true); // no Web Locks here: two tabs cannot be told apart
  }
  return new Promise((resolve) => {
    navigator.locks.request(lockName(id), { ifAvailable: true }, (lock) => {
      if (!lock) {
        resolve(false);
        return undefined;
      }
      releaseLock();
      return new Promise((release) => {
        held = { id, release };
        resolve(true);
      });
    }).catch(() => resolve(true));
  });
}

function releaseLock() {
  if (held) {
    held.release();
    held = null;
  }
}

export async function heldElsewhere() {
  if (!self.navigator || !navigator.locks || !navigator.locks.query) return new Set();
  try {
    const { held: locks } = await navigator.locks.query();
    const mine = held ? lockName(held.id) : null;
    return new Set(locks.map((l) => l.name).filter((n) => n.startsWith(LOCK_PREFIX) && n !== mine)
      .map((n) => n.slice(LOCK_PREFIX.length)));
  } catch {
    return new Set();
  }
}

export function newId() {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return Date.now().toString(36) + "-" + hex(bytes);
}

// The lock of the next new game is taken ahead: a lock's grant is a round trip through the
// browser (5-14 ms for a later visit's first deal, after Python's work). A new game takes the
// spare's id, and the next spare is asked for at once. A spare names no kept game, so other
// tabs' lists of games open elsewhere never show it.
let spareLock = null; // Promise<{id, release} | null>

export function takeSpareLock() {
  spareLock = null;
  if (!self.navigator || !navigator.locks) return;
  const id = newId();
  spareLock = new Promise((resolve) => {
    navigator.locks.request(lockName(id), { ifAvailable: true }, (lock) => {
      if (!lock) {
        resolve(null);
        return undefined;
      }
      return new Promise((release) => resolve({ id, release }));
    }).catch(() => resolve(null));
  });
}

/** A fresh id for a new game, its lock held (the one of the game before released). */
export async function lockNewGame() {
  const spare = spareLock ? await spareLock : null;
  takeSpareLock();
  if (spare) {
    releaseLock();
    held = spare;
    return spare.id;
  }
  const gid = newId();
  await lockGame(gid); // a fresh id: no one else holds it
  return gid;
}

/** The reply the page gets for a table: no save, no `changed`; the game's id; storage trouble
 * if any. The game is kept only after a request that changed it (the bridge says `changed: true`), never
 * after a read. */
export async function tableReply(result) {
  const { save, changed, ...state } = result; // neither is the page's
  let kept = true;
  if (changed === true && typeof save === "string") kept = await store(state, save);
  state.game = current ? current.id : null;
  if (!kept) state.storage = "refused";
  const model = modelNote(state);
  if (model) state.model = model;
  return state;
}

// A finished game stays kept while a tab may still show it (its summary after a reload); one
// that no tab holds and that has not changed for a day was left by a tab that closed on it,
// and nothing can open it any more: it is forgotten once the engine has started and is idle.
const FINISHED_KEPT_MS = 24 * 3600 * 1000;

// The unfinished games past the bound (kept by a build before it) go at the same time.
export async function sweepFinished(letGo) {
  try {
    noteRequest();
    await whenIdle(); // after the first requests are answered
    const elsewhere = await heldElsewhere();
    const old = Date.now() - FINISHED_KEPT_MS;
    const gone = (await allGames()).filter((g) => g && g.id && g.info && g.info.over
      && (g.updated ?? 0) < old && !elsewhere.has(g.id) && g.id !== (current && current.id)).map((g) => g.id);
    if (gone.length) await tx(["games"], "readwrite", (st) => { for (const id of gone) st.games.delete(id); });
  } catch {
    // storage trouble: nothing to forget
  }
  const told = await boundGames();
  if (told.length && letGo) letGo(told);
}

// A game with a friend's seat: its friends may come back to it through this page.
const withFriend = (info) => !!info && Array.isArray(info.seats) && info.seats.some((x) => x && x.kind === "friend");
// A kept game nobody played in: dealt and left (a new deal asked for, another game resumed).
// Records of builds before `touched` count as played.
const untouched = (info) => !!info && info.touched === false && !withFriend(info);
// A record of a build before `touched` with nothing on its score yet (the first trick not taken):
// most likely a deal nobody played (a host page's new deals, say); let go before played ones.
const zero = (x) => Array.isArray(x) && x.every((v) => v === 0);
const blank = (info) => info.touched === undefined && info.deal === 0 && zero(info.score) && zero(info.side_points);

/** The game this tab moves on from is forgotten when nothing of it is lost: finished, or a
 * deal nobody played (a host page's new deals, a New game pressed at once). */
export async function dropIfDone(id) {
  try {
    const rec = await readGame(id);
    if (rec && rec.info && (rec.info.over || untouched(rec.info))) {
      await tx(["games"], "readwrite", (st) => { st.games.delete(id); });
    }
  } catch {
    // storage trouble: nothing to drop
  }
}

// The list of unfinished games is bounded: at most MAX_UNFINISHED are kept, the game on the
// table and the games open in other tabs among them. Past it the oldest go first (by their
// last change): a deal nobody played before any other, silently (nothing of anyone's is in
// it); then games a person played, the person told (`let go`), those kept by a build before
// the bound with nothing on their score first; a game with a friend's seat last of all. A game open here or in another tab is never let go. Ten is more than a
// person keeps going at once, and the list of them is read at a glance; 30 deals dealt
// one after the other keep at most ten records (docs/embedding.md has the bytes).
export const MAX_UNFINISHED = 10;

/** Let the oldest unfinished games go past MAX_UNFINISHED; what the person played of them,
 * for the page to say ([{variant, players, deal, score, friends}]). */
export async function boundGames() {
  try {
    const elsewhere = await heldElsewhere();
    // a record not well formed (no info: written by a bug, or by hand) is neither listed nor let go
    const open = (await allGames()).filter((g) => g && typeof g.id === "string" && g.info && typeof g.info === "object"
      && !g.info.over);
    const extra = open.length - MAX_UNFINISHED;
    if (extra <= 0) return [];
    const rank = (g) => (untouched(g.info) ? 0 : withFriend(g.info) ? 3 : blank(g.info) ? 1 : 2);
    const gone = open.filter((g) => g.id !== (current && current.id) && !elsewhere.has(g.id))
      .sort((a, b) => rank(a) - rank(b) || (a.updated ?? 0) - (b.updated ?? 0)).slice(0, extra);
    if (!gone.length) return [];
    await tx(["games"], "readwrite", (st) => { for (const g of gone) st.games.delete(g.id); });
    return gone.filter((g) => !untouched(g.info)).map((g) => {
      const info = g.info || {};
      return { variant: typeof info.variant === "string" ? info.variant : "", players: info.players,
        deal: info.deal, score: info.score, friends: withFriend(info) };
    });
  } catch {
    return []; // storage trouble: nothing let go
  }
}

export async function openRecord(id, record, reasonPrefix) {
  if (!(await lockGame(id))) {
    return { error: { code: "game_open_elsewhere", message: "this game is open in another tab" } };
  }
  const loaded = ask("load", { save: record.save });
  if (loaded.error) {
    releaseLock();
    const kept = await setAside(record, `${reasonPrefix}${loaded.error.code}: ${loaded.error.message}`);
    return { error: { code: kept ? "bad_save" : "bad_save_not_kept", message: loaded.error.message } };
  }
  const before = current;
  current = { id, meta: bounded(record.meta), created: Number.isFinite(record.created) ? record.created : Date.now(),
    touched: !(record.info && record.info.touched === false),
    unmodelled: Array.isArray(record.unmodelled) ? record.unmodelled.filter((d) => d && isInt(d.deal)).slice(0, 200)
      .map((d) => ({ deal: d.deal, why: typeof d.why === "string" ? d.why.slice(0, 20) : "unavailable" })) : [] };
  modelFor({});
  if (before && before.id !== id) await dropIfDone(before.id);
  return { result: loaded.result };
}

// What the list of unfinished games shows of a kept record, checked field by field: a record
// that is not well formed (written by a bug, or by hand) is left out, never shown half.
const isInt = (x, min = 0) => Number.isInteger(x) && x >= min && x < 1e9;
const numbers = (x) => Array.isArray(x) && x.length <= 12 && x.every((v) => Number.isFinite(v));
// a friend's seat (a person at another device, js/friends/): a game with friends is listed too
const isSeat = (s) => !!s && (s.kind === "human" || s.kind === "friend" || (s.kind === "bot" && typeof s.level === "string"));

export function listed(g, elsewhere) {
  const info = g && g.info;
  if (!info || typeof g.id !== "string" || info.over !== false || typeof info.variant !== "string"
    || !isInt(info.players, 1) || !Array.isArray(info.seats) || info.seats.length !== info.players
    || !info.seats.every(isSeat) || !isInt(info.deal) || !numbers(info.score) || !numbers(info.side_points)) {
    return null;
  }
  const names = Array.isArray(info.names) ? info.names.map((n) => (typeof n === "string" ? n.slice(0, 40) : "")) : [];
  return { id: g.id, meta: bounded(g.meta), updated: Number.isFinite(g.updated) ? g.updated : 0,
    open_elsewhere: elsewhere.has(g.id),
    info: { variant: info.variant, custom: info.custom === true, players: info.players,
      seats: info.seats.map((s) => (s.kind === "bot" ? { kind: "bot", level: s.level } : { kind: s.kind })),
      names, score: info.score, deal: info.deal, side_points: info.side_points,
      phase: String(info.phase), over: false } };
}

/** A kept value within the bounds of js/limits.js, else null (the page's meta, say). */
function bounded(value) {
  try {
    return value === undefined || checkJSON(JSON.stringify(value)) ? null : value;
  } catch {
    return null;
  }
}
