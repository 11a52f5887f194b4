"""Cross Kings hand scoring: shared cases, RULES.md examples, brute force, bad input."""

from __future__ import annotations

import pytest
from ck_reference import NATURALS, brute_force_score
from conftest import load_json
from hypothesis import given
from hypothesis import strategies as st

from crowns_solver import _ck_score
from crowns_solver.cross_kings import DECK, explain_hand, score_hand
from crowns_solver.errors import CardError, DuplicateCardError

SCORE_CASES = load_json("cross_kings_scores.json")["cases"]
KINGS = ["KS", "KH", "KD", "KC"]


@pytest.mark.parametrize("case", SCORE_CASES, ids=lambda c: " ".join(c["cards"]))
def test_shared_cases(case):
    assert score_hand(case["cards"]) == case["score"]


@pytest.mark.parametrize(
    "cards, score",
    [
        (["3H", "4H", "5H"], 3),
        (["2S", "3S", "4S", "5S", "6S", "5H", "5D"], 10),
        (["AH", "2H", "KS"], 2),
        (["4S", "4H", "4D", "KS", "KH"], 4),
        ([], 0),
        (KINGS, 1),  # four Kings: a run or set of four, 5 - 4
        (list(DECK), 4 * 13 + 8 * 5),  # four runs of 8 and eight sets of 4; Kings unplaceable
    ],
)
def test_rules_examples(cards, score):
    assert score_hand(cards) == score


hands = st.tuples(
    st.lists(st.sampled_from(NATURALS), unique=True, max_size=24),
    st.integers(0, 4),
).filter(lambda h: h[1] < 4 or len(h[0]) >= 14)  # keep brute force over 4 Kings quick


@given(hands)
def test_matches_brute_force(hand):
    naturals, k = hand
    cards = naturals + KINGS[:k]
    assert score_hand(cards) == brute_force_score(cards)


@given(hands)
def test_explanation_adds_up(hand):
    naturals, k = hand
    cards = naturals + KINGS[:k]
    ex = explain_hand(cards)
    assert ex.score == score_hand(cards)
    assert sum(g.points for g in ex.groups) == ex.score
    placed = [c for c in ex.kings.values() if c is not None]
    assert len(set(placed)) == len(placed)
    assert not set(placed) & set(naturals)
    assert set(ex.kings) == set(KINGS[:k])


def test_kings_sharing_a_rank_match_brute_force():
    # hands like those a search scores (12-16 cards), drawn so that many ranks hold one
    # or two cards: there two or three Kings may stand on one rank (a set of 3 from one
    # card and two Kings, or of 4 from two cards and two Kings), the case where valuing
    # each King on its own is wrong and the branch and bound must decide
    import numpy as np

    rng = np.random.default_rng(11)
    for i in range(36):
        kings = 2 if i < 24 else 3
        ranks = rng.choice(8, size=6, replace=False)
        pool = [r + 8 * s for r in ranks for s in range(4)]
        cards = sorted(rng.choice(pool, size=int(rng.integers(8, 12)), replace=False).tolist())
        cards += [c for c in rng.choice(32, size=4, replace=False).tolist() if c not in cards]
        names = [NATURALS[c] for c in cards] + KINGS[:kings]
        assert score_hand(names) == brute_force_score(names), names


def test_one_king_matches_every_placement():
    # the one-King scorer takes the best cell branch-free (byte-wise maxima over the four
    # suits): check it against the best of the 32 single placements and of no placement,
    # each evaluated directly, on every hand of one suit (all 256 masks, with cards of
    # other suits to make sets) and on random hands of every size
    import numpy as np

    def best_of_placements(nat: int) -> int:
        best = _ck_score.eval_placement(nat, 0)
        for cell in range(32):
            if not (nat >> cell) & 1:
                best = max(best, _ck_score.eval_placement(nat, 1 << cell))
        return best

    rng = np.random.default_rng(3)
    hands = [m << (8 * s) for m in range(256) for s in range(4)]
    hands += [m | (0x81 << 8) | (0x3 << 16) for m in range(256)]   # pairs: a King makes a set of 3
    hands += [m | (0x42 << 8) | (0x42 << 16) | (0x40 << 24) for m in range(256)]   # three of a rank
    for size in range(0, 33):
        for _ in range(40):
            hands.append(int(sum(1 << int(c) for c in rng.choice(32, size=size, replace=False))))
    for nat in hands:
        assert _ck_score.score_mask(nat, 1) == best_of_placements(nat), hex(nat)


def test_batch_scoring_matches_single():
    import numpy as np

    rng = np.random.default_rng(5)
    nat = np.array([rng.integers(0, 2**32) for _ in range(500)], dtype=np.uint32)
    kings = rng.integers(0, 5, size=500).astype(np.uint8)
    out = np.zeros(500, dtype=np.int32)
    _ck_score.score_masks(nat, kings, out)
    for m, k, v in zip(nat, kings, out):
        assert v == _ck_score.score_mask(int(m), int(k))


def test_useful_king_sets_table():
    # every suit mask's list of King sets worth placing for runs (see _ck_scoring.pxi)
    assert _ck_score.table_sizes()["useful_king_sets"] == 2054


@pytest.mark.parametrize("bad", ["9S", "QH", "AX", "", "K", "10H", 36, -1, None, 3.5])
def test_bad_card(bad):
    with pytest.raises(CardError, match="not a Cross Kings card"):
        score_hand([bad])


def test_duplicate_card():
    with pytest.raises(DuplicateCardError, match="duplicate card 4S"):
        score_hand(["4S", "4H", "4s"])


def test_string_is_not_a_hand():
    with pytest.raises(CardError, match="list of cards"):
        score_hand("4S4H")


def test_compiled_entry_points_refuse_bad_king_counts():
    with pytest.raises(ValueError):
        _ck_score.score_mask(0, 5)
    with pytest.raises(ValueError):
        _ck_score.best_placement(0, -1)
    with pytest.raises(ValueError):
        _ck_score.eval_placement(1, 1)
