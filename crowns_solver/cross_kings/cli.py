"""``crowns cross-kings ...`` subcommands."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from pathlib import Path

from ..cli import add_json_flag, print_json
from .._checks import clean_name, name_key, name_problem
from .._io import read_text
from .._text import number
from ..errors import PositionError
from .position import REACHES
from .solver import EVALUATIONS, MODES, OBJECTIVES

POSITION_HELP = (
    "a crosskings.net save string, or a file holding one, a deal (six lines of six cards,"
    " ?? for face-down cards) or a position as JSON; - reads that from standard input"
)
#: The file name that means standard input.
STDIN = "-"


def read_stdin(error: type) -> str:
    """Standard input as UTF-8 text (a position, a save string), for a file named ``-``.

    Raises `error` (a CrownsError subclass) if it is not UTF-8 text, is larger than
    :data:`crowns_solver._io.MAX_TEXT_BYTES`, or is empty.
    """
    import sys

    from .._io import MAX_TEXT_BYTES, decode_utf8

    stream = getattr(sys.stdin, "buffer", None)
    if stream is not None:
        data = stream.read(MAX_TEXT_BYTES + 1)
        if len(data) > MAX_TEXT_BYTES:
            raise error(f"standard input: more than {MAX_TEXT_BYTES:,} bytes is too large for a position")
        text = decode_utf8(data, "standard input: not UTF-8 text", error)
    else:   # a text stream without bytes underneath (e.g. io.StringIO)
        text = sys.stdin.read(MAX_TEXT_BYTES + 1)
        if len(text) > MAX_TEXT_BYTES:
            raise error(f"standard input: more than {MAX_TEXT_BYTES:,} characters is too large for a position")
    if not text.strip():
        raise error("standard input is empty: expected a save string, a deal or a position as JSON")
    return text


def names_file(source: str) -> bool:
    """Whether `source` (a command-line POSITION) is the name of an existing regular file.

    Checked before the ``//`` that marks a save string, so that a path such as
    ``games//g1.json`` is read as the file it names (it was read as a malformed save
    string).  A name the system refuses (e.g. too long) is no file.
    """
    try:
        return source != STDIN and Path(source).is_file()
    except (OSError, ValueError):
        return False


def looks_like_file(source: str) -> bool:
    """Whether `source` ends like a file name (``.json``, ``.txt``, ``.deal``): a save
    string never holds a dot, so ``games//g1.json`` that does not exist is said to be a
    missing file rather than a malformed save string."""
    return source != STDIN and "\n" not in source and Path(source).suffix.lower() in (".json", ".txt", ".deal")


def _exists(path: Path) -> bool:
    """Whether `path` names anything (a name the system refuses, e.g. too long, does not)."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def add_position_args(parser: argparse.ArgumentParser, *, optional: bool = True) -> None:
    """Add the position source: POSITION (save string or file) or ``--random SEED``."""
    parser.add_argument("position", nargs="?" if optional else None, metavar="POSITION", help=POSITION_HELP)
    parser.add_argument("--random", type=whole_number(0), metavar="SEED", help="use a random deal from this seed")
    parser.add_argument("--reach", choices=REACHES, default=None,
                        help="rules option reach (default: any, or the JSON file's; a JSON position's"
                        " own reach must agree)")
    add_names_arg(parser)


def player_name(text: str) -> str:
    """An argparse ``type`` for ``--names``: a display name, not empty, without control
    or format characters (newline, escape, a bidirectional override...: printed raw, they
    broke lines or drove the terminal; probe finding 17), at most 40 characters, returned
    with runs of white space collapsed. The same rule as the score keeper's names
    (:func:`crowns_solver._checks.name_problem`)."""
    problem = name_problem(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return clean_name(text)


def add_names_arg(parser: argparse.ArgumentParser) -> None:
    """Add ``--names FIRST SECOND``: display names of the two players."""
    parser.add_argument("--names", nargs=2, type=player_name, metavar=("FIRST", "SECOND"),
                        help="display names of the two players")


def check_names(names: list[str] | None) -> None:
    """Refuse ``--names`` that label both players alike (case, spaces and Unicode forms
    aside, :func:`crowns_solver._checks.name_key`): every
    command taking ``--names`` asks here (``analyse`` took 'Ann ann' until session 19)."""
    if names and name_key(names[0]) == name_key(names[1]):   # (cleaned by player_name)
        raise PositionError(f"--names: the two players need different names, got {names[0]!r} and {names[1]!r}"
                            " (case and spaces aside)")


def check_reach(pos, reach: str | None, what: str = "position") -> None:
    """Refuse a ``--reach`` that contradicts the reach a JSON position states (a save
    string or a deal carries none, and is read under ``--reach``).  One rule for ``show``,
    ``solve``, ``analyse`` and ``play --load``: before session 20, ``show`` and ``solve``
    silently replaced the JSON's reach with ``--reach``, while the other two refused it.

    Parameters
    ----------
    pos : Position
        The position read (with `reach` as the rules of a text that carries none).
    reach : {"any", "nearest"} or None
        ``--reach`` as given (None: not given).
    what : str
        What the command reads ("position", "game"), for the message.

    Raises
    ------
    PositionError
        If `reach` is given and `pos` is played under another reach (its JSON says so);
        the message names both.
    """
    if reach is not None and pos.reach != reach:
        raise PositionError(f"--reach {reach}: the {what} given is played under reach {pos.reach!r}"
                            " (its JSON says so)")


def load_position(args: argparse.Namespace):  # -> Position
    """The position named by POSITION / ``--random`` (see :func:`add_position_args`):
    a save string or a deal is read under ``--reach`` (default "any"), a JSON position
    keeps its own reach (default "any"), which a ``--reach`` given must match
    (:func:`check_reach`)."""
    from dataclasses import replace

    from .position import Position, Rules

    check_names(args.names)
    rules = Rules(reach=args.reach or "any", names=tuple(args.names) if args.names else ("first", "second"))
    if args.random is not None:
        if args.position:
            raise PositionError("give either POSITION or --random, not both")
        return Position.random(args.random, rules)
    if not args.position:
        raise PositionError("no position given: pass a save string, a file, or --random SEED")
    source = args.position
    path = Path(source)
    if source == STDIN:
        text = read_stdin(PositionError)
    elif names_file(source) or looks_like_file(source) or "//" not in source and _exists(path):
        text = read_text(path, PositionError)
    elif "//" not in source and "\n" not in source and not source.lstrip().startswith("{"):
        # one line, no file by that name and no save string (a deal has six lines, JSON
        # starts with '{'): "deal1" said "not a position: expected a save string ..."
        # until session 23, as if the name were meant as a position
        if not source.strip():
            raise PositionError("no position given: POSITION is blank; pass a save string, a file, or --random SEED")
        shown = source if len(source) <= 200 else source[:197] + "..."   # a path in full, pasted text cut
        raise PositionError(f"no such file or save string: {shown!r}")
    else:
        text = source
    pos = Position.from_text(text, args.reach)
    check_reach(pos, args.reach)
    # --names wins over a JSON position's own names (display only); without it they are kept
    return replace(pos, rules=replace(rules, reach=pos.reach, names=rules.names if args.names else pos.rules.names))


def print_grid(pos) -> None:
    """Print ``pos.render()`` and, under it, the legend of its lower-case cards if it
    shows any (:func:`grid_legend`): ``show``, ``solve`` and ``analyse`` (``play`` shows
    the players' view, where a face-down card is always ``??``)."""
    print(pos.render())
    legend = grid_legend(pos)
    if legend:
        print(legend)


def grid_legend(pos) -> str | None:
    """The one line explaining the lower-case cards of ``pos.render()`` (face-down cards
    whose identity the position knows, e.g. a random deal's: ``7s 2d``), or None if it
    shows none.  Until session 23 they were shown unexplained.

    Parameters
    ----------
    pos : Position
        The position rendered.

    Returns
    -------
    str or None
        ``lower case (7s): a face-down card known here, which the players see as ??
        until it is taken``, with the first such card of the grid as the example.
    """
    from .cards import DECK
    from .position import UNKNOWN

    known = [DECK[pos.cells[i]].lower() for i in sorted(pos.face_down)
             if i not in pos.taken and pos.cells[i] != UNKNOWN]
    if not known:
        return None
    return f"lower case ({known[0]}): a face-down card known here, which the players see as ?? until it is taken"


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
        d["names"] = dict(zip(("first", "second"), pos.rules.names))   # as the text shows them (session 24)
        try:
            d["save_string"] = pos.to_save_string()
        except PositionError:
            from .play import _mirror_to_save_start

            # a game that started off (2,2): the format needs (2,2), so the grid reflected
            # as play writes it (the same game; before session 19 no save string was given)
            if pos.start is not None:   # to_save_string says whether the moves and reach allow one
                try:
                    d["save_string"] = _mirror_to_save_start(pos).to_save_string()
                    d["save_string_reflected"] = True
                except PositionError:
                    pass
        print_json(d)
        return 0
    print_grid(pos)
    names = pos.rules.names
    print()
    for player, name in zip(("first", "second"), names):
        print("\n".join(_hand_lines(pos, player, name if name == player else f"{name} ({player})")))
    moves = pos.legal_moves()
    if moves:
        print(f"legal moves: {' '.join(f'({r},{c})' for r, c in moves)}")
    else:
        a, b = pos.scores()
        print(f"final margin (first - second): {number(a - b, '+d')}")   # a draw is 0, not +0 (session 22)
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
    show = commands.add_parser(
        "show", help="show a position: grid, marker, hands and scores",
        description=(
            "Show a Cross Kings position or deal: the grid (?? a face-down card nobody has"
            " seen, a lower-case card such as 7s a face-down card the position knows, . a"
            " taken cell, * or [..] the marker), both hands with their scores and how each"
            " King is placed, the legal moves (or the final margin) and the unseen cards."
            " --json gives the position as data, with its save string."
        ))
    add_position_args(show)
    add_json_flag(show)
    show.set_defaults(handler=cmd_show)

    score = commands.add_parser(
        "score", help="score a hand: groups, points, what each King stands for",
        description=(
            "Score a Cross Kings hand (RULES.md, Cross Kings, \"Scoring one hand\"): its runs and"
            " sets, each group's points (2n - 3 for n >= 3 cards, less 1 per King in it) and"
            " what each King stands for.  Cards may be given as separate arguments or in one,"
            " separated by spaces or commas."
        ))
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


#: Decimal places of values printed as text (the exact fraction is printed beside a
#: rounded exact value, and is in --json).
VALUE_DIGITS = 4


def _decimal(value, objective: str, rounding: str = "nearest") -> tuple[str, bool]:
    """`value` (a Fraction) as a decimal with at most VALUE_DIGITS places, signed under
    objective "margin" unless it reads zero (as ``_text.number``); and whether that decimal is the value exactly.  `rounding`:
    "nearest", or "down" / "up" (for proven lower / upper bounds: rounding never makes a
    bound claim more than is proven)."""
    scale = 10**VALUE_DIGITS
    scaled = value * scale
    exact = scaled.denominator == 1
    if rounding == "down":
        n = math.floor(scaled)
    elif rounding == "up":
        n = math.ceil(scaled)
    else:
        n = math.floor(scaled + value.__class__(1, 2))
    whole, frac = divmod(abs(n), scale)
    text = str(whole)
    if frac or not exact:   # a rounded value keeps all its places: 3.0000 is not 3
        digits = f"{frac:0{VALUE_DIGITS}d}"
        text += "." + (digits.rstrip("0") if exact else digits)
    if n < 0:
        text = "-" + text
    elif objective == "margin" and n > 0:   # a decimal that reads zero has no sign (session 22; it read -0.0000)
        text = "+" + text
    return text, exact


def _fmt_value(value, objective: str, *, exact: bool = True, rounding: str = "nearest") -> str:
    """A value as text: a decimal (e.g. ``-2.9738``); an exact value that the decimal
    rounds also shows its fraction (``-2.9738 (= -59951/20160)``).  None is ``?``."""
    if value is None:
        return "?"
    text, is_exact = _decimal(value, objective, rounding)
    if exact and not is_exact:
        text += f" (= {value})"
    return text


def _fmt_bounds(lower, upper, objective: str) -> str:
    return (f"{_fmt_value(lower, objective, exact=False, rounding='down')} .."
            f" {_fmt_value(upper, objective, exact=False, rounding='up')}")


def _bounds_rounded(sol) -> bool:
    """Whether the text of `sol` (a Solution) prints a proven bound that its decimal
    rounds: the root's when not exact, a move's when that move is not exact."""
    scale = 10**VALUE_DIGITS
    bounds = [] if sol.exact else [sol.lower, sol.upper]
    for m in sol.moves:
        if not m.exact:
            bounds += [m.lower, m.upper]
    return any(b is not None and (b * scale).denominator != 1 for b in bounds)


def _fmt_move_value(m, objective: str) -> str:
    if m.exact:
        return _fmt_value(m.value, objective)
    if m.value is not None:
        return f"~{_fmt_value(m.value, objective, exact=False)} (proven {_fmt_bounds(m.lower, m.upper, objective)})"
    return f"? (proven {_fmt_bounds(m.lower, m.upper, objective)})"


def cmd_solve(args: argparse.Namespace) -> int:
    from .cards import DECK
    from .position import cell_index
    from .solver import DEFAULT_TT_MB, _anytime, solve

    pos = load_position(args)
    time_limit = None if args.time_limit == 0 or math.isinf(args.time_limit) else args.time_limit
    sol = solve(   # solve checks --tt-mb and --workers; its messages name them as typed (crowns_solver.cli)
        pos,
        mode=args.mode,
        objective=args.objective,
        all_moves=args.all_moves,
        tt_mb=DEFAULT_TT_MB if args.tt_mb is None else args.tt_mb,
        time_limit=time_limit,
        node_limit=args.node_limit,
        workers=args.workers,
        evaluation=args.evaluation,
    )
    interrupted = sol.stopped == "interrupted"
    if args.json:
        data = sol.to_dict()
        # the display names, as the text shows them (--names, or the JSON position's; until
        # session 24 the JSON had none)
        data["names"] = dict(zip(("first", "second"), pos.rules.names))
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
    print_grid(pos)
    print()
    if pos.is_terminal():   # nothing to search: the hands are final
        first, second = pos.scores()
        what = "final margin" if obj == "margin" else "game points: win 1, draw 1/2, loss 0"
        print(f"the game is over: {names[0]} {first} points, {names[1]} {second} points;"
              f" value {_fmt_value(sol.value, obj)} ({what}) for {who}, whose turn it would be")
        return 0
    print(f"{question}, {unit}, for {who} to move:")
    if sol.exact:
        print(f"  value {_fmt_value(sol.value, obj)}  (exact)")
    else:
        why = {"time": f"time limit of {time_limit:g} s" if time_limit else "time limit",
               "nodes": "node limit", "interrupted": "interrupted (Ctrl-C)"}.get(sol.stopped or "", "stopped")
        print(f"  estimate {_fmt_value(sol.value, obj, exact=False)} (search depth {sol.depth or 0} plies,"
              f" {sol.evaluation} evaluation at the horizon)")
        print(f"  proven between {_fmt_value(sol.lower, obj, exact=False, rounding='down')} and"
              f" {_fmt_value(sol.upper, obj, exact=False, rounding='up')}; not exact: {why}")
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
    if _bounds_rounded(sol):   # "proven -63.1112 .. +67" did not say -63.1112 is -568/9 rounded (session 23)
        print(f"  (proven bounds are rounded outward to {VALUE_DIGITS} places, a lower bound down and an upper"
              " bound up, so that none claims more than is proven; --json gives them as exact fractions)")
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
        if not sol.pv_complete:
            label += f" (its first {len(steps)} {'move' if len(steps) == 1 else 'moves'} only)"
        print(f"{label}: {' '.join(steps)}")
    if sol.exact and not sol.pv_complete:
        why = "Ctrl-C" if interrupted else "the limit (and the extra allowed for listing it) ran out"
        print(f"principal variation {'not listed' if not sol.pv else 'cut short'}: {why} before"
              " it was listed to the end; a larger --time-limit or --node-limit lists it")
    rate = f" ({sol.nodes_per_second:,.0f} nodes/s)" if sol.seconds > 0 else ""
    b = sol.table_bytes
    size = f"{b / 2**20:g} MB" if b >= 2**20 else f"{b / 2**10:g} KB" if b >= 2**10 else f"{b:,} bytes"
    print(f"searched {sol.nodes:,} nodes in {sol.seconds:.2f} s{rate}; table {sol.table_used:,} of"
          f" {sol.table_entries:,} entries used ({size})")
    if interrupted:
        print("interrupted: the figures above are what was proven before Ctrl-C")
        if (not sol.exact and time_limit is None and args.node_limit is None
                and _anytime(pos, args.mode, True) and not _anytime(pos, args.mode, False)):
            # a limit would have deepened; without one (game mode) the search did not
            from .solver import PRE_DEPTH

            print(f"(with no time limit the search went straight to the exact solve after a {PRE_DEPTH}-ply"
                  " pass, whose estimate this is; a --time-limit of the seconds you can wait gives the"
                  " deepest estimate reached in them)")
        return 130
    return 0


def _positive_float(text: str) -> float:
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if math.isnan(x) or x < 0:
        raise argparse.ArgumentTypeError(f"must be a number >= 0: {text!r}")
    return x


def _number(text: str) -> int | float | str:
    """An argparse ``type`` for a number that the API checks (``--tt-mb``): the number as
    typed (a whole number stays an int, so that a refusal says ``got 70000``, not
    ``70000.0``), or the text itself if it is no number, for the API to refuse: so that
    -1, 0 and 'big' get one message, the API's, naming the option (crowns_solver.cli)."""
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _seconds(text: str) -> float:
    import math

    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not math.isfinite(x) or x <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds: {text!r}")
    return x


def whole_number(least: int) -> Callable[[str], int]:
    """An argparse ``type``: a whole number >= `least` (seeds, counts, limits)."""

    def parse(text: str) -> int:
        try:
            x = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if x < least:
            raise argparse.ArgumentTypeError(f"must be >= {least}: {text!r}")
        return x

    return parse


_positive_int = whole_number(1)


def _node_limit(text: str) -> int:
    from .solver import MAX_NODE_LIMIT

    x = _positive_int(text)
    if x > MAX_NODE_LIMIT:
        raise argparse.ArgumentTypeError(f"at most {MAX_NODE_LIMIT:,} nodes: {text!r}")
    return x


def register_solve(commands: argparse._SubParsersAction) -> None:
    from .solver import PRE_DEPTH

    solve = commands.add_parser(
        "solve",
        help="solve a position: its value, every move ranked, the principal variation",
        description=(
            "Solve a Cross Kings position or deal.  --mode open: the open value (all cards"
            " known); --mode game: the game value (face-down cards unknown until taken)."
            f" Positions too large to solve exactly within --time-limit (default"
            f" {SOLVE_TIME_LIMIT:g} s) get an anytime analysis: the best move found and"
            " proven bounds.  Ctrl-C stops the search and prints what is proven.  With no"
            " time limit (--time-limit 0 or inf, and no --node-limit), a large position's search in"
            f" game mode goes straight to the exact solve after a {PRE_DEPTH}-ply pass, so Ctrl-C then"
            f" leaves only that pass's estimate: for the deepest estimate in a given time,"
            " give that time as --time-limit.  (Open mode deepens to 12 cards before the end"
            " first, limit or not.)"
        ),
    )
    add_position_args(solve)
    solve.add_argument("--mode", choices=MODES, default="open",
                       help="open: all cards known (double-dummy); game: face-down cards unknown (default open)")
    solve.add_argument("--objective", choices=OBJECTIVES, default="margin",
                       help="margin: final margin; win: game points 1 / 1/2 / 0 (default margin)")
    solve.add_argument("--all-moves", action="store_true", help="exact value of every move (slower)")
    solve.add_argument("--time-limit", type=_positive_float, default=SOLVE_TIME_LIMIT, metavar="S",
                       help=f"stop after S seconds and report what is proven (default {SOLVE_TIME_LIMIT:g};"
                            f" 0 or inf: no limit, the exact solve only: in game mode Ctrl-C then gives just a"
                            f" {PRE_DEPTH}-ply estimate)")
    solve.add_argument("--node-limit", type=_node_limit, default=None, metavar="N",
                       help="stop after N search nodes")
    solve.add_argument("--tt-mb", type=_number, default=None, metavar="MB",
                       help="search memory in MB, 1 to 65536: transposition table plus leaf-score cache"
                            " (default 64), shared out over the workers")
    solve.add_argument("--workers", type=_positive_int, default=1, metavar="W",
                       help="worker processes that split the root's moves, in the exact search and in the"
                            " anytime analysis of a position too large to solve in the time given (default 1;"
                            " exact values are the same for any W; positions under 16 cards use one; no more"
                            " start than there are root moves, e.g. 4 at a fresh deal; more than the machine's"
                            " cores only share them)")
    solve.add_argument("--evaluation", choices=tuple(EVALUATIONS), default="fitted",
                       help="horizon evaluation of the anytime analysis (positions too large to solve"
                            " exactly in time): fitted to self-play (default) or the earlier potential count")
    add_json_flag(solve)
    solve.set_defaults(handler=cmd_solve)
