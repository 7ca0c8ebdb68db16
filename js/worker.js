// The engine's module Web Worker: runs the Python package `briscola` in Pyodide.
//
// Start with `new Worker(new URL("./worker.js", import.meta.url), {type: "module"})`
// (js/engine.js does this). Every URL is resolved against this file's own URL,
// so the site works under any sub-path.
//
// Messages to the page:
//   {type: "progress", stage, fraction}   while starting; fraction in [0, 1]
//   {type: "ready", version, build}        the engine answers requests from now on
//   {type: "fatal", message}               it never will (failed start, or Python died)
// Requests from the page: {id, type, args}; replies: {id, result} or
// {id, error: {code, message}}. Requests sent before "ready" wait for it.
// Only JSON-shaped data crosses: the bridge takes and returns JSON text.

import { BUILD } from "./build-info.js";

const SITE_ROOT = new URL("../", import.meta.url);
const PYODIDE_URL = new URL("pyodide/", SITE_ROOT);

let callBridge = null; // (type: string, argsJson: string) => string
let dead = null; // the message of a fatal error, once there is one

function progress(stage, fraction) {
  self.postMessage({ type: "progress", stage, fraction });
}

function fatal(message) {
  if (dead === null) {
    dead = message;
    self.postMessage({ type: "fatal", message });
  }
}

async function start() {
  progress("runtime", 0);
  const { loadPyodide } = await import(new URL("pyodide.mjs", PYODIDE_URL).href);
  progress("runtime", 0.05);

  const pyodide = await loadPyodide({
    indexURL: PYODIDE_URL.href,
    // Our trimmed, precompiled standard library instead of python_stdlib.zip.
    stdLibURL: new URL(BUILD.stdlib, SITE_ROOT).href,
    // We load nothing from Pyodide's package index by name, so instead of
    // fetching pyodide-lock.json (~120 KB) we hand over an empty index that
    // carries only the lock file's "info" (its abi_version is checked).
    lockFileContents: { info: BUILD.lockInfo, packages: {} },
    packages: [],
    // Called once the WebAssembly module is compiled and the file system exists.
    fsInit: () => progress("python", 0.6),
    stdout: (line) => console.log("[python]", line),
    stderr: (line) => console.warn("[python]", line),
  });
  progress("python", 0.85);

  const errors = [];
  const loaded = await pyodide.loadPackage(new URL(BUILD.wheel, SITE_ROOT).href, {
    messageCallback: () => {},
    errorCallback: (line) => errors.push(line),
  });
  if (!loaded.some((pkg) => pkg.name === "briscola")) {
    throw new Error(`could not install the engine: ${errors.join(" ") || "unknown error"}`);
  }
  progress("engine", 0.95);

  // The module and its `call` function stay alive as long as the worker.
  // Python returns a str, which arrives as a JS string: no proxy escapes.
  const bridge = pyodide.pyimport("briscola.bridge");
  callBridge = (type, argsJson) => bridge.call(type, argsJson);
  progress("engine", 1);
  self.postMessage({ type: "ready", version: BUILD.version, build: BUILD.hash });
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
