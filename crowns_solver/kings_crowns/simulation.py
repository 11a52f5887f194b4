"""King's Crowns Monte Carlo simulations (through :mod:`crowns_solver.montecarlo`)."""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .. import montecarlo
from .._checks import check_flag
from .._checks import check_whole_number
from .._native import load
from ..errors import PolicySpecError, RulesError
from .game import Game
from .policies import POLICY_NAMES, BuiltinPolicy, LookaheadPolicy, Policy, get_policy
from .rules import Rules, check_players

_core = load("_kc_engine")

__all__ = ["simulate", "win_rates", "play_chunk", "seat_policies", "game_seed", "SEEDING"]

GAME = "kings-crowns"

#: How the games of a run are seeded, recorded in the ``params`` of a results file so
#: that a file begun under another scheme (before session 18 every game of a chunk drew
#: from one stream) is never resumed with this one: the runner compares params on resume.
SEEDING = "per-game"

#: Root seeds are below this: the compiled engine reads at most MAX_SEED_WORDS 32-bit words.
_SEED_LIMIT = 2 ** (32 * _core.MAX_SEED_WORDS)


def _entropy_list(seed: np.random.SeedSequence) -> list[int]:
    entropy = seed.entropy
    if isinstance(entropy, (int, np.integer)):
        return [int(entropy)]
    return [int(e) for e in np.atleast_1d(np.asarray(entropy, dtype=object))]


def _words(values: list[int]) -> np.ndarray:
    """The uint32 words numpy's SeedSequence reads from a list of whole numbers (each
    number's words, least significant first; 0 is one word)."""
    out: list[int] = []
    for v in values:
        if v < 0:
            raise RulesError(f"a seed's entropy must be whole numbers >= 0, got {v}")
        w = [] if v else [0]
        while v:
            w.append(v & 0xFFFFFFFF)
            v >>= 32
        out += w
    if len(out) > _core.MAX_SEED_WORDS:
        raise RulesError(f"a seed's entropy may hold at most {32 * _core.MAX_SEED_WORDS} bits, got {32 * len(out)}")
    return np.asarray(out, dtype=np.uint32)


def game_seed(seed: np.random.SeedSequence | int, game: int) -> np.random.SeedSequence:
    """The seed of game number `game` of a King's Crowns run.

    Game ``g`` of a run with root seed ``s`` is played from
    ``SeedSequence([s, g])``: its deal, every reshuffle and every random choice of its
    built-in players come from ``Generator(PCG64(SeedSequence([s, g])))`` and from
    nothing else.  So a game depends only on the root seed, its number and what is
    played in it, not on the other games of the run or on the chunk size, and two runs
    with the same seed (two rule variants, two sets of players) deal game ``g`` from
    the same shuffled deck.

    Parameters
    ----------
    seed : SeedSequence or int
        The run's root seed, or a chunk's seed from the runner (only its entropy, the
        root seed, is used: ``SeedSequence(s, spawn_key=(i,))`` gives ``s``).  A
        SeedSequence whose entropy is a list ``[a, b]`` gives ``SeedSequence([a, b, g])``.
    game : int
        The game's number within the run (0-based), a whole number >= 0.

    Returns
    -------
    numpy.random.SeedSequence
        Pass it to :class:`~crowns_solver.kings_crowns.Game` (``seed=``) to replay the
        game move by move.

    Raises
    ------
    RulesError
        If `seed` is not a whole number >= 0 or a SeedSequence, or `game` is not a whole
        number >= 0.

    Examples
    --------
    >>> game_seed(7, 3).entropy
    [7, 3]
    """
    if isinstance(seed, np.random.SeedSequence):
        root = _entropy_list(seed)
    elif isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise RulesError(f"seed must be a whole number >= 0 or a numpy SeedSequence, got {seed!r}")
    else:
        root = [int(seed)]
    game = check_whole_number("game", game, 0, error=RulesError)
    return np.random.SeedSequence([*root, game])


def seat_policies(policies: Sequence[str], players: int, game: int, rotate: bool) -> list[str]:
    """The policy of each seat in game number `game`: ``policies`` in seat order, or,
    when `rotate`, shifted one seat to the left each game (policy i sits at seat
    ``(i + game) % players``), so over any `players` consecutive games every policy
    plays every seat once.

    Parameters
    ----------
    policies : sequence of str
        One policy name per seat.
    players : int
        Number of seats (``len(policies)``).
    game : int
        The game's number in the run (0, 1, ...).
    rotate : bool
        Whether the seating rotates from game to game.

    Returns
    -------
    list of str
        The policy name of each seat, seat 0 first.
    """
    if not rotate:
        return list(policies)
    return [policies[(s - game) % players] for s in range(players)]


def _resolve(policies: Sequence[str | Policy] | str | Policy | None, players: int) -> list[Policy]:
    if policies is None:
        policies = ["greedy"]
    if isinstance(policies, (str, Policy)):
        policies = [policies]
    if not isinstance(policies, (list, tuple)):
        raise PolicySpecError(f"policies must be a policy name, a Policy, or a list of them (one per seat), got {policies!r}")
    pols = [get_policy(p) for p in policies]
    kinds: dict[str, type] = {}
    for p in pols:
        if type(p) not in (BuiltinPolicy, LookaheadPolicy):
            _check_custom_name(p)
            other = kinds.setdefault(p.name, type(p))
            if other is not type(p):
                # two players under one name: tables would merge their seats and wins
                raise PolicySpecError(f"two different custom policies ({other.__name__} and {type(p).__name__}) are both"
                                      f" named {p.name!r}: results record players by name; give each its own")
    if len(pols) == 1:
        pols = pols * players
    if len(pols) != players:
        raise PolicySpecError(f"give one policy, or one per seat ({players}); got {len(pols)}")
    return pols


def _check_custom_name(policy: Policy) -> None:
    """Raise PolicySpecError unless a custom policy's name is a printable string of its own.

    Results record each seat's player by name, and a resume compares the names: a custom
    policy named like a built-in one (``"greedy"``, any letter case, or ``"lookahead:..."``)
    had its games recorded as the built-in player's, so the built-in player resumed its
    results file and tables credited the built-in player with its wins (probe 19).
    """
    from .._checks import control_char

    name = getattr(policy, "name", None)
    if not isinstance(name, str) or not name.strip() or control_char(name) is not None:
        raise PolicySpecError(f"a custom policy's name must be a non-empty printable string (results tables record"
                              f" each seat's player by it), got {name!r} for {type(policy).__name__}")
    if name.strip().lower().partition(":")[0] in POLICY_NAMES:
        raise PolicySpecError(f"the custom policy's name {name!r} is the built-in {name.strip().lower().partition(':')[0]}"
                              f" player's: results record players by name, so its games would count as that player's"
                              f" and a run of it could resume the other's results file; give {type(policy).__name__}"
                              f" a name of its own")


def play_chunk(chunk_index: int, n_games: int, seed: np.random.SeedSequence, *, players: int,
               policies: list[str], rules: dict[str, Any], rotate: bool, chunk_size: int,
               seeding: str = SEEDING, objects: list[Policy] | None = None) -> pd.DataFrame:
    """Play one chunk of King's Crowns games (the runner's chunk function).

    Game ``j`` of the chunk is game ``g = chunk_index * chunk_size + j`` of the run and
    has its own generator, ``Generator(PCG64(game_seed(seed, g)))`` (see
    :func:`game_seed`: only `seed`'s entropy, the run's root seed, is used), so the
    games do not depend on the chunk size or on one another.  Built-in policies play on
    the compiled fast path (whole games in C, which seeds each game's PCG64 itself, bit
    for bit as NumPy does); any other policy plays through :class:`Game`, move by move.
    Both give the same games for the same seed.

    Parameters
    ----------
    chunk_index, n_games, seed
        The chunk's number, its games, and its seed from the runner.
    players, policies, rules, rotate, chunk_size
        As recorded by :func:`simulate` (rules as a dict).
    seeding : str
        The seeding scheme, :data:`SEEDING` (``"per-game"``, the only one); recorded in
        the results file's params so a file of another scheme is not resumed.
    objects : list of Policy, optional
        The policy objects, when some are not built in.

    Returns
    -------
    DataFrame
        One row per game: ``players``, ``policy_<s>``, ``winner`` (seat, -1 at the turn
        cap), ``winner_policy``, ``turns``, ``ended`` (``"target"``/``"stalemate"``),
        ``crowns_<s>`` (crown points of each seat), ``reshuffles``.

    Raises
    ------
    RulesError
        If `seeding` is not :data:`SEEDING`, or `seed`'s entropy holds more than 2048
        bits (the compiled engine's limit; the runner's seeds are the root seed).
    """
    if seeding != SEEDING:
        raise RulesError(f"seeding must be {SEEDING!r} (each game seeded from the root seed and its number),"
                         f" got {seeding!r}")
    rules_obj = Rules.from_dict(rules)
    pols: list[Policy] = list(objects) if objects is not None else [get_policy(p) for p in policies]
    names = [str(p) for p in pols]
    target = rules_obj.target_for(players)
    root = _entropy_list(seed)
    root_words = _words(root)  # checked before either path plays
    first = chunk_index * chunk_size
    seats = [seat_policies(list(range(players)), players, first + g, rotate) for g in range(n_games)]
    la_params = {p.lookahead_params for p in pols if isinstance(p, LookaheadPolicy) or (isinstance(p, BuiltinPolicy) and p.kind == "lookahead")}
    fast = all(type(p) in (BuiltinPolicy, LookaheadPolicy) for p in pols) and len(la_params) <= 1
    winner = np.full(n_games, -1, dtype=np.int8)
    turns = np.zeros(n_games, dtype=np.int32)
    scores = np.zeros((n_games, players), dtype=np.int16)
    reshuffles = np.zeros(n_games, dtype=np.int32)
    if fast:
        ids = np.array([[pols[i].policy_id for i in row] for row in seats], dtype=np.int8).reshape(n_games, players)  # type: ignore[attr-defined]
        la = next(iter(la_params)) if la_params else (64, 20, _core.POLICY_IDS["aggressive"])
        deck = np.asarray(rules_obj.deck.counts, dtype=np.int32)
        _core.play_games(n_games, deck, players, target, rules_obj.max_turns, ids, None, la,
                         winner, turns, scores, reshuffles, root=root_words, first_game=first)
    else:
        for g in range(n_games):
            game = Game(players, rules_obj, np.random.SeedSequence([*root, first + g]))
            game.play_out([pols[i] for i in seats[g]])
            winner[g] = -1 if game.winner is None else game.winner
            turns[g] = game.turn
            scores[g] = game.scores
            reshuffles[g] = game.state()["reshuffles"]
    cols: dict[str, Any] = {"players": np.full(n_games, players, dtype=np.int64)}
    for s in range(players):
        cols[f"policy_{s}"] = [names[row[s]] for row in seats]
    cols["winner"] = winner.astype(np.int64)
    cols["winner_policy"] = [names[seats[g][w]] if w >= 0 else None for g, w in enumerate(winner)]
    cols["turns"] = turns.astype(np.int64)
    cols["ended"] = np.where(winner >= 0, "target", "stalemate")
    for s in range(players):
        cols[f"crowns_{s}"] = scores[:, s].astype(np.int64)
    cols["reshuffles"] = reshuffles.astype(np.int64)
    return pd.DataFrame(cols)


def simulate(
    games: int,
    *,
    players: int = 4,
    policies: Sequence[str | Policy] | str | Policy | None = None,
    rules: Rules | None = None,
    seed: int = 0,
    rotate: bool = False,
    executor: Executor | None = None,
    workers: int | None = None,
    progress: bool = False,
    out: str | Path | None = None,
    chunk_size: int = montecarlo.DEFAULT_CHUNK_SIZE,
) -> pd.DataFrame:
    """Play many King's Crowns games between computer players and tabulate them.

    Parameters
    ----------
    games : int
        Number of games.
    players : int
        2..5 (default 4).
    policies : str, Policy or sequence, optional
        One policy for every seat, or one per seat in seat order (seat 0 starts).  Names:
        random, greedy (default), aggressive, defensive, lookahead (see
        :mod:`~crowns_solver.kings_crowns.policies`); custom :class:`Policy` objects must
        be picklable for worker processes and have a printable name of their own (not a
        built-in player's).
    rules : Rules, optional
        Target, turn cap, deck (default: RULES.md's).  A target equal to the rule's own
        for `players` (100, 75 with five) is recorded as the rule's (``null``), as if not
        given: the same games, so a results file resumes either way.
    seed : int
        Root seed, a whole number from 0 to ``2**2048 - 1`` (the compiled engine's limit).
        Game ``g`` is played from ``SeedSequence([seed, g])`` (its own
        generator, :func:`game_seed`), so the table is identical whatever the executor,
        the number of workers or the chunk size, and runs that differ only in rules or
        players deal game ``g`` from the same shuffled deck (common random numbers).
    rotate : bool
        Rotate the policies one seat to the left each game (fair comparisons: every
        policy plays every seat equally often when `games` is a multiple of `players`).
        True or False (a NumPy bool too); anything else is refused.
    executor, workers, progress, out, chunk_size
        Passed to :func:`crowns_solver.montecarlo.run` (any Executor, default a process
        pool over all cores; a progress bar; a resumable JSON-lines results file; games
        per chunk, default 1000; the games do not depend on it, so a results file made
        with another chunk size is resumed with its own).

    Returns
    -------
    DataFrame
        One row per game: ``game``, ``players``, ``policy_<seat>``, ``winner`` (seat, -1
        for a stalemate), ``winner_policy``, ``turns`` (turns over all seats),
        ``ended`` (``"target"`` or ``"stalemate"``), ``crowns_<seat>`` and
        ``reshuffles``.  ``attrs`` records the game, seed, chunk size, version, rules
        and parameters.

    Raises
    ------
    RulesError
        If `players` is not 2..5, the target exceeds the deck's crown points, `rotate`
        is not True or False, or `seed` is ``2**2048`` or more.
    PolicySpecError
        (a PolicyError and a RulesError) If `policies` is not a name, a Policy or a list
        of them, a policy is unknown, a custom policy's name is not a printable string or
        is a built-in player's (``"greedy"``...: results record players by name), or the
        number of policies is neither 1 nor `players`.
    DeckError
        If the deck is too small to deal `players` hands.
    RunnerError, ResultsFileError
        See :func:`crowns_solver.montecarlo.run`.

    Examples
    --------
    >>> df = simulate(400, policies=["greedy", "aggressive"], players=2, rotate=True, workers=1)
    >>> win_rates(df, by="policy")  # doctest: +SKIP
    """
    players = check_players(players)
    # bool("no") is True: a string or a number rotated the seats silently (probe 19)
    rotate = check_flag("rotate", rotate, RulesError)
    if isinstance(seed, numbers.Integral) and not isinstance(seed, bool) and seed >= _SEED_LIMIT:
        # checked here, before the results file is begun, naming the argument (it was the
        # first chunk's "a seed's entropy may hold at most 2048 bits")
        raise RulesError(f"seed must be below 2**{_SEED_LIMIT.bit_length() - 1} (the compiled engine seeds each"
                         f" game from at most that many bits), got a number of {int(seed).bit_length()} bits",
                         argument="seed")
    rules = Rules() if rules is None else rules
    if not isinstance(rules, Rules):
        raise RulesError(f"rules must be a Rules, got {type(rules).__name__}")
    rules.check(players)
    if rules.target is not None and rules.target == dataclasses.replace(rules, target=None).target_for(players):
        # the rule's own target (100, 75 with five), named or not, plays the same games:
        # record it one way, so that a run resumes whether or not it was named (probe 19:
        # --target 100 refused a default run's file, "rules.target is null there, 100 now")
        rules = dataclasses.replace(rules, target=None)
    pols = _resolve(policies, players)
    names = [str(p) for p in pols]
    custom = [p for p in pols if type(p) not in (BuiltinPolicy, LookaheadPolicy)]
    chunk_size = check_whole_number("chunk_size", chunk_size, 1)   # as montecarlo.run checks it
    # the games do not depend on the chunk size (game_seed; tested): a results file made
    # with another one is resumed with its own (until session 20 it was refused)
    chunk_size = montecarlo._resume_chunk_size(out, GAME, chunk_size)
    params: dict[str, Any] = {
        "players": players,
        "policies": names,
        "rules": rules.to_dict(),
        "rotate": bool(rotate),
        "chunk_size": chunk_size,
        "seeding": SEEDING,
    }
    run_params = dict(params)
    if custom:
        run_params["objects"] = pols
    meta = {"game": GAME, "rules": rules.to_dict(), "target": rules.target_for(players)}
    if custom:
        # custom objects are not JSON: record their names, pass the objects separately
        return montecarlo.run(
            _CustomChunk(pols), games, params=params, seed=seed, chunk_size=chunk_size,
            executor=executor, workers=workers, progress=progress, out=out, meta=meta,
        )
    return montecarlo.run(
        play_chunk, games, params=params, seed=seed, chunk_size=chunk_size, executor=executor,
        workers=workers, progress=progress, out=out, meta=meta,
    )


class _CustomChunk:
    """play_chunk with the policy objects bound (picklable when the policies are)."""

    #: recorded as the chunk function's name (the results are play_chunk's)
    record_name = f"{__name__}.play_chunk"

    def __init__(self, pols: list[Policy]) -> None:
        self.pols = pols

    def __call__(self, chunk_index: int, n_games: int, seed: np.random.SeedSequence, **params: Any) -> pd.DataFrame:
        return play_chunk(chunk_index, n_games, seed, objects=self.pols, **params)


def win_rates(results: pd.DataFrame, by: str = "seat") -> pd.DataFrame:
    """Win rates by seat or by policy with 95% Wilson confidence intervals.

    Parameters
    ----------
    results : DataFrame
        A table from :func:`simulate` (or :func:`crowns_solver.montecarlo.read_results`).
    by : {"seat", "policy"}
        Group by seat (0 starts) or by policy (over every seat it occupied).

    Returns
    -------
    DataFrame
        ``wins``, ``games``, ``rate``, ``ci_low``, ``ci_high`` (Wilson score interval,
        Wilson 1927); stalemates count as games without a win.

    Raises
    ------
    RunnerError
        If `by` is not "seat" or "policy", or the table lacks the columns.
    """
    return montecarlo.win_rates(results, by=by)
