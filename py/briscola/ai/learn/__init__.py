"""A learned evaluation: the points a side still takes, seen from one seat.

The expert asks it, at the leaves of a one-trick search over sampled worlds, how a
position at the start of a trick looks *from its own seat*: its hand, the trump, the cards
it has not seen (by suit and rank), the cards it knows are in other hands, the face-up trump
still under the talon, the points each side has taken, the talon size and who leads. The
answer is the points its side will take from there to the end of the deal.

The model is a small neural network (one hidden layer of rectified units) trained offline
on self-play deals (``tools/train/``); its weights ship in the package as a Python module
(``weights_<name>.py``, half-precision floats or scaled bytes, in base64: see
:meth:`Model.from_blob`) and are evaluated here in plain
Python, no numpy: the inputs are mostly 0/1 flags, so the hidden layer is the bias plus the
rows of the flags that are set.

The page's engine (the wheel of the first visit) carries only the models of :data:`IN_WHEEL`;
every other ``weights_<name>.py`` is built into a file of its own (``models/<name>-<hash>.json``,
tools/build/models.py) that the page's worker fetches, checks and hands to :func:`install`
before a game that searches with it plays. Until then :func:`load` answers ``None`` for it and
the expert plays its heuristic, as it does where no model fits.

Inputs (see :class:`Encoder`): a card's slot is ``suit_slot * 10 + rank_slot``, suit slot 0
for the trump suit and 1..3 for the others in suit order; rank slot by strength (0 the
weakest). Flags: hand 0..39, unseen 40..79, known in another hand 80..119, on the table
120..159, the face-up trump still in the talon 160..169, who leads relative to the seat
170..175, the table is won by the seat's side 176. Scalars 177..180: points taken by the
seat's side and by the others over the deck's total, talon size over the deck size, points
on the table over 30.
"""
from __future__ import annotations

import base64
import binascii
import importlib
import importlib.util
import json
import struct
from operator import add
from typing import TYPE_CHECKING, Sequence

from ...cards import N_RANKS

if TYPE_CHECKING:  # for the annotations only
    from ...rules import Rules

N_FLAGS = 177
N_SCALARS = 4
N_INPUTS = N_FLAGS + N_SCALARS
HAND, UNSEEN, KNOWN, TABLE, FACEUP, LEADER, TABLE_MINE = 0, 40, 80, 120, 160, 170, 176
SCALAR = N_FLAGS


def card_slots(rules: Rules, trump: int | None) -> list[int]:
    """Each card's slot (``suit_slot * 10 + rank_slot``, see the module docstring), -1 for
    cards not in the deck; the Chiamata network's inputs use the same slots."""
    t = rules.tables
    slot = [-1] * 64
    others = [s for s in range(4) if s != trump]
    for c in t.deck_ints:
        suit = c // N_RANKS
        ss = (0 if suit == trump else 1 + others.index(suit)) if trump is not None else suit
        slot[c] = ss * 10 + min(t.strength[c] - 1, 9)
    return slot


class Encoder:
    """Card slots for one rules value and trump suit (see the module docstring)."""

    def __init__(self, rules: Rules, trump: int | None) -> None:
        t = rules.tables
        self.n = rules.players
        self.side_of = t.side_of
        self.total = float(t.total_points) or 1.0
        self.deck_size = float(len(t.deck)) or 1.0
        self.slot = card_slots(rules, trump)

    def encode(self, me: int, hand: int, unseen: int, known: int, faceup: int,
               table: Sequence[tuple[int, int]], best_seat: int, leader: int, mine: float,
               theirs: float, talon: int, table_pts: int) -> tuple[list[int], list[float]]:
        """Flags set and scalars of a position from seat ``me``'s view.

        ``hand``, ``unseen``, ``known``: card masks; ``faceup``: the face-up trump card
        while it is still in the talon, else -1; ``table``: (seat, card) played so far in
        the trick; ``best_seat``: who is winning it (-1 if empty); ``mine``/``theirs``:
        points taken by the seat's side and by everyone else.
        """
        slot = self.slot
        idx = []
        for base, m in ((HAND, hand), (UNSEEN, unseen), (KNOWN, known)):
            while m:
                low = m & -m
                idx.append(base + slot[low.bit_length() - 1])
                m ^= low
        for _s, c in table:
            idx.append(TABLE + slot[c])
        if faceup >= 0:
            idx.append(FACEUP + slot[faceup] % 10)
        idx.append(LEADER + (leader - me) % self.n)
        if best_seat >= 0 and self.side_of[best_seat] == self.side_of[me]:
            idx.append(TABLE_MINE)
        return idx, [mine / self.total, theirs / self.total, talon / self.deck_size,
                     table_pts / 30.0]


class Model:
    """One hidden layer of rectified units; the output times the deck's points."""

    def __init__(self, meta: dict, w1: list[list[float]], b1: list[float], w2: list[float],
                 b2: float) -> None:
        self.meta = meta
        self.w1 = w1  # N_INPUTS rows of `hidden` floats
        self.b1 = b1
        self.w2 = w2
        self.b2 = b2
        self.scale = float(meta.get("scale", 120.0))

    @classmethod
    def from_blob(cls, meta: dict, blob: str, inputs: int = N_INPUTS) -> "Model":
        """The weights from their text: format ``f16`` (the default), every weight a
        half-precision float; ``i8``, the first layer's rows as bytes (-127..127) each with
        a half-precision scale, the rest half-precision (half the size for big layers).
        ``inputs``: how many inputs the encoder that will feed it has (the classic and
        four-player encoder's by default)."""
        raw = base64.b64decode(blob)
        hidden = int(meta["hidden"])
        n_in = int(meta["inputs"])
        fmt = meta.get("format", "f16")
        rest = hidden + hidden + 1
        if fmt == "f16":
            size = 2 * (n_in * hidden + rest)
        elif fmt == "i8":
            size = n_in * hidden + 2 * (n_in + rest)
        else:
            raise ValueError(f"model {meta.get('name')!r}: unknown weight format {fmt!r}")
        if len(raw) != size or n_in != inputs:
            raise ValueError(f"model {meta.get('name')!r}: {len(raw)} bytes of weights for "
                             f"{n_in} inputs and {hidden} hidden units ({fmt})")
        if fmt == "f16":
            vals = struct.unpack(f"<{n_in * hidden + rest}e", raw)
            w1 = [list(vals[i * hidden:(i + 1) * hidden]) for i in range(n_in)]
            tail = vals[n_in * hidden:]
        else:
            q = struct.unpack(f"<{n_in * hidden}b", raw[:n_in * hidden])
            k = n_in * hidden
            scales = struct.unpack(f"<{n_in}e", raw[k:k + 2 * n_in])
            w1 = [[x * sc for x in q[i * hidden:(i + 1) * hidden]]
                  for i, sc in enumerate(scales)]
            tail = struct.unpack(f"<{rest}e", raw[k + 2 * n_in:])
        b1 = list(tail[:hidden])
        w2 = list(tail[hidden:2 * hidden])
        return cls(meta, w1, b1, w2, tail[-1])

    def hidden_base(self, idx: list[int]) -> list[float]:
        """The hidden layer's input from the flags alone (before the scalars)."""
        acc = self.b1
        w1 = self.w1
        for i in idx:
            acc = list(map(add, acc, w1[i]))
        return acc

    def value(self, idx: list[int], scalars: list[float]) -> float:
        """The points the seat's side takes from this position to the end of the deal."""
        acc = self.hidden_base(idx)
        w1 = self.w1
        for j, x in enumerate(scalars):
            if x:
                row = w1[SCALAR + j]
                acc = [a + x * r for a, r in zip(acc, row)]
        out = self.b2
        for a, w in zip(acc, self.w2):
            if a > 0.0:
                out += a * w
        return out * self.scale


# The models whose weights modules the page's first download carries (the engine's wheel):
# two- and four-player Briscola, and Briscola Chiamata's network (its own encoder, see
# briscola.ai.learn.chiamata). The build leaves every other weights_<name>.py out of that wheel
# and ships it apart, for install() (the package installed elsewhere has them all).
IN_WHEEL = ("classic", "four", "chiamata")

_MODELS: dict[str, Model | None] = {}


def load(name: str, inputs: int = N_INPUTS) -> Model | None:
    """The shipped model called ``name`` (``None`` if the package has none by that name and
    none was installed, see :func:`install`), for an encoder of ``inputs`` inputs. Cheap to
    call per decision: after the first call, a dictionary look-up."""
    if name in _MODELS:
        return _MODELS[name]
    try:
        mod = importlib.import_module(f"{__name__}.weights_{name}")
    except ModuleNotFoundError as e:
        if e.name != f"{__name__}.weights_{name}":
            raise
        _MODELS[name] = None
        return None
    m = Model.from_blob(dict(mod.META), mod.WEIGHTS, inputs)
    _MODELS[name] = m
    return m


def install(name: str, text: str, inputs: int = N_INPUTS) -> Model:
    """Make the model ``name`` known to :func:`load` from ``text``, the JSON the build writes
    of a weights module (``{"name", "meta", "weights"}``: its ``META`` and ``WEIGHTS``), as the
    page's worker fetches it for a variant whose model the engine's wheel leaves out. A text
    that is not such a model (malformed, another model's, weights of the wrong size) raises
    ValueError and changes nothing; installing the same name again replaces it."""
    try:
        data = json.loads(text)
    except (TypeError, ValueError) as e:
        raise ValueError(f"model {name!r}: not JSON text ({e})") from None
    meta = data.get("meta") if isinstance(data, dict) else None
    weights = data.get("weights") if isinstance(data, dict) else None
    if (not isinstance(meta, dict) or not isinstance(weights, str) or data.get("name") != name
            or meta.get("name") != name):
        raise ValueError(f"model {name!r}: expected {{\"name\": {name!r}, \"meta\": {{...}}, "
                         "\"weights\": \"...\"}} of that model")
    try:
        model = Model.from_blob(dict(meta), weights, inputs)
    except (KeyError, TypeError, binascii.Error, struct.error) as e:
        raise ValueError(f"model {name!r}: its weights do not read ({type(e).__name__}: {e})") from None
    _MODELS[name] = model
    return model


def load_file(path: str, inputs: int = N_INPUTS) -> Model:
    """The model of a weights module at ``path`` (``tools/train/train.py --out``): a
    candidate measured against the shipped one, never a player's."""
    spec = importlib.util.spec_from_file_location("candidate_weights", path)
    if spec is None or spec.loader is None:
        raise ValueError(f"{path}: not a Python module (a weights file ends in .py)")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return Model.from_blob(dict(mod.META), mod.WEIGHTS, inputs)


def model_name(rules: Rules) -> str | None:
    """Which shipped model fits these rules, if any: the positions it was trained on, none of
    the house rules (reburied cards, exchanges, signals, the natural three). Two-, three-,
    four- and six-player Briscola with the Italian deck in its standard order (three players
    without the 2 of coins, partners seeing each other's hands only in the last tricks);
    for two players also double Briskula, scoperta (open hands), Portuguese Bisca (French
    deck, A 7 K J Q) and Bosnian Briskula (French 32-card deck). ``load`` says whether that
    model's weights ship."""
    if (rules.mode != "classic" or rules.natural_three or rules.signals or rules.rebury
            or rules.exchange_two or rules.exchange_seven):
        return None
    n = rules.players
    italian = rules.deck == "italian" and rules.ranking == "standard"
    plain = not rules.double and not rules.open_hands
    if italian and plain:
        if n == 2:
            return "classic"
        if n == 4 and rules.tables.teams is not None:
            return "four" if FOUR_ENABLED else None
        if n == 3 and rules.removed_two == "2D":
            return "three"
        if n == 6 and rules.partner_view == "last":
            return "six"
        return None
    if n != 2:
        return None
    if italian:
        return "double" if not rules.open_hands else "scoperta" if not rules.double else None
    if plain and rules.deck == "french" and rules.ranking == "bisca":
        return "bisca"
    if plain and rules.deck == "french32" and rules.ranking == "standard":
        return "bosnian"
    return None


FOUR_ENABLED = True  # measured to pay over the heuristic before the horizon (docs/players.md)
