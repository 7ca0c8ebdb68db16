"""The page's languages: the engine words nothing itself (its hints, reasons and errors travel as
codes the page words), but the bridge checks that a request names a language the page speaks.

The list is the page's, js/locales/index.js (one line a language); nothing here is to be edited
to add one. The build writes the list into the wheel (``briscola/languages.json``, by
:func:`parse_index`); a source checkout reads the page's file itself.
"""

from __future__ import annotations

import json
import pkgutil
import re
from functools import lru_cache
from pathlib import Path

# export { default as hr } from "./hr.js";
_LINE = re.compile(r'^export \{ default as (\w+) \} from "\./(\w+)\.js";\s*$', re.M)
INDEX = Path(__file__).resolve().parents[2] / "js" / "locales" / "index.js"
DATA = "languages.json"


def parse_index(text: str) -> tuple[str, ...]:
    """The language codes js/locales/index.js lists, sorted (as the page sorts them)."""
    found = _LINE.findall(text)
    for name, file in found:
        if name != file:
            raise ValueError(f"js/locales/index.js: {name} is read from {file}.js")
    if not found:
        raise ValueError("js/locales/index.js lists no language")
    return tuple(sorted(name for name, _ in found))


@lru_cache(maxsize=1)
def languages() -> tuple[str, ...]:
    """The languages the page speaks: the wheel's list, else the source checkout's page; none
    (an engine installed without the page) when neither is there."""
    data = None
    try:
        data = pkgutil.get_data(__name__.rpartition(".")[0], DATA)
    except OSError:
        data = None
    if data is not None:
        return tuple(json.loads(data.decode("utf-8")))
    if not INDEX.is_file():
        return ()
    return parse_index(INDEX.read_text(encoding="utf-8"))
