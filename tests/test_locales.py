"""The page's words: one file a language in js/locales/, every key in every language."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

LOCALES = Path(__file__).resolve().parent.parent / "js" / "locales"
PLACEHOLDER = re.compile(r"\{(\w+)\}")


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

