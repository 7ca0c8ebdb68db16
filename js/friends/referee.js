// The referee of a table with friends: what the host's page does with every message from a
// friend's page, with no DOM and no WebRTC, so that tests/js/referee.mjs drives it in Node.
// It receives (peer, message, time) and decides, through the functions it is given
// (`hooks`), what the host's worker is asked and what is sent to whom. js/friends/host.js
// gives it the worker, the connections and the host's page's reactions (the lobby drawn
// again, the table moved on).
//
// Messages from a friend (each {v, t, ...}; wire.js checked the size, the JSON and the envelope):
//   who {nonce, dh}                 is this page the host? answered with a signature and the
//                                   host's ECDH key (./pairs.js: every later message sealed)
//   hello {name, token, build}      who is there; a token that holds a seat takes it back
//   take {seat, name, token}        a free friend's seat
//   req {id, type, args}            a request for its own seat: act {action}, state {};
//                                   answered {t: "res", id, n?, result | error}
//   sync {}                         the current view again (before the deal, the lobby)
// To a friend: host {sig, dh}, seated {seat, room}, lobby {seats, you, started}, view {n, state}
// (state.round: which game of the table; a new one after the host's "play again"),
// res {...}, error {code, message}; from the host's page itself, bye {} (the table closed).
// A lobby's seat says whether a computer plays it for now (`away`: its friend gone too long).
//
// What it checks (docs/friends.md, "The referee"): the shape of every message; that a friend
// acts and asks for its own seat only, whatever it says; that an id is not used twice; and the
// bounds of each peer (BOUNDS): its rate, its requests waiting for the worker, and the
// chunked messages it leaves unfinished. Only a friend's plays and its view requests reach the
// worker; a hint, the card tracker and a finished deal's review are refused at once (a friend's
// page computes them with its own engine: the review from the deal's record, `travelling`).

import { deeper, readFrame } from "./wire.js";

export { readFrame };
import { isDh, proofText } from "./pairs.js";
import { TRAVELLING, where } from "../requests.js";

// From the engine's one table of requests (js/requests.js, written from py/briscola/protocol.py):
/** A finished deal's review: a friend's page answers it with its own engine, from the deal's
 * record (`record` in the views once the deal is over); the host's refuses it. */
export const REVIEW = where("friend", "review");
/** What of a review request a friend's page passes to its own engine (its seat and the record's flag added). */
export const REVIEW_ARGS = ["deal", "index", "step", "all_hands", "action"];
/** What a friend may ask the host's worker. */
export const REQUESTS = where("referee", "asks");
/** What a friend's page may ask that the host need not answer: refused without the worker. */
export const NOT_OFFERED = where("referee", "not_offered");

/**
 * The bounds of one peer (docs/friends.md says why these numbers):
 * - rate, burst: a token bucket of messages, `rate` a second, `burst` at once. A person's page
 *   sends a play, a view request and a sync every few seconds; a review opened sends a few
 *   requests at once and one a click after: 40 at once and 20 a second is far above that.
 * - queue: the most requests of one peer waiting for the worker at once; the rest are refused
 *   at once ("friends_busy"). A page waits for its play's answer before the next play.
 * - floodMs, quietMs: a peer refused for its rate again and again (no pause of `quietMs`) for
 *   `floodMs` is let go (its connection closed).
 * - tellMs: a flooding peer is told "slow down" at most this often.
 * - parts, partBytes, partMs: chunked messages left unfinished, per peer: at most `parts` at
 *   once, each at most `partBytes` and `partMs` old, else the peer is let go (the transport
 *   then forgets what it held of them). A friend's message fits one chunk (wire.js:
 *   LIMIT_TO_HOST), so only a broken or hostile page comes near these.
 * - ids: how many of a peer's last request ids are remembered (an id again is refused).
 */
export const BOUNDS = Object.freeze({
  rate: 20, burst: 40, queue: 4, floodMs: 5000, quietMs: 1000, tellMs: 1000,
  parts: 3, partBytes: 65536, partMs: 10000, ids: 64,
});

const TOKEN_RE = /^[A-Za-z0-9]{16,64}$/;
const NONCE_RE = /^[A-Za-z0-9_-]{16,64}$/;
const ACTION_RE = /^[A-Za-z0-9_:+-]{1,16}$/;
const small = (x) => Number.isInteger(x) && x >= 0 && x <= 9999;
const plain = (x) => !!x && typeof x === "object" && !Array.isArray(x);
const text = (x, n) => String(typeof x === "string" ? x : typeof x).slice(0, n);

/** What of a reply goes to a friend: the table as its seat sees it; `round`, which game of the
 * table it is (the host's page adds it: "play again"); once the deal is over, the deal's public
 * record (every card of it public then: the bridge puts it in a reply only then); nothing else
 * (never a save). */
export function travelling(state) {
  const out = {};
  if (!plain(state)) return out;
  for (const k of TRAVELLING) if (k in state) out[k] = state[k];
  return out;
}

/** `seat`'s own view in a reply of the worker: the bridge's `views[seat]` (every reply that
 * changes a table with friends carries each friend seat's), or the reply itself when it is
 * that seat's table; else null (the worker is then asked for it). */
export function viewOf(reply, seat) {
  if (!plain(reply)) return null;
  const mine = plain(reply.views) ? reply.views[String(seat)] : undefined;
  if (plain(mine) && mine.seat === seat) return mine;
  return reply.seat === seat && plain(reply.view) ? reply : null;
}

/** A person's name as a friend's page sends it: no control characters, no marks or overrides
 * of the text's direction (a name with U+202E turned the words around it), at most 20. */
export function cleanName(name) {
  return typeof name === "string" ? name.replace(/[\u0000-\u001f\u007f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, "").trim().slice(0, 20) : "";
}

export class Referee {
  /**
   * @param hooks what the referee acts through:
   *   send(peer, msg)            a message to that peer
   *   drop(peer, why, seat)      that peer's connection closed (a flood, unfinished parts); the
   *                              seat it held (or null) now waits for its friend
   *   ask(type, args)            the host's worker: a promise of its reply
   *   sign(text)                 a promise of the host key's signature of `text`
   *   pair(peer, dh)             a promise of the host page's ECDH key once paired with that
   *                              friend's key (./pairs.js), or null (the id has another key)
   *   self()                     the host page's peer id
   *   started(), game()          whether the deal is dealt; the match's id
   *   n()                        the number of the table's latest move (the views' `n`)
   *   played(seat)               a friend's play was taken: the table moves on; returns its `n`
   *   seated(peer, seat, away)   a peer took (or took back) a seat: the host's page reacts
   *   lobby()                    the lobby changed: every peer and the host's page are told
   *   room                       the room's id (told with the seat)
   *   build                      the build every page must be
   * @param seats the table's seats, shared with the host's page: {kind: "friend", name, token,
   *   peer, away?} for a friend's; the others {kind, ...}, never changed here
   */
  constructor(hooks, seats, { bounds = BOUNDS, now = () => Date.now() } = {}) {
    this.hooks = hooks;
    this.seats = seats;
    this.bounds = bounds;
    this.now = now;
    this.peers = new Map(); // peer id -> its state (see peer())
    this.dropped = new Set(); // peers let go, whose messages still on the way are not heard (the last 64)
  }

  /** A peer's state, made when it first comes: its seat, name, bucket, requests waiting, the
   * ids it used, its unfinished parts, its flood. */
  peer(id) {
    let p = this.peers.get(id);
    if (!p) {
      p = { seat: null, name: "", tokens: this.bounds.burst, at: this.now(), waiting: 0, ids: [], parts: new Map(),
        floodSince: null, overAt: 0, toldAt: -Infinity };
      this.peers.set(id, p);
    }
    return p;
  }

  /** A peer joined the room (again, after it was let go: a new connection is heard). */
  joined(peer) {
    this.dropped.delete(peer);
    this.peer(peer);
  }

  /** A peer left: forgotten; the seat it held, or null (the host's page waits for its friend). */
  left(peer) {
    const p = this.peers.get(peer);
    this.peers.delete(peer);
    if (p && p.seat !== null && this.seats[p.seat] && this.seats[p.seat].peer === peer) {
      this.seats[p.seat].peer = null;
      return p.seat;
    }
    return null;
  }

  /** The lobby as it is now, for one peer. */
  lobbyFor(peer) {
    const p = this.peers.get(peer);
    const seats = this.seats.map((s) => ({ kind: s.kind, name: s.kind === "bot" ? "" : s.name || "", level: s.level,
      taken: s.kind !== "friend" || !!s.token, connected: s.kind === "human" || (s.kind === "friend" && !!s.peer),
      away: s.kind === "friend" && !!s.away }));
    return { t: "lobby", seats, you: p ? p.seat : null, started: !!this.hooks.started() };
  }

  lobbyTo(peer) {
    this.hooks.send(peer, this.lobbyFor(peer));
  }

  refuse(peer, code, message, id) {
    this.hooks.send(peer, id === undefined ? { t: "error", code, message } : { t: "res", id, error: { code, message } });
  }

  /** Lets a peer go: its connection closed, its state forgotten (its seat waits for it). */
  drop(peer, why) {
    const seat = this.left(peer);
    this.dropped.add(peer);
    if (this.dropped.size > 64) this.dropped.delete(this.dropped.values().next().value);
    try {
      this.hooks.drop(peer, why, seat);
    } catch { /* the connection is gone already */ }
  }

  /** One message's token from the peer's bucket: true if it may be heard. A peer past its rate
   * is told (at most every tellMs), and let go once it has been past it for floodMs. */
  spend(peer, p, now) {
    const b = this.bounds;
    p.tokens = Math.min(b.burst, p.tokens + (Math.max(0, now - p.at) * b.rate) / 1000);
    p.at = Math.max(p.at, now);
    if (p.tokens >= 1) {
      p.tokens -= 1;
      return true;
    }
    if (p.floodSince === null || now - p.overAt >= b.quietMs) p.floodSince = now;
    p.overAt = now;
    if (now - p.floodSince >= b.floodMs) {
      this.refuse(peer, "friends_flood", "too many requests for too long: disconnected");
      this.drop(peer, "flood");
      return false;
    }
    if (now - p.toldAt >= b.tellMs) {
      p.toldAt = now;
      this.refuse(peer, "friends_slow_down", "too many requests, slow down");
    }
    return false;
  }

  /** A message the transport refused (too big, not JSON, another version): it counts against
   * the peer's rate like any other, and the peer is told why. */
  refused(peer, code, message, now = this.now()) {
    try {
      if (typeof peer !== "string" || this.dropped.has(peer)) return;
      const p = this.peer(peer);
      if (!this.spend(peer, p, now)) return;
      const known = typeof code === "string" && /^[a-z_]{1,40}$/.test(code);
      this.refuse(peer, known ? code : "friends_bad_message", text(message, 200));
    } catch (err) {
      console.warn(`friends: the referee failed on a refused message: ${err}`);
    }
  }

  /** A data-channel frame from a peer, before the transport reassembles it: a part of a
   * chunked message is counted until its last part comes; too many, too big or too old, and
   * the peer is let go. */
  frame(peer, data, now = this.now()) {
    try {
      const f = readFrame(data);
      if (!f) return;
      const p = this.peers.get(peer);
      if (!p) return;
      if (f.last) {
        p.parts.delete(f.key);
        return;
      }
      const part = p.parts.get(f.key) || { bytes: 0, since: now };
      part.bytes += f.bytes;
      p.parts.set(f.key, part);
      const b = this.bounds;
      if (p.parts.size > b.parts || part.bytes > b.partBytes) this.drop(peer, "parts");
      else this.tick(now);
    } catch (err) {
      console.warn(`friends: the referee failed on a frame: ${err}`);
    }
  }

  /** The time goes on: a peer with a chunked message unfinished for partMs is let go. */
  tick(now = this.now()) {
    for (const [peer, p] of [...this.peers]) {
      for (const part of p.parts.values()) {
        if (now - part.since >= this.bounds.partMs) {
          this.drop(peer, "parts");
          break;
        }
      }
    }
  }

  /** How many parts of unfinished messages the referee counts, all peers together (tests). */
  unfinished() {
    let n = 0;
    for (const p of this.peers.values()) n += p.parts.size;
    return n;
  }

  /** One message from a peer. Never throws; whatever is wrong is refused to that peer and
   * changes nothing. Returns a promise when the answer waits for the worker (tests). */
  heard(peer, msg, now = this.now()) {
    try {
      if (typeof peer !== "string" || this.dropped.has(peer)) return undefined;
      const p = this.peer(peer);
      if (!this.spend(peer, p, now)) return undefined;
      if (!plain(msg) || typeof msg.t !== "string") return this.refuse(peer, "friends_bad_message", "a message must be an object with a type `t`");
      if (deeper(msg, 4)) return this.refuse(peer, "friends_bad_message", "a message nested too deep");
      switch (msg.t) {
        case "who": return this.who(peer, msg);
        case "hello": return this.hello(peer, p, msg);
        case "take": return this.take(peer, p, msg);
        case "req": return this.request(peer, p, msg);
        case "sync": return this.sync(peer, p);
        case "fair": // a fair deal's message (./fair.js): the host's page carries it
        case "fair_lost": // a page come back without the fair deal under way (./fair-table.js fairLost)
        case "fair_heard": // a page come back at the fair deal: what it has heard (./fair-table.js fairMissed)
        case "fair_refuse": // a page that does not deal the deal: not the match's next there (./fair-table.js fairRefused)
          if (p.seat === null || !this.hooks.started() || !this.hooks.fair) return this.refuse(peer, "friends_not_seated", "take a seat first");
          return this.hooks.fair(peer, p.seat, msg);
        default: return this.refuse(peer, "friends_bad_message", `unknown message ${text(msg.t, 20)}`);
      }
    } catch (err) {
      console.warn(`friends: the referee failed on a message: ${err}`);
      return undefined;
    }
  }

  /** A page asks who the host is, with its ECDH key: the pair made (./pairs.js), and the
   * proof, signed for that page and this one, their ids and their keys. An id already paired
   * with another key is answered nothing (the page that holds it is another's: nothing is
   * told to it either); counted by the pairs. */
  async who(peer, msg) {
    if (typeof msg.nonce !== "string" || !NONCE_RE.test(msg.nonce) || !isDh(msg.dh)) {
      return this.refuse(peer, "friends_bad_message", "who: a nonce and a key expected");
    }
    try {
      const self = this.hooks.self();
      if (!self) return undefined; // the host's page has left the room
      const dh = await this.hooks.pair(peer, msg.dh);
      if (!dh) return undefined;
      const sig = await this.hooks.sign(proofText(msg.nonce, peer, self, msg.dh, dh));
      if (this.peers.has(peer)) this.hooks.send(peer, { t: "host", sig, dh });
    } catch (err) {
      console.warn(`friends: the host's proof could not be made: ${err}`);
    }
    return undefined;
  }

  hello(peer, p, msg) {
    if (msg.build !== this.hooks.build) return this.refuse(peer, "friends_build", "the host's page is another build");
    p.name = cleanName(msg.name);
    if (typeof msg.token === "string" && TOKEN_RE.test(msg.token)) {
      const seat = this.seats.findIndex((s) => s.kind === "friend" && s.token === msg.token);
      if (seat >= 0) return this.seat(peer, p, seat, msg.token, p.name || this.seats[seat].name);
    }
    this.hooks.lobby();
    return undefined;
  }

  take(peer, p, msg) {
    const seat = msg.seat;
    if (!Number.isInteger(seat) || !this.seats[seat] || this.seats[seat].kind !== "friend") {
      return this.refuse(peer, "friends_no_seat", "no such seat for a friend");
    }
    if (typeof msg.token !== "string" || !TOKEN_RE.test(msg.token)) return this.refuse(peer, "friends_bad_message", "take: a token expected");
    const name = cleanName(msg.name);
    if (!name) return this.refuse(peer, "friends_name", "take: a name expected");
    const s = this.seats[seat];
    if (s.token && s.token !== msg.token) return this.refuse(peer, "friends_seat_taken", "that seat is taken");
    if (p.seat !== null && p.seat !== seat) return this.refuse(peer, "friends_seat_taken", "this page already holds a seat");
    return this.seat(peer, p, seat, msg.token, name);
  }

  seat(peer, p, seat, token, name) {
    const s = this.seats[seat];
    if (s.peer && s.peer !== peer) { // the same person again (a reload): the old connection loses the seat
      const old = this.peers.get(s.peer);
      if (old) old.seat = null;
    }
    Object.assign(s, { token, peer, name: name || s.name });
    p.seat = seat;
    this.hooks.send(peer, { t: "seated", seat, room: this.hooks.room });
    this.hooks.seated(peer, seat);
    return undefined;
  }

  sync(peer, p) {
    if (p.seat === null) return this.refuse(peer, "friends_not_seated", "take a seat first");
    if (!this.hooks.started()) return this.lobbyTo(peer);
    return this.view(peer, p.seat, p);
  }

  /** The seat's view to `peer`: the one `reply` (the worker's answer to a move) carries, else
   * asked of the worker now; counted among the peer's requests waiting when `p` is given (a
   * sync), none when the host's page pushes it. */
  view(peer, seat, p = null, n = this.hooks.n(), reply = null) {
    const carried = viewOf(reply, seat);
    if (carried) {
      if (this.heldBy(peer, seat)) this.hooks.send(peer, { t: "view", n, state: travelling(carried) });
      return Promise.resolve();
    }
    if (p) {
      if (p.waiting >= this.bounds.queue) return undefined; // answers are on their way: each brings the table as it is
      p.waiting++;
    }
    const game = this.hooks.game();
    return this.ask("state", { game, seat }).then(
      (st) => { if (this.heldBy(peer, seat)) this.hooks.send(peer, { t: "view", n, state: travelling(st) }); },
    ).catch(() => {}).finally(() => { if (p) p.waiting--; });
  }

  /** The worker asked: always a promise (a call that throws is a rejected one). */
  ask(type, args) {
    try {
      return Promise.resolve(this.hooks.ask(type, args));
    } catch (err) {
      return Promise.reject(err);
    }
  }

  /** Whether `peer` still holds `seat` (an answer for a seat let go is not sent). */
  heldBy(peer, seat) {
    const p = this.peers.get(peer);
    return !!p && p.seat === seat;
  }

  /** A request: checked, then asked of the worker for the peer's own seat. */
  request(peer, p, msg) {
    const id = msg.id;
    if (!Number.isInteger(id) || id < 0 || id > 1e9) return this.refuse(peer, "friends_bad_message", "req: an id expected");
    if (p.ids.includes(id)) return this.refuse(peer, "friends_bad_message", "req: that id was used already", id);
    p.ids.push(id);
    if (p.ids.length > this.bounds.ids) p.ids.shift();
    if (p.seat === null || !this.hooks.started()) return this.refuse(peer, "friends_not_seated", "take a seat first", id);
    if (NOT_OFFERED.has(msg.type)) {
      const why = REVIEW.has(msg.type) ? "a friend's page reviews a finished deal with its own engine, from the deal's record" : "its own engine answers it";
      return this.refuse(peer, "friends_not_offered", `${msg.type} is not offered to a friend's seat: ${why}`, id);
    }
    if (typeof msg.type !== "string" || !REQUESTS.has(msg.type)) return this.refuse(peer, "friends_bad_message", "req: act or state", id);
    const args = msg.args ?? {};
    if (!plain(args)) return this.refuse(peer, "friends_bad_message", "req: args must be an object", id);
    const seat = p.seat; // a friend acts and asks for its own seat, whatever it says
    const call = { game: this.hooks.game(), seat };
    if (msg.type === "act") {
      if (typeof args.action !== "string" || !ACTION_RE.test(args.action)) return this.refuse(peer, "friends_bad_message", "act: an action like 'AD' expected", id);
      call.action = args.action;
    }
    if (p.waiting >= this.bounds.queue) return this.refuse(peer, "friends_busy", "the host is still answering your earlier requests", id);
    p.waiting++;
    return this.ask(msg.type, call).then(async (reply) => {
      if (!this.heldBy(peer, seat)) return;
      if (msg.type === "act") {
        const n = this.hooks.played(seat, reply);
        // the seat's view from the reply (`views`); a worker that gave none is asked for it
        const mine = viewOf(reply, seat) || await this.ask("state", { game: call.game, seat });
        if (this.heldBy(peer, seat)) this.hooks.send(peer, { t: "res", id, n, result: travelling(mine) });
      } else {
        this.hooks.send(peer, { t: "res", id, result: msg.type === "state" ? travelling(reply) : reply });
      }
    }, (err) => {
      const code = err && typeof err.code === "string" ? err.code.slice(0, 40) : "internal";
      if (this.peers.has(peer)) this.refuse(peer, code, String((err && err.message) || err).slice(0, 300), id);
    }).catch((err) => console.warn(`friends: an answer could not be sent: ${err}`))
      .finally(() => { p.waiting--; });
  }
}
