"""README.md and docs/*.md name options and library paths that exist.

- every ``--option`` written after ``crowns GROUP [COMMAND]`` (in a transcript line or a
  code span) is an option of that command (a line naming no command is not checked);
- every dotted library path in a code span (``crowns_solver.montecarlo.run``, or the
  short ``cross_kings.solve`` / ``montecarlo.read_results`` the docs use) resolves to a
  module and its attributes.
"""

from __future__ import annotations

import argparse
import importlib
import re
from pathlib import Path

import pytest

from crowns_solver.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: Short module names the docs write without ``crowns_solver.``.
SHORT = ("cross_kings", "five_crowns", "kings_crowns", "montecarlo", "report", "analysis")
#: Last components that make a dotted word a file name, not a library path.
FILE_SUFFIXES = {"md", "py", "pyx", "pyi", "json", "jsonl", "toml", "png", "txt", "csv", "log"}

_SPAN = re.compile(r"(?<!`)`([^`\n]+)`(?!`)")
_PATH = re.compile(r"(?<![\w./-])((?:crowns_solver|" + "|".join(SHORT) + r")(?:\.\w+)+)")
_COMMAND = re.compile(r"(?:^\$ |`|^)crowns((?: [a-z][a-z-]*){0,2})([^`]*)")


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _options(parser: argparse.ArgumentParser) -> set[str]:
    return {o for action in parser._actions for o in action.option_strings}


def unknown_options(text: str, parser: argparse.ArgumentParser) -> list[tuple[str, str]]:
    """(command, option) for each ``--option`` the command after ``crowns`` does not take."""
    bad = []
    for line in text.splitlines():
        for m in _COMMAND.finditer(line):
            words = m.group(1).split()
            p, path = parser, []
            for w in words:
                sub = _subcommands(p)
                if w not in sub:
                    break
                p = sub[w]
                path.append(w)
            if not path:   # "the ``crowns`` command", "crowns: error: ...": not a command line
                continue
            rest = " ".join(words[len(path):]) + " " + m.group(2)
            for option in re.findall(r"(?<![\w-])(--[a-z][a-z0-9-]*)", rest):
                if option not in _options(p):
                    bad.append((" ".join(["crowns", *path]), option))
    return bad


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    if parts[0] != "crowns_solver":
        parts = ["crowns_solver", *parts]
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attr in parts[i:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


def unknown_paths(text: str) -> list[str]:
    """Dotted library paths in the code spans of `text` that do not resolve."""
    text = re.sub(r"```.*?```", "", text, flags=re.S)   # transcripts: their own tests
    bad = []
    for span in _SPAN.findall(text):
        for m in _PATH.finditer(span):
            if m.group(1).rsplit(".", 1)[1] in FILE_SUFFIXES:
                continue
            if not _resolves(m.group(1)):
                bad.append(m.group(1))
    return bad


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_docs_name_existing_command_options(doc):
    assert unknown_options(doc.read_text(encoding="utf-8"), build_parser()) == []


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: p.name)
def test_docs_name_existing_library_paths(doc):
    assert unknown_paths(doc.read_text(encoding="utf-8")) == []


def test_the_checks_catch_a_wrong_option_and_a_wrong_path():
    text = ("Run `crowns cross-kings solve --tt-mb 8 --no-such-option` or\n"
            "$ crowns report --quick --only x --nope\n"
            "then call `montecarlo.read_results` and `cross_kings.solve_everything(pos)`;\n"
            "see `reports/index.md` and `crowns_solver.report.run_studies`.\n")
    assert unknown_options(text, build_parser()) == [("crowns cross-kings solve", "--no-such-option"),
                                                      ("crowns report", "--nope")]
    assert unknown_paths(text) == ["cross_kings.solve_everything"]
