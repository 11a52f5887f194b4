"""The tracker's draw rule: it never takes the face-up card only to throw it back.

Two trackers used to hand one card to each other until the 2000-turn cap (11 of 2200
rounds of 200 seeded 2-player games, seeds 0..199): the advisor's draw rule took the
card, then the tracker's discard rule, with its penalty for feeding the next seat, threw
that very card back.  Seed 8, round 2 is the example worked through below.
"""

from __future__ import annotations

import pytest
from fc_checks import assert_no_throw_back
from hypothesis import given, settings
from hypothesis import strategies as st

from crowns_solver.errors import PolicyError
from crowns_solver.five_crowns.cards import card_name, parse_card
from crowns_solver.five_crowns.game import GameRules, SeatView, last_turn_discard, play_game
from crowns_solver.five_crowns.players import AdvisorPolicy, TrackerPolicy

#: (seed, round) of the 2-player tracker rounds that ended at the turn cap before the fix
CAPPED_BEFORE = [(1, 11), (4, 9), (8, 2), (17, 11), (27, 5), (27, 6), (85, 9), (148, 6), (155, 9), (158, 6),
                 (164, 9)]


class Capture(TrackerPolicy):
    """The tracker, keeping the draw-phase views it was shown (a subclass: Python engine)."""

    def __init__(self, **kw):
        super().__init__(**kw)
        self.draw_views: list[SeatView] = []

    def choose_draw(self, view):
        self.draw_views.append(view)
        return super().choose_draw(view)


def _seed8_views():
    cap = Capture()
    play_game([cap, cap], seed=8, rules=GameRules(players=2, rounds=2), engine="python")
    return [v for v in cap.draw_views if v.round == 2]


def test_the_seed_8_card_is_not_taken_to_be_thrown_back():
    # Seed 8, round 2 (4 cards, 4s wild): seat 1 holds 6H 6H 9H 6D (a book of 6s and the
    # 9H: deadwood 9) and seat 0 throws the 3C.  Taking it and dropping the 9H leaves 3,
    # less than a blind draw is expected to (the advisor's rule says take).  But seat 0
    # took a 9C from the discard pile and still holds it (the book sign: 0.069 x 7.7 =
    # 0.53 chance that the 9H lets it go out), so the tracker's discard rule throws the 3C
    # instead; seat 0 (9D 9C 9C 5D) then did the same with the 3C (its 5D would feed seat
    # 1's 6D run), for 2000 turns.
    views = _seed8_views()
    names = [(" ".join(sorted(card_name(c) for c in v.hand)), card_name(v.discard_top)) for v in views]
    i = names.index(("6D 6H 6H 9H", "3C"))
    view = views[i]
    assert view.seat == 1 and view.deadwood == 9
    tracker = TrackerPolicy()
    assert AdvisorPolicy().choose_draw(view) == "discard"
    after = view.after_taking_discard()
    assert after.kept_deadwoods()[parse_card("9H")] == 3
    assert tracker.signs(after, parse_card("9H"))["book"]
    assert tracker.feed(after, parse_card("9H")) == pytest.approx(0.069 * 7.7)
    assert tracker.choose_discard(after) == parse_card("3C")
    assert tracker.choose_draw(view) == "draw"


def test_the_seed_8_round_now_ends_well_before_the_cap():
    rules = GameRules(players=2, rounds=2)
    records = []
    for engine in ("compiled", "python"):
        result = play_game(["tracker", "tracker"], seed=8, rules=rules, engine=engine)
        rr = result.rounds[1]
        assert rr.out is not None and rr.turns <= 50, (engine, rr)
        assert rr.scores[rr.out] == 0
        records.append(result.record)
    assert records[0] == records[1]


def test_the_rounds_that_hit_the_cap_now_end():
    for seed, rnd in CAPPED_BEFORE:
        result = play_game(["tracker", "tracker"], seed=seed, rules=GameRules(players=2, rounds=rnd),
                           engine="compiled")
        rr = result.rounds[rnd - 1]
        assert rr.out is not None and rr.turns <= 100, (seed, rnd, rr.turns)


def test_after_taking_discard_is_the_view_the_engine_builds():
    # Every time the tracker takes the face-up card, the what-if view it judged the
    # take by is the discard-phase view the engine then shows it (same hand, pile,
    # kept deadwoods, history, known cards).
    class Check(TrackerPolicy):
        pending = None
        checked = 0

        def choose_draw(self, view):
            Check.pending = None  # the draw rule itself asks choose_discard on the what-if view
            choice = super().choose_draw(view)
            Check.pending = view.after_taking_discard() if choice == "discard" else None
            return choice

        def choose_discard(self, view):
            if Check.pending is not None:
                want = Check.pending
                for name in SeatView.__slots__:
                    if name != "rng":
                        assert getattr(view, name) == getattr(want, name), name
                Check.checked += 1
            return super().choose_discard(view)

    for seed in range(3):
        play_game([Check(), Check(), Check()], seed=seed, rules=GameRules(players=3, rounds=4), engine="python")
    assert Check.checked >= 5


def test_after_taking_discard_only_in_the_own_draw_phase():
    view = _seed8_views()[0]
    after = view.after_taking_discard()
    assert after.phase == "discard" and after.drawn == view.discard_top
    assert len(after.hand) == len(view.hand) + 1 and after.discard_pile == view.discard_pile[:-1]
    with pytest.raises(PolicyError, match="draw phase"):
        after.after_taking_discard()


@settings(max_examples=20)
@given(st.integers(0, 2**32 - 1), st.integers(2, 5), st.sampled_from(["compiled", "python"]))
def test_tracker_never_takes_a_card_only_to_throw_it_back(seed, players, engine):
    # last turns too: there the tracker asks what the engine's least-deadwood discard
    # would be (game.last_turn_discard) and draws blind when it is the card taken
    rules = GameRules(players=players, rounds=3)
    assert_no_throw_back(play_game(["tracker"] * players, seed=seed, rules=rules, engine=engine), seed)


def test_seed_251_last_turn_no_longer_takes_the_card_back():
    # Seed 251, 2 players, round 1 (3 cards, 3s wild): seat 1 goes out at once and throws
    # the 9R.  Seat 0 was dealt 10H 10D 3S, already a book (deadwood 0), so taking the 9R
    # "goes out" too and the advisor's one-turn comparison says take; but then the only
    # card whose discard leaves deadwood 0 is the 9R itself, so the engine threw it back
    # (both engines).  Now seat 0 draws blind: its score is 0 either way.
    rules = GameRules(players=2, rounds=3)
    records = []
    for engine in ("compiled", "python"):
        result = play_game(["tracker", "tracker"], seed=251, rules=rules, engine=engine)
        assert_no_throw_back(result, engine)
        first = result.record["rounds"][0]
        assert first["turns"][0] == {"seat": 1, "source": "discard", "card": "8C", "discard": "9R", "out": True}
        last = first["turns"][1]
        assert last["seat"] == 0 and last.get("final") and last["source"] == "draw", last
        assert result.rounds[0].scores == {1: 0, 0: 0}
        records.append(result.record)
    assert records[0] == records[1]
    # the decision itself: the one-turn comparison says take, the last-turn discard is the 9R
    cap = Capture()
    play_game([cap, cap], seed=251, rules=GameRules(players=2, rounds=1), engine="python")
    view = [v for v in cap.draw_views if v.final_turn][0]
    assert sorted(card_name(c) for c in view.hand) == ["10D", "10H", "3S"] and card_name(view.discard_top) == "9R"
    assert view.deadwood == 0 and AdvisorPolicy().choose_draw(view) == "draw"
    after = view.after_taking_discard()
    assert last_turn_discard(after.hand, [after.kept_deadwood(c) for c in after.hand]) == parse_card("9R")
    assert TrackerPolicy().choose_draw(view) == "draw"


@settings(max_examples=10)
@given(st.integers(0, 2**32 - 1), st.integers(2, 4))
def test_the_two_engines_play_the_same_tracker_games(seed, players):
    rules = GameRules(players=players, rounds=4)
    pols = (["tracker", "advisor", "tracker", "greedy"])[:players]
    assert (play_game(pols, seed=seed, rules=rules, engine="compiled").record
            == play_game(pols, seed=seed, rules=rules, engine="python").record)


def test_the_discard_kept_from_the_draw_is_used_only_for_that_position():
    # choose_draw keeps the discard it judged the take by; choose_discard returns it only
    # for that very position, and recomputes for any other view.
    views = [v for v in _seed8_views() if TrackerPolicy().choose_draw(v) == "discard"]
    assert views
    view = views[0]
    after = view.after_taking_discard()
    fresh = TrackerPolicy().choose_discard(after)
    tracker = TrackerPolicy()
    assert tracker.choose_draw(view) == "discard"
    assert tracker.choose_discard(after) == fresh
    other = _seed8_views()[-1].after_taking_discard()
    assert fresh not in other.hand  # so a stale answer would be caught
    tracker.choose_draw(view)
    assert tracker.choose_discard(other) == TrackerPolicy().choose_discard(other)
