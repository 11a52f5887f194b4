"""The results report's input and output files (session 23).

- A missing or unreadable results file raised a bare ``FileNotFoundError`` /
  ``OSError`` from :func:`crowns_solver.report.write_report`; it is a
  ``ResultsFileError`` (a CrownsError, a ValueError) naming the path, and ``crowns
  report RESULTS`` prints it in one line, exit status 2, as it printed the OSError.
- A symbolic link whose target is missing, in the place of ``report.md``, a chart, a
  study report, a study's chart folder or ``index.md``, counted as no file and was
  replaced without ``--force`` (a link in a study's chart folder's place even made the
  study run, then fail naming a temporary folder).  Any directory entry is in the way
  now: refused before any work unless ``--force``, which replaces it.
- ``report.md``'s first line was read twice per report (to know whether its charts are
  this command's, then to claim it); it is read once.
"""

from __future__ import annotations

import builtins
import os
from pathlib import Path

import pytest

from crowns_solver.cli import main
from crowns_solver.errors import CrownsError, OutputExistsError, ResultsFileError
from crowns_solver.kings_crowns import simulate
from crowns_solver.report import write_report

STUDY = ["report", "--only", "kings_crowns_seats", "--games", "8", "--no-progress", "--workers", "1"]


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    out = tmp_path_factory.mktemp("kc") / "kc.jsonl"
    simulate(6, players=2, seed=1, workers=1, out=out)
    return out


@pytest.fixture(scope="module")
def match_results(tmp_path_factory):
    from crowns_solver.cross_kings.match import match

    out = tmp_path_factory.mktemp("ck") / "m.jsonl"
    match("greedy", "random", deals=2, seed=1, out=out)
    return out


# ------------------------------------------------------------------ the results file


def test_a_missing_results_file_is_a_crowns_error_naming_it(tmp_path):
    missing = tmp_path / "missing.jsonl"
    with pytest.raises(ResultsFileError) as info:
        write_report(missing, tmp_path / "rep")
    assert isinstance(info.value, CrownsError) and isinstance(info.value, ValueError)
    assert str(info.value) == f"{missing}: No such file or directory"
    assert not (tmp_path / "rep").exists()   # refused before the folder is made


def test_a_results_file_that_cannot_be_read_is_a_crowns_error_naming_it(tmp_path, results, monkeypatch):
    (tmp_path / "notes.txt").write_text("x")
    inside_a_file = tmp_path / "notes.txt" / "r.jsonl"
    with pytest.raises(ResultsFileError, match=f"^{inside_a_file}: Not a directory$"):
        write_report(inside_a_file, tmp_path / "rep")
    real = builtins.open

    def denied(file, *args, **kwargs):   # as for a file of another user (the tests may run as root)
        if os.fspath(file) == os.fspath(results):
            raise PermissionError(13, "Permission denied", os.fspath(file))
        return real(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", denied)
    with pytest.raises(ResultsFileError, match=f"^{results}: Permission denied$"):
        write_report(results, tmp_path / "rep")
    assert not (tmp_path / "rep").exists()


def test_the_command_says_a_missing_results_file_in_one_line(tmp_path, capsys):
    assert main(["report", str(tmp_path / "missing.jsonl"), "--out", str(tmp_path / "rep")]) == 2
    err = capsys.readouterr().err
    assert err == f"crowns: error: {tmp_path / 'missing.jsonl'}: No such file or directory\n"
    assert not (tmp_path / "rep").exists()


# ------------------------------------------------------------------ links whose target is missing


def dangling(path: Path) -> Path:
    path.symlink_to(path.parent / f"nowhere-{path.name}")
    return path


@pytest.mark.parametrize("name", ["report.md", "win_rate_by_seat.png", "margin.png"])
def test_a_dangling_link_in_the_place_of_a_results_report_file_is_kept(tmp_path, results, capsys, name):
    rep = tmp_path / "rep"
    rep.mkdir()
    link = dangling(rep / name)
    target = Path(os.readlink(link))
    assert main(["report", str(results), "--out", str(rep)]) == 2
    assert capsys.readouterr().err == (
        f"crowns: error: {link} exists (a symbolic link to {os.readlink(link)}, which is missing) and was not"
        " written by crowns report; use --force to replace it or choose another --out\n")
    assert link.is_symlink() and [p.name for p in rep.iterdir()] == [name]
    with pytest.raises(OutputExistsError, match="pass force=True to replace it or choose another out_dir"):
        write_report(results, rep)
    # --force replaces it (the link, not a file at its target)
    assert main(["report", str(results), "--out", str(rep), "--force"]) == 0
    capsys.readouterr()
    # a chart this report does not draw (a match report's margin.png) is left alone
    assert (rep / name).is_symlink() == (name == "margin.png") and not target.exists()
    assert (rep / "report.md").read_text().startswith("<!-- crowns-results-report -->")


def test_a_dangling_link_among_the_charts_of_a_report_this_command_wrote_is_kept(tmp_path, results, capsys):
    rep = tmp_path / "rep"
    write_report(results, rep)
    (rep / "final_crowns.png").unlink()
    link = dangling(rep / "final_crowns.png")
    with pytest.raises(OutputExistsError, match=r"final_crowns.png exists \(a symbolic link"):
        write_report(results, rep)
    assert link.is_symlink()


def test_a_dangling_link_in_the_place_of_a_match_report_is_kept(tmp_path, match_results):
    rep = tmp_path / "rep"
    rep.mkdir()
    link = dangling(rep / "report.md")
    with pytest.raises(OutputExistsError, match=r"report.md exists \(a symbolic link"):
        write_report(match_results, rep)
    assert link.is_symlink() and [p.name for p in rep.iterdir()] == ["report.md"]


@pytest.mark.parametrize("name", ["kings_crowns_seats.md", "kings_crowns_seats", "index.md"])
def test_a_dangling_link_in_the_place_of_a_study_file_is_refused_before_the_study(tmp_path, capsys, name):
    out = tmp_path / "reports"
    out.mkdir()
    link = dangling(out / name)
    assert main([*STUDY, "--out", str(out)]) == 2
    assert capsys.readouterr().err == (
        f"crowns: error: {link} exists (a symbolic link to {os.readlink(link)}, which is missing) and was not"
        " written by crowns report; use --force to replace it or choose another --out\n")
    assert link.is_symlink() and [p.name for p in out.iterdir()] == [name]   # nothing ran
    # --force replaces the link (a link in the chart folder's place made the moves fail)
    assert main([*STUDY, "--out", str(out), "--force"]) == 0
    capsys.readouterr()
    assert not (out / name).is_symlink()
    assert sorted(p.name for p in out.iterdir()) == ["index.md", "kings_crowns_seats", "kings_crowns_seats.md"]
    assert [p.suffix for p in (out / "kings_crowns_seats").iterdir()] == [".png"] * len(
        list((out / "kings_crowns_seats").iterdir()))


# ------------------------------------------------------------------ report.md read once


def test_report_md_is_read_once_and_an_unreadable_one_still_says_why(tmp_path, results, monkeypatch):
    rep = tmp_path / "rep"
    write_report(results, rep)
    real = builtins.open
    opened: list[str] = []

    def counting(file, *args, **kwargs):
        if os.fspath(file) == os.fspath(rep / "report.md"):
            opened.append(args[0] if args else kwargs.get("mode", "r"))
        return real(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", counting)
    write_report(results, rep)
    assert opened == ["r"]   # read twice until session 23 (_first_line, then _claim)

    def denied(file, *args, **kwargs):
        if os.fspath(file) == os.fspath(rep / "report.md"):
            raise PermissionError(13, "Permission denied", os.fspath(file))
        return real(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", denied)
    # not refused as the user's report for a reason that was never checked: the system's error
    with pytest.raises(PermissionError, match="Permission denied"):
        write_report(results, rep)
    monkeypatch.undo()


def test_charts_left_by_an_earlier_report_are_still_deleted(tmp_path, results, match_results):
    # the shared read still tells this command's report.md from the user's (session 21's clean-up)
    rep = tmp_path / "rep"
    write_report(results, rep)
    assert (rep / "final_crowns.png").exists()
    write_report(match_results, rep)
    assert sorted(p.name for p in rep.iterdir()) == ["margin.png", "report.md"]
    # a report.md of the user's replaced with force: the folder's other files are kept
    (rep / "report.md").write_text("my notes\n")
    (rep / "final_crowns.png").write_bytes(b"png")
    write_report(match_results, rep, force=True)
    assert (rep / "final_crowns.png").read_bytes() == b"png"

