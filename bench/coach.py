#!/usr/bin/env python3
"""How long the coach takes: a hint, and the review of a whole deal. CPython and Pyodide.

    python bench/coach.py [--deals 6] [--variants classic,four,chiamata] [--no-pyodide]
                          [--no-build] [--json]
    python bench/coach.py --words [--deals 20] [--variants classic,four]
    python bench/coach.py --bidding [--deals 30] [--variants chiamata,chiamata-points]
    python bench/coach.py --principles [--deals 20] [--variants classic,four,six]

Deals are played by the intermediate player in every seat (seeded). A *hint* is what the
bridge's ``hint`` does at a person's turn: the seat's view, the evaluation of every legal
card (:func:`briscola.ai.evaluate.evaluate`) and the reason (:func:`explain`); it is
timed at every decision of seat 0 with a choice. A *review* is every decision of seat 0 in
the finished deal (:func:`briscola.coach.review.review_deal`), timed as a whole. Targets in
Pyodide: hint median <= 300 ms, the slowest hint <= 500 ms; a classic deal reviewed <= 3 s,
four players <= 6 s. The table names where the slowest hint (by CPU time) was.

Under Pyodide the same deals run inside Node through ``tests/pyodide/run.mjs`` with the
engine wheel from ``dist/`` (rebuilt first with ``python build.py`` unless ``--no-build``).
Times are wall-clock and process CPU; on a shared machine the CPU time is the fairer one.

``--words`` measures what the coach says instead (CPython only): at every card play with a
choice, of every seat, the hint's reason (:func:`explain`) and the review's sentence for the
card the intermediate player chose (``explain(view, ev, played)``); the table gives the
share of each that teaches nothing -- "either will do" (``coach_equal``) or a reason that
names no cause (:data:`NO_CAUSE`) -- and how often each code was given.

``--bidding`` does the same for Chiamata's auction and call: at every bid, pass and call of
every seat with a choice, the hint's reason (:func:`explain_bidding`) and the review's for
the action the intermediate player chose; the table gives the share of each that speaks of
the hand (a reason naming the trumps it holds, :data:`HAND_PARAMS`) and the share that says
only a figure or "about the same".
``--principles`` checks the same hints against the position (CPython only): the share whose
stated principle holds (:func:`briscola.ai.teach.holds`, target 100 %), the share that are
ties between two small cards (no points, no trump) and what those say (the short line
``tie_blanks``, or the principle that parts them), and the hints that throw a figure onto a
trick the others take while a card of fewer points would lose it as well, without a reason
that says why the cheaper card is kept (target 0). It then reads every claim of the hints
and of the review's sentences as a strong player would (:func:`briscola.ai.teach.claims`:
points put on a trick, a sure take, a chance said, "risks N points", "only N cards beat it"
with its chance; target 100 % of each), and how the ties are said: by a principle, as worth
the same with what makes them so (:data:`SAME_NAMED`), or only "either will do"
(:data:`SAME_GENERIC`), and any "what one gains now the other makes up later" said where
every card's place is not known (target 0).
"""
from __future__ import annotations

import json
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if os.path.isdir(os.path.join(ROOT, "py")) and os.path.join(ROOT, "py") not in sys.path:
    sys.path.insert(0, os.path.join(ROOT, "py"))
sys.path.insert(0, os.path.join(ROOT, "bench"))

from thinking import cpu_clock, harness_parser, pyodide_into, summary  # noqa: E402

TARGETS = {"hint": 300.0, "review": {"classic": 3000.0, "four": 6000.0}}
# Reasons that teach nothing: "either will do" (or "any small card will do", "worth the
# same"), or only the method's figure ("over N likely deals", "with every card's place
# known": the codes before the coach's principles) or only that a card is kept for later,
# without a cause.
EQUAL = ("coach_equal", "coach_tie_blanks", "coach_tie_worth_same")
NO_CAUSE = ("coach_gain", "coach_exact", "coach_keep_later")


_WORDS: dict = {}


def _turns(variant: str, deals: int, seed: str):
    """Every turn of ``deals`` seeded deals played by the intermediate player in every seat:
    yields ``(view, action)`` before the action is applied."""
    from briscola.ai import make_bot
    from briscola.game import Game
    from briscola.rules import find_variant

    rules = find_variant(variant)
    for i in range(deals):
        game = Game.new(rules, seed=f"{seed}:{i}")
        bots = [make_bot("intermediate", f"{seed}:{i}:{s}") for s in range(rules.players)]
        while not game.is_over:
            seat = game.current_player
            view = game.view(seat)
            action = bots[seat].decide(view).action
            yield view, action
            game.apply(action, seat)


def words(variant: str, deals: int, seed: str = "coach") -> dict:
    """The coach's reasons at every card play with a choice of every seat: code counts for
    the hints and for the review of the card actually played, and the hints checked against
    the position (kept: ``--words --principles`` plays the deals once)."""
    key = (variant, deals, seed)
    if key not in _WORDS:
        _WORDS[key] = _words(variant, deals, seed)
    return _WORDS[key]


def _words(variant: str, deals: int, seed: str) -> dict:
    from collections import Counter

    from briscola.ai.evaluate import card_plays, evaluate
    from briscola.ai.explain import explain
    from briscola.ai.teach import Facts, claims, holds
    from briscola.cards import Card

    hint, review = Counter(), Counter()
    checked = {"hints": 0, "holds": 0, "blank_ties": 0, "figure_thrown": 0, "wrong": Counter(),
               "blank_codes": Counter(), "claims": Counter(), "claims_true": Counter(),
               "claims_false": Counter(), "ties": 0, "tie_principle": 0, "tie_named": 0,
               "tie_generic": 0, "worth_same_unchecked": 0}
    for view, action in _turns(variant, deals, seed):
        if view.phase == "play" and len(card_plays(view)) > 1 and int(action) < 52:
            ev = evaluate(view)
            why = explain(view, ev)
            hint[why["code"]] += 1
            said = explain(view, ev, int(action))
            review[said["code"]] += 1
            f = Facts(view)
            if "gain" not in why["params"] and why["code"] != "coach_forced":  # a tie
                checked["ties"] += 1
                if why["code"] in SAME_NAMED:
                    checked["tie_named"] += 1
                elif why["code"] in SAME_GENERIC:
                    checked["tie_generic"] += 1
                else:
                    checked["tie_principle"] += 1
                if why["code"] == "coach_tie_worth_same" and not ev.exact:
                    checked["worth_same_unchecked"] += 1
            for w in (why, said):  # every claim of the hint and of the review's sentence
                if "card" in w["params"] and "alt" in w["params"]:
                    got = claims(f, w["code"], int(Card.parse(w["params"]["card"])),
                                 int(Card.parse(w["params"]["alt"])), w["params"])
                    for kind, ok in got.items():
                        checked["claims"][kind] += 1
                        checked["claims_true"][kind] += ok
                        if not ok:
                            checked["claims_false"][f"{kind}:{w['code']}"] += 1
            checked["hints"] += 1
            if holds(view, why["code"], why["params"], f):
                checked["holds"] += 1
            else:
                checked["wrong"][why["code"]] += 1
            b, a = (int(Card.parse(why["params"][k])) if k in why["params"] else None
                    for k in ("card", "alt"))
            if a is not None and why["code"] in _ties() and f.blank(b) and f.blank(a):
                checked["blank_ties"] += 1
                checked["blank_codes"][why["code"]] += 1
            if b is not None and figure_thrown(f, b, a, why["code"]):
                checked["figure_thrown"] += 1
    for k in ("claims", "claims_true", "claims_false"):
        checked[k] = dict(checked[k])
    checked["wrong"] = dict(checked["wrong"])
    checked["blank_codes"] = dict(checked["blank_codes"])
    return {"hint": dict(hint), "review": dict(review), "principles": checked}


def figure_thrown(f, b: int, a: int | None, code: str) -> bool:
    """Does the hint throw ``b``, a card with points, onto a trick the others hold and no
    partner may still take, while a legal card of fewer points loses it as well -- without a
    reason that compares it with such a card and says why that card is kept?"""
    if not f.lost(b) or f.partner_after or not f.pts[b]:
        return False
    cheaper = [c for c in f.legal if f.lost(c) and f.given(c) < f.given(b)]
    if not cheaper:
        return False
    return not (a in cheaper and code in KEEPS)


def _ties() -> tuple[str, ...]:
    from briscola.ai.teach import TIE_CODES
    return TIE_CODES + ("coach_equal",)


# Reasons that say why the card compared is kept rather than thrown (a figure thrown anyway).
KEEPS = ("coach_give_keep", "coach_keep_trump", "coach_tie_keep_trump", "coach_keep_later",
         "coach_keep_stronger", "coach_keep_safer", "coach_keep_master", "coach_load_ahead",
         "coach_tie_worth_same")


def print_principles(variants: list[str], deals: int) -> None:
    print(f"Whether the coach's principles hold: {deals} deals per variant, every seat's hints "
          "(intermediate players)\n")
    print("| variant | hints | principle holds | ties between small cards | what they say | "
          "figure thrown unexplained | codes that did not hold |")
    print("| --- | ---: | ---: | ---: | --- | ---: | --- |")
    for v in variants:
        c = words(v, deals)["principles"]
        n = max(c["hints"], 1)
        wrong = ", ".join(f"{k[len('coach_'):]} {m}" for k, m in
                          sorted(c["wrong"].items(), key=lambda kv: -kv[1])) or "-"
        print(f"| {v} | {c['hints']} | {100.0 * c['holds'] / n:.1f} % | "
              f"{100.0 * c['blank_ties'] / n:.1f} % | {_codes(c['blank_codes']) or '-'} | "
              f"{c['figure_thrown']} | {wrong} |")
    print("\nEvery claim of the hints and of the review's sentences, checked from the facts "
          "(`claims` in py/briscola/ai/teach.py): how many were made and the share that holds\n")
    kinds = ("given", "sure", "odds", "risks", "count")
    print("| variant | " + " | ".join(CLAIM_WORDS[k] for k in kinds) + " | false |")
    print("| --- | " + " | ".join("---:" for _k in kinds) + " | --- |")
    for v in variants:
        c = words(v, deals)["principles"]
        cells = []
        for k in kinds:
            n = c["claims"].get(k, 0)
            cells.append(f"{n}: {100.0 * c['claims_true'].get(k, 0) / n:.1f} %" if n else "-")
        false = ", ".join(f"{k} {m}" for k, m in sorted(c["claims_false"].items())) or "-"
        print(f"| {v} | " + " | ".join(cells) + f" | {false} |")
    print("\nTies (the hint's two cards within the evaluation's noise): how they are said\n")
    print("| variant | hints | ties | by a principle | worth the same, saying why | "
          "only \"either will do\" | \"made up later\" not checked |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for v in variants:
        c = words(v, deals)["principles"]
        n, t = max(c["hints"], 1), max(c["ties"], 1)
        same = c["tie_named"] + c["tie_generic"]
        print(f"| {v} | {c['hints']} | {c['ties']} ({100.0 * c['ties'] / n:.1f} %) | "
              f"{100.0 * c['tie_principle'] / t:.1f} % | "
              f"{c['tie_named']} of {same} ({100.0 * c['tie_named'] / max(same, 1):.1f} %) | "
              f"{c['tie_generic']} | {c['worth_same_unchecked']} |")


# Ties said as worth the same, with what makes them the same here (or what they differ in),
# and those said only as "any small card will do" / "either will do".
SAME_NAMED = ("coach_tie_blanks_lose", "coach_tie_blanks_lead", "coach_equal_take",
              "coach_equal_lose", "coach_equal_lead", "coach_tie_worth_same", "coach_tie_exact_kept", "coach_tie_differ",
              "coach_tie_differ_points", "coach_tie_differ_risk")
SAME_GENERIC = ("coach_tie_blanks", "coach_equal")


CLAIM_WORDS = {"given": "points put on a trick (never a card that takes it)",
               "sure": "a sure take", "odds": "a chance said",
               "risks": "\"risks N points\" on a lead",
               "count": "\"only N beat it\" with its chance"}


# A reason about the hand names what it holds: the trumps it would have in the contract.
HAND_PARAMS = ("trumps",)


def bidding_words(variant: str, deals: int, seed: str = "coach") -> dict:
    """The coach's reasons at every auction and call decision with a choice of every seat:
    code counts for the hint and for the review of the action chosen, and how many of each
    speak of the hand (:data:`HAND_PARAMS` among their parameters)."""
    from collections import Counter

    from briscola.ai.evaluate import bidding_actions, evaluate_bidding
    from briscola.ai.explain import explain_bidding
    from briscola.actions import CARICHI

    out = {k: Counter() for k in ("hint", "review", "hint_hand", "review_hand")}
    for view, action in _turns(variant, deals, seed):
        action = int(action)
        if view.phase in ("auction", "call") and len(view.legal) > 1 \
                and bidding_actions(view):
            ev = evaluate_bidding(view)
            for kind, why in (("hint", explain_bidding(view, ev)),
                              ("review", None if action == CARICHI else explain_bidding(
                                  view, evaluate_bidding(view, action), action))):
                if why is None:
                    continue
                out[kind][why["code"]] += 1
                if all(k in why["params"] for k in HAND_PARAMS):
                    out[kind + "_hand"][why["code"]] += 1
    return {k: dict(v) for k, v in out.items()}


def _codes(counts: dict) -> str:
    """``"bid_hand 14, call_long 1"``: the codes given, the most frequent first."""
    return ", ".join(f"{k[len('coach_'):]} {x}" for k, x in
                     sorted(counts.items(), key=lambda kv: -kv[1]))


def _by_sentence(variants: list[str], deals: int, measure):
    """``(variant, sentence, its code counts, all of measure(variant, deals))`` per variant,
    for the hint and then the review."""
    for v in variants:
        got = measure(v, deals)
        for kind in ("hint", "review"):
            yield v, kind, got[kind], got


def print_bidding(variants: list[str], deals: int) -> None:
    print(f"What the coach says of the auction and the call: {deals} deals per variant, "
          "every seat (intermediate players)\n")
    print("| variant | sentence | decisions | about the hand | figure or \"the same\" only | codes |")
    print("| --- | --- | ---: | ---: | ---: | --- |")
    for v, kind, c, got in _by_sentence(variants, deals, bidding_words):
        n = sum(c.values())
        hand = sum(got[kind + "_hand"].values())
        print(f"| {v} | {kind} | {n} | {100.0 * hand / max(n, 1):.1f} % | "
              f"{100.0 * (n - hand) / max(n, 1):.1f} % | {_codes(c)} |")


def _share(counts: dict, codes) -> float:
    n = sum(counts.values())
    return 100.0 * sum(counts.get(c, 0) for c in codes) / max(n, 1)


def print_words(variants: list[str], deals: int) -> None:
    print(f"What the coach says: {deals} deals per variant, every seat (intermediate players)\n")
    print("| variant | sentence | decisions | either will do | no cause | both | codes |")
    print("| --- | --- | ---: | ---: | ---: | ---: | --- |")
    for v, kind, c, _got in _by_sentence(variants, deals, words):
        print(f"| {v} | {kind} | {sum(c.values())} | {_share(c, EQUAL):.1f} % | "
              f"{_share(c, NO_CAUSE):.1f} % | {_share(c, EQUAL + NO_CAUSE):.1f} % | {_codes(c)} |")


def measure(variant: str, deals: int, seed: str = "coach") -> dict:
    """Hint times (ms) at seat 0's decisions and whole-deal review times (ms), wall and CPU."""
    from briscola.ai import make_bot
    from briscola.ai.evaluate import card_plays, evaluate
    from briscola.ai.explain import explain
    from briscola.coach.review import review_deal
    from briscola.game import Game
    from briscola.rules import find_variant

    rules = find_variant(variant)
    cpu = cpu_clock()
    out: dict = {"hint": [], "hint_cpu": [], "review": [], "review_cpu": [], "decisions": [],
                 "where": []}
    for i in range(deals):
        game = Game.new(rules, seed=f"{seed}:{i}")
        bots = [make_bot("intermediate", f"{seed}:{i}:{s}") for s in range(rules.players)]
        while not game.is_over:
            seat = game.current_player
            if seat == 0:
                t0, c0 = time.perf_counter(), cpu()
                view = game.view(0)
                if view.phase == "play" and len(card_plays(view)) > 1:
                    explain(view, evaluate(view))
                    out["hint"].append((time.perf_counter() - t0) * 1000.0)
                    out["hint_cpu"].append((cpu() - c0) * 1000.0)
                    out["where"].append(f"deal {i}, trick {view.tricks_done + 1}, "
                                        f"{len(view.hand)} cards in hand")
            game.apply(bots[seat].decide(game.view(seat)).action, seat)
        t0, c0 = time.perf_counter(), cpu()
        r = review_deal(game, 0)
        out["review"].append((time.perf_counter() - t0) * 1000.0)
        out["review_cpu"].append((cpu() - c0) * 1000.0)
        out["decisions"].append(r["count"])
    return out


def summarize(raw: dict) -> dict:
    """The times' summaries, decisions a deal, and where the slowest hint (by CPU) was."""
    cpu = raw["hint_cpu"]
    slowest = raw["where"][cpu.index(max(cpu))] if cpu else ""
    return {k: summary(v, "n") for k, v in raw.items() if k not in ("decisions", "where")} | {
        "decisions": sum(raw["decisions"]) / max(len(raw["decisions"]), 1),
        "slowest": slowest}


def _inner(argv: list[str]) -> int:
    """Inside Pyodide (its trimmed standard library has no argparse)."""
    deals = int(argv[argv.index("--deals") + 1]) if "--deals" in argv else 6
    variants = (argv[argv.index("--variants") + 1] if "--variants" in argv
                else "classic").split(",")
    out = {v: summarize(measure(v, deals)) for v in variants}
    out["_python"] = sys.version.split()[0] + " " + sys.platform
    print(json.dumps(out))
    return 0


def _row(runtime: str, variant: str, r: dict) -> str:
    h, hc, rv, rc = r["hint"], r["hint_cpu"], r["review"], r["review_cpu"]
    target = TARGETS["review"].get(variant)
    return (f"| {runtime} | {variant} | {h['n']} | {h['median']:.0f} / {hc['median']:.0f} | "
            f"{h['p90']:.0f} / {hc['p90']:.0f} | {h['worst']:.0f} / {hc['worst']:.0f} | "
            f"{r.get('slowest', '')} | {r['decisions']:.1f} | "
            f"{rv['median'] / 1000:.2f} / {rc['median'] / 1000:.2f} | {rv['worst'] / 1000:.2f} | "
            f"{'' if target is None else f'{target / 1000:.0f} s'} |")


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--inner" in argv:
        return _inner(argv)
    import platform
    ap = harness_parser(__doc__, 6, "classic,four,chiamata")
    ap.add_argument("--words", action="store_true",
                    help="the share of reasons that teach nothing, instead of the times")
    ap.add_argument("--bidding", action="store_true",
                    help="the share of Chiamata's auction and call reasons about the hand")
    ap.add_argument("--principles", action="store_true",
                    help="the share of hints whose principle holds in the position")
    args = ap.parse_args(argv)
    variants = [v for v in args.variants.split(",") if v]
    if args.bidding:
        if args.variants == ap.get_default("variants"):
            variants = ["chiamata", "chiamata-points"]
        print_bidding(variants, args.deals)
        return 0
    if args.words or args.principles:
        if args.words:
            print_words(variants, args.deals)
        if args.principles:
            print("" if not args.words else "\n", end="")
            print_principles(variants, args.deals)
        return 0
    load0 = os.getloadavg()[0]
    results = {"cpython": {v: summarize(measure(v, args.deals)) for v in variants}}
    note = pyodide_into(results, __file__, variants, args)
    load1 = os.getloadavg()[0]
    if args.json:
        results["note"] = note
        results["load"] = [load0, load1]
        print(json.dumps(results))
        return 0
    print(f"The coach: hint and whole-deal review times, {args.deals} deals per variant "
          "(intermediate players; seat 0 reviewed)\n")
    print("| runtime | variant | hints | hint median ms (wall / CPU) | p90 | worst | "
          "slowest hint (by CPU) | decisions a deal | review median s (wall / CPU) | worst | "
          "review target |")
    print("| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- |")
    for v in variants:
        print(_row(f"CPython {platform.python_version()}", v, results["cpython"][v]))
    if "pyodide" in results:
        label = "Pyodide " + results["pyodide"].get("_python", "").split()[0] + " (Node)"
        for v in variants:
            print(_row(label, v, results["pyodide"][v]))
    print(f"\nLoad average: {load0:.1f} before, {load1:.1f} after, on {os.cpu_count()} cores "
          "(wall times on a shared machine include waiting for the CPU).")
    if note:
        print(f"\n{note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
