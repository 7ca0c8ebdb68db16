// Whole fair deals in Node: one FairSeat a device (js/fair/seat.js), each with its own Python
// engine (the bridge's fair_* requests, a python3 process a device) and a fake transport whose
// lanes cross at random. Each person's choice is a random legal action of its own view; the
// computers choose in their device's engine. Prints one line of JSON per scenario: each
// device's actions in order, the results of the check after the deal, what each device's
// engine knew mid-deal of the others' unplayed hands, and the cheats named. Read by
// tests/test_fairseat.py. The command line: scenario names (or "all").
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { FairSeat } from "../../js/fair/seat.js";

const PY = `
import sys, json
from briscola import bridge
for line in sys.stdin:
    kind, args = json.loads(line)
    sys.stdout.write(bridge.call(kind, json.dumps(args)) + "\\n")
    sys.stdout.flush()
`;

function pyEngine(log) {
  const proc = spawn("python3", ["-c", PY], { env: { ...process.env, PYTHONPATH: "py" }, stdio: ["pipe", "pipe", "inherit"] });
  const lines = createInterface({ input: proc.stdout });
  const waiting = [];
  lines.on("line", (line) => waiting.shift()(JSON.parse(line)));
  const engine = (kind, args) => new Promise((resolve, reject) => {
    waiting.push((got) => {
      log.push(kind);
      if (got.error) reject(Object.assign(new Error(got.error.message), { code: got.error.code }));
      else resolve(got.result);
    });
    proc.stdin.write(JSON.stringify([kind, args]) + "\n");
  });
  engine.close = () => proc.stdin.end();
  return engine;
}

let seed = 4242;
function rand(k) { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % k; }

const SCENARIOS = {
  // name: [rules, owner (device of each seat), bots {seat: level}]
  classic: ["classic", [0, 1], {}],
  three: ["three", [0, 1, 2], {}],
  four_teams_with_a_computer: ["four", [0, 1, 0, 2], { 2: "random" }],
  four_show_first: ["four-show-first", [0, 1, 2, 3], {}],
  exchange_seven: ["exchange-seven", [0, 1], {}],
  exchange_two: ["exchange-two", [0, 1], {}],
  brisca: ["brisca", [0, 1], {}],
  bisca: ["bisca", [0, 1], {}],
  rebury: ["rebury", [0, 1], {}],
  scoperta: ["scoperta", [0, 1], {}],
  bosnian_five: ["bosnian-five", [0, 1, 2, 3, 4], {}],
  six: ["six", [0, 1, 2, 0, 3, 0], { 3: "random", 5: "random" }],
  chiamata: ["chiamata", [0, 1, 2, 3, 4], {}],
  four_signals: ["four-signals", [0, 1, 2, 3], {}],
  six_signals: ["six-signals", [0, 1, 2, 0, 3, 0], { 3: "random", 5: "random" }],
  brisca_six: ["brisca-six", [0, 1, 2, 3, 4, 5], {}], // the 48-card Spanish deck
  // cheats
  chiamata_revoke: ["chiamata", [0, 1, 2, 3, 4], {}, { revoke: 2 }],
  a_card_named_unopened: ["classic", [0, 1], {}, { name: 1 }],
  four_false_signal: ["four-signals", [0, 1, 2, 3], {}, { signal: "any" }], // (the first device that may signal: the cards are random)
  // reloads: a device's page reloaded mid-deal (its snapshot, a fresh engine)
  classic_reload: ["classic", [0, 1], {}, { reload: [[1, 9], [0, 22]] }],
  three_one_leaves: ["three", [0, 1, 2], {}, { leave: [2, 8] }],
  four_host_reloads: ["four", [0, 1, 0, 2], { 2: "random" }, { reload: [[0, 12]] }],
  four_signals_reload: ["four-signals", [0, 1, 2, 3], {}, { reload: [[undefined, "signal"]] }],
};

/** A device whose code was changed takes `action` against the rules: its own engine takes it
 * unchecked (as its save says, the way another device's engine takes it), and it sends it. */
async function cheatWith(seat, action) {
  const honest = seat.engine;
  seat.engine = async (kind, args) => {
    if (kind !== "fair_act" || args.action !== action) return honest(kind, args);
    seat.engine = honest;
    const { deal, bots } = await honest("fair_save", {});
    deal.unchecked.push(deal.actions.length);
    deal.actions.push(action);
    return honest("fair_deal", { deal, bots });
  };
  return seat._serial(() => seat._perform(action));
}

async function run(name) {
  const [rules, owner, bots, cheat = {}] = SCENARIOS[name];
  const devices = Math.max(...owner) + 1;
  const logs = Array.from({ length: devices }, () => []);
  const engines = logs.map((log) => pyEngine(log));
  const dealer = rand(owner.length);
  const seats = engines.map((engine, me) => new FairSeat({
    table: `t-${name}`, round: 0, me, owner, rules, dealer, engine,
    bots: Object.fromEntries(Object.entries(bots).filter(([s]) => owner[s] === me)),
  }));
  const lanes = new Map();
  const moved = seats.map(() => []);
  const results = seats.map(() => null);
  const cheats = seats.map(() => []);
  const leaks = [];
  const shownTo = seats.map(() => new Set());
  let spied = 0;
  let bytes = 0;
  const biggest = {}; // the longest message of each kind
  let clear = 0;
  const turns = [];
  const reloaded = [];
  const alive = new Array(devices).fill(true);
  const voided = Array.from({ length: devices }, () => []);
  const sentBy = seats.map(() => []); // what each device sent, in order (its reload's `sent` is checked against it)
  const refused = seats.map(() => []);
  const post = (from, { send, events }, again = false) => {
    for (const { to, msg } of send) {
      const text = JSON.stringify(msg);
      if (!again) sentBy[from].push(JSON.stringify({ to, msg }));
      bytes += again ? 0 : text.length;
      if (!again) biggest[msg.k] = Math.max(biggest[msg.k] ?? 0, text.length);
      if (text.includes("signal-")) clear += 1; // a signal said in clear (it travels sealed for partners)
      for (let d = 0; d < devices; d++) {
        if (d === from || (to !== null && to !== d)) continue;
        const key = `${from}>${d}`;
        if (!lanes.has(key)) lanes.set(key, []);
        lanes.get(key).push(text);
      }
    }
    for (const e of events) {
      if (e.type === "moved") moved[from].push(e.action);
      else if (e.type === "result") results[from] = e;
      else if (e.type === "cheat") cheats[from].push(e);
      else if (e.type === "shown") shownTo[from].add(e.pos);
      else if (e.type === "turn") turns.push([from, e]);
      else if (e.type === "void") voided[from].push(e.device);
      else if (e.type === "refused") refused[from].push(e.code);
    }
  };
  for (let d = 0; d < devices; d++) post(d, await seats[d].start());
  let steps = 0;
  for (;;) {
    const busy = [...lanes].filter(([, q]) => q.length);
    if (busy.length) {
      const [key, q] = busy[rand(busy.length)];
      const [from, to] = key.split(">").map(Number);
      post(to, await seats[to].receive(JSON.parse(q.shift()), from));
      continue;
    }
    if (!turns.length) break;
    const [d, { view }] = turns.shift();
    steps += 1;
    if (cheat.leave && steps >= cheat.leave[1]) { // a device gone for good: the others end the deal
      const [gone] = cheat.leave;
      delete cheat.leave;
      lanes.forEach((q, key) => { if (key.endsWith(`>${gone}`) || key.startsWith(`${gone}>`)) q.length = 0; });
      for (let i = turns.length - 1; i >= 0; i--) if (turns[i][0] === gone) turns.splice(i, 1);
      alive[gone] = false;
      for (let k = 0; k < devices; k++) if (k !== gone) post(k, await seats[k].abandon(gone));
      continue;
    }
    if (!alive[d] || seats[d].stopped) continue;
    // (a reload at "signal": of a device that was told only that a signal was made, once one was)
    const toldOnly = moved.findIndex((m) => m.includes("signal"));
    const due = (cheat.reload ?? []).findIndex(([, at]) => (at === "signal" ? toldOnly >= 0 : at <= steps));
    if (due >= 0) {
      const [k = toldOnly] = cheat.reload.splice(due, 1)[0];
      const saved = JSON.parse(JSON.stringify(await seats[k].snapshot())); // (as storage keeps it)
      engines[k].close();
      engines[k] = pyEngine(logs[k]);
      seats[k] = await FairSeat.restore(saved, engines[k]);
      reloaded.push(k);
      for (let i = turns.length - 1; i >= 0; i--) if (turns[i][0] === k) turns.splice(i, 1);
      if (d !== k) turns.unshift([d, { view }]);
      post(k, await seats[k].resume()); // (its person's turn said again)
      // what it had sent, made again by the replay, is sent again (as a page that comes back
      // does: some may have been lost on the way); every device refuses those it has heard
      const again = seats[k].sent.map((m) => JSON.stringify(m));
      if (JSON.stringify(again) !== JSON.stringify(sentBy[k])) leaks.push({ device: k, resent: "not the messages it had sent" });
      post(k, { send: seats[k].sent, events: [] }, true);
      continue;
    }
    if (steps % 5 === 0) await spy(seats, engines, shownTo, leaks, () => { spied += 1; });
    let action = view.legal[rand(view.legal.length)];
    if (cheat.revoke !== undefined && view.phase === "auction") action = view.legal.includes("carichi") ? "carichi" : "pass";
    const suit = view.trick.length ? view.trick[0].card.slice(-1) : null;
    if (cheat.revoke === d && suit && view.phase === "play") {
      const off = view.hand.find((c) => c.slice(-1) !== suit);
      if (off && view.hand.some((c) => c.slice(-1) === suit)) {
        action = off;
        delete cheat.revoke; // once
        cheat.revoked = off;
        post(d, await cheatWith(seats[d], off)); // the card played
        continue;
      }
    }
    const signals = view.legal.filter((a) => a.startsWith("signal-"));
    if ((cheat.signal === d || cheat.signal === "any") && signals.length && view.talon_size > 8) { // (before partners see hands)
      const claim = ["signal-A", "signal-3", "signal-K", "signal-H", "signal-J", "signal-loaded"].find((a) => !signals.includes(a));
      if (claim) {
        delete cheat.signal;
        cheat.signalled = claim;
        cheat.signaller = d;
        post(d, await cheatWith(seats[d], claim)); // the false signal said
        continue;
      }
    }
    if (cheat.name === d) {
      delete cheat.name;
      post(d, await seats[d]._serial(async () => seats[d]._take(seats[d].fair.say(action))));
      continue;
    }
    post(d, await seats[d].act(action));
  }
  if (process.env.FAIRSEAT_DEBUG) for (const s of seats) console.error(JSON.stringify({ me: s.me, turn: s.reply.turn, needs: s.reply.needs, over: s.reply.over, waiting: s.waiting, stopped: s.stopped, asked: s.asked, actions: s.reply.actions, shows: s.reply.shows, phase: s.fair.phase, faceup: s.reply.places.faceup, hands: s.reply.places.hands }));
  for (const e of engines) e.close();
  return {
    name, devices, moved, results, cheats: cheats.map((c) => c.map(({ device, code }) => ({ device, code }))),
    leaks, spied, bytes, biggest, clear, revoked: cheat.revoked ?? null, signalled: cheat.signalled ?? null, signaller: cheat.signaller ?? null, reloaded, voided, refused, shown: shownTo.map((x) => x.size),
    requests: logs.map((l) => l.length),
  };
}

/** What each device's engine holds of another device's unplayed hand (its saved deal: what
 * its worker keeps), the cards that device showed it aside. */
async function spy(seats, engines, shownTo, leaks, count) {
  for (let k = 0; k < seats.length; k++) {
    const { deal: save } = await engines[k]("fair_save", {});
    count();
    for (let j = 0; j < seats.length; j++) {
      if (j === k) continue;
      for (const [p, card] of seats[j].fair.hand()) {
        if (save.known[String(p)] !== undefined && !shownTo[k].has(p) && !seats[k].fair.public[p]) leaks.push({ device: k, of: j, p, card });
      }
    }
  }
}

const names = process.argv.slice(2);
for (const name of names.includes("all") || !names.length ? Object.keys(SCENARIOS) : names) {
  console.log(JSON.stringify(await run(name)));
}
