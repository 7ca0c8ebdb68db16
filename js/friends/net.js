// The transport of "play with friends": WebRTC data channels between the host's page and each
// friend's, found through two independent public media at once: WebTorrent trackers and Nostr
// relays (Trystero's torrent and Nostr strategies, bundled into ./vendor.js by
// tools/build/friends.py; docs/friends.md says why these). Either medium down, the pages still
// find each other through the other.
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
import { announceNow, frameDoor, hookFrames, mendedPeerConnection, quietClosings, startSweep } from "./mends.js";

export { PROTOCOL, LIMIT_TO_HOST, LIMIT_TO_FRIEND, deeper, parseRelays, readMessage, relaysByMedium } from "./wire.js";
export { DEFAULT_RELAYS, DEFAULT_STUN, KEY_RE, ROOM_RE, inviteLink, newHostKey, newRoomId, nonce, signer, verifier } from "./identity.js";
export { mendedPeerConnection } from "./mends.js";

/** The build (both pages must be the same: the host's views are what this page draws). */
export const BUILD_HASH = BUILD.hash;
export const APP_ID = "briscola-friends";

/**
 * Join the room, through every medium that has relays in `relays` (parseRelays' entries: the
 * trackers, and the Nostr relays written `nostr:wss://...`). `handlers`: {join(peer),
 * leave(peer), message(peer, msg), refused(peer, code, message), silent() (optional: a
 * connection that heard nothing was closed, see mendedPeerConnection), frame(peer, data)
 * (optional: each data-channel frame of a peer, before Trystero reassembles it)}.
 * Returns {self, send(peer, msg), leave(), peers(), mediaOf(peer), drop(peer), announce(), health()}. `limit`:
 * the most a received message may weigh.
 *
 * Two media, one peer. The two strategies share Trystero's core (one copy in vendor.js), so
 * this page has one id (`selfId`) in both, and a peer found through both media has the same id
 * in both. But each strategy keeps its own room and its own WebRTC connection to that peer:
 * a page and a peer both on both media hold two connections. Both are kept: closing one would
 * not stay closed (its strategy connects again at the peer's next announce, every 10 s to
 * 2 minutes), and the second is a spare ready when the first fails. The handlers see one peer:
 * `join` when the first medium's room takes it, `leave` when the last lets it go. Each message
 * is sent once, on the connection of the medium that took the peer first and still holds it
 * (the other's if that one lets it go), and a message is read from whichever connection it
 * came on: no message reaches the page twice.
 */
export async function openRoom({ room, relays, stun, turn = null, relayOnly = false, limit }, handlers) {
  performance.mark("briscola:friends room"); // the join's stages (bench/friends.py)
  const lib = await import("./vendor.js");
  quietClosings();
  const Connection = mendedPeerConnection();
  const byMedium = relaysByMedium(relays);
  const rtc = rtcConfig(stun, turn, relayOnly);
  const media = []; // {name, room, channel}: each medium's Trystero room and its action "m"
  // each peer's media (the rooms that hold it now), in the order they took it
  const via = new Map();
  // the medium a message to `peer` goes through: the first still holding it
  const carrier = (peer) => {
    const held = via.get(peer);
    return held && held.size ? held.values().next().value : null;
  };
  const peerOf = (pc) => {
    for (const m of media) {
      const peers = m.room.getPeers();
      for (const id of Object.keys(peers)) if (peers[id] === pc) return id;
    }
    return undefined;
  };
  // every frame looked at before Trystero's handler (mend 5, frameDoor): another room's, or an
  // action no page uses, refused; then the page's own count of unfinished parts (`frame`)
  const token = await roomToken(room);
  let dropPeer = () => {};
  const door = frameDoor(token, (peer, why) => {
    console.warn(`friends: a peer let go (frames Trystero would keep: ${why})`);
    handlers.refused(peer, "friends_flood", `frames of another room or action (${why}): disconnected`);
    dropPeer(peer);
  });
  hookFrames(Connection, peerOf, (peer, data) => {
    if (!door(peer, data)) return false;
    return handlers.frame ? handlers.frame(peer, data) : undefined;
  });
  // since when no relay has been seen open (a relay's socket is closed and opened again on
  // purpose to announce now: announceNow), for health()
  const relaysSeen = { at: Date.now() };
  const sockets = () => [...Object.values(lib.trackerSockets() || {}), ...Object.values(lib.nostrSockets() || {})];
  const join = (name, joinRoom, urls) => {
    const config = {
      appId: APP_ID,
      relayConfig: { urls, warnOnRelayFailure: false },
      rtcConfig: rtc,
      rtcPolyfill: Connection,
    };
    // a peer that could not be reached is tried again by the relays' next offers: said, not fatal
    const joined = joinRoom(config, room, {
      onJoinError: (e) => console.warn(`friends: a peer could not join: ${e && e.error}`),
    });
    const medium = { name, room: joined, channel: joined.makeAction("m") };
    media.push(medium);
    medium.channel.onMessage = (data, ctx) => {
      const peer = ctx && ctx.peerId;
      if (typeof peer !== "string") return;
      const msg = readMessage(data, limit);
      if (msg.error) {
        handlers.refused(peer, msg.error.code, msg.error.message, msg.value);
        return;
      }
      handlers.message(peer, msg.value);
    };
    joined.onPeerJoin = (peer) => {
      const held = via.get(peer) || new Set();
      // the handlers hear of the peer when it is new, and again when the same medium takes it
      // again (Trystero replaced its connection there), as with one medium; not when the
      // second medium comes to a peer the first already holds
      const told = held.size && !held.has(medium);
      held.add(medium);
      via.set(peer, held);
      if (told) return;
      if (!performance.getEntriesByName("briscola:friends peer").length) performance.mark("briscola:friends peer");
      handlers.join(peer);
    };
    joined.onPeerLeave = (peer) => {
      const held = via.get(peer);
      if (!held || !held.delete(medium) || held.size) return;
      via.delete(peer);
      handlers.leave(peer);
    };
  };
  if (byMedium.trackers.length) join("trackers", lib.joinTorrent, byMedium.trackers);
  if (byMedium.nostr.length) join("nostr", lib.joinNostr, byMedium.nostr);
  const send = (peer, msg) => {
    const medium = carrier(peer);
    if (!medium) return;
    medium.channel.send(JSON.stringify({ v: PROTOCOL, ...msg }), { target: peer }).catch(() => {});
  };
  // A connection up for longer than Trystero's handshake may take, that no room has taken, is
  // closed (see mendedPeerConnection): both pages then connect afresh.
  // One on which nothing was heard is closed sooner: the other page's first words were lost.
  const joinedConnections = () => new Set(media.flatMap((m) => Object.values(m.room.getPeers())));
  const stopSweep = startSweep(Connection, joinedConnections, handlers.silent);
  const api = {
    self: lib.selfId,
    send,
    leave: async () => {
      stopSweep();
      await Promise.all(media.map((m) => m.room.leave()));
    },
    peers: () => [...via.keys()],
    // the media through which `peer` is connected now ("trackers", "nostr"), the one its
    // messages go through first
    mediaOf: (peer) => [...(via.get(peer) || [])].map((m) => m.name),
    // a peer let go, on every medium: its channels closed (Trystero then forgets the peer and
    // what it held of its messages), then its connections
    drop: (peer) => {
      for (const m of media) {
        const pc = m.room.getPeers()[peer];
        if (!pc) continue;
        for (const channel of pc.channels || []) channel.close();
        setTimeout(() => pc.close(), 1000);
      }
    },
    announce: () => announceNow(lib),
    health: () => health(sockets(), Connection, relaysSeen, { turn, relayOnly }),
  };
  dropPeer = api.drop;
  return api;
}

/** Trystero 0.25.4's token of a room (its frames carry it): the SHA-256 of its library name,
 * the app id and the room id, in hex (core crypto.mjs, deriveRoomNamespace). */
export async function roomToken(room) {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`Trystero:${APP_ID}:${room}`)));
  return [...hash].map((b) => b.toString(16).padStart(2, "0")).join("");
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
 * - {problem: "relays"}: no relay of either medium (`sockets`: every tracker's and every Nostr
 *   relay's) has been open for RELAYS_MS (since the room opened, or one was last seen open,
 *   `relaysSeen.at`);
 * - {problem: "relay_only"}: "hide my address" with no TURN server (no connection can open);
 * - {problem: "turn_full", url}: the TURN server refused an allocation for want of room (486:
 *   this user's quota; 508: no port left);
 * - {problem: "turn_auth" | "turn_unreachable", url}: the TURN server refused the username and
 *   credential, or did not answer (the browser's icecandidateerror, 401 / 701);
 * - {problem: "no_path", relayOnly, turn}: a page was heard through the relays, but no
 *   connection with it opened within STUCK_MS, and none opened since (a connection that lost
 *   the race to another with the same peer is no problem);
 * - null: nothing wrong known (connecting, or connected).
 * `connected`: whether a connection is open now. */
function health(sockets, Connection, relaysSeen, { turn, relayOnly }, now = Date.now()) {
  const relaysOpen = sockets.filter((s) => s && s.readyState === WebSocket.OPEN).length;
  if (relaysOpen) relaysSeen.at = now;
  const state = Connection.state(STUCK_MS, now);
  const base = { relaysOpen, connected: state.connected };
  if (!relaysOpen && !state.connected && now - relaysSeen.at >= RELAYS_MS) return { ...base, problem: "relays" };
  // "hide my address" with no TURN server: no candidate at all, nothing can connect
  if (relayOnly && !(turn && turn.urls) && !state.stuck) return { ...base, problem: "relay_only" };
  if (state.turnError && !state.connected) {
    const code = state.turnError.code;
    return { ...base, problem: code === 401 ? "turn_auth" : code === 486 || code === 508 ? "turn_full" : "turn_unreachable", url: state.turnError.url };
  }
  if (state.stuck) return { ...base, problem: "no_path", relayOnly: !!relayOnly, turn: !!(turn && turn.urls) };
  return { ...base, problem: null };
}
