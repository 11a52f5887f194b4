"""Cross Kings matches: duplicate format, reproducibility, intervals, the search player's strength, CLI."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from conftest import run_cli
from hypothesis import given
from hypothesis import strategies as st

from crowns_solver.cross_kings import Deal, Position
from crowns_solver.cross_kings.match import match, play_game
from crowns_solver.cross_kings.players import make_player
from crowns_solver.errors import CrownsError, PolicyError, PositionError, RunnerError
from crowns_solver.montecarlo import cluster_wilson_interval

TIMING = ["seconds_a", "seconds_b"]


def deterministic(df: pd.DataFrame) -> pd.DataFrame:
    """Everything but the time spent choosing (the only machine-dependent columns)."""
    return df.drop(columns=TIMING)


def test_same_seed_same_games_any_workers_any_chunking():
    kw = dict(a_options={"node_limit": 3_000})
    one = match("search", "greedy", 5, seed=7, workers=1, **kw)
    again = match("search", "greedy", 5, seed=7, workers=1, **kw)
    two = match("search", "greedy", 5, seed=7, workers=2, chunk_size=2, **kw)
    pd.testing.assert_frame_equal(deterministic(one.games), deterministic(again.games))
    pd.testing.assert_frame_equal(deterministic(one.games), deterministic(two.games))
    # the first deals do not depend on how many deals follow
    short = match("search", "greedy", 2, seed=7, workers=1, **kw)
    pd.testing.assert_frame_equal(deterministic(short.games), deterministic(one.games.iloc[:4]))
    other = match("search", "greedy", 5, seed=8, workers=1, **kw)
    assert not deterministic(other.games).equals(deterministic(one.games))


def test_duplicate_format_rows():
    res = match("random", "greedy", 6, seed=3, workers=1)
    g = res.games
    assert len(g) == 12 and list(g["game"]) == list(range(12))
    assert list(g["a_seat"]) == ["first", "second"] * 6
    assert list(g["player_first"]) == ["random", "greedy"] * 6
    assert (g["win_a"] + g["draw"] + g["loss_a"] == 1).all()
    sign = np.where(g["a_seat"] == "first", 1, -1)
    assert (g["margin_a"] == sign * (g["score_first"] - g["score_second"])).all()
    assert set(g["start"]) <= {14, 15, 20, 21}
    assert ((g["moves_a"] + g["moves_b"]) >= 10).all()


def test_the_deal_is_the_same_in_both_games_of_a_pair():
    # a player facing itself with no randomness: the two games of a pair are the same
    # game with the names exchanged, so A's margins cancel exactly
    res = match("greedy", "greedy", 5, seed=11, a_options={"tie_break": "first"},
                b_options={"tie_break": "first"}, workers=1)
    g = res.games
    assert (g["margin_a"].to_numpy()[0::2] == -g["margin_a"].to_numpy()[1::2]).all()
    assert res.summary["margin"] == 0 and res.summary["score"] == 0.5
    assert (g["score_first"].to_numpy()[0::2] == g["score_first"].to_numpy()[1::2]).all()


def test_summary_numbers():
    res = match("greedy", "random", 8, seed=5, workers=1)
    g, s = res.games, res.summary
    n = len(g)
    w, d, lo = int(g["win_a"].sum()), int(g["draw"].sum()), int(g["loss_a"].sum())
    assert (s["wins"], s["draws"], s["losses"], s["games"], s["deals"]) == (w, d, lo, 16, 8)
    assert s["win"] == w / n and s["score"] == (w + d / 2) / n
    # each deal one observation (its two games share the cards): the clustered interval
    # of the deals' wins out of 2, not Wilson's over the 16 games (session 21)
    per_deal = g.groupby("deal")
    assert (s["win_low"], s["win_high"]) == pytest.approx(
        cluster_wilson_interval(per_deal["win_a"].sum().to_numpy(), per_deal.size().to_numpy())[1:])
    score = (g["win_a"] + g["draw"] / 2).groupby(g["deal"]).sum().to_numpy()
    assert (s["score_low"], s["score_high"]) == pytest.approx(cluster_wilson_interval(score, [2] * 8)[1:])
    pairs = g.groupby("deal")["margin_a"].mean()
    half = 2.364624251592785 * pairs.std(ddof=1) / math.sqrt(len(pairs))   # Student's t(0.975), 8 - 1 df
    assert s["margin"] == pytest.approx(g["margin_a"].mean())
    assert (s["margin_low"], s["margin_high"]) == pytest.approx((pairs.mean() - half, pairs.mean() + half))
    for k in ("win", "draw", "loss", "score", "margin"):
        assert s[f"{k}_low"] <= s[k] <= s[f"{k}_high"]
    assert json.loads(json.dumps(res.to_dict()))["summary"]["wins"] == w


def test_search_beats_greedy():
    # a fixed seeded match: the score (win 1, draw 1/2) of the search player has its 95%
    # interval above 1/2 (node limits: the games replay exactly)
    res = match("search", "greedy", 12, seed=2026, a_options={"node_limit": 20_000}, workers=1)
    s = res.summary
    assert s["score_low"] > 0.5, res.describe()
    assert s["margin_low"] > 0, res.describe()


def test_fixed_start_and_reach():
    res = match("greedy", "random", 3, seed=1, start=(2, 2), reach="nearest", workers=1)
    assert set(res.games["start"]) == {14} and res.start == (2, 2) and res.reach == "nearest"
    with pytest.raises(PositionError, match=r"central"):
        match("greedy", "random", 1, start=(0, 0))


def test_play_game_refuses_a_start_cell_for_a_game_already_started():
    started = Deal.random(3).position().play((2, 3))
    with pytest.raises(PositionError, match=r"already started \(the marker is on \(2,3\)\)"):
        play_game(started, make_player("greedy"), make_player("greedy"), start=(2, 2))
    # without start it plays on from where it is
    g = play_game(started, make_player("greedy"), make_player("greedy"))
    assert g.position.is_terminal() and g.moves[0] + g.moves[1] == 36 - g.position.cards_left  # cards taken; the start was chosen before


def test_resume_from_a_results_file(tmp_path):
    out = tmp_path / "m.jsonl"
    first = match("greedy", "random", 6, seed=4, chunk_size=2, out=out, workers=1)
    again = match("greedy", "random", 6, seed=4, chunk_size=2, out=out, workers=1)
    pd.testing.assert_frame_equal(first.games, again.games)   # read back, timings included
    with pytest.raises(RunnerError):
        match("greedy", "random", 6, seed=5, chunk_size=2, out=out, workers=1)


def test_resume_with_another_chunk_size_uses_the_files(tmp_path):
    # deals are seeded by number, so the chunk size changes nothing: a resume with another
    # one goes on with the file's (session 20; it was refused) and gives the same games as
    # an uninterrupted run of either chunk size
    out = tmp_path / "m.jsonl"
    whole = match("greedy", "random", 7, seed=3, chunk_size=3, workers=1)
    match("greedy", "random", 7, seed=3, chunk_size=2, out=out, workers=1)
    lines = out.read_text().splitlines(keepends=True)
    out.write_text("".join(lines[:3]))   # the header and chunks 0-1: a run stopped there
    resumed = match("greedy", "random", 7, seed=3, chunk_size=3, out=out, workers=1)
    assert resumed.chunk_size == 2
    cols = [c for c in whole.games.columns if "second" not in c]   # timings aside
    pd.testing.assert_frame_equal(whole.games[cols].reset_index(drop=True),
                                  resumed.games[cols].reset_index(drop=True))


def test_clairvoyant_is_labelled_as_cheating():
    res = match("clairvoyant", "greedy", 1, seed=0, a_options={"node_limit": 2_000}, workers=1)
    assert res.cheating == ("clairvoyant",)
    assert "CHEATS" in res.describe()


class Illegal:
    name = "illegal"

    def choose(self, view, rng):
        return (0, 0)


def test_play_game_errors():
    deal = Deal.random(3)
    with pytest.raises(PolicyError, match=r"illegal move \(0,0\)"):
        play_game(deal, make_player("greedy"), Illegal())
    with pytest.raises(PolicyError, match="not a Cross Kings player"):
        play_game(deal, make_player("greedy"), object())
    with pytest.raises(PolicyError, match="unknown Cross Kings player 'greed' for second"):
        play_game(deal, make_player("greedy"), "greed")   # a name is a player (session 22)
    with pytest.raises(PositionError):
        play_game("deal", make_player("greedy"), make_player("greedy"))  # type: ignore[arg-type]
    hidden = Position.from_save_string(Position.random(1).play((2, 2)).to_save_string())
    # a save string's position hides the face-down cards: a game cannot reveal them
    hidden = Position(cells=tuple(-1 if i in hidden.face_down else c for i, c in enumerate(hidden.cells)),
                      taken=hidden.taken, face_down=hidden.face_down, marker=hidden.marker,
                      to_move=hidden.to_move, first_hand=(), second_hand=())
    with pytest.raises(PositionError, match="face down"):
        play_game(hidden, make_player("random"), make_player("random"),
                  rngs=(np.random.default_rng(0), np.random.default_rng(0)))
    g = play_game(deal, make_player("greedy"), make_player("random"))
    assert g.position.is_terminal() and g.margin == g.scores[0] - g.scores[1]


@given(a=st.one_of(st.sampled_from(["random", "greedy"]), st.text(max_size=6)),
       deals=st.one_of(st.integers(-2, 2), st.floats(allow_nan=True), st.none()),
       seed=st.one_of(st.integers(-3, 3), st.text(max_size=2)),
       reach=st.one_of(st.sampled_from(["any", "nearest"]), st.text(max_size=4)),
       start=st.one_of(st.none(), st.tuples(st.integers(-1, 6), st.integers(-1, 6)), st.integers(-2, 40)),
       options=st.one_of(st.none(), st.dictionaries(st.text(max_size=10), st.integers(), max_size=2)))
def test_match_any_input(a, deals, seed, reach, start, options):
    try:
        res = match(a, "random", deals, seed=seed, reach=reach, start=start, a_options=options, workers=1)
    except CrownsError:
        return
    assert len(res.games) == 2 * deals


# ---------------------------------------------------------------- the command


def test_cli_match(capsys):
    code, out, err = run_cli(capsys, "cross-kings", "match", "--a", "search", "--b", "random", "--deals", "2",
                             "--nodes", "2000", "--seed", "3", "--workers", "1")
    assert code == 0, err
    assert out.startswith("search (A) vs random (B): 2 deals x 2 games")
    assert "win " in out and "mean margin" in out and "time per move" in out
    code, out, err = run_cli(capsys, "cross-kings", "match", "--a", "greedy", "--b", "random", "--deals", "2",
                             "--seed", "3", "--workers", "1", "--json")
    data = json.loads(out)
    assert code == 0 and data["deals"] == 2 and data["summary"]["games"] == 4
    code, out, err = run_cli(capsys, "cross-kings", "match", "--a", "search", "--b", "random", "--deals", "1",
                             "--time", "0.002", "--workers", "1")
    assert code == 0 and "depend on this machine's speed" in out
    code, out, err = run_cli(capsys, "cross-kings", "match", "--start", "0,0", "--workers", "1")
    assert code == 2 and err.count("\n") == 1 and "central" in err


@pytest.mark.parametrize("argv, option, named", [
    (["--a", "greedy", "--a-evaluation", "potential"], "--a-evaluation", "player A is greedy"),
    (["--a", "search", "--b", "random", "--b-evaluation", "fitted"], "--b-evaluation", "player B is random"),
    (["--a", "greedy", "--b", "random", "--nodes", "5000"], "--nodes", "neither player searches"),
    (["--a", "random", "--b", "greedy", "--time", "1"], "--time", "neither player searches"),
    (["--a", "greedy", "--b", "greedy", "--objective", "win"], "--objective", "neither player searches"),
])
def test_cli_match_refuses_options_the_players_ignore(capsys, argv, option, named):
    # an option that no chosen player would use was once accepted and silently dropped
    code, out, err = run_cli(capsys, "cross-kings", "match", *argv, "--deals", "1", "--workers", "1")
    assert code == 2 and out == "" and err.count("\n") == 1
    assert option in err and named in err


def test_cli_match_limits_exclusive_and_options_reach_the_searching_player(capsys):
    # a usage error: --nodes would be ignored (checked by the command since session 23, when
    # --time 0, no time limit, came to allow --nodes)
    code, out, err = run_cli(capsys, "cross-kings", "match", "--nodes", "5000", "--time", "1", "--workers", "1")
    assert code == 2 and out == "" and err.count("\n") == 1 and "--time" in err and "--nodes" in err
    # the shared limits go to whichever player searches; the other player's options stay empty
    code, out, err = run_cli(capsys, "cross-kings", "match", "--a", "greedy", "--b", "search", "--nodes", "1000",
                             "--b-evaluation", "potential", "--objective", "win", "--deals", "1", "--workers", "1",
                             "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["a_options"] == {}
    assert data["b_options"] == {"node_limit": 1000, "objective": "win", "evaluation": "potential"}


def test_cli_match_defaults_when_options_not_given():
    from crowns_solver.cli import build_parser
    from crowns_solver.cross_kings.match_cli import _options
    from crowns_solver.cross_kings.players import DEFAULT_NODE_LIMIT

    args = build_parser().parse_args(["cross-kings", "match", "--a", "search", "--b", "clairvoyant"])
    assert _options("search", args, "a") == {"node_limit": DEFAULT_NODE_LIMIT}
    assert _options("clairvoyant", args, "b") == {"node_limit": DEFAULT_NODE_LIMIT}
    args = build_parser().parse_args(["cross-kings", "match", "--a", "search", "--time", "0.5"])
    assert _options("search", args, "a") == {"node_limit": None, "time_limit": 0.5}
    assert _options("greedy", args, "b") == {}


def test_make_player_refuses_search_options_for_players_that_do_not_search():
    for name in ("random", "greedy"):
        for option, value in (("evaluation", "potential"), ("node_limit", 1000), ("time_limit", 1.0),
                              ("objective", "win")):
            with pytest.raises(PolicyError, match=f"player '{name}' has no option '{option}'"):
                make_player(name, **{option: value})


@pytest.mark.parametrize("start", [(0, 0), (1, 1), 0])
def test_a_start_cell_off_the_centre_is_named_as_row_and_column(capsys, start):
    # it said "got (0, 0)" (a Python tuple) where every other message writes (row,col)
    p = make_player("greedy")
    with pytest.raises(PositionError, match=r"must be a central cell .* got \((0,0|1,1)\)$"):
        play_game(Deal.random(1), p, p, start=start)
    with pytest.raises(PositionError, match=r"got \((0,0|1,1)\)$"):
        match("greedy", "greedy", 1, start=start)
    code, _, err = run_cli(capsys, "cross-kings", "match", "--start", "0,0", "--deals", "1")
    assert code == 2 and err == ("crowns: error: the start cell must be a central cell (2,2), (2,3), (3,2) or"
                                 " (3,3), got (0,0)\n")
