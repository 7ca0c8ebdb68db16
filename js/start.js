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
 * @param {{type?: "module" | "classic", name?: string, message?: any, messages?: Promise<any>[]}} [options]
 *   `message` is posted to the worker as soon as it exists (a promise: once it settles);
 *   `messages`, more promises, each posted once it resolves (they must not reject)
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
  for (const more of options.messages || []) more.then((message) => worker.postMessage(message));
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

// The worker's name when this page compiles its wasm for it (below).
const HELPED = "briscola:helped";

// A later visit: a service worker serves this build (its files are in Cache Storage).
const controlled = typeof navigator !== "undefined" && !!navigator.serviceWorker?.controller;

/**
 * The longest wait of a start begins here, on the page, as soon as this script runs, instead
 * of once the worker's own script has loaded (0.1–0.3 s later): the wasm's compile (from the
 * service worker's cache on a later visit, else from the network). The worker gets the
 * compiled module as a message, "early-wasm", always sent, empty when this page could not
 * compile it (the worker then does it itself); it names the cache it came from, and the worker
 * takes only its own build's. (The engine's memory snapshot the worker reads itself, from a
 * file: js/worker.js readSnapshot.)
 */
function help(worker, root) {
  const prefix = `briscola:${root.pathname}:`;
  const send = (message) => {
    try {
      worker.postMessage(message);
    } catch {
      worker.postMessage({ type: message.type, from: null }); // the worker does it itself
    }
  };
  // A page no service worker controls (a first visit) has no cached build to read: its wasm is
  // fetched at once (opening Cache Storage on a new profile takes 0.1–0.2 s).
  const names = !controlled ? Promise.resolve([])
    : new Promise((resolve) => resolve(caches.keys()))
      .then((all) => all.filter((name) => name.startsWith(prefix) && !name.endsWith(":snapshot")), () => []);
  const wasmURL = new URL("pyodide/pyodide.asm.wasm", root).href;
  names.then(async (ours) => {
    if (typeof WebAssembly.compileStreaming !== "function") return { from: null };
    for (const name of ours) {
      const hit = await (await caches.open(name)).match(wasmURL);
      if (hit) return { from: name, module: await WebAssembly.compileStreaming(hit) };
    }
    return { from: "network", module: await WebAssembly.compileStreaming(fetch(wasmURL)) };
  }).then(({ from, module }) => {
    if (module) mark("wasm compiled");
    send({ type: "early-wasm", from, module });
  }, () => send({ type: "early-wasm", from: null }));
}

/**
 * The page's own modules (js/app.js and what it imports; <template id="page-modules"> in
 * index.html, with their modulepreload links). They start loading once the engine's worker
 * is under way (below): fetching and compiling them first delayed the worker's own start by
 * 0.2–0.3 s on a first visit, and the page needs them only when the engine is ready.
 */
let pageLoaded = false;
// A page opened from an invitation (js/friends/): it joins the host's room while its engine
// starts, and the seats it shows come from the host, not from its engine. Its modules, and the
// friends layer's (<template id="friends-modules">), load at once: waiting for the worker's
// first steps put the room 1 s after the invitation.
const invited = typeof location !== "undefined" && /^https?:$/.test(location.protocol)
  && /[?&]join=/.test(location.search);
function loadPage() {
  if (pageLoaded) return;
  pageLoaded = true;
  const later = /** @type {HTMLTemplateElement | null} */ (document.getElementById("page-modules"));
  if (!later) return;
  const nodes = document.importNode(later.content, true);
  const friends = /** @type {HTMLTemplateElement | null} */ (document.getElementById("friends-modules"));
  if (invited && friends) nodes.prepend(document.importNode(friends.content, true));
  for (const script of nodes.querySelectorAll("script")) {
    // js/guard.js shows the reload button for an error event (a script's own does not bubble).
    script.addEventListener("error", () => window.dispatchEvent(new ErrorEvent("error",
      { message: `could not load ${script.getAttribute("src")}` })));
  }
  document.head.append(nodes);
}

const carried = typeof document !== "undefined" && document.querySelector('script[type="application/octet-stream"][data-path]');
if (!carried && typeof Worker === "function") {
  early = spawn(new URL("./worker.js", import.meta.url), { name: HELPED });
  const { worker } = early; // `early` goes to js/engine.js (takeEarly) meanwhile
  help(worker, new URL("../", import.meta.url));
  // The page's modules: a first visit loads them once Pyodide's scripts are in (the worker's
  // first progress past 0); a later visit, once Python's file system is up (progress past
  // "runtime"): they then compile and run while the worker restores its snapshot, not beside
  // the wasm's compile and Pyodide's scripts, which they slowed (the engine was ready 30-40 ms
  // later).
  // Whatever else the worker says (a failure too), or 0.6 s, loads them as well.
  const tooSoon = controlled ? (msg) => msg.stage === "runtime" : (msg) => msg.stage === "runtime" && !(msg.fraction > 0);
  const moved = (event) => {
    const msg = event.data;
    if (msg && msg.type === "progress" && tooSoon(msg)) return;
    worker.removeEventListener("message", moved);
    loadPage();
  };
  if (invited) {
    loadPage();
  } else {
    worker.addEventListener("message", moved);
    worker.addEventListener("error", loadPage, { once: true });
    setTimeout(loadPage, 600);
  }
} else if (!carried && typeof document !== "undefined") {
  loadPage(); // no workers here: the page says so itself (js/app.js)
}
