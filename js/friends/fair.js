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
// match of them and refuses a deal dealt by another seat than the match's, or counting other deals
// before it: the page tells the host's (`fair_refuse`), which ends it uncounted on every device, and
// the next deal starts a new match. A page that kept none of the match's records takes the host's
// (sent with `fair_go`), on its word, and says so. The host's page takes the next dealer from its
// engine; a new match's, the seat after the last deal counted (./fair-table.js).
// Once the keys are in, each page shows the table's code (js/fair/code.js) under the names and
// on the end screen, for the friends to compare.

import { t } from "../i18n.js";
import { EngineError } from "../engine.js";
import { errorText } from "../errors.js";
import { REVIEW, REVIEW_ARGS, cleanName, closeDialog, setTableCode } from "./common.js";
import { where } from "../requests.js";
import { keep, readKept } from "./fair-kept.js";

/** The requests a page's own engine answers at a fair table, as a friend's does (js/requests.js),
 * but the fair deal's own, which only the FairSeat asks (a computer's cards are in its save). */
const OWN = new Set([...where("friend", "own")].filter((k) => !k.startsWith("fair_") && k !== "review_load"));
const EARLY_MAX = 4096; // messages heard before the seat is up (a page come back is sent a whole deal's)
const AGAIN_BATCH = 16; // a page's own messages sent again, so many a second (the referee's rate: 20)
const SNAPSHOT = 1;
const NOT_MATCH = { code: "fair_notmatch" }; // a deal this page refuses: not the match's next here (fair_refuse)
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export class FairPlay {
  /** `local`: this page's worker ({call}); `post(to, msg)`: a message to device `to` (null:
   * every other device); `seat`: this page's person's seat; `owner[seat]`: each seat's device;
   * `bots`: {seat: level} of this page's computers; `seats`: [{kind, name?}] as this page shows them;
   * `keep(snapshot | null)`: keeps this deal in the page's own storage (null: the deal is over);
   * `saved`: a promise of what `keep` kept (a reload), restored where it is this deal's;
   * `past`: the records of the match's deals before this one, found fair here (`dealer` null:
   * the match's; null, or a promise of null: this page kept none, and takes `given`, the host's,
   * where the host counts deals before: `hearsay`); `next()`: the host's page deals the match's
   * next deal (the end screen's). */
  constructor(app, { local, post, table, round, me, owner, bots = {}, rules, dealer, seat, seats, keep: kept = null, saved = null, past = [], given = null, hearsay = false, deal = null, next = null }) {
    Object.assign(this, { app, local, post, table, round, me, owner, bots, rules, dealer, seat, seats, kept, saved, past, given, hearsay, deal, next });
    this.why = null; // why the deal ended uncounted, where not a device gone ("refused": a device refused it)
    this.end = null; // a finished deal shown again after a reload (the host's page: ./fair-table.js)
    this.last = null; // the last table drawn
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
    this.toCarry = []; // (the host's page) friends' messages to pass on, heard before this device's deal began
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
    const own = await this.past; // (a promise of what the page kept, after a reload; null: nothing)
    const mine = kept && kept.v === SNAPSHOT && kept.table === this.table && kept.round === this.round && kept.me === this.me ? kept : null;
    // nothing of the match kept here (storage cleared, or refused): the host's records, its word
    this.hearsay = (await this.hearsay) === true;
    const given = own === null && this.deal > 0 && Array.isArray(this.given) && this.given.length === this.deal
      && this.given.every((r) => r && typeof r === "object") ? this.given : null;
    this.past = given || own;
    if (given) this.hearsay = true;
    try {
      if (mine) {
        this.past = Array.isArray(mine.past) ? mine.past : [];
        this.hearsay = mine.hearsay === true;
        this.fs = await FairSeat.restore(mine.fs, engine, { past: this.past });
        this.sent = [...this.fs.sent];
        await this.serial(async () => this.take(await this.fs.resume()));
      } else if (this.deal !== null && (this.past || []).length !== this.deal) { // the host's page counts another match's deals
        this.refuse(NOT_MATCH.code, t("fair.notmatch"));
      } else if (back) {
        this.lost = this.over = true;
        this.app.notice(t("fair.lost"), 30000);
      } else {
        this.past = this.past || [];
        this.fs = new FairSeat({ table: this.table, round: this.round, me: this.me, owner: this.owner, bots: this.bots,
          rules: this.rules, dealer: this.dealer, seats: this.seats, engine, past: this.past });
        await this.serial(async () => {
          let out;
          try {
            out = await this.fs.start();
          } catch (err) { // this engine refuses the deal: not the match's next (its dealer), or rules it cannot deal
            if (!(err instanceof EngineError)) throw err;
            this.fs = null;
            this.refuse(NOT_MATCH.code, `${t("fair.notmatch")} (${errorText(err)})`);
            return;
          }
          await this.take(out);
        });
      }
    } finally {
      this.began();
      this.carrying = true;
      for (const [msg, from, forward] of this.toCarry.splice(0)) this.carry(msg, from, forward);
    }
    if (!this.fs) return;
    if (given && !mine) this.app.notice(t("fair.hearsay"), 30000);
    for (const [msg, from] of this.early.splice(0)) this.receive(msg, from);
  }

  /** This page does not deal this deal (`code`, said in `words`): its page tells the host's
   * (`fair_refuse`), which ends it uncounted on every device. */
  refuse(code, words) {
    this.refused = typeof code === "string" && /^[a-z_]{1,64}$/.test(code) ? code : NOT_MATCH.code;
    this.over = true;
    this.app.notice(words, 30000);
  }

  receive(msg, from) {
    if (!this.fs) {
      if (this.early.length < EARLY_MAX && !this.lost && !this.refused) this.early.push([msg, from]);
      return this.queue;
    }
    // (the seat read when the step runs: one that came while the deal started, which this
    // device's engine then refused, finds none)
    return this.serial(async () => { if (this.fs) await this.take(await this.fs.receive(msg, from)); });
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

  /** The host's page: a friend's message `msg` of device `from`, passed on to the others
   * (`forward()`) only where its sender's signature holds (js/fair/sign.js: else this device's
   * own table refuses it, and nobody else hears it), in the order heard. */
  carry(msg, from, forward) {
    if (!this.carrying) {
      if (this.toCarry.length < EARLY_MAX) this.toCarry.push([msg, from, forward]);
      return;
    }
    if (this.fs?.fair?.carry(msg, from)) forward();
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
  async abandon(device, why = null) {
    await this.begun;
    if (!this.fs || this.over) return;
    this.why = why;
    await this.serial(async () => { if (this.fs) await this.take(await this.fs.abandon(device)); });
  }

  /** This deal as the page keeps it: its seat's snapshot (the secret key, this device's cards,
   * the messages heard) and what the page needs to make it again. */
  async snapshot() {
    const { table, round, me, owner, bots, rules, seat, seats, past } = this;
    return { v: SNAPSHOT, table, round, me, owner, bots, rules, dealer: this.fs.dealer, seat, seats, past, hearsay: this.hearsay,
      fs: await this.fs.snapshot() };
  }

  /** Kept in the page's own storage now (inside a step: the seat between two steps). */
  async save() {
    if (!this.kept || this.over) return;
    let ok = false;
    try { ok = await this.kept(await this.snapshot(), this.past, this.hearsay); } catch (err) { console.warn("fair: the deal could not be kept:", err); }
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
        // its record, for the match's next deal (kept below); the last table, the end screen's
        await this.state().catch((err) => console.warn("fair: the finished table could not be read:", err));
        const note = document.getElementById("sum-fair");
        if (note) this.app.say(note.textContent = endNote(this)); // (heard inside the end screen, where the focus is)
      } else if (e.type === "cheat") {
        this.app.notice(t("fair.stopped", { who: this.who(e), reason: e.reason || "" }), 30000);
      } else if (e.type === "void") {
        this.voided = e;
        ended = true;
        this.app.notice(t(this.why === "refused" ? "fair.void.refused" : this.why === "away" ? "fair.void.away" : "fair.void", { who: this.who(e) }), 30000);
      }
    }
    // kept before it is sent: a reload never sends again a step it has not kept (its person
    // choosing another card would be another message under the same number)
    if (ended && this.kept && !this.over) {
      this.over = true;
      await this.kept(null, this.nextPast(), this.hearsay);
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

  /** The seat's table, read in a step of its own once this page's engine can show it, and
   * again later where a step before it dealt a card still on its way (a draw after a trick:
   * its view would show a position not known yet). */
  async readyState() {
    for (;;) {
      await this.whenReady();
      const state = await this.serial(() => (this.ready() ? this.state() : null));
      if (state) return state;
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
    if (this.why === "refused") return []; // (a device holds another match: a new one)
    if (!this.record || !this.match || !(this.result && this.result.fair)) return this.past; // (found fair here only)
    return this.match.over ? [] : [...this.past, this.record];
  }

  async state() {
    const { record = null, ...state } = await this.local.call("fair_state", { seat: this.seat });
    if (record) this.record = record; // the finished deal, public now: its review (./common.js REVIEW), the match's next
    this.match = state.match;
    this.last = { ...state, seats: this.seats.map((s, i) => (i === this.seat ? { ...s, kind: "human" } : s)), round: this.round, game: null };
    return this.last;
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

  /** What the host's page keeps of a deal played out and checked (fair or not), to show its
   * end again after a reload: the last table (every card public by then), the check's result,
   * the table's code and the deal's record (its review, the match's next). Null otherwise. */
  endKept() {
    if (!this.last || !this.last.view) return null;
    const voided = this.voided && { voided: { device: this.voided.device }, why: this.why || null };
    if (!voided && !this.result) return null; // (a deal checked, or stopped mid-way by a cheat: its result)
    const { table, round, me, owner, bots, rules, seat, seats, code, record } = this;
    return { table, round, me, owner, bots, rules, seat, seats, code, record, dealer: this.fs ? this.fs.dealer : this.dealer,
      result: voided ? null : JSON.parse(JSON.stringify(this.result)), state: this.last, ...voided };
  }

  /** The finished deal `end` (endKept) shown again as it ended: its table, the end screen with
   * the check's result and the table's code; the next deal waits for the host. */
  async ended(end) {
    Object.assign(this, { end, result: end.result, code: end.code || null, record: end.record || null, match: end.state.match,
      last: end.state, over: true, shown: true, voided: end.voided || null, why: end.why || null });
    this.began();
    if (this.code) setTableCode(t("fair.code.bar", { code: this.code.replace(/ /g, "\u00a0") }));
    this.app.meta = { ...(this.app.meta || {}), names: this.seats.map((s) => s.name || ""), id: `fair:${this.table}` };
    await this.app.seam.shown(end.state, { fresh: true });
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
        if (type === "act" && (this.over || !this.fs || this.fs.stopped)) { // (a deal ended: checked, void or stopped)
          return Promise.reject(new EngineError("fair_over", "this fair deal has ended"));
        }
        if (type === "act") {
          return this.serial(async () => this.take(await this.fs.act(args.action), { draw: false }))
            .then(() => this.readyState());
        }
        if (type === "state" && this.end) return Promise.resolve(this.end.state);
        if (type === "state") return this.readyState();
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
  // the match's deals this page found fair (the last deal's, or what it kept; null: none kept
  // here, the host's records then taken on its word); the host's page says how many came before
  // (none: a new match): another count is another match (FairPlay's start)
  const deal = Number.isInteger(msg.deal) && msg.deal >= 0 ? msg.deal : 0;
  // (the last deal's once its steps under way are done: its check, where its last messages came)
  const prev = guest.fair;
  const past = deal === 0 ? [] : prev ? prev.queue.then(() => prev.nextPast()) : kept.then((r) => (r && Array.isArray(r.past) ? r.past : null));
  const hearsay = deal > 0 && (prev ? prev.hearsay : kept.then((r) => !!r && r.hearsay === true));
  const given = deal > 0 && Array.isArray(msg.past) && msg.past.length === deal ? msg.past : null;
  guest.fair = new FairPlay(guest.app, { local: guest.local, post: (to, m) => guest.send({ t: "fair", to, m }), table: msg.table,
    round: Number.isInteger(msg.round) ? msg.round : 0, me: msg.me, owner, rules: msg.rules, dealer: msg.dealer, seat: guest.seat, seats, past, deal,
    given, hearsay, keep: (snap, rest, said) => keep(key, { deal: snap, past: rest, hearsay: said && rest.length > 0 }), saved: kept.then((r) => r && r.deal) });
  guest.shown = true;
  closeDialog();
  guest.app.engine = guest.fair.engine();
  await guest.fair.start({ back: msg.back === true });
  if (guest.fair.lost) guest.fairLost(); // (the others then end it)
  if (guest.fair.refused) guest.fairRefuse(); // (the host's page then ends it on every device)
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

/** A friend's page: the host's page ended the deal uncounted, a device gone for good or one
 * that refused it (`fair_void {round, device, why?}`); ignored unless it is this deal and
 * another device, or this one with `why: "away"` (its page back after the host ended it). */
export function voidFair(guest, msg) {
  const fair = guest.fair;
  if (!fair || msg.round !== fair.round || !Number.isInteger(msg.device) || msg.device < 1 || msg.device > 5) return;
  // this page's own device only where the host's page ended the deal while this page was away
  if (msg.device === fair.me && msg.why !== "away") return;
  fair.abandon(msg.device, msg.why === "refused" || msg.why === "away" ? msg.why : null).then(() => guest.bar());
}

/** What a friend's page says under the names at a fair table (null: nothing): whom the deal
 * waits for (a friend's page gone, the host's away), or that it ended uncounted. */
export function fairWords(guest) {
  const fair = guest.fair;
  if (!fair || fair.result) return null;
  if (fair.voided || fair.lost || fair.refused) return { text: t("fair.void.wait") };
  const host = guest.lobbySeats.findIndex((s) => s.kind === "human");
  const gone = fair.owner.map((d, i) => i).filter((i) => i !== fair.seat && (i === host ? !guest.hostHere
    : fair.owner[i] > 0 && guest.lobbySeats[i] && !guest.lobbySeats[i].connected));
  if (gone.length) return { text: t("fair.waits", { who: gone.map((i) => fair.nameOf(i) || t("new.seat", { n: i + 1 })).join(", ") }) };
  return fair.hearsay ? { text: t("fair.hearsay") } : null; // (the match's earlier deals: the host's word)
}

/** The end screen's words at a fair table (js/summary.js `friends.note`): the check's result on
 * this device and the table's code; {} elsewhere. */
export function fairEnd(x) {
  return x && x.fair ? { note: endNote(x.fair) } : {};
}

function endNote(fair) {
  const e = fair.result;
  const said = e ? (e.fair ? t("fair.checked") : t("fair.cheated", { who: fair.who(e) })) : "";
  return [said, fair.code ? t("fair.code", { code: fair.code }) : "", fair.hearsay ? t("fair.hearsay") : ""].filter(Boolean).join(" ");
}
