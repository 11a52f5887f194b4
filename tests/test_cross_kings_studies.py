"""Cross Kings studies (issue 7): one small study end to end, its tables checked, its
values checked against the plain expectiminimax / minimax oracle."""

from __future__ import annotations

import itertools
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from ck_oracle import solve_plain
from crowns_solver.analysis import registry
from crowns_solver.analysis.base import check_result
from crowns_solver.analysis.cross_kings_strategy import STUDY_NODES, endgame_chunk, first_player, open_vs_game
from crowns_solver.cross_kings.match import self_play

from crowns_solver.cross_kings import Position
from crowns_solver.cross_kings.players import make_player, seat_view
from crowns_solver.report import run_studies

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
NAMES = ("cross_kings_first_player", "cross_kings_start_cell", "cross_kings_open_vs_game", "cross_kings_players")


def test_the_four_studies_are_registered():
    studies = registry()
    for name in NAMES:
        assert name in studies and studies[name].game == "cross_kings"
        assert studies[name].quick_games < studies[name].full_games


def test_open_vs_game_end_to_end(tmp_path):
    (path,) = run_studies(["cross_kings_open_vs_game"], games=8, seed=5, out_dir=tmp_path, workers=1)
    text = path.read_text()
    assert text.splitlines()[1].startswith("# Cross Kings endgames")
    assert "**If both players could see the face-down cards" in text and "| games | 8 |" in text
    pngs = list((tmp_path / "cross_kings_open_vs_game").glob("*.png"))
    assert pngs and all(p.read_bytes()[:8] == PNG_MAGIC for p in pngs)
    assert (tmp_path / "index.md").exists()


def test_open_vs_game_tables():
    with ThreadPoolExecutor(1) as ex:
        res = open_vs_game(8, 5, ex)
    check_result(res, "cross_kings_open_vs_game")
    (section,) = res.sections
    t = section.table
    assert list(t["cards_left"]) == [8, 10, 12, 14]
    assert t["games"].sum() == res.games == 8
    assert ((t["differs_rate"] >= 0) & (t["differs_rate"] <= 1)).all()
    for col in ("seeing_worth", "abs_gap", "differs_rate"):
        assert (t[f"{col}_low"] <= t[col] + 1e-12).all() and (t[col] <= t[f"{col}_high"] + 1e-12).all()
    # the mean absolute gap is at least the gap of the means
    assert (t["abs_gap"] + 1e-12 >= (t["open_value"] - t["game_value"]).abs()).all()
    assert section.figure is not None


def test_endgame_values_equal_the_oracle():
    # positions 0 and 4 of a run have 8 cards left: recompute both values by plain search
    rows = endgame_chunk(0, 5, np.random.SeedSequence(0), chunk_size=5, root_seed=11)
    greedy = make_player("greedy")
    for d in (0, 4):
        row = rows[d]
        assert row["cards_left"] == 8 and row["all_placements"] == 1
        attempt = 0
        while True:   # the same seeded walk, written out again from its description
            rng = np.random.default_rng(np.random.SeedSequence([11, d, attempt]))
            pos = Position.random(rng)
            while pos.cards_left > 8 and not pos.is_terminal():
                pos = pos.play(greedy.choose(seat_view(pos, pos.to_move), rng))
            if pos.cards_left == 8 and pos.face_down and not pos.is_terminal():
                break
            attempt += 1
        game, _, _ = solve_plain(pos, "game", "margin")
        assert row["game"] == float(game)
        cells = sorted(pos.face_down)
        opens = []
        for perm in itertools.permutations([pos.cells[i] for i in cells]):
            cc = list(pos.cells)
            for i, c in zip(cells, perm):
                cc[i] = c
            opens.append(solve_plain(replace(pos, cells=tuple(cc), hidden_order=None), "open", "margin")[0])
        assert row["open_mean"] == pytest.approx(float(sum(opens, Fraction(0)) / len(opens)))
        assert row["placements"] == len(opens)


def test_first_player_study_tables():
    with ThreadPoolExecutor(1) as ex:
        res = first_player(6, 3, ex)
    check_result(res, "cross_kings_first_player")
    main, compare, paired, orient, starts = (s.table for s in res.sections)
    assert list(main["games"]) == [2, 2] and res.games == 6
    # the fixed-start games against the same games on the grid turned 180 degrees
    assert list(orient["games"]) == [2, 2]
    turned = self_play("search", 2, seed=3, options={"node_limit": STUDY_NODES}, start=(2, 2), symmetry="rot180")
    assert orient.iloc[0]["difference"] == pytest.approx(main.iloc[1]["margin"] - turned["margin_first"].mean())
    assert (main["win"] + main["draw"] + main["loss"]).round(12).eq(1).all()
    assert compare.iloc[-1]["games"] == 776 and compare.iloc[-1]["win"] == 0.675
    assert starts["games"].sum() == 2
    # paired by deal: the difference of the means is the mean of the differences
    assert paired.iloc[0]["difference"] == pytest.approx(main.iloc[0]["margin"] - main.iloc[1]["margin"])


def test_the_studies_share_one_rules_sentence_and_the_committed_reports_carry_it():
    # the strategy studies and the evaluation study render the rules paragraph with one
    # function; the committed reports hold what it writes
    from pathlib import Path

    from crowns_solver.analysis._cross_kings_common import RULES_SENTENCE, rules_text

    assert rules_text("Players: x.") == RULES_SENTENCE + "  Players: x."
    reports = Path(__file__).resolve().parent.parent / "reports"
    names = ("cross_kings_first_player", "cross_kings_start_cell", "cross_kings_open_vs_game",
             "cross_kings_players", "cross_kings_evaluation")
    for name in names:
        lines = (reports / f"{name}.md").read_text().splitlines()
        rules = next(line for line in lines if line.startswith("**Rules, deck and players.** "))
        rules = rules.removeprefix("**Rules, deck and players.** ")
        assert rules.startswith(RULES_SENTENCE + "  "), name


def test_open_vs_game_intervals_stay_in_range_and_are_described_as_computed():
    # design probe, session 18: with 2 positions at 14 cards left (8 positions, seed 11)
    # the interval of the mean absolute gap reached -0.61, below any absolute value, and
    # the report's closing line called the rate intervals Wilson intervals while the
    # section (rightly) said normal approximation over positions
    with ThreadPoolExecutor(1) as ex:
        res = open_vs_game(8, 11, ex)
    t = res.sections[0].table
    assert (t["abs_gap_low"] >= 0).all() and (t["abs_gap_low"] <= t["abs_gap"]).all()
    assert (t["abs_gap"] >= 0).all()
    assert (t["differs_rate_low"] <= t["differs_rate"]).all() and (t["differs_rate"] <= t["differs_rate_high"]).all()
    assert (t["differs_rate_high"] > t["differs_rate_low"]).all()   # a width even at a share of 0 or 1
    assert res.intervals is not None and "Student t intervals for the means" in res.intervals
    assert "`differs_rate` is a mean of per-position shares, with Wilson's interval" in res.intervals


def test_start_cell_table_lists_every_central_cell_even_if_never_chosen():
    """The first-player study's start-cell table left out a cell chosen 0 times (design
    probe 18); its shares are Wilson intervals over the games."""
    import pandas as pd

    from crowns_solver.analysis.cross_kings_strategy import start_cell_table
    from crowns_solver.montecarlo import wilson_interval

    table = start_cell_table(pd.Series([14, 14, 21, 15, 14]))
    assert table["start_cell"].tolist() == ["(2,2)", "(2,3)", "(3,2)", "(3,3)"]
    assert table["games"].tolist() == [3, 1, 0, 1]
    low, high = wilson_interval(0, 5)
    assert table.loc[2, "share_rate"] == 0 and table.loc[2, "share_rate_high"] == pytest.approx(high)


def test_open_vs_game_of_one_position_says_its_cards_left_and_no_half_interval():
    """Session 24: one position's headline said "with 8-14 cards left" (fixed text) and
    its row showed abs_gap_low 0 beside a blank abs_gap_high (max(0.0, nan) is 0.0)."""
    result = open_vs_game(1, 5)
    row = result.sections[0].table.iloc[0]
    assert len(result.sections[0].table) == 1 and row["games"] == 1
    assert f"over 1 position with {int(row['cards_left'])} cards left," in result.headline
    assert "8-14" not in result.headline
    assert np.isnan(row["abs_gap_low"]) and np.isnan(row["abs_gap_high"])
