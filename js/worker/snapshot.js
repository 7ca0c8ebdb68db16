// The memory snapshot of the interpreter with the engine imported: packed as its non-zero
// blocks, kept in the origin's private file system and in Cache Storage (named by the build),
// restored straight into a fresh Pyodide's memory on a later start. A module of js/worker.js
// (bundled into it by the build, tools/build/worker.py).

import { BUILD } from "../build-info.js";
import { CACHE_PREFIX, CARRIED, SITE_ROOT, mark, noteRequest, whenIdle } from "./site.js";

export const SNAPSHOT_CACHE = `${CACHE_PREFIX}${BUILD.hash}:snapshot`;
const SNAPSHOT_URL = new URL(`snapshot-${BUILD.hash}.bin`, SITE_ROOT).href;

// Snapshots need Cache Storage (http(s) pages); the one-file page has none, and a
// third-party frame may be refused it (then none is made either).
export let snapshots = !CARRIED && typeof caches !== "undefined" && /^https?:$/.test(SITE_ROOT.protocol);

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
export class SnapshotStandIn extends Uint8Array {
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
export function restoring(createModule, kept) {
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

export async function dropSnapshotFile(keep = null) {
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
export async function readSnapshot() {
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

export async function storeSnapshot(bytes) {
  try {
    noteRequest();
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
