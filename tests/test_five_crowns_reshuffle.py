"""Five Crowns after the draw pile ran out: what a seat's next blind draw can bring.

RULES.md, Five Crowns, "Deal and seats": the discard pile except its top card is shuffled
into a new draw pile.  Those cards were all seen; cards never seen are in other hands.
``SeatView.draw_pool()`` (the pool the advisor and tracker players look ahead over, in the
Python players and the compiled loop alike) is checked here against a brute force over
every deal consistent with what the seat saw.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from fc_checks import Watching

from crowns_solver.cli import main
from crowns_solver.errors import CrownsError, DuplicateCardError, NoUnseenCardError
from crowns_solver.five_crowns import rank_discards, should_take_discard
from crowns_solver.five_crowns.cards import NUM_CODES, card_name, full_deck, parse_card
from crowns_solver.five_crowns.game import GameRules, SeatView, _Round, play_game
from crowns_solver.five_crowns.players import RandomPolicy

# 2-player games of 3 rounds between random players whose round 3 reshuffles (found by
# playing seeds 0..59): seed 17 twice, the others once.
RESHUFFLE_SEEDS = (2, 17, 18, 55)


class Watcher(Watching, RandomPolicy):
    """Random play that shows every view it decides on to `look` first."""


class Recorder(Watcher):
    """Keeps, at every decision, what its view says about the draw pile."""

    def __init__(self):
        self.log = []

    def look(self, view):
        self.log.append((view.round, len(view.history), view.phase, view.draw_size, view.draw_pool(),
                         view.reshuffled, view.drawn_since_reshuffle, view.unseen()))


def _codes(names):
    return [parse_card(c) for c in names]


def brute_force_pile(rec, seat, turns_done, discard_phase, sets=1):
    """Most copies of each card the draw pile can hold, over every deal consistent with
    what `seat` saw in a 2-player round (record `rec`), at its decision after
    `turns_done` turns (in the discard phase: after its own draw of the next turn).

    Every card is followed from the deal: the seat knows its own hand and every public
    move.  At the last reshuffle the draw pile is empty, so the other hand is the full
    deck less the reshuffled cards, the top card and the seat's hand.  From there each of
    the other seat's blind draws may be any card left in the pile; a world whose discard
    is not in that hand is dropped.  Returns counts per code (the maximum over worlds)."""
    turns = rec["turns"]
    upto = turns_done + (1 if discard_phase else 0)  # the turns whose draws have happened
    last = max(i for i in range(upto) if "reshuffle" in turns[i])
    # the seat's own hand when turn `last` begins: deal, then its own turns
    deck = _codes(rec["deck"])
    order = rec["seats"]
    n = rec["cards"]
    hand = Counter(deck[i] for i in range(len(order) * n) if order[i % len(order)] == seat)
    for t in turns[:last]:
        if t["seat"] == seat:
            hand[parse_card(t["card"])] += 1
            hand[parse_card(t["discard"])] -= 1
    pile = Counter(_codes(turns[last]["reshuffle"]))
    top = parse_card(turns[last - 1]["discard"])
    other = Counter({c: int(k) for c, k in enumerate(full_deck(sets))})
    other.subtract(pile)
    other.subtract(hand)
    other[top] -= 1
    assert min(other.values()) >= 0
    worlds = {(_freeze(pile), _freeze(other))}
    for i in range(last, upto):
        t = turns[i]
        card, thrown = parse_card(t["card"]), parse_card(t["discard"])
        mine = t["seat"] == seat
        nxt = set()
        for p, o in worlds:
            p, o = Counter(dict(p)), Counter(dict(o))
            if t["source"] == "discard":  # the face-up card: public
                choices = [card]
            elif mine:                    # own blind draw: the seat knows it
                choices = [card]
            else:                         # the other's blind draw: any card left in the pile
                choices = [c for c, k in p.items() if k > 0]
            for c in choices:
                p2, o2 = Counter(p), Counter(o)
                if t["source"] == "draw":
                    p2[c] -= 1
                    if p2[c] < 0:
                        continue          # the other drew that card's last copy here
                if not mine:
                    o2[c] += 1
                    if o2[thrown] <= 0:
                        continue          # it threw a card it cannot hold here
                    else:
                        o2[thrown] -= 1
                nxt.add((_freeze(p2), _freeze(o2)))
        worlds = nxt
        assert worlds, "no deal is consistent with the record"
    most = np.zeros(NUM_CODES, dtype=np.int64)
    for p, _ in worlds:
        for c, k in p:
            most[c] = max(most[c], k)
    return most, len(worlds)


def _freeze(counter):
    return tuple(sorted((c, k) for c, k in counter.items() if k > 0))


def test_the_pool_after_a_reshuffle_is_the_brute_force_draw_pile():
    checked = differs = 0
    for seed in RESHUFFLE_SEEDS:
        players = [Recorder(), Recorder()]
        result = play_game(players, seed=seed, rules=GameRules(players=2, rounds=3))
        rec = result.record["rounds"][2]
        for seat, player in enumerate(players):
            for rnd, done, phase, size, pool, resh, since, unseen in player.log:
                if rnd != 3 or resh is None or size == 0:
                    continue
                last = max(i for i in range(done + (phase == "discard")) if "reshuffle" in rec["turns"][i])
                blind = sum(1 for t in rec["turns"][last:done] if t["seat"] != seat and t["source"] == "draw")
                if blind > 2:  # keep the brute force small: up to 2 unknown draws by the other
                    continue
                want, _ = brute_force_pile(rec, seat, done, phase == "discard")
                assert pool.tolist() == want.tolist(), (seed, seat, done, phase)
                assert int(pool.sum()) >= size  # the pile itself is in the pool
                checked += 1
                differs += not np.array_equal(pool, unseen)
    assert checked >= 20 and differs == checked  # after a reshuffle "unseen" is always wrong here


def test_the_true_draw_pile_is_always_in_the_pool():
    # 3 and 4 players (the other hands are not known exactly): every card really in the
    # draw pile is in each seat's pool, at every decision after a reshuffle
    hits = 0
    current = {"draw": ()}

    class Checker(Watcher):
        def look(self, view):
            nonlocal hits
            if view.reshuffled is None or not current["draw"]:
                return
            pool = view.draw_pool()
            truth = Counter(current["draw"])
            assert all(pool[c] >= k for c, k in truth.items()), (view.seat, view.round)
            assert not Counter(view.drawn_since_reshuffle) - Counter(view.reshuffled)
            hits += 1

    def watch(t):
        current["draw"] = t.draw

    # seeds whose round 3 reshuffles (random players, found by playing seeds 0..39)
    for players, seeds in ((3, (11, 17)), (4, (6, 12))):
        for seed in seeds:
            play_game([Checker() for _ in range(players)], seed=seed, rules=GameRules(players=players, rounds=3),
                      observer=watch)
    assert hits > 100


def _round(hands, discard, draw, reshuffled=None, since=None, cards=3):
    """A round table built by hand (seat 0 to move)."""
    seats = sorted(hands)
    r = _Round(1, cards, cards, seats, seats[-1], [0] * len(seats))
    r.hands = {s: _codes(h) for s, h in hands.items()}
    r.discard = _codes(discard)
    r.draw = _codes(draw)
    r.seat, r.phase = 0, "draw" if len(hands[0]) == cards else "discard"
    if reshuffled is not None:
        r.reshuffled = _codes(reshuffled)
        r.since = {s: _codes((since or {}).get(s, [])) for s in seats}
    return r


def _view(r, seat=0):
    return SeatView(r, seat, np.random.default_rng(0), GameRules(players=len(r.seats)))


def test_an_empty_draw_pile_draws_from_the_discard_pile_under_its_top():
    # the next blind draw reshuffles the discard pile: every card under the top, exactly
    r = _round({0: ["4S", "9H", "KD"], 1: ["5S", "5S", "7C"]}, ["QH", "QH", "8R", "JK"], [])
    pool = _view(r).draw_pool()
    assert {card_name(c): int(k) for c, k in enumerate(pool) if k} == {"QH": 2, "8R": 1}
    # after taking the face-up JK (n + 1 cards), the card about to be discarded will be the
    # top, so the whole pile left is reshuffled at the next blind draw
    r = _round({0: ["4S", "9H", "KD", "JK"], 1: ["5S", "5S", "7C"]}, ["QH", "QH", "8R"], [])
    assert {card_name(c): int(k) for c, k in enumerate(_view(r).draw_pool()) if k} == {"QH": 2, "8R": 1}


def test_cards_never_seen_are_not_in_a_reshuffled_pile():
    # reshuffled: 6S 6S 7H; seat 0 then drew one 6S blind; a 7H came back to the pile
    r = _round({0: ["6S", "4S", "9H"], 1: ["5S", "5S", "7C"]}, ["7H"], ["6S", "8D"],
               reshuffled=["6S", "6S", "7H", "8D"], since={0: ["6S"]})
    view = _view(r)
    pool = {card_name(c): int(k) for c, k in enumerate(view.draw_pool()) if k}
    # 6S: 2 reshuffled, 1 drawn by seat 0 -> 1; 7H: its only reshuffled copy may be the
    # one on the pile now (seat 1 may have drawn it) or not -> 1; 8D -> 1; nothing else
    assert pool == {"6S": 1, "7H": 1, "8D": 1}
    assert int(view.unseen().sum()) == 116 - 3 - 1  # unseen still means "not seen"
    assert view.reshuffled == tuple(_codes(["6S", "6S", "7H", "8D"]))
    assert view.drawn_since_reshuffle == (parse_card("6S"),)
    # seat 1 sees its own blind draws only
    assert _view(r, 1).drawn_since_reshuffle == ()


def test_advice_with_a_draw_pile_is_advice_with_every_other_card_seen():
    # Giving the draw pile is the same as having seen every other card: two ways to the
    # same exact figures
    hand = ["5S", "6S", "9H", "9D", "QC"]
    pile = ["7S", "7S", "9C", "JK", "KR", "3H"]
    held = Counter(hand + pile)
    rest = [card_name(c) for c in range(NUM_CODES) for _ in range(int(full_deck(1)[c]) - held[card_name(c)])]
    a = rank_discards(hand, 4, draw_pile=pile)
    b = rank_discards(hand, 4, seen=rest)
    assert a.equals(b) and a.attrs["unseen"] == 6
    assert a["expected_next"].tolist() == b["expected_next"].tolist()
    # the QC face up instead of held: the same cards elsewhere
    t1 = should_take_discard(hand[:4], "QC", 4, draw_pile=pile)
    t2 = should_take_discard(hand[:4], "QC", 4, seen=rest)
    assert t1 == t2 and t1.unseen == 6


def test_draw_pile_caps_each_card_by_what_is_not_seen():
    # a draw-pile card that is also seen (or held) can only be there as often as copies remain
    pile = ["7S", "7S", "9C"]
    df = rank_discards(["7S", "8S", "QH", "KD"], 5, draw_pile=pile, seen=["9C", "9C"])
    assert df.attrs["unseen"] == 1  # one 7S left (the other is held), both 9Cs are seen
    adv = should_take_discard(["7S", "8S", "QH"], "9S", 5, draw_pile=pile)
    assert adv.unseen == 2 and adv.draw_p_out == Fraction(0)


def test_draw_pile_errors_name_the_card():
    with pytest.raises(DuplicateCardError, match="3H"):
        rank_discards(["5S", "6S", "9H"], 3, draw_pile=["3H"] * 3)
    with pytest.raises(CrownsError, match="ZZ"):
        should_take_discard(["5S", "6S"], "9H", 3, draw_pile=["ZZ"])
    with pytest.raises(NoUnseenCardError, match="draw_pile"):
        should_take_discard(["5S", "6S"], "9H", 3, draw_pile=["7C"], seen=["7C", "7C"])


@given(st.lists(st.one_of(st.text(max_size=4), st.integers(-3, 60), st.none()), max_size=8))
def test_draw_pile_takes_any_input_without_crashing(items):
    try:
        df = rank_discards(["5S", "6S", "9H"], 3, draw_pile=items)
    except CrownsError:
        return
    assert df.attrs["unseen"] <= len(items)


def test_cli_take_and_discard_with_a_draw_pile(capsys):
    assert main(["five-crowns", "take", "7S", "8S", "QH", "--top", "9S", "--wild", "5",
                 "--draw-pile", "7S", "7S", "9C"]) == 0
    out = capsys.readouterr().out
    assert "3 cards in the draw pile given, 2 of them can be the next draw" in out  # one 7S is held
    assert "expected deadwood 23.00" in out  # 7S or 9C, then the least deadwood: 23 either way
    assert main(["five-crowns", "discard", "7S", "8S", "QH", "KD", "--wild", "5",
                 "--draw-pile", "6S", "9S", "--json"]) == 0
    import json

    data = json.loads(capsys.readouterr().out)
    assert data["unseen"] == 2 and data["draw_pile"] == ["6S", "9S"]


class _OldView:
    """A view whose draw pool is the old one ("every card not seen"), to show which games
    the reshuffle rule changes."""

    def __init__(self, view):
        self._v = view

    def __getattr__(self, name):
        return getattr(self._v, name)

    def draw_pool(self):
        return self._v.unseen()

    def after_taking_discard(self):
        return _OldView(self._v.after_taking_discard())


def _old(cls):
    class Old(cls):
        def choose_draw(self, view):
            return super().choose_draw(_OldView(view))

        def choose_discard(self, view):
            return super().choose_discard(_OldView(view))

    return Old


@pytest.mark.parametrize("policy, seed", [("tracker", 137), ("tracker", 163), ("advisor", 1223)])
def test_both_engines_use_the_reshuffled_pool_decision_for_decision(policy, seed):
    # 6 random seats and a tracker or an advisor: seeds (found among 0..399 and 0..1499)
    # where a reshuffle comes and the player's choices after it differ from those of the
    # old "unseen" pool
    from crowns_solver.five_crowns.players import POLICIES

    rules = GameRules(players=7, all_wild_melds=False)
    policies = ["random"] * 6 + [policy]
    slow = play_game(policies, seed=seed, rules=rules, engine="python")
    fast = play_game(policies, seed=seed, rules=rules, engine="compiled")
    assert fast.record == slow.record
    old = play_game(["random"] * 6 + [_old(POLICIES[policy])()], seed=seed, rules=rules, engine="python")
    differ = [i for i, (a, b) in enumerate(zip(old.record["rounds"], slow.record["rounds"])) if a != b]
    assert differ and all(slow.rounds[i].reshuffles for i in differ[:1])


# --------------------------------------------------------------------------- one card left
# The draw pile holds one card when a seat discards: the next seat draws it, and the draw
# after that reshuffles the discard pile under its top card, which then holds this seat's
# discard.  Brute force over the rules: every shuffle (chance) and every discard the other
# seats can make (their decisions), each assumed to draw from the draw pile.


def next_draw(discard_pile, draw_pile, hands, mine):
    """Distribution (card -> Fraction) of the card seat 0 draws on its next turn, after it
    discards `mine` and each other seat (hands: their cards, in turn order) draws one card
    from the draw pile (a reshuffle of the discard pile under its top card, in every
    order equally likely, when it is empty) and discards any card it holds.

    Recursing over the turns, the distribution is checked to be the same whatever each
    other seat discards at every decision; returns None when it is not (it then depends
    on discards not yet made)."""
    from itertools import permutations

    def draw(discard, pile):
        """(probability, card drawn, discard pile, draw pile) after one blind draw."""
        if pile:
            return [(Fraction(1), pile[-1], discard, pile[:-1])]
        orders = sorted(set(permutations(discard[:-1])))
        return [(Fraction(1, len(orders)), order[-1], discard[-1:], list(order[:-1])) for order in orders]

    def turn(i, discard, pile, hands):
        if i == len(hands):   # seat 0 draws
            out = Counter()
            for p, card, _, _ in draw(discard, pile):
                out[card] += p
            return out
        total = Counter()
        for p, card, disc, rest in draw(discard, pile):
            held = hands[i] + [card]
            options = [turn(i + 1, disc + [x], rest, hands[:i] + [[h for j, h in enumerate(held) if j != k]]
                            + hands[i + 1:]) for k, x in enumerate(held)]
            if any(o is None or o != options[0] for o in options):
                return None
            for c, q in options[0].items():
                total[c] += p * q
        return total

    return turn(0, list(discard_pile) + [mine], list(draw_pile), [list(h) for h in hands])


@pytest.mark.parametrize("hands, discard, draw, mine", [
    # 2 players: the other seat draws the last card (8D), discards anything; the
    # reshuffle holds the discard pile and seat 0's discard
    ({0: ["4S", "9H", "KD", "QS"], 1: ["5S", "7C", "7C"]}, ["QH", "8R", "JK"], ["8D"], "QS"),
    ({0: ["4S", "9H", "KD", "QH"], 1: ["5S", "7C", "7C"]}, ["QH", "8R", "3C"], ["8D"], "QH"),
    # 3 players: the first draws the last card, the second draws from the reshuffle
    ({0: ["4S", "9H", "KD", "JK"], 1: ["5S", "7C", "8H"], 2: ["3S", "3H", "6R"]}, ["QH", "8R", "3C"],
     ["8D"], "JK"),
    # 4 players
    ({0: ["4S", "9H", "KD", "JK"], 1: ["5S", "7C", "8H"], 2: ["3S", "3H", "6R"], 3: ["10S", "JS", "QR"]},
     ["QH", "8R", "3C", "9S"], ["8D"], "KD"),
    # an empty draw pile (the rule already in place): the discard pile now, without the discard
    ({0: ["4S", "9H", "KD", "QS"], 1: ["5S", "7C", "7C"], 2: ["3S", "3H", "6R"]}, ["QH", "8R", "JK"], [], "QS"),
])
def test_one_card_left_the_next_draw_is_the_discard_pile_and_the_discard(hands, discard, draw, mine):
    r = _round(hands, discard, draw)
    view = _view(r)
    assert view.discard_joins_pool == (len(draw) == 1)
    pool = view.draw_pool(discard=parse_card(mine))
    want = next_draw(_codes(discard), _codes(draw), [_codes(hands[s]) for s in sorted(hands)[1:]], parse_card(mine))
    assert want is not None   # the same whatever the other seats discard
    total = int(pool.sum())
    assert {c: Fraction(int(k), total) for c, k in enumerate(pool) if k} == dict(want)
    # without the discard: the pool it joins (with an empty draw pile it joins nothing)
    joined = (pool - view.draw_pool()).tolist()
    assert joined == [int(draw != [] and c == parse_card(mine)) for c in range(NUM_CODES)]


def test_two_cards_left_with_three_seats_depends_on_discards_not_made_yet():
    # the documented limit: with 2 to P - 1 cards left the reshuffle holds a discard of
    # another seat, unknown now, so no pool is exact; the view keeps the unseen cards
    hands = {0: ["4S", "9H", "KD", "QS"], 1: ["5S", "7C", "8H"], 2: ["3S", "3H", "6R"]}
    r = _round(hands, ["QH", "8R"], ["8D", "4C"])
    assert next_draw(_codes(["QH", "8R"]), _codes(["8D", "4C"]), [_codes(hands[1]), _codes(hands[2])],
                     parse_card("QS")) is None
    view = _view(r)
    assert not view.discard_joins_pool
    assert view.draw_pool().tolist() == view.unseen().tolist()
    from crowns_solver.errors import PolicyError

    with pytest.raises(PolicyError, match="discard 55 is not a card of seat 0's hand"):
        view.draw_pool(discard=55)
    # one seat only: its own next draw takes the last card, from the unseen cards
    solo = _view(_round({0: ["4S", "9H", "KD", "QS"]}, ["QH"], ["8D"]))
    assert not solo.discard_joins_pool and solo.draw_pool(discard=parse_card("QS")).tolist() == solo.unseen().tolist()


@pytest.mark.parametrize("hand, wild, pile", [
    (["7S", "8S", "QH", "KD", "9C"], 5, ["6S", "9S", "3H", "3H", "JK"]),
    (["QH", "QS", "4D", "4D", "JK"], 3, ["QH", "4C", "10R"]),       # a second QH: in hand and pile
    (["3S", "4S", "9H", "9D"], 11, ["5S", "9C"]),
])
def test_rank_discards_with_the_discard_reshuffled_matches_brute_force(hand, wild, pile):
    from fc_reference import brute_force_discards

    df = rank_discards(hand, wild, draw_pile=pile, discard_reshuffled=True)
    assert df.attrs["unseen"] == len(pile) + 1 and df.attrs["discard_reshuffled"]
    for row in df.itertuples(index=False):
        kept = list(hand)
        kept.remove(row.card)
        outcomes = [min(brute_force_discards(kept + [d], wild).values()) for d in pile + [row.card]]
        assert row.expected_next == Fraction(sum(outcomes), len(outcomes)), row.card
        assert row.p_out_next == Fraction(outcomes.count(0), len(outcomes)), row.card
    # the order is the one without the discard (every candidate gains the same outcome)
    assert df["card"].tolist() == rank_discards(hand, wild, draw_pile=pile)["card"].tolist()


def test_discard_reshuffled_needs_a_draw_pile_and_a_bool(capsys):
    from crowns_solver.errors import RulesError

    with pytest.raises(RulesError, match="discard_reshuffled needs draw_pile"):
        rank_discards(["5S", "6S", "9H"], 3, discard_reshuffled=True)
    with pytest.raises(RulesError, match="discard_reshuffled must be True or False, got 1"):
        rank_discards(["5S", "6S", "9H"], 3, draw_pile=["7C"], discard_reshuffled=1)
    assert main(["five-crowns", "discard", "5S", "6S", "9H", "--wild", "3", "--discard-reshuffled"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--discard-reshuffled needs --draw-pile" in err


def test_cli_discard_with_the_discard_reshuffled(capsys):
    import json

    args = ["five-crowns", "discard", "7S", "8S", "QH", "KD", "9C", "--wild", "5", "--draw-pile", "6S", "9S", "3H",
            "3H", "JK", "--discard-reshuffled"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert ("5 cards in the discard pile given, 5 of them can be the next draw, and so can your discard"
            " (reshuffled with them)") in out
    # KD: 36 kept; the 5 pile cards give 81 in all, drawing the KD back 36: 117 / 6
    assert "  1 KD             36       no        0.000             19.50" in out
    assert main(args + ["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["discard_reshuffled"] is True and data["unseen"] == 6
    assert data["discards"][0]["card"] == "KD" and data["discards"][0]["expected_next"] == "39/2"


def test_one_card_left_the_pool_is_the_reshuffle_the_engine_makes():
    # 7-player games (6 random seats and an advisor; seeds found among 0..1300) where the
    # advisor discards with one card left in the draw pile: when the next two seats draw
    # blind (the assumption), the second one's draw reshuffles exactly the pool the
    # advisor looked ahead over, its own discard included
    from crowns_solver.five_crowns.players import AdvisorPolicy

    class Spy(AdvisorPolicy):
        def __init__(self):
            self.log = []

        def choose_discard(self, view):
            card = super().choose_discard(view)
            if view.discard_joins_pool:
                self.log.append((view.round, len(view.history), view.draw_pool(discard=card)))
            return card

    rules = GameRules(players=7, all_wild_melds=False)
    checked = 0
    for seed in (437, 1193, 1262):
        spy = Spy()
        result = play_game(["random"] * 6 + [spy], seed=seed, rules=rules, engine="python")
        for rnd, i, pool in spy.log:
            turns = result.record["rounds"][rnd - 1]["turns"]
            if turns[i + 1]["source"] == turns[i + 2]["source"] == "draw":
                assert "reshuffle" not in turns[i + 1] and Counter(_codes(turns[i + 2]["reshuffle"])) == Counter(
                    {c: int(k) for c, k in enumerate(pool) if k}), (seed, rnd, i)
                checked += 1
    assert checked == 4


@pytest.mark.parametrize("policy, seed", [("advisor", 544), ("advisor", 2434), ("tracker", 351)])
def test_both_engines_look_ahead_past_the_last_card_decision_for_decision(policy, seed):
    # seeds (found among 0..2999 and 0..500) where the player discards with one card left
    # in the draw pile and plays differently from the pool before this change (the unseen
    # cards, which its next draw can no longer bring)
    from crowns_solver.five_crowns.players import POLICIES

    rules = GameRules(players=7, all_wild_melds=False)
    policies = ["random"] * 6 + [policy]
    slow = play_game(policies, seed=seed, rules=rules, engine="python")
    fast = play_game(policies, seed=seed, rules=rules, engine="compiled")
    assert fast.record == slow.record
    old = play_game(["random"] * 6 + [_before_one_card_left(POLICIES[policy])()], seed=seed, rules=rules,
                    engine="python")
    assert old.record != slow.record


class _BeforeOneCardLeft(_OldView):
    """A view whose pool with one card left is the one before the rule (the unseen cards,
    capped after an earlier reshuffle), and whose discard never joins it."""

    discard_joins_pool = False

    def draw_pool(self, discard=None):
        v = self._v
        if not v.discard_joins_pool:
            return v.draw_pool(discard)
        counts = v.unseen()
        if v.reshuffled is not None:
            cap = (np.bincount(np.asarray(v.reshuffled, dtype=np.int64), minlength=NUM_CODES)
                   - np.bincount(np.asarray(v.drawn_since_reshuffle, dtype=np.int64), minlength=NUM_CODES))
            counts = np.minimum(counts, cap)
        return counts.astype(np.int64)

    def after_taking_discard(self):
        return _BeforeOneCardLeft(self._v.after_taking_discard())


def _before_one_card_left(cls):
    class Before(cls):
        def choose_draw(self, view):
            return super().choose_draw(_BeforeOneCardLeft(view))

        def choose_discard(self, view):
            return super().choose_discard(_BeforeOneCardLeft(view))

    return Before


@given(st.lists(st.one_of(st.text(max_size=4), st.integers(-3, 60), st.none()), max_size=8),
       st.one_of(st.booleans(), st.none(), st.integers(-2, 2), st.text(max_size=3)))
def test_discard_reshuffled_takes_any_input_without_crashing(items, flag):
    try:
        df = rank_discards(["5S", "6S", "9H", "JK"], 3, draw_pile=items, discard_reshuffled=flag)
    except CrownsError:
        return
    assert isinstance(flag, bool) and df.attrs["unseen"] <= len(items) + flag
