"""The one table of requests (briscola.protocol), and its property: for every request in it and
every kind of seat (the person at the host's page, a friend, a computer) in every family of
variants (two players, four in teams with and without signals, Chiamata, double Briskula, two
people sharing the device), no reply gives a card the asking page may not see.

The host's page may see what its person's seat and its friends' seats know (it sends each
friend its own view only); a friend's page, through the referee, what its own seat knows.
What a seat knows is computed apart from the view code (tests/test_simulation.py
``may_know``). A request that needs no table must answer the same with a table or without.
A computer's seat made a friend's mid-deal must mark the deal undone (tests/test_bridge.py).
"""
from __future__ import annotations

import json

import pytest

from briscola import bridge, protocol
from briscola.bridge import Bridge, Table
from briscola.cards import CARDS
from test_simulation import cards_in, may_know

BOT = {"kind": "bot", "level": "random"}
HUMAN = {"kind": "human"}
FRIEND = {"kind": "friend", "name": "Bruno"}

# (rules, seats): the host's person at seat 0, friends and computers around it
TABLES = [
    ("best-of-3", [HUMAN, BOT]),
    ("classic", [HUMAN, FRIEND]),
    ({"name": "four", "signals": True}, [HUMAN, BOT, FRIEND, BOT]),
    ({"name": "four", "signals": True}, [HUMAN, BOT, BOT, BOT]),
    ("chiamata", [HUMAN, BOT, FRIEND, BOT, BOT]),
    ("double", [HUMAN, BOT]),
    ("classic", [HUMAN, HUMAN]),  # two people sharing the device
]
DATE = "2026-03-01"


def examples(game, s):
    """Every request's args, for seat ``s`` of ``game`` (a list per request: each is asked).
    A request without examples fails test_every_request_has_examples."""
    n = game.n
    hand = [str(CARDS[c]) for c in game.hands[s]]
    legal = [str(a) for a in game.legal_actions()] if game.current_player == s else hand[:1]
    view = game.view(s).to_dict()
    k = bridge._BRIDGE.table.match.deal_number
    return {
        "ping": [{}], "catalog": [{}], "requests": [{}],
        "new_match": [{"rules": "classic", "seed": 9, "seats": [HUMAN, BOT]}],
        "load": [{"save": bridge._BRIDGE.table.save()}],
        "check_save": [{"save": bridge._BRIDGE.table.save()}],
        "state": [{"seat": s}],
        "friend_view": [{"seat": s}],
        "act": [{"seat": s, "action": a, **({} if v is None else {"viewer": v})}
                for a in legal[:2] for v in (None, 0, n - 1)],
        "bot_step": [{"seat": s}, {"seat": s, "reasons": True}],
        "hint": [{"seat": s}],
        "undo": [{"seat": s}],
        "tracker": [{"seat": s}],
        "hint_view": [{"view": view}], "tracker_view": [{"view": view}],
        "review_load": [{"record": None}],
        "review_plan": [{"seat": s, "deal": d} for d in range(k + 1)],
        "review_decision": [{"seat": s, "deal": d, "index": 0} for d in range(k + 1)],
        "review_retry": [{"seat": s, "deal": d, "index": 0, "action": h} for d in range(k + 1)
                         for h in hand[:1]],
        "review_summary": [{"seat": s, "deal": d} for d in range(k + 1)],
        "replay": [{"seat": s, "deal": d, "step": 0, "all_hands": True} for d in range(k + 1)],
        "puzzle": [{"date": DATE}], "puzzle_move": [{"date": DATE, "moves": []}],
        "duplicate": [{"seat": s}],
        "rate": [{"rating": 1500, "level": "intermediate", "score": 1}],
        "rating_levels": [{}], "history": [{}],
        "next_deal": [{"seat": s}],
        "set_seat": [{"seat": s, "kind": "friend"}, {"seat": s, "kind": "bot", "level": "random"}],
        "trick_winner": [{"rules": "classic", "trump": "D", "cards": ["AD", "3D"]}],
        "card_points": [{}], "check_rules": [{}], "model": [{}],
        # a fair deal's engine, apart from the table: tests/test_masked.py asks these
        "fair_deal": [{"rules": "classic", "dealer": 0, "sees": [s % 2], "bots": []}],
        "fair_open": [{"cards": [[6, "AD"]]}], "fair_act": [{"seat": s, "action": a} for a in legal[:1]],
        "fair_view": [{"seat": s}], "fair_bot": [{"seat": s}], "fair_check": [{}],
        "fair_save": [{}], "fair_state": [{"seat": s}],
    }


def readable(table):
    """The seats the host's page may read now: its person's and its friends'; of people
    sharing the device, the one whose turn it is only; with no person seated, every seat."""
    humans = [s for s, x in enumerate(table.seats) if x["kind"] == "human"]
    friends = [s for s, x in enumerate(table.seats) if x["kind"] == "friend"]
    if not humans:
        return list(range(len(table.seats)))
    turn = table.match.game.current_player
    return (humans if len(humans) == 1 else [s for s in humans if s == turn]) + friends


def allowed(game, seats):
    if game.is_over:
        return set(CARDS[c] for c in game.deck)
    out = set()
    for s in seats:
        out |= may_know(game, s)
    return out


def shown(reply):
    """The cards a reply names, less the tracker's cards whose place is unknown (``unseen``,
    ``trumps_out``: checked apart, in check()) and the deck's points table."""
    reply = {k: v for k, v in reply.items()
             if k not in ("save", "card_points", "unseen", "trumps_out")}
    return cards_in(reply, set())


def check(kind, args, got, before_kinds, deal_over_before):
    """The reply to the host's page against what it may see, after the request."""
    if "result" not in got:
        return
    reply = got["result"]
    table = bridge._BRIDGE.table
    if isinstance(reply, dict) and isinstance(args.get("deal"), int) \
            and args["deal"] != table.match.deal_number:
        game = table.match.history()[args["deal"]]
        assert game.is_over, (kind, args)  # a deal of the history: over, all of it public
        return
    game = table.match.game
    seats = readable(table)
    leaked = shown(reply) - allowed(game, seats)
    assert not leaked, (kind, args, sorted(map(str, leaked)))
    if isinstance(reply, dict) and "unseen" in reply:  # every hidden card is still out
        unseen = {c for cards in reply["unseen"].values() for c in cards_in(cards, set())}
        hidden = set(CARDS[c] for c in game.deck) - allowed(game, seats)
        assert hidden <= unseen, (kind, args)
        trump = game.trump_suit
        assert {c for c in hidden if c.suit == trump} <= set(cards_in(reply["trumps_out"], set()))
    bot = reply.get("bot") if isinstance(reply, dict) else None
    if bot and str(bot["action"]).startswith("signal-"):  # a signal for its partners only
        viewer = args.get("seat")
        assert viewer in seats and game.side_of(viewer) == game.side_of(bot["seat"]), (args, bot)
    newly = [s for s in seats if before_kinds[s] == "bot"]
    if newly and not deal_over_before:
        assert table.match.deal_number in table.match.undone, (kind, args, newly)


def friend_check(kind, args, got, seat):
    """What the referee sends a friend at ``seat``: the reply's `travelling` part of its view."""
    if "result" not in got:
        return
    reply = got["result"]
    mine = reply.get("views", {}).get(str(seat)) if kind == "act" else reply
    travelling = {k: v for k, v in (mine or {}).items() if k in protocol.TRAVELLING}
    game = bridge._BRIDGE.table.match.game
    leaked = shown(travelling) - allowed(game, [seat])
    assert not leaked, (kind, args, sorted(map(str, leaked)))


def points_of(rules, seats, seed):
    """The table at the start, a few plays in, (with signals) just before a computer signals,
    and (a match of deals) the next deal begun."""
    bridge.reset()
    st = json.loads(bridge.call("new_match", json.dumps({"rules": rules, "seed": seed, "seats": seats})))
    assert "result" in st, st
    table = bridge._BRIDGE.table
    yield table.save()
    game = table.match.game
    for _ in range(3 * game.n + 1):
        if game.is_over:
            break
        game.apply(game.legal_actions()[0])
    yield table.save()
    # a computer about to signal (in the first deal of four computers and a person, seed 3:
    # a signal there was named to a computer's seat, `bot_step {seat: 2}`, before)
    if isinstance(rules, dict) and rules.get("signals"):
        while not game.is_over:  # each step from the save, as the test asks it (fresh bots)
            yielded = table.save()
            bridge._BRIDGE.table = table = Table.load(yielded)
            game = table.match.game
            turn = game.current_player
            if table.seats[turn]["kind"] != "bot":
                game.apply(game.legal_actions()[0])
                continue
            if ask("bot_step", {})["result"]["bot"]["action"].startswith("signal"):
                yield yielded
                break
    if rules == "best-of-3":
        while not game.is_over:
            game.apply(game.legal_actions()[0])
        yield table.save()
        table.match.next_deal()
        table._replay_bot_memory()
        yield table.save()


def ask(kind, args):
    return json.loads(bridge.call(kind, json.dumps(args)))


def test_every_request_has_examples():
    bridge.reset()
    bridge.call("new_match", json.dumps({"rules": "classic", "seed": 1, "seats": [HUMAN, BOT]}))
    have = set(examples(bridge._BRIDGE.table.match.game, 0))
    assert have == protocol.where(by="bridge"), sorted(have ^ protocol.where(by="bridge"))
    # the worker's own requests answer from the bridge's: resume and import_save as `load`
    # (js/worker.js openRecord), games and set_meta with no card (the list's info, a storage word);
    # a person's data (js/worker/carry.js) is refused at a table with friends, and carries the
    # person's own saves from their own browser
    assert protocol.where(by="worker") == {"games", "resume", "import_save", "set_meta", "data_export", "data_stage",
                                           "data_commit", "data_cancel", "aside_list", "aside_get", "aside_remove"}
    assert protocol.where(by="worker", friend="refused") >= {"data_export", "data_stage", "aside_list"}


@pytest.mark.parametrize("rules, seats", TABLES, ids=[json.dumps(r) for r, _ in TABLES])
def test_no_reply_gives_a_card_the_asking_page_may_not_see(rules, seats):
    tableless = {k for k, r in protocol.REQUESTS.items()
                 if r.by == "bridge" and not r.table and not r.changes}
    asked = 0
    for save in points_of(rules, seats, seed=3):
        bridge._BRIDGE.table = Table.load(save)
        game = bridge._BRIDGE.table.match.game
        for s in range(game.n):
            for kind, many in examples(game, s).items():
                if kind.startswith("fair_"):
                    continue  # the fair deal's own engine, not the table's: tests/test_masked.py
                for args in many:
                    bridge._BRIDGE.table = Table.load(save)
                    kinds = [x["kind"] for x in bridge._BRIDGE.table.seats]
                    over = bridge._BRIDGE.table.match.game.is_over
                    got = ask(kind, args)
                    asked += 1
                    if kind in tableless:  # reads no table: the same answer without one
                        spare, bridge._BRIDGE = bridge._BRIDGE, Bridge()
                        try:
                            alone = ask(kind, args)
                        finally:
                            bridge._BRIDGE = spare
                        if kind != "ping":
                            assert alone == got, kind
                        continue
                    check(kind, args, got, kinds, over)
                    row = protocol.REQUESTS[kind]
                    if row.referee == "asks" and kinds[s] == "friend" and "viewer" not in args:
                        # the referee's call: {game, seat, action?}, for the friend's own seat
                        bridge._BRIDGE.table = Table.load(save)
                        friend_check(kind, args, ask(kind, {**args, "seat": s}), s)
    assert asked > 100
    bridge.reset()
