"""``crowns five-crowns deadwood | discard | take``: output, --json, one-line errors (exit 2)."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from conftest import run_cli as run

from crowns_solver.cli import main
from crowns_solver.five_crowns import rank_discards


def test_deadwood_text(capsys):
    code, out, err = run(capsys, "five-crowns", "deadwood", "--round", "5", "9H", "9S", "JK", "3D", "4D", "5D", "KS")
    assert code == 0 and not err
    assert out.splitlines() == [
        "round 5 (7 cards), 7s wild: 9H 9S JK 3D 4D 5D KS",
        "deadwood 13",
        "  book 9S 9H JK",
        "  run 3D 4D 5D",
        "  left KS  (13)",
    ]


def test_deadwood_seed_example_with_wild_override(capsys):
    # the seed's three cards (5s wild) are not a round-3 hand, so give the wild rank only
    code, out, _ = run(capsys, "five-crowns", "deadwood", "--wild", "5", "5R,9H", "JK", "--json")
    data = json.loads(out)
    assert code == 0 and data["deadwood"] == 0 and data["hand_value"] == 79
    assert data["melds"] == [{"kind": "book", "cards": ["9H", "JK", "5R"], "stands_for": ["9H", "9", "9"]}]
    # --wild overrides the round's wild rank (here Kings instead of 3s), sizes still checked
    code, out, _ = run(capsys, "five-crowns", "deadwood", "--round", "1", "--wild", "K", "KH", "3C", "9D")
    assert code == 0 and "Kings wild" in out and "deadwood 32" in out


def test_deadwood_options(capsys):
    code, out, _ = run(capsys, "five-crowns", "deadwood", "--wild", "5", "JK", "JK", "JK", "--no-all-wild-melds")
    assert code == 0 and "deadwood 150" in out
    six = ["9H", "9H", "9S", "9S", "9D", "9D"]
    code, out, _ = run(capsys, "five-crowns", "deadwood", "--round", "4", *six, "--max-book-size", "5", "--json")
    assert [len(m["cards"]) for m in json.loads(out)["melds"]] == [3, 3]
    code, out, _ = run(capsys, "five-crowns", "deadwood", "--wild", "3", *(["5H"] * 4), "--sets", "2")
    assert code == 0 and "deadwood 0" in out


def test_discard_table(capsys):
    cards = ["9H", "9S", "JK", "3D", "4D", "5D", "KS", "7H"]
    code, out, err = run(capsys, "five-crowns", "discard", "--round", "5", *cards, "--seen", "6D", "6D")
    assert code == 0 and not err
    lines = out.splitlines()
    assert lines[1] == "8 cards held, 2 seen, 106 unseen cards for the next draw"
    assert lines[3].split() == ["1", "KS", "0", "yes", "1.000", "0.00"]
    df = rank_discards(cards, 7, seen=["6D", "6D"])
    assert [ln.split()[1] for ln in lines[3:3 + len(df)]] == list(df["card"])


def test_discard_json(capsys):
    cards = ["9H", "9S", "JK", "3D", "4D", "5D", "KS", "7H"]
    code, out, _ = run(capsys, "five-crowns", "discard", "--round", "5", *cards, "--json")
    data = json.loads(out)
    df = rank_discards(cards, 7)
    assert data["unseen"] == 108 and [d["card"] for d in data["discards"]] == list(df["card"])
    for d, row in zip(data["discards"], df.itertuples(index=False)):
        assert Fraction(d["p_out_next"]) == row.p_out_next and Fraction(d["expected_next"]) == row.expected_next
        assert d["deadwood"] == row.deadwood and d["goes_out"] == row.goes_out


def test_take(capsys):
    code, out, _ = run(capsys, "five-crowns", "take", "--round", "1", "3H", "4H", "9S", "--top", "5H")
    assert code == 0
    assert out.splitlines()[1:3] == ["TAKE", "  take 5H: discard 9S, deadwood 0 (goes out)"]
    code, out, _ = run(capsys, "five-crowns", "take", "--round", "1", "3H", "4H", "9S", "--top", "KD", "--json")
    data = json.loads(out)
    # 3s wild: after taking KD the best keep is 4H 9S KD (4 + 9 + 13), throwing the wild 3H
    assert data["take"] is False and data["take_deadwood"] == 26 and data["take_discard"] == "3H"
    assert Fraction(data["draw_expected"]) < 26
    assert data["beats_draw"] is False and data["then_discard"] == "KD" and data["throws_back"] is True
    # already a run: taking the KS goes out only by throwing it back, so draw blind
    code, out, _ = run(capsys, "five-crowns", "take", "--round", "1", "3H", "4H", "5H", "--top", "KS")
    assert out.splitlines()[1:3] == [
        "DRAW", "  take KS: discard KS, deadwood 0 (goes out); the best discard then is the KS itself (a turn lost)"]


@pytest.mark.parametrize(
    "argv, match",
    [
        (["deadwood", "--round", "5", "9X"], "not a Five Crowns card: '9X'"),
        (["deadwood", "--round", "1", "QH", "QH", "QH"], "3 copies of QH, but 1 set holds only 2"),
        (["deadwood", "--round", "1", "QH", "KH"], "hand has 2 cards, but round 1 deals 3: expected 3 or 4"),
        (["deadwood", "--round", "1", "3H", "4H", "5H", "6H", "7H"], "hand has 5 cards"),
        (["deadwood", "--round", "12", "3H"], "round must be 1..11, got 12"),
        (["deadwood", "--wild", "2", "3H"], "--wild must be 3..13"),
        (["deadwood", "--wild", "X", "3H"], "--wild must be a rank"),
        (["deadwood", "3H"], "give the round"),
        (["deadwood", "--wild", "5", "3H", "--max-book-size", "4"], "--max-book-size must be a whole number >= 5"),
        (["discard", "--round", "1", "3H", "4H", "5H"], "expected 4"),
        (["discard", "--round", "1", "3H", "4H", "5H", "6H", "--seen", "3H", "3H"], "card 3H: 1 in hand, 2 seen"),
        (["take", "--round", "1", "3H", "4H", "5H", "--top", "ZZ"], "'ZZ'"),
    ],
)
def test_errors_are_one_line_exit_2(capsys, argv, match):
    code, out, err = run(capsys, "five-crowns", *argv)
    assert code == 2 and not out
    assert err.count("\n") == 1 and err.startswith("crowns: error: ") and match in err


def test_argparse_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["five-crowns", "deadwood", "--round", "x", "3H"])
    assert exc.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_command_runs_as_a_program():
    proc = subprocess.run([sys.executable, "-m", "crowns_solver", "five-crowns", "deadwood", "--round", "1",
                           "QH", "KH", "JK"], capture_output=True, text=True, check=False,
                          cwd="/")  # outside the source tree: import the installed package
    assert proc.returncode == 0 and "run JK=JH QH KH" in proc.stdout


@pytest.mark.parametrize("argv", [
    ["deadwood", "--wild", "5", "", "3H", "4H", "5H"],
    ["discard", "--wild", "5", "3H", "4H", "5H", "6H", "--seen", ""],
    ["deadwood", "--round", "1", "", "4H", "5H"],
    ["take", "--round", "1", "3H", " ", "5H", "--top", "4H"],
    ["deadwood", "--wild", "5", ",", "3H", "4H", "5H"],
])
def test_an_empty_card_argument_is_named_not_dropped(capsys, argv):
    code, out, err = run(capsys, "five-crowns", *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "not a Five Crowns card:" in err and "(an empty argument)" in err


def test_wild_rank_card_at_the_low_end_of_a_run_is_shown_as_itself(capsys):
    code, out, _ = run(capsys, "five-crowns", "deadwood", "--wild", "5", "5H", "6H", "7H")
    assert code == 0 and out.splitlines()[-1] == "  run 5H 6H 7H"
    code, out, _ = run(capsys, "five-crowns", "deadwood", "--round", "1", "3H", "4H", "5H", "--json")
    assert json.loads(out)["melds"] == [{"kind": "run", "cards": ["3H", "4H", "5H"],
                                         "stands_for": ["3H", "4H", "5H"]}]


@pytest.mark.parametrize("option", ["--seen", "--draw-pile"])
def test_a_repeated_card_option_adds_its_cards(capsys, option):
    # found by the probe: "--draw-pile 6S --draw-pile 7S" gave the advice for a pile of 7S
    # alone (argparse kept the last list); both forms must now give the same advice
    hand = ["7S", "8S", "9C", "QH", "KD"]
    cards = ["6S", "7S", "9C", "10S", "JK", "QC", "KH"]
    _, once, _ = run(capsys, "five-crowns", "discard", "--round", "2", *hand, option, *cards, "--json")
    _, twice, _ = run(capsys, "five-crowns", "discard", "--round", "2", *hand,
                      option, *cards[:3], option, *cards[3:], "--json")
    key = "draw_pile" if option == "--draw-pile" else "seen"
    assert json.loads(twice)[key] == cards and json.loads(twice) == json.loads(once)
    assert json.loads(once)["unseen"] == (7 if key == "draw_pile" else 116 - 5 - 7)


@pytest.mark.parametrize("argv, message", [
    (["--draw-pile", "2H"], "--draw-pile: not a Five Crowns card: '2H'"),
    (["--seen", "6S", "2H"], "--seen: not a Five Crowns card: '2H'"),
    (["--draw-pile", *["JK"] * 7], "--draw-pile: 7 copies of JK, but 1 set holds only 6"),
    (["--seen", "3H", "3H", "3H"], "--seen: 3 copies of 3H, but 1 set holds only 2"),
    (["--draw-pile", ""], "--draw-pile: not a Five Crowns card: '' (an empty argument)"),
])
def test_card_option_errors_name_the_option(capsys, argv, message):
    # found by the probe: these said 'draw_pile: ...' (the API's name) or named no option
    code, out, err = run(capsys, "five-crowns", "discard", "--round", "2", "7S", "8S", "9C", "QH", "KD", *argv)
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith(f"crowns: error: {message}")


def test_one_card_draw_pile_line_reads_as_english(capsys):
    # found by the probe: '1 cards in the draw pile given, 1 of them can be the next draw'
    code, out, _ = run(capsys, "five-crowns", "take", "--round", "2", "7S", "8S", "QH", "KD", "--top", "9S",
                       "--draw-pile", "9S")
    assert code == 0 and out.splitlines()[1] == "1 card in the draw pile given, it can be the next draw"
    code, out, _ = run(capsys, "five-crowns", "discard", "--round", "2", "7S", "8S", "9C", "QH", "KD",
                       "--draw-pile", "KD", "--seen", "KD")
    assert code == 0 and out.splitlines()[1] == "5 cards held, 1 seen, 1 card in the draw pile given, it cannot be the next draw"


@given(st.lists(st.one_of(st.sampled_from(["7S", "jk", "JK", "10s", "T", "QH", "KD", "9C", "2H", "", ",", "6S 7S"]),
                          st.text(max_size=4).filter(lambda t: not t.startswith("-"))), min_size=1, max_size=8),
       st.sampled_from(["--seen", "--draw-pile"]))
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_card_options_any_text_is_advice_or_one_line_error(capsys, items, option):
    code, out, err = run(capsys, "five-crowns", "discard", "--round", "2", "7S", "8S", "9C", "QH", "KD",
                         option, *items)
    assert (code == 0 and out and not err) or (code == 2 and not out and err.count("\n") == 1 and (
        err.startswith(f"crowns: error: {option}: ")   # the option's own cards
        or option == "--seen" and " in hand, " in err and " seen, but " in err))   # with the hand: names both


def test_setup_returns_the_draw_pile_and_leaves_the_arguments_alone():
    # _setup stored the draw pile on args (args.pile); it returns it now, args only read
    import argparse

    from crowns_solver.five_crowns.melds_cli import _setup

    common = dict(cards=["9H 9S", "JK"], round=None, wild="K", no_all_wild_melds=False, max_book_size=None,
                  sets=1, seen=["3D"])
    args = argparse.Namespace(**common, draw_pile=["4D,5D", "KS"])
    before = vars(args).copy()
    cards, seen, pile, wild, rnd, rules = _setup(args)
    assert (cards, seen, pile, wild, rnd) == (["9H", "9S", "JK"], ["3D"], ["4D", "5D", "KS"], 13, None)
    assert vars(args) == before
    assert _setup(argparse.Namespace(**common, draw_pile=None))[2] is None
    assert _setup(argparse.Namespace(**common))[2] is None   # the deadwood command has no --draw-pile
