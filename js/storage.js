// Everything the page keeps in localStorage: preferences, the running game, statistics.
//
// Keys (all under the "briscola." prefix):
//   prefs        the last choices of the new-game panel and the settings
//   save         the bridge's opaque `save` text of the running table
//   meta         what the page itself needs about the running game (variant chosen, names)
//   stats        per-variant statistics
//   bad-save-*   saves the bridge refused, set aside so nothing is silently lost
//
// Every access is guarded: a full, disabled or corrupt storage never breaks the game.

const P = "briscola.";

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
  } catch {
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
  write("prefs", JSON.stringify(prefs));
}

export function updatePrefs(changes) {
  const prefs = { ...loadPrefs(), ...changes };
  savePrefs(prefs);
  return prefs;
}

export function loadSave() {
  return read("save");
}

export function storeSave(text, meta) {
  write("save", text);
  if (meta !== undefined) write("meta", JSON.stringify(meta));
}

export function loadMeta() {
  return readJSON("meta", null);
}

export function storeMeta(meta) {
  write("meta", JSON.stringify(meta));
}

export function clearSave() {
  write("save", null);
  write("meta", null);
}

/** Move a refused save under another key (kept, never deleted); returns that key. */
export function setAsideSave(reason) {
  const text = read("save");
  const key = `bad-save-${new Date().toISOString().replace(/[:.]/g, "-")}`;
  if (text !== null) {
    write(key, JSON.stringify({ reason: String(reason || ""), save: text, meta: read("meta") }));
  }
  clearSave();
  return P + key;
}

// ---- statistics -------------------------------------------------------------------------

export function loadStats() {
  const s = readJSON("stats", {});
  return s && typeof s === "object" ? s : {};
}

/** Record one finished deal for `variant`, once per `dealKey`. Returns true if counted. */
export function recordDeal(variant, dealKey, result) {
  const stats = loadStats();
  const counted = Array.isArray(stats.__counted) ? stats.__counted : [];
  if (counted.includes(dealKey)) return false;
  counted.push(dealKey);
  while (counted.length > 200) counted.shift();
  stats.__counted = counted;
  const v = stats[variant] && typeof stats[variant] === "object"
    ? stats[variant] : { played: 0, won: 0, drawn: 0, lost: 0, points: 0 };
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

export function storeRating(rating) {
  const stats = loadStats();
  stats.__rating = rating;
  write("stats", JSON.stringify(stats));
}
