"""The ``crowns`` command: one subcommand group per game, plus ``crowns report``.

Each game's subcommands are declared by a ``register(subparsers)`` function in that game's
``cli`` module (imported lazily, so ``crowns --help`` stays fast).  Any
:class:`~crowns_solver.errors.CrownsError` (bad card, bad position, bad file...) or
unreadable file becomes one line on stderr and exit status 2; Ctrl-C exits with 130.
"""

from __future__ import annotations

import argparse
import importlib
import json
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
    """ArgumentParser whose errors are one line (``prog: error: ...``) and exit status 2."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\n")


def add_json_flag(parser: argparse.ArgumentParser) -> None:
    """Add ``--json``: print the result as JSON data instead of text."""
    parser.add_argument("--json", action="store_true", help="print the result as JSON")


def print_json(data: Any) -> None:
    """Print `data` as indented JSON on stdout."""
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


def build_parser() -> argparse.ArgumentParser:
    """The full ``crowns`` argument parser."""
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
    """Run the ``crowns`` command; returns the exit status."""
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
    except CrownsError as exc:
        print(f"crowns: error: {exc}", file=sys.stderr)
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
