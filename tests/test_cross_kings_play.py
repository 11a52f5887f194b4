"""``crowns cross-kings play``: scripted sessions (moves, hint, undo, save, quit, malformed
commands, end of input), a whole game with its analysis, move parsing, save strings."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from ck_oracle import solve_plain
from conftest import run_play as play
from conftest import sigint_default
from hypothesis import given
from hypothesis import strategies as st

from crowns_solver.cross_kings import Position, cell_coords, cell_index
from crowns_solver.cross_kings.play import (
    PlaySession,
    parse_move,
    public_position,
    save_text,
)
from crowns_solver.errors import CrownsError, IllegalMoveError, PositionError

# crosskings.net save string (tests/data/cross_kings_labels.jsonl, first line): 9 cards
# left, 4 face down (AS AC 8D 3H among (0,0) (0,5) (2,2) (3,2)), second to move from (2,3)
LABEL_SAVE = (
    "??7S6H2H8H??/5H6C3SAHKH7C/3C8C??KC5D4C/4HAD??7D2D5S/7H4DKD6D6S8S/5C3D4SKS2S2C"
    "//ASAC8D3H//301273969908864214574189716"
)
LIMITS = ["--time", "0", "--node-limit", "200000"]


def test_scripted_session_hint_malformed_move_undo_save_eof(capsys, monkeypatch):
    script = "help\nhint\nblah\n0,0\n4C\nundo\nsave\n"
    code, out, err = play(capsys, monkeypatch, script, "--load", LABEL_SAVE, "--seed", "4",
                          "--opponent", "greedy", *LIMITS)
    assert code == 0 and not err
    lines = out.splitlines()
    start = Position.from_save_string(LABEL_SAVE)
    # the grid as a player sees it: face-down cells as ??, never their cards
    assert start.render().splitlines()[3] in out            # row 2: ?? * 5D 4C
    assert "you (second): 7S 2H 4H 4S 2S 6S KD 3C KH 5S 6C 3D AH  score 15" in out
    assert "computer (first): 8C 6H 7D 5C 2C 8H 8S 7H 5H 7C AD 4D KS KC  score 17" in out
    assert "unseen (in the 4 face-down cells): AS 3H 8D AC" in out
    assert "moves: (2,2) ??  (2,4) 5D  (2,5) 4C  (4,3) 6D" in out
    assert "commands:" in out and "undo" in out
    # hint: each legal move's exact game value (9 cards left: the search finishes),
    # checked against the plain expectiminimax oracle
    _, values, card_values = solve_plain(start, "game", "margin")
    i = lines.index("your move> hint")
    block = lines[i + 2: i + 7]
    hint = [line for line in block if line.startswith("  (")]
    assert len(hint) == 4 and all(line.endswith("exact") for line in hint)
    # the face-down cell (2,2): what each card it may hold is worth, best first
    reveal = next(line for line in block if line.startswith("        if it is "))
    expected = sorted(card_values[14].items(), key=lambda kv: -kv[1])
    assert reveal.split("if it is ")[1] == ", ".join(f"{k} {float(v):+.2f}" for k, v in expected)
    got = {line.split()[0]: line.split()[2] for line in hint}
    assert got == {f"({r},{c})": f"{float(v):+.2f}" for (r, c), v in
                   ((cell_coords(k), v) for k, v in values.items())}
    assert [float(line.split()[2]) for line in hint] == sorted((float(line.split()[2]) for line in hint),
                                                                reverse=True)
    # malformed and illegal commands: one line each, then the prompt again
    j = lines.index("your move> blah")
    assert lines[j + 1] == "not a move or command: 'blah' (type help)"
    assert lines[j + 2] == "your move> 0,0"
    assert lines[j + 3].startswith("(0,0) is not a legal move: it is not in the marker's row or column; legal: (2,2) (2,4) (2,5) (4,3)")
    assert lines[j + 4] == "your move> 4C"
    assert lines[j + 5] == "you take (2,5): 4C"
    assert lines[j + 6].startswith("computer (first) takes (")
    # undo: the same position as before the move
    k = lines.index("your move> undo")
    assert lines[k + 1] == "took back your last move and the computer's reply"
    assert "moves: (2,2) ??  (2,4) 5D  (2,5) 4C  (4,3) 6D" in lines[k + 2:]
    # save: the save string loaded (its face-down list kept)
    assert f"save string: {LABEL_SAVE}" in lines
    # end of input: a clean end with the way to resume
    # (with the opponent played and its search limits, so the same game goes on)
    # (and the seed, which places the face-down cards the same way again: session 23)
    assert lines[-1] == (f"end of input: game left unfinished; resume with: crowns cross-kings play --load '{LABEL_SAVE}'"
                         " --seed 4 --opponent greedy " + " ".join(LIMITS))


def test_quit_and_undo_before_any_move(capsys, monkeypatch):
    code, out, _ = play(capsys, monkeypatch, "undo\nsave\nquit\nhint\n", "--seed", "3", "--seat", "second",
                        "--opponent", "random", *LIMITS)
    assert code == 0
    assert "you (second) to choose the start cell" in out
    assert "start cells: (2,2) ??  (2,3) ??  (3,2) ??  (3,3) ??" in out
    assert "nothing to undo: you have not moved yet" in out
    assert "nothing to save yet: the start cell has not been chosen" in out
    # the tip brings back the seat and the opponent too (probe finding 3)
    assert out.rstrip().endswith("game left unfinished before the start; the same deal again: --seed 3"
                                 " --seat second --opponent random " + " ".join(LIMITS))
    assert "your move> hint" not in out  # nothing is read after quit


class AutoInput:
    """A player at the keyboard: asks for a hint now and then and plays a legal move
    picked by a seeded generator from the session's current position."""

    def __init__(self, seed: int) -> None:
        self.session: PlaySession | None = None
        self.rng = np.random.default_rng(seed)
        self.turns = 0

    def isatty(self) -> bool:
        return False

    def readline(self) -> str:
        assert self.session is not None
        self.turns += 1
        if self.turns == 2:
            return "hint\n"
        moves = self.session.position.legal_moves()
        r, c = moves[int(self.rng.integers(len(moves)))]
        return f"{r} {c}\n"


@pytest.mark.parametrize("seat, opponent", [("second", "search"), ("first", "greedy")])
def test_a_whole_game_ends_with_the_result_and_the_analysis(seat, opponent):
    keys = AutoInput(seed=8)
    out = io.StringIO()
    session = PlaySession(seed=21, opponent=opponent, time_limit=None, node_limit=20_000, seat=seat,
                          stdin=keys, stdout=out)
    keys.session = session
    assert session.run() == 0
    text = out.getvalue()
    final = session.position
    assert final.is_terminal()
    a, b = final.scores()
    mine, theirs = (a, b) if seat == "first" else (b, a)
    verdict = ("you win by" if mine > theirs else "the computer wins by" if mine < theirs else "a draw")
    assert f"game over: {verdict}" in text and f"({max(a, b)} to {min(a, b)})" in text
    # the analysis: one row per move of yours (the start choice too, as second)
    frame = session.frame
    n_mine = sum(1 for p in session.states[:-1] if p.to_move == seat)
    assert len(frame) == n_mine and set(frame.player) == {seat}
    assert (frame.ply == 0).any() == (seat == "second")
    assert (frame.loss >= 0).all()
    # the moves near the end are exact, and agree with the plain oracle (how many of the
    # user's moves are exact depends on the game: 2 or more in these two)
    tail = frame[frame.exact]
    assert len(tail) >= 2
    by_history = {len(p.taken): p for p in session.states}
    for row in tail.tail(3).itertuples():
        before = by_history[row.ply - 1]
        _, values, _ = solve_plain(before, "game", "margin")
        assert row.value == float(values[cell_index(row.move)])
        assert row.best_value == float(max(values.values()))
    # the finished game's save string replays to the same hands
    line = next(x for x in text.splitlines() if x.startswith("save string: "))
    again = Position.from_save_string(line.split()[2])
    assert again.is_terminal() and again.scores() == final.scores()
    assert sorted(again.hand("first")) == sorted(final.hand("first"))


def test_end_of_input_in_a_subprocess_is_clean(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "crowns_solver", "cross-kings", "play", "--seed", "1", "--opponent", "random",
         "--time", "0", "--node-limit", "2000"],
        input="hint\n", capture_output=True, text=True, cwd=tmp_path, timeout=120,
    )
    assert proc.returncode == 0 and proc.stderr == ""
    assert "you (first) against the computer (second, random); new deal, seed 1" in proc.stdout
    assert "computer (second) chooses the start cell (" in proc.stdout
    assert "hint: game value of each move" in proc.stdout
    assert "end of input: game left unfinished; resume with: crowns cross-kings play --load '" in proc.stdout
    assert "Traceback" not in proc.stdout


def test_the_same_seed_deals_the_same_game(capsys, monkeypatch):
    args = ("--seed", "17", "--opponent", "search", "--seat", "second", *LIMITS)
    _, out1, _ = play(capsys, monkeypatch, "2,3\n", *args)
    _, out2, _ = play(capsys, monkeypatch, "2,3\n", *args)
    assert out1 == out2 and "computer (first) takes (" in out1
    _, out3, _ = play(capsys, monkeypatch, "2,3\n", "--seed", "18", "--seat", "second", *LIMITS)
    assert out3.splitlines()[4] != out1.splitlines()[4]  # another deal


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--load", "not//a//save"], "grid has 1 row, expected 6"),
        (["--time", "0"], "--time 0 (or inf) means no time limit: give --node-limit N"),
    ],
)
def test_bad_options_are_one_line(capsys, monkeypatch, argv, message):
    code, out, err = play(capsys, monkeypatch, "", *argv)
    assert code == 2 and not out
    assert err.count("\n") == 1 and message in err


def test_loading_a_finished_game_points_to_analyse(capsys, monkeypatch):
    pos = Position.from_save_string(LABEL_SAVE)
    while not pos.is_terminal():
        pos = pos.play(pos.legal_moves()[0], rng=1)
    code, _, err = play(capsys, monkeypatch, "", "--load", pos.to_save_string(), *LIMITS)
    assert code == 2 and "this game is over: use 'crowns cross-kings analyse'" in err


# ---------------------------------------------------------------- moves and save strings


@pytest.mark.parametrize("text", ["2,5", "2 5", "(2,5)", "( 2 , 5 )", "25", "[2,5]", "4C", "4c", " 4C "])
def test_parse_move_accepts_cells_and_face_up_cards(text):
    pos = Position.from_save_string(LABEL_SAVE)
    assert parse_move(text, pos) == (2, 5)


@pytest.mark.parametrize(
    "text, error, message",
    [
        ("6,6", PositionError, "'6,6' is not a cell of the grid: rows and columns are 0..5"),
        ("9 1", PositionError, "'9 1' is not a cell of the grid"),
        ("-1,3", PositionError, "'-1,3' is not a cell of the grid"),
        ("(2,16)", PositionError, "'(2,16)' is not a cell of the grid"),
        ("56", PositionError, "'56' is not a cell of the grid"),
        ("1,2,3", PositionError, "not a move or command"),
        ("123", PositionError, "not a move or command"),
        ("2-", PositionError, "not a move or command"),
        ("7S", PositionError, "7S has been taken (it is in second's hand)"),
        ("AS", PositionError, "AS is not face up on the grid"),
        ("2,3", IllegalMoveError, "that is the marker's own cell"),
        ("3S", IllegalMoveError, "(1,2) is not a legal move: it is not in the marker's row or column"),
    ],
)
def test_parse_move_refuses_with_a_reason(text, error, message):
    pos = Position.from_save_string(LABEL_SAVE)
    with pytest.raises(error, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_move(text, pos)


@given(st.text(max_size=12))
def test_parse_move_of_random_text_raises_only_crowns_errors(text):
    pos = Position.from_save_string(LABEL_SAVE)
    try:
        cell = parse_move(text, pos)
    except CrownsError:
        return
    assert cell in pos.legal_moves()


@pytest.mark.parametrize("start", [(2, 2), (2, 3), (3, 2), (3, 3)])
def test_save_strings_of_games_started_anywhere_replay_the_same_game(start):
    # the format starts at (2,2); other starts are written reflected, the same game:
    # the same hands, and at every step the reflected legal moves
    rng = np.random.default_rng(cell_index(start))
    pos = Position.random(rng).play(start)
    for _ in range(12):
        moves = pos.legal_moves()
        pos = pos.play(moves[int(rng.integers(len(moves)))])
    text, mirrored = save_text(pos)
    assert mirrored == (start != (2, 2))
    back = Position.from_save_string(text)
    assert back.hand("first") == pos.hand("first") and back.hand("second") == pos.hand("second")
    assert back.scores() == pos.scores() and back.to_move == pos.to_move
    flip_r, flip_c = start[0] == 3, start[1] == 3

    def reflect(cell):
        r, c = cell
        return (5 - r if flip_r else r, 5 - c if flip_c else c)

    assert sorted(reflect(m) for m in pos.legal_moves()) == back.legal_moves()
    assert {cell_index(reflect(cell_coords(i))) for i in pos.face_down} == set(back.face_down)
    # the face-down cards stay hidden in the save string's grid
    pub = public_position(pos)
    assert all(pub.cells[i] < 0 for i in pub.face_down)
    assert sorted(text.split("//")[1][k:k + 2] for k in range(0, len(text.split("//")[1]), 2)) == \
        sorted(pos.unseen)


def test_game_values_are_the_same_for_a_reflected_game():
    rng = np.random.default_rng(2)
    pos = Position.random(rng).play((3, 3))
    while pos.cards_left > 8:
        moves = pos.legal_moves()
        pos = pos.play(moves[int(rng.integers(len(moves)))])
    back = Position.from_save_string(save_text(pos)[0])
    v1, _, _ = solve_plain(pos, "game", "margin")
    v2, _, _ = solve_plain(back, "game", "margin")
    assert v1 == v2 and isinstance(v1, Fraction)


def test_ctrl_c_while_the_computer_thinks_exits_130_with_the_way_back(tmp_path):
    import signal
    import time

    proc = subprocess.Popen(
        [sys.executable, "-m", "crowns_solver", "cross-kings", "play", "--seed", "5", "--time", "60"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
        preexec_fn=sigint_default,
    )
    assert proc.stdout is not None
    banner = proc.stdout.readline()           # printed just before the computer's first search
    assert banner.startswith("Cross Kings: you (first) against the computer (second, search)")
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert "interrupted before the start; the same deal again: --seed 5" in out
    assert err.strip() == "crowns: interrupted" and "Traceback" not in out + err


def test_undo_reaches_back_into_a_loaded_game(capsys, monkeypatch):
    code, out, _ = play(capsys, monkeypatch, "undo\nundo\nsave\n", "--load", LABEL_SAVE, "--seed", "2",
                        "--opponent", "random", *LIMITS)
    assert code == 0
    assert out.count("took back your last move and the computer's reply") == 2
    assert "cards left 13, face down 5, reach any; you (second) to move" in out
    # the save string of the game four plies earlier: same deal, the first 23 move digits
    saved = next(line for line in out.splitlines() if line.startswith("save string: ")).split()[2]
    grid, hidden, digits = saved.split("//")
    assert digits == LABEL_SAVE.split("//")[2][:-4]
    earlier = Position.from_save_string(saved)
    assert earlier.cards_left == 13 and len(earlier.face_down) == 5
    assert sorted(hidden[k:k + 2] for k in range(0, len(hidden), 2)) == sorted(earlier.unseen)


def test_a_position_without_move_record_plays_and_is_analysed(capsys, monkeypatch, tmp_path):
    # an endgame from the shared cases (no history, no face-down card): quit prints the
    # position as JSON to resume from; a whole game analyses the moves played here
    import json

    from conftest import load_json

    case = load_json("cross_kings_endgames.json")["cases"][7]
    path = tmp_path / "endgame.json"
    path.write_text(json.dumps(case["position"]))
    code, out, _ = play(capsys, monkeypatch, "save\nquit\n", "--load", str(path), *LIMITS)
    assert code == 0
    line = out.splitlines()[-1]
    assert line.startswith("game left unfinished; resume with: crowns cross-kings play --load '{")
    assert line.endswith("' " + " ".join(LIMITS) + " (the position as JSON: no move record)")
    assert Position.from_text(line.split("'")[1]) == Position.from_dict(case["position"])
    assert "position: {" in out

    keys = AutoInput(seed=3)
    stream = io.StringIO()
    pos = Position.from_dict(case["position"])
    session = PlaySession(seed=1, opponent="greedy", time_limit=None, node_limit=100_000,
                          load=pos, stdin=keys, stdout=stream)
    keys.session = session
    session.run()
    frame = session.frame
    assert len(frame) == sum(1 for p in session.states[:-1] if p.to_move == pos.to_move)
    assert frame.exact.all()
    sign = 1 if pos.to_move == "first" else -1
    first = frame.iloc[0]
    assert first.best_value == sign * case["value"]  # no face-down card: game value = open value
    assert first.value == sign * case["move_values"][str(cell_index(first.move))]


def test_save_to_a_file_that_cannot_be_written_is_one_line(capsys, monkeypatch, tmp_path):
    code, out, _ = play(capsys, monkeypatch, f"save {tmp_path}/no/such/dir/g.json\n", "--load", LABEL_SAVE,
                        *LIMITS)
    assert code == 0
    assert (f"the file name '{tmp_path}/no/such/dir/g.json': the folder {tmp_path}/no/such/dir does not exist;"
            " create it first or choose another path") in out.splitlines()
    assert out.rstrip().splitlines()[-1].startswith("end of input: game left unfinished")
    assert not (tmp_path / "no").exists()
    if os.path.isdir("/proc/self"):  # a folder where no file can be created: the OS's reason, one line
        code, out, _ = play(capsys, monkeypatch, "save /proc/nope.json\n", "--load", LABEL_SAVE, *LIMITS)
        assert code == 0 and "cannot write /proc/nope.json: " in out
        assert out.rstrip().splitlines()[-1].startswith("end of input: game left unfinished")


def test_a_file_that_does_not_exist_is_one_line(capsys, monkeypatch):
    code, _, err = play(capsys, monkeypatch, "", "--load", "no-such-game.txt", *LIMITS)
    assert code == 2 and err == "crowns: error: no-such-game.txt: No such file or directory\n"


@given(st.lists(st.text(alphabet=st.characters(blacklist_characters="\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"),
                        max_size=10).filter(lambda s: not s.strip().lower().startswith("save")),
                max_size=6))
def test_random_command_lines_never_crash_the_game(lines):
    out = io.StringIO()
    session = PlaySession(seed=0, opponent="random", time_limit=None, node_limit=500, load=LABEL_SAVE,
                          stdin=io.StringIO("".join(line + "\n" for line in lines)), stdout=out)
    assert session.run() == 0
    text = out.getvalue()
    assert "end of input" in text or "game over" in text or "game left unfinished" in text


def test_ctrl_c_during_the_final_analysis_points_to_analyse():
    class FirstMove:
        session: PlaySession

        def isatty(self) -> bool:
            return False

        def readline(self) -> str:
            r, c = self.session.position.legal_moves()[0]
            return f"{r},{c}\n"

    def interrupted(position):
        raise KeyboardInterrupt

    keys, out = FirstMove(), io.StringIO()
    session = PlaySession(seed=1, opponent="random", time_limit=None, node_limit=1000, load=LABEL_SAVE,
                          stdin=keys, stdout=out)
    keys.session = session
    session.evaluate = interrupted  # Ctrl-C as the analysis starts
    with pytest.raises(KeyboardInterrupt):
        session.run()
    last = out.getvalue().splitlines()[-1]
    assert last.startswith("interrupted; the game is over: analyse it with crowns cross-kings analyse '")
    assert Position.from_save_string(last.split("'")[1]).is_terminal()
