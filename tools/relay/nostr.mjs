// A local Nostr relay (NIP-01) for the tests and for trying "play with friends" without the
// Internet: the kind of public relay the page's second signalling medium goes through
// (js/friends/net.js), WebSocket only, on 127.0.0.1 only, everything in memory.
//
//   node tools/relay/nostr.mjs --port 8766      # ws://127.0.0.1:8766
//   (the page takes it as nostr:ws://127.0.0.1:8766 in ?relays=; `npm run relays` starts it
//   beside the tracker)
//
// It checks what a public relay checks: an event's id is the SHA-256 of its serialisation and
// its signature (BIP-340 Schnorr) is its author's; an event that fails either is refused with
// ["OK", id, false, "invalid: ..."]. Ephemeral events (kinds 20000 to 29999, what Trystero and
// the page send) go to the subscriptions open now and are not kept; others are kept (the last
// 1,000) and sent to later subscriptions too. Each message it hears and sends can be written to
// a log (--log FILE, one JSON line each) for the tests that read what a relay sees.
//
// It prints one line, "nostr ws://127.0.0.1:PORT", once it listens (port 0: a free one), and
// stops on SIGTERM / SIGINT.
import { createHash } from "node:crypto";
import { appendFileSync } from "node:fs";
import { schnorr } from "@noble/secp256k1";
import { WebSocketServer } from "ws";
import { intArg } from "./args.mjs";

const KEEP = 1000; // stored (not ephemeral) events
const MAX_MESSAGE = 256 * 1024; // what one message may weigh (public relays: 64 KB to 512 KB)
const MAX_SUBS = 64; // subscriptions per connection

export function startNostr({ port = 0, log = null } = {}) {
  const kept = [];
  const clients = new Set();
  const write = (dir, text) => {
    if (log) appendFileSync(log, JSON.stringify({ at: Date.now(), dir, text }) + "\n");
  };
  const publish = (event) => {
    const ephemeral = event.kind >= 20000 && event.kind < 30000;
    if (!ephemeral) {
      kept.push(event);
      if (kept.length > KEEP) kept.shift();
    }
    for (const other of clients) {
      for (const [id, filters] of other.subs) if (filters.some((f) => matches(f, event))) other.send(["EVENT", id, event]);
    }
  };
  const server = new WebSocketServer({ host: "127.0.0.1", port, maxPayload: MAX_MESSAGE });
  server.on("connection", (socket) => {
    const subs = new Map(); // id -> filters
    const client = { socket, subs };
    clients.add(client);
    const send = (msg) => {
      const text = JSON.stringify(msg);
      write("out", text);
      if (socket.readyState === socket.OPEN) socket.send(text);
    };
    client.send = send;
    socket.on("message", (data) => {
      const text = String(data);
      write("in", text);
      let msg;
      try {
        msg = JSON.parse(text);
      } catch {
        send(["NOTICE", "invalid: not JSON"]);
        return;
      }
      if (!Array.isArray(msg)) return send(["NOTICE", "invalid: not an array"]);
      const [type, ...rest] = msg;
      if (type === "EVENT") {
        const event = rest[0];
        invalid(event).then((problem) => {
          if (problem) return send(["OK", event && event.id, false, `invalid: ${problem}`]);
          send(["OK", event.id, true, ""]);
          publish(event);
        });
      } else if (type === "REQ") {
        const [id, ...filters] = rest;
        if (typeof id !== "string" || !id || id.length > 64) return send(["NOTICE", "invalid: subscription id"]);
        if (!filters.every((f) => f && typeof f === "object" && !Array.isArray(f))) return send(["CLOSED", id, "invalid: filter"]);
        if (!subs.has(id) && subs.size >= MAX_SUBS) return send(["CLOSED", id, "rate-limited: too many subscriptions"]);
        subs.set(id, filters);
        for (const event of kept) if (filters.some((f) => matches(f, event))) send(["EVENT", id, event]);
        send(["EOSE", id]);
      } else if (type === "CLOSE") {
        subs.delete(rest[0]);
      } else {
        send(["NOTICE", `invalid: unknown message ${JSON.stringify(type)}`]);
      }
    });
    socket.on("close", () => clients.delete(client));
    socket.on("error", () => clients.delete(client));
  });
  return server;
}

const HEX64 = /^[0-9a-f]{64}$/;
const HEX128 = /^[0-9a-f]{128}$/;

/** Why an event is refused, or "" (NIP-01: shape, id, signature). */
async function invalid(event) {
  if (!event || typeof event !== "object") return "not an event";
  const { id, pubkey, created_at: at, kind, tags, content, sig } = event;
  if (!HEX64.test(String(id)) || !HEX64.test(String(pubkey)) || !HEX128.test(String(sig))) return "id, pubkey or sig";
  if (!Number.isInteger(at) || !Number.isInteger(kind) || kind < 0 || kind > 65535) return "created_at or kind";
  if (!Array.isArray(tags) || !tags.every((t) => Array.isArray(t) && t.every((x) => typeof x === "string"))) return "tags";
  if (typeof content !== "string") return "content";
  const hash = createHash("sha256").update(JSON.stringify([0, pubkey, at, kind, tags, content])).digest("hex");
  if (hash !== id) return "the id is not the event's hash";
  try {
    if (!await schnorr.verifyAsync(Buffer.from(sig, "hex"), Buffer.from(id, "hex"), Buffer.from(pubkey, "hex"))) return "bad signature";
  } catch {
    return "bad signature";
  }
  return "";
}

/** Whether an event passes one NIP-01 filter. */
function matches(filter, event) {
  if (filter.ids && !filter.ids.some((x) => event.id.startsWith(x))) return false;
  if (filter.authors && !filter.authors.some((x) => event.pubkey.startsWith(x))) return false;
  if (filter.kinds && !filter.kinds.includes(event.kind)) return false;
  if (Number.isInteger(filter.since) && event.created_at < filter.since) return false;
  if (Number.isInteger(filter.until) && event.created_at > filter.until) return false;
  for (const [key, values] of Object.entries(filter)) {
    if (key[0] !== "#" || key.length !== 2 || !Array.isArray(values)) continue;
    if (!event.tags.some((t) => t[0] === key[1] && values.includes(t[1]))) return false;
  }
  return true;
}


if (import.meta.url === `file://${process.argv[1]}`) {
  const argv = process.argv.slice(2);
  const i = argv.indexOf("--log");
  const server = startNostr({ port: intArg("nostr", argv, "--port", 0, 0, 65535, "a port number"), log: i >= 0 ? argv[i + 1] : null });
  server.on("error", (err) => {
    console.error(`nostr: ${err.message}`);
    process.exit(1);
  });
  server.on("listening", () => console.log(`nostr ws://127.0.0.1:${server.address().port}`));
  for (const sig of ["SIGTERM", "SIGINT"]) process.on(sig, () => server.close(() => process.exit(0)));
}
