"""``montecarlo.win_rates`` on the tables it cannot read says which table it got and what
reads it (design probe, session 18: an analyst reading back a Five Crowns duplicate run,
a Cross Kings match file or ``five_crowns.simulate``'s own table got only "results have
no policy_<seat> or win_<seat> columns")."""

from __future__ import annotations

import pytest

from crowns_solver import montecarlo
from crowns_solver.cross_kings.match import match
from crowns_solver.errors import RunnerError
from crowns_solver.five_crowns import simulate as fc_simulate


def test_a_five_crowns_duplicate_file(tmp_path):
    out = tmp_path / "d.jsonl"
    fc_simulate(2, players=2, policies=["greedy", "random"], duplicate=True, workers=1, out=out)
    with pytest.raises(RunnerError, match=r"one row per deal of a duplicate run \(columns k0_\.\.\.,.*"
                                          r"five_crowns\.simulate\(\.\.\., duplicate=True\).*crowns report"):
        montecarlo.win_rates(montecarlo.read_results(out))


def test_a_five_crowns_simulate_table(tmp_path):
    out = tmp_path / "f.jsonl"
    df = fc_simulate(6, players=2, policies=["greedy", "random"], rotate=True, workers=1, out=out)
    with pytest.raises(RunnerError, match=r"one row per game and seat.*five_crowns\.summarize\(results\)"):
        montecarlo.win_rates(df, by="policy")
    # the way the message points to: its results file, one row per game, gives the same wins
    rates = montecarlo.win_rates(montecarlo.read_results(out), by="policy")
    assert rates["wins"].to_dict() == df.groupby("policy")["won"].sum().astype(int).to_dict()
    assert rates["games"].to_dict() == {"greedy": 6, "random": 6}


def test_a_cross_kings_match_file(tmp_path):
    out = tmp_path / "m.jsonl"
    match("greedy", "random", 2, workers=1, out=out)
    with pytest.raises(RunnerError, match=r"Cross Kings match \(one row per deal\).*games_table.*summarise"):
        montecarlo.win_rates(montecarlo.read_results(out))


def test_any_other_table_keeps_the_plain_message():
    import pandas as pd

    with pytest.raises(RunnerError, match=r"^results have no policy_<seat> or win_<seat> columns$"):
        montecarlo.win_rates(pd.DataFrame({"x": [1, 2]}))
