// The relay fallback of "play with friends": when no WebRTC path joins a friend's page to the
// host's (or the browser has no WebRTC at all), the game's messages go through public Nostr
// relays instead, encrypted end to end with a key only the invitation carries.
//
// What a relay sees: events of one ephemeral kind (KIND: passed on to the subscribers, never
// kept), signed by a key each page makes for itself when it opens the fallback, tagged with a
// hash of the room id (never the id), whose content is random-looking base64 (AES-GCM). Inside
// the ciphertext: the sender's peer id, the recipient's (or "" for every page of the room), a
// counter (a message heard twice is refused), the time it was sent (an old one is refused), and
// the message's text or a part of it. The key is derived (HKDF-SHA-256) from the room id, the
// secret of the invitation, so only the pages of the room can read or write a message;
// anything else (another room's, a changed ciphertext) fails to decrypt and is dropped.
//
// Politeness: a page sends at most RATE events a second on average (a token bucket of BURST),
// queues the rest in order, and gives the queue up past QUEUE_MAX events (said: `problem`).
// A message longer than PART_CHARS is sent in parts, reassembled with bounds (the receiving
// page's `limit`, MAX_UNFINISHED per peer, PART_MS).
//
// No DOM here: it needs WebSocket and crypto.subtle (given, so tests/js/fallback.mjs runs it in
// Node against a fake relay) and a Schnorr signer (`@noble/secp256k1`'s, bundled in ./vendor.js).

/** The Nostr event kind of these messages: an ephemeral one (20000-29999), passed on, not kept. */
export const KIND = 24780;
/** The most characters of a message's text one event carries (a part). */
export const PART_CHARS = 16000;
/** Events a second on average, and at once: the token bucket of what a page sends. */
export const RATE = 4;
export const BURST = 16;
/** The most events waiting to go: past it the queue is given up (and said). */
export const QUEUE_MAX = 256;
/** A page says it is here every HERE_MS (while it hears others); a peer not heard for GONE_MS has left. */
export const HERE_MS = 10000;
export const GONE_MS = 35000;
/** Unfinished messages a peer may have at once, and how long one may take to finish. */
export const MAX_UNFINISHED = 4;
export const PART_MS = 20000;
/** A message sent longer ago than this is refused (a relay replaying an old one). */
export const OLD_MS = 5 * 60000;
/** A peer let go (the referee's bounds) is not heard for this long. */
export const DROP_MS = 30000;
/** A peer's event ahead of a gap in its counter waits this long at most for the gap, and so
 * many at most wait at once (then they are taken as they are). */
export const HOLD_MS = 3000;
export const MAX_HELD = 64;
/** The counters remembered per sender: one further back than this is refused as a replay. */
export const WINDOW = 256;
/** The most peers known at once (the pages of one room are a few). */
export const MAX_PEERS = 32;
/** The most characters a relay's message may have before it is parsed. */
export const MAX_RELAY_TEXT = 96 * 1024;
const INFO = "briscola-friends relay fallback v1";
const TOPIC = "briscola-friends topic v1|";
const RETRY_MS = [1000, 2000, 5000, 10000, 30000]; // a relay's socket opened again after it closed
const ID_RE = /^[0-9A-Za-z_-]{1,64}$/;
const HEX64 = /^[0-9a-f]{64}$/;

const enc = new TextEncoder();
const dec = new TextDecoder();

export function hex(bytes) {
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function unhex(text) {
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(text.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function b64(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function unb64(text) {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** The room's key (AES-GCM, from the room id by HKDF-SHA-256) and the topic tag (a hash of the
 * room id): {key, topic}. */
export async function roomKeys(room, subtle = globalThis.crypto.subtle) {
  const base = await subtle.importKey("raw", enc.encode(room), "HKDF", false, ["deriveKey"]);
  const key = await subtle.deriveKey({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: enc.encode(INFO) },
    base, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
  const topic = hex(await subtle.digest("SHA-256", enc.encode(TOPIC + room)));
  return { key, topic };
}

/** An object sealed with the room's key: base64 of a 12-byte IV and the ciphertext (the topic
 * as additional data). */
export async function seal(keys, value, subtle = globalThis.crypto.subtle) {
  const iv = globalThis.crypto.getRandomValues(new Uint8Array(12));
  const ct = new Uint8Array(await subtle.encrypt({ name: "AES-GCM", iv, additionalData: enc.encode(keys.topic) }, keys.key,
    enc.encode(JSON.stringify(value))));
  const all = new Uint8Array(12 + ct.length);
  all.set(iv);
  all.set(ct, 12);
  return b64(all);
}

/** The object in a sealed text, or null (not base64, too short, not this room's key, changed,
 * not JSON). */
export async function unseal(keys, text, subtle = globalThis.crypto.subtle) {
  try {
    const all = unb64(text);
    if (all.length < 12 + 16) return null;
    const plain = await subtle.decrypt({ name: "AES-GCM", iv: all.subarray(0, 12), additionalData: enc.encode(keys.topic) }, keys.key,
      all.subarray(12));
    const value = JSON.parse(dec.decode(plain));
    return value && typeof value === "object" && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/** A NIP-01 event's id: the SHA-256 of its serialisation, in hex. */
export async function eventId(ev, subtle = globalThis.crypto.subtle) {
  return hex(await subtle.digest("SHA-256", enc.encode(JSON.stringify([0, ev.pubkey, ev.created_at, ev.kind, ev.tags, ev.content]))));
}

/** A text cut into parts of at most `size` characters (one empty part for an empty text). */
export function parts(text, size = PART_CHARS) {
  const out = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out.length ? out : [""];
}

/**
 * The fallback of one page in one room. `opts`: {room, relays (ws URLs of Nostr relays), self
 * (this page's peer id), limit (the most a message to this page may weigh), schnorr (keygen,
 * signAsync: @noble/secp256k1's), WebSocket, now, hold (HOLD_MS)}. `handlers`: {join(peer), leave(peer),
 * message(peer, text), refused(peer, code, message), problem(code, message)}.
 * Call start(); then send(peer, text), peers(), has(peer), drop(peer), leave(), state().
 */
export class Fallback {
  constructor(opts, handlers) {
    this.room = opts.room;
    this.urls = opts.relays.slice(0, 12);
    this.self = opts.self;
    this.limit = opts.limit;
    this.schnorr = opts.schnorr;
    this.WS = opts.WebSocket || globalThis.WebSocket;
    this.now = opts.now || (() => Date.now());
    this.hold = opts.hold ?? HOLD_MS; // how long an event ahead of a gap waits for it
    this.h = handlers;
    this.sockets = new Map(); // url -> {ws, tries, timer}
    this.queue = []; // plain objects waiting for a token, in order
    this.tokens = BURST;
    this.filledAt = this.now();
    this.pumping = false;
    this.counter = 0; // the counter of this page's events (inside each)
    this.messages = 0; // the number of this page's messages (a message's parts share it)
    this.seenEvents = new Set(); // the ids of the last events heard (the same event from two relays)
    // `${peer}|${its Nostr key}` -> {peer, at (last heard), top, seen (counters), unfinished:
    // Map(id -> {of, got, parts, chars, at})}: a page's counters are its own key's (a page
    // claiming another's id with a counter far ahead holds back nothing of that page's)
    this.known = new Map();
    this.blocked = new Map(); // peer -> until when it is not heard (let go)
    // peer -> the highest counter heard from a peer since forgotten (gone, let go): its events
    // heard before are still refused if a relay sends them again (the last 128 peers)
    this.retired = new Map(); // (keyed as `known`)
    this.sent = 0; // events sent (for the tests and the bench)
    this.refusedCount = { replay: 0, old: 0, sealed: 0 };
    this.closed = false;
    this.sub = `bf${Math.random().toString(36).slice(2, 10)}`;
    this.inOrder = Promise.resolve(); // the events heard, opened and taken in the order they came
  }

  async start() {
    this.keys = await roomKeys(this.room);
    const { secretKey, publicKey } = this.schnorr.keygen();
    this.secret = secretKey;
    this.pubkey = hex(publicKey);
    for (const url of this.urls) this.connect(url);
    this.here("");
    this.ticker = setInterval(() => this.tick(), 1000);
    // said again only while some page of the room is heard here (a newcomer says it is here,
    // and is answered at once): a host's page with no friend on the fallback sends nothing more
    this.hereTimer = setInterval(() => { if (this.known.size) this.here(""); }, HERE_MS);
    return this;
  }

  // ---- the relays ------------------------------------------------------------------------
  connect(url) {
    if (this.closed) return;
    const slot = this.sockets.get(url) || { ws: null, tries: 0, timer: null };
    this.sockets.set(url, slot);
    let ws;
    try {
      ws = new this.WS(url);
    } catch (err) {
      console.warn(`friends: the relay ${url} cannot be opened: ${err}`);
      return;
    }
    slot.ws = ws;
    ws.onopen = () => {
      slot.tries = 0;
      ws.send(JSON.stringify(["REQ", this.sub, { kinds: [KIND], "#t": [this.keys.topic] }]));
      this.pump();
    };
    ws.onmessage = (e) => this.heard(typeof e.data === "string" ? e.data : "");
    ws.onerror = () => {}; // the close that follows says it
    ws.onclose = () => {
      if (this.closed || slot.ws !== ws) return;
      slot.ws = null;
      const wait = RETRY_MS[Math.min(slot.tries, RETRY_MS.length - 1)];
      slot.tries++;
      slot.timer = setTimeout(() => this.connect(url), wait);
    };
  }

  open() {
    return [...this.sockets.values()].map((s) => s.ws).filter((ws) => ws && ws.readyState === 1);
  }

  /** What a relay said: an event of this room is opened; the rest is looked at only to warn. */
  heard(text) {
    if (this.closed || !text || text.length > MAX_RELAY_TEXT) return;
    let msg;
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (!Array.isArray(msg)) return;
    if (msg[0] === "OK" && msg[2] === false) console.warn(`friends: a relay refused an event: ${String(msg[3]).slice(0, 120)}`);
    if (msg[0] === "CLOSED") console.warn(`friends: a relay closed the subscription: ${String(msg[2]).slice(0, 120)}`);
    if (msg[0] !== "EVENT" || msg[1] !== this.sub) return;
    const ev = msg[2];
    if (!ev || ev.kind !== KIND || typeof ev.content !== "string" || !HEX64.test(String(ev.id)) || ev.pubkey === this.pubkey) return;
    if (!Array.isArray(ev.tags) || !ev.tags.some((t) => Array.isArray(t) && t[0] === "t" && t[1] === this.keys.topic)) return;
    if (this.seenEvents.has(ev.id)) return; // the same event through another relay
    this.seenEvents.add(ev.id);
    if (this.seenEvents.size > 1024) this.seenEvents.delete(this.seenEvents.values().next().value);
    this.receive(ev.content, ev.pubkey);
  }

  /** A sealed content: opened, checked (sender, recipient, counter, time), then heard, in the
   * order the relay passed the events on (each opened at once, heard after those before it: a
   * small message opens sooner than a big one sent before it, and a page's messages, a fair
   * deal's above all, are taken in their order). */
  receive(content, pubkey = "") {
    const opened = unseal(this.keys, content);
    const run = this.inOrder.then(() => opened).then((m) => this.opened(m, pubkey));
    this.inOrder = run.catch((err) => console.warn(`friends: a relay's event could not be heard: ${err}`));
    return run;
  }

  opened(m, pubkey) {
    if (this.closed) return;
    if (!m) {
      this.refusedCount.sealed++;
      return;
    }
    const from = m.f;
    if (typeof from !== "string" || !ID_RE.test(from) || from === this.self) return;
    if (!Number.isInteger(m.n) || m.n < 0 || typeof m.at !== "number" || !["m", "here", "bye"].includes(m.k)) return;
    const now = this.now();
    if (now - m.at > OLD_MS) {
      this.refusedCount.old++;
      return;
    }
    const until = this.blocked.get(from);
    if (until !== undefined) {
      if (now < until) return;
      this.blocked.delete(from);
    }
    const key = `${from}|${pubkey}`;
    let p = this.known.get(key);
    if (m.to !== "" && m.to !== this.self) { // for another page of the room: only its counter's turn taken here
      if (p && m.n > p.top - WINDOW && !p.seen.has(m.n)) this.inTurn(key, p, { n: m.n, k: "other" }, false);
      return;
    }
    // (a counter heard under another key of the same id is a replay too: a relay that signs a
    // page's content again with a key of its own)
    if ((p && m.n <= p.top - WINDOW) || (!p && m.n <= this.retiredTop(from)) || this.seenBy(from, m.n)) {
      this.refusedCount.replay++;
      return;
    }
    const fresh = !this.has(from);
    if (!p) {
      if (m.k === "bye") return;
      if (this.known.size >= MAX_PEERS) this.forgetOldest();
      p = { peer: from, at: now, top: -1, seen: new Set(), unfinished: new Map(), next: undefined, held: new Map(), timer: null };
      this.known.set(key, p);
    }
    p.seen.add(m.n);
    if (m.n > p.top) {
      p.top = m.n;
      for (const n of p.seen) if (n <= p.top - WINDOW) p.seen.delete(n);
    }
    this.inTurn(key, p, m, fresh);
  }

  /** An event of a peer's key taken in the order of its counter: a relay may pass events on in
   * another order than they were sent (it checks each signature on its own), and a page's
   * messages are heard in their order, as on a data channel (a fair deal's device refuses one
   * ahead of the next it expects). One ahead of a gap waits for it, HOLD_MS at most (a relay may
   * have dropped an event, or it went before this page listened), and so many at most. */
  inTurn(key, p, m, fresh) {
    if (p.next !== undefined && m.n > p.next) {
      p.held.set(m.n, m);
      if (p.held.size > MAX_HELD) this.release(key, p);
      else if (!p.timer) p.timer = setTimeout(() => this.release(key, p), this.hold);
      return;
    }
    if (m.n >= (p.next ?? 0)) p.next = m.n + 1; // (the first heard, or the next; one given up waiting for is taken late)
    this.take(key, p, m, fresh);
    for (let q; (q = p.held.get(p.next)) !== undefined; p.next++) {
      p.held.delete(p.next);
      this.take(key, p, q, false);
    }
    clearTimeout(p.timer);
    p.timer = p.held.size ? setTimeout(() => this.release(key, p), this.hold) : null; // (another gap: its own wait)
  }

  /** The events held for a gap that did not fill, taken in their order from the first. */
  release(key, p) {
    clearTimeout(p.timer);
    p.timer = null;
    if (this.closed || !p.held.size || this.known.get(key) !== p) return;
    const first = Math.min(...p.held.keys());
    const m = p.held.get(first);
    p.held.delete(first);
    p.next = first;
    this.inTurn(key, p, m, false);
  }

  /** An event heard, in its turn. */
  take(key, p, m, fresh) {
    if (this.known.get(key) !== p || m.k === "other") return; // (its page gone meanwhile; another page's event)
    p.at = this.now();
    if (fresh) {
      this.h.join(p.peer);
      if (m.k !== "here" || m.to === "") this.here(p.peer); // the newcomer learns of this page at once
    }
    if (m.k === "bye") this.gone(key);
    else if (m.k === "m") this.part(p.peer, p, m, p.at);
  }

  /** The highest counter heard from `peer` under a key since forgotten (-1: none): a new key
   * of the same id is not heard below it (a page's old events signed again by another key). */
  retiredTop(peer) {
    let top = -1;
    for (const r of this.retired.values()) if (r.peer === peer && r.top > top) top = r.top;
    return top;
  }

  /** Whether counter `n` was heard from `peer` under any of its keys (within their windows). */
  seenBy(peer, n) {
    for (const p of this.known.values()) if (p.peer === peer && p.seen.has(n)) return true;
    return false;
  }

  /** A part of a message: the whole text heard once every part has come (bounded). */
  part(peer, p, m, now) {
    const most = Math.ceil(this.limit / PART_CHARS) || 1;
    if (typeof m.d !== "string" || m.d.length > PART_CHARS || !Number.isInteger(m.of) || !Number.isInteger(m.i)
      || !Number.isInteger(m.id) || m.i < 0 || m.i >= m.of) return;
    if (m.of > most) { // said once (its first part), none of it kept
      if (m.i === 0) this.h.refused(peer, "friends_too_big", `a message of ${m.of} parts (at most ${most})`);
      return;
    }
    if (m.of === 1) {
      this.h.message(peer, m.d);
      return;
    }
    let u = p.unfinished.get(m.id);
    if (!u) {
      if (p.unfinished.size >= MAX_UNFINISHED) {
        const oldest = p.unfinished.keys().next().value;
        p.unfinished.delete(oldest);
        this.h.refused(peer, "friends_too_big", `more than ${MAX_UNFINISHED} messages unfinished at once`);
      }
      u = { of: m.of, got: 0, parts: new Array(m.of), chars: 0, at: now };
      p.unfinished.set(m.id, u);
    }
    if (u.of !== m.of || u.parts[m.i] !== undefined) return;
    u.parts[m.i] = m.d;
    u.got++;
    u.chars += m.d.length;
    if (u.chars > this.limit) {
      p.unfinished.delete(m.id);
      this.h.refused(peer, "friends_too_big", `a message of more than ${this.limit} characters`);
      return;
    }
    if (u.got < u.of) return;
    p.unfinished.delete(m.id);
    this.h.message(peer, u.parts.join(""));
  }

  forgetOldest() {
    let oldest = null;
    for (const [key, p] of this.known) if (!oldest || p.at < this.known.get(oldest).at) oldest = key;
    if (oldest) this.gone(oldest);
  }

  /** One key of a peer forgotten (`key` as in `known`); the peer leaves with its last. */
  gone(key) {
    const p = this.known.get(key);
    if (!p) return;
    clearTimeout(p.timer);
    this.known.delete(key);
    this.retired.delete(key);
    this.retired.set(key, { peer: p.peer, top: p.top });
    if (this.retired.size > 128) this.retired.delete(this.retired.keys().next().value);
    if (!this.has(p.peer)) this.h.leave(p.peer);
  }

  /** Every second: peers not heard for GONE_MS leave; unfinished messages older than PART_MS go. */
  tick() {
    const now = this.now();
    for (const [key, p] of [...this.known]) {
      const peer = p.peer;
      if (now - p.at >= GONE_MS) {
        this.gone(key);
        continue;
      }
      for (const [id, u] of [...p.unfinished]) {
        if (now - u.at < PART_MS) continue;
        p.unfinished.delete(id);
        this.h.refused(peer, "friends_too_big", `a message unfinished after ${PART_MS / 1000} s`);
      }
    }
    this.pump();
  }

  // ---- sending ---------------------------------------------------------------------------
  /** A page's presence, to one peer or to all (""). */
  here(to) {
    this.enqueue([{ k: "here", to }]);
  }

  /** A message's text to one peer (its parts queued in order). */
  send(peer, text) {
    if (this.closed) return;
    const id = ++this.messages;
    const list = parts(text);
    this.enqueue(list.map((d, i) => ({ k: "m", to: peer, id, i, of: list.length, d })));
  }

  enqueue(items) {
    if (this.closed) return;
    if (this.queue.length + items.length > QUEUE_MAX) {
      const n = this.queue.length;
      this.queue = [];
      console.warn(`friends: the relay fallback gave up ${n} events waiting to go (more than ${QUEUE_MAX})`);
      if (this.h.problem) this.h.problem("friends_relay_busy", `more than ${QUEUE_MAX} events waiting to go`);
    }
    this.queue.push(...items);
    this.pump();
  }

  /** Sends what the token bucket lets go now, in order; later ones wait for the next token. */
  async pump() {
    if (this.pumping || this.closed) return;
    this.pumping = true;
    try {
      while (this.queue.length && !this.closed) {
        const sockets = this.open();
        if (!sockets.length) return; // a relay's opening pumps again
        const now = this.now();
        this.tokens = Math.min(BURST, this.tokens + ((now - this.filledAt) * RATE) / 1000);
        this.filledAt = now;
        if (this.tokens < 1) {
          clearTimeout(this.waiting);
          this.waiting = setTimeout(() => this.pump(), Math.ceil(((1 - this.tokens) * 1000) / RATE));
          return;
        }
        this.tokens -= 1;
        const item = this.queue.shift();
        const text = JSON.stringify(["EVENT", await this.event(item)]);
        for (const ws of this.open()) ws.send(text);
        this.sent++;
      }
    } finally {
      this.pumping = false;
    }
  }

  /** A queued item as a signed Nostr event, its content sealed with the room's key. */
  async event(item) {
    const now = this.now();
    const content = await seal(this.keys, { v: 1, f: this.self, n: this.counter++, at: now, ...item });
    const ev = { pubkey: this.pubkey, created_at: Math.floor(now / 1000), kind: KIND, tags: [["t", this.keys.topic]], content };
    ev.id = await eventId(ev);
    ev.sig = hex(await this.schnorr.signAsync(unhex(ev.id), this.secret));
    return ev;
  }

  // ---- the room --------------------------------------------------------------------------
  peers() {
    return [...new Set([...this.known.values()].map((p) => p.peer))];
  }

  has(peer) {
    for (const p of this.known.values()) if (p.peer === peer) return true;
    return false;
  }

  /** A peer let go: forgotten, and not heard for DROP_MS. */
  drop(peer) {
    this.blocked.set(peer, this.now() + DROP_MS);
    if (this.blocked.size > 64) this.blocked.delete(this.blocked.keys().next().value);
    for (const [key, p] of [...this.known]) if (p.peer === peer) this.gone(key);
  }

  /** {relaysOpen, peers, queued, sent}. */
  state() {
    return { relaysOpen: this.open().length, peers: this.peers().length, queued: this.queue.length, sent: this.sent };
  }

  /** This page leaves: the others are told (a last event, not queued behind the rest), and the
   * relays' sockets closed. */
  async leave() {
    if (this.closed) return;
    clearInterval(this.ticker);
    clearInterval(this.hereTimer);
    clearTimeout(this.waiting);
    const sockets = this.open();
    try {
      if (sockets.length) {
        const text = JSON.stringify(["EVENT", await this.event({ k: "bye", to: "" })]);
        for (const ws of sockets) ws.send(text);
      }
    } catch {
      // leaving anyway
    }
    this.closed = true;
    this.queue = [];
    for (const slot of this.sockets.values()) {
      clearTimeout(slot.timer);
      if (slot.ws) {
        try {
          slot.ws.send(JSON.stringify(["CLOSE", this.sub]));
        } catch {
          // not open
        }
        slot.ws.close();
      }
    }
  }
}
