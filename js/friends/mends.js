// What "play with friends" mends in the library it connects with: Trystero
// (`@trystero-p2p/torrent` 0.25.4, `@trystero-p2p/nostr` 0.25.4 and their one
// `@trystero-p2p/core` 0.25.4, whose dist/peer.mjs, dist/handshake.mjs and dist/room.mjs hold the
// code mended here; package.json also pins `@thaunknown/simple-peer` 9.12.1 by an override). The
// connections of both media are made with the same mended class (./net.js). Used by ./net.js only.
//
// Each mend says what it mends, the test that shows it (tests/browser/test_friends*.py) and how
// to know when it can go. After an upgrade of Trystero, try each without its mend: a mend whose
// test passes without it (several runs, as the losses are rare) is no longer needed. The
// measures behind them: bench/friends.py --reloads (--trace), docs/friends.md.

import { FRAMES_REFUSED, frameRefusal } from "./wire.js";

/** Trystero's handshake gives up after 10 s (handshake.mjs, handshakeTimeoutMs); a connection
 * up this long and still not one of the room's peers will never be (mendedPeerConnection). */
export const UNJOINED_MS = 15000;
/** A connection up this long on which nothing has come: its other side's words were lost. */
export const SILENT_MS = 5000;
const SWEEP_MS = 2000;

/** The RTCPeerConnection Trystero makes its connections with (its `rtcPolyfill`). It mends four
 * things Trystero does to them, and tells ./net.js's health() what Trystero does not: whether a
 * connection is up, a TURN server's refusal, a connection answered that never opened (`state`).
 *
 * 1. The offer made again. An offer not answered in time is made again with an ICE restart,
 *    after a rollback of the first offer (core peer.mjs). In Chromium that rollback also drops
 *    the data channel's section: the offer made after it has nothing to connect and never
 *    gathers an address, and a friend's page that got it stayed "Connecting". After about ten
 *    quick reloads of a friend's page, such offers were most of the host's. Here a rollback of
 *    an offer never answered is skipped: the new offer simply replaces it, with its section and
 *    fresh ICE credentials (`setLocalDescription`).
 *    Shown by: test_an_offer_made_again_can_still_connect (it makes the rollback itself).
 *    Can go when Trystero no longer rolls back an unanswered offer, or Chromium keeps the
 *    section through a rollback: run that test with the override removed (a plain
 *    RTCPeerConnection in it); if it passes, remove the override.
 *
 * 2. The failed connection. Trystero lets a failed connection go (the peer leaves) but does
 *    not close it: each reload of a friend's page left one open on the host's. Here it closes
 *    itself once "failed" (the connectionstatechange listener).
 *    Shown by: test_a_connection_that_failed_is_closed (this class's own behaviour), measured
 *    by bench/friends.py --reloads (the host's open connections).
 *    Can go when Trystero closes a failed connection itself (core peer.mjs, where it sees
 *    "failed"): bench/friends.py --reloads without the line shows no connection left open.
 *
 * 3. The lost readiness and the silent channel (`sweep`, every 2 s: startSweep).
 *    Once connected, both pages tell each other they are ready; a page joins the peer when it
 *    has told and been told. If the other's word is lost (seen on about one quick reload in 50
 *    on a busy machine, one in 330 on a quieter one), the other page has joined this one and
 *    never says it again: the handshake gives up after 10 s and lets go of the peer, but the
 *    connection stays open and is taken again for the other's next offers, only to give up
 *    again. The page stayed "Connecting" for good. `sweep` closes a connection up for
 *    UNJOINED_MS that is none of the room's peers': the other page's peer leaves, and the two
 *    connect afresh.
 *    How the word is lost (bench/friends.py --reloads --trace): the answering page's first
 *    messages, sent as its channel opened, never reach the offering page's channel, while the
 *    offering page's own arrive. Trystero sends its readiness the moment a channel opens, so a
 *    channel that has heard nothing SILENT_MS after its connection came up never will: `sweep`
 *    closes it then (openRoom's `silent` handler is told), well before the handshake gives up.
 *    Shown by: test_a_readiness_lost_on_the_way_still_joins (the 15 s close),
 *    test_a_connection_that_hears_nothing_is_closed_before_the_handshake_gives_up and
 *    test_a_connection_on_which_the_host_heard_nothing_is_made_again_at_once (the 5 s close).
 *    Can go when Trystero closes the connection of a handshake that timed out, or says its
 *    readiness again until it is heard (core handshake.mjs): run the first test without the
 *    15 s close, the other two without the 5 s one. These tests lose the words on purpose, so
 *    whether the loss itself still happens is for bench/friends.py --reloads --trace to say.
 *
 * 6. The offers made ahead (after the announce now and mend 5, below). Trystero makes 20 offers ahead for each medium (core
 *    offer-pool.mjs), each gathering its addresses at once; with a TURN server each took an
 *    allocation, though a page sends only a few (3 at a time to the trackers, one to each peer it meets):
 *    a table of two took 82 allocations, so a TURN server of 100 ports served one table. Here,
 *    with a TURN server given, an offer's first setLocalDescription is held until Trystero asks
 *    for it (it reads localDescription to send it, getOffer) or makes it again (an ICE
 *    restart): the table took 10 (5 a page). An answering connection and any connection
 *    without a TURN server are made as before.
 *    Shown by: test_an_offer_made_ahead_takes_a_turn_allocation_only_once_sent (test_friends.py),
 *    the count by test_a_whole_deal_through_a_turn_server_with_addresses_hidden.
 *    Can go when Trystero makes its offers on demand, or fewer ahead: run the whole-deal test
 *    without the hold; if its count holds, remove it.
 *
 * `onFrame` (set by hookFrames) gets every data-channel frame before Trystero reassembles it:
 * Trystero keeps an unfinished chunked message's parts with no bound until the peer leaves, so
 * the referee counts them and lets a peer go past its bounds (docs/friends.md).
 * Shown by: test_a_chunked_message_never_finished_lets_the_flooder_go_and_the_memory_comes_back
 * (test_friends_flood.py). Can go when Trystero bounds the parts it keeps per peer and per
 * message: run that test with no `frame` handler given to openRoom.
 *
 * Not a mend, kept here because it lives on the same connections: `state` (health()).
 * Shown by: test_a_wrong_turn_credential_is_said_on_both_pages, test_no_webrtc_path_is_said_on_both_pages
 * (test_friends_connect.py). */
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
      // mend 6: with a TURN server, an offer made ahead gathers (and takes its allocation) only
      // once Trystero takes it from its pool to send it
      this.deferring = !!(config && Array.isArray(config.iceServers) && config.iceServers.some((s) =>
        [].concat(s && s.urls).some((u) => /^turns?:/.test(String(u)))));
      this.offering = false; // it made the data channel: one of Trystero's offers
      this.held = null; // the offer's setLocalDescription held back: {go, done}
      this.upSince = 0;
      this.heard = false; // a message came on one of its channels
      this.channels = new Set();
      this.answeredAt = 0; // when the other page's description came (through the relays)
      this.addEventListener("connectionstatechange", () => {
        if (this.connectionState === "connected" && !this.upSince) {
          this.upSince = Date.now();
          lastUp = this.upSince;
        }
        if (this.connectionState === "failed") this.close(); // mend 2
      });
      // a TURN server that refused this page (401: the username or credential) or never
      // answered (701) is said to the person (health, openRoom)
      this.addEventListener("icecandidateerror", (e) => {
        if (/^turns?:/.test(String(e.url || "")) && [401, 486, 508, 701].includes(e.errorCode)) {
          turnError = { code: e.errorCode, url: String(e.url).slice(0, 200), at: Date.now() };
        }
      });
      this.addEventListener("datachannel", (e) => this.listen(e.channel));
    }

    createDataChannel(...args) {
      this.offering = true;
      const channel = super.createDataChannel(...args);
      this.listen(channel);
      return channel;
    }

    listen(channel) {
      channel.addEventListener("message", () => { this.heard = true; }, { once: true });
      this.channels.add(channel);
      // (before Trystero's own handler: a frame refused never reaches it)
      channel.addEventListener("message", (e) => { if (Mended.onFrame && Mended.onFrame(this, e.data) === false) e.stopImmediatePropagation(); });
    }

    close() {
      open.delete(this);
      return super.close();
    }

    setRemoteDescription(description) {
      if (!this.answeredAt) this.answeredAt = Date.now();
      return super.setRemoteDescription(description);
    }

    setLocalDescription(description) { // mend 1
      if (description && description.type === "rollback" && this.signalingState === "have-local-offer"
        && !this.currentRemoteDescription) return Promise.resolve();
      // mend 6: the first offer of one made ahead is held until it is asked for (localDescription)
      if (description === undefined && this.deferring && this.offering && this.signalingState === "stable"
        && !super.localDescription && !super.remoteDescription) {
        if (!this.held) {
          let go;
          const asked = new Promise((resolve) => { go = resolve; });
          this.held = { go, done: asked.then((make) => (make ? super.setLocalDescription() : undefined)) };
        }
        return this.held.done;
      }
      // another description first (the offer made again, with an ICE restart): it is the one
      this.release(false);
      return super.setLocalDescription(description);
    }

    /** Mend 6: the held offer made now (`make`), or let go for another. */
    release(make) {
      const go = this.held && this.held.go;
      if (!go) return;
      this.held.go = null;
      go(make);
    }

    // mend 6: Trystero reads it to send its offer (getOffer): the held offer is made now
    get localDescription() {
      this.release(true);
      return super.localDescription;
    }

    /** Whether a connection is up now; the last TURN error (of the last minute); whether one
     * the other page answered has waited `stuckMs` without opening, none having opened since. */
    static state(stuckMs, now = Date.now()) {
      let connected = false;
      for (const pc of open) {
        if (pc.connectionState === "connected") connected = true;
        else if (pc.connectionState !== "closed" && !pc.upSince && pc.answeredAt
          && now - pc.answeredAt >= stuckMs && lastUp < pc.answeredAt) stuckSeen = now;
      }
      // said until a connection comes up (a stuck one closed and offered again is still stuck)
      const stuck = !!stuckSeen && lastUp < stuckSeen && now - stuckSeen < 60000;
      const recent = turnError && now - turnError.at < 60000 && lastUp < turnError.at ? turnError : null;
      return { connected, stuck, turnError: recent };
    }

    /** One sweep (mend 3): closes every connection up for `unjoined` ms or more that is not in
     * `joined` (the room's peers' connections), and every one up for `silent` ms or more on
     * which nothing was heard; how many of the latter. */
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

/** Mend 3's timer: every SWEEP_MS, `Connection.sweep` over the rooms' peers' connections
 * (`joined()`: those of every medium's room, ./net.js); `silent()` (if given) when it closed a
 * connection that heard nothing. Returns the function that stops it. */
export function startSweep(Connection, joined, silent) {
  const sweeper = setInterval(() => {
    if (Connection.sweep(joined(), UNJOINED_MS, SILENT_MS) && silent) silent();
  }, SWEEP_MS);
  return () => clearInterval(sweeper);
}

/** Each data-channel frame of a room's peer, before Trystero reassembles it: `frame(peer, data)`
 * (see mendedPeerConnection, `onFrame`). `peerOf(pc)`: the id of the peer whose connection (on
 * either medium) `pc` is, or undefined (a connection no room has taken). */
export function hookFrames(Connection, peerOf, frame) {
  Connection.onFrame = (pc, data) => {
    const id = peerOf(pc);
    return id === undefined ? undefined : frame(id, data);
  };
}

/**
 * Mend 5: what Trystero keeps. Trystero 0.25.4 keeps every frame for a room token it does not
 * hold (until the peer leaves), and every whole message of an action name nobody listens to
 * (for good, its room's `pendingActionPayloads`): a page could fill another's memory through
 * an open data channel (500 MB in 20 s). The frames are looked at before Trystero's handler
 * (frameRefusal, wire.js): one of another room or of an unknown action never reaches it, is
 * counted, and past FRAMES_REFUSED the peer is let go (`drop(peer, why)`).
 * Shown by: test_frames_trystero_would_keep_are_refused_and_the_flooder_let_go
 * (test_friends_flood.py). Can go when Trystero drops what no room or action holds: run that
 * test with the door letting every frame through.
 */
export function frameDoor(token, drop) {
  const refused = new Map(); // peer -> frames refused
  return (peer, data) => {
    const why = frameRefusal(data, token);
    if (!why) return true;
    const n = (refused.get(peer) || 0) + 1;
    refused.delete(peer);
    refused.set(peer, n);
    if (refused.size > 256) refused.delete(refused.keys().next().value);
    if (n === FRAMES_REFUSED + 1) drop(peer, why);
    return false;
  };
}

/** The announce now. Makes the trackers pass this page's offers on now, not at its next
 * announce, which a tracker may ask for only every 2 minutes (the reference server's default):
 * Trystero announces on every tracker it reconnects to, so each tracker's socket is closed, with
 * its reconnection held until it has closed (Trystero's own pause, as when the browser goes
 * offline), then let go at once. `lib`: ./vendor.js.
 * The Nostr relays' sockets are left alone: Trystero's Nostr strategy does not announce when it
 * reconnects (it subscribes again), and one closed just as it announces backs off for a minute
 * or more. It needs no such mend as much: it announces again by itself when a connected peer
 * goes (its `reannounceOnDisconnect`), every 60 s otherwise, and a page that hears an announce
 * there answers it at once, whichever id sorts higher (core signal-handler.mjs).
 * Shown by: test_a_connection_on_which_the_host_heard_nothing_is_made_again_at_once and
 * test_a_readiness_lost_on_the_way_still_joins (a tracker that asks every 120 s).
 * Can go when Trystero can be told to announce now (or offers again by itself when a peer
 * leaves before its handshake): run those tests with `announce()` doing nothing. */
export function announceNow(lib) {
  const sockets = Object.values(lib.trackerSockets()).filter((s) => s && s.readyState === WebSocket.OPEN);
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

let quiet = false;
/** The quiet closing. Trystero reports a peer whose page closed its channel (a tab closed or
 * reloaded) with console.error (core room.mjs, "peer error:"); here that is no error but a
 * friend reconnecting (shown at the table), so that one report becomes a warning. So is a channel
 * the other side cut while this page was sending (Chromium: an RTCError with no message and
 * errorDetail "data-channel-failure" or "sctp-failure"; the host lets go of a flooding friend
 * that way). Every other error is passed on as it is.
 * Shown by: test_a_friend_reloads_mid_deal_and_takes_the_seat_back,
 * test_the_host_reloads_and_everyone_reconnects and
 * test_a_chunked_message_never_finished_lets_the_flooder_go_and_the_memory_comes_back (a console
 * error on any page fails a test).
 * Can go when Trystero no longer reports a closed channel as an error: run those two tests
 * without it. */
export function quietClosings() {
  if (quiet) return;
  quiet = true;
  const report = console.error;
  console.error = (...args) => {
    const err = args[1] || {};
    const closed = typeof args[0] === "string" && args[0].endsWith("peer error:")
      && (/User-Initiated Abort|Close called/.test(String(err.message))
        || (!err.message && /^(data-channel|sctp)-failure$/.test(String(err.errorDetail))));
    return (closed ? console.warn : report).apply(console, args);
  };
}
