"""Matches between Cross Kings players: seeded deals, duplicate format, confidence intervals.

Each deal is played twice with the players' seats exchanged (duplicate format, as in
duplicate bridge): player A is "first" in one game and "second" in the other.  The deal
fixes the card in every cell, face-down cells included, so a face-down cell reveals the
same card in both games; what differs is only who sits where.  Luck of the deal cancels
within each pair.

The deals run through the shared Monte Carlo runner (:func:`crowns_solver.montecarlo.run`:
fixed chunks, any executor, a resumable results file), one runner row per deal.  Deal
``d`` of a match with seed ``s`` is dealt, and its players' random generators seeded, from
``numpy.random.SeedSequence([s, d])``: the games do not depend on the chunk size, the
executor or the number of workers, and the first ``k`` deals are the same for any number
of deals.  Search players run under node limits, so every game replays exactly.

Results (:class:`MatchResult`): one row per game, and for player A the win, draw and loss
rates and the score (win 1, draw 1/2 per game), each with a 95% interval that counts each
deal as one observation: the two games of a deal share its cards, so they are not
independent trials (:func:`~crowns_solver.montecarlo.cluster_wilson_interval`, Wilson's
interval on the effective number of games of the clustered rate; before session 21 these
were Wilson intervals over games, too narrow where a deal decides both of its games); and
the mean final margin (A's score minus B's) with a Student t 95% interval over the deals,
each deal's two margins averaged first (:func:`~crowns_solver.montecarlo.mean_interval`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._checks import check_whole_number
from .._seeds import RecordedSeed, Seed, replayable_seed, seed_sequence
from .._text import count, number
from ..errors import PolicyError, PositionError
from ..montecarlo import Z95, cluster_wilson_interval, mean_interval
from .position import CENTRAL_CELLS, Deal, Position, Rules, cell_coords, cell_index, cell_text, symmetry_map
from .players import PLAYER_NAMES, make_player, seat_view

__all__ = ["match", "self_play", "play_game", "play_chunk", "self_play_chunk", "MatchResult", "GameRecord", "games_table", "summarise",
           "DEFAULT_CHUNK_SIZE", "MAX_DEALS", "Z95"]

#: Deals per chunk of the Monte Carlo runner (results do not depend on it).
DEFAULT_CHUNK_SIZE = 4
#: Most deals a match or self-play run takes: ten million deals is days of play between
#: the fastest players and a results table of gigabytes; beyond it the run would not end
#: (1e12 deals ran the runner's chunk list out of memory).
MAX_DEALS = 10_000_000


@dataclass(frozen=True)
class GameRecord:
    """One finished game.

    Attributes
    ----------
    position : Position
        The final position (its history is the whole game).
    seconds : (float, float)
        Time the first and the second player spent choosing, in seconds.
    moves : (int, int)
        Moves made by the first and the second player (the start cell counts for second).
    seed : int, numpy.random.SeedSequence or None
        The seed the game was played from (:func:`play_game`'s `seed`; a whole number
        drawn for a Generator or None): passing it back as `seed` with the same position
        and players plays the same game.  None when the game was played from `rngs` (or
        from neither).
    """

    position: Position
    seconds: tuple[float, float]
    moves: tuple[int, int]
    seed: RecordedSeed | None = None

    @property
    def scores(self) -> tuple[int, int]:
        """Final scores (first, second), in points."""
        return self.position.scores()

    @property
    def margin(self) -> int:
        """score(first) - score(second), in points."""
        return self.position.margin()


def _seat_player(player: Any, what: str) -> Any:
    if isinstance(player, str):  # a name, as match() and self_play() take them
        return make_player(_player_name(player, what))
    if isinstance(player, type):   # it has .name and .choose too: it failed mid-game with a TypeError (session 22)
        raise PolicyError(f"{what} is a player class, not a player: pass an instance, {player.__name__}()")
    if not (hasattr(player, "choose") and hasattr(player, "name")):
        raise PolicyError(f"{what} is not a Cross Kings player (it needs .name and .choose(view, rng)): {player!r}")
    return player


class _NoSeed:
    """The default of :func:`play_game`'s `seed`: none given (None is a seed: fresh entropy)."""

    def __repr__(self) -> str:
        return "<no seed>"


_NO_SEED: Any = _NoSeed()


def _game_streams(seq: np.random.SeedSequence) -> tuple[np.random.SeedSequence, ...]:
    """The deal's, the first seat's and the second seat's streams of one game's seed:
    ``seq.spawn(3)``, the derivation of :func:`match`, :func:`self_play` and
    :func:`play_game` alike."""
    return tuple(seq.spawn(3))


def _seat_generators(seed: Any, rngs: Any) -> tuple[np.random.Generator, np.random.Generator, RecordedSeed | None]:
    """The two seats' generators of :func:`play_game` and the seed to record (see there)."""
    if seed is not _NO_SEED and rngs is not None:
        raise PositionError(f"give seed or rngs, not both: seed={seed!r} derives both seats' generators",
                            argument=("seed", "rngs"))
    if seed is not _NO_SEED:
        recorded = replayable_seed(seed, PositionError, "seed")
        _, first_ss, second_ss = _game_streams(seed_sequence(recorded))
        return np.random.default_rng(first_ss), np.random.default_rng(second_ss), recorded
    if rngs is None:
        # the fixed default since before session 23 (the strategy study relies on it)
        return np.random.default_rng(0), np.random.default_rng(1), None
    if isinstance(rngs, (str, bytes)) or not isinstance(rngs, (tuple, list)) or len(rngs) != 2:
        # 5 raised "'int' object is not subscriptable", a pair of one an IndexError (session 22)
        raise PolicyError(f"rngs must be two numpy Generators (the first seat's, the second's), got {rngs!r}",
                          argument="rngs")
    for k, gen in enumerate(rngs):
        if not isinstance(gen, np.random.Generator):
            # a seed in the pair reached the player (a custom one failed as it pleased)
            raise PolicyError(f"rngs[{k}] must be a numpy Generator (np.random.default_rng(...)), got {gen!r};"
                              " to give a seed, pass seed=", argument="rngs")
    return rngs[0], rngs[1], None


def play_game(position: Position | Deal, first: Any, second: Any, *,
              seed: Seed = _NO_SEED,
              rngs: tuple[np.random.Generator, np.random.Generator] | None = None,
              start: Any = None) -> GameRecord:
    """Play one game between two players from a deal (or any position) to the end.

    Parameters
    ----------
    position : Position or Deal
        Where the game starts; a Deal starts from its fresh position.  Face-down cards
        must be known (a dealt game), unless every player only takes face-up cards.
    first, second : CrossKingsPlayer or str
        The players of the two seats, as objects or by name (``"greedy"``:
        :func:`~crowns_solver.cross_kings.players.make_player` with its default options;
        until session 22 a name was refused).  A player whose ``cheats`` attribute is true (the
        clairvoyant player) gets a view that reveals the deal; the others see only what
        a seat at the table sees (:func:`~crowns_solver.cross_kings.players.seat_view`).
    seed : int, numpy.random.SeedSequence, numpy.random.Generator or None, optional
        Where the players' randomness comes from, by the project's seed rule
        (docs/decisions.md, "One seed rule for every game"): a whole number >= 0 or a
        SeedSequence (never spawned from itself, so giving it again plays the same
        game), a Generator (a 128-bit seed is drawn from it) or None (fresh entropy).
        The seats' generators come from ``SeedSequence(seed).spawn(3)``, children 1 and
        2 (child 0 deals the cards in :func:`match` and :func:`self_play`, whose deal
        ``d`` is played from ``SeedSequence([match_seed, d])``): so
        ``play_game(deal_d, a, b, seed=SeedSequence([s, d]))`` replays game 0 of deal
        ``d`` of ``match(a, b, seed=s)`` (and, with the same player twice, the game of
        deal ``d`` of ``self_play``).  The seed played from is kept as
        :attr:`GameRecord.seed`.  Not with `rngs`.
    rngs : (Generator, Generator), optional
        Each seat's random generator itself (the first seat's, the second's), instead
        of `seed`.  With neither `seed` nor `rngs`: ``numpy.random.default_rng(0)`` and
        ``(1)``, a fixed game, as before session 23.
    start : (row, col) or int, optional
        A fixed start cell (one of the four central cells, in either form) instead of
        the second player's choice, as crosskings.net plays from (2, 2).

    Returns
    -------
    GameRecord
        The final position, each seat's seconds spent choosing and number of moves,
        and the seed played from.

    Raises
    ------
    PolicyError
        If a player is not a player or a player's name, or chooses an illegal move; or
        `rngs` is not a pair of numpy Generators.
    PositionError
        If `seed` is not a seed (``seed must be a whole number >= 0, got -1``), both
        `seed` and `rngs` are given, `start` is not a central cell or is given for a
        game already started, or a face-down card the game needs is unknown.
    """
    pos = position.position() if isinstance(position, Deal) else position
    if not isinstance(pos, Position):
        raise PositionError(f"play_game() takes a Position or a Deal, got {type(position).__name__}")
    players = {"first": _seat_player(first, "first"), "second": _seat_player(second, "second")}
    first_gen, second_gen, recorded = _seat_generators(seed, rngs)
    gens = {"first": first_gen, "second": second_gen}
    seconds = {"first": 0.0, "second": 0.0}
    moves = {"first": 0, "second": 0}
    if start is not None:
        if pos.marker is not None:
            raise PositionError(
                f"start={start!r} was given but the game has already started (the marker is on"
                f" {cell_text(pos.marker)}): give start only for a fresh deal"
            )
        s = _central(start)
        pos = pos.play(s)
    while not pos.is_terminal():
        seat = pos.to_move
        p = players[seat]
        view = seat_view(pos, seat, reveal=bool(getattr(p, "cheats", False)))
        t0 = time.perf_counter()
        cell = p.choose(view, gens[seat])
        seconds[seat] += time.perf_counter() - t0
        moves[seat] += 1
        try:
            idx = cell_index(cell)
        except PositionError:
            raise PolicyError(f"player {p.name!r} ({seat}) chose {cell!r}, which is not a cell") from None
        if idx not in pos.legal_indices():
            raise PolicyError(f"player {p.name!r} ({seat}) chose the illegal move {cell_text(idx)}")
        if pos.marker is not None and pos.cells[idx] < 0:
            raise PositionError(f"cell {cell_text(idx)} is face down and its card is not known: deal every card")
        pos = pos.play(idx)
    return GameRecord(pos, (seconds["first"], seconds["second"]), (moves["first"], moves["second"]), recorded)


def _deal_seed(root: int, deal: int) -> np.random.SeedSequence:
    return np.random.SeedSequence([root, deal])


def play_chunk(chunk_index: int, n_games: int, seed: np.random.SeedSequence, *, a: str, b: str,
               a_options: Mapping[str, Any], b_options: Mapping[str, Any], reach: str,
               start: int | None, chunk_size: int, root_seed: int) -> list[dict[str, Any]]:
    """Monte Carlo chunk: `n_games` deals, each played twice with seats exchanged.

    Deal ``d = chunk_index * chunk_size + k`` is dealt from ``SeedSequence([root_seed, d])``
    (so results do not depend on the chunking); `seed` (the runner's chunk seed) is not
    needed.  One row per deal; columns ending in ``_0`` describe the game with A first,
    ``_1`` the game with A second.

    Parameters
    ----------
    chunk_index : int
        The chunk's number (0, 1, ...).
    n_games : int
        Deals in this chunk.
    seed : numpy.random.SeedSequence
        The runner's chunk seed (unused: the deals' seeds come from `root_seed`).
    a, b : str
        The players' names.
    a_options, b_options : mapping
        Their options (:func:`~crowns_solver.cross_kings.players.make_player`).
    reach : {"any", "nearest"}
        The rules option (RULES.md, Cross Kings, "Move").
    start : int or None
        A fixed start cell number (one of the four central cells), None: the second
        player chooses.
    chunk_size : int
        Deals per chunk (`n_games` of every chunk but the last).
    root_seed : int
        The match's seed.

    Returns
    -------
    list of dict
        One row per deal, with ``deal`` and, for ``j`` in 0 and 1, ``score_first_j``,
        ``score_second_j`` (points), ``start_j`` (cell number), ``moves_a_j``,
        ``moves_b_j``, ``seconds_a_j``, ``seconds_b_j`` (seconds spent choosing).
    """
    pa = make_player(a, **a_options)
    pb = make_player(b, **b_options)
    rows = []
    for k in range(n_games):
        d = chunk_index * chunk_size + k
        deal_ss, a_ss, b_ss = _game_streams(_deal_seed(root_seed, d))
        deal = Deal.random(np.random.default_rng(deal_ss))
        pos = deal.position(Rules(reach=reach))  # type: ignore[arg-type]
        row: dict[str, Any] = {"deal": d}
        for j in (0, 1):
            # each player's generator restarts for each game of the pair: with the seats
            # exchanged, the same player meets the same chances
            ra, rb = np.random.default_rng(a_ss), np.random.default_rng(b_ss)
            if j == 0:
                g = play_game(pos, pa, pb, rngs=(ra, rb), start=start)
                sa, sb = 0, 1
            else:
                g = play_game(pos, pb, pa, rngs=(rb, ra), start=start)
                sa, sb = 1, 0
            s = g.scores
            row[f"score_first_{j}"] = s[0]
            row[f"score_second_{j}"] = s[1]
            row[f"start_{j}"] = g.position.start
            row[f"moves_a_{j}"] = g.moves[sa]
            row[f"moves_b_{j}"] = g.moves[sb]
            row[f"seconds_a_{j}"] = g.seconds[sa]
            row[f"seconds_b_{j}"] = g.seconds[sb]
        rows.append(row)
    return rows


def games_table(deal_rows: pd.DataFrame, a: str = "A", b: str = "B") -> pd.DataFrame:
    """Per-game rows from the runner's per-deal rows (two games per deal).

    Columns: ``deal``, ``game`` (2 x deal + 0 for A first, + 1 for A second), ``a_seat``,
    ``player_first``, ``player_second``, ``start`` (cell number), ``score_first``,
    ``score_second``, ``margin_a`` (A's score minus B's, points), ``result_a`` ("win",
    "draw", "loss"), ``win_a``, ``draw``, ``loss_a`` (0/1), ``score_a`` (1, 1/2, 0),
    ``moves_a``, ``moves_b``, ``seconds_a``, ``seconds_b`` (time spent choosing; the only
    columns that differ between two runs of the same seed).

    Parameters
    ----------
    deal_rows : pandas.DataFrame
        The rows of :func:`play_chunk` (as :func:`crowns_solver.montecarlo.run` returns them).
    a, b : str
        The players' names, for ``player_first`` and ``player_second``.

    Returns
    -------
    pandas.DataFrame
        Two rows per deal, with the columns above.

    Raises
    ------
    RunnerError
        If `deal_rows` is not a DataFrame or lacks a column of the runner's rows (an
        AttributeError / KeyError until the session-18 probe).
    """
    _check_table(deal_rows, ["deal"] + [f"{c}_{j}" for j in (0, 1) for c in (
        "score_first", "score_second", "start", "moves_a", "moves_b", "seconds_a", "seconds_b")], "deal_rows")
    out = []
    for row in deal_rows.to_dict("records"):
        for j in (0, 1):
            s1, s2 = int(row[f"score_first_{j}"]), int(row[f"score_second_{j}"])
            m = s1 - s2 if j == 0 else s2 - s1
            res = "win" if m > 0 else "draw" if m == 0 else "loss"
            out.append({
                "deal": int(row["deal"]),
                "game": 2 * int(row["deal"]) + j,
                "a_seat": "first" if j == 0 else "second",
                "player_first": a if j == 0 else b,
                "player_second": b if j == 0 else a,
                "start": int(row[f"start_{j}"]),
                "score_first": s1,
                "score_second": s2,
                "margin_a": m,
                "result_a": res,
                "win_a": int(m > 0),
                "draw": int(m == 0),
                "loss_a": int(m < 0),
                "score_a": 1.0 if m > 0 else 0.5 if m == 0 else 0.0,
                "moves_a": int(row[f"moves_a_{j}"]),
                "moves_b": int(row[f"moves_b_{j}"]),
                "seconds_a": float(row[f"seconds_a_{j}"]),
                "seconds_b": float(row[f"seconds_b_{j}"]),
            })
    return pd.DataFrame(out)


def _check_table(table: Any, columns: list[str], name: str) -> None:
    """Refuse `table` unless it is a DataFrame holding `columns`, naming the first missing."""
    from ..errors import RunnerError

    if not isinstance(table, pd.DataFrame):
        raise RunnerError(f"{name} must be a pandas DataFrame, got {type(table).__name__}")
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise RunnerError(f"{name} has no column {missing[0]!r}")


def _check_results(games: pd.DataFrame) -> None:
    """Refuse (RunnerError) a games table whose results are not one of win, draw or loss
    per game, each 1 or 0, or whose margins are not whole numbers, naming the game."""
    from ..errors import RunnerError
    from ..montecarlo import _not_flag, _plain, not_whole

    def where(r: int) -> str:
        return f"game {_plain(games['game'].iloc[r])} (row {r})" if "game" in games else f"row {r}"

    for col in ("win_a", "draw", "loss_a"):
        bad = _not_flag(games[col])
        if bad.any():
            r = int(np.flatnonzero(bad)[0])
            raise RunnerError(f"games: {where(r)} has {col} = {_plain(games[col].iloc[r])!r}; win_a, draw and"
                              " loss_a hold 1 or 0 (True or False), one of them 1 in each game")
    ones = sum(games[c].astype(int).to_numpy() for c in ("win_a", "draw", "loss_a"))
    bad = ones != 1
    if np.any(bad):
        r = int(np.flatnonzero(bad)[0])
        raise RunnerError(f"games: {where(r)} has win_a, draw, loss_a = "
                          f"{', '.join(str(int(games[c].iloc[r])) for c in ('win_a', 'draw', 'loss_a'))};"
                          " a game is won, drawn or lost: one of them 1")
    bad = games["margin_a"].notna().to_numpy() if games["margin_a"].dtype == bool else not_whole(games["margin_a"])
    if bad.any():
        r = int(np.flatnonzero(bad)[0])
        raise RunnerError(f"games: {where(r)} has margin_a = {_plain(games['margin_a'].iloc[r])!r}; margin_a holds"
                          " A's final margin, a whole number of points")


def summarise(games: pd.DataFrame) -> dict[str, Any]:
    """Player A's results over per-game rows (:func:`games_table`).

    The two games of a deal are played on the same cards, so they are not independent
    trials: every interval here counts the deal as the unit (the cluster).  Each rate is
    pooled over games (successes / games) and its interval is
    :func:`~crowns_solver.montecarlo.cluster_wilson_interval` with one cluster per deal,
    its trials the deal's games (2) and its successes:

    - ``win``: the deal's games A won (0, 1 or 2);
    - ``draw``: its drawn games (0, 1 or 2);
    - ``loss``: its games A lost (0, 1 or 2);
    - ``score``: A's win points, a win 1 and a draw 1/2 (0 to 2 in steps of 1/2).

    A deal can hold two successes of each (A can win both games), so none of these is a
    ``one_success`` rate: the interval is Wilson's on the effective sample size of the
    clustered rate (Korn & Graubard 1998).  Where both games of every deal go the same way
    that is about the Wilson interval of the deals (the match is worth half its games),
    where they always split, the Wilson interval of the games.  (Before session 21 these
    were Wilson intervals over games, as if the two games of a deal were independent.)

    Parameters
    ----------
    games : pandas.DataFrame
        Rows of :func:`games_table`.

    Returns
    -------
    dict
        ``games``, ``deals``, ``wins``, ``draws``, ``losses``; ``win``, ``draw``, ``loss``
        (rates 0..1) and ``score`` (win + draw/2 per game, 0..1) each with ``_low`` and
        ``_high`` (95%, each deal one observation, as above; rates NaN and bounds 0..1
        without games); ``margin`` (mean of A's final margin per game, points) with
        ``margin_low``/``margin_high`` (Student t 95% interval over deals, each deal's
        two margins averaged first; NaN bounds with one deal);
        ``seconds_per_move_a``/``_b`` (mean time per move, seconds).

    Raises
    ------
    RunnerError
        If `games` is not a DataFrame or lacks a column of :func:`games_table` (a
        TypeError / KeyError until the session-18 probe); or if a ``win_a``, ``draw``
        or ``loss_a`` is not 1 or 0 (True or False), a game has not exactly one of them
        1, or a ``margin_a`` is not a whole number, naming the column, the game and the
        values expected (session 23: text such as ``"yes"`` raised an unnamed
        ValueError, and ``win_a`` 2 counted two wins in one game).
    """

    _check_table(games, ["deal", "win_a", "draw", "loss_a", "margin_a", "moves_a", "moves_b", "seconds_a",
                         "seconds_b"], "games")
    _check_results(games)

    n = len(games)
    w, d, lo = int(games["win_a"].sum()), int(games["draw"].sum()), int(games["loss_a"].sum())
    out: dict[str, Any] = {"games": n, "deals": int(games["deal"].nunique()), "wins": w, "draws": d, "losses": lo}
    # one cluster per deal: its games and, per rate, its successes (a draw is half a win point)
    per_deal = games.assign(_points=games["win_a"] + games["draw"] / 2).groupby("deal").agg(
        trials=("win_a", "size"), win=("win_a", "sum"), draw=("draw", "sum"), loss=("loss_a", "sum"),
        score=("_points", "sum"))
    trials = per_deal["trials"].to_numpy(dtype=float)
    for name, k in (("win", w), ("draw", d), ("loss", lo), ("score", w + d / 2)):
        _, low, high = cluster_wilson_interval(per_deal[name].to_numpy(dtype=float), trials)
        out[name] = k / n if n else math.nan
        out[f"{name}_low"], out[f"{name}_high"] = float(low), float(high)
    pair = games.groupby("deal")["margin_a"].mean().to_numpy(dtype=float)
    out["margin"], out["margin_low"], out["margin_high"] = mean_interval(pair)
    ma, mb = int(games["moves_a"].sum()), int(games["moves_b"].sum())
    out["seconds_per_move_a"] = float(games["seconds_a"].sum()) / ma if ma else math.nan
    out["seconds_per_move_b"] = float(games["seconds_b"].sum()) / mb if mb else math.nan
    return out


@dataclass(frozen=True)
class MatchResult:
    """The result of :func:`match`.

    Attributes
    ----------
    a, b : str
        The players' names.
    a_options, b_options : dict
        Their options.
    deals, seed, reach, start, chunk_size
        What was played: deals (each played twice), root seed, rules option ``reach``,
        the fixed start cell (None: the second player chooses), deals per chunk.
    games : pandas.DataFrame
        One row per game (:func:`games_table`).
    summary : dict
        Player A's results with 95% intervals (:func:`summarise`).
    cheating : tuple of str
        Which of the players cheat (see the clairvoyant player).
    """

    a: str
    b: str
    a_options: dict[str, Any]
    b_options: dict[str, Any]
    deals: int
    seed: int
    reach: str
    start: tuple[int, int] | None
    chunk_size: int
    games: pd.DataFrame = field(repr=False)
    summary: dict[str, Any] = field(repr=False)
    cheating: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON: the match parameters and the summary (not the per-game rows).

        Returns
        -------
        dict
            Every field but ``games``; ``start`` as ``[row, col]`` or None, NaN values of
            the summary as None.
        """
        return {
            "a": self.a, "b": self.b, "a_options": self.a_options, "b_options": self.b_options,
            "deals": self.deals, "seed": self.seed, "reach": self.reach,
            "start": None if self.start is None else list(self.start), "chunk_size": self.chunk_size,
            "cheating": list(self.cheating),
            "summary": {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in self.summary.items()},
        }

    def describe(self) -> str:
        """The summary as a few lines of text.

        Returns
        -------
        str
            The match, a warning per cheating player, A's win, draw, loss and score
            rates with 95% intervals, the mean margin in points and the time per move in
            milliseconds, one per line.
        """
        s = self.summary

        def pct(name: str) -> str:
            return f"{100 * s[name]:5.1f}% ({100 * s[name + '_low']:.1f} .. {100 * s[name + '_high']:.1f})"

        def num(x: float) -> str:
            return "n/a" if math.isnan(x) else number(x, "+.2f")

        start = "second player chooses" if self.start is None else f"fixed at {cell_text(self.start)}"
        deals = count(self.deals, "deal")
        lines = [
            f"{self.a} (A) vs {self.b} (B): {deals} x 2 games (seats exchanged), seed {self.seed},"
            f" reach {self.reach}, start cell {start}",
        ]
        if self.a_options or self.b_options:
            # the search players' nodes, objective and evaluation: the text said none of them
            # (session 20), though they decide the results as much as the players' names
            def opts(o: Mapping[str, Any]) -> str:
                return ", ".join(f"{k}={v}" for k, v in o.items()) or "none"

            lines.append(f"player options: A {opts(self.a_options)}; B {opts(self.b_options)}")
        for who in self.cheating:
            lines.append(f"NOTE: {who} CHEATS: it sees the face-down cards (open value); for comparison only")
        lines += [
            f"A's results over {s['games']} games, 95% intervals (each deal one observation):",
            f"  win   {pct('win')}   ({s['wins']})",
            f"  draw  {pct('draw')}   ({s['draws']})",
            f"  loss  {pct('loss')}   ({s['losses']})",
            f"  score {pct('score')}   (win 1, draw 1/2)",
            f"  mean margin {num(s['margin'])} points ({num(s['margin_low'])} .. {num(s['margin_high'])}),"
            " A's score minus B's",
            f"time per move: A {1000 * s['seconds_per_move_a']:.2f} ms, B {1000 * s['seconds_per_move_b']:.2f} ms",
        ]
        return "\n".join(lines)


def _player_name(name: Any, what: str) -> str:
    """A built-in player's name as :data:`PLAYER_NAMES` spells it (any case and spaces
    around accepted, as the other games' policy names); PolicyError naming `what` if
    there is no such player."""
    key = name.strip().lower() if isinstance(name, str) else None
    if key not in PLAYER_NAMES:
        raise PolicyError(f"unknown Cross Kings player {name!r} for {what}; choose from {', '.join(PLAYER_NAMES)}")
    return key


def _check_options(name: str, options: Any, what: str) -> dict[str, Any]:
    """The options of the built-in player `name` (already checked by
    :func:`_player_name`) as a dict, checked by building the player."""
    if options is None:
        return {}
    if not isinstance(options, Mapping):
        raise PolicyError(f"{what}'s options must be a mapping, got {type(options).__name__}")
    opts = dict(options)
    make_player(name, **opts)   # validates names and values
    return opts



def _central(start: Any) -> int:
    """The cell number of a start cell; PositionError unless it is one of the four central cells."""
    cell = cell_index(start)
    if cell not in CENTRAL_CELLS:
        r, c = cell_coords(cell)
        raise PositionError(f"the start cell must be a central cell (2,2), (2,3), (3,2) or (3,3), got ({r},{c})")
    return cell


def _check_run(reach: Any, start: Any, deals: Any, seed: Any, chunk_size: Any) -> tuple[str, int | None]:
    """Validate the options every match-like run shares; the reach as a plain str (a
    NumPy ``str_`` too; a NumPy array is refused, naming reach: it reached the results
    file's header, "params must be JSON-able", until session 24) and the start cell's
    index (or None).

    Raises RulesError (reach), PositionError (start cell not central) or RunnerError (a
    count out of range), as :func:`match` documents.
    """
    reach = Rules(reach=reach).reach
    start_cell = None
    if start is not None:
        start_cell = _central(start)
    check_whole_number("deals", deals, 1, MAX_DEALS)
    check_whole_number("seed", seed, 0)
    check_whole_number("chunk_size", chunk_size, 1)
    return reach, start_cell


def match(a: str = "search", b: str = "greedy", deals: int = 100, *, seed: int = 0,
          a_options: Mapping[str, Any] | None = None, b_options: Mapping[str, Any] | None = None,
          reach: str = "any", start: Any = None, chunk_size: int = DEFAULT_CHUNK_SIZE,
          executor: Executor | None = None, workers: int | None = None, progress: bool = False,
          out: str | Path | None = None) -> MatchResult:
    """Play a duplicate match between two players over seeded deals.

    Each of `deals` random deals is played twice, with A first and then with A second;
    the deal (face-down cards included) is the same in both games.

    Parameters
    ----------
    a, b : str
        Player names (:data:`~crowns_solver.cross_kings.players.PLAYER_NAMES`).
    deals : int
        Number of deals (1 to :data:`MAX_DEALS`); the match has ``2 * deals`` games.
    seed : int
        Root seed (>= 0): deal ``d`` and its players' generators come from
        ``SeedSequence([seed, d])``.
    a_options, b_options : mapping, optional
        Player options for :func:`~crowns_solver.cross_kings.players.make_player`, e.g.
        ``{"node_limit": 100_000}``.  A ``time_limit`` makes the match depend on the
        machine's speed; node limits keep it reproducible.
    reach : {"any", "nearest"}
        The rules option (RULES.md "Move").
    start : (row, col), optional
        Fix the start cell (crosskings.net plays from (2, 2)); default: the second player
        chooses it.
    chunk_size : int
        Deals per chunk of the runner (results do not depend on it, so a results file
        made with another chunk size is resumed with its own).
    executor, workers, progress, out
        Passed to :func:`crowns_solver.montecarlo.run` (any Executor; worker processes;
        a progress bar; a resumable results file).

    Returns
    -------
    MatchResult
        The games and A's results with 95% intervals.

    Raises
    ------
    PolicyError
        If a player name or option is invalid.
    RulesError
        If `reach` is invalid.
    PositionError
        If `start` is not a central cell.
    RunnerError, ResultsFileError
        If `deals` (1 to :data:`MAX_DEALS`), `seed`, `chunk_size` or `workers` is out of range, or `out` belongs
        to another run.
    """
    from .. import montecarlo

    a, b = _player_name(a, "player A"), _player_name(b, "player B")
    a_opts = _check_options(a, a_options, "player A")
    b_opts = _check_options(b, b_options, "player B")
    reach, start_cell = _check_run(reach, start, deals, seed, chunk_size)
    # deal d is played from SeedSequence([seed, d]) whatever the chunk size (tested): a
    # results file made with another one is resumed with its own (refused before session 20)
    chunk_size = montecarlo._resume_chunk_size(out, "cross-kings", chunk_size)
    params = {"a": a, "b": b, "a_options": a_opts, "b_options": b_opts, "reach": reach,
              "start": start_cell, "chunk_size": int(chunk_size), "root_seed": int(seed)}
    rows = montecarlo.run(play_chunk, int(deals), params=params, seed=int(seed), chunk_size=int(chunk_size),
                          executor=executor, workers=workers, progress=progress, out=out,
                          meta={"game": "cross-kings", "format": "duplicate: two games per deal, seats exchanged"})
    games = games_table(rows, a, b)
    cheating = tuple(dict.fromkeys(n for n in (a, b) if getattr(make_player(n), "cheats", False)))
    return MatchResult(a=a, b=b, a_options=a_opts, b_options=b_opts, deals=int(deals), seed=int(seed),
                       reach=reach, start=None if start_cell is None else cell_coords(start_cell),
                       chunk_size=int(chunk_size), games=games, summary=summarise(games), cheating=cheating)


def self_play_chunk(chunk_index: int, n_games: int, seed: np.random.SeedSequence, *, player: str,
                    options: Mapping[str, Any], reach: str, start: int | None, chunk_size: int,
                    root_seed: int, symmetry: str = "identity") -> list[dict[str, Any]]:
    """Monte Carlo chunk of :func:`self_play`: one game per deal, the same player in both seats.

    Parameters
    ----------
    chunk_index : int
        The chunk's number (0, 1, ...).
    n_games : int
        Deals in this chunk.
    seed : numpy.random.SeedSequence
        The runner's chunk seed (unused: the deals' seeds come from `root_seed`).
    player : str
        The player's name.
    options : mapping
        Its options (:func:`~crowns_solver.cross_kings.players.make_player`).
    reach : {"any", "nearest"}
        The rules option (RULES.md, Cross Kings, "Move").
    start : int or None
        A fixed start cell number (one of the four central cells), None: the second
        player chooses.
    chunk_size : int
        Deals per chunk (`n_games` of every chunk but the last).
    root_seed : int
        The match's seed.
    symmetry : str
        The grid symmetry every deal (and `start`) is turned by (:func:`self_play`).

    Returns
    -------
    list of dict
        One row per deal, with the columns :func:`self_play` returns.
    """
    p = make_player(player, **options)
    m = symmetry_map(symmetry)
    if start is not None:
        start = m[start]
    rows = []
    for k in range(n_games):
        d = chunk_index * chunk_size + k
        deal_ss, first_ss, second_ss = _game_streams(_deal_seed(root_seed, d))
        deal = Deal.random(np.random.default_rng(deal_ss)).transformed(symmetry)
        pos = deal.position(Rules(reach=reach))  # type: ignore[arg-type]
        g = play_game(pos, p, p, rngs=(np.random.default_rng(first_ss), np.random.default_rng(second_ss)),
                      start=start)
        s1, s2 = g.scores
        rows.append({"deal": d, "start": g.position.start, "score_first": s1, "score_second": s2,
                     "margin_first": s1 - s2, "win_first": int(s1 > s2), "draw": int(s1 == s2),
                     "loss_first": int(s1 < s2), "moves": g.moves[0] + g.moves[1],
                     "seconds": g.seconds[0] + g.seconds[1]})
    return rows


def self_play(player: str = "search", deals: int = 100, *, seed: int = 0,
              options: Mapping[str, Any] | None = None, reach: str = "any", start: Any = None,
              chunk_size: int = DEFAULT_CHUNK_SIZE, executor: Executor | None = None,
              workers: int | None = None, progress: bool = False, symmetry: str = "identity",
              out: str | Path | None = None) -> pd.DataFrame:
    """One game per seeded deal with the same player in both seats (first-player advantage).

    Deal ``d`` is dealt from ``SeedSequence([seed, d])`` as in :func:`match`; the seats'
    generators are independent.  With the same player in both seats a duplicate match
    would replay each game mirrored, so each deal is played once.

    Parameters
    ----------
    player : str
        A player name.
    options : mapping, optional
        Its options (e.g. ``{"node_limit": 100_000}``).
    deals, seed, reach, start, chunk_size, executor, workers, progress
        As for :func:`match`.
    out : str or Path, optional
        A resumable JSON-lines results file, as :func:`match`'s `out`
        (:func:`crowns_solver.montecarlo.run`): written as chunks finish; an existing
        file of the same run is resumed (one made with another chunk size with its own:
        the games do not depend on it), one of another run is refused, never replaced.
        ``crowns report FILE`` reports it (first player's results).
    symmetry : str, default "identity"
        Play every deal turned or mirrored by this symmetry of the grid
        (:data:`~crowns_solver.cross_kings.position.SYMMETRIES`), the fixed `start` cell
        with it: the same games seen in another orientation, to check that a player's
        results do not depend on the grid's orientation.  The ``start`` column holds the
        cell in the turned grid.

    Returns
    -------
    pandas.DataFrame
        One row per game: ``deal``, ``start`` (cell number), ``score_first``,
        ``score_second``, ``margin_first`` (points), ``win_first``, ``draw``,
        ``loss_first`` (0/1), ``moves``, ``seconds`` (time spent choosing).

    Raises
    ------
    PolicyError, RulesError, PositionError, RunnerError, ResultsFileError
        As for :func:`match` (`out` included); PositionError also for an unknown `symmetry`.
    """
    from .. import montecarlo

    player = _player_name(player, "the player")
    opts = _check_options(player, options, "the player")
    reach, start_cell = _check_run(reach, start, deals, seed, chunk_size)
    symmetry_map(symmetry)   # PositionError for an unknown name (or not a str)
    symmetry = str.__str__(symmetry)   # a NumPy str_ as str
    # deal d is played from SeedSequence([seed, d]) whatever the chunk size
    chunk_size = montecarlo._resume_chunk_size(out, "cross-kings", chunk_size)
    params = {"player": player, "options": opts, "reach": reach, "start": start_cell,
              "chunk_size": int(chunk_size), "root_seed": int(seed), "symmetry": symmetry}
    rows = montecarlo.run(self_play_chunk, int(deals), params=params, seed=int(seed), chunk_size=int(chunk_size),
                          executor=executor, workers=workers, progress=progress, out=out,
                          meta={"game": "cross-kings", "format": "self-play: one game per deal"})
    return rows.drop(columns=["game"])
