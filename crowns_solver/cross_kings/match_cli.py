"""``crowns cross-kings match``: a duplicate match between two computer players."""

from __future__ import annotations

import argparse
import sys

from ..cli import UsageError, add_json_flag, print_json
from ..errors import PositionError
from .cli import whole_number
from .play_cli import _seconds_or_zero
from .players import PLAYER_NAMES, SEARCH_PLAYERS
from .position import REACHES
from .solver import EVALUATIONS, OBJECTIVES


def _cell(text: str) -> tuple[int, int]:
    try:
        r, c = (int(x) for x in text.replace("(", "").replace(")", "").split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a cell is ROW,COL such as 2,2: {text!r}") from None
    return r, c


def _check_ignored(args: argparse.Namespace) -> None:
    """Refuse a per-player option that the chosen player kinds would silently ignore."""
    for seat in ("a", "b"):
        name = getattr(args, seat)
        if getattr(args, f"{seat}_evaluation") is not None and name not in SEARCH_PLAYERS:
            raise UsageError(f"--{seat}-evaluation applies only to a search or clairvoyant player,"
                             f" and player {seat.upper()} is {name} (--{seat} {name})")
    if args.time and args.nodes is not None:   # (--time 0 is no time limit: the nodes bound each move)
        raise UsageError(f"--nodes {args.nodes} and --time {args.time:g} are alternatives: --time limits each move"
                         " by seconds instead of nodes; give one (--time 0 means no time limit, with --nodes"
                         " or the default node limit bounding each move)")
    if args.a in SEARCH_PLAYERS or args.b in SEARCH_PLAYERS:
        return
    for option, value in (("--nodes", args.nodes), ("--time", args.time), ("--objective", args.objective)):
        if value is not None:
            raise UsageError(f"{option} applies only to search or clairvoyant players, and neither player"
                             f" searches (--a {args.a}, --b {args.b})")


def _options(name: str, args: argparse.Namespace, seat: str) -> dict:
    from .players import DEFAULT_NODE_LIMIT

    if name not in SEARCH_PLAYERS:
        return {}
    opts: dict = {"node_limit": DEFAULT_NODE_LIMIT if args.nodes is None else args.nodes}
    if args.time:   # --time 0 (or inf): no time limit, the node limit bounds each move
        opts = {"node_limit": None, "time_limit": args.time}
    if args.objective not in (None, "margin"):
        opts["objective"] = args.objective
    evaluation = args.a_evaluation if seat == "a" else args.b_evaluation
    if evaluation not in (None, "fitted"):
        opts["evaluation"] = evaluation
    return opts


def _csv_table(games):  # -> pandas.DataFrame
    """The per-game rows as ``--csv`` writes them: :func:`~crowns_solver.cross_kings.match.games_table`'s
    columns plus ``start_cell``, the start cell as ``(row,col)`` (``"(3,2)"``) after ``start``
    (its cell number, kept for who reads it), as the text and the rest of the command give
    cells (session 23: only the number was written)."""
    from .position import cell_text

    table = games.copy()
    table.insert(table.columns.get_loc("start") + 1, "start_cell", [cell_text(int(i)) for i in table["start"]])
    return table


def cmd_match(args: argparse.Namespace) -> int:
    from .match import match

    _check_ignored(args)   # (--deals is checked by match, whose message names it as typed)
    if args.start is not None and not all(0 <= x < 6 for x in args.start):
        raise PositionError(f"--start: no such cell: ({args.start[0]},{args.start[1]}) (row and column are 0..5)")
    from .._io import check_run_outputs, resume_hint, write_csv

    check_run_outputs(args.out, args.csv, force=args.force)  # before any game (--csv m.jsonl --out m.jsonl too)
    try:
        result = match(args.a, args.b, args.deals, seed=args.seed, a_options=_options(args.a, args, "a"),
                       b_options=_options(args.b, args, "b"), reach=args.reach, start=args.start,
                       workers=args.workers, progress=args.progress, out=args.out)
    except KeyboardInterrupt:
        print(resume_hint(args.out, "--out", "deals"), file=sys.stderr)
        raise  # crowns_solver.cli prints "crowns: interrupted", status 130
    if args.csv is not None:
        write_csv(_csv_table(result.games), args.csv)
    if args.json:
        print_json(result.to_dict())
        return 0
    print(result.describe())
    if args.time:
        print("(time limits per move: the games depend on this machine's speed; --nodes replays exactly)")
    return 0


def register_match(commands: argparse._SubParsersAction) -> None:
    """Declare ``crowns cross-kings match``."""
    from .players import DEFAULT_NODE_LIMIT

    p = commands.add_parser(
        "match",
        help="a duplicate match between two computer players: win/draw/loss and margin with 95%% intervals",
        description=(
            "Play seeded deals twice each, seats exchanged (duplicate format), between two players:"
            " random, greedy, search (game-value search) or clairvoyant (open-value search; it"
            " CHEATS by seeing the face-down cards, for comparison only).  Prints player A's"
            " win/draw/loss rates and score and the mean margin with 95% intervals that count each"
            " deal (its two games share the cards) as one observation."
        ),
    )
    p.add_argument("--a", choices=PLAYER_NAMES, default="search", help="player A (default search)")
    p.add_argument("--b", choices=PLAYER_NAMES, default="greedy", help="player B (default greedy)")
    p.add_argument("--deals", type=whole_number(1), default=20, metavar="N", help="deals, each played twice (default 20)")
    p.add_argument("--seed", type=whole_number(0), default=0, metavar="S", help="root seed (default 0)")
    # None = not given: the defaults are applied in _options, so that an option no player
    # would use can be refused (_check_ignored) instead of silently dropped.  --nodes and a
    # --time > 0 exclude each other (_check_ignored); --time 0 is no time limit, so the node
    # limit bounds each move, as "0: no limit" in solve --time-limit, play and analyse --time
    p.add_argument("--nodes", type=whole_number(1), default=None, metavar="K",
                   help=f"search nodes per move for search/clairvoyant (default {DEFAULT_NODE_LIMIT:,}; reproducible)")
    p.add_argument("--time", type=_seconds_or_zero, default=None, metavar="SECONDS",
                   help="seconds per move for search/clairvoyant instead of --nodes (not reproducible); 0 or inf:"
                        f" no time limit, --nodes (default {DEFAULT_NODE_LIMIT:,}) bounds each move")
    p.add_argument("--objective", choices=OBJECTIVES, default=None,
                   help="what the search players maximise (default margin)")
    for seat in ("a", "b"):
        p.add_argument(f"--{seat}-evaluation", choices=tuple(EVALUATIONS), default=None,
                       help=f"horizon evaluation of player {seat.upper()} when it searches: fitted to self-play"
                            " (default) or the earlier potential count; refused for a player that does not search")
    p.add_argument("--reach", choices=REACHES, default="any", help="rules option reach (default any)")
    p.add_argument("--start", type=_cell, default=None, metavar="ROW,COL",
                   help="fix the start cell (crosskings.net uses 2,2); default: the second player chooses")
    p.add_argument("--workers", type=whole_number(1), default=None, metavar="W", help="worker processes (default: all cores)")
    p.add_argument("--out", default=None, metavar="FILE", help="results file (JSON lines); resumes if it exists")
    p.add_argument("--csv", default=None, metavar="FILE", help="write the per-game rows as CSV")
    p.add_argument("--force", action="store_true", help="overwrite the --csv file if it exists")
    p.add_argument("--progress", action="store_true", default=False, help="show a progress bar on stderr")
    add_json_flag(p)
    p.set_defaults(handler=cmd_match)

