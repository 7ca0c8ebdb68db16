"""The one-file page, dist/briscola.html: the whole game in one file that plays
from disk (file://), offline.

A file:// page may import no module from a file, start no module worker from a
blob (its origin is opaque), and fetch nothing, not even its own blob: URLs from
a worker. So the page carries everything: the UI's modules bundled into one
inline module script, the stylesheets inline, and the engine's files as base64
data blocks, gzip-compressed where that helps. The engine's worker is one
classic script: Pyodide's classic loader (pyodide.js), pyodide.asm.mjs made a
classic script, and js/worker.js with the build info inline. At load, a small
inline bootstrap decodes the blocks into Blobs, starts that worker from a blob:
URL (js/engine.js setWorker) and posts it the other files (the wasm, the stdlib,
the wheel), which its fetch() then answers from memory.

Built from the staged site (site.py calls one_file_page()).
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
import re
from pathlib import Path

from .common import MIME_TYPES, PYODIDE_DIR, BuildError, log
from .modules import IMPORT, REEXPORT, module_graph, resolve

ONE_FILE = "briscola.html"
WORKER_IMPORT = 'import { BUILD } from "./build-info.js";'
LIMITS_IMPORT = 'import { checkJSON } from "./limits.js";'
PAGE_BUILD = "export const PAGE_BUILD = null;"
ASM_EXPORT = "export default _createPyodideModule;"
START_SCRIPT = "js/start.js"

_EXPORT_DECL = re.compile(r"^export\s+((?:async\s+)?function\*?\s+(\w+)|class\s+(\w+)|"
                          r"(?:const|let|var)\s+(\w+))", re.M)
_EXPORT_DEFAULT = re.compile(r"^export\s+default\s+(?:((?:async\s+)?function\*?\s+(\w+)|class\s+(\w+))|(?=\S))",
                             re.M)
_EXPORT_LIST = re.compile(r"^export\s*\{([^}]*)\}\s*;?[ \t]*$", re.M)
# A dynamic import of the code loaded only to play with friends (friends.py): this page plays
# from disk, with no network, so it has none of that code and the import is a refusal
# (js/app.js says so before it would run).
_LAZY_IMPORT = re.compile(r"""\bimport\(\s*["']\./friends/[\w./-]+["']\s*\)""")
_LEFTOVER = re.compile(r"^\s*(?:import\s*[\w{*\"']|export\b)|\bimport\s*\(", re.M)


def _bindings(names: str) -> list[tuple[str, str]]:
    """'a, b as c' -> [('a', 'a'), ('b', 'c')]"""
    out = []
    for part in filter(None, (x.strip() for x in names.split(","))):
        m = re.fullmatch(r"(\w+)(?:\s+as\s+(\w+))?", part)
        if not m:
            raise BuildError(f"cannot bundle the import/export list {names!r}")
        out.append((m.group(1), m.group(2) or m.group(1)))
    return out


# The site fetches a language's words when they are needed (js/lang-files.js: an import of its
# file); this page fetches nothing, so it carries every language: in place of that module, one
# with the same exports that holds them all (js/locales/index.js) and has no service worker.
LANG_FILES = "js/lang-files.js"
ONE_FILE_WORDS = """import * as LOCALES from "./locales/index.js";
export function importWords(lang) {
  return Object.hasOwn(LOCALES, lang) ? Promise.resolve(LOCALES[lang]) : Promise.reject(new Error(`no words for ${lang}`));
}
export function keepOffline() {}
"""


# The same for the page's modules that a first deal does not run (js/later.js: each imported
# when first needed): this page carries them, imported with the rest.
LATER = "js/later.js"
ONE_FILE_LATER = """import * as REVIEW from "./review.js";
import * as PUZZLE from "./puzzle.js";
import * as CARRY from "./carry.js";
import * as DECKS from "./decks.js";
import * as CHIAMATA from "./chiamata.js";
export function loadReview() { return Promise.resolve(REVIEW); }
export function loadPuzzle() { return Promise.resolve(PUZZLE); }
export function loadCarry() { return Promise.resolve(CARRY); }
export function loadDecks() { return Promise.resolve(DECKS); }
export function inSight() {}
export function loadChiamata() { return Promise.resolve(CHIAMATA); }
export function chiamataIn() { return CHIAMATA; }
"""


def one_file_modules(stage: Path) -> dict[str, str]:
    """The modules this page bundles as other text than their file's (ONE_FILE_WORDS,
    ONE_FILE_LATER), each checked to export what the file does."""
    exported = lambda text: sorted(m.group(2) or m.group(3) or m.group(4) for m in _EXPORT_DECL.finditer(text))  # noqa: E731
    out = {}
    for rel, text, name in ((LANG_FILES, ONE_FILE_WORDS, "ONE_FILE_WORDS"), (LATER, ONE_FILE_LATER, "ONE_FILE_LATER")):
        if not (stage / rel).is_file():
            continue
        if exported(text) != exported((stage / rel).read_text(encoding="utf-8")):
            raise BuildError(f"{rel}: its exports are not those of {ONE_FILE}'s version (onefile.py {name})")
        out[rel] = text
    return out


def bundle_modules(stage: Path, entries: list[str], between: str = "", after: str | None = None,
                   replaced: dict[str, str] | None = None) -> str:
    """One inline module script from the page's ES modules: each module becomes a
    block that publishes its exports in `__modules`; imports read from there.
    Only what the UI uses is supported (named and namespace imports of relative
    paths, exported declarations and lists); anything else fails the build.
    `between` runs after the module `after` and its dependencies, before every other
    module (or, without `after`, after every dependency and before the entry modules)."""
    replaced = replaced or {}
    order = module_graph(stage, entries, replaced=replaced)
    deps = [m for m in order if m not in entries]
    first = module_graph(stage, [after], replaced=replaced) if after else deps
    if after and (after not in deps or any(m in entries for m in first)):
        raise BuildError(f"{after}: not a module the page's entries import")
    sequence = first + ["\0between"] + [m for m in deps if m not in first] + [e for e in order if e in entries]
    parts = ["const __modules = Object.create(null);"]
    for rel in sequence:
        if rel == "\0between":
            parts.append(between)
            continue
        code = replaced.get(rel) or (stage / rel).read_text(encoding="utf-8")
        exports: list[tuple[str, str]] = []

        def imp(m: re.Match, rel=rel) -> str:
            target = f"__modules[{json.dumps(resolve(rel, m.group(4)))}]"
            default, names, namespace = m.group(1), m.group(2), m.group(3)
            out = []
            if default:
                out.append(f"const {default} = {target}.default;")
            if namespace:
                out.append(f"const {namespace} = {target};")
            if names is not None and names.strip():
                pairs = ", ".join(a if a == b else f"{a}: {b}" for a, b in _bindings(names))
                out.append(f"const {{ {pairs} }} = {target};")
            return " ".join(out)  # a bare import ("./m.js") only orders the modules

        def reexport(m: re.Match, rel=rel) -> str:
            exports.append((m.group(1), m.group(1)))
            return f"const {m.group(1)} = __modules[{json.dumps(resolve(rel, m.group(2)))}].default;"

        def default(m: re.Match) -> str:
            if m.group(1):
                exports.append((m.group(2) or m.group(3), "default"))
                return m.group(1)
            exports.append(("__default", "default"))
            return "const __default = "

        def decl(m: re.Match) -> str:
            name = m.group(2) or m.group(3) or m.group(4)
            exports.append((name, name))
            return m.group(1)

        def lst(m: re.Match) -> str:
            exports.extend(_bindings(m.group(1)))
            return ""

        code = IMPORT.sub(imp, code)
        code = REEXPORT.sub(reexport, code)
        code = _LAZY_IMPORT.sub('Promise.reject(new Error("not in the one-file page"))', code)
        code = _EXPORT_DEFAULT.sub(default, code)
        code = _EXPORT_DECL.sub(decl, code)
        code = _EXPORT_LIST.sub(lst, code)
        left = _LEFTOVER.search(code)
        if left:
            line = code.count("\n", 0, left.start()) + 1
            raise BuildError(f"{rel}:{line}: cannot bundle this import/export for {ONE_FILE}")
        table = ", ".join(b if a == b else f"{b}: {a}" for a, b in exports)
        if len({b for _, b in exports}) != len(exports):
            raise BuildError(f"{rel}: an export name twice")
        parts.append(f"// ---- {rel}\n{{\n{code.rstrip()}\n"
                     f"__modules[{json.dumps(rel)}] = Object.freeze({{ {table} }});\n}}")
    return "\n".join(parts) + "\n"


def _csp_hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


# Decodes the carried files (base64 data blocks, some gzip-compressed) into
# Blobs and chooses the engine's worker: the classic script, from a blob: URL,
# spawned at once, before the other files are decoded. (index.html's js/start.js, which
# spawns js/worker.js from the site, is left out of this page: js/engine.js imports it.)
ONE_FILE_BOOTSTRAP = """// ---- the one-file page: the engine's files, from this page's data blocks
await (async () => {
  const blocks = [...document.querySelectorAll('script[type="application/octet-stream"][data-path]')];
  const decode = async (el) => {
    const blob = await (await fetch(`data:${el.dataset.type};base64,${el.textContent}`)).blob();
    el.remove();
    return { blob, type: el.dataset.type, gzip: el.dataset.encoding === "gzip" };
  };
  // The worker's script first, and the worker started, before the other files are decoded
  // (reading a block's text is main-thread work): it gets them in one message once they are.
  const mine = blocks.find((el) => el.dataset.path === "js/worker.js");
  const wasm = blocks.find((el) => el.dataset.path === "pyodide/pyodide.asm.wasm");
  const others = blocks.filter((el) => el !== mine && el !== wasm);
  const script = await decode(mine);
  const code = script.gzip ? new Response(script.blob.stream().pipeThrough(new DecompressionStream("gzip"))) : script.blob;
  const url = URL.createObjectURL(new Blob([await code.arrayBuffer()], { type: "text/javascript" }));
  let deliver;
  const files = new Promise((resolve) => { deliver = resolve; });
  // The wasm is decoded next and compiled here, while the worker's script loads (as js/start.js
  // does on the site); the worker gets the module ("early-wasm"), or compiles it itself.
  const wasmFile = decode(wasm);
  const compiled = typeof WebAssembly.compileStreaming !== "function" ? Promise.resolve(null)
    : wasmFile.then(({ blob, gzip }) => WebAssembly.compileStreaming(new Response(
      gzip ? blob.stream().pipeThrough(new DecompressionStream("gzip")) : blob,
      { headers: { "Content-Type": "application/wasm" } })));
  const early = compiled.then((module) => ({ type: "early-wasm", from: "carried", module }),
    () => ({ type: "early-wasm", from: null }));
  __modules["js/engine.js"].setWorker(url, { type: "classic", name: "briscola:carried:helped", message: files, messages: [early] });
  __modules["js/engine.js"].startEarly();
  const sent = [wasm, ...others];
  deliver(Promise.all([wasmFile, ...others.map(decode)]).then((got) => ({
    type: "carried", files: Object.fromEntries(got.map((file, i) => [sent[i].dataset.path, file])),
  })));
})();"""


def inline_build(worker: str, info: dict, limits: str) -> str:
    """js/worker.js with the build's facts (js/build-info.js, less its file list) and the
    bounds of js/limits.js (its declarations, `export` dropped) in place of its imports of
    them: the worker's start waits for no second module."""
    for line in (WORKER_IMPORT, LIMITS_IMPORT):
        if worker.count(line) != 1:
            raise BuildError(f"js/worker.js: expected the line `{line}` once")
    build = json.dumps({k: v for k, v in info.items() if k != "files"})
    body = re.sub(r"^export\s+(?=(?:async\s+)?function|class\s|const\s|let\s|var\s)", "", limits,
                  flags=re.M)
    if _LEFTOVER.search(body):
        raise BuildError("js/limits.js: it must import nothing and export only declarations")
    return (worker.replace(WORKER_IMPORT, f"const BUILD = Object.freeze({build});")
            .replace(LIMITS_IMPORT, body.strip()))


def without_comment_lines(js: str) -> str:
    """`js` less its lines that hold only a comment (`// ...`, and `/* ... */` blocks that begin
    a line). For a script with no multi-line template literal (checked: a line with an odd
    count of backticks is refused, and so is code after a comment that begins a line), whose
    comments are the source's reading, not the browser's: js/worker.js, sw.js and the page's
    modules ship so (site.py lean_modules), tens of KB (gzipped) less on every first visit."""
    out, block = [], False
    for line in js.split("\n"):
        text = line.strip()
        if block or text.startswith("/*"):
            block = "*/" not in text[2 * (not block):]
            if not block and text.split("*/", 1)[1].strip():
                raise BuildError(f"code after a comment that begins a line: {text[:60]}")
            continue
        if text.startswith("//"):
            continue
        if line.count("`") % 2:
            raise BuildError(f"a template literal over several lines: {line.strip()[:60]}")
        out.append(line)
    return "\n".join(out)


def inline_page_build(engine: str, build_hash: str) -> str:
    """js/engine.js with this build's hash in place of its `PAGE_BUILD = null`."""
    if engine.count(PAGE_BUILD) != 1:
        raise BuildError(f"js/engine.js: expected the line `{PAGE_BUILD}` once")
    return engine.replace(PAGE_BUILD, PAGE_BUILD.replace("null", json.dumps(build_hash)))


def classic_worker(stage: Path, info: dict) -> bytes:
    """The engine's worker as one classic script: pyodide.js, pyodide.asm.mjs and
    js/worker.js, each rewritten where it uses module-only syntax."""
    loader = (PYODIDE_DIR / "pyodide.js").read_text(encoding="utf-8")
    loader = re.sub(r"^//# sourceMappingURL=.*$", "", loader, flags=re.M)
    asm = (stage / "pyodide" / "pyodide.asm.mjs").read_text(encoding="utf-8")
    worker = (stage / "js" / "worker.js").read_text(encoding="utf-8")
    if asm.count(ASM_EXPORT) != 1:
        raise BuildError(f"pyodide.asm.mjs: expected `{ASM_EXPORT}` once (another Pyodide?)")
    if WORKER_IMPORT in worker:
        worker = inline_build(worker, info, (stage / "js" / "limits.js").read_text(encoding="utf-8"))
    asm = asm.replace(ASM_EXPORT, "self._createPyodideModule = _createPyodideModule;")
    parts = [loader, asm.replace("import.meta.url", "self.location.href"),
             worker.replace("import.meta.url", "self.location.href")]
    for name, part in zip(("pyodide.js", "pyodide.asm.mjs", "js/worker.js"), parts):
        if re.search(r"^\s*(import|export)\s[\w{*]", part, re.M) or "import.meta" in part:
            raise BuildError(f"{name}: module syntax left in the one-file worker")
    return "\n;\n".join(parts).encode()


def one_file_page(stage: Path, info: dict) -> bytes:
    html = (stage / "index.html").read_text(encoding="utf-8")
    styles: list[str] = []
    entries: list[str] = []

    def attrs(tag: str) -> dict[str, str]:
        return {k.lower(): v for k, v in re.findall(r'([\w-]+)="([^"]*)"', tag)}

    def link(m: re.Match) -> str:
        a = attrs(m.group(0))
        rel, href = a.get("rel", ""), a.get("href", "")
        if rel == "stylesheet":
            css = (stage / href).read_text(encoding="utf-8")
            if "url(" in css:
                raise BuildError(f"{href}: url(...) in a stylesheet is not carried into {ONE_FILE}")
            styles.append(css)
            return f"<style>{css}</style>"
        if rel == "icon":
            data = base64.b64encode((stage / href).read_bytes()).decode()
            return f'<link rel="icon" href="data:{a.get("type", "image/svg+xml")};base64,{data}">'
        if rel in ("manifest", "apple-touch-icon", "modulepreload", "preload", "prefetch"):
            return ""  # nothing to install or fetch from a file
        log(f"{ONE_FILE}: dropped {m.group(0)}")
        return ""

    def script(m: re.Match) -> str:
        src = attrs(m.group(0))["src"]
        if src != START_SCRIPT:  # here the bootstrap starts the carried worker instead
            entries.append(src)
        return ""

    html = re.sub(r"<link\b[^>]*>\n?", link, html)
    html = re.sub(r'<script\b[^>]*\bsrc="[^"]+"[^>]*>\s*</script>\n?', script, html)
    if re.search(r"<script\b(?![^>]*application/octet-stream)", html):
        raise BuildError(f"index.html has an inline script: {ONE_FILE} cannot carry it")
    if not entries:
        raise BuildError("index.html loads no module script")
    # The engine's worker starts before the UI's modules run: the bootstrap follows
    # js/engine.js (and what it imports) at the top of the bundle.
    bundle = bundle_modules(stage, entries, ONE_FILE_BOOTSTRAP, after="js/engine.js",
                            replaced=one_file_modules(stage))
    if "</script" in bundle.lower():
        raise BuildError(f"a module contains the text </script: cannot inline it in {ONE_FILE}")
    if 'setWorker' not in (stage / "js" / "engine.js").read_text(encoding="utf-8"):
        raise BuildError("js/engine.js has no setWorker(): the one-file page needs it")

    carried = {"js/worker.js": classic_worker(stage, info)}
    # The models the wheel leaves out too (models.py): this page plays every variant offline.
    models = [m["path"] for m in info.get("models", {}).values()]
    for rel in ["pyodide/pyodide.asm.wasm", info["stdlib"], info["wheel"], *models]:
        carried[rel] = (stage / rel).read_bytes()
    blocks = []
    for rel, data in carried.items():
        packed, encoding = gzip.compress(data, 9, mtime=0), ' data-encoding="gzip"'
        if len(packed) > 0.95 * len(data):
            packed, encoding = data, ""
        ctype = MIME_TYPES.get(Path(rel).suffix, "application/octet-stream")
        blocks.append(f'<script type="application/octet-stream" data-path="{rel}" data-type="{ctype}"'
                      f'{encoding}>{base64.b64encode(packed).decode()}</script>\n')

    csp = ("default-src 'none'; "
           f"script-src {_csp_hash(bundle)} blob: 'wasm-unsafe-eval'; "
           "worker-src blob:; connect-src blob: data:; img-src data: blob:; "
           f"style-src {' '.join(_csp_hash(css) for css in styles) or chr(39) + 'none' + chr(39)}; "
           "font-src data:; base-uri 'none'; object-src 'none'")
    meta = f'<meta http-equiv="Content-Security-Policy" content="{csp}">'
    html, n = re.subn(r'<meta http-equiv="Content-Security-Policy"[^>]*>', lambda _: meta, html)
    if not n:
        html = html.replace('<meta charset="utf-8">', '<meta charset="utf-8">\n  ' + meta, 1)
    tail = "".join(blocks) + f'<script type="module">{bundle}</script>\n'
    if "</body>" not in html:
        raise BuildError("index.html has no </body>")
    html = html.replace("</body>", tail + "</body>", 1)
    return html.encode("utf-8")
