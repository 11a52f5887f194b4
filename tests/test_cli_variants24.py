"""Session 24 (a tester using the rule variants): kings-crowns simulate takes its seats from
the policies named, as five-crowns simulate does (three policies were refused: "one per
seat (4); got 3"); every command's --help has a description; --wild out of range names it."""
import json

import pytest

from conftest import cli_fails, run_cli


def _json(capsys, *argv):
    code, out, err = run_cli(capsys, "kings-crowns", "simulate", "--games", "6", "--workers", "1", "--json", *argv)
    assert code == 0, err
    return json.loads(out)


@pytest.mark.parametrize("policies, players", [(["greedy", "random", "aggressive"], 3), (["greedy", "random"], 2),
                                               (["greedy"], 4), ([], 4)])
def test_seats_follow_the_policies_named(capsys, policies, players):
    out = _json(capsys, *(["--policy", *policies] if policies else []))
    assert out["players"] == players
    assert out["policies"] == (policies if len(policies) > 1 else [policies[0] if policies else "greedy"] * 4)


def test_players_given_still_decides(capsys):
    assert _json(capsys, "--players", "2", "--policy", "random")["players"] == 2
    assert cli_fails(capsys, "kings-crowns", "simulate", "--games", "2", "--workers", "1", "--players", "4",
                     "--policy", "greedy", "random", "aggressive") == (
        "crowns: error: give one policy, or one per seat (4); got 3")


def test_six_policies_say_the_player_range(capsys):
    assert cli_fails(capsys, "kings-crowns", "simulate", "--games", "2", "--workers", "1",
                     "--policy", *["greedy"] * 6) == (
        "crowns: error: King's Crowns is for 2 to 5 players, got 6 --policy names (one seat each; give one to 5"
        " of them, or --players P with one policy or P)")


def _commands(parser, path=()):
    import argparse

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield path + (name,), sub
                yield from _commands(sub, path + (name,))


def test_every_command_help_has_a_description():
    # five-crowns replay and kings-crowns deck showed only usage and options (session 24)
    from crowns_solver.cli import build_parser

    commands = dict(_commands(build_parser()))
    assert ("five-crowns", "replay") in commands and ("kings-crowns", "deck") in commands
    missing = [" ".join(path) for path, sub in commands.items() if not (sub.description or "").strip()]
    assert missing == []


def test_wild_out_of_range_names_the_option(capsys):
    assert cli_fails(capsys, "five-crowns", "deadwood", "3H", "4H", "5H", "--wild", "14") == (
        "crowns: error: --wild must be 3..13 (3s up to Kings), got 14")
