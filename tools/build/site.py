"""The site, dist/: the product everything else is part of.

stage_dist() stages the whole site in a folder beside the output and swaps it in
when it is complete (dist/ is never half written):

1. the static files (index.html, js/, css/, img/, the app manifest; the engine's worker
   with its modules put in, worker.py), with a
   <link rel="modulepreload"> in index.html for every module the page imports; the style
   sheets without their comments (every first visit downloads every file: lean_css), the
   page's modules without their comment lines (lean_modules);
2. the engine's wheel (wheel.py) and the trimmed stdlib (stdlib.py), their paths
   carrying a content hash, the Pyodide runtime files a start fetches, and the learned
   evaluations the wheel leaves out, each a file loaded when its variant is played (models.py);
3. js/build-info.js and build-manifest.json, listing every file with its hash so
   that a cached old file is never mixed with a new one;
4. sw.js, the service worker with every file's hash (service_worker.py), and
   briscola.html, the one-file page (onefile.py);
5. the engine's wheels for micropip (micropip.py), which the page never fetches: listed in
   build-manifest.json only.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import shutil
import time
from pathlib import Path

from .common import BUILD_DIR, DIST, PYODIDE_DIR, ROOT, BuildError, log, sha256
from .friends import FAIR_DIR, PEER_ID_DIR, bundle_vendor, lazy
from .linking import patch_linking
from .micropip import stage_micropip_wheels
from .models import is_model, stage_models
from .modules import module_graph, page_entries, resolve
from .onefile import ONE_FILE, inline_build, inline_page_build, one_file_page, without_comment_lines
from .runtime import PYODIDE_RUNTIME, check_pyodide, lock_info
from .service_worker import service_worker, sri
from .stdlib import trimmed_stdlib
from .wheel import build_wheel, engine_bytecode, read_version, sourceless
from .worker import stage_worker

# Static files and folders copied to dist/ as they are (the style sheets less their comments),
# when they exist.
STATIC = ["index.html", "embed.html", "js", "css", "img", "fonts", "sounds", "favicon.ico",
          "manifest.webmanifest", "sw.js"]


def copy_static(stage: Path) -> None:
    for name in STATIC:
        if name == "sw.js":
            continue  # written by service_worker(), with the build's file list
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, stage / name, ignore=shutil.ignore_patterns(
                ".*", "__pycache__", "*.map", "build-info.js", PEER_ID_DIR, FAIR_DIR))
        elif src.is_file():
            shutil.copy2(src, stage / name)
    for sheet in (stage / "css").glob("*.css") if (stage / "css").is_dir() else []:
        sheet.write_text(lean_css(sheet.read_text(encoding="utf-8")), encoding="utf-8")


# A CSS string (kept whole) or a comment (dropped); then the lines left blank.
_CSS_COMMENT = re.compile(r"""("(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')|/\*.*?\*/""", re.S)


def lean_css(text: str) -> str:
    """A style sheet without its comments and blank lines: the same rules, fewer bytes (the
    comments stay in css/, for the people who read them)."""
    text = _CSS_COMMENT.sub(lambda m: m.group(1) or "", text)
    return "\n".join(line.rstrip() for line in text.split("\n") if line.strip()) + "\n"


# Bundled by esbuild, its licences at its end (friends.py): shipped as built.
NOT_LEAN = {"js/friends/vendor.js", "js/fair/vendor.js"}


POSTER_WORDS = "js/poster-words.js"
LANG_NAMES = "js/lang-names.js"
LOCALE_INDEX = "js/locales/index.js"
GUARD = "js/guard.js"


def locale_tables() -> dict[str, dict[str, str]]:
    """Every language js/locales/index.js lists, with its words (each file `export default
    <JSON>;` after its comment lines)."""
    index = (ROOT / LOCALE_INDEX).read_text(encoding="utf-8")
    langs = re.findall(r'^export \{ default as (\w+) \} from "\./(\w+)\.js";$', index, flags=re.M)
    if not langs:
        raise BuildError(f"{LOCALE_INDEX}: no language listed")
    tables = {}
    for name, lang in langs:
        text = (ROOT / "js" / "locales" / f"{lang}.js").read_text(encoding="utf-8")
        tables[name] = json.loads(text[text.index("\nexport default ") + len("\nexport default "):].strip().rstrip(";"))
    return tables


def poster_words(stage: Path) -> None:
    """js/poster-words.js written as the words it picks (its POSTER_KEYS, and every key that
    starts with one of its POSTER_PREFIXES, from every language of js/locales/index.js), so the
    embed's poster loads a few KB of words instead of every language's whole file. A key
    missing from a locale stops the build."""
    picked_words(stage, POSTER_WORDS, "POSTER")


def lang_names(stage: Path) -> None:
    """js/lang-names.js written as every language's name and locale alone (its NAME_KEYS), so
    that the game's page knows every language without downloading its words (js/i18n.js)."""
    picked_words(stage, LANG_NAMES, "NAME")


def picked_words(stage: Path, rel: str, name: str) -> None:
    """The module `rel`, which picks its keys (`<name>_KEYS`, and every key that starts with one
    of its `<name>_PREFIXES`) from every language's whole file, written as the picked words."""
    module = stage / rel
    if not module.exists():
        return
    source = module.read_text(encoding="utf-8")
    found = re.search(rf"export const {name}_KEYS = (\[[^\]]*\]);", source)
    prefixes = re.search(rf"export const {name}_PREFIXES = (\[[^\]]*\]);", source)
    if not found or not prefixes:
        raise BuildError(f"{rel}: no {name}_KEYS or {name}_PREFIXES to pick")
    keys, starts = json.loads(found.group(1)), tuple(json.loads(prefixes.group(1)))
    words = {}
    for lang, table in locale_tables().items():
        missing = [k for k in keys if k not in table]
        if missing:
            raise BuildError(f"{rel}: {lang} has no {', '.join(missing)}")
        words[lang] = {k: v for k, v in table.items() if k in keys or (starts and k.startswith(starts))}
    module.write_text(f"export const {name}_KEYS = {json.dumps(keys)};\n"
                      f"export const {name}_PREFIXES = {json.dumps(list(starts))};\n"
                      f"export default {json.dumps(words, ensure_ascii=False)};\n", encoding="utf-8")


def guard_words(stage: Path) -> None:
    """js/guard.js imports nothing (it must run when another module cannot load), so the build
    writes into it the few words it says (its GUARD_KEYS) in every language of the locale
    files, in place of the English it carries as written."""
    module = stage / GUARD
    if not module.exists():
        return
    source = module.read_text(encoding="utf-8")
    found = re.search(r"^const GUARD_KEYS = (\{[^}]*\});$", source, flags=re.M)
    words = re.search(r"^const WORDS = \{.*?^\};$", source, flags=re.M | re.S)
    if not found or not words:
        raise BuildError(f"{GUARD}: no GUARD_KEYS or WORDS to write")
    keys = json.loads(found.group(1))
    picked = {}
    for lang, table in locale_tables().items():
        missing = [k for k in keys.values() if k not in table]
        if missing:
            raise BuildError(f"{GUARD}: {lang} has no {', '.join(missing)}")
        picked[lang] = {name: table[key] for name, key in keys.items()}
    module.write_text(source[:words.start()] + f"const WORDS = {json.dumps(picked, ensure_ascii=False)};"
                      + source[words.end():], encoding="utf-8")


def lean_modules(stage: Path) -> None:
    """The page's modules (js/, the embed's poster's among them: its budget is 50 KB sent
    before Play) ship without their comment lines, as js/worker.js does: about 18 KB gzipped
    less on a first visit. A compile hint (`//# ...`) stays. A module the stripping refuses (a
    template literal over several lines, code after a comment on its line) ships whole."""
    for path in sorted((stage / "js").rglob("*.js")) if (stage / "js").is_dir() else []:
        if path.relative_to(stage).as_posix() in NOT_LEAN:
            continue
        text = path.read_text(encoding="utf-8")
        hints = [line for line in text.split("\n") if line.startswith("//#")]
        try:
            lean = without_comment_lines(text)
        except BuildError:
            continue
        path.write_text("\n".join([*hints, lean]), encoding="utf-8")


FRIENDS_ENTRY = "js/friends/index.js"
# ... and what it imports when it opens a room (js/friends/net.js: the connections' library)
FRIENDS_DYNAMIC = ("js/friends/vendor.js",)


def preload_modules(stage: Path) -> None:
    """dist/index.html asks for every module of the page at once
    (<link rel="modulepreload">) instead of discovering them import by import: in the
    <template id="page-modules"> js/start.js loads when the engine's worker runs, else in
    the head."""
    html = (stage / "index.html").read_text(encoding="utf-8")
    entries = page_entries(html)
    page = module_graph(stage, entries)
    links = "".join(f'  <link rel="modulepreload" href="{rel}">\n' for rel in page if rel not in entries)
    if not links:
        return
    template = '<template id="page-modules">\n'
    if template in html:
        html = html.replace(template, template + links, 1)
    elif "</head>" in html:
        html = html.replace("</head>", links + "</head>", 1)
    else:
        return
    # The friends layer's own modules (imported when a page joins or opens a table with
    # friends), for a page opened from an invitation: js/start.js adds them with the page's.
    friends = '<template id="friends-modules">\n'
    if friends in html and (stage / FRIENDS_ENTRY).is_file():
        graph = [*module_graph(stage, [FRIENDS_ENTRY], later=("js/build-info.js",)), *FRIENDS_DYNAMIC]
        more = "".join(f'  <link rel="modulepreload" href="{rel}">\n' for rel in graph if rel not in page)
        html = html.replace(friends, friends + more, 1)
    (stage / "index.html").write_text(html, encoding="utf-8")


def words_when_chosen(stage: Path) -> set[str]:
    """The files of js/locales/ that the page's modules do not import: every language but
    English (js/i18n.js imports it, the fallback), fetched when the page starts in it or a person
    picks it (js/lang-files.js), and the index, which only the sources read."""
    page = set(module_graph(stage, page_entries((stage / "index.html").read_text(encoding="utf-8"))))
    return {p.relative_to(stage).as_posix() for p in (stage / "js" / "locales").glob("*.js")} - page


def modules_when_needed(stage: Path) -> set[str]:
    """The page's modules that only js/later.js imports (dynamically: the review and its
    replay, the puzzle, the file of a person's data), with what they import that the page's
    start does not: fetched when first needed, kept by the service worker from then on."""
    later = stage / "js" / "later.js"
    if not later.is_file():
        return set()
    targets = [resolve("js/later.js", spec) for spec in
               re.findall(r"""\bimport\(\s*["'](\.{1,2}/[^"']+)["']\s*\)""", later.read_text(encoding="utf-8"))]
    page = set(module_graph(stage, page_entries((stage / "index.html").read_text(encoding="utf-8"))))
    return set(module_graph(stage, targets)) - page


def shown_when_asked(stage: Path) -> set[str]:
    """The files the game's page never loads itself, which the browser asks for when it needs
    them: the installed app's raster icons (the manifest's and the apple-touch-icon; its SVG
    icon, which Chromium fetches on every visit, stays precached), and the embed's poster
    (embed.html and what it loads beyond the page's own files; a blog's frame of it, on
    another site, is never this site's worker's anyway)."""
    html = (stage / "index.html").read_text(encoding="utf-8")
    shown = set(re.findall(r'<link rel="(?:icon|stylesheet)" href="([^"]+)"', html))
    asked = set(re.findall(r'<link rel="apple-touch-icon" href="([^"]+)"', html))
    manifest = stage / "manifest.webmanifest"
    if manifest.is_file():
        asked |= {icon["src"] for icon in json.loads(manifest.read_text(encoding="utf-8")).get("icons", [])
                  if icon.get("type") == "image/png"}
    poster = stage / "embed.html"
    if poster.is_file():
        text = poster.read_text(encoding="utf-8")
        page = set(module_graph(stage, page_entries(html)))
        asked |= {"embed.html", *re.findall(r'<link rel="stylesheet" href="([^"]+)"', text)}
        asked |= set(module_graph(stage, page_entries(text))) - page
    return {p for p in asked - shown if (stage / p).is_file()}


def build_info_js(info: dict) -> str:
    body = json.dumps(info, indent=2, sort_keys=False)
    return (
        "// Generated by build.py: do not edit. Paths are relative to the site root\n"
        "// (the folder holding index.html); `hash` changes whenever any shipped file does.\n"
        f"export const BUILD = Object.freeze({body});\n"
    )


def add_file(stage: Path, files: dict, rel: str, data: bytes) -> None:
    (stage / rel).write_bytes(data)
    files[rel] = {"sha256": sha256(data), "size": len(data),
                  "gzip": len(gzip.compress(data, 9, mtime=0))}


def check_requests_js() -> None:
    """js/requests.js, the engine's table of requests as the page's modules read it, must be
    the one py/briscola/protocol.py writes: a build never ships the two apart."""
    import subprocess
    import sys
    written = subprocess.run([sys.executable, "-m", "briscola.protocol"], cwd=ROOT / "py",
                             capture_output=True, text=True, check=True).stdout
    if (ROOT / "js" / "requests.js").read_text(encoding="utf-8") != written:
        raise BuildError("js/requests.js is not the table of py/briscola/protocol.py: "
                         "python3 -m briscola.protocol > js/requests.js")


def stage_dist(stock_stdlib: bool = False, verify_stdlib: bool = True,
               bytecode: bool = True, out: Path = DIST, stamp: str | None = None) -> dict:
    """Build the site into `out`. `stamp`: a line of text written into index.html (a comment),
    so that a build of the same sources is another build (a release's name; the delivery
    tests deploy a second build over a first)."""
    read_version()  # fails first, and clearly, when there is no package yet
    check_requests_js()
    pyodide_version = check_pyodide()
    # The engine ships as bytecode only (no .py beside it): about 90 KB less to
    # download, nothing to compile at start, and zipimport takes it as it is.
    pycs = sourceless(engine_bytecode(pyodide_version)) if bytecode else {}
    wheel_name, wheel_bytes, version = build_wheel(extra=pycs, sources=not bytecode)

    # Per-process names: tests and people may build at the same time.
    # Staged beside the output (same file system, so the final swap is a rename).
    tmp_root = BUILD_DIR if out == DIST else out.parent
    stage = tmp_root / f"{out.name}-staging-{os.getpid()}"
    shutil.rmtree(stage, ignore_errors=True)
    stage.mkdir(parents=True)
    copy_static(stage)
    stage_worker(stage)  # js/worker.js with its modules (js/worker/) put in
    poster_words(stage)  # the embed's poster: its own words, not the whole locale files
    lang_names(stage)  # the game's page: every language's name, its own language's words alone
    guard_words(stage)  # the loading guard's few words, in every language
    lean_modules(stage)
    bundle_vendor(stage)  # js/friends/vendor.js: loaded only to play with friends
    preload_modules(stage)
    if stamp is not None:
        html = stage / "index.html"
        html.write_text(html.read_text(encoding="utf-8") + f"<!-- {stamp.replace('--', '')} -->\n",
                        encoding="utf-8")

    wheel_rel = f"wheels/{sha256(wheel_bytes)[:12]}/{wheel_name}"
    (stage / wheel_rel).parent.mkdir(parents=True)
    (stage / wheel_rel).write_bytes(wheel_bytes)
    log(f"wheel: {wheel_rel} ({len(wheel_bytes)} bytes)")

    (stage / "pyodide").mkdir()
    for name in PYODIDE_RUNTIME:
        if name == "pyodide.asm.mjs":  # with its dynamic linking made quicker (linking.py)
            asm = (PYODIDE_DIR / name).read_text(encoding="utf-8")
            (stage / "pyodide" / name).write_text(patch_linking(asm), encoding="utf-8")
        else:
            shutil.copyfile(PYODIDE_DIR / name, stage / "pyodide" / name)
    if stock_stdlib:
        stdlib_src, stdlib_report = PYODIDE_DIR / "python_stdlib.zip", {"stock": True}
    else:
        stdlib_src, stdlib_report = trimmed_stdlib(pyodide_version, verify_stdlib)
    stdlib_bytes = stdlib_src.read_bytes()
    stdlib_rel = f"pyodide/python_stdlib-{sha256(stdlib_bytes)[:12]}.zip"
    (stage / stdlib_rel).write_bytes(stdlib_bytes)
    log(f"stdlib: {stdlib_rel} ({len(stdlib_bytes)} bytes)")
    models = stage_models(stage)
    if models:
        log(f"models, loaded when their variant is played: {', '.join(models)}")

    files = {}
    for path in sorted(p for p in stage.rglob("*") if p.is_file()):
        data = path.read_bytes()
        files[path.relative_to(stage).as_posix()] = {
            "sha256": sha256(data),
            "size": len(data),
            "gzip": len(gzip.compress(data, compresslevel=9, mtime=0)),
        }
    build_hash = hashlib.sha256(
        "".join(f"{p}\0{f['sha256']}\n" for p, f in files.items()).encode()
    ).hexdigest()[:12]

    info = {
        "version": version,
        "hash": build_hash,
        "pyodide": pyodide_version,
        "lockInfo": lock_info(),
        "wheel": wheel_rel,
        "stdlib": stdlib_rel,
        "models": models,
        "files": sorted([*files, "js/build-info.js"]),
    }
    (stage / "js").mkdir(exist_ok=True)
    info_js = build_info_js(info).encode()
    (stage / "js" / "build-info.js").write_bytes(info_js)
    files["js/build-info.js"] = {"sha256": sha256(info_js), "size": len(info_js),
                                 "gzip": len(gzip.compress(info_js, 9, mtime=0))}
    # The engine's worker carries the same facts itself, and the bounds of js/limits.js: its
    # start does not wait for a second module. (The build's hash is of its source, import and
    # all.) It ships without its comment lines.
    worker = stage / "js" / "worker.js"
    add_file(stage, files, "js/worker.js", without_comment_lines(inline_build(
        worker.read_text(encoding="utf-8"), info,
        (stage / "js" / "limits.js").read_text(encoding="utf-8"))).encode())
    # The page's end of the engine's protocol knows its build too: js/engine.js compares it
    # with the worker's (a page never runs against another build's worker).
    engine = stage / "js" / "engine.js"
    add_file(stage, files, "js/engine.js", inline_page_build(
        engine.read_text(encoding="utf-8"), build_hash).encode())

    # The service worker precaches every file the page can fetch, each checked
    # against its hash (Subresource Integrity form), but for the code of playing with
    # friends (friends.py: it loads when chosen; the worker fetches it then, checked against
    # this build's hashes, and keeps it: `later`) and the models of the other variants
    # (models.py), which it keeps once the page fetched one.
    # The languages the page does not import (all but English, the fallback) are `later` files
    # too: a first visit downloads its own language's alone (js/i18n.js), the worker keeps each
    # once the page asked for it (js/lang-files.js asks again for a first visit's own); so are
    # the files no page of this site shows until asked (the icons an installation takes, the
    # embed's poster), which a first visit downloaded only to precache them.
    for entry in files.values():
        entry["integrity"] = sri(entry["sha256"])
    chosen = words_when_chosen(stage) | shown_when_asked(stage) | modules_when_needed(stage)
    precache = {p: f["integrity"] for p, f in files.items()
                if not lazy(p) and not is_model(p) and p not in chosen}
    keep = {m["path"]: files[m["path"]]["integrity"] for m in models.values()}
    later = {p: f["integrity"] for p, f in files.items() if lazy(p) or p in chosen}
    sw = service_worker((ROOT / "sw.js").read_text(encoding="utf-8"), build_hash, precache, keep, later,
                        sorted(modules_when_needed(stage)))
    add_file(stage, files, "sw.js", without_comment_lines(sw).encode())

    # The one-file page, for a download: everything inside, opens from file://.
    page = one_file_page(stage, info)
    add_file(stage, files, ONE_FILE, page)
    log(f"{ONE_FILE}: {len(page) / 1e6:.2f} MB, one file that works offline from disk")

    # The engine for micropip in any Pyodide: not precached, not in build-info.js.
    micropip = stage_micropip_wheels(stage, files, add_file)
    for rel in (micropip["wheel"], micropip["latest"]):
        files[rel]["integrity"] = sri(files[rel]["sha256"])

    manifest = {**{k: v for k, v in info.items() if k != "files"},
                "micropip": micropip,
                "files": dict(sorted(files.items())),
                "stdlib_report": stdlib_report}
    (stage / "build-manifest.json").write_text(json.dumps(manifest, indent=1) + "\n",
                                               encoding="utf-8")

    # Swap the finished staging folder in: dist/ is never half written.
    old = tmp_root / f"{out.name}-old-{os.getpid()}"
    out.parent.mkdir(parents=True, exist_ok=True)
    for attempt in range(50):
        try:
            if out.exists():
                out.rename(old)
            stage.rename(out)
            break
        except OSError:  # another build swapped at the same moment
            if attempt == 49:
                raise
            time.sleep(0.1)
    shutil.rmtree(old, ignore_errors=True)

    site = {p: f for p, f in files.items() if p in precache}
    raw = sum(f["size"] for f in site.values())
    gz = sum(f["gzip"] for f in site.values())
    log(f"dist/: {len(files)} files; the site {raw / 1e6:.2f} MB ({gz / 1e6:.2f} MB gzipped), "
        f"build {build_hash}, briscola {version}, pyodide {pyodide_version}")
    return manifest
