"""``match.play_game(..., seed=)`` (session 23): the project's seed rule (crowns_solver._seeds:
a whole number, SeedSequence, Generator or None) for one Cross Kings game, with the
seats' generators derived as ``match`` and ``self_play`` derive them for each deal; the
old ``rngs=`` still works, and matches play exactly the games they played before.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from crowns_solver.cross_kings import Deal
from crowns_solver.cross_kings.match import GameRecord, match, play_game, self_play
from crowns_solver.errors import PolicyError, PositionError

DEAL = Deal.random(4)


def history(g: GameRecord) -> tuple:
    return g.position.start, g.position.history


def by_rngs(deal, first, second, seq: np.random.SeedSequence) -> GameRecord:
    """The derivation written out: the seats play from children 1 and 2 of spawn(3)."""
    _, a, b = seq.spawn(3)
    return play_game(deal, first, second, rngs=(np.random.default_rng(a), np.random.default_rng(b)))


def match_deal(seed: int, d: int) -> Deal:
    """Deal d of a match or self-play run with root seed `seed` (child 0 of SeedSequence([seed, d]))."""
    return Deal.random(np.random.default_rng(np.random.SeedSequence([seed, d]).spawn(3)[0]))


# ----------------------------------------------------------------------------- same seed, same game


def test_same_seed_same_game_and_the_seed_is_kept():
    for seed in (0, 7, 2**100, np.uint32(7), np.random.SeedSequence([3, 1])):
        a = play_game(DEAL, "random", "random", seed=seed)
        b = play_game(DEAL, "random", "random", seed=seed)
        assert history(a) == history(b) and a.scores == b.scores
        assert history(a) == history(by_rngs(DEAL, "random", "random", np.random.SeedSequence(a.seed)
                                             if isinstance(a.seed, int) else a.seed))
    assert play_game(DEAL, "random", "random", seed=np.uint32(7)).seed == 7 == \
        play_game(DEAL, "random", "random", seed=7).seed


def test_a_seed_sequence_is_not_spawned_from():
    seq = np.random.SeedSequence(11)
    games = [history(play_game(DEAL, "random", "random", seed=seq)) for _ in range(3)]
    assert games[0] == games[1] == games[2] and seq.n_children_spawned == 0


def test_different_seeds_give_different_games():
    # random players: 6 seeds, 6 different games (the chance of a repeat is negligible)
    assert len({history(play_game(DEAL, "random", "random", seed=s)) for s in range(6)}) == 6


@pytest.mark.parametrize("kind", ["generator", "none"])
def test_a_generator_or_none_records_a_seed_that_replays_the_game(kind):
    gen = np.random.default_rng(3)
    g = play_game(DEAL, "random", "random", seed=gen if kind == "generator" else None)
    assert isinstance(g.seed, int) and g.seed >= 0
    assert history(play_game(DEAL, "random", "random", seed=g.seed)) == history(g)
    if kind == "generator":   # the generator advanced: the next game is another one
        assert g.seed != play_game(DEAL, "random", "random", seed=gen).seed


# ----------------------------------------------------------------------------- the match's derivation


def test_a_seed_replays_game_0_of_a_match_deal_and_a_self_play_deal():
    games = match("greedy", "random", deals=3, seed=5).games
    for d in range(3):
        g = play_game(match_deal(5, d), "greedy", "random", seed=np.random.SeedSequence([5, d]))
        row = games[(games.deal == d) & (games.a_seat == "first")].iloc[0]
        assert (g.position.start, *g.scores) == (row.start, row.score_first, row.score_second)
    rows = self_play("random", deals=3, seed=2)
    for d in range(3):
        g = play_game(match_deal(2, d), "random", "random", seed=np.random.SeedSequence([2, d]))
        row = rows[rows.deal == d].iloc[0]
        assert (g.position.start, *g.scores, sum(g.moves)) == (row.start, row.score_first, row.score_second,
                                                                 row.moves)


# Output of main (commit f36cfae, before session 23) for these runs: deal, start, scores, moves.
MAIN_MATCH = [[0, 21, 25, 21, 16, 16], [0, 20, 23, 27, 16, 16], [1, 15, 23, 15, 16, 16],
              [1, 14, 27, 22, 17, 17], [2, 14, 35, 22, 18, 18], [2, 15, 10, 15, 13, 13]]
MAIN_SEARCH_MATCH = [[0, 15, 33, 30, 18, 18], [0, 15, 18, 22, 15, 15], [1, 21, 23, 25, 18, 18],
                     [1, 14, 26, 32, 19, 18]]
MAIN_SELF_PLAY = [[0, 15, 24, 21, 34], [1, 14, 23, 21, 36], [2, 20, 18, 17, 33]]
MAIN_DEFAULT_GAME = (15, (27, 25, 26, 29, 23, 22, 16, 12, 13, 17, 5, 3, 0, 24, 6, 11, 7, 31, 34, 32, 30, 33, 35))
COLUMNS = ["deal", "start", "score_first", "score_second", "moves_a", "moves_b"]


def test_matches_play_the_games_they_played_before():
    assert match("greedy", "random", deals=3, seed=5).games[COLUMNS].values.tolist() == MAIN_MATCH
    assert match("search", "greedy", deals=2, seed=1, a_options={"node_limit": 3000}
                 ).games[COLUMNS].values.tolist() == MAIN_SEARCH_MATCH
    rows = self_play("random", deals=3, seed=2)
    assert rows[["deal", "start", "score_first", "score_second", "moves"]].values.tolist() == MAIN_SELF_PLAY


def test_without_seed_or_rngs_the_game_is_the_old_default():
    g = play_game(DEAL, "random", "greedy")
    assert history(g) == MAIN_DEFAULT_GAME and g.scores == (8, 16) and g.seed is None
    old = play_game(DEAL, "random", "greedy", rngs=(np.random.default_rng(0), np.random.default_rng(1)))
    assert history(old) == MAIN_DEFAULT_GAME and old.seed is None


# ----------------------------------------------------------------------------- bad values


def test_seed_and_rngs_together_are_refused():
    pair = (np.random.default_rng(1), np.random.default_rng(2))
    for seed in (1, None, np.random.SeedSequence(1)):
        with pytest.raises(PositionError, match=r"^give seed or rngs, not both: seed=") as err:
            play_game(DEAL, "random", "random", seed=seed, rngs=pair)
        assert err.value.arguments == ("seed", "rngs")


@pytest.mark.parametrize("bad", [(1, 2), (np.random.default_rng(1), 2), [np.random.SeedSequence(1)] * 2])
def test_rngs_that_are_not_generators_are_refused_naming_the_entry(bad):
    # a seed in the pair reached the players (the built-in ones refused it in their own words)
    k = 0 if not isinstance(bad[0], np.random.Generator) else 1
    with pytest.raises(PolicyError, match=rf"^rngs\[{k}\] must be a numpy Generator"):
        play_game(DEAL, "random", "random", rngs=bad)


def _seed_oracle(value) -> bool:
    """Whether `value` is a seed under crowns_solver._seeds' rule."""
    if value is None or isinstance(value, (np.random.SeedSequence, np.random.Generator)):
        return True
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_)) and value >= 0


SEEDS = st.one_of(
    st.integers(-5, 2**130), st.booleans(), st.floats(allow_nan=True), st.text(max_size=3), st.none(),
    st.builds(np.int64, st.integers(-5, 50)), st.just(np.True_), st.lists(st.integers(0, 3), max_size=2),
    st.builds(np.random.SeedSequence, st.integers(0, 2**64)),
    st.builds(np.random.default_rng, st.integers(0, 2**32)),
    st.tuples(st.integers(0, 3)), st.just(np.float64(3.0)),
)


@given(SEEDS)
def test_random_seeds_follow_the_rule(seed):
    if not _seed_oracle(seed):
        with pytest.raises(PositionError, match=r"^seed must be a whole number >= 0") as err:
            play_game(DEAL, "random", "random", seed=seed)
        assert err.value.arguments == ("seed",)
        return
    g = play_game(DEAL, "random", "random", seed=seed)
    assert g.position.is_terminal() and len(g.position.history) == 36 - g.position.cards_left
    # the recorded seed replays it, by the documented derivation
    assert history(play_game(DEAL, "random", "random", seed=g.seed)) == history(g)
    seq = g.seed if isinstance(g.seed, np.random.SeedSequence) else np.random.SeedSequence(g.seed)
    assert history(by_rngs(DEAL, "random", "random", seq)) == history(g)
    if isinstance(seed, (int, np.integer)):
        assert g.seed == int(seed)
