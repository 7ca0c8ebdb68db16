"""What the Chiamata players read off a view: the auction, the sides as far as they are known,
and a belief about who holds the called card.

:class:`ChState` is built once per decision from a :class:`~briscola.view.View` and nothing
else. It turns the view into plain ints and bit masks, and it works out:

* what the plays imply about the hands: in "a carichi" a seat that did not follow the suit
  led has no card of that suit; after a forced call the caller holds the 2 of trump and every
  rank below the called one;
* a **belief** over who holds the called card (the caller's secret partner). The caller does
  not know it; an opponent knows only that it is not himself (the caller may even have called
  his own card). Each play is evidence: loading points onto a trick the caller is winning is
  what a partner does, taking such a trick away from the caller is what an opponent does.
  The belief is recomputed from the whole deal at every decision, so it needs no memory.
  The expert reads the plays by ratios counted over played deals (:data:`PLAY_READS`);
* per seat, the chance that it is on the caller's side, and on my side.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ...actions import BID_POINTS, Action
from ...cards import CARDS, N_RANKS, Card, RANK_INDEX, mask_of
from ..common import bits, card_name, chance_of_any, popcount

if TYPE_CHECKING:  # for the annotations only
    from ...rules import Rules
    from ...view import View

__all__ = ["ChState", "bits", "popcount", "card_name", "suit_name", "rank_word", "SUIT_MASKS"]

SUIT_MASKS = [sum(1 << (s * N_RANKS + r) for r in range(N_RANKS)) for s in range(4)]

_RANK_WORDS = {"A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six",
               "7": "seven", "8": "eight", "9": "nine", "T": "ten", "J": "jack", "K": "king"}
_ITALIAN_SUITS = ("coins", "cups", "swords", "clubs")
_FRENCH_SUITS = ("diamonds", "hearts", "spades", "clubs")

# How much more (or less) likely a play is from the caller's partner than from an opponent.
LR_LOAD_BIG = 3.0  # an ace or a three thrown onto the caller's winning trick
LR_LOAD_SMALL = 1.6  # a king, horse or jack thrown onto it
LR_LOAD_NONE = 0.85  # a card worth nothing under the caller's winning card
LR_TAKE_FROM_CALLER = 0.35  # beating the caller's winning card
LR_RETAKE_FOR_CALLER = 1.25  # beating whoever beat the caller
LR_LOAD_AGAINST = 0.6  # an ace or three thrown onto a trick someone beat the caller to
SELF_CALL_PRIOR = 0.05  # how often a caller calls his own card, against 1 for each other seat

# The expert's reading of the plays (``ChState(view, reads=True)``): for each kind of play
# (:func:`play_kind`), how much more often the caller's partner made it than an opponent,
# counted over deals the intermediate players played out before the called card fell, one
# table for each auction (``bench/chiamata.py fit-reads``). Clamped to [READ_MIN, READ_MAX].
READ_MIN, READ_MAX = 0.02, 30.0
PLAY_READS: dict[str, tuple[float, ...]] = {}  # filled in just below


def play_kind(lead: bool, caller_before: bool, caller_winning: bool, takes: bool, points: int,
              trump: bool) -> int:
    """One of 54 kinds of play, as the expert's reading tells them apart: a lead (by its
    points, none / 2 to 4 / 10 or 11, and whether a trump), or a card following others
    (whether the caller has played to the trick, whether the caller's card is winning it,
    whether this card beats the best so far, its points and whether a trump)."""
    pc = 0 if points == 0 else (1 if points < 10 else 2)
    if lead:
        return pc * 2 + int(trump)
    return 6 + (((int(caller_before) * 2 + int(caller_winning)) * 2 + int(takes)) * 3
                + pc) * 2 + int(trump)


N_KINDS, N_FINE_KINDS = 54, 216


def fine_kind(kind: int, last: bool, big_table: bool) -> int:
    """One of 216 finer kinds: a :func:`play_kind` split by whether the seat plays last to
    the trick and whether 10 card points or more lie on the table before its card."""
    return kind + N_KINDS * (int(last) * 2 + int(big_table))


# Fitted by ``bench/chiamata.py fit-reads --deals 3000`` (see :func:`play_kind` for the order).
PLAY_READS["rank"] = (
    1.139, 1.046, 0.394, 0.676, 1.921, 0.544, 1.162, 3.992, 0.841,
    0.754, 0.776, 1, 0.978, 0.838, 1.653, 0.383, 2.372, 0.481,
    1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 3.954, 4.833, 0.335, 1, 0.002, 1,
    1.23, 4.066, 1.183, 2.267, 0.34, 2.579, 0.467, 0.822, 2.399,
    2.356, 5.923, 1, 1.543, 1.023, 0.11, 1.135, 0.036, 0.871,
)
PLAY_READS["points"] = (
    0.45, 1.052, 0.48, 0.345, 33.766, 0.88, 0.53, 0.759, 0.408,
    1, 2.021, 1, 0.637, 0.485, 1.001, 0.162, 14.365, 1.458,
    1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 0.794, 0.344, 0.041, 1, 0.003, 1,
    0.954, 9.007, 2.034, 5.721, 0.457, 8.778, 0.439, 0.06, 4.042,
    1, 8.149, 1, 1.578, 0.147, 0.036, 0.59, 0.08, 2.121,
)

# The finer reading (``ChState(view, reads="fine")``): each kind split by :func:`fine_kind`,
# 216 ratios an auction. Screened and not kept, so none ship: ``bench/chiamata.py`` fits
# them (``fit-reads --fine``) for its ``expert-fine``.
PLAY_READS_FINE: dict[str, tuple[float, ...]] = {}


def rank_word(rank: str, rules: Rules) -> str:
    if rank == "H":
        return "queen" if rules.deck != "italian" else "horse"
    return _RANK_WORDS[rank]


def suit_name(suit: int, rules: Rules) -> str:
    return (_FRENCH_SUITS if rules.deck != "italian" else _ITALIAN_SUITS)[suit]


class ChState:
    """One decision of a Chiamata deal, from a view. See the module docstring."""

    __slots__ = ("view", "rules", "t", "n", "me", "pts", "strength", "order_chars", "phase",
                 "caller", "called", "carichi", "target", "trump", "beats", "hand",
                 "hand_mask", "played", "history", "trick", "trick_seats", "trick_cards",
                 "leader", "order", "pos", "sizes", "partner", "revealed", "unseen_mask",
                 "voids", "fixed", "belief", "pcs", "q", "on_caller_side", "best",
                 "best_seat", "table_pts", "after", "tricks_done", "deck_mask", "forced",
                 "reads")

    def __init__(self, view: View, reads: bool | str = False) -> None:
        """``reads``: weigh the evidence of each play by :data:`PLAY_READS` (the expert)
        instead of the rule-of-thumb ratios (the intermediate)."""
        rules = view.rules
        t = rules.tables
        ch = view.chiamata or {}
        self.view = view
        self.rules = rules
        self.t = t
        self.n = n = view.players
        self.me = me = view.seat
        self.pts = t.points
        self.strength = t.strength
        self.order_chars = t.order
        self.phase = view.phase
        self.deck_mask = t.deck_mask
        self.caller = ch.get("caller")
        called = ch.get("called_card")
        self.called = int(Card.parse(called)) if called else -1
        self.carichi = bool(ch.get("carichi"))
        self.target = ch.get("target") or 0
        self.trump = view.trump_suit
        self.beats = t.beats(self.trump)
        self.hand = [int(c) for c in view.hand]
        self.hand_mask = hm = mask_of(self.hand)
        self.history = [(tuple(o), [int(c) for c in cards], w, p)
                        for o, cards, w, p in view.tricks]
        self.tricks_done = len(self.history)
        self.trick_seats = [s for s, _c in view.trick]
        self.trick_cards = [int(c) for _s, c in view.trick]
        self.trick = list(zip(self.trick_seats, self.trick_cards))
        self.leader = view.leader
        self.order = t.rot[self.leader]
        self.pos = len(self.trick)
        self.sizes = list(view.hand_sizes)
        played = 0
        for _o, cards, _w, _p in self.history:
            for c in cards:
                played |= 1 << c
        for c in self.trick_cards:
            played |= 1 << c
        self.played = played
        self.unseen_mask = t.deck_mask & ~hm & ~played
        # The partner: the engine tells the holder, and everyone once the card is played.
        partner = ch.get("partner")
        if self.called >= 0 and hm >> self.called & 1:
            partner = me
        self.partner = partner
        self.revealed = bool(ch.get("partner_revealed"))
        a = rules.auction
        # The finer table where one was fitted (none ships), the 54 kinds otherwise.
        self.reads = (PLAY_READS_FINE.get(a) or PLAY_READS.get(a) if reads == "fine" else
                      PLAY_READS.get(a) if reads else None)
        self._constraints()
        self._trick_state()
        self._belief()

    # ---- what the plays imply about the hands ------------------------------------------------
    def _constraints(self) -> None:
        n = self.n
        voids = [0] * n  # per seat, a bit per suit it cannot hold
        fixed = [0] * n  # per seat, cards it must hold
        if self.carichi:
            for order, cards, _w, _p in self.history + [(self.order, self.trick_cards, 0, 0)]:
                if not cards:
                    continue
                led = cards[0] // N_RANKS
                for s, c in zip(order, cards):
                    if c // N_RANKS != led:
                        voids[s] |= 1 << led
        self.forced = False
        if self.called >= 0 and self.caller is not None and self.rules.auction == "rank":
            weakest = self.order_chars[-1]
            rank = CARDS[self.called].rank
            high = (self.view.chiamata or {}).get("high") or {}
            bid = high.get("bid", "pass")
            bid_rank = weakest if Action.parse(bid) >= BID_POINTS else bid[4:]
            if bid_rank == weakest and rank != weakest:
                # A forced call: the caller holds the 2 and every rank below the called one.
                self.forced = True
                suit = self.called // N_RANKS
                for r in reversed(self.order_chars):
                    if r == rank:
                        break
                    c = RANK_INDEX[r] + suit * N_RANKS
                    if not self.played >> c & 1:
                        fixed[self.caller] |= 1 << c
        fixed[self.me] = 0
        self.voids = voids
        self.fixed = fixed

    def _trick_state(self) -> None:
        best, best_seat, tp = -1, -1, 0
        beats = self.beats
        pts = self.pts
        for s, c in self.trick:
            tp += pts[c]
            if best < 0 or beats[(best << 6) | c]:
                best, best_seat = c, s
        self.best, self.best_seat, self.table_pts = best, best_seat, tp
        self.after = list(self.order[self.pos + 1:])

    # ---- the belief about the partner -----------------------------------------------------------
    def _belief(self) -> None:
        """``belief[s]``: the chance that seat ``s`` holds the called card (the caller's partner;
        the caller himself for a self-call). ``pcs[s]``: chance that ``s`` is on the caller's
        side. ``q[s]``: chance that ``s`` is on my side."""
        n, me, caller = self.n, self.me, self.caller
        belief = [0.0] * n
        if caller is None or self.phase in ("auction", "call"):
            self.belief = belief
            self.pcs = [0.0] * n
            self.q = [1.0 if s == me else 0.0 for s in range(n)]
            self.on_caller_side = False
            return
        if self.carichi:
            belief[caller] = 1.0
        elif self.partner is not None:
            belief[self.partner] = 1.0
        else:
            w = [0.0] * n
            for s in range(n):
                if s == me:
                    continue
                if s == caller:
                    # Only an opponent can wonder whether the caller called his own card.
                    w[s] = SELF_CALL_PRIOR if me != caller else 0.0
                else:
                    w[s] = 1.0
            if self.called >= 0 and self.fixed[caller] >> self.called & 1:
                w = [1.0 if s == caller else 0.0 for s in range(n)]
            if self.reads is not None:
                self._read_plays(w, self.reads)
            else:
                self._evidence(w)
            total = sum(w) or 1.0
            belief = [x / total for x in w]
        self.belief = belief
        pcs = [0.0] * n
        for s in range(n):
            pcs[s] = 1.0 if s == caller else belief[s]
        self.pcs = pcs
        mine = me == caller or belief[me] == 1.0
        self.on_caller_side = mine
        self.q = [1.0 if s == me else (pcs[s] if mine else 1.0 - pcs[s]) for s in range(n)]

    def _evidence(self, w: list[float]) -> None:
        caller = self.caller
        beats = self.beats
        pts = self.pts
        for order, cards, _w, _p in self.history + [(self.order, self.trick_cards, 0, 0)]:
            best, owner = -1, -1
            caller_played = False
            for s, c in zip(order, cards):
                if best < 0:
                    best, owner = c, s
                    caller_played = s == caller
                    continue
                takes = beats[(best << 6) | c]
                if s != caller and w[s] > 0 and caller_played:
                    if owner == caller:
                        if takes:
                            w[s] *= LR_TAKE_FROM_CALLER
                        elif pts[c] >= 10:
                            w[s] *= LR_LOAD_BIG
                        elif pts[c] > 0:
                            w[s] *= LR_LOAD_SMALL
                        else:
                            w[s] *= LR_LOAD_NONE
                    elif takes:
                        w[s] *= LR_RETAKE_FOR_CALLER
                    elif pts[c] >= 10:
                        w[s] *= LR_LOAD_AGAINST
                if s == caller:
                    caller_played = True
                if takes:
                    best, owner = c, s

    def _read_plays(self, w: list[float], table: tuple[float, ...]) -> None:
        """Every play of a seat other than the caller (the called card aside) multiplies
        that seat's weight by its kind's ratio in ``table``."""
        caller = self.caller
        beats = self.beats
        pts = self.pts
        trump = self.trump
        called = self.called
        lo, hi = READ_MIN, READ_MAX
        fine = len(table) == N_FINE_KINDS
        last_pos = self.n - 1
        for order, cards, _w, _p in self.history + [(self.order, self.trick_cards, 0, 0)]:
            best, owner = -1, -1
            caller_before = False
            on_table = 0
            for i, (s, c) in enumerate(zip(order, cards)):
                takes = best < 0 or beats[(best << 6) | c]
                if s != caller and w[s] > 0 and c != called:
                    k = play_kind(best < 0, caller_before, owner == caller, takes, pts[c],
                                  trump is not None and c // N_RANKS == trump)
                    if fine:
                        k = fine_kind(k, i == last_pos, on_table >= 10)
                    w[s] *= min(hi, max(lo, table[k]))
                if s == caller:
                    caller_before = True
                if takes:
                    best, owner = c, s
                on_table += pts[c]

    # ---- helpers -----------------------------------------------------------------------------
    def is_trump(self, c: int) -> bool:
        return self.trump is not None and c // N_RANKS == self.trump

    def would_win(self, c: int) -> bool:
        return self.best < 0 or self.beats[(self.best << 6) | c]

    def legal_plays(self) -> list[int]:
        return [int(a) for a in self.view.legal if a < 52]

    def slots(self) -> list[int]:
        """Unknown cards per seat (its hand size less the cards it must hold)."""
        out = []
        for s in range(self.n):
            if s == self.me:
                out.append(0)
            else:
                out.append(self.sizes[s] - popcount(self.fixed[s] & self.unseen_mask))
        return out

    def p_holds_any(self, seat: int, mask: int) -> float:
        """Chance that ``seat`` holds at least one card of ``mask`` (counting the cards out)."""
        if seat == self.me:
            return 1.0 if self.hand_mask & mask else 0.0
        if self.fixed[seat] & mask:
            return 1.0
        if self.called >= 0 and mask >> self.called & 1 and self.unseen_mask >> self.called & 1:
            pb = self.belief[seat]
            if pb >= 1.0:
                return 1.0
            rest = mask & ~(1 << self.called)
            return pb + (1.0 - pb) * self._p_any(seat, rest)
        return self._p_any(seat, mask)

    def _p_any(self, seat: int, mask: int) -> float:
        allowed = self.unseen_mask
        for s in range(self.n):
            if s != seat:
                allowed &= ~self.fixed[s]
        v = self.voids[seat]
        if v:
            for su in range(4):
                if v >> su & 1:
                    mask &= ~SUIT_MASKS[su]
        return chance_of_any(popcount(allowed & ~self.fixed[seat]), popcount(mask & allowed),
                             self.sizes[seat] - popcount(self.fixed[seat] & self.unseen_mask))

    def beaters(self, c: int) -> int:
        """Cards still out (not mine) that would beat ``c`` as the best card of the trick."""
        beats = self.beats
        m = 0
        for x in bits(self.unseen_mask):
            if beats[(c << 6) | x]:
                m |= 1 << x
        return m

    def name(self, c: int) -> str:
        return card_name(c, self.rules)

    def target_bid(self) -> int:
        high = (self.view.chiamata or {}).get("high")
        if not high:
            return 0
        a = Action.parse(high["bid"])
        return a - BID_POINTS if a >= BID_POINTS else 0

    def points_of(self, side: list[bool]) -> int:
        """Card points already taken by the seats marked in ``side``."""
        pts = self.view.points
        return sum(pts[s] for s in range(self.n) if side[s])
