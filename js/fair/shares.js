// The shares of a deal (docs/friends.md, "The fair deal", step 4): a `tokens` message carries a
// device's reveal tokens T = x·A of the positions the game deals at once, and one proof for the
// shares meant for each recipient (a device, or ALL for a card opened to every device): group.js
// proveShares, a Chaum–Pedersen proof of their random combination. Functions of a FairTable
// (table.js), kept here to keep that module short:
//   makeShares   this device's shares of the positions dealt, the message's body
//   onTokens     another device's message: read whole before anything of it is kept
//   accept       a share for a position the game dealt (its recipient, its proof where it is
//                this device's to check)
//   shareRight, verifyShare   a share's proof checked (a group's once, for all its shares)
import { b64, proofBytes, readProof, unb64 } from "./codec.js";
import { pointBytes, proveShares, readPoint, verifyShares, verifyToken } from "./group.js";

const ALL = -1; // (table.js's: a card opened to every device)

/** The body of the `tokens` message of this device's shares of `list` ([[p, to]], none to
 * itself): `items` [[p, to, T]], `proofs` [[to, proof]] one for each recipient, in the order it
 * first comes in `items`. `record`: kept as this device's own shares (FairTable.deal). */
export function makeShares(t, list, record = true) {
  const seq = t.seq;
  const groups = new Map();
  const items = [];
  for (const [p, to] of list) {
    const A = t._deck()[p][0];
    const T = A.multiply(t.x);
    if (!groups.has(to)) groups.set(to, []);
    groups.get(to).push([p, A, T]);
    items.push([p, to, b64(pointBytes(T))]);
    if (record) t.tokens[p].set(t.me, { T, to, ok: true });
  }
  const proofs = [];
  for (const [to, group] of groups) {
    const proof = proveShares(t.x, t.Y[t.me], group, t._ctx(t.me, seq, "tokens", to));
    proofs.push([to, b64(proofBytes(proof))]);
  }
  return { items, proofs };
}

/** Device j's `tokens` message: each share kept with its recipient's group (its proof checked
 * when this device must: the shares for it or for all, the others' when their card is played). */
export function onTokens(t, j, m, WAIT) {
  if (t.phase === "keys" || t.phase === "shuffle") return WAIT;
  if (t.phase !== "deal") return t._cheat(j, "unasked", `device ${j} sent shares after the deal`);
  const groups = new Map();
  for (const [to, data] of m.proofs) {
    const proof = readProof(unb64(data, 64));
    if (to >= t.devices || to === j || groups.has(to)) return t._cheat(j, "protocol", `device ${j} sent a proof of shares for no device, or two for one`);
    if (!proof) return t._cheat(j, "bad_token", `device ${j}'s proof of its shares for ${whom(to)} is malformed`);
    groups.set(to, { to, proof, ctx: t._ctx(j, m.seq, "tokens", to), items: [], ok: undefined });
  }
  const read = [];
  const here = new Set();
  for (const [p, to, data] of m.items) {
    if (p >= t.size || to >= t.devices || to === j) return t._cheat(j, "protocol", `device ${j} sent a share for no position or device`);
    const bytes = unb64(data, 32);
    if (!bytes || bytes.length !== 32) return t._cheat(j, "bad_token", `device ${j}'s share for position ${p} is malformed`);
    const group = groups.get(to);
    if (!group) return t._cheat(j, "bad_token", `device ${j}'s share for position ${p} comes with no proof`);
    if (here.has(p) || t.tokens[p].has(j) || t.pending[p].has(j)) return t._cheat(j, "protocol", `device ${j} sent its share of position ${p} twice`);
    here.add(p);
    const share = new Share(bytes, to, group);
    group.items.push([p, share]);
    read.push([p, share]);
  }
  for (const group of groups.values()) {
    if (!group.items.length) return t._cheat(j, "protocol", `device ${j} sent a proof for no share (for ${whom(group.to)})`);
  }
  for (const [p, entry] of read) {
    if (t.asked[p] === undefined) { t.pending[p].set(j, entry); continue; }
    if (!accept(t, j, p, entry)) return;
  }
  for (const [p] of read) if (t.asked[p] !== undefined) t._settle(p);
}

/** A share for a position the game dealt: for that position's recipient, or a cheat. */
export function accept(t, j, p, entry) {
  if (entry.to !== t.asked[p]) {
    const whose = t.asked[p] === ALL ? "opened to all" : `dealt to device ${t.asked[p]}`;
    t._cheat(j, "unasked", `device ${j} sent its share of position ${p} for ${whom(entry.to)}, but the game ${whose}`);
    return false;
  }
  if ((entry.to === t.me || entry.to === ALL) && !verifyShare(t, j, p, entry)) return false;
  t.tokens[p].set(j, entry);
  return true;
}

/** Whether device j's share of position p is proven (a share of a `tokens` message: its group's
 * one proof, checked once for all of the group; a card played or shown: its own proof). */
export function shareRight(t, j, p, entry) {
  if (entry.ok) return true;
  const g = entry.group;
  if (!g) return verifyToken(t.Y[j], t._deck()[p][0], entry.T, entry.proof, entry.ctx);
  if (g.ok === undefined) {
    const items = g.items.map(([q, share]) => [q, t._deck()[q][0], share.T]);
    g.ok = items.every(([, , T]) => T) && verifyShares(t.Y[j], items, g.proof, g.ctx);
  }
  return g.ok;
}

/** The same, where a wrong share stops the deal and names its sender. */
export function verifyShare(t, j, p, entry) {
  if (shareRight(t, j, p, entry)) {
    entry.ok = true;
    return true;
  }
  const reason = entry.group
    ? `device ${j}'s shares for ${whom(entry.to)} are wrong (their proof fails; position ${p} among them)`
    : `device ${j}'s share for position ${p} is wrong (its proof fails)`;
  t._cheat(j, "bad_token", reason, { p });
  return false;
}

/** Another device's share of a `tokens` message. Its point is decoded where it is first used
 * (its group checked, its card read): a device checks the shares for it at once, the others'
 * when their holder first plays, not while the hand is dealt (a decoding costs what a seventh of
 * a multiplication does: 96 of them at five devices). A point that does not decode fails its
 * group's proof, as a wrong one does. */
class Share {
  constructor(bytes, to, group) {
    Object.assign(this, { bytes, to, group, ok: false });
  }

  get T() {
    if (this._T === undefined) this._T = readPoint(this.bytes);
    return this._T;
  }
}

function whom(to) {
  return to === ALL ? "all" : `device ${to}`;
}
