"""``crowns cross-kings ...`` subcommands."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..cli import add_json_flag, print_json
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
        text = path.read_text(encoding="utf-8")
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

    cards = [c for item in args.cards for c in item.replace(",", " ").split()]
    parse_cards(cards)
    if args.json:
        print_json(_explain_dict(cards))
        return 0
    ex = explain_hand(cards)
    print(f"{' '.join(c.upper() for c in cards)}: score {ex.score}")
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
