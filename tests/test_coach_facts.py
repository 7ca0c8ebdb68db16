"""Every numeric fact in a coach's reason is true, recomputed here from the seat's view alone
(the trick on the table, the cards played, the hand) over thousands of decisions: the points
each card takes, leaves or gives, the trumps still out, the cards still out that beat a card,
and the gain between the two cards compared. The evaluations are built with values drawn at
random (ties within the noise, clear gaps, exact and not) so that every kind of reason comes
up; a few deals use the real evaluation too. The claims each sentence makes about the trick
(this card takes it, that one does not, that one is a trump) are checked as well."""
from __future__ import annotations

import random

import pytest

from briscola.ai import make_bot
from briscola.ai.evaluate import NOISE, Budget, Evaluation, card_plays, evaluate
from briscola.ai.explain import CODES, explain
from briscola.ai.teach import holds, keys
from briscola.cards import N_RANKS, Card
from briscola.game import Game

SMALL = Budget(rollout_worlds=8, search_worlds=6, node_budget=15000, ch_worlds=6,
               ch_node_budget=6000)
PARTNER = {"coach_tie_load_partner", "coach_tie_partner_unsafe", "coach_partner_unsafe"}
# params whose number means the points named, by code
POINTS = {
    "coach_take_more": lambda x: x.pts[x.b] - x.pts[x.a],
    "coach_load": lambda x: x.pts[x.b],
    "coach_load_ahead": lambda x: x.pts[x.b] - x.pts[x.a],
    "coach_lead_low": lambda x: x.pts[x.a] - x.pts[x.b],
    "coach_lead_load_risk": lambda x: x.pts[x.a],
    "coach_lead_load": lambda x: x.pts[x.b],
    "coach_save_trump": lambda x: x.table + x.pts[x.a],
    "coach_let_go": lambda x: x.table + x.pts[x.a],
    "coach_save_trump_free": lambda x: x.table + x.pts[x.a],
    "coach_let_go_free": lambda x: x.table + x.pts[x.a],
    "coach_tie_take_load": lambda x: x.table,
    "coach_tie_keep_load": lambda x: x.pts[x.a],
    "coach_tie_lead_keep_load": lambda x: x.pts[x.a],
    "coach_load_risk": lambda x: x.pts[x.b],
    "coach_lead_load_trump": lambda x: x.pts[x.b],
    "coach_tie_lead_load": lambda x: x.pts[x.b],
    "coach_tie_take_load_may": lambda x: x.table,
    "coach_tie_take_load_odds": lambda x: x.table,
    "coach_save_trump_odds": lambda x: x.table + x.pts[x.a],
    "coach_let_go_odds": lambda x: x.table + x.pts[x.a],
    "coach_lead_load_odds": lambda x: x.pts[x.b],
    "coach_lead_load_trump_odds": lambda x: x.pts[x.b],
    "coach_lead_load_risk_odds": lambda x: x.pts[x.a],
    "coach_tie_lead_load_odds": lambda x: x.pts[x.b],
    "coach_tie_secure": lambda x: x.table,
    "coach_tie_differ_points": lambda x: x.pts[x.b],
    "coach_equal_lead": lambda x: x.pts[x.b],
}
# points that may be none (the sentence says "no points")
NO_POINTS_OK = {"coach_save_trump_odds", "coach_let_go_odds", "coach_tie_differ_points",
                "coach_equal_lead"}
# which card each "beaters" count is about
BEATERS = {"coach_lead_load_risk": ("a", None), "coach_lead_load": ("b", None),
           "coach_lead_strong": ("b", "a"), "coach_keep_safer": ("b", "a"),
           "coach_tie_keep_safer": ("b", "a"), "coach_lead_load_trump": ("b", None),
           "coach_tie_lead_load": ("b", None), "coach_lead_load_odds": ("b", None),
           "coach_lead_load_trump_odds": ("b", None), "coach_lead_strong_odds": ("b", "a"),
           "coach_lead_load_risk_odds": ("a", None), "coach_tie_lead_load_odds": ("b", None)}
# what the sentence says about the trick: (b takes it, a takes it); None: not said
TAKES = {"coach_take": (True, False), "coach_take_trump": (True, False),
         "coach_take_lead": (True, False), "coach_save_trump": (False, True),
         "coach_take_lead_keep": (True, False), "coach_save_trump_empty": (False, True),
         "coach_let_go_empty": (False, True), "coach_take_own": (True, False),
         "coach_save_trump_free": (False, True), "coach_let_go_free": (False, True),
         "coach_strozzo": (True, False),
         "coach_let_go": (False, True), "coach_take_cheaper": (True, True),
         "coach_take_keep_trump": (True, True), "coach_take_more": (True, True),
         "coach_take_keep": (True, True), "coach_discard": (False, False),
         "coach_give_keep": (False, False), "coach_tie_take_load": (True, False),
         "coach_tie_take_plain": (True, None), "coach_tie_take_plain_lead": (True, None),
         "coach_tie_take_points": (True, None), "coach_tie_low_trump": (True, True),
         "coach_take_may": (True, False), "coach_take_lead_may": (True, False),
         "coach_take_both_may": (True, True), "coach_tie_take_load_may": (True, False),
         "coach_tie_take_points_may": (True, None), "coach_tie_save_trump": (False, True),
         "coach_take_odds": (True, False), "coach_take_lead_odds": (True, False),
         "coach_take_both_odds": (True, True), "coach_tie_take_load_odds": (True, False),
         "coach_tie_take_points_odds": (True, None), "coach_save_trump_odds": (False, True),
         "coach_let_go_odds": (False, True), "coach_tie_save_trump_give": (False, True),
         "coach_tie_save_trump_odds": (False, True), "coach_tie_secure": (True, None)}


def chance(view, x: "Seen", c: int) -> int | None:
    """The chance (in %, rounded to 5) that no opponent still to play holds a card that beats
    ``c``: the unseen cards that beat it all fall outside the unknown places of those hands
    (a hypergeometric share); ``None`` where a suit lacked changes the count (a carichi)."""
    p = hold(view, x, c)
    return None if p is None else 5 * round(20 * p)


def risk(view, x: "Seen", c: int) -> int | None:
    """The chance (in %, rounded to 5) that an opponent still to play beats ``c``."""
    p = hold(view, x, c)
    return None if p is None else 5 * round(20 * (1 - p))


def hold(view, x: "Seen", c: int) -> float | None:
    """:func:`chance` unrounded. In Chiamata before the called card falls, its holder is the
    caller's partner: each seat that may hold it (as likely as its unknown cards) decides the
    sides, and the share is counted for each."""
    from math import comb

    from briscola.ai.common import trick_order
    if view.chiamata and view.chiamata.get("carichi"):
        return None
    me, sides = view.seat, view.side_of_seat

    def friend(s: int) -> bool:
        return sides[s] is not None and sides[me] is not None and sides[s] >= 0 \
            and sides[s] == sides[me]

    later = [s for s in trick_order(view)[x.pos + 1:] if s != me]
    after = {s for s in later if not friend(s)}
    if any(x.beats(c, int(y)) for s in after for y in view.known[s]):
        return 0.0  # a card known in the hand of a player to come beats it
    unseen = [int(y) for y in view.unseen()]
    per_seat, _talon = view.hidden_counts()
    beaters = [y for y in unseen if x.beats(c, y)]
    ch = view.chiamata
    called = None
    if ch and ch.get("called_card") and ch.get("partner") is None \
            and not ch.get("partner_revealed"):
        called = int(Card.parse(ch["called_card"]))
    if called is None or called not in unseen:
        places = sum(per_seat[s] for s in after)
        return comb(len(unseen) - len(beaters), places) / comb(len(unseen), places)
    n, got = len(unseen), 0.0
    for holder in range(view.players):
        if not per_seat[holder] or holder == me:
            continue
        if me == ch["caller"]:
            enemies = {s for s in later if s != holder}
        else:
            enemies = {s for s in later if s in (holder, ch["caller"])}
        if called in beaters and holder in enemies:
            continue
        rest = len([y for y in beaters if y != called])
        k = sum(per_seat[s] - (s == holder) for s in enemies)
        got += per_seat[holder] / n * comb(n - 1 - rest, k) / comb(n - 1, k)
    return got


class Seen:
    """The facts of a decision, computed from the view without the engine's tables of who
    beats whom: the same suit and a higher rank, or a trump on a plain card."""

    def __init__(self, view, b: int, a: int) -> None:
        t = view.rules.tables
        self.pts, strength, trump = t.points, t.strength, view.trump_suit
        self.b, self.a = b, a

        def beats(x: int, y: int) -> bool:  # does y, played after x, beat it?
            if y // N_RANKS == x // N_RANKS:
                return strength[y] > strength[x]
            return trump is not None and y // N_RANKS == trump

        self.beats = beats
        self.trump = trump
        self.pos = len(view.trick)
        self.table = sum(self.pts[int(c)] for _s, c in view.trick)
        best = None
        for _s, c in view.trick:
            if best is None or beats(best, int(c)):
                best = int(c)
        self.best = best
        played = {int(c) for _s, c in view.trick}
        for _o, cards, _w, _p in view.tricks:
            played |= {int(c) for c in cards}
        hand = {int(c) for c in view.hand}
        self.out = [int(c) for c in t.deck if int(c) not in played and int(c) not in hand]

    def wins(self, c: int) -> bool:
        return self.best is None or self.beats(self.best, c)

    def is_trump(self, c: int) -> bool:
        return self.trump is not None and c // N_RANKS == self.trump

    def trumps_out(self) -> int:
        return sum(1 for c in self.out if self.is_trump(c))

    def beaters(self, c: int) -> int:
        return sum(1 for y in self.out if self.beats(c, y))

    def given(self, c: int, code: str) -> int:
        if code in PARTNER or self.pos == 0 or not self.wins(c):
            return self.pts[c]
        return 0


def check(view, ev: Evaluation, why: dict) -> str:
    code, p = why["code"], why["params"]
    assert code in CODES, why
    if code == "coach_forced":
        return code
    assert holds(view, code, p), why  # the principle said holds in the position
    b, a = int(Card.parse(p["card"])), int(Card.parse(p["alt"]))
    assert b != a and b in ev.values and a in ev.values
    x = Seen(view, b, a)
    if code.startswith(("coach_tie_", "coach_equal")):
        assert ev.loss(a) == 0 and ev.loss(b) == 0 and "gain" not in p, why
        assert ev.ranked.index(b) < ev.ranked.index(a), why  # the teacher's pick comes first
    else:
        assert p["gain"] == round(ev.values[b] - ev.values[a], 1), why
        assert ev.loss(a) > 0 and ev.loss(b) < ev.loss(a) + 1e-9, why
    takes = TAKES.get(code)
    if takes is not None:
        assert x.pos > 0, why
        assert x.wins(b) == takes[0] and (takes[1] is None or x.wins(a) == takes[1]), why
    for k, v in p.items():
        if k in ("card", "alt"):
            continue
        if k == "gain":
            continue
        if k == "taken":
            want = x.table + x.pts[b]
        elif k == "taken_alt":
            want = x.table + x.pts[a] if x.wins(a) else 0
        elif k == "left":
            want = x.table + x.pts[a]
            assert v > 0, why
        elif k == "given":
            want = x.given(b, code)
        elif k == "given_alt":
            want = x.given(a, code)
        elif k == "trumps":
            want = x.trumps_out()
            assert v > 0, why
        elif k == "points":
            want = POINTS[code](x)
            assert v > 0 or code in NO_POINTS_OK, why  # a cause not there is never given
        elif k in ("risk", "risk_alt"):
            c = b if (k == "risk") != (code == "coach_lead_load_risk_odds") else a
            if code == "coach_tie_secure":
                c = a if x.wins(a) else x.best
            want = risk(view, x, c)
            assert 0 <= v <= 100 and v % 5 == 0, why
            if want is None:
                continue
        elif k == "beaters":
            want = x.beaters(b if BEATERS[code][0] == "b" else a)
        elif k == "below":  # lower cards of the kept card's suit still out
            want = sum(1 for y in x.out if y // N_RANKS == a // N_RANKS and x.beats(y, a))
            assert v > 0, why
        elif k in ("chance", "chance_alt"):
            want = chance(view, x, b if k == "chance" else a)
            assert 0 < v < 100 and v % 5 == 0, why  # never sure, never hopeless
            if want is None:  # a carichi: counted with the suits lacked (test_coach_odds.py)
                continue
        elif k == "points_alt":  # a card's own points
            want = x.pts[a]
        elif k in ("take", "take_alt"):  # 1: the card would be the best of the trick now
            want = int(x.pos > 0 and x.wins(b if k == "take" else a))
        elif k in ("safe", "safe_alt"):  # 1: nothing a player to come may hold beats it
            continue  # (the threat of a card: Facts.sure, checked by test_coach_odds)
        elif k == "beats":  # cards with points still out the kept card beats, the other not
            want = sum(1 for y in x.out if x.pts[y] and x.beats(y, a) and not x.beats(y, b))
            assert v > 0, why
        elif k == "beaters_alt":
            want = x.beaters(b if BEATERS[code][1] == "b" else a)
        else:
            raise AssertionError(f"unchecked parameter {k} in {why}")
        assert v == want, (k, v, want, why, view.trick, view.hand)
    then = why.get("then")
    if then is not None:  # the points of a card given away, said after
        assert then["code"] == "coach_gives" and then["params"]["card"] == p["card"], why
        assert then["params"]["given"] == x.pts[b] > 0 and x.pos > 0 and not x.wins(b), why
    elif x.pos > 0 and not x.wins(b) and x.pts[b] and code not in ("coach_load", "coach_load_risk"):
        assert "given" in p, why  # a figure given away always says its points
    if code in ("coach_save_trump_free", "coach_let_go_free"):
        assert x.pts[b] == 0, why  # a card of no points
    if code in ("coach_save_trump", "coach_let_go"):
        assert p["given"] > 0, why
    if code in ("coach_keep_trump", "coach_save_trump", "coach_tie_keep_trump", "coach_save_trump_empty",
                "coach_tie_save_trump",
                "coach_save_trump_free",
                "coach_take_keep_trump"):
        assert x.is_trump(a) and not x.is_trump(b), why
    if code == "coach_tie_low_trump":
        assert x.is_trump(a) and x.is_trump(b) and x.pts[b] <= x.pts[a], why
    if code == "coach_strozzo":  # a higher card of the suit of a load on the table
        assert x.best // N_RANKS == b // N_RANKS and x.pts[x.best] >= 10, why
    if code == "coach_take_own":
        assert x.table + x.pts[a] == 0 and x.pts[b] > 0, why
    if code in ("coach_save_trump_empty", "coach_let_go_empty", "coach_take_lead_keep"):
        assert x.table + x.pts[a if code != "coach_take_lead_keep" else b] == 0, why
    if code in ("coach_lead_trump", "coach_take_trump"):
        assert x.is_trump(b) and not x.is_trump(a), why
    return code


def fake(view, rng: random.Random) -> Evaluation:
    """An evaluation of the view's cards with values drawn at random: often ties."""
    plays = card_plays(view)
    exact = rng.random() < 0.3
    spread = rng.choice([0.3, 1.5, 6.0, 20.0])
    values = {c: round(rng.uniform(0, spread), 2) for c in plays}
    ev = Evaluation(view.seat, values, "exact" if exact else "search", 1, exact)
    ev.tiebreak = keys(view, plays)
    ev.noise = 0.0 if exact else NOISE
    return ev


@pytest.mark.parametrize("variant,deals", [("classic", 40), ("four", 16), ("three", 8),
                                           ("chiamata", 8)])
def test_every_number_in_a_reason_is_true(variant, deals):
    rng = random.Random(variant)
    decisions = 0
    codes = set()
    for d in range(deals):
        game = Game.new(variant, seed=f"facts/{d}")
        levels = ["random", "intermediate"]
        bots = [make_bot(levels[(s + d) % 2], seed=f"facts/{d}/{s}") for s in range(game.n)]
        while not game.is_over:
            s = game.current_player
            view = game.view(s)
            if view.phase == "play" and len(card_plays(view)) > 1:
                ev = fake(view, rng)
                codes.add(check(view, ev, explain(view, ev)))
                for c in card_plays(view):
                    codes.add(check(view, ev, explain(view, ev, c)))
                decisions += 1
            game.apply(bots[s].decide(view).action)
    assert decisions >= 8 * deals
    if variant == "classic":
        assert decisions >= 1000
        assert len(codes) >= 25, sorted(codes)


def test_every_number_true_with_the_real_evaluation():
    codes = set()
    for d in range(4):
        game = Game.new("classic" if d % 2 == 0 else "four", seed=f"facts/real/{d}")
        bots = [make_bot("intermediate", seed=f"facts/real/{d}/{s}") for s in range(game.n)]
        while not game.is_over:
            s = game.current_player
            view = game.view(s)
            if len(card_plays(view)) > 1:
                ev = evaluate(view, SMALL)
                codes.add(check(view, ev, explain(view, ev)))
                played = bots[s].decide(view).action
                codes.add(check(view, ev, explain(view, ev, int(played))))
                game.apply(played)
            else:
                game.apply(bots[s].decide(view).action)
    assert len(codes) >= 10, codes
