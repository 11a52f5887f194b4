"""Position's card fields checked like its cell fields (session 23): a Position built
directly or through ``dataclasses.replace`` with a bad `cells`, `first_hand` or
`second_hand` raised a bare TypeError (``len()`` of an int, an int not iterable)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crowns_solver.cross_kings import Deal, Position
from crowns_solver.errors import DuplicateCardError, PositionError

POS = Position.new(Deal.random(7)).play((2, 2)).play((2, 5))


@pytest.mark.parametrize("field, value, message", [
    ("cells", 5, "cells must be a list of card numbers 0..35 (-1 for a card not known), got 5"),
    ("cells", "AS" * 36, "cells must be a list of card numbers"),
    ("first_hand", 5, "first_hand must be a list of card numbers 0..35, got 5"),
    ("first_hand", [True], "first_hand[0]: not a card number 0..35: True"),
    ("second_hand", ["XX"], "second_hand[0]: not a card number 0..35: 'XX'"),
    ("second_hand", [36], "second_hand[0]: not a card number 0..35: 36"),
    ("first_hand", [-1], "first_hand[0]: not a card number 0..35: -1"),
    ("cells", [None] * 36, "cells[0]: not a card number -1..35: None"),
    ("cells", [1.0] * 36, "cells[0]: not a card number -1..35: 1.0"),
])
def test_bad_card_fields_name_the_field_and_item(field, value, message):
    with pytest.raises(PositionError) as err:
        dataclasses.replace(POS, **{field: value})
    assert str(err.value).startswith(message)


def test_numpy_and_list_card_fields_are_kept_as_tuples_of_int():
    q = dataclasses.replace(POS, cells=list(np.array(POS.cells)), first_hand=np.array(POS.first_hand),
                            second_hand=list(POS.second_hand))
    assert q == POS and hash(q) == hash(POS)
    assert all(type(i) is int for i in q.cells + q.first_hand + q.second_hand)
    assert type(q.cells) is tuple and type(q.first_hand) is tuple


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["cells", "first_hand", "second_hand"]),
       st.one_of(st.none(), st.integers(), st.floats(), st.text(max_size=5), st.booleans(),
                 st.lists(st.one_of(st.integers(-3, 40), st.text(max_size=2), st.none()), max_size=40)))
def test_random_card_fields_give_a_position_or_a_specific_error(field, value):
    try:
        q = dataclasses.replace(POS, **{field: value})
    except (PositionError, DuplicateCardError):
        return
    assert all(type(i) is int for i in q.cells + q.first_hand + q.second_hand)
