"""Cross Kings cells in the public API (session 23): every entry point that takes a cell
takes a number 0..35 or ``(row, col)`` through one parser (``cell_index``) and refuses
anything else with a PositionError saying ``no such cell``; what comes back keeps its
form (numbers for a Position's fields, ``(row, col)`` for moves), with the missing forms
added as ``Position.legal_indices()`` and ``Solution.move(cell)``.

The Hypothesis tests throw random and malformed cells at each entry point and check the
answer against an oracle written here from RULES.md ("cell index = 6*row + col").
"""

from __future__ import annotations

import dataclasses
import json
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import crowns_solver.cross_kings as ck
from crowns_solver.cross_kings import Position, cell_coords, cell_index, line_cells, solve
from crowns_solver.cross_kings.match import match, play_game
from crowns_solver.cross_kings.players import MoveEstimate, seat_view
from crowns_solver.cross_kings.position import cell_text
from crowns_solver.cross_kings.review import GameStep, analyse_steps, replay
from crowns_solver.cross_kings.solver import MoveValue
from crowns_solver.errors import HiddenCardError, IllegalMoveError, PositionError

# ----------------------------------------------------------------------------- the oracle


def _whole(x: object) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def oracle(value: object) -> int | None:
    """The cell number `value` names under RULES.md's numbering, or None if it is no cell:
    a whole number 0..35, or a pair (tuple, list or 1-D array of two) of whole numbers
    0..5 given as (row, col)."""
    if _whole(value):
        return int(value) if 0 <= value < 36 else None   # type: ignore[operator]
    if isinstance(value, np.ndarray):
        if value.shape != (2,):
            return None
        value = list(value)
    if isinstance(value, (tuple, list)) and len(value) == 2 and all(_whole(v) for v in value):
        r, c = value
        return 6 * int(r) + int(c) if 0 <= r < 6 and 0 <= c < 6 else None
    return None


_ints = st.integers(-40, 80) | st.integers(-(2**70), 2**70)
_np_ints = st.builds(lambda v, t: t(v % 256 if t is np.uint8 else v), st.integers(-3, 40),
                     st.sampled_from([np.int8, np.int64, np.uint8]))
_scalars = (_ints | _np_ints | st.booleans() | st.just(np.True_) | st.floats(allow_nan=True)
            | st.text(max_size=4) | st.none() | st.binary(max_size=2))
#: what a caller might pass as a cell: good ones of both forms and every kind of bad one
CELLS = st.one_of(
    st.integers(0, 35),
    st.tuples(st.integers(0, 5), st.integers(0, 5)),
    st.lists(st.integers(0, 5), min_size=2, max_size=2),
    st.builds(lambda r, c: np.array([r, c]), st.integers(-1, 6), st.integers(-1, 6)),
    _scalars,
    st.tuples(_scalars, _scalars),
    st.lists(_scalars, max_size=3),
    st.tuples(st.integers(-2, 7), st.integers(-2, 7), st.integers(0, 5)),
    st.sets(st.integers(0, 5), max_size=2),
    st.dictionaries(st.integers(0, 5), st.integers(0, 5), max_size=2),
    st.builds(lambda v: np.float64(v), st.integers(0, 35)),
)


def refused(call, value) -> None:
    with pytest.raises(PositionError, match="no such cell"):
        call(value)


# a fixed game in progress: marker on (2,4), first to move; and its solution
POS = Position.random(7).play((2, 2)).play((2, 4))
FRESH = Position.random(7)
ENDGAME = Position.random(3).play((2, 2))
while ENDGAME.cards_left > 14:
    ENDGAME = ENDGAME.play(ENDGAME.legal_moves()[0])
SOLUTION = solve(ENDGAME, all_moves=True)


# ----------------------------------------------------------------------------- conversions


def test_both_forms_name_the_same_cell_in_every_conversion():
    for i in range(36):
        r, c = divmod(i, 6)   # RULES.md: cell index = 6*row + col
        for form in (i, np.int64(i), (r, c), [r, c], np.array([r, c]), (np.int8(r), np.uint8(c))):
            assert cell_index(form) == i
            assert cell_coords(form) == (r, c) and all(type(x) is int for x in cell_coords(form))
            assert line_cells(form) == line_cells(i)
            assert cell_text(form) == f"({r},{c})"
    # line_cells by brute force: the 10 other cells of the row and the column
    assert line_cells((2, 3)) == sorted(({6 * 2 + x for x in range(6)} | {6 * y + 3 for y in range(6)}) - {15})


def test_pairs_were_refused_by_cell_coords_and_line_cells():
    # the reported case: cell_coords((2, 3)) said "no such cell" although cell_text took it
    assert cell_coords((2, 3)) == (2, 3)
    assert line_cells((2, 3)) == [3, 9, 12, 13, 14, 16, 17, 21, 27, 33]


@given(CELLS)
def test_every_conversion_follows_the_oracle(value):
    want = oracle(value)
    for call in (cell_index, cell_coords, line_cells, cell_text):
        if want is None:
            refused(call, value)
    if want is not None:
        assert cell_index(value) == want
        assert cell_coords(value) == divmod(want, 6)
        assert line_cells(value) == line_cells(want)


# ----------------------------------------------------------------------------- Position


def test_position_fields_take_either_form_and_keep_numbers():
    assert (POS.marker, POS.start, POS.history) == (16, 14, (16,))
    pairs = dataclasses.replace(POS, marker=(2, 4), start=[2, 2], history=[np.array([2, 4])],
                                taken={(2, 4)}, face_down=[cell_coords(i) for i in POS.face_down])
    assert pairs == POS
    assert (pairs.marker, pairs.start, pairs.history, pairs.taken) == (16, 14, (16,), frozenset({16}))
    assert all(type(i) is int for i in (*pairs.history, *pairs.taken, *pairs.face_down))


def test_position_with_numpy_history_is_json_and_hashable():
    # NumPy integers in history were kept: to_dict() could not be written as JSON and
    # hash() raised a TypeError (json.dumps in __hash__)
    pos = dataclasses.replace(POS, history=(np.int64(16),), taken=frozenset({np.int64(16)}))
    assert json.loads(json.dumps(pos.to_dict()))["history"] == [16]
    assert hash(pos) == hash(POS)


@pytest.mark.parametrize(("field", "value"), [
    ("marker", (2, 4.0)), ("marker", "16"), ("marker", 16.0), ("marker", True), ("marker", [2, 4, 0]),
    ("start", 14.0), ("start", (True, 2)), ("history", (16.0,)), ("taken", {16.0}), ("face_down", {0.0}),
])
def test_position_fields_refuse_what_is_no_cell_naming_the_field(field, value):
    # a pair as marker raised TypeError ('<=' not supported), a float marker was kept
    with pytest.raises(PositionError, match=rf"^{field}(\[0\])?: no such cell: "):
        dataclasses.replace(POS, **{field: value})


@pytest.mark.parametrize("field", ["history", "taken", "face_down"])
def test_position_set_fields_refuse_what_is_not_a_collection(field):
    with pytest.raises(PositionError, match=rf"^{field} must be a "):
        dataclasses.replace(POS, **{field: 16})


@given(st.integers(0, 2**32 - 1), st.integers(0, 30))
def test_legal_indices_are_legal_moves_as_numbers(seed, plies):
    rng = np.random.default_rng(seed)
    pos = Position.random(seed)
    for _ in range(plies):
        if pos.is_terminal():
            break
        moves = pos.legal_moves()
        assert pos.legal_indices() == [6 * r + c for r, c in moves] == sorted(pos.legal_indices())
        pos = pos.play(moves[int(rng.integers(len(moves)))])
    assert pos.legal_indices() == [cell_index(m) for m in pos.legal_moves()]
    assert seat_view(pos, "first").public_position().legal_indices() == pos.legal_indices()


@given(CELLS)
def test_play_and_card_at_follow_the_oracle(value):
    want = oracle(value)
    view = seat_view(POS, "first")
    for call in (POS.play, FRESH.play, view.card_at):
        if want is None:
            refused(call, value)
    if want is None:
        return
    for pos in (POS, FRESH):
        if want in pos.legal_indices():
            assert pos.play(value) == pos.play(want) == pos.play(cell_coords(want))
        else:
            with pytest.raises(IllegalMoveError):
                pos.play(value)
    if want in POS.face_down:
        with pytest.raises(HiddenCardError):
            view.card_at(value)
    else:
        assert view.card_at(value) == view.card_at(cell_coords(want))


# ----------------------------------------------------------------------------- solver


def test_solution_move_looks_up_either_form():
    assert SOLUTION.exact and len(SOLUTION.moves) == len(ENDGAME.legal_moves()) > 1
    for m in SOLUTION.moves:
        r, c = m.cell
        assert SOLUTION.move(m.cell) is SOLUTION.move(6 * r + c) is SOLUTION.move([r, c]) is m
        assert SOLUTION.move_values[m.cell] == m.value
    assert SOLUTION.move(SOLUTION.best_move).value == SOLUTION.value


def test_solution_move_refuses_a_cell_that_is_not_a_move():
    off = next(i for i in range(36) if i not in ENDGAME.legal_indices())
    with pytest.raises(IllegalMoveError, match=rf"cell \({off // 6},{off % 6}\) is not a move of the position solved"):
        SOLUTION.move(off)


@given(CELLS)
def test_solution_move_follows_the_oracle(value):
    want = oracle(value)
    if want is None:
        refused(SOLUTION.move, value)
    elif want in ENDGAME.legal_indices():
        assert SOLUTION.move(value).cell == divmod(want, 6)
    else:
        with pytest.raises(IllegalMoveError):
            SOLUTION.move(value)


@pytest.mark.parametrize("cls", [MoveValue, MoveEstimate])
def test_move_records_keep_row_col_whatever_form_they_are_given(cls):
    one = Fraction(1)
    for form in (14, np.int64(14), (2, 2), [2, 2], np.array([2, 2]), (np.int8(2), 2)):
        m = cls(cell=form, value=one, exact=True, lower=one, upper=one)
        assert m.cell == (2, 2) and type(m.cell) is tuple and all(type(x) is int for x in m.cell)
    for bad in (14.0, True, (2, 6), "14"):
        with pytest.raises(PositionError, match="^cell: no such cell"):
            cls(cell=bad, value=one, exact=True, lower=one, upper=one)


@given(CELLS)
def test_constructors_taking_a_cell_follow_the_oracle(value):
    want = oracle(value)
    one = Fraction(1)
    builds = {
        "MoveValue": lambda v: MoveValue(cell=v, value=one, exact=True, lower=one, upper=one).cell,
        "MoveEstimate": lambda v: MoveEstimate(cell=v, value=one, exact=True).cell,
        "GameStep": lambda v: GameStep(1, POS, v, None).move,
        "Position": lambda v: dataclasses.replace(POS, marker=v).marker,
    }
    for name, build in builds.items():
        if name == "Position" and value is None:   # no marker: a position before the start
            with pytest.raises(PositionError, match="without a marker"):
                build(value)
        elif want is None:
            refused(build, value)
        elif name != "Position":
            assert build(value) == divmod(want, 6)
        elif want == POS.marker:
            assert build(value) == want
        else:   # a cell, but the marker must stand on the cell last taken
            with pytest.raises(PositionError, match="marker"):
                build(value)


# ----------------------------------------------------------------------------- review


def test_analyse_steps_with_an_evaluator_using_cell_numbers():
    # MoveEstimate(cell=14) kept 14, and the analysis found "no value for the move (2, 4)"
    steps = replay(POS.play((0, 4)).play((0, 1)))
    assert [s.move for s in steps] == [(2, 4), (0, 4), (0, 1)]

    def by_number(pos):
        return [MoveEstimate(cell=i, value=Fraction(i), exact=True, lower=Fraction(i), upper=Fraction(i))
                for i in pos.legal_indices()]

    table = analyse_steps(steps, by_number)
    assert list(table.move) == [(2, 4), (0, 4), (0, 1)]
    # each position's best by this evaluator is its highest cell number
    assert list(table.best_move) == [divmod(max(s.position.legal_indices()), 6) for s in steps]
    assert list(table.loss) == [max(s.position.legal_indices()) - cell_index(s.move) for s in steps]


def test_game_steps_built_with_numbers_are_row_col():
    step = GameStep(1, POS, 16, "6C")
    assert step.move == (2, 4)
    with pytest.raises(PositionError, match="^move: no such cell"):
        GameStep(1, POS, 16.0, "6C")


def test_replay_takes_cell_card_pairs_as_lists_and_names_a_bad_move():
    hidden = Position.new(ck.Deal(tuple(None if i in ck.FACE_DOWN_CELLS else c for i, c in enumerate(FRESH.grid))))
    after = hidden.play((2, 2)).play((2, 5))   # start (2,2); first takes (2,5), face up
    card = ck.card_name(FRESH.cells[14])        # the card dealt face down at (2,2)
    # a list [cell, card] was read as one bad cell: "no such cell: [14, '..']"
    for item in ([14, card], [(2, 2), card], ((2, 2), card), (14, card)):
        steps = replay(after, [item])
        assert [(s.move, s.card) for s in steps] == [((2, 2), card)]
    with pytest.raises(PositionError, match=r"^moves\[1\]: no such cell: 36 "):
        replay(hidden, [(2, 2), 36])


@given(st.lists(CELLS, min_size=1, max_size=3))
def test_replay_moves_follow_the_oracle(moves):
    wants = [oracle(m) for m in moves]
    bad = next((k for k, w in enumerate(wants) if w is None), None)
    if bad is not None:
        with pytest.raises(PositionError, match=rf"^moves\[{bad}\]: no such cell"):
            replay(POS, moves)
        return
    try:
        steps = replay(POS, moves)
    except IllegalMoveError:
        return   # a cell, but not legal where it is played (or face down and unknown)
    assert [s.move for s in steps] == [divmod(w, 6) for w in wants]


# ----------------------------------------------------------------------------- match and play


@given(CELLS)
def test_start_cells_follow_the_oracle(value):
    assume(value is not None)   # start=None: the second player chooses
    want = oracle(value)
    deal = ck.Deal.random(4)
    if want is None:
        refused(lambda v: play_game(deal, "random", "random", start=v), value)
        refused(lambda v: match("random", "random", deals=1, start=v), value)
    elif want not in ck.CENTRAL_CELLS:
        with pytest.raises(PositionError, match="the start cell must be a central cell"):
            play_game(deal, "random", "random", start=value)
    else:
        assert play_game(deal, "greedy", "greedy", start=value).position.start == want


def test_play_session_takes_either_form():
    import io

    from crowns_solver.cross_kings.play import PlaySession

    a, b = (PlaySession(seed=5, opponent="random", node_limit=1000, stdin=io.StringIO(), stdout=io.StringIO())
            for _ in range(2))
    for session in (a, b):   # a new game: the person is first; the computer chooses the start
        assert session.position.to_move == session.computer == "second"
        session.computer_move()
    move = next(m for m in a.position.legal_moves() if cell_index(m) not in a.position.face_down)
    assert a.take(cell_index(move)) == b.take(move)
    with pytest.raises(PositionError, match="no such cell"):
        a.take((2.0, 3))
