// The engine's bridge, once Python has started: one request at a time to Python, its JSON
// text measured against js/limits.js first (`ask`), the error replies to the page, and the
// fatal error after which nothing more runs here. A module of js/worker.js (bundled into it
// by the build, tools/build/worker.py).

import { checkJSON } from "../limits.js";

let callBridge = null; // (type: string, argsJson: string) => string
export let installModel = null; // (name: string, bytes: ArrayBuffer) => void: briscola.ai.learn.install
export let dead = null; // the message of a fatal error, once there is one

/** The engine has started: `call` answers the bridge's requests, `install` installs a model. */
export function connect(call, install) {
  callBridge = call;
  installModel = install;
}

export function fatal(message, code = "engine_unavailable") {
  if (dead === null) {
    dead = message;
    self.postMessage({ type: "fatal", message, code });
  }
}

export function errorReply(id, code, message) {
  self.postMessage({ id, error: { code, message } });
}

/** One request for the bridge: `{result}` or `{error: {code, message}}`, never a throw. Its
 * JSON text, and a save's inside it, are refused past the bounds (js/limits.js) unparsed.
 * `measured`: the args' own text, already within the bounds (the page's request as it came),
 * passed on as it is instead of written again from `args`. */
export function ask(type, args, measured = null) {
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
