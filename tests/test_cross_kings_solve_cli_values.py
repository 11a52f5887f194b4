"""``crowns cross-kings solve``: values print as decimals, exact ones with their fraction."""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest
from conftest import run_cli
from hypothesis import given
from hypothesis import strategies as st
from test_cross_kings_solver import random_position

from crowns_solver.cross_kings.cli import _fmt_value


@pytest.mark.parametrize(
    "value, objective, exact, rounding, text",
    [
        (Fraction(-59951, 20160), "margin", True, "nearest", "-2.9738 (= -59951/20160)"),
        (Fraction(-59951, 20160), "margin", False, "nearest", "-2.9738"),
        (Fraction(3), "margin", True, "nearest", "+3"),
        (Fraction(0), "margin", True, "nearest", "0"),   # a decimal that reads zero has no sign (session 22)
        (Fraction(-3, 2), "margin", True, "nearest", "-1.5"),
        (Fraction(17, 8), "margin", True, "nearest", "+2.125"),
        (Fraction(2, 3), "margin", True, "nearest", "+0.6667 (= 2/3)"),
        (Fraction(1, 2), "win", True, "nearest", "0.5"),
        (Fraction(1, 3), "win", True, "nearest", "0.3333 (= 1/3)"),
        (Fraction(1), "win", True, "nearest", "1"),
        (Fraction(-133, 3), "margin", False, "down", "-44.3334"),
        (Fraction(-29, 6), "margin", False, "up", "-4.8333"),
        (Fraction(1, 3), "win", False, "up", "0.3334"),
        (Fraction(1, 30000), "margin", True, "nearest", "0.0000 (= 1/30000)"),
        (Fraction(-1, 30000), "margin", True, "nearest", "0.0000 (= -1/30000)"),
        (Fraction(-1, 30000), "margin", False, "nearest", "0.0000"),
        (Fraction(-1, 30000), "margin", False, "down", "-0.0001"),
        (Fraction(-299999, 100000), "margin", True, "nearest", "-3.0000 (= -299999/100000)"),
        (None, "margin", True, "nearest", "?"),
    ],
)
def test_value_text(value, objective, exact, rounding, text):
    assert _fmt_value(value, objective, exact=exact, rounding=rounding) == text


@given(st.fractions(min_value=-60, max_value=60, max_denominator=10**6), st.sampled_from(["margin", "win"]))
def test_value_text_is_within_half_a_unit_and_bounds_round_outward(x, objective):
    text = _fmt_value(x, objective, exact=False)
    assert "/" not in text and abs(Fraction(text) - x) <= Fraction(1, 20000)
    assert Fraction(_fmt_value(x, objective, exact=False, rounding="down")) <= x
    assert Fraction(_fmt_value(x, objective, exact=False, rounding="up")) >= x
    shown = _fmt_value(x, objective)
    if "(= " in shown:
        assert Fraction(shown.split("(= ")[1].rstrip(")")) == x
    else:
        assert Fraction(shown) == x


FRACTION = re.compile(r"(?<![=\d.])-?\d+/\d+")   # a raw fraction not inside "(= ...)"


def test_game_mode_values_print_as_decimals_with_the_exact_fraction(capsys, tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(random_position(2, 15).to_dict()))
    code, out, _ = run_cli(capsys, "cross-kings", "solve", str(path), "--mode", "game")
    assert code == 0
    code, js, _ = run_cli(capsys, "cross-kings", "solve", str(path), "--mode", "game", "--json")
    value = Fraction(json.loads(js)["value"])
    assert value.denominator > 1   # a fraction: -29/6
    assert f"  value {float(value):+.4f} (= {value})  (exact)" in out
    table = out.split("moves, best first:")[1]
    assert not FRACTION.search(table.replace(f"(= {value})", ""))


def test_estimates_print_as_decimals(capsys, tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps(random_position(2, 15).to_dict()))
    code, out, _ = run_cli(capsys, "cross-kings", "solve", str(path), "--mode", "game", "--node-limit", "30000")
    assert code == 0 and "estimate " in out and "not exact: node limit" in out
    body = out.split("second to move:")[1]
    assert not FRACTION.search(body.split("line the search prefers")[0])
    estimate = re.search(r"estimate (\S+) ", body).group(1)
    assert re.fullmatch(r"[+-]\d+(\.\d{1,4})?", estimate)
