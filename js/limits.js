// The bounds of every JSON text that reaches the engine from outside: the page's requests,
// saves read back, messages from other devices. Past them a text is refused unparsed (Python's
// parser recurses: deep nesting stops the engine). py/briscola/bridge.py holds the same numbers
// (MAX_BYTES, MAX_DEPTH, MAX_ITEMS); README "Bounded input" says why these. js/worker.js
// carries this file inlined by the build; the friends' code imports it.

export const LIMITS = Object.freeze({ bytes: 2000000, depth: 64, items: 200000 });

// The version of the peers' messages: each carries it; a peer of another is offered the reload.
// 2: a finished deal's review is the friend's own (its record travels); 3: every message but
// `who` and `host` sealed for its pair (js/friends/pairs.js)
export const PROTOCOL = 3;

/** A JSON text measured in one pass, no recursion: UTF-8 bytes, deepest nesting, values (each
 * array, object and comma). The scan stops once the depth is past `stopDepth`. */
export function measureJSON(text, stopDepth = Infinity) {
  let bytes = 0;
  let depth = 0;
  let deepest = 0;
  let items = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c < 0xe000 ? 2 : 3;
    if (quoted) {
      if (c === 92) i++, bytes++; // a backslash escapes the next character (ASCII in JSON)
      else if (c === 34) quoted = false;
    } else if (c === 34) quoted = true;
    else if (c === 91 || c === 123) {
      items++;
      if (++depth > deepest && (deepest = depth) > stopDepth) break;
    } else if (c === 93 || c === 125) depth--;
    else if (c === 44) items++;
  }
  return { bytes, depth: deepest, items };
}

/** `{code, message}` for a text past the bounds (or not text), else null. */
export function checkJSON(text, limits = LIMITS) {
  if (typeof text !== "string") return { code: "bad_request", message: "expected JSON text" };
  if (text.length > limits.bytes) return tooLarge(`more than ${limits.bytes} bytes`);
  const m = measureJSON(text, limits.depth);
  if (m.depth > limits.depth) return { code: "input_too_deep", message: `nested deeper than ${limits.depth} levels` };
  if (m.bytes > limits.bytes) return tooLarge(`more than ${limits.bytes} bytes`);
  if (m.items > limits.items) return tooLarge(`more than ${limits.items} values`);
  return null;
}

const tooLarge = (what) => ({ code: "input_too_large", message: what });
