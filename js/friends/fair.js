// A table that deals fairly (docs/friends.md, "The fair deal"; the lobby's setting, or `fair=1`
// in the host's link): each page, the host's included, runs its own FairSeat (js/fair/seat.js,
// loaded with js/fair/vendor.js) over its own worker's fair deal, and draws the table from its
// own engine's state (`fair_state`) as a friend's page draws the host's views. The host's page
// deals nothing: it starts the deal (`fair_go` to each friend: the table, the devices' seats,
// the rules, the dealer) and carries every device's messages to the others (`fair`), which it
// cannot forge (each share is proven with its sender's key) and cannot read (a card reaches its
// holder only once every other device has sent its share). JavaScript decides no rule here.
//
// What is not done yet (docs/friends.md, "What remains"): a reload mid-deal (the deal is lost on
// the page that reloads), a device gone for good (the others wait), the match's later deals.

import { t } from "../i18n.js";
import { EngineError } from "../engine.js";
import { errorText } from "../errors.js";
import { REVIEW, REVIEW_ARGS, cleanName, closeDialog } from "./common.js";
import { where } from "../requests.js";

/** The requests a page's own engine answers at a fair table, as a friend's does (js/requests.js),
 * but the fair deal's own, which only the FairSeat asks (a computer's cards are in its save). */
const OWN = new Set([...where("friend", "own")].filter((k) => !k.startsWith("fair_") && k !== "review_load"));

export class FairPlay {
  /** `local`: this page's worker ({call}); `post(to, msg)`: a message to device `to` (null:
   * every other device); `seat`: this page's person's seat; `owner[seat]`: each seat's device;
   * `bots`: {seat: level} of this page's computers; `seats`: [{kind, name?}] as this page shows them. */
  constructor(app, { local, post, table, round, me, owner, bots = {}, rules, dealer, seat, seats }) {
    Object.assign(this, { app, local, post, table, round, me, owner, bots, rules, dealer, seat, seats });
    this.fs = null;
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

  async start() {
    const { FairSeat } = await import("../fair/vendor.js");
    this.fs = new FairSeat({ table: this.table, round: this.round, me: this.me, owner: this.owner, bots: this.bots,
      rules: this.rules, dealer: this.dealer, seats: this.seats, engine: (kind, args) => this.local.call(kind, args) });
    await this.serial(async () => this.take(await this.fs.start()));
    for (const [msg, from] of this.early.splice(0)) this.receive(msg, from);
  }

  receive(msg, from) {
    if (!this.fs) {
      if (this.early.length < 512) this.early.push([msg, from]);
      return this.queue;
    }
    return this.serial(async () => this.take(await this.fs.receive(msg, from)));
  }

  /** What the seat sends, and what it says: a turn or a move redraws the table. */
  async take({ send, events }, { draw = true } = {}) {
    for (const { to, msg } of send) this.post(to, msg);
    let redraw = false;
    for (const e of events) {
      if (e.type === "turn" || e.type === "moved") redraw = true;
      else if (e.type === "result") {
        this.result = e;
        redraw = true;
        this.app.notice(e.fair ? t("fair.checked") : t("fair.cheated", { who: this.who(e) }), 15000);
      } else if (e.type === "cheat") {
        this.app.notice(t("fair.stopped", { who: this.who(e), reason: e.reason || "" }), 30000);
      }
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
    const name = seat >= 0 && this.seats[seat] && this.seats[seat].name;
    return name || t("fair.device", { n: e.device + 1 });
  }

  async state() {
    const { record = null, ...state } = await this.local.call("fair_state", { seat: this.seat });
    if (record) this.record = record; // the finished deal, public now: its review (./common.js REVIEW)
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
        if (OWN.has(type)) return this.local.call(type, args);
        return Promise.reject(new EngineError("friends_host_only", `${type} is not offered at a table that deals fairly`));
      },
      terminate: () => this.local.terminate(),
    };
  }
}

/** A friend's page: the host started a table that deals fairly. This page's own FairSeat, its
 * messages carried by the host's page (which can neither forge nor read them), its table drawn
 * by its own engine. Ignored unless this page holds the seat it names. */
export async function joinFair(guest, msg) {
  const owner = msg.owner;
  if (guest.fair && !(Number.isInteger(msg.round) && msg.round > guest.fair.round)) return; // (a new round: the next fair deal)
  if (!Array.isArray(owner) || owner.length > 8 || !owner.every((d) => Number.isInteger(d) && d >= 0 && d <= 5) ||
      msg.seat !== guest.seat || owner[msg.seat] !== msg.me || !Number.isInteger(msg.dealer) || !Array.isArray(msg.seats) ||
      msg.seats.length !== owner.length || typeof msg.table !== "string" || msg.table.length > 128) return;
  const seats = msg.seats.map((s) => ({ kind: s && s.kind === "bot" ? "bot" : "friend", ...(s && cleanName(s.name) ? { name: cleanName(s.name) } : {}) }));
  guest.fair = new FairPlay(guest.app, { local: guest.local, post: (to, m) => guest.send({ t: "fair", to, m }), table: msg.table,
    round: Number.isInteger(msg.round) ? msg.round : 0, me: msg.me, owner, rules: msg.rules, dealer: msg.dealer, seat: guest.seat, seats });
  guest.shown = true;
  closeDialog();
  guest.app.engine = guest.fair.engine();
  await guest.fair.start();
  guest.bar();
}

/** The host's page starts a table that deals fairly: no deal in its worker; each page, this one
 * included, deals with the others by the fair protocol and draws its own engine's state; this
 * page starts it and carries the devices' messages. Devices: this page 0 (its person and its
 * computers), then each friend's page in the order of the seats. */
export async function hostFair(host, fill) {
  const app = host.app;
  const levels = (app.catalog && app.catalog.levels) || [];
  const level = levels.includes("intermediate") ? "intermediate" : levels[0];
  if (fill) host.seats.forEach((s, i) => { if (s.kind === "friend" && !s.token) host.seats[i] = { kind: "bot", level, name: "" }; });
  if (host.free().length) return;
  const worker = (host.fairWorker ??= app.engine);
  host.started = true;
  let next = 1;
  const owner = host.seats.map((s) => (s.kind === "friend" ? next++ : 0));
  const bots = Object.fromEntries(host.seats.flatMap((s, i) => (s.kind === "bot" ? [[i, s.level]] : [])));
  const seats = host.seats.map((s) => (s.kind === "bot" ? { kind: "bot" } : { kind: "friend", ...(s.name ? { name: s.name } : {}) }));
  const dealer = crypto.getRandomValues(new Uint32Array(1))[0] % host.seats.length;
  const table = `${host.room}:${host.round}`;
  try { // what a fair table cannot deal yet (signals) refused here, before any friend is told
    await worker.call("fair_deal", { rules: host.cfg.rules, dealer, sees: [host.mine], bots: [] });
  } catch (err) {
    host.started = false;
    app.notice(t("notice.error", { message: errorText(err) }), 15000);
    return;
  }
  const go = { t: "fair_go", table, round: host.round, owner, rules: host.cfg.rules, dealer, seats };
  host.fairOwner = owner;
  host.seats.forEach((s, i) => { if (s.kind === "friend" && s.peer) host.send(s.peer, { ...go, me: owner[i], seat: i }); });
  host.fair = new FairPlay(app, { local: worker, post: (to, msg) => host.fairPost(0, to, msg), table, round: host.round,
    me: 0, owner, bots, rules: host.cfg.rules, dealer, seat: host.mine, seats });
  closeDialog();
  host.tellLobby();
  app.engine = host.fair.engine();
  host.call = (type, args) => worker.call(type, args);
  await host.fair.start();
}
