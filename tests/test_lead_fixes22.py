"""Small fixes of session 22 from the break-it pass: Cross Kings player names in any case
(Five Crowns and King's Crowns policy names already were), and ``crowns report``'s refusal
of a rules option naming the options the study does take."""

from __future__ import annotations

import pytest

from conftest import run_cli
from crowns_solver.cross_kings import Position, match
from crowns_solver.cross_kings.players import GreedyPlayer, SearchPlayer, make_player
from crowns_solver.errors import PolicyError


def test_cross_kings_player_names_are_read_in_any_case():
    assert isinstance(make_player(" Greedy "), GreedyPlayer)
    assert isinstance(make_player("SEARCH", node_limit=100), SearchPlayer)
    pos = Position.random(seed=3)
    assert match.play_game(pos, "Greedy", "GREEDY").margin == match.play_game(pos, "greedy", "greedy").margin
    m = match.match(" Greedy", "Random", deals=2, seed=1, workers=1, progress=False)
    assert (m.a, m.b) == ("greedy", "random")   # the results carry the names as PLAYER_NAMES spells them
    same = match.match("greedy", "random", deals=2, seed=1, workers=1, progress=False)
    timing = [c for c in m.games.columns if c.startswith("seconds")]
    assert m.games.drop(columns=timing).equals(same.games.drop(columns=timing))
    with pytest.raises(PolicyError, match="unknown Cross Kings player 'nope' for player B"):
        match.match("Greedy", "nope", deals=2)
    with pytest.raises(PolicyError, match="unknown Cross Kings player 3 for the player"):
        match.self_play(3, deals=2)


def test_a_study_refusing_a_rules_option_names_the_ones_it_takes(capsys):
    code, out, err = run_cli(capsys, "report", "--quick", "--sets", "2", "--reach", "nearest",
                             "--only", "five_crowns_deals")
    assert code == 2
    assert err.startswith("crowns: error: five_crowns_deals does not take --reach (it takes only --sets and"
                          " --no-all-wild-melds); studies that take --reach and --sets: none")
    code, out, err = run_cli(capsys, "report", "--quick", "--reach", "nearest", "--only", "kings_crowns_seats")
    assert code == 2 and "kings_crowns_seats does not take --reach (it takes only --deck)" in err
