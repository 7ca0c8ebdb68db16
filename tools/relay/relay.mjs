// A local signalling relay for the tests and for trying "play with friends" without the
// Internet: the WebTorrent tracker server of `bittorrent-tracker` (the kind of public relay the
// page signals through: js/friends/net.js), WebSocket only, on 127.0.0.1 only.
//
//   npm run relay -- --port 8765        # ws://127.0.0.1:8765
//   (then open the page with ?relays=ws://127.0.0.1:8765)
//   npm run relay -- --announce 120     # the seconds it asks the pages to wait between announces
//                                       # (2 unless said; Trystero waits 10 to 120 s, as asked)
//
// It prints one line, "relay ws://127.0.0.1:PORT", once it listens (port 0: a free one), and
// stops on SIGTERM / SIGINT.
import { Server } from "bittorrent-tracker";
import { intArg } from "./args.mjs";

const argv = process.argv.slice(2);
const port = intArg("relay", argv, "--port", 0, 0, 65535, "a port number");
const announce = intArg("relay", argv, "--announce", 2, 1, 3600, "a number of seconds (1 to 3600)");
// the server tells WebSocket clients a fifth of its interval (its default 10 minutes: 2 minutes)
const server = new Server({ udp: false, http: true, ws: true, stats: false, interval: announce * 5000 });
server.on("error", (err) => {
  console.error(`relay: ${err.message}`);
  process.exit(1);
});
server.on("warning", () => {}); // a peer's bad announce: the tracker answers it, nothing to log
server.on("listening", () => {
  console.log(`relay ws://127.0.0.1:${server.http.address().port}`);
});
server.listen(port, "127.0.0.1");
for (const sig of ["SIGTERM", "SIGINT"]) process.on(sig, () => server.close(() => process.exit(0)));
