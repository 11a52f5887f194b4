"""The shared Monte Carlo runner: many games, in fixed chunks, on any executor.

Every game of this package (King's Crowns, Five Crowns, Cross Kings) runs its
simulations through :func:`run`.  A game supplies one picklable top-level function::

    def play_chunk(chunk_index: int, n_games: int, seed: numpy.random.SeedSequence,
                   **params) -> pandas.DataFrame   # or a list of dicts

that plays `n_games` games from `seed` and returns one row per game.  :func:`run`
splits the games into chunks of a fixed size, gives chunk ``i`` the seed
``SeedSequence(seed).spawn(n_chunks)[i]`` (that is ``SeedSequence(seed,
spawn_key=(i,))``, whatever the number of chunks), runs the chunks on an executor and
puts the rows back in chunk order.  So the table depends only on (`play_chunk`,
`params`, `seed`, `chunk_size`, `games`), never on the executor or the number of workers:
one process, a process pool, a thread pool, or a Dask cluster
(``distributed.Client(...).get_executor()``) all give the same table.  The built-in
games give each game its own generator derived from the chunk's seed (King's Crowns:
``SeedSequence([seed.entropy, game number])``, independent of the chunk size; Five
Crowns: ``seed.spawn(n_games)[j]``), so one changed game never shifts the others, runs
with the same seed play the same deals, and the first ``k`` games of a run are the same
for any ``games >= k``.  A game that changes its seeding records the scheme in
``params`` (compared on resume), as King's Crowns does with ``"seeding"``.

Results file (``out=``): JSON lines.  Line 1 is a header ``{"format":
"crowns-montecarlo", "format_version": 1, "meta": {...}}``; every further line is one
finished chunk ``{"chunk": i, "n_games": k, "columns": {name: [values...]}}``, written
in one piece and flushed as soon as the chunk finishes (in completion order).  A run
killed mid-write leaves at most a torn last line, which is dropped on resume.  Running
again with the same file resumes: the chunks already there are read back, only the
missing ones are played, and the table is the same as an uninterrupted run's.  A file
made with a different seed, chunk size, number of games, chunk function, parameters
(rules included) or library version is refused with
:class:`~crowns_solver.errors.ResultsFileError` (King's Crowns, whose games do not
depend on the chunk size, resumes a file with the file's chunk size instead), and so is
one holding a value :func:`check_columns` refuses (a hand-edited file).  Every reader
refuses a header or chunk line whose keys are not those the writers write (an unknown
key named with the close known one, a missing one named): the header's top level, the
``meta`` keys :data:`META_KEYS` and, for the package's own games, their ``meta``,
``params`` and ``rules`` keys, past and present.

Conventions for the tables (the ``crowns report`` command and :func:`win_rates` rely on
them): a column ``game`` (added by :func:`run`), ``policy_<seat>`` for each seat's
player, ``winner`` (the winning seat, -1 for none) or ``win_<seat>`` columns (1 when that
seat won, 0 when not; ties may give several 1s), and optionally ``turns`` (game length)
and ``players``.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import signal
import statistics
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import (
    FIRST_COMPLETED,
    Executor,
    Future,
    InvalidStateError,
    ProcessPoolExecutor,
    wait,
)
from concurrent.futures import process as _cf_process
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ._checks import check_choice, check_flag, check_whole_number
from .errors import ResultsFileError, RunnerError

__all__ = [
    "run",
    "chunk_seed",
    "chunk_sizes",
    "read_results",
    "check_columns",
    "not_whole",
    "read_header",
    "HEADER_KEYS",
    "META_KEYS",
    "CHUNK_KEYS",
    "wilson_interval",
    "mean_interval",
    "cluster_wilson_interval",
    "ratio_influence",
    "cluster_variance",
    "win_rates",
    "process_pool",
    "stop_pool",
    "FORMAT",
    "DEFAULT_CHUNK_SIZE",
    "MAX_GAMES",
    "MAX_WORKERS",
]

FORMAT = "crowns-montecarlo"
FORMAT_VERSION = 1
DEFAULT_CHUNK_SIZE = 1000
#: Most games one run may have: the rows of every game are held in memory (a few hundred
#: bytes each), so a run beyond this would exhaust a machine's memory, not finish.
MAX_GAMES = 100_000_000
#: Most processes a pool of :func:`process_pool` (and so :func:`run` without an executor,
#: and the studies) starts.  A fork-started pool starts all its processes at its first
#: chunk, so ``workers=100_000`` forked that many copies of the interpreter, and a
#: number past a C int raised OverflowError (session-18 probe).
MAX_WORKERS = 256
_WORKERS_WHY = "each is a process started on this machine"


def _check_workers(workers: Any, *, bounded: bool = True) -> int:
    """`workers` checked to be a whole number >= 1, and at most :data:`MAX_WORKERS` when
    `bounded` (processes of our own pool; an executor's chunks in flight are not bounded):
    RunnerError naming ``workers``, for :func:`process_pool`, :func:`run` and ``crowns report``."""
    return check_whole_number("workers", workers, 1, MAX_WORKERS if bounded else None, why=_WORKERS_WHY)


def _check_games(games: Any, lo: int = 1) -> int:
    """`games` checked to be a whole number from `lo` to :data:`MAX_GAMES` (RunnerError,
    naming ``games``): the one check of a run's size, for :func:`run`,
    :func:`chunk_sizes` and ``crowns report``."""
    return check_whole_number("games", games, lo, MAX_GAMES, why="the results are held in memory")
#: Keys of the header that must match for a run to resume from a file.
RESUME_KEYS = ("seed", "chunk_size", "games", "play_chunk", "params", "version", "game")

PlayChunk = Callable[..., "pd.DataFrame | list[dict[str, Any]]"]


# ---------------------------------------------------------------- seeds and chunks

def chunk_seed(seed: int, chunk_index: int) -> np.random.SeedSequence:
    """The seed of chunk `chunk_index`: ``SeedSequence(seed).spawn(n)[chunk_index]``
    for any ``n > chunk_index``.

    Parameters
    ----------
    seed : int
        The run's root seed, a whole number >= 0.
    chunk_index : int
        The chunk's index, a whole number >= 0.

    Returns
    -------
    numpy.random.SeedSequence
        The chunk's seed: the same for a chunk whatever the number of chunks or workers,
        so a run's results do not depend on how it is split.

    Raises
    ------
    RunnerError
        If `seed` or `chunk_index` is not a whole number >= 0 (a float, string or
        negative number reached NumPy's TypeError / ValueError: session-18 probe).
    """
    seed = check_whole_number("seed", seed, 0)
    chunk_index = check_whole_number("chunk_index", chunk_index, 0)
    return np.random.SeedSequence(seed, spawn_key=(chunk_index,))


def chunk_sizes(games: int, chunk_size: int) -> list[int]:
    """Games in each chunk: all `chunk_size` except possibly a smaller last one.

    Parameters
    ----------
    games : int
        Games in the run, a whole number >= 0, at most :data:`MAX_GAMES`.
    chunk_size : int
        Games per chunk, a whole number >= 1.

    Returns
    -------
    list of int
        ``ceil(games / chunk_size)`` sizes summing to `games` (empty for 0 games).

    Raises
    ------
    RunnerError
        If `games` or `chunk_size` is out of range or not a whole number (a chunk size
        of 0 raised ZeroDivisionError, and -10 games gave ``[2]``: session-18 probe).
    """
    games = _check_games(games, 0)
    chunk_size = check_whole_number("chunk_size", chunk_size, 1)
    full, rest = divmod(games, chunk_size)
    return [chunk_size] * full + ([rest] if rest else [])


def _call_chunk(play_chunk: PlayChunk, chunk_index: int, n_games: int, seed: np.random.SeedSequence,
                params: dict[str, Any]) -> dict[str, list[Any]]:
    """Run one chunk and return its rows as JSON-able columns (runs in the worker).

    Parameters travel as one dict, not as keyword arguments, so they can never collide
    with an executor's own keywords (Dask's ``submit`` takes ``key=``, ``workers=``...).
    """
    rows = play_chunk(chunk_index, n_games, seed, **params)
    frame = rows if isinstance(rows, pd.DataFrame) else pd.DataFrame(_chunk_rows(rows, play_chunk, chunk_index))
    if len(frame) != n_games:
        raise RunnerError(f"{_qualname(play_chunk)} returned {len(frame)} rows for {n_games} games (chunk {chunk_index})")
    return _columns(frame)


def _chunk_rows(rows: Any, play_chunk: PlayChunk, chunk_index: int) -> list[Mapping[str, Any]]:
    """A chunk's rows as a list of mappings, or a RunnerError naming what the chunk
    function returned instead (it raised a TypeError from inside the runner, or made a
    table with a column named 0 out of a list of numbers: session 22)."""
    what = f"{_qualname(play_chunk)} (chunk {chunk_index})"
    if isinstance(rows, (str, bytes, Mapping)) or not isinstance(rows, Iterable):
        raise RunnerError(f"{what} returned {type(rows).__name__}; a chunk function returns a DataFrame"
                          " or a list of dicts, one row per game")
    rows = list(rows)
    for k, row in enumerate(rows):
        if not isinstance(row, Mapping):
            raise RunnerError(f"{what} returned a list whose item {k} is {type(row).__name__}; a chunk function"
                              " returns a DataFrame or a list of dicts, one row per game")
    return rows


def _plain(value: Any) -> Any:
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and math.isnan(value):
        return None
    if value is pd.NA or value is pd.NaT:
        return None
    return value


def _column(series: pd.Series) -> list[Any]:
    kind = series.dtype.kind
    if kind in "iub":  # tolist() already gives Python ints / bools
        return series.tolist()
    values = series.tolist()
    if kind == "f":
        return [None if v != v else v for v in values]
    if series.isna().any() or any(isinstance(v, np.generic) for v in values):
        return [_plain(v) for v in values]
    return values


def _columns(frame: pd.DataFrame) -> dict[str, list[Any]]:
    return {str(col): _column(frame[col]) for col in frame.columns}


def _chunk_line(i: int, n_games: int, cols: dict[str, list[Any]], play_chunk: PlayChunk) -> str:
    """Chunk `i`'s line of the results file, or a RunnerError naming the column whose
    values JSON cannot hold (an object, a set...): it was a bare TypeError from json
    after the chunk had run, and the same again on every resume (session 22)."""
    try:
        return json.dumps({"chunk": i, "n_games": n_games, "columns": cols}, separators=(",", ":")) + "\n"
    except (TypeError, ValueError):
        for name, values in cols.items():
            for value in values:
                try:
                    json.dumps(value)
                except (TypeError, ValueError):
                    raise RunnerError(f"{_qualname(play_chunk)} (chunk {i}) returned {type(value).__name__} values in"
                                      f" column {name!r}, which a results file cannot hold: return numbers, text,"
                                      " True/False or None (or lists of them); nothing of this chunk was"
                                      " written") from None
        raise


def _qualname(fn: Callable[..., Any]) -> str:
    if isinstance(getattr(fn, "record_name", None), str):
        return fn.record_name  # type: ignore[attr-defined]
    return f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}"


def _jsonable(obj: Any, what: str) -> Any:
    try:
        return json.loads(json.dumps(obj, default=_json_default))
    except (TypeError, ValueError) as exc:
        raise RunnerError(f"{what} must be JSON-able data to be recorded with the results: {exc}") from None


def _json_default(obj: Any) -> Any:
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, (set, frozenset, tuple)):
        return list(obj)
    if hasattr(obj, "to_dict"):
        return obj.to_dict()
    raise TypeError(f"cannot write {type(obj).__name__} as JSON")


# ---------------------------------------------------------------- results file

def _header(meta: dict[str, Any]) -> str:
    return json.dumps({"format": FORMAT, "format_version": FORMAT_VERSION, "meta": meta}) + "\n"


def read_header(path: str | Path) -> dict[str, Any]:
    """The metadata recorded in a results file's header line.

    Parameters
    ----------
    path : str or os.PathLike
        The results file.

    Returns
    -------
    dict
        The header's ``meta`` object: the run's ``seed``, ``chunk_size``, ``games``,
        ``play_chunk`` (the chunk function's name), ``params``, ``version`` (of the
        library), ``game`` and the caller's other metadata.

    Raises
    ------
    ResultsFileError
        If the file does not start with a crowns-montecarlo header, or the header has an
        unknown key or lacks one (its top level, :data:`META_KEYS`, and for the
        package's own games their meta, params and rules keys); if `path` is empty
        (it would name the current folder), a folder, not a regular file (a device, a
        pipe), or not a str or path-like.
    OSError
        If it cannot be read.
    """
    _check_results_input(path)
    with open(path, "rb") as f:
        first = f.readline()
    return _parse_header(first, path)


def _check_results_input(path: Any) -> None:
    """Refuse (ResultsFileError) a results file path that is empty, not a path, a
    folder, or not a regular file: a device such as /dev/zero was read until memory ran
    out, and a named pipe waited for a writer forever (session 21)."""
    from ._io import check_input_given

    check_input_given(path, "results file", ResultsFileError)
    p = Path(os.fsdecode(path))
    if p.is_dir():
        raise ResultsFileError(f"{os.fsdecode(path)} is a folder, not a results file")
    if p.exists() and not p.is_file():
        raise ResultsFileError(f"{os.fsdecode(path)}: not a regular file")


#: Keys of a results file's header line (:func:`_header`).
HEADER_KEYS = ("format", "format_version", "meta")
#: Keys :func:`run` writes in every header's ``meta`` (the caller's `meta` adds more).
META_KEYS = ("seed", "chunk_size", "games", "play_chunk", "params", "version", "game", "created")
#: Keys of a chunk line (:func:`_chunk_line`).
CHUNK_KEYS = ("chunk", "n_games", "columns")

# What the package's own writers put in a header beyond META_KEYS, past and present, as
# (required keys, keys some versions wrote): the meta keys the caller adds, the
# params, and the rules (in meta and params).  A key renamed or misspelt by hand used to
# be read as missing, so the report said "| seed | None |" and a resume refused the file
# for a null seed (session 24).  Headers of other games (a caller's own chunk function)
# have only META_KEYS checked: their meta and params are the caller's.
_KC_RULES = (("target", "max_turns", "deck_name", "deck"), ())
_FC_RULES = (("players", "sets", "rounds", "ties", "max_tiebreaks", "max_turns", "first_dealer"),
             ("all_wild_melds",))   # all_wild_melds since session 20
_WRITERS: dict[str, dict[str, tuple[tuple[str, ...], tuple[str, ...]]]] = {
    # kings_crowns.simulate (seeding since the per-game seeding)
    "kings-crowns": {"meta": (("rules", "target"), ()), "rules": _KC_RULES,
                     "params": (("players", "policies", "rules", "rotate", "chunk_size"), ("seeding",))},
    # five_crowns.simulate (duplicate only with --duplicate)
    "five-crowns": {"meta": (("rules",), ()), "rules": _FC_RULES,
                    "params": (("players", "policies", "rules", "rotate", "chunk_size"), ("duplicate",))},
    # cross_kings.match and self_play (symmetry since session 20)
    # (format, the kind of run, is written by match and self_play, not by a caller of
    # run() with their chunk functions, as the tests and studies are)
    "crowns_solver.cross_kings.match.play_chunk": {
        "meta": ((), ("format",)),
        "params": (("a", "b", "a_options", "b_options", "reach", "start", "chunk_size", "root_seed"), ())},
    "crowns_solver.cross_kings.match.self_play_chunk": {
        "meta": ((), ("format",)),
        "params": (("player", "options", "reach", "start", "chunk_size", "root_seed"), ("symmetry",))},
}


def _key_problem(obj: Any, required: Iterable[str], optional: Iterable[str], what: str, *,
                 others: bool = False) -> str | None:
    """Why the JSON object `obj` (`what`, e.g. ``"the header's meta"``) is not an object
    holding every `required` key and (unless `others`) no key beyond `required` and
    `optional`; None when it is.  An unknown key is named with the close known one
    (:func:`crowns_solver._checks.unknown_keys`), a missing one with the close given one."""
    import difflib

    from ._checks import unknown_keys

    if not isinstance(obj, dict):
        return f"{what} is {json.dumps(obj)[:40]}, not an object"
    required, optional = list(required), list(optional)
    known = required + optional
    parts = []
    unknown = None if others else unknown_keys(obj, known, what)
    if unknown:
        parts.append(unknown)
    missing = [k for k in required if k not in obj]
    if missing:
        strays = [k for k in obj if k not in known]
        said = []
        for key in missing:
            close = difflib.get_close_matches(key, strays, n=1)
            said.append(f"{key!r}" + (f" (is {close[0]!r} it misspelt?)" if close and others else ""))
        parts.append(f"{what} lacks the key{'s' if len(missing) > 1 else ''} {', '.join(said)}")
    return "; ".join(parts) or None


def _writer(meta: dict[str, Any]) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]] | None:
    """The entry of :data:`_WRITERS` for a header's meta: by its game, else by its chunk
    function (so a misspelt or missing ``game`` is still checked as its writer wrote it;
    King's Crowns and Five Crowns chunk functions, custom-policy ones included, live in
    their game's package), or None for a caller's own game."""
    game, chunk = meta.get("game"), meta.get("play_chunk")
    if isinstance(game, str) and game in _WRITERS:
        return _WRITERS[game]
    if not isinstance(chunk, str):
        return None
    if chunk in _WRITERS:
        return _WRITERS[chunk]
    for package, name in (("kings_crowns", "kings-crowns"), ("five_crowns", "five-crowns")):
        if chunk.startswith((f"crowns_solver.{package}.", f"<crowns_solver.{package}.")):
            return _WRITERS[name]
    return None


def _header_problem(head: dict[str, Any]) -> str | None:
    """Why a parsed header line (format already checked) is not one :func:`run` writes, or None."""
    problem = _key_problem(head, HEADER_KEYS, (), "the header")
    if problem:
        return problem
    if head["format_version"] != FORMAT_VERSION:
        return f"results file format version {json.dumps(head['format_version'])[:40]}, expected {FORMAT_VERSION}"
    meta = head["meta"]
    if not isinstance(meta, dict):
        return f"the header's meta is {json.dumps(meta)[:40]}, not an object"
    writer = _writer(meta)
    extra = writer["meta"] if writer else ((), ())
    problem = _key_problem(meta, META_KEYS + extra[0], extra[1], "the header's meta", others=writer is None)
    if problem:
        return problem
    params = meta["params"]
    if writer is None:
        return None if isinstance(params, dict) else f"the header's params is {json.dumps(params)[:40]}, not an object"
    problem = _key_problem(params, *writer["params"], "the header's params")
    if problem or "rules" not in writer:
        return problem
    for where, rules in (("meta", meta.get("rules")), ("params", params.get("rules"))):
        problem = _key_problem(rules, *writer["rules"], f"the header's {where} rules")
        if problem:
            return problem
    return None


def _parse_header(line: bytes, path: str | Path) -> dict[str, Any]:
    try:
        head = json.loads(line)
    except (ValueError, RecursionError):   # RecursionError: JSON nested too deeply
        head = None
    if not isinstance(head, dict) or head.get("format") != FORMAT or not isinstance(head.get("meta"), dict):
        raise ResultsFileError(f"{path}: not a crowns results file (no {FORMAT} header on line 1)")
    problem = _header_problem(head)
    if problem:
        raise ResultsFileError(f"{path}: line 1: {problem}")
    return head["meta"]


def _read_chunks(path: str | Path, *, repair: bool) -> tuple[dict[str, Any], dict[int, dict[str, list[Any]]], int]:
    """Header meta, finished chunks by index, and the byte length of the good part.

    Every line is written whole with its newline, so a run killed mid-write leaves at
    most a last line without a newline: that torn line is dropped (and cut off the file
    when `repair`).  A damaged line before it is an error.
    """
    with open(path, "rb") as f:
        data = f.read()
    if not data:
        raise ResultsFileError(f"{path}: empty results file")
    lines = data.split(b"\n")
    complete, torn = lines[:-1], lines[-1]  # torn is b"" when the file ends with a newline
    if not complete:
        raise ResultsFileError(f"{path}: not a crowns results file (no complete header line)")
    meta = _parse_header(complete[0], path)
    games, size = meta.get("games"), meta.get("chunk_size")
    if any(isinstance(v, bool) or not isinstance(v, int) or v < 1 for v in (games, size)):
        raise ResultsFileError(f"{path}: header lacks games or chunk_size (whole numbers >= 1)")
    if games > MAX_GAMES:
        raise ResultsFileError(f"{path}: header says {games:,} games, more than a run may have ({MAX_GAMES:,})")
    sizes = chunk_sizes(games, size)
    chunks: dict[int, dict[str, list[Any]]] = {}
    for lineno, line in enumerate(complete[1:], start=2):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except (ValueError, RecursionError):
            rec = None
        problem = _key_problem(rec, CHUNK_KEYS, (), "a chunk line") if isinstance(rec, dict) else None
        if problem:   # an unknown key was read past (session 24)
            raise ResultsFileError(f"{path}: line {lineno} is not a finished chunk: {problem}")
        try:
            if rec is None:
                raise ValueError
            idx, n_games, cols = rec["chunk"], rec["n_games"], rec["columns"]
            if (isinstance(idx, bool) or not isinstance(idx, int) or not isinstance(cols, dict)
                    or any(not isinstance(v, list) or len(v) != n_games for v in cols.values())):
                raise ValueError
        except (ValueError, KeyError, TypeError, RecursionError):
            raise ResultsFileError(f"{path}: line {lineno} is not a finished chunk") from None
        if not 0 <= idx < len(sizes):
            raise ResultsFileError(f"{path}: line {lineno} holds chunk {idx}, but the run has chunks 0..{len(sizes) - 1}"
                                   f" ({games} games of {size})")
        if n_games != sizes[idx]:
            raise ResultsFileError(f"{path}: line {lineno} holds {n_games!r} games in chunk {idx}, which has {sizes[idx]}")
        if idx in chunks:
            raise ResultsFileError(f"{path}: chunk {idx} appears twice (line {lineno})")
        chunks[idx] = cols
    good = len(data) - len(torn)
    if repair and torn:
        with open(path, "r+b") as f:
            f.truncate(good)
    return meta, chunks, good


def _frame(chunks: Mapping[int, dict[str, list[Any]]], sizes: list[int], chunk_size: int) -> pd.DataFrame:
    cols: dict[str, list[Any]] = {"game": []}
    order: list[str] = ["game"]
    done = sorted(i for i in chunks if i < len(sizes))
    for i in done:
        for name in chunks[i]:
            if name not in cols:
                cols[name] = []
                order.append(name)
    for i in done:
        n = sizes[i]
        c = chunks[i]
        if "game" not in c:
            cols["game"].extend(range(i * chunk_size, i * chunk_size + n))
        for name in order:
            if name == "game" and "game" not in c:
                continue
            cols[name].extend(c.get(name, [None] * n))
    return pd.DataFrame({name: cols[name] for name in order})


def read_results(path: str | Path) -> pd.DataFrame:
    """Read a results file written by :func:`run` (with ``out=``), finished or not.

    Parameters
    ----------
    path : str or os.PathLike
        The results file (a JSON header line, then one JSON row per game).

    Returns
    -------
    pandas.DataFrame
        One row per game played so far, in game order; ``attrs`` holds the header's
        metadata plus ``games_done`` (rows present) and ``complete`` (all games there).

    Raises
    ------
    ResultsFileError
        If the file is not a crowns results file, its header has an unknown key or lacks
        one (as :func:`read_header` says), or a line other than the last is damaged (a
        chunk line with keys other than :data:`CHUNK_KEYS` included); if `path` is empty (it would name the current folder), a folder, not a
        regular file (a device, a pipe), or not a str or path-like.
    OSError
        If it cannot be read.
    """
    _check_results_input(path)
    meta, chunks, _ = _read_chunks(path, repair=False)
    sizes = chunk_sizes(meta["games"], meta["chunk_size"])
    frame = _frame(chunks, sizes, meta["chunk_size"])
    check_columns(frame, meta, os.fsdecode(path))
    frame.attrs.update(meta)
    frame.attrs["games_done"] = len(frame)
    frame.attrs["complete"] = len(frame) == meta["games"]
    return frame


#: Columns of the table conventions that hold counts, by name (after any ``k<j>_``
#: prefix of a duplicate-deal table): the least value each may take.  Whole numbers only.
_COUNT_COLUMNS = [
    (re.compile(r"(turns|reshuffles|tiebreaks|tb_capped)"), 0),
    (re.compile(r"players"), 1),
    (re.compile(r"(crowns|total|r\d+)_\d+"), 0),
    (re.compile(r"place_\d+"), 1),
    (re.compile(r"(winner|out\d+)"), -1),
]


def not_whole(values: pd.Series, low: float = -math.inf) -> np.ndarray:
    """Where `values` is not a whole number >= `low`: a missing value, a fraction, text,
    a bool typed into a column of numbers (bool array, one per row).  The value check of
    :func:`check_columns` and of the Cross Kings results ``crowns report`` reads.

    Parameters
    ----------
    values : pandas.Series
        A column of a results table.
    low : float
        The least value allowed (default: no lower bound).

    Returns
    -------
    numpy.ndarray of bool
        True where the row's value is not a whole number >= `low`.
    """
    num = pd.to_numeric(values, errors="coerce").to_numpy(dtype=float)
    with np.errstate(invalid="ignore"):
        bad = ~(np.isfinite(num) & (num == np.floor(num)) & (num >= low))
    if values.dtype == object:
        bad |= values.map(lambda v: isinstance(v, (bool, np.bool_, str))).to_numpy(dtype=bool)
    return bad


def _not_flag(values: pd.Series) -> np.ndarray:
    """Where `values` is not a yes/no value (True or False, 1 or 0): text (``"yes"``,
    ``"1"``), a missing value, any other number (bool array, one per row).  The check of
    the ``won`` / ``win_a`` columns of the summaries (session 23: text there was
    concatenated by ``sum``, ``"1" + "0"`` counting 10 wins)."""
    if values.dtype == bool:
        return np.zeros(len(values), dtype=bool)
    num = pd.to_numeric(values, errors="coerce")
    bad = ~num.isin([0, 1]).to_numpy(dtype=bool) | values.isna().to_numpy(dtype=bool)
    if values.dtype == object or pd.api.types.is_string_dtype(values.dtype):
        bad |= values.map(lambda v: isinstance(v, (str, bytes))).to_numpy(dtype=bool)
    return bad


def check_columns(results: pd.DataFrame, meta: Mapping[str, Any] | None = None, source: str = "results") -> None:
    """Refuse values a results table cannot hold, naming the game and the column.

    Counts (``turns``, ``players``, ``reshuffles``, ``crowns_<seat>``, Five Crowns'
    ``total_<seat>``, ``r<round>_<seat>``, ``place_<seat>``, ``tiebreaks``...) must be
    whole numbers, at least 0 (``players`` and ``place_<seat>`` at least 1, ``winner``
    and ``out<round>`` at least -1, meaning none); missing values (seats absent from a
    game) are allowed.  When `meta` records the run's policies (``params.policies``),
    every ``policy_<seat>`` and ``winner_policy`` must be one of them (letter case aside).
    A ``winner_policy`` must be the winner's ``policy_<winner>``, and missing when
    ``winner`` is -1 (no winner).
    :func:`read_results` applies this to every file it reads, so a hand-edited file is
    refused before a report is drawn from it.

    Parameters
    ----------
    results : pandas.DataFrame
        One row per game.
    meta : mapping, optional
        The run's header metadata (for ``params.policies``).
    source : str
        What the table came from (a file name), for the error messages.

    Raises
    ------
    ResultsFileError
        Naming `source`, the game and the column of the first value out of place (or
        contradicting the row's winner and seats); or if `results` is not a DataFrame.
    """
    if not isinstance(results, pd.DataFrame):
        raise ResultsFileError(f"{source}: a results table must be a pandas DataFrame, got {type(results).__name__}")

    def fail(col: str, row: int, what: str) -> None:
        value = _plain(results[col].iloc[row])
        raise ResultsFileError(f"{source}: {_game_label(results, row)} has {col} = {value!r}; {what}")

    for col in results.columns:
        name = re.sub(r"^k\d+_", "", str(col))
        low = next((lo for pat, lo in _COUNT_COLUMNS if pat.fullmatch(name)), None)
        if low is None:
            continue
        raw = results[col]
        present = raw.notna().to_numpy()
        bad = present if raw.dtype == bool else present & not_whole(raw, low)
        if bad.any():
            fail(str(col), int(np.flatnonzero(bad)[0]), f"it must be a whole number >= {low}")
    params = (meta or {}).get("params")
    policies = params.get("policies") if isinstance(params, Mapping) else None
    if isinstance(policies, list) and policies and all(isinstance(p, str) for p in policies):
        known = {p.strip().casefold() for p in policies}
        for col in results.columns:
            name = re.sub(r"^k\d+_", "", str(col))
            if not (re.fullmatch(r"policy_\d+", name) or name == "winner_policy"):
                continue
            raw = results[col]

            def ok(v: Any) -> bool:
                return isinstance(v, str) and v.strip().casefold() in known

            try:  # each distinct value checked once: fast on big files
                strange = [v for v in raw.dropna().unique() if not ok(v)]
                bad = raw.notna().to_numpy() & raw.isin(strange).to_numpy()
            except TypeError:  # unhashable values (a list typed into the file)
                bad = raw.notna().to_numpy() & ~raw.map(ok).to_numpy(dtype=bool)
            if bad.any():
                fail(str(col), int(np.flatnonzero(bad)[0]),
                     f"the run's policies are {', '.join(dict.fromkeys(policies))} (its header's params)")
    for prefix in sorted({m.group(1) or "" for c in results.columns
                          if (m := re.fullmatch(r"(k\d+_)?winner_policy", str(c)))}):
        problem = _winner_policy_problem(results, prefix or "")
        if problem is not None:
            fail(*problem)


def _winner_policy_problem(results: pd.DataFrame, prefix: str) -> tuple[str, int, str] | None:
    """(column, row, why) of the first game whose ``winner_policy`` contradicts its
    ``winner`` and seats: it must be ``policy_<winner>`` (letter case and surrounding
    spaces aside), and missing when ``winner`` is -1 (no winner).  Rows whose winner is
    not a seat of the game are left to :func:`win_rates` (which says so); counts were
    checked whole before this.  (A hand-edited ``winner_policy`` was read and resumed,
    and counted by the tournament report, until session 20.)"""
    col, wcol = f"{prefix}winner_policy", f"{prefix}winner"
    if wcol not in results.columns:
        return None
    raw = results[col]
    winner = pd.to_numeric(results[wcol], errors="coerce").to_numpy(dtype=float)
    given = raw.to_numpy(dtype=object)
    expected = np.full(len(results), None, dtype=object)
    known = winner == -1   # no winner: nothing expected
    for c in results.columns:
        m = re.fullmatch(rf"{re.escape(prefix)}policy_(\d+)", str(c))
        if m is None:
            continue
        seat = int(m.group(1))
        pol = results[c].to_numpy(dtype=object)
        here = (winner == seat) & results[c].notna().to_numpy()
        expected[here] = pol[here]
        known |= here

    def same(a: Any, b: Any) -> bool:
        if b is None:
            return a is None or (isinstance(a, float) and math.isnan(a))
        return isinstance(a, str) and isinstance(b, str) and a.strip().casefold() == b.strip().casefold()

    # exact matches first (vectorised), the lenient comparison only for the others
    with np.errstate(invalid="ignore"):
        maybe = np.flatnonzero(known & ~(given == expected))
    for row in maybe:
        a, b = given[row], expected[row]
        if same(a, b):
            continue
        w = int(winner[row])
        if w == -1:
            return col, int(row), f"the game has no winner ({wcol} -1), so it has no {col}"
        return col, int(row), f"the winner is seat {w}, whose {prefix}policy_{w} is {b!r}"
    return None


# ---------------------------------------------------------------- worker pools and Ctrl-C

def _ignore_sigint() -> None:
    """Pool initializer: a worker ignores Ctrl-C; the parent stops it (see stop_pool)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def process_pool(workers: int | None = None) -> ProcessPoolExecutor:
    """A process pool whose workers ignore Ctrl-C, for :func:`run` and the studies.

    A terminal's Ctrl-C reaches every process of the foreground group.  A worker of a
    plain ``ProcessPoolExecutor`` then dies with a traceback, and one that dies holding
    the pool's call-queue lock can make the parent's exit hang forever.  These workers
    ignore SIGINT; the parent, which gets ``KeyboardInterrupt``, stops them with
    :func:`stop_pool`.

    Parameters
    ----------
    workers : int, optional
        Worker processes (>= 1; default: all cores).

    Returns
    -------
    concurrent.futures.ProcessPoolExecutor
        The pool, with `workers` processes; stop it with :func:`stop_pool` or ``shutdown``.

    Raises
    ------
    RunnerError
        If `workers` is not a whole number 1..:data:`MAX_WORKERS`.
    """
    n = (os.cpu_count() or 1) if workers is None else _check_workers(workers)
    _quiet_broken_pools()
    return ProcessPoolExecutor(max_workers=n, initializer=_ignore_sigint)


def _quiet_broken_pools() -> None:
    """Keep process pools' manager threads from printing a traceback as a pool stops.

    On Ctrl-C :func:`run` cancels the chunks not yet started, and the pool's workers are
    then terminated (:func:`stop_pool`; a worker still starting may also die of the
    signal itself).  If a pool's manager thread sees the dead workers before it sees the
    shutdown, it marks every pending future failed, and on Python before 3.12 a future
    already cancelled raises ``InvalidStateError`` in that thread, which the interpreter
    printed after the one-line "interrupted" message.  Nothing is lost (those chunks were
    cancelled on purpose), so this hook, installed once, drops exactly that exception
    from exactly those threads and passes everything else to the previous hook.
    """
    global _QUIET_HOOK
    if _QUIET_HOOK is not None and threading.excepthook is _QUIET_HOOK:
        return
    previous = threading.excepthook
    manager_type = getattr(_cf_process, "_ExecutorManagerThread", None)

    def hook(args: Any) -> None:
        if (manager_type is not None and isinstance(args.thread, manager_type)
                and args.exc_type is not None and issubclass(args.exc_type, InvalidStateError)):
            return
        previous(args)

    _QUIET_HOOK = hook
    threading.excepthook = hook


_QUIET_HOOK: Callable[[Any], None] | None = None


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Ignore Ctrl-C while cleaning up after one (a second press must not cut the
    cleanup short); only the main thread can change signal handlers."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


def stop_pool(pool: Executor, timeout: float = 5.0) -> None:
    """Stop a pool at once: cancel its queued work and, for a process pool, terminate
    its workers instead of waiting for the chunks they are running.

    Used on Ctrl-C and on errors, so that the program exits promptly and never hangs
    joining workers.  Other executors are shut down without waiting.

    Parameters
    ----------
    pool : concurrent.futures.Executor
        The pool to stop (any Executor).
    timeout : float
        Seconds to wait for each terminated worker (then it is killed) and for the
        pool's manager thread.

    Raises
    ------
    RunnerError
        If `pool` is not an Executor (nothing with a ``shutdown``) or `timeout` is not a
        finite number of seconds >= 0 (they raised AttributeError / TypeError halfway
        through stopping: session 22), checked before anything is stopped.
    """
    if not (isinstance(pool, Executor) or callable(getattr(pool, "shutdown", None))):
        raise RunnerError(f"stop_pool needs a concurrent.futures.Executor, got {type(pool).__name__}")
    if (isinstance(timeout, bool) or not isinstance(timeout, (int, float, np.integer, np.floating))
            or not math.isfinite(timeout) or timeout < 0):
        raise RunnerError(f"timeout must be a number of seconds >= 0, got {timeout!r}")
    with _sigint_ignored():
        # the pool's own dict of workers (not a copy): a worker the manager thread is
        # still starting appears in it later and must be stopped too, or the manager
        # (and the interpreter's exit, which joins it) waits for that worker for ever
        procs = (getattr(pool, "_processes", None) or {}) if isinstance(pool, ProcessPoolExecutor) else {}
        manager = getattr(pool, "_executor_manager_thread", None)
        results = getattr(pool, "_result_queue", None)   # (shutdown forgets it)
        pool.shutdown(wait=False, cancel_futures=True)
        end = time.monotonic() + timeout
        killing = False
        unblocked = False
        while True:
            alive = [p for p in list(procs.values()) if p.is_alive()]
            for p in alive:
                if killing:  # pragma: no cover - a worker that ignores SIGTERM
                    p.kill()
                else:
                    p.terminate()
            for p in alive:
                p.join(0.1)
            manager_alive = isinstance(manager, threading.Thread) and manager.is_alive()
            if manager_alive:
                manager.join(0.1)
                manager_alive = manager.is_alive()
            workers_alive = any(p.is_alive() for p in list(procs.values()))
            if not manager_alive and not workers_alive:
                break
            if manager_alive and not workers_alive and not unblocked:
                # every worker is gone but the manager still waits: a worker stopped in
                # the middle of sending a result (Ctrl-C reaches a worker that is still
                # starting, before it ignores SIGINT) leaves half a message in the result
                # pipe, and the manager waits for the rest for ever (and so would the
                # interpreter's exit, which joins it).  Closing the pool's own write end
                # (no worker is left to write) turns that wait into an end of file,
                # which the manager reads as a broken pool, and it ends.
                unblocked = True
                _close_writer(results)
            if time.monotonic() > end:
                if killing:  # pragma: no cover - give up: nothing more can be done
                    break
                killing = True
                end = time.monotonic() + timeout


def _close_writer(queue: Any) -> None:
    """Close the parent's write end of a process pool's result queue (see stop_pool)."""
    writer = getattr(queue, "_writer", None)
    try:
        if writer is not None:
            writer.close()
    except OSError:  # pragma: no cover - already closed
        pass


class _InlineExecutor(Executor):
    """An Executor that runs each call at once in the calling thread (one worker, no
    pool): Ctrl-C reaches the running chunk directly."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        fut: Future = Future()
        try:
            fut.set_result(fn(*args, **kwargs))
        except Exception as exc:  # KeyboardInterrupt and SystemExit propagate
            fut.set_exception(exc)
        return fut


# ---------------------------------------------------------------- the runner

def _now() -> str:
    """The time now, UTC, to the second (ISO 8601): a run's ``created``."""
    import datetime

    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


def run(
    play_chunk: PlayChunk,
    games: int,
    *,
    params: Mapping[str, Any] | None = None,
    seed: int = 0,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    executor: Executor | None = None,
    workers: int | None = None,
    progress: bool = False,
    out: str | Path | None = None,
    meta: Mapping[str, Any] | None = None,
) -> pd.DataFrame:
    """Play `games` games in chunks and return one row per game, in game order.

    Parameters
    ----------
    play_chunk : callable
        ``play_chunk(chunk_index, n_games, seed_sequence, **params)`` returning a
        DataFrame (or list of dicts) with one row per game.  It must be a picklable
        top-level function to run in worker processes.
    games : int
        Number of games (1 to :data:`MAX_GAMES`).
    params : mapping, optional
        Keyword arguments for `play_chunk`; JSON-able (they are recorded in the results
        and compared on resume).
    seed : int
        Root seed (>= 0).  Chunk ``i`` is seeded with ``SeedSequence(seed,
        spawn_key=(i,))``.
    chunk_size : int
        Games per chunk (default 1000).  Results may depend on it (they do when a
        chunk plays from its own seed's stream, as Five Crowns does; King's Crowns and
        Cross Kings matches seed each game from the root seed and its number): it is
        recorded, and compared on resume.
    executor : concurrent.futures.Executor, optional
        Where chunks run: any Executor (process or thread pool, a Dask client's
        ``get_executor()``...).  It is never shut down here.  Default: a process pool
        over `workers` processes, made and shut down by this call; with ``workers=1``
        the chunks run in this process, with no pool.
    workers : int, optional
        Processes of the default pool (default: all cores; at most :data:`MAX_WORKERS`).
        Ignored when `executor` is given except as the number of chunks kept in flight
        (default: 2 per core).
    progress : bool
        Show a tqdm progress bar (games done) on stderr.
    out : str or Path, optional
        JSON-lines results file, written as chunks finish; if it exists, the run resumes
        from it (see the module docstring).
    meta : mapping, optional
        More JSON-able metadata to record, e.g. ``{"game": "kings-crowns", "rules":
        {...}}``.  The ``game`` entry is compared on resume.

    Returns
    -------
    pandas.DataFrame
        Column ``game`` (0..games-1) then the chunk function's columns.  ``attrs`` holds
        the metadata: seed, chunk_size, games, play_chunk, params, version, created,
        plus `meta`, and ``games_played``: the games this call played (0 when `out`
        already held them all; the rest were read back from it).

    Raises
    ------
    RunnerError
        If `play_chunk` is not callable, `progress` is not True or False, an argument is out of range (`games` above
        :data:`MAX_GAMES` included), `params`/`meta` are not mappings of JSON-able data, or
        a chunk returns something other than a DataFrame or a list of dicts, or the wrong
        number of rows, or (with `out`) values a results file cannot hold, naming the
        column; or the results file cannot be created or written.
    EmptyPathError, FolderPathError, MissingFolderError
        If `out` is empty, names a folder (ends in ``/``, or is one) or lies in a folder
        that does not exist or is a file (all are RunnerError; checked before any games).
    ResultsFileError
        If `out` holds results of a different run (seed, chunk size, games, function,
        parameters, rules or version), is damaged before its last line, or holds a value
        :func:`check_columns` refuses, or is not a regular file (a device, a named
        pipe).  A file with
        only the header of another run (stopped before any chunk finished) holds no
        results: it is started afresh instead.
    KeyboardInterrupt
        On Ctrl-C: pending chunks are cancelled; the default pool's workers (which
        ignore Ctrl-C themselves) are terminated at once, so the call returns promptly
        without tracebacks from the workers.  A given `executor` is not stopped: chunks
        it is running finish there (use :func:`process_pool` for a process pool whose
        workers ignore Ctrl-C, and :func:`stop_pool` to stop it).  Chunks already
        written to `out` stay there, so the run can resume.
    """
    from . import __version__

    if not callable(play_chunk):  # it raised "'int' object is not callable" in a worker (session 22)
        raise RunnerError(f"play_chunk must be a function play_chunk(chunk_index, n_games, seed, **params),"
                          f" got {type(play_chunk).__name__}")
    games = _check_games(games)
    seed = check_whole_number("seed", seed, 0)
    chunk_size = check_whole_number("chunk_size", chunk_size, 1)
    progress = check_flag("progress", progress)
    if workers is not None:
        # a pool of our own is bounded; with a given executor workers only counts chunks in flight
        workers = _check_workers(workers, bounded=executor is None)
    if executor is not None and not isinstance(executor, Executor) and not hasattr(executor, "submit"):
        raise RunnerError(f"executor must be a concurrent.futures.Executor, got {type(executor).__name__}")
    for name, given in (("params", params), ("meta", meta)):
        if given is not None and not isinstance(given, Mapping):   # dict() raised a bare TypeError (session 22)
            raise RunnerError(f"{name} must be a mapping (a dict of names and values), got {type(given).__name__}",
                              argument=name)
    params = dict(params or {})
    record: dict[str, Any] = {
        "seed": seed,
        "chunk_size": chunk_size,
        "games": games,
        "play_chunk": _qualname(play_chunk),
        "params": _jsonable(params, "params"),
        "version": __version__,
    }
    extra = _jsonable(dict(meta or {}), "meta")
    record["game"] = extra.pop("game", None)
    record.update({k: v for k, v in extra.items() if k not in record})
    # when the run started (a resumed file keeps the time its run first started)
    record["created"] = _now()
    sizes = chunk_sizes(games, chunk_size)

    done: dict[int, dict[str, list[Any]]] = {}
    fh = None
    if out is not None:
        from ._io import check_file_path

        if not isinstance(out, (str, os.PathLike)):
            raise RunnerError(f"out must be a file path, got {out!r}")
        out = check_file_path(out, "out", what="results file")
        if out.exists() and not out.is_file():
            # a results file is read back to resume: a named pipe waited for a reader
            # forever (session 21), a device could not be written
            raise ResultsFileError(f"{out}: not a regular file; a results file is read back to resume, choose"
                                   " another path")
        lock = _lock_results_file(out)  # one run at a time per file (probe 19)
        try:
            resume = out.exists() and out.stat().st_size > 0
            if resume:
                old, done, _ = _read_chunks(out, repair=True)
                for key in sorted(RESUME_KEYS, key=lambda k: k != "game"):  # a different game is the first thing to say
                    there, now = old.get(key), record.get(key)
                    if there != now:
                        if not done:
                            # only a header (a run stopped before its first chunk finished):
                            # no results to keep or mix, so this run starts the file afresh
                            resume = False
                            break
                        why = ""
                        if key == "chunk_size":
                            # (King's Crowns, whose games do not depend on it, resumes with the
                            # file's chunk size instead: kings_crowns.simulate)
                            why = (f": chunk i of a run is played from its own seed (chunk_seed), so chunks"
                                   f" of another size may play other games; resume with chunk size {there}"
                                   " or")
                        raise ResultsFileError(f"{out}: holds results made with {_difference(key, there, now)}"
                                               f"{why or ';'} use another file to start a new run")
                else:
                    record = old
                    if done:
                        # the values a hand-edited file holds are checked as read_results checks
                        # them (until session 20 a resume took them as they were)
                        check_columns(_frame(done, sizes, chunk_size), old, os.fsdecode(out))
            if not resume:
                try:
                    with open(out, "w", encoding="utf-8") as f:
                        f.write(_header(record))
                        f.flush()
                        os.fsync(f.fileno())
                except OSError as exc:
                    raise RunnerError(f"cannot create the results file {out}: {exc.strerror or exc}; choose another path") from None
            fh = lock   # the locked handle, opened for appending, takes the chunks
        except BaseException:
            lock.close()
            raise

    todo = [i for i in range(len(sizes)) if i not in done]
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=games, initial=sum(sizes[i] for i in done), unit="game", desc="games", smoothing=0.1)

    def finish(i: int, cols: dict[str, list[Any]]) -> None:
        done[i] = cols
        if fh is not None:
            line = _chunk_line(i, sizes[i], cols, play_chunk)
            try:
                fh.write(line)
                fh.flush()
                os.fsync(fh.fileno())
            except OSError as exc:   # e.g. a full disk, which names no file (session 21)
                raise RunnerError(f"cannot write to the results file {out}: {exc.strerror or exc}; the chunks"
                                  " written before are kept (a torn last line is dropped on resume)") from None
        if bar is not None:
            bar.update(sizes[i])

    try:
        if executor is None and (workers == 1 or len(todo) <= 1):
            for i in todo:
                finish(i, _call_chunk(play_chunk, i, sizes[i], chunk_seed(seed, i), params))
        elif executor is None:
            n = workers or os.cpu_count() or 1
            pool = process_pool(min(n, len(todo)))
            try:
                _drive(pool, play_chunk, todo, sizes, seed, params, 2 * n, finish)
                pool.shutdown(wait=True)  # idle workers: returns at once (a Ctrl-C here stops them too)
            except BaseException:
                stop_pool(pool)
                raise
        else:
            n = workers or os.cpu_count() or 1
            _drive(executor, play_chunk, todo, sizes, seed, params, 2 * n, finish)
    finally:
        if bar is not None:
            bar.close()
        if fh is not None:
            fh.close()   # and with it the lock

    frame = _frame(done, sizes, chunk_size)
    frame.attrs.update(record)
    frame.attrs["games_played"] = sum(sizes[i] for i in todo)
    return frame


def _resume_chunk_size(out: Any, game: str, chunk_size: int) -> int:
    """The chunk size a run of `game` uses with the results file `out`: the file's, when
    it holds finished chunks of a run of `game`, else `chunk_size` (no file, another
    game, only a header, or a file :func:`run` will refuse for its own reasons).  For the
    games whose results do not depend on the chunk size (King's Crowns, Cross Kings
    matches and self-play), which resume such a file with its chunk size instead of
    refusing it."""
    if not isinstance(out, (str, os.PathLike)):
        return chunk_size
    # the header and whether a complete line follows it: run() reads (and checks) the
    # chunks themselves, so they are not parsed here a second time
    try:
        if not Path(out).is_file():
            return chunk_size
        with open(out, "rb") as f:
            meta = _parse_header(f.readline(), out)
            has_chunk = any(line.strip() and line.endswith(b"\n") for line in f)
    except (OSError, ValueError):   # ResultsFileError is a ValueError
        return chunk_size
    size = meta.get("chunk_size")
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        return chunk_size   # run() says what is wrong with the header
    return size if has_chunk and meta.get("game") == game else chunk_size


def _lock_results_file(path: Path) -> Any:
    """An open handle on the results file `path` that holds an exclusive lock on it
    (``fcntl.flock``, where the platform has it) until closed, for the whole run.

    Two runs writing one file (the same command started twice: the docs say to run it
    again to resume) each appended every chunk, leaving a file no resume or report could
    read ("chunk 0 appears twice").  The second run is now refused before it reads or
    writes anything; reading a file being written (``read_results``, ``crowns report``)
    takes no lock and stays allowed.

    Raises
    ------
    ResultsFileError
        If another run holds the lock.
    RunnerError
        If the file cannot be opened for writing.
    """
    existed = path.exists()
    try:
        handle = open(path, "a", encoding="utf-8")  # creates it if absent; never truncates
    except OSError as exc:
        if not existed:
            raise RunnerError(f"cannot create the results file {path}: {exc.strerror or exc}; choose another path"
                              ) from None
        raise RunnerError(f"cannot write to the results file {path}: {exc.strerror or exc}") from None
    try:
        import fcntl
    except ImportError:  # no flock here (Windows): unlocked, as before
        return handle
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        import errno

        if exc.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
            return handle   # a file system without locks (ENOLCK, EOPNOTSUPP): unlocked, as before
        handle.close()
        raise ResultsFileError(f"{path}: another run is writing this results file now; wait for it to finish"
                               " (then the same command reads or resumes it) or use another file") from None
    return handle


def _short(value: Any) -> str:
    if value is _ABSENT:
        return "absent"
    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


_ABSENT = object()
#: How a resume-key difference is said ("made with a different seed (3 there, 4 now)").
_KEY_WORDS = {"seed": "a different seed", "chunk_size": "a different chunk size", "games": "a different number of games",
              "play_chunk": "a different chunk function", "params": "different params",
              "version": "a different library version", "game": "a different game"}


def _leaf_differences(there: Any, now: Any, path: str = "") -> list[tuple[str, Any, Any]]:
    """Every (dotted path, value there, value now) where two JSON values differ, down to
    the innermost entries that differ (``rules.deck.time-with-god``)."""
    if isinstance(there, dict) and isinstance(now, dict):
        out = []
        for k in sorted(there.keys() | now.keys(), key=str):
            out += _leaf_differences(there.get(k, _ABSENT), now.get(k, _ABSENT), f"{path}.{k}" if path else str(k))
        return out
    return [] if there == now else [(path, there, now)]


def _difference(key: str, there: Any, now: Any) -> str:
    """The resume refusal's wording: what differs, with both values, e.g. ``different
    params: rules.deck.time-with-god is 20 there, 21 now``."""
    words = _KEY_WORDS.get(key, f"a different {key}")
    if not (isinstance(there, dict) and isinstance(now, dict)):
        return f"{words} ({_short(there)} there, {_short(now)} now)"
    diffs = _leaf_differences(there, now)
    said = "; ".join(f"{p} is {_short(a)} there, {_short(b)} now" for p, a, b in diffs[:3])
    more = f"; and {len(diffs) - 3} more" if len(diffs) > 3 else ""
    return f"{words}: {said}{more}"


def _drive(executor: Any, play_chunk: PlayChunk, todo: list[int], sizes: list[int], seed: int,
           params: dict[str, Any], in_flight: int, finish: Callable[[int, dict[str, list[Any]]], None]) -> None:
    """Submit chunks, at most `in_flight` at a time, and record each as it finishes."""
    pending: dict[Future, int] = {}
    queue = iter(todo)
    try:
        for i in queue:
            pending[executor.submit(_call_chunk, play_chunk, i, sizes[i], chunk_seed(seed, i), params)] = i
            if len(pending) >= in_flight:
                break
        while pending:
            finished, _ = wait(list(pending), return_when=FIRST_COMPLETED)
            for fut in finished:
                i = pending.pop(fut)
                finish(i, fut.result())
                nxt = next(queue, None)
                if nxt is not None:
                    pending[executor.submit(_call_chunk, play_chunk, nxt, sizes[nxt], chunk_seed(seed, nxt), params)] = nxt
    except BaseException:
        with _sigint_ignored():
            for fut in pending:
                fut.cancel()
        raise


# ---------------------------------------------------------------- win rates

#: The normal quantile of a two-sided 95% interval, 1.959964 (``statistics.NormalDist``).
Z95 = statistics.NormalDist().inv_cdf(0.975)


def _normal_quantile(z: Any) -> float:
    """`z` as a float, RunnerError unless it is a finite number > 0 (a normal quantile,
    1.96 for 95%): the one check of every interval function's `z`."""
    try:
        zf = float(z) if not isinstance(z, (str, bytes)) else math.nan   # float("2") read text as a number
    except (TypeError, ValueError):
        zf = math.nan
    if isinstance(z, bool) or not (np.isfinite(zf) and zf > 0):
        raise RunnerError(f"z must be a normal quantile > 0 (1.96 for 95%), got {z!r}")
    return zf


def _numbers(value: Any, name: str, *, flags: bool = False) -> np.ndarray:
    """`value` (a number or an array of numbers) as a float array, RunnerError naming
    `name` unless it holds numbers only: a bool (NumPy's too) is no count
    (``bool`` is an ``int``, so ``True`` read as 1 win), nor is text (``float("3")``
    read it as a number).  With `flags`, bools are allowed as 1 and 0 (an outcome per
    trial, such as a ``won`` column); text never is."""
    kind = getattr(getattr(value, "dtype", None), "kind", None)
    if flags and kind == "b":
        return np.asarray(value, dtype=float)
    if kind in ("i", "u", "f") and not isinstance(value, (bool, np.bool_)):   # arrays, Series, NumPy numbers
        try:
            return np.asarray(value, dtype=float)
        except (TypeError, ValueError):   # a nullable column holding pd.NA
            pass
    try:
        items = np.asarray(value, dtype=object)
    except (TypeError, ValueError):   # ragged nested lists
        raise RunnerError(f"{name} must be a number or an array of numbers, got {value!r}") from None
    for i, item in enumerate(items.flat):
        why = ("a bool" if isinstance(item, (bool, np.bool_)) and not flags
               else "text" if isinstance(item, (str, bytes)) else None)
        if why is None:
            try:
                float(item)
                continue
            except (TypeError, ValueError):
                why = type(item).__name__
        where = "" if items.ndim == 0 else f" in {value!r} (item {i})"
        raise RunnerError(f"{name} must be a number or an array of numbers, got {item!r} ({why}){where}")
    return items.astype(float)


def _sample(values: Any) -> np.ndarray:
    """A sample for a mean's interval: `values` as a 1-D float array.

    Parameters
    ----------
    values : 1-D array_like of float
        A list, a tuple, a 1-D NumPy array or a pandas Series of numbers.

    Returns
    -------
    numpy.ndarray
        The values as floats, shape ``(n,)``.

    Raises
    ------
    RunnerError
        If `values` are not numbers (text is refused rather than read as numbers), or
        not 1-D, naming the shape: a single number (shape ``()``) or a table of several
        columns (``(2, 2)``) is not a sample of one quantity (session 23: it was
        flattened, so ``mean_interval([[1, 2], [3, 4]])`` gave 2.5 with an interval).
    """
    try:
        x = np.asarray(values)
    except (TypeError, ValueError):   # ragged nested lists
        raise RunnerError(f"a mean's interval needs a 1-D sample of numbers, got {values!r}") from None
    if x.ndim != 1:
        raise RunnerError(f"a mean's interval needs a 1-D sample (a list, tuple, 1-D array or pandas Series),"
                          f" got {'a single value' if x.ndim == 0 else 'an array'} of shape {x.shape}")
    if x.dtype.kind in ("U", "S") or (x.dtype == object and any(isinstance(v, (str, bytes)) for v in x)):
        raise RunnerError(f"a mean's interval needs numbers, got {values!r}")
    try:
        return x.astype(float)
    except (TypeError, ValueError):
        raise RunnerError(f"a mean's interval needs numbers, got {values!r}") from None


def _clusters(value: Any, name: str) -> np.ndarray:
    """`value` as a 1-D float array, one number per cluster: RunnerError naming `name`
    unless it holds numbers only (:func:`_numbers`: a bool or text is refused) in one
    dimension (a single number or a table is not one value per cluster)."""
    x = _numbers(value, name)
    if x.ndim != 1:
        raise RunnerError(f"{name} must be one number per cluster (a list, tuple, 1-D array or pandas Series),"
                          f" got {'a single value' if x.ndim == 0 else 'an array'} of shape {x.shape}")
    return x


def ratio_influence(num: Any, den: Any) -> tuple[float, np.ndarray]:
    """A ratio of sums, ``sum(num) / sum(den)``, and each cluster's linearized influence
    on it, ``(num - ratio * den) / sum(den)`` (Taylor linearization of a ratio
    estimator; Woodruff 1971): the terms of its cluster-robust variance
    (:func:`cluster_variance`).

    Parameters
    ----------
    num, den : 1-D array_like of float
        Per cluster (e.g. a game): the numerator's and the denominator's part (successes
        and trials, or a sum of observations and their count), as many of each, all
        finite; ``sum(den) > 0``.

    Returns
    -------
    (ratio, influence) : float and ndarray of shape (clusters,)
        The ratio, and one influence per cluster (units of the ratio).

    Raises
    ------
    RunnerError
        Naming the argument at fault: if `num` or `den` is not numbers (a bool or text is
        refused rather than read as a number), not 1-D, or holds NaN or an infinity; if
        they differ in length; or if ``sum(den)`` is not > 0 (no clusters, or no trials:
        the ratio is undefined).  Until session 24 nothing was checked:
        ``ratio_influence([1], [0])`` gave ``(inf, [nan])`` with RuntimeWarnings.
    """
    a, b = _clusters(num, "num"), _clusters(den, "den")
    for name, x in (("num", a), ("den", b)):
        bad = np.flatnonzero(~np.isfinite(x))
        if bad.size:
            raise RunnerError(f"{name} must hold finite numbers, got {x[bad[0]]:g} (cluster {int(bad[0])})")
    if a.size != b.size:
        raise RunnerError(f"num and den must give one number per cluster each, got {a.size} and {b.size}")
    total = float(b.sum())
    if not total > 0:
        raise RunnerError(f"den must sum to more than 0 (the ratio's denominator), got {total:g}"
                          + (" (no clusters)" if b.size == 0 else ""))
    ratio = float(a.sum()) / total
    return ratio, (a - ratio * b) / total


def cluster_variance(influence: Any) -> float:
    """The cluster-robust variance of an estimate from its clusters' influences (as
    :func:`ratio_influence` gives them, or a difference of two such arrays over the same
    clusters): ``g / (g - 1) * sum(influence**2)`` with ``g`` clusters.

    Parameters
    ----------
    influence : 1-D array_like of float
        One value per cluster.

    Returns
    -------
    float
        The variance (units of the estimate, squared); NaN with fewer than 2 clusters
        (one cluster says nothing about the spread between clusters, as
        :func:`mean_interval` gives NaN bounds for one value; until session 24 one
        cluster raised ZeroDivisionError and none gave -0.0).  NaN or an infinity in
        `influence` gives NaN or an infinity.

    Raises
    ------
    RunnerError
        If `influence` is not numbers (a bool or text is refused rather than read as a
        number) or not 1-D, naming it.
    """
    x = _clusters(influence, "influence")
    g = x.size
    if g < 2:
        return math.nan
    return g / (g - 1) * float(np.sum(x ** 2))


def wilson_interval(wins: Any, games: Any, z: float = Z95) -> tuple[Any, Any]:
    """Wilson score interval for a binomial proportion (Wilson 1927), default 95%.

    A thin wrapper of ``statsmodels.stats.proportion.proportion_confint(method="wilson")``
    that checks the counts and keeps this library's conventions (games 0, arrays, z).

    Parameters
    ----------
    wins, games : number or array of numbers
        Successes and trials (games >= wins >= 0; a draw may count 1/2 in `wins`).
        Where games is 0 the interval is (0, 1).
    z : float
        Normal quantile (1.959964 for 95%); the interval's level is ``1 - 2 * Phi(-z)``.

    Returns
    -------
    (low, high) : floats or arrays
        The interval's bounds as proportions 0..1, shaped like ``wins / games``.  0 wins
        give low 0 and a high above 0, and ``wins == games`` a low below 1 (0 of 10: 0 to
        0.278; 10 of 10: 0.722 to 1): never a zero-width interval where games > 0.

    Raises
    ------
    RunnerError
        If a count is negative, `wins` exceeds `games`, or `z` is not a number > 0
        (session-18 probe: ``wilson_interval(5, 3)`` gave ``(nan, 1.0)`` and a negative
        `z` an interval with low > high); if `wins` or `games` is not a number or an
        array of numbers, naming the argument: a bool (NumPy's too) or text is refused
        rather than read as a count (``wilson_interval(True, 10)`` was 1 win of 10 and
        ``wilson_interval("3", 10)`` 3 wins until session 23).
    """
    from statsmodels.stats.proportion import proportion_confint

    w = _numbers(wins, "wins")   # each argument on its own: the message names the one at fault
    n = _numbers(games, "games")
    zf = _normal_quantile(z)
    with np.errstate(invalid="ignore"):
        bad = (w < 0) | (n < 0) | (w > n) | ~np.isfinite(w) | ~np.isfinite(n)
    if np.any(bad):
        i = np.unravel_index(int(np.flatnonzero(bad)[0]), bad.shape) if bad.ndim else ()
        wi, ni = np.broadcast_to(w, bad.shape)[i], np.broadcast_to(n, bad.shape)[i]
        raise RunnerError(f"a Wilson interval needs 0 <= wins <= games, got wins={wi:g}, games={ni:g}")
    w, n = np.broadcast_arrays(w, n)
    alpha = 2 * statistics.NormalDist().cdf(-zf)
    some = n > 0
    low, high = np.zeros(n.shape), np.ones(n.shape)
    if alpha > 0 and np.any(some):
        lo, hi = proportion_confint(w[some], n[some], alpha=alpha, method="wilson")
        # the exact bound at 0 wins (low) and at games wins (high); the formula's roundoff aside
        low[some] = np.where(w[some] > 0, np.clip(lo, 0, 1), 0.0)
        high[some] = np.where(w[some] < n[some], np.clip(hi, 0, 1), 1.0)
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def mean_interval(values: Any) -> tuple[float, float, float]:
    """Mean of a sample and its 95% Student t interval (mean +- t(0.975, n - 1) standard
    errors, with the sample standard deviation; Student 1908).

    A thin wrapper of ``statsmodels.stats.weightstats.DescrStatsW(x).tconfint_mean()``.
    The t quantile is 12.71 with 2 observations, 3.18 with 4, 2.05 with 30 and tends to
    the normal 1.96, so small samples get the wider interval they need (before session
    20 this was the normal approximation, mean +- 1.96 standard errors, too narrow for
    few observations).

    Parameters
    ----------
    values : 1-D array_like of float
        The sample, e.g. final margins in points, one per deal: a list, a tuple, a 1-D
        NumPy array or a pandas Series (until session 23 any shape was flattened, so a
        table of two columns gave the mean of both).

    Returns
    -------
    (mean, low, high) : float
        All NaN for an empty sample; for a single value, its mean and NaN bounds (one
        observation says nothing about its spread); a sample holding NaN or an infinity:
        ``numpy.mean`` of it (NaN or infinite) and NaN bounds, as before; a sample of
        equal values (two or more) gets a zero-width interval ``(mean, mean, mean)``:
        the sample shows no spread, which is not certainty (a few values can all miss a
        rare other value; for a rate of 0/1 data use :func:`wilson_interval` or
        :func:`cluster_wilson_interval`, which are never zero-width).  The tables that
        print it say so rather than show ``+- 0``: ``five-crowns simulate`` prints
        ``(no spread)``, and ``crowns report``'s points table ``no spread`` (session 23).  Exact for normally distributed
        observations, approximate otherwise (the more so the fewer the observations: a
        report flags intervals from fewer than 30).

    Raises
    ------
    RunnerError
        If `values` are not numbers (text is refused rather than read as numbers), or
        are not 1-D (a single number, a table, a 2-D array), naming the shape.
    """
    x = _sample(values)
    if x.size == 0:
        return math.nan, math.nan, math.nan
    mean = float(x.mean())
    if x.size == 1 or not np.all(np.isfinite(x)):
        return mean, math.nan, math.nan
    if float(np.ptp(x)) == 0.0:
        return mean, mean, mean
    from statsmodels.stats.weightstats import DescrStatsW

    low, high = DescrStatsW(x).tconfint_mean(alpha=0.05)
    return mean, float(low), float(high)


def cluster_wilson_interval(wins: Any, trials: Any, z: float = Z95, *,
                            one_success: bool = False) -> tuple[float, float, float]:
    """A rate pooled over clusters (``sum(wins) / sum(trials)``, e.g. wins per seat-game
    of a policy that sits in several seats of each game) with a 95% Wilson interval that
    counts each cluster (game) as the independent unit, since the trials of one cluster
    are not independent (in a King's Crowns game at most one seat wins).

    - Clusters of one trial each, each a success or not: the plain Wilson interval.
    - `one_success` (a cluster cannot hold two successes, as a King's Crowns game has
      one winner) and every cluster has the same number ``m`` of trials: the number of
      clusters with a success is binomial, so the interval is the Wilson interval of
      ``sum(wins)`` of ``len(wins)`` clusters, divided by ``m`` (no variance estimate).
    - Otherwise (shared wins, unequal clusters, duplicate deals): Wilson's interval with
      the effective sample size ``p(1 - p) / v * (z / t)**2`` (Korn & Graubard 1998),
      where ``v`` is the cluster-robust (linearization) variance of the pooled rate and
      ``t`` Student's quantile on clusters - 1 degrees of freedom (scipy) at the level of
      `z`, so that few clusters widen it.  Where no success or no failure was seen, the
      number of clusters (as if each cluster were one trial: a cluster's share of
      successes lies in 0..1); where successes and failures were seen but every cluster
      has the same share (``v`` = 0), the number of trials, as if they were independent.

    Parameters
    ----------
    wins, trials : array_like of float
        Per cluster: successes (a shared win may count a fraction) and trials (> 0),
        ``0 <= wins <= trials``.  `wins` may be bools (True counts 1: a cluster of one
        trial, won or not); `trials` are counts, never bools.  Text is refused in both
        (session 23: ``["1", "0"]`` was read as numbers, as ``wilson_interval`` and the
        summaries no longer do).
    z : float
        Normal quantile (1.959964 for 95%).
    one_success : bool
        Whether a cluster can hold at most one success (then every `wins` must be 0 or 1).

    Returns
    -------
    (rate, low, high) : float
        NaN rate and bounds (0, 1) without clusters.  0 successes give low 0 and a high
        above 0, all successes a low below 1.

    Raises
    ------
    RunnerError
        If `wins` or `trials` is not a number or an array of numbers (text, or a bool
        in `trials`), naming the argument and the item; if the arrays differ in length,
        a count is negative or not finite, a cluster has no trials, wins exceed trials or (with `one_success`) exceed 1 (naming the
        cluster), `z` is not > 0, or `one_success` is not True or False.
    """
    one_success = check_flag("one_success", one_success)   # "no" chose the other interval (session 22)
    # each argument on its own, naming it: text was read as numbers ("1" a win) until session 23
    w = _numbers(wins, "wins", flags=True).ravel()
    m = _numbers(trials, "trials").ravel()
    if w.shape != m.shape:
        raise RunnerError(f"wins and trials need one value per cluster each, got {w.size} and {m.size}")
    zf = _normal_quantile(z)
    with np.errstate(invalid="ignore"):
        bad = ~np.isfinite(w) | ~np.isfinite(m) | (w < 0) | (m <= 0) | (w > m)
    if np.any(bad):
        i = int(np.flatnonzero(bad)[0])
        raise RunnerError(f"cluster {i} has wins={w[i]:g}, trials={m[i]:g}; each cluster needs"
                          " 0 <= wins <= trials and trials > 0")
    if one_success and np.any((w != 0) & (w != 1)):
        i = int(np.flatnonzero((w != 0) & (w != 1))[0])
        raise RunnerError(f"cluster {i} has wins={w[i]:g}; with one_success each cluster has 0 or 1")
    g = w.size
    if g == 0:
        low, high = wilson_interval(0, 0, z)
        return math.nan, low, high
    total_w, total_m = float(w.sum()), float(m.sum())
    rate = total_w / total_m
    if (one_success or np.all((w == 0) | (w == 1))) and np.all(m == 1):   # independent trials: plain Wilson
        low, high = wilson_interval(total_w, g, z)
        return rate, float(low), float(high)
    if one_success and np.all(m == m[0]):
        low, high = wilson_interval(total_w, g, z)
        return rate, float(low / m[0]), float(high / m[0])
    if not 0 < total_w < total_m or g == 1:
        n_eff = float(g)
    else:
        from scipy.stats import t

        var = cluster_variance(ratio_influence(w, m)[1])
        df_factor = (zf / float(t.isf(statistics.NormalDist().cdf(-zf), g - 1))) ** 2
        n_eff = rate * (1 - rate) / var * df_factor if var > 0 else total_m
    low, high = wilson_interval(rate * n_eff, n_eff, z)
    return rate, low, high


#: What the by-policy intervals of :func:`win_rates` (and of the simulate tables) are, for
#: their labels: Wilson's interval with each game one observation.
CLUSTER_LABEL = "games as clusters"


def _by_construction(policy: Any, players: Any, game: str) -> str:
    """The note under a by-policy win-rate table where one policy plays every seat: its
    rate is 1/`players` by construction (less the games without a winner in King's
    Crowns, more with the shared wins of Five Crowns), so neither the rate nor its
    interval says anything about the player (session 23: it was shown as a finding)."""
    share = f"1/{players}" if isinstance(players, int) else "1/seats"
    aside = {"kings-crowns": "less the games that end without a winner",
             "five-crowns": "more where a game's win is shared"}.get(game, "ties and games without a winner aside")
    return (f"{policy} plays every seat, so its win rate is {share} by construction ({aside}): the rate and"
            f" its interval measure nothing about {policy}")


def _seats(results: pd.DataFrame) -> list[int]:
    seats = sorted(int(c.split("_", 1)[1]) for c in results.columns if c.startswith("policy_") and c.split("_", 1)[1].isdecimal())
    if not seats:
        seats = sorted(int(c.split("_", 1)[1]) for c in results.columns if c.startswith("win_") and c.split("_", 1)[1].isdecimal())
    return seats


def _unread_table(results: pd.DataFrame) -> str:
    """Why :func:`win_rates` cannot read `results`, and, for the tables the library itself
    writes in another shape, what reads them."""
    cols = {str(c) for c in results.columns}
    plain = "results have no policy_<seat> or win_<seat> columns"
    if any(c.startswith("k0_") for c in cols):
        return (f"{plain}: these are one row per deal of a duplicate run (columns k0_..., one set per seating);"
                " five_crowns.simulate(..., duplicate=True) returns them as one row per game and seat, and"
                " crowns report RESULTS reports on the file")
    if {"policy", "won"} <= cols:
        return (f"{plain}: this is a table of one row per game and seat (five_crowns.simulate's); use"
                " five_crowns.summarize(results) (win rates and mean totals with 95% intervals), or win_rates"
                " on montecarlo.read_results of its results file (one row per game)")
    if "score_first_0" in cols:
        return (f"{plain}: these are the deals of a Cross Kings match (one row per deal); use"
                " cross_kings.match.games_table and summarise (or the match's own result), or crowns report"
                " RESULTS")
    return plain


def _text_items(values: pd.Series) -> np.ndarray:
    """Where a column holds text (str or bytes): bool array, one per row."""
    if values.dtype.kind in "iufb":
        return np.zeros(len(values), dtype=bool)
    return values.map(lambda v: isinstance(v, (str, bytes))).to_numpy(dtype=bool)


def _bool_items(values: pd.Series) -> np.ndarray:
    """Where a column holds a bool (Python's or NumPy's): bool array, one per row."""
    if values.dtype == bool:
        return np.ones(len(values), dtype=bool)
    if values.dtype.kind in "iuf":
        return np.zeros(len(values), dtype=bool)
    return values.map(lambda v: isinstance(v, (bool, np.bool_))).to_numpy(dtype=bool)


def _game_label(results: pd.DataFrame, row: int) -> str:
    return f"game {results['game'].iloc[row]}" if "game" in results.columns else f"row {row}"


def _win_matrix(results: pd.DataFrame, seats: list[int]) -> np.ndarray:
    """Games x seats: 1 where the seat won.  Values outside the conventions (a winner
    that is not a seat of that game, a ``win_<seat>`` other than 0 or 1) are refused."""
    if all(f"win_{s}" in results.columns for s in seats):
        cols = []
        for s in seats:
            raw = results[f"win_{s}"]
            col = pd.to_numeric(raw, errors="coerce").where(raw.notna(), 0)
            # text ("1") is refused, not read as a number (session 23); True/False are 1/0
            bad = np.flatnonzero(~col.isin([0, 1]).to_numpy() | _text_items(raw))
            if len(bad):
                r = int(bad[0])
                text = " (text is not read as a number)" if _text_items(raw)[r] else ""
                raise RunnerError(f"results: {_game_label(results, r)} has win_{s} = {_plain(raw.iloc[r])!r};"
                                  f" it must be 1 (won) or 0{text}")
            cols.append(col.to_numpy(dtype=float))
        return np.column_stack(cols)
    if "winner" not in results.columns:
        raise RunnerError("results have neither a 'winner' column nor 'win_<seat>' columns")
    raw = results["winner"]
    winner = pd.to_numeric(raw, errors="coerce").where(raw.notna(), -1).to_numpy(dtype=float)
    # a seat number: text ("1") and bools (True read as seat 1) are refused (session 23)
    winner[_text_items(raw) | _bool_items(raw)] = math.nan
    ok = winner == -1
    for s in seats:
        present = results[f"policy_{s}"].notna().to_numpy() if f"policy_{s}" in results.columns else True
        ok |= (winner == s) & present
    bad = np.flatnonzero(~ok)
    if len(bad):
        r = int(bad[0])
        kind = (" (text is not read as a number)" if _text_items(raw)[r] else
                " (a bool is not a seat number)" if _bool_items(raw)[r] else "")
        raise RunnerError(f"results: {_game_label(results, r)} has winner {_plain(raw.iloc[r])!r}, which is not a seat of"
                          f" that game ({', '.join(map(str, seats))}) or -1 for none{kind}")
    return np.column_stack([(winner == s).astype(float) for s in seats])


def win_rates(results: pd.DataFrame, by: str = "seat", *, clusters: str | None = None) -> pd.DataFrame:
    """Win rates with 95% Wilson confidence intervals, by seat or by policy.

    Parameters
    ----------
    results : DataFrame
        A results table following the module's conventions (``policy_<seat>``, and
        ``winner`` or ``win_<seat>``).  Seats absent from a game (NA policy) are skipped.
    by : {"seat", "policy"}
        ``"seat"``: one row per seat, over all games.  ``"policy"``: one row per policy,
        over every seat it occupied (a policy in two seats of a game counts twice).
    clusters : str, optional
        A column whose equal values make one observation for the intervals (by seat and
        by policy), such as ``"game"`` of a duplicate run's seatings stacked one row
        per game (its seatings share the deal's cards): the intervals are then
        :func:`cluster_wilson_interval` over those clusters, as
        ``five_crowns.summarize`` counts each deal once (session 23).  Default: each
        row (game) is one observation.

    Returns
    -------
    DataFrame
        Index: seat or policy.  Columns ``wins``, ``games`` (seat-games), ``rate``
        (wins / games), ``ci_low``, ``ci_high`` (95% Wilson interval,
        :func:`wilson_interval`).  Games without a winner count as games and not as
        wins.  By policy, the interval counts each game once
        (:func:`cluster_wilson_interval` over games): the seats one policy fills in a game
        are not independent observations (at most one of them wins), so a policy in
        ``m`` seats of every game gets the Wilson interval of the share of games it won,
        divided by ``m`` (before session 20 its seat-games counted as independent).

    Raises
    ------
    RunnerError
        If `by` is not "seat" or "policy", `results` is not a DataFrame (session-18
        probe: it raised an AttributeError), the table lacks the columns needed, or a
        value breaks the conventions (a winner that is not a seat of its game or -1, a
        ``win_<seat>`` other than 0 or 1), naming the game.  Text is refused in both
        (``"1"`` was read as a number until session 23), and so is a bool as ``winner``
        (a seat number: ``True`` read as seat 1); a ``win_<seat>`` may be True or False
        (a yes/no outcome); or `clusters` is not a column of `results` or has a missing
        value.
    """
    if not isinstance(results, pd.DataFrame):
        raise RunnerError(f"results must be a pandas DataFrame (from simulate or read_results),"
                          f" got {type(results).__name__}")
    by = check_choice("by", by, ("seat", "policy"), argument=None)   # a str first (session 24)
    seats = _seats(results)
    if not seats:
        raise RunnerError(_unread_table(results))
    if clusters is not None:
        if not isinstance(clusters, str) or clusters not in results.columns:
            raise RunnerError(f"clusters must name a column of the results, got {clusters!r}")
        if results[clusters].isna().any():
            raise RunnerError(f"results: {_game_label(results, int(np.flatnonzero(results[clusters].isna())[0]))}"
                              f" has no {clusters} (the clusters column)")
        unit = pd.factorize(results[clusters])[0]
    else:
        unit = np.arange(len(results))
    wins = _win_matrix(results, seats)
    one_winner = not all(f"win_{s}" in results.columns for s in seats)  # a 'winner' column: one seat at most
    rows: dict[Any, list[float]] = {}
    by_game: list[pd.DataFrame] = []
    seat_units: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    for k, s in enumerate(seats):
        pol = results[f"policy_{s}"] if f"policy_{s}" in results.columns else pd.Series(["?"] * len(results))
        present = pol.notna().to_numpy()
        if by == "seat":
            acc = rows.setdefault(s, [0.0, 0.0])
            acc[0] += wins[present, k].sum()
            acc[1] += present.sum()
            if clusters is not None:
                per = pd.Series(wins[present, k]).groupby(unit[present]).agg(["sum", "size"])
                seat_units[s] = (per["sum"].to_numpy(dtype=float), per["size"].to_numpy(dtype=float))
        else:
            for name, grp in pd.Series(wins[present, k]).groupby(pol[present].to_numpy()):
                acc = rows.setdefault(name, [0.0, 0.0])
                acc[0] += grp.sum()
                acc[1] += len(grp)
            by_game.append(pd.DataFrame({"row": unit[present], "policy": pol[present].to_numpy(),
                                         "win": wins[present, k]}))
    per_game: dict[Any, tuple[np.ndarray, np.ndarray]] = {}
    if by_game:
        counts = pd.concat(by_game).groupby(["policy", "row"])["win"].agg(["sum", "size"])
        for name, part in counts.groupby(level="policy"):
            per_game[name] = (part["sum"].to_numpy(dtype=float), part["size"].to_numpy(dtype=float))
    table = pd.DataFrame.from_dict(rows, orient="index", columns=["wins", "games"])
    table.index.name = by
    if by == "seat":
        table = table.sort_index()
    table["wins"] = table["wins"].round(6)
    if (table["wins"] == table["wins"].round()).all():
        table["wins"] = table["wins"].astype(int)
    table["games"] = table["games"].astype(int)
    table["rate"] = table["wins"] / table["games"].where(table["games"] > 0)
    if by == "seat" and clusters is None:
        low, high = wilson_interval(table["wins"].to_numpy(dtype=float), table["games"].to_numpy(dtype=float))
    elif by == "seat":   # a seat's games of one cluster (a deal's seatings) are one observation
        low, high = np.empty(len(table)), np.empty(len(table))
        for i, s in enumerate(table.index):
            _, low[i], high[i] = cluster_wilson_interval(*seat_units[s])
    else:  # a policy's seats of one game are one observation (at most one of them wins)
        low, high = np.empty(len(table)), np.empty(len(table))
        for i, name in enumerate(table.index):
            w, m = per_game[name]
            # one winner per game, but a cluster of several games can hold several wins
            _, low[i], high[i] = cluster_wilson_interval(w, m, one_success=one_winner and clusters is None)
    table["ci_low"] = low
    table["ci_high"] = high
    return table
