"""What every part of the build shares: the project's paths, the build's error and
log line, hashing, and the MIME types (for the data blocks of the one-file page
and for the development server alike).

Nothing here writes a file.
"""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PKG_NAME = "briscola"
PKG_DIR = ROOT / "py" / PKG_NAME
PYODIDE_DIR = ROOT / "node_modules" / "pyodide"
DIST = ROOT / "dist"
BUILD_DIR = ROOT / "build"
STDLIB_CACHE = BUILD_DIR / "stdlib"
PYC_CACHE = BUILD_DIR / "pyc"
TOOLS = ROOT / "tools"

FIXED_DATE = (1980, 1, 1, 0, 0, 0)  # zip timestamps, for reproducible files

MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".zip": "application/zip",
    ".whl": "application/zip",
    ".svg": "image/svg+xml",
    ".css": "text/css",
    ".html": "text/html",
    ".woff2": "font/woff2",
}


class BuildError(Exception):
    pass


def log(msg: str) -> None:
    print(f"[build] {msg}", file=sys.stderr, flush=True)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
