"""The README's Python examples run as written (doctest)."""
import doctest
import os
import re

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_readme_examples(monkeypatch):
    monkeypatch.chdir(ROOT)
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"^```.*$", "", text, flags=re.M)  # a fence is not expected output
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {}, "README.md", "README.md", 0)
    assert test.examples, "the README has no runnable examples"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0
