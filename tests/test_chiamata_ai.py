"""The Briscola Chiamata computer players: legal play in every variant, sane bids and calls,
sampled worlds that never contradict the view, reproducibility, and no peeking."""
from __future__ import annotations

import os
import random
import sys

_PY = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "py")
if _PY not in sys.path:
    sys.path.insert(0, _PY)

import pytest  # noqa: E402

from briscola.ai.reasons import CODES  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from briscola.ai import CHIAMATA_BOTS, Decision, make_bot  # noqa: E402
from briscola.ai.chiamata.bid import estimate  # noqa: E402
from briscola.ai.chiamata.bots import BeginnerChiamataBot, IntermediateChiamataBot  # noqa: E402
from briscola.ai.chiamata.common import SUIT_MASKS, ChState, bits, popcount  # noqa: E402
from briscola.ai.chiamata.expert import (ChSampler, ChSolver, ExpertChiamataBot,  # noqa: E402
                                         SearchAborted, game_points_for, soft_game_points)
from briscola.cards import CARDS, N_RANKS, Card  # noqa: E402
from briscola.game import Game  # noqa: E402
from learnkit import minimax, script  # noqa: E402
from briscola.rules import VARIANTS  # noqa: E402

CHIAMATA = sorted(name for name, r in VARIANTS.items() if r.mode == "chiamata")
LEVELS = ("beginner", "intermediate", "expert")


def fast_expert(seed):
    """The expert with a small, fixed amount of search (deterministic, quick for tests)."""
    return ExpertChiamataBot(seed=seed, node_budget=3000, max_worlds=4)


def bot(level, seed):
    if level == "expert":
        return fast_expert(seed)
    return {"beginner": BeginnerChiamataBot, "intermediate": IntermediateChiamataBot}[level](
        seed=seed)


def play(game, bots, upto=None):
    """Play with the checked ``apply``; every decision is a Decision with one sentence."""
    steps = 0
    while not game.is_over and (upto is None or steps < upto):
        seat = game.current_player
        d = bots[seat].decide(game.view(seat))
        assert isinstance(d, Decision)
        assert set(d.reason) == {"code", "params"} and d.reason["code"] in CODES, d.reason
        game.apply(d.action, seat)
        steps += 1
    return game


def test_the_three_levels_are_registered_and_reached_by_make_bot():
    for level in LEVELS:
        assert level in CHIAMATA_BOTS
    g = Game.new("chiamata", seed=3)
    for level in LEVELS:
        d = make_bot(level, seed=1).decide(g.view(g.current_player))
        assert str(d.action) in [str(a) for a in g.legal_actions()]


@pytest.mark.parametrize("variant", CHIAMATA)
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_every_variant_legally(variant, level):
    deals = 3 if level == "expert" else 10
    for seed in range(deals):
        rng = random.Random(seed)
        # The level under test in most seats, the others mixed in.
        names = [level] * 3 + [rng.choice(LEVELS[:2]), "intermediate"]
        rng.shuffle(names)
        bots = [bot(n, f"{variant}:{seed}:{s}") for s, n in enumerate(names)]
        g = play(Game.new(variant, seed=f"{level}:{seed}"), bots)
        assert g.is_over and sum(g.outcome().game_points) == 0


@pytest.mark.parametrize("level", LEVELS)
def test_a_carichi_deals_are_played_legally(level):
    for seed in range(3 if level == "expert" else 8):
        g = Game.new("chiamata", seed=f"carichi:{seed}")
        g.apply("carichi")
        bots = [bot(level, f"c:{seed}:{s}") for s in range(5)]
        play(g, bots)
        assert g.auction.carichi and g.is_over


# ---- bids and calls -----------------------------------------------------------------------------

STRONG = ["AD 3D KD HD JD 7D AC 3C", "4D 5D 6D KC 4C 5C 6C 7C", "AS 3S KS HS JS 7S 6S 5S",
          "AB 3B KB HB JB 7B 6B 5B", "2D 2C 2S 2B 4S 4B HC JC"]
HOPELESS = ["2D 4D 2C 4C 2S 4S 2B 4B", "AD 3D KD HD JD 7D AC 3C", "AS 3S KS HS JS 7S 6S 5S",
            "AB 3B KB HB JB 7B 6B 5B", "5D 6D KC HC JC 7C 6C 5C"]


@pytest.mark.parametrize("variant", ["chiamata", "chiamata-points", "chiamata-plain"])
@pytest.mark.parametrize("level", ["beginner", "intermediate", "expert"])
def test_a_very_strong_hand_bids_and_a_hopeless_hand_passes(variant, level):
    g = Game.from_hands(variant, STRONG, dealer=4)
    d = bot(level, 1).decide(g.view(0))
    assert str(d.action) != "pass", d
    g = Game.from_hands(variant, HOPELESS, dealer=4)
    d = bot(level, 1).decide(g.view(0))
    assert str(d.action) == "pass", d


def _deal_around(hand0, seed=0):
    """Seat 0 holds ``hand0``; the other 32 cards are shuffled among the others."""
    mine = hand0.split()
    rest = [str(c) for c in Game.new("chiamata", seed=0).rules.tables.deck if str(c) not in mine]
    random.Random(seed).shuffle(rest)
    return [hand0] + [" ".join(rest[8 * k:8 * k + 8]) for k in range(4)]


GOOD = "AD 3D KD 7D 5D AC 2S 4B"  # five coins with the ace, three and king; a side ace


def test_a_carichi_only_with_a_hand_that_runs_its_suits():
    g = Game.from_hands("chiamata", STRONG, dealer=4)
    # Six coins from the top and the ace and three of cups: every trick alone, no trump.
    assert str(bot("intermediate", 0).decide(g.view(0)).action) == "carichi"
    g = Game.from_hands("chiamata", _deal_around(GOOD), dealer=4)
    assert str(bot("intermediate", 0).decide(g.view(0)).action) != "carichi"


@pytest.mark.parametrize("variant", ["chiamata", "chiamata-plain", "chiamata-points"])
def test_the_caller_calls_the_best_card_it_lacks_of_its_long_suit(variant):
    for seed in range(4):
        g = Game.from_hands(variant, _deal_around(GOOD, seed), dealer=4)
        b = bot("intermediate", 0)
        g.apply(b.decide(g.view(0)).action, 0)
        for _ in range(4):
            g.apply("pass")
        assert g.phase_name == "call" and g.auction.caller == 0
        d = b.decide(g.view(0))
        g.apply(d.action, 0)
        assert g.trump_suit == "D", d
        assert g.auction.called not in g.hands[0]
        if variant == "chiamata-points":
            assert str(d.action) == "call-HD", d  # the highest coin it lacks


def test_raises_only_as_far_as_the_hand_supports():
    hands = _deal_around(GOOD)
    g = Game.from_hands("chiamata", hands, dealer=3)  # seat 4 bids first, then seat 0
    g.apply("bid-2")
    d = bot("intermediate", 0).decide(g.view(0))
    assert str(d.action) in ("pass", "bid-62"), d
    g = Game.from_hands("chiamata", hands, dealer=2)  # seats 3, 4, then 0
    g.apply("bid-2")
    g.apply("bid-95")
    d = bot("intermediate", 0).decide(g.view(0))
    assert str(d.action) == "pass", d
    strong = "AD 3D KD HD JD 7D 6D AC"
    g = Game.from_hands("chiamata-plain", _deal_around(strong), dealer=3)
    g.apply("bid-2")
    d = bot("intermediate", 0).decide(g.view(0))
    assert str(d.action).startswith("bid-6"), d  # seven trumps from the top: 2 and 6x


@pytest.mark.parametrize("variant", ["chiamata", "chiamata-points"])
def test_the_expert_bids_wherever_the_intermediate_does_and_on_some_hands_it_passes(variant):
    """The expert counts on its own play as caller: at the first bid of a deal it never
    passes a hand the intermediate bids, and bids some the intermediate passes."""
    more = 0
    for seed in range(60):
        g = Game.new(variant, seed=f"eager:{seed}")
        v = g.view(g.current_player)
        a_int = IntermediateChiamataBot(seed=1).decide(v).action
        a_exp = fast_expert(1).decide(v).action
        if str(a_int) != "pass":
            assert str(a_exp) != "pass", (seed, a_int)
        elif str(a_exp) != "pass":
            more += 1
    assert more >= 1


@pytest.mark.parametrize("variant", ["chiamata", "chiamata-plain"])
def test_the_expert_raises_straight_to_a_multiplied_stake_only_with_a_hand_worth_it(variant):
    """After the 2, the lowest raise is 62; past 70 the stake doubles and past 80 it
    triples (with multipliers). The expert jumps there with a strong hand, raises by one
    with a fair one, and never jumps when the rules multiply nothing; the intermediate
    always raises by one."""
    def raise_of(hand, level):
        g = Game.from_hands(variant, _deal_around(hand), dealer=3)  # seat 4 bids, then 0
        g.apply("bid-2")
        return str(bot(level, 1).decide(g.view(0)).action)
    six_trumps = "AD 3D KD HD JD 7D AC 4B"
    fair = "AD KD 7D 5D 4D 2S 4B 5C"
    multiplied = variant == "chiamata"
    assert raise_of(six_trumps, "expert") == ("bid-81" if multiplied else "bid-62")
    assert raise_of(fair, "expert") == "bid-62"
    assert raise_of(six_trumps, "intermediate") == "bid-62"
    # A jump is a legal bid that only raises the target.
    g = Game.from_hands(variant, _deal_around(six_trumps), dealer=3)
    g.apply("bid-2")
    g.apply(raise_of(six_trumps, "expert"), 0)
    assert g.auction.high_seat == 0


def test_a_lower_bar_against_another_seats_bid_bids_more_hands_and_changes_nothing_else():
    """``contest_min`` (screened for the expert, not kept): while another seat holds the
    high bid, the policy bids some hands it would pass as the first to bid, each no lower
    than it would have; with no bid on the table it bids exactly as without it."""
    from briscola.ai.chiamata.bid import BidPolicy, decide_auction
    from briscola.ai.chiamata.expert import EXPERT_BID_BONUS
    before = BidPolicy(bonus=EXPERT_BID_BONUS)
    lower = BidPolicy(bonus=EXPERT_BID_BONUS, contest_min=0.0)
    contested = more = 0
    for seed in range(80):
        g = Game.new("chiamata", seed=f"contest:{seed}")
        first = g.view(g.current_player)
        assert decide_auction(first, lower).action == decide_auction(first, before).action
        g.apply("bid-J", g.current_player)  # someone bids the jack: only lower ranks remain
        v = g.view(g.current_player)
        a, b = decide_auction(v, lower).action, decide_auction(v, before).action
        contested += 1
        if str(b) != "pass":
            # A hand it bids anyway it bids no lower: the lower bar lets it stop at a rank
            # whose called card is as strong or stronger.
            assert str(a) != "pass", seed
            order = g.rules.tables.order
            assert order.index(str(a)[-1]) <= order.index(str(b)[-1]), seed
        elif str(a) != "pass":
            more += 1
    assert contested == 80 and 1 <= more < 40


@pytest.mark.parametrize("variant", ["chiamata", "chiamata-points", "chiamata-plain"])
def test_the_called_card_is_held_by_the_caller_only_by_a_deliberate_self_call(variant):
    seen = 0
    for seed in range(40):
        g = Game.new(variant, seed=f"call:{seed}")
        bots = [bot("intermediate", f"{seed}:{s}") for s in range(5)]
        while g.phase_name in ("auction", "call"):
            s = g.current_player
            d = bots[s].decide(g.view(s))
            if g.phase_name == "call":
                hand = list(g.hands[s])
                g.apply(d.action, s)
                if g.auction.called in hand:
                    seen += 1
                    assert d.reason["code"] == "bot_call_self"
                    trump = g.auction.called // N_RANKS
                    assert estimate(hand, trump, g.auction.called, g.rules, True) >= 55
                break
            g.apply(d.action, s)
    assert seen <= 8


# ---- worlds --------------------------------------------------------------------------------------

def _check_world(st_, hands, game):
    n = st_.n
    me = st_.me
    assert hands[me] == st_.hand_mask
    union = 0
    for s in range(n):
        assert popcount(hands[s]) == st_.sizes[s]
        assert not union & hands[s]
        union |= hands[s]
        assert not hands[s] & st_.played
        if s != me:
            for su in range(4):
                if st_.voids[s] >> su & 1:
                    assert not hands[s] & SUIT_MASKS[su]
            assert hands[s] & st_.fixed[s] == st_.fixed[s] & st_.unseen_mask
    assert union == st_.unseen_mask | st_.hand_mask
    called = st_.called
    if called >= 0 and st_.unseen_mask >> called & 1:
        holder = next(s for s in range(n) if hands[s] >> called & 1)
        assert holder != me
        if st_.partner is not None:
            assert holder == st_.partner
        if me != st_.caller and holder == st_.caller:
            assert st_.belief[st_.caller] > 0
    # The view's facts hold in the real deal too (the sampler's constraints are true ones).
    for s in range(n):
        real = 0
        for c in game.hands[s]:
            real |= 1 << c
        if s != me:
            assert real & st_.fixed[s] == st_.fixed[s] & st_.unseen_mask
            for su in range(4):
                if st_.voids[s] >> su & 1:
                    assert not real & SUIT_MASKS[su]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), variant=st.sampled_from(CHIAMATA), steps=st.integers(0, 45),
       viewer=st.integers(0, 4), carichi=st.booleans(), draw=st.integers(0, 10**6))
def test_sampled_worlds_never_contradict_the_view(seed, variant, steps, viewer, carichi, draw):
    g = Game.new(variant, seed=seed)
    if carichi and g.rules.carichi:
        g.apply("carichi")
    bots = [IntermediateChiamataBot(seed=s) for s in range(5)]
    play(g, bots, upto=steps)
    if g.phase_name != "play":
        return
    st_ = ChState(g.view(viewer))
    sampler = ChSampler(st_, random.Random(draw))
    assert sampler.consistent
    for _ in range(5):
        _check_world(st_, sampler.sample(), g)


def test_forced_call_and_voids_are_kept_in_worlds():
    # Seat 4 holds every 2 and 4: bidding the 2 it calls the 5 of swords (a forced call).
    hands = ["AD 3D KD HD JD 7D 6D 5D", "AC 3C KC HC JC 7C 6C 5C", "AS 3S KS HS JS 7S 6S 5S",
             "AB 3B KB HB JB 7B 6B 5B", "4D 2D 4C 2C 4S 2S 4B 2B"]
    g = Game.from_hands("chiamata", hands, dealer=4)
    for a in ("pass", "pass", "pass", "pass", "bid-2", "call-5S"):
        g.apply(a)
    st_ = ChState(g.view(0))
    assert st_.forced
    assert set(bits(st_.fixed[4])) == {int(Card.parse("2S")), int(Card.parse("4S"))}
    sampler = ChSampler(st_, random.Random(0))
    for _ in range(20):
        hands_ = sampler.sample()
        assert hands_[4] >> int(Card.parse("2S")) & 1 and hands_[4] >> int(Card.parse("4S")) & 1
        _check_world(st_, hands_, g)


# ---- search --------------------------------------------------------------------------------------

def test_solver_matches_brute_force_on_small_endgames():
    rng = random.Random(5)
    for trial in range(12):
        g = Game.new("chiamata", seed=f"solve:{trial}")
        carichi = trial % 3 == 0
        if carichi:
            g.apply("carichi")
        bots = [IntermediateChiamataBot(seed=s) for s in range(5)]
        while not g.is_over and (g.phase_name != "play" or len(g.hands[g.current_player]) > 2
                                 or rng.random() < 0.3):
            s = g.current_player
            g.apply(bots[s].decide(g.view(s)).action, s)
        if g.is_over:
            continue
        caller, partner = g.auction.caller, g.auction.partner(g)
        maxside = [s in (caller, partner) for s in range(5)]
        hands = [sum(1 << c for c in h) for h in g.hands]
        solver = ChSolver(g.rules, g.trump, g.auction.carichi)
        moves = [int(a) for a in g.legal_actions_fast()]
        vals = solver.values(hands, list(g.trick), g.order, maxside, moves)

        def brute(game):
            return minimax(game, lambda x: sum(x.points[s] for s in range(5) if maxside[s])
                           if x.is_over else None, maxside.__getitem__)

        before = sum(g.points[s] for s in range(5) if maxside[s])
        for c in moves:
            x = g.clone()
            x.apply_fast(c)
            assert vals[c] == brute(x) - before


def test_solver_node_budget_aborts():
    g = Game.new("chiamata", seed=1)
    bots = [IntermediateChiamataBot(seed=s) for s in range(5)]
    while g.phase_name != "play":
        s = g.current_player
        g.apply(bots[s].decide(g.view(s)).action, s)
    hands = [sum(1 << c for c in h) for h in g.hands]
    solver = ChSolver(g.rules, g.trump, False)
    with pytest.raises(SearchAborted):
        solver.values(hands, [], g.order, [True, False, True, False, False],
                      [int(a) for a in g.legal_actions_fast()], node_limit=500)


# ---- reproducibility and no peeking ----------------------------------------------------------------

@pytest.mark.parametrize("level", LEVELS)
def test_reproducible_from_the_seed(level):
    def run():
        g = Game.new("chiamata", seed="repro")
        bots = [bot(level if s % 2 == 0 else "intermediate", f"r:{s}") for s in range(5)]
        out = []
        while not g.is_over:
            s = g.current_player
            d = bots[s].decide(g.view(s))
            out.append((str(d.action), d.reason))
            g.apply(d.action, s)
        return out

    assert run() == run()
    b = bot(level, 7)
    g = Game.new("chiamata", seed=2)
    first = b.decide(g.view(g.current_player))
    b.reset()
    assert b.decide(g.view(g.current_player)) == first


def _swapped_twin(game, seat, upto, rng):
    """The same deal with two cards that ``seat`` cannot see exchanged between two other
    hands (neither played in the first ``upto`` actions), replayed to the same point."""
    played = {a for a in game.actions[:upto] if a < 52}
    others = [s for s in range(5) if s != seat]
    a, b = rng.sample(others, 2)
    xa = [c for c in game.initial_hands[a] if c not in played]
    xb = [c for c in game.initial_hands[b] if c not in played]
    if not xa or not xb:
        return None
    ca, cb = rng.choice(xa), rng.choice(xb)
    hands = [list(h) for h in game.initial_hands]
    hands[a].remove(ca)
    hands[b].remove(cb)
    hands[a].append(cb)
    hands[b].append(ca)
    twin = Game.from_hands(game.rules, [" ".join(str(CARDS[c]) for c in h) for h in hands],
                           dealer=game.dealer)
    try:
        for act in game.actions[:upto]:
            twin.apply(act)
    except Exception:
        return None
    return twin


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_never_reads_hidden_cards(level):
    rng = random.Random(11)
    checked = 0
    for trial in range(30 if level != "expert" else 12):
        variant = rng.choice(CHIAMATA)
        g = Game.new(variant, seed=f"peek:{trial}")
        bots = [IntermediateChiamataBot(seed=s) for s in range(5)]
        play(g, bots)
        upto = rng.randrange(len(g.actions))
        real = g.replay(upto)
        seat = real.current_player
        twin = _swapped_twin(g, seat, upto, rng)
        if twin is None:
            continue
        v1, v2 = real.view(seat), twin.view(seat)
        if v1.to_dict() != v2.to_dict():
            continue
        assert [sorted(h) for h in real.hands] != [sorted(h) for h in twin.hands]
        d1 = bot(level, "peek").decide(v1)
        d2 = bot(level, "peek").decide(v2)
        assert d1 == d2
        checked += 1
    assert checked >= 5


def _play_states(prefix, deals, variant="chiamata"):
    """(view, state) at every play decision of ``deals`` deals the intermediate plays."""
    for trial in range(deals):
        g = Game.new(variant, seed=f"{prefix}:{trial}")
        play(g, [IntermediateChiamataBot(seed=s) for s in range(5)])
        for upto in range(len(g.actions)):
            real = g.replay(upto)
            if real.phase_name == "play":
                v = real.view(real.current_player)
                yield v, ChState(v)


@pytest.mark.parametrize("variant", ["chiamata", "chiamata-points"])
def test_soft_scoring_weighs_the_made_and_the_failed_stake_by_the_chance_of_the_target(variant):
    checked = 0
    for _v, st in _play_states("soft", 3, variant):
        if st.target <= 1 or st.caller is None:
            continue
        t = st.target
        for partner in range(st.n):
            made = game_points_for(st, t, partner)
            failed = game_points_for(st, t - 1, partner)
            # A tiny spread is the sure result; at the edge of the target, half and half.
            assert soft_game_points(st, t + 10, partner, 1e-6) == made
            assert soft_game_points(st, t - 10, partner, 1e-6) == failed
            assert soft_game_points(st, t - 0.5, partner, 8.0) == pytest.approx(
                (made + failed) / 2)
            # Monotone in the side's points, towards the stake of my side.
            values = [soft_game_points(st, x, partner, 6.0) for x in range(t - 30, t + 30, 3)]
            sign = 1 if made >= failed else -1
            assert all(sign * (b - a) >= -1e-12 for a, b in zip(values, values[1:]))
            assert sign * (values[-1] - values[0]) > 0.9 * abs(made - failed)
            stakes: dict = {}
            for x in (t - 7, t + 2, t - 7):
                assert soft_game_points(st, x, partner, 5.0, stakes) == soft_game_points(
                    st, x, partner, 5.0)
            checked += 1
    assert checked >= 20


def test_soft_scoring_changes_only_the_decisions_before_the_endgame():
    """The exact endgame is scored as it ends; before it, the spread changes some choices."""
    same_end = differ = mid = 0
    for v, st in _play_states("softplay", 6):
        if len(st.legal_plays()) < 2:
            continue
        soft = ExpertChiamataBot(seed=5, node_budget=3000, max_worlds=6, soft=1.0)
        sure = ExpertChiamataBot(seed=5, node_budget=3000, max_worlds=6, soft=0.0)
        if st.sizes[st.me] <= 3:
            if same_end < 15:
                assert soft.decide(v) == sure.decide(v)
                same_end += 1
        elif mid < 60:
            mid += 1
            differ += soft.decide(v).action != sure.decide(v).action
    assert same_end >= 15 and mid >= 40 and differ >= 3


def test_the_secret_partner_hides_the_called_card_before_the_endgame():
    """As the secret partner, before the endgame, the search counts playing the called card
    as costly (the others learn the sides): with a prohibitive cost it is never played while
    another card is legal; no other seat's choices change."""
    hidden = same = 0
    for trial in range(40):
        g = Game.new("chiamata", seed=f"hide:{trial}")
        play(g, [IntermediateChiamataBot(seed=s) for s in range(5)])
        for upto in range(len(g.actions)):
            real = g.replay(upto)
            if real.phase_name != "play":
                continue
            seat = real.current_player
            v = real.view(seat)
            state = ChState(v)
            plays = state.legal_plays()
            if len(plays) < 2 or state.sizes[seat] <= 3:
                continue
            shy = ExpertChiamataBot(seed=3, node_budget=3000, max_worlds=4, hide=1000.0)
            bold = ExpertChiamataBot(seed=3, node_budget=3000, max_worlds=4, hide=0.0)
            if (state.partner == seat and seat != state.caller and not state.revealed
                    and state.called in plays):
                assert int(shy.decide(v).action) != state.called
                hidden += 1
            elif hidden and same < 20 and upto % 7 == 0:
                assert shy.decide(v) == bold.decide(v)
                same += 1
        if hidden >= 5 and same >= 20:
            break
    assert hidden >= 5 and same >= 20


# ---- the expert's reading of the plays --------------------------------------------------------------

def test_every_kind_of_play_has_its_own_reading_in_both_auctions():
    from briscola.ai.chiamata.common import PLAY_READS, play_kind
    kinds = set()
    for pts in (0, 2, 11):
        for trump in (False, True):
            kinds.add(play_kind(True, False, False, True, pts, trump))
            for before in (False, True):
                for winning in ((False, True) if before else (False,)):
                    for takes in (False, True):
                        kinds.add(play_kind(False, before, winning, takes, pts, trump))
    assert len(kinds) == 6 + 6 * 6 and kinds <= set(range(54))
    for auction in ("rank", "points"):
        table = PLAY_READS[auction]
        assert len(table) == 54 and all(x > 0 for x in table)


def test_the_finer_kinds_split_each_kind_by_the_last_seat_and_the_points_on_the_table():
    from briscola.ai.chiamata.common import N_FINE_KINDS, N_KINDS, fine_kind
    kinds = {fine_kind(k, last, big) for k in range(N_KINDS) for last in (False, True)
             for big in (False, True)}
    assert kinds == set(range(N_FINE_KINDS))
    assert fine_kind(7, False, False) == 7


def _partner_views(variant, deals, seed):
    """Views of the seats that do not hold the called card, before it falls, from deals the
    intermediate players play out; with the true partner (bench/chiamata.py)."""
    return script("bench", "chiamata").partner_views(variant, deals, seed)


@pytest.mark.parametrize("variant", ["chiamata", "chiamata-points"])
def test_the_reading_of_the_plays_finds_the_partner_more_often(variant):
    """On deals the table was not fitted on, the expert's belief gives the true partner more
    weight than the rule-of-thumb belief; it stays a distribution over the other seats."""
    plain = read = 0.0
    n = 0
    for _g, v, partner in _partner_views(variant, 40, "read-test"):
        a, b = ChState(v), ChState(v, reads=True)
        assert abs(sum(b.belief) - 1.0) < 1e-9 and b.belief[v.seat] == 0.0
        if v.seat != a.caller:
            assert b.belief[a.caller] < 0.5  # an opponent's doubt of a self-call stays doubt
        plain += a.belief[partner]
        read += b.belief[partner]
        n += 1
    assert n > 200
    assert read / n > plain / n + 0.08


def test_an_ace_thrown_under_an_opponents_win_reads_as_an_opponent():
    """The intermediate's partner never throws an ace or a three (not a trump) onto a trick
    that a seat other than the caller is winning after the caller played: the expert's
    belief in the seat that does so falls to almost nothing."""
    from briscola.ai.chiamata.common import play_kind
    seen = 0
    for g, v, _partner in _partner_views("chiamata", 40, "read-ace"):
        st = ChState(v, reads=True)
        for order, cards, _w, _p in st.history:
            best, owner, before = -1, -1, False
            for s, c in zip(order, cards):
                takes = best < 0 or st.beats[(best << 6) | c]
                if best >= 0 and s not in (st.caller, v.seat) and c != st.called and \
                        play_kind(False, before, owner == st.caller, takes, st.pts[c],
                                  st.is_trump(c)) == play_kind(False, True, False, False, 11,
                                                               False):
                    assert st.belief[s] < 0.05
                    seen += 1
                before = before or s == st.caller
                if takes:
                    best, owner = c, s
        if seen >= 20:
            break
    assert seen >= 20


def test_the_reading_is_fitted_from_played_deals_end_to_end():
    mod = script("bench", "chiamata")
    ratio = mod.fit_reads("chiamata", 4, 1, seed="t")
    assert len(ratio) == 54 and all(x > 0 for x in ratio)
    assert ratio == mod.fit_reads("chiamata", 4, 1, seed="t")
    assert any(abs(x - 1.0) > 0.2 for x in ratio)
    fine = mod.fit_reads("chiamata", 4, 1, seed="t", fine=True)
    assert len(fine) == 216 and all(x > 0 for x in fine)
    assert fine == mod.fit_reads("chiamata", 4, 1, seed="t", fine=True)
    # A lead is never the last card nor played onto points: those kinds are never counted.
    from briscola.ai.chiamata.common import PLAY_READS_FINE, fine_kind
    assert all(fine[fine_kind(k, True, True)] == 1 for k in range(6))
    # The finer table read by the belief: still a distribution over the other seats.
    PLAY_READS_FINE["rank"] = fine
    try:
        checked = 0
        for _g, v, _partner in _partner_views("chiamata", 3, "fine"):
            b = ChState(v, reads="fine")
            assert b.reads is fine
            assert abs(sum(b.belief) - 1.0) < 1e-9 and b.belief[v.seat] == 0.0
            checked += 1
        assert checked > 10
    finally:
        PLAY_READS_FINE.clear()


# ---- the expert's reading of the others' cards (chiamata.choice) -------------------------------

@pytest.fixture
def choice_weights():
    """The model the package ships (chiamata.choice_weights, fitted by bench/chiamata.py
    fit-choice)."""
    from briscola.ai.chiamata.choice import CHOICE_WEIGHTS, N_CHOICE
    assert set(CHOICE_WEIGHTS) == {"rank", "points"}
    assert all(len(w) == N_CHOICE for w in CHOICE_WEIGHTS.values())
    return CHOICE_WEIGHTS


def _intermediate_decisions(variant, seed, deals):
    """(deal index, game, view of the seat to act) at every decision of ``deals`` deals the
    intermediate players play out, before the decision is applied."""
    for d in range(deals):
        g = Game.new(variant, seed=f"{seed}:{d}")
        bots = [IntermediateChiamataBot(seed=f"{seed}:{d}:{s}") for s in range(5)]
        while not g.is_over:
            seat = g.current_player
            v = g.view(seat)
            yield d, g, v
            g.apply(bots[seat].decide(v).action, seat)


def _true_and_sampled_weights(variant, deals, seed):
    """At seat 0's decisions from the third trick on, in deals the intermediate players play
    out: the log-weight of the true deal and the mean log-weight of sampled deals."""
    import math
    from briscola.ai.chiamata.choice import CHOICE_WEIGHTS, PlayEvidence
    out = []
    for d, g, v in _intermediate_decisions(variant, seed, deals):
        if v.seat == 0 and v.phase == "play" and len(v.tricks) >= 2:
            st = ChState(v, reads=True)
            sampler = ChSampler(st, random.Random(d))
            ev = PlayEvidence(st, CHOICE_WEIGHTS[v.rules.auction])
            if sampler.consistent and sampler.pool and ev.records:
                true = [sum(1 << int(c) for c in h) for h in g.hands]
                worlds = [sampler.sample() for _ in range(30)]
                out.append((math.log(ev.weight(true)),
                            sum(math.log(ev.weight(w)) for w in worlds) / len(worlds)))
    return out


@pytest.mark.parametrize("variant", ["chiamata", "chiamata-points"])
def test_the_true_deal_explains_the_others_plays_better_than_sampled_ones(variant,
                                                                         choice_weights):
    """The model of the others' choices finds their plays likelier in the deal that was
    really dealt than in the deals the sampler draws, nearly every time."""
    pairs = _true_and_sampled_weights(variant, 8, "choice-test")
    assert len(pairs) > 30
    better = sum(1 for t, s in pairs if t > s)
    assert better > 0.85 * len(pairs)
    assert sum(t - s for t, s in pairs) / len(pairs) > 1.0


def test_a_world_weighs_each_play_by_the_hand_the_seat_held_then(choice_weights):
    """A seat that led a worthless card is likelier to have held only worthless cards than
    aces and threes (it would have kept those for a trick worth taking, or not): the weight
    depends on the cards in the seat's hand at the time, and only on those."""
    from briscola.ai.chiamata.choice import CHOICE_WEIGHTS, PlayEvidence
    g = Game.new("chiamata", seed="choice-unit")
    bots = [IntermediateChiamataBot(seed=f"cu:{s}") for s in range(5)]
    while g.phase_name != "play":
        s = g.current_player
        g.apply(bots[s].decide(g.view(s)).action, s)
    # Play one whole trick, then read it from the next seat to play.
    for _ in range(5):
        s = g.current_player
        g.apply(bots[s].decide(g.view(s)).action, s)
    me = g.current_player
    st = ChState(g.view(me), reads=True)
    ev = PlayEvidence(st, CHOICE_WEIGHTS["rank"])
    assert {r.seat for r in ev.records} == set(range(5)) - {me}
    assert all(r.later == 1 << r.card for r in ev.records)  # one card each so far
    true = [sum(1 << int(c) for c in h) for h in g.hands]
    base = ev.weight(true)
    assert base > 0
    # Swapping two unseen cards between two other seats changes the weight, and swapping
    # them back restores it exactly.
    others = [s for s in range(5) if s != me]
    a, b = others[0], others[1]
    ca = true[a] & -true[a]
    cb = true[b] & -true[b]
    swapped = list(true)
    swapped[a] = swapped[a] ^ ca | cb
    swapped[b] = swapped[b] ^ cb | ca
    assert ev.weight(swapped) != base or st.pts[ca.bit_length() - 1] == st.pts[
        cb.bit_length() - 1]
    back = list(swapped)
    back[a] = back[a] ^ cb | ca
    back[b] = back[b] ^ ca | cb
    assert back == true and ev.weight(back) == base


def test_the_model_of_the_choices_is_fitted_from_played_deals_end_to_end():
    from briscola.ai.chiamata.choice import N_CHOICE
    mod = script("bench", "chiamata")
    w = mod.fit_choice("chiamata", 4, 1, seed="t")
    assert len(w) == N_CHOICE
    assert w == mod.fit_choice("chiamata", 4, 1, seed="t")
    assert any(abs(x) > 0.5 for x in w)


def _reply_positions(variant, seed, deals=4):
    """(state, world, solver) at the decisions of seat ``d % 5`` from the second trick to the
    fifth, in deals the intermediate players play out (the world is the true deal)."""
    out = []
    for d, g, v in _intermediate_decisions(variant, seed, deals):
        if v.phase == "play" and 1 <= len(v.tricks) <= 4 and v.seat == d % 5:
            st = ChState(v, reads=True)
            world = [sum(1 << int(c) for c in h) for h in g.hands]
            out.append((st, world, ChSolver(st.rules, st.trump, st.carichi)))
    return out


def _toy_evaluation(hands, leader):
    """Any fixed function of the hands and the leader will do for the checks below."""
    return (hands[0] * 7 + hands[3] * 3 + leader) % 41


def _replies_by_enumeration(st, weights, solver, hands, maxside, card, beta=1.0):
    """The points the caller's side takes after ``card`` when the seats after me reply by the
    model: summed over every sequence of replies, each weighed by the product of the model's
    shares of its cards, no reply left out (the definition :func:`reply_values` computes)."""
    import itertools
    from briscola.ai.chiamata.choice import _exp_scores
    order, trick = st.order, st.trick_cards + [card]
    pos = len(st.trick_cards)
    rest = order[pos + 1:]
    led = trick[0] // N_RANKS

    def legal(s):
        h = hands[s]
        if st.carichi and h & SUIT_MASKS[led]:
            h &= SUIT_MASKS[led]
        return bits(h)

    total = 0.0
    for seq in itertools.product(*[legal(s) for s in rest]):
        cards = trick + list(seq)
        chance = 1.0
        for i, s in enumerate(rest):
            before = cards[:pos + 1 + i]
            best, owner = before[0], order[0]
            for j, c in enumerate(before[1:], 1):
                if st.beats[(best << 6) | c]:
                    best, owner = c, order[j]
            role = 0 if s == st.caller else (1 if maxside[s] else 2)
            ez = _exp_scores(st, weights, False, st.caller in order[:pos + 1 + i],
                             owner == st.caller, best)[role]
            share = [ez[x] ** beta for x in legal(s)]
            chance *= ez[seq[i]] ** beta / sum(share)
        best, owner = cards[0], order[0]
        for j, c in enumerate(cards[1:], 1):
            if st.beats[(best << 6) | c]:
                best, owner = c, order[j]
        after = list(hands)
        after[order[pos]] ^= 1 << card
        for s, c in zip(rest, seq):
            after[s] ^= 1 << c
        taken = sum(st.pts[c] for c in cards) if maxside[owner] else 0
        total += chance * (taken + _toy_evaluation(after, owner))
    return total


@pytest.mark.parametrize("variant", ["chiamata", "chiamata-points"])
def test_the_others_reply_in_the_search_as_the_model_of_their_choices_says(variant,
                                                                          choice_weights):
    """Before the endgame the expert's search has the seats after it in the trick play as
    the model of the players' choices says: the value of each card is the expectation over
    every sequence of their replies, each as likely as the model makes it."""
    from briscola.ai.chiamata.choice import reply_values
    from briscola.ai.chiamata.expert import partner_in_world
    checked = 0
    for st, world, solver in _reply_positions(variant, "replies")[:10]:
        partner = partner_in_world(st, world, st.caller)
        maxside = [s in (st.caller, partner) for s in range(5)]
        weights = choice_weights[st.rules.auction]
        plays = bits(st.hand_mask)[:3]
        got, nodes = reply_values(st, weights, solver, world, st.trick_cards, st.order,
                                  maxside, plays, _toy_evaluation, floor=0.0)
        assert set(got) == set(plays)
        assert (nodes > 0) == (len(st.trick_cards) < 4)  # the last to play has no replies
        for c in plays:
            want = _replies_by_enumeration(st, weights, solver, world, maxside, c)
            assert got[c] == pytest.approx(want, rel=1e-9)
        checked += nodes > 0
    assert checked >= 6


def test_the_others_likeliest_replies_decide_when_the_model_is_sharp(choice_weights):
    """The model's scores raised to a power sharpen the expectation exactly as they sharpen
    every seat's chances; replies under a share of the chance are left out, and with all
    but the likeliest left out a single line of play is valued."""
    from briscola.ai.chiamata.choice import reply_values
    from briscola.ai.chiamata.expert import partner_in_world
    moved = 0
    for st, world, solver in _reply_positions("chiamata", "sharp")[:8]:
        partner = partner_in_world(st, world, st.caller)
        maxside = [s in (st.caller, partner) for s in range(5)]
        weights = choice_weights["rank"]
        c = bits(st.hand_mask)[0]
        args = (st, weights, solver, world, st.trick_cards, st.order, maxside, [c],
                _toy_evaluation)
        sharp = reply_values(*args, floor=0.0, beta=60.0)[0][c]
        greedy = _replies_by_enumeration(st, weights, solver, world, maxside, c, beta=60.0)
        assert sharp == pytest.approx(greedy, rel=1e-6)
        full = reply_values(*args, floor=0.0)[0][c]
        floored = reply_values(*args, floor=0.3)[0][c]
        # Leaving out all but each seat's likeliest reply follows one line of play: its
        # value is a whole number of points, as the toy evaluation's are.
        one = reply_values(*args, floor=1.0)[0][c]
        assert one == pytest.approx(round(one), abs=1e-9)
        moved += full != floored
    assert moved >= 4


def _same_choice_whatever_is_hidden(variant, seed, tricks, mk) -> int:
    """At the decisions of seat ``d % 5`` after ``tricks`` tricks in deals the intermediate
    players play out, the player ``mk()`` chooses the same card with two hidden cards
    swapped between two other seats (the same view); the number of decisions checked."""
    checked = 0
    for d in range(6):
        g = Game.new(variant, seed=f"{seed}:{d}")
        bots = [IntermediateChiamataBot(seed=f"{seed}:{d}:{s}") for s in range(5)]
        while not g.is_over:
            seat = g.current_player
            v = g.view(seat)
            if v.phase == "play" and len(v.tricks) in tricks and seat == d % 5 and \
                    len(v.legal) > 1:
                first = mk().decide(v).action
                other = g.clone()
                hidden = [s for s in range(5) if s != seat]
                a, b = hidden[0], hidden[1]
                other.hands[a][0], other.hands[b][0] = other.hands[b][0], other.hands[a][0]
                v2 = other.view(seat)
                assert v2.hand == v.hand
                assert mk().decide(v2).action == first
                checked += 1
            g.apply(bots[seat].decide(v).action, seat)
    return checked


@pytest.mark.parametrize("variant", ["chiamata", "chiamata-points"])
def test_the_expert_weighing_its_worlds_never_reads_hidden_cards(variant, choice_weights):
    """Same view, different hidden cards: the expert weighing its worlds by the plays
    chooses the same card (its worlds come from the view alone)."""
    assert _same_choice_whatever_is_hidden(
        variant, "inf-hidden", (2, 4), lambda: ExpertChiamataBot(
            seed="x", node_budget=3000, max_worlds=4, inference=4)) >= 6


def test_each_past_play_is_scored_once_a_deal_and_as_if_afresh():
    """The model's scores of a past play are kept: a later decision of the same deal reuses
    them instead of scoring the play again, and weighs every world exactly as a fresh
    computation would."""
    from briscola.ai.chiamata import choice
    g = Game.new("chiamata", seed="choice-rows")
    bots = [IntermediateChiamataBot(seed=f"cr:{s}") for s in range(5)]
    while g.phase_name != "play":
        s = g.current_player
        g.apply(bots[s].decide(g.view(s)).action, s)
    weights = choice.CHOICE_WEIGHTS["rank"]
    first = None
    for step in range(17):
        s = g.current_player
        if step == 3:  # three plays so far, by seats other than the one to play
            first = choice.PlayEvidence(ChState(g.view(s), reads=True), weights)
        g.apply(bots[s].decide(g.view(s)).action, s)
    me = g.current_player
    st = ChState(g.view(me), reads=True)
    later = choice.PlayEvidence(st, weights)
    rows = {id(r.ez) for r in later.records}
    assert first.records and all(id(r.ez) in rows for r in first.records)
    true = [sum(1 << int(c) for c in h) for h in g.hands]
    sampler = ChSampler(st, random.Random(4))
    worlds = [true] + [sampler.sample() for _ in range(20)]
    kept = [later.weight(w) for w in worlds]
    choice._EXP_ROWS.clear()
    fresh = choice.PlayEvidence(st, weights)
    assert all(id(r.ez) not in rows for r in fresh.records)
    assert [fresh.weight(w) for w in worlds] == kept
