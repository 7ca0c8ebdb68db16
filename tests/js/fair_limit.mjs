// What the host's page takes from a friend's page at a fair table (js/friends/pairs.js over
// js/friends/wire.js): the biggest messages a FairTable sends (js/fair/table.js: a shuffle of the
// 48-card Spanish deck and of a 64-card deck, its shares of 64 positions dealt at once), wrapped
// as a friend's page sends them (`fair {to, m}`), sealed for the pair and passed through the
// transport's size check, are opened; a request as big, or a fair message over LIMIT_FAIR, is
// refused as too big. Prints JSON, read by tests/test_friends_wire.py.
import { FairTable } from "../../js/fair/table.js";
import { LIMIT_FAIR, LIMIT_TO_HOST, PROTOCOL, limitFor, readMessage } from "../../js/friends/wire.js";
import { Pairs, newDh, openSealed } from "../../js/friends/pairs.js";

const ROOM = "r".repeat(20);
const SPANISH = [..."A23456789JHK"].flatMap((r) => [..."DCSB"].map((s) => r + s)); // 48 cards
const SIXTY_FOUR = Array.from({ length: 64 }, (_, i) => `c${i}`);

/** Two devices' tables up to the deal: device 0's shuffle, then its shares of every position
 * dealt to device 1 (the table id as long as a table's may be, the round's number large). */
async function messages(deck) {
  const opts = { table: "t".repeat(128), round: 2 ** 31 - 1, devices: 2, deck };
  const a = new FairTable({ ...opts, me: 0 });
  const b = new FairTable({ ...opts, me: 1 });
  const keyA = a.start().send[0].msg;
  const keyB = b.start().send[0].msg;
  const shuffle = (await a.receive(keyB, 1)).send.find((x) => x.msg.k === "shuffle").msg;
  await b.receive(keyA, 0);
  const back = (await b.receive(shuffle, 0)).send.find((x) => x.msg.k === "shuffle").msg;
  await a.receive(back, 1);
  const tokens = a.deal(deck.map((_, p) => [p, 1])).send.find((x) => x.msg.k === "tokens").msg;
  return { shuffle, tokens };
}

const hostId = "h".repeat(20);
const friendId = "f".repeat(20);
const [hostDh, friendDh] = [await newDh(), await newDh()];
const host = new Pairs({ self: () => hostId, room: ROOM, dh: hostDh });
const friend = new Pairs({ self: () => friendId, room: ROOM, dh: friendDh });
await host.pair(friendId, friendDh.pub, "host");
await friend.pair(hostId, hostDh.pub, "guest");

// the host's room as host.js opens it (limit: LIMIT_TO_HOST), its transport a fake that checks
// each text's size as the real one does (rooms.js, net.js: readMessage with openSealed's bound)
const heard = [];
let deliver = null;
await openSealed(async (handlers, outer) => {
  deliver = (peer, text) => {
    const r = readMessage(text, outer);
    if (r.error) handlers.refused(peer, r.error.code, r.error.message);
    else handlers.message(peer, r.value);
  };
  return { send: () => {}, medium: () => "webrtc", leave: () => {} };
}, {
  message: (peer, m) => heard.push({ ok: m }),
  refused: (peer, code, message) => heard.push({ refused: code, message }),
}, { pairs: host, limit: LIMIT_TO_HOST });

async function send(m) {
  const text = JSON.stringify({ v: PROTOCOL, ...await friend.seal(hostId, m) }); // (the transport adds the version)
  const before = heard.length;
  deliver(friendId, text);
  for (let i = 0; i < 100 && heard.length === before; i++) await new Promise((r) => setTimeout(r, 5));
  const got = heard[heard.length - 1];
  return { size: JSON.stringify(m).length, ok: !!got.ok && JSON.stringify(got.ok) === JSON.stringify(m), refused: got.refused ?? null };
}

const fair = (m) => ({ v: PROTOCOL, t: "fair", to: null, m });
const spanish = await messages(SPANISH);
const big = await messages(SIXTY_FOUR);
const out = {
  limit: LIMIT_TO_HOST, fair: LIMIT_FAIR, limitFor: [limitFor("fair", LIMIT_TO_HOST), limitFor("req", LIMIT_TO_HOST), limitFor("fair", 262144)],
  spanish_shuffle: await send(fair(spanish.shuffle)),
  spanish_tokens: await send(fair(spanish.tokens)),
  shuffle_64: await send(fair(big.shuffle)),
  tokens_64: await send(fair(big.tokens)),
  // a request as big as a Spanish shuffle: every other message keeps the 4 KB
  big_request: await send({ v: PROTOCOL, t: "req", id: 1, type: "act", args: { action: "x".repeat(4300) } }),
  // a fair message padded past the fair bound
  fair_too_big: await send(fair({ ...big.shuffle, pad: "x".repeat(LIMIT_FAIR + 100 - JSON.stringify(big.shuffle).length) })),
  small_request: await send({ v: PROTOCOL, t: "req", id: 2, type: "state", args: {} }),
};
console.log(JSON.stringify(out));
