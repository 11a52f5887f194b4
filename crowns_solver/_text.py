"""Small text helpers shared by the modules' messages, output and reports."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["count", "intervals_over", "number", "percent", "sets_hold"]


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


def intervals_over(n: int | Iterable[int], unit: str, plural: str | None = None, *, each: str = "") -> str:
    """What a chart's error bars are: ``"95% intervals over 1,200 deals"``.

    Every chart whose error bars are 95% confidence intervals says so in its title, and
    over what: the observations the interval treats as independent (deals of a duplicate
    match, where both games of a deal share its cards; games; dealt hands; endgame
    positions), and how many.

    Parameters
    ----------
    n : int or iterable of int
        The number of observations, or one number per point of the chart (shown as a
        range, ``"38-45 positions"``, when they differ).
    unit : str
        The observation, singular (``"deal"``, ``"game"``).
    plural : str, optional
        Its plural when it is not the unit plus "s".
    each : str
        Words after the count, e.g. ``"per point"`` or ``"per match"``.

    Returns
    -------
    str
        E.g. ``intervals_over(400, "deal", each="per match")`` is
        ``"95% intervals over 400 deals per match"``.
    """
    counts = sorted({int(v) for v in n}) if isinstance(n, Iterable) else [int(n)]
    if len(counts) == 1:
        amount = count(counts[0], unit, plural, grouped=True)
    else:
        amount = f"{counts[0]:,}-{counts[-1]:,} {plural or unit + 's'}"
    return f"95% intervals over {amount}" + (f" {each}" if each else "")


def number(x: float, spec: str = ".2f") -> str:
    """``format(x, spec)``, except that a number which reads zero has no sign.

    Rounding leaves the sign of a small number behind: ``format(-0.001, ".2f")`` is
    ``"-0.00"`` and ``format(0.001, "+.2f")`` ``"+0.00"``, which read as a loss or a
    gain that the digits do not show.  Every table, report and chart text of the project
    formats its signed or possibly negative numbers through this function, so a zero
    reads ``0.00`` wherever it is shown (an exact 0 as well: ``number(0, "+.2f")`` is
    ``"0.00"``).  Python's own ``z`` option (PEP 682) drops only a minus sign, not a
    requested plus.

    Parameters
    ----------
    x : float
        The number (int, float or numpy scalar; NaN and infinities are formatted as
        ``format`` does).
    spec : str
        A format specification without a width, e.g. ``".2f"``, ``"+.1f"``, ``".1%"``
        or ``".3g"``; pad the returned text for a column.

    Returns
    -------
    str
        The text, e.g. ``number(-0.001)`` is ``"0.00"``, ``number(-0.006)`` ``"-0.01"``
        and ``number(1.5, "+.1f")`` ``"+1.5"``.
    """
    if spec.startswith(".") and spec.endswith("%") and spec[1:-1].isdigit():   # a rate: rounded as percent() does
        return percent(x, int(spec[1:-1]))
    text = format(x, spec)
    digits = [c for c in text if c.isdigit()]
    if text[:1] in "+-" and digits and set(digits) == {"0"}:
        return text[1:]
    return text


def percent(x: float, places: int = 1) -> str:
    """A rate as a percentage rounded half up from the digits the rate is written with:
    ``percent(0.1125)`` is ``"11.3%"`` and ``percent(0.125, 0)`` ``"13%"``.

    Python's ``format(x, ".1%")`` multiplies the binary float by 100 first and then rounds
    half to even, so 0.1125 read ``11.2%`` in a headline beside ``0.113`` in its table, and
    0.375 and 0.125 read ``38%`` and ``12%`` (session 24).  The study reports' text
    formats its percentages through this function.

    Parameters
    ----------
    x : float
        The rate (int, float or numpy scalar); NaN and infinities are formatted as
        ``format(x, ".1%")`` does.
    places : int
        Decimals of the percentage, >= 0.

    Returns
    -------
    str
        E.g. ``"26.8%"``; a percentage that reads zero has no sign.
    """
    from decimal import ROUND_HALF_UP, Decimal

    x = float(x)
    if x != x or x in (float("inf"), float("-inf")):
        return format(x, f".{places}%")
    value = (Decimal(repr(x)) * 100).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return number(value, f".{places}f") + "%"


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
