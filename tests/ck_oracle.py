"""Plain Cross Kings minimax / expectiminimax, written literally from RULES.md.

Used only by the tests as an independent oracle for the solver: no pruning, no table, no
bounds, exact Fractions.  Moves follow RULES.md "Move" (reach "any" and "nearest"), the
open value is plain minimax over the known deal, the game value averages over every
unseen card when a face-down cell is taken.  Hands are scored with the compiled scorer
(itself checked against brute force in test_cross_kings_score.py) unless a `score`
function is given (test_cross_kings_independent_check.py gives its own brute force).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from crowns_solver import _ck_score
from crowns_solver.cross_kings import Position
from crowns_solver.cross_kings.cards import DECK

CENTRAL = (14, 15, 20, 21)


@lru_cache(maxsize=None)
def _score(hand: frozenset[int]) -> int:
    nat = sum(1 << c for c in hand if c < 32)
    return _ck_score.score_mask(nat, sum(1 for c in hand if c >= 32))


def legal(grid: dict[int, int | None], marker: int | None, reach: str) -> list[int]:
    """Cells the player to move may take; `grid` maps cells still holding a card."""
    if marker is None:
        return [c for c in CENTRAL]
    r0, c0 = divmod(marker, 6)
    if reach == "any":
        return sorted(c for c in grid if c != marker and (c // 6 == r0 or c % 6 == c0))
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        r, c = r0 + dr, c0 + dc
        while 0 <= r < 6 and 0 <= c < 6:
            if 6 * r + c in grid:
                out.append(6 * r + c)
                break
            r, c = r + dr, c + dc
    return sorted(out)


def _outcome(me: frozenset[int], other: frozenset[int], objective: str, score=_score) -> Fraction:
    d = score(me) - score(other)
    if objective == "margin":
        return Fraction(d)
    return Fraction(1) if d > 0 else Fraction(1, 2) if d == 0 else Fraction(0)


def flip(v: Fraction, objective: str) -> Fraction:
    """The opponent's view of a value."""
    return -v if objective == "margin" else 1 - v


def value(grid, marker, me, other, pool, reach, objective, score=_score) -> Fraction:
    """Value for the player to move.  grid: cell -> card (None: face down, unknown);
    `score`: frozenset of card indices -> points."""
    moves = legal(grid, marker, reach)
    if not moves:
        return _outcome(me, other, objective, score)
    return max(move_value(grid, marker, me, other, pool, reach, objective, m, score=score) for m in moves)


def move_value(grid, marker, me, other, pool, reach, objective, cell, card=None, score=_score) -> Fraction:
    """Value of taking `cell` (averaged over the unseen cards if it is face down)."""
    if marker is None:  # choosing the start cell takes no card; the other player moves next
        return flip(value(grid, cell, other, me, pool, reach, objective, score), objective)
    if grid[cell] is None and card is None:
        vals = [move_value(grid, marker, me, other, pool, reach, objective, cell, x, score) for x in sorted(pool)]
        return sum(vals, Fraction(0)) / len(vals)
    got = grid[cell] if grid[cell] is not None else card
    rest = {c: k for c, k in grid.items() if c != cell}
    new_pool = pool - {got} if grid[cell] is None else pool
    return flip(value(rest, cell, other, me | {got}, new_pool, reach, objective, score), objective)


def setup(pos: Position, mode: str):
    """(grid, marker, me, other, pool) of a Position, face-down cards hidden in game mode."""
    grid = {}
    for i in range(36):
        if i in pos.taken:
            continue
        hidden = i in pos.face_down and (mode == "game" or pos.cells[i] < 0)
        grid[i] = None if hidden else pos.cells[i]
    first, second = frozenset(pos.first_hand), frozenset(pos.second_hand)
    me, other = (first, second) if pos.to_move == "first" else (second, first)
    pool = frozenset(DECK.index(c) for c in pos.unseen) if mode == "game" else frozenset()
    return grid, pos.marker, me, other, pool


def solve_plain(pos: Position, mode: str, objective: str, score=_score):
    """(value, {cell: move value}, {cell: {card: value}}) for the player to move; cells
    are indices 0..35, cards names.  `score`: how hands are scored (default the compiled
    scorer)."""
    grid, marker, me, other, pool = setup(pos, mode)
    reach = pos.reach
    moves = legal(grid, marker, reach)
    if not moves:
        return _outcome(me, other, objective, score), {}, {}
    mv, cv = {}, {}
    for m in moves:
        mv[m] = move_value(grid, marker, me, other, pool, reach, objective, m, score=score)
        if marker is not None and grid[m] is None:
            cv[m] = {DECK[x]: move_value(grid, marker, me, other, pool, reach, objective, m, x, score)
                     for x in sorted(pool)}
    return max(mv.values()), mv, cv
