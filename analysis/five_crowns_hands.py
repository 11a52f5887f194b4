"""Five Crowns: how often a dealt hand can go out at once, and what a stuck hand costs.

Two studies:

- ``five_crowns_deals``: many seeded deals of n = 3..13 cards from a full 116-card set
  (or two shuffled together, rules option sets), each solved exactly with the meld
  solver: is the hand complete as dealt (deadwood 0, so its first turn goes out
  whatever it draws), and the exact chance that its first blind draw lets it go out
  (over the 116 - n cards it has not seen, 232 - n with two sets, each weighed by its
  copies left); also the deadwood as dealt.
- ``five_crowns_stuck``: games of 4 advisor players.  A hand is *stuck* in a round when
  another player goes out and, after its one last turn and laying down what it can, it
  still keeps cards that meld in nothing (it scores points); its *cost* is those points.
  By round: the share of hands stuck, the mean cost of a stuck hand, and how being stuck
  in that round changes the chance to win the game.

Both take the Five Crowns rules options ``sets`` and ``all_wild_melds`` as keyword
arguments (``crowns report --sets 2`` / ``--no-all-wild-melds``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from crowns_solver.errors import StudyError
from crowns_solver.montecarlo import cluster_wilson_interval
from crowns_solver.five_crowns.cards import full_deck
from crowns_solver.five_crowns.melds import can_go_out_batch, deadwood_batch
from crowns_solver.five_crowns.rules import Rules
from crowns_solver.five_crowns.simulation import simulate

from ._five_crowns_common import (CARDS, PLAYERS, RANK_WORD, ROUNDS, SET_SIZE, deck_text, errorbars, game_rules,
                                  melds_text, rules_lead, rules_line, rules_text, sub_seed)
from crowns_solver._text import count, intervals_over, number, percent

from ._intervals import ci_text, ratio_ci, ratio_diff_ci, sign_word
from .base import Section, StudyResult, mean_ci, new_figure, proportion_ci, study

#: Cards in one set (:data:`~crowns_solver.analysis._five_crowns_common.SET_SIZE`); two
#: sets shuffled together hold twice as many.
DECK_SIZE = SET_SIZE


# --------------------------------------------------------------------------- dealt hands
def deal_hands(n: int, hands: int, rng: np.random.Generator, *, sets: int = 1) -> np.ndarray:
    """`hands` independent n-card deals from a shuffled 116-card set (or `sets` of them
    shuffled together), shape (hands, n).

    Parameters
    ----------
    n : int
        Cards per hand.
    hands : int
        Hands to deal (each from a freshly shuffled set).
    rng : numpy.random.Generator
        The source of the shuffles.
    sets : {1, 2}
        116-card sets shuffled together (rules option sets; default 1): 232 cards with 2,
        so a hand may hold 4 copies of a natural card and 12 jokers.

    Returns
    -------
    numpy.ndarray, shape (hands, n)
        Card codes 0..55.
    """
    deck = np.repeat(np.arange(56), full_deck(sets))
    keys = rng.random((hands, len(deck)))
    return deck[np.argsort(keys, axis=1)[:, :n]]


def first_draw_chance(hands: np.ndarray, wild: int, *, rules: Rules | None = None) -> np.ndarray:
    """For each n-card hand, the exact chance that one blind draw from the other 116 - n
    cards (232 - n with two sets) gives n + 1 cards that go out (RULES.md, Five Crowns:
    going out).

    Parameters
    ----------
    hands : numpy.ndarray, shape (m, n)
        Card codes, one hand per row.
    wild : int
        The round's wild rank, 3..13.
    rules : crowns_solver.five_crowns.Rules, optional
        Its ``sets`` (the cards not in the hand come from that many sets) and
        ``all_wild_melds`` apply; default the usual rules (one set, melds of wilds only
        allowed).

    Returns
    -------
    numpy.ndarray, shape (m,)
        The chance, 0..1, per hand.

    Raises
    ------
    DuplicateCardError
        If a hand holds a card more often than the sets hold it.
    """
    rules = rules or Rules()
    m, n = hands.shape
    counts = np.zeros((m, 56), dtype=np.int64)
    np.add.at(counts, (np.repeat(np.arange(m), n), hands.ravel()), 1)
    unseen = full_deck(rules.sets)[None, :] - counts
    who, card = np.nonzero(unseen > 0)
    rows = np.hstack([hands[who], card[:, None]])
    ok = can_go_out_batch(rows, wild, rules=rules)
    return np.bincount(who, weights=ok * unseen[who, card], minlength=m) / (DECK_SIZE * rules.sets - n)


def split_hands(hands: int) -> list[int]:
    """`hands` dealt hands split over the 11 rounds as evenly as possible (the first
    ``hands % 11`` rounds get one more), so the study deals exactly `hands` in all.

    Parameters
    ----------
    hands : int
        Hands in all.

    Returns
    -------
    list of int
        11 counts, round 1 first, summing to `hands`.

    Raises
    ------
    StudyError
        If `hands` is below 11 (every round needs at least one hand).
    """
    if hands < len(ROUNDS):
        raise StudyError(f"five_crowns_deals deals at least one hand per round: games must be at least"
                         f" {len(ROUNDS)}, got {hands}")
    per, extra = divmod(hands, len(ROUNDS))
    return [per + (k < extra) for k in range(len(ROUNDS))]


def deals_table(hands_per_round: int | list[int], seed: int, *, sets: int = 1,
                all_wild_melds: bool = True) -> pd.DataFrame:
    """Per round: hands dealt, share complete as dealt, mean chance to go out on the first
    blind draw, mean deadwood as dealt (points), each with its 95% interval.

    `hands_per_round` is one count for every round or a list of 11 (round 1 first).
    Round r's hands come from child r - 1 of ``SeedSequence(seed)``, so its first k
    hands are the same whatever the count.

    Parameters
    ----------
    hands_per_round : int or list of int
        As above.
    seed : int
        Root seed.
    sets : {1, 2}
        116-card sets the hands are dealt from (rules option sets; default 1).
    all_wild_melds : bool
        Whether a meld of wilds only counts (rules option; default True).

    Returns
    -------
    DataFrame
        One row per round 1..11 with the figures above.

    Raises
    ------
    RulesError
        If `sets` or `all_wild_melds` is not a rules option value, naming it.
    """
    rules = Rules(sets=sets, all_wild_melds=all_wild_melds)
    counts = [hands_per_round] * len(ROUNDS) if isinstance(hands_per_round, int) else list(hands_per_round)
    rows = []
    for r, child, m in zip(ROUNDS, np.random.SeedSequence(seed).spawn(len(ROUNDS)), counts):
        n = CARDS[r]
        hands = deal_hands(n, m, np.random.default_rng(child), sets=rules.sets)
        dead = deadwood_batch(hands, n, rules=rules)
        complete = int((dead == 0).sum())
        low, high = proportion_ci(complete, m)
        p = first_draw_chance(hands, n, rules=rules)
        # a rate: each hand is a cluster of its equally likely blind draws, of which
        # p * unseen go out, so the interval is Wilson's with each hand one observation
        # (cluster_wilson_interval), honest at 0 and 1; until session 23 it was Student's t
        # of the hands' chances, 0 to 0 when no hand of the round could go out
        unseen = DECK_SIZE * rules.sets - n
        pm, plo, phi = cluster_wilson_interval(np.rint(p * unseen), np.full(m, unseen))
        dm, dlo, dhi = mean_ci(dead)
        rows.append({"round": r, "cards": n, "wild": RANK_WORD[n], "games": m,
                     "complete_rate": complete / m, "complete_rate_low": float(low),
                     "complete_rate_high": float(high), "first_draw_rate": pm,
                     "first_draw_rate_low": plo, "first_draw_rate_high": phi,
                     "deadwood": dm, "deadwood_low": dlo, "deadwood_high": dhi})
    return pd.DataFrame(rows)


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def deals_headline(table: pd.DataFrame) -> str:
    """The study's headline, every figure and every hand size named in it read from
    `table` (from :func:`deals_table`): the complete rate with 3 and 13 cards, the
    sizes where it is lowest (the three lowest, or every size tied at the lowest), the
    first-draw chance with 3 and 13 cards, and the hands per round.  The lowest sizes are
    said to meld "least often" only when their 95% intervals (the table's, else Wilson's
    from the rates and counts) lie below every other size's; otherwise the headline names
    the sizes their intervals do not separate them from.

    Parameters
    ----------
    table : DataFrame
        From :func:`deals_table`.

    Returns
    -------
    str
        One sentence.
    """
    t = table.set_index("cards")
    rate = t["complete_rate"]
    if "complete_rate_low" in t:
        lows, highs = t["complete_rate_low"], t["complete_rate_high"]
    else:   # a table without intervals: Wilson's from the rates and counts
        lows, highs = (pd.Series(np.asarray(v, dtype=float), index=t.index)
                       for v in proportion_ci(rate * t["games"], t["games"]))
    low = float(rate.min())
    tied = [int(n) for n in rate.index if rate[n] == low]
    if len(tied) >= 3:
        lowest = tied
    else:
        lowest = sorted(int(n) for n in rate.sort_values(kind="stable").index[:3])
    others = [int(n) for n in rate.index if int(n) not in lowest]
    # "least often" only where every other size's interval lies above theirs
    apart = not others or float(highs[lowest].max()) < float(lows[others].min())
    sizes = _and([str(n) for n in lowest])
    if low == 0 and len(tied) >= 3:
        least = f"not once in the hands dealt with {sizes} cards"
    elif apart:
        least = f"least often with {sizes} cards (" + ", ".join(f"{percent(rate[n], 2)}" for n in lowest) + ")"
    else:
        close = [n for n in others if lows[n] <= float(highs[lowest].max())]
        least = (f"lowest with {sizes} cards (" + ", ".join(f"{percent(rate[n], 2)}" for n in lowest) + "), though "
                 f"the intervals do not separate them from {_and([str(n) for n in close])} cards")
    m = t["games"]
    per = f"{int(m.min())}" if m.min() == m.max() else f"{int(m.min())} to {int(m.max())}"
    return (f"A dealt hand melds completely (goes out at its first turn whatever it draws) "
            f"{percent(rate[3], 1)} of the time with 3 cards and {percent(rate[13], 1)} with 13, {least}; counting the first "
            f"blind draw, the chance to go out on the first turn is {percent(t.loc[3, 'first_draw_rate'], 1)} with 3 cards"
            f" and {percent(t.loc[13, 'first_draw_rate'], 1)} with 13 ({per} seeded hands per round).")


def _going_out_scale(ax: Any, table: pd.DataFrame) -> tuple[str, dict[str, Any]]:
    """Put the going-out chart's percentages on a log scale; return its y label and where
    its legend goes.

    A rate of 0 (or an interval reaching 0), common in small runs (``crowns report
    --quick`` or ``--games``: no complete hand among 10), has no place on a log scale:
    matplotlib dropped the point and cut its error bar (session 23).  Then the axis is
    symmetric-log instead (``symlog``): logarithmic above the largest power of ten at or
    below the smallest positive value plotted, linear from there down to 0, just above
    the axis' floor, and the label says so; the legend goes under the chart, off the
    zeros.  Without zeros (the full run) it stays the plain log scale.
    """
    cols = ["complete_rate", "complete_rate_low", "complete_rate_high", "first_draw_rate",
            "first_draw_rate_low", "first_draw_rate_high"]
    values = 100 * table[cols].to_numpy(dtype=float)
    values = values[np.isfinite(values)]
    if values.size == 0 or values.min() > 0:
        ax.set_yscale("log")
        return "hands (%, log scale)", {}
    positive = values[values > 0]
    floor = 10.0 ** math.floor(math.log10(positive.min())) if positive.size else 1.0
    ax.set_yscale("symlog", linthresh=floor, linscale=0.5)
    ax.set_ylim(bottom=-0.15 * floor)   # the points at 0 drawn whole, above the frame
    return (f"hands (%, log scale above {floor:g}%,\nlinear below it down to 0)",
            {"loc": "upper center", "bbox_to_anchor": (0.5, -0.16), "ncol": 2, "fontsize": 8})


@study("five_crowns_deals", game="five_crowns", title="Five Crowns: how often a dealt hand can go out at once",
       quick_games=22_000, full_games=440_000, min_games=len(ROUNDS),
       min_games_why="at least one hand per round", options=("sets", "all_wild_melds"))
def deals(games: int, seed: int, executor: Any = None, *, sets: int = 1, all_wild_melds: bool = True) -> StudyResult:
    """Seeded deals solved exactly, by round.

    Parameters
    ----------
    games : int
        Hands to deal in all (>= 11), split over the 11 rounds as evenly as possible
        (``games // 11`` each, one more in the first ``games % 11`` rounds).
    seed : int
        Root seed.
    executor : ignored
        The solving is one compiled batch per round (no simulation).
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
        Sections "Going out at once" and "Deadwood as dealt".

    Raises
    ------
    StudyError
        If `games` is below 11.
    RulesError
        If `sets` or `all_wild_melds` is not a rules option value, naming it.
    """
    table_rules = game_rules(sets, all_wild_melds)   # checked as the other studies check them, before any deal
    rules = Rules(sets=table_rules.sets, all_wild_melds=table_rules.all_wild_melds)
    counts = split_hands(games)
    table = deals_table(counts, sub_seed(seed, 30), sets=rules.sets, all_wild_melds=rules.all_wild_melds)
    headline = rules_lead(deals_headline(table), rules.sets, rules.all_wild_melds)
    fig = new_figure(7.0, 4.2)
    ax = fig.add_subplot()
    errorbars(ax, table["cards"], 100 * table["complete_rate"], 100 * table["complete_rate_low"],
              100 * table["complete_rate_high"], "complete as dealt")
    errorbars(ax, table["cards"], 100 * table["first_draw_rate"], 100 * table["first_draw_rate_low"],
              100 * table["first_draw_rate_high"], "goes out with the first blind draw")
    ylabel, legend = _going_out_scale(ax, table)
    ax.set_xticks(list(CARDS.values()))
    hands = intervals_over(table["games"], "hand", each="per point")   # each dealt hand one observation
    tag = rules_line(rules.sets, rules.all_wild_melds)
    ax.set(title=f"Going out at once, by cards dealt (wild rank = cards dealt)\n({hands}){tag}",
           xlabel="cards dealt (round 1 = 3 cards ... round 11 = 13 cards)", ylabel=ylabel)
    ax.grid(alpha=0.3, which="both")
    ax.legend(**legend)
    fig.tight_layout()
    fig2 = new_figure(7.0, 3.6)
    ax2 = fig2.add_subplot()
    errorbars(ax2, table["cards"], table["deadwood"], table["deadwood_low"], table["deadwood_high"], "deadwood")
    ax2.set_xticks(list(CARDS.values()))
    ax2.set(title=f"Deadwood of the hand as dealt\n({hands}){tag}", xlabel="cards dealt",
            ylabel="deadwood (points, mean and 95% CI)")
    ax2.grid(alpha=0.3)
    ax2.legend(["mean deadwood as dealt"])
    fig2.tight_layout()
    text = ("`complete_rate`: the share of dealt hands whose deadwood is 0 (all n cards meld), solved exactly; "
            "such a hand goes out on its first turn whatever it draws. `first_draw_rate`: the mean, over the "
            f"hands, of the exact chance that the n cards plus one blind draw from the {DECK_SIZE * rules.sets} - n"
            " cards not in the hand go out (the first player's chance on the first turn, ignoring the face-up"
            " card). "
            "Intervals: Wilson for the share; for `first_draw_rate`, Wilson's with each hand one observation "
            "(a hand's blind draws are not independent: `montecarlo.cluster_wilson_interval`), so a round where "
            "no hand could go out gets an interval above 0, not 0 to 0; Student t over hands for the mean "
            "deadwood. Each hand is a fresh shuffle "
            "of the full set (what the first seat is dealt; other seats' hands have the same distribution).")
    return StudyResult(headline=headline, sections=[
        Section("Going out at once", text, table[["round", "cards", "wild", "games", "complete_rate",
                                                   "complete_rate_low", "complete_rate_high", "first_draw_rate",
                                                   "first_draw_rate_low", "first_draw_rate_high"]], fig),
        Section("Deadwood as dealt", "The mean deadwood (points left out of melds) of the dealt hand.",
                table[["round", "cards", "games", "deadwood", "deadwood_low", "deadwood_high"]], fig2)],
        games=sum(counts),
        rules=(f"Five Crowns as in RULES.md: {deck_text(rules.sets)}; round r deals "
               f"n = r + 2 cards with n wild, jokers always wild, {melds_text(rules.all_wild_melds)}. Deadwood and "
               "going out from the library's exact meld solver (`deadwood_batch`, `can_go_out_batch`). "
               "Each round's hands come from its own child of `SeedSequence(sub-seed)`."))


# --------------------------------------------------------------------------- stuck hands
#: Games per chunk for the stuck-hand study.
STUCK_CHUNK = 20


def stuck_table(df: pd.DataFrame) -> pd.DataFrame:
    """Per round from a simulation (one row per game and seat): seat-rounds, the share of
    hands stuck (not out and scoring points), the mean cost of a stuck hand, the share of
    all points of the game taken in this round, the win rate of seats stuck / not stuck in
    this round and the difference of the two, each with its 95% interval.

    The four seats of a game are not independent (they play the same deal, and at most
    one goes out first), so every interval counts the game as one observation (the
    cluster): the rates are pooled over seats with
    :func:`crowns_solver.montecarlo.cluster_wilson_interval` (Wilson's interval on the
    effective number of seats of the clustered rate, Korn & Graubard 1998; successes: a
    stuck hand for ``stuck_rate``, a won game for the win rates, a shared win counting
    for every winner), the mean cost is the pooled mean over stuck hands with the
    linearized interval over games (:func:`~crowns_solver.analysis._intervals.ratio_ci`),
    and ``win_gap`` (stuck minus not stuck, from the same games) with
    :func:`~crowns_solver.analysis._intervals.ratio_diff_ci`.  (Before session 21 these
    were Wilson and Student t intervals over seat-rounds and stuck hands, and a Newcombe
    interval for the gap as if the two groups were independent samples.)

    Parameters
    ----------
    df : DataFrame
        From :func:`crowns_solver.five_crowns.simulate` (one row per game and seat:
        ``game``, ``won``, ``total``, ``round_r``, ``out_r``).

    Returns
    -------
    DataFrame
        One row per round: ``round``, ``cards``, ``games``, ``hands`` (seat-rounds),
        ``stuck_rate``, ``cost`` (points per stuck hand), ``points_share_rate``,
        ``win_if_stuck_rate``, ``win_if_free_rate`` (shares 0..1) and ``win_gap``
        (their difference), each but ``points_share_rate`` with ``_low`` / ``_high``.
        NaN where no hand of the round is in the group (no stuck hand: no cost).
    """
    from crowns_solver.montecarlo import cluster_wilson_interval

    def rate(mask: pd.Series) -> tuple[float, float, float]:
        # won / seat-games among the seats in mask, each game with such a seat one cluster
        grouped = df.loc[mask, "won"].astype(float).groupby(df.loc[mask, "game"].to_numpy())
        if not len(grouped):
            return (float("nan"),) * 3
        return cluster_wilson_interval(grouped.sum().to_numpy(), grouped.size().to_numpy())

    rows = []
    total_points = df["total"].sum()
    game = df["game"].to_numpy()
    for r in ROUNDS:
        pts, out = df[f"round_{r}"], df[f"out_{r}"]
        stuck = (~out) & (pts > 0)
        n = len(df)
        k = int(stuck.sum())
        per_game = pd.DataFrame({"seats": 1, "stuck": stuck.astype(int), "cost": pts.where(stuck, 0),
                                 "won_stuck": (stuck & df["won"]).astype(int), "free": (~stuck).astype(int),
                                 "won_free": (~stuck & df["won"]).astype(int)}).groupby(game).sum()
        _, low, high = cluster_wilson_interval(per_game["stuck"].to_numpy(), per_game["seats"].to_numpy())
        cost = ratio_ci(per_game["cost"], per_game["stuck"]) if k else (float("nan"),) * 3
        row: dict[str, Any] = {"round": r, "cards": CARDS[r], "games": int(df["game"].nunique()), "hands": n,
                               "stuck_rate": k / n, "stuck_rate_low": float(low), "stuck_rate_high": float(high),
                               "cost": cost[0], "cost_low": cost[1], "cost_high": cost[2],
                               "points_share_rate": float(pts.sum() / total_points) if total_points else 0.0}
        for name, mask in (("win_if_stuck_rate", stuck), ("win_if_free_rate", ~stuck)):
            row[name], row[f"{name}_low"], row[f"{name}_high"] = rate(mask)
        gap = (ratio_diff_ci(per_game["won_stuck"], per_game["stuck"], per_game["won_free"], per_game["free"])
               if 0 < k < n else (float("nan"),) * 3)
        row["win_gap"], row["win_gap_low"], row["win_gap_high"] = gap
        rows.append(row)
    return pd.DataFrame(rows)


LATE_EARLY_TEXT = (
    "Rounds 9-11 (11-13 cards) against rounds 1-3 (3-5 cards), from the same games. `stuck cost`: the mean "
    "cost of a stuck hand pooled over every stuck hand of those rounds (points); `points share`: the share of "
    "all points of all games scored in those rounds. `late`, `early`: the two values; `difference` = late "
    "minus early with its 95% interval (Student t quantile, each game one observation, since the rounds "
    "compared come from the same games).")


def late_early_table(df: pd.DataFrame) -> pd.DataFrame:
    """Rounds 9-11 against rounds 1-3: the pooled mean cost of a stuck hand and the share
    of all points, each late, early and late minus early with a 95% interval over games.

    Parameters
    ----------
    df : DataFrame
        A simulation, one row per game and seat (``game``, ``total``, ``round_r``,
        ``out_r``).

    Returns
    -------
    DataFrame
        Rows "stuck cost (points)" and "points share": ``games``, ``late``, ``early``,
        ``difference`` with ``difference_low`` / ``difference_high``.
    """
    per_game = {}
    for name, rounds in (("late", (9, 10, 11)), ("early", (1, 2, 3))):
        cost = sum(df[f"round_{r}"].where((~df[f"out_{r}"]) & (df[f"round_{r}"] > 0), 0) for r in rounds)
        count = sum(((~df[f"out_{r}"]) & (df[f"round_{r}"] > 0)).astype(int) for r in rounds)
        points = sum(df[f"round_{r}"] for r in rounds)
        g = pd.DataFrame({"game": df["game"], "cost": cost, "count": count, "points": points,
                          "total": df["total"]}).groupby("game").sum()
        per_game[name] = g
    late, early = per_game["late"], per_game["early"]
    rows = []
    for quantity, num, den in (("stuck cost (points)", "cost", "count"), ("points share", "points", "total")):
        lm = ratio_ci(late[num], late[den])[0]
        em = ratio_ci(early[num], early[den])[0]
        d, lo, hi = ratio_diff_ci(late[num], late[den], early[num], early[den])
        rows.append({"quantity": quantity, "games": len(late), "late": lm, "early": em, "difference": d,
                     "difference_low": lo, "difference_high": hi})
    return pd.DataFrame(rows)


def _late_early_chart(table: pd.DataFrame, tag: str = ""):
    """Late minus early rounds: each difference with its 95% interval (over games: the
    rounds compared come from the same games), on its own scale."""
    fig = new_figure(7.0, 2.8)
    axes = fig.subplots(1, 2)
    for ax, (_, row), scale, unit in zip(axes, table.iterrows(), (1, 100), ("points per stuck hand",
                                                                            "percentage points")):
        est, lo, hi = (scale * row[c] for c in ("difference", "difference_low", "difference_high"))
        ax.errorbar([0], [est], yerr=[[est - lo], [hi - est]], fmt="D", color="tab:blue", capsize=5,
                    label="late - early, 95% CI")
        ax.axhline(0, color="black", linewidth=1, linestyle=":", label="no difference")
        ax.set_xticks([])
        ax.set_xlim(-1, 1)
        ax.set(ylabel=unit, title=row["quantity"], xlabel="rounds 9-11 minus rounds 1-3")
        ax.grid(axis="y", alpha=0.3)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=8, loc="lower center", ncol=2)
    fig.suptitle("Late rounds minus early rounds (4 advisor players)\n"
                 f"{intervals_over(table['games'], 'game')} (a game is one observation){tag}", fontsize=11)
    fig.tight_layout(rect=(0, 0.08, 1, 1))
    return fig


def stuck_headline(table: pd.DataFrame, late_early: pd.DataFrame, games: int) -> str:
    """The stuck study's headline.  Late rounds are said to cost more or bring more points
    than early ones only where the difference's interval excludes 0; "it follows the hand
    size" only where every interval of the costlier hand sizes (cards % 3) lies above
    every interval of the cheapest; a stuck seat wins "less" only where the interval of
    the difference (``win_gap``, over games) lies below 0.

    Parameters
    ----------
    table : DataFrame
        :func:`stuck_table` (``round``, ``cards``, ``cost`` with its interval,
        ``win_if_stuck_rate``, ``win_if_free_rate``, ``win_gap_low``, ``win_gap_high``).
    late_early : DataFrame
        :func:`late_early_table`.
    games : int
        Games simulated.

    Returns
    -------
    str
        The headline: one or two sentences.
    """
    t = table.set_index("round")
    cost, share = late_early.iloc[0], late_early.iloc[1]
    cost_word = sign_word(cost["difference_low"], cost["difference_high"], "more than", "less than",
                          "not separable from", "against")
    share_word = sign_word(share["difference_low"], share["difference_high"], "more than", "less than",
                           "not separable from", "against")
    groups = table.groupby(table["cards"] % 3)
    means = groups["cost"].mean()
    high, low_ = means.idxmax(), means.idxmin()
    sizes = {m: ", ".join(str(c) for c in table["cards"] if c % 3 == m) for m in (0, 1, 2)}
    hi_part, lo_part = groups.get_group(high), groups.get_group(low_)
    if hi_part["cost_low"].isna().any() or lo_part["cost_high"].isna().any():
        follows = "from one game the hand sizes cannot be compared"
    elif hi_part["cost_low"].min() > lo_part["cost_high"].max():
        follows = "mostly it follows the hand size"
    else:
        follows = "the hand sizes' intervals overlap"
    last = t.loc[11]
    win_word = sign_word(last["win_gap_low"], last["win_gap_high"], "more often than", "less often than",
                         "about as often as (not separable)", "against")
    return (f"With 4 advisor players, a hand stuck when someone else goes out costs "
            f"{t.loc[11, 'cost']:.1f} points in the last round"
            f" ({ci_text(t.loc[11, 'cost_low'], t.loc[11, 'cost_high'], '.1f', sep='-', one='one game')}) and {t.loc[1, 'cost']:.1f} in the first; pooled over rounds 9-11 a stuck"
            f" hand costs {cost['late']:.1f}, {cost_word} the {cost['early']:.1f} of rounds 1-3 (difference"
            f" {number(cost['difference'], '+.1f')} points,"
            f" {ci_text(cost['difference_low'], cost['difference_high'], '+.1f', one='one game')});"
            f" {follows} ({hi_part['cost'].min():.1f}-{hi_part['cost'].max():.1f} points with {sizes[high]} cards,"
            f" {lo_part['cost'].min():.1f}-{lo_part['cost'].max():.1f} with {sizes[low_]}); the last three rounds"
            f" bring {percent(share['late'], 1)} of all points, {share_word} the first three's {percent(share['early'], 1)}"
            f" (difference {number(100 * share['difference'], '+.1f')} percentage points,"
            f" {ci_text(100 * share['difference_low'], 100 * share['difference_high'], '+.1f', one='one game')}),"
            f" and a seat stuck in"
            f" the last round wins {percent(last['win_if_stuck_rate'], 0)} of games, {win_word} the others'"
            f" {percent(last['win_if_free_rate'], 0)} ({count(games, 'game', grouped=True)}).")


@study("five_crowns_stuck", game="five_crowns", title="Five Crowns: the cost of a stuck hand in late rounds",
       quick_games=100, full_games=3000, options=("sets", "all_wild_melds"))
def stuck(games: int, seed: int, executor: Any = None, *, sets: int = 1, all_wild_melds: bool = True) -> StudyResult:
    """Stuck hands by round, in games of 4 advisor players.

    Parameters
    ----------
    games : int
        Games of 4 advisor players to simulate.
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
        Sections "Stuck hands by round" and "Stuck and the game".

    Raises
    ------
    RulesError
        If `sets` or `all_wild_melds` is not a rules option value (checked before any
        game), naming it.
    """
    rules = game_rules(sets, all_wild_melds)
    df = simulate(games, players=PLAYERS, policies="advisor", seed=sub_seed(seed, 40), executor=executor,
                  chunk_size=STUCK_CHUNK, rules=rules)
    table = stuck_table(df)
    late_early = late_early_table(df)
    headline = rules_lead(stuck_headline(table, late_early, int(df["game"].nunique())), rules.sets,
                          rules.all_wild_melds)
    fig = new_figure(7.0, 4.0)
    ax = fig.add_subplot()
    errorbars(ax, table["cards"], table["cost"], table["cost_low"], table["cost_high"], "mean cost of a stuck hand")
    ax.set_xticks(list(CARDS.values()))
    # each game one observation (its stuck hands are clustered): ratio_ci over games
    tag = rules_line(rules.sets, rules.all_wild_melds)
    ax.set(title="Points taken by a stuck hand, by cards dealt (4 advisor players)\n"
                 f"({intervals_over(table['games'], 'game')}, a game is one observation){tag}",
           xlabel="cards dealt (round 1 = 3 cards ... round 11 = 13 cards)", ylabel="points per stuck hand")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig2 = new_figure(7.0, 4.0)
    ax2 = fig2.add_subplot()
    errorbars(ax2, table["cards"], table["win_if_stuck_rate"], table["win_if_stuck_rate_low"],
              table["win_if_stuck_rate_high"], "stuck in this round", offset=-0.08)
    errorbars(ax2, table["cards"], table["win_if_free_rate"], table["win_if_free_rate_low"],
              table["win_if_free_rate_high"], "not stuck (out, or laid everything down)", offset=0.08)
    ax2.set_xticks(list(CARDS.values()))
    # the games holding such a seat are the observations (stuck_table's rate); they vary by round
    stuck_at = [(~df[f"out_{r}"]) & (df[f"round_{r}"] > 0) for r in ROUNDS]   # as stuck_table
    seats = [df.loc[m, "game"].nunique() for s in stuck_at for m in (s, ~s)]
    ax2.set(title="Chance to win the game, by being stuck in one round\n"
                  f"({intervals_over(seats, 'game', each='per point')}: those with such a seat){tag}",
            xlabel="cards dealt in that round",
            ylabel="win rate (share of games)")
    top = 1.4 * float(np.nanmax(table[["win_if_stuck_rate_high", "win_if_free_rate_high"]].to_numpy()))
    ax2.set_ylim(0, top)   # the room above the points is the legend's
    if top > 1:   # a rate has no ticks above 1 (a small run's axis read up to 1.4)
        ax2.set_yticks(np.linspace(0, 1, 6))
    ax2.grid(alpha=0.3)
    ax2.legend(loc="upper center", ncol=2, fontsize=8)
    fig2.tight_layout()
    text = ("A hand is **stuck** in a round when another player goes out and, after its last turn and laying "
            "down what it can, it still scores points; `cost` is the points it takes (mean over the stuck hands). "
            "`stuck_rate` is the share of all hands (seat-rounds) that are stuck; `points_share_rate` the share "
            "of all points of all games scored in that round. The four hands of a game are dealt from one deck "
            "and end when one player goes out, so they are not independent: 95% intervals count each game as "
            "one observation (the rate's Wilson interval on the effective number of hands of the clustered "
            "rate, Korn & Graubard 1998; the mean cost's with Student's t quantile on games - 1 degrees of "
            "freedom, linearization). One hand of each round goes out, so the other hands of its game are stuck "
            "less often together than independent hands would be: the rates' intervals can be narrower than "
            "Wilson's over seat-rounds, while the costs' can be wider than Student's over stuck hands.")
    win_text = ("Win rate of the game for seats that were stuck in the round against seats that were not (shared "
                "wins count for every winner), and `win_gap`, the first minus the second. The seats of one game "
                "share its result (usually one winner), so the 95% intervals count each game as one observation: "
                "Wilson on the effective number of seats for the rates, the linearized interval over games "
                "(Student t) for the gap, both groups coming from the same games. A game's winner is rarely "
                "shared, so its seats win less often together than independent seats would: the rates' "
                "intervals can be narrower than Wilson's over seat-games.")
    return StudyResult(headline=headline, sections=[
        Section("Stuck hands by round", text,
                table[["round", "cards", "games", "hands", "stuck_rate", "stuck_rate_low", "stuck_rate_high", "cost",
                       "cost_low", "cost_high", "points_share_rate"]], fig),
        Section("Late rounds against early ones", LATE_EARLY_TEXT, late_early, _late_early_chart(late_early, tag)),
        Section("Stuck and the game", win_text,
                table[["round", "cards", "games", "win_if_stuck_rate", "win_if_stuck_rate_low",
                       "win_if_stuck_rate_high", "win_if_free_rate", "win_if_free_rate_low",
                       "win_if_free_rate_high", "win_gap", "win_gap_low", "win_gap_high"]], fig2)],
        games=int(df["game"].nunique()),
        rules=rules_text(PLAYERS, ["advisor"] * PLAYERS, duplicate=False, chunk_size=STUCK_CHUNK, sets=rules.sets,
                         all_wild_melds=rules.all_wild_melds),
        intervals=("Intervals are 95%, over games (the four hands of a game share its deal and its end, so each game"
                   " is one observation): for rates Wilson score intervals on the effective number of hands or seats"
                   " of the clustered rate (Korn & Graubard 1998); for means and differences the linearized"
                   " interval with Student's t quantile on games - 1 degrees of freedom."))
