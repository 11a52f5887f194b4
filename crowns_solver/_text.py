"""Small text helpers shared by the modules' messages, output and reports."""

from __future__ import annotations

__all__ = ["count", "sets_hold"]


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


def sets_hold(sets: int) -> str:
    """``"1 set holds"`` or ``"2 sets hold"``: the Five Crowns card sets in play as the
    subject of the duplicate-card messages (``3 copies of QH, but 1 set holds only 2``).

    Parameters
    ----------
    sets : int
        116-card sets shuffled together (1 or 2; any integer reads correctly).

    Returns
    -------
    str
        The count, the noun and the verb agreeing with it.
    """
    return f"{count(sets, 'set')} {'holds' if abs(sets) == 1 else 'hold'}"
