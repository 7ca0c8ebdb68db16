"""One deal of Briscola: the state, its legal actions, and what each seat may see.

The state contract follows the usual shape of game engines: ``current_player``,
``legal_actions()`` (deterministic order), ``apply(action)`` (checked: an illegal or
out-of-turn action raises :class:`IllegalActionError` and changes nothing), ``is_over`` and
``outcome()``. ``apply_fast`` is the unchecked path for search and simulation.

Hidden information has one owner, :mod:`briscola.view`: :meth:`Game.view` asks it for
everything a seat may know. The event log (every card played, every draw) is kept as the
deal goes on by the checked ``apply`` once anyone has read it; the unchecked hot path records
nothing but the actions and the completed tricks, and a game moved on that way catches its
log up when next asked.
"""
from __future__ import annotations

import json
import random
from bisect import insort
from enum import IntEnum
from typing import Any, Iterable, Sequence

from . import chiamata as _ch
from .actions import ACTIONS, SIGNAL, SIGNAL_LOADED, SWAP, Action, action_text
from .cards import CARDS, CODES, N_CARDS, N_RANKS, RANK_INDEX, SUITS, Card, CardError, parse_cards
from .bounds import load_json
from .errors import IllegalActionError, RulesError, SaveError, quote
from .outcome import Outcome
from .rules import Rules, find_variant

from .view import View, build_view

SAVE_FORMAT = "briscola/game"
SAVE_VERSION = 1


class Phase(IntEnum):
    AUCTION = 1
    CALL = 2
    PLAY = 3
    OVER = 4

    def __str__(self) -> str:
        return self.name.lower()


_AUCTION, _CALL, _PLAY, _OVER = 1, 2, 3, 4
_PHASE_NAMES = ("", "auction", "call", "play", "over")  # by phase number (none is 0)
_ALONE = [tuple((s,) for s in range(n)) for n in range(9)]  # every seat a side of its own


def saved_rules(data: Any) -> Any:
    """The rules of a save: one without an edition was written under edition 1.

    Saves record ``Rules.edition``; those written before the rule book's corrections (edition 2,
    docs/rules.md §14) have none, and resume with the behaviour they were started with.
    """
    if isinstance(data, dict) and "edition" not in data:
        return {**data, "edition": 1}
    return data


def trick_winner(cards: Sequence[int], trump_suit: int | None, rules: Rules) -> int:
    """Index (in play order) of the card that takes the trick."""
    strength = rules.tables.strength
    best = 0
    b = cards[0]
    bs = b // N_RANKS
    for i in range(1, len(cards)):
        c = cards[i]
        cs = c // N_RANKS
        if cs == bs:
            if strength[c] > strength[b]:
                best, b = i, c
        elif cs == trump_suit:
            best, b, bs = i, c, cs
    return best


def check_seed(seed: Any) -> int | str:
    """``seed`` if it can seed a deal: a whole number, or text that UTF-8 can write (a lone
    surrogate cannot: ``random`` would raise ``UnicodeEncodeError``); else :class:`RulesError`."""
    if not isinstance(seed, (int, str)) or isinstance(seed, bool):
        raise RulesError(f"seed: expected a whole number or text, got {quote(seed)}")
    if isinstance(seed, str):
        try:
            seed.encode("utf-8")
        except UnicodeEncodeError:
            raise RulesError("seed: the text holds a character that is not one (a lone "
                             "surrogate)") from None
    return seed


class Game:
    """A deal in progress. Create with :meth:`new` (seeded) or :meth:`from_deck`."""

    __slots__ = (
        "rules", "n", "dealer", "seed", "deck", "hands", "talon", "trump", "faceup",
        "trick", "order", "points", "history", "actions", "phase",
        "public_known", "reburied", "sig_last", "initial_hands", "turned", "_orders", "_rot",
        "_per_round", "_double", "_special", "_strength", "_beats", "_points", "_side_of", "auction",
        "_log", "_logged", "_drawn", "_replay", "_view_cache",
    )

    rules: Rules
    n: int
    dealer: int
    seed: int | str | None
    deck: tuple[int, ...]
    hands: list[list[int]]
    talon: list[int]
    trump: int | None
    faceup: int
    trick: list[int]
    order: tuple[int, ...]
    points: list[int]
    history: list[tuple[tuple[int, ...], list[int], int, int]]
    actions: list[int]
    phase: int
    public_known: list[tuple[int, int]]
    reburied: list[int]
    sig_last: list[int]
    initial_hands: tuple[tuple[int, ...], ...]
    turned: int
    _orders: tuple[tuple[int, ...], ...]
    _rot: tuple[tuple[int, ...], ...]
    _per_round: int
    _double: bool
    _special: bool
    _strength: list[int]
    _beats: list[bool]  # empty until the trump is known (Chiamata's auction)
    _points: list[int]
    _side_of: tuple[int, ...]
    auction: _ch.Auction | None  # Chiamata only
    _log: list[dict[str, Any]] | None
    _logged: int
    _drawn: dict[int, int] | None
    _replay: Game | None
    _view_cache: Any  # briscola.view's own

    # ---- construction ---------------------------------------------------------------------
    def __init__(self, rules: Rules, deck: Sequence[int | str], dealer: int = 0,
                 seed: int | str | None = None) -> None:
        """A deal from an explicit deck order (first card dealt first). Checks everything."""
        if not isinstance(rules, Rules):
            raise RulesError(f"rules: expected a Rules value, got {rules!r}")
        tables = rules.tables
        n = rules.players
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < n:
            raise RulesError(f"dealer: must be a seat from 0 to {n - 1}")
        cards = [c if isinstance(c, Card) else (
                     CARDS[c] if isinstance(c, int) and not isinstance(c, bool) and 0 <= c < N_CARDS
                     else Card.parse(c))
                 for c in deck]
        mask = 0
        for c in cards:
            mask |= 1 << c
        if mask != tables.deck_mask or len(cards) != len(tables.deck):
            raise CardError(
                f"the deck must hold each of the {len(tables.deck)} cards of this variant once"
            )
        self._setup(rules, tuple(map(int, cards)), dealer, seed)

    @classmethod
    def _deal(cls, rules: Rules, deck: Sequence[int], dealer: int,
              seed: int | str | None = None) -> "Game":
        """Unchecked constructor for simulations: ``deck`` must be a permutation of the deck."""
        g = object.__new__(cls)
        g._setup(rules, tuple(deck), dealer, seed)
        return g

    def _setup(self, rules: Rules, deck: tuple, dealer: int, seed: int | str | None) -> None:
        tables = rules.tables
        n = rules.players
        self.rules = rules
        self.n = n
        self.dealer = dealer
        self.seed = seed
        self.deck = deck
        self._strength = tables.strength
        self._points = tables.points
        self._side_of = tables.side_of
        self._double = rules.double
        self._rot = tables.rot
        self._orders = tables.orders
        self._per_round = tables.per_round
        self._special = (rules.exchange_two or rules.exchange_seven or rules.exchange_brisca
                         or rules.signals or rules.mode == "chiamata")
        self._log = None  # the event log, made on first use (see _event_log)
        self._logged = 0
        self._drawn = None
        self._replay = None
        self._view_cache = None
        h = rules.hand_size
        dealt = n * h
        first = (dealer + 1) % n
        # Cards are dealt one at a time starting with the seat after the dealer.
        hands = [sorted(deck[(s - first) % n:dealt:n]) for s in range(n)]
        self.hands = hands
        self.initial_hands = tuple(map(tuple, hands))
        self.reburied = []
        self.trick = []
        self.points = [0] * n
        self.history = []
        self.actions = []
        self.public_known = []  # (card, seat): known to everyone
        self.sig_last = [-1] * n
        self.order = self._orders[first]
        if rules.mode == "chiamata":
            self.talon = []
            self.trump = None
            self._beats = []  # no trump before the call: begin_play makes the table
            self.faceup = -1
            self.turned = -1
            self.phase = _AUCTION
            self.auction = _ch.Auction(rules, first)
            return
        self.auction = None
        if rules.ranking == "bisca" or rules.rebury:
            stock = list(deck[dealt:])  # face down, top first
            from_bottom = rules.ranking == "bisca"
            turned = stock.pop() if from_bottom else stock.pop(0)
            if rules.rebury:
                top_two = tables.rebury_ranks
                for _ in range(len(stock)):
                    if CARDS[turned].rank not in top_two:
                        break
                    self.reburied.append(turned)
                    # Into the middle of the face-down talon (once the next card is turned).
                    stock.insert((len(stock) + 1) // 2, turned)
                    turned = stock.pop() if from_bottom else stock.pop(0)
            stock.reverse()
            self.talon = [turned] + stock  # talon[-1] is drawn next; talon[0] is face up
        else:
            turned = deck[dealt]
            talon = list(deck[:dealt:-1])
            talon.insert(0, turned)
            self.talon = talon
        self.trump = turned // N_RANKS
        self._beats = tables.beats(self.trump)
        self.faceup = turned
        self.turned = turned
        self.phase = _PLAY

    @classmethod
    def new(cls, rules: Rules | str = "classic", seed: int | str | None = None,
            dealer: int | None = None) -> "Game":
        """A shuffled deal. The same (rules, seed) always deals the same cards."""
        if isinstance(rules, str):
            rules = find_variant(rules)
        if seed is None:
            seed = random.SystemRandom().randrange(2**53)
        rng = random.Random(check_seed(seed))
        deck = list(rules.tables.deck_ints)
        rng.shuffle(deck)
        if dealer is None:
            dealer = rng.randrange(rules.players)
        elif not isinstance(dealer, int) or isinstance(dealer, bool) \
                or not 0 <= dealer < rules.players:
            raise RulesError(f"dealer: must be a seat from 0 to {rules.players - 1}")
        return cls._deal(rules, deck, dealer, seed)

    @classmethod
    def from_deck(cls, rules: Rules | str, deck: str | Iterable[str | int],
                  dealer: int = 0) -> "Game":
        """A deal with an explicit deck order (first card dealt first), for tests and shares."""
        if isinstance(rules, str):
            rules = find_variant(rules)
        cards = parse_cards(deck) if isinstance(deck, str) else list(deck)
        return cls(rules, cards, dealer)

    @classmethod
    def from_hands(cls, rules: Rules | str, hands: Sequence[str], trump: str | None = None,
                   talon: str = "", dealer: int | None = None) -> "Game":
        """A deal written as compact text, for scenarios and shared positions.

        ``hands[s]`` lists seat ``s``'s cards (``"AD 3S KB"``); ``trump`` is the face-up
        card; ``talon`` the next cards to be drawn, in order. The cards not named fill the
        rest of the talon in the deck's order. The dealer defaults to the seat before 0,
        so that seat 0 leads.
        """
        if isinstance(rules, str):
            rules = find_variant(rules)
        n = rules.players
        h = rules.hand_size
        if len(hands) != n:
            raise RulesError(f"hands: expected {n} hands, got {len(hands)}")
        if dealer is None:
            dealer = n - 1
        first = (dealer + 1) % n
        parsed = [parse_cards(x) for x in hands]
        for s, cards in enumerate(parsed):
            if len(cards) != h:
                raise RulesError(f"hands: seat {s} needs {h} cards, got {len(cards)}")
        named = [c for cards in parsed for c in cards]
        turned = [Card.parse(trump)] if trump is not None else []
        draws = parse_cards(talon)
        named += turned + draws
        if len(set(named)) != len(named):
            raise CardError("a card is named twice")
        rest = [c for c in rules.tables.deck if c not in set(named)]
        # Every place of the deal is filled just below (the hands cover it).
        deck: list[Card] = [None] * (n * h)  # type: ignore[list-item]
        for s, cards in enumerate(parsed):
            for k, c in enumerate(cards):
                deck[((s - first) % n) + k * n] = c
        stock = draws + rest
        if rules.ranking == "bisca":
            deck += stock + turned
        else:
            deck += turned + stock
        return cls(rules, deck, dealer)

    def clone(self) -> "Game":
        g = object.__new__(Game)
        g.rules = self.rules
        g.n = self.n
        g.dealer = self.dealer
        g.seed = self.seed
        g.deck = self.deck
        g.turned = self.turned
        g._strength = self._strength
        g._beats = self._beats
        g._points = self._points
        g._side_of = self._side_of
        g._double = self._double
        g._rot = self._rot
        g._orders = self._orders
        g._per_round = self._per_round
        g._special = self._special
        g._log = None if self._log is None else self._log[:]
        g._logged = self._logged
        g._drawn = None if self._drawn is None else dict(self._drawn)
        g._replay = None
        g._view_cache = None
        g.hands = [h[:] for h in self.hands]
        g.initial_hands = self.initial_hands
        g.reburied = self.reburied[:]
        g.talon = self.talon[:]
        g.trump = self.trump
        g.faceup = self.faceup
        g.trick = self.trick[:]
        g.order = self.order
        g.points = self.points[:]
        g.history = self.history[:]
        g.actions = self.actions[:]
        g.phase = self.phase
        g.public_known = self.public_known[:]
        g.sig_last = self.sig_last[:]
        g.auction = self.auction.clone() if self.auction is not None else None
        return g

    # ---- state ------------------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        if self.phase == _PLAY:
            return self.order[len(self.trick)]
        if self.phase == _OVER:
            return None
        auction = self.auction
        assert auction is not None  # the auction and the call are Chiamata's
        return auction.turn

    @property
    def is_over(self) -> bool:
        return self.phase == _OVER

    @property
    def phase_name(self) -> str:
        return _PHASE_NAMES[self.phase]

    @property
    def trump_suit(self) -> str | None:
        return None if self.trump is None else SUITS[self.trump]

    @property
    def tricks_done(self) -> int:
        return len(self.history)

    @property
    def leader(self) -> int:
        return self.order[0]

    def side_points(self) -> list[int]:
        """Card points per side (per seat when everyone plays alone)."""
        return [sum(self.points[s] for s in side) for side in self.sides()]

    @property
    def side_count(self) -> int:
        return len(self.sides())

    def side_of(self, seat: int) -> int:
        if self.rules.mode == "chiamata":
            return _ch.side_of(self, seat)
        return self._side_of[seat]

    def sides(self) -> tuple[tuple[int, ...], ...]:
        if self.rules.mode == "chiamata":
            return _ch.sides(self)
        teams = self.rules.tables.teams
        return teams if teams is not None else _ALONE[self.n]

    def begin_play(self, trump: int | None, leader: int) -> None:
        """The auction's hook (:mod:`briscola.chiamata`): trump chosen, ``leader`` leads."""
        self.trump = trump
        self._beats = self.rules.tables.beats(trump)
        self.phase = _PLAY
        self.order = self._orders[leader]

    # ---- legal actions -------------------------------------------------------------------------
    def legal_actions_fast(self) -> list[int]:
        """Legal actions as plain ints: the hand in the order held, then any other action."""
        if not self._special:  # plain play phase: the legal actions are the hand (empty at the end)
            return self.hands[self.order[len(self.trick)]][:]
        return self._legal_general()

    def legal_actions(self) -> list[Action]:
        """Legal actions of the current player, sorted: cards (by suit, then rank) first.

        ``legal_actions_fast`` returns the same set in hand order (cards as dealt and drawn).
        """
        return [ACTIONS[a] for a in sorted(self.legal_actions_fast())]

    def _legal_general(self) -> list[int]:
        phase = self.phase
        if phase == _OVER:
            return []
        auction = self.auction
        if phase != _PLAY:
            assert auction is not None  # the auction and the call are Chiamata's
            return auction.legal(self)
        seat = self.order[len(self.trick)]
        hand = self.hands[seat]
        rules = self.rules
        if auction is not None and auction.carichi:
            return _ch.follow_suit(self, hand)
        acts = hand[:]
        if not self._special:
            return acts
        faceup = self.faceup
        trump = self.trump
        if faceup >= 0 and trump is not None:  # a face-up card is always the trump's
            strength = self._strength
            base = trump * N_RANKS
            if rules.exchange_two and self.tricks_done == 0:
                two = base + RANK_INDEX["2"]
                if two in hand and strength[faceup] > strength[two]:
                    acts.append(SWAP + two)
            if (rules.exchange_seven and len(self.talon) > self._per_round
                    and any(h[2] == seat for h in self.history)):
                seven = base + RANK_INDEX["7"]
                # The 7 takes the face-up card whatever it is (edition 1: only a stronger one).
                if seven in hand and (rules.edition >= 2 or strength[faceup] > strength[seven]):
                    acts.append(SWAP + seven)
            if rules.exchange_brisca:
                self._brisca_exchange(seat, hand, faceup, base, acts)
        if rules.signals and self.tricks_done > 0 and self.sig_last[seat] != self.tricks_done:
            acts.extend(self._signals_for(hand))
        return acts

    def _brisca_exchange(self, seat: int, hand: Sequence[int], faceup: int, base: int,
                         acts: list[int]) -> None:
        """Spanish Brisca's exchange (docs/rules.md §11.9): a seat that has won a trick may, once
        a turn and before it plays, give the 7 of trump for a face-up card stronger than the
        7, or the 2 of trump for a face-up card of the 7 or below, while the face-up card lies
        on the table."""
        last = self.actions[-1] if self.actions else -1
        if SWAP <= last < SWAP + N_CARDS or not any(h[2] == seat for h in self.history):
            return
        strength = self._strength
        seven = base + RANK_INDEX["7"]
        two = base + RANK_INDEX["2"]
        if strength[faceup] > strength[seven]:
            if seven in hand:
                acts.append(SWAP + seven)
        elif two in hand and strength[faceup] > strength[two]:
            acts.append(SWAP + two)

    def _signals_for(self, hand: Sequence[int]) -> list[int]:
        top = self.rules.tables.signal_ranks
        out = []
        trump = self.trump
        held = {CARDS[c].rank for c in hand if c // N_RANKS == trump}
        for r in top:
            if r in held:
                out.append(SIGNAL + RANK_INDEX[r])
        pts = self._points
        if any(c // N_RANKS != trump and pts[c] >= 10 for c in hand):
            out.append(SIGNAL_LOADED)
        out.sort()
        return out

    # ---- applying actions ------------------------------------------------------------------------
    def apply(self, action: "Action | str | int", seat: int | None = None) -> None:
        """Apply a legal action of the current player. Raises and changes nothing otherwise.

        ``seat``, when given, is who is acting: an action out of turn is refused.
        """
        a: int = Action.parse(action)
        if self.phase == _OVER:
            raise IllegalActionError(f"{action_text(a)}: the deal is over")
        cur = self.current_player
        assert cur is not None  # the deal is not over
        if seat is not None and seat != cur:
            raise IllegalActionError(f"{action_text(a)}: it is seat {cur}'s turn, not seat {seat}'s")
        legal = self.legal_actions_fast()
        if a not in legal:
            raise IllegalActionError(self._why_illegal(a, cur))
        a = int(a)
        log = self._log
        if log is None or self._logged != len(self.actions):
            # Nobody has read the log yet (or it is behind): it catches up when read.
            self.apply_fast(a)
            return
        phase, faceup, done = self.phase, self.faceup, len(self.history)
        left, top = len(self.talon), self.talon[-self._per_round:]
        self.apply_fast(a)
        drawn = self._drawn
        assert drawn is not None  # made with the log
        _note(self, log, drawn, a, cur, phase, faceup, done, left, top)
        self._logged += 1

    def _why_illegal(self, a: int, seat: int) -> str:
        text = action_text(a)
        if self.phase == _PLAY and a < N_CARDS:
            if a not in self.hands[seat]:
                return f"{text} is not in seat {seat}'s hand"
            return f"{text} may not be played now: the suit led must be followed (a carichi)"
        if self.phase == _PLAY and SIGNAL <= a <= SIGNAL_LOADED and self.rules.signals \
                and self.tricks_done > 0 and self.sig_last[seat] != self.tricks_done \
                and self.trump is not None:
            if a == SIGNAL_LOADED:
                return f"{text} is a false signal: seat {seat} holds no loaded card off trump"
            card = CARDS[self.trump * N_RANKS + a - SIGNAL]
            if card.rank in self.rules.tables.signal_ranks:
                return f"{text} is a false signal: seat {seat} does not hold {card}"
        legal = ", ".join(action_text(x) for x in self.legal_actions_fast())
        return f"{text} is not legal for seat {seat} now (legal: {legal})"

    def apply_fast(self, a: int) -> None:
        """Apply an action without checking it. For search and simulation only."""
        if a >= 52:
            self._apply_other(a)
            return
        order = self.order
        trick = self.trick
        self.hands[order[len(trick)]].remove(a)
        trick.append(a)
        self.actions.append(a)
        pos = len(trick)
        if pos < len(order):
            return
        # The trick is complete: the highest trump, else the highest card of the suit led.
        pts = self._points
        if pos == 2:
            b = trick[0]
            w = order[1] if self._beats[(b << 6) | a] else order[0]
            p = pts[b] + pts[a]
        else:
            beats = self._beats
            b = trick[0]
            bi = 0
            p = pts[b]
            for i in range(1, pos):
                c = trick[i]
                p += pts[c]
                if beats[(b << 6) | c]:
                    bi = i
                    b = c
            w = order[bi]
        self.points[w] += p
        self.history.append((order, trick, w, p))
        self.trick = []
        talon = self.talon
        if talon:
            if len(talon) >= self._per_round:
                seq = self._orders[w]  # a full round (twice round in double Briskula)
            else:
                # Bosnian rule: the talon runs out mid-round; only those who draw play next.
                seq = self._rot[w][:len(talon)]
            self.order = seq
            hands = self.hands
            for s in seq:
                hands[s].append(talon.pop())
            if not talon:
                self.public_known.append((self.faceup, seq[-1]))
                self.faceup = -1
        else:
            self.order = self._orders[w]
            if not self.hands[w]:
                self.phase = 4

    def _apply_other(self, a: int) -> None:
        phase = self.phase
        if phase == _AUCTION or phase == _CALL:
            _ch.apply(self, a)
            self.actions.append(a)
            return
        seat = self.order[len(self.trick)]
        if SWAP <= a < SWAP + N_CARDS:
            give = a - SWAP
            take = self.faceup
            hand = self.hands[seat]
            hand.remove(give)
            insort(hand, take)
            self.talon[0] = give
            self.faceup = give
            self.public_known.append((take, seat))
            self.actions.append(a)
            return
        if SIGNAL <= a <= SIGNAL_LOADED:
            self.sig_last[seat] = self.tricks_done
            self.actions.append(a)
            return
        raise IllegalActionError(f"{action_text(a)} is not an action of the play phase")

    # ---- the end ---------------------------------------------------------------------------------
    def outcome(self) -> Outcome | None:
        """The result once the deal is over (``None`` before)."""
        if self.phase != _OVER:
            return None
        if self.rules.mode == "chiamata":
            return _ch.outcome(self)
        sides = self.sides()
        side_points = tuple(sum(self.points[s] for s in side) for side in sides)
        best = max(side_points)
        winners = tuple(i for i, p in enumerate(side_points) if p == best)
        return Outcome(tuple(self.points), sides, side_points, winners,
                       len(winners) == len(sides))

    def captured(self) -> list[list[Card]]:
        """The cards each seat took, in the order taken."""
        out: list[list[Card]] = [[] for _ in range(self.n)]
        for _order, cards, w, _p in self.history:
            out[w].extend(CARDS[c] for c in cards)
        return out

    # ---- saving and replaying ----------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": SAVE_FORMAT,
            "version": SAVE_VERSION,
            "rules": {**self.rules.to_dict(), "edition": self.rules.edition},
            "seed": self.seed,
            "dealer": self.dealer,
            "deck": " ".join(str(CARDS[c]) for c in self.deck),
            "actions": [action_text(a) for a in self.actions],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: Any) -> "Game":
        """Rebuild a game from :meth:`to_dict` output, replaying every action with checks."""
        if not isinstance(data, dict):
            raise SaveError("saved game: expected an object")
        if data.get("format") != SAVE_FORMAT:
            raise SaveError(f"saved game: unknown format {quote(data.get('format'))}")
        if data.get("version") != SAVE_VERSION:
            raise SaveError(f"saved game: unsupported version {quote(data.get('version'))}")
        try:
            rules = Rules.from_dict(saved_rules(data.get("rules")))
            deck = data.get("deck")
            if not isinstance(deck, str):
                raise SaveError("saved game: 'deck' must be text")
            seed = data.get("seed")
            if seed is not None:
                check_seed(seed)
            dealer = data.get("dealer")
            if not isinstance(dealer, int):  # the constructor checks the rest
                raise RulesError(f"dealer: must be a seat from 0 to {rules.players - 1}")
            game = cls(rules, parse_cards(deck), dealer, seed)
            actions = data.get("actions")
            if not isinstance(actions, list):
                raise SaveError("saved game: 'actions' must be a list")
            for i, text in enumerate(actions):
                try:
                    game.apply(text)
                except IllegalActionError as e:
                    raise SaveError(
                        f"saved game: action {i + 1} ({quote(text)}) is not legal: {e}") from None
        except SaveError:
            raise
        except (RulesError, CardError, TypeError, ValueError) as e:
            raise SaveError(f"saved game: {e}") from None
        return game

    @classmethod
    def from_json(cls, text: str) -> "Game":
        """A game from :meth:`to_json` text; any other text (not JSON, past the bounds of
        :mod:`briscola.bounds`, nested too deep) raises :class:`SaveError`."""
        try:
            data = load_json(text, "saved game")
        except ValueError as e:
            raise SaveError(str(e)) from None
        return cls.from_dict(data)

    def replay(self, upto: int | None = None) -> "Game":
        """A fresh game with the same deck and the first ``upto`` actions applied."""
        g = Game._deal(self.rules, self.deck, self.dealer, self.seed)
        for a in self.actions[:upto]:
            g.apply_fast(a)
        return g

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return (self.rules == other.rules and self.deck == other.deck
                and self.dealer == other.dealer and self.actions == other.actions
                and self.hands == other.hands and self.talon == other.talon
                and self.points == other.points and self.trick == other.trick
                and self.phase == other.phase and self.order == other.order
                and self.faceup == other.faceup)

    __hash__ = None  # type: ignore[assignment]  # a game changes: compared, never hashed

    def __repr__(self) -> str:
        return (f"<Game {self.rules.name} phase={self.phase_name} turn={self.current_player} "
                f"hands={[ ' '.join(map(str, map(CARDS.__getitem__, h))) for h in self.hands]} "
                f"trick={[str(CARDS[c]) for c in self.trick]} talon={len(self.talon)} "
                f"points={self.points}>")

    # ---- what a seat may see -----------------------------------------------------------------------
    def view(self, seat: int) -> View:
        """Everything ``seat`` may know now (:mod:`briscola.view`), in constant time."""
        return build_view(self, seat)

    def events(self) -> list[dict]:
        """The full event log (every card, every draw): a copy, the game keeps its own."""
        return list(self._event_log())

    def _event_log(self) -> list[dict]:
        """The event log up to the last action, kept on the game and extended in place.

        Made when first asked for; from then on ``apply`` appends each action's events as it
        goes. Actions the log does not cover yet (before it was first asked for, or applied
        by ``apply_fast``) are read here, once, by stepping a private copy of the deal
        through them: each action is logged exactly once.
        ``_drawn`` maps the index of each draw event to the card drawn (for the views).
        """
        log = self._log
        n = len(self.actions)
        if log is None or self._logged > n:
            log = self._log = _deal_events(self)
            self._logged = 0
            self._drawn = {}
            self._replay = None
        done = self._logged
        if done < n:
            g = self._replay
            if g is None or len(g.actions) != done:
                g = self._replay = self.replay(done)
            drawn = self._drawn
            assert drawn is not None  # made with the log
            for a in self.actions[done:]:
                seat, phase, faceup, tricks = g.current_player, g.phase, g.faceup, len(g.history)
                assert seat is not None  # an action was taken: the deal was not over
                left, top = len(g.talon), g.talon[-g._per_round:]
                g.apply_fast(a)
                _note(g, log, drawn, a, seat, phase, faceup, tricks, left, top)
            self._logged = n
        return log


def _deal_events(g: Game) -> list[dict]:
    """The first events of a deal: re-buried cards, then the deal (and the trump turned up)."""
    log: list[dict] = [{"type": "rebury", "card": CODES[c]} for c in g.reburied]
    if g.turned >= 0:
        log.append({"type": "deal", "dealer": g.dealer, "trump": CODES[g.turned],
                    "trump_suit": SUITS[g.turned // N_RANKS]})
    else:
        log.append({"type": "deal", "dealer": g.dealer})
    return log


def _note(g: Game, log: list[dict], drawn: dict[int, int], a: int, seat: int, phase: int,
          faceup: int, tricks: int, left: int, top: list[int]) -> None:
    """Append the events of action ``a``, read off the game ``g`` just after it.

    ``seat``, ``phase``, ``faceup``, ``tricks`` (tricks done) and ``left`` (cards in the
    talon) are from just before the action, ``top`` the talon's last cards then (a completed
    trick draws some of them, never more).
    """
    if phase != _PLAY:
        log.extend(_ch.events_for_action(g, seat, a))
    elif a < N_CARDS:
        log.append({"type": "play", "seat": seat, "card": CODES[a]})
        if g.auction is not None:
            log.extend(_ch.play_events(g, seat, a))
    elif SWAP <= a < SWAP + N_CARDS:
        log.append({"type": "exchange", "seat": seat, "gave": CODES[a - SWAP],
                    "took": CODES[faceup]})
    elif SIGNAL <= a <= SIGNAL_LOADED:
        sig = "loaded" if a == SIGNAL_LOADED else CARDS[a - SIGNAL].rank
        log.append({"type": "signal", "seat": seat, "signal": sig})
    history = g.history
    if len(history) != tricks:
        _order, cards, w, p = history[-1]
        log.append({"type": "trick", "winner": w, "points": p,
                    "cards": [CODES[c] for c in cards]})
        # The cards drawn, in the order drawn (the talon is drawn from its end).
        for s, c in zip(g.order, top[::-1][:left - len(g.talon)]):
            drawn[len(log)] = c
            log.append({"type": "draw", "seat": s, "card": CODES[c]})
    if g.phase == _OVER and phase != _OVER:
        log.append({"type": "end"})
