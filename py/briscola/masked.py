"""A deal refereed over masked cards: the engine's half of the fair deal (docs/friends.md).

At a fair table (``js/fair/``) no device holds the deck: each card is masked under every
device's key and reaches a device only when the others send their shares. Each device's engine
therefore knows some positions of the deck (the cards of its own seats, those opened to all)
and not the others. :class:`MaskedDeal` referees such a deal: the turns, the tricks, the
scores, the auction and the end are decided from the cards opened, as :class:`Game` decides
them; a seat's view is the very view :class:`Game` gives it (``view``), and what is saved
(``to_dict``) holds the known positions only.

**Positions.** Position ``p`` is the ``p``-th card of the deal's order (``Game.deck[p]``):
the hands are dealt from the first ones, one at a time from the seat after the dealer, then
the card turned up and the talon, exactly as :class:`Game` deals. Every device's engine says
the same thing at the same moment of where each position is (``places``): it depends on the
public actions only, so the devices deal the same positions to the same seats without being
told.

**What an unknown position holds here.** The engine plays on a :class:`Game` whose unknown
positions are filled with the cards nobody has shown this device, in the deck's order: a fill
made from what the device knows and nothing else (it is the same whatever the hidden cards
are), so nothing of another device's hand is in it. It is never saved nor shown: a view is
made only once every card it shows is known (:class:`MaskedError` names the positions
missing), the save holds the known positions, and the trick, the scores and the turn depend on
opened cards only. Legal moves are checked where the fill cannot matter: a card played from
another device's seat must be opened, from a position in that seat's hand; an obligation that
depends on the rest of a hidden hand (following suit *a carichi*, a forced call, a partner's
signal of what it holds) cannot be checked until that hand is open, and is checked by
:meth:`check` at the end, when every card has been played and the whole deal is replayed through
:class:`Game`'s checked ``apply``. Which signal a seat made is told only to the devices of its
partners (js/fair/signal.js); another device's engine takes ``"signal"``, one was made (its seats'
views show no more, as :class:`Game`'s do not), and is told which at the end (:meth:`tell`),
before the check.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from .actions import CALL_CARD, SIGNAL, SIGNAL_LOADED, SWAP, Action, action_text
from .cards import CARDS, CODES, N_CARDS, Card, CardError
from .errors import BriscolaError, IllegalActionError, RulesError, SaveError, quote
from .game import Game, saved_rules
from .rules import Rules
from .view import View, _partners_see

SAVE_FORMAT = "briscola/masked"
SAVE_VERSION = 1
HIDDEN_SIGNAL = -1  # a signal made, which of them this device is not told until the end
HIDDEN_TEXT = "signal"


class MaskedError(BriscolaError):
    """A position asked for that this device does not know yet, or a card opened twice."""

    code = "masked"

    def __init__(self, message: str, needs: Iterable[int] = ()) -> None:
        super().__init__(message)
        self.needs = sorted(needs)

    def to_dict(self) -> dict:
        return {**super().to_dict(), "needs": self.needs}


class CheatError(BriscolaError):
    """The deal replayed at its end is not a deal the rules allow: who did what."""

    code = "cheat"

    def __init__(self, message: str, seat: int | None, action: int | None = None) -> None:
        super().__init__(message)
        self.seat = seat
        self.action = action

    def to_dict(self) -> dict:
        return {**super().to_dict(), "seat": self.seat, "action": self.action}


def _card_of(x: Any, where: str) -> int:
    if isinstance(x, Card):
        return int(x)
    if isinstance(x, int) and not isinstance(x, bool):
        if 0 <= x < N_CARDS:
            return x
        raise CardError(f"{where}: no card {x}")
    if isinstance(x, str):
        return int(Card.parse(x))
    raise CardError(f"{where}: expected a card, got {quote(x)}")


class MaskedDeal:
    """One deal as one device's engine knows it.

    ``sees``: the seats whose cards this device may know (its person's, the computers' it
    runs). ``known``: position -> card, what it knows at the start (usually nothing: the
    cards come with :meth:`reveal`).
    """

    __slots__ = ("rules", "dealer", "sees", "size", "known", "actions", "unchecked", "_game",
                 "_pos_of")

    def __init__(self, rules: Rules, dealer: int, sees: Iterable[int] = (),
                 known: Mapping[int, Any] | None = None) -> None:
        if not isinstance(rules, Rules):
            raise RulesError(f"rules: expected a Rules value, got {quote(rules)}")
        n = rules.players
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < n:
            raise RulesError(f"dealer: must be a seat from 0 to {n - 1}")
        seats = set()
        for s in sees:
            if not isinstance(s, int) or isinstance(s, bool) or not 0 <= s < n:
                raise RulesError(f"sees: no seat {quote(s)}: seats are 0 to {n - 1}")
            seats.add(s)
        self.rules = rules
        self.dealer = dealer
        self.sees = frozenset(seats)
        self.size = len(rules.tables.deck)
        self.known: dict[int, int] = {}
        self.actions: list[int] = []
        self.unchecked: list[int] = []  # indices of actions whose legality waits for the end
        self._game: Game | None = None
        self._pos_of: dict[int, int] = {}
        for p, c in (known or {}).items():
            self.reveal(p, c)
        if self._game is None:
            self._rebuild()  # a deal that turns nothing up (Chiamata) starts at once

    # ---- where each position is ------------------------------------------------------------------
    def _setup_needs(self) -> list[int]:
        """The positions the deal's set-up opens to everyone: the card turned up (and, where
        the rules re-bury a top card, each card turned until one stays). Mirrors
        ``Game._setup`` on positions (tests/test_masked.py holds the two to the same)."""
        rules = self.rules
        if rules.mode == "chiamata":
            return []
        dealt = rules.players * rules.hand_size
        if not (rules.ranking == "bisca" or rules.rebury):
            return [dealt]
        stock = list(range(dealt, self.size))
        from_bottom = rules.ranking == "bisca"
        turned = stock.pop() if from_bottom else stock.pop(0)
        out = [turned]
        if rules.rebury:
            top_two = rules.tables.rebury_ranks
            for _ in range(len(stock)):
                c = self.known.get(turned)
                if c is None or CARDS[c].rank not in top_two:
                    break
                stock.insert((len(stock) + 1) // 2, turned)
                turned = stock.pop() if from_bottom else stock.pop(0)
                out.append(turned)
        return out

    def setup_needs(self) -> list[int]:
        """Positions to open to everyone before the deal can start (none once it has)."""
        return [p for p in self._setup_needs() if p not in self.known]

    def _rebuild(self) -> None:
        if self.setup_needs():
            self._game = None
            return
        rules = self.rules
        known = self.known
        held = set(known.values())
        rest = iter(c for c in rules.tables.deck_ints if c not in held)
        deck = [known[p] if p in known else next(rest) for p in range(self.size)]
        g = Game._deal(rules, deck, self.dealer)
        for a in self.actions:
            g.apply_fast(SIGNAL_LOADED if a == HIDDEN_SIGNAL else a)  # (any signal: none is shown)
        self._game = g
        self._pos_of = {c: p for p, c in enumerate(deck)}

    @property
    def game(self) -> Game:
        """The game this engine plays on (unknown positions filled as the module says)."""
        g = self._game
        if g is None:
            needs = self.setup_needs()
            raise MaskedError(f"the deal starts once positions {needs} are opened", needs)
        return g

    def places(self) -> dict[str, Any]:
        """Where each position is now: ``hands`` (per seat, its positions), ``faceup`` (the
        position face up on the table, or None), ``talon`` (face down, the next drawn last),
        ``setup`` (positions to open before the deal starts). The same on every device."""
        if self._game is None:
            return {"hands": [[] for _ in range(self.rules.players)], "faceup": None,
                    "talon": [], "setup": self.setup_needs()}
        g = self._game
        pos = self._pos_of
        talon = g.talon
        face = g.faceup if g.faceup >= 0 else None
        down = talon[1:] if face is not None and talon and talon[0] == face else talon
        return {"hands": [sorted(pos[c] for c in h) for h in g.hands],
                "faceup": None if face is None else pos[face],
                "talon": [pos[c] for c in down], "setup": []}

    def needs(self, seat: int | None = None) -> list[int]:
        """The positions this device must know before it can show ``seat``'s view (every
        seat it sees when None): the seat's hand, the hands its view shows (partners at the
        end, open hands), the next card of an open talon."""
        g = self._game
        if g is None:
            return self.setup_needs()
        seats = sorted(self.sees) if seat is None else [seat]
        want: set[int] = set()
        pos = self._pos_of
        for s in seats:
            v = g.view(s)
            cards = [c for hand in v.known for c in hand]
            if v.talon_next is not None:
                cards.append(v.talon_next)
            want.update(pos[int(c)] for c in cards)
        return sorted(p for p in want if p not in self.known)

    def shows(self) -> dict[str, list[int]]:
        """For each of this device's seats, the other seats that see its whole hand now (the
        partners, where the rules show hands): its device shows them its cards."""
        g = self._game
        rules = self.rules
        if g is None or g.is_over or not rules.is_team_game or rules.partner_view == "never" \
                or not _partners_see(g):
            return {}
        side = rules.tables.side_of
        return {str(s): [o for o in range(g.n) if o != s and side[o] == side[s]]
                for s in sorted(self.sees)}

    # ---- cards opened ----------------------------------------------------------------------------
    def reveal(self, pos: Any, card: Any) -> None:
        """Position ``pos`` holds ``card`` (opened to this device). A card already known at
        another position, or another card already known at this one, raises
        :class:`MaskedError` and changes nothing: one of the two openings is false."""
        if not isinstance(pos, int) or isinstance(pos, bool) or not 0 <= pos < self.size:
            raise MaskedError(f"position {quote(pos)}: positions are 0 to {self.size - 1}")
        c = _card_of(card, f"position {pos}")
        if c not in self.rules.tables.deck_ints:
            raise MaskedError(f"{CARDS[c]} is not a card of this deck")
        had = self.known.get(pos)
        if had is not None:
            if had != c:
                raise MaskedError(f"position {pos} was opened as {CARDS[had]}, now as {CARDS[c]}")
            return
        for p, k in self.known.items():
            if k == c:
                raise MaskedError(f"{CARDS[c]} is at position {p} already: a card dealt twice")
        self.known[pos] = c
        if self._game is None or self._pos_of.get(c) != pos:
            self._rebuild()

    # ---- acting ----------------------------------------------------------------------------------
    def act(self, action: Any, seat: int | None = None, *, unchecked: bool = False) -> None:
        """The current player's action. A seat this device sees acts as in :class:`Game`
        (checked against its whole hand); another device's seat plays cards opened from its
        hand, and what depends on the rest of its hand is checked at the end. Raises and
        changes nothing when the action is not allowed. (``unchecked``: a saved deal replayed,
        an action that was taken unchecked then, taken so again.)"""
        g = self.game
        if action == HIDDEN_TEXT:
            self._hidden_signal(seat)
            return
        a = int(Action.parse(action))
        cur = g.current_player
        if cur is None:
            raise IllegalActionError(f"{action_text(a)}: the deal is over")
        if seat is not None and seat != cur:
            raise IllegalActionError(f"{action_text(a)}: it is seat {cur}'s turn, not seat {seat}'s")
        if cur in self.sees and not unchecked:
            missing = self.needs(cur)
            if missing:
                raise MaskedError(f"seat {cur}'s hand is not known here yet", missing)
            g.apply(a, cur)
            self.actions.append(a)
            return
        legal = g.legal_actions_fast()
        card = a if a < N_CARDS else a - SWAP if SWAP <= a < SWAP + N_CARDS else None
        if card is not None:
            if self.known.get(self._pos_of[card]) != card:
                hidden = [self._pos_of[c] for c in g.hands[cur]]
                raise MaskedError(f"{CARDS[card]} is played unopened: it must be opened from "
                                  f"one of seat {cur}'s positions first",
                                  [p for p in hidden if p not in self.known])
            if card not in g.hands[cur]:
                raise IllegalActionError(f"{action_text(a)} is not in seat {cur}'s hand")
        # (what depends on the hidden rest of the hand waits for the end even where the fill
        # would allow it: the fill says nothing of that hand, and a reload fills otherwise)
        if unchecked or self._waits_for_hand(a, cur):
            self.unchecked.append(len(self.actions))
            g.apply_fast(a)
        elif a in legal:
            g.apply(a, cur)
        else:
            raise IllegalActionError(f"{action_text(a)} is not legal for seat {cur} now")
        self.actions.append(a)

    def _hidden_signal(self, seat: int | None) -> None:
        """The current player signals, and this device is not told which signal: its seats are
        all the signaller's opponents (their views show only that a signal was made). Taken on
        trust when the rules let the seat signal now; which signal it was, and whether the hand
        held it, is told (:meth:`tell`) and checked at the end."""
        g = self.game
        cur = g.current_player
        if cur is None:
            raise IllegalActionError("signal: the deal is over")
        if seat is not None and seat != cur:
            raise IllegalActionError(f"signal: it is seat {cur}'s turn, not seat {seat}'s")
        side = self.rules.tables.side_of
        if any(side[s] == side[cur] for s in self.sees):
            raise IllegalActionError(f"signal: seat {cur}'s partners are this device's: it is told "
                                     "which signal is made")
        may = "signals" in self.rules.hand_checks and g.phase == 3 and g.tricks_done > 0 \
            and g.sig_last[cur] != g.tricks_done
        hidden = any(self._pos_of[c] not in self.known for c in g.hands[cur])
        if may and not hidden:  # a hand known here whole: it must hold something to signal
            may = any(SIGNAL <= x <= SIGNAL_LOADED for x in g.legal_actions_fast())
        if not may:
            raise IllegalActionError(f"signal: seat {cur} may not signal now")
        self.unchecked.append(len(self.actions))
        g.apply_fast(SIGNAL_LOADED)
        self.actions.append(HIDDEN_SIGNAL)

    def untold(self) -> list[int]:
        """The indices of the signals made that this device has not been told yet."""
        return [i for i, a in enumerate(self.actions) if a == HIDDEN_SIGNAL]

    def tell(self, index: Any, action: Any) -> None:
        """Action ``index`` was a signal this device was not told: it was ``action`` (told at
        the end, when each device's commitments are opened). Raises and changes nothing when
        that action was no hidden signal or ``action`` is no signal."""
        if not isinstance(index, int) or isinstance(index, bool) or index not in self.untold():
            raise IllegalActionError(f"action {quote(index)} is not a signal this device was not told")
        a = int(Action.parse(action))
        if not SIGNAL <= a <= SIGNAL_LOADED:
            raise IllegalActionError(f"{action_text(a)} is not a signal")
        self.actions[index] = a
        self._rebuild()

    def _waits_for_hand(self, a: int, seat: int) -> bool:
        """Whether ``a`` may be legal with cards of ``seat``'s hand not known here: a card
        under an obligation to follow suit (a carichi), a card called by force, a signal (what
        it says the hand holds), made when the rules let the seat signal."""
        g = self._game
        assert g is not None
        hidden = any(self._pos_of[c] not in self.known for c in g.hands[seat])
        if not hidden:
            return False
        checks = self.rules.hand_checks
        if SIGNAL <= a <= SIGNAL_LOADED:
            named = a == SIGNAL_LOADED or CARDS[a - SIGNAL].rank in self.rules.tables.signal_ranks
            return named and "signals" in checks and g.phase == 3 and g.tricks_done > 0 \
                and g.sig_last[seat] != g.tricks_done
        if a < N_CARDS:
            auction = g.auction
            return "carichi" in checks and g.phase == 3 and auction is not None and auction.carichi
        return "forced_call" in checks and g.phase == 2 and CALL_CARD <= a < CALL_CARD + N_CARDS

    def view(self, seat: int) -> View:
        """``seat``'s view, the one :class:`Game` gives: only once every card it shows is
        known here (else :class:`MaskedError` with the positions)."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.rules.players:
            raise IllegalActionError(f"no seat {quote(seat)}: seats are 0 to {self.rules.players - 1}")
        if seat not in self.sees:
            raise IllegalActionError(f"seat {seat} is not this device's")
        missing = self.needs(seat)
        if missing:
            raise MaskedError(f"seat {seat}'s view shows positions not known here yet", missing)
        return self.game.view(seat)

    @property
    def is_over(self) -> bool:
        return self._game is not None and self._game.is_over

    # ---- the end ---------------------------------------------------------------------------------
    def check(self) -> Game:
        """The whole deal, once over and every position opened, replayed through
        :class:`Game`'s checks: the game it was, or :class:`CheatError` naming the seat whose
        action the rules refuse (a card not followed a carichi, a call not allowed)."""
        g = self.game
        if not g.is_over:
            raise MaskedError("the deal is not over")
        missing = [p for p in range(self.size) if p not in self.known]
        if missing:
            raise MaskedError("positions never opened", missing)
        if self.untold():
            raise MaskedError(f"signals not told yet: actions {[i + 1 for i in self.untold()]}")
        full = Game(self.rules, [self.known[p] for p in range(self.size)], self.dealer)
        for i, a in enumerate(self.actions):
            seat = full.current_player
            try:
                full.apply(a, seat)
            except IllegalActionError as e:
                raise CheatError(f"action {i + 1} of seat {seat}: {e}", seat, i) from None
        if full.outcome() != g.outcome():  # pragma: no cover - the fill never decides a trick
            raise CheatError("the deal replayed ends otherwise", None)
        return full

    # ---- saving ----------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """What this device may keep: the rules, the known positions, the actions."""
        return {
            "format": SAVE_FORMAT, "version": SAVE_VERSION,
            "rules": {**self.rules.to_dict(), "edition": self.rules.edition},
            "dealer": self.dealer, "sees": sorted(self.sees),
            "known": {str(p): CODES[c] for p, c in sorted(self.known.items())},
            "actions": [HIDDEN_TEXT if a == HIDDEN_SIGNAL else action_text(a) for a in self.actions],
            "unchecked": list(self.unchecked),
        }

    @classmethod
    def from_dict(cls, data: Any) -> "MaskedDeal":
        """Rebuilt from :meth:`to_dict`, every action checked again as it was first."""
        if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
            raise SaveError("saved fair deal: unknown format")
        if data.get("version") != SAVE_VERSION:
            raise SaveError(f"saved fair deal: unsupported version {quote(data.get('version'))}")
        try:
            rules = Rules.from_dict(saved_rules(data.get("rules")))
            known = data.get("known")
            actions = data.get("actions")
            sees = data.get("sees")
            waited = data.get("unchecked")
            if not isinstance(known, dict) or not isinstance(actions, list) \
                    or not isinstance(sees, list) or not isinstance(waited, list):
                raise SaveError("saved fair deal: 'known', 'actions', 'sees' and 'unchecked' "
                                "are needed")
            waited_set = {i for i in waited if isinstance(i, int) and not isinstance(i, bool)}
            positions = {}
            for k, v in known.items():
                if not isinstance(k, str) or not k.isdigit() or len(k) > 3:
                    raise SaveError(f"saved fair deal: position {quote(k)}")
                positions[int(k)] = v
            deal = cls(rules, data.get("dealer"), sees, positions)  # type: ignore[arg-type]
            for i, text in enumerate(actions):
                try:
                    deal.act(text, unchecked=i in waited_set)
                except (IllegalActionError, MaskedError) as e:
                    raise SaveError(
                        f"saved fair deal: action {i + 1} ({quote(text)}): {e}") from None
        except SaveError:
            raise
        except (BriscolaError, TypeError, ValueError) as e:
            raise SaveError(f"saved fair deal: {e}") from None
        return deal
