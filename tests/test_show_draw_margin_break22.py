"""``crowns cross-kings show`` of a finished game says its final margin as every other
text of the project says a signed number (``_text.number``, session 22): a draw is
``0``, not ``+0`` (session 22 break: show still printed ``final margin (first -
second): +0``); a win keeps its sign."""

from __future__ import annotations

import json
import random

from conftest import run_cli as run

from crowns_solver.cross_kings import Position


def finished(seed: int) -> Position:
    pos = Position.random(seed=seed).play((2, 2))
    rng = random.Random(seed)
    while pos.legal_moves():
        pos = pos.play(rng.choice(pos.legal_moves()))
    return pos


def show_margin(capsys, tmp_path, pos: Position) -> str:
    path = tmp_path / "end.json"
    path.write_text(json.dumps(pos.to_dict()))
    code, out, err = run(capsys, "cross-kings", "show", str(path))
    assert code == 0 and not err
    return [ln for ln in out.splitlines() if ln.startswith("final margin")][0]


def test_a_drawn_game_has_margin_0(capsys, tmp_path):
    pos = finished(3)   # random play from seed 3 ends 18 to 18
    assert pos.scores() == (18, 18)
    assert show_margin(capsys, tmp_path, pos) == "final margin (first - second): 0"


def test_a_won_game_keeps_its_sign(capsys, tmp_path):
    pos = finished(1)
    a, b = pos.scores()
    assert a != b
    assert show_margin(capsys, tmp_path, pos) == f"final margin (first - second): {a - b:+d}"
