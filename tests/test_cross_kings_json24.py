"""Session 24: a position file's hands of the wrong JSON kind are named in JSON's words."""
import json

import pytest

from conftest import cli_fails
from crowns_solver.cross_kings import Position
from crowns_solver.errors import CardError


@pytest.mark.parametrize("key", ["first_hand", "second_hand"])
@pytest.mark.parametrize("value, said", [(None, "got null"), (3, "got 3"), ({}, "got an object"),
                                         (True, "got true"), ("AS 2H", "got a string ('AS 2H')")])
def test_json_hand_of_the_wrong_kind_is_said_in_jsons_words(capsys, tmp_path, key, value, said):
    data = Position.random(3).to_dict()
    data[key] = value
    with pytest.raises(CardError) as exc:
        Position.from_dict(data)
    assert str(exc.value) == f"{key}: expected a list of cards, {said}"   # was "got NoneType" for null
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data))
    assert cli_fails(capsys, "cross-kings", "show", str(path)) == (
        f"crowns: error: {key}: expected a list of cards, {said}")


def test_json_hands_as_lists_still_load():
    pos = Position.random(3)
    for _ in range(4):
        pos = pos.play(pos.legal_moves()[0])
    assert Position.from_dict(json.loads(json.dumps(pos.to_dict()))) == pos
