// Drives js/fair/ (the fair deal) in Node: one FairTable per device, a fake transport between
// them (every message as JSON text, one queue per pair of devices, the queues' turns drawn at
// random so that messages of different senders cross), and a game that deals, plays tricks,
// draws and opens as Briscola does. Prints one line of JSON per scenario: what each device saw,
// the truth (read with every device's secret together, which no device has), the refusals, the
// cheats named and the check after the deal. Read by tests/test_fairdeal.py. The command line:
// scenario names (or "all").
import { ALL, FairTable, restore, snapshot } from "../../js/fair/index.js";
import { Point, proveShares, randomScalar, readDeck, readPoint, scalarBytes, token, verifyShares, verifyToken } from "../../js/fair/group.js";
import { b64, proofBytes, unb64 } from "../../js/fair/codec.js";
import { makeShares } from "../../js/fair/shares.js";
import { HUB, signed } from "../../js/fair/sign.js";

const SUITS = ["D", "C", "S", "B"];
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "J", "H", "K"];

/** The deck of n players (docs/rules.md §4): 40 cards; one 2 out at three, the four 2s at six. */
export function deckFor(n) {
  const all = SUITS.flatMap((s) => RANKS.map((r) => r + s));
  if (n === 3) return all.filter((c) => c !== "2B");
  if (n === 6) return all.filter((c) => c[0] !== "2");
  return all;
}

let seed = 12345;
function rand(k) { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % k; }

/** A message changed by its sender's own cheat: signed again by it (a cheat signs its own words). */
function resign(t, msg) {
  const bare = { ...msg };
  delete bare.sig;
  return signed(bare, t.x, t.Y[t.me]);
}

// Messages between two devices that are not the hub (device 0, the host's page) go through the
// hub, which passes on only those its `carry` finds signed by their sender; `carrier(from, to,
// msg)` is the hub changing what it carries (not signed again: it has not the sender's key).
class Bus {
  constructor(tables, { tamper = null, split = null, priority = null, burst = false, carrier = null } = {}) {
    this.tables = tables;
    this.lanes = new Map();        // "from>to" -> [text]
    this.events = tables.map(() => []);
    this.bytes = tables.map(() => 0);
    this.messages = tables.map(() => 0);
    this.tamper = tamper;          // (from, msg) -> [msg...] (the messages that really go)
    this.split = split;            // (from, to, msg) -> the message that device `to` gets
    this.priority = priority;      // ("from>to") -> a number: the lanes of the highest go first
    this.burst = burst;            // a lane's messages all given at once, none awaited before the next
    this.carrier = carrier;
    this.dropped = 0;              // messages the hub would not carry
  }
  post(from, { send, events }) {
    this.events[from].push(...events);
    for (const { to, msg } of send) {
      for (const m of this.tamper ? this.tamper(from, msg, this) : [msg]) this.wire(from, to, m === msg ? m : resign(this.tables[from], m));
    }
  }
  wire(from, to, msg) {
    const text = JSON.stringify(msg);
    this.bytes[from] += text.length;
    this.messages[from] += 1;
    for (let d = 0; d < this.tables.length; d++) {
      if (d === from || (to !== null && to !== d)) continue;
      const key = `${from}>${d}`;
      if (!this.lanes.has(key)) this.lanes.set(key, []);
      let m = this.split ? this.split(from, d, msg) : msg;
      if (m !== msg) m = resign(this.tables[from], m);
      if (from !== HUB && d !== HUB) {
        if (!this.tables[HUB].carry(m, from)) { this.dropped += 1; continue; }
        if (this.carrier) m = this.carrier(from, d, m);
      }
      this.lanes.get(key).push(m === msg ? text : JSON.stringify(m));
    }
  }
  async drain() {
    for (;;) {
      let busy = [...this.lanes].filter(([, q]) => q.length);
      if (!busy.length) return;
      if (this.priority) {
        const top = Math.max(...busy.map(([key]) => this.priority(key)));
        busy = busy.filter(([key]) => this.priority(key) === top);
      }
      const [key, q] = busy[rand(busy.length)];
      const [from, to] = key.split(">").map(Number);
      const texts = this.burst ? q.splice(0) : [q.shift()];
      const outs = await Promise.all(texts.map((text) => this.tables[to].receive(JSON.parse(text), from)));
      for (const out of outs) this.post(to, out);
    }
  }
  /** Every device's game says the same thing: `fn(table)` on each, what it sends posted. */
  async all(fn) {
    for (const t of this.tables) this.post(t.me, await fn(t));
    await this.drain();
  }
}

/** The truth: each position's card read with every device's secret (only a test has them all). */
function truth(tables) {
  const t0 = tables[0];
  const x = tables.reduce((s, t) => Point.Fn.add(s, t.x), 0n);
  return t0._deck().map(([A, B]) => t0.deck[t0.byPoint.get(b64(B.subtract(A.multiply(x)).toBytes()))]);
}

/** A whole deal as the game runs it: `hand` cards each dealt in turn, the face-up trump (position
 * n·hand, opened to all) unless `noTrump`, tricks in turn with draws from the talon in order
 * (the trump last), partners shown each other's hands once the talon is used up, an exchange
 * for the face-up trump when `exchange`; the deal finished after `tricks` tricks (all by
 * default: a cheat's test needs no more than the cheat). `cheat` hooks into the game; `opts.tamper` into the
 * wire. Returns the bus and the truth. */
export async function deal(n, { hand = 3, noTrump = false, partners = null, exchange = false, cheat = {}, tamper = null, split = null, priority = null, burst = false, carrier = null, table = "T1", tricks = Infinity } = {}) {
  const deck = deckFor(n);
  const tables = Array.from({ length: n }, (_, me) => new FairTable({ table, round: 1, devices: n, me, deck }));
  const bus = new Bus(tables, { tamper, split, priority, burst, carrier });
  for (const t of tables) bus.post(t.me, t.start());
  await bus.drain();
  if (cheat.afterShuffle) await cheat.afterShuffle(bus);
  const plan = [];
  for (let k = 0; k < n * hand; k++) plan.push([k, k % n]);
  let trumpPos = noTrump ? null : n * hand;
  if (trumpPos !== null) plan.push([trumpPos, ALL]);
  if (!stopped(tables)) await bus.all((t) => t.deal(plan));
  if (cheat.afterDeal) await cheat.afterDeal(bus);
  let next = n * hand + (noTrump ? 0 : 1);
  const size = deck.length;
  if (exchange && !stopped(tables)) {
    const [p] = tables[1].hand()[0];
    bus.post(1, tables[1].give(p));
    await bus.drain();
    await bus.all((t) => t.take(trumpPos, 1));
    trumpPos = p;
  }
  let leader = 0;
  let shown = false;
  for (let trick = 0; trick < tricks && !stopped(tables); trick++) {
    if (!tables.some((t) => t.hand().length)) break;
    for (let i = 0; i < n && !stopped(tables); i++) {
      const d = (leader + i) % n;
      const mine = tables[d].hand();
      const [p] = mine[rand(mine.length)];
      if (cheat.play && (await cheat.play(bus, d, p, trick))) continue;
      bus.post(d, tables[d].play(p));
      await bus.drain();
    }
    leader = (leader + trick) % n;
    for (let i = 0; i < n && !stopped(tables); i++) {
      const d = (leader + i) % n;
      if (next < size) {
        const pos = next++;
        await bus.all((t) => t.deal([[pos, d]]));
      } else if (trumpPos !== null) {
        const pos = trumpPos;
        trumpPos = null;
        await bus.all((t) => t.take(pos, d));
      }
    }
    if (partners && !shown && next >= size && trumpPos === null && !stopped(tables)) {
      shown = true;
      for (const team of partners) {
        for (const a of team) for (const b of team) if (a !== b) bus.post(a, await tables[a].show(b));
      }
      if (!burst) await bus.drain(); // in bursts: the hands go with the next trick's first card
    }
  }
  if (cheat.beforeFinish) await cheat.beforeFinish(bus);
  await bus.all((t) => t.finish());
  return { bus, tables, truth: truth(tables), plan };
}

function stopped(tables) {
  return tables.some((t) => t.stopped);
}

/** What a scenario prints: per device, its events by kind; and the truth. */
function summary({ bus, tables, truth: order }) {
  return {
    devices: tables.length,
    truth: order,
    restored: bus.restored ?? null,
    deck: tables[0].deck,
    seen: bus.events.map((evs) => ({
      cards: evs.filter((e) => e.type === "card").map((e) => [e.pos, e.card]),
      opened: evs.filter((e) => e.type === "opened").map((e) => [e.pos, e.card, e.by]),
      shown: evs.filter((e) => e.type === "shown").map((e) => [e.pos, e.card, e.holder]),
      refused: evs.filter((e) => e.type === "refused").map((e) => [e.device, e.code]),
      cheats: evs.filter((e) => e.type === "cheat").map((e) => [e.device, e.code, e.reason, e.by ?? null]),
      checks: evs.filter((e) => e.type === "check").map((e) => [e.fair, e.device ?? null, e.code ?? null, e.reason ?? null]),
      ready: evs.filter((e) => e.type === "ready").length,
    })),
    holders: tables[0].holder,
    bytes: bus.bytes,
    messages: bus.messages,
    dropped: bus.dropped,
  };
}

/** A `tokens` message with the share of its item k changed by `delta` (another valid point; the
 * message's proofs, made for the true shares, unchanged). */
function forgeToken(msg, k = 0, delta = Point.BASE) {
  const items = msg.items.map((item) => [...item]);
  items[k][2] = b64(readPoint(unb64(items[k][2])).add(delta).toBytes());
  return { ...msg, items };
}

/** Device 1's `tokens` message of a deal of three, eight cards each (eight shares for device 0), changed by `forge`
 * (the indexes of its items for device 0 given), and the one proof of those shares made again
 * for the changed ones, with device 1's key (what a device that cheats can do) before it goes. */
function batchCheat(forge) {
  return deal(3, {
    hand: 8, noTrump: true, tricks: 0,
    tamper: (from, msg, bus) => {
      if (from !== 1 || msg.k !== "tokens") return [msg];
      const t = bus.tables[1];
      const forged = forge(msg, msg.items.flatMap(([, to], k) => (to === 0 ? [k] : [])));
      const items = forged.items.filter(([, to]) => to === 0).map(([p, , data]) => [p, t._deck()[p][0], readPoint(unb64(data))]);
      const proof = b64(proofBytes(proveShares(t.x, t.Y[1], items, t._ctx(1, msg.seq, "tokens", 0))));
      return [{ ...forged, proofs: forged.proofs.map(([to, data]) => [to, to === 0 ? proof : data]) }];
    },
  });
}

/** A play message made by hand: device t's share of position p, saying it is `code`. */
function forgePlay(bus, t, p, code) {
  const { T, proof } = token(t.x, t.Y[t.me], t._deck()[p][0], t._ctx(t.me, t.seq, "play", p));
  t._send("play", { p, card: code, token: b64(shareBytes(T, proof)) });
  bus.post(t.me, t._flush());
}

function shareBytes(T, proof) {
  const bytes = new Uint8Array(96);
  bytes.set(T.toBytes(), 0);
  bytes.set(scalarBytes(proof[0]), 32);
  bytes.set(scalarBytes(proof[1]), 64);
  return bytes;
}

const SCENARIOS = {
  // device 1 reloads before the third trick: its table made again from its snapshot (as JSON)
  reload: async () => {
    let same = null;
    const out = await deal(2, {
      tricks: 4,
      cheat: {
        play: async (bus, d, p, trick) => {
          if (trick !== 2 || d !== 0 || same !== null) return false;
          const before = bus.tables[1];
          const { table } = await restore(JSON.parse(JSON.stringify(snapshot(before))));
          same = JSON.stringify(table.chains) === JSON.stringify(before.chains) &&
            JSON.stringify(table.hand()) === JSON.stringify(before.hand()) && table !== before;
          bus.tables[1] = table;
          return false;
        },
      },
    });
    const refused = [];
    for (const bad of [null, { v: 2 }, { ...snapshot(out.tables[0]), log: [["shuffle"]] }]) {
      try { await restore(bad); refused.push(null); } catch (e) { refused.push(e.message); }
    }
    return { ...summary(out), same, refused };
  },
  // The one whole deal: every position dealt, drawn and played, the trump exchanged and taken
  // last. The others stop once what they add is done (a deal's cost is mostly its start and the
  // check after it, which replays every shuffle on every device: the tricks cut from the deals
  // of three to six saved a tenth of the script's time).
  honest2: () => deal(2, { exchange: true }),
  // (three tricks: each device has drawn from the talon and led)
  honest3: () => deal(3, { tricks: 3 }),
  // (each lane's messages given to the table at once: a partner's sealed hand, opened
  // asynchronously, is read in its turn all the same; the talon is used up in the seventh trick
  // and the hands go with the eighth trick's first card)
  honest4: () => deal(4, { partners: [[0, 2], [1, 3]], burst: true, tricks: 8 }),
  // (no talon: two tricks of eight)
  chiamata5: () => deal(5, { hand: 8, noTrump: true, tricks: 2 }),
  // (the talon used up in the third trick, the partners then shown their hands)
  honest6: () => deal(6, { partners: [[0, 2, 4], [1, 3, 5]], tricks: 3 }),

  // device 1's share of the first card dealt to device 0 is a wrong point (its proof kept)
  bad_token: () => {
    let done = false;
    return deal(3, {
      tamper: (from, msg) => {
        if (from === 1 && msg.k === "tokens" && !done && msg.items[0][1] === 0) { done = true; return [forgeToken(msg)]; }
        return [msg];
      },
    });
  },
  // the same, and device 1 (whose own copy of its share is right) says device 0's accusation is
  // false; device 2 hears device 1 first, and checks the share itself
  counter_accusation: () => {
    let done = false;
    return deal(3, {
      priority: (key) => ({ "0>1": 3, "1>2": 2, "0>2": 0 })[key] ?? 1,
      tamper: (from, msg) => {
        if (from === 1 && msg.k === "tokens" && !done && msg.items[0][1] === 0) { done = true; return [forgeToken(msg)]; }
        return [msg];
      },
    });
  },
  // device 1's eight shares for device 0 proven at once: the fifth of them wrong
  batch_one_wrong: () => batchCheat((msg, mine) => forgeToken(msg, mine[4])),
  // two of them swapped between their positions (each right for the other's card)
  batch_swapped: () => batchCheat((msg, mine) => {
    const items = msg.items.map((item) => [...item]);
    [items[mine[1]][2], items[mine[5]][2]] = [items[mine[5]][2], items[mine[1]][2]];
    return { ...msg, items };
  }),
  // one moved by G and another by −G: their sum unchanged, so a proof of the plain sum would pass
  batch_offset: () => batchCheat((msg, mine) => forgeToken(forgeToken(msg, mine[1]), mine[6], Point.BASE.negate())),
  // device 1's shuffle: one masked card replaced by a copy of another (a card duplicated)
  duplicate_shuffle: () => deal(2, {
    tamper: (from, msg, bus) => {
      if (from !== 1 || msg.k !== "shuffle") return [msg];
      const bytes = unb64(msg.deck);
      bytes.copyWithin(5 * 64, 9 * 64, 10 * 64);
      bus.tables[1].decks[2] = readDeck(bytes, bus.tables[1].size); // the cheat goes on from what it sent
      return [{ ...msg, deck: b64(bytes) }];
    },
  }),
  // device 1's shuffle (the last): one card substituted by a fresh masking of another card
  substitute_shuffle: () => deal(2, {
    tamper: (from, msg, bus) => {
      if (from !== 1 || msg.k !== "shuffle") return [msg];
      const t = bus.tables[1];
      const r = randomScalar();
      const bytes = unb64(msg.deck);
      // the card there (read with both secrets, as only a test can), and another put in its place
      const [A, B] = readDeck(bytes, t.size)[7];
      const x = bus.tables.reduce((sum, u) => Point.Fn.add(sum, u.x), 0n);
      const other = (t.byPoint.get(b64(B.subtract(A.multiply(x)).toBytes())) + 1) % t.size;
      bytes.set(Point.BASE.multiply(r).toBytes(), 7 * 64);
      bytes.set(t.points[other].add(t.H.multiply(r)).toBytes(), 7 * 64 + 32);
      t.decks[2] = readDeck(bytes, t.size);
      return [{ ...msg, deck: b64(bytes) }];
    },
  }),
  // device 1's messages after the deal's first shares each come twice (replayed), and the
  // second of them before the first (reordered), then both again
  replay: () => {
    let held = null;
    return deal(2, {
      tricks: 4,
      tamper: (from, msg) => {
        if (from !== 1 || msg.seq < 3) return [msg];
        if (msg.seq === 3) { held = msg; return []; }
        if (msg.seq === 4) return [msg, held, msg, held];
        return [msg, msg];
      },
    });
  },
  // device 1's first shares sent again under its next sequence number (and its later messages
  // numbered on from there)
  renumbered: () => {
    let extra = 0;
    return deal(2, {
      tamper: (from, msg) => {
        if (from !== 1) return [msg];
        if (extra) return [{ ...msg, seq: msg.seq + 1 }];
        if (msg.k === "tokens") { extra = 1; return [msg, { ...msg, seq: msg.seq + 1 }]; }
        return [msg];
      },
    });
  },
  // a proof is bound to its message: the same share under another sequence number, position,
  // recipient, table or round does not verify
  binding: async () => {
    const t = new FairTable({ table: "T1", round: 1, devices: 2, me: 0, deck: deckFor(2) });
    const A = Point.BASE.multiply(randomScalar());
    const ctx = t._ctx(0, 5, "token", 3, 1);
    const { T, proof } = token(t.x, t.Y[0], A, ctx);
    const variants = { same: ctx, seq: t._ctx(0, 6, "token", 3, 1), pos: t._ctx(0, 5, "token", 4, 1),
      to: t._ctx(0, 5, "token", 3, 0), sender: t._ctx(1, 5, "token", 3, 1), kind: t._ctx(0, 5, "play", 3, 1),
      table: ["T2", 1, 0, 5, "token", 3, 1], round: ["T1", 2, 0, 5, "token", 3, 1] };
    const verified = Object.fromEntries(Object.entries(variants).map(([k, c]) => [k, verifyToken(t.Y[0], A, T, proof, c)]));
    // the one proof of a message's shares for one recipient: bound the same, and to every share
    const items = [3, 7, 9].map((p) => { const B = Point.BASE.multiply(randomScalar()); return [p, B, B.multiply(t.x)]; });
    const sctx = t._ctx(0, 5, "tokens", 1);
    const sproof = proveShares(t.x, t.Y[0], items, sctx);
    const [a, b, c] = items;
    const groups = {
      same: [items, sctx], order: [[c, a, b], sctx], seq: [items, t._ctx(0, 6, "tokens", 1)], to: [items, t._ctx(0, 5, "tokens", 0)],
      sender: [items, t._ctx(1, 5, "tokens", 1)], kind: [items, t._ctx(0, 5, "show", 1)], table: [items, ["T2", 1, 0, 5, "tokens", 1]],
      round: [items, ["T1", 2, 0, 5, "tokens", 1]], pos: [[[4, a[1], a[2]], b, c], sctx], fewer: [[a, b], sctx],
      more: [[...items, [11, A, A.multiply(t.x)]], sctx], swapped: [[[3, a[1], b[2]], [7, b[1], a[2]], c], sctx],
      wrong: [[a, b, [9, c[1], c[2].add(Point.BASE)]], sctx],
    };
    const shares = Object.fromEntries(Object.entries(groups).map(([k, [its, cx]]) => [k, verifyShares(t.Y[0], its, sproof, cx)]));
    return { verified, shares };
  },
  // device 1 plays its card saying it is another of the deck
  claim: () => deal(2, {
    cheat: {
      play: async (bus, d, p, trick) => {
        if (d !== 1 || trick !== 1) return false;
        const t = bus.tables[1];
        forgePlay(bus, t, p, t.deck[(t.card[p] + 1) % t.size]);
        await bus.drain();
        return true;
      },
    },
  }),
  // device 1 plays a position dealt to device 0 (with its own share of it)
  not_its_card: () => deal(2, {
    cheat: {
      play: async (bus, d, p, trick) => {
        if (d !== 1 || trick !== 0) return false;
        const theirs = bus.tables[0].hand()[0];
        forgePlay(bus, bus.tables[1], theirs[0], theirs[1]);
        await bus.drain();
        return true;
      },
    },
  }),
  // device 2 sends device 1 its share of the next card of the talon, which the game then deals
  // to device 0 (the first to draw after the first trick)
  opens_another: () => deal(3, {
    cheat: {
      afterDeal: async (bus) => {
        const t = bus.tables[2];
        const p = 3 * 3 + 1;
        t._send("tokens", makeShares(t, [[p, 1]], false));
        bus.post(2, t._flush());
        await bus.drain();
      },
    },
  }),
  // device 1 opens a commitment with another seed
  bad_opening: () => deal(2, {
    tricks: 1,
    tamper: (from, msg) => (from === 1 && msg.k === "open" ? [{ ...msg, seed: b64(new Uint8Array(32).fill(7)) }] : [msg]),
  }),
  // device 1 sends device 2 its first shares in another order than device 0 (the same shares:
  // the deal goes on, but the two heard different messages under one number)
  two_faced: () => deal(3, {
    tricks: 1,
    split: (from, to, msg) => (from === 1 && to === 2 && msg.k === "tokens" && msg.seq === 2
      ? { ...msg, items: [...msg.items].reverse() } : msg),
  }),
  // device 1's key with a proof that is not one for it (a key chosen to cancel the others' has
  // none): the deal stops before any shuffle
  rogue_key: () => deal(2, {
    tricks: 0,
    tamper: (from, msg) => {
      if (from !== 1 || msg.k !== "key") return [msg];
      const proof = unb64(msg.proof);
      proof[40] ^= 1;
      return [{ ...msg, proof: b64(proof) }];
    },
  }),
  // device 1 leaves a card of its shuffle unmasked (A = 0: the card readable by everyone)
  unmasked: () => deal(2, {
    tricks: 0,
    tamper: (from, msg) => {
      if (from !== 1 || msg.k !== "shuffle") return [msg];
      const bytes = unb64(msg.deck);
      bytes.fill(0, 3 * 64, 3 * 64 + 32);
      return [{ ...msg, deck: b64(bytes) }];
    },
  }),
  // device 2 says device 0's share was wrong; it was right
  // a device's engine refuses an action with cards only it knows: it tells the others
  accused: () => deal(3, {
    cheat: {
      afterDeal: async (bus) => {
        bus.post(1, bus.tables[1].accuse(2, "illegal", "device 2's action is against the rules"));
        await bus.drain();
        // the accusation is in the device's log: restored, it has stopped the same
        const { table } = await restore(snapshot(bus.tables[1]));
        bus.restored = table.stopped && [table.stopped.device, table.stopped.code];
      },
    },
  }),
  false_accusation: () => deal(3, {
    cheat: {
      afterDeal: async (bus) => {
        const t = bus.tables[2];
        const p = bus.tables[1].hand()[0][0];
        t._send("stop", { device: 0, code: "bad_token", p });
        bus.post(2, t._flush());
        await bus.drain();
      },
    },
  }),
  // the hub (device 0) changes device 1's first shares on their way to device 2 (another point
  // for one, the message's signature left as it was: the hub has not device 1's key)
  changed_on_the_way: () => {
    let done = false;
    return deal(3, {
      tricks: 1,
      carrier: (from, to, msg) => {
        if (from !== 1 || to !== 2 || msg.k !== "tokens" || done) return msg;
        done = true;
        return forgeToken(msg);
      },
    });
  },
  // device 1 sends, before a message of its own, a copy of it under a signature that is not its
  // own (to have the hub named for changing it): the hub refuses it, changing nothing, and carries
  // it to no one; the real one goes on, and the deal ends fair
  unsigned_by_its_sender: () => deal(3, {
    tricks: 1,
    cheat: {
      afterDeal: async (bus) => {
        const t = bus.tables[1];
        t._send("say", { action: "{}" });
        const out = t._flush();
        const { msg } = out.send[0];
        const sig = unb64(msg.sig);
        sig[3] ^= 1;
        bus.wire(1, null, { ...msg, sig: b64(sig) });
        await bus.drain();
        bus.post(1, out);
        await bus.drain();
      },
    },
  }),
};

const names = process.argv.slice(2);
const run = names.length === 0 || names[0] === "all" ? Object.keys(SCENARIOS) : names;
for (const name of run) {
  seed = 12345;
  const started = process.cpuUsage();
  const ran = await SCENARIOS[name]();
  const out = ran.bus ? summary(ran) : ran;
  const cpu = process.cpuUsage(started);
  console.log(JSON.stringify({ name, cpu_ms: Math.round((cpu.user + cpu.system) / 1000), ...out }));
}
