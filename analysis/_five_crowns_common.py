"""Helpers shared by the Five Crowns studies (not a study module: the name starts with _)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .base import mean_ci

#: Colours and markers per player, the same in every Five Crowns chart.
STYLE = {"random": ("tab:gray", "o"), "greedy": ("tab:orange", "s"), "advisor": ("tab:blue", "^"),
         "tracker": ("tab:green", "D")}
ROUNDS = tuple(range(1, 12))
#: Players at the table of every Five Crowns study that plays games (one of each of the
#: four computer players, the tracker's T O T O, four advisors): what ``crowns report
#: --sets`` is checked against (:func:`crowns_solver.five_crowns.game.check_sets`).
PLAYERS = 4
#: Cards in one set (RULES.md, Five Crowns: two 58-card decks).
SET_SIZE = 116
#: Cards dealt (and wild rank) in round r: r + 2 (RULES.md, Five Crowns).
CARDS = {r: r + 2 for r in ROUNDS}
RANK_WORD = {3: "3s", 4: "4s", 5: "5s", 6: "6s", 7: "7s", 8: "8s", 9: "9s", 10: "10s", 11: "Jacks", 12: "Queens",
             13: "Kings"}


def sub_seed(seed: int, tag: int) -> int:
    """A root seed for one simulation of a study, derived from the study's `seed` and a
    fixed `tag` (different studies and parts get unrelated games)."""
    return int(np.random.SeedSequence([int(seed), int(tag)]).generate_state(1, np.uint32)[0])


def game_rules(sets: Any = 1, all_wild_melds: Any = True) -> Any:
    """The GameRules of a Five Crowns study's games: :data:`PLAYERS` players under the
    rules options `sets` and `all_wild_melds`, checked before any card is dealt.

    Raises
    ------
    RulesError
        `sets` not 1 or 2 (or too few sets for the table), `all_wild_melds` not a bool;
        the message names the option (:class:`crowns_solver.five_crowns.game.GameRules`).
    """
    from crowns_solver.five_crowns.game import GameRules

    return GameRules(players=PLAYERS, sets=sets, all_wild_melds=all_wild_melds)


def deck_text(sets: int = 1) -> str:
    """The cards of a Five Crowns study's rules paragraph (RULES.md, Five Crowns): one
    116-card set, or `sets` shuffled together (rules option sets)."""
    if sets == 1:
        return f"one {SET_SIZE}-card set (two 58-card decks: 5 suits x 3..K twice, 6 jokers)"
    return (f"{'two' if sets == 2 else sets} {SET_SIZE}-card sets shuffled together ({sets * SET_SIZE} cards: 5 suits x 3..K"
            f" {2 * sets} times, {6 * sets} jokers; rules option sets {sets})")


def melds_text(all_wild_melds: bool = True) -> str:
    """Whether melds of wilds only are allowed, for a study's rules paragraph (RULES.md,
    Five Crowns, "Melds": option all_wild_melds)."""
    if all_wild_melds:
        return "melds of wilds only allowed"
    return ("melds of wilds only not allowed (rules option all_wild_melds false: every meld needs a natural"
            " card, and a card of the wild rank may stand as itself)")


def rules_lead(headline: str, sets: int = 1, all_wild_melds: bool = True) -> str:
    """`headline` as it reads under other rules options: unchanged under the default
    rules, else led by them ("Under 2 card sets (232 cards) and no melds of wilds only,
    a dealt hand ..."), so a report's finding is never read as one of the usual game."""
    parts = ([f"{sets} card sets ({sets * SET_SIZE} cards)"] if sets != 1 else []) + (
        [] if all_wild_melds else ["no melds of wilds only"])
    if not parts:
        return headline
    return f"Under {' and '.join(parts)}, {headline[:1].lower()}{headline[1:]}"


def rules_line(sets: int = 1, all_wild_melds: bool = True) -> str:
    """The line a Five Crowns study's chart titles end with under other rules options
    (``"\nRules: 2 card sets (232 cards), no melds of wilds only"``), empty under the
    default rules: a chart of a variant report (``crowns report --sets 2``,
    ``--no-all-wild-melds``) is read on its own too, and until session 23 nothing in it
    said the rules differed."""
    parts = ([f"{sets} card sets ({sets * SET_SIZE} cards)"] if sets != 1 else []) + (
        [] if all_wild_melds else ["no melds of wilds only"])
    return f"\nRules: {', '.join(parts)}" if parts else ""


def rules_text(players: int, policies: Sequence[str], *, duplicate: bool, chunk_size: int, extra: str = "",
               sets: int = 1, all_wild_melds: bool = True) -> str:
    """The rules/deck/players paragraph of a Five Crowns report (`sets` and
    `all_wild_melds`: the rules options played, :func:`deck_text`, :func:`melds_text`)."""
    seats = ", ".join(f"seat {s}: {p}" for s, p in enumerate(policies))
    dup = ("Duplicate deals: each deal (seed) is played once in every distinct rotation of the "
           "players round the table, so every player gets the same cards from every seat. "
           if duplicate else "")
    return (f"Five Crowns as in RULES.md: {players} players, {deck_text(sets)}, 11 rounds dealing 3..13 cards"
            f" with that rank wild, jokers always wild, {melds_text(all_wild_melds)}, shared wins on equal totals, "
            f"the deal moving left each round. Players ({seats}) are the built-in policies of "
            "`crowns_solver.five_crowns.players` with default parameters. "
            f"{dup}Chunk size {chunk_size} {'deals' if duplicate else 'games'} (results depend on it). {extra}")


def clustered(values: pd.Series, cluster: pd.Series) -> tuple[float, float, float]:
    """Mean of `values` with a 95% interval that treats each `cluster` (a deal) as one
    observation: the mean over clusters of the cluster means, with Student's t interval
    (:func:`~crowns_solver.analysis.base.mean_ci`)."""
    per = values.groupby(cluster.to_numpy()).mean()
    return mean_ci(per.to_numpy())


def rate_clustered(values: pd.Series, cluster: pd.Series) -> tuple[float, float, float]:
    """A rate (`values` in 0..1, e.g. 1 for a win) pooled over rows, with the 95% Wilson
    interval that treats each `cluster` (a deal) as one observation
    (:func:`crowns_solver.montecarlo.cluster_wilson_interval`: Wilson's interval with the
    effective sample size of the clustered rate).  It stays inside 0..1 and keeps a
    positive width at a rate of 0 or 1 (the normal interval clipped to 0..1 that it
    replaced, in session 20, collapsed to [0, 0] there).  With clusters of equal size
    (duplicate deals) the rate is the mean of the cluster means."""
    from crowns_solver.montecarlo import cluster_wilson_interval

    grouped = values.astype(float).groupby(cluster.to_numpy())
    return cluster_wilson_interval(grouped.sum().to_numpy(), grouped.size().to_numpy())


def errorbars(ax: Any, x: Sequence[float], est: Sequence[float], low: Sequence[float], high: Sequence[float],
              label: str, *, offset: float = 0.0, line: bool = True) -> None:
    """Points (joined by a line) with 95% error bars, in a player's colour when `label`
    is one."""
    est_a, low_a, high_a = (np.asarray(v, dtype=float) for v in (est, low, high))
    colour, marker = STYLE.get(label, (None, "o"))
    ax.errorbar(np.asarray(x, dtype=float) + offset, est_a, yerr=[est_a - low_a, high_a - est_a], label=label,
                color=colour, marker=marker, markersize=4, capsize=3, linewidth=1.2 if line else 0,
                elinewidth=1)
