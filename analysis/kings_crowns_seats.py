"""King's Crowns: win rate by seat with the same player in every seat (first-player advantage?).

For 2, 3, 4 and 5 players and each simple policy in every seat, plays `games` games and
tabulates each seat's win rate with its 95% Wilson interval against the equal share.
"""

from __future__ import annotations

from concurrent.futures import Executor
from typing import Any

import numpy as np
import pandas as pd

from crowns_solver._text import count, intervals_over, number

from ._kings_crowns_common import (POLICY_COLOUR, ci_text, error_bars, pct, play, points_axis,
                                   rate_columns, rules_line, rules_text, study_rules, sub_seed)
from .base import Section, StudyResult, new_figure, study

NAME = "kings_crowns_seats"
#: The players seated at every table (the lookahead player is too slow for tens of
#: thousands of games per table; see the tournament study for it).
POLICIES = ("random", "greedy", "aggressive", "defensive")
PLAYERS = (2, 3, 4, 5)


def seat_table(results: pd.DataFrame, players: int, policy: str) -> pd.DataFrame:
    """One row per seat of a same-policy simulation: wins, rate and interval, equal share.

    Parameters
    ----------
    results : DataFrame
        From :func:`crowns_solver.kings_crowns.simulate` with one policy in every seat.
    players : int
        Seats at the table.
    policy : str
        The policy's name (a column of the table).

    Returns
    -------
    DataFrame
        Columns ``players``, ``policy``, ``seat``, ``games``, ``wins``, ``win_rate``,
        ``win_rate_low``, ``win_rate_high`` (95% Wilson), ``equal_share`` (the share of the
        decided games each seat would win if seats did not matter:
        ``(1 - stalemate rate) / players``) and ``stalemate_rate``.
    """
    n = len(results)
    winner = results["winner"].to_numpy()
    wins = np.array([(winner == s).sum() for s in range(players)])
    stale = float((winner < 0).sum()) / n
    return pd.DataFrame({"players": players, "policy": policy, "seat": np.arange(players), "games": n,
                         "wins": wins, **rate_columns("win_rate", wins, n),
                         "equal_share": (1 - stale) / players, "stalemate_rate": stale})


def _chart(table: pd.DataFrame, players: int, games: int, tag: str = ""):
    fig = new_figure(6.4, 3.8)
    ax = fig.add_subplot()
    sub = table[table["players"] == players]
    pols = list(dict.fromkeys(sub["policy"]))
    width = 0.8 / len(pols)
    for k, pol in enumerate(pols):
        t = sub[sub["policy"] == pol]
        x = t["seat"].to_numpy() + (k - (len(pols) - 1) / 2) * width
        ax.bar(x, t["win_rate"], width, yerr=error_bars(t["win_rate"], t["win_rate_low"], t["win_rate_high"]),
               capsize=3, color=POLICY_COLOUR[pol], edgecolor="black", linewidth=0.4, label=f"{players} x {pol}")
    ax.axhline(1 / players, color="black", linestyle="--", linewidth=1, label=f"equal share 1/{players}")
    ax.set_xticks(range(players), [f"seat {s}" + (" (first)" if s == 0 else "") for s in range(players)])
    ax.set_xlabel("seat (seat 0 plays first)")
    ax.set_ylabel("win rate (share of games; 95% CI)")
    top = float(sub["win_rate_high"].max())
    ax.set_ylim(0, max(top * 1.25, 1.3 / players))
    ax.set_title(f"Win rate by seat, {players} players, same player in every seat\n"
                 f"({intervals_over(games, 'game', each='per table')}){tag}", fontsize=9)
    ax.legend(fontsize=7, ncol=3, loc="upper right")
    fig.tight_layout()
    return fig


def _advantage_chart(summary: pd.DataFrame, games: int, tag: str = ""):
    fig = new_figure(7.6, 3.8)
    ax = fig.add_subplot()
    pols = list(dict.fromkeys(summary["policy"]))
    offsets = np.linspace(-0.15, 0.15, len(pols))
    for off, pol in zip(offsets, pols):
        t = summary[summary["policy"] == pol]
        edge = t["seat0_edge"]
        ax.errorbar(t["players"] + off, edge,
                    yerr=error_bars(edge, t["seat0_rate_low"] - t["equal_share"],
                                    t["seat0_rate_high"] - t["equal_share"]),
                    marker="o", capsize=3, color=POLICY_COLOUR[pol], label=pol)
    ax.axhline(0, color="black", linewidth=1, linestyle="--", label="no advantage")
    ax.set_xticks(list(PLAYERS))
    ax.set_xlabel("players at the table (same player in every seat)")
    ax.set_ylabel("seat 0 win rate minus equal share\n(percentage points; 95% CI)")
    points_axis(ax)
    ax.set_title(f"First player's advantage ({intervals_over(games, 'game', each='per table')}){tag}", fontsize=10)
    ax.legend(fontsize=8, title="player in every seat", title_fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.tight_layout()
    return fig


def _random_clause(summary: pd.DataFrame, ahead: pd.DataFrame, unit: str = "points") -> str:
    """What the random tables say about where seat 0's edge comes from, as far as their
    intervals support it (the probe found "random play shows none" at a quick size where
    random's edge was larger than greedy's).

    "Random play shows none, so the edge comes from using the first move well" needs, at
    every table size where some player is ahead, random's whole interval on seat 0's edge
    below the lower end of the largest such edge's interval, and no random table clearly
    ahead or behind.  A random table clearly ahead says that part of the edge may come
    from the deal; otherwise the intervals are too wide to tell.  `unit` names the edges'
    unit: "percentage points" where the headline has not said it yet.
    """
    rnd = summary[summary["policy"] == "random"]
    if not len(rnd):
        return ""
    up = rnd["seat0_rate_high"] - rnd["equal_share"]
    largest = 100 * rnd["seat0_edge"].abs().max()
    if (rnd["seat0_rate_low"] > rnd["equal_share"]).any():
        return (f", but random play shows an edge too (up to {number(100 * rnd['seat0_edge'].max(), '+.1f')} {unit}), so part"
                " of it may come from the deal rather than from play")
    clear = (rnd["seat0_rate_high"] < rnd["equal_share"]).any()
    below = True
    for players, group in ahead.groupby("players"):
        best_low = float((group["seat0_rate_low"] - group["equal_share"]).max())
        mine = up[rnd["players"] == players]
        below &= bool(len(mine)) and float(mine.max()) < best_low
    if below and not clear:
        return (f", and random play shows none (within {largest:.1f} {unit}; at each table size its interval lies"
                " below the largest edge's), so the edge comes from using the first move well, not from the deal")
    return (f"; random play's edge (up to {number(100 * rnd['seat0_edge'].max(), '+.1f')} {unit}) cannot be told apart from"
            " these at this number of games, so this run does not say whether the edge comes from play or from"
            " the deal")


@study(NAME, game="kings_crowns", title="King's Crowns: is there a first-player advantage?",
       quick_games=2_000, full_games=50_000, options=("deck",))
def run(games: int, seed: int, executor: Executor | None = None, deck: Any = None) -> StudyResult:
    """Win rate by seat, same policy in every seat, 2-5 players.

    Parameters
    ----------
    games : int
        Games per table (player count x policy); 16 tables.
    seed : int
        Root seed; table k uses :func:`sub_seed` ``(seed, NAME, k)``.
    executor : Executor, optional
        Runs the simulations' chunks (default: in this process).
    deck : Deck, optional
        The deck (``crowns report --deck FILE``; default RULES.md's).

    Returns
    -------
    StudyResult
        Sections: the first seat's edge over all tables, then the seat table and chart
        of each player count.
    """
    rules = study_rules(deck, PLAYERS)   # every table's deck checked before the first game
    tables = []
    k = 0
    for players in PLAYERS:
        for pol in POLICIES:
            df = play(games, sub_seed(seed, NAME, k), executor, players=players, policies=pol, rules=rules)
            tables.append(seat_table(df, players, pol))
            k += 1
    seats = pd.concat(tables, ignore_index=True)

    first = seats[seats["seat"] == 0].reset_index(drop=True)
    last = seats.groupby(["players", "policy"], sort=False).tail(1).reset_index(drop=True)
    summary = pd.DataFrame({
        "players": first["players"], "policy": first["policy"], "games": first["games"],
        "seat0_rate": first["win_rate"], "seat0_rate_low": first["win_rate_low"],
        "seat0_rate_high": first["win_rate_high"],
        "equal_share": first["equal_share"],
        "seat0_edge": first["win_rate"] - first["equal_share"],
        # the edge's own interval, so the table shows which tables count as ahead: with 3
        # significant places, seat0_rate_low 0.5 against equal_share 0.5 hid a 0.0004 lead
        "seat0_edge_low": first["win_rate_low"] - first["equal_share"],
        "seat0_edge_high": first["win_rate_high"] - first["equal_share"],
        "last_seat_rate": last["win_rate"],
        **rate_columns("stalemate_rate", first["stalemate_rate"] * first["games"], first["games"]),
    })
    # leave out random tables from the headline's verdict: nobody plays like that
    played = summary[summary["policy"] != "random"]
    ahead = played[played["seat0_rate_low"] > played["equal_share"]]
    behind = played[played["seat0_rate_high"] < played["equal_share"]]
    best = played.loc[played["seat0_edge"].idxmax()]
    if len(ahead):
        # "most with ..." names a table where seat 0 is ahead: the largest edge of all may
        # be one whose interval still reaches the equal share (a wider one, two players)
        best = ahead.loc[ahead["seat0_edge"].idxmax()]
        # "Yes" only when most tables agree: one or two of twelve could be chance at 95% each
        lead = "Yes: the first player" if 2 * len(ahead) > len(played) else "Only at some tables: the first player"
        headline = (f"{lead} (seat 0) wins more than an equal share at {len(ahead)} of "
                    f"{len(played)} tables of equal players (random play aside), most with {int(best['players'])} "
                    f"{best['policy']} players: "
                    f"{ci_text(best['seat0_rate'], best['seat0_rate_low'], best['seat0_rate_high'])} "
                    f"against an equal share of {pct(best['equal_share'])}, while the last seat wins "
                    f"{pct(best['last_seat_rate'])}")
        if len(behind):
            headline += f"; seat 0 is behind at {len(behind)} table(s)"
        agg = played[played["policy"] == "aggressive"]
        if len(agg) and best["policy"] != "aggressive":
            headline += (f"; with aggressive players, who Sin the leader, seat 0's edge is at most "
                         f"{number(100 * agg['seat0_edge'].max(), '+.1f')} percentage points")
        unit = "points" if "percentage points" in headline else "percentage points"
        headline += _random_clause(summary, ahead, unit) + "."
    else:
        headline = (f"No first-player advantage was found: at none of the {len(played)} tables of equal players "
                    f"(random play aside) does seat 0's 95% interval lie above the equal share (largest edge "
                    f"{number(100 * best['seat0_edge'], '+.1f')} percentage points, {int(best['players'])} {best['policy']}"
                    " players).")

    tag = rules_line(deck)   # a chart of a --deck report says which deck (session 23)
    sections = [Section(
        "First player's advantage",
        "Seat 0 plays first; the others follow in seat order. **Equal share** is what each seat would win if "
        "seats did not matter: the decided games (not stalemates) split evenly, `(1 - stalemate_rate) / "
        "players`. **seat0_edge** is seat 0's win rate minus that share, a share of games like the rates "
        "(0.017 is 1.7 percentage points, the unit of the headline and the chart; the chart's error bars are "
        "seat 0's interval shifted by the share, as are **seat0_edge_low** and **seat0_edge_high**: the headline "
        "counts a table as ahead when seat0_edge_low is above 0); **last_seat_rate** is the win rate of the seat "
        "that plays last. "
        "`random` tables are shown for comparison and left "
        "out of the headline.",
        summary, _advantage_chart(summary, games, tag))]
    names = {2: "Two", 3: "Three", 4: "Four", 5: "Five"}
    for players in PLAYERS:
        sub = seats[seats["players"] == players].drop(columns=["players", "stalemate_rate"]).reset_index(drop=True)
        greedy = sub[sub["policy"] == "greedy"]
        sections.append(Section(
            f"{names[players]} players",
            f"{count(games, 'game', grouped=True)} per policy, the same player in every seat. With greedy players the "
            f"seats win {', '.join(pct(r) for r in greedy['win_rate'])} (seat 0 first).",
            sub, _chart(seats, players, games, tag)))
    return StudyResult(headline=headline, sections=sections, games=games * len(tables),
                       rules=rules_text(POLICIES, players="2, 3, 4 and 5 players, one policy in every seat.",
                                        extra="Each seat's win rate counts stalemates as games without a win.",
                                        deck=deck))
