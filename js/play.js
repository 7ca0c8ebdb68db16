// The play loop: the turn-taking of a deal on the table (a person's turn, a computer's, a
// friend's at another device, the hand-off between people at one device), the engine calls
// of a deal (each through ask(), which drops a reply for an earlier table) and the animation
// of what they return. The page's chrome (js/app.js) creates one and hands it itself: the
// table's reply (app.state), the drawing (app.draw), the words and the dialogs stay there.

import { sleep } from "./dom.js";
import { t, tOr, getLang } from "./i18n.js";
import { signalWords, actionLabel } from "./table.js";
// Chiamata's panels and words (js/chiamata.js), imported as a Chiamata deal starts
import { loadChiamata, chiamataIn } from "./later.js";
import * as store from "./storage.js";
import * as sound from "./sound.js";
import * as tips from "./tips.js";
import { errorText } from "./errors.js";
import { TableSeam } from "./seam.js";

// Pacing per speed (milliseconds): a card's flight, a computer's thinking pause (the engine
// thinks meanwhile), how long a full trick stays on the table, its collection, and the draw.
// The default is brisk: at most about 2.5 s from the person's play to their next turn in a two-player
// deal (bench/pace.py measures it); slow is still there.
export const SPEEDS = {
  slow: { play: 650, think: 1100, trick: 1700, collect: 600, draw: 480, stagger: 120 },
  normal: { play: 250, think: 350, trick: 620, collect: 250, draw: 220, stagger: 40 },
  fast: { play: 240, think: 260, trick: 550, collect: 260, draw: 200, stagger: 40 },
  instant: { play: 0, think: 0, trick: 0, collect: 0, draw: 0, stagger: 0 },
};

const $ = (id) => document.getElementById(id);

/** A reply for a game or a step that is no longer the table's: dropped, never shown. */
export class Stale extends Error {
  constructor() {
    super("stale");
    this.name = "Stale";
  }
}

export class PlayLoop {
  /** @param {any} app the page (js/app.js): its table reply, drawing, words and dialogs */
  constructor(app) {
    this.app = app;
    // The one owner of "which game and which step is current": bumped (bump()) whenever the
    // table is replaced (a new game, a resumed one, a taken-back move). Every request about the
    // table goes through ask(), which drops a reply that arrives for an earlier generation;
    // every loop and animation stops at its next step once its generation is gone.
    this.gen = 0;
    this.looping = null; // the generation whose loop (advance) runs now
    this.presentingFor = null; // the generation whose reply is being shown now
    this.busy = false;
    this.hinted = null;
    this.hintText = "";
    this.hideHand = false;
    this.handFocused = false;
    this.handoffSeat = undefined;
    this.lastReveal = null;
    // what a layer outside the loop (js/friends/) may do with the table: js/seam.js
    this.seam = new TableSeam(this);
  }

  pace() {
    return SPEEDS[this.app.prefs.speed] || SPEEDS.normal;
  }

  // ---- the current table -------------------------------------------------------------------
  /** A new table (another game, or the same one taken back): every older reply is stale. */
  bump() {
    this.gen++;
    this.busy = false;
    this.looping = null;
    this.seam.settled();
    return this.gen;
  }

  /**
   * A request about the game on the table. Rejects with Stale when the table moved on
   * before the reply came (a new game, an undo...), or when the worker says the game is no
   * longer its table: the caller then simply stops.
   */
  async ask(type, args = {}) {
    const gen = this.gen;
    const sent = { ...args, game: this.app.game };
    let reply;
    try {
      reply = await this.app.engine.call(type, sent);
    } catch (err) {
      if (gen !== this.gen || (err && err.code === "stale")) throw new Stale();
      throw err;
    }
    reply = this.seam.moved(type, reply, sent); // (told even if this page's table has moved on)
    if (gen !== this.gen) throw new Stale();
    this.app.checkStorage(reply);
    return reply;
  }

  // ---- a deal starts -----------------------------------------------------------------------
  async startShowing(reply) {
    const my = this.bump();
    this.app.game = reply.game ?? null;
    store.setTabGame(this.app.game);
    this.app.checkStorage(reply);
    this.app.state = reply;
    await this.app.learnOrder(reply.view.rules, reply.order);
    if (isChiamata(reply.view) && !chiamataIn()) {
      // its panels (the auction's, the call's) are drawn from it: in before the deal is
      await loadChiamata().catch(() => this.app.laterFailed());
    }
    if (my !== this.gen) return;
    this.app.summaryShown = false;
    this.lastReveal = null;
    this.hinted = null;
    this.hintText = "";
    this.app.state = reply;
    this.app.display = reply.seat;
    this.hideHand = false;
    const humans = this.app.humans();
    const turn = reply.view.turn;
    if (humans.length > 1 && reply.view.phase !== "over") {
      this.app.draw({ hideHand: true });
      // The device goes to the first person to play (the computer players play before).
      if (turn !== null && humans.includes(turn)) return this.showHandoff(turn);
      this.advance();
      return;
    }
    await this.showDeal();
    if (my === this.gen) this.advance();
  }

  async showDeal() {
    const v = this.app.state.view;
    this.app.draw();
    this.app.say(v.trump_card ? t("say.deal", { card: this.app.cardText(v.trump_card) }) : t("say.deal.nocard"));
    sound.play("deal");
    if (v.tricks_done === 0 && v.trick.length === 0) {
      await this.app.table.flip(new Map(), this.pace().draw, { stagger: this.pace().stagger });
    }
  }

  async nextDeal() {
    /** @type {HTMLDialogElement} */ ($("summary-dialog")).close();
    let reply;
    try {
      reply = await this.ask("next_deal", {});
    } catch (err) {
      if (!(err instanceof Stale)) this.app.noticeError(err);
      return;
    }
    await this.startShowing(reply);
  }

  // ---- the flow of play --------------------------------------------------------------------
  async advance() {
    const my = this.gen;
    if (this.looping === my) return;
    // A reply of this table still being shown: its caller goes on when it is done (a dialog
    // closed meanwhile must not start a second flow over the animation).
    if (this.presentingFor === my) return;
    this.looping = my;
    try {
      while (my === this.gen && this.app.state) {
        if (document.querySelector("dialog[open]") || !$("handoff").hidden) return;
        const st = this.app.state;
        const v = st.view;
        if (v.phase === "over") {
          this.busy = false;
          this.app.draw();
          this.app.ui("over");
          await sleep(this.pace().trick / 2);
          if (my === this.gen && !this.app.summaryShown) this.app.showSummary();
          return;
        }
        const turn = v.turn;
        if (turn === null || turn === undefined) return;
        const seat = st.seats[turn];
        // another device plays (js/friends/); a friend's seat is never this page's to show
        if (this.app.friends ? this.app.friends.waits(turn) : seat.kind === "friend") {
          this.busy = true;
          this.app.draw();
          this.app.ui("busy");
          return;
        }
        if (seat.kind === "bot") {
          this.busy = true;
          this.app.ui("busy");
          this.app.draw();
          const pause = sleep(this.pace().think); // the computer's pause and its thinking overlap
          let reply;
          try {
            reply = await this.ask("bot_step", { seat: this.app.display, lang: getLang(), reasons: this.app.prefs.reasons === true });
            await pause;
          } catch (err) {
            if (err instanceof Stale || my !== this.gen) return;
            this.busy = false;
            this.app.notice(t("notice.nobot", { level: tOr(`level.${seat.level}`, seat.level), message: errorText(err) }), 15000);
            this.app.ui("error");
            return;
          }
          if (my !== this.gen) return;
          if (this.app.prefs.reasons && reply.bot) {
            this.hintText = t("table.bot.says", { name: this.app.names()[reply.bot.seat], reason: this.app.coach.words(reply.bot.reason) });
          }
          if (!(await this.present(reply, my))) return;
          continue;
        }
        // a person's turn
        const humans = this.app.humans();
        if (turn !== this.app.display || (humans.length > 1 && this.hideHand)) {
          if (humans.length > 1) {
            this.app.draw({ hideHand: true });
            this.showHandoff(turn);
            return;
          }
          let r;
          try {
            r = await this.ask("state", { seat: turn });
          } catch (err) {
            if (err instanceof Stale) return;
            throw err;
          }
          this.app.state = r;
          this.app.display = turn;
          this.app.draw();
          continue;
        }
        this.busy = false;
        this.app.draw();
        // the turn come back: the focus to the hand where the last play left from it, unless the
        // person has since gone elsewhere (the top bar's language menu, the settings)
        const now = document.activeElement;
        const away = now && now !== document.body && !this.app.table.root.contains(now);
        if (this.handFocused && !away && !document.querySelector("dialog[open]")) this.app.table.focusHand();
        this.app.ui("waiting");
        sound.play("turn");
        tips.atTurn(v, this.app.ctx()); // js/tips.js: a first deal's tips, each once
        const playable = v.legal.filter((a) => /^[A2-9TJHK][DCSB]$/.test(a)).map((c) => this.app.cardText(c));
        if (!playable.length && v.chiamata && chiamataIn()) this.app.say(chiamataIn().turnWords(v, this.app.ctx()));
        else this.app.say(t("say.turn", { cards: playable.join(", ") }));
        return;
      }
    } finally {
      if (this.looping === my) this.looping = null;
      this.seam.settled();
    }
  }

  async play(action) {
    const st = this.app.state;
    if (!st || this.busy || st.view.turn !== this.app.display || !st.view.legal.includes(action)) return;
    const focused = document.activeElement;
    this.handFocused = !!(focused && focused.closest && (focused.closest(".hand") || focused.closest(".extra-actions") || focused.closest(".board")));
    this.busy = true;
    this.app.ui("busy");
    this.hinted = null;
    this.hintText = "";
    const my = this.gen;
    let reply;
    try {
      reply = await this.ask("act", { seat: this.app.display, action });
    } catch (err) {
      if (err instanceof Stale) return;
      this.busy = false;
      this.app.noticeError(err);
      this.app.draw();
      this.app.ui("waiting");
      return;
    }
    if (await this.present(reply, my)) this.advance();
  }

  /**
   * Show one reply of generation `my`: the new plays fly in, a full trick stays, is collected,
   * cards are drawn. Stops at the first step after the generation moved on (false then): an
   * older table is never drawn or written back over the current one.
   */
  async present(reply, my) {
    if (my !== this.gen) return false;
    this.presentingFor = my;
    try {
      return await this.presentSteps(reply, my);
    } finally {
      if (this.presentingFor === my) this.presentingFor = null;
      this.seam.settled();
    }
  }

  async presentSteps(reply, my) {
    const prev = this.app.state;
    this.app.state = reply;
    const pv = prev && prev.view;
    const nv = reply.view;
    const sameDeal = pv && prev.match.deal === reply.match.deal && pv.seat === nv.seat
      && nv.events.length >= pv.events.length;
    if (!sameDeal) {
      this.app.draw();
      return true;
    }
    const fresh = nv.events.slice(pv.events.length);
    this.announce(fresh);
    sound.events(fresh);
    const pace = this.pace();
    const reveal = fresh.find((e) => e.type === "partner");
    const ti = fresh.findIndex((e) => e.type === "trick");
    if (ti >= 0) {
      const plays = fresh.slice(0, ti).filter((e) => e.type === "play");
      const frame = withPlays(pv, plays);
      if (reveal) withSides(frame, nv);
      const winner = fresh[ti].winner;
      let snap = this.app.table.snapshot();
      this.app.state = { ...reply, view: frame };
      this.app.draw({ trickWinner: winner, trickPoints: fresh[ti].points });
      this.markWinner(winner);
      await this.app.table.flip(snap, pace.play);
      if (my !== this.gen) return false;
      if (reveal) await this.revealPartner(reveal, nv);
      if (my !== this.gen) return false;
      await sleep(pace.trick);
      if (my !== this.gen) return false;
      await this.app.table.collect(winner, pace.collect);
      if (my !== this.gen) return false;
      this.app.state = reply;
      snap = this.app.table.snapshot();
      this.app.draw();
      await this.app.table.flip(snap, pace.draw, { stagger: pace.stagger / 2 });
    } else {
      const snap = this.app.table.snapshot();
      this.app.draw();
      await this.app.table.flip(snap, pace.play);
      if (my !== this.gen) return false;
      if (reveal) await this.revealPartner(reveal, nv);
    }
    return my === this.gen;
  }

  /** The called card has fallen: everyone learns who the partner is. */
  async revealPartner(e, view) {
    const text = chiamataIn() ? chiamataIn().revealWords(e, view, this.app.ctx()) : "";
    this.lastReveal = { seat: e.seat, text, deal: this.app.state.match.deal };
    this.app.table.reveal(e.seat, text, 2600);
    this.app.say(text);
    await sleep(Math.max(this.pace().trick, this.pace().think));
  }

  markWinner(seat) {
    for (const el of this.app.table.el.trick.querySelectorAll(".trick-card")) {
      const mine = this.app.table.view.trick.find((p) => p.card === el.dataset.key);
      if (mine && mine.seat === seat) el.classList.add("winning");
    }
  }

  announce(events) {
    const names = this.app.names();
    const parts = [];
    const ms = Math.max(1800, this.pace().trick * 2);
    for (const e of events) {
      if (e.type === "play") {
        parts.push(e.seat === this.app.display && this.app.state.seats[e.seat].kind === "human"
          ? t("say.you.play", { card: this.app.cardText(e.card) })
          : t("say.play", { name: names[e.seat], card: this.app.cardText(e.card) }));
      } else if (e.type === "trick") {
        const you = e.winner === this.app.display && this.app.state.seats[e.winner].kind === "human" && this.app.humans().length === 1;
        parts.push(you ? t("say.you.trick", { points: e.points }) : t("say.trick", { name: names[e.winner], points: e.points }));
      } else if (e.type === "exchange") {
        const txt = t("say.exchange", { name: names[e.seat], gave: this.app.cardText(e.gave), took: this.app.cardText(e.took) });
        parts.push(txt);
        this.app.table.bubble(e.seat, txt, ms);
      } else if (e.type === "signal") {
        const txt = e.signal ? t("say.signal", { name: names[e.seat], what: signalWords(e.signal, getLang(), this.app.style()) })
          : t("say.signal.hidden", { name: names[e.seat] });
        parts.push(txt);
        this.app.table.bubble(e.seat, txt, ms * 1.5);
      } else if (e.type === "rebury") {
        parts.push(t("say.rebury", { card: this.app.cardText(e.card) }));
      } else if (e.type === "end") {
        parts.push(t("say.end"));
      } else if (this.app.state.view.chiamata && chiamataIn()) {
        const words = chiamataIn().auctionWords(e, this.app.state.view, this.app.ctx());
        if (words) {
          parts.push(words.say);
          if (words.bubble && e.seat !== this.app.display) this.app.table.bubble(e.seat, words.bubble, ms * 0.6);
        }
      }
    }
    if (parts.length) this.app.say(parts.join(" "));
  }

  async hint() {
    const st = this.app.state;
    if (!st || this.busy || st.view.turn !== this.app.display) return;
    try {
      const res = await this.ask("hint", { seat: this.app.display, lang: getLang() });
      const words = /^[A2-9TJHK][DCSB]$/.test(res.action) ? this.app.cardText(res.action)
        : (st.view.chiamata && chiamataIn() && chiamataIn().chiamataActionLabel(res.action, st.view, this.app.ctx())) || actionLabel(res.action, getLang(), this.app.style());
      this.hinted = res.action;
      this.hintText = t("table.hint.says", { card: words, reason: this.app.coach.words(res.reason) });
      tips.hintAsked(); // the hint's line takes the tip's room
      this.app.draw();
      this.app.say(this.hintText);
    } catch (err) {
      if (!(err instanceof Stale)) this.app.noticeError(err);
    }
  }

  // ---- people sharing a device -------------------------------------------------------------
  showHandoff(seat) {
    this.handoffSeat = seat;
    this.fillHandoff(seat);
    const box = $("handoff");
    box.hidden = false;
    this.app.ui("handoff");
    $("handoff-go").focus();
  }

  fillHandoff(seat) {
    const name = this.app.names()[seat];
    $("handoff-title").textContent = t("handoff.title", { name });
    $("handoff-text").textContent = t("handoff.hidden", { name });
    $("handoff-go").textContent = t("handoff.tap");
  }

  async handoffDone() {
    const seat = this.handoffSeat;
    $("handoff").hidden = true;
    this.app.ui("busy");
    const my = this.gen;
    let reply;
    try {
      reply = await this.ask("state", { seat });
    } catch (err) {
      if (err instanceof Stale) return;
      this.app.noticeError(err);
      return;
    }
    this.app.state = reply;
    this.app.display = seat;
    this.hideHand = false;
    this.hinted = null;
    this.hintText = "";
    const v = reply.view;
    if (v.tricks_done === 0 && v.trick.length === 0 && v.events.length <= 2) await this.showDeal();
    else this.app.draw();
    if (my !== this.gen) return;
    this.advance();
    this.app.table.focusHand();
  }
}

/** Chiamata: the sides as the reply knows them (the partner just revealed), on an earlier frame. */
function withSides(frame, view) {
  frame.side_of_seat = view.side_of_seat;
  frame.sides = view.sides;
  frame.chiamata = view.chiamata;
  frame.side_points = view.sides.map((side) => side.reduce((sum, s) => sum + (frame.points[s] || 0), 0));
  return frame;
}

/** The previous view with `plays` added to its trick: the full trick before it is collected. */
function withPlays(view, plays) {
  const v = { ...view, trick: [...view.trick], hand: [...view.hand], hand_sizes: [...view.hand_sizes],
    known: view.known.map((k) => [...k]), legal: [], turn: null };
  for (const p of plays) {
    v.trick.push({ seat: p.seat, card: p.card });
    if (p.seat === v.seat) v.hand = v.hand.filter((c) => c !== p.card);
    v.hand_sizes[p.seat] = Math.max(0, v.hand_sizes[p.seat] - 1);
    const k = v.known[p.seat].indexOf(p.card);
    if (k >= 0) v.known[p.seat].splice(k, 1);
  }
  return v;
}

/** Whether `view` is of a Chiamata deal (its rules' mode; js/table.js MODE_HOOKS). */
function isChiamata(view) {
  return !!(view && (view.chiamata || (view.rules && view.rules.mode === "chiamata")));
}
