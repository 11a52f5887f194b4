"""The score keeper takes the number of card sets (session 21): RULES.md, Five Crowns,
"Players: 1 to 7 with one set, up to 14 with two sets shuffled together", and
``five-crowns play --sets 2`` plays two sets at any table size, so a table of three
playing two sets must be able to type a card three times in a round.  Until then the
keeper always used one set up to 7 players."""

from __future__ import annotations

import json

import pytest
from conftest import keeper_session, run_cli, type_lines

from crowns_solver.errors import RecordError, RulesError, ScoreEntryError
from crowns_solver.five_crowns.keeper import ScoreKeeper, interactive

NAMES = ["Ann", "Bob", "Cy"]
THREE_QUEENS = "QH QH QH"   # round 1 (3s wild): 36 points, and three copies of one card




def test_two_sets_allow_a_card_three_times_one_set_does_not():
    with pytest.raises(ScoreEntryError, match="3 copies of QH, but 1 set holds only 2"):
        ScoreKeeper(NAMES).enter(THREE_QUEENS)
    k = ScoreKeeper(NAMES, sets=2)
    assert k.enter(THREE_QUEENS).points == 36
    # four copies: two sets hold 4 of each card; a fifth is refused
    k.enter("QH")
    with pytest.raises(ScoreEntryError, match=r"5 copies of QH typed in round 1 \(Ann 3, Bob 1, Cy 1\), but 2 sets hold only 4"):
        k.enter("QH")


def test_the_default_follows_the_players():
    assert ScoreKeeper(NAMES).sets == 1
    assert ScoreKeeper([f"P{i}" for i in range(7)]).sets == 1
    assert ScoreKeeper([f"P{i}" for i in range(8)]).sets == 2


@pytest.mark.parametrize("sets, message", [
    (0, "sets must be an integer 1..2"), (3, "sets must be an integer 1..2"), (True, "sets must be an integer 1..2"),
    ("2", "sets must be an integer 1..2"), (1.0, "sets must be an integer 1..2"),
])
def test_a_bad_number_of_sets_is_refused(sets, message, tmp_path):
    with pytest.raises(RulesError, match=message):
        ScoreKeeper(NAMES, sets=sets)
    with pytest.raises(RulesError, match=message):   # before anything is asked or written
        interactive(read=lambda p: "Ann Bob", write=lambda t: None, save=tmp_path / "x.json", sets=sets)
    assert not (tmp_path / "x.json").exists()


def test_one_set_for_eight_players_is_refused():
    with pytest.raises(RulesError, match="sets=1: one set of cards is for 1 to 7 players, not 8"):
        ScoreKeeper([f"P{i}" for i in range(8)], sets=1)


def test_the_sets_are_saved_and_a_file_without_them_reads_as_the_default(tmp_path):
    k = ScoreKeeper(NAMES, sets=2)
    k.enter(THREE_QUEENS)
    data = k.to_dict()
    assert data["sets"] == 2
    again = ScoreKeeper.from_dict(json.loads(json.dumps(data)))
    assert again.sets == 2 and again.totals() == k.totals()
    # a file from before the option: the default for its players, which these entries do not fit
    del data["sets"]
    with pytest.raises(RecordError, match="3 copies of QH, but 1 set holds only 2"):
        ScoreKeeper.from_dict(data)
    data["sets"] = 5
    with pytest.raises(RecordError, match="bad 'sets': sets must be an integer 1..2"):
        ScoreKeeper.from_dict(data)


def test_the_sets_are_said_resumed_and_can_be_changed_on_resume(tmp_path):
    path = tmp_path / "k.json"
    text = keeper_session(["q"], names=NAMES, save=path, sets=2)
    assert "Card sets: 2 sets of 116 cards shuffled together." in text
    assert "Card sets" not in keeper_session(["q"], names=NAMES, save=tmp_path / "d.json")   # the default: not said
    # resumed without the option: the file's
    text = keeper_session([THREE_QUEENS, "q"], resume=path)
    assert "Card sets: 2 sets of 116 cards shuffled together." in text
    assert ScoreKeeper.load(path).entries[0].points == 36
    # back to one set: the entered cards do not fit it, so it is refused and the file kept
    before = path.read_text()
    with pytest.raises(RulesError, match=r"sets=1: the entered scores do not fit: entry 1: 'cards': cards left in"
                                         r" hand: 3 copies of QH, but 1 set holds only 2"):
        keeper_session(["q"], resume=path, sets=1)
    assert path.read_text() == before
    # a game started with one set can take a second one on resume (every entry still fits)
    other = tmp_path / "o.json"
    keeper_session(["13", "q"], names=NAMES, save=other)
    text = keeper_session([THREE_QUEENS, "q"], resume=other, sets=2)
    assert f"Card sets: now 2 sets of 116 cards shuffled together (saved to {other})." in text
    saved = ScoreKeeper.load(other)
    assert saved.sets == 2 and [e.points for e in saved.entries] == [13, 36]


def test_cli_keeper_takes_sets(tmp_path, monkeypatch, capsys):
    type_lines(monkeypatch, ["0", THREE_QUEENS, "q"])
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "five-crowns", "keeper", "--players", *NAMES, "--save", "x.json", "--sets", "2")
    assert code == 0 and not err
    assert "= 36 (QH 12 + QH 12 + QH 12)" in out
    assert ScoreKeeper.load(tmp_path / "x.json").sets == 2
    code, out, err = run_cli(capsys, "five-crowns", "keeper", "--resume", "x.json", "--sets", "1")
    assert code == 2 and err.count("\n") == 1
    assert err.startswith("crowns: error: --sets 1: the entered scores do not fit: entry 2:")
    code, out, err = run_cli(capsys, "five-crowns", "keeper", "--players", *[f"P{i}" for i in range(8)],
                             "--save", "y.json", "--sets", "1")
    assert (code, err) == (2, "crowns: error: --sets 1: one set of cards is for 1 to 7 players, not 8\n")
    assert not (tmp_path / "y.json").exists()
