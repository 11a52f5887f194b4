"""The score keeper takes the rules option all_wild_melds (session 21): whether typed
cards meld, and so whether the keeper notes that a player should have laid them down,
depends on it (RULES.md, Five Crowns; ``--no-all-wild-melds`` as ``play``, ``simulate``
and the meld commands take it)."""

from __future__ import annotations

import json

import pytest
from conftest import cli_fails, keeper_session, run_cli, type_lines

from crowns_solver.errors import RecordError, RulesError
from crowns_solver.five_crowns.keeper import MELD_NOTE, ScoreKeeper, interactive
from crowns_solver.five_crowns.melds import deadwood
from crowns_solver.five_crowns.rules import Rules

# round 1: 3s wild. Three jokers meld only as wilds (3H 3H JK would be a book of 3s: a
# card of the wild rank may be used as itself); 7H 8H 9H is a natural run
WILDS_ONLY, RUN = "JK JK JK", "7H 8H 9H"


def test_the_melds_checked_follow_the_rule_of_the_game():
    # the expected answers from the meld solver under each rule
    assert deadwood(["JK", "JK", "JK"], 3, rules=Rules()) == 0
    assert deadwood(["JK", "JK", "JK"], 3, rules=Rules(all_wild_melds=False)) == 150
    assert deadwood(["3H", "3H", "JK"], 3, rules=Rules(all_wild_melds=False)) == 0
    for rule, wilds_meld in ((True, True), (False, False)):
        k = ScoreKeeper(["Ann", "Bob", "Cy"], all_wild_melds=rule)
        a, b, c = k.enter_round([WILDS_ONLY, RUN, "5S"])
        assert (a.points, b.points, c.points) == (150, 24, 5)   # face value either way
        assert k.cards_meld(a) is wilds_meld
        assert k.cards_meld(b) is True and k.cards_meld(c) is False


def test_the_interactive_note_follows_the_rule(tmp_path):
    default = keeper_session([WILDS_ONLY, RUN, "5S", "q"], names=["Ann", "Bob", "Cy"], save=tmp_path / "a.json")
    assert default.count(MELD_NOTE) == 2
    strict = keeper_session([WILDS_ONLY, RUN, "5S", "q"], names=["Ann", "Bob", "Cy"], save=tmp_path / "b.json",
                      all_wild_melds=False)
    assert strict.count(MELD_NOTE) == 1          # the run only: three wilds may not be laid down
    assert "Melds of wilds only: not allowed (rules option all_wild_melds=false)." in strict
    assert "Melds of wilds only" not in default


def test_the_rule_is_saved_resumed_and_can_be_changed_on_resume(tmp_path):
    path = tmp_path / "k.json"
    keeper_session(["0", "q"], names=["Ann", "Bob"], save=path, all_wild_melds=False)
    assert json.loads(path.read_text())["all_wild_melds"] is False
    assert ScoreKeeper.load(path).all_wild_melds is False
    # resumed without the option: the file's rule
    text = keeper_session(["JK JK JK", "q"], resume=path)
    assert MELD_NOTE not in text and "Melds of wilds only: not allowed" in text
    # given with --resume: taken over and saved, as --ties is
    text = keeper_session(["q"], resume=path, all_wild_melds=True)
    assert f"Melds of wilds only: now allowed (saved to {path})." in text
    assert ScoreKeeper.load(path).all_wild_melds is True


def test_a_file_from_before_the_option_reads_as_the_default_rules(tmp_path):
    data = ScoreKeeper(["Ann", "Bob"]).to_dict()
    del data["all_wild_melds"]
    assert ScoreKeeper.from_dict(data).all_wild_melds is True
    data["all_wild_melds"] = "no"
    with pytest.raises(RecordError, match="all_wild_melds must be true or false, got 'no'"):   # JSON's words
        ScoreKeeper.from_dict(data)


@pytest.mark.parametrize("value", [0, 1, "false", None])
def test_a_rule_that_is_not_a_bool_is_refused(value, tmp_path):
    with pytest.raises(RulesError, match="all_wild_melds must be True or False"):
        ScoreKeeper(["Ann", "Bob"], all_wild_melds=value)
    if value is not None:   # None: interactive's "not given"
        with pytest.raises(RulesError, match="all_wild_melds must be True or False"):
            interactive(read=lambda p: "2", write=lambda t: None, save=tmp_path / "x.json", all_wild_melds=value)
        assert not (tmp_path / "x.json").exists()


def test_cli_keeper_takes_no_all_wild_melds(tmp_path, monkeypatch, capsys):
    type_lines(monkeypatch, [WILDS_ONLY, "0", "q"])
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "five-crowns", "keeper", "--players", "Ann", "Bob", "--save", "x.json",
                             "--no-all-wild-melds")
    assert code == 0 and not err
    assert "= 150 (JK 50 + JK 50 + JK 50)" in out and MELD_NOTE not in out
    assert ScoreKeeper.load(tmp_path / "x.json").all_wild_melds is False


def test_cli_keeper_resume_switches_melds_of_wilds_only_back_on(tmp_path, monkeypatch, capsys):
    # session 24: --no-all-wild-melds on --resume could not be undone (no --all-wild-melds)
    monkeypatch.chdir(tmp_path)
    type_lines(monkeypatch, ["q"])
    assert run_cli(capsys, "five-crowns", "keeper", "--players", "Ann", "Bob", "--save", "x.json",
                   "--no-all-wild-melds")[0] == 0
    assert ScoreKeeper.load(tmp_path / "x.json").all_wild_melds is False
    type_lines(monkeypatch, ["q"])
    code, out, err = run_cli(capsys, "five-crowns", "keeper", "--resume", "x.json", "--all-wild-melds")
    assert code == 0 and not err
    assert "Melds of wilds only: now allowed (saved to x.json)." in out
    assert ScoreKeeper.load(tmp_path / "x.json").all_wild_melds is True


def test_cli_keeper_resume_refuses_the_switch_an_entry_rules_out(tmp_path, monkeypatch, capsys):
    # three jokers kept in round 1 score 150 only without melds of wilds only
    monkeypatch.chdir(tmp_path)
    type_lines(monkeypatch, ["150", "q"])
    assert run_cli(capsys, "five-crowns", "keeper", "--players", "Ann", "Bob", "--save", "x.json",
                   "--no-all-wild-melds")[0] == 0
    type_lines(monkeypatch, ["q"])
    assert cli_fails(capsys, "five-crowns", "keeper", "--resume", "x.json", "--all-wild-melds") == (
        "crowns: error: --all-wild-melds cannot apply to x.json: Ann's 150 in round 1 is no score under it"
        " (correct that entry first)")
    assert ScoreKeeper.load(tmp_path / "x.json").all_wild_melds is False
