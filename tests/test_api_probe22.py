"""The Python API as a notebook user meets it: findings of the session-22 probe.

Each test failed on the code before its fix.
"""

from __future__ import annotations

import pytest

import crowns_solver.kings_crowns as kc
from crowns_solver.errors import IllegalMoveError, RulesError


# ------------------------------------------------------------------ King's Crowns Game.play_turn
def test_play_turn_takes_policy_names_as_play_out_does():
    # play_turn("greedy") and play_turn(["greedy", "greedy"]) raised AttributeError
    # ('str' object has no attribute 'choose_draw') in the middle of the turn
    by_name, by_list, by_object = kc.Game(2, seed=5), kc.Game(2, seed=5), kc.Game(2, seed=5)
    greedy = kc.get_policy("greedy")
    for _ in range(6):
        by_name.play_turn("greedy")
        by_list.play_turn(["greedy", "GREEDY"])
        by_object.play_turn([greedy, greedy])
    assert by_name.turn == by_list.turn == by_object.turn == 6
    assert by_name.log == by_list.log == by_object.log
    assert by_name.state() == by_object.state()


def test_play_turn_turn_by_turn_is_play_out():
    stepped, whole = kc.Game(3, seed=11), kc.Game(3, seed=11)
    pols = ["aggressive", "greedy", "defensive"]
    while not stepped.ended:
        stepped.play_turn(pols)
    whole.play_out(pols)
    assert (stepped.winner, stepped.turn, stepped.scores) == (whole.winner, whole.turn, whole.scores)
    assert stepped.log == whole.log


@pytest.mark.parametrize("bad, message", [
    (["greedy"], r"one policy per seat \(2\), got 1"),
    ("nobody", "unknown policy 'nobody'"),
    (None, "policies must be a policy name"),
    ([None, "greedy"], "a policy is a name or a Policy, got None"),
])
def test_play_turn_refuses_bad_policies_before_playing(bad, message):
    g = kc.Game(2, seed=5)
    with pytest.raises(RulesError, match=message):
        g.play_turn(bad)
    assert g.turn == 0 and g.log == []


def test_play_turn_on_a_finished_game_is_refused():
    # it returned None and did nothing
    g = kc.Game(2, seed=5).play_out("greedy")
    assert g.ended
    with pytest.raises(IllegalMoveError, match=f"no turn to play: game over after {g.turn} turns"):
        g.play_turn("greedy")


# ------------------------------------------------------------------ Cross Kings play_game
def test_cross_kings_play_game_takes_player_names():
    # match() and self_play() take names, five_crowns.play_game and kings_crowns play_out
    # too; cross_kings.match.play_game refused them ("first is not a Cross Kings player")
    import numpy as np

    from crowns_solver.cross_kings import Deal
    from crowns_solver.cross_kings.match import play_game
    from crowns_solver.cross_kings.players import make_player

    deal = Deal.random(4)
    by_name = play_game(deal, "greedy", "random", rngs=(np.random.default_rng(1), np.random.default_rng(2)))
    by_object = play_game(deal, make_player("greedy"), make_player("random"),
                          rngs=(np.random.default_rng(1), np.random.default_rng(2)))
    assert by_name.position == by_object.position
    assert by_name.position.history == by_object.position.history
    assert by_name.moves == by_object.moves
    assert by_name.position.is_terminal()


def test_cross_kings_play_game_names_an_unknown_player_and_its_seat():
    from crowns_solver.cross_kings import Deal
    from crowns_solver.cross_kings.match import play_game
    from crowns_solver.errors import PolicyError

    with pytest.raises(PolicyError, match="unknown Cross Kings player 'alphabeta' for second; choose from random"):
        play_game(Deal.random(4), "greedy", "alphabeta")
    with pytest.raises(PolicyError, match="first is not a Cross Kings player"):
        play_game(Deal.random(4), 3, "greedy")


# ------------------------------------------------------------------ reprs a notebook shows
def test_score_keeper_repr_shows_the_pad():
    import crowns_solver.five_crowns as fc

    k = fc.ScoreKeeper(["Ann", "Bob"])
    assert repr(k) == "<ScoreKeeper Ann, Bob: 0 rounds complete, round 1, Ann next; totals {'Ann': 0, 'Bob': 0}>"
    k.enter_round(["5S 9H JK", 0])   # 5 + 9 + 50 (RULES.md's card values, 3s wild)
    k.enter(12)                      # Ann's round 2; Bob's still to come
    assert repr(k) == "<ScoreKeeper Ann, Bob: 1 round complete, round 2, Bob next; totals {'Ann': 76, 'Bob': 0}>"
    k.enter(0)
    for _ in range(9):
        k.enter_round([0, 12])
    assert k.finished
    assert repr(k) == "<ScoreKeeper Ann, Bob: 11 rounds complete, finished, won by Ann; totals {'Ann': 76, 'Bob': 108}>"


def test_kings_crowns_game_repr_shows_the_state():
    g = kc.Game(2, seed=5)
    assert repr(g) == "<Game 2 players, turn 0, seat 0 to draw; scores (0, 0)>"
    g.draw("draw")
    assert repr(g) == "<Game 2 players, turn 0, seat 0 to play; scores (0, 0)>"
    g.play_out("greedy")
    assert g.winner is not None
    assert repr(g) == (f"<Game 2 players, over after {g.turn} turns: seat {g.winner} won with"
                       f" {g.scores[g.winner]} crown points; scores {g.scores}>")
    capped = kc.Game(2, seed=5, rules=kc.Rules(max_turns=3)).play_out("greedy")
    assert capped.ended == "stalemate"
    assert repr(capped) == f"<Game 2 players, over after 3 turns: stalemate at the turn cap; scores {capped.scores}>"


@pytest.mark.parametrize("name, text", [("random", "RandomPolicy()"), ("greedy", "GreedyPolicy()"),
                                        ("advisor", "AdvisorPolicy()")])
def test_five_crowns_built_in_policies_repr_like_tracker(name, text):
    import crowns_solver.five_crowns as fc

    assert repr(fc.get_policy(name)) == text
    assert repr(fc.get_policy("tracker")).startswith("TrackerPolicy(feed_weight=10")


# ------------------------------------------------------------------ montecarlo.run's chunk function
def _chunk_returns_a_number(chunk_index, n_games, seed):
    return n_games


def _chunk_returns_numbers(chunk_index, n_games, seed):
    return list(range(n_games))


def _chunk_returns_columns(chunk_index, n_games, seed):
    return {"winner": [0] * n_games, "policy_0": ["a"] * n_games}


def _chunk_yields_rows(chunk_index, n_games, seed):
    for _ in range(n_games):
        yield {"winner": 0, "policy_0": "a"}


def test_run_refuses_a_chunk_function_that_is_not_callable():
    from crowns_solver import montecarlo
    from crowns_solver.errors import RunnerError

    with pytest.raises(RunnerError, match="play_chunk must be a function .* got int"):
        montecarlo.run(5, 3, workers=1)   # TypeError: 'int' object is not callable


@pytest.mark.parametrize("chunk, message", [
    (_chunk_returns_a_number, r"_chunk_returns_a_number \(chunk 0\) returned int; a chunk function returns a DataFrame"),
    (_chunk_returns_numbers, r"returned a list whose item 0 is int"),
    (_chunk_returns_columns, r"returned dict; a chunk function returns a DataFrame or a list of dicts"),
])
def test_run_names_what_a_chunk_function_returned_instead_of_rows(chunk, message):
    # a number raised "TypeError: 'int' object is not iterable"; a list of numbers became a
    # table with one column named 0 (then "no policy_<seat> columns" downstream); a dict of
    # columns became a one-column table of its keys (then "returned 2 rows for 3 games")
    from crowns_solver import montecarlo
    from crowns_solver.errors import RunnerError

    with pytest.raises(RunnerError, match=message):
        montecarlo.run(chunk, 3, workers=1)


def test_run_still_takes_rows_from_any_iterable_of_dicts():
    from crowns_solver import montecarlo

    df = montecarlo.run(_chunk_yields_rows, 5, chunk_size=2, workers=1)
    assert df["game"].tolist() == [0, 1, 2, 3, 4]
    assert df["winner"].tolist() == [0] * 5
    assert montecarlo.win_rates(df)["wins"].tolist() == [5]


# ------------------------------------------------------------------ five_crowns.summarize
def test_five_crowns_summarize_is_public_and_is_the_command_s_table():
    import crowns_solver.five_crowns as fc
    from crowns_solver import montecarlo
    from crowns_solver.five_crowns.cli import summarize as cli_summarize

    df = fc.simulate(6, players=3, policies=["greedy", "random", "advisor"], seed=2, rotate=True, workers=1)
    table = fc.summarize(df)
    assert "summarize" in fc.__all__
    assert table.equals(cli_summarize(df))
    assert table.index.tolist() == ["advisor", "greedy", "random"]
    assert table["seat_games"].tolist() == [6, 6, 6]
    for policy, row in table.iterrows():
        part = df[df["policy"] == policy]
        assert row["wins"] == part["won"].sum()
        assert row["mean_total"] == pytest.approx(part["total"].mean())
        # one seat per game: the interval over games is the Wilson interval of the wins
        low, high = montecarlo.wilson_interval(row["wins"], 6)
        assert (row["win_low"], row["win_high"]) == pytest.approx((low, high))


def test_five_crowns_summarize_refuses_other_tables_naming_what_reads_them(tmp_path):
    import crowns_solver.five_crowns as fc
    from crowns_solver import montecarlo
    from crowns_solver.errors import RunnerError

    fc.simulate(2, players=2, seed=1, workers=1, out=tmp_path / "r.jsonl")
    wide = montecarlo.read_results(tmp_path / "r.jsonl")
    with pytest.raises(RunnerError, match="no policy, total, won columns .*montecarlo.win_rates reads it"):
        fc.summarize(wide)
    with pytest.raises(RunnerError, match="got list"):
        fc.summarize([1, 2])


def test_win_rates_of_a_five_crowns_table_points_to_summarize():
    import crowns_solver.five_crowns as fc
    from crowns_solver import montecarlo
    from crowns_solver.errors import RunnerError

    df = fc.simulate(2, players=2, seed=1, workers=1)
    with pytest.raises(RunnerError, match=r"use five_crowns\.summarize\(results\)"):
        montecarlo.win_rates(df)


# ------------------------------------------------------------------ report.write_report of what the API returns
def test_write_report_says_what_to_do_with_a_match_result(tmp_path):
    from crowns_solver import report
    from crowns_solver.cross_kings.match import match
    from crowns_solver.errors import ResultsFileError, RunnerError

    res = match("greedy", "random", 2, seed=1, workers=1)
    # it said "the results file path must be a str or path-like, got MatchResult(...)"
    with pytest.raises(ResultsFileError, match=r"a MatchResult holds one row per game .* give match\(\.\.\., out="):
        report.write_report(res, tmp_path / "r1")
    with pytest.raises(RunnerError, match=r"MatchResult\.games is one row per game: give match\(\.\.\., out="):
        report.write_report(res.games, tmp_path / "r2")
    assert not (tmp_path / "r1").exists() and not (tmp_path / "r2").exists()
    # the way pointed to works
    match("greedy", "random", 2, seed=1, workers=1, out=tmp_path / "m.jsonl")
    assert report.write_report(tmp_path / "m.jsonl", tmp_path / "r3").is_file()


def test_write_report_says_what_to_do_with_a_five_crowns_simulate_table(tmp_path):
    import crowns_solver.five_crowns as fc
    from crowns_solver import report
    from crowns_solver.errors import RunnerError

    df = fc.simulate(2, players=2, seed=1, workers=1)
    with pytest.raises(RunnerError, match=r"one row per game and seat: give it out= a results file .*summarize"):
        report.write_report(df, tmp_path / "r")
    assert not (tmp_path / "r").exists()


# ------------------------------------------------------------------ docs: the Solution table
def test_solver_docs_table_names_every_solution_field():
    # the table left out the fields `evaluation` and `to_move`
    import dataclasses
    import re
    from pathlib import Path

    from crowns_solver.cross_kings.solver import Solution

    page = Path(__file__).resolve().parents[1] / "docs" / "cross_kings_solver.md"
    if not page.is_file():
        pytest.skip("docs/ not beside the tests")
    text = page.read_text(encoding="utf-8")
    table = text[text.index("`Solution` (frozen dataclass):"):]
    table = table[:table.index("\n\n", table.index("| field |"))]
    named = {n for line in table.splitlines()[3:] for n in re.findall(r"`(\w+)`", line.split("|")[1])}
    fields = {f.name for f in dataclasses.fields(Solution)}
    assert fields - named == set()
    assert named - fields <= {"best_move", "move_values", "card_values", "nodes_per_second"}


# ------------------------------------------------------------------ flags given as text or numbers
# bool("no") is True: each of these took "no" (or 0.0, "False") for its truth value, so
# "no" switched the option on: rotated seats, a duplicate run, a judged start choice, a
# replaced report (King's Crowns' rotate was checked since session 19)
NOT_FLAGS = ["no", "False", 0.0, 1, None]


@pytest.mark.parametrize("bad", NOT_FLAGS)
@pytest.mark.parametrize("flag", ["rotate", "duplicate"])
def test_five_crowns_simulate_flags_must_be_bools(flag, bad):
    import crowns_solver.five_crowns as fc

    with pytest.raises(RulesError, match=f"{flag} must be True or False, got {bad!r}"):
        fc.simulate(1, players=2, workers=1, **{flag: bad})


@pytest.mark.parametrize("bad", NOT_FLAGS)
def test_progress_must_be_a_bool_in_every_run(bad):
    import crowns_solver.five_crowns as fc
    from crowns_solver import montecarlo
    from crowns_solver.cross_kings.match import match, self_play
    from crowns_solver.errors import RunnerError

    for run in (lambda: kc.simulate(1, workers=1, progress=bad),
                lambda: fc.simulate(1, players=2, workers=1, progress=bad),
                lambda: match("greedy", "random", 1, workers=1, progress=bad),
                lambda: self_play("greedy", 1, workers=1, progress=bad),
                lambda: montecarlo.run(_chunk_yields_rows, 1, workers=1, progress=bad)):
        with pytest.raises(RunnerError, match=f"progress must be True or False, got {bad!r}"):
            run()


@pytest.mark.parametrize("bad", NOT_FLAGS)
def test_review_include_start_must_be_a_bool(bad):
    from crowns_solver.cross_kings import Position
    from crowns_solver.cross_kings.review import analyse_game, replay
    from crowns_solver.errors import SolverOptionError

    game = Position.random(seed=3).play((2, 2)).play((2, 0))
    with pytest.raises(SolverOptionError, match=f"include_start must be True or False, got {bad!r}"):
        replay(game, include_start=bad)
    with pytest.raises(SolverOptionError, match=f"include_start must be True or False, got {bad!r}"):
        analyse_game(game, include_start=bad, node_limit=100, time_limit=None)
    # False and True still work, NumPy's bools too
    import numpy as np

    assert [s.ply for s in replay(game, include_start=np.bool_(True))] == [0, 1]
    assert [s.ply for s in replay(game, include_start=False)] == [1]


@pytest.mark.parametrize("bad", ["no", 0.0, None])
def test_report_force_must_be_a_bool_and_no_file_is_replaced(tmp_path, bad):
    from crowns_solver import report
    from crowns_solver.errors import OutputExistsError

    mine = tmp_path / "report.md"
    mine.write_text("my own notes\n")
    df = kc.simulate(4, players=2, workers=1)
    with pytest.raises(OutputExistsError, match=f"force must be True or False, got {bad!r}"):
        report.write_report(df, tmp_path, force=bad)   # force="no" replaced my report.md
    assert mine.read_text() == "my own notes\n"
    (tmp_path / "index.md").write_text("my index\n")
    with pytest.raises(OutputExistsError, match=f"force must be True or False, got {bad!r}"):
        report.write_index(tmp_path, force=bad)
    assert (tmp_path / "index.md").read_text() == "my index\n"
    with pytest.raises(OutputExistsError, match=f"force must be True or False, got {bad!r}"):
        report.run_studies(["kings_crowns_seats"], quick=True, out_dir=tmp_path / "r", force=bad)
    from crowns_solver.errors import RunnerError

    with pytest.raises(RunnerError, match=f"quick must be True or False, got {bad!r}"):
        report.run_studies(["kings_crowns_seats"], quick=bad, out_dir=tmp_path / "r")
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("bad", NOT_FLAGS)
def test_seat_view_reveal_must_be_a_bool(bad):
    # reveal="no" gave an honest seat's view the whole deal (true_position answered)
    from crowns_solver.cross_kings import Position
    from crowns_solver.cross_kings.players import SeatView, seat_view
    from crowns_solver.errors import HiddenCardError, PositionError

    pos = Position.random(seed=1).play((2, 2))
    for make in (seat_view, SeatView):
        with pytest.raises(PositionError, match=f"reveal must be True or False, got {bad!r}"):
            make(pos, "first", reveal=bad)
    with pytest.raises(HiddenCardError):
        seat_view(pos, "first").true_position()
    assert seat_view(pos, "first", reveal=True).true_position() == pos


@pytest.mark.parametrize("bad", NOT_FLAGS)
def test_cluster_wilson_interval_one_success_must_be_a_bool(bad):
    # one_success="no" silently gave the one-success interval (0.104 .. 0.469 here
    # instead of 0.039 .. 0.860)
    from crowns_solver import montecarlo
    from crowns_solver.errors import RunnerError

    with pytest.raises(RunnerError, match=f"one_success must be True or False, got {bad!r}"):
        montecarlo.cluster_wilson_interval([1, 0, 1], [2, 2, 2], one_success=bad)
    rate, low, high = montecarlo.cluster_wilson_interval([1, 0, 1], [2, 2, 2])
    assert rate == pytest.approx(1 / 3) and (low, high) == pytest.approx((0.038964, 0.860456), abs=1e-6)


# ------------------------------------------------------------------ montecarlo helpers
@pytest.mark.parametrize("pool, timeout, message", [
    (5, 1.0, "stop_pool needs a concurrent.futures.Executor, got int"),      # AttributeError
    (None, 1.0, "stop_pool needs a concurrent.futures.Executor, got NoneType"),
    ("pool", 5.0, "got str"),
    ("thread", "x", "timeout must be a number of seconds >= 0, got 'x'"),    # TypeError after shutdown
    ("thread", -1, "timeout must be a number of seconds >= 0, got -1"),
    ("thread", float("nan"), "timeout must be a number of seconds >= 0, got nan"),
])
def test_stop_pool_refuses_what_is_not_a_pool_or_a_timeout(pool, timeout, message):
    from concurrent.futures import ThreadPoolExecutor

    from crowns_solver import montecarlo
    from crowns_solver.errors import RunnerError

    real = ThreadPoolExecutor(1)
    try:
        with pytest.raises(RunnerError, match=message):
            montecarlo.stop_pool(real if pool == "thread" else pool, timeout=timeout)
        assert real.submit(lambda: 7).result() == 7   # a refusal stops nothing
    finally:
        montecarlo.stop_pool(real, timeout=1)
    with pytest.raises(RuntimeError):                 # and a good call did stop it
        real.submit(lambda: 7)


@pytest.mark.parametrize("z", ["2", "1.96", b"2"])
def test_interval_z_given_as_text_is_refused(z):
    # float("2") made the text a quantile; every other wrong type was refused
    from crowns_solver import montecarlo
    from crowns_solver.errors import RunnerError

    with pytest.raises(RunnerError, match="z must be a normal quantile > 0"):
        montecarlo.wilson_interval(1, 10, z=z)
    with pytest.raises(RunnerError, match="z must be a normal quantile > 0"):
        montecarlo.cluster_wilson_interval([1, 0], [2, 2], z=z)


# ------------------------------------------------------------------ a custom King's Crowns player's bad choice
class _DrawsFromNowhere(kc.Policy):
    name = "nowhere"

    def choose_draw(self, view, rng):
        return 5

    def choose_play(self, view, rng):
        return view.legal_plays()[0]


class _PlaysAJoker(kc.Policy):
    name = "joker"

    def choose_draw(self, view, rng):
        return "draw"

    def choose_play(self, view, rng):
        return ("joker", "discard")


def test_a_custom_player_s_illegal_choice_names_the_player():
    # "cannot draw from 5 now (seat 0 to draw, turn 0)" named no player: with several
    # custom players in a simulation the user could not tell whose choice it was
    from crowns_solver.errors import CardError

    with pytest.raises(IllegalMoveError, match=r"policy 'nowhere' \(seat 1\) chose badly: cannot draw from 5 now"):
        kc.simulate(1, players=2, policies=["greedy", _DrawsFromNowhere()], workers=1)
    with pytest.raises(CardError, match=r"policy 'joker' \(seat 0\) chose badly: not a King's Crowns card: 'joker'"):
        kc.Game(2, seed=1).play_out([_PlaysAJoker(), "greedy"])


def test_score_keeper_repr_names_a_tiebreak_round_as_the_pad_does():
    import crowns_solver.five_crowns as fc

    k = fc.ScoreKeeper(["Ann", "Bob", "Cy"], ties="tiebreak")
    for rnd in range(11):   # round 1: 3 cards kept score 0, or 13 and more (RULES.md)
        k.enter_round([0, 0, 11 if rnd == 1 else 13 if rnd == 0 else 12])
    assert repr(k) == ("<ScoreKeeper Ann, Bob, Cy: 11 rounds complete, round tb1, Ann next;"
                       " totals {'Ann': 0, 'Bob': 0, 'Cy': 132}>")
    k.enter_round({"Ann": 6, "Bob": 0})
    assert repr(k).startswith("<ScoreKeeper Ann, Bob, Cy: 11 rounds complete, finished, won by Bob;")


# ------------------------------------------------------------------ tab completion of the lazy names
def test_lazy_names_are_listed_by_dir_for_tab_completion():
    # simulate, summarize, win_rates... load pandas on first use (module __getattr__);
    # dir() did not list them, so a notebook's tab completion never offered them
    import crowns_solver.five_crowns as fc

    for module, lazy in ((fc, ("simulate", "summarize")), (kc, ("simulate", "play_chunk", "win_rates", "game_seed"))):
        listed = dir(module)
        for name in lazy:
            assert name in listed and name in module.__all__
            assert callable(getattr(module, name))
        assert set(module.__all__) <= set(listed)
        assert listed == sorted(listed)


@pytest.mark.parametrize("bad", [5, (1,), [None, None, None], "ab"])
def test_cross_kings_play_game_rngs_must_be_a_pair(bad):
    from crowns_solver.cross_kings import Deal
    from crowns_solver.cross_kings.match import play_game
    from crowns_solver.errors import PolicyError

    with pytest.raises(PolicyError, match="rngs must be two numpy Generators"):
        play_game(Deal.random(1), "random", "random", rngs=bad)   # TypeError / IndexError


def test_a_five_crowns_game_result_reads_on_one_line():
    """GameResult's dataclass repr printed every round and NumPy's multi-line SeedSequence
    repr; it is one line now, its seed as a record states it (session 22)."""
    import numpy as np

    import crowns_solver.five_crowns as fc

    r = fc.play_game(["greedy"] * 2, seed=np.random.SeedSequence(1))
    assert "\n" not in repr(r)
    assert repr(r) == (f"GameResult(players=2, policies=('greedy', 'greedy'), seed=SeedSequence(1, spawn_key=()),"
                       f" rounds=11, totals={r.totals!r}, winners={r.winners!r})")
    assert sum(r.totals) == int(r.round_scores.sum()) and len(r.rounds) == 11
    assert repr(fc.play_game(["greedy"] * 3, seed=7)).startswith("GameResult(players=3, policies=('greedy', 'greedy', 'greedy'), seed=7,")
