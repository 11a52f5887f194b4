"""Results-file readers (session 24 tester's defects).  Each test failed on the code
before its fix.

A results file's header with a misspelt, missing or unknown key was read as if the key
were absent: ``crowns report`` wrote "| seed | None |", a resume said "seed (null there,
0 now)".  The header (top level, meta, params, rules) and chunk lines are now checked
against what the package's writers write, past and present.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import cli_fails

from crowns_solver import montecarlo
from crowns_solver.errors import ResultsFileError

OLD_KC_FILE = Path(__file__).parent / "kings_crowns_results_before_per_game_seeding.jsonl"


def _edit_line(path: Path, lineno: int, edit) -> Path:
    """Write `path` again with JSON line `lineno` (1-based) passed through `edit` (which
    changes the object in place) into a new file beside it."""
    lines = path.read_text(encoding="utf-8").splitlines()
    obj = json.loads(lines[lineno - 1])
    edit(obj)
    lines[lineno - 1] = json.dumps(obj)
    new = path.with_name("edited-" + path.name)
    new.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return new


def _rename(d: dict, old: str, new: str) -> None:
    d[new] = d.pop(old)


@pytest.fixture(scope="module")
def kc_file(tmp_path_factory) -> Path:
    from crowns_solver.kings_crowns import simulate

    out = tmp_path_factory.mktemp("kc") / "kc.jsonl"
    simulate(6, players=3, policies=["greedy", "random", "aggressive"], seed=0, chunk_size=3, workers=1, out=out)
    return out


@pytest.fixture(scope="module")
def fc_file(tmp_path_factory) -> Path:
    from crowns_solver.five_crowns import GameRules, simulate

    out = tmp_path_factory.mktemp("fc") / "fc.jsonl"
    simulate(4, players=2, policies=["greedy", "random"], rules=GameRules(players=2, rounds=2), seed=0,
             chunk_size=2, workers=1, out=out)
    return out


@pytest.fixture(scope="module")
def ck_file(tmp_path_factory) -> Path:
    from crowns_solver.cross_kings.match import match

    out = tmp_path_factory.mktemp("ck") / "ck.jsonl"
    match("random", "greedy", deals=2, seed=0, chunk_size=1, workers=1, out=out)
    return out


# ---------------------------------------------------------------- 1. headers and chunk lines

def test_files_the_writers_write_still_load(kc_file, fc_file, ck_file):
    for path in (kc_file, fc_file, ck_file, OLD_KC_FILE):
        assert len(montecarlo.read_results(path)) > 0


@pytest.mark.parametrize("edit, message", [
    (lambda h: _rename(h["meta"], "seed", "sede"),
     "line 1: unknown key 'sede' (did you mean 'seed'?); the header's meta has the keys seed, chunk_size,"),
    (lambda h: _rename(h["meta"], "game", "gmae"), "unknown key 'gmae' (did you mean 'game'?)"),
    (lambda h: _rename(h["meta"], "params", "parmas"), "unknown key 'parmas' (did you mean 'params'?)"),
    (lambda h: h["meta"].pop("created"), "the header's meta lacks the key 'created'"),
    (lambda h: h["meta"].update(note="x"), "unknown key 'note'; the header's meta has the keys"),
    (lambda h: h.update(qq=1), "line 1: unknown key 'qq'; the header has the keys format, format_version, meta"),
    (lambda h: _rename(h["meta"]["params"], "policies", "policy"),
     "unknown key 'policy' (did you mean 'policies'?); the header's params has the keys"),
    (lambda h: h["meta"]["params"].update(qq=2), "unknown key 'qq'; the header's params"),
    (lambda h: _rename(h["meta"]["rules"], "max_turns", "maxturns"),
     "unknown key 'maxturns' (did you mean 'max_turns'?); the header's meta rules"),
    (lambda h: _rename(h["meta"]["params"]["rules"], "deck", "decks"),
     "unknown key 'decks' (did you mean 'deck'?); the header's params rules"),
    (lambda h: h.pop("format_version"), "line 1: the header lacks the key 'format_version'"),
    (lambda h: h.update(format_version=None), "line 1: results file format version null, expected 1"),
])
def test_kings_crowns_header_keys_are_checked(kc_file, edit, message):
    bad = _edit_line(kc_file, 1, edit)
    with pytest.raises(ResultsFileError, match="^" + str(bad).replace("\\", "\\\\") + ": ") as info:
        montecarlo.read_results(bad)
    assert message in str(info.value)


def test_report_refuses_a_misspelt_seed_in_one_line(kc_file, tmp_path, capsys):
    bad = _edit_line(kc_file, 1, lambda h: _rename(h["meta"], "seed", "sede"))
    err = cli_fails(capsys, "report", str(bad), "--out", str(tmp_path / "rx"))
    assert err.startswith(f"crowns: error: {bad}: line 1: unknown key 'sede' (did you mean 'seed'?)")
    assert err.endswith("the header's meta lacks the key 'seed'")
    assert not (tmp_path / "rx").exists()


def test_resume_names_the_misspelt_key_not_a_null_seed(kc_file, tmp_path):
    from crowns_solver.kings_crowns import simulate

    bad = _edit_line(kc_file, 1, lambda h: _rename(h["meta"], "seed", "sede"))
    with pytest.raises(ResultsFileError, match=r"unknown key 'sede' \(did you mean 'seed'\?\)"):
        simulate(6, players=3, policies=["greedy", "random", "aggressive"], seed=0, chunk_size=3, workers=1, out=bad)


def test_five_crowns_header_keys_are_checked(fc_file):
    bad = _edit_line(fc_file, 1, lambda h: _rename(h["meta"]["params"], "rotate", "rotated"))
    with pytest.raises(ResultsFileError, match=r"unknown key 'rotated' \(did you mean 'rotate'\?\)"):
        montecarlo.read_results(bad)
    bad = _edit_line(fc_file, 1, lambda h: _rename(h["meta"]["rules"], "first_dealer", "dealer"))
    with pytest.raises(ResultsFileError, match="lacks the key 'first_dealer'"):
        montecarlo.read_results(bad)
    # a file of a version before all_wild_melds was a rule still loads
    old = _edit_line(fc_file, 1, lambda h: [h["meta"]["rules"].pop("all_wild_melds"),
                                            h["meta"]["params"]["rules"].pop("all_wild_melds")])
    assert len(montecarlo.read_results(old)) == 4


def test_match_header_reach_renamed_is_refused(ck_file, tmp_path, capsys):
    bad = _edit_line(ck_file, 1, lambda h: _rename(h["meta"]["params"], "reach", "raech"))
    err = cli_fails(capsys, "report", str(bad), "--out", str(tmp_path / "rm"))
    assert "unknown key 'raech' (did you mean 'reach'?); the header's params has the keys a, b," in err
    bad = _edit_line(ck_file, 1, lambda h: _rename(h["meta"], "format", "fromat"))
    with pytest.raises(ResultsFileError, match=r"unknown key 'fromat' \(did you mean 'format'\?\)"):
        montecarlo.read_results(bad)


def test_chunk_line_keys_are_checked(kc_file):
    bad = _edit_line(kc_file, 2, lambda c: c.update(note="hand edit"))
    with pytest.raises(ResultsFileError, match="line 2 is not a finished chunk: unknown key 'note'; a chunk line has"
                                               " the keys chunk, n_games, columns"):
        montecarlo.read_results(bad)
    bad = _edit_line(kc_file, 3, lambda c: _rename(c, "n_games", "ngames"))
    with pytest.raises(ResultsFileError, match=r"line 3 is not a finished chunk: unknown key 'ngames' \(did you mean"
                                               r" 'n_games'\?\)"):
        montecarlo.read_results(bad)


def _toy(chunk_index, n_games, seed, **params):
    return [{"winner": 0, "policy_0": "a", "policy_1": "b"} for _ in range(n_games)]


def test_a_callers_own_game_keeps_its_own_meta_and_params(tmp_path):
    # the meta and params of a chunk function that is not the package's are the caller's:
    # only the keys run() itself writes are required there
    out = tmp_path / "own.jsonl"
    montecarlo.run(_toy, 4, params={"anything": 1}, chunk_size=2, workers=1, out=out,
                   meta={"game": "my-game", "note": "kept"})
    assert montecarlo.read_results(out).attrs["note"] == "kept"
    bad = _edit_line(out, 1, lambda h: _rename(h["meta"], "seed", "sede"))
    with pytest.raises(ResultsFileError, match=r"the header's meta lacks the key 'seed' \(is 'sede' it misspelt\?\)"):
        montecarlo.read_results(bad)
