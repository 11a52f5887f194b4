"""Cross Kings: the horizon evaluation of the search, fitted to self-play.

Study ``cross_kings_evaluation``.  A position too large to solve exactly is analysed by
iterative deepening with a heuristic evaluation at the horizon (RULES.md "Game value";
docs/cross_kings_solver.md "Sixth round").  This study measures how well each evaluation
predicts how a game ends and how much it changes play:

1. Self-play: the search player (``FIT_NODES`` nodes a move) plays seeded deals against
   itself; every position where a move is chosen is recorded as the mover sees it
   (face-down cards unknown), labelled with the game's final margin for that mover.
2. Least squares (numpy) of that margin on the features the compiled evaluation uses,
   each with a weight that changes linearly with the cards left, fitted on two thirds of
   the games and scored on the other third, beside the library's weights, the earlier
   "potential" evaluation and the current margin alone.
3. A duplicate match: the search player with the fitted evaluation against the same
   player with the potential evaluation.

The features are computed here in plain Python with the exact scorer, independently of
the compiled core (tests/test_cross_kings_evaluation.py checks that the two agree).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from crowns_solver import _ck_search, montecarlo
from crowns_solver._ck_score import score_mask
from crowns_solver.cross_kings import Deal
from crowns_solver.cross_kings.match import match, play_game
from crowns_solver.cross_kings.players import make_player, seat_view
from crowns_solver.cross_kings.solver import _engine_input

from ._cross_kings_common import rules_line, rules_text
from crowns_solver._text import count, number, percent

from ._intervals import ci_text, ratio_diff_ci, sign_word
from .base import Section, StudyResult, new_figure, note_sample, study

#: Search nodes per move in the self-play games and the match.
FIT_NODES = 20_000
#: The evaluation's terms, in the order of the core's ``ev_<name>0`` / ``ev_<name>1`` weights.
TERMS = ("score", "gain", "kings", "pairs", "adj", "gap", "tempo")
#: Cards-left bins of the accuracy table.
BINS = ((2, 9), (10, 15), (16, 21), (22, 27), (28, 35))


def hand_features(nat: int, kings: int, other: int) -> list[int]:
    """One hand's features: one-card gains, Kings, pairs, adjacent and one-apart neighbours.

    Parameters
    ----------
    nat : int
        The hand's natural cards (bit ``8 * suit + rank - 1``).
    kings : int
        Its Kings.
    other : int
        Natural cards held by neither player (still on the grid or unseen).

    Returns
    -------
    list of int
        ``[gain, kings, pairs, adj, gap]``: gain is what the natural cards would score more
        (points) with each card of `other` added alone, summed over `other` (Kings
        ignored); pairs counts the cards beyond the first of each rank; adj and gap the
        same-suit pairs of ranks one and two apart (the middle rank missing).
    """
    base = score_mask(nat, 0)
    gain = sum(score_mask(nat | (1 << c), 0) - base for c in range(32) if (other >> c) & 1)
    counts = [sum((nat >> (8 * s + r)) & 1 for s in range(4)) for r in range(8)]
    pairs = sum(c - 1 for c in counts if c >= 2)
    adj = gap = 0
    for s in range(4):
        m = (nat >> (8 * s)) & 0xFF
        adj += (m & (m >> 1)).bit_count()
        gap += (m & (m >> 2) & ~(m >> 1)).bit_count()
    return [gain, kings, pairs, adj, gap]


def position_terms(state: tuple) -> tuple[np.ndarray, int]:
    """The evaluation's terms for the mover of an engine state, and the cards left.

    Parameters
    ----------
    state : tuple
        The compiled engine's state of a position (``_engine_input(...)[1]``).

    Returns
    -------
    (terms, left) : (ndarray of shape (7,), int)
        Mover minus opponent for the margin (points) and each feature of
        :func:`hand_features`, then 1 (the tempo term); `left` is the cards on the grid.
    """
    occ, _fd, _pool, n0, n1, k0, k1, _marker, side = state
    nat, kings = (n0, n1), (k0, k1)
    other = 0xFFFFFFFF & ~(n0 | n1)
    fp = hand_features(nat[side], kings[side], other)
    fo = hand_features(nat[1 - side], kings[1 - side], other)
    margin = score_mask(nat[side], kings[side]) - score_mask(nat[1 - side], kings[1 - side])
    return np.array([margin, *(a - b for a, b in zip(fp, fo)), 1], dtype=float), occ.bit_count()


def design(terms: np.ndarray, left: np.ndarray) -> np.ndarray:
    """Rows ``[t, t * left / 36]`` (shape (n, 14)): each term's weight is ``w0 + w1 * left / 36``.

    Parameters
    ----------
    terms : numpy.ndarray, shape (n, 7)
        Each position's terms (:func:`position_terms`).
    left : numpy.ndarray, shape (n,)
        Each position's cards left on the grid.

    Returns
    -------
    numpy.ndarray, shape (n, 14)
        The design matrix of the least-squares fit.
    """
    frac = (np.asarray(left, dtype=float) / 36.0)[:, None]
    return np.hstack([terms, terms * frac])


def library_weights() -> np.ndarray:
    """The compiled core's default evaluation weights in points, shape (14,), as :func:`design` orders them.

    Returns
    -------
    numpy.ndarray, shape (14,)
        The weights of the solver's "fitted" horizon evaluation.
    """
    eng = _ck_search.Engine(bytes(range(36)), 0, 0, 0, 1 << 16)
    w0 = [getattr(eng, f"ev_{t}0") for t in TERMS]
    w1 = [getattr(eng, f"ev_{t}1") for t in TERMS]
    return np.array(w0 + w1, dtype=float) / 64.0


def selfplay_chunk(chunk_index: int, n_games: int, seed: np.random.SeedSequence, *, chunk_size: int,
                   root_seed: int, nodes: int, reach: str = "any") -> list[dict[str, Any]]:
    """Search-vs-search games, one row each: per position where a move was chosen (mover's
    view), lists of the cards left, the final margin for the mover and each term.

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
        Search nodes per move of both players.
    reach : {"any", "nearest"}
        The rules option reach the games are played under (RULES.md, Cross Kings, "Move").

    Returns
    -------
    list of dict
        One per game: ``game``, ``left`` (cards left at each position), ``label`` (the
        mover's final margin in points) and ``t_<term>`` for each term of :data:`TERMS`.
    """
    player = make_player("search", node_limit=nodes)
    rows: list[dict[str, Any]] = []
    for k in range(n_games):
        g = chunk_index * chunk_size + k
        deal = Deal.random(np.random.default_rng(np.random.SeedSequence([root_seed, g])))
        rngs = (np.random.default_rng(np.random.SeedSequence([root_seed, g, 1])),
                np.random.default_rng(np.random.SeedSequence([root_seed, g, 2])))
        final = play_game(deal.position(reach), player, player, rngs=rngs).position
        scores = final.scores()
        pos = deal.position(reach).play(final.start)
        row: dict[str, Any] = {"game": g, "left": [], "label": [], **{f"t_{t}": [] for t in TERMS}}
        for cell in final.history:
            side = 0 if pos.to_move == "first" else 1
            _, state = _engine_input(seat_view(pos, pos.to_move).public_position(), "game")
            terms, left = position_terms(state)
            row["left"].append(left)
            row["label"].append(scores[side] - scores[1 - side])
            for t, v in zip(TERMS, terms):
                row[f"t_{t}"].append(float(v))
            pos = pos.play(cell)
        rows.append(row)
    return rows


def _potential(df: pd.DataFrame) -> np.ndarray:
    # the earlier evaluation: margin + pairs + neighbours + two per King
    return (df["t_score"] + df["t_pairs"] + df["t_adj"] + df["t_gap"] + 2 * df["t_kings"]).to_numpy(float)


@study("cross_kings_evaluation", game="cross_kings",
       title="Cross Kings: how well does the search's horizon evaluation predict the end of the game?",
       quick_games=15, full_games=1000, options=("reach",), min_games=3,
       min_games_why="every third game is held out")
def evaluation(games: int, seed: int, executor=None, reach: str = "any") -> StudyResult:
    """Self-play positions labelled with final margins; least-squares fit; a duplicate match.

    Parameters
    ----------
    games : int
        Self-play games (at least 3: every third is held out to score the fits).
    seed : int
        Root seed (``crowns report --seed``).
    executor : concurrent.futures.Executor, optional
        Runs the chunks (default: in this process).
    reach : {"any", "nearest"}
        The rules option reach (RULES.md, Cross Kings, "Move"; ``crowns report --reach``):
        the self-play games and the match are played under it.  The library's weights
        were fitted under reach "any"; under "nearest" the report measures how well they
        carry over, beside this run's own refit.

    Returns
    -------
    StudyResult
        Sections "Accuracy by cards left", "Weights" and "Play".

    Raises
    ------
    StudyError
        If `games` is less than 3.
    """
    # fewer than 3 games (every third is held out) are refused by the study's min_games
    games = int(games)
    per_game = montecarlo.run(selfplay_chunk, games, params={"chunk_size": 4, "root_seed": int(seed), "nodes": FIT_NODES,
                                                                 "reach": reach},
                              seed=int(seed), chunk_size=4, executor=executor, meta={"game": "cross-kings"})
    df = per_game.explode(["left", "label", *(f"t_{t}" for t in TERMS)], ignore_index=True)
    terms = df[[f"t_{t}" for t in TERMS]].to_numpy(float)
    left = df["left"].to_numpy(int)
    y = df["label"].to_numpy(float)
    X = design(terms, left)
    test = (df["game"].to_numpy(int) % 3) == 0
    refit, *_ = np.linalg.lstsq(X[~test], y[~test], rcond=None)
    preds = {
        "current margin alone": terms[:, 0],
        "potential (earlier default)": _potential(df),
        "fitted (library default)": X @ library_weights(),
        "refit on this run's other games": X @ refit,
    }
    acc_rows = []
    for name, p in preds.items():
        err = np.abs(p - y)
        row: dict[str, Any] = {"evaluation": name, "positions": int(test.sum()), "mae_all": float(err[test].mean())}
        for lo, hi in BINS:
            sel = test & (left >= lo) & (left <= hi)
            row[f"mae_{lo}_{hi}"] = float(err[sel].mean()) if sel.any() else float("nan")
        acc_rows.append(row)
    acc = pd.DataFrame(acc_rows)
    # the fitted evaluation's error against each other one, paired by position; each
    # held-out game is one observation (its positions share a label and a deal)
    held = df.loc[test, "game"].to_numpy(int)
    base_err = np.abs(preds["fitted (library default)"] - y)[test]
    diff_rows = []
    for name in ("potential (earlier default)", "current margin alone"):
        d = base_err - np.abs(preds[name] - y)[test]
        per = pd.DataFrame({"game": held, "d": d}).groupby("game")["d"].agg(["sum", "size"])
        m, lo, hi = ratio_diff_ci(per["sum"], per["size"])
        diff_rows.append({"comparison": f"fitted minus {name}", "games": len(per), "positions": int(test.sum()),
                          "mae_difference": m, "mae_difference_low": lo, "mae_difference_high": hi})
    diffs = pd.DataFrame(diff_rows)

    lib = library_weights()
    wt = pd.DataFrame({
        "term": list(TERMS),
        "library_w0": lib[:7], "library_w1": lib[7:],
        "refit_w0": refit[:7], "refit_w1": refit[7:],
        "library_at_34_left": lib[:7] + lib[7:] * 34 / 36, "library_at_10_left": lib[:7] + lib[7:] * 10 / 36,
    })

    deals = max(2, games // 5)
    res = match("search", "search", deals, seed=int(seed) + 1, a_options={"node_limit": FIT_NODES},
                b_options={"node_limit": FIT_NODES, "evaluation": "potential"}, executor=executor, reach=reach)
    s = res.summary
    note_sample(s["deals"])   # the score and margin intervals are over deals
    play = pd.DataFrame([{
        "player_a": f"search {FIT_NODES // 1000}k, fitted", "player_b": f"search {FIT_NODES // 1000}k, potential",
        "games": s["games"], "score_rate": s["score"], "score_rate_low": s["score_low"],
        "score_rate_high": s["score_high"], "margin": s["margin"], "margin_low": s["margin_low"],
        "margin_high": s["margin_high"], "ms_per_move_a": 1000 * s["seconds_per_move_a"],
        "ms_per_move_b": 1000 * s["seconds_per_move_b"]}])

    fig = new_figure(7.0, 4.2)
    ax = fig.add_subplot()
    xs = np.arange(len(BINS))
    for (name, _), mark in zip(preds.items(), "osD^"):
        ax.plot(xs, [acc.loc[acc["evaluation"] == name, f"mae_{lo}_{hi}"].iloc[0] for lo, hi in BINS],
                marker=mark, label=name)
    ax.set_xticks(xs, [f"{lo}-{hi}" for lo, hi in BINS])
    ax.set(title="Mean |prediction - final margin| on held-out self-play games" + rules_line(reach),
           xlabel="cards left on the grid",
           ylabel="points")
    ax.set_ylim(bottom=0)
    ax.legend(fontsize=8)
    fig.tight_layout()

    headline = evaluation_headline(acc, diffs, play.iloc[0], reach=reach)
    text_acc = (
        f"{count(len(df), 'position', grouped=True)} from {count(games, 'self-play game', grouped=True)} (search player, {FIT_NODES:,} nodes a move), each labelled"
        " with the final margin of its game for the player to move; every third game (game number divisible by 3)"
        " is held out and scored here.  The label includes the luck of the face-down cards and both players'"
        " later mistakes, so no evaluation gets near zero: what matters is the comparison.  The potential"
        " evaluation counts pairs, suit neighbours and two points per King on top of the margin; the fitted one"
        " weights the margin, the one-card gains (what each natural card held by neither player would add to the"
        " hand), Kings, pairs, neighbours and the mover's tempo, each weight changing with the cards left."
        "  `mae_all`: mean absolute error (|prediction - final margin|, points) over the held-out positions;"
        " `mae_L_H`: the same over positions with L to H cards left on the grid.")
    text_diff = (
        "The fitted evaluation's mean absolute error minus each other one's on the same held-out positions"
        " (points; negative: the fitted one is closer).  The positions of one game share its final margin, so"
        " the 95% interval (Student t quantile on games - 1 degrees of freedom) treats each held-out game as one"
        " observation.")
    at = {t: (lib[i] + lib[7 + i] * 34 / 36, lib[i] + lib[7 + i] * 10 / 36) for i, t in enumerate(TERMS)}
    text_w = (
        "Weights in points; the weight of a term with L cards left is w0 + w1 * L / 36 (the library stores them in"
        " 1/64 point, `ev_<term>0` and `ev_<term>1` of the compiled engine).  The library's weights were fitted"
        " the same way on 2,000 self-play games (1,000 played with the potential evaluation, then 1,000 with a"
        " first fit)"
        + ("; the refit column is this run's own fit, a check of how stable they are." if reach == "any" else
           f", under reach \"any\"; the refit column is this run's own fit under reach \"{reach}\", so the two"
           " differ by the rule as well as by chance.")
        + "  With the library's"
        f" weights a King in hand is worth {number(at['kings'][0], '.1f')} points with 34 cards left and {number(at['kings'][1], '.1f')}"
        " with 10 (late, its worth is already in the score); a point of current margin counts"
        f" {number(at['score'][0], '.2f')} early and {number(at['score'][1], '.2f')} late; the mover's tempo {number(at['tempo'][0], '.1f')} and"
        f" {number(at['tempo'][1], '.1f')} points.")
    text_play = (
        "Duplicate match (each deal played twice with the seats exchanged): player A's score per game (win 1,"
        " draw 1/2) and mean margin, each with a 95% interval that counts each deal as one observation (its two"
        " games share the cards): Wilson's interval on the effective number of games of the clustered score"
        " (Korn & Graubard 1998) and Student's t interval over the deals' mean margins; and time per move.  The evaluation costs a little time per node (a fixed node budget per move).")
    return StudyResult(
        headline=headline,
        sections=[Section("Accuracy by cards left", text_acc, acc, fig),
                  Section("Is the fitted evaluation closer? (same positions)", text_diff, diffs),
                  Section("Weights", text_w, wt),
                  Section("Play", text_play, play)],
        games=games + 2 * deals,
        rules=rules_text("Search players: game-value search (face-down cards unknown), node-limited, so every"
                         " number replays from the seed."
                         + ("" if reach == "any" else "  The library's evaluation weights were fitted on games"
                            " under reach \"any\"."), reach),
        intervals=("Intervals are 95%: over held-out games for the accuracy differences (Student t quantile,"
                   " linearization), over deals for the match (a deal's two games share its cards, so each deal"
                   " is one observation): Wilson score interval on the effective number of games of the clustered"
                   " score (Korn & Graubard 1998), Student t interval over the deals' mean margins."),
    )


def evaluation_headline(acc: pd.DataFrame, diffs: pd.DataFrame, play: pd.Series, *, reach: str = "any") -> str:
    """The evaluation study's headline: the fitted evaluation's mean absolute error,
    called smaller than another's only where the paired interval of the difference lies
    below 0; the match's score with its interval (each deal one observation,
    :func:`crowns_solver.cross_kings.match.summarise`) and whether it lies above one
    half, and its margin.

    Parameters
    ----------
    acc : DataFrame
        The accuracy table (``evaluation``, ``mae_all``).
    diffs : DataFrame
        The paired differences (rows: potential, then margin alone), ``mae_difference``
        with its interval and ``games``.
    play : Series
        The match row: ``games``, ``score_rate`` and ``margin`` with their intervals.
    reach : {"any", "nearest"}
        The rules option reach of the games; other than "any", the headline says the
        games followed it and that the weights were fitted under "any".

    Returns
    -------
    str
        The headline: one or two sentences.
    """
    mae = dict(zip(acc["evaluation"], acc["mae_all"]))
    parts = []
    for (_, d), short in zip(diffs.iterrows(), ("the potential evaluation's", "the margin alone's")):
        name = d["comparison"].removeprefix("fitted minus ")
        word = sign_word(d["mae_difference_low"], d["mae_difference_high"], "more than", "less than",
                         "not separable from", "beside")
        parts.append(f"{word} {short} {mae[name]:.2f} (difference {number(d['mae_difference'], '+.2f')},"
                     f" {ci_text(d['mae_difference_low'], d['mae_difference_high'], one='one held-out game')})")
    side = sign_word(play["score_rate_low"] - 0.5, play["score_rate_high"] - 0.5, "above", "below",
                     "not separable from")
    lead = "The" if reach == "any" else (f"Under reach \"{reach}\" (the library's weights were fitted under"
                                         " reach \"any\"), the")
    return (f"{lead} fitted evaluation misses the final margin by {mae['fitted (library default)']:.2f} points on"
            f" average over {count(int(diffs['games'].iloc[0]), 'held-out game', grouped=True)}, {parts[0]} and"
            f" {parts[1]}; with it the"
            f" search player ({FIT_NODES // 1000}k nodes a move) scores {percent(play['score_rate'], 1)} against itself with"
            f" the potential evaluation (95% CI {percent(play['score_rate_low'], 1)}-{percent(play['score_rate_high'], 1)}, {side}"
            f" one half; mean margin {number(play['margin'], '+.2f')} points, {ci_text(play['margin_low'], play['margin_high'])},"
            f" {count(int(play['games']), 'game', grouped=True)}).")
