// The host's page at a table that deals fairly (./fair.js; docs/friends.md, "The page at a fair
// table"): it starts each deal (`fair_go` to each friend's page, the match's records with it), runs
// its own FairPlay, carries the devices' messages, and ends a deal uncounted on every device when a
// device is gone for good, came back without it, or refused it as not the match's next.

import { t } from "../i18n.js";
import { h } from "../dom.js";
import { EngineError } from "../engine.js";
import { errorText } from "../errors.js";
import { setTabFairTable } from "../storage.js";
import { closeDialog } from "./common.js";
import { FairPlay } from "./fair.js";
import { drop, keep } from "./fair-kept.js";

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
  // match (none, or the last one over): dealt by the seat after the last deal counted at this
  // table (as a table that does not deal fairly passes the deal on: Match.rematch), the first
  // match's dealer drawn at random
  const past = Array.isArray(host.fairPast) ? host.fairPast : [];
  const first = Number.isInteger(host.fairLast) ? (host.fairLast + 1) % host.seats.length : randomSeat(host);
  let dealer;
  try { // what a fair table cannot deal refused here, before any friend is told
    dealer = (await worker.call("fair_deal", { rules: host.cfg.rules, sees: [host.mine], bots: [], ...(past.length ? { past } : { dealer: first }) })).dealer;
  } catch (err) {
    if (past.length) { // (records this engine refuses: a new match)
      host.fairPast = [];
      return hostFair(host, false);
    }
    host.started = false;
    app.notice(t("notice.error", { message: errorText(err) }), 15000);
    return;
  }
  // with the match's records (public: every card of a deal is, once it is over), for a page that
  // kept none of them (its storage cleared) to take them on the host's word
  const go = { t: "fair_go", table, round: host.round, owner, rules: host.cfg.rules, dealer, seats, deal: past.length, ...(past.length ? { past } : {}) };
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
      if (!snap && fair.result && fair.result.fair && fair.fs) host.fairLast = fair.fs.dealer; // (the next match's first deals after it)
      // a deal over: its end, shown again after a reload (the next deal waits for the host)
      const kept = keep(`host:${host.room}`, { table: hostTable(host), deal: snap, past, end: snap ? null : fair.endKept() });
      if (!snap) host.bar(); // (the deal over: what follows under the names, a table drawn or not)
      return kept;
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
  return { room: host.room, key: host.key, net: host.net, timeout: host.timeout, round: host.round, go: host.fairGo, last: host.fairLast ?? null,
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
  // (its own device the one gone: the host ended the deal while it was away, `why: "away"`)
  const why = fair.why || (fair.voided && fair.voided.device === d ? "away" : null);
  if (fair.voided) host.send(peer, { t: "fair_void", round: fair.round, device: fair.voided.device, ...(why ? { why } : {}) });
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
    await voidEverywhere(host, fair, d);
  }
  host.tellLobby();
}

/** The deal ends uncounted on this device and on every friend's page (`fair_void`, with `why`
 * where given): device `d`'s page is gone, lost its deal, or refused it. */
async function voidEverywhere(host, fair, d, why = undefined) {
  await fair.abandon(d, why);
  host.seats.forEach((o) => { if (o.kind === "friend" && o.peer) host.send(o.peer, { t: "fair_void", round: fair.round, device: d, ...(why ? { why } : {}) }); });
}

/** The host's page: a friend's page came back without the deal under way (`fair_lost {round}`:
 * its storage kept nothing of it): the deal cannot go on without its device's shares and ends
 * uncounted on every device; the seat stays its friend's, whose page joins the next deal. */
export async function fairLost(host, seat, round) {
  const fair = host.fair;
  const d = host.fairOwner ? host.fairOwner[seat] : 0;
  if (!fair || !d || round !== fair.round || fair.over) return;
  await voidEverywhere(host, fair, d);
  host.tellLobby();
}

/** The host's page: a friend's page refused the deal (`fair_refuse {round, code}`: not the
 * match's next on that device, which holds another count of its deals or finds another dealer):
 * the deal ends uncounted on every device, said so (`fair_void` with `why`), and the next deal
 * starts a new match, which every device deals. Anything else is ignored. */
export async function fairRefused(host, seat, msg) {
  const fair = host.fair;
  const d = host.fairOwner ? host.fairOwner[seat] : 0;
  if (!fair || !d || msg.round !== fair.round || fair.over || typeof msg.code !== "string" || !/^[a-z_]{1,64}$/.test(msg.code)) return;
  console.warn(`friends: device ${d} refused the fair deal ${fair.round} (${msg.code})`);
  fair.refusedCode = msg.code;
  await voidEverywhere(host, fair, d, "refused");
  host.tellLobby();
}

/** What the host's page says under the names at a fair table (null: nothing): whom the deal
 * waits for and what follows, with the host's choice to end it now; a deal ended uncounted,
 * with the next. */
export function fairBar(host) {
  const fair = host.fair;
  if (fair && fair.result && !fair.result.fair && (!fair.last || !fair.last.view || fair.last.view.phase !== "over")) {
    // stopped mid-way by a cheat (named by the check): the next deal when the host asks
    return { text: t("fair.stopped.bar", { who: fair.who(fair.result) }), button: againButton(host) };
  }
  if (!fair || fair.result) return null;
  if (fair.voided) {
    const why = fair.refusedCode ? errorText({ code: fair.refusedCode, message: fair.refusedCode }) : "";
    return { text: t(fair.why === "refused" ? "fair.void.bar.refused" : "fair.void.bar", { who: fair.who(fair.voided), why }),
      button: againButton(host) };
  }
  const gone = host.seats.map((s, i) => i).filter((i) => host.fairOwner[i] > 0 && !host.seats[i].peer);
  if (!gone.length || fair.over) return null;
  const who = gone.map((i) => fair.nameOf(i) || t("new.seat", { n: i + 1 })).join(", ");
  return { text: t("fair.waits.host", { who, s: host.timeout }),
    button: h("button", { class: "btn", type: "button", id: "fair-end", text: t("fair.end"), on: { click: () => gone.forEach((i) => fairGone(host, i)) } }) };
}

function againButton(host) {
  return h("button", { class: "btn primary", type: "button", id: "fair-again", text: t("fair.again"), on: { click: () => host.playAgain() } });
}

/** Whether a friend's device is still at the host's fair table (a seat whose friend is not gone
 * for good): with none, the next deal is the host's engine's, a computer in each friend's seat. */
export function fairDevices(host) {
  return host.seats.some((s) => s.kind === "friend" && !s.away);
}

function randomSeat(host) {
  return crypto.getRandomValues(new Uint32Array(1))[0] % host.seats.length;
}


export function botLevel(app) {
  const levels = (app.catalog && app.catalog.levels) || [];
  return levels.includes("intermediate") ? "intermediate" : levels[0];
}
