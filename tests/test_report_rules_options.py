"""``crowns report --reach`` / ``--deck`` and ``run_studies(rules=...)`` (session 21): the
studies that can run under a rules option do so, into their own folder, their reports
saying so, never replacing a report of other rules (the committed default reports)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import run_cli

from crowns_solver.analysis import Section, StudyResult, registry, study
from crowns_solver.errors import DeckError, OutputExistsError, RulesError, StudyError
from crowns_solver.report import run_studies

SEEN: list[str] = []
DECK = (Path(__file__).resolve().parents[1] / "crowns_solver" / "data" / "kings_crowns_deck.toml").read_text()


@study("toy_reach", game="cross_kings", title="Toy: reach", quick_games=3, full_games=9, options=("reach",))
def toy_reach(games: int, seed: int, executor=None, reach: str = "any") -> StudyResult:
    SEEN.append(reach)
    table = pd.DataFrame({"reach": [reach], "games": [games]})
    return StudyResult(headline=f"Played under reach {reach}.", sections=[Section("Reach", table=table)],
                       games=games, rules=f"reach {reach}")


def few_sins(tmp_path: Path, name: str = "few sins", sins: int = 2) -> Path:
    text = DECK.replace('name = "default"', f'name = "{name}"')
    for colour in ("orange", "maroon", "purple"):
        text = text.replace(f"sin-{colour} = 6", f"sin-{colour} = {sins}")
    path = tmp_path / "deck.toml"
    path.write_text(text)
    return path


def test_options_are_declared_per_game():
    assert registry()["toy_reach"].options == ("reach",)
    assert set(registry()["cross_kings_players"].options) == {"reach"}
    # every Cross Kings study can be played under reach "nearest" (session 21, second pass:
    # open_vs_game and evaluation too)
    assert all(st.options == ("reach",) for st in registry().values()
               if st.game == "cross_kings" and st.name.startswith("cross_kings_"))
    assert set(registry()["kings_crowns_seats"].options) == {"deck"}
    assert registry()["five_crowns_policies"].options == ("sets", "all_wild_melds")   # session 22
    assert registry()["kings_crowns_deck"].options == ()
    with pytest.raises(StudyError, match="option 'deck' is not a rules option of cross_kings"):
        study("toy_bad_option", game="cross_kings", title="x", quick_games=1, full_games=1, options=("deck",))


def test_a_study_runs_under_the_option_into_a_folder_named_for_it(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    SEEN.clear()
    [path] = run_studies(["toy_reach"], quick=True, rules={"reach": "nearest"})
    assert SEEN == ["nearest"]
    assert path == Path("reports-quick-reach-nearest") / "toy_reach.md"
    assert not Path("reports-quick").exists()
    text = path.read_text().splitlines()
    assert text[0] == "<!-- crowns-study: toy_reach; rules: reach nearest -->"
    assert "| rules options | reach nearest (not the default rules) |" in text
    assert ("| rerun | `crowns report --only toy_reach --reach nearest --seed 2026 --games 3"
            " --out reports-quick-reach-nearest` |") in text
    index = (path.parent / "index.md").read_text()
    assert "[Toy: reach (rules options reach nearest)](toy_reach.md)" in index
    # reach "any" is RULES.md's default: no variant at all
    SEEN.clear()
    [path] = run_studies(["toy_reach"], quick=True, rules={"reach": "any"})
    assert SEEN == ["any"] and path == Path("reports-quick") / "toy_reach.md"
    assert path.read_text().startswith("<!-- crowns-study: toy_reach -->\n")


def test_a_report_is_never_replaced_by_one_of_other_rules(tmp_path):
    out = tmp_path / "r"
    [default] = run_studies(["toy_reach"], out_dir=out)
    before = default.read_text()
    with pytest.raises(OutputExistsError, match=r"toy_reach.md is a report made under the default rules, not"
                                                r" rules options reach nearest; pass force=True"):
        run_studies(["toy_reach"], out_dir=out, rules={"reach": "nearest"})
    assert default.read_text() == before
    run_studies(["toy_reach"], out_dir=out, rules={"reach": "nearest"}, force=True)
    assert default.read_text().startswith("<!-- crowns-study: toy_reach; rules: reach nearest -->")
    # and the reverse: the variant report is not replaced by a default-rules run
    with pytest.raises(OutputExistsError, match="made under rules options reach nearest, not the default rules"):
        run_studies(["toy_reach"], out_dir=out)


def test_bad_options_are_refused_naming_them_before_any_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StudyError, match=r"toy_coins|kings_crowns_seats does not take reach"):
        run_studies(["kings_crowns_seats"], rules={"reach": "nearest"})
    with pytest.raises(RulesError, match="reach must be 'any' or 'nearest', got 'sideways'"):
        run_studies(["toy_reach"], rules={"reach": "sideways"})
    with pytest.raises(StudyError, match="unknown rules option 'speed'"):
        run_studies(["toy_reach"], rules={"speed": 2})
    with pytest.raises(StudyError, match="no study takes reach and deck together"):
        run_studies(rules={"reach": "nearest", "deck": few_sins(tmp_path)})
    from crowns_solver.kings_crowns import DEFAULT_DECK

    with pytest.raises(StudyError, match="deck is the path of a deck file"):
        run_studies(["kings_crowns_seats"], rules={"deck": DEFAULT_DECK})
    # a deck without a Salvation, or too small to deal five hands: refused, not after a study ran
    small = tmp_path / "small.toml"
    small.write_text('name = "small"\ncrown-black-5 = 40\n')
    with pytest.raises(RulesError, match="the deck 'small' has no Salvation"):
        run_studies(["kings_crowns_seats"], rules={"deck": small})
    small.write_text('name = "small"\nsalvation = 4\ncrown-black-20 = 6\n')
    with pytest.raises((DeckError, RulesError), match="'small'"):
        run_studies(["kings_crowns_seats"], rules={"deck": small})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.toml", "small.toml"]


def test_cli_runs_the_studies_that_take_the_option_and_refuses_the_others(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(capsys, "report", "--only", "toy_reach", "--reach", "nearest", "--no-progress")
    assert code == 0, err
    assert out.splitlines() == ["wrote reports-reach-nearest/toy_reach.md", "index: reports-reach-nearest/index.md"]
    code, out, err = run_cli(capsys, "report", "--only", "five_crowns_policies", "--reach", "nearest")
    assert code == 2 and err.startswith("crowns: error: five_crowns_policies does not take --reach (it takes only"
                                        " --sets and --no-all-wild-melds); studies that take --reach:"
                                        " cross_kings_evaluation,"
                                        " cross_kings_first_player, cross_kings_open_vs_game, cross_kings_players,"
                                        " cross_kings_start_cell")
    code, out, err = run_cli(capsys, "report", "--deck", "missing.toml")
    assert code == 2 and "missing.toml" in err and len(err.splitlines()) == 1
    code, out, err = run_cli(capsys, "report", "x.jsonl", "--reach", "nearest")
    assert code == 2 and "a results file records the rules it was played under" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["reports-reach-nearest"]


def test_the_cross_kings_studies_play_under_the_reach_given(monkeypatch):
    import crowns_solver.analysis.cross_kings_strategy as ck

    reaches = []
    real_match, real_self_play = ck.match, ck.self_play

    def match(*args, **kw):
        reaches.append(("match", kw.get("reach")))
        return real_match(*args, **kw)

    def self_play(*args, **kw):
        reaches.append(("self_play", kw.get("reach")))
        return real_self_play(*args, **kw)

    monkeypatch.setattr(ck, "match", match)
    monkeypatch.setattr(ck, "self_play", self_play)
    result = ck.players(len(ck.PAIRINGS), 1, reach="nearest")
    assert reaches == [("match", "nearest")] * len(ck.PAIRINGS)
    assert 'reach "nearest"' in result.rules and 'reach "any"' not in result.rules
    assert result.headline.startswith('Under reach "nearest", the search player (100k nodes a move) scores')
    assert ck.players_headline(pd.DataFrame(result.sections[0].table)).startswith("The search player")
    reaches.clear()
    result = ck.first_player(3, 1, reach="nearest")
    assert reaches == [("self_play", "nearest")] * 3
    # crosskings.net's published self-play is under reach "any": not compared
    assert "Against the published self-play" not in [s.title for s in result.sections]
    assert "crosskings.net" not in result.headline and 'under reach "nearest"' in result.headline


def test_the_start_cell_study_deals_under_the_reach_given():
    from crowns_solver.analysis.cross_kings_strategy import start_cell, start_cell_chunk
    from crowns_solver.cross_kings import Deal
    from crowns_solver.cross_kings.match import play_game
    from crowns_solver.cross_kings.players import make_player

    rows = start_cell_chunk(0, 1, None, chunk_size=1, root_seed=3, nodes=300, estimate_nodes=300, reach="nearest")
    deal = Deal.random(np.random.default_rng(np.random.SeedSequence([3, 0])))
    p = make_player("search", node_limit=300)
    for c in (14, 21):
        g = play_game(deal.position("nearest"), p, p, start=c)
        assert rows[0][f"margin_{c}"] == g.scores[1] - g.scores[0]
        assert all(len(m) for m in [g.moves])   # played to the end
    result = start_cell(1, 3, reach="nearest")
    assert result.headline.startswith('Under reach "nearest", the search expects its best-ranked start cell')
    assert 'reach "nearest"' in result.rules


def test_the_kings_crowns_studies_deal_the_deck_given(tmp_path, monkeypatch):
    import crowns_solver.kings_crowns as kc
    from crowns_solver.analysis import kings_crowns_length, kings_crowns_seats
    from crowns_solver.kings_crowns.deck import load_deck

    deck = load_deck(few_sins(tmp_path))
    decks = []
    real = kc.simulate

    def simulate(*args, **kw):
        decks.append(kw["rules"].deck)
        return real(*args, **kw)

    monkeypatch.setattr(kc, "simulate", simulate)
    result = kings_crowns_seats.run(20, 1, deck=deck)
    assert decks and all(d == deck for d in decks)
    assert "the deck 'few sins' (106 cards" in result.rules and "sin-orange 2" in result.rules
    decks.clear()
    kings_crowns_length.run(20, 1)
    assert decks and all(d.name == "default" for d in decks)


def test_the_endgame_study_reaches_and_solves_its_endgames_under_the_reach_given(monkeypatch):
    import crowns_solver.analysis.cross_kings_strategy as ck

    reaches = []
    real_solve = ck.solve

    def solve(pos, **kw):
        reaches.append(pos.reach)
        return real_solve(pos, **kw)

    monkeypatch.setattr(ck, "solve", solve)
    rows = ck.endgame_chunk(0, 2, None, chunk_size=2, root_seed=3, reach="nearest")
    assert len(rows) == 2 and reaches and set(reaches) == {"nearest"}
    reaches.clear()
    ck.endgame_chunk(0, 1, None, chunk_size=1, root_seed=3)
    assert reaches and set(reaches) == {"any"}
    reaches.clear()
    result = ck.open_vs_game(4, 1, reach="nearest")
    assert reaches and set(reaches) == {"nearest"}
    assert result.headline.startswith('Under reach "nearest", if both players could see the face-down cards')
    assert 'reach "nearest"' in result.rules and 'reach "any"' not in result.rules
    assert ck.open_vs_game(4, 1).headline.startswith("If both players could see")


def test_the_evaluation_study_plays_under_the_reach_given_and_says_where_its_weights_come_from(monkeypatch):
    import crowns_solver.analysis.cross_kings_evaluation as ev

    reaches = []
    real_match, real_play_game = ev.match, ev.play_game

    def match(*args, **kw):
        reaches.append(("match", kw.get("reach")))
        return real_match(*args, **kw)

    def play_game(pos, *args, **kw):
        reaches.append(("game", pos.reach))
        return real_play_game(pos, *args, **kw)

    monkeypatch.setattr(ev, "match", match)
    monkeypatch.setattr(ev, "play_game", play_game)
    result = ev.evaluation(3, 1, reach="nearest")
    assert reaches == [("game", "nearest")] * 3 + [("match", "nearest")]
    assert result.headline.startswith('Under reach "nearest" (the library\'s weights were fitted under reach "any"),'
                                      " the fitted evaluation misses")
    assert 'reach "nearest"' in result.rules and 'fitted on games under reach "any"' in result.rules
    weights = next(s.text for s in result.sections if s.title == "Weights")
    assert 'refit column is this run\'s own fit under reach "nearest"' in weights


def test_a_run_of_another_size_or_seed_gets_its_own_default_folder(tmp_path, monkeypatch):
    """Session-21 probe: ``crowns report --only NAME --games 10`` in a clone wrote to
    ./reports and replaced the committed full report with a 10-game one, silently (it was
    written by crowns report, so it counted as replaceable).  Now the size and the seed
    join the default folder's name as the rules options do."""
    monkeypatch.chdir(tmp_path)
    [full] = run_studies(["toy_reach"])
    assert full == Path("reports") / "toy_reach.md"
    before = full.read_text()
    [small] = run_studies(["toy_reach"], games=2)
    assert small == Path("reports-games-2") / "toy_reach.md"
    [other] = run_studies(["toy_reach"], quick=True, seed=7)
    assert other == Path("reports-quick-seed-7") / "toy_reach.md"
    [both] = run_studies(["toy_reach"], quick=True, seed=7, games=2, rules={"reach": "nearest"})
    assert both == Path("reports-quick-reach-nearest-games-2-seed-7") / "toy_reach.md"
    assert full.read_text() == before                     # the full report is as it was
    # its rerun command names its own folder, so it reruns exactly
    assert ("| rerun | `crowns report --only toy_reach --seed 2026 --games 2 --out reports-games-2` |"
            in small.read_text().splitlines())
    # the default seed given explicitly is the default run
    [same] = run_studies(["toy_reach"], seed=2026)
    assert same == full
    # and an explicit folder is used as given
    [given] = run_studies(["toy_reach"], games=2, out_dir="reports")
    assert given == full and "--games 2" in full.read_text()
