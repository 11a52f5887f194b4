"""The solver against a brute force that uses none of the library's scoring or search
(session-19 probe).

tests/ck_oracle.py's plain minimax / expectiminimax (moves written from RULES.md "Move",
exact Fractions) scores hands with the compiled scorer by default; here it is given a
scorer that tries every placement of the Kings (RULES.md, "Scoring one hand").  Positions are
reached by seeded random play and, in game mode, stripped of what the face-down cells
hold (as a save string shows them).  Then every move of an all-moves table is checked
against a solve of the position it leads to (every card a face-down move may reveal too),
on positions beyond the brute force's reach.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from itertools import combinations

import numpy as np
import pytest
from ck_oracle import flip, solve_plain

from crowns_solver.cross_kings import Position, solve
from crowns_solver.cross_kings.play import public_position

SUITS, RANKS = "SHDC", "A2345678"
DECK = [r + s for s in SUITS for r in RANKS] + ["K" + s for s in SUITS]
CENTRAL = (14, 15, 20, 21)
CENTRAL_CELLS = [divmod(c, 6) for c in CENTRAL]


@lru_cache(maxsize=None)
def score(hand: frozenset[int]) -> int:
    """RULES.md scoring by brute force: every set of distinct natural cards the hand does
    not hold may be stood for by that many Kings (the rest unplaced); runs are maximal
    blocks of one suit, sets all cards of a rank; a group of n >= 3 scores 2n - 3 less
    one per King in it."""
    natural = {(c // 8, c % 8) for c in hand if c < 32}
    kings = sum(1 for c in hand if c >= 32)
    free = [(s, r) for s in range(4) for r in range(8) if (s, r) not in natural]
    best = 0
    for n in range(kings + 1):
        for placed in combinations(free, n):
            cards = natural | set(placed)
            groups = [[(s, r) for s in range(4) if (s, r) in cards] for r in range(8)]
            for s in range(4):
                run: list = []
                for r in range(9):
                    if r < 8 and (s, r) in cards:
                        run.append((s, r))
                    else:
                        groups.append(run)
                        run = []
            total = sum(2 * len(g) - 3 - sum(1 for x in g if x in placed) for g in groups if len(g) >= 3)
            best = max(best, total)
    return best


def brute_force(pos: Position, mode: str, objective: str):
    """(value, {(row, col): value}, {(row, col): {card: value}}) for the player to move:
    tests/ck_oracle.py's plain minimax / expectiminimax with the brute-force scorer above."""
    value, mv, cv = solve_plain(pos, mode, objective, score=score)
    return value, {divmod(m, 6): v for m, v in mv.items()}, {divmod(m, 6): v for m, v in cv.items()}


def reached(seed: int, cards_left: int, reach: str, mode: str) -> Position:
    """A position reached by seeded random play from a random deal and start cell."""
    rng = np.random.default_rng(seed)
    pos = Position.random(seed, reach).play(CENTRAL_CELLS[int(rng.integers(4))])
    while pos.cards_left > cards_left and not pos.is_terminal():
        moves = pos.legal_moves()
        pos = pos.play(moves[int(rng.integers(len(moves)))])
    return public_position(pos) if mode == "game" else pos


def test_the_independent_scorer_agrees_with_the_rules_worked_examples():
    # RULES.md "Worked examples", so the brute force is itself checked against the rules
    def s(*cards):
        return score(frozenset(DECK.index(c) for c in cards))

    assert s("3H", "4H", "5H") == 3
    assert s("2S", "3S", "4S", "5S", "6S", "5H", "5D") == 10
    assert s("AH", "2H", "KS") == 2
    assert s("4S", "4H", "4D", "KS", "KH") == 4


@pytest.mark.parametrize("reach", ["any", "nearest"])
@pytest.mark.parametrize("mode, cards_left", [("open", 8), ("game", 7)])
def test_solve_equals_an_independent_brute_force(mode, cards_left, reach):
    checked = 0
    for seed in range(12):
        pos = reached(seed, cards_left, reach, mode)
        if pos.is_terminal():
            continue
        for objective in ("margin", "win"):
            value, move_values, card_values = brute_force(pos, mode, objective)
            sol = solve(pos, mode=mode, objective=objective, all_moves=True)
            assert sol.exact and sol.value == value
            assert sol.move_values == move_values
            assert sol.card_values == card_values
            assert set(sol.best_moves) == {m for m, v in move_values.items() if v == value}
            one = solve(pos, mode=mode, objective=objective)
            assert one.value == value and move_values[one.best_move] == value
            checked += 1
    assert checked >= 16   # most seeds give a live position


@pytest.mark.parametrize("mode, cards_left", [("open", 14), ("game", 11)])
def test_every_listed_move_equals_a_solve_of_the_position_it_leads_to(mode, cards_left):
    for seed, reach, objective in ((0, "any", "margin"), (1, "nearest", "win"), (2, "any", "win"),
                                   (3, "nearest", "margin")):
        pos = reached(seed, cards_left, reach, mode)
        assert not pos.is_terminal()
        sol = solve(pos, mode=mode, objective=objective, all_moves=True)
        assert sol.value == max(m.value for m in sol.moves)
        for m in sol.moves:
            if m.card_values is None:
                child = solve(pos.play(m.cell), mode=mode, objective=objective)
                assert flip(child.value, objective) == m.value, (seed, m.cell)
                continue
            assert sorted(m.card_values) == sorted(pos.unseen)
            for card, v in m.card_values.items():
                child = solve(pos.play(m.cell, card), mode=mode, objective=objective)
                assert flip(child.value, objective) == v, (seed, m.cell, card)
            assert sum(m.card_values.values(), Fraction(0)) / len(m.card_values) == m.value
