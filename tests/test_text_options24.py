"""Options whose values are words are checked to be a str first (session 24).

``value in ("any", "nearest")`` took a one-element NumPy array (``np.array(["nearest"])
== "nearest"`` is a true array): it was stored and broke later with a plain TypeError
(hashing, JSON: the Rules, the solution, the keeper file, the game record, a match's
results header), and an empty array raised NumPy's "truth value of an empty array is
ambiguous".  Every such option now goes through ``crowns_solver._checks.check_choice``
or ``is_choice``: anything but a str is refused with the module's own error, naming the
option and the value; a NumPy ``str_`` is taken and kept as a plain str.
"""

from __future__ import annotations

import dataclasses
import io
import json

import numpy as np
import pandas as pd
import pytest

import crowns_solver.five_crowns as fc
import crowns_solver.kings_crowns as kc
from crowns_solver import montecarlo, report
from crowns_solver._checks import check_choice, is_choice
from crowns_solver.cross_kings import Deal, Position, Rules, solve
from crowns_solver.cross_kings.match import match
from crowns_solver.cross_kings.play import PlaySession
from crowns_solver.cross_kings.players import ClairvoyantPlayer, GreedyPlayer, SearchPlayer, seat_view
from crowns_solver.cross_kings.position import symmetry_map
from crowns_solver.cross_kings.review import analyse_game
from crowns_solver.errors import (
    IllegalMoveError,
    PolicyError,
    PolicySpecError,
    PositionError,
    RulesError,
    RunnerError,
    SolverOptionError,
)

POS = Position.random(seed=1).play((2, 2))


def _session(**kw):
    return PlaySession(seed=1, opponent="random", stdin=io.StringIO(""), stdout=io.StringIO(), **kw)


#: (label, call taking the value, a valid word, the error, how its message starts)
WORD_OPTIONS = [
    ("Rules reach", lambda v: Rules(reach=v), "nearest", RulesError, "reach must be 'any' or 'nearest', got "),
    ("solve mode", lambda v: solve(POS, mode=v, node_limit=100), "open", SolverOptionError,
     "mode must be 'open' or 'game', got "),
    ("solve objective", lambda v: solve(POS, objective=v, node_limit=100), "win", SolverOptionError,
     "objective must be 'margin' or 'win', got "),
    ("solve evaluation", lambda v: solve(POS, evaluation=v, node_limit=100), "potential", SolverOptionError,
     "evaluation must be 'fitted' or 'potential', got "),
    ("GreedyPlayer tie_break", lambda v: GreedyPlayer(tie_break=v), "first", PolicyError,
     "tie_break must be 'random' or 'first', got "),
    ("SearchPlayer objective", lambda v: SearchPlayer(objective=v), "win", PolicyError,
     "objective must be 'margin' or 'win', got "),
    ("SearchPlayer evaluation", lambda v: SearchPlayer(evaluation=v), "fitted", PolicyError,
     "evaluation must be 'fitted' or 'potential', got "),
    ("ClairvoyantPlayer objective", lambda v: ClairvoyantPlayer(objective=v), "win", PolicyError,
     "objective must be 'margin' or 'win', got "),
    ("seat_view seat", lambda v: seat_view(POS, v), "first", PositionError, "seat must be 'first' or 'second', got "),
    ("Position.hand player", lambda v: POS.hand(v), "first", PositionError,
     "player must be 'first' or 'second', got "),
    ("Position to_move", lambda v: dataclasses.replace(POS, to_move=v),
     "first", PositionError, "to_move must be 'first' or 'second', got "),
    ("symmetry_map", symmetry_map, "identity", PositionError, "unknown grid symmetry "),
    ("match reach", lambda v: match("greedy", "random", deals=1, reach=v), "nearest", RulesError,
     "reach must be 'any' or 'nearest', got "),
    ("run_studies rules reach", lambda v: report.run_studies(rules={"reach": v}), "nearest", RulesError,
     "reach must be 'any' or 'nearest', got "),
    ("PlaySession reach", lambda v: _session(reach=v), "nearest", RulesError, "reach must be 'any' or 'nearest', got "),
    ("PlaySession seat", lambda v: _session(seat=v), "random", PositionError,
     "seat must be 'first', 'second' or 'random', got "),
    ("analyse_game players", lambda v: analyse_game(POS, players=[v]), "first", SolverOptionError,
     "players must be 'first' and/or 'second', got "),
    ("ScoreKeeper ties", lambda v: fc.ScoreKeeper(["a", "b"], ties=v), "tiebreak", RulesError,
     "ties must be 'share' or 'tiebreak', got "),
    ("GameRules ties", lambda v: fc.GameRules(players=2, ties=v), "tiebreak", RulesError,
     "ties must be 'share' or 'tiebreak', got "),
    ("play_game engine", lambda v: fc.play_game(["random", "random"], seed=1, engine=v), "python", RulesError,
     "engine must be 'auto', 'compiled' or 'python', got "),
    ("BuiltinPolicy kind", lambda v: kc.BuiltinPolicy(v), "greedy", PolicySpecError, "unknown policy "),
    ("LookaheadPolicy rollout", lambda v: kc.LookaheadPolicy(rollout=v), "greedy", PolicySpecError,
     "lookahead rollout must be one of random, greedy, aggressive, defensive, got "),
    ("King's Crowns Play to", lambda v: kc.Play("salvation", to=v), "discard", IllegalMoveError,
     "a play goes to one of discard, play, gifts, crowns, not "),
    ("King's Crowns draw source", lambda v: kc.Game(2, seed=1).draw(v), "draw", IllegalMoveError, "cannot draw from "),
    ("win_rates by", lambda v: montecarlo.win_rates(pd.DataFrame(), by=v), "seat", RunnerError,
     "by must be 'seat' or 'policy', got "),
    ("write_report by", lambda v: report.write_report(pd.DataFrame(), "never-made", by=v), "seat", RunnerError,
     "by must be 'seat' or 'policy', got "),
]
IDS = [w[0] for w in WORD_OPTIONS]


@pytest.mark.parametrize("array", [lambda w: np.array([w]), lambda w: np.array([]), lambda w: np.array([[w]]),
                                   lambda w: np.array([w, w])], ids=["one word", "empty", "2-d", "two words"])
@pytest.mark.parametrize(("label", "call", "word", "error", "message"), WORD_OPTIONS, ids=IDS)
def test_a_numpy_array_for_a_word_option_is_refused_naming_the_option(tmp_path, monkeypatch, label, call, word,
                                                                      error, message, array):
    """The tester's examples: a one-element array was accepted (or raised a TypeError,
    "unhashable type"), an empty one raised NumPy's "truth value ... ambiguous"; now the
    module's error, whose message names the option (or what it is) and the value."""
    monkeypatch.chdir(tmp_path)
    value = array(word)
    with pytest.raises(error) as info:
        call(value)
    assert str(info.value).startswith(message), str(info.value)
    assert repr(value) in str(info.value)
    assert list(tmp_path.iterdir()) == []   # refused before any file is written


def test_numpy_str_words_are_taken_and_kept_as_plain_str(tmp_path):
    """A NumPy str_ is a str: accepted, and stored as a plain str, so everything built from
    it hashes and is written as JSON (the tester's follow-ups: hash(rules), the position's
    and the solution's JSON, the keeper file, the game record)."""
    rules = Rules(reach=np.str_("nearest"))
    assert type(rules.reach) is str and rules == Rules(reach="nearest") and hash(rules) == hash(Rules(reach="nearest"))
    doc = Position.new(Deal.random(seed=1), rules=rules).to_dict()
    assert json.loads(json.dumps(doc))["reach"] == "nearest"
    s = solve(POS, mode=np.str_("game"), objective=np.str_("win"), evaluation=np.str_("potential"), node_limit=100)
    assert (type(s.mode), type(s.objective), type(s.evaluation)) == (str, str, str)
    assert json.loads(json.dumps(s.to_dict()))["objective"] == "win"
    assert type(GreedyPlayer(np.str_("first")).tie_break) is str
    player = SearchPlayer(objective=np.str_("win"), evaluation=np.str_("potential"))
    assert (type(player.objective), type(player.evaluation)) == (str, str)
    assert type(seat_view(POS, np.str_("second")).seat) is str
    assert POS.hand(np.str_("first")) == POS.hand("first")
    keeper = fc.ScoreKeeper(["a", "b"], ties=np.str_("tiebreak"))
    assert type(keeper.ties) is str
    keeper.save(tmp_path / "k.json")
    assert json.loads((tmp_path / "k.json").read_text())["ties"] == "tiebreak"
    game_rules = fc.GameRules(players=2, ties=np.str_("tiebreak"))
    assert type(game_rules.ties) is str
    record = fc.play_game(["random", "random"], seed=1, rules=game_rules, engine=np.str_("python")).record
    assert json.loads(json.dumps(record)) == record
    assert type(kc.BuiltinPolicy(np.str_("greedy")).kind) is str
    assert type(kc.LookaheadPolicy(rollout=np.str_("greedy")).rollout) is str
    assert type(kc.Play("salvation", to=np.str_("discard")).to) is str
    m = match("greedy", "random", deals=1, reach=np.str_("nearest"))
    assert type(m.reach) is str
    session = _session(reach=np.str_("nearest"), seat=np.str_("second"))
    assert (type(session.human), type(session.position.rules.reach)) == (str, str)


def test_check_choice_refuses_what_is_not_a_str_and_returns_a_plain_str():
    assert check_choice("x", np.str_("b"), ("a", "b")) == "b"
    assert type(check_choice("x", np.str_("b"), ("a", "b"))) is str
    assert is_choice("a", {"a": 1}) and not is_choice(b"a", ("a",)) and not is_choice(np.array(["a"]), ("a",))
    for bad, shown in ((np.array(["a"]), "array(['a'], dtype='<U1')"), (np.array([]), "array([], dtype=float64)"),
                       (b"a", "b'a'"), (None, "None"), (["a"], "['a']"), ("A", "'A'")):
        with pytest.raises(PolicyError) as info:
            check_choice("colour", bad, ("a", "b", "c"), PolicyError)
        assert str(info.value) == f"colour must be 'a', 'b' or 'c', got {shown}"
        assert info.value.arguments == ("colour",)
    with pytest.raises(RunnerError) as info:
        check_choice("by", "x", ("seat",), argument=None)
    assert str(info.value) == "by must be 'seat', got 'x'" and info.value.arguments == ()
