"""Game mode's chance-node search options against the plain expectiminimax oracle.

The null-window split at chance nodes (`split`), principal variation search (`pvs`) and
the game-mode root driver must stay exact: every null-window question "is the value at
least t?" gets the right answer with a sound fail-soft bound, and full solves equal the
oracle, on random small positions, both objectives, both reach options.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from ck_oracle import solve_plain
from test_cross_kings_solver import random_position

from crowns_solver import _ck_search
from crowns_solver.cross_kings import solve
from crowns_solver.cross_kings import solver as solver_module
from crowns_solver.cross_kings.solver import _engine_input

OBJECTIVES = ("margin", "win")
REACHES = ("any", "nearest")
# engine settings: the split with many searches per card, with one (then Star1 takes over
# with the narrowed bounds), both estimates, the three card orders, with and without PVS
# and Star2, and under windows wider than null
SETTINGS = (
    {"split": 50, "pvs": 1, "split_skip": 0, "split_est": 0, "split_order": 0},
    {"split": 10, "pvs": 1, "split_skip": 1, "split_order": 1},
    {"split": 10, "pvs": 1, "split_skip": 1, "split_order": 2},
    {"split": 1, "pvs": 1, "split_skip": 1},
    {"split": 50, "pvs": 2, "star2": 0, "split_skip": 1},
    {"split": 2, "pvs": 0, "split_max_f": 3, "split_skip": 1},
    {"split": 10, "pvs": 1, "pvs_max_f": 3, "split_skip": 1},
    {"split": 10, "split_width": 1 << 30},   # the split also under wide windows
    {"split": 0, "pvs": 1},
)


def _scaled(value: Fraction, eng, state, objective: str) -> int:
    """The oracle's value in the engine's units (mover's view, scale f!, x WIN for win)."""
    scale = eng.scale(state)
    x = value * scale if objective == "margin" else (2 * value - 1) * scale
    assert x.denominator == 1
    return int(x)


@pytest.mark.parametrize("reach", REACHES)
@pytest.mark.parametrize("objective", OBJECTIVES)
def test_null_window_answers_match_the_oracle(objective, reach):
    # 10 positions x 5 settings x 6 thresholds: the answer's side and its bound are sound
    checked = split_used = 0
    for seed in range(10):
        pos = random_position(7919 * seed + 3, 10, reach)
        if len(pos.face_down) < 3:
            continue
        value, _, _ = solve_plain(pos, "game", objective)
        cards, state = _engine_input(pos, "game")
        for setting in SETTINGS:
            eng = _ck_search.Engine(cards, 1, OBJECTIVES.index(objective), REACHES.index(reach), 1 << 20)
            for k, x in setting.items():
                setattr(eng, k, x)
            v = _scaled(value, eng, state, objective)
            unit = eng.scale(state) // (_ck_search.WIN if objective == "win" else 1)
            for t in (v, v + 1, v - 1, v + unit, v - unit, v + 3 * unit):
                eng.new_generation()
                r, proven, _ = eng.search(state, 99, t - 1, t)
                assert proven
                if r >= t:
                    assert v >= r, (seed, setting, t, r, v)
                else:
                    assert v <= r, (seed, setting, t, r, v)
            # a window around the value, and a wide one, give the exact value
            r, proven, _ = eng.search(state, 99, v - 2 * unit - 1, v + unit + 2)
            assert proven and r == v, (seed, setting)
            r, proven, _ = eng.search(state, 99, -_ck_search.INF_VALUE, _ck_search.INF_VALUE)
            assert proven and r == v, (seed, setting)
            checked += 1
            if setting["split"]:
                split_used += eng.split_probes
    assert checked >= 20
    assert split_used > 0   # the split was exercised, not bypassed


@pytest.mark.parametrize("wide", [True, False])
@pytest.mark.parametrize("reach", REACHES)
def test_game_root_driver_equals_the_oracle(wide, reach, monkeypatch):
    # the root's wide window and its null-window bisection (first probe at the guess)
    monkeypatch.setattr(solver_module, "GAME_WIDE", wide)
    for seed in range(8):
        pos = random_position(104_729 * seed + 11, 9, reach)
        for objective in OBJECTIVES:
            value, move_values, _ = solve_plain(pos, "game", objective)
            sol = solve(pos, mode="game", objective=objective, tt_mb=1)
            assert sol.exact and sol.value == value, (seed, objective)
            for m in sol.moves:
                assert m.lower <= move_values[m.cell[0] * 6 + m.cell[1]] <= m.upper
