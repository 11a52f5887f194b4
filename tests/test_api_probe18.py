"""Bad arguments to the public Python API found by the session-18 probe.

Every case raised a TypeError / IndexError / KeyError / AttributeError, or silently gave a
wrong answer (a negative index counted from the end, a cell number off the grid turned
into a row 6).  Each must now be a CrownsError (a ValueError) that names the value.
"""

from __future__ import annotations

import numpy as np
import pytest

import crowns_solver.cross_kings as ck
import crowns_solver.five_crowns as fc
import crowns_solver.kings_crowns as kc
from crowns_solver.errors import CardError, CrownsError, PositionError, RulesError

NOT_INDICES = [None, True, 1.5, 2.0, "3", "", [], [1], (1, 2), np.float64(3.0), float("nan"), 10**30]


# ------------------------------------------------------------------ card_name
@pytest.mark.parametrize("bad", NOT_INDICES + [-1, 36])
def test_cross_kings_card_name_refuses_what_is_not_an_index(bad):
    with pytest.raises(CardError, match="not a Cross Kings card index"):
        ck.card_name(bad)


@pytest.mark.parametrize("bad", NOT_INDICES + [-1, 56])
def test_five_crowns_card_name_refuses_what_is_not_a_code(bad):
    with pytest.raises(CardError, match="not a Five Crowns card code"):
        fc.card_name(bad)


@pytest.mark.parametrize("bad", NOT_INDICES + [-1, 28])
def test_kings_crowns_card_name_refuses_what_is_not_a_code(bad):
    with pytest.raises(CardError, match="not a King's Crowns card code"):
        kc.card_name(bad)


def test_card_names_still_read_every_index_and_numpy_integers():
    # each name parses back to its own index: the check refuses nothing valid
    assert [ck.parse_card(ck.card_name(i)) for i in range(36)] == list(range(36))
    assert [fc.parse_card(fc.card_name(i)) for i in range(56)] == list(range(56))
    assert [kc.parse_card(kc.card_name(i)) for i in range(28)] == list(range(28))
    assert ck.card_name(np.int64(35)) == "KC"
    assert fc.card_name(np.int8(55)) == "JK"
    assert kc.card_name(np.uint16(0)) == kc.CARD_NAMES[0]


# ------------------------------------------------------------------ cells
@pytest.mark.parametrize("func", [ck.cell_coords, ck.line_cells])
@pytest.mark.parametrize("bad", NOT_INDICES + [-1, 36, (2, 3)])
def test_cell_number_functions_refuse_what_is_not_a_cell_number(func, bad):
    with pytest.raises(PositionError, match=r"no such cell: .*0\.\.35"):
        func(bad)


def test_cell_number_functions_agree_with_cell_index():
    for i in range(36):
        row, col = ck.cell_coords(i)
        assert ck.cell_index((row, col)) == i
        line = ck.line_cells(np.int32(i))
        assert len(line) == 10 and i not in line
        assert all(ck.cell_coords(j)[0] == row or ck.cell_coords(j)[1] == col for j in line)


# ------------------------------------------------------------------ Rules(names=)
@pytest.mark.parametrize("bad", ["ab", b"ab", None, 3, ("a",), ("a", "b", "c"), ("a", ""), ("a", 2)])
def test_cross_kings_rules_names_must_be_two_strings(bad):
    with pytest.raises(RulesError, match="names must be two non-empty strings"):
        ck.Rules(names=bad)


def test_cross_kings_rules_names_from_a_list_are_kept_as_a_tuple():
    rules = ck.Rules(names=["Ann", "Bob"])
    assert rules.names == ("Ann", "Bob")
    assert rules == ck.Rules(names=("Ann", "Bob"))
    assert hash(rules) == hash(ck.Rules(names=("Ann", "Bob")))


def test_every_refusal_here_is_a_value_error():
    assert issubclass(CrownsError, ValueError)
