"""Flags take True or False, NumPy's bools included (docs/decisions.md, "Options that are
flags take True or False only"), everywhere (session 22 break): the flags checked before
``_checks.check_flag`` existed refused ``np.True_`` / ``np.False_`` with the puzzling
``all_moves must be True or False, got np.True_``, although decisions.md lists them
among the flags that accept NumPy bools: ``solve(all_moves=)``, the Five Crowns
``Rules`` / ``GameRules`` / score keeper / ``crowns report`` rules option
``all_wild_melds``, the advisor's ``last_turn`` and ``discard_reshuffled``,
``replay(rerun=)`` and ``GameResult.save(overwrite=)``.  A NumPy bool is kept as a
plain bool (a rules object's JSON has no NumPy value); text and numbers stay refused."""

from __future__ import annotations

import json

import numpy as np
import pytest

from crowns_solver import five_crowns, report
from crowns_solver.cross_kings import Position, solve
from crowns_solver.errors import OutputExistsError, RecordError, RulesError, SolverOptionError
from crowns_solver.five_crowns import GameRules, Rules, ScoreKeeper, rank_discards, should_take_discard


def endgame() -> Position:
    pos = Position.random(seed=3).play((2, 2))
    while pos.cards_left > 10:
        pos = pos.play(pos.legal_moves()[0])
    return pos


def test_solve_all_moves_takes_numpy_bools():
    pos = endgame()
    plain = solve(pos, mode="open", all_moves=True)
    numpy = solve(pos, mode="open", all_moves=np.True_)
    assert numpy.value == plain.value and numpy.move_values == plain.move_values and numpy.move_values
    assert solve(pos, mode="open", all_moves=np.False_).move_values == solve(pos, mode="open").move_values
    with pytest.raises(SolverOptionError, match=r"^all_moves must be True or False, got 1$"):
        solve(pos, all_moves=1)


def test_five_crowns_rules_keep_a_numpy_bool_as_a_bool():
    rules = Rules(all_wild_melds=np.False_)
    assert rules == Rules(all_wild_melds=False) and type(rules.all_wild_melds) is bool
    game_rules = GameRules(players=4, all_wild_melds=np.False_)
    assert type(game_rules.all_wild_melds) is bool
    assert json.loads(json.dumps(game_rules.to_dict()))["all_wild_melds"] is False
    # three wilds meld only when melds of wilds only are allowed (4s wild in round 2)
    assert five_crowns.deadwood(["4H", "4S", "JK"], 4, rules=Rules(all_wild_melds=np.True_)) == 0
    assert five_crowns.deadwood(["4H", "4S", "JK"], 4, rules=rules) == 0   # 4H 4S as themselves, a book of 4s
    assert five_crowns.deadwood(["JK", "JK", "4S"], 4, rules=rules) == 0
    assert five_crowns.deadwood(["JK", "JK", "5S"], 5, rules=Rules(all_wild_melds=np.False_)) == 0
    with pytest.raises(RulesError, match=r"^all_wild_melds must be True or False, got 'no'$"):
        Rules(all_wild_melds="no")


def test_the_score_keeper_takes_numpy_bools():
    keeper = ScoreKeeper(["Ann", "Bob"])
    keeper.all_wild_melds = np.False_
    assert keeper.all_wild_melds is False
    with pytest.raises(RulesError, match=r"got 0$"):
        keeper.all_wild_melds = 0


def test_the_advisor_flags_take_numpy_bools():
    hand = ["3H", "4H", "5H", "9S", "KD"]
    plain = rank_discards(hand, 4, last_turn=True)
    assert rank_discards(hand, 4, last_turn=np.True_).equals(plain)
    pile = ["6H", "7H", "9H", "QS", "JK"]
    reshuffled = rank_discards(hand, 4, draw_pile=pile, discard_reshuffled=True)
    assert rank_discards(hand, 4, draw_pile=pile, discard_reshuffled=np.True_).equals(reshuffled)
    assert rank_discards(hand, 4, draw_pile=pile, discard_reshuffled=np.False_).equals(
        rank_discards(hand, 4, draw_pile=pile))
    advice = should_take_discard(["3H", "4H", "9S", "KD"], "5H", 4, last_turn=np.False_)
    assert advice == should_take_discard(["3H", "4H", "9S", "KD"], "5H", 4)
    with pytest.raises(RulesError, match=r"^last_turn must be True or False, got 'yes'$"):
        rank_discards(hand, 4, last_turn="yes")


def test_replay_and_save_take_numpy_bools(tmp_path):
    result = five_crowns.play_game(["greedy", "random"], seed=5, rules=GameRules(players=2, rounds=2))
    path = tmp_path / "game.json"
    result.save(path)
    result.save(path, overwrite=np.True_)
    with pytest.raises(OutputExistsError):
        result.save(path, overwrite=np.False_)
    with pytest.raises(OutputExistsError, match=r"^overwrite must be True or False, got 1$"):
        result.save(path, overwrite=1)
    again = five_crowns.replay(path, rerun=np.True_)
    assert again.totals == result.totals
    with pytest.raises(RecordError, match=r"^rerun must be True or False, got 'no'$"):
        five_crowns.replay(path, rerun="no")


def test_report_rules_option_all_wild_melds_takes_a_numpy_bool(tmp_path):
    paths = report.run_studies(["five_crowns_deals"], out_dir=tmp_path / "r", games=11, workers=1,
                               rules={"all_wild_melds": np.False_})
    first = paths[0].read_text(encoding="utf-8").splitlines()[0]
    assert first == "<!-- crowns-study: five_crowns_deals; rules: no melds of wilds only -->"
    with pytest.raises(RulesError, match=r"^all_wild_melds must be True or False, got 'false'$"):
        report.run_studies(["five_crowns_deals"], out_dir=tmp_path / "s", games=11, workers=1,
                           rules={"all_wild_melds": "false"})
    assert not (tmp_path / "s").exists()
