"""Matches: several deals under one set of rules, with the format's scoring.

Formats (``Rules.match``): a single deal; best of 3, 5 or 7 deals (first side to 2, 3 or 4
won deals); first to 3, 5, 6 or 7 won deals; first to 120 card points over several deals. A
60-60 deal is replayed or counted as won by both sides (``Rules.drawn_deal``), a single deal
too: replayed, a drawn single deal is followed by another until one side wins. Briscola
Chiamata plays a number of deals (``match_deals``) or to a target of game points
(``match_target``); the two best scores win (see :func:`chiamata_winners`).

Deal ``k`` of a match with seed ``S`` is ``Game.new(rules, seed=f"{S}/{k}")`` dealt by seat
``(first_dealer + k) % players``: a match, like a deal, is reproducible from its seed. A new
match at the same table (:meth:`Match.rematch`) continues the rotation of the deal.

A saved match records the rule book's edition it follows (``Rules.edition``); a save without
one was written before the corrections of edition 2 (docs/rules.md §14) and resumes under
edition 1, keeping the behaviour it was started with.

A finished deal may be played again with the seats swapped (:meth:`Match.duplicate`): the
same cards, each seat getting the cards and the place of the seat before it. A duplicate
deal is kept in the match's history but does not count in the match's score. Deals in which
a play was taken back (:meth:`Match.take_back`) are marked ``undone``.
"""
from __future__ import annotations

import json
import random
from typing import Any

from .errors import IllegalActionError, RulesError, SaveError, quote
from .bounds import load_json
from .game import Game, check_seed, saved_rules
from .outcome import Outcome
from .rules import MATCH_FORMATS, Rules, find_variant

MATCH_FORMAT = "briscola/match"
MATCH_VERSION = 1
MAX_DEALS = 200  # a safety net: no format needs this many deals


class Match:
    """A match in progress: finished deals, the current deal, the running score."""

    def __init__(self, rules: Rules | str = "classic", seed: int | str | None = None,
                 first_dealer: int | None = None) -> None:
        if isinstance(rules, str):
            rules = find_variant(rules)
        if not isinstance(rules, Rules):
            raise RulesError(f"rules: expected a Rules value, got {rules!r}")
        if seed is None:
            seed = random.SystemRandom().randrange(2**53)
        check_seed(seed)
        self.rules = rules
        self.seed: int | str | None = seed  # (None: a match of deals dealt elsewhere, of_deals)
        if first_dealer is None:
            first_dealer = random.Random(f"{seed}/dealer").randrange(rules.players)
        if (not isinstance(first_dealer, int) or isinstance(first_dealer, bool)
                or not 0 <= first_dealer < rules.players):
            raise RulesError(f"first_dealer: must be a seat from 0 to {rules.players - 1}")
        self.first_dealer = first_dealer
        self.finished: list[Game] = []
        self.undone: set[int] = set()  # deals (history indices) with a play taken back
        self.duplicates: dict[int, int] = {}  # deal -> the deal it replays, seats swapped
        self.game = self._deal(0)

    def next_dealer(self) -> int:
        """The seat that deals after the current deal (in this match or the next one)."""
        return (self.game.dealer + 1) % self.rules.players

    def rematch(self, rules: Rules | str | None = None,
                seed: int | str | None = None) -> "Match":
        """A new match at the same table: its first deal is dealt by :meth:`next_dealer`.

        The rules may change, the number of players may not (it would be another table).
        """
        if rules is None:
            rules = self.rules
        elif isinstance(rules, str):
            rules = find_variant(rules)
        if not isinstance(rules, Rules):
            raise RulesError(f"rules: expected a Rules value, got {rules!r}")
        if rules.players != self.rules.players:
            raise RulesError(f"players: this table has {self.rules.players} players, not "
                             f"{rules.players}")
        return Match(rules, seed, first_dealer=self.next_dealer())

    @classmethod
    def of_deals(cls, rules: Rules, games: list[Game]) -> "Match":
        """The match made of deals dealt elsewhere, in order, the last the current one: at a
        table that deals fairly each deal is dealt by the fair protocol, and is a whole
        :class:`Game` once checked (its public record). Every deal but the last is over, each
        is dealt under the match's rules by the seat whose turn it was (the rotation of
        :meth:`next_deal`) and none comes after the match's end; otherwise
        :class:`IllegalActionError` says which. Such a match has no seed: it is not saved as
        one (each device keeps the deals' records)."""
        if not isinstance(games, list) or not games or len(games) > MAX_DEALS:
            raise IllegalActionError(f"a match of 1 to {MAX_DEALS} deals")
        match = cls.__new__(cls)
        match.rules, match.seed, match.first_dealer = rules, None, games[0].dealer
        match.finished, match.undone, match.duplicates = [], set(), {}
        for k, game in enumerate(games):
            if game.rules != rules:
                raise IllegalActionError(f"deal {k + 1}: its rules are not the match's")
            due = (match.first_dealer + k) % rules.players
            if game.dealer != due:
                raise IllegalActionError(f"deal {k + 1}: dealt by seat {game.dealer}, where "
                                         f"seat {due} deals")
            if k:
                if not match.game.is_over:
                    raise IllegalActionError(f"deal {k}: not over, and a deal after it")
                if match.is_over:
                    raise IllegalActionError(f"deal {k + 1}: the match was over before it")
                match.finished.append(match.game)
            match.game = game
        return match

    def public(self) -> dict[str, Any]:
        """What every seat may know of the match: its format, the current deal's number, the
        score (per side, per seat in Chiamata), whether it is over and who won, each counted
        deal's outcome and the deals with a play taken back."""
        k = self.deal_number
        won = self.winners()
        return {
            "format": self.rules.match,
            "deal": k,
            "score": self.score(),
            "over": won is not None,
            "winners": None if won is None else list(won),
            "deals": [o.to_dict() for o in self._results()],
            "undone": k in self.undone,
            "undone_deals": sorted(self.undone),
        }

    def _deal(self, k: int) -> Game:
        return Game.new(self.rules, seed=f"{self.seed}/{k}",
                        dealer=(self.first_dealer + k) % self.rules.players)

    # ---- progress -------------------------------------------------------------------------
    @property
    def deal_number(self) -> int:
        """Index of the current deal (0 for the first)."""
        return len(self.finished)

    def outcomes(self) -> list[Outcome]:
        """Outcomes of the deals closed by :meth:`next_deal` (not the current one), duplicate
        deals left out."""
        # A finished deal is over: its outcome is never None.
        return [g.outcome() for k, g in enumerate(self.finished)  # type: ignore[misc]
                if k not in self.duplicates]

    def history(self) -> list[Game]:
        """Every deal of the match, duplicates included, the current one last."""
        return self.finished + [self.game]

    def next_deal(self) -> Game:
        """Close the finished current deal and deal the next. Refused mid-deal or at the end."""
        if not self.game.is_over:
            raise IllegalActionError("the current deal is not over yet")
        if self.is_over:
            raise IllegalActionError("the match is over")
        self.finished.append(self.game)
        regular = sum(1 for k in range(len(self.finished)) if k not in self.duplicates)
        self.game = self._deal(regular)
        return self.game

    def duplicate(self) -> Game:
        """Close the finished current deal and play its cards again with the seats swapped.

        The dealer moves one seat on, so each seat gets the cards (and the place in the
        playing order) that the seat before it had: with two players, the two swap. The
        duplicate is recorded as a replay of the deal just before it.
        """
        if not self.game.is_over:
            raise IllegalActionError("the current deal is not over yet")
        j = len(self.finished)
        src = self.game
        self.finished.append(src)
        self.duplicates[j + 1] = j
        self.game = Game._deal(self.rules, src.deck, (src.dealer + 1) % self.rules.players,
                               src.seed)
        return self.game

    def take_back(self, upto: int) -> Game:
        """The current deal restored to its first ``upto`` actions, and marked ``undone``."""
        if not 0 <= upto < len(self.game.actions):
            raise IllegalActionError("nothing to take back")
        self.game = self.game.replay(upto)
        self.undone.add(len(self.finished))
        return self.game

    def _results(self) -> list[Outcome]:
        out = self.outcomes()
        if self.game.is_over and len(self.finished) not in self.duplicates:
            out.append(self.game.outcome())  # type: ignore[arg-type]  # over: not None
        return out

    @property
    def n_sides(self) -> int:
        return self.rules.players if self.rules.mode == "chiamata" else \
            self.rules.tables.n_sides

    def score(self) -> list[int]:
        """The match score per side (per seat in Chiamata): what the format counts."""
        rules = self.rules
        results = self._results()
        if rules.mode == "chiamata":
            total = [0] * rules.players
            for o in results:
                for s, gp in enumerate(o.game_points):
                    total[s] += gp
            return total
        score = [0] * self.n_sides
        if rules.match == "to120":
            for o in results:
                for i, p in enumerate(o.side_points):
                    score[i] += p
            return score
        for o in results:
            if o.draw and rules.drawn_deal == "replay":
                continue
            for i in o.winners:
                score[i] += 1
        return score

    @property
    def is_over(self) -> bool:
        return self.winners() is not None

    def winners(self) -> tuple[int, ...] | None:
        """Winning sides (several if the match is drawn), or ``None`` while it goes on."""
        rules = self.rules
        results = self._results()
        if not results or not self.game.is_over:
            return None
        score = self.score()
        best = max(score)
        top = tuple(i for i, s in enumerate(score) if s == best)
        if rules.mode == "chiamata":
            if rules.edition < 2:  # edition 1: the best score alone, a tie on the target went on
                if len(results) >= MAX_DEALS:
                    return top
                if rules.match_deals:
                    return top if len(results) >= rules.match_deals else None
                return top if best >= rules.match_target and len(top) == 1 else None
            if (len(results) >= MAX_DEALS
                    or (rules.match_deals and len(results) >= rules.match_deals)
                    or (not rules.match_deals and best >= rules.match_target)):
                return chiamata_winners(score)
            return None
        if len(results) >= MAX_DEALS:
            return top
        if rules.match == "single":
            last = results[-1]
            if last.draw and rules.drawn_deal == "replay" and rules.edition >= 2:
                return None  # a drawn deal is replayed until one side wins
            return last.winners
        if rules.match == "to120":
            return top if best >= 120 and len(top) == 1 else None
        if rules.match.startswith("first"):
            need = MATCH_FORMATS[rules.match]
        else:
            need = MATCH_FORMATS[rules.match] // 2 + 1
        return top if best >= need else None

    # ---- saving -----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        games = self.finished + [self.game]
        d = {
            "format": MATCH_FORMAT,
            "version": MATCH_VERSION,
            "rules": {**self.rules.to_dict(), "edition": self.rules.edition},
            "seed": self.seed,
            "first_dealer": self.first_dealer,
            "deals": [g.to_dict()["actions"] for g in games],
        }
        if self.undone:
            d["undone"] = sorted(self.undone)
        if self.duplicates:
            d["duplicates"] = sorted(self.duplicates)
        return d

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    @classmethod
    def from_dict(cls, data: Any) -> "Match":
        """Rebuild a match by re-dealing from its seed and replaying every action, checked."""
        if not isinstance(data, dict):
            raise SaveError("saved match: expected an object")
        if data.get("format") != MATCH_FORMAT:
            raise SaveError(f"saved match: unknown format {quote(data.get('format'))}")
        if data.get("version") != MATCH_VERSION:
            raise SaveError(f"saved match: unsupported version {quote(data.get('version'))}")
        deals = data.get("deals")
        if not isinstance(deals, list) or not deals or len(deals) > MAX_DEALS:
            raise SaveError("saved match: 'deals' must be a non-empty list of action lists")
        try:
            match = cls(Rules.from_dict(saved_rules(data.get("rules"))), data.get("seed"),
                        data.get("first_dealer"))
        except RulesError as e:
            raise SaveError(f"saved match: {e}") from None
        dups = _index_list(data, "duplicates", len(deals))
        undone = _index_list(data, "undone", len(deals))
        for k, actions in enumerate(deals):
            if not isinstance(actions, list):
                raise SaveError(f"saved match: deal {k + 1} must be a list of actions")
            if k > 0:
                try:
                    if k in dups:
                        match.duplicate()
                    else:
                        match.next_deal()
                except IllegalActionError as e:
                    raise SaveError(f"saved match: deal {k + 1}: {e}") from None
            for i, text in enumerate(actions):
                try:
                    match.game.apply(text)
                except IllegalActionError as e:
                    raise SaveError(
                        f"saved match: deal {k + 1}, action {i + 1} ({quote(text)}): {e}") from None
        match.undone = set(undone)
        return match

    @classmethod
    def from_json(cls, text: str) -> "Match":
        """A match from :meth:`to_json` text; any other text (not JSON, past the bounds of
        :mod:`briscola.bounds`, nested too deep) raises :class:`SaveError`."""
        try:
            data = load_json(text, "saved match")
        except ValueError as e:
            raise SaveError(str(e)) from None
        return cls.from_dict(data)


def _index_list(data: dict, key: str, n: int) -> set[int]:
    """An optional list of deal indices in a saved match (absent in older saves)."""
    got = data.get(key, [])
    if not isinstance(got, list) or not all(
            isinstance(k, int) and not isinstance(k, bool) and 0 <= k < n for k in got):
        raise SaveError(f"saved match: {key!r} must be a list of deal indices")
    if key == "duplicates" and 0 in got:
        raise SaveError("saved match: the first deal cannot be a duplicate")
    return set(got)


def chiamata_winners(score: list[int]) -> tuple[int, ...]:
    """The winners of a Chiamata match from the final scores (docs/rules.md §12.9).

    The two best scores win: everyone sharing the best score when several do; otherwise the
    best player and those sharing the next best score, when they are fewer than four (four
    or more tied second: the best player wins alone).
    """
    best = max(score)
    top = [i for i, x in enumerate(score) if x == best]
    lower = [x for x in score if x < best]
    if len(top) > 1 or not lower:
        return tuple(top)
    second = max(lower)
    seconds = [i for i, x in enumerate(score) if x == second]
    if len(seconds) >= 4:
        return tuple(top)
    return tuple(sorted(top + seconds))
