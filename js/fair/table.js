// FairTable: one device's side of the fair deal (docs/friends.md, "The fair deal"), a state
// machine with no DOM and no network. Its methods take what the device's own game says (deal
// these positions to these devices, I play this position, the deal is over) and the messages
// the other devices sent; each returns what to send (`send`: [{to, msg}], `to` null for every
// device) and what happened (`events`):
//   {type: "ready"}                          the deck is shuffled: positions may be dealt
//   {type: "card", pos, card}                your card at position pos is card (a code)
//   {type: "opened", pos, card, by}          position pos opened to all (by: who played it)
//   {type: "shown", pos, card, holder}       a partner's card, shown to this device alone
//   {type: "said", by, action}               a public action that opens no card (say)
//   {type: "refused", device, code, reason}  a message refused (a replay, out of order...): nothing changed
//   {type: "cheat", device, code, reason, by?, checked?}   the deal stops (device null: a shuffle
//                                            was forged, the check names it; `by`: another device's
//                                            word this one could not check, `checked: false`)
//   {type: "check", fair, device?, code?, reason?}   the check after the deal
// Positions are those of the shuffled deck, 0 to size − 1; the game decides which it deals to
// whom. A device's messages carry its index and a sequence number, bound into every proof.
import {
  JOINT_WINDOW, KEY_WINDOW, Point, cardPoint, commitSeed, deckBytes, hash, masking, openDeck, pointBytes, proveKey,
  randomBytes, randomScalar, readDeck, readPoint, readScalar, remask, sizes, token, verifyKey,
} from "./group.js";
import {
  TYPE, VERSION, b64, concat, proofBytes, readProof, readToken, shapeError, unb64,
} from "./codec.js";
import { checkTable } from "./check.js";
import { onHand, sealHand, unsealHand } from "./hand.js";
import { accept, makeShares, onTokens, verifyShare } from "./shares.js";
import { onStop } from "./stop.js";
import { carried, signed, unsigned } from "./sign.js";

export const ALL = -1;
const WAIT = Symbol("wait");
const QUEUE_MAX = 256;
const G = Point.BASE;

export class FairTable {
  /** `table`: the table's id; `round`: which deal of the table (a fresh key and shuffle each);
   * `devices`: 2 to 6; `me`: this device's index; `deck`: the card codes of the variant's deck;
   * `secrets` (js/fair/saved.js only): the key and seed of a deal being restored. */
  constructor({ table, round, devices, me, deck, secrets = null }) {
    if (typeof table !== "string" || !table || table.length > 128) throw new Error("fair: table id of 1 to 128 characters");
    if (!Number.isInteger(round) || round < 0) throw new Error("fair: round a whole number");
    if (!Number.isInteger(devices) || devices < 2 || devices > 6) throw new Error("fair: 2 to 6 devices");
    if (!Number.isInteger(me) || me < 0 || me >= devices) throw new Error("fair: me out of range");
    if (!Array.isArray(deck) || deck.length < 2 || deck.length > 64 || new Set(deck).size !== deck.length ||
        !deck.every((c) => typeof c === "string" && c.length >= 1 && c.length <= 8)) {
      throw new Error("fair: a deck of 2 to 64 distinct card codes");
    }
    Object.assign(this, { table, round, devices, me, deck, secrets });
    this.size = deck.length;
    this.points = deck.map(cardPoint);
    this.byPoint = new Map(this.points.map((M, k) => [b64(pointBytes(M)), k]));
    this.phase = "keys";
    this.x = secrets ? readScalar(unb64(secrets.x, 32)) : randomScalar();
    if (!this.x) throw new Error("fair: a saved key that is no key");
    this.log = [];                          // every call and message, in order (saved.js replays it)
    this.Y = new Array(devices);
    this.Y[me] = G.multiply(this.x); // never multiplied here: no window
    this.signers = new Array(devices);     // the key each device's messages are signed with (sign.js)
    this._carryKeys = new Array(devices);  // the same, as the hub's `carry` learnt them
    this._carried = new WeakSet();         // messages whose signature `carry` checked already
    this.decks = [openDeck(this.points)];
    this.commits = new Array(devices);
    this.seeds = new Array(devices);
    this.heard = new Array(devices);
    this.turn = 0;
    this.seq = 0;
    this.nextSeq = new Array(devices).fill(0);
    this.digests = Array.from({ length: devices }, () => new Map());
    this.chains = Array.from({ length: devices }, () => []); // each device's messages as heard here, hashed in a chain
    this.queue = Array.from({ length: devices }, () => []);
    this.asked = new Array(this.size);      // position -> the device it is dealt to, or ALL
    this.holder = new Array(this.size);     // position -> who holds it now (ALL: on the table, face up)
    this.tokens = Array.from({ length: this.size }, () => new Map()); // position -> device -> a share (shares.js)
    this.pending = Array.from({ length: this.size }, () => new Map()); // tokens before the game dealt the position
    this.card = new Array(this.size);       // position -> deck index, where this device knows it
    this.public = new Array(this.size).fill(false);
    this.played = new Array(this.size).fill(false);
    this.seen = new Map();                  // deck index -> position
    this.stopped = null;
    this.result = null;
    this._shown = new WeakMap();
    this._lock = Promise.resolve();
    this._sealing = false;
    this._out = [];
    this._events = [];
  }

  // -- what the device's own game says ---------------------------------------------------------

  /** The first message: this device's key with its proof. */
  start() {
    this.log.push(["start"]);
    const seq = this.seq;
    const proof = proveKey(this.x, this.Y[this.me], this._ctx(this.me, seq, "key"));
    this._send("key", { Y: b64(pointBytes(this.Y[this.me])), proof: b64(proofBytes(proof)) });
    return this._flush();
  }

  /** Deal positions: `[[pos, to], ...]`, `to` a device's index or ALL (opened to every device,
   * as the face-up trump). Every device's game asks the same, in the same order. */
  deal(list) {
    this._need("deal", "deal");
    const ps = new Set();
    for (const [p, to] of list) {
      if (!Number.isInteger(p) || p < 0 || p >= this.size) throw new Error(`fair: no position ${p}`);
      if (!(to === ALL || (Number.isInteger(to) && to >= 0 && to < this.devices))) throw new Error(`fair: no device ${to}`);
      if (this.asked[p] !== undefined || ps.has(p)) throw new Error(`fair: position ${p} is dealt already`);
      ps.add(p);
    }
    this.log.push(["deal", list.map(([p, to]) => [p, to])]);
    for (const [p, to] of list) {
      this.asked[p] = to;
      this.holder[p] = to;
    }
    // one message: the shares (at most 64, 52 characters each), one proof for each recipient
    const shared = list.filter(([, to]) => to !== this.me);
    if (shared.length) this._send("tokens", makeShares(this, shared));
    for (const [p] of list) this._settle(p);
    this._pump();
    return this._flush();
  }

  /** This device plays the card at `pos`: it is opened to every device with this device's token. */
  play(p) {
    return this._playMine(p, false);
  }

  /** This device gives up the card at `pos` face up on the table (the 2 or 7 of trump exchanged
   * for the face-up trump, which the game then `take`s into this device's hand): opened as a
   * play is, and it stays on the table to be drawn. */
  give(p) {
    return this._playMine(p, true);
  }

  _playMine(p, up) {
    this._need("deal", "play");
    if (this.holder[p] !== this.me || this.played[p] || this.card[p] === undefined) throw new Error(`fair: position ${p} is not in this device's hand`);
    if (up && this.public[p]) throw new Error(`fair: position ${p} is face up already`);
    this.log.push([up ? "give" : "play", p]);
    this.played[p] = !up;
    const body = { p, card: this.deck[this.card[p]], ...(up ? { up: 1 } : {}) };
    if (!this.public[p]) {
      const ctx = this._ctx(this.me, this.seq, "play", p);
      const { T, proof } = token(this.x, this.Y[this.me], this._deck()[p][0], ctx);
      this.tokens[p].set(this.me, { T, proof, ctx, ok: true });
      body.token = b64(concat(pointBytes(T), proofBytes(proof)));
      this._opened(p, this.card[p], this.me);
    } else {
      this._events.push({ type: "opened", pos: p, card: body.card, by: this.me });
    }
    this.holder[p] = ALL;
    this._send("play", body);
    return this._flush();
  }

  /** A card on the table, face up, goes into a hand (the face-up trump drawn last, or taken in
   * the exchange): no message, every device's game says the same. */
  take(p, to) {
    this._free("take");
    if (!Number.isInteger(to) || to < 0 || to >= this.devices) throw new Error(`fair: no device ${to}`);
    if (!this.public[p] || this.played[p]) throw new Error(`fair: position ${p} is not face up on the table`);
    this.log.push(["take", p, to]);
    this.holder[p] = to;
    return this._flush();
  }

  /** Show this device's unplayed cards to device `to` alone (partners see each other's hands):
   * this device's shares of them, sealed for `to`. */
  show(to) {
    this._need("deal", "show");
    if (!Number.isInteger(to) || to < 0 || to >= this.devices || to === this.me) throw new Error("fair: show to another device");
    return this._serial(async () => {
      this._sealing = true;
      try {
        return await sealHand(this, to);
      } finally {
        this._sealing = false;
      }
    });
  }

  /** A public action that opens no card (a bid, a call), in this device's numbered stream. */
  say(action) {
    this._need("deal", "say");
    this.log.push(["say", action]);
    this._send("say", { action });
    this._events.push({ type: "said", by: this.me, action });
    return this._flush();
  }

  /** This device's own engine found what the protocol cannot see (an action its rules refuse,
   * judged with cards only this device knows: a partner's false signal, once partners see each
   * other's hands): the deal stops here, and the others are told (`stop`), who stop too and say
   * it as this device's word (`by`, `checked: false`); the commitments open, and the check after
   * the deal runs on every device. */
  accuse(device, code, reason) {
    this.log.push(["accuse", device, code, reason]);
    if (!this.stopped && this.phase !== "over") this._cheat(device, code, reason);
    return this._flush();
  }

  /** The deal is over: a token the game never asked for is a cheat; this device opens its
   * commitment, and the check runs once every device's is in. */
  finish() {
    this._free("finish");
    this.log.push(["finish"]);
    if (this.phase === "deal") {
      this.phase = "over";
      for (let j = 0; j < this.devices && !this.stopped; j++) {
        const left = this.queue[j].find((m) => m.k !== "open");
        if (left) this._cheat(j, "unasked", `device ${j} sent a ${left.k} the game never asked for (position ${left.p ?? left.items?.[0]?.[0]})`);
      }
      for (let p = 0; p < this.size && !this.stopped; p++) {
        for (const [j, tk] of this.pending[p]) {
          this._cheat(j, "unasked", `device ${j} sent its share of position ${p} for device ${tk.to}, which the game never dealt`);
          break;
        }
      }
      this._openMine();
    }
    this._pump();
    return this._flush();
  }

  /** The check after the deal with what is in (call it when a device never opens: it is named). */
  check() {
    this._free("check");
    this.log.push(["check"]);
    this._check(true);
    return this._flush();
  }

  /** This device's cards: [[pos, code], ...], unplayed. */
  hand() {
    const out = [];
    for (let p = 0; p < this.size; p++) if (this.holder[p] === this.me && !this.played[p] && this.card[p] !== undefined) out.push([p, this.deck[this.card[p]]]);
    return out;
  }

  // -- what the other devices sent -------------------------------------------------------------

  /** A message from another device; `sender`, where the transport knows it, is the device it
   * came from (a message claiming another sender is refused). */
  receive(msg, sender = msg && msg.from) {
    return this._serial(() => this._receive(msg, sender));
  }

  /** One asynchronous step at a time (a message waits for the one before it, and for a hand
   * being sealed), so that the order of what a device hears is the order it is told. */
  _serial(step) {
    const run = this._lock.then(step);
    this._lock = run.catch(() => {});
    return run;
  }

  async _receive(msg, sender) {
    let text = null;
    try { text = JSON.stringify(msg) ?? null; } catch { /* not JSON: refused below, and replayed as null */ }
    // logged where it takes effect (after the seal is opened), so that a replay is in the same order
    const logged = () => this.log.push(["receive", text, sender ?? null]);
    const refuse = (...why) => { logged(); return this._refuse(...why); };
    const bad = shapeError(msg);
    if (bad) return refuse(sender ?? null, "malformed", `a message refused: ${bad}`);
    const j = msg.from;
    if (sender !== j) return refuse(sender, "not_sender", `device ${sender} sent a message as device ${j}`);
    if (j === this.me || j >= this.devices) return refuse(j, "malformed", `no device ${j} at this table`);
    if (msg.table !== this.table || msg.round !== this.round) return refuse(j, "other_deal", `device ${j} sent a message of another table or deal`);
    const forged = unsigned(this, msg);
    if (forged?.refuse) return refuse(j, "unsigned", forged.refuse);
    if (forged) return (logged(), this._cheat(...forged.cheat), this._flush());
    const digest = b64(hash(JSON.stringify(msg)));
    if (msg.seq < this.nextSeq[j]) {
      if (this.digests[j].get(msg.seq) === digest) return refuse(j, "replay", `device ${j}'s message ${msg.seq} came again: ignored`);
      logged();
      this._cheat(j, "equivocation", `device ${j} sent two different messages numbered ${msg.seq}`);
      return this._flush();
    }
    // (once stopped, an opening is what the check waits for: what it skips no longer matters)
    if (msg.seq > this.nextSeq[j] && !(this.stopped && msg.k === "open")) return refuse(j, "out_of_order", `device ${j}'s message ${msg.seq} came before its message ${this.nextSeq[j]}`);
    if (this.queue[j].length >= QUEUE_MAX) return refuse(j, "flood", `device ${j} sent too many messages ahead of the deal`);
    const shown = msg.k === "show" && msg.to === this.me ? await unsealHand(this, msg) : undefined;
    logged();
    this.nextSeq[j] = msg.seq + 1;
    this.digests[j].set(msg.seq, digest);
    this._chain(j, digest);
    if (shown !== undefined) this._shown.set(msg, shown);
    this.queue[j].push(msg);
    this._pump();
    return this._flush();
  }

  /** The hub's check of a message of device `from` that it passes on (sign.js `carried`). */
  carry(msg, from) {
    return carried(this, msg, from);
  }

  // -- inside --------------------------------------------------------------------------------

  _pump() {
    for (let moved = true; moved;) {
      moved = false;
      for (let j = 0; j < this.devices; j++) {
        while (this.queue[j].length) {
          const msg = this.queue[j][0];
          if (this.stopped && msg.k !== "open") { this.queue[j].shift(); continue; }
          if (this._handle(j, msg) === WAIT) break;
          this.queue[j].shift();
          moved = true;
        }
      }
    }
  }

  _handle(j, m) {
    switch (m.k) {
      case "key": return this._onKey(j, m);
      case "shuffle": return this._onShuffle(j, m);
      case "tokens": return onTokens(this, j, m, WAIT);
      case "play": return this._onPlay(j, m);
      case "show": return onHand(this, j, m, WAIT);
      case "open": return this._onOpen(j, m);
      case "stop": return onStop(this, j, m);
      case "say": return this.phase === "keys" || this.phase === "shuffle" ? WAIT : this.phase !== "deal"
        ? this._cheat(j, "protocol", `device ${j} spoke after the deal`) : void this._events.push({ type: "said", by: j, action: m.action });
    }
  }

  _onKey(j, m) {
    if (this.phase !== "keys" || this.Y[j]) return this._cheat(j, "protocol", `device ${j} sent a second key`);
    const Y = readPoint(unb64(m.Y, 32));
    const proof = readProof(unb64(m.proof, 64));
    if (!Y || !proof || !verifyKey(Y, proof, this._ctx(j, m.seq, "key"))) {
      return this._cheat(j, "key_proof", `device ${j}'s key comes with no valid proof that it knows its secret`);
    }
    this.Y[j] = Y.precompute(KEY_WINDOW); // built when first used
    if (this.Y.filter(Boolean).length === this.devices) {
      this.H = this.Y.reduce((a, b) => a.add(b)).precompute(JOINT_WINDOW);
      this.phase = "shuffle";
      if (this.me === 0) this._shuffleMine();
      else this._windows();
    }
  }

  /** The windows of the joint key and the other devices' keys built now (else at their first
   * use: this device's shuffle, on the set-up's path, and its first card, which would wait for
   * four tables), while this device waits for another's shuffle. */
  _windows() {
    if (this._built) return;
    this._built = true;
    this.H.multiplyUnsafe(2n);
    for (let j = 0; j < this.devices; j++) if (j !== this.me) this.Y[j].multiplyUnsafe(2n);
    this._masks = this._masking(); // this device's re-masking, made before its turn comes
  }

  _masking() {
    this.seed ??= this.secrets?.seed ? unb64(this.secrets.seed, 32) : randomBytes(32);
    return masking(this.seed, this.size, [this.table, this.round, this.me], this.H);
  }

  _onShuffle(j, m) {
    if (this.phase === "keys" || (this.phase === "shuffle" && this.turn < j)) return WAIT;
    if (this.phase !== "shuffle" || this.turn !== j) return this._cheat(j, "protocol", `device ${j} shuffled out of turn`);
    const deck = readDeck(unb64(m.deck, this.size * sizes.PAIR), this.size);
    const commit = unb64(m.commit, 32);
    if (!deck || !commit || commit.length !== 32) return this._cheat(j, "shuffle", `device ${j} sent a deck that is not ${this.size} masked cards`);
    if (deck.some(([A]) => A.is0())) return this._cheat(j, "shuffle", `device ${j} left a card unmasked in its shuffle`);
    this._shuffled(j, deck, commit);
  }

  _shuffled(j, deck, commit) {
    this.decks[j + 1] = deck;
    this.commits[j] = commit;
    this.turn = j + 1;
    if (this.turn === this.devices) {
      this.phase = "deal";
      this._events.push({ type: "ready" });
    } else if (this.turn === this.me) {
      this._shuffleMine();
    } else if (j !== this.me) {
      this._windows(); // (the first device: while the second's shuffle goes on)
    }
  }

  _shuffleMine() {
    const deck = remask(this._deck(), this._masks ?? this._masking());
    const commit = commitSeed(this.seed, [this.table, this.round, this.me]);
    this._send("shuffle", { deck: b64(deckBytes(deck)), commit: b64(commit) });
    this._shuffled(this.me, deck, commit);
  }

  _verify(j, p, entry) {
    return verifyShare(this, j, p, entry);
  }

  /** The shares that came before the game dealt `p`, then the card if it can be read now. */
  _settle(p) {
    for (const [j, entry] of this.pending[p]) {
      this.pending[p].delete(j);
      if (!accept(this, j, p, entry)) return;
    }
    const to = this.asked[p];
    if (this.card[p] !== undefined || (to !== this.me && to !== ALL)) return;
    const need = to === ALL ? this.devices : this.devices - 1;
    if (this.tokens[p].size < need) return;
    const card = this._read(p, to === this.me);
    if (card === null) return;
    if (to === ALL) this._opened(p, card, null);
    else this._known(p, card, { type: "card", pos: p, card: this.deck[card] });
  }

  /** The card at p: B minus every share (this device's own computed here when `mine`). */
  _read(p, mine) {
    const [A, B] = this._deck()[p];
    let M = B;
    for (const [, { T }] of this.tokens[p]) M = M.subtract(T);
    if (mine) M = M.subtract(A.multiply(this.x));
    const card = this.byPoint.get(b64(M.toBytes()));
    if (card === undefined) {
      this._cheat(null, "not_a_card", `position ${p} holds no card of the deck: a shuffle was forged (the check after the deal names the device)`);
      return null;
    }
    return card;
  }

  _known(p, card, event) {
    const other = this.seen.get(card);
    if (other !== undefined && other !== p) {
      this._cheat(null, "duplicate", `${this.deck[card]} is at positions ${other} and ${p}: a shuffle was forged (the check after the deal names the device)`);
      return false;
    }
    this.seen.set(card, p);
    this.card[p] = card;
    this._events.push(event);
    return true;
  }

  _opened(p, card, by) {
    this.public[p] = true;
    if (this.card[p] === card && this.seen.get(card) === p) this._events.push({ type: "opened", pos: p, card: this.deck[card], by });
    else this._known(p, card, { type: "opened", pos: p, card: this.deck[card], by });
  }

  _onPlay(j, m) {
    if (this.phase === "keys" || this.phase === "shuffle") return WAIT;
    if (this.phase === "deal" && this.asked[m.p] === undefined) return WAIT;
    if (this.phase !== "deal") return this._cheat(j, "protocol", `device ${j} played after the deal`);
    const p = m.p;
    if (this.holder[p] === ALL && this.public[p] && !this.played[p]) return WAIT; // face up: until the game takes it
    if (p >= this.size || this.holder[p] !== j || this.played[p]) {
      const whose = this.holder[p] === ALL ? "a card already on the table" : `dealt to device ${this.holder[p]}`;
      return this._cheat(j, "not_its_card", `device ${j} played position ${p}, ${whose}`);
    }
    if (!this.public[p] && [...this.tokens[p].keys()].filter((i) => i !== j).length < this.devices - 1) return WAIT;
    if (m.up && this.public[p]) return this._cheat(j, "protocol", `device ${j} gave up position ${p}, face up already`);
    this.played[p] = !m.up;
    this.holder[p] = ALL;
    if (this.public[p]) {
      if (m.card !== this.deck[this.card[p]]) return this._cheat(j, "claimed", `device ${j} played ${m.card} at position ${p}, which holds ${this.deck[this.card[p]]}`);
      this._events.push({ type: "opened", pos: p, card: m.card, by: j });
      return;
    }
    const tk = readToken(unb64(m.token ?? "", 96));
    if (!tk) return this._cheat(j, "bad_token", `device ${j} played position ${p} without its share`);
    const entry = { ...tk, ctx: this._ctx(j, m.seq, "play", p), ok: false };
    if (!this._verify(j, p, entry)) return;
    this.tokens[p].set(j, entry);
    for (const [i, other] of this.tokens[p]) if (!this._verify(i, p, other)) return;
    const card = this._read(p, false);
    if (card === null) return;
    if (this.deck[card] !== m.card) return this._cheat(j, "claimed", `device ${j} played ${m.card} at position ${p}, which holds ${this.deck[card]}`);
    this._opened(p, card, j);
  }

  _onOpen(j, m) {
    const seed = unb64(m.seed, 32);
    if (this.seeds[j] || !seed || seed.length !== 32) return this._cheat(j, "commitment", `device ${j} opened its commitment twice or with no seed`);
    this.seeds[j] = seed;
    this.heard[j] = m.heard;
    this._check(false);
  }

  /** The deal stops: `device` named (null: only the check after the deal can name it). `by`:
   * the device whose word it is, where this device could not check it itself; `p` and `of`: the
   * share in question, for the others to check. */
  _cheat(device, code, reason, { p, of, by = null } = {}) {
    if (this.stopped) return;
    const heard = by !== null;
    this.stopped = { device, code, reason, ...(heard ? { by, checked: false } : {}) };
    const was = this.phase;
    this.phase = "stopped";
    this._events.push({ type: "cheat", ...this.stopped });
    if (!heard) this._send("stop", { device, code, ...(p === undefined ? {} : { p }), ...(of === undefined ? {} : { of }) });
    if (was !== "keys") this._openMine();
    this._check(false);
  }

  _openMine() {
    if (this.seed && !this.seeds[this.me]) {
      this.seeds[this.me] = this.seed;
      const heard = this.chains.map((c) => [c.length, c.length ? c[c.length - 1] : ""]);
      this._send("open", { seed: b64(this.seed), heard });
    }
  }

  _check(force) {
    checkTable(this, force);
  }

  _deck() {
    return this.decks[this.devices] ?? this.decks[this.turn];
  }

  _free(what) {
    if (this._sealing) throw new Error(`fair: ${what} while a hand is being sealed (await show() first)`);
  }

  _need(phase, what) {
    this._free(what);
    if (this.phase !== phase) throw new Error(`fair: ${what} while the deal is ${this.phase}`);
  }

  _ctx(from, seq, kind, ...more) {
    return [this.table, this.round, from, seq, kind, ...more];
  }

  _envelope(k, seq, from = this.me) {
    return { v: VERSION, t: TYPE, k, table: this.table, round: this.round, from, seq };
  }

  _send(k, body, to = null) {
    const msg = signed({ ...this._envelope(k, this.seq), ...body }, this.x, this.Y[this.me]);
    this.seq += 1;
    this._chain(this.me, b64(hash(JSON.stringify(msg))));
    this._out.push({ to, msg });
  }

  _chain(j, digest) {
    const chain = this.chains[j];
    chain.push(b64(hash("chain", chain.length ? chain[chain.length - 1] : "", digest)));
  }

  _refuse(device, code, reason) {
    this._events.push({ type: "refused", device, code, reason });
    return this._flush();
  }

  _flush() {
    const out = { send: this._out, events: this._events };
    this._out = [];
    this._events = [];
    return out;
  }
}
