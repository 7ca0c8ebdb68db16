"""The documentation holds: the README stays short and reachable from its top, every link
between the documents lands, the Python examples in docs/ run as written, and every
documented command of the engine, the benchmarks and the tools exists with the options the
documents give it (each is run with ``--help``)."""
from __future__ import annotations

import doctest
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md"))
DOCUMENTS = [ROOT / "README.md", ROOT / "ARCHITECTURE.md", ROOT / "tools" / "README.md", *DOCS]
# Documents on other topics that the README and docs/ link to, written beside these ones:
# a link to one of them may land before the document does.
COMPANIONS = {"docs/coach.md", "docs/friends.md", "docs/env.md"}


def _rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to '-'."""
    text = re.sub(r"`|\*", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _prose(text: str) -> str:
    """The text without its fenced code blocks (a '#' there is no heading)."""
    return re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)


def _anchors(path: Path) -> set[str]:
    return {_slug(m.group(1)) for m in re.finditer(r"^#+ (.+)$", _prose(path.read_text()),
                                                   re.M)}


def test_the_readme_is_read_in_five_minutes():
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= 250


def test_every_section_of_the_readme_is_in_its_contents():
    text = _prose((ROOT / "README.md").read_text())
    sections = [_slug(h) for h in re.findall(r"^## (.+)$", text, re.M)]
    contents = re.findall(r"^- \[[^\]]+\]\(#([^)]+)\)$", text, re.M)
    assert len(sections) >= 6
    assert contents == sections


@pytest.mark.parametrize("doc", DOCUMENTS, ids=_rel)
def test_every_link_lands(doc):
    text = _prose(doc.read_text())
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue  # another site
        file, _, anchor = target.partition("#")
        dest = (doc.parent / file).resolve() if file else doc
        assert dest.is_relative_to(ROOT), target
        if _rel(dest) in COMPANIONS and not dest.exists():
            continue
        assert dest.exists(), f"{_rel(doc)}: {target}"
        if anchor and dest.suffix == ".md":
            assert anchor in _anchors(dest), f"{_rel(doc)}: {target}"


@pytest.mark.parametrize("doc", [d for d in DOCS if ">>> " in d.read_text()], ids=_rel)
def test_the_examples_in_docs_run(doc, monkeypatch):
    monkeypatch.chdir(ROOT)
    text = re.sub(r"^```.*$", "", doc.read_text(), flags=re.M)
    test = doctest.DocTestParser().get_doctest(text, {}, doc.name, str(doc), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0


# A command as the documents write it: the engine's command line, a benchmark, a tool.
# A benchmark is often named without the interpreter ("`bench/chiamata.py fit`"); the
# research log names code that has left the tree, so its commands are not run.
COMMAND = re.compile(r"(?:python3? (-m briscola|build\.py|tools/[\w/]+\.py)|"
                     r"(?:python3? )?(bench/\w+\.py))((?: +[^\s`|;#]+)*)")


def documented_commands() -> dict[tuple[str, str], set[str]]:
    """(program, first argument) -> the options the documents pass it, from every code block
    and inline code span of the documents."""
    found: dict[tuple[str, str], set[str]] = {}
    for doc in DOCUMENTS:
        if doc.name == "research-log.md":
            continue
        text = doc.read_text()
        spans = re.findall(r"^```\w*\n(.*?)^```", text, re.M | re.S)
        spans += re.findall(r"^    +(\S.*)$", _prose(text), re.M)  # indented code blocks
        spans += [" ".join(s.split()) for s in re.findall(r"`([^`]+)`", _prose(text))]
        for span in spans:
            for line in span.replace("\\\n", " ").splitlines():
                for engine, script, rest in COMMAND.findall(line.split("#")[0]):
                    prog = engine or script
                    args = rest.split()
                    first = args[0] if args and not args[0].startswith("-") else ""
                    opts = {a.split("=")[0] for a in args if a.startswith("--")}
                    found.setdefault((prog, first), set()).update(opts)
    return found


COMMANDS = documented_commands()


def test_the_documents_name_the_commands_that_measure_their_figures():
    programs = {prog for prog, _ in COMMANDS}
    benches = {f"bench/{p.name}" for p in (ROOT / "bench").glob("*.py")}
    assert benches <= programs, "a benchmark no document uses"
    assert {"-m briscola", "build.py"} <= programs
    assert {first for prog, first in COMMANDS if prog == "-m briscola"} >= {
        "variants", "simulate", "play", "arena", "review"}


def _help(prog: str, first: str) -> str:
    argv = [sys.executable, *prog.split()]
    env = {**os.environ, "PYTHONPATH": "py"}
    base = subprocess.run(argv + ["--help"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)
    assert base.returncode == 0, base.stderr
    choices = re.search(r"\{([\w,-]+)\}", base.stdout)
    if first and choices and first in choices.group(1).split(","):
        sub = subprocess.run(argv + [first, "--help"], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=120)
        assert sub.returncode == 0, sub.stderr
        return sub.stdout
    return base.stdout


@pytest.mark.parametrize("prog,first", sorted(COMMANDS), ids=lambda x: x or "-")
def test_each_documented_command_runs_with_the_options_given(prog, first):
    text = _help(prog, first)
    assert "usage:" in text
    missing = {opt for opt in COMMANDS[(prog, first)] if opt not in text}
    assert not missing, f"{prog} {first}: {sorted(missing)} not in its --help"
