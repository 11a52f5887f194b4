"""King's Crowns: deck sensitivity (how many Sin and Holy Spirit cards) against game length and seat advantage.

Starting from the default deck, varies one count at a time (Sins per colour; Holy Spirit
cards), builds each deck with :class:`crowns_solver.kings_crowns.Deck`, and plays `games`
four-player games per deck with the same player in every seat, for the greedy and the
aggressive player: mean length in turns (95% interval), stalemate rate and the first
seat's win rate against the equal share (95% Wilson intervals).
"""

from __future__ import annotations

from concurrent.futures import Executor

import pandas as pd

from crowns_solver._text import intervals_over, number

from ._kings_crowns_common import (POLICY_COLOUR, ci_text, error_bars, log_axis, pct, play, points_axis,
                                   rate_columns, rules_text, sub_seed)
from .base import Section, StudyResult, mean_ci, new_figure, study

NAME = "kings_crowns_deck"
PLAYERS = 4
POLICIES = ("greedy", "aggressive")
SIN_COLOURS = ("orange", "maroon", "purple")
#: Levels tried: Sins of each colour (default 6) and Holy Spirit cards (default 2).
SIN_LEVELS = (0, 3, 6, 9, 12)
HOLY_SPIRIT_LEVELS = (0, 1, 2, 4, 8)


def variant(sins: int | None = None, holy_spirit: int | None = None):
    """The default deck with `sins` Sins of each colour and/or `holy_spirit` Holy Spirit cards.

    Parameters
    ----------
    sins : int, optional
        Sins of each of the three colours (default: the default deck's).
    holy_spirit : int, optional
        Holy Spirit cards (default: the default deck's).

    Returns
    -------
    crowns_solver.kings_crowns.Deck
        Named e.g. ``"sins-9"`` or ``"holy-spirit-4"`` (``"default"`` when nothing changes).

    Raises
    ------
    DeckError
        If a count is negative.
    """
    from crowns_solver.kings_crowns import DEFAULT_DECK, Deck

    counts = DEFAULT_DECK.to_dict()
    changed = []
    if sins is not None and sins != DEFAULT_DECK.count("sin-orange"):
        counts.update({f"sin-{c}": sins for c in SIN_COLOURS})
        changed.append(f"sins-{sins}")
    if holy_spirit is not None and holy_spirit != DEFAULT_DECK.count("holy-spirit"):
        counts["holy-spirit"] = holy_spirit
        changed.append(f"holy-spirit-{holy_spirit}")
    return Deck.from_mapping(counts, "+".join(changed) or "default")


def deck_row(results: pd.DataFrame, deck, policy: str) -> dict:
    """One row of the deck table: length, stalemates and seat 0's win rate for one deck and player.

    Parameters
    ----------
    results : DataFrame
        From :func:`crowns_solver.kings_crowns.simulate` (four players, one policy).
    deck : crowns_solver.kings_crowns.Deck
        The deck played.
    policy : str
        The policy in every seat.

    Returns
    -------
    dict
        ``deck``, ``sins_per_colour``, ``holy_spirit``, ``cards``, ``policy``, ``games``,
        ``turns`` (+ 95% interval), ``stalemate_rate`` (+ Wilson interval), ``seat0_rate``
        (+ Wilson interval), ``equal_share`` (``(1 - stalemate_rate) / players``) and
        ``seat0_edge`` (seat 0's rate minus the equal share, + interval: seat 0's shifted).
    """
    n = len(results)
    mean, low, high = mean_ci(results["turns"].to_numpy(dtype=float))
    winner = results["winner"].to_numpy()
    stale = int((winner < 0).sum())
    seat0 = int((winner == 0).sum())
    share = (1 - stale / n) / PLAYERS
    s0 = {k: float(v) for k, v in rate_columns("seat0_rate", seat0, n).items()}
    return {"deck": deck.name, "sins_per_colour": deck.count("sin-orange"), "holy_spirit": deck.count("holy-spirit"),
            "cards": deck.size, "policy": policy, "games": n, "turns": mean, "turns_low": low, "turns_high": high,
            **{k: float(v) for k, v in rate_columns("stalemate_rate", stale, n).items()},
            **s0, "equal_share": share, "seat0_edge": s0["seat0_rate"] - share,
            "seat0_edge_low": s0["seat0_rate_low"] - share, "seat0_edge_high": s0["seat0_rate_high"] - share}


def _chart(table: pd.DataFrame, column: str, xlabel: str, default: int, games: int):
    fig = new_figure(6.4, 7.2)
    axes = fig.subplots(3, 1, sharex=True)
    panels = (("turns", "mean game length\n(turns over all seats)", None),
              ("stalemate_rate", "games reaching the\nturn cap (%)", "percent"),
              ("seat0_edge", "seat 0 win rate minus equal\nshare (percentage points)",
               "points"))
    for ax, (col, label, fmt) in zip(axes, panels):
        for pol in POLICIES:
            t = table[table["policy"] == pol].sort_values(column)
            ax.errorbar(t[column], t[col], yerr=error_bars(t[col], t[f"{col}_low"], t[f"{col}_high"]),
                        marker="o", capsize=3, color=POLICY_COLOUR[pol], label=f"4 x {pol}")
        ax.axvline(default, color="#777777", linestyle=":", linewidth=1, label=f"default deck ({default})")
        if col == "seat0_edge":
            ax.axhline(0, color="black", linestyle="--", linewidth=1)
            ax.annotate("no seat advantage", (0.01, 0), xycoords=("axes fraction", "data"), xytext=(0, 3),
                        textcoords="offset points", fontsize=7)
        if col == "turns" and float(table["turns"].max()) > 5 * float(table["turns"].min()):
            log_axis(ax)
        elif fmt == "points":
            points_axis(ax)
        elif fmt == "percent":
            from matplotlib.ticker import PercentFormatter

            ax.yaxis.set_major_formatter(PercentFormatter(xmax=1))
        elif fmt is not None:
            ax.yaxis.set_major_formatter(fmt)
        ax.set_ylabel(label, fontsize=8)
        ax.tick_params(labelsize=8)
        ax.grid(alpha=0.3)
    axes[-1].set_xlabel(xlabel)
    axes[-1].set_xticks(sorted(set(table[column])))
    axes[0].legend(fontsize=7, loc="best")
    fig.suptitle(f"Deck sensitivity: {xlabel.split(' (')[0]}\n(four players; {intervals_over(games, 'game', each='per point')})",
                 fontsize=10)
    fig.tight_layout()
    return fig


@study(NAME, game="kings_crowns", title="King's Crowns: how the number of Sins and Holy Spirits changes the game",
       quick_games=1_000, full_games=50_000)
def run(games: int, seed: int, executor: Executor | None = None) -> StudyResult:
    """Sins per colour and Holy Spirit cards against game length, stalemates and seat 0's edge.

    Parameters
    ----------
    games : int
        Games per deck and player (four players); 9 decks x 2 players.
    seed : int
        Root seed; simulation k uses :func:`sub_seed` ``(seed, NAME, k)``.
    executor : Executor, optional
        Runs the simulations' chunks.

    Returns
    -------
    StudyResult
        Sections "Sins" and "Holy Spirit": for each, the rows of the deck table that vary
        that card and their charts.

    Raises
    ------
    StudyError
        If `games` is not a whole number >= 1 or `seed` one >= 0.
    """
    from crowns_solver.kings_crowns import DEFAULT_DECK, Rules

    games += (-games) % PLAYERS
    default_sins, default_hs = DEFAULT_DECK.count("sin-orange"), DEFAULT_DECK.count("holy-spirit")
    decks = {("default", 0): DEFAULT_DECK}
    for s in SIN_LEVELS:
        decks[("sins", s)] = DEFAULT_DECK if s == default_sins else variant(sins=s)
    for h in HOLY_SPIRIT_LEVELS:
        decks[("holy_spirit", h)] = DEFAULT_DECK if h == default_hs else variant(holy_spirit=h)
    rows: dict[tuple[str, str], dict] = {}
    k = 0
    for key, deck in decks.items():
        if key[0] != "default" and deck is DEFAULT_DECK:
            continue  # the default deck's row is shared by both series
        for pol in POLICIES:
            df = play(games, sub_seed(seed, NAME, k), executor, players=PLAYERS, policies=pol, rules=Rules(deck=deck))
            rows[(deck.name, pol)] = deck_row(df, deck, pol)
            k += 1
    total = games * k

    def series(kind: str, levels) -> pd.DataFrame:
        names = [decks[(kind, v)].name for v in levels]
        return pd.DataFrame([rows[(name, pol)] for pol in POLICIES for name in names]).reset_index(drop=True)

    sins = series("sins", SIN_LEVELS)
    hs = series("holy_spirit", HOLY_SPIRIT_LEVELS)

    def at(t: pd.DataFrame, col: str, level: int, pol: str) -> pd.Series:
        return t[(t[col] == level) & (t["policy"] == pol)].iloc[0]

    lo_s = at(sins, "sins_per_colour", SIN_LEVELS[0], "aggressive")
    hi_s = at(sins, "sins_per_colour", SIN_LEVELS[-1], "aggressive")
    base = at(sins, "sins_per_colour", default_sins, "aggressive")
    hs_lo = at(hs, "holy_spirit", HOLY_SPIRIT_LEVELS[0], "aggressive")
    hs_hi = at(hs, "holy_spirit", HOLY_SPIRIT_LEVELS[-1], "aggressive")
    edges = pd.concat([sins, hs], ignore_index=True)
    sig = edges[(edges["seat0_edge_low"] > 0) | (edges["seat0_edge_high"] < 0)]
    g_lo = at(sins, "sins_per_colour", SIN_LEVELS[0], "greedy")
    g_hi = at(sins, "sins_per_colour", SIN_LEVELS[-1], "greedy")
    # claims only where the 95% intervals of the means are apart (a small run said "Sins drive
    # the game's length" and "more Holy Spirit cards lengthen" on equal or overlapping means)
    sins_apart = bool(hi_s["turns_low"] > lo_s["turns_high"]) or bool(hi_s["turns_high"] < lo_s["turns_low"])
    if bool(hs_hi["turns_high"] < hs_lo["turns_low"]):
        hs_effect = "shorten"
    elif bool(hs_hi["turns_low"] > hs_lo["turns_high"]):
        hs_effect = "lengthen"
    else:
        hs_effect = "do not clearly change the length of"
    lead = "Sins drive the game's length" if sins_apart else \
        "The Sin count does not clearly change the game's length at this number of games"
    headline = (f"{lead}: with aggressive players a four-player game lasts "
                f"{lo_s['turns']:.0f} turns with no Sins, {base['turns']:.0f} with the default {default_sins} "
                f"per colour "
                f"and {hi_s['turns']:.0f} with {SIN_LEVELS[-1]} per colour, where "
                f"{ci_text(hi_s['stalemate_rate'], hi_s['stalemate_rate_low'], hi_s['stalemate_rate_high'])} of games "
                f"stall at the turn cap (greedy players, who never play Sins, go from {g_lo['turns']:.0f} to "
                f"{g_hi['turns']:.0f} turns); more Holy Spirit cards "
                f"{hs_effect} aggressive games "
                f"({hs_lo['turns']:.0f} turns with none, {hs_hi['turns']:.0f} with {HOLY_SPIRIT_LEVELS[-1]}). ")
    lo_e, hi_e = 100 * edges["seat0_edge"].min(), 100 * edges["seat0_edge"].max()
    # percentage points, said in full: in this game "points" alone reads as crown points
    headline += (f"Seat 0's edge over an equal share ranges from {number(lo_e, '+.1f')} to {number(hi_e, '+.1f')} percentage points"
                 " across the decks")
    if len(sig):
        biggest = sig.loc[sig["seat0_edge"].abs().idxmax()]
        headline += (f" (largest: `{biggest['deck']}` with {biggest['policy']} players, seat 0 winning "
                     f"{ci_text(biggest['seat0_rate'], biggest['seat0_rate_low'], biggest['seat0_rate_high'])} "
                     f"against {pct(biggest['equal_share'])}).")
    else:
        headline += "; no deck moves seat 0's win rate clearly (95% interval) away from an equal share."

    cols = ["deck", "cards", "policy", "games", "turns", "turns_low", "turns_high", "stalemate_rate",
            "stalemate_rate_low", "stalemate_rate_high", "seat0_rate", "seat0_rate_low", "seat0_rate_high",
            "equal_share", "seat0_edge"]
    intro = (f"{games:,} four-player games per deck and player, the same player in every seat. **turns**: mean game "
             "length over all seats (stalemated games count at the cap, so the mean is a lower bound where "
             "stalemates are common); **stalemate_rate**: games reaching the turn cap; **seat0_rate**: how often "
             "seat 0 (first to play) wins; **equal_share**: `(1 - stalemate_rate) / 4`; **seat0_edge**: the "
             "difference, a share of games like the rates (0.015 is 1.5 percentage points; the chart's error bars: "
             "seat 0's interval shifted by the share).")
    sections = [
        Section("Sins",
                f"{intro} Each deck is the default with the Sins of each of the three colours set to "
                f"{', '.join(map(str, SIN_LEVELS))} (default {default_sins}); everything else unchanged.",
                sins[["sins_per_colour", *cols]],
                _chart(sins, "sins_per_colour", "Sins of each colour (3 colours)", default_sins, games)),
        Section("Holy Spirit",
                f"The default deck with {', '.join(map(str, HOLY_SPIRIT_LEVELS))} Holy Spirit cards "
                f"(default {default_hs}); everything else unchanged. Columns as above.",
                hs[["holy_spirit", *cols]],
                _chart(hs, "holy_spirit", "Holy Spirit cards in the deck", default_hs, games)),
    ]
    return StudyResult(headline=headline, sections=sections, games=total,
                       rules=rules_text(POLICIES, players="Four players, one policy in every seat.",
                                        extra="Decks: the default with one count changed, built with `Deck`; "
                                              "the deck names in the tables say which."))
