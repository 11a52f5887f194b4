"""Shared test helpers: where the case files live, loading them."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

DATA = Path(__file__).parent / "data"

# CI and plain `pytest` run the same examples every time (derandomized), so a run that
# passed keeps passing; `pytest --hypothesis-profile=explore` searches afresh, with more
# examples, for new failures.
settings.register_profile(
    "default",
    max_examples=100,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "explore", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("default")


def load_json(name: str):
    """A case file from tests/data (copied from ../shared/cases)."""
    return json.loads((DATA / name).read_text())


def load_jsonl(name: str) -> list:
    return [json.loads(line) for line in (DATA / name).read_text().splitlines() if line.strip()]


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    """Run the ``crowns`` command in-process: (exit status, stdout, stderr)."""
    from crowns_solver.cli import main

    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def cli_fails(capsys, *argv: str) -> str:
    """Run ``crowns ARGV`` in-process: it must fail with status 2, print nothing on stdout
    and one line on stderr (argparse's usage errors included), which is returned stripped."""
    try:
        code, out, err = run_cli(capsys, *argv)
    except SystemExit as exc:   # argparse's usage errors
        code = exc.code
        out, err = capsys.readouterr()
    assert code == 2 and not out, (code, out, err)
    assert len(err.splitlines()) == 1, err
    return err.strip()


def run_play(capsys, monkeypatch, script: str, *argv: str) -> tuple[int, str, str]:
    """``crowns cross-kings play ARGV`` in-process with `script` as the typed commands
    (standard input): (exit status, stdout, stderr)."""
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    return run_cli(capsys, "cross-kings", "play", *argv)


def keeper_session(lines, **kw) -> str:
    """Run the Five Crowns score keeper's conversation (``keeper.interactive``) on the typed
    `lines` (input ends after them, as Ctrl-D); its messages joined by newlines."""
    from crowns_solver.five_crowns.keeper import interactive

    said: list[str] = []
    feed = list(lines)

    def read(prompt):
        if not feed:
            raise EOFError
        return feed.pop(0)

    interactive(read=read, write=said.append, **kw)
    return "\n".join(said)


def type_lines(monkeypatch, lines, end: type[BaseException] = EOFError) -> None:
    """Make ``input()`` return `lines`, then raise `end` (EOFError: a user who typed them
    and pressed Ctrl-D; KeyboardInterrupt: Ctrl-C): for commands that read the terminal,
    such as the score keeper."""
    feed = iter(lines)

    def fake_input(prompt=""):
        try:
            return next(feed)
        except StopIteration:
            raise end from None

    monkeypatch.setattr("builtins.input", fake_input)


@pytest.fixture(scope="session")
def ck_labels() -> list:
    return load_jsonl("cross_kings_labels.jsonl")


@pytest.fixture(scope="session")
def ck_endgames() -> list:
    return load_json("cross_kings_endgames.json")["cases"]


def sigint_default() -> None:
    """`preexec_fn` for a child that a test interrupts with SIGINT: a shell that starts a
    job in the background (e.g. `nohup .ci/run &`) makes SIGINT ignored, children inherit
    that, and Python then installs no KeyboardInterrupt handler; restore the default."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
