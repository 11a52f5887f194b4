"""``crowns report`` on a Five Crowns ``--duplicate`` results file (session-20 design
probe): its header counts deals, each played in every seating, and the report said
"games | 6 of 3 (run not finished)" of a finished run of 3 deals in 2 seatings, with no
word that the deals were duplicated."""

from __future__ import annotations

from conftest import run_cli

from crowns_solver.five_crowns.simulation import simulate


def _run_row(text: str, key: str) -> str:
    return next(line for line in text.splitlines() if line.startswith(f"| {key} |"))


def test_a_finished_duplicate_run_is_reported_as_finished(tmp_path, capsys):
    res = tmp_path / "d.jsonl"
    code, _, err = run_cli(capsys, "five-crowns", "simulate", "3", "--policies", "greedy", "random", "--duplicate",
                           "--workers", "1", "--out", str(res))
    assert code == 0, err
    code, _, err = run_cli(capsys, "report", str(res), "--out", str(tmp_path / "r"))
    assert code == 0, err
    text = (tmp_path / "r" / "report.md").read_text()
    assert _run_row(text, "games") == "| games | 6 (3 deals x 2 seatings) |"
    assert _run_row(text, "duplicate deals").startswith("| duplicate deals | each deal played once in every")


def test_an_unfinished_duplicate_run_says_how_many_deals_are_done(tmp_path, capsys):
    res = tmp_path / "d.jsonl"
    simulate(5, players=3, policies=["greedy", "random", "greedy"], duplicate=True, chunk_size=2, workers=1, out=res)
    lines = res.read_text().splitlines()
    res.write_text("\n".join(lines[:-1]) + "\n")          # drop the last chunk (deal 4)
    code, _, err = run_cli(capsys, "report", str(res), "--out", str(tmp_path / "r"))
    assert code == 0, err
    text = (tmp_path / "r" / "report.md").read_text()
    # greedy random greedy: 3 distinct rotations
    assert _run_row(text, "games") == "| games | 12 (4 deals x 3 seatings); 4 of 5 deals done (run not finished) |"


def test_a_plain_run_keeps_its_games_row(tmp_path, capsys):
    res = tmp_path / "p.jsonl"
    simulate(4, players=2, workers=1, out=res)
    code, _, err = run_cli(capsys, "report", str(res), "--out", str(tmp_path / "r"))
    assert code == 0, err
    text = (tmp_path / "r" / "report.md").read_text()
    assert _run_row(text, "games") == "| games | 4 |" and "duplicate deals" not in text
