"""Five Crowns discard advisor: exact probabilities, row order, take-or-draw (RULES.md, Five Crowns)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import lru_cache

import pandas as pd
import pytest
from conftest import load_json
from fc_reference import ALL_CARDS, brute_force_deadwood, value
from hypothesis import given, settings
from hypothesis import strategies as st

from crowns_solver.errors import CardError, DuplicateCardError, HandSizeError, WildRankError
from crowns_solver.five_crowns import Rules, can_go_out, parse_card, rank_discards, should_take_discard
from crowns_solver.five_crowns.advisor import DISCARD_COLUMNS

DISCARDS = load_json("five_crowns_discards.json")["cases"]


def physical_deck(sets: int = 1) -> list[str]:
    """Every card of the set(s) as its own item: 2 copies of each natural, 6 jokers per set."""
    return [c for c in ALL_CARDS[:-1] for _ in range(2 * sets)] + ["JK"] * (6 * sets)


def remove_all(pool: list[str], cards: list[str]) -> list[str]:
    pool = list(pool)
    for c in cards:
        pool.remove(c)
    return pool


@lru_cache(maxsize=None)
def _dw(cards: tuple[str, ...], wild: int) -> int:
    return brute_force_deadwood(list(cards), wild)


def best_after_draw(kept: list[str], wild: int) -> int:
    """Least deadwood of n cards chosen from the n + 1 held (brute force)."""
    out = None
    for e in set(kept):
        rest = list(kept)
        rest.remove(e)
        d = _dw(tuple(sorted(rest)), wild)
        out = d if out is None else min(out, d)
    return out


def enumerate_discards(hand: list[str], wild: int, seen: list[str], sets: int = 1) -> dict:
    """Card -> (deadwood kept, P(out next), E[deadwood next]) by drawing every unseen card."""
    unseen = remove_all(physical_deck(sets), hand + seen)
    out = {}
    for c in set(hand):
        kept = list(hand)
        kept.remove(c)
        results = [best_after_draw(kept + [x], wild) for x in unseen]
        out[c] = (
            _dw(tuple(sorted(kept)), wild),
            Fraction(sum(r == 0 for r in results), len(unseen)),
            Fraction(sum(results), len(unseen)),
        )
    return out


@pytest.mark.parametrize(
    "hand, wild, seen, sets",
    [
        (["3H", "4H", "9S", "KS"], 3, [], 1),  # round 1, 3s wild
        (["QH", "QS", "JK", "5D"], 3, ["QD", "QC", "JK"], 1),
        (["7H", "8H", "4S", "4S"], 3, ["9H", "6H"], 2),  # two sets: 232 cards
        (["5R", "9H", "JK", "KD", "KD"], 4, ["KD", "JK", "JK"], 2),  # round 2, 4s wild
        (["6C", "6D", "8C", "10C", "QS"], 4, [], 1),
    ],
)
def test_probabilities_by_exhaustive_enumeration(hand, wild, seen, sets):
    df = rank_discards(hand, wild, seen=seen, rules=Rules(sets=sets))
    expected = enumerate_discards(hand, wild, seen, sets)
    assert df.attrs["unseen"] == 116 * sets - len(hand) - len(seen)
    assert set(df["card"]) == set(expected)
    for row in df.itertuples(index=False):
        kept, p, e = expected[row.card]
        assert (row.deadwood, row.p_out_next, row.expected_next) == (kept, p, e), row.card
        assert isinstance(row.p_out_next, Fraction) and isinstance(row.expected_next, Fraction)
        assert row.p_out_next_float == float(p) and row.expected_next_float == float(e)
        assert row.goes_out == (kept == 0)
        assert row.copies == hand.count(row.card) and row.value == value(row.card, wild)


@pytest.mark.parametrize("case", DISCARDS, ids=lambda c: " ".join(c["cards"]) + f" w{c['wild_rank']}")
def test_discard_table_against_case_file(case):
    df = rank_discards(case["cards"], case["wild_rank"], round=case["round"])
    assert list(df.columns) == list(DISCARD_COLUMNS)
    assert dict(zip(df["card"], df["deadwood"])) == case["discards"]
    assert bool(df["goes_out"].any()) == case["can_go_out"]
    _check_order(df)


def _sort_key(row) -> tuple:
    # discards that go out: a natural card before a wild (value 20 or 50), then the higher value
    return (not row.goes_out, row.expected_next, -row.p_out_next, row.deadwood, row.goes_out and row.value >= 20,
            -row.value, parse_card(row.card))


def _check_order(df: pd.DataFrame) -> None:
    keys = [_sort_key(r) for r in df.itertuples(index=False)]
    assert keys == sorted(keys)


@settings(max_examples=15)
@given(st.lists(st.sampled_from(ALL_CARDS), min_size=5, max_size=9), st.integers(3, 13),
       st.lists(st.sampled_from(ALL_CARDS), max_size=6))
def test_row_order_and_bounds(hand, wild, seen):
    hand = _fit(hand)
    seen = _fit(seen, Counter(hand))
    df = rank_discards(hand, wild, seen=seen)
    _check_order(df)
    for r in df.itertuples(index=False):
        assert 0 <= r.p_out_next <= 1
        # drawing then discarding the drawn card keeps the same cards: never worse
        assert r.expected_next <= r.deadwood
        if r.goes_out:
            assert r.p_out_next == 1 and r.expected_next == 0
    assert bool(df["goes_out"].any()) == can_go_out(hand, wild)


def _fit(cards, already=None):
    held = Counter(already or {})
    out = []
    for c in cards:
        if held[c] < (6 if c == "JK" else 2):
            held[c] += 1
            out.append(c)
    return out


def test_no_unseen_cards_left():
    # two sets cannot run out, so use the hand and seen to hold the whole of one set
    hand = ["3H", "4H", "5H", "KS"]
    deck = remove_all(physical_deck(1), hand)
    df = rank_discards(hand, 9, seen=deck)
    assert df.attrs["unseen"] == 0
    assert df["p_out_next"].isna().all() and df["expected_next_float"].isna().all()
    assert df.iloc[0]["card"] == "KS" and bool(df.iloc[0]["goes_out"])


# ---------------------------------------------------------------------------------------
# Take the face-up card or draw blind


@pytest.mark.parametrize(
    "hand, top, wild, seen",
    [
        (["3H", "4H", "9S"], "5H", 3, []),  # taking 5H goes out
        (["3H", "4H", "9S"], "KD", 3, ["QD"]),
        (["QS", "QD", "7C", "8C"], "4H", 4, ["JK", "JK"]),
        (["6S", "KC", "KD"], "10R", 3, []),
        (["3H", "4H", "5H"], "KS", 3, ["KH"]),  # already a run: KS would be thrown back
        (["8S", "9S", "QD"], "10S", 3, ["JK"]),  # 10S completes the run: taken, QD goes
    ],
)
def test_take_or_draw_by_enumeration(hand, top, wild, seen):
    adv = should_take_discard(hand, top, wild, seen=seen)
    unseen = remove_all(physical_deck(), hand + seen + [top])
    results = [best_after_draw(hand + [x], wild) for x in unseen]
    p = Fraction(sum(r == 0 for r in results), len(unseen))
    e = Fraction(sum(results), len(unseen))
    assert (adv.draw_p_out, adv.draw_expected, adv.unseen) == (p, e, len(unseen))
    take = best_after_draw(hand + [top], wild)
    assert adv.take_deadwood == take and adv.take_goes_out == (take == 0)
    rest = list(hand + [top])
    rest.remove(adv.take_discard)
    assert _dw(tuple(sorted(rest)), wild) == take
    # less deadwood than a blind draw's expectation (going out with e > 0 is 0 < e);
    # both going out for sure (take 0, e 0) is a tie, and a tie draws blind
    assert adv.beats_draw == (take < e)
    # the advisor's discard after taking: going out, the least deadwood, a natural card
    # before a wild, then the higher value; else by enumerating the next draw
    # (rank_discards order)
    table = enumerate_discards(hand + [top], wild, seen)
    if take == 0:
        then = min(table, key=lambda c: (table[c][0], value(c, wild) >= 20, -value(c, wild), parse_card(c)))
    else:
        then = min(table, key=lambda c: (table[c][0] != 0, table[c][2], -table[c][1], table[c][0],
                                         -value(c, wild), parse_card(c)))
    assert adv.then_discard == then and adv.throws_back == (then == top)
    assert adv.take == (adv.beats_draw and then != top)
    assert ("TAKE" if adv.take else "DRAW") in str(adv)


def test_take_examples():
    adv = should_take_discard(["3H", "4H", "9S"], "5H", 3)
    assert adv.take and adv.take_goes_out and adv.take_discard == "9S"
    # already a run: taking the KS goes out only by throwing it back, and every blind
    # draw goes out as surely (discard the card drawn): a tie, so draw blind
    adv = should_take_discard(["3H", "4H", "5H"], "KS", 3)
    assert adv.take_deadwood == 0 and adv.take_discard == "KS" and adv.take_goes_out and not adv.beats_draw
    assert adv.then_discard == "KS" and adv.throws_back and not adv.take
    assert adv.draw_p_out == 1 and "the KS itself (a turn lost)" in str(adv)


@pytest.mark.parametrize("top", ["KD", "5H"])
def test_no_unseen_card_left_is_refused(capsys, top):
    # hand, face-up card and seen hold one whole set: no card is left for a blind draw,
    # which no game reaches (RULES.md: a draw pile that runs out is refilled from the
    # discard pile under its top card).  The advice used to print DRAW beside "no unseen
    # cards" (KD: it would have thrown the KD back) or TAKE (5H goes out)
    from conftest import run_cli

    from crowns_solver.errors import NoUnseenCardError

    rest = remove_all(physical_deck(), ["3H", "4H", "9S", top])
    with pytest.raises(NoUnseenCardError, match=f"the hand \\(3 cards\\), the face-up {top} and 112 seen cards"):
        should_take_discard(["3H", "4H", "9S"], top, 5, seen=rest)
    code, out, err = run_cli(capsys, "five-crowns", "take", "--wild", "5", "3H", "4H", "9S", "--top", top,
                             "--seen", *rest)
    assert code == 2 and out == "" and err.count("\n") == 1 and "no unseen card" in err and "RULES.md" in err
    # one card left unseen: judged as usual
    adv = should_take_discard(["3H", "4H", "9S"], top, 5, seen=rest[1:])
    assert adv.unseen == 1 and adv.draw_expected is not None


@settings(max_examples=40)
@given(st.integers(3, 7).flatmap(lambda n: st.tuples(
    st.just(n), st.lists(st.sampled_from(ALL_CARDS), min_size=n + 1, max_size=n + 1),
    st.lists(st.sampled_from(ALL_CARDS), max_size=4))),
    st.sampled_from([None, "4", "9", "Q"]))
def test_taking_never_advised_to_throw_the_card_back(case, book):
    n, cards, seen = case
    if book is not None:  # a hand already out: a book of three and wilds (the case that happened)
        cards = [book + "S", book + "H", book + "D"] + ["JK"] * (n - 3) + cards[n:]
    cards = _fit(cards)
    if len(cards) < n + 1:
        return
    hand, top = cards[:n], cards[n]
    seen = _fit(seen, Counter(cards))
    adv = should_take_discard(hand, top, n, seen=seen)
    table = rank_discards(hand + [top], n, seen=seen)
    if adv.take_goes_out:   # the going-out discard: a natural card before a wild, higher value
        out = table[table["deadwood"] == 0]["card"]
        assert adv.then_discard == min(out, key=lambda c: (value(c, n) >= 20, -value(c, n), parse_card(c)))
    else:
        assert adv.then_discard == table["card"].iloc[0]
    assert adv.take == (adv.beats_draw and adv.then_discard != adv.top_card)
    # a card that would go straight back never beats a blind draw: only a hand already at
    # deadwood 0 "goes out" by throwing it back, and then a blind draw goes out as surely
    # (a tie); nor does the look-ahead disagree (the least-deadwood discard's outlook is
    # at most take_deadwood < draw_expected)
    assert not (adv.throws_back and adv.beats_draw)
    if brute_force_deadwood(hand, n) == 0:   # a hand already out: both go out, draw blind
        assert adv.take_goes_out and adv.draw_p_out == 1 and not adv.beats_draw and not adv.take


@pytest.mark.parametrize("hand, top, wild", [
    (["4H", "4D", "4R"], "9D", 3),  # seed 1, round 1: dealt a book, the 9D fits nothing
    (["10H", "10D", "3S"], "9R", 3),  # seed 251, round 1 (the tracker's last turn)
    (["6S", "6H", "6D", "JK"], "KC", 4),
])
def test_a_hand_already_out_does_not_take_a_card_to_throw_back(hand, top, wild):
    adv = should_take_discard(hand, top, wild)
    assert brute_force_deadwood(hand, wild) == 0
    assert not adv.beats_draw and adv.take_goes_out and adv.take_discard == top
    assert adv.throws_back and not adv.take and adv.draw_p_out == 1 and adv.draw_expected == 0


# ---------------------------------------------------------------------------------------
# Bad input


@pytest.mark.parametrize(
    "call, exc, match",
    [
        (lambda: rank_discards(["3H", "4H", "5H", "9X"], 3), CardError, "'9X'"),
        (lambda: rank_discards(["3H", "4H", "5H", "6H"], 3, seen=["2C"]), CardError, "'2C'"),
        (lambda: rank_discards(["3H", "3H", "5H", "6H"], 3, seen=["3H"]), DuplicateCardError,
         "card 3H: 2 in hand, 1 seen, but 1 set holds only 2"),
        (lambda: rank_discards(["3H", "4H", "5H", "6H"], 3, seen=["QD"] * 3), DuplicateCardError,
         "seen: 3 copies of QD"),
        (lambda: rank_discards(["3H", "4H", "5H"], 3, round=1), HandSizeError, "expected 4"),
        (lambda: rank_discards(["3H"], 3), HandSizeError, "expected 2 to 14"),
        (lambda: rank_discards(["3H", "4H"], 1), WildRankError, "3..13"),
        (lambda: should_take_discard(["3H", "4H", "5H"], "3H", 3, seen=["3H"]), DuplicateCardError,
         "card 3H: 1 in hand, 1 seen, 1 face up, but 1 set holds only 2"),
        (lambda: should_take_discard(["3H", "4H", "5H"], "ZZ", 3), CardError, "'ZZ'"),
        (lambda: should_take_discard(["3H", "4H", "5H", "6H"], "7H", 3, round=1), HandSizeError, "expected 3"),
        (lambda: should_take_discard(ALL_CARDS[:14], "JK", 13), HandSizeError, "1 to 13"),
    ],
)
def test_bad_input(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


@settings(max_examples=50)
@given(st.lists(st.one_of(st.text(max_size=3), st.integers(-2, 58), st.sampled_from(ALL_CARDS)), max_size=15),
       st.lists(st.one_of(st.text(max_size=3), st.sampled_from(ALL_CARDS)), max_size=5),
       st.one_of(st.integers(0, 15), st.none()), st.one_of(st.text(max_size=3), st.sampled_from(ALL_CARDS)))
def test_malformed_input_raises_crowns_errors_only(hand, seen, wild, top):
    from crowns_solver.errors import CrownsError

    for call in (lambda: rank_discards(hand, wild, seen=seen), lambda: should_take_discard(hand, top, wild, seen=seen)):
        try:
            call()
        except CrownsError:
            pass


def test_going_out_the_advice_follows_the_advisor_player_s_discard():
    # found by a fresh-user probe: the advice took rank_discards' first (a wild before a
    # natural card of equal deadwood) while the advisor player, going out, discards a
    # natural card first, so the two disagreed on hands already out.  Round 1, 3s wild.
    adv = should_take_discard(["4R", "JK", "4D"], "JK", 3)
    assert adv.take_goes_out and adv.then_discard == "4D" and not adv.throws_back
    assert str(adv).splitlines()[1] == ("  take JK: deadwood 0 (goes out), discarding the 4D (the advisor throws a"
                                        " natural card before a wild; discarding the JK goes out too)")
    # (the hand is already out, so a blind draw goes out as surely: a tie, draw blind;
    # the player draws blind too, test_five_crowns_advisor_player.py)
    assert not adv.beats_draw and not adv.take
    adv = should_take_discard(["3D", "3S", "QH"], "QS", 3)   # the player draws blind
    # naturals QH and QS tie (deadwood 0, same value): the lower card code, the QS,
    # which is the card taken: a turn lost, so draw blind
    assert adv.take_goes_out and adv.then_discard == "QS" and adv.throws_back and not adv.take


@pytest.mark.parametrize("hand, top, wild", [
    (["4R", "JK", "4D"], "JK", 3),     # taking the joker keeps it: discard a 4, still out
    (["4H", "4D", "4R"], "9D", 3),     # the 9D would go straight back
    (["6S", "6H", "6D", "JK"], "6C", 4),
    (["3H", "4H", "5H", "6H", "7H"], "8H", 5),   # 5s wild: a run of five, 8H extends it
])
def test_a_hand_already_out_draws_blind(capsys, hand, top, wild):
    # found by a fresh-user probe: a hand already out was advised TAKE when the card taken
    # could be kept, though a blind draw goes out just as surely (discard the card drawn).
    # Both go out for sure: a tie, and the one-turn comparison draws blind on a tie
    from conftest import run_cli

    assert brute_force_deadwood(hand, wild) == 0
    adv = should_take_discard(hand, top, wild)
    assert adv.take_goes_out and adv.draw_p_out == 1 and adv.draw_expected == 0
    assert not adv.beats_draw and not adv.take
    code, out, err = run_cli(capsys, "five-crowns", "take", "--wild", str(wild), *hand, "--top", top)
    assert code == 0 and out.splitlines()[1] == "DRAW" and "as surely as taking: a tie" in out
    # not out (a King instead of the last card): taking goes out (or not) where a blind
    # draw may not, so going out now beats it again
    adv = should_take_discard(hand[:-1] + ["KS"], top, wild)
    assert adv.draw_p_out < 1 and (adv.take or not adv.take_goes_out)


def test_goes_out_for_sure_either_way_is_a_tie_even_when_the_hand_is_not_out():
    # 3H 4H 9S (5s wild) with only 5S, 5C and a joker unseen: each of them goes out after
    # a blind draw (a run 3H 4H and a wild), as taking the face-up 5D does: a tie, draw blind
    unseen = ["5S", "JK", "5C"]
    hand, top, wild = ["3H", "4H", "9S"], "5D", 5
    seen = remove_all(physical_deck(), hand + [top] + unseen)
    adv = should_take_discard(hand, top, wild, seen=seen)
    assert brute_force_deadwood(hand, wild) > 0 and adv.unseen == 3
    assert adv.take_goes_out and adv.draw_p_out == 1 and not adv.beats_draw and not adv.take
    adv = should_take_discard(hand, top, wild, seen=seen[1:])   # one more card unseen...
    assert adv.draw_p_out < 1 and adv.beats_draw and adv.take   # ...that may not go out
