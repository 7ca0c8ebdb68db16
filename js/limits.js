// The bounds of every JSON text that reaches the engine from outside it: the page's requests,
// the saves read back from storage, and (js/friends) every message from another device. A text
// past them is refused before anything parses it (Python's parser recurses: a few thousand
// levels of nesting stop the whole engine). py/briscola/bridge.py checks the same numbers
// again (MAX_BYTES, MAX_DEPTH, MAX_ITEMS; tests/test_bridge.py keeps the two equal).
//
// The longest real save, a Briscola Chiamata match of 200 deals (the most a match plays), is
// about 51 KB, 4 levels deep, 9,400 values: the bounds leave a margin of 20 and more.
//
// js/worker.js carries this file inlined (the build puts it in place of its import); the
// friends' code imports it as it is.

export const LIMITS = Object.freeze({ bytes: 2000000, depth: 64, items: 200000 });

// The version of the messages peers exchange: every one carries it; a peer of another version
// is told so and offered the reload that brings the same build.
export const PROTOCOL = 1;

/**
 * A JSON text measured in one pass, without recursion: its size in UTF-8 bytes, its deepest
 * nesting of arrays and objects, and its values (about one per value: each array or object
 * and each comma). The scan stops early once the depth is past `stopDepth`.
 */
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
