"""Every study reads right at the smallest sizes (session 21 polish, item 1): at
``--games 1`` and ``3`` no text says "nan" or "1 deals" / "1 games" / "1 positions", an
interval over one observation is said not to exist, and a study that cannot run that small
is refused by its ``min_games`` before any study runs."""

from __future__ import annotations

import re
import warnings

import pytest
from conftest import run_cli

from crowns_solver.analysis.base import registry
from crowns_solver.errors import StudyError

# the project's studies (other test modules register toy ones in the same registry)
STUDIES = {name: st for name, st in registry().items() if st.module.startswith("crowns_solver.analysis.")}
# "1 deals", "1 games", "1 held-out games"... (not "0.1 points", "21 games", "1,000 games")
BAD_PLURAL = re.compile(r"(?<![\d.,])1 (?:[\w-]+ )?(?:deals|games|positions|hands|seatings|observations)\b")


def _texts(result):
    texts = [result.headline, result.rules, result.intervals or ""]
    for section in result.sections:
        texts += [section.title, section.text]
        if section.figure is not None:
            fig = section.figure
            texts += [fig._suptitle.get_text() if fig._suptitle is not None else ""]
            texts += [ax.get_title() for ax in fig.axes]
    return texts


@pytest.mark.parametrize("games", [1, 3])
@pytest.mark.parametrize("name", list(STUDIES))
def test_every_study_reads_right_at_small_sizes(name, games):
    st = STUDIES[name]
    if games < st.min_games:
        with pytest.raises(StudyError, match=rf"^{name} needs games >= {st.min_games} \(.+\), got {games}$"):
            st.run(games, 2026)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = st.run(games, 2026)
    for text in _texts(result):
        assert not re.search(r"\bnan\b", text, re.I), (name, text)
        assert not BAD_PLURAL.search(text), (name, BAD_PLURAL.search(text).group(), text)


def test_one_deal_says_no_interval_and_claims_nothing():
    # cross_kings_first_player with games 3 plays one deal: the paired difference has no
    # interval, so it is neither "not separable from 0" nor printed as +nan
    result = STUDIES["cross_kings_first_player"].run(3, 2026)
    assert "of 1 game when" in result.headline
    assert "no interval from one deal, on the same deal)" in result.headline
    assert "not separable from 0" not in result.headline
    orientation = result.sections[3].text
    assert "The interval covers 0" not in orientation
    assert "From one deal there is no interval" in orientation
    tracker = STUDIES["five_crowns_tracker"].run(1, 2026).headline
    assert tracker.startswith("On one deal (both seatings)")
    assert "no interval from one deal" in tracker and "no separable difference" not in tracker


def test_report_refuses_a_too_small_study_before_running_any(capsys, tmp_path):
    # five_crowns_deals needs 11 hands; --games 3 used to run the five Cross Kings studies
    # first (about 12 s) and then fail
    out = tmp_path / "r"
    code, _, err = run_cli(capsys, "report", "--games", "3", "--out", str(out))
    assert code == 2
    assert err.strip() == ("crowns: error: five_crowns_deals needs --games >= 11 (at least one hand per round),"
                           " got 3")
    assert not out.exists()
    code, _, err = run_cli(capsys, "report", "--games", "1", "--only", "cross_kings_evaluation", "--out", str(out))
    assert code == 2
    assert err.strip() == ("crowns: error: cross_kings_evaluation needs --games >= 3 (every third game is held"
                           " out), got 1")
    assert not out.exists()


def test_first_player_does_not_speak_of_other_deals_when_every_deal_started_at_2_2():
    result = STUDIES["cross_kings_first_player"].run(3, 2026)   # one deal, started at (2,2)
    paired = result.sections[2].text
    assert "in 100% of deals" in paired
    assert "the other deals" not in paired and "the difference is 0" in paired
