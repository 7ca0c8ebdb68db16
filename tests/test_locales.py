"""The page's words: one file a language in js/locales/, every key in every language."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

LOCALES = Path(__file__).resolve().parent.parent / "js" / "locales"
PLACEHOLDER = re.compile(r"\{(\w+)[,}]")  # {name}, and a count {n, plural, ...}


def load(path: Path) -> dict[str, str]:
    """A locale file is `export default <JSON object>;` after its comment lines."""
    text = path.read_text(encoding="utf-8")
    body = text[text.index("\nexport default ") + len("\nexport default "):].strip()
    assert body.endswith(";"), f"{path.name}: the object must end with ';'"
    data = json.loads(body[:-1])
    assert isinstance(data, dict) and all(isinstance(v, str) for v in data.values())
    return data


INDEX_LINE = re.compile(r'^export \{ default as (\w+) \} from "\./(\w+)\.js";$', re.M)


def listed() -> list[str]:
    """The languages js/locales/index.js lists (one line a language)."""
    return sorted(name for name, _ in INDEX_LINE.findall((LOCALES / "index.js").read_text(encoding="utf-8")))


def locales() -> dict[str, dict[str, str]]:
    return {lang: load(LOCALES / f"{lang}.js") for lang in listed()}


def test_every_language_file_is_listed_in_the_index():
    """Each file of js/locales/ is a language the index lists from its own file, and the
    engine's bridge takes the same list (briscola.languages reads it, the build writes it)."""
    from briscola.languages import languages, parse_index
    index = (LOCALES / "index.js").read_text(encoding="utf-8")
    assert all(name == file for name, file in INDEX_LINE.findall(index)), index
    files = sorted(p.stem for p in LOCALES.glob("*.js") if p.name != "index.js")
    assert listed() == files
    assert list(parse_index(index)) == files == list(languages())
    # the page learns the list from the index too: every language's name (js/lang-names.js,
    # which the build writes as the names alone), its words fetched by their file's name
    src = (LOCALES.parent / "lang-names.js").read_text(encoding="utf-8")
    assert 'import * as LOCALES from "./locales/index.js";' in src
    assert "import(`./locales/${lang}.js`)" in (LOCALES.parent / "lang-files.js").read_text(encoding="utf-8")


def test_at_least_italian_and_english():
    assert {"it", "en"} <= set(locales())


def test_each_language_names_itself_and_its_locale():
    """The menus show each language by its own name; Intl writes its numbers and counts."""
    names = set()
    for lang, words in locales().items():
        assert words["lang.locale"].split("-")[0] == lang, lang
        names.add(words["lang.name"])
    assert len(names) == len(locales())


@pytest.mark.parametrize("lang", listed())
def test_same_keys_as_english(lang):
    all_ = locales()
    en, other = all_["en"], all_[lang]
    assert sorted(set(en) - set(other)) == [], f"missing in {lang}"
    assert sorted(set(other) - set(en)) == [], f"only in {lang}"


@pytest.mark.parametrize("lang", listed())
def test_same_placeholders_and_no_blank_text(lang):
    all_ = locales()
    for key, text in all_[lang].items():
        assert text.strip() or key.endswith(".empty"), f"{lang}:{key} is blank"
        assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(all_["en"][key])), \
            f"{lang}:{key} has other placeholders than English"
        if key.startswith("rules.text.") and re.search(r"\.(th|tr\d+)$", key):
            assert text.count(" | ") == all_["en"][key].count(" | "), f"{lang}:{key}: other cells than English"



ROOT = LOCALES.parent.parent


def error_codes() -> set[str]:
    """Every error code that can reach the page: the engine's typed errors (each exception
    class of the package with a ``code``: BriscolaError and its kin, in any module), the codes
    the bridge writes itself, and those of the engine's worker and client (js/worker.js and js/worker/,
    js/engine.js, js/limits.js)."""
    import importlib
    import pkgutil

    import briscola

    for mod in pkgutil.walk_packages(briscola.__path__, "briscola."):
        if not mod.name.endswith("__main__"):
            importlib.import_module(mod.name)
    codes = set()
    todo = [Exception]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.__module__.startswith("briscola") and isinstance(getattr(cls, "code", None), str):
            codes.add(cls.code)
    bridge = (ROOT / "py" / "briscola" / "bridge.py").read_text(encoding="utf-8")
    codes |= set(re.findall(r'\{"error":\s*\{"code":\s*"(\w+)"', bridge))
    friends = sorted(p.relative_to(ROOT / "js").as_posix() for p in (ROOT / "js" / "friends").glob("*.js"))
    worker = sorted(p.relative_to(ROOT / "js").as_posix() for p in (ROOT / "js" / "worker").glob("*.js"))
    for name in ("worker.js", *worker, "engine.js", "limits.js", *friends):
        src = (ROOT / "js" / name).read_text(encoding="utf-8")
        codes |= set(re.findall(r'refuse\([^,()]+,\s*"(\w+)"', src))  # js/friends/host.js
        codes |= set(re.findall(r'errorReply\([^,()]+,\s*"(\w+)"', src))
        codes |= set(re.findall(r'new EngineError\("(\w+)"', src))
        for expr in re.findall(r"\bcode:\s*([^,}]+)", src):  # {code: ...}, literals in it
            codes |= set(re.findall(r'"(\w+)"', expr))
        codes |= set(re.findall(r'code \?\? "(\w+)"', src))
    return codes


def test_every_error_code_has_words_in_every_language():
    codes = error_codes()
    # the collection itself still finds each kind of source
    assert {"illegal_action", "bad_option", "bad_card", "hidden_seat", "internal",
            "engine_unavailable", "bad_save_not_kept", "terminated", "no_game"} <= codes, codes
    for lang, words in locales().items():
        missing = sorted(c for c in codes if f"error.{c}" not in words)
        assert not missing, f"{lang}: no words for the error codes {missing} (error.<code>)"


def test_a_one_fills_a_sentence_in_the_singular():
    """"1 points" is never shown: a 1 that fills a sentence takes the singular forms of its
    counts ({n, plural, one {...} other {...}}); other numbers take the plural."""
    import shutil
    import subprocess
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    code = """
import { t, setLang } from "./js/i18n.js";
const out = [];
for (const lang of ["en", "it"]) { setLang(lang);
  for (const n of [1, "1", 11, "0.1", "1,5", 2]) out.push([lang, String(n), t("reason.coach_keep_trump", {card: "X", alt: "Y", trumps: n, gain: n}), t("table.took", {name: "Carla", points: n})]); }
console.log(JSON.stringify(out));
"""
    root = LOCALES.parent.parent
    proc = subprocess.run([node, "--input-type=module", "-e", code], cwd=root, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(proc.stdout)
    for lang, n, keep, took in rows:
        words = keep + " " + took
        if n == "1":
            assert not re.search(r"(?<![\d.,])1 (points|trumps|punti|briscole)\b", words), words
            assert ("1 point" in words) if lang == "en" else ("1 punto" in words and "resta fuori 1" in words), words
        else:
            assert ("points" in words) if lang == "en" else ("punti" in words), words


def test_every_sentence_renders_with_every_count_in_every_language():
    """Every key of every language with 0, 1, 2, 3, 5 and 21 in each placeholder: no throw, no
    placeholder left; each count has the forms its language's plural rules ask (Intl.PluralRules:
    Croatian's one/few/other, Slovene's one/two/few/other); every card of every deck style named
    (tests/js/render_words.mjs)."""
    import shutil
    import subprocess
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    root = LOCALES.parent.parent
    proc = subprocess.run([node, str(root / "tests" / "js" / "render_words.mjs")], cwd=root,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["langs"] == listed()
    assert out["problems"] == []
    # the counts took their forms: one card, two tricks, in each language's way
    samples = out["samples"]
    assert samples["en"]["sum.tricks"][:3] == ["0: 0 tricks", "1: 1 trick", "2: 2 tricks"]
    assert samples["it"]["sum.tricks"][:3] == ["0: 0 prese", "1: 1 presa", "2: 2 prese"]
    # Croatian's three forms (1 and 21 alike), Slovene's four (its dual for 2)
    assert samples["hr"]["sum.tricks"] == ["0: 0 ruku", "1: 1 ruka", "2: 2 ruke", "3: 3 ruke", "5: 5 ruku", "21: 21 ruka"]
    assert samples["sl"]["seat.cards"] == ["0 kart", "1 karta", "2 karti", "3 karte", "5 kart", "21 kart"]
    assert samples["es"]["cards"][0] == "As de Oros" and samples["hr"]["cards"][0] == "As od dinara"
    assert samples["en"]["cards"][0] == "Ace of Coins" and samples["it"]["cards"][0] == "Asso di Denari"
    for lang, words in samples.items():
        assert len(words["cards"]) >= 2 * 40 + 52, lang
