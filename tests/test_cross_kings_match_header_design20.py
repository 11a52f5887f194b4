"""``cross-kings match`` text names the players' options (session-20 design probe): the
search players' node limit, objective and evaluation decide the results as much as their
names, yet the printed header gave only the names (the results file and its report had
them); and one deal was "1 deals"."""

from __future__ import annotations

from conftest import run_cli


def test_the_header_names_each_players_options(capsys):
    code, out, err = run_cli(capsys, "cross-kings", "match", "--a", "search", "--b", "clairvoyant", "--deals", "1",
                             "--nodes", "500", "--objective", "win", "--b-evaluation", "potential", "--workers", "1")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("search (A) vs clairvoyant (B): 1 deal x 2 games (seats exchanged), seed 0,")
    assert lines[1] == ("player options: A node_limit=500, objective=win;"
                        " B node_limit=500, objective=win, evaluation=potential")


def test_players_without_options_get_no_options_line(capsys):
    code, out, err = run_cli(capsys, "cross-kings", "match", "--a", "greedy", "--b", "random", "--deals", "2",
                             "--workers", "1")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("greedy (A) vs random (B): 2 deals x 2 games")
    assert lines[1].startswith("A's results over 4 games")
