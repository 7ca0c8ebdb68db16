// Drives js/friends/referee.js in Node against a fake transport and a fake worker, and prints
// as JSON what it did: every message sent to each peer, every call the worker got (with the
// peer whose message caused it), the peers let go, and what the referee held after each step.
// The command line: the scenario's name (and a seed, for "fuzz"). Read by
// tests/test_friends_referee.py.
import { BOUNDS, Referee } from "../../js/friends/referee.js";

const BUILD = "build-1";
const TOKENS = ["T".repeat(20), "U".repeat(20), "V".repeat(20)];

/** A seat's table as the fake worker answers it: its hand a secret of that seat. */
const tableOf = (seat) => ({ seat, view: { hand: [`secret-of-${seat}`] }, seats: [], match: { deal: 0 } });

/** A table of `friends + 1` seats (the host's, then the friends') with a fake transport and
 * worker. The worker answers a play as the bridge does at a friends table: the host's table
 * (`viewer`, the host's page asks so) with every friend seat's view in `views` (each with a
 * save, which must never travel); `views: false`, without them (the reply of the play's own
 * seat, as before the bridge carried them). `played`: what the host's page does when a friend
 * played (the default counts it). */
function table({ answer = "now", friends = 2, views = true, played = null } = {}) {
  const seats = [{ kind: "human", name: "Host" }];
  for (let i = 0; i < friends; i++) seats.push({ kind: "friend", name: "", token: null, peer: null });
  const out = { sent: [], asked: [], dropped: [], warnings: [], played: 0, lobby: 0, seated: [] };
  const waiting = []; // the worker's answers not given yet (answer: "later")
  let clock = 0;
  let current = null; // the peer whose message is being heard
  let started = false;
  let n = 1;
  const paired = new Map();
  const hooks = {
    send: (peer, msg) => out.sent.push([peer, JSON.parse(JSON.stringify(msg))]),
    drop: (peer, why) => out.dropped.push([peer, why]),
    ask: (type, args) => {
      out.asked.push({ peer: current, type, args: JSON.parse(JSON.stringify(args)),
        heldBy: current && ref.peers.get(current) ? ref.peers.get(current).seat : null });
      const everyView = () => Object.fromEntries(seats.map((s, i) => [i, s]).filter(([, s]) => s.kind === "friend")
        .map(([i]) => [String(i), { ...tableOf(i), save: "never" }]));
      const reply = type === "state" ? { ...tableOf(args.seat), save: "never" }
        : type === "act" ? (args.action === "XX" ? null
          : views ? { ...tableOf(0), save: "never", views: everyView() } : { seat: args.seat, view: { hand: [`secret-of-${args.seat}`] }, save: "never" })
          : { deal: args.deal, for: args.seat };
      if (answer === "later") return new Promise((resolve, reject) => waiting.push({ resolve: () => resolve(reply), reject }));
      if (reply === null) return Promise.reject(Object.assign(new Error("illegal"), { code: "illegal_action" }));
      return Promise.resolve(reply);
    },
    sign: async (text) => `sig:${text.length}`,
    // the pairs (js/friends/pairs.js): a peer id keeps the first key it asked with
    pair: async (peer, dh) => {
      if (paired.has(peer) && paired.get(peer) !== dh) return null;
      paired.set(peer, dh);
      return "H".repeat(87);
    },
    self: () => "host-peer",
    started: () => started,
    game: () => (started ? "g1" : null),
    n: () => n,
    played: (seat, reply) => { out.played++; n++; if (played) played(ref, seat, reply, n); return n; },
    seated: (peer, seat) => out.seated.push([peer, seat]),
    lobby: () => { out.lobby++; },
    room: "room1",
    build: BUILD,
  };
  const ref = new Referee(hooks, seats, { now: () => clock });
  const warn = console.warn;
  console.warn = (...a) => { out.warnings.push(a.join(" ")); };
  return {
    ref, seats, out, waiting,
    hear(peer, msg, at = clock) { clock = at; current = peer; const r = ref.heard(peer, msg, at); current = null; return r; },
    frame(peer, data, at = clock) { clock = at; current = peer; ref.frame(peer, data, at); current = null; },
    set clock(t) { clock = t; },
    get clock() { return clock; },
    start() { started = true; },
    done() { console.warn = warn; },
  };
}

const flush = () => new Promise((r) => setTimeout(r, 0));

/** A Trystero room frame: version 1, the token, the action's name, nonce, tag, progress, payload. */
function frame(nonce, last, bytes, type = "m", token = "tok") {
  const t = new TextEncoder().encode(token);
  const f = new Uint8Array(3 + t.length + 36 + bytes);
  f[0] = 1; f[1] = t.length >> 8; f[2] = t.length & 255;
  f.set(t, 3);
  f.set(new TextEncoder().encode(type), 3 + t.length);
  f[3 + t.length + 32] = nonce >> 8; f[3 + t.length + 33] = nonce & 255;
  f[3 + t.length + 34] = last ? 1 : 0;
  f[3 + t.length + 35] = last ? 255 : 10;
  return f;
}

async function seatBoth(tb) {
  tb.hear("p1", { t: "take", seat: 1, name: "Ann", token: TOKENS[0] });
  tb.hear("p2", { t: "take", seat: 2, name: "Bob", token: TOKENS[1] });
  tb.start();
}

// ---- scenarios --------------------------------------------------------------------------------
const scenarios = {
  /** The protocol: seats, a play for one's own seat, forged seats, ids again, what is refused at once. */
  async basics() {
    const tb = table();
    tb.hear("p1", { t: "hello", name: "Ann", token: TOKENS[0], build: BUILD });
    tb.hear("p3", { t: "hello", name: "Eve", token: TOKENS[2], build: "other" });
    await seatBoth(tb);
    tb.hear("p3", { t: "take", seat: 1, name: "Eve", token: TOKENS[2] }); // a taken seat
    tb.hear("p3", { t: "take", seat: 0, name: "Eve", token: TOKENS[2] }); // the host's
    tb.hear("p1", { t: "take", seat: 2, name: "Ann", token: TOKENS[1] }); // another page's token and seat
    tb.hear("p3", { t: "req", id: 1, type: "act", args: { action: "AD" } }); // not seated
    tb.hear("p3", { t: "sync" });
    await tb.hear("p1", { t: "req", id: 1, type: "act", args: { action: "AD", seat: 2 } }); // a forged seat
    await tb.hear("p1", { t: "req", id: 2, type: "state", args: { seat: 0 } });
    tb.hear("p1", { t: "req", id: 2, type: "state", args: {} }); // an id again
    tb.hear("p1", { t: "req", id: 3, type: "hint", args: { lang: "en" } });
    tb.hear("p1", { t: "req", id: 4, type: "tracker", args: {} });
    tb.hear("p1", { t: "req", id: 5, type: "review_plan", args: { deal: 0 } }); // its own engine's
    await tb.hear("p1", { t: "req", id: 6, type: "replay", args: { deal: 0, step: 0, seat: 2 } });
    await tb.hear("p2", { t: "req", id: 1, type: "act", args: { action: "XX" } }); // the worker refuses
    tb.hear("p2", { t: "req", id: 2, type: "undo", args: {} });
    tb.hear("p2", { t: "nonsense" });
    await tb.hear("p2", { t: "sync" });
    await tb.hear("p3", { t: "who", nonce: "n".repeat(20), dh: "K".repeat(87) });
    await tb.hear("p3", { t: "who", nonce: "m".repeat(20), dh: "L".repeat(87) }); // another key for that id: no answer
    await tb.hear("p3", { t: "who", nonce: "o".repeat(20) }); // no key: refused
    await flush();
    tb.done();
    return { ...tb.out, seats: tb.seats };
  },

  /** A friend's card at a table of 2 and of 4 (1 and 3 friends): the worker calls it costs,
   * with the views in the play's reply and without them, and what each friend was sent. The
   * host's page (played) pushes each other friend its view, from the reply as js/friends/host.js
   * does (Referee.view with the reply). */
  async views() {
    const rows = {};
    for (const [name, friends, views] of [["two", 1, true], ["four", 3, true], ["twoBefore", 1, false], ["fourBefore", 3, false]]) {
      const pushes = [];
      const tb = table({ friends, views, played: (ref, seat, reply, n) => {
        tb.seats.forEach((s, i) => { if (s.kind === "friend" && s.peer && i !== seat) pushes.push(ref.view(s.peer, i, null, n, reply)); });
      } });
      for (let i = 1; i <= friends; i++) tb.hear(`p${i}`, { t: "take", seat: i, name: `F${i}`, token: TOKENS[i - 1] });
      tb.start();
      const sentBefore = tb.out.sent.length;
      await tb.hear("p1", { t: "req", id: 1, type: "act", args: { action: "AD" } });
      await Promise.all(pushes);
      await flush();
      const asked = tb.out.asked.map((c) => c.type);
      const sent = tb.out.sent.slice(sentBefore).map(([peer, m]) => [peer, m.t, m.n ?? null, m.t === "res" ? m.result : m.state]);
      // a sync (a page come back) still asks the worker for its view
      await tb.hear("p1", { t: "sync" });
      const afterSync = tb.out.asked.map((c) => c.type).slice(asked.length);
      tb.done();
      rows[name] = { asked, sent, afterSync };
    }
    return rows;
  },

  /** The rate: a burst, a steady page, a flood. */
  async rate() {
    const tb = table();
    await seatBoth(tb);
    const first = tb.out.sent.length;
    for (let i = 0; i < 100; i++) tb.hear("p1", { t: "req", id: i, type: "hint", args: {} }, 1000); // 100 at once
    await flush();
    const burst = tb.out.sent.slice(first);
    // a steady page: 10 a second for a minute
    const steady = tb.out.sent.length;
    for (let i = 0; i < 600; i++) tb.hear("p2", { t: "req", id: i, type: "hint", args: {} }, 1000 + i * 100);
    await flush();
    const calm = tb.out.sent.slice(steady).filter(([p]) => p === "p2");
    // a flood: 200 a second from then on until the peer is let go
    let until = null;
    const start = 70000;
    for (let i = 0; i < 4000 && !tb.out.dropped.length; i++) {
      tb.hear("p1", { t: "req", id: 100 + i, type: "state" }, start + i * 5);
      until = start + i * 5;
    }
    await flush();
    // a peer past its rate, then quiet for a while, is heard again
    const t = tb.table;
    tb.done();
    return { burst, calm, dropped: tb.out.dropped, floodMs: until - start, after: tb.ref.peers.has("p1"),
      seat: tb.seats[1].peer, bounds: BOUNDS, t };
  },

  /** The queue: a worker that does not answer yet. */
  async queue() {
    const tb = table({ answer: "later" });
    await seatBoth(tb);
    const promises = [];
    for (let i = 1; i <= 8; i++) promises.push(tb.hear("p1", { t: "req", id: i, type: "state" }, i * 100));
    const asked = tb.out.asked.length;
    const refused = tb.out.sent.filter(([p, m]) => p === "p1" && m.t === "res").map(([, m]) => [m.id, m.error && m.error.code]);
    const other = tb.hear("p2", { t: "req", id: 1, type: "state" }, 1000); // another peer is not held up
    const askedOther = tb.out.asked.length;
    tb.waiting.shift().resolve();
    await flush();
    tb.hear("p1", { t: "req", id: 20, type: "state" }, 2000);
    const askedAfter = tb.out.asked.length;
    for (const w of tb.waiting.splice(0)) w.resolve();
    await Promise.all([...promises, other]);
    await flush();
    tb.done();
    return { asked, refused, askedOther, askedAfter, waiting: [...tb.ref.peers.values()].map((p) => p.waiting) };
  },

  /** Chunked messages left unfinished. */
  async parts() {
    const tb = table();
    await seatBoth(tb);
    const rows = {};
    // a finished one is forgotten; three unfinished are held
    tb.frame("p1", frame(1, false, 1000), 0);
    tb.frame("p1", frame(1, true, 10), 0);
    rows.afterFinished = tb.ref.unfinished();
    for (let k = 2; k <= 4; k++) tb.frame("p1", frame(k, false, 16000), 100);
    rows.threeHeld = [tb.ref.unfinished(), tb.out.dropped.length];
    tb.frame("p1", frame(5, false, 100), 200); // a fourth: let go
    rows.fourth = [tb.ref.unfinished(), tb.out.dropped.slice(), tb.seats[1].peer];
    // one too big
    tb.frame("p2", frame(1, false, 16000), 300);
    for (let i = 0; i < 4; i++) tb.frame("p2", frame(1, false, 16000), 300);
    rows.big = [tb.ref.unfinished(), tb.out.dropped.slice()];
    // one too old
    tb.hear("p3", { t: "hello", name: "Eve", build: BUILD }, 400);
    tb.frame("p3", frame(9, false, 100), 500);
    tb.ref.tick(500 + BOUNDS.partMs - 1);
    rows.young = [tb.ref.unfinished(), tb.out.dropped.length];
    tb.ref.tick(500 + BOUNDS.partMs);
    rows.old = [tb.ref.unfinished(), tb.out.dropped.slice()];
    // a peer let go is not heard any more (its messages still on the way)
    const before = tb.out.sent.length;
    tb.hear("p3", { t: "sync" }, 20000);
    rows.afterDrop = tb.out.sent.length - before;
    tb.ref.joined("p3"); // it comes back: a new connection is heard
    tb.hear("p3", { t: "sync" }, 21000);
    rows.back = tb.out.sent.slice(before).map(([p, m]) => [p, m.code]);
    // frames that are not parts: ignored
    tb.frame("p4", new Uint8Array([2, 0, 1, 65]), 30000);
    tb.frame("p4", "text", 30000);
    tb.frame("p4", null, 30000);
    rows.odd = [tb.ref.unfinished(), tb.out.warnings];
    tb.done();
    return rows;
  },

  /** Thousands of random and hostile messages; the invariants checked after every one. */
  async fuzz(seed = 1) {
    let s = seed >>> 0 || 1;
    const rnd = () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s / 4294967296; };
    const pick = (a) => a[Math.floor(rnd() * a.length)];
    const int = (n) => Math.floor(rnd() * n);
    const tb = table({ answer: "later" });
    await seatBoth(tb);
    // four pages; one let go comes back as a new peer (a new connection), with its token
    const gen = [0, 0, 0, 0];
    const name = (k) => `p${k + 1}${gen[k] ? `.${gen[k]}` : ""}`;
    const owner = (peer) => Number(peer[1]) - 1;
    const huge = "x".repeat(100000);
    const values = () => pick([null, undefined, true, 0, -1, 1.5, 1e12, NaN, Infinity, "", "AD", huge, [], [1, 2], {}, { a: { b: { c: { d: { e: 1 } } } } },
      "__proto__", { __proto__: { seat: 0 } }, JSON.parse('{"__proto__": {"polluted": 1}}'), Symbol.for("x"), () => 1, 10n]);
    const deep = (k) => { let v = 1; for (let i = 0; i < k; i++) v = rnd() < 0.5 ? [v] : { a: v }; return v; };
    const msg = (mine) => { // mine: the one token this page knows (a page cannot know another's)
      switch (int(13)) {
        case 0: return values();
        case 1: return { t: values() };
        case 2: return { t: pick(["who", "hello", "take", "req", "sync", "lobby", "res", "view", "error", "host", "seated", "constructor", "toString"]) };
        case 3: return { t: "req", id: pick([int(50), int(50), -1, 1e10, 1.5, "1", null, values()]), type: pick(["act", "state", "hint", "tracker", "undo", "new_match", "set_seat", "bot_step", "next_deal", "history", ...["review_plan", "review_decision", "review_summary", "review_retry", "replay"], values()]),
          args: pick([{}, undefined, null, [], "x", { action: pick(["AD", "3B", "XX", "", huge, 7, "call-5B", "pass", "AD; rm", values()]), seat: int(5), deal: pick([0, 1, -1, 1e9, "0", values()]), index: pick([0, 3, -2, values()]), step: pick([0, 5, values()]), all_hands: pick([true, false, "yes", values()]), lang: values(), game: "other" }, deep(int(8))]) };
        case 4: return { t: "take", seat: pick([0, 1, 2, 3, -1, "1", null, 1.5, values()]), name: pick(["Eve", "", huge, "\u0000\u0007", values()]), token: pick([mine, "short", huge, values()]) };
        case 5: return { t: "hello", name: pick(["Eve", huge, values()]), token: pick([mine, values()]), build: pick([BUILD, "other", values()]) };
        case 6: return { t: "who", nonce: pick(["n".repeat(20), "short", huge, values()]), dh: pick(["K".repeat(87), "short", values()]) };
        case 7: return { t: "sync", extra: deep(int(10)) };
        case 8: return deep(int(12));
        case 9: return { t: "req", id: int(40), type: "act", args: { action: pick(["AD", "3B", "XX"]) } }; // replayed ids
        case 10: return { t: "req", id: 1000 + int(1e6), type: pick(["state", "act", "replay", "review_decision"]), args: { deal: 0, index: 1, step: 2, action: "AD", all_hands: true } };
        case 11: return { t: "take", seat: 1 + int(2), name: "Eve", token: mine }; // another's seat
        default: return { t: "sync" };
      }
    };
    const bad = [];
    const sentTo = new Map();
    const maxima = { waiting: 0, parts: 0, ids: 0, peers: 0, dropped: 0, comebacks: 0 };
    const steps = 20000;
    for (let i = 0; i < steps; i++) {
      // mostly a page's pace, with floods of a few hundred messages at once now and then
      tb.clock += i % 2000 < 300 ? pick([0, 0, 1]) : pick([0, 0, 1, 5, 20, 50, 50, 100, 400, 3000]);
      const k = int(4);
      if (tb.ref.dropped.has(name(k))) {
        gen[k]++;
        if (k < 3) tb.hear(name(k), { t: "hello", name: "Again", token: TOKENS[k], build: BUILD });
      }
      const peer = name(k);
      const before = tb.out.asked.length;
      try {
        const r = int(10);
        if (r < 7) tb.hear(peer, msg(TOKENS[Math.min(k, 2)]));
        else if (r < 9) tb.frame(peer, pick([frame(int(6), rnd() < 0.2, int(20000)), frame(int(3), false, 16000, pick(["m", "@_x"]), pick(["tok", "other"])), new Uint8Array(int(60)).map(() => int(256)), huge, null]));
        else if (r < 10) tb.ref.refused(peer, pick(["friends_too_big", "friends_bad_message", values()]), pick(["m", huge, values()]));
      } catch (err) {
        bad.push(`threw at step ${i}: ${err}`);
      }
      // what reached the worker: well formed, for the asking peer's own seat only
      for (const call of tb.out.asked.slice(before)) {
        const a = call.args;
        const keys = Object.keys(a).sort().join(",");
        const ok = call.heldBy !== null && owner(call.peer) === a.seat - 1 && a.seat === call.heldBy && a.game === "g1" && tb.seats[a.seat].peer === call.peer
          && ({ act: () => keys === "action,game,seat" && /^[A-Za-z0-9_:+-]{1,16}$/.test(a.action),
            state: () => keys === "game,seat" }[call.type] || (() => false))(); // a review never: the friend's own engine's
        if (!ok) bad.push(`step ${i}: the worker was asked ${JSON.stringify(call)}`);
      }
      // the worker answers some of what waits, in any order
      while (tb.waiting.length && rnd() < 0.6) tb.waiting.splice(int(tb.waiting.length), 1)[0].resolve();
      if (rnd() < 0.05) await flush();
      for (const p of tb.ref.peers.values()) {
        maxima.waiting = Math.max(maxima.waiting, p.waiting);
        maxima.parts = Math.max(maxima.parts, p.parts.size);
        maxima.ids = Math.max(maxima.ids, p.ids.length);
        for (const part of p.parts.values()) if (part.bytes > BOUNDS.partBytes) bad.push(`step ${i}: a part of ${part.bytes} bytes held`);
      }
      maxima.peers = Math.max(maxima.peers, tb.ref.peers.size);
      maxima.dropped = Math.max(maxima.dropped, tb.ref.dropped.size);
      maxima.comebacks = gen.reduce((a, b) => a + b, 0);
    }
    for (const w of tb.waiting.splice(0)) w.resolve();
    await flush();
    await flush();
    // no peer was sent a state of another seat
    for (const [peer, m] of tb.out.sent) {
      const text = JSON.stringify(m);
      sentTo.set(peer, (sentTo.get(peer) || 0) + 1);
      const secrets = [...text.matchAll(/secret-of-(\d)/g)].map((x) => Number(x[1]));
      if (text.includes("never")) bad.push(`a save was sent to ${peer}`);
      for (const seat of secrets) if (seat !== owner(peer) + 1) bad.push(`seat ${seat}'s hand sent to ${peer}`);
    }
    tb.done();
    const codes = {};
    for (const [, m] of tb.out.sent) {
      const c = m.t === "error" ? m.code : m.t === "res" && m.error ? m.error.code : null;
      if (c) codes[c] = (codes[c] || 0) + 1;
    }
    return { steps, bad: bad.slice(0, 20), badCount: bad.length, warnings: tb.out.warnings.slice(0, 10), maxima, bounds: BOUNDS,
      asked: tb.out.asked.length, dropped: tb.out.dropped.length, sent: tb.out.sent.length, codes };
  },
};

const [name, arg] = process.argv.slice(2);
const result = await scenarios[name](Number(arg) || undefined);
process.stdout.write(JSON.stringify(result, (k, v) => (v === Infinity ? "Infinity" : v)));
