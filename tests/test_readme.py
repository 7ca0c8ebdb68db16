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
    # The research example plays 100 deals against the expert (about a minute): here 2, the
    # same code and the same printed line.
    assert text.count("deals=100, seed=1)") == 1
    text = text.replace("deals=100, seed=1)", "deals=2, seed=1)")
    parser = doctest.DocTestParser()
    test = parser.get_doctest(text, {}, "README.md", "README.md", 0)
    assert test.examples, "the README has no runnable examples"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0
