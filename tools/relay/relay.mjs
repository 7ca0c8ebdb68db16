// A local signalling relay for the tests and for trying "play with friends" without the
// Internet: the WebTorrent tracker server of `bittorrent-tracker` (the kind of public relay the
// page signals through: js/friends/net.js), WebSocket only, on 127.0.0.1 only.
//
//   npm run relay -- --port 8765        # ws://127.0.0.1:8765
//   (then open the page with ?relays=ws://127.0.0.1:8765)
//
// It prints one line, "relay ws://127.0.0.1:PORT", once it listens (port 0: a free one), and
// stops on SIGTERM / SIGINT.
import { Server } from "bittorrent-tracker";

function portArg(argv) {
  const i = argv.indexOf("--port");
  const raw = i >= 0 ? argv[i + 1] : "0";
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`relay: --port expects a port number, not ${JSON.stringify(raw)}`);
    process.exit(2);
  }
  return port;
}

const server = new Server({ udp: false, http: true, ws: true, stats: false, interval: 10000 });
server.on("error", (err) => {
  console.error(`relay: ${err.message}`);
  process.exit(1);
});
server.on("warning", () => {}); // a peer's bad announce: the tracker answers it, nothing to log
server.on("listening", () => {
  console.log(`relay ws://127.0.0.1:${server.http.address().port}`);
});
server.listen(portArg(process.argv.slice(2)), "127.0.0.1");
for (const sig of ["SIGTERM", "SIGINT"]) process.on(sig, () => server.close(() => process.exit(0)));
