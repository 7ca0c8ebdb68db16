// Main-thread client of the engine worker (js/worker.js).
//
//   import { Engine } from "./engine.js";
//   const engine = await Engine.start(({ stage, fraction }) => bar.value = fraction);
//   const state = await engine.call("state", { seat: 0 });
//
// `call` resolves with the bridge's `result` and rejects with an EngineError
// whose `.code` is the bridge's error code (e.g. "illegal_action"), or one of
// the client's own: "engine_unavailable" (the worker failed or died),
// "internal" (a bug), "terminated" (terminate() was called).

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

// The start's stages as performance marks ("briscola:worker spawned", ..., the worker's own,
// "briscola:first reply"): bench/startup.py prints them, the browser's profiler shows them.
function mark(stage, startTime) {
  try {
    performance.mark(`briscola:${stage}`, startTime === undefined ? undefined : { startTime: Math.max(0, startTime) });
  } catch {
    // no User Timing here: the trace is only for measuring
  }
}

/** The worker `chosen` asks for, and handOver(), which passes on what it said until then. */
function spawn(chosen) {
  const url = chosen.url ?? new URL("./worker.js", import.meta.url);
  mark("worker spawned");
  const worker = new Worker(url, { type: chosen.type ?? "module", ...(chosen.name ? { name: chosen.name } : {}) });
  if (chosen.message !== undefined) {
    // A promise is posted once it settles (the one-file page's files, still being decoded).
    Promise.resolve(chosen.message).then((message) => worker.postMessage(message), (err) => {
      console.error("the engine's files could not be handed over:", err);
      worker.terminate();
      worker.dispatchEvent(new ErrorEvent("error", { message: "its files could not be handed over" }));
    });
  }
  // Until Engine.start listens, what the worker says is kept, to be said again then.
  const heard = [];
  const note = (event) => {
    if (event.type === "error") event.preventDefault();
    heard.push(event.type === "message" ? new MessageEvent("message", { data: event.data })
      : event.type === "error" ? new ErrorEvent("error", { message: event.message, filename: event.filename, lineno: event.lineno })
        : new MessageEvent(event.type));
  };
  const types = ["message", "messageerror", "error"];
  for (const type of types) worker.addEventListener(type, note);
  const handOver = () => {
    for (const type of types) worker.removeEventListener(type, note);
    for (const event of heard.splice(0)) worker.dispatchEvent(event);
  };
  return { worker, handOver };
}

// The worker startEarly() spawned, waiting for Engine.start.
let early = null;

/**
 * Spawn the engine's worker now, before the page's controller exists: js/start.js does this
 * while the rest of the page's modules still load. The next Engine.start() takes it over.
 */
export function startEarly() {
  if (!early) early = spawn(defaultWorker || {});
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

  constructor(worker) {
    this.#worker = worker;
  }

  /**
   * Start the worker and wait until the engine is ready.
   * @param {(p: {stage: string, fraction: number}) => void} [onProgress]
   * @param {{workerURL?: string | URL}} [options]
   * @returns {Promise<Engine>} rejects with an EngineError if the start fails
   */
  static start(onProgress, options = {}) {
    let spawned = options.workerURL ? spawn({ url: options.workerURL }) : early;
    if (!options.workerURL) early = null;
    spawned ??= spawn(defaultWorker || {});
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
          ready = true;
          if (msg.trace && typeof msg.trace === "object") {
            // The worker's stages, moved onto this page's clock.
            const shift = msg.trace.origin - performance.timeOrigin;
            for (const [stage, at] of Object.entries(msg.trace.marks || {})) mark(stage, at + shift);
          }
          engine.version = msg.version;
          engine.build = msg.build;
          resolve(engine);
        } else if (msg.type === "fatal") {
          fail(new EngineError("engine_unavailable", msg.message));
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
    return started;
  }

  /**
   * Send one request to the bridge.
   * @param {string} type the request type, e.g. "new_match"
   * @param {object} [args] JSON-serialisable arguments
   * @returns {Promise<any>} the bridge's result
   */
  call(type, args = {}) {
    if (this.#failure) return Promise.reject(this.#failure);
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      try {
        this.#worker.postMessage({ id, type, args });
      } catch (err) {
        // args that cannot be cloned (functions, DOM nodes, ...)
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
