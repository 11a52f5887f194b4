"""Hypothesis tests at the compiled entry points, called directly, and at the parsers.

The project's rule: the compiled core never crashes the interpreter, and bad input is a
CrownsError naming the item.  The compiled modules (``ext/*.pyx``) are private: a direct
call with a bad argument may raise a plain ValueError, TypeError or OverflowError (the
public wrappers turn bad input into a CrownsError before calling in), but never crash,
hang or answer wrongly.  Each test says which kind of entry point it covers:

- *self-validating*: the compiled function checks its own arguments, so random
  arguments raise (never crash) and accepted ones give the right answer;
- *reached only through validated Python*: the function trusts its caller, which
  validates first; the test checks the wrapper refuses what the function could not take.

Compiled entry points (every ``def`` reachable from Python) and their Python callers:

- ``_ck_score``: score_mask, eval_placement, best_placement, score_masks, table_sizes
  (cross_kings.scoring): self-validating.
- ``_ck_search``: score_interval, table_layout, monotonic, SharedTable (and its _slot,
  _set_slot, entries_used), Engine (moves, child, is_chance, pool_cards, terminal_value,
  bounds, tt_move, tt_bounds, heuristic, scale, search, search_move, set_limits...)
  (cross_kings.solver, .parallel, .players, .review, .match): self-validating (every
  state is checked by Engine._load); a table budget near 2**63 bytes hung the sizing
  loop, and budgets above 2**48 are now refused; search windows outside -2**61..2**61 or
  not alpha < beta, and negative depths that wrapped around, are handled since session 21
  (test_robustness_audit21).
- ``_fc_melds``: deadwood_codes, is_zero_codes, can_go_out_codes, arrange, outlook,
  discard_table, check_rows, deadwood_rows, can_go_out_rows, time_rows, table_bytes,
  build_seconds (five_crowns.melds, .advisor, .players): self-validating; the batch forms
  did not check card codes (a code of 100..127 crashed the interpreter) and now do;
  outlook and discard_table (and _fc_game's discard_outcomes and two_step) took negative
  and huge unseen-card weights, and now refuse them (session 20); time_rows now stops at
  Ctrl-C (session 21, test_robustness_audit21).
- ``_fc_game``: integers_like_numpy, discard_outcomes, two_step (self-validating),
  play_round (five_crowns.game._CompiledEngine validates; three card sets crashed the
  interpreter, and it now checks sets, codes and policy codes itself); anything but a
  numpy Generator (TypeError) and a count above 2**20 are refused since session 21.
- ``_kc_engine``: Engine (draw, play, builtin, view, state, set_state), legal_plays_view,
  choose, lookahead_table, play_games, game_stream (kings_crowns.game, .policies,
  .simulation): self-validating; deck counts and a view's counts and sizes were summed
  in C ints without bounds, so counts near 2**31 wrapped around (a crash, reachable from
  a SeatView edited by hand); each is now bounded first, and refused with a DeckError or
  PositionError naming it (session 20).  Since session 21 (test_robustness_audit21)
  builtin stops at Ctrl-C as choose does, game_stream gives at most 2**20 words, and
  anything but a numpy Generator as `gen` is a TypeError.

The parsers (cards, hands, cells, save strings, deals, positions, decks, rules, records,
keeper files, results files, command-line options) have Hypothesis tests in their own
files (test_*_cards, test_cross_kings_position*, test_kings_crowns_inputs,
test_five_crowns_keeper, test_results_files_probe17, test_long_numbers_in_files,
test_cli_option_names...); the tests at the end of this file add random values of every
type to each parser at once, and random one-field damage to each document a reader takes;
test_robustness_audit21 writes random bytes to a file for each file reader.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys

import numpy as np
import pytest
from ck_reference import brute_force_score
from fc_reference import ALL_CARDS, brute_force_deadwood
from hypothesis import HealthCheck, given, settings
from test_text_options24 import WORD_OPTIONS
from hypothesis import strategies as st

import crowns_solver.cross_kings as ck
import crowns_solver.five_crowns as fc
import crowns_solver.kings_crowns as kc
from crowns_solver import _ck_score, _ck_search, _fc_game, _fc_melds, _kc_engine
from crowns_solver.errors import CrownsError, DeckError, PositionError
from crowns_solver.five_crowns.cards import card_name as fc_card_name

FAST = settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
#: what a private compiled function may raise for a bad argument (never a crash)
REFUSED = (ValueError, TypeError, OverflowError)

#: any Python or NumPy value a caller might pass by mistake
ATOMS = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.integers(-3, 60),
    st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=8), st.binary(max_size=4),
    st.sampled_from([np.int64(5), np.uint8(200), np.int8(-1), np.float64("nan"), np.bool_(True),
                     np.int64(2**62), "", "\x00", "\u0663", "\uff21S", "JK", "KS", "3H", "10R", "AS", "??"]),
)
GARBAGE = st.recursive(
    ATOMS, lambda c: st.one_of(st.lists(c, max_size=5), st.tuples(c, c), st.dictionaries(st.text(max_size=4), c, max_size=3)),
    max_leaves=8,
)


def refused_or(f, *args):
    """f(*args), or None if it refused them with one of REFUSED."""
    try:
        return f(*args)
    except REFUSED:
        return None


def run_in_child(code: str) -> subprocess.CompletedProcess:
    """Run `code` in a fresh interpreter, so that a crash fails the test instead of pytest."""
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd="/", timeout=120)


# --------------------------------------------------------------------------- _ck_score

CK_NAMES = list(ck.DECK)


def _ck_cards(nat: int, kings: int) -> list[str]:
    return [CK_NAMES[8 * (i // 8) + i % 8] for i in range(32) if nat >> i & 1] + CK_NAMES[32 : 32 + kings]


@FAST
@given(st.integers(-(2**40), 2**40), st.integers(-(2**40), 2**40))
def test_ck_score_refuses_or_answers_for_any_integers(nat, kings):
    """Self-validating: a mask outside 32 bits or a King count outside 0..4 is refused;
    what is accepted scores as the placement it reports, within the scorer's interval."""
    s = refused_or(_ck_score.score_mask, nat, kings)
    b = refused_or(_ck_score.best_placement, nat, kings)
    assert (s is None) == (b is None) == (not (0 <= nat < 2**32 and 0 <= kings <= 4))
    if s is None:
        return
    score, placed = b
    assert score == s and placed & nat == 0 and bin(placed).count("1") <= kings
    assert _ck_score.eval_placement(nat, placed) == s
    if kings >= 2:
        lo, hi = _ck_search.score_interval(nat, kings)
        assert lo <= s <= hi


@FAST
@given(st.sets(st.integers(0, 31), max_size=9), st.integers(0, 4))
def test_ck_score_mask_matches_the_brute_force_scorer(cells, kings):
    """Self-validating entry, valid-but-extreme inputs (empty hands, four Kings)."""
    nat = sum(1 << i for i in cells)
    assert _ck_score.score_mask(nat, kings) == brute_force_score(_ck_cards(nat, kings))


def test_ck_score_every_card_and_empty_hand():
    """Extremes: no card, every natural card, every card (32 naturals and four Kings)."""
    assert _ck_score.score_mask(0, 0) == 0 == brute_force_score([])
    full = 2**32 - 1
    every = _ck_score.score_mask(full, 0)
    assert every == brute_force_score(CK_NAMES[:32])
    assert _ck_score.score_mask(full, 4) == every  # a King stands for a card not held: none left
    assert _ck_score.best_placement(full, 4) == (every, 0)


@FAST
@given(st.lists(st.tuples(st.integers(0, 2**32 - 1), st.integers(0, 255)), max_size=12), st.integers(0, 14))
def test_ck_score_masks_batch_checks_lengths_and_king_counts(rows, n_out):
    """Self-validating batch form: mismatched lengths and King counts above 4 are refused."""
    nat = np.array([r[0] for r in rows], dtype=np.uint32)
    kings = np.array([r[1] for r in rows], dtype=np.uint8)
    out = np.full(n_out, -7, dtype=np.int32)
    done = refused_or(_ck_score.score_masks, nat, kings, out)
    ok = n_out == len(rows) and all(k <= 4 for _, k in rows)
    if not ok:
        with pytest.raises(ValueError):
            _ck_score.score_masks(nat, kings, out)
        return
    assert done is None  # returns None, out filled
    assert list(out) == [_ck_score.score_mask(int(a), int(k)) for a, k in rows]


# --------------------------------------------------------------------------- _ck_search

@FAST
@given(st.integers(-(2**63), 2**63 - 1))
def test_ck_table_layout_refuses_small_budgets_and_stays_within_large_ones(tt_bytes):
    """Self-validating: below 64 KB or above 2**48 bytes is refused (near 2**63 its sizing
    loop never ended); from the 64 KB minimum the main table, small table and leaf-score
    cache together fit the budget (65,536 to 65,599 bytes were 64 bytes over it), and the
    table has at least a quarter of it."""
    layout = refused_or(_ck_search.table_layout, tt_bytes)
    assert (layout is None) == (not 65536 <= tt_bytes <= 2**48)
    if layout is not None:
        assert sum(layout.values()) <= tt_bytes
        assert layout["table"] >= tt_bytes // 4  # and most of it is the table


def test_ck_table_layout_fits_every_budget_near_the_minimum():
    """The failing examples, and every budget up to 1 MB (the least solve() gives an
    engine; a worker's share or the parent's bookkeeping engine can be less): the layout
    never exceeds the budget, and the table never shrinks as the budget grows."""
    assert _ck_search.table_layout(65536) == {"table": 32768, "small_table": 0, "score_cache": 32768}
    assert sum(_ck_search.table_layout(65599).values()) <= 65599
    last = 0
    for tt_bytes in range(65536, (1 << 20) + 1):
        layout = _ck_search.table_layout(tt_bytes)
        assert sum(layout.values()) <= tt_bytes, (tt_bytes, layout)
        assert layout["table"] >= last, tt_bytes
        last = layout["table"]


@pytest.mark.parametrize("make", ["table_layout({})", "SharedTable({})", "Engine(bytes(range(36)), 0, 0, 0, {})"])
@pytest.mark.parametrize("tt_bytes", [2**63 - 1, 2**62 + 2**61, 2**48 + 1])
def test_ck_huge_table_budget_is_refused_not_a_hang(make, tt_bytes):
    """The failing example: a budget near 2**63 bytes made the table sizing loop wrap
    around and spin forever (Ctrl-C could not stop it); only direct calls reach it
    (solve() takes at most 65,536 MB).  In a child process, so a hang fails the test."""
    r = run_in_child(
        "from crowns_solver._ck_search import Engine, SharedTable, table_layout\n"
        "try:\n"
        f"    {make.format(tt_bytes)}\n"
        "except ValueError as e:\n"
        "    print('refused:', e)\n"
    )
    assert r.returncode == 0, r.stderr[-500:]
    assert r.stdout.startswith("refused: the ") and f"at most {2**48} bytes, got {tt_bytes}" in r.stdout


@FAST
@given(st.integers(-(2**40), 1 << 22) | st.sampled_from([2**48 + 1, 2**63 - 1]), st.integers(-(2**65), 2**65))
def test_ck_shared_table_bounds_its_slots(table_bytes, slot):
    """Self-validating: a table under 64 KB or over 2**48 bytes is refused; a slot
    outside it is IndexError."""
    t = refused_or(_ck_search.SharedTable, table_bytes)
    assert (t is None) == (not 65536 <= table_bytes <= 2**48)
    if t is None:
        return
    inside = 0 <= slot < t.table_entries
    try:
        t._set_slot(slot, 0, 0)
        assert t._slot(slot) == (0, 0)
        assert inside
    except (IndexError, OverflowError):
        assert not inside


FACE_DOWN = [i for i in range(36) if i // 6 == i % 6 or i // 6 + i % 6 == 5]


def _walk(eng, perm, mode, first_side, draw, steps):
    """A state reached by `steps` legal moves from the fresh deal `perm` (random moves and
    revealed cards drawn by `draw`)."""
    fd = sum(1 << i for i in FACE_DOWN) if mode else 0
    pool = sum(1 << perm[i] for i in FACE_DOWN) if mode else 0
    s = (2**36 - 1, fd, pool, 0, 0, 0, 0, -1, first_side)
    for _ in range(steps):
        moves = eng.moves(s)
        if not moves:
            break
        cell = draw(st.sampled_from(moves))
        card = draw(st.sampled_from(eng.pool_cards(s))) if eng.is_chance(s, cell) else -1
        s = eng.child(s, cell, card)
    return s


def _engine(perm, mode, objective, reach):
    cards = bytearray(perm)
    if mode:
        for i in FACE_DOWN:
            cards[i] = 255
    return _ck_search.Engine(bytes(cards), mode, objective, reach, 1 << 16)


@FAST
@given(st.permutations(range(36)), st.integers(0, 1), st.integers(0, 1), st.integers(0, 1),
       st.integers(0, 40), st.integers(0, 8), st.integers(-2, 2**37), st.data())
def test_ck_engine_checks_every_state_it_is_given(perm, mode, objective, reach, steps, field, value, data):
    """Self-validating (Engine._load checks each state): a reachable state's search stays
    within its proven bounds; the same state with one field replaced by any integer is
    either another consistent state or refused, never a crash."""
    eng = _engine(perm, mode, objective, reach)
    s = _walk(eng, perm, mode, data.draw(st.integers(0, 1)), data.draw, steps)
    lo, hi = eng.bounds(s)
    assert lo <= hi
    for depth in (0, 2, 64, -5):
        eng.set_limits(0.0, eng.nodes + 20000)
        v, proven, _ = eng.search(s, depth, -_ck_search.INF_VALUE, _ck_search.INF_VALUE)
        if proven and not eng.stop:
            assert lo <= v <= hi
    bad = list(s)
    bad[field] = value
    eng.set_limits(0.0, eng.nodes + 5000)
    for call in (eng.moves, eng.heuristic, eng.bounds, eng.tt_bounds,
                 lambda t: eng.search(t, 3, -_ck_search.INF_VALUE, _ck_search.INF_VALUE)):
        refused_or(call, tuple(bad))
    refused_or(eng.child, tuple(bad), data.draw(st.integers(-3, 40)), data.draw(st.integers(-3, 40)))


@FAST
@given(st.binary(max_size=40), st.integers(-3, 3), st.integers(-3, 3), st.integers(-3, 3),
       st.integers(-(2**63), 2**20) | st.sampled_from([2**48 + 1, 2**63 - 1]))
def test_ck_engine_refuses_bad_construction(cards, mode, objective, reach, tt_bytes):
    """Self-validating: 36 card bytes (0..35 or 255), mode/objective/reach 0 or 1 and a
    table of 64 KB to 2**48 bytes, or ValueError."""
    ok = (len(cards) == 36 and all(b < 36 or b == 255 for b in cards) and {mode, objective, reach} <= {0, 1}
          and 65536 <= tt_bytes <= 2**48)
    eng = refused_or(_ck_search.Engine, cards, mode, objective, reach, tt_bytes)
    assert (eng is not None) == ok


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.permutations(range(36)), st.integers(0, 1), st.integers(0, 1), st.data())
def test_ck_engine_endgame_value_is_the_negamax_of_its_children(perm, objective, reach, data):
    """Valid-but-extreme input: an open endgame of at most 7 cards, solved to the end,
    equals the negamax of its children's exact values (a slow reference), and a finished
    position's value is its terminal value."""
    eng = _engine(perm, 0, objective, reach)
    s = _walk(eng, perm, 0, 1, data.draw, 36 - data.draw(st.integers(0, 7)))
    inf = _ck_search.INF_VALUE

    def exact(state):
        eng.set_limits(0.0, 0)
        v, proven, _ = eng.search(state, 64, -inf, inf)
        assert proven
        return v

    moves = eng.moves(s)
    if not moves:
        assert exact(s) == eng.terminal_value(s)
        return
    assert exact(s) == max(-exact(eng.child(s, c)) for c in moves)


# --------------------------------------------------------------------------- _fc_melds

@FAST
@given(st.lists(st.integers(0, 55), max_size=7), st.integers(3, 13), st.booleans())
def test_fc_deadwood_codes_match_the_brute_force_reference(codes, wild, all_wild):
    """Self-validating entry, valid input (any copies of any card, the empty hand)."""
    d = _fc_melds.deadwood_codes(codes, wild, all_wild)
    assert d == brute_force_deadwood([ALL_CARDS[c] for c in codes], wild, all_wild_melds=all_wild)
    assert _fc_melds.is_zero_codes(codes, wild, all_wild) == (d == 0)
    assert _fc_melds.arrange(codes, wild, all_wild)[0] == d


@FAST
@given(st.lists(st.one_of(st.integers(-(2**40), 2**40), st.integers(-2, 58), ATOMS), max_size=16),
       st.integers(-(2**40), 2**40), st.booleans())
def test_fc_meld_entry_points_refuse_bad_codes_and_wild_ranks(codes, wild, all_wild):
    """Self-validating: codes outside 0..55, non-integers, more than 14 cards or a wild
    rank outside 3..13 are refused; accepted hands agree with each other."""
    ok = (3 <= wild <= 13 and len(codes) <= 14
          and all(isinstance(c, (int, np.integer)) and not isinstance(c, (bool, np.bool_)) and 0 <= c <= 55
                  for c in codes))
    unseen = np.full(56, 2, dtype=np.int64)
    results = [refused_or(f, codes, wild, all_wild) for f in
               (_fc_melds.deadwood_codes, _fc_melds.arrange, _fc_melds.can_go_out_codes)]
    results.append(refused_or(_fc_melds.outlook, codes, wild, all_wild, unseen))
    if not ok:
        assert results[0] is None and results[1] is None
        return
    assert results[1][0] == results[0]
    n_out, total = results[3]
    assert 0 <= n_out <= int(unseen.sum()) and total >= 0


def test_fc_meld_entry_points_take_the_extremes():
    """Valid-but-extreme: 14 cards (the most), 14 copies of one card, 14 jokers, no card."""
    assert _fc_melds.deadwood_codes([], 3) == 0
    assert _fc_melds.deadwood_codes([55] * 14, 13) == 0  # all wild melds
    assert _fc_melds.deadwood_codes([55] * 14, 13, False) == 14 * 50
    assert _fc_melds.deadwood_codes([0] * 14, 13) == 0  # one book of 3s
    assert _fc_melds.deadwood_codes(list(range(11)) + [55, 55, 22], 13) == 0  # 3S..KS, two jokers, 3C
    assert _fc_melds.deadwood_codes(list(range(11)) + [55, 55, 22], 13, False) == 0
    with pytest.raises(ValueError, match="15 cards"):
        _fc_melds.deadwood_codes([0] * 15, 5)


@FAST
@given(st.integers(0, 4), st.integers(0, 20), st.data())
def test_fc_batch_entry_points_check_every_entry(m, w, data):
    """Self-validating batch forms (now: they trusted the codes, and 100..127 crashed):
    any int8 entry outside -1..55, a row wider than 14 or a bad wild rank is refused;
    accepted rows give what the one-hand entry point gives."""
    hands = np.array(data.draw(st.lists(st.lists(st.integers(-128, 127) | st.integers(-1, 55), min_size=w, max_size=w),
                                        min_size=m, max_size=m)), dtype=np.int8).reshape(m, w)
    wilds = np.array(data.draw(st.lists(st.integers(-128, 127) | st.integers(3, 13), min_size=m, max_size=m)),
                     dtype=np.int8)
    out = np.full(m, -7, dtype=np.int32)
    ok = (w <= 14 and bool(((hands >= -1) & (hands <= 55)).all()) and bool(((wilds >= 3) & (wilds <= 13)).all()))
    done = refused_or(lambda: _fc_melds.deadwood_rows(hands, wilds, True, out) or True)
    refused_or(lambda: _fc_melds.can_go_out_rows(hands, wilds, True, np.zeros(m, dtype=np.uint8)))
    assert (done is not None) == ok
    if ok:
        assert list(out) == [_fc_melds.deadwood_codes([int(c) for c in row if c >= 0], int(wl))
                             for row, wl in zip(hands, wilds)]


@pytest.mark.parametrize("entry", ["deadwood_rows", "can_go_out_rows", "time_rows"])
def test_fc_batch_entry_point_with_a_code_above_55_is_refused_not_a_crash(entry):
    """The failing example: a row of code 127 (a valid int8) overran the card counts and
    crashed the interpreter (segmentation fault) before the batch forms checked codes."""
    out = {"deadwood_rows": "np.zeros(2000, np.int32)", "can_go_out_rows": "np.zeros(2000, np.uint8)",
           "time_rows": "np.zeros(2000, np.float64)"}[entry]
    extra = "1, " if entry == "time_rows" else ""
    r = run_in_child(
        "import numpy as np\nfrom crowns_solver import _fc_melds as M\n"
        "h = np.full((2000, 14), 127, np.int8)\n"
        "try:\n"
        f"    M.{entry}(h, np.full(2000, 5, np.int8), True, {extra}{out})\n"
        "except ValueError as e:\n"
        "    print('refused:', e)\n"
    )
    assert r.returncode == 0, r.stderr[-500:]
    assert r.stdout.strip() == "refused: row 0: entry 127 is not a card code -1..55"


@FAST
@given(st.lists(st.integers(0, 55), min_size=1, max_size=14), st.integers(3, 13), st.booleans(),
       st.lists(st.integers(-(2**40), 2**40) | st.integers(0, 3), min_size=55, max_size=57), st.data())
def test_fc_advisor_entry_points_refuse_bad_unseen_counts_and_cards(codes, wild, all_wild, unseen, data):
    """Self-validating (outlook, discard_table, discard_outcomes, two_step): unseen
    counts other than 56 entries, a negative or huge count (they were accepted, and a
    negative one was read as 0 by some sums and not by others), a card not in the hand
    or a row other than 56 entries are refused."""
    u = np.array(unseen, dtype=np.int64)
    rows = refused_or(_fc_game.discard_outcomes, codes, wild, all_wild, u)
    table = refused_or(_fc_melds.discard_table, codes, wild, all_wild, u)
    out = refused_or(_fc_melds.outlook, codes, wild, all_wild, u)
    ok = len(unseen) == 56 and all(0 <= x <= 2**20 for x in unseen)
    assert (rows is None) == (table is None) == (out is None) == (not ok)
    if rows is None:
        return
    cards, kept, _ = rows
    assert cards == sorted(set(codes)) == [t[0] for t in table]
    assert kept == [t[1] for t in table]
    assert kept == [_fc_melds.deadwood_codes([x for j, x in enumerate(codes) if j != codes.index(c)], wild, all_wild)
                    for c in cards]
    card = data.draw(st.integers(-3, 60))
    row = data.draw(st.lists(st.integers(-(2**15), 2**15 - 1), min_size=55, max_size=57))
    refused_or(_fc_game.two_step, codes, card, wild, all_wild, u, row, data.draw(st.integers(-(2**31), 2**31 - 1)))


@pytest.mark.parametrize("weight", [-1, -(2**40), 2**20 + 1, 2**62])
@pytest.mark.parametrize("entry", ["outlook", "discard_table", "discard_outcomes", "two_step"])
def test_fc_negative_or_huge_unseen_weight_is_refused_naming_it(entry, weight):
    """The failing examples: unseen-card weights are copies of each card code (at most
    12); a negative one was accepted (outlook, discard_table and discard_outcomes skipped
    it as 0, two_step counted it in its total) and a huge one overflowed the weighted
    sums.  Each entry point now refuses it, naming the code, its card and the value."""
    u = np.full(56, 2, dtype=np.int64)
    u[17] = weight
    hand = [0, 1, 2, 17, 30]
    call = {
        "outlook": lambda: _fc_melds.outlook(hand[:4], 5, True, u),
        "discard_table": lambda: _fc_melds.discard_table(hand, 5, True, u),
        "discard_outcomes": lambda: _fc_game.discard_outcomes(hand, 5, True, u),
        "two_step": lambda: _fc_game.two_step(hand, 30, 5, True, u, [0] * 56, 0),
    }[entry]
    with pytest.raises(ValueError) as info:
        call()
    assert str(info.value) == f"unseen[17] (card {fc_card_name(17)}) is {weight}: a draw weight is a number of copies 0..1048576"


def test_fc_unseen_weights_at_the_bound_are_counted_exactly():
    """Valid-but-extreme: 2**20 copies of every card; each one-draw weighted sum is the
    weights times what the same question gives with one copy of each card, and the
    two-draw sums stay within their bounds (no overflow)."""
    hand = [0, 1, 2, 17, 30]
    one = np.ones(56, dtype=np.int64)
    big = np.full(56, 2**20, dtype=np.int64)
    assert _fc_melds.outlook(hand[:4], 5, True, big) == tuple(2**20 * x for x in _fc_melds.outlook(hand[:4], 5, True, one))
    assert _fc_melds.discard_table(hand, 5, True, big) == [
        (c, k, 2**20 * n, 2**20 * t) for c, k, n, t in _fc_melds.discard_table(hand, 5, True, one)]
    cards, kept, rows = _fc_game.discard_outcomes(hand, 5, True, one)
    i = cards.index(30)
    e2, s2 = _fc_game.two_step(hand, 30, 5, True, big, rows[i], kept[i])
    pairs = 56 * 2**20 * (56 * 2**20 - 1)
    assert 0 < s2 <= pairs and 0 < e2 <= pairs * max(max(row) for row in rows)


# --------------------------------------------------------------------------- _fc_game

NAMES = [fc_card_name(c) for c in range(56)]


def _deck(sets, seed):
    deck = ([c for c in range(55) for _ in range(2)] + [55] * 6) * sets
    np.random.default_rng(seed).shuffle(deck)
    return deck


def test_fc_play_round_with_three_card_sets_is_refused_not_a_crash():
    """The failing example: play_round (reached only through game._CompiledEngine, whose
    GameRules allow 1 or 2 sets) wrote three sets' cards past its 232-card draw pile and
    crashed the interpreter (segmentation fault) when called directly."""
    r = run_in_child(
        "import numpy as np\nfrom crowns_solver import _fc_game as G\n"
        "from crowns_solver.five_crowns.cards import card_name\n"
        "deck = ([c for c in range(55) for _ in range(2)] + [55] * 6) * 3\n"
        "try:\n"
        "    G.play_round(deck, [0, 1], 3, [0, 0], [[], []], [np.random.default_rng(i) for i in (0, 1)],\n"
        "                 list, 50, True, 3, [card_name(c) for c in range(56)])\n"
        "except ValueError as e:\n"
        "    print('refused:', e)\n"
    )
    assert r.returncode == 0, r.stderr[-500:]
    assert r.stdout.strip() == "refused: play_round: 3 card sets; the table holds 1 to 2"


@FAST
@given(st.integers(1, 2) | st.integers(-2, 4), st.integers(0, 3), st.none() | st.integers(-3, 300),
       st.none() | st.integers(-3, 6), st.integers(0, 3), st.integers(0, 2**31), st.booleans())
def test_fc_play_round_checks_its_table(sets, players, bad_code, bad_kind, cards_less, seed, reshuffle_bad):
    """play_round now validates its own table (it is reached only through
    game._CompiledEngine, which validates too): card sets, deck codes, policy codes and
    the reshuffle callback's codes; a good table plays a round whose record is consistent."""
    P = players + 2
    n = 13 - cards_less
    deck = _deck(sets, seed) if 1 <= sets <= 2 else [c % 56 for c in range(116 * max(sets, 0))]
    kinds = [seed % 4] * P
    if bad_code is not None:
        deck = list(deck)
        if deck:
            deck[seed % len(deck)] = bad_code
    if bad_kind is not None:
        kinds[0] = bad_kind
    gens = [np.random.default_rng([seed, i]) for i in range(P)]

    def reshuffle(rest):
        return [999] * len(rest) if reshuffle_bad else list(rest)

    ok_table = 1 <= sets <= 2 and all(0 <= c <= 55 for c in deck) and all(0 <= k <= 3 for k in kinds)
    try:
        turns, out, scores, hands, _ = _fc_game.play_round(deck, list(range(P)), n, kinds, [[]] * P, gens, reshuffle,
                                                           400, True, max(sets, 0), NAMES)
    except ValueError:
        assert not ok_table or reshuffle_bad  # a bad table, or the callback's bad codes
        return
    assert ok_table
    assert len(hands) == P and all(len(h) == n for h in hands.values())
    assert {s for s, _ in scores} == set(range(P)) and (out is None or dict(scores)[out] == 0)
    for s, pts in scores:
        assert pts == _fc_melds.deadwood_codes(hands[s], n)


@FAST
@given(st.integers(-(2**40), 2**40), st.integers(-3, 40), st.integers(0, 2**32))
def test_fc_integers_like_numpy_refuses_bad_bounds_and_matches_numpy(k, count, seed):
    """Self-validating: k outside 1..2**32-1 is refused; else the draws are numpy's."""
    got = refused_or(_fc_game.integers_like_numpy, np.random.default_rng(seed), k, count)
    assert (got is None) == (not 1 <= k < 2**32)
    if got is not None:
        assert got == list(np.random.default_rng(seed).integers(k, size=max(count, 0)))


# --------------------------------------------------------------------------- _kc_engine

def _kc_views():
    out = []
    for seed in range(6):
        g = kc.Game(2 + seed % 4, seed=seed)
        for _ in range(seed * 7):
            if g.ended:
                break
            g.play_turn([kc.get_policy("greedy")] * (2 + seed % 4))
        if not g.ended:
            out.append(g.view().to_native())
    return out


KC_VIEWS = _kc_views()
KC_VALUES = st.one_of(st.integers(-3, 30), st.integers(-(2**31), 2**31 - 1), st.sampled_from([2**31 - 1, -(2**31)]))


@FAST
@given(st.integers(0, len(KC_VIEWS) - 1), st.data())
def test_kc_view_entry_points_refuse_or_answer_any_damaged_view(i, data):
    """Self-validating (fill_view checks every view field): a real view with up to four
    fields replaced by any 32-bit integer is refused or answered, never a crash; an answer
    of legal_plays_view is a play of a card in hand."""
    d, seat_counts, deck = KC_VIEWS[i]
    d = {k: (list(v) if isinstance(v, list) else v) for k, v in d.items()}
    seat_counts, deck = seat_counts.copy(), deck.copy()
    for _ in range(data.draw(st.integers(1, 4))):
        key = data.draw(st.sampled_from([*sorted(d), "seat_counts", "deck"]))
        if key == "seat_counts":
            seat_counts[data.draw(st.integers(0, len(seat_counts) - 1))] = data.draw(KC_VALUES)
        elif key == "deck":
            deck[data.draw(st.integers(0, len(deck) - 1))] = data.draw(st.integers(-2, 300))
        elif isinstance(d[key], list):
            if d[key]:
                d[key][data.draw(st.integers(0, len(d[key]) - 1))] = data.draw(KC_VALUES)
        else:
            d[key] = data.draw(KC_VALUES)
    la = data.draw(st.tuples(st.integers(0, 6), st.integers(0, 5), st.integers(-1, 4)))
    plays = refused_or(_kc_engine.legal_plays_view, d, seat_counts, deck)
    for a in plays or ():
        assert d["hand"][a >> 4] > 0
    for pol in range(-1, 6):
        try:
            _kc_engine.choose(pol, d, seat_counts, deck, np.random.default_rng(0), la)
        except (*REFUSED, KeyError):
            pass
    refused_or(_kc_engine.lookahead_table, d, seat_counts, deck, np.random.default_rng(0), la)


@FAST
@given(st.lists(st.integers(-1, 60), min_size=27, max_size=29), st.integers(0, 7), st.integers(-1, 50),
       st.integers(-1, 300), st.data())
def test_kc_engine_refuses_bad_decks_and_plays_only_legal_moves(counts, players, target, max_turns, data):
    """Self-validating: a deck of other than 28 kinds, a negative count, too few cards for
    the players or a target / turn cap below 1 is refused; a game then accepts exactly
    the legal draws and plays and keeps the deck's cards."""
    deck = np.array(counts, dtype=np.int32)
    eng = refused_or(_kc_engine.Engine, deck, players, target, max_turns, np.random.default_rng(1))
    ok = (len(counts) == 28 and min(counts) >= 0 and 2 <= players <= 5 and sum(counts) >= 6 * players + 1
          and sum(counts) <= _kc_engine.MAX_DECK_CARDS and target >= 1 and max_turns >= 1)
    assert (eng is not None) == ok
    if eng is None:
        return
    for _ in range(60):
        if eng.ended or eng.phase > 1:
            break
        legal = eng.legal_draws() if eng.phase == 0 else eng.legal_plays()
        wrong = data.draw(st.integers(-5, 600))
        if wrong not in legal:
            with pytest.raises(ValueError):
                (eng.draw if eng.phase == 0 else eng.play)(wrong)
        if not legal:
            break
        (eng.draw if eng.phase == 0 else eng.play)(data.draw(st.sampled_from(legal)))
    refused_or(eng.builtin, data.draw(st.integers(-2, 6)), data.draw(st.tuples(st.integers(0, 5), st.integers(0, 5),
                                                                              st.integers(-1, 5))))
    state = eng.state()
    held = [c for h in state["hands"] for c in h] + state["draw_pile"] + state["discard_pile"]
    for key in ("play_stacks", "gift_stacks", "crown_stacks"):
        held += [c for stack in state[key] for c in stack]
    assert np.bincount(held, minlength=28).tolist() == counts[:28]


#: counts near 2**31: two of them summed in a C int wrap around to a small number
KC_HUGE = st.sampled_from([2**31 - 1, 2**31 - 2, 2**30 + 7, 10_001])


@FAST
@given(st.lists(st.integers(0, 60), min_size=28, max_size=28), st.lists(st.tuples(st.integers(0, 27), KC_HUGE),
       min_size=1, max_size=3), st.integers(2, 5))
def test_kc_engine_refuses_deck_counts_whose_sum_would_wrap(counts, huge, players):
    """Self-validating, huge counts: a count above MAX_DECK_CARDS is a DeckError naming
    it, however the counts add up (two counts near 2**31 summed to a small deck whose
    piles were then overrun: a crash, see the example below)."""
    for kind, value in huge:
        counts[kind] = value
    deck = np.array(counts, dtype=np.int32)
    for make in (lambda: _kc_engine.Engine(deck, players, 10, 100, np.random.default_rng(1)),
                 lambda: _kc_engine.play_games(1, deck, players, 10, 100, np.zeros((1, players), np.int8),
                                               np.random.default_rng(1), (4, 3, 1), np.zeros(1, np.int8),
                                               np.zeros(1, np.int32), np.zeros((1, players), np.int16),
                                               np.zeros(1, np.int32))):
        with pytest.raises(DeckError) as info:
            make()
        kind = next(k for k, c in enumerate(counts) if c > _kc_engine.MAX_DECK_CARDS)
        assert str(info.value) == f"deck_counts[{kind}] must be 0..10000, got {counts[kind]}"


@FAST
@given(st.integers(0, len(KC_VIEWS) - 1), st.sampled_from(["hand", "play_n", "score", "discard_size", "draw_size",
                                                           "target", "max_turns", "seat_counts"]),
       st.integers(0, 27), KC_HUGE | st.integers(2**31, 2**70) | st.integers(-(2**40), -1))
def test_kc_view_counts_are_bounded_before_they_are_added(i, field, index, value):
    """Self-validating, huge counts and sizes in a view dict: refused with a
    PositionError naming the field and the value.  Summed in a C int they wrapped around
    (hand counts of 2**31 - 1 made a hand of -2 cards, accepted; two pile sizes near 2**31
    made the lookahead player overrun its piles: a crash)."""
    d, seat_counts, deck = KC_VIEWS[i]
    d = {k: (list(v) if isinstance(v, list) else v) for k, v in d.items()}
    seat_counts = seat_counts.copy()
    if field == "seat_counts":
        value = min(value, 2**31 - 1) if value > 0 else max(value, -(2**31))
        seat_counts[index] = value
        name = f"seat_counts[{index}]"
    elif isinstance(d[field], list):
        index %= len(d[field])
        d[field][index] = value
        d[field][(index + 1) % len(d[field])] = 2**31 - 1   # a second huge count, so the sum wraps
        name = f"{field}["   # the first of the two, in order
    else:
        if field in ("target", "max_turns") and 0 <= value <= 10**6:
            value += 10**6   # at most 10**6, as Rules allows
        d[field] = value
        name = field
        if field in ("discard_size", "draw_size"):
            d["discard_size" if field == "draw_size" else "draw_size"] = 2**31 - 1
            if d["discard_top"] == -1:
                d["discard_top"] = 0
            name = "discard_size"  # checked first
    for call in (lambda: _kc_engine.legal_plays_view(d, seat_counts, deck),
                 lambda: _kc_engine.choose(4, d, seat_counts, deck, np.random.default_rng(0), (2, 2, 1)),
                 lambda: _kc_engine.lookahead_table(d, seat_counts, deck, np.random.default_rng(0), (2, 2, 1))):
        with pytest.raises(PositionError) as info:
            call()
        message = str(info.value)
        assert message.startswith(f"a view's {name}") and " must be " in message, message
        assert int(message.rsplit(" ", 1)[1]) in (value, 2**31 - 1) or value > 2**63, message


@pytest.mark.parametrize("probe", ["deck", "view", "seat_view"])
def test_kc_counts_that_wrapped_around_are_refused_not_a_crash(probe):
    """The failing examples, in a child process (the old code crashed the interpreter):
    deck counts 10, 2**31 - 1, 2**31 - 1, 20 summed to 8 cards (Engine overran its piles);
    hand counts of 2**31 - 1 summed to a hand of -4 cards (accepted, and answered);
    a SeatView edited by hand, with both pile sizes 2**31 - 1 and four opponents of six
    cards, passed the compiled check (the sizes summed to the 21 unseen cards) and the
    public lookahead player overran its piles."""
    code = {
        "deck": (
            "d = np.zeros(28, np.int32); d[0] = 10; d[1] = d[2] = 2**31 - 1; d[3] = 20\n"
            "_kc_engine.Engine(d, 2, 10, 100, np.random.default_rng(0))\n"),
        "view": (
            "g = kc.Game(3, seed=2)\n"
            "d, sc, deck = g.view().to_native()\n"
            "d['hand'] = [2**31 - 1] * 4 + [0] * 24\n"
            "print(_kc_engine.legal_plays_view(d, sc, deck))\n"),
        "seat_view": (
            "import dataclasses\n"
            "from crowns_solver.kings_crowns.cards import CARD_NAMES\n"
            "v = kc.Game(5, seed=3).view()\n"
            "rest = list(v.deck.counts)\n"
            "for c in [*v.hand, 'salvation']:\n"
            "    rest[kc.parse_card(c)] -= 1\n"
            "stack = [CARD_NAMES[k] for k in range(28) for _ in range(rest[k])][21:]\n"
            "bad = dataclasses.replace(v, play_stacks=(tuple(stack), (), (), (), ()), hand_sizes=(6, 6, 6, 6, 6),\n"
            "                          discard_top='salvation', discard_size=2**31 - 1, draw_size=2**31 - 1)\n"
            "kc.get_policy('lookahead:samples=2,horizon=2').choose_draw(bad, np.random.default_rng(0))\n"),
    }[probe]
    r = run_in_child(
        "import numpy as np\n"
        "import crowns_solver.kings_crowns as kc\n"
        "from crowns_solver import _kc_engine\n"
        "from crowns_solver.errors import CrownsError\n"
        "try:\n"
        + "".join("    " + line + "\n" for line in code.splitlines())
        + "except CrownsError as e:\n"
        "    print(type(e).__name__, e)\n"
    )
    assert r.returncode == 0, r.stderr[-500:]
    assert r.stdout == {
        "deck": "DeckError deck_counts[1] must be 0..10000, got 2147483647\n",
        "view": "PositionError a view's hand[0] must be 0..7, got 2147483647\n",
        "seat_view": "PositionError a view's discard_size must be 0..10000, got 2147483647\n",
    }[probe]


@FAST
@given(st.lists(st.integers(0, 2**32 - 1), max_size=12), st.integers(0, 2**64 - 1), st.integers(-3, 20))
def test_kc_game_stream_bounds_its_seed_words(root, game, n):
    """Self-validating: more than MAX_SEED_WORDS root words are refused; else the stream
    is numpy's PCG64 on SeedSequence([*root, game])."""
    got = refused_or(_kc_engine.game_stream, np.array(root, dtype=np.uint32), game, n)
    assert (got is None) == (len(root) > _kc_engine.MAX_SEED_WORDS)
    if got is not None:
        raw = np.random.PCG64(np.random.SeedSequence([*root, game])).random_raw((max(n, 0) + 1) // 2)
        assert got == [w for v in raw.tolist() for w in (v & 0xFFFFFFFF, v >> 32)][: max(n, 0)]


@FAST
@given(st.integers(-2, 4), st.integers(1, 5), st.integers(1, 5), st.integers(-2, 6), st.booleans())
def test_kc_play_games_checks_its_arrays(n_games, players, rows, policy, short_out):
    """Self-validating: output arrays shorter than the games, a seat-policy table of the
    wrong width or an unknown player id are refused."""
    deck = np.asarray(kc.default_deck().counts, dtype=np.int32)
    pol = np.full((rows, players), policy, dtype=np.int8)
    m = max(n_games - 1, 0) if short_out else max(n_games, 0)
    args = (np.zeros(m, np.int8), np.zeros(m, np.int32), np.zeros((m, players), np.int16), np.zeros(m, np.int32))
    got = refused_or(_kc_engine.play_games, n_games, deck, players, 20, 300, pol, np.random.default_rng(0),
                     (4, 3, 1), *args)
    ok = (n_games >= 0 and 2 <= players and rows >= n_games and not (short_out and n_games > 0)
          and (n_games == 0 or 0 <= policy < len(_kc_engine.POLICY_IDS)))
    assert (got is not None) == ok


# --------------------------------------------------------------------------- parsers

PARSERS = [
    ck.parse_card, ck.parse_cards, ck.score_hand, ck.explain_hand, ck.cell_index, ck.card_name,
    ck.Position.from_save_string, ck.Position.from_text, ck.Position.from_dict, ck.Deal.from_text, ck.Rules,
    fc.parse_card, fc.parse_hand, fc.card_name, fc.wild_rank_for_round, fc.get_policy, fc.Rules, fc.GameRules,
    fc.ScoreKeeper, fc.ScoreKeeper.from_dict, fc.replay,
    kc.parse_card, kc.card_name, kc.crown_value, kc.kind_of, kc.get_policy, kc.Rules, kc.Rules.from_dict,
    kc.Deck.from_mapping,
]


@settings(max_examples=80, deadline=None, suppress_health_check=list(HealthCheck))
@given(GARBAGE)
def test_every_parser_refuses_any_value_with_a_crowns_error(value):
    """Public parsers: any value of any type (NumPy scalars, huge ints, NaN, unicode,
    bytes, nested containers) is accepted or refused with a CrownsError, nothing else."""
    for parse in PARSERS:
        try:
            parse(value)
        except CrownsError as exc:
            assert str(exc)
        except FileNotFoundError:
            assert parse is fc.replay  # a str naming a file that does not exist: an OSError
        except OSError:
            assert parse is fc.replay


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(GARBAGE, GARBAGE)
def test_five_crowns_hand_functions_refuse_any_value_with_a_crowns_error(hand, wild):
    """Public hand functions: any hand and wild rank, or a CrownsError."""
    for f in (fc.deadwood, fc.can_go_out, fc.best_melds, fc.rank_discards, fc.hand_value,
              fc.deadwood_batch, fc.can_go_out_batch):
        try:
            f(hand, wild)
        except CrownsError:
            pass


def _position_from_json_text(d):
    """Position.from_text of `d` written as JSON (when it can be: bytes and NaN cannot)."""
    try:
        text = json.dumps(d, allow_nan=False)
    except (TypeError, ValueError):
        return None
    return ck.Position.from_text(text)


def _documents():
    pos = ck.Position.random(3)
    rec = fc.play_game(["greedy", "random"], seed=5).record
    keeper = fc.ScoreKeeper(["Ann", "Bob"])
    keeper.enter_round([15, 20])   # round 1: 3 cards kept score 0, or 13 and more
    return {
        "position": (pos.to_dict(), [ck.Position.from_dict, _position_from_json_text]),
        "record": (rec, [fc.replay]),
        "keeper": (keeper.to_dict(), [fc.ScoreKeeper.from_dict]),
        "rules": (kc.Rules().to_dict(), [kc.Rules.from_dict]),
        "deck": (kc.default_deck().to_dict(), [kc.Deck.from_mapping]),
    }


DOCS = _documents()


def _paths(d, pre=()):
    yield pre
    if isinstance(d, dict):
        for k, v in d.items():
            yield from _paths(v, (*pre, k))
    elif isinstance(d, list):
        for i, v in enumerate(d[:6]):
            yield from _paths(v, (*pre, i))


PATHS = {name: list(_paths(doc)) for name, (doc, _) in DOCS.items()}


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(sorted(DOCS)), st.data(), ATOMS | st.lists(st.integers(-2, 40), max_size=4), st.booleans())
def test_document_readers_refuse_one_damaged_field_with_a_crowns_error(name, data, value, delete):
    """Record, keeper, position, rules and deck readers: a valid document with one field
    replaced by any value (or deleted) reads, or is a CrownsError."""
    doc, readers = DOCS[name]
    path = data.draw(st.sampled_from(PATHS[name][1:]))
    doc = copy.deepcopy(doc)
    parent = doc
    for p in path[:-1]:
        parent = parent[p]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    for read in readers:
        try:
            read(doc)
        except CrownsError as exc:
            assert str(exc)


CLI = [
    (["cross-kings", "score"], []),
    (["cross-kings", "show"], ["--random", "--reach", "--names"]),
    (["five-crowns", "deadwood"], ["--round", "--wild", "--max-book-size", "--sets"]),
    (["five-crowns", "discard"], ["--round", "--wild", "--sets", "--seen", "--draw-pile"]),
    (["kings-crowns", "simulate", "--games", "2"], ["--players", "--policy", "--seed", "--target", "--max-turns"]),
]
WORDS = st.one_of(
    st.text(max_size=6).filter(lambda s: not s.startswith("-") and "\x00" not in s),
    st.sampled_from(["3H", "JK", "KS", "10R", "0", "-1", "99999999999999999999", "nan", "1e3", "1.5", "J", "13",
                     "-", "AS", "??", "\u0663", "\uff15", "0x5", "1_000"]),
    st.integers(-5, 20).map(str),
)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, len(CLI) - 1), st.lists(WORDS, max_size=4), st.lists(st.tuples(st.integers(0, 9), WORDS), max_size=3))
def test_cli_options_and_operands_exit_0_or_2_with_one_line(capsys, monkeypatch, tmp_path_factory, i, operands, options):
    """Command-line readers: any operands and option values exit 0, or 2 with one line
    on standard error (argparse's own usage errors aside), never a traceback."""
    from crowns_solver.cli import main

    monkeypatch.chdir(tmp_path_factory.getbasetemp())
    cmd, names = CLI[i]
    argv = list(cmd)
    for j, v in options:
        if names:
            argv += [names[j % len(names)], v]
    if operands:
        argv += ["--", *operands]
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse refusing an option value: exit 2 with its usage
        code = exc.code
    _, err = capsys.readouterr()
    assert code in (0, 2), (argv, err)
    if code == 2 and "usage:" not in err:
        assert err.count("\n") == 1, (argv, err)


# --------------------------------------------------------------------------- King's Crowns views

KC_GAME = kc.Game(3, seed=2)
KC_VIEW = KC_GAME.view()
SEAT_VIEW_FIELDS = ["seat", "players", "turn", "target", "max_turns", "phase", "to_move", "hand", "hand_sizes",
                    "play_stacks", "gift_stacks", "crown_stacks", "discard_top", "discard_size", "draw_size"]


def _view_calls(view, rng):
    lookahead = kc.get_policy("lookahead")
    return [lambda: view.legal_plays(), lambda: kc.get_policy("greedy").choose_draw(view, rng),
            lambda: kc.get_policy("random").choose_play(view, rng), lambda: lookahead.choose_play(view, rng),
            lambda: lookahead.candidates(view, rng)]


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(SEAT_VIEW_FIELDS), GARBAGE | st.integers(-(2**40), 2**40) | st.sampled_from(["draw", "play"]))
def test_kc_policies_refuse_a_damaged_seat_view_with_a_crowns_error(field, value):
    """A SeatView built or changed by hand, with one field of any value, reaches the
    compiled engine only through SeatView.to_native and _call_native: the built-in
    players and legal_plays answer or raise a CrownsError (they raised ValueError,
    IndexError, OverflowError or AttributeError)."""
    import dataclasses

    view = dataclasses.replace(KC_VIEW, **{field: value})
    for call in _view_calls(view, np.random.default_rng(0)):
        try:
            call()
        except CrownsError as exc:
            assert str(exc)


@pytest.mark.parametrize(("field", "value", "message"), [
    ("phase", "bogus", "a view's phase is 'draw' or 'play', got 'bogus'"),            # was ValueError
    ("phase", np.array([]), "a view's phase is 'draw' or 'play', got array([]"),     # NumPy's "ambiguous" (s. 24)
    ("phase", np.array(["draw"]), "a view's phase is 'draw' or 'play', got array(['draw']"),   # taken (s. 24)
    ("players", 9, "a view's players must be 2..5, got 9"),                           # was IndexError
    ("max_turns", 2**40, f"a view's max_turns must be a whole number, got {2**40}"),  # was OverflowError
    ("seat", 7, "seat 7's view is not one a game can reach: bad seat"),               # was ValueError
    ("play_stacks", ((), ()), "a view's play_stacks must give one entry per seat (3)"),
])
def test_kc_damaged_seat_view_examples(field, value, message):
    """The failing examples of the test above, kept explicit."""
    import dataclasses

    from crowns_solver.errors import PositionError

    view = dataclasses.replace(KC_VIEW, **{field: value})
    with pytest.raises(PositionError) as info:
        kc.get_policy("lookahead").choose_draw(view, np.random.default_rng(0))
    assert str(info.value).startswith(message)


def test_kc_policy_with_a_bad_rng_or_the_wrong_phase_is_a_crowns_error():
    """rng=None was an AttributeError; choose_draw on a play-phase view an IndexError."""
    import dataclasses

    from crowns_solver.errors import IllegalMoveError, PolicyError

    with pytest.raises(PolicyError, match="rng must be a numpy.random.Generator, got NoneType"):
        kc.get_policy("greedy").choose_draw(KC_VIEW, None)
    with pytest.raises(PolicyError, match="a policy decides from a SeatView, got dict"):
        kc.get_policy("greedy").choose_draw({}, np.random.default_rng(0))
    play_view = dataclasses.replace(KC_VIEW, phase="play")
    with pytest.raises(IllegalMoveError, match="choose_draw needs a view in the draw phase"):
        kc.get_policy("lookahead").choose_draw(play_view, np.random.default_rng(0))
    assert KC_VIEW.phase == "draw"
    assert kc.get_policy("greedy").choose_draw(KC_VIEW, np.random.default_rng(0)) in ("draw", "discard")


# --------------------------------------------------------------------------- options whose values are words

#: the entry points of test_text_options24 that answer at once when given a valid word
#: (the others would run a match, the studies, an analysis, a game or write a report)
QUICK_WORD_OPTIONS = [w for w in WORD_OPTIONS if w[0] not in {
    "match reach", "run_studies rules reach", "analyse_game players", "play_game engine", "write_report by"}]
WORD_VALUES = (GARBAGE
               | st.lists(st.sampled_from(["any", "nearest", "open", "win", "first", "tiebreak", "greedy", "seat",
                                           "draw", "discard", "identity", ""]), max_size=3).map(np.array)
               | st.sampled_from(["any", "nearest", "open", "game", "margin", "win", "fitted", "first", "second",
                                  "random", "share", "tiebreak", "greedy", "lookahead", "discard", "draw", "seat",
                                  "policy", "identity"]).map(lambda w: w if len(w) % 2 else np.str_(w)))


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(QUICK_WORD_OPTIONS), WORD_VALUES)
def test_word_options_take_only_a_str_and_refuse_anything_else_naming_it(option, value):
    """Every option whose values are words (test_text_options24): a value that is not a
    str (a NumPy array of any shape, a number, bytes, a list...) is refused with the
    module's own error, whose message shows the value; a str is taken or refused with a
    CrownsError (a NumPy array of one word was taken until session 24, an empty one
    raised NumPy's "truth value ... ambiguous", a list raised "unhashable type")."""
    label, call, _word, error, message = option
    try:
        call(value)
    except CrownsError as exc:
        if not isinstance(value, str):
            assert isinstance(exc, error) and str(exc).startswith(message) and repr(value) in str(exc), (label, exc)
    else:
        assert isinstance(value, str), (label, value)
