// Every fair-deal message signed by the device that sends it (docs/friends.md, "Signed
// messages"), so that a message changed on the way names the device that changed it, not the
// one whose name it bears. The signature is a Schnorr signature under the device's table key
// Y = x·G: the very proof of knowledge its key message proves x with (group.js `proveKey`),
// bound to the message's SHA-256 and its envelope (table, round, sender, number), on the
// library's group operations; its nonce is derived, so a message made again after a reload is
// the same bytes.
//
// Between two friends' devices a message goes through the host's page (the hub, device 0):
// the hub checks each message's signature before it passes it on, and stops the deal naming
// the sender when it fails (the sender's page is the only other one that held it). A device
// that is not the hub and gets a message of another non-hub device whose signature fails names
// the hub, which carried it.
import { hash, proveKey, readPoint, verifyKey } from "./group.js";
import { b64, proofBytes, readProof, shapeError, unb64 } from "./codec.js";

/** The device through which the others' messages pass (the host's page's device). */
export const HUB = 0;

/** The bytes a signature is over: the message without its signature. */
function digest(msg) {
  const rest = { ...msg };
  delete rest.sig;
  return hash(JSON.stringify(rest));
}

function context(msg) {
  return [msg.table, msg.round, msg.from, msg.seq, "sig", digest(msg)];
}

/** `msg` with its signature (`sig`) under the device's key x (its point Y). */
export function signed(msg, x, Y) {
  return { ...msg, sig: b64(proofBytes(proveKey(x, Y, context(msg)))) };
}

/** The key a message of device j is signed with: for its key message the key it states (whose
 * own proof the table checks), for the rest the key its key message stated (`known`). */
export function signerOf(msg, known) {
  if (msg.k === "key") return readPoint(unb64(msg.Y, 32));
  return known ?? null;
}

/** Whether `msg` bears a valid signature under Y. */
export function signatureOk(msg, Y) {
  if (!Y || typeof msg.sig !== "string") return false;
  const proof = readProof(unb64(msg.sig, 64));
  return !!proof && verifyKey(Y, proof, context(msg));
}

/** Whom a message of device j whose signature fails names, on device `me`: the hub, where the
 * hub carried it between two other devices; else its sender (it came straight from there). */
export function blamed(me, j) {
  return me !== HUB && j !== HUB ? HUB : j;
}

/** On device t's receipt of `msg` from device j (its envelope checked): null when its signature
 * holds (and the key of a key message is noted); else what to do with it: `{refuse: reason}`
 * where it came straight from its sender (a message its own device did not sign is bad input:
 * refused, changing nothing, and carried to no one) or no key of j's is known to check it with;
 * `{cheat: [device, code, reason]}` where the hub carried it between two other devices and it
 * came changed (the deal stops, the hub named). */
export function unsigned(t, msg) {
  const j = msg.from;
  const signer = signerOf(msg, t.signers[j]);
  if (!signer && msg.seq === t.nextSeq[j]) return { refuse: `device ${j}'s message ${msg.seq} came before its key` };
  if (signer && !t._carried.has(msg) && !signatureOk(msg, signer)) {
    const by = blamed(t.me, j);
    if (by === j) return { refuse: `device ${j}'s message ${msg.seq} does not bear its signature` };
    return { cheat: [by, "changed", `device ${j}'s message ${msg.seq} reached this device changed: device ${by} carried it`] };
  }
  if (msg.k === "key" && !t.signers[j]) t.signers[j] = signer;
  return null;
}

/** The hub's check of a message of device `from` that it passes on to the others: true when it
 * bears its sender's signature. False: not to be passed on (the hub's own `receive` of it
 * refuses it). Changes nothing the deal depends on. */
export function carried(t, msg, from) {
  if (shapeError(msg) || msg.from !== from || from === t.me || !(from < t.devices) ||
      msg.table !== t.table || msg.round !== t.round) return false;
  const signer = signerOf(msg, t._carryKeys[from] ?? t.signers[from]); // (the latter: a reloaded hub)
  if (!signatureOk(msg, signer)) return false;
  if (msg.k === "key") t._carryKeys[from] ??= signer;
  t._carried.add(msg);
  return true;
}
