"""The networking code of "play with friends" (js/friends/, docs/friends.md): the page's own
modules there are copied with js/ as they are; this module adds js/friends/vendor.js, the
npm libraries they use (Trystero's two strategies for WebRTC signalling, through WebTorrent
trackers and through Nostr relays, on one copy of its core, qrcode-generator for the
invitation's QR code, @noble/secp256k1's Schnorr signatures for the relay fallback's Nostr
events) bundled by esbuild into one ES module, kept
in build/friends/ (keyed by the lock file).

It also writes js/fair/vendor.js: the fair deal's protocol (js/fair/, mental poker over
ristretto255) bundled with @noble/curves and @noble/hashes into one ES module, which a table
that deals fairly will import when it starts (a dynamic import, as net.js does vendor.js). The
sources of js/fair/ import the libraries by their npm names, which Node resolves (the tests run
them as they are) and a browser does not: so they ship inside the bundle only (site.py leaves
FAIR_DIR out of the copy of js/).

Nothing under js/friends/ is precached by the service worker or preloaded by index.html:
it loads (a dynamic import) only when a person chooses to play with friends, and needs the
network then anyway. The service worker lists it (`later` in sw.js) with this build's
hashes: when a page first imports it, the worker fetches each file checked against them
and keeps it, and refuses a copy of another build (a deploy since the page loaded); the
page then reloads into one build before a table starts (js/engine.js `friendsOfThisBuild`).
The one-file page has no such import (playing with friends says so).
"""

from __future__ import annotations

import hashlib
import json
import subprocess
from pathlib import Path

from .common import BUILD_DIR, ROOT, BuildError, log

VENDOR = "js/friends/vendor.js"
LAZY_PREFIX = "js/friends/"
# start.mjs and end.mjs are evaluated just before and after Trystero (in this order): the
# page's peer id sorts lower the later the page joined (start.mjs says why). They live beside the
# code they serve but ship only inside vendor.js (site.py leaves PEER_ID_DIR out of the copy).
PEER_ID_DIR = "peer-id"
IDS = (f"js/friends/{PEER_ID_DIR}/start.mjs", f"js/friends/{PEER_ID_DIR}/end.mjs")
# Both strategies import "@trystero-p2p/core", one file for both (the same version, hoisted by npm):
# one `selfId` for the page whichever medium found it, one pause of the relays' reconnection.
# Each strategy keeps its own relays' sockets and its own connections (js/friends/net.js).
ENTRY = (f'import "./{IDS[0]}";\n'
         'export { joinRoom as joinTorrent, getRelaySockets as trackerSockets, selfId,'
         ' pauseRelayReconnection, resumeRelayReconnection } from "@trystero-p2p/torrent";\n'
         'export { joinRoom as joinNostr, getRelaySockets as nostrSockets } from "@trystero-p2p/nostr";\n'
         f'import "./{IDS[1]}";\n'
         'export { default as qrcode } from "qrcode-generator";\n'
         'export { schnorr } from "@noble/secp256k1";\n')
CACHE = BUILD_DIR / "friends"

FAIR_DIR = "fair"
FAIR_VENDOR = f"js/{FAIR_DIR}/vendor.js"
FAIR_ENTRY = f'export * from "./js/{FAIR_DIR}/index.js";\n'
FAIR_LIBRARIES = [("@noble/curves", "Paul Miller"), ("@noble/hashes", "Paul Miller")]


LIBRARIES = [("@trystero-p2p/torrent", "Dan Motzenbecker"), ("@trystero-p2p/nostr", "Dan Motzenbecker"),
             ("@trystero-p2p/core", "Dan Motzenbecker"), ("@noble/secp256k1", "Paul Miller"),
             ("qrcode-generator", "Kazuhiko Arase")]


def _version(name: str) -> str:
    return json.loads((ROOT / "node_modules" / name / "package.json").read_text())["version"]


def lazy(rel: str) -> bool:
    """Whether a file of dist/ loads only when a person plays with friends (never preloaded)."""
    return rel.startswith(LAZY_PREFIX) or rel.startswith(f"js/{FAIR_DIR}/")


def bundle_vendor(stage: Path) -> None:
    """Write js/friends/vendor.js and js/fair/vendor.js into the staged site (from the cache
    when they are there)."""
    _bundle(stage, VENDOR, ENTRY, LIBRARIES, [ROOT / p for p in IDS])
    _bundle(stage, FAIR_VENDOR, FAIR_ENTRY, FAIR_LIBRARIES, sorted((ROOT / "js" / FAIR_DIR).glob("*.js")))


def _bundle(stage: Path, target: str, entry: str, libraries: list, sources: list) -> None:
    lock = (ROOT / "package-lock.json").read_bytes()
    key = hashlib.sha256(lock + entry.encode() + b"".join(p.name.encode() + p.read_bytes() for p in sources)).hexdigest()[:16]
    cached = CACHE / f"{Path(target).parent.name}-vendor-{key}.js"
    if not cached.exists():
        esbuild = ROOT / "node_modules" / ".bin" / "esbuild"
        if not esbuild.exists():
            raise BuildError("esbuild is missing: run `npm ci` (it is a pinned dev dependency)")
        CACHE.mkdir(parents=True, exist_ok=True)
        tmp = cached.with_suffix(f".{key}.tmp")
        banner = "// Bundled from npm (MIT licences): " + ", ".join(
            f"{name} {_version(name)} ({who})" for name, who in libraries)
        proc = subprocess.run(
            [str(esbuild), f"--banner:js={banner}", "--bundle", "--format=esm", "--minify", "--target=es2022",
             "--legal-comments=eof", "--loader=js", f"--outfile={tmp}"],
            input=entry, text=True, capture_output=True, cwd=ROOT)
        if proc.returncode:
            raise BuildError(f"esbuild failed for {target}:\n{proc.stderr}")
        tmp.replace(cached)
        log(f"{target}: bundled ({cached.stat().st_size} bytes)")
    out = stage / target
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(cached.read_bytes())
