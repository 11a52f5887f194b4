"""A study report replaces the previous one as a whole (session 22): the new charts folder
and report are moved into place after the old charts folder is moved aside.  A Ctrl-C or
an error between those moves left no charts folder (or the new charts beside the old
report) and a ``.NAME.old.*`` folder; the previous charts are now put back."""

from __future__ import annotations

import os

import pandas as pd
import pytest

from crowns_solver.analysis.base import Section, StudyResult, new_figure
from crowns_solver.report import write_study_report


class Toy:
    name, title, game = "toy_swap", "Toy: swap", "kings_crowns"


def result(height: float) -> StudyResult:
    fig = new_figure(3, 2)
    fig.add_subplot().bar(["a"], [height])
    return StudyResult(headline=f"Height {height}.", sections=[Section("Bars", "One bar.", pd.DataFrame({"h": [height]}),
                                                                       fig)],
                       games=1, rules="A toy.")


def files(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.mark.parametrize("fail_on", ["report.md", "charts"])
def test_an_interrupted_swap_keeps_the_previous_report_and_charts(tmp_path, monkeypatch, fail_on):
    out = tmp_path / "reports"
    out.mkdir()
    write_study_report(Toy, result(1.0), out, seed=1, games=1, seconds=0.0, command="toy")
    before = files(out)
    assert "toy_swap.md" in before and "toy_swap/bars.png" in before
    real = os.replace
    hit = []

    def interrupted(src, dst, *args, **kwargs):   # Ctrl-C once, at the move of `fail_on`
        if os.path.basename(os.fspath(src)) == fail_on and not hit:
            hit.append(src)
            raise KeyboardInterrupt
        return real(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_study_report(Toy, result(2.0), out, seed=1, games=1, seconds=0.0, command="toy")
    monkeypatch.undo()
    assert files(out) == before                                          # the previous report and charts, whole
    assert sorted(p.name for p in out.iterdir()) == ["toy_swap", "toy_swap.md"]   # nothing left behind
