"""King's Crowns rules (RULES.md, King's Crowns): every legal and illegal play, drawing,
reshuffle, target, turn cap, card conservation, decks."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crowns_solver.errors import CardError, DeckError, IllegalMoveError, RulesError
from crowns_solver.kings_crowns import (
    CARD_NAMES,
    DEFAULT_DECK,
    Deck,
    Game,
    Play,
    Rules,
    load_deck,
    parse_card,
)
from crowns_solver.kings_crowns.deck import parse_deck_text

import kc_reference

C = parse_card


def setup(hand, *, play=(), gifts=(), crowns=(), others_play=None, players=2, deck=DEFAULT_DECK,
          phase="play", discard=None):
    """A game whose seat 0 holds `hand` and has the given stacks; every other card of
    the deck goes to the other hands (6 each) and the draw pile."""
    game = Game(players, Rules(deck=deck), seed=0)
    rest = Counter({name: n for name, n in deck.to_dict().items()})
    rest.subtract(Counter(hand) + Counter(play) + Counter(gifts) + Counter(crowns))
    others_play = others_play or {}
    for stack in others_play.values():
        rest.subtract(Counter(stack))
    if discard is None:
        discard = []
    rest.subtract(Counter(discard))
    assert min(rest.values()) >= 0
    pool = sorted(rest.elements())
    hands = [list(hand)]
    for _ in range(1, players):
        hands.append(pool[:6])
        pool = pool[6:]
    play_stacks = [list(play)] + [list(others_play.get(q, [])) for q in range(1, players)]
    gift_stacks = [list(gifts)] + [[] for _ in range(1, players)]
    crown_stacks = [list(crowns)] + [[] for _ in range(1, players)]
    game._engine.set_state(
        [[C(c) for c in h] for h in hands], [[C(c) for c in s] for s in play_stacks],
        [[C(c) for c in s] for s in gift_stacks], [[C(c) for c in s] for s in crown_stacks],
        [C(c) for c in pool], [C(c) for c in discard], 0, 0 if phase == "draw" else 1,
    )
    return game


def plays(game) -> set[tuple[str, str, int | None]]:
    return {(p.card, p.to, p.seat) for p in game.legal_plays()}


def crowns_allowed(game) -> set[str]:
    return {c for c, to, _ in plays(game) if to == "crowns"}


ALL_CROWNS = [f"crown-{c}-{v}" for c in ("black", "red", "blue", "green") for v in (5, 10, 15, 20)]


def crown_hand_game(**kw):
    """Seat 0 with every crown: the legal crowns are exactly what the stacks allow."""
    # a hand holds 7 cards: test crowns in groups, one game per group
    return [setup(ALL_CROWNS[i:i + 7], **kw) for i in range(0, 16, 7)]


def allowed_crowns(**kw) -> set[str]:
    out: set[str] = set()
    for g in crown_hand_game(**kw):
        out |= crowns_allowed(g)
    return out


# ---------------------------------------------------------------- the seed's example

def test_seed_example_forgiveness_and_green_gift():
    """seeds/000: Forgiveness on top and a green Gift: 5 and 10 crowns in green or black."""
    got = allowed_crowns(play=["salvation", "sin-orange", "forgiveness-orange"], gifts=["gift-green"])
    assert got == {"crown-green-5", "crown-green-10", "crown-black-5", "crown-black-10"}


# ---------------------------------------------------------------- crowns

@pytest.mark.parametrize(
    "play, gifts, expected",
    [
        ([], [], set()),                                            # no Salvation: no crown
        (["salvation"], [], {"crown-black-5", "crown-black-10"}),  # Salvation: 5 and 10
        (["salvation", "time-with-god"], [], {f"crown-black-{v}" for v in (5, 10, 15, 20)}),
        (["salvation", "holy-spirit"], ["gift-red"],
         {f"crown-{c}-{v}" for c in ("black", "red") for v in (5, 10, 15, 20)}),
        (["salvation", "time-with-god", "sin-maroon"], ["gift-red", "gift-blue", "gift-green"], set()),  # Sin on top
        (["salvation", "sin-purple", "holy-spirit"], ["gift-blue"],
         {f"crown-{c}-{v}" for c in ("black", "blue") for v in (5, 10, 15, 20)}),
        (["salvation", "time-with-god", "sin-maroon", "forgiveness-maroon"], [],
         {"crown-black-5", "crown-black-10"}),                     # Forgiveness on top: 5 and 10 again
    ],
)
def test_crowns_follow_play_stack_top_and_gifts(play, gifts, expected):
    assert allowed_crowns(play=play, gifts=gifts) == expected


# ---------------------------------------------------------------- play stack cards

def test_salvation_first_and_once():
    g = setup(["salvation", "salvation", "crown-black-5", "gift-red", "time-with-god", "holy-spirit", "forgiveness-orange"])
    p = plays(g)
    assert ("salvation", "play", None) in p
    # before Salvation nothing else goes on the play stack or gifts stack
    assert not any(to in ("play", "gifts", "crowns") for c, to, _ in p if c != "salvation")
    g.play(("salvation", "play"))
    g2 = setup(["salvation", "crown-black-5"], play=["salvation"])
    assert ("salvation", "play", None) not in plays(g2)  # once per player
    assert ("salvation", "discard", None) in plays(g2)


def test_time_with_god_needs_salvation_and_no_sin_on_top():
    assert ("time-with-god", "play", None) in plays(setup(["time-with-god"], play=["salvation"]))
    assert ("time-with-god", "play", None) in plays(setup(["time-with-god"], play=["salvation", "forgiveness-orange"][:1] + ["time-with-god"]))
    assert ("time-with-god", "play", None) not in plays(setup(["time-with-god"], play=["salvation", "sin-orange"]))
    assert ("time-with-god", "play", None) not in plays(setup(["time-with-god"]))


def test_holy_spirit_covers_any_sin_and_needs_salvation():
    for sin in ("sin-orange", "sin-maroon", "sin-purple"):
        assert ("holy-spirit", "play", None) in plays(setup(["holy-spirit"], play=["salvation", sin]))
    assert ("holy-spirit", "play", None) in plays(setup(["holy-spirit"], play=["salvation"]))
    assert ("holy-spirit", "play", None) not in plays(setup(["holy-spirit"]))


def test_forgiveness_only_on_a_sin_of_its_colour():
    hand = ["forgiveness-orange", "forgiveness-maroon", "forgiveness-purple"]
    p = plays(setup(hand, play=["salvation", "sin-maroon"]))
    assert {c for c, to, _ in p if to == "play"} == {"forgiveness-maroon"}
    p = plays(setup(hand, play=["salvation"]))
    assert not any(to == "play" for _, to, _ in p)
    p = plays(setup(hand, play=["salvation", "sin-orange", "forgiveness-orange"]))
    assert not any(to == "play" for _, to, _ in p)


def test_gifts_one_of_each_colour_after_salvation_even_under_a_sin():
    hand = ["gift-red", "gift-blue", "gift-green"]
    assert not any(to == "gifts" for _, to, _ in plays(setup(hand)))
    p = plays(setup(hand, play=["salvation", "sin-purple"], gifts=[]))
    assert {c for c, to, _ in p if to == "gifts"} == set(hand)
    p = plays(setup(["gift-red", "gift-blue"], play=["salvation"], gifts=["gift-red"]))
    assert {c for c, to, _ in p if to == "gifts"} == {"gift-blue"}


def test_sins_go_on_opponents_saved_play_stacks_without_a_sin_on_top():
    g = setup(["sin-orange", "sin-maroon"], play=["salvation"], players=4,
              others_play={1: ["salvation"], 2: [], 3: ["salvation", "sin-purple"]})
    p = plays(g)
    assert {(c, q) for c, to, q in p if to == "play"} == {("sin-orange", 1), ("sin-maroon", 1)}
    # never on the player's own stack
    assert not any(to == "play" and q is None for c, to, q in p)
    g = setup(["sin-orange"], players=3, others_play={1: ["salvation", "sin-maroon", "forgiveness-maroon"], 2: ["salvation", "time-with-god"]})
    assert {q for c, to, q in plays(g) if to == "play"} == {1, 2}


def test_any_card_may_be_discarded():
    hand = ["salvation", "sin-orange", "forgiveness-orange", "time-with-god", "holy-spirit", "gift-red", "crown-black-20"]
    assert {c for c, to, _ in plays(setup(hand)) if to == "discard"} == set(hand)


def test_illegal_plays_raise_naming_the_play():
    g = setup(["crown-black-20", "sin-orange", "salvation"], play=["salvation"])
    with pytest.raises(IllegalMoveError, match="crown-black-20 on own crowns stack"):
        g.play(("crown-black-20", "crowns"))
    with pytest.raises(IllegalMoveError, match="not in the hand"):
        g.play(("crown-red-5", "discard"))
    with pytest.raises(IllegalMoveError, match="sin-orange on seat 1"):
        g.play(("sin-orange", "play", 1))     # seat 1 has no Salvation
    with pytest.raises(CardError, match="crown-pink-5"):
        g.play(("crown-pink-5", "discard"))
    with pytest.raises(IllegalMoveError, match="seat 0 to play"):
        g.draw("draw")


# ---------------------------------------------------------------- turns, draws, end

def test_crown_play_reaching_target_wins_at_once():
    stacks = dict(play=["salvation", "time-with-god"], gifts=["gift-red", "gift-blue", "gift-green"])
    g = setup(["crown-black-20", "crown-black-10"], crowns=["crown-red-20", "crown-blue-20", "crown-green-20", "crown-black-15"], **stacks)
    assert g.scores[0] == 75
    g.play(("crown-black-10", "crowns"))      # 85: not yet
    assert g.phase == "draw" and g.winner is None and g.to_move == 1
    g = setup(["crown-black-15"], crowns=["crown-red-20", "crown-blue-20", "crown-green-20", "crown-black-15", "crown-black-10"], **stacks)
    g.play(("crown-black-15", "crowns"))      # 85 + 15 = 100: wins on the spot
    assert g.phase == "over" and g.winner == 0 and g.ended == "target" and g.scores[0] == 100
    assert g.legal_plays() == [] and g.legal_draws() == []


def test_target_is_100_or_75_with_five_players():
    assert Rules().target_for(4) == 100 and Rules().target_for(2) == 100
    assert Rules().target_for(5) == 75
    assert Rules(target=60).target_for(5) == 60
    for players, target in ((4, 100), (5, 75)):
        g = Game(players, seed=1).play_out(["greedy"] * players)
        assert g.ended == "target" and max(g.scores) >= target
        assert sorted(g.scores)[-2] < target


def test_turn_cap_gives_a_stalemate():
    g = Game(4, Rules(max_turns=7), seed=2).play_out(["random"] * 4)
    assert g.turn == 7 and g.ended == "stalemate" and g.winner is None


def test_draw_from_discard_takes_the_top_and_empty_draw_pile_reshuffles():
    g = setup(["salvation"] * 6, phase="draw", discard=["crown-black-5", "crown-red-5"])
    assert g.legal_draws() == ["draw", "discard"]
    assert g.draw("discard") == "crown-red-5"
    # now make the draw pile empty: every remaining card in the discard pile
    g = setup(["salvation"] * 6, phase="draw")
    state = g.state()
    pile = state["draw_pile"]
    eng = g._engine
    eng.set_state([[C(c) for c in h] for h in state["hands"]], [[] for _ in range(2)], [[] for _ in range(2)],
                  [[] for _ in range(2)], [], [C(c) for c in pile], 0, 0)
    assert g.view(0).draw_size == 0 and g.view(0).discard_size == len(pile)
    card = g.draw("draw")
    s = g.state()
    assert s["reshuffles"] == 1 and len(s["draw_pile"]) == len(pile) - 1 and s["discard_pile"] == []
    assert Counter(s["draw_pile"]) + Counter([card]) == Counter(pile)


def test_both_piles_empty_means_play_without_drawing_and_an_empty_hand_passes():
    deck = Deck.from_mapping({"salvation": 2, "crown-black-5": 12})
    g = Game(2, Rules(deck=deck, max_turns=50, target=60), seed=0)  # 60: all the crowns (30 each here)
    crown, sal = C("crown-black-5"), C("salvation")
    # both saved, 6 crowns each, both piles empty, seat 0 about to draw
    g._engine.set_state([[crown] * 6, [crown] * 6], [[sal], [sal]], [[], []], [[], []], [], [], 0, 0)
    assert g.phase == "play" and g.legal_draws() == [] and len(g.view().hand) == 6
    for turn in range(12):                       # hands shrink by one card a turn
        assert g.view().hand_sizes == (6 - (turn + 1) // 2, 6 - turn // 2)
        assert g.legal_plays() == [Play("crown-black-5", "discard"), Play("crown-black-5", "crowns")]
        g.play(("crown-black-5", "crowns"))
    assert g.scores == (30, 30) and g.view(0).hand_sizes == (0, 0)
    # nothing to draw, nothing to play: every seat passes until the turn cap
    assert g.phase == "over" and g.ended == "stalemate" and g.turn == 50 and g.winner is None
    assert g.card_counts() == Counter(deck.to_dict())


# ---------------------------------------------------------------- engine vs reference, conservation

@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_engine_legal_plays_match_reference_and_cards_are_conserved(players):
    deck_total = Counter(DEFAULT_DECK.to_dict())
    for seed in range(3):
        g = Game(players, seed=seed)
        policies = ["random", "aggressive", "greedy", "defensive", "random"][:players]
        from crowns_solver.kings_crowns import get_policy

        pols = [get_policy(p) for p in policies]
        checked = 0
        while g.phase != "over":
            seat = g.to_move
            if g.phase == "draw":
                g.draw(pols[seat].choose_draw(g.view(seat), g.rng))
                assert g.card_counts() == deck_total
            s = g.state()
            ref = kc_reference.legal_plays(seat, s["hands"][seat], s["play_stacks"], s["gift_stacks"])
            assert plays(g) == ref and g.view(seat).legal_plays() == g.legal_plays()
            checked += 1
            g.play(pols[seat].choose_play(g.view(seat), g.rng))
            assert g.card_counts() == deck_total
        assert checked > 10


def test_card_conservation_and_bounds_over_many_fast_games():
    from crowns_solver.kings_crowns import simulate

    df = simulate(3000, players=4, policies=["random", "aggressive", "greedy", "defensive"], rotate=True, seed=5, workers=1)
    crowns = df[[f"crowns_{s}" for s in range(4)]].to_numpy()
    # crown totals are multiples of 5 within the deck's crown points; one winner at most
    assert (crowns % 5 == 0).all() and (crowns.sum(axis=1) <= DEFAULT_DECK.crown_points()).all()
    won = df["winner"] >= 0
    assert (crowns[won.to_numpy(), df.loc[won, "winner"].to_numpy()] >= 100).all()
    assert ((crowns >= 100).sum(axis=1) <= 1).all()
    assert (df.loc[~won, "turns"] == 2000).all() and (df["turns"] <= 2000).all()


# ---------------------------------------------------------------- decks

def test_default_deck_is_rules_md():
    d = DEFAULT_DECK
    assert d.size == 118 and d.crown_points() == 520
    assert d.count("salvation") == 12 and d.count("time-with-god") == 6 and d.count("holy-spirit") == 2
    for colour in ("orange", "maroon", "purple"):
        assert d.count(f"sin-{colour}") == 6 and d.count(f"forgiveness-{colour}") == 8
    for colour in ("red", "blue", "green"):
        assert d.count(f"gift-{colour}") == 4
    for colour in ("black", "red", "blue", "green"):
        assert [d.count(f"crown-{colour}-{v}") for v in (5, 10, 15, 20)] == [3, 3, 3, 2]


def test_deck_files_toml_and_json(tmp_path):
    t = tmp_path / "d.toml"
    t.write_text('name = "sinful"\n[deck]\nsalvation = 12\nsin-orange = 20\n"Crown Black 20" = 10\n')
    d = load_deck(t)
    assert d.name == "sinful" and d.size == 42 and d.count("crown-black-20") == 10
    j = tmp_path / "d.json"
    j.write_text(json.dumps(DEFAULT_DECK.to_dict()))
    assert load_deck(j).counts == DEFAULT_DECK.counts


@pytest.mark.parametrize(
    "text, fmt, message",
    [
        ('{"crown-pink-5": 3}', "json", "unknown colour 'pink'"),
        ('{"crown-black-7": 3}', "json", "unknown crown value '7'"),
        ('{"angel": 3}', "json", "'angel'"),
        ('{"sin-orange": -1}', "json", "count of 'sin-orange' is -1"),
        ('{"sin-orange": 1.5}', "json", "whole number"),
        ('{"sin-orange": 1, "sin-orange": 2}', "json", "'sin-orange' appears twice"),
        ('{"sin-orange": 1, "Sin Orange": 2}', "json", "names the same card"),
        ('salvation = "many"', "toml", "'salvation' must be a whole number"),
        ('salvation = ', "toml", "not a valid TOML"),
        ('{"salvation": 20000}', "json", "more than"),
    ],
)
def test_invalid_deck_files_name_the_entry(text, fmt, message):
    with pytest.raises(DeckError, match=message):
        parse_deck_text(text, fmt, "bad-deck")


def test_too_small_deck_is_refused_when_dealing():
    deck = Deck.from_mapping({"salvation": 12})
    with pytest.raises(DeckError, match="12 cards, too few to deal: 2 players need at least 13"):
        Game(2, Rules(deck=deck))
    with pytest.raises(RulesError, match="2 to 5 players"):
        Game(6)


@given(st.text(max_size=30) | st.integers(-5, 40))
def test_parse_card_never_crashes(text):
    try:
        code = parse_card(text)
    except CardError:
        return
    assert 0 <= code < 28 and parse_card(CARD_NAMES[code]) == code


@given(st.dictionaries(st.sampled_from(list(CARD_NAMES) + ["crown-x-5", "foo", "gift-red "]),
                       st.integers(-3, 50) | st.floats() | st.text(max_size=3), max_size=12))
def test_deck_from_random_mappings(mapping):
    try:
        d = Deck.from_mapping(mapping)
    except DeckError:
        return
    assert d.size == sum(mapping.values())


@given(st.text(max_size=200))
def test_deck_parser_never_crashes(text):
    for fmt in ("toml", "json"):
        try:
            parse_deck_text(text, fmt, "x")
        except DeckError:
            pass
