// A friend's side of "play with friends": the page draws the views the host's page sends for
// this seat, and sends its actions there; nothing here decides a rule. The page's own engine
// still answers what needs no table (the cards' points and order, the rating) and thinks for
// this seat from the view the host sent (a hint, the card tracker) and reviews a finished deal
// from the deal's record the host sends once it is over (every card of it public then); the
// table's requests (state, act) go to the host, which answers for this seat only; the rest
// (undo, a duplicate) is off at a table with friends.
//
// Only the host's peer (named in the invitation) is listened to; the other friends' pages in
// the same room are ignored.

import { t } from "../i18n.js";
import { EngineError } from "../engine.js";
import { errorText } from "../errors.js";
import { forget } from "../embed.js";
import * as store from "../storage.js";
import { BUILD_HASH, KEY_RE, LIMIT_TO_FRIEND, ROOM_RE, deeper, nonce, verifier } from "./net.js";
import { PartsBound } from "./wire.js";
import { openTable } from "./rooms.js";
import { openSealed, outerLimit, pairsFor, proofText } from "./pairs.js";
import { damaged } from "./damaged.js";
import { REVIEW, REVIEW_ARGS, cleanName, closeDialog, connectionWords, hideBar, savedName } from "./common.js";
import { GuestDialog } from "./guest-dialog.js";
import { againFair, joinFair, voidFair } from "./fair.js";

const REMOTE = new Set(["state", "act"]);
// what the host says that is heard before this page's engine is up (js/app.js starts the room
// beside it): the seats and the take, drawn in the dialog over the loading screen
const BEFORE_OPEN = new Set(["lobby", "seated"]);
// a finished deal's review (REVIEW): this page's own engine, from the deal's record the host
// sent once the deal was over (every card of it public then); these args pass on
const RECORDS = 8; // the records kept: of the last deals (the bridge keeps as many loaded)
const NUDGE_MS = 5000;
// this long without the host's page: this page's offers are passed on again now (its next
// announce can be 2 minutes away), in case the host's page missed them or their connection failed
const ANNOUNCE_MS = 10000;
const OFFER_MS = 1000; // offers made again at once (a connection lost): no sooner after the last
const QUIET_MS = 15000; // at the table, this long without a new view: the view asked again
const REPLY_MS = 15000; // a request unanswered this long is given up (and the view asked again)
const HEALTH_MS = 1000; // how often what keeps this page from the host is looked at
// this long without the host's page (never come, or gone and not back): it is said that the
// host is not there (in the dialog before the deal; at the table, that the table may have
// closed, with the score so far and a new game), while this page still listens for it
const GONE_MS = 30000;
// what needs no table (the day's puzzle included): this page's own engine
const LOCAL = new Set(["card_points", "check_rules", "catalog", "rate", "rating_levels", "trick_winner", "ping", "set_meta", "games", "puzzle", "puzzle_move", "hint_view", "tracker_view", "review_load", "fair_deal", "fair_open", "fair_act", "fair_view", "fair_bot", "fair_check", "fair_save", "fair_state"]);

/** The seat token of this room (kept, so a reload takes the same seat back), made once. */
function tokenFor(room) {
  const prefs = store.loadPrefs();
  const kept = prefs.friendsTokens && typeof prefs.friendsTokens === "object" ? prefs.friendsTokens : {};
  if (typeof kept[room] === "string") return kept[room];
  const abc = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789";
  const token = [...crypto.getRandomValues(new Uint8Array(24))].map((b) => abc[b % abc.length]).join("");
  const rooms = Object.entries(kept).slice(-4); // the last few rooms only
  store.updatePrefs({ friendsTokens: Object.fromEntries([...rooms, [room, token]]) });
  return token;
}

/** A line of the page's notice taken back (what it said is no longer so); the notice goes
 * once it has no line left. */
function unsay(text) {
  const box = document.getElementById("notice");
  if (!box) return;
  for (const line of [...box.children]) if (line.textContent === text) line.remove();
  if (!box.children.length) {
    box.classList.remove("show");
    box.hidden = true;
  }
}

export class FriendsGuest {
  constructor(app, room, pub, net) {
    this.app = app;
    this.room = room;
    this.pub = pub; // the host's public key (the link's `host`)
    this.hostId = null; // the peer that proved it holds the host's key
    this.asked = new Map(); // peer -> the nonce it was asked to sign
    this.net = net;
    this.token = tokenFor(room);
    this.seat = null;
    this.lobbySeats = [];
    this.lastN = 0;
    this.nextId = 1;
    this.pending = new Map();
    this.shown = false;
    this.hostHere = false;
    this.nextWaiter = null;
    this.problem = "";
    this.taking = null; // the take this page sent and the host has not answered yet
    this.nudger = null;
    this.announcedAt = 0; // when this page's offers were last passed on (opening the room, announce())
    // how long without the host before its offers go again: the link's friends_announce in
    // seconds (tests), else ANNOUNCE_MS
    const every = Number(new URLSearchParams(location.search).get("friends_announce"));
    this.announceMs = Number.isFinite(every) && every >= 1 && every <= 3600 ? every * 1000 : ANNOUNCE_MS;
    this.viewAt = 0; // when the table last moved on here (a view, an answer to a play), or was asked for
    this.netProblem = ""; // what keeps this page from the host, in words (health), or ""
    this.relay = false; // this page reaches the host through the relay fallback
    this.watcher = null;
    // the link's friends_gone in seconds (tests), else GONE_MS
    const gone = Number(new URLSearchParams(location.search).get("friends_gone"));
    this.goneMs = Number.isFinite(gone) && gone >= 1 && gone <= 3600 ? gone * 1000 : GONE_MS;
    this.goneTimer = null;
    this.hostMissing = false; // no host's page for longer than goneMs
    this.records = new Map(); // deal -> its record, as the host sent it once the deal was over
    this.loaded = new Map(); // deal -> the record this page's engine has loaded for it
    this.closed = false; // the table closed (the host said `bye`, or the person went on without it)
    this.round = 0; // which game of the table is shown (the views' `round`)
    this.connecting = null; // connect()'s promise, once started
    this.opened = false; // open() has run: the page's engine is up, the dialog drawn
    this.early = []; // what the host said before open()
    // the host's views in parts: two unfinished at most, each its sealed size at most
    this.parts = new PartsBound({ parts: 2, bytes: outerLimit(LIMIT_TO_FRIEND) * 3, ms: 20000 });
  }

  static check(room, host) {
    return ROOM_RE.test(room || "") && KEY_RE.test(host || "");
  }

  /** The room opened and the host looked for, with no engine needed yet: started while this
   * page's own engine starts (js/app.js). The seats and the take are heard meanwhile
   * (BEFORE_OPEN: the dialog needs no engine); the views wait for open(). */
  connect() {
    if (!this.connecting) this.connecting = this.join();
    return this.connecting;
  }

  /** The table shown, this page's engine up (app.engine): what the host said is heard now. */
  async open() {
    const app = this.app;
    if (this.damagedLink) { // (found while the engine started: said now)
      this.closed = true;
      damaged(app);
      return;
    }
    const local = app.engine;
    this.local = local;
    // The page's engine for what needs no table; the host for the table (see above).
    app.engine = {
      call: (type, args = {}) => {
        if (REMOTE.has(type)) return this.request(type, args);
        if (REVIEW.has(type)) return this.review(type, args);
        if (type === "next_deal") return this.nextDeal();
        if (LOCAL.has(type)) return local.call(type, args);
        // a hint and the card tracker: this page's own engine, from the view the host sent
        // (the host's referee refuses them: its engine thinks for no friend)
        if (type === "hint" || type === "tracker") {
          const view = app.state && app.state.view;
          if (!view || app.state.seat !== this.seat) return Promise.reject(new EngineError("friends_not_offered", `${type}: no view of this seat yet`));
          return local.call(`${type}_view`, { view });
        }
        return Promise.reject(new EngineError("friends_host_only", `${type} is not offered at a table with friends`));
      },
      terminate: () => local.terminate(),
    };
    app.ui("friends");
    this.opened = true;
    this.draw();
    const early = this.early.splice(0);
    for (const msg of early) this.heard(msg);
    await this.connect();
  }

  async join() {
    try {
      this.verify = await verifier(this.pub);
    } catch {
      // the host's key in the link is no key (a character changed): the link is damaged
      this.damagedLink = true;
      if (this.opened && !this.closed) {
        this.leave();
        damaged(this.app);
      }
      return;
    }
    // A message lost on the way (a data channel replaced while it was sent drops it) is asked
    // for again: until the deal shows, every few seconds (the seats, the take, the view); at the
    // table, the view when none has come for a while.
    this.nudger = setInterval(() => this.nudge(), NUDGE_MS);
    this.missing();
    this.announcedAt = Date.now();
    try {
      // every message but the question and the proof sealed for the pair (./pairs.js)
      this.pairs = await pairsFor(this.room);
      this.conn = await openSealed((handlers, limit) => openTable({ room: this.room, relays: this.net.relays, stun: this.net.stun,
        turn: this.net.turn, relayOnly: this.net.relayOnly, limit }, handlers), {
        join: (peer) => this.ask(peer),
        leave: (peer) => {
          // a page that went before it answered who it is: if it was the host's, it closed a
          // connection on which this page's first words were lost (the sweep, net.js), and
          // waits for this page's offers: they go again now, not at the next announce
          const unanswered = this.asked.delete(peer);
          if (unanswered && !this.hostId && this.conn) this.offer();
          if (peer === this.hostId) this.hostLeft();
        },
        message: (peer, msg, sealed) => {
          // only the host's page is heard, and only what it sealed for this page; unsealed, only
          // the proof of a peer this page asked
          if (!sealed) {
            if (msg.t === "host" && this.asked.has(peer)) this.proved(peer, msg.sig, msg.dh);
            return;
          }
          if (peer !== this.hostId) return;
          // before this page's engine is up, the seats and the take are heard (the dialog
          // needs no engine: the seats show, a seat can be taken); the rest waits for open()
          if (!this.opened && !BEFORE_OPEN.has(msg.t)) {
            this.early.push(msg);
            if (this.early.length > 32) this.early.shift(); // (a view is sent again on a sync)
          }
          else this.heard(msg);
        },
        // a connection on which the host's first words were lost was closed: this page's
        // offers go again now, not at the next announce
        silent: () => {
          if (!this.hostId && this.conn) this.offer();
        },
        // the chunked messages a peer leaves unfinished, bounded (only the host's page sends
        // this page anything in parts): past the bounds, that peer is let go
        frame: (peer, data) => {
          const why = this.parts.frame(peer, data, peer === this.hostId);
          if (why) this.letGo(peer, why);
        },
        refused: (peer, code, message, value) => {
          // a page of another version speaks another protocol: believed only from the host's
          // page, which proves it (its `host` answer, signed as every version signs it)
          if (code === "friends_version") this.otherVersion(peer, value, message);
          else if (peer === this.hostId) console.warn(`friends: a message from the host refused: ${code} ${message}`);
        },
      }, { pairs: this.pairs, limit: LIMIT_TO_FRIEND });
      this.watcher = setInterval(() => {
        this.checkHealth();
        for (const peer of this.parts.tick()) this.letGo(peer, "a message unfinished for too long");
      }, HEALTH_MS);
    } catch (err) {
      // the browser refused the connections (Chromium makes at most 500 at once in a tab's
      // process, and frees those of earlier pages lazily): said, with the reload, rather than
      // "Connecting" for good
      console.warn(`friends: the room could not be opened: ${err}`);
      this.problem = t("error.friends_room", { message: String((err && err.message) || err).slice(0, 200) });
      this.problemReload = true;
      this.draw();
    }
  }

  /** A peer past the bounds of what this page takes from it: its connections closed (Trystero
   * then forgets what it held of it). */
  letGo(peer, why) {
    console.warn(`friends: a peer let go (${why})`);
    this.parts.forget(peer);
    if (this.conn) this.conn.drop(peer);
  }

  /** What keeps this page from the host (no relay, no WebRTC path, the TURN server), said in
   * words with what to try, instead of "Connecting" for good; gone once the host is here. */
  checkHealth() {
    if (!this.readHealth()) return;
    if (this.shown) this.bar();
    else this.draw();
  }

  /** The connection's health read now: `netProblem` (words) and `relay` (the host reached
   * through the relay fallback, said at the table and in the dialog) from the same moment as
   * `hostHere`, so the bar never shows the host through the relay beside a problem the host's
   * answer ended. True where either changed. */
  readHealth() {
    if (!this.conn) return false;
    const words = this.hostHere ? "" : connectionWords(this.conn.health());
    const relay = !!this.hostId && this.conn.medium(this.hostId) === "relay";
    if (words === this.netProblem && relay === this.relay) return false;
    this.relay = relay;
    this.netProblem = words;
    if (words) console.warn(`friends: ${words}`);
    return true;
  }

  /** Is this peer the host? It must sign a fresh nonce with the host's key. Asked again (a
   * lost question or answer), a peer gets the same nonce, so an answer on its way still counts. */
  ask(peer) {
    if (!this.conn) return;
    const n = this.asked.get(peer) || nonce();
    this.asked.set(peer, n);
    this.conn.send(peer, { t: "who", nonce: n, dh: this.pairs.dh.pub });
  }

  /** A peer's `host` answer: the host's key's signature of the nonce, both ids and both ECDH
   * keys; once checked, this page's pair with it made (every later message sealed). */
  async proved(peer, sig, dh) {
    const n = this.asked.get(peer);
    this.asked.delete(peer);
    if (!this.conn || this.closed) return; // this page has left the room
    if (typeof dh !== "string" || !(await this.verify(proofText(n, this.conn.self, peer, this.pairs.dh.pub, dh), sig))) return;
    if (this.closed || !(await this.pairs.pair(peer, dh, "guest")) || this.closed) return;
    if (this.hostId !== peer) this.lastN = 0; // a new host page (a reload) numbers from the start
    this.hostId = peer;
    clearTimeout(this.goneTimer);
    unsay(t("friends.host.away")); // the host is back: "away" no longer said
    if (this.hostMissing) {
      this.hostMissing = false;
      if (this.shown) closeDialog(); // "the table may have closed": it has not
      else this.draw();
    }
    this.hello();
  }

  /** This page's offers passed on again now (at most once every OFFER_MS). */
  offer() {
    if (Date.now() - this.announcedAt < OFFER_MS) return;
    this.announcedAt = Date.now();
    this.conn.announce();
  }

  send(msg) {
    if (this.conn && this.hostId) this.conn.send(this.hostId, msg);
  }

  /** The host is asked again for what this page still waits for. Every one of these is
   * answered the same however often it comes (a take of the seat this page holds seats it
   * again; a sync before the deal sends the lobby, after it the view as it is now). */
  nudge() {
    if (!this.hostId) {
      // no peer has proved it is the host yet: every peer of the room is asked again
      if (!this.conn) return;
      for (const peer of this.conn.peers()) this.ask(peer);
      if (Date.now() - this.announcedAt >= this.announceMs) {
        this.announcedAt = Date.now();
        this.conn.announce();
      }
      return;
    }
    if (this.fair) return; // a fair deal: this page's own engine draws the table
    // a request whose answer was lost: given up (the page lets the person go on), and the
    // view asked again, which shows what the host did with it
    const now = Date.now();
    let lost = false;
    for (const [id, w] of this.pending) {
      if (now - w.at < REPLY_MS) continue;
      this.pending.delete(id);
      w.reject(new EngineError("friends_no_answer", "the host's page did not answer"));
      lost = true;
    }
    if (this.shown) {
      if (!lost && now - this.viewAt < QUIET_MS) return;
      this.viewAt = now;
      this.send({ t: "sync" }); // a view already shown is ignored (its number)
      return;
    }
    if (this.seat !== null) this.send({ t: "sync" });
    else if (this.taking) this.send(this.taking);
    else if (!this.lobbySeats.length) this.hello();
  }

  hello() {
    this.hostHere = true;
    this.readHealth(); // said with the seats, not a health tick later
    this.send({ t: "hello", name: savedName(), token: this.token, build: BUILD_HASH });
    this.bar();
  }

  /** The host's page is not here: after goneMs, said so (see GONE_MS). */
  missing() {
    clearTimeout(this.goneTimer);
    this.goneTimer = setTimeout(() => {
      if (this.hostHere || this.closed) return;
      this.hostMissing = true;
      if (this.shown) this.ended(false);
      else this.draw();
    }, this.goneMs);
  }

  hostLeft() {
    if (this.closed) return;
    this.hostHere = false;
    this.hostId = null;
    this.missing();
    this.announcedAt = Date.now(); // a host's page coming back offers first (it joins later)
    this.app.notice(t("friends.host.away"), 8000);
    this.bar();
    for (const { reject } of this.pending.values()) reject(new EngineError("friends_host_away", "the host's page is away"));
    this.pending.clear();
  }

  // ---- messages from the host --------------------------------------------------------------
  heard(msg) {
    if (deeper(msg, 64)) return;
    switch (msg.t) {
      case "lobby": {
        if (!Array.isArray(msg.seats) || msg.seats.length > 8) return;
        const before = JSON.stringify([this.lobbySeats, this.seat]);
        this.lobbySeats = msg.seats.map((s) => ({ kind: ["human", "friend", "bot"].includes(s && s.kind) ? s.kind : "bot",
          name: cleanName(s && s.name), level: typeof (s && s.level) === "string" ? s.level.slice(0, 20) : "", taken: !!(s && s.taken), connected: !!(s && s.connected),
          away: !!(s && s.away) }));
        this.started = msg.started === true;
        if (Number.isInteger(msg.you)) this.seat = msg.you;
        else if (!this.shown && !this.taking) this.seat = null; // the seat was freed (this page went a while)
        if (JSON.stringify([this.lobbySeats, this.seat]) === before) return; // nothing new (an answer to a nudge)
        this.draw();
        this.bar();
        return;
      }
      case "seated":
        if (!Number.isInteger(msg.seat)) return;
        this.seat = msg.seat;
        this.taking = null;
        this.problem = "";
        this.draw();
        if (this.shown) this.send({ t: "sync" });
        return;
      case "view":
        if (!Number.isInteger(msg.n) || !msg.state || typeof msg.state !== "object") return;
        if (msg.n <= this.lastN || this.fair) return; // already shown (the answer to our own play); a fair table draws its own
        this.lastN = msg.n;
        this.viewAt = Date.now();
        this.show(msg.state);
        return;
      case "res": {
        const waiter = this.pending.get(msg.id);
        if (!waiter) return;
        this.pending.delete(msg.id);
        if (msg.error && typeof msg.error === "object") {
          waiter.reject(new EngineError(String(msg.error.code || "error").slice(0, 40), String(msg.error.message || "").slice(0, 300)));
          return;
        }
        if (Number.isInteger(msg.n)) {
          this.lastN = Math.max(this.lastN, msg.n);
          this.viewAt = Date.now();
        }
        try {
          waiter.resolve(waiter.table ? this.ours(msg.result) : msg.result);
        } catch (err) {
          waiter.reject(err);
        }
        return;
      }
      case "fair_go": return void joinFair(this, msg); // a table that deals fairly starts (./fair.js)
      case "fair_void": return voidFair(this, msg); // a device gone for good: the deal ends uncounted
      case "fair_again": return againFair(this, msg); // a device came back: what it missed of this one, again
      case "fair": return void (this.fair && Number.isInteger(msg.from) && msg.from >= 0 && msg.from <= 5 && this.fair.receive(msg.m, msg.from));
      case "bye": // the host's page closed the table
        this.ended(true);
        return;
      case "error":
        this.refused(String(msg.code || "error").slice(0, 40), String(msg.message || "").slice(0, 300));
        return;
      default:
    }
  }

  /** A message of another version of the protocol: said (with the reload) where it is the
   * host's proof, checked with the host's key; from any other page, only counted. */
  async otherVersion(peer, value, message) {
    const n = this.asked.get(peer);
    const proof = value && value.t === "host" && typeof value.sig === "string" && n;
    if (!proof || !this.conn) {
      this.otherVersions = (this.otherVersions || 0) + 1;
      return;
    }
    const self = this.conn.self;
    const ok = (await this.verify(proofText(n, self, peer, this.pairs.dh.pub, String(value.dh)), value.sig))
      || (await this.verify(`${n}|${self}|${peer}`, value.sig)); // (version 2 signed this)
    if (ok) this.refused("friends_version", message);
  }

  refused(code, message) {
    this.taking = null; // a take refused is not sent again
    if (code === "friends_build" || code === "friends_version") {
      this.problem = t("error.friends_build");
      this.problemReload = true;
      if (this.shown) this.app.notice(this.problem, 30000);
      else this.draw();
      return;
    }
    const text = errorText(new EngineError(code, message));
    if (this.shown) this.app.notice(t("notice.error", { message: text }), 8000);
    else {
      this.problem = text;
      this.draw();
    }
  }

  /** A reply of the host as this page's table: this seat is the person here; the others. */
  ours(state) {
    if (!state || typeof state !== "object" || !state.view || !Array.isArray(state.seats)) {
      throw new EngineError("friends_bad_message", "the host sent a table without a view");
    }
    const seats = state.seats.map((s, i) => {
      const name = cleanName(s && s.name);
      if (i === state.seat) return { kind: "human", ...(name ? { name } : {}) };
      if (s && s.kind === "bot") return { kind: "bot", level: String(s.level || "").slice(0, 20) };
      return { kind: "friend", ...(name ? { name } : {}) };
    });
    const { record, ...rest } = state;
    this.keepRecord(record);
    return { ...rest, seats, game: null };
  }

  /** A finished deal's review of this seat's decisions, by this page's own engine: the deal's
   * record (sent by the host once it was over) loaded into it first, checked there. */
  async review(type, args) {
    const record = this.records.get(args.deal);
    if (!record) throw new EngineError("deal_not_over", `deal ${args.deal}: its review opens once it is over`);
    if (this.loaded.get(args.deal) !== record) {
      await this.local.call("review_load", { record });
      this.loaded.set(args.deal, record);
    }
    const out = Object.fromEntries(REVIEW_ARGS.filter((k) => args[k] !== undefined).map((k) => [k, args[k]]));
    return this.local.call(type, { ...out, seat: this.seat, record: true });
  }

  /** A finished deal's record from the host (a state's `record`): kept for its review. */
  keepRecord(record) {
    if (!record || typeof record !== "object" || !Number.isInteger(record.deal)) return;
    if (this.records.get(record.deal) && JSON.stringify(this.records.get(record.deal)) === JSON.stringify(record)) return;
    this.records.delete(record.deal);
    this.records.set(record.deal, record);
    while (this.records.size > RECORDS) this.records.delete(this.records.keys().next().value);
  }

  request(type, args) {
    const id = this.nextId++;
    const out = type === "act" ? { action: args.action } : {};
    return new Promise((resolve, reject) => {
      if (!this.hostHere) {
        reject(new EngineError("friends_host_away", "the host's page is away"));
        return;
      }
      let done = () => {};
      const settled = new Promise((r) => { done = r; });
      // (`done`: settled with the answer, or with the request given up)
      this.pending.set(id, { resolve: (v) => { done(); resolve(v); }, reject: (e) => { done(); reject(e); }, table: type === "act" || type === "state", at: Date.now(), done: settled });
      this.send({ t: "req", id, type, args: out });
    });
  }

  /** A view the host pushed: shown after whatever this page is still showing. */
  show(raw) {
    let state;
    try {
      state = this.ours(raw);
    } catch {
      return;
    }
    const app = this.app;
    // which game of the table (the host's "play again" starts the next): a new one is shown
    // from its start, and its deals are counted in this page's statistics under their own id
    const round = Number.isInteger(state.round) && state.round >= 0 ? state.round : 0;
    const id = round ? `friends:${this.room}:${round}` : `friends:${this.room}`;
    const names = state.seats.map((s) => s.name || "");
    // shown once this page's own play to the host is answered and shown (js/seam.js)
    app.seam.shown(state, {
      fresh: () => !this.shown || round !== this.round, // (when its turn comes: the views before it shown)
      also: () => this.answered(),
      starting: () => {
        this.round = round;
        if (!this.shown) {
          this.shown = true;
          closeDialog();
          app.meta = { variant: state.view.rules.name, custom: false, names, style: app.prefs.style, id };
          return false;
        }
        app.meta = { ...app.meta, names, id };
        if (!this.nextWaiter) return false;
        const go = this.nextWaiter; // the summary's "next deal" waits for it: it shows it
        this.nextWaiter = null;
        go(state);
        return true;
      },
    }).then(() => this.bar());
  }

  /** A promise while a request of this page about the table (a play, its view) waits for the
   * host's answer, settled with it; null when none waits. */
  answered() {
    const waiting = [...this.pending.values()].filter((w) => w.table).map((w) => w.done);
    return waiting.length ? Promise.all(waiting) : null;
  }

  /** Another game takes the table: this page's engine is its own again. */
  leave() {
    this.closed = true;
    forget(["join", "host", "relays", "stun", "turn", "turn_user", "turn_credential", "ice"]); // a reload is this page's own again
    clearInterval(this.nudger);
    this.nudger = null;
    clearInterval(this.watcher);
    this.watcher = null;
    clearTimeout(this.goneTimer);
    this.app.engine = this.local;
    if (this.conn) this.conn.leave();
    this.conn = null;
    hideBar();
  }

}

// The dialogs' and the table's words of a friend's page (./guest-dialog.js), FriendsGuest's own.
for (const name of Object.getOwnPropertyNames(GuestDialog.prototype)) {
  if (name !== "constructor") Object.defineProperty(FriendsGuest.prototype, name, Object.getOwnPropertyDescriptor(GuestDialog.prototype, name));
}
