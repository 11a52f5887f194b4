"""Session 23 (tables): intervals, their labels and inputs, variant charts, the report's
output folder on interruption, and empty policy option items."""

from __future__ import annotations

import pytest
from conftest import run_cli

from crowns_solver.errors import PolicySpecError


# ---------------------------------------------------------------- 6. policy specs

@pytest.mark.parametrize("spec", ["lookahead:", "lookahead: ", "lookahead: , ", "lookahead:samples=2,,horizon=2",
                                  "lookahead:samples=2,", "lookahead:,samples=2"])
def test_empty_lookahead_option_items_are_refused_naming_the_spec(spec):
    from crowns_solver.kings_crowns.policies import get_policy

    with pytest.raises(PolicySpecError, match="empty lookahead option|no lookahead options") as info:
        get_policy(spec)
    assert repr(spec) in str(info.value)


def test_lookahead_options_still_parse():
    from crowns_solver.kings_crowns.policies import get_policy

    p = get_policy("lookahead:samples=2, horizon=3")
    assert (p.samples, p.horizon) == (2, 3)
    assert get_policy("lookahead").samples == get_policy("LOOKAHEAD ").samples


def test_empty_policy_option_item_from_the_cli(capsys):
    rc, out, err = run_cli(capsys, "kings-crowns", "simulate", "--games", "2", "--workers", "1",
                           "--policy", "lookahead:samples=2,,horizon=2")
    assert rc == 2 and "lookahead:samples=2,,horizon=2" in err and out == ""
    rc, out, err = run_cli(capsys, "five-crowns", "simulate", "2", "--workers", "1", "--policies", "greedy:")
    assert rc == 2 and "'greedy:'" in err
