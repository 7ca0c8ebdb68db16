// What the page itself keeps in localStorage: preferences and statistics. The games are
// kept by the engine's worker (IndexedDB, js/worker.js): the page never holds a save.
//
// Keys (all under the "briscola." prefix):
//   prefs        the last choices of the new-game panel and the settings
//   stats        per-variant statistics, checked record by record when read
//   bad-stats-*  statistics records that were not valid, set aside (the last MAX_ASIDE of the
//                bad-* records kept; Settings lists them, each to download or remove)
//   save, meta   the running game as pages before the worker kept games wrote it: moved to
//                the worker once (legacySave, clearLegacySave), then gone
//   bad-save-*   saves an older page set aside
// sessionStorage "briscola.game": the id of the game this tab plays (a reload resumes it);
// "briscola.fair-host": the room of the table that deals fairly this tab hosts (a reload hosts
// it again: js/friends/fair-kept.js keeps the table, in IndexedDB "briscola-fair").
//
// Every access is guarded: a full, disabled or corrupt storage never breaks the game. When
// storage refuses a write, the handler given to onTrouble is called (the page tells the
// person once).

const P = "briscola.";
let trouble = null;

/** `fn(error)` is called when storage refuses a write. */
export function onTrouble(fn) {
  trouble = fn;
}

function read(key) {
  try {
    return window.localStorage.getItem(P + key);
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    if (value === null || value === undefined) window.localStorage.removeItem(P + key);
    else window.localStorage.setItem(P + key, value);
    return true;
  } catch (err) {
    if (trouble) trouble(err);
    return false;
  }
}

function readJSON(key, fallback) {
  const text = read(key);
  if (text === null) return fallback;
  try {
    const v = JSON.parse(text);
    return v === null || typeof v !== "object" ? fallback : v;
  } catch {
    return fallback;
  }
}

export function loadPrefs() {
  return readJSON("prefs", {});
}

export function savePrefs(prefs) {
  return write("prefs", JSON.stringify(prefs));
}

export function updatePrefs(changes) {
  const prefs = { ...loadPrefs(), ...changes };
  savePrefs(prefs);
  return prefs;
}

// ---- the game this tab plays, and saves of older pages ------------------------------------

export function tabGame() {
  try {
    return window.sessionStorage.getItem(P + "game");
  } catch {
    return null;
  }
}

export function setTabGame(id) {
  try {
    if (id) window.sessionStorage.setItem(P + "game", id);
    else window.sessionStorage.removeItem(P + "game");
  } catch {
    // a tab without session storage resumes from the list of games instead
  }
}

/** The room of the table that deals fairly this tab hosts, or null. */
export function tabFairTable() {
  try {
    return window.sessionStorage.getItem(P + "fair-host");
  } catch {
    return null;
  }
}

export function setTabFairTable(room) {
  try {
    if (room) window.sessionStorage.setItem(P + "fair-host", room);
    else window.sessionStorage.removeItem(P + "fair-host");
  } catch {
    // a tab without session storage: a reload of the host's page does not host the table again
  }
}

/** The save an older page kept here, with its meta: `{save, meta}` or null. */
export function legacySave() {
  const save = read("save");
  return save === null ? null : { save, meta: readJSON("meta", null) };
}

/** Keep the older page's save under a "bad-save-*" key, where no start reads it (one too
 * large for the engine to read); false when that copy could not be written. */
export function setAsideLegacySave() {
  const save = read("save");
  return save !== null && keepAside("save", save);
}

/** Forget the older page's save, once the worker has kept it (or set it aside). */
export function clearLegacySave() {
  write("save", null);
  write("meta", null);
}

// ---- statistics -------------------------------------------------------------------------

const COUNTS = ["played", "won", "drawn", "lost"];

function validRecord(v) {
  if (!v || typeof v !== "object" || Array.isArray(v)) return false;
  for (const k of COUNTS) if (!Number.isInteger(v[k]) || v[k] < 0) return false;
  if (typeof v.points !== "number" || !Number.isFinite(v.points)) return false;
  return v.won + v.drawn + v.lost === v.played;
}

/**
 * The statistics, each record checked: `{stats, setAside}`. A record that is not valid is
 * moved under a "bad-stats-*" key (kept, never deleted; left in place if that copy cannot
 * be written) and named in `setAside`; the others are returned as they are.
 */
export function checkedStats() {
  const text = read("stats");
  if (text === null) return { stats: { __counted: [] }, setAside: [] };
  let all;
  try {
    all = JSON.parse(text);
  } catch {
    all = undefined;
  }
  if (!all || typeof all !== "object" || Array.isArray(all)) {
    const kept = keepAside("stats", text);
    if (kept) write("stats", null);
    return { stats: { __counted: [] }, setAside: ["*"], kept };
  }
  const stats = {};
  const bad = {};
  for (const [k, v] of Object.entries(all)) {
    if (k.startsWith("__")) stats[k] = v;
    else if (validRecord(v)) stats[k] = v;
    else bad[k] = v;
  }
  if (!Array.isArray(stats.__counted) || !stats.__counted.every((x) => typeof x === "string")) {
    if ("__counted" in stats) bad.__counted = stats.__counted;
    stats.__counted = [];
  }
  const setAside = Object.keys(bad);
  let kept = true;
  if (setAside.length) {
    kept = keepAside("stats", JSON.stringify(bad));
    if (kept) write("stats", JSON.stringify(stats));
  }
  return { stats, setAside, kept };
}

// ---- records set aside, and the whole of what is kept here (an import's undo) -------------

const MAX_ASIDE = 20;

/** The records set aside here ("bad-stats-*", "bad-save-*"), oldest first: [{key, bytes}]. */
export function asideKeys() {
  const out = [];
  try {
    const ls = window.localStorage;
    for (let i = 0; i < ls.length; i++) {
      const k = ls.key(i);
      if (k && k.startsWith(P + "bad-")) out.push({ key: k.slice(P.length), bytes: (ls.getItem(k) || "").length });
    }
  } catch {
    return [];
  }
  // the key's stamp (an ISO time) orders them
  return out.sort((a, b) => a.key.replace(/^bad-\w+-/, "").localeCompare(b.key.replace(/^bad-\w+-/, "")));
}

/** The text of a record set aside, or null. */
export function readAside(key) {
  return /^bad-/.test(key) ? read(key) : null;
}

export function removeAside(key) {
  return /^bad-/.test(key) && write(key, null);
}

/** Keep a record aside under `bad-<kind>-<stamp>`; only the last MAX_ASIDE stay. */
function keepAside(kind, text) {
  const kept = write(`bad-${kind}-${stamp()}`, text);
  if (kept) for (const { key } of asideKeys().slice(0, -MAX_ASIDE)) write(key, null);
  return kept;
}

/** The statistics and preferences as kept now (their text), for `restoreKept`. */
export function keptNow() {
  return { stats: read("stats"), prefs: read("prefs") };
}

/** Put back what `keptNow` returned; false if storage refused. */
export function restoreKept(kept) {
  return write("stats", kept.stats) && write("prefs", kept.prefs);
}

/** Replace the statistics (rating and puzzle within) by `stats`; false if storage refused. */
export function replaceStats(stats) {
  return write("stats", JSON.stringify(stats));
}

function stamp() {
  return new Date().toISOString().replace(/[:.]/g, "-");
}

export function loadStats() {
  return checkedStats().stats;
}

/** Record one finished deal for `variant`, once per `dealKey`. Returns true if counted. A deal
 * with an undo (`result.undone`) counts only in `undone`, never as played, won, drawn or lost. */
export function recordDeal(variant, dealKey, result) {
  const stats = loadStats();
  const counted = stats.__counted;
  if (counted.includes(dealKey)) return false;
  counted.push(dealKey);
  while (counted.length > 500) counted.shift();
  const v = stats[variant] || { played: 0, won: 0, drawn: 0, lost: 0, points: 0 };
  if (result.undone) {
    v.undone = (Number.isInteger(v.undone) ? v.undone : 0) + 1;
    stats[variant] = v;
    write("stats", JSON.stringify(stats));
    return true;
  }
  v.played += 1;
  if (result.draw) v.drawn += 1;
  else if (result.won) v.won += 1;
  else v.lost += 1;
  v.points += Number(result.points) || 0;
  stats[variant] = v;
  write("stats", JSON.stringify(stats));
  return true;
}

export function resetStats() {
  write("stats", null);
}

// ---- rating (js/coach.js): kept with the statistics, so a reset clears both -------------

export function loadRating() {
  const r = loadStats().__rating;
  return r && typeof r === "object" && Array.isArray(r.history) ? r : null;
}

// ---- the puzzle of the day (js/puzzle.js): its streak, kept with the statistics ----------

/** `{last, solved, streak, best}`: the last day played, the last day solved, the days solved
 * in a row up to it, the longest run. */
export function loadPuzzle() {
  const p = loadStats().__puzzle;
  const ok = p && typeof p === "object" && Number.isInteger(p.streak) && Number.isInteger(p.best);
  return ok ? p : { last: null, solved: null, streak: 0, best: 0 };
}

/** The puzzle of `date` as it was played, `{date, solved, moves}`, or null if not yet. */
export function puzzleResult(date) {
  const d = loadPuzzle().day;
  return d && typeof d === "object" && d.date === date && typeof d.solved === "boolean"
    && Array.isArray(d.moves) && d.moves.every((m) => typeof m === "string") ? d : null;
}

/** Count the puzzle of `date` (YYYY-MM-DD) once: solved, the streak grows if the day before
 * was solved (else starts at 1); failed, it goes back to 0. The cards played are kept, so the
 * day's puzzle shows how it ended for the rest of the day. Returns the record. */
export function recordPuzzle(date, solved, moves = []) {
  const stats = loadStats();
  const p = loadPuzzle();
  if (p.last === date) return p;
  p.day = { date, solved: !!solved, moves: moves.filter((m) => typeof m === "string") };
  const before = new Date(`${date}T12:00:00Z`);
  before.setUTCDate(before.getUTCDate() - 1);
  const yesterday = before.toISOString().slice(0, 10);
  p.last = date;
  if (solved) {
    p.streak = p.solved === yesterday ? p.streak + 1 : 1;
    p.solved = date;
    p.best = Math.max(p.best, p.streak);
  } else p.streak = 0;
  stats.__puzzle = p;
  write("stats", JSON.stringify(stats));
  return p;
}

export function storeRating(rating) {
  const stats = loadStats();
  stats.__rating = rating;
  write("stats", JSON.stringify(stats));
}
