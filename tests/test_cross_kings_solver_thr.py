"""Threshold scoring at the leaves of open mode's last plies (Engine.lean_thr).

A finished game reached in the lean loop is first compared with the window through
bounds of both hands' scores (the scorer's relaxation for hands with 2 to 4 Kings); the
exact scorer runs only where the bounds leave the value inside the window.  Checked
against plain alpha-beta, and the relaxation's bounds against the exact scorer."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_cross_kings_solver import OBJECTIVES, REACHES, random_position

from crowns_solver import _ck_score, _ck_search
from crowns_solver.cross_kings.solver import _engine_input

INF = _ck_search.INF_VALUE


@given(st.integers(0, (1 << 32) - 1), st.integers(2, 4))
def test_score_interval_brackets_the_exact_score(nat, kings):
    lo, hi = _ck_search.score_interval(nat, kings)
    assert lo <= _ck_score.score_mask(nat, kings) <= hi


def test_score_interval_is_exact_for_some_hands_and_not_others():
    # where the relaxation meets its placement's value the bounds are exact; on random
    # hands of about 8 natural cards both cases occur
    import numpy as np

    rng = np.random.default_rng(3)
    exact = loose = 0
    for _ in range(3000):
        nat = int(rng.integers(0, 1 << 32)) & int(rng.integers(0, 1 << 32))
        kings = int(rng.integers(2, 5))
        lo, hi = _ck_search.score_interval(nat, kings)
        exact += lo == hi
        loose += lo < hi
    assert exact > 0 and loose > 0


@given(st.one_of(st.integers(-10, 1 << 33), st.none(), st.text(max_size=3)),
       st.one_of(st.integers(-10, 10), st.none(), st.floats()))
def test_score_interval_rejects_bad_input(nat, kings):
    good = isinstance(nat, int) and 0 <= nat < 1 << 32 and isinstance(kings, int) and 2 <= kings <= 4
    if good:
        lo, hi = _ck_search.score_interval(nat, kings)
        assert lo <= hi
    else:
        with pytest.raises((ValueError, TypeError, OverflowError)):
            _ck_search.score_interval(nat, kings)


def _plain(cards_bytes, obj, rc):
    eng = _ck_search.Engine(cards_bytes, 0, obj, rc, 1 << 20)
    eng.ordering = eng.history_on = eng.end_cut = 0
    eng.tt_min_cards = 99
    eng.lean_cards = 0
    return eng


@pytest.mark.parametrize("objective", OBJECTIVES)
@pytest.mark.parametrize("reach", REACHES)
def test_lean_threshold_equals_plain_alpha_beta(objective, reach):
    # every value with threshold scoring on (the default) or off, with the lean loop from
    # 10 or 12 cards left (12: the whole search), equals plain alpha-beta; fail-soft
    # null-window searches at and around the value, each on a fresh engine, bound it on
    # the right side; the threshold path is exercised
    obj, rc = OBJECTIVES.index(objective), REACHES.index(reach)
    step = 1 if objective == "margin" else _ck_search.WIN
    relaxed = cuts = 0
    for seed in range(24):
        pos = random_position(300 + seed, 12, reach)
        cards_bytes, root = _engine_input(pos, "open")
        want = _plain(cards_bytes, obj, rc).search(root, 99, -INF, INF)[0]
        for thr in (1, 0):
            for lean in (10, 12):
                windows = [(-INF, INF)] + [(want + k * step - 1, want + k * step) for k in range(-3, 4)]
                for alpha, beta in windows:
                    eng = _ck_search.Engine(cards_bytes, 0, obj, rc, 1 << 20)
                    assert eng.lean_thr == 1   # the default
                    eng.lean_thr = thr
                    eng.lean_cards = lean
                    v, proven, _ = eng.search(root, 99, alpha, beta)
                    where = (seed, thr, lean, alpha, beta)
                    if v >= beta:     # fail-soft lower bound
                        assert want >= v, where
                    elif v <= alpha:  # fail-soft upper bound
                        assert want <= v, where
                    else:
                        assert proven and v == want, where
                    st_ = eng.stats()
                    if thr:
                        relaxed += st_["thr_relax"]
                        cuts += st_["thr_cuts"]
                    else:
                        assert st_["thr_relax"] == st_["thr_cuts"] == 0
    assert relaxed > 0 and cuts > 0
