"""How likely a take that is not sure holds (``Facts.hold_chance``), checked against every deal
of the unseen cards counted one by one on small positions (the end of a deal, where few cards
are unseen), with the suits a seat is known to lack where the suit led must be followed (a
carichi); and the hint that says it (``coach_*_odds``): only a take neither sure nor hopeless,
with the chance the position gives, rounded to 5 %."""
from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest

from briscola.ai import make_bot
from briscola.ai.evaluate import card_plays, evaluate
from briscola.ai.explain import explain
from briscola.ai.teach import ODDS, Facts, chance_words, deals, holds
from briscola.cards import CARDS, N_RANKS
from briscola.game import Game

from test_coach_facts import SMALL


def every_deal(view, c: int) -> Fraction | None:
    """The share of the deals of the unseen cards (into the other hands' unknown places and the
    talon's) in which no opponent still to play holds a card that beats ``c``; counted one deal
    at a time from the view alone, the suits lacked found from the tricks again. ``None`` when
    there are too many deals to count."""
    from briscola.ai.common import trick_order
    t = view.rules.tables
    trump = view.trump_suit
    strength = t.strength
    lead = int(view.trick[0][1])

    def beats(y: int) -> bool:  # does y beat c (c on top of the trick)?
        if y // N_RANKS == c // N_RANKS:
            return strength[y] > strength[c]
        return trump is not None and y // N_RANKS == trump and c // N_RANKS != trump

    assert lead is not None
    me, sides = view.seat, view.side_of_seat

    def friend(s: int) -> bool:
        return sides[s] is not None and sides[me] is not None and sides[s] >= 0 \
            and sides[s] == sides[me]

    order = trick_order(view)
    after = {s for s in order[len(view.trick) + 1:] if s != me and not friend(s)}
    lacks: dict[int, set[int]] = {}
    if view.chiamata and view.chiamata.get("carichi"):
        tricks = [(o, [int(x) for x in cs]) for o, cs, _w, _p in view.tricks]
        tricks.append(([s for s, _x in view.trick], [int(x) for _s, x in view.trick]))
        for o, cs in tricks:
            for s, x in zip(o, cs):
                if x // N_RANKS != cs[0] // N_RANKS:
                    lacks.setdefault(s, set()).add(cs[0] // N_RANKS)
    for s in after:
        if any(beats(int(x)) for x in view.known[s]):
            return Fraction(0)
    per_seat, talon = view.hidden_counts()
    places = [(s, n) for s, n in enumerate(per_seat) if n and s != me]
    if talon:
        places.append((-1, talon))
    unseen = [int(x) for x in view.unseen()]
    if len(unseen) > 10:
        return None
    good = total = 0

    def deal(i: int, left: list[int], beaten: bool) -> None:
        nonlocal good, total
        if i == len(places):
            total += 1
            good += not beaten
            return
        s, n = places[i]
        for hand in combinations(left, n):
            if any(x // N_RANKS in lacks.get(s, ()) for x in hand):
                continue
            rest = [x for x in left if x not in hand]
            deal(i + 1, rest, beaten or (s in after and any(beats(x) for x in hand)))

    deal(0, unseen, False)
    return Fraction(good, total)


def counted_deals(f: Facts, c: int) -> float:
    """:meth:`Facts.hold_chance` by the general count of deals (:func:`deals`), which it uses
    only where a suit is lacked (else the same share in closed form)."""
    after = set(f.opps_after)
    caps = [n for _s, n in f.places]
    every = [tuple(range(len(caps)))] * len(f.unseen)
    held = [tuple(i for i, (s, _n) in enumerate(f.places)
                  if not (f.beats[(c << 6) | x] and s in after)) for x in f.unseen]
    return deals(caps, held) / deals(caps, every)


def positions(variant: str, n: int, start: str | None = None):
    """Every view of ``n`` seeded deals where a card would top the trick, after its first card."""
    for d in range(n):
        game = Game.new(variant, seed=f"odds/{variant}/{d}")
        if start:
            game.apply(start)
        bots = [make_bot("intermediate", seed=f"odds/{d}/{s}") for s in range(game.n)]
        while not game.is_over:
            s = game.current_player
            view = game.view(s)
            if view.phase == "play" and view.trick:
                yield view
            game.apply(bots[s].decide(view).action)


@pytest.mark.parametrize("variant,start", [("four", None), ("three", None), ("six", None),
                                           ("four-show-first", None), ("chiamata", "carichi")])
def test_the_chance_a_take_holds_is_the_share_of_the_deals(variant, start):
    counted = between = 0
    for view in positions(variant, 60 if start else 10, start):
        f = Facts(view)
        for c in card_plays(view):
            if not f.wins(c):
                assert f.hold_chance(c) == 0.0
                continue
            want = every_deal(view, c)
            if want is None:
                continue
            got = f.hold_chance(c)
            assert abs(got - float(want)) < 1e-12, (view.trick, view.hand, str(CARDS[c]), got, want)
            if not any(f.voids.values()) and f.opps_after and want > 0:
                # the general count (the one a carichi needs) agrees where no suit is lacked
                assert abs(counted_deals(f, c) - float(want)) < 1e-12
            if f.sure(c):  # nothing can beat it: it holds in every deal
                assert got == 1.0
            counted += 1
            between += 0 < want < 1
    # a carichi gives few tricks won for now by one of several cards: fewer to check
    assert (counted, between) >= ((40, 3) if start else (40, 10)), (counted, between)


def test_the_suits_a_seat_lacks_count_in_a_carichi():
    # a carichi: a seat that did not follow the suit led lacks it, so fewer deals have it
    # holding a card of that suit; the chance differs from a plain count somewhere
    differs = 0
    for view in positions("chiamata", 24, "carichi"):
        f = Facts(view)
        if not any(f.voids.values()):
            continue
        for c in card_plays(view):
            if f.wins(c) and 0 < f.hold_chance(c) < 1:
                saved, f.voids = f.voids, {}
                plain = f.hold_chance(c)
                f.voids = saved
                differs += abs(plain - f.hold_chance(c)) > 1e-9
    assert differs >= 3


def test_deals_are_counted_place_by_place():
    # three cards into places of 2 and 1: 3 ways; the first card kept out of place 1: 2 ways
    assert deals([2, 1], [(0, 1)] * 3) == 3
    assert deals([2, 1], [(0,), (0, 1), (0, 1)]) == 2
    assert deals([1, 1], [(0,), (0,)]) == 0  # both cards only fit the first place
    assert deals([2], [(0,)]) == 0  # fewer cards than places


def test_a_chance_is_said_rounded_to_five_and_never_sure_or_hopeless():
    assert chance_words(0.5) == 50
    assert chance_words(0.74) == 75 and chance_words(0.76) == 75
    assert chance_words(0.026) == 5 and chance_words(0.974) == 95
    assert chance_words(0.02) is None and chance_words(0.98) is None
    assert chance_words(0.0) is None and chance_words(1.0) is None


def test_a_hint_says_how_likely_a_take_holds():
    said = 0
    for d in range(4):
        game = Game.new("four", seed=f"odds/hint/{d}")
        bots = [make_bot("intermediate", seed=f"odds/hint/{d}/{s}") for s in range(game.n)]
        while not game.is_over:
            s = game.current_player
            view = game.view(s)
            if view.phase == "play" and len(card_plays(view)) > 1 and view.trick:
                why = explain(view, evaluate(view, SMALL))
                code, p = why["code"], why["params"]
                if code in ODDS.values():
                    f = Facts(view)
                    b = int(next(c for c in CARDS if str(c) == p["card"]))
                    assert p["chance"] == chance_words(f.hold_chance(b))
                    assert 0 < f.hold_chance(b) < 1 and not f.sure(b)
                    assert holds(view, code, p)
                    wrong = dict(p, chance=p["chance"] + 5 if p["chance"] < 95 else 90)
                    assert not holds(view, code, wrong)  # a chance the position does not give
                    said += 1
                elif code in ODDS:  # "may take" only where no chance can be said
                    f = Facts(view)
                    b = int(next(c for c in CARDS if str(c) == p["card"]))
                    assert chance_words(f.hold_chance(b)) is None or (
                        code == "coach_take_both_may")
            game.apply(bots[s].decide(view).action)
    assert said >= 3


def every_deal_hidden(view, c: int) -> Fraction | None:
    """Chiamata before the called card falls, counted one deal at a time: in each deal the
    holder of the called card is the caller's partner, and the take holds where no enemy of
    the seat still to play (for the caller: every seat but that holder; for an opponent: the
    caller and that holder) holds a card that beats ``c``. ``None`` when too many deals."""
    from briscola.ai.common import trick_order
    from briscola.cards import Card
    t = view.rules.tables
    trump, strength = view.trump_suit, t.strength

    def beats(y: int) -> bool:
        if y // N_RANKS == c // N_RANKS:
            return strength[y] > strength[c]
        return trump is not None and y // N_RANKS == trump and c // N_RANKS != trump

    ch = view.chiamata
    called, caller, me = int(Card.parse(ch["called_card"])), ch["caller"], view.seat
    later = [s for s in trick_order(view)[len(view.trick) + 1:] if s != me]
    per_seat, _talon = view.hidden_counts()
    places = [(s, n) for s, n in enumerate(per_seat) if n and s != me]
    unseen = [int(x) for x in view.unseen()]
    if len(unseen) > 10:
        return None
    good = total = 0

    def deal(i: int, left: list[int], hands: dict) -> None:
        nonlocal good, total
        if i == len(places):
            holder = next(s for s, h in hands.items() if called in h)
            enemies = [s for s in later if (s != holder if me == caller else s in (holder, caller))]
            total += 1
            good += not any(beats(x) for s in enemies for x in hands.get(s, ()))
            return
        s, n = places[i]
        for hand in combinations(left, n):
            deal(i + 1, [x for x in left if x not in hand], {**hands, s: hand})

    deal(0, unseen, {})
    return Fraction(good, total)


def test_in_chiamata_the_odds_count_who_may_be_the_partner():
    # before the called card falls, one of the seats whose side is unknown is the partner:
    # for the caller it never threatens the take, for an opponent it is the hidden enemy
    counted = between = 0
    for view in positions("chiamata", 40):
        ch = view.chiamata
        if not ch or ch.get("partner") is not None or ch.get("partner_revealed"):
            continue
        f = Facts(view)
        if f.mate_card is None:
            continue
        for c in card_plays(view):
            if not f.wins(c):
                continue
            want = every_deal_hidden(view, c)
            if want is None:
                continue
            got = f.hold_chance(c)
            assert abs(got - float(want)) < 1e-12, (view.seat, view.trick, str(CARDS[c]), got, want)
            if f.sure(c):
                assert want == 1
            counted += 1
            between += 0 < want < 1
    assert counted >= 20 and between >= 5, (counted, between)
