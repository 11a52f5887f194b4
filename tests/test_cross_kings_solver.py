"""Cross Kings solver: plain-minimax oracle, shared endgames, crosskings.net labels,
anytime bounds, memory, interruption and bad input."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
import time
from fractions import Fraction

import numpy as np
import pytest
from ck_oracle import solve_plain
from ck_oracle import value as oracle_value
from conftest import sigint_default
from hypothesis import given
from hypothesis import strategies as st

from crowns_solver import _ck_search
from crowns_solver.cross_kings import Deal, Position, cell_index, solve
from crowns_solver.cross_kings.solver import _engine_input
from crowns_solver.errors import (
    CrownsError,
    PositionError,
    SolverOptionError,
    UnknownCardError,
)

MODES = ("open", "game")
OBJECTIVES = ("margin", "win")
REACHES = ("any", "nearest")


def random_position(seed: int, left: int, reach: str = "any") -> Position:
    """A position with `left` cards on the grid, reached by seeded random play."""
    rng = np.random.default_rng(seed)
    pos = Position.random(rng, reach)
    while pos.cards_left > left or pos.marker is None:
        moves = pos.legal_moves()
        if not moves:  # the game ended early: start again from the next deal
            return random_position(seed + 10_000, left, reach)
        pos = pos.play(moves[int(rng.integers(len(moves)))])
    return pos


def cells(d):
    return {cell_index(c): v for c, v in d.items()}


# ---------------------------------------------------------------- the plain oracle


@pytest.mark.parametrize("reach", REACHES)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("chunk", range(4))
def test_equals_plain_minimax_on_random_small_positions(chunk, mode, reach):
    # 4 chunks x 2 modes x 2 reaches x 16 positions = 256 positions, each under both
    # objectives: value, every move's value, each revealed card's value, best moves
    left = 10 if mode == "open" else 9
    for seed in range(16 * chunk, 16 * chunk + 16):
        pos = random_position(1000 * seed + 7, left, reach)
        for objective in OBJECTIVES:
            value, move_values, card_values = solve_plain(pos, mode, objective)
            sol = solve(pos, mode=mode, objective=objective, all_moves=True, tt_mb=1)
            assert sol.exact and sol.value == value, (seed, objective)
            assert sol.lower == sol.upper == value
            assert cells(sol.move_values) == move_values, (seed, objective)
            assert {cell_index(c): v for c, v in sol.card_values.items()} == card_values
            best = {m for m, v in move_values.items() if v == value}
            assert {cell_index(c) for c in sol.best_moves} == best
            # without all_moves: same value and one move proven optimal
            quick = solve(pos, mode=mode, objective=objective, tt_mb=1)
            assert quick.exact and quick.value == value
            assert len(quick.best_moves) == (1 if best else 0)  # none at a finished game
            assert all(cell_index(c) in best for c in quick.best_moves)
            for m in quick.moves:  # every move is proven to be worth at most the value
                assert m.lower <= move_values[cell_index(m.cell)] <= m.upper <= value


def test_start_choice_is_the_root_decision():
    # an artificial grid (most cards already taken) with the marker not yet placed: the
    # second player's choice among the four central cells is the root decision
    for seed in range(12):
        deal = Deal.random(seed)
        fresh = deal.position()
        keep = {14, 15, 20, 21} | set(np.random.default_rng(seed).choice(
            [c for c in range(36) if c not in (14, 15, 20, 21)], 5, replace=False).tolist())
        gone = [c for c in range(36) if c not in keep]
        cards_bytes, _ = _engine_input(fresh, "open")
        first = [fresh.cells[c] for c in gone[0::2]]
        second = [fresh.cells[c] for c in gone[1::2]]

        def masks(hand):
            return sum(1 << c for c in hand if c < 32), sum(1 for c in hand if c >= 32)

        (n0, k0), (n1, k1) = masks(first), masks(second)
        state = (sum(1 << c for c in keep), 0, 0, n0, n1, k0, k1, -1, 1)
        for objective in OBJECTIVES:
            eng = _ck_search.Engine(cards_bytes, 0, OBJECTIVES.index(objective), 0, 1 << 20)
            assert eng.moves(state) == [14, 15, 20, 21]
            v, proven, move = eng.search(state, 99, -_ck_search.INF_VALUE, _ck_search.INF_VALUE)
            grid = {c: fresh.cells[c] for c in keep}
            want = oracle_value(grid, None, frozenset(second), frozenset(first), frozenset(), "any", objective)
            got = Fraction(v) if objective == "margin" else (1 + Fraction(v, _ck_search.WIN)) / 2
            assert proven and got == want, (seed, objective)


# ---------------------------------------------------------------- shared cases


def test_endgames(ck_endgames):
    for case in ck_endgames:
        pos = Position.from_dict(case["position"])
        # the case values are score(first) - score(second): confirm, then take the mover's view
        assert pos.scores() == (case["score_first_now"], case["score_second_now"])
        sign = 1 if pos.to_move == "first" else -1
        sol = solve(pos, all_moves=True, tt_mb=1)
        assert sol.exact and sol.value == sign * case["value"]
        assert cells(sol.move_values) == {int(k): sign * v for k, v in case["move_values"].items()}
        assert sorted(cell_index(c) for c in sol.best_moves) == sorted(case["best_moves"])
        quick = solve(pos, tt_mb=1)
        assert quick.value == sign * case["value"]
        assert len(quick.best_moves) == 1 and cell_index(quick.best_moves[0]) in case["best_moves"]
        # the principal variation is legal and reaches the value
        end = pos
        for cell in quick.pv:
            end = end.play(cell)
        assert end.is_terminal() and sign * end.margin() == quick.value


def _label_value(res) -> Fraction:
    """(m - w - d/2) / m: the labelled move's value for the player to move in the save string."""
    return Fraction(2 * res["m"] - 2 * res["w"] - res["d"], 2 * res["m"])


def test_labels_game_value_win(ck_labels):
    assert len(ck_labels) == 70
    for label in ck_labels:
        pos = Position.from_save_string(label["save"])
        sol = solve(pos, mode="game", objective="win", all_moves=True, tt_mb=8)
        assert sol.exact
        assert len(sol.move_values) == len(label["moves"])
        for move in label["moves"]:
            cell = tuple(move["marker"])
            want = {r["card"]: _label_value(r) for r in move["resolutions"]}
            if cell_index(cell) in pos.face_down:
                assert sol.card_values[cell] == want, (label["save"], cell)
                assert sol.move_values[cell] == sum(want.values()) / len(want)
            else:
                assert sol.move_values[cell] == want[pos.grid[cell_index(cell)]], (label["save"], cell)
        assert sol.value == max(sol.move_values.values())


# ---------------------------------------------------------------- properties


@pytest.mark.parametrize("seed", range(6))
def test_game_value_ignores_known_face_down_cards(seed):
    pos = random_position(seed, 10)
    hidden = Position.from_dict({**pos.to_dict(), "grid": [
        "??" if i in pos.face_down else g for i, g in enumerate(pos.grid)]})
    for objective in OBJECTIVES:
        a = solve(pos, mode="game", objective=objective, tt_mb=1)
        b = solve(hidden, mode="game", objective=objective, tt_mb=1)
        assert a.value == b.value and a.exact and b.exact


@pytest.mark.parametrize("seed", range(4))
def test_win_and_margin_agree_on_the_outcome(seed):
    pos = random_position(seed, 14)
    margin = solve(pos, tt_mb=4)
    win = solve(pos, objective="win", tt_mb=4)
    assert win.value == (1 if margin.value > 0 else Fraction(1, 2) if margin.value == 0 else 0)


def test_terminal_position_is_its_current_margin():
    pos = random_position(3, 20)
    while not pos.is_terminal():
        pos = pos.play(pos.legal_moves()[0])
    sign = 1 if pos.to_move == "first" else -1
    sol = solve(pos)
    assert sol.exact and sol.value == sign * pos.margin() and sol.best_moves == () and sol.pv == ()
    win = solve(pos, mode="game", objective="win")
    assert win.value == (1 if sign * pos.margin() > 0 else Fraction(1, 2) if pos.margin() == 0 else 0)


def test_solution_records_parameters_and_table_use():
    pos = random_position(5, 12, "nearest")
    sol = solve(pos, mode="game", objective="win", tt_mb=2, time_limit=60)
    assert (sol.mode, sol.objective, sol.reach, sol.tt_mb, sol.time_limit) == ("game", "win", "nearest", 2, 60)
    assert sol.table_bytes <= 2 << 20 and sol.table_entries > 0 and 0 < sol.table_used <= sol.table_entries
    assert sol.nodes > 0 and sol.seconds > 0 and sol.stopped is None
    assert sol.to_move == pos.to_move
    data = json.loads(json.dumps(sol.to_dict()))
    assert Fraction(data["value"]) == sol.value and data["exact"] is True


@pytest.mark.parametrize("mode", MODES)
def test_node_limit_gives_sound_bounds_and_a_legal_move(mode):
    for seed in range(3):
        pos = random_position(seed, 16)
        full = solve(pos, mode=mode, tt_mb=4, all_moves=True)
        assert full.exact
        for limit in (2_000, 20_000, 200_000):
            part = solve(pos, mode=mode, tt_mb=4, node_limit=limit)
            if part.exact:
                assert part.value == full.value
                assert set(part.best_moves) <= set(full.best_moves) and part.best_moves
                continue
            assert part.stopped == "nodes"
            assert part.lower <= full.value <= part.upper
            assert part.best_move in pos.legal_moves()
            assert all(m.lower <= m.upper for m in part.moves)


def test_anytime_analysis_of_a_full_deal():
    deal = Deal.random(1)
    sol = solve(deal, node_limit=300_000, tt_mb=4)
    assert not sol.exact and sol.stopped == "nodes"
    assert sol.to_move == "second"  # the second player chooses the start cell
    assert {m.cell for m in sol.moves} == {(2, 2), (2, 3), (3, 2), (3, 3)}
    assert sol.best_move in {(2, 2), (2, 3), (3, 2), (3, 3)}
    assert sol.lower <= sol.value <= sol.upper and sol.depth and sol.depth >= 2
    # the line the search prefers is playable
    p = deal.position()
    for cell in sol.pv:
        p = p.play(cell)


def test_open_anytime_analysis_turns_exact_while_cards_remain_beyond_the_horizon():
    # open mode, 27 cards, a limit: the heuristic iterations stop at depth 27 - 12 = 15
    # (ANYTIME_HORIZON_CARDS) and the exact search takes over; with the deeper
    # iterations, 16 M nodes reach depth 17 (about 10 M nodes) first
    from crowns_solver.cross_kings.solver import ANYTIME_HORIZON_CARDS

    pos = random_position(1, 27)
    assert pos.cards_left == 27
    sol = solve(pos, node_limit=16_000_000)
    assert sol.depth == 27 - ANYTIME_HORIZON_CARDS["open"] == 15
    assert sol.stopped == "nodes" and sol.nodes > 15_000_000
    assert sol.lower <= sol.value <= sol.upper


@pytest.mark.parametrize("mode", MODES)
def test_score_prefetch_does_not_change_the_search(mode):
    # prefetching the leaf-score cache entry in the move maker is a hint to the CPU only:
    # the same values and the same number of nodes with it on or off
    for seed in range(6):
        pos = random_position(seed, 14 if mode == "open" else 11)
        cards_bytes, root = _engine_input(pos, mode)
        out = []
        for on in (0, 1):
            eng = _ck_search.Engine(cards_bytes, MODES.index(mode), 0, 0, 1 << 20)
            eng.prefetch_score = on
            v, proven, _ = eng.search(root, 99, -_ck_search.INF_VALUE, _ck_search.INF_VALUE)
            out.append((v, proven, eng.nodes))
        assert out[0] == out[1] and out[0][1], (seed, out)


@pytest.mark.parametrize("objective", OBJECTIVES)
def test_table_grows_without_losing_entries(objective):
    # the main table starts at 4 MB in use and doubles as it fills (entries move to the
    # new half): storing at nearly every node (tt_min_cards 2) makes it grow during
    # these solves, and every value must equal plain alpha-beta without any table
    inf = _ck_search.INF_VALUE
    grown = 0
    for seed in range(4):
        pos = random_position(seed, 20 if objective == "margin" else 21)
        cards_bytes, root = _engine_input(pos, "open")
        obj = OBJECTIVES.index(objective)
        eng = _ck_search.Engine(cards_bytes, 0, obj, 0, 64 << 20)
        assert eng.table_bytes_in_use == 4 << 20
        eng.tt_min_cards = 2
        v, proven, _ = eng.search(root, 99, -inf, inf)
        # null-window probes around the value reuse the grown table's bounds
        assert eng.search(root, 99, v - 1, v)[0] >= v and eng.search(root, 99, v, v + 1)[0] <= v
        plain = _ck_search.Engine(cards_bytes, 0, obj, 0, 1 << 20)
        plain.ordering = plain.history_on = 0
        plain.tt_min_cards = 99
        assert proven and v == plain.search(root, 99, -inf, inf)[0], seed
        assert eng.table_bytes_in_use <= eng.table_bytes
        grown += eng.table_bytes_in_use > 4 << 20
    assert grown >= 2


@pytest.mark.parametrize("objective", OBJECTIVES)
@pytest.mark.parametrize("reach", REACHES)
def test_lean_last_plies_equal_plain_alpha_beta(objective, reach):
    # open mode's last plies (at most lean_cards cards left, below the table) run in a
    # lean loop: every position's value, with it on (default) or off, equals plain
    # alpha-beta with no table, ordering or cut-offs; null-window probes agree too
    inf = _ck_search.INF_VALUE
    obj, rc = OBJECTIVES.index(objective), REACHES.index(reach)
    for seed in range(6):
        pos = random_position(100 + seed, 16, reach)
        cards_bytes, root = _engine_input(pos, "open")
        plain = _ck_search.Engine(cards_bytes, 0, obj, rc, 1 << 20)
        plain.ordering = plain.history_on = plain.end_cut = 0
        plain.tt_min_cards = 99
        plain.lean_cards = 0
        want = plain.search(root, 99, -inf, inf)[0]
        for lean in (10, 0):
            eng = _ck_search.Engine(cards_bytes, 0, obj, rc, 1 << 20)
            assert eng.lean_cards == 10   # the default
            eng.lean_cards = lean
            v, proven, _ = eng.search(root, 99, -inf, inf)
            assert proven and v == want, (seed, lean)
            assert eng.search(root, 99, want - 1, want)[0] >= want
            assert eng.search(root, 99, want, want + 1)[0] <= want


def _scaled_oracle_value(eng, root, value, objective):
    """The oracle's value (points, or win points) in the engine's units at `root`."""
    scale = eng.scale(root)
    want = value * scale if objective == "margin" else (2 * value - 1) * scale
    assert want.denominator == 1
    return int(want)


@pytest.mark.parametrize("mode", ("open", "game"))
@pytest.mark.parametrize("objective", OBJECTIVES)
@pytest.mark.parametrize("reach", REACHES)
def test_mobility_ordering_keeps_values_exact(mode, objective, reach):
    # move ordering by the opponent's mobility (mob_w, on by default) changes only the
    # order of moves: with it off, on and heavily weighted, the full-window value equals
    # the plain (expecti)minimax oracle and null-window probes at the value fail on the
    # right side
    inf = _ck_search.INF_VALUE
    obj, rc = OBJECTIVES.index(objective), REACHES.index(reach)
    for seed in range(5):
        pos = random_position(4241 + 17 * seed, 11 if mode == "open" else 9, reach)
        value, _, _ = solve_plain(pos, mode, objective)
        cards_bytes, root = _engine_input(pos, mode)
        for w in (0, 2, 10, 40):
            eng = _ck_search.Engine(cards_bytes, 0 if mode == "open" else 1, obj, rc, 1 << 20)
            assert eng.mob_w == (2 if reach == "any" else 10)   # the default
            eng.mob_w = w
            want = _scaled_oracle_value(eng, root, value, objective)
            v, proven, _ = eng.search(root, 99, -inf, inf)
            assert proven and v == want, (seed, w)
            assert eng.search(root, 99, want - 1, want)[0] >= want, (seed, w)
            assert eng.search(root, 99, want, want + 1)[0] <= want, (seed, w)


@pytest.mark.parametrize("mode", ("open", "game"))
@pytest.mark.parametrize("objective", OBJECTIVES)
@pytest.mark.parametrize("reach", REACHES)
def test_enhanced_transposition_cutoff_keeps_values_exact(mode, objective, reach):
    # the enhanced transposition cut-off (etc, on by default in open mode) fails a node high from a
    # child's table entry before searching; with the table used down to 3 cards left (so
    # small positions have entries to cut from) and probes at several thresholds in one
    # engine, every value still equals the plain (expecti)minimax oracle, and the cut-off
    # does happen (else this test would check nothing)
    inf = _ck_search.INF_VALUE
    obj, rc = OBJECTIVES.index(objective), REACHES.index(reach)
    cuts = 0
    # under reach "nearest" transpositions are rarer: larger positions
    size = (13 if mode == "open" else 9) + 2 * (reach == "nearest")
    for seed in range(6):
        pos = random_position(5311 + 29 * seed, size, reach)
        value, _, _ = solve_plain(pos, mode, objective)
        cards_bytes, root = _engine_input(pos, mode)
        for etc in (0, 1):
            eng = _ck_search.Engine(cards_bytes, 0 if mode == "open" else 1, obj, rc, 1 << 20)
            assert eng.etc == (mode == "open")   # the default: open mode only
            eng.etc = etc
            eng.tt_min_cards = eng.tt_min_cards_game = 3
            want = _scaled_oracle_value(eng, root, value, objective)
            scale = eng.scale(root)
            for t in (want - 2 * scale, want + scale, want, want + 1, want - scale):
                v, _, _ = eng.search(root, 99, t - 1, t)
                assert (v >= t) == (want >= t), (seed, etc, t)
            v, proven, _ = eng.search(root, 99, -inf, inf)
            assert proven and v == want, (seed, etc)
            if etc:
                cuts += eng.etc_cuts
            else:
                assert eng.etc_cuts == 0
    assert cuts > 0


def test_time_limit_stops_the_search():
    # a whole deal in game mode is far beyond an exact solve: only the time limit ends it
    sol = solve(Deal.random(2), mode="game", time_limit=0.5, tt_mb=4)
    assert not sol.exact and sol.stopped == "time"
    assert sol.lower <= sol.value <= sol.upper


# ---------------------------------------------------------------- bad input


def test_open_mode_needs_known_cards():
    save = (
        "??7S6H2H8H??/5H6C3SAHKH7C/3C8C??KC5D4C/4HAD??7D2D5S/7H4DKD6D6S8S/5C3D4SKS2S2C"
        "//ASAC8D3H//301273969908864214574189716"
    )
    pos = Position.from_save_string(save)
    with pytest.raises(UnknownCardError, match=r"face-down cards are unknown .*mode='game'"):
        solve(pos)
    assert solve(pos, mode="game").exact


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"mode": "dummy"}, "mode must be"),
        ({"objective": "points"}, "objective must be"),
        ({"tt_mb": 0}, "tt_mb must be a number of MB from 1 to 65536, got 0"),
        ({"tt_mb": "big"}, "tt_mb must be a number"),
        ({"tt_mb": float("nan")}, "tt_mb must be a number"),
        ({"time_limit": -1}, "time_limit must be a positive"),
        ({"time_limit": "soon"}, "time_limit must be a number"),
        ({"node_limit": 0}, "node_limit must be a positive"),
        ({"node_limit": 2.5}, "node_limit must be a positive"),
        ({"all_moves": "yes"}, "all_moves must be"),
    ],
)
def test_bad_options(kwargs, message):
    with pytest.raises(SolverOptionError, match=message):
        solve(random_position(1, 8), **kwargs)


def test_not_a_position():
    with pytest.raises(PositionError, match="takes a Position"):
        solve(42)  # type: ignore[arg-type]


@given(
    mode=st.one_of(st.sampled_from(MODES), st.text(max_size=5), st.integers()),
    objective=st.one_of(st.sampled_from(OBJECTIVES), st.text(max_size=5), st.none()),
    tt_mb=st.one_of(st.integers(-5, 5), st.floats(allow_nan=True), st.text(max_size=3)),
    time_limit=st.one_of(st.none(), st.floats(max_value=1e-3), st.just(float("nan")), st.integers(-3, 0)),
)
def test_random_options_raise_crowns_errors_or_solve(mode, objective, tt_mb, time_limit):
    pos = random_position(2, 7)
    try:
        sol = solve(pos, mode=mode, objective=objective, tt_mb=tt_mb, time_limit=time_limit)
    except CrownsError:
        return
    assert sol.lower <= sol.value <= sol.upper



@pytest.mark.parametrize("budget", [65536, 65537, 65536 + 127, 65536 + 128, 70_000, 100_000, 3 << 20])
def test_engine_memory_fits_small_budgets(budget):
    # the game-mode table for the last plies comes out of the budget too, never below the
    # 64 KB minimum (a budget just above it once made the size computation loop forever)
    deal = Deal.random(5)
    cards_bytes, root = _engine_input(deal.position(), "game")
    eng = _ck_search.Engine(cards_bytes, 1, 0, 0, budget)
    # the table and the score cache each get at least 32 KB; the two never exceed the
    # budget (at 64 KB to 64 KB + 63 bytes the cache took 64 KB beside a 64-byte table)
    assert eng.table_bytes >= 32768 and eng.score_cache_bytes >= 32768
    assert eng.table_bytes + eng.score_cache_bytes <= budget
    assert eng.moves(root)

_STATE = st.tuples(*(st.integers(-(2**70), 2**70) for _ in range(9)))


@given(cards=st.binary(max_size=40), mode=st.integers(-2, 3), obj=st.integers(-2, 3),
       reach=st.integers(-2, 3), tt=st.integers(-(2**20), 2**21))
def test_engine_constructor_refuses_bad_input(cards, mode, obj, reach, tt):
    try:
        _ck_search.Engine(cards, mode, obj, reach, tt)
    except (ValueError, OverflowError, MemoryError):
        pass


@given(state=st.one_of(_STATE, st.tuples(*(st.integers(-2, 40) for _ in range(9))),
                       st.tuples(st.integers(0, 2**36 - 1), st.integers(0, 2**36 - 1), st.integers(0, 2**36 - 1),
                                 st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1), st.integers(0, 5),
                                 st.integers(0, 5), st.integers(-1, 36), st.integers(0, 1))),
       cell=st.integers(-100, 100), mode=st.integers(0, 1))
def test_engine_entry_points_refuse_malformed_states(state, cell, mode):
    deal = Deal.random(4)
    cards_bytes, _ = _engine_input(deal.position(), "open" if mode == 0 else "game")
    eng = _ck_search.Engine(cards_bytes, mode, 0, 0, 1 << 16)
    eng.set_limits(0.0, 20_000)  # a malformed but accepted state must still stop
    for call in (
        lambda: eng.moves(state),
        lambda: eng.bounds(state),
        lambda: eng.heuristic(state),
        lambda: eng.search(state, 3, -10, 10),
        lambda: eng.search_move(state, cell, 3, -10, 10),
        lambda: eng.child(state, cell, 0),
        lambda: eng.is_chance(state, cell),
        lambda: eng.scale(state),
        lambda: eng.pool_cards(state),
        lambda: eng.terminal_value(state),
        lambda: eng.tt_move(state),
        lambda: eng.tt_bounds(state),
    ):
        try:
            call()
        except (ValueError, OverflowError, TypeError):
            pass


# ---------------------------------------------------------------- memory and Ctrl-C


def _run_python(code: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd="/", preexec_fn=sigint_default, **kwargs,
    )


def test_memory_is_the_table_plus_a_small_constant():
    code = """
        import json
        from crowns_solver.cross_kings import Deal, solve

        def status(key):
            for line in open("/proc/self/status"):
                if line.startswith(key):
                    return int(line.split()[1]) / 1024  # MB

        solve(Deal.random(9), node_limit=20_000, tt_mb=1)     # warm up: imports, first allocations
        out = {}
        for tt_mb, nodes in ((16, 400_000), (16, 1_600_000), (64, 1_600_000)):
            base = status("VmRSS")
            open("/proc/self/clear_refs", "w").write("5")   # reset the peak
            sol = solve(Deal.random(9), node_limit=nodes, tt_mb=tt_mb)
            out[f"{tt_mb}/{nodes}"] = [status("VmHWM") - base, sol.table_used, sol.table_entries]
        print(json.dumps(out))
    """
    proc = _run_python(code)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    growth = json.loads(out)
    for key, (mb, used, entries) in growth.items():
        tt_mb = int(key.split("/")[0])
        assert mb <= tt_mb + 6, (key, mb)   # the table, plus the 1 MB score cache and slack
    # four times the nodes, same table: no growth beyond the table
    assert growth["16/1600000"][0] <= 16 + 6
    assert growth["16/1600000"][1] > growth["16/400000"][1] * 0.9


def test_ctrl_c_returns_what_is_proven():
    code = """
        import json, sys
        from crowns_solver.cross_kings import Deal, solve
        print("started", flush=True)
        sol = solve(Deal.random(11), tt_mb=8)   # no limit: only Ctrl-C stops it
        print(json.dumps({"stopped": sol.stopped, "exact": sol.exact, "lower": str(sol.lower),
                          "upper": str(sol.upper), "best": sol.best_move, "nodes": sol.nodes}))
    """
    proc = _run_python(code)
    assert proc.stdout.readline().strip() == "started"
    time.sleep(1.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    data = json.loads(out)
    assert data["stopped"] == "interrupted" and data["exact"] is False
    assert Fraction(data["lower"]) <= Fraction(data["upper"]) and data["nodes"] > 0
    assert tuple(data["best"]) in {(2, 2), (2, 3), (3, 2), (3, 3)}


def test_cli_ctrl_c_prints_the_partial_result():
    proc = subprocess.Popen(
        [sys.executable, "-m", "crowns_solver", "cross-kings", "solve", "--random", "3", "--time-limit", "600"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd="/", preexec_fn=sigint_default,
    )
    time.sleep(5)   # past the imports (slow on a loaded CI machine): the search is running
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert "interrupted" in out and "proven" in out
    assert "Traceback" not in err


def test_a_stopped_solve_lists_the_preferred_move_first_and_credits_its_proven_bound():
    # under a node limit: the move the search prefers comes first with the root's
    # estimate, and the move that proved the root's lower bound carries that bound
    # (moves known only by their bounds follow, whatever their upper bounds)
    rng_positions = [_bench_position(22, 1), _bench_position(24, 1), _bench_position(28, 0)]
    for pos in rng_positions:
        sol = solve(pos, node_limit=2_000_000)
        assert not sol.exact
        assert sol.moves[0].cell == sol.best_move and sol.moves[0].value is not None
        assert sol.moves[0].value == sol.value
        assert max(m.lower for m in sol.moves) == sol.lower
        valued = [m.value is not None for m in sol.moves]
        assert valued == sorted(valued, reverse=True)
        assert all(m.lower <= m.upper <= sol.upper for m in sol.moves)


def _bench_position(left: int, j: int) -> Position:
    """The benchmark's position (benchmarks/bench_cross_kings_solve.py, seeds from 2024)."""
    rng = np.random.default_rng(2024 + 1000 * left + j)
    pos = Position.random(rng, "any")
    while pos.cards_left > left or pos.marker is None:
        moves = pos.legal_moves()
        assert moves
        pos = pos.play(moves[int(rng.integers(len(moves)))])
    return pos
