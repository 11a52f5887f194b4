"""The studies framework: registration, intervals, table checks, atomic reports, the CLI."""

from __future__ import annotations

import math
import os

import numpy as np
import pandas as pd
import pytest
from conftest import run_cli
from crowns_solver.analysis import Section, StudyResult, registry, study
from crowns_solver.analysis.base import check_result, mean_ci, new_figure, proportion_ci
from hypothesis import given
from hypothesis import strategies as st

from crowns_solver.errors import StudyError
from crowns_solver.report import run_studies, write_index

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
CALLS: list[tuple[int, int]] = []


def _coin_table(games: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    heads = rng.random((2, games)) < np.array([[0.5], [0.7]])
    wins = heads.sum(axis=1)
    low, high = proportion_ci(wins, games)
    return pd.DataFrame({"coin": ["fair", "bent"], "games": [games, games], "win": wins / games,
                         "win_low": low, "win_high": high})


@study("toy_coins", game="kings_crowns", title="Toy: two coins", quick_games=50, full_games=200)
def toy_coins(games: int, seed: int, executor=None) -> StudyResult:
    CALLS.append((games, seed))
    table = _coin_table(games, seed)
    fig = new_figure(4, 3)
    ax = fig.add_subplot()
    ax.bar(table["coin"], table["win"], yerr=[table["win"] - table["win_low"], table["win_high"] - table["win"]])
    ax.set(title="Heads rate", xlabel="coin", ylabel="heads rate")
    return StudyResult(headline=f"The bent coin showed heads {table['win'][1]:.0%} of the time.",
                       sections=[Section("Heads by coin", "Two coins.", table, fig)],
                       games=2 * games, rules="Two coins, tossed.")


@study("toy_means", game="cross_kings", title="Toy: means", quick_games=4, full_games=40)
def toy_means(games: int, seed: int, executor=None) -> StudyResult:
    # two means: one over the games, one over a fixed 50 values
    rng = np.random.default_rng(seed)
    m, lo, hi = mean_ci(rng.normal(size=games))
    m2, lo2, hi2 = mean_ci(rng.normal(size=50))
    table = pd.DataFrame({"sample": ["games", "fixed"], "mean": [m, m2], "mean_low": [lo, lo2],
                          "mean_high": [hi, hi2]})
    return StudyResult(headline=f"The mean is {m:.2f}.", sections=[Section("Means", table=table)],
                       games=games, rules="Normal draws.")


@study("toy_clustered", game="five_crowns", title="Toy: clustered", quick_games=4, full_games=40)
def toy_clustered(games: int, seed: int, executor=None) -> StudyResult:
    rng = np.random.default_rng(seed)
    m, lo, hi = mean_ci(rng.normal(size=games))
    table = pd.DataFrame({"sample": ["deals"], "mean": [m], "mean_low": [lo], "mean_high": [hi]})
    return StudyResult(headline=f"The mean is {m:.2f}.", sections=[Section("Means", table=table)],
                       games=games, rules="Normal draws.",
                       intervals="Intervals are 95%, over deals: normal approximation for everything.")


@study("toy_broken", game="five_crowns", title="Toy: broken", quick_games=1, full_games=1)
def toy_broken(games: int, seed: int, executor=None) -> StudyResult:
    raise RuntimeError("simulation failed")


def test_wilson_interval_matches_the_formula():
    # 7 of 10: Wilson (1927) with z = 1.959964
    z = 1.959963984540054
    p, n = 0.7, 10
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    low, high = proportion_ci(7, 10)
    assert low == pytest.approx(centre - half) and high == pytest.approx(centre + half)
    assert low == pytest.approx(0.3968, abs=1e-4) and high == pytest.approx(0.8922, abs=1e-4)


def test_mean_interval():
    # Student's t with 3 degrees of freedom: t(0.975, 3) = 3.182446 (any t table); sd 1.290994
    mean, low, high = mean_ci([1, 2, 3, 4])
    half = 3.182446305284263 * np.std([1, 2, 3, 4], ddof=1) / 2
    assert (mean, low, high) == pytest.approx((2.5, 2.5 - half, 2.5 + half))
    assert (low, high) == pytest.approx((0.445740, 4.554260), abs=1e-6)
    mean, low, high = mean_ci([5])
    assert mean == 5.0 and math.isnan(low) and math.isnan(high)
    assert all(math.isnan(x) for x in mean_ci([]))


def test_sample_log_records_the_size_behind_each_mean_interval():
    from crowns_solver.analysis.base import sample_log

    with sample_log() as outer:
        mean_ci([1.0, 2.0, 3.0])
        with sample_log() as inner:
            mean_ci(np.arange(40.0))
            mean_ci([7.0])  # one value: no interval, nothing recorded
            mean_ci([])
        mean_ci([1.0, 5.0])
    assert outer == [3, 40, 2] and inner == [40]
    mean_ci([1.0, 2.0])  # no log active: nothing kept anywhere
    assert outer == [3, 40, 2]


def test_a_quick_report_says_when_its_means_rest_on_too_few_observations(tmp_path):
    (path,) = run_studies(["toy_means"], quick=True, out_dir=tmp_path, workers=1, seed=3)
    text = path.read_text()
    assert ("**Small samples.** 1 of the 2 intervals on means in this report rest on fewer than 30 observations"
            " (the fewest: 4).") in text
    assert "Student t intervals for means (approximate for those from fewer than 30 observations" in text
    (path,) = run_studies(["toy_means"], out_dir=tmp_path, workers=1, seed=3)  # 40 and 50: enough
    text = path.read_text()
    assert "Small samples" not in text and "approximate for" not in text
    assert "Intervals are 95%: Wilson score intervals for rates, Student t intervals for means." in text


def test_a_study_names_its_own_interval_method_in_the_closing_line(tmp_path):
    # five_crowns_policies gives rates over duplicate deals a normal interval: the report
    # must not claim Wilson intervals for them (found by the probe)
    (path,) = run_studies(["toy_clustered"], out_dir=tmp_path, workers=1, seed=3)
    text = path.read_text()
    assert "Intervals are 95%, over deals: normal approximation for everything." in text
    assert "Wilson" not in text
    (tmp_path / "q").mkdir()
    (path,) = run_studies(["toy_clustered"], quick=True, out_dir=tmp_path / "q", workers=1, seed=3)
    assert ("Intervals are 95%, over deals: normal approximation for everything (approximate for those from fewer"
            " than 30 observations, see above).") in path.read_text()


@given(st.integers(0, 10_000), st.integers(1, 10_000))
def test_wilson_interval_contains_the_estimate(k, n):
    k = min(k, n)
    low, high = proportion_ci(k, n)
    assert 0 <= low <= k / n <= high <= 1


@pytest.mark.parametrize("name, game, sizes, message", [
    ("Bad-Name", "five_crowns", (1, 1), "lower case"),
    ("ok_name", "poker", (1, 1), "poker"),
    ("ok_name", "five_crowns", (0, 1), "at least 1"),
])
def test_study_registration_is_checked(name, game, sizes, message):
    with pytest.raises(StudyError, match=message):
        study(name, game=game, title="t", quick_games=sizes[0], full_games=sizes[1])


def test_a_name_cannot_be_registered_twice():
    with pytest.raises(StudyError, match="registered twice"):
        study("toy_coins", game="kings_crowns", title="t", quick_games=1, full_games=1)(lambda g, s, e=None: None)


def _result(table: pd.DataFrame) -> StudyResult:
    return StudyResult("h.", [Section("t", table=table)], 10, "r")


@pytest.mark.parametrize("table, message", [
    (pd.DataFrame({"win_rate": [0.5, 1.2]}), "outside 0..1"),
    (pd.DataFrame({"margin": [2.0], "margin_low": [2.5], "margin_high": [3.0]}), "outside its interval"),
    (pd.DataFrame({"games": [10.5]}), "fractional"),
    (pd.DataFrame({"games": [-1]}), "negative"),
])
def test_check_result_rejects_broken_tables(table, message):
    with pytest.raises(StudyError, match=message):
        check_result(_result(table), "toy")


def test_check_result_accepts_a_sane_table():
    check_result(_result(_coin_table(100, 1)), "toy")
    with pytest.raises(StudyError, match="headline"):
        check_result(StudyResult(" ", [], 1, "r"))


def test_run_writes_report_charts_and_index(tmp_path):
    CALLS.clear()
    (path,) = run_studies(["toy_coins"], quick=True, out_dir=tmp_path, workers=1, seed=7)
    assert CALLS == [(50, 7)]
    text = path.read_text()
    lines = text.splitlines()
    assert lines[1] == "# Toy: two coins"
    table = _coin_table(50, 7)
    assert f"**The bent coin showed heads {table['win'][1]:.0%} of the time.**" in lines
    assert "| games | 100 |" in lines and "| seed | 7 |" in lines
    assert f"`crowns report --only toy_coins --seed 7 --games 50 --out {tmp_path}`" in text
    assert "![Heads by coin](toy_coins/heads_by_coin.png)" in text
    png = tmp_path / "toy_coins" / "heads_by_coin.png"
    assert png.read_bytes()[:8] == PNG_MAGIC
    index = (tmp_path / "index.md").read_text()
    assert "[Toy: two coins](toy_coins.md)" in index and "## King's Crowns" in index
    # rerun with the full size: replaced in place, no temporary folders left behind
    run_studies(["toy_coins"], out_dir=tmp_path, workers=1, seed=7)
    assert CALLS[-1] == (200, 7) and "| games | 400 |" in path.read_text()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index.md", "toy_coins", "toy_coins.md"]


def test_a_failing_study_leaves_the_previous_reports(tmp_path):
    run_studies(["toy_coins"], out_dir=tmp_path, workers=1, seed=1)
    before = (tmp_path / "toy_coins.md").read_text()
    with pytest.raises(RuntimeError, match="simulation failed"):
        run_studies(["toy_coins", "toy_broken"], out_dir=tmp_path, workers=1, seed=1)
    def stable(text):  # the run time and the time written vary between runs
        return [ln for ln in text.splitlines() if not ln.startswith(("| run time", "| written"))]

    assert stable((tmp_path / "toy_coins.md").read_text()) == stable(before)
    assert not (tmp_path / "toy_broken.md").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


def test_index_ignores_other_markdown(tmp_path):
    (tmp_path / "notes.md").write_text("# my notes\n")
    run_studies(["toy_coins"], out_dir=tmp_path, workers=1, seed=3)
    index = write_index(tmp_path).read_text()
    assert "notes" not in index and "toy_coins.md" in index


def test_quick_runs_default_to_their_own_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    run_studies(["toy_coins"], quick=True, workers=1)
    assert (tmp_path / "reports-quick" / "toy_coins.md").exists()
    assert not (tmp_path / "reports").exists()


@pytest.mark.parametrize("argv, message", [
    (["report", "--only", "no_such_study"], "unknown study 'no_such_study'"),
    (["report", "--only", "toy_coins", "--seed", "-1"], "seed must be"),
    (["report", "--only", "toy_coins", "--workers", "0"], "workers must be"),
    # run_studies' own checks (the Monte Carlo runner's messages), naming the options as typed
    (["report", "--only", "toy_coins", "--seed", "-1"], "crowns: error: --seed must be a whole number >= 0, got -1"),
    (["report", "--only", "toy_coins", "--games", str(10**12)], "--games must be at most 100,000,000"),
    (["report", "--only", "toy_coins", "--games", "0"], "crowns: error: --games must be a whole number >= 1, got 0"),
    (["report", "results.jsonl", "--quick"], "do not apply to a results file"),
])
def test_cli_user_errors_are_one_line(capsys, tmp_path, argv, message):
    code, _, err = run_cli(capsys, *argv, "--out", str(tmp_path))
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_cli_list_and_run(capsys, tmp_path):
    code, out, _ = run_cli(capsys, "report", "--list")
    assert code == 0 and "toy_coins" in out and "Toy: two coins" in out
    code, out, _ = run_cli(capsys, "report", "--only", "toy_coins", "--quick", "--no-progress", "--workers", "1",
                           "--out", str(tmp_path))
    assert code == 0 and f"wrote {tmp_path / 'toy_coins.md'}" in out
    assert os.path.exists(tmp_path / "toy_coins" / "heads_by_coin.png")


def test_registry_finds_the_installed_studies():
    studies = registry()
    assert "toy_coins" in studies
    for name, st_ in studies.items():
        assert st_.name == name and st_.quick_games <= st_.full_games


def test_cli_games_beyond_the_runner_is_refused_before_the_folder_is_made(capsys, tmp_path):
    # found by the probe: --games 10**12 left an empty output folder behind
    out = tmp_path / "new"
    code, _, err = run_cli(capsys, "report", "--only", "toy_coins", "--games", str(10**12), "--out", str(out))
    assert code == 2 and err == ("crowns: error: --games must be at most 100,000,000 (the results are held in memory),"
                                 " got 1,000,000,000,000\n")
    assert not out.exists()


@pytest.mark.parametrize("games, seed, bad", [
    ("x", 0, "games must be a whole number >= 1, got 'x'"),
    (-5, 0, "games must be a whole number >= 1, got -5"),
    (0, 0, "games must be a whole number >= 1, got 0"),
    (True, 0, "games must be a whole number >= 1, got True"),
    (10, -1, "seed must be a whole number >= 0, got -1"),
    (10, 1.5, "seed must be a whole number >= 0, got 1.5"),
])
def test_every_study_called_directly_checks_games_and_seed(games, seed, bad):
    # session-19 docstring audit: the Cross Kings and Five Crowns studies did not check
    # (players("x", 0) was a TypeError, first_player(-5, 0) quietly played one deal)
    for name, entry in registry().items():
        module = __import__(entry.module, fromlist=["_"])
        direct = getattr(module, entry.run.__name__)   # the function as the module exports it
        for fn in (entry.run, direct):
            with pytest.raises(StudyError) as info:
                fn(games, seed)
            assert str(info.value) == f"{name}: {bad}"
