// Spawns the engine's worker the moment this script runs. It imports nothing, so the browser
// runs it as soon as its own bytes are here, while the page's other modules still download:
// the worker's downloads and Python's start wait for none of the table's code.
// js/engine.js takes the worker over (Engine.start) and spawns its workers with spawn().
//
// The one-file page (briscola.html) carries the engine's files and starts its own worker from
// them (js/engine.js setWorker): there, nothing is spawned here.

/** A performance mark of the start's trace ("briscola:<stage>"; bench/startup.py prints them). */
export function mark(stage, startTime) {
  try {
    performance.mark(`briscola:${stage}`, startTime === undefined ? undefined : { startTime: Math.max(0, startTime) });
  } catch {
    // no User Timing here: the trace is only for measuring
  }
}

/**
 * Start a worker, keeping what it says until someone listens.
 * @param {string | URL} url
 * @param {{type?: "module" | "classic", name?: string, message?: any}} [options]
 *   `message` is posted to the worker as soon as it exists (a promise: once it settles)
 * @returns {{worker: Worker, handOver: () => void}} handOver() says again, in order, what the
 *   worker said until then (after the caller has added its own listeners)
 */
export function spawn(url, options = {}) {
  mark("worker spawned");
  const worker = new Worker(url, { type: options.type ?? "module", ...(options.name ? { name: options.name } : {}) });
  if (options.message !== undefined) {
    // A promise is posted once it settles (the one-file page's files, still being decoded).
    Promise.resolve(options.message).then((message) => worker.postMessage(message), (err) => {
      console.error("the engine's files could not be handed over:", err);
      worker.terminate();
      worker.dispatchEvent(new ErrorEvent("error", { message: "its files could not be handed over" }));
    });
  }
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

let early = null;

/** The worker spawned when this script ran, once (null after, or where none was). */
export function takeEarly() {
  const taken = early;
  early = null;
  return taken;
}

const carried = typeof document !== "undefined" && document.querySelector('script[type="application/octet-stream"][data-path]');
if (!carried && typeof Worker === "function") early = spawn(new URL("./worker.js", import.meta.url));
