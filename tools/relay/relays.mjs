// Every signalling medium the page uses, served locally (127.0.0.1 only) for the tests and for
// trying "play with friends" without the Internet: the WebTorrent tracker (./relay.mjs's) on
// port N and the Nostr relay (./nostr.mjs) on port N + 1.
//
//   npm run relays -- --port 8765
//   {"relays": "ws://127.0.0.1:8765,nostr:ws://127.0.0.1:8766"}
//
// The one line of JSON it prints once both listen is a value `?relays=` takes as it is (a
// `nostr:` entry is a Nostr relay, any other a tracker: js/friends/wire.js, parseRelays).
// Port 0 (the default): free ports, each its own. --announce S as for ./relay.mjs; --log FILE:
// every message the Nostr relay hears and sends, one JSON line each. Stops on SIGTERM / SIGINT.
import { Server } from "bittorrent-tracker";
import { startNostr } from "./nostr.mjs";
import { intArg } from "./args.mjs";

const argv = process.argv.slice(2);
const port = intArg("relays", argv, "--port", 0, 0, 65534, "a port number below 65535");
const announce = intArg("relays", argv, "--announce", 2, 1, 3600, "a number of seconds (1 to 3600)");
const logAt = argv.indexOf("--log");
const fail = (err) => {
  console.error(`relays: ${err.message}`);
  process.exit(1);
};

const tracker = new Server({ udp: false, http: true, ws: true, stats: false, interval: announce * 5000 });
tracker.on("error", fail);
tracker.on("warning", () => {});
const listening = (emitter) => new Promise((resolve) => emitter.once("listening", resolve));
const trackerUp = listening(tracker);
tracker.listen(port, "127.0.0.1");
await trackerUp;
const trackerPort = tracker.http.address().port;
const nostr = startNostr({ port: port ? port + 1 : 0, log: logAt >= 0 ? argv[logAt + 1] : null });
nostr.on("error", fail);
await listening(nostr);
const urls = [`ws://127.0.0.1:${trackerPort}`, `nostr:ws://127.0.0.1:${nostr.address().port}`];
console.log(JSON.stringify({ relays: urls.join(",") }));
for (const sig of ["SIGTERM", "SIGINT"]) {
  process.on(sig, () => nostr.close(() => tracker.close(() => process.exit(0))));
}
