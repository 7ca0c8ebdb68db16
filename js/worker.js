// The engine's module Web Worker: runs the Python package `briscola` in Pyodide.
//
// Start with `new Worker(new URL("./worker.js", import.meta.url), {type: "module"})`
// (js/engine.js does this). Every URL is resolved against this file's own URL,
// so the site works under any sub-path. The one-file page (briscola.html) starts
// it from a blob: URL instead, with the files it carries (see below).
//
// Messages to the page:
//   {type: "progress", stage, fraction}   while starting; fraction in [0, 1]
//   {type: "ready", version, build, trace} the engine answers requests from now on; `trace`
//                                          is {origin, marks: {stage: ms}}, when each start-up
//                                          stage ended, in ms after `origin` (this worker's
//                                          performance.timeOrigin): js/engine.js makes them
//                                          performance marks on the page's clock
//   {type: "fatal", message, code}         it never will (failed start, or Python died:
//                                          engine_unavailable; a page of another build than
//                                          this worker's: build_mismatch)
//   {type: "storage", state: "refused"}    a new deal's save could not be written
//   {type: "let-go", games, max}           unfinished games a person played were let go, past
//                                          the bound of kept games (js/worker/games.js):
//                                          [{variant, players, deal, score, friends}]
// From the page, first: {type: "page", build} its build's hash (null: unknown, the source tree).
// Requests from the page: {id, type, args} (args: JSON text); replies: {id, result} or
// {id, error: {code, message}}. Requests sent before "ready" wait for it. A message it cannot
// read at all: {type: "unreadable", after, nth} (the nth message after request `after`).
// Only JSON-shaped data crosses: the bridge takes and returns JSON text, and every text is
// measured against the bounds of js/limits.js before Python parses it (`handle`, and `ask` in
// js/worker/bridge.js).
//
// The worker owns hidden information (see "Keeping the games", js/worker/games.js): the bridge's
// `save` (it holds the match's seed, so it determines every hidden card) never goes to
// the page. The worker keeps each game's save in IndexedDB under a game id, answers
// the page with views, and offers the unfinished games to resume.
//
// The start: Pyodide's two scripts load side by side, the wasm, the trimmed stdlib
// and the engine (the wheel, put on sys.path as a zip: zipimport reads its bytecode
// as it is, no install step) download meanwhile. After the first start the worker
// keeps a memory snapshot of the interpreter with the engine imported (Cache
// Storage, named by the build hash); later starts restore it instead of starting
// Python and importing everything again (js/worker/snapshot.js).
//
// The one-file page (briscola.html) cannot fetch anything from file://: it starts
// this worker as a classic script that also holds Pyodide's two scripts (build.py
// writes it), names it "briscola:carried" (or "briscola:carried:helped", see HELPED below),
// and first posts the other files
// ({type: "carried", files: {path: {blob, type, gzip}}}); fetches are answered
// from those.

// The build writes the facts of js/build-info.js in place of this line (tools/build/onefile.py
// inline_build): the worker's start does not wait for a second module.
import { BUILD } from "./build-info.js";
// The bounds of every JSON text before Python parses it (inlined by the build the same way).
import { checkJSON } from "./limits.js";
// Its parts, one job a module (js/worker/; the build bundles them into the js/worker.js it
// ships, in this order: tools/build/worker.py).
import { CARRIED, SITE_CACHE, SITE_ROOT, mark, siteURL, sleep, trace } from "./worker/site.js";
import { ask, connect, dead, errorReply, fatal } from "./worker/bridge.js";
import { SNAPSHOT_CACHE, SnapshotStandIn, dropSnapshotFile, readSnapshot, restoring, snapshots,
  storeSnapshot } from "./worker/snapshot.js";
import { MODEL_WAIT_MS, SEARCHING, installing, knowRequests, modelFor } from "./worker/models.js";
import { MAX_UNFINISHED, allGames, boundGames, current, dropIfDone, heldElsewhere, listed, lockNewGame, newId, openDB,
  modelNote, noteDecision, openRecord, readGame, setCurrent, store, sweepFinished, tableReply, takeSpareLock, touch }
  from "./worker/games.js";
import { CARRY, carry } from "./worker/carry.js";

const PYODIDE_URL = new URL("pyodide/", SITE_ROOT);
const ENGINE_ZIP = "/lib/briscola-engine.zip"; // where the wheel goes in Pyodide's file system

if (CARRIED) {
  const carried = new Promise((resolve) => {
    self.addEventListener("message", function first(event) {
      if (!event.data || event.data.type !== "carried") return;
      self.removeEventListener("message", first);
      resolve(event.data.files);
    });
  });
  self.fetch = async (input) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const files = await carried;
    const file = url.startsWith(SITE_ROOT.href) ? files[url.slice(SITE_ROOT.href.length)] : undefined;
    if (!file) throw new TypeError(`${url} is not carried in this page`);
    const body = file.gzip ? file.blob.stream().pipeThrough(new DecompressionStream("gzip")) : file.blob;
    return new Response(body, { headers: { "Content-Type": file.type } });
  };
}

// The two big downloads start at once, before Pyodide's scripts have loaded, and the wasm is
// compiled while it arrives (compileStreaming) and while those scripts load: Pyodide's own
// fetch of the stdlib gets the early response, and its instantiateStreaming the early module.
// (Pyodide's fetch of the wasm is then never made: it is started only if the early compile
// failed, and Pyodide's own compile is the fallback.)
// On a later visit both are read straight from the service worker's cache (sw.js keeps the
// site's files there, checked against the build): nothing waits for the service worker
// (which a restarted browser must first start) to answer, or for the one to stream the
// other's bytes.
const WASM_URL = siteURL("pyodide/pyodide.asm.wasm");
let earlyModule = null; // a promise of the compiled module, until Pyodide takes it
let realFetchOf = (url) => fetch(url);
const siteCache = CARRIED || typeof caches === "undefined" ? Promise.resolve(null)
  : caches.has(SITE_CACHE).then((has) => (has ? caches.open(SITE_CACHE) : null)).catch(() => null);
async function fromSite(url) {
  const cache = await siteCache;
  const hit = cache && (await cache.match(url).catch(() => undefined));
  return hit || realFetchOf(url);
}
// Started by js/start.js ("briscola:helped"): the page compiles the wasm for this worker, from
// the moment it spawned it, and sends the module as a message ("early-wasm"): one from another
// build's cache, or none, and it is compiled here. The one-file page
// ("briscola:carried:helped") compiles the wasm it carries the same way.
const HELPED = self.name.endsWith(":helped");
/** The module the page compiled, when it is this build's (its bytes carried here, fetched, or
 * from this build's cache); else null. */
const pageWasm = !HELPED ? Promise.resolve(null) : new Promise((resolve) => {
  self.addEventListener("message", function got(event) {
    if (!event.data || event.data.type !== "early-wasm") return;
    self.removeEventListener("message", got);
    const { from, module } = event.data;
    const ours = module && (CARRIED || from === "network" || from === SITE_CACHE);
    if (ours) mark("wasm received");
    resolve(ours ? module : null);
  });
});
const compileHere = () => {
  const module = WebAssembly.compileStreaming(fromSite(WASM_URL));
  module.then(() => mark("wasm compiled"), () => {}); // on failure Pyodide compiles it again
  return module;
};
// The carried page's own compile, if the page's failed, is Pyodide's, from the carried bytes.
if (CARRIED && HELPED && typeof WebAssembly.compileStreaming === "function") earlyModule = pageWasm;
if (!CARRIED) {
  const early = new Map([[siteURL(BUILD.stdlib), fromSite(siteURL(BUILD.stdlib))]]);
  if (typeof WebAssembly.compileStreaming === "function") {
    earlyModule = pageWasm.then((module) => module ?? compileHere());
    earlyModule.catch(() => {});
  } else {
    early.set(WASM_URL, fromSite(WASM_URL));
  }
  for (const res of early.values()) res.catch(() => {}); // Pyodide reports failures itself
  const realFetch = self.fetch.bind(self);
  realFetchOf = (url) => realFetch(url);
  self.fetch = (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (url === WASM_URL && earlyModule) {
      // Started only if awaited: when the early compile failed.
      return { then: (resolve, reject) => realFetch(input, init).then(resolve, reject) };
    }
    const res = early.get(url);
    if (res === undefined) return realFetch(input, init);
    early.delete(url);
    return res;
  };
}

// Pyodide compiles and instantiates its wasm in one step; made two here, so that the trace
// shows each, and the module compiled early is used.
if (typeof WebAssembly.compileStreaming === "function") {
  WebAssembly.instantiateStreaming = async (source, imports) => {
    let module = null;
    if (earlyModule) {
      const pending = earlyModule;
      earlyModule = null;
      module = await pending.catch((err) => {
        console.warn("the early wasm compile failed; compiling again:", err);
        return null;
      });
    }
    // Compiled from its bytes when streaming is refused (a host that does not serve .wasm
    // as application/wasm). Without the wasm nothing can run, and Pyodide, told so, would
    // never settle its start: the page is told at once (a download cut off, or no memory
    // left for the instance, say).
    let step = "loaded";
    try {
      module ??= await WebAssembly.compileStreaming(await source)
        .catch(async () => WebAssembly.compile(await (await realFetchOf(WASM_URL)).arrayBuffer()));
      mark("wasm compiled");
      step = "instantiated";
      const instance = await WebAssembly.instantiate(module, imports);
      mark("wasm instantiated");
      return { module, instance };
    } catch (err) {
      fatal(`the engine could not start: pyodide.asm.wasm could not be ${step} (${err && err.message ? err.message : err})`);
      throw err;
    }
  };
}

// The trace notes when the stdlib's bytes are all here (Pyodide reads them whole anyway).
{
  const inner = self.fetch;
  const stdlibURL = siteURL(BUILD.stdlib);
  self.fetch = (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    return url === stdlibURL ? timed(inner(input, init)) : inner(input, init);
  };
  const timed = async (response) => {
    const res = await response;
    if (!res.ok) return res;
    const body = await res.arrayBuffer();
    mark("stdlib fetched");
    return new Response(body, { status: res.status, headers: res.headers });
  };
}

/** Pyodide's two scripts: imported from the site, or already here (the one-file page). */
async function pyodideScripts() {
  if (CARRIED) return [{ loadPyodide: self.loadPyodide }, { default: self._createPyodideModule }];
  const scripts = await Promise.all([import(siteURL("pyodide/pyodide.mjs")), import(siteURL("pyodide/pyodide.asm.mjs"))]);
  mark("pyodide scripts");
  return scripts;
}

function progress(stage, fraction) {
  self.postMessage({ type: "progress", stage, fraction });
}

// The page says its build first (js/engine.js: {type: "page", build}). A page of another build,
// or one from before pages said it, gets nothing but a fatal message: it reloads into one build.
let pageSaid = false;
let lastRead = null; // the id of the last request read (0: the page's build), for "unreadable"
let unread = 0; // the messages not read since
const otherBuild = (build) => fatal(`this engine is build ${BUILD.hash}, its page ${build}`, "build_mismatch");
self.addEventListener("message", (event) => {
  const msg = event.data;
  if (!msg || msg.type !== "page") return;
  pageSaid = true;
  lastRead = 0;
  unread = 0;
  if (msg.build !== null && msg.build !== BUILD.hash) otherBuild(msg.build);
});

async function fetchBytes(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`could not download ${url}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

async function start() {
  progress("runtime", 0);
  const engineZip = fetchBytes(siteURL(BUILD.wheel));
  engineZip.catch(() => {}); // awaited below
  const snapshot = readSnapshot();
  const [{ loadPyodide }, asm] = await pyodideScripts();
  progress("runtime", 0.05);

  const options = {
    indexURL: PYODIDE_URL.href,
    createPyodideModule: asm.default, // already loaded, next to pyodide.mjs
    // Our trimmed, precompiled standard library instead of python_stdlib.zip.
    stdLibURL: siteURL(BUILD.stdlib),
    // We load nothing from Pyodide's package index by name, so instead of
    // fetching pyodide-lock.json (~120 KB) we hand over an empty index that
    // carries only the lock file's "info" (its abi_version is checked).
    lockFileContents: { info: BUILD.lockInfo, packages: {} },
    packages: [],
    // Called once the WebAssembly module is compiled and the file system exists.
    fsInit: async (FS) => {
      mark("file system");
      FS.writeFile(ENGINE_ZIP, await engineZip);
      progress("python", 0.6);
    },
    stdout: (line) => console.log("[python]", line),
    stderr: (line) => console.warn("[python]", line),
  };

  let pyodide = null;
  let bridge = null;
  const kept = await snapshot;
  if (kept) {
    try {
      pyodide = await loadPyodide({ ...options, createPyodideModule: restoring(asm.default, kept),
        _loadSnapshot: new SnapshotStandIn(kept.total) });
      mark("python restored");
      // The snapshot holds the random generator's state of its day: draw a fresh one.
      // (Through the module, not runPython: compiling Python source is a first use of the
      // compiler's wasm code in this instance, a few ms.)
      const random = pyodide.pyimport("random");
      random.seed();
      random.destroy();
      bridge = pyodide.pyimport("briscola.bridge");
      if (JSON.parse(bridge.call("ping", "{}")).result.version !== BUILD.version) {
        throw new Error("the restored engine is not this build's");
      }
    } catch (err) {
      // Never stuck on a bad snapshot: forget it and start afresh.
      console.warn("the engine's snapshot did not load; starting afresh:", err);
      bridge = null;
      caches.delete(SNAPSHOT_CACHE).catch(() => {});
      dropSnapshotFile();
    }
  }
  if (!bridge) {
    pyodide = await loadPyodide({ ...options, _makeSnapshot: snapshots });
    mark("python started");
    progress("python", 0.85);
    // The bots too (bridge.prepare): the snapshot then holds them, and a restored start's
    // first deal imports nothing.
    pyodide.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(ENGINE_ZIP)})\nimport briscola.bridge\nbriscola.bridge.prepare()`);
    mark("engine imported");
    if (snapshots) {
      try {
        storeSnapshot(pyodide.makeMemorySnapshot());
      } catch (err) {
        console.warn("could not snapshot the engine:", err);
      }
    }
    bridge = pyodide.pyimport("briscola.bridge");
  }
  progress("engine", 0.95);

  // The module and its `call` function stay alive as long as the worker.
  // Python returns a str, which arrives as a JS string: no proxy escapes.
  let learn = null; // imported at the first model installed (js/worker/models.js)
  connect((type, argsJson) => bridge.call(type, argsJson), (name, bytes) => {
    learn ??= pyodide.pyimport("briscola.ai.learn");
    const data = pyodide.toPy(new Uint8Array(bytes)); // a memoryview over a copy
    try {
      learn.install(name, data).destroy();
    } finally {
      data.destroy();
    }
  });
  // The engine's one table of requests (py/briscola/protocol.py): which of them search.
  const requests = ask("requests", {});
  if (requests.error) throw new Error(`the engine's table of requests: ${requests.error.message}`);
  knowRequests(requests.result.requests);
  progress("engine", 1);
  mark("ready");
  sweepFinished(letGo);
  self.postMessage({ type: "ready", version: BUILD.version, build: BUILD.hash,
    trace: { origin: performance.timeOrigin, marks: trace } });
}

const started = start().catch((err) => {
  fatal(`the engine could not start: ${err && err.message ? err.message : err}`);
  throw err;
});
started.catch(() => {}); // reported above; requests get their own error replies

async function handle(msg) {
  const { id } = msg;
  if (dead !== null) return errorReply(id, "engine_unavailable", dead);
  if (typeof msg.type !== "string") {
    return errorReply(id, "bad_request", "a request needs a string `type`");
  }
  // The page sends its args as JSON text (js/engine.js): measured before anything parses it.
  let text = msg.args;
  if (typeof text !== "string") {
    try {
      text = JSON.stringify(text === undefined ? {} : text);
    } catch (err) {
      return errorReply(id, "bad_request", `args are not JSON: ${err.message}`);
    }
  }
  const refused = checkJSON(text);
  if (refused) return errorReply(id, refused.code, `args: ${refused.message}`);
  let args;
  try {
    args = JSON.parse(text);
  } catch (err) {
    return errorReply(id, "bad_request", `args are not JSON: ${err.message}`);
  }
  if (!args || typeof args !== "object" || Array.isArray(args)) {
    return errorReply(id, "bad_request", "args: expected an object");
  }
  // `text` goes on to the bridge as it came (measured above; the bridge reads no field it
  // does not know, the game's id and the meta included): read here, never written again.
  return keep(id, msg.type, args, text);
}

/** A request for the game: `text`, the args' JSON text as the page sent it (within the bounds),
 * goes to the bridge as it is where the worker only passes it on. */
async function keep(id, type, args, text) {
  const reply = (out) => (out.error ? errorReply(id, out.error.code, out.error.message)
    : self.postMessage({ id, result: out.result }));
  if ("game" in args) {
    const { game, ...rest } = args;
    if (game !== null && game !== undefined && (!current || game !== current.id)) {
      return errorReply(id, "stale", "that game is no longer the one on the table");
    }
    args = rest;
  }
  if (CARRY.has(type)) return reply(await carry(type, args)); // a person's data (js/worker/carry.js)
  switch (type) {
    case "load":
      return errorReply(id, "bad_request", "saves are kept by the engine; resume a game with `resume`");
    case "games": {
      let games = [];
      let storage = "ok";
      try {
        games = await allGames();
      } catch (err) {
        storage = "refused";
      }
      const elsewhere = await heldElsewhere();
      const list = games.map((g) => listed(g, elsewhere)).filter((g) => g && g.id !== (current && current.id))
        .sort((a, b) => b.updated - a.updated);
      return reply({ result: { games: list, storage } });
    }
    case "resume": {
      if (typeof args.id !== "string") return errorReply(id, "bad_request", "id: expected a game's id");
      let record;
      try {
        record = await readGame(args.id);
      } catch (err) {
        return errorReply(id, "storage_refused", `the saved games cannot be read: ${err.message || err}`);
      }
      if (!record) return errorReply(id, "no_game", "no such game (finished, or kept in another browser)");
      const out = await openRecord(args.id, record, "");
      if (out.error) return reply(out);
      return reply({ result: { ...(await tableReply(out.result)), meta: current.meta } });
    }
    case "import_save": {
      if (typeof args.save !== "string") return errorReply(id, "bad_request", "save: expected text");
      const gid = newId();
      const record = { id: gid, save: args.save, meta: args.meta ?? null, info: null, created: Date.now(), updated: Date.now() };
      const out = await openRecord(gid, record, "imported: ");
      if (out.error) return reply(out);
      return reply({ result: { ...(await tableReply(out.result)), meta: current.meta } });
    }
    case "set_meta": {
      if (!current) return errorReply(id, "bad_request", "no game");
      current.meta = args.meta ?? null;
      const st = ask("state", { save: true }); // a read: the save asked for, to keep the meta
      if (st.error) return reply(st);
      const { save, ...state } = st.result;
      return reply({ result: { storage: (await store(state, save)) ? "ok" : "refused" } });
    }
    case "new_match": {
      const { meta } = args;
      const out = ask("new_match", args, text); // (the bridge reads neither meta nor game)
      if (out.error) return reply(out);
      const before = current;
      modelFor({});
      const gid = await lockNewGame();
      setCurrent({ id: gid, meta: meta ?? null, created: Date.now(), touched: false });
      // A new deal holds nothing the person did yet: it is shown at once and kept just after
      // (the next request waits for that, as always); a refused write is said by a message.
      const { save, ...state } = out.result;
      const model = modelNote(state);
      reply({ result: { ...state, game: gid, ...(model ? { model } : {}) } });
      if (!(await store(state, save))) self.postMessage({ type: "storage", state: "refused" });
      // The game before is forgotten if finished or nobody played it; past the bound of
      // unfinished games the oldest go, the person told of any they played (js/worker/games.js).
      if (before) await dropIfDone(before.id);
      letGo(await boundGames());
      return undefined;
    }
    case "check_rules": {
      const out = ask(type, args, text);
      reply(out);
      // The New game panel (and the embed) checks the rules chosen: their model starts to
      // download now, before the game does.
      if (!out.error) modelFor({ rules: args.rules });
      return undefined;
    }
    case "review_load": {
      // a friend's review of a finished deal: its searches use that deal's variant's model, as
      // the host's would (waited for as a search waits for the table's, at most MODEL_WAIT_MS)
      const out = ask(type, args, text);
      const done = out.error ? null : modelFor({ rules: args.record.rules });
      if (done) await Promise.race([done, sleep(MODEL_WAIT_MS)]);
      return reply(out);
    }
    default: {
      const out = ask(type, args, text);
      if (out.error) return reply(out);
      if (type === "act") touch(); // a person's play: the game is theirs to come back to
      const result = out.result;
      // a computer player's decision made without its learned model (the engine's state has not
      // changed since: no await between) is noted with the game (js/worker/games.js)
      if (type === "bot_step" && result && result.match) noteDecision(result.seats, result.match.deal);
      // a table's reply: `changed` (stored only if true: never after a read), `save` (never shown)
      if (result && typeof result === "object" && ("changed" in result || "save" in result)) {
        return reply({ result: await tableReply(result) });
      }
      return reply(out);
    }
  }
}

/** Tell the page of the unfinished games a person played that were let go (a notice). */
function letGo(games) {
  if (games.length) self.postMessage({ type: "let-go", games, max: MAX_UNFINISHED });
}

// A message this worker cannot read (its structured clone given up: an object nested 2,000
// deep, here, whose sender could write it) arrives with nothing of it: as a `messageerror`, or
// (Chromium) as a message whose data is null. Messages arrive in the order they were sent, so
// the page is told which it was: the `nth` message after the request `after` read last (0: the
// page's build, {type: "page"}; null: nothing yet). js/engine.js rejects that request; nothing
// else changes.
function unreadable() {
  unread += 1;
  self.postMessage({ type: "unreadable", after: lastRead, nth: unread });
}
self.addEventListener("messageerror", unreadable);

// Requests are answered one at a time, in the order they came (keeping a game waits
// for IndexedDB): a reply never overtakes an earlier request's.
let queue = Promise.resolve();
self.addEventListener("message", (event) => {
  const msg = event.data;
  if (msg === null) return unreadable(); // (the page never sends null)
  if (typeof msg !== "object" || msg.id === undefined) return;
  lastRead = msg.id;
  unread = 0;
  if (!pageSaid) otherBuild("of an older build");
  queue = queue.then(async () => {
    try {
      await started;
    } catch {
      return errorReply(msg.id, "engine_unavailable", dead ?? "the engine could not start");
    }
    if (SEARCHING.has(msg.type) && installing) await Promise.race([installing, sleep(MODEL_WAIT_MS)]);
    try {
      await handle(msg);
    } catch (err) {
      errorReply(msg.id, "internal", String(err && err.message ? err.message : err));
    }
  });
});

// The games' database opens, the lock manager first hears from this worker and the first new
// game's lock is taken while Python starts: the first deal's save waits only for itself.
openDB().catch(() => {});
if (self.navigator && navigator.locks && navigator.locks.query) navigator.locks.query().catch(() => {});
takeSpareLock();
