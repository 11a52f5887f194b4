"""Input files saved with a UTF-8 byte-order mark (as Windows Notepad writes them) read
like the same file without it (design probe, session 18).

Cross Kings positions already did (``Position.from_text``); a King's Crowns deck file,
a Five Crowns game record and a score-keeper file were refused ("not a valid TOML file:
Invalid statement (at line 1, column 1)", "Unexpected UTF-8 BOM")."""

from __future__ import annotations

import pytest

from conftest import run_cli
from crowns_solver.five_crowns import ScoreKeeper, play_game, replay
from crowns_solver.five_crowns.game import GameRules
from crowns_solver.kings_crowns import load_deck

BOM = b"\xef\xbb\xbf"


def with_bom(path, tmp_path):
    out = tmp_path / f"bom-{path.name}"
    out.write_bytes(BOM + path.read_bytes())
    return out


@pytest.mark.parametrize(("name", "text"), [
    ("d.toml", 'name = "mine"\n[deck]\nsalvation = 3\ncrown-black-20 = 30\nsin-orange = 2\n'),
    ("d.json", '{"salvation": 3, "crown-black-20": 30, "sin-orange": 2}'),
])
def test_a_deck_file_with_a_bom(tmp_path, name, text):
    plain = tmp_path / name
    plain.write_text(text)
    deck = load_deck(with_bom(plain, tmp_path))
    assert deck.to_dict() == load_deck(plain).to_dict()
    assert deck.count("crown-black-20") == 30 and deck.size == 35


def test_a_game_record_with_a_bom(tmp_path, capsys):
    result = play_game(["greedy", "random"], seed=3, rules=GameRules(players=2, rounds=2))
    plain = tmp_path / "g.json"
    result.save(plain)
    assert replay(with_bom(plain, tmp_path)).totals == result.totals
    code, out, err = run_cli(capsys, "five-crowns", "replay", str(with_bom(plain, tmp_path)))
    assert code == 0 and err == "" and "every step and score agrees with the record" in out


def test_a_score_keeper_file_with_a_bom(tmp_path):
    k = ScoreKeeper(["Ann", "Bob"])
    k.enter(0)
    k.enter("5R 9H")
    plain = tmp_path / "k.json"
    k.save(plain)
    again = ScoreKeeper.load(with_bom(plain, tmp_path))
    assert again.totals() == k.totals() == {"Ann": 0, "Bob": 14}
