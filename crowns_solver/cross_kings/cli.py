"""``crowns cross-kings ...`` subcommands."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..cli import add_json_flag, print_json
from .._io import read_text
from ..errors import PositionError

POSITION_HELP = (
    "a crosskings.net save string, or a file holding one, a deal (six lines of six cards,"
    " ?? for face-down cards) or a position as JSON"
)


def add_position_args(parser: argparse.ArgumentParser, *, optional: bool = True) -> None:
    """Add the position source: POSITION (save string or file) or ``--random SEED``."""
    parser.add_argument("position", nargs="?" if optional else None, metavar="POSITION", help=POSITION_HELP)
    parser.add_argument("--random", type=int, metavar="SEED", help="use a random deal from this seed")
    parser.add_argument("--reach", choices=("any", "nearest"), default=None,
                        help="rules option reach (default: any, or the JSON file's)")
    parser.add_argument("--names", nargs=2, metavar=("FIRST", "SECOND"),
                        help="display names of the two players")


def load_position(args: argparse.Namespace):  # -> Position
    """The position named by POSITION / ``--random`` (see :func:`add_position_args`)."""
    from dataclasses import replace

    from .position import Position, Rules

    rules = Rules(reach=args.reach or "any", names=tuple(args.names) if args.names else ("first", "second"))
    if args.random is not None:
        if args.position:
            raise PositionError("give either POSITION or --random, not both")
        return Position.random(args.random, rules)
    if not args.position:
        raise PositionError("no position given: pass a save string, a file, or --random SEED")
    source = args.position
    path = Path(source)
    if "//" not in source and (path.exists() or path.suffix in (".json", ".txt", ".deal")):
        text = read_text(path, PositionError)
    else:
        text = source
    pos = Position.from_text(text, None)
    keep_reach = pos.reach if args.reach is None else args.reach
    return replace(pos, rules=replace(rules, reach=keep_reach))


def _hand_lines(pos, player: str, name: str) -> list[str]:
    from .scoring import explain_hand

    cards = pos.hand(player)
    ex = explain_hand(cards)
    lines = [f"{name}: {' '.join(cards) if cards else '(no cards)'}  score {ex.score}"]
    for g in ex.groups:
        lines.append(f"    {g.kind} {' '.join(g.cards)}  {g.points:+d}")
    for king, stands in ex.kings.items():
        lines.append(f"    {king} stands for {stands}" if stands else f"    {king} unplaced")
    return lines


def _explain_dict(cards) -> dict:
    from .scoring import explain_hand

    ex = explain_hand(cards)
    return {
        "cards": list(cards),
        "score": ex.score,
        "groups": [
            {"kind": g.kind, "cards": list(g.cards), "points": g.points, "kings": g.kings}
            for g in ex.groups
        ],
        "kings": ex.kings,
    }


def cmd_show(args: argparse.Namespace) -> int:
    pos = load_position(args)
    if args.json:
        d = pos.to_dict()
        d["legal_moves"] = [list(m) for m in pos.legal_moves()]
        d["terminal"] = pos.is_terminal()
        d["unseen"] = list(pos.unseen)
        d["first"] = _explain_dict(pos.hand("first"))
        d["second"] = _explain_dict(pos.hand("second"))
        try:
            d["save_string"] = pos.to_save_string()
        except PositionError:
            pass
        print_json(d)
        return 0
    print(pos.render())
    names = pos.rules.names
    print()
    for player, name in zip(("first", "second"), names):
        print("\n".join(_hand_lines(pos, player, name if name == player else f"{name} ({player})")))
    moves = pos.legal_moves()
    if moves:
        print(f"legal moves: {' '.join(f'({r},{c})' for r, c in moves)}")
    else:
        a, b = pos.scores()
        print(f"final margin (first - second): {a - b:+d}")
    if pos.face_down:
        print(f"unseen cards: {' '.join(pos.unseen)}")
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    from .cards import parse_cards
    from .scoring import explain_hand

    from ..errors import CardError
    from .cards import DECK

    cards = [c for item in args.cards for c in item.replace(",", " ").split()]
    if not cards:
        raise CardError("no cards given: name the hand's cards, e.g. AS 7D KH")
    cards = [DECK[i] for i in parse_cards(cards)]
    if args.json:
        print_json(_explain_dict(cards))
        return 0
    ex = explain_hand(cards)
    print(f"{' '.join(cards)}: score {ex.score}")
    for g in ex.groups:
        print(f"  {g.kind} {' '.join(g.cards)}  {g.points:+d}")
    for king, stands in ex.kings.items():
        print(f"  {king} stands for {stands}" if stands else f"  {king} unplaced")
    return 0


def register(commands: argparse._SubParsersAction) -> None:
    """Declare the ``cross-kings`` subcommands."""
    show = commands.add_parser("show", help="show a position: grid, marker, hands and scores")
    add_position_args(show)
    add_json_flag(show)
    show.set_defaults(handler=cmd_show)

    score = commands.add_parser("score", help="score a hand: groups, points, what each King stands for")
    score.add_argument("cards", nargs="+", metavar="CARD", help="cards such as AS 7D KH")
    add_json_flag(score)
    score.set_defaults(handler=cmd_score)

    register_solve(commands)

    from .match_cli import register_match

    register_match(commands)

    from .play_cli import register as register_play  # analyse, play

    register_play(commands)


#: Default --time-limit of ``crowns cross-kings solve`` (seconds): positions that cannot be
#: solved exactly in this time get the anytime analysis (best move found, proven bounds).
SOLVE_TIME_LIMIT = 10.0


def _fmt_value(value, objective: str) -> str:
    """A value as text: exact fraction, with a decimal when it is not whole."""
    if value is None:
        return "?"
    if objective == "win":
        return f"{value}" if value.denominator == 1 else f"{value} ({float(value):.3f})"
    if value.denominator == 1:
        return f"{int(value):+d}"
    return f"{'+' if value > 0 else ''}{value} ({float(value):+.3f})"


def _fmt_move_value(m, objective: str) -> str:
    if m.exact:
        return _fmt_value(m.value, objective)
    if m.value is not None:
        return f"~{_fmt_value(m.value, objective)} (proven {_fmt_value(m.lower, objective)} .. {_fmt_value(m.upper, objective)})"
    return f"? (proven {_fmt_value(m.lower, objective)} .. {_fmt_value(m.upper, objective)})"


def cmd_solve(args: argparse.Namespace) -> int:
    from .cards import DECK
    from .position import cell_index
    from .solver import DEFAULT_TT_MB, solve

    pos = load_position(args)
    time_limit = None if args.time_limit == 0 else args.time_limit
    sol = solve(
        pos,
        mode=args.mode,
        objective=args.objective,
        all_moves=args.all_moves,
        tt_mb=args.tt_mb if args.tt_mb is not None else DEFAULT_TT_MB,
        time_limit=time_limit,
        node_limit=args.node_limit,
        workers=args.workers,
    )
    interrupted = sol.stopped == "interrupted"
    if args.json:
        data = sol.to_dict()
        data["position"] = pos.to_dict()
        print_json(data)
        return 130 if interrupted else 0
    obj = args.objective
    names = pos.rules.names
    mover = names[0] if pos.to_move == "first" else names[1]
    who = mover if mover == pos.to_move else f"{mover} ({pos.to_move})"
    question = "open value (all cards known)" if args.mode == "open" else "game value (face-down cards unknown)"
    unit = "final margin" if obj == "margin" else "game points (win 1, draw 1/2, loss 0)"
    if args.mode == "game":
        unit = "expected " + unit
    print(pos.render())
    print()
    print(f"{question}, {unit}, for {who} to move:")
    if sol.exact:
        print(f"  value {_fmt_value(sol.value, obj)}  (exact)")
    else:
        why = {"time": f"time limit of {time_limit:g} s" if time_limit else "time limit",
               "nodes": "node limit", "interrupted": "interrupted (Ctrl-C)"}.get(sol.stopped or "", "stopped")
        print(f"  estimate {_fmt_value(sol.value, obj)} (search depth {sol.depth or 0} plies, heuristic at the horizon)")
        print(f"  proven between {_fmt_value(sol.lower, obj)} and {_fmt_value(sol.upper, obj)}; not exact: {why}")
    if sol.moves:
        print("moves, best first:")
        best = set(sol.best_moves)
        for m in sol.moves:
            i = cell_index(m.cell)
            card = "??" if (args.mode == "game" and i in pos.face_down) or pos.cells[i] < 0 else DECK[pos.cells[i]]
            tag = "  best" if m.cell in best else ""
            print(f"  ({m.cell[0]},{m.cell[1]}) {card:>2}  {_fmt_move_value(m, obj)}{tag}")
            if m.card_values:
                for c, v in m.card_values.items():
                    print(f"        reveals {c}: {_fmt_value(v, obj)}")
        if not args.all_moves and sol.exact and len(sol.moves) > len(sol.best_moves):
            print("  (--all-moves gives the exact value of every move)")
    if sol.pv:
        p = pos
        steps = []
        for cell in sol.pv:
            i = cell_index(cell)
            if p.marker is None:
                steps.append(f"start ({cell[0]},{cell[1]})")
                p = p.play(cell)
                continue
            hidden = (args.mode == "game" and i in p.face_down) or p.cells[i] < 0
            steps.append(f"({cell[0]},{cell[1]}){'??' if hidden else DECK[p.cells[i]]}")
            if hidden:
                break
            p = p.play(cell)
        label = "principal variation" if sol.exact else "line the search prefers"
        print(f"{label}: {' '.join(steps)}")
    rate = f" ({sol.nodes_per_second:,.0f} nodes/s)" if sol.seconds > 0 else ""
    print(f"searched {sol.nodes:,} nodes in {sol.seconds:.2f} s{rate}; table {sol.table_used:,} of"
          f" {sol.table_entries:,} entries used ({sol.table_bytes / 2**20:g} MB)")
    if interrupted:
        print("interrupted: the figures above are what was proven before Ctrl-C")
        return 130
    return 0


def _positive_float(text: str) -> float:
    import math

    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(x) or x < 0:
        raise argparse.ArgumentTypeError(f"must be a number >= 0: {text!r}")
    return x


def _seconds(text: str) -> float:
    import math

    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not math.isfinite(x) or x <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds: {text!r}")
    return x


def _positive_int(text: str) -> int:
    try:
        x = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if x <= 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text!r}")
    return x


def register_solve(commands: argparse._SubParsersAction) -> None:
    solve = commands.add_parser(
        "solve",
        help="solve a position: its value, every move ranked, the principal variation",
        description=(
            "Solve a Cross Kings position or deal.  --mode open: the open value (all cards"
            " known); --mode game: the game value (face-down cards unknown until taken)."
            f" Positions too large to solve exactly within --time-limit (default"
            f" {SOLVE_TIME_LIMIT:g} s) get an anytime analysis: the best move found and"
            " proven bounds.  Ctrl-C stops the search and prints what is proven."
        ),
    )
    add_position_args(solve)
    solve.add_argument("--mode", choices=("open", "game"), default="open",
                       help="open: all cards known (double-dummy); game: face-down cards unknown (default open)")
    solve.add_argument("--objective", choices=("margin", "win"), default="margin",
                       help="margin: final margin; win: game points 1 / 1/2 / 0 (default margin)")
    solve.add_argument("--all-moves", action="store_true", help="exact value of every move (slower)")
    solve.add_argument("--time-limit", type=_positive_float, default=SOLVE_TIME_LIMIT, metavar="S",
                       help=f"stop after S seconds and report what is proven (default {SOLVE_TIME_LIMIT:g}; 0: no limit)")
    solve.add_argument("--node-limit", type=_positive_int, default=None, metavar="N",
                       help="stop after N search nodes")
    solve.add_argument("--tt-mb", type=_positive_float, default=None, metavar="MB",
                       help="search memory in MB: transposition table plus leaf-score cache (default 64),"
                            " shared out over the workers")
    solve.add_argument("--workers", type=_positive_int, default=1, metavar="W",
                       help="worker processes that split the root's moves (default 1; the values are the"
                            " same for any W; positions under 16 cards use one)")
    add_json_flag(solve)
    solve.set_defaults(handler=cmd_solve)
