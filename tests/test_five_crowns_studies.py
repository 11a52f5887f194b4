"""The Five Crowns studies (analysis/five_crowns_*.py): small runs end to end, checked."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from crowns_solver.analysis import registry
from crowns_solver.analysis.base import check_result
from crowns_solver.errors import StudyError
from fc_reference import brute_force_deadwood

from crowns_solver.five_crowns.cards import card_name, full_deck
from crowns_solver.report import run_studies
from crowns_solver._text import percent

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
STUDIES = ("five_crowns_deals", "five_crowns_policies", "five_crowns_stuck", "five_crowns_tracker")


def _sane(table: pd.DataFrame) -> None:
    """Rates in 0..1 and every estimate inside its interval (also what check_result checks)."""
    for col in table.columns:
        if col.endswith("_rate") or col == "win":
            assert table[col].between(0, 1).all(), col
        if f"{col}_low" in table.columns:
            # a single observation has no interval (NaN bounds, as check_result allows)
            known = table[f"{col}_low"].notna() & table[f"{col}_high"].notna()
            t = table[known]
            assert (t[f"{col}_low"] <= t[col] + 1e-9).all() and (t[col] <= t[f"{col}_high"] + 1e-9).all()


def test_the_studies_are_registered():
    studies = registry()
    for name in STUDIES:
        st = studies[name]
        assert st.game == "five_crowns" and st.quick_games < st.full_games


def test_deals_study_end_to_end(tmp_path):
    (path,) = run_studies(["five_crowns_deals"], out_dir=tmp_path, workers=1, seed=3, games=330)
    text = path.read_text()
    assert "| games | 330 |" in text and "| seed | 3 |" in text
    pngs = sorted((tmp_path / "five_crowns_deals").glob("*.png"))
    assert len(pngs) == 2 and all(p.read_bytes()[:8] == PNG_MAGIC for p in pngs)
    assert all(f"five_crowns_deals/{p.name}" in text for p in pngs)
    # the same study, same seed: the same tables
    result = registry()["five_crowns_deals"].run(330, 3)
    table = result.sections[0].table
    assert len(table) == 11 and (table["games"] == 30).all() and table["cards"].tolist() == list(range(3, 14))
    _sane(table)
    # a complete hand goes out whatever it draws
    assert (table["first_draw_rate"] >= table["complete_rate"]).all()
    assert f"{percent(table['complete_rate'].iloc[0], 1)}" in text.splitlines()[3]


def _deals_like(rates: dict[int, float], hands) -> pd.DataFrame:
    rows = [{"round": n - 2, "cards": n, "games": hands[n - 3] if isinstance(hands, list) else hands,
             "complete_rate": rates[n], "first_draw_rate": min(1.0, 2 * rates[n])} for n in range(3, 14)]
    return pd.DataFrame(rows)


def test_deals_headline_names_the_sizes_the_data_gives():
    from crowns_solver.analysis.five_crowns_hands import deals_headline

    # lowest at 4, 6 and 9 cards: the headline says so (it used to print "5, 8 and 11" always)
    rates = {n: 0.05 for n in range(3, 14)} | {3: 0.11, 13: 0.02, 4: 0.004, 6: 0.001, 9: 0.003}
    text = deals_headline(_deals_like(rates, 10000))
    assert "least often with 4, 6 and 9 cards (0.40%, 0.10%, 0.30%)" in text
    assert "5, 8" not in text and "11.0% of the time with 3 cards and 2.0% with 13" in text
    assert text.endswith("(10000 seeded hands per round).")
    # a tiny run where most sizes never melded: it says so of the hands dealt (not "never"), naming every size
    rates = {n: 0.0 for n in range(3, 14)} | {3: 1.0}
    text = deals_headline(_deals_like(rates, [2] * 3 + [1] * 8))
    assert "not once in the hands dealt with 4, 5, 6, 7, 8, 9, 10, 11, 12 and 13 cards" in text
    assert "never" not in text and "(1 to 2 seeded hands" in text


def test_deals_study_deals_exactly_the_hands_asked_for():
    from crowns_solver.analysis.five_crowns_hands import split_hands

    assert split_hands(11) == [1] * 11 and split_hands(24) == [3, 3] + [2] * 9
    result = registry()["five_crowns_deals"].run(13, 3)
    table = result.sections[0].table
    assert result.games == 13 and table["games"].tolist() == [2, 2] + [1] * 9
    for bad in (1, 10):  # fewer hands than rounds: refused, not silently rounded up
        with pytest.raises(StudyError, match=rf"needs games >= 11 \(at least one hand per round\), got {bad}$"):
            registry()["five_crowns_deals"].run(bad, 3)


def test_first_draw_chance_against_brute_force():
    from crowns_solver.analysis.five_crowns_hands import deal_hands, first_draw_chance

    rng = np.random.default_rng(12)
    for n in (3, 4, 5):
        hands = deal_hands(n, 6, rng)
        assert hands.shape == (6, n)
        p = first_draw_chance(hands, n)
        for hand, chance in zip(hands, p):
            assert (np.bincount(hand, minlength=56) <= full_deck()).all()
            names = [card_name(int(c)) for c in hand]
            left = full_deck() - np.bincount(hand, minlength=56)
            good = 0
            for d in range(56):
                if left[d] == 0:
                    continue
                cards = names + [card_name(d)]
                if any(brute_force_deadwood(cards[:i] + cards[i + 1:], n) == 0 for i in range(n + 1)):
                    good += int(left[d])
            assert chance == pytest.approx(good / (116 - n))


def test_deals_are_seeded_shuffles():
    from crowns_solver.analysis.five_crowns_hands import deal_hands

    a = deal_hands(13, 200, np.random.default_rng(5))
    b = deal_hands(13, 200, np.random.default_rng(5))
    assert (a == b).all()
    counts = np.bincount(a.ravel(), minlength=56)
    # 2600 cards from a 116-card set: jokers (6 of 116) about 134 times, each natural about 45
    assert 90 < counts[55] < 180 and counts[:55].min() > 15


@pytest.mark.parametrize("name, games", [("five_crowns_policies", 8), ("five_crowns_stuck", 12),
                                         ("five_crowns_tracker", 8)])
def test_simulation_studies_small(name, games):
    result = registry()[name].run(games, 1)
    check_result(result, name)
    assert result.headline.strip() and result.rules
    for section in result.sections:
        fig = section.figure
        # a title on an axes or on the figure (the tracker's head-to-head panels share one, session 22)
        assert fig is not None and (any(ax.get_title() for ax in fig.axes) or fig._suptitle is not None)
        assert all(ax.get_xlabel() for ax in fig.axes if ax.get_ylabel() or ax is fig.axes[-1])
        if section.table is not None:
            _sane(section.table)
    first = result.sections[0].table
    if name == "five_crowns_policies":
        assert result.games == 8 and (first["games"] == 8).all()
        assert sorted(first["player"]) == ["advisor", "greedy", "random", "tracker"]
        # one of each at the table: the going-out rates of a round add up to at most 1
        rounds = result.sections[2].table
        assert (rounds.groupby("round")["out_rate"].sum() <= 1 + 1e-9).all()
    elif name == "five_crowns_stuck":
        assert result.games == 12 and (first["hands"] == 48).all()
        assert (first["stuck_rate"] <= 0.75).all()  # one seat in four goes out
        assert first["points_share_rate"].sum() == pytest.approx(1.0)
    else:
        assert first["opponent"].tolist() == ["advisor", "greedy", "random"]
        assert (first["games"] == 2 * first["deals"]).all() and result.games == first["games"].sum()


def test_paired_gap_is_the_mean_per_deal_difference_with_its_interval():
    """The players study's headline compares the two best players on the same deals: the
    mean over deals of (a's mean total over the deal's seatings - b's), Student t interval."""
    import statistics

    from crowns_solver.analysis.five_crowns_players import paired_gap

    rows = []
    totals = {0: ([90, 100], [95, 99]), 1: ([80, 84], [90, 92]), 2: ([120, 110], [118, 121])}
    for deal, (a, b) in totals.items():
        for seating in range(2):
            rows += [{"deal": deal, "game": 2 * deal + seating, "policy": "advisor", "total": a[seating]},
                     {"deal": deal, "game": 2 * deal + seating, "policy": "tracker", "total": b[seating]},
                     {"deal": deal, "game": 2 * deal + seating, "policy": "random", "total": 300}]
    diffs = [statistics.fmean(a) - statistics.fmean(b) for a, b in totals.values()]   # -2, -9, -4.5
    # Student's t(0.975) with 3 - 1 degrees of freedom, 4.302653 (the normal 1.96 gave -9.18 to
    # -1.15 here, excluding 0 from 3 deals)
    half = 4.302652729911275 * statistics.stdev(diffs) / len(diffs) ** 0.5
    gap, low, high = paired_gap(pd.DataFrame(rows), "advisor", "tracker")
    assert gap == pytest.approx(statistics.fmean(diffs))
    assert (low, high) == pytest.approx((gap - half, gap + half))
