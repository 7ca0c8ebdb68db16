"""Cards, suits, ranks and the text notation.

A card is a small integer, ``suit * 13 + rank``, wrapped in :class:`Card` (an ``int``
subclass) so that the fast paths of the engine and the AI can use it as an index or a bit
position while tests and logs see ``AD`` or ``3S``. Every card exists once: ``Card.parse``
and ``Card(i)`` return the same interned object.

Notation (docs/rules.md §2): rank then suit. Ranks ``A 2 3 4 5 6 7 8 9 T J H K``
(``T`` ten, ``J`` fante/jack, ``H`` cavallo/horse, the queen of French cards, ``K`` re/king);
suits ``D C S B`` (denari/coins, coppe/cups, spade/swords, bastoni/clubs).
"""
from __future__ import annotations

from typing import Iterable

from .errors import quote

RANKS = "A23456789TJHK"
SUITS = "DCSB"
N_RANKS = len(RANKS)
N_CARDS = N_RANKS * len(SUITS)  # 52 possible identities; a deck uses a subset

RANK_INDEX = {r: i for i, r in enumerate(RANKS)}
SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}

SUIT_NAMES = {"D": "denari", "C": "coppe", "S": "spade", "B": "bastoni"}


class CardError(ValueError):
    """Text that is not a card, or a card that is not in the deck in use."""

    code = "bad_card"


class Card(int):
    """One playing card. ``str(card)`` is its two-character code; ``repr`` pastes back."""

    __slots__ = ()
    _interned: list["Card"] = []

    def __new__(cls, value: int) -> "Card":
        if cls._interned:
            if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < N_CARDS:
                return cls._interned[value]
            raise CardError(f"no card has the number {quote(value)}")
        return super().__new__(cls, value)

    @property
    def rank(self) -> str:
        return RANKS[self % N_RANKS]

    @property
    def suit(self) -> str:
        return SUITS[self // N_RANKS]

    @property
    def suit_index(self) -> int:
        return self // N_RANKS

    @property
    def rank_index(self) -> int:
        return self % N_RANKS

    def __str__(self) -> str:
        return _CODES[self]

    def __repr__(self) -> str:
        return f"Card.parse({_CODES[self]!r})"

    def __format__(self, spec: str) -> str:
        return format(_CODES[self], spec)

    # pickling and copying keep the interned identity
    def __reduce__(self) -> tuple[type[Card], tuple[int]]:
        return (Card, (int(self),))

    @classmethod
    def parse(cls, text: "str | int") -> "Card":
        """Parse ``"AD"``-style notation strictly (upper case, exactly two characters).

        A :class:`Card` is returned as it is; any other number is refused.
        """
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise CardError(f"a card is written as text like 'AD', not {quote(text)}")
        card = _BY_CODE.get(text)
        if card is None:
            raise CardError(
                f"{quote(text)} is not a card: write rank then suit, ranks {' '.join(RANKS)}, "
                f"suits {' '.join(SUITS)} (for example 'AD' or '3S')"
            )
        return card

    @classmethod
    def of(cls, rank: str, suit: str) -> "Card":
        return cls.parse(rank + suit)


def make_card(rank: int, suit: int) -> int:
    return suit * N_RANKS + rank


_CODES = [RANKS[i % N_RANKS] + SUITS[i // N_RANKS] for i in range(N_CARDS)]
Card._interned = [int.__new__(Card, i) for i in range(N_CARDS)]
CARDS: list[Card] = Card._interned
_BY_CODE = {code: CARDS[i] for i, code in enumerate(_CODES)}
CODES: list[str] = _CODES  # the two-character code of each card number, without a Card

SUIT_OF = [i // N_RANKS for i in range(N_CARDS)]
RANK_OF = [i % N_RANKS for i in range(N_CARDS)]


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse a space- or comma-separated list of cards (or an iterable of codes)."""
    if isinstance(text, str):
        parts = text.replace(",", " ").split()
    else:
        parts = list(text)
    return [Card.parse(p) for p in parts]


def cards_text(cards: Iterable[int]) -> str:
    return " ".join(_CODES[c] for c in cards)


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of_mask(mask: int) -> list[Card]:
    out = []
    while mask:
        low = mask & -mask
        out.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return out
