"""Five Crowns simulate's policy names (session 24 tester's defect): the results header
kept them as typed ("Greedy"), so a resume typed "greedy" was refused; a NumPy array of
names was "not a policy: array(...)".  Each test failed on the code before its fix."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import run_cli

from crowns_solver import montecarlo
from crowns_solver.errors import PolicyError


def test_five_crowns_records_canonical_policy_names_and_resumes_in_another_case(tmp_path, capsys):
    out = tmp_path / "f.jsonl"
    common = ["--games", "4", "--workers", "1", "--rounds", "2", "--out", str(out)]
    code, _, err = run_cli(capsys, "five-crowns", "simulate", "--policies", "Greedy", "RANDOM", *common)
    assert code == 0, err
    header = json.loads(out.read_text().splitlines()[0])
    assert header["meta"]["params"]["policies"] == ["greedy", "random"]
    code, _, err = run_cli(capsys, "five-crowns", "simulate", "--policies", "greedy", "random", *common)
    assert code == 0, err


def test_five_crowns_api_policy_names_are_canonical(tmp_path):
    from crowns_solver.five_crowns import GameRules, simulate

    out = tmp_path / "f.jsonl"
    args = dict(players=2, rules=GameRules(players=2, rounds=2), seed=0, workers=1, out=out)
    first = simulate(2, policies=["Greedy", " random "], **args)
    assert montecarlo.read_header(out)["params"]["policies"] == ["greedy", "random"]
    again = simulate(2, policies=["greedy", "RANDOM"], **args)   # the same run: resumed, nothing played
    assert again.equals(first) and sorted(set(again["policy"])) == ["greedy", "random"]


@pytest.mark.parametrize("policies", [np.array(["greedy", "random"]), {"greedy", "random"}])
def test_five_crowns_policies_not_a_list_is_a_clear_error(policies):
    from crowns_solver.five_crowns import simulate

    with pytest.raises(PolicyError, match="policies must be a policy name, a Policy, or a list of them"):
        simulate(4, players=2, policies=policies, workers=1)
