"""Examples pasted in docs/ that the session-18 probe found stale, rerun.

docs/cross_kings_players.md showed ``[(e.cell, e.value, e.exact) for e in
evaluate_moves(q, ...)]`` answering with a formatted table the expression does not print;
docs/cross_kings_solver.md showed a fresh deal's anytime analysis with the horizon
evaluation the library no longer uses by default ("heuristic at the horizon").
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import numpy as np

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_players_doc_evaluate_moves_example_prints_what_it_shows():
    from crowns_solver.cross_kings import Position
    from crowns_solver.cross_kings.players import evaluate_moves, make_player, seat_view

    text = (DOCS / "cross_kings_players.md").read_text()
    expr = ">>> [(e.cell, e.value, e.exact) for e in evaluate_moves(q, node_limit=2_000_000)]\n"
    shown = text[text.index(expr) + len(expr):].splitlines()[0]
    # the doc's position: greedy play from Position.random with generator seed 3
    rng = np.random.default_rng(3)
    q = Position.random(rng)
    greedy = make_player("greedy")
    while q.cards_left > 12:
        q = q.play(greedy.choose(seat_view(q, q.to_move), rng))
    before = text[:text.index(expr)].splitlines()
    header = max(i for i, line in enumerate(before) if line.split() == ["0", "1", "2", "3", "4", "5"])
    assert [ln.rstrip() for ln in q.render().splitlines()[1:8]] == before[header + 1:header + 8]
    got = [(e.cell, e.value, e.exact) for e in evaluate_moves(q, node_limit=2_000_000)]
    assert repr(got) == shown
    assert eval(shown, {"Fraction": Fraction}) == got


def test_solver_doc_fresh_deal_names_the_default_horizon_evaluation():
    from crowns_solver.cross_kings import solve
    import inspect

    text = (DOCS / "cross_kings_solver.md").read_text()
    block = text[text.index("$ crowns cross-kings solve --random 1\n"):]
    block = block[:block.index("```")]
    default = inspect.signature(solve).parameters["evaluation"].default
    assert re.search(rf"estimate \S+ \(search depth \d+ plies, {default} evaluation at the horizon\)", block)
