"""The ``crowns`` command: output, --json, one-line errors with exit status 2."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import run_cli as run

from crowns_solver import __version__
from crowns_solver.cli import main

SAVE = (
    "??7S6H2H8H??/5H6C3SAHKH7C/3C8C??KC5D4C/4HAD??7D2D5S/7H4DKD6D6S8S/5C3D4SKS2S2C"
    "//ASAC8D3H//301273969908864214574189716"
)


def test_version(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert __version__ in capsys.readouterr().out


def test_show_save_string(capsys):
    code, out, err = run(capsys, "cross-kings", "show", SAVE)
    assert code == 0 and not err
    assert "cards left 9, face down 4" in out
    assert "legal moves: (2,2) (2,4) (2,5) (4,3)" in out
    assert "unseen cards: AS 3H 8D AC" in out


def test_show_json(capsys, tmp_path):
    code, out, _ = run(capsys, "cross-kings", "show", SAVE, "--json")
    data = json.loads(out)
    assert data["save_string"] == SAVE
    assert data["legal_moves"] == [[2, 2], [2, 4], [2, 5], [4, 3]]
    assert data["first"]["score"] + 0 == data["first"]["score"]
    # the JSON output is itself a position the command reads back
    path = tmp_path / "pos.json"
    path.write_text(out)
    code, out2, _ = run(capsys, "cross-kings", "show", str(path), "--json")
    assert code == 0 and json.loads(out2)["grid"] == data["grid"]


def test_show_random_deal_file_and_names(capsys, tmp_path):
    from crowns_solver.cross_kings import Deal

    path = tmp_path / "deal.txt"
    path.write_text(Deal.random(5).to_text())
    code, out, _ = run(capsys, "cross-kings", "show", str(path), "--names", "Ann", "Bob")
    assert code == 0 and "Bob (second) to choose the start cell" in out
    code, out2, _ = run(capsys, "cross-kings", "show", "--random", "5", "--names", "Ann", "Bob")
    assert out2 == out


def test_score(capsys):
    code, out, _ = run(capsys, "cross-kings", "score", "4S", "4H", "4D", "KS", "KH")
    assert code == 0
    assert out.splitlines()[0] == "4S 4H 4D KS KH: score 4"
    assert "KH unplaced" in out
    code, out, _ = run(capsys, "cross-kings", "score", "AH", "2H", "KS", "--json")
    assert json.loads(out)["score"] == 2 and json.loads(out)["kings"] == {"KS": "3H"}


@pytest.mark.parametrize(
    "argv, message",
    [
        (["cross-kings", "score", "4S", "9Z"], "not a Cross Kings card: '9Z'"),
        (["cross-kings", "score", "4S", "4S"], "duplicate card 4S"),
        (["cross-kings", "show", "abc//def"], "three parts"),
        (["cross-kings", "show", SAVE[:-1] + "x"], "not a move digit"),
        (["cross-kings", "show", "missing-file.json"], "missing-file.json"),
        (["cross-kings", "show"], "no position given"),
        (["cross-kings", "show", SAVE, "--random", "3"], "not both"),
    ],
)
def test_user_errors_are_one_line_and_status_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_usage_errors_are_one_line(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["cross-kings", "nonsense"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "invalid choice" in err


def test_python_dash_m_runs_the_command():
    proc = subprocess.run(
        [sys.executable, "-m", "crowns_solver", "cross-kings", "score", "3H", "4H", "5H"],
        capture_output=True,
        text=True,
        cwd="/",
    )
    assert proc.returncode == 0 and "score 3" in proc.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "crowns_solver", "cross-kings", "score", "QQ"],
        capture_output=True, text=True, cwd="/",
    )
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1


def test_ctrl_c_while_the_commands_load_is_one_line_and_status_130(capsys, monkeypatch, tmp_path):
    # Ctrl-C in the first fraction of a second lands while build_parser imports the groups'
    # modules (numpy, pandas...): it printed a traceback of the imports
    (tmp_path / "crowns_probe_slow_group.py").write_text("raise KeyboardInterrupt\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr("crowns_solver.cli.GROUPS",
                        (("slow", "crowns_probe_slow_group", "a group whose import is interrupted"),))
    assert main(["cross-kings", "score", "3H", "4H", "5H"]) == 130
    captured = capsys.readouterr()
    assert captured.err == "crowns: interrupted\n" and not captured.out
