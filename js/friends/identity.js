// Who is who in "play with friends": the room's id, the host's key (ECDSA P-256) with its
// signing and verifying, the nonces a friend's page asks with, and the invitation's link
// (what a link leaves out is the default: DEFAULT_RELAYS, DEFAULT_STUN). Re-exported by
// ./net.js, where the pages import them from.
//
// The invitation carries the host's public key; the host's page keeps the private key with its
// game, so that after a reload it is still the host. A friend's page asks every peer of the
// room "who" with a fresh nonce and listens only to the one that signs
// `nonce|friend's peer id|its own peer id` with that key.

/** The default relays, a setting: public WebTorrent trackers (WebSocket), and public Nostr
 * relays (written `nostr:wss://...`), the two media the pages signal through at once
 * (./net.js), and the medium of the relay fallback (./rooms.js). The Nostr relays are from the list Trystero 0.25.4 ships (relays it found to pass
 * its ephemeral events on), chosen among those run for a wide public: docs/friends.md. */
export const DEFAULT_RELAYS = [
  "wss://tracker.openwebtorrent.com",
  "wss://tracker.webtorrent.dev",
  "wss://tracker.btorrent.xyz",
  "nostr:wss://nos.lol",
  "nostr:wss://relay.mostr.pub",
  "nostr:wss://purplerelay.com",
  "nostr:wss://yabu.me/v2",
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

const ECDSA = { name: "ECDSA", namedCurve: "P-256" };
const SIGN = { name: "ECDSA", hash: "SHA-256" };
/** Bytes as base64url (in slices: a sealed view is too long for one call's arguments). */
export function b64url(bytes) {
  let s = "";
  const a = new Uint8Array(bytes);
  for (let i = 0; i < a.length; i += 0x8000) s += String.fromCharCode(...a.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function unb64url(text) {
  return Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
}
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
