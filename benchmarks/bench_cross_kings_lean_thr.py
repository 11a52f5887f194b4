"""Threshold scoring at the leaves of open mode's last plies: on against off, same run.

``Engine.lean_thr`` (on by default) settles a finished game reached in the lean last
plies against the search window by bounds of both hands' scores (the King scorer's
relaxation) and scores exactly only where those leave the value inside the window.  This
script solves the benchmark's open-mode positions (``random_position(2024 + 1000 *
size + j, size)`` from ``bench_cross_kings_solve.py``) with
``solve(pos, mode="open", objective="margin", tt_mb=256)`` with the switch off and on,
alternating the order per repetition, and prints the best CPU seconds
(``time.process_time``) of each, the node counts and the change.  Values must be equal
(the script stops if not).

The machine these figures come from is shared and noisy: use ``--reps`` 2 or more.

Example::

    python benchmarks/bench_cross_kings_lean_thr.py --reps 2          # about 1-2 minutes
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_cross_kings_solve import random_position  # noqa: E402

import crowns_solver.cross_kings.solver as solver  # noqa: E402


def patched_core(thr: list[int]) -> SimpleNamespace:
    """The solver's compiled core, with engines made with ``lean_thr = thr[0]``."""
    core = solver._core

    class Engine(core.Engine):
        def __init__(self, *args):
            self.lean_thr = thr[0]

    ns = SimpleNamespace(**{k: getattr(core, k) for k in dir(core) if not k.startswith("__")})
    ns.Engine = Engine
    return ns


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=2, help="solves of each position per setting (default 2)")
    ap.add_argument("--sizes", type=int, nargs="+", default=[24, 26], help="cards left (default 24 26)")
    ap.add_argument("--positions", type=int, nargs="+", default=[5, 2],
                    help="positions per size, in the order of --sizes (default 5 2)")
    args = ap.parse_args()
    thr = [1]
    solver._core = patched_core(thr)
    total = [0.0, 0.0]
    print(f"open mode, margin, reach any, table 256 MB; best of {args.reps}; CPU seconds")
    print(f"{'cards':>5} {'pos':>3} {'value':>5} {'off s':>7} {'on s':>7} {'change':>7} {'off nodes':>12} {'on nodes':>12}")
    for size, npos in zip(args.sizes, args.positions):
        for j in range(npos):
            pos = random_position(2024 + 1000 * size + j, size)
            best = [float("inf"), float("inf")]
            values, nodes = set(), [0, 0]
            for r in range(args.reps):
                for t in ((0, 1) if r % 2 == 0 else (1, 0)):
                    thr[0] = t
                    t0 = time.process_time()
                    sol = solver.solve(pos, mode="open", objective="margin", tt_mb=256)
                    best[t] = min(best[t], time.process_time() - t0)
                    values.add(sol.value)
                    nodes[t] = sol.nodes
            if len(values) != 1:
                sys.exit(f"values differ on {size} cards #{j}: {values}")
            total[0] += best[0]
            total[1] += best[1]
            print(f"{size:>5} {j:>3} {str(values.pop()):>5} {best[0]:7.2f} {best[1]:7.2f}"
                  f" {100 * (best[1] / best[0] - 1):+6.1f}% {nodes[0]:>12,} {nodes[1]:>12,}", flush=True)
    print(f"total: off {total[0]:.2f} s, on {total[1]:.2f} s ({100 * (total[1] / total[0] - 1):+.1f}%)")


if __name__ == "__main__":
    main()
