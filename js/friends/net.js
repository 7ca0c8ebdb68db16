// The transport of "play with friends": WebRTC data channels between the host's page and each
// friend's, found through public WebTorrent trackers (Trystero's torrent strategy, bundled
// into ./vendor.js by tools/build/friends.py; docs/friends.md says why this one).
//
// Every message is one JSON text: `send` writes it, `onMessage` gets it only once its size is
// checked (before JSON.parse) and it parses to an object with the protocol's version `v`
// (PROTOCOL) and a string `t`; the rest of its shape is checked by its reader (host.js,
// guest.js). Nothing about the game passes through the relays: they only carry the offers and
// answers that connect the pages (encrypted by Trystero with a key from the room's id).
//
// The host's key, the room's id and the invitation's link are ./identity.js's; what is mended
// in Trystero is ./mends.js's. The pages import all of it from here.

import { BUILD } from "../build-info.js";
import { PROTOCOL, readMessage, relaysByMedium } from "./wire.js";
import { announceNow, hookFrames, mendedPeerConnection, quietClosings, startSweep } from "./mends.js";

export { PROTOCOL, LIMIT_TO_HOST, LIMIT_TO_FRIEND, deeper, parseRelays, readMessage } from "./wire.js";
export { DEFAULT_RELAYS, DEFAULT_STUN, KEY_RE, ROOM_RE, inviteLink, newHostKey, newRoomId, nonce, signer, verifier } from "./identity.js";
export { mendedPeerConnection } from "./mends.js";

/** The build (both pages must be the same: the host's views are what this page draws). */
export const BUILD_HASH = BUILD.hash;
export const APP_ID = "briscola-friends";

/**
 * Join the room. `handlers`: {join(peer), leave(peer), message(peer, msg), refused(peer, code, message),
 * silent() (optional: a connection that heard nothing was closed, see mendedPeerConnection),
 * frame(peer, data) (optional: each data-channel frame of a peer, before Trystero reassembles it)}.
 * Returns {send(peer, msg), leave(), peers(), drop(peer)}. `limit`: the most a received message may weigh.
 */
export async function openRoom({ room, relays, stun, turn = null, relayOnly = false, limit }, handlers) {
  performance.mark("briscola:friends room"); // the join's stages (bench/friends.py)
  const lib = await import("./vendor.js");
  quietClosings();
  const Connection = mendedPeerConnection();
  let opened = null; // the room once joined (a join that threw leaves none)
  if (handlers.frame) hookFrames(Connection, () => opened, handlers.frame);
  const config = {
    appId: APP_ID,
    // the trackers only: the Nostr relays of the list are the relay fallback's (./rooms.js)
    relayConfig: { urls: relaysByMedium(relays).trackers, warnOnRelayFailure: false },
    rtcConfig: rtcConfig(stun, turn, relayOnly),
    rtcPolyfill: Connection,
  };
  // since when no relay has been seen open (a relay's socket is closed and opened again on
  // purpose to announce now: announceNow), for health()
  const relaysSeen = { at: Date.now() };
  // a peer that could not be reached is tried again by the relays' next offers: said, not fatal
  const joined = lib.joinRoom(config, room, {
    onJoinError: (e) => console.warn(`friends: a peer could not join: ${e && e.error}`),
  });
  opened = joined;
  const channel = joined.makeAction("m");
  const send = (peer, msg) => {
    channel.send(JSON.stringify({ v: PROTOCOL, ...msg }), { target: peer }).catch(() => {});
  };
  channel.onMessage = (data, ctx) => {
    const peer = ctx && ctx.peerId;
    if (typeof peer !== "string") return;
    const msg = readMessage(data, limit);
    if (msg.error) {
      handlers.refused(peer, msg.error.code, msg.error.message);
      return;
    }
    handlers.message(peer, msg.value);
  };
  joined.onPeerJoin = (peer) => {
    if (!performance.getEntriesByName("briscola:friends peer").length) performance.mark("briscola:friends peer");
    handlers.join(peer);
  };
  joined.onPeerLeave = (peer) => handlers.leave(peer);
  // A connection up for longer than Trystero's handshake may take, that the room has not taken,
  // is closed (see mendedPeerConnection): both pages then connect afresh.
  // One on which nothing was heard is closed sooner: the other page's first words were lost.
  const stopSweep = startSweep(Connection, joined, handlers.silent);
  return {
    self: lib.selfId,
    send,
    leave: () => {
      stopSweep();
      return joined.leave();
    },
    peers: () => Object.keys(joined.getPeers()),
    // a peer let go: its channels closed (Trystero then forgets the peer and what it held of
    // its messages), then its connection
    drop: (peer) => {
      const pc = joined.getPeers()[peer];
      if (!pc) return;
      for (const channel of pc.channels || []) channel.close();
      setTimeout(() => pc.close(), 1000);
    },
    announce: () => announceNow(lib),
    health: () => health(lib, Connection, relaysSeen, { turn, relayOnly }),
  };
}

/** The WebRTC configuration: the STUN server, the TURN server with its username and credential,
 * and "hide my address" (relayed candidates only: the other page sees the TURN server's address,
 * never this device's). */
export function rtcConfig(stun, turn, relayOnly) {
  const iceServers = stun ? [{ urls: stun }] : [];
  if (turn && turn.urls) iceServers.push({ urls: turn.urls, username: turn.username, credential: turn.credential });
  return relayOnly ? { iceServers, iceTransportPolicy: "relay" } : { iceServers };
}

/** How long a connection the other page answered (or offered) through the relays may take to
 * open before it is said that no WebRTC path joins the two pages (a good one takes about a
 * second on the loopback, a few through TURN or on a slow phone). */
export const STUCK_MS = 9000;
/** How long the relays may take before it is said that none answers. */
export const RELAYS_MS = 5000;

/** What keeps this page from its peers, if anything: one of
 * - {problem: "relays"}: no relay has been open for RELAYS_MS (since the room opened, or one
 *   was last seen open, `relaysSeen.at`);
 * - {problem: "relay_only"}: "hide my address" with no TURN server (no connection can open);
 * - {problem: "turn_auth" | "turn_unreachable", url}: the TURN server refused the username and
 *   credential, or did not answer (the browser's icecandidateerror, 401 / 701);
 * - {problem: "no_path", relayOnly, turn}: a page was heard through the relays, but no
 *   connection with it opened within STUCK_MS, and none opened since (a connection that lost
 *   the race to another with the same peer is no problem);
 * - null: nothing wrong known (connecting, or connected).
 * `connected`: whether a connection is open now. */
function health(lib, Connection, relaysSeen, { turn, relayOnly }, now = Date.now()) {
  const sockets = Object.values(lib.getRelaySockets() || {});
  const relaysOpen = sockets.filter((s) => s && s.readyState === WebSocket.OPEN).length;
  if (relaysOpen) relaysSeen.at = now;
  const state = Connection.state(STUCK_MS, now);
  const base = { relaysOpen, connected: state.connected };
  if (!relaysOpen && !state.connected && now - relaysSeen.at >= RELAYS_MS) return { ...base, problem: "relays" };
  // "hide my address" with no TURN server: no candidate at all, nothing can connect
  if (relayOnly && !(turn && turn.urls) && !state.stuck) return { ...base, problem: "relay_only" };
  if (state.turnError && !state.connected) {
    return { ...base, problem: state.turnError.code === 401 ? "turn_auth" : "turn_unreachable", url: state.turnError.url };
  }
  if (state.stuck) return { ...base, problem: "no_path", relayOnly: !!relayOnly, turn: !!(turn && turn.urls) };
  return { ...base, problem: null };
}
