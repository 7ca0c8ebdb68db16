// "Play with friends", each on their own device (docs/friends.md): loaded by js/app.js only
// when a person chooses it (the New game panel with a friend's seat, an invitation link, or
// the test hook ?friends=1), never on a first visit.
//
//   ?join=ROOM&host=KEY&relays=URL,URL[&stun=URL]    an invitation: take a seat at that table
//     [&turn=URL&turn_user=U&turn_credential=P]       (KEY: the host's public key, net.js; the
//                                                      TURN server where the host shares it)
//   &ice=relay (with either)                          "hide my address": through TURN only
//   ?friends=1&variant=V&seed=S&lang=L&relays=...     (tests) a new table for friends, every seat
//                                                      but the first a friend's, started by
//                                                      itself once they are all taken

import { t } from "../i18n.js";
import { forget } from "../embed.js";
import { netSettings, settingsSection } from "./common.js";
import { damaged } from "./damaged.js";
import { FriendsHost, linkConfig } from "./host.js";
import { FriendsGuest } from "./guest.js";

let early = null; // {room, search, guest}: an invitation's room opened while the engine starts
let linked = false; // fromLink() has run (too late to join early)

/** An invitation: its room opened and the host looked for at once, while this page's engine
 * starts (js/app.js); fromLink() then shows the table. Anything wrong with the link is said
 * by fromLink(), not here. */
export function joinEarly(app, search = location.search) {
  const q = new URLSearchParams(search);
  const room = q.get("join");
  if (linked || !room || !FriendsGuest.check(room, q.get("host"))) return;
  const net = netSettings(search);
  const guest = new FriendsGuest(app, room, q.get("host"), net);
  early = { room, search, guest };
  guest.connect();
}

/** The page's link asks for a table with friends: start it. Returns false when it cannot. */
export async function fromLink(app, search = location.search) {
  // an invitation joined early: its link as it was (a cancel since has taken it off the address)
  const pre = early;
  early = null;
  linked = true;
  if (pre) search = pre.search;
  const q = new URLSearchParams(search);
  const net = netSettings(search);
  // a TURN server in the link that cannot be used: said, and the page goes on without it
  if (net.linkProblem) app.notice(t("friends.turn.bad.link", { problem: net.linkProblem }), 20000);
  if (q.has("join")) {
    const room = q.get("join");
    const host = q.get("host");
    if (!FriendsGuest.check(room, host)) {
      damaged(app);
      return true;
    }
    const guest = pre && pre.room === room ? pre.guest : new FriendsGuest(app, room, host, net);
    if (guest.closed) { // its dialog cancelled while the engine started: the New game panel, as after
      app.openNewGame(false);
      return true;
    }
    app.friends = guest;
    await guest.open();
    return true;
  }
  const cfg = linkConfig(app.catalog || {}, search);
  forget(["friends", "variant", "seed"]); // a reload resumes the table, it does not open another
  if (!cfg) {
    app.notice(`${t("link.bad")} ${t("link.bad.variant", { value: (q.get("variant") || "").slice(0, 24) })}`, 20000);
    return false;
  }
  return host(app, cfg, { auto: true, net });
}

/** The host's page reloaded while it hosted a table that deals fairly: host it again. */
export { rehostFair } from "./fair-host.js";

/** The host's page resumed a game with friends' seats (a reload): host it again. */
export async function rehost(app, saved) {
  return FriendsHost.rehost(app, saved);
}

/** The host's table: the lobby with the invitation, then the game. `cfg`: the New game panel's. */
export async function host(app, cfg, { auto = false, net = netSettings() } = {}) {
  const people = cfg.seats.filter((s) => s.kind === "human").length;
  if (people !== 1) {
    app.notice(t("error.friends_one_person"), 12000);
    return false;
  }
  const table = new FriendsHost(app, cfg, net, { auto });
  if (app.friends) app.friends.leave(); // the table before (its room left: its friends are told)
  app.friends = table;
  await table.open();
  return true;
}

/** The relays, STUN and TURN servers, for the page's Settings (open at once). */
export function settingsPanel() {
  const box = settingsSection(netSettings(""), () => {});
  box.open = true;
  return box;
}
