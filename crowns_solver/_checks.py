"""Argument checks shared by several modules (internal: not part of the public API)."""

from __future__ import annotations

import numbers
from collections.abc import Collection, Iterable, Mapping
from typing import Any

from .errors import CrownsError, RunnerError


def check_whole_number(name: str, value: Any, lo: int, hi: int | None = None, *, why: str = "",
                       error: type[CrownsError] = RunnerError) -> int:
    """`value` as an int, checked to be a whole number from `lo` to `hi` (counts, seeds).

    Parameters
    ----------
    name : str
        The argument's name, as the caller's API spells it (``"games"``): the message
        starts with it and the error carries it (``arguments``), so that the ``crowns``
        command names the option instead (``--games``).
    value : Any
        What was given: an int or a NumPy integer (not a bool, a float or a string).
    lo, hi : int
        Smallest and largest value accepted (`hi` None: no upper bound).
    why : str
        Why there is an upper bound, said in the message after it (e.g. ``"the results
        are held in memory"``).
    error : type of CrownsError
        What to raise (default :class:`~crowns_solver.errors.RunnerError`).

    Returns
    -------
    int

    Raises
    ------
    error
        ``"{name} must be a whole number >= {lo}, got ..."`` or ``"{name} must be at most
        {hi} (why), got ..."``.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < lo:
        raise error(f"{name} must be a whole number >= {lo}, got {value!r}", argument=name)
    if hi is not None and value > hi:
        because = f" ({why})" if why else ""
        raise error(f"{name} must be at most {hi:,}{because}, got {int(value):,}", argument=name)
    return int(value)


def check_flag(name: str, value: Any, error: type[CrownsError] = RunnerError) -> bool:
    """`value` as a bool, checked to be True or False (a NumPy bool too).

    ``bool("no")`` is True: a flag given as text or a number (``rotate="no"``,
    ``force=0.0``...) used to be taken for its truth value, so ``"no"`` switched the
    option on (session 22; King's Crowns' `rotate` was checked since session 19).

    Parameters
    ----------
    name : str
        The argument's name, as the caller's API spells it (the error carries it).
    value : Any
        What was given.
    error : type of CrownsError
        What to raise (default :class:`~crowns_solver.errors.RunnerError`).

    Returns
    -------
    bool

    Raises
    ------
    error
        ``"{name} must be True or False, got ..."``.
    """
    if isinstance(value, bool):
        return value
    import numpy as np   # here, not at the top: the crowns command's start-up stays light

    if not isinstance(value, np.bool_):
        raise error(f"{name} must be True or False, got {value!r}", argument=name)
    return bool(value)


def one_of(values: Iterable[str]) -> str:
    """``'a' or 'b'`` / ``'a', 'b' or 'c'``: the allowed values of an option, for messages.

    Parameters
    ----------
    values : iterable of str
        The allowed values, in the order the message lists them.

    Returns
    -------
    str
    """
    quoted = [repr(v) for v in values]
    return quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"


def is_choice(value: Any, choices: Collection[str]) -> bool:
    """Whether `value` is a string among `choices` (a NumPy ``str_`` is a str too).

    The one test behind every option whose values are words.  ``value in choices`` alone
    took a one-element NumPy array (``np.array(["nearest"]) == "nearest"`` is a true
    array), which was then stored and broke later with a TypeError (hashing, JSON), and
    raised NumPy's "truth value of an empty array is ambiguous" for an empty one
    (session 24); anything that is not a str is refused before the comparison.

    Parameters
    ----------
    value : Any
        What was given.
    choices : collection of str
        The allowed words (a tuple, a set, or a dict's keys).

    Returns
    -------
    bool
    """
    return isinstance(value, str) and value in choices


def check_choice(name: str, value: Any, choices: Collection[str], error: type[CrownsError] = RunnerError, *,
                 argument: str | None = "") -> str:
    """`value` as a plain str, checked to be one of the words `choices` (:func:`is_choice`).

    Parameters
    ----------
    name : str
        The option's name, as the caller's API spells it (``"reach"``): the message starts
        with it.
    value : Any
        What was given: a str or a NumPy ``str_`` (kept as a plain str, so that it hashes,
        compares and is written as JSON like the str it stands for).
    choices : collection of str
        The allowed words, listed in the message in their order.
    error : type of CrownsError
        What to raise (default :class:`~crowns_solver.errors.RunnerError`).
    argument : str or None
        The argument the error carries (``arguments``; the ``crowns`` command names the
        option as typed instead); default `name`, None for none.

    Returns
    -------
    str

    Raises
    ------
    error
        ``"{name} must be 'a' or 'b', got ..."``, with the value's repr (``array(['b'],
        dtype='<U1')`` for a NumPy array).
    """
    if not is_choice(value, choices):
        raise error(f"{name} must be {one_of(choices)}, got {value!r}",
                    argument=name if argument == "" else argument)
    return str.__str__(value)   # np.str_("any") -> "any"


#: Unicode categories a display name may not hold: controls (newline, tab, ESC, which
#: break the printed table or drive the terminal), format characters (bidirectional
#: overrides that reorder what is shown), surrogates, private-use and unassigned code
#: points, and line/paragraph separators.
NAME_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
#: Format characters that emoji and several scripts need, allowed in names: zero-width
#: non-joiner and joiner (family emoji, Persian, Indic scripts) and the tag characters of
#: flag emoji such as England's.
NAME_ALLOWED_FORMAT = frozenset({0x200C, 0x200D, *range(0xE0020, 0xE0080)})


def control_char(name: str) -> str | None:
    """The first character of `name` that a display name may not hold, as ``U+XXXX``, or
    None (see :data:`NAME_REFUSED_CATEGORIES`; the joiners of emoji sequences are allowed).

    One rule for every name the library prints: the Five Crowns score keeper's players
    and the Cross Kings players' display names (``Rules.names``, ``--names``).

    Parameters
    ----------
    name : str

    Returns
    -------
    str or None
        E.g. ``"U+001B"`` for an escape character.
    """
    import unicodedata

    for ch in name:
        if unicodedata.category(ch) in NAME_REFUSED_CATEGORIES and ord(ch) not in NAME_ALLOWED_FORMAT:
            return f"U+{ord(ch):04X}"
    return None


#: Longest display name, in characters: names are printed in tables and on the grid's
#: status lines (a name of a million characters was accepted: session-18 probe).
NAME_MAX_CHARS = 40


def name_too_long(name: str) -> str | None:
    """Why `name` is too long for a display name (its length and the limit, with the
    name's start), or None if it has at most :data:`NAME_MAX_CHARS` characters.

    Parameters
    ----------
    name : str

    Returns
    -------
    str or None
        E.g. ``"'Aaaaaaaaaaaaaaaaaaaa...' is 1,000,000 characters long; a name has at most 40"``.
    """
    if len(name) <= NAME_MAX_CHARS:
        return None
    return f"{name[:20] + '...'!r} is {len(name):,} characters long; a name has at most {NAME_MAX_CHARS}"


def text_width(text: str) -> int:
    """Columns `text` takes on a terminal: 2 for a wide (East Asian) character or an
    emoji, 0 for a combining accent or a joiner (the ``wcwidth`` library; names are
    printable by :func:`name_problem`, and anything it cannot measure counts one column
    a character).

    Parameters
    ----------
    text : str

    Returns
    -------
    int
    """
    from wcwidth import wcswidth

    width = wcswidth(text)
    return len(text) if width < 0 else width


def pad(text: object, width: int, align: str = ">") -> str:
    """`text` padded with spaces to `width` terminal columns (:func:`text_width`), right-
    (``">"``) or left-aligned (``"<"``), so that columns of names line up whatever
    script or emoji the names hold; a longer text is returned whole.

    Parameters
    ----------
    text : object
        Printed with ``str()``.
    width : int
        Columns.
    align : {">", "<"}

    Returns
    -------
    str
    """
    text = str(text)
    fill = " " * max(0, width - text_width(text))
    return fill + text if align == ">" else text + fill


def clean_name(name: str) -> str:
    """`name` as the library keeps and prints it: runs of white space (spaces, tabs,
    newlines) collapsed to one space, none at either end."""
    return " ".join(name.split())


def name_key(name: str) -> str:
    """What two display names are compared by: Unicode compatibility form (NFKC: a
    composed and a decomposed "José", full-width "Ａｎｎ" and "Ann" are one name), the
    invisible joiners a name may hold left out, runs of white space as one
    (:func:`clean_name`), case ignored. Two names with the same key print alike, so one
    game's players need different keys (the score keeper; Cross Kings' two players).

    Parameters
    ----------
    name : str

    Returns
    -------
    str
    """
    import unicodedata

    text = unicodedata.normalize("NFKC", name)
    # the joiners a name may hold are invisible: "Ann" and "Ann" + ZWJ print alike
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    return clean_name(text).casefold()


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a display name, or None: the one rule behind every name the
    library prints (the Five Crowns score keeper's players, typed or given to the API, and
    the Cross Kings players' ``Rules.names`` and ``--names``).

    A name may not be empty or blank, may not hold a character of
    :data:`NAME_REFUSED_CATEGORIES` (:func:`control_char`; checked on the name as given,
    so a newline or tab is refused rather than collapsed), and once cleaned
    (:func:`clean_name`) has at most :data:`NAME_MAX_CHARS` characters.

    Parameters
    ----------
    name : str

    Returns
    -------
    str or None
        A message that names the problem and the offending character or length, e.g.
        ``"the name 'A\\x1bB' holds the control character U+001B (names are printed, so
        only printable text is allowed)"``; callers prefix where the name came from.
    """
    if not name.strip():
        return f"a name cannot be empty or blank (got {name!r})"
    bad = control_char(name)
    if bad is not None:
        return (f"the name {name!r} holds the control character {bad}"
                " (names are printed, so only printable text is allowed)")
    return name_too_long(clean_name(name))


def unknown_keys(given: Any, known: Any, what: str, also: Any = (), also_why: str = "", *,
                 misspelt_only: bool = False) -> str | None:
    """Why the keys `given` of a JSON object are not all keys of `known`, or None.

    A misspelt key used to be skipped silently, so the object meant something else
    (session 24: a Cross Kings position with ``"facedown"`` had every diagonal card face
    up).  Each unknown key is named with the close known key, if any
    (:func:`difflib.get_close_matches`), and the known keys are listed.

    Parameters
    ----------
    given : iterable of str
        The object's keys, in its order.
    known : collection of str
        Every key the reader accepts, listed in the message in this order.
    what : str
        What the object is, e.g. ``"a position"``.
    also : collection of str
        Keys accepted too but listed apart, after `also_why` (e.g. what other writers add
        beside the object's own keys).
    also_why : str
        Says what the `also` keys are, e.g. ``"written beside them by play and show --json"``.
    misspelt_only : bool, default False
        Refuse only the unknown keys that look like a misspelling of a known one (the
        same key but for case, ``-`` or space for ``_``, or :func:`difflib.get_close_matches`
        ratio >= 0.8 after that folding: ``'tie'``, ``'first_deal'``, ``'Ties'``), for
        readers that keep other keys as the user's own (a score-keeper file's
        ``"place"`` or ``"notes"``).

    Returns
    -------
    str or None
        ``"unknown key 'facedown' (did you mean 'face_down'?); a position has the keys
        grid, marker, ..."``, or None when every key is known (with `misspelt_only`: when
        no key looks like a misspelling).
    """
    import difflib

    known, also = list(known), list(also)
    everything = known + also
    folded = {_fold_key(k): k for k in everything}

    def close_key(key: Any) -> str | None:
        if not isinstance(key, str):
            return None
        if misspelt_only:
            near = difflib.get_close_matches(_fold_key(key), list(folded), n=1, cutoff=0.8)
            return folded[near[0]] if near else None
        near = difflib.get_close_matches(key, everything, n=1)
        return near[0] if near else None

    bad = [k for k in given if k not in known and k not in also]
    if misspelt_only:
        bad = [k for k in bad if close_key(k) is not None]
    if not bad:
        return None
    parts = []
    for key in bad:
        close = close_key(key)
        parts.append(f"{key!r}" + (f" (did you mean {close!r}?)" if close else ""))
    extra = f" (and {', '.join(also)}, {also_why})" if also else ""
    return f"unknown key{'s' if len(bad) > 1 else ''} {', '.join(parts)}; {what} has the keys {', '.join(known)}{extra}"


def _fold_key(key: str) -> str:
    """`key` as :func:`unknown_keys` compares it for a misspelling: case folded, ``-`` and
    spaces read as ``_``."""
    return key.casefold().replace("-", "_").replace(" ", "_")


def json_kind(value: object) -> str:
    """What a field read from JSON holds, in JSON's words, for a message.

    A position's grid given as null said ``got NoneType`` until session 23, and a
    score-keeper file's ``"finished": true`` was reported as ``True`` until session 24:
    a message about a file speaks the file's language.

    Parameters
    ----------
    value : object
        A value as :func:`json.loads` returns it.

    Returns
    -------
    str
        ``null``, ``true`` or ``false``; ``an object``; ``a string ('Ann')`` (or ``a
        string`` when longer than 20 characters); a number as written; ``a list``; else
        the Python type's name.
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Mapping):
        return "an object"
    if isinstance(value, str):
        return f"a string ({value!r})" if len(value) <= 20 else "a string"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "a list"
    return type(value).__name__
