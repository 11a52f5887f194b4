"""``crowns report --deck`` (session 24): a deck's counts are part of the rules a report
records, so another deck under the same name is other rules; a deck name without letters
or digits gets a folder named by the counts' digest, not "chart"; ``--help`` says a copy
of the default deck is the default rules.  And a zero-width interval reads "no spread" in
the Cross Kings orientation sentence and in ``ci_text``, not "covers 0 ... between 0.00
and 0.00"."""

from __future__ import annotations

import argparse
import hashlib
import shutil
from pathlib import Path

import pandas as pd
import pytest
from conftest import run_cli

from crowns_solver.analysis import registry
from crowns_solver.errors import OutputExistsError
from crowns_solver.kings_crowns import DEFAULT_DECK
from crowns_solver.kings_crowns.deck import load_deck
from crowns_solver.report import run_studies

ROOT = Path(__file__).resolve().parents[1]
DECK = (ROOT / "crowns_solver" / "data" / "kings_crowns_deck.toml").read_text()


def deck_file(path: Path, name: str = "few sins", sins: int = 2) -> Path:
    """The default deck renamed `name`, with `sins` of each Sin (6 in the default)."""
    text = DECK.replace('name = "default"', f'name = "{name}"')
    for colour in ("orange", "maroon", "purple"):
        text = text.replace(f"sin-{colour} = 6", f"sin-{colour} = {sins}")
    path.write_text(text)
    return path


def test_the_digest_is_a_stable_hash_of_the_counts_only(tmp_path):
    # the canonical text, spelled out: name=count lines sorted by card name, SHA-256, 8 hex digits
    text = "\n".join(f"{k}={v}" for k, v in sorted(DEFAULT_DECK.to_dict().items()))
    assert DEFAULT_DECK.digest == hashlib.sha256(text.encode()).hexdigest()[:8] == "19924479"
    renamed = load_deck(deck_file(tmp_path / "a.toml", name="other name", sins=6))
    assert renamed.counts == DEFAULT_DECK.counts and renamed.digest == DEFAULT_DECK.digest
    few = load_deck(deck_file(tmp_path / "b.toml", sins=2))
    fewer = load_deck(deck_file(tmp_path / "c.toml", sins=1))
    assert len({DEFAULT_DECK.digest, few.digest, fewer.digest}) == 3


def test_another_deck_of_the_same_name_is_other_rules(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = deck_file(tmp_path / "few.toml", sins=2)
    first = load_deck(path)
    kw = dict(games=2, workers=1, rules={"deck": path})
    [seats] = run_studies(["kings_crowns_seats"], **kw)
    assert seats.parent == Path("reports-deck-few-sins-games-2")
    words = f"deck few sins ({first.size} cards, digest {first.digest})"
    assert first.size == 106
    assert seats.read_text().splitlines()[0] == f"<!-- crowns-study: kings_crowns_seats; rules: {words} -->"
    assert f"| rules options | {words} (not the default rules) |" in seats.read_text()
    assert run_studies(["kings_crowns_seats"], **kw) == [seats]   # the same deck again: its own rerun
    before = seats.read_text()

    deck_file(path, sins=3)   # same name, 109 cards
    second = load_deck(path)
    # the same study: refused, naming both decks' counts (it replaced the first deck's report)
    with pytest.raises(OutputExistsError, match=rf"kings_crowns_seats.md is a report made under rules options"
                                                rf" deck few sins \(106 cards, digest {first.digest}\), not rules"
                                                rf" options deck few sins \(109 cards, digest {second.digest}\);"
                                                r" pass force=True"):
        run_studies(["kings_crowns_seats"], **kw)
    # another study into the same folder: refused too (the folder mixed the two decks)
    with pytest.raises(OutputExistsError, match=rf"kings_crowns_seats.md is a report made with another deck named"
                                                rf" 'few sins' \(106 cards, digest {first.digest}\) than this run's"
                                                rf" \(109 cards, digest {second.digest}\); pass force=True to write"
                                                r" beside it or choose another out_dir"):
        run_studies(["kings_crowns_length"], **kw)
    assert seats.read_text() == before
    assert sorted(p.name for p in seats.parent.iterdir()) == ["index.md", "kings_crowns_seats", "kings_crowns_seats.md"]
    # with force it is written beside it, and the index tells the two decks apart
    run_studies(["kings_crowns_length"], force=True, **kw)
    index = (seats.parent / "index.md").read_text()
    assert f"(rules options deck few sins (106 cards, digest {first.digest}))](kings_crowns_seats.md)" in index
    assert f"(rules options deck few sins (109 cards, digest {second.digest}))](kings_crowns_length.md)" in index


def test_a_report_from_before_the_digest_is_not_taken_for_the_same_deck(tmp_path):
    out = tmp_path / "r"
    out.mkdir()
    (out / "kings_crowns_seats.md").write_text("<!-- crowns-study: kings_crowns_seats; rules: deck few sins -->\n")
    path = deck_file(tmp_path / "few.toml")
    with pytest.raises(OutputExistsError, match="another deck named 'few sins' \\(its counts not recorded"):
        run_studies(["kings_crowns_length"], out_dir=out, games=2, workers=1, rules={"deck": path})
    # a report of another deck, or of other rules options, does not stand in the way
    (out / "kings_crowns_seats.md").write_text("<!-- crowns-study: kings_crowns_seats; rules: deck few sins 2"
                                               " (38 cards, digest 041c9c73) -->\n")
    (out / "toy.md").write_text("<!-- crowns-study: toy; rules: reach nearest -->\n")
    run_studies(["kings_crowns_length"], out_dir=out, games=2, workers=1, rules={"deck": path})


@pytest.mark.parametrize("name", ["!!!", ".", "--"])
def test_a_deck_name_without_letters_or_digits_gets_the_digest_as_folder(tmp_path, capsys, monkeypatch, name):
    monkeypatch.chdir(tmp_path)
    path = deck_file(tmp_path / "odd.toml", name=name)
    digest = load_deck(path).digest
    code, out, err = run_cli(capsys, "report", "--only", "kings_crowns_seats", "--deck", str(path), "--games", "2",
                             "--workers", "1", "--no-progress")
    assert code == 0, err
    assert out.splitlines()[0] == f"wrote reports-deck-{digest}-games-2/kings_crowns_seats.md"
    assert not any("chart" in p.name for p in tmp_path.iterdir())


def test_help_says_a_copy_of_the_default_deck_is_the_default_rules():
    from crowns_solver.report import register_command

    parser = argparse.ArgumentParser()
    register_command(parser)
    [deck] = [a for a in parser._actions if "--deck" in a.option_strings]
    text = " ".join(deck.help.split())
    assert "./reports[-quick]-deck-NAME unless --out" in text
    assert "a deck with the default counts, whatever its name, is the default rules: ./reports[-quick]" in text
    assert "digest of its counts when the name has no letter or digit" in text


def test_a_copy_of_the_default_deck_still_matches_the_committed_reports(tmp_path):
    from crowns_solver.report import _check_deck_name, _claim, _default_out, _study_marker, _variant

    copy = _variant({"deck": deck_file(tmp_path / "mine.toml", name="my copy", sins=6)}, cli=True)
    assert copy.words == "" and _default_out(False, copy) == "reports"
    out = tmp_path / "reports"
    shutil.copytree(ROOT / "reports", out)
    studies = [n for n, st in registry().items() if "deck" in st.options and (out / f"{n}.md").exists()]
    assert len(studies) == 3
    for name in studies:   # what a rerun of the committed reports with that deck claims: nothing refused
        assert _claim(out / f"{name}.md", _study_marker(name, copy.words), [out / name], force=False,
                      option="--out") == f"<!-- crowns-study: {name} -->"
    _check_deck_name(out, copy, force=False, option="--out")


def test_a_zero_width_interval_reads_no_spread():
    from crowns_solver.analysis._intervals import ci_text
    from crowns_solver.analysis.cross_kings_strategy import orientation_sentence

    flat = orientation_sentence(pd.Series({"difference": 0.0, "difference_low": 0.0, "difference_high": 0.0,
                                           "games": 4}))
    assert "covers 0" not in flat and "leaves room" not in flat and "between" not in flat
    assert "did not move the first player's margin on any of 4 deals (no spread" in flat
    moved = orientation_sentence(pd.Series({"difference": 2.0, "difference_low": 2.0, "difference_high": 2.0}))
    assert "excludes 0" not in moved and "(+2.00 to +2.00)" not in moved
    assert "by the same +2.00 points on each of these deals (no spread)" in moved
    assert ci_text(0.0, 0.0) == ci_text(1.5, 1.5, ".1f", sep="-") == "no spread"
    assert ci_text(-1.0, 2.0) == "95% CI -1.00 to +2.00"
