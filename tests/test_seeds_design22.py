"""Session 22 (seeds): one error class per idea, and seeds that reproduce, across the
three games (docs/decisions.md, "One seed rule for every game")."""

from __future__ import annotations

import pytest

from crowns_solver.cross_kings.players import make_player
import crowns_solver.five_crowns as fc
import crowns_solver.kings_crowns as kc
from crowns_solver.errors import PolicyError, PolicySpecError, RulesError


# ------------------------------------------------------------ an unknown policy: PolicyError
@pytest.mark.parametrize("bad", [
    lambda: kc.get_policy("foo"),
    lambda: kc.get_policy("lookahead:samples=0"),
    lambda: kc.get_policy("greedy:samples=2"),
    lambda: kc.get_policy(5),
    lambda: kc.Game(2, seed=1).play_out("foo"),
    lambda: kc.Game(2, seed=1).play_out(["greedy"] * 3),
    lambda: kc.simulate(2, players=2, policies="foo", workers=1),
])
def test_a_bad_kings_crowns_policy_is_a_policy_error_and_still_a_rules_error(bad):
    # it was a RulesError only; Five Crowns and Cross Kings say PolicyError
    with pytest.raises(PolicyError) as info:
        bad()
    assert isinstance(info.value, RulesError) and isinstance(info.value, PolicySpecError)


def test_an_unknown_policy_is_a_policy_error_in_all_three_games():
    for unknown in (lambda: kc.get_policy("foo"), lambda: fc.get_policy("foo"),
                    lambda: make_player("foo")):
        with pytest.raises(PolicyError, match="foo"):
            unknown()
