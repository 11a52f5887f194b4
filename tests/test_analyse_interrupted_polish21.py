"""Ctrl-C during ``crowns cross-kings analyse`` keeps the moves already analysed
(session 21 polish, item 2): it printed only "crowns: interrupted" and lost them.  The
API raises :class:`AnalysisInterrupted` (a KeyboardInterrupt) holding the partial table;
the command prints it, marked partial, and exits with status 130."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

from crowns_solver.cross_kings import review
from crowns_solver.cross_kings.review import AnalysisInterrupted, analyse_game, analyse_steps, replay

# 9 cards left, second to move (tests/data/cross_kings_labels.jsonl, first line)
SAVE = ("??7S6H2H8H??/5H6C3SAHKH7C/3C8C??KC5D4C/4HAD??7D2D5S/7H4DKD6D6S8S/5C3D4SKS2S2C"
        "//ASAC8D3H//301273969908864214574189716")
NODES = 2000


def _interrupt_after(monkeypatch, n):
    """Make review.move_values raise KeyboardInterrupt at its call n + 1 (as Ctrl-C does)."""
    real = review.move_values
    calls = []

    def move_values(*args, **kwargs):
        calls.append(1)
        if len(calls) > n:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(review, "move_values", move_values)


def test_the_api_keeps_the_moves_analysed_before_ctrl_c(monkeypatch):
    whole = analyse_game(SAVE, time_limit=None, node_limit=NODES)
    assert len(whole) > 3
    _interrupt_after(monkeypatch, 3)
    with pytest.raises(KeyboardInterrupt) as info:   # still a KeyboardInterrupt for callers
        analyse_game(SAVE, time_limit=None, node_limit=NODES)
    stop = info.value
    assert isinstance(stop, AnalysisInterrupted)
    assert stop.total == len(whole) and len(stop.frame) == 3
    assert list(stop.frame.columns) == list(whole.columns)
    # the same rows as the whole analysis's first three (node limits are deterministic)
    assert stop.frame[["ply", "player", "move", "value", "best_value", "loss"]].equals(
        whole[["ply", "player", "move", "value", "best_value", "loss"]].iloc[:3])


def test_an_interrupt_before_the_first_move_keeps_an_empty_table():
    steps = replay(SAVE)

    def evaluate(pos):
        raise KeyboardInterrupt

    with pytest.raises(AnalysisInterrupted) as info:
        analyse_steps(steps, evaluate)
    assert len(info.value.frame) == 0 and info.value.total == len(steps)
    assert list(info.value.frame.columns) == list(review.ANALYSIS_COLUMNS)


def test_the_command_prints_the_partial_analysis_and_exits_130(capsys, monkeypatch):
    code, full, _ = run_cli(capsys, "cross-kings", "analyse", SAVE, "--time", "0", "--node-limit", str(NODES))
    assert code == 0
    total = len(analyse_game(SAVE, time_limit=None, node_limit=NODES))
    _interrupt_after(monkeypatch, 2)
    code, out, err = run_cli(capsys, "cross-kings", "analyse", SAVE, "--time", "0", "--node-limit", str(NODES))
    assert code == 130
    assert err == "crowns: interrupted\n"
    lines = out.splitlines()
    assert lines[-1] == (f"PARTIAL ANALYSIS: interrupted (Ctrl-C) after 2 of {total} moves;"
                         " the moves after those were not analysed")
    # everything up to the table's third move row is the full analysis's
    head = full.splitlines()
    table = head.index(next(ln for ln in head if ln.startswith("move-by-move analysis")))
    assert lines[:table + 4] == head[:table + 4]


def test_the_json_says_partial(capsys, monkeypatch):
    _interrupt_after(monkeypatch, 1)
    code, out, err = run_cli(capsys, "cross-kings", "analyse", SAVE, "--time", "0", "--node-limit", str(NODES),
                             "--json")
    assert code == 130 and err == "crowns: interrupted\n"
    data = json.loads(out)
    assert len(data["moves"]) == 1 and data["partial"]["analysed"] == 1 and data["partial"]["of"] > 1
