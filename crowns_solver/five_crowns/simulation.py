"""Monte Carlo study of Five Crowns computer players: many seeded games, one row per seat.

:func:`simulate` runs on the shared Monte Carlo runner (:func:`crowns_solver.montecarlo.run`):
games are played in chunks of fixed size; chunk ``i`` is seeded by ``SeedSequence(seed,
spawn_key=(i,))`` and game ``j`` of a chunk by the ``j``-th child of that, so the table is
the same in one process or many, whatever executor runs the chunks, for the same seed and
chunk size.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Executor
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .. import montecarlo
from .._checks import check_flag, check_whole_number
from ..errors import PolicyError, RulesError
from ._text import count
from .game import GameRules, play_game
from .players import Policy, get_policy

__all__ = ["simulate", "summarize", "play_chunk", "game_seed", "check_setup", "rotations", "capped_rounds",
           "DEFAULT_CHUNK_SIZE"]

GAME = "five-crowns"
#: Games per chunk (a few seconds of work each).
DEFAULT_CHUNK_SIZE = 100


def game_seed(seed: int, game: int, *, chunk_size: int = DEFAULT_CHUNK_SIZE) -> np.random.SeedSequence:
    """The seed of game number `game` (deal number, in a duplicate run) of a :func:`simulate` run.

    Chunk ``i`` of a run with root seed ``s`` is seeded by ``SeedSequence(s,
    spawn_key=(i,))`` and its game ``j`` by that seed's ``j``-th child, so game ``g`` is
    played from ``SeedSequence(s, spawn_key=(g // chunk_size, g % chunk_size))``.  With
    it, one game of a run can be played again and saved or rerun:
    ``play_game(policies, seed=game_seed(s, g, chunk_size=c), rules=rules)`` plays game
    ``g`` (its seats' policies are the run's ``policy`` column for that game).

    Parameters
    ----------
    seed : int
        The run's root seed (``df.attrs["seed"]``), a whole number >= 0.
    game : int
        The game's number in the run (0-based; in a duplicate run, the deal's number:
        every rotation of a deal is played from its seed), a whole number >= 0.
    chunk_size : int, default DEFAULT_CHUNK_SIZE
        The run's games per chunk (``df.attrs["chunk_size"]``), a whole number >= 1.

    Returns
    -------
    numpy.random.SeedSequence
        The game's seed, as :func:`~crowns_solver.five_crowns.play_game` takes it and as
        its record keeps it (``{"entropy": s, "spawn_key": [i, j]}``).

    Raises
    ------
    RulesError
        If `seed`, `game` or `chunk_size` is not a whole number in its range.

    Examples
    --------
    >>> game_seed(1, 205, chunk_size=100).spawn_key
    (2, 5)
    """
    seed = check_whole_number("seed", seed, 0, error=RulesError)
    game = check_whole_number("game", game, 0, error=RulesError)
    chunk_size = check_whole_number("chunk_size", chunk_size, 1, error=RulesError)
    return np.random.SeedSequence(seed, spawn_key=divmod(game, chunk_size))


def check_setup(players: int, policies: Sequence[Any] | str) -> list[Any]:
    """Validate `players` and `policies` (one policy for all seats, or one per seat).

    Parameters
    ----------
    players : int
        Number of seats, 1..14 (RULES.md, Five Crowns, "Deal and seats").
    policies : str, Policy or sequence of them
        One policy (name or object) for every seat, or one per seat.

    Returns
    -------
    list
        One policy per seat: a built-in one by its canonical name (lower case, no
        surrounding spaces, as recorded in results files), an object as given.

    Raises
    ------
    RulesError
        `players` outside 1..14, or the number of policies is neither 1 nor `players`.
    PolicyError
        An unknown policy name, an object that is not a policy, or `policies` neither a
        policy nor a list or tuple of them (a NumPy array, a set).
    """
    if isinstance(players, bool) or not isinstance(players, (int, np.integer)) or not 1 <= players <= 14:
        raise RulesError(f"players must be an integer 1..14, got {players!r}")
    if isinstance(policies, str) or not isinstance(policies, Sequence):
        if (not isinstance(policies, str) and hasattr(policies, "__iter__")
                and not callable(getattr(policies, "choose_draw", None))):
            # a NumPy array or a set was taken for one policy: "not a policy: array(...)" (session 24)
            raise PolicyError(f"policies must be a policy name, a Policy, or a list of them (one per seat),"
                              f" got {type(policies).__name__}")
        policies = [policies]
    policies = list(policies)
    if len(policies) == 1:
        policies = policies * int(players)
    if len(policies) != players:
        raise RulesError(f"{count(len(policies), 'policy', 'policies')} for {count(players, 'player')}"
                         " (give one, or one per seat)")
    for p in policies:
        get_policy(p)  # raises PolicyError for an unknown name
    # a built-in policy by its canonical name, as get_policy reads it: the results header
    # recorded "Greedy" as typed, so a resume with "greedy" was refused (session 24)
    return [p.strip().lower() if isinstance(p, str) else p for p in policies]


def _seating(players: int, game: int, rotate: bool) -> list[int]:
    """Which policy index sits in each seat in game `game` (rotated one seat per game)."""
    k = game % players if rotate else 0
    return [(s + k) % players for s in range(players)]


def rotations(policies: Sequence[Any]) -> list[int]:
    """The rotations k (policy index ``(s + k) % players`` in seat s) that give distinct
    seatings, smallest first: all of them for distinct policies, 2 for A B A B, 1 when
    every seat plays the same policy.

    Parameters
    ----------
    policies : sequence
        One policy name or object per seat (objects compare by identity).

    Returns
    -------
    list of int
        The rotations k, increasing, beginning with 0.
    """
    players = len(policies)
    seen: list[list[Any]] = []
    out = []
    for k in range(players):
        seating = [policies[(s + k) % players] for s in range(players)]
        if not any(all(a is b or (isinstance(a, str) and a == b) for a, b in zip(seating, other)) for other in seen):
            seen.append(seating)
            out.append(k)
    return out


def _game_row(result: Any, prefix: str, players: int, rounds: int, names: list[str], seating: list[int],
              row: dict[str, Any]) -> None:
    scores = result.round_scores
    places = result.places
    for s in range(players):
        row[f"{prefix}policy_{s}"] = names[seating[s]]
    for s in range(players):
        for r in range(rounds):
            row[f"{prefix}r{r + 1}_{s}"] = int(scores[r, s])
        row[f"{prefix}total_{s}"] = int(result.totals[s])
        row[f"{prefix}place_{s}"] = int(places[s])
        row[f"{prefix}win_{s}"] = int(s in result.winners)
    for r in range(rounds):
        out = result.rounds[r].out
        row[f"{prefix}out{r + 1}"] = -1 if out is None else int(out)
    row[f"{prefix}turns"] = sum(r.turns for r in result.rounds)
    row[f"{prefix}reshuffles"] = sum(r.reshuffles for r in result.rounds)
    row[f"{prefix}tiebreaks"] = len(result.tiebreaks)
    row[f"{prefix}tb_capped"] = sum(t.out is None for t in result.tiebreaks)


def play_chunk(
    chunk_index: int,
    n_games: int,
    seed: np.random.SeedSequence,
    *,
    players: int,
    policies: list[Any],
    rules: dict[str, Any],
    rotate: bool = False,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    duplicate: bool = False,
) -> pd.DataFrame:
    """Play one chunk of Five Crowns games (the runner's chunk function).

    Game ``j`` of the chunk is seeded by ``seed.spawn(n_games)[j]`` (:func:`game_seed`;
    each game's record keeps that SeedSequence, so it replays and reruns).  With `duplicate`,
    "game" ``j`` is a deal: the same seed is played once per distinct seating rotation
    (:func:`rotations`), so every policy plays the same cards from each seat.

    Parameters
    ----------
    chunk_index : int
        The chunk's number: with `rotate`, its game ``j`` is game
        ``chunk_index * chunk_size + j`` of the run.
    n_games : int
        Games (deals with `duplicate`) in this chunk.
    seed : numpy.random.SeedSequence
        The runner's chunk seed.
    players : int
        Number of seats.
    policies : list
        One policy name or object per seat (:func:`check_setup`).
    rules : dict
        Keyword arguments of :class:`~crowns_solver.five_crowns.GameRules` (``players``
        ignored).
    rotate : bool
        Without `duplicate`: game ``g`` rotates the seating by ``g % players``.
    chunk_size : int
        Games per chunk of the run (numbers the games across chunks).
    duplicate : bool
        Play every deal once per distinct rotation.

    Returns
    -------
    DataFrame
        One row per game (per deal with `duplicate`): ``players``, ``policy_<s>``,
        ``r<round>_<s>`` (points of seat s in each round), ``total_<s>``, ``place_<s>``,
        ``win_<s>`` (1 for each winner), ``out<round>`` (the seat that went out, -1 for
        none), ``turns`` (all rounds, all seats), ``reshuffles``, ``tiebreaks`` (tiebreak
        rounds played), ``tb_capped`` (of those, the ones cut off at the turn cap); with
        `duplicate` each of these columns once per rotation k, prefixed ``k<k>_``.
    """
    game_rules = GameRules(players=players, **{k: v for k, v in rules.items() if k != "players"})
    pols = [get_policy(p) for p in policies]
    names = [str(getattr(p, "name", p)) for p in pols]
    turns = rotations(policies) if duplicate else None
    rows: list[dict[str, Any]] = []
    for j, child in enumerate(seed.spawn(n_games)):
        row: dict[str, Any] = {"players": players}
        if turns is None:
            seating = _seating(players, chunk_index * chunk_size + j, rotate)
            result = play_game([pols[i] for i in seating], seed=child, rules=game_rules)
            _game_row(result, "", players, game_rules.rounds, names, seating, row)
        else:
            for k in turns:
                seating = [(s + k) % players for s in range(players)]
                # the deal's seed for each seating: the same decks (play_game never spawns
                # from the SeedSequence given, only from a copy)
                result = play_game([pols[i] for i in seating], seed=child, rules=game_rules)
                _game_row(result, f"k{k}_", players, game_rules.rounds, names, seating, row)
        rows.append(row)
    return pd.DataFrame(rows)


def simulate(
    games: int,
    *,
    players: int = 4,
    policies: Sequence[str | Policy] | str | Policy = "greedy",
    seed: int = 0,
    executor: Executor | None = None,
    progress: bool = False,
    rules: GameRules | None = None,
    rotate: bool = False,
    workers: int | None = None,
    out: str | Path | None = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    duplicate: bool = False,
) -> pd.DataFrame:
    """Play many seeded Five Crowns games between computer players; one row per game and seat.

    Parameters
    ----------
    games : int
        Number of games (>= 1).
    players : int, default 4
        Seats, 1..14.
    policies : str, Policy or sequence, default "greedy"
        One policy for every seat, or one per seat in seat order (names: random, greedy,
        advisor, tracker, in any letter case: recorded in lower case in the table and the
        results header, so a resume is the same run whatever the case; policy objects
        must be picklable for worker processes).
    seed : int
        Root seed (>= 0): the same seed and chunk size give the same table whatever the
        executor.
    executor : concurrent.futures.Executor, optional
        Where chunks run (process or thread pool, a Dask client's executor...).  Default:
        a process pool over `workers` processes (all cores; ``workers=1``: this process).
    progress : bool
        Show a progress bar (games done) on stderr.
    rules : GameRules, optional
        Other options (ties, rounds...); its ``players`` must equal `players`.
    rotate : bool
        Move the policies one seat to the left each game, so each plays every seat.
    workers, out, chunk_size
        Passed to :func:`crowns_solver.montecarlo.run` (processes, a resumable JSON-lines
        results file, games per chunk, default 100; with `duplicate`, deals per chunk).
    duplicate : bool
        Duplicate deals, as in duplicate bridge: each of the `games` deals (seeds) is
        played once per distinct seating rotation (policy ``(s + k) % players`` in seat
        s; 4 rotations for 4 different policies, 2 for ``A B A B``), so every policy
        plays the very same cards from every seat and the luck of the deal cancels in
        comparisons.  ``games x rotations`` games are played.

    Returns
    -------
    pandas.DataFrame
        One row per game and seat: ``game``, ``seat``, ``policy``, ``round_1`` ..
        ``round_11`` (points), ``out_1`` .. ``out_11`` (bool: this seat went out in that
        round; no seat does in a round cut off by ``max_turns``), ``total`` (points), ``place`` (1 best; equal totals share),
        ``won`` (bool; several winners in a shared win), ``turns`` (the game's turns, all
        seats), ``tiebreaks`` (tiebreak rounds the game played, ``GameRules(ties=
        "tiebreak")``; 0 otherwise) and ``capped_tiebreaks`` (of those, the rounds cut off
        by ``max_turns``), both per game.  With `duplicate` also ``deal`` (0..games-1) and ``rotation`` (k), and
        ``game`` numbers the games played (``deal x rotations + index of k``).  ``attrs``
        holds the run's metadata (seed, chunk size, rules, version...).

    Raises
    ------
    RulesError
        Bad `players`, `rules`, a number of policies neither 1 nor `players`, `rotate` or
        `duplicate` not True or False, or both `rotate` and `duplicate`.
    PolicyError
        An unknown policy, or `policies` neither a policy nor a list or tuple of them
        (a NumPy array, a set).
    OutputExistsError
        `out` is empty (EmptyPathError), names a folder (FolderPathError: it ends in
        ``/`` or is one), or lies in a folder that does not exist or is a file
        (MissingFolderError); checked before any games.
    RunnerError, ResultsFileError
        See :func:`crowns_solver.montecarlo.run`.

    Examples
    --------
    >>> df = simulate(20, players=4, policies=["greedy", "tracker"] * 2, seed=1, workers=1)
    >>> df.groupby("policy")["total"].mean()  # doctest: +SKIP
    """
    pols = check_setup(players, policies)
    rotate = check_flag("rotate", rotate, RulesError)       # bool("no") is True: "no" rotated the seats
    duplicate = check_flag("duplicate", duplicate, RulesError)
    if out is not None:
        _check_out(out)
    if rules is None:
        rules = GameRules(players=players)
    if not isinstance(rules, GameRules):
        raise RulesError(f"rules must be a GameRules, got {type(rules).__name__}")
    if rules.players != players:
        raise RulesError(f"rules are for {count(rules.players, 'player')}, simulate was asked for {players}")
    if rotate and duplicate:
        raise RulesError("rotate and duplicate exclude each other (duplicate plays every rotation of each deal)")
    custom = [p for p in pols if not isinstance(p, str)]
    names = [p if isinstance(p, str) else str(getattr(p, "name", type(p).__name__)) for p in pols]
    params: dict[str, Any] = {"players": players, "policies": names, "rules": rules.to_dict(),
                              "rotate": bool(rotate), "chunk_size": chunk_size}
    if duplicate:
        params["duplicate"] = True
    meta = {"game": GAME, "rules": rules.to_dict()}
    fn: Any = _CustomChunk(pols) if custom else play_chunk
    wide = montecarlo.run(fn, games, params=params, seed=seed, chunk_size=chunk_size, executor=executor,
                          workers=workers, progress=progress, out=out, meta=meta)
    if not duplicate:
        return _long(wide, players, rules.rounds)
    turns = rotations(pols)
    parts = []
    for i, k in enumerate(turns):
        part = _long(wide, players, rules.rounds, prefix=f"k{k}_")
        part.insert(1, "deal", part["game"])
        part.insert(2, "rotation", k)
        part["game"] = part["deal"] * len(turns) + i
        parts.append(part)
    out_df = pd.concat(parts, ignore_index=True).sort_values(["game", "seat"], kind="stable").reset_index(drop=True)
    out_df.attrs = dict(wide.attrs)
    return out_df


def summarize(df: pd.DataFrame) -> pd.DataFrame:
    """Per policy: seat-games, mean total with a 95% interval, wins and the win rate with
    its 95% interval, from a :func:`simulate` table (what ``crowns five-crowns simulate``
    prints).

    The seats one policy fills in a game are not independent (the same deal, one game's
    winners), so every interval counts each game once: the mean total's is Student's t
    interval over the games' means for the policy (:func:`~crowns_solver.montecarlo.mean_interval`),
    the win rate's is :func:`~crowns_solver.montecarlo.cluster_wilson_interval` over games.
    (Up to session 19 both counted seat-games as independent, the mean with +- 1.96
    standard errors.)  For duplicate runs (a ``deal`` column) the games are grouped by
    deal instead, and ``vs_deal`` is added: the mean of (total - the mean total of every
    seat-game of the same deal), with a 95% Student t interval over deals; the luck of
    the cards cancels in it, so it separates policies with far fewer games.  A mean over
    one game (or one deal) has no interval: its half-width is NaN (docs/decisions.md,
    "Intervals from one observation").

    Parameters
    ----------
    df : pandas.DataFrame
        One row per game and seat, as :func:`simulate` returns it (columns ``game``,
        ``policy``, ``total``, ``won``; ``deal`` for a duplicate run).

    Returns
    -------
    pandas.DataFrame
        Index ``policy`` (sorted).  Columns ``seat_games``; ``mean_total``, ``sd_total``
        (points; ``sd_total`` NaN from one seat-game) and ``total_ci`` (the half-width
        of the mean's 95% interval, points); ``wins`` (shared wins count for each
        winner), ``win_rate``, ``win_low``, ``win_high``; with a ``deal`` column also
        ``vs_deal`` and ``vs_deal_ci`` (points).

    Raises
    ------
    RunnerError
        If `df` is not a DataFrame or lacks one of the columns above (a results file's
        one row per game, from :func:`~crowns_solver.montecarlo.read_results`, is
        named as such: :func:`~crowns_solver.montecarlo.win_rates` reads it); or if a
        ``won`` is not True or False (1 or 0: text such as ``"yes"`` or ``"1"``, a
        missing value) or a ``total`` not a whole number >= 0, naming the column, the
        game, the seat and the values expected.
    """
    from ..errors import RunnerError
    from ..montecarlo import cluster_wilson_interval, mean_interval

    if not isinstance(df, pd.DataFrame):
        raise RunnerError(f"summarize needs the DataFrame five_crowns.simulate returns, got {type(df).__name__}")
    missing = [c for c in ("game", "policy", "total", "won") if c not in df.columns]
    if missing:
        wide = any(str(c).startswith(("policy_", "k0_")) for c in df.columns)
        raise RunnerError(f"summarize needs one row per game and seat, as five_crowns.simulate returns it;"
                          f" this table has no {', '.join(missing)} column" + ("s" if len(missing) > 1 else "")
                          + (" (it is a results file's one row per game: montecarlo.win_rates reads it,"
                             " crowns report RESULTS reports on the file)" if wide else ""))

    # values checked before any sum: "yes" + "no" was summed as text (an unnamed ValueError) and
    # "1" + "0" counted 10 wins; a missing total was skipped by the mean (session 23)
    from ..montecarlo import _not_flag, _plain, not_whole

    for col, bad, expected in (
            ("won", _not_flag(df["won"]), "the won column holds True or False (1 or 0) for each seat"),
            ("total", (df["total"].notna().to_numpy() if df["total"].dtype == bool else not_whole(df["total"], 0)),
             "the total column holds each seat's final points, whole numbers >= 0")):
        if bad.any():
            r = int(np.flatnonzero(bad)[0])
            where = (f"game {_plain(df['game'].iloc[r])}" + (f", seat {_plain(df['seat'].iloc[r])}" if "seat" in df
                                                              else "") + f" (row {r})")
            raise RunnerError(f"summarize: {where} has {col} = {_plain(df[col].iloc[r])!r}; {expected}")

    def half_width(values) -> float:  # NaN from one game or deal: no interval (docs/decisions.md)
        m, lo, hi = mean_interval(values)
        return float("nan") if np.isnan(lo) else (hi - lo) / 2

    unit = "deal" if "deal" in df.columns else "game"
    g = df.groupby("policy", sort=True)
    out = pd.DataFrame({
        "seat_games": g.size(),
        "mean_total": g["total"].mean(),
        "sd_total": g["total"].std(ddof=1),   # NaN from one seat-game
        "wins": g["won"].sum().astype(int),
    })
    out["win_rate"] = out["wins"] / out["seat_games"]
    ci, lows, highs = [], [], []
    for policy, part in g:
        by_unit = part.groupby(unit)
        ci.append(half_width(by_unit["total"].mean().to_numpy()))
        _, lo, hi = cluster_wilson_interval(by_unit["won"].sum().to_numpy(dtype=float), by_unit.size().to_numpy())
        lows.append(lo)
        highs.append(hi)
    out["total_ci"], out["win_low"], out["win_high"] = ci, lows, highs
    if "deal" in df.columns:
        rel = df["total"] - df.groupby("deal")["total"].transform("mean")
        per_deal = rel.groupby([df["policy"], df["deal"]]).mean()
        by = per_deal.groupby(level=0)
        out["vs_deal"] = by.mean()
        out["vs_deal_ci"] = [half_width(part.to_numpy()) for _, part in by]
    return out


def capped_rounds(df: pd.DataFrame) -> int:
    """Rounds that ended at the turn cap (``GameRules.max_turns``) in a :func:`simulate` table.

    A round is capped when nobody went out in it: no seat's ``out_<r>`` is true; a
    tiebreak round (``GameRules(ties="tiebreak")``) is counted from the game's
    ``capped_tiebreaks``.  With the built-in players this should be 0 (two greedy
    players used to end about 1.5% of 2-player rounds there, see
    docs/five_crowns_game.md); a count above 0 means some scores are deadwood held when
    the round was cut off, not a normal round end (in a tiebreak, the deadwood decides
    the winner).

    Parameters
    ----------
    df : pandas.DataFrame
        One row per game and seat, as :func:`simulate` returns it (columns ``game``,
        ``out_1`` .. ``out_<rounds>`` and ``capped_tiebreaks``; a table without that
        column, from before it existed, counts the main rounds only).

    Returns
    -------
    int
        Capped rounds, main and tiebreak, counted once per game and round (not per seat).

    Raises
    ------
    RunnerError
        If `df` lacks the ``game`` or ``out_<r>`` columns.
    """
    from ..errors import RunnerError

    outs = [c for c in df.columns if c.startswith("out_") and c[4:].isdigit()]
    if "game" not in df.columns or not outs:
        raise RunnerError("capped_rounds needs a simulate() table (columns game, out_1 ...)")
    went_out = df.groupby("game")[outs].any()
    capped = int((~went_out).to_numpy().sum())
    if "capped_tiebreaks" in df.columns:
        capped += int(df.groupby("game")["capped_tiebreaks"].first().sum())
    return capped


def _check_out(out: Any) -> None:
    """The results file must be a file path (the runner creates, extends or resumes it)."""
    import os

    from .._io import check_file_path
    from ..errors import OutputExistsError

    if not isinstance(out, (str, os.PathLike)):
        raise OutputExistsError(f"out must be a file path, got {out!r}")
    check_file_path(out, "out", what="results file")


def _long(wide: pd.DataFrame, players: int, rounds: int, prefix: str = "") -> pd.DataFrame:
    """One row per game and seat from the runner's one row per game (columns of the
    rotation `prefix` in duplicate runs)."""
    parts = []
    for s in range(players):
        part = pd.DataFrame({"game": wide["game"].to_numpy(), "seat": s,
                             "policy": wide[f"{prefix}policy_{s}"].to_numpy()})
        for r in range(1, rounds + 1):
            part[f"round_{r}"] = wide[f"{prefix}r{r}_{s}"].to_numpy()
        for r in range(1, rounds + 1):
            part[f"out_{r}"] = wide[f"{prefix}out{r}"].to_numpy() == s
        part["total"] = wide[f"{prefix}total_{s}"].to_numpy()
        part["place"] = wide[f"{prefix}place_{s}"].to_numpy()
        part["won"] = wide[f"{prefix}win_{s}"].to_numpy().astype(bool)
        part["turns"] = wide[f"{prefix}turns"].to_numpy()
        for name, col in (("tiebreaks", "tiebreaks"), ("capped_tiebreaks", "tb_capped")):
            # results files written before the tiebreak columns lack them: 0 (not known)
            values = wide[f"{prefix}{col}"] if f"{prefix}{col}" in wide.columns else pd.Series(0, index=wide.index)
            part[name] = values.fillna(0).astype(int).to_numpy()
        parts.append(part)
    out = pd.concat(parts, ignore_index=True).sort_values(["game", "seat"], kind="stable").reset_index(drop=True)
    out.attrs = dict(wide.attrs)
    return out


class _CustomChunk:
    """play_chunk with policy objects bound (picklable when the policies are)."""

    def __init__(self, pols: list[Any]) -> None:
        self.pols = pols
        # the runner records the chunk function by name; name it like play_chunk
        self.__module__ = __name__
        self.__qualname__ = "play_chunk"

    def __call__(self, chunk_index: int, n_games: int, seed: np.random.SeedSequence, **params: Any) -> pd.DataFrame:
        params["policies"] = self.pols
        return play_chunk(chunk_index, n_games, seed, **params)
