"""The examples of README.md and docs/*.md run, and their ``crowns`` command lines parse.

**Python blocks.** Every fenced ``python`` block is one of:

- a doctest (it holds ``>>>`` lines): run with :mod:`doctest`, the output compared with
  the page (whitespace normalised, ``...`` matches anything);
- marked ``<!-- example: run -->`` on the line before the fence: a script, run as written;
- marked ``<!-- example: slow -->``: runnable as written but too long for the tests (a
  doctest may be marked so too);
- marked ``<!-- example: sketch -->``: a signature or a fragment, not meant to run.

A python block that is none of these fails :func:`test_every_python_block_is_classified`,
so a new example has to say whether it runs.  Each block runs in its own temporary folder
(the examples write files such as ``game.json``).

**Command lines.** Every ``$ crowns ...`` line of a transcript (``# comments`` and
``| tail``-style pipes dropped) must parse with the CLI's own parser, without running.
Transcripts of commands that need no file and answer at once (the Five Crowns advisor
commands, Cross Kings hand scoring, exact Cross Kings solves of a save string, and the
refusals shown as one ``crowns: error:`` line) are also run in-process and must print
what the page shows, line for line (a solve's seconds and nodes per second aside).

Runs too long to check here (a full ``crowns report``, time-limited solves, matches and
simulations of thousands of games) were checked by hand when the pages were walked
through (session 20); ``tests/test_docs_cross_kings_tour.py`` reruns the exact and
node-limited solves of docs/cross_kings_solver.md.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import signal
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import run_cli

from crowns_solver.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))] if (ROOT / "docs").is_dir() else []
KINDS = ("run", "slow", "sketch")

_BLOCK = re.compile(r"(?:^<!-- example: (\w+) -->\n)?^```python\n(.*?)^```", re.M | re.S)
_FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.M | re.S)


def python_blocks() -> list[tuple[str, str | None, str]]:
    """(id, marker or None, code) of every fenced python block of the pages."""
    blocks = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for m in _BLOCK.finditer(text):
            blocks.append((f"{page.name}:{text[:m.start(2)].count(chr(10)) + 1}", m.group(1), m.group(2)))
    return blocks


def command_lines() -> list[tuple[str, str, list[str]]]:
    """(id, command line, output lines shown) of every ``$ crowns ...`` transcript line."""
    found = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        blocks = [(m.start(1), m.group(1)) for m in _FENCE.finditer(text)]
        # indented transcripts (four spaces, outside fences) count too
        blocks += [(m.start(), re.sub(r"(?m)^    ", "", m.group()))
                   for m in re.finditer(r"(?m)(?:^    \$ crowns .*\n(?:^    (?!\$).*\n)*)+", text)]
        for start, block in blocks:
            lines = block.splitlines()
            for i, line in enumerate(lines):
                if not line.startswith("$ crowns "):
                    continue
                j = i + 1
                while j < len(lines) and not lines[j].startswith("$ "):
                    j += 1
                shown = lines[i + 1:j]
                while shown and not shown[-1].strip():
                    shown.pop()
                lineno = text[:start].count("\n") + i + 1
                found.append((f"{page.name}:{lineno}", line[2:], shown))
    return found


def argv_of(command: str) -> tuple[list[str], bool]:
    """The arguments after ``crowns`` and whether a pipe followed the command."""
    words = shlex.split(command, comments=True)
    piped = "|" in words
    if piped:
        words = words[:words.index("|")]
    assert words[0] == "crowns"
    return words[1:], piped


BLOCKS = python_blocks()
COMMANDS = command_lines()


@pytest.fixture
def in_tmp(tmp_path):
    here = os.getcwd()
    os.chdir(tmp_path)
    try:
        yield tmp_path
    finally:
        os.chdir(here)


@pytest.fixture
def deadline():
    """Fail, rather than hang, an example that no longer returns at once."""
    def expired(signum, frame):
        raise TimeoutError("example still running after 60 s")
    old = signal.signal(signal.SIGALRM, expired)
    signal.alarm(60)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def test_pages_hold_examples():
    if not PAGES:
        pytest.skip("README.md and docs/ not beside the tests (installed elsewhere)")
    assert len([b for b in BLOCKS if ">>>" in b[2]]) >= 6
    assert len(COMMANDS) >= 90


@pytest.mark.parametrize("block", BLOCKS, ids=[b[0] for b in BLOCKS])
def test_every_python_block_is_classified(block):
    where, kind, code = block
    assert kind is None or kind in KINDS, f"{where}: unknown example kind {kind!r} (one of {KINDS})"
    assert kind is not None or ">>>" in code, (
        f"{where}: a python block without >>> needs <!-- example: run|slow|sketch --> on the line before it")


@pytest.mark.parametrize("block", [b for b in BLOCKS if ">>>" in b[2] and b[1] != "slow"],
                         ids=[b[0] for b in BLOCKS if ">>>" in b[2] and b[1] != "slow"])
def test_doctest_examples_print_what_the_page_shows(block, in_tmp, deadline):
    where, _, code = block
    test = doctest.DocTestParser().get_doctest(code, {"Fraction": Fraction}, where, where, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0, f"{where}: {runner.failures} example(s) print something else"


@pytest.mark.parametrize("block", [b for b in BLOCKS if b[1] == "run"], ids=[b[0] for b in BLOCKS if b[1] == "run"])
def test_runnable_examples_run(block, in_tmp, deadline):
    where, _, code = block
    exec(compile(code, where, "exec"), {"__name__": "docs_example"})


@pytest.mark.parametrize("command", COMMANDS, ids=[c[0] for c in COMMANDS])
def test_command_lines_parse(command):
    where, line, _ = command
    argv, _ = argv_of(line)
    try:
        build_parser().parse_args(argv)
    except SystemExit as exc:   # argparse's usage error
        pytest.fail(f"{where}: `{line}` does not parse (status {exc.code})")


def _quick(command: tuple[str, str, list[str]]) -> bool:
    """A transcript that needs no file, answers at once and is shown whole."""
    _, line, shown = command
    argv, piped = argv_of(line)
    if piped or not shown or any(s.strip() == "..." for s in shown) or any("<" in a for a in argv):
        return False
    if argv[:2] in (["five-crowns", "deadwood"], ["five-crowns", "discard"], ["five-crowns", "take"],
                    ["cross-kings", "score"]):
        return True
    if (argv[:2] == ["cross-kings", "solve"] and any(s.endswith("(exact)") for s in shown)
            and "--workers" not in argv and not any(a.endswith(".json") for a in argv)):
        return True   # an exact solve of a save string, in one process
    # a refusal before anything runs: one error line, no file named
    return (len(shown) == 1 and shown[0].startswith("crowns: error: ")
            and not any(re.search(r"\.(json|jsonl|toml|csv|md)$", a) or "/" in a for a in argv))


QUICK = [c for c in COMMANDS if _quick(c)]
#: the speed figures of a solve's last line, which depend on the machine
SPEED = re.compile(r" in [0-9.]+ s \([0-9,]+ nodes/s\)")


def test_quick_transcripts_are_found():
    if not PAGES:
        pytest.skip("README.md and docs/ not beside the tests (installed elsewhere)")
    assert len(QUICK) >= 25


@pytest.mark.parametrize("command", QUICK, ids=[c[0] for c in QUICK])
def test_quick_transcripts_print_what_the_page_shows(command, capsys, in_tmp, deadline):
    where, line, shown = command
    argv, _ = argv_of(line)
    code, out, err = run_cli(capsys, *argv)
    got = [SPEED.sub("", ln.rstrip()) for ln in (out + err).splitlines()]
    while got and not got[-1]:
        got.pop()
    assert got == [SPEED.sub("", ln.rstrip()) for ln in shown], f"{where}: `{line}` prints something else"
    assert code == (2 if shown[-1].startswith("crowns: error: ") else 0)


def test_the_extraction_reads_markers_pipes_and_comments():
    text = ("<!-- example: sketch -->\n```python\nf(a, *, b)\n```\n\n```python\n>>> 1 + 1\n2\n```\n")
    blocks = [(m.group(1), m.group(2)) for m in _BLOCK.finditer(text)]
    assert blocks == [("sketch", "f(a, *, b)\n"), (None, ">>> 1 + 1\n2\n")]
    assert argv_of("crowns report --list | grep five_crowns") == (["report", "--list"], True)
    assert argv_of("crowns a --b 1      # Ctrl-C after 3 s") == (["a", "--b", "1"], False)
    with pytest.raises(SystemExit):
        build_parser().parse_args(["five-crowns", "deadwood", "--no-such-option", "3H"])
