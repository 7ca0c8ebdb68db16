// A partner's signal at a fair table (house rule `signals`, docs/rules.md §10.5): which signal a
// seat made is for its partners alone, and whether its hand held it is checked after the deal.
// The signalling device says, in its own numbered stream (FairTable.say), a commitment to the
// signal and, for each device of the signaller's partners, the signal sealed for that device
// (codec.js seal: AES-256-GCM under a key from the two devices' table keys):
//   sig.<commit>[.<device>.<iv>.<box>]...
// The commitment is SHA-256 of a 32-byte nonce and the signal; the nonce is drawn from the
// device's shuffle seed (HKDF-SHA-256 with the table, the round, the device and the signal's
// number among that device's), so the seeds opened after the deal (the `open` message) open
// every commitment: each device then reads which signal each one was, by trying the fourteen,
// and its engine checks them. A partner opens its box at once and checks that it holds what
// was committed (the nonce is in the box).
import { sha256 } from "@noble/hashes/sha2.js";
import { hkdf } from "@noble/hashes/hkdf.js";
import { b64, seal, unb64, unseal } from "./codec.js";
import { hash, transcript } from "./group.js";

export const PREFIX = "sig.";
/** Every signal an engine may name: a rank of trump, or a loaded card. */
export const SIGNALS = [..."A23456789TJHK"].map((r) => `signal-${r}`).concat("signal-loaded");
const B64 = /^[A-Za-z0-9_-]+$/;
const enc = new TextEncoder();
const dec = new TextDecoder();

const nonce = (t, seed, from, n) => hkdf(sha256, seed, enc.encode("briscola-fair-v1-signal"), transcript(t.table, t.round, from, n), 32);
const commitOf = (k, action) => b64(hash("signal", k, action));
const aad = (t, from, n, commit, to) => enc.encode(JSON.stringify(["signal", t.table, t.round, from, n, commit, to]));
const pairOf = (t, from, to) => [t.table, t.round, from, to];

/** This device's `n`-th signal, `action`, for the devices `partners`: the text to say and its
 * commitment. */
export async function sealSignal(t, n, action, partners) {
  const k = nonce(t, t.seed, t.me, n);
  const commit = commitOf(k, action);
  let text = PREFIX + commit;
  for (const to of partners) {
    const { iv, box } = await seal(t.Y[to].multiply(t.x), pairOf(t, t.me, to), aad(t, t.me, n, commit, to),
      enc.encode(JSON.stringify([action, b64(k)])));
    text += `.${to}.${iv}.${box}`;
  }
  return { text, commit };
}

/** A signal's text read: {commit, boxes: Map(device -> {iv, box})}, or null when it is not one. */
export function readSignal(text) {
  if (typeof text !== "string" || !text.startsWith(PREFIX)) return null;
  const parts = text.slice(PREFIX.length).split(".");
  const commit = parts.shift();
  if (!B64.test(commit || "") || commit.length !== 43 || parts.length % 3) return null;
  const boxes = new Map();
  for (let i = 0; i < parts.length; i += 3) {
    const [to, iv, box] = parts.slice(i, i + 3);
    if (!/^[0-5]$/.test(to) || boxes.has(Number(to)) || !B64.test(iv) || !B64.test(box)) return null;
    boxes.set(Number(to), { iv, box });
  }
  return { commit, boxes };
}

/** What device `from`'s `n`-th signal (read) says to this device: the signal, or null when its
 * box is missing, does not open, or holds another signal than the one committed. */
export async function openSignal(t, from, n, sig) {
  const mine = sig.boxes.get(t.me);
  if (!mine || !t.Y[from]) return null;
  const bytes = await unseal(t.Y[from].multiply(t.x), pairOf(t, from, t.me), aad(t, from, n, sig.commit, t.me), mine.iv, mine.box);
  if (!bytes) return null;
  let said;
  try { said = JSON.parse(dec.decode(bytes)); } catch { return null; }
  if (!Array.isArray(said) || said.length !== 2 || !SIGNALS.includes(said[0])) return null;
  const k = unb64(said[1], 32);
  return k && k.length === 32 && commitOf(k, said[0]) === sig.commit ? said[0] : null;
}

/** After the deal, device `from`'s seed opened: which signal its `n`-th commitment hid, or null
 * when it hides none (the device committed to no signal, or not with its seed). */
export function revealSignal(t, from, n, commit) {
  const seed = t.seeds[from];
  if (!seed) return null;
  const k = nonce(t, seed, from, n);
  return SIGNALS.find((a) => commitOf(k, a) === commit) ?? null;
}
