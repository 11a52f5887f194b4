"""Session 23 (keeper helper): defects found by a tester in the Five Crowns score keeper and
the meld commands, each with the case that failed before."""

from __future__ import annotations

import numpy as np
import pytest

from crowns_solver.errors import RulesError, ScoreEntryError, WildRankError
from crowns_solver.five_crowns import best_melds, card_value, deadwood, deadwood_batch, hand_value, rank_discards
from crowns_solver.five_crowns.cards import check_wild_rank
from crowns_solver.cli import main
from crowns_solver.five_crowns.keeper import ScoreKeeper, interactive
from test_five_crowns_keeper import Script, _tied_keeper


def _run(lines, **kw):
    s = Script(lines)
    keeper = interactive(read=s.read, write=s.write, **kw)
    return keeper, s.text


# ------------------------------------------------------------ 5. one wild-rank parser
@pytest.mark.parametrize("spelling, rank", [
    (5, 5), (np.int64(13), 13), ("5", 5), ("5s", 5), ("10S", 10), (" 7 ", 7), ("T", 10), ("tens", 10),
    ("J", 11), ("jacks", 11), ("Q", 12), ("Queen", 12), ("K", 13), ("kings", 13),
])
def test_the_api_reads_every_spelling_the_cli_reads(spelling, rank):
    assert check_wild_rank(spelling) == rank


def test_the_api_meld_functions_take_a_rank_as_text():
    # RULES.md: with Kings wild, KH KS and the 9D make a book (9D with two wilds); a King
    # left in hand counts 20, with 5s wild it counts 13 (before: WildRankError for "K")
    assert deadwood(["KH", "KS", "9D"], wild_rank="K") == 0
    assert deadwood(["KH", "KS", "9D"], wild_rank="Kings") == deadwood(["KH", "KS", "9D"], 13) == 0
    assert deadwood(["KH", "KS", "9D"], wild_rank="5s") == 35
    assert card_value("KH", "K") == 20 and card_value("KH", "Q") == 13
    assert hand_value(["5R", "9H", "JK"], "5") == 79          # the seed's example
    assert best_melds(["KH", "KS", "9D"], "k").deadwood == 0
    # codes: 4S 5S 6S (a run), 3S 4H 6C (no meld: 3 + 4 + 6)
    assert list(deadwood_batch(np.array([[1, 2, 3], [0, 12, 25]]), "K")) == [0, 13]
    assert rank_discards(["3S", "4S", "8H", "8D"], "K").iloc[0]["card"] == "8H"


@pytest.mark.parametrize("bad", ["JK", "X", "Jelly", "", "2", "14", "5.0", True, 5.0, None])
def test_what_is_no_rank_is_still_refused(bad):
    with pytest.raises(WildRankError, match="wild rank must be"):
        check_wild_rank(bad)
    with pytest.raises(WildRankError):
        deadwood(["3H", "4H", "5H"], bad)


def test_the_cli_and_the_api_agree(capsys):
    assert main(["five-crowns", "deadwood", "--wild", "Kings", "KH", "KS", "9D", "--json"]) == 0
    assert '"deadwood": 0' in capsys.readouterr().out
    assert main(["five-crowns", "deadwood", "--wild", "JK", "3H", "4H", "5H"]) == 2   # not Jacks
    assert "--wild must be a rank 3..13 (or J, Q, K), got 'JK'" in capsys.readouterr().err


# ------------------------------------------------------------ 6. --max-book-size in the command's words
@pytest.mark.parametrize("size", ["4", "0", "-3"])
def test_max_book_size_below_5_is_said_without_pythons_none(capsys, size):
    assert main(["five-crowns", "deadwood", "--round", "11", "--max-book-size", size, "7S", "7S", "7H"]) == 2
    err = capsys.readouterr().err
    assert f"--max-book-size must be a whole number >= 5, got {size}" in err
    assert "None" not in err and err.count("\n") == 1


# ------------------------------------------------------------ 4. discard --last-turn with next-draw options
@pytest.mark.parametrize("extra, named", [
    (["--draw-pile", "3S", "--seen", "4S"], "--seen and --draw-pile"),
    (["--seen", "4S"], "--seen"),
    (["--draw-pile", "3S"], "--draw-pile"),
])
def test_discard_last_turn_refuses_the_options_of_the_next_draw(capsys, extra, named):
    argv = ["five-crowns", "discard", "--round", "1", "5R", "9H", "JK", "7S", "--last-turn", *extra]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"so {named} (the cards of the next draw) cannot change it" in err


def test_discard_last_turn_alone_and_take_last_turn_with_a_pile_still_work(capsys):
    assert main(["five-crowns", "discard", "--round", "1", "5R", "9H", "JK", "7S", "--last-turn"]) == 0
    out = capsys.readouterr().out
    assert "last turn: no draw follows" in out
    # take --last-turn still draws (the face-up card or blind), so the pile matters there
    assert main(["five-crowns", "take", "--round", "1", "5R", "9H", "7S", "--top", "JK", "--last-turn",
                 "--draw-pile", "3S", "4S"]) == 0


# ------------------------------------------------------------ 7. simulate: one spelling per game, and hints
def _fc_simulate_json(capsys, *argv):
    import json

    assert main(["five-crowns", "simulate", *argv, "--workers", "1", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_five_crowns_simulate_takes_games_as_kings_crowns_spells_it(capsys):
    by_option = _fc_simulate_json(capsys, "--games", "3", "--policies", "greedy", "random")
    by_position = _fc_simulate_json(capsys, "3", "--policies", "greedy", "random")
    assert by_option["games"] == 3 and by_option == by_position   # the same seeded games


@pytest.mark.parametrize("argv, message", [
    (["five-crowns", "simulate", "3", "--games", "4"],
     "give the number of games once: GAMES (3) or --games N (4), not both"),
    (["five-crowns", "simulate"], "the following arguments are required: GAMES (or --games N)"),
    (["five-crowns", "simulate", "--policies", "greedy", "20"],
     "(--policies took the arguments after it: greedy 20; put --policies after GAMES, or give --games 20)"),
    (["five-crowns", "simulate", "5", "--policy", "greedy", "random"],
     "unrecognized arguments: --policy greedy random (five-crowns simulate spells it --policies"),
    (["kings-crowns", "simulate", "20"],
     "unrecognized arguments: 20 (kings-crowns simulate takes the number of games as --games N)"),
    (["kings-crowns", "simulate", "--games", "5", "--policies", "greedy"],
     "(kings-crowns simulate spells it --policy NAME ...; --policies is five-crowns simulate's)"),
])
def test_the_other_games_spelling_gets_a_one_line_hint(capsys, argv, message):
    try:
        code = main(argv)
    except SystemExit as stop:   # argparse's own errors exit through the parser
        code = stop.code
    assert code == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_an_unrecognized_argument_with_no_hint_is_said_as_before(capsys):
    with pytest.raises(SystemExit):
        main(["five-crowns", "simulate", "5", "--bogus"])
    assert capsys.readouterr().err == "crowns: error: unrecognized arguments: --bogus\n"


# ------------------------------------------------------------ 1. names that are numbers or command letters
def test_a_name_that_is_a_number_comes_before_the_seat_of_that_number(tmp_path):
    # the tester's game: "1" sits in seat 0 and "0" in seat 1; "1" in the c command named
    # seat 1, so player 0's 20 was replaced instead of player 1's score
    keeper, text = _run(["15", "20", "c", "1", "1", "0", "q"], names=["1", "0"], save=tmp_path / "kn6.json")
    assert keeper.round_scores(1) == {"1": 0, "0": 20}
    assert "'1' is the player named 1 (seat 0): a name comes before a seat number, and seat 1 is 0." in text
    assert "Corrected: 1 has 0 points in round 1 (was 15). Totals: 1 0, 0 20" in text
    keeper, text = _run(["c", "1", "0", "13", "q"], resume=tmp_path / "kn6.json")
    assert keeper.round_scores(1) == {"1": 0, "0": 13}
    assert "Corrected: 0 has 13 points in round 1 (was 20)." in text


def test_a_seat_number_still_names_a_seat_and_says_whose_it_is(tmp_path):
    keeper, text = _run(["15", "20", "c", "1", "1", "0", "q"], names=["Ann", "Bob"], save=tmp_path / "g.json")
    assert keeper.round_scores(1) == {"Ann": 15, "Bob": 0}
    assert "  Seat 1 is Bob.\nBob's right score in round 1, now 20" in text


def test_players_named_like_the_keepers_commands_are_never_misread(tmp_path):
    # at the score prompt q, u, c, t are commands (a score is never a name); where a name is
    # asked for (whose score, who deals) they are the players
    keeper, text = _run(["15", "20", "c", "1", "u", "0", "c", "1", "Q", "13", "t", "q"],
                        names=["q", "u"], first_dealer="u", save=tmp_path / "g.json")
    assert keeper.round_scores(1) == {"q": 13, "u": 0}
    assert keeper.names[keeper.first_dealer] == "u"
    assert "Corrected: u has 0 points in round 1 (was 20)." in text
    assert "Corrected: q has 13 points in round 1 (was 15)." in text
    assert ScoreKeeper.load(tmp_path / "g.json").round_scores(1) == {"q": 13, "u": 0}


# ------------------------------------------------------------ 2. the c command checks each answer as given
def test_each_answer_of_a_correction_is_checked_and_asked_again(tmp_path):
    path = tmp_path / "kc2.json"
    _run(["15", "20", "0", "30", "q"], names=["A", "B"], save=path)
    keeper, text = _run(["c", "9", "0", "tb1", "x", "1", "5", "Zed", "1", "9999", "-2", "33", "q"], resume=path)
    assert keeper.round_scores(1) == {"A": 15, "B": 33} and keeper.round_scores(2) == {"A": 0, "B": 30}
    assert ScoreKeeper.load(path).round_scores(1)["B"] == 33
    for said in [
        "Round 9 has no score yet, so there is nothing to correct in it (rounds 1-2 can be corrected)."
        " Type a round (1-2), or nothing to cancel.",
        "There is no round 0.",
        "Round tb1 has no score yet",
        "Not a round number: 'x'.",
        "Seat 5 does not exist: seats are 0..1. Type one of A and B (or a seat number), or nothing to cancel.",
        "Not a player: 'Zed'.",
        "9999 points is more than 3 cards can count in any round (at most 150). Please type it again,",
        "points cannot be negative: -2. Please type it again, or nothing to cancel.",
        "Corrected: B has 33 points in round 1 (was 20). Totals: A 15, B 63",
    ]:
        assert said in text
    assert text.count("Correct which round (1-2, empty to cancel)? ") == 5   # one c command throughout


def test_a_correction_can_be_cancelled_at_each_question(tmp_path):
    path = tmp_path / "g.json"
    _run(["15", "20", "q"], names=["A", "B"], save=path)
    for answers in (["c", ""], ["c", "1", ""], ["c", "1", "A", ""]):
        keeper, text = _run(answers + ["q"], resume=path)
        assert keeper.round_scores(1) == {"A": 15, "B": 20} and "Nothing changed." in text


def test_a_player_without_a_score_in_the_round_is_asked_again(tmp_path):
    # a round being entered (B has none yet) and a tiebreak round (Cy is not tied)
    keeper, text = _run(["15", "20", "0", "c", "2", "B", "A", "13", "q"], names=["A", "B"], save=tmp_path / "p.json")
    assert "B has no score in round 2 yet. Type one of A (or a seat number)" in text
    assert keeper.round_scores(2) == {"A": 13}
    k = _tied_keeper(ties="tiebreak")
    k.enter_round([24, 10])
    k.save(tmp_path / "t.json")
    keeper, text = _run(["c", "tb1", "Cy", "ann", "5", "q"], resume=tmp_path / "t.json")
    assert "Cy has no score in tiebreak tb1 (played by Ann and Bob). Type one of Ann and Bob" in text
    assert keeper.finished and keeper.winners() == ["Ann"]
    assert "Correct which round (1-11, tb1, empty to cancel)? " in text


# ------------------------------------------------------------ 3. scores no round can give
def _every_hand_deadwood(cards, all_wild_melds):
    """The least deadwood (the library's meld solver) of every hand of `cards` cards of one
    set, `cards` being the round's wild rank (round 1: 3 cards, 3s wild)."""
    from itertools import chain, combinations_with_replacement

    from crowns_solver.five_crowns import Rules

    hands = np.fromiter(chain.from_iterable(combinations_with_replacement(range(56), cards)),
                        dtype=np.int8).reshape(-1, cards)
    ok = np.ones(len(hands), dtype=bool)
    for i in range(cards - 2):   # sorted rows: 3 copies of a natural card are one set too many
        ok &= ~((hands[:, i] == hands[:, i + 2]) & (hands[:, i] != 55))
    return {int(d) for d in np.unique(deadwood_batch(hands[ok], cards, rules=Rules(all_wild_melds=all_wild_melds)))}


@pytest.mark.parametrize("all_wild_melds", [True, False])
@pytest.mark.parametrize("cards", [3, 4])
def test_possible_scores_are_the_least_deadwoods_of_every_hand(cards, all_wild_melds):
    from crowns_solver.five_crowns.keeper import round_scores_possible

    scores = _every_hand_deadwood(cards, all_wild_melds)
    assert round_scores_possible(cards, cards, 1, all_wild_melds) == scores   # not one more, not one less
    if cards == 3:   # round 1: the least score besides 0, from the meld solver (4, 4 and 5 do not meld)
        assert min(scores - {0}) == 13 and deadwood(["4H", "4S", "5H"], 3) == 13
        assert set(range(1, 13)).isdisjoint(scores) and 75 in scores and (150 in scores) == (not all_wild_melds)
    else:            # round 2: one card left (not a wild) or four that do not meld (3 3 5 5: 16 at least)
        assert {3, 5, 13, 16}.issubset(scores) and {1, 2, 4, 14, 15}.isdisjoint(scores)


def test_the_keeper_refuses_a_score_no_round_gives_and_says_why(tmp_path):
    # the tester's case: 12 in round 1 was recorded
    k = ScoreKeeper(["A", "B"])
    k.enter(0)
    with pytest.raises(ScoreEntryError, match="12 points cannot be scored in round 1: of the 3 cards a player keeps,"
                                              " what does not meld counts: all 3 cards when they hold no meld"
                                              r" \(no rank three times, at most one wild\), or none; no such cards"
                                              " count 12, and the least besides 0 is 13"):
        k.enter(12)
    assert k.enter(13).points == 13 and k.enter(16).points == 16   # round 2, A: 16 (3 3 5 5)
    with pytest.raises(ScoreEntryError, match="14 points cannot be scored in round 2: .* or at most 1 card that is"
                                              " not wild"):
        k.enter(14)
    assert k.enter("QH").points == 12      # typed cards still count as typed (with the meld note if they meld)
    keeper, text = _run(["0", "12", "13", "q"], names=["A", "B"], save=tmp_path / "x.json")
    assert keeper.round_scores(1) == {"A": 0, "B": 13} and "Please type it again." in text


def test_a_file_with_a_score_no_round_gives_loads_with_the_entry_listed(tmp_path):
    # saved before the check existed: kept as saved, not refused (tests/test_keeper_old_files_polish23.py)
    data = ScoreKeeper(["A", "B"]).to_dict() | {"entries": [{"round": 1, "player": "A", "points": 0},
                                                           {"round": 1, "player": "B", "points": 12}]}
    for field in ("totals", "finished", "winners"):
        data.pop(field, None)
    assert ScoreKeeper.from_dict(data).unlikely_entries == ["B's 12 points in round 1"]


@pytest.mark.parametrize("all_wild_melds, score", [(True, 150), (False, 150), (False, 149)])
def test_three_jokers_count_only_where_they_do_not_meld(all_wild_melds, score):
    k = ScoreKeeper(["A"], all_wild_melds=all_wild_melds)
    if all_wild_melds or score != 150:
        with pytest.raises(ScoreEntryError, match=f"{score} points cannot be scored in round 1"):
            k.enter(score)
    else:
        assert k.enter(score).points == 150   # JK JK JK do not meld without melds of wilds only


def test_melds_of_wilds_only_cannot_be_allowed_under_a_score_only_they_forbid(tmp_path):
    # 150 in round 1 (JK JK JK kept) is a score only without melds of wilds only: allowing
    # them afterwards would leave a file that no longer loads
    k = ScoreKeeper(["A", "B"], all_wild_melds=False)
    k.enter_round([150, 0])
    with pytest.raises(RulesError, match="all_wild_melds cannot become True: A's 150 in round 1 is no score"):
        k.all_wild_melds = True
    assert k.all_wild_melds is False
    k.save(tmp_path / "j.json")
    with pytest.raises(RulesError, match="all_wild_melds cannot become True"):
        interactive(read=lambda prompt: "q", write=lambda text: None, resume=tmp_path / "j.json",
                    all_wild_melds=True)
    assert ScoreKeeper.load(tmp_path / "j.json").round_scores(1) == {"A": 150, "B": 0}
