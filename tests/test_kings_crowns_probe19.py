"""King's Crowns analyst's probe (session 19): resumes, decks, seeds and policies as an
analyst uses them.  Each test failed on the code before its fix."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from conftest import run_cli

from crowns_solver import montecarlo
from crowns_solver.errors import ResultsFileError
from crowns_solver.kings_crowns import Rules, simulate


def _cut_to_first_chunk(path: Path) -> None:
    """Keep the header and the first chunk only: a run stopped after one chunk."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join(lines[:2]), encoding="utf-8")


@pytest.mark.parametrize("players, target", [(4, 100), (2, 100), (5, 75)])
def test_naming_the_rules_own_target_resumes_a_run_made_without_it(tmp_path, players, target):
    # --target 100 (75 with five players) is the rule's target: the same games, so the
    # same run; it was refused ("rules.target is null there, 100 now")
    out = tmp_path / "r.jsonl"
    args = dict(players=players, policies="greedy", seed=4, chunk_size=10, workers=1)
    whole = simulate(30, **args)
    simulate(30, out=out, **args)
    _cut_to_first_chunk(out)
    resumed = simulate(30, rules=Rules(target=target), out=out, **args)
    pd.testing.assert_frame_equal(resumed.reset_index(drop=True), whole.reset_index(drop=True))
    # and the other way round: a file made with the target named resumes without it
    out2 = tmp_path / "r2.jsonl"
    simulate(30, rules=Rules(target=target), out=out2, **args)
    _cut_to_first_chunk(out2)
    again = simulate(30, out=out2, **args)
    pd.testing.assert_frame_equal(again.reset_index(drop=True), whole.reset_index(drop=True))


def test_another_target_is_still_refused_on_resume(tmp_path):
    out = tmp_path / "r.jsonl"
    simulate(20, players=2, seed=4, chunk_size=10, workers=1, out=out)
    _cut_to_first_chunk(out)
    before = out.read_bytes()
    with pytest.raises(ResultsFileError, match="rules.target is null there, 90 now"):
        simulate(20, players=2, seed=4, chunk_size=10, workers=1, out=out, rules=Rules(target=90))
    assert out.read_bytes() == before


def test_cli_target_100_resumes_a_default_run(tmp_path, capsys):
    out = tmp_path / "c.jsonl"
    base = ["kings-crowns", "simulate", "--games", "30", "--players", "3", "--seed", "2", "--chunk-size", "10",
            "--workers", "1", "--out", str(out)]
    code, first, _ = run_cli(capsys, *base)
    assert code == 0
    _cut_to_first_chunk(out)
    code, again, err = run_cli(capsys, *base, "--target", "100")
    assert (code, err) == (0, "")
    # the same table, line for line; the last line says what this run wrote (session 21)
    assert again.splitlines()[:-1] == first.splitlines()[:-1]
    assert again.splitlines()[-1] == f"results written to {out} (20 new, the rest read back from it)"
    assert json.loads(out.read_text().splitlines()[0])["meta"]["target"] == 100
    assert len(montecarlo.read_results(out)) == 30


DEFAULT_FILE = Path(montecarlo.__file__).parent / "data" / "kings_crowns_deck.toml"


def test_a_copy_of_the_default_deck_file_with_other_counts_must_be_renamed(tmp_path, capsys):
    # docs: "copy it to make a variant"; the copy kept name = "default", so every table,
    # header and report called the variant "default (118 cards)"
    from crowns_solver.errors import DeckError
    from crowns_solver.kings_crowns import DEFAULT_DECK, Deck, load_deck

    text = DEFAULT_FILE.read_text(encoding="utf-8")
    assert 'name = "default"' in text and "salvation = 12\n" in text
    variant = tmp_path / "variant.toml"
    variant.write_text(text.replace("salvation = 12\n", "salvation = 11\n")
                       .replace("time-with-god = 6\n", "time-with-god = 7\n"), encoding="utf-8")
    with pytest.raises(DeckError, match=r"variant\.toml: entry 'name' is 'default'.*salvation 11 \(12 in the"
                                        r" default\), time-with-god 7 \(6 in the default\)"):
        load_deck(variant)
    code, out, err = run_cli(capsys, "kings-crowns", "simulate", "--games", "5", "--deck", str(variant))
    assert code == 2 and out == "" and err.count("\n") == 1 and "entry 'name' is 'default'" in err
    with pytest.raises(DeckError, match="the default deck's name"):
        Deck.from_mapping({"salvation": 20, "crown-black-20": 5}, "default")
    # an unchanged copy is the default deck, and a variant under its own name is fine
    copy = tmp_path / "copy.toml"
    copy.write_text(text, encoding="utf-8")
    assert load_deck(copy) == DEFAULT_DECK
    renamed = tmp_path / "renamed.toml"
    renamed.write_text(variant.read_text(encoding="utf-8").replace('name = "default"', 'name = "fewer salvations"'),
                       encoding="utf-8")
    deck = load_deck(renamed)
    assert deck.name == "fewer salvations" and deck.count("salvation") == 11 and deck.size == DEFAULT_DECK.size


def test_a_deck_file_over_the_card_limit_names_the_file(tmp_path):
    from crowns_solver.errors import DeckError
    from crowns_solver.kings_crowns import load_deck

    big = tmp_path / "big.toml"
    big.write_text("salvation = 6000\ngift-red = 6000\n", encoding="utf-8")
    with pytest.raises(DeckError, match=r"^.*big\.toml: deck has 12000 cards, more than the 10000 supported$"):
        load_deck(big)


def test_a_seed_past_the_engines_limit_is_refused_before_the_run_naming_it(tmp_path, capsys):
    # was raised from the first chunk, after the results file's header was written, with
    # a message naming neither the argument nor the option
    from crowns_solver.errors import RulesError

    out = tmp_path / "s.jsonl"
    with pytest.raises(RulesError, match=r"^seed must be below 2\*\*2048") as info:
        simulate(4, players=2, seed=2**3000, workers=1, out=out)
    assert info.value.arguments == ("seed",)
    assert not out.exists()
    code, stdout, err = run_cli(capsys, "kings-crowns", "simulate", "--games", "4", "--seed", str(2**2048),
                                "--workers", "1", "--out", str(out))
    assert (code, stdout) == (2, "") and err.startswith("crowns: error: --seed must be below 2**2048")
    assert err.count("\n") == 1 and not out.exists()
    # the largest seed the engine takes still runs, on both engines alike
    assert len(simulate(2, players=2, seed=2**2048 - 1, workers=1)) == 2


@pytest.mark.parametrize("rotate", ["no", "False", 1, None])
def test_rotate_must_be_true_or_false(rotate):
    # bool("no") is True: rotate="no" rotated the seats
    from crowns_solver.errors import RulesError

    with pytest.raises(RulesError, match=r"^rotate must be True or False, got ") as info:
        simulate(4, players=2, policies=["greedy", "random"], rotate=rotate, workers=1)
    assert info.value.arguments == ("rotate",)


def test_numpy_bools_rotate():
    import numpy as np

    a = simulate(6, players=2, policies=["greedy", "random"], rotate=np.bool_(True), workers=1)
    b = simulate(6, players=2, policies=["greedy", "random"], rotate=True, workers=1)
    pd.testing.assert_frame_equal(a, b)


def _policy_class(name):
    from crowns_solver.kings_crowns import Policy

    class Named(Policy):
        def choose_draw(self, view, rng):
            return view.legal_draws()[0]

        def choose_play(self, view, rng):
            return view.legal_plays()[0]

    Named.name = name
    return Named


@pytest.mark.parametrize("name", ["greedy", "Random", "lookahead", "lookahead:samples=2", " aggressive"])
def test_a_custom_policy_may_not_take_a_built_in_players_name(tmp_path, name):
    # its games were recorded as the built-in player's: same params, so the built-in
    # player resumed (and mixed into) its results file, and tables credited it
    from crowns_solver.errors import RulesError

    fake = _policy_class(name)()
    with pytest.raises(RulesError, match=f"custom policy's name {name!r} is the built-in"):
        simulate(4, players=2, policies=[fake, "random"], workers=1, out=tmp_path / "f.jsonl")
    assert not (tmp_path / "f.jsonl").exists()


@pytest.mark.parametrize("name", [None, 5, "", "a\nb"])
def test_a_custom_policy_needs_a_printable_name(name):
    from crowns_solver.errors import RulesError

    with pytest.raises(RulesError, match="custom policy's name"):
        simulate(4, players=2, policies=[_policy_class(name)(), "random"], workers=1)


def test_a_custom_policy_with_its_own_name_runs():
    df = simulate(4, players=2, policies=[_policy_class("first legal")(), "random"], workers=1)
    assert set(df["policy_0"]) == {"first legal"} and len(df) == 4


def _fake_play(edges):
    """A stand-in for the studies' ``play``: each table's games won in turn by each seat,
    seat 0 winning ``edges[policy]`` of them more; 100 turns a game."""
    import numpy as np

    def play(games, seed, executor, *, players, policies, rotate=False, rules=None):
        policy = policies if isinstance(policies, str) else policies[0]
        extra = int(round(edges.get(policy, 0.0) * games))
        winner = np.concatenate([np.zeros(extra, dtype=int), np.arange(games - extra) % players])
        return pd.DataFrame({"winner": winner, "turns": np.full(games, 100)})

    return play


@pytest.mark.parametrize("edges, first_unit", [
    ({"greedy": 0.2, "defensive": 0.2, "aggressive": 0.05}, "edge is at most +4.0 percentage points"),
    ({"aggressive": 0.2, "random": 0.1}, "random play shows an edge too (up to +8.0 percentage points)"),
    ({}, "(largest edge 0.0 percentage points"),   # a zero has no sign (session 22)
])
def test_seat_study_headline_says_percentage_points(monkeypatch, edges, first_unit):
    # the seat edges are differences of win rates: "+0.7 points" in a game scored in
    # crown points read as crown points; the table's seat0_edge is a share of games
    from crowns_solver.analysis import kings_crowns_seats

    monkeypatch.setattr(kings_crowns_seats, "play", _fake_play(edges))
    result = kings_crowns_seats.run(600, seed=1)
    assert first_unit in result.headline
    first = result.headline.index(" points")
    assert result.headline[:first].endswith("percentage")  # the first edge names its unit in full
    assert "0.017 is 1.7 percentage points" in result.sections[0].text


def test_deck_study_headline_and_chart_say_percentage_points(monkeypatch):
    from crowns_solver.analysis import kings_crowns_deck

    monkeypatch.setattr(kings_crowns_deck, "play", _fake_play({"greedy": 0.1}))
    result = kings_crowns_deck.run(600, seed=1)
    assert "Seat 0's edge over an equal share ranges from 0.0 to +7.5 percentage points across the decks" \
        in result.headline
    assert "0.015 is 1.5 percentage points" in result.sections[0].text
    labels = [ax.get_ylabel() for ax in result.sections[0].figure.axes]
    assert "seat 0 win rate minus equal\nshare (percentage points)" in labels


def test_length_study_says_when_a_mixed_table_plays_more_games(monkeypatch):
    # the full report said "Each row is one table of 50,000 games" above a 50,001-game row
    from crowns_solver.analysis import kings_crowns_length

    monkeypatch.setattr(kings_crowns_length, "play", _fake_play({}))
    result = kings_crowns_length.run(50, seed=1)
    table = result.sections[0].table
    mixed = table[table["table"] == "mixed"].set_index("players")["games"]
    assert mixed.to_dict() == {2: 50, 3: 51, 4: 52, 5: 50}
    assert "(51 with 3 players, 52 with 4 players: a multiple of the players" in result.sections[0].text
    even = kings_crowns_length.run(60, seed=1)
    assert "a multiple of the players" not in even.sections[0].text


def _fake_lengths(turns_of):
    """A stand-in ``play`` whose games last ``turns_of(policy, rules)`` turns, give or take
    one (alternately), every seat winning in turn."""
    import numpy as np

    def play(games, seed, executor, *, players, policies, rotate=False, rules=None):
        policy = policies if isinstance(policies, str) else policies[0]
        base = turns_of(policy, rules, players)
        return pd.DataFrame({"winner": np.arange(games) % players,
                             "turns": base + np.where(np.arange(games) % 2, 1, -1)})

    return play


def test_deck_study_claims_length_effects_only_where_the_intervals_are_apart(monkeypatch):
    # with equal lengths everywhere it said "Sins drive the game's length" and "more Holy
    # Spirit cards lengthen aggressive games"
    from crowns_solver.analysis import kings_crowns_deck

    monkeypatch.setattr(kings_crowns_deck, "play", _fake_lengths(lambda pol, rules, p: 100))
    flat = kings_crowns_deck.run(40, seed=1).headline
    assert flat.startswith("The Sin count does not clearly change the game's length at this number of games:")
    assert "more Holy Spirit cards do not clearly change the length of aggressive games (100 turns" in flat
    assert "Sins drive" not in flat and "lengthen" not in flat

    def real_shape(pol, rules, players):
        deck = rules.deck
        return 60 + 10 * deck.count("sin-orange") - 5 * deck.count("holy-spirit")

    monkeypatch.setattr(kings_crowns_deck, "play", _fake_lengths(real_shape))
    clear = kings_crowns_deck.run(40, seed=1).headline
    assert clear.startswith("Sins drive the game's length: with aggressive players a four-player game lasts 50 turns"
                            " with no Sins, 110 with the default 6 per colour and 170 with 12 per colour")
    assert "more Holy Spirit cards shorten aggressive games (120 turns with none, 80 with 8)" in clear


def test_length_study_compares_means_only_where_the_intervals_are_apart(monkeypatch):
    import numpy as np
    from crowns_solver.analysis import kings_crowns_length

    def noisy(games, seed, executor, *, players, policies, rotate=False, rules=None):
        policy = policies if isinstance(policies, str) else "mixed"
        # aggressive: 50 or 250 turns (mean 150, a wide interval over 4 games); others 100 +- 1
        spread = (50, 250) if policy == "aggressive" else (99, 101)
        turns = np.where(np.arange(games) % 2, spread[1], spread[0]) + (players if policy == "aggressive" else 0)
        return pd.DataFrame({"winner": np.arange(games) % players, "turns": turns})

    monkeypatch.setattr(kings_crowns_length, "play", noisy)
    headline = kings_crowns_length.run(4, seed=1).headline
    assert headline.startswith("A four-player game lasts 100 turns on average with greedy players (about 25 rounds)"
                               " and 154 with aggressive ones: aggressive games go from 152 turns with two players"
                               " to 155 with five")
    monkeypatch.setattr(kings_crowns_length, "play", _fake_lengths(
        lambda pol, rules, players: 100 if pol != "aggressive" else 100 + 50 * players))
    clear = kings_crowns_length.run(40, seed=1).headline
    assert clear.startswith("A four-player game lasts 100 turns on average with greedy players (about 25 rounds)"
                            " and 300 with aggressive ones, whose Sins slow the race: aggressive games grow from"
                            " 200 turns with two players to 350 with five")


@pytest.mark.parametrize("crowns, says, reach", [
    ("crown-black-20 = 1", "  its 20 crown points are below the rules' target (100): kings-crowns simulate and Game"
                           " refuse it unless the target is 20 or less (--target)", []),
    ("crown-black-20 = 4", "  its 80 crown points are below the rules' target for 2 to 4 players (100):"
                           " kings-crowns simulate and Game refuse it unless the target is 80 or less (--target)", [5]),
    ("crown-black-20 = 5", None, [2, 3, 4, 5]),
])
def test_deck_says_when_its_crown_points_fall_short_of_the_rules_target(tmp_path, capsys, crowns, says, reach):
    # it said "deals games of 2 players" of a deck simulate refuses with the rules' target
    deck = tmp_path / "d.toml"
    # (time-with-god: a 20 is played only onto it or a holy-spirit, so without one the
    # deck's crowns could never be played at all, which session 20 made a refusal too)
    deck.write_text(f'name = "d"\n[deck]\nsalvation = 30\ntime-with-god = 2\n{crowns}\n', encoding="utf-8")
    code, out, _ = run_cli(capsys, "kings-crowns", "deck", str(deck))
    assert code == 0
    lines = out.splitlines()
    assert lines[1] == "  deals games of 2 to 5 players"
    if says is None:
        assert lines[2].startswith("  salvation")
    else:
        assert lines[2] == says
    code, out, _ = run_cli(capsys, "kings-crowns", "deck", str(deck), "--json")
    assert json.loads(out)["rules_target_players"] == reach
    # and what it says holds: simulate refuses the short player counts, plays the others
    from crowns_solver.errors import RulesError
    from crowns_solver.kings_crowns import load_deck

    for players in (2, 5):
        rules = Rules(deck=load_deck(deck))
        if players in reach:
            assert len(simulate(2, players=players, rules=rules, workers=1)) == 2
        else:
            with pytest.raises(RulesError, match="more than the deck 'd' holds"):
                simulate(2, players=players, rules=rules, workers=1)


def test_length_study_most_stalemates_counts_every_table(monkeypatch):
    # "at most X% of games" was the largest rate of the non-random tables, while the
    # stalemate table below it lists the random ones too
    import numpy as np
    from crowns_solver.analysis import kings_crowns_length

    def stalls(games, seed, executor, *, players, policies, rotate=False, rules=None):
        policy = policies if isinstance(policies, str) else "mixed"
        share = {"random": 0.25, "aggressive": 0.1}.get(policy, 0.0) if players == 4 else 0.0
        stale = np.arange(games) < share * games
        return pd.DataFrame({"winner": np.where(stale, -1, np.arange(games) % players),
                             "turns": np.where(stale, 2000, 100 + np.arange(games) % 3)})

    monkeypatch.setattr(kings_crowns_length, "play", stalls)
    headline = kings_crowns_length.run(40, seed=1).headline
    assert headline.endswith("stalemates at the 2000-turn cap are common, at most 25.0% (95% CI 14.2-40.2%) of games"
                             " (4 random players).")


def test_seat_study_names_a_table_where_seat_0_is_ahead(monkeypatch):
    # two greedy players: seat 0 +4.5 points, interval reaching the equal share; five
    # greedy players: +4.2 points, clearly ahead. "most with 2 greedy players" named a
    # table that was not among the ones it counted
    import numpy as np
    from crowns_solver.analysis import kings_crowns_seats

    def play(games, seed, executor, *, players, policies, rotate=False, rules=None):
        extra = {(2, "greedy"): 36, (5, "greedy"): 21}.get((players, policies), 0)
        winner = np.concatenate([np.zeros(extra, dtype=int), np.arange(games - extra) % players])
        return pd.DataFrame({"winner": winner, "turns": np.full(games, 100)})

    monkeypatch.setattr(kings_crowns_seats, "play", play)
    result = kings_crowns_seats.run(400, seed=1)
    summary = result.sections[0].table.set_index(["players", "policy"])
    assert summary.loc[(2, "greedy"), "seat0_edge"] > summary.loc[(5, "greedy"), "seat0_edge"]
    assert summary.loc[(2, "greedy"), "seat0_rate_low"] < 0.5 < summary.loc[(2, "greedy"), "seat0_rate_high"]
    assert summary.loc[(5, "greedy"), "seat0_rate_low"] > 0.2
    assert result.headline.startswith("Only at some tables: the first player (seat 0) wins more than an equal share at"
                                      " 1 of 12 tables of equal players (random play aside), most with 5 greedy"
                                      " players: 24.2% (95% CI")


def test_a_second_run_on_a_results_file_being_written_is_refused(tmp_path):
    # the same command started twice (the docs say "run the same command again to
    # resume") wrote every chunk twice into one file, which no resume or report could
    # read afterwards ("chunk 0 appears twice")
    import threading

    out = tmp_path / "busy.jsonl"
    args = dict(players=2, policies="greedy", seed=6, chunk_size=10, workers=1)
    started, release = threading.Event(), threading.Event()
    first_result: dict = {}

    from crowns_solver.kings_crowns import simulation

    real_chunk = simulation.play_chunk

    class Gated:
        """play_chunk (recorded under its name), holding the run after its second chunk."""

        record_name = "crowns_solver.kings_crowns.simulation.play_chunk"

        def __call__(self, chunk_index, n_games, seed, **params):
            frame = real_chunk(chunk_index, n_games, seed, **params)
            if chunk_index == 1:
                started.set()
                assert release.wait(60)
            return frame

    gated_chunk = Gated()

    def first_run():
        first_result["df"] = montecarlo.run(gated_chunk, 40, params=params, seed=6, chunk_size=10, workers=1, out=out,
                                            meta=meta)

    whole = simulate(40, **args)
    params = dict(whole.attrs["params"])
    meta = {"game": whole.attrs["game"], "rules": whole.attrs["rules"], "target": whole.attrs["target"]}
    thread = threading.Thread(target=first_run)
    thread.start()
    try:
        assert started.wait(60)
        before = out.read_bytes()
        with pytest.raises(ResultsFileError, match="another run is writing this results file now"):
            montecarlo.run(real_chunk, 40, params=params, seed=6, chunk_size=10, workers=1, out=out, meta=meta)
        assert out.read_bytes() == before  # the refused run wrote nothing
    finally:
        release.set()
        thread.join()
    lines = out.read_text().splitlines()
    assert sorted(json.loads(line)["chunk"] for line in lines[1:]) == [0, 1, 2, 3]  # each chunk once
    pd.testing.assert_frame_equal(montecarlo.read_results(out), first_result["df"])
    # and once the first run is over, the same command reads (resumes) the file again
    again = montecarlo.run(real_chunk, 40, params=params, seed=6, chunk_size=10, workers=1, out=out, meta=meta)
    pd.testing.assert_frame_equal(again.reset_index(drop=True), whole.reset_index(drop=True)[again.columns],
                                  check_dtype=False)


def test_docs_study_list_example_prints_what_it_shows(tmp_path):
    # docs/kings_crowns.md showed `crowns report --list | grep kings` answering with the four
    # King's Crowns studies; the pattern also matches the cross_kings ones.  A fresh
    # process: other tests register toy studies in this one
    import re
    import subprocess
    import sys

    text = (Path(__file__).resolve().parent.parent / "docs" / "kings_crowns.md").read_text(encoding="utf-8")
    m = re.search(r"^\$ crowns report --list \| grep (\S+)\n((?:[^$`\n].*\n)+)", text, flags=re.M)
    assert m is not None
    pattern, shown = m.group(1), m.group(2).splitlines()
    proc = subprocess.run([sys.executable, "-m", "crowns_solver", "report", "--list"], capture_output=True,
                          text=True, cwd=tmp_path)
    assert proc.returncode == 0
    assert [line for line in proc.stdout.splitlines() if pattern in line] == shown


@pytest.mark.parametrize("name, why", [("two\nlines", "U+000A"), ("", None), ("   ", None), ("tab\there", "U+0009")])
def test_a_deck_name_must_be_one_printable_line(tmp_path, name, why):
    # a newline split simulate's header line and the report's rules row in two; an
    # empty name printed "deck  (19 cards)"
    from crowns_solver.errors import DeckError
    from crowns_solver.kings_crowns import Deck, load_deck

    with pytest.raises(DeckError, match="a deck's name must be a non-empty line of printable text") as info:
        Deck.from_mapping({"salvation": 13, "crown-black-20": 6}, name)
    if why:
        assert why in str(info.value)
    path = tmp_path / "d.toml"
    path.write_text(f"name = {json.dumps(name)}\nsalvation = 13\ncrown-black-20 = 6\n", encoding="utf-8")
    with pytest.raises(DeckError, match=r"d\.toml: a deck's name must be"):
        load_deck(path)


def test_a_pipe_in_a_deck_or_player_name_keeps_the_report_tables_whole(tmp_path, capsys):
    import re

    from crowns_solver import report
    from crowns_solver.kings_crowns import Deck

    deck = Deck.from_mapping({"salvation": 12, "time-with-god": 1, "crown-black-20": 6}, "a | b")  # 19 cards
    out = tmp_path / "p.jsonl"
    simulate(4, players=2, policies=[_policy_class("x|y")(), "greedy"], rules=Rules(deck=deck), workers=1, out=out)
    text = report.write_report(out, tmp_path / "rep").read_text(encoding="utf-8")
    rules_row = next(line for line in text.splitlines() if line.startswith("| rules |"))
    assert len(re.split(r"(?<!\\)\|", rules_row)) == 4  # "", " rules ", " ... deck a \| b (19 cards) ", ""
    assert "deck a \\| b (19 cards)" in rules_row
    policy_row = next(line for line in text.splitlines() if line.startswith("| x"))
    assert policy_row.startswith("| x\\|y ") and len(re.split(r"(?<!\\)\|", policy_row)) == 7


def test_two_different_custom_policies_may_not_share_a_name():
    # both unnamed: both recorded as "policy", one row in every table
    from crowns_solver.errors import RulesError

    first, second = _policy_class("policy"), _policy_class("policy")
    with pytest.raises(RulesError, match="two different custom policies .* are both named 'policy'"):
        simulate(4, players=2, policies=[first(), second()], workers=1)
    df = simulate(4, players=2, policies=[first(), first()], workers=1)  # one player in both seats is fine
    assert set(df["policy_0"]) | set(df["policy_1"]) == {"policy"}


def test_ctrl_c_stops_a_lookahead_decision_in_the_compiled_engine():
    # one decision of lookahead:samples=10000,horizon=100000 takes a minute: Ctrl-C waited
    # for the whole game (37 s measured), since the engine looked for it only between
    # games.  The KeyboardInterrupt now comes out of the compiled play_games itself; raised
    # by the interpreter after the call returned, it would show no frame of the engine
    import inspect
    import signal
    import sys
    import threading
    import time
    import traceback

    from crowns_solver.kings_crowns import simulation

    source, first = inspect.getsourcelines(simulation.play_chunk)
    line = first + next(i for i, text in enumerate(source) if "_core.play_games(" in text)
    main = threading.main_thread().ident
    assert threading.get_ident() == main

    def in_play_games() -> bool:
        frame = sys._current_frames().get(main)
        return frame is not None and frame.f_code is simulation.play_chunk.__code__ and frame.f_lineno == line

    def press_ctrl_c():
        seen = 0
        while seen < 2:  # seen there twice, 50 ms apart: inside the compiled call
            seen = seen + 1 if in_play_games() else 0
            time.sleep(0.05)
        signal.pthread_kill(main, signal.SIGINT)

    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    presser = threading.Thread(target=press_ctrl_c, daemon=True)
    try:
        presser.start()
        with pytest.raises(KeyboardInterrupt) as info:
            simulate(1, players=2, policies=["lookahead:samples=10000,horizon=100000", "greedy"], workers=1)
    finally:
        signal.signal(signal.SIGINT, previous)
        presser.join()
    frames = traceback.extract_tb(info.value.__traceback__)
    assert frames[-1].name.endswith("play_games") and frames[-1].filename.endswith("_kc_engine.pyx")
    # raised where a decision stops, not by the check after a finished game
    pyx = Path(__file__).resolve().parent.parent / "ext" / "_kc_engine.pyx"
    raised_at = pyx.read_text(encoding="utf-8").splitlines()[frames[-1].lineno - 1].strip()
    assert raised_at.startswith("raise KeyboardInterrupt"), raised_at


def test_seat_table_shows_the_edges_interval_the_headline_counts():
    # the full report counted 2 random players as ahead (seat 0 50.47%, interval from
    # 50.03%, equal share 49.99%) while its table showed seat0_rate_low 0.5 and
    # equal_share 0.5: the reader could not see why
    import re

    from crowns_solver.analysis import kings_crowns_seats

    result = kings_crowns_seats.run(3000, seed=5)
    summary = result.sections[0].table
    assert {"seat0_edge_low", "seat0_edge_high"} <= set(summary.columns)
    assert (summary["seat0_edge_low"] - (summary["seat0_rate_low"] - summary["equal_share"])).abs().max() < 1e-12
    assert (summary["seat0_edge_low"] <= summary["seat0_edge"]).all()
    assert (summary["seat0_edge"] <= summary["seat0_edge_high"]).all()
    played = summary[summary["policy"] != "random"]
    ahead = int((played["seat0_edge_low"] > 0).sum())
    counted = re.search(r"at (\d+) of 12 tables", result.headline)
    if ahead:
        assert counted is not None and int(counted.group(1)) == ahead
    else:
        assert result.headline.startswith("No first-player advantage was found")


@pytest.mark.parametrize("suffix, text", [
    (".json", "[" * 100_000),
    (".json", '{"salvation": ' + "[" * 3000 + "]" * 3000 + "}"),
    (".toml", "salvation = " + "[" * 900 + "]" * 900),
], ids=["json-100000", "json-3000", "toml-900"])
def test_a_deck_file_nested_too_deeply_is_one_line(tmp_path, capsys, suffix, text):
    # found by the session-19 Five Crowns probe: RecursionError tracebacks from deck.py
    # (tomllib recurses in Python, so 900 levels were enough)
    path = tmp_path / f"deep{suffix}"
    path.write_text(text)
    code, out, err = run_cli(capsys, "kings-crowns", "deck", str(path))
    assert code == 2 and not out
    assert err == f"crowns: error: {path}: not a deck file: the {suffix[1:].upper()} is nested too deeply\n"


def test_a_file_system_without_locks_runs_unlocked(tmp_path, monkeypatch):
    # flock fails with ENOLCK on some network file systems: that is no other run writing
    import errno
    import fcntl

    def no_locks(fd, op):
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(fcntl, "flock", no_locks)
    out = tmp_path / "r.jsonl"
    df = simulate(20, players=2, policies=["greedy"], seed=3, out=out)
    pd.testing.assert_frame_equal(df, simulate(20, players=2, policies=["greedy"], seed=3))
    assert montecarlo.read_results(out).shape == df.shape


@pytest.mark.parametrize("call, message", [
    (lambda c: c.sin("pink"), "a Sin's colour is one of orange, maroon, purple, got 'pink'"),
    (lambda c: c.forgiveness("red"), "a Forgiveness's colour is one of orange, maroon, purple, got 'red'"),
    (lambda c: c.gift("orange"), "a Gift's colour is one of red, blue, green, got 'orange'"),
    (lambda c: c.crown("red", 7), "a Crown's value is one of 5, 10, 15, 20, got 7"),
    (lambda c: c.crown("pink", 5), "a Crown's colour is one of black, red, blue, green, got 'pink'"),
    (lambda c: c.crown("red", True), "a Crown's value is one of 5, 10, 15, 20, got True"),
])
def test_card_constructors_refuse_unknown_colours_and_values_naming_them(call, message):
    # session-19 docstring audit: tuple.index's plain ValueError, not a CardError
    from crowns_solver.errors import CardError
    from crowns_solver.kings_crowns import cards

    with pytest.raises(CardError) as info:
        call(cards)
    assert str(info.value) == message
    assert cards.CARD_NAMES[cards.crown("green", 20)] and cards.sin("maroon") == 2


def test_a_view_changed_by_hand_is_checked_even_though_the_games_own_views_skip_it():
    # the field checks of hand-made views cost the move-by-move engine a fifth of its
    # speed, so views the engine makes skip them; a view changed with replace() is new
    import dataclasses

    import numpy as np

    from crowns_solver.errors import PositionError
    from crowns_solver.kings_crowns import Game, get_policy

    game = Game(4, seed=1)
    view = game.view()
    assert view.__dict__.get("_from_game") is True
    get_policy("greedy").choose_draw(view, np.random.default_rng(0))   # as before
    bad = dataclasses.replace(view, players=9)
    assert not bad.__dict__.get("_from_game")
    with pytest.raises(PositionError, match="players must be 2..5, got 9"):
        get_policy("greedy").choose_draw(bad, np.random.default_rng(0))


def test_card_names_as_the_library_writes_them_and_as_typed_read_alike():
    from crowns_solver.kings_crowns.cards import CARD_NAMES, parse_card

    for code, name in enumerate(CARD_NAMES):
        assert parse_card(name) == code == parse_card(name.upper().replace("-", " ")) == parse_card(f" {name}_")
