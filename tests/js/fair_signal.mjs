// A partner's signal at a fair table (js/fair/signal.js), three devices' tables in one process:
// the signal sealed for the partner's device opens there to the signal committed, and nowhere
// else; a box that holds another signal than the one committed, or a commitment the seed does
// not open, is caught; after the deal the seed opens the commitment on every device. Prints
// JSON, read by tests/test_fairseat.py.
import { FairTable } from "../../js/fair/table.js";
import { b64, seal, unseal } from "../../js/fair/codec.js";
import { hash } from "../../js/fair/group.js";
import { PREFIX, openSignal, readSignal, revealSignal, sealSignal } from "../../js/fair/signal.js";

const deck = Array.from({ length: 40 }, (_, i) => `c${i}`);
const t = [0, 1, 2].map((me) => new FairTable({ table: "t-signal", round: 0, devices: 3, me, deck }));
// the keys, then the three shuffles in turn, every message to every other table
let queue = t.map((x, me) => x.start().send.map((s) => [me, s.msg])).flat();
while (queue.length) {
  const [from, msg] = queue.shift();
  for (let j = 0; j < 3; j++) if (j !== from) queue.push(...(await t[j].receive(msg, from)).send.map((s) => [j, s.msg]));
}
const phases = t.map((x) => x.phase);

const { text, commit } = await sealSignal(t[0], 0, "signal-A", [2]); // device 2: the partner's
const sig = readSignal(text);
const out = { phases, length: text.length, prefix: text.startsWith(PREFIX) };
out.partner = await openSignal(t[2], 0, 0, sig);
out.opponent = await openSignal(t[1], 0, 0, sig); // no box for it
out.other_number = await openSignal(t[2], 0, 1, sig); // bound to the signal's number
// a box that holds another signal than the one committed, with the same nonce (device 0's
// code changed: it seals for its partner "signal-K" under its commitment to "signal-A")
const enc = new TextEncoder();
const pair = [t[0].Y[2].multiply(t[0].x), ["t-signal", 0, 0, 2], enc.encode(JSON.stringify(["signal", "t-signal", 0, 0, 0, commit, 2]))];
const box = sig.boxes.get(2);
const [, k] = JSON.parse(new TextDecoder().decode(await unseal(...pair, box.iv, box.box)));
const forged = await seal(...pair, enc.encode(JSON.stringify(["signal-K", k])));
out.forged_box = await openSignal(t[2], 0, 0, readSignal(`${PREFIX}${commit}.2.${forged.iv}.${forged.box}`));
out.malformed = [readSignal("sig.x"), readSignal(`${PREFIX}${commit}.9.a.b`), readSignal("signal-A")];
// after the deal: every device reads the commitment from the seed opened
for (const x of t.slice(1)) x.seeds[0] = t[0].seed;
out.revealed = [revealSignal(t[1], 0, 0, commit), revealSignal(t[2], 0, 0, commit)];
out.wrong_number = revealSignal(t[1], 0, 1, commit);
// a commitment made with a nonce of the device's own choosing: the seed opens it to nothing
out.not_from_seed = revealSignal(t[1], 0, 0, b64(hash("signal", new Uint8Array(32), "signal-A")));
console.log(JSON.stringify(out));
