"""The pieces every study is made of: its result, its registration, intervals, figures.

A study is a function ``run(games, seed, executor=None) -> StudyResult`` registered with
the :func:`study` decorator in a module ``analysis/<game>_<topic>.py`` (installed as
``crowns_solver.analysis.<module>``).  ``crowns report`` (:mod:`crowns_solver.report`)
discovers the modules, runs the studies and writes one markdown report per study with its
charts beside it.

Table conventions, checked by :func:`check_result` before any report is written:

- a rate column is named ``*_rate`` (or ``win``, ``draw``, ``loss``) and lies in 0..1;
- an estimate column ``X`` with a 95% interval has columns ``X_low`` and ``X_high``, and
  ``X_low <= X <= X_high``;
- a ``games`` column counts the games behind its row (a non-negative integer).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from crowns_solver.errors import StudyError
from crowns_solver.montecarlo import Z95, _sample, mean_interval, wilson_interval

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

__all__ = [
    "RATE_NAMES",
    "RULE_OPTIONS",
    "Section",
    "Study",
    "StudyError",
    "StudyResult",
    "check_args",
    "check_result",
    "mean_ci",
    "note_sample",
    "sample_log",
    "SMALL_SAMPLE",
    "new_figure",
    "proportion_ci",
    "registry",
    "study",
]

#: Column names that hold rates (values in 0..1) besides those ending in ``_rate``.
RATE_NAMES = frozenset({"win", "draw", "loss"})


@dataclass
class Section:
    """One part of a study's report.

    Attributes
    ----------
    title : str
        The section heading.
    text : str
        Markdown: what the numbers below say.
    table : pandas.DataFrame or None
        Shown as a markdown table (floats to 3 significant places).
    figure : matplotlib.figure.Figure or None
        Saved as a PNG beside the report and shown below the table.
    """

    title: str
    text: str = ""
    table: pd.DataFrame | None = None
    figure: Figure | None = None


@dataclass
class StudyResult:
    """What a study returns: its finding, the sections that back it, and what was run.

    Attributes
    ----------
    headline : str
        One sentence stating the study's main finding with its numbers; the report's
        first line after the title.
    sections : list of Section
        The tables and charts, in reading order.
    games : int
        Games simulated (or positions solved) in total.
    rules : str
        Markdown: the rules, deck and players used.
    intervals : str or None
        The report's closing sentence on how its 95% intervals are computed, where the
        default ("Wilson score intervals for rates, Student t intervals for means") is
        not what the study did (e.g. rates over duplicate deals, clustered by deal).
    """

    headline: str
    sections: list[Section]
    games: int
    rules: str
    intervals: str | None = None


@dataclass(frozen=True)
class Study:
    """A registered study.

    Attributes
    ----------
    name : str
        Identifier used by ``crowns report --only`` and as the report's file name.
    game : str
        ``"cross_kings"``, ``"five_crowns"`` or ``"kings_crowns"``.
    title : str
        The report's title.
    quick_games, full_games : int
        The `games` argument of a ``--quick`` run (seconds) and of the committed full run.
    run : callable
        ``run(games: int, seed: int, executor: Executor | None = None, **options) ->
        StudyResult``.
    module : str
        The module that registered it.
    options : tuple of str
        The rules options (:data:`RULE_OPTIONS`) it can be run under, passed to `run` as
        keyword arguments (``crowns report --reach nearest``, ``--sets 2``); empty: the
        default rules only.
    min_games : int
        The least `games` it can run with (1 for most); ``crowns report`` refuses a smaller
        ``--games`` before any study runs.
    min_games_why : str
        Why it needs `min_games`, for the refusal.
    """

    name: str
    game: str
    title: str
    quick_games: int
    full_games: int
    run: Callable[..., StudyResult] = field(repr=False)
    module: str = ""
    options: tuple[str, ...] = ()
    min_games: int = 1
    min_games_why: str = ""


_REGISTRY: dict[str, Study] = {}
GAMES = ("cross_kings", "five_crowns", "kings_crowns")
#: The rules options a study may take (``crowns report --reach`` / ``--deck`` / ``--sets``
#: / ``--no-all-wild-melds``), by game: Cross Kings' reach (RULES.md, "Move"; a str),
#: King's Crowns' deck (a :class:`~crowns_solver.kings_crowns.Deck`), and Five Crowns'
#: number of 116-card sets (an int, 1 or 2) and ``all_wild_melds`` (a bool; RULES.md,
#: Five Crowns, "Deal and seats" and "Melds").  ``crowns report`` states and orders a
#: run's options in this order.
RULE_OPTIONS = {"reach": "cross_kings", "deck": "kings_crowns", "sets": "five_crowns", "all_wild_melds": "five_crowns"}


def study(name: str, *, game: str, title: str, quick_games: int, full_games: int, options: Sequence[str] = (),
          min_games: int = 1, min_games_why: str = "") -> Callable[[Callable[..., StudyResult]], Callable[..., StudyResult]]:
    """Register ``run(games, seed, executor=None) -> StudyResult`` as a study.

    Parameters
    ----------
    name : str
        Unique name: lower case letters, digits and underscores, e.g.
        ``"kings_crowns_seats"``.
    game : {"cross_kings", "five_crowns", "kings_crowns"}
        The game studied.
    title : str
        Report title.
    quick_games, full_games : int
        Sizes for ``crowns report --quick`` and for the full run (>= 1).
    options : sequence of str
        Rules options of its game (:data:`RULE_OPTIONS`: ``"reach"`` for Cross Kings,
        ``"deck"`` for King's Crowns, ``"sets"`` and ``"all_wild_melds"`` for Five
        Crowns) that `run` takes as keyword arguments, so that ``crowns report`` can run
        it under them; default none.
    min_games : int
        The least `games` the study can run with (default 1), checked by the wrapper and,
        before any study runs, by ``crowns report``.
    min_games_why : str
        Why (a few words, shown in the refusal).

    Returns
    -------
    callable
        A decorator returning the function wrapped so that it first checks its `games`
        and `seed` (:func:`check_args`): every study refuses ``games=0`` or
        ``seed=-5`` naming itself, whether run by ``crowns report`` or called directly.

    Raises
    ------
    StudyError
        If the name is malformed or already registered by another function, the game is
        unknown, a size is below 1, or an option is not one of its game's.
    """
    if not name or not all(c.islower() or c.isdigit() or c == "_" for c in name):
        raise StudyError(f"study name {name!r}: use lower case letters, digits and underscores")
    if game not in GAMES:
        raise StudyError(f"study {name!r}: game {game!r} is not one of {', '.join(GAMES)}")
    if int(quick_games) < 1 or int(full_games) < 1:
        raise StudyError(f"study {name!r}: quick_games and full_games must be at least 1")
    options = tuple(options)
    for option in options:
        if RULE_OPTIONS.get(option) != game:
            raise StudyError(f"study {name!r}: option {option!r} is not a rules option of {game}"
                             f" (known: {', '.join(k for k, g in RULE_OPTIONS.items() if g == game) or 'none'})")

    def register(fn: Callable[..., StudyResult]) -> Callable[..., StudyResult]:
        import functools

        @functools.wraps(fn)
        def checked(games: Any, seed: Any, *args: Any, **kwargs: Any) -> StudyResult:
            # the Cross Kings and Five Crowns studies did not check, called directly:
            # players("x", 0) was a TypeError and first_player(-5, 0) played one deal
            check_args(name, games, seed, min_games, min_games_why)
            return fn(games, seed, *args, **kwargs)

        entry = Study(name, game, title, int(quick_games), int(full_games), checked, fn.__module__, options,
                      int(min_games), min_games_why)
        old = _REGISTRY.get(name)
        if old is not None and (old.module, old.run.__qualname__) != (entry.module, fn.__qualname__):
            raise StudyError(f"study {name!r} is registered twice ({old.module} and {entry.module})")
        _REGISTRY[name] = entry
        return checked

    return register


def check_args(study: str, games: Any, seed: Any, min_games: int = 1, why: str = "") -> None:
    """Raise StudyError unless `games` is a whole number >= `min_games` and `seed` one >= 0.

    Parameters
    ----------
    study : str
        The study's name, for the message.
    games : object
        The size argument as given (an int or NumPy integer; not a bool).
    seed : object
        The root seed as given.
    min_games : int
        The study's least `games` (:attr:`Study.min_games`).
    why : str
        Why it needs that many, for the message.

    Raises
    ------
    StudyError
        Naming the study and the offending argument.
    """
    for label, value, lo in (("games", games, 1), ("seed", seed, 0)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < lo:
            raise StudyError(f"{study}: {label} must be a whole number >= {lo}, got {value!r}", argument=label)
    if games < min_games:
        raise StudyError(f"{study} needs games >= {min_games}{f' ({why})' if why else ''}, got {games}",
                         argument="games")


def registry() -> dict[str, Study]:
    """Every study of the installed ``analysis`` modules, by name, in (game, name) order.

    Returns
    -------
    dict of str to Study
        Study name -> its registration.

    Raises
    ------
    ImportError
        If a study module fails to import (a bug, not a user error).
    """
    import importlib
    import pkgutil

    package = importlib.import_module(__package__ or "crowns_solver.analysis")
    for info in pkgutil.iter_modules(package.__path__):
        if not info.name.startswith("_") and info.name != "base":
            importlib.import_module(f"{package.__name__}.{info.name}")
    return dict(sorted(_REGISTRY.items(), key=lambda kv: (kv[1].game, kv[0])))


def proportion_ci(successes: Any, n: Any) -> tuple[Any, Any]:
    """95% Wilson score interval of a proportion (Wilson 1927;
    :func:`crowns_solver.montecarlo.wilson_interval`, from statsmodels).

    Parameters
    ----------
    successes, n : float or array_like
        Successes (a draw may count 1/2) and trials; arrays broadcast.

    Returns
    -------
    (low, high) : floats or numpy arrays
        Bounds in 0..1; (0, 1) where ``n == 0``; never zero-width where ``n > 0`` (0 of
        10: 0 to 0.278; 10 of 10: 0.722 to 1).

    Raises
    ------
    RunnerError
        If a count is negative or `successes` exceeds `n`
        (:func:`crowns_solver.montecarlo.wilson_interval`).
    """
    return wilson_interval(successes, n, Z95)


#: Fewer observations than this behind a mean: its Student t interval is wide and rests
#: on the observations being roughly normal (no central limit to lean on), and a report
#: says so (:func:`sample_log`).  (Before session 20 these intervals used the normal
#: quantile 1.96 and were too narrow there.)
SMALL_SAMPLE = 30

_SAMPLE_LOGS: list[list[int]] = []


@contextmanager
def sample_log() -> Iterator[list[int]]:
    """Record the sample size behind every interval :func:`mean_ci` makes inside the
    block (in this process), so that a report can say when some rest on fewer than
    :data:`SMALL_SAMPLE` observations, as ``crowns report --quick`` runs do.

    Yields
    ------
    list of int
        Filled as the block runs: one size (>= 2) per interval made.
    """
    log: list[int] = []
    _SAMPLE_LOGS.append(log)
    try:
        yield log
    finally:
        _SAMPLE_LOGS.remove(log)


def mean_ci(values: Sequence[float] | np.ndarray) -> tuple[float, float, float]:
    """Mean and its 95% Student t interval (mean +- t(0.975, n - 1) standard errors;
    :func:`crowns_solver.montecarlo.mean_interval`, from statsmodels).

    The interval is exact for normally distributed observations; with fewer than
    :data:`SMALL_SAMPLE` of them it leans on that assumption, and a report written by
    ``crowns report`` flags it (the sizes go to every active :func:`sample_log`).

    Parameters
    ----------
    values : 1-D array_like of float
        The sample (e.g. margins in points, one per game): a list, tuple, 1-D array or
        pandas Series.

    Returns
    -------
    (mean, low, high) : float
        All NaN for an empty sample; for a single value its mean and NaN bounds (one
        observation says nothing about its spread); NaN bounds if a value is NaN.

    Raises
    ------
    RunnerError
        If `values` are not numbers or not 1-D, naming the shape (it flattened a table
        until session 23; :func:`crowns_solver.montecarlo.mean_interval`).
    """
    x = _sample(values)
    note_sample(int(x.size))
    return mean_interval(x)


def note_sample(n: int) -> None:
    """Record that an interval made elsewhere (e.g. a match summary's margin interval,
    over deal pairs) rests on `n` observations, for every active :func:`sample_log`, as
    :func:`mean_ci` does for its own.

    Parameters
    ----------
    n : int
        Observations behind the interval (values below 2 are ignored: no interval).
    """
    if n >= 2:
        for log in _SAMPLE_LOGS:
            log.append(int(n))


def new_figure(width: float = 6.4, height: float = 4.0) -> Figure:
    """A matplotlib Figure on an Agg canvas (no pyplot state, no display needed).

    Parameters
    ----------
    width, height : float
        Size in inches (shown at 110 dpi).

    Returns
    -------
    matplotlib.figure.Figure
        An empty figure of that size with its Agg canvas attached.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), dpi=110)
    FigureCanvasAgg(fig)
    return fig


def _is_rate(column: str) -> bool:
    return column.endswith("_rate") or column in RATE_NAMES


def check_result(result: StudyResult, name: str = "study") -> None:
    """Check a study's result against the table conventions of this module.

    Parameters
    ----------
    result : StudyResult
        What the study's function returned.
    name : str
        The study's name, for messages.

    Raises
    ------
    StudyError
        If the headline is empty, `games` is below 1, a rate lies outside 0..1, an
        estimate lies outside its interval, or a ``games`` count is negative or not whole.
    """
    import pandas as pd

    if not isinstance(result, StudyResult):
        raise StudyError(f"{name}: run() returned {type(result).__name__}, not StudyResult")
    if not result.headline.strip():
        raise StudyError(f"{name}: empty headline")
    if int(result.games) < 1:
        raise StudyError(f"{name}: games must be at least 1, got {result.games}")
    for section in result.sections:
        table = section.table
        if table is None:
            continue
        where = f"{name}, table {section.title!r}"
        if not isinstance(table, pd.DataFrame):
            raise StudyError(f"{where}: not a DataFrame")
        frame = table.reset_index()
        cols = set(map(str, frame.columns))
        for col in map(str, frame.columns):
            values = frame[col]
            if _is_rate(col) and pd.api.types.is_numeric_dtype(values):
                bad = values[(values < 0) | (values > 1)]
                if len(bad):
                    raise StudyError(f"{where}: rate column {col!r} has {bad.iloc[0]!r} outside 0..1")
            if f"{col}_low" in cols and f"{col}_high" in cols:
                est, lo, hi = (frame[c].astype(float) for c in (col, f"{col}_low", f"{col}_high"))
                tol = 1e-9 * np.maximum(1.0, est.abs())
                # an interval left unknown (NaN bounds, e.g. from one observation) is not checked
                bad = ~((lo - tol <= est) & (est <= hi + tol)) & est.notna() & lo.notna() & hi.notna()
                if bad.any():
                    i = int(np.flatnonzero(bad.to_numpy())[0])
                    raise StudyError(f"{where}: {col} = {est.iloc[i]!r} is outside its interval "
                                     f"[{lo.iloc[i]!r}, {hi.iloc[i]!r}] in row {i}")
            if col == "games" and pd.api.types.is_numeric_dtype(values):
                v = values.astype(float)
                if ((v < 0) | (v != np.round(v))).any():
                    raise StudyError(f"{where}: games column holds a negative or fractional count")
