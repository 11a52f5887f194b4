"""``crowns cross-kings``: a position file named ``-`` is read from standard input."""

from __future__ import annotations

import io
import json
import sys

import pytest
from conftest import load_json, run_cli

from crowns_solver.cli import build_parser

LABEL_SAVE = (
    "??7S6H2H8H??/5H6C3SAHKH7C/3C8C??KC5D4C/4HAD??7D2D5S/7H4DKD6D6S8S/5C3D4SKS2S2C"
    "//ASAC8D3H//301273969908864214574189716"
)


def feed(monkeypatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


@pytest.mark.parametrize("command", [["show"], ["solve", "--node-limit", "20000"]])
def test_position_from_standard_input_equals_the_file(capsys, monkeypatch, tmp_path, command):
    case = load_json("cross_kings_endgames.json")["cases"][3]
    text = json.dumps(case["position"])
    path = tmp_path / "endgame.json"
    path.write_text(text)
    code, from_file, _ = run_cli(capsys, "cross-kings", *command[:1], str(path), *command[1:], "--json")
    assert code == 0
    feed(monkeypatch, text.encode())
    code, from_stdin, err = run_cli(capsys, "cross-kings", *command[:1], "-", *command[1:], "--json")
    assert code == 0 and not err
    a, b = json.loads(from_file), json.loads(from_stdin)
    for d in (a, b):
        d.pop("seconds", None)
        d.pop("stats", None)
    assert a == b


def test_save_string_from_standard_input(capsys, monkeypatch):
    feed(monkeypatch, (LABEL_SAVE + "\n").encode())
    code, out, _ = run_cli(capsys, "cross-kings", "solve", "-", "--mode", "game", "--objective", "win")
    assert code == 0 and "(4,3) 6D  1  best" in out


def test_analyse_reads_the_game_from_standard_input(capsys, monkeypatch):
    code, from_arg, _ = run_cli(capsys, "cross-kings", "analyse", LABEL_SAVE, "--time", "0",
                                "--node-limit", "3000", "--json")
    assert code == 0
    feed(monkeypatch, LABEL_SAVE.encode())
    code, from_stdin, err = run_cli(capsys, "cross-kings", "analyse", "-", "--time", "0",
                                    "--node-limit", "3000", "--json")
    assert code == 0 and not err
    assert json.loads(from_stdin) == json.loads(from_arg)


@pytest.mark.parametrize(
    "argv, data, message",
    [
        (["solve", "-"], b"", "standard input is empty"),
        (["show", "-"], b"  \n", "standard input is empty"),
        (["show", "-"], b"\xff\xfe7S", "standard input: not UTF-8 text (byte 0xff at offset 0)"),
        (["analyse", "-"], b"\x80", "standard input: not UTF-8 text (byte 0x80 at offset 0)"),
        (["show", "-"], b'{"grid": 1}', "position is missing the key"),
        (["play", "--load", "-"], LABEL_SAVE.encode(), "play reads your moves from standard input"),
    ],
)
def test_bad_standard_input_is_one_line(capsys, monkeypatch, argv, data, message):
    feed(monkeypatch, data)
    code, out, err = run_cli(capsys, "cross-kings", *argv)
    assert code == 2 and err.count("\n") == 1 and message in err


@pytest.mark.parametrize("command", ["show", "solve", "analyse"])
def test_help_says_dash_is_standard_input(command):
    parser = build_parser()
    group = parser._subparsers._group_actions[0].choices["cross-kings"]
    sub = group._subparsers._group_actions[0].choices[command]
    assert "- reads that from standard input" in " ".join(sub.format_help().split())
