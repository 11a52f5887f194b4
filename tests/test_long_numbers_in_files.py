"""A whole number too long for Python to convert (more than 4,300 digits) in any file a
command reads (Cross Kings position, Five Crowns game record and score-keeper file, King's
Crowns deck) is one line on stderr naming the entry, exit status 2: never the
``ValueError`` traceback of ``int()`` (probe finding 1)."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli
from hypothesis import given
from hypothesis import strategies as st

from crowns_solver._io import MAX_INT_DIGITS, check_numbers, json_int
from crowns_solver.cross_kings.position import Position
from crowns_solver.errors import CrownsError, DeckError, PositionError, RecordError
from crowns_solver.five_crowns.game import RECORD_FORMAT
from crowns_solver.five_crowns.keeper import KEEPER_FORMAT

BIG = "1" + "0" * 5000   # 5,001 digits


def _fails(capsys, *argv: str) -> str:
    code, out, err = run_cli(capsys, *argv)
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("crowns: error: ")
    assert "Traceback" not in err and len(err) < 300
    return err


def _position_file(tmp_path) -> str:
    d = Position.random(seed=9).to_dict()
    d["marker"] = "BIG"
    path = tmp_path / "big.json"
    path.write_text(json.dumps(d).replace('"BIG"', BIG))
    return str(path)


@pytest.mark.parametrize("command", [["cross-kings", "show"], ["cross-kings", "solve"],
                                     ["cross-kings", "analyse"]])
def test_a_cross_kings_position_with_a_huge_marker(capsys, tmp_path, command):
    err = _fails(capsys, *command, _position_file(tmp_path))
    assert "'marker' is a number of 5,001 digits; at most 4,300 are read" in err


def test_play_load_of_a_position_with_a_huge_marker(capsys, tmp_path):
    err = _fails(capsys, "cross-kings", "play", "--load", _position_file(tmp_path), "--node-limit", "100")
    assert "'marker' is a number of 5,001 digits" in err


def test_position_from_dict_refuses_a_huge_int_from_python_too():
    d = Position.random(seed=9).to_dict()
    d["marker"] = 10**5000
    with pytest.raises(PositionError, match="'marker' is a number of 5,001 digits"):
        Position.from_dict(d)


def test_a_five_crowns_record_with_a_huge_seed(capsys, tmp_path):
    path = tmp_path / "g.json"
    path.write_text(f'{{"format": "{RECORD_FORMAT}", "seed": {BIG}}}')
    err = _fails(capsys, "five-crowns", "replay", str(path))
    assert f"{path}: entry 'seed' is a number of 5,001 digits" in err


def test_a_keeper_file_with_a_huge_number_on_resume(capsys, tmp_path):
    path = tmp_path / "k.json"
    path.write_text(f'{{"format": "{KEEPER_FORMAT}", "players": ["A", "B"], "rounds": [[0, {BIG}]]}}')
    err = _fails(capsys, "five-crowns", "keeper", "--resume", str(path))
    assert f"{path}: entry 'rounds'[0][1] is a number of 5,001 digits" in err


@pytest.mark.parametrize("name, text, digits", [
    ("d.json", f'{{"salvation": {BIG}}}', "5,001"),
    ("d.toml", f"salvation = {BIG}\n", "5,001"),
    ("d.toml", "salvation = 1" + "_000" * 1500 + "\n", "4,501"),
    ("h.toml", "salvation = 0x1" + "0" * 5000 + "\n", "6,021"),   # hex: Python reads it, then it is refused
])
def test_a_kings_crowns_deck_with_a_huge_count(capsys, tmp_path, name, text, digits):
    path = tmp_path / name
    path.write_text(text)
    err = _fails(capsys, "kings-crowns", "deck", str(path))
    assert f"{path}: entry 'salvation' is a number of {digits} digits; at most 4,300 are read" in err


def test_the_limit_is_pythons():
    import sys

    assert MAX_INT_DIGITS == sys.get_int_max_str_digits()
    assert json_int("9" * MAX_INT_DIGITS) == 10**MAX_INT_DIGITS - 1
    assert json_int("-" + "9" * MAX_INT_DIGITS) == -(10**MAX_INT_DIGITS - 1)
    check_numbers({"a": [10**MAX_INT_DIGITS - 1]}, RecordError)   # the longest accepted
    with pytest.raises(RecordError, match=r"entry 'a'\[0\] is a number of 4,301 digits"):
        check_numbers({"a": [json_int("1" * 4301)]}, RecordError)


@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner,
                                                                                 max_size=4),
                    max_leaves=20))
def test_check_numbers_accepts_what_json_reads_back(data):
    """Every value of ordinary size passes; the JSON hook reads what json.loads reads."""
    check_numbers(data, CrownsError)
    text = json.dumps(data)
    assert json.loads(text, parse_int=json_int) == json.loads(text)


def test_deck_error_is_a_crowns_error():
    assert issubclass(DeckError, CrownsError)
