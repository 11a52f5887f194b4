"""The advisor player never takes the face-up card only to throw it back.

Advisor tables used to waste a turn in 61 of 2200 2-player rounds (seeds 0..199) and 9
more on last turns.  Every one was the same case: a seat whose hand already had deadwood
0 when its turn began (a dealt hand, or on a last turn any hand the seat never improved),
so taking the face-up card "goes out now" and the one-turn comparison said take; but the
only going-out discard was that card (or it came first by the tie order), so it went
straight back.  A blind draw goes out just as surely (discard the card drawn).

A later probe found the same hands advised TAKE when the card taken could be kept: both go
out for sure, a tie, and the one-turn comparison draws blind on a tie, so a hand already
out now always draws blind (advice, player and compiled loop alike).
"""

from __future__ import annotations

from fc_checks import assert_no_throw_back, throw_backs
from hypothesis import given, settings
from hypothesis import strategies as st

from crowns_solver.five_crowns.cards import parse_card
from crowns_solver.five_crowns.game import GameRules, play_game
from crowns_solver.five_crowns.melds import deadwood
from crowns_solver.five_crowns.players import AdvisorPolicy, _take_figures


class OldAdvisor(AdvisorPolicy):
    """The draw rule before the fixes: the one-turn comparison alone, in which taking a
    card that "goes out now" always beat a blind draw, even for a hand already out (Python
    engine).  The first fix stopped the throw-backs; the second made a hand already out
    draw blind (a blind draw goes out as surely: a tie, and a tie draws blind)."""

    def choose_draw(self, view):
        f = _take_figures(view)
        return "discard" if f.beats_draw or f.take_deadwood == 0 else "draw"


class DrawEvents:
    """Observer: each round's hands after every draw, in turn order."""

    def __init__(self):
        self.hands = {}

    def __call__(self, t):
        if t.event == "draw":
            self.hands.setdefault(t.round, []).append(t.hands[t.seat])


@settings(max_examples=20)
@given(st.integers(0, 2**32 - 1), st.integers(2, 5), st.sampled_from(["compiled", "python"]))
def test_advisor_never_takes_a_card_only_to_throw_it_back(seed, players, engine):
    rules = GameRules(players=players, rounds=4)
    assert_no_throw_back(play_game(["advisor"] * players, seed=seed, rules=rules, engine=engine), seed)


def test_the_old_rule_and_the_new_differ_only_where_a_hand_was_already_out():
    # The old rule wastes turns on these seeds, and takes cards with hands already out; the
    # new one draws blind there, in both engines.  Every game where the two differ first
    # differs at such a turn: the seat's hand had deadwood 0 before drawing, the old rule
    # took the face-up card, the new one draws blind and goes out all the same (or, on a
    # last turn, keeps 0).
    rules = GameRules(players=2, rounds=4)
    before = after = changed = wasted_first = 0
    for seed in range(60):
        events = DrawEvents()
        old = play_game([OldAdvisor(), OldAdvisor()], seed=seed, rules=rules, engine="python", observer=events)
        new = play_game(["advisor", "advisor"], seed=seed, rules=rules, engine="compiled")
        assert new.record == play_game(["advisor", "advisor"], seed=seed, rules=rules, engine="python").record
        wasted = throw_backs(old.record)
        before += len(wasted)
        after += len(throw_backs(new.record))
        if new.record == old.record:
            assert not wasted
            continue
        changed += 1
        rnd = next(k for k, (a, b) in enumerate(zip(old.record["rounds"], new.record["rounds"])) if a != b)
        old_turns, new_turns = old.record["rounds"][rnd]["turns"], new.record["rounds"][rnd]["turns"]
        i = next(k for k, (a, b) in enumerate(zip(old_turns, new_turns)) if a != b)
        turn = old_turns[i]
        assert turn["source"] == "discard" and new_turns[i]["source"] == "draw" and new_turns[i]["seat"] == turn["seat"]
        assert new_turns[i].get("out") == turn.get("out") and new_turns[i].get("final") == turn.get("final")
        hand = list(events.hands[rnd + 1][i])
        hand.remove(parse_card(turn["card"]))
        assert deadwood(hand, old.rounds[rnd].wild_rank) == 0, (seed, rnd + 1, i)
        seat = turn["seat"]
        assert new.rounds[rnd].scores[seat] == old.rounds[rnd].scores[seat] == 0
        wasted_first += bool(wasted) and wasted[0][:2] == (rnd + 1, i)
    assert before >= 5 and after == 0, (before, after)
    assert changed > wasted_first >= 1, (changed, wasted_first)   # kept cards too, not only throw-backs
