// Every page authenticated, on every path: after the host's proof, each message between a
// friend's page and the host's is sealed with a key only those two pages hold, whether it goes
// over a WebRTC data channel or through the relay fallback (where every page holding the
// invitation can read and write what the room's key seals).
//
// The pair's key. A friend's page makes an ECDH key (P-256, WebCrypto) when it opens the room
// and sends its public half with its question `who {nonce, dh}`; the host's page answers
// `host {sig, dh}` with a public ECDH key of its own, signed with the host's key (the one the
// invitation carries) together with the nonce, both peer ids and both public keys. Both derive
// the same AES-GCM key (HKDF-SHA-256 of the ECDH secret, the room id as salt, the ids and the
// keys as info). A page that only holds the invitation can neither read nor write a message
// sealed with it: it can ask `who` under its own id and take a free seat, nothing else.
//
// A sealed message: {t: "sealed", c} where c is base64url of a random 12-byte IV and the
// ciphertext of {n, m}: n the sender's counter (a message heard twice, or further back than
// WINDOW, is refused), m the message itself; the sender's and the recipient's ids are its
// additional data (a message sealed for one page is not opened by another). Only `who` and
// `host` travel unsealed; the host's proof binds a peer id to one friend's key for as long as
// the host's page is open (a `who` claiming that id with another key is refused).
//
// No DOM here: it needs crypto.subtle only (the friends' browser tests run it: every message of
// their deals travels sealed).

import { KEY_RE, b64url, unb64url } from "./identity.js";
import { limitFor } from "./wire.js";

/** What travels unsealed: the question and the proof. */
export const PLAIN = new Set(["who", "host"]);
/** A paired peer's question asked again through the relay is heard at most this often. */
export const ASK_MS = 2000;
/** The counters remembered per sender: one further back than this is refused as a replay. */
export const WINDOW = 256;
/** The most pairs a page keeps (the host's: one per friend's page that asked, reloads included). */
export const MAX_PAIRS = 128;
const DH = { name: "ECDH", namedCurve: "P-256" };
const INFO = "briscola-friends pair v1";

const enc = new TextEncoder();
const dec = new TextDecoder();

/** The most characters a sealed message's `c` may have for a message of `limit` characters
 * inside (UTF-8 takes at most 3 bytes a character; the counter, the IV and the tag; base64). */
export function sealedLimit(limit) {
  return Math.ceil(((limit + 64) * 3 + 28) * 4 / 3);
}

/** The most characters a whole sealed message may have, envelope included. */
export function outerLimit(limit) {
  return sealedLimit(limit) + 48;
}

/** Whether a text is a public ECDH key as the pages send it. */
export function isDh(text) {
  return typeof text === "string" && KEY_RE.test(text); // (a raw P-256 point, as the host's key)
}

/** This page's ECDH key for the room: {pub (base64url of the raw point), privateKey}. */
export async function newDh(subtle = globalThis.crypto.subtle) {
  const pair = await subtle.generateKey(DH, false, ["deriveBits"]);
  return { pub: b64url(await subtle.exportKey("raw", pair.publicKey)), privateKey: pair.privateKey };
}

/** The pair's AES-GCM key: from this page's ECDH key and the other's public one; `info` names
 * the pair (ids and keys, in the same order on both pages). Rejects a public key that is not
 * a point of the curve. */
export async function pairKey(mine, theirs, room, info, subtle = globalThis.crypto.subtle) {
  const pub = await subtle.importKey("raw", unb64url(theirs), DH, false, []);
  const bits = await subtle.deriveBits({ name: "ECDH", public: pub }, mine.privateKey, 256);
  const base = await subtle.importKey("raw", bits, "HKDF", false, ["deriveKey"]);
  return subtle.deriveKey({ name: "HKDF", hash: "SHA-256", salt: enc.encode(room), info: enc.encode(`${INFO}|${info}`) },
    base, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
}

/** The text the host's key signs in its proof (the friend's page checks the same). */
export function proofText(nonce, friend, host, friendDh, hostDh) {
  return `${nonce}|${friend}|${host}|${friendDh}|${hostDh}`;
}

/**
 * The pairs of one page. `self()`: this page's peer id; `room`: the room id; `dh`: newDh()'s
 * (newPairs makes them for a page).
 * pair(peer, theirDh, role): the pair's key made ("guest": this page is the friend's, the peer
 * the host's; "host": the other way round); false when `peer` is already paired with another
 * key. seal(peer, msg) -> the sealed message (null without a pair); open(peer, msg) -> {m} or
 * {error}. `refusedCount` counts what was refused, by why.
 */
export class Pairs {
  constructor({ self, room, dh, subtle = globalThis.crypto.subtle }) {
    this.self = self;
    this.room = room;
    this.dh = dh;
    this.subtle = subtle;
    this.pairs = new Map(); // peer -> {dh, key, n (the next counter sent), top, seen, chain}
    this.refusedCount = { sealed: 0, replay: 0, unsealed: 0, identity: 0 };
  }

  has(peer) {
    return this.pairs.has(peer);
  }

  /** The key another peer proved (or asked) with, or null. */
  keyOf(peer) {
    const p = this.pairs.get(peer);
    return p ? p.dh : null;
  }

  async pair(peer, theirDh, role) {
    if (!isDh(theirDh)) return false;
    const kept = this.pairs.get(peer);
    if (kept) {
      if (kept.dh === theirDh) return true; // asked again (a lost answer): the same pair
      this.refusedCount.identity++;
      return false;
    }
    const self = this.self();
    const [friend, host, friendDh, hostDh] = role === "host" ? [peer, self, theirDh, this.dh.pub] : [self, peer, this.dh.pub, theirDh];
    let key;
    try {
      key = await pairKey(this.dh, theirDh, this.room, `${friend}|${host}|${friendDh}|${hostDh}`, this.subtle);
    } catch {
      return false; // not a point of the curve
    }
    if (this.pairs.has(peer)) return this.pairs.get(peer).dh === theirDh;
    if (this.pairs.size >= MAX_PAIRS) this.pairs.delete(this.pairs.keys().next().value);
    this.pairs.set(peer, { dh: theirDh, key, n: 0, top: -1, seen: new Set(), chain: Promise.resolve() });
    return true;
  }

  forget(peer) {
    this.pairs.delete(peer);
  }

  /** `msg` sealed for `peer`, in the order asked (a promise of {t: "sealed", c}); null when
   * this page holds no pair with it. */
  seal(peer, msg) {
    const p = this.pairs.get(peer);
    if (!p) return null;
    const n = p.n++;
    const aad = enc.encode(`${this.self()}>${peer}`);
    const sealed = p.chain.then(async () => {
      const iv = globalThis.crypto.getRandomValues(new Uint8Array(12));
      const ct = new Uint8Array(await this.subtle.encrypt({ name: "AES-GCM", iv, additionalData: aad }, p.key, enc.encode(JSON.stringify({ n, m: msg }))));
      const all = new Uint8Array(12 + ct.length);
      all.set(iv);
      all.set(ct, 12);
      return { t: "sealed", c: b64url(all) };
    });
    p.chain = sealed.catch(() => {});
    return sealed;
  }

  /** A sealed message from `peer` opened, in the order it came: a promise of {m} (the message
   * inside, an object with a type `t`), or {error: {code, message}} (no pair, not sealed with
   * the pair's key, heard before, too big). `limit`: the most characters the message inside may
   * have (a fair deal's message: wire.js limitFor). */
  open(peer, msg, limit) {
    const most = limitFor("fair", limit); // (the type is read once opened)
    const p = this.pairs.get(peer);
    if (!p) {
      this.refusedCount.unsealed++;
      return Promise.resolve({ error: { code: "friends_unproved", message: "no proof of who this page is yet: ask `who` first" } });
    }
    const opened = p.chain.then(async () => {
      let inner;
      try {
        if (typeof msg.c !== "string" || msg.c.length > sealedLimit(most)) throw new Error("size");
        const all = unb64url(msg.c);
        if (all.length < 12 + 16) throw new Error("short");
        const plain = await this.subtle.decrypt({ name: "AES-GCM", iv: all.subarray(0, 12), additionalData: enc.encode(`${peer}>${this.self()}`) },
          p.key, all.subarray(12));
        const text = dec.decode(plain);
        // (the +64: the counter around the message)
        if (text.length <= most + 64) inner = JSON.parse(text);
        const type = inner && inner.m && typeof inner.m === "object" ? inner.m.t : undefined;
        const bound = limitFor(type, limit);
        if (text.length > bound + 64) {
          this.refusedCount.sealed++;
          return { error: { code: "friends_too_big", message: `a message of ${text.length} characters (at most ${bound})` } };
        }
      } catch {
        this.refusedCount.sealed++;
        return { error: { code: "friends_unsealed", message: "a message not sealed with this pair's key" } };
      }
      if (!inner || !Number.isInteger(inner.n) || inner.n < 0 || !inner.m || typeof inner.m !== "object" || Array.isArray(inner.m) || typeof inner.m.t !== "string") {
        this.refusedCount.sealed++;
        return { error: { code: "friends_bad_message", message: "a sealed message must hold a message with a type `t`" } };
      }
      if (inner.n <= p.top - WINDOW || p.seen.has(inner.n)) {
        this.refusedCount.replay++;
        return { error: { code: "friends_replay", message: "a message heard before" } };
      }
      p.seen.add(inner.n);
      if (inner.n > p.top) {
        p.top = inner.n;
        for (const n of p.seen) if (n <= p.top - WINDOW) p.seen.delete(n);
      }
      return { m: inner.m };
    });
    p.chain = opened.catch(() => {});
    return opened;
  }
}

const kept = new Map(); // room -> this page's Pairs as a friend's page (pairsFor)

/** A friend's page's pairs in `room`, the same for as long as the page lives: a friend who
 * leaves the table and opens the invitation again keeps its key and its counters, which the
 * host's page still holds for its id. */
export async function pairsFor(room) {
  if (!kept.has(room)) kept.set(room, newPairs(room));
  return kept.get(room);
}

/** A page's pairs in `room`: its ECDH key made, its peer id the one Trystero gives the page
 * (./vendor.js's selfId, the same on both media and on the relay fallback). */
export async function newPairs(room) {
  const [{ selfId }, dh] = await Promise.all([import("./vendor.js"), newDh()]);
  return new Pairs({ self: () => selfId, room, dh });
}

/**
 * The room (rooms.js's openTable: `open(handlers)` opens it) with every message but `who` and
 * `host` sealed for its pair. `handlers`: openTable's, with message(peer, msg, sealed): `sealed`
 * false for a plain `who` or `host` only. A message neither sealed nor plain, or not opened by
 * the pair's key, is refused: told to `handlers.refused` when it came on the peer's own WebRTC
 * connection (the peer sent it), only counted when it came through the relay fallback (any page
 * holding the invitation can write there under any id). Returns the room, whose send(peer, msg)
 * seals (a message other than `who`/`host` to a peer with no pair is not sent), and `pairs`.
 */
export async function openSealed(open, handlers, { pairs, limit }) {
  // (open(handlers, outer): the room, its messages checked against the sealed size `outer`)
  let conn = null;
  const asked = new Map(); // peer -> when a plain `who` of a paired peer came through the relay
  const refuse = (peer, error) => {
    if (conn && conn.medium(peer) === "relay") return; // anyone may have written it: counted only
    handlers.refused(peer, error.code, error.message);
  };
  conn = await open({
    ...handlers,
    message: (peer, msg) => {
      if (msg.t !== "sealed") {
        if (PLAIN.has(msg.t) && conn && conn.medium(peer) === "relay" && pairs.has(peer)) {
          // through the relay, anyone may write under a paired peer's id: another key is
          // refused, the same one (a question asked again) heard at most every ASK_MS
          const same = msg.t === "who" && msg.dh === pairs.keyOf(peer);
          if (!same || Date.now() - (asked.get(peer) || 0) < ASK_MS) {
            pairs.refusedCount.identity++;
            return;
          }
          asked.set(peer, Date.now());
          if (asked.size > MAX_PAIRS) asked.delete(asked.keys().next().value);
        }
        if (PLAIN.has(msg.t)) handlers.message(peer, msg, false);
        else {
          pairs.refusedCount.unsealed++;
          refuse(peer, { code: "friends_unsealed", message: `${String(msg.t).slice(0, 20)}: only who and host travel unsealed` });
        }
        return;
      }
      pairs.open(peer, msg, limit).then((out) => {
        if (out.error) refuse(peer, out.error);
        else handlers.message(peer, out.m, true);
      });
    },
  }, outerLimit(limitFor("fair", limit))); // (a sealed message's type is read once opened)
  const send = conn.send;
  return {
    ...conn,
    pairs,
    send: (peer, msg) => {
      if (PLAIN.has(msg.t)) {
        send(peer, msg);
        return;
      }
      const sealed = pairs.seal(peer, msg);
      if (sealed) sealed.then((out) => send(peer, out), (err) => console.warn(`friends: a message could not be sealed: ${err}`));
    },
  };
}
