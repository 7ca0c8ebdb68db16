// The host's page comes back to the table that deals fairly it hosted (a reload): no game of its
// worker holds it (the deal is each device's own), so the page hosts it again from what it kept
// in its own storage (./fair-kept.js): the same room and key, the seats and their tokens, the
// round, and the deal under way, carried on from its snapshot; every friend's seat waits for its
// friend (the host's timeout, then the deal ends uncounted: ./fair-table.js fairGone). A deal
// that was over and checked, or ended uncounted: its end again (the summary and the check's
// result, or the table as it stopped and why; the table's code), the next deal when the host
// asks. One kept without its end: the next one starts, the friends' pages joining it as they
// come back (with no friend's device left, the host's engine deals it, as at a table that does
// not deal fairly).

import { setTabFairTable } from "../storage.js";
import { FriendsHost } from "./host.js";
import { fairDevices, forgetFair, hostFair, hostPlay } from "./fair-table.js";
import { readKept } from "./fair-kept.js";

/** Host again the fair table of `room` this tab hosted; false where nothing of it was kept. */
export async function rehostFair(app, room) {
  const rec = await readKept(`host:${room}`);
  const kept = rec && rec.table;
  if (!kept || kept.room !== room || !kept.key || !Array.isArray(kept.seats) || !Number.isInteger(kept.round)) {
    setTabFairTable(null);
    return false;
  }
  const seats = kept.seats.map((s) => (s.kind === "friend" ? { kind: "friend", name: s.name || "", token: s.token, peer: null, away: !!s.away } : { ...s }));
  const host = new FriendsHost(app, { ...kept.cfg, seats, fair: true }, kept.net);
  Object.assign(host, { seats, room, key: kept.key, timeout: kept.timeout || host.timeout, round: kept.round, started: true });
  host.mine = seats.findIndex((s) => s.kind === "human");
  host.fairPast = Array.isArray(rec.past) ? rec.past : []; // (the match's deals found fair here)
  host.fairLast = Number.isInteger(kept.last) ? kept.last : null; // (the last deal counted: its dealer)
  app.friends = host;
  app.meta = { variant: kept.cfg.variant, custom: !!kept.cfg.custom, names: seats.map((s) => (s.kind === "bot" ? "" : s.name || "")), style: kept.cfg.style || app.prefs.style };
  app.ui("friends");
  const deal = rec.deal;
  const end = rec.end;
  if (deal && deal.round === kept.round && deal.table === `${room}:${kept.round}` && Array.isArray(deal.owner)) {
    host.fairWorker = app.engine;
    Object.assign(host, { fairOwner: deal.owner, fairGo: kept.go });
    // the friends' seats wait for their friends (then the deal ends uncounted)
    seats.forEach((s, i) => { if (s.kind === "friend" && deal.owner[i]) host.away(i); });
    host.fair = hostPlay(host, { table: deal.table, me: 0, owner: deal.owner, bots: deal.bots, rules: deal.rules, dealer: deal.dealer,
      seat: deal.seat, seats: deal.seats }, Promise.resolve(deal));
    await host.fair.start();
    await host.connect();
  } else if (end && end.round === kept.round && end.table === `${room}:${kept.round}` && Array.isArray(end.owner) && end.state && (end.result || end.voided)) {
    // the deal was over and checked, or ended uncounted: its end shown again as it was (the
    // summary and the check's result, or the table as it stopped and why; the table's code);
    // the next deal (or match) when the host asks for it
    host.fairWorker = app.engine;
    Object.assign(host, { fairOwner: end.owner, fairGo: kept.go });
    seats.forEach((s, i) => { if (s.kind === "friend" && end.owner[i]) host.away(i); });
    host.fair = hostPlay(host, { table: end.table, me: 0, owner: end.owner, bots: end.bots, rules: end.rules, dealer: end.dealer,
      seat: end.seat, seats: end.seats, past: host.fairPast });
    await host.fair.ended(end);
    await host.connect();
  } else if (fairDevices(host)) { // the deal was over (void, or kept without its end): the next one
    host.round = kept.round + 1;
    host.started = false;
    await host.connect();
    await hostFair(host, false);
  } else { // no friend's device left: the host's engine deals the next, a computer in each seat
    forgetFair(host);
    host.listen();
    await host.connect();
    await host.playAgain();
  }
  host.tellLobby();
  return true;
}
