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
//   {type: "fatal", message}               it never will (failed start, or Python died)
// Requests from the page: {id, type, args}; replies: {id, result} or
// {id, error: {code, message}}. Requests sent before "ready" wait for it.
// Only JSON-shaped data crosses: the bridge takes and returns JSON text.
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
// writes it), names it "briscola:carried", and first posts the other files
// ({type: "carried", files: {path: {blob, type, gzip}}}); fetches are answered
// from those.

import { BUILD } from "./build-info.js";

// The start-up trace: when each stage ended (see "ready" above). The first mark is the
// moment this script runs, its imports (build-info.js) loaded.
const trace = {};
const mark = (stage) => {
  if (!(stage in trace)) trace[stage] = performance.now();
};
mark("worker script");

const CARRIED = self.name === "briscola:carried";
const SITE_ROOT = CARRIED ? new URL("https://briscola.invalid/") : new URL("../", import.meta.url);
const PYODIDE_URL = new URL("pyodide/", SITE_ROOT);
const ENGINE_ZIP = "/lib/briscola-engine.zip"; // where the wheel goes in Pyodide's file system
// The cache names of sw.js: "briscola:<site path>:<build hash>", plus ":snapshot".
const CACHE_PREFIX = `briscola:${SITE_ROOT.pathname}:`;
const SNAPSHOT_CACHE = `${CACHE_PREFIX}${BUILD.hash}:snapshot`;
const SNAPSHOT_URL = new URL(`snapshot-${BUILD.hash}.bin`, SITE_ROOT).href;

let callBridge = null; // (type: string, argsJson: string) => string
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

// Pyodide compiles and instantiates its wasm in one step; made two here, so that the trace
// shows each (compileStreaming keeps compiling while the bytes arrive, and lets the browser
// keep the compiled code in its cache).
if (typeof WebAssembly.compileStreaming === "function") {
  WebAssembly.instantiateStreaming = async (source, imports) => {
    const module = await WebAssembly.compileStreaming(source);
    mark("wasm compiled");
    const instance = await WebAssembly.instantiate(module, imports);
    mark("wasm instantiated");
    return { module, instance };
  };
}

// The two big downloads start at once, before Pyodide's scripts have loaded: Pyodide's own
// fetches of these URLs get these responses.
if (!CARRIED) {
  const early = new Map([siteURL("pyodide/pyodide.asm.wasm"), siteURL(BUILD.stdlib)].map((url) => [url, fetch(url)]));
  for (const res of early.values()) res.catch(() => {}); // Pyodide reports failures itself
  const realFetch = self.fetch.bind(self);
  self.fetch = (input, init) => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    const res = early.get(url);
    if (res === undefined) return realFetch(input, init);
    early.delete(url);
    return res;
  };
}

// The trace notes when the stdlib's bytes are all here (Pyodide reads them whole anyway).
{
  const inner = self.fetch;
  const stdlibURL = siteURL(BUILD.stdlib);
  self.fetch = async (input, init) => {
    const res = await inner(input, init);
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (url !== stdlibURL || !res.ok) return res;
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

function fatal(message) {
  if (dead === null) {
    dead = message;
    self.postMessage({ type: "fatal", message });
  }
}

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

function unpackSnapshot(buffer) {
  const [magic, total, count] = new Uint32Array(buffer, 0, 3);
  if (magic !== SNAPSHOT_MAGIC) return null;
  const runs = new Uint32Array(buffer, 12, 2 * count);
  const bytes = new Uint8Array(total);
  let at = 12 + runs.byteLength;
  for (let i = 0; i < count; i++) {
    bytes.set(new Uint8Array(buffer, at, runs[2 * i + 1]), runs[2 * i]);
    at += runs[2 * i + 1];
  }
  return bytes;
}

async function readSnapshot() {
  if (!snapshots) return null;
  try {
    if (!(await caches.has(SNAPSHOT_CACHE))) return null;
    const res = await (await caches.open(SNAPSHOT_CACHE)).match(SNAPSHOT_URL);
    if (!res) return null;
    const packed = await res.arrayBuffer();
    mark("snapshot read");
    const bytes = unpackSnapshot(packed);
    mark("snapshot unpacked");
    return bytes;
  } catch {
    snapshots = false;
    return null;
  }
}

async function storeSnapshot(bytes) {
  try {
    await new Promise((resolve) => setTimeout(resolve, 0)); // after "ready" has gone out
    const packed = packSnapshot(bytes);
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
  const saved = await snapshot;
  if (saved) {
    try {
      pyodide = await loadPyodide({ ...options, _loadSnapshot: saved });
      mark("python restored");
      // The snapshot holds the random generator's state of its day: draw a fresh one.
      pyodide.runPython("import random\nrandom.seed()");
      bridge = pyodide.pyimport("briscola.bridge");
      if (JSON.parse(bridge.call("ping", "{}")).result.version !== BUILD.version) {
        throw new Error("the restored engine is not this build's");
      }
    } catch (err) {
      // Never stuck on a bad snapshot: forget it and start afresh.
      console.warn("the engine's snapshot did not load; starting afresh:", err);
      bridge = null;
      caches.delete(SNAPSHOT_CACHE).catch(() => {});
    }
  }
  if (!bridge) {
    pyodide = await loadPyodide({ ...options, _makeSnapshot: snapshots });
    mark("python started");
    progress("python", 0.85);
    pyodide.runPython(`import sys\nsys.path.insert(0, ${JSON.stringify(ENGINE_ZIP)})\nimport briscola.bridge`);
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
  progress("engine", 1);
  mark("ready");
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

function handle(msg) {
  const { id } = msg;
  if (dead !== null) return errorReply(id, "engine_unavailable", dead);
  if (typeof msg.type !== "string") {
    return errorReply(id, "bad_request", "a request needs a string `type`");
  }
  let argsJson;
  try {
    argsJson = msg.args === undefined ? "{}" : JSON.stringify(msg.args);
  } catch (err) {
    return errorReply(id, "bad_request", `args are not JSON: ${err.message}`);
  }

  let text;
  try {
    text = callBridge(msg.type, argsJson);
  } catch (err) {
    // The bridge promises never to raise; if Python did, report it, and if
    // Pyodide itself failed, nothing more can run here.
    if (err && err.pyodide_fatal_error) fatal(`Python stopped: ${err.message}`);
    return errorReply(id, "internal", String(err && err.message ? err.message : err));
  }

  let reply;
  try {
    reply = JSON.parse(text);
  } catch (err) {
    return errorReply(id, "internal", `the bridge answered with bad JSON: ${err.message}`);
  }
  if (reply && typeof reply === "object" && "error" in reply) {
    const e = reply.error || {};
    return errorReply(id, String(e.code ?? "error"), String(e.message ?? "unknown error"));
  }
  if (reply && typeof reply === "object" && "result" in reply) {
    return self.postMessage({ id, result: reply.result });
  }
  return errorReply(id, "internal", "the bridge answered with neither result nor error");
}

self.addEventListener("message", async (event) => {
  const msg = event.data;
  if (!msg || typeof msg !== "object" || msg.id === undefined) return;
  try {
    await started;
  } catch {
    return errorReply(msg.id, "engine_unavailable", dead ?? "the engine could not start");
  }
  handle(msg);
});
