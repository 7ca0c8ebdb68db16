// Prints, as JSON, what js/friends/wire.js makes of messages as they come from another device
// (the command line: a JSON list of [text, limit] pairs, or of values to send as they are), the
// depth check and the relay list. Read by tests/test_friends_wire.py.
import { LIMIT_TO_HOST, PROTOCOL, deeper, parseRelays, readMessage, relaysByMedium } from "../../js/friends/wire.js";

const cases = JSON.parse(process.argv[2]);
const read = cases.map(([data, limit]) => readMessage(data, limit ?? LIMIT_TO_HOST));
const nested = (n) => { let v = {}; for (let i = 0; i < n; i++) v = { a: v }; return v; };
console.log(JSON.stringify({
  protocol: PROTOCOL,
  limit: LIMIT_TO_HOST,
  read,
  deep: [deeper(nested(4), 4), deeper(nested(5), 4), deeper([[[[[[1]]]]]], 4), deeper({ t: "x", args: { action: "AD" } }, 4)],
  relays: parseRelays("wss://a.example/announce, ws://127.0.0.1:8000\n http://x.example javascript:alert(1) wss://b.example?q=1"),
  media: relaysByMedium(parseRelays("wss://t.example nostr:wss://n.example nostr:http://x.example nostrwss://y.example nostr:ws://127.0.0.1:9")),
}));
