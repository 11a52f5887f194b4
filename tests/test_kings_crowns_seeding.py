"""King's Crowns: one seed per game (common random numbers across rule variants and players).

Game g of a run with root seed s is played from SeedSequence([s, g]) alone, so a change
that alters some games leaves the others identical, every variant deals game g from the
same shuffled deck, and results do not depend on the chunk size.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from crowns_solver import _kc_engine
from crowns_solver.errors import ResultsFileError, RulesError
from crowns_solver.kings_crowns import Game, Policy, Rules, get_policy
from crowns_solver.kings_crowns.simulation import SEEDING, game_seed, play_chunk, simulate

OLD_FILE = Path(__file__).parent / "kings_crowns_results_before_per_game_seeding.jsonl"


def _words(n: int) -> list[int]:
    out = []
    while n:
        out.append(n & 0xFFFFFFFF)
        n >>= 32
    return out or [0]


@pytest.mark.parametrize("root", [[0], [1], [2**32 + 7], [2**100 + 3], [3, 4], [123456789012345678901234567890]])
@pytest.mark.parametrize("game", [0, 1, 999, 2**32 - 1, 2**32, 2**40 + 5])
def test_compiled_per_game_stream_is_numpys_pcg64_of_the_games_seed_sequence(root, game):
    """The fast path seeds each game's PCG64 in C; its 32-bit words must be NumPy's
    (PCG64 hands out the low then the high half of each 64-bit output)."""
    raw = np.random.PCG64(np.random.SeedSequence([*root, game])).random_raw(6)
    expected = [w for v in raw.tolist() for w in (v & 0xFFFFFFFF, v >> 32)]
    words = np.array([w for r in root for w in _words(r)], dtype=np.uint32)
    assert _kc_engine.game_stream(words, game, 12) == expected


def test_game_seed_is_the_root_seed_and_the_game_number():
    assert game_seed(7, 3).entropy == [7, 3]
    assert game_seed(np.random.SeedSequence(7, spawn_key=(5,)), 3).entropy == [7, 3]  # the runner's chunk seed
    assert game_seed(np.random.SeedSequence([1, 2]), 0).entropy == [1, 2, 0]
    for bad_seed in (-1, 1.5, "3", True, None):
        with pytest.raises(RulesError, match="seed must be"):
            game_seed(bad_seed, 0)
    for bad_game in (-1, 2.0, "1"):
        with pytest.raises(RulesError, match="game must be a whole number >= 0"):
            game_seed(0, bad_game)


def test_a_run_plays_game_g_from_game_seed_on_both_engines():
    """Game g of simulate() is the game Game(seed=game_seed(s, g)) plays, move by move."""
    pols = ["aggressive", "greedy", "random"]
    df = simulate(25, players=3, policies=pols, seed=11, workers=1, chunk_size=7)
    for g in (0, 6, 7, 24):
        game = Game(3, seed=game_seed(11, g)).play_out(pols)
        row = df.iloc[g]
        assert row["game"] == g
        assert row["turns"] == game.turn
        assert row["winner"] == (-1 if game.winner is None else game.winner)
        assert [row[f"crowns_{s}"] for s in range(3)] == list(game.scores)


def test_results_do_not_depend_on_the_chunk_size():
    kw = dict(players=4, policies=["greedy", "aggressive", "defensive", "random"], rotate=True, seed=4, workers=1)
    one = simulate(60, chunk_size=1000, **kw)
    many = simulate(60, chunk_size=7, **kw)
    cols = [c for c in one.columns]
    assert one[cols].equals(many[cols])
    assert one["turns"].nunique() > 10  # real, varied games


def test_a_higher_turn_cap_changes_only_the_games_that_reached_the_lower_one():
    """The probe's case: 300 aggressive 4-player games, seed 2, turn cap 2000 vs 5000.
    With one stream per chunk every game after the first capped one changed; now only
    the capped games may differ."""
    kw = dict(players=4, policies="aggressive", seed=2, workers=1)
    low = simulate(300, rules=Rules(max_turns=2000), **kw)
    high = simulate(300, rules=Rules(max_turns=5000), **kw)
    capped = (low["turns"] == 2000).to_numpy()
    assert 0 < capped.sum() < 300  # the change does affect some games (else the test says nothing)
    assert (low.loc[capped, "ended"] == "stalemate").all()
    assert (high.loc[capped, "turns"] > 2000).any()
    assert low[~capped].equals(high[~capped])
    # the capped games were the same games up to the cap: they go on past it under 5000
    assert (high.loc[capped, "turns"] >= 2000).all()


class _DealRecorder(Policy):
    """Wraps a built-in policy (so the run takes the move-by-move Game path) and records,
    for each game, the first hand seat 0 holds and the discard top when it first moves."""

    def __init__(self, inner: str, seen: list):
        self.inner = get_policy(inner)
        self.name = "rec-" + self.inner.name
        self.seen = seen

    def choose_draw(self, view, rng):
        if view.seat == 0 and view.turn == 0:
            self.seen.append((tuple(view.hand), view.discard_top))
        return self.inner.choose_draw(view, rng)

    def choose_play(self, view, rng):
        return self.inner.choose_play(view, rng)


def test_every_set_of_players_gets_the_same_deal_in_game_g():
    """Two comparisons of players on the same seed: game g starts from the same shuffled
    deck (seat 0's first hand and the first discard are the same), whatever is played."""
    params = dict(players=2, rules=Rules().to_dict(), rotate=False, chunk_size=20)
    seed = np.random.SeedSequence(8, spawn_key=(1,))
    deals = {}
    for pair in (("greedy", "aggressive"), ("random", "defensive")):
        seen: list = []
        objects = [_DealRecorder(p, seen) for p in pair]
        play_chunk(1, 20, seed, policies=[o.name for o in objects], objects=objects, **params)
        deals[pair] = seen
    a, b = deals.values()
    assert len(a) == 20 and a == b
    assert len(set(a)) == 20  # twenty different deals, not one repeated
    # and it is the deal Game makes from game_seed(seed, 20 + j)
    start = Game(2, seed=game_seed(8, 20 + 3)).view(0)
    assert a[3] == (tuple(start.hand), start.discard_top)


def test_play_chunk_refuses_another_seeding():
    params = dict(players=2, policies=["greedy", "greedy"], rules=Rules().to_dict(), rotate=False, chunk_size=5)
    with pytest.raises(RulesError, match="seeding must be 'per-game'.*got 'chunk-stream'"):
        play_chunk(0, 5, np.random.SeedSequence(0, spawn_key=(0,)), seeding="chunk-stream", **params)
    assert SEEDING == "per-game"
    huge = np.random.SeedSequence(2 ** 4000)
    with pytest.raises(RulesError, match="at most 2048 bits"):
        play_chunk(0, 5, huge, **params)


def test_results_file_records_the_seeding(tmp_path):
    out = tmp_path / "r.jsonl"
    simulate(10, players=2, policies="greedy", seed=1, workers=1, out=out)
    head = json.loads(out.read_text().splitlines()[0])
    assert head["meta"]["params"]["seeding"] == "per-game"


def _old_run_args():
    """The run that made OLD_FILE with the library before per-game seeding (session 18,
    main at 6c02edf): ``crowns kings-crowns simulate --games 40 --players 2 --policy
    greedy aggressive --rotate --seed 3 --chunk-size 10 --workers 1 --out FILE``, cut to
    its first two chunks as an interrupted run leaves it."""
    return dict(players=2, policies=["greedy", "aggressive"], rotate=True, seed=3, chunk_size=10, workers=1)


def test_resuming_a_file_made_before_per_game_seeding_is_refused(tmp_path):
    out = tmp_path / "old.jsonl"
    shutil.copy(OLD_FILE, out)
    before = out.read_bytes()
    head = json.loads(before.splitlines()[0])
    assert "seeding" not in head["meta"]["params"]  # really an old file
    with pytest.raises(ResultsFileError, match='different params: seeding is absent there, "per-game" now'):
        simulate(40, out=out, **_old_run_args())
    assert out.read_bytes() == before  # nothing the user gave is overwritten


def test_cli_refuses_to_resume_an_old_file_in_one_line(tmp_path):
    out = tmp_path / "old.jsonl"
    shutil.copy(OLD_FILE, out)
    before = out.read_bytes()
    proc = subprocess.run(
        [sys.executable, "-m", "crowns_solver", "kings-crowns", "simulate", "--games", "40", "--players", "2",
         "--policy", "greedy", "aggressive", "--rotate", "--seed", "3", "--chunk-size", "10", "--workers", "1",
         "--out", str(out)],
        capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr
    assert "seeding is absent there" in lines[0] and "old.jsonl" in lines[0]
    assert out.read_bytes() == before
