"""King's Crowns results files (session 20): a ``winner_policy`` must agree with the row's
winner and seats, on reading and on resume; and a run resumes a file made with another
chunk size, since its games do not depend on the chunk size (Five Crowns' do: there the
refusal says why)."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

from crowns_solver import five_crowns as fc
from crowns_solver import montecarlo
from crowns_solver.errors import ResultsFileError
from crowns_solver.kings_crowns import Policy, Rules, simulate

POLICIES = ["greedy", "random", "aggressive"]


def _file(tmp_path, **kw):
    res = tmp_path / "k.jsonl"
    args = dict(players=3, policies=POLICIES, workers=1, chunk_size=4, seed=3, rules=Rules(max_turns=60))
    args.update(kw)
    simulate(12, out=res, **args)
    lines = res.read_text().splitlines()
    res.write_text("\n".join(lines[:3]) + "\n")   # stopped after two of its three chunks
    return res, args


def _edit(res, row, value, column="winner_policy"):
    """The file with `column` of game `row` (in its second chunk) replaced by `value`."""
    head, first, second = res.read_text().splitlines()
    rec = json.loads(second)
    rec["columns"][column][row - 4] = value
    res.write_text("\n".join([head, first, json.dumps(rec)]) + "\n")
    return rec["columns"]


def _cases(tmp_path):
    res, args = _file(tmp_path)
    df = montecarlo.read_results(res)
    won = next(g for g in range(4, 8) if df["winner"].iloc[g] >= 0)
    stale = next(g for g in range(4, 8) if df["winner"].iloc[g] < 0)
    return res, args, df, won, stale


def test_the_file_has_both_kinds_of_games(tmp_path):
    # the cases below need a won game and a stalemate (turn cap 60) in the second chunk
    _, _, df, won, stale = _cases(tmp_path)
    assert df["winner"].iloc[won] >= 0 and df["winner"].iloc[stale] == -1


@pytest.mark.parametrize("case", ["another player", "a stalemate's winner", "no winner_policy"])
def test_a_winner_policy_that_contradicts_the_row_is_refused_on_reading_and_resume(tmp_path, capsys, case):
    res, args, df, won, stale = _cases(tmp_path)
    w = int(df["winner"].iloc[won])
    right = df[f"policy_{w}"].iloc[won]
    if case == "another player":
        row, value = won, next(p for p in POLICIES if p != right)
        why = f"the winner is seat {w}, whose policy_{w} is {right!r}"
    elif case == "a stalemate's winner":
        row, value = stale, "greedy"
        why = "the game has no winner (winner -1), so it has no winner_policy"
    else:
        row, value = won, None
        why = f"the winner is seat {w}, whose policy_{w} is {right!r}"
    _edit(res, row, value)
    says = f"{res}: game {row} has winner_policy = {value!r}; {why}"
    with pytest.raises(ResultsFileError) as info:
        montecarlo.read_results(res)
    assert str(info.value) == says
    # resuming it is refused the same way, before any game is added
    before = res.read_text()
    with pytest.raises(ResultsFileError) as info:
        simulate(12, out=res, **args)
    assert str(info.value) == says and res.read_text() == before
    # and in one line from the command
    code, out, err = run_cli(capsys, "kings-crowns", "simulate", "--games", "12", "--players", "3",
                             "--policy", *POLICIES, "--seed", "3", "--max-turns", "60", "--chunk-size", "4",
                             "--workers", "1", "--out", str(res))
    assert code == 2 and not out and err == f"crowns: error: {says}\n"


def test_a_winner_policy_in_other_letter_case_is_accepted(tmp_path):
    res, args, df, won, _ = _cases(tmp_path)
    w = int(df["winner"].iloc[won])
    _edit(res, won, " " + df[f"policy_{w}"].iloc[won].upper())
    assert len(montecarlo.read_results(res)) == 8
    assert len(simulate(12, out=res, **args)) == 12


class _Mine(Policy):
    """A custom player (plays through Game, move by move)."""

    name = "mine"

    def choose_draw(self, view, rng):
        return "discard" if view.discard_size and rng.random() < 0.3 else "draw"

    def choose_play(self, view, rng):
        plays = view.legal_plays()
        return plays[int(rng.integers(len(plays)))]


@pytest.mark.parametrize(("players", "policies", "rotate"), [
    (4, ["greedy", "random", "aggressive", "defensive"], True),
    (2, ["lookahead:samples=3,horizon=4", "greedy"], True),
    (3, [_Mine(), "greedy", "random"], True),
    (5, "random", False),
])
def test_king_s_crowns_games_do_not_depend_on_the_chunk_size(players, policies, rotate):
    # what allows a resume with another chunk size: the same seed plays the same games
    n = 9 if players == 2 else 23
    tables = [simulate(n, players=players, policies=policies, rotate=rotate, seed=11, workers=1, chunk_size=size)
              for size in (1, 4, 7, n, 1000)]
    assert all(t.equals(tables[0]) for t in tables[1:])
    assert tables[0]["winner"].nunique() > 1


def test_a_king_s_crowns_file_resumes_with_another_chunk_size(tmp_path, capsys):
    kw = dict(players=3, policies=POLICIES, rotate=True, seed=4, workers=1)
    whole = simulate(30, chunk_size=30, **kw)
    res = tmp_path / "k.jsonl"
    simulate(30, chunk_size=7, out=res, **kw)
    lines = res.read_text().splitlines()
    res.write_text("\n".join(lines[:3]) + "\n")   # stopped after two chunks (14 games)
    # was: "holds results made with a different chunk size (7 there, 10 now)"
    resumed = simulate(30, chunk_size=10, out=res, **kw)
    assert resumed.equals(whole) and resumed.attrs["chunk_size"] == 7
    assert montecarlo.read_results(res).equals(whole)
    # the command too (a header-only file is started afresh with the chunk size asked for)
    res.write_text("\n".join(lines[:2]) + "\n")
    code, out, err = run_cli(capsys, "kings-crowns", "simulate", "--games", "30", "--players", "3", "--policy",
                             *POLICIES, "--rotate", "--seed", "4", "--workers", "1", "--chunk-size", "5",
                             "--out", str(res), "--json")
    assert code == 0, err
    assert montecarlo.read_results(res).equals(whole) and montecarlo.read_header(res)["chunk_size"] == 7
    res.write_text(lines[0] + "\n")
    simulate(30, chunk_size=5, out=res, **kw)
    assert montecarlo.read_header(res)["chunk_size"] == 5


def test_five_crowns_depends_on_the_chunk_size_so_its_refusal_says_why(tmp_path):
    a = fc.simulate(6, players=2, workers=1, chunk_size=2, seed=1)
    b = fc.simulate(6, players=2, workers=1, chunk_size=3, seed=1)
    assert not a.equals(b)   # chunk i is played from its own seed: other chunks, other games
    res = tmp_path / "f.jsonl"
    fc.simulate(6, players=2, workers=1, chunk_size=3, seed=1, out=res)
    with pytest.raises(ResultsFileError) as info:
        fc.simulate(6, players=2, workers=1, chunk_size=2, seed=1, out=res)
    assert str(info.value) == (
        f"{res}: holds results made with a different chunk size (3 there, 2 now): chunk i of a run is played"
        " from its own seed (chunk_seed), so chunks of another size may play other games; resume with chunk"
        " size 3 or use another file to start a new run")


def test_a_resume_checks_the_values_as_reading_does(tmp_path):
    # until session 20 a resume took the finished chunks as they were: a hand-edited
    # count went into the returned table (and the report drawn from it)
    res, args = _file(tmp_path)
    _edit(res, 5, -5, column="turns")
    with pytest.raises(ResultsFileError, match=r"game 5 has turns = -5; it must be a whole number >= 0"):
        simulate(12, out=res, **args)
