"""The service worker's manifest: dist/sw.js is the template sw.js with the
build's hash and every file of the site with its SHA-256, in Subresource
Integrity form, filled in (offline play: see sw.js and js/offline.js).
"""

from __future__ import annotations

import base64
import json

from .common import BuildError


def sri(sha256_hex: str) -> str:
    return "sha256-" + base64.b64encode(bytes.fromhex(sha256_hex)).decode()


SW_PLACEHOLDER = "const PRECACHE = null; // build.py"


def service_worker(template: str, build_hash: str, precache: dict[str, str],
                   keep: dict[str, str] | None = None, later: dict[str, str] | None = None,
                   needed: list[str] | None = None) -> str:
    """sw.js with the build's hash and files (path -> integrity) filled in: `precache`, every
    file it fetches on install; `keep`, the files it keeps once the page has fetched them (the
    models of the other variants, models.py); `later`, the files it fetches itself when the
    page first asks, checked against this build's hashes, and keeps (the code of playing with
    friends, friends.py); `needed`, the later files that are the page's modules loaded when
    first needed (js/later.js), which it also fetches and keeps when the page asks for them all
    (the first deal over: sw.js "keep-needed")."""
    if not set(needed or ()) <= set(later or {}):
        raise BuildError(f"sw.js: needed files that are not later ones: {sorted(set(needed or ()) - set(later or {}))}")
    if template.count(SW_PLACEHOLDER) != 1:
        raise BuildError(f"sw.js: expected the line `{SW_PLACEHOLDER}` once")
    data = json.dumps({"hash": build_hash, "files": dict(sorted(precache.items())),
                       "keep": dict(sorted((keep or {}).items())),
                       "later": dict(sorted((later or {}).items())), "needed": sorted(needed or ())}, indent=1)
    return template.replace(SW_PLACEHOLDER, f"const PRECACHE = {data};", 1)
