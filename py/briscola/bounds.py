"""The bounds of every JSON text the package parses: a request's args, a save, a record.

A text past them is refused unparsed, since Python's parser recurses and a few thousand levels
of nesting raise ``RecursionError`` (and stop the interpreter in the browser). The longest real
save (a Chiamata match of 200 deals) is about 51 KB, 4 levels deep, 9,400 values. js/limits.js
holds the same numbers: the worker checks first (tests/test_bridge.py keeps the two equal).
"""
from __future__ import annotations

import json
import re
from itertools import accumulate, count
from operator import sub
from typing import Any

from .errors import BriscolaError

MAX_BYTES = 2_000_000
MAX_DEPTH = 64
MAX_ITEMS = 200_000


class JSONBoundsError(BriscolaError):
    """JSON text past the bounds (or not text at all), refused before it is parsed."""

    code = "bad_request"


class InputTooLarge(JSONBoundsError):
    code = "input_too_large"


class InputTooDeep(JSONBoundsError):
    code = "input_too_deep"


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.S)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = bytes.maketrans(b"[{]}", b"\x02\x02\x00\x00")


def check_json(text: Any) -> str:
    """``text`` if it is JSON-sized text within the bounds, else a :class:`JSONBoundsError`.

    No recursion and no loop in Python: the strings are cut out by a regular expression, the
    brackets left are counted, and the depth is the running sum of their steps (open +1,
    close -1), all in C.
    """
    if not isinstance(text, str):
        raise JSONBoundsError("expected JSON text")
    if len(text) > MAX_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise InputTooLarge(f"more than {MAX_BYTES} bytes")
    bare = _STRING.sub("", text)
    brackets = _NOT_BRACKET.sub("", bare)
    if len(brackets) > MAX_DEPTH:  # fewer cannot nest deeper
        steps = brackets.encode("ascii").translate(_STEP)  # 2 opens, 0 closes: sum - k = depth
        if max(map(sub, accumulate(steps), count(1))) > MAX_DEPTH:
            raise InputTooDeep(f"nested deeper than {MAX_DEPTH} levels")
    if (len(brackets) + 1) // 2 + bare.count(",") > MAX_ITEMS:
        raise InputTooLarge(f"more than {MAX_ITEMS} values")
    return text


def load_json(text: Any, what: str) -> Any:
    """``text`` parsed, within the bounds; else ``ValueError`` (``what``: what the text is, said
    first in the message: ``"saved game"``)."""
    try:
        data = json.loads(check_json(text))
    except JSONBoundsError as e:
        raise ValueError(f"{what}: {e}") from None
    except (TypeError, ValueError, RecursionError) as e:
        raise ValueError(f"{what}: not valid JSON ({e})") from None
    return data
