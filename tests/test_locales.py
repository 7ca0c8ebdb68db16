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


def locales() -> dict[str, dict[str, str]]:
    return {p.stem: load(p) for p in sorted(LOCALES.glob("*.js"))}


def test_every_language_is_registered_in_i18n():
    src = (LOCALES.parent / "i18n.js").read_text(encoding="utf-8")
    for lang in locales():
        assert f'import {lang} from "./locales/{lang}.js";' in src, lang


def test_at_least_italian_and_english():
    assert {"it", "en"} <= set(locales())


@pytest.mark.parametrize("lang", sorted(p.stem for p in LOCALES.glob("*.js")))
def test_same_keys_as_english(lang):
    all_ = locales()
    en, other = all_["en"], all_[lang]
    assert sorted(set(en) - set(other)) == [], f"missing in {lang}"
    assert sorted(set(other) - set(en)) == [], f"only in {lang}"


@pytest.mark.parametrize("lang", sorted(p.stem for p in LOCALES.glob("*.js")))
def test_same_placeholders_and_no_blank_text(lang):
    all_ = locales()
    for key, text in all_[lang].items():
        assert text.strip() or key.endswith(".empty"), f"{lang}:{key} is blank"
        assert set(PLACEHOLDER.findall(text)) == set(PLACEHOLDER.findall(all_["en"][key])), \
            f"{lang}:{key} has other placeholders than English"



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
