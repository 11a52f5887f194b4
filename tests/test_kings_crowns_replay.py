"""An independent replay of King's Crowns games, written from RULES.md (probe 19).

The replay keeps its own table (hands, the three stacks of every seat, both piles, crown
points, turn, seat to move), checks the engine's legal plays there against
tests/kc_reference.py's (also written from RULES.md), and moves it by the plays the
computer players choose.  After every draw and play the engine's state must equal the
replay's, and at the end the replay's winner, length and crown points must be what the
compiled fast path recorded for the same game of a run (``simulate``).  The only thing
taken from the engine is the order of a reshuffled draw pile (random), checked to be the
discard pile's cards.
"""

from __future__ import annotations

from collections import Counter

import pytest
from kc_reference import legal_plays

from crowns_solver.kings_crowns import Deck, Game, Rules, get_policy, simulate
from crowns_solver.kings_crowns.simulation import game_seed, seat_policies


def crown_value(card: str) -> int:
    return int(card.rsplit("-", 1)[1])


def same_table(engine: dict, t: dict) -> None:
    for key in ("play_stacks", "gift_stacks", "crown_stacks", "draw_pile", "discard_pile"):
        assert [list(x) for x in engine[key]] == [list(x) for x in t[key]] if key.endswith("stacks") \
            else list(engine[key]) == t[key], key
    assert [sorted(h) for h in engine["hands"]] == [sorted(h) for h in t["hands"]]
    assert list(engine["scores"]) == t["scores"]
    assert engine["turn"] == t["turn"]


def replay(players: int, rules: Rules, seed, names: list[str]) -> tuple[int, int, list[int], Counter]:
    """Play one game with the named players, checking the engine against the replay
    after every draw and play; returns (winner or -1, turns, crown points, events seen:
    "reshuffle", "pass")."""
    pols = [get_policy(n) for n in names]
    game = Game(players, rules, seed=seed)
    s = game.state()
    t = {k: [list(x) for x in s[k]] for k in ("hands", "play_stacks", "gift_stacks", "crown_stacks")}
    t.update(draw_pile=list(s["draw_pile"]), discard_pile=list(s["discard_pile"]), scores=[0] * players, turn=0)
    assert sorted(sum(t["hands"], []) + t["draw_pile"] + t["discard_pile"]) == \
        sorted(c for c, n in rules.deck.to_dict().items() for _ in range(n))
    assert all(len(h) == 6 for h in t["hands"]) and len(t["discard_pile"]) == 1  # 6 each, one turned up
    target = rules.target_for(players)
    events: Counter = Counter()
    seat = 0
    while True:
        assert (game.to_move, game.phase) == (seat, "draw" if t["draw_pile"] or t["discard_pile"] else "play")
        sources = (["draw"] if t["draw_pile"] or t["discard_pile"] else []) + (["discard"] if t["discard_pile"] else [])
        assert sorted(game.legal_draws()) == sorted(sources)
        if sources:
            source = pols[seat].choose_draw(game.view(seat), game.rng)
            if source == "draw" and not t["draw_pile"]:  # the whole discard pile becomes the draw pile
                old = Counter(t["discard_pile"])
                drawn = game.draw("draw")
                t["draw_pile"] = list(game.state()["draw_pile"]) + [drawn]  # the top is the list's end
                assert Counter(t["draw_pile"]) == old
                t["discard_pile"] = []
                mine = t["draw_pile"].pop()
                events["reshuffle"] += 1
            else:
                mine = (t["draw_pile"] if source == "draw" else t["discard_pile"]).pop()
                drawn = game.draw(source)
            assert drawn == mine
            t["hands"][seat].append(mine)
        # RULES.md "Legal plays" as tests/kc_reference.py writes them, on the replay's table
        assert {(p.card, p.to, p.seat) for p in game.legal_plays()} == \
            legal_plays(seat, t["hands"][seat], t["play_stacks"], t["gift_stacks"])
        play = pols[seat].choose_play(game.view(seat), game.rng)
        game.play(play)
        card, to, victim = play.card, play.to, play.seat
        t["hands"][seat].remove(card)
        if to == "discard":
            t["discard_pile"].append(card)
        elif to == "gifts":
            t["gift_stacks"][seat].append(card)
        elif to == "crowns":
            t["crown_stacks"][seat].append(card)
            t["scores"][seat] += crown_value(card)
        else:
            t["play_stacks"][seat if victim is None else victim].append(card)
        t["turn"] += 1
        if t["scores"][seat] >= target:  # the moment a crown total reaches the target
            same_table(game.state(), t)
            assert (game.winner, game.ended) == (seat, "target")
            return seat, t["turn"], t["scores"], events
        seat = (seat + 1) % players
        # a seat with nothing to draw and no card passes, and that is a turn (the engine
        # passes by itself)
        while t["turn"] < rules.max_turns and not t["draw_pile"] and not t["discard_pile"] and not t["hands"][seat]:
            t["turn"] += 1
            seat = (seat + 1) % players
            events["pass"] += 1
        same_table(game.state(), t)
        if t["turn"] >= rules.max_turns:
            assert (game.winner, game.ended) == (None, "stalemate")
            return -1, t["turn"], t["scores"], events
        assert game.ended is None


TINY = Deck.from_mapping({"salvation": 3, "sin-orange": 4, "forgiveness-orange": 1, "holy-spirit": 1,
                          "time-with-god": 2, "gift-red": 1, "crown-black-5": 4, "crown-red-20": 3}, "tiny")
SALVATIONS = Deck.from_mapping({"salvation": 12, "crown-black-10": 2}, "salvations")
DRY = Deck.from_mapping({"salvation": 2, "crown-black-5": 20}, "dry")  # 100 crown points, shared: no winner


@pytest.mark.parametrize("players, names, rules, games, seen", [
    (4, ["greedy", "aggressive", "defensive", "random"], Rules(), 12, {"target"}),
    (5, ["aggressive"] * 5, Rules(), 6, {"target"}),
    (2, ["random", "aggressive"], Rules(target=15, max_turns=300, deck=TINY), 20,
     {"target", "stalemate", "reshuffle"}),
    (2, ["greedy", "aggressive"], Rules(target=100, max_turns=60, deck=DRY), 4,
     {"stalemate", "pass"}),  # every card ends on a stack: piles run dry, hands shrink, seats pass
    (2, ["greedy", "random"], Rules(target=20, max_turns=120, deck=SALVATIONS), 20, {"target", "reshuffle"}),
    (3, ["random"] * 3, Rules(max_turns=150), 8, {"stalemate"}),  # the turn cap
])
def test_replay_from_the_rules_matches_the_engine_and_the_recorded_results(players, names, rules, games, seen):
    seed = 2026
    recorded = simulate(games, players=players, policies=names, rules=rules, seed=seed, rotate=True, workers=1)
    events: Counter = Counter()
    for g in range(games):
        seated = seat_policies(names, players, g, True)
        winner, turns, crowns, happened = replay(players, rules, game_seed(seed, g), seated)
        row = recorded.iloc[g]
        assert (int(row["winner"]), int(row["turns"])) == (winner, turns)
        assert [int(row[f"crowns_{s}"]) for s in range(players)] == crowns
        assert [row[f"policy_{s}"] for s in range(players)] == seated
        assert int(row["reshuffles"]) == happened["reshuffle"]
        events.update(happened)
        events["target" if winner >= 0 else "stalemate"] += 1
    assert seen <= set(events), events  # each case reaches what it is there for
