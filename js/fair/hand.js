// Partners see each other's hands (house rule `partner_view`): a device's shares of its unplayed
// cards, each with its Chaum–Pedersen proof, sealed for one partner (codec.js's seal: AES-256-GCM
// under a key from the two devices' table keys), and the partner's side: open, check, read.
// Functions of a FairTable (table.js), kept here to keep that module short.
import { b64, concat, envBytes, proofBytes, readToken, seal, unb64, unseal } from "./codec.js";
import { Point, pointBytes, token } from "./group.js";

const G = Point.BASE;

export async function sealHand(t, to) {
  t.log.push(["show", to]);
  const seq = t.seq;
  const items = [];
  for (let p = 0; p < t.size; p++) {
    if (t.holder[p] !== t.me || t.played[p] || t.public[p]) continue;
    const { T, proof } = token(t.x, t.Y[t.me], t._deck()[p][0], t._ctx(t.me, seq, "show", p, to));
    items.push([p, b64(concat(pointBytes(T), proofBytes(proof)))]);
  }
  const env = t._envelope("show", seq);
  const sealed = await seal(t.Y[to].multiply(t.x), [t.table, t.round, t.me, to],
    envBytes(env, to), new TextEncoder().encode(JSON.stringify(items)));
  // sent to every device as the others are (one sequence per sender): sealed for `to` alone
  t._send("show", { to, ...sealed });
  return t._flush();
}

export async function unsealHand(t, m) {
  const env = t._envelope("show", m.seq, m.from);
  const bytes = await unseal(t.Y[m.from]?.multiply(t.x) ?? G, [t.table, t.round, m.from, t.me],
    envBytes(env, t.me), m.iv, m.box);
  if (!bytes) return null;
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    return null;
  }
}

export function onHand(t, j, m, WAIT) {
  if (m.to !== t.me) return;
  if (t.phase === "keys" || t.phase === "shuffle") return WAIT;
  const items = t._shown.get(m);
  if (!Array.isArray(items) || items.length > t.size) return t._cheat(j, "protocol", `device ${j}'s hand shown to this device does not open`);
  const read = [];
  for (const item of items) {
    const [p, data] = Array.isArray(item) ? item : [];
    const tk = readToken(unb64(typeof data === "string" ? data : "", 96));
    if (!Number.isInteger(p) || p < 0 || p >= t.size || !tk) return t._cheat(j, "protocol", `device ${j}'s shown hand is malformed`);
    if (t.asked[p] === undefined || t.tokens[p].size < t.devices - 1) return WAIT;
    if (t.holder[p] !== j || t.played[p]) return t._cheat(j, "not_its_card", `device ${j} showed position ${p}, which is not in its hand`);
    read.push([p, { ...tk, ctx: t._ctx(j, m.seq, "show", p, t.me), ok: false }]);
  }
  for (const [p, entry] of read) {
    if (!t._verify(j, p, entry)) return;
    for (const [i, other] of t.tokens[p]) if (!t._verify(i, p, other)) return;
    let M = t._deck()[p][1].subtract(entry.T);
    for (const [, { T }] of t.tokens[p]) M = M.subtract(T);
    const card = t.byPoint.get(b64(M.toBytes()));
    if (card === undefined) return t._cheat(null, "not_a_card", `position ${p} holds no card of the deck: a shuffle was forged`);
    if (!t._known(p, card, { type: "shown", pos: p, card: t.deck[card], holder: j })) return;
  }
}
