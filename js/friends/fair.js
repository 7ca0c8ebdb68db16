// A table that deals fairly (docs/friends.md, "The fair deal"; the lobby's setting, or `fair=1`
// in the host's link): each page, the host's included, runs its own FairSeat (js/fair/seat.js,
// loaded with js/fair/vendor.js) over its own worker's fair deal, and draws the table from its
// own engine's state (`fair_state`) as a friend's page draws the host's views. The host's page
// deals nothing: it starts the deal (`fair_go` to each friend: the table, the devices' seats,
// the rules, the dealer) and carries every device's messages to the others (`fair`), which it
// cannot forge (each share is proven with its sender's key) and cannot read (a card reaches its
// holder only once every other device has sent its share). JavaScript decides no rule here.
//
// A reload carries on: each page keeps its deal's snapshot in its own storage (./fair-kept.js;
// its secret key, its own cards and those opened, never another's), before it sends what a step
// made; when a page comes back (a friend taking its seat again, the host's page hosting its table
// again) it sends again what the host's device has not heard of it, says how many messages of
// each device it has heard (`fair_heard`), and each device sends it again what came after
// (`fair_again`; a device refuses, changing nothing, a message it has heard). A device gone for good:
// the table says whom it waits for; after the host's timeout (the lobby's, for a dropped friend),
// or when the host ends it, the deal ends uncounted on every device left (`fair_void`), and the
// next deal has a computer in that seat, on the host's device.
//
// A match: each page keeps the public records of the match's deals it found fair (with its
// snapshot, ./fair-kept.js) and gives them to the next deal (`past`): its own engine makes the
// match of them and refuses a deal dealt by another seat than the match's. The host's page takes
// the next dealer from its engine; a new match (none yet, or the last one over) a random one.
// Once the keys are in, each page shows the table's code (js/fair/code.js) under the names and
// on the end screen, for the friends to compare.

import { t } from "../i18n.js";
import { h } from "../dom.js";
import { EngineError } from "../engine.js";
import { errorText } from "../errors.js";
import { setTabFairTable } from "../storage.js";
import { REVIEW, REVIEW_ARGS, cleanName, closeDialog, setTableCode } from "./common.js";
import { where } from "../requests.js";
import { drop, keep, readKept } from "./fair-kept.js";

/** The requests a page's own engine answers at a fair table, as a friend's does (js/requests.js),
 * but the fair deal's own, which only the FairSeat asks (a computer's cards are in its save). */
const OWN = new Set([...where("friend", "own")].filter((k) => !k.startsWith("fair_") && k !== "review_load"));
const EARLY_MAX = 4096; // messages heard before the seat is up (a page come back is sent a whole deal's)
const AGAIN_BATCH = 16; // a page's own messages sent again, so many a second (the referee's rate: 20)
const SNAPSHOT = 1;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export class FairPlay {
  /** `local`: this page's worker ({call}); `post(to, msg)`: a message to device `to` (null:
   * every other device); `seat`: this page's person's seat; `owner[seat]`: each seat's device;
   * `bots`: {seat: level} of this page's computers; `seats`: [{kind, name?}] as this page shows them;
   * `keep(snapshot | null)`: keeps this deal in the page's own storage (null: the deal is over);
   * `saved`: a promise of what `keep` kept (a reload), restored where it is this deal's;
   * `past`: the records of the match's deals before this one, found fair here (`dealer` null:
   * the match's); `next()`: the host's page deals the match's next deal (the end screen's). */
  constructor(app, { local, post, table, round, me, owner, bots = {}, rules, dealer, seat, seats, keep: kept = null, saved = null, past = [], deal = null, next = null }) {
    Object.assign(this, { app, local, post, table, round, me, owner, bots, rules, dealer, seat, seats, kept, saved, past, deal, next });
    this.code = null; // the table's code, once every device's key is in
    this.match = null;
    setTableCode(null);
    this.outbox = Promise.resolve(); // what this device sends, in its order (the same message numbers' order)
    this.fs = null;
    this.sent = []; // what this device sent this deal ({to, msg}): sent again to a page come back
    this.over = false; // checked, void, or lost here: nothing more is kept
    this.voided = null;
    this.lost = false;
    this.saving = false;
    this.begun = new Promise((resolve) => { this.began = resolve; });
    this.early = [];
    this.shown = false;
    this.result = null;
    this.due = false;
    this.waiters = [];
    this.queue = Promise.resolve();
  }

  /** One step at a time, in the order called (the seat's own steps are in order already). */
  serial(step) {
    const run = this.queue.then(step);
    this.queue = run.catch((err) => console.error("fair:", err));
    return run;
  }

  /** The deal started on this device, or carried on from what it kept (`saved`: a reload).
   * `back`: this device is known to have been at the deal (the host sent it again): without a
   * snapshot of it, it cannot rejoin (a new key would be another device's), and says so. */
  async start({ back = false } = {}) {
    const { FairSeat, tableCode } = await import("../fair/vendor.js");
    this.tableCode = tableCode;
    const engine = (kind, args) => this.local.call(kind, args);
    const kept = await this.saved;
    this.past = await this.past; // (a promise of what the page kept, after a reload)
    const mine = kept && kept.v === SNAPSHOT && kept.table === this.table && kept.round === this.round && kept.me === this.me ? kept : null;
    try {
      if (mine) {
        this.past = Array.isArray(mine.past) ? mine.past : [];
        this.fs = await FairSeat.restore(mine.fs, engine, { past: this.past });
        this.sent = [...this.fs.sent];
        await this.serial(async () => this.take(await this.fs.resume()));
      } else if (this.deal !== null && this.past.length !== this.deal) { // the host's page counts another match's deals
        this.refused = this.over = true;
        this.app.notice(t("fair.notmatch"), 30000);
      } else if (back) {
        this.lost = this.over = true;
        this.app.notice(t("fair.lost"), 30000);
      } else {
        this.fs = new FairSeat({ table: this.table, round: this.round, me: this.me, owner: this.owner, bots: this.bots,
          rules: this.rules, dealer: this.dealer, seats: this.seats, engine, past: this.past });
        await this.serial(async () => {
          let out;
          try {
            out = await this.fs.start();
          } catch (err) { // this engine refuses the deal: not the match's next (its dealer), or rules it cannot deal
            if (!(err instanceof EngineError)) throw err;
            this.fs = null;
            this.refused = this.over = true;
            this.app.notice(`${t("fair.notmatch")} (${errorText(err)})`, 30000);
            return;
          }
          await this.take(out);
        });
      }
    } finally {
      this.began();
    }
    if (!this.fs) return;
    for (const [msg, from] of this.early.splice(0)) this.receive(msg, from);
  }

  receive(msg, from) {
    if (!this.fs) {
      if (this.early.length < EARLY_MAX && !this.lost && !this.refused) this.early.push([msg, from]);
      return this.queue;
    }
    return this.serial(async () => this.take(await this.fs.receive(msg, from)));
  }

  /** What this device sent this deal, sent again from its message number `from` on (a page come
   * back has heard those before), to where it went (or, `only`, to that device alone, of what went
   * there): a few a second, in order with what it sends meanwhile. */
  async again(from = 0, only = undefined) {
    await this.begun;
    const list = this.sent.filter(({ to, msg }) => msg.seq >= from && (only === undefined || to === null || to === only));
    list.forEach(({ to, msg }, i) => this.out(only === undefined ? to : only, msg, i > 0 && i % AGAIN_BATCH === 0));
    await this.outbox;
  }

  /** How many messages of each device this one has heard (a page come back says it: `fair_heard`). */
  heard() {
    return this.fs ? [...this.fs.fair.nextSeq] : null;
  }

  /** `msg` sent to `to`, after what this device sent before it (`pause`: a second first). */
  out(to, msg, pause = false) {
    this.outbox = this.outbox.then(async () => {
      if (pause) await sleep(1000);
      this.post(to, msg);
    }).catch((err) => console.warn("fair: a message could not be sent:", err));
  }

  /** A device gone for good (the host's page decided, or this is the host's page): the deal
   * ends here uncounted (FairSeat's `void`). */
  async abandon(device) {
    await this.begun;
    if (!this.fs || this.over) return;
    await this.serial(async () => this.take(await this.fs.abandon(device)));
  }

  /** This deal as the page keeps it: its seat's snapshot (the secret key, this device's cards,
   * the messages heard) and what the page needs to make it again. */
  async snapshot() {
    const { table, round, me, owner, bots, rules, seat, seats, past } = this;
    return { v: SNAPSHOT, table, round, me, owner, bots, rules, dealer: this.fs.dealer, seat, seats, past, fs: await this.fs.snapshot() };
  }

  /** Kept in the page's own storage now (inside a step: the seat between two steps). */
  async save() {
    if (!this.kept || this.over) return;
    let ok = false;
    try { ok = await this.kept(await this.snapshot(), this.past); } catch (err) { console.warn("fair: the deal could not be kept:", err); }
    if (!ok && !this.unkeptSaid) {
      this.unkeptSaid = true;
      this.app.notice(t("fair.unkept"), 15000);
    }
  }

  /** Kept after the step under way (one save for the steps that come at once). */
  later() {
    if (this.saving || !this.kept || this.over) return;
    this.saving = true;
    this.serial(async () => {
      this.saving = false;
      await this.save();
    });
  }

  /** What the seat sends, and what it says: a turn or a move redraws the table. */
  async take({ send, events }, { draw = true } = {}) {
    let redraw = false;
    let ended = false;
    for (const e of events) {
      if (e.type === "turn" || e.type === "moved") redraw = true;
      else if (e.type === "result") {
        this.result = e;
        redraw = ended = true;
        this.app.notice(e.fair ? t("fair.checked") : t("fair.cheated", { who: this.who(e) }), 15000);
        if (e.fair) await this.state(); // its record, for the match's next deal (kept below)
        const note = document.getElementById("sum-fair");
        if (note) this.app.say(note.textContent = endNote(this)); // (heard inside the end screen, where the focus is)
      } else if (e.type === "cheat") {
        this.app.notice(t("fair.stopped", { who: this.who(e), reason: e.reason || "" }), 30000);
      } else if (e.type === "void") {
        this.voided = e;
        ended = true;
        this.app.notice(t("fair.void", { who: this.who(e) }), 30000);
      }
    }
    // kept before it is sent: a reload never sends again a step it has not kept (its person
    // choosing another card would be another message under the same number)
    if (ended && this.kept && !this.over) {
      this.over = true;
      await this.kept(null, this.nextPast());
    } else if (send.length) await this.save();
    else this.later();
    for (const { to, msg } of send) {
      this.sent.push({ to, msg });
      this.out(to, msg);
    }
    if (!this.code && this.fs && this.fs.fair && (this.code = this.tableCode(this.fs.fair))) {
      // the line under the names stays narrow (it sits beside the hand); the whole sentence once
      setTableCode(t("fair.code.bar", { code: this.code.replace(/ /g, "\u00a0") })); // (the digits kept on one line)
      this.app.notice(t("fair.code", { code: this.code }), 8000);
    }
    // drawn once this page's cards are in (its engine can show its seat then: a card drawn
    // after a trick comes with the others' shares); the first time as soon as they are
    if (redraw && draw) this.due = true;
    if (!this.shown) this.due = true;
    if (!this.ready()) return;
    for (const wake of this.waiters.splice(0)) wake();
    if (this.due && (this.shown || this.fs.reply.turn !== null)) {
      this.due = false;
      await this.draw();
    }
  }

  /** Whether this page's engine can show its seat now (every card its view shows is in). */
  ready() {
    const r = this.fs && this.fs.reply;
    return !!r && !r.needs.length;
  }

  /** Resolved once this page's engine can show its seat. */
  whenReady() {
    return this.ready() ? Promise.resolve() : new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Which device did it, as its person is named (or "a device" where the check names none). */
  who(e) {
    if (e.device === null || e.device === undefined) return t("fair.someone");
    const seat = this.owner.indexOf(e.device);
    return this.nameOf(seat) || t("fair.device", { n: e.device + 1 });
  }

  /** The name of the person at `seat`, as this page shows it (or ""). */
  nameOf(seat) {
    const names = this.app.state && typeof this.app.names === "function" ? this.app.names() : [];
    return (seat >= 0 && ((this.seats[seat] && this.seats[seat].name) || names[seat])) || "";
  }

  /** The records of the match's deals for the next one: this deal's added where it was found
   * fair here, none where it ended the match (the next is a new match's first). */
  nextPast() {
    if (!this.record || !this.match) return this.past;
    return this.match.over ? [] : [...this.past, this.record];
  }

  async state() {
    const { record = null, ...state } = await this.local.call("fair_state", { seat: this.seat });
    if (record) this.record = record; // the finished deal, public now: its review (./common.js REVIEW), the match's next
    this.match = state.match;
    return { ...state, seats: this.seats.map((s, i) => (i === this.seat ? { ...s, kind: "human" } : s)), round: this.round, game: null };
  }

  async draw() {
    const state = await this.state();
    if (!this.shown) {
      this.shown = true;
      this.app.meta = { ...(this.app.meta || {}), names: this.seats.map((s) => s.name || ""), id: `fair:${this.table}` };
      await this.app.seam.shown(state, { fresh: true }); // a deal's start (the summary before it closed)
      return;
    }
    await this.app.seam.shown(state);
  }

  /** A finished deal's review of this page's seat, by its own engine, from the deal's record. */
  async review(type, args) {
    if (!this.record) throw new EngineError("deal_not_over", "the review opens once the deal is over and checked");
    if (!this.reviewLoaded) {
      await this.local.call("review_load", { record: this.record });
      this.reviewLoaded = true;
    }
    const out = Object.fromEntries(REVIEW_ARGS.filter((k) => args[k] !== undefined).map((k) => [k, args[k]]));
    return this.local.call(type, { ...out, seat: this.seat, record: true });
  }

  /** A seat's turn waits for this page only where it is its person's. */
  waits(turn) {
    return turn !== this.seat;
  }

  /** The page's engine at this table: the table's requests answered by the fair deal. */
  engine() {
    return {
      call: (type, args = {}) => {
        if (type === "act") {
          return this.serial(async () => this.take(await this.fs.act(args.action), { draw: false }))
            .then(() => this.whenReady()).then(() => this.serial(() => this.state()));
        }
        if (type === "state") return this.whenReady().then(() => this.serial(() => this.state()));
        if (type === "hint" || type === "tracker") {
          const view = this.app.state && this.app.state.view;
          if (!view) return Promise.reject(new EngineError("friends_not_offered", `${type}: no view yet`));
          return this.local.call(`${type}_view`, { view });
        }
        if (REVIEW.has(type)) return this.review(type, args);
        if (type === "next_deal" && this.next) { // the host's page deals the match's next fair deal (and draws it)
          return Promise.resolve(this.next()).then(() => { throw new EngineError("stale", "the next fair deal is drawn by its own FairPlay"); });
        }
        if (OWN.has(type)) return this.local.call(type, args);
        return Promise.reject(new EngineError("friends_host_only", `${type} is not offered at a table that deals fairly`));
      },
      terminate: () => this.local.terminate(),
    };
  }
}

/** A friend's page: the host started a table that deals fairly (or, `back`, sent it again: this
 * page came back, or the host's did). This page's own FairSeat, its messages carried by the host's
 * page (which can neither forge nor read them), its table drawn by its own engine; carried on
 * from what this page kept where it is that deal. Ignored unless this page holds the seat it names. */
export async function joinFair(guest, msg) {
  const owner = msg.owner;
  const heard = Number.isInteger(msg.heard) && msg.heard >= 0 ? msg.heard : 0; // this device's messages the host's has heard
  if (guest.fair && msg.round === guest.fair.round && msg.table === guest.fair.table && msg.seat === guest.seat) return void guest.fairCatchUp(heard);
  if (guest.fair && !(Number.isInteger(msg.round) && msg.round > guest.fair.round)) return; // (a new round: the next fair deal)
  if (!Array.isArray(owner) || owner.length > 8 || !owner.every((d) => Number.isInteger(d) && d >= 0 && d <= 5) ||
      msg.seat !== guest.seat || owner[msg.seat] !== msg.me || !Number.isInteger(msg.dealer) || !Array.isArray(msg.seats) ||
      msg.seats.length !== owner.length || typeof msg.table !== "string" || msg.table.length > 128) return;
  const seats = msg.seats.map((s) => ({ kind: s && s.kind === "bot" ? "bot" : "friend", ...(s && cleanName(s.name) ? { name: cleanName(s.name) } : {}) }));
  const key = `guest:${guest.room}`;
  const kept = readKept(key);
  // the match's deals this page found fair (the last deal's, or what it kept); the host's page
  // says how many came before (none: a new match): another count is another match (FairPlay's start)
  const deal = Number.isInteger(msg.deal) && msg.deal >= 0 ? msg.deal : 0;
  const past = deal === 0 ? [] : guest.fair ? guest.fair.nextPast() : kept.then((r) => (r && Array.isArray(r.past) ? r.past : []));
  guest.fair = new FairPlay(guest.app, { local: guest.local, post: (to, m) => guest.send({ t: "fair", to, m }), table: msg.table,
    round: Number.isInteger(msg.round) ? msg.round : 0, me: msg.me, owner, rules: msg.rules, dealer: msg.dealer, seat: guest.seat, seats, past, deal,
    keep: (snap, rest) => keep(key, { deal: snap, past: rest }), saved: kept.then((r) => r && r.deal) });
  guest.shown = true;
  closeDialog();
  guest.app.engine = guest.fair.engine();
  await guest.fair.start({ back: msg.back === true });
  if (guest.fair.lost) guest.fairLost(); // (the others then end it)
  if (guest.fair.fs && msg.back === true) await guest.fairCatchUp(heard);
  guest.bar();
}

/** A friend's page: the host's page asks it to send device `to` again what it sent from its
 * message `from` on (`fair_again {round, to, from}`: that device's page came back). */
export function againFair(guest, msg) {
  const fair = guest.fair;
  if (!fair || !fair.fs || msg.round !== fair.round || !Number.isInteger(msg.to) || msg.to < 0 || msg.to > 5 || msg.to === fair.me ||
      !Number.isInteger(msg.from) || msg.from < 0) return;
  fair.again(msg.from, msg.to);
}

/** A friend's page: the host's page ended the deal uncounted, a device gone for good (`fair_void
 * {round, device}`); ignored unless it is this deal and another device. */
export function voidFair(guest, msg) {
  const fair = guest.fair;
  if (!fair || msg.round !== fair.round || !Number.isInteger(msg.device) || msg.device < 1 || msg.device > 5 || msg.device === fair.me) return;
  fair.abandon(msg.device).then(() => guest.bar());
}

/** What a friend's page says under the names at a fair table (null: nothing): whom the deal
 * waits for (a friend's page gone, the host's away), or that it ended uncounted. */
export function fairWords(guest) {
  const fair = guest.fair;
  if (!fair || fair.result) return null;
  if (fair.voided || fair.lost) return { text: t("fair.void.wait") };
  const host = guest.lobbySeats.findIndex((s) => s.kind === "human");
  const gone = fair.owner.map((d, i) => i).filter((i) => i !== fair.seat && (i === host ? !guest.hostHere
    : fair.owner[i] > 0 && guest.lobbySeats[i] && !guest.lobbySeats[i].connected));
  return gone.length ? { text: t("fair.waits", { who: gone.map((i) => fair.nameOf(i) || t("new.seat", { n: i + 1 })).join(", ") }) } : null;
}

/** The host's page starts a table that deals fairly: no deal in its worker; each page, this one
 * included, deals with the others by the fair protocol and draws its own engine's state; this
 * page starts it and carries the devices' messages. Devices: this page 0 (its person and its
 * computers, a computer in the seat of a friend gone for good among them), then each friend's
 * page in the order of the seats. */
export async function hostFair(host, fill) {
  const app = host.app;
  const level = botLevel(app);
  if (fill) host.seats.forEach((s, i) => { if (s.kind === "friend" && !s.token) host.seats[i] = { kind: "bot", level, name: "" }; });
  if (host.free().length) return;
  const worker = (host.fairWorker ??= app.engine);
  host.started = true;
  let next = 1;
  const computer = (s) => s.kind === "bot" || (s.kind === "friend" && s.away);
  const owner = host.seats.map((s) => (s.kind === "friend" && !s.away ? next++ : 0));
  if (next === 1) { // every friend's seat a computer's (the lobby's "start with computers"): nobody to deal fairly with
    Object.assign(host, { started: false, fairDeal: false });
    return host.start(false);
  }
  const bots = Object.fromEntries(host.seats.flatMap((s, i) => (computer(s) ? [[i, s.kind === "bot" ? s.level : level]] : [])));
  const seats = host.seats.map((s) => (computer(s) ? { kind: "bot" } : { kind: "friend", ...(s.name ? { name: s.name } : {}) }));
  const table = `${host.room}:${host.round}`;
  // the match's next deal, its dealer the engine's, from the deals this page found fair; a new
  // match (none, or the last one over): a random dealer
  const past = Array.isArray(host.fairPast) ? host.fairPast : [];
  let dealer;
  try { // what a fair table cannot deal refused here, before any friend is told
    dealer = (await worker.call("fair_deal", { rules: host.cfg.rules, sees: [host.mine], bots: [], ...(past.length ? { past } : { dealer: randomSeat(host) }) })).dealer;
  } catch (err) {
    if (past.length) { // (records this engine refuses: a new match)
      host.fairPast = [];
      return hostFair(host, false);
    }
    host.started = false;
    app.notice(t("notice.error", { message: errorText(err) }), 15000);
    return;
  }
  const go = { t: "fair_go", table, round: host.round, owner, rules: host.cfg.rules, dealer, seats, deal: past.length };
  Object.assign(host, { fairOwner: owner, fairGo: go });
  host.seats.forEach((s, i) => { if (owner[i] && s.peer) host.send(s.peer, { ...go, me: owner[i], seat: i }); });
  host.fair = hostPlay(host, { table, me: 0, owner, bots, rules: host.cfg.rules, dealer, seat: host.mine, seats, past });
  closeDialog();
  host.tellLobby();
  await host.fair.start();
}

/** The host's page's FairPlay (`saved`: the deal it kept, after a reload). */
export function hostPlay(host, options, saved = null) {
  const app = host.app;
  const worker = host.fairWorker;
  setTabFairTable(host.room);
  const fair = new FairPlay(app, { ...options, local: worker, post: (to, msg) => host.fairPost(0, to, msg), round: host.round,
    keep: (snap, past) => {
      host.fairPast = past;
      return keep(`host:${host.room}`, { table: hostTable(host), deal: snap, past });
    }, saved, next: () => host.playAgain() });
  app.engine = fair.engine();
  // the host's worker holds no table here: a friend's page asking for its view (a sync) is
  // answered nothing (each page draws its own)
  host.call = (type, args) => (type === "state" || type === "act"
    ? Promise.reject(new EngineError("friends_not_offered", `${type}: a table that deals fairly is drawn by each page's own engine`))
    : worker.call(type, args));
  return fair;
}

/** What the host's page keeps to host its fair table again after a reload (its own storage):
 * the room, its key, the settings, the seats with their tokens, the round and how it started. */
export function hostTable(host) {
  const { cfg } = host;
  return { room: host.room, key: host.key, net: host.net, timeout: host.timeout, round: host.round, go: host.fairGo,
    cfg: { variant: cfg.variant, rules: cfg.rules, style: cfg.style, custom: !!cfg.custom },
    seats: host.seats.map((s) => (s.kind === "friend" ? { kind: "friend", name: s.name || "", token: s.token, away: !!s.away }
      : s.kind === "bot" ? { kind: "bot", level: s.level, name: "" } : { kind: s.kind, name: s.name || "" })) };
}

/** The host's page leaves its fair table (another game): what it kept of it goes. */
export function forgetFair(host) {
  delete host.call; // (the worker's table again, FriendsHost's own)
  setTabFairTable(null);
  drop(`host:${host.room}`);
}

/** The host's page: a friend's page took its seat back (a reload, or the host's page came back)
 * while a fair deal is on: it is sent the deal again (`fair_go`, `back`, with how many of its
 * messages this device has heard; it then says what it has heard: fairMissed); a deal
 * already void, said so; one over, nothing (its page joins the next). A friend gone for good that
 * comes back plays from the next deal. */
export async function fairBack(host, peer, seat) {
  const s = host.seats[seat];
  s.away = false;
  const fair = host.fair;
  const d = host.fairOwner ? host.fairOwner[seat] : 0;
  if (!fair || !d || fair.result) return; // (a computer plays the seat this deal; the deal is over: the next)
  await fair.begun;
  if (!host.seats[seat] || host.seats[seat].peer !== peer) return;
  const heard = fair.fs ? fair.fs.fair.nextSeq[d] : 0;
  host.send(peer, { ...host.fairGo, me: d, seat, back: true, heard });
  if (fair.voided) host.send(peer, { t: "fair_void", round: fair.round, device: fair.voided.device });
}

/** The host's page: a friend's page back at the deal says how many messages of each device it has
 * heard (`fair_heard {round, heard}`): this device sends it again what came after, and asks each
 * other friend's page to (`fair_again {round, to, from}`). Anything else is ignored. */
export async function fairMissed(host, seat, msg) {
  const fair = host.fair;
  const owner = host.fairOwner;
  const d = owner ? owner[seat] : 0;
  const devices = owner ? Math.max(...owner) + 1 : 0;
  if (!fair || !d || msg.round !== fair.round || !Array.isArray(msg.heard) || msg.heard.length !== devices ||
      !msg.heard.every((n) => Number.isInteger(n) && n >= 0 && n <= 1e6)) return;
  await fair.again(msg.heard[0], d);
  host.seats.forEach((s, i) => {
    const j = owner[i];
    if (j && j !== d && s.peer) host.send(s.peer, { t: "fair_again", round: fair.round, to: d, from: msg.heard[j] });
  });
}

/** The host's page: a friend's page gone for longer than the host's timeout, or the host ended
 * the deal: the deal ends uncounted on every device left (`fair_void` to each friend's page),
 * and a computer takes the seat from the next deal, until its friend comes back. */
export async function fairGone(host, seat) {
  const s = host.seats[seat];
  if (!s || s.peer || host.gone) return;
  clearTimeout(host.timers.get(seat));
  s.away = true;
  const fair = host.fair;
  const d = host.fairOwner ? host.fairOwner[seat] : 0;
  if (fair && d && !fair.over) {
    await fair.abandon(d);
    host.seats.forEach((o) => { if (o.kind === "friend" && o.peer) host.send(o.peer, { t: "fair_void", round: fair.round, device: d }); });
  }
  host.tellLobby();
}

/** The host's page: a friend's page came back without the deal under way (`fair_lost {round}`:
 * its storage kept nothing of it): the deal cannot go on without its device's shares and ends
 * uncounted on every device; the seat stays its friend's, whose page joins the next deal. */
export async function fairLost(host, seat, round) {
  const fair = host.fair;
  const d = host.fairOwner ? host.fairOwner[seat] : 0;
  if (!fair || !d || round !== fair.round || fair.over) return;
  await fair.abandon(d);
  host.seats.forEach((o) => { if (o.kind === "friend" && o.peer) host.send(o.peer, { t: "fair_void", round: fair.round, device: d }); });
  host.tellLobby();
}

/** What the host's page says under the names at a fair table (null: nothing): whom the deal
 * waits for and what follows, with the host's choice to end it now; a deal ended uncounted,
 * with the next. */
export function fairBar(host) {
  const fair = host.fair;
  if (!fair || fair.result) return null;
  if (fair.voided) {
    return { text: t("fair.void.bar", { who: fair.who(fair.voided) }),
      button: h("button", { class: "btn primary", type: "button", id: "fair-again", text: t("fair.again"), on: { click: () => host.playAgain() } }) };
  }
  const gone = host.seats.map((s, i) => i).filter((i) => host.fairOwner[i] > 0 && !host.seats[i].peer);
  if (!gone.length || fair.over) return null;
  const who = gone.map((i) => fair.nameOf(i) || t("new.seat", { n: i + 1 })).join(", ");
  return { text: t("fair.waits.host", { who, s: host.timeout }),
    button: h("button", { class: "btn", type: "button", id: "fair-end", text: t("fair.end"), on: { click: () => gone.forEach((i) => fairGone(host, i)) } }) };
}

/** Whether a friend's device is still at the host's fair table (a seat whose friend is not gone
 * for good): with none, the next deal is the host's engine's, a computer in each friend's seat. */
export function fairDevices(host) {
  return host.seats.some((s) => s.kind === "friend" && !s.away);
}

function randomSeat(host) {
  return crypto.getRandomValues(new Uint32Array(1))[0] % host.seats.length;
}

/** The end screen's words at a fair table (js/summary.js `friends.note`): the check's result on
 * this device and the table's code; {} elsewhere. */
export function fairEnd(x) {
  return x && x.fair ? { note: endNote(x.fair) } : {};
}

function endNote(fair) {
  const e = fair.result;
  const said = e ? (e.fair ? t("fair.checked") : t("fair.cheated", { who: fair.who(e) })) : "";
  return [said, fair.code ? t("fair.code", { code: fair.code }) : ""].filter(Boolean).join(" ");
}

export function botLevel(app) {
  const levels = (app.catalog && app.catalog.levels) || [];
  return levels.includes("intermediate") ? "intermediate" : levels[0];
}
