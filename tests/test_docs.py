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


# ---- the rule book: docs/rules.md -------------------------------------------------------------
# The rule book lives in the repository, and everything that cites a rule cites it: a link
# `rules.md#anchor`, or a section `§N` in a file that names rules.md (the rule book's own
# sections included). Nothing points outside the repository for a rule.

RULE_BOOK = ROOT / "docs" / "rules.md"
TEXT_SUFFIXES = {".py", ".js", ".mjs", ".md", ".html", ".css", ".toml", ".yml", ".yaml", ".sh",
                 ".txt", ".webmanifest"}
SKIPPED_DIRS = {".git", "node_modules", "dist", "build", "__pycache__", "artifacts",
                ".pytest_cache", ".hypothesis", ".benchmarks"}
# Documents that were never part of the repository (written so this file does not name them).
OUTSIDE = re.compile("|".join([r"\b" + "RULES" + r"\.md", r"\b" + "DESIGN" + r"\.md",
                               "rules-" + "sources", r"\.\./" + r"shared\b"]))
SECTION_REF = re.compile(r"§(\d+(?:\.\d+)*)")
ANCHOR_REF = re.compile(r"\brules\.md#([\w-]+)")


def repository_texts() -> list[Path]:
    """The repository's own text files: sources, tests, documents, the build and the page."""
    out = []
    for dirpath, dirnames, filenames in os.walk(ROOT):
        dirnames[:] = sorted(d for d in dirnames
                             if d not in SKIPPED_DIRS and not d.endswith(".egg-info"))
        out += [Path(dirpath) / f for f in sorted(filenames)
                if Path(f).suffix in TEXT_SUFFIXES or f == "run"]
    return out


def _plain(text: str) -> str:
    """Markdown without emphasis and code marks, on one line: what a reader reads."""
    return " ".join(re.sub(r"\*\*|\*|`", "", text).split())


def rule_book_sections(text: str) -> dict[str, str]:
    """Section number -> its text (subsections included), from headings "## 9." or "### 9.1"."""
    heads = [(m.start(), len(m.group(1)), m.group(2))
             for m in re.finditer(r"^(#+) (\d+(?:\.\d+)*)\.? ", _prose(text), re.M)]
    prose = _prose(text)
    sections = {}
    for i, (start, level, number) in enumerate(heads):
        end = next((s for s, lv, _ in heads[i + 1:] if lv <= level), len(prose))
        sections[number] = prose[start:end]
    return sections


def broken_references(text: str, names_rule_book: bool, sections: set[str],
                      anchors: set[str]) -> list[str]:
    """References in ``text`` that land on no heading of the rule book."""
    bad = [f"rules.md#{a}" for a in ANCHOR_REF.findall(text) if a not in anchors]
    if names_rule_book:
        bad += [f"§{n}" for n in SECTION_REF.findall(text) if n not in sections]
    return bad


def test_no_file_cites_a_document_outside_the_repository():
    found = []
    for path in repository_texts():
        for i, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
            if OUTSIDE.search(line):
                found.append(f"{_rel(path)}:{i}: {line.strip()}")
    assert not found, "\n".join(found)


def test_every_reference_to_the_rule_book_lands():
    sections = set(rule_book_sections(RULE_BOOK.read_text()))
    anchors = _anchors(RULE_BOOK)
    assert {str(n) for n in range(1, 16)} <= sections and "12.8" in sections
    broken, cited = [], 0
    for path in repository_texts():
        if path == Path(__file__).resolve():
            continue  # its examples of broken references below are meant to be broken
        text = path.read_text(errors="replace")
        names = path == RULE_BOOK or "rules.md" in text
        cited += names
        broken += [f"{_rel(path)}: {b}" for b in broken_references(text, names, sections,
                                                                    anchors)]
    assert not broken, "\n".join(broken)
    assert cited >= 10  # the engine, the page and the tests cite it


def test_a_broken_reference_to_the_rule_book_is_found():
    sections = set(rule_book_sections(RULE_BOOK.read_text()))
    anchors = _anchors(RULE_BOOK)
    good = "see docs/rules.md §12.8 and [the trick](rules.md#5-playing-a-trick)"
    assert broken_references(good, True, sections, anchors) == []
    bad = "see docs/rules.md §12.80, §16 and [the trick](rules.md#5-playing-the-trick)"
    assert broken_references(bad, True, sections, anchors) == [
        "rules.md#5-playing-the-trick", "§12.80", "§16"]
    assert OUTSIDE.search("as " + "RULES" + ".md section 4 says")
    assert OUTSIDE.search("../" + "shared" + "/notes")
    assert not OUTSIDE.search("docs/rules.md §4")


def test_every_variant_and_option_is_in_the_rule_book():
    from briscola.rules import OPTIONS, VARIANTS
    text = RULE_BOOK.read_text()
    names = [*VARIANTS, *OPTIONS]
    names += [c for o in OPTIONS.values() for c in o.choices or () if isinstance(c, str)]
    missing = [n for n in names if f"`{n}`" not in text]
    assert not missing, f"not in docs/rules.md: {missing}"


def quoted_rules(source: str) -> list[tuple[str, str]]:
    """(section, quotation) for every `§N: "..."` in the comments of a Python source: each
    quotation belongs to the section named last before it in the same comment."""
    import io
    import tokenize
    blocks, last = [], -2
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT:
            text = tok.string.lstrip("#").strip()
            if tok.start[0] == last + 1 and blocks:
                blocks[-1] += " " + text
            else:
                blocks.append(text)
            last = tok.start[0]
    out = []
    for block in blocks:
        section = None
        for m in re.finditer(r'§(\d+(?:\.\d+)*)|"([^"]+)"', block):
            if m.group(1):
                section = m.group(1)
            elif section is not None:
                out.append((section, m.group(2)))
    return out


def test_the_rule_book_says_what_its_tests_quote():
    sections = {n: _plain(s) for n, s in rule_book_sections(RULE_BOOK.read_text()).items()}
    quotes = quoted_rules((ROOT / "tests" / "test_rulebook.py").read_text())
    assert len(quotes) >= 15
    wrong = [f"§{n}: {q!r}" for n, q in quotes if _plain(q) not in sections.get(n, "")]
    assert not wrong, "\n".join(wrong)
    # and the check sees a quotation the rule book does not hold, or holds elsewhere
    assert quoted_rules('x = 1  # §5: "nobody has to follow"\n') == [("5", "nobody has to follow")]
    assert "60 is enough" not in sections["5"] and "nobody has to follow" not in sections["9"]


def _csp(html: str) -> dict[str, str]:
    m = re.search(r'<meta http-equiv="Content-Security-Policy" content="([^"]*)"', html)
    assert m, "no Content-Security-Policy"
    return {d.split()[0]: " ".join(d.split()[1:]) for d in m.group(1).split(";") if d.strip()}


def test_what_each_page_may_reach_is_what_its_policy_says():
    """docs/embedding.md's table of what each page may connect to is the pages' own policies:
    the poster's, index.html's (a table with friends), and the narrowing js/embed.js adds."""
    text = (ROOT / "docs" / "embedding.md").read_text(encoding="utf-8")
    section = text.split("### What each page may reach", 1)[1].split("\n### ", 1)[0]
    rows = {m.group(1): m.group(2) for m in re.finditer(r"^\| (.+?) \| `([^|]+)` \|", section, re.M)}
    index = _csp((ROOT / "index.html").read_text(encoding="utf-8"))
    poster = _csp((ROOT / "embed.html").read_text(encoding="utf-8"))
    assert rows["`embed.html` (the poster)"] == poster["connect-src"] == "'self'"
    assert rows["`index.html` holding a table with friends"] == index["connect-src"]
    narrowed = [r for k, r in rows.items() if k.startswith("`index.html` holding no table")]
    embed_js = (ROOT / "js" / "embed.js").read_text(encoding="utf-8")
    assert narrowed == ["'self'"] and f'narrow.content = "connect-src {narrowed[0]}"' in embed_js
    onefile = (ROOT / "tools" / "build" / "onefile.py").read_text(encoding="utf-8")
    assert "connect-src " + rows["`briscola.html` (one file, from disk)"] + ";" in onefile
