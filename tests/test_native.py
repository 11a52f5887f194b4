"""The check that compiled modules exist and match their Cython sources."""

from __future__ import annotations

import pytest

from crowns_solver import _native


def test_all_compiled_modules_load():
    _native.check()


def test_missing_module_is_explained():
    with pytest.raises(ImportError, match="missing .*pip install -e"):
        _native.load("_no_such_module")


def test_stale_module_is_explained(monkeypatch, tmp_path):
    # pretend the source tree has a newer ext/_ck_score.pyx than the one built
    ext = tmp_path / "ext"
    ext.mkdir()
    (ext / "_ck_score.pyx").write_text("# edited since the build\n")
    monkeypatch.setattr(_native, "_EXT_DIR", ext)
    with pytest.raises(ImportError, match="stale.*pip install -e"):
        _native.load("_ck_score")


def test_every_module_has_a_stub():
    from pathlib import Path

    import crowns_solver

    pkg = Path(crowns_solver.__file__).parent
    for name in _native.EXTENSIONS:
        assert (pkg / f"{name}.pyi").is_file(), name
    assert (pkg / "py.typed").is_file()
