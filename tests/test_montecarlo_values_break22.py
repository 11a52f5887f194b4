"""``montecarlo.run`` and what a results file cannot hold (session 22 break): a chunk whose
rows hold a value JSON cannot write (an object, a set) ended a run with ``out=`` in a bare
``TypeError: Object of type object is not JSON serializable`` after the chunk had run, and
the same again on every resume; and ``params`` or ``meta`` that are not mappings raised
``TypeError`` from ``dict()``.  Each is a RunnerError saying what is wrong (the column,
the argument); without ``out`` such values stay allowed in the returned table."""

from __future__ import annotations

import json

import pytest
from mc_break22 import objects, sets

from crowns_solver import montecarlo
from crowns_solver.errors import RunnerError


@pytest.mark.parametrize("chunk, kind, column", [(objects, "object", "note"), (sets, "set", "held")])
def test_a_value_a_results_file_cannot_hold_is_named(tmp_path, chunk, kind, column):
    out = tmp_path / "r.jsonl"
    message = (rf"^mc_break22\.{chunk.__name__} \(chunk 0\) returned {kind} values in column '{column}', which a"
               r" results file cannot hold: return numbers, text, True/False or None \(or lists of them\);"
               r" nothing of this chunk was written$")
    with pytest.raises(RunnerError, match=message):
        montecarlo.run(chunk, 4, chunk_size=2, workers=1, out=out)
    lines = out.read_text().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["format"] == "crowns-montecarlo"   # the header only
    with pytest.raises(RunnerError, match=message):   # a resume says the same
        montecarlo.run(chunk, 4, chunk_size=2, workers=1, out=out)
    # in memory, without a results file, the values are the caller's business
    assert montecarlo.run(chunk, 4, chunk_size=2, workers=1)["points"].tolist() == [0, 1, 0, 1]


@pytest.mark.parametrize("name", ["params", "meta"])
@pytest.mark.parametrize("given, kind", [([("a", 1)], "list"), ("a=1", "str"), (3, "int")])
def test_params_and_meta_must_be_mappings(name, given, kind):
    with pytest.raises(RunnerError, match=rf"^{name} must be a mapping \(a dict of names and values\), got {kind}$"):
        montecarlo.run(sets, 2, workers=1, **{name: given})
