"""Deck files whose message was lost (session 20): a file without a ``.toml``/``.json``
suffix was tried as TOML and, on any DeckError, read again as JSON, so a TOML deck named
``default`` (a copy of the default deck's file, say) with a malformed count, or with
counts other than the default's, was refused as "not a valid JSON file"; and every
entry is checked before the ``default`` name's counts."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

from crowns_solver.errors import DeckError
from crowns_solver.kings_crowns import DEFAULT_DECK, load_deck

DIFFERS = "the default deck's name, but these counts differ from it: salvation 3 (12 in the default)"


@pytest.mark.parametrize(("name", "text", "says"), [
    # the file name makes the deck's name "default"
    ("default", "salvation = -1\n", "default: count of 'salvation' is -1: counts must be whole numbers >= 0"),
    ("default", "salvation = 2.5\n", "default: count of 'salvation' must be a whole number >= 0, got 2.5"),
    ("default", "salvaton = 3\n", "default: entry 'salvaton': not a King's Crowns card: 'salvaton'"),
    ("default", "salvation = 3\n", f"default: its file name makes its name 'default', {DIFFERS}"),
    # a name entry says "default"
    ("mydeck", 'name = "default"\nsalvation = -3\n', "mydeck: count of 'salvation' is -3"),
    ("mydeck", 'name = "default"\nsalvation = 3\n', f"mydeck: entry 'name' is 'default', {DIFFERS}"),
    ("mydeck.toml", 'name = "default"\nsalvation = -3\n', "mydeck.toml: count of 'salvation' is -3"),
    ("my.deck", 'name = "default"\n[deck]\nsalvation = "x"\n',
     "my.deck: count of 'salvation' must be a whole number >= 0, got 'x'"),
    # a broken TOML file without the suffix is said to be broken TOML (it was JSON's error)
    ("default", "salvation = \n", "default: not a valid TOML file"),
    ("default", '{"salvation": }', "default: not a valid JSON file"),
])
def test_a_suffixless_or_default_named_deck_is_refused_for_its_entry(tmp_path, capsys, name, text, says):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(DeckError) as info:
        load_deck(path)
    assert str(info.value).startswith(f"{tmp_path}/{says}")
    assert "JSON" not in str(info.value) or text.startswith("{")
    code, out, err = run_cli(capsys, "kings-crowns", "deck", str(path))
    assert code == 2 and not out and err.startswith(f"crowns: error: {tmp_path}/{says}") and err.count("\n") == 1


def test_suffixless_deck_files_still_read_as_toml_or_json(tmp_path):
    toml = tmp_path / "default"
    toml.write_text("".join(f"{k} = {v}\n" for k, v in DEFAULT_DECK.to_dict().items()))
    assert load_deck(toml) == DEFAULT_DECK   # a copy of the default deck, named by its file
    js = tmp_path / "small.deck"
    js.write_text("\ufeff  " + json.dumps({"name": "small", "deck": {"salvation": 8, "crown-red-5": 9}}))
    deck = load_deck(js)
    assert deck.name == "small" and deck.size == 17
