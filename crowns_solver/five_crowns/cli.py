"""``crowns five-crowns ...`` subcommands."""

from __future__ import annotations

import argparse


def cmd_keeper(args: argparse.Namespace) -> int:
    from .keeper import interactive

    interactive(resume=args.resume, save=args.save, names=args.players, first_dealer=args.first_dealer)
    return 0


def register(commands: argparse._SubParsersAction) -> None:
    """Declare the ``five-crowns`` subcommands."""
    keeper = commands.add_parser(
        "keeper",
        help="score keeper for a game at the table: wild card, dealer, totals, saves after every entry",
        description=(
            "Keep the scores of a Five Crowns game played at the table. Each round shows the"
            " cards dealt, the wild card, who deals and who starts; type each player's points"
            " or the cards left in hand. Saves after every entry; resume with --resume FILE."
        ),
    )
    src = keeper.add_mutually_exclusive_group()
    src.add_argument("--resume", metavar="FILE", help="continue the game saved in FILE")
    src.add_argument("--save", metavar="FILE",
                     help="save a new game to FILE (default five-crowns-YYYYMMDD-HHMM.json; asks before overwriting)")
    keeper.add_argument("--players", nargs="+", metavar="NAME", help="the players in seat order (asked for if omitted)")
    keeper.add_argument("--first-dealer", metavar="NAME", help="who deals round 1 (default: the first player)")
    keeper.set_defaults(handler=cmd_keeper)
