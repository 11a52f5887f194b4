"""The ``crowns`` command: one subcommand group per game, plus ``crowns report``.

Each game's subcommands are declared by a ``register(subparsers)`` function in that game's
``cli`` module (imported lazily, so ``crowns --help`` stays fast).  Any
:class:`~crowns_solver.errors.CrownsError` (bad card, bad position, bad file...) or
unreadable file becomes one line on stderr and exit status 2; Ctrl-C exits with 130.  An
error about an API argument's value (``CrownsError.arguments``) names the option that set
it, as typed (``tt_mb`` -> ``--tt-mb``): the commands leave such checks to the API.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import sys
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from .errors import CrownsError

#: (subcommand group, module defining ``register(subparsers)``, help line)
GROUPS: tuple[tuple[str, str, str], ...] = (
    ("cross-kings", "crowns_solver.cross_kings.cli", "solve, score and analyse Cross Kings positions; play against the computer; matches"),
    ("five-crowns", "crowns_solver.five_crowns.cli",
     "deadwood, best melds, discard advice; play, simulate and keep score of games"),
    ("kings-crowns", "crowns_solver.kings_crowns.cli", "simulate King's Crowns games between computer players"),
)

#: (command, module defining ``register_command(parser)``, help line): top-level commands
#: with no subcommands.
COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("report", "crowns_solver.report", "run the strategy studies and write reports with charts (or report a results file)"),
)


class UsageError(CrownsError):
    """A command-line usage error (bad option or argument)."""


class OneLineParser(argparse.ArgumentParser):
    """ArgumentParser whose errors are one line (``prog: error: ...``) and exit status 2.

    An option taking a list (``--seen CARD ...``) takes every argument after it up to the
    next option, so given before a command's own arguments it swallows them:
    ``five-crowns discard --round 1 --seen 5H 6H 3S 4S 7D 8C`` left no hand and said
    only ``the following arguments are required: CARD``.  Such an error now says what
    happened and how to fix it (session 22).
    """

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        """:meth:`argparse.ArgumentParser.parse_known_args`, keeping the arguments for the
        hint of :meth:`error`.

        Parameters
        ----------
        args : list of str, optional
            The arguments (default ``sys.argv[1:]``).
        namespace : argparse.Namespace, optional
            Where to store the values.

        Returns
        -------
        (argparse.Namespace, list of str)
            The values and the arguments not recognised.
        """
        self._argv = list(sys.argv[1:] if args is None else args)   # for error()'s hint
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        """Print ``crowns: error: message`` on one line and exit with status 2; a missing
        argument that a list option took says so (see the class).

        The prefix is the program's name only, as :func:`main` prints every other error:
        until session 23 a usage error said ``crowns cross-kings solve: error:`` (the
        subcommand's ``prog``) and an error of the same command's handler ``crowns:
        error:``, so ``--workers 0`` and ``--tt-mb 0`` of one command differed.

        Parameters
        ----------
        message : str
            argparse's message.

        Raises
        ------
        SystemExit
            Always, with status 2.
        """
        if message.startswith("the following arguments are required:"):
            message += self._swallowed_hint()
        elif message.startswith("unrecognized arguments: "):
            message += self._spelling_hint(message.removeprefix("unrecognized arguments: ").split())
        self.exit(2, f"{self.prog.split()[0]}: error: {message}\n")   # "crowns", not "crowns cross-kings solve"

    def _spelling_hint(self, unknown: list[str]) -> str:
        """For arguments argparse did not recognise, the hint of the command they were given
        to when one is the other game's spelling (``five-crowns simulate --policy``,
        ``kings-crowns simulate 20``): the command's parser holds them as
        ``spelling_hints`` (option -> hint, ``"<number>"`` for a bare number), session 23.
        Empty when there is none."""
        parser: argparse.ArgumentParser = self
        argv = list(getattr(self, "_argv", []))
        i = 0
        while True:   # down the subcommands typed (crowns -> five-crowns -> simulate)
            sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
            if sub is None:
                break
            j = next((k for k in range(i, len(argv)) if argv[k] in sub.choices), None)
            if j is None:
                return ""
            parser, i = sub.choices[argv[j]], j + 1
        hints: dict[str, str] = getattr(parser, "spelling_hints", {})
        said = []
        for token in unknown:
            hint = hints.get("<number>" if token.isdecimal() else token.split("=", 1)[0])
            if hint is not None and hint not in said:
                said.append(hint)
        return f" ({'; '.join(said)})" if said else ""

    def _swallowed_hint(self) -> str:
        """Where a list option took the arguments a missing positional argument needed:
        `` (--seen took the arguments after it: 5H 6H 3S; put --seen after the hand)``,
        naming the last list option that took any; else empty."""
        missing = [a for a in self._actions if not a.option_strings and a.nargs not in ("?", "*")
                   and a.dest != argparse.SUPPRESS and a.default is None]
        if not missing:
            return ""
        argv = list(getattr(self, "_argv", []))
        last = None
        i = 0
        while i < len(argv) and argv[i] != "--":
            action = self._option_action(argv[i])
            if action is not None and action.nargs in ("+", "*") and "=" not in argv[i]:
                j = i + 1
                while j < len(argv) and argv[j] != "--" and self._option_action(argv[j]) is None:
                    j += 1
                if j > i + 1:
                    last = (action, argv[i + 1:j])
                i = j
            else:
                i += 1
        if last is None:
            return ""
        action, taken = last
        option = max(action.option_strings, key=len)
        what = {"CARD": "the hand"}.get(str(missing[0].metavar), missing[0].metavar or missing[0].dest)
        # not "end its list with --": after -- argparse reads every argument as positional,
        # so an option after the list (--seed 1) was refused
        return f" ({option} took the arguments after it: {' '.join(taken)}; put {option} after {what})"

    def _option_action(self, token: str) -> argparse.Action | None:
        """The option `token` names (``--seen``, ``--seen=5H``, or an abbreviation argparse
        accepts, ``--se``), or None if it is no option."""
        if not token.startswith("-") or token == "-":
            return None
        name = token.split("=", 1)[0]
        if name in self._option_string_actions:
            return self._option_string_actions[name]
        if name.startswith("--"):
            found = {a for o, a in self._option_string_actions.items() if o.startswith(name)}
            if len(found) == 1:
                return found.pop()
        return None


def add_json_flag(parser: argparse.ArgumentParser) -> None:
    """Add ``--json``: print the result as JSON data instead of text.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        A command's parser; it gets a ``--json`` flag (``args.json``).
    """
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


def print_json(data: Any) -> None:
    """Print `data` as indented JSON on stdout.

    Parameters
    ----------
    data : object
        JSON data; fractions are written as strings (``"7/3"``), NumPy numbers as
        numbers, sets and tuples as lists.

    Raises
    ------
    TypeError
        If `data` holds another kind of object.
    """
    json.dump(data, sys.stdout, indent=2, default=_json_default)
    sys.stdout.write("\n")


def _json_default(obj: Any) -> Any:
    from fractions import Fraction

    import numpy as np

    if isinstance(obj, Fraction):
        return str(obj)
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, (set, frozenset, tuple)):
        return list(obj)
    raise TypeError(f"cannot write {type(obj).__name__} as JSON")


def option_names(parser: argparse.ArgumentParser, args: argparse.Namespace) -> dict[str, str]:
    """The options of the command that `args` ran, by the argument name they set
    (``{"tt_mb": "--tt-mb", ...}``: each option's ``dest``, spelled as its first long
    option string).  Positional arguments have no option to name and are left out.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The ``crowns`` parser (:func:`build_parser`).
    args : argparse.Namespace
        What it parsed: the subcommands chosen select the command.

    Returns
    -------
    dict of str to str
        Argument name (``dest``) -> option as typed (``"--tt-mb"``).
    """
    while True:  # down the subcommands chosen (crowns -> cross-kings -> solve)
        sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
        if sub is None or getattr(args, sub.dest, None) not in sub.choices:
            break
        parser = sub.choices[getattr(args, sub.dest)]
    names: dict[str, str] = {}
    for action in parser._actions:
        if action.option_strings and action.dest != argparse.SUPPRESS:
            long = [o for o in action.option_strings if o.startswith("--")] or action.option_strings
            names.setdefault(action.dest, long[0])
    return names


def name_options(exc: CrownsError, options: dict[str, str]) -> str:
    """`exc`'s message with each argument at fault (:attr:`CrownsError.arguments`) named
    as the command-line option that set it: ``tt_mb`` -> ``--tt-mb``, ``tt_mb=0.5`` ->
    ``--tt-mb 0.5``.  Only whole names are rewritten (not ``max_tt_mb``, nor a name inside
    quotes such as a value ``'tt_mb'``); a quoted value after it is given as typed on the
    command line (``mode='game'`` -> ``--mode game``); an argument no option sets keeps its name.

    Parameters
    ----------
    exc : CrownsError
        The error.
    options : dict of str to str
        Argument name -> option (:func:`option_names`).

    Returns
    -------
    str
        The message to print.
    """
    message = str(exc)
    for argument in exc.arguments:
        option = options.get(argument)
        if option is not None:
            message = re.sub(rf"(?<![\w.'\"-]){re.escape(argument)}(?![\w'\"-])(=(?:'([^'\s]+)'|\"([^\"\s]+)\")?)?",
                             lambda m, o=option: o + (" " + (m.group(2) or m.group(3) or "") if m.group(1) else ""),
                             message)
    return message


def build_parser() -> argparse.ArgumentParser:
    """The full ``crowns`` argument parser.

    Returns
    -------
    argparse.ArgumentParser
        A :class:`OneLineParser` with every group and command of :data:`GROUPS` and
        :data:`COMMANDS` (their modules imported).
    """
    from . import __version__

    parser = OneLineParser(
        prog="crowns",
        description="Solvers and Monte Carlo studies for Cross Kings, Five Crowns and King's Crowns.",
    )
    parser.add_argument("--version", action="version", version=f"crowns {__version__}")
    sub = parser.add_subparsers(dest="group", metavar="GROUP", parser_class=OneLineParser)
    sub.required = True
    for name, module, help_line in GROUPS:
        group = sub.add_parser(name, help=help_line, description=help_line)
        commands = group.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
        commands.required = True
        importlib.import_module(module).register(commands)
    for name, module, help_line in COMMANDS:
        command = sub.add_parser(name, help=help_line, description=help_line)
        importlib.import_module(module).register_command(command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``crowns`` command; returns the exit status.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments after ``crowns`` (default: ``sys.argv[1:]``).

    Returns
    -------
    int
        0 on success (or a closed output pipe), 2 after a one-line error on stderr
        (a CrownsError, an unreadable file, input that is not UTF-8), 130 on Ctrl-C.

    Raises
    ------
    SystemExit
        From the argument parser: status 2 after a one-line usage error, 0 after
        ``--help`` or ``--version``.
    """
    try:
        parser = build_parser()
        args = parser.parse_args(argv)
    except ImportError as exc:  # e.g. compiled modules missing: say so in one line
        print(f"crowns: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl-C while the commands' modules load (numpy, pandas...)
        print("crowns: interrupted", file=sys.stderr)
        return 130
    handler: Callable[[argparse.Namespace], int | None] = args.handler
    try:
        return handler(args) or 0
    except CrownsError as exc:  # named as the user typed it: the API's tt_mb is --tt-mb here
        print(f"crowns: error: {name_options(exc, option_names(parser, args))}", file=sys.stderr)
        return 2
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            return 0
        name = f"{exc.filename}: " if getattr(exc, "filename", None) else ""
        print(f"crowns: error: {name}{exc.strerror or exc}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as exc:  # a file that is not text, read by a path not guarded by _io
        print(f"crowns: error: input is not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start})",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("crowns: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
