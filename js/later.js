// The page's modules that a first deal does not run, imported when first needed: the review
// of a deal and its replay (opened from the end screen or the statistics), the puzzle of the
// day (its button), the file of a person's data (Export, Import), and the regional decks' art
// (js/decks.js: a deck picked in the settings or the New game panel, or kept in them), and
// Chiamata's panels and words (js/chiamata.js: a Chiamata deal's start awaits it). A first
// visit's start does not download them (docs/startup.md).
//
// Offline: the service worker fetches such a file when a page it controls first asks for it,
// checks it against the build and keeps it (sw.js `later`, `needed`); and once the page's
// first deal is over, or a flow of theirs is in sight (the statistics, the settings, the New
// game panel), or one of them is used, the page asks it to fetch and keep them all (`inSight`,
// `keepAll`), so that every flow works offline from then on and the click does not wait for
// the network. Before a worker
// controls the page (a first visit's first minutes) they are imported at that moment instead,
// and the worker is asked once it takes over. briscola.html, which fetches nothing, carries
// them all: its build bundles in place of this module one with the same exports that imports
// them (tools/build/onefile.py, ONE_FILE_LATER).

const sw = typeof navigator !== "undefined" && /^https?:$/.test(location.protocol) ? navigator.serviceWorker : null;
let wanted = false; // the worker is to keep them all (asked again when another takes over)

/** Ask the service worker to keep every module of this file (sw.js "keep-needed"). */
function keepAll() {
  wanted = true;
  if (sw && sw.controller) sw.controller.postMessage({ type: "keep-needed" });
}

if (sw) sw.addEventListener("controllerchange", () => { if (wanted) keepAll(); });

/** A flow of these modules is in sight (the end screen, the statistics, the settings): have them
 * in before its click, kept by the service worker, or `load`ed now where none controls the
 * page. Never fails (a module not in is fetched, or said, at the click).
 * @param {() => Promise<unknown>} [load] */
export function inSight(load = () => Promise.resolve()) {
  keepAll();
  if (!(sw && sw.controller)) load().catch(() => {});
}

/** js/review.js (and js/replay.js, which it imports). */
export function loadReview() {
  keepAll();
  return import("./review.js");
}

/** js/puzzle.js. */
export function loadPuzzle() {
  keepAll();
  return import("./puzzle.js");
}

/** js/carry.js. */
export function loadCarry() {
  keepAll();
  return import("./carry.js");
}

/** js/decks.js: the decks beyond Napoletane, Piacentine and French, registered with js/cards.js
 * as it runs. */
export function loadDecks() {
  keepAll();
  return import("./decks.js");
}

let chiamataModule = null;

/** js/chiamata.js: Chiamata's panels (registered with js/table.js as it runs) and words. */
export function loadChiamata() {
  keepAll();
  return import("./chiamata.js").then((m) => (chiamataModule = m));
}

/** js/chiamata.js once loaded (null before: a Chiamata deal's start loads it, js/play.js). */
export function chiamataIn() {
  return chiamataModule;
}
