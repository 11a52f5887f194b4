"""Small text helpers shared by the modules' messages, output and reports."""

from __future__ import annotations

__all__ = ["count"]


def count(n: int, noun: str, plural: str | None = None, *, grouped: bool = False) -> str:
    """``n`` and the noun in the right number: ``count(1, "player")`` is ``"1 player"``,
    ``count(10, "game")`` ``"10 games"``, ``count(2, "copy", "copies")`` ``"2 copies"``.

    Parameters
    ----------
    n : int
        How many (any integer; only 1 and -1 take the singular).
    noun : str
        The singular noun.
    plural : str, optional
        The plural when it is not the noun plus "s".
    grouped : bool
        Write ``n`` with thousands separators (``"1,200 games"``), as the study reports do.

    Returns
    -------
    str
    """
    number = f"{n:,}" if grouped else f"{n}"
    return f"{number} {noun if abs(n) == 1 else (plural or noun + 's')}"
