// A Nostr client for tests/test_relays.py: against the local Nostr relay (tools/relay/nostr.mjs)
// at argv[2], one subscriber and one publisher. The publisher sends a good ephemeral event, the
// same with its content changed after signing (its id no longer its hash), the same with a new id
// but the old signature, and a signature of another key; it prints, as one JSON line, what the
// relay answered each (["OK", id, accepted, reason]) and which events the subscriber received.
import { createHash } from "node:crypto";
import { schnorr } from "@noble/secp256k1";
import WebSocket from "ws";

const url = process.argv[2];
const hex = (bytes) => Buffer.from(bytes).toString("hex");
const idOf = (e) => createHash("sha256").update(JSON.stringify([0, e.pubkey, e.created_at, e.kind, e.tags, e.content])).digest("hex");

async function signed(secret, content, kind = 24242) {
  const event = { pubkey: hex(schnorr.getPublicKey(secret)), created_at: Math.floor(Date.now() / 1000), kind, tags: [["x", "topic"]], content };
  event.id = idOf(event);
  event.sig = hex(await schnorr.signAsync(Buffer.from(event.id, "hex"), secret));
  return event;
}

const open = (u) => new Promise((resolve, reject) => {
  const ws = new WebSocket(u);
  ws.once("open", () => resolve(ws));
  ws.once("error", reject);
});

const key = schnorr.keygen().secretKey;
const other = schnorr.keygen().secretKey;
const good = await signed(key, "good");
const badId = { ...(await signed(key, "tampered")), content: "changed after signing" };
const reused = await signed(key, "new content");
const badSig = { ...reused, sig: good.sig }; // a valid signature, of another event
const foreign = await signed(key, "foreign");
foreign.sig = hex(await schnorr.signAsync(Buffer.from(foreign.id, "hex"), other)); // another key's

const sub = await open(url);
const pub = await open(url);
const received = [];
sub.on("message", (d) => {
  const m = JSON.parse(String(d));
  if (m[0] === "EVENT") received.push(m[2].content);
});
await new Promise((resolve) => {
  sub.on("message", function eose(d) {
    if (JSON.parse(String(d))[0] === "EOSE") { sub.off("message", eose); resolve(); }
  });
  sub.send(JSON.stringify(["REQ", "s1", { kinds: [24242], "#x": ["topic"] }]));
});
const answers = {};
const waiting = new Map();
pub.on("message", (d) => {
  const m = JSON.parse(String(d));
  if (m[0] === "OK" && waiting.has(m[1])) waiting.get(m[1])(m);
});
for (const [name, event] of Object.entries({ badId, badSig, foreign, good })) {
  answers[name] = await new Promise((resolve) => {
    waiting.set(event.id, resolve);
    pub.send(JSON.stringify(["EVENT", event]));
  });
}
await new Promise((r) => setTimeout(r, 300)); // what the subscriber still gets
console.log(JSON.stringify({ answers, received }));
sub.close();
pub.close();
