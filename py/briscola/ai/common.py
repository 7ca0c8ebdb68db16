"""What every computer player reads off a view: the trick, the sides, the cards still out.

:class:`Situation` is built once per decision from a :class:`~briscola.view.View` (never from
the real game). It holds plain ints and bit masks so the heuristics and the search can use it
without touching ``Card`` objects in their inner loops. It also names cards in English for
the one-sentence reasons the bots give to the UI.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Sequence, TypeVar

from ..actions import SIGNAL, SIGNAL_LOADED, SWAP
from ..cards import CARDS, N_RANKS, RANK_INDEX, mask_of
from .base import why

if TYPE_CHECKING:  # for the annotations only
    from ..rules import Rules
    from ..view import View

_RANK_WORDS = {"A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six",
               "7": "seven", "8": "eight", "9": "nine", "T": "ten", "J": "jack", "K": "king"}
_ITALIAN_SUITS = ("coins", "cups", "swords", "clubs")
_FRENCH_SUITS = ("diamonds", "hearts", "spades", "clubs")


def card_name(card: int, rules: Rules) -> str:
    """``the ace of coins``; French decks say diamonds/hearts and queen for the horse."""
    c = CARDS[card]
    french = rules.deck != "italian"
    r = c.rank
    word = ("queen" if french else "horse") if r == "H" else _RANK_WORDS[r]
    suit = (_FRENCH_SUITS if french else _ITALIAN_SUITS)[card // N_RANKS]
    return f"the {word} of {suit}"


def bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def deal(hands: list[int], sizes: Sequence[int], cards: Sequence[int]) -> int:
    """Deals ``cards`` in order into the hands (masks, changed in place): ``sizes[s]`` of
    them to seat ``s``, seat after seat. Returns how many were dealt."""
    i = 0
    for s, k in enumerate(sizes):
        if k:
            m = hands[s]
            for c in cards[i:i + k]:
                m |= 1 << c
            hands[s] = m
            i += k
    return i


def popcount(mask: int) -> int:
    return bin(mask).count("1")


def chance_of_any(pool: int, k: int, slots: int) -> float:
    """The chance that ``slots`` cards dealt at random from ``pool`` unknown cards include at
    least one of ``k`` given ones (one less the chance that none of them is dealt)."""
    if k <= 0 or slots <= 0 or pool <= 0:
        return 0.0
    p_none = 1.0
    for i in range(slots):
        if pool - i <= 0:
            break
        p_none *= max(pool - k - i, 0) / (pool - i)
    return 1.0 - p_none


def signalled_cards(view: View) -> dict[int, int]:
    """Trump cards that partners announced by signal (card -> seat), if still unplayed.

    Only partners see which signal was made; an opponent's signal reads as ``None``.
    """
    if not view.rules.signals or view.trump_suit is None:
        return {}
    my_side = view.side_of_seat[view.seat]
    out: dict[int, int] = {}
    base = view.trump_suit * N_RANKS
    for e in view.events:
        if e.get("type") != "signal":
            continue
        s = e["seat"]  # a signal event names its seat
        sig = e.get("signal")
        if s == view.seat or sig in (None, "loaded") or view.side_of_seat[s] != my_side:
            continue
        out[base + RANK_INDEX[sig]] = s
    return out


class Situation:
    """The decision at hand, in ints and masks. See the module docstring."""

    __slots__ = ("view", "rules", "tables", "n", "me", "side", "side_of", "trump", "pts",
                 "strength", "beats", "hand", "hand_mask", "played", "order", "pos", "trick",
                 "trick_seats", "best", "best_seat", "table_pts", "after", "known", "unknown",
                 "unknown_mask", "unknown_slots", "talon_unknown", "talon_size", "live_mask",
                 "partners", "opponents", "cards_left", "faceup")

    def __init__(self, view: View) -> None:
        rules = view.rules
        t = rules.tables
        self.view = view
        self.rules = rules
        self.tables = t
        n = view.players
        self.n = n
        me = view.seat
        self.me = me
        side_of = list(view.side_of_seat)
        # Chiamata before the partner is known: everyone else counts as an opponent.
        for s in range(n):
            if side_of[s] is None or side_of[s] < 0:
                side_of[s] = -1 - s
        self.side_of = side_of
        self.side = side_of[me]
        self.partners = [s for s in range(n) if s != me and side_of[s] == self.side]
        self.opponents = [s for s in range(n) if side_of[s] != self.side]
        self.trump = view.trump_suit
        self.pts = t.points
        self.strength = t.strength
        self.beats = t.beats(self.trump)
        self.hand = [int(c) for c in view.hand]
        self.hand_mask = hm = mask_of(self.hand)
        self.played = view.played_mask()
        self.faceup = int(view.trump_card) if view.trump_card is not None else -1
        self.talon_size = view.talon_size
        # The current trick: who played what, who is winning, who is still to play.
        self.trick = [int(c) for _s, c in view.trick]
        self.trick_seats = [s for s, _c in view.trick]
        self.order = trick_order(view)
        self.pos = len(self.trick)
        best, best_seat, tp = -1, -1, 0
        beats = self.beats
        for s, c in zip(self.trick_seats, self.trick):
            tp += self.pts[c]
            if best < 0 or beats[(best << 6) | c]:
                best, best_seat = c, s
        self.best, self.best_seat, self.table_pts = best, best_seat, tp
        self.after = [s for s in self.order[self.pos + 1:] if s != me]
        # Where the other cards are: known per seat (signals included), and the unknown pool.
        known = [0] * n
        for s in range(n):
            if s == me:
                continue
            for c in view.known[s]:
                known[s] |= 1 << c
        sig = signalled_cards(view)
        located = hm | self.played
        for s in range(n):
            located |= known[s]
        if self.faceup >= 0:
            located |= 1 << self.faceup
        for _p, c in view.talon_known:
            located |= 1 << c
        if view.talon_next is not None:
            located |= 1 << view.talon_next
        for c, s in sig.items():
            if not located >> c & 1:
                known[s] |= 1 << c
                located |= 1 << c
        self.known = known
        self.unknown_mask = t.deck_mask & ~located
        self.unknown = bits(self.unknown_mask)
        slots = [0] * n
        for s in range(n):
            if s != me:
                slots[s] = max(view.hand_sizes[s] - popcount(known[s]), 0)
        self.unknown_slots = slots
        tu = self.talon_size - (1 if self.faceup >= 0 else 0) - len(view.talon_known)
        if view.talon_next is not None:
            tu -= 1
        self.talon_unknown = max(tu, 0)
        # Every card not yet played, anywhere (hands, talon, the current trick excluded).
        self.live_mask = t.deck_mask & ~self.played
        self.cards_left = sum(view.hand_sizes)

    # ---- helpers ---------------------------------------------------------------------------
    def is_trump(self, c: int) -> bool:
        return c // N_RANKS == self.trump

    def would_win(self, c: int) -> bool:
        """Would ``c`` be the best card of the trick if played now?"""
        return self.best < 0 or self.beats[(self.best << 6) | c]

    def beaters(self, c: int) -> int:
        """Mask of live cards (not mine, not played) that would beat ``c`` as best card."""
        beats = self.beats
        m = 0
        for x in self.tables.deck_ints:
            if beats[(c << 6) | x]:
                m |= 1 << x
        return m & self.live_mask & ~self.hand_mask

    def p_holds_any(self, seat: int, mask: int) -> float:
        """Probability that ``seat`` holds at least one card of ``mask`` (counting cards)."""
        if self.known[seat] & mask:
            return 1.0
        if seat == self.me:
            return 1.0 if self.hand_mask & mask else 0.0
        if self.view.hands_visible[seat]:
            return 0.0
        return chance_of_any(len(self.unknown), popcount(mask & self.unknown_mask),
                             self.unknown_slots[seat])

    def trumps_out(self) -> int:
        """Mask of trumps not played and not in my hand."""
        if self.trump is None:
            return 0
        m = 0
        base = self.trump * N_RANKS
        for r in range(N_RANKS):
            m |= 1 << (base + r)
        return m & self.live_mask & ~self.hand_mask & self.tables.deck_mask


def trick_order(view: View) -> tuple[int, ...]:
    """The seats that play the current trick, in order (Bosnian short tricks included)."""
    t = view.rules.tables
    leader = view.leader
    if view.rules.double:
        return t.orders[leader]
    played = {s for s, _c in view.trick}
    sizes = [view.hand_sizes[s] + (1 if s in played else 0) for s in range(view.players)]
    top = max(sizes)
    return tuple(s for s in t.rot[leader] if sizes[s] == top)


def special_action(view: View, sit: Situation | None = None) -> tuple[int, dict] | None:
    """The exchange or signal a sensible player makes now, with its reason, or ``None``.

    Exchanging the 7 or 2 of trump for a better face-up card is always worth it. A partner
    is told once per deal about the ace or three of trump.
    """
    swaps = [a for a in view.legal if SWAP <= a < SWAP + 52]
    if swaps:
        a: int = swaps[0]
        give = CARDS[a - SWAP]
        return a, why("bot_exchange", card=give, card2=view.trump_card)
    sigs = [a for a in view.legal if SIGNAL <= a <= SIGNAL_LOADED]
    if sigs:
        done = set()
        for e in view.events:
            if e.get("type") == "signal" and e.get("seat") == view.seat:
                done.add(e.get("signal"))
        for r in ("A", "3"):  # the signals name the same cards whatever the ranking
            a = SIGNAL + RANK_INDEX[r]
            if a in sigs and r not in done:
                return a, why("bot_signal", rank=r)
    return None


_T = TypeVar("_T")


def resample(pool: list[_T], weights: list[float], k: int,
             rng: random.Random) -> list[_T] | None:
    """``k`` items of ``pool`` drawn in proportion to ``weights`` (systematic resampling: one
    random offset, evenly spaced pointers, so the draw varies little); ``None`` if every
    weight is zero."""
    total = sum(weights)
    if total <= 0:
        return None
    step = total / k
    u = rng.random() * step
    out: list[_T] = []
    acc = 0.0
    for w, x in zip(pool, weights):
        acc += x
        while u < acc and len(out) < k:
            out.append(w)
            u += step
    while len(out) < k:
        out.append(pool[-1])
    return out
