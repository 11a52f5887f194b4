"""``crowns report --sets`` / ``--no-all-wild-melds`` and the Five Crowns studies' rules
options ``sets`` and ``all_wild_melds`` (session 22): the games are really dealt and
scored under them, the reports say so and go to their own folder, and a report of other
rules is never replaced."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli
from fc_reference import brute_force_deadwood

from crowns_solver.analysis import registry
from crowns_solver.errors import OutputExistsError, RulesError
from crowns_solver.five_crowns.cards import JOKER, card_name, full_deck
from crowns_solver.five_crowns.melds import deadwood
from crowns_solver.five_crowns.rules import Rules
from crowns_solver.montecarlo import _InlineExecutor
from crowns_solver.report import run_studies

STUDIES = ("five_crowns_deals", "five_crowns_policies", "five_crowns_stuck", "five_crowns_tracker")


def test_every_five_crowns_study_takes_both_options():
    studies = registry()
    assert all(studies[name].options == ("sets", "all_wild_melds") for name in STUDIES)
    assert [n for n, st in studies.items() if "sets" in st.options] == list(STUDIES)


@pytest.fixture
def games_played(monkeypatch):
    """Every Five Crowns game the simulation plays in this process, as its GameResult."""
    from crowns_solver.five_crowns import simulation

    played = []
    real = simulation.play_game

    def play_game(*args, **kw):
        result = real(*args, **kw)
        played.append(result)
        return result

    monkeypatch.setattr(simulation, "play_game", play_game)
    return played


def _decks(played) -> list[list[str]]:
    return [rd["deck"] for game in played for rd in game.record["rounds"]]


@pytest.mark.parametrize("name, games", [("five_crowns_policies", 4), ("five_crowns_stuck", 2),
                                         ("five_crowns_tracker", 4)])
def test_two_sets_reach_the_games_every_deck_holds_232_cards(games_played, name, games):
    result = registry()[name].run(games, 5, _InlineExecutor(), sets=2)
    decks = _decks(games_played)
    assert decks and all(len(deck) == 232 for deck in decks)
    two_sets = {card_name(code): int(n) for code, n in enumerate(full_deck(2))}
    assert all(Counter(deck) == two_sets for deck in decks)   # 4 of each natural card, 12 jokers
    assert all(game.rules.sets == 2 for game in games_played)
    assert "two 116-card sets shuffled together (232 cards" in result.rules and "one 116-card set" not in result.rules
    assert result.headline.startswith("Under 2 card sets (232 cards), ")
    # and without the option: one set, the usual headline
    games_played.clear()
    result = registry()[name].run(games, 5, _InlineExecutor())
    assert all(len(deck) == 116 for deck in _decks(games_played)) and "one 116-card set" in result.rules
    assert not result.headline.startswith("Under")


def test_without_melds_of_wilds_only_every_hand_is_scored_so(games_played):
    result = registry()["five_crowns_stuck"].run(3, 7, _InlineExecutor(), all_wild_melds=False)
    assert len(games_played) == 3
    strict = Rules(all_wild_melds=False)
    for game in games_played:
        assert game.rules.all_wild_melds is False and game.record["rules"]["all_wild_melds"] is False
        for rd in game.record["rounds"]:
            # what each seat scored is the deadwood of its last hand with no meld of wilds only
            for seat, hand in rd["hands"].items():
                assert rd["scores"][int(seat)] == deadwood(hand, rd["wild_rank"], rules=strict)
    assert "melds of wilds only not allowed" in result.rules
    assert result.headline.startswith("Under no melds of wilds only, with 4 advisor players, ")


def test_the_deals_study_deals_from_two_sets_and_solves_without_melds_of_wilds_only(monkeypatch):
    from crowns_solver.analysis import five_crowns_hands as fh

    # the whole of two sets, dealt as one hand: 4 of each natural card, 12 jokers
    whole = fh.deal_hands(232, 1, np.random.default_rng(1), sets=2)[0]
    assert Counter(whole.tolist()) == {code: int(n) for code, n in enumerate(full_deck(2))}
    assert Counter(fh.deal_hands(116, 1, np.random.default_rng(1))[0].tolist())[JOKER] == 6
    # three jokers in round 1 (3s wild): complete as dealt only where melds of wilds only count
    jokers = np.full((1, 3), JOKER)
    monkeypatch.setattr(fh, "deal_hands", lambda n, m, rng, sets=1: np.full((m, n), JOKER) if n == 3
                        else np.tile(np.arange(n), (m, 1)))
    assert fh.deals_table(1, 3)["complete_rate"].iloc[0] == 1.0
    table = fh.deals_table(1, 3, all_wild_melds=False)
    assert table["complete_rate"].iloc[0] == 0.0 and table["deadwood"].iloc[0] == 150
    # and its first blind draw: only a natural card (or a 3, standing as itself) saves it
    chance = fh.first_draw_chance(jokers, 3, rules=Rules(all_wild_melds=False))[0]
    assert chance == pytest.approx((116 - 6) / (116 - 3))
    assert fh.first_draw_chance(jokers, 3)[0] == 1.0


def test_first_draw_chance_from_two_sets_against_brute_force():
    from crowns_solver.analysis.five_crowns_hands import deal_hands, first_draw_chance

    rng = np.random.default_rng(4)
    for n, all_wild in ((3, False), (4, True), (4, False)):
        rules = Rules(sets=2, all_wild_melds=all_wild)
        hands = deal_hands(n, 4, rng, sets=2)
        for hand, chance in zip(hands, first_draw_chance(hands, n, rules=rules)):
            names = [card_name(int(c)) for c in hand]
            left = full_deck(2) - np.bincount(hand, minlength=56)
            good = sum(int(left[d]) for d in range(56) if left[d] and any(
                brute_force_deadwood((names + [card_name(d)])[:i] + (names + [card_name(d)])[i + 1:], n,
                                     all_wild_melds=all_wild) == 0 for i in range(n + 1)))
            assert chance == pytest.approx(good / (232 - n))


def test_bad_values_are_refused_by_the_studies_naming_the_option():
    # None is the table's default, as in GameRules: one set for 4 players, in every study
    deals = registry()["five_crowns_deals"]
    assert deals.run(11, 1, sets=None).sections[0].table.equals(deals.run(11, 1).sections[0].table)
    for name in STUDIES:
        with pytest.raises(RulesError, match="sets must be"):
            registry()[name].run(11, 1, sets=3)
        with pytest.raises(RulesError, match="all_wild_melds must be True or False, got 'no'"):
            registry()[name].run(11, 1, all_wild_melds="no")


def test_a_variant_goes_to_its_own_folder_and_never_replaces_another_report(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    [path] = run_studies(["five_crowns_deals"], quick=True, games=22, rules={"sets": 2, "all_wild_melds": False},
                         workers=1)
    assert path == Path("reports-quick-sets-2-no-all-wild-melds-games-22") / "five_crowns_deals.md"
    lines = path.read_text().splitlines()
    assert lines[0] == "<!-- crowns-study: five_crowns_deals; rules: 2 sets, no melds of wilds only -->"
    assert "| rules options | 2 sets, no melds of wilds only (not the default rules) |" in lines
    assert ("| rerun | `crowns report --only five_crowns_deals --sets 2 --no-all-wild-melds --seed 2026 --games 22"
            " --out reports-quick-sets-2-no-all-wild-melds-games-22` |") in lines
    assert "(rules options 2 sets, no melds of wilds only)" in (path.parent / "index.md").read_text()
    # the options in either order are one variant (one marker, one folder)
    [again] = run_studies(["five_crowns_deals"], quick=True, games=22, rules={"all_wild_melds": False, "sets": 2},
                          workers=1)
    assert again == path
    # one set and melds of wilds only allowed are the default rules: no variant
    [plain] = run_studies(["five_crowns_deals"], games=22, rules={"sets": 1, "all_wild_melds": True}, workers=1)
    assert plain == Path("reports-games-22") / "five_crowns_deals.md"
    assert plain.read_text().startswith("<!-- crowns-study: five_crowns_deals -->\n")
    before = plain.read_text()
    with pytest.raises(OutputExistsError, match=r"five_crowns_deals.md is a report made under the default rules,"
                                                r" not rules options 2 sets; pass force=True"):
        run_studies(["five_crowns_deals"], games=22, out_dir="reports-games-22", rules={"sets": 2}, workers=1)
    assert plain.read_text() == before
    with pytest.raises(OutputExistsError, match="made under rules options 2 sets, no melds of wilds only, not rules"
                                                " options no melds of wilds only"):
        run_studies(["five_crowns_deals"], games=22, out_dir=path.parent, rules={"all_wild_melds": False}, workers=1)


def test_cli_sets_and_no_all_wild_melds(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "report", "--only", "five_crowns_deals", "--sets", "2", "--games", "11",
                             "--no-progress", "--workers", "1")
    assert code == 0, err
    assert out.splitlines() == ["wrote reports-sets-2-games-11/five_crowns_deals.md",
                                "index: reports-sets-2-games-11/index.md"]
    text = Path("reports-sets-2-games-11/five_crowns_deals.md").read_text()
    assert "| rules options | 2 sets (not the default rules) |" in text
    assert "two 116-card sets shuffled together (232 cards" in text and "232 - n cards" in text
    # a study of another game cannot honour them: refused in one line, naming the option
    code, out, err = run_cli(capsys, "report", "--only", "kings_crowns_seats", "--no-all-wild-melds")
    assert code == 2 and err == ("crowns: error: kings_crowns_seats does not take --no-all-wild-melds (it takes only"
                                 " --deck); studies that take --no-all-wild-melds: five_crowns_deals,"
                                 " five_crowns_policies, five_crowns_stuck, five_crowns_tracker\n")
    code, out, err = run_cli(capsys, "report", "--sets", "2", "--reach", "nearest")
    assert code == 2 and err == "crowns: error: no study takes --reach and --sets together: run them separately\n"
    with pytest.raises(SystemExit) as exit_:   # argparse's own one line
        run_cli(capsys, "report", "--sets", "3")
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and err == ("crowns: error: argument --sets: invalid choice: 3 (choose from"
                                             " 1, 2)\n")
    code, out, err = run_cli(capsys, "report", "x.jsonl", "--no-all-wild-melds")
    assert code == 2 and err == ("crowns: error: --reach, --deck, --sets and --no-all-wild-melds run the studies"
                                 " under other rules; a results file records the rules it was played under\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["reports-sets-2-games-11"]


def test_one_set_for_a_table_of_more_than_seven_is_refused_before_any_study(tmp_path, capsys, monkeypatch):
    """The number of sets is checked against the studies' table (check_sets): were they to
    seat 8, one set could not deal them (RULES.md: 1 to 7 players with one set)."""
    from crowns_solver.analysis import _five_crowns_common

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(_five_crowns_common, "PLAYERS", 8)
    code, out, err = run_cli(capsys, "report", "--sets", "1")
    assert code == 2 and err == ("crowns: error: --sets 1: one set of cards is for 1 to 7 players, not 8 (the Five"
                                 " Crowns studies seat 8 players)\n")
    with pytest.raises(RulesError, match=r"^sets=1: one set of cards is for 1 to 7 players, not 8 \(the Five Crowns"):
        run_studies(rules={"sets": 1})
    with pytest.raises(RulesError, match=r"^sets must be an integer 1..2, got 2.0$"):
        run_studies(rules={"sets": 2.0})
    assert list(tmp_path.iterdir()) == []


def test_all_wild_melds_must_be_a_bool(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(RulesError, match=r"^all_wild_melds must be True or False, got 'false'$"):
        run_studies(rules={"all_wild_melds": "false"})
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_names_the_folder_the_run_writes_to(tmp_path, capsys, monkeypatch):
    """Found in session 22: after Ctrl-C, the resume hint looked for finished reports in
    (and told the user to rerun into) ./reports-quick, not the run's own folder
    ./reports-quick-sets-2-games-22 (the default folder got --games and --seed in session
    21, the hint did not): "0 of 2 studies written", and a rerun that mixes a 22-game
    report into the quick reports."""
    from crowns_solver import report

    monkeypatch.chdir(tmp_path)
    out = Path("reports-quick-sets-2-games-22")

    def stopped(only, **kw):  # the first study's report is written, then Ctrl-C
        out.mkdir()
        (out / f"{only[0]}.md").write_text("done")
        raise KeyboardInterrupt

    monkeypatch.setattr(report, "_run_studies", stopped)
    code, _, err = run_cli(capsys, "report", "--quick", "--only", "five_crowns_deals,five_crowns_stuck", "--sets",
                           "2", "--games", "22")
    assert code == 130
    assert err.splitlines() == [
        f"1 of 2 studies written to {out} (finished reports stay); the rest: crowns report --quick"
        f" --only five_crowns_stuck --sets 2 --seed 2026 --games 22 --out {out}",
        "crowns: interrupted"]
