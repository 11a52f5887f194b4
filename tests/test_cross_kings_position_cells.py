"""Positions: cells and markers are whole numbers (or pairs of them), in every field."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import load_json
from hypothesis import given
from hypothesis import strategies as st

from crowns_solver.cross_kings import Position, cell_index
from crowns_solver.errors import CrownsError, PositionError


@pytest.fixture
def endgame():
    """A position dict with a marker, from the shared endgame cases."""
    return dict(load_json("cross_kings_endgames.json")["cases"][3]["position"])


def with_marker_at(d: dict, marker) -> dict:
    return {**d, "marker": marker}


def test_integer_markers_in_both_forms_are_the_same_position(endgame):
    m = endgame["marker"]
    a = Position.from_dict(with_marker_at(endgame, m))
    b = Position.from_dict(with_marker_at(endgame, [m // 6, m % 6]))
    c = Position.from_dict(with_marker_at(endgame, np.int64(m)))
    assert a == b == c and a.marker == m


@pytest.mark.parametrize("bad", ["float", "pair of floats", "one float", "bool", "bool pair", "text", "text pair",
                                 "triple", "set"])
def test_a_marker_that_is_not_whole_numbers_is_refused_naming_it(endgame, bad):
    m = endgame["marker"]
    r, c = divmod(m, 6)
    value = {"float": float(m), "pair of floats": [float(r), float(c)], "one float": [r, float(c)],
             "bool": True, "bool pair": [True, False], "text": str(m), "text pair": [str(r), str(c)],
             "triple": [r, c, 0], "set": {r, c}}[bad]
    with pytest.raises(PositionError, match=r"^marker: no such cell: "):
        Position.from_dict(with_marker_at(endgame, value))
    if bad != "set":   # (JSON has no sets)
        with pytest.raises(PositionError, match=r"^marker: no such cell: "):
            Position.from_text(json.dumps(with_marker_at(endgame, value)))


def test_the_reported_case_marker_4_1_as_floats(endgame):
    # [4.0, 1.0] was accepted while 14.0 was refused
    with pytest.raises(PositionError, match=r"marker: no such cell: \[4\.0, 1\.0\] \(row and column are whole numbers"):
        Position.from_dict(with_marker_at(endgame, [4.0, 1.0]))
    with pytest.raises(PositionError, match=r"marker: no such cell: 14\.0"):
        Position.from_dict(with_marker_at(endgame, 14.0))


@pytest.mark.parametrize("field", ["face_down", "history"])
def test_list_fields_name_the_bad_entry(field):
    pos = Position.random(7).play((2, 2)).play((2, 4)).play((0, 4))
    d = pos.to_dict()
    assert field in d and len(d[field]) >= 2
    good = Position.from_dict({**d, field: [list(divmod(c, 6)) for c in d[field]]})
    assert good == pos
    bad = list(d[field])
    bad[1] = float(bad[1])
    with pytest.raises(PositionError, match=rf"^{field}\[1\]: no such cell: {bad[1]!r}"):
        Position.from_dict({**d, field: bad})


def test_start_must_be_whole():
    pos = Position.random(7).play((2, 2)).play((2, 4))
    d = pos.to_dict()
    with pytest.raises(PositionError, match=r"^start: no such cell: 14\.0"):
        Position.from_dict({**d, "start": 14.0})


def test_cell_index_refuses_what_is_not_whole():
    assert cell_index((2, 3)) == cell_index([2, 3]) == cell_index(np.array([2, 3])) == 15
    for bad in [(2.0, 3), (2, 3.5), "23", b"23", (True, 1), 15.0, None, (1, 2, 3), {2: 3}]:
        with pytest.raises(PositionError, match="no such cell"):
            cell_index(bad)


@given(st.one_of(st.floats(), st.booleans(), st.text(max_size=4), st.none(),
                 st.lists(st.one_of(st.integers(-3, 8), st.floats(-1, 7), st.booleans(), st.text(max_size=2)),
                          max_size=3),
                 st.integers(-5, 40)))
def test_any_marker_is_a_position_or_a_crowns_error(value):
    d = dict(load_json("cross_kings_endgames.json")["cases"][3]["position"])
    try:
        pos = Position.from_dict({**d, "marker": value})
    except CrownsError:
        return
    # accepted: a whole cell number or a pair of whole numbers, and that is the marker
    whole = lambda x: isinstance(x, int) and not isinstance(x, bool)  # noqa: E731
    assert whole(value) or (isinstance(value, list) and len(value) == 2 and all(map(whole, value)))
    assert pos.marker == cell_index(value)
