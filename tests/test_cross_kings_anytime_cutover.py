"""Cross Kings: one place decides whether a solve gets the anytime analysis
(``solver._anytime``: more cards left than ``ANYTIME_CARDS`` and, in game mode, a limit);
the iteration plan and the parallel solve's route both follow it."""

from __future__ import annotations

import pytest
from test_cross_kings_solver import random_position

from crowns_solver.cross_kings import parallel
from crowns_solver.cross_kings import solver as _solver


@pytest.mark.parametrize("mode", ["open", "game"])
@pytest.mark.parametrize("left", [16, 20, 24, 27])
@pytest.mark.parametrize("limited", [False, True])
def test_the_cut_over_is_the_limit_and_the_cards_left(mode, left, limited):
    pos = random_position(left, left)
    # open mode deepens first with or without a limit (session 20)
    assert _solver._anytime(pos, mode, limited) == (
        (limited or mode == "open") and pos.cards_left > _solver.ANYTIME_CARDS[mode])


@pytest.mark.parametrize("mode", ["open", "game"])
@pytest.mark.parametrize("anytime", [False, True])
def test_plan_and_route_follow_the_one_decision(mode, anytime, monkeypatch):
    # the decision patched both ways: the plan and the route must follow it, whatever the
    # cards left (they used to compare with ANYTIME_CARDS each on their own)
    monkeypatch.setattr(_solver, "_anytime", lambda pos, mode, limited: anytime)
    for seed, left in ((1, 18), (2, 22), (3, 27)):
        pos = random_position(seed, left)
        first, last, deepest = _solver._iteration_plan(pos, mode, True)
        shallow = min(_solver.PRE_DEPTH, pos.cards_left - 1)
        # open mode deepens to 12 cards before the end whatever the decision (session 20)
        assert last == (deepest if anytime or mode == "open" else shallow)
        if mode == "open":
            assert deepest == max(shallow, min(pos.cards_left - 12, pos.cards_left - 1))
        route, _ = parallel._route(pos, mode, False, True)
        # open mode: the workers live through the deepening whatever the decision (session 20)
        assert (route == "anytime") == ((anytime or mode == "open") and deepest > first)
