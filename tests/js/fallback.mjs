// Drives js/friends/fallback.js (the relay fallback) in Node against a fake Nostr relay in memory
// (fake WebSockets: what one page sends reaches the subscriptions of the others, as a relay
// passes ephemeral events on), with the real Schnorr signer, and prints as JSON what each page
// heard and refused and what the relay saw. The command line: the scenario's name. Read by
// tests/test_relay_fallback.py.
import { schnorr } from "@noble/secp256k1";
import { BURST, Fallback, HOLD_MS, KIND, PART_CHARS, QUEUE_MAX, RATE, eventId, roomKeys, seal } from "../../js/friends/fallback.js";

/** A relay in memory: every text each socket sends is logged; an EVENT goes to every other
 * socket whose subscription matches its kind and `t` tag. `tamper(event)` may change or drop
 * an event on its way (return null: dropped). */
function fakeRelay({ tamper = (ev) => ev, late = () => 1 } = {}) {
  const log = [];
  const sockets = new Set();
  class FakeSocket {
    constructor(url) {
      this.url = url;
      this.readyState = 0;
      this.subs = new Map();
      sockets.add(this);
      setTimeout(() => { this.readyState = 1; if (this.onopen) this.onopen(); }, 1);
    }
    send(text) {
      log.push(text);
      const msg = JSON.parse(text);
      if (msg[0] === "REQ") this.subs.set(msg[1], msg.slice(2));
      else if (msg[0] === "CLOSE") this.subs.delete(msg[1]);
      else if (msg[0] === "EVENT") {
        const ev = tamper(msg[1]);
        if (!ev) return;
        relay.publish(ev, this);
      }
    }
    close() {
      this.readyState = 3;
      sockets.delete(this);
    }
  }
  const relay = {
    log, sockets, FakeSocket,
    publish(ev, from = null) {
      for (const s of sockets) {
        if (s === from) continue;
        for (const [id, filters] of s.subs) {
          if (filters.some((f) => f.kinds.includes(ev.kind) && ev.tags.some((t) => t[0] === "t" && f["#t"].includes(t[1])))) {
            const text = JSON.stringify(["EVENT", id, ev]);
            setTimeout(() => { if (s.readyState === 1 && s.onmessage) s.onmessage({ data: text }); }, late(ev));
          }
        }
      }
    },
  };
  return relay;
}

/** A page of the fallback: what it heard ({joins, leaves, messages, refused, problems}). */
function page(relay, room, self, { limit = 262144, now, hold } = {}) {
  const heard = { joins: [], leaves: [], messages: [], refused: [], problems: [] };
  const fb = new Fallback({ room, relays: ["ws://relay.test"], self, limit, schnorr, WebSocket: relay.FakeSocket, now, hold }, {
    join: (p) => heard.joins.push(p),
    leave: (p) => heard.leaves.push(p),
    message: (p, text) => heard.messages.push([p, text]),
    refused: (p, code, message) => heard.refused.push([p, code, message]),
    problem: (code) => heard.problems.push(code),
  });
  return { fb, heard };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
async function until(test, ms = 10000) {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error("timed out");
    await sleep(5);
  }
}
const quiet = () => { const warn = console.warn; const said = []; console.warn = (...a) => said.push(a.join(" ")); return { said, done: () => { console.warn = warn; } }; };

const scenarios = {
  /** Two pages meet, send each other a small message and a long one (in parts). */
  async basics() {
    const relay = fakeRelay();
    const a = page(relay, "ROOM123456789abc", "peerA");
    const b = page(relay, "ROOM123456789abc", "peerB");
    await a.fb.start();
    await b.fb.start();
    await until(() => a.heard.joins.length && b.heard.joins.length);
    const long = JSON.stringify({ v: 1, t: "view", state: { hand: ["AD", "3C"], text: "x".repeat(40000) } });
    a.fb.send("peerB", '{"v":1,"t":"who","nonce":"AD3C"}');
    a.fb.send("peerB", long);
    b.fb.send("peerA", '{"v":1,"t":"hello","card":"KS"}');
    await until(() => b.heard.messages.length === 2 && a.heard.messages.length === 1);
    const events = relay.log.map((t) => JSON.parse(t)).filter((m) => m[0] === "EVENT").map((m) => m[1]);
    const ids = await Promise.all(events.map((ev) => eventId(ev)));
    const keys = await roomKeys("ROOM123456789abc");
    await b.fb.leave();
    await until(() => a.heard.leaves.length);
    await a.fb.leave();
    return {
      joins: [a.heard.joins, b.heard.joins], leaves: a.heard.leaves,
      messages: [a.heard.messages, b.heard.messages.map(([p, t]) => [p, t.length, t === long || t.startsWith('{"v":1,"t":"who"')])],
      events: events.length, kinds: [...new Set(events.map((e) => e.kind))], kind: KIND,
      idsGood: ids.every((id, i) => id === events[i].id),
      sigsGood: (await Promise.all(events.map((ev) => schnorr.verifyAsync(Buffer.from(ev.sig, "hex"), Buffer.from(ev.id, "hex"), Buffer.from(ev.pubkey, "hex"))))).every(Boolean),
      tags: [...new Set(events.map((e) => JSON.stringify(e.tags)))], topic: keys.topic,
      pubkeys: new Set(events.map((e) => e.pubkey)).size,
      biggest: Math.max(...events.map((e) => e.content.length)), partChars: PART_CHARS,
      log: relay.log.join("\n"),
    };
  },

  /** What a relay may do to the events: change a ciphertext, send one again (as is, or as a new
   * event of its own key), write one with another room's key. */
  async tampering() {
    const q = quiet();
    let mode = "none";
    const kept = [];
    const relay = fakeRelay({
      tamper: (ev) => {
        if (ev.content.length < 200) return ev; // the pages' presence
        kept.push(ev);
        if (mode === "flip") {
          const c = ev.content;
          const i = Math.floor(c.length / 2);
          return { ...ev, content: c.slice(0, i) + (c[i] === "A" ? "B" : "A") + c.slice(i + 1) };
        }
        return ev;
      },
    });
    const a = page(relay, "ROOMaaaaaaaaaaaa", "peerA");
    const b = page(relay, "ROOMaaaaaaaaaaaa", "peerB");
    await a.fb.start();
    await b.fb.start();
    await until(() => a.heard.joins.length && b.heard.joins.length);
    const text = (n) => JSON.stringify({ v: 1, t: "req", id: n, pad: "p".repeat(200) });
    mode = "flip";
    a.fb.send("peerB", text(1));
    await until(() => b.fb.refusedCount.sealed === 1);
    mode = "none";
    a.fb.send("peerB", text(2));
    await until(() => b.heard.messages.length === 1);
    // the same event again (its id is known: dropped), then its content in a new event signed
    // by the relay's own key (a new id: the counter inside refuses it)
    const good = kept[kept.length - 1];
    relay.publish(good);
    const { secretKey, publicKey } = schnorr.keygen();
    const forged = { pubkey: Buffer.from(publicKey).toString("hex"), created_at: good.created_at + 1, kind: good.kind, tags: good.tags, content: good.content };
    forged.id = await eventId(forged);
    forged.sig = Buffer.from(await schnorr.signAsync(Buffer.from(forged.id, "hex"), secretKey)).toString("hex");
    relay.publish(forged);
    await until(() => b.fb.refusedCount.replay === 1);
    // another room's key, under this room's topic: not opened
    const mine = await roomKeys("ROOMaaaaaaaaaaaa");
    const other = await roomKeys("ROOMbbbbbbbbbbbb");
    const ev = { pubkey: forged.pubkey, created_at: good.created_at, kind: good.kind, tags: [["t", mine.topic]],
      content: await seal({ key: other.key, topic: mine.topic }, { v: 1, f: "peerC", to: "", n: 0, at: Date.now(), k: "m", id: 1, i: 0, of: 1, d: text(3) }) };
    ev.id = await eventId(ev);
    ev.sig = Buffer.from(await schnorr.signAsync(Buffer.from(ev.id, "hex"), secretKey)).toString("hex");
    relay.publish(ev);
    await until(() => b.fb.refusedCount.sealed === 2);
    // an old message (sent 10 minutes ago by the clock inside it) is refused
    const old = { ...ev, created_at: good.created_at + 2,
      content: await seal(mine, { v: 1, f: "peerC", to: "", n: 0, at: Date.now() - 600000, k: "m", id: 1, i: 0, of: 1, d: text(4) }) };
    old.id = await eventId(old);
    old.sig = Buffer.from(await schnorr.signAsync(Buffer.from(old.id, "hex"), secretKey)).toString("hex");
    relay.publish(old);
    // one for another page of the room is not heard here
    const aside = { ...ev, created_at: good.created_at + 3,
      content: await seal(mine, { v: 1, f: "peerC", to: "peerZ", n: 1, at: Date.now(), k: "m", id: 2, i: 0, of: 1, d: text(5) }) };
    aside.id = await eventId(aside);
    aside.sig = Buffer.from(await schnorr.signAsync(Buffer.from(aside.id, "hex"), secretKey)).toString("hex");
    relay.publish(aside);
    await until(() => b.fb.refusedCount.old === 1);
    await sleep(50);
    // the page that sent them left (its last words): its events sent again still refused
    await a.fb.leave();
    await until(() => b.heard.leaves.length === 1);
    const again = { ...forged, created_at: forged.created_at + 5 };
    again.id = await eventId(again);
    again.sig = Buffer.from(await schnorr.signAsync(Buffer.from(again.id, "hex"), secretKey)).toString("hex");
    relay.publish(again);
    await until(() => b.fb.refusedCount.replay === 2);
    await b.fb.leave();
    q.done();
    return { messages: b.heard.messages.map(([p, t]) => [p, JSON.parse(t).id]), refused: b.fb.refusedCount, joins: b.heard.joins,
      leaves: b.heard.leaves };
  },

  /** A page of the room (it holds the invitation: the room's key) claims another page's id
   * with a counter far ahead, and says that page left: the real page is still heard, in full. */
  async impostor() {
    const relay = fakeRelay();
    const a = page(relay, "ROOMdddddddddddd", "peerA");
    const b = page(relay, "ROOMdddddddddddd", "peerB");
    await a.fb.start();
    await b.fb.start();
    await until(() => a.heard.joins.length && b.heard.joins.length);
    a.fb.send("peerB", JSON.stringify({ t: "one" }));
    await until(() => b.heard.messages.length === 1);
    const c = page(relay, "ROOMdddddddddddd", "peerA"); // the impostor: peerA's id, a key of its own
    c.fb.counter = 1e9;
    await c.fb.start();
    c.fb.send("peerB", JSON.stringify({ t: "forged" }));
    await until(() => b.heard.messages.length === 2);
    await c.fb.leave(); // its "bye", under peerA's id
    await sleep(100);
    const leftEarly = b.heard.leaves.length;
    a.fb.send("peerB", JSON.stringify({ t: "two" }));
    a.fb.send("peerB", JSON.stringify({ t: "three" }));
    await until(() => b.heard.messages.length === 4);
    await a.fb.leave();
    await b.fb.leave();
    return { messages: b.heard.messages.map(([p, t]) => [p, JSON.parse(t).t]), leftEarly, joins: b.heard.joins, refused: b.fb.refusedCount };
  },

  /** The bounds of what a page takes: a message past its limit, too many unfinished, one never
   * finished; and of what it sends: the rate, the queue. */
  async bounds() {
    const q = quiet();
    let clock = Date.now();
    let dropParts = false;
    const relay = fakeRelay({
      // with dropParts set, the last of every three long events (each message's last part) is lost
      tamper: (ev) => (!dropParts || ev.content.length <= 20000 ? ev : dropParts.n++ % 3 === 2 ? null : ev),
    });
    const host = page(relay, "ROOMcccccccccccc", "host", { limit: 4096, now: () => clock });
    const friend = page(relay, "ROOMcccccccccccc", "friend");
    await host.fb.start();
    await friend.fb.start();
    await until(() => host.heard.joins.length && friend.heard.joins.length);
    // past the host's limit: refused by its number of parts, before any is kept
    friend.fb.send("host", "y".repeat(PART_CHARS * 3));
    await until(() => host.heard.refused.length === 1);
    // parts of 5 messages, each missing its last part: the fifth pushes the first out
    const big = page(relay, "ROOMcccccccccccc", "big", { limit: 262144, now: () => clock, hold: 0 }); // (no wait for the parts lost)
    await big.fb.start();
    await until(() => big.heard.joins.includes("friend"));
    dropParts = { n: 0 };
    for (let i = 0; i < 5; i++) friend.fb.send("big", "z".repeat(PART_CHARS * 3));
    await until(() => dropParts.n >= 15);
    await sleep(100);
    const unfinished = big.heard.refused.map((r) => r[1]);
    const held = [...big.fb.known.values()].find((p) => p.peer === "friend").unfinished.size;
    // ...and those left unfinished past PART_MS are given up
    clock += 21000;
    big.fb.tick();
    const afterTick = [...big.fb.known.values()].find((p) => p.peer === "friend").unfinished.size;
    const expired = big.heard.refused.length;
    dropParts = false;
    // a peer not heard for GONE_MS has left
    clock += 40000;
    host.fb.tick();
    const left = host.heard.leaves.slice();
    clock = Date.now();
    // the rate: 40 small messages at once go BURST at once, then RATE a second, in order
    const start = friend.fb.sent;
    const t0 = Date.now();
    for (let i = 0; i < 40; i++) friend.fb.send("big", JSON.stringify({ v: 1, t: "n", i }));
    await sleep(1000);
    const inFirstSecond = friend.fb.sent - start;
    await until(() => big.heard.messages.length >= 40, 30000);
    const took = Date.now() - t0;
    const order = big.heard.messages.slice(-40).map(([, t]) => JSON.parse(t).i);
    // the queue past QUEUE_MAX: given up, and said
    for (let i = 0; i < QUEUE_MAX + 10; i++) friend.fb.send("big", "q");
    const problems = friend.heard.problems.slice();
    const queued = friend.fb.state().queued;
    await host.fb.leave();
    await friend.fb.leave();
    await big.fb.leave();
    q.done();
    return { tooBig: host.heard.refused, unfinished, held, afterTick, expired, left, inFirstSecond, took, order, problems, queued,
      rate: RATE, burst: BURST, said: q.said };
  },

  /** A big message, then small ones, come at once (a fair deal's shares, then a play): the
   * receiving page opens the big one more slowly (its decryption held back here, as a slower
   * device's may be) and still hears them in the order they were sent. */
  async order() {
    const relay = fakeRelay();
    const a = page(relay, "ROOMoooooooooooo", "peerA");
    const b = page(relay, "ROOMoooooooooooo", "peerB");
    await a.fb.start();
    await b.fb.start();
    await until(() => a.heard.joins.length && b.heard.joins.length);
    const subtle = globalThis.crypto.subtle;
    const decrypt = subtle.decrypt.bind(subtle);
    let slowed = 0;
    subtle.decrypt = async (algo, key, data) => {
      if (data.byteLength > 4000) {
        slowed++;
        await sleep(200);
      }
      return decrypt(algo, key, data);
    };
    const texts = [JSON.stringify({ t: "fair", seq: 0, pad: "s".repeat(9000) }), ...[1, 2, 3].map((seq) => JSON.stringify({ t: "fair", seq }))];
    for (const text of texts) a.fb.send("peerB", text);
    await until(() => b.heard.messages.length === texts.length);
    subtle.decrypt = decrypt;
    await a.fb.leave();
    await b.fb.leave();
    return { order: b.heard.messages.map(([, text]) => JSON.parse(text).seq), slowed };
  },

  /** A relay passes a page's events on in another order than they were sent (as a relay that
   * checks each signature on its own may), and drops one: the receiving page hears them in
   * their order, waits for the dropped one HOLD_MS at most, then hears the rest. The sender's
   * events to a third page, between them, are no gap to wait for. */
  async reordered() {
    const mark = (ev) => (ev.content.length > 300 ? ev : null); // (the messages, not the pages' presence)
    let sent = 0;
    const late = new Map();
    const relay = fakeRelay({
      tamper: (ev) => {
        if (!mark(ev)) return ev;
        const i = sent++;
        if (i === 1) late.set(ev.id, 120); // passed on after the two that follow it
        return i === 5 ? null : ev; // dropped
      },
      late: (ev) => late.get(ev.id) || 1,
    });
    const a = page(relay, "ROOMrrrrrrrrrrrr", "peerA");
    const b = page(relay, "ROOMrrrrrrrrrrrr", "peerB");
    await a.fb.start();
    await b.fb.start();
    await until(() => a.heard.joins.length && b.heard.joins.length);
    let released = 0;
    const release = b.fb.release.bind(b.fb);
    b.fb.release = (key, p) => { if (p.held.size) released++; return release(key, p); };
    const text = (seq) => JSON.stringify({ t: "fair", seq, pad: "p".repeat(300) });
    // 0 1 (late) 2, one to a third page, 3, 4 (dropped), 5 6
    for (const [to, seq] of [["peerB", 0], ["peerB", 1], ["peerB", 2], ["peerC", -1], ["peerB", 3], ["peerB", 4], ["peerB", 5], ["peerB", 6]]) a.fb.send(to, text(seq));
    await until(() => b.heard.messages.length === 6, HOLD_MS + 5000);
    await a.fb.leave();
    await b.fb.leave();
    return { order: b.heard.messages.map(([, t]) => JSON.parse(t).seq), released, marked: sent };
  },
};

const name = process.argv[2];
if (!scenarios[name]) {
  console.error(`unknown scenario ${name}`);
  process.exit(2);
}
const out = await scenarios[name]();
console.log(JSON.stringify(out));
process.exit(0);
