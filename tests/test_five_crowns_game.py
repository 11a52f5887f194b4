"""Five Crowns game engine: invariants over seeded games, replay, hidden cards, ties, errors."""

from __future__ import annotations

import copy
import json
from collections import Counter

import numpy as np
import pandas.testing as pd_testing
import pytest
from hypothesis import given
from hypothesis import strategies as st

import fc_reference
from crowns_solver.errors import PolicyError, RecordError, RulesError
from crowns_solver.five_crowns.cards import card_name, full_deck, parse_card
from crowns_solver.five_crowns.game import GameRules, SeatView, _Engine, _finish, play_game, replay
from crowns_solver.five_crowns.players import GreedyPolicy, RandomPolicy

def ref_deadwood(codes, wild_rank):
    """The plain reference deadwood (tests/fc_reference.py), from card codes."""
    return fc_reference.brute_force_deadwood([card_name(c) for c in codes], wild_rank)


# Small games (rounds 1..4, at most 7 cards in hand after drawing) so the plain reference
# deadwood of tests/fc_reference.py can check every score.
SMALL = 4


def full_counts(sets: int) -> Counter:
    deck = full_deck(sets)
    return Counter({c: int(deck[c]) for c in range(56)})


class Invariants:
    """Observer that checks the table after every event."""

    def __init__(self, rules: GameRules):
        self.rules = rules
        self.events = Counter()
        self.full = full_counts(rules.sets)

    def __call__(self, t) -> None:
        self.events[t.event] += 1
        where = Counter()
        for h in t.hands.values():
            where.update(h)
        where.update(t.draw)
        where.update(t.discard)
        assert where == self.full, f"cards not conserved after {t.event} in round {t.round}"
        n = t.wild_rank  # the wild rank is the number of cards dealt
        for seat, hand in t.hands.items():
            want = n + 1 if (t.event == "draw" and seat == t.seat) else n
            assert len(hand) == want, (t.event, seat, len(hand), want)
        assert len(t.discard) >= 1 or t.event == "draw"


def check_game(result, rules: GameRules) -> None:
    P = rules.players
    for rr in result.rounds:
        assert rr.cards_dealt == rr.round + 2 and rr.wild_rank == rr.round + 2
        assert rr.dealer == (rules.first_dealer + rr.round - 1) % P
        assert rr.seats[0] == (rr.dealer + 1) % P  # left of the dealer starts
        if rr.out is not None:
            assert rr.scores[rr.out] == 0
        assert sorted(rr.scores) == list(range(P))
    rec_rounds = result.record["rounds"]
    for rr, rec in zip(result.rounds, rec_rounds):
        # dealt one card at a time, starting left of the dealer
        deck = [parse_card(c) for c in rec["deck"]]
        order = rec["seats"]
        first_turn_seat = rec["turns"][0]["seat"]
        assert first_turn_seat == order[0]
        # every score is the reference deadwood of the hand kept at the end
        for s in range(P):
            kept = [parse_card(c) for c in rec["hands"][str(s)]]
            assert len(kept) == rr.cards_dealt
            if s == rr.out:
                assert ref_deadwood(kept, rr.wild_rank) == 0
            else:
                assert rr.scores[s] == ref_deadwood(kept, rr.wild_rank)
        # the deal: seat order[k] got deck[k], deck[k + P], ...
        first = Counter(deck[0: P * rr.cards_dealt: P])
        first_hand_cards = Counter(deck[i] for i in range(0, P * rr.cards_dealt, P))
        assert first == first_hand_cards
    assert result.totals == tuple(int(x) for x in result.round_scores.sum(axis=0))


@pytest.mark.parametrize("seed", range(12))
def test_invariants_over_seeded_games(seed):
    players = 2 + seed % 4
    pols = [GreedyPolicy() if (seed + s) % 3 else RandomPolicy() for s in range(players)]
    rules = GameRules(players=players, rounds=SMALL, first_dealer=seed % players)
    inv = Invariants(rules)
    result = play_game(pols, seed=seed, rules=rules, observer=inv)
    check_game(result, rules)
    assert inv.events["deal"] == SMALL and inv.events["round_end"] == SMALL
    assert inv.events["draw"] == inv.events["discard"] == sum(r.turns for r in result.rounds)
    # the deal is exactly one card at a time from the recorded deck
    rec = result.record["rounds"][0]
    deck = rec["deck"]
    seen_deal = {}

    def on_deal(t):
        if t.event == "deal" and t.round == 1:
            seen_deal.update({s: sorted(h) for s, h in t.hands.items()})

    play_game(pols, seed=seed, rules=rules, observer=on_deal)
    for k, s in enumerate(rec["seats"]):
        assert seen_deal[s] == sorted(parse_card(c) for c in deck[k: players * 3: players])


def test_same_seed_same_game_and_different_seed_differs():
    rules = GameRules(players=3, rounds=3)
    a = play_game(["greedy", "random", "greedy"], seed=7, rules=rules)
    b = play_game(["greedy", "random", "greedy"], seed=7, rules=rules)
    c = play_game(["greedy", "random", "greedy"], seed=8, rules=rules)
    assert a.record == b.record
    assert a.record["rounds"][0]["deck"] != c.record["rounds"][0]["deck"]


def test_eight_players_use_two_sets():
    rules = GameRules(players=8, rounds=2)
    assert rules.sets == 2
    inv = Invariants(rules)
    result = play_game(["greedy"] * 8, seed=3, rules=rules, observer=inv)
    assert len(result.record["rounds"][0]["deck"]) == 232
    check_game(result, rules)


def test_replay_gives_identical_scores(tmp_path):
    rules = GameRules(players=3, rounds=SMALL)
    result = play_game(["greedy", "random", "greedy"], seed=11, rules=rules)
    path = tmp_path / "game.json"
    result.save(path)
    again = replay(path)
    assert again.totals == result.totals and again.winners == result.winners
    assert np.array_equal(again.round_scores, result.round_scores)
    assert again.record["rounds"] == json.loads(path.read_text())["rounds"]


def test_replay_rejects_tampered_records():
    rules = GameRules(players=2, rounds=3)
    rec = play_game(["greedy", "greedy"], seed=5, rules=rules).record

    def broken(change):
        r = copy.deepcopy(rec)
        change(r)
        return r

    t0 = rec["rounds"][1]["turns"][0]
    hand_card = rec["rounds"][1]["deck"][0]
    cases = [
        (lambda r: r["rounds"][0]["scores"].__setitem__(0, 99), "scores"),
        (lambda r: r.__setitem__("totals", [1, 2]), "totals"),
        (lambda r: r["rounds"][1]["turns"][0].__setitem__("seat", 1 - t0["seat"]), "expected seat"),
        (lambda r: r["rounds"][1]["turns"][0].__setitem__("card", "JK" if t0["card"] != "JK" else "3S"), "drew"),
        (lambda r: r["rounds"][1]["turns"][0].__setitem__("discard", "ZZ"), "not in its hand"),
        (lambda r: r["rounds"][1]["deck"].pop(), "deck is not"),
        (lambda r: r["rounds"][1]["turns"].append(dict(t0)), "turns"),
        (lambda r: r["rounds"].pop(), "round 3 is missing"),
        (lambda r: r.__setitem__("format", "x"), "not a Five Crowns game record"),
        (lambda r: r["rules"].__setitem__("players", 99), "bad rules"),
    ]
    assert hand_card
    for change, message in cases:
        with pytest.raises(RecordError, match=message):
            replay(broken(change))


class HiddenCardRead(AssertionError):
    pass


class Poison:
    """A hidden pile or hand: its size is public, its cards are not."""

    def __init__(self, real):
        self._n = len(real)

    def __len__(self):
        return self._n

    def _raise(self, *a, **k):
        raise HiddenCardRead("a policy read a hidden card")

    __getitem__ = __iter__ = __contains__ = index = count = __reversed__ = copy = _raise


class GuardedRound:
    """The round as one seat may see it: other hands and the draw pile are poisoned."""

    def __init__(self, real, seat):
        object.__setattr__(self, "_real", real)
        object.__setattr__(self, "_seat", seat)

    def __getattr__(self, name):
        value = getattr(self._real, name)
        if name == "draw":
            return Poison(value)
        if name == "hands":
            return {s: (h if s == self._seat else Poison(h)) for s, h in value.items()}
        return value


def guarded_view(rnd, seat, rng, rules):
    return SeatView(GuardedRound(rnd, seat), seat, rng, rules)


@pytest.mark.parametrize("policies", [["greedy", "random", "greedy"], ["random", "greedy", "random"]])
def test_policies_never_read_hidden_cards(policies):
    from crowns_solver.five_crowns.players import get_policy

    rules = GameRules(players=3, rounds=SMALL)
    for seed in range(3):
        pols = [get_policy(p) for p in policies]
        eng = _Engine(rules, pols, np.random.SeedSequence(seed), view_factory=guarded_view)
        guarded = _finish(eng, seed, policies)
        assert guarded.record == play_game(policies, seed=seed, rules=rules).record


def test_a_view_that_reads_hidden_cards_is_caught():
    class Cheat(GreedyPolicy):
        def choose_draw(self, view):
            other = (view.seat + 1) % 3
            _ = view._r.hands[other][0]
            return "draw"

    rules = GameRules(players=3, rounds=1)
    eng = _Engine(rules, [Cheat()] * 3, np.random.SeedSequence(0), view_factory=guarded_view)
    with pytest.raises(HiddenCardRead):
        _finish(eng, 0, ["cheat"] * 3)


def test_view_contents():
    seen = []

    class Spy(GreedyPolicy):
        def choose_draw(self, view):
            seen.append((view.phase, len(view.hand), view.cards_dealt, view.wild_rank, view.draw_size,
                         dict(view.hand_sizes), view.discard_top, view.history, view.unseen().sum()))
            assert view.drawn is None
            return super().choose_draw(view)

        def choose_discard(self, view):
            assert view.phase == "discard" and len(view.hand) == view.cards_dealt + 1
            assert view.drawn in view.hand
            assert set(view.kept_deadwoods()) == set(view.hand)
            return super().choose_discard(view)

    rules = GameRules(players=2, rounds=2)
    play_game([Spy(), Spy()], seed=2, rules=rules)
    phase, hand, n, wild, draw, sizes, top, history, unseen = seen[0]
    assert (phase, hand, n, wild, draw, sizes, history) == ("draw", 3, 3, 3, 116 - 7, {0: 3, 1: 3}, ())
    assert unseen == 116 - 3 - 1


def test_round_cap_scores_everyone_in_hand():
    class Stubborn:
        name = "stubborn"

        def choose_draw(self, view):
            return "draw"

        def choose_discard(self, view):
            if view.can_go_out:
                return view.going_out_discards[0]
            return view.drawn

    rules = GameRules(players=2, rounds=1, max_turns=1)
    capped = 0
    for seed in range(5):
        result = play_game([Stubborn(), Stubborn()], seed=seed, rules=rules)
        rr = result.rounds[0]
        if rr.out is None:
            capped += 1
            assert rr.turns == 1
            for s in range(2):
                kept = [parse_card(c) for c in result.record["rounds"][0]["hands"][str(s)]]
                assert rr.scores[s] == ref_deadwood(kept, 3)
            assert replay(result.record).totals == result.totals
    assert capped


def test_reshuffle_keeps_every_card():
    # one random player in round 4 keeps drawing until it goes out: long enough to empty
    # the draw pile of 116 - 6 - 1 cards on some seeds
    rules = GameRules(players=1, rounds=SMALL)
    found = 0
    for seed in range(40):
        inv = Invariants(rules)
        result = play_game(["random"], seed=seed, rules=rules, observer=inv)
        for rr, rec in zip(result.rounds, result.record["rounds"]):
            for t in rec["turns"]:
                if "reshuffle" in t:
                    found += 1
                    assert len(t["reshuffle"]) >= 100
        if found:
            break
    assert found, "no reshuffle in 40 seeds"


def tie_game(ties):
    for seed in range(200):
        r = play_game(["greedy"] * 3, seed=seed, rules=GameRules(players=3, rounds=1, ties=ties))
        if ties == "share" and len(r.winners) > 1:
            return r
        if ties == "tiebreak" and r.tiebreaks:
            return r
    raise AssertionError("no tie found")


def test_ties_shared_or_tiebreak():
    shared = tie_game("share")
    low = min(shared.totals)
    assert shared.winners == tuple(s for s in range(3) if shared.totals[s] == low)
    assert all(shared.places[s] == 1 for s in shared.winners)
    tb = tie_game("tiebreak")
    low = min(tb.totals)
    tied = [s for s in range(3) if tb.totals[s] == low]
    first = tb.tiebreaks[0]
    assert list(first.seats) == [s for s in [(first.dealer + k) % 3 for k in range(1, 4)] if s in tied]
    assert first.cards_dealt == 6 and first.wild_rank == 6 and first.round == 2
    assert set(tb.winners) <= set(tied)
    assert replay(tb.record).winners == tb.winners


class Bad:
    name = "bad"

    def __init__(self, source="draw", discard=None):
        self.source, self.discard = source, discard

    def choose_draw(self, view):
        return self.source

    def choose_discard(self, view):
        if self.discard == "not-out":
            return max(view.hand, key=lambda c: view.kept_deadwood(c))
        return self.discard


@pytest.mark.parametrize(
    "policy, message",
    [(Bad(source="pile"), "chose draw source 'pile'"), (Bad(discard=99), "discarded 99"),
     (Bad(discard="5S"), "which is not in its hand")],
)
def test_illegal_policy_choices(policy, message):
    with pytest.raises(PolicyError, match=message):
        play_game([policy, GreedyPolicy()], seed=0, rules=GameRules(players=2, rounds=1))


def test_must_go_out_with_a_going_out_discard():
    for seed in range(50):
        try:
            play_game([Bad(discard="not-out"), Bad(discard="not-out")], seed=seed, rules=GameRules(players=2, rounds=1))
        except PolicyError as exc:
            assert "can go out but discarded" in str(exc)
            return
    raise AssertionError("no seed where a player could go out")


@pytest.mark.parametrize(
    "kwargs, message",
    [({"players": 0}, "players"), ({"players": 15}, "players"), ({"players": 8, "sets": 1}, "two card sets"),
     ({"rounds": 12}, "rounds"), ({"ties": "coin"}, "ties"), ({"first_dealer": 4}, "first_dealer"),
     ({"players": True}, "players"), ({"max_turns": 0}, "max_turns")],
)
def test_bad_rules(kwargs, message):
    with pytest.raises(RulesError, match=message):
        GameRules(**kwargs)


def test_bad_game_arguments():
    with pytest.raises(PolicyError, match="unknown policy 'smart'"):
        play_game(["smart", "greedy"], seed=0)
    with pytest.raises(RulesError, match="3 policies for 2 players"):
        play_game(["greedy"] * 3, seed=0, rules=GameRules(players=2))
    with pytest.raises(RulesError, match="seed"):
        play_game(["greedy"] * 2, seed=-1)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 300) | st.sampled_from(["draw", "discard", "JK", "5S", "x"]),
    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.sampled_from(
        ["seat", "source", "card", "discard", "out", "deck", "turns", "scores", "rounds"]), c, max_size=4),
    max_leaves=12,
)


@given(st.data())
def test_replay_of_malformed_records_raises_record_error(data):
    rec = copy.deepcopy(_BASE_RECORD)
    path = data.draw(st.sampled_from([("rounds", 0, "turns", 0), ("rounds", 0, "deck"), ("rounds", 1),
                                      ("rules",), ("policies",), ("rounds", 0, "turns")]))
    target = rec
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = data.draw(json_values)
    try:
        replay(rec)
    except RecordError:
        pass


_BASE_RECORD: dict = {}


@pytest.fixture(autouse=True, scope="module")
def _base_record():
    _BASE_RECORD.update(play_game(["greedy", "greedy"], seed=1, rules=GameRules(players=2, rounds=2)).record)
    yield


def test_cli_play_save_and_replay(tmp_path, capsys):
    from crowns_solver.cli import main

    path = tmp_path / "g.json"
    assert main(["five-crowns", "play", "greedy", "random", "--rounds", "3", "--seed", "4", "--save", str(path)]) == 0
    out = capsys.readouterr().out
    direct = play_game(["greedy", "random"], seed=4, rules=GameRules(players=2, rounds=3))
    assert out.splitlines()[-3].split()[1:] == [str(t) for t in direct.totals]
    assert main(["five-crowns", "replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["totals"] == list(direct.totals) and data["round_scores"] == direct.round_scores.tolist()
    bad = tmp_path / "bad.json"
    bad.write_text(path.read_text().replace('"scores": [', '"scores": [7, ', 1))
    assert main(["five-crowns", "replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "record" in err
    assert main(["five-crowns", "play", "greedy", "smart"]) == 2
    assert "unknown policy 'smart'" in capsys.readouterr().err


def test_simulate_rows_and_reproducibility():
    from concurrent.futures import ThreadPoolExecutor

    from crowns_solver.five_crowns.simulation import check_setup, simulate

    rules = GameRules(players=2, rounds=2)
    df = simulate(5, players=2, policies=["greedy", "random"], seed=9, rules=rules, workers=1, chunk_size=2)
    assert list(df.columns) == ["game", "seat", "policy", "round_1", "round_2", "total", "place", "won", "turns"]
    assert [(g, s) for g, s in zip(df["game"], df["seat"])] == [(g, s) for g in range(5) for s in (0, 1)]
    # game 2 is the first game of chunk 1: seeded by SeedSequence(9, spawn_key=(1,)).spawn(2)[0]
    child = np.random.SeedSequence(9, spawn_key=(1,)).spawn(2)[0]
    direct = play_game(["greedy", "random"], seed=child, rules=rules)
    g2 = df[df["game"] == 2]
    assert g2["total"].tolist() == list(direct.totals)
    assert g2["round_1"].tolist() == direct.round_scores[0].tolist()
    assert g2["won"].tolist() == [s in direct.winners for s in (0, 1)]
    assert (df.groupby("game")["won"].sum() >= 1).all()
    with ThreadPoolExecutor(2) as pool:
        again = simulate(5, players=2, policies=["greedy", "random"], seed=9, rules=rules, executor=pool, chunk_size=2)
    pd_testing.assert_frame_equal(df, again)
    rotated = simulate(4, players=2, policies=["greedy", "random"], seed=9, rules=rules, workers=1, rotate=True)
    assert rotated[rotated["seat"] == 0]["policy"].tolist() == ["greedy", "random", "greedy", "random"]
    assert check_setup(3, "greedy") == ["greedy"] * 3
    with pytest.raises(RulesError, match="2 policies for 3 players"):
        check_setup(3, ["greedy", "random"])
    with pytest.raises(PolicyError, match="unknown policy"):
        simulate(2, players=2, policies=["greedy", "nope"])
    with pytest.raises(RulesError, match="players must be"):
        simulate(2, players=0)
    with pytest.raises(RulesError, match="rules are for 2 players"):
        simulate(2, players=3, rules=rules)


def test_simulate_with_policy_objects_and_results_file(tmp_path):
    from crowns_solver.five_crowns.simulation import simulate

    rules = GameRules(players=2, rounds=1)
    path = tmp_path / "runs.jsonl"
    a = simulate(3, players=2, policies=[GreedyPolicy(), "random"], seed=1, rules=rules, workers=1, out=path)
    b = simulate(3, players=2, policies=[GreedyPolicy(), "random"], seed=1, rules=rules, workers=1, out=path)
    pd_testing.assert_frame_equal(a, b)
    assert a["policy"].tolist()[:2] == ["greedy", "random"]


def test_full_games_all_policies_invariants_and_replay():
    rules = GameRules(players=4)
    inv = Invariants(rules)
    result = play_game(["greedy", "advisor", "tracker", "random"], seed=21, rules=rules, observer=inv)
    assert len(result.rounds) == 11 and inv.events["deal"] == 11
    for rr in result.rounds:
        assert rr.wild_rank == rr.cards_dealt == rr.round + 2
        assert rr.dealer == (rr.round - 1) % 4 and rr.seats[0] == (rr.dealer + 1) % 4
        if rr.out is not None:
            assert rr.scores[rr.out] == 0
    assert replay(json.loads(json.dumps(result.record))).totals == result.totals


def test_advisor_policy_follows_the_advisor():
    from crowns_solver.five_crowns import rank_discards, should_take_discard
    from crowns_solver.five_crowns.players import AdvisorPolicy

    checked = {"draw": 0, "discard": 0}

    class Check(AdvisorPolicy):
        def choose_draw(self, view):
            choice = super().choose_draw(view)
            seen = view.seen_cards()
            seen.remove(view.discard_top)
            advice = should_take_discard(list(view.hand), view.discard_top, view.wild_rank, seen=seen)
            assert choice == ("discard" if advice.take else "draw")
            checked["draw"] += 1
            return choice

        def choose_discard(self, view):
            choice = super().choose_discard(view)
            if not view.can_go_out:
                table = rank_discards(list(view.hand), view.wild_rank, seen=view.seen_cards())
                assert card_name(choice) == table["card"].iloc[0]
                checked["discard"] += 1
            return choice

    play_game([Check(), Check()], seed=4, rules=GameRules(players=2, rounds=3))
    assert checked["draw"] > 5 and checked["discard"] > 5


def test_tracker_avoids_feeding_the_next_seat():
    from crowns_solver.five_crowns.players import TrackerPolicy

    fed = []

    class Spy(TrackerPolicy):
        def choose_discard(self, view):
            choice = super().choose_discard(view)
            fed.append(self.feed(view, choice))
            return choice

    play_game([Spy(), "greedy"], seed=2, rules=GameRules(players=2, rounds=4))
    assert fed and all(f >= 0 for f in fed)
    with pytest.raises(PolicyError, match="feed_weight"):
        TrackerPolicy(feed_weight=-1)


def test_cli_simulate(capsys, tmp_path):
    from crowns_solver.cli import main
    from crowns_solver.five_crowns.simulation import simulate

    csv = tmp_path / "rows.csv"
    assert main(["five-crowns", "simulate", "4", "--policies", "greedy", "random", "--workers", "1",
                 "--seed", "2", "--csv", str(csv)]) == 0
    out = capsys.readouterr().out
    df = simulate(4, players=2, policies=["greedy", "random"], seed=2, workers=1)
    greedy_mean = df[df["policy"] == "greedy"]["total"].mean()
    assert f"{greedy_mean:.1f}" in out.splitlines()[2]
    assert len(csv.read_text().splitlines()) == 1 + 8
    assert main(["five-crowns", "simulate", "0", "--workers", "1"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
