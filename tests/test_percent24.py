"""Session 24: percentages in the reports' text round half up from the digits the rate is
written with, so a headline agrees with its table (0.1125 read "11.2%" beside "0.113",
and 0.375 / 0.125 read "38%" / "12%")."""
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crowns_solver._text import number, percent
from crowns_solver.report import _fmt_cell


@pytest.mark.parametrize("x, places, text", [
    (0.1125, 1, "11.3%"), (0.375, 0, "38%"), (0.125, 0, "13%"), (0.5075, 1, "50.8%"), (0.268, 1, "26.8%"),
    (1, 0, "100%"), (0, 1, "0.0%"), (-0.0001, 1, "0.0%"), (0.99995, 2, "100.00%"), (0.00005, 2, "0.01%")])
def test_percent_rounds_half_up(x, places, text):
    assert percent(x, places) == text
    assert number(x, f".{places}%") == text          # number() formats rates the same way


def test_percent_of_nan_is_formatted_as_python_does():
    assert percent(math.nan) == format(math.nan, ".1%")


def test_headline_and_table_agree_on_a_half():
    # the five_crowns_deals headline said 11.2% where its table showed 0.113
    assert _fmt_cell(0.1125) == "0.113" and percent(0.1125, 1) == "11.3%"


@given(st.integers(min_value=0, max_value=10**6), st.integers(min_value=0, max_value=3))
def test_percent_of_a_decimal_rate_is_its_digits_rounded_half_up(k, places):
    x = k / 10**6
    value = float(percent(x, places)[:-1])
    exact = k / 10**4                              # the percentage, written exactly
    assert abs(value - exact) <= 0.5 * 10**-places + 1e-9
    # half up: a rate exactly half-way reads the larger number
    if round(exact * 10**places * 2) == exact * 10**places * 2 and (exact * 10**places) % 1 == 0.5:
        assert value > exact
