"""Ctrl-C in ``five-crowns simulate`` and ``cross-kings match`` (design probe, session 18).

``kings-crowns simulate`` says, before ``crowns: interrupted``, how many games its
``--out`` file keeps and that the same command resumes them (or that nothing was kept
without ``--out``); the two other simulation commands said nothing, so a user could not
tell whether the run could be resumed."""

from __future__ import annotations

from conftest import run_cli
from crowns_solver import montecarlo
from crowns_solver.cross_kings import match as ck_match
from crowns_solver.five_crowns import simulation as fc_simulation


def _interrupt_after(module, first_chunks, monkeypatch):
    """Make `module`'s chunk function raise KeyboardInterrupt from chunk `first_chunks` on
    (the same run as far as the results file is concerned, so it can be resumed)."""
    real = module.play_chunk

    def chunk(chunk_index, n_games, seed, **params):
        if chunk_index >= first_chunks:
            raise KeyboardInterrupt
        return real(chunk_index, n_games, seed, **params)

    chunk.record_name = f"{module.__name__}.play_chunk"
    monkeypatch.setattr(module, "play_chunk", chunk)


def test_five_crowns_simulate_says_how_many_games_are_kept(tmp_path, capsys, monkeypatch):
    res = tmp_path / "f.jsonl"
    chunk = fc_simulation.DEFAULT_CHUNK_SIZE
    argv = ["five-crowns", "simulate", str(2 * chunk + 10), "--players", "1", "--seed", "3", "--workers", "1",
            "--out", str(res)]
    _interrupt_after(fc_simulation, 2, monkeypatch)
    code, out, err = run_cli(capsys, *argv)
    assert code == 130 and out == ""
    assert err == (f"{2 * chunk:,} of {2 * chunk + 10:,} games are kept in {res}: run the same command again to"
                   " resume\ncrowns: interrupted\n")
    monkeypatch.undo()
    code, out, err = run_cli(capsys, *argv)   # the hint is true: the same command finishes the run
    assert code == 0 and err == "" and out.startswith(f"{2 * chunk + 10} games, 1 player")
    whole = montecarlo.read_results(res)
    assert whole.attrs["complete"] and len(whole) == 2 * chunk + 10


def test_five_crowns_duplicate_counts_deals(tmp_path, capsys, monkeypatch):
    res = tmp_path / "d.jsonl"
    _interrupt_after(fc_simulation, 0, monkeypatch)
    code, _, err = run_cli(capsys, "five-crowns", "simulate", "5", "--policies", "greedy", "random", "--duplicate",
                           "--workers", "1", "--out", str(res))
    assert code == 130
    assert err == f"0 of 5 deals are kept in {res}: run the same command again to resume\ncrowns: interrupted\n"


def test_five_crowns_simulate_without_out_says_nothing_was_kept(capsys, monkeypatch):
    _interrupt_after(fc_simulation, 0, monkeypatch)
    code, _, err = run_cli(capsys, "five-crowns", "simulate", "5", "--players", "1", "--workers", "1")
    assert code == 130 and err.splitlines() == [
        "nothing was kept: give --out FILE to keep finished games and resume after an interruption",
        "crowns: interrupted"]


def test_cross_kings_match_says_how_many_deals_are_kept(tmp_path, capsys, monkeypatch):
    res = tmp_path / "m.jsonl"
    argv = ["cross-kings", "match", "--a", "greedy", "--b", "random", "--deals", "10", "--seed", "2",
            "--workers", "1", "--out", str(res)]
    _interrupt_after(ck_match, 1, monkeypatch)
    code, out, err = run_cli(capsys, *argv)
    kept = len(montecarlo.read_results(res))
    assert code == 130 and out == "" and 0 < kept < 10
    assert err == f"{kept} of 10 deals are kept in {res}: run the same command again to resume\ncrowns: interrupted\n"
    monkeypatch.undo()
    code, out, err = run_cli(capsys, *argv)
    assert code == 0 and err == "" and "10 deals x 2 games" in out
    assert len(montecarlo.read_results(res)) == 10


def test_cross_kings_match_without_out_says_nothing_was_kept(capsys, monkeypatch):
    _interrupt_after(ck_match, 0, monkeypatch)
    code, _, err = run_cli(capsys, "cross-kings", "match", "--a", "greedy", "--b", "random", "--deals", "3",
                           "--workers", "1")
    assert code == 130 and err.splitlines() == [
        "nothing was kept: give --out FILE to keep finished deals and resume after an interruption",
        "crowns: interrupted"]
