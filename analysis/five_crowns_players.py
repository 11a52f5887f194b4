"""Five Crowns: the computer players compared, and the tracker against each of the others.

Two studies, both on :func:`crowns_solver.five_crowns.simulate` with duplicate deals (each
deal played in every distinct seating, so the luck of the cards cancels):

- ``five_crowns_policies``: one random, one greedy, one advisor and one tracker player at
  a 4-player table; per player the average points in each round (by cards dealt), the
  win rate, the going-out rate, and the average total against the deal's average.
- ``five_crowns_tracker``: the tracker head to head against each other player, two of
  each at the table (T O T O and O T O T on every deal); the difference in points per
  game and the tracker's share of the wins, overall and round by round.

Intervals are 95% and treat each deal (all its seatings) as one observation, since the
games of one deal share their cards.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from crowns_solver.five_crowns.simulation import capped_rounds, simulate

from ._five_crowns_common import (CARDS, PLAYERS, ROUNDS, errorbars, game_rules, rate_clustered, rules_lead, rules_line,
                                  rules_text, sub_seed)
from crowns_solver._text import count, intervals_over, number, percent

from ._intervals import ci_text, pct
from .base import Section, StudyResult, mean_ci, new_figure, study

POLICIES = ("random", "greedy", "advisor", "tracker")
#: Deals per chunk of the Monte Carlo runner (tracker games take a fraction of a second).
CHUNK = 5


def _deal_games(df: pd.DataFrame) -> pd.Series:
    return df.groupby("deal")["game"].nunique()


# --------------------------------------------------------------------------- all four at one table
def policy_table(df: pd.DataFrame) -> pd.DataFrame:
    """Per player: games, mean total, total against the deal average, win rate,
    going-out rate (share of rounds it went out), each with its 95% interval over deals.

    Parameters
    ----------
    df : DataFrame
        From :func:`crowns_solver.five_crowns.simulate` with ``duplicate=True``.

    Returns
    -------
    DataFrame
        One row per player (totals in points, rates 0..1).
    """
    rounds = [c for c in df.columns if c.startswith("out_")]
    rel = df["total"] - df.groupby("game")["total"].transform("mean")
    rows = []
    for policy in [p for p in POLICIES if p in set(df["policy"])]:
        part = df[df["policy"] == policy]
        row: dict[str, Any] = {"player": policy, "games": len(part)}
        for name, values, rate in (("mean_total", part["total"], False), ("vs_table", rel[part.index], False),
                                   ("win", part["won"].astype(float), True),
                                   ("out_rate", part[rounds].mean(axis=1), True)):
            fn = rate_clustered if rate else _clustered_mean
            row[name], row[f"{name}_low"], row[f"{name}_high"] = fn(values, part["deal"])
        rows.append(row)
    return pd.DataFrame(rows)


def paired_gap(df: pd.DataFrame, a: str, b: str) -> tuple[float, float, float]:
    """Player `a`'s mean total minus player `b`'s on the same deals (points per game,
    negative: `a` scores less), with its 95% interval over deals: each deal's difference
    of the two players' mean totals over its seatings, so deal luck cancels (a paired
    comparison, which the two players' separate intervals are not).

    Parameters
    ----------
    df : DataFrame
        From :func:`crowns_solver.five_crowns.simulate` with ``duplicate=True``.
    a, b : str
        The two players' policy names.

    Returns
    -------
    tuple of (float, float, float)
        The mean difference and its 95% interval (low, high), points per game.
    """
    per_deal = df[df["policy"].isin([a, b])].groupby(["deal", "policy"])["total"].mean().unstack()
    per_deal = per_deal.dropna()
    return mean_ci((per_deal[a] - per_deal[b]).to_numpy())


def policies_headline(summary: pd.DataFrame, deals: int, gap: tuple[float, float, float] | None) -> str:
    """The policies study's headline.  The lowest total is said to be the least ("scores
    least", "less than") only where the paired interval lies below 0; win rates are
    printed so that a rate above 0 never reads "0%".

    Parameters
    ----------
    summary : DataFrame
        :func:`policy_table` (one row per player).
    deals : int
        Deals played.
    gap : (float, float, float) or None
        :func:`paired_gap` of the two lowest mean totals (lowest minus second); None with
        one player.

    Returns
    -------
    str
        The headline: one or two sentences.
    """
    s = summary.set_index("player")
    order = s.sort_values("mean_total").index.tolist()
    best = order[0]
    apart = gap is not None and gap[2] < 0
    lead = f"the {best} scores least" if apart or gap is None else f"the {best} has the lowest mean total"
    headline = (f"With one of each at a 4-player table ({count(deals, 'deal', grouped=True)}, each in all 4"
                f" seatings), {lead} ({s.loc[best, 'mean_total']:.1f} points per game, "
                f"{ci_text(s.loc[best, 'mean_total_low'], s.loc[best, 'mean_total_high'], '.1f', sep='-')}) and wins "
                f"{pct(s.loc[best, 'win'])} of games; "
                + ", ".join(f"{p} {s.loc[p, 'mean_total']:.1f} points and {pct(s.loc[p, 'win'])}" for p in order[1:])
                + ".")
    if gap is not None:
        g, g_low, g_high = gap
        if np.isnan(g_low) or np.isnan(g_high):
            headline += (f" From one deal the {best} and the {order[1]} cannot be told apart (no interval): the"
                         f" {best} scores {number(g, '+.1f')} points per game against the {order[1]}.")
        elif g_high < 0:
            headline += (f" On the same deals the {best} scores {-g:.1f} points per game less than the {order[1]}"
                         f" (95% CI {-g_high:.1f}-{-g_low:.1f}).")
        else:
            headline += (f" On the same deals the {best} and the {order[1]} are not told apart: the {best} scores"
                         f" {number(g, '+.1f')} points per game against the {order[1]} (95% CI {number(g_low, '+.1f')} to"
                         f" {number(g_high, '+.1f')}).")
    return headline


def _clustered_mean(values: pd.Series, cluster: pd.Series) -> tuple[float, float, float]:
    return mean_ci(values.groupby(cluster.to_numpy()).mean().to_numpy())


def by_round_table(df: pd.DataFrame) -> pd.DataFrame:
    """Per player and round: cards dealt, average points that round and going-out rate,
    with 95% intervals over deals.

    Parameters
    ----------
    df : DataFrame
        From :func:`crowns_solver.five_crowns.simulate` with ``duplicate=True``.

    Returns
    -------
    DataFrame
        One row per player and round.
    """
    rows = []
    for policy in [p for p in POLICIES if p in set(df["policy"])]:
        part = df[df["policy"] == policy]
        for r in ROUNDS:
            row: dict[str, Any] = {"player": policy, "round": r, "cards": CARDS[r], "games": len(part)}
            row["points"], row["points_low"], row["points_high"] = _clustered_mean(part[f"round_{r}"], part["deal"])
            row["out_rate"], row["out_rate_low"], row["out_rate_high"] = rate_clustered(
                part[f"out_{r}"].astype(float), part["deal"])
            rows.append(row)
    return pd.DataFrame(rows)


def _round_chart(table: pd.DataFrame, column: str, title: str, ylabel: str, deals: int, tag: str = ""):
    """Each player's `column` by round, with 95% intervals over `deals` (duplicate deals)."""
    fig = new_figure(7.0, 4.2)
    ax = fig.add_subplot()
    players = list(dict.fromkeys(table["player"]))
    for i, policy in enumerate(players):
        part = table[table["player"] == policy]
        errorbars(ax, part["cards"], part[column], part[f"{column}_low"], part[f"{column}_high"], policy,
                  offset=0.12 * (i - (len(players) - 1) / 2))
    ax.set(title=f"{title}\n({intervals_over(deals, 'deal')}, all seatings of a deal one observation){tag}",
           xlabel="cards dealt (round 1 = 3 cards ... round 11 = 13 cards)", ylabel=ylabel)
    ax.set_xticks(list(CARDS.values()))
    ax.grid(alpha=0.3)
    ax.legend(title="player")
    fig.tight_layout()
    return fig


def _summary_chart(table: pd.DataFrame, fair: float, deals: int, tag: str = ""):
    """Points per game, games won and rounds gone out, with 95% intervals over `deals`."""
    fig = new_figure(9.6, 3.8)
    ax0, ax1, ax2 = fig.subplots(1, 3)
    x = np.arange(len(table))
    colours = ["tab:gray", "tab:orange", "tab:blue", "tab:green"][: len(table)]
    est = table["mean_total"].to_numpy()
    ax0.bar(x, est, yerr=[est - table["mean_total_low"], table["mean_total_high"] - est], capsize=4, color=colours)
    ax0.set_xticks(x, table["player"])
    ax0.set(ylabel="points per game (lower is better)", xlabel="player", title="Points per game")
    ax0.grid(axis="y", alpha=0.3)
    for ax, col, label in ((ax1, "win", "win rate (share of games won)"),
                           (ax2, "out_rate", "going-out rate (share of rounds)")):
        est = table[col].to_numpy()
        ax.bar(x, est, yerr=[est - table[f"{col}_low"], table[f"{col}_high"] - est], capsize=4, color=colours)
        ax.set_xticks(x, table["player"])
        ax.set(ylabel=label, xlabel="player", ylim=(0, max(0.5, float(table[f"{col}_high"].max()) * 1.15)))
        ax.grid(axis="y", alpha=0.3)
    ax1.axhline(fair, color="black", linestyle=":", linewidth=1, label=f"equal share {fair:.2f}")
    ax1.legend(fontsize=8)
    ax1.set_title("Games won")
    ax2.set_title("Rounds gone out")
    fig.suptitle(f"One of each at a 4-player table (error bars: {intervals_over(deals, 'deal')},"
                 f" all seatings of a deal one observation){tag}", fontsize=11)
    fig.tight_layout()
    return fig


@study("five_crowns_policies", game="five_crowns", title="Five Crowns: the computer players compared",
       quick_games=40, full_games=2400, options=("sets", "all_wild_melds"))
def policies(games: int, seed: int, executor: Any = None, *, sets: int = 1, all_wild_melds: bool = True) -> StudyResult:
    """One random, greedy, advisor and tracker player at a 4-player table, duplicate deals.

    Parameters
    ----------
    games : int
        Games to play (``games // 4`` deals, at least 1, each in all 4 seatings).
    seed : int
        Root seed.
    executor : concurrent.futures.Executor, optional
        Passed to the Monte Carlo runner.
    sets : {1, 2}, keyword-only
        116-card sets shuffled together (rules option sets, RULES.md, Five Crowns: "Deal
        and seats"; ``crowns report --sets``); default 1, what RULES.md deals a table of 4
        (None says the same).
    all_wild_melds : bool, keyword-only
        Whether a meld made only of wilds is allowed (rules option, RULES.md, Five
        Crowns: "Melds"; ``crowns report --no-all-wild-melds`` sets False); default True.

    Returns
    -------
    StudyResult
        Sections "Players at one table", "Points per round" and "Going out by round".

    Raises
    ------
    RulesError
        If `sets` or `all_wild_melds` is not a rules option value (checked before any
        game), naming it.
    """
    rules = game_rules(sets, all_wild_melds)
    deals = max(1, games // 4)
    df = simulate(deals, players=PLAYERS, policies=list(POLICIES), seed=sub_seed(seed, 1), duplicate=True,
                  executor=executor, chunk_size=CHUNK, rules=rules)
    played = int(df["game"].nunique())
    dealt = int(df["deal"].nunique())   # the intervals' observations
    summary = policy_table(df)
    rounds = by_round_table(df)
    gap = paired_gap(df, *summary.sort_values("mean_total")["player"].iloc[:2]) if len(summary) > 1 else None
    headline = rules_lead(policies_headline(summary, deals, gap), rules.sets, rules.all_wild_melds)
    s = summary.set_index("player")
    order = s.sort_values("mean_total").index.tolist()
    late = rounds[rounds["round"] == 11].set_index("player")
    text_rounds = ("Average points taken in each round (0 for the player who goes out). "
                   "With 13 cards (round 11) the players take "
                   + ", ".join(f"{p} {late.loc[p, 'points']:.1f}" for p in order) + " points on average.")
    capped = capped_rounds(df)
    out_text = ("The share of rounds each player went out (one player goes out per round, so the four rates "
                "add up to 1 per round, less the rounds cut off by the turn limit of 2000 turns, where nobody "
                f"went out: {capped} of the {played * len(ROUNDS)} rounds played here).")
    tag = rules_line(rules.sets, rules.all_wild_melds)
    sections = [
        Section("Players at one table",
                "Totals per game (points, lower is better), the total against the average of the four players "
                "in the same game (`vs_table`, negative is better), the share of games won (shared wins count "
                "for every winner) and the share of rounds gone out. Intervals are 95%, over deals.",
                summary, _summary_chart(summary, 0.25, dealt, tag)),
        Section("Points per round", text_rounds, rounds[["player", "round", "cards", "games", "points", "points_low",
                                                          "points_high"]],
                _round_chart(rounds, "points", "Points taken per round, by cards dealt", "points per round", dealt,
                             tag)),
        Section("Going out by round", out_text,
                rounds[["player", "round", "cards", "games", "out_rate", "out_rate_low", "out_rate_high"]],
                _round_chart(rounds, "out_rate", "Share of rounds gone out, by cards dealt",
                             "going-out rate (share of rounds)", dealt, tag)),
    ]
    return StudyResult(headline=headline, sections=sections, games=played,
                       rules=rules_text(PLAYERS, POLICIES, duplicate=True, chunk_size=CHUNK, sets=rules.sets,
                                        all_wild_melds=rules.all_wild_melds),
                       intervals=CLUSTERED_INTERVALS)


# --------------------------------------------------------------------------- tracker head to head
#: Opponents of the tracker and their share of the study's games.
#: The closing line of both player studies' reports: how their intervals are computed.
CLUSTERED_INTERVALS = ("Intervals are 95%, over deals (a deal's seatings share its cards, so each deal's mean over "
                       "them is one observation): Student t intervals for means, and for rates Wilson score "
                       "intervals on the effective number of observations of the clustered rate (Korn & Graubard "
                       "1998), which stay inside 0..1.")


OPPONENTS = (("advisor", 0.7), ("greedy", 0.2), ("random", 0.1))


def head_to_head(df: pd.DataFrame, opponent: str) -> tuple[dict[str, Any], pd.DataFrame]:
    """From a T O T O duplicate run: the summary row and the per-round differences.

    ``diff`` = mean total of the tracker seats - mean total of the opponent seats in the
    same game (points per game; negative: the tracker does better), ``win`` = the
    trackers' share of the game's winners; intervals over deals.

    Parameters
    ----------
    df : DataFrame
        From :func:`crowns_solver.five_crowns.simulate` with ``duplicate=True`` and the
        seating T O T O.
    opponent : str
        The opponents' policy name.

    Returns
    -------
    tuple of (dict, DataFrame)
        The summary row (``opponent``, ``games``, ``deals``, ``tracker_total``,
        ``opponent_total``, ``diff`` and ``win`` with their intervals) and one row per round (``opponent``, ``round``, ``cards``, ``games``,
        ``diff`` with its interval).
    """
    per_game = df.assign(tr=df["policy"] == "tracker").groupby(["deal", "game", "tr"])
    totals = per_game["total"].mean().unstack("tr")
    diff = (totals[True] - totals[False]).reset_index()
    wins = df[df["won"]].groupby(["deal", "game"])["policy"].apply(lambda p: float((p == "tracker").mean()))
    wins = wins.reset_index()
    row: dict[str, Any] = {"opponent": opponent, "games": int(df["game"].nunique()),
                           "deals": int(df["deal"].nunique())}
    row["tracker_total"] = float(totals[True].mean())
    row["opponent_total"] = float(totals[False].mean())
    row["diff"], row["diff_low"], row["diff_high"] = mean_ci(diff.groupby("deal")[0].mean().to_numpy())
    row["win"], row["win_low"], row["win_high"] = rate_clustered(wins["policy"], wins["deal"])
    rounds = []
    for r in ROUNDS:
        t = df.assign(tr=df["policy"] == "tracker").groupby(["deal", "game", "tr"])[f"round_{r}"].mean().unstack("tr")
        d = (t[True] - t[False]).groupby(level="deal").mean().to_numpy()
        m, lo, hi = mean_ci(d)
        rounds.append({"opponent": opponent, "round": r, "cards": CARDS[r], "games": row["games"],
                       "diff": m, "diff_low": lo, "diff_high": hi})
    return row, pd.DataFrame(rounds)


def _diff_chart(table: pd.DataFrame, tag: str = ""):
    """One panel per opponent (each on its own scale, so the close match stays readable)."""
    fig = new_figure(7.0, 1.0 + 1.1 * len(table))
    axes = fig.subplots(len(table), 1, squeeze=False)[:, 0]
    for ax, (_, row) in zip(axes, table.iterrows()):
        est = row["diff"]
        # one deal gives no interval (NaN bounds): draw the point alone
        dlo = row["diff_low"] if pd.notna(row["diff_low"]) else est
        dhi = row["diff_high"] if pd.notna(row["diff_high"]) else est
        ax.errorbar([est], [0], xerr=[[est - dlo], [dhi - est]], fmt="D",
                    color="tab:green", capsize=5, label="tracker - opponent, 95% CI")
        ax.axvline(0, color="black", linewidth=1, linestyle=":", label="no difference")
        lo, hi = min(dlo, 0.0), max(dhi, 0.0)
        pad = 0.15 * (hi - lo) + 0.5
        ax.set_xlim(lo - pad, hi + pad)
        ax.set_yticks([0], [f"vs {row['opponent']}\n({count(int(row['deals']), 'deal', grouped=True)})"])
        # in axes coordinates, so the label stays inside the panel wherever the point lies
        ax.text(0.02, 0.88, f"{number(est, '+.2f')} ({number(row['diff_low'], '+.2f')} to {number(row['diff_high'], '+.2f')})",
                transform=ax.transAxes, ha="left", va="top", fontsize=8)
        ax.set_ylim(-1, 1.2)
        ax.grid(axis="x", alpha=0.3)
    fig.suptitle("Tracker head to head: difference in points per game\n"
                 f"{intervals_over(table['deals'], 'deal', each='per opponent')} (both seatings of a deal one observation)"
                 f"{tag}",
                 fontsize=10)
    axes[0].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    axes[-1].set_xlabel("tracker's total - opponent's total (points per game; negative = tracker better)")
    fig.tight_layout()
    return fig


def _round_diff_chart(rounds: pd.DataFrame, deals: int, tag: str = ""):
    """Tracker minus advisor by round, with 95% intervals over `deals`."""
    fig = new_figure(7.0, 4.0)
    ax = fig.add_subplot()
    part = rounds[rounds["opponent"] == "advisor"]
    est = part["diff"].to_numpy()
    ax.errorbar(part["cards"], est, yerr=[est - part["diff_low"], part["diff_high"] - est], marker="D",
                markersize=4, capsize=3, color="tab:green", label="tracker - advisor, 95% CI")
    ax.axhline(0, color="black", linewidth=1, linestyle=":", label="no difference")
    ax.set_xticks(list(CARDS.values()))
    ax.set(title="Tracker against advisor, points per round (negative = tracker better)\n"
                 f"({intervals_over(deals, 'deal')}, both seatings one observation){tag}",
           xlabel="cards dealt (round 1 = 3 cards ... round 11 = 13 cards)", ylabel="difference (points per round)")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    return fig


@study("five_crowns_tracker", game="five_crowns", title="Five Crowns: the tracker against the other players",
       quick_games=60, full_games=4000, options=("sets", "all_wild_melds"))
def tracker(games: int, seed: int, executor: Any = None, *, sets: int = 1, all_wild_melds: bool = True) -> StudyResult:
    """The tracker head to head against the advisor, greedy and random players.

    Two trackers and two opponents sit alternately (T O T O); each deal is played in both
    seatings (T O T O and O T O T).  `games` is split 70% / 20% / 10% between the
    advisor, greedy and random opponents (at least 1 deal each).

    Parameters
    ----------
    games : int
        Games in all, split as above.
    seed : int
        Root seed.
    executor : concurrent.futures.Executor, optional
        Passed to the Monte Carlo runner.
    sets : {1, 2}, keyword-only
        116-card sets shuffled together (rules option sets, RULES.md, Five Crowns: "Deal
        and seats"; ``crowns report --sets``); default 1, what RULES.md deals a table of 4
        (None says the same).
    all_wild_melds : bool, keyword-only
        Whether a meld made only of wilds is allowed (rules option, RULES.md, Five
        Crowns: "Melds"; ``crowns report --no-all-wild-melds`` sets False); default True.

    Returns
    -------
    StudyResult
        Sections "Head to head" and "Round by round".

    Raises
    ------
    RulesError
        If `sets` or `all_wild_melds` is not a rules option value (checked before any
        game), naming it.
    """
    rules = game_rules(sets, all_wild_melds)
    rows, rounds, played, capped = [], [], 0, []
    for k, (opponent, share) in enumerate(OPPONENTS):
        deals = max(1, int(round(games * share)) // 2)
        df = simulate(deals, players=PLAYERS, policies=["tracker", opponent] * 2, seed=sub_seed(seed, 10 + k),
                      duplicate=True, executor=executor, chunk_size=CHUNK, rules=rules)
        played += int(df["game"].nunique())
        capped.append(f"{capped_rounds(df)} of {int(df['game'].nunique()) * len(ROUNDS)} against {opponent}")
        row, per_round = head_to_head(df, opponent)
        rows.append(row)
        rounds.append(per_round)
    table = pd.DataFrame(rows)
    per_round = pd.concat(rounds, ignore_index=True)
    a = table.set_index("opponent").loc["advisor"]
    if np.isnan(a["diff_low"]) or np.isnan(a["diff_high"]):
        points = "from one deal the points cannot be told apart from the advisor's"
    elif a["diff_high"] < 0:
        points = "fewer points than the advisor (the interval excludes 0)"
    elif a["diff_low"] > 0:
        points = "more points than the advisor (the interval excludes 0)"
    else:
        points = "no separable difference in points from the advisor"
    if a["win_low"] > 0.5:
        wins = "more than half of the wins"
    elif a["win_high"] < 0.5:
        wins = "less than half of the wins"
    else:
        wins = "a share of the wins that does not separate from one half"
    deals = "one deal" if int(a["deals"]) == 1 else f"the same {int(a['deals']):,} deals"
    headline = (f"On {deals} (both seatings), two trackers' totals"
                f" minus two advisors' come to {number(a['diff'], '+.2f')} points per game (lower is better;"
                f" {ci_text(a['diff_low'], a['diff_high'])}; {a['tracker_total']:.1f} vs {a['opponent_total']:.1f}) and they take "
                f"{percent(a['win'], 1)} of the wins (95% CI {percent(a['win_low'], 1)}-{percent(a['win_high'], 1)}): {points}; "
                f"{wins}.")
    headline = rules_lead(headline, rules.sets, rules.all_wild_melds)
    text = ("`diff` is the tracker seats' mean total minus the opponent seats' mean total in the same game "
            "(points per game, negative: the tracker does better), averaged over both seatings of each "
            "deal; `win` is the trackers' share of each game's winners (0.5 = even). Intervals are 95%, "
            "over deals (a deal's two seatings share its cards, so each deal is one observation): Student t "
            "for `diff`, Wilson on the effective number of observations for `win` (Korn & Graubard 1998). The tracker is the advisor (exact expected "
            "deadwood after the next draw) plus "
            "an estimate of the chance that a discard lets the next player go out (from what that player "
            "publicly took, threw and passed) and a two-draw look-ahead for its best candidates. "
            "Rounds cut off by the turn limit of 2000 turns (nobody went out; every seat scores the "
            f"deadwood it holds): {', '.join(capped)}.")
    tag = rules_line(rules.sets, rules.all_wild_melds)
    sections = [
        Section("Head to head", text, table, _diff_chart(table, tag)),
        Section("Round by round",
                "Where the difference comes from: tracker minus opponent, points per round, by cards dealt "
                "(the chart shows the advisor match; the table all three).",
                per_round, _round_diff_chart(per_round, int(a["deals"]), tag)),
    ]
    return StudyResult(headline=headline, sections=sections, games=played,
                       rules=rules_text(PLAYERS, ["tracker", "opponent", "tracker", "opponent"], duplicate=True,
                                        chunk_size=CHUNK, sets=rules.sets, all_wild_melds=rules.all_wild_melds,
                                        extra="Opponents: advisor (70% of the games), greedy (20%), random (10%)."),
                       intervals=CLUSTERED_INTERVALS)
