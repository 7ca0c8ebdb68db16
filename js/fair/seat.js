// FairSeat: one device at a table that deals fairly (docs/friends.md, "The fair deal"): its
// FairTable (the protocol, js/fair/table.js) and its own engine's deal over masked cards
// (py/briscola/masked.py, asked through the bridge's fair_* requests), kept in step. The engine
// says where each position is (`places`) and whose turn it is; this deals what the engine says
// to the devices that own the seats, opens what the protocol opens to this device into the
// engine, and gives the engine every device's actions in the order of the turns (a partner's
// signal told only to the devices of the signaller's partners, ./signal.js). JavaScript
// decides no rule: which positions go where, whose turn, what is legal and who cheated at the
// end are the engine's; which device holds which share is the protocol's.
//
// `engine(kind, args)`: a promise of the bridge's result (or a rejection with its error);
// `owner[seat]`: the device that plays each seat; `bots`: {seat: level} of this device's
// computers. Every method returns a promise of {send, events} as FairTable's do; the events add
//   {type: "turn", seat, view}            a seat of this device's person is to act (`act`)
//   {type: "moved", seat, action}         an action taken (every device, in the turns' order)
//   {type: "result", fair, device?, seat?, reason?}   the check after the deal, both halves
//   {type: "void", device}                the deal ended uncounted: a device left for good
import { ALL, FairTable } from "./table.js";
import { restore as restoreTable, snapshot as snapshotTable } from "./saved.js";
import { PREFIX, SIGNALS, openSignal, readSignal, revealSignal, sealSignal } from "./signal.js";

const QUEUED_MAX = 64;
const SNAPSHOT = 1;

export class FairSeat {
  /** `past`: the public records of the match's deals before this one, each found fair on this
   * device (py/briscola/fairplay.py `fair_deal {past}`): the engine makes the match of them, and
   * refuses a `dealer` that is not the match's (or, `dealer` null, answers it: `this.dealer`). */
  constructor({ table, round, me, owner, bots = {}, rules, dealer, engine, seats = undefined, past = [] }) {
    const devices = Math.max(...owner) + 1;
    Object.assign(this, { table, round, me, owner, bots, rules, dealer, engine, devices, names: seats, past });
    this.fair = null;     // made at start, with the engine's deck
    this.deck = new Set();
    this.reply = null;
    this.dealt = new Set();
    this.shown = new Set();
    this.waiting = Array.from({ length: devices }, () => []); // each device's actions, in its order
    this.asked = -1;        // the action count at which the person was last asked
    this.finished = false;
    this.stopped = null;
    this.checks = { protocol: null, rules: null };
    this.sides = [];        // each seat's side (the engine's): a signal is told to the signaller's partners
    // signals (./signal.js): this device's made, each device's taken, those this device was
    // not told (to read once the seeds are open), this device's own by commitment
    this.sig = { made: 0, heard: new Array(devices).fill(0), hidden: [], mine: {} };
    this._out = { send: [], events: [] };
    this._accused = []; // what the table says of a cheat this device's engine found (FairTable.accuse)
    this._lock = Promise.resolve();
  }

  /** What this device keeps for a reload, taken between two steps: its table's snapshot (its
   * secret key and seed in it: the device's own storage only), its engine's save (its
   * computers' cards in it), what it has shown and the actions waiting for their turns. */
  async snapshot() {
    await this._lock;
    const { deal } = await this.engine("fair_save", {});
    const { table, round, me, owner, bots, rules, dealer } = this;
    return { v: SNAPSHOT, options: { table, round, me, owner, bots, rules, dealer }, fair: snapshotTable(this.fair),
      engine: deal, shown: [...this.shown], waiting: this.waiting.map((q) => [...q]), finished: this.finished, stopped: this.stopped,
      sig: this.sig };
  }

  /** The device again after a reload, from its snapshot and a fresh engine; `resume()` then
   * says what is due (its person's turn again, a computer's play). `sent`: every message the
   * device had sent ({to, msg}, in order), for the page to send again where they may have been
   * lost (a device refuses, changing nothing, those it has heard). */
  static async restore(saved, engine, { past = [] } = {}) {
    if (!saved || saved.v !== SNAPSHOT || !saved.options || !saved.fair || !saved.engine) throw new Error("fair: not a saved seat of this version");
    const seat = new FairSeat({ ...saved.options, engine, past }); // (the match's records: the page keeps them, not each step)
    const { table, sent } = await restoreTable(saved.fair);
    seat.fair = table;
    seat.sent = sent;
    seat.deck = new Set(table.deck);
    seat.reply = await engine("fair_deal", { deal: saved.engine, bots: Object.keys(seat.bots).map(Number), ...(past.length ? { past } : {}) });
    seat.sides = seat.reply.side_of;
    if (saved.sig) seat.sig = JSON.parse(JSON.stringify(saved.sig));
    table.asked.forEach((to, p) => { if (to !== undefined) seat.dealt.add(p); });
    seat.shown = new Set(saved.shown);
    seat.waiting = saved.waiting.map((q) => [...q]);
    Object.assign(seat, { finished: saved.finished, stopped: saved.stopped });
    return seat;
  }

  /** A device gone for good mid-deal (the page's decision: its person left, its page is not
   * coming back): the deal cannot go on without its shares, so it ends here, uncounted, on this
   * device (event `void {device}`); the next deal is dealt without it. */
  abandon(device) {
    return this._serial(async () => {
      if (this.stopped || this.finished) return;
      this.stopped = { device, code: "gone", reason: `device ${device} left the table` };
      this._out.events.push({ type: "void", device });
    });
  }

  resume() {
    return this._serial(async () => {});
  }

  get seats() { return this.owner.flatMap((d, s) => (d === this.me ? [s] : [])); }

  start() {
    return this._serial(async () => {
      this.reply = await this.engine("fair_deal", {
        rules: this.rules, sees: this.seats, ...(this.dealer === null || this.dealer === undefined ? {} : { dealer: this.dealer }),
        bots: Object.keys(this.bots).map(Number), ...(this.names ? { seats: this.names } : {}),
        ...(this.past.length ? { past: this.past } : {}),
      });
      this.dealer = this.reply.dealer;
      this.sides = this.reply.side_of;
      const { table, round, devices, me } = this;
      this.fair = new FairTable({ table, round, devices, me, deck: this.reply.deck });
      this.deck = new Set(this.reply.deck);
      await this._take(this.fair.start());
    });
  }

  receive(msg, sender) {
    return this._serial(async () => this._take(await this.fair.receive(msg, sender)));
  }

  /** The person's action at its seat's turn: a card of its hand (played or, `swap-…`, given up
   * for the face-up card), or a bid, a pass, a call. */
  act(action) {
    return this._serial(async () => {
      if (this.stopped) throw new Error("fair: the deal has stopped");
      const turn = this.reply && this.reply.turn;
      if (turn === null || this.owner[turn] !== this.me || Object.hasOwn(this.bots, turn)) {
        throw new Error("fair: it is not this device's person's turn");
      }
      const { view } = await this.engine("fair_view", { seat: turn });
      if (!view.legal.includes(action)) throw new Error(`fair: ${action} is not legal now`);
      await this._perform(action);
    });
  }

  _serial(step) {
    const run = this._lock.then(async () => {
      await step();
      while (this._accused.length) await this._take(this._accused.shift());
      await this._pump();
      const out = this._out;
      this._out = { send: [], events: [] };
      return out;
    });
    this._lock = run.catch(() => {});
    return run;
  }

  async _take({ send, events }) {
    this._out.send.push(...send);
    for (const e of events) {
      if (e.type === "ready") continue;
      if (e.type === "card" || e.type === "shown") await this._open([[e.pos, e.card]]);
      else if (e.type === "opened") {
        await this._open([[e.pos, e.card]]);
        if (e.by !== null) {
          const given = !this.fair.played[e.pos];
          this._queue(e.by, given ? `swap-${e.card}` : e.card);
        }
      } else if (e.type === "said") {
        if (this.deck.has(e.action) || e.action.startsWith("swap-")) {
          this._stop({ device: e.by, code: "unopened", reason: `device ${e.by} named a card without opening it (${e.action})` });
        } else this._queue(e.by, e.action);
      } else if (e.type === "cheat") this._stop(e);
      else if (e.type === "check") {
        this.checks.protocol = e;
        await this._result();
      }
      if (e.type !== "check") this._out.events.push(e);
    }
  }

  _queue(device, action) {
    if (this.waiting[device].length >= QUEUED_MAX) this._stop({ device, code: "flood", reason: `device ${device} acted far ahead of its turns` });
    else this.waiting[device].push(action);
  }

  _stop(e) {
    if (!this.stopped) this.stopped = e;
    if (e.type === "cheat") return; // (the protocol's: the table has told the others)
    if (this.fair && !this.fair.stopped && this.fair.phase !== "over") {
      // what this device's engine found, with cards the others may not know: they are told
      // (the table's own event says it here)
      this._accused.push(this.fair.accuse(e.device ?? null, e.code, e.reason));
      return;
    }
    this._out.events.push({ type: "cheat", ...e });
  }

  async _open(cards) {
    try {
      this.reply = await this.engine("fair_open", { cards });
    } catch (err) {
      this._stop({ device: null, code: "false_opening", reason: String(err && err.message || err) });
    }
  }

  async _perform(action) {
    const hand = new Map(this.fair.hand().map(([p, c]) => [c, p]));
    const card = action.startsWith("swap-") ? action.slice(5) : action;
    if (this.deck.has(card)) {
      if (!hand.has(card)) throw new Error(`fair: ${card} is not in this device's hand`);
      await this._take(action === card ? this.fair.play(hand.get(card)) : this.fair.give(hand.get(card)));
    } else if (SIGNALS.includes(action)) {
      // said to all as a commitment, sealed for each device of the seat's partners (./signal.js)
      const seat = this.reply.turn;
      const partners = [...new Set(this.owner.filter((d, s) => s !== seat && d !== this.me && this.sides[s] === this.sides[seat]))];
      const { text, commit } = await sealSignal(this.fair, this.sig.made++, action, partners);
      this.sig.mine[commit] = action;
      await this._take(this.fair.say(text));
    } else await this._take(this.fair.say(action));
  }

  /** What the engine is told of device `device`'s signal at `seat`'s turn: which signal, where
   * this device holds a seat of the signaller's side (its box opened and checked against the
   * commitment), else "signal" (one was made: which, once the seeds are open); null when the
   * deal stops (a signal that does not open, or not to what was committed). */
  async _signalOf(device, seat, text) {
    const n = this.sig.heard[device]++;
    const sig = readSignal(text);
    const bad = (why) => { this._stop({ device, code: "signal", reason: `device ${device}'s signal ${why}` }); return null; };
    if (!sig) return bad("is malformed");
    if (device === this.me) return this.sig.mine[sig.commit] ?? bad("is not one this device made");
    if (!this.seats.some((s) => this.sides[s] === this.sides[seat])) {
      this.sig.hidden.push({ index: this.reply.actions, device, seat, n, commit: sig.commit });
      return "signal";
    }
    return (await openSignal(this.fair, device, n, sig)) ?? bad("to this device does not open to what it committed");
  }

  /** Move the engine on while the next turn's action is in; deal what it says; ask. */
  async _pump() {
    for (;;) {
      if (this.stopped || !this.fair || this.fair.phase === "keys" || this.fair.phase === "shuffle") return;
      await this._sync();
      const r = this.reply;
      if (r.over) {
        if (!this.finished) {
          this.finished = true;
          await this._take(this.fair.finish());
        }
        return;
      }
      const seat = r.turn;
      if (seat === null) return; // the set-up's cards are being opened
      const device = this.owner[seat];
      const next = this.waiting[device][0];
      if (next === undefined) {
        // (and this device's cards in: its seats' views need every card they show)
        if (device !== this.me || this.asked === r.actions || r.needs.length) return;
        this.asked = r.actions;
        if (Object.hasOwn(this.bots, seat)) {
          const { action } = await this.engine("fair_bot", { seat, level: this.bots[seat] });
          await this._perform(action);
          continue;
        }
        const { view } = await this.engine("fair_view", { seat });
        this._out.events.push({ type: "turn", seat, view });
        return;
      }
      this.waiting[device].shift();
      const action = next.startsWith(PREFIX) ? await this._signalOf(device, seat, next) : next;
      if (action === null) return;
      try {
        this.reply = await this.engine("fair_act", { seat, action });
      } catch (err) {
        this._stop({ device, code: "illegal", reason: `device ${device}, seat ${seat}: ${err && err.message || err}` });
        return;
      }
      this._out.events.push({ type: "moved", seat, action });
    }
  }

  /** Deal the positions the engine has put in hands (face down to the seat's device; open
   * hands and the card turned up to all), take face-up cards into hands, show a hand to a
   * partner's device when the rules say partners see it. The same calls on every device. */
  async _sync() {
    const { places } = this.reply;
    const list = places.setup.filter((p) => !this.dealt.has(p)).map((p) => [p, ALL]);
    const takes = [];
    const open = this.reply.open; // open hands (scoperta): every hand and the next card face up
    places.hands.forEach((hand, seat) => {
      for (const p of hand) if (!this.dealt.has(p)) list.push([p, open ? ALL : this.owner[seat]]);
    });
    if (places.faceup !== null && !this.dealt.has(places.faceup)) list.push([places.faceup, ALL]);
    const top = places.talon[places.talon.length - 1];
    if (open && places.talon.length && !this.dealt.has(top)) list.push([top, ALL]); // (the face-up card aside)
    if (list.length) {
      for (const [p] of list) this.dealt.add(p);
      await this._take(this.fair.deal(list));
    }
    // a card face up (opened to all: dealt so, or given up in an exchange) that the engine has
    // put in a hand goes there once it is open here
    const f = this.fair;
    places.hands.forEach((hand, seat) => {
      for (const p of hand) if (f.holder[p] === ALL && f.public[p] && !f.played[p]) takes.push([p, this.owner[seat]]);
    });
    for (const [p, to] of takes) await this._take(f.take(p, to));
    for (const [seat, seers] of Object.entries(this.reply.shows ?? {})) {
      for (const other of seers) {
        const to = this.owner[other];
        const key = `${seat}>${to}:${places.hands[seat].join(",")}`; // again when the hand has changed
        if (to === this.me || this.shown.has(key)) continue;
        this.shown.add(key);
        await this._take(await this.fair.show(to));
      }
    }
  }

  async _result() {
    let rules = { fair: true };
    if (this.checks.protocol.fair && !this.stopped) {
      // the signals this device was not told, read from the seeds now open (./signal.js)
      const told = [];
      for (const h of this.sig.hidden) {
        const action = revealSignal(this.fair, h.device, h.n, h.commit);
        if (action === null) {
          rules = { fair: false, seat: h.seat, code: "signal", reason: `device ${h.device}'s signal at action ${h.index + 1} was committed to no signal` };
          break;
        }
        told.push([h.index, action]);
      }
      if (rules.fair) {
        try { rules = await this.engine("fair_check", { told }); } catch (err) { rules = { fair: false, seat: null, reason: String(err && err.message || err) }; }
      }
    }
    this.checks.rules = rules;
    const p = this.checks.protocol;
    const bad = !p.fair ? { device: p.device, code: p.code, reason: p.reason }
      : !rules.fair ? { device: rules.seat === null ? null : this.owner[rules.seat], seat: rules.seat, code: rules.code ?? "rules", reason: rules.reason } : {};
    this._out.events.push({ type: "result", fair: p.fair && rules.fair, ...bad, ...(rules.points ? { points: rules.points } : {}) });
  }
}
