"""King's Crowns: a round-robin tournament of the computer players.

Every pair of policies plays two-player games with the seats alternating; the win-rate
matrix carries 95% Wilson intervals and the dominance graph (networkx) has an edge A -> B
when A's score against B (wins, stalemates counting half) has its interval above 50%.
A second section seats the four simple players at one four-player table, rotated.
"""

from __future__ import annotations

import itertools
from concurrent.futures import Executor
from typing import Any

import numpy as np
import pandas as pd

from crowns_solver._text import count, intervals_over

from ._kings_crowns_common import (POLICY_COLOUR, ci_text, error_bars, pct, play, rate_columns,
                                   rules_line, rules_text, study_rules, sub_seed)
from .base import Section, StudyResult, new_figure, study

NAME = "kings_crowns_tournament"
POLICIES = ("random", "greedy", "aggressive", "defensive", "lookahead")
SIMPLE = ("random", "greedy", "aggressive", "defensive")
#: Pairs with the lookahead player play this many times fewer games (it thinks ~1,000x longer).
LOOKAHEAD_DIVISOR = 40


def pair_games(games: int, a: str, b: str) -> int:
    """Games played by the pair (a, b) for the size parameter `games`: `games` (rounded
    up to even, so both seat orders are played equally often), or for pairs with the
    lookahead player ``games / LOOKAHEAD_DIVISOR`` (at least 2, even).

    Parameters
    ----------
    games : int
        The study's size parameter.
    a, b : str
        The pair's policy names.

    Returns
    -------
    int
        Games of the pair (even).
    """
    n = games if "lookahead" not in (a, b) else max(2, games // LOOKAHEAD_DIVISOR)
    return n + (n % 2)


def head_to_head(results: pd.DataFrame, a: str, b: str) -> pd.DataFrame:
    """Both rows (a vs b, b vs a) of a two-player simulation between `a` and `b`.

    Parameters
    ----------
    results : DataFrame
        From :func:`crowns_solver.kings_crowns.simulate` with two players, `a` and `b`.
    a, b : str
        The two policy names.

    Returns
    -------
    DataFrame
        ``player``, ``opponent``, ``games``, ``wins``, ``win_rate`` (+ 95% Wilson
        ``_low``/``_high``), ``stalemate_rate``, ``score`` (wins plus half the stalemates,
        per game, + interval).
    """
    n = len(results)
    winner_policy = results["winner_policy"]
    stale = int((results["winner"] < 0).sum())
    rows = []
    for me, other in ((a, b), (b, a)):
        wins = int((winner_policy == me).sum())
        rows.append({"player": me, "opponent": other, "games": n, "wins": wins,
                     **{k: float(v) for k, v in rate_columns("win_rate", wins, n).items()},
                     "stalemate_rate": stale / n,
                     **{k: float(v) for k, v in rate_columns("score", wins + stale / 2, n).items()}})
    return pd.DataFrame(rows)


def dominance_graph(matches: pd.DataFrame):
    """The dominance graph: an edge A -> B when A's score interval against B lies above 1/2.

    Parameters
    ----------
    matches : DataFrame
        Rows from :func:`head_to_head`.

    Returns
    -------
    networkx.DiGraph
        Nodes: policies; edges carry ``score``, ``score_low``, ``score_high``.
    """
    import networkx as nx

    g = nx.DiGraph()
    g.add_nodes_from(dict.fromkeys(matches["player"]))
    for row in matches.itertuples(index=False):
        if row.score_low > 0.5:
            g.add_edge(row.player, row.opponent, score=row.score, score_low=row.score_low, score_high=row.score_high)
    return g


def _matrix_chart(matches: pd.DataFrame, order: list[str], tag: str = ""):
    fig = new_figure(6.4, 5.0)
    ax = fig.add_subplot()
    n = len(order)
    mat = np.full((n, n), np.nan)
    ix = {p: i for i, p in enumerate(order)}
    for row in matches.itertuples(index=False):
        mat[ix[row.player], ix[row.opponent]] = row.win_rate
    im = ax.imshow(mat, vmin=0, vmax=1, cmap="RdBu")
    for row in matches.itertuples(index=False):
        i, j = ix[row.player], ix[row.opponent]
        dark = row.win_rate < 0.2 or row.win_rate > 0.8
        # in percent with one decimal: at two decimals of a share, 0.996 [0.995-0.997] read 1.00 [1.00-1.00]
        ax.text(j, i, f"{pct(row.win_rate)}\n[{100 * row.win_rate_low:.1f}-{100 * row.win_rate_high:.1f}]"
                f"\n{row.games:,} g",
                ha="center", va="center", fontsize=7, color="white" if dark else "black")
    for i in range(n):
        ax.text(i, i, "-", ha="center", va="center", fontsize=9, color="#777777")
    ax.set_xticks(range(n), order, rotation=20)
    ax.set_yticks(range(n), order)
    ax.set_xlabel("opponent")
    ax.set_ylabel("player (the row's win rate)")
    ax.set_title("Head-to-head win rate, two players, seats alternating\n"
                 f"(%; 95% intervals over the g games of each pair){tag}", fontsize=10)
    cbar = fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    from matplotlib.ticker import PercentFormatter

    cbar.ax.yaxis.set_major_formatter(PercentFormatter(xmax=1))
    cbar.set_label("row player's win rate (% of games)")
    fig.tight_layout()
    return fig


def _graph_chart(graph, order: list[str], tag: str = ""):
    import networkx as nx

    fig = new_figure(6.4, 5.0)
    ax = fig.add_subplot()
    # the ranking clockwise from the top
    angles = np.pi / 2 - 2 * np.pi * np.arange(len(order)) / len(order)
    pos = {p: (float(np.cos(a)), float(np.sin(a))) for p, a in zip(order, angles)}
    colours = [POLICY_COLOUR[p] for p in order]
    nx.draw_networkx_nodes(graph, pos, nodelist=order, node_color=colours, node_size=3300, edgecolors="black", ax=ax)
    for p in order:
        light = p in ("random", "aggressive")
        nx.draw_networkx_labels(graph, pos, labels={p: p}, font_size=8, font_color="black" if light else "white",
                                font_weight="bold", ax=ax)
    nx.draw_networkx_edges(graph, pos, ax=ax, node_size=3300, arrowstyle="-|>", arrowsize=16, width=1.3,
                           edge_color="#444444", connectionstyle="arc3,rad=0.08")
    labels = {(u, v): f"{d['score']:.2f}" for u, v, d in graph.edges(data=True)}
    nx.draw_networkx_edge_labels(graph, pos, edge_labels=labels, font_size=7, label_pos=0.35, ax=ax,
                                 connectionstyle="arc3,rad=0.08", bbox={"boxstyle": "round,pad=0.15", "fc": "white",
                                                                        "ec": "none", "alpha": 0.85})
    ax.set_title("Dominance graph: A -> B when A's score against B is above 50%\n"
                 f"(95% interval; edge label: A's score, stalemates counting half){tag}", fontsize=9)
    ax.set_xlim(-1.35, 1.35)
    ax.set_ylim(-1.3, 1.3)
    ax.set_axis_off()
    from matplotlib.lines import Line2D

    ax.legend(handles=[Line2D([], [], color="#444444", marker=">", markersize=6, label="beats (score CI above 0.5)")],
              loc="lower right", fontsize=7)
    fig.tight_layout()
    return fig


def _table_chart(table: pd.DataFrame, games: int, tag: str = ""):
    fig = new_figure(6.4, 3.6)
    ax = fig.add_subplot()
    pols = list(table["policy"])
    ax.bar(pols, table["win_rate"], yerr=error_bars(table["win_rate"], table["win_rate_low"], table["win_rate_high"]),
           capsize=4, color=[POLICY_COLOUR[p] for p in pols], edgecolor="black", linewidth=0.5,
           label="win rate (95% CI)")
    for x, r in enumerate(table["win_rate"]):
        ax.annotate(pct(r), (x, r), textcoords="offset points", xytext=(14, 3), fontsize=8)
    ax.axhline(0.25, color="black", linestyle="--", linewidth=1, label="equal share 1/4")
    ax.set_ylim(0, max(0.35, float(table["win_rate_high"].max()) * 1.15))
    ax.set_xlabel("policy (one seat each, seats rotated every game)")
    ax.set_ylabel("win rate (share of games; 95% CI)")
    ax.set_title(f"The four simple players at one four-player table\n({intervals_over(games, 'game')}){tag}",
                 fontsize=10)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return fig


def _ranking(matches: pd.DataFrame, graph) -> list[str]:
    """Policies by dominance wins (out-degree), then by mean score."""
    mean_score = matches.groupby("player")["score"].mean()
    return sorted(mean_score.index, key=lambda p: (-graph.out_degree(p), -mean_score[p]))


@study(NAME, game="kings_crowns", title="King's Crowns: a round-robin tournament of the computer players",
       quick_games=2_000, full_games=40_000, options=("deck",))
def run(games: int, seed: int, executor: Executor | None = None, deck: Any = None) -> StudyResult:
    """Head-to-head matrix and dominance graph of the five players, and a four-player table.

    Parameters
    ----------
    games : int
        Games per pair of fast players (pairs with the lookahead player play
        ``games / 40``, see :func:`pair_games`), and games at the four-player table.
    seed : int
        Root seed; simulation k uses :func:`sub_seed` ``(seed, NAME, k)``.
    executor : Executor, optional
        Runs the simulations' chunks.
    deck : Deck, optional
        The deck (``crowns report --deck FILE``; default RULES.md's).

    Returns
    -------
    StudyResult
        Sections "Head-to-head matrix", "Dominance graph" and "The four simple players at
        one table".

    Raises
    ------
    StudyError
        If `games` is not a whole number >= 1 or `seed` one >= 0.
    RulesError, DeckError
        If `deck` cannot deal or win a game at one of the tables (before any game).
    """
    import networkx as nx

    rules = study_rules(deck, (2, 4))   # the deck checked before the first game
    parts = []
    total = 0
    for k, (a, b) in enumerate(itertools.combinations(POLICIES, 2)):
        n = pair_games(games, a, b)
        df = play(n, sub_seed(seed, NAME, k), executor, players=2, policies=[a, b], rotate=True, rules=rules)
        parts.append(head_to_head(df, a, b))
        total += n
    matches = pd.concat(parts, ignore_index=True)
    graph = dominance_graph(matches)
    order = _ranking(matches, graph)
    matches["_o"] = matches["player"].map(order.index) * 10 + matches["opponent"].map(order.index)
    matches = matches.sort_values("_o").drop(columns="_o").reset_index(drop=True)

    table_games = games + (-games) % 4
    df4 = play(table_games, sub_seed(seed, NAME, 100), executor, players=4, policies=list(SIMPLE), rotate=True,
               rules=rules)
    total += table_games
    from crowns_solver.kings_crowns import win_rates

    wr = win_rates(df4, by="policy")
    four = pd.DataFrame({"policy": wr.index.astype(str), "games": wr["games"].astype(int),
                         "wins": wr["wins"].astype(int),
                         **rate_columns("win_rate", wr["wins"], wr["games"])}).sort_values("win_rate", ascending=False)
    four = four.reset_index(drop=True)
    stale4 = int((df4["winner"] < 0).sum())

    top = order[0]
    beaten = sorted(graph.successors(top), key=order.index)
    worst = matches[matches["player"] == top].sort_values("score").iloc[0]
    transitive = nx.is_directed_acyclic_graph(graph) and graph.number_of_edges() == len(order) * (len(order) - 1) // 2
    if len(beaten) == len(order) - 1:
        headline = (f"`{top}` beats every other player head to head (its closest match: "
                    f"{ci_text(worst['win_rate'], worst['win_rate_low'], worst['win_rate_high'])} of "
                    f"{int(worst['games']):,} games against `{worst['opponent']}`)")
    else:
        headline = (f"`{top}` ranks first, beating {', '.join(f'`{p}`' for p in beaten) or 'no one'} head to head "
                    f"(weakest match: {pct(worst['win_rate'])} against `{worst['opponent']}`)")
    headline += ("; the order is strict: " + " > ".join(order) + "." if transitive else
                 f"; the dominance graph has {graph.number_of_edges()} of {len(order) * (len(order) - 1) // 2} "
                 "possible edges (some pairs are too close to call or beat each other in a cycle).")
    lead = four.iloc[0]
    headline += (f" At one four-player table `{lead['policy']}` wins "
                                f"{ci_text(lead['win_rate'], lead['win_rate_low'], lead['win_rate_high'])}.")

    edges = ", ".join(f"{u} -> {v} ({d['score']:.2f})" for u, v, d in graph.edges(data=True)) or "none"
    tag = rules_line(deck)   # a chart of a --deck report says which deck (session 23)
    sections = [
        Section("Head-to-head matrix",
                f"Every pair of players plays two-player games, seats alternating (each sits first in half the games): "
                f"{games + games % 2:,} games per pair, {pair_games(games, 'lookahead', 'greedy'):,} for pairs with "
                "`lookahead` (about a thousand times slower). **win_rate**: the player's wins over all the pair's "
                "games; **score**: wins plus half the stalemates (turn cap), per game, with its Wilson interval. "
                "Rows are ordered by the ranking below.",
                matches, _matrix_chart(matches, order, tag)),
        Section("Dominance graph",
                f"Edges (A -> B, A's score): {edges}. Ranking by the number of players beaten, then mean score: "
                + " > ".join(f"`{p}`" for p in order) + ".",
                None, _graph_chart(graph, order, tag)),
        Section("The four simple players at one table",
                f"{count(table_games, 'four-player game', grouped=True)}, one seat each, the seating rotated one place every game (every "
                f"player sits in every seat equally often). Stalemates: {stale4} of {table_games:,} "
                f"({pct(stale4 / table_games)}).",
                four, _table_chart(four, table_games, tag)),
    ]
    return StudyResult(headline=headline, sections=sections, games=total,
                       rules=rules_text(POLICIES, players="Two players per match (seats alternating); four at the "
                                                            "table of the last section (seats rotated).",
                                        deck=deck))
