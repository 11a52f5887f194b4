"""crowns report works on any game's results file (the runner's format is game-agnostic)."""

from __future__ import annotations

import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from crowns_solver.cli import main
from mc_toy import ctrl_c


def test_report_on_five_crowns_results(tmp_path, capsys):
    from crowns_solver.five_crowns import simulate

    results = tmp_path / "fc.jsonl"
    with ThreadPoolExecutor(1) as pool:
        df = simulate(4, players=2, policies=["greedy", "random"], seed=3, executor=pool, out=results, chunk_size=2)
    assert main(["report", str(results), "--out", str(tmp_path / "rep")]) == 0
    report = (tmp_path / "rep" / "report.md").read_text()
    assert "# Five Crowns simulation report" in report
    rules_row = next(line for line in report.splitlines() if line.startswith("| rules |"))
    assert "players 2" in rules_row and "?" not in rules_row and "deck" not in rules_row
    assert (tmp_path / "rep" / "win_rate_by_policy.png").stat().st_size > 0
    # every policy played all 4 games, one seat each
    for policy in ("greedy", "random"):
        row = next(line for line in report.splitlines() if line.startswith(f"| {policy} "))
        assert row.split("|")[3].strip() == "4", row
    assert len(df) == 8
    capsys.readouterr()


def test_simulate_is_the_function_whatever_was_imported_first():
    import importlib

    import crowns_solver.five_crowns as fc
    import crowns_solver.kings_crowns as kc

    importlib.import_module("crowns_solver.five_crowns.simulation")
    importlib.import_module("crowns_solver.kings_crowns.simulation")
    assert callable(fc.simulate) and fc.simulate.__name__ == "simulate"
    assert callable(kc.simulate) and kc.simulate.__name__ == "simulate"


def test_report_on_duplicate_five_crowns_results(tmp_path, capsys):
    """simulate --duplicate writes one row per deal with k<j>_ columns per seating; the
    report counts every seating as a game (6 deals x 2 seatings = 12 games per policy)."""
    results = tmp_path / "dup.jsonl"
    assert main(["five-crowns", "simulate", "6", "--duplicate", "--policies", "greedy", "advisor", "--seed", "1",
                 "--out", str(results)]) == 0
    assert main(["report", str(results), "--out", str(tmp_path / "rep")]) == 0
    report = (tmp_path / "rep" / "report.md").read_text()
    rows = {p: next(line for line in report.splitlines() if line.startswith(f"| {p} ")) for p in ("greedy", "advisor")}
    wins = {p: int(rows[p].split("|")[2]) for p in rows}
    games = {p: int(rows[p].split("|")[3]) for p in rows}
    assert games == {"greedy": 12, "advisor": 12}
    assert wins["greedy"] + wins["advisor"] >= 12   # every game has a winner (ties share)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and process groups")
def test_ctrl_c_during_the_studies_exits_at_once_in_one_line(tmp_path):
    # crowns report's own pool: workers ignore SIGINT and are terminated by the parent
    # (before, they printed tracebacks and the exit could hang).  A million games: far more
    # than any machine plays before the helper's hang guard, so a run that was not stopped
    # fails there, and one that was stopped exits 130 with its report not written.
    for delay in (2.0,):
        t0 = time.monotonic()
        rc, err, _ = ctrl_c(["report", "--quick", "--only", "kings_crowns_tournament", "--games", "1000000",
                             "--out", "intr", "--workers", "2", "--no-progress"], tmp_path,
                            lambda: time.monotonic() - t0 > delay, 0.0)
        # what was written and the command that runs the rest, then the command's own line
        assert (rc, err) == (130, "0 of 1 studies written to intr (finished reports stay); the rest: crowns report"
                                  " --quick --only kings_crowns_tournament --seed 2026 --games 1000000 --workers 2"
                                  " --out intr\ncrowns: interrupted\n"), err
        assert not (tmp_path / "intr" / "kings_crowns_tournament.md").exists()
        assert not (tmp_path / "intr" / "index.md").exists()


def test_the_studies_pool_workers_leave_ctrl_c_to_the_parent():
    import os
    import signal

    from crowns_solver import report
    from crowns_solver.montecarlo import stop_pool

    pool = report._executor(2)
    try:
        assert pool.submit(signal.getsignal, signal.SIGINT).result() == signal.SIG_IGN
        assert pool.submit(os.getpid).result() != os.getpid()
    finally:
        stop_pool(pool)
    inline = report._executor(1)  # one worker: the chunks run here, where Ctrl-C lands
    assert inline.submit(os.getpid).result() == os.getpid()


def test_empty_or_uncreatable_out_is_refused(tmp_path, monkeypatch, capsys):
    from conftest import run_cli

    from crowns_solver.kings_crowns import simulate

    results = tmp_path / "kc.jsonl"
    simulate(8, players=2, workers=1, out=results, chunk_size=4)
    monkeypatch.chdir(tmp_path)
    before = sorted(p.name for p in tmp_path.iterdir())
    for argv in (["report", str(results), "--out", ""], ["report", "--only", "five_crowns_deals", "--out", " "]):
        code, _, err = run_cli(capsys, *argv)
        assert code == 2 and err == f"crowns: error: --out needs a folder name; the path is empty ({argv[-1]!r})\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written here
    if os.path.isdir("/proc/self"):  # a folder where nothing can be created
        code, _, err = run_cli(capsys, "report", str(results), "--out", "/proc/nope")
        assert code == 2 and err.startswith("crowns: error: cannot create the folder /proc/nope:"), err


def test_run_studies_only_means_what_it_says(tmp_path):
    from crowns_solver.errors import StudyError
    from crowns_solver.report import run_studies

    with pytest.raises(StudyError, match="only is empty"):  # used to run every study
        run_studies([], out_dir=tmp_path / "r", games=11)
    with pytest.raises(StudyError, match="only must be a list of study names, got 5"):
        run_studies(5, out_dir=tmp_path / "r")
    # one name is that study (it used to be read letter by letter: "unknown study 'f'")
    (path,) = run_studies("five_crowns_deals", out_dir=tmp_path / "r", games=11, workers=1)
    assert path.name == "five_crowns_deals.md"


@pytest.mark.parametrize("duplicate", [False, True])
def test_five_crowns_report_gives_points_per_game_by_policy(tmp_path, capsys, duplicate):
    """The Five Crowns results report shows each policy's mean final total, the game's own
    measure (probe 18): over games, or over deals for a duplicate run (a deal's seatings
    averaged first), checked against the raw file with the statistics module."""
    import statistics

    from crowns_solver.montecarlo import read_results

    results = tmp_path / "fc.jsonl"
    assert main(["five-crowns", "simulate", "6", "--policies", "greedy", "random", "--seed", "4", "--out", str(results)]
                + (["--duplicate"] if duplicate else [])) == 0
    assert main(["report", str(results), "--out", str(tmp_path / "rep")]) == 0
    report = (tmp_path / "rep" / "report.md").read_text()
    section = report[report.index("## Points per game by policy"):].split("\n## ")[0]
    raw = read_results(results)
    prefixes = [f"k{k}_" for k in range(2)] if duplicate else [""]
    t5 = 2.570581835636314   # Student's t(0.975) with 6 - 1 degrees of freedom (6 games, or 6 deals)
    for policy in ("greedy", "random"):
        per_unit = []
        for _, row in raw.iterrows():
            totals = [row[f"{p}total_{s}"] for p in prefixes for s in range(2) if row[f"{p}policy_{s}"] == policy]
            per_unit.append(statistics.fmean(totals))
        mean = statistics.fmean(per_unit)
        assert len(per_unit) == 6
        half = t5 * statistics.stdev(per_unit) / len(per_unit) ** 0.5
        line = next(x for x in section.splitlines() if x.startswith(f"| {policy} "))
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells[1] == str(6 * len(prefixes))
        assert [float(c) for c in cells[2:]] == pytest.approx([mean, mean - half, mean + half], abs=0.051)
    capsys.readouterr()
