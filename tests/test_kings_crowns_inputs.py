"""King's Crowns API and CLI inputs: wrong types and out-of-range values get a
CrownsError naming the item (new-user probe findings 7, 8, 15 and 18)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import run_cli
from crowns_solver.errors import CrownsError, IllegalMoveError, RulesError, RunnerError
from crowns_solver.kings_crowns import DEFAULT_DECK, Deck, Game, Play, Rules, get_policy, simulate


@pytest.mark.parametrize("seed", [-1, float("nan"), 1.5, "x", True, b"1", [1]])
def test_bad_seeds_are_refused_naming_the_seed(seed):
    with pytest.raises(RulesError, match=f"seed must be a whole number >= 0.*got {seed!r}"[:60].replace("[", r"\[")):
        Game(4, seed=seed)


def test_a_game_without_a_seed_records_the_one_drawn_and_replays_from_it():
    g = Game(3).play_out("greedy")
    assert isinstance(g.seed, int) and g.seed >= 0
    again = Game(3, seed=g.seed).play_out("greedy")
    assert again.log == g.log and again.scores == g.scores
    assert Game(3, seed=np.int64(5)).seed == 5
    ss = np.random.SeedSequence(5)
    assert Game(3, seed=ss).seed is ss


def test_play_out_takes_one_name_for_every_seat():
    # "greedy" used to be read letter by letter ("unknown policy 'g'")
    one = Game(2, seed=4).play_out("greedy")
    each = Game(2, seed=4).play_out(["greedy", "greedy"])
    assert one.log == each.log and one.phase == "over"
    with pytest.raises(RulesError, match="policies must be a policy name, a Policy, or a list of them.*got 5"):
        Game(2, seed=4).play_out(5)


def test_plays_that_are_not_plays_are_refused_naming_them():
    g = Game(4, seed=7)
    g.draw("draw")
    for bad in ("salvation", None, 5, ("salvation",), ("a", "b", 1, 2)):
        with pytest.raises(IllegalMoveError, match="a play is a Play, \\(card, to\\)"):
            g.play(bad)
    for seat in (9, 4, -1):  # -1 used to reach the crowns stack's action code
        with pytest.raises(IllegalMoveError, match=f"no seat {seat} in a 4-player game"):
            g.play(Play("sin-orange", "play", seat))
    assert g.phase == "play" and len(g.log) == 1  # nothing was played


def test_simulate_policies_must_be_names_or_policies():
    with pytest.raises(RulesError, match="got 5"):
        simulate(10, players=2, policies=5, workers=1)
    with pytest.raises(RulesError, match="a policy is a name or a Policy, got 5"):
        simulate(10, players=2, policies=[5, "greedy"], workers=1)


def test_options_on_a_policy_without_options_say_so(capsys):
    for spec in ("greedy:x=1", "random:", "Defensive:samples=2"):
        with pytest.raises(RulesError, match="takes no options"):
            get_policy(spec)
    code, _, err = run_cli(capsys, "kings-crowns", "simulate", "--policy", "greedy:x=1", "--games", "2")
    assert code == 2 and err.startswith("crowns: error: greedy takes no options, got 'greedy:x=1'")
    assert get_policy("lookahead:samples=3").samples == 3


def test_a_target_above_the_decks_crown_points_is_refused(capsys):
    points = DEFAULT_DECK.crown_points()
    Rules(target=points).check(2)  # reachable in principle: allowed
    for players in (2, 5):
        with pytest.raises(RulesError, match=f"the target is {points + 1} crown points, more than the deck"):
            Game(players, Rules(target=points + 1), seed=1)
    small = Deck.from_mapping({"salvation": 22, "crown-black-5": 8}, "tiny")  # 40 crown points
    with pytest.raises(RulesError, match="the rules' target for 4 players is 100 crown points.*'tiny' holds \\(40\\)"):
        simulate(4, players=4, rules=Rules(deck=small), workers=1)
    code, _, err = run_cli(capsys, "kings-crowns", "simulate", "--games", "10", "--players", "2", "--target",
                           "100000")
    assert code == 2 and err.count("\n") == 1 and f"more than the deck 'default' holds ({points})" in err


@given(st.one_of(st.none(), st.integers(-3, 3), st.text(max_size=12), st.floats(allow_nan=True),
                 st.tuples(st.text(max_size=20), st.text(max_size=8)),
                 st.tuples(st.sampled_from(["sin-orange", "salvation"]), st.just("play"), st.integers(-9, 9)),
                 st.lists(st.integers(-2, 200), max_size=4)))
def test_any_play_input_is_a_play_or_a_crowns_error(bad):
    g = Game(3, seed=11)
    g.draw("draw")
    try:
        g.play(bad)
    except CrownsError:
        pass
    assert sum(g.card_counts().values()) == DEFAULT_DECK.size


def test_a_results_folder_is_refused():
    with pytest.raises(RunnerError, match="is a folder"):
        simulate(4, players=2, workers=1, out="/")
