"""The style sheets travel without their comments (tools/build/site.py lean_css), the page's
modules without their comment lines (lean_modules): the same rules and code, fewer bytes on
every first visit and before the embed's poster's Play."""
from __future__ import annotations

import gzip
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.build import BuildError  # noqa: E402
from tools.build.onefile import without_comment_lines  # noqa: E402
from tools.build.site import lean_css, lean_modules  # noqa: E402


def without_comments(text: str) -> str:
    """Comments removed by scanning, character by character (strings kept)."""
    out, i, quote = [], 0, None
    while i < len(text):
        c = text[i]
        if quote:
            out.append(c)
            if c == "\\":
                out.append(text[i + 1])
                i += 1
            elif c == quote:
                quote = None
        elif c in "\"'":
            quote = c
            out.append(c)
        elif text.startswith("/*", i):
            i = text.index("*/", i + 2) + 1
        else:
            out.append(c)
        i += 1
    return "".join(out)


@pytest.mark.parametrize("sheet", sorted(p.name for p in (ROOT / "css").glob("*.css")))
def test_a_lean_sheet_keeps_every_rule(sheet):
    text = (ROOT / "css" / sheet).read_text(encoding="utf-8")
    lean = lean_css(text)
    assert "/*" not in lean
    assert re.sub(r"\s+", "", lean) == re.sub(r"\s+", "", without_comments(text))
    assert len(gzip.compress(lean.encode())) <= len(gzip.compress(text.encode()))


def test_strings_that_look_like_comments_stay():
    css = '.a::after { content: "/* not a comment */"; } /* a comment */\n\n.b { content: \'it\\\'s\'; }\n'
    assert lean_css(css) == '.a::after { content: "/* not a comment */"; }\n.b { content: \'it\\\'s\'; }\n'


def test_the_pages_modules_lose_their_comment_lines_only(tmp_path):
    """Every module of the page (the embed's poster's too) is smaller, keeps its compile hint,
    and does the same: the lean cards.js and i18n.js name the cards and say the words the
    sources do (node); the browser tests play the lean page."""
    import shutil
    import subprocess
    shutil.copy(ROOT / "embed.html", tmp_path / "embed.html")
    shutil.copytree(ROOT / "js", tmp_path / "js")
    lean_modules(tmp_path)
    changed = [p for p in (ROOT / "js").rglob("*.js")
               if (tmp_path / p.relative_to(ROOT)).read_text(encoding="utf-8") != p.read_text(encoding="utf-8")]
    assert {p.name for p in changed} >= {"poster.js", "cards.js", "i18n.js", "app.js", "engine.js",
                                         "worker.js", "newgame.js", "en.js", "it.js", "decks.js"}, changed
    for p in changed:
        lean = (tmp_path / p.relative_to(ROOT)).read_text(encoding="utf-8")
        assert len(lean) < len(p.read_text(encoding="utf-8"))
        assert not any(line.strip().startswith("//") and not line.startswith("//#") for line in lean.split("\n"))
        if p.read_text(encoding="utf-8").startswith("//#"):
            assert lean.startswith("//#")
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    code = """
const [a, b] = await Promise.all(process.argv.slice(1).map(async (root) => {
  const cards = await import(root + "/js/cards.js"); await import(root + "/js/decks.js");
  const i18n = await import(root + "/js/i18n.js");
  i18n.setLang("it");
  return JSON.stringify([cards.STYLES.map((s) => [cards.cardName("KD", "en", s), cards.cardSVG("HB", s, "it").length]),
    i18n.t("table.took", { name: "Carla", points: 1 })]); }));
if (a !== b) { console.error(a, b); process.exit(1); }
"""
    proc = subprocess.run([node, "--input-type=module", "-e", code, str(ROOT), str(tmp_path)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr


def test_code_after_a_comment_on_its_line_is_refused_not_dropped():
    assert without_comment_lines("a()\n/* one */\n/**\n * two\n */\n  // three\nb()") == "a()\nb()"
    assert without_comment_lines("/*/ still open\n*/\nc()") == "c()"
    for js in ("/* x */ f()", "/*\n x */ f()", "const s = `a\n// b\n`;"):
        with pytest.raises(BuildError):
            without_comment_lines(js)
