// Main-thread client of the engine worker (js/worker.js).
//
//   import { Engine } from "./engine.js";
//   const engine = await Engine.start(({ stage, fraction }) => bar.value = fraction);
//   const state = await engine.call("state", { seat: 0 });
//
// `call` resolves with the bridge's `result` and rejects with an EngineError
// whose `.code` is the bridge's error code (e.g. "illegal_action"), or one of
// the client's own: "engine_unavailable" (the worker failed or died),
// "internal" (a bug), "terminated" (terminate() was called), "build_mismatch"
// (the worker is another build's: Engine.start rejects with it, see below).
// A request the worker could not read at all (js/worker.js "unreadable") rejects with
// "bad_request", as a type that is not a short text does at once.
//
// A page never runs against another build's worker: this file carries its build's hash
// (PAGE_BUILD, written by the build), says it to the worker first ({type: "page", build}) and
// compares the worker's at "ready" (README: one build at a time).

import { mark, spawn, takeEarly } from "./start.js";

export const PAGE_BUILD = null;

// The worker Engine.start runs when not told otherwise: js/worker.js beside this file, or
// what setWorker() chose (the one-file page, briscola.html: a classic script from a blob:
// URL, which first gets the files the page carries as a message).
let defaultWorker = null;

/**
 * @param {string | URL} url
 * @param {{type?: "module" | "classic", name?: string, message?: any}} [options]
 *   `message` is posted to the worker as soon as it exists (a promise: once it resolves)
 */
export function setWorker(url, options = {}) {
  defaultWorker = { url, ...options };
}

// The start's stages are performance marks ("briscola:worker spawned", ..., the worker's own,
// "briscola:first reply"): bench/startup.py prints them, the browser's profiler shows them.

// The worker js/start.js or startEarly() spawned, waiting for Engine.start.
let early = null;

/** The worker setWorker() chose, or js/worker.js beside this file. */
function spawnChosen() {
  const chosen = defaultWorker || {};
  return spawn(chosen.url ?? new URL("./worker.js", import.meta.url), chosen);
}

/**
 * Spawn the engine's worker now, before the page's controller exists, unless js/start.js
 * already has (the one-file page calls this once its worker is chosen). The next
 * Engine.start() takes it over.
 */
export function startEarly() {
  early ??= takeEarly() ?? spawnChosen();
}

export class EngineError extends Error {
  constructor(code, message) {
    super(message);
    this.name = "EngineError";
    this.code = code;
  }
}

export class Engine {
  #worker;
  #pending = new Map(); // id -> {resolve, reject}
  #nextId = 1;
  #failure = null; // an EngineError once the worker is unusable

  /** Called with an EngineError if the worker dies after it was ready. */
  onfatal = null;
  /** Called when the engine's worker says a write of the games' storage was refused after it
   * had already answered (a new deal is shown before it is kept). */
  onstorage = null;
  onletgo = null; // ({games}): unfinished games a person played, let go past the bound kept

  constructor(worker) {
    this.#worker = worker;
  }

  /**
   * Start the worker and wait until the engine is ready.
   * @param {(p: {stage: string, fraction: number}) => void} [onProgress]
   * @param {{workerURL?: string | URL, first?: [string, object]}} [options]
   *   `first`: a request sent at once, before the engine is ready (the worker answers it as
   *   soon as it is): its reply is the promise `engine.first`
   * @returns {Promise<Engine>} rejects with an EngineError if the start fails
   */
  static start(onProgress, options = {}) {
    let spawned = options.workerURL ? spawn(options.workerURL) : early ?? (defaultWorker ? null : takeEarly());
    if (!options.workerURL) early = null;
    spawned ??= spawnChosen();
    const { worker, handOver } = spawned;
    const engine = new Engine(worker);
    const started = new Promise((resolve, reject) => {
      let ready = false;
      const fail = (err) => {
        const first = engine.#failure === null;
        engine.#fail(err);
        if (!ready) {
          worker.terminate();
          reject(err);
        } else if (first && typeof engine.onfatal === "function") {
          engine.onfatal(err);
        }
      };
      worker.addEventListener("message", (event) => {
        const msg = event.data;
        if (!msg || typeof msg !== "object") return;
        if (msg.id !== undefined) return engine.#settle(msg);
        if (msg.type === "progress") {
          if (onProgress) {
            try {
              onProgress({ stage: msg.stage, fraction: msg.fraction });
            } catch (err) {
              console.error(err);
            }
          }
        } else if (msg.type === "ready") {
          if (PAGE_BUILD && msg.build !== PAGE_BUILD) {
            return fail(new EngineError("build_mismatch", `this page is build ${PAGE_BUILD}, its engine build ${msg.build}`));
          }
          ready = true;
          if (msg.trace && typeof msg.trace === "object") {
            // The worker's stages, moved onto this page's clock.
            const shift = msg.trace.origin - performance.timeOrigin;
            for (const [stage, at] of Object.entries(msg.trace.marks || {})) mark(stage, at + shift);
          }
          engine.version = msg.version;
          engine.build = msg.build;
          resolve(engine);
        } else if (msg.type === "unreadable") {
          engine.#unreadable(msg);
        } else if (msg.type === "storage") {
          if (typeof engine.onstorage === "function") engine.onstorage(msg);
        } else if (msg.type === "let-go") {
          if (typeof engine.onletgo === "function") engine.onletgo(msg);
        } else if (msg.type === "fatal") {
          fail(new EngineError(msg.code === "build_mismatch" ? msg.code : "engine_unavailable", msg.message));
        }
      });
      // A script that fails to load or throws outside a request, or a
      // worker the browser killed.
      worker.addEventListener("error", (event) => {
        event.preventDefault?.();
        const where = event.filename ? ` (${event.filename}:${event.lineno})` : "";
        fail(new EngineError("engine_unavailable",
          `the engine worker failed: ${event.message || "it could not be loaded"}${where}`));
      });
      worker.addEventListener("messageerror", () => {
        fail(new EngineError("internal", "a message from the engine worker could not be read"));
      });
    });
    handOver(); // what it said before anyone listened (spawned by startEarly()), in order
    worker.postMessage({ type: "page", build: PAGE_BUILD });
    if (options.first) {
      engine.first = engine.call(...options.first);
      engine.first.catch(() => {}); // a failed start says so itself
    }
    return started;
  }

  /**
   * Send one request to the bridge.
   * @param {string} type the request type, e.g. "new_match"
   * @param {object} [args] JSON-serialisable arguments, sent as JSON text (the worker measures
   *   it before anything parses it; a deep object could not even be read there)
   * @returns {Promise<any>} the bridge's result
   */
  call(type, args = {}) {
    if (this.#failure) return Promise.reject(this.#failure);
    if (typeof type !== "string" || type.length > 64) {
      return Promise.reject(new EngineError("bad_request", "a request's type is a short text"));
    }
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      try {
        this.#worker.postMessage({ id, type, args: JSON.stringify(args) });
      } catch (err) {
        // args that are not JSON (nested past the stack, a cycle, a BigInt)
        this.#pending.delete(id);
        reject(new EngineError("bad_request", `cannot send the request: ${err.message}`));
      }
    });
  }

  /** Stop the worker; pending and later calls reject with code "terminated". */
  terminate() {
    this.#worker.terminate();
    this.#fail(new EngineError("terminated", "the engine was stopped"));
  }

  /** The worker could not read a message (js/worker.js: {after, nth}): the nth this engine
   * sent after request `after` (0: after its first message, the page's build; null: the nth
   * from the start, the page's build first), request `after + nth`: rejected, as the worker
   * will never answer it. */
  #unreadable({ after, nth }) {
    if (!Number.isInteger(nth) || nth < 1 || (after !== null && !Number.isInteger(after))) return;
    const id = after === null ? nth - 1 : after + nth;
    const waiter = this.#pending.get(id);
    if (!waiter) return;
    this.#pending.delete(id);
    waiter.reject(new EngineError("bad_request",
      "the engine could not read this request (the browser could not pass it to the engine's worker)"));
  }

  #settle(msg) {
    if (msg.id === 1) mark("first reply");
    const waiter = this.#pending.get(msg.id);
    if (!waiter) return;
    this.#pending.delete(msg.id);
    if (msg.error) {
      waiter.reject(new EngineError(String(msg.error.code ?? "error"),
        String(msg.error.message ?? "unknown error")));
    } else {
      waiter.resolve(msg.result);
    }
  }

  #fail(err) {
    if (this.#failure === null) this.#failure = err;
    for (const { reject } of this.#pending.values()) reject(this.#failure);
    this.#pending.clear();
  }
}

// ---- the friends layer of this build --------------------------------------------------------

/** A build's hash from the text of its js/build-info.js, or null. */
const hashOf = (text) => (/"hash":\s*"([0-9a-f]+)"/.exec(text) || [])[1] ?? null;

/** The build the site serves this page now: its service worker's (from its cache, whatever
 * build has taken over since this page loaded), or without one the host's; with `host`, the
 * host's in any case (a query is never answered from the worker's cache, sw.js). */
async function servedBuild(host = false) {
  const url = new URL("build-info.js", import.meta.url);
  if (host) url.search = `?now=${Date.now()}`;
  const res = await fetch(url, { cache: host ? "no-store" : "no-cache" });
  return res.ok ? hashOf(await res.text()) : null;
}

const otherBuild = (served) => new EngineError("build_mismatch", `this page is build ${PAGE_BUILD}, the site serves build ${served}`);

/**
 * The friends layer (js/friends/index.js, and the libraries it opens rooms with), loaded only
 * if it is this page's build: the build its service worker serves (a new build's, if one took
 * over since this page loaded: another tab let it) and the host's are checked first, and the
 * service worker's again once it has loaded, so a takeover meanwhile is caught too. Rejects
 * with an EngineError "build_mismatch" when either is another build: the page reloads into
 * one before a table starts (js/app.js). The service worker itself never serves a friends
 * file of another build than its own (sw.js `later`). In the source tree (no build), as it is.
 */
export async function friendsOfThisBuild() {
  if (!PAGE_BUILD) return import("./friends/index.js");
  const check = async (host) => {
    const served = await servedBuild(host);
    if (served !== PAGE_BUILD) throw otherBuild(served);
  };
  await check(false);
  await check(true); // a table with friends needs the host anyway: one deployed since, a reload
  const [friends] = await Promise.all([import("./friends/index.js"), import("./friends/vendor.js")]);
  await check(false);
  return friends;
}

/** A newer build's service worker waiting (the page found the site serves another build): let it
 * take over, so that the reload that follows loads that build. */
export async function letNewBuildIn() {
  try {
    const reg = await navigator.serviceWorker.getRegistration();
    if (!reg || !reg.waiting) return;
    const changed = new Promise((done) => {
      navigator.serviceWorker.addEventListener("controllerchange", done, { once: true });
      setTimeout(done, 5000);
    });
    reg.waiting.postMessage({ type: "skip-waiting" });
    await changed;
  } catch {
    // no service worker here: the reload asks the host
  }
}
