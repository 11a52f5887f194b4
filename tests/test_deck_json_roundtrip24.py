"""``kings-crowns deck --json`` output read back as a deck file (session 24 tester's
defect: "unexpected entry 'cards' beside [deck]").  Each test failed on the code before
its fix."""

from __future__ import annotations

import json

import pytest
from conftest import run_cli

from crowns_solver.errors import DeckError


@pytest.mark.parametrize("deck_file", [None, "alt"])
def test_deck_json_output_reads_back_as_a_deck(tmp_path, capsys, deck_file):
    from crowns_solver.kings_crowns.deck import DEFAULT_DECK, load_deck

    args = []
    if deck_file:
        src = tmp_path / "alt.toml"
        src.write_text('name = "alt"\n[deck]\nsalvation = 10\nsin-orange = 9\ncrown-black-5 = 20\n'
                       'crown-red-20 = 4\ngift-red = 2\ntime-with-god = 3\n')
        args = [str(src)]
    code, text, err = run_cli(capsys, "kings-crowns", "deck", *args, "--json")
    assert code == 0, err
    d = tmp_path / "d.json"
    d.write_text(text)
    deck = load_deck(d)
    want = load_deck(args[0]) if args else DEFAULT_DECK
    assert deck.counts == want.counts and deck.name == want.name
    code, again, err = run_cli(capsys, "kings-crowns", "deck", str(d), "--json")
    assert code == 0 and again == text, err
    code, _, err = run_cli(capsys, "kings-crowns", "simulate", "--deck", str(d), "--games", "2", "--workers", "1",
                           "--players", "2")
    assert code == 0, err


def test_deck_json_facts_that_disagree_with_the_counts_are_refused(tmp_path, capsys):
    from crowns_solver.kings_crowns.deck import load_deck

    code, text, _ = run_cli(capsys, "kings-crowns", "deck", "--json")
    data = json.loads(text)
    data["name"] = "mine"
    for key, value in (("cards", data["cards"] + 1), ("has_salvation", False), ("playable_players", [2]),
                       ("crown_points", float(data["crown_points"]))):
        bad = tmp_path / f"{key}.json"
        bad.write_text(json.dumps({**data, key: value}))
        with pytest.raises(DeckError, match=f"entry '{key}' is .*, but the deck's counts make it"):
            load_deck(bad)
    bad = tmp_path / "extra.json"
    bad.write_text(json.dumps({**data, "colour": 1}))
    with pytest.raises(DeckError, match="unexpected entry 'colour' beside \\[deck\\]"):
        load_deck(bad)
