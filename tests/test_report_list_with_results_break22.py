"""``crowns report RESULTS --list`` (session 22 break): the option to list the studies
was ignored next to a results file, which got its report written (``wrote
report/report.md``) instead of the list the user asked for.  It is refused in one line,
exit 2, before anything is written, as the other study options are there."""

from __future__ import annotations

from conftest import run_cli

from crowns_solver.kings_crowns import simulate


def test_list_with_a_results_file_is_refused(tmp_path, capsys):
    results = tmp_path / "kc.jsonl"
    simulate(10, players=2, workers=1, out=results)
    out = tmp_path / "rep"
    code, stdout, err = run_cli(capsys, "report", str(results), "--list", "--out", str(out))
    assert (code, stdout) == (2, "")
    assert err == "crowns: error: --list lists the studies and takes no results file: give crowns report --list alone\n"
    assert not out.exists()
    code, stdout, err = run_cli(capsys, "report", "--list")
    assert code == 0 and stdout.splitlines()[0].startswith("cross_kings_evaluation ")
