"""A results report (``crowns report RESULTS``, :func:`crowns_solver.report.write_report`)
is written to temporary names and moved into place, as the study reports are (README:
"Reports are written to a temporary name and moved into place").  It wrote ``report.md``
and its charts in place, so a write that failed half-way (a full disk, Ctrl-C) left a
truncated report where the previous one was (session 22)."""

from __future__ import annotations

from pathlib import Path

import pytest

from crowns_solver.kings_crowns import simulate
from crowns_solver.report import write_report


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    out = tmp_path_factory.mktemp("kc") / "kc.jsonl"
    simulate(12, players=3, policies=["greedy", "random", "greedy"], seed=1, workers=1, out=out)
    return out


def test_a_failed_rewrite_keeps_the_previous_report_whole(results, tmp_path, monkeypatch):
    rep = tmp_path / "rep"
    first = write_report(results, rep)
    before = {p.name: p.read_bytes() for p in rep.iterdir()}
    assert "report.md" in before and "win_rate_by_seat.png" in before
    real = Path.write_text

    def half_then_full_disk(self, text, *args, **kwargs):
        real(self, text[: len(text) // 2], *args, **kwargs)
        raise OSError(28, "No space left on device", str(self))

    monkeypatch.setattr(Path, "write_text", half_then_full_disk)
    with pytest.raises(OSError, match="No space left"):
        write_report(results, rep)
    monkeypatch.undo()
    assert first.read_bytes() == before["report.md"]                      # not truncated
    assert sorted(p.name for p in rep.iterdir()) == sorted(before)        # no temporary file left


def test_a_failed_chart_keeps_the_previous_chart_whole(results, tmp_path, monkeypatch):
    from matplotlib.figure import Figure

    rep = tmp_path / "rep"
    write_report(results, rep)
    before = {p.name: p.read_bytes() for p in rep.iterdir()}
    real = Figure.savefig

    def half_a_png(self, path, *args, **kwargs):
        real(self, path, *args, **kwargs)
        Path(path).write_bytes(Path(path).read_bytes()[:100])
        raise KeyboardInterrupt

    monkeypatch.setattr(Figure, "savefig", half_a_png)
    with pytest.raises(KeyboardInterrupt):
        write_report(results, rep)
    monkeypatch.undo()
    assert {p.name: p.read_bytes() for p in rep.iterdir()} == before
