"""The Python examples in README.md run and print what the README shows."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S) if README.is_file() else []


@pytest.mark.skipif(not BLOCKS, reason="README.md not beside the tests (installed elsewhere)")
@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_examples(block):
    from fractions import Fraction

    parser = doctest.DocTestParser()
    test = parser.get_doctest(block, {"Fraction": Fraction}, "README", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0, f"{runner.failures} README example(s) print something else"
