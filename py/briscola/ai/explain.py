"""Why one card beats another, as data: ``{"code": ..., "params": {...}}``.

The page words every code in each language (``reason.<code>`` in ``js/locales/*.js``).
Parameter names say what they hold: ``card``, ``alt`` are card codes ("AD"); numbers
otherwise, each a fact of the seat's view that ``tests/test_coach_facts.py`` recomputes:
``gain`` (card points over the deal, one decimal), ``taken`` (the trick's points if ``card``
takes it: the table's and its own), ``left`` (the same for ``alt``: what it leaves to the
others), ``taken_alt``, ``given`` / ``given_alt`` (the points a card puts on a trick it does
not take), ``points`` (as each sentence says), ``trumps`` (trumps still out), ``beaters`` /
``beaters_alt`` (cards still out that beat a card led), ``chance`` / ``chance_alt`` (how
likely a take that is not sure holds, in per cent rounded to 5).

A reason compares the best card (``card``) with another (``alt``: the next best for a hint,
the card played for a review) and says what each does in this trick -- the points it takes,
leaves or gives -- and what it keeps or spends for later: a trump, a load (carico), the
card that is harder to beat; when the best card breaks a common principle (a load led, a
trump spent on a poor trick, a figure thrown) the sentence says so and why it pays here. No
reason names the method. Cards within the evaluation's noise of each other are told apart by
the coach's principles (:mod:`briscola.ai.teach`, ``coach_tie_*``), and "either will do"
(``coach_equal``, ``coach_tie_blanks``, ``coach_tie_worth_same``) is left for cards no
principle tells apart. Every reason is checked against the position before it is given
(:func:`briscola.ai.teach.holds`): one that does not hold gives way to the next that does
(a take that a player still to come may beat is said as "may take", with how likely it
holds where that is neither sure nor hopeless, :func:`briscola.ai.teach.with_odds`; a load
led names its risk). An exchange or a signal in a hint gets its own reason (:func:`explain_special`).

The same reasons serve the coach (a hint, a reviewed play) and the computer players: with
reasons shown, :func:`decide_explained` gives the intermediate's and the expert's card play
the reason drawn from this evaluation -- what their card wins or saves against the next card
below it, and why -- instead of the bot's own short rule, in the bot's voice and without
naming the card it kept (:data:`BOT_VOICE`: that card is hidden from the others). Evaluating costs a search, so it
runs only when asked (the bridge's ``bot_step {reasons: true}``); the card played is the
bot's own either way (the evaluation has its own random stream, seeded from the view).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from ..cards import CARDS, N_RANKS
from .base import Decision
from .chiamata.teach import CODES as CHIAMATA_CODES, bidding_reason
from .evaluate import DEFAULT_BUDGET, Budget, Evaluation, card_plays, evaluate
from .teach import LOAD, TIE_CODES, Facts, equal_reason, holds_facts, tie_reason, with_odds

if TYPE_CHECKING:  # for the annotations only
    from ..view import View
    from .base import Bot

# The computer levels whose card play is explained from the evaluation (the beginner and the
# random player keep their own reasons: they do not play by it).
EXPLAINED_LEVELS = ("intermediate", "expert")

# Every code :func:`explain` can give (tests check each has a sentence in every language).
CODES = (
    "coach_forced", "coach_equal", "coach_take", "coach_take_lead", "coach_partner_wins", "coach_save_trump",
    "coach_let_go", "coach_take_cheaper", "coach_take_safe", "coach_load", "coach_discard",
    "coach_lead_trump", "coach_keep_trump", "coach_lead_load_risk", "coach_lead_low",
    "coach_lead_strong", "coach_keep_stronger", "coach_keep_later",
    "coach_take_keep_trump", "coach_take_more", "coach_load_ahead", "coach_secure",
    "coach_keep_safer", "coach_keep_master", "coach_exchange", "coach_signal",
    "coach_take_trump", "coach_take_keep", "coach_partner_unsafe", "coach_give_keep",
    "coach_lead_load", "coach_take_lead_keep", "coach_take_own", "coach_save_trump_empty", "coach_let_go_empty",
    "coach_save_trump_free", "coach_let_go_free", "coach_strozzo",
    "coach_take_may", "coach_take_lead_may", "coach_take_both_may", "coach_partner_wins_unsafe",
    "coach_load_risk", "coach_lead_load_trump",
    "coach_take_odds", "coach_take_lead_odds", "coach_take_both_odds",
    "coach_save_trump_odds", "coach_let_go_odds", "coach_lead_trump_safe",
    "coach_lead_load_odds", "coach_lead_load_trump_odds", "coach_lead_strong_odds",
    "coach_lead_load_risk_odds", "coach_equal_take", "coach_equal_lose", "coach_gives",
    "coach_equal_lead",
    *TIE_CODES,
    # Chiamata: the auction and the call, in game points
    "coach_bid_equal", "coach_bid_pass_rank", "coach_bid_pass_points", "coach_bid_rank",
    "coach_bid_rank_other", "coach_bid_points", "coach_bid_points_other", "coach_bid_gain",
    "coach_call_card", "coach_call_alone", "coach_call_partner",
)

# A computer player's reason drawn from the evaluation speaks of its own card only: the card
# it compared it with is still in its hand, hidden from the others (the person among them),
# so it is never named, nor what only that card would tell (its points, being a trump), nor
# a count of cards "still out", which the others could compare with their own count to learn
# how many of them the bot holds.
# Coach code -> (the bot's code, the parameters it keeps).
BOT_VOICE = {
    "coach_equal": ("bot_eval_equal", ("card",)),
    "coach_equal_take": ("bot_eval_equal", ("card",)),
    "coach_equal_lose": ("bot_eval_equal", ("card",)),
    "coach_equal_lead": ("bot_eval_equal", ("card",)),
    "coach_take": ("bot_eval_take", ("card", "taken", "gain")),
    "coach_take_lead": ("bot_eval_take_lead", ("card", "gain")),
    "coach_take_cheaper": ("bot_eval_take_best", ("card", "gain")),
    "coach_take_keep_trump": ("bot_eval_take_best", ("card", "gain")),
    "coach_take_more": ("bot_eval_take_best", ("card", "gain")),
    "coach_take_safe": ("bot_eval_take_safe", ("card", "gain")),
    "coach_secure": ("bot_eval_take_safe", ("card", "gain")),
    "coach_partner_wins": ("bot_eval_partner_wins", ("card", "gain")),
    "coach_save_trump": ("bot_eval_let_go", ("card", "gain")),
    "coach_let_go": ("bot_eval_let_go", ("card", "gain")),
    "coach_load": ("bot_eval_load", ("card", "points", "gain")),
    "coach_load_ahead": ("bot_eval_load_ahead", ("card", "gain")),
    "coach_discard": ("bot_eval_discard", ("card", "gain")),
    "coach_keep_trump": ("bot_eval_keep", ("card", "gain")),
    "coach_keep_stronger": ("bot_eval_keep", ("card", "gain")),
    "coach_keep_safer": ("bot_eval_keep", ("card", "gain")),
    "coach_keep_master": ("bot_eval_keep", ("card", "gain")),
    "coach_lead_trump": ("bot_eval_lead_trump", ("card", "gain")),
    "coach_lead_load_risk": ("bot_eval_lead_low", ("card", "gain")),
    "coach_lead_low": ("bot_eval_lead_low", ("card", "gain")),
    "coach_lead_strong": ("bot_eval_lead_strong", ("card", "gain")),
    "coach_keep_later": ("bot_eval_keep", ("card", "gain")),
    "coach_take_trump": ("bot_eval_take", ("card", "taken", "gain")),
    "coach_take_keep": ("bot_eval_take_best", ("card", "gain")),
    "coach_partner_unsafe": ("bot_eval_discard", ("card", "gain")),
    "coach_give_keep": ("bot_eval_keep", ("card", "gain")),
    "coach_lead_load": ("bot_eval_lead_strong", ("card", "gain")),
    "coach_take_lead_keep": ("bot_eval_take_lead", ("card", "gain")),
    "coach_take_own": ("bot_eval_take", ("card", "taken", "gain")),
    "coach_save_trump_empty": ("bot_eval_let_go", ("card", "gain")),
    "coach_let_go_empty": ("bot_eval_let_go", ("card", "gain")),
    "coach_save_trump_free": ("bot_eval_let_go", ("card", "gain")),
    "coach_let_go_free": ("bot_eval_let_go", ("card", "gain")),
    "coach_strozzo": ("bot_eval_take", ("card", "taken", "gain")),
    "coach_partner_wins_unsafe": ("bot_eval_partner_wins", ("card", "gain")),
    "coach_load_risk": ("bot_eval_load", ("card", "points", "gain")),
    "coach_save_trump_odds": ("bot_eval_let_go", ("card", "gain")),
    "coach_let_go_odds": ("bot_eval_let_go", ("card", "gain")),
    "coach_lead_trump_safe": ("bot_eval_lead_trump", ("card", "gain")),
    "coach_lead_load_odds": ("bot_eval_lead_strong", ("card", "gain")),
    "coach_lead_strong_odds": ("bot_eval_lead_strong", ("card", "gain")),
    "coach_lead_load_risk_odds": ("bot_eval_lead_low", ("card", "gain")),
    # a take that is not sure, a load led into trumps: no voice of their own yet (the bot's
    # own reason is kept rather than one that says more than the cards show)
}
# Tied cards: the bot's best cards are worth about the same.
BOT_VOICE.update({code: ("bot_eval_equal", ("card",)) for code in TIE_CODES})
BOT_CODES = tuple(sorted({code for code, _keep in BOT_VOICE.values()}))
CODES = CODES + BOT_CODES + CHIAMATA_CODES


def for_bot(why: dict) -> dict | None:
    """A coach reason for a card play in a computer player's voice (:data:`BOT_VOICE`), or
    ``None`` for a code it has no voice for."""
    got = BOT_VOICE.get(why["code"])
    if got is None:
        return None
    code, keep = got
    return reason(code, **{k: why["params"][k] for k in keep if k in why["params"]})


def reason(code: str, **params: Any) -> dict:
    return {"code": code, "params": params}


def explain(view: View, ev: Evaluation, chosen: int | None = None) -> dict:
    """Why the best card beats ``chosen`` (default: the next best card). A ``chosen`` that is
    the best card is compared with the next best."""
    ranked = ev.ranked
    b = ranked[0]
    if len(ranked) == 1:
        return reason("coach_forced", card=str(CARDS[b]))
    if chosen is None or int(chosen) == b:
        a = hint_alt(Facts(view), ranked)
    else:
        a = int(chosen)
    return because(view, ev, b, a)


def hint_alt(f: Facts, ranked: list[int]) -> int:
    """The card a hint compares the best card with: the next best, except where the best card
    follows a trick the others hold without taking it (and no partner plays after): then the
    best of the cards that would give that trick fewer points (why the points are given
    anyway), or else the best of the cards that would take it (why the trick is let go)."""
    b = ranked[0]
    if f.lost(b) and not f.partner_after:
        for c in ranked[1:]:
            if f.lost(c) and f.given(c) < f.given(b):
                return c
        for c in ranked[1:]:
            if f.wins(c):
                return c
    return ranked[1]


def explain_choice(view: View, ev: Evaluation, chosen: int) -> dict | None:
    """Why ``chosen`` beats the next card below it in the evaluation (a computer player's
    reason for its own play); ``None`` when no card ranks below it or it is the only card."""
    ranked = ev.ranked
    chosen = int(chosen)
    if chosen not in ev.values or len(ranked) < 2:
        return None
    if ev.loss(chosen) == 0:  # as good as the best: compare with the best other card
        a = next(c for c in ranked if c != chosen)
    else:
        below = ranked[ranked.index(chosen) + 1:]
        if not below:
            return None
        a = below[0]
    return because(view, ev, chosen, a)


def because(view: View, ev: Evaluation, b: int, a: int) -> dict:
    """Why card ``b`` is worth more than card ``a`` (both evaluated in ``ev``): what each does
    in this trick and keeps for later. Two tied cards (within the evaluation's noise) are
    told apart by the first of the coach's principles that prefers ``b``
    (:mod:`briscola.ai.teach`); "either will do" when none does."""
    p: dict = {"card": str(CARDS[b]), "alt": str(CARDS[a])}
    f = Facts(view)
    code: str | None  # the reason's code (None below while no principle has named one)
    if ev.loss(a) == 0 and ev.loss(b) == 0:
        # every card's place known and the values equal: the deal ends the same either way,
        # so no principle is worded as if one card were better; what makes them equal is said
        exact = ev.exact and abs(ev.values[b] - ev.values[a]) < 1e-6
        got = None if exact else tie_reason(f, b, a)
        if got is None:
            got = equal_reason(f, b, a, exact)
        return gives(f, b, reason(got[0], **p, **got[1]))
    p["gain"] = round(ev.values[b] - ev.values[a], 1)
    pts = f.pts
    code = None
    if f.pos > 0:
        wb, wa = f.wins(b), f.wins(a)
        if wb and not wa and not f.ours:
            if f.taken(b):
                p["taken"], p["left"] = f.taken(b), f.taken(a)
                early = f.is_trump(b) and not f.is_trump(a) and f.taken(b) < LOAD \
                    and view.talon_size > 0
                code = "coach_take_trump" if early else "coach_take"
                if f.best // N_RANKS == b // N_RANKS and not f.is_trump(b) \
                        and f.pts[f.best] >= LOAD and not f.opp_after:
                    # a higher card of the suit on a load, and nobody left to take it
                    code = "coach_strozzo"
                if not f.taken(a):  # only the card's own points: the other would lose the lead
                    code = "coach_take_own"
                    del p["left"]
            elif f.taken(a):  # nothing to take, but the other card would give points away
                code, p["left"] = "coach_take_lead_keep", f.taken(a)
            else:  # nothing to take: what the trick wins is the lead
                code = "coach_take_lead"
        elif wa and not wb:
            if f.ours:
                code = "coach_partner_wins"
            elif not f.sure(a):  # the other card may be beaten itself: how likely, said
                code = "coach_let_go_odds"
                if f.is_trump(a) and not f.is_trump(b) and f.trumps_out:
                    code, p["trumps"] = "coach_save_trump_odds", f.trumps_out
                p["points"], p["given"], p["risk_alt"] = f.taken(a), f.given(b), f.risk(a)
            elif f.is_trump(a) and not f.is_trump(b) and f.trumps_out:
                code, p["trumps"] = "coach_save_trump", f.trumps_out
                if not f.taken(a):
                    code = "coach_save_trump_empty"
                elif f.given(b):
                    p["points"], p["given"] = f.taken(a), f.given(b)
                else:  # let go with a card of no points
                    code, p["points"] = "coach_save_trump_free", f.taken(a)
            elif not f.taken(a):
                code = "coach_let_go_empty"
            elif f.given(b):
                code, p["points"], p["given"] = "coach_let_go", f.taken(a), f.given(b)
            else:
                code, p["points"] = "coach_let_go_free", f.taken(a)
        elif wb and wa and not f.ours:
            if (pts[b], f.strength[b], f.is_trump(b)) < (pts[a], f.strength[a], f.is_trump(a)) \
                    and not (f.is_trump(b) and not f.is_trump(a)):
                code, p["taken"] = "coach_take_cheaper", f.taken(b)
            elif f.is_trump(a) and not f.is_trump(b):
                # takes as well without spending the trump
                code, p["taken"] = "coach_take_keep_trump", f.taken(b)
            elif pts[b] > pts[a]:
                code, p["points"] = "coach_take_more", pts[b] - pts[a]
            elif f.opp_after:
                code = "coach_take_safe"
            else:
                code, p["taken"] = "coach_take_keep", f.taken(b)
        elif not wb and not wa:
            if f.ours and pts[b] > pts[a]:
                code, p["points"] = "coach_load", pts[b]
            elif f.ours and pts[b] < pts[a] and f.threat(f.best):
                code, p["given"], p["given_alt"] = "coach_partner_unsafe", pts[b], pts[a]
            elif pts[b] < pts[a] and not f.ours:
                code, p["given"], p["given_alt"] = "coach_discard", pts[b], pts[a]
            elif f.is_trump(a) and not f.is_trump(b) and f.trumps_out:
                code, p["trumps"] = "coach_keep_trump", f.trumps_out
            elif pts[b] > pts[a] and f.partner_after:
                code, p["points"] = "coach_load_ahead", pts[b] - pts[a]
            elif pts[b] > pts[a] and not f.ours:
                # a figure (or a load) thrown where a cheaper card would do: it keeps ``a``
                code, p["given"] = "coach_give_keep", pts[b]
        elif f.ours:  # the partner is winning and the card overtakes: points, or a safer trick
            if pts[b] > pts[a]:
                code, p["points"] = "coach_load", pts[b]
            elif not wa and f.opp_after:
                code = "coach_secure"
    else:
        if f.is_trump(b) and not f.is_trump(a) and f.trumps_out:
            code, p["trumps"] = "coach_lead_trump", f.trumps_out
            p["given"], p["given_alt"] = pts[b], pts[a]
        elif f.is_trump(a) and not f.is_trump(b) and f.trumps_out:
            code, p["trumps"] = "coach_keep_trump", f.trumps_out
        elif pts[a] >= LOAD and pts[b] < pts[a]:
            code, p["points"], p["beaters"] = "coach_lead_load_risk_odds", pts[a], f.beaters(a)
            p["risk"] = f.risk(a)
        elif pts[b] < pts[a]:
            code, p["points"] = "coach_lead_low", pts[a] - pts[b]
        elif pts[b] >= LOAD and not f.is_trump(b):
            # il carico non si gioca di mano -- unless few cards can take it
            code, p["points"], p["beaters"] = "coach_lead_load_odds", pts[b], f.beaters(b)
            p["risk"] = f.risk(b)
        elif not f.is_trump(b) and f.beaters(b) < f.beaters(a):
            code, p["beaters"], p["beaters_alt"] = "coach_lead_strong_odds", f.beaters(b), f.beaters(a)
            p["risk"], p["risk_alt"] = f.risk(b), f.risk(a)
    if code is not None and holds_facts(f, code, b, a, p):
        return gives(f, b, reason(code, **p))
    # the principle first thought of does not hold here (or none came): the next that does
    base = {k: p[k] for k in ("card", "alt", "gain")}
    for code, extra in _fallbacks(f, b, a):
        if holds_facts(f, code, b, a, extra):
            code, extra = with_odds(f, code, b, a, extra)
            return gives(f, b, reason(code, **base, **extra))
    return gives(f, b, reason("coach_keep_later", **base))  # a is kept where it does more


# Reasons whose sentence says the points the card named puts on a trick it does not take.
_SAYS_GIVEN = {"coach_load", "coach_load_risk"}


def gives(f: Facts, b: int, why: dict) -> dict:
    """A figure given away always says its points: where ``b`` has points and goes onto a
    trick it does not take, and the reason does not say them, it is followed by a line that
    does (``then``: ``coach_gives``)."""
    if f.pos == 0 or f.wins(b) or not f.pts[b] or "given" in why["params"] \
            or why["code"] in _SAYS_GIVEN:
        return why
    why["then"] = reason("coach_gives", card=str(CARDS[b]), given=f.pts[b])
    return why


def _fallbacks(f: Facts, b: int, a: int) -> Iterator[tuple[str, dict]]:
    """Reasons to try, in order, when the first one thought of does not hold: what each card
    may do to this trick when a player still to come can beat it, a load led with its risk,
    then what the card kept is worth later."""
    pts, pos = f.pts, f.pos
    if pos > 0:
        wb, wa = f.wins(b), f.wins(a)
        if wb and not wa and not f.ours:
            if f.taken(b):
                yield "coach_take_may", {"taken": f.taken(b)}
            yield "coach_take_lead_may", {}
        if f.ours and wa and not wb:
            yield "coach_partner_wins_unsafe", {}
        if f.ours and pts[b] > pts[a]:
            yield "coach_load_risk", {"points": pts[b]}
        if wb and wa:
            yield "coach_take_safe", {}
            yield "coach_take_both_may", {}
    elif f.led_load_at_risk(b):
        if f.trumps_out:
            yield "coach_lead_load_trump_odds", {"points": pts[b], "beaters": f.beaters(b),
                                                 "trumps": f.trumps_out, "risk": f.risk(b)}
        yield "coach_lead_load_odds", {"points": pts[b], "beaters": f.beaters(b),
                                       "risk": f.risk(b)}
    elif f.is_trump(b) and not f.is_trump(a) and f.trumps_out:
        yield "coach_lead_trump_safe", {"trumps": f.trumps_out}
    if pts[b] == pts[a] and f.is_trump(b) == f.is_trump(a):
        kb, ka = f.beaters(b), f.beaters(a)
        yield "coach_keep_stronger", {}
        yield "coach_keep_master", {}
        yield "coach_keep_safer", {"beaters": kb, "beaters_alt": ka}


def decide_explained(bot: Bot, view: View, budget: Budget = DEFAULT_BUDGET) -> Decision:
    """``bot.decide(view)``, its reason drawn from the evaluation for a card play with a
    choice by an :data:`EXPLAINED_LEVELS` bot (its own reason otherwise)."""
    d = bot.decide(view)
    if getattr(bot, "name", None) not in EXPLAINED_LEVELS or view.phase != "play":
        return d
    plays = card_plays(view)
    if len(plays) < 2 or int(d.action) not in plays:
        return d
    got = explain_choice(view, evaluate(view, budget), int(d.action))
    voiced = None if got is None else for_bot(got)
    return d if voiced is None else Decision(d.action, voiced)


def explain_special(view: View, action: int, bot_reason: dict) -> dict:
    """A hint's reason for an exchange or a signal (not card plays: the evaluation's values
    are card points after each card, and neither moves a card to a trick -- the exchange of
    the low trump for the face-up card never costs a point, a signal only tells the partner).
    Falls back to ``bot_reason`` for anything else."""
    from ..actions import SIGNAL, SIGNAL_LOADED, SWAP
    a = int(action)
    if SWAP <= a < SWAP + 64 and view.trump_card is not None:
        return reason("coach_exchange", card=str(CARDS[a - SWAP]), card2=str(view.trump_card))
    if SIGNAL <= a <= SIGNAL_LOADED and bot_reason.get("params", {}).get("rank"):
        return reason("coach_signal", rank=bot_reason["params"]["rank"])
    return bot_reason


def explain_bidding(view: View, ev: Evaluation, chosen: int | None = None) -> dict:
    """Why the best auction or call action beats ``chosen`` (default: the next best): what
    the hand holds for the contract (:func:`briscola.ai.chiamata.teach.bidding_reason`), else
    in game points (:func:`briscola.ai.evaluate.evaluate_bidding`)."""
    got = bidding_reason(view, ev, chosen)
    if got is not None:
        return got
    from ..actions import BID_POINTS, BID_RANK, PASS
    ranked = ev.ranked
    b = ranked[0]
    if len(ranked) == 1:
        return reason("coach_bid_gain", gain=0.0)
    if chosen is not None and ev.loss(int(chosen)) == 0:
        b = int(chosen)
    a = next(c for c in ranked if c != b) if chosen is None or int(chosen) == b else int(chosen)
    gain = round(ev.values[b] - ev.values[a], 2)
    if gain < 0.05:
        return reason("coach_bid_equal", gain=gain)
    cb, ca = ev.contracts.get(b, {}), ev.contracts.get(a, {})

    def rank_of(x: int) -> str | None:
        return CARDS[x - BID_RANK].rank if BID_RANK <= x < BID_RANK + N_RANKS else None

    def points_of(x: int) -> int | None:
        return x - BID_POINTS if BID_POINTS <= x <= BID_POINTS + 120 else None

    if ev.method == "call":
        p = {"card": str(CARDS[cb["card"]]), "alt": str(CARDS[ca["card"]]), "gain": gain,
             "points": round(cb["est"]), "points_alt": round(ca["est"])}
        if cb["alone"] and not ca["alone"]:
            p.pop("points_alt")
            return reason("coach_call_alone", **p)
        if ca["alone"] and not cb["alone"]:
            return reason("coach_call_partner", **p)
        return reason("coach_call_card", **p)
    if b == PASS:
        est = round(ca.get("est", 0))
        if rank_of(a):
            return reason("coach_bid_pass_rank", rank=rank_of(a), points=est, gain=gain)
        return reason("coach_bid_pass_points", n=points_of(a), points=est, gain=gain)
    p = {"card": str(CARDS[cb["card"]]), "points": round(cb["est"]), "gain": gain}
    if rank_of(b):
        if a == PASS:
            return reason("coach_bid_rank", rank=rank_of(b), **p)
        if rank_of(a):
            return reason("coach_bid_rank_other", rank=rank_of(b), rank2=rank_of(a), **p)
    elif points_of(b) is not None:
        if a == PASS:
            return reason("coach_bid_points", n=points_of(b), **p)
        if points_of(a) is not None:
            p.pop("card")
            return reason("coach_bid_points_other", n=points_of(b), n2=points_of(a), **p)
    return reason("coach_bid_gain", gain=gain)
