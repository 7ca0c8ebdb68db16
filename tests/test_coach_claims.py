"""No false word: every claim a coach's reason makes about the trick is true, read as a strong
player reads it (:func:`briscola.ai.teach.claims`), on the positions where a false one was
found and over seeded deals of every family:

* a card that would take the trick is never counted as points put on it ("give the trick
  little: the Ace of trumps puts 11 on it");
* a take is "sure" only where no card a player still to play may hold can beat it, else the
  sentence says how likely it is beaten (in Chiamata, counting who may be the partner);
* "risks N points" only where something can take the card;
* "only N cards beat it" always with the chance that one of them is played here.
"""
from __future__ import annotations

import random

import pytest

from briscola.ai import make_bot
from briscola.ai.evaluate import Evaluation, card_plays, settle
from briscola.ai.explain import because, explain
from briscola.ai.teach import Facts, claims, holds
from briscola.cards import CARDS, Card
from briscola.game import Game


def at(variant: str, deal: int, step: int):
    """The view of the seat to play after ``step`` actions of a seeded deal of intermediate
    players (the positions the claims were found false in)."""
    game = Game.new(variant, seed=f"scan/{variant}/{deal}")
    bots = [make_bot("intermediate", seed=f"scan/{deal}/{s}") for s in range(game.n)]
    while len(game.actions) < step:
        s = game.current_player
        game.apply(bots[s].decide(game.view(s)).action)
    return game.view(game.current_player)


def tied(view, b: int, a: int) -> Evaluation:
    """``b`` and ``a`` within the evaluation's noise of each other, every other card well
    below: what the principles then say."""
    values = {c: 0.0 for c in card_plays(view)}
    values[b], values[a] = 10.2, 10.0
    return settle(view, Evaluation(view.seat, values, "search", 1, False))


def apart(view, b: int, a: int) -> Evaluation:
    values = {c: 0.0 for c in card_plays(view)}
    values[b], values[a] = 20.0, 15.0
    return settle(view, Evaluation(view.seat, values, "search", 1, False))


def card(text: str) -> int:
    return int(Card.parse(text))


def said(view, why) -> dict:
    p = why["params"]
    return claims(Facts(view), why["code"], card(p["card"]), card(p["alt"]), p)


def test_a_card_that_takes_is_never_points_put_on_the_trick():
    # four players: the partner's card may be beaten; the Horse of Spades would take the
    # trick, and "give it little" counted it as three points put on it
    view = at("four", 1, 34)
    f = Facts(view)
    jb, hs = card("JB"), card("HS")
    assert f.ours and f.threat(f.best) and f.wins(hs) and not f.wins(jb)
    for ev in (tied(view, hs, jb), tied(view, jb, hs)):
        for b, a in ((hs, jb), (jb, hs)):
            why = because(view, ev, b, a)
            assert why["code"] != "coach_tie_partner_unsafe", why
            assert all(said(view, why).values()), why
    # Chiamata, the partner's trick: the Jack of trumps would take it
    view = at("chiamata", 3, 21)
    f = Facts(view)
    d5, js = card("5D"), card("JS")
    assert f.ours and f.wins(js) and not f.wins(d5)
    why = because(view, tied(view, d5, js), d5, js)
    assert why["code"] != "coach_tie_partner_unsafe" and all(said(view, why).values()), why


def test_a_take_is_sure_only_where_nothing_can_beat_it():
    # four players, the first card of a trick: the trump Two "would take this trick" with
    # three players still to play; the King let go gives 4 points, unsaid
    view = at("four", 0, 1)
    f = Facts(view)
    kb, c2 = card("KB"), card("2C")
    assert f.wins(c2) and not f.sure(c2) and f.pts[kb] == 4
    why = because(view, tied(view, kb, c2), kb, c2)
    assert why["code"] == "coach_tie_save_trump_odds", why
    p = why["params"]
    assert p["given"] == 4 and p["risk_alt"] == f.risk(c2) and 0 < p["risk_alt"] < 100, why
    assert all(said(view, why).values())
    # and with a clear gap: never "would take" either
    why = because(view, apart(view, kb, c2), kb, c2)
    assert why["code"] == "coach_save_trump_odds" and all(said(view, why).values()), why


def test_risks_only_where_something_can_take_it():
    # leading the Ace of trumps: nothing can beat it, yet "it risks 11 points"
    for variant, deal, step, ace in (("four", 0, 4, "AC"), ("chiamata", 0, 15, "AD")):
        view = at(variant, deal, step)
        f = Facts(view)
        b = card(ace)
        assert f.pos == 0 and f.is_trump(b) and not f.threat(b)
        for a in f.legal:
            if a == b:
                continue
            for ev in (tied(view, b, a), apart(view, b, a)):
                why = because(view, ev, b, a)
                assert why["code"] not in ("coach_lead_trump", "coach_tie_lead_cheap",
                                           "coach_lead_low"), why
                assert all(said(view, why).values()), why
        a = next(c for c in f.legal if not f.is_trump(c))
        assert because(view, apart(view, b, a), b, a)["code"] == "coach_lead_trump_safe"


def test_the_partner_never_threatens_the_callers_take():
    # the caller's take that only the called card could beat is sure: its holder is the partner
    seen = 0
    for d in range(12):
        game = Game.new("chiamata", seed=f"claims/partner/{d}")
        bots = [make_bot("intermediate", seed=f"claims/partner/{d}/{s}") for s in range(game.n)]
        while not game.is_over:
            s = game.current_player
            view = game.view(s)
            if view.phase == "play" and view.trick:
                f = Facts(view)
                if f.mate_card is not None and s == f.caller:
                    for c in f.legal:
                        if f.wins(c):
                            beaters = [x for x in f.unseen if f.beats[(c << 6) | x]]
                            if beaters == [f.mate_card]:
                                assert f.sure(c) and f.hold_chance(c) == 1.0
                                seen += 1
            game.apply(bots[s].decide(view).action)
    assert seen >= 1


def fake(view, rng: random.Random) -> Evaluation:
    plays = card_plays(view)
    exact = rng.random() < 0.25
    spread = rng.choice([0.3, 1.5, 6.0, 20.0])
    values = {c: round(rng.uniform(0, spread), 2) for c in plays}
    return settle(view, Evaluation(view.seat, values, "exact" if exact else "search", 1, exact))


@pytest.mark.parametrize("variant,deals", [("classic", 12), ("four", 8), ("chiamata", 6),
                                           ("three", 4)])
def test_every_claim_holds(variant, deals):
    rng = random.Random(variant)
    kinds: dict[str, int] = {}
    for d in range(deals):
        game = Game.new(variant, seed=f"claims/{variant}/{d}")
        bots = [make_bot("intermediate", seed=f"claims/{d}/{s}") for s in range(game.n)]
        while not game.is_over:
            s = game.current_player
            view = game.view(s)
            if view.phase == "play" and len(card_plays(view)) > 1:
                ev = fake(view, rng)
                for why in [explain(view, ev)] + [explain(view, ev, c) for c in card_plays(view)]:
                    if why["code"] == "coach_forced":
                        continue
                    got = said(view, why)
                    assert all(got.values()), (why, got, [str(c) for c in view.hand],
                                               [(x, str(c)) for x, c in view.trick])
                    assert holds(view, why["code"], why["params"])
                    for k in got:
                        kinds[k] = kinds.get(k, 0) + 1
            game.apply(bots[s].decide(view).action)
    assert {"given", "sure", "odds"} <= set(kinds), kinds


def test_a_load_the_partner_may_lose_is_made_sure_of():
    # the partner's card may still be beaten with ten points or more on the table: among
    # tied cards the one that takes the trick for sure comes first, said with how often the
    # others would take it otherwise (never "give it little" counting the take as points)
    seen = 0
    for d in range(10):
        game = Game.new("four", seed=f"claims/secure/{d}")
        bots = [make_bot("intermediate", seed=f"claims/secure/{d}/{s}") for s in range(game.n)]
        while not game.is_over:
            s = game.current_player
            view = game.view(s)
            f = Facts(view)
            if view.phase == "play" and f.pos and f.ours and f.threat(f.best) and f.table_pts >= 10:
                sure = [c for c in f.legal if f.wins(c) and f.sure(c)]
                other = [c for c in f.legal if not f.wins(c)]
                if sure and other:
                    b, a = sure[0], other[0]
                    ev = tied(view, a, b)  # the other card a little higher: the principle decides
                    assert ev.ranked.index(b) < ev.ranked.index(a)
                    why = because(view, ev, b, a)
                    assert why["code"] == "coach_tie_secure", why
                    p = why["params"]
                    assert p["points"] == f.table_pts and p["risk_alt"] == f.risk(f.best)
                    assert all(said(view, why).values())
                    seen += 1
            game.apply(bots[s].decide(view).action)
    assert seen >= 3, seen
