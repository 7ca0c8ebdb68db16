"""The page's ES module graph: which modules index.html's entry scripts import,
directly or not, in dependency order. site.py turns it into <link
rel="modulepreload"> tags; onefile.py bundles it into one inline script.
"""

from __future__ import annotations

import re
from pathlib import Path

from .common import BuildError

# import D from "./m.js";  import { a, b as c } from "./m.js";  import * as ns from "./m.js";
# import D, { a } from "./m.js";  import D, * as ns from "./m.js";  import "./m.js";
IMPORT = re.compile(r"""^import\s+(?:(?:(\w+)\s*(?:,\s*)?)?(?:\{([^}]*)\}|\*\s+as\s+(\w+))?\s*from\s+)?"""
                    r"""["'](\.{1,2}/[^"']+)["'];?[ \t]*$""", re.M)
# export { default as en } from "./en.js";  (js/locales/index.js: one line a language)
REEXPORT = re.compile(r"""^export\s*\{\s*default\s+as\s+(\w+)\s*\}\s*from\s+["'](\.{1,2}/[^"']+)["'];?[ \t]*$""", re.M)


def module_graph(stage: Path, entries: list[str], later: tuple[str, ...] = (),
                 replaced: dict[str, str] | None = None) -> list[str]:
    """Every module the entries import, directly or not (relative imports), in
    dependency order, the entries last. `later`: modules the build writes after this
    (js/build-info.js), listed where imported but not read (they import nothing).
    `replaced`: modules read as the text given instead of their file (onefile.py)."""
    order: list[str] = []

    def visit(rel: str, chain: tuple[str, ...]) -> None:
        if rel in chain:
            raise BuildError(f"import cycle: {' -> '.join(chain + (rel,))}")
        if rel in order:
            return
        if rel in later:
            order.append(rel)
            return
        path = stage / rel
        if not path.is_file():
            raise BuildError(f"{chain[-1] if chain else 'index.html'} imports {rel}, which is missing")
        text = (replaced or {}).get(rel) or path.read_text(encoding="utf-8")
        for m in IMPORT.finditer(text):
            visit(resolve(rel, m.group(4)), chain + (rel,))
        for m in REEXPORT.finditer(text):
            visit(resolve(rel, m.group(2)), chain + (rel,))
        order.append(rel)

    for entry in entries:
        visit(entry, ())
    return order


def page_entries(html: str) -> list[str]:
    return re.findall(r'<script\b[^>]*\btype="module"[^>]*\bsrc="([^"]+)"', html)


def resolve(importer: str, spec: str) -> str:
    parts = importer.split("/")[:-1]
    for piece in spec.split("/"):
        if piece == "..":
            if not parts:
                raise BuildError(f"{importer}: {spec} leaves the site")
            parts.pop()
        elif piece not in (".", ""):
            parts.append(piece)
    return "/".join(parts)
