"""The advisor player never takes the face-up card only to throw it back.

Advisor tables used to waste a turn in 61 of 2200 2-player rounds (seeds 0..199) and 9
more on last turns.  Every one was the same case: a seat whose hand already had deadwood
0 when its turn began (a dealt hand, or on a last turn any hand the seat never improved),
so taking the face-up card "goes out now" and the one-turn comparison said take; but the
only going-out discard was that card (or it came first by the tie order), so it went
straight back.  A blind draw goes out just as surely (discard the card drawn).
"""

from __future__ import annotations

from fc_checks import assert_no_throw_back, throw_backs
from hypothesis import given, settings
from hypothesis import strategies as st

from crowns_solver.five_crowns.game import GameRules, play_game
from crowns_solver.five_crowns.players import AdvisorPolicy, _take_figures


class OldAdvisor(AdvisorPolicy):
    """The draw rule before the fix: the one-turn comparison alone (Python engine)."""

    def choose_draw(self, view):
        return "discard" if _take_figures(view).beats_draw else "draw"


@settings(max_examples=20)
@given(st.integers(0, 2**32 - 1), st.integers(2, 5), st.sampled_from(["compiled", "python"]))
def test_advisor_never_takes_a_card_only_to_throw_it_back(seed, players, engine):
    rules = GameRules(players=players, rounds=4)
    assert_no_throw_back(play_game(["advisor"] * players, seed=seed, rules=rules, engine=engine), seed)


def test_the_wasted_turns_counted_before_and_after():
    # The old rule wastes turns on these seeds; the new one on none, in both engines,
    # and at the first wasted turn of each game it draws blind and still goes out.
    rules = GameRules(players=2, rounds=4)
    before = after = 0
    for seed in range(60):
        old = play_game([OldAdvisor(), OldAdvisor()], seed=seed, rules=rules, engine="python")
        new = play_game(["advisor", "advisor"], seed=seed, rules=rules, engine="compiled")
        assert new.record == play_game(["advisor", "advisor"], seed=seed, rules=rules, engine="python").record
        wasted = throw_backs(old.record)
        before += len(wasted)
        after += len(throw_backs(new.record))
        if not wasted:
            assert new.record == old.record, seed  # the rule changed nothing else
            continue
        rnd, i, turn = wasted[0]
        old_turns = old.record["rounds"][rnd - 1]["turns"]
        new_turns = new.record["rounds"][rnd - 1]["turns"]
        assert new.record["rounds"][: rnd - 1] == old.record["rounds"][: rnd - 1]
        assert new_turns[:i] == old_turns[:i]
        assert new_turns[i]["source"] == "draw" and new_turns[i]["seat"] == turn["seat"]
        assert new_turns[i].get("out") == turn.get("out") and new_turns[i].get("final") == turn.get("final")
        seat = turn["seat"]
        assert new.rounds[rnd - 1].scores[seat] == old.rounds[rnd - 1].scores[seat] == 0
    assert before >= 5 and after == 0, (before, after)
