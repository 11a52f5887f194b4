"""Ties in the move-by-move analysis (session 21): where several moves are worth the best
value, the analysis (``analyse_game``, ``crowns cross-kings analyse``, the end of ``play``)
names them all, as ``solve`` marks every tied move "best"; it named one, and not the move
played when that move was one of them (a row read "best move (0,1)" beside a move (5,1)
that lost nothing)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from ck_oracle import solve_plain
from conftest import run_cli

from crowns_solver.cross_kings import Position, cell_index
from crowns_solver.cross_kings.review import analyse_game, format_analysis, replay


def random_tail(seed: int) -> tuple[Position, list]:
    """A deal started at (2,2), played at random to 9 cards left, and its random moves on
    to the end (seeds 4 and 15 hold exact ties, found by the search below)."""
    pos = Position.random(seed=seed).play((2, 2))
    rng = np.random.default_rng(seed)
    while pos.cards_left > 9 and not pos.is_terminal():
        moves = pos.legal_moves()
        pos = pos.play(moves[int(rng.integers(len(moves)))])
    start, p, played = pos, pos, []
    while not p.is_terminal():
        moves = p.legal_moves()
        m = moves[int(rng.integers(len(moves)))]
        played.append(m)
        p = p.play(m)
    return start, played


@pytest.mark.parametrize("seed", [2, 4, 15, 36, 38])
def test_best_moves_are_every_move_worth_the_oracles_best_value(seed):
    start, moves = random_tail(seed)
    frame = analyse_game(start, moves, time_limit=None)
    steps = replay(start, moves)
    assert len(frame) == len(steps) and frame.exact.all()
    for row, step in zip(frame.itertuples(), steps):
        _, values, _ = solve_plain(step.position, "game", "margin")
        top = max(values.values())
        assert {cell_index(c) for c in row.best_moves} == {c for c, v in values.items() if v == top}
        assert row.best_move in row.best_moves and values[cell_index(row.best_move)] == top
        # the move played stands for the tied moves when it is one of them
        assert (row.best_move == row.move) == (values[cell_index(row.move)] == top)


def test_the_seeds_hold_ties_with_and_without_the_move_played():
    kinds = set()
    for seed in (4, 15):
        start, moves = random_tail(seed)
        frame = analyse_game(start, moves, time_limit=None)
        for row in frame.itertuples():
            if len(row.best_moves) > 1:
                kinds.add(row.move in row.best_moves)
    assert kinds == {True, False}


def test_the_text_lists_every_tied_move_the_move_played_first():
    start, moves = random_tail(4)
    frame = analyse_game(start, moves, time_limit=None)
    lines = format_analysis(frame)
    header = lines[0]
    width = max(9, *(len(" ".join(f"({r},{c})" for r, c in b)) for b in frame.best_moves))
    assert width == 11   # two tied cells
    column = header.index("best move")
    assert header[column + width:].startswith("   best    lost")
    for row, line in zip(frame.itertuples(), lines[1:]):
        cells = [row.best_move] + [c for c in row.best_moves if c != row.best_move]
        shown = " ".join(f"({r},{c})" for r, c in cells)
        assert line[column:column + width].rstrip() == shown
        # the columns stay aligned: every row's best value ends in the same place
        assert line[column + width + 7].isdigit() and line[column + width + 1] == " "
        if len(cells) > 1 and row.move in row.best_moves:
            assert shown.startswith(f"({row.move[0]},{row.move[1]})") and line.endswith("  best")


def test_analyse_json_gives_best_moves(capsys):
    # seed 15's tail as a JSON position with its moves: analyse reads a position that
    # records its history, so play the tail from a recorded game
    start, moves = random_tail(15)
    game = start
    for m in moves:
        game = game.play(m)
    code, out, err = run_cli(capsys, "cross-kings", "analyse", json.dumps(game.to_dict()), "--time", "0",
                             "--node-limit", "50000", "--json")
    assert code == 0, err
    rows = json.loads(out)["moves"]
    frame = analyse_game(start, moves, time_limit=None)
    tail = rows[-len(frame):]
    assert [r["best_moves"] for r in tail] == [[list(c) for c in b] for b in frame.best_moves]
    assert any(len(r["best_moves"]) > 1 for r in tail)
    assert all(r["best_move"] in r["best_moves"] for r in rows if r["best_move"] is not None)
