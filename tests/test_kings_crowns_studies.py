"""The King's Crowns studies: end to end through run_studies, and the numbers behind them."""

from __future__ import annotations

import dataclasses
import re
import struct
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from crowns_solver.analysis._kings_crowns_common import sub_seed
from crowns_solver.analysis.kings_crowns_deck import deck_row, variant
from crowns_solver.analysis.kings_crowns_length import length_row
from crowns_solver.analysis.kings_crowns_seats import seat_table
from crowns_solver.analysis.kings_crowns_tournament import dominance_graph, head_to_head, pair_games

from crowns_solver import report
from crowns_solver.errors import DeckError
from crowns_solver.kings_crowns import DEFAULT_DECK, Rules, simulate, win_rates

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
STUDIES = ["kings_crowns_seats", "kings_crowns_tournament", "kings_crowns_length", "kings_crowns_deck"]
GAMES = 40


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    """All four studies run once, small, through run_studies; their results kept."""
    out = tmp_path_factory.mktemp("reports")
    results = {}
    real = report._registry_or_empty

    def recording():
        studies = real()
        for name in STUDIES:
            st = studies[name]

            def run(games, seed, executor=None, _st=st):
                results[_st.name] = _st.run(games, seed, executor)
                return results[_st.name]

            studies[name] = dataclasses.replace(st, run=run)
        return studies

    report._registry_or_empty = recording
    try:
        paths = report.run_studies(STUDIES, out_dir=out, games=GAMES, workers=1, seed=11)
    finally:
        report._registry_or_empty = real
    return out, paths, results


def _is_rate(col: str) -> bool:
    return col.endswith("_rate") or col in ("win", "draw", "loss", "equal_share", "score")


def test_every_study_writes_its_report_and_valid_pngs(ran):
    out, paths, results = ran
    assert [p.name for p in paths] == [f"{n}.md" for n in STUDIES]
    for name in STUDIES:
        text = (out / f"{name}.md").read_text()
        assert f"<!-- crowns-study: {name} -->" in text and "| seed | 11 |" in text
        charts = re.findall(rf"!\[[^\]]*\]\(({name}/[^)]+\.png)\)", text)
        figures = [s for s in results[name].sections if s.figure is not None]
        assert len(charts) == len(figures) >= 2
        for chart in charts:
            data = (out / chart).read_bytes()
            assert data[:8] == PNG_MAGIC and data[12:16] == b"IHDR"
            width, height = struct.unpack(">II", data[16:24])
            assert 400 <= width <= 1200 and 300 <= height <= 1000
        for section in figures:  # every chart has a title, axis labels and a legend or a key
            fig = section.figure
            axes = fig.get_axes()
            assert any(ax.get_title() for ax in axes) or fig.get_suptitle()
            plots = [ax for ax in axes if ax.axison and ax.get_label() != "<colorbar>"]
            if plots:
                assert any(ax.get_xlabel() for ax in plots) and any(ax.get_ylabel() for ax in plots)
            assert any(ax.get_legend() for ax in axes) or fig.legends or len(axes) > len(plots)


def test_tables_hold_rates_intervals_and_the_games_asked(ran):
    _, _, results = ran
    for name, result in results.items():
        assert result.headline.strip().endswith(".")
        for section in result.sections:
            table = section.table
            if table is None:
                continue
            for col in table.columns:
                if _is_rate(col) or col.endswith("_rate_low") or col.endswith("_rate_high"):
                    assert table[col].between(0, 1).all(), (name, col)
                if f"{col}_low" in table.columns:
                    assert (table[f"{col}_low"] <= table[col] + 1e-12).all(), (name, col)
                    assert (table[col] <= table[f"{col}_high"] + 1e-12).all(), (name, col)
            assert "games" in table.columns
            if name == "kings_crowns_tournament" and "opponent" in table.columns:
                expected = [pair_games(GAMES, a, b) for a, b in zip(table["player"], table["opponent"])]
                assert table["games"].tolist() == expected
            elif name == "kings_crowns_length":
                # one-policy tables play what was asked; mixed tables round up to whole rotations
                for players, kind, games in zip(table["players"], table["table"], table["games"]):
                    assert games == (GAMES + (-GAMES) % players if kind == "mixed" else GAMES)
            else:
                assert (table["games"] == GAMES).all(), (name, section.title)
    seats = results["kings_crowns_seats"]
    assert seats.games == 16 * GAMES
    assert results["kings_crowns_deck"].games == 9 * 2 * GAMES
    lengths = results["kings_crowns_length"].sections[0].table
    assert results["kings_crowns_length"].games == int(lengths["games"].sum())


def test_the_study_reruns_exactly_whatever_the_executor(ran):
    from crowns_solver.analysis.kings_crowns_seats import run

    _, _, results = ran
    first = results["kings_crowns_seats"].sections[1].table
    with ThreadPoolExecutor(2) as pool:
        again = run(GAMES, 11, pool).sections[1].table
    pd.testing.assert_frame_equal(first, again)


@pytest.mark.parametrize("policy", ["random", "aggressive"])
def test_two_seats_and_the_stalemates_add_up_to_one(policy):
    # a short turn cap forces stalemates, so all three terms are non-zero
    df = simulate(400, players=2, policies=policy, rules=Rules(max_turns=70 if policy == "aggressive" else 400),
                  seed=5, workers=1)
    table = seat_table(df, 2, policy)
    assert 0 < table["stalemate_rate"].iloc[0] < 1
    assert table["win_rate"].sum() + table["stalemate_rate"].iloc[0] == pytest.approx(1.0)
    assert table["wins"].sum() + (df["winner"] < 0).sum() == 400
    # the same rates as the runner's own win_rates (a separate implementation)
    np.testing.assert_allclose(table["win_rate"], win_rates(df, by="seat")["rate"].to_numpy())
    np.testing.assert_allclose(table["equal_share"], (1 - table["stalemate_rate"]) / 2)


def test_head_to_head_rows_mirror_each_other():
    df = simulate(200, players=2, policies=["random", "greedy"], rotate=True, rules=Rules(max_turns=80), seed=2,
                  workers=1)
    rows = head_to_head(df, "random", "greedy").set_index("player")
    stale = rows["stalemate_rate"].iloc[0]
    assert 0 < stale < 1
    assert rows["win_rate"].sum() + stale == pytest.approx(1.0)
    assert rows["score"].sum() == pytest.approx(1.0)
    assert rows.loc["greedy", "wins"] == (df["winner_policy"] == "greedy").sum()
    assert (df["policy_0"] == "greedy").sum() == 100  # seats alternate


def test_dominance_edges_follow_the_score_interval():
    matches = pd.DataFrame({
        "player": ["a", "b", "a", "c", "b", "c"], "opponent": ["b", "a", "c", "a", "c", "b"],
        "score": [0.7, 0.3, 0.52, 0.48, 0.9, 0.1],
        "score_low": [0.6, 0.2, 0.49, 0.45, 0.8, 0.05], "score_high": [0.8, 0.4, 0.55, 0.51, 0.95, 0.2],
    })
    g = dominance_graph(matches)
    assert sorted(g.edges) == [("a", "b"), ("b", "c")]
    assert set(g.nodes) == {"a", "b", "c"} and g.edges["a", "b"]["score"] == 0.7


def test_pair_games_are_even_and_smaller_with_the_lookahead_player():
    assert pair_games(2000, "greedy", "random") == 2000
    assert pair_games(41, "greedy", "random") == 42
    assert pair_games(2000, "lookahead", "random") == 50
    assert pair_games(10, "greedy", "lookahead") == 2


def test_deck_variants_change_one_count():
    sins = variant(sins=9)
    assert [sins.count(f"sin-{c}") for c in ("orange", "maroon", "purple")] == [9, 9, 9]
    assert sins.size == DEFAULT_DECK.size + 3 * (9 - DEFAULT_DECK.count("sin-orange")) and sins.name == "sins-9"
    hs = variant(holy_spirit=0)
    assert hs.count("holy-spirit") == 0 and hs.size == DEFAULT_DECK.size - DEFAULT_DECK.count("holy-spirit")
    assert hs.to_dict() == {k: v for k, v in DEFAULT_DECK.to_dict().items() if k != "holy-spirit"}
    assert variant(sins=DEFAULT_DECK.count("sin-orange")).name == "default"
    with pytest.raises(DeckError, match="sin-orange"):
        variant(sins=-1)


def test_rows_from_hand_made_results():
    df = pd.DataFrame({"turns": [10, 20, 30, 2000], "winner": [0, 1, 0, -1]})
    row = length_row(df, 2, "greedy")
    assert (row["turns"], row["median"], row["stalemates"], row["rounds"]) == (515.0, 25.0, 1, 257.5)
    assert row["stalemate_rate"] == 0.25 and row["stalemate_rate_low"] < 0.25 < row["stalemate_rate_high"]
    d = pd.DataFrame({"turns": [50] * 8, "winner": [0, 0, 0, 1, 2, 3, -1, -1]})
    r = deck_row(d, DEFAULT_DECK, "greedy")
    assert r["seat0_rate"] == 3 / 8 and r["equal_share"] == pytest.approx(0.75 / 4)
    assert r["seat0_edge"] == pytest.approx(3 / 8 - 0.75 / 4) and r["turns_low"] == r["turns"] == 50


def test_sub_seeds_differ_by_study_and_number_and_repeat():
    seeds = {sub_seed(1, s, k) for s in STUDIES for k in range(20)}
    assert len(seeds) == 80
    assert sub_seed(1, "kings_crowns_deck", 3) == sub_seed(1, "kings_crowns_deck", 3)
    assert sub_seed(2, "kings_crowns_deck", 3) != sub_seed(1, "kings_crowns_deck", 3)


@given(st.lists(st.integers(-1, 4), min_size=1, max_size=300), st.integers(2, 5))
def test_seat_table_properties(winners, players):
    winners = [w if w < players else -1 for w in winners]
    df = pd.DataFrame({"winner": winners})
    table = seat_table(df, players, "greedy")
    assert len(table) == players and (table["games"] == len(winners)).all()
    assert table["win_rate"].sum() + table["stalemate_rate"].iloc[0] == pytest.approx(1.0)
    assert (table["win_rate_low"] <= table["win_rate"] + 1e-12).all()
    assert (table["win_rate"] <= table["win_rate_high"] + 1e-12).all()
    assert table["equal_share"].iloc[0] * players == pytest.approx(1 - table["stalemate_rate"].iloc[0])


@given(st.lists(st.sampled_from(["a", "b", None]), min_size=1, max_size=200))
def test_head_to_head_properties(outcomes):
    df = pd.DataFrame({"winner_policy": outcomes,
                       "winner": [-1 if o is None else (0 if o == "a" else 1) for o in outcomes],
                       "policy_0": ["a"] * len(outcomes)})
    rows = head_to_head(df, "a", "b").set_index("player")
    assert rows.loc["a", "wins"] == outcomes.count("a") and rows.loc["b", "wins"] == outcomes.count("b")
    assert rows["score"].sum() == pytest.approx(1.0)
    assert rows["win_rate"].sum() + rows["stalemate_rate"].iloc[0] == pytest.approx(1.0)
    for col in ("win_rate", "score"):
        assert (rows[f"{col}_low"] <= rows[col] + 1e-12).all() and (rows[col] <= rows[f"{col}_high"] + 1e-12).all()


@given(st.one_of(st.none(), st.integers(-3, 60)), st.one_of(st.none(), st.integers(-3, 60)))
def test_variant_properties(sins, holy_spirit):
    if (sins is not None and sins < 0) or (holy_spirit is not None and holy_spirit < 0):
        with pytest.raises(DeckError):
            variant(sins=sins, holy_spirit=holy_spirit)
        return
    deck = variant(sins=sins, holy_spirit=holy_spirit)
    s = DEFAULT_DECK.count("sin-orange") if sins is None else sins
    h = DEFAULT_DECK.count("holy-spirit") if holy_spirit is None else holy_spirit
    assert deck.count("sin-maroon") == s and deck.count("holy-spirit") == h
    extra = 3 * (s - DEFAULT_DECK.count("sin-orange")) + h - DEFAULT_DECK.count("holy-spirit")
    assert deck.size == DEFAULT_DECK.size + extra
    assert (deck.name == "default") == (deck.counts == DEFAULT_DECK.counts)


@pytest.mark.parametrize("module", ["seats", "tournament", "length", "deck"])
@pytest.mark.parametrize("games, seed, message", [
    (0, 1, "games must be a whole number >= 1, got 0"),
    ("10", 1, "games must be"),
    (True, 1, "games must be"),
    (10, -1, "seed must be a whole number >= 0, got -1"),
    (10, 2.5, "seed must be"),
])
def test_a_study_refuses_bad_sizes_and_seeds(module, games, seed, message):
    import importlib

    from crowns_solver.errors import StudyError

    run = importlib.import_module(f"crowns_solver.analysis.kings_crowns_{module}").run
    with pytest.raises(StudyError, match=f"kings_crowns_{module}: {message}"):
        run(games, seed)


def test_the_matrix_chart_shows_rates_near_one_apart_from_one():
    # session-19 probe: at two decimals of a share, 0.996 [0.995-0.997] was printed
    # "1.00 [1.00-1.00]", as if the row player never lost
    import matplotlib

    matplotlib.use("Agg")
    from crowns_solver.analysis.kings_crowns_tournament import _matrix_chart

    matches = pd.DataFrame({"player": ["a", "b"], "opponent": ["b", "a"], "win_rate": [0.9961, 0.0039],
                            "win_rate_low": [0.9952, 0.0031], "win_rate_high": [0.9969, 0.0048],
                            "games": [40_000, 40_000]})
    fig = _matrix_chart(matches, ["a", "b"])
    texts = {t.get_text() for t in fig.axes[0].texts}
    assert "99.6%\n[99.5-99.7]\n40,000 g" in texts and "0.4%\n[0.3-0.5]\n40,000 g" in texts
