// Prints, as JSON, what js/friends/wire.js makes of messages as they come from another device
// (the command line: a JSON list of [text, limit] pairs, or of values to send as they are), the
// depth check and the relay list. Read by tests/test_friends_wire.py.
import { LIMIT_TO_HOST, PROTOCOL, PartsBound, deeper, frameRefusal, parseRelays, readMessage, relaysByMedium } from "../../js/friends/wire.js";

// A data-channel frame as Trystero 0.25.4 sends it: a room frame (version 1) of `token` with an
// action name, or a presence frame (version 2).
const enc = new TextEncoder();
function frame(version, token, action = "") {
  const t = enc.encode(token);
  const head = version === 1 ? [1, t.length >> 8, t.length & 255] : [2, 1, t.length >> 8, t.length & 255];
  const body = new Uint8Array(version === 1 ? 36 + 10 : 0);
  body.set(enc.encode(action));
  const out = new Uint8Array(head.length + t.length + body.length);
  out.set(head);
  out.set(t, head.length);
  out.set(body, head.length + t.length);
  return out;
}
const TOKEN = "ab".repeat(32);
// A part of a chunked message (nonce `n`, `size` bytes of payload, the last or not).
function part(n, size, last) {
  const f = frame(1, TOKEN, "m");
  const out = new Uint8Array(f.length - 10 + size);
  out.set(f.subarray(0, f.length - 10));
  const at = 3 + TOKEN.length;
  out[at + 32] = 0; out[at + 33] = n; out[at + 34] = last ? 1 : 0;
  return out;
}
const bound = new PartsBound({ parts: 2, bytes: 5000, ms: 1000 });
const parts = [
  bound.frame("other", part(1, 100, false), false, 0), // another friend's page: nothing in parts
  bound.frame("host", part(1, 3000, false), true, 0), bound.frame("host", part(1, 100, true), true, 0), // a whole view
  bound.frame("host", part(2, 3000, false), true, 0), bound.frame("host", part(3, 100, false), true, 0),
  bound.frame("host", part(4, 100, false), true, 0), // a third unfinished
  bound.frame("host2", part(1, 3000, false), true, 0), bound.frame("host2", part(1, 3000, false), true, 0), // too big
];
const late = new PartsBound({ parts: 2, bytes: 5000, ms: 1000 });
late.frame("host", part(1, 10, false), true, 0);
const ticks = [late.tick(500), late.tick(1000), late.tick(2000)];

const cases = JSON.parse(process.argv[2]);
const read = cases.map(([data, limit]) => readMessage(data, limit ?? LIMIT_TO_HOST));
const nested = (n) => { let v = {}; for (let i = 0; i < n; i++) v = { a: v }; return v; };
console.log(JSON.stringify({
  protocol: PROTOCOL,
  limit: LIMIT_TO_HOST,
  read,
  deep: [deeper(nested(4), 4), deeper(nested(5), 4), deeper([[[[[[1]]]]]], 4), deeper({ t: "x", args: { action: "AD" } }, 4)],
  relays: parseRelays("wss://a.example/announce, ws://127.0.0.1:8000\n http://x.example javascript:alert(1) wss://b.example?q=1"),
  parts,
  ticks,
  frames: [frame(1, TOKEN, "m"), frame(1, TOKEN, "@_hsdata"), frame(1, TOKEN, "zz"), frame(1, "cd".repeat(32), "m"),
    frame(2, TOKEN), frame(2, "cd".repeat(32)), frame(1, TOKEN, "m").subarray(0, 70), new Uint8Array([9, 9, 9, 9]), "text"]
    .map((f) => frameRefusal(f, TOKEN)),
  media: relaysByMedium(parseRelays("wss://t.example nostr:wss://n.example nostr:http://x.example nostrwss://y.example nostr:ws://127.0.0.1:9")),
}));
