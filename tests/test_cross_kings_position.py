"""Cross Kings deals, positions, moves, JSON and crosskings.net save strings."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from crowns_solver.cross_kings import (
    CENTRAL_CELLS,
    DECK,
    FACE_DOWN_CELLS,
    Deal,
    Position,
    cell_coords,
    cell_index,
    line_cells,
    score_hand,
)
from crowns_solver.errors import (
    CardError,
    CrownsError,
    DuplicateCardError,
    IllegalMoveError,
    PositionError,
    SaveStringError,
)

FIRST_SAVE = (
    "??7S6H2H8H??/5H6C3SAHKH7C/3C8C??KC5D4C/4HAD??7D2D5S/7H4DKD6D6S8S/5C3D4SKS2S2C"
    "//ASAC8D3H//301273969908864214574189716"
)


# ---------------------------------------------------------------- save strings


def test_every_label_save_string_round_trips(ck_labels):
    for label in ck_labels:
        pos = Position.from_save_string(label["save"])
        assert pos.cards_left == label["cards_left"]
        assert len(pos.face_down) == label["facedown"]
        assert pos.to_save_string() == label["save"]
        # the labelled moves are exactly the legal moves
        assert sorted(tuple(m["marker"]) for m in label["moves"]) == pos.legal_moves()
        # face-down destinations list exactly the unseen cards as possible reveals
        for move in label["moves"]:
            cell = cell_index(tuple(move["marker"]))
            cards = sorted(r["card"] for r in move["resolutions"])
            if cell in pos.face_down:
                assert cards == sorted(pos.unseen)
            else:
                assert cards == [pos.grid[cell]]


def test_save_string_replay_details():
    pos = Position.from_save_string(FIRST_SAVE)
    assert pos.start == 14 and len(pos.history) == 27
    assert pos.to_move == "second"  # 27 moves made, first moved first
    assert len(pos.first_hand) == 14 and len(pos.second_hand) == 13
    assert sorted(pos.unseen) == sorted(["AS", "AC", "8D", "3H"])
    # the first move: digit 3 from (2,2) is the 4th of the sorted other cells
    assert pos.history[0] == line_cells(14)[3]
    assert pos.first_hand[0] == DECK.index("8C")


@pytest.mark.parametrize(
    "save, message",
    [
        ("abc", "three parts"),
        (FIRST_SAVE.replace("??7S", "??9S", 1), r"cell \(0,1\) is '9S'"),
        (FIRST_SAVE.replace("??7S6H", "7S??6H", 1), r"cell \(0,1\) is '\?\?' but is not on a diagonal"),
        (FIRST_SAVE.replace("/5H6C3S", "/5H6C3", 1), "grid row 1"),
        (FIRST_SAVE.replace("//ASAC8D3H//", "//ASAC8D//", 1), "4 cells are '\\?\\?' but the face-down list has 3"),
        (FIRST_SAVE.replace("//ASAC8D3H//", "//ASAC8DAS//", 1), "appears twice"),
        (FIRST_SAVE + "x", "'x' is not a move digit"),
        (FIRST_SAVE[:-27] + "343", r"move 3: digit 3 points to cell \(2,1\), which is empty"),
        (FIRST_SAVE[:-27] + "33", r"move 2: takes cell \(2,2\), which the grid still shows"),
        (FIRST_SAVE.replace("/5H6C3SAHKH7C/", "/5H6C3SAHKH7H/", 1), "appears twice"),
    ],
)
def test_bad_save_strings(save, message):
    with pytest.raises(SaveStringError, match=message):
        Position.from_save_string(save)


def test_save_string_cannot_take_a_face_down_cell_shown_as_unknown():
    # the move history takes (2,3), which is face down; a save string shows taken cells'
    # cards, so '??' there is inconsistent
    save = FIRST_SAVE.replace("3C8C??KC5D4C", "3C8C????5D4C").replace("//ASAC8D3H//", "//ASAC8D3HKC//")
    with pytest.raises(SaveStringError, match="still shows as"):
        Position.from_save_string(save)


@given(st.text(max_size=120))
def test_random_text_never_crashes_the_save_string_reader(text):
    try:
        Position.from_save_string(text)
    except SaveStringError:
        pass


@given(st.integers(0, 2**32 - 1), st.text(alphabet="0123456789", max_size=40))
def test_random_move_digits_either_replay_or_raise_save_string_error(seed, digits):
    deal = Deal.random(seed)
    pos = deal.position()
    save_grid = "/".join("".join("??" if 6 * r + c in FACE_DOWN_CELLS else deal.cells[6 * r + c] for c in range(6)) for r in range(6))
    hidden = "".join(deal.cells[i] for i in sorted(FACE_DOWN_CELLS))
    save = f"{save_grid}//{hidden}//{digits}"
    try:
        loaded = Position.from_save_string(save)
    except SaveStringError:
        return
    # replays that never take a face-down cell are valid and round-trip
    assert loaded.to_save_string() == save
    assert pos.cards_left == 36


# ---------------------------------------------------------------- deals and moves


def test_random_deal_is_seeded():
    assert Deal.random(7) == Deal.random(7)
    assert Deal.random(7) != Deal.random(8)
    assert sorted(Deal.random(7).cells) == sorted(DECK)


def test_deal_text_round_trip():
    deal = Deal.random(3)
    assert Deal.from_text(deal.to_text()) == deal
    compact = "\n".join("".join(deal.cells[6 * r + c] for c in range(6)) for r in range(6))
    assert Deal.from_text(compact) == deal


def test_deal_text_allows_unknown_face_down_cells_only():
    deal = Deal.random(3)
    cells = list(deal.cells)
    cells[0] = None  # (0,0) is on a diagonal
    text = Deal(tuple(cells)).to_text()
    assert text.startswith("??")
    assert Deal.from_text(text).cells[0] is None
    bad = text.split("\n")
    bad[0] = " ".join([bad[0].split()[0], "??"] + bad[0].split()[2:])
    with pytest.raises(PositionError, match=r"cell \(0,1\) is face up"):
        Deal.from_text("\n".join(bad))


@pytest.mark.parametrize(
    "text, error, message",
    [
        ("AS 2S", PositionError, "6 rows"),
        ("\n".join(["AS 2S 3S 4S 5S 6S"] * 5 + ["AS 2S"]), PositionError, "row 5 has 2 cells"),
        ("\n".join(["AS 2S 3S 4S 5S ZZ"] * 6), CardError, r"cell \(0,5\): not a card: 'ZZ'"),
        ("\n".join(["AS 2S 3S 4S 5S 6S"] * 6), DuplicateCardError, "duplicate card AS"),
    ],
)
def test_bad_deal_text(text, error, message):
    with pytest.raises(error, match=message):
        Deal.from_text(text)


def test_fresh_position_start_choice():
    pos = Position.random(1)
    assert pos.marker is None and pos.to_move == "second"
    assert pos.legal_moves() == [cell_coords(i) for i in CENTRAL_CELLS]
    started = pos.play((3, 3))
    assert started.marker == 21 and started.to_move == "first" and started.cards_left == 36
    with pytest.raises(IllegalMoveError, match=r"illegal move \(0,0\)"):
        pos.play((0, 0))


def _random_game(seed: int, reach: str):
    rng = np.random.default_rng(seed)
    pos = Position.random(seed, reach)
    positions = [pos]
    while not pos.is_terminal():
        moves = pos.legal_moves()
        pos = pos.play(moves[int(rng.integers(len(moves)))])
        positions.append(pos)
    return positions


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("reach", ["any", "nearest"])
def test_random_games_conserve_cards_and_round_trip(seed, reach):
    for pos in _random_game(seed, reach):
        on_grid = [c for c in pos.grid if c is not None]
        held = pos.hand("first") + pos.hand("second")
        assert sorted(on_grid + list(held)) == sorted(DECK)
        assert Position.from_dict(json.loads(json.dumps(pos.to_dict()))) == pos
        if pos.start == 14:
            assert Position.from_save_string(pos.to_save_string(), reach) == pos
    final = pos
    assert final.legal_moves() == []
    a, b = final.scores()
    assert final.margin() == a - b == score_hand(final.first_hand) - score_hand(final.second_hand)


def test_nearest_reach_blocks():
    pos = Position.random(11, "nearest").play((2, 2))
    # from (2,2): nearest in each direction are the adjacent cells
    assert pos.legal_moves() == [(1, 2), (2, 1), (2, 3), (3, 2)]
    anyreach = Position.random(11, "any").play((2, 2))
    assert len(anyreach.legal_moves()) == 10
    # after taking (2,3), the marker at (2,3): its own row now reaches (2,2) (start card
    # still there, and blocking (2,1), (2,0))
    after = pos.play((2, 3))
    assert (2, 2) in after.legal_moves() and (2, 1) not in after.legal_moves()
    assert (2, 4) in after.legal_moves()


def test_face_down_reveal_given_and_drawn():
    deal = Deal.random(4)
    cells = tuple(None if i in FACE_DOWN_CELLS else c for i, c in enumerate(deal.cells))
    pos = Deal(cells).position().play((2, 2))
    hidden = [deal.cells[i] for i in FACE_DOWN_CELLS]
    assert sorted(pos.unseen) == sorted(hidden)
    card = hidden[0]
    after = pos.play((2, 3), card)
    assert after.hand("first") == (card,)
    assert card not in after.unseen
    with pytest.raises(IllegalMoveError, match="cannot reveal"):
        pos.play((2, 3), deal.cells[1])  # a face-up card
    a = pos.play((2, 3), rng=np.random.default_rng(9))
    b = pos.play((2, 3), rng=np.random.default_rng(9))
    assert a == b and a.hand("first")[0] in hidden
    known = Position.new(deal).play((2, 2))
    with pytest.raises(IllegalMoveError, match="holds"):
        known.play((2, 3), "KS" if deal.cells[15] != "KS" else "KH")


# ---------------------------------------------------------------- JSON


def test_endgame_positions_load(ck_endgames):
    for case in ck_endgames:
        pos = Position.from_dict(case["position"])
        assert pos.to_dict() == {k: v for k, v in case["position"].items()}
        assert sorted(cell_index(m) for m in pos.legal_moves()) == sorted(int(k) for k in case["move_values"])
        assert pos.scores() == (case["score_first_now"], case["score_second_now"])


def _endgame(ck_endgames):
    return json.loads(json.dumps(ck_endgames[1]["position"]))


@pytest.mark.parametrize(
    "mutate, error, message",
    [
        (lambda d: d.update(grid=d["grid"][:30]), PositionError, "36 cells"),
        (lambda d: d["first_hand"].__setitem__(0, d["second_hand"][0]), DuplicateCardError, "duplicate card"),
        (lambda d: d["grid"].__setitem__(0, "9Z"), CardError, "not a card"),
        (lambda d: d.update(to_move="third"), PositionError, "to_move"),
        (lambda d: d.update(marker=99), PositionError, "no such cell"),
        (lambda d: d.update(marker=5), PositionError, "still holds a card"),
        (lambda d: d["first_hand"].pop(), PositionError, "taken cells"),
        (lambda d: d["grid"].__setitem__(d["grid"].index("4S"), None), PositionError, "31 taken cells"),
        (lambda d: d["grid"].__setitem__(d["grid"].index("3C"), "??"), PositionError, r"\(0,3\) is not on a diagonal"),
        (lambda d: d.pop("marker"), PositionError, "missing the key 'marker'"),
        (lambda d: d.update(face_down=[1]), PositionError, "not on a diagonal"),
    ],
)
def test_impossible_positions(ck_endgames, mutate, error, message):
    d = _endgame(ck_endgames)
    mutate(d)
    with pytest.raises(error, match=message):
        Position.from_dict(d)


def test_hand_sizes_must_fit_the_player_to_move(ck_endgames):
    d = _endgame(ck_endgames)
    d["to_move"] = "second" if d["to_move"] == "first" else "first"
    with pytest.raises(PositionError, match="cannot be to move"):
        Position.from_dict(d)


def test_position_from_text_reads_all_three_forms(ck_endgames):
    assert Position.from_text(FIRST_SAVE).to_save_string() == FIRST_SAVE
    d = ck_endgames[0]["position"]
    assert Position.from_text(json.dumps(d)).to_dict() == d
    deal = Deal.random(2)
    assert Position.from_text(deal.to_text()) == deal.position()


def test_save_string_needs_history(ck_endgames):
    pos = Position.from_dict(ck_endgames[0]["position"])
    with pytest.raises(PositionError, match="save string needs"):
        pos.to_save_string()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 40) | st.sampled_from(list(DECK) + ["??", "x"]),
    lambda children: st.lists(children, max_size=40) | st.dictionaries(st.text(max_size=12), children, max_size=8),
    max_leaves=60,
)


@given(json_values)
def test_random_json_never_crashes_from_dict(value):
    try:
        Position.from_dict(value)
    except CrownsError:
        pass


@given(st.data())
def test_mutated_endgames_raise_only_crowns_errors(ck_endgames, data):
    d = json.loads(json.dumps(data.draw(st.sampled_from(ck_endgames))["position"]))
    key = data.draw(st.sampled_from(sorted(d)))
    d[key] = data.draw(json_values)
    try:
        Position.from_dict(d)
    except CrownsError:
        pass


@given(st.one_of(st.text(max_size=4), st.integers(-3, 40), st.none(), st.floats()))
def test_parse_card_raises_card_error_only(value):
    from crowns_solver.cross_kings import parse_card

    try:
        idx = parse_card(value)
    except CardError:
        return
    assert 0 <= idx < 36


def _midgame(seed: int = 3, left: int = 12) -> Position:
    p = Position.random(seed=seed).play((2, 2))
    while p.cards_left > left:
        p = p.play(p.legal_moves()[0])
    return p


def test_from_dict_refuses_hands_that_do_not_fit_the_history():
    d = _midgame().to_dict()
    d["second_hand"].append(d["first_hand"].pop())
    with pytest.raises(PositionError, match=r"history has 24 moves, so first took 12 cards.*hold 11 and 13"):
        Position.from_dict(d)
    d = _midgame().to_dict()
    d["second_hand"] = d["first_hand"] + d["second_hand"]
    d["first_hand"] = []
    with pytest.raises(PositionError, match=r"hold 0 and 24"):
        Position.from_dict(d)
    d = _midgame().to_dict()
    d["history"] = "none"
    with pytest.raises(PositionError, match=r"history must be a list of cells"):
        Position.from_dict(d)


def test_from_dict_refuses_an_impossible_start_or_history_order():
    d = _midgame().to_dict()
    d["start"] = [0, 0]
    with pytest.raises(PositionError, match=r"start cell must be a central cell.*\(0,0\)"):
        Position.from_dict(d)
    d = _midgame().to_dict()
    d["history"] = d["history"][::-1]
    with pytest.raises(PositionError, match=r"history: move 1, .* is not legal with the marker on \(2,2\)"):
        Position.from_dict(d)
    d = _midgame().to_dict()
    d["marker"] = d["history"][0]
    with pytest.raises(PositionError):
        Position.from_dict(d)
    # a real game's record is accepted, under both reach options
    for reach in ("any", "nearest"):
        p = Position.random(seed=8, rules=reach).play((3, 3))
        rng = np.random.default_rng(1)
        while not p.is_terminal():
            moves = p.legal_moves()
            p = p.play(moves[int(rng.integers(len(moves)))])
            assert Position.from_dict(p.to_dict()) == p


def test_from_text_refuses_non_text_and_deep_json_and_reads_a_byte_order_mark():
    with pytest.raises(PositionError, match="is a str, got int"):
        Position.from_text(5)  # type: ignore[arg-type]
    with pytest.raises(PositionError, match="nested too deeply"):
        Position.from_text('{"grid":' + "[" * 100_000 + "]" * 100_000 + "}")
    p = _midgame()
    assert Position.from_text("\ufeff" + json.dumps(p.to_dict())) == p


@pytest.mark.parametrize("cells", [None, 5, {"AS", "2S"}, "AS 2S"])
def test_deal_refuses_cells_that_are_not_a_list(cells):
    with pytest.raises(PositionError, match="a deal's cells are a list of 36 cards"):
        Deal(cells)  # type: ignore[arg-type]


def test_deal_from_text_refuses_bytes_and_reads_a_byte_order_mark():
    with pytest.raises(PositionError, match="a deal's text is a str, got bytes"):
        Deal.from_text(b"xx")  # type: ignore[arg-type]
    deal = Deal.random(4)
    text = "\n".join(" ".join(c or "??" for c in deal.cells[6 * r:6 * r + 6]) for r in range(6))
    assert Deal.from_text("\ufeff" + text) == deal
