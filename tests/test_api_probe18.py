"""Bad arguments to the public Python API found by the session-18 probe.

Every case raised a TypeError / IndexError / KeyError / AttributeError, or silently gave a
wrong answer (a negative index counted from the end, a cell number off the grid turned
into a row 6).  Each must now be a CrownsError (a ValueError) that names the value.
"""

from __future__ import annotations

import os

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


# ------------------------------------------------------------------ file paths that are not paths
# open() takes an int as a file descriptor: read_results(0) read standard input and
# read_results(True) read standard output and closed it; None or a float gave a TypeError.
# The checks below open a real file's descriptor, so a reader that still took ints would
# read that file quietly (and close the descriptor) instead of refusing the argument.
def _readers():
    from crowns_solver import montecarlo
    from crowns_solver.errors import DeckError, RecordError, ResultsFileError

    return [
        (montecarlo.read_results, ResultsFileError, "results file"),
        (montecarlo.read_header, ResultsFileError, "results file"),
        (kc.load_deck, DeckError, "deck file"),
        (fc.replay, RecordError, "game record"),
        (fc.ScoreKeeper.load, RecordError, "score-keeper file"),
    ]


@pytest.mark.parametrize("which", range(5))
def test_file_readers_refuse_a_file_descriptor(tmp_path, which):
    reader, error, what = _readers()[which]
    results = tmp_path / "r.jsonl"
    kc.simulate(4, players=2, seed=1, out=results, workers=1)
    fd = os.open(results, os.O_RDONLY)
    try:
        with pytest.raises(error, match=f"the {what} path must be a str or path-like, got {fd}"):
            reader(fd)
        os.fstat(fd)  # still open: nothing read or closed it
    finally:
        os.close(fd)


@pytest.mark.parametrize("which", range(5))
@pytest.mark.parametrize("bad", [None, True, 1.5, ["r.jsonl"], ("r.jsonl",)])
def test_file_readers_refuse_what_is_not_a_path(which, bad):
    reader, error, what = _readers()[which]
    with pytest.raises(error, match=f"the {what} path must be a str or path-like"):
        reader(bad)


def test_read_header_refuses_an_empty_path_and_a_folder(tmp_path):
    from crowns_solver.montecarlo import read_header
    from crowns_solver.errors import ResultsFileError

    with pytest.raises(ResultsFileError, match=r"no results file given; the path is empty \(''\)"):
        read_header("")
    with pytest.raises(ResultsFileError, match="is a folder, not a results file"):
        read_header(tmp_path)


def test_file_readers_still_read_str_path_and_bytes(tmp_path):
    from crowns_solver.montecarlo import read_header, read_results

    results = tmp_path / "r.jsonl"
    kc.simulate(4, players=2, seed=1, out=results, workers=1)
    for path in (str(results), results, os.fsencode(results)):
        assert read_header(path)["games"] == 4
        assert len(read_results(path)) == 4
    deck = tmp_path / "d.toml"
    deck.write_text("\n".join(f'"{k}" = {v}' for k, v in kc.DEFAULT_DECK.to_dict().items()))
    assert kc.load_deck(os.fsencode(deck)).counts == kc.DEFAULT_DECK.counts
