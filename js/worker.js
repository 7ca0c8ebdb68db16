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
// From the page, first: {type: "page", build} its build's hash (null: unknown, the source tree).
// Requests from the page: {id, type, args} (args: JSON text); replies: {id, result} or
// {id, error: {code, message}}. Requests sent before "ready" wait for it.
// Only JSON-shaped data crosses: the bridge takes and returns JSON text, and every text is
// measured against the bounds of js/limits.js before Python parses it (`handle`, `ask`).
//
// The worker owns hidden information (see "Keeping the games" below): the bridge's
// `save` (it holds the match's seed, so it determines every hidden card) never goes to
// the page. The worker keeps each game's save in IndexedDB under a game id, answers
// the page with views, and offers the unfinished games to resume.
//
// The start: Pyodide's two scripts load side by side, the wasm, the trimmed stdlib
// and the engine (the wheel, put on sys.path as a zip: zipimport reads its bytecode
// as it is, no install step) download meanwhile. After the first start the worker
// keeps a memory snapshot of the interpreter with the engine imported (Cache
// Storage, named by the build hash); later starts restore it instead of starting
// Python and importing everything again.
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

// The start-up trace: when each stage ended (see "ready" above). The first mark is the
// moment this script runs.
const trace = {};
const mark = (stage) => {
  if (!(stage in trace)) trace[stage] = performance.now();
};
mark("worker script");

const CARRIED = self.name.startsWith("briscola:carried");
const SITE_ROOT = CARRIED ? new URL("https://briscola.invalid/") : new URL("../", import.meta.url);
const PYODIDE_URL = new URL("pyodide/", SITE_ROOT);
const ENGINE_ZIP = "/lib/briscola-engine.zip"; // where the wheel goes in Pyodide's file system
// The cache names of sw.js: "briscola:<site path>:<build hash>", plus ":snapshot".
const CACHE_PREFIX = `briscola:${SITE_ROOT.pathname}:`;
const SNAPSHOT_CACHE = `${CACHE_PREFIX}${BUILD.hash}:snapshot`;
const SNAPSHOT_URL = new URL(`snapshot-${BUILD.hash}.bin`, SITE_ROOT).href;

let callBridge = null; // (type: string, argsJson: string) => string
let installModel = null; // (name: string, bytes: ArrayBuffer) => void: briscola.ai.learn.install
let dead = null; // the message of a fatal error, once there is one

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

const siteURL = (path) => new URL(path, SITE_ROOT).href;

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
const SITE_CACHE = `${CACHE_PREFIX}${BUILD.hash}`; // sw.js's CACHE
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

function fatal(message, code = "engine_unavailable") {
  if (dead === null) {
    dead = message;
    self.postMessage({ type: "fatal", message, code });
  }
}

// The page says its build first (js/engine.js: {type: "page", build}). A page of another build,
// or one from before pages said it, gets nothing but a fatal message: it reloads into one build.
let pageSaid = false;
const otherBuild = (build) => fatal(`this engine is build ${BUILD.hash}, its page ${build}`, "build_mismatch");
self.addEventListener("message", (event) => {
  const msg = event.data;
  if (!msg || msg.type !== "page") return;
  pageSaid = true;
  if (msg.build !== null && msg.build !== BUILD.hash) otherBuild(msg.build);
});

async function fetchBytes(url) {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`could not download ${url}: HTTP ${res.status}`);
  return new Uint8Array(await res.arrayBuffer());
}

// Snapshots need Cache Storage (http(s) pages); the one-file page has none, and a
// third-party frame may be refused it (then none is made either).
let snapshots = !CARRIED && typeof caches !== "undefined" && /^https?:$/.test(SITE_ROOT.protocol);

// A snapshot is the interpreter's whole memory (~30 MB), three quarters zeros: it is kept
// as its non-zero 4 KB blocks. Layout (little-endian u32): magic, total size, run count,
// then (offset, length) per run, then the runs' bytes one after the other.
const SNAPSHOT_MAGIC = 0x31534e42; // "BNS1"
const BLOCK = 4096;

function packSnapshot(bytes) {
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >> 2);
  const runs = [];
  let size = 0;
  for (let start = 0; start < bytes.length; start += BLOCK) {
    const end = Math.min(start + BLOCK, bytes.length);
    let used = false;
    for (let w = start >> 2; w < end >> 2; w++) {
      if (words[w] !== 0) {
        used = true;
        break;
      }
    }
    if (!used) for (let b = (end >> 2) << 2; b < end; b++) used ||= bytes[b] !== 0;
    if (!used) continue;
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === start) last[1] += end - start;
    else runs.push([start, end - start]);
    size += end - start;
  }
  const head = new Uint32Array([SNAPSHOT_MAGIC, bytes.length, runs.length, ...runs.flat()]);
  const out = new Uint8Array(head.byteLength + size);
  out.set(new Uint8Array(head.buffer));
  let at = head.byteLength;
  for (const [start, length] of runs) {
    out.set(bytes.subarray(start, start + length), at);
    at += length;
  }
  return out;
}

// A kept snapshot is never unpacked into a buffer of its own (30 MB, which Pyodide would then
// copy whole into the interpreter's memory): Pyodide gets a stand-in of the snapshot's length,
// which sizes the fresh memory, and its restore (API.restoreSnapshot, replaced in `restoring`)
// reads Pyodide's header from the first runs and writes the runs straight into the memory,
// zeroing what lies between them.

/** The packed snapshot's runs, checked: whole, in order, within its size; null if not. */
function snapshotRuns(buffer) {
  if (buffer.byteLength < 12) return null;
  const [magic, total, count] = new Uint32Array(buffer, 0, 3);
  if (magic !== SNAPSHOT_MAGIC || buffer.byteLength < 12 + 8 * count) return null;
  const table = new Uint32Array(buffer, 12, 2 * count);
  const runs = [];
  let at = 12 + table.byteLength;
  let end = 0;
  for (let i = 0; i < count; i++) {
    const [offset, length] = [table[2 * i], table[2 * i + 1]];
    if (offset < end || offset + length > total) return null;
    runs.push({ offset, length, at });
    at += length;
    end = offset + length;
  }
  return at === buffer.byteLength && count > 0 && runs[0].offset === 0 ? { buffer, total, runs } : null;
}

/**
 * Copy the bytes of [from, to) of the snapshot into `dest` at (offset - from), zeroing gaps;
 * `dest` from index `zeroFrom` on is known to hold zeros already, and is not written there.
 */
function copySnapshot({ buffer, runs }, dest, from, to, zeroFrom = to - from) {
  const zero = (a, b) => {
    if (a < Math.min(b, zeroFrom)) dest.fill(0, a, Math.min(b, zeroFrom));
  };
  let filled = from;
  for (const { offset, length, at } of runs) {
    const start = Math.max(offset, from);
    const end = Math.min(offset + length, to);
    if (end <= start) continue;
    if (start > filled) zero(filled - from, start - from);
    dest.set(new Uint8Array(buffer, at + (start - offset), end - start), start - from);
    filled = end;
  }
  if (to > filled) zero(filled - from, to - from);
}

// Pyodide reads only the length of what it is handed as the snapshot (prepareSnapshot).
class SnapshotStandIn extends Uint8Array {
  constructor(total) {
    super(4);
    Object.defineProperty(this, "length", { value: total });
  }
}

// After a restore, Pyodide's bootstrap (API.finalizeBootstrap) still has Python compile and
// run five snippets: `import _pyodide_core`, `{}`, and three imports that return a module or a
// module's dict. Compiling is the first use of Python's parser and compiler in this wasm
// instance, whose functions V8 compiles on their first call: about 25 ms of a later visit's
// start, for code the engine never needs again (it calls into Python, it compiles nothing).
// In the restored interpreter everything those snippets import is imported already, so here
// they are answered with the same objects without compiling: `__import__` and `dict` called
// through Pyodide's proxies. Any other source, or a module that is not there, goes to Pyodide
// as before. The count of snippets answered so is the trace's "bootstrap without compiling"
// (all five), which the browser tests check, so that another Pyodide's different bootstrap
// is noticed (it then only starts as slowly as before).
const BOOTSTRAP_IMPORTS = {
  "import importlib; importlib": (imp) => imp("importlib"),
  "import __main__; __main__.__dict__": (imp) => imp("__main__").__dict__,
  "import builtins; builtins.__dict__": (imp) => imp("builtins").__dict__,
};

function bootstrapWithoutCompiling(API) {
  const finalize = API.finalizeBootstrap;
  API.finalizeBootstrap = function (...args) {
    const { rawRun, runPythonInternal } = API;
    let pyodideModule; // the `_pyodide` package's proxy, which the bootstrap sets on API
    let answered = 0;
    let importer = null;
    const builtin = (name) => pyodideModule.__builtins__.get(name);
    const imp = (name) => (importer ??= builtin("__import__"))(name);
    const base = {
      eval_code: (code, ...rest) => {
        if (code !== "{}") return pyodideModule._base.eval_code(code, ...rest);
        answered++;
        return builtin("dict")();
      },
    };
    const standIn = new Proxy({}, { get: (_, key) => (key === "_base" ? base : pyodideModule[key]) });
    Object.defineProperty(API, "_pyodide", {
      configurable: true, enumerable: true, get: () => pyodideModule && standIn, set: (v) => { pyodideModule = v; },
    });
    API.rawRun = (code) => {
      if (code !== "import _pyodide_core" || !pyodideModule || !imp("sys").modules.has("_pyodide_core")) return rawRun(code);
      answered++;
      return [0, ""];
    };
    API.runPythonInternal = (code, ...rest) => {
      const answer = pyodideModule && Object.hasOwn(BOOTSTRAP_IMPORTS, code) && BOOTSTRAP_IMPORTS[code];
      if (!answer) return runPythonInternal(code, ...rest);
      answered++;
      return answer(imp);
    };
    try {
      return finalize.apply(this, args);
    } finally {
      API.rawRun = rawRun;
      API.runPythonInternal = runPythonInternal;
      Object.defineProperty(API, "_pyodide", { configurable: true, enumerable: true, writable: true, value: pyodideModule });
      if (answered === 5) mark("bootstrap without compiling");
    }
  };
}

/** createPyodideModule that restores the packed snapshot `kept` (see above). */
function restoring(createModule, kept) {
  return async (settings) => {
    const Module = await createModule(settings);
    bootstrapWithoutCompiling(Module.API);
    const restore = Module.API.restoreSnapshot;
    Module.API.restoreSnapshot = () => {
      let head = new Uint8Array(Math.min(kept.total, BLOCK));
      copySnapshot(kept, head, 0, head.length);
      const start = new Uint32Array(head.buffer, 0, 2)[1]; // where Pyodide's memory image begins
      if (start > head.length) { // a header longer than a block (a very long key list)
        head = new Uint8Array(start);
        copySnapshot(kept, head, 0, start);
      }
      // Pyodide checks its header (magic, build id) and reads its keys; the image is ours.
      const keys = restore(head.subarray(0, start));
      const image = Module.HEAP8;
      if (kept.total - start > image.length) throw new Error("the snapshot is larger than the memory");
      // The fresh instance has written nothing above its heap's break (its data, its stack
      // and its heap all lie below): memory there is still the zeros a new memory starts
      // with, so the snapshot's gaps there are left alone. Writing them touched about 10 MB
      // of fresh pages for nothing (the copy: a median of 32 ms with them, 20 ms without).
      const clean = typeof Module._sbrk === "function" ? Module._sbrk(0) >>> 0 : 0;
      copySnapshot(kept, new Uint8Array(image.buffer, image.byteOffset, kept.total - start), start, kept.total, clean || undefined);
      return keys;
    };
    return Module;
  };
}

// The snapshot is kept twice: in Cache Storage, and as a file of the origin's private file
// system (OPFS), which this worker reads synchronously, several times faster than a Cache
// Storage response (about 8 MB: the read was most of a later visit's wait). The file is
// named after the site's path and the build; the cache is the fallback (another tab holding
// the file, no OPFS here).
const SNAPSHOT_FILE_PREFIX = `briscola-snapshot-${encodeURIComponent(SITE_ROOT.pathname)}-`;
const SNAPSHOT_FILE = `${SNAPSHOT_FILE_PREFIX}${BUILD.hash}.bin`;
const opfs = () => (self.navigator && navigator.storage && navigator.storage.getDirectory
  ? navigator.storage.getDirectory() : Promise.reject(new Error("no OPFS")));

async function readSnapshotFile() {
  let access = null;
  try {
    const file = await (await opfs()).getFileHandle(SNAPSHOT_FILE);
    access = await file.createSyncAccessHandle();
    const packed = new Uint8Array(access.getSize());
    if (access.read(packed, { at: 0 }) !== packed.length) return null;
    return packed.buffer;
  } catch {
    return null; // none yet, another tab reading it, or no OPFS: the cache then
  } finally {
    if (access) access.close();
  }
}

async function dropSnapshotFile(keep = null) {
  try {
    const dir = await opfs();
    for await (const name of dir.keys()) {
      if (name.startsWith(SNAPSHOT_FILE_PREFIX) && name !== keep) await dir.removeEntry(name);
    }
  } catch {
    // nothing to drop, or no OPFS
  }
}

/** The kept snapshot's runs (snapshotRuns), from the file or else the cache; null if none. */
async function readSnapshot() {
  if (!snapshots) return null;
  const file = await readSnapshotFile();
  if (file) {
    mark("snapshot file read");
    const kept = snapshotRuns(file);
    if (kept) return kept;
    await dropSnapshotFile(); // cut short (a write that did not finish): not a snapshot
  }
  try {
    if (!(await caches.has(SNAPSHOT_CACHE))) return null;
    const res = await (await caches.open(SNAPSHOT_CACHE)).match(SNAPSHOT_URL);
    if (!res) return null;
    const kept = snapshotRuns(await res.arrayBuffer());
    mark("snapshot read");
    return kept;
  } catch {
    snapshots = false;
    return null;
  }
}

async function writeSnapshotFile(packed) {
  let access = null;
  try {
    const file = await (await opfs()).getFileHandle(SNAPSHOT_FILE, { create: true });
    access = await file.createSyncAccessHandle();
    access.truncate(0);
    access.write(packed, { at: 0 });
    access.flush();
  } catch {
    // no OPFS, or another tab writing it: the cache's copy serves
  } finally {
    if (access) access.close();
  }
  await dropSnapshotFile(SNAPSHOT_FILE); // other builds' snapshots of this site
}

// Packing and storing a snapshot takes a while (tens of ms): it waits until the page's first
// requests are answered and none has come for a moment, so the first deal does not wait.
let lastRequest = 0;
self.addEventListener("message", () => {
  lastRequest = performance.now();
});
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function whenIdle(quiet = 400) {
  for (let wait = quiet; wait > 0; wait = lastRequest + quiet - performance.now()) await sleep(wait);
}

async function storeSnapshot(bytes) {
  try {
    lastRequest = performance.now();
    await whenIdle(); // after "ready" has gone out and the first requests are answered
    const packed = packSnapshot(bytes);
    await writeSnapshotFile(packed);
    const cache = await caches.open(SNAPSHOT_CACHE);
    await cache.put(SNAPSHOT_URL, new Response(packed, { headers: { "Content-Type": "application/octet-stream" } }));
    for (const name of await caches.keys()) {
      if (name !== SNAPSHOT_CACHE && name.startsWith(CACHE_PREFIX) && name.endsWith(":snapshot")) {
        await caches.delete(name);
      }
    }
  } catch (err) {
    console.warn("could not keep a snapshot of the engine:", err);
  }
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
  callBridge = (type, argsJson) => bridge.call(type, argsJson);
  let learn = null; // imported at the first model installed (see "Models loaded ...")
  installModel = (name, bytes) => {
    learn ??= pyodide.pyimport("briscola.ai.learn");
    const data = pyodide.toPy(new Uint8Array(bytes)); // a memoryview over a copy
    try {
      learn.install(name, data).destroy();
    } finally {
      data.destroy();
    }
  };
  progress("engine", 1);
  mark("ready");
  sweepFinished();
  self.postMessage({ type: "ready", version: BUILD.version, build: BUILD.hash,
    trace: { origin: performance.timeOrigin, marks: trace } });
}

const started = start().catch((err) => {
  fatal(`the engine could not start: ${err && err.message ? err.message : err}`);
  throw err;
});
started.catch(() => {}); // reported above; requests get their own error replies

function errorReply(id, code, message) {
  self.postMessage({ id, error: { code, message } });
}

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

/** One request for the bridge: `{result}` or `{error: {code, message}}`, never a throw. Its
 * JSON text, and a save's inside it, are refused past the bounds (js/limits.js) unparsed.
 * `measured`: the args' own text, already within the bounds (the page's request as it came),
 * passed on as it is instead of written again from `args`. */
function ask(type, args, measured = null) {
  let text = measured;
  if (text === null) {
    try {
      text = JSON.stringify(args);
    } catch (err) {
      return { error: { code: "bad_request", message: `args are not JSON: ${err.message}` } };
    }
    const refused = checkJSON(text) ?? (typeof args.save === "string" ? checkJSON(args.save) : null);
    if (refused) return { error: refused };
  }
  try {
    text = callBridge(type, text);
  } catch (err) {
    // The bridge promises never to raise; if Python did, report it, and if
    // Pyodide itself failed, nothing more can run here.
    if (err && err.pyodide_fatal_error) fatal(`Python stopped: ${err.message}`);
    return { error: { code: "internal", message: String(err && err.message ? err.message : err) } };
  }
  let reply;
  try {
    reply = JSON.parse(text);
  } catch (err) {
    return { error: { code: "internal", message: `the bridge answered with bad JSON: ${err.message}` } };
  }
  if (reply && typeof reply === "object" && "error" in reply) {
    const e = reply.error || {};
    return { error: { code: String(e.code ?? "error"), message: String(e.message ?? "unknown error") } };
  }
  if (reply && typeof reply === "object" && "result" in reply) return { result: reply.result };
  return { error: { code: "internal", message: "the bridge answered with neither result nor error" } };
}

// ---- Models loaded when their variant is played ---------------------------------------------
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
// heuristic, as where no model fits, and the next game of the variant tries again.

const MODELS = BUILD.models ?? {};
const SEARCHING = new Set(["bot_step", "hint", "review_decision", "review_retry"]);
const MODEL_WAIT_MS = 8000; // the most a search waits for a download that hangs (then without)
const modelInstalls = new Map(); // name -> Promise<boolean>, while pending or once installed
let installing = null; // the install of the game on the table (a promise that never rejects)

// Bytes (an ArrayBuffer or a Uint8Array) as lowercase hexadecimal.
const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");

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
    done = modelBytes(name).then((bytes) => {
      installModel(name, bytes);
      return true;
    }).catch((err) => {
      modelInstalls.delete(name);
      console.warn(`the ${name} model could not be loaded (${err && err.message ? err.message : err}); `
        + "the computer players play without it");
      return false;
    });
    modelInstalls.set(name, done);
  }
  return done;
}

/** Get the model of `args.rules` (without: the table's) if the engine lacks one this build
 * ships apart; for the table's, the searching requests wait for it from now on. */
function modelFor(args) {
  const need = ask("model", args);
  const name = need.result && !need.result.installed ? need.result.name : null;
  const done = name !== null && Object.hasOwn(MODELS, name) ? installOnce(name) : null;
  if (!("rules" in args)) installing = done;
}

// ---- Keeping the games ----------------------------------------------------------------------
//
// IndexedDB "briscola-games" (IndexedDB is open to workers; the page never reads it):
//   games  {id, save, meta, info, created, updated}: one record per game, `save` the
//          bridge's text (secret: it holds the seed), `meta` what the page asked to keep
//          with it (variant chosen, names, card style), `info` what the list of unfinished
//          games shows (variant, seats, score, deal, over)
//   aside  saves the bridge refused, kept (never deleted) with the reason
// A game open in a tab holds a Web Lock named after it: another tab sees that it is open
// there and does not take it over.
//
// Requests the worker answers itself (the rest go to the bridge):
//   games {}                    -> {games: [{id, meta, info, updated, open_elsewhere}], storage}
//   resume {id}                 -> the game's state (as `state`), `game` its id;
//                                  errors: no_game, game_open_elsewhere, bad_save
//   import_save {save, meta}    -> a save kept by an older page (localStorage) becomes a game
//                                  here: as resume; bad_save when refused (set aside here),
//                                  bad_save_not_kept when it could not even be kept aside
//   set_meta {meta}             -> {} (the running game's meta)
// Every reply that carries a table has `game` (its id) and never `save`; `storage: "refused"`
// when the save could not be written (the game goes on, but a reload would lose it).
// Requests with `game` are refused (`stale`) unless that game is the one on the table.
// `load` is not for the page: saves live here.

const DB_NAME = "briscola-games";
const LOCK_PREFIX = `briscola:${SITE_ROOT.pathname}:game:`;
let current = null; // {id, meta, created} of the game on the bridge's table
let held = null; // {id, release} the Web Lock of the game open here
let dbPromise = null;

function openDB() {
  if (!dbPromise) {
    dbPromise = new Promise((resolve, reject) => {
      const req = indexedDB.open(DB_NAME, 1);
      req.onupgradeneeded = () => {
        const db = req.result;
        if (!db.objectStoreNames.contains("games")) db.createObjectStore("games", { keyPath: "id" });
        if (!db.objectStoreNames.contains("aside")) db.createObjectStore("aside", { autoIncrement: true });
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error || new Error("IndexedDB refused"));
      req.onblocked = () => reject(new Error("IndexedDB is blocked"));
    });
    dbPromise.catch(() => { dbPromise = null; }); // try again next time
  }
  return dbPromise;
}

/** Run `work(stores)` in one transaction; resolves with what it returned once committed. */
async function tx(names, mode, work) {
  const db = await openDB();
  return new Promise((resolve, reject) => {
    let t;
    try {
      t = db.transaction(names, mode);
    } catch (err) {
      reject(err);
      return;
    }
    const stores = Object.fromEntries(names.map((n) => [n, t.objectStore(n)]));
    let out;
    try {
      out = work(stores);
    } catch (err) {
      t.abort();
      reject(err);
      return;
    }
    t.oncomplete = () => resolve(out);
    t.onerror = () => reject(t.error || new Error("IndexedDB write failed"));
    t.onabort = () => reject(t.error || new Error("IndexedDB write aborted"));
  });
}

function requestValue(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

async function readGame(id) {
  let value;
  await tx(["games"], "readonly", (st) => { requestValue(st.games.get(id)).then((v) => { value = v; }); });
  return value;
}

async function allGames() {
  let value = [];
  await tx(["games"], "readonly", (st) => { requestValue(st.games.getAll()).then((v) => { value = v; }); });
  return value;
}

/** What the list of unfinished games shows, from a state reply (nothing hidden in it). */
function infoOf(state, meta) {
  return {
    variant: (meta && meta.variant) || state.view.rules.name,
    custom: !!(meta && meta.custom),
    players: state.view.players,
    seats: state.seats,
    names: meta && Array.isArray(meta.names) ? meta.names : [],
    score: state.match.score,
    deal: state.match.deal,
    side_points: state.view.side_points,
    phase: state.view.phase,
    over: !!state.match.over,
  };
}

/** Keep the current game's save; false when storage refused it. */
async function store(state, save) {
  if (!current) return true;
  const now = Date.now();
  const record = { id: current.id, save, meta: current.meta, info: infoOf(state, current.meta),
    created: current.created, updated: now };
  try {
    await tx(["games"], "readwrite", (st) => { st.games.put(record); });
    return true;
  } catch (err) {
    console.warn("could not keep the game:", err);
    return false;
  }
}

/** Move a refused record aside in one transaction: nothing is deleted unless it was kept. */
async function setAside(record, reason) {
  try {
    await tx(["games", "aside"], "readwrite", (st) => {
      st.aside.add({ reason, record, when: Date.now() });
      if (record.id) st.games.delete(record.id);
    });
    return true;
  } catch (err) {
    console.warn("could not set the refused save aside:", err);
    return false;
  }
}

function lockName(id) {
  return LOCK_PREFIX + id;
}

/** Hold the lock of game `id` (releasing the one held before); false if another tab has it. */
function lockGame(id) {
  if (held && held.id === id) return Promise.resolve(true);
  if (!self.navigator || !navigator.locks) {
    releaseLock();
    return Promise.resolve(true); // no Web Locks here: two tabs cannot be told apart
  }
  return new Promise((resolve) => {
    navigator.locks.request(lockName(id), { ifAvailable: true }, (lock) => {
      if (!lock) {
        resolve(false);
        return undefined;
      }
      releaseLock();
      return new Promise((release) => {
        held = { id, release };
        resolve(true);
      });
    }).catch(() => resolve(true));
  });
}

function releaseLock() {
  if (held) {
    held.release();
    held = null;
  }
}

async function heldElsewhere() {
  if (!self.navigator || !navigator.locks || !navigator.locks.query) return new Set();
  try {
    const { held: locks } = await navigator.locks.query();
    const mine = held ? lockName(held.id) : null;
    return new Set(locks.map((l) => l.name).filter((n) => n.startsWith(LOCK_PREFIX) && n !== mine)
      .map((n) => n.slice(LOCK_PREFIX.length)));
  } catch {
    return new Set();
  }
}

function newId() {
  const bytes = crypto.getRandomValues(new Uint8Array(9));
  return Date.now().toString(36) + "-" + hex(bytes);
}

// The lock of the next new game is taken ahead: a lock's grant is a round trip through the
// browser (5-14 ms for a later visit's first deal, after Python's work). A new game takes the
// spare's id, and the next spare is asked for at once. A spare names no kept game, so other
// tabs' lists of games open elsewhere never show it.
let spareLock = null; // Promise<{id, release} | null>

function takeSpareLock() {
  spareLock = null;
  if (!self.navigator || !navigator.locks) return;
  const id = newId();
  spareLock = new Promise((resolve) => {
    navigator.locks.request(lockName(id), { ifAvailable: true }, (lock) => {
      if (!lock) {
        resolve(null);
        return undefined;
      }
      return new Promise((release) => resolve({ id, release }));
    }).catch(() => resolve(null));
  });
}

/** A fresh id for a new game, its lock held (the one of the game before released). */
async function lockNewGame() {
  const spare = spareLock ? await spareLock : null;
  takeSpareLock();
  if (spare) {
    releaseLock();
    held = spare;
    return spare.id;
  }
  const gid = newId();
  await lockGame(gid); // a fresh id: no one else holds it
  return gid;
}

/** The reply the page gets for a table: no save; the game's id; storage trouble if any. The
 * game is kept only after a request that changed it (the bridge says `changed: true`), never
 * after a read. */
async function tableReply(result) {
  const { save, ...state } = result;
  let kept = true;
  if (result.changed === true && typeof save === "string") kept = await store(state, save);
  state.game = current ? current.id : null;
  if (!kept) state.storage = "refused";
  return state;
}

// A finished game stays kept while a tab may still show it (its summary after a reload); one
// that no tab holds and that has not changed for a day was left by a tab that closed on it,
// and nothing can open it any more: it is forgotten once the engine has started and is idle.
const FINISHED_KEPT_MS = 24 * 3600 * 1000;

async function sweepFinished() {
  try {
    lastRequest = performance.now();
    await whenIdle(); // after the first requests are answered
    const elsewhere = await heldElsewhere();
    const old = Date.now() - FINISHED_KEPT_MS;
    const gone = (await allGames()).filter((g) => g && g.id && g.info && g.info.over
      && (g.updated ?? 0) < old && !elsewhere.has(g.id) && g.id !== (current && current.id)).map((g) => g.id);
    if (gone.length) await tx(["games"], "readwrite", (st) => { for (const id of gone) st.games.delete(id); });
  } catch {
    // storage trouble: nothing to forget
  }
}

/** Finished games of this tab are forgotten when it moves on (nothing of them is lost). */
async function dropIfFinished(id) {
  try {
    const rec = await readGame(id);
    if (rec && rec.info && rec.info.over) await tx(["games"], "readwrite", (st) => { st.games.delete(id); });
  } catch {
    // storage trouble: nothing to drop
  }
}

async function openRecord(id, record, reasonPrefix) {
  if (!(await lockGame(id))) {
    return { error: { code: "game_open_elsewhere", message: "this game is open in another tab" } };
  }
  const loaded = ask("load", { save: record.save });
  if (loaded.error) {
    releaseLock();
    const kept = await setAside(record, `${reasonPrefix}${loaded.error.code}: ${loaded.error.message}`);
    return { error: { code: kept ? "bad_save" : "bad_save_not_kept", message: loaded.error.message } };
  }
  const before = current;
  current = { id, meta: bounded(record.meta), created: Number.isFinite(record.created) ? record.created : Date.now() };
  modelFor({});
  if (before && before.id !== id) await dropIfFinished(before.id);
  return { result: loaded.result };
}

// What the list of unfinished games shows of a kept record, checked field by field: a record
// that is not well formed (written by a bug, or by hand) is left out, never shown half.
const isInt = (x, min = 0) => Number.isInteger(x) && x >= min && x < 1e9;
const numbers = (x) => Array.isArray(x) && x.length <= 12 && x.every((v) => Number.isFinite(v));
const isSeat = (s) => !!s && (s.kind === "human" || (s.kind === "bot" && typeof s.level === "string"));

function listed(g, elsewhere) {
  const info = g && g.info;
  if (!info || typeof g.id !== "string" || info.over !== false || typeof info.variant !== "string"
    || !isInt(info.players, 1) || !Array.isArray(info.seats) || info.seats.length !== info.players
    || !info.seats.every(isSeat) || !isInt(info.deal) || !numbers(info.score) || !numbers(info.side_points)) {
    return null;
  }
  const names = Array.isArray(info.names) ? info.names.map((n) => (typeof n === "string" ? n.slice(0, 40) : "")) : [];
  return { id: g.id, meta: bounded(g.meta), updated: Number.isFinite(g.updated) ? g.updated : 0,
    open_elsewhere: elsewhere.has(g.id),
    info: { variant: info.variant, custom: info.custom === true, players: info.players,
      seats: info.seats.map((s) => (s.kind === "bot" ? { kind: "bot", level: s.level } : { kind: "human" })),
      names, score: info.score, deal: info.deal, side_points: info.side_points,
      phase: String(info.phase), over: false } };
}

/** A kept value within the bounds of js/limits.js, else null (the page's meta, say). */
function bounded(value) {
  try {
    return value === undefined || checkJSON(JSON.stringify(value)) ? null : value;
  } catch {
    return null;
  }
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
      current = { id: gid, meta: meta ?? null, created: Date.now() };
      // A new deal holds nothing the person did yet: it is shown at once and kept just after
      // (the next request waits for that, as always); a refused write is said by a message.
      const { save, ...state } = out.result;
      reply({ result: { ...state, game: gid } });
      if (!(await store(state, save))) self.postMessage({ type: "storage", state: "refused" });
      if (before) await dropIfFinished(before.id);
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
    default: {
      const out = ask(type, args, text);
      if (out.error) return reply(out);
      const result = out.result;
      // a table's reply: `changed` (stored only if true: never after a read), `save` (never shown)
      if (result && typeof result === "object" && ("changed" in result || "save" in result)) {
        return reply({ result: await tableReply(result) });
      }
      return reply(out);
    }
  }
}

// Requests are answered one at a time, in the order they came (keeping a game waits
// for IndexedDB): a reply never overtakes an earlier request's.
let queue = Promise.resolve();
self.addEventListener("message", (event) => {
  const msg = event.data;
  if (!msg || typeof msg !== "object" || msg.id === undefined) return;
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
