// A person's data as one file, to carry to another browser: its format, its checks, and how two
// sets of statistics merge. No DOM, no storage (tests/js/carry.mjs runs it in Node); the page's
// side is js/data.js, the worker's js/worker/carry.js.
//
// The file (JSON, `briscola-data-<date>.json`):
//   {format: "briscola/data", version: 1, exported: ISO time,
//    games:    [{id, save, meta, created, updated}]   the games the worker keeps (unfinished and
//                                                     finished), each save as the bridge wrote it
//    stats:    {variant: {played, won, drawn, lost, points, undone?}}
//    counted:  ["<game>/<deal>"]                       the deals already counted (no deal twice)
//    rating:   {rating, history: [...], levels?} | null
//    puzzle:   {last, solved, streak, best} | null
//    settings: {...}                                   the preferences (SETTINGS below)}
// `readFile` checks every field's type and size before anything is kept; the worker then reads
// every game as the engine reads a save (data_stage). A file of a later version is refused.

import { LIMITS, measureJSON } from "./limits.js";

export const FORMAT = "briscola/data";
export const VERSION = 1;
export const MAX_FILE = 20_000_000; // bytes: 200 games of the longest save are about 10 MB
export const MAX_GAMES = 200;
const MAX_VARIANTS = 200;
const MAX_COUNTED = 500; // js/storage.js keeps as many
const MAX_HISTORY = 300; // js/coach.js HISTORY

// The preferences a file carries, each with its check; others are left out (a device's own:
// the seats' tokens of the tables it joined, friendsTokens).
const str = (n) => (v) => typeof v === "string" && v.length <= n;
const bool = (v) => typeof v === "boolean";
const obj = (v) => !!v && typeof v === "object" && !Array.isArray(v);
const SETTINGS = {
  speed: str(20), style: str(20), lang: str(10), reasons: bool, showPoints: bool, tracker: bool,
  newgame: obj, sound: obj, tips: obj, friends: obj, friendsName: str(40), friendsTurn: (v) => v === null || ["string", "boolean", "number"].includes(typeof v),
};
export const SETTINGS_KEYS = Object.keys(SETTINGS);

class Refused extends Error {
  constructor(why, message) {
    super(message);
    this.why = why;
  }
}
const damaged = (message) => { throw new Refused("damaged", message); };
const isCount = (x) => Number.isInteger(x) && x >= 0 && x < 1e9;
const isNum = (x, lo, hi) => typeof x === "number" && Number.isFinite(x) && x >= lo && x <= hi;
const isDay = (x) => x === null || (typeof x === "string" && /^\d{4}-\d{2}-\d{2}$/.test(x));

/** A statistics record as js/storage.js keeps one. */
export function validRecord(v) {
  if (!obj(v)) return false;
  for (const k of ["played", "won", "drawn", "lost"]) if (!isCount(v[k])) return false;
  if (!isNum(v.points, -1e12, 1e12)) return false;
  if (v.undone !== undefined && !isCount(v.undone)) return false;
  return v.won + v.drawn + v.lost === v.played;
}

function checkGame(g, i) {
  const at = `games[${i}]`;
  if (!obj(g)) damaged(`${at}: expected an object`);
  if (typeof g.id !== "string" || !/^[0-9a-z][0-9a-z-]{0,63}$/.test(g.id)) damaged(`${at}.id: not a game's id`);
  if (typeof g.save !== "string" || g.save.length > LIMITS.bytes) damaged(`${at}.save: expected a save`);
  for (const k of ["created", "updated"]) if (!isNum(g[k], 0, 1e14)) damaged(`${at}.${k}: expected a time`);
  if (g.meta !== null && !obj(g.meta)) damaged(`${at}.meta: expected an object or null`);
  return { id: g.id, save: g.save, meta: g.meta, created: g.created, updated: g.updated };
}

function checkRating(r) {
  if (r === null) return null;
  if (!obj(r)) damaged("rating: expected an object or null");
  if (r.rating !== null && !isNum(r.rating, -1e5, 1e5)) damaged("rating.rating: expected a number");
  if (!Array.isArray(r.history) || r.history.length > MAX_HISTORY) damaged(`rating.history: expected at most ${MAX_HISTORY} entries`);
  const history = r.history.map((x, i) => {
    const at = `rating.history[${i}]`;
    if (!obj(x)) damaged(`${at}: expected an object`);
    if (!isNum(x.at, 0, 1e14)) damaged(`${at}.at: expected a time`);
    if (!str(20)(x.level) || !str(40)(x.variant)) damaged(`${at}: expected a level and a variant`);
    if (![0, 0.5, 1].includes(x.score)) damaged(`${at}.score: expected 0, 0.5 or 1`);
    if (x.rating !== null && !isNum(x.rating, -1e5, 1e5)) damaged(`${at}.rating: expected a number`);
    const out = { at: x.at, level: x.level, score: x.score, variant: x.variant, rating: x.rating };
    if (x.undo === true) out.undo = true;
    if (x.replay === true) out.replay = true;
    return out;
  });
  const out = { rating: r.rating, history };
  if (r.levels !== undefined) {
    if (!obj(r.levels) || Object.keys(r.levels).length > 10
      || !Object.entries(r.levels).every(([k, v]) => k.length <= 20 && isNum(v, -1e5, 1e5))) damaged("rating.levels: expected the levels' ratings");
    out.levels = { ...r.levels };
  }
  return out;
}

function checkPuzzle(p) {
  if (p === null) return null;
  if (!obj(p) || !isDay(p.last) || !isDay(p.solved) || !isCount(p.streak) || !isCount(p.best)) damaged("puzzle: expected {last, solved, streak, best}");
  return { last: p.last, solved: p.solved, streak: p.streak, best: p.best };
}

function checkSettings(s) {
  if (!obj(s)) damaged("settings: expected an object");
  const out = {};
  for (const [k, check] of Object.entries(SETTINGS)) {
    if (!(k in s)) continue;
    if (!check(s[k])) damaged(`settings.${k}: not a value the page keeps`);
    out[k] = s[k];
  }
  return out;
}

/**
 * The file's text checked: `{value}` (its fields as the page keeps them), or `{error: {why,
 * message}}`: `why` is "size" (too large, or nested too deep), "format" (not JSON, or not a file
 * of this site's data), "version" (a later version's) or "damaged" (a field not as it should be:
 * `message` names it). Nothing is read past the first refusal.
 */
export function readFile(text) {
  try {
    if (typeof text !== "string") throw new Refused("format", "expected text");
    if (text.length > MAX_FILE) throw new Refused("size", `more than ${MAX_FILE} bytes`);
    const m = measureJSON(text, LIMITS.depth);
    if (m.depth > LIMITS.depth) throw new Refused("size", `nested deeper than ${LIMITS.depth} levels`);
    if (m.bytes > MAX_FILE) throw new Refused("size", `more than ${MAX_FILE} bytes`);
    // the saves are strings (their values not counted here): a real file has a few thousand
    if (m.items > LIMITS.items) throw new Refused("size", `more than ${LIMITS.items} values`);
    let data;
    try {
      data = JSON.parse(text);
    } catch (err) {
      throw new Refused("format", `not JSON (${String(err.message).slice(0, 80)})`);
    }
    if (!obj(data) || data.format !== FORMAT) throw new Refused("format", "not a file of this site's data");
    if (data.version !== VERSION) {
      throw new Refused(Number.isInteger(data.version) && data.version > VERSION ? "version" : "damaged",
        `version ${String(data.version).slice(0, 20)}`);
    }
    if (!Array.isArray(data.games) || data.games.length > MAX_GAMES) damaged(`games: expected at most ${MAX_GAMES} games`);
    const games = data.games.map(checkGame);
    const ids = new Set(games.map((g) => g.id));
    if (ids.size !== games.length) damaged("games: a game is there twice");
    if (!obj(data.stats) || Object.keys(data.stats).length > MAX_VARIANTS) damaged("stats: expected the statistics");
    const stats = {};
    for (const [k, v] of Object.entries(data.stats)) {
      if (!/^[a-z0-9_-]{1,40}\*?$/i.test(k) || k.startsWith("__")) damaged(`stats: ${JSON.stringify(k.slice(0, 40))} is not a variant`);
      if (!validRecord(v)) damaged(`stats.${k}: not a statistics record`);
      stats[k] = { played: v.played, won: v.won, drawn: v.drawn, lost: v.lost, points: v.points, ...(v.undone ? { undone: v.undone } : {}) };
    }
    if (!Array.isArray(data.counted) || data.counted.length > MAX_COUNTED
      || !data.counted.every(str(200))) damaged(`counted: expected at most ${MAX_COUNTED} deals`);
    return { value: { games, stats, counted: [...data.counted], rating: checkRating(data.rating ?? null),
      puzzle: checkPuzzle(data.puzzle ?? null), settings: checkSettings(data.settings ?? {}) } };
  } catch (err) {
    if (err instanceof Refused) return { error: { why: err.why, message: err.message.slice(0, 200) } };
    throw err;
  }
}

/** The file for `games` (the worker's data_export), `stats` (js/storage.js's, with its
 * __counted, __rating, __puzzle) and the preferences `prefs`. */
export function makeFile(games, stats, prefs, now = new Date()) {
  const variants = {};
  for (const [k, v] of Object.entries(stats || {})) if (!k.startsWith("__") && validRecord(v)) variants[k] = v;
  const settings = {};
  for (const k of SETTINGS_KEYS) if (prefs && k in prefs) settings[k] = prefs[k];
  return {
    format: FORMAT, version: VERSION, exported: now.toISOString(),
    games: games.map((g) => ({ id: g.id, save: g.save, meta: g.meta ?? null,
      created: Number.isFinite(g.created) ? g.created : now.getTime(), updated: Number.isFinite(g.updated) ? g.updated : now.getTime() })),
    stats: variants,
    counted: Array.isArray(stats && stats.__counted) ? stats.__counted.filter((x) => typeof x === "string") : [],
    rating: stats && stats.__rating && Array.isArray(stats.__rating.history) ? stats.__rating : null,
    puzzle: stats && stats.__puzzle && Number.isInteger(stats.__puzzle.streak) ? stats.__puzzle : null,
    settings,
  };
}

const lastAt = (r) => (r && r.history.length ? r.history[r.history.length - 1].at : -1);

/**
 * The statistics kept after an import (js/storage.js's object): "replace" keeps the file's;
 * "merge" keeps, for each variant, the record of more deals played (two browsers' counts
 * cannot be added: a file read back into the browser it came from would count every deal
 * twice), the deals counted in either, the rating of the later rated deal, and the puzzle's
 * streak of the later day played with the best of both.
 */
export function mergeStats(mine, file, mode) {
  const fromFile = { ...file.stats, __counted: file.counted.slice(-MAX_COUNTED) };
  if (file.rating) fromFile.__rating = file.rating;
  if (file.puzzle) fromFile.__puzzle = file.puzzle;
  if (mode === "replace") return fromFile;
  const out = { ...fromFile };
  for (const [k, v] of Object.entries(mine)) {
    if (k.startsWith("__")) continue;
    const theirs = out[k];
    if (!theirs || v.played > theirs.played || (v.played === theirs.played && (v.undone || 0) > (theirs.undone || 0))) out[k] = v;
  }
  const counted = Array.isArray(mine.__counted) ? mine.__counted : [];
  out.__counted = [...new Set([...counted, ...fromFile.__counted])].slice(-MAX_COUNTED);
  const r = mine.__rating && Array.isArray(mine.__rating.history) ? mine.__rating : null;
  if (r && (!file.rating || lastAt(r) >= lastAt(file.rating))) out.__rating = r;
  const p = mine.__puzzle && Number.isInteger(mine.__puzzle.best) ? mine.__puzzle : null;
  if (p) {
    const q = file.puzzle;
    const later = !q || (p.last || "") >= (q.last || "") ? p : q;
    out.__puzzle = { ...later, best: Math.max(p.best, q ? q.best : 0) };
  }
  return out;
}

/** The preferences kept after an import: "replace" takes the file's (this device's own kept);
 * "merge" keeps this browser's and takes of the file's only what is not set here. */
export function mergeSettings(mine, file, mode) {
  const own = {};
  for (const [k, v] of Object.entries(mine)) if (!SETTINGS_KEYS.includes(k)) own[k] = v;
  return mode === "replace" ? { ...own, ...file.settings } : { ...file.settings, ...mine };
}
