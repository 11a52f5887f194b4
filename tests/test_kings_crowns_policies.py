"""King's Crowns players: one interface, no hidden information, fast path == Game path."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from crowns_solver import _kc_engine
from crowns_solver.errors import RulesError
from crowns_solver.kings_crowns import (
    Game,
    LookaheadPolicy,
    Policy,
    Rules,
    SeatView,
    get_policy,
    parse_card,
    play_chunk,
    simulate,
    win_rates,
)

NAMES = ["random", "greedy", "aggressive", "defensive", "lookahead:samples=4,horizon=8"]
PUBLIC = {f.name for f in dataclasses.fields(SeatView)}


class HiddenInformationError(AssertionError):
    pass


class GuardedView(SeatView):
    """A seat view that raises on any access to something not in the public view."""

    def __getattribute__(self, name):
        if not name.startswith("__") and name not in PUBLIC and not callable(getattr(SeatView, name, None)) \
                and not isinstance(getattr(SeatView, name, None), property):
            raise HiddenInformationError(f"policy read {name!r}")
        return object.__getattribute__(self, name)


def guarded(view: SeatView) -> GuardedView:
    return GuardedView(**{f.name: getattr(view, f.name) for f in dataclasses.fields(SeatView)})


def scramble_hidden(game: Game, seed: int) -> None:
    """Reshuffle every card the seat to move cannot see (other hands, draw pile, discard
    pile under its top), keeping every public fact (sizes, stacks, discard top)."""
    s = game.state()
    me = game.to_move
    hidden = [c for q, h in enumerate(s["hands"]) if q != me for c in h] + s["draw_pile"] + s["discard_pile"][:-1]
    rng = np.random.default_rng(seed)
    rng.shuffle(hidden)
    it = iter(hidden)
    hands = [h if q == me else [next(it) for _ in h] for q, h in enumerate(s["hands"])]
    draw = [next(it) for _ in s["draw_pile"]]
    disc = [next(it) for _ in s["discard_pile"][:-1]] + s["discard_pile"][-1:]
    P = parse_card
    game._engine.set_state([[P(c) for c in h] for h in hands], [[P(c) for c in x] for x in s["play_stacks"]],
                           [[P(c) for c in x] for x in s["gift_stacks"]], [[P(c) for c in x] for x in s["crown_stacks"]],
                           [P(c) for c in draw], [P(c) for c in disc], me, ("draw", "play").index(s["phase"]), s["turn"])


@pytest.mark.parametrize("name", NAMES)
def test_policies_read_only_the_seat_view(name):
    """Every policy decides from a view that raises on anything hidden, and decides the
    same when the hidden cards are shuffled differently (same view, same random state)."""
    pol = get_policy(name)
    g = Game(4, seed=11)
    decisions = 0
    while g.phase != "over" and decisions < 60:
        view = g.view()
        choices = []
        for k in range(2):
            gg = Game(4, seed=11)
            gg._engine.set_state(*_raw_state(g))
            if k:
                scramble_hidden(gg, seed=decisions)
            assert gg.view() == view
            rng = np.random.Generator(np.random.PCG64(decisions))
            v = guarded(gg.view())
            choices.append(pol.choose_draw(v, rng) if view.phase == "draw" else pol.choose_play(v, rng))
        assert choices[0] == choices[1]
        if view.phase == "draw":
            assert choices[0] in view.legal_draws()
            g.draw(choices[0])
        else:
            assert choices[0] in view.legal_plays()
            g.play(choices[0])
        decisions += 1


def _raw_state(g: Game):
    s = g.state()
    P = parse_card
    return ([[P(c) for c in h] for h in s["hands"]], [[P(c) for c in x] for x in s["play_stacks"]],
            [[P(c) for c in x] for x in s["gift_stacks"]], [[P(c) for c in x] for x in s["crown_stacks"]],
            [P(c) for c in s["draw_pile"]], [P(c) for c in s["discard_pile"]], s["to_move"],
            ("draw", "play").index(s["phase"]), s["turn"])


def test_guarded_view_catches_a_cheat():
    class Cheat(Policy):
        def choose_draw(self, view, rng):
            return "discard" if view._engine else "draw"

    with pytest.raises(HiddenInformationError):
        Cheat().choose_draw(guarded(Game(2, seed=0).view()), None)


def test_the_view_hides_other_hands_and_the_draw_pile():
    g = Game(3, seed=4)
    v = g.view(1)
    s = g.state()
    assert list(v.hand) == s["hands"][1] and v.hand_sizes == (6, 6, 6)
    text = repr(v)
    assert "draw_pile" not in text and "hands" not in text
    assert sum(v.unseen().values()) == 12 + v.draw_size + v.discard_size - 1


@pytest.mark.parametrize("policies", [["random"] * 4, ["greedy"] * 4, ["aggressive", "defensive", "random", "greedy"],
                                      ["lookahead:samples=4,horizon=8", "greedy", "aggressive"]])
def test_fast_path_and_game_path_play_identical_games(policies):
    players = len(policies)
    params = dict(players=players, policies=policies, rules=Rules().to_dict(), rotate=True, chunk_size=40)
    seed = np.random.SeedSequence(9, spawn_key=(2,))
    n = 6 if "lookahead" in policies[0] else (12 if policies[0] == "random" else 40)
    fast = play_chunk(2, n, seed, **params)
    objects = [_PyWrapper(get_policy(p)) for p in policies]
    slow = play_chunk(2, n, seed, objects=objects, **params)
    slow[[f"policy_{s}" for s in range(players)]] = fast[[f"policy_{s}" for s in range(players)]]
    slow["winner_policy"] = fast["winner_policy"]
    assert fast.equals(slow)
    assert (fast["turns"] > 0).all()


class _PyWrapper(Policy):
    """A Python policy that delegates to a built-in one through the public interface,
    forcing play_chunk onto the move-by-move Game path."""

    def __init__(self, inner):
        self.inner = inner
        self.name = "py-" + inner.name

    def choose_draw(self, view, rng):
        return self.inner.choose_draw(view, rng)

    def choose_play(self, view, rng):
        return self.inner.choose_play(view, rng)


def test_builders_beat_random_and_aggressive_beats_greedy():
    df = simulate(2000, players=4, policies=["random", "greedy", "aggressive", "defensive"], rotate=True, seed=2, workers=1)
    t = win_rates(df, by="policy")
    assert t.loc["random", "ci_high"] < 0.05
    assert t.loc["aggressive", "ci_low"] > t.loc["greedy", "ci_high"]


def test_lookahead_beats_three_aggressive_players():
    """Fair share is 1/4; the lookahead player's Wilson interval must lie above it."""
    df = simulate(240, players=4, policies=["lookahead", "aggressive", "aggressive", "aggressive"], rotate=True,
                  seed=1, workers=1, chunk_size=60)
    t = win_rates(df, by="policy")
    assert t.loc["lookahead", "rate"] > 0.25
    assert t.loc["lookahead", "rate"] > t.loc["aggressive", "rate"]


def test_lookahead_candidates_and_options():
    g = Game(4, seed=3)
    g.draw("draw")
    table = LookaheadPolicy(samples=8).candidates(g.view(), np.random.default_rng(0))
    assert {str(r["choice"]) for r in table} == {str(p) for p in g.legal_plays()}
    assert sum(r["default"] for r in table) == 1
    assert all(0 <= r["value"] <= 1 for r in table)
    assert get_policy("lookahead:samples=8,rollout=greedy") == LookaheadPolicy(samples=8, rollout="greedy")
    for bad in ("lookahead:samples=0", "lookahead:depth=3", "lookahead:rollout=lookahead", "nope", "lookahead:samples=x"):
        with pytest.raises(RulesError):
            get_policy(bad)


view_dicts = st.fixed_dictionaries({
    "seat": st.integers(-1, 5), "players": st.integers(0, 6), "target": st.integers(-1, 200),
    "max_turns": st.integers(-1, 3000), "turn": st.integers(-1, 3000), "phase": st.integers(-1, 3),
    "hand": st.lists(st.integers(-1, 8), min_size=26, max_size=29),
    "hand_sizes": st.lists(st.integers(-1, 9), max_size=6), "play_top": st.lists(st.integers(-2, 29), max_size=6),
    "play_n": st.lists(st.integers(-1, 30), max_size=6), "gifts": st.lists(st.integers(-1, 9), max_size=6),
    "score": st.lists(st.integers(-5, 200), max_size=6), "discard_top": st.integers(-2, 29),
    "discard_size": st.integers(-1, 120), "draw_size": st.integers(-1, 120),
})


@given(view_dicts, st.integers(0, 4), st.lists(st.integers(-1, 6), min_size=140, max_size=140))
def test_compiled_entry_points_reject_malformed_views(d, pol, counts):
    seat_counts = np.asarray(counts, dtype=np.int32)
    deck = np.asarray(Rules().deck.counts, dtype=np.int32)
    rng = np.random.default_rng(0)
    for call in (lambda: _kc_engine.choose(pol, d, seat_counts, deck, rng, (2, 3, 1)),
                 lambda: _kc_engine.legal_plays_view(d, seat_counts, deck),
                 lambda: _kc_engine.lookahead_table(d, seat_counts, deck, rng, (2, 3, 1))):
        try:
            call()
        except (ValueError, IndexError, KeyError):
            pass


@given(st.lists(st.lists(st.integers(-1, 30), max_size=8), min_size=0, max_size=6), st.integers(-1, 3), st.integers(-1, 2))
def test_set_state_rejects_malformed_input(lists, current, phase):
    g = Game(2, seed=0)
    args = (lists[:2], lists[2:4], [[], []], [[], []], [], [], current, phase)
    try:
        g._engine.set_state(*args)
    except (ValueError, TypeError, OverflowError):
        return
    assert g.card_counts() == Counter_deck()


def Counter_deck():
    from collections import Counter

    return Counter(Rules().deck.to_dict())


def test_custom_policies_run_in_worker_processes_and_threads():
    from concurrent.futures import ThreadPoolExecutor

    from kc_reference import FirstLegal

    kw = dict(players=2, policies=[FirstLegal(), "greedy"], rotate=True, seed=4, chunk_size=5)
    one = simulate(20, workers=1, **kw)
    two = simulate(20, workers=2, **kw)
    with ThreadPoolExecutor(2) as pool:
        threads = simulate(20, executor=pool, **kw)
    assert one.equals(two) and one.equals(threads)
    assert set(one["policy_0"]) == {"first-legal", "greedy"}
    assert one.attrs["play_chunk"] == "crowns_solver.kings_crowns.simulation.play_chunk"
