"""King's Crowns: how long games last, by player count, and how often they stall at the turn cap.

For 2-5 players and each simple policy in every seat (plus the four simple players
rotated at one table), plays `games` games and tabulates the length in turns (mean with
its 95% interval, median, 10th and 90th percentiles, rounds) and the stalemate rate
(games reaching the turn cap) with its 95% Wilson interval.
"""

from __future__ import annotations

from concurrent.futures import Executor
from typing import Any

import numpy as np
import pandas as pd

from crowns_solver._text import count, intervals_over

from ._kings_crowns_common import (POLICY_COLOUR, ci_text, error_bars, log_axis, play, rate_columns,
                                   rules_line, rules_text, study_rules, sub_seed)
from .base import Section, StudyResult, mean_ci, new_figure, study

NAME = "kings_crowns_length"
POLICIES = ("random", "greedy", "aggressive", "defensive")
PLAYERS = (2, 3, 4, 5)
#: The label of the tables seating different players, rotated every game: the first
#: `players` of MIXED_SEATS.
MIXED = "mixed"
MIXED_SEATS = ("greedy", "aggressive", "defensive", "random", "greedy")
MIXED_COLOUR = "#ccbb44"


def length_row(results: pd.DataFrame, players: int, table: str) -> dict:
    """One row of the length table for a simulation's results.

    Parameters
    ----------
    results : DataFrame
        From :func:`crowns_solver.kings_crowns.simulate`.
    players : int
        Seats at the table.
    table : str
        The table's label (its policies).

    Returns
    -------
    dict
        ``players``, ``table``, ``games``, ``turns`` (mean, with ``turns_low``/``turns_high``:
        95% Student t interval), ``median``, ``p10``, ``p90`` (turns), ``rounds`` (mean turns
        per seat), ``stalemates``, ``stalemate_rate`` (+ 95% Wilson interval).
    """
    turns = results["turns"].to_numpy(dtype=float)
    mean, low, high = mean_ci(turns)
    stale = int((results["winner"] < 0).sum())
    n = len(results)
    return {"players": players, "table": table, "games": n, "turns": mean, "turns_low": low, "turns_high": high,
            "median": float(np.median(turns)), "p10": float(np.quantile(turns, 0.1)),
            "p90": float(np.quantile(turns, 0.9)), "rounds": mean / players, "stalemates": stale,
            **{k: float(v) for k, v in rate_columns("stalemate_rate", stale, n).items()}}


def _apart(longer: pd.Series, shorter: pd.Series) -> bool:
    """True when `longer`'s mean length is above `shorter`'s with their 95% intervals apart
    (``turns_low`` above the other's ``turns_high``; NaN bounds, from one game, never are)."""
    return bool(longer["turns_low"] > shorter["turns_high"])


def _mixed_games_note(games: int) -> str:
    """Where a mixed table plays more than `games` games (the table's "games" column says
    so too): rounded up to a multiple of its players, so each sits in each seat equally often."""
    more = [p for p in PLAYERS if games % p]
    if not more:
        return ""
    which = ", ".join(f"{games + (-games) % p:,} with {p} players" for p in more)
    return f" ({which}: a multiple of the players, so each player sits in each seat equally often)"


def _colour(table: str) -> str:
    return POLICY_COLOUR.get(table, MIXED_COLOUR)


def _distribution_chart(turns: dict[tuple[int, str], np.ndarray], tables: list[str], cap: int, games: int,
                        tag: str = ""):
    fig = new_figure(8.0, 6.0)
    axes = fig.subplots(2, 2, sharex=True)
    bins = np.geomspace(10, cap * 1.05, 60)
    for ax, players in zip(axes.ravel(), PLAYERS):
        for t in tables:
            x = turns[(players, t)]
            ax.hist(x, bins=bins, histtype="step", linewidth=1.4, color=_colour(t), label=t,
                    weights=np.full(len(x), 100.0 / len(x)))
        ax.axvline(cap, color="black", linestyle=":", linewidth=1, label=f"turn cap {cap}")
        log_axis(ax, "x")
        ax.set_title(f"{players} players", fontsize=9)
        ax.tick_params(labelsize=8)
    for ax in axes[1]:
        ax.set_xlabel("game length (turns over all seats, log scale)", fontsize=8)
    for ax in axes[:, 0]:
        ax.set_ylabel("% of games per bin", fontsize=8)
    handles, labels = axes[0, 0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=8, frameon=False)
    fig.suptitle(f"Game length distribution by player count ({count(games, 'game', grouped=True)} per line){tag}",
                 fontsize=10)
    fig.tight_layout(rect=(0, 0.05, 1, 1))
    return fig


def _by_players_chart(table: pd.DataFrame, column: str, ylabel: str, title: str, tables: list[str], *,
                      log: bool = False, fmt=None, tag: str = ""):
    fig = new_figure(6.4, 3.8)
    ax = fig.add_subplot()
    offsets = np.linspace(-0.16, 0.16, len(tables))
    for off, t in zip(offsets, tables):
        sub = table[table["table"] == t]
        ax.errorbar(sub["players"] + off, sub[column],
                    yerr=error_bars(sub[column], sub[f"{column}_low"], sub[f"{column}_high"]),
                    marker="o", capsize=3, color=_colour(t), label=t)
    ax.set_xticks(list(PLAYERS))
    ax.set_xlabel("players at the table (target 100; 75 with five)")
    ax.set_ylabel(ylabel)
    if log:
        log_axis(ax)
    elif fmt is not None:
        ax.yaxis.set_major_formatter(fmt)
    ax.set_title(title + tag, fontsize=10)
    ax.legend(fontsize=8, title="player in every seat", title_fontsize=8, loc="best")
    fig.tight_layout()
    return fig


@study(NAME, game="kings_crowns", title="King's Crowns: how long games last and how often they stall",
       quick_games=2_000, full_games=50_000, options=("deck",))
def run(games: int, seed: int, executor: Executor | None = None, deck: Any = None) -> StudyResult:
    """Game length distribution and stalemate rate by player count.

    Parameters
    ----------
    games : int
        Games per table (player count x players seated); 20 tables.
    seed : int
        Root seed; table k uses :func:`sub_seed` ``(seed, NAME, k)``.
    executor : Executor, optional
        Runs the simulations' chunks.
    deck : Deck, optional
        The deck (``crowns report --deck FILE``; default RULES.md's).

    Returns
    -------
    StudyResult
        Sections "Game length by player count", "Distribution" and "Stalemates".

    Raises
    ------
    StudyError
        If `games` is not a whole number >= 1 or `seed` one >= 0.
    RulesError, DeckError
        If `deck` cannot deal or win a game at one of the tables (before any game).
    """
    rules = study_rules(deck, PLAYERS)   # every table's deck checked before the first game
    cap = rules.max_turns
    tables = [*POLICIES, MIXED]
    rows = []
    turns: dict[tuple[int, str], np.ndarray] = {}
    total = 0
    k = 0
    for players in PLAYERS:
        for t in tables:
            pols = list(MIXED_SEATS[:players]) if t == MIXED else t
            n = games + (-games) % players if t == MIXED else games
            df = play(n, sub_seed(seed, NAME, k), executor, players=players, policies=pols, rotate=t == MIXED,
                      rules=rules)
            rows.append(length_row(df, players, t))
            turns[(players, t)] = df["turns"].to_numpy()
            total += n
            k += 1
    table = pd.DataFrame(rows)

    g4 = table[(table["players"] == 4) & (table["table"] == "greedy")].iloc[0]
    a4 = table[(table["players"] == 4) & (table["table"] == "aggressive")].iloc[0]
    # over every table, random ones included: "at most" speaks of the whole stalemate table
    # below (it was the non-random tables' largest rate, probe 19)
    worst = table.loc[table["stalemate_rate"].idxmax()]
    growth = table[table["table"] == "aggressive"].set_index("players")["turns"]
    # a comparison is worded as one only when the two means' 95% intervals are apart (a
    # small run claimed "whose Sins slow the race" on overlapping intervals, probe 19)
    longer = _apart(a4, g4)
    aggressive = table[table["table"] == "aggressive"].set_index("players")
    grows = _apart(aggressive.loc[5], aggressive.loc[2])
    headline = (f"A four-player game lasts {g4['turns']:.0f} turns on average with greedy players "
                f"(about {g4['rounds']:.0f} rounds) and {a4['turns']:.0f} with aggressive ones"
                f"{', whose Sins slow the race' if longer else ''}: aggressive games "
                f"{'grow' if grows else 'go'} from {growth[2]:.0f} turns with two players to "
                f"{growth[5]:.0f} with five; stalemates at the {cap}-turn cap are "
                f"{'rare' if worst['stalemate_rate'] < 0.05 else 'common'}, at most "
                f"{ci_text(worst['stalemate_rate'], worst['stalemate_rate_low'], worst['stalemate_rate_high'])} "
                f"of games ({int(worst['players'])} {worst['table']} players).")
    if worst["stalemates"] == 0:
        headline = headline.split("; stalemates")[0] + f"; no game reached the {cap}-turn cap."

    length_cols = ["players", "table", "games", "turns", "turns_low", "turns_high", "median", "p10", "p90", "rounds"]
    stale_cols = ["players", "table", "games", "stalemates", "stalemate_rate", "stalemate_rate_low",
                  "stalemate_rate_high"]
    rnd = table[table["table"] == "random"].set_index("players")
    tag = rules_line(deck)   # a chart of a --deck report says which deck (session 23)
    sections = [
        Section("Game length by player count",
                "A **turn** is one seat's draw and play; **turns** counts them over all seats (mean with its 95% "
                "interval; median, 10th and 90th percentiles), **rounds** is turns per seat. Each row is one table "
                f"of {count(games, 'game', grouped=True)} with the same player in every seat; `{MIXED}` seats the first 2-5 of "
                f"{', '.join(MIXED_SEATS)}, rotated every game{_mixed_games_note(games)}. Stalemated games count with"
                " their length at the cap.",
                table[length_cols], _by_players_chart(
                    table, "turns", "mean game length (turns over all seats;\n95% CI, log scale)",
                    f"Mean game length by player count\n({intervals_over(games, 'game', each='per point')})", tables,
                    log=True, tag=tag)),
        Section("Distribution",
                "The whole distribution of each table (log scale: random play is an order of magnitude slower). "
                f"Random tables last {', '.join(f'{v:.0f}' for v in rnd['median'])} turns (median, 2-5 players).",
                None, _distribution_chart(turns, tables, cap, games, tag)),
        Section("Stalemates",
                f"A **stalemate** is a game with no winner after the turn cap ({cap} turns over all seats). The rate "
                "carries its 95% Wilson interval (with no stalemate seen the upper bound is still above 0).",
                table[stale_cols], _by_players_chart(
                    table, "stalemate_rate", "games reaching the turn cap\n(% of games; 95% CI)",
                    f"Stalemate rate by player count\n({intervals_over(games, 'game', each='per point')})", tables,
                    fmt=lambda v, _p: f"{100 * v:.1f}%", tag=tag)),
    ]
    return StudyResult(headline=headline, sections=sections, games=total,
                       rules=rules_text(POLICIES, players="2, 3, 4 and 5 players; one policy in every seat, or the "
                                                          "simple players rotated (`mixed`).", deck=deck))
