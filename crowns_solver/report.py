"""``crowns report``: a markdown report with charts from any simulation results file.

Reads a results file written by :func:`crowns_solver.montecarlo.run` (any game's
``simulate --out``), so it only relies on the runner's conventions: ``policy_<seat>``,
``winner`` or ``win_<seat>``, and optionally ``turns``, ``players`` and ``crowns_<seat>``.
Charts are drawn with matplotlib's Agg canvas (no display, no global backend change).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import RunnerError

if TYPE_CHECKING:  # pandas and matplotlib load only when a report is written
    import pandas as pd

__all__ = ["write_report", "register_command"]



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


def win_rate_markdown(table: pd.DataFrame, by: str) -> str:
    """A win-rate table (from ``win_rates``) as markdown: rate to 3 places, the 95% CI as one column."""
    t = table.copy()
    t["rate"] = t["rate"].map(lambda x: f"{x:.3f}")
    t["95% CI"] = [f"{lo:.3f} .. {hi:.3f}" for lo, hi in zip(t.pop("ci_low"), t.pop("ci_high"))]
    t.index = t.index.map(str)
    t.index.name = by
    return t.to_markdown()


def win_rate_chart(table: pd.DataFrame, title: str, xlabel: str, fair: float | None, path: Path) -> None:
    """Bar chart of win rates with 95% CI error bars and an equal-share line (`fair`), saved as PNG."""
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
    ax.set_ylabel("win rate (95% Wilson CI)")
    ax.set_xlabel(xlabel)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(path)


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
    fig.savefig(path)


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
    fig.savefig(path)


def write_report(results: str | Path | pd.DataFrame, out_dir: str | Path = "report", *, by: str = "policy",
                 title: str | None = None) -> Path:
    """Write ``out_dir/report.md`` and its PNG charts from a simulation's results.

    Parameters
    ----------
    results : path or DataFrame
        A results file written by :func:`crowns_solver.montecarlo.run` (``simulate
        --out``), or a table it returned (metadata read from ``attrs``).
    out_dir : path
        Folder for ``report.md`` and the charts (created if needed).
    by : {"policy", "seat"}
        Grouping of the main win-rate table (both charts are drawn either way).
    title : str, optional
        Report title (default: from the game's name).

    Returns
    -------
    Path
        The report file.

    Raises
    ------
    ResultsFileError
        If the file is not a results file.
    RunnerError
        If `by` is unknown or the table has no games or lacks the win columns.
    """
    import pandas as pd

    from .montecarlo import _seats, read_results, win_rates

    if by not in ("seat", "policy"):
        raise RunnerError(f"by must be 'seat' or 'policy', got {by!r}")
    source = None
    if isinstance(results, pd.DataFrame):
        df = results
    else:
        source = Path(results)
        df = read_results(source)
    if len(df) == 0:
        raise RunnerError(f"{source or 'results'}: no finished games yet")
    meta: dict[str, Any] = dict(df.attrs)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    game = meta.get("game") or "game"
    seats = _seats(df)
    by_policy = win_rates(df, by="policy")
    by_seat = win_rates(df, by="seat")
    players = sorted(set(df["players"].dropna().astype(int))) if "players" in df else [len(seats)]
    fair = 1 / players[0] if len(players) == 1 else None

    params = meta.get("params") or {}
    rules = meta.get("rules") or params.get("rules") or {}
    names = {"kings-crowns": "King's Crowns", "five-crowns": "Five Crowns", "cross-kings": "Cross Kings"}
    lines = [f"# {title or names.get(str(game), str(game)) + ' simulation report'}", ""]
    lines += ["## Run", "", "| | |", "|---|---|"]
    done, total = len(df), meta.get("games", len(df))
    rows = [
        ("game", game),
        ("games", f"{done}" + ("" if done == total else f" of {total} (run not finished)")),
        ("players", ", ".join(map(str, players))),
        ("policies", ", ".join(params.get("policies", sorted(by_policy.index.map(str))))),
        ("seats rotated", params.get("rotate", "n/a")),
        ("seed", meta.get("seed")),
        ("chunk size", meta.get("chunk_size")),
        ("library version", meta.get("version")),
        ("created", meta.get("created", "n/a")),
        ("results file", source or "n/a"),
    ]
    if rules:
        rows.append(("rules", _rules_summary(rules, meta)))
    lines += [f"| {k} | {v} |" for k, v in rows]
    if rules:
        shown = {k: v for k, v in rules.items() if k != "deck"}
        lines += ["", f"Rules as recorded: `{json.dumps(shown)}`."]
        deck = rules.get("deck")
        if isinstance(deck, dict) and deck:
            lines[-1] = lines[-1][:-1] + "; deck: " + ", ".join(f"{k} {v}" for k, v in deck.items()) + "."
    lines += ["", f"## Win rates by {by}", "",
              win_rate_markdown(by_policy if by == "policy" else by_seat, by), ""]
    other = "seat" if by == "policy" else "policy"
    lines += [f"Win rates by {other}:", "", win_rate_markdown(by_seat if by == "policy" else by_policy, other), ""]
    if "winner" in df:
        stale = int((df["winner"].fillna(-1) < 0).sum())
        lines += [f"Games without a winner (stalemate at the turn cap): {stale} of {done}"
                  f" ({stale / done:.1%}). They count as games, not wins, so rates need not add to 1.", ""]
    lines += ["Intervals are 95% Wilson score intervals (Wilson 1927) over seat-games.", ""]

    charts = []
    win_rate_chart(by_policy, f"Win rate by policy ({done} games)", "policy", fair, out / "win_rate_by_policy.png")
    charts.append(("Win rate by policy", "win_rate_by_policy.png"))
    win_rate_chart(by_seat, f"Win rate by seat (seat 0 starts; {done} games)", "seat", fair, out / "win_rate_by_seat.png")
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
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def cmd_report(args: argparse.Namespace) -> int:
    path = write_report(args.results, args.out, by=args.by)
    charts = sorted(p.name for p in path.parent.glob("*.png"))
    print(f"wrote {path}")
    print(f"charts in {path.parent}: {', '.join(charts)}")
    return 0


def register_command(parser: argparse.ArgumentParser) -> None:
    """Declare ``crowns report RESULTS [--out DIR] [--by seat|policy]``."""
    parser.add_argument("results", metavar="RESULTS", help="results file written by a game's simulate --out")
    parser.add_argument("--out", default="report", metavar="DIR", help="folder for report.md and charts (default ./report)")
    parser.add_argument("--by", choices=("seat", "policy"), default="policy", help="main win-rate table by policy (default) or seat")
    parser.set_defaults(handler=cmd_report)
