"""Session 24: replay refuses a game record's unknown keys, naming the close known one
(a record whose "seed" was misspelt "sed" replayed as one without a seed, its decks
unchecked, and a misspelt round or turn key was skipped)."""
import copy

import pytest

from crowns_solver.errors import RecordError
from crowns_solver.five_crowns import play_game
from crowns_solver.five_crowns.game import ROUND_KEYS, TURN_KEYS, replay


@pytest.fixture(scope="module")
def record():
    return play_game(["greedy", "greedy", "advisor"], seed=1).record


def _renamed(obj: dict, old: str, new: str) -> dict:
    return {(new if k == old else k): v for k, v in obj.items()}


def test_a_whole_record_replays(record):
    assert list(replay(copy.deepcopy(record)).totals) == record["totals"]


def test_a_misspelt_seed_is_refused_not_read_as_none(record):
    bad = _renamed(record, "seed", "sed")
    with pytest.raises(RecordError, match=r"^record: unknown key 'sed' \(did you mean 'seed'\?\); a game record has"
                                          r" the keys format, version, rules, seed,"):
        replay(bad)


def test_a_misspelt_round_key_is_refused(record):
    bad = copy.deepcopy(record)
    bad["rounds"][3] = _renamed(bad["rounds"][3], "dealer", "dealr")
    with pytest.raises(RecordError, match=r"^record: rounds\[3\]: unknown key 'dealr' \(did you mean 'dealer'\?\)"):
        replay(bad)


def test_a_misspelt_turn_key_is_refused(record):
    bad = copy.deepcopy(record)
    turns = bad["rounds"][5]["turns"]
    turns[1] = _renamed(turns[1], "discard", "dicard")
    with pytest.raises(RecordError, match=r"^record: rounds\[5\] turn 1: unknown key 'dicard' \(did you mean 'discard'\?\)"):
        replay(bad)


def test_every_key_a_record_has_is_known(record):
    # the writer's keys are the reader's: optional turn keys (out, final, reshuffle) included
    assert {k for r in record["rounds"] for k in r} <= set(ROUND_KEYS)
    assert {k for r in record["rounds"] for t in r["turns"] for k in t} <= set(TURN_KEYS)
