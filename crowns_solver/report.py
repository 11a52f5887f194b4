"""``crowns report``: the strategy studies, and a report of any simulation results file.

``crowns report [--quick] [--only NAME] [--out DIR] [--workers K]`` runs the studies
registered in :mod:`crowns_solver.analysis` (see :func:`run_studies`) and writes one
markdown report per study, its PNG charts beside it, and an index.

``crowns report RESULTS`` reads a results file written by :func:`crowns_solver.montecarlo.run` (King's
Crowns and Five Crowns ``simulate --out``), relying only on the runner's conventions: ``policy_<seat>``,
``winner`` or ``win_<seat>``, and optionally ``turns``, ``players`` and ``crowns_<seat>``; a Cross
Kings ``match --out`` file (or self-play file) gets a small match report instead.
Charts are drawn with matplotlib's Agg canvas (no display, no global backend change).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import contextlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._checks import check_choice, check_flag
from ._text import count, intervals_over, number, percent
from .errors import OutputExistsError, RunnerError

if TYPE_CHECKING:  # pandas and matplotlib load only when a report is written
    import pandas as pd

__all__ = ["register_command", "run_studies", "write_index", "write_report", "write_study_report"]

#: Root seed of the studies unless ``--seed`` says otherwise.
DEFAULT_SEED = 2026
#: Marker on the first line of a study report (how the index finds them).
_MARKER = "<!-- crowns-study: {name} -->"
#: Its form for a study run under rules options (``crowns report --reach nearest``).
_VARIANT_MARKER = "<!-- crowns-study: {name}; rules: {rules} -->"
_MARKER_START = "<!-- crowns-study:"
#: Marker on the first line of the index (an index.md without it is the user's: kept).
_INDEX_MARKER = "<!-- crowns-report-index -->"
#: First lines of an index this command wrote (the title alone: before the marker existed).
_INDEX_MARKERS = (_INDEX_MARKER, "# crowns_solver strategy reports")
#: Marker on the first line of a results report.
_RESULTS_MARKER = "<!-- crowns-results-report -->"
_RESULT_CHARTS = ("win_rate_by_policy.png", "win_rate_by_seat.png", "game_length.png", "final_crowns.png",
                  "margin.png")
#: The results files ``crowns report RESULTS`` reads (said when it refuses one).
_READABLE = "the --out files of kings-crowns simulate, five-crowns simulate and cross-kings match"
#: Chunk functions of the Cross Kings runs, by the kind of report drawn from their files.
_CROSS_KINGS_CHUNKS = {"crowns_solver.cross_kings.match.play_chunk": "match",
                       "crowns_solver.cross_kings.match.self_play_chunk": "self-play"}


def _study_marker(name: str, rules: str = "") -> str:
    """The first line of study `name`'s report: its rules options `rules` (e.g. "reach
    nearest") are part of it, so a report is only replaced by one of the same rules.  An
    HTML comment cannot hold ``--``: a deck named ``a --> b`` ended it early, showing the
    rest in the rendered report, so the rules are written with ``%`` as ``%25`` and the
    hyphens of a run of two or more as ``%2D`` (:func:`_marker_words` reads them back)."""
    import re

    rules = re.sub(r"-{2,}", lambda m: "%2D" * len(m.group()), rules.replace("%", "%25"))
    return _VARIANT_MARKER.format(name=name, rules=rules) if rules else _MARKER.format(name=name)


def _marker_words(marker: str) -> str | None:
    """The rules words of a study report's first line as :func:`_study_marker` was given
    them, or None for the default rules."""
    _, sep, rules = marker.partition("; rules: ")
    return rules.removesuffix(" -->").replace("%2D", "-").replace("%25", "%") if sep else None


def _marker_rules(marker: str) -> str:
    """The rules a study report's first line states: "the default rules", or "rules
    options reach nearest"."""
    words = _marker_words(marker)
    return "the default rules" if words is None else f"rules options {words}"


@dataclass(frozen=True)
class _Variant:
    """Rules options of a ``crowns report`` run: the studies' keyword arguments, the
    words the reports and their markers use, the suffix of the default folder and the
    options of the rerun command.  Empty for the default rules."""

    kwargs: dict = field(default_factory=dict)
    words: str = ""
    suffix: str = ""
    argv: tuple[str, ...] = ()


#: What each rules option of a study is called on the command line.
_RULE_FLAGS = {"reach": "--reach", "deck": "--deck", "sets": "--sets", "all_wild_melds": "--no-all-wild-melds"}


def _variant(rules: Any, *, cli: bool) -> _Variant:
    """Check the rules options `rules` (``{"reach": "nearest"}``, ``{"deck": path}``,
    ``{"sets": 2, "all_wild_melds": False}``) and return them as a :class:`_Variant`,
    in the order of :data:`~crowns_solver.analysis.base.RULE_OPTIONS` (so one set of
    options always gives one marker and one folder).  Reach "any", the default deck, one
    card set and melds of wilds only allowed are the default rules: no variant.  A deck
    is read from its file and must deal and be winnable at 2 to 5 players (what the King's
    Crowns studies seat), and a number of sets must suit the Five Crowns studies' table
    (:func:`crowns_solver.five_crowns.game.check_sets`), checked before any study runs."""
    from collections.abc import Mapping

    from .analysis.base import RULE_OPTIONS
    from .errors import RulesError, StudyError

    if rules is None:
        return _Variant()
    if not isinstance(rules, Mapping):
        raise StudyError(f"rules must be a mapping of rules options ({', '.join(RULE_OPTIONS)}), got {rules!r}")
    for key in rules:
        if key not in RULE_OPTIONS:
            raise StudyError(f"unknown rules option {key!r}; the studies take {', '.join(RULE_OPTIONS)}")
    kwargs: dict[str, Any] = {}
    words, suffix, argv = [], [], []
    for key in [k for k in RULE_OPTIONS if k in rules]:
        value = rules[key]
        name = _RULE_FLAGS.get(key, key) if cli else key
        if key == "reach":
            from .cross_kings.position import REACHES

            if value is None:   # not given
                continue
            # a str first: a NumPy array reached the results header, "params must be
            # JSON-able" not naming reach (session 24)
            value = check_choice(name, value, REACHES, RulesError, argument=None)
            if value == "any":   # RULES.md's default
                continue
            kwargs[key] = value
            words.append(f"reach {value}")
            suffix.append(f"reach-{value}")
            argv += ["--reach", value]
        elif key == "deck":
            if value is None:
                continue
            from .kings_crowns import DEFAULT_DECK, Rules
            from .kings_crowns.deck import load_deck

            if not isinstance(value, (str, os.PathLike)):
                raise StudyError(f"{name} is the path of a deck file (the report's rerun command names it),"
                                 f" got {type(value).__name__}")
            deck = load_deck(value)
            if deck.counts == DEFAULT_DECK.counts:
                continue
            for players in (2, 3, 4, 5):   # what the studies seat: refused now, not after a study ran
                Rules(deck=deck).check(players)
            kwargs[key] = deck
            # the counts are part of the rules (their card total and digest): another deck under
            # the same name is other rules (session 24: it replaced a report of the first one)
            words.append(_deck_words(deck))
            # a name without a letter or digit ("!!!") is named by its digest (it gave "deck-chart")
            suffix.append("deck-" + (_slug(deck.name, fallback="") or deck.digest).replace("_", "-"))
            argv += ["--deck", os.fsdecode(value)]
        elif key == "sets":
            if value is None:
                continue
            from .analysis._five_crowns_common import PLAYERS
            from .five_crowns.game import check_sets

            check_sets(value, 1)   # an integer 1..2 (RulesError naming sets, on the command line --sets)
            try:
                sets = check_sets(value, PLAYERS)
            except RulesError as exc:
                raise RulesError(f"{exc} (the Five Crowns studies seat {count(PLAYERS, 'player')})",
                                 argument="sets") from None
            if sets == check_sets(None, PLAYERS):   # RULES.md's number of sets for that table
                continue
            kwargs[key] = sets
            words.append(count(sets, "set"))   # as five-crowns play and simulate say it
            suffix.append(f"sets-{sets}")
            argv += ["--sets", str(sets)]
        else:   # all_wild_melds
            if value is None:
                continue
            value = check_flag(name, value, RulesError)   # a NumPy bool too (session 22)
            if value:   # RULES.md's default
                continue
            kwargs[key] = False
            words.append("no melds of wilds only")
            suffix.append("no-all-wild-melds")
            argv += ["--no-all-wild-melds"]
    return _Variant(kwargs, ", ".join(words), "-".join(suffix), tuple(argv))


def _deck_words(deck: Any) -> str:
    """A deck as the rules words of a report (its marker, run table and index line):
    ``deck few sins (106 cards, digest 3f2a9c1e)``, the card total and
    :attr:`~crowns_solver.kings_crowns.Deck.digest` of its counts after its name."""
    return f"deck {deck.name} ({deck.size} cards, digest {deck.digest})"


#: The rules words of a deck in a report's marker; before session 24 the name alone.
_DECK_WORDS = re.compile(r"deck (?P<name>.*?)(?: \((?P<size>\d+) cards, digest (?P<digest>[0-9a-f]{8})\))?")


def _check_deck_name(out: Path, variant: _Variant, *, force: bool, option: str) -> None:
    """OutputExistsError (unless `force`) if `out` holds a study report made with another
    deck of the same name as `variant`'s (other counts, or a marker from before session 24
    that records none): its folder (``reports-deck-NAME``) and index line would mix the
    two decks under one name (session 24)."""
    deck = variant.kwargs.get("deck")
    if deck is None or force:
        return
    mine = _deck_words(deck)
    for md in sorted(out.glob("*.md")):
        first = _first_line(md)
        if first is None or not first.startswith(_MARKER_START) or "; rules: " not in first:
            continue
        words = _marker_words(first)
        match = _DECK_WORDS.fullmatch(words)
        if match is None or match["name"] != deck.name or words == mine:
            continue
        hint = ("use --force to write beside it or choose another" if option.startswith("-")
                else "pass force=True to write beside it or choose another")
        theirs = (f"{match['size']} cards, digest {match['digest']}" if match["size"]
                  else "its counts not recorded: written before session 24")
        raise OutputExistsError(f"{md} is a report made with another deck named {deck.name!r} ({theirs}) than this"
                                f" run's ({deck.size} cards, digest {deck.digest}); {hint} {option}")


def _default_out(quick: bool, variant: _Variant, *, games: int | None = None, seed: int = DEFAULT_SEED) -> str:
    """The default reports folder: ``reports`` (``reports-quick`` with `quick`), with the
    variant's suffix (``reports-quick-reach-nearest``), so a run under other rules never
    lands among the committed default reports; and likewise a run of another size or seed
    (``reports-games-10``, ``reports-quick-seed-7``: session-21 probe, ``--games 10`` in a
    clone replaced the committed full report with a 10-game one without a word)."""
    parts = ["reports-quick" if quick else "reports"]
    if variant.suffix:
        parts.append(variant.suffix)
    if games is not None:
        parts.append(f"games-{games}")
    if seed != DEFAULT_SEED:
        parts.append(f"seed-{seed}")
    return "-".join(parts)


def _replace_hint(option: str) -> str:
    """How to get past a refusal, in the words of what the user typed: the CLI's
    ``--force``/``--out`` or the API's ``force=True``/``out_dir``."""
    if option.startswith("-"):
        return f"use --force to replace it or choose another {option}"
    return f"pass force=True to replace it or choose another {option}"


def _claim(report: Path, markers: str | tuple[str, ...], others: list[Path], *, force: bool,
           option: str = "out_dir") -> str | None:
    """Make sure writing `report` (and `others`) replaces nothing the user made, and
    return the first line of the report now in its place (None if there is none, or it
    is no readable regular file under `force`), read once for the caller too.

    A report whose first line is one of `markers` was written by this command and may be
    replaced; anything else in the way is refused unless `force`, and a device or named
    pipe in the place of the report or of one of `others` even with `force`
    (``_io.check_replaceable``).  Any directory entry counts as something in the way: a
    symbolic link whose target is missing too (session 23: such a ``report.md``, chart
    or chart folder was replaced without `force`; this command never writes links).
    Without `force` a report that cannot be read raises its OSError (it is not refused
    as the user's for a reason it could not check).  The folder is created (its parent
    must exist).  Messages name `option` (``--out`` or ``out_dir``).
    """
    from ._io import check_folder_path, check_replaceable
    from .errors import OutputExistsError, OutputPathError

    markers = (markers,) if isinstance(markers, str) else markers
    folder = check_folder_path(report.parent, option)
    # even with force: reading a named pipe's first line hung, and os.replace put a file in
    # the place of a pipe or device (session 22)
    for target in [report, *others]:
        check_replaceable(target, "", "report", folder=target is not report,
                          why="crowns report reads its reports back and replaces them and their charts whole",
                          hint=f"choose another {option}")
    try:
        folder.mkdir(exist_ok=True)
    except OSError as exc:
        raise OutputPathError(f"cannot create the folder {folder}: {exc.strerror or exc};"
                              f" choose another {option}") from None
    if force:
        return _first_line(report)
    hint = _replace_hint(option)
    for target in [report, *others]:
        if target.is_symlink() and not target.exists():
            raise OutputExistsError(f"{target} exists (a symbolic link to {os.readlink(target)}, which is missing)"
                                    f" and was not written by crowns report; {hint}")
    for other in others:
        if other.is_dir() and any(not (f.is_file() and f.suffix == ".png") for f in other.iterdir()):
            raise OutputExistsError(f"{other} holds files crowns report did not write (it replaces the folder);"
                                    f" {hint}")
    first = None
    if report.exists():
        if report.is_dir():
            raise OutputExistsError(f"{report} is a folder and was not written by crowns report; {hint}")
        with open(report, encoding="utf-8", errors="replace") as f:
            first = f.readline().rstrip("\n")
        if first not in markers:
            mine = [m for m in markers if m.startswith(_MARKER_START)]
            if mine and first.startswith(_MARKER_START):
                # a report of the same study under other rules options (crowns report --reach ...):
                # the committed default reports are not replaced by a variant, nor the reverse,
                # without force
                raise OutputExistsError(f"{report} is a report made under {_marker_rules(first)}, not"
                                        f" {_marker_rules(mine[0])}; {hint}")
            raise OutputExistsError(f"{report} exists and was not written by crowns report; {hint}")
    else:
        for other in others:
            if other.exists() and not (other.is_dir() and not any(other.iterdir())):
                raise OutputExistsError(f"{other} exists and was not written by crowns report; {hint}")
    return first


@contextlib.contextmanager
def _tidy_new_folder(folder: Path) -> Iterator[None]:
    """Run the body; if it fails or is interrupted (Ctrl-C) and `folder` did not exist
    before it and is still empty, remove the folder (session 23: an interrupted ``crowns
    report --out sigrep`` left an empty ``sigrep/`` behind).  A folder that existed
    before is never removed, nor one holding anything (a finished report stays)."""
    existed = os.path.lexists(folder)
    try:
        yield
    except BaseException:
        if not existed:
            with contextlib.suppress(OSError):   # not empty, or gone: leave it
                if folder.is_dir() and not folder.is_symlink() and not any(folder.iterdir()):
                    folder.rmdir()
        raise


def _replace_text(path: Path, text: str) -> None:
    """Write `text` to `path` under a temporary name in its folder and move it into place,
    so an interrupted or failed write never leaves a half-written report (README: reports
    are written to a temporary name and moved into place)."""
    tmp = path.with_name(f".{path.name}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _replace_figure(fig: Any, path: Path) -> None:
    """Save the matplotlib figure `fig` as the PNG `path` the way :func:`_replace_text`
    writes text: under a temporary name first, then moved into place."""
    tmp = path.with_name(f".{path.stem}.tmp{path.suffix}")
    try:
        fig.savefig(tmp, format=path.suffix.lstrip(".") or "png")
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _rules_summary(rules: dict, meta: dict) -> str:
    """One line of a game's recorded rules options (any game), e.g. ``max turns 2000``."""
    parts = []
    for key, value in rules.items():
        if key in ("deck", "deck_name") or isinstance(value, (dict, list)):
            continue
        if key == "target" and value is None:
            value = meta.get("target") or "default"
        parts.append(f"{key.replace('_', ' ')} {value}")
    deck = rules.get("deck")
    if isinstance(deck, dict) and deck:
        parts.append(f"deck {rules.get('deck_name', 'custom')} ({sum(deck.values())} cards)")
    return ", ".join(parts)


def _cell(value: Any) -> str:
    """`value` as the text of a markdown table cell: a ``|`` in a deck's or a player's
    name (``deck a | b``) split the cell in two (probe 19), so it is escaped."""
    return str(value).replace("|", "\\|")


def win_rate_markdown(table: pd.DataFrame, by: str, interval: str | None = None) -> str:
    """A win-rate table (from ``win_rates``) as markdown: rate to 3 places, the 95% CI as one
    column, whose heading says which interval it is (by policy: games as clusters, by seat:
    Wilson's, unless `interval` says otherwise, such as "deals as clusters"; session 23:
    both read "95% CI")."""
    from .montecarlo import CLUSTER_LABEL

    t = table.copy()
    t["rate"] = t["rate"].map(lambda x: f"{x:.3f}")
    label = f"95% CI ({interval or (CLUSTER_LABEL if by == 'policy' else 'Wilson')})"
    t[label] = [f"{lo:.3f} .. {hi:.3f}" for lo, hi in zip(t.pop("ci_low"), t.pop("ci_high"))]
    t.index = t.index.map(_cell)
    t.index.name = by
    return t.to_markdown()


def win_rate_chart(table: pd.DataFrame, title: str, xlabel: str, fair: float | None, path: Path,
                   observations: Any = None, interval: str = "Wilson", unit: str = "game") -> None:
    """Bar chart of win rates with 95% CI error bars and an equal-share line (`fair`), saved as PNG.

    Parameters
    ----------
    table : pandas.DataFrame
        From ``montecarlo.win_rates``: ``rate``, ``ci_low``, ``ci_high`` per row (a bar).
    title, xlabel : str
        The chart's title (a second line says what the intervals are over) and x label.
    fair : float or None
        The equal share (a dashed line), or None for none.
    path : pathlib.Path
        The PNG to write.
    observations : int or sequence of int, optional
        The games each bar's interval is over (one number, or one per bar); default the
        ``games`` column of `table`.
    interval : str
        Which interval the error bars are, for the y label ("Wilson", or "games as
        clusters" for rates by policy).
    unit : str
        The observation the intervals count (``"game"``, ``"deal"``), for the title.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(max(4.5, 1.1 * len(table) + 2), 3.6), dpi=110)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    labels = [str(i) for i in table.index]
    rate = table["rate"].to_numpy(dtype=float)
    err = [rate - table["ci_low"].to_numpy(dtype=float), table["ci_high"].to_numpy(dtype=float) - rate]
    ax.bar(labels, rate, yerr=err, capsize=5, color="#4477aa", edgecolor="black", linewidth=0.5)
    for x, r in enumerate(rate):
        ax.annotate(f"{r:.3f}", (x, r), textcoords="offset points", xytext=(10, 3), fontsize=8)
    if fair is not None:
        ax.axhline(fair, color="#cc3311", linestyle="--", linewidth=1, label=f"equal share 1/{round(1 / fair)}")
        ax.legend(loc="upper right", fontsize=8)
    ax.set_ylim(0, min(1.0, max(float(table["ci_high"].max()) * 1.2, (fair or 0) * 1.3, 0.05)))
    ax.set_ylabel("win rate (95% Wilson CI)" if interval == "Wilson" else f"win rate (95% CI,\n{interval})")
    ax.set_xlabel(xlabel)
    over = table["games"] if observations is None else observations
    ax.set_title(f"{title}\n({intervals_over(over, unit, each='per bar')})", fontsize=10)
    fig.tight_layout()
    _replace_figure(fig, path)


def _length_chart(df: pd.DataFrame, path: Path) -> None:
    import pandas as pd
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6, 3.6), dpi=110)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    turns = df["turns"].dropna().to_numpy(dtype=float)
    hi = float(pd.Series(turns).quantile(0.995)) if len(turns) else 1
    ax.hist(turns[turns <= hi], bins=50, color="#228833", edgecolor="black", linewidth=0.3)
    ax.axvline(float(pd.Series(turns).median()), color="black", linestyle="--", linewidth=1,
               label=f"median {pd.Series(turns).median():.0f}")
    ax.set_xlabel("game length (turns over all seats; top 0.5% not shown)")
    ax.set_ylabel("games")
    ax.set_title("Game length", fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    _replace_figure(fig, path)


def _crowns_chart(df: pd.DataFrame, seats: list[int], path: Path) -> None:
    import pandas as pd
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    winners = df["winner"].to_numpy()
    losers = []
    for s in seats:
        col = df[f"crowns_{s}"].to_numpy()
        losers.extend(col[(winners != s) & pd.notna(col)].tolist())
    fig = Figure(figsize=(6, 3.6), dpi=110)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.hist(losers, bins=range(0, int(max(losers, default=0)) + 10, 5), color="#aa3377", edgecolor="black", linewidth=0.3)
    ax.set_xlabel("crown points of the other seats when the game ended")
    ax.set_ylabel("seat-games")
    ax.set_title("How close the others came", fontsize=10)
    fig.tight_layout()
    _replace_figure(fig, path)


def _start_cell_text(start: Any) -> str:
    """A Cross Kings run's start cell (its header's cell index, or None) as ``cross-kings
    match`` prints it: "fixed at (2,2)" or "second player chooses"."""
    if start is None:
        return "second player chooses"
    if isinstance(start, int) and not isinstance(start, bool) and 0 <= start < 36:
        from .cross_kings.position import cell_text

        return f"fixed at {cell_text(start)}"
    return f"cell {start}"   # a value the match never writes: shown as it is


def _stack_seatings(df: pd.DataFrame) -> pd.DataFrame:
    """Duplicate-deal results (``k<j>_<column>``: seating j of each deal) as one row per game played.

    ``simulate(duplicate=True)`` writes one row per deal with every seating's columns
    prefixed ``k0_``, ``k1_``...; the report counts each seating as a game.  Other tables
    are returned unchanged.
    """
    import re

    import pandas as pd

    seatings = sorted({int(m.group(1)) for c in map(str, df.columns) if (m := re.match(r"k(\d+)_", c))})
    if not seatings or any(c.startswith("policy_") for c in map(str, df.columns)):
        return df
    shared = [c for c in df.columns if not re.match(r"k\d+_", str(c))]
    parts = []
    for k in seatings:
        cols = [c for c in df.columns if str(c).startswith(f"k{k}_")]
        part = df[shared + cols].rename(columns={c: str(c)[len(f"k{k}_"):] for c in cols})
        parts.append(part.assign(seating=k))
    stacked = pd.concat(parts, ignore_index=True)
    stacked.attrs = dict(df.attrs)
    return stacked


def write_report(results: str | Path | pd.DataFrame, out_dir: str | Path = "report", *, by: str = "policy",
                 title: str | None = None, force: bool = False) -> Path:
    """Write ``out_dir/report.md`` and its PNG charts from a simulation's results.

    Parameters
    ----------
    results : path or DataFrame
        A results file written by :func:`crowns_solver.montecarlo.run` (King's Crowns or
        Five Crowns ``simulate --out``, Cross Kings ``match --out`` or a self-play run),
        or a table it returned (metadata read from ``attrs``).  A Cross Kings file gets a
        match report: A's wins, draws, losses and score (95% intervals that count each
        deal, whose two games share the cards, as one observation:
        :func:`crowns_solver.cross_kings.match.summarise`), the same by A's seat (Wilson
        intervals: one game per deal), the mean margin (Student t interval over deals)
        and a chart of the margins (``margin.png``).
    out_dir : path
        Folder for ``report.md`` and the charts (created if needed).
    by : {"policy", "seat"}
        Grouping of the main win-rate table (both charts are drawn either way).
    title : str, optional
        Report title (default: from the game's name).
    force : bool
        Replace a ``report.md`` (and charts) in `out_dir` that this command did not write.

    Returns
    -------
    Path
        The report file.

    Raises
    ------
    ResultsFileError
        If the file is not a results file, or holds a value it cannot hold (a negative or
        non-whole count, a policy its header does not record, a Cross Kings score that is
        no number; see :func:`crowns_solver.montecarlo.check_columns`), naming the game
        and the column.
    RunnerError
        If `by` is unknown or the table has no games, lacks the win columns or breaks
        their conventions.  Every refusal comes before `out_dir` is made.
    ResultsFileError
        If `results` is an empty path (it would name the current folder) or a folder, or
        a :class:`~crowns_solver.cross_kings.match.MatchResult` (report on the results
        file its ``out=`` writes); or if the results file does not exist or cannot be
        read, naming it as the system does (``r.jsonl: No such file or directory``; a
        bare :class:`FileNotFoundError` until session 23).
    OutputExistsError
        If `out_dir` holds a ``report.md`` or chart that ``crowns report`` did not write
        (and not `force`), or `out_dir` is a file; or, even with `force`, a device or a
        named pipe stands in the place of ``report.md`` or a chart; or `force` is not True
        or False.
    MissingFolderError
        If `out_dir`'s parent folder does not exist or is a file (an OutputPathError).
    SamePathError
        If the results file is one of the files the report writes (``report.md`` or a
        chart in `out_dir`), even with `force`.
    OutputPathError
        If `out_dir` is empty or cannot be created.
    """
    force = check_flag("force", force, OutputExistsError)   # force="no" replaced the user's files
    return _write_report(results, out_dir, by=by, title=title, force=force, option="out_dir")


def _write_report(results: str | Path | pd.DataFrame, out_dir: str | Path, *, by: str, title: str | None,
                  force: bool, option: str) -> Path:
    """:func:`write_report`, its messages naming `option` (``--out`` from the CLI).

    A chart of an earlier report in the same folder that this report does not draw (a
    King's Crowns report's ``final_crowns.png`` under a Cross Kings match report's
    ``margin.png``) is deleted when that earlier ``report.md`` was written by this
    command: it was left behind, and listed as one of the new report's charts (session
    21 probe).  A folder whose ``report.md`` is the user's (replaced with `force`) keeps
    its other files."""
    try:
        # the first line of the report.md replaced, read once by _claim (it was read here too);
        # a folder made for the report is removed if the report fails or is interrupted
        with _tidy_new_folder(Path(os.fsdecode(out_dir))) if isinstance(out_dir, (str, os.PathLike)) \
                else contextlib.nullcontext():
            path, before = _write_results_report(results, out_dir, by=by, title=title, force=force, option=option)
    except OSError as exc:   # e.g. a full disk, which names no file: name the folder (session 21)
        if exc.filename is not None:
            raise
        from ._io import write_error

        raise write_error(exc, option, out_dir, "report") from None
    if before == _RESULTS_MARKER:
        drawn = set(_report_charts(path))
        for name in _RESULT_CHARTS:
            stale = path.parent / name
            if name not in drawn and stale.is_file() and not stale.is_symlink():
                stale.unlink()
    return path


def _first_line(path: Path) -> str | None:
    """The first line of the text file `path`, or None if it is no readable regular file
    (a named pipe's first line waits for a writer: it hung ``crowns report RESULTS``)."""
    if not path.is_file():
        return None
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return f.readline().rstrip("\n")
    except OSError:
        return None


def _report_charts(report: str | Path) -> list[str]:
    """The PNG charts a results report shows, in its order.

    Parameters
    ----------
    report : path
        A ``report.md`` written by :func:`write_report`.

    Returns
    -------
    list of str
        The file names of the charts its image links name (``win_rate_by_policy.png``...),
        relative to the report's folder; other PNG files in the folder are not its charts.
    """
    import re

    text = Path(report).read_text(encoding="utf-8")
    return list(dict.fromkeys(re.findall(r"!\[[^\]]*\]\(([^)\s]+\.png)\)", text)))


def _table_hint(df: pd.DataFrame) -> str:
    """What to do with a table the library returns in a shape a report is not drawn from
    (session 22: the refusal named only the files it reads)."""
    cols = {str(c) for c in df.columns}
    if {"seat", "policy", "won"} <= cols:
        return ("; five_crowns.simulate returns one row per game and seat: give it out= a results file and"
                " report on that file (five_crowns.summarize gives the table's win rates and totals)")
    if {"a_seat", "margin_a"} <= cols:
        return ("; MatchResult.games is one row per game: give match(..., out='m.jsonl') a results file and"
                " report on that file")
    return ""


def _write_results_report(results: str | Path | pd.DataFrame, out_dir: str | Path, *, by: str, title: str | None,
                          force: bool, option: str) -> tuple[Path, str | None]:
    """Write the report (:func:`_write_report` without its clean-up of stale charts);
    return its path and the first line of the ``report.md`` it replaced (:func:`_claim`)."""
    import pandas as pd

    from ._io import check_distinct, check_input_given
    from .errors import ResultsFileError
    from .montecarlo import CLUSTER_LABEL, _by_construction, _seats, read_results, win_rates

    by = check_choice("by", by, ("seat", "policy"), argument=None)   # a str first (session 24)
    out = _out_folder(out_dir, option)
    source = None
    if isinstance(results, pd.DataFrame):
        df = results
    else:
        if type(results).__name__ == "MatchResult":   # the object match() returns, not its results file
            raise ResultsFileError("a MatchResult holds one row per game and the summary, not the per-deal results"
                                   " a report is drawn from: give match(..., out='m.jsonl') a results file and"
                                   " report on that file (or print the MatchResult's describe())")
        check_input_given(results, "results file", ResultsFileError)  # Path("") would be the current folder
        source = Path(results)
        for name in ("report.md", *_RESULT_CHARTS):
            check_distinct(("the results file", source), (f"the report's {name}", out / name),
                           why=f"the report would replace its own results file (choose another {option})")
        try:
            df = read_results(source)
        except OSError as exc:   # missing or unreadable: a bare FileNotFoundError until session 23
            raise ResultsFileError(f"{os.fsdecode(results)}: {exc.strerror or exc}") from None
    if len(df) == 0:
        raise RunnerError(f"{source or 'results'}: no finished games yet")
    meta: dict[str, Any] = dict(df.attrs)
    kind = _cross_kings_kind(df, meta)
    if kind is not None and by == "seat":
        raise RunnerError(f"{source or 'results'}: --by seat (by='seat') applies to King's Crowns and Five Crowns"
                          f" results; this is a Cross Kings {kind} file, whose report shows"
                          f" {'A' if kind == 'match' else 'the first player'}'s results by seat already")
    if kind is not None:
        return _cross_kings_report(df, meta, kind, source, out, title=title, force=force, option=option)
    deals_done = len(df)          # a duplicate run's rows are deals, each played in every seating
    stacked = _stack_seatings(df)
    duplicate = stacked is not df
    df = stacked
    game = meta.get("game") or "game"
    seats = _seats(df)
    if not seats:  # before the folder is made: a refusal leaves nothing behind
        raise RunnerError(f"{source or 'results'}: not a table crowns report can read (no policy_<seat> or win_<seat>"
                          f" columns); it reads {_READABLE}{_table_hint(df)}")
    # a duplicate run's seatings share the deal's cards: each deal is one observation, as
    # five-crowns simulate --duplicate counts it (session 23: each seating counted alone)
    by_policy = win_rates(df, by="policy", clusters="game" if duplicate else None)
    by_seat = win_rates(df, by="seat", clusters="game" if duplicate else None)
    before = _claim(out / "report.md", _RESULTS_MARKER, [out / n for n in _RESULT_CHARTS], force=force,
                    option=option)
    players = sorted(set(df["players"].dropna().astype(int))) if "players" in df else [len(seats)]
    fair = 1 / players[0] if len(players) == 1 else None

    params = meta.get("params") or {}
    rules = meta.get("rules") or params.get("rules") or {}
    names = {"kings-crowns": "King's Crowns", "five-crowns": "Five Crowns", "cross-kings": "Cross Kings"}
    lines = [_RESULTS_MARKER, f"# {title or names.get(str(game), str(game)) + ' simulation report'}", ""]
    lines += ["## Run", "", "| | |", "|---|---|"]
    done, total = len(df), meta.get("games", len(df))
    if duplicate:
        # the header's count is of deals: "6 of 3 (run not finished)" was said of a finished
        # run of 3 deals in 2 seatings (session 20), and nothing said the deals were duplicated
        seatings = done // deals_done
        games = (f"{done} ({count(deals_done, 'deal')} x {count(seatings, 'seating')})"
                 + ("" if deals_done == total else f"; {deals_done} of {total} deals done (run not finished)"))
    else:
        games = f"{done}" + ("" if done == total else f" of {total} (run not finished)")
    rows = [
        ("game", game),
        ("games", games),
        ("players", ", ".join(map(str, players))),
        ("policies", ", ".join(params.get("policies", sorted(by_policy.index.map(str))))),
        ("seats rotated", params.get("rotate", "n/a")),
        *([("duplicate deals", "each deal played once in every distinct seating rotation of the policies")]
          if duplicate else []),
        ("seed", meta.get("seed")),
        ("chunk size", meta.get("chunk_size")),
        ("library version", meta.get("version")),
        ("created", meta.get("created", "n/a")),
        ("results file", source or "n/a"),
    ]
    if rules:
        rows.append(("rules", _rules_summary(rules, meta)))
    lines += [f"| {k} | {_cell(v)} |" for k, v in rows]
    if rules:
        shown = {k: v for k, v in rules.items() if k != "deck"}
        lines += ["", f"Rules as recorded: `{json.dumps(shown)}`."]
        deck = rules.get("deck")
        if isinstance(deck, dict) and deck:
            lines[-1] = lines[-1][:-1] + "; deck: " + ", ".join(f"{k} {v}" for k, v in deck.items()) + "."
    deals = "deals as clusters" if duplicate else None   # the intervals' label in a duplicate run
    lines += ["", f"## Win rates by {by}", "",
              win_rate_markdown(by_policy if by == "policy" else by_seat, by, deals), ""]
    other = "seat" if by == "policy" else "policy"
    lines += [f"Win rates by {other}:", "", win_rate_markdown(by_seat if by == "policy" else by_policy, other, deals),
              ""]
    if "winner" in df:
        stale = int((df["winner"].fillna(-1) < 0).sum())
        lines += [f"Games without a winner (stalemate at the turn cap): {stale} of {done}"
                  f" ({percent(stale / done, 1)}). They count as games, not wins, so rates need not add to 1.", ""]
    if not duplicate:
        lines += ["Intervals are 95%. By seat: Wilson score intervals (Wilson 1927) of the wins and games shown."
                  f" By policy, {CLUSTER_LABEL}: each game counts once, since the seats one policy fills in a game"
                  " are not independent (Wilson's interval with each game one observation,"
                  " `montecarlo.cluster_wilson_interval`), so it is not the Wilson interval of the wins and"
                  " seat-games shown when a policy has several seats.", ""]
    else:
        lines += ["Intervals are 95%, deals as clusters: the seatings of a deal share its cards, so each deal"
                  " counts once, by seat and by policy (Wilson's interval with each deal one observation,"
                  " `montecarlo.cluster_wilson_interval`, as `crowns five-crowns simulate --duplicate` counts"
                  " them), not the Wilson interval of the wins and games shown.", ""]
    if len(by_policy) == 1:
        lines += [f"Note: {_by_construction(by_policy.index[0], players[0] if len(players) == 1 else None, str(game))}."
                  " To compare players, give each its seats.", ""]
    points = points_by_policy(df, seats) if str(game) == "five-crowns" else None
    if points is not None:
        unit = "deals (a deal's seatings averaged first)" if "seating" in df else "games"
        lines += ["## Points per game by policy", "",
                  "Five Crowns is won by the lowest total: each policy's mean final total per game (points),"
                  f" with a 95% Student t interval over {unit}.", "",
                  _points_markdown(points), ""]

    charts = []
    # by policy each game counts once (win_rates' clustered interval): the games a policy played in
    policy_columns = [f"policy_{s}" for s in seats if f"policy_{s}" in df]
    if duplicate:   # the deals a policy played in (each deal one observation)
        policy_games = [int(df.loc[df[policy_columns].eq(name).any(axis=1), "game"].nunique())
                        for name in by_policy.index]
    else:
        policy_games = ([int(df[policy_columns].eq(name).any(axis=1).sum()) for name in by_policy.index]
                        if policy_columns else done)
    unit = "deal" if duplicate else "game"
    win_rate_chart(by_policy, "Win rate by policy", "policy", fair, out / "win_rate_by_policy.png",
                   policy_games, interval=deals or CLUSTER_LABEL, unit=unit)
    charts.append(("Win rate by policy", "win_rate_by_policy.png"))
    win_rate_chart(by_seat, "Win rate by seat (seat 0 starts)", "seat", fair, out / "win_rate_by_seat.png",
                   deals_done if duplicate else None, interval=deals or "Wilson", unit=unit)
    charts.append(("Win rate by seat", "win_rate_by_seat.png"))
    if "turns" in df:
        _length_chart(df, out / "game_length.png")
        charts.append(("Game length", "game_length.png"))
        t = df["turns"]
        lines += ["## Game length", "",
                  f"Turns over all seats: mean {t.mean():.1f}, median {t.median():.0f},"
                  f" 10th-90th percentile {t.quantile(0.1):.0f}-{t.quantile(0.9):.0f}, max {t.max():.0f}.", ""]
        if len(players) > 1:
            lines += [df.groupby("players")["turns"].describe()[["count", "mean", "50%", "max"]].to_markdown(), ""]
    if "winner" in df and all(f"crowns_{s}" in df for s in seats):
        _crowns_chart(df, seats, out / "final_crowns.png")
        charts.append(("How close the others came", "final_crowns.png"))
    lines += ["## Charts", ""]
    for caption, name in charts:
        lines += [f"![{caption}]({name})", ""]
    path = out / "report.md"
    _replace_text(path, "\n".join(lines))
    return path, before


def points_by_policy(df: pd.DataFrame, seats: list[int]) -> pd.DataFrame | None:
    """Five Crowns results: each policy's mean final total (points per game, lower is
    better) with its 95% Student t interval.

    Parameters
    ----------
    df : DataFrame
        One row per game (a duplicate run's seatings stacked, see ``_stack_seatings``),
        with ``policy_<seat>`` and ``total_<seat>`` columns and ``game`` (for stacked
        seatings: the deal, shared by its seatings).
    seats : list of int
        The seat numbers.

    Returns
    -------
    DataFrame or None
        Columns ``policy``, ``seat-games``, ``mean total``, ``low``, ``high``, best
        (lowest) first; None if the table has no totals.  A game's seats of one policy
        are averaged, then the games of one deal (``game``), so the interval is over
        independent deals (:func:`crowns_solver.montecarlo.mean_interval`), its low bound
        clipped at 0 (a total is never negative; few deals gave bounds such as -1.4).
    """
    import pandas as pd

    from .montecarlo import mean_interval

    if not all(f"total_{s}" in df and f"policy_{s}" in df for s in seats):
        return None
    long = pd.concat([pd.DataFrame({"game": df["game"].to_numpy(), "row": range(len(df)),
                                    "policy": df[f"policy_{s}"].astype(str).to_numpy(),
                                    "total": pd.to_numeric(df[f"total_{s}"], errors="coerce").to_numpy()})
                      for s in seats], ignore_index=True).dropna(subset=["total"])
    rows = []
    for policy, part in long.groupby("policy"):
        per_deal = part.groupby(["game", "row"])["total"].mean().groupby(level="game").mean()
        mean, low, high = mean_interval(per_deal.to_numpy())
        low = max(0.0, low) if low == low else low   # totals are points >= 0: a negative bound says nothing
        rows.append({"policy": policy, "seat-games": len(part), "mean total": mean, "low": low, "high": high})
    return pd.DataFrame(rows).sort_values("mean total", ignore_index=True) if rows else None


def _points_markdown(points: pd.DataFrame) -> str:
    """:func:`points_by_policy`'s table as markdown, points to one place; a bound that
    does not exist (a policy seen in one game or deal: NaN) is an empty cell, as in the
    study tables (it printed ``nan``); a zero-width interval (every game the same total)
    reads ``no spread``, not a bound equal to the mean."""
    shown = points.astype(object).where(points.notna(), None)
    # equal totals in every game: the sample shows no spread, which is not certainty, so
    # no zero-width interval (montecarlo.mean_interval; session 23)
    flat = (points["low"] == points["high"]).to_numpy()
    if flat.any():   # the bounds as text then: a column of numbers and words is not formatted by floatfmt
        for col in ("low", "high"):
            shown[col] = ["" if (v is None or v != v) else f"{v:.1f}" for v in shown[col]]
        shown.loc[flat, ["low", "high"]] = "no spread"
    return shown.to_markdown(index=False, floatfmt=".1f", missingval="")


def _cross_kings_kind(df: pd.DataFrame, meta: dict[str, Any]) -> str | None:
    """``"match"`` or ``"self-play"`` for a Cross Kings results table, else None."""
    return _CROSS_KINGS_CHUNKS.get(str(meta.get("play_chunk")))


def _numeric_columns(df: pd.DataFrame, columns: list[str], source: str) -> None:
    """ResultsFileError unless every column is there and holds whole numbers, naming the deal."""
    import numpy as np

    from .errors import ResultsFileError
    from .montecarlo import not_whole

    for col in columns:
        if col not in df.columns:
            raise ResultsFileError(f"{source}: the Cross Kings results lack the column {col!r}")
        raw = df[col]
        bad = not_whole(raw)
        if bad.any():
            r = int(np.flatnonzero(bad)[0])
            raise ResultsFileError(f"{source}: deal {df['deal'].iloc[r] if 'deal' in df else r} has {col} ="
                                   f" {raw.iloc[r]!r}; it must be a whole number of points")


def _margin_chart(margins: Any, xlabel: str, title: str, path: Path) -> None:
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    m = np.asarray(margins, dtype=float)
    fig = Figure(figsize=(6, 3.6), dpi=110)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    lo, hi = int(m.min()), int(m.max())
    ax.hist(m, bins=np.arange(lo - 0.5, hi + 1.5, 1), color="#4477aa", edgecolor="black", linewidth=0.3)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.axvline(float(m.mean()), color="#cc3311", linestyle="--", linewidth=1, label=f"mean {number(m.mean(), '+.2f')}")
    ax.set_xlabel(xlabel)
    ax.set_ylabel("games")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    _replace_figure(fig, path)


def _with_options(player: str, options: Any) -> str:
    """A player's name with its options as recorded (``search (node_limit=50000)``), or
    the name alone without options (the header printed ``greedy  in both seats``, two
    spaces, and ``search {'node_limit': 50000}``, a Python dict, until session 20)."""
    if not options:
        return player
    if isinstance(options, dict):
        return f"{player} ({', '.join(f'{k}={v}' for k, v in options.items())})"
    return f"{player} ({options})"


def _cross_kings_report(df: pd.DataFrame, meta: dict[str, Any], kind: str, source: Path | None, out: Path, *,
                        title: str | None, force: bool, option: str) -> tuple[Path, str | None]:
    """A Cross Kings match or self-play results file as a small report: results with 95%
    intervals (win, draw, loss, score; over deals: a match's rates from
    :func:`~crowns_solver.cross_kings.match.summarise`, clustered by deal, the rates of
    one game per deal Wilson's), the mean margin (Student t interval over deals), and a
    chart of the margins.  Returns the report's path and the first line of the
    ``report.md`` it replaced (:func:`_claim`)."""
    import math

    from .cross_kings.match import games_table, summarise
    from .montecarlo import mean_interval, wilson_interval

    where = str(source or "results")
    params = meta.get("params") or {}
    done, total = len(df), meta.get("games", len(df))
    if kind == "match":
        _numeric_columns(df, ["deal"] + [f"{c}_{j}" for j in (0, 1) for c in ("score_first", "score_second", "start")],
                         where)
        a, b = str(params.get("a", "A")), str(params.get("b", "B"))
        games = games_table(df.assign(**{f"{c}_{j}": df.get(f"{c}_{j}", 0) for j in (0, 1)
                                         for c in ("moves_a", "moves_b", "seconds_a", "seconds_b")}), a, b)
        summary = summarise(games)
    else:
        _numeric_columns(df, ["deal", "score_first", "score_second", "start"], where)
        a = b = str(params.get("player", "?"))
        margin = (df["score_first"].astype(int) - df["score_second"].astype(int)).to_numpy()
    before = _claim(out / "report.md", _RESULTS_MARKER, [out / n for n in _RESULT_CHARTS], force=force,
                    option=option)

    def rate_row(label: str, k: float, n: int, ci: tuple[float, float] | None = None) -> str:
        # ci: a match's clustered interval (summarise); else Wilson's, for one game per deal
        lo, hi = wilson_interval(k, n) if ci is None else ci
        return f"| {label} | {k:g} | {n} | {k / n:.3f} | {float(lo):.3f} .. {float(hi):.3f} |"

    def summary_row(label: str, k: float, name: str) -> str:
        return rate_row(label, k, summary["games"], (summary[f"{name}_low"], summary[f"{name}_high"]))

    def mean_ci(mean: float, low: float, high: float) -> str:
        if math.isnan(low):
            return f"{number(mean, '+.2f')} (one deal: no interval)"
        return f"{number(mean, '+.2f')} ({number(low, '+.2f')} .. {number(high, '+.2f')})"

    head = "| | count | games | rate | 95% CI |\n|---|---|---|---|---|"
    start = params.get("start")
    lines = [_RESULTS_MARKER, f"# {title or 'Cross Kings ' + kind + ' report'}", "", "## Run", "", "| | |", "|---|---|"]
    rows = [("game", "cross-kings"),
            ("kind", meta.get("format", kind)),
            ("deals", f"{done}" + ("" if done == total else f" of {total} (run not finished)")),
            ("players", f"A = {_with_options(a, params.get('a_options'))}, B = {_with_options(b, params.get('b_options'))}"
             if kind == "match" else f"{_with_options(a, params.get('options'))} in both seats"),
            ("reach", params.get("reach", "n/a")),
            ("start cell", _start_cell_text(start))]
    # self_play(symmetry=...) plays every deal turned or mirrored, a fixed start cell with
    # it: the header said nothing of it until session 20
    if params.get("symmetry", "identity") != "identity":
        rows.append(("grid symmetry", f"{params['symmetry']} (every deal, and a fixed start cell, turned by it)"))
    rows += [("seed", meta.get("seed")), ("chunk size", meta.get("chunk_size")),
             ("library version", meta.get("version")), ("created", meta.get("created", "n/a")),
             ("results file", source or "n/a")]
    lines += [f"| {k} | {_cell(str(v).strip())} |" for k, v in rows] + [""]   # a | in the file's name
    if kind == "match":
        n = summary["games"]
        lines += [f"## A's results ({a} against {b})", "",
                  f"Each deal is played twice with the seats exchanged: {count(n, 'game')} over {count(summary['deals'], 'deal')}."
                  " The two games of a deal share its cards, so they are not independent: each deal counts as one"
                  " observation (Wilson's interval on the effective number of games of the clustered rate, Korn &"
                  " Graubard 1998).", "",
                  head, summary_row("A wins", summary["wins"], "win"), summary_row("draws", summary["draws"], "draw"),
                  summary_row("A loses", summary["losses"], "loss"),
                  summary_row("A's score (win 1, draw 1/2)", summary["wins"] + summary["draws"] / 2, "score"), "",
                  "Mean margin, A's points minus B's (per deal, both games): "
                  + mean_ci(summary["margin"], summary["margin_low"], summary["margin_high"]) + " points.", "",
                  "## By A's seat", "", "One game per deal in each seat: plain Wilson intervals.", "", head]
        for seat in ("first", "second"):
            g = games[games["a_seat"] == seat]
            lines += [rate_row(f"A wins, A {seat}", int(g["win_a"].sum()), len(g)),
                      rate_row(f"draws, A {seat}", int(g["draw"].sum()), len(g))]
        lines += [""]
        margins, xlabel = games["margin_a"], "A's points minus B's"
    else:
        n = len(margin)
        lines += [f"## The first player's results ({a} against itself)", "", head,
                  rate_row("first player wins", int((margin > 0).sum()), n),
                  rate_row("draws", int((margin == 0).sum()), n),
                  rate_row("second player wins", int((margin < 0).sum()), n), "",
                  f"Mean margin, first player's points minus second's: {mean_ci(*mean_interval(margin))} points.", ""]
        margins, xlabel = margin, "first player's points minus second's"
    lines += ["Intervals are 95%, over deals (a deal is one observation): Wilson score intervals (Wilson 1927)"
              " for rates" + (", on the effective number of games where a deal holds two" if kind == "match" else "")
              + ", Student's t interval for the mean margin.", ""]
    _margin_chart(margins, xlabel, f"Final margins ({count(len(margins), 'game')})", out / "margin.png")
    lines += ["## Charts", "", "![Final margins](margin.png)", ""]
    path = out / "report.md"
    _replace_text(path, "\n".join(lines))
    return path, before


def _fmt_cell(value: Any) -> Any:
    """Floats to 3 significant places (4 for values >= 1000 keep their integer part)."""
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Real) or isinstance(value, numbers.Integral):
        return value
    if value != value:  # NaN
        return ""
    if abs(value) >= 100:
        return number(value, ".0f") if abs(value) >= 1000 else number(value, ".1f")
    return number(value, ".3g")   # -0.0 read "-0"


def _distinct(bound: Any, estimate: Any, text: Any) -> Any:
    """`text` (a bound as :func:`_fmt_cell` wrote it), or the bound with as many more
    significant digits as it takes (up to 6) not to read like a different `estimate`: the
    Wilson interval of 40,000 wins in 40,000 games reads ``0.9999``, not ``1`` like the rate."""
    import numbers

    if (not isinstance(bound, numbers.Real) or not isinstance(estimate, numbers.Real) or bound != bound
            or bound == estimate or text != _fmt_cell(estimate)):
        return text
    for digits in range(4, 7):
        out = number(bound, f".{digits}g")
        if out != number(estimate, f".{digits}g"):
            return out
    return text


def _table_markdown(table: pd.DataFrame) -> str:
    """A study table as markdown: floats by :func:`_fmt_cell`; an interval ``X_low``,
    ``X_high`` of zero width (every observation the same) reads ``no spread`` in both
    bound cells, as the points table and the CLI say, not two bounds equal to the mean."""
    shown = table.copy()
    for col in shown.columns:
        if shown[col].dtype.kind == "f":
            shown[col] = shown[col].map(_fmt_cell).astype(object)
    for col in table.columns:
        low, high = f"{col}_low", f"{col}_high"
        if low in table.columns and high in table.columns:
            flat = (table[low] == table[high]).to_numpy()   # NaN bounds compare unequal
            for bound in (low, high):   # a bound that rounds onto a different estimate
                shown[bound] = [_distinct(b, e, text) for b, e, text in zip(table[bound], table[col], shown[bound])]
            if flat.any():
                for bound in (low, high):
                    shown[bound] = shown[bound].astype(object)
                    shown.loc[flat, bound] = "no spread"
    named_index = any(n is not None for n in shown.index.names)
    return shown.to_markdown(index=named_index)


def _slug(text: str, fallback: str = "chart") -> str:
    """`text` as a file name: letters and digits lower-cased, every other run of
    characters one ``_``, at most 60 characters; `fallback` when nothing is left."""
    out = "".join(c.lower() if c.isalnum() else "_" for c in text)
    while "__" in out:
        out = out.replace("__", "_")
    return out.strip("_")[:60] or fallback


def write_study_report(study: Any, result: Any, out_dir: str | Path, *, seed: int, games: int,
                       seconds: float, command: str, force: bool = False, samples: Sequence[int] = (),
                       rules: str = "") -> Path:
    """Write ``out_dir/<name>.md`` and its charts in ``out_dir/<name>/``, atomically.

    The charts go to a fresh temporary folder and the report to a temporary file; both
    are moved into place only once complete, so an interrupted run leaves the previous
    report (or none), never half of one.

    Parameters
    ----------
    study : crowns_solver.analysis.Study
        The study run (its name, title and game head the report).
    result : crowns_solver.analysis.StudyResult
        Checked with :func:`crowns_solver.analysis.base.check_result` first.
    out_dir : path
        Reports folder (created if needed).
    seed, games : int
        The run's root seed and size (stated in the report).
    seconds : float
        Run time in seconds (stated in the report).
    command : str
        The command that reruns exactly this study.
    force : bool
        Replace a report or chart folder of that name that ``crowns report`` did not write.
    samples : sequence of int
        The sample size behind each interval on a mean in the result (as
        :func:`crowns_solver.analysis.base.sample_log` records them while the study runs).
        When some are below ``SMALL_SAMPLE`` (30) the report says that those Student t
        intervals rest on the observations being roughly normal.
    rules : str
        The rules options the study ran under, in words (``"reach nearest"``); empty for
        the default rules.  Stated in the run table and in the report's first line, so a
        report is replaced only by one of the same rules.

    Returns
    -------
    Path
        The report file.

    Raises
    ------
    StudyError
        If the result breaks the table conventions.
    OutputExistsError
        If a file or folder in the way was not written by ``crowns report``, or is a
        report of the study under other `rules` (and not `force`), or `out_dir` is a file;
        or, even with `force`, the report or its chart folder is a device or a named pipe;
        or `force` is not True or False.
    MissingFolderError
        If `out_dir`'s parent folder does not exist or is a file (an OutputPathError).
    OutputPathError
        If `out_dir` is empty or only blanks (EmptyPathError: it would be the current
        folder, or a folder named " "), not a path, or cannot be created.
    """
    force = check_flag("force", force, OutputExistsError)
    return _write_study_report(study, result, out_dir, seed=seed, games=games, seconds=seconds, command=command,
                               force=force, option="out_dir", samples=samples, rules=rules)


def _small_sample_note(samples: Sequence[int]) -> str | None:
    """The report's warning when some intervals on means rest on too few observations."""
    from .analysis.base import SMALL_SAMPLE

    small = [int(n) for n in samples if n < SMALL_SAMPLE]
    if not small:
        return None
    some = "all" if len(small) == len(samples) else f"{len(small)} of the {len(samples)}"
    return (f"**Small samples.** {some.capitalize()} intervals on means in this report rest on fewer than "
            f"{SMALL_SAMPLE} observations (the fewest: {min(small)}). Their Student t intervals (mean +- 2.05 "
            "standard errors with 30 observations, 3.18 with 4) are wide, and with so few observations they "
            "rest on the observations being roughly normal: read them as rough, and rerun with more games "
            "(`--games`, or without `--quick`) before drawing conclusions.")


def _write_study_report(study: Any, result: Any, out_dir: str | Path, *, seed: int, games: int,
                        seconds: float, command: str, force: bool, option: str, samples: Sequence[int] = (),
                        rules: str = "") -> Path:
    """:func:`write_study_report`, its messages naming `option` (``--out`` from the CLI)."""
    import datetime
    import platform
    import shutil
    import tempfile

    from . import __version__
    from .analysis.base import check_result

    out = _out_folder(out_dir, option)
    check_result(result, study.name)
    marker = _study_marker(study.name, rules)
    _claim(out / f"{study.name}.md", marker, [out / study.name], force=force, option=option)
    tmp_dir = Path(tempfile.mkdtemp(prefix=f".{study.name}.", dir=out))
    try:
        lines = [marker, f"# {study.title}", "", f"**{result.headline.strip()}**", ""]
        lines += ["| run | |", "|---|---|",
                  f"| games | {result.games} |",
                  *([f"| rules options | {_cell(rules)} (not the default rules) |"] if rules else []),
                  f"| seed | {seed} |",
                  f"| size parameter | {games} |",
                  f"| library version | crowns_solver {__version__} |",
                  f"| run time | {seconds:.0f} s |",
                  f"| machine | {platform.python_implementation()} {platform.python_version()}, "
                  f"{os.cpu_count()} cores |",
                  f"| written | {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC |",
                  f"| rerun | `{_cell(command)}` |", ""]   # a | in --out split the row (GFM: also in code)
        note = _small_sample_note(samples)
        if note is not None:
            lines += [note, ""]
        lines += ["**Rules, deck and players.** " + result.rules.strip(), ""]
        used: set[str] = set()
        for k, section in enumerate(result.sections, 1):
            lines += [f"## {section.title}", ""]
            if section.text.strip():
                lines += [section.text.strip(), ""]
            if section.table is not None:
                lines += [_table_markdown(section.table), ""]
            if section.figure is not None:
                stem = _slug(section.title)
                if stem in used:
                    stem = f"{stem}_{k}"
                used.add(stem)
                section.figure.savefig(tmp_dir / f"{stem}.png")
                lines += [f"![{section.title}]({study.name}/{stem}.png)", ""]
        how = result.intervals or "Intervals are 95%: Wilson score intervals for rates, Student t intervals for means"
        lines += [how.rstrip(".") + (" (approximate for those from fewer than 30 observations, see above)." if note
                                     else "."), ""]
        md_tmp = tmp_dir / "report.md"
        md_tmp.write_text("\n".join(lines), encoding="utf-8")
        charts = out / study.name
        figs_tmp = tmp_dir / "charts"
        figs_tmp.mkdir()
        for png in tmp_dir.glob("*.png"):
            os.replace(png, figs_tmp / png.name)
        path = out / f"{study.name}.md"
        old = None
        try:
            if os.path.lexists(charts):   # a link whose target is missing too (replaced only with force)
                old = Path(tempfile.mkdtemp(prefix=f".{study.name}.old.", dir=out))
                os.replace(charts, old / "charts")
            os.replace(figs_tmp, charts)
            os.replace(md_tmp, path)
        except BaseException:   # Ctrl-C or an error between the moves: the previous charts back
            if old is not None and os.path.lexists(old / "charts"):
                if os.path.lexists(charts):
                    shutil.rmtree(charts, ignore_errors=True)
                os.replace(old / "charts", charts)
            raise
        finally:
            if old is not None:
                shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(tmp_dir, ignore_errors=True)
    return path


def write_index(out_dir: str | Path, *, force: bool = False) -> Path:
    """Write ``out_dir/index.md``: every study report in the folder, by game, with its headline.

    Parameters
    ----------
    out_dir : path
        A reports folder written by :func:`write_study_report` (created if needed).
    force : bool
        Replace an ``index.md`` that ``crowns report`` did not write (one whose first line
        is not the index marker): the same rule as the reports themselves.

    Returns
    -------
    Path
        The index file (written atomically).

    Raises
    ------
    OutputExistsError
        If ``out_dir/index.md`` exists and was not written by ``crowns report`` (and not
        `force`), or `out_dir` is a file; or, even with `force`, it is a device or a
        named pipe; or `force` is not True or False.
    MissingFolderError
        If `out_dir`'s parent folder does not exist or is a file (an OutputPathError).
    OutputPathError
        If `out_dir` is empty or only blanks (EmptyPathError: it would be the current
        folder), not a path, or cannot be created.
    """
    force = check_flag("force", force, OutputExistsError)
    return _write_index(out_dir, force=force, option="out_dir")


def _write_index(out_dir: str | Path, *, force: bool, option: str) -> Path:
    """:func:`write_index`, its messages naming `option` (``--out`` from the CLI)."""
    from .analysis.base import GAMES

    out = _out_folder(out_dir, option)
    _claim(out / "index.md", _INDEX_MARKERS, [], force=force, option=option)
    names = {"cross_kings": "Cross Kings", "five_crowns": "Five Crowns", "kings_crowns": "King's Crowns"}
    found: dict[str, list[tuple[str, str, str]]] = {}
    registry = _registry_or_empty()
    for md in sorted(out.glob("*.md")):
        # only this command's reports are read whole: the folder may hold the user's own
        # *.md, which a named pipe (reading it waited for a writer forever), a folder or a
        # file in another encoding made fail after the studies had run (session 22)
        first = _first_line(md)
        if first is None or not first.startswith(_MARKER_START):
            continue
        try:
            text = md.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            continue
        name = md.stem
        title = next((ln[2:] for ln in text if ln.startswith("# ")), name)
        if "; rules: " in text[0]:   # a study run under rules options: the index says which
            title += f" ({_marker_rules(text[0])})"
        headline = next((ln.strip("*") for ln in text if ln.startswith("**") and ln.endswith("**")), "")
        game = registry[name].game if name in registry else "other"
        found.setdefault(game, []).append((name, title, headline))
    lines = [_INDEX_MARKER, "# crowns_solver strategy reports", "",
             "Written by `crowns report`; each report states its games, seed, rules and run time,"
             " and the command that reruns it exactly.", ""]
    for game in [*GAMES, "other"]:
        if game not in found:
            continue
        lines += [f"## {names.get(game, 'Other studies')}", ""]
        for name, title, headline in found[game]:
            lines += [f"- [{title}]({name}.md): {headline}"]
        lines += [""]
    path = out / "index.md"
    _replace_text(path, "\n".join(lines))
    return path


def _registry_or_empty() -> dict[str, Any]:
    from .analysis import registry

    return registry()


def _executor(workers: int | None):
    """Where the studies' chunks run: a process pool whose workers ignore Ctrl-C (the
    parent stops them), or, with ``workers == 1``, this process itself (no pool)."""
    from .montecarlo import _InlineExecutor, process_pool

    if workers == 1:
        return _InlineExecutor()
    return process_pool(workers)


def run_studies(only: list[str] | None = None, *, quick: bool = False, out_dir: str | Path | None = None,
                workers: int | None = None, seed: int = DEFAULT_SEED, games: int | None = None,
                progress: bool = False, force: bool = False, rules: Any = None) -> list[Path]:
    """Run studies and write their reports and the index.

    Parameters
    ----------
    only : str or list of str, optional
        Study names to run (one name, or a non-empty list); None (default) runs them all
        (see ``crowns report --list``).
    quick : bool
        Use each study's small ``quick_games`` size (the whole set in minutes) instead of
        ``full_games``.
    out_dir : path, optional
        Reports folder (default ``reports``, or ``reports-quick`` with `quick`, so a quick
        run never replaces the full reports; with `rules`, the rules options are added:
        ``reports-quick-reach-nearest``, ``reports-deck-<name>``; with `games` or a `seed`
        other than the default, they are added too: ``reports-games-10``,
        ``reports-quick-seed-7``).
    workers : int, optional
        Worker processes for the simulations (default: all cores).
    seed : int
        Root seed (>= 0); each study derives its own seeds from it.
    games : int, optional
        Size parameter overriding the study's own (with `only`, to rerun exactly).
    progress : bool
        Show a progress bar over the studies on stderr.
    force : bool
        Replace reports or chart folders in the way that ``crowns report`` did not write
        (or that are reports of the same study under other rules).
    rules : mapping, optional
        Rules options to run the studies under (``crowns report --reach`` / ``--deck`` /
        ``--sets`` / ``--no-all-wild-melds``): ``{"reach": "nearest"}`` (Cross Kings,
        RULES.md "Move"), ``{"deck": path}`` (King's Crowns: a deck file, which must deal
        and be winnable at 2 to 5 players), ``{"sets": 2}`` and ``{"all_wild_melds":
        False}`` (Five Crowns, RULES.md "Deal and seats" and "Melds"; together or alone;
        the number of sets must suit the studies' table of 4).  Only the studies that take
        them run (without `only`: all of those); reach "any", the default deck, one set and
        melds of wilds only allowed are the default rules.  The reports state the options,
        their rerun commands repeat them, and a report is never replaced by one of other
        rules unless `force`.

    Returns
    -------
    list of Path
        The reports written, in order.

    Raises
    ------
    StudyError
        If `only` is an empty list or not names, a name in it is unknown, or a study's
        tables break the conventions; if a study in `only` does not take a rules option
        of `rules`, no study takes them all, or an option is unknown.
    RulesError, DeckError
        If `rules` holds an unknown reach, a deck file that cannot be read, dealt or won,
        a number of sets other than 1 or 2 (or too few for the studies' table), or an
        `all_wild_melds` that is not a bool (checked before the folder is made).
    RunnerError
        If `seed`, `games` (1 to :data:`crowns_solver.montecarlo.MAX_GAMES`) or `workers`
        (1 to :data:`crowns_solver.montecarlo.MAX_WORKERS`) is out of range, or `quick` or
        `progress` is not True or False: checked before the folder is made.
    OutputPathError
        If `out_dir` is empty or its folder cannot be created.
    OutputExistsError
        If a report's file or chart folder, or ``index.md``, exists and was not written
        by ``crowns report`` (and not `force`), or `out_dir` is a file; or, even with
        `force`, one of them is a device or a named pipe; checked for every study before
        any runs.  Or `force` is not True or False.
    MissingFolderError
        If `out_dir`'s parent folder does not exist or is a file (an OutputPathError).
    KeyboardInterrupt
        On Ctrl-C; reports already finished stay, the interrupted one is not written.
    """
    _check_sizes(seed, games, workers)
    quick = check_flag("quick", quick)
    progress = check_flag("progress", progress)
    force = check_flag("force", force, OutputExistsError)
    return _run_studies(only, quick=quick, out_dir=out_dir, workers=workers, seed=seed, games=games,
                        progress=progress, force=force, option="out_dir", variant=_variant(rules, cli=False))


def _check_sizes(seed: Any, games: Any, workers: Any) -> None:
    """RunnerError unless `seed` >= 0, and `games` (1 to the Monte Carlo runner's
    MAX_GAMES) and `workers` (1 to MAX_WORKERS) are None or whole numbers in range: the one check of
    :func:`run_studies` and ``crowns report`` (whose messages name ``--games``...)."""
    from ._checks import check_whole_number
    from .montecarlo import _check_games, _check_workers

    check_whole_number("seed", seed, 0)
    if games is not None:
        _check_games(games)
    if workers is not None:
        _check_workers(workers)


def _chosen_studies(studies: dict[str, Any], only: list[str] | None, variant: _Variant, *, cli: bool) -> list[str]:
    """The studies to run: `only` (checked: known, and taking every rules option of
    `variant`), or every study that takes them."""
    from .errors import StudyError

    def flags(keys) -> str:
        return " and ".join(_RULE_FLAGS[k] if cli else k for k in keys)

    takers = [n for n, st in studies.items() if all(k in st.options for k in variant.kwargs)]
    if only is None:
        if not takers:
            raise StudyError(f"no study takes {flags(variant.kwargs)} together: run them separately")
        return takers
    for name in only:
        if name not in studies:
            raise StudyError(f"unknown study {name!r}; known: {', '.join(studies)}")
        missing = [k for k in variant.kwargs if k not in studies[name].options]
        if missing:
            own = [k for k in _RULE_FLAGS if k in studies[name].options]
            fixed = f"it takes only {flags(own)}" if own else "its rules are fixed"
            raise StudyError(f"{name} does not take {flags(missing)} ({fixed}); studies that take"
                             f" {flags(variant.kwargs)}: {', '.join(takers) or 'none'}")
    return only


def _study_size(st: Any, *, quick: bool, games: int | None) -> int:
    """The size parameter study `st` runs with: `games`, else its quick or full size."""
    return games or (st.quick_games if quick else st.full_games)


def _check_study_sizes(studies: dict[str, Any], chosen: list[str], *, quick: bool, games: int | None,
                       seed: int) -> None:
    """StudyError (naming ``games``) if a chosen study cannot run at the size it would get
    (its ``min_games``; the check its run makes, :func:`~crowns_solver.analysis.base.check_args`):
    made before any study runs or any folder is made (session 21: ``crowns report --games 3``
    ran five studies, then failed on ``five_crowns_deals``)."""
    from .analysis.base import check_args

    for name in chosen:
        st = studies[name]
        check_args(name, _study_size(st, quick=quick, games=games), seed, st.min_games, st.min_games_why)


def _run_studies(only: list[str] | None, *, quick: bool, out_dir: str | Path | None, workers: int | None,
                 seed: int, games: int | None, progress: bool, force: bool, option: str,
                 variant: _Variant | None = None) -> list[Path]:
    """:func:`run_studies` with `seed`, `games` and `workers` checked (:func:`_check_sizes`),
    its messages naming `option` (``--out`` from the CLI); `variant`: the checked rules
    options (:func:`_variant`)."""
    from .errors import StudyError

    studies = _registry_or_empty()
    if isinstance(only, str):  # one study by name, not its letters
        only = [only]
    if only is None:
        chosen = list(studies)
    else:
        if not isinstance(only, (list, tuple)) or not all(isinstance(n, str) for n in only):
            raise StudyError(f"only must be a list of study names, got {only!r}")
        if not only:
            raise StudyError("only is empty: give study names (see crowns report --list), or None for all")
        chosen = list(dict.fromkeys(only))
    variant = variant or _Variant()
    chosen = _chosen_studies(studies, None if only is None else chosen, variant, cli=option.startswith("-"))
    _check_study_sizes(studies, chosen, quick=quick, games=games, seed=seed)
    out = _out_folder(out_dir if out_dir is not None else _default_out(quick, variant, games=games, seed=seed),
                      option)
    with _tidy_new_folder(out):   # a folder this run made is removed if the run ends with nothing in it
        return _run_chosen(studies, chosen, out, quick=quick, workers=workers, seed=seed, games=games,
                           progress=progress, force=force, option=option, variant=variant)


def _run_chosen(studies: dict[str, Any], chosen: list[str], out: Path, *, quick: bool, workers: int | None,
                seed: int, games: int | None, progress: bool, force: bool, option: str,
                variant: _Variant) -> list[Path]:
    """The body of :func:`_run_studies` once the studies and the folder are chosen: claim
    the reports, run each study and write its report and the index."""
    import shlex
    import time

    from .analysis.base import sample_log

    for name in chosen:
        _claim(out / f"{name}.md", _study_marker(name, variant.words), [out / name], force=force, option=option)
    _claim(out / "index.md", _INDEX_MARKERS, [], force=force, option=option)
    _check_deck_name(out, variant, force=force, option=option)
    written = []
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(chosen), unit="study", desc="studies")
    from .montecarlo import stop_pool

    executor = _executor(workers)
    ok = False
    try:
        for name in chosen:
            st = studies[name]
            size = _study_size(st, quick=quick, games=games)
            if bar is not None:
                bar.set_postfix_str(name)
            t0 = time.perf_counter()
            with sample_log() as samples:
                result = st.run(size, seed, executor, **variant.kwargs)
            seconds = time.perf_counter() - t0
            command = shlex.join(["crowns", "report", "--only", name, *variant.argv, "--seed", str(seed),
                                  "--games", str(size), "--out", str(out)])
            try:
                written.append(_write_study_report(st, result, out, seed=seed, games=size, seconds=seconds,
                                                   command=command, force=force, option=option, samples=samples,
                                                   rules=variant.words))
                _write_index(out, force=force, option=option)
            except OSError as exc:   # e.g. a full disk, which names no file: name the folder (session 21)
                if exc.filename is not None:
                    raise
                from ._io import write_error

                raise write_error(exc, option, out, f"{name} report") from None
            if bar is not None:
                bar.update()
        ok = True
    finally:
        if bar is not None:
            bar.close()
        if not ok:  # Ctrl-C or an error: stop the workers now rather than let them finish their chunks
            stop_pool(executor)
    try:
        executor.shutdown(wait=True)  # idle workers: returns at once
    except BaseException:  # Ctrl-C right then
        stop_pool(executor)
        raise
    return written


def cmd_report(args: argparse.Namespace) -> int:
    from ._io import check_folder_path, check_input_given
    from .errors import ResultsFileError, StudyError

    if args.out is not None:
        check_folder_path(args.out, "--out")  # before any study runs: empty, a file, in a missing folder
    if args.results is not None:
        check_input_given(args.results, "results file", ResultsFileError)

    # before the output folder is made (found by the probe: --games 10**12 left an empty
    # folder behind); the messages name --games, --seed, --workers (crowns_solver.cli)
    _check_sizes(DEFAULT_SEED if args.seed is None else args.seed, args.games, args.workers)
    if args.results is None and args.by != "policy":
        raise RunnerError("--by applies to a results file (crowns report RESULTS --by seat)")
    if args.results is not None:
        if args.list:   # it wrote the results report instead of listing (session 22 break)
            raise RunnerError("--list lists the studies and takes no results file: give crowns report --list alone")
        if args.quick or args.only or args.games is not None or args.seed is not None or args.workers is not None:
            raise RunnerError("--quick, --only, --games, --seed and --workers run the studies; they do not apply"
                              " to a results file")
        if args.reach is not None or args.deck is not None or args.sets is not None or args.no_all_wild_melds:
            raise RunnerError("--reach, --deck, --sets and --no-all-wild-melds run the studies under other rules;"
                              " a results file records the rules it was played under")
        path = _write_report(args.results, "report" if args.out is None else args.out, by=args.by, title=None,
                             force=args.force, option="--out")
        charts = sorted(_report_charts(path))  # not every PNG in the folder (a user's, or an earlier report's)
        print(f"wrote {path}")
        print(f"charts in {path.parent}: {', '.join(charts)}")
        return 0
    if args.seed is None:
        args.seed = DEFAULT_SEED
    if args.list:
        for name, st in _registry_or_empty().items():
            print(f"{name:32s} {st.game:13s} quick {st.quick_games:>7d}  full {st.full_games:>7d}  {st.title}")
        return 0
    only = [n.strip() for item in args.only or [] for n in item.split(",") if n.strip()]
    if args.only is not None and not only:
        raise StudyError("--only needs a study name (see crowns report --list)")
    import time

    # before the folder is made: an unknown reach, a deck file that cannot be read, dealt or won
    variant = _variant({"reach": args.reach, "deck": args.deck, "sets": args.sets,
                        "all_wild_melds": False if args.no_all_wild_melds else None}, cli=True)
    started = time.time()
    try:
        paths = _run_studies(only or None, quick=args.quick, out_dir=args.out, workers=args.workers,
                             seed=args.seed, games=args.games, progress=not args.no_progress, force=args.force,
                             option="--out", variant=variant)
    except KeyboardInterrupt:
        chosen = only or _chosen_studies(_registry_or_empty(), None, variant, cli=True)
        print(_studies_resume_hint(args, chosen, started, variant), file=sys.stderr)
        raise  # crowns_solver.cli prints "crowns: interrupted", status 130
    for path in paths:
        print(f"wrote {path}")
    if paths:
        print(f"index: {paths[0].parent / 'index.md'}")
    return 0


def _studies_resume_hint(args: argparse.Namespace, chosen: list[str], started: float,
                         variant: _Variant | None = None) -> str:
    """After Ctrl-C: which studies this run finished (their reports stay) and the command
    that runs the rest with the same seed, sizes and rules options."""
    import shlex

    variant = variant or _Variant()
    # the run's own folder: with --games or another --seed too (it named ./reports-quick, session 22)
    out = Path(args.out if args.out is not None
               else _default_out(args.quick, variant, games=args.games, seed=args.seed))
    chosen = list(dict.fromkeys(chosen))
    finished = []
    for name in chosen:
        try:
            if (out / f"{name}.md").stat().st_mtime >= started - 1:
                finished.append(name)
        except OSError:
            pass
    rest = [n for n in chosen if n not in finished]
    if not rest:
        return f"every study's report was written to {out}"
    command = ["crowns", "report", *(["--quick"] if args.quick else []), "--only", ",".join(rest),
               *variant.argv, "--seed", str(args.seed), *(["--games", str(args.games)] if args.games is not None else []),
               *(["--workers", str(args.workers)] if args.workers is not None else []), "--out", str(out)]
    return (f"{len(finished)} of {len(chosen)} studies written to {out} (finished reports stay);"
            f" the rest: {shlex.join(command)}")


def register_command(parser: argparse.ArgumentParser) -> None:
    """Declare ``crowns report [--quick] [--only NAME] [--out DIR] [--workers K] ...`` and ``crowns report RESULTS``.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The ``report`` subcommand's parser; its arguments and handler are added to it.
    """
    parser.description = ("Run the strategy studies and write a markdown report per study with PNG charts, "
                          "plus index.md; or, given RESULTS, report on one simulation results file.")
    parser.add_argument("results", metavar="RESULTS", nargs="?", default=None,
                        help="a results file written by a game's simulate --out (instead of running the studies)")
    parser.add_argument("--quick", action="store_true",
                        help="small runs of every study (minutes); written to ./reports-quick unless --out")
    parser.add_argument("--only", action="append", metavar="NAME",
                        help="run only this study (repeat or comma-separate; see --list)")
    parser.add_argument("--list", action="store_true", help="list the studies and exit")
    parser.add_argument("--out", default=None, metavar="DIR",
                        help="reports folder (default ./reports, ./reports-quick with --quick, ./report for RESULTS;"
                             " with --reach, --deck, --sets or --no-all-wild-melds the variant is added:"
                             " ./reports-quick-reach-nearest, ./reports-sets-2, and with"
                             " --games or another --seed the size or seed: ./reports-games-10, so the default reports"
                             " are only ever replaced by a run like theirs)")
    parser.add_argument("--workers", type=int, default=None, metavar="K", help="worker processes (default: all cores)")
    parser.add_argument("--seed", type=int, default=None, metavar="S",   # None: not given (DEFAULT_SEED)
                        help=f"root seed of the studies (default {DEFAULT_SEED})")
    parser.add_argument("--games", type=int, default=None, metavar="N",
                        help="size parameter for every study run (default: the study's quick or full size)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")
    parser.add_argument("--force", action="store_true",
                        help="replace report files in --out that crowns report did not write")
    parser.add_argument("--by", choices=("seat", "policy"), default="policy",
                        help="with RESULTS: main win-rate table by policy (default) or seat")
    parser.add_argument("--reach", choices=("any", "nearest"), default=None,
                        help="run the Cross Kings studies (every one takes it) under rules option reach (default any);"
                             " reports go to ./reports[-quick]-reach-nearest unless --out")
    parser.add_argument("--deck", default=None, metavar="FILE",
                        help="run the King's Crowns studies that take it (seats, length, tournament) with this deck"
                             " (TOML or JSON, as kings-crowns simulate --deck); reports go to"
                             " ./reports[-quick]-deck-NAME unless --out (NAME from the deck's name, or the digest of"
                             " its counts when the name has no letter or digit); a deck with the default counts,"
                             " whatever its name, is the default rules: ./reports[-quick] like a run without --deck")
    parser.add_argument("--sets", type=int, choices=(1, 2), default=None,
                        help="run the Five Crowns studies (every one takes it) with this many 116-card sets shuffled"
                             " together (default 1, what RULES.md deals the studies' 4 players; as five-crowns"
                             " play/simulate --sets); reports go to"
                             " ./reports[-quick]-sets-2 unless --out")
    parser.add_argument("--no-all-wild-melds", action="store_true",
                        help="run the Five Crowns studies (every one takes it) with melds made only of wilds forbidden"
                             " (rules option all_wild_melds=false, as five-crowns play/simulate); reports go to"
                             " ./reports[-quick]-no-all-wild-melds unless --out")
    parser.set_defaults(handler=cmd_report)


def _out_folder(out_dir: str | Path, option: str = "out_dir") -> Path:
    """`out_dir` as a Path, checked (:func:`crowns_solver._io.check_folder_path`): an empty
    name is refused (it would mean the current folder), as are a file and a folder whose
    parent does not exist.  Messages name `option`."""
    from ._io import check_folder_path
    from .errors import OutputPathError

    if not isinstance(out_dir, (str, os.PathLike)):
        raise OutputPathError(f"the output folder must be a path, got {out_dir!r}")
    return check_folder_path(out_dir, option)
