"""Briscola Chiamata (five players): the auction, the call, the secret partner, the score.

docs/rules.md §12. The deal gives 8 cards to each of the five players and leaves no talon.

*Auction by rank* (default): from the seat after the dealer, each player passes (for good)
or names a rank weaker than the last one named (A 3 K H J 7 6 5 4 2). Once the 2 has been
named, bids are "2 and N points", N from 62 upward (``raise_after_two``; off, the first 2
ends the auction and 60 is enough). Four passes end it. If four pass before
anyone has bid, the fifth must bid (there is no passing the deal out). The winner names the
suit: the called card is the bid rank of that suit, and the suit is trump. Holding that 2,
the winner may instead call (``forced_call``) the lowest rank he lacks in the suit; it
counts as a call of the 2.

*Auction by points*: bids of at least 61, each higher; the winner calls any card.

*A carichi*: a bid that ends the auction at once; the bidder plays alone, without trump,
and everyone must follow the suit led when able. He needs 61.

The holder of the called card is the caller's secret partner (the caller himself if he
called his own card: one against four). ``view`` reveals the partner to nobody but the
holder until the called card is played.

*Scoring* (:func:`game_points`): 2 / 1 / -1 each (alone 4 / -1 each), negated when the
caller's side falls short, times the multiplier of a point raise (:func:`multiplier`), plus
the cappotto bonus when the caller's side took every card point.
"""
from __future__ import annotations

from typing import Any, Protocol

from .actions import BID_POINTS, BID_RANK, CALL_CARD, CALL_SUIT, CARICHI, PASS, action_text
from .cards import CARDS, N_CARDS, N_RANKS, RANK_INDEX, SUITS
from .outcome import Outcome
from .rules import Rules


class Game(Protocol):
    """What this module reads of the deal it belongs to (:class:`briscola.game.Game`).

    The game imports this module and calls its hooks; this module never imports the game.
    """

    rules: Rules
    n: int
    phase: int  # 1 auction, 2 call, 3 play, 4 over
    hands: list[list[int]]
    initial_hands: tuple[tuple[int, ...], ...]
    trick: list[int]
    history: list[tuple[tuple[int, ...], list[int], int, int]]
    points: list[int]
    auction: "Auction | None"

    def begin_play(self, trump: int | None, leader: int) -> None:
        """The call is made: set the trump suit and let ``leader`` lead the first trick."""


class Auction:
    """The state of the auction and of the call. Lives on the game as ``game.auction``."""

    __slots__ = ("rules", "first", "turn", "passed", "bids", "high", "high_seat", "caller",
                 "called", "carichi", "target", "point_raise", "done")

    def __init__(self, rules: "Rules", first: int) -> None:
        self.rules = rules
        self.first = first
        self.turn = first
        self.passed = [False] * rules.players
        self.bids: list[tuple[int, int]] = []  # (seat, action) in order, passes included
        self.high: int | None = None  # the highest bid so far (an action number)
        self.high_seat: int | None = None
        self.caller: int | None = None
        self.called: int = -1
        self.carichi = False
        self.target = 0
        self.point_raise = False
        self.done = False  # the call is made: play has begun

    def clone(self) -> "Auction":
        a = object.__new__(Auction)
        for name in Auction.__slots__:
            setattr(a, name, getattr(self, name))
        a.passed = self.passed[:]
        a.bids = self.bids[:]
        return a

    # ---- legal actions ---------------------------------------------------------------------
    def legal(self, game: "Game") -> list[int]:
        if game.phase == 1:
            return self._legal_bids()
        return self._legal_calls(game)

    def _legal_bids(self) -> list[int]:
        rules = self.rules
        acts: list[int] = []
        active = self.passed.count(False)
        if not (active == 1 and self.high is None):
            acts.append(PASS)
        high = self.high
        if rules.auction == "rank":
            order = rules.tables.order  # strongest first
            if high is None:
                acts.extend(BID_RANK + RANK_INDEX[r] for r in order)
            elif high < BID_POINTS:
                rank = action_text(high)[-1]
                if rank == order[-1]:  # only when the raise after the 2 is on (see _bid)
                    acts.extend(range(BID_POINTS + 62, BID_POINTS + 121))
                else:
                    acts.extend(BID_RANK + RANK_INDEX[r] for r in order[order.index(rank) + 1:])
            else:
                acts.extend(range(high + 1, BID_POINTS + 121))
        else:
            low = BID_POINTS + 61 if high is None else high + 1
            acts.extend(range(low, BID_POINTS + 121))
        if rules.carichi:
            acts.append(CARICHI)
        return acts

    def _legal_calls(self, game: "Game") -> list[int]:
        rules = self.rules
        deck = rules.tables.deck
        if rules.auction == "points":
            return [CALL_CARD + c for c in deck]
        rank = self.bid_rank()
        acts = [CALL_SUIT + s for s in range(4)]
        weakest = rules.tables.order[-1]
        if rank == weakest and rules.forced_call:
            assert self.high_seat is not None  # the auction is won
            hand = set(game.hands[self.high_seat])
            for s in range(4):
                if RANK_INDEX[weakest] + s * N_RANKS in hand:
                    for r in reversed(rules.tables.order):
                        c = RANK_INDEX[r] + s * N_RANKS
                        if c not in hand:
                            acts.append(CALL_CARD + c)
                            break
        return acts

    def bid_rank(self) -> str:
        """The rank the winner of a rank auction calls (the weakest rank after a point raise)."""
        assert self.high is not None
        if self.high >= BID_POINTS:
            return self.rules.tables.order[-1]
        return action_text(self.high)[-1]

    # ---- applying ------------------------------------------------------------------------------
    def apply(self, game: "Game", a: int) -> None:
        if game.phase == 1:
            self._bid(game, a)
        else:
            self._call(game, a)

    def _bid(self, game: "Game", a: int) -> None:
        seat = self.turn
        self.bids.append((seat, a))
        if a == CARICHI:
            self.caller = seat
            self.carichi = True
            self.high, self.high_seat = a, seat
            self.target = 61
            self._start_play(game, None)
            return
        if a == PASS:
            self.passed[seat] = True
        else:
            self.high, self.high_seat = a, seat
            if self.rules.auction == "rank" and a >= BID_POINTS:
                self.point_raise = True
        active = [s for s in range(game.n) if not self.passed[s]]
        # Without the raise after the 2 (raise_after_two off), nothing goes lower: the 2 wins.
        two_ends = (self.rules.auction == "rank" and not self.rules.raise_after_two
                    and a == BID_RANK + RANK_INDEX[self.rules.tables.order[-1]])
        if two_ends or (len(active) == 1 and self.high is not None
                        and active[0] == self.high_seat):
            winner = self.high_seat
            assert winner is not None  # set with self.high
            self.caller = winner
            self.turn = winner
            game.phase = 2
            return
        n = game.n
        nxt = (seat + 1) % n
        while self.passed[nxt]:
            nxt = (nxt + 1) % n
        self.turn = nxt

    def _call(self, game: "Game", a: int) -> None:
        if CALL_SUIT <= a < CALL_SUIT + 4:
            suit = a - CALL_SUIT
            card = RANK_INDEX[self.bid_rank()] + suit * N_RANKS
        else:
            card = a - CALL_CARD
        self.called = card
        assert self.high is not None  # the auction is won
        if self.rules.auction == "points":
            self.target = self.high - BID_POINTS
        else:
            self.target = self.high - BID_POINTS if self.point_raise else 60
        self._start_play(game, card // N_RANKS)

    def _start_play(self, game: "Game", trump: int | None) -> None:
        game.begin_play(trump, self.first)
        self.done = True

    # ---- sides -------------------------------------------------------------------------------------
    def partner(self, game: "Game") -> int | None:
        """The holder of the called card (the true state; views hide it)."""
        if self.called < 0:
            return None
        for s, hand in enumerate(game.initial_hands):
            if self.called in hand:
                return s
        return None  # pragma: no cover

    def revealed(self, game: "Game") -> bool:
        """Has the called card been played (so everyone knows the partner)?"""
        if self.called < 0:
            return self.carichi
        called = self.called
        if called in game.trick:
            return True
        return any(called in cards for _o, cards, _w, _p in game.history)


# ---- hooks called by Game ------------------------------------------------------------------------

def _auction(game: "Game") -> Auction:
    """The game's auction: every hook below is called only in a deal of Chiamata."""
    auction = game.auction
    assert auction is not None, "not a deal of Briscola Chiamata"
    return auction


def apply(game: "Game", a: int) -> None:
    _auction(game).apply(game, a)


def follow_suit(game: "Game", hand: list[int]) -> list[int]:
    """A carichi: the suit led must be followed when possible."""
    if not game.trick:
        return hand[:]
    suit = game.trick[0] // N_RANKS
    same = [c for c in hand if c // N_RANKS == suit]
    return same if same else hand[:]


def sides(game: "Game") -> tuple[tuple[int, ...], ...]:
    auction = _auction(game)
    if auction.caller is None or not auction.done:
        return tuple((s,) for s in range(game.n))
    caller = auction.caller
    partner = auction.partner(game)
    team = (caller,) if partner is None or partner == caller else tuple(sorted((caller, partner)))
    return (team, tuple(s for s in range(game.n) if s not in team))


def side_of(game: "Game", seat: int) -> int:
    for i, side in enumerate(sides(game)):
        if seat in side:
            return i
    return -1  # pragma: no cover


def multiplier(rules: "Rules", target: int) -> int:
    """The factor on the game points of a deal played for ``target`` card points.

    By rank, a point raise above 70 doubles and above 80 triples (``multipliers``, on); by
    points, the same thresholds only with ``points_multipliers`` (off: a flat score).
    Edition 1 applied ``multipliers`` to both auctions.
    """
    if rules.auction == "points" and rules.edition >= 2:
        on = rules.points_multipliers
    else:
        on = rules.multipliers
    if not on:
        return 1
    return 3 if target > 80 else 2 if target > 70 else 1


def game_points(rules: "Rules", target: int, alone: bool, made: bool,
                cappotto: bool) -> tuple[int, int, int]:
    """Game points of (the caller, his partner, each opponent) for one deal.

    ``cappotto``: the caller's side took every card point (edition 1: either side did).
    The cappotto bonus (+2 / +1 / -1 each; alone +4 / -1 each) is added after the
    multiplier; edition 1 doubled the whole score instead.
    """
    caller, partner, opp = (4, 0, 1) if alone else (2, 1, 1)
    mult = multiplier(rules, target)
    sign = 1 if made else -1
    if rules.edition < 2:
        k = 2 if cappotto else 1
        return sign * caller * k * mult, sign * partner * k * mult, -sign * opp * k * mult
    bonus = 1 if cappotto and made else 0
    return ((sign * mult + bonus) * caller, (sign * mult + bonus) * partner,
            -(sign * mult + bonus) * opp)


def outcome(game: "Game") -> Outcome:
    auction = _auction(game)
    rules = game.rules
    team, others = sides(game)
    points = tuple(game.points)
    team_points = sum(points[s] for s in team)
    other_points = sum(points[s] for s in others)
    made = team_points >= auction.target
    alone = len(team) == 1
    total = rules.tables.total_points
    if rules.edition < 2:
        cappotto = team_points == total or other_points == total
    else:  # only the caller's side taking all 120 is a cappotto
        cappotto = team_points == total
    caller_gp, partner_gp, opp_gp = game_points(rules, auction.target, alone, made, cappotto)
    gp = [0] * game.n
    for s in range(game.n):
        if s == auction.caller:
            gp[s] = caller_gp
        elif s in team:
            gp[s] = partner_gp
        else:
            gp[s] = opp_gp
    assert sum(gp) == 0, gp
    return Outcome(points, (team, others), (team_points, other_points),
                   (0,) if made else (1,), False, tuple(gp), auction.target, cappotto,
                   multiplier(rules, auction.target))


def events_for_action(game: "Game", seat: int, a: int) -> list[dict]:
    """Log entries for an auction or call action (``game`` is the state after it)."""
    auction = _auction(game)
    out: list[dict] = []
    if a == PASS:
        out.append({"type": "pass", "seat": seat})
    elif a == CARICHI:
        out.append({"type": "carichi", "seat": seat})
    elif BID_RANK <= a < BID_RANK + N_RANKS or BID_POINTS <= a <= BID_POINTS + 120:
        out.append({"type": "bid", "seat": seat, "bid": action_text(a)})
    elif CALL_SUIT <= a < CALL_SUIT + 4 or CALL_CARD <= a < CALL_CARD + N_CARDS:
        out.append({"type": "call", "seat": seat, "card": str(CARDS[auction.called]),
                    "trump": SUITS[auction.called // N_RANKS], "target": auction.target})
    if game.phase == 2 and a != CARICHI and (not out or out[-1]["type"] != "call"):
        assert auction.high is not None  # the auction is won
        out.append({"type": "auction_won", "seat": auction.caller,
                    "bid": action_text(auction.high)})
    return out


def play_events(game: "Game", seat: int, card: int) -> list[dict]:
    """The partner is revealed the moment the called card falls."""
    auction = game.auction
    if auction is not None and card == auction.called:
        return [{"type": "partner", "seat": seat, "card": str(CARDS[card])}]
    return []


def known_to(game: "Game", seat: int, other: int) -> set[int]:
    return set()


def public_sides(game: "Game", seat: int) -> tuple[tuple, list[int], list[int]]:
    """The sides as ``seat`` knows them: (sides, side of each seat or -1, side points)."""
    auction = _auction(game)
    n = game.n
    if not auction.done:
        return (), [-1] * n, []
    true_sides = sides(game)
    partner = auction.partner(game)
    if auction.carichi or auction.revealed(game) or seat == partner:
        side_of_seat = [0 if s in true_sides[0] else 1 for s in range(n)]
        side_points = [sum(game.points[s] for s in side) for side in true_sides]
        return true_sides, side_of_seat, side_points
    side_of_seat = [-1] * n
    assert auction.caller is not None  # the call is made
    side_of_seat[auction.caller] = 0
    if seat != auction.caller:
        side_of_seat[seat] = 1  # not holding the called card: an opponent
    team = tuple(s for s in range(n) if side_of_seat[s] == 0)
    others = tuple(s for s in range(n) if side_of_seat[s] == 1)
    return (team, others), side_of_seat, []


def view_info(game: "Game", seat: int) -> dict[str, Any]:
    auction = _auction(game)
    partner = auction.partner(game)
    known_partner = None
    if auction.done and (auction.revealed(game) or seat == partner):
        known_partner = partner
    return {
        "auction": game.rules.auction,
        "bids": [{"seat": s, "bid": action_text(a)} for s, a in auction.bids],
        "passed": list(auction.passed),
        "high": None if auction.high is None else {"seat": auction.high_seat,
                                                   "bid": action_text(auction.high)},
        "caller": auction.caller,
        "called_card": None if auction.called < 0 else str(CARDS[auction.called]),
        "carichi": auction.carichi,
        "target": auction.target if auction.done else None,
        "partner": known_partner,
        "partner_revealed": auction.done and auction.revealed(game),
    }
