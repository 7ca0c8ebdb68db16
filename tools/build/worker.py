"""The engine's worker as the one file the site ships: js/worker.js, the entry (its start-up
and the handling of requests), imports its parts from js/worker/ (one job a module: the
snapshot, the models, the store of games, ...). The build puts them into js/worker.js itself,
so that the page starts one script, as before, and the one-file page (onefile.py
classic_worker), the build's facts inlined (inline_build) and the service worker's file list
see one file; js/worker/ is not shipped.

The bundle is the modules' code in the order a browser evaluates them (each module after the
ones it imports, in the order of its imports; the entry last), less their imports of each other
and the word `export` of their declarations. Modules share one scope there, so the build
refuses (BuildError) two modules that declare the same top-level name, an import of a name a
module does not export, any other form of import or export, and a module under js/worker/ that
nothing imports. An import of js/build-info.js or js/limits.js by a part is dropped: the entry
imports the same names from them (checked), and the build inlines those imports.
"""

from __future__ import annotations

import posixpath
import re
import shutil
from pathlib import Path

from .common import BuildError

ENTRY = "js/worker.js"
PARTS = "js/worker"
# Imported by the entry itself (inlined later by onefile.py inline_build), and by parts.
SHARED = ("js/build-info.js", "js/limits.js")

# `import { a, b } from "./x.js";`, on one line or several.
_IMPORT = re.compile(r'^import\s*\{([^}]*)\}\s*from\s*"([^"]+)";[ \t]*\n', re.M)
_EXPORT = re.compile(r"^export\s+(?=(?:async\s+)?function\b|class\s|const\s|let\s|var\s)", re.M)
# A top-level declaration: the modules' code is formatted so, at the start of a line.
_DECLARED = re.compile(r"^(?:export\s+)?(?:(?:async\s+)?function\*?\s+(\w+)|class\s+(\w+)|"
                       r"(?:const|let|var)\s+(\w+))", re.M)


def _names(text: str, where: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    bad = [n for n in names if not re.fullmatch(r"\w+", n)]
    if bad:
        raise BuildError(f"{where}: only plain names can be imported between the worker's modules, not {bad}")
    return names


def bundle_worker(js: Path) -> str:
    """The text of js/worker.js with its parts under js/worker/ put in, from the folder `js`
    (the source's js/ or the staged site's)."""
    root = js.parent
    sources: dict[str, str] = {}
    imports: dict[str, list[tuple[str, list[str]]]] = {}
    order: list[str] = []

    def visit(rel: str, trail: tuple[str, ...]) -> None:
        if rel in order:
            return
        if rel in trail:
            raise BuildError(f"{rel}: the worker's modules import in a circle ({' -> '.join(trail + (rel,))})")
        path = root / rel
        if not path.is_file():
            raise BuildError(f"{trail[-1]}: imports {rel}, which is not there")
        text = path.read_text(encoding="utf-8")
        sources[rel] = text
        imports[rel] = []
        for m in _IMPORT.finditer(text):
            target = posixpath.normpath(posixpath.join(posixpath.dirname(rel), m.group(2)))
            names = _names(m.group(1), rel)
            imports[rel].append((target, names))
            if target not in SHARED:
                if not target.startswith(PARTS + "/"):
                    raise BuildError(f"{rel}: imports {m.group(2)}; the worker's modules import only "
                                     f"each other, js/build-info.js and js/limits.js")
                visit(target, trail + (rel,))
        order.append(rel)

    visit(ENTRY, ())
    parts = sorted(p.relative_to(root).as_posix() for p in (root / PARTS).rglob("*.js")) \
        if (root / PARTS).is_dir() else []
    unused = [p for p in parts if p not in order]
    if unused:
        raise BuildError(f"{', '.join(unused)}: under {PARTS}/ but imported by no module of {ENTRY}")

    shared_in_entry = {t: set(n) for t, n in imports[ENTRY] if t in SHARED}
    exported: dict[str, set[str]] = {}
    owner: dict[str, str] = {}
    bodies: list[str] = []
    for rel in order:
        text = sources[rel]
        for target, names in imports[rel]:
            have = shared_in_entry.get(target, set()) if target in SHARED else exported[target]
            missing = [n for n in names if n not in have]
            if missing:
                raise BuildError(f"{rel}: imports {missing} from {target}, which "
                                 + (f"{ENTRY} does not import" if target in SHARED else "does not export"))
        kept = [m.group(0) for m in _IMPORT.finditer(text) if rel == ENTRY and _target(rel, m) in SHARED]
        body = _IMPORT.sub(lambda m: m.group(0) if m.group(0) in kept else "", text)
        if rel != ENTRY:
            exported[rel] = {_name(m) for m in _DECLARED.finditer(text) if m.group(0).startswith("export")}
            body = _EXPORT.sub("", body)
        rest = body
        for line in kept:
            rest = rest.replace(line, "")
        left = re.search(r"^(?:[ \t]*(?:import|export)\b(?!\s*\()|(?:const|let|var)\s*[{\[])", rest, re.M)
        if left:
            line = rest[left.start():].split("\n", 1)[0]
            raise BuildError(f"{rel}: a line the worker's bundle cannot take: {line.strip()[:80]}")
        for m in _DECLARED.finditer(body):
            name = _name(m)
            if name in owner:
                raise BuildError(f"`{name}` is declared at the top of both {owner[name]} and {rel}: "
                                 "the worker's bundle would hold it twice")
            owner[name] = rel
        bodies.append(body)
    # The entry's opening comment and its imports of the build's facts and the bounds come
    # first, then its parts, then its own code.
    entry = bodies.pop()
    last = _shared_block(entry)
    head, sep, rest = entry.partition(last)
    return head + sep + "".join(f"\n// ---- {rel} ----\n{body}" for rel, body in zip(order, bodies)) + "\n" + rest


def _name(m: re.Match) -> str:
    return next(g for g in m.groups() if g)


def _target(rel: str, m: re.Match) -> str:
    return posixpath.normpath(posixpath.join(posixpath.dirname(rel), m.group(2)))


def _shared_block(entry: str) -> str:
    """The entry's last import of js/build-info.js or js/limits.js, with its line's end."""
    found = [m for m in _IMPORT.finditer(entry) if _target(ENTRY, m) in SHARED]
    if not found:
        raise BuildError(f"{ENTRY}: expected its imports of js/build-info.js and js/limits.js")
    return found[-1].group(0)


def stage_worker(stage: Path) -> None:
    """In the staged site: js/worker.js becomes the bundle of its modules, js/worker/ goes."""
    js = stage / "js"
    if not (js / "worker.js").is_file():
        return
    (js / "worker.js").write_text(bundle_worker(js), encoding="utf-8")
    if (js / "worker").is_dir():
        shutil.rmtree(js / "worker")
