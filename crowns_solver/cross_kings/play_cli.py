"""``crowns cross-kings analyse`` and ``crowns cross-kings play`` (issue 8, parts 3-4).

Heavy imports (the solver, pandas) happen inside the handlers, so ``crowns --help``
stays fast.
"""

from __future__ import annotations

import argparse
import sys

from ..cli import UsageError, add_json_flag, print_json
from ..errors import SolverOptionError
from .cli import _node_limit, _seconds, add_names_arg, check_names, print_grid, whole_number
from .players import PLAYER_NAMES
from .position import PLAYERS, REACHES

#: Default seconds of search per analysed move (``analyse --time``).
ANALYSE_TIME = 2.0
#: Default seconds of search per computer move, hint and analysed move (``play --time``).
PLAY_TIME = 3.0
#: Choices of ``play --seat``: a player, or one drawn at random.
SEATS = (*PLAYERS, "random")


def _seconds_or_zero(text: str) -> float:
    """An argparse ``type`` for ``--time``: seconds > 0, or 0 for no time limit; ``inf``
    also means no time limit (as ``solve --time-limit inf`` does), read as 0."""
    import math

    try:
        x = float(text)
    except ValueError:
        x = math.nan
    if x == 0 or x == math.inf:
        return 0.0
    return _seconds(text)


def _read_game(source: str, *, stdin: bool = True, reach: str | None = None):  # -> Position
    """A game from a save string, or a file holding a save string or a position as JSON
    (``-``: standard input, unless `stdin` is false).  `reach` (``--reach``): the rules
    option to read a save string under (a save string cannot say it; default "any"); a
    JSON position says its own, which `reach` must then match."""
    from .cli import check_reach
    from .position import Position

    pos = Position.from_text(_game_text(source, stdin=stdin), reach)
    check_reach(pos, reach, "game")
    return pos


def _game_text(source: str, *, stdin: bool = True) -> str:
    """The text of the game `source` names (see :func:`_read_game`)."""
    from pathlib import Path

    from ..errors import SaveStringError
    from .cli import STDIN, looks_like_file, names_file, read_stdin

    text = source
    if source == STDIN:
        if not stdin:
            raise SaveStringError(
                "--load -: play reads your moves from standard input, so the game to resume"
                " must come from a file or a save string")
        text = read_stdin(SaveStringError)
    elif names_file(source) or looks_like_file(source) or "//" not in source and not source.lstrip().startswith("{"):
        from .._io import no_such_file, read_text

        path = Path(source)
        if not source.strip():
            raise SaveStringError(f"no game given: {source!r} is not a save string nor a file name")
        if not looks_like_file(source) and not path.exists():
            raise SaveStringError(f"{no_such_file(source)}, and it is not a save string (no '//')")
        # a missing file: the system's "x.json: No such file or directory", as every command
        # says it (this said "no such file: 'x.json'" until session 21)
        text = read_text(path, SaveStringError)
    return text


def no_moves_note(game, players: tuple[str, ...] | None) -> str:
    """Why an analysis has no moves, as ``analyse`` says it (text, and ``note`` in
    ``--json``): the game has none yet, or none by the player asked for (``--player
    second`` after first's one move said "the game has no moves yet" until session 24).

    Parameters
    ----------
    game : Position
        The game analysed (its ``history``: the cards taken, first's move first).
    players : tuple of {"first", "second"} or None
        ``--player`` (None: both).

    Returns
    -------
    str
        ``no moves to analyse: ...``.
    """
    moves = len(game.history or ())
    if moves == 0 or players is None:
        return "no moves to analyse: the game has no moves yet"
    names = dict(zip(("first", "second"), game.rules.names))
    label = {p: n if n == p else f"{n} ({p})" for p, n in names.items()}
    asked = players[0]
    other = "second" if asked == "first" else "first"
    return (f"no moves to analyse: {label[asked]} has made no move yet (the game has {moves}"
            f" {'move, by' if moves == 1 else 'moves, all by'} {label[other]})")


def cmd_analyse(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from .review import AnalysisInterrupted, analyse_game, analysis_summary, format_analysis, partial_analysis_note

    check_names(args.names)
    game = _read_game(args.game, reach=args.reach)
    if args.names:
        game = replace(game, rules=replace(game.rules, names=tuple(args.names)))
    players = None if args.player is None else (args.player,)
    bar = None
    if not args.json and sys.stderr.isatty():
        from tqdm import tqdm

        bar = tqdm(desc="analysing", unit="move", leave=False, file=sys.stderr)

    def progress(done: int, total: int) -> None:
        if bar is not None:
            bar.total = total
            bar.update(done - bar.n)

    time_limit = None if args.time == 0 else args.time   # --time 0: no time limit (give --node-limit)
    stopped = None   # Ctrl-C: (moves analysed, moves to analyse); the analysis so far is printed, marked partial
    try:
        frame = analyse_game(game, players=players, time_limit=time_limit, node_limit=args.node_limit,
                             progress=progress)
    except AnalysisInterrupted as stop:   # until session 21 the moves already analysed were lost
        frame, stopped = stop.frame, (len(stop.frame), stop.total)
    except SolverOptionError:
        if time_limit is None and args.node_limit is None:   # the only option error the CLI lets through
            from .review import UNLIMITED_MAX_CARDS

            raise UsageError(f"--time 0 (or inf) means no time limit, which is accepted only for positions with up to"
                             f" {UNLIMITED_MAX_CARDS} cards left (an exact solve of a larger one could run for"
                             " hours): give --node-limit N too, or a --time") from None
        raise
    finally:
        if bar is not None:
            bar.close()
    first, second = game.scores()
    if args.json:
        from .position import cell_coords

        names = dict(zip(("first", "second"), game.rules.names))
        rows = []
        for row in frame.to_dict(orient="records"):
            row["move"] = list(row["move"])
            row["best_move"] = None if row["best_move"] is None else list(row["best_move"])
            row["best_moves"] = [list(c) for c in row["best_moves"]]   # every move tied for best
            for key in ("value", "best_value", "loss"):   # NaN (not valued) is not JSON: null
                if row[key] != row[key]:
                    row[key] = None
                # the exact value as a fraction string such as "7/3" where proven, else null
                exact = row.pop(f"{key}_fraction")
                row[f"{key}_fraction"] = None if exact is None else str(exact)
            row["name"] = names[row["player"]]   # the mover's display name (--names), as the text shows it
            rows.append(row)
        summary = analysis_summary(frame)
        for player, totals in summary.items():
            totals["name"] = names[player]
        data = {
            # the display names (--names, or the JSON position's; "first"/"second" without):
            # the text showed them, the JSON did not until session 24
            "names": names,
            "position": game.to_dict(),
            "scores": {"first": first, "second": second},
            "finished": game.is_terminal(),
            "time_limit": args.time,
            "node_limit": args.node_limit,
            "values": "game value, expected final margin for the mover, in points"
                      " (*_fraction: the exact value where proven, as a fraction string)",
            "moves": rows,
            # the text's summary lines (points lost, best moves, moves valued exactly),
            # missing from --json until the session-18 probe
            "summary": summary,
        }
        if stopped is not None:   # Ctrl-C: the moves analysed before it, out of how many
            data["partial"] = {"analysed": stopped[0], "of": stopped[1]}
        elif len(frame) == 0:   # why moves is empty, as the text says it (session 24)
            data["note"] = no_moves_note(game, players)
        if game.marker is not None:
            data["marker"] = list(cell_coords(game.marker))
        print_json(data)
        if stopped is not None:
            raise KeyboardInterrupt   # crowns_solver.cli prints "crowns: interrupted", status 130
        return 0
    names = game.rules.names
    print_grid(game)
    print()
    for player, name, score in (("first", names[0], first), ("second", names[1], second)):
        label = name if name == player else f"{name} ({player})"
        cards = " ".join(game.hand(player)) or "(no cards)"
        print(f"{label}: {cards}  score {score}")
    if game.is_terminal():
        margin = first - second
        result = "draw" if margin == 0 else f"{names[0] if margin > 0 else names[1]} wins by {abs(margin)}"
        print(f"result: {result} ({names[0]} {first}, {names[1]} {second})")
    else:
        print(f"game not finished: {game.cards_left} cards left")
    if len(frame) == 0 and stopped is None:
        print()
        print(no_moves_note(game, players))
        return 0
    limit = []
    if args.time:
        limit.append(f"up to {args.time:g} s")
    if args.node_limit is not None:
        limit.append(f"{args.node_limit:,} nodes")
    print()
    print("move-by-move analysis: game values (face-down cards unknown), expected final margin"
          f" for the mover in points; ~ marks estimates (search {' and '.join(limit)} per move)")
    if len(frame):
        print("\n".join(format_analysis(frame, names)))
    if stopped is not None:
        print(partial_analysis_note(*stopped))
        raise KeyboardInterrupt   # crowns_solver.cli prints "crowns: interrupted", status 130
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from .play import PlaySession

    if args.time == 0 and args.node_limit is None:
        raise UsageError("--time 0 (or inf) means no time limit: give --node-limit N for the computer's searches,"
                         " the hints and the analysis")
    check_names(args.names)   # before the game is read: the same refusal as analyse, show, solve
    load, seed = None, args.seed
    if args.load is not None:
        from .cli import check_reach
        from .play import stored_seed
        from .position import Position

        text = _game_text(args.load, stdin=False)
        load = Position.from_text(text, args.reach)
        check_reach(load, args.reach, "game")
        if seed is None:   # a file written by play's save FILE keeps the game's seed
            seed = stored_seed(text)
    time_limit = None if args.time == 0 else args.time
    session = PlaySession(seed=seed, opponent=args.opponent, time_limit=time_limit,
                          node_limit=args.node_limit, seat=args.seat, load=load,
                          load_source=args.load, reach=args.reach,
                          names=None if args.names is None else tuple(args.names))
    return session.run()


def register(commands: argparse._SubParsersAction) -> None:
    """Declare ``analyse`` (and ``play``) under ``crowns cross-kings``."""
    analyse = commands.add_parser(
        "analyse",
        aliases=["analyze"],
        help="move-by-move analysis of a game: each move's value, the best move's, the points lost",
        description=(
            "Replay a Cross Kings game (a crosskings.net save string, or a file holding one or a"
            " position saved as JSON by 'crowns cross-kings play') and judge every move by the"
            " game value (face-down cards unknown) of the position before it: the move's"
            " value, the best move's value and the points lost, from the mover's view."
            " Exact where the solver proves them within the time per move, otherwise the"
            " search's estimates, marked ~."
        ),
    )
    analyse.add_argument("game", metavar="SAVE_STRING",
                         help="a save string, or a file holding one or a position as JSON;"
                              " - reads that from standard input")
    analyse.add_argument("--time", type=_seconds_or_zero, default=ANALYSE_TIME, metavar="PER_MOVE",
                         help=f"seconds of search per move (default {ANALYSE_TIME:g}; 0 or inf: no time limit,"
                         " with --node-limit for output that repeats exactly)")
    analyse.add_argument("--node-limit", type=_node_limit, default=None, metavar="N",
                         help="also stop each move's search after N nodes (reproducible)")
    analyse.add_argument("--player", choices=PLAYERS, default=None,
                         help="analyse only this player's moves (default both)")
    analyse.add_argument("--reach", choices=REACHES, default=None,
                         help="rules option reach of the game (default: any, or the JSON file's; a save"
                              " string cannot say it)")
    add_names_arg(analyse)
    add_json_flag(analyse)
    analyse.set_defaults(handler=cmd_analyse)

    play = commands.add_parser(
        "play",
        help="play against the computer in the terminal, with hints, undo, save and analysis",
        description=(
            "Play Cross Kings against a computer player, one line per command (so a script"
            " can drive it on stdin).  At the prompt type a cell (2,3 or 2 3 or 23: row then"
            " column, 0..5) or the card of a face-up cell (7S), or: hint (every move's value"
            " for you), undo, save [FILE], board, help, quit.  The game ends with a"
            " move-by-move analysis of your moves."
        ),
    )
    play.add_argument("--seed", type=whole_number(0), default=None, metavar="S",
                      help="seed of the deal (with --load: of where the unseen cards lie) and of the computer's"
                           " choices (default: a fresh one, printed; with --load, a file saved by play keeps its own)")
    play.add_argument("--opponent", default="search", metavar="NAME", choices=PLAYER_NAMES,
                      help=f"computer player: {', '.join(PLAYER_NAMES)} (clairvoyant cheats); default search")
    play.add_argument("--time", type=_seconds_or_zero, default=PLAY_TIME, metavar="PER_MOVE",
                      help=f"seconds of search per computer move, hint and analysed move"
                           f" (default {PLAY_TIME:g}; 0 or inf: none, then give --node-limit)")
    play.add_argument("--node-limit", type=_node_limit, default=None, metavar="N",
                      help="also limit each search to N nodes (reproducible games)")
    play.add_argument("--seat", choices=SEATS, default=None,
                      help="your seat: first moves first, second chooses the start cell"
                           " (default first, or the player to move in a loaded game)")
    play.add_argument("--load", default=None, metavar="SAVE_STRING",
                      help="resume a game: a save string, or a file holding one or a position as JSON"
                           " (not -: play reads its commands from standard input)")
    play.add_argument("--reach", choices=REACHES, default=None,
                      help="rules option reach (default any; with --load: any, or the JSON file's): 'nearest'"
                           " lets only the nearest card in each direction be taken")
    add_names_arg(play)
    play.set_defaults(handler=cmd_play)
