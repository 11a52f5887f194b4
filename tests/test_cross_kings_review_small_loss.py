"""A loss too small for two decimals in the move-by-move analysis (session 21): two
estimates a thousandth of a point apart showed "~0.00" lost without "best", so a move
short of the best looked tied with it.  Such a loss now reads "<0.01"; only a move that
lost nothing reads "0" and is marked best."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from crowns_solver.cross_kings.players import MoveEstimate
from crowns_solver.cross_kings.review import analyse_game, analyse_steps, analysis_summary, format_analysis, replay

SAVE = json.loads((Path(__file__).parent / "data" / "cross_kings_labels.jsonl").read_text().splitlines()[0])["save"]


def lost_column(line: str) -> str:
    words = line.split()
    return words[-2] if words[-1] == "best" else words[-1]


def test_the_analysis_of_a_save_string_never_shows_a_loss_of_0_00():
    # the reproduction: node-limited, so it repeats exactly; ply 15 lost 0.0012 points (estimates)
    frame = analyse_game(SAVE, time_limit=None, node_limit=20_000)
    lines = format_analysis(frame)[1:1 + len(frame)]
    hair = [(row, line) for row, line in zip(frame.itertuples(), lines) if 5e-10 < row.loss < 0.005]
    assert hair, "the reproduction no longer holds a loss below 0.005"
    for row, line in zip(frame.itertuples(), lines):
        lost = lost_column(line)
        assert lost.lstrip("~") not in ("0.00", "-0.00")
        assert line.endswith("  best") == (row.loss <= 5e-10)
        if 5e-10 < row.loss < 0.005:
            assert lost == "~<0.01" and not line.endswith("best")
        elif row.loss <= 5e-10:
            assert lost.lstrip("~") == "0"
        else:
            assert float(lost.lstrip("~")) == round(row.loss, 2)


def test_an_exact_loss_of_a_fraction_of_a_hundredth_is_shown_and_not_counted_best():
    step = replay(SAVE)[-1]
    cells = step.position.legal_moves()
    other = next(c for c in cells if c != step.move)
    best = Fraction(-17, 6)

    def evaluate(values):
        def ev(pos):
            return [MoveEstimate(c, values.get(c, best - 3), True) for c in pos.legal_moves()]
        return ev

    # the move played is 1/720 point short of the best (an expectation over face-down cards can be)
    frame = analyse_steps([step], evaluate({other: best, step.move: best - Fraction(1, 720)}))
    line = format_analysis(frame)[1]
    assert lost_column(line) == "<0.01" and not line.endswith("best")
    assert frame.loss_fraction[0] == Fraction(1, 720)
    assert analysis_summary(frame)[step.position.to_move]["best_moves"] == 0
    # tied exactly: "0" and best
    frame = analyse_steps([step], evaluate({other: best, step.move: best}))
    line = format_analysis(frame)[1]
    assert lost_column(line) == "0" and line.endswith("  best")
    assert analysis_summary(frame)[step.position.to_move]["best_moves"] == 1
    # a loss that rounds to 0.01 shows two decimals
    frame = analyse_steps([step], evaluate({other: best, step.move: best - Fraction(1, 160)}))
    assert lost_column(format_analysis(frame)[1]) == "0.01"
