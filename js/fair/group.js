// The fair deal's cryptography, every operation from @noble/curves (ristretto255: a group of prime
// order, RFC 9496; hashing to it and to its scalars, RFC 9380) and @noble/hashes (SHA-256, HKDF):
// no curve arithmetic is written here, only how the protocol composes the library's. Randomness
// comes from crypto.getRandomValues. docs/friends.md ("The fair deal") says what each piece is for.
//
// - a device's key: x random, Y = x·G, with a Schnorr proof of knowledge of x (Fiat–Shamir);
// - a masked card: ElGamal under the joint key H = ΣY, a pair (A, B) = (r·G, M + r·H);
// - re-masking: (A + s·G, B + s·H), which leaves the card and makes the pair new;
// - a reveal token: T = x·A, with a Chaum–Pedersen proof that log_G(Y) = log_A(T) (DLEQ);
//   the card is B − ΣT; the shares a message carries for one recipient, one such proof for
//   their random combination (weights hashed from all of them);
// - a proof's nonce is derived from the secret and the statement (deterministic, as Ed25519's);
// - every proof's challenge hashes the context (table, round, sender, sequence, kind, recipient,
//   position) with a domain tag: a proof made for one message is no proof for another.
import { ristretto255, ristretto255_hasher } from "@noble/curves/ed25519.js";
import { mulAddUnsafe } from "@noble/curves/abstract/curve.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { hkdf } from "@noble/hashes/hkdf.js";

export const Point = ristretto255.Point;
const Fn = Point.Fn;
const G = Point.BASE;
const enc = new TextEncoder();
const DST = "briscola-fair-v1";

/** Bytes from the platform's CSPRNG (WebCrypto). */
export function randomBytes(n) {
  const out = new Uint8Array(n);
  globalThis.crypto.getRandomValues(out);
  return out;
}

function numberLE(bytes) {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]);
  return n;
}

/** A uniform nonzero scalar: 64 random bytes reduced by the library's field (bias under 2^-250). */
export function randomScalar() {
  for (;;) {
    const k = Fn.create(numberLE(randomBytes(64)));
    if (k !== 0n) return k;
  }
}

/** Length-prefixed concatenation of strings, numbers, bytes and points: one unambiguous input. */
export function transcript(...parts) {
  const chunks = [];
  for (const part of parts) {
    let bytes;
    if (part instanceof Uint8Array) bytes = part;
    else if (part instanceof Point) bytes = pointBytes(part);
    else if (typeof part === "string") bytes = enc.encode(part);
    else if (typeof part === "number" && Number.isSafeInteger(part)) bytes = enc.encode(`#${part}`);
    else throw new TypeError("transcript: a string, integer, bytes or point");
    const len = new Uint8Array(4);
    new DataView(len.buffer).setUint32(0, bytes.length);
    chunks.push(len, bytes);
  }
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) { out.set(c, at); at += c.length; }
  return out;
}

/** A challenge: the transcript hashed to a scalar (RFC 9380 hash_to_field), one tag per use. */
export function challenge(tag, ...parts) {
  return ristretto255_hasher.hashToScalar(transcript(...parts), { DST: `${DST}-${tag}` });
}

export function hash(...parts) {
  return sha256(transcript(...parts));
}

/** The point of a card of the deck, by its code: hashed to the group (nobody knows a relation
 * between two cards' points), so a card is recognised by its point. */
export function cardPoint(code) {
  let M = CARDS.get(code);
  if (!M) {
    M = ristretto255_hasher.hashToCurve(enc.encode(code), { DST: `${DST}-card` });
    CARDS.set(code, M);
  }
  return M;
}
const CARDS = new Map(); // a card's point, computed once (the same for every deal)

const SCALAR = 32;
const POINT = 32;

export function scalarBytes(k) {
  const out = new Uint8Array(SCALAR);
  let n = k;
  for (let i = 0; i < SCALAR; i++) { out[i] = Number(n & 255n); n >>= 8n; }
  return out;
}

/** A scalar from its 32 bytes; null unless canonical (below the group's order). */
export function readScalar(bytes) {
  if (!(bytes instanceof Uint8Array) || bytes.length !== SCALAR) return null;
  const n = numberLE(bytes);
  return n < Fn.ORDER ? n : null;
}

/** A point's 32 bytes, encoded once: a ristretto255 encoding (and a decoding) costs an inverse
 * square root in the field, a fifth of a multiplication, and the same points (the keys, a
 * deck's masks, the shares) are hashed into many proofs. The bytes given are the cache's own:
 * copy them (`out.set(...)`, `concat`) before changing them. */
export function pointBytes(P) {
  let bytes = ENCODED.get(P);
  if (!bytes) {
    bytes = P.toBytes();
    ENCODED.set(P, bytes);
  }
  return bytes;
}
const ENCODED = new WeakMap(); // point -> its encoding (a decoded point: the bytes it came from)

/** A point from its 32 bytes; null unless a canonical ristretto255 encoding (RFC 9496 refuses
 * every other: the bytes are then the point's one encoding, kept as such). */
export function readPoint(bytes) {
  if (!(bytes instanceof Uint8Array) || bytes.length !== POINT) return null;
  let P;
  try {
    P = Point.fromBytes(bytes);
  } catch {
    return null;
  }
  ENCODED.set(P, bytes.slice());
  return P;
}

export const sizes = { SCALAR, POINT, PROOF: 2 * SCALAR, PAIR: 2 * POINT };

// Windows of precomputed multiples (the library's, built on a point's first multiplication,
// FairTable's choice): another device's key is multiplied once for each of its proofs checked
// (some forty a deal dealt a card at a time, a few when a hand is dealt at once), the joint key 80 times a shuffle (400 in the check). A wider window makes
// a multiplication cheaper and its table dearer (2^(w−1) points for every w bits of a scalar):
// in bench/fairdeal.mjs (3, 4, 5, 8 bits tried for the keys, 4, 5, 6, 8 for the joint key) 4
// bits cost least for both, tables included (the 8 bits of before: 25–30 ms a table).
export const KEY_WINDOW = 4;
export const JOINT_WINDOW = 4;

// -- proofs -----------------------------------------------------------------------------------

/** A proof's nonce, derived from the secret and everything the proof states (as Ed25519 derives
 * its nonces): the same proof made again is the same bytes (a device that reloads and replays
 * its deal sends nothing different), and two statements never share a nonce. */
function nonce(x, tag, parts) {
  return challenge(`nonce-${tag}`, scalarBytes(x), ...parts) || 1n;
}

/** Schnorr proof of knowledge of x for Y = x·G, bound to `context` (an array of transcript parts). */
export function proveKey(x, Y, context) {
  const w = nonce(x, "key", [...context, Y]);
  const R = G.multiply(w);
  const c = challenge("key", ...context, Y, R);
  return [c, Fn.add(w, Fn.mul(c, x))];
}

export function verifyKey(Y, [c, s], context) {
  if (Y.is0()) return false;
  const R = G.multiplyUnsafe(s).subtract(Y.multiplyUnsafe(c));
  return challenge("key", ...context, Y, R) === c;
}

/** A reveal token T = x·A with a Chaum–Pedersen proof that log_G(Y) = log_A(T) (a card played,
 * a partner's hand shown; the shares of a deal are proven together, proveShares). */
export function token(x, Y, A, context, T = A.multiply(x)) {
  const w = nonce(x, "token", [...context, Y, A]);
  const c = challenge("token", ...context, Y, A, T, G.multiply(w), A.multiply(w));
  return { T, proof: [c, Fn.add(w, Fn.mul(c, x))] };
}

/** The check of a token's proof. R2 = s·A − c·T is one multi-scalar multiplication of the
 * library's (Strauss–Shamir: one chain of doublings for both points), R1 = s·G − c·Y two
 * multiplications over the library's table for G and the device's own (FairTable keeps a
 * window for each key): every input is public, so the variable-time paths are the right ones. */
export function verifyToken(Y, A, T, [c, s], context) {
  const R1 = G.multiplyUnsafe(s).subtract(Y.multiplyUnsafe(c));
  const R2 = mulAddUnsafe(Point, [A, T], [s, Fn.neg(c)]);
  return challenge("token", ...context, Y, A, T, R1, R2) === c;
}

/** The shares a message carries for one recipient, proven at once: `items` are [p, A, T] (a
 * position, its masked card's A, the share T = x·A), in any order (they are taken by position,
 * so the statement is the set). Their digest hashes the context (table, round, sender, sequence,
 * kind, recipient), the key and every (p, A, T); from it come the weights r (the first 1, the
 * others 128 bits, HKDF-SHA-256), and the statement is one Chaum–Pedersen one, log_G(Y) =
 * log_A*(T*) with A* = Σ r·A and T* = Σ r·T (two multi-scalar multiplications of the library's:
 * every input is public). A wrong T among them leaves T* ≠ x·A* but for one value of its weight
 * in 2^128, and the weights are hashed after every T is fixed (docs/friends.md, "How it works"). */
function combine(context, Y, items) {
  const sorted = [...items].sort((a, b) => a[0] - b[0]);
  const digest = hash("shares", ...context, Y, ...sorted.flat());
  const bytes = hkdf(sha256, digest, enc.encode(`${DST}-weights`), transcript(...context), 16 * sorted.length);
  const r = sorted.map((_, i) => (i === 0 ? 1n : numberLE(bytes.subarray(16 * i, 16 * i + 16)) || 1n));
  // (one share: A* = A and T* = T, the points themselves, their encodings known)
  const [As, Ts] = sorted.length === 1 ? sorted[0].slice(1)
    : [1, 2].map((k) => mulAddUnsafe(Point, sorted.map((item) => item[k]), r));
  return { digest, As, Ts };
}

/** One proof for the shares `items` ([p, A, T], each T = x·A), bound to `context`. */
export function proveShares(x, Y, items, context) {
  const { digest, As, Ts } = combine(context, Y, items);
  const w = nonce(x, "shares", [...context, digest]);
  const c = challenge("shares", ...context, digest, Y, As, Ts, G.multiply(w), As.multiply(w));
  return [c, Fn.add(w, Fn.mul(c, x))];
}

/** The check of the one proof of the shares `items` ([p, A, T]): false when any T is not x·A
 * (up to the 2^-128 of the weights), as when the proof was made for other shares or context. */
export function verifyShares(Y, items, [c, s], context) {
  if (!items.length) return false;
  const { digest, As, Ts } = combine(context, Y, items);
  if (As.is0()) return false;
  const R1 = G.multiplyUnsafe(s).subtract(Y.multiplyUnsafe(c));
  const R2 = mulAddUnsafe(Point, [As, Ts], [s, Fn.neg(c)]);
  return challenge("shares", ...context, digest, Y, As, Ts, R1, R2) === c;
}

// -- the deck ---------------------------------------------------------------------------------

/** The deck before any shuffle: each card's point, masked with nothing (A = 0): public. */
export function openDeck(points) {
  return points.map((M) => [Point.ZERO, M]);
}

/** What a shuffle's seed stands for: the permutation and one re-masking scalar per card, drawn
 * from the seed by HKDF-SHA-256 (so the commitment to the seed commits to both). `pi[k]` is the
 * position, in the deck received, of the card put at position k. */
export function expandSeed(seed, size, context) {
  const info = transcript("shuffle", ...context);
  const bytes = hkdf(sha256, seed, enc.encode(`${DST}-shuffle`), info, size * 64 + size * 8);
  const scalars = [];
  for (let k = 0; k < size; k++) scalars.push(Fn.create(numberLE(bytes.subarray(k * 64, k * 64 + 64))) || 1n);
  const pi = Array.from({ length: size }, (_, k) => k);
  const draws = bytes.subarray(size * 64);
  for (let k = size - 1; k > 0; k--) {
    // 8 bytes reduced modulo at most 52: a bias under 2^-58 per draw
    const j = Number(numberLE(draws.subarray(k * 8, k * 8 + 8)) % BigInt(k + 1));
    [pi[k], pi[j]] = [pi[j], pi[k]];
  }
  return { pi, scalars };
}

/** The deck permuted by `pi` and re-masked with `scalars` under the joint key H. `open`: the
 * scalars are public (the check after the deal replays a shuffle from its opened seed), so the
 * library's variable-time multiplication does; a device's own shuffle keeps its scalars secret
 * with the constant-time one. */
export function shuffleDeck(deck, H, { pi, scalars }, { open = false } = {}) {
  const mul = open ? (P, k) => P.multiplyUnsafe(k) : (P, k) => P.multiply(k);
  return pi.map((from, k) => {
    const [A, B] = deck[from];
    return [A.add(mul(G, scalars[k])), B.add(mul(H, scalars[k]))];
  });
}

/** A device's own shuffle as its seed says, made before the deck it shuffles comes: the
 * permutation, and each card's re-masking (s·G, s·H), which depends on nothing but the seed and
 * the joint key (the constant-time multiplication: the scalars are secret until the check). */
export function masking(seed, size, context, H) {
  const { pi, scalars } = expandSeed(seed, size, context);
  return { pi, masks: scalars.map((k) => [G.multiply(k), H.multiply(k)]) };
}

/** The deck permuted and re-masked by `masking`'s result: as `shuffleDeck` gives, by additions. */
export function remask(deck, { pi, masks }) {
  return pi.map((from, k) => [deck[from][0].add(masks[k][0]), deck[from][1].add(masks[k][1])]);
}

export function commitSeed(seed, context) {
  return hash("commit", ...context, seed);
}

export function deckBytes(deck) {
  const out = new Uint8Array(deck.length * 2 * POINT);
  deck.forEach(([A, B], k) => { out.set(pointBytes(A), k * 64); out.set(pointBytes(B), k * 64 + 32); });
  return out;
}

/** A deck from its bytes; null unless `size` pairs of canonical points. */
export function readDeck(bytes, size) {
  if (!(bytes instanceof Uint8Array) || bytes.length !== size * 2 * POINT) return null;
  const deck = [];
  for (let k = 0; k < size; k++) {
    const A = readPoint(bytes.subarray(k * 64, k * 64 + 32));
    const B = readPoint(bytes.subarray(k * 64 + 32, k * 64 + 64));
    if (!A || !B) return null;
    deck.push([A, B]);
  }
  return deck;
}

export { G, Fn };
