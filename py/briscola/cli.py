"""The command line: ``python -m briscola variants | simulate | play | arena | review``.

Bad arguments exit with status 2 and a one-line reason on stderr.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Iterable, NoReturn, Sequence, TextIO

from .ai import make_bot
from .arena import simulate
from .bounds import load_json
from .cards import CARDS, SUITS
from .errors import BriscolaError
from .game import Game
from .rules import OPTIONS, VARIANTS, Rules, find_variant


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2
        raise _Usage(f"{self.prog}: {message}")


class _Usage(Exception):
    pass


def _parse_bots(text: str, players: int) -> list[str]:
    names = [b.strip() for b in text.split(",")]
    if any(not b for b in names):
        raise _Usage(f"--bots: empty bot name in {text!r}")
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise _Usage(f"--bots: name one bot per seat ({players}) or one for every seat")
    return names


def _option_value(key: str, value: str) -> bool | int | str:
    opt = OPTIONS.get(key)
    if opt is None:
        raise _Usage(f"--option: no option named {key!r}; known: {', '.join(OPTIONS)}")
    if opt.kind is bool:
        if value.lower() in ("1", "true", "on", "yes"):
            return True
        if value.lower() in ("0", "false", "off", "no"):
            return False
        raise _Usage(f"--option {key}: expected true or false, got {value!r}")
    if opt.kind is int:
        try:
            return int(value)
        except ValueError:
            raise _Usage(f"--option {key}: expected a whole number, got {value!r}") from None
    return value


def _rules_from(args: argparse.Namespace) -> Rules:
    rules = find_variant(args.variant)
    changes = {}
    for opt in getattr(args, "option", None) or []:
        if "=" not in opt:
            raise _Usage(f"--option: expected NAME=VALUE, got {opt!r}")
        key, value = opt.split("=", 1)
        changes[key] = _option_value(key, value)
    return rules.replace(**changes) if changes else rules


def cmd_variants(args: argparse.Namespace, out: TextIO) -> int:
    width = max(len(n) for n in VARIANTS)
    for name, rules in VARIANTS.items():
        out.write(f"{name:<{width}}  {rules.description}\n")
    return 0


def cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    rules = _rules_from(args)
    if args.deals < 1:
        raise _Usage("--deals: must be at least 1")
    names = _parse_bots(args.bots, rules.players)
    result = simulate(rules, names, args.deals, args.seed)
    wins, draws = result["wins"], result["draws"]
    if args.json:
        out.write(json.dumps(result) + "\n")
    else:
        for i, side in enumerate(result["sides"]):
            who = "+".join(f"{names[s]}@{s}" for s in side)
            out.write(f"side {i} ({who}): {wins[i]} wins, mean {result['points'][i]} points\n")
        out.write(f"draws: {draws} of {args.deals} deals\n")
    return 0


def _card_list(cards: Iterable[int]) -> str:
    return " ".join(str(CARDS[c]) for c in cards) or "-"


def cmd_play(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    rules = _rules_from(args)
    if rules.mode == "chiamata":
        raise _Usage("play: Briscola Chiamata is played in the browser")
    if not 0 <= args.seat < rules.players:
        raise _Usage(f"--seat: from 0 to {rules.players - 1}")
    game = Game.new(rules, seed=args.seed)
    bots = {s: make_bot(args.bot, seed=f"{args.seed}/bot{s}") for s in range(rules.players)
            if s != args.seat}
    me = args.seat
    out.write(f"Briscola ({rules.name}); you are seat {me}. Type a card like 'AD', "
              "'swap-7D', 'signal-A', or 'quit'.\n")
    seen_tricks = 0
    while not game.is_over:
        view = game.view(me)
        while seen_tricks < len(view.tricks):
            _order, cards, w, p = view.tricks[seen_tricks]
            out.write(f"  trick {seen_tricks + 1}: {_card_list(cards)} -> seat {w} (+{p})\n")
            seen_tricks += 1
        seat = game.current_player
        assert seat is not None  # the deal is not over
        if seat != me:
            decision = bots[seat].decide(game.view(seat))
            out.write(f"seat {seat} plays {decision.action}\n")
            game.apply(decision.action, seat=seat)
            continue
        trump = view.trump_card
        assert view.trump_suit is not None  # not Chiamata (refused above): trump from the deal
        out.write(f"trump {SUITS[view.trump_suit]}"
                  f"{' (' + str(trump) + ' face up)' if trump is not None else ''}, "
                  f"talon {view.talon_size}, points {view.points}\n")
        out.write(f"on the table: {' '.join(str(c) for _, c in view.trick) or '-'}\n")
        out.write(f"your hand: {' '.join(map(str, view.hand))}\n> ")
        out.flush()
        line = inp.readline()
        if not line or line.strip() == "quit":
            out.write("\nbye\n")
            return 0
        try:
            game.apply(line.strip(), seat=me)
        except BriscolaError as e:
            out.write(f"{e}\n")
    outcome = game.outcome()
    assert outcome is not None
    out.write(f"points per side: {list(outcome.side_points)}; "
              f"{'draw' if outcome.draw else 'winning seats ' + str(outcome.winning_seats())}\n")
    return 0


def _game_to_review(args: argparse.Namespace) -> Game:
    """The deal to review: from ``--save`` (a saved game, match or table; ``--deal`` picks a
    deal of a match, the last by default), or played now by ``--bots``."""
    if args.save is not None:
        from .match import Match
        try:
            with open(args.save, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            raise _Usage(f"--save: cannot read {args.save}: {e.strerror}") from None
        except ValueError as e:  # not UTF-8
            raise _Usage(f"--save: {args.save} is not JSON ({e})") from None
        try:
            data = load_json(text, f"--save: {args.save}")
        except ValueError as e:
            raise _Usage(str(e)) from None
        kind = data.get("format") if isinstance(data, dict) else None
        if kind == "briscola/table":
            data, kind = data.get("match"), "briscola/match"
        if kind == "briscola/game":
            if args.deal is not None:
                raise _Usage("--deal: a saved game holds one deal")
            return Game.from_dict(data)
        if kind == "briscola/match":
            deals = Match.from_dict(data).history()
            k = len(deals) - 1 if args.deal is None else args.deal
            if not 0 <= k < len(deals):
                raise _Usage(f"--deal: from 0 to {len(deals) - 1}")
            return deals[k]
        raise _Usage(f"--save: {args.save} is not a saved game, match or table")
    rules = _rules_from(args)
    names = _parse_bots(args.bots, rules.players)
    game = Game.new(rules, seed=args.seed)
    bots = [make_bot(b, seed=f"{args.seed}/bot{s}") for s, b in enumerate(names)]
    while not game.is_over:
        seat = game.current_player
        assert seat is not None  # the deal is not over
        game.apply(bots[seat].decide(game.view(seat)).action, seat=seat)
    return game


def cmd_review(args: argparse.Namespace, out: TextIO) -> int:
    from .coach.review import review_deal
    game = _game_to_review(args)
    if not 0 <= args.seat < game.n:
        raise _Usage(f"--seat: from 0 to {game.n - 1}")
    r = review_deal(game, args.seat)
    if args.json:
        keep = ("index", "step", "trick", "phase", "action", "best", "loss", "label", "unit",
                "reason", "values")
        result = {"variant": game.rules.name, "seat": args.seat, "count": r["count"],
                  "accuracy": r["accuracy"], "mean_loss": r["mean_loss"], "counts": r["counts"],
                  "turning_points": r["turning_points"],
                  "decisions": [dict({k: d[k] for k in keep}, card=d["action"])
                                for d in r["decisions"]]}
        out.write(json.dumps(result) + "\n")
        return 0
    out.write(f"Review of seat {args.seat} ({game.rules.name}): accuracy {r['accuracy']}%, "
              f"mean loss {r['mean_loss']} points a card play, {r['count']} decisions\n")
    turning = set(r["turning_points"])
    for d in r["decisions"]:
        why = d["reason"]
        params = " ".join(f"{k}={v}" for k, v in why["params"].items())
        mark = " *turning point*" if d["index"] in turning else ""
        where = f"trick {d['trick'] + 1:>2}" if d["phase"] == "play" else f"{d['phase']:>8}"
        unit = "" if d["unit"] == "card_points" else " game points"
        out.write(f"{where}: played {d['action']}, best {d['best']}, "
                  f"loss {d['loss']:.2f}{unit} ({d['label']}){mark}  [{why['code']} {params}]\n"
                  if unit else
                  f"{where}: played {d['action']}, best {d['best']}, "
                  f"loss {d['loss']:.1f} ({d['label']}){mark}  [{why['code']} {params}]\n")
    out.write("counts: " + ", ".join(f"{k} {v}" for k, v in r["counts"].items()) + "\n")
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m briscola", description="Briscola engine and computer players")
    sub = p.add_subparsers(dest="command", parser_class=_Parser)
    sub.add_parser("variants", help="list every registered variant")
    s = sub.add_parser("simulate", help="play seeded deals between bots")
    s.add_argument("--variant", default="classic")
    s.add_argument("--option", action="append", metavar="NAME=VALUE",
                   help="change one option of the variant (repeatable)")
    s.add_argument("--bots", default="random", help="one bot per seat, or one for every seat")
    s.add_argument("--deals", type=int, default=100)
    s.add_argument("--seed", default="0")
    s.add_argument("--json", action="store_true")
    pl = sub.add_parser("play", help="play a deal in the terminal")
    pl.add_argument("--variant", default="classic")
    pl.add_argument("--option", action="append", metavar="NAME=VALUE")
    pl.add_argument("--bot", default="intermediate")
    pl.add_argument("--seat", type=int, default=0)
    pl.add_argument("--seed", default=None)
    sub.add_parser("arena", help="duplicate-deal matches between two bots", add_help=False)
    rv = sub.add_parser("review", help="review one seat's decisions in a deal (the coach)")
    rv.add_argument("--save", metavar="FILE", help="a saved game, match or table (JSON)")
    rv.add_argument("--deal", type=int, default=None, help="the deal of a saved match (0 first)")
    rv.add_argument("--variant", default="classic")
    rv.add_argument("--option", action="append", metavar="NAME=VALUE")
    rv.add_argument("--bots", default="intermediate",
                    help="one bot per seat, or one for every seat (without --save)")
    rv.add_argument("--seed", default="0")
    rv.add_argument("--seat", type=int, default=0)
    rv.add_argument("--json", action="store_true")
    return p


def main(argv: Sequence[str] | None = None, out: TextIO | None = None,
         inp: TextIO | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    out = out or sys.stdout
    inp = inp or sys.stdin
    if argv and argv[0] == "arena":
        from .arena import cli
        return cli(argv[1:])
    try:
        args = build_parser().parse_args(argv)
        if args.command is None:
            raise _Usage("python -m briscola: name a command: variants, simulate, play, arena, "
                         "review")
        if args.command == "variants":
            return cmd_variants(args, out)
        if args.command == "simulate":
            return cmd_simulate(args, out)
        if args.command == "review":
            return cmd_review(args, out)
        return cmd_play(args, out, inp)
    except _Usage as e:
        sys.stderr.write(f"{e}\n")
        return 2
    except BriscolaError as e:
        sys.stderr.write(f"error: {e}\n")
        return 2
    except ValueError as e:  # e.g. a malformed --option value
        sys.stderr.write(f"error: {e}\n")
        return 2
