"""Every chart whose error bars are confidence intervals says so, and over what
(session 22): the players and stuck charts gave interval-based rates without saying
over how many deals or games the intervals were."""

from __future__ import annotations

import re

import pytest
from matplotlib.container import BarContainer, ErrorbarContainer

from crowns_solver._text import intervals_over
from crowns_solver.analysis import registry

OVER = re.compile(r"95% intervals over (\d[\d,]*)(?:-(\d[\d,]*))? (deals?|games?|hands?|positions?)\b")

#: Small sizes that still draw every chart (the study's own minimum where it has one).
SIZES = {
    "cross_kings_first_player": 3, "cross_kings_start_cell": 1, "cross_kings_open_vs_game": 4,
    "cross_kings_players": 7, "cross_kings_evaluation": None,   # its chart has no error bars
    "five_crowns_deals": 11 * 40, "five_crowns_policies": 4, "five_crowns_stuck": 10, "five_crowns_tracker": 6,
    "kings_crowns_deck": 8, "kings_crowns_length": 20, "kings_crowns_seats": 20, "kings_crowns_tournament": 20,
}


def has_error_bars(fig) -> bool:
    return any(isinstance(c, ErrorbarContainer) or (isinstance(c, BarContainer) and c.errorbar is not None)
               for ax in fig.axes for c in ax.containers)


def chart_words(fig) -> str:
    texts = [fig._suptitle.get_text() if fig._suptitle is not None else ""]
    for ax in fig.axes:
        texts += [ax.get_title(loc) for loc in ("center", "left", "right")] + [ax.get_xlabel(), ax.get_ylabel()]
    return "\n".join(texts)


def test_intervals_over_counts_and_ranges():
    assert intervals_over(400, "deal", each="per match") == "95% intervals over 400 deals per match"
    assert intervals_over([45, 38, 40], "position", each="per point") == "95% intervals over 38-45 positions per point"
    assert intervals_over([1200, 1200], "game") == "95% intervals over 1,200 games"
    assert intervals_over(1, "game") == "95% intervals over 1 game"


def test_every_study_is_sized_here():
    # the project's studies (other tests register toy ones)
    assert set(SIZES) == {n for n, s in registry().items() if s.module.startswith("crowns_solver.analysis.")}


@pytest.mark.parametrize("name", sorted(n for n, size in SIZES.items() if size is not None))
def test_a_study_chart_with_error_bars_says_what_its_intervals_are_over(name):
    study = registry()[name]
    result = study.run(max(SIZES[name], study.min_games), 7)
    charts = [s.figure for s in result.sections if s.figure is not None and has_error_bars(s.figure)]
    assert charts, f"{name} draws no chart with error bars"
    for fig in charts:
        words = chart_words(fig)
        match = OVER.search(words)
        assert match, f"{name}: {words!r}"
        if name == "cross_kings_players":   # a duplicate match: over deals (7 pairings, one deal each)
            assert "95% intervals over 1 deal per match (2 games each)" in words
        elif name == "five_crowns_stuck":   # each game one observation
            assert match.group(3) == "games" and 1 <= int(match.group(2) or match.group(1)) <= result.games


def test_a_results_report_says_its_win_rate_intervals_are_over_games(tmp_path, monkeypatch):
    from matplotlib.figure import Figure

    from crowns_solver.kings_crowns import simulate
    from crowns_solver.report import write_report

    out = tmp_path / "kc.jsonl"
    simulate(12, players=3, policies=["greedy", "random", "greedy"], seed=1, workers=1, out=out)
    saved = {}
    real = Figure.savefig

    def savefig(self, path, *args, **kwargs):
        name = str(path).rsplit("/", 1)[-1]   # saved under a temporary name, then moved into place
        saved[name.lstrip(".").replace(".tmp", "")] = chart_words(self)
        return real(self, path, *args, **kwargs)

    monkeypatch.setattr(Figure, "savefig", savefig)
    write_report(out, tmp_path / "rep")
    assert "95% intervals over 12 games per bar" in saved["win_rate_by_seat.png"]
    assert "95% intervals over 12 games per bar" in saved["win_rate_by_policy.png"]
