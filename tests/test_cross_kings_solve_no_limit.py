"""What Ctrl-C gives a solve without a time limit is said: the help says it, and the
interrupted output says why its estimate is shallow and what gives a deeper one (probe
finding 7)."""

from __future__ import annotations

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
    assert "0 or inf: no limit, the exact solve only: Ctrl-C then gives just a 2-ply estimate" in out


def test_ctrl_c_without_a_limit_says_the_estimate_is_the_shallow_pass():
    proc = subprocess.Popen(
        [sys.executable, "-m", "crowns_solver", "cross-kings", "solve", "--random", "3", "--time-limit", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd="/", preexec_fn=sigint_default,
    )
    time.sleep(3)   # past the imports: the search is running (a full deal takes hours)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "estimate" in out and "search depth 2 plies" in out
    assert ("(with no time limit the search went straight to the exact solve after a 2-ply pass, whose"
            " estimate this is; a --time-limit of the seconds you can wait gives the deepest estimate"
            " reached in them)") in out
    assert "Traceback" not in err
