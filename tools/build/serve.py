"""The development server: `python3 build.py --serve` serves dist/ on 127.0.0.1
as a static host like GitHub Pages does (gzip for compressible types,
validators for conditional requests, the site under a base path if asked).
Tests and benchmarks start one with make_server() (port 0: any free one; a
`record` list notes every response's bytes).
"""

from __future__ import annotations

import functools
import gzip
import http.server
import os
import urllib.parse
from pathlib import Path

from .common import DIST, MIME_TYPES, BuildError, log

# Types a static host like GitHub Pages sends gzip-compressed (text, JSON, SVG and
# WebAssembly); zip and wheel files go as they are.
COMPRESSIBLE = ("text/", "application/javascript", "application/json",
                "application/manifest+json", "image/svg+xml", "application/wasm")


class Handler(http.server.SimpleHTTPRequestHandler):
    """Serves dist/ as a static host does: gzip for compressible types, validators
    (ETag, Last-Modified) for conditional requests, the site under `prefix`.

    Class attributes, set by make_server(): `prefix` ("/" or "/repo/", as GitHub
    project pages are), `cache_control`, `gzip`, and `record` (None, or a list
    that gets one dict per response: path, status, wire (bytes sent, headers
    included) and raw (the file's own size), for benchmarks).
    """

    protocol_version = "HTTP/1.1"  # keep-alive: the page makes a dozen requests
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    prefix = "/"
    cache_control = "no-cache"  # development: always revalidate, so a rebuild shows at once
    gzip = True
    record = None
    _gz_cache: dict = {}

    def log_message(self, fmt, *args):
        if os.environ.get("BUILD_SERVE_QUIET"):
            return
        super().log_message(fmt, *args)

    def do_GET(self):  # noqa: N802
        self._serve(head=False)

    def do_HEAD(self):  # noqa: N802
        self._serve(head=True)

    def _send(self, status, headers, body=b"", head=False, raw=0):
        self.send_response(status)
        for key, value in headers:
            self.send_header(key, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if not head and body:
            self.wfile.write(body)
        if self.record is not None:
            wire = sum(len(k) + len(v) + 4 for k, v in headers) + 64 + (0 if head else len(body))
            self.record.append({"path": self.path, "status": status, "wire": wire,
                                "raw": 0 if head else raw})

    def _serve(self, head):
        path, _, query = self.path.split("#", 1)[0].partition("?")
        if path + "/" == self.prefix or (path == "/" and self.prefix != "/"):
            return self._send(301, [("Location", self.prefix + ("?" + query if query else ""))],
                              head=head)
        if not path.startswith(self.prefix):
            return self._send(404, [("Content-Type", "text/plain")], b"not found\n", head)
        rel = urllib.parse.unquote(path[len(self.prefix):])
        root = Path(self.directory).resolve()
        file = (root / rel).resolve()
        if not file.is_relative_to(root):
            return self._send(404, [("Content-Type", "text/plain")], b"not found\n", head)
        if file.is_dir():
            if rel and not rel.endswith("/"):
                return self._send(301, [("Location", path + "/")], head=head)
            file = file / "index.html"
        if not file.is_file():
            return self._send(404, [("Content-Type", "text/plain")], b"not found\n", head)
        stat = file.stat()
        ctype = self.guess_type(str(file))
        etag = f'"{stat.st_mtime_ns:x}-{stat.st_size:x}"'
        headers = [("Content-Type", ctype), ("Cache-Control", self.cache_control),
                   ("ETag", etag),
                   ("Last-Modified", self.date_time_string(int(stat.st_mtime)))]
        compress = self.gzip and ctype.startswith(COMPRESSIBLE)
        if compress:
            headers.append(("Vary", "Accept-Encoding"))
        if self.headers.get("If-None-Match") == etag:
            return self._send(304, headers[1:], head=True)
        body = raw = file.read_bytes()
        if compress and "gzip" in self.headers.get("Accept-Encoding", ""):
            key = (str(file), etag)
            if key not in self._gz_cache:
                self._gz_cache[key] = gzip.compress(body, compresslevel=6, mtime=0)
            body = self._gz_cache[key]
            headers.append(("Content-Encoding", "gzip"))
        self._send(200, headers, body, head, len(raw))


class SiteServer(http.server.ThreadingHTTPServer):
    """A thread a request, with room for a page's burst of them: a page asks for about forty
    files at once (six connections at a time per browser profile, several profiles in the
    friends' tests), and the standard library's listen backlog of 5 overflowed (counted in
    the kernel's ListenOverflows in our test runs): a connection dropped there can leave the
    browser waiting on it for minutes (a page whose own modules never ran)."""

    request_queue_size = 128
    daemon_threads = True


def make_server(directory: Path = DIST, port: int = 0, prefix: str = "/",
                cache_control: str = "no-cache", record: list | None = None,
                quiet: bool = True) -> SiteServer:
    """A SiteServer on 127.0.0.1 serving `directory` at `prefix`
    (port 0: any free one). The caller runs serve_forever() and server_close()."""
    prefix = "/" + prefix.strip("/") + "/" if prefix.strip("/") else "/"
    attrs = {"prefix": prefix, "cache_control": cache_control, "record": record,
             "_gz_cache": {}}
    if quiet:
        attrs["log_message"] = lambda self, *args: None
    handler = functools.partial(type("SiteHandler", (Handler,), attrs), directory=str(directory))
    return SiteServer(("127.0.0.1", port), handler)


def serve(port: int, prefix: str = "/", directory: Path = DIST) -> None:
    if not (directory / "index.html").is_file():
        log(f"warning: {directory} has no index.html yet")
    try:
        server = make_server(directory, port, prefix, quiet=False)
    except OSError as exc:
        raise BuildError(f"cannot serve on 127.0.0.1:{port}: {exc.strerror}; try --port N") from exc
    url = f"http://127.0.0.1:{server.server_address[1]}{server.RequestHandlerClass.func.prefix}"
    log(f"serving {directory} at {url} (Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
