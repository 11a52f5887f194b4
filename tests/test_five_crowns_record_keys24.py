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
    with pytest.raises(RecordError, match=r"^record: round 4: unknown key 'dealr' \(did you mean 'dealer'\?\)"):
        replay(bad)


def test_a_misspelt_turn_key_is_refused(record):
    bad = copy.deepcopy(record)
    turns = bad["rounds"][5]["turns"]
    turns[1] = _renamed(turns[1], "discard", "dicard")
    with pytest.raises(RecordError, match=r"^record: round 6 turn 2: unknown key 'dicard' \(did you mean 'discard'\?\)"):
        replay(bad)


def test_every_key_a_record_has_is_known(record):
    # the writer's keys are the reader's: optional turn keys (out, final, reshuffle) included
    assert {k for r in record["rounds"] for k in r} <= set(ROUND_KEYS)
    assert {k for r in record["rounds"] for t in r["turns"] for k in t} <= set(TURN_KEYS)


def test_a_misspelt_rules_key_is_refused_in_the_same_words(record):
    # it said "bad rules: GameRules.__init__() got an unexpected keyword argument"
    bad = copy.deepcopy(record)
    bad["rules"] = _renamed(bad["rules"], "all_wild_melds", "all_wild_meld")
    with pytest.raises(RecordError, match=r"^record: rules: unknown key 'all_wild_meld' \(did you mean"
                                          r" 'all_wild_melds'\?\); the rules object has the keys players, sets,"):
        replay(bad)


def test_rules_keys_are_the_writers(record):
    from crowns_solver.five_crowns.game import RULES_KEYS

    assert set(record["rules"]) == set(RULES_KEYS)


def test_round_and_turn_numbers_match_the_replays_own_messages(record):
    # a bad flag in the same turn says "round 1 turn 1": the key check numbers it alike
    bad = copy.deepcopy(record)
    bad["rounds"][0]["turns"][0]["out"] = "yes"
    with pytest.raises(RecordError, match=r"^record: round 1 turn 1: 'out' must be true or"):
        replay(bad)
    bad = copy.deepcopy(record)
    bad["rounds"][0]["turns"][0] = _renamed(bad["rounds"][0]["turns"][0], "source", "sourse")
    with pytest.raises(RecordError, match=r"^record: round 1 turn 1: unknown key 'sourse'"):
        replay(bad)
