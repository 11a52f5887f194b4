"""Session 22 (seeds): one error class per idea, and seeds that reproduce, across the
three games (docs/decisions.md, "One seed rule for every game")."""

from __future__ import annotations

import pytest

from crowns_solver.cross_kings.players import make_player
import crowns_solver.five_crowns as fc
import crowns_solver.kings_crowns as kc
from crowns_solver.errors import PolicyError, PolicySpecError, RulesError


# ------------------------------------------------------------ an unknown policy: PolicyError
@pytest.mark.parametrize("bad", [
    lambda: kc.get_policy("foo"),
    lambda: kc.get_policy("lookahead:samples=0"),
    lambda: kc.get_policy("greedy:samples=2"),
    lambda: kc.get_policy(5),
    lambda: kc.Game(2, seed=1).play_out("foo"),
    lambda: kc.Game(2, seed=1).play_out(["greedy"] * 3),
    lambda: kc.simulate(2, players=2, policies="foo", workers=1),
])
def test_a_bad_kings_crowns_policy_is_a_policy_error_and_still_a_rules_error(bad):
    # it was a RulesError only; Five Crowns and Cross Kings say PolicyError
    with pytest.raises(PolicyError) as info:
        bad()
    assert isinstance(info.value, RulesError) and isinstance(info.value, PolicySpecError)


def test_an_unknown_policy_is_a_policy_error_in_all_three_games():
    for unknown in (lambda: kc.get_policy("foo"), lambda: fc.get_policy("foo"),
                    lambda: make_player("foo")):
        with pytest.raises(PolicyError, match="foo"):
            unknown()


# ------------------------------------------------------------ Five Crowns: the record replays
import copy  # noqa: E402
import json  # noqa: E402

import numpy as np  # noqa: E402

from crowns_solver.errors import PositionError, RecordError  # noqa: E402
from crowns_solver.five_crowns import GameRules  # noqa: E402

SHORT = GameRules(players=3, rounds=3)


def test_a_seed_sequence_game_saves_its_seed_and_reruns_to_the_same_record(tmp_path):
    # the probe's reproduction: the record said "seed": null and rerun raised "no seed"
    game = fc.play_game(["greedy"] * 3, seed=np.random.SeedSequence(5, spawn_key=(2, 7)), rules=SHORT)
    assert game.record["seed"] == {"entropy": 5, "spawn_key": [2, 7]}
    path = tmp_path / "s.json"
    game.save(path)
    again = fc.replay(path, rerun=True)
    assert again.record == game.record and again == game
    assert (again.seed.entropy, again.seed.spawn_key) == (5, (2, 7))
    # a list entropy and a pool size other than NumPy's 4 come back too
    odd = fc.play_game(["random"] * 3, seed=np.random.SeedSequence([3, 1], pool_size=8), rules=SHORT)
    assert odd.record["seed"] == {"entropy": [3, 1], "spawn_key": [], "pool_size": 8}
    assert fc.replay(json.loads(json.dumps(odd.record)), rerun=True).record == odd.record


def test_the_same_seed_sequence_given_twice_plays_the_same_game():
    # play_game spawned the decks and seats from the caller's object: the second game
    # from it was another game
    ss = np.random.SeedSequence(11)
    first = fc.play_game(["greedy", "random", "greedy"], seed=ss, rules=SHORT)
    second = fc.play_game(["greedy", "random", "greedy"], seed=ss, rules=SHORT)
    assert second.record == first.record
    assert ss.n_children_spawned == 0
    # a SeedSequence of entropy 11 is the seed 11
    assert fc.play_game(["greedy", "random", "greedy"], seed=11, rules=SHORT).record["rounds"] == first.record["rounds"]


def test_a_generator_or_no_seed_records_a_number_that_replays():
    rng = np.random.default_rng(4)
    game = fc.play_game(["greedy"] * 3, seed=rng, rules=SHORT)
    assert isinstance(game.seed, int) and game.record["seed"] == game.seed and game.seed.bit_length() > 64
    assert fc.play_game(["greedy"] * 3, seed=game.seed, rules=SHORT).record == game.record
    assert fc.replay(game.record, rerun=True).record == game.record
    # the generator advanced: another game from it is another game
    assert fc.play_game(["greedy"] * 3, seed=rng, rules=SHORT).seed != game.seed
    fresh = fc.play_game(["greedy"] * 3, seed=None, rules=SHORT)
    assert fc.replay(fresh.record, rerun=True).record == fresh.record


def test_a_game_of_a_simulate_run_is_played_again_from_game_seed_and_reruns():
    from crowns_solver.five_crowns.simulation import simulate

    rules = GameRules(players=2, rounds=3)
    df = simulate(5, players=2, policies=["greedy", "random"], seed=4, rules=rules, workers=1, chunk_size=2,
                  rotate=True)
    for g in range(5):
        rows = df[df["game"] == g]
        game = fc.play_game(rows["policy"].tolist(),
                            seed=fc.game_seed(df.attrs["seed"], g, chunk_size=df.attrs["chunk_size"]), rules=rules)
        assert list(game.totals) == rows["total"].tolist()
        assert game.record["seed"] == {"entropy": 4, "spawn_key": [g // 2, g % 2]}
        assert fc.replay(game.record, rerun=True).record == game.record
    # duplicate runs: every rotation of deal d is played from game_seed(s, d)
    dup = simulate(2, players=2, policies=["greedy", "random"], seed=4, rules=rules, workers=1, duplicate=True)
    for _, row in dup.iterrows():
        seating = [("greedy", "random")[(s + row["rotation"]) % 2] for s in range(2)]
        game = fc.play_game(seating, seed=fc.game_seed(4, row["deal"]), rules=rules)
        assert game.totals[row["seat"]] == row["total"]


def test_game_seed_refuses_what_is_not_a_seed():
    assert fc.game_seed(1, 205).spawn_key == (2, 5)
    for kwargs, name in [({"seed": -1, "game": 0}, "seed"), ({"seed": 1, "game": 1.5}, "game"),
                         ({"seed": 1, "game": 0, "chunk_size": 0}, "chunk_size")]:
        with pytest.raises(RulesError, match=f"^{name} must be a whole number"):
            fc.game_seed(**kwargs)


def test_replay_checks_the_decks_against_a_seed_sequence_and_names_a_bad_seed_field():
    game = fc.play_game(["greedy"] * 3, seed=np.random.SeedSequence(5, spawn_key=(1,)), rules=SHORT)
    other = {**copy.deepcopy(game.record), "seed": {"entropy": 5, "spawn_key": [2]}}
    with pytest.raises(RecordError, match=r"the deck is not the one seed SeedSequence\(5, spawn_key=\(2,\)\) deals"):
        fc.replay(other)
    for seed, message in [
        ({"entropy": 5, "spawn_key": [-1]}, "spawn_key must be a list of whole numbers >= 0, got \\[-1\\]"),
        ({"entropy": "5", "spawn_key": []}, "entropy must be a whole number >= 0 or a list of them, got '5'"),
        ({"entropy": [], "spawn_key": []}, "entropy must be"),
        ({"spawn_key": []}, "entropy must be"),
        ({"entropy": 5, "spawn_key": [], "pool_size": 2}, "pool_size must be a whole number 4..1024, got 2"),
        ({"entropy": 5, "spawn_key": [], "n_children_spawned": 2}, "unknown field 'n_children_spawned'"),
        ([5], "'seed' must be a whole number >= 0, .*got \\[5\\]"),
    ]:
        with pytest.raises(RecordError, match=message):
            fc.replay({**copy.deepcopy(game.record), "seed": seed})
    # a record saved before session 22 ("seed": null) still replays, without rerun
    old = {**copy.deepcopy(game.record), "seed": None}
    assert fc.replay(old).totals == game.totals
    with pytest.raises(RecordError, match="no seed"):
        fc.replay(old, rerun=True)


def test_the_replay_command_checks_and_reruns_a_seed_sequence_record(tmp_path, capsys):
    from conftest import run_cli

    path = tmp_path / "s.json"
    fc.play_game(["greedy"] * 3, seed=np.random.SeedSequence(5), rules=SHORT).save(path)
    code, out, err = run_cli(capsys, "five-crowns", "replay", str(path), "--rerun")
    assert (code, err) == (0, "")
    assert out.splitlines()[0].startswith("seed SeedSequence(5, spawn_key=()), 3 players, 1 set")
    assert "every deck is the one seed SeedSequence(5, spawn_key=()) deals" in out
    assert out.splitlines()[-1] == "rerun: greedy, greedy, greedy with seed SeedSequence(5, spawn_key=()) make every recorded choice"
    code, out, err = run_cli(capsys, "five-crowns", "replay", str(path), "--json")
    data = json.loads(out)
    assert (code, data["seed"], data["decks_checked_against_seed"]) == (0, {"entropy": 5, "spawn_key": []}, True)


# ------------------------------------------------------------ King's Crowns and Cross Kings
def test_a_kings_crowns_game_seeded_by_a_generator_records_a_seed_that_replays():
    # g.seed was the Generator itself, which had moved on: Game(n, seed=g.seed) was another game
    g = kc.Game(3, seed=np.random.default_rng(1)).play_out("greedy")
    assert isinstance(g.seed, int)
    again = kc.Game(3, seed=g.seed).play_out("greedy")
    assert again.log == g.log and again.scores == g.scores
    ss = np.random.SeedSequence(3, spawn_key=(4,))
    one, two = kc.Game(3, seed=ss).play_out("greedy"), kc.Game(3, seed=ss).play_out("greedy")
    assert one.log == two.log and one.seed is ss


@pytest.mark.parametrize("seed, message", [
    (-1, "seed must be a whole number >= 0, got -1"),
    (1.5, "seed must be a whole number >= 0, a numpy SeedSequence or Generator, or None, got 1.5"),
    ("x", "seed must be a whole number >= 0, a numpy SeedSequence or Generator, or None, got 'x'"),
    (True, "seed must be a whole number >= 0, a numpy SeedSequence or Generator, or None, got True"),
])
def test_every_game_refuses_a_bad_seed_in_the_same_words(seed, message):
    from crowns_solver.cross_kings import Deal

    for make, error in [(lambda: fc.play_game(["greedy"] * 2, seed=seed), RulesError),
                        (lambda: kc.Game(2, seed=seed), RulesError),
                        (lambda: Deal.random(seed), PositionError)]:
        with pytest.raises(error) as info:
            make()
        assert str(info.value) == message


def test_every_game_takes_the_four_kinds_of_seed_the_same_way():
    from crowns_solver.cross_kings import Deal

    ss = np.random.SeedSequence(8)
    # a whole number and a SeedSequence: the same result each time (the object is not used up)
    assert Deal.random(ss) == Deal.random(ss) == Deal.random(8) == Deal.random(np.int64(8))
    assert kc.Game(2, seed=ss).state() == kc.Game(2, seed=8).state()
    assert fc.play_game(["random"], seed=ss, rules=GameRules(players=1, rounds=1)).record["rounds"] == \
        fc.play_game(["random"], seed=8, rules=GameRules(players=1, rounds=1)).record["rounds"]
    # a Generator advances: two results from one generator differ
    rng = np.random.default_rng(8)
    assert Deal.random(rng) != Deal.random(rng)
    assert kc.Game(2, seed=rng).seed != kc.Game(2, seed=rng).seed
