// The fair deal's messages on the wire: bytes as base64url, the shape of each kind checked before
// anything is read from it, and the sealing of what one device shows another alone (a partner's
// hand: AES-256-GCM from WebCrypto, its key derived by HKDF-SHA-256 from the two devices' table
// keys, x_a·Y_b = x_b·Y_a), so that no third device reads it whatever the transport passes on.
import { sha256 } from "@noble/hashes/sha2.js";
import { hkdf } from "@noble/hashes/hkdf.js";
import { readPoint, readScalar, scalarBytes, transcript } from "./group.js";

// 2: a `tokens` message's shares proven together, one proof for each recipient (1: one a share);
// every message signed by its device (`sig`, sign.js)
export const VERSION = 2;
export const TYPE = "fair";
const enc = new TextEncoder();

export function b64(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i++) text += String.fromCharCode(bytes[i]);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Bytes from base64url; null unless it is that, of at most `max` bytes. */
export function unb64(text, max = 1 << 16) {
  if (typeof text !== "string" || text.length > Math.ceil(max / 3) * 4 || !/^[A-Za-z0-9_-]*$/.test(text)) return null;
  try {
    const raw = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4));
    const out = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

const isInt = (v, lo, hi) => Number.isInteger(v) && v >= lo && v <= hi;

/** The fields each kind carries beyond the envelope, and their check. */
const BODIES = {
  key: (m) => typeof m.Y === "string" && typeof m.proof === "string",
  shuffle: (m) => typeof m.deck === "string" && typeof m.commit === "string",
  // (the shares, T alone; one proof for the shares of each recipient, js/fair/shares.js)
  tokens: (m) => Array.isArray(m.items) && m.items.length >= 1 && m.items.length <= 64 &&
    m.items.every((it) => Array.isArray(it) && it.length === 3 && isInt(it[0], 0, 63) && isInt(it[1], -1, 5) && typeof it[2] === "string") &&
    Array.isArray(m.proofs) && m.proofs.length >= 1 && m.proofs.length <= 7 &&
    m.proofs.every((it) => Array.isArray(it) && it.length === 2 && isInt(it[0], -1, 5) && typeof it[1] === "string"),
  play: (m) => isInt(m.p, 0, 63) && typeof m.card === "string" && m.card.length <= 8 &&
    (m.token === undefined || typeof m.token === "string") && (m.up === undefined || m.up === 1),
  show: (m) => isInt(m.to, 0, 5) && typeof m.iv === "string" && typeof m.box === "string",
  open: (m) => typeof m.seed === "string" && Array.isArray(m.heard) && m.heard.length <= 6 &&
    m.heard.every((h) => Array.isArray(h) && h.length === 2 && isInt(h[0], 0, 1 << 20) && typeof h[1] === "string" && h[1].length <= 44),
  // (an action, or a signal: its commitment and its boxes for two partners' devices, signal.js)
  say: (m) => typeof m.action === "string" && m.action.length >= 1 && m.action.length <= 320,
  stop: (m) => (m.device === null || isInt(m.device, 0, 5)) && typeof m.code === "string" && m.code.length <= 32 &&
    (m.p === undefined || isInt(m.p, 0, 63)) && (m.of === undefined || isInt(m.of, 0, 5)),
};

export const KINDS = Object.keys(BODIES);

/** Why a message is not one of this protocol's (a word), or "" when its shape is right. */
export function shapeError(m) {
  if (!m || typeof m !== "object" || Array.isArray(m)) return "not an object";
  if (m.v !== VERSION || m.t !== TYPE) return "not a fair-deal message of this version";
  if (!KINDS.includes(m.k)) return "an unknown kind";
  if (typeof m.table !== "string" || !isInt(m.round, 0, 2 ** 31)) return "no table or round";
  if (!isInt(m.from, 0, 5) || !isInt(m.seq, 0, 1 << 20)) return "no sender or sequence";
  if (typeof m.sig !== "string" || m.sig.length !== 86) return "no signature";
  return BODIES[m.k](m) ? "" : `a malformed ${m.k}`;
}

async function boxKey(shared, context) {
  const raw = hkdf(sha256, shared.toBytes(), enc.encode("briscola-fair-v1-show"), transcript(...context), 32);
  return globalThis.crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
}

/** `bytes` sealed for the one device that shares `shared` (a point) with this one; `context`
 * (table, round, sender, recipient) derives the key, `aad` (the message's envelope, its number
 * in it) is bound. The IV is drawn from the key's context and the envelope: one message, one IV
 * (a sender never numbers two messages alike), and the same message sealed again is the same. */
export async function seal(shared, context, aad, bytes) {
  const iv = sha256(transcript("iv", ...context, aad)).subarray(0, 12);
  const key = await boxKey(shared, context);
  const box = new Uint8Array(await globalThis.crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: aad }, key, bytes));
  return { iv: b64(iv), box: b64(box) };
}

/** The bytes sealed, or null when they do not open (another key, a changed box or envelope). */
export async function unseal(shared, context, aad, iv, box) {
  const ivBytes = unb64(iv, 12);
  const boxBytes = unb64(box);
  if (!ivBytes || ivBytes.length !== 12 || !boxBytes) return null;
  try {
    const key = await boxKey(shared, context);
    return new Uint8Array(await globalThis.crypto.subtle.decrypt({ name: "AES-GCM", iv: ivBytes, additionalData: aad }, key, boxBytes));
  } catch {
    return null;
  }
}

// -- the bytes of shares and proofs ----------------------------------------------------------

export function concat(...arrays) {
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) { out.set(a, at); at += a.length; }
  return out;
}

export function proofBytes([c, s]) {
  return concat(scalarBytes(c), scalarBytes(s));
}

export function readProof(bytes) {
  if (!bytes || bytes.length !== 64) return null;
  const c = readScalar(bytes.subarray(0, 32));
  const s = readScalar(bytes.subarray(32));
  return c === null || s === null ? null : [c, s];
}

export function readToken(bytes) {
  if (!bytes || bytes.length !== 96) return null;
  const T = readPoint(bytes.subarray(0, 32));
  const proof = readProof(bytes.subarray(32));
  return T && proof ? { T, proof } : null;
}

export function envBytes(env, to) {
  return new TextEncoder().encode(JSON.stringify([env.table, env.round, env.from, env.seq, env.k, to]));
}
