"""What Ctrl-C gives a solve without a time limit is said: the help says it, and the
interrupted output says why its estimate is shallow and what gives a deeper one (probe
finding 7)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from conftest import run_cli, sigint_default


def test_help_says_what_ctrl_c_gives_without_a_limit(capsys):
    try:
        run_cli(capsys, "cross-kings", "solve", "--help")
    except SystemExit:
        pass
    out = " ".join(capsys.readouterr().out.split())
    assert "With no time limit (--time-limit 0 or inf, and no --node-limit)" in out
    assert "Ctrl-C then leaves only that pass's estimate" in out
    assert "0 or inf: no limit, the exact solve only: in game mode Ctrl-C then gives just a 2-ply estimate" in out
    assert "Open mode deepens to 12 cards before the end first, limit or not." in out


def _wait_for_cpu(pid: int, seconds: float, wait: float = 120.0) -> None:
    """Wait until process `pid` has used `seconds` of CPU time (Linux /proc), so a loaded
    machine that is slow to import does not get the Ctrl-C before the search starts."""
    tick = os.sysconf("SC_CLK_TCK")
    end = time.monotonic() + wait
    while time.monotonic() < end:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        if (int(fields[11]) + int(fields[12])) / tick >= seconds:   # utime + stime
            return
        time.sleep(0.1)


def _interrupted_solve(*extra: str) -> tuple[str, str]:
    """A full deal solved with no time limit, Ctrl-C after 2.5 s of CPU: (stdout, stderr)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "crowns_solver", "cross-kings", "solve", "--random", "3", "--time-limit", "0", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd="/", preexec_fn=sigint_default,
    )
    _wait_for_cpu(proc.pid, 2.5)   # past the imports (under 1 s of CPU): the search runs (a full deal takes hours)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    return out, err


def test_ctrl_c_without_a_limit_says_the_estimate_is_the_shallow_pass():
    out, _ = _interrupted_solve("--mode", "game")
    assert "estimate" in out and "search depth 2 plies" in out
    assert ("(with no time limit the search went straight to the exact solve after a 2-ply pass, whose"
            " estimate this is; a --time-limit of the seconds you can wait gives the deepest estimate"
            " reached in them)") in out


def test_open_mode_without_a_limit_deepens_first():
    # open mode deepens to 12 cards before the end before the exact search, limit or not
    # (session 20): Ctrl-C reports the deepest completed iteration, and no shallow-pass note
    out, _ = _interrupted_solve()
    depth = int(out.split("search depth ")[1].split()[0])
    assert depth > 2
    assert "went straight to the exact solve" not in out
