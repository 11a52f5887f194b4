"""A blind draw with no card to come from names the command's options, not the API's.

``should_take_discard`` refuses a hand, face-up card and seen cards (or a given draw pile)
that leave no card for the next blind draw; its message advises giving reshuffled cards
as ``draw_pile``.  ``crowns five-crowns take`` printed that API name instead of the
option the user types, ``--draw-pile`` (found walking through docs/five_crowns_melds.md,
session 20).
"""

from __future__ import annotations

from collections import Counter

import pytest
from conftest import run_cli

from crowns_solver.errors import NoUnseenCardError
from crowns_solver.five_crowns import should_take_discard


def _all_but(*cards: str) -> list[str]:
    """One 116-card set (5 suits x 3..K twice, 6 jokers) without `cards`."""
    deck = Counter({f"{r}{s}": 2 for r in ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
                    for s in "SHCDR"})
    deck["JK"] = 6
    deck.subtract(cards)
    return [c for c, n in deck.items() for _ in range(n)]


def test_no_unseen_card_names_the_draw_pile_option(capsys):
    seen = _all_but("3H", "4H", "9S", "KD")
    assert len(seen) == 112
    with pytest.raises(NoUnseenCardError, match=r"give them as draw_pile\)$"):
        should_take_discard(["3H", "4H", "9S"], "KD", 5, seen=seen)
    code, out, err = run_cli(capsys, "five-crowns", "take", "--wild", "5", "3H", "4H", "9S", "--top", "KD",
                             "--seen", *seen)
    assert code == 2 and out == ""
    assert err.endswith("(after a reshuffle, give them as --draw-pile)\n") and "draw_pile" not in err


def test_empty_draw_pile_names_the_draw_pile_option(capsys):
    # the only card of the pile given is a 6H, and both 6H are seen: nothing can be drawn
    with pytest.raises(NoUnseenCardError, match="in draw_pile, not among the seen cards$"):
        should_take_discard(["3H", "4H", "5H"], "KS", round=1, wild_rank=3, seen=["6H", "6H"], draw_pile=["6H"])
    code, out, err = run_cli(capsys, "five-crowns", "take", "--round", "1", "3H", "4H", "5H", "--top", "KS",
                             "--draw-pile", "6H", "--seen", "6H", "6H")
    assert code == 2 and out == ""
    assert err == ("crowns: error: no card left for a blind draw: every card of the draw pile given (1) is in"
                   " the hand, is the face-up KS or is among the 2 seen cards; list the cards reshuffled into"
                   " the draw pile in --draw-pile, not among the seen cards\n")
