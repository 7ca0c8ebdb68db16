// The engine's errors in the person's language. An error reaches the page with a stable code
// (the bridge's, py/briscola/bridge.py and errors.py, or the worker's and the client's own,
// js/worker.js and js/engine.js) and a message in English for developers and logs. The page
// shows the words of js/locales for the code (`error.<code>`), never the English message,
// but for a code it has no words for (the engine's message then, rather than nothing).
// tests/test_locales.py collects the codes from those sources: a new code needs its words.
//
//   errorText(err)   the words for an EngineError (or anything with .code and .message)
//
// Detail is kept where it helps: a refused option (bad_option) names the option, worded as the
// New game panel names it; the engine's messages name the option first ("teams: ...").

import { t, has } from "./i18n.js";

// Options the engine names that the panel labels under another key than opt.<name>.
const FIELD_LABELS = { variant: "new.variant", seed: "new.seed", level: "new.level", players: "new.players" };

/** The option a refused choice is about, as the panel labels it; null when not known. */
function fieldLabel(message) {
  const m = /^([a-z][a-z_]*): /.exec(message || "");
  if (!m) return null;
  const key = FIELD_LABELS[m[1]] || `opt.${m[1]}`;
  return has(key) ? t(key) : null;
}

/** The words for an engine error in the page's language (the engine's message for an
 * unknown code). */
export function errorText(err) {
  if (!err) return t("error.error");
  const code = typeof err.code === "string" ? err.code : "";
  const message = err.message ? String(err.message) : String(err);
  if (code === "bad_option") {
    const field = fieldLabel(message);
    if (field) return t("error.bad_option.field", { field });
  }
  const key = `error.${code}`;
  return code && has(key) ? t(key) : message;
}
