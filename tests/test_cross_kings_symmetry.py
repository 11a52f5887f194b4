"""Cross Kings grid symmetries: Deal/Position.transformed and the solver's values under them.

The rules mention no direction, so each of the grid's eight symmetries maps the game onto
itself: the tests check the maps' geometry (lines, order along a line, diagonals, central
cells), that playing commutes with transforming, and that exact open and game values (and
every move's and revealed card's value) are the same for all eight images of a position.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_cross_kings_solver import random_position

from crowns_solver.cross_kings import (
    CENTRAL_CELLS,
    FACE_DOWN_CELLS,
    SYMMETRIES,
    Deal,
    Position,
    cell_coords,
    cell_index,
    line_cells,
    solve,
    symmetry_map,
)
from crowns_solver.errors import PositionError


def _between(a: int, b: int) -> set[int]:
    """Cells strictly between a and b on their common row or column."""
    (ra, ca), (rb, cb) = divmod(a, 6), divmod(b, 6)
    if ra == rb:
        return {6 * ra + c for c in range(min(ca, cb) + 1, max(ca, cb))}
    return {6 * r + ca for r in range(min(ra, rb) + 1, max(ra, rb))}


# ------------------------------------------------------------------- the maps' geometry


def test_eight_distinct_permutations_forming_a_group():
    maps = {name: symmetry_map(name) for name in SYMMETRIES}
    assert len(set(maps.values())) == 8
    assert maps["identity"] == tuple(range(36))
    for m in maps.values():
        assert sorted(m) == list(range(36))
    # closed under composition, every element has an inverse
    for a, b in itertools.product(maps.values(), repeat=2):
        assert tuple(a[b[i]] for i in range(36)) in set(maps.values())
    rot90 = maps["rot90"]
    twice = tuple(rot90[rot90[i]] for i in range(36))
    assert twice == maps["rot180"]
    assert tuple(rot90[twice[i]] for i in range(36)) == maps["rot270"]
    # (row, col) examples: a quarter turn clockwise sends the top-left corner to the top-right
    assert rot90[cell_index((0, 0))] == cell_index((0, 5))
    assert maps["transpose"][cell_index((1, 4))] == cell_index((4, 1))
    assert maps["antitranspose"][cell_index((0, 1))] == cell_index((4, 5))


@pytest.mark.parametrize("name", SYMMETRIES)
def test_each_map_keeps_the_rules_geometry(name):
    m = symmetry_map(name)
    assert {m[i] for i in FACE_DOWN_CELLS} == set(FACE_DOWN_CELLS)
    assert {m[i] for i in CENTRAL_CELLS} == set(CENTRAL_CELLS)
    for i in range(36):
        # lines go to lines, and what lies between two cells (reach "nearest") is kept
        assert {m[j] for j in line_cells(i)} == set(line_cells(m[i]))
        for j in line_cells(i):
            assert {m[k] for k in _between(i, j)} == _between(m[i], m[j])


@given(st.one_of(st.text(max_size=12), st.integers(), st.none(), st.lists(st.integers(), max_size=3)))
def test_unknown_symmetry_is_refused_by_name(name):
    if name in SYMMETRIES:
        return
    with pytest.raises(PositionError, match="unknown grid symmetry"):
        symmetry_map(name)
    with pytest.raises(PositionError, match=r"unknown grid symmetry .*rot90"):
        Deal.random(1).transformed(name)
    with pytest.raises(PositionError, match="unknown grid symmetry"):
        Deal.random(1).position().transformed(name)


# ------------------------------------------------------------------- deals and positions


@pytest.mark.parametrize("name", SYMMETRIES)
def test_deal_and_position_transform_alike(name):
    m = symmetry_map(name)
    deal = Deal.random(np.random.default_rng(5))
    turned = deal.transformed(name)
    for i in range(36):
        assert turned.cells[m[i]] == deal.cells[i]
    assert turned.position() == deal.position().transformed(name)
    # the inverse symmetry brings the deal back
    inverse = next(s for s in SYMMETRIES if all(symmetry_map(s)[m[i]] == i for i in range(36)))
    assert turned.transformed(inverse) == deal


@pytest.mark.parametrize("reach", ("any", "nearest"))
@pytest.mark.parametrize("seed", range(3))
def test_play_commutes_with_the_symmetries(seed, reach):
    rng = np.random.default_rng(seed)
    pos = Position.random(rng, reach)
    images = {name: pos.transformed(name) for name in SYMMETRIES}
    while True:
        for name, img in images.items():
            m = symmetry_map(name)
            assert sorted(cell_index(c) for c in img.legal_moves()) == sorted(m[cell_index(c)] for c in pos.legal_moves())
            assert img.scores() == pos.scores() and img.to_move == pos.to_move
            assert img == pos.transformed(name)
            assert Position.from_dict(img.to_dict()) == img
        moves = pos.legal_moves()
        if not moves:
            break
        cell = cell_index(moves[int(rng.integers(len(moves)))])
        pos = pos.play(cell)
        images = {name: img.play(symmetry_map(name)[cell]) for name, img in images.items()}
    assert pos.is_terminal()


# ------------------------------------------------------------------- the solver


@pytest.mark.parametrize("objective", ("margin", "win"))
@pytest.mark.parametrize("reach", ("any", "nearest"))
@pytest.mark.parametrize("mode", ("open", "game"))
def test_exact_values_are_the_same_for_every_image(mode, reach, objective):
    # the value, every move's value (at the image of its cell) and each card a
    # face-down move may reveal: 3 positions x 8 images per parameter set
    left = 18 if mode == "open" else 13
    for seed in range(3):
        pos = random_position(7919 * seed + 11, left, reach)
        ref = solve(pos, mode=mode, objective=objective, all_moves=True, tt_mb=4)
        assert ref.exact
        for name in SYMMETRIES:
            m = symmetry_map(name)
            sol = solve(pos.transformed(name), mode=mode, objective=objective, all_moves=True, tt_mb=4)
            assert sol.exact and sol.value == ref.value, (seed, name)
            assert {cell_index(c): v for c, v in sol.move_values.items()} == {
                m[cell_index(c)]: v for c, v in ref.move_values.items()}, (seed, name)
            assert {cell_index(c): v for c, v in sol.card_values.items()} == {
                m[cell_index(c)]: v for c, v in ref.card_values.items()}, (seed, name)



@pytest.mark.parametrize("name", SYMMETRIES)
def test_save_strings_of_transformed_positions(name):
    # a save string always starts at (2,2): an image that keeps (2,2) there (identity,
    # transpose) writes one that reads back as the same game; the others are refused with
    # a message naming where the game started (it used to say the position had no history)
    pos = Position.random(seed=5).play((2, 2))
    for cell in ((2, 0), (0, 0), (0, 4)):
        pos = pos.play(cell)
    image = pos.transformed(name)
    start = symmetry_map(name)[cell_index((2, 2))]
    if start == cell_index((2, 2)):
        back = Position.from_save_string(image.to_save_string())
        assert back.history == image.history and back.marker == image.marker
        assert (back.first_hand, back.second_hand) == (image.first_hand, image.second_hand)
        assert back.taken == image.taken and back.face_down == image.face_down
    else:
        r, c = cell_coords(start)
        with pytest.raises(PositionError, match=rf"started at \({r},{c}\); crosskings.net games always start"):
            image.to_save_string()


# ------------------------------------------------------------------- self-play on a turned grid


@pytest.mark.parametrize("name", ("rot180", "transpose"))
def test_self_play_on_a_turned_grid_plays_the_turned_deals(name):
    from crowns_solver.cross_kings.match import _deal_seed, play_game, self_play
    from crowns_solver.cross_kings.players import make_player

    games = self_play("search", 3, seed=11, options={"node_limit": 2_000}, start=(2, 2), symmetry=name)
    m = symmetry_map(name)
    assert list(games["start"]) == [m[cell_index((2, 2))]] * 3
    player = make_player("search", node_limit=2_000)
    for d, row in games.iterrows():
        deal_ss, first_ss, second_ss = _deal_seed(11, d).spawn(3)
        deal = Deal.random(np.random.default_rng(deal_ss)).transformed(name)
        g = play_game(deal, player, player, start=cell_index((2, 2)) if name == "transpose" else (3, 3),
                      rngs=(np.random.default_rng(first_ss), np.random.default_rng(second_ss)))
        assert (row["score_first"], row["score_second"]) == g.scores


def test_self_play_refuses_an_unknown_symmetry():
    from crowns_solver.cross_kings.match import self_play

    with pytest.raises(PositionError, match="unknown grid symmetry 'upside_down'"):
        self_play("greedy", 2, symmetry="upside_down")
