"""Session 21 robustness audit: the gaps left by test_hypothesis_entry_points.py.

Every ``def`` of ``ext/*.pyx`` and every parser of user input was checked for a test
throwing random and malformed input at it (the list is in test_hypothesis_entry_points's
docstring).  These were missing or found a fault:

- ``_ck_search.Engine.search`` / ``search_move``: the window was converted to int64 and
  used as given.  alpha = -2**63 overflowed the negamax's negation and gave a move a wrong
  value marked proven; an inverted window (alpha > beta) gave a "proven" value that bounds
  nothing; 0.5 was cut to 0; a depth of -2**31 wrapped around to a full search.  The
  window is now checked (whole numbers, -MAX_WINDOW <= alpha < beta <= MAX_WINDOW) and a
  negative depth is depth 0.
- ``_kc_engine.Engine.builtin``: a lookahead decision (up to 10,000 samples of 100,000
  turns) ignored Ctrl-C, and a stop was reported as a RuntimeError; it now stops as
  ``choose`` does (KeyboardInterrupt).
- ``_fc_melds.time_rows``: never looked for Ctrl-C (passes x rows of solver calls with the
  GIL released); it now does between rows.
- Every entry point taking a numpy Generator (``_kc_engine.Engine``, ``choose``,
  ``lookahead_table``, ``play_games``; ``_fc_game.integers_like_numpy``, ``play_round``)
  raised AttributeError for anything else; now TypeError naming the type.
- ``_kc_engine.game_stream`` and ``_fc_game.integers_like_numpy`` built a list of any
  length asked (2**31 words: about 70 GB); at most 2**20 now.
- File readers (positions, game records, keeper files, decks, results files) had fixed
  binary examples only; random bytes are thrown at each of them here (no fault found).
- ``_kc_engine.Engine.set_state``: its test rarely built a state it took, and took a
  play-phase state whose seat to move held no card; the players then answered an
  uninitialised number, an illegal play or an error code.  Now refused.
- Cross Kings six-line deals had example tests only; random damaged deals are read here
  (no fault found).
- Numbers on the command line: the random-option test covered five commands; every
  number option of the quick commands (play, simulate, deadwood, discard) now gets huge,
  negative, fractional and non-ASCII numbers (no fault found).
- The score keeper's conversation (typed lines) had scripted tests only; random lines
  are typed here (no fault found).
- Results files (``crowns report FILE``, ``--out FILE``, ``montecarlo.read_results`` /
  ``read_header``): a device was read until memory ran out (``/dev/zero``) and a named
  pipe waited forever; refused as "not a regular file" now, as other inputs were.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import crowns_solver.kings_crowns as kc
from crowns_solver import _ck_search, _fc_game, _kc_engine
from crowns_solver.errors import CrownsError

INF = _ck_search.INF_VALUE
WIN = _ck_search.MAX_WINDOW
REFUSED = (ValueError, TypeError, OverflowError)
SOME = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))


def _child(code: str, **kw) -> subprocess.Popen:
    """`code` in a fresh interpreter (a crash or hang fails the test, not pytest)."""
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd="/", **kw)


# --------------------------------------------------------------------------- _ck_search windows

def _endgame(seed: int, objective: int, reach: int, left: int):
    """An open-mode engine and a state with `left` cards or fewer still to take."""
    rng = np.random.default_rng(seed)
    perm = [int(x) for x in rng.permutation(36)]
    eng = _ck_search.Engine(bytes(perm), 0, objective, reach, 1 << 16)
    s = (2**36 - 1, 0, 0, 0, 0, 0, 0, -1, seed % 2)
    for _ in range(36 - left):
        moves = eng.moves(s)
        if not moves:
            break
        s = eng.child(s, moves[int(rng.integers(len(moves)))])
    return perm, eng, s


def _exact(perm, objective, reach, method, *args):
    eng = _ck_search.Engine(bytes(perm), 0, objective, reach, 1 << 16)
    eng.set_limits(0.0, 0)
    return getattr(eng, method)(*args, 64, -INF, INF)[0]


BOUNDS = st.one_of(
    st.integers(-40, 40), st.integers(-(2**63), 2**63 - 1), st.integers(-WIN - 2, -WIN + 2), st.integers(WIN - 2, WIN + 2),
    st.sampled_from([-INF, INF, -(2**63), 2**63 - 1, 2**64]), st.floats(-50, 50), st.floats(allow_nan=True),
)


@SOME
@given(st.integers(0, 2**32 - 1), st.integers(0, 1), st.integers(0, 1), st.integers(2, 8), BOUNDS, BOUNDS)
def test_ck_search_window_is_checked_and_values_bound_the_exact_value(seed, objective, reach, left, alpha, beta):
    """Self-validating: a window of whole numbers -MAX_WINDOW <= alpha < beta <=
    MAX_WINDOW is taken, any other refused; a value the search returns is fail-soft:
    at most alpha means the exact value is at most it, at least beta at least it, and in
    between it is the exact value (the old code, given alpha = -2**63, gave a move a
    wrong value marked proven, and an inverted window a value that bounded nothing)."""
    perm, eng, s = _endgame(seed, objective, reach, left)
    ok = (all(float(x).is_integer() for x in (alpha, beta)) and -WIN <= alpha < beta <= WIN)
    eng.set_limits(0.0, 0)
    got = None
    try:
        got = eng.search(s, 64, alpha, beta)
    except REFUSED:
        pass
    assert (got is not None) == ok, (alpha, beta, got)
    checks = [] if got is None else [(got[0], _exact(perm, objective, reach, "search", s))]
    for cell in eng.moves(s):
        try:
            v, _ = eng.search_move(s, cell, 64, alpha, beta)
        except REFUSED:
            assert not ok
            continue
        assert ok
        checks.append((v, _exact(perm, objective, reach, "search_move", s, cell)))
    for v, exact in checks:
        if v <= alpha:
            assert exact <= v, (alpha, beta, v, exact)
        elif v >= beta:
            assert exact >= v, (alpha, beta, v, exact)
        else:
            assert v == exact, (alpha, beta, v, exact)


def test_ck_search_window_failing_examples():
    """The failing examples: alpha = -2**63 gave move 1 the value -8 (proven) where it is
    -10; the inverted window (5, -5) gave -5 (proven) where the value is -3."""
    perm, eng, s = _endgame(1, 0, 0, 6)
    for alpha, beta in [(-(2**63), 2**63 - 1), (5, -5), (3, 3), (0.5, 2.5), (-(2**62), 2**62)]:
        with pytest.raises(ValueError, match="the search window must be whole numbers"):
            eng.search(s, 64, alpha, beta)
        with pytest.raises(ValueError, match="the search window must be whole numbers"):
            eng.search_move(s, eng.moves(s)[0], 64, alpha, beta)
    eng.set_limits(0.0, 0)
    assert eng.search(s, 64, -WIN, WIN) == eng.search(s, 64, -INF, INF)
    assert eng.search(s, 64, 3.0, 4.0)[0] == eng.search(s, 64, 3, 4)[0]


@pytest.mark.parametrize("depth", [-1, -5, -(2**31) + 1, -(2**31)])
def test_ck_search_negative_depth_is_the_horizon_not_a_full_search(depth):
    """search_move(depth=-2**31) took depth - 1, which wrapped around to 2**31 - 1: a
    full search (hours from a full deal; here stopped by a node limit).  A negative
    depth is depth 0: the horizon, one node."""
    perm, eng, s = _endgame(1, 0, 0, 24)
    cell = eng.moves(s)[0]
    eng.set_limits(0.0, eng.nodes + 100_000)
    at_zero = eng.search_move(s, cell, 0, -INF, INF)
    n0 = eng.nodes
    assert eng.search_move(s, cell, depth, -INF, INF) == at_zero
    assert eng.search(s, depth, -INF, INF) == eng.search(s, 0, -INF, INF)
    assert eng.nodes - n0 <= 4 and not eng.stop


# --------------------------------------------------------------------------- Ctrl-C

def _interrupted(code: str) -> tuple[str, str, float]:
    """Run `code` (which prints 'go' when the long call starts) in a child, send it
    SIGINT a moment after, and return its output and how long it took to stop."""
    p = _child(code)
    try:
        assert p.stdout.readline() == "go\n"
        time.sleep(0.5)
        sent = time.monotonic()
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=30)
        return out, err, time.monotonic() - sent
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()


def test_kc_builtin_lookahead_stops_at_ctrl_c():
    """The failing example: Engine.builtin ran a lookahead decision of 10,000 samples of
    up to 100,000 turns (about 15 minutes) without looking for Ctrl-C."""
    out, err, took = _interrupted(
        "import numpy as np\n"
        "import crowns_solver.kings_crowns as kc\n"
        "from crowns_solver import _kc_engine as K\n"
        "e = K.Engine(np.asarray(kc.default_deck().counts, np.int32), 5, 10**6, 10**6, np.random.default_rng(0))\n"
        "e.draw(e.legal_draws()[0])\n"
        "print('go', flush=True)\n"
        "try:\n"
        "    e.builtin(K.POLICY_IDS['lookahead'], (10000, 100000, 1))\n"
        "except KeyboardInterrupt:\n"
        "    print('stopped')\n")
    assert out == "stopped\n", err[-500:]
    assert took < 30


def test_fc_time_rows_stops_at_ctrl_c():
    """The failing example: time_rows with 2**31 - 1 passes (about an hour) never looked
    for Ctrl-C."""
    out, err, took = _interrupted(
        "import numpy as np\n"
        "from crowns_solver import _fc_melds as M\n"
        "h = np.array([[0, 1, 2, 14, 15, 27, 30, 33, 40, 41, 44, 50, 52, 55]], np.int8)\n"
        "print('go', flush=True)\n"
        "try:\n"
        "    M.time_rows(h, np.array([7], np.int8), True, 2**31 - 1, np.zeros(1))\n"
        "except KeyboardInterrupt:\n"
        "    print('stopped')\n")
    assert out == "stopped\n", err[-500:]
    assert took < 30


# --------------------------------------------------------------------------- generators and lengths

NOT_A_GENERATOR = st.one_of(
    st.none(), st.integers(), st.floats(), st.text(max_size=4), st.lists(st.integers(), max_size=2),
    st.sampled_from([np.random.PCG64(1), np.random.RandomState(1), np.random.default_rng(1).bit_generator.capsule,
                     np.random.SeedSequence(1), object()]),
)
KC_DECK = np.asarray(kc.default_deck().counts, dtype=np.int32)
KC_VIEW = kc.Game(3, seed=2).view().to_native()


def _gen_calls(gen):
    d, seat_counts, deck = KC_VIEW
    deck5 = ([c for c in range(55) for _ in range(2)] + [55] * 6)
    return {
        "kc.Engine": lambda: _kc_engine.Engine(KC_DECK, 2, 10, 100, gen),
        "kc.choose": lambda: _kc_engine.choose(1, d, seat_counts, deck, gen),
        "kc.lookahead_table": lambda: _kc_engine.lookahead_table(d, seat_counts, deck, gen, (2, 2, 1)),
        "kc.play_games": lambda: _kc_engine.play_games(
            1, KC_DECK, 2, 10, 100, np.ones((1, 2), np.int8), gen, (2, 2, 1), np.zeros(1, np.int8),
            np.zeros(1, np.int32), np.zeros((1, 2), np.int16), np.zeros(1, np.int32)),
        "fc.integers_like_numpy": lambda: _fc_game.integers_like_numpy(gen, 5, 3),
        "fc.play_round": lambda: _fc_game.play_round(deck5, [0, 1], 3, [1, 1], [[], []], [gen, gen], list, 50, True,
                                                     1, [str(c) for c in range(56)]),
    }


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(NOT_A_GENERATOR)
def test_compiled_entry_points_refuse_what_is_not_a_generator(gen):
    """Self-validating: every compiled entry point drawing from a numpy Generator raises
    TypeError naming what it was given instead (it was an AttributeError)."""
    for name, call in _gen_calls(gen).items():
        with pytest.raises(TypeError) as info:
            call()
        assert "numpy.random.Generator" in str(info.value) and type(gen).__name__ in str(info.value), name


def test_compiled_entry_points_take_a_generator():
    """The same calls with a Generator answer (so the test above refuses only the type)."""
    for name, call in _gen_calls(np.random.default_rng(3)).items():
        assert call() is not None, name


@pytest.mark.parametrize("call", [
    "K.game_stream(np.array([1, 2], np.uint32), 5, 2**31 - 1)",
    "G.integers_like_numpy(np.random.default_rng(0), 7, 2**31 - 1)",
])
def test_stream_helpers_refuse_lists_too_long_for_memory(call):
    """The failing examples, in a child with 1 GB of address space: 2**31 - 1 words
    (about 70 GB as a list) were built until memory ran out; now refused at once."""
    p = _child(
        "import resource\n"
        "resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))\n"
        "import numpy as np\n"
        "from crowns_solver import _kc_engine as K, _fc_game as G\n"
        "try:\n"
        f"    {call}\n"
        "except ValueError as e:\n"
        "    print('refused:', e)\n", env={**os.environ, "OPENBLAS_NUM_THREADS": "1"})
    out, err = p.communicate(timeout=120)
    assert p.returncode == 0 and out.startswith("refused: "), err[-500:]
    assert "at most 1048576" in out and "2147483647" in out


@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(-3, 40) | st.integers(2**20 - 1, 2**20 + 2), st.integers(0, 2**32 - 1))
def test_stream_helpers_are_numpys_draws_up_to_their_bound(n, seed):
    """Up to 2**20 words/draws: numpy's own (the failing examples above aside)."""
    words = _kc_engine.game_stream(np.array([seed], np.uint32), 3, n) if n <= 2**20 else None
    draws = _fc_game.integers_like_numpy(np.random.default_rng(seed), 7, n) if n <= 2**20 else None
    if n > 2**20:
        with pytest.raises(ValueError):
            _kc_engine.game_stream(np.array([seed], np.uint32), 3, n)
        with pytest.raises(ValueError):
            _fc_game.integers_like_numpy(np.random.default_rng(seed), 7, n)
        return
    raw = np.random.PCG64(np.random.SeedSequence([seed, 3])).random_raw((max(n, 0) + 1) // 2)
    assert words == [w for v in raw.tolist() for w in (v & 0xFFFFFFFF, v >> 32)][: max(n, 0)]
    assert draws == np.random.default_rng(seed).integers(7, size=max(n, 0)).tolist()


# --------------------------------------------------------------------------- file readers

def _readers():
    import crowns_solver.five_crowns as fc
    from crowns_solver import montecarlo
    from crowns_solver.cli import main

    def position(path):
        code = main(["cross-kings", "show", str(path)])
        if code not in (0, None):
            raise CrownsError(f"exit {code}")

    return {
        "position.json": position, "position.txt": position,
        "record.json": fc.replay, "keeper.json": fc.ScoreKeeper.load,
        "deck.toml": kc.load_deck, "deck.json": kc.load_deck, "deck.txt": kc.load_deck,
        "results.jsonl": montecarlo.read_results,
    }


READERS = _readers()
FRAGMENTS = st.sampled_from([
    b"{", b"}", b"[", b"]", b'"', b":", b",", b"\n", b"\r\n", b"\xef\xbb\xbf", b"\x00", b"\xff", b"\xc3", b"\xe2\x80\xae",
    b"null", b"true", b"NaN", b"Infinity", b"-0", b"1e309", b"9" * 30, b"-1", b"0", b"3", b"2.5",
    b'"players"', b'"rounds"', b'"names"', b'"counts"', b'"cells"', b'"taken"', b'"marker"', b'"kind"', b'"params"',
    b"[deck]", b"counts = ", b"name = ", b"salvation = ", b"=", b"#", b"'''", b'"""',
    b"??7S6H2H8H??/5H6C3SAHKH7C/3C8C??KC5D4C/4HAD??7D2D5S/7H4DKD6D6S8S/5C3D4SKS2S2C//ASAC8D3H//3012",
    b"KS", b"JK", b"3H", b"10R", b"AS",
])
CONTENT = st.one_of(st.binary(max_size=60), st.lists(FRAGMENTS, max_size=25).map(b"".join),
                    st.text(max_size=40).map(str.encode))


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(sorted(READERS)), CONTENT)
def test_every_file_reader_refuses_random_bytes_with_a_crowns_error(tmp_path_factory, capsys, name, content):
    """Random bytes, text and JSON/TOML-shaped fragments (BOM, NUL, invalid UTF-8, huge
    numbers, NaN) written to a file: each reader reads it or raises a CrownsError."""
    path = tmp_path_factory.mktemp("in") / name
    path.write_bytes(content)
    try:
        READERS[name](path)
    except CrownsError as exc:
        assert str(exc)
    capsys.readouterr()


def test_file_readers_take_their_own_files(tmp_path):
    """The same readers read what the library writes (so the test above is not only
    refusals)."""
    import crowns_solver.cross_kings as ck
    import crowns_solver.five_crowns as fc

    (tmp_path / "p.json").write_text(json.dumps(ck.Position.random(2).to_dict()))
    READERS["position.json"](tmp_path / "p.json")
    fc.play_game(["greedy", "random"], seed=1).save(tmp_path / "r.json")
    assert READERS["record.json"](tmp_path / "r.json").policies == ("greedy", "random")
    keeper = fc.ScoreKeeper(["Ann", "Bob"])
    keeper.enter_round([15, 0])   # round 1: 3 cards kept score 0, or 13 and more
    keeper.save(tmp_path / "k.json")
    assert READERS["keeper.json"](tmp_path / "k.json").names == keeper.names
    (tmp_path / "d.json").write_text(json.dumps(kc.default_deck().to_dict()))
    assert READERS["deck.json"](tmp_path / "d.json").counts == kc.default_deck().counts


# --------------------------------------------------------------------------- King's Crowns set_state

KC_CARDS = [c for c in range(28) for _ in range(int(KC_DECK[c]))]


def _kind(code: int) -> str:
    from crowns_solver.kings_crowns.cards import CARD_NAMES

    return kc.kind_of(CARD_NAMES[code])


@SOME
@given(st.integers(2, 5), st.sampled_from([0.0, 0.05, 0.3]), st.randoms(use_true_random=False), st.integers(0, 1),
       st.integers(0, 4), st.integers(0, 99))
def test_kc_set_state_takes_only_states_whose_players_answer_legally(players, p_hand, rnd, phase, current, turn):
    """Self-validating: the deck dealt at random into hands, stacks and piles is taken or
    refused (ValueError); from a state taken, every built-in player's answer is a legal
    draw or play, for a few turns.  A play-phase state whose seat to move held no card
    was taken, and the players then answered an uninitialised number, an illegal play
    or an error code reported as a RuntimeError."""
    cards = KC_CARDS[:]
    rnd.shuffle(cards)
    hands, plays, gifts, crowns = ([[] for _ in range(players)] for _ in range(4))
    draw, discard = [], []
    for c in cards:
        q, r, kind = rnd.randrange(players), rnd.random(), _kind(c)
        if r < p_hand and len(hands[q]) < 7:
            hands[q].append(c)
        elif r < 0.4 and kind == "gift" and c not in gifts[q] and len(gifts[q]) < 3:
            gifts[q].append(c)
        elif r < 0.4 and kind == "crown":
            crowns[q].append(c)
        elif r < 0.6 and kind not in ("gift", "crown"):
            plays[q].append(c)
        elif r < 0.8:
            draw.append(c)
        else:
            discard.append(c)
    e = _kc_engine.Engine(KC_DECK, players, 10, 100, np.random.default_rng(turn))
    try:
        e.set_state(hands, plays, gifts, crowns, draw, discard, current, phase, turn)
    except ValueError:
        assert current >= players or (phase == 1 and not hands[current])
        return
    for _ in range(4):
        if e.ended:
            break
        legal = e.legal_draws() if e.phase == 0 else e.legal_plays()
        assert legal
        for pol in range(len(_kc_engine.POLICY_IDS)):
            assert e.builtin(pol, (2, 3, 1)) in legal
        (e.draw if e.phase == 0 else e.play)(legal[rnd.randrange(len(legal))])


def test_kc_set_state_refuses_a_seat_to_play_without_a_card():
    """The failing example: every card in the piles, seat 0 to play with an empty hand;
    the random player answered 1374398672 (memory never written), the lookahead player
    the play 0 (illegal), the others an error code (RuntimeError: built-in player failed)."""
    e = _kc_engine.Engine(KC_DECK, 2, 10, 100, np.random.default_rng(0))
    with pytest.raises(ValueError, match="seat 0 is to play but holds no card"):
        e.set_state([[], []], [[], []], [[], []], [[], []], KC_CARDS[:1], KC_CARDS[1:], 0, 1)
    e.set_state([[], []], [[], []], [[], []], [[], []], KC_CARDS[:1], KC_CARDS[1:], 0, 0)  # to draw: fine
    assert e.builtin(1) in e.legal_draws()


# --------------------------------------------------------------------------- Cross Kings six-line deals

DEAL_JUNK = ["??", "?", "ks", "Ks", "10S", "1S", "\uff21S", "\u0663S", "K\u0301S", "", "#", "XX", "A", "0S", "JK", "AS"]


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.permutations(range(36)), st.lists(st.tuples(st.integers(0, 35), st.sampled_from(DEAL_JUNK)), max_size=3),
       st.sampled_from([6, 5, 7]), st.booleans(), st.sampled_from(["\n", "\r\n", "\n\n", "\n# note\n"]))
def test_six_line_deals_read_or_refuse_with_a_crowns_error(perm, damage, n_rows, compact, sep):
    """Deal.from_text and Position.from_text on six lines of six cards (spaced or
    written together) with a few cells replaced by junk, duplicates or ``??``, and a
    row too many or too few: a Deal whose cards are distinct and which reads back from
    its own text, or a CrownsError."""
    import crowns_solver.cross_kings as ck

    from crowns_solver.errors import CrownsError

    cells = [ck.DECK[i] for i in perm]
    for i, tok in damage:
        cells[i] = tok
    rows = [cells[6 * r: 6 * r + 6] if r < 6 else cells[:6] for r in range(n_rows)]
    text = sep.join(("" if compact else " ").join(row) for row in rows)
    try:
        deal = ck.Deal.from_text(text)
    except CrownsError as exc:
        assert str(exc)
    else:
        cards = [c for c in deal.cells if c is not None]
        assert len(cards) == len(set(cards)) and ck.Deal.from_text(deal.to_text()) == deal
        assert n_rows == 6
    try:
        ck.Position.from_text(text)
    except CrownsError as exc:
        assert str(exc)


# --------------------------------------------------------------------------- numbers on the command line

#: commands that run in well under a second, and their options that take numbers
NUMBER_COMMANDS = [
    (["five-crowns", "play", "--rounds", "1"], ["--seed", "--rounds", "--max-tiebreaks", "--first-dealer", "--players"]),
    (["five-crowns", "simulate", "2", "--rounds", "1", "--players", "2", "--workers", "1"],
     ["--seed", "--rounds", "--max-tiebreaks", "--players", "--workers", "GAMES"]),
    (["kings-crowns", "simulate", "--games", "2", "--workers", "1", "--max-turns", "60"],
     ["--players", "--seed", "--target", "--max-turns", "--games", "--chunk-size", "--workers"]),
    (["five-crowns", "deadwood", "3H", "4H", "5H", "7S"], ["--round", "--wild", "--max-book-size", "--sets"]),
    (["five-crowns", "discard", "3H", "4H", "5H", "7S"], ["--round", "--wild", "--sets"]),
]
NUMBERS = st.one_of(
    st.integers(-3, 12).map(str), st.integers(-(2**70), 2**70).map(str),
    st.sampled_from(["0", "-0", "+3", "1_0", "1e3", "1.5", "2.0", "nan", "inf", "-inf", "0x10", "\u0663", "\uff15", " 5",
                     "5 ", "", "9" * 400, "2147483648", "9223372036854775808", "18446744073709551616"]),
)


@settings(max_examples=50, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.integers(0, len(NUMBER_COMMANDS) - 1), st.data(), st.lists(NUMBERS, min_size=1, max_size=2))
def test_numbers_of_every_quick_command_exit_0_or_2_with_one_line(capsys, monkeypatch, tmp_path_factory, i, data,
                                                                  values):
    """Every option taking a number (seeds, counts, rounds, players, dealers, caps,
    workers) of the quick commands, given huge, negative, fractional, non-ASCII or
    no digits: exit 0, or 2 with one line on standard error (argparse's usage aside);
    the game-count operand of five-crowns simulate too.  (test_hypothesis_entry_points
    covers the other options of some of these with random text.)"""
    from crowns_solver.cli import main

    monkeypatch.chdir(tmp_path_factory.getbasetemp())
    cmd, options = NUMBER_COMMANDS[i]
    argv = list(cmd)
    for v in values:
        option = data.draw(st.sampled_from(options))
        if option in ("GAMES", "--games") and v.strip().lstrip("+").isdigit() and 3 < int(v) <= 10**9:
            v = "3"   # a number of games that is accepted: kept small (huge ones are refused)
        if option == "GAMES":
            argv[2] = v
        else:
            argv += [option, v]
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    _, err = capsys.readouterr()
    assert code in (0, 2), (argv, err)
    if code == 2 and "usage:" not in err:
        assert err.count("\n") == 1, (argv, err)


# --------------------------------------------------------------------------- the score keeper's conversation

KEEPER_WORDS = st.sampled_from([
    "2", "3", "8", "0", "-1", "99", "1e3", "nan", "Ann", "Bob", "ann", " ", "", "Cy", "y", "n", "yes", "no", "undo",
    "quit", "help", "?", "5", "10", "3H 4H 5H", "JK", "5R 6R", "3S 3S 3S 3S 3S", "Ann 5 Bob 0", "0 0", "5 10", "5,10",
    "\x1b[2J", "\u202e", "x" * 100, "1", "11", "13", "JK JK JK", "9" * 30,
])


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(KEEPER_WORDS | st.text(max_size=6), max_size=40))
def test_keeper_conversation_takes_any_typed_lines(tmp_path_factory, lines):
    """The Five Crowns score keeper's conversation, fed any lines then end of input:
    it stops (saving what was entered) without an exception, asking at most once per
    line plus a few questions; a file it saved reads back."""
    from crowns_solver.five_crowns import ScoreKeeper
    from crowns_solver.five_crowns.keeper import interactive

    path = tmp_path_factory.mktemp("keeper") / "game.json"
    feed = iter(lines)
    asked = []

    def read(prompt: str) -> str:
        asked.append(prompt)
        assert len(asked) <= len(lines) + 5, asked[-3:]
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    keeper = interactive(read=read, write=lambda text: None, save=path)
    if path.exists():
        assert ScoreKeeper.load(path).entries == keeper.entries


# --------------------------------------------------------------------------- results files that are not files

def _run_limited(tmp_path, code: str) -> subprocess.CompletedProcess:
    """`code` in a child with 2 GB of address space and a 30 s limit, so a read without
    end fails the test instead of filling memory or hanging pytest."""
    code = "import resource, sys\nresource.setrlimit(resource.RLIMIT_AS, (2**31, 2**31))\n" + code
    try:
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
                              timeout=30, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail("the child did not stop within 30 s")


@pytest.mark.parametrize("argv", [
    ("report", "{f}"),
    ("kings-crowns", "simulate", "--games", "2", "--workers", "1", "--out", "{f}"),
    ("five-crowns", "simulate", "2", "--rounds", "1", "--players", "2", "--workers", "1", "--out", "{f}"),
    ("cross-kings", "match", "--deals", "1", "--out", "{f}"),
])
@pytest.mark.parametrize("kind", ["fifo", "/dev/zero"])
def test_results_file_that_is_a_device_or_a_pipe_is_refused_in_one_line(tmp_path, argv, kind):
    """The failing examples: `crowns report /dev/zero` read until memory ran out (a
    MemoryError traceback under a memory limit), `crowns report FIFO` and `--out FIFO`
    waited for a writer or a reader forever.  Other inputs were already refused as "not a
    regular file"; results files now are too."""
    if kind == "fifo":
        f = tmp_path / "results.jsonl"
        os.mkfifo(f)
    else:
        f = kind
    argv = [a.format(f=f) for a in argv]
    r = _run_limited(tmp_path, f"from crowns_solver.cli import main\nsys.exit(main({argv!r}))\n")
    assert r.returncode == 2, r.stderr[-800:]
    assert r.stderr.startswith(f"crowns: error: {f}: not a regular file") and r.stderr.count("\n") == 1, r.stderr


@pytest.mark.parametrize("kind", ["fifo", "/dev/zero", "/dev/null"])
def test_read_results_and_read_header_refuse_what_is_not_a_regular_file(tmp_path, kind):
    """The API readers, as the command line (in a child: the old code hung on a pipe)."""
    if kind == "fifo":
        f = tmp_path / "r.jsonl"
        os.mkfifo(f)
    else:
        f = kind
    r = _run_limited(tmp_path, (
        "from crowns_solver import montecarlo\n"
        "from crowns_solver.errors import ResultsFileError\n"
        "for read in (montecarlo.read_results, montecarlo.read_header):\n"
        "    try:\n"
        f"        read({str(f)!r})\n"
        "    except ResultsFileError as e:\n"
        "        print(e)\n"))
    assert r.stdout == f"{f}: not a regular file\n" * 2, r.stderr[-800:]
