"""The page tests' `wait_for_function` predicates are functions: Playwright runs a bare
expression through `eval`, which the page's policy refuses (script-src without 'unsafe-eval'),
so such a wait fails whenever its predicate is not already true at the first look, at random."""
import re
from pathlib import Path

BROWSER = Path(__file__).resolve().parent / "browser"
CALL = re.compile(r"wait_for_function\(\s*(?:#[^\n]*\n\s*)?([rf]?)(\"\"\"|\"|')(.*?)\2", re.S)
FUNCTION = re.compile(r"\s*(async\s+)?(\(|[\w$]+\s*=>|function\b)")


def test_every_wait_for_function_is_given_a_function():
    bare = []
    for path in sorted(BROWSER.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        for m in CALL.finditer(text):
            if not FUNCTION.match(m.group(3)):
                bare.append(f"{path.name}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(3)[:60]}")
    assert not bare, "a bare expression given to wait_for_function:\n" + "\n".join(bare)
