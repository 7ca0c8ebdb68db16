// The messages of "play with friends" as they arrive from another device, before anything
// reads them: the size of the text first, then JSON, then the envelope ({v, t}); the nesting
// is bounded by each reader (deeper()). It imports only js/limits.js (no page code), so
// tests/js/friends_wire.mjs runs it in Node.

// The protocol's version (js/limits.js): a page of another version is told so and offered a reload.
import { PROTOCOL } from "../limits.js";

export { PROTOCOL };

// The most a message may weigh, in UTF-16 units of its text: a friend's requests are small;
// the host's replies carry a view (a Chiamata deal's full event log is about 20 KB).
export const LIMIT_TO_HOST = 4096;
export const LIMIT_TO_FRIEND = 262144;
// One message a friend's page sends the host may be bigger than a request: a fair deal's (`fair
// {to, m}`, which the host's page carries to the other devices, docs/friends.md "The page at a
// fair table"). The biggest a FairTable (js/fair/) sends: a shuffle of a 64-card deck (64 bytes a
// card in base64: 5,462, the seed's hash, the signature); its shares of 64 positions dealt at once
// (`tokens`: 64 items of some 52 characters, and one proof for each recipient) about 3.7 KB; with
// the envelopes (a table id of 128 characters, the largest numbers) under 6 KB. The 48-card
// Spanish deck's shuffle is about 4.4 KB, Chiamata's shares of the first deal 2.2 KB.
export const LIMIT_FAIR = 10240;

/** The most characters a message of type `t` may have, where `limit` bounds a peer's messages:
 * a fair deal's message is never held below LIMIT_FAIR; every other message keeps `limit`. */
export function limitFor(t, limit) {
  return t === "fair" ? Math.max(limit, LIMIT_FAIR) : limit;
}

const RELAY_RE = /^(nostr:)?wss?:\/\/[^\s/?#]+(\/[^\s?#]*)?$/;
const NOSTR = "nostr:";

/** A list of relays from text (a comma or whitespace between them): only ws(s) URLs, each a
 * WebTorrent tracker, or a Nostr relay when written `nostr:wss://...`; at most 12. */
export function parseRelays(text) {
  return String(text || "").split(/[\s,]+/).map((x) => x.trim()).filter((x) => x && x.length <= 200 && RELAY_RE.test(x)).slice(0, 12);
}

/** The relays of each medium: {trackers: [ws URL], nostr: [ws URL]} (parseRelays' entries). */
export function relaysByMedium(relays) {
  const trackers = [];
  const nostr = [];
  for (const url of relays) (url.startsWith(NOSTR) ? nostr : trackers).push(url.startsWith(NOSTR) ? url.slice(NOSTR.length) : url);
  return { trackers, nostr };
}

/** One received message: {value} or {error: {code, message}} (size first, then shape). */
export function readMessage(data, limit) {
  if (typeof data !== "string") return { error: { code: "friends_bad_message", message: "a message must be JSON text" } };
  if (data.length > limit) return { error: { code: "friends_too_big", message: `a message of ${data.length} characters (at most ${limit})` } };
  let value;
  try {
    value = JSON.parse(data);
  } catch {
    return { error: { code: "friends_bad_message", message: "a message is not JSON" } };
  }
  if (!value || typeof value !== "object" || Array.isArray(value) || typeof value.t !== "string") {
    return { error: { code: "friends_bad_message", message: "a message must be an object with a type `t`" } };
  }
  // (the message of another version goes with the refusal: a host's proof is still checked)
  if (value.v !== PROTOCOL) return { error: { code: "friends_version", message: `protocol ${String(value.v).slice(0, 20)} (this page speaks ${PROTOCOL})` }, value };
  return { value };
}

/** The action names a data-channel frame may carry: the pages' own ("m") and Trystero
 * 0.25.4's (its room's internal actions, "@_" and a name). */
export const ACTIONS = new Set(["m", ...["ping", "pong", "signal", "stream", "track", "leave", "hsdata", "hsready"].map((n) => `@_${n}`)]);
/** A peer's frames refused (another room's, an action no page uses) before it is let go. */
export const FRAMES_REFUSED = 8;

/**
 * Whether a data-channel frame is one this room takes (Trystero 0.25.4's: a room frame, version
 * 1, the room token's length in 2 bytes, the token, then a 32-byte action name, NULs after it;
 * or a presence frame, version 2, a flag, the token's length, the token): null if it is, else
 * why not ("room": another room's token; "action": an action name no page uses; "frame": not a
 * frame). Trystero keeps, until the peer leaves or for good, every frame of a room it does not
 * hold and every whole message of an action nobody listens to: such frames never reach it
 * (mends.js). `token`: this room's (Trystero's SHA-256 of its app id and the room id, in hex).
 */
export function frameRefusal(data, token) {
  let raw = null;
  if (data instanceof ArrayBuffer) raw = new Uint8Array(data);
  else if (ArrayBuffer.isView(data)) raw = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (!raw || raw.length < 4) return "frame";
  const version = raw[0];
  const at = version === 1 ? 3 : version === 2 ? 4 : -1;
  if (at < 0) return "frame";
  const size = (raw[at - 2] << 8) | raw[at - 1];
  if (size !== token.length || raw.length < at + size) return "room";
  for (let i = 0; i < size; i++) if (raw[at + i] !== token.charCodeAt(i)) return "room";
  if (version === 2) return null;
  if (raw.length < at + size + 36) return "frame";
  let name = "";
  for (let i = at + size; i < at + size + 32 && raw[i]; i++) name += String.fromCharCode(raw[i]);
  return ACTIONS.has(name) ? null : "action";
}

/**
 * A data-channel frame as Trystero sends it (a room frame: version 1, the room token's length
 * in 2 bytes, the token; then a 32-byte action name, a 2-byte nonce, a tag byte whose bit 0
 * marks the last chunk, a progress byte, the payload): {key, last, bytes}, or null for any
 * other frame (which Trystero does not hold on to as a part).
 */
export function readFrame(data) {
  let raw = null;
  if (data instanceof ArrayBuffer) raw = new Uint8Array(data);
  else if (ArrayBuffer.isView(data)) raw = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (!raw || raw.length < 3 || raw[0] !== 1) return null;
  const token = (raw[1] << 8) | raw[2];
  const at = 3 + token;
  if (token <= 0 || raw.length < at + 36) return null;
  let key = "";
  for (let i = 1; i < at + 34; i++) key += String.fromCharCode(raw[i]); // the room, the action, the nonce
  return { key, last: (raw[at + 34] & 1) === 1, bytes: raw.length - at - 36 };
}

/**
 * The chunked messages a friend's page lets a peer leave unfinished (Trystero keeps their parts
 * until the last comes or the peer leaves; the host's page has the referee's bounds): the host's
 * page may send views in parts, at most `parts` unfinished at once, each at most `bytes` and `ms`
 * old; any other page of the room sends this page nothing in parts. frame(peer, data, fromHost,
 * now) -> null, or why the peer is to be let go; tick(now) -> the peers to let go.
 */
export class PartsBound {
  constructor({ parts = 2, bytes, ms = 20000 }) {
    this.bounds = { parts, bytes, ms };
    this.held = new Map(); // peer -> Map(key -> {bytes, since})
  }

  frame(peer, data, fromHost, now = Date.now()) {
    const f = readFrame(data);
    if (!f) return null;
    const mine = this.held.get(peer) || new Map();
    if (f.last) {
      mine.delete(f.key);
      return null;
    }
    if (!fromHost) return "parts from a page that is not the host's";
    const part = mine.get(f.key) || { bytes: 0, since: now };
    part.bytes += f.bytes;
    mine.set(f.key, part);
    this.held.set(peer, mine);
    if (mine.size > this.bounds.parts) return `more than ${this.bounds.parts} messages unfinished`;
    if (part.bytes > this.bounds.bytes) return `a message of more than ${this.bounds.bytes} bytes`;
    return null;
  }

  tick(now = Date.now()) {
    const out = [];
    for (const [peer, mine] of this.held) {
      for (const part of mine.values()) if (now - part.since >= this.bounds.ms) { out.push(peer); break; }
    }
    for (const peer of out) this.held.delete(peer);
    return out;
  }

  forget(peer) {
    this.held.delete(peer);
  }
}

/** Depth of nesting of a parsed value, stopping past `max` (the shape checks' guard). */
export function deeper(value, max, depth = 0) {
  if (depth > max) return true;
  if (!value || typeof value !== "object") return false;
  for (const v of Object.values(value)) if (deeper(v, max, depth + 1)) return true;
  return false;
}

