// The check after the deal: from every device's opened commitment (its shuffle's seed), replay
// the whole deal (each shuffle permuted and re-masked again from its seed, compared with the deck
// that device sent) and the cards every position held, and say "fair" or which device cheated
// and how. Run by FairTable on each device once every commitment is open (table.js).
import { commitSeed, expandSeed, shuffleDeck } from "./group.js";

function sameBytes(a, b) {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i] ^ b[i];
  return diff === 0;
}

/** The result of a replay: `{fair: true, order}` (order[p]: the deck index of the card at
 * position p of the dealt deck) or `{fair: false, device, code, reason}`.
 * `decks[0]` is the open deck, `decks[i + 1]` what device i sent; `seeds[i]` its opening (or
 * undefined); `commits[i]` its commitment; `known` maps a position to the card index the deal
 * showed this device there (its own cards, the opened ones, a partner's shown ones). */
export function replay({ table, round, devices, H, decks, commits, seeds, known }) {
  const size = decks[0].length;
  let order = Array.from({ length: size }, (_, k) => k);
  for (let i = 0; i < devices; i++) {
    if (!decks[i + 1]) {
      return { fair: false, device: i, code: "no_shuffle", reason: `device ${i} never shuffled the deck` };
    }
    if (!seeds[i]) {
      return { fair: false, device: i, code: "not_opened", reason: `device ${i} did not open its shuffle's commitment` };
    }
    const context = [table, round, i];
    if (!sameBytes(commitSeed(seeds[i], context), commits[i])) {
      return { fair: false, device: i, code: "commitment", reason: `device ${i}'s opening does not match the commitment it sent with its shuffle` };
    }
    const drawn = expandSeed(seeds[i], size, context);
    const again = shuffleDeck(decks[i], H, drawn, { open: true }); // the seed is public now
    const sent = decks[i + 1];
    for (let k = 0; k < size; k++) {
      if (!again[k][0].equals(sent[k][0]) || !again[k][1].equals(sent[k][1])) {
        return {
          fair: false, device: i, code: "shuffle",
          reason: `device ${i}'s shuffle is not the deck it received, permuted and re-masked as its commitment says: position ${k} differs (a card substituted or duplicated)`,
        };
      }
    }
    order = drawn.pi.map((from) => order[from]);
  }
  for (const [p, card] of known) {
    if (order[p] !== card) {
      return { fair: false, device: null, code: "mismatch", reason: `position ${p} showed a card the replay does not give it` };
    }
  }
  return { fair: true, order };
}

/** Whether every device heard each device's messages as this one did (a device could send
 * different messages to different devices under the same numbers): each opening says, for each
 * device, how many of its messages the opener had heard and the last hash of their chain
 * (`heard[o][i]`), which this device compares with its own chain (`chains[i]`). Null when they
 * agree; else a result naming nobody (the sender or the opener lied: nothing here tells which). */
export function sameTranscripts(me, heard, chains) {
  for (let o = 0; o < heard.length; o++) {
    if (o === me || !heard[o]) continue;
    for (let i = 0; i < chains.length; i++) {
      const [count, last] = heard[o][i] ?? [0, ""];
      if (count === 0 || count > chains[i].length) continue;
      if (chains[i][count - 1] !== last) {
        return { fair: false, device: null, code: "transcripts",
          reason: `device ${i}'s messages as device ${o} heard them are not those this device heard: one of the two cheated` };
      }
    }
  }
  return null;
}

/** The check after the deal on table `t` (FairTable._check), once every shuffle is opened
 * (`force`: with what is in): its result and event. */
export function checkTable(t, force) {
  if (t.result || (t.phase !== "over" && t.phase !== "stopped")) return;
  if (!t.H) { // stopped while the keys were made: no deck to check
    if (!t.stopped) return;
    t.result = { fair: false, ...t.stopped };
    t._events.push({ type: "check", ...t.result });
    return;
  }
  // stopped mid-shuffle: the devices that shuffled are the ones that have a seed to open
  const shuffled = t.phase === "stopped" ? t.turn : t.devices;
  if (!force && t.seeds.slice(0, shuffled).filter(Boolean).length < shuffled) return;
  const known = [];
  t.card.forEach((c, p) => { if (c !== undefined) known.push([p, c]); });
  const out = replay({
    table: t.table, round: t.round, devices: t.devices, H: t.H,
    decks: t.decks, commits: t.commits, seeds: t.seeds, known,
  });
  // a deal stopped before every shuffle was in or opened: the stop says what happened
  const early = !out.fair && (out.code === "no_shuffle" || out.code === "not_opened");
  const result = t.stopped && (out.fair || early) ? { fair: false, ...t.stopped }
    : (out.fair && sameTranscripts(t.me, t.heard, t.chains)) || out;
  delete result.order;
  t.result = result;
  t._events.push({ type: "check", ...result });
}
