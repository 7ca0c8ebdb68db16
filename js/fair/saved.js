// A device's fair deal kept across a reload: `snapshot(table)` is JSON for the device's own
// storage (its secret key and shuffle seed in it: it never leaves the device), `restore(saved)`
// makes the table again by replaying every call and message in order. The proofs' nonces and
// the partner's seal are derived, not drawn, so the replay makes the very messages the device
// sent before (they are not sent again) and the others see nothing change.
import { FairTable } from "./table.js";
import { b64 } from "./codec.js";
import { scalarBytes } from "./group.js";

// 2: the messages of the protocol's VERSION 2 (codec.js): a deal kept by a page of version 1
// replays into another deal, and is refused
export const SAVED_VERSION = 2;

export function snapshot(t) {
  return {
    v: SAVED_VERSION,
    options: { table: t.table, round: t.round, devices: t.devices, me: t.me, deck: [...t.deck] },
    secrets: { x: b64(scalarBytes(t.x)), seed: t.seed ? b64(t.seed) : null },
    log: t.log.map((entry) => [...entry]),
  };
}

const OPS = {
  start: (t) => t.start(),
  deal: (t, list) => t.deal(list),
  play: (t, p) => t.play(p),
  give: (t, p) => t.give(p),
  take: (t, p, to) => t.take(p, to),
  show: (t, to) => t.show(to),
  say: (t, action) => t.say(action),
  finish: (t) => t.finish(),
  accuse: (t, device, code, reason) => t.accuse(device, code, reason),
  check: (t) => t.check(),
  receive: (t, text, sender) => t.receive(text === null ? null : JSON.parse(text), sender ?? undefined),
};

/** `{table, events, sent}`: the table as it was, every event it had (to draw the hand again)
 * and every message it sent (`{to, msg}`, in order: to send again to a device that may have
 * missed them, which refuses those it has heard). A snapshot that is not one, or whose replay
 * fails, is refused with an error. */
export async function restore(saved) {
  if (!saved || saved.v !== SAVED_VERSION || !saved.options || !saved.secrets || !Array.isArray(saved.log)) {
    throw new Error("fair: not a saved fair deal of this version");
  }
  const t = new FairTable({ ...saved.options, secrets: saved.secrets });
  const events = [];
  const sent = [];
  for (const entry of saved.log) {
    const [op, ...args] = Array.isArray(entry) ? entry : [];
    if (!Object.hasOwn(OPS, op)) throw new Error(`fair: a saved step that is not one (${op})`);
    const out = await OPS[op](t, ...args);
    events.push(...out.events);
    sent.push(...out.send);
  }
  return { table: t, events, sent };
}
