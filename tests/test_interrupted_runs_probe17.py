"""Interrupted runs (session-17 probe finding 18): a results file holding only a header
is started afresh by a run with other options, and Ctrl-C in ``kings-crowns simulate``
and ``crowns report`` says what is kept and how to go on."""

from __future__ import annotations

import json

import pytest

from conftest import run_cli
from crowns_solver import montecarlo
from crowns_solver.errors import ResultsFileError
from crowns_solver.kings_crowns import simulate, simulation


def _header_only(path, games):
    """What Ctrl-C before the first chunk finished leaves: the header line alone."""
    path.unlink(missing_ok=True)
    simulate(games, players=2, workers=1, chunk_size=games, out=path)
    path.write_text(path.read_text().splitlines()[0] + "\n")


def test_a_header_only_file_is_started_afresh_by_a_run_with_other_options(tmp_path, capsys):
    res = tmp_path / "r.jsonl"
    _header_only(res, 40)
    df = simulate(12, players=2, workers=1, chunk_size=5, seed=3, out=res)  # other games, chunk size, seed
    head = montecarlo.read_header(res)
    assert (head["games"], head["chunk_size"], head["seed"]) == (12, 5, 3)
    again = montecarlo.read_results(res)
    assert again["winner"].tolist() == df["winner"].tolist() and again.attrs["complete"]
    _header_only(res, 40)
    code, out, err = run_cli(capsys, "kings-crowns", "simulate", "--games", "6", "--players", "3",
                             "--out", str(res), "--workers", "1")
    assert code == 0 and err == "" and "6 games, 3 players" in out
    assert montecarlo.read_header(res)["games"] == 6


def test_a_file_with_results_is_still_refused_for_another_run(tmp_path):
    res = tmp_path / "r.jsonl"
    simulate(10, players=2, workers=1, chunk_size=5, out=res)
    with pytest.raises(ResultsFileError, match="different number of games \\(10 there, 20 now\\)"):
        simulate(20, players=2, workers=1, chunk_size=5, out=res)
    assert montecarlo.read_header(res)["games"] == 10


def _interrupt_after(first_chunks, monkeypatch):
    real = simulation.play_chunk

    def chunk(chunk_index, n_games, seed, **params):
        if chunk_index >= first_chunks:
            raise KeyboardInterrupt
        return real(chunk_index, n_games, seed, **params)

    chunk.record_name = f"{simulation.__name__}.play_chunk"  # the same run, for the resume
    monkeypatch.setattr(simulation, "play_chunk", chunk)


def test_ctrl_c_in_simulate_says_how_many_games_are_kept_and_how_to_resume(tmp_path, capsys, monkeypatch):
    res = tmp_path / "r.jsonl"
    argv = ["kings-crowns", "simulate", "--games", "30", "--players", "2", "--chunk-size", "10",
            "--workers", "1", "--out", str(res)]
    _interrupt_after(2, monkeypatch)
    code, _, err = run_cli(capsys, *argv)
    assert code == 130
    assert err == f"20 of 30 games are kept in {res}: run the same command again to resume\ncrowns: interrupted\n"
    monkeypatch.undo()
    code, out, err = run_cli(capsys, *argv)
    assert code == 0 and err == "" and "30 games" in out
    whole = simulate(30, players=2, chunk_size=10, workers=1)
    assert montecarlo.read_results(res)["turns"].tolist() == whole["turns"].tolist()


def test_ctrl_c_in_simulate_without_out_says_nothing_was_kept(capsys, monkeypatch):
    _interrupt_after(0, monkeypatch)
    code, _, err = run_cli(capsys, "kings-crowns", "simulate", "--games", "5", "--players", "2", "--workers", "1")
    assert code == 130 and err.splitlines() == [
        "nothing was kept: give --out FILE to keep finished games and resume after an interruption",
        "crowns: interrupted"]


def test_ctrl_c_in_the_studies_gives_the_command_for_the_rest(tmp_path, capsys, monkeypatch):
    from crowns_solver import report

    out = tmp_path / "reps"

    def stopped(only, **kw):  # the first study's report is written, then Ctrl-C
        out.mkdir()
        (out / f"{only[0]}.md").write_text("done")
        raise KeyboardInterrupt

    monkeypatch.setattr(report, "_run_studies", stopped)
    code, _, err = run_cli(capsys, "report", "--quick", "--only", "kings_crowns_seats,kings_crowns_length",
                           "--only", "kings_crowns_deck", "--seed", "5", "--out", str(out))
    assert code == 130
    assert err.splitlines() == [
        f"1 of 3 studies written to {out} (finished reports stay); the rest: crowns report --quick"
        f" --only kings_crowns_length,kings_crowns_deck --seed 5 --out {out}",
        "crowns: interrupted"]


def test_header_only_detection_needs_a_real_header(tmp_path):
    res = tmp_path / "r.jsonl"
    res.write_text(json.dumps({"format": "something else"}) + "\n")
    with pytest.raises(ResultsFileError, match="not a crowns results file"):
        simulate(4, players=2, workers=1, out=res)
