"""The index of a reports folder and the user's own ``*.md`` files in it (session 22
break): ``write_index`` (run by ``crowns report`` after the studies) read every ``*.md``
of the folder whole to find its reports, so a named pipe ``notes.md`` hung the command
after the studies had run, a folder ``old.md`` ended it with ``Is a directory`` and a
``notes.md`` saved in Latin-1 with ``input is not UTF-8 text`` naming no file.  Only
files whose first line is a study report's marker are read; the others are left alone
and out of the index, as other markdown files always were."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from crowns_solver.report import write_index

REPORT = ("<!-- crowns-study: toy_report -->\n# A toy study\n\n**The toy finding.**\n\n"
          "| run | |\n|---|---|\n")


def folder_with_report(tmp_path: Path) -> Path:
    out = tmp_path / "reports"
    out.mkdir()
    (out / "toy_report.md").write_text(REPORT, encoding="utf-8")
    return out


def index_lines(out: Path) -> list[str]:
    return [ln for ln in (out / "index.md").read_text(encoding="utf-8").splitlines() if ln.startswith("- ")]


def test_a_markdown_file_in_another_encoding_is_left_out(tmp_path):
    out = folder_with_report(tmp_path)
    (out / "notes.md").write_bytes("# Caf\u00e9 notes\n".encode("latin-1"))
    write_index(out)
    assert index_lines(out) == ["- [A toy study](toy_report.md): The toy finding."]
    assert (out / "notes.md").read_bytes() == "# Caf\u00e9 notes\n".encode("latin-1")


def test_a_folder_named_like_markdown_is_left_out(tmp_path):
    out = folder_with_report(tmp_path)
    (out / "old.md").mkdir()
    write_index(out)
    assert index_lines(out) == ["- [A toy study](toy_report.md): The toy finding."]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes")
def test_a_named_pipe_named_like_markdown_is_not_read(tmp_path):
    out = folder_with_report(tmp_path)
    os.mkfifo(out / "notes.md")
    outcome: list = []
    worker = threading.Thread(target=lambda: outcome.append(write_index(out)), daemon=True)
    worker.start()
    worker.join(30)
    hung = worker.is_alive()
    if hung:   # the old code waits for a writer: give it an empty one so the thread ends
        with open(out / "notes.md", "w"):
            pass
        worker.join(30)
    assert not hung, "write_index waited reading a named pipe"
    assert outcome == [out / "index.md"]
    assert index_lines(out) == ["- [A toy study](toy_report.md): The toy finding."]
