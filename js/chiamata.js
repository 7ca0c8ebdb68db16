// Briscola Chiamata at the table: the auction panel, the choice of the called card, the
// called-card badge, who is who at each seat (caller, secret partner, "?"), the reveal, and
// the end-of-deal game-point tables.
//
// Everything here is drawn from the view the engine gives one seat (`view.chiamata`,
// `view.side_of_seat`, `view.legal`): nothing is decided in the page. The panels register in
// table.js (PHASE_PANELS for "auction" and "call", MODE_HOOKS.chiamata for the seats and the
// centre of the felt); the controller (app.js) uses the words for announcements and the
// summary (summary.js) the game-point tables.

import { h, s, clear } from "./dom.js";
import { t } from "./i18n.js";
import { cardName, rankName, rankWord, suitName } from "./cards.js";
import { PHASE_PANELS, MODE_HOOKS, cardFace } from "./table.js";
import { auctionNamesLine, printedNumber, signed } from "./names.js";

const DEFAULT_ORDER = "A3KHJ76542";
const SUITS = ["D", "C", "S", "B"];

// Choices the person is making, kept between frames (the table is redrawn often).
const pending = { key: "", points: null, card: null };

function orderOf(ctx) {
  const o = ctx && ctx.order;
  return [...(typeof o === "string" || Array.isArray(o) ? o : DEFAULT_ORDER)];
}

function weakest(ctx) {
  const o = orderOf(ctx);
  return o[o.length - 1];
}

/** Words for a bid of the auction: "Re", "2 e 64", "72 punti", "Passo", "A carichi". */
export function bidLabel(bid, auction, ctx) {
  if (!bid) return "";
  if (bid === "pass") return t("ch.pass");
  if (bid === "carichi") return t("ch.carichi");
  let m;
  if ((m = /^bid-(\d\d+)$/.exec(bid))) {
    return auction === "points" ? t("ch.bid.points", { n: m[1] }) : t("ch.bid.two", { rank: weakest(ctx), n: m[1] });
  }
  if ((m = /^bid-(\w)$/.exec(bid))) return rankName(m[1], ctx.lang, ctx.style);
  return bid;
}

/** Words for any non-card action of Chiamata ("call-S": "Chiamo Spade"), or null. */
export function chiamataActionLabel(a, view, ctx) {
  const auction = view.chiamata ? view.chiamata.auction : "rank";
  if (a === "pass" || a === "carichi" || /^bid-/.test(a)) return bidLabel(a, auction, ctx);
  let m;
  if ((m = /^call-([DCSB])$/.exec(a))) {
    const rank = calledRank(view, ctx);
    return t("ch.call.btn", { card: cardName(rank + m[1], ctx.lang, ctx.style) });
  }
  if ((m = /^call-(\w\w)$/.exec(a))) return t("ch.call.btn", { card: cardName(m[1], ctx.lang, ctx.style) });
  return null;
}

/** The rank the winner of a rank auction calls. */
function calledRank(view, ctx) {
  const high = view.chiamata && view.chiamata.high;
  if (!high) return weakest(ctx);
  const m = /^bid-(\w)$/.exec(high.bid);
  return m ? m[1] : weakest(ctx);
}

function isYou(seat, view, ctx) {
  return seat === view.seat && ctx.kinds && ctx.kinds[seat] && ctx.kinds[seat].kind === "human" && ctx.humans <= 1;
}

// ---- the auction ------------------------------------------------------------------------------

function auctionPanel(box, view, ctx) {
  const ch = view.chiamata;
  if (!ch) return;
  const names = ctx.names;
  const auction = ch.auction;
  const lbl = (b) => bidLabel(b, auction, ctx);
  box.classList.add("auction-panel");
  box.setAttribute("aria-label", t(auction === "points" ? "ch.auction.points" : "ch.auction.rank"));

  const head = h("div", { class: "auc-head" },
    h("span", { class: "auc-title", text: t(auction === "points" ? "ch.auction.points" : "ch.auction.rank") }));
  const high = h("p", { class: "auc-high" });
  if (ch.high) {
    high.append(h("span", { class: "muted-label", text: `${t("ch.high")}: ` }),
      h("b", { class: "auc-bid", text: lbl(ch.high.bid) }), ` — ${names[ch.high.seat]}`);
  } else high.append(h("span", { class: "muted-label", text: t("ch.nobid") }));
  head.append(high);
  box.append(head);

  // the bids so far, newest last, one scrolling line
  const hist = h("ol", { class: "auc-history", attrs: { "aria-label": t("ch.history") } });
  for (const b of ch.bids) {
    hist.append(h("li", { class: b.bid === "pass" ? "pass" : "" },
      h("span", { class: "who", text: names[b.seat] }), h("b", { text: lbl(b.bid) })));
  }
  if (ch.bids.length) box.append(hist);

  const mine = ctx.canPlay && view.turn === view.seat;
  if (!mine) {
    const who = view.turn === null || view.turn === undefined ? "" : names[view.turn];
    box.append(h("p", { class: "auc-turn", text: who ? t("ch.turn.other", { name: who }) : "" }));
    requestAnimationFrame(() => { hist.scrollLeft = hist.scrollWidth; });
    return;
  }

  const legal = new Set(view.legal || []);
  const rankLeft = auction === "rank" && orderOf(ctx).some((r) => legal.has(`bid-${r}`));
  box.append(h("p", { class: "auc-turn you", text: t(rankLeft ? "ch.turn.you" : "ch.turn.you.raise") }));
  const button = (a, text, cls = "") => h("button", {
    class: ["btn", "bid", cls, ctx.hinted === a ? "hinted" : ""], type: "button", text,
    data: { action: a }, on: { click: () => ctx.act(a) },
  });

  // the ranks, strongest first: the ones still allowed are enabled
  const order = orderOf(ctx);
  if (rankLeft) {
    const grid = h("div", { class: "rank-bids", attrs: { role: "group", "aria-label": t("ch.ranks") } });
    for (const r of order) {
      const a = `bid-${r}`;
      const b = button(a, rankWord(r, ctx.lang, ctx.style), "rank");
      const printed = printedNumber(r, ctx.style); // the number on the card: "Re" is the 10
      if (printed) b.dataset.printed = printed; // shown under the word (app.css)
      b.setAttribute("aria-label", rankName(r, ctx.lang, ctx.style));
      if (!legal.has(a)) { b.disabled = true; b.classList.add("gone"); }
      grid.append(b);
    }
    box.append(grid);
    box.append(auctionNamesLine(ctx.lang, ctx.style)); // js/names.js: 1 = Ace … and what a bid means
  }

  // "2 and N points" after the 2, or the points auction: a stepper
  const numeric = [...legal].filter((a) => /^bid-\d\d+$/.test(a)).map((a) => Number(a.slice(4))).sort((x, y) => x - y);
  if (numeric.length) box.append(stepper(view, ctx, numeric, auction));

  const row = h("div", { class: "auc-row" });
  if (legal.has("pass")) row.append(button("pass", t("ch.pass"), "pass"));
  if (legal.has("carichi")) {
    const b = button("carichi", t("ch.carichi"), "carichi");
    b.title = t("ch.carichi.help");
    row.append(b);
  }
  row.append(h("button", { class: "btn small hint-btn", type: "button", text: t("table.hint"), on: { click: () => ctx.hint() } }));
  box.append(row);
  if (legal.has("carichi")) box.append(h("p", { class: "auc-help", text: t("ch.carichi.help") }));
  requestAnimationFrame(() => { hist.scrollLeft = hist.scrollWidth; });
}

function stepper(view, ctx, numeric, auction) {
  const min = numeric[0];
  const max = numeric[numeric.length - 1];
  const key = `${ctx.match ? ctx.match.deal : 0}/${view.chiamata.bids.length}`;
  if (pending.key !== key) { pending.key = key; pending.points = null; pending.card = null; }
  let hinted = /^bid-(\d\d+)$/.exec(ctx.hinted || "");
  if (hinted) pending.points = Number(hinted[1]);
  let value = Math.min(max, Math.max(min, pending.points || min));
  const label = auction === "points" ? t("ch.stepper.points") : t("ch.stepper.two", { rank: weakest(ctx) });
  const input = h("input", { type: "number", class: "pts-input", value: String(value),
    attrs: { min: String(min), max: String(max), step: "1", inputmode: "numeric", "aria-label": label } });
  const go = h("button", { class: ["btn", "bid", "pts-go", hinted ? "hinted" : ""], type: "button" });
  const set = (v) => {
    value = Math.min(max, Math.max(min, Math.round(Number(v) || min)));
    pending.points = value;
    input.value = String(value);
    go.textContent = t("ch.bid.btn", { bid: bidLabel(`bid-${value}`, auction, ctx) });
    go.dataset.action = `bid-${value}`;
    less.disabled = value <= min;
    more.disabled = value >= max;
  };
  const less = h("button", { class: "btn step", type: "button", text: "−", attrs: { "aria-label": t("ch.less") }, on: { click: () => set(value - 1) } });
  const more = h("button", { class: "btn step", type: "button", text: "+", attrs: { "aria-label": t("ch.more") }, on: { click: () => set(value + 1) } });
  input.addEventListener("change", () => set(input.value));
  go.addEventListener("click", () => ctx.act(`bid-${value}`));
  set(value);
  return h("div", { class: "pts-stepper", attrs: { role: "group", "aria-label": label } },
    h("span", { class: "pts-label", text: label }), less, input, more, go);
}

// ---- the call ---------------------------------------------------------------------------------

function callPanel(box, view, ctx) {
  const ch = view.chiamata;
  if (!ch) return;
  box.classList.add("call-panel");
  const names = ctx.names;
  const caller = ch.caller;
  const mine = ctx.canPlay && view.turn === view.seat && caller === view.seat;
  const hand = new Set(ctx.hideHand ? [] : view.hand);
  const bid = ch.high ? bidLabel(ch.high.bid, ch.auction, ctx) : "";
  const legal = new Set(view.legal || []);
  const face = (code, suffix) => cardFace(code, ctx.style, ctx.lang, suffix);
  // the explanation, with the hint button beside it
  const top = (head) => h("div", { class: "call-top" }, head,
    h("button", { class: "btn small hint-btn", type: "button", text: t("table.hint"), on: { click: () => ctx.hint() } }));

  if (ch.auction === "rank") {
    const rank = calledRank(view, ctx);
    const rname = rankName(rank, ctx.lang, ctx.style);
    box.append(mine
      ? top(h("p", { class: "call-head" }, h("span", { class: "long", text: t("ch.call.you.rank", { bid, rank: rname }) }),
        h("span", { class: "short", text: t("ch.call.you.rank.short", { rank: rname }) })))
      : h("p", { class: "call-head", text: t("ch.call.other", { name: names[caller], bid }) }));
    const row = h("div", { class: "call-cards", attrs: { role: "group", "aria-label": t("ch.call.pick") } });
    let held = false;
    for (const suit of SUITS) {
      const code = rank + suit;
      const a = `call-${suit}`;
      const own = hand.has(code);
      held = held || own;
      row.append(callCard(code, a, own, mine && legal.has(a), ctx, face(code, `c${suit}`),
        suitName(suit, ctx.lang, ctx.style)));
    }
    const line = h("div", { class: "call-row" }, row);
    box.append(line);
    const forced = [...legal].filter((a) => /^call-\w\w$/.test(a));
    if (mine && forced.length) {
      const cards = h("div", { class: "call-cards" });
      for (const a of forced) {
        const code = a.slice(5);
        cards.append(callCard(code, a, false, true, ctx, face(code, `f${code}`), null));
      }
      line.append(h("div", { class: "call-forced", attrs: { role: "group", "aria-label": t("ch.forced") } },
        h("span", { class: "call-sub", text: t("ch.forced") }), cards));
    }
    if (held) box.append(h("p", { class: "call-warn", text: mine ? t("ch.selfcall.warn") : t("ch.held.note") }));
    return;
  }

  // points auction: any card
  if (!mine) {
    box.append(h("p", { class: "call-head", text: t("ch.call.other", { name: names[caller], bid }) }));
    return;
  }
  box.append(h("p", { class: "call-head points" }, h("span", { class: "long", text: t("ch.call.you.points", { bid }) }),
    h("span", { class: "short", text: t("ch.call.you.points.short") })));
  const key = `${ctx.match ? ctx.match.deal : 0}/call`;
  if (pending.key !== key) { pending.key = key; pending.card = null; pending.points = null; }
  const hinted = /^call-(\w\w)$/.exec(ctx.hinted || "");
  if (hinted) pending.card = hinted[1];
  const anyHeld = [...hand].some((c) => legal.has(`call-${c}`));
  const grid = h("div", { class: "card-grid", attrs: { role: "group", "aria-label": t("ch.call.pick") } });
  const info = h("p", { class: "call-pick" });
  const go = h("button", { class: "btn primary call-go", type: "button" });
  const show = () => {
    for (const b of grid.querySelectorAll("button")) b.classList.toggle("picked", b.dataset.code === pending.card);
    clear(info);
    const c = pending.card;
    go.hidden = !c;
    if (!c) { info.textContent = t(anyHeld ? "ch.call.pick.held" : "ch.call.pick"); return; }
    info.append(h("b", { text: t("ch.call.trump", { card: cardName(c, ctx.lang, ctx.style), suit: suitName(c[1], ctx.lang, ctx.style) }) }));
    if (hand.has(c)) info.append(h("span", { class: "call-warn inline", text: ` ${t("ch.selfcall.warn")}` }));
    go.textContent = t("ch.call.go");
    go.setAttribute("aria-label", t("ch.call.btn", { card: cardName(c, ctx.lang, ctx.style) }));
    go.dataset.action = `call-${c}`;
  };
  for (const suit of SUITS) {
    const line = h("div", { class: "grid-row", attrs: { role: "group", "aria-label": suitName(suit, ctx.lang, ctx.style) } });
    for (const r of orderOf(ctx)) {
      const code = r + suit;
      if (!legal.has(`call-${code}`)) continue;
      const own = hand.has(code);
      const b = h("button", {
        class: ["grid-card", own ? "held" : ""], type: "button", data: { code },
        attrs: { "aria-label": cardName(code, ctx.lang, ctx.style) + (own ? ` (${t("ch.held")})` : "") },
        on: { click: () => { pending.card = code; show(); } },
      }, face(code, "g"));
      line.append(b);
    }
    grid.append(line);
  }
  go.addEventListener("click", () => { if (pending.card) ctx.act(`call-${pending.card}`); });
  box.append(grid, h("div", { class: "call-confirm" }, info, go,
    h("button", { class: "btn small hint-btn", type: "button", text: t("table.hint"), on: { click: () => ctx.hint() } })));
  show();
}

function callCard(code, action, own, enabled, ctx, faceEl, caption) {
  const attrs = { "aria-label": cardName(code, ctx.lang, ctx.style) + (own ? ` (${t("ch.held")})` : "") };
  const faceBox = h("span", { class: "slot call-face" }, faceEl);
  if (own) faceBox.append(h("span", { class: "held-tag", text: t("ch.held.short"), attrs: { "aria-hidden": "true" } }));
  const kids = [faceBox];
  if (caption) kids.push(h("span", { class: "call-caption", text: caption }));
  if (!enabled) {
    return h("div", { class: ["call-card", own ? "held" : ""], attrs: { ...attrs, role: "img" }, data: { code } }, ...kids);
  }
  return h("button", {
    class: ["call-card", own ? "held" : "", caption ? "" : "small", ctx.hinted === action ? "hinted" : ""], type: "button",
    data: { code, action }, attrs: { ...attrs, title: attrs["aria-label"] }, on: { click: () => ctx.act(action) },
  }, ...kids);
}

PHASE_PANELS.auction = auctionPanel;
PHASE_PANELS.call = callPanel;

// ---- the seats and the centre during play -------------------------------------------------------

/** Who each seat is, as `view.seat` may know it: "caller", "partner", "opp", "?" or "". */
export function roleOf(seat, view, ctx = {}) {
  const ch = view.chiamata;
  if (!ch || ch.caller === null || ch.caller === undefined) return "";
  if (view.phase === "auction") return "";
  if (seat === ch.caller) return "caller";
  if (view.phase === "call") return "";
  // a secret the screen must not show while the device changes hands
  const secret = ctx.hideHand && !ch.partner_revealed && !ch.carichi;
  if (secret) return "?";
  const side = view.side_of_seat ? view.side_of_seat[seat] : -1;
  if (side === 0) return "partner";
  if (side === 1) return "opp";
  return "?";
}

function roleBadge(role, seat, view, ctx) {
  if (role === "caller") return h("span", { class: "badge role caller", data: { short: "★" }, text: t("ch.role.caller") });
  if (role === "partner") return h("span", { class: "badge role partner-of", data: { short: "☆" }, text: t("ch.role.partner") });
  if (role === "?") return h("span", { class: "badge role unknown", data: { short: "?" }, text: "?", attrs: { title: t("ch.role.unknown"), "aria-label": t("ch.role.unknown") } });
  return null;
}

MODE_HOOKS.chiamata = {
  /** Classes and badges of one seat box. */
  seat(root, seat, view, ctx, badges) {
    const ch = view.chiamata;
    if (!ch) return;
    const pre = view.phase === "auction" || view.phase === "call";
    root.classList.toggle("passed", view.phase === "auction" && !!ch.passed[seat]);
    const role = roleOf(seat, view, ctx);
    const mine = seat === view.seat;
    root.classList.toggle("side-a", !pre && (role === "caller" || role === "partner"));
    root.classList.toggle("side-b", !pre && role === "opp");
    root.classList.toggle("unknown", !pre && role === "?");
    if (mine) {
      // what only this person knows: holding the called card
      const secret = !ctx.hideHand && !ch.partner_revealed && !ch.carichi && ch.partner === seat && !pre;
      if (role === "caller") badges.push(roleBadge("caller", seat, view, ctx));
      if (secret && seat !== ch.caller) badges.push(h("span", { class: "badge secret", text: t("ch.you.partner") }));
      else if (secret && seat === ch.caller) badges.push(h("span", { class: "badge secret", text: t("ch.you.alone") }));
      else if (ch.partner_revealed && role === "partner") badges.push(roleBadge("partner", seat, view, ctx));
      return;
    }
    if (role === "caller" || role === "?") badges.push(roleBadge(role, seat, view, ctx));
    else if (role === "partner") badges.push(roleBadge("partner", seat, view, ctx));
  },

  /** The pile label: during the auction, the seat's last bid. */
  pile(el, seat, view, ctx) {
    const ch = view.chiamata;
    if (!ch || (view.phase !== "auction" && view.phase !== "call")) return false;
    clear(el);
    el.classList.remove("empty");
    let last = null;
    for (const b of ch.bids) if (b.seat === seat) last = b.bid;
    const high = ch.high && ch.high.seat === seat;
    const text = last ? bidLabel(last, ch.auction, ctx) : t("ch.waiting");
    el.append(h("span", { class: ["bid-tag", last === "pass" ? "pass" : "", high ? "high" : "", last ? "" : "none"], text }));
    el.setAttribute("aria-label", `${ctx.names[seat]}: ${text}`);
    return true;
  },

  /** The centre's left spot (the talon's, in other games): the called card and the target. */
  center(box, view, ctx) {
    const ch = view.chiamata;
    if (!ch || view.phase === "auction" || view.phase === "call") return false;
    clear(box);
    box.hidden = false;
    box.className = "deck called-badge";
    box.removeAttribute("data-anchor");
    const names = ctx.names;
    const partner = partnerText(view, ctx);
    if (ch.carichi) {
      box.classList.add("carichi");
      box.append(h("span", { class: "cb-label", text: t("ch.carichi") }),
        h("span", { class: "cb-line strong", text: names[ch.caller] }),
        h("span", { class: "cb-line", text: t("ch.notrump") }),
        h("span", { class: "cb-line", text: t("ch.follow") }),
        h("span", { class: "cb-line", text: t("ch.badge.target", { n: ch.target }) }));
      const full = t("ch.carichi.badge", { name: names[ch.caller], n: ch.target });
      box.setAttribute("aria-label", full);
      box.title = full;
      box.setAttribute("role", "img");
      return true;
    }
    const code = ch.called_card;
    const suit = code ? suitName(code[1], ctx.lang, ctx.style) : "";
    const full = code ? t("ch.badge.full", { card: cardName(code, ctx.lang, ctx.style), suit, n: ch.target }) : "";
    box.append(h("span", { class: "cb-label", text: t("ch.badge.called") }));
    if (code) box.append(h("div", { class: "slot called-card", data: { key: `called-${code}` } }, cardFace(code, ctx.style, ctx.lang, "cb")));
    box.append(
      h("span", { class: "cb-line strong cb-name", text: code ? cardName(code, ctx.lang, ctx.style) : "" }),
      h("span", { class: "cb-line cb-trump", text: t("ch.badge.trump", { suit }) }),
      h("span", { class: "cb-line", text: t("ch.badge.target", { n: ch.target }) }),
      h("span", { class: ["cb-line", "cb-partner", ch.partner_revealed ? "known" : ""], text: partner }));
    box.setAttribute("aria-label", `${full}. ${partner}`);
    box.title = full;
    box.setAttribute("role", "img");
    return true;
  },

  /** Words for the score bar's match entry: the person's game points. */
  matchText(view, ctx) {
    const m = ctx.match;
    if (!m || !m.score) return "";
    const rules = view.rules || {};
    const fmt = rules.match_deals ? t("ch.match.deals", { n: rules.match_deals })
      : t("ch.match.target", { n: rules.match_target || 10 });
    if (!m.deals || !m.deals.length) return fmt;
    const me = view.seat;
    return `${fmt} · ${t("ch.match.you", { name: ctx.names[me], gp: signed(m.score[me]) })}`;
  },

  trumpText(view, ctx) {
    const ch = view.chiamata;
    if (ch && ch.carichi && view.phase !== "auction") return t("ch.notrump");
    return null;
  },
};

function partnerText(view, ctx) {
  const ch = view.chiamata;
  if (ch.partner_revealed && ch.partner !== null && ch.partner !== undefined) {
    return ch.partner === ch.caller ? t("ch.badge.alone", { name: ctx.names[ch.caller] })
      : t("ch.badge.partner", { name: ctx.names[ch.partner] });
  }
  return t("ch.badge.partner", { name: "?" });
}

// ---- words for the controller -------------------------------------------------------------------

/** Announcement (and seat bubble) for one auction event, or null. */
export function auctionWords(e, view, ctx) {
  const name = ctx.names[e.seat];
  const you = isYou(e.seat, view, ctx);
  const auction = view.chiamata ? view.chiamata.auction : "rank";
  if (e.type === "bid") {
    const bid = bidLabel(e.bid, auction, ctx);
    return { say: you ? t("say.you.bid", { bid }) : t("say.bid", { name, bid }), bubble: bid };
  }
  if (e.type === "pass") return { say: you ? t("say.you.pass") : t("say.pass", { name }), bubble: t("ch.pass") };
  if (e.type === "carichi") return { say: t("say.carichi", { name }), bubble: t("ch.carichi") };
  if (e.type === "auction_won") return { say: t("say.won", { name, bid: bidLabel(e.bid, auction, ctx) }) };
  if (e.type === "call") {
    return {
      say: t("say.call", { name, card: cardName(e.card, ctx.lang, ctx.style), suit: suitName(e.trump, ctx.lang, ctx.style), n: e.target }),
      bubble: t("ch.call.btn", { card: cardName(e.card, ctx.lang, ctx.style) }),
    };
  }
  return null;
}

/** The reveal's words: "Totò is the partner!" */
export function revealWords(e, view, ctx) {
  const ch = view.chiamata || {};
  const seat = e.seat;
  if (seat === ch.caller) {
    return isYou(seat, view, ctx) ? t("ch.reveal.self.you") : t("ch.reveal.self", { name: ctx.names[seat] });
  }
  return isYou(seat, view, ctx) ? t("ch.reveal.you") : t("ch.reveal", { name: ctx.names[seat] });
}

/** The words a person hears when the auction or the call waits for them. */
export function turnWords(view, ctx) {
  const ch = view.chiamata;
  if (!ch) return "";
  if (view.phase === "auction") {
    return t("say.turn.auction", { high: ch.high ? `${bidLabel(ch.high.bid, ch.auction, ctx)} (${ctx.names[ch.high.seat]})` : t("ch.nobid") });
  }
  if (view.phase === "call") return t("say.turn.call");
  return "";
}

// ---- the end of a deal ----------------------------------------------------------------------------

/** The caller of a finished deal from its game points (the largest figure is his). */
function callerOf(deal) {
  const gp = deal.game_points || [];
  let best = 0;
  gp.forEach((g, i) => { if (Math.abs(g) > Math.abs(gp[best])) best = i; });
  return best;
}

/** Who is who in a finished deal: its Chiamata facts, outcome, the seats' names, the caller
 *  and the caller's side (the team of the outcome's first side). */
function dealRoles(state, ctx) {
  const ch = state.view.chiamata || {};
  const out = state.summary.outcome;
  return { ch, out, names: ctx.names, caller: ch.caller ?? callerOf(out), team: out.sides[0] };
}

/** The facts of a finished deal: caller, called card, partner, target, points, cappotto. */
export function chiamataFacts(box, state, ctx) {
  const { ch, out, names, caller, team } = dealRoles(state, ctx);
  const partner = ch.carichi ? null : team.find((x) => x !== caller);
  const made = out.winners.includes(0);
  const mult = out.multiplier || 1; // the engine's: it depends on the auction and the options
  const tx = { lang: ctx.lang, style: ctx.style, order: ctx.order };

  const facts = h("dl", { class: "ch-facts" });
  const fact = (label, cls, ...value) => facts.append(h("div", { class: ["fact", cls] }, h("dt", { text: label }), h("dd", {}, ...value)));
  fact(t("sum.ch.caller"), "", names[caller], ch.high ? h("span", { class: "muted", text: ` (${bidLabel(ch.high.bid, ch.auction, tx)})` }) : null);
  fact(t("sum.ch.partner"), "", ch.carichi ? t("sum.ch.carichi") : partner === undefined ? t("sum.ch.self") : names[partner]);
  if (ch.carichi) fact(t("sum.ch.called"), "wide", t("ch.carichi"), h("span", { class: "muted", text: ` — ${t("ch.notrump")}` }));
  else if (ch.called_card) {
    fact(t("sum.ch.called"), "wide", h("span", { class: "slot fact-card" }, cardFace(ch.called_card, ctx.style, ctx.lang, "sf")),
      h("span", { text: t("ch.call.trump", { card: cardName(ch.called_card, ctx.lang, ctx.style), suit: suitName(ch.called_card[1], ctx.lang, ctx.style) }) }));
  }
  fact(t("sum.ch.cardpoints"), "wide", h("span", { class: "ch-side-pts", text: t("sum.ch.sidepoints", { a: out.side_points[0], b: out.side_points[1] }) }));
  fact(t("sum.ch.target"), "", h("b", { text: String(out.target) }), " · ",
    h("span", { class: made ? "made" : "missed", data: { made: String(made) }, text: made ? t("sum.ch.made") : t("sum.ch.missed") }));
  fact(t("sum.ch.mult"), "", `×${mult}`);
  fact(t("sum.ch.cappotto"), "", out.cappotto ? t("sum.yes") : t("sum.no"));
  box.append(facts);
}

/** The game points of the deal per seat, the running totals and their chart. */
export function chiamataPoints(box, state, ctx) {
  const { out, names, caller, team } = dealRoles(state, ctx);
  const n = names.length;
  const gp = out.game_points;
  const match = state.match;
  const roleName = (s) => (s === caller ? t("ch.role.caller") : team.includes(s) ? t("ch.role.partner") : t("sum.ch.opponent"));
  const table = h("table", { class: "stats gp-table" });
  table.append(h("thead", {},
    h("tr", { class: "group" }, h("td", { attrs: { colspan: "2" } }),
      h("th", { attrs: { colspan: "2", scope: "colgroup" }, text: t("sum.ch.gp") })),
    h("tr", {}, ...[t("sum.ch.player"), t("sum.ch.cards"), t("sum.ch.thisdeal"), t("sum.ch.total")].map((x) => h("th", { attrs: { scope: "col" }, text: x })))));
  const body = h("tbody");
  for (let seat = 0; seat < n; seat++) {
    body.append(h("tr", { class: [team.includes(seat) ? "side-a" : "side-b", seat === ctx.me ? "me" : ""], data: { seat } },
      h("th", { attrs: { scope: "row" } }, names[seat], h("span", { class: "role-tag", text: roleName(seat) })),
      h("td", { text: String(out.points[seat]) }),
      h("td", { class: "gp", data: { gp: gp[seat] }, text: signed(gp[seat]) }),
      h("td", { class: "gp-total", data: { total: match.score[seat] }, text: signed(match.score[seat]) })));
  }
  table.append(body);
  box.append(h("div", { class: "table-wrap" }, table));

  if (match.deals.length > 1 || match.over) box.append(runningTable(match, names), gpChart(match, names));
}

function runningTable(match, names) {
  const table = h("table", { class: "stats running" });
  table.append(h("caption", { text: t("sum.ch.running") }));
  table.append(h("thead", {}, h("tr", {}, h("th", { attrs: { scope: "col" }, text: t("sum.ch.deal") }),
    ...names.map((x) => h("th", { attrs: { scope: "col" }, text: x })))));
  const body = h("tbody");
  match.deals.forEach((d, i) => {
    const c = callerOf(d);
    body.append(h("tr", {}, h("th", { attrs: { scope: "row" }, text: String(i + 1) }),
      ...(d.game_points || []).map((g, s) => h("td", { class: s === c ? "caller-cell" : "", text: signed(g) }))));
  });
  body.append(h("tr", { class: "totals" }, h("th", { attrs: { scope: "row" }, text: t("sum.ch.total") }),
    ...match.score.map((g) => h("td", {}, h("b", { text: signed(g) })))));
  table.append(body);
  return h("div", { class: "table-wrap" }, table);
}

/** The running game points of each seat after each deal, as lines. */
function gpChart(match, names) {
  const W = 320, H = 150, pad = 26, top = 10;
  const n = names.length;
  const totals = [];
  const run = new Array(n).fill(0);
  totals.push([...run]);
  for (const d of match.deals) {
    (d.game_points || []).forEach((g, s) => { run[s] += g; });
    totals.push([...run]);
  }
  const all = totals.flat();
  const hi = Math.max(2, ...all);
  const lo = Math.min(-2, ...all);
  const y = (v) => top + (H - top) * (hi - v) / (hi - lo);
  const steps = Math.max(1, totals.length - 1);
  const x = (i) => pad + 6 + (W - pad - 14) * i / steps;
  const svg = s("svg", { viewBox: `0 0 ${W} ${H + 20}`, class: "chart gp-chart", role: "img", "aria-label": t("sum.ch.chart") });
  svg.append(s("title", {}, t("sum.ch.chart")));
  for (const v of [hi, 0, lo]) {
    svg.append(s("line", { x1: pad, x2: W - 4, y1: y(v), y2: y(v), class: v === 0 ? "grid mid" : "grid" }));
    svg.append(s("text", { x: pad - 4, y: y(v) + 4, class: "axis", "text-anchor": "end" }, signed(v)));
  }
  for (let seat = 0; seat < n; seat++) {
    // equal totals would hide each other: each seat's line a little apart
    const dy = (seat - (n - 1) / 2) * 1.6;
    const pts = totals.map((row, i) => `${x(i).toFixed(1)},${(y(row[seat]) + dy).toFixed(1)}`).join(" ");
    const line = s("polyline", { points: pts, class: `gp-line seat${seat % 6}`, fill: "none" });
    line.append(s("title", {}, `${names[seat]}: ${signed(run[seat])}`));
    svg.append(line);
    totals.forEach((row, i) => { if (i) svg.append(s("circle", { cx: x(i), cy: y(row[seat]) + dy, r: 2.6, class: `gp-dot seat${seat % 6}` })); });
  }
  totals.forEach((_, i) => {
    if (i) svg.append(s("text", { x: x(i), y: H + 14, class: "axis", "text-anchor": "middle" }, t("sum.chart.deal", { n: i })));
  });
  const legend = h("div", { class: "legend" },
    names.map((nm, j) => h("span", { class: "lg" }, h("i", { class: `sw side${j % 6}` }), `${nm} ${signed(run[j])}`)));
  return h("figure", { class: "chart-box" }, svg, legend);
}
