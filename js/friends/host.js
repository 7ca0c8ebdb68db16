// The host's side of "play with friends": the host's engine worker holds the deal. It deals,
// keeps the hidden cards, checks every action, and each friend is sent only the views of that
// friend's seat (the bridge's `state` for it), numbered (`n`) so that a page that missed one
// asks again (`sync`).
//
// What a friend's page sends, and what is done with it, is the referee's (./referee.js: the
// protocol, the seats, the bounds of each peer); this module gives it the worker, the
// connections, and the host's page's reactions: the lobby, the table moved on, a friend's
// seat waiting for its friend or played by a computer.

import { t } from "../i18n.js";
import { errorText } from "../errors.js";
import * as store from "../storage.js";
import { BUILD_HASH, LIMIT_TO_HOST, inviteLink, newHostKey, newRoomId, signer } from "./net.js";
import { openTable } from "./rooms.js";
import { newPairs, openSealed } from "./pairs.js";
import { cleanName, closeDialog, connectionWords, hideBar, peopleBar, savedName } from "./common.js";
import { HostLobby } from "./lobby.js";
import { Referee } from "./referee.js";
import { fairEnd } from "./fair.js";
import { fairBack, fairBar, fairDevices, fairGone, fairLost, fairMissed, fairRefused, forgetFair, hostFair } from "./fair-table.js";

const TICK_MS = 1000; // how often the referee looks at the age of unfinished messages

export class FriendsHost {
  /**
   * @param app the page's controller (js/app.js)
   * @param cfg the New game panel's choice (or the test link's): seats of kind "human" (the
   *   host, one), "friend" or "bot"
   * @param net {relays, stun}
   * @param auto start by itself once every friend's seat is taken (the test hook ?friends=1)
   */
  constructor(app, cfg, net, { auto = false } = {}) {
    this.fairDeal = cfg.fair !== false; // the lobby's "deal fairly" (./fair.js), checked unless said otherwise
    this.app = app;
    this.cfg = cfg;
    this.net = net;
    this.auto = auto;
    this.room = newRoomId();
    this.mine = cfg.seats.findIndex((s) => s.kind === "human");
    this.seats = cfg.seats.map((s, i) => (s.kind === "friend"
      ? { kind: "friend", name: "", token: null, peer: null }
      : s.kind === "bot" ? { kind: "bot", level: s.level, name: "" } : { kind: "human", name: cleanName(s.name) || savedName() }));
    this.referee = null; // made with the room (connect()), on the seats as they are then
    // Seconds a friend's seat waits for its friend before a computer player takes it (until the
    // friend comes back); the link's friends_timeout (tests) or the lobby's choice.
    const asked = Number(new URLSearchParams(location.search).get("friends_timeout"));
    this.timeout = Number.isFinite(asked) && asked >= 1 && asked <= 3600 ? asked : 60;
    this.timers = new Map();
    this.started = false;
    this.starting = null; // a promise while "play again" asks the worker for the next game
    this.game = null;
    this.n = 0;
    this.round = 0; // which game of this table: each "play again with the same friends" adds one
    this.unlisten = null; // stops listening to the page's own moves (listen())
  }

  /** The host's worker (the page's own engine), asked for this table. */
  call(type, args) {
    return this.app.engine.call(type, args);
  }

  /** From now on, every move of the page's own loop (its person's play, a computer's, the
   * next deal) reaches every friend too: each its view from the move's reply (`views`). */
  listen() {
    if (this.unlisten) return;
    this.unlisten = this.app.seam.onMoved((type, reply, args) => {
      if (!this.started || this.gone || !args || args.game !== this.game) return;
      this.n++;
      this.pushOthers(null, reply);
    });
  }

  /** Seats the friends may take: those not taken. */
  free() {
    return this.seats.map((s, i) => (s.kind === "friend" && !s.token ? i : -1)).filter((i) => i >= 0);
  }

  /** The referee of this table's messages (made once, on the seats of this table). */
  judge() {
    if (this.referee) return this.referee;
    const hooks = {
      send: (peer, msg) => this.send(peer, msg),
      drop: (peer, why, seat) => {
        console.warn(`friends: a peer let go (${why})`);
        if (this.conn) this.conn.drop(peer);
        this.away(seat);
        this.tellLobby();
      },
      // a friend's play answers with the host's table (viewer), each friend's view in `views`
      ask: (type, args) => this.engine(type, type === "act" ? { ...args, viewer: this.mine } : args),
      sign: (text) => this.sign(text),
      // a friend's page's ECDH key: the pair made (or the same again), this page's key
      // answered; null where that id is already paired with another key
      pair: async (peer, dh) => ((await this.pairs.pair(peer, dh, "host")) ? this.pairs.dh.pub : null),
      self: () => (this.conn ? this.conn.self : ""), // ("": the room left, no proof made)
      started: () => this.started,
      game: () => this.game,
      n: () => this.n,
      played: (seat, reply) => {
        this.n++;
        this.pushOthers(seat, reply);
        this.hostSees(reply);
        return this.n;
      },
      seated: (peer, seat) => this.seated(peer, seat),
      // (a page that refused the deal: ./fair-table.js; every other, fairHeard)
      fair: (peer, seat, msg) => (msg.t === "fair_refuse" ? void fairRefused(this, seat, msg) : this.fairHeard(peer, seat)(msg)),
      lobby: () => this.tellLobby(),
      room: this.room,
      build: BUILD_HASH,
    };
    this.referee = new Referee(hooks, this.seats);
    this.ticker = setInterval(() => this.referee.tick(), TICK_MS);
    return this.referee;
  }

  async open() {
    this.app.ui("friends");
    this.drawLobby();
    this.key = await newHostKey();
    await this.connect();
    this.drawLobby();
  }

  /** Opens the room; true once it is open. When the browser refuses the connections (Chromium
   * makes at most 500 at once in a tab's process, and frees those of earlier pages lazily), the
   * problem is kept to be shown with a "Try again" (the lobby, the line of people) instead of
   * "Connecting" for good; the friends' seats still go to computers after the timeout. */
  async connect() {
    if (this.conn || this.gone) return !!this.conn;
    this.problem = null;
    this.sign = await signer(this.key.jwk);
    // the pairs, kept for as long as this page hosts the table (a room opened again with other
    // relays keeps them: a friend's page comes back with the same key and counters)
    if (!this.pairs) this.pairs = await newPairs(this.room);
    const referee = this.judge();
    let conn;
    try {
      // the host listens on the relay fallback too (a friend without a WebRTC path speaks
      // there); every message but the question and the proof sealed for its pair
      conn = await openSealed((handlers, limit) => openTable({ room: this.room, relays: this.net.relays, stun: this.net.stun,
        turn: this.net.turn, relayOnly: this.net.relayOnly, limit }, handlers, { listen: true }), {
        join: (peer) => referee.joined(peer),
        leave: (peer) => this.left(peer),
        message: (peer, msg) => referee.heard(peer, msg),
        // a page of another version still gets the proof: it can tell its person so
        refused: (peer, code, message, value) => (code === "friends_version" && value && value.t === "who"
          ? referee.heard(peer, value) : referee.refused(peer, code, message)),
        frame: (peer, data) => referee.frame(peer, data),
      }, { pairs: this.pairs, limit: LIMIT_TO_HOST });
    } catch (err) {
      console.warn(`friends: the room could not be opened: ${err}`);
      this.problem = t("error.friends_room_host", { message: String((err && err.message) || err).slice(0, 200) });
      return false;
    }
    if (this.gone) { // the person went elsewhere while it opened
      conn.leave();
      return false;
    }
    this.conn = conn;
    this.link = inviteLink(this.room, this.key.pub, this.net.relays, this.net.stun, this.net.shareTurn ? this.net.turn : null);
    clearInterval(this.watcher);
    this.watcher = setInterval(() => this.checkHealth(), 1000);
    return true;
  }

  /** What keeps the friends from this table (no relay, a friend heard through the relays whose
   * connection never opens, this page's TURN server), said in the lobby or under the names. */
  checkHealth() {
    if (!this.readHealth()) return;
    if (!this.started) this.drawLobby();
    else this.bar();
  }

  /** The connection's health read now: `connectProblem` (words) and `media` (which friends'
   * pages speak through the relay fallback, said beside their names) from the same moment, so
   * the bar never shows a friend through the relay beside the no_path that the relay ended.
   * True where either changed. */
  readHealth() {
    if (!this.conn) return false;
    const health = this.conn.health();
    let words = connectionWords(health);
    if (health.problem === "no_path") words = t("friends.problem.friend", { problem: words });
    const media = this.seats.map((s) => (s.peer ? this.conn.medium(s.peer) : "")).join();
    if (words === (this.connectProblem || "") && media === this.media) return false;
    this.media = media;
    this.connectProblem = words;
    if (words) console.warn(`friends: ${words}`);
    return true;
  }

  /** The settings changed in the lobby: the room is opened again with them (the same room and
   * key: a friend already here comes back by itself), the lobby drawn with its invitation. */
  async renet(net) {
    this.net = net;
    if (!this.conn || this.started) return;
    clearInterval(this.watcher);
    const old = this.conn;
    this.conn = null;
    this.connectProblem = "";
    // left before it is joined again (Trystero hands back a room still leaving, as it was)
    await Promise.resolve(old.leave()).catch(() => {});
    // they come back through the new one, with their tokens: their seats are kept
    if (this.referee) for (const peer of [...this.referee.peers.keys()]) this.referee.left(peer);
    await this.connect();
    this.tellLobby();
  }

  /** "Try again" after the room could not be opened. */
  async retry() {
    this.problem = null;
    this.retrying = true;
    this.tellLobby();
    await this.connect();
    this.retrying = false;
    this.tellLobby();
  }

  /**
   * The host's page came back (a reload) with a game that has friends' seats: the same room
   * and key (kept with the game, `saved`), every friend's seat waiting for its friend.
   */
  static async rehost(app, saved) {
    const seats = app.state.seats.map((s, i) => {
      const kept = Array.isArray(saved.seats) ? saved.seats[i] : null;
      if (kept && typeof kept.token === "string") return { kind: "friend", name: cleanName(kept.name), token: kept.token, peer: null, away: s.kind === "bot" };
      return s.kind === "bot" ? { kind: "bot", level: s.level, name: "" } : { kind: s.kind, name: cleanName(s.name) };
    });
    const cfg = { variant: app.meta.variant, seats, rules: saved.rules ?? app.state.view.rules, style: app.meta.style, custom: !!app.meta.custom, fair: false };
    const host = new FriendsHost(app, cfg, { relays: saved.relays, stun: saved.stun, turn: saved.turn && typeof saved.turn.urls === "string" ? saved.turn : null, relayOnly: saved.relayOnly === true });
    Object.assign(host, { seats, room: saved.room, key: saved.key, started: true, game: app.game, timeout: saved.timeout || host.timeout,
      round: Number.isInteger(saved.round) && saved.round >= 0 ? saved.round : 0 });
    host.mine = seats.findIndex((s) => s.kind === "human");
    host.listen();
    app.friends = host;
    // the friends' seats wait for their friends, even when the room cannot open (a computer
    // then plays them after the timeout, and the line of people offers to try again)
    seats.forEach((s, i) => {
      if (s.kind === "friend" && !s.away) host.timers.set(i, setTimeout(() => host.takeOver(i), host.timeout * 1000));
    });
    await host.connect();
    // drawn again now that the page knows its friends (the resumed table offered the undo)
    app.seam.redraw();
    host.bar();
    return true;
  }

  // ---- the lobby (drawn by ./lobby.js) -----------------------------------------------------
  /** The lobby's Cancel: the friends let go (leave()), and the New game panel instead. */
  cancel() {
    this.leave();
    this.app.friends = null;
    closeDialog();
    this.app.openNewGame(!!this.app.state);
  }

  /** Every peer gets the lobby as it is now; the dialog too. */
  tellLobby() {
    if (this.gone) return;
    if (this.referee) for (const peer of this.referee.peers.keys()) this.referee.lobbyTo(peer);
    if (!this.started) this.drawLobby();
    else this.bar();
  }

  bar() {
    if (!this.started) return; // (with no table drawn yet too: a fair deal stopped as it was dealt)
    this.readHealth();
    const turn = this.app.state ? this.app.state.view.turn : null;
    peopleBar(this.seats.map((s) => ({ kind: s.kind, name: s.kind === "bot" ? "" : s.name, connected: s.kind === "human" || !!s.peer, away: !!s.away,
      relay: !!s.peer && !!this.conn && this.conn.medium(s.peer) === "relay" })), turn,
      this.problem ? { text: t("friends.room.closed"), detail: this.problem, button: this.retryButton() }
        : this.connectProblem ? { text: this.connectProblem } : fairBar(this));
    const names = this.app.state ? this.app.names() : [];
    const bar = document.getElementById("friends-bar");
    if (bar) bar.querySelectorAll("li[data-seat]").forEach((li) => { const i = Number(li.dataset.seat); if (!this.seats[i].name && names[i]) li.children[1].textContent = names[i]; });
  }

  // ---- messages ----------------------------------------------------------------------------
  send(peer, msg) {
    if (this.conn) this.conn.send(peer, msg);
  }

  /** A peer left: its seat, if it held one, waits for it (then a computer plays it); in the
   * lobby the seat is free again. */
  left(peer) {
    if (this.gone) return; // this table is over: its room is being left
    this.away(this.referee ? this.referee.left(peer) : null);
    this.tellLobby();
  }

  /** A friend's seat without its friend (or null): before the start, free again (another
   * friend may take it, or the host starts with a computer there); after it, a computer plays
   * it after the timeout. */
  away(seat) {
    if (seat === null) return;
    if (!this.started) {
      const s = this.seats[seat];
      if (s && s.kind === "friend" && !s.peer) Object.assign(s, { token: null, name: "" });
      return;
    }
    clearTimeout(this.timers.get(seat));
    this.timers.set(seat, setTimeout(() => this.takeOver(seat), this.timeout * 1000));
  }

  /** A friend away for longer than the host's timeout: a computer player plays the seat. */
  async takeOver(seat) {
    if (this.fair) return fairGone(this, seat); // the deal ends uncounted; a computer from the next
    if (this.starting) await this.starting; // the next game first: the computer takes its seat
    const s = this.seats[seat];
    if (s.peer || s.away || this.gone) return;
    const levels = (this.app.catalog && this.app.catalog.levels) || [];
    const level = levels.includes("intermediate") ? "intermediate" : levels[0];
    s.away = true;
    await this.reseat({ seat, kind: "bot", level });
  }

  /** The bridge's seat changed (a computer for an away friend, or the friend back): the host's
   * table learns who plays it, and goes on. */
  async reseat(change) {
    let reply;
    try {
      reply = await this.engine("set_seat", { game: this.game, ...change });
    } catch (err) {
      this.app.noticeError(err);
      return null;
    }
    this.tellLobby();
    await this.app.seam.reseated(reply.seats);
    this.bar();
    return reply;
  }

  /** A friend took its seat (or took it back, a reload): the lobby, the view, or the start. */
  seated(peer, seat) {
    const s = this.seats[seat];
    clearTimeout(this.timers.get(seat));
    this.tellLobby();
    if (this.started && this.fair) fairBack(this, peer, seat).then(() => this.tellLobby()); // the deal sent again
    else if (this.started && s.away) { // back: the computer gives the seat back, then the view
      s.away = false;
      // (the view the seat change's reply carries, or, without one, asked)
      this.reseat({ seat, kind: "friend", name: s.name }).then((reply) => this.pushTo(peer, seat, this.n, reply));
    } else if (this.started) this.pushTo(peer, seat);
    else if (this.auto && this.free().length === 0) this.start();
  }

  // ---- the views ---------------------------------------------------------------------------
  /** The worker asked for this table (its requests outside the page's loop: a friend's, a
   * seat changed), the reply marked (marked()). */
  engine(type, args) {
    return this.call(type, args).then((reply) => this.marked(reply));
  }

  /** A reply that carries the table, marked with this table's `round` (which game of the
   * table it is: a friend's page shows a new round from its start, not as a move), and so are
   * the friends' views it carries (`views`). */
  marked(reply) {
    if (!reply || typeof reply !== "object" || !reply.view || !reply.match) return reply;
    const out = { ...reply, round: this.round };
    if (out.views && typeof out.views === "object") {
      out.views = Object.fromEntries(Object.entries(out.views).map(([k, v]) => [k, v && typeof v === "object" ? { ...v, round: this.round } : v]));
    }
    return out;
  }

  /** `seat`'s view to `peer`, numbered `n`: the one `reply` carries (`views`), else asked. */
  pushTo(peer, seat, n = this.n, reply = null) {
    if (this.referee) this.referee.view(peer, seat, null, n, reply ? this.marked(reply) : null);
  }

  /** The table moved on (`reply`, the worker's answer to the move): every connected friend but
   * `except` gets its new view, the one the reply carries (`views`: this moment's, whatever
   * reaches the worker next); without it, asked now. */
  pushOthers(except = null, reply = null) {
    const marked = reply ? this.marked(reply) : null;
    this.seats.forEach((s, i) => {
      if (s.kind === "friend" && s.peer && i !== except) this.pushTo(s.peer, i, this.n, marked);
    });
    this.bar();
  }

  /** A friend played (`reply`, the worker's answer, as the host's seat sees it): the host's own
   * table shows it once it has shown what came before. */
  hostSees(reply) {
    const mine = reply && typeof reply === "object" && reply.seat === this.mine && reply.view ? reply
      : this.engine("state", { game: this.game, seat: this.mine }).catch(() => null); // (a reply of another seat)
    this.app.seam.shown(Promise.resolve(mine).then((st) => st && ownTable(st))).then(() => this.bar());
  }

  /** Another game takes the table: the friends are let go. */
  leave() {
    this.gone = true;
    clearInterval(this.watcher);
    this.timers.forEach((timer) => clearTimeout(timer));
    clearInterval(this.ticker);
    if (this.unlisten) this.unlisten();
    if (this.fairOwner) forgetFair(this);
    this.farewell();
    hideBar();
  }

  /** The friends are told the table has closed (`bye`), then the room is left, a moment later
   * (the message goes first): an old invitation finds no host there. */
  farewell() {
    const conn = this.conn;
    this.conn = null;
    if (!conn) return;
    try {
      for (const peer of conn.peers()) conn.send(peer, { t: "bye" });
    } catch { /* the connections are going anyway */ }
    setTimeout(() => conn.leave(), 500);
  }

  /** Whether the page waits for someone else at `turn` (a friend's seat). */
  waits(turn) {
    this.bar();
    if (this.fair) return this.fair.waits(turn);
    // the bridge's seats say who plays now (a computer for a friend away)
    const seat = this.app.state && this.app.state.seats[turn];
    return !!seat && seat.kind === "friend";
  }

  // ---- the start ---------------------------------------------------------------------------
  async start(fill = false) {
    if (this.started) return;
    if (this.fairDeal) return this.startFair(fill);
    const app = this.app;
    const levels = (app.catalog && app.catalog.levels) || [];
    const level = levels.includes("intermediate") ? "intermediate" : levels[0];
    if (fill) {
      this.seats.forEach((s, i) => {
        if (s.kind === "friend" && !s.token) this.seats[i] = { kind: "bot", level, name: "" };
      });
    }
    if (this.free().length) return;
    this.started = true;
    this.listen();
    const cfg = this.cfg;
    const seats = this.seats.map((s) => (s.kind === "bot" ? { kind: "bot", level: s.level }
      : { kind: s.kind, ...(s.name ? { name: s.name } : {}) }));
    const meta = this.metaFor(this.round);
    let reply;
    try {
      reply = await this.call("new_match", { rules: cfg.rules, ...(cfg.seed === "" || cfg.seed === undefined ? {} : { seed: cfg.seed }), seats, meta });
    } catch (err) {
      this.started = false;
      app.notice(t("notice.error", { message: errorText(err) }), 12000);
      return;
    }
    closeDialog();
    app.meta = meta;
    this.game = reply.game;
    this.n++;
    // a friend's seat whose friend is not here now: a computer plays it after the timeout
    this.seats.forEach((s, i) => { if (s.kind === "friend" && !s.peer) this.away(i); });
    this.tellLobby();
    this.pushOthers(null, reply);
    await app.seam.start(ownTable(reply));
  }

  /** A table that deals fairly (./fair.js hostFair). */
  startFair(fill) {
    return hostFair(this, fill);
  }

  /** A fair deal's message of device `from` to device `to` (null: every other one), carried to
   * the friends' pages it is for. */
  fairPost(from, to, msg) {
    this.seats.forEach((s, i) => {
      const d = this.fairOwner[i];
      if (s.kind === "friend" && s.peer && d !== from && (to === null || to === d)) this.send(s.peer, { t: "fair", from, m: msg });
    });
  }

  /** A friend's page's fair-deal message (the referee's hook): for this page, the others, or
   * both; its sender is the device of the seat that page holds, whatever the message says. */
  fairHeard(peer, seat) {
    return (msg) => {
      const from = this.fairOwner && this.fairOwner[seat];
      if (msg.t === "fair_lost") return void fairLost(this, seat, msg.round);
      if (msg.t === "fair_heard") return void fairMissed(this, seat, msg);
      if (!this.fair || !from || !(msg.to === null || (Number.isInteger(msg.to) && msg.to >= 0))) return;
      if (msg.to === null || msg.to === 0) this.fair.receive(msg.m, from);
      if (msg.to !== 0) this.fair.carry(msg.m, from, () => this.fairPost(from, msg.to, msg.m)); // (signed by its sender)
    };
  }

  /** The game's meta (kept with it by the worker): the names, and what a reload of this page
   * needs to be the host again (this device only), `round` the table's game it is. */
  metaFor(round) {
    const cfg = this.cfg;
    return { variant: cfg.variant, custom: cfg.custom ?? !!(cfg.overrides && Object.keys(cfg.overrides).length),
      names: this.seats.map((s) => (s.kind === "bot" ? "" : s.name)), style: cfg.style || this.app.prefs.style,
      friends: { room: this.room, key: this.key, relays: this.net.relays, stun: this.net.stun, turn: this.net.turn || null,
        relayOnly: !!this.net.relayOnly, timeout: this.timeout, rules: cfg.rules, round,
        seats: this.seats.map((s) => (s.kind === "friend" && s.token ? { token: s.token, name: s.name } : null)) } };
  }

  /** The end screen's choices at this table (js/app.js): play again with the same friends. */
  endScreen() {
    return this.started && !this.gone ? { again: () => this.playAgain(), ...fairEnd(this) } : null; // (a fair table: the check, its code)
  }

  /**
   * "Play again with the same friends": the next match, with the same rules and seats, in the
   * same room: every friend keeps its seat and its token, and its page shows the new deal (a
   * new `round`). A friend's seat played by a computer now (its friend gone for longer than
   * the timeout) starts with the computer, until its friend comes back; one whose friend is
   * away for less still waits for it (the timer already running). No seed: a fresh deal, the
   * dealer's turn passing on (the bridge's rematch). The finished game stays as any finished
   * game does (its deals counted in the statistics when they ended).
   */
  async playAgain() {
    if (!this.started || this.gone || this.starting) return false;
    if (this.fairDeal && (this.fair || fairDevices(this))) { // the next fair deal, in the same room
      this.fair = null;
      this.app.engine = this.fairWorker;
      if (fairDevices(this)) {
        this.round += 1;
        this.started = false;
        await this.startFair(false);
        return true;
      }
      forgetFair(this); // no friend's device left: the host's engine deals (below), a computer for each,
      this.listen(); // until a friend's device is back
    }
    const app = this.app;
    const levels = (app.catalog && app.catalog.levels) || [];
    const level = levels.includes("intermediate") ? "intermediate" : levels[0];
    const seats = this.seats.map((s) => (s.kind === "bot" ? { kind: "bot", level: s.level }
      : s.kind === "friend" && s.away ? { kind: "bot", level }
        : { kind: s.kind, ...(s.name ? { name: s.name } : {}) }));
    const round = this.round + 1;
    const meta = this.metaFor(round);
    let done;
    this.starting = new Promise((resolve) => { done = resolve; });
    let reply;
    try {
      // the old table is being replaced: whatever it still awaits is stale
      reply = await app.seam.replace(() => this.call("new_match", { rules: this.cfg.rules, seats, meta }));
    } catch (err) {
      app.noticeError(err);
      return false;
    } finally {
      this.starting = null;
      done();
    }
    app.meta = meta;
    this.game = reply.game;
    this.round = round;
    this.n++;
    const sum = document.getElementById("summary-dialog");
    if (sum instanceof HTMLDialogElement && sum.open) sum.close();
    this.tellLobby();
    this.pushOthers(null, reply);
    await app.seam.start(ownTable(reply));
    return true;
  }
}


// The lobby's drawing (./lobby.js), FriendsHost's own.
for (const name of Object.getOwnPropertyNames(HostLobby.prototype)) {
  if (name !== "constructor") Object.defineProperty(FriendsHost.prototype, name, Object.getOwnPropertyDescriptor(HostLobby.prototype, name));
}

/** A reply as the host's own table keeps it: the friends' views (`views`) are theirs only. */
function ownTable(reply) {
  if (!reply || typeof reply !== "object" || !("views" in reply)) return reply;
  const { views, ...state } = reply;
  return state;
}

/** The config the test hook `?friends=1` (with variant, seed, lang, relays) deals: the host at
 * the first seat, a friend at every other. */
export function linkConfig(catalog, search) {
  const q = new URLSearchParams(search);
  const variant = /^[a-z0-9-]{1,40}$/.test(q.get("variant") || "") ? q.get("variant") : "classic";
  const found = (catalog.variants || []).find((v) => v.name === variant);
  if (!found) return null;
  const seed = q.get("seed");
  const seats = [{ kind: "human", name: savedName() }];
  for (let i = 1; i < found.players; i++) seats.push({ kind: "friend" });
  return { variant, overrides: {}, rules: { name: variant }, seats, style: store.loadPrefs().style,
    seed: seed && /^\d{1,15}$/.test(seed) ? Number(seed) : seed && /^[\w.-]{1,64}$/.test(seed) ? seed : "",
    fair: q.get("fair") !== "0" };
}
