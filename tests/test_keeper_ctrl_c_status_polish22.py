"""Ctrl-C ends every interactive command with status 130 after its clean-up (session 22):
``crowns five-crowns keeper`` saved, said how to resume and exited 0, while
``crowns cross-kings play`` exits 130; a script could not tell an interrupted session
from a finished one.  End of input (Ctrl-D) and ``q`` still exit 0."""

from __future__ import annotations

import pytest

from crowns_solver.cli import main
from crowns_solver.five_crowns.keeper import ScoreKeeper

from conftest import type_lines as typed


def test_ctrl_c_in_the_keeper_saves_says_how_to_resume_and_exits_130(tmp_path, monkeypatch, capsys):
    path = tmp_path / "game.json"
    typed(monkeypatch, ["13", "0"], KeyboardInterrupt)
    assert main(["five-crowns", "keeper", "--save", str(path), "--players", "Ann", "Bob"]) == 130
    out, err = capsys.readouterr()
    assert out.rstrip().splitlines()[-1] == f"Saved to {path}. Continue with: crowns five-crowns keeper --resume {path}"
    assert err == "crowns: interrupted\n"
    assert [e.points for e in ScoreKeeper.load(path).entries] == [13, 0]


def test_ctrl_c_in_a_resumed_keeper_exits_130_and_keeps_the_entries(tmp_path, monkeypatch, capsys):
    path = tmp_path / "game.json"
    typed(monkeypatch, ["17"], EOFError)
    assert main(["five-crowns", "keeper", "--save", str(path), "--players", "Ann", "Bob"]) == 0
    typed(monkeypatch, ["14"], KeyboardInterrupt)
    assert main(["five-crowns", "keeper", "--resume", str(path)]) == 130
    assert capsys.readouterr().err.endswith("crowns: interrupted\n")
    assert [e.points for e in ScoreKeeper.load(path).entries] == [17, 14]


def test_ctrl_c_before_the_game_starts_exits_130_and_saves_nothing(tmp_path, monkeypatch, capsys):
    path = tmp_path / "new.json"
    typed(monkeypatch, ["Ann"], KeyboardInterrupt)   # while the names are asked
    assert main(["five-crowns", "keeper", "--save", str(path)]) == 130
    out, err = capsys.readouterr()
    assert out.rstrip().splitlines()[-1] == "Interrupted before the game started; nothing was saved."
    assert err == "crowns: interrupted\n" and not path.exists()


@pytest.mark.parametrize("lines", [["15", "q"], ["15"]])   # q, or end of input (Ctrl-D)
def test_q_and_end_of_input_still_exit_0(tmp_path, monkeypatch, capsys, lines):
    path = tmp_path / "game.json"
    typed(monkeypatch, lines, EOFError)
    assert main(["five-crowns", "keeper", "--save", str(path), "--players", "Ann", "Bob"]) == 0
    assert capsys.readouterr().err == ""
    assert [e.points for e in ScoreKeeper.load(path).entries] == [15]


def test_the_api_raises_a_keyboard_interrupt_holding_the_saved_keeper(tmp_path):
    from crowns_solver.five_crowns.keeper import KeeperInterrupted, interactive

    def read(prompt):
        raise KeyboardInterrupt

    said: list[str] = []
    with pytest.raises(KeeperInterrupted) as stop:
        interactive(read=read, write=said.append, save=tmp_path / "g.json", names=["Ann", "Bob"])
    assert isinstance(stop.value, KeyboardInterrupt)
    assert stop.value.keeper.names == ("Ann", "Bob") and not stop.value.keeper.entries
    assert ScoreKeeper.load(tmp_path / "g.json").names == ("Ann", "Bob")


def test_end_of_input_before_the_game_starts_says_so_and_exits_0(tmp_path, monkeypatch, capsys):
    path = tmp_path / "new.json"
    typed(monkeypatch, ["Ann"], EOFError)   # Ctrl-D while the names are asked: not an interrupt
    assert main(["five-crowns", "keeper", "--save", str(path)]) == 0
    assert capsys.readouterr().out.rstrip().splitlines()[-1] == "Input ended before the game started; nothing was saved."
    assert not path.exists()
