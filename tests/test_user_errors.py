"""User errors found by a new-user probe: each is one line and exit 2, and nothing is overwritten unasked."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

from crowns_solver.cross_kings import Deal, Position, solve
from crowns_solver.errors import OutputExistsError, PositionError, SaveStringError, SolverOptionError

BINARY = bytes(range(128, 256)) * 4
# The README's crosskings.net save string (27 moves).
SAVE = ("??7S6H2H8H??/5H6C3SAHKH7C/3C8C??KC5D4C/4HAD??7D2D5S/7H4DKD6D6S8S/5C3D4SKS2S2C"
        "//ASAC8D3H//301273969908864214574189716")


def _one_line_error(capsys, *argv: str) -> str:
    code, _, err = run_cli(capsys, *argv)
    assert code == 2, err
    assert err.startswith("crowns: error: ") and len(err.strip().splitlines()) == 1, err
    return err


@pytest.mark.parametrize("argv", [
    ("cross-kings", "show", "{f}"),
    ("cross-kings", "solve", "{f}"),
    ("five-crowns", "replay", "{f}"),
    ("kings-crowns", "deck", "{f}"),
    ("kings-crowns", "simulate", "--games", "5", "--deck", "{f}"),
])
def test_binary_files_are_refused_in_one_line(capsys, tmp_path, argv):
    f = tmp_path / "bin.json"
    f.write_bytes(BINARY)
    err = _one_line_error(capsys, *[a.format(f=f) for a in argv])
    assert "not a UTF-8 text file (byte 0x80 at offset 0)" in err


def test_negative_seed_is_a_position_error(capsys):
    # one wording for every game's seed since session 22 (it said "non-negative integer")
    with pytest.raises(PositionError, match="^seed must be a whole number >= 0, got -1$"):
        Position.random(-1)
    with pytest.raises(PositionError, match="^seed must be a whole number >= 0, a numpy SeedSequence"):
        Deal.random(1.5)
    # the command line refuses it as a usage error naming the option
    with pytest.raises(SystemExit) as exc:
        run_cli(capsys, "cross-kings", "show", "--random", "-1")
    assert exc.value.code == 2
    assert capsys.readouterr().err == "crowns: error: argument --random: must be >= 0: '-1'\n"


def test_huge_node_limit_is_refused():
    with pytest.raises(SolverOptionError, match="node_limit must be at most"):
        solve(Position.random(1), node_limit=2**70)


def test_face_down_must_be_a_list():
    d = Position.random(1).to_dict()
    d["face_down"] = 3
    with pytest.raises(PositionError, match="face_down must be a list"):
        Position.from_dict(d)


def test_save_string_cannot_show_an_untaken_diagonal_card():
    assert Position.from_save_string(SAVE).cards_left == 9
    grid = SAVE.split("//")[0]
    with pytest.raises(SaveStringError, match=r"cell \(1,1\) is on a diagonal and shows 6C, but no move took it"):
        Position.from_save_string(grid + "//ASAC8D3H//")
    # the same game cut after 26 moves: cell (2,3) was taken by the 27th move, so it shows a card it cannot
    with pytest.raises(SaveStringError, match="no move took it"):
        Position.from_save_string(SAVE[:-1])


def test_duplicate_in_the_face_down_list_is_named_once():
    with pytest.raises(SaveStringError, match="card 3H appears twice in the face-down list"):
        Position.from_save_string(SAVE.replace("//ASAC8D3H//", "//ASAC8D3H3H//"))


def test_score_needs_cards_and_echoes_them_in_notation(capsys):
    assert "no cards given" in _one_line_error(capsys, "cross-kings", "score", "")
    code, out, _ = run_cli(capsys, "cross-kings", "score", "1s", "2S", "3s")
    assert code == 0 and out.startswith("AS 2S 3S: score 3")


def test_five_crowns_outputs_are_not_overwritten_without_force(capsys, tmp_path):
    save = tmp_path / "mine.json"
    save.write_text("keep")
    assert "already exists; use --force" in _one_line_error(capsys, "five-crowns", "play", "greedy", "greedy",
                                                            "--save", str(save))
    assert save.read_text() == "keep"
    code, _, _ = run_cli(capsys, "five-crowns", "play", "greedy", "greedy", "--save", str(save), "--force")
    assert code == 0 and json.loads(save.read_text())["policies"] == ["greedy", "greedy"]
    csv = tmp_path / "mine.csv"
    csv.write_text("keep")
    assert "already exists" in _one_line_error(capsys, "five-crowns", "simulate", "3", "--csv", str(csv))
    assert csv.read_text() == "keep"


def test_zero_players_is_refused(capsys):
    assert "players must be an integer 1..14, got 0" in _one_line_error(capsys, "five-crowns", "simulate", "3",
                                                                          "--players", "0")


@pytest.mark.parametrize("key, value", [("wild_rank", 9), ("dealer", 7)])
def test_replay_checks_round_facts(capsys, tmp_path, key, value):
    rec = tmp_path / "rec.json"
    assert run_cli(capsys, "five-crowns", "play", "greedy", "greedy", "--save", str(rec))[0] == 0
    data = json.loads(rec.read_text())
    right = data["rounds"][0][key]
    data["rounds"][0][key] = value
    rec.write_text(json.dumps(data))
    err = _one_line_error(capsys, "five-crowns", "replay", str(rec))
    assert f"round entry 1: {key} {value} but the rules and play give {right}" in err


def test_a_deck_too_small_to_deal_says_so(capsys, tmp_path):
    empty = tmp_path / "empty.toml"
    empty.write_text("")
    code, out, _ = run_cli(capsys, "kings-crowns", "deck", str(empty))
    assert code == 0 and "too small to deal: even 2 players need at least 13 cards" in out
    code, out, _ = run_cli(capsys, "kings-crowns", "deck", "--json")
    assert json.loads(out)["playable_players"] == [2, 3, 4, 5]


def test_results_report_keeps_a_users_report(capsys, tmp_path):
    results = tmp_path / "kc.jsonl"
    assert run_cli(capsys, "kings-crowns", "simulate", "--games", "20", "--out", str(results), "--workers", "1")[0] == 0
    out = tmp_path / "rep"
    out.mkdir()
    (out / "report.md").write_text("mine")
    assert "was not written by crowns report" in _one_line_error(capsys, "report", str(results), "--out", str(out))
    assert (out / "report.md").read_text() == "mine"
    assert run_cli(capsys, "report", str(results), "--out", str(out), "--force")[0] == 0
    # once it is ours, a rerun replaces it without asking
    assert run_cli(capsys, "report", str(results), "--out", str(out))[0] == 0
    missing_parent = tmp_path / "no" / "such"
    assert "does not exist" in _one_line_error(capsys, "report", str(results), "--out", str(missing_parent))
    assert not (tmp_path / "no").exists()


def test_resume_names_the_game_and_the_differing_parameter(capsys, tmp_path):
    results = tmp_path / "kc.jsonl"
    assert run_cli(capsys, "kings-crowns", "simulate", "--games", "20", "--out", str(results), "--workers", "1")[0] == 0
    err = _one_line_error(capsys, "five-crowns", "simulate", "5", "--out", str(results))
    assert 'different game ("kings-crowns" there, "five-crowns" now)' in err
    err = _one_line_error(capsys, "kings-crowns", "simulate", "--games", "20", "--out", str(results), "--policy",
                          "random")
    assert 'different params: policies is ["greedy", "greedy", "greedy", "greedy"] there, ["random", "random", "random", "random"] now;' in err


def test_study_report_keeps_a_users_file(tmp_path):
    from crowns_solver.analysis import StudyResult, study
    from crowns_solver.report import run_studies

    ran = []

    @study("toy_user_guard", game="five_crowns", title="Toy", quick_games=1, full_games=1)
    def toy(games, seed, executor=None):
        ran.append(games)
        return StudyResult("h.", [], 1, "r")

    (tmp_path / "toy_user_guard.md").write_text("mine")
    with pytest.raises(OutputExistsError, match="was not written by crowns report"):
        run_studies(["toy_user_guard"], out_dir=tmp_path, workers=1)
    assert (tmp_path / "toy_user_guard.md").read_text() == "mine" and ran == []  # refused before running
    (tmp_path / "toy_user_guard.md").unlink()
    (tmp_path / "toy_user_guard").mkdir()
    (tmp_path / "toy_user_guard" / "my.png").write_text("x")
    with pytest.raises(OutputExistsError, match="toy_user_guard exists"):
        run_studies(["toy_user_guard"], out_dir=tmp_path, workers=1)
    run_studies(["toy_user_guard"], out_dir=tmp_path, workers=1, force=True)
    assert ran == [1] and (tmp_path / "toy_user_guard.md").read_text().startswith("<!-- crowns-study")


def _toy_study(name: str):
    from crowns_solver.analysis import StudyResult, study

    @study(name, game="kings_crowns", title="Toy", quick_games=1, full_games=1)
    def toy(games, seed, executor=None):
        return StudyResult("h.", [], 1, "r")


def test_report_keeps_a_users_index_and_chart_notes(tmp_path, capsys):
    from crowns_solver.report import run_studies

    _toy_study("toy_index_guard")
    (tmp_path / "index.md").write_text("my index")
    with pytest.raises(OutputExistsError, match="index.md exists and was not written"):
        run_studies(["toy_index_guard"], out_dir=tmp_path, workers=1)
    assert (tmp_path / "index.md").read_text() == "my index"
    (tmp_path / "index.md").unlink()
    run_studies(["toy_index_guard"], out_dir=tmp_path, workers=1)
    run_studies(["toy_index_guard"], out_dir=tmp_path, workers=1)  # its own index: replaced
    (tmp_path / "toy_index_guard" / "notes.txt").write_text("mine")
    with pytest.raises(OutputExistsError, match="holds files crowns report did not write"):
        run_studies(["toy_index_guard"], out_dir=tmp_path, workers=1)
    assert (tmp_path / "toy_index_guard" / "notes.txt").read_text() == "mine"
    assert "--only needs a study name" in _one_line_error(capsys, "report", "--only", ",", "--out", str(tmp_path))


def test_no_missing_folders_are_created(capsys, tmp_path):
    missing = tmp_path / "no" / "such"
    err = _one_line_error(capsys, "kings-crowns", "simulate", "--games", "5", "--out", str(missing / "r.jsonl"))
    assert "does not exist" in err
    err = _one_line_error(capsys, "cross-kings", "match", "--deals", "1", "--a", "greedy", "--csv", str(missing / "m.csv"))
    assert "does not exist" in err
    assert not (tmp_path / "no").exists()


def test_match_csv_is_not_overwritten_without_force(capsys, tmp_path):
    csv = tmp_path / "mine.csv"
    csv.write_text("keep")
    assert "already exists" in _one_line_error(capsys, "cross-kings", "match", "--deals", "1", "--a", "greedy",
                                               "--csv", str(csv))
    assert csv.read_text() == "keep"


def test_play_save_keeps_an_existing_file(capsys, tmp_path, monkeypatch):
    import io

    precious = tmp_path / "precious.txt"
    precious.write_text("precious")
    monkeypatch.setattr("sys.stdin", io.StringIO(f"2 3\nsave {precious}\nquit\n"))
    code, out, _ = run_cli(capsys, "cross-kings", "play", "--seed", "3", "--opponent", "greedy", "--time", "0.05")
    assert code == 0 and "already exists; not overwritten" in out
    assert precious.read_text() == "precious"


def test_load_refuses_devices_and_empty_names(capsys):
    assert "not a regular file" in _one_line_error(capsys, "cross-kings", "play", "--load", "/dev/zero")
    assert "not a save string" in _one_line_error(capsys, "cross-kings", "play", "--load", "")


def test_unlimited_analysis_of_an_early_position_is_refused():
    from crowns_solver.cross_kings.review import move_values

    pos = Position.random(2).play((2, 2))
    with pytest.raises(SolverOptionError, match="36 cards left needs a time_limit or node_limit"):
        move_values(pos, time_limit=None, node_limit=None)


def test_report_options_that_do_not_apply_are_refused(capsys, tmp_path):
    results = tmp_path / "kc.jsonl"
    assert run_cli(capsys, "kings-crowns", "simulate", "--games", "10", "--out", str(results), "--workers", "1")[0] == 0
    assert "workers must be" in _one_line_error(capsys, "report", str(results), "--workers", "0")
    assert "--by applies to a results file" in _one_line_error(capsys, "report", "--by", "seat", "--only", "x")
    code, out, _ = run_cli(capsys, "report", str(results), "--out", str(tmp_path / "rep"))
    assert code == 0 and "wrote" in out and (tmp_path / "rep" / "report.md").exists()
