"""Cross Kings studies: first-player advantage, the start-cell choice, what seeing the
face-down cards is worth, and how the computer players compare.

Four studies (issue 7), all built on the players and matches of
:mod:`crowns_solver.cross_kings.players` / :mod:`crowns_solver.cross_kings.match` and on
the exact solver (:func:`crowns_solver.cross_kings.solve`):

- ``cross_kings_first_player``: search-vs-search self-play over seeded deals, with the
  second player choosing the start cell and with the start fixed at (2, 2) as on
  crosskings.net; compared with that site's published self-play figures.
- ``cross_kings_start_cell``: the second player's choice among the four central cells:
  search estimates of the four cells, and the margin actually reached from each cell in
  search-vs-search play.
- ``cross_kings_open_vs_game``: exact open value (averaged over every placement of the
  unseen cards) against the exact game value of seeded endgames, by cards left.
- ``cross_kings_players``: duplicate matches between the players (random, greedy, search
  at two node limits, and the clairvoyant player, which cheats).

Search players use node limits, so every number here replays exactly from the seed.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from crowns_solver import montecarlo
from crowns_solver.cross_kings import Deal, Position, solve
from crowns_solver.cross_kings.match import match, play_game, self_play
from crowns_solver.cross_kings.players import make_player, seat_view
from crowns_solver.cross_kings.position import CENTRAL_CELLS, cell_index, cell_text

from ._cross_kings_common import rules_line, rules_text
from crowns_solver._text import count, intervals_over, number, percent

from ._intervals import ci_text, newcombe_diff, sign_word
from .base import Section, StudyResult, mean_ci, new_figure, note_sample, proportion_ci, study

#: Search nodes per move of the search players in these studies (about 25-70 ms a move).
STUDY_NODES = 50_000
#: The public implementation's self-play at a fixed start (issue 7): first player's
#: wins, draws, losses of 776 games and the mean margin.
PUBLIC_SELF_PLAY = {"games": 776, "win": 0.675, "draw": 0.086, "loss": 0.238, "margin": 1.75}

def _rate_cols(prefix: str, k: Any, n: Any) -> dict[str, Any]:
    low, high = proportion_ci(k, n)
    return {prefix: np.asarray(k, dtype=float) / n, f"{prefix}_low": low, f"{prefix}_high": high}


def _errbars(est, low, high) -> list:
    est, low, high = (np.asarray(x, dtype=float) for x in (est, low, high))
    return [np.maximum(est - low, 0), np.maximum(high - est, 0)]


# ----------------------------------------------------------------------------- first player


def _wdl_row(label: str, df: pd.DataFrame) -> dict[str, Any]:
    n = len(df)
    row: dict[str, Any] = {"setup": label, "games": n}
    for col, name in (("win_first", "win"), ("draw", "draw"), ("loss_first", "loss")):
        k = int(df[col].sum())
        low, high = proportion_ci(k, n)
        row.update({name: k / n, f"{name}_low": float(low), f"{name}_high": float(high)})
    m, lo, hi = mean_ci(df["margin_first"].to_numpy(dtype=float))
    row.update({"margin": m, "margin_low": lo, "margin_high": hi})
    return row


@study("cross_kings_first_player", game="cross_kings", title="Cross Kings: is there a first-player advantage under strong play?",
       quick_games=12, full_games=1200, options=("reach",))
def first_player(games: int, seed: int, executor=None, reach: str = "any") -> StudyResult:
    """Search-vs-search self-play: the first player's W/D/L and mean margin, two setups,
    and the fixed-start games again on the grid turned 180 degrees (orientation check).

    Parameters
    ----------
    games : int
        About the games in all: ``games // 3`` deals (at least 1), each played in the
        three setups.
    seed : int
        Root seed (``crowns report --seed``).
    executor : concurrent.futures.Executor, optional
        Runs the chunks (default: in this process).
    reach : {"any", "nearest"}
        The rules option reach (RULES.md, Cross Kings, "Move"; ``crowns report --reach``).
        crosskings.net's published self-play is under "any": with "nearest" the report
        leaves that comparison out.

    Returns
    -------
    StudyResult
        The first player's results with 95% intervals, the comparison with
        crosskings.net's published self-play (reach "any" only), what the start-cell
        choice changes, the orientation check and the start cells chosen.
    """
    deals = max(1, games // 3)
    opts = {"node_limit": STUDY_NODES}
    chosen = self_play("search", deals, seed=seed, options=opts, executor=executor, reach=reach)
    fixed = self_play("search", deals, seed=seed, options=opts, start=(2, 2), executor=executor, reach=reach)
    turned = self_play("search", deals, seed=seed, options=opts, start=(2, 2), symmetry="rot180",
                       executor=executor, reach=reach)
    table = pd.DataFrame([_wdl_row("second player chooses the start cell", chosen),
                          _wdl_row("start fixed at (2,2), as crosskings.net", fixed)])
    pub = PUBLIC_SELF_PLAY
    compare = table[["setup", "games", "win", "win_low", "win_high", "draw", "draw_low", "draw_high",
                     "loss", "loss_low", "loss_high"]].copy()
    prow: dict[str, Any] = {"setup": "crosskings.net self-play (published), start (2,2)", "games": pub["games"]}
    for name in ("win", "draw", "loss"):
        k = round(pub[name] * pub["games"])
        low, high = proportion_ci(k, pub["games"])
        prow.update({name: pub[name], f"{name}_low": float(low), f"{name}_high": float(high)})
    compare = pd.concat([compare, pd.DataFrame([prow])], ignore_index=True)
    compare["mean_margin"] = [*table["margin"], pub["margin"]]
    # our win rate minus the published one, with an interval of the difference (two
    # independent samples): what a comparison with 67.5% may say
    k_pub = round(pub["win"] * pub["games"])
    diffs = [newcombe_diff(int(chosen["win_first"].sum()), len(chosen), k_pub, pub["games"]),
             newcombe_diff(int(fixed["win_first"].sum()), len(fixed), k_pub, pub["games"])]
    compare["win_minus_published"] = [d[0] for d in diffs] + [np.nan]
    compare["win_minus_published_low"] = [d[1] for d in diffs] + [np.nan]
    compare["win_minus_published_high"] = [d[2] for d in diffs] + [np.nan]

    start_table = start_cell_table(chosen["start"])
    # the same deals in both setups: paired differences (choice minus fixed start)
    paired = []
    for label, col in (("first player's margin (points)", "margin_first"), ("first player's score per game", None)):
        if col is None:
            x = (chosen["win_first"] + chosen["draw"] / 2).to_numpy(float) - (fixed["win_first"] + fixed["draw"] / 2).to_numpy(float)
        else:
            x = chosen[col].to_numpy(float) - fixed[col].to_numpy(float)
        m, lo, hi = mean_ci(x)
        paired.append({"quantity": label, "games": len(x), "difference": m, "difference_low": lo, "difference_high": hi})
    paired_table = pd.DataFrame(paired)
    same_start = float(np.mean(chosen["start"].to_numpy() == 14))
    # the same games on the grid turned 180 degrees (start (3,3)): the same game, so any
    # difference comes from the search's tie-breaks (it orders equal moves by cell number)
    orient = []
    for label, x in (("first player's margin (points)",
                      fixed["margin_first"].to_numpy(float) - turned["margin_first"].to_numpy(float)),
                     ("first player's score per game",
                      (fixed["win_first"] + fixed["draw"] / 2).to_numpy(float)
                      - (turned["win_first"] + turned["draw"] / 2).to_numpy(float))):
        m, lo, hi = mean_ci(x)
        orient.append({"quantity": label, "games": len(x), "difference": m, "difference_low": lo,
                       "difference_high": hi})
    orient_table = pd.DataFrame(orient)
    same_game = float(np.mean(fixed["margin_first"].to_numpy() == turned["margin_first"].to_numpy()))

    fig = new_figure(7.2, 4.2)
    ax = fig.add_subplot()
    labels = ["chooses start\n(this library)", "fixed (2,2)\n(this library)", "crosskings.net\npublished"]
    if reach != "any":   # the published bar is of other rules: its label says so (session 23)
        labels[2] = 'crosskings.net published\n(reach "any": other rules)'
    x = np.arange(3)
    for k, (name, colour, word) in enumerate((("win", "tab:green", "wins"), ("draw", "tab:gray", "draws"),
                                              ("loss", "tab:red", "losses"))):
        est, lo, hi = compare[name], compare[f"{name}_low"], compare[f"{name}_high"]
        ax.bar(x + (k - 1) * 0.26, est, 0.26, yerr=_errbars(est, lo, hi), capsize=3, color=colour,
               label=f"first player {word}")
    ax.set_xticks(x, labels)
    ax.set_ylim(0, 1)
    # one game per deal and setup: the intervals are over games
    ax.set(title=f"First player's results in self-play\n{intervals_over(len(chosen), 'game', each='per setup')}"
                 f" (published: {pub['games']:,}){rules_line(reach)}", ylabel="share of games (0..1)", xlabel="setup")
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()

    published = reach == "any"   # crosskings.net plays reach "any": no comparison under another rule
    headline = first_player_headline(table, compare, paired_table, published=published)
    text_main = (
        "Each seeded deal is played once with the search player (game-value expectiminimax, "
        f"{STUDY_NODES:,} search nodes per move, heuristic at the horizon, exact once within reach) in both"
        " seats: once with the second player choosing the start cell (the rules), once with the start fixed"
        " at (2,2) as crosskings.net plays.  Rates have Wilson 95% intervals; the margin (first minus"
        " second, points) a Student t 95% interval over games.")
    text_cmp = (
        "crosskings.net's figures (issue 7) come from its own bot playing itself from a fixed start"
        " (2,2), 776 games; its bot, its time per move (about 6 s) and its deals differ from ours, and it"
        " ranks outcomes by win points before margin.  Our fixed-start row is the like-for-like setup;"
        " the published row's intervals are Wilson intervals computed here from its rates and game count."
        " Its mean margin has no published interval.  `win_minus_published`: our first player's win rate"
        " minus the published one, a difference of shares (0.01 = 1 percentage point), with Newcombe's hybrid"
        " score 95% interval for a difference of two independent rates (Newcombe 1998).")
    return StudyResult(
        headline=headline,
        sections=[Section("First player's results", text_main, table, fig),
                  *([Section("Against the published self-play", text_cmp, compare)] if published else []),
                  Section("What the start-cell choice changes (same deals)",
                          "Each deal is played in both setups, so the difference (second player chooses minus"
                          " start fixed at (2,2)) is paired by deal: mean with a Student t 95% interval."
                          f"  The search player chose (2,2) itself in {percent(same_start, 0)} of deals (those games are"
                          " identical in both setups: the players are deterministic under node limits), so the"
                          + (" difference comes from the other deals." if same_start < 1 else
                             " setups played the same games here and the difference is 0."), paired_table),
                  Section("Does the grid's orientation matter? (same deals turned 180 degrees)",
                          "The rules name no direction, so a deal turned 180 degrees and played from (3,3) is"
                          " the same game as the deal played from (2,2); exact values are the same (tested)."
                          "  The search player breaks ties between equally rated moves by cell number, so"
                          " its play can differ.  Each fixed-start game is played again on the turned grid;"
                          " the difference (original minus turned) is paired by deal, with a"
                          f" Student t 95% interval.  {percent(same_game, 0)} of the pairs end with the"
                          " same margin.  " + orientation_sentence(orient_table.iloc[0]),
                          orient_table),
                  Section("Start cells the second player chose", "How often the search player (second) picked"
                          " each central cell (share with a Wilson 95% interval).  The search compares the four"
                          " cells by heuristic estimates, which often tie early in the deepening; ties are"
                          " drawn with the player's seeded generator.", start_table)],
        games=len(chosen) + len(fixed) + len(turned),
        rules=rules_text(f"Players: the search player in both seats ({STUDY_NODES:,} nodes per move,"
                         " objective margin); one game per deal."
                         + ("" if published else "  crosskings.net's published self-play (reach \"any\") is not"
                            " compared: these games follow another rule."), reach),
    )


def first_player_headline(table: pd.DataFrame, compare: pd.DataFrame, paired: pd.DataFrame, *,
                          published: bool = True) -> str:
    """The first-player study's headline, every comparison worded from its interval.

    Parameters
    ----------
    table : DataFrame
        The "First player's results" table (rows: chooses the start cell, fixed start).
    compare : DataFrame
        The comparison table, with ``win_minus_published`` and its interval.
    paired : DataFrame
        The paired differences (choice minus fixed start); row 0 is the margin.
    published : bool
        Compare with crosskings.net's published figures (reach "any" only).

    Returns
    -------
    str
        Against crosskings.net's published 67.5%, "below" or "above" only where the
        interval of the difference excludes 0; the start-cell choice "changes" the
        margin only where its paired interval excludes 0.
    """
    a, b = table.iloc[0], table.iloc[1]
    d = compare.iloc[1]
    versus = sign_word(d["win_minus_published_low"], d["win_minus_published_high"], "above", "below",
                       "not separable from")
    pub = (f"{versus} crosskings.net's published {percent(PUBLIC_SELF_PLAY['win'], 1)} (fixed start minus published:"
           f" {number(100 * d['win_minus_published'], '+.1f')} percentage points, 95% CI"
           f" {number(100 * d['win_minus_published_low'], '+.1f')} to {number(100 * d['win_minus_published_high'], '+.1f')})")
    if not published:
        pub = "under reach \"nearest\""
    p = paired.iloc[0]
    effect = sign_word(p["difference_low"], p["difference_high"], "raises it by", "lowers it by",
                       "changes it by an amount not separable from 0:", "changes it by")
    return (f"Under strong play (search vs search, {STUDY_NODES:,} nodes a move) the first player wins"
            f" {percent(a['win'], 1)} (95% CI {percent(a['win_low'], 1)}-{percent(a['win_high'], 1)}) of {count(int(a['games']), 'game', grouped=True)}"
            f" when the second player chooses the start cell and {percent(b['win'], 1)} ({percent(b['win_low'], 1)}-{percent(b['win_high'], 1)})"
            f" from the fixed start (2,2), {pub}; mean margin {number(a['margin'], '+.2f')} and {number(b['margin'], '+.2f')} points"
            f" (the choice {effect} {number(p['difference'], '+.2f')}, {ci_text(p['difference_low'], p['difference_high'])},"
            f" on the same {'deal' if p.get('games', 0) == 1 else 'deals'}).")


def orientation_sentence(row: pd.Series) -> str:
    """What the orientation check's margin difference shows: a bias only when the
    interval excludes 0; otherwise none measurable, bounded by the interval (an interval
    covering 0 does not show that there is none).  A zero-width interval (every deal gave
    the same difference, the table's "no spread") is said as such, not as an interval
    "between 0.00 and 0.00" that covers 0 (session 24).

    Parameters
    ----------
    row : Series
        ``difference``, ``difference_low``, ``difference_high`` (points), and optionally
        ``games`` (the deals paired).

    Returns
    -------
    str
        One sentence on the orientation check.
    """
    lo, hi = row["difference_low"], row["difference_high"]
    if math.isnan(lo) or math.isnan(hi):
        return (f"From one deal there is no interval: the orientation moved the first player's margin by"
                f" {number(row['difference'], '+.2f')} points in that game, which cannot tell a bias from chance.")
    if lo == hi:   # every pair gave the same difference: no spread seen, which is not certainty
        d = number(row["difference"], "+.2f")
        pairs = count(int(row["games"]), "deal", grouped=True) if "games" in row.index else "these deals"
        if row["difference"] == 0:
            return (f"The orientation did not move the first player's margin on any of {pairs} (no spread: a"
                    f" difference of {d} points every time), so there is no interval to bound a bias with;"
                    " no spread is not certainty that there is none.")
        return (f"The orientation moved the first player's margin by the same {d} points on each of {pairs}"
                " (no spread), so there is no interval to measure it with; no spread is not certainty.")
    if lo > 0 or hi < 0:
        return (f"The interval excludes 0: on these games the orientation moved the first player's margin by"
                f" {number(row['difference'], '+.2f')} points ({number(lo, '+.2f')} to {number(hi, '+.2f')}).")
    return (f"The interval covers 0: no bias from the orientation is measurable at this size (the interval"
            f" leaves room for one between {number(lo, '+.2f')} and {number(hi, '+.2f')} points).")


def start_cell_table(starts: pd.Series) -> pd.DataFrame:
    """How often each of the four central cells was chosen as the start cell.

    Parameters
    ----------
    starts : Series of int
        The start cell (index 0..35) of each game.

    Returns
    -------
    DataFrame
        One row per central cell in grid order, cells never chosen included (0 games):
        ``start_cell``, ``games``, ``share_rate`` with its Wilson 95% interval.
    """
    counts = starts.astype(int).value_counts()
    games = np.array([int(counts.get(c, 0)) for c in CENTRAL_CELLS])
    table = pd.DataFrame({"start_cell": [cell_text(c) for c in CENTRAL_CELLS], "games": games})
    return table.assign(**_rate_cols("share_rate", games, len(starts)))


# ----------------------------------------------------------------------------- start cell

_START_NODES = 1_000_000


def start_cell_chunk(chunk_index: int, n_games: int, seed: np.random.SeedSequence, *, chunk_size: int,
                     root_seed: int, nodes: int, estimate_nodes: int, reach: str = "any") -> list[dict[str, Any]]:
    """Per deal: the search estimate of each start cell (second's view) and the margin
    second reaches from each cell in search-vs-search play.

    Parameters
    ----------
    chunk_index : int
        The chunk's number: its ``k``-th item is number ``chunk_index * chunk_size + k``.
    n_games : int
        Items in this chunk.
    seed : numpy.random.SeedSequence
        The runner's chunk seed (unused: item ``d`` is seeded from ``[root_seed, d]``).
    chunk_size : int
        Items per chunk of the run.
    root_seed : int
        The study's seed.
    nodes : int
        Search nodes per move in the games.
    estimate_nodes : int
        Search nodes of the start-cell estimate.
    reach : {"any", "nearest"}
        The rules option reach of the deals.

    Returns
    -------
    list of dict
        One per deal: ``deal``, ``chosen`` (the estimate's best cell), ``player_choice``,
        and for each central cell ``c`` ``est_<c>`` (the estimate, points) and
        ``margin_<c>`` (second's final margin in points from that cell).
    """
    p = make_player("search", node_limit=nodes)
    rows = []
    for k in range(n_games):
        d = chunk_index * chunk_size + k
        deal = Deal.random(np.random.default_rng(np.random.SeedSequence([root_seed, d])))
        pos = deal.position(reach)
        sol = solve(seat_view(pos, pos.to_move).public_position(), mode="game", node_limit=estimate_nodes, tt_mb=16)
        est = {cell_index(m.cell): float(m.value if m.value is not None else m.upper) for m in sol.moves}
        best = cell_index(sol.best_move)
        # the player's own choice (ties drawn with a generator of this deal's own)
        pick = p.choose(seat_view(pos, "second"), np.random.default_rng(np.random.SeedSequence([root_seed, d, 1])))
        row: dict[str, Any] = {"deal": d, "chosen": best, "player_choice": cell_index(pick)}
        for c in CENTRAL_CELLS:
            g = play_game(pos, p, p, start=c)
            row[f"est_{c}"] = est[c]
            row[f"margin_{c}"] = g.scores[1] - g.scores[0]
        rows.append(row)
    return rows


@study("cross_kings_start_cell", game="cross_kings", title="Cross Kings: how much is the second player's start-cell choice worth?",
       quick_games=4, full_games=360, options=("reach",))
def start_cell(games: int, seed: int, executor=None, reach: str = "any") -> StudyResult:
    """The four start cells of each deal: search estimates and margins reached in play.

    Parameters
    ----------
    games : int
        Deals (each played from all four start cells).
    seed : int
        Root seed (``crowns report --seed``).
    executor : concurrent.futures.Executor, optional
        Runs the chunks (default: in this process).
    reach : {"any", "nearest"}
        The rules option reach (RULES.md, Cross Kings, "Move"; ``crowns report --reach``).

    Returns
    -------
    StudyResult
        Sections "What playing from each cell gives", "Search estimates of the four
        cells" and "Each cell" (margins in points, 95% intervals).
    """
    params = {"chunk_size": 2, "root_seed": int(seed), "nodes": STUDY_NODES, "estimate_nodes": _START_NODES,
              "reach": reach}
    df = montecarlo.run(start_cell_chunk, int(games), params=params, seed=int(seed), chunk_size=2,
                        executor=executor, meta={"game": "cross-kings"})
    cells = list(CENTRAL_CELLS)
    est = df[[f"est_{c}" for c in cells]].to_numpy(dtype=float)
    mar = df[[f"margin_{c}" for c in cells]].to_numpy(dtype=float)
    n = len(df)
    idx = {c: j for j, c in enumerate(cells)}
    chosen_j = np.array([idx[int(c)] for c in df["chosen"]])
    worst_j = est.argmin(axis=1)
    rows_est = []
    for label, vals in (("best cell (search estimate)", est.max(axis=1)),
                        ("average of the four cells", est.mean(axis=1)),
                        ("worst cell (search estimate)", est.min(axis=1)),
                        ("best minus average", est.max(axis=1) - est.mean(axis=1)),
                        ("best minus worst", est.max(axis=1) - est.min(axis=1))):
        m, lo, hi = mean_ci(vals)
        rows_est.append({"quantity": label, "games": n, "margin": m, "margin_low": lo, "margin_high": hi})
    t_est = pd.DataFrame(rows_est)
    player_j = np.array([idx[int(c)] for c in df["player_choice"]])
    played = {
        "cell the search ranks best": mar[np.arange(n), chosen_j],
        f"cell the search player picks ({STUDY_NODES // 1000}k nodes)": mar[np.arange(n), player_j],
        "average over the four cells": mar.mean(axis=1),
        "cell the search ranks worst": mar[np.arange(n), worst_j],
    }
    rows_play = []
    for label, vals in played.items():
        m, lo, hi = mean_ci(vals)
        rows_play.append({"start": label, "games": n, "margin": m, "margin_low": lo, "margin_high": hi})
    avg = played["average over the four cells"]
    for label, vals in (("gain: best-ranked minus average", played["cell the search ranks best"] - avg),
                        ("gain: the player's pick minus average", played[f"cell the search player picks ({STUDY_NODES // 1000}k nodes)"] - avg),
                        ("gain: best-ranked minus worst-ranked", played["cell the search ranks best"] - played["cell the search ranks worst"])):
        m, lo, hi = mean_ci(vals)
        rows_play.append({"start": label, "games": n, "margin": m, "margin_low": lo, "margin_high": hi})
    t_play = pd.DataFrame(rows_play)
    per_cell = []
    for j, c in enumerate(cells):
        m, lo, hi = mean_ci(mar[:, j])
        k = int(np.sum(player_j == j))
        plo, phi = proportion_ci(k, n)
        per_cell.append({"start_cell": cell_text(c), "games": n, "margin": m, "margin_low": lo, "margin_high": hi,
                         "picked_rate": k / n, "picked_rate_low": float(plo), "picked_rate_high": float(phi)})
    t_cells = pd.DataFrame(per_cell)
    spread = mar.max(axis=1) - mar.min(axis=1)
    same = float(np.mean(spread == 0))

    fig = new_figure(7.2, 4.2)
    ax = fig.add_subplot()
    x = np.arange(3)
    e3 = t_est.iloc[:3]
    p3 = t_play.iloc[[0, 2, 3]]
    ax.bar(x - 0.2, e3["margin"], 0.4, yerr=_errbars(e3["margin"], e3["margin_low"], e3["margin_high"]),
           capsize=3, label="search estimate (1M nodes)", color="tab:blue")
    ax.bar(x + 0.2, p3["margin"], 0.4, yerr=_errbars(p3["margin"], p3["margin_low"], p3["margin_high"]),
           capsize=3, label="margin reached in search-vs-search play", color="tab:orange")
    ax.axhline(0, color="black", lw=0.6)
    ax.set_xticks(x, ["best-ranked cell", "average cell", "worst-ranked cell"])
    # a deal is one observation (its four games, one per start cell, share its cards)
    ax.set(title=f"Second player's margin by start cell\n({intervals_over(n, 'deal')}){rules_line(reach)}",
           ylabel="margin, second minus first (points)", xlabel="start cell chosen")
    ax.legend(fontsize=8)
    fig.tight_layout()

    headline = start_cell_headline(t_est, t_play, n, reach=reach)
    text_est = (
        "For each seeded deal the solver analyses the fresh position in game mode (face-down cards"
        f" unknown) for {_START_NODES:,} nodes: iterative deepening over all four start cells with the"
        " heuristic at the horizon.  These are estimates, not exact values (a fresh deal is far beyond exact"
        " search): the expected margin for the second player, points.  Mean over deals with a"
        " Student t 95% interval.")
    text_play = (
        f"Each deal is then played four times, once from each start cell, search against search ({STUDY_NODES:,}"
        " nodes a move), and the second player's final margin recorded.  Comparing the cell the analysis"
        " ranks best with the average of the four is an unbiased estimate of what the choice is worth in"
        " play (the best cell in hindsight would not be: it would use the face-down cards).  In"
        f" {percent(same, 0)} of deals all four starts ended with the same margin.")
    return StudyResult(
        headline=headline,
        sections=[Section("What playing from each cell gives", text_play, t_play, fig),
                  Section("Search estimates of the four cells", text_est, t_est),
                  Section("Each cell", "The second player's margin from each central cell (mean over deals, 95%"
                          " interval; the deal is random, so the four cells are alike in expectation) and how often"
                          f" the search player ({STUDY_NODES:,} nodes) picks it (Wilson interval).", t_cells)],
        games=4 * n,
        rules=rules_text(f"Players: the search player in both seats ({STUDY_NODES:,} nodes a move); four games"
                         " per deal, one from each central start cell.", reach),
    )


def start_cell_headline(t_est: pd.DataFrame, t_play: pd.DataFrame, deals: int, *, reach: str = "any") -> str:
    """The start-cell study's headline.  A gain (or a loss) is claimed only where its
    interval excludes 0, for each of the two comparisons; the search's own expectation is
    given with its interval.

    Parameters
    ----------
    t_est : DataFrame
        The search estimates (row 3: best minus average), ``margin`` with its interval.
    t_play : DataFrame
        The margins in play (rows 4 and 6: the paired gains of the best-ranked cell over
        an average cell and over the worst-ranked one).
    deals : int
        Deals played.
    reach : {"any", "nearest"}
        The rules option reach of the games; other than "any", the headline opens with it.

    Returns
    -------
    str
        The headline: one or two sentences.
    """
    g1, g2, est = t_play.iloc[4], t_play.iloc[6], t_est.iloc[3]
    words = [sign_word(g["margin_low"], g["margin_high"], "a measurable gain", "a measurable loss",
                       "no difference measurable", "nothing measurable from one deal") for g in (g1, g2)]
    if words[0] == words[1] == "nothing measurable from one deal":
        verdict = words[0]
    elif words[0] == words[1]:
        verdict = f"{words[0]} against either at this size"
    else:
        verdict = f"{words[0]} against an average cell, {words[1]} against the worst-ranked one at this size"
    lead = "The" if reach == "any" else f"Under reach \"{reach}\", the"
    return (f"{lead} search expects its best-ranked start cell to be worth {number(est['margin'])} points more than an"
            f" average cell ({ci_text(est['margin_low'], est['margin_high'], '.2f')}); in search-vs-search play"
            f" over {count(deals, 'deal', grouped=True)} starting there changed the second player's margin by"
            f" {number(g1['margin'], '+.2f')} points ({ci_text(g1['margin_low'], g1['margin_high'])}) against an average cell"
            f" and {number(g2['margin'], '+.2f')} ({ci_text(g2['margin_low'], g2['margin_high'], prefix='')}) against the"
            f" worst-ranked one: {verdict}.")


# ----------------------------------------------------------------------------- open vs game

ENDGAME_CARDS = (8, 10, 12, 14)
_MAX_PLACEMENTS = 48


def endgame_chunk(chunk_index: int, n_games: int, seed: np.random.SeedSequence, *, chunk_size: int,
                  root_seed: int, reach: str = "any") -> list[dict[str, Any]]:
    """Per position: exact game value and the exact open value of each placement of the unseen cards.

    Parameters
    ----------
    chunk_index : int
        The chunk's number: its ``k``-th item is number ``chunk_index * chunk_size + k``.
    n_games : int
        Items in this chunk.
    seed : numpy.random.SeedSequence
        The runner's chunk seed (unused: item ``d`` is seeded from ``[root_seed, d]``).
    chunk_size : int
        Items per chunk of the run.
    root_seed : int
        The study's seed.
    reach : {"any", "nearest"}
        The rules option reach of the deals (RULES.md, Cross Kings, "Move"): the greedy
        play to the endgame and both exact values follow it.

    Returns
    -------
    list of dict
        One per endgame: ``position``, ``cards_left``, ``face_down``, ``placements``,
        ``all_placements``, ``game`` (exact game value, points), ``open_mean``,
        ``abs_gap_mean``, ``differs_rate``.
    """
    greedy = make_player("greedy")
    rows = []
    for k in range(n_games):
        d = chunk_index * chunk_size + k
        left = ENDGAME_CARDS[d % len(ENDGAME_CARDS)]
        attempt = 0
        while True:   # greedy play from a seeded deal down to `left` cards with a card face down
            rng = np.random.default_rng(np.random.SeedSequence([root_seed, d, attempt]))
            pos = Position.random(rng, reach)
            while pos.cards_left > left and not pos.is_terminal():
                pos = pos.play(greedy.choose(seat_view(pos, pos.to_move), rng))
            if pos.cards_left == left and pos.face_down and not pos.is_terminal():
                break
            attempt += 1
        pub = seat_view(pos, pos.to_move).public_position()
        game = solve(pub, mode="game", tt_mb=16).value
        cells = sorted(pos.face_down)
        cards = [pos.cells[i] for i in cells]
        perms = list(itertools.permutations(cards)) if math.factorial(len(cards)) <= _MAX_PLACEMENTS else [
            tuple(rng.permutation(cards)) for _ in range(_MAX_PLACEMENTS)]
        opens = []
        for perm in perms:
            cell_cards = list(pos.cells)
            for i, c in zip(cells, perm):
                cell_cards[i] = int(c)
            placed = replace(pos, cells=tuple(cell_cards), hidden_order=None)
            opens.append(float(solve(placed, mode="open", tt_mb=4).value))
        opens_arr = np.array(opens)
        rows.append({"position": d, "cards_left": left, "face_down": len(cells), "placements": len(perms),
                     "all_placements": int(math.factorial(len(cards)) <= _MAX_PLACEMENTS),
                     "game": float(game), "open_mean": float(opens_arr.mean()),
                     "abs_gap_mean": float(np.abs(opens_arr - float(game)).mean()),
                     "differs_rate": float(np.mean(opens_arr != float(game)))})
    return rows


@study("cross_kings_open_vs_game", game="cross_kings", title="Cross Kings endgames: what would seeing the face-down cards be worth?",
       quick_games=16, full_games=320, options=("reach",))
def open_vs_game(games: int, seed: int, executor=None, reach: str = "any") -> StudyResult:
    """Exact open vs exact game value of seeded endgames, by cards left.

    Parameters
    ----------
    games : int
        Endgame positions.
    seed : int
        Root seed (``crowns report --seed``).
    executor : concurrent.futures.Executor, optional
        Runs the chunks (default: in this process).
    reach : {"any", "nearest"}
        The rules option reach (RULES.md, Cross Kings, "Move"; ``crowns report --reach``):
        the endgames are reached and solved under it.

    Returns
    -------
    StudyResult
        Section "Open vs game value by cards left" (gaps in points, 95% intervals).
    """
    df = montecarlo.run(endgame_chunk, int(games), params={"chunk_size": 4, "root_seed": int(seed), "reach": reach},
                        seed=int(seed), chunk_size=4, executor=executor, meta={"game": "cross-kings"})
    rows = []
    for left, g in df.groupby("cards_left"):
        gap = (g["open_mean"] - g["game"]).to_numpy()
        m, lo, hi = mean_ci(gap)
        a, alo, ahi = mean_ci(g["abs_gap_mean"].to_numpy())
        # a share per position (0..1): Wilson on the positions' effective number (0 or 1 everywhere keeps a width)
        dr, dlo, dhi = montecarlo.cluster_wilson_interval(g["differs_rate"].to_numpy(dtype=float), np.ones(len(g)))
        rows.append({"cards_left": int(left), "games": len(g), "face_down_mean": float(g["face_down"].mean()),
                     "game_value": float(g["game"].mean()), "open_value": float(g["open_mean"].mean()),
                     "seeing_worth": m, "seeing_worth_low": lo, "seeing_worth_high": hi,
                     "abs_gap": a, "abs_gap_low": _at_least_0(alo), "abs_gap_high": ahi,   # a mean of |gaps| >= 0
                     "differs_rate": dr, "differs_rate_low": dlo, "differs_rate_high": dhi})
    table = pd.DataFrame(rows)
    fig = new_figure(7.0, 4.2)
    ax = fig.add_subplot()
    x = table["cards_left"].to_numpy()
    ax.errorbar(x - 0.1, table["seeing_worth"], yerr=_errbars(table["seeing_worth"], table["seeing_worth_low"],
                table["seeing_worth_high"]), fmt="o-", capsize=3, label="mean open value minus game value")
    ax.errorbar(x + 0.1, table["abs_gap"], yerr=_errbars(table["abs_gap"], table["abs_gap_low"], table["abs_gap_high"]),
                fmt="s--", capsize=3, label="mean |open value of one deal - game value|")
    ax.axhline(0, color="black", lw=0.6)
    ax.set_xticks(x)
    ax.set(title="Open (all cards known) vs game value of endgames\n"
                 f"({intervals_over(table['games'], 'position', each='per point')}){rules_line(reach)}",
           xlabel="cards left on the grid",
           ylabel="margin for the player to move (points)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    allp = float(df["all_placements"].mean())
    mean_all, lo_all, hi_all = mean_ci((df["open_mean"] - df["game"]).to_numpy())
    abs_all, abs_lo, abs_hi = mean_ci(df["abs_gap_mean"].to_numpy())
    under = "If" if reach == "any" else f"Under reach \"{reach}\", if"
    headline = (f"{under} both players could see the face-down cards, an endgame's exact value for the player to move"
                f" would change by {number(mean_all, '+.2f')} points on average ({ci_text(lo_all, hi_all, one='one position')})"
                f" over {count(len(df), 'position', grouped=True)} with {_span(df['cards_left'])} cards left, while the"
                f" open value of any one deal lies on average {abs_all:.2f} points from the game value"
                f" ({ci_text(_at_least_0(abs_lo), abs_hi, '.2f', one='one position')}).")
    text = (
        f"Positions: greedy play from seeded deals down to {', '.join(map(str, ENDGAME_CARDS))} cards left, keeping"
        " positions with at least one card still face down.  The game value (face-down cards unknown,"
        " expectiminimax) and the open value (all cards known, minimax) are both exact, for the player to"
        " move, final margin in points.  The open value is averaged over every placement of the unseen"
        f" cards in the face-down cells (all of them when there are at most {_MAX_PLACEMENTS}, else"
        f" {_MAX_PLACEMENTS} seeded random placements; all placements were used for {percent(allp, 0)} of positions)."
        "  `seeing_worth` = mean open value minus game value: what it would be worth to the player to move"
        " if both players saw every card (RULES.md: the information is symmetric, so this is not the"
        " value of a private peek).  `abs_gap`: how far the open value of one deal typically lies from the"
        " game value (why averaging open values of sampled deals is not the game value's method, and why"
        " a double-dummy answer misleads).  `differs_rate`: share of placements whose open value differs"
        " from the game value.  `games`: positions in the row; `face_down_mean`: face-down cells per position;"
        " `game_value`, `open_value`: their means over the positions (points).  Intervals: Student"
        " t over positions.")
    return StudyResult(
        headline=headline,
        sections=[Section("Open vs game value by cards left", text, table, fig)],
        games=len(df),
        rules=rules_text("Positions reached by the greedy player in both seats; values by the exact solver"
                         " (no limits).", reach),
        intervals=("Intervals are 95%, over positions: Student t intervals for the means (`abs_gap`'s clipped at"
                   " 0); `differs_rate` is a mean of per-position shares, with Wilson's interval on the positions'"
                   " effective number (Korn & Graubard 1998), inside 0..1."),
    )


def _at_least_0(low: float) -> float:
    """A low bound of a mean of values >= 0, clipped at 0; NaN (no interval: one position)
    stays NaN (``max(0.0, nan)`` is 0.0, which showed a low bound without a high one)."""
    return low if low != low else max(0.0, low)


def _span(cards_left: pd.Series) -> str:
    """The cards left the positions have, as the headline says it: ``"8-14"``, or ``"8"``
    when every position has the same (it said 8-14 whatever the run found)."""
    lo, hi = int(cards_left.min()), int(cards_left.max())
    return f"{lo}" if lo == hi else f"{lo}-{hi}"


# ----------------------------------------------------------------------------- players

PAIRINGS: tuple[tuple[str, dict[str, Any], str, dict[str, Any]], ...] = (
    ("search", {"node_limit": 100_000}, "greedy", {}),
    ("search", {"node_limit": 20_000}, "greedy", {}),
    ("search", {"node_limit": 100_000}, "random", {}),
    ("greedy", {}, "random", {}),
    ("search", {"node_limit": 100_000}, "search", {"node_limit": 20_000}),
    ("clairvoyant", {"node_limit": 100_000}, "search", {"node_limit": 100_000}),
    ("clairvoyant", {"node_limit": 100_000}, "greedy", {}),
)


#: The closing line of the players study's report: how a duplicate match's intervals are computed.
MATCH_INTERVALS = ("Intervals are 95%, over deals (a deal's two games share its cards, so each deal is one"
                   " observation): for rates Wilson score intervals on the effective number of games of the"
                   " clustered rate (Korn & Graubard 1998), which stay inside 0..1; Student t intervals over the"
                   " deals' mean margins.")


def _label(name: str, opts: dict[str, Any]) -> str:
    if "node_limit" in opts:
        name = f"{name} {opts['node_limit'] // 1000}k"
    return name + (" (CHEATS)" if name.startswith("clairvoyant") else "")


@study("cross_kings_players", game="cross_kings", title="Cross Kings: greedy vs solver-backed play",
       quick_games=14, full_games=700, options=("reach",))
def players(games: int, seed: int, executor=None, reach: str = "any") -> StudyResult:
    """Duplicate matches between the players, A's results with 95% intervals.

    Parameters
    ----------
    games : int
        Shared by the matches: each plays ``games // len(PAIRINGS)`` deals (at least 1),
        each deal twice with seats exchanged.
    seed : int
        Root seed (``crowns report --seed``).
    executor : concurrent.futures.Executor, optional
        Runs the chunks (default: in this process).
    reach : {"any", "nearest"}
        The rules option reach (RULES.md, Cross Kings, "Move"; ``crowns report --reach``).

    Returns
    -------
    StudyResult
        Section "Matches": A's results with 95% intervals.
    """
    deals = max(1, games // len(PAIRINGS))
    rows, deal_counts = [], []
    for k, (a, ao, b, bo) in enumerate(PAIRINGS):
        res = match(a, b, deals, seed=seed + k, a_options=ao, b_options=bo, executor=executor, reach=reach)
        s = res.summary
        note_sample(s["deals"])   # its intervals are over deals
        deal_counts.append(s["deals"])
        rows.append({"player_a": _label(a, ao), "player_b": _label(b, bo), "games": s["games"],
                     "win": s["win"], "win_low": s["win_low"], "win_high": s["win_high"],
                     "draw": s["draw"], "draw_low": s["draw_low"], "draw_high": s["draw_high"],
                     "loss": s["loss"], "loss_low": s["loss_low"], "loss_high": s["loss_high"],
                     "score_rate": s["score"], "score_rate_low": s["score_low"], "score_rate_high": s["score_high"],
                     "margin": s["margin"], "margin_low": s["margin_low"], "margin_high": s["margin_high"],
                     "ms_per_move_a": 1000 * s["seconds_per_move_a"], "ms_per_move_b": 1000 * s["seconds_per_move_b"]})
    table = pd.DataFrame(rows)
    fig = new_figure(7.4, 4.4)
    ax = fig.add_subplot()
    y = np.arange(len(table))[::-1]
    colours = ["tab:red" if "CHEATS" in a else "tab:blue" for a in table["player_a"]]
    ax.barh(y, table["score_rate"], xerr=_errbars(table["score_rate"], table["score_rate_low"], table["score_rate_high"]),
            capsize=3, color=colours)
    ax.axvline(0.5, color="black", lw=0.6, ls="--")
    ax.set_yticks(y, [f"{a} vs {b}" for a, b in zip(table["player_a"], table["player_b"])], fontsize=8)
    ax.set_xlim(0, 1)
    # duplicate matches: a deal (its two games, seats exchanged) is one observation
    ax.set(title="Player A's score per game (win 1, draw 1/2)\n"
                 f"{intervals_over(deal_counts, 'deal', each='per match (2 games each)')}{rules_line(reach)}",
           xlabel="score per game (0..1)", ylabel="match (A vs B)")
    from matplotlib.patches import Patch

    fig.legend(handles=[Patch(color="tab:blue", label="honest players"),
                        Patch(color="tab:red", label="A cheats (sees face-down cards)")], fontsize=8,
               loc="lower center", ncol=2)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    headline = players_headline(table, reach=reach)
    text = (
        f"Each match: {count(deals, 'seeded deal', grouped=True)}, each played twice with the seats exchanged (duplicate format; the"
        " deal, face-down cards included, is the same in both games).  The two games of a deal are not"
        " independent, so every interval counts the deal as one observation: player A's win/draw/loss rates"
        " and score (win 1, draw 1/2) have Wilson 95% intervals on the effective number of games of the"
        " clustered rate (Korn & Graubard 1998), and the mean margin (A minus B, points) a Student t 95%"
        " interval over the deals' mean margins.  `search Nk`: game-value search with N thousand nodes a move (heuristic"
        " at the horizon, exact within reach).  **The clairvoyant player cheats**: it searches the open value"
        " with every face-down card known; it is here only to measure what that knowledge is worth.  Time per"
        " move in milliseconds on the machine that ran the report.")
    return StudyResult(
        headline=headline,
        sections=[Section("Matches", text, table, fig)],
        games=int(table["games"].sum()),
        rules=rules_text("Players: random (uniform), greedy (best immediate score gain), search (game value,"
                         " node-limited), clairvoyant (open value: CHEATS).  Second player chooses the start"
                         " cell.", reach),
        intervals=MATCH_INTERVALS,
    )


def players_headline(table: pd.DataFrame, *, reach: str = "any") -> str:
    """The players study's headline: each score with its interval and its opponent
    named, and whether it lies above one half.

    Parameters
    ----------
    table : DataFrame
        The match table, rows in :data:`PAIRINGS` order (row 0 search 100k vs greedy,
        row 5 clairvoyant vs search 100k).
    reach : {"any", "nearest"}
        The rules option reach of the games; other than "any", the headline opens with it.

    Returns
    -------
    str
        The headline: one or two sentences.
    """
    sg, cs = table.iloc[0], table.iloc[5]

    def side(row: pd.Series) -> str:
        return sign_word(row["score_rate_low"] - 0.5, row["score_rate_high"] - 0.5, "above", "below",
                         "not separable from")

    lead = "The" if reach == "any" else f"Under reach \"{reach}\", the"
    return (f"{lead} search player (100k nodes a move) scores {percent(sg['score_rate'], 1)} against greedy (95% CI"
            f" {percent(sg['score_rate_low'], 1)}-{percent(sg['score_rate_high'], 1)}, {side(sg)} one half; mean margin"
            f" {number(sg['margin'], '+.2f')} points, {ci_text(sg['margin_low'], sg['margin_high'])}) over"
            f" {count(int(sg['games']), 'duplicate game', grouped=True)}; the clairvoyant player, which cheats by seeing"
            f" the face-down cards, scores {percent(cs['score_rate'], 1)} against that search player (95% CI"
            f" {percent(cs['score_rate_low'], 1)}-{percent(cs['score_rate_high'], 1)}, {side(cs)} one half;"
            f" {count(int(cs['games']), 'game', grouped=True)}).")
