"""King's Crowns inputs found by the session-17 fresh-user probe: findings 9 (options
named as typed), 15 (a deck without a Salvation) and 16 (lookahead options)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import run_cli
from crowns_solver.errors import RulesError
from crowns_solver.kings_crowns import DEFAULT_DECK, Deck, Game, Rules, get_policy, simulate


def _no_salvation() -> Deck:
    counts = DEFAULT_DECK.to_dict()
    counts.pop("salvation")
    return Deck.from_mapping(counts, "nosalv")


def test_max_turns_and_target_errors_name_the_option_typed(capsys):
    code, _, err = run_cli(capsys, "kings-crowns", "simulate", "--games", "2", "--max-turns", "10000000000")
    assert code == 2
    assert err == "crowns: error: --max-turns must be a whole number 1..1000000, got 10000000000\n"
    code, _, err = run_cli(capsys, "kings-crowns", "simulate", "--games", "2", "--target", "10000000000")
    assert code == 2 and err.startswith("crowns: error: --target must be a whole number of crown points")
    with pytest.raises(RulesError, match="^max_turns must be") as info:
        Rules(max_turns=0)
    assert info.value.arguments == ("max_turns",)


def test_a_deck_without_salvation_is_refused_like_an_unreachable_target(capsys, tmp_path):
    deck = _no_salvation()
    assert deck.crown_points() == DEFAULT_DECK.crown_points()  # the crowns are all there
    with pytest.raises(RulesError, match="has no Salvation"):
        Rules(deck=deck).check(4)
    with pytest.raises(RulesError, match="'nosalv' has no Salvation"):
        Game(2, Rules(deck=deck), seed=1)
    with pytest.raises(RulesError, match="has no Salvation"):
        simulate(5, players=3, rules=Rules(deck=deck), workers=1)
    one = dict(deck.to_dict(), salvation=1)
    Rules(deck=Deck.from_mapping(one, "one")).check(5)  # one Salvation: someone can score
    path = tmp_path / "nosalv.json"
    path.write_text(json.dumps(deck.to_dict()), encoding="utf-8")
    code, out, err = run_cli(capsys, "kings-crowns", "simulate", "--deck", str(path), "--games", "5")
    assert code == 2 and err.count("\n") == 1 and "has no Salvation" in err and out == ""
    code, out, _ = run_cli(capsys, "kings-crowns", "deck", str(path))
    assert code == 0 and "no Salvation" in out and "deals games" not in out
    code, out, _ = run_cli(capsys, "kings-crowns", "deck", str(path), "--json")
    data = json.loads(out)
    assert data["playable_players"] == [] and data["has_salvation"] is False
    code, out, _ = run_cli(capsys, "kings-crowns", "deck", "--json")
    assert json.loads(out)["has_salvation"] is True


@pytest.mark.parametrize("spec, key", [("lookahead:samples=2,samples=3", "samples"),
                                       ("lookahead:horizon=5,samples=2,horizon=5", "horizon"),
                                       ("lookahead:rollout=greedy,rollout=random", "rollout")])
def test_a_repeated_lookahead_option_is_refused_naming_it(spec, key, capsys):
    with pytest.raises(RulesError, match=f"lookahead option '{key}' given twice"):
        get_policy(spec)
    code, _, err = run_cli(capsys, "kings-crowns", "simulate", "--games", "2", "--policy", spec)
    assert code == 2 and f"'{key}' given twice" in err


@pytest.mark.parametrize("digits", ["\u0663", "\uff13", "1\u0660", "\u00b2"])
def test_lookahead_numbers_are_ascii_digits_only(digits):
    with pytest.raises(RulesError, match="must be a whole number \\(digits 0-9\\)"):
        get_policy(f"lookahead:samples={digits}")


def test_lookahead_numbers_still_parse():
    p = get_policy("lookahead: samples = 7 , horizon=+9")
    assert (p.samples, p.horizon) == (7, 9)
    with pytest.raises(RulesError, match="samples must be a whole number 1..10000, got -3"):
        get_policy("lookahead:samples=-3")


@given(st.text(max_size=30))
def test_any_lookahead_option_text_is_a_policy_or_a_rules_error(text):
    try:
        p = get_policy("lookahead:" + text)
    except RulesError:
        return
    assert 1 <= p.samples <= 10_000 and 1 <= p.horizon <= 100_000
