// Where the engine's worker runs, and when: the site's root and the cache names of sw.js,
// the start-up trace, and the moments the page is quiet (work that can wait waits for them).
// A module of js/worker.js (bundled into it by the build, tools/build/worker.py).

import { BUILD } from "../build-info.js";

// The start-up trace: when each stage ended (js/worker.js, "ready"). The first mark is the
// moment the worker's script runs.
export const trace = {};
export const mark = (stage) => {
  if (!(stage in trace)) trace[stage] = performance.now();
};
mark("worker script");

export const CARRIED = self.name.startsWith("briscola:carried");
// The site's root: the folder above js/worker.js, whose URL is this worker's location (the
// same whether this module runs bundled into it or beside it).
export const SITE_ROOT = CARRIED ? new URL("https://briscola.invalid/") : new URL("../", self.location.href);
// The cache names of sw.js: "briscola:<site path>:<build hash>", plus ":snapshot".
export const CACHE_PREFIX = `briscola:${SITE_ROOT.pathname}:`;
export const SITE_CACHE = `${CACHE_PREFIX}${BUILD.hash}`; // sw.js's CACHE

export const siteURL = (path) => new URL(path, SITE_ROOT).href;

// Work that can wait (packing a snapshot, forgetting old games) waits until the page's first
// requests are answered and none has come for a moment, so the first deal does not wait.
let lastRequest = 0;
/** Count from now, as if a request had just come. */
export function noteRequest() {
  lastRequest = performance.now();
}
self.addEventListener("message", noteRequest);
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export async function whenIdle(quiet = 400) {
  for (let wait = quiet; wait > 0; wait = lastRequest + quiet - performance.now()) await sleep(wait);
}

// Bytes (an ArrayBuffer or a Uint8Array) as lowercase hexadecimal.
export const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
