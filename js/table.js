//# allFunctionsCalledOnLoad
// The table: seats around the felt, talon and trump card, the trick, the hand, the actions.
//
// TableView draws one *frame* from a seat's view (the bridge's `view`, possibly a frame the
// controller derived from two replies, e.g. a full trick before it is collected). It never
// decides anything about the game: which cards are playable comes from `view.legal`.
//
// Motion uses FLIP: every card carries data-key (its code, or a per-seat key for a face-down
// card); before a frame is drawn the positions are measured, after it each card slides from
// where it was (or from data-from: the talon or a seat) to where it is now.

import { cardName, suitName } from "./cards.js";
import { h, clear, svgBox, sleep } from "./dom.js";
import { placeHand } from "./handslots.js";
import { t, tOr } from "./i18n.js";
import { cardFace, seatVector, seatPlaces, hash, teamGame, cssEscape, matchText, turnText, actionLabel, signalWords, levelName, levelBadge } from "./table-parts.js";

// what other modules import of the table's parts, from here as before
export { cardFace, seatVector, seatPlaces, matchText, actionLabel, signalWords };

// Portrait phones: all other seats share the top row so the trick gets the whole width.
const NARROW = window.matchMedia("(max-width: 560px) and (orientation: portrait), (max-height: 520px) and (orientation: landscape)");


/**
 * Panels for the phases before play, by phase name ("auction", "call"): a function
 * (box, view, ctx) that draws into the middle of the felt (the trick's place, empty then).
 * ctx carries act(action) and hint() besides the frame's usual context. Briscola Chiamata
 * registers its auction and call panels here (js/chiamata.js); the actions they offer are
 * not repeated as generic buttons.
 */
export const PHASE_PANELS = {};

/**
 * Hooks of a game mode (by `view.rules.mode`), all optional:
 *   seat(root, seat, view, ctx, badges)  classes of a seat box, badges pushed onto `badges`
 *   pile(el, seat, view, ctx) -> bool     draws the pile label itself (true) or not
 *   center(deckBox, view, ctx) -> bool    draws the talon's spot itself (true) or not
 *   matchText(view, ctx) -> string        the score bar's match entry
 *   trumpText(view, ctx) -> string|null   the trump chip's words when there is no trump
 */
export const MODE_HOOKS = {};

export class TableView {
  constructor(root, handlers) {
    this.root = root;
    this.on = handlers; // {card(code), action(text), hint(), lastTrick()}
    this.n = 0;
    this.me = -1;
    this.motion = 1; // duration multiplier; 0: no motion
    this.focusKey = null;
    root.addEventListener("keydown", (e) => this._onKey(e));
    const relayout = () => {
      if (this.view && this.n >= 4 && NARROW.matches !== this.compact) {
        this.n = 0; // rebuild at the next frame
        this.render(this.view, this.ctx);
      }
    };
    if (NARROW.addEventListener) NARROW.addEventListener("change", relayout);
  }

  // ---- structure -------------------------------------------------------------------------
  build(n, me) {
    this.n = n;
    this.me = me;
    this.compact = n >= 4 && NARROW.matches;
    this.drawn = new Map();
    const root = clear(this.root);
    root.className = `table n${n}${this.compact ? " compact" : ""}`;
    this.el = {};
    this.seatEls = new Map();

    const bar = h("div", { class: "scorebar" });
    this.el.deal = h("span", { class: "sb-deal" });
    this.el.match = h("span", { class: "sb-match" });
    this.el.level = h("span", { class: "sb-level" });
    this.el.turn = h("span", { class: "sb-turn" });
    this.el.sides = h("span", { class: "sb-sides" });
    this.el.trumpChip = h("span", { class: "sb-trump" });
    bar.append(h("span", { class: "sb-left" }, this.el.deal, this.el.match, this.el.level), this.el.turn,
      h("span", { class: "sb-right" }, this.el.sides, this.el.trumpChip));

    const felt = h("div", { class: "felt" });
    const places = seatPlaces(n, this.compact);
    for (const place of ["top", "left", "right"]) {
      const box = h("div", { class: `seats seats-${place}` });
      for (const k of places[place]) {
        const seat = (me + k) % n;
        const el = this._seatBox(seat, place);
        box.append(el.root);
        this.seatEls.set(seat, el);
      }
      felt.append(box);
    }
    const center = h("div", { class: "center" });
    this.el.deck = h("div", { class: "deck", data: { anchor: "talon" } });
    this.el.trick = h("div", { class: "trick", attrs: { role: "group" } });
    this.el.board = h("div", { class: "board", attrs: { role: "region" } });
    center.append(this.el.deck, this.el.trick, this.el.board);
    this.el.center = center;
    this.el.banner = h("div", { class: "reveal-banner", attrs: { "aria-hidden": "true" } });
    felt.append(center, this.el.banner);

    const mine = h("div", { class: "mine" });
    this.el.mybar = h("div", { class: "mybar", attrs: { role: "group" } }); // named by render()
    this.el.myname = h("span", { class: "name" });
    this.el.mybadges = h("span", { class: "badges" });
    this.el.mypile = h("span", { class: "pile mypile", data: { key: `pile-${me}`, anchor: `pile-${me}` }, attrs: { role: "group" } });
    this.el.mybar.append(this.el.myname, this.el.mybadges, this.el.mypile);
    this.el.hand = h("div", { class: "hand", attrs: { role: "group", tabindex: "-1" }, data: { anchor: `seat-${me}` } }); // (focused once empty)
    this.el.actions = h("div", { class: "actions" });
    this.el.extra = h("div", { class: "extra-actions" });
    this.el.hintBtn = h("button", { class: "btn small hint-btn", type: "button", on: { click: () => this.on.hint() } });
    this.el.lastBtn = h("button", { class: "btn small", type: "button", on: { click: () => this.on.lastTrick() } });
    this.el.undoLabel = h("span", { class: "label" });
    this.el.undoBtn = h("button", { class: "btn small undo-btn", type: "button", on: { click: () => this.on.undo && this.on.undo() } },
      svgBox("span", '<svg viewBox="0 0 24 24" aria-hidden="true"><path d="M9 14 4 9l5-5"/><path d="M4 9h10a6 6 0 0 1 0 12h-3"/></svg>', { class: "undo-icon" }),
      this.el.undoLabel);
    this.el.actions.append(this.el.extra, h("span", { class: "spacer" }), this.el.undoBtn, this.el.lastBtn, this.el.hintBtn);
    this.el.hintLine = h("p", { class: "hint-line", attrs: { "aria-live": "off" } });
    this.el.phase = h("div", { class: "phase-panel" });
    mine.append(this.el.mybar, this.el.phase, this.el.hand, this.el.actions, this.el.hintLine);

    root.append(bar, felt, mine);
    this.seatEls.set(me, { root: this.el.mybar, pile: this.el.mypile, mine: true });
  }

  _seatBox(seat, place) {
    const root = h("div", { class: `seat place-${place}`, data: { seat }, attrs: { role: "group" } }); // named by render()
    const name = h("span", { class: "name" });
    const badges = h("span", { class: "badges" });
    const hand = h("div", { class: "seat-hand", data: { anchor: `seat-${seat}` } });
    const pile = h("span", { class: "pile", data: { key: `pile-${seat}`, anchor: `pile-${seat}` }, attrs: { role: "group" } }); // named by _pile
    const bubble = h("span", { class: "bubble", attrs: { "aria-hidden": "true" } });
    root.append(h("div", { class: "seat-head" }, name, badges), hand, pile, bubble);
    return { root, name, badges, hand, pile, bubble };
  }

  // ---- drawing a frame -------------------------------------------------------------------
  /**
   * ctx: {names[], kinds[], style, lang, match, canPlay, showPoints, hinted, busy}
   */
  render(view, ctx) {
    const n = view.players;
    const me = view.seat;
    if (n !== this.n || me !== this.me) this.build(n, me);
    this.view = view;
    this.ctx = ctx;
    this.mode = MODE_HOOKS[view.rules && view.rules.mode] || {};
    const { style, lang } = ctx;
    const active = /** @type {HTMLElement | null} */ (document.activeElement);
    if (active && this.root.contains(active) && active.dataset && active.dataset.key) {
      this.focusKey = active.dataset.key;
    }

    // score bar
    const dealNo = (ctx.match ? ctx.match.deal : 0) + 1;
    this.el.deal.textContent = t("table.deal", { n: dealNo });
    this.el.match.textContent = this.mode.matchText ? this.mode.matchText(view, ctx) : matchText(ctx);
    this.el.turn.textContent = turnText(view, ctx);
    // the computers' level, said once for the table (app.css shows it where the seats cannot)
    const levels = [...new Set(ctx.kinds.filter((k) => k && k.kind === "bot").map((k) => levelName(k.level, ctx.model)))];
    this.el.level.textContent = levels.length ? t("table.level", { level: levels.join(" / ") }) : "";
    this._sides(view, ctx);
    clear(this.el.trumpChip);
    if (view.trump_suit) {
      this.el.trumpChip.append(
        h("span", { class: `suit-glyph suit-${view.trump_suit}`, attrs: { "aria-hidden": "true" } }),
        `${t("table.trump")}: ${suitName(view.trump_suit, lang, style)}`);
    } else if (this.mode.trumpText) {
      const words = this.mode.trumpText(view, ctx);
      if (words) this.el.trumpChip.append(words);
    }

    // seats
    for (let s = 0; s < n; s++) {
      const el = this.seatEls.get(s);
      if (!el) continue;
      const isTurn = view.turn === s && view.phase !== "over";
      el.root.classList.toggle("turn", isTurn);
      const mySide = view.side_of_seat ? view.side_of_seat[me] : -1;
      const partner = !this.mode.seat && s !== me && mySide >= 0 && view.side_of_seat[s] === mySide
        && view.sides && view.sides[mySide] && view.sides[mySide].length > 1;
      el.root.classList.toggle("partner", !!partner);
      const badges = [];
      if (view.dealer === s) badges.push(h("span", { class: "badge dealer", text: t("seat.dealer") }));
      if (partner) badges.push(h("span", { class: "badge partner", text: t("seat.partner") }));
      if (this.mode.seat) this.mode.seat(el.root, s, view, ctx, badges);
      if (ctx.kinds[s] && ctx.kinds[s].kind === "bot") badges.push(levelBadge(ctx.kinds[s].level, ctx.model));
      const won = (view.tricks || []).filter((tr) => tr.winner === s).length;
      const pts = view.points ? view.points[s] : 0;
      if (el.mine) {
        this.el.mybar.setAttribute("aria-label", (this.el.myname.textContent = ctx.names[s]));
        clear(this.el.mybadges).append(...badges);
        this._pile(this.el.mypile, s, won, pts, ctx, style, lang);
        continue;
      }
      el.name.textContent = ctx.names[s];
      clear(el.badges).append(...badges);
      this._pile(el.pile, s, won, pts, ctx, style, lang);
      this._seatHand(el.hand, view, s, style, lang);
      el.root.setAttribute("aria-label", `${ctx.names[s]}: ${t("seat.cards", { n: view.hand_sizes[s] })}`);
    }

    this._deck(view, style, lang);
    this._trick(view, ctx, style, lang);
    this._hand(view, ctx, style, lang);
    this._actions(view, ctx);

    if (this.focusKey) {
      const el = this.el.hand.querySelector(`[data-key="${cssEscape(this.focusKey)}"]`);
      if (el && active && this.root.contains(active) === false && active !== document.body) {
        // focus is elsewhere (a dialog): leave it
      } else if (el && el !== active) el.focus({ preventScroll: true });
    }
  }

  /**
   * Whether a part of the table is already on the page as `key` would draw it; if not, the
   * part is recorded as drawn from `key` and the caller draws it. Only what changed is drawn
   * again: a play redraws its trick and one hand, not every card on the table.
   */
  _unchanged(part, key) {
    if (this.drawn.get(part) === key) return true;
    this.drawn.set(part, key);
    return false;
  }

  _sides(view, ctx) {
    const box = clear(this.el.sides);
    if (!ctx.showPoints || !teamGame(view)) return;
    const mySide = view.side_of_seat[view.seat];
    view.sides.forEach((side, i) => {
      const label = i === mySide ? t("table.team.us") : t("table.team.them");
      const words = `${label}: ${t("table.points", { n: view.side_points[i] })}`;
      box.append(h("span", { class: `side-chip ${i === mySide ? "us" : "them"}`, title: words, attrs: { role: "group", "aria-label": words } },
        h("span", { class: "label", text: label }), h("b", { text: String(view.side_points[i]) }),
        h("span", { class: "unit", text: t("table.points.unit") })));
    });
  }

  _pile(el, seat, won, pts, ctx, style, lang) {
    const part = `pile-${seat}`;
    if (this.mode.pile && this.mode.pile(el, seat, this.view, ctx)) {
      this.drawn.delete(part);
      return;
    }
    const yours = seat === this.view.seat && ctx.kinds[seat].kind === "human" && ctx.humans === 1;
    const team = teamGame(this.view);
    if (this._unchanged(part, [won, pts, !!ctx.showPoints, team, yours, ctx.names[seat], style, lang].join("|"))) return;
    clear(el);
    el.classList.toggle("empty", won === 0);
    el.append(cardFace(null, style, lang, "p", "pile-card")); // kept, unseen while empty: the seat's width holds
    const tricks = won === 1 ? t("seat.pile.one") : t("seat.pile", { n: won });
    const count = h("span", { class: "pile-count", text: tricks });
    if (ctx.showPoints && !team) {
      // "2 tricks · 14 points"; the narrowest seat boxes drop the word (app.css), not the number
      const [before, after] = t("table.points", { n: "\u0000" }).split("\u0000");
      count.append(" · ", h("span", { class: "unit", text: before }), String(pts), h("span", { class: "unit", text: after }));
    }
    el.append(count);
    el.setAttribute("aria-label", yours ? t("seat.pile.aria.you", { n: won }) : t("seat.pile.aria", { name: ctx.names[seat], n: won }));
  }

  _seatHand(box, view, s, style, lang) {
    const size = view.hand_sizes[s];
    const known = (view.known && view.known[s]) || [];
    // face up from the start (scoperta): larger; a card known later keeps the seat's size
    const open = view.hands_visible && view.hands_visible[s] && !!(view.rules && view.rules.open_hands);
    if (this._unchanged(`hand-${s}`, [size, known.join(","), !!open, this.ctx.style, style, lang].join("|"))) return;
    clear(box);
    box.classList.toggle("open", !!open);
    box.classList.toggle("known", !open && known.length > 0);
    box.classList.toggle("many", size > 4);
    for (let i = 0; i < size; i++) {
      const code = i < known.length ? known[i] : null;
      const key = code || `x${s}-${i}`;
      const slot = h("div", { class: "slot mini", data: { key, from: "talon" } },
        cardFace(code, this.ctx.style, lang, `m${s}`));
      if (code) slot.title = cardName(code, lang, style);
      box.append(slot);
    }
  }

  _deck(view, style, lang) {
    if (this.mode.center && this.mode.center(this.el.deck, view, this.ctx)) {
      this.drawn.delete("deck");
      return;
    }
    if (this._unchanged("deck", [view.talon_size, view.trump_card, view.original_trump_card, view.trump_suit,
      view.talon_next, style, lang].join("|"))) return;
    const deck = clear(this.el.deck);
    deck.className = "deck";
    deck.dataset.anchor = "talon";
    deck.removeAttribute("title");
    const size = view.talon_size || 0;
    const faceDown = size - (view.trump_card ? 1 : 0);
    deck.classList.toggle("empty", size === 0);
    deck.hidden = size === 0 && !view.trump_card && !view.original_trump_card; // Chiamata: no talon
    const pile = h("div", { class: "talon" });
    if (view.trump_card) {
      const tr = h("div", { class: "slot trump-card", data: { key: view.trump_card } },
        cardFace(view.trump_card, style, lang, "tr"));
      tr.title = `${t("table.trump")}: ${cardName(view.trump_card, lang, style)}`;
      tr.setAttribute("role", "img"); // in the accessibility tree by name, not only announced once
      tr.setAttribute("aria-label", tr.title);
      pile.append(tr);
    } else if (view.original_trump_card && view.trump_suit) {
      pile.append(h("div", { class: "slot trump-card ghost" }, cardFace(view.original_trump_card, style, lang, "g")));
    }
    const layers = Math.min(4, Math.ceil(faceDown / 8));
    for (let i = 0; i < layers; i++) {
      const top = i === layers - 1;
      const code = top && view.talon_next ? view.talon_next : null;
      pile.append(h("div", { class: `slot talon-card layer${i}`, data: top && code ? { key: code } : {}, attrs: { "aria-hidden": "true" } },
        cardFace(code, style, lang, `k${i}`)));
    }
    deck.append(pile);
    deck.append(h("span", { class: "talon-count", text: size ? t("table.talon", { n: size }) : t("table.talon.empty") }));
    deck.setAttribute("aria-label", t("table.talon.aria", { n: size }));
    deck.setAttribute("role", "group"); // a group, not an image: the trump card inside keeps its name
  }

  _trick(view, ctx, style, lang) {
    const n = view.players;
    const plays = view.trick || [];
    // who took the trick, in words, until the next card is played
    const last = (view.tricks || [])[view.tricks ? view.tricks.length - 1 : -1];
    const note = ctx.trickWinner !== undefined && ctx.trickWinner !== null
      ? { winner: ctx.trickWinner, points: ctx.trickPoints }
      : !plays.length && last && view.phase !== "over" ? last : null;
    const shown = note && note.points !== undefined ? note : null;
    const you = !!shown && shown.winner === view.seat && ctx.kinds[shown.winner].kind === "human" && ctx.humans === 1;
    if (this._unchanged("trick", JSON.stringify([plays, view.seat, n, ctx.trickWinner, ctx.trickWinnerIndex,
      shown && [shown.winner, shown.points, you], plays.map((p) => ctx.names[p.seat]),
      shown && ctx.names[shown.winner], style, lang]))) return;
    const box = clear(this.el.trick);
    box.setAttribute("aria-label", t("table.trick"));
    const seen = new Map();
    plays.forEach((p, i) => {
      const k = (p.seat - view.seat + n) % n;
      const again = seen.get(p.seat) || 0;
      seen.set(p.seat, again + 1);
      const v = seatVector(k, n);
      const r = again ? 0.5 : 1;
      const slot = h("div", { class: "slot trick-card", data: { key: p.card, from: `seat-${p.seat}` } },
        cardFace(p.card, style, lang, "t"));
      // centres stay inside the trick area whatever its size
      const fx = (v.x * r * 0.9 + (again ? 0.12 : 0)).toFixed(3);
      const fy = (v.y * r * 0.9 + (again ? 0.1 : 0)).toFixed(3);
      slot.style.left = `calc(50% + ${fx} * (50% - var(--trick-w) * .55))`;
      slot.style.top = `calc(50% + ${fy} * (50% - var(--trick-w) * .85))`;
      slot.style.zIndex = String(10 + i);
      slot.firstElementChild.style.rotate = `${(hash(p.card) % 17) - 8}deg`;
      slot.title = `${ctx.names[p.seat]}: ${cardName(p.card, lang, style)}`;
      slot.setAttribute("role", "img");
      slot.setAttribute("aria-label", slot.title);
      if (ctx.trickWinner === p.seat && i === ctx.trickWinnerIndex) slot.classList.add("winning");
      box.append(slot);
    });
    if (shown) {
      box.append(h("p", { class: "trick-note", text: you ? t("table.took.you", { points: shown.points })
        : t("table.took", { name: ctx.names[shown.winner], points: shown.points }) }));
    }
  }

  _hand(view, ctx, style, lang) {
    const legal = new Set(view.legal || []);
    // hand_hidden: the engine left the hand out (people sharing the device, between turns)
    const hidden = ctx.hideHand || view.hand_hidden;
    const cards = hidden ? Array.from({ length: view.hand_sizes[view.seat] || 0 }, () => null) : view.hand;
    const label = view.seat === ctx.firstHuman || ctx.humans <= 1
      ? t("table.hand") : t("table.hand.of", { name: ctx.names[view.seat] });
    const points = ctx.showPoints && ctx.cardPoints ? cards.map((c) => (c && ctx.cardPoints[c]) || 0) : null;
    if (this._unchanged("hand", JSON.stringify([cards, view.seat, cards.map((c) => !!c && ctx.canPlay && legal.has(c)),
      ctx.hinted, points, this.focusKey, label, style, lang]))) return;
    const at = document.activeElement === this.el.hand ? 0 : [...this.el.hand.children].indexOf(document.activeElement); // kept in the hand below
    const box = clear(this.el.hand);
    box.setAttribute("aria-label", label);
    box.style.setProperty("--count", String(Math.max(2, cards.length)));
    let tabSet = false;
    const focusable = [];
    cards.forEach((code, i) => {
      const playable = !!code && ctx.canPlay && legal.has(code);
      const btn = h("button", {
        class: ["slot", "hand-card", playable ? "playable" : "", ctx.hinted === code ? "hinted" : ""],
        type: "button",
        data: { key: code || `x${view.seat}-${i}`, from: "talon", code: code || "" },
        attrs: {
          "aria-label": code ? cardName(code, lang, style) + (ctx.showPoints && ctx.cardPoints && ctx.cardPoints[code]
            ? ` (${ctx.cardPoints[code]})` : "") : t("table.hand"),
          "aria-disabled": playable ? "false" : "true",
        },
        on: { click: () => { if (playable) this.on.card(code); } },
      }, cardFace(code, style, lang, "h"));
      btn.tabIndex = -1;
      focusable.push(btn);
      box.append(btn);
    });
    placeHand(box, focusable, cards, (this.places = this.places || {}), view.seat); // a long hand: js/handslots.js
    // roving tabindex: one card in the tab order
    if (focusable.length) {
      let idx = focusable.findIndex((b) => b.dataset.key === this.focusKey);
      if (idx < 0 && at >= 0) idx = Math.min(at, focusable.length - 1);
      if (idx < 0) idx = focusable.findIndex((b) => b.classList.contains("playable"));
      if (idx < 0) idx = 0;
      focusable[idx].tabIndex = 0;
      tabSet = true;
      if (at >= 0) focusable[idx].focus({ preventScroll: true }); // the same card, else the one in its place: never <body>
    } else if (at >= 0) box.focus({ preventScroll: true }); // its last card played, the others' to come (a friend's): the hand itself
    return tabSet;
  }

  _actions(view, ctx) {
    // Phases other than play (Chiamata's auction and call): a panel drawn by the renderer
    // registered for that phase; its actions are the buttons below, from view.legal.
    const panel = clear(this.el.phase);
    const board = clear(this.el.board);
    board.className = "board";
    board.removeAttribute("aria-label");
    const phaseRenderer = PHASE_PANELS[view.phase];
    if (phaseRenderer) {
      phaseRenderer(board, view, { ...ctx, act: (a) => this.on.action(a), hint: () => this.on.hint() });
    } else if (view.phase !== "play" && view.phase !== "over") panel.textContent = tOr(`phase.${view.phase}`, view.phase);
    this.el.center.classList.toggle("boarded", !!phaseRenderer);
    this.el.actions.hidden = !!phaseRenderer;
    const extra = clear(this.el.extra);
    const legal = view.legal || [];
    if (ctx.canPlay && !phaseRenderer) {
      const numeric = legal.filter((a) => /^bid-\d\d+$/.test(a));
      for (const a of legal) {
        if (/^[A2-9TJHK][DCSB]$/.test(a)) continue;
        if (numeric.length > 3 && numeric.includes(a)) continue;
        extra.append(h("button", {
          class: "btn action", type: "button", text: actionLabel(a, ctx.lang, ctx.style),
          data: { action: a }, on: { click: () => this.on.action(a) },
        }));
      }
      if (numeric.length > 3) {
        // many point bids: one list and one button
        const sel = h("select", { class: "bid-select", attrs: { "aria-label": t("act.bid.points", { n: "" }).trim() } },
          numeric.map((a) => h("option", { value: a, text: actionLabel(a, ctx.lang, ctx.style) })));
        extra.append(sel, h("button", { class: "btn action", type: "button", text: t("act.bid"),
          on: { click: () => this.on.action(sel.value) } }));
      }
    }
    extra.classList.toggle("many", extra.childElementCount > 4);
    this.el.hintBtn.textContent = t("table.hint");
    this.el.hintBtn.disabled = !ctx.canPlay;
    this.el.lastBtn.textContent = t("table.lasttrick");
    // ctx.undo: null (no undo here: hot-seat, deal over), false (not now), true
    this.el.undoLabel.textContent = t("table.undo");
    this.el.undoBtn.setAttribute("aria-label", t("table.undo"));
    this.el.undoBtn.title = t("table.undo");
    // the deal over: the button stays where it was (disabled), the row does not move
    if (view.phase !== "over") this.el.undoBtn.hidden = ctx.undo === null || ctx.undo === undefined;
    this.el.undoBtn.disabled = ctx.undo !== true;
    this.el.lastBtn.disabled = !(view.tricks && view.tricks.length);
    this.el.hintLine.textContent = ctx.hintText || "";
    this.el.hintLine.classList.toggle("empty", !ctx.hintText);
    this.el.hintLine.classList.toggle("long", (ctx.hintText || "").length > 150); // smaller, in its room
    this.root.classList.toggle("can-play", !!ctx.canPlay && legal.some((a) => /^[A2-9TJHK][DCSB]$/.test(a)));
    this.root.classList.toggle("my-turn", !!ctx.canPlay);
    this.root.classList.toggle("over", view.phase === "over");
    this.root.dataset.phase = view.phase;
    this.root.dataset.mode = (view.rules && view.rules.mode) || "classic";
  }

  bubble(seat, text, ms) {
    const el = this.seatEls.get(seat);
    if (!el) return;
    const target = el.bubble || null;
    if (!target) {
      this.el.hintLine.textContent = text;
      return;
    }
    target.textContent = text;
    target.classList.add("show");
    clearTimeout(target._timer);
    target._timer = setTimeout(() => target.classList.remove("show"), ms);
  }

  /** A moment to remember: `seat` glows and `text` shows across the felt for `ms`. */
  reveal(seat, text, ms) {
    const el = this.seatEls.get(seat);
    const banner = this.el.banner;
    banner.textContent = text;
    banner.dataset.seat = String(seat);
    banner.classList.remove("show");
    void banner.offsetWidth; // restart the animation
    banner.classList.add("show");
    clearTimeout(banner._timer);
    banner._timer = setTimeout(() => banner.classList.remove("show"), ms);
    if (el && el.root) {
      el.root.classList.remove("revealed");
      void el.root.offsetWidth;
      el.root.classList.add("revealed");
      clearTimeout(el.root._revealTimer);
      el.root._revealTimer = setTimeout(() => el.root.classList.remove("revealed"), ms);
    }
  }

  // ---- motion ----------------------------------------------------------------------------
  snapshot() {
    const map = new Map();
    if (!this.motion) return map; // measuring forces a layout: only when something will move
    for (const el of this.root.querySelectorAll("[data-key]")) {
      map.set(el.dataset.key, el.getBoundingClientRect());
    }
    return map;
  }

  anchorRect(name) {
    const el = this.root.querySelector(`[data-anchor="${cssEscape(name)}"]`);
    return el ? el.getBoundingClientRect() : null;
  }

  /** Slide every card from its old place (or its data-from anchor) to its new one. */
  async flip(before, duration, { stagger = 0, only = null } = {}) {
    if (!this.motion || duration <= 0) return;
    const anims = [];
    let i = 0;
    for (const el of this.root.querySelectorAll("[data-key]")) {
      if (only && !only(el)) continue;
      let from = before.get(el.dataset.key);
      let fresh = false;
      if (!from && el.dataset.from) {
        from = this.anchorRect(el.dataset.from);
        fresh = true;
      }
      if (!from) continue;
      const to = el.getBoundingClientRect();
      if (!to.width) continue;
      const dx = from.left + from.width / 2 - (to.left + to.width / 2);
      const dy = from.top + from.height / 2 - (to.top + to.height / 2);
      const sc = fresh ? Math.min(1, Math.max(0.4, from.width / to.width)) : from.width / to.width;
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && Math.abs(sc - 1) < 0.02) continue;
      const delay = fresh && stagger ? i++ * stagger : 0;
      anims.push(el.animate([
        { transform: `translate(${dx}px, ${dy}px) scale(${sc})`, opacity: fresh ? 0.6 : 1 },
        { transform: "translate(0, 0) scale(1)", opacity: 1 },
      ], { duration, delay, easing: "cubic-bezier(.25,.8,.25,1)", fill: "backwards" }).finished);
    }
    await settle(anims, duration + i * stagger + 400);
  }

  /** Sweep the cards of the trick to the pile of `seat`. */
  async collect(seat, duration) {
    if (!this.motion || duration <= 0) return;
    const to = this.anchorRect(`pile-${seat}`);
    if (!to) return;
    this.drawn.delete("trick"); // swept away: drawn afresh whatever comes next
    const anims = [];
    for (const el of this.el.trick.querySelectorAll(".trick-card")) {
      const r = el.getBoundingClientRect();
      const dx = to.left + to.width / 2 - (r.left + r.width / 2);
      const dy = to.top + to.height / 2 - (r.top + r.height / 2);
      anims.push(el.animate([
        { transform: "translate(0, 0) scale(1)", opacity: 1 },
        { transform: `translate(${dx}px, ${dy}px) scale(0.35)`, opacity: 0.2 },
      ], { duration, easing: "cubic-bezier(.5,0,.75,0)", fill: "forwards" }).finished);
    }
    await settle(anims, duration + 400);
  }

  // ---- keyboard --------------------------------------------------------------------------
  _onKey(e) {
    const card = e.target.closest && e.target.closest(".hand-card");
    if (!card || !this.el.hand.contains(card)) return;
    const cards = [...this.el.hand.querySelectorAll(".hand-card")];
    let i = cards.indexOf(card);
    if (e.key === "ArrowRight" || e.key === "ArrowDown") i = (i + 1) % cards.length;
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") i = (i - 1 + cards.length) % cards.length;
    else if (e.key === "Home") i = 0;
    else if (e.key === "End") i = cards.length - 1;
    else return;
    e.preventDefault();
    for (const c of cards) c.tabIndex = -1;
    cards[i].tabIndex = 0;
    cards[i].focus();
    this.focusKey = cards[i].dataset.key;
  }

  focusHand() {
    const onBoard = this.el.board && this.el.board.querySelector("button.hinted:not(:disabled), button:not(:disabled)");
    if (onBoard && this.el.center.classList.contains("boarded")) {
      if (onBoard !== document.activeElement) onBoard.focus({ preventScroll: true });
      return;
    }
    const el = this.el.hand && (this.el.hand.querySelector(".hand-card.playable[tabindex='0']")
      || this.el.hand.querySelector(".hand-card.playable") || this.el.hand.querySelector(".hand-card"));
    // focusing forces the page's style and layout: not again where the focus already is
    if (el && el !== document.activeElement) el.focus({ preventScroll: true });
  }
}

async function settle(promises, ms) {
  if (!promises.length) return;
  await Promise.race([Promise.allSettled(promises), sleep(ms)]);
}
