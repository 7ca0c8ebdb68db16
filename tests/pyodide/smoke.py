"""Smoke test run inside Pyodide (see tests/test_pyodide.py and tests/pyodide/run.mjs).

Imports the engine and, once the browser bridge exists, asks it for a ping the
way js/worker.js does: JSON text in, JSON text out. Engine authors: extend this
with more calls; a failed assert or any exception fails the test.
"""
import json
import sys

import briscola

print("python", sys.version.split()[0], sys.platform)
print("briscola", briscola.__version__)

try:
    from briscola import bridge
except ModuleNotFoundError as exc:
    if exc.name != "briscola.bridge":
        raise
    print("briscola.bridge is not there yet: skipping the bridge calls")
else:
    def call(kind, args):
        reply = json.loads(bridge.call(kind, json.dumps(args)))
        assert isinstance(reply, dict) and "result" in reply, (kind, reply)
        return reply["result"]

    print("ping", json.dumps(call("ping", {}), sort_keys=True))
    catalog = call("catalog", {})
    print("catalog", sorted(catalog))
    match = call("new_match", {"seed": 1})
    print("new_match", sorted(match))
    # Bad input is answered, never raised.
    bad = json.loads(bridge.call("no_such_request", "not json"))
    assert "error" in bad and bad["error"].get("code"), bad
    print("bad request", bad["error"]["code"])

    # The coach answers in the worker too: a hint with values and a reason as data, the
    # tracker, and one reviewed decision once the deal is over.
    state = call("new_match", {"rules": "classic", "seed": 3,
                               "seats": [{"kind": "human"}, {"kind": "bot", "level": "beginner"}]})
    while not state["view"]["outcome"]:
        if state["view"]["turn"] == 0:
            hint = call("hint", {"seat": 0})
            assert hint["action"] in state["view"]["legal"] and hint["reason"]["code"], hint
            assert len(hint["values"]) == len(state["view"]["legal"]), hint
            state = call("act", {"seat": 0, "action": hint["action"]})
        else:
            state = call("bot_step", {"seat": 0})
    assert call("tracker", {"seat": 0})["talon"] == 0
    plan = call("review_plan", {"seat": 0})
    first = call("review_decision", {"seat": 0, "index": 0})
    assert first["action"] == plan["decisions"][0]["action"] and first["label"], first
    print("coach", plan["count"], "decisions, first:", first["label"])

    # A fair deal's engine (py/briscola/masked.py through fair_*): two devices' engines in
    # one Python, each shown its own cards and the cards played, play a whole deal and find it
    # fair with the whole game's points.
    from briscola import bridge as _bridge
    from briscola.game import Game
    truth = Game.new("classic", seed="smoke/fair")
    engines = [_bridge.Bridge(), _bridge.Bridge()]

    def fair(k, kind, args):
        spare, _bridge._BRIDGE = _bridge._BRIDGE, engines[k]
        try:
            return call(kind, args)
        finally:
            _bridge._BRIDGE = spare

    from briscola.actions import Action
    from briscola.cards import CODES
    replies = [fair(k, "fair_deal", {"rules": "classic", "dealer": truth.dealer, "sees": [k]}) for k in (0, 1)]
    while True:
        for k in (0, 1):
            while replies[k]["needs"]:
                replies[k] = fair(k, "fair_open", {"cards": [[p, CODES[truth.deck[p]]] for p in replies[k]["needs"]]})
        if truth.is_over:
            break
        cur = truth.current_player
        action = fair(cur, "fair_view", {"seat": cur})["view"]["legal"][0]
        other = 1 - cur
        fair(other, "fair_open", {"cards": [[truth.deck.index(int(Action.parse(action))), action]]})
        truth.apply(action, cur)
        for k in (0, 1):
            replies[k] = fair(k, "fair_act", {"seat": cur, "action": action})
    for k in (0, 1):
        checked = fair(k, "fair_check", {})
        assert checked["fair"] and checked["points"] == list(truth.outcome().points), checked
    print("fair deal", checked["points"])
