"""The engine's requests, one table: who answers each, whether it changes the table, which seat
it speaks for, and what becomes of it at a table with friends.

The bridge (:mod:`briscola.bridge`) answers the requests ``by: "bridge"``, the page's worker
(js/worker.js) its own (``by: "worker"``: the store of games). The worker reads this table from
the bridge (the ``requests`` request) when it starts; the page's modules read it as
js/requests.js, written from here (``python3 -m briscola.protocol > js/requests.js``;
tests/test_map.py fails when the two differ). The friends layer's referee (js/friends/referee.js)
takes from it what a friend may ask the host. A new request is a row here, its handler, and
its example in tests/test_protocol.py, whose property test runs every request for every kind
of seat and finds no card in a reply that the asking seat may not see.

Each row:

- ``by``: ``"bridge"`` or ``"worker"``.
- ``changes``: it changes the table: the reply says ``changed: true`` and carries the save (the
  worker keeps it, the page never sees it); every other request reads only.
- ``table``: it needs a table (a game started or loaded); without, the bridge answers it alone.
- ``seat``: what its ``seat`` is. ``"person"``: a seat whose view the person at the page may
  read (the bridge's ``Table.require_person``: a person's, a friend's, any once the deal is
  over; ``hidden_seat`` otherwise); ``"actor"``: the seat that acts (a person's or a friend's,
  never a computer's); ``"viewer"``: the seat the reply is drawn for (a seat the page may not
  read gets the table with the hand left out); ``"record"``: any seat of a finished deal's
  public record; ``"none"``: no seat.
- ``searches``: it may search with a learned model: the worker waits for one being installed.
- ``moves``: the play loop's request that moves the table on (js/seam.js ``MOVES``).
- ``friend``: on a friend's page at a table with friends: ``"host"`` (asked of the host's page,
  for its own seat), ``"own"`` (its own engine answers: no table needed), ``"review"`` (its own
  engine, from the finished deal's record), ``"refused"`` (``friends_host_only``; ``why``).
- ``referee``: the host's referee, for a friend's message: ``"asks"`` (the host's worker is asked
  for the friend's own seat; the reply travels cut to ``TRAVELLING``), ``"not_offered"`` (a
  friend's page answers it with its own engine: refused without the worker), ``"refused"``.
"""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass

BY = ("bridge", "worker")
SEATS = ("person", "actor", "viewer", "record", "none")
FRIEND = ("host", "own", "review", "refused")
REFEREE = ("asks", "not_offered", "refused")


@dataclass(frozen=True)
class Request:
    by: str = "bridge"
    changes: bool = False
    table: bool = True
    seat: str = "none"
    searches: bool = False
    moves: bool = False
    friend: str = "refused"
    referee: str = "refused"
    why: str = ""

    def __post_init__(self) -> None:
        assert self.by in BY and self.seat in SEATS and self.friend in FRIEND \
            and self.referee in REFEREE, self
        assert (self.friend == "refused") == bool(self.why), self


_OWN = Request(table=False, friend="own")
_REVIEW = Request(seat="person", friend="review", referee="not_offered")
_FAIR = Request(table=False, friend="own")

REQUESTS: dict[str, Request] = {
    "ping": _OWN,
    "catalog": _OWN,
    "requests": Request(table=False, why="the worker's own, read when it starts"),
    "new_match": Request(changes=True, table=False, seat="viewer",
                         why="another game: the page leaves the table with friends first"),
    "load": Request(changes=True, table=False, seat="viewer",
                    why="the worker refuses it anyway (it keeps the saves)"),
    "state": Request(seat="person", friend="host", referee="asks"),
    "friend_view": Request(seat="person", why="the host's own: what travels to a friend's seat"),
    "act": Request(changes=True, seat="actor", moves=True, friend="host", referee="asks"),
    "bot_step": Request(changes=True, seat="viewer", searches=True, moves=True,
                        why="the computers play in the host's worker"),
    "hint": Request(seat="person", searches=True, referee="not_offered",
                    why="the host's referee refuses it: a friend's page asks its own engine "
                        "(hint_view)"),
    "undo": Request(changes=True, seat="person", why="no undo at a table with friends"),
    "tracker": Request(seat="person", referee="not_offered",
                       why="as the hint: tracker_view on the friend's own engine"),
    "hint_view": _OWN,
    "tracker_view": _OWN,
    "review_load": _OWN,
    "review_plan": _REVIEW,
    "review_decision": Request(seat="person", searches=True, friend="review", referee="not_offered"),
    "review_retry": Request(seat="person", searches=True, friend="review", referee="not_offered"),
    "review_summary": _REVIEW,
    "replay": _REVIEW,
    "puzzle": _OWN,
    "puzzle_move": _OWN,
    "duplicate": Request(changes=True, seat="viewer",
                         why="no duplicate deal at a table with friends"),
    "rate": _OWN,
    "rating_levels": _OWN,
    "history": Request(why="the match's deals are the host's (a friend reviews the deal just over)"),
    "next_deal": Request(changes=True, seat="viewer", moves=True, why="the host deals it"),
    "set_seat": Request(changes=True, seat="viewer", why="the host's own: who plays a friend's seat"),
    "trick_winner": _OWN,
    "card_points": _OWN,
    "check_rules": _OWN,
    "model": Request(why="the worker's own, before a search"),
    # a fair deal's engine (py/briscola/fairplay.py): each device's own, for its own seats
    "fair_deal": _FAIR, "fair_open": _FAIR, "fair_act": _FAIR, "fair_view": _FAIR,
    "fair_bot": Request(table=False, searches=True, friend="own"),
    "fair_check": _FAIR,
    "fair_save": _FAIR, "fair_state": _FAIR,
    # the worker's own: its store of games (js/worker.js, js/worker/games.js)
    "games": Request(by="worker", table=False, friend="own"),
    "resume": Request(by="worker", changes=True, table=False, seat="viewer",
                      why="another game: the page leaves the table with friends first"),
    "import_save": Request(by="worker", changes=True, table=False, seat="viewer",
                           why="another game: the page leaves the table with friends first"),
    "set_meta": Request(by="worker", friend="own"),
    # a person's data carried (js/data.js, js/worker/carry.js): away from a table with friends
    "check_save": Request(table=False, why="the worker's own, for an import's games (data_stage); never the page's"),
    "data_export": Request(by="worker", table=False, why="a person's data: exported away from a table with friends"),
    "data_stage": Request(by="worker", table=False, why="a person's data: imported away from a table with friends"),
    "data_commit": Request(by="worker", table=False, why="a person's data: imported away from a table with friends"),
    "data_cancel": Request(by="worker", table=False, why="a person's data: imported away from a table with friends"),
    "aside_list": Request(by="worker", table=False, why="the records set aside: Settings, away from a table with friends"),
    "aside_get": Request(by="worker", table=False, why="the records set aside: Settings, away from a table with friends"),
    "aside_remove": Request(by="worker", table=False, why="the records set aside: Settings, away from a table with friends"),
}

# What of a reply leaves the host's page for a friend's (js/friends/referee.js `travelling`):
# the table as its seat sees it, which game of the table (``round``, the host's page's), once
# the deal is over its public record; never a save.
TRAVELLING = ("seat", "view", "seats", "match", "card_points", "order", "summary", "round",
              "record")


def where(**facts: object) -> frozenset[str]:
    """The requests whose rows have these facts (``where(changes=True)``)."""
    return frozenset(k for k, r in REQUESTS.items()
                     if all(getattr(r, f) == v for f, v in facts.items()))


def as_dict() -> dict:
    """The table as JSON data: ``{requests: {name: row}, travelling}``."""
    return {"requests": {k: asdict(r) for k, r in REQUESTS.items()}, "travelling": list(TRAVELLING)}


def js_module() -> str:
    """js/requests.js: the table for the page's modules."""
    rows = ",\n".join(f"  {json.dumps(k)}: Object.freeze({json.dumps(asdict(r))})"
                      for k, r in REQUESTS.items())
    return (
        "// The engine's requests, one table, written from py/briscola/protocol.py (which says what\n"
        "// each fact means) by `python3 -m briscola.protocol > js/requests.js`: never edited by\n"
        "// hand (tests/test_map.py fails when the two differ).\n\n"
        f"export const REQUESTS = Object.freeze({{\n{rows},\n}});\n\n"
        f"export const TRAVELLING = Object.freeze({json.dumps(list(TRAVELLING))});\n\n"
        "/** The requests whose row has `fact` equal to `value`: where(\"referee\", \"asks\"). */\n"
        "export function where(fact, value) {\n"
        "  return new Set(Object.keys(REQUESTS).filter((k) => REQUESTS[k][fact] === value));\n"
        "}\n")


if __name__ == "__main__":
    import sys
    sys.stdout.write(js_module())
