// The room of a table with friends on both of its media: WebRTC data channels (./net.js's
// openRoom, signalled through the relays) and the relay fallback (./fallback.js, through the
// Nostr relays of the list, end to end encrypted). The pages (host.js, guest.js) see one room:
// a peer joins when it is heard on either, leaves when it is gone from both, and each message
// to a peer goes on the medium that peer last spoke on.
//
// When: the host's page listens on the fallback from the start (`listen`); a friend's page
// uses WebRTC, and opens the fallback when the browser has no RTCPeerConnection, or when no
// WebRTC path forms (health() says `no_path`, STUCK_MS). Without a Nostr relay in the list
// there is no fallback (health() says why nothing connects, as before).

import { STUCK_MS, openRoom } from "./net.js";
import { PROTOCOL, readMessage, relaysByMedium } from "./wire.js";
import { Fallback } from "./fallback.js";

/** Whether this browser has WebRTC at all (Debian's WebKitGTK has none). */
export function hasWebRTC() {
  return typeof globalThis.RTCPeerConnection === "function";
}

const WATCH_MS = 1000; // how often a friend's page looks whether to open the fallback
const BUSY_MS = 15000; // how long a queue given up is said

/**
 * Opens the table's room: openRoom's arguments and handlers, and `listen` (the host: the
 * fallback open from the start). Returns openRoom's object ({self, send, leave, peers, drop,
 * announce, health, mediaOf}) over both media, and medium(peer): "relay" when that peer is reached
 * through the relay fallback, else "direct"; relay(): whether the fallback is open.
 */
export async function openTable(opts, handlers, { listen = false } = {}) {
  // (openRoom marks it where there is WebRTC: the join's stages, bench/friends.py)
  if (!hasWebRTC()) performance.mark("briscola:friends room");
  const { nostr } = relaysByMedium(opts.relays);
  const lib = await import("./vendor.js");
  const present = new Set(); // the peers joined, on either medium
  const via = new Map(); // peer -> the medium it last spoke on
  let inner = null;
  let fallback = null;
  let opening = null;
  let busyAt = 0;
  let relaysSeen = Date.now();
  let closed = false;
  const canFallback = nostr.length > 0 && !!(globalThis.crypto && globalThis.crypto.subtle);
  const joined = (peer) => {
    if (present.has(peer)) return;
    present.add(peer);
    handlers.join(peer);
  };
  const left = (peer) => {
    if (!present.has(peer)) return;
    const still = (inner && inner.peers().includes(peer)) || (fallback && fallback.has(peer));
    if (still) return;
    present.delete(peer);
    via.delete(peer);
    handlers.leave(peer);
  };
  const openFallback = () => {
    if (opening || !canFallback || closed) return opening;
    console.info("friends: through the relay fallback (no WebRTC path, or no WebRTC here)");
    fallback = new Fallback({ room: opts.room, relays: nostr, self: lib.selfId, limit: opts.limit, schnorr: lib.schnorr }, {
      join: joined,
      leave: (peer) => left(peer),
      message: (peer, text) => {
        via.set(peer, "relay");
        const msg = readMessage(text, opts.limit);
        if (msg.error) handlers.refused(peer, msg.error.code, msg.error.message, msg.value);
        else handlers.message(peer, msg.value);
      },
      refused: (peer, code, message) => handlers.refused(peer, code, message),
      problem: () => { busyAt = Date.now(); },
    });
    opening = fallback.start().catch((err) => {
      console.warn(`friends: the relay fallback could not start: ${err}`);
      fallback = null;
    });
    return opening;
  };
  if (hasWebRTC()) {
    inner = await openRoom(opts, {
      ...handlers,
      join: (peer) => {
        via.set(peer, "direct");
        joined(peer);
      },
      leave: (peer) => left(peer),
      message: (peer, msg) => {
        via.set(peer, "direct");
        handlers.message(peer, msg);
      },
    });
  }
  if (listen || !inner) await openFallback();
  // a friend's page with no WebRTC path to anyone: the fallback, once health() says so
  const watcher = !listen && inner && canFallback ? setInterval(() => {
    if (fallback || closed) return;
    const health = inner.health();
    if (health.problem === "no_path" && !inner.peers().length) openFallback();
  }, WATCH_MS) : null;

  const medium = (peer) => {
    const direct = inner && inner.peers().includes(peer);
    const relayed = fallback && fallback.has(peer);
    if (relayed && (!direct || via.get(peer) === "relay")) return "relay";
    return "direct";
  };
  return {
    self: lib.selfId,
    send: (peer, msg) => {
      if (fallback && medium(peer) === "relay") fallback.send(peer, JSON.stringify({ v: PROTOCOL, ...msg }));
      else if (inner) inner.send(peer, msg);
    },
    leave: () => {
      closed = true;
      if (watcher) clearInterval(watcher);
      if (fallback) fallback.leave();
      return inner ? inner.leave() : Promise.resolve();
    },
    peers: () => [...present],
    // the signalling media of the WebRTC connections to `peer` (openRoom's mediaOf); none for
    // a peer reached through the relay fallback only (medium(peer) says "relay" then)
    mediaOf: (peer) => (inner ? inner.mediaOf(peer) : []),
    drop: (peer) => {
      if (inner) inner.drop(peer);
      if (fallback) fallback.drop(peer);
    },
    announce: () => (inner ? inner.announce() : undefined),
    medium,
    relay: () => !!fallback,
    /** openRoom's health(), and: {problem: "no_webrtc"} (no WebRTC here, no Nostr relay to
     * fall back on); {problem: "relays"} (the fallback alone, none of its relays open for
     * STUCK_MS); {problem: "relay_busy"} (the fallback gave up its queue lately); `relay`
     * (peers reached through the fallback: a no_path is no problem then). */
    health: () => {
      const now = Date.now();
      const fb = fallback ? fallback.state() : null;
      if (fb && fb.relaysOpen) relaysSeen = now;
      const base = inner ? inner.health() : { relaysOpen: 0, connected: false, problem: null };
      const relay = !!fb && fb.peers > 0;
      // the relays open: the WebRTC room's (its Nostr relays are the fallback's too, each counted
      // once), or the fallback's where this page has no WebRTC
      const out = { ...base, relay, relaysOpen: inner ? base.relaysOpen : (fb ? fb.relaysOpen : 0) };
      if (!inner && !canFallback) return { ...out, problem: "no_webrtc" };
      if (fb && now - busyAt < BUSY_MS && busyAt) return { ...out, problem: "relay_busy" };
      if (!inner && fb && !fb.relaysOpen && now - relaysSeen >= STUCK_MS) return { ...out, problem: "relays" };
      if (relay && base.problem === "no_path") return { ...out, problem: null };
      return out;
    },
  };
}
