// The table's code (js/fair/code.js): three honest devices show the same code once the keys are
// in (none before); a host's page standing in the middle (device 0 carries every message: it
// gives device 2 a key of its own in device 1's name) makes device 2's code differ from device
// 1's; another round, or another table, another code. Prints JSON, read by
// tests/test_fairdeal.py.
import { FairTable } from "../../js/fair/table.js";
import { tableCode } from "../../js/fair/code.js";

const DECK = ["A", "2", "3", "4", "5", "6", "7", "J", "H", "K"].flatMap((r) => ["D", "C", "S", "B"].map((s) => r + s));

async function keys(tables, swap = null) {
  const out = tables.map((t) => t.start().send.filter((x) => x.msg.k === "key").map((x) => x.msg)[0]);
  const before = tables.map(tableCode);
  for (const [k, t] of tables.entries()) {
    for (const [j, msg] of out.entries()) {
      if (j === k) continue;
      await t.receive(swap ? swap(j, k, msg) : msg, j);
    }
  }
  return { before, after: tables.map(tableCode) };
}

const make = (table, round, n = 3) => Array.from({ length: n }, (_, me) => new FairTable({ table, round, devices: n, me, deck: DECK }));

const honest = await keys(make("t1", 0));
const again = await keys(make("t1", 1));
const other = await keys(make("t2", 0));
// the middle: a key made by device 0's page in device 1's name, for device 2 only
const mid = make("t3", 0);
const fake = new FairTable({ table: "t3", round: 0, devices: 3, me: 1, deck: DECK });
const fakeKey = fake.start().send.find((x) => x.msg.k === "key").msg;
const middle = await keys(mid, (j, k, msg) => (j === 1 && k === 2 ? fakeKey : msg));
console.log(JSON.stringify({ honest, again, other, middle, stateOf: mid.map((t) => t.phase) }));
