// The host's side of "play with friends": the host's engine worker is the referee. It deals,
// keeps the hidden cards, checks every action, and this module sends each friend only the
// views of that friend's seat (the bridge's `state` for it), numbered (`n`) so that a page
// that missed one asks again (`sync`).
//
// Messages from a friend (each {v, t, ...}; see net.js for the size and version checks):
//   hello {name, token, build}      who is there; a token that holds a seat takes it back
//   take {seat, name, token}        a free friend's seat
//   req {id, type, args}            a request for its own seat: act {action}, hint {lang},
//                                   tracker {}, state {}; once a deal is over, its review:
//                                   review_plan {deal}, review_decision {deal, index},
//                                   review_summary {deal}, review_retry {deal, index, action},
//                                   replay {deal, step, all_hands}; answered
//                                   {t: "res", id, n?, result | error}
//   sync {}                         the current view again (before the deal, the lobby)
// To a friend: lobby {seats, you}, view {n, state}, res {...}, error {code, message}.
// Anything else, or a request for another seat, is refused with an error to that friend and
// changes nothing (the bridge checks every action for the seat that sends it).

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { errorText } from "../errors.js";
import * as store from "../storage.js";
import { BUILD_HASH, LIMIT_TO_HOST, deeper, inviteLink, newHostKey, newRoomId, openRoom, signer } from "./net.js";
import { REVIEW, cleanName, closeDialog, connectionWords, dialog, hideBar, peopleBar, savedName, saveName, settingsSection, travelling } from "./common.js";

const REQUESTS = new Set(["act", "hint", "tracker", "state", ...REVIEW]);
const MUTATES = new Set(["act", "bot_step", "next_deal"]);
const TOKEN_RE = /^[A-Za-z0-9]{16,64}$/;
const small = (x) => Number.isInteger(x) && x >= 0 && x <= 9999;

/** Resolves once the page shows nothing moving (no loop of computer plays, no trick being
 * presented): the table may then be changed under it. */
async function still(app) {
  while (app.looping !== null && app.looping !== undefined || (app.presentingFor !== null && app.presentingFor !== undefined)) {
    await new Promise((r) => setTimeout(r, 40));
  }
}

let own = null; // the engine's own call, before ownCall() wrapped it (one engine a page)

/** The page's engine call, unwrapped; from now on the page's calls that move the table on
 * (its person's play, a computer's, the next deal) reach every friend too. */
function ownCall(app) {
  if (own) return own;
  const engine = app.engine;
  own = engine.call.bind(engine);
  engine.call = (type, args) => {
    const p = own(type, args);
    const host = app.friends;
    if (host instanceof FriendsHost && host.started && MUTATES.has(type) && args && args.game === host.game) {
      p.then(() => { host.n++; host.pushOthers(); }, () => {});
    }
    return p;
  };
  return own;
}

export class FriendsHost {
  /**
   * @param app the page's controller (js/app.js)
   * @param cfg the New game panel's choice (or the test link's): seats of kind "human" (the
   *   host, one), "friend" or "bot"
   * @param net {relays, stun}
   * @param auto start by itself once every friend's seat is taken (the test hook ?friends=1)
   */
  constructor(app, cfg, net, { auto = false } = {}) {
    this.app = app;
    this.cfg = cfg;
    this.net = net;
    this.auto = auto;
    this.room = newRoomId();
    this.mine = cfg.seats.findIndex((s) => s.kind === "human");
    this.seats = cfg.seats.map((s, i) => (s.kind === "friend"
      ? { kind: "friend", name: "", token: null, peer: null }
      : s.kind === "bot" ? { kind: "bot", level: s.level, name: "" } : { kind: "human", name: cleanName(s.name) || savedName() }));
    this.peers = new Map(); // peer id -> {seat: number | null, name}
    // Seconds a friend's seat waits for its friend before a computer player takes it (until the
    // friend comes back); the link's friends_timeout (tests) or the lobby's choice.
    const asked = Number(new URLSearchParams(location.search).get("friends_timeout"));
    this.timeout = Number.isFinite(asked) && asked >= 1 && asked <= 3600 ? asked : 60;
    this.timers = new Map();
    this.started = false;
    this.game = null;
    this.n = 0;
    this.presenting = Promise.resolve();
  }

  /** Seats the friends may take: those not taken. */
  free() {
    return this.seats.map((s, i) => (s.kind === "friend" && !s.token ? i : -1)).filter((i) => i >= 0);
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
    let conn;
    try {
      conn = await openRoom({ room: this.room, relays: this.net.relays, stun: this.net.stun, turn: this.net.turn,
        relayOnly: this.net.relayOnly, limit: LIMIT_TO_HOST }, {
        join: (peer) => { if (!this.peers.has(peer)) this.peers.set(peer, { seat: null, name: "" }); },
        leave: (peer) => this.left(peer),
        message: (peer, msg) => this.heard(peer, msg),
        refused: (peer, code, message) => this.refuse(peer, code, message),
      });
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
    if (!this.conn) return;
    const health = this.conn.health();
    let words = connectionWords(health);
    if (health.problem === "no_path") words = t("friends.problem.friend", { problem: words });
    if (words === (this.connectProblem || "")) return;
    this.connectProblem = words;
    if (words) console.warn(`friends: ${words}`);
    if (!this.started) this.drawLobby();
    else this.bar();
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
    for (const peer of [...this.peers.keys()]) this.left(peer); // they come back through the new one
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
    const cfg = { variant: app.meta.variant, seats, rules: app.state.view.rules, style: app.meta.style };
    const host = new FriendsHost(app, cfg, { relays: saved.relays, stun: saved.stun, turn: saved.turn && typeof saved.turn.urls === "string" ? saved.turn : null, relayOnly: saved.relayOnly === true });
    Object.assign(host, { seats, room: saved.room, key: saved.key, started: true, game: app.game, timeout: saved.timeout || host.timeout });
    host.mine = seats.findIndex((s) => s.kind === "human");
    host.call = ownCall(app);
    app.friends = host;
    // the friends' seats wait for their friends, even when the room cannot open (a computer
    // then plays them after the timeout, and the line of people offers to try again)
    seats.forEach((s, i) => {
      if (s.kind === "friend" && !s.away) host.timers.set(i, setTimeout(() => host.takeOver(i), host.timeout * 1000));
    });
    await host.connect();
    // drawn again now that the page knows its friends (the resumed table offered the undo)
    host.presenting = host.presenting.then(async () => {
      await still(app);
      if (app.state) app.draw();
    });
    host.bar();
    return true;
  }

  // ---- the lobby ---------------------------------------------------------------------------
  drawLobby() {
    if (this.started) return;
    const body = dialog();
    const link = this.link || "";
    const invite = h("a", { class: "invite-link", href: link, data: { invite: "" }, attrs: { target: "_blank", rel: "noopener" }, text: link });
    const copy = h("button", { class: "btn", type: "button", id: "friends-copy", text: t("friends.copy"), on: { click: async () => {
      try {
        await navigator.clipboard.writeText(link);
        copy.textContent = t("friends.copied");
      } catch {
        copy.textContent = t("friends.copy.failed");
      }
    } } });
    const share = typeof navigator.share === "function"
      ? h("button", { class: "btn", type: "button", text: t("friends.share"), on: { click: () => navigator.share({ title: t("app.title"), text: t("friends.share.text"), url: link }).catch(() => {}) } })
      : null;
    const qr = h("figure", { class: "invite-qr" });
    if (link) this.drawQr(qr, link);
    const name = h("input", { id: "friends-host-name", type: "text", value: this.seats[this.mine].name, attrs: { maxlength: "20", autocomplete: "nickname" } });
    // kept as it is typed (a redraw before the field is left must not lose it); told on change
    const keep = () => {
      this.seats[this.mine].name = cleanName(name.value);
      saveName(name.value);
    };
    name.addEventListener("input", keep);
    name.addEventListener("change", () => {
      keep();
      this.tellLobby();
    });
    const timeout = h("input", { id: "friends-timeout", type: "number", value: String(this.timeout), attrs: { min: "5", max: "3600", step: "5" } });
    timeout.addEventListener("change", () => {
      const v = Number(timeout.value);
      if (Number.isFinite(v) && v >= 5 && v <= 3600) this.timeout = v;
      else timeout.value = String(this.timeout);
    });
    const list = h("ul", { class: "friends-seats", id: "friends-seats" });
    this.seats.forEach((s, i) => {
      const who = s.kind === "bot" ? `${t("new.kind.bot")} · ${t(`level.${s.level}`)}`
        : s.kind === "human" ? t("friends.you")
          : s.token ? `${s.name || t("friends.friend")}${s.peer ? "" : ` · ${t("friends.state.off")}`}` : t("friends.free");
      list.append(h("li", { data: { seat: i, taken: s.kind !== "friend" || s.token ? "1" : "0" } },
        h("b", { text: t("new.seat", { n: i + 1 }) }), " ", who));
    });
    const free = this.free().length;
    const start = h("button", { class: "btn primary", type: "button", id: "friends-start", text: t("friends.start"), disabled: free > 0 || !this.conn,
      on: { click: () => this.start() } });
    const fill = h("button", { class: "btn", type: "button", id: "friends-fill", text: t("friends.fill"), disabled: free === 0 || !this.conn,
      on: { click: () => this.start(true) } });
    const cancel = h("button", { class: "btn", type: "button", text: t("new.cancel"), on: { click: () => this.cancel() } });
    body.append(
      h("h2", { id: "friends-title", text: t("friends.title") }),
      h("p", { class: "muted small", text: t("friends.relays.note") }),
      h("div", { class: "field" }, h("label", { attrs: { for: "friends-host-name" }, text: t("friends.name") }), name),
      h("h3", { text: t("friends.invite") }),
      this.problem ? h("p", { class: "form-error", attrs: { role: "alert" }, text: this.problem })
        : h("p", { class: "invite" }, this.conn ? invite : h("span", { class: "muted", text: t("friends.connecting") })),
      this.connectProblem ? h("p", { id: "friends-connect-problem", class: "form-error", attrs: { role: "alert" }, text: this.connectProblem }) : "", // (append() would print a null)
      this.problem ? h("div", { class: "buttons" }, this.retryButton()) : h("div", { class: "buttons" }, copy, share),
      qr,
      h("h3", { text: t("new.seats") }),
      list,
      h("div", { class: "field" }, h("label", { attrs: { for: "friends-timeout" }, text: t("friends.timeout") }), timeout),
      h("p", { class: "muted small", text: t("friends.undo.off") }),
      // relays saved while the room is not open are the ones "Try again" opens it with; saved
      // in an open lobby, the room opens again with them (a new invitation where it changed)
      settingsSection(this.net, (net) => this.renet(net)),
      h("div", { class: "buttons pinned" }, cancel, fill, start));
  }

  retryButton() {
    return h("button", { class: "btn primary", type: "button", id: "friends-retry", text: t("friends.retry"), disabled: !!this.retrying,
      on: { click: () => this.retry() } });
  }

  async drawQr(box, link) {
    try {
      const { qrcode } = await import("./vendor.js");
      const code = qrcode(0, "M");
      code.addData(link);
      code.make();
      box.append(h("img", { src: code.createDataURL(4, 8), alt: t("friends.qr") }));
    } catch {
      // no QR code: the link and its buttons are still there
    }
  }

  cancel() {
    this.gone = true;
    clearInterval(this.watcher);
    this.timers.forEach((timer) => clearTimeout(timer));
    if (this.conn) this.conn.leave();
    this.app.friends = null;
    closeDialog();
    this.app.openNewGame(!!this.app.state);
  }

  /** Every peer gets the lobby as it is now; the dialog too. */
  tellLobby() {
    for (const peer of this.peers.keys()) this.lobbyTo(peer);
    if (!this.started) this.drawLobby();
    else this.bar();
  }

  /** The lobby as it is now, to one peer. */
  lobbyTo(peer) {
    const seats = this.seats.map((s) => ({ kind: s.kind, name: s.kind === "human" ? s.name : s.kind === "friend" ? s.name : "", level: s.level,
      taken: s.kind !== "friend" || !!s.token, connected: s.kind === "human" || (s.kind === "friend" && !!s.peer) }));
    this.send(peer, { t: "lobby", seats, you: this.peers.get(peer).seat, started: this.started });
  }

  bar() {
    if (!this.started || !this.app.state) return;
    const turn = this.app.state.view.turn;
    peopleBar(this.seats.map((s) => ({ kind: s.kind, name: s.kind === "bot" ? "" : s.name, connected: s.kind === "human" || !!s.peer, away: !!s.away })), turn,
      this.problem ? { text: t("friends.room.closed"), detail: this.problem, button: this.retryButton() }
        : this.connectProblem ? { text: this.connectProblem } : null);
    const names = this.app.names();
    const bar = document.getElementById("friends-bar");
    if (bar) bar.querySelectorAll("li[data-seat]").forEach((li) => { const i = Number(li.dataset.seat); if (!this.seats[i].name && names[i]) li.children[1].textContent = names[i]; });
  }

  // ---- messages ----------------------------------------------------------------------------
  send(peer, msg) {
    if (this.conn) this.conn.send(peer, msg);
  }

  refuse(peer, code, message, id) {
    this.send(peer, id === undefined ? { t: "error", code, message } : { t: "res", id, error: { code, message } });
  }

  left(peer) {
    const p = this.peers.get(peer);
    this.peers.delete(peer);
    if (p && p.seat !== null && this.seats[p.seat].peer === peer) {
      const seat = p.seat;
      this.seats[seat].peer = null;
      if (this.started) {
        clearTimeout(this.timers.get(seat));
        this.timers.set(seat, setTimeout(() => this.takeOver(seat), this.timeout * 1000));
      }
    }
    this.tellLobby();
  }

  /** A friend away for longer than the host's timeout: a computer player plays the seat. */
  async takeOver(seat) {
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
      return;
    }
    const app = this.app;
    this.presenting = this.presenting.then(async () => {
      await still(app);
      if (!app.state) return;
      app.state = { ...app.state, seats: reply.seats };
      app.draw();
      this.tellLobby();
      app.advance();
    });
    await this.presenting;
  }

  heard(peer, msg) {
    if (!this.peers.has(peer)) this.peers.set(peer, { seat: null, name: "" });
    if (deeper(msg, 4)) return this.refuse(peer, "friends_bad_message", "a message nested too deep");
    switch (msg.t) {
      case "who": return this.who(peer, msg);
      case "hello": return this.hello(peer, msg);
      case "take": return this.take(peer, msg);
      case "req": return this.request(peer, msg);
      case "sync": return this.sync(peer);
      default: return this.refuse(peer, "friends_bad_message", `unknown message ${String(msg.t).slice(0, 20)}`);
    }
  }

  /** A page asks who the host is: the proof, signed for that page and this one. */
  async who(peer, msg) {
    if (typeof msg.nonce !== "string" || !/^[A-Za-z0-9_-]{16,64}$/.test(msg.nonce)) {
      return this.refuse(peer, "friends_bad_message", "who: a nonce expected");
    }
    this.send(peer, { t: "host", sig: await this.sign(`${msg.nonce}|${peer}|${this.conn.self}`) });
    return undefined;
  }

  hello(peer, msg) {
    if (msg.build !== BUILD_HASH) return this.refuse(peer, "friends_build", "the host's page is another build");
    const p = this.peers.get(peer);
    p.name = cleanName(msg.name);
    if (typeof msg.token === "string" && TOKEN_RE.test(msg.token)) {
      const seat = this.seats.findIndex((s) => s.kind === "friend" && s.token === msg.token);
      if (seat >= 0) return this.seat(peer, seat, msg.token, p.name || this.seats[seat].name);
    }
    this.tellLobby();
    return undefined;
  }

  take(peer, msg) {
    const seat = msg.seat;
    if (!Number.isInteger(seat) || !this.seats[seat] || this.seats[seat].kind !== "friend") {
      return this.refuse(peer, "friends_no_seat", "no such seat for a friend");
    }
    if (typeof msg.token !== "string" || !TOKEN_RE.test(msg.token)) return this.refuse(peer, "friends_bad_message", "take: a token expected");
    const name = cleanName(msg.name);
    if (!name) return this.refuse(peer, "friends_name", "take: a name expected");
    const s = this.seats[seat];
    if (s.token && s.token !== msg.token) return this.refuse(peer, "friends_seat_taken", "that seat is taken");
    const had = this.peers.get(peer).seat;
    if (had !== null && had !== seat) return this.refuse(peer, "friends_seat_taken", "this page already holds a seat");
    return this.seat(peer, seat, msg.token, name);
  }

  seat(peer, seat, token, name) {
    const s = this.seats[seat];
    if (s.peer && s.peer !== peer) { // the same person again (a reload): the old connection loses the seat
      const old = this.peers.get(s.peer);
      if (old) old.seat = null;
    }
    Object.assign(s, { token, peer, name: name || s.name });
    this.peers.get(peer).seat = seat;
    clearTimeout(this.timers.get(seat));
    this.send(peer, { t: "seated", seat, room: this.room });
    this.tellLobby();
    if (this.started && s.away) { // back: the computer gives the seat back, then the view
      s.away = false;
      this.reseat({ seat, kind: "friend", name: s.name }).then(() => this.pushTo(peer, seat));
    } else if (this.started) this.pushTo(peer, seat);
    else if (this.auto && this.free().length === 0) this.start();
  }

  sync(peer) {
    const p = this.peers.get(peer);
    if (p.seat === null) return this.refuse(peer, "friends_not_seated", "take a seat first");
    if (!this.started) return this.lobbyTo(peer);
    return this.pushTo(peer, p.seat);
  }

  async request(peer, msg) {
    const id = msg.id;
    if (!Number.isInteger(id) || id < 0 || id > 1e9) return this.refuse(peer, "friends_bad_message", "req: an id expected");
    const p = this.peers.get(peer);
    if (p.seat === null || !this.started) return this.refuse(peer, "friends_not_seated", "take a seat first", id);
    if (typeof msg.type !== "string" || !REQUESTS.has(msg.type)) return this.refuse(peer, "friends_bad_message", "req: act, hint, tracker, state or a review", id);
    const args = msg.args ?? {};
    if (!args || typeof args !== "object" || Array.isArray(args)) return this.refuse(peer, "friends_bad_message", "req: args must be an object", id);
    const seat = p.seat; // a friend acts and asks for its own seat, whatever it says
    const game = this.game;
    const call = { game, seat };
    if (msg.type === "act") {
      if (typeof args.action !== "string" || args.action.length > 16) return this.refuse(peer, "friends_bad_message", "act: an action like 'AD' expected", id);
      call.action = args.action;
    } else if (msg.type === "hint") {
      call.lang = args.lang === "it" ? "it" : "en";
    } else if (REVIEW.has(msg.type)) {
      const bad = this.reviewArgs(msg.type, args, call);
      if (bad) return this.refuse(peer, "friends_bad_message", bad, id);
      if (!(await this.over(call.deal))) return this.refuse(peer, "friends_deal_not_over", "the review opens once the deal is over", id);
    }
    let reply;
    try {
      reply = await this.engine(msg.type, call);
    } catch (err) {
      return this.refuse(peer, err.code || "internal", err.message || String(err), id);
    }
    if (msg.type === "act") {
      this.n++;
      this.send(peer, { t: "res", id, n: this.n, result: travelling(reply) });
      this.pushOthers(seat);
      this.hostSees();
    } else {
      this.send(peer, { t: "res", id, result: msg.type === "state" ? travelling(reply) : reply });
    }
    return undefined;
  }

  /** A review request's args checked and copied into `call` (the seat is already the
   * friend's own); what is wrong, or null. */
  reviewArgs(type, args, call) {
    if (!small(args.deal)) return `${type}: a deal number expected`;
    call.deal = args.deal;
    if (type === "review_decision" || type === "review_retry") {
      if (!small(args.index)) return `${type}: a decision's index expected`;
      call.index = args.index;
    }
    if (type === "review_retry") {
      if (typeof args.action !== "string" || args.action.length > 16) return "review_retry: a card like 'AD' expected";
      call.action = args.action;
    }
    if (type === "replay") {
      if (!small(args.step)) return "replay: a step expected";
      if (args.all_hands !== undefined && typeof args.all_hands !== "boolean") return "replay: all_hands is true or false";
      call.step = args.step;
      call.all_hands = args.all_hands === true;
    }
    return null;
  }

  /** Whether the match's deal `deal` is over (its plays are then public to every seat). */
  async over(deal) {
    try {
      const { deals } = await this.engine("history", { game: this.game });
      return !!(deals[deal] && deals[deal].over);
    } catch {
      return false;
    }
  }

  // ---- the views ---------------------------------------------------------------------------
  /** The worker's own call (not the page's wrapped one: these never push by themselves). */
  engine(type, args) {
    return this.call(type, args);
  }

  pushTo(peer, seat, n = this.n) {
    this.engine("state", { game: this.game, seat }).then((st) => this.send(peer, { t: "view", n, state: travelling(st) }), () => {});
  }

  /** The table moved on: every connected friend but `except` gets its new view (asked now,
   * before any later request reaches the worker, so that it is this moment's). */
  pushOthers(except = null) {
    this.seats.forEach((s, i) => {
      if (s.kind === "friend" && s.peer && i !== except) this.pushTo(s.peer, i);
    });
    this.bar();
  }

  /** A friend played: the host's own table shows it once it has shown what came before. */
  hostSees() {
    const app = this.app;
    const st = this.engine("state", { game: this.game, seat: this.mine });
    this.presenting = this.presenting.then(async () => {
      let reply;
      try {
        reply = await st;
      } catch {
        return;
      }
      await still(app);
      const my = app.gen;
      if (await app.present(reply, my)) app.advance();
      this.bar();
    });
  }

  /** Another game takes the table: the friends are let go. */
  leave() {
    this.gone = true;
    clearInterval(this.watcher);
    this.timers.forEach((timer) => clearTimeout(timer));
    if (this.conn) this.conn.leave();
    this.conn = null;
    hideBar();
  }

  /** Whether the page waits for someone else at `turn` (a friend's seat). */
  waits(turn) {
    this.bar();
    // the bridge's seats say who plays now (a computer for a friend away)
    const seat = this.app.state && this.app.state.seats[turn];
    return !!seat && seat.kind === "friend";
  }

  // ---- the start ---------------------------------------------------------------------------
  async start(fill = false) {
    if (this.started) return;
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
    this.call = ownCall(app);
    const seats = this.seats.map((s) => (s.kind === "bot" ? { kind: "bot", level: s.level }
      : { kind: s.kind, ...(s.name ? { name: s.name } : {}) }));
    const cfg = this.cfg;
    const meta = { variant: cfg.variant, custom: !!(cfg.overrides && Object.keys(cfg.overrides).length),
      names: this.seats.map((s) => (s.kind === "bot" ? "" : s.name)), style: cfg.style || app.prefs.style,
      // what a reload of this page needs to be the host again (this device only)
      friends: { room: this.room, key: this.key, relays: this.net.relays, stun: this.net.stun, turn: this.net.turn || null,
        relayOnly: !!this.net.relayOnly, timeout: this.timeout,
        seats: this.seats.map((s) => (s.kind === "friend" && s.token ? { token: s.token, name: s.name } : null)) } };
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
    this.tellLobby();
    this.pushOthers();
    await app.startShowing(reply);
  }
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
    seed: seed && /^\d{1,15}$/.test(seed) ? Number(seed) : seed && /^[\w.-]{1,64}$/.test(seed) ? seed : "" };
}
