"""Session 21 robustness audit: the gaps left by test_hypothesis_entry_points.py.

Every ``def`` of ``ext/*.pyx`` and every parser of user input was checked for a test
throwing random and malformed input at it (the list is in test_hypothesis_entry_points's
docstring).  These were missing or found a fault:

- ``_ck_search.Engine.search`` / ``search_move``: the window was converted to int64 and
  used as given.  alpha = -2**63 overflowed the negamax's negation and gave a move a wrong
  value marked proven; an inverted window (alpha > beta) gave a "proven" value that bounds
  nothing; 0.5 was cut to 0; a depth of -2**31 wrapped around to a full search.  The
  window is now checked (whole numbers, -MAX_WINDOW <= alpha < beta <= MAX_WINDOW) and a
  negative depth is depth 0.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import crowns_solver.kings_crowns as kc
from crowns_solver import _ck_search, _fc_game, _fc_melds, _kc_engine
from crowns_solver.errors import CrownsError

INF = _ck_search.INF_VALUE
WIN = _ck_search.MAX_WINDOW
REFUSED = (ValueError, TypeError, OverflowError)
SOME = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))


def _child(code: str, **kw) -> subprocess.Popen:
    """`code` in a fresh interpreter (a crash or hang fails the test, not pytest)."""
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd="/", **kw)


# --------------------------------------------------------------------------- _ck_search windows

def _endgame(seed: int, objective: int, reach: int, left: int):
    """An open-mode engine and a state with `left` cards or fewer still to take."""
    rng = np.random.default_rng(seed)
    perm = [int(x) for x in rng.permutation(36)]
    eng = _ck_search.Engine(bytes(perm), 0, objective, reach, 1 << 16)
    s = (2**36 - 1, 0, 0, 0, 0, 0, 0, -1, seed % 2)
    for _ in range(36 - left):
        moves = eng.moves(s)
        if not moves:
            break
        s = eng.child(s, moves[int(rng.integers(len(moves)))])
    return perm, eng, s


def _exact(perm, objective, reach, method, *args):
    eng = _ck_search.Engine(bytes(perm), 0, objective, reach, 1 << 16)
    eng.set_limits(0.0, 0)
    return getattr(eng, method)(*args, 64, -INF, INF)[0]


BOUNDS = st.one_of(
    st.integers(-40, 40), st.integers(-(2**63), 2**63 - 1), st.integers(-WIN - 2, -WIN + 2), st.integers(WIN - 2, WIN + 2),
    st.sampled_from([-INF, INF, -(2**63), 2**63 - 1, 2**64]), st.floats(-50, 50), st.floats(allow_nan=True),
)


@SOME
@given(st.integers(0, 2**32 - 1), st.integers(0, 1), st.integers(0, 1), st.integers(2, 8), BOUNDS, BOUNDS)
def test_ck_search_window_is_checked_and_values_bound_the_exact_value(seed, objective, reach, left, alpha, beta):
    """Self-validating: a window of whole numbers -MAX_WINDOW <= alpha < beta <=
    MAX_WINDOW is taken, any other refused; a value the search returns is fail-soft:
    at most alpha means the exact value is at most it, at least beta at least it, and in
    between it is the exact value (the old code, given alpha = -2**63, gave a move a
    wrong value marked proven, and an inverted window a value that bounded nothing)."""
    perm, eng, s = _endgame(seed, objective, reach, left)
    ok = (all(float(x).is_integer() for x in (alpha, beta)) and -WIN <= alpha < beta <= WIN)
    eng.set_limits(0.0, 0)
    got = None
    try:
        got = eng.search(s, 64, alpha, beta)
    except REFUSED:
        pass
    assert (got is not None) == ok, (alpha, beta, got)
    checks = [] if got is None else [(got[0], _exact(perm, objective, reach, "search", s))]
    for cell in eng.moves(s):
        try:
            v, _ = eng.search_move(s, cell, 64, alpha, beta)
        except REFUSED:
            assert not ok
            continue
        assert ok
        checks.append((v, _exact(perm, objective, reach, "search_move", s, cell)))
    for v, exact in checks:
        if v <= alpha:
            assert exact <= v, (alpha, beta, v, exact)
        elif v >= beta:
            assert exact >= v, (alpha, beta, v, exact)
        else:
            assert v == exact, (alpha, beta, v, exact)


def test_ck_search_window_failing_examples():
    """The failing examples: alpha = -2**63 gave move 1 the value -8 (proven) where it is
    -10; the inverted window (5, -5) gave -5 (proven) where the value is -3."""
    perm, eng, s = _endgame(1, 0, 0, 6)
    for alpha, beta in [(-(2**63), 2**63 - 1), (5, -5), (3, 3), (0.5, 2.5), (-(2**62), 2**62)]:
        with pytest.raises(ValueError, match="the search window must be whole numbers"):
            eng.search(s, 64, alpha, beta)
        with pytest.raises(ValueError, match="the search window must be whole numbers"):
            eng.search_move(s, eng.moves(s)[0], 64, alpha, beta)
    eng.set_limits(0.0, 0)
    assert eng.search(s, 64, -WIN, WIN) == eng.search(s, 64, -INF, INF)
    assert eng.search(s, 64, 3.0, 4.0)[0] == eng.search(s, 64, 3, 4)[0]


@pytest.mark.parametrize("depth", [-1, -5, -(2**31) + 1, -(2**31)])
def test_ck_search_negative_depth_is_the_horizon_not_a_full_search(depth):
    """search_move(depth=-2**31) took depth - 1, which wrapped around to 2**31 - 1: a
    full search (hours from a full deal; here stopped by a node limit).  A negative
    depth is depth 0: the horizon, one node."""
    perm, eng, s = _endgame(1, 0, 0, 24)
    cell = eng.moves(s)[0]
    eng.set_limits(0.0, eng.nodes + 100_000)
    at_zero = eng.search_move(s, cell, 0, -INF, INF)
    n0 = eng.nodes
    assert eng.search_move(s, cell, depth, -INF, INF) == at_zero
    assert eng.search(s, depth, -INF, INF) == eng.search(s, 0, -INF, INF)
    assert eng.nodes - n0 <= 4 and not eng.stop
