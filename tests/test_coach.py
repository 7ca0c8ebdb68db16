"""The coach: fair evaluation from a view, review, hints, undo, tracker, duplicate, rating."""
from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from briscola import bridge
from briscola.ai import make_bot
from briscola.cards import CARDS, Card
from briscola.coach import rating
from briscola.ai.evaluate import (GIVE_BIAS, LABELS, NOISE, THRESHOLDS, Budget, accuracy_of, evaluate,
                                     label_for)
from briscola.ai.explain import CODES, explain
from briscola.coach.review import (LOAD_POINTS, LOST_LOAD_LABEL, lost_load, plan, review_deal,
                                    worse_label)
from briscola.coach.tracker import track
from briscola.game import Game
from briscola.match import Match

SMALL = Budget(rollout_worlds=8, search_worlds=6, node_budget=15000, ch_worlds=6,
               ch_node_budget=6000)
LOCALES = Path(__file__).resolve().parent.parent / "js" / "locales"


def locale(lang: str) -> dict:
    text = (LOCALES / f"{lang}.js").read_text(encoding="utf-8")
    body = text[text.index("\nexport default ") + len("\nexport default "):].strip()
    return json.loads(body[:-1])


def positions(variant: str, seed: str, deals: int):
    """``(game, seat, view)`` at every decision of ``deals`` deals played by the intermediate
    player (deal ``d`` seeded ``seed/d``), the view taken before the seat plays."""
    for d in range(deals):
        game = Game.new(variant, seed=f"{seed}/{d}")
        bots = [make_bot("intermediate", seed=f"{seed}/{d}/{s}") for s in range(game.n)]
        while not game.is_over:
            s = game.current_player
            view = game.view(s)
            yield game, s, view
            game.apply(bots[s].decide(view).action)


def play(game: Game, levels: list[str], upto: int | None = None, seed: str = "t") -> Game:
    bots = [make_bot(lv, seed=f"{seed}/{s}") for s, lv in enumerate(levels)]
    while not game.is_over and (upto is None or len(game.actions) < upto):
        s = game.current_player
        game.apply(bots[s].decide(game.view(s)).action)
    return game


def hidden_swap(game: Game, seat: int, rng: random.Random) -> Game | None:
    """The same deal up to now, with two cards that ``seat`` cannot see swapped in the deck
    (another seat's card not played yet, and a card in that seat's or another hand or deep
    in the talon): the seat's view is the same, the hidden cards are not."""
    view = game.view(seat)
    unseen = {int(c) for c in view.unseen()}
    deck = list(game.deck)
    pos = {c: i for i, c in enumerate(deck)}
    talon_cards = [c for c in game.talon if c != game.faceup]
    hand_cards = [c for s in range(game.n) if s != seat for c in game.hands[s] if c in unseen]
    pool = [c for c in hand_cards + talon_cards if c in unseen]
    rng.shuffle(pool)
    for x in pool:
        for y in pool:
            if x == y:
                continue
            hx = next((s for s in range(game.n) if x in game.hands[s]), None)
            hy = next((s for s in range(game.n) if y in game.hands[s]), None)
            if hx == hy and hx is not None:
                continue
            d = deck[:]
            d[pos[x]], d[pos[y]] = d[pos[y]], d[pos[x]]
            try:
                other = Game(game.rules, d, game.dealer)
                for a in game.actions:
                    other.apply(int(a))
            except Exception:
                continue
            if other.hands != game.hands or other.talon != game.talon:
                if other.view(seat).to_dict() == view.to_dict():
                    return other
    return None


@pytest.mark.parametrize("variant,upto", [("classic", 0), ("classic", 9), ("classic", 27),
                                          ("four", 6), ("three", 12), ("chiamata", 30),
                                          ("scoperta", 8)])
def test_evaluation_never_reads_hidden_cards(variant, upto):
    rng = random.Random(f"{variant}/{upto}")
    game = play(Game.new(variant, seed=f"hidden/{variant}"), ["intermediate"] * 6, upto)
    while game.view(game.current_player).phase != "play":
        play(game, ["intermediate"] * 6, len(game.actions) + 1)
    seat = game.current_player
    other = hidden_swap(game, seat, rng)
    assert other is not None, "no two hidden cards could be swapped"
    a = evaluate(game.view(seat), SMALL)
    b = evaluate(other.view(seat), SMALL)
    assert a.values == b.values
    assert explain(game.view(seat), a) == explain(other.view(seat), b)
    assert track(game.view(seat)) == track(other.view(seat))


@pytest.mark.parametrize("variant", ["classic", "four", "double", "bosnian", "chiamata"])
def test_loss_of_best_is_zero_and_none_negative(variant):
    game = play(Game.new(variant, seed=f"loss/{variant}"), ["beginner"] * 6)
    for seat in range(game.n)[:2]:
        got = review_deal(game, seat, SMALL)
        assert got["count"] == len(plan(game, seat)) > 0
        for d in got["decisions"]:
            values = {v["action"]: v["value"] for v in d["values"]}
            top = max(values.values())
            # within the evaluation's noise of the highest value a card is tied (loss 0)
            noise = 0.0 if d["method"] == "exact" or d["unit"] == "game_points" else NOISE
            # (a card that gives fewer points to a lost trick is tied by the search's bias
            # more with a tied card that gives more)
            bias = GIVE_BIAS if noise else 0.0
            assert values[d["best"]] >= top - noise - bias - 0.011
            assert d["loss"] >= 0
            # an unforced lost load is at least an inaccuracy where it lost over the deal (one
            # tied with the best lost nothing there: its label is the tie's)
            least = (lambda got: worse_label(got, LOST_LOAD_LABEL)) \
                if "load_lost" in d and not d["load_lost"]["tied"] else (lambda got: got)
            if values[d["action"]] >= top - noise + 0.011:
                assert d["loss"] == 0
                assert d["label"] == least("best" if d["action"] == d["best"] else "equal")
            elif values[d["action"]] < top - noise - 0.011 and d["loss"] == 0:
                assert values[d["action"]] >= top - noise - bias - 0.011
                assert d["label"] == least("best" if d["action"] == d["best"] else "equal")
            elif values[d["action"]] < top - noise - 0.011:
                assert d["loss"] == pytest.approx(values[d["best"]] - values[d["action"]],
                                                  abs=0.011)
                assert d["loss"] > 0 and d["label"] not in ("best", "equal")
                assert d["label"] == least(label_for(max(d["loss"], THRESHOLDS[0]), d["unit"])) \
                    or d["unit"] == "game_points"
            assert d["reason"]["code"] in CODES
        # The best card's own loss is zero.
        first_play = next(d for d in got["decisions"] if d["phase"] == "play")
        view_game = game.replay(first_play["step"])
        ev = evaluate(view_game.view(seat), SMALL)
        assert ev.loss(ev.best) == 0
        assert all(ev.loss(c) >= 0 for c in ev.values)


def test_exact_once_every_card_is_known():
    game = play(Game.new("classic", seed="exact"), ["intermediate"] * 2, 36)
    ev = evaluate(game.view(game.current_player))
    assert ev.exact and ev.method == "exact"
    # Exact values add up: what my side takes plus what the other takes is what is left.
    left = 120 - sum(game.points)
    assert all(0 <= v <= left for v in ev.values.values())


def test_labels_and_accuracy():
    assert [label_for(x) for x in (0, 0.4, 0.5, 2.9, 3, 6.9, 7, 13.9, 14, 40)] == [
        "best", "best", "good", "good", "inaccuracy", "inaccuracy", "mistake", "mistake",
        "blunder", "blunder"]
    assert len(THRESHOLDS) == len(LABELS) - 2  # "best" and "equal" are not losses
    assert accuracy_of([0, 0]) == 100
    assert accuracy_of([5]) == pytest.approx(50)
    assert accuracy_of([0, 10]) == pytest.approx(62.5)


def test_review_ranks_the_levels():
    """Same deals, same opponent: the expert's plays lose less than the intermediate's,
    which lose less than the beginner's (mean loss and accuracy)."""
    budget = Budget(rollout_worlds=16, search_worlds=12)
    got = {}
    for level in ("expert", "intermediate", "beginner"):
        losses, accs = [], []
        for i in range(6):
            game = play(Game.new("classic", seed=f"rank/{i}"), [level, "intermediate"],
                        seed=f"rank/{i}")
            r = review_deal(game, 0, budget)
            losses.append(r["mean_loss"])
            accs.append(r["accuracy"])
        got[level] = (sum(losses) / len(losses), sum(accs) / len(accs))
    assert got["expert"][0] < got["intermediate"][0] < got["beginner"][0], got
    assert got["expert"][1] > got["intermediate"][1] > got["beginner"][1], got


def test_review_is_deterministic_and_turning_points_are_the_worst():
    game = play(Game.new("classic", seed="det"), ["beginner", "expert"])
    a = review_deal(game, 0, SMALL)
    b = review_deal(game, 0, SMALL)
    assert a == b
    worst = sorted(a["decisions"], key=lambda d: -d["loss"])
    assert len(a["turning_points"]) <= 3
    for i in a["turning_points"]:
        assert a["decisions"][i]["loss"] >= 3.0
        assert a["decisions"][i]["loss"] >= worst[min(2, len(worst) - 1)]["loss"]
    assert sum(a["counts"].values()) == a["count"]


# ---- reasons ---------------------------------------------------------------------------------

def test_every_coach_code_has_a_sentence_in_every_language():
    for lang in sorted(p.stem for p in LOCALES.glob("*.js") if p.name != "index.js"):
        words = locale(lang)
        for code in CODES:
            assert f"reason.{code}" in words, (lang, code)
        assert "reason.text" in words


def test_hint_explains_and_never_restates_the_card():
    # A decision with a clear best card (two cards within half a point get "either will do").
    for steps in range(10, 30):
        game = play(Game.new("classic", seed="hint"), ["intermediate"] * 2, steps)
        view = game.view(game.current_player)
        ev = evaluate(view, SMALL)
        if len(ev.ranked) > 1 and ev.values[ev.ranked[0]] - ev.values[ev.ranked[1]] >= 0.5:
            break
    why = explain(view, ev)
    assert why["code"] in CODES and why["code"] != "coach_forced"
    assert why["params"]["card"] == str(CARDS[ev.best])
    assert why["params"]["alt"] != why["params"]["card"]
    # the card compared: the next best (or, for a trick let go, a cheaper card or one that takes)
    alt = int(Card.parse(why["params"]["alt"]))
    assert why["params"]["gain"] == pytest.approx(ev.values[ev.best] - ev.values[alt], abs=0.051)
    en = locale("en")[f"reason.{why['code']}"]
    # The sentence says more than the card: it compares, with a figure or a cause.
    assert "{alt}" in en and re.search(r"\{(gain|points|trumps)[,}]", en)



def test_reasons_never_speak_of_nothing():
    # "takes the trick and its 0 points", "while 0 trumps are still out": a cause that is not
    # there is never given; the trick's lead is named instead, or the next cause.
    seen = set()
    for seed in ("zero/1", "zero/2", "zero/3"):
        game = Game.new("classic", seed=seed)
        bots = [make_bot("intermediate", seed=f"{seed}/{s}") for s in range(2)]
        while not game.is_over:
            s = game.current_player
            view = game.view(s)
            if s == 0 and len(view.legal) > 1:
                why = explain(view, evaluate(view, SMALL))
                seen.add(why["code"])
                assert why["params"].get("points", 1) != 0, why
                assert why["params"].get("trumps", 1) != 0, why
            game.apply(bots[s].decide(view).action)
    assert len(seen) >= 3, seen


def test_italian_reasons_never_call_a_trick_mano():
    # "smazzata" is this page's word for a deal in Italian, a trick is a "presa": never "mano".
    for key, text in locale("it").items():
        if key.startswith("reason."):
            # (the proverb "il carico non si gioca di mano", a load is not led, is quoted whole)
            text = text.replace("in mano", "")
            text = re.sub(r"il carico non si gioca di mano", "", text, flags=re.I)
            assert not re.search(r"\bman[oi]\b", text), key

# ---- bridge: hint, undo, tracker, review, replay, duplicate, rate ----------------------------------

def call(kind, **args):
    return json.loads(bridge.call(kind, json.dumps(args)))


def ok(kind, **args):
    reply = call(kind, **args)
    assert "result" in reply, reply
    return reply["result"]


def err(kind, **args):
    reply = call(kind, **args)
    assert "error" in reply, reply
    return reply["error"]


@pytest.fixture
def table():
    bridge.reset()
    st = ok("new_match", rules="classic", seed=11,
            seats=[{"kind": "human"}, {"kind": "bot", "level": "intermediate"}])
    return st


def to_person(st):
    while st["view"]["turn"] == 1:
        st = ok("bot_step", seat=0)
    return st


def test_bridge_hint_values_every_legal_card(table):
    st = to_person(table)
    h = ok("hint", seat=0)
    assert h["action"] in st["view"]["legal"]
    assert sorted(v["action"] for v in h["values"]) == sorted(st["view"]["legal"])
    assert h["values"][0]["action"] == h["action"]
    # the cards tied with the highest value first (the principles' order), then by value
    vals = [v["value"] for v in h["values"]]
    top = max(vals)
    tied = [x >= top - NOISE - 0.011 for x in vals]
    # (or tied by the search's bias: a card giving fewer points to a lost trick)
    near = [x >= top - NOISE - GIVE_BIAS - 0.011 for x in vals]
    assert any(all(near[:k]) and not any(tied[k:]) and vals[k:] == sorted(vals[k:], reverse=True)
               and sum(tied[:k]) == sum(tied) for k in range(len(vals) + 1))
    assert h["reason"]["code"] in CODES
    assert err("hint", seat=1)["code"] == "hidden_seat"


def test_undo_restores_the_exact_state(table):
    st = to_person(table)
    before = ok("state", seat=0)
    game_before = bridge._BRIDGE.table.match.game.clone()
    assert err("undo", seat=0)["code"] == "cannot_undo"  # nothing played yet
    st = ok("act", seat=0, action=st["view"]["legal"][0])
    st = to_person(st)
    assert len(bridge._BRIDGE.table.match.game.actions) > len(game_before.actions) + 1
    after = ok("undo", seat=0)
    assert bridge._BRIDGE.table.match.game == game_before
    assert after["view"] == before["view"]
    assert after["match"]["undone"] is True
    # The mark survives a save and a load.
    loaded = ok("load", save=after["save"], seat=0)
    assert loaded["match"]["undone"] is True and loaded["view"] == before["view"]
    assert err("undo", seat=1)["code"] == "cannot_undo"


def test_undo_not_offered_in_hot_seat_or_after_the_deal():
    bridge.reset()
    st = ok("new_match", rules="classic", seed=3, seats=[{"kind": "human"}, {"kind": "human"}])
    seat = st["view"]["turn"]
    ok("act", seat=seat, action=ok("state", seat=seat)["view"]["legal"][0])
    assert err("undo", seat=seat)["code"] == "cannot_undo"
    bridge.reset()
    ok("new_match", rules="classic", seed=3,
       seats=[{"kind": "human"}, {"kind": "bot", "level": "beginner"}])
    _finish()
    assert err("undo", seat=0)["code"] == "cannot_undo"


def _finish():
    st = ok("state", seat=0)
    while not st["view"]["outcome"]:
        if st["view"]["turn"] == 0:
            st = ok("act", seat=0, action=st["view"]["legal"][-1])
        else:
            st = ok("bot_step", seat=0)
    return st


def test_tracker_shows_only_the_view(table):
    st = to_person(table)
    tr = ok("tracker", seat=0)
    view = st["view"]
    mine = set(view["hand"])
    unseen = {c for cards in tr["unseen"].values() for c in cards}
    assert not unseen & mine
    assert view["trump_card"] not in unseen
    assert len(unseen) == 40 - len(mine) - 1 - len(view["trick"])
    assert tr["talon"] == view["talon_size"]
    assert err("tracker", seat=1)["code"] == "hidden_seat"
    assert set(tr["trumps_out"]) <= unseen | {view["trump_card"]}


def test_review_through_the_bridge(table):
    to_person(table)
    _finish()
    p = ok("review_plan", seat=0)
    assert p["count"] == len(p["decisions"]) > 0 and p["deal"] == 0
    assert err("review_summary", seat=0)["code"] == "review_incomplete"
    for d in p["decisions"]:
        r = ok("review_decision", seat=0, index=d["index"])
        assert r["action"] == d["action"] and r["label"] in LABELS
    s = ok("review_summary", seat=0)
    assert 0 <= s["accuracy"] <= 100 and sum(s["counts"].values()) == p["count"]
    # Once the deal is over, the computer's seat may be reviewed too.
    assert ok("review_plan", seat=1)["count"] > 0
    assert err("review_decision", seat=0, index=p["count"])["code"] == "bad_request"
    rp = ok("replay", deal=0, step=4, seat=0, all_hands=True)
    assert rp["steps"] > 4 and len(rp["view"]["tricks"]) == 2 and len(rp["hands"]) == 2


def test_no_replay_of_the_deal_being_played(table):
    to_person(table)
    for seat in (0, 1):
        assert err("replay", deal=0, step=0, seat=seat, all_hands=True)["code"] == "deal_not_over"


def test_duplicate_swaps_the_seats(table):
    to_person(table)
    end = _finish()
    original = bridge._BRIDGE.table.match.game
    st = ok("duplicate", seat=0)
    dup = bridge._BRIDGE.table.match.game
    assert dup.initial_hands[0] == original.initial_hands[1]
    assert dup.initial_hands[1] == original.initial_hands[0]
    assert dup.faceup == original.faceup or original.faceup < 0
    info = st["match"]["duplicate"]
    assert info["of_deal"] == 0 and info["now"] is None
    assert info["original"]["person_points"] == end["view"]["side_points"][0]
    st = _finish()
    assert st["match"]["duplicate"]["now"]["person_points"] == st["view"]["side_points"][0]
    # The duplicate does not count in the match score, and survives a reload.
    assert st["match"]["deals"] == end["match"]["deals"]
    loaded = ok("load", save=st["save"], seat=0)
    assert loaded["match"]["duplicate"] == st["match"]["duplicate"]
    assert ok("review_plan", seat=0, deal=1)["deal"] == 1


def test_match_without_new_fields_still_loads():
    m = Match("classic", seed=5)
    d = m.to_dict()
    assert "undone" not in d and "duplicates" not in d
    assert Match.from_dict(d).to_dict() == d
    bad = dict(d, duplicates=[0])
    with pytest.raises(Exception):
        Match.from_dict(bad)


def test_rating():
    levels = rating.LEVELS
    assert levels["random"] < levels["beginner"] < levels["intermediate"] < levels["expert"]
    assert round(rating.expected(levels["intermediate"], levels["beginner"]), 2) == 0.81
    up_expert = rating.update(1300, "expert", 1) - 1300
    up_beginner = rating.update(1300, "beginner", 1) - 1300
    assert up_expert > up_beginner > 0
    assert rating.update(1300, "expert", 0) < 1300
    assert ok("rate", rating=1300, level="expert", score=0.5)["rating"] > 1300
    assert ok("rate", rating=None, level="beginner", score=1)["rating"] > rating.INITIAL
    # the chart's reference lines: the levels' ratings, as the coach module calibrates them
    assert ok("rate", rating=1300, level="expert", score=1)["levels"] == levels
    got = ok("rating_levels")
    assert got["levels"] == levels and got["initial"] == rating.INITIAL
    for bad in ({"rating": "x", "level": "expert", "score": 1},
                {"rating": 1200, "level": "grandmaster", "score": 1},
                {"rating": 1200, "level": "expert", "score": 2}):
        assert err("rate", **bad)["code"] == "bad_request"


def test_hint_and_review_agree(table):
    """One evaluation serves both: the review of a decision has the values the hint gave then,
    and following every hint is rated best."""
    st = table
    hints = []
    while not st["view"]["outcome"]:
        if st["view"]["turn"] == 0:
            h = ok("hint", seat=0)
            if len(st["view"]["legal"]) > 1:
                hints.append(h)
            st = ok("act", seat=0, action=h["action"])
        else:
            st = ok("bot_step", seat=0)
    plan_ = ok("review_plan", seat=0)
    assert plan_["count"] == len(hints)
    for d, h in zip(plan_["decisions"], hints):
        r = ok("review_decision", seat=0, index=d["index"])
        assert r["values"] == h["values"] and r["action"] == h["action"]
        # (a load the hint chose among tied cards and the trick then lost is labelled by
        # what happened to it, but loses nothing over the deal)
        assert r["loss"] == 0 and (r["label"] == "best" or "load_lost" in r)
    assert ok("review_summary", seat=0)["accuracy"] == 100


def test_bots_reasons_come_from_the_evaluation():
    """With reasons shown, the intermediate's and the expert's card plays are explained by the
    coach's evaluation (their card against the next card below it); the card played is the
    same as without reasons; the beginner keeps its own reasons."""
    from briscola.ai.explain import BOT_CODES, decide_explained, explain_choice, for_bot
    coached = 0
    for level in ("intermediate", "expert"):
        game = Game.new("classic", seed=f"why/{level}")
        plain = make_bot(level, seed="b")
        told = make_bot(level, seed="b")
        while not game.is_over:
            view = game.view(game.current_player)
            d0 = plain.decide(view)
            d1 = decide_explained(told, view, SMALL)
            assert d1.action == d0.action
            cards = [a for a in view.legal if a < 52]
            if len(cards) > 1 and int(d1.action) in cards:
                ev = evaluate(view, SMALL)
                want = explain_choice(view, ev, int(d1.action))
                if want is not None:
                    # the coach's comparison: the card played against one below it
                    assert want["params"]["card"] == str(CARDS[d1.action])
                    assert ev.loss(int(d1.action)) <= \
                        ev.loss(int(Card.parse(want["params"]["alt"])))
                    want = for_bot(want)
                assert d1.reason == (want if want is not None else d0.reason)
                if want is not None:
                    coached += 1
                    # in the bot's voice: its own card only, never the one it kept
                    assert d1.reason["code"] in BOT_CODES and d1.reason["code"] in CODES
                    cards = [v for v in d1.reason["params"].values()
                             if isinstance(v, str) and len(v) == 2]
                    assert cards == [str(CARDS[d1.action])], d1.reason
                    # no count of cards still out (it would tell how many the bot holds)
                    assert not {"trumps", "beaters", "beaters_alt"} & set(d1.reason["params"])
            else:
                assert d1.reason == d0.reason
            game.apply(d0.action)
    assert coached >= 20
    game = play(Game.new("classic", seed="why/b"), ["beginner"] * 2, 6)
    view = game.view(game.current_player)
    assert decide_explained(make_bot("beginner", seed=1), view, SMALL).reason["code"] \
        .startswith("bot_")


def test_bridge_bot_step_reasons(table):
    st = table
    seen = set()
    while not st["view"]["outcome"]:
        if st["view"]["turn"] == 0:
            st = ok("act", seat=0, action=st["view"]["legal"][0])
            continue
        before = ok("state", seat=0)
        assert err("bot_step", seat=0, reasons="yes")["code"] == "bad_request"
        assert ok("state", seat=0) == before  # refused: nothing changed
        reply = ok("bot_step", seat=0, reasons=True)
        seen.add(reply["bot"]["reason"]["code"])
        assert "alt" not in reply["bot"]["reason"]["params"]
        st = reply
    assert any(code.startswith("bot_eval_") for code in seen), seen


def test_hints_name_a_cause_not_only_the_search():
    """The common situations have causes of their own: taking with a plain card rather than
    a trump, taking with more points, loading ahead of a partner still to play, covering a
    partner's card, keeping the card that is harder to beat; cards the evaluation cannot tell
    apart by the coach's principles. "Either will do" stays the exception."""
    codes = []
    for variant, deals in (("classic", 5), ("four", 3)):
        for _game, _s, view in positions(variant, "cause", deals):
            if len([a for a in view.legal if a < 52]) > 1:
                why = explain(view, evaluate(view, SMALL))
                assert why["code"] in CODES
                codes.append(why["code"])
    # "either will do", or only that the card kept does more later: the target is
    # at most one decision in ten
    fallback = sum(c in ("coach_equal", "coach_keep_later") for c in codes)
    assert len(codes) > 100 and fallback / len(codes) < 0.10, (fallback, len(codes))
    new = {"coach_take_keep_trump", "coach_take_more", "coach_load_ahead", "coach_secure",
           "coach_keep_safer", "coach_keep_master"}
    assert len(new & set(codes)) >= 3, set(codes)


def test_hint_for_an_exchange_explains_it():
    """An exchange is not a card play (no values), but its hint says why, in coach words."""
    found = 0
    for seed in range(60):
        bridge.reset()
        st = ok("new_match", rules={"name": "classic", "exchange_two": True}, seed=seed,
                seats=[{"kind": "human"}, {"kind": "bot", "level": "intermediate"}])
        st = to_person(st)
        swaps = [a for a in st["view"]["legal"] if a.startswith("swap-")]
        if not swaps:
            continue
        h = ok("hint", seat=0)
        assert h["action"] == swaps[0] and h["values"] == []
        assert h["reason"]["code"] == "coach_exchange" and h["reason"]["code"] in CODES
        assert h["reason"]["params"] == {"card": swaps[0][len("swap-"):],
                                         "card2": st["view"]["trump_card"]}
        found += 1
        if found == 2:
            break
    assert found == 2


def test_chiamata_auction_and_call_reviewed():
    """Chiamata: the seat's bids, passes and call are reviewed in game points, from its hand
    only: every legal bid valued, the loss of the best 0 and none negative, labels on the
    game-point scale, a reason in coach words; the hint in the auction gives the same values."""
    from briscola.ai.evaluate import GAME_POINTS, bidding_actions, evaluate_bidding
    from briscola.ai.explain import explain_bidding
    from briscola.actions import action_text
    seen = {"auction": 0, "call": 0}
    swapped = 0
    for seed in range(6):
        game = play(Game.new("chiamata", seed=f"bid/{seed}"),
                    ["expert", "intermediate", "beginner", "expert", "intermediate"],
                    seed=f"bid/{seed}")
        caller = next(s for s in range(5) if game.view(s).chiamata["caller"] == s)
        for seat in {0, caller}:
            r = review_deal(game, seat, SMALL)
            bids = [d for d in r["decisions"] if d["phase"] in ("auction", "call")]
            assert all(d["phase"] == "play" for d in r["decisions"][len(bids):])
            for d in bids:
                seen[d["phase"]] += 1
                g = game.replay(d["step"])
                view = g.view(seat)
                ev = evaluate_bidding(view)
                assert {v["action"] for v in d["values"]} >= {action_text(a)
                                                             for a in bidding_actions(view)}
                assert d["unit"] == GAME_POINTS and d["loss"] >= 0
                assert d["label"] == label_for(d["loss"], GAME_POINTS)
                assert d["reason"]["code"] in CODES and d["reason"]["code"].startswith(
                    "coach_call" if d["phase"] == "call" else "coach_bid")
                best = max(v["value"] for v in d["values"])
                chosen = next(v["value"] for v in d["values"] if v["action"] == d["action"])
                assert d["loss"] == pytest.approx(best - chosen, abs=0.011)
                assert explain_bidding(view, ev)["code"] in CODES
            # the other hands are never read: swapped hidden cards, the same values
            if bids:
                g = game.replay(bids[0]["step"])
                other = hidden_swap(g, seat, random.Random(seed))
                if other is not None:
                    assert other.view(seat).hand == g.view(seat).hand
                    assert evaluate_bidding(other.view(seat)).values == \
                        evaluate_bidding(g.view(seat)).values
                    swapped += 1
    assert seen["auction"] >= 6 and seen["call"] >= 3 and swapped >= 3, (seen, swapped)
    assert label_for(0.04, GAME_POINTS) == "best" and label_for(1.0, GAME_POINTS) == "blunder"


def test_chiamata_hint_in_the_auction():
    bridge.reset()
    st = ok("new_match", rules="chiamata", seed=5,
            seats=[{"kind": "human"}] + [{"kind": "bot", "level": "intermediate"}] * 4)
    while st["view"]["turn"] != 0:
        st = ok("bot_step", seat=0)
    assert st["view"]["phase"] == "auction"
    h = ok("hint", seat=0)
    assert h["unit"] == "game_points" and h["values"][0]["action"] == h["action"]
    assert h["action"] in st["view"]["legal"]
    assert h["reason"]["code"].startswith("coach_bid")
    vals = [v["value"] for v in h["values"]]
    assert vals == sorted(vals, reverse=True) and "pass" in [v["action"] for v in h["values"]]


def test_a_figure_is_not_thrown_onto_a_lost_trick():
    """The teacher's first rule: a trick lost whatever is played gets no points. Whenever the
    seat follows a trick none of its cards can take, holding a figure (Jack, Horse, King) and
    blank cards of no points (no trump), the hint is a blank card, never the figure; the
    figure is at best "as good as the best", with the rule as its reason."""
    t = Game.new("classic", seed="horse").rules.tables
    found = 0
    for _game, _s, view in positions("classic", "horse", 40):
        cards = [int(c) for c in view.legal if c < 52]
        trump = view.trump_suit
        if view.trick and view.talon_size > 0 and len(cards) == 3:
            lead = int(view.trick[0][1])
            beats = t.beats(trump)
            blanks = [c for c in cards if t.points[c] == 0 and c // 13 != trump]
            figures = [c for c in cards if 2 <= t.points[c] <= 4 and c // 13 != trump]
            if not any(beats[(lead << 6) | c] for c in cards) and figures \
                    and len(blanks) + len(figures) == 3 and blanks:
                ev = evaluate(view)
                assert ev.best in blanks, (view.trick, [str(CARDS[c]) for c in cards])
                for f in figures:
                    assert ev.label(f) != "best"
                    why = explain(view, ev, f)
                    assert why["code"] in ("coach_tie_discard", "coach_discard"), why
                    assert why["params"]["card"] in {str(CARDS[c]) for c in blanks}
                    assert why["params"]["given_alt"] == t.points[f]
                found += 1
                if found >= 6:
                    break
    assert found >= 6


def test_few_worlds_are_all_taken():
    """Where the worlds consistent with the view are few (two players, 7 to 10 cards left: 3
    to 120 of them), the evaluation takes each of them at most once. With no node budget for
    them it takes every one: its values are the exact mean of the solved worlds, with no
    sampling noise. With the default budget it stops at the first world that brings the
    nodes to the budget (never before ``search_worlds`` worlds): the worlds it solved are
    the first of the view's seeded order, in which every hand of the others comes about
    equally often, and its values are their mean."""
    from briscola.ai.common import Situation
    from briscola.ai.evaluate import DEFAULT_BUDGET, _spread, _view_seed
    from briscola.ai.sampler import Sampler
    from briscola.ai.solver import Solver
    seen, cut = set(), 0
    unbounded = Budget(every_node_budget=10**9)
    for _game, s, view in positions("classic", "every", 3):
        left = sum(view.hand_sizes) + view.talon_size
        plays = [int(a) for a in view.legal if a < 52]
        if 7 <= left <= 10 and len(plays) > 1:
            sit = Situation(view)
            sampler = Sampler(sit, random.Random(0))
            worlds = sampler.every_world(10**6)
            n = sampler.count()
            assert len(worlds) == n and 3 <= n <= 120
            assert len({(tuple(w.hands), tuple(w.talon)) for w in worlds}) == n
            for w in worlds:  # each consistent: the seat's own hand, every hand's size
                assert w.hands[s] == sit.hand_mask
                assert [bin(h).count("1") for h in w.hands] == list(view.hand_sizes)
            ev = evaluate(view, unbounded)
            assert ev.method == "search" and ev.worlds == n
            solver = Solver(view.rules, sit.trump)
            maxside = [sit.side_of[x] == sit.side for x in range(sit.n)]

            def solve(w):
                vals = solver.values(w.hands, w.talon, sit.trick, sit.order, maxside,
                                     moves=plays, node_limit=10**9)
                return vals, solver.nodes
            mean = {c: 0.0 for c in plays}
            for w in worlds:
                vals, _nodes = solve(w)
                for c in plays:
                    mean[c] += vals[c] / n
            for c in plays:
                assert ev.values[c] == pytest.approx(mean[c], abs=1e-9)
            # the default budget: the first worlds of the seeded order, as many as it allows
            rng = random.Random(_view_seed(view))
            order = _spread(Sampler(sit, rng).every_world(10**6), rng)
            assert sorted((tuple(w.hands), tuple(w.talon)) for w in order) == sorted(
                (tuple(w.hands), tuple(w.talon)) for w in worlds)
            ev = evaluate(view)
            k = ev.worlds
            assert ev.method == "search" and min(n, DEFAULT_BUDGET.search_worlds) <= k <= n
            mean = {c: 0.0 for c in plays}
            nodes = 0
            for i, w in enumerate(order[:k]):
                if i == k - 1 and k < n:
                    assert nodes < DEFAULT_BUDGET.every_node_budget or \
                        k == DEFAULT_BUDGET.search_worlds
                vals, used = solve(w)
                nodes += used
                for c in plays:
                    mean[c] += vals[c] / k
            if k < n:
                assert nodes >= DEFAULT_BUDGET.every_node_budget
                cut += 1
            for c in plays:
                assert ev.values[c] == pytest.approx(mean[c], abs=1e-9)
            groups: dict = {}
            for w in order[:k]:
                groups[tuple(w.hands)] = groups.get(tuple(w.hands), 0) + 1
            if k >= len({tuple(w.hands) for w in worlds}):
                assert max(groups.values()) - min(groups.values()) <= 1
            seen.add(left)
    assert {7, 8, 9, 10} <= seen
    assert cut  # the budget did cut some of the 120 worlds with ten cards left


def test_the_coach_reads_the_others_plays_as_the_expert_does():
    """Before its search horizon the expert of two-player Briscola weighs the worlds by how
    likely the other player's last cards were in each; so does the coach: its values are the
    expert's learned search with that reading, on the evaluation's own random stream."""
    from briscola.ai.common import Situation
    from briscola.ai.evaluate import _view_seed
    from briscola.ai.expert import _LEARNED_DEFAULTS, learned_values
    from briscola.ai.inference import Evidence
    from briscola.ai.learn import load, model_name
    from briscola.ai.rollout import FastPolicy
    game = play(Game.new("classic", seed="reads"), ["intermediate"] * 2, 9)
    view = game.view(game.current_player)
    plays = [int(a) for a in view.legal if a < 52]
    sit = Situation(view)
    ev = evaluate(view)
    assert ev.method == "learned"
    pool = _LEARNED_DEFAULTS["classic"]["learned_inference"]
    evidence = Evidence(sit, FastPolicy(view.rules, sit.trump))
    assert evidence.records and pool > 1
    means, done, _n = learned_values(sit, plays, load(model_name(view.rules)),
                                     random.Random(_view_seed(view)), Budget().learned_worlds,
                                     Budget().learned_leaves, evidence=evidence, pool=pool)
    assert ev.worlds == done
    for c in plays:
        assert ev.values[c] == pytest.approx(means[c], abs=1e-9)
    plain = evaluate(view, Budget(learned_pool=0))
    assert plain.values != ev.values  # the reading changes what the worlds say


def test_a_reviewed_play_shows_what_it_did_to_its_trick():
    """Each reviewed card play carries its trick's points, whether the seat's side took it,
    and the card's own points when the others took it."""
    game = play(Game.new("classic", seed="effect"), ["intermediate"] * 2)
    pts = game.rules.tables.points
    tricks = game.view(0).tricks
    got = review_deal(game, 0, SMALL)
    assert got["count"] > 0
    for d in got["decisions"]:
        fx = d["effect"]
        order, cards, winner, points = tricks[d["trick"]]
        card = int(Card.parse(d["action"]))
        assert card in cards and fx["points"] == points
        assert fx["won"] == (winner == 0)
        assert fx["given"] == (0 if winner == 0 else pts[card])
    assert {d["effect"]["won"] for d in got["decisions"]} == {True, False}


def test_a_mistake_tried_again(table):
    """Learning from a mistake: at a reviewed card play, another card is judged by the same
    evaluation as the review (its label and loss); the best card counts as found and says
    why; a card that could not be played there, or a bid's decision, is refused and changes
    nothing."""
    st = table
    while not st["view"]["outcome"]:
        if st["view"]["turn"] == 0:
            st = ok("act", seat=0, action=st["view"]["legal"][-1])
        else:
            st = ok("bot_step", seat=0)
    plan_ = ok("review_plan", seat=0)
    tried = 0
    for d in plan_["decisions"]:
        r = ok("review_decision", seat=0, index=d["index"])
        if r["label"] in ("best", "equal", "good"):  # only the plays worth retrying
            continue
        got = ok("review_retry", seat=0, index=d["index"], action=r["action"])
        assert got["label"] == r["label"] and got["loss"] == r["loss"]
        assert got["found"] is False and got["reason"] is None
        best = ok("review_retry", seat=0, index=d["index"], action=r["best"])
        assert best["label"] == "best" and best["loss"] == 0 and best["found"] is True
        assert best["reason"]["code"] in CODES and best["reason"]["params"]["card"] == r["best"]
        assert best["reason"]["params"]["alt"] == r["action"]  # against the card first played
        value = {v["action"]: v["value"] for v in r["values"]}
        for v in r["values"]:  # every other card: found exactly when good enough
            other = ok("review_retry", seat=0, index=d["index"], action=v["action"])
            assert other["found"] == (other["label"] in ("best", "equal", "good"))
            if other["found"] and value[v["action"]] >= value[r["action"]]:
                # the reason shown explains the card found, against the card first played
                p = other["reason"]["params"]
                assert (p["card"], p["alt"]) == (v["action"], r["action"]), other
        tried += 1
        before = ok("state", seat=0)
        legal = {v["action"] for v in r["values"]}
        outside = next(str(c) for c in CARDS[:52] if str(c) not in legal)
        for bad in (outside, "ZZ", 7):
            assert err("review_retry", seat=0, index=d["index"], action=bad)["code"] == "bad_request"
        assert err("review_retry", seat=0, index=len(plan_["decisions"]), action=r["best"])["code"] \
            == "bad_request"
        assert ok("state", seat=0) == before
    assert tried >= 1


def test_a_turning_point_only_where_points_were_lost():
    """The deal of seed 4242: the Ace of Spades led and lost at trick 8 was worth the same as
    the Six the coach would lead (nothing lost over the deal): labelled "equal", its note says
    the load went and which card would have kept it, and it is no turning point."""
    bridge.reset()
    st = ok("new_match", rules="classic", seed=4242,
            seats=[{"kind": "human"}, {"kind": "bot", "level": "intermediate"}])
    script = ["6D", "4B", "3B"]
    while not st["view"]["outcome"]:
        if st["view"]["turn"] == 0:
            st = ok("act", seat=0, action=script.pop(0) if script else st["view"]["hand"][0])
        else:
            st = ok("bot_step", seat=0)
    plan_ = ok("review_plan", seat=0)
    rows = [ok("review_decision", seat=0, index=d["index"]) for d in plan_["decisions"]]
    eighth = next(r for d, r in zip(plan_["decisions"], rows) if d["trick"] == 7)
    assert eighth["action"] == "AS" and eighth["loss"] == 0 and eighth["load_lost"]["tied"]
    assert eighth["label"] == "equal"
    summary = ok("review_summary", seat=0)
    assert summary["turning_points"]
    for i in summary["turning_points"]:
        assert rows[i]["loss"] > 0 and rows[i]["label"] in ("inaccuracy", "mistake", "blunder")


def test_puzzle_of_the_day():
    """A day's puzzle is drawn from the date alone (the same position each time), with every
    card known; playing the exact best cards solves it with the most points the position
    holds, the other answering with its best; a card worth less fails with the best card and
    why; bad dates and cards are refused."""
    from briscola.coach.puzzle import MIN_STAKE
    bridge.reset()  # no table needed
    for date in ("2026-11-27", "2027-02-28", "2026-01-01"):
        p = ok("puzzle", date=date)
        assert p == ok("puzzle", date=date)
        view = p["view"]
        assert view["talon_size"] == 0 and view["trick"] == [] and len(view["hand"]) == 3
        assert len(p["opponent"]) == 3 and not set(p["opponent"]) & set(view["hand"])
        assert p["plays"] == 3 and p["stake"] == 120 - sum(view["points"]) > 0
        # solve it: at each turn the card the exact values rank best
        moves, wrong = [], None
        while True:
            st = None
            for c in (ok("puzzle_move", date=date, moves=moves)["view"]["hand"] if moves else view["hand"]):
                got = ok("puzzle_move", date=date, moves=moves + [c])
                if got["ok"] and st is None:
                    st, pick = got, c
                elif not got["ok"]:
                    wrong = wrong or (moves + [c], got)
            assert st is not None
            moves.append(pick)
            if st["done"]:
                break
        assert st["points"] == p["best_points"]
        assert wrong is not None  # a position where some card is worse (MIN_STAKE apart)
        bad_moves, failed = wrong
        assert failed["best"] != bad_moves[-1] and failed["lost"] >= 1
        assert failed["reason"]["params"]["card"] == failed["best"]
        assert failed["reason"]["params"]["alt"] == bad_moves[-1]
        assert err("puzzle_move", date=date, moves=bad_moves + [moves[-1]])["code"] == "bad_request"
    assert MIN_STAKE >= 1
    for bad in ("2026-13-01", "today", None, 20261127):
        assert err("puzzle", date=bad)["code"] == "bad_request"
    p = ok("puzzle", date="2026-11-27")
    for moves in ([], None, ["ZZ"], [p["opponent"][0]]):
        assert err("puzzle_move", date="2026-11-27", moves=moves)["code"] == "bad_request"


GOOD_OR_BETTER = ("best", "equal", "good")


def unforced_lost_load(d: dict, points, noise: float) -> str | None:
    """Recomputed from a reviewed decision alone (its values, its effect): the cheaper card
    the evaluation rated no lower than the load that was played and lost, if any."""
    played = Card.parse(d["action"])
    fx = d.get("effect")
    if not fx or fx["won"] or points[int(played)] < LOAD_POINTS:
        return None
    values = {v["action"]: v["value"] for v in d["values"]}
    for a, v in values.items():
        if a != d["action"] and points[int(Card.parse(a))] < points[int(played)] \
                and v >= values[d["action"]] - noise - 0.011:
            return a
    return None


def test_an_unforced_lost_load_is_never_good():
    """An Ace or a Three played and lost when a cheaper card was as good over the deal is
    at least an inaccuracy; a load the position forced (every cheaper card clearly worse)
    or a load that took its trick keeps the label of its loss."""
    from briscola.ai.evaluate import Evaluation
    pts = Game.new("classic", seed="x").rules.tables.points
    three, four, king = (int(Card.parse(c)) for c in ("3C", "4D", "KD"))
    lost = {"points": 10, "won": False, "given": 10}
    ev = Evaluation(0, {three: 30.0, four: 30.5, king: 26.0}, "search", 24, False, noise=NOISE)
    assert lost_load(ev, three, lost, pts) == four  # the Four was as good: unforced
    assert lost_load(ev, three, {"points": 10, "won": True, "given": 0}, pts) is None
    assert lost_load(ev, four, lost, pts) is None  # not a load
    forced = Evaluation(0, {three: 30.0, four: 27.0, king: 26.0}, "search", 24, False, noise=NOISE)
    assert lost_load(forced, three, lost, pts) is None  # every cheaper card clearly worse
    exact = Evaluation(0, {three: 30.0, four: 29.5}, "exact", 1, True, noise=0.0)
    assert lost_load(exact, three, lost, pts) is None  # exact values: only equal ones tie
    assert worse_label("good", LOST_LOAD_LABEL) == "inaccuracy"
    assert worse_label("best", LOST_LOAD_LABEL) == "inaccuracy"
    assert worse_label("mistake", LOST_LOAD_LABEL) == "mistake"
    # A real deal: an Ace of clubs led and lost, where the Knight of coins loses under three
    # points over the deal (by its loss alone "good") but gives nothing now.
    game = play(Game.new("classic", seed="load/2"), ["beginner"] * 2, seed="load/2")
    d = review_deal(game, 0, SMALL)["decisions"][7]
    assert d["action"] == "AB" and 0 < d["loss"] < THRESHOLDS[1]
    assert d["load_lost"] == {"card": "AB", "points": 11, "kept": "HC", "tied": False}
    assert d["label"] == "inaccuracy"


@pytest.mark.parametrize("variant", ["classic", "four", "chiamata"])
def test_no_good_label_hides_an_unforced_lost_load(variant):
    """Over seeded deals of careless play: every play labelled good or better lost no load
    that a cheaper card would have kept, and every unforced lost load is flagged."""
    seen = 0
    for i in range(3):
        game = play(Game.new(variant, seed=f"load/{i}"), ["beginner"] * 6, seed=f"load/{i}")
        pts = game.rules.tables.points
        for seat in range(min(game.n, 2)):
            for d in review_deal(game, seat, SMALL)["decisions"]:
                if d["unit"] != "card_points":
                    continue
                noise = 0.0 if d["method"] == "exact" else NOISE
                kept = unforced_lost_load(d, pts, noise)
                if kept is not None and d["loss"] > 0:
                    seen += 1
                    assert d["label"] not in GOOD_OR_BETTER, d
                elif kept is not None:  # tied with the best: it lost nothing over the deal
                    assert d["label"] in ("best", "equal") and d["load_lost"]["tied"], d
                assert (kept is not None) == ("load_lost" in d), d
    assert seen > 0
