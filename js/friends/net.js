// The transport of "play with friends": WebRTC data channels between the host's page and each
// friend's, found through public WebTorrent trackers (Trystero's torrent strategy, bundled
// into ./vendor.js by tools/build/friends.py; docs/friends.md says why this one).
//
// Every message is one JSON text: `send` writes it, `onMessage` gets it only once its size is
// checked (before JSON.parse) and it parses to an object with the protocol's version `v`
// (PROTOCOL) and a string `t`; the rest of its shape is checked by its reader (host.js,
// guest.js). Nothing about the game passes through the relays: they only carry the offers and
// answers that connect the pages (encrypted by Trystero with a key from the room's id).

import { BUILD } from "../build-info.js";
import { PROTOCOL, readMessage } from "./wire.js";

export { PROTOCOL, LIMIT_TO_HOST, LIMIT_TO_FRIEND, deeper, parseRelays, readMessage } from "./wire.js";

/** The build (both pages must be the same: the host's views are what this page draws). */
export const BUILD_HASH = BUILD.hash;
export const APP_ID = "briscola-friends";

/** Public WebTorrent trackers (WebSocket): the default relays, a setting. */
export const DEFAULT_RELAYS = [
  "wss://tracker.openwebtorrent.com",
  "wss://tracker.webtorrent.dev",
  "wss://tracker.btorrent.xyz",
];
/** The STUN server that tells each page its address across networks: a setting ("" for none). */
export const DEFAULT_STUN = "stun:stun.l.google.com:19302";

/** A room id: 16 random letters and digits. */
export function newRoomId() {
  const abc = "abcdefghijkmnpqrstuvwxyz23456789";
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return [...bytes].map((b) => abc[b % abc.length]).join("");
}

export const ROOM_RE = /^[a-z0-9]{8,32}$/;

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
  if (handlers.frame) {
    Connection.onFrame = (pc, data) => {
      const peers = opened ? opened.getPeers() : {};
      for (const id of Object.keys(peers)) if (peers[id] === pc) return handlers.frame(id, data);
      return undefined;
    };
  }
  const config = {
    appId: APP_ID,
    relayConfig: { urls: relays, warnOnRelayFailure: false },
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
  const sweeper = setInterval(() => {
    if (Connection.sweep(new Set(Object.values(joined.getPeers())), UNJOINED_MS, SILENT_MS) && handlers.silent) handlers.silent();
  }, SWEEP_MS);
  return {
    self: lib.selfId,
    send,
    leave: () => {
      clearInterval(sweeper);
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
  const state = Connection.state(now);
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

/** Makes the relays pass this page's offers on now, not at its next announce, which a tracker
 * may ask for only every 2 minutes (the reference server's default): Trystero announces on every
 * relay it reconnects to, so each relay's socket is closed, with its reconnection held until it
 * has closed (Trystero's own pause, as when the browser goes offline), then let go at once. */
function announceNow(lib) {
  const sockets = Object.values(lib.getRelaySockets()).filter((s) => s && s.readyState === WebSocket.OPEN);
  if (!sockets.length || !navigator.onLine) return;
  lib.pauseRelayReconnection();
  let left = sockets.length;
  const resume = () => {
    left = 0;
    if (navigator.onLine) lib.resumeRelayReconnection();
  };
  const fallback = setTimeout(resume, 5000); // a socket that never says it closed
  for (const socket of sockets) {
    socket.addEventListener("close", () => {
      if (left && --left === 0) {
        clearTimeout(fallback);
        resume();
      }
    }, { once: true });
    socket.close();
  }
}

/** Trystero's handshake gives up after 10 s; a connection up this long and still not one of the
 * room's peers will never be (mendedPeerConnection). */
const UNJOINED_MS = 15000;
/** A connection up this long on which nothing has come: its other side's words were lost. */
const SILENT_MS = 5000;
const SWEEP_MS = 2000;

/** The RTCPeerConnection Trystero makes its connections with (its `rtcPolyfill`), mending three
 * things it does to them (docs/friends.md, bench/friends.py --reloads):
 * - An offer not answered in time is made again with an ICE restart, after a rollback of the
 *   first offer. In Chromium that rollback also drops the data channel's section: the offer
 *   made after it has nothing to connect and never gathers an address, and a friend's page that
 *   got it stayed "Connecting". After about ten quick reloads of a friend's page, such offers
 *   were most of the host's. Here a rollback of an offer never answered is skipped: the new
 *   offer simply replaces it, with its section and fresh ICE credentials.
 * - A failed connection is let go (the peer leaves) but not closed: here it closes itself.
 * - Once connected, both pages tell each other they are ready; a page joins the peer when it
 *   has told and been told. If the other's word is lost (seen on about one quick reload in 50
 *   on a busy machine, one in 330 on a quieter one), the other page has joined this one and
 *   never says it again: here the handshake gives up after 10 s and lets go of the peer, but
 *   the connection stays open and is taken again for the other's next offers, only to give up
 *   again. The page stayed "Connecting" for good. `sweep` (every 2 s, openRoom) closes
 *   a connection up for `ms` that is none of the room's peers': the other page's peer leaves,
 *   and the two connect afresh.
 * - How the word is lost (bench/friends.py --reloads --trace): the answering page's first
 *   messages, sent as its channel opened, never reach the offering page's channel, while the
 *   offering page's own arrive. Trystero sends its readiness the moment a channel opens, so a
 *   channel that has heard nothing `ms` after its connection came up never will:
 *   `sweep` closes it then (openRoom's `silent` handler is told), well before the
 *   handshake gives up. */
export function mendedPeerConnection() {
  const Base = globalThis.RTCPeerConnection;
  const open = new Set(); // the connections not closed, each with when it first connected
  let lastUp = 0; // when a connection last came up
  let turnError = null; // the last error of a TURN server, {code, url, at}
  let stuckSeen = 0; // when a connection the other page answered was last seen stuck
  return class Mended extends Base {
    constructor(config) {
      super(config);
      open.add(this);
      this.upSince = 0;
      this.heard = false; // a message came on one of its channels
      this.channels = new Set();
      this.answeredAt = 0; // when the other page's description came (through the relays)
      this.addEventListener("connectionstatechange", () => {
        if (this.connectionState === "connected" && !this.upSince) {
          this.upSince = Date.now();
          lastUp = this.upSince;
        }
        if (this.connectionState === "failed") this.close();
      });
      // a TURN server that refused this page (401: the username or credential) or never
      // answered (701) is said to the person (health, openRoom)
      this.addEventListener("icecandidateerror", (e) => {
        if (/^turns?:/.test(String(e.url || "")) && (e.errorCode === 401 || e.errorCode === 701)) {
          turnError = { code: e.errorCode, url: String(e.url).slice(0, 200), at: Date.now() };
        }
      });
      this.addEventListener("datachannel", (e) => this.listen(e.channel));
    }

    createDataChannel(...args) {
      const channel = super.createDataChannel(...args);
      this.listen(channel);
      return channel;
    }

    listen(channel) {
      channel.addEventListener("message", () => { this.heard = true; }, { once: true });
      this.channels.add(channel);
      channel.addEventListener("message", (e) => { if (Mended.onFrame) Mended.onFrame(this, e.data); });
    }

    close() {
      open.delete(this);
      return super.close();
    }

    setRemoteDescription(description) {
      if (!this.answeredAt) this.answeredAt = Date.now();
      return super.setRemoteDescription(description);
    }

    setLocalDescription(description) {
      if (description && description.type === "rollback" && this.signalingState === "have-local-offer"
        && !this.currentRemoteDescription) return Promise.resolve();
      return super.setLocalDescription(description);
    }

    /** Whether a connection is up now; the last TURN error (of the last minute); whether one
     * the other page answered has waited STUCK_MS without opening, none having opened since. */
    static state(now = Date.now()) {
      let connected = false;
      for (const pc of open) {
        if (pc.connectionState === "connected") connected = true;
        else if (pc.connectionState !== "closed" && !pc.upSince && pc.answeredAt
          && now - pc.answeredAt >= STUCK_MS && lastUp < pc.answeredAt) stuckSeen = now;
      }
      // said until a connection comes up (a stuck one closed and offered again is still stuck)
      const stuck = !!stuckSeen && lastUp < stuckSeen && now - stuckSeen < 60000;
      const recent = turnError && now - turnError.at < 60000 && lastUp < turnError.at ? turnError : null;
      return { connected, stuck, turnError: recent };
    }

    /** One sweep: closes every connection up for `unjoined` ms or more that is not in `joined`
     * (the room's peers' connections), and every one up for `silent` ms or more on which nothing
     * was heard; how many of the latter. */
    static sweep(joined, unjoined, silent, now = Date.now()) {
      let silenced = 0;
      for (const pc of [...open]) {
        if (pc.connectionState === "closed") open.delete(pc);
        else if (!pc.upSince) continue;
        else if (!pc.heard && now - pc.upSince >= silent) {
          pc.close();
          silenced++;
        } else if (now - pc.upSince >= unjoined && !joined.has(pc)) pc.close();
      }
      return silenced;
    }
  };
}

let quiet = false;
/** Trystero reports a peer whose page closed its channel (a tab closed or reloaded) with
 * console.error; here that is no error but a friend reconnecting (shown at the table), so that
 * one report becomes a warning. Every other error is passed on as it is. */
function quietClosings() {
  if (quiet) return;
  quiet = true;
  const report = console.error;
  console.error = (...args) => {
    const closed = typeof args[0] === "string" && args[0].endsWith("peer error:")
      && /User-Initiated Abort|Close called/.test(String(args[1] && args[1].message));
    return (closed ? console.warn : report).apply(console, args);
  };
}

// ---- the host's key ---------------------------------------------------------------------------
// The invitation carries the host's public key (ECDSA P-256); the host's page keeps the private
// key with its game, so that after a reload it is still the host. A friend's page asks every
// peer of the room "who" with a fresh nonce and listens only to the one that signs
// `nonce|friend's peer id|its own peer id` with that key.

const ECDSA = { name: "ECDSA", namedCurve: "P-256" };
const SIGN = { name: "ECDSA", hash: "SHA-256" };
const b64url = (bytes) => btoa(String.fromCharCode(...new Uint8Array(bytes))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const unb64url = (text) => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
export const KEY_RE = /^[A-Za-z0-9_-]{87}$/;

/** A new host key: {pub (the link's text), jwk (the private key, kept with the game)}. */
export async function newHostKey() {
  const pair = await crypto.subtle.generateKey(ECDSA, true, ["sign", "verify"]);
  return { pub: b64url(await crypto.subtle.exportKey("raw", pair.publicKey)), jwk: await crypto.subtle.exportKey("jwk", pair.privateKey) };
}

/** sign(text) -> base64url, with the kept private key. */
export async function signer(jwk) {
  const key = await crypto.subtle.importKey("jwk", jwk, ECDSA, false, ["sign"]);
  return async (text) => b64url(await crypto.subtle.sign(SIGN, key, new TextEncoder().encode(text)));
}

/** verify(text, sig) -> boolean, with the link's public key. */
export async function verifier(pub) {
  const key = await crypto.subtle.importKey("raw", unb64url(pub), ECDSA, false, ["verify"]);
  return async (text, sig) => {
    try {
      return typeof sig === "string" && sig.length <= 200 && (await crypto.subtle.verify(SIGN, key, unb64url(sig), new TextEncoder().encode(text)));
    } catch {
      return false;
    }
  };
}

export function nonce() {
  return b64url(crypto.getRandomValues(new Uint8Array(18)));
}

/** The invitation's link: this page with the room, the host's public key (a friend's page
 * listens only to the peer that proves it holds the private one) and the relays (and STUN when
 * not the default, and `turn` {urls, username, credential} when given). */
export function inviteLink(room, host, relays, stun, turn = null) {
  const url = new URL(location.href);
  url.search = "";
  url.hash = "";
  url.searchParams.set("join", room);
  url.searchParams.set("host", host);
  url.searchParams.set("relays", relays.join(","));
  if (stun !== DEFAULT_STUN) url.searchParams.set("stun", stun);
  // the TURN server, only where the host chose to share it (its credential goes with it);
  // "hide my address" never: it is each person's own choice
  if (turn && turn.urls) {
    url.searchParams.set("turn", turn.urls);
    url.searchParams.set("turn_user", turn.username);
    url.searchParams.set("turn_credential", turn.credential);
  }
  return url.href;
}
