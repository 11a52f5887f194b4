"""Cross Kings solver under time and node limits below the anytime cut-over: the split
limit (exact search, heuristic deepening, exact search), and the principal variation of a
value that became exact as the limit ran out."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest
from conftest import run_cli
from test_cross_kings_solver import random_position

from crowns_solver import _ck_search
from crowns_solver.cross_kings import solve
from crowns_solver.cross_kings.position import cell_index
from crowns_solver.cross_kings.solver import ANYTIME_CARDS, PRE_DEPTH, _engine_input
from crowns_solver.errors import SolverOptionError


def explicit_iteration(pos, mode, depth, move):
    """One plain heuristic search to `depth` plies on a fresh engine: the position's value
    and the value of `move` ((row, col)), in points."""
    cards, root = _engine_input(pos, mode)
    eng = _ck_search.Engine(cards, 0 if mode == "open" else 1, 0, 0, 16 << 20)
    inf = _ck_search.INF_VALUE
    v, _, _ = eng.search(root, depth, -inf, inf)
    mv, _ = eng.search_move(root, cell_index(move), depth, -inf, inf)
    return Fraction(v, eng.scale(root)), Fraction(mv, eng.scale(root))


@pytest.fixture
def split_on(monkeypatch):
    """The split limit (off by default: SPLIT_SHARES None) turned on as it was measured."""
    from crowns_solver.cross_kings import solver

    assert solver.SPLIT_SHARES is None
    monkeypatch.setattr(solver, "SPLIT_SHARES", (0.5, 0.25))


# (game 17 cards: seed 2 until the sixth round's move ordering; there the solver's table
# now tilts the iteration's value, which the comment below allows in general: seed 4)
@pytest.mark.parametrize("mode, left, seed", [("game", 17, 4), ("open", 22, 3)])
def test_limited_solve_below_the_cut_over_reports_the_deeper_iteration(mode, left, seed, split_on):
    pos = random_position(seed, left)
    assert pos.cards_left <= ANYTIME_CARDS[mode]   # no anytime deepening for this size
    full = solve(pos, mode=mode, tt_mb=16, all_moves=True)
    assert full.exact and full.nodes > 1_000_000
    sol = solve(pos, mode=mode, tt_mb=16, node_limit=200_000)
    assert not sol.exact and sol.stopped == "nodes"
    assert sol.lower <= full.value <= sol.upper
    # the estimate and move are a deeper iteration's than the shallow pass's (the
    # search had only the depth-2 pass to report before the split)
    assert sol.depth is not None and sol.depth > PRE_DEPTH + 2
    # ... and exactly that iteration's: its value, and a move it rates at that value (a
    # fresh engine agrees here; in general the solver's table also holds exact entries
    # from the exact share, which can tilt a heuristic value)
    assert explicit_iteration(pos, mode, sol.depth, sol.best_move) == (sol.value, sol.value)
    assert sol.moves[0].cell == sol.best_move and sol.moves[0].value == sol.value
    assert all(m.lower <= full.move_values[m.cell] <= m.upper for m in sol.moves)


@pytest.mark.parametrize("split", [False, True])
@pytest.mark.parametrize("mode, left, seed", [("game", 15, 1), ("open", 20, 2)])
def test_an_ample_limit_costs_nothing(mode, left, seed, split, monkeypatch):
    from crowns_solver.cross_kings import solver

    if split:
        monkeypatch.setattr(solver, "SPLIT_SHARES", (0.5, 0.25))
    # the exact search runs first with half the limit: a limit twice the work or more
    # gives the unlimited solve's answer with exactly its nodes
    pos = random_position(seed, left)
    free = solve(pos, mode=mode, tt_mb=16)
    for limit in (2 * free.nodes + 2048, 10 * free.nodes):
        sol = solve(pos, mode=mode, tt_mb=16, node_limit=limit)
        assert sol.exact and sol.stopped is None
        assert (sol.value, sol.nodes, sol.best_moves, sol.pv) == (free.value, free.nodes, free.best_moves, free.pv)


@pytest.mark.parametrize("mode, left, seed", [("game", 15, 1), ("open", 22, 2)])
def test_a_tight_limit_that_still_solves_gives_the_exact_value(mode, left, seed):
    # by default (no split) any limit above the exact search's work solves exactly, with
    # the unlimited solve's nodes: here 1.5x the work (with the split on, the game-mode
    # position was not exact at 1.5x: why the split is off)
    pos = random_position(seed, left)
    free = solve(pos, mode=mode, tt_mb=16)
    sol = solve(pos, mode=mode, tt_mb=16, node_limit=free.nodes * 3 // 2)
    assert sol.exact and sol.value == free.value and sol.nodes == free.nodes
    # the best move reported is an optimal one (there may be several)
    every = solve(pos, mode=mode, tt_mb=16, all_moves=True)
    assert sol.best_move in every.best_moves


def test_ctrl_c_is_not_taken_for_the_end_of_a_share(monkeypatch, split_on):
    # an interrupt during the exact share stops the whole solve (no deepening after it)
    from crowns_solver.cross_kings import solver

    pos = random_position(2, 17)
    calls = []
    real = solver._Run._deepen

    def deepen(self, depth, last):
        calls.append(depth)
        return real(self, depth, last)

    def interrupted_exact(self, depth, _real=solver._Run._iteration):
        if depth >= solver._EXACT:
            self.eng.stop = 2
            raise solver._Stopped
        return _real(self, depth)

    monkeypatch.setattr(solver._Run, "_deepen", deepen)
    monkeypatch.setattr(solver._Run, "_iteration", interrupted_exact)
    sol = solve(pos, mode="game", node_limit=10**9)
    assert sol.stopped == "interrupted" and not sol.exact
    assert len(calls) == 1   # the shallow pass only


def proof_limit(pos) -> int:
    """The smallest node limit at which the value is proven with no allowance for listing
    the best move and the line (so that, at this limit, the listing is cut short)."""
    from crowns_solver.cross_kings import solver

    free = solve(pos, tt_mb=16)
    saved = solver.PV_GRACE, solver.PV_GRACE_MIN_NODES
    solver.PV_GRACE, solver.PV_GRACE_MIN_NODES = 0, 1
    try:
        lo, hi = 1, free.nodes   # not exact at lo, exact at hi
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if solve(pos, tt_mb=16, node_limit=mid).exact:
                hi = mid
            else:
                lo = mid
    finally:
        solver.PV_GRACE, solver.PV_GRACE_MIN_NODES = saved
    return hi


def test_value_exact_as_the_limit_runs_out_still_lists_the_principal_variation():
    # open mode, 16 cards: at this node limit the value is proven just before the limit
    # stops the search, while the best move and the line are being listed
    pos = random_position(2, 16)   # a position where listing the line needs nodes after the proof
    free = solve(pos, tt_mb=16)
    limit = proof_limit(pos)
    assert limit < free.nodes
    sol = solve(pos, tt_mb=16, node_limit=limit)
    assert sol.exact and sol.value == free.value and sol.stopped == "nodes"
    assert sol.pv == free.pv and sol.pv_complete
    assert sol.best_moves == free.best_moves
    # the listing took a few more nodes than the limit (PV_GRACE), not a whole solve
    assert limit < sol.nodes < free.nodes + 2_000


def test_pv_that_cannot_be_listed_says_so():
    pos = random_position(2, 16)   # a position where listing the line needs nodes after the proof
    sol = solve(pos, tt_mb=16, node_limit=proof_limit(pos))
    data = sol.to_dict()
    assert data["pv_complete"] is True and data["pv"] == [list(c) for c in sol.pv]


# ---------------------------------------------------------------- option checks


@pytest.mark.parametrize("tt_mb", [-1, 0, 0.5, 65537, float("nan"), float("inf"), "big", True])
def test_tt_mb_out_of_range_gets_one_message(tt_mb):
    with pytest.raises(SolverOptionError) as exc:
        solve(random_position(1, 8), tt_mb=tt_mb)
    assert str(exc.value) == f"tt_mb must be a number of MB from 1 to 65536, got {tt_mb!r}"


@pytest.mark.parametrize("text", ["-1", "0", "0.5", "70000", "nan", "inf", "big"])
def test_cli_tt_mb_out_of_range_gets_one_message(capsys, text):
    code, out, err = run_cli(capsys, "cross-kings", "solve", "--random", "1", "--tt-mb", text,
                             "--node-limit", "10")
    assert code == 2 and not out
    got = text if text != "big" else "'big'"   # the API's message: text that is no number is quoted
    assert err == f"crowns: error: --tt-mb must be a number of MB from 1 to 65536, got {got}\n"


def test_cli_tt_mb_in_range_is_used(capsys):
    code, out, _ = run_cli(capsys, "cross-kings", "solve", "--random", "1", "--tt-mb", "1",
                           "--node-limit", "10", "--json")
    assert code == 0 and json.loads(out)["tt_mb"] == 1


def test_infinite_time_limit_means_no_limit():
    pos = random_position(3, 12)
    free = solve(pos, mode="game")
    sol = solve(pos, mode="game", time_limit=math.inf)
    assert sol.exact and sol.time_limit is None and sol.stopped is None
    assert (sol.value, sol.nodes) == (free.value, free.nodes)


@pytest.mark.parametrize("limit", [math.nan, -1, -math.inf, 0, 0.0])
def test_nan_zero_and_negative_time_limits_are_refused(limit):
    with pytest.raises(SolverOptionError, match=r"time_limit must be a positive number of seconds, or None or"
                       rf" inf for no limit, got {limit!r}"):
        solve(random_position(3, 12), time_limit=limit)


def test_cli_time_limit_inf_means_no_limit(capsys):
    code, out, _ = run_cli(capsys, "cross-kings", "solve", "--random", "4", "--time-limit", "inf",
                           "--node-limit", "1000", "--json")
    assert code == 0 and json.loads(out)["time_limit"] is None


def test_cli_says_why_an_exact_value_has_no_full_principal_variation(capsys, monkeypatch, tmp_path):
    # with no allowance for listing it (PV_GRACE 0, one node), the same solve as above
    # proves the value but cannot list the line: the API and the CLI say so
    from crowns_solver.cross_kings import solver

    monkeypatch.setattr(solver, "PV_GRACE", 0)
    monkeypatch.setattr(solver, "PV_GRACE_MIN_NODES", 1)
    pos = random_position(2, 16)   # a position where listing the line needs nodes after the proof
    limit = proof_limit(pos)
    sol = solve(pos, tt_mb=16, node_limit=limit)
    assert sol.exact and not sol.pv_complete and len(sol.pv) < len(solve(pos, tt_mb=16).pv)
    path = tmp_path / "p16.json"
    path.write_text(json.dumps(pos.to_dict()))
    code, out, _ = run_cli(capsys, "cross-kings", "solve", str(path), "--node-limit", str(limit), "--tt-mb", "16")
    assert code == 0 and "(exact)" in out
    assert ("principal variation not listed: the limit (and the extra allowed for listing it) ran out"
            in out) or "principal variation cut short" in out


def _check_consistent(sol, full):
    """A limited solve's answer agrees with its own listing and with the exact solve."""
    assert sol.lower <= full.value <= sol.upper
    valued = [m for m in sol.moves if m.value is not None]
    # the position is worth its best move: bounds from the moves' bounds
    assert sol.lower >= max(m.lower for m in sol.moves)
    assert sol.upper <= max(m.upper for m in sol.moves)
    for m in sol.moves:
        assert m.lower <= full.move_values[m.cell] <= m.upper
    if valued:
        top = max(m.value for m in valued)
        # the recommended move is one the listing shows as best, and the value is its value
        assert sol.best_move in [m.cell for m in valued if m.value == top]
        assert sol.value == top
        assert sol.moves[0].value == top
    if sol.exact:
        assert sol.value == full.value
        assert set(sol.best_moves) <= {c for c, v in full.move_values.items() if v == full.value}


def test_a_stop_inside_the_all_moves_iteration_keeps_what_the_moves_proved(monkeypatch):
    # seed 4, 18 cards left, open mode: with 200,000 nodes the all-moves search proved five
    # of the six moves exactly (three worth 0, -1, -2) and stopped inside the sixth (proven
    # <= -2); the answer used to keep the heuristic iteration's estimate (+4), its bound
    # (+56) and its preferred move, one of the moves proven worse (-2).  The moves' bounds
    # make the position exact: 0, reached by the three moves worth 0.  (Found with the
    # "potential" horizon evaluation, which this scenario keeps: with the fitted one the
    # same limit is enough to finish the all-moves iteration.)
    import random

    from crowns_solver.cross_kings import Position, solver

    # the scenario needs the search plan it was found with (a 2-ply pass, win/draw/loss
    # probes first): the deeper pass of session 20 finishes the sixth move sooner
    monkeypatch.setattr(solver, "ANYTIME_HORIZON_CARDS", {"open": None, "game": None})
    monkeypatch.setattr(solver, "WDL_FIRST", True)
    pos = Position.random(seed=4).play((2, 2))
    rng = random.Random(4)
    while pos.cards_left > 18:
        pos = pos.play(rng.choice(pos.legal_moves()))
    full = solve(pos, mode="open", all_moves=True, tt_mb=16)
    sol = solve(pos, mode="open", all_moves=True, tt_mb=16, node_limit=200_000, evaluation="potential")
    assert sol.stopped == "nodes"
    assert sum(m.exact for m in sol.moves) >= 3
    assert sol.exact and sol.value == full.value
    assert set(sol.best_moves) == set(full.best_moves)
    # exact from the moves' bounds, so the extra allowance lists its principal variation
    assert sol.pv_complete and sol.pv and sol.pv[0] in full.best_moves
    _check_consistent(sol, full)


@pytest.mark.parametrize("mode, left", [("open", 16), ("game", 13)])
def test_limited_all_moves_solves_recommend_the_best_listed_move(mode, left):
    # over many node limits (stops at every stage: heuristic iterations, inside the exact
    # all-moves loop, while listing) the answer is consistent with its own listing and
    # with the exact solve
    for seed in range(4):
        pos = random_position(300 + seed, left)
        full = solve(pos, mode=mode, all_moves=True, tt_mb=16)
        assert full.exact
        for limit in sorted({max(1_000, full.nodes * k // 16) for k in range(1, 16)}):
            sol = solve(pos, mode=mode, all_moves=True, tt_mb=16, node_limit=limit)
            _check_consistent(sol, full)


def test_a_fresh_deal_stopped_inside_a_deepening_iteration_gives_its_best_moves_value():
    # `crowns cross-kings solve --random 2 --mode game --node-limit 250000`: the start
    # cells' iteration at depth 3 was stopped after the first cell; the answer gave the
    # previous iteration's estimate (-11/6) beside a best move listed at -175/132
    from crowns_solver.cross_kings import Deal

    sol = solve(Deal.random(2), mode="game", node_limit=250_000)
    assert not sol.exact
    best = next(m for m in sol.moves if m.cell == sol.best_move)
    assert best.value == sol.value == max(m.value for m in sol.moves if m.value is not None)


@pytest.mark.parametrize("seed, mode, evaluation", [(1, "game", "fitted"), (6, "open", "potential")])
def test_a_stopped_fresh_deal_s_line_starts_with_the_recommended_start_cell(seed, mode, evaluation):
    # found by a fresh-user probe: at a fresh deal every start cell is searched at each
    # depth; an unfinished deeper iteration re-valued the cells and the recommended one
    # changed ((3,2) here, (3,3) there), but the printed line still began with the
    # previous iteration's choice ((2,2) / (3,2))
    from crowns_solver.cross_kings import Deal

    sol = solve(Deal.random(seed), mode=mode, node_limit=200_000, evaluation=evaluation)
    assert not sol.exact and sol.stopped == "nodes"
    listed_best = max(m.value for m in sol.moves if m.value is not None)
    assert dict((m.cell, m.value) for m in sol.moves)[sol.best_move] == listed_best
    assert sol.pv and sol.pv[0] == sol.best_move


@pytest.mark.parametrize("seed", [2, 4])
def test_a_moves_proven_bound_is_kept_when_another_move_proves_more(seed):
    """Node-limited solves are deterministic, so a larger limit repeats a smaller one's
    probes: every move's proven bounds may only narrow as the limit grows, and they hold
    the move's exact value.  Before session 18 only the move behind the root's latest
    lower bound kept its bound: (20 cards, seed 4) a move proven >= 2 after 100,000 nodes
    was listed as >= -56 after 200,000, once another move had proven more."""
    pos = random_position(seed, 20)
    exact = {m.cell: m.value for m in solve(pos, all_moves=True).moves}
    prev = None
    for limit in (20_000, 50_000, 100_000, 200_000, 400_000, 800_000):
        sol = solve(pos, node_limit=limit, time_limit=None)
        now = {m.cell: (m.lower, m.upper) for m in sol.moves}
        for cell, (lo, hi) in now.items():
            assert lo <= exact[cell] <= hi, (limit, cell)
            if prev is not None:
                assert lo >= prev[cell][0] and hi <= prev[cell][1], (limit, cell, prev[cell], (lo, hi))
        prev = now
        if sol.exact:
            break
