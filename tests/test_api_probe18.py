"""Bad arguments to the public Python API found by the session-18 probe.

Every case raised a TypeError / IndexError / KeyError / AttributeError, or silently gave a
wrong answer (a negative index counted from the end, a cell number off the grid turned
into a row 6).  Each must now be a CrownsError (a ValueError) that names the value.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

import crowns_solver.cross_kings as ck
import crowns_solver.five_crowns as fc
import crowns_solver.kings_crowns as kc
from crowns_solver.errors import CardError, CrownsError, PositionError, RulesError

NOT_INDICES = [None, True, 1.5, 2.0, "3", "", [], [1], (1, 2), np.float64(3.0), float("nan"), 10**30]


# ------------------------------------------------------------------ card_name
@pytest.mark.parametrize("bad", NOT_INDICES + [-1, 36])
def test_cross_kings_card_name_refuses_what_is_not_an_index(bad):
    with pytest.raises(CardError, match="not a Cross Kings card index"):
        ck.card_name(bad)


@pytest.mark.parametrize("bad", NOT_INDICES + [-1, 56])
def test_five_crowns_card_name_refuses_what_is_not_a_code(bad):
    with pytest.raises(CardError, match="not a Five Crowns card code"):
        fc.card_name(bad)


@pytest.mark.parametrize("bad", NOT_INDICES + [-1, 28])
def test_kings_crowns_card_name_refuses_what_is_not_a_code(bad):
    with pytest.raises(CardError, match="not a King's Crowns card code"):
        kc.card_name(bad)


def test_card_names_still_read_every_index_and_numpy_integers():
    # each name parses back to its own index: the check refuses nothing valid
    assert [ck.parse_card(ck.card_name(i)) for i in range(36)] == list(range(36))
    assert [fc.parse_card(fc.card_name(i)) for i in range(56)] == list(range(56))
    assert [kc.parse_card(kc.card_name(i)) for i in range(28)] == list(range(28))
    assert ck.card_name(np.int64(35)) == "KC"
    assert fc.card_name(np.int8(55)) == "JK"
    assert kc.card_name(np.uint16(0)) == kc.CARD_NAMES[0]


# ------------------------------------------------------------------ cells
@pytest.mark.parametrize("func", [ck.cell_coords, ck.line_cells])
@pytest.mark.parametrize("bad", [b for b in NOT_INDICES if not isinstance(b, tuple)] + [-1, 36, (2, 6), (2.0, 3)])
def test_cell_number_functions_refuse_what_is_not_a_cell_number(func, bad):
    # (2, 3) was refused here too until session 23: every function taking a cell now takes
    # either form (test_cross_kings_cells_api23)
    with pytest.raises(PositionError, match=r"no such cell: .*(0\.\.35|0\.\.5)"):
        func(bad)


def test_cell_number_functions_agree_with_cell_index():
    for i in range(36):
        row, col = ck.cell_coords(i)
        assert ck.cell_index((row, col)) == i
        line = ck.line_cells(np.int32(i))
        assert len(line) == 10 and i not in line
        assert all(ck.cell_coords(j)[0] == row or ck.cell_coords(j)[1] == col for j in line)


# ------------------------------------------------------------------ Rules(names=)
@pytest.mark.parametrize("bad", ["ab", b"ab", None, 3, ("a",), ("a", "b", "c"), ("a", ""), ("a", 2)])
def test_cross_kings_rules_names_must_be_two_strings(bad):
    with pytest.raises(RulesError, match="names must be two non-empty strings"):
        ck.Rules(names=bad)


def test_cross_kings_rules_names_from_a_list_are_kept_as_a_tuple():
    rules = ck.Rules(names=["Ann", "Bob"])
    assert rules.names == ("Ann", "Bob")
    assert rules == ck.Rules(names=("Ann", "Bob"))
    assert hash(rules) == hash(ck.Rules(names=("Ann", "Bob")))


def test_every_refusal_here_is_a_value_error():
    assert issubclass(CrownsError, ValueError)


# ------------------------------------------------------------------ file paths that are not paths
# open() takes an int as a file descriptor: read_results(0) read standard input and
# read_results(True) read standard output and closed it; None or a float gave a TypeError.
# The checks below open a real file's descriptor, so a reader that still took ints would
# read that file quietly (and close the descriptor) instead of refusing the argument.
def _readers():
    from crowns_solver import montecarlo
    from crowns_solver.errors import DeckError, RecordError, ResultsFileError

    return [
        (montecarlo.read_results, ResultsFileError, "results file"),
        (montecarlo.read_header, ResultsFileError, "results file"),
        (kc.load_deck, DeckError, "deck file"),
        (fc.replay, RecordError, "game record"),
        (fc.ScoreKeeper.load, RecordError, "score-keeper file"),
    ]


@pytest.mark.parametrize("which", range(5))
def test_file_readers_refuse_a_file_descriptor(tmp_path, which):
    reader, error, what = _readers()[which]
    results = tmp_path / "r.jsonl"
    kc.simulate(4, players=2, seed=1, out=results, workers=1)
    fd = os.open(results, os.O_RDONLY)
    try:
        with pytest.raises(error, match=f"the {what} path must be a str or path-like, got {fd}"):
            reader(fd)
        os.fstat(fd)  # still open: nothing read or closed it
    finally:
        os.close(fd)


@pytest.mark.parametrize("which", range(5))
@pytest.mark.parametrize("bad", [None, True, 1.5, ["r.jsonl"], ("r.jsonl",)])
def test_file_readers_refuse_what_is_not_a_path(which, bad):
    reader, error, what = _readers()[which]
    with pytest.raises(error, match=f"the {what} path must be a str or path-like"):
        reader(bad)


def test_read_header_refuses_an_empty_path_and_a_folder(tmp_path):
    from crowns_solver.montecarlo import read_header
    from crowns_solver.errors import ResultsFileError

    with pytest.raises(ResultsFileError, match=r"no results file given; the path is empty \(''\)"):
        read_header("")
    with pytest.raises(ResultsFileError, match="is a folder, not a results file"):
        read_header(tmp_path)


def test_file_readers_still_read_str_path_and_bytes(tmp_path):
    from crowns_solver.montecarlo import read_header, read_results

    results = tmp_path / "r.jsonl"
    kc.simulate(4, players=2, seed=1, out=results, workers=1)
    for path in (str(results), results, os.fsencode(results)):
        assert read_header(path)["games"] == 4
        assert len(read_results(path)) == 4
    deck = tmp_path / "d.toml"
    deck.write_text("\n".join(f'"{k}" = {v}' for k, v in kc.DEFAULT_DECK.to_dict().items()))
    assert kc.load_deck(os.fsencode(deck)).counts == kc.DEFAULT_DECK.counts


# ------------------------------------------------------------------ Five Crowns score keeper
def _keeper_after_two_rounds():
    keeper = fc.ScoreKeeper(["Ann", "Bob"])
    keeper.enter_round([15, 20])   # round 1: 3 cards kept score 0, or 13 and more (RULES.md)
    keeper.enter_round([0, 7])
    return keeper


@pytest.mark.parametrize("bad", [None, True, 1.5, 2.0, "2", 0, -1, [1]])
def test_keeper_round_scores_refuses_what_is_not_a_round(bad):
    from crowns_solver.errors import WildRankError

    with pytest.raises(WildRankError, match="round must be a whole number >= 1"):
        _keeper_after_two_rounds().round_scores(bad)


@pytest.mark.parametrize("method", ["totals", "standings"])
@pytest.mark.parametrize("bad", [True, 1.5, "2", -1, [1]])
def test_keeper_totals_through_refuses_what_is_not_a_round_count(method, bad):
    from crowns_solver.errors import WildRankError

    with pytest.raises(WildRankError, match="through must be None or a whole number of rounds >= 0"):
        getattr(_keeper_after_two_rounds(), method)(bad)


def test_keeper_round_scores_and_totals_still_add_up():
    keeper = _keeper_after_two_rounds()
    assert keeper.round_scores(1) == {"Ann": 15, "Bob": 20}
    assert keeper.round_scores(np.int64(2)) == {"Ann": 0, "Bob": 7}
    assert keeper.round_scores(3) == {}
    assert keeper.totals(0) == {"Ann": 0, "Bob": 0}
    assert keeper.totals(1) == {"Ann": 15, "Bob": 20}
    assert keeper.totals() == keeper.totals(11) == {"Ann": 15, "Bob": 27}
    assert keeper.standings(1) == "Ann 15, Bob 20"


@pytest.mark.parametrize("bad", [None, 5, 1.5, "5 10"])
def test_keeper_enter_round_refuses_what_is_not_a_list_of_scores(bad):
    from crowns_solver.errors import ScoreEntryError

    keeper = fc.ScoreKeeper(["Ann", "Bob"])
    with pytest.raises(ScoreEntryError, match=r"round 1 needs 2 scores, one per player, got "):
        keeper.enter_round(bad)
    assert list(keeper.entries) == []


# ------------------------------------------------------------------ Five Crowns hands and games
@pytest.mark.parametrize("bad", [1.5, "x", "", [], [1], (1,), (3, 1), (1.0, 3), np.float64(3.0), True, -1])
def test_parse_hand_size_must_be_a_count_or_a_pair(bad):
    from crowns_solver.errors import HandSizeError

    with pytest.raises(HandSizeError, match="size must be a whole number of cards or a"):
        fc.parse_hand(["3S", "4S"], size=bad)


@pytest.mark.parametrize("bad", [True, 2.0, 3, None])
def test_parse_hand_sets_must_be_the_integer_1_or_2(bad):
    from crowns_solver.errors import HandSizeError

    with pytest.raises(HandSizeError, match="sets must be 1 or 2"):
        fc.parse_hand(["3S"], sets=bad)


def test_parse_hand_size_still_checks_the_count():
    from crowns_solver.errors import HandSizeError

    assert fc.parse_hand(["3S", "4S"], size=2) == fc.parse_hand(["3S", "4S"], size=(np.int64(1), 3))
    with pytest.raises(HandSizeError, match="hand has 2 cards, expected 3 to 4"):
        fc.parse_hand(["3S", "4S"], size=(3, 4))


@pytest.mark.parametrize("bad", [1, None, 2.5, object()])
def test_play_game_refuses_a_seat_that_is_not_a_policy(bad):
    from crowns_solver.errors import PolicyError

    with pytest.raises(PolicyError, match="not a policy"):
        fc.play_game(["greedy", bad], seed=1)


@pytest.mark.parametrize("bad", [True, 2, "rules", {"players": 2}, fc.Rules()])
def test_play_game_refuses_rules_that_are_not_game_rules(bad):
    with pytest.raises(RulesError, match="rules must be a GameRules"):
        fc.play_game(["greedy", "greedy"], seed=1, rules=bad)


# ------------------------------------------------------------------ King's Crowns decks and rules
@pytest.mark.parametrize("bad", [None, 3, 1.5, "abc", {"Salvation": 3}])
def test_kings_crowns_deck_counts_must_be_a_sequence(bad):
    from crowns_solver.errors import DeckError

    with pytest.raises(DeckError, match="a deck gives 28 counts"):
        kc.Deck(bad)


@pytest.mark.parametrize("bad", [None, "4", 1.5, True, 1, 6, [4]])
def test_kings_crowns_deck_check_players_refuses_what_is_not_a_player_count(bad):
    with pytest.raises(RulesError, match="King's Crowns is for 2 to 5 players"):
        kc.DEFAULT_DECK.check_players(bad)


def test_kings_crowns_deck_check_players_still_checks_the_size():
    from crowns_solver.errors import DeckError

    small = kc.Deck((13,) + (0,) * 27)
    small.check_players(np.int64(2))  # 13 cards deal two hands and one up
    with pytest.raises(DeckError, match="has 13 cards, too few to deal: 3 players need at least 19"):
        small.check_players(3)


@pytest.mark.parametrize("bad", [None, [], "", 3, [("target", 50)]])
def test_kings_crowns_rules_from_dict_refuses_what_is_not_a_mapping(bad):
    with pytest.raises(RulesError, match="rules must be a mapping of options"):
        kc.Rules.from_dict(bad)


# ------------------------------------------------------------------ montecarlo helpers
@pytest.mark.parametrize("bad", [None, [], "x", 3, {"winner": [0]}])
def test_win_rates_and_check_columns_refuse_what_is_not_a_dataframe(bad):
    from crowns_solver import montecarlo
    from crowns_solver.errors import ResultsFileError, RunnerError

    with pytest.raises(RunnerError, match="must be a pandas DataFrame"):
        kc.win_rates(bad)
    with pytest.raises(ResultsFileError, match="a results table must be a pandas DataFrame"):
        montecarlo.check_columns(bad)


@pytest.mark.parametrize("games, chunk, name", [(10, 0, "chunk_size"), (-10, 3, "games"), (True, 3, "games"),
                                                (10, 2.5, "chunk_size"), ("10", 3, "games")])
def test_chunk_sizes_refuses_bad_counts(games, chunk, name):
    from crowns_solver import montecarlo
    from crowns_solver.errors import RunnerError

    with pytest.raises(RunnerError, match=f"{name} must be a whole number"):
        montecarlo.chunk_sizes(games, chunk)


def test_chunk_sizes_and_seeds_still_split_a_run():
    from crowns_solver import montecarlo

    assert montecarlo.chunk_sizes(10, 3) == [3, 3, 3, 1]
    assert montecarlo.chunk_sizes(0, 3) == []
    spawned = np.random.SeedSequence(7).spawn(3)[2]
    assert montecarlo.chunk_seed(7, np.int64(2)).generate_state(4).tolist() == spawned.generate_state(4).tolist()


@pytest.mark.parametrize("seed, index", [(-1, 0), (1.5, 0), ("x", 0), (0, -1), (0, None), (0, 2.0)])
def test_chunk_seed_refuses_bad_seeds_and_indices(seed, index):
    from crowns_solver import montecarlo
    from crowns_solver.errors import RunnerError

    with pytest.raises(RunnerError, match="must be a whole number >= 0"):
        montecarlo.chunk_seed(seed, index)


@pytest.mark.parametrize("wins, games, z", [(5, 3, 1.96), (-1, 3, 1.96), (1, 0, 1.96), (1, 3, -1), (1, 3, 0),
                                            (1, 3, float("nan")), (np.array([1, 5]), np.array([2, 3]), 1.96),
                                            ("x", 3, 1.96)])
def test_wilson_interval_refuses_impossible_counts(wins, games, z):
    from crowns_solver import montecarlo
    from crowns_solver.errors import RunnerError

    with pytest.raises(RunnerError):
        montecarlo.wilson_interval(wins, games, z)


def test_wilson_interval_values_unchanged():
    from crowns_solver import montecarlo

    # Wilson (1927) for 3 of 10 at z = 1.96: centre (0.3 + 0.19208) / 1.38416, half-width
    # 1.96 * sqrt(0.021 + 0.0096040) / 1.38416
    low, high = montecarlo.wilson_interval(3, 10)
    centre, half = (0.3 + 1.959963985 ** 2 / 20) / (1 + 1.959963985 ** 2 / 10), \
        1.959963985 * (0.021 + 1.959963985 ** 2 / 400) ** 0.5 / (1 + 1.959963985 ** 2 / 10)
    assert low == pytest.approx(centre - half) and high == pytest.approx(centre + half)
    assert montecarlo.wilson_interval(0, 0) == (0.0, 1.0)
    assert montecarlo.wilson_interval(1.5, 3)[0] > 0  # half points (draws) are allowed


def test_kings_crowns_takes_a_numpy_player_count_like_an_int():
    plain, numpy = kc.Game(players=3, seed=5), kc.Game(players=np.int64(3), seed=5)
    assert numpy.players == 3 and type(numpy.players) is int
    assert numpy.play_out("greedy").scores == plain.play_out("greedy").scores
    assert kc.Rules().target_for(np.int8(5)) == 75


# ------------------------------------------------------------------ Cross Kings players and reviews
SAVE = ("??7S6H2H8H??/5H6C3SAHKH7C/3C8C??KC5D4C/4HAD??7D2D5S/7H4DKD6D6S8S/5C3D4SKS2S2C"
        "//ASAC8D3H//301273969908864214574189716")


@pytest.mark.parametrize("bad", [[], ["search"], {"name": "search"}, None, 3])
def test_make_player_refuses_a_name_that_is_not_a_string(bad):
    from crowns_solver.cross_kings.players import make_player
    from crowns_solver.errors import PolicyError

    with pytest.raises(PolicyError, match="unknown Cross Kings player"):
        make_player(bad)


@pytest.mark.parametrize("bad", [True, 0, 3, 1.5, np.int64(3), {"a": 1}])
def test_replay_and_analyse_refuse_moves_that_are_not_a_list(bad):
    from crowns_solver.cross_kings.review import analyse_game, replay
    from crowns_solver.errors import IllegalMoveError

    start = ck.Position.random(seed=1)
    with pytest.raises(IllegalMoveError, match="moves must be a list of cells"):
        replay(start, bad)
    with pytest.raises(IllegalMoveError, match="moves must be a list of cells"):
        analyse_game(start, bad, node_limit=1000)


@pytest.mark.parametrize("bad", [True, 0, 1.5, np.int64(3), {"first": 1}])
def test_analyse_game_refuses_players_that_are_not_names(bad):
    from crowns_solver.cross_kings.review import analyse_game
    from crowns_solver.errors import SolverOptionError

    with pytest.raises(SolverOptionError, match="players must be 'first' and/or 'second'"):
        analyse_game(SAVE, players=bad, node_limit=1000)


@pytest.mark.parametrize("bad", [True, 0, "x", [print]])
def test_analyse_game_refuses_a_progress_that_is_not_callable(bad):
    from crowns_solver.cross_kings.review import analyse_game
    from crowns_solver.errors import SolverOptionError

    with pytest.raises(SolverOptionError, match="progress must be a function"):
        analyse_game(SAVE, progress=bad, node_limit=1000)


def test_analyse_game_still_reports_progress_and_reads_moves():
    from crowns_solver.cross_kings.review import analyse_game, replay

    seen = []
    table = analyse_game(SAVE, players="second", node_limit=2000, progress=lambda done, total: seen.append((done, total)))
    assert set(table["player"]) == {"second"}
    assert seen == [(k, len(table)) for k in range(1, len(table) + 1)]
    start = ck.Position.random(seed=1)
    steps = replay(start, [(2, 2), (2, 0)], include_start=True)
    assert [s.move for s in steps] == [(2, 2), (2, 0)]


@pytest.mark.parametrize("func", ["public_position", "save_text", "parse_move"])
@pytest.mark.parametrize("bad", [None, SAVE, 3, [], ck.Deal.random(1)])
def test_play_helpers_refuse_what_is_not_a_position(func, bad):
    from crowns_solver.cross_kings import play

    call = getattr(play, func)
    with pytest.raises(PositionError, match="position must be a Position, got"):
        call("2,3", bad) if func == "parse_move" else call(bad)


@pytest.mark.parametrize("func", ["games_table", "summarise"])
@pytest.mark.parametrize("bad", [None, [], {"win_a": [1]}, "x", 3])
def test_match_tables_refuse_what_is_not_a_dataframe(func, bad):
    from crowns_solver.cross_kings import match
    from crowns_solver.errors import RunnerError

    with pytest.raises(RunnerError, match="must be a pandas DataFrame"):
        getattr(match, func)(bad)


def test_match_tables_name_a_missing_column_and_still_add_up():
    import pandas as pd

    from crowns_solver.cross_kings import match
    from crowns_solver.errors import RunnerError

    result = match.match("greedy", "random", deals=3, seed=2, workers=1)
    games = result.games
    with pytest.raises(RunnerError, match="games has no column 'margin_a'"):
        match.summarise(games.drop(columns="margin_a"))
    with pytest.raises(RunnerError, match="deal_rows has no column 'deal'"):
        match.games_table(pd.DataFrame({"x": [1]}))
    summary = match.summarise(games)
    assert summary["games"] == len(games) == 6
    assert summary["wins"] + summary["draws"] + summary["losses"] == 6
    assert summary["wins"] == int((games["margin_a"] > 0).sum())


# ------------------------------------------------------------------ seats in players' views
@pytest.mark.parametrize("method", ["play_top", "gifts"])
@pytest.mark.parametrize("bad", [-1, 4, 1.5, None, True, "1"])
def test_kings_crowns_view_seat_accessors_refuse_what_is_not_a_seat(method, bad):
    from crowns_solver.errors import IllegalMoveError

    view = kc.Game(players=4, seed=1).view()
    with pytest.raises(IllegalMoveError, match=r"no seat .* in a 4-player game"):
        getattr(view, method)(bad)


def test_kings_crowns_views_take_numpy_seats():
    game = kc.Game(players=3, seed=2)
    game.play_out("greedy")
    plain, numpy = game.view(1), game.view(np.int64(1))
    assert plain == numpy
    for seat in range(3):
        assert plain.play_top(np.int16(seat)) == (plain.play_stacks[seat][-1] if plain.play_stacks[seat] else None)
        assert plain.gifts(np.int64(seat)) == frozenset(c.split("-")[1] for c in plain.gift_stacks[seat])


class _Spy:
    """Draws blind and throws its first card; keeps the first view it is shown."""

    def __init__(self):
        self.views = []

    def choose_draw(self, view):
        self.views.append(view)
        return "draw"

    def choose_discard(self, view):
        return min(view.kept_deadwoods(), key=view.kept_deadwoods().get)


@pytest.mark.parametrize("bad", [-1, 2, 1.5, None, True, "1", [1]])
def test_five_crowns_view_known_cards_refuses_what_is_not_a_seat(bad):
    from crowns_solver.errors import PolicyError

    spy = _Spy()
    fc.play_game([spy, "greedy"], seed=1, engine="python")
    with pytest.raises(PolicyError, match=r"no seat .* in this round \(seats 0, 1\)"):
        spy.views[0].known_cards(bad)


def test_five_crowns_view_known_cards_of_each_seat():
    spy = _Spy()
    fc.play_game([spy, "greedy"], seed=1, engine="python")
    view = spy.views[0]
    assert view.known_cards(view.seat) == view.known_cards(np.int64(view.seat)) == tuple(view.hand)
    other = 1 - view.seat
    assert view.known_cards(np.int8(other)) == view.known_cards(other)


@pytest.mark.parametrize("bad", [None, 3, ["small"], b"small"])
def test_kings_crowns_deck_name_must_be_a_string(bad):
    from crowns_solver.errors import DeckError

    with pytest.raises(DeckError, match="a deck's name must be a string"):
        kc.Deck(kc.DEFAULT_DECK.counts, name=bad)
    with pytest.raises(DeckError, match="a deck's name must be a string"):
        kc.Deck.from_mapping({"Salvation": 13}, name=bad)
    assert kc.Deck.from_mapping({"Salvation": 13}, name="tiny").name == "tiny"


# ------------------------------------------------------------------ worker processes
def test_process_pools_are_bounded(tmp_path):
    from crowns_solver import montecarlo, report
    from crowns_solver.errors import RunnerError

    over = montecarlo.MAX_WORKERS + 1
    for bad in (over, 10**23):
        with pytest.raises(RunnerError, match=f"workers must be at most {montecarlo.MAX_WORKERS:,}"):
            montecarlo.process_pool(bad)   # (a pool starts no process before its first chunk)
        with pytest.raises(RunnerError, match="workers must be at most"):
            kc.simulate(10, seed=1, workers=bad)   # one chunk: it ran in this process
    # only the number too large for a C int here: before the bound, a smaller one forked
    with pytest.raises(RunnerError, match="workers must be at most"):
        report.run_studies(["five_crowns_deals"], quick=True, workers=10**23, out_dir=tmp_path / "rep")
    assert not (tmp_path / "rep").exists()


def test_a_given_executor_may_keep_many_chunks_in_flight():
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(2) as pool:
        many = kc.simulate(30, seed=4, chunk_size=10, executor=pool, workers=10**6)
    assert many.equals(kc.simulate(30, seed=4, chunk_size=10, workers=1))


def test_crowns_report_workers_beyond_the_bound_is_one_line(tmp_path):
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "crowns_solver", "report", "--quick", "--only", "five_crowns_deals",
                          "--workers", "100000000000000000000000", "--out", str(tmp_path / "rep")],
                         cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert run.stderr.strip().splitlines() == [
        "crowns: error: --workers must be at most 256 (each is a process started on this machine),"
        " got 100,000,000,000,000,000,000,000"]
    assert not (tmp_path / "rep").exists()


@pytest.mark.parametrize("bad", [None, SAVE, 3, ck.Position.random(1), list(ck.Deal.random(1).cells)])
def test_position_new_takes_a_deal_only(bad):
    with pytest.raises(PositionError, match="Position.new takes a Deal, got"):
        ck.Position.new(bad)


def test_position_new_of_a_deal_is_its_fresh_position():
    deal = ck.Deal.random(7)
    pos = ck.Position.new(deal, "nearest")
    assert pos == ck.Position.random(7, "nearest")
    assert pos.grid == deal.cells and pos.marker is None and pos.to_move == "second"


# ------------------------------------------------------------------ NumPy integers are whole numbers
def _endgame(cards=14):
    pos = ck.Position.random(3).play((2, 2))
    while pos.cards_left > cards:
        pos = pos.play(pos.legal_moves()[0])
    return pos


def test_cross_kings_solve_takes_numpy_numbers_like_python_ones():
    pos = _endgame()
    plain = ck.solve(pos, node_limit=5000, tt_mb=16, time_limit=5, workers=1)
    numpy = ck.solve(pos, node_limit=np.int64(5000), tt_mb=np.int32(16), time_limit=np.float64(5.0),
                     workers=np.int64(1))
    assert (numpy.value, numpy.exact, numpy.nodes) == (plain.value, plain.exact, plain.nodes)
    assert type(numpy.node_limit) is int and numpy.tt_mb == 16 and numpy.time_limit == 5.0


def test_cards_given_as_numpy_indices():
    assert ck.score_hand(np.arange(3)) == ck.score_hand(["AS", "2S", "3S"]) == 3
    assert ck.parse_card(np.int16(35)) == 35 and type(ck.parse_card(np.int16(35))) is int
    assert kc.parse_card(np.int64(3)) == 3 and type(kc.parse_card(np.int64(3))) is int


def test_numpy_integer_options_of_players_rules_and_keeper():
    assert kc.Rules(target=np.int64(50), max_turns=np.int32(100)) == kc.Rules(target=50, max_turns=100)
    assert kc.LookaheadPolicy(samples=np.int64(8)) == kc.LookaheadPolicy(samples=8)
    assert fc.TrackerPolicy(candidates=np.int64(3)).candidates == 3
    assert fc.ScoreKeeper(["a", "b"], first_dealer=np.int64(1)).round_info(1).dealer == "b"
    play = kc.Play("sin-purple", "play", np.int64(1))
    assert play == kc.Play("sin-purple", "play", 1) and type(play.seat) is int


@pytest.mark.parametrize("bad", [1.5, "1", True])
def test_kings_crowns_play_seat_must_be_a_whole_number(bad):
    from crowns_solver.errors import IllegalMoveError

    with pytest.raises(IllegalMoveError, match="a seat is a whole number, got"):
        kc.Play("sin-purple", "play", bad)
    with pytest.raises(IllegalMoveError, match="only a play onto a play stack names a seat"):
        kc.Play("sin-purple", "discard", 1)


def test_keeper_round_info_of_a_tiebreak_round_given_as_numpy_integer():
    keeper = fc.ScoreKeeper(["a", "b"], ties="tiebreak")
    for _ in range(11):
        keeper.enter_round([0, 0])
    assert keeper.round == 12
    assert keeper.round_info(np.int64(12)) == keeper.round_info(12)
    assert keeper.round_info(np.int64(12)).players == ("a", "b")
