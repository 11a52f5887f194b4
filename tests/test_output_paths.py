"""Output and input paths, as a fresh user types them (probe findings of the path-fixes
issue): two outputs naming one file, a file name ending in '/', the report API's
write_index / write_study_report, the in-game save of cross-kings play, and messages that
name what the user typed.  Every refusal comes before any work and writes nothing: the CLI
prints one line on stderr and exits 2; the API raises a specific CrownsError (a
ValueError)."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path

import pytest
from conftest import run_cli
from hypothesis import given
from hypothesis import strategies as st

from crowns_solver import montecarlo
from crowns_solver._io import (check_distinct, check_file_path, check_folder_path, check_path_given,
                               check_run_outputs, check_writable, names_folder, read_text)
from crowns_solver.analysis import StudyResult, registry, study
from crowns_solver.errors import (CrownsError, EmptyPathError, FolderPathError, MissingFolderError,
                                  OutputExistsError, OutputPathError, RecordError, ResultsFileError,
                                  RunnerError, SamePathError)
from crowns_solver.report import run_studies, write_index, write_report, write_study_report

MATCH = ["cross-kings", "match", "--a", "greedy", "--b", "random", "--deals", "3", "--workers", "1"]
FC_SIM = ["five-crowns", "simulate", "3000", "--players", "4", "--policies", "greedy", "--workers", "1"]
KC_SIM = ["kings-crowns", "simulate", "--games", "3000", "--workers", "1"]


@pytest.fixture
def no_games(monkeypatch):
    """Every simulate and match plays through montecarlo.run: a refusal that comes before
    any work never reaches it."""
    def played(*args, **kwargs):
        raise AssertionError("games were played before the path was refused")

    monkeypatch.setattr(montecarlo, "run", played)


def refused(capsys, *argv) -> str:
    """Run the command; it must fail with one line on stderr, exit 2, nothing on stdout."""
    code, out, err = run_cli(capsys, *argv)
    assert (code, out) == (2, ""), err
    assert err.startswith("crowns: error: ") and err.count("\n") == 1, err
    return err[len("crowns: error: "):-1]


def _tree(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): (p.read_text() if p.is_file() else "/")
            for p in sorted(folder.rglob("*"))}


# ---------------------------------------------------------------- 1. two outputs, one file

SAME = "the CSV table would replace the resumable results file; give them different names"


@pytest.mark.parametrize("command", [MATCH, FC_SIM], ids=["match", "five-crowns-simulate"])
@pytest.mark.parametrize("spelling", ["m.jsonl", "./m.jsonl", "{abs}/m.jsonl", "sub/../m.jsonl"])
@pytest.mark.parametrize("force", [False, True])
@pytest.mark.parametrize("existing", [False, True])
def test_out_and_csv_naming_one_file_are_refused_before_any_game(command, spelling, force, existing, capsys,
                                                                  tmp_path, monkeypatch, no_games):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    if existing:  # a results file from an earlier run: the CSV used to replace it after the match
        (tmp_path / "m.jsonl").write_text("earlier results\n")
    before = _tree(tmp_path)
    csv = spelling.format(abs=tmp_path)
    msg = refused(capsys, *command, "--out", "m.jsonl", "--csv", csv, *(["--force"] if force else []))
    assert msg == f"--csv and --out name the same file ({csv}): {SAME}"
    assert _tree(tmp_path) == before


def test_a_link_to_the_results_file_is_the_same_file(capsys, tmp_path, monkeypatch, no_games):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.jsonl").write_text("earlier results\n")
    os.link(tmp_path / "m.jsonl", tmp_path / "hard.csv")
    os.symlink(tmp_path / "m.jsonl", tmp_path / "soft.csv")
    for csv in ("hard.csv", "soft.csv"):
        msg = refused(capsys, *MATCH, "--out", "m.jsonl", "--csv", csv, "--force")
        assert msg == f"--csv and --out name the same file ({csv}): {SAME}"
    assert (tmp_path / "m.jsonl").read_text() == "earlier results\n"


def test_different_files_still_work(capsys, tmp_path, monkeypatch):
    # the refusal is for one file only: m.jsonl and m.csv side by side are written
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, *MATCH[:-4], "--deals", "1", "--workers", "1", "--out", "m.jsonl",
                             "--csv", "m.csv")
    assert (code, err) == (0, "")
    assert (tmp_path / "m.jsonl").read_text().startswith("{")
    assert (tmp_path / "m.csv").read_text().splitlines()[0].startswith("deal,")


def test_the_report_refuses_to_replace_its_own_results_file(tmp_path, capsys):
    results = tmp_path / "rep" / "report.md"
    results.parent.mkdir()
    code, _, err = run_cli(capsys, "kings-crowns", "simulate", "--games", "4", "--workers", "1",
                           "--out", str(results))
    assert (code, err) == (0, "")
    kept = results.read_text()
    msg = refused(capsys, "report", str(results), "--out", str(results.parent), "--force")
    assert msg == (f"the results file and the report's report.md name the same file ({results}): the report"
                   " would replace its own results file (choose another --out); give them different names")
    with pytest.raises(SamePathError, match="choose another out_dir"):
        write_report(results, results.parent, force=True)
    assert results.read_text() == kept and _tree(results.parent) == {"report.md": kept}


def test_check_distinct_skips_options_not_given_and_compares_every_pair(tmp_path):
    check_distinct(("--out", None), ("--csv", tmp_path / "a"))
    check_distinct(("--a", tmp_path / "a"), ("--b", tmp_path / "b"), ("--c", tmp_path / "c"))
    with pytest.raises(SamePathError, match=r"^--b and --c name the same file .*: one would overwrite the other;"):
        check_distinct(("--a", tmp_path / "a"), ("--b", tmp_path / "b"), ("--c", tmp_path / "x" / ".." / "b"))
    assert issubclass(SamePathError, OutputExistsError) and issubclass(SamePathError, ValueError)


# ---------------------------------------------------------------- 2. a file name ending in "/"

FOLDER_NAMES = ["new/", "new//", "new/.", "new/..", ".", "..", "./"]
CLI_FILE_OPTIONS = [
    (FC_SIM, "--csv"), (FC_SIM, "--out"), (MATCH, "--csv"), (MATCH, "--out"), (KC_SIM, "--out"),
    (["five-crowns", "play", "greedy", "greedy"], "--save"), (["five-crowns", "keeper"], "--save"),
]


@pytest.mark.parametrize("command, option", CLI_FILE_OPTIONS, ids=lambda x: x if isinstance(x, str) else x[1])
@pytest.mark.parametrize("name", FOLDER_NAMES)
def test_a_file_option_naming_a_folder_is_refused_up_front(command, option, name, capsys, tmp_path, monkeypatch,
                                                            no_games):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))  # the keeper would ask for names
    msg = refused(capsys, *command, option, name)
    if name in (".", "..", "./"):  # existing folders are said to be folders
        assert msg.startswith(f"{option} {name} is a folder; give a file name")
    else:
        assert msg == f"{option} {name} names a folder; give a file name"
    assert list(tmp_path.iterdir()) == []  # no file "new", no folder "new"


def _api_file_writers():
    from crowns_solver.cross_kings.match import match
    from crowns_solver.five_crowns import simulate as fc_simulate
    from crowns_solver.five_crowns.game import GameRules, play_game
    from crowns_solver.five_crowns.keeper import ScoreKeeper, interactive
    from crowns_solver.kings_crowns import simulate as kc_simulate
    from mc_toy import toy_chunk

    game = play_game(["greedy", "greedy"], seed=1, rules=GameRules(players=2, rounds=1))

    def never(prompt):
        raise AssertionError(f"asked {prompt!r} before refusing the path")

    return [
        (lambda p: game.save(p), "the game record path {!r}"),
        (lambda p: ScoreKeeper(["Ann", "Bob"]).save(p), "the score-keeper file path {!r}"),
        (lambda p: interactive(save=p, read=never, write=never), "save={!r}"),
        (lambda p: fc_simulate(2, players=2, out=p, workers=1), "out={!r}"),
        (lambda p: montecarlo.run(toy_chunk, 4, out=p, workers=1), "out={!r}"),
        (lambda p: kc_simulate(2, out=p, workers=1), "out={!r}"),
        (lambda p: match("greedy", "random", 1, out=p, workers=1), "out={!r}"),
        (lambda p: check_writable(p, option="--x"), "--x {}"),
    ]


@pytest.mark.parametrize("name", ["new/", "new/.", "new/.."])
def test_every_api_file_argument_refuses_a_folder_name(name, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for call, label in _api_file_writers():
        with pytest.raises(FolderPathError) as info:
            call(name)
        assert str(info.value) == f"{label.format(name)} names a folder; give a file name"
        assert isinstance(info.value, (OutputExistsError, RunnerError, OutputPathError, ValueError))
    assert list(tmp_path.iterdir()) == []


@given(st.text(alphabet="ab ./_-", min_size=1, max_size=8).filter(lambda s: s.strip()))
def test_names_folder_is_decided_on_the_text(name):
    ends = name.endswith("/") or os.path.basename(name) in (".", "..")
    assert names_folder(name) == ends
    assert names_folder(name + "/")
    if ends:
        with pytest.raises(FolderPathError, match="(names|is) a folder; give a file name$"):  # "." is one
            check_path_given(name, "--csv")
        check_path_given(name, "--out", kind="folder")  # a folder option takes it
    else:
        assert check_path_given(name, "--csv") is name


# ---------------------------------------------------------------- 3. the report API


@study("toy_paths", game="kings_crowns", title="Toy: paths", quick_games=1, full_games=1)
def _toy_paths(games, seed, executor=None):
    return StudyResult("h.", [], 1, "r")


def _study_report(out_dir, **kw):
    return write_study_report(registry()["toy_paths"], StudyResult("h.", [], 1, "r"), out_dir, seed=1, games=1,
                              seconds=0.0, command="crowns report --only toy_paths", **kw)


@pytest.mark.parametrize("call", [write_index, _study_report], ids=["write_index", "write_study_report"])
@pytest.mark.parametrize("empty", ["", " ", "\t"])
def test_report_writers_refuse_an_empty_folder(call, empty, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(EmptyPathError) as info:
        call(empty)
    assert str(info.value) == f"out_dir needs a folder name; the path is empty ({empty!r})"
    assert list(tmp_path.iterdir()) == []  # no index.md here, no folder named " "


@pytest.mark.parametrize("call", [write_index, _study_report], ids=["write_index", "write_study_report"])
def test_report_writers_refuse_a_file_or_a_missing_parent(call, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("notes.txt").write_text("mine")
    with pytest.raises(OutputExistsError) as info:
        call("notes.txt")
    assert str(info.value) == "out_dir='notes.txt' exists and is not a folder; give a folder name"
    with pytest.raises(MissingFolderError) as info:
        call("nope/x")
    assert str(info.value) == ("out_dir='nope/x': the folder nope does not exist; create it first or choose"
                               " another path")
    with pytest.raises(MissingFolderError) as info:
        call("notes.txt/x")
    assert str(info.value) == "out_dir='notes.txt/x': notes.txt is a file, not a folder; choose another path"
    assert isinstance(info.value, OutputPathError) and isinstance(info.value, ValueError)
    assert _tree(tmp_path) == {"notes.txt": "mine"}


def test_write_index_keeps_a_users_own_index(tmp_path):
    (tmp_path / "index.md").write_text("# my notes\n")
    with pytest.raises(OutputExistsError) as info:
        write_index(tmp_path)
    assert str(info.value) == (f"{tmp_path / 'index.md'} exists and was not written by crowns report;"
                               " pass force=True to replace it or choose another out_dir")
    assert (tmp_path / "index.md").read_text() == "# my notes\n"
    _study_report(tmp_path)
    text = write_index(tmp_path, force=True).read_text()
    assert text.startswith("<!-- crowns-report-index -->\n# crowns_solver strategy reports")
    assert "- [Toy: paths](toy_paths.md): h." in text
    assert write_index(tmp_path).read_text() == text  # its own index: replaced without force
    (tmp_path / "index.md").write_text("# crowns_solver strategy reports\n\nan index from before the marker\n")
    assert write_index(tmp_path).read_text() == text


def test_write_study_report_keeps_a_users_file(tmp_path):
    (tmp_path / "toy_paths.md").write_text("mine")
    with pytest.raises(OutputExistsError, match="pass force=True to replace it or choose another out_dir$"):
        _study_report(tmp_path)
    assert _tree(tmp_path) == {"toy_paths.md": "mine"}


def test_the_cli_and_the_api_each_name_their_own_option(capsys, tmp_path):
    (tmp_path / "toy_paths.md").write_text("mine")
    msg = refused(capsys, "report", "--only", "toy_paths", "--out", str(tmp_path), "--no-progress", "--workers", "1")
    assert msg == (f"{tmp_path / 'toy_paths.md'} exists and was not written by crowns report;"
                   " use --force to replace it or choose another --out")
    with pytest.raises(OutputExistsError, match="pass force=True to replace it or choose another out_dir$"):
        run_studies(["toy_paths"], out_dir=tmp_path, workers=1)
    assert _tree(tmp_path) == {"toy_paths.md": "mine"}


# ---------------------------------------------------------------- 4. cross-kings play: save FILE

LABEL_SAVE = (
    "??7S6H2H8H??/5H6C3SAHKH7C/3C8C??KC5D4C/4HAD??7D2D5S/7H4DKD6D6S8S/5C3D4SKS2S2C"
    "//ASAC8D3H//301273969908864214574189716"
)


def _play(capsys, monkeypatch, script):
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    code, out, err = run_cli(capsys, "cross-kings", "play", "--load", LABEL_SAVE, "--node-limit", "2000",
                             "--time", "0", "--seed", "3")
    assert (code, err) == (0, "")
    return out.splitlines()


def test_save_reads_its_file_name_as_a_shell_would(capsys, monkeypatch, tmp_path):
    from crowns_solver.cross_kings import Position

    monkeypatch.chdir(tmp_path)
    lines = _play(capsys, monkeypatch, "save \"\"\nsave ''\nsave 'q.json'\nsave 'my game.json'\n")
    assert lines.count(f"save string: {LABEL_SAVE}") == 4
    # the resume line gives the seed and the limits, as quit's does (session 23)
    assert "position written to q.json (resume with --load q.json --seed 3 --time 0 --node-limit 2000)" in lines
    assert ("position written to my game.json (resume with --load 'my game.json' --seed 3 --time 0"
            " --node-limit 2000)") in lines
    assert sorted(p.name for p in tmp_path.iterdir()) == ["my game.json", "q.json"]  # no '""', no "'q.json'"
    played = Position.from_save_string(LABEL_SAVE)
    for name in ("q.json", "my game.json"):
        saved = Position.from_dict(json.loads((tmp_path / name).read_text()))
        assert saved.grid == played.grid and saved.marker == played.marker


def test_save_refuses_two_names_an_open_quote_a_folder_and_an_existing_file(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "old.json").write_text("mine")
    lines = _play(capsys, monkeypatch, "save my game.json\nsave 'my game.json\nsave games/\nsave old.json\n"
                  "save old.json/x\n")
    assert ("save takes one file name, got 2 ('my' 'game.json'); quote a name with spaces: save 'my game.json'"
            in lines)
    assert "save: No closing quotation; quote a file name like this: save 'my game.json'" in lines
    assert "the file name 'games/' names a folder; give a file name" in lines
    assert "old.json already exists; not overwritten (save to a new file name)" in lines
    assert "the file name 'old.json/x': old.json is a file, not a folder; choose another path" in lines
    assert lines[-1].startswith("end of input: game left unfinished; resume with: crowns cross-kings play --load '")
    assert _tree(tmp_path) == {"old.json": "mine"}


# ---------------------------------------------------------------- 5. messages that name what was typed


@pytest.mark.parametrize("command", [["report", "--only", "toy_paths"], KC_SIM, MATCH, FC_SIM],
                         ids=["report", "kings-crowns", "match", "five-crowns"])
def test_a_parent_that_is_a_file_is_said_to_be_one(command, capsys, tmp_path, monkeypatch, no_games):
    monkeypatch.chdir(tmp_path)
    Path("exist.txt").write_text("mine")
    msg = refused(capsys, *command, "--out", "exist.txt/sub")
    assert msg == "--out exist.txt/sub: exist.txt is a file, not a folder; choose another path"
    assert _tree(tmp_path) == {"exist.txt": "mine"}


@pytest.mark.parametrize("command", [KC_SIM, MATCH, FC_SIM], ids=["kings-crowns", "match", "five-crowns"])
def test_a_folder_given_for_the_results_file_names_the_cli_option(command, capsys, tmp_path, monkeypatch, no_games):
    monkeypatch.chdir(tmp_path)
    Path("adir").mkdir()
    assert refused(capsys, *command, "--out", "adir") == "--out adir is a folder; give a file name for the results file"
    assert refused(capsys, *command, "--out", "my dir/") == "--out 'my dir/' names a folder; give a file name"
    assert _tree(tmp_path) == {"adir": "/"}


def test_the_api_names_its_own_argument(tmp_path):
    from crowns_solver.five_crowns import simulate as fc_simulate
    from mc_toy import toy_chunk

    for call in (lambda: fc_simulate(2, players=2, out=tmp_path, workers=1),
                 lambda: montecarlo.run(toy_chunk, 4, out=tmp_path, workers=1)):
        with pytest.raises(FolderPathError) as info:
            call()
        assert str(info.value) == f"out={str(tmp_path)!r} is a folder; give a file name for the results file"
    with pytest.raises(MissingFolderError) as info:
        montecarlo.run(toy_chunk, 4, out=tmp_path / "no" / "r.jsonl", workers=1)
    assert "--out" not in str(info.value) and str(info.value).endswith("choose another path")
    assert list(tmp_path.iterdir()) == []


def test_keeper_refuses_a_folder_before_asking_anything(capsys, tmp_path, monkeypatch):
    from crowns_solver.five_crowns.keeper import interactive

    monkeypatch.chdir(tmp_path)
    Path("adir").mkdir()
    monkeypatch.setattr(sys, "stdin", io.StringIO("2\nAnn\nBob\ny\n"))
    assert refused(capsys, "five-crowns", "keeper", "--save", "adir") == (
        "--save adir is a folder; give a file name for the score-keeper file")

    def never(prompt):
        raise AssertionError(f"asked {prompt!r}")

    with pytest.raises(FolderPathError, match=r"^save='adir' is a folder"):
        interactive(save="adir", read=never, write=never)
    assert _tree(tmp_path) == {"adir": "/"}


def test_keeper_asks_again_when_the_other_file_is_a_folder(tmp_path, monkeypatch):
    from crowns_solver.five_crowns.keeper import ScoreKeeper, interactive

    monkeypatch.chdir(tmp_path)
    Path("adir").mkdir()
    Path("old.json").write_text("mine")
    answers = iter(["n", "adir", "adir/", "old.json/x", "new/", "my game.json", "q"])
    said: list[str] = []
    interactive(save="old.json", names=["Ann", "Bob"], read=lambda prompt: next(answers), write=said.append)
    assert said[:4] == ["the file name 'adir' is a folder; give a file name for the score-keeper file",
                        "the file name 'adir/' is a folder; give a file name for the score-keeper file",
                        "the file name 'old.json/x': old.json is a file, not a folder; choose another path",
                        "the file name 'new/' names a folder; give a file name"]
    assert "Saving to my game.json after every entry (continue later with --resume 'my game.json')." in said
    assert Path("old.json").read_text() == "mine"
    assert ScoreKeeper.load("my game.json").names == ("Ann", "Bob")


@pytest.mark.parametrize("argv, message", [
    (["report", ""], "no results file given; the path is empty ('')"),
    (["report", " ", "--out", "rep"], "no results file given; the path is empty (' ')"),
    (["five-crowns", "replay", ""], "no game record given; the path is empty ('')"),
    (["five-crowns", "replay", " "], "no game record given; the path is empty (' ')"),
])
def test_empty_input_paths_say_so(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert refused(capsys, *argv) == message
    assert list(tmp_path.iterdir()) == []


def test_empty_input_paths_in_the_api(tmp_path):
    from crowns_solver.five_crowns.game import load_record, replay
    from crowns_solver.five_crowns.keeper import ScoreKeeper

    for call, error, what in ((montecarlo.read_results, ResultsFileError, "results file"),
                              (load_record, RecordError, "game record"), (replay, RecordError, "game record"),
                              (ScoreKeeper.load, RecordError, "score-keeper file"),
                              (lambda p: read_text(p, RecordError), RecordError, "file")):
        with pytest.raises(error) as info:
            call("")
        assert str(info.value) == f"no {what} given; the path is empty ('')"
    with pytest.raises(ResultsFileError, match=r"is a folder, not a results file$"):
        montecarlo.read_results(tmp_path)
    with pytest.raises(ResultsFileError, match=r"^no results file given"):
        write_report("", tmp_path / "rep")
    assert list(tmp_path.iterdir()) == []


def test_check_file_path_and_check_folder_path(tmp_path):
    (tmp_path / "f").write_text("x")
    assert check_file_path(tmp_path / "f", "--out") == tmp_path / "f"  # an existing file passes (resumed)
    assert check_folder_path(tmp_path / "new", "--out") == tmp_path / "new"
    assert not (tmp_path / "new").exists()  # checking creates nothing
    with pytest.raises(OutputExistsError, match="exists and is not a folder"):
        check_folder_path(tmp_path / "f", "--out")
    with pytest.raises(MissingFolderError, match=r"the folder .*/a/b does not exist"):
        check_file_path(tmp_path / "a" / "b" / "c", "--out")
    if os.path.exists("/dev/null"):
        with pytest.raises(MissingFolderError, match="/dev/null is not a folder; choose another path$"):
            check_file_path("/dev/null/x", "--out")
    for cls in (FolderPathError, MissingFolderError, SamePathError):
        assert issubclass(cls, CrownsError) and issubclass(cls, OutputExistsError)
    check_run_outputs(None, None, force=False)
