"""``crowns cross-kings play --names FIRST SECOND`` (session 21): the display names of
RULES.md, Cross Kings ("Display names are configurable"), as ``show``, ``solve`` and
``analyse`` take them: by seat, the same checks and the same one-line refusals."""

from __future__ import annotations

import io
import sys

import pytest
from conftest import run_cli
from conftest import run_play as play

from crowns_solver.cross_kings import Position
from crowns_solver.cross_kings.play import PlaySession
from crowns_solver.errors import RulesError

# tests/data/cross_kings_labels.jsonl, first line: 9 cards left, second to move
LABEL_SAVE = (
    "??7S6H2H8H??/5H6C3SAHKH7C/3C8C??KC5D4C/4HAD??7D2D5S/7H4DKD6D6S8S/5C3D4SKS2S2C"
    "//ASAC8D3H//301273969908864214574189716"
)
LIMITS = ["--time", "0", "--node-limit", "20000"]


def test_names_label_the_seats_on_the_board_hands_moves_and_resume_line(capsys, monkeypatch):
    # the loaded game gives the person the seat to move: second, so Bob is "you"
    code, out, err = play(capsys, monkeypatch, "2,5\nquit\n", "--load", LABEL_SAVE, "--seed", "4",
                          "--opponent", "greedy", "--names", "Ann", " Bob  Lee ", *LIMITS)
    assert code == 0 and not err
    assert out.startswith("Cross Kings: Bob Lee (second, you) against Ann (first, the computer: greedy);")
    assert "cards left 9, face down 4, reach any; Bob Lee (second) to move" in out
    assert "Bob Lee (second): 7S 2H 4H 4S 2S 6S KD 3C KH 5S 6C 3D AH  score 15" in out
    assert "Ann (first): 8C 6H 7D 5C 2C 8H 8S 7H 5H 7C AD 4D KS KC  score 17" in out
    assert "you take (2,5): 4C" in out
    assert "Ann (first) takes (" in out
    assert "computer" not in out.replace("the computer: greedy", "")
    # the names come back with the game: no save format keeps them
    resume = next(line for line in out.splitlines() if "resume with:" in line)
    assert resume.endswith(" --opponent greedy " + " ".join(LIMITS) + " --names Ann 'Bob Lee'")


def test_without_names_the_seats_stay_you_and_computer(capsys, monkeypatch):
    code, out, _ = play(capsys, monkeypatch, "quit\n", "--load", LABEL_SAVE, "--seed", "4",
                        "--opponent", "greedy", *LIMITS)
    assert code == 0
    assert out.startswith("Cross Kings: you (second) against the computer (first, greedy);")
    assert "you (second): 7S 2H" in out and "--names" not in out


def test_a_whole_game_with_names_ends_with_their_result_and_analysis():
    out = io.StringIO()
    session = PlaySession(seed=4, opponent="greedy", time_limit=None, node_limit=20_000, load=LABEL_SAVE,
                          names=("Ann", "Bob"), stdout=out)

    class Keys:   # always the first legal move: the game ends
        def readline(self):
            r, c = session.position.legal_moves()[0]
            return f"{r},{c}\n"

    session.stdin = Keys()
    assert session.run() == 0
    text = out.getvalue()
    a, b = session.position.scores()
    mine, theirs = b, a   # Bob (second) is the person
    verdict = ("Bob (you) wins by" if mine > theirs else "Ann (the computer) wins by" if mine < theirs
               else "a draw")
    assert f"game over: {verdict}" in text
    table = text[text.index(" ply  player"):].splitlines()[1:]
    rows = [line for line in table if line[:4].strip().isdigit()]
    assert len(rows) == len(session.frame) == sum(p.to_move == "second" for p in session.states[:-1]) and all(line.split()[1] == "Bob" for line in rows)
    assert any(line.startswith("Bob: ") and "points lost" in line for line in text.splitlines())


@pytest.mark.parametrize("names, message", [
    (["Ann", "ann"], "crowns: error: --names: the two players need different names, got 'Ann' and 'ann'"
                     " (case and spaces aside)"),
    (["Ann\x1b", "Bob"], "argument --names: the name 'Ann\\x1b' holds the control character U+001B"),
])
def test_bad_names_are_refused_as_analyse_refuses_them(capsys, monkeypatch, names, message):
    got = []
    for command in (["play", "--seed", "1"], ["analyse", LABEL_SAVE]):
        monkeypatch.setattr(sys, "stdin", io.StringIO(""))
        with pytest.raises(SystemExit) if "\x1b" in names[0] else _nothing():
            code, out, err = run_cli(capsys, "cross-kings", *command, "--names", *names)
            assert code == 2 and out == ""
            got.append(err)
        if "\x1b" in names[0]:
            err = capsys.readouterr().err
            got.append(err.split(": error: ", 1)[1])
        assert message.split("error: ")[-1] in err and len(err.strip().splitlines()) == 1
    assert got[0] == got[1]   # the same words from both commands


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_the_api_checks_and_cleans_names_before_dealing():
    with pytest.raises(RulesError, match="the two players need different names"):
        PlaySession(seed=1, opponent="random", node_limit=100, names=("Ann", "ANN "))
    with pytest.raises(RulesError, match="names must be two non-empty strings"):
        PlaySession(seed=1, opponent="random", node_limit=100, names=("Ann",))
    s = PlaySession(seed=1, opponent="random", node_limit=100, names=(" Ann  Lee", "HAL"), stdout=io.StringIO())
    assert s.names == ("Ann Lee", "HAL") and s.position.rules.names == ("Ann Lee", "HAL")
    # the names are display only: the same seed deals the same game as without them
    plain = PlaySession(seed=1, opponent="random", node_limit=100, stdout=io.StringIO())
    assert s.position.cells == plain.position.cells and isinstance(s.position, Position)
