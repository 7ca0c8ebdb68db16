// The fair deal's cost (js/fair/, docs/friends.md "The fair deal"): five devices in one Node
// process, a Briscola Chiamata deal (40 cards, 8 to each device, no face-up card), every
// message passed as JSON text. Each device's work is measured where it is done (the time inside
// its own FairTable calls), so the figures are per device, as on a table of five phones, less
// the network:
//   set-up       the keys and the five shuffles, one device (its key, its proof, the four other
//                keys checked, its shuffle); and the whole set-up's critical path (the keys,
//                then the five shuffles one after another)
//   a card       one card reaching its holder: the four shares made (on four devices, at once:
//                the slowest counts) and checked by the holder, which reads the card
//   a play       a card played, opened on every device: the holder's share made, then each
//                device checks the five shares (the slowest device counts)
//   a hand       the forty cards dealt at once, as the page deals them (another deal): each
//                device's shares made (32) and those for it checked (32), its eight cards read;
//                the wait for a hand is the slowest device's making, then the holder's checking
//   the check    the check after the deal on one device: the five shuffles replayed
//   bytes        what each device sends in a deal (JSON text)
// Usage: node bench/fairdeal.mjs [--runs N] [--devices N] [--json]
import { FairTable } from "../js/fair/index.js";

const args = process.argv.slice(2);
const opt = (name, dflt) => { const i = args.indexOf(name); return i >= 0 ? Number(args[i + 1]) : dflt; };
const RUNS = opt("--runs", 5);
const N = opt("--devices", 5);
const SUITS = ["D", "C", "S", "B"];
const DECK = SUITS.flatMap((s) => ["A", "2", "3", "4", "5", "6", "7", "J", "H", "K"].map((r) => r + s));
const HAND = DECK.length / N;

async function oneDeal() {
  const tables = Array.from({ length: N }, (_, me) => new FairTable({ table: "bench", round: 1, devices: N, me, deck: DECK }));
  const busy = new Array(N).fill(0);   // ms of work per device in the current step
  const bytes = new Array(N).fill(0);
  let lanes = [];
  const timed = async (d, fn) => {
    const t0 = performance.now();
    const out = await fn();
    busy[d] += performance.now() - t0;
    for (const { to, msg } of out.send) {
      const text = JSON.stringify(msg);
      bytes[d] += text.length;
      for (let k = 0; k < N; k++) if (k !== d && (to === null || to === k)) lanes.push([d, k, text]);
    }
    return out;
  };
  const drain = async () => {
    while (lanes.length) {
      const [from, to, text] = lanes.shift();
      await timed(to, () => tables[to].receive(JSON.parse(text), from));
    }
  };
  const step = async (fn) => {
    busy.fill(0);
    await fn();
    await drain();
    return [...busy];
  };
  // the keys (every device at once), then the shuffles in turn (device 0's starts as the last
  // key reaches it; each next one when the previous deck arrives)
  const keys = await step(async () => { for (const t of tables) await timed(t.me, () => t.start()); });
  const card = [];
  const play = [];
  // the deal: each card one at a time, as a draw from the talon would be
  for (let p = 0; p < DECK.length; p++) {
    const work = await step(async () => { for (const t of tables) await timed(t.me, () => t.deal([[p, p % N]])); });
    const holder = p % N;
    card.push(Math.max(...work.filter((_, d) => d !== holder)) + work[holder]);
  }
  // every card played, in turn
  for (let r = 0; r < HAND; r++) {
    for (let d = 0; d < N; d++) {
      const [p] = tables[d].hand()[0];
      const work = await step(() => timed(d, () => tables[d].play(p)));
      play.push(work[d] + Math.max(...work.filter((_, k) => k !== d)));
    }
  }
  const t0 = performance.now();
  for (const t of tables) await timed(t.me, () => t.finish());
  await drain();
  const finish = performance.now() - t0;
  const ok = tables.every((t) => t.result && t.result.fair);
  // the check alone, once more on device 0 (the replay of the five shuffles)
  const c0 = performance.now();
  tables[0].result = null;
  tables[0]._check(true);
  const check = performance.now() - c0;
  return { setup: keys, card, play, check, finish, bytes, ok };
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
function p90(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(0.9 * s.length) - 1)];
}

// the set-up's critical path, measured on its own: keys on every device, then each shuffle
async function setupPath() {
  const tables = Array.from({ length: N }, (_, me) => new FairTable({ table: "bench", round: 1, devices: N, me, deck: DECK }));
  const keyWork = [];
  const keyMsgs = [];
  for (const t of tables) {
    const t0 = performance.now();
    keyMsgs.push(t.start().send[0].msg);
    keyWork.push(performance.now() - t0);
  }
  // every device checks the others' keys (at once); the last shuffler's wait is the chain
  let path = Math.max(...keyWork);
  let checkKeys = 0;
  let pending = [];
  for (const t of tables) {
    const t0 = performance.now();
    for (const m of keyMsgs) if (m.from !== t.me) pending.push([t.me, ...(await t.receive(JSON.parse(JSON.stringify(m)), m.from)).send]);
    checkKeys = Math.max(checkKeys, performance.now() - t0);
  }
  path += checkKeys;
  // the shuffles: device i's shuffle is sent when it has device i−1's deck
  for (let i = 0; i < N; i++) {
    const shuffle = pending.find(([from, s]) => from === i && s && s.msg.k === "shuffle");
    pending = pending.filter((x) => x !== shuffle);
    let slowest = 0;
    const next = [];
    for (const t of tables) {
      if (t.me === i) continue;
      const t0 = performance.now();
      const out = await t.receive(JSON.parse(JSON.stringify(shuffle[1].msg)), i);
      const took = performance.now() - t0;
      for (const s of out.send) next.push([t.me, s]);
      if (t.me === i + 1) slowest = took; // the next shuffler's receive includes its own shuffle
    }
    pending.push(...next);
    path += slowest;
  }
  return { path, ready: tables.every((t) => t.phase === "deal") };
}

// the whole hand dealt at once: every device's deal (its shares made), then the messages
async function handAtOnce() {
  const tables = Array.from({ length: N }, (_, me) => new FairTable({ table: "bench", round: 2, devices: N, me, deck: DECK }));
  let lanes = [];
  const post = (d, out) => { for (const { msg } of out.send) for (let k = 0; k < N; k++) if (k !== d) lanes.push([d, k, JSON.stringify(msg)]); };
  const drain = async (work) => {
    while (lanes.length) {
      const [from, to, text] = lanes.shift();
      const t0 = performance.now();
      const out = await tables[to].receive(JSON.parse(text), from);
      if (work) work[to] += performance.now() - t0;
      post(to, out);
    }
  };
  for (const t of tables) post(t.me, t.start());
  await drain(null);
  const list = DECK.map((_, p) => [p, p % N]);
  const make = [];
  for (const t of tables) {
    const t0 = performance.now();
    post(t.me, t.deal(list));
    make.push(performance.now() - t0);
  }
  const check = new Array(N).fill(0);
  await drain(check);
  const cards = tables.every((t) => t.hand().length === HAND);
  return { make, check, wait: check.map((c) => Math.max(...make) + c), cards };
}

const runs = [];
const paths = [];
const hands = [];
for (let r = 0; r < RUNS; r++) {
  runs.push(await oneDeal());
  paths.push(await setupPath());
  hands.push(await handAtOnce());
}
const all = (f) => runs.flatMap(f);
const out = {
  devices: N, runs: RUNS, cards: DECK.length,
  fair: runs.every((r) => r.ok) && paths.every((p) => p.ready) && hands.every((h) => h.cards),
  setup_path_ms: median(paths.map((p) => p.path)),
  card_ms: { median: median(all((r) => r.card)), p90: p90(all((r) => r.card)) },
  play_ms: { median: median(all((r) => r.play)), p90: p90(all((r) => r.play)) },
  hand_make_ms: median(hands.flatMap((h) => h.make)),
  hand_check_ms: median(hands.flatMap((h) => h.check)),
  hand_wait_ms: { median: median(hands.flatMap((h) => h.wait)), p90: p90(hands.flatMap((h) => h.wait)) },
  check_ms: median(runs.map((r) => r.check)),
  bytes_per_device: median(all((r) => r.bytes)),
  bytes_max: Math.max(...all((r) => r.bytes)),
};
if (args.includes("--json")) console.log(JSON.stringify(out));
else {
  console.log(`fair deal, ${N} devices, ${DECK.length} cards, ${RUNS} deals (Node ${process.version}; work timed per device)`);
  console.log("| what | median | p90 |\n| --- | ---: | ---: |");
  console.log(`| the set-up (keys, then the ${N} shuffles in turn): its critical path | ${out.setup_path_ms.toFixed(0)} ms | |`);
  console.log(`| a card reaching its holder (${N - 1} shares made at once, checked by the holder) | ${out.card_ms.median.toFixed(1)} ms | ${out.card_ms.p90.toFixed(1)} ms |`);
  console.log(`| a card played, opened on every device | ${out.play_ms.median.toFixed(1)} ms | ${out.play_ms.p90.toFixed(1)} ms |`);
  console.log(`| the whole hand dealt at once: one device's ${(N - 1) * HAND} shares made | ${out.hand_make_ms.toFixed(1)} ms | |`);
  console.log(`| the whole hand dealt at once: the ${(N - 1) * HAND} shares for one device checked, its cards read | ${out.hand_check_ms.toFixed(1)} ms | |`);
  console.log(`| the whole hand dealt at once: the wait for a hand (the slowest device's shares made, then the holder's check) | ${out.hand_wait_ms.median.toFixed(1)} ms | ${out.hand_wait_ms.p90.toFixed(1)} ms |`);
  console.log(`| the check after the deal, one device | ${out.check_ms.toFixed(0)} ms | |`);
  console.log(`| bytes one device sends in a deal | ${out.bytes_per_device} | max ${out.bytes_max} |`);
  console.log(out.fair ? "every deal checked fair on every device" : "NOT FAIR: a deal failed its check");
}
