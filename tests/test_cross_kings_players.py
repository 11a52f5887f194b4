"""Cross Kings players: seat views hide face-down cards, each player's choices, move evaluation."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from ck_oracle import solve_plain
from hypothesis import given
from hypothesis import strategies as st

from crowns_solver.cross_kings import Position, cell_index, score_hand
from crowns_solver.cross_kings.players import (
    PLAYER_NAMES,
    ClairvoyantPlayer,
    GreedyPlayer,
    MoveEstimate,
    SeatView,
    evaluate_moves,
    make_player,
    seat_view,
)
from crowns_solver.errors import CrownsError, HiddenCardError, IllegalMoveError, PolicyError, PositionError

HONEST = ("random", "greedy", "search")


def random_position(seed: int, left: int, reach: str = "any") -> Position:
    """A position with `left` cards on the grid, reached by seeded random play."""
    rng = np.random.default_rng(seed)
    pos = Position.random(rng, reach)
    while pos.cards_left > left or pos.marker is None:
        moves = pos.legal_moves()
        if not moves:
            return random_position(seed + 10_000, left, reach)
        pos = pos.play(moves[int(rng.integers(len(moves)))])
    return pos


def player(name: str):
    return make_player(name, node_limit=5_000) if name in ("search", "clairvoyant") else make_player(name)


# ---------------------------------------------------------------- the view hides face-down cards


def test_view_raises_on_every_hidden_access():
    pos = Position.random(5).play((2, 3))           # the deal knows every face-down card
    view = seat_view(pos, "first")
    for i in pos.face_down:
        with pytest.raises(HiddenCardError, match=r"face down"):
            view.card_at(i)
    with pytest.raises(HiddenCardError):
        view.true_position()
    assert view.hidden_accesses == len(pos.face_down) + 1
    # the public position knows none of them, and the view keeps nothing else
    pub = view.public_position()
    assert all(pub.cells[i] == -1 for i in pos.face_down)
    assert "??" in view.grid and view.grid.count("??") == len(pos.face_down)
    assert not any(isinstance(v, Position) and v.is_known() for v in (getattr(view, s) for s in SeatView.__slots__))
    # face-up cards and taken cells read normally
    up = next(i for i in range(36) if i not in pos.face_down)
    assert view.card_at(up) == pos.grid[up]
    assert view.unseen == pos.unseen and len(view.unseen) == len(pos.face_down)


def test_view_with_reveal_gives_the_deal_only_on_request():
    pos = Position.random(6)
    view = seat_view(pos, "second", reveal=True)
    assert view.true_position() is pos
    with pytest.raises(HiddenCardError):
        view.card_at((2, 2))      # card_at still answers only what the seat sees


def test_view_of_both_seats():
    pos = random_position(11, 20)
    a, b = seat_view(pos, "first"), seat_view(pos, "second")
    assert a.grid == b.grid and a.legal_moves() == b.legal_moves() == pos.legal_moves()
    s1, s2 = pos.scores()
    assert a.margin == s1 - s2 and b.margin == s2 - s1
    assert a.my_hand == b.opponent_hand == pos.hand("first")
    assert a.my_turn != b.my_turn


class CountingView(SeatView):
    """A view that also counts every hidden access a player might swallow."""

    __slots__ = ()


@pytest.mark.parametrize("name", HONEST)
def test_honest_players_never_touch_a_hidden_card(name):
    p = player(name)
    for seed in range(3):
        pos = Position.random(100 + seed)
        rng = np.random.default_rng(seed)
        views = []
        while not pos.is_terminal():
            view = CountingView(pos, pos.to_move)
            views.append(view)
            pos = pos.play(p.choose(view, rng))
        assert pos.is_terminal() and len(views) == len(pos.taken) + 1
        assert sum(v.hidden_accesses for v in views) == 0


def test_clairvoyant_needs_a_revealing_view():
    pos = Position.random(9)
    p = make_player("clairvoyant", node_limit=2_000)
    assert p.cheats and "heats" in ClairvoyantPlayer.__doc__
    with pytest.raises(HiddenCardError):
        p.choose(seat_view(pos, "second"), np.random.default_rng(0))
    assert p.choose(seat_view(pos, "second", reveal=True), np.random.default_rng(0)) in pos.legal_moves()


# ---------------------------------------------------------------- what each player chooses


def _gain(hand, card):
    return score_hand([*hand, card]) - score_hand(hand)


@pytest.mark.parametrize("seed", range(12))
def test_greedy_takes_the_best_immediate_gain(seed):
    pos = random_position(300 + seed, 8 + 2 * seed)
    view = seat_view(pos, pos.to_move)
    mine, theirs = pos.hand(pos.to_move), pos.hand("second" if pos.to_move == "first" else "first")

    def expected(hand, cell):
        i = cell_index(cell)
        cards = pos.unseen if i in pos.face_down else (pos.grid[i],)
        return Fraction(sum(_gain(hand, c) for c in cards), len(cards))

    keys = {m: (expected(mine, m), expected(theirs, m)) for m in pos.legal_moves()}
    best = max(keys.values())
    picks = {GreedyPlayer().choose(view, np.random.default_rng(k)) for k in range(8)}
    assert picks <= {m for m, k in keys.items() if k == best}
    first = GreedyPlayer(tie_break="first").choose(view, np.random.default_rng(0))
    assert first == min(m for m, k in keys.items() if k == best)


def test_greedy_start_cell_shows_fewest_kings():
    # a deal whose (2,2) line holds every face-up King: greedy never starts there
    pos = Position.random(21)
    kings = {c: sum(1 for i in range(36) if i not in pos.face_down and pos.cells[i] >= 32
                    and i != c and (i // 6 == c // 6 or i % 6 == c % 6)) for c in (14, 15, 20, 21)}
    fewest = min(kings.values())
    got = {cell_index(GreedyPlayer().choose(seat_view(pos, "second"), np.random.default_rng(k))) for k in range(8)}
    assert got <= {c for c, k in kings.items() if k == fewest}


@pytest.mark.parametrize("seed", range(8))
def test_search_plays_a_proven_best_move_within_the_exact_frontier(seed):
    # 9 cards left, some face down: the search player's move must reach the exact game value
    k = 0
    while True:   # the first seeded position with a choice to make and a card face down
        pos = random_position(500 + 50 * seed + k, 9)
        if len(pos.legal_moves()) >= 2 and pos.face_down:
            break
        k += 1
    value, moves, _ = solve_plain(pos, "game", "margin")
    got = make_player("search", node_limit=200_000).choose(seat_view(pos, pos.to_move), np.random.default_rng(0))
    assert moves[cell_index(got)] == value


def test_random_player_is_uniform_and_seeded():
    pos = random_position(42, 24)
    view = seat_view(pos, pos.to_move)
    p = make_player("random")
    a = [p.choose(view, np.random.default_rng(s)) for s in range(400)]
    b = [p.choose(view, np.random.default_rng(s)) for s in range(400)]
    assert a == b
    moves = pos.legal_moves()
    counts = np.array([a.count(m) for m in moves])
    assert set(a) == set(moves)
    # each of k moves drawn ~400/k times: a 6-sigma band cannot fail by chance
    k = len(moves)
    sd = (400 * (1 / k) * (1 - 1 / k)) ** 0.5
    assert np.all(np.abs(counts - 400 / k) < 6 * sd)


def test_search_player_is_reproducible_under_a_node_limit():
    pos = Position.random(77)
    p = make_player("search", node_limit=50_000)
    view = seat_view(pos, "second")
    first = [p.choose(view, np.random.default_rng(0))]
    q = pos.play(first[0])
    assert first == [make_player("search", node_limit=50_000).choose(view, np.random.default_rng(0))]
    assert p.choose(seat_view(q, "first"), np.random.default_rng(0)) == p.choose(
        seat_view(q, "first"), np.random.default_rng(5))


# ---------------------------------------------------------------- evaluate_moves


def test_evaluate_moves_matches_the_shared_endgames(ck_endgames):
    # no face-down cells left there, so the game value is the open value of the case file
    for case in ck_endgames[:12]:
        pos = Position.from_dict(case["position"])
        sign = 1 if pos.to_move == "first" else -1
        est = evaluate_moves(pos, tt_mb=1)
        assert all(isinstance(e, MoveEstimate) and e.exact for e in est)
        assert {cell_index(e.cell): e.value for e in est} == {int(k): sign * v for k, v in case["move_values"].items()}
        assert est[0].value == sign * case["value"]
        assert [e.value for e in est] == sorted((e.value for e in est), reverse=True)


@pytest.mark.parametrize("seed", range(4))
def test_evaluate_moves_game_values_equal_plain_expectiminimax(seed):
    pos = random_position(700 + seed, 9)
    _, moves, cards = solve_plain(pos, "game", "margin")
    est = evaluate_moves(pos, tt_mb=1)
    assert {cell_index(e.cell): e.value for e in est} == moves
    for e in est:
        if e.card_values is not None:
            assert e.card_values == cards[cell_index(e.cell)]


def test_evaluate_moves_estimates_under_a_limit():
    pos = Position.random(3).play((2, 2))
    est = evaluate_moves(pos, node_limit=40_000, tt_mb=4)
    assert [e.cell for e in est] and sorted(e.cell for e in est) == pos.legal_moves()
    assert not any(e.exact for e in est)
    assert all(e.lower <= e.value <= e.upper for e in est)


def test_evaluate_moves_at_the_end():
    pos = random_position(3, 2)
    while not pos.is_terminal():
        pos = pos.play(pos.legal_moves()[0])
    assert evaluate_moves(pos) == []


# ---------------------------------------------------------------- bad input


def test_make_player_errors():
    assert set(PLAYER_NAMES) == {"random", "greedy", "search", "clairvoyant"}
    for name in PLAYER_NAMES:
        assert make_player(name).name == name
    with pytest.raises(PolicyError, match="'best'"):
        make_player("best")
    with pytest.raises(PolicyError, match="'depth'"):
        make_player("search", depth=3)
    with pytest.raises(PolicyError, match="node_limit"):
        make_player("search", node_limit=0)
    with pytest.raises(PolicyError, match="node_limit or a time_limit"):
        make_player("search", node_limit=None)
    with pytest.raises(PolicyError, match="tie_break"):
        make_player("greedy", tie_break="last")
    with pytest.raises(PositionError):
        seat_view("not a position", "first")  # type: ignore[arg-type]
    with pytest.raises(PositionError):
        seat_view(Position.random(1), "third")  # type: ignore[arg-type]
    end = random_position(3, 2)
    while not end.is_terminal():
        end = end.play(end.legal_moves()[0])
    with pytest.raises(IllegalMoveError):
        make_player("greedy").choose(seat_view(end, "first"), np.random.default_rng(0))
    with pytest.raises(PositionError):
        evaluate_moves("AS")  # type: ignore[arg-type]


@pytest.mark.parametrize("name", PLAYER_NAMES)
def test_choose_refuses_a_missing_rng_and_the_wrong_seat(name):
    pos = random_position(11, 20)
    mover = pos.to_move
    other = "second" if mover == "first" else "first"
    p = player(name)
    reveal = name == "clairvoyant"
    for rng in (None, 7, np.random.RandomState(0)):
        with pytest.raises(PolicyError, match="numpy Generator"):
            p.choose(seat_view(pos, mover, reveal=reveal), rng)
    # the seat not to move cannot choose: the message names both seats
    with pytest.raises(IllegalMoveError, match=f"{mover}'s turn, not {other}'s"):
        p.choose(seat_view(pos, other, reveal=reveal), np.random.default_rng(0))
    # the seat to move can, and gets a legal move
    assert p.choose(seat_view(pos, mover, reveal=reveal), np.random.default_rng(0)) in pos.legal_moves()


_option_values = st.one_of(st.none(), st.booleans(), st.integers(-5, 10**7), st.floats(allow_nan=True),
                           st.text(max_size=5), st.lists(st.integers(), max_size=2))


@given(name=st.one_of(st.sampled_from(PLAYER_NAMES), st.text(max_size=8)),
       options=st.dictionaries(st.sampled_from(["node_limit", "time_limit", "objective", "tt_mb", "tie_break", "x"]),
                               _option_values, max_size=3))
def test_make_player_any_input(name, options):
    try:
        p = make_player(name, **options)
    except CrownsError:
        return
    pos = Position.random(2)
    view = seat_view(pos, "second", reveal=getattr(p, "cheats", False))
    if getattr(p, "time_limit", None) is not None and p.node_limit is None:
        return   # a time-limited search may take its time: not run here
    if getattr(p, "node_limit", None) is not None and p.node_limit > 20_000:
        p.node_limit = 20_000
    assert p.choose(view, np.random.default_rng(0)) in pos.legal_moves()


@given(cell=st.one_of(st.integers(-3, 40), st.tuples(st.integers(-1, 7), st.integers(-1, 7)), st.text(max_size=3)))
def test_card_at_any_input(cell):
    pos = random_position(8, 20)
    view = seat_view(pos, pos.to_move)
    try:
        got = view.card_at(cell)
    except HiddenCardError:
        assert cell_index(cell) in pos.face_down
        return
    except PositionError:
        return
    i = cell_index(cell)
    assert got == (None if i in pos.taken else pos.grid[i])


@given(node_limit=_option_values, time_limit=_option_values, seat=st.one_of(st.sampled_from(["first", "second"]),
                                                                           st.text(max_size=6), st.integers()))
def test_evaluate_moves_and_seat_view_any_input(node_limit, time_limit, seat):
    pos = random_position(12, 9)
    try:
        view = seat_view(pos, seat)
    except PositionError:
        assert seat not in ("first", "second")
    else:
        assert view.seat == seat and view.legal_moves() == pos.legal_moves()
    try:
        est = evaluate_moves(pos, node_limit=node_limit, time_limit=time_limit, tt_mb=1)
    except CrownsError:
        return
    assert sorted(e.cell for e in est) == pos.legal_moves()


# reached in a match (search "win" vs search "margin", 20,000 nodes): there solve() stops
# at the node limit with the win proven (exact, value 1) but lists no best move
PROVEN_WITHOUT_MOVE = (
    '{"grid": [null, null, null, "AS", null, null, "AD", null, null, null, "??", "3S", "AC", null, "??", null,'
    ' "6H", "6S", null, "8D", null, null, "7C", null, null, null, null, null, "??", "3D", "??", "5S", "8H",'
    ' null, "5C", "??"], "marker": 9, "to_move": "second", "first_hand": ["2C", "3C", "2D", "2S", "5D", "6C",'
    ' "2H", "8C", "3H", "AH"], "second_hand": ["7S", "4C", "4H", "KC", "6D", "KS", "4S", "KD", "4D"],'
    ' "reach": "any", "face_down": [10, 14, 28, 30, 35], "start": 14, "history": [8, 7, 13, 25, 24, 26, 2, 4,'
    ' 0, 1, 5, 23, 18, 20, 21, 33, 27, 15, 9]}'
)


def test_search_player_moves_when_the_solver_proves_a_value_without_a_move():
    pos = Position.from_text(PROVEN_WITHOUT_MOVE)
    p = make_player("search", node_limit=20_000, objective="win")
    got = p.choose(seat_view(pos, pos.to_move), np.random.default_rng(0))
    # the move must win for sure: its exact game value under objective "win" is 1
    from crowns_solver.cross_kings import solve

    full = solve(pos, mode="game", objective="win", all_moves=True)
    assert full.exact and full.move_values[got] == 1


def test_search_start_cell_ties_are_drawn_with_the_generator():
    from crowns_solver.cross_kings import solve

    for seed in range(6):
        pos = Position.random(seed)
        sol = solve(pos, mode="game", node_limit=50_000, tt_mb=16)
        best = max(m.value for m in sol.moves)
        tied = {m.cell for m in sol.moves if m.value == best}
        p = make_player("search", node_limit=50_000)
        picks = {p.choose(seat_view(pos, "second"), np.random.default_rng(k)) for k in range(12)}
        assert picks <= tied
        if len(tied) > 1:
            assert len(picks) > 1   # 12 draws among >= 2 tied cells: all alike has chance <= 2**-11


def test_evaluate_moves_never_passes_a_bound_off_as_an_estimate():
    """With no budget the search estimates nothing: every value is None (only bounds are
    known), not the upper bound (up to +92 at a fresh deal), which would read as a great move."""
    from crowns_solver.cross_kings import Position
    from crowns_solver.cross_kings.players import evaluate_moves

    pos = Position.random(5)
    moves = evaluate_moves(pos, node_limit=1)
    assert sorted(m.cell for m in moves) == sorted(pos.legal_moves())
    assert all(m.value is None and not m.exact for m in moves)
    assert all(m.lower is not None and m.upper is not None and m.lower <= m.upper for m in moves)


def test_solver_names_a_proven_move_under_a_node_limit():
    """The solver proved the value (1, a sure win) within 20,000 nodes through a move whose
    bounds met; that move is exact, carries its value and is named best."""
    from crowns_solver.cross_kings import solve

    pos = Position.from_text(PROVEN_WITHOUT_MOVE)
    sol = solve(pos, mode="game", objective="win", node_limit=20_000)
    assert sol.exact and sol.value == 1 and len(sol.best_moves) == 1
    assert all(m.value == m.lower == m.upper for m in sol.moves if m.exact)
    full = solve(pos, mode="game", objective="win", all_moves=True)
    assert full.move_values[sol.best_move] == 1


def test_search_player_passes_ctrl_c_on_instead_of_playing_the_partial_result(monkeypatch):
    # solve() turns Ctrl-C into a partial result; a player inside a match or a game must
    # stop the whole job, not play on (a match with one worker used to ignore Ctrl-C)
    from crowns_solver.cross_kings import solver

    real = solver.solve

    def interrupted(*args, **kwargs):
        sol = real(*args, **kwargs)
        return type(sol)(**{**sol.__dict__, "stopped": "interrupted"})

    monkeypatch.setattr(solver, "solve", interrupted)
    pos = random_position(5, 18)
    view = seat_view(pos, pos.to_move)
    with pytest.raises(KeyboardInterrupt):
        make_player("search", node_limit=2_000).choose(view, np.random.default_rng(0))
    monkeypatch.setattr(solver, "solve", real)
    assert make_player("search", node_limit=2_000).choose(view, np.random.default_rng(0)) in pos.legal_moves()
