"""The browser's one door into the engine: JSON text in, JSON text out.

The web worker calls ``call(type, args_json)`` and gets back ``{"result": ...}`` or
``{"error": {"code", "message"}}`` as a JSON string: nothing else crosses, and no input,
however bad, raises. A bad request changes nothing.

The bridge keeps one *table* (a match, who sits where, the computer players). Every reply
that changes it (the requests of ``CHANGES``) carries ``changed: true`` and ``save``: an
opaque JSON string (it holds the match's seed, so it determines every hidden card) that the
worker keeps and hands back to ``load`` after a reload; the worker takes it out of the reply,
the page never sees it. A read (every other request) changes nothing: a ``state`` reply says
``changed: false`` and carries no save (unless asked with ``save: true``: the worker's own
request, to keep a game's new meta), so the worker stores nothing after it. The page draws only
``view``: what one seat may know, and only for a seat the person controls
(:meth:`Table.require_person`; other seats' replies come with the hand left out).

Request types (``args`` in brackets; the facts of each, who may ask it for which seat, whether
it changes the table, what of it a friend may ask: one table, :mod:`briscola.protocol`):

- ``ping`` -- version check.
- ``requests`` -- that table, as JSON data (the worker reads it when it starts).
- ``catalog`` -- variants, options with their choices and help, bot levels.
- ``new_match`` [``rules`` (a variant name or ``{"name", ...options}``), ``seed``, ``seats``:
  a list with ``{"kind": "human"}``, ``{"kind": "friend"}`` (a person at another device,
  whose views the host's page sends: js/friends/) or ``{"kind": "bot", "level": "expert"}``
  per seat].
  A new match without a seed and with as many players as the table it replaces continues
  the deal's rotation; a chosen seed deals exactly as that seed says (to replay a deal).
- ``load`` [``save``] -- restore a table from ``save``; a corrupt one is refused (``bad_save``).
- ``new_match`` draws the seed itself when none is given (a link's seed is public by choice).
- ``state`` [``seat``, ``save``] -- the table as ``seat`` sees it; ``hidden_seat`` for a seat
  the person does not control (a computer's; in hot-seat, a person's whose turn it is not)
  before the deal is over.
- ``friend_view`` [``seat``] -- what the page of the friend at ``seat`` (``kind: "friend"``)
  may receive (:meth:`Table.travelling`): ``seat``, ``view``, ``seats``, ``match``,
  ``card_points``, ``order`` and, once the deal is over, ``summary`` and ``record`` (the
  deal's public record, :func:`briscola.record.deal_record`). Every reply that changes
  a table with friends carries them all as ``views`` (``{seat: travelling view}``), so the
  host's page sends each friend its view without asking again.
- ``act`` [``seat``, ``action``, ``viewer``] -- a person's action, checked (``illegal_action``
  otherwise); the reply is the table as ``viewer`` sees it (the host's seat, when a friend
  acted), by default as ``seat`` does.
- ``bot_step`` [``seat``, ``reasons``] -- the computer player whose turn it is acts; the reply
  is the table as ``seat`` sees it, and the action is named to it only as that seat may know
  it (a signal to its partners only, and only to a seat the page speaks for: a person's or a
  friend's; to any other, ``"signal"``); returns its action
  and its reason as data (``{code, params}``, worded by the page); with ``reasons: true``
  (the page shows them) an intermediate's or expert's card play is explained from the
  coach's evaluation (:func:`briscola.ai.explain.decide_explained`), the same as a hint,
  in the bot's voice (``bot_eval_*``) and never naming a card still in its hand.
- ``hint`` [``seat``] -- the best action for the seat whose turn it is, why (``{code,
  params}``: what it gains over the next best card and the cause) and every card's value.
  For an exchange or a signal the values are empty (the evaluation values card plays; an
  exchange of the low trump never costs a point and a signal moves no card) and the reason
  says why (``coach_exchange``, ``coach_signal``); in Chiamata's auction and call every
  bid, pass or call is valued in game points (``unit: "game_points"``, the same values as
  the review's), except the expert's own "a carichi", given with its reason.
- ``undo`` [``seat``] -- take back the person's last action and the computer plays after it
  (``cannot_undo`` in hot-seat games, with nothing to undo, or once the deal is over).
- ``tracker`` [``seat``] -- the cards still out as that seat may know them.
- ``review_plan`` / ``review_decision`` / ``review_summary`` [``seat``, ``deal``, ``index``]
  -- a deal's decisions for one seat, evaluated one per request (see :mod:`briscola.coach`).
- ``replay`` [``deal``, ``step``, ``seat``, ``all_hands``] -- a seat's view of a deal after
  ``step`` actions; every hand too, if asked.
  The review and the replay are of a finished deal only: ``deal_not_over`` for the deal being
  played. With ``record: true`` they read a deal loaded by ``review_load`` instead of the
  table's (any seat: the deal is over).
- ``review_load`` [``record``] -- a friend's page: a finished deal of the friends table from
  its public record (``record`` in the host's replies once the deal is over,
  :mod:`briscola.record`), checked and replayed; the friend's own engine then reviews it.
- ``duplicate`` -- play the finished deal again with the seats swapped.
- ``rate`` [``rating``, ``level``, ``score``] -- a person's new Elo-style rating (and the
  computer levels' ratings, ``levels``).
- ``history`` -- the match's deals (duplicates included, as ``review_plan`` numbers them):
  each one's outcome once over, whether it is a duplicate or had an undo.
- ``rating_levels`` -- the computer levels' ratings (``levels``) and a new person's
  (``initial``), for the rating chart's reference lines.
- ``next_deal`` -- deal the next hand of the match.
- ``set_seat`` [``seat``, ``kind``, ``level``] -- a friend's seat taken by a computer player
  while that friend is away (``kind: "bot"``; the seat then says since which deal,
  ``stand_in``), or given back (``kind: "friend"``); only those two kinds trade places. The
  host's view, as ``state``. A seat made a friend's while its deal is played, that was not a
  friend's all that deal (a computer's own, or one standing in since an earlier deal), marks
  the deal undone (not counted, not rated): the page may read that seat's hand from then on.
  That seat then says so (``back``: the deal), and so does the deal's summary (``back``: those
  seats), for the summary's words.
- ``trick_winner`` [``rules``, ``trump``, ``cards``] -- which card takes a trick.
- ``card_points`` [``rules``] -- points of every card of the variant's deck.
- ``check_rules`` [``rules``] -- validate a set of options (new-game panel); the table is kept.
"""
from __future__ import annotations

import json
import re
import sys
from typing import TYPE_CHECKING, Any, Callable

from . import __version__
from .ai import BOTS, make_bot
from .actions import SIGNAL, SIGNAL_LOADED
from .ai.base import Bot
from .ai.reasons import public_reason
from .cards import CARDS, SUITS, Card, CardError, parse_cards
from .bounds import (MAX_BYTES, MAX_DEPTH, MAX_ITEMS, InputTooDeep, InputTooLarge,  # noqa: F401
                     JSONBoundsError, check_json)
from .args import check_seat as _check_seat, rules_arg as _rules_arg
from .errors import (BridgeError, BriscolaError, HiddenSeatError,  # noqa: F401 (BridgeError: the bridge's own)
                     IllegalActionError, RulesError, SaveError, quote)
from .game import check_seed, trick_winner
from .languages import languages
from .match import Match
from .protocol import as_dict as requests_table, where
from .record import DealNotOver, card_points_of, deal_record, deal_summary, load_record
from .rules import EDITION, OPTIONS, VARIANTS, Rules, find_variant

if TYPE_CHECKING:  # for the annotations only
    from .fairplay import FairRequests
    from .game import Game
    from .view import View

TABLE_FORMAT = "briscola/table"
TABLE_VERSION = 1
LEVELS = ("beginner", "intermediate", "expert")

# The requests that change the table (their replies carry ``changed: true`` and the save); every
# other request reads it only, and changes nothing. (The table of requests: briscola.protocol.)
CHANGES = where(by="bridge", changes=True)


class CannotUndo(BriscolaError):
    code = "cannot_undo"


class ReviewIncomplete(BriscolaError):
    code = "review_incomplete"





class Table:
    """A match and its seats: who is a person, which computer player sits where."""

    def __init__(self, match: Match, seats: list[dict]) -> None:
        self.match = match
        self.seats = seats
        self.bots: dict[int, Bot] = {}
        # Evaluated review decisions: (deal, seat) -> {index: result}. Not saved: a review
        # is recomputed identically after a reload.
        self.reviews: dict[tuple[int, int], dict[int, dict]] = {}
        for s, seat in enumerate(seats):
            if seat["kind"] == "bot":
                self.bots[s] = make_bot(seat["level"], seed=f"{match.seed}/bot{s}")

    @staticmethod
    def check_seats(seats: Any, players: int, saved: bool = False) -> list[dict]:
        """``seats`` checked, each made anew (nothing but its known keys). ``saved``: from a
        save, whose computer seats may say they stand in for a friend (``stand_in``: the deal
        in which the computer took the friend's seat, :meth:`Bridge.set_seat`); a new match's
        never do."""
        if seats is None:
            seats = [{"kind": "human"}] + [{"kind": "bot", "level": "intermediate"}] * (players - 1)
        if not isinstance(seats, list) or len(seats) != players:
            raise BridgeError(f"seats: expected a list of {players} seats")
        out = []
        for i, seat in enumerate(seats):
            if not isinstance(seat, dict) or seat.get("kind") not in ("human", "bot", "friend"):
                raise BridgeError(f"seats[{i}]: expected {{'kind': 'human'}}, {{'kind': 'friend'}} "
                                  "or {'kind': 'bot', 'level': ...}")
            if seat["kind"] == "bot":
                level = seat.get("level", "intermediate")
                if not isinstance(level, str) or (level not in BOTS and level not in LEVELS):
                    raise BridgeError(f"seats[{i}]: no computer player {quote(level)}; "
                                      f"levels: {', '.join(LEVELS)}")
                entry_: dict[str, Any] = {"kind": "bot", "level": level}
                since = seat.get("stand_in")
                if saved and isinstance(since, int) and not isinstance(since, bool) and since >= 0:
                    entry_["stand_in"] = since
                out.append(entry_)
            else:  # a person here, or a friend at their own device (js/friends/)
                name = seat.get("name")
                entry: dict[str, Any] = {"kind": seat["kind"]}
                if isinstance(name, str) and name.strip():
                    entry["name"] = name.strip()[:40]
                back = seat.get("back")  # a friend back mid-deal (Bridge.set_seat), in a save
                if saved and seat["kind"] == "friend" and isinstance(back, int) \
                        and not isinstance(back, bool) and back >= 0:
                    entry["back"] = back
                out.append(entry)
        return out

    def save(self) -> str:
        return json.dumps({"format": TABLE_FORMAT, "version": TABLE_VERSION,
                           "match": self.match.to_dict(), "seats": self.seats},
                          separators=(",", ":"))

    @classmethod
    def load(cls, text: Any) -> "Table":
        if not isinstance(text, str):
            raise SaveError("save: expected the text the page stored")
        try:
            data = json.loads(check_json(text))
        except JSONBoundsError as e:
            raise SaveError(f"save: {e}") from None
        except ValueError as e:
            raise SaveError(f"save: not valid JSON ({e})") from None
        if not isinstance(data, dict) or data.get("format") != TABLE_FORMAT:
            raise SaveError("save: not a saved Briscola table")
        if data.get("version") != TABLE_VERSION:
            raise SaveError(f"save: unsupported version {quote(data.get('version'))}")
        match = Match.from_dict(data.get("match"))
        try:
            seats = cls.check_seats(data.get("seats"), match.rules.players, saved=True)
        except BridgeError as e:
            raise SaveError(f"save: {e}") from None
        table = cls(match, seats)
        table._replay_bot_memory()
        return table

    def _replay_bot_memory(self) -> None:
        # Bots keep memory only within a deal and decide from views: resetting suffices.
        for bot in self.bots.values():
            bot.reset()

    def humans(self) -> list[int]:
        return [s for s, x in enumerate(self.seats) if x["kind"] == "human"]

    def may_see(self, seat: int) -> bool:
        """Whether the person at the device may see what ``seat`` knows, now.

        One person: their own seat(s). People sharing the device (hot-seat): only the seat
        whose turn it is, so no one sees another's hand between turns. A friend's seat
        (``kind: "friend"``, a person at another device): always, for the host's page, the
        referee, which sends each friend its own seat's view only. Once the deal is over,
        every seat. With no person seated (the computer plays itself) nothing is hidden from
        anyone, and with open hands nothing is hidden at all.
        """
        game = self.match.game
        humans = self.humans()
        if game.is_over or not humans or game.rules.open_hands:
            return True
        if self.seats[seat]["kind"] == "friend":
            return True  # the host's page sends it to that friend's device only
        if len(humans) == 1:
            return seat == humans[0]
        return seat == game.current_player and seat in humans

    def require_person(self, seat: Any, game: Game | None = None) -> int:
        """``seat`` checked, and one whose information the person may have; else an error.

        Every request that reveals what a seat knows (``state``, ``hint``, the coach's
        requests) goes through here: a human seat; in hot-seat the seat whose turn it is;
        any seat once the deal is over. ``game``: a deal of the match's history (the
        coach's review and replay); a finished one shows every seat.
        """
        checked = _check_seat(seat, self.match.game.n)
        if game is not None and game is not self.match.game and game.is_over:
            return checked
        if not self.may_see(checked):
            if self.seats[checked]["kind"] != "human":
                raise HiddenSeatError(f"seat {checked} is a computer player: its cards are "
                                      "hidden until the deal is over")
            raise HiddenSeatError(f"seat {checked}'s cards are hidden: it is not that seat's "
                                  "turn")
        return checked

    def state(self, seat: int | None = None, shared: dict | None = None) -> dict:
        """The table as ``seat`` sees it; the hand and what only that seat knows are left
        out (``view.hand_hidden``) when the person may not see them now (:meth:`may_see`).
        ``shared``: :meth:`_shared` if already made."""
        game = self.match.game
        if seat is None:
            cur = game.current_player
            humans = self.humans()
            seat = cur if cur in humans else (humans[0] if humans else 0)
        _check_seat(seat, game.n)
        return {"seat": seat, "view": self._view(seat), **(shared or self._shared())}

    def _view(self, seat: int) -> dict:
        game = self.match.game
        return game.view(seat).to_dict() if self.may_see(seat) else _blind(game, seat)

    def friends(self) -> list[int]:
        """The seats of friends at their own devices (``kind: "friend"``)."""
        return [s for s, x in enumerate(self.seats) if x["kind"] == "friend"]

    def travelling(self, seat: Any) -> dict:
        """What the page of the friend at ``seat`` may receive: the table as that seat sees it
        (``seat``, ``view``, ``seats``, ``match``, ``card_points``, ``order`` and, once the deal
        is over, ``summary`` and ``record``), nothing else (never a save, nor a computer's
        reasons)."""
        seat = _check_seat(seat, self.match.game.n)
        if self.seats[seat]["kind"] != "friend":
            raise BridgeError(f"seat {seat} is not a friend's: only a friend's view travels")
        return {"seat": seat, "view": self._view(seat), **self._shared()}

    def friend_views(self, shared: dict | None = None) -> dict[str, dict]:
        """Every friend seat's travelling view (:meth:`travelling`), by seat (as text: JSON's
        keys), the table's common part made once (``shared``: :meth:`_shared` if made)."""
        out = {}
        for s in self.friends():
            if shared is None:
                shared = self._shared()
            out[str(s)] = {"seat": s, "view": self._view(s), **shared}
        return out

    def _shared(self) -> dict:
        """The part of a state that is the same from every seat: the seats, the match, the
        deck's points, the ranks and, once the deal is over, its summary (and at a table with
        friends its public record, for each friend's own review)."""
        match = self.match
        game = match.game
        k = match.deal_number
        state: dict[str, Any] = {
            "seats": self.seats,
            "match": match.public(),
            "card_points": card_points_of(game.rules),
            "order": game.rules.tables.order,  # the ranks, strongest first (the auction's ladder)
        }
        if k in match.duplicates:
            state["match"]["duplicate"] = self._duplicate_info(k)
        if game.is_over:
            state["summary"] = deal_summary(game)
            state["summary"]["undone"] = k in match.undone
            # the friends who took their seat back from a computer during it (why it is undone)
            state["summary"]["back"] = [s for s, x in enumerate(self.seats) if x.get("back") == k]
            if self.friends():  # every card of it is public now: each friend reviews it itself
                state["record"] = deal_record(game, k, self.seats)
        return state

    def _duplicate_info(self, k: int) -> dict:
        """The duplicate deal ``k`` against the deal it replays: the person's side's points
        and the others' (``now`` is ``None`` until the duplicate is over)."""
        history = self.match.history()
        j = self.match.duplicates[k]
        humans = self.humans()
        person = humans[0] if humans else 0

        def points(game: Game) -> dict | None:
            o = game.outcome()
            if o is None:
                return None
            mine = next((i for i, side in enumerate(o.sides) if person in side), None)
            got = o.side_points[mine] if mine is not None else o.points[person]
            return {"person_points": got, "bot_points": sum(o.points) - got}

        return {"of_deal": j, "original": points(history[j]), "now": points(history[k])}


def _view_arg(args: dict) -> View:
    from .view import View as ViewClass
    if "view" not in args:
        raise BridgeError("view: expected a seat's view (its to_dict)")
    return ViewClass.from_dict(args["view"])


def _hint(view: View, step: int) -> dict:
    """The hint at ``view``'s turn: the best action, its reason and every legal card's value
    (``step``: the deal's plays so far, the seed of the expert's choice of a special action)."""
    from .ai.evaluate import card_plays, evaluate
    from .ai.explain import explain
    plays = card_plays(view)
    special = None
    if view.phase == "play":
        from .ai.common import special_action
        special = special_action(view)
    from .actions import CARICHI, action_text
    if not plays or special is not None:
        # An exchange or a signal: the coach's words for it; the auction and the call:
        # valued in game points like the review (the expert's own "a carichi" aside).
        if special is not None:
            from .ai.explain import explain_special
            action, why = special
            why = explain_special(view, action, why)
        else:
            from .ai.evaluate import bidding_actions, evaluate_bidding
            from .ai.explain import explain_bidding
            d = make_bot("expert", seed=f"hint/{step}").decide(view)
            action, why = d.action, d.reason
            if int(action) != CARICHI and bidding_actions(view):
                ev = evaluate_bidding(view)
                return {"action": action_text(ev.best), "reason": explain_bidding(view, ev),
                        "values": ev.to_list(), "unit": ev.unit}
        return {"action": action_text(int(action)),
                "reason": reason_data(why),
                "values": [], "unit": None}
    ev = evaluate(view)
    why = explain(view, ev)
    from .ai.chiamata.teach import play_notes
    # Chiamata: what the seat knows of the sides and its side's aim, said first; the moment
    # the called card shows the sides, said after
    why = play_notes(view, why)
    return {"action": str(CARDS[ev.best]), "reason": why,
            "values": ev.to_list(), "unit": ev.unit}


def reason_data(reason: Any) -> dict:
    """A bot's reason as ``{code, params}`` (a plain text reason, from a bot written
    elsewhere, travels as the ``text`` code)."""
    if isinstance(reason, dict):
        return reason
    return {"code": "text", "params": {"text": str(reason)}}


def _blind(game: Game, seat: int) -> dict:
    """What every seat knows, drawn from ``seat``: the table shown to everyone (hot-seat,
    between two people's turns), with the hand left out (``hand_hidden``).

    Built as the common part of all the seats' views, so that nothing one seat alone knows
    (its hand, its own draws, a partner's signal, being the secret partner) can be in it:
    a field every view agrees on is kept, one they differ on is reduced to what they share.
    """
    n = game.n
    views = [game.view(s).to_dict() for s in range(n)]
    for v in views:
        v["events"] = [e for e in v["events"] if e["type"] != "chiamata_private"]
    d = dict(views[seat])
    for key in d:
        values = [v.get(key) for v in views]
        if all(x == values[0] for x in values[1:]):
            continue
        d[key] = _common(key, values, n)
    d["seat"] = seat
    d["hand"] = []
    d["legal"] = []
    d["hand_hidden"] = True
    if d.get("side_of_seat") is not None and any(x == -1 for x in d["side_of_seat"]):
        d["sides"] = [[s for s in range(n) if d["side_of_seat"][s] == k] for k in (0, 1)]
    return d


def _common(key: str, values: list, n: int) -> Any:
    """What differing values of one view field share (see :func:`_blind`)."""
    if key == "known":
        return [[c for c in values[0][s] if all(c in v[s] for v in values)] for s in range(n)]
    if key == "hands_visible":
        return [all(v[s] for v in values) for s in range(n)]
    if key == "side_of_seat":
        return [values[0][s] if all(v[s] == values[0][s] for v in values) else -1
                for s in range(n)]
    if key == "events":
        return [_common_dict(list(es)) for es in zip(*values)]
    if isinstance(values[0], dict):
        return _common_dict(values)
    if isinstance(values[0], list):
        return []
    return None


def _common_dict(values: list) -> Any:
    """The fields the dicts ``values`` share (None where they differ); for values that are not
    dicts, the value they all have, else None."""
    first = values[0]
    if not isinstance(first, dict):
        return first if all(v == first for v in values) else None
    return {k: (x if all(isinstance(v, dict) and v.get(k) == x for v in values) else None)
            for k, x in first.items()}


def _lang_arg(args: dict) -> str:
    """A language the page speaks (js/locales/index.js lists them: briscola.languages); an
    engine without the page takes any language code."""
    lang = args.get("lang", "en")
    known = languages()
    if not isinstance(lang, str) or (lang not in known if known else not re.fullmatch(r"[a-z]{2,3}", lang)):
        raise BridgeError(f"lang: one of {', '.join(repr(x) for x in known) or 'the language codes'}, got {lang!r}")
    return lang


FAIR_REQUESTS = ("fair_deal", "fair_open", "fair_act", "fair_view", "fair_bot", "fair_check",
                 "fair_save", "fair_state")


class Bridge:
    """Dispatches requests; keeps the current table."""

    def __init__(self) -> None:
        self.table: Table | None = None
        # Finished deals of a friends table loaded from their records (review_load), by deal
        # number, and their evaluated review decisions: a friend's page reviews them with its
        # own engine. Apart from the table: a friend's worker may keep its own game too.
        self.records: dict[int, Game] = {}
        self.record_reviews: dict[tuple[int, int], dict[int, dict]] = {}
        self.handlers: dict[str, Callable[[dict], dict]] = {
            "ping": self.ping,
            "catalog": self.catalog,
            "requests": self.requests,
            "new_match": self.new_match,
            "load": self.load,
            "check_save": self.check_save,
            "state": self.state,
            "friend_view": self.friend_view,
            "act": self.act,
            "bot_step": self.bot_step,
            "hint": self.hint,
            "undo": self.undo,
            "tracker": self.tracker,
            "hint_view": self.hint_view,
            "tracker_view": self.tracker_view,
            "review_load": self.review_load,
            "review_plan": self.review_plan,
            "review_decision": self.review_decision,
            "review_retry": self.review_retry,
            "puzzle": self.puzzle,
            "puzzle_move": self.puzzle_move,
            "review_summary": self.review_summary,
            "replay": self.replay,
            "duplicate": self.duplicate,
            "rate": self.rate,
            "rating_levels": self.rating_levels,
            "history": self.history,
            "next_deal": self.next_deal,
            "set_seat": self.set_seat,
            "trick_winner": self.trick_winner,
            "card_points": self.card_points,
            "check_rules": self.check_rules,
            "model": self.model,
        }
        # A fair deal's engine (py/briscola/fairplay.py): apart from the table, imported by
        # the first fair request (the page's wheel carries it as source: tools/build/wheel.py)
        self._fair: FairRequests | None = None
        for kind in FAIR_REQUESTS:
            self.handlers[kind] = self._fair_handler(kind)

    def _fair_handler(self, kind: str) -> Callable[[dict], dict]:
        def handle(args: dict) -> dict:
            if self._fair is None:
                from .fairplay import FairRequests
                self._fair = FairRequests()
            return self._fair.handlers()[kind](args)  # (each a dict, as every handler's)
        return handle

    def _table(self) -> Table:
        if self.table is None:
            raise BridgeError("no game: start one with new_match or load")
        return self.table

    def requests(self, args: dict) -> dict:
        """The table of requests (:mod:`briscola.protocol`): ``{requests: {name: row},
        travelling}``; the worker reads it when it starts."""
        return requests_table()

    def ping(self, args: dict) -> dict:
        return {"version": __version__, "python": sys.version.split()[0]}

    def catalog(self, args: dict) -> dict:
        return {
            "variants": [{"name": n, "description": r.description, "rules": r.to_dict(),
                          "players": r.players, "deck": r.deck, "teams": r.is_team_game}
                         for n, r in VARIANTS.items()],
            "options": [{"name": o.name, "kind": o.kind.__name__,
                         "choices": None if o.choices is None else list(o.choices),
                         "default": Rules.__dataclass_fields__[o.name].default,
                         "help": o.help}
                        for o in OPTIONS.values()],
            "levels": list(LEVELS),
        }

    def new_match(self, args: dict) -> dict:
        rules = _rules_arg(args.get("rules", "classic"))
        seed = args.get("seed")
        if seed is not None:
            try:
                check_seed(seed)
            except RulesError as e:
                raise BridgeError(str(e)) from None
        seats = Table.check_seats(args.get("seats"), rules.players)
        previous = self.table.match if self.table is not None else None
        if seed is None and previous is not None and previous.rules.players == rules.players:
            # The same table plays on: the deal continues its rotation (docs/rules.md §4).
            # A chosen seed replays its deal exactly, the seed's dealer included.
            match = previous.rematch(rules, seed)
        else:
            match = Match(rules, seed)
        self.table = Table(match, seats)
        return self._reply(None)

    def load(self, args: dict) -> dict:
        self.table = Table.load(args.get("save"))
        return self._reply(args.get("seat"))

    def check_save(self, args: dict) -> dict:
        """A save read as ``load`` reads it, the table left as it was: the table it holds
        as its first person sees it (the worker's check of a save it is given to keep, a
        person's file of games; the page never receives this reply)."""
        return Table.load(args.get("save")).state(None)

    def state(self, args: dict) -> dict:
        seat = args.get("seat")
        if seat is not None:
            self._table().require_person(seat)
        save = args.get("save", False)
        if not isinstance(save, bool):
            raise BridgeError("save: expected true or false")
        return self._reply(seat, changed=False, save=save)

    def friend_view(self, args: dict) -> dict:
        return self._table().travelling(args.get("seat"))

    def act(self, args: dict) -> dict:
        table = self._table()
        game = table.match.game
        seat = _check_seat(args.get("seat"), game.n)
        if table.seats[seat]["kind"] == "bot":
            raise IllegalActionError(f"seat {seat} is a computer player")
        action = args.get("action")
        if not isinstance(action, str):
            raise BridgeError("action: expected text like 'AD'")
        viewer = _check_seat(args.get("viewer", seat), game.n)  # shown as state() shows it
        game.apply(action, seat=seat)
        return self._reply(viewer)

    def bot_step(self, args: dict) -> dict:
        if "lang" in args:
            _lang_arg(args)  # still checked; the page words the reason itself
        table = self._table()
        game = table.match.game
        viewer = args.get("seat")  # the seat the page shows: checked before anything moves
        if viewer is not None:
            _check_seat(viewer, game.n)
        seat = game.current_player
        if seat is None or seat not in table.bots:
            raise IllegalActionError("it is not a computer player's turn")
        explained = args.get("reasons", False)
        if not isinstance(explained, bool):
            raise BridgeError("reasons: expected true or false")
        view = game.view(seat)
        if explained:  # the reason drawn from the coach's evaluation (a search: only if shown)
            from .ai.explain import decide_explained
            decision = decide_explained(table.bots[seat], view)
        else:
            decision = table.bots[seat].decide(view)
        game.apply(decision.action, seat=seat)
        reply = self._reply(viewer)
        # The page is told the action and the reason as its seat may know them: a signal only
        # by the partner's side (the rule book's, docs/rules.md), a bid or a call without what
        # the bot's hand holds. The viewer is a seat the page speaks for: a person's here or a
        # friend's; a computer's seat, the bot's own or its partner's, is told what anyone is.
        seen = viewer is not None and table.seats[viewer]["kind"] != "bot" \
            and game.side_of(viewer) == game.side_of(seat)
        signal = SIGNAL <= int(decision.action) <= SIGNAL_LOADED
        reply["bot"] = {"seat": seat, "action": str(decision.action) if seen or not signal else "signal",
                        "reason": public_reason(reason_data(decision.reason), decision.action, seen)}
        return reply

    def hint(self, args: dict) -> dict:
        table = self._table()
        game = table.match.game
        seat = table.require_person(args.get("seat"))
        if game.current_player != seat:
            raise IllegalActionError(f"it is not seat {seat}'s turn")
        return _hint(game.view(seat), len(game.actions))

    def hint_view(self, args: dict) -> dict:
        """A hint from a seat's own view (``{view}``, as :meth:`View.to_dict` wrote it), with
        no table: a friend's page asks its own engine, from the view the host sent it, so
        the host's engine computes no friend's hint. Needs no table; changes nothing."""
        view = _view_arg(args)
        if not view.legal:
            raise IllegalActionError(f"it is not seat {view.seat}'s turn")
        return _hint(view, len(view.events))

    def tracker_view(self, args: dict) -> dict:
        """The card tracker from a seat's own view (``{view}``), as :meth:`hint_view`."""
        from .coach.tracker import track
        return track(_view_arg(args))

    def undo(self, args: dict) -> dict:
        table = self._table()
        match = table.match
        game = match.game
        seat = _check_seat(args.get("seat"), game.n)
        humans = table.humans()
        if len(humans) != 1 or any(x["kind"] == "friend" for x in table.seats):
            raise CannotUndo("undo is not offered when several people share the table")
        if seat != humans[0]:
            raise CannotUndo(f"seat {seat} is a computer player")
        if game.is_over:
            raise CannotUndo("the deal is over")
        g = game.replay(0)
        last = None
        for i, a in enumerate(game.actions):
            if g.current_player == seat:
                last = i
            g.apply_fast(a)
        if last is None:
            raise CannotUndo("nothing to undo in this deal")
        match.take_back(last)
        for bot in table.bots.values():
            bot.reset()
        table.reviews = {key: v for key, v in table.reviews.items()
                         if key[0] != match.deal_number}
        return self._reply(seat)

    def tracker(self, args: dict) -> dict:
        from .coach.tracker import track
        table = self._table()
        seat = table.require_person(args.get("seat"))
        return track(table.match.game.view(seat))

    def _deal_arg(self, args: dict) -> tuple[int, Game]:
        """The finished deal ``args["deal"]`` (by default the last): its number and game; with
        ``record: true``, the deal of that number loaded from its record (:meth:`review_load`)."""
        record = args.get("record", False)
        if not isinstance(record, bool):
            raise BridgeError("record: expected true or false")
        if record:
            k = args.get("deal")
            if not isinstance(k, int) or isinstance(k, bool) or k not in self.records:
                raise BridgeError(f"deal: no record of deal {quote(k)} is loaded (review_load first)")
            return k, self.records[k]
        table = self._table()
        history = table.match.history()
        k = args.get("deal")
        if k is None:
            k = len(history) - 1
        if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < len(history):
            raise BridgeError(f"deal: expected a deal from 0 to {len(history) - 1}, got {quote(k)}")
        if not history[k].is_over:
            raise DealNotOver(f"deal {k} is being played: its review opens once it is over")
        return k, history[k]

    def _review_args(self, args: dict) -> tuple[dict, int, Game, int, list[dict]]:
        """The deal reviewed and the seat: ``(cache, deal, game, seat, plan)``, ``cache`` the
        evaluated decisions kept for that deal and seat."""
        from .coach.review import plan
        k, game = self._deal_arg(args)
        if args.get("record"):  # a finished deal: every seat's decisions are public
            seat = _check_seat(args.get("seat"), game.n)
            cache = self.record_reviews.setdefault((k, seat), {})
        else:
            table = self._table()
            seat = table.require_person(args.get("seat"), game)
            cache = table.reviews.setdefault((k, seat), {})
        return cache, k, game, seat, plan(game, seat)

    def review_load(self, args: dict) -> dict:
        """A finished deal of a friends table from its public record (``{record}``, as the
        host's page sent it: :func:`briscola.record.deal_record`), checked and replayed
        through the rules (``bad_record`` otherwise, and nothing changes), kept for the
        review requests that say ``record: true``. Needs no table; the table is left as it is.
        Returns ``{deal, seats, steps}``."""
        deal, game, seats = load_record(args.get("record"))
        old = self.records.get(deal)
        if old is None or old.deck != game.deck or old.actions != game.actions \
                or old.rules != game.rules or old.dealer != game.dealer:
            self.record_reviews = {key: v for key, v in self.record_reviews.items()
                                   if key[0] != deal}
            self.records[deal] = game
            while len(self.records) > 8:  # a friend reviews the deals just over: the last few
                first = min(self.records)
                del self.records[first]
                self.record_reviews = {key: v for key, v in self.record_reviews.items()
                                       if key[0] != first}
        return {"deal": deal, "seats": seats, "steps": len(game.actions)}

    def review_plan(self, args: dict) -> dict:
        _cache, k, _game, seat, decisions = self._review_args(args)
        return {"deal": k, "seat": seat, "count": len(decisions), "decisions": decisions}

    def review_decision(self, args: dict) -> dict:
        from .coach.review import decision
        cache, k, game, seat, decisions = self._review_args(args)
        i = args.get("index")
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(decisions):
            raise BridgeError(f"index: expected a decision from 0 to {len(decisions) - 1}, "
                              f"got {quote(i)}")
        got = cache.get(i)
        d = decisions[i]
        if got is None or got["action"] != d["action"]:
            got = decision(game, seat, d["step"])
            got.update(index=i, step=d["step"], trick=d["trick"], phase=d["phase"])
            cache[i] = got
        return got

    def review_retry(self, args: dict) -> dict:
        """Another card tried at a reviewed card play (``{deal, seat, index, action}``): its
        label, loss and, once good enough, the reason (:func:`briscola.coach.review.retry`)."""
        from .coach.review import retry
        _cache, _k, game, seat, decisions = self._review_args(args)
        i = args.get("index")
        if not isinstance(i, int) or isinstance(i, bool) or not 0 <= i < len(decisions):
            raise BridgeError(f"index: expected a decision from 0 to {len(decisions) - 1}, "
                              f"got {quote(i)}")
        d = decisions[i]
        action = args.get("action")
        if d["phase"] != "play" or not isinstance(action, str):
            raise BridgeError("review_retry: a card play and a card (\"AD\") are expected")
        try:
            card = int(Card.parse(action))
            return retry(game, seat, d["step"], card)
        except ValueError as e:
            raise BridgeError(f"review_retry: {e}") from None

    def puzzle(self, args: dict) -> dict:
        """The puzzle of a day (``{date: "YYYY-MM-DD"}``), the same for everyone: the position,
        the other player's cards, the plays and the points at stake
        (:func:`briscola.coach.puzzle.puzzle`). Needs no table."""
        from .coach.puzzle import puzzle
        try:
            return puzzle(args.get("date"))
        except ValueError as e:
            raise BridgeError(f"puzzle: {e}") from None

    def puzzle_move(self, args: dict) -> dict:
        """The player's cards so far in a day's puzzle (``{date, moves: ["AD", ...]}``), each
        checked against the exact values (:func:`briscola.coach.puzzle.move`)."""
        from .coach.puzzle import move
        try:
            return move(args.get("date"), args.get("moves"))
        except ValueError as e:
            raise BridgeError(f"puzzle_move: {e}") from None

    def review_summary(self, args: dict) -> dict:
        from .coach.review import summary
        cache, k, _game, seat, decisions = self._review_args(args)
        missing = [d["index"] for d in decisions if d["index"] not in cache
                   or cache[d["index"]]["action"] != d["action"]]
        if missing:
            raise ReviewIncomplete(f"{len(missing)} of {len(decisions)} decisions are not "
                                   f"evaluated yet (first: {missing[0]})")
        out = {"deal": k, "seat": seat, "count": len(decisions)}
        out.update(summary([cache[d["index"]] for d in decisions]))
        return out

    def replay(self, args: dict) -> dict:
        k, game = self._deal_arg(args)
        if args.get("record"):
            seat = _check_seat(args.get("seat"), game.n)
        else:
            seat = self._table().require_person(args.get("seat"), game)
        steps = len(game.actions)
        step = args.get("step", steps)
        if not isinstance(step, int) or isinstance(step, bool) or not 0 <= step <= steps:
            raise BridgeError(f"step: expected 0 to {steps}, got {quote(step)}")
        all_hands = args.get("all_hands", False)
        if not isinstance(all_hands, bool):
            raise BridgeError("all_hands: expected true or false")
        g = game.replay(step)
        out = {"deal": k, "step": step, "steps": steps, "view": g.view(seat).to_dict()}
        if all_hands:
            out["hands"] = [[str(CARDS[c]) for c in h] for h in g.hands]
        return out

    def duplicate(self, args: dict) -> dict:
        table = self._table()
        table.match.duplicate()
        for bot in table.bots.values():
            bot.reset()
        return self._reply(args.get("seat"))

    def rate(self, args: dict) -> dict:
        from .coach.rating import LEVELS as RATED, update
        level = args.get("level")
        if not isinstance(level, str) or level not in RATED:
            raise BridgeError(f"level: one of {', '.join(RATED)}")
        try:
            rating = update(args.get("rating"), level, args.get("score"))
        except ValueError as e:
            raise BridgeError(str(e)) from None
        return {"rating": rating, "levels": dict(RATED)}

    def history(self, args: dict) -> dict:
        """The match's deals, duplicates included (the indices ``review_plan`` takes): each
        ``{deal, over, duplicate_of, undone, outcome}`` (``outcome`` once over, else null)."""
        match = self._table().match
        out = []
        for k, game in enumerate(match.history()):
            o = game.outcome() if game.is_over else None
            out.append({"deal": k, "over": game.is_over, "duplicate_of": match.duplicates.get(k),
                        "undone": k in match.undone,
                        "outcome": None if o is None else o.to_dict()})
        return {"deals": out, "current": match.deal_number}

    def rating_levels(self, args: dict) -> dict:
        from .coach.rating import INITIAL, LEVELS
        return {"levels": dict(LEVELS), "initial": INITIAL}

    def next_deal(self, args: dict) -> dict:
        table = self._table()
        table.match.next_deal()
        for bot in table.bots.values():
            bot.reset()
        return self._reply(args.get("seat"))

    def set_seat(self, args: dict) -> dict:
        """A friend's seat taken by a computer while the friend is away (``kind: "bot"``; the
        seat then says since which deal it stands in, ``stand_in``), or given back (``kind:
        "friend"``). The host's page may read a friend's seat: a computer's seat made a
        friend's while its deal is played would show that computer's hand. So a seat given
        to a friend mid-deal that was not a friend's seat all this deal (a computer's own, or
        one standing in since an earlier deal) marks the deal undone, as an undo does: not
        counted in the statistics, not rated (the summary says so). A friend back in the deal
        it left changes nothing."""
        table = self._table()
        match = table.match
        seat = _check_seat(args.get("seat"), match.game.n)
        kind = args.get("kind")
        old = table.seats[seat]
        name = old.get("name")
        if old["kind"] not in ("friend", "bot") or kind not in ("friend", "bot"):
            raise BridgeError("set_seat: only a friend's seat and a computer player's trade places")
        entry = {"kind": kind, "level": args.get("level", "intermediate")} if kind == "bot" else {
            "kind": kind, "name": args.get("name", name)}
        entry = Table.check_seats([entry], 1)[0]
        k = match.deal_number
        if kind == "bot":
            since = k if old["kind"] == "friend" else old.get("stand_in")
            if since is not None:
                entry["stand_in"] = since
            table.bots[seat] = make_bot(entry["level"], seed=f"{match.seed}/bot{seat}")
        else:
            if old["kind"] == "bot" and old.get("stand_in") != k and not match.game.is_over:
                match.undone.add(k)  # the page may read a hand it could not before
                entry["back"] = k  # why, for the summary: back in a deal a computer played
            table.bots.pop(seat, None)
        table.seats[seat] = entry
        return self._reply(None)

    def trick_winner(self, args: dict) -> dict:
        rules = _rules_arg(args.get("rules", "classic"))
        trump = args.get("trump")
        if trump is not None and (not isinstance(trump, str) or len(trump) != 1 or trump not in SUITS):
            raise BridgeError(f"trump: one of {' '.join(SUITS)} or null")
        cards_arg = args.get("cards")
        if not isinstance(cards_arg, list) or not cards_arg:
            raise BridgeError("cards: expected a non-empty list like ['AD', '3S']")
        cards = parse_cards(cards_arg)
        for c in cards:
            if c not in rules.tables.deck:
                raise BridgeError(f"{c} is not in this variant's deck")
        i = trick_winner([int(c) for c in cards], None if trump is None else SUITS.index(trump),
                         rules)
        return {"index": i, "card": str(cards[i]),
                "points": sum(rules.tables.points[c] for c in cards)}

    def check_rules(self, args: dict) -> dict:
        """Validate ``rules`` without touching the table (the new-game panel)."""
        rules = _rules_arg(args.get("rules", "classic"))
        t = rules.tables
        return {"rules": rules.to_dict(), "players": rules.players, "deck": rules.deck,
                "teams": rules.is_team_game, "sides": [list(s) for s in t.teams or ()],
                "hand_size": rules.hand_size, "deck_size": len(t.deck),
                # what a table that deals fairly checks after the deal (the lobby says so)
                "hand_checks": list(rules.hand_checks)}

    def model(self, args: dict) -> dict:
        """The learned evaluation the expert searches with under ``rules`` (a variant's name or
        its options; without them, the table's): ``name`` (null: none fits), ``installed``
        (whether the engine has it: the page's worker installs one the engine's wheel leaves
        out, :func:`briscola.ai.learn.install`, before such a game plays), and ``searched``,
        per seat, how each computer player's last decision was made (``learned``,
        ``sampled``, ``heuristic``, ...; null for a person or before its first decision)."""
        from .ai.learn import load, model_name
        if "rules" in args:
            rules, bots = _rules_arg(args["rules"]), {}
        else:
            table = self._table()
            rules, bots = table.match.rules, table.bots
        name = model_name(rules)
        side = "chiamata" if rules.mode == "chiamata" else "classic"  # a level's two players
        searched = [(getattr(getattr(bots.get(s), side, None), "last_info", None) or {}).get("mode")
                    for s in range(rules.players)]
        return {"name": name, "installed": name is not None and load(name) is not None,
                "searched": searched}

    def card_points(self, args: dict) -> dict:
        rules = _rules_arg(args.get("rules", "classic"))
        t = rules.tables
        return {"points": {str(c): t.points[c] for c in t.deck},
                "order": t.order, "total": t.total_points}

    def _reply(self, seat: Any, changed: bool = True, save: bool = False) -> dict:
        """The table as ``seat`` sees it; after a change (``changed``), with the save and every
        friend seat's view (``views``); after a read, the save only if asked (``save``)."""
        table = self._table()
        if seat is not None:
            _check_seat(seat, table.match.rules.players)
        shared = table._shared()
        state = table.state(seat, shared)
        state["changed"] = changed
        if changed or save:
            state["save"] = table.save()
        if changed and table.friends():
            state["views"] = table.friend_views(shared)
        return state

    def handle(self, kind: str, args: Any) -> dict:
        if not isinstance(kind, str) or kind not in self.handlers:
            raise BridgeError(f"unknown request {quote(kind)}; known: {', '.join(self.handlers)}")
        if args is None:
            args = {}
        if not isinstance(args, dict):
            raise BridgeError("args: expected an object")
        # A read changes nothing; a change that fails is undone (load and new_match replace
        # the table only once they succeed).
        keep = kind in CHANGES and kind not in ("load", "new_match")
        before = self.table.save() if keep and self.table is not None else None
        try:
            return self.handlers[kind](args)
        except BaseException:
            # Nothing a bad request did may stick: restore the table as it was.
            if before is not None and self.table is not None:
                if self.table.save() != before:
                    self.table = Table.load(before)
            raise


_BRIDGE = Bridge()


# The catalog's reply never changes: made once (by prepare(), so a start restored from the
# worker's snapshot has it), it is the page's first request on every start.
_CATALOG_TEXT: str | None = None


def call(kind: str, args_json: str = "{}") -> str:
    """Handle one request; always returns JSON text, never raises."""
    global _CATALOG_TEXT
    try:
        try:
            args = json.loads(check_json(args_json)) if args_json else {}
        except JSONBoundsError:
            raise
        except (TypeError, ValueError) as e:
            raise BridgeError(f"args: not valid JSON ({e})") from None
        if kind == "catalog" and _CATALOG_TEXT is not None and isinstance(args, dict):
            return _CATALOG_TEXT
        result = _BRIDGE.handle(kind, args)
        text = json.dumps({"result": result}, separators=(",", ":"))
        if kind == "catalog":
            _CATALOG_TEXT = text
        return text
    except BriscolaError as e:  # a refused request, by its code (and what else it says)
        return json.dumps({"error": {**e.to_dict(), "message": _short(str(e))}})
    except CardError as e:
        return json.dumps({"error": {"code": e.code, "message": _short(str(e))}})
    except Exception as e:  # a bug: still an answer, never a dead worker
        return json.dumps({"error": {"code": "internal",
                                     "message": _short(f"{type(e).__name__}: {e}")}})


MAX_MESSAGE = 400


def _short(message: str) -> str:
    """An error's message, at most ``MAX_MESSAGE`` characters: each message quotes what it
    refuses by a short prefix (:func:`briscola.errors.quote`); this is the last guard."""
    return message if len(message) <= MAX_MESSAGE else message[:MAX_MESSAGE] + "…"


def prepare() -> None:
    """Import now what a first deal would import (the bots), and deal one on a throwaway table
    (the table of this module is left as it was): the page's worker calls this before it
    keeps a memory snapshot of the engine, so that a start restored from the snapshot deals
    its first deal without importing anything, with the interpreter's caches of that path
    (specialised bytecode, the rules' tables) already warm."""
    from . import ai
    ai.load_all()
    call("catalog", "{}")  # kept as text (_CATALOG_TEXT)
    spare = Bridge()
    spare.handle("check_rules", {"rules": {"name": "classic"}})
    json.dumps(spare.handle("new_match", {"rules": {"name": "classic"}, "seed": 1, "seats": [
        {"kind": "human"}, {"kind": "bot", "level": "intermediate"}]}), separators=(",", ":"))


def reset() -> None:
    """Forget the table (tests)."""
    global _BRIDGE
    _BRIDGE = Bridge()
