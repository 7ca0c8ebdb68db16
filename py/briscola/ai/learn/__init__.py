"""A learned evaluation: the points a side still takes, seen from one seat.

The expert asks it, at the leaves of a one-trick search over sampled worlds, how a
position at the start of a trick looks *from its own seat*: its hand, the trump, the cards
it has not seen (by suit and rank), the cards it knows are in other hands, the face-up trump
still under the talon, the points each side has taken, the talon size and who leads. The
answer is the points its side will take from there to the end of the deal.

The model is a small neural network (one hidden layer of rectified units) trained offline
on self-play deals (``tools/train/``) and evaluated here in plain Python, no numpy: the
inputs are mostly 0/1 flags, so the hidden layer is the bias plus the rows of the flags that
are set.

**Where the weights live.** A model is data, not code: each is a file of its own in this
package, ``models/<name>.bin`` (read by :func:`pkgutil.get_data`, the package's own loader,
so the same from a source tree, an installed wheel or the page's zip-imported wheel, and
without importing :mod:`importlib.resources`, which costs tens of milliseconds in Pyodide
where this costs a fraction of one), written by the trainer
(:func:`pack_model`) and read by :func:`read_model`. The file is binary rather than text: the
weights (half-precision floats, or scaled bytes: see :meth:`Model.from_bytes`) as they are,
a quarter fewer bytes than in base64, fewer even than base64 text gzipped. Its layout:

    b"BRNN"  version (one byte, 1)  n (two bytes, little-endian)
    n bytes of metadata (JSON, UTF-8: name, inputs, hidden, scale, format, how it was trained)
    the weights (exactly the size that the metadata's inputs, hidden units and format give)

A file that is not such a model (another magic or version, bad metadata, another model's
name, weights of the wrong size) is refused with ValueError, naming the model and the fault.

The page's engine (the wheel of the first visit) carries only the models of :data:`IN_WHEEL`;
every other ``models/<name>.bin`` the build ships as a file of its own
(``models/<name>-<hash>.bin``, tools/build/models.py), the same bytes, that the page's worker
fetches, checks and hands to :func:`install` before a game that searches with it plays. Until
then :func:`load` answers ``None`` for it and the expert plays its heuristic, as it does where
no model fits.

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
import json
import pkgutil
import re
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
        """The weights from their base64 text (see :meth:`from_bytes`)."""
        return cls.from_bytes(meta, base64.b64decode(blob), inputs)

    @classmethod
    def from_bytes(cls, meta: dict, raw: bytes, inputs: int = N_INPUTS) -> "Model":
        """The weights from their bytes: format ``f16`` (the default), every weight a
        half-precision float; ``i8``, the first layer's rows as bytes (-127..127) each with
        a half-precision scale, the rest half-precision (half the size for big layers).
        ``inputs``: how many inputs the encoder that will feed it has (the classic and
        four-player encoder's by default)."""
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
                             f"{n_in} inputs and {hidden} hidden units ({fmt})"
                             + ("" if n_in == inputs else f"; its encoder has {inputs} inputs"))
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


# The models the page's first download carries (the engine's wheel): two- and four-player
# Briscola, and Briscola Chiamata's network (its own encoder, see briscola.ai.learn.chiamata).
# The build leaves every other models/<name>.bin out of that wheel and ships it apart, for
# install() (the package installed elsewhere has them all).
IN_WHEEL = ("classic", "four", "chiamata")

MAGIC = b"BRNN"  # a model file's first bytes, then its FILE_VERSION
FILE_VERSION = 1
MODELS_DIR = "models"  # the folder of this package that holds the model files
_NAME = re.compile(r"[a-z0-9_]+")

_MODELS: dict[str, Model | None] = {}


def pack_model(meta: dict, raw: bytes) -> bytes:
    """A model file's bytes (the module docstring's layout): ``meta`` (with its ``name``) and
    the weights' bytes as :meth:`Model.from_bytes` reads them. What the trainer writes."""
    head = json.dumps(meta, separators=(",", ":")).encode()
    if len(head) > 0xFFFF:
        raise ValueError(f"model {meta.get('name')!r}: {len(head)} bytes of metadata, over 65535")
    return MAGIC + bytes([FILE_VERSION]) + struct.pack("<H", len(head)) + head + bytes(raw)


def read_model(data: bytes, name: str | None = None, inputs: int = N_INPUTS) -> Model:
    """The model of a file's bytes (:func:`pack_model`), checked whole: ValueError, which names
    the model and the fault, for anything else, or for another model than ``name`` (when
    given), or for weights that do not fit ``inputs`` inputs."""
    label = name if name is not None else "?"
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise ValueError(f"model {label!r}: expected a model file's bytes, "
                         f"not {type(data).__name__}")
    data = bytes(data)
    if data[:4] != MAGIC or len(data) < 7:
        raise ValueError(f"model {label!r}: not a model file (it starts {data[:4]!r}, "
                         f"not {MAGIC!r})")
    if data[4] != FILE_VERSION:
        raise ValueError(f"model {label!r}: model file version {data[4]}, this engine reads "
                         f"{FILE_VERSION}")
    (n,) = struct.unpack_from("<H", data, 5)
    if len(data) < 7 + n:
        raise ValueError(f"model {label!r}: the file ends inside its metadata ({n} bytes said, "
                         f"{len(data) - 7} there)")
    try:
        meta = json.loads(data[7:7 + n].decode())
    except (UnicodeDecodeError, ValueError) as e:
        raise ValueError(f"model {label!r}: its metadata do not read ({e})") from None
    if not isinstance(meta, dict) or not isinstance(meta.get("name"), str):
        raise ValueError(f"model {label!r}: its metadata name no model")
    if name is not None and meta["name"] != name:
        raise ValueError(f"model {label!r}: the file holds the model {meta['name']!r}")
    if (not all(type(meta.get(k)) is int and meta[k] > 0 for k in ("inputs", "hidden"))
            or type(meta.get("scale", 0.0)) not in (int, float)):
        raise ValueError(f"model {meta['name']!r}: its metadata want whole numbers of inputs "
                         "and hidden units and a numeric scale")
    return Model.from_bytes(meta, data[7 + n:], inputs)


def load(name: str, inputs: int = N_INPUTS) -> Model | None:
    """The shipped model called ``name`` (``None`` if the package has none by that name and
    none was installed, see :func:`install`), for an encoder of ``inputs`` inputs. Cheap to
    call per decision: after the first call, a dictionary look-up."""
    if name in _MODELS:
        return _MODELS[name]
    data = None
    if _NAME.fullmatch(name):
        try:
            data = pkgutil.get_data(__name__, f"{MODELS_DIR}/{name}.bin")
        except OSError as e:
            # No such file: FileNotFoundError from a folder, errno 0 from a zip on sys.path
            # (the page's wheel); any other error of reading is not hidden.
            if not (isinstance(e, FileNotFoundError) or not e.errno):
                raise
    model = read_model(data, name, inputs) if data is not None else None
    _MODELS[name] = model
    return model


def install(name: str, data: bytes, inputs: int = N_INPUTS) -> Model:
    """Make the model ``name`` known to :func:`load` from ``data``, a model file's bytes (the
    file the build ships apart, ``models/<name>-<hash>.bin``), as the page's worker fetches it
    for a variant whose model the engine's wheel leaves out. Bytes that are not that model
    (see :func:`read_model`) raise ValueError and change nothing; installing the same name
    again replaces it."""
    model = read_model(data, name, inputs)
    _MODELS[name] = model
    return model


def load_file(path: str, inputs: int = N_INPUTS) -> Model:
    """The model of a model file at ``path`` (``tools/train/train.py --out``): a candidate
    measured against the shipped one, never a player's."""
    with open(path, "rb") as f:
        return read_model(f.read(), None, inputs)


def model_name(rules: Rules) -> str | None:
    """Which shipped model fits these rules, if any: the positions it was trained on, none of
    the house rules (reburied cards, exchanges, signals, the natural three, hands of nine, other
    cards taken out). Two-, three-,
    four- and six-player Briscola with the Italian deck in its standard order (three players
    without the 2 of coins, partners seeing each other's hands only in the last tricks);
    for two players also double Briskula, scoperta (open hands), Portuguese Bisca (French
    deck, A 7 K J Q) and Bosnian Briskula (French 32-card deck). ``load`` says whether that
    model's weights ship."""
    if (rules.mode != "classic" or rules.natural_three or rules.signals or rules.rebury
            or rules.exchange_two or rules.exchange_seven or rules.exchange_brisca
            or rules.hand_cards != 3 or rules.removed != "two"):
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
