// A short fair deal between two devices run from the bundle the page would load
// (js/fair/vendor.js, the path on the command line): keys, shuffles, six cards dealt, the
// face-up card opened, a card played each, the deal finished and checked. Prints JSON. Read by
// tests/test_fairdeal.py.
import { pathToFileURL } from "node:url";

const { ALL, FairTable } = await import(pathToFileURL(process.argv[2]).href);
const deck = ["AD", "3D", "KD", "AC", "3C", "KC", "AS", "3S", "KS", "AB"];
const tables = [0, 1].map((me) => new FairTable({ table: "bundle", round: 1, devices: 2, me, deck }));
const events = [[], []];
let lanes = [];
const post = (from, { send, events: evs }) => {
  events[from].push(...evs);
  for (const { msg } of send) lanes.push([from, 1 - from, JSON.stringify(msg)]);
};
const drain = async () => {
  while (lanes.length) {
    const [from, to, text] = lanes.shift();
    post(to, await tables[to].receive(JSON.parse(text), from));
  }
};
for (const t of tables) post(t.me, t.start());
await drain();
const plan = [[0, 0], [1, 1], [2, 0], [3, 1], [4, 0], [5, 1], [6, ALL]];
for (const t of tables) post(t.me, t.deal(plan));
await drain();
for (const t of tables) { post(t.me, t.play(t.hand()[0][0])); await drain(); }
for (const t of tables) post(t.me, t.finish());
await drain();
console.log(JSON.stringify(events.map((evs) => evs.map((e) => e.type))));
console.log(JSON.stringify(events.map((evs) => evs.filter((e) => e.type === "check"))));
