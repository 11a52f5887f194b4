"""The horizon evaluation of the Cross Kings search (heur_kind 2, `Engine._evaluation`),
checked against a plain re-implementation: the features by brute force with the exact
scorer (the study's `hand_features`, plain Python), the rounding as the core does it, on
positions of every size, both modes and both objectives."""

from __future__ import annotations

import math

import numpy as np
import pytest
from crowns_solver.analysis.cross_kings_evaluation import hand_features as _features
from crowns_solver.analysis.cross_kings_evaluation import position_terms

from crowns_solver import _ck_search
from crowns_solver._ck_score import score_mask
from crowns_solver.cross_kings import Position
from crowns_solver.cross_kings.solver import _engine_input

WEIGHTS = ("score", "gain", "kings", "pairs", "adj", "gap", "tempo")


def _trunc_div(a: int, b: int) -> int:
    """C integer division (the core is compiled with cdivision: rounds toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _reference(eng: _ck_search.Engine, state: tuple, objective: str) -> int:
    fd = state[1]
    terms, left = position_terms(state)   # margin and feature differences, then 1 (tempo)
    w = {k: (getattr(eng, f"ev_{k}0"), getattr(eng, f"ev_{k}1")) for k in WEIGHTS}
    diffs = [int(t) for t in terms]
    total = sum((w[k][0] * 36 + w[k][1] * left) * d for k, d in zip(WEIGHTS, diffs))
    d64 = _trunc_div(total, 36)
    scale = math.factorial(fd.bit_count())
    if objective == "win":
        return max(-63, min(63, (d64 + 4) >> 3)) * scale
    return (d64 * scale + 32) >> 6   # to the nearest value unit


@pytest.mark.parametrize("mode", ["open", "game"])
@pytest.mark.parametrize("objective", ["margin", "win"])
def test_evaluation_equals_a_plain_reimplementation(mode, objective):
    rng = np.random.default_rng(2026)
    checked = 0
    for _ in range(60):
        pos = Position.random(rng)
        target = int(rng.integers(2, 35))
        while pos.cards_left > target or pos.marker is None:
            moves = pos.legal_moves()
            if not moves:
                break
            pos = pos.play(moves[int(rng.integers(len(moves)))])
        cards, state = _engine_input(pos, mode)
        eng = _ck_search.Engine(cards, 0 if mode == "open" else 1, 0 if objective == "margin" else 1, 0, 1 << 16)
        assert eng.heur_kind == 2   # the default
        assert eng.heuristic(state) == _reference(eng, state, objective), pos.to_save_string()
        checked += 1
    assert checked == 60


def test_the_evaluation_weights_are_used_and_the_old_heuristic_stays_available():
    rng = np.random.default_rng(7)
    pos = Position.random(rng)
    for _ in range(12):
        pos = pos.play(pos.legal_moves()[0])
    cards, state = _engine_input(pos, "open")
    eng = _ck_search.Engine(cards, 0, 0, 0, 1 << 16)
    base = eng.heuristic(state)
    eng.ev_tempo0 += 64   # one more point of tempo
    assert eng.heuristic(state) == _reference(eng, state, "margin")
    assert eng.heuristic(state) >= base
    eng.heur_kind = 1   # margin plus one point per unit of potential
    nat, kings = state[3:5], state[5:7]
    side = state[8]
    pot = []
    for p in (side, 1 - side):
        f = _features(nat[p], kings[p], 0)
        pot.append(2 * kings[p] + f[2] + f[3] + f[4])
    margin = score_mask(nat[side], kings[side]) - score_mask(nat[1 - side], kings[1 - side])
    assert eng.heuristic(state) == margin + pot[0] - pot[1]


# ----------------------------------------------------------------------------- options


def test_solve_checks_the_evaluation_and_exact_values_do_not_depend_on_it():
    from crowns_solver.cross_kings import solve
    from crowns_solver.errors import SolverOptionError

    rng = np.random.default_rng(3)
    pos = Position.random(rng)
    while pos.cards_left > 13 or pos.marker is None:
        pos = pos.play(pos.legal_moves()[int(rng.integers(len(pos.legal_moves())))])
    assert not pos.is_terminal()
    with pytest.raises(SolverOptionError, match="evaluation must be 'fitted' or 'potential', got 'best'"):
        solve(pos, evaluation="best")
    for mode in ("open", "game"):
        a = solve(pos, mode=mode, all_moves=True, evaluation="fitted")
        b = solve(pos, mode=mode, all_moves=True, evaluation="potential")
        assert a.exact and b.exact and a.value == b.value
        assert {m.cell: m.value for m in a.moves} == {m.cell: m.value for m in b.moves}


def test_a_limited_solve_uses_the_evaluation_asked_for():
    # a whole deal is far beyond an exact solve: the estimate comes from the horizon
    from crowns_solver.cross_kings import Deal, solve

    deal = Deal.random(11)
    est = {ev: solve(deal, mode="game", node_limit=20_000, tt_mb=8, evaluation=ev) for ev in ("fitted", "potential")}
    assert not est["fitted"].exact and not est["potential"].exact
    assert est["fitted"].value != est["potential"].value
    assert [est[ev].evaluation for ev in est] == ["fitted", "potential"]
    assert est["potential"].to_dict()["evaluation"] == "potential"


def test_players_and_the_match_command_take_the_evaluation(capsys):
    from crowns_solver.cli import main
    from crowns_solver.cross_kings.players import make_player
    from crowns_solver.errors import PolicyError

    assert make_player("search", evaluation="potential").evaluation == "potential"
    assert make_player("search").evaluation == "fitted"
    with pytest.raises(PolicyError, match="evaluation must be 'fitted' or 'potential', got 'x'"):
        make_player("clairvoyant", evaluation="x")
    code = main(["cross-kings", "match", "--a", "search", "--b", "search", "--b-evaluation", "potential",
                 "--deals", "1", "--nodes", "2000", "--workers", "1"])
    out = capsys.readouterr().out
    assert code == 0 and "search (A) vs search (B)" in out
    with pytest.raises(SystemExit) as exc:
        main(["cross-kings", "solve", "--random", "1", "--evaluation", "best"])
    assert exc.value.code == 2


# ----------------------------------------------------------------------------- the study


def test_the_study_features_equal_the_compiled_evaluation_and_the_quick_study_runs():
    from concurrent.futures import ThreadPoolExecutor

    from crowns_solver.analysis import registry
    from crowns_solver.analysis.base import check_result
    from crowns_solver.analysis.cross_kings_evaluation import (
        design,
        library_weights,
        position_terms,
    )

    rng = np.random.default_rng(5)
    for _ in range(20):
        pos = Position.random(rng)
        target = int(rng.integers(4, 34))
        while (pos.cards_left > target or pos.marker is None) and pos.legal_moves():
            pos = pos.play(pos.legal_moves()[int(rng.integers(len(pos.legal_moves())))])
        cards, state = _engine_input(pos, "game")
        eng = _ck_search.Engine(cards, 1, 0, 0, 1 << 16)
        terms, left = position_terms(state)
        pred = float((design(terms[None, :], np.array([left])) @ library_weights())[0])
        # the core rounds to 1/64 point (and then to the nearest value unit): within that
        scale = eng.scale(state)
        assert abs(eng.heuristic(state) / scale - pred) <= 1 / 64 + 0.5 / scale + 1e-9
    study = registry()["cross_kings_evaluation"]
    assert study.quick_games < study.full_games
    with ThreadPoolExecutor(1) as ex:
        res = study.run(6, 7, ex)
    check_result(res, "cross_kings_evaluation")
    acc, diffs, weights, play = (s.table for s in res.sections)
    assert list(acc["evaluation"])[:3] == ["current margin alone", "potential (earlier default)", "fitted (library default)"]
    # the paired differences are the differences of the table's errors (same positions)
    mae = dict(zip(acc["evaluation"], acc["mae_all"]))
    for _, d in diffs.iterrows():
        other = d["comparison"].removeprefix("fitted minus ")
        assert d["mae_difference"] == pytest.approx(mae["fitted (library default)"] - mae[other])
    assert (acc["mae_all"] >= 0).all() and len(weights) == 7
    assert play["games"].iloc[0] == 2 * max(2, 6 // 5)


def test_parallel_solves_take_the_evaluation():
    # the workers build their engines from the job (a missing or wrong key would fail there)
    from crowns_solver.cross_kings import solve

    rng = np.random.default_rng(9)
    pos = Position.random(rng)
    while pos.cards_left > 17 or pos.marker is None:
        pos = pos.play(pos.legal_moves()[int(rng.integers(len(pos.legal_moves())))])
    one = solve(pos, mode="open", evaluation="potential")
    two = solve(pos, mode="open", workers=2, evaluation="potential")
    assert one.exact and two.exact and one.value == two.value
    assert two.stats["workers"] == 2
