// Models loaded when their variant is played. A module of js/worker.js (bundled into it by
// the build, tools/build/worker.py).
//
// The engine's wheel carries the learned evaluations of two- and four-player Briscola and of
// Chiamata; every other variant's is a file of its own (BUILD.models: name -> {path, sha256},
// tools/build/models.py), so that a first visit downloads none of them. When a game starts
// (new_match, resume, import_save), the worker asks Python which model its rules need (the
// bridge's `model`) and, if the engine lacks one this build ships apart, fetches the file,
// checks its SHA-256 and installs it (briscola.ai.learn.install). The game's reply goes out
// at once; the requests that search (SEARCHING) wait for the install. The download starts
// earlier, when the page checks the rules chosen (`check_rules`: the New game panel, the
// embed), so it is usually here by the time the game starts. The file is kept in the build's
// cache once fetched (sw.js `keep`): a later visit offline plays the variant with its model.
// A model that cannot be had is a warning, never an error: the computer players play their
// heuristic, as where no model fits, and the next game of the variant tries again. The page is
// told (`tableModel`, the table's replies' `model`): an expert that decides without its model
// plays on rules of thumb, and says so on the table, with why: the device is offline, the
// model was still downloading, the host did not serve it, or it did not check out.

import { BUILD } from "../build-info.js";
import { ask, installModel } from "./bridge.js";
import { CARRIED, SITE_CACHE, hex, siteURL } from "./site.js";

const MODELS = BUILD.models ?? {};
// The requests that search (`searches` in the engine's table of requests, py/briscola/protocol.py:
// the worker reads it from the bridge when it starts, knowRequests()).
export const SEARCHING = new Set();

/** The engine's table of requests (the bridge's `requests`: {name: row}) is known. */
export function knowRequests(rows) {
  for (const [name, row] of Object.entries(rows)) if (row.searches) SEARCHING.add(name);
}
export const MODEL_WAIT_MS = 8000; // the most a search waits for a download that hangs (then without)
const modelInstalls = new Map(); // name -> Promise<boolean>, while pending or once installed
export let installing = null; // the install of the game on the table (a promise that never rejects)
// name -> {state: "downloading" | "installed" | "missing", why}: why a model is missing,
// "offline" (no network), "unavailable" (the host answered with an error) or "damaged" (not
// this build's file), or, while its download is still on the way, "downloading"
const modelStates = new Map();
let tableName = null; // the model the game on the table needs, where this build ships it apart

/** Why fetching or checking a model failed, in one word for the page. */
function whyMissing(err) {
  if (err && err.name === "TypeError") return "offline"; // fetch found no network (or no server)
  return /SHA-256/.test(String(err && err.message)) ? "damaged" : "unavailable";
}

/** Model `name`'s file (an ArrayBuffer), checked against the build's SHA-256: from this
 * build's cache (sw.js's, which answers the page from it), else fetched and put there, so that
 * a later visit offline has it (whether or not the service worker controlled this worker when
 * it fetched). */
async function modelBytes(name) {
  const { path, sha256 } = MODELS[name];
  const url = siteURL(path);
  const cache = CARRIED || typeof caches === "undefined" ? null
    : await caches.open(SITE_CACHE).catch(() => null);
  const hit = cache && (await cache.match(url).catch(() => undefined));
  const res = hit || (await fetch(url));
  if (!res.ok) throw new Error(`${path}: HTTP ${res.status}`);
  const bytes = await res.arrayBuffer();
  // crypto.subtle is there wherever a service worker is (secure contexts); elsewhere the file
  // is taken as the engine's own wheel is, from the same site.
  if (self.crypto && crypto.subtle && hex(await crypto.subtle.digest("SHA-256", bytes)) !== sha256) {
    if (hit) cache.delete(url).catch(() => {});
    throw new Error(`${path}: not this build's file (SHA-256)`);
  }
  if (cache && !hit) {
    // As sw.js keeps its files: with their integrity (a new build's install copies it over).
    const integrity = "sha256-" + btoa(String.fromCharCode(...sha256.match(/../g).map((h) => parseInt(h, 16))));
    const headers = { "Content-Type": "application/octet-stream", "X-Briscola-Integrity": integrity };
    cache.put(url, new Response(bytes.slice(0), { headers })).catch(() => {});
  }
  return bytes;
}

/** Install model `name` once (a failure is tried again next time); true once installed. */
function installOnce(name) {
  let done = modelInstalls.get(name);
  if (!done) {
    modelStates.set(name, { state: "downloading", why: "downloading" });
    done = modelBytes(name).then((bytes) => {
      installModel(name, bytes);
      modelStates.set(name, { state: "installed", why: null });
      return true;
    }).catch((err) => {
      modelInstalls.delete(name);
      modelStates.set(name, { state: "missing", why: whyMissing(err) });
      console.warn(`the ${name} model could not be loaded (${err && err.message ? err.message : err}); `
        + "the computer players play without it");
      return false;
    });
    modelInstalls.set(name, done);
  }
  return done;
}

/** Get the model of `args.rules` (without: the table's) if the engine lacks one this build
 * ships apart; for the table's, the searching requests wait for it from now on. Returns the
 * install (a promise of whether it is installed), or null when none is needed. */
export function modelFor(args) {
  const need = ask("model", args);
  const name = need.result && !need.result.installed ? need.result.name : null;
  const done = name !== null && Object.hasOwn(MODELS, name) ? installOnce(name) : null;
  if (!("rules" in args)) {
    installing = done;
    tableName = done ? name : null;
  }
  return done;
}

/** The table's model, where this build ships it apart and the engine has it not (yet):
 * {name, why} ("downloading" while on its way), else null (installed, or none needed). */
export function tableModel() {
  const st = tableName === null ? null : modelStates.get(tableName);
  return st && st.state !== "installed" ? { name: tableName, why: st.why } : null;
}
