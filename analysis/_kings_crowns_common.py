"""Helpers shared by the King's Crowns studies (not a study: the registry skips ``_`` modules).

Every simulation goes through :func:`crowns_solver.kings_crowns.simulate` with the
executor ``crowns report`` gives, a fixed chunk size and a seed derived from the study's
root seed (:func:`sub_seed`), so a report reruns exactly from the command it prints.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any

import numpy as np

from crowns_solver._text import number, percent

from .base import proportion_ci

if TYPE_CHECKING:
    import pandas as pd

#: Games per chunk of the fast players (the runner's default) and of tables with the
#: lookahead player (about a thousand times slower, so smaller chunks keep every worker busy).
CHUNK = 1000
LOOKAHEAD_CHUNK = 10

#: The players, as the reports describe them (docs/kings_crowns.md, "The players").
POLICY_TEXT = {
    "random": "`random` (uniformly random legal play)",
    "greedy": "`greedy` (builder: best crown, covers its own Sins, Salvation, Gifts; never plays Sins)",
    "aggressive": "`aggressive` (the builder, but plays a Sin on the leader first)",
    "defensive": "`defensive` (the builder, holding Forgiveness and Holy Spirit)",
    "lookahead": "`lookahead` (determinized Monte Carlo: 64 sampled deals, 20-turn aggressive rollouts)",
}

#: Colours of a policy in every chart, so a policy looks the same in every report.
POLICY_COLOUR = {
    "random": "#bbbbbb",
    "greedy": "#4477aa",
    "aggressive": "#ee6677",
    "defensive": "#228833",
    "lookahead": "#aa3377",
}


def sub_seed(seed: int, study: str, k: int) -> int:
    """The seed of simulation `k` of `study` under the root seed `seed`.

    Parameters
    ----------
    seed : int
        The root seed of the run (``crowns report --seed``).
    study : str
        The study's name (so two studies never replay the same games).
    k : int
        The simulation's number within the study.

    Returns
    -------
    int
        A 32-bit seed from ``numpy.random.SeedSequence([seed, crc32(study), k])``.
    """
    entropy = [int(seed), zlib.crc32(study.encode()), int(k)]
    return int(np.random.SeedSequence(entropy).generate_state(1, dtype=np.uint32)[0])


def study_rules(deck: Any = None, players: Sequence[int] = (2, 3, 4, 5)) -> Any:
    """The :class:`~crowns_solver.kings_crowns.Rules` of a study run under `deck`
    (``crowns report --deck``; None: RULES.md's default deck), checked for every player
    count in `players` before any game (a deck too small to deal, without a Salvation, or
    whose crowns cannot reach the target is refused, naming it).

    Parameters
    ----------
    deck : Deck, optional
        The deck.
    players : sequence of int
        The player counts the study seats.

    Returns
    -------
    Rules
        The default rules with that deck.

    Raises
    ------
    RulesError, DeckError
        If a game of one of those sizes cannot be dealt or won with the deck.
    """
    from crowns_solver.kings_crowns import Rules

    rules = Rules() if deck is None else Rules(deck=deck)
    for n in players:
        rules.check(n)
    return rules


def play(games: int, seed: int, executor: Executor | None, *, players: int, policies: Sequence[str] | str,
         rotate: bool = False, rules: Any = None) -> pd.DataFrame:
    """:func:`crowns_solver.kings_crowns.simulate` with the studies' chunk sizes."""
    from crowns_solver.kings_crowns import simulate

    names = [policies] if isinstance(policies, str) else list(policies)
    chunk = LOOKAHEAD_CHUNK if any(p.startswith("lookahead") for p in names) else CHUNK
    return simulate(games, players=players, policies=policies, rules=rules, seed=seed, rotate=rotate,
                    executor=executor, chunk_size=chunk, workers=1 if executor is None else None)


def rate_columns(name: str, successes: Any, n: Any) -> dict[str, Any]:
    """``{name: successes / n, name_low: ..., name_high: ...}`` with the 95% Wilson interval."""
    s = np.asarray(successes, dtype=float)
    m = np.asarray(n, dtype=float)
    low, high = proportion_ci(s, m)
    return {name: s / m, f"{name}_low": low, f"{name}_high": high}


def error_bars(est: Any, low: Any, high: Any) -> np.ndarray:
    """Matplotlib ``yerr`` (2 x n, non-negative) from an estimate and its interval."""
    e = np.asarray(est, dtype=float)
    return np.vstack([np.maximum(e - np.asarray(low, dtype=float), 0),
                      np.maximum(np.asarray(high, dtype=float) - e, 0)])


def pct(x: float) -> str:
    """A rate as a percentage with one decimal, e.g. ``26.8%``."""
    return percent(x, 1)


def ci_text(est: float, low: float, high: float) -> str:
    """``26.8% (95% CI 26.4-27.2%)``."""
    return f"{100 * est:.1f}% (95% CI {100 * low:.1f}-{100 * high:.1f}%)"


def rules_line(deck: Any = None) -> str:
    """The line a King's Crowns study's chart titles end with under a deck other than the
    default one (``"\nRules: deck 'small' (60 cards)"``), empty under the default deck
    (None, or a deck with the default's counts): a chart of a variant report (``crowns
    report --deck FILE``) is read on its own too, and until session 23 nothing in it said
    the deck differed (as the Five Crowns charts do, ``_five_crowns_common.rules_line``)."""
    from crowns_solver.kings_crowns.deck import DEFAULT_DECK

    if deck is None or tuple(deck.counts) == tuple(DEFAULT_DECK.counts):
        return ""
    return f"\nRules: deck {deck.name!r} ({deck.size} cards, not the default {DEFAULT_DECK.size})"


def rules_text(policies: Sequence[str], *, players: str, extra: str = "", deck: Any = None) -> str:
    """The report's rules paragraph: RULES.md's rules, the deck (`deck`, or the default
    one), the players."""
    from crowns_solver.kings_crowns import DEFAULT_DECK, Rules

    rules = Rules()
    if deck is None:
        deck_words = (f"the default {DEFAULT_DECK.size}-card deck (`crowns kings-crowns deck`; its counts are the "
                      "project's documented assumption)")
    else:
        counts = ", ".join(f"{k} {v}" for k, v in deck.to_dict().items())
        deck_words = (f"the deck {deck.name!r} ({deck.size} cards, {deck.crown_points()} crown points; rules"
                      f" option `--deck`: {counts})")
    text = (f"RULES.md, King's Crowns: target 100 crown points (75 with five players), turn cap "
            f"{rules.max_turns} turns over all seats (a game reaching it is a stalemate: no winner), "
            f"{deck_words}. {players} Players: "
            + "; ".join(POLICY_TEXT[p] for p in policies) + ". Seat 0 plays first.")
    return text + (" " + extra if extra else "")


def log_axis(ax, axis: str = "y") -> None:
    """A log scale labelled with plain numbers (10, 20, 50, 100, ...), not powers of ten."""
    from matplotlib.ticker import FixedLocator, NullFormatter

    which = ax.yaxis if axis == "y" else ax.xaxis
    (ax.set_yscale if axis == "y" else ax.set_xscale)("log")
    lo, hi = ax.get_ylim() if axis == "y" else ax.get_xlim()
    ticks = [m * 10 ** e for e in range(0, 7) for m in (1, 2, 5)]
    shown = [v for v in ticks if lo <= v <= hi]
    if len(shown) > 7:
        shown = [v for v in shown if str(v)[0] in "15"]
    which.set_major_locator(FixedLocator(shown))
    which.set_major_formatter(lambda v, _pos: f"{v:,.0f}")
    which.set_minor_formatter(NullFormatter())


def points_axis(ax) -> None:
    """Label a y axis of rate differences in percentage points: ``+1.5``, ``0``, ``-0.5``."""
    ax.yaxis.set_major_formatter(lambda v, _pos: f"{number(100 * v, '+.1f')}" if abs(v) >= 5e-5 else "0")
