"""The style sheets travel without their comments (tools/build/site.py lean_css): the same
rules, fewer bytes on every first visit."""
from __future__ import annotations

import gzip
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tools.build.site import lean_css  # noqa: E402


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
