"""Reading the user's files and guarding the user's files: shared by every command.

Two rules of the house live here: a file that is not UTF-8 text is a user error with a
one-line message (never a ``UnicodeDecodeError`` traceback), and an existing file is
never replaced unless the user asked for it (``--force``).
"""

from __future__ import annotations

import os
import re
import shlex
from pathlib import Path

from .errors import (CrownsError, EmptyPathError, FolderPathError, MissingFolderError, OutputExistsError,
                     OutputPathError, SamePathError)

__all__ = ["MAX_INT_DIGITS", "MAX_TEXT_BYTES", "check_distinct", "check_file_path", "check_folder_path", "check_input_given",
           "check_numbers", "check_path_given", "check_run_outputs", "check_writable", "decode_utf8", "int_digits",
           "json_int",
           "names_folder", "read_text", "resume_hint", "too_long_number", "check_replaceable", "no_such_file", "write_csv", "write_error"]

#: Largest text input read (positions, records, decks are far smaller).
MAX_TEXT_BYTES = 64 * 2**20
#: Most digits of a whole number read from a file: Python's own limit for converting text
#: to int and back (``sys.get_int_max_str_digits()``, 4,300 by default).  A longer number
#: is a user error naming the field, never the ``ValueError`` traceback Python raises.
MAX_INT_DIGITS = 4300


class TooLongNumber:
    """What :func:`json_int` reads for a whole number of more than :data:`MAX_INT_DIGITS`
    digits: the digit count, so that :func:`check_numbers` can name the field holding it."""

    __slots__ = ("digits",)

    def __init__(self, digits: int) -> None:
        self.digits = digits

    def __repr__(self) -> str:
        return f"<a number of {self.digits:,} digits>"


def json_int(text: str) -> int | TooLongNumber:
    """The ``parse_int`` hook of every JSON reader: `text` as an int, or a
    :class:`TooLongNumber` if it has more than :data:`MAX_INT_DIGITS` digits (which
    ``int()`` refuses with a ``ValueError`` that would end ``json.loads``); the reader
    then calls :func:`check_numbers` to refuse it naming the field."""
    digits = len(text.lstrip("+-"))
    if digits > MAX_INT_DIGITS:
        return TooLongNumber(digits)
    return int(text)


def int_digits(number: int) -> int:
    """Decimal digits of abs(`number`), exactly, without ``str()`` (which refuses numbers
    of more than :data:`MAX_INT_DIGITS` digits)."""
    n = abs(number)
    k = max(1, int(n.bit_length() * 0.30102999566398120))   # log10(2): k or k + 1 digits
    return k + 1 if n >= 10**k else k


def _digits(value: object) -> int:
    """Decimal digits of a too-long number (a :class:`TooLongNumber`, or an int that TOML
    read in hex, octal or binary, which Python does not limit); 0 if it is not one."""
    if isinstance(value, TooLongNumber):
        return value.digits
    if (isinstance(value, int) and not isinstance(value, bool) and abs(value).bit_length() > 3.3 * MAX_INT_DIGITS
            and abs(value) >= 10**MAX_INT_DIGITS):
        return int_digits(value)
    return 0


def check_numbers(data: object, error: type[CrownsError], where: str = "") -> None:
    """Refuse a whole number of more than :data:`MAX_INT_DIGITS` digits anywhere in `data`
    (parsed JSON or TOML: dicts, lists, scalars), naming the field holding it.

    Parameters
    ----------
    data : object
        The parsed file.
    error : type
        The CrownsError subclass to raise.
    where : str
        The start of the message (``"deck.json: "``), e.g. the file name.

    Raises
    ------
    CrownsError
        An instance of `error`, e.g. ``g.json: entry 'seed' is a number of 5,001 digits;
        at most 4,300 are read``.
    """
    stack: list[tuple[str, object]] = [("", data)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            stack.extend((f"{path}[{k!r}]" if path else repr(k), v) for k, v in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend((f"{path}[{i}]", v) for i, v in reversed(list(enumerate(value))))
        elif digits := _digits(value):
            field = f"entry {path}" if path else "the value"
            raise error(f"{where}{field} is a number of {digits:,} digits; at most {MAX_INT_DIGITS:,} are read")


def too_long_number(text: str, exc: ValueError) -> str | None:
    """The message for a whole number too long to convert, if `exc` (raised by a parser
    such as ``tomllib.loads`` on `text`) is Python's refusal of one, naming the entry
    (``entry 'salvation' is a number of 5,001 digits; ...``); else None."""
    found = re.search(r"has (\d+) digits", str(exc))
    if "integer string conversion" not in str(exc) or found is None:
        return None
    key = re.search(r"^[ \t]*([^=\n]+?)[ \t]*=[ \t]*[+-]?[0-9_]{%d,}" % (MAX_INT_DIGITS + 1), text, re.MULTILINE)
    field = f"entry {key.group(1).strip()!r}" if key else "a number"
    return f"{field} is a number of {int(found.group(1)):,} digits; at most {MAX_INT_DIGITS:,} are read"


def read_text(path: str | os.PathLike[str], error: type[CrownsError], *, what: str = "file") -> str:
    """The contents of a UTF-8 text file, without a leading byte-order mark and with
    universal newlines.

    Parameters
    ----------
    path : path-like
    error : type
        The CrownsError subclass to raise when the file is not UTF-8 text (e.g.
        ``RecordError`` for a game record).
    what : str
        What the file is (``"game record"``), for the message when `path` is empty.

    Returns
    -------
    str

    Raises
    ------
    CrownsError
        An instance of `error` if the file is not UTF-8 text (binary, other encoding),
        naming the file and the first bad byte's offset; if it is not a regular file (a
        folder, a device such as /dev/zero); if it exceeds :data:`MAX_TEXT_BYTES`; or if
        `path` is empty (:func:`check_input_given`).
    OSError
        If the file cannot be read.
    """
    check_input_given(path, what, error)
    p = Path(os.fsdecode(path))
    if p.exists() and not p.is_file():
        raise error(f"{os.fspath(path)}: not a regular file")
    if p.exists() and p.stat().st_size > MAX_TEXT_BYTES:
        raise error(f"{os.fspath(path)}: {p.stat().st_size:,} bytes is too large for this input"
                    f" (at most {MAX_TEXT_BYTES:,})")
    text = decode_utf8(p.read_bytes(), f"{os.fspath(path)}: not a UTF-8 text file", error)
    text = text.removeprefix("\ufeff")   # a byte-order mark (Windows editors write one) is not content
    return text.replace("\r\n", "\n").replace("\r", "\n")   # universal newlines, as a text file reads


def no_such_file(path: str | os.PathLike[str]) -> str:
    """The one wording of a missing input file, as the system says it and as every command
    prints a ``FileNotFoundError`` (``crowns: error: x.json: No such file or directory``),
    for the messages that say more than that (session 21: ``analyse`` and ``play --load``
    said ``no such file: 'x.json'``, ``show`` and ``solve`` the system's words).

    Parameters
    ----------
    path : path-like
        The file that does not exist, as the user gave it.

    Returns
    -------
    str
        ``"x.json: No such file or directory"``.
    """
    import errno

    return f"{os.fsdecode(path)}: {os.strerror(errno.ENOENT)}"


def decode_utf8(data: bytes, what: str, error: type[CrownsError]) -> str:
    """`data` decoded as UTF-8.

    Parameters
    ----------
    data : bytes
    what : str
        The start of the message when `data` is not UTF-8 (``"<file>: not a UTF-8 text
        file"``); the first bad byte and its offset are added.
    error : type
        The CrownsError subclass to raise.

    Returns
    -------
    str

    Raises
    ------
    CrownsError
        An instance of `error` if `data` is not UTF-8.
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{what} (byte 0x{exc.object[exc.start]:02x} at offset {exc.start})") from None
    return text


def check_input_given(path: object, what: str, error: type[CrownsError]) -> None:
    """Refuse an empty input path: ``Path("")`` is the current folder, which would then be
    reported as "not a regular file" or ".: Is a directory".

    Parameters
    ----------
    path : object
        The path as given.
    what : str
        What the file is, for the message (``"results file"``).
    error : type
        The CrownsError subclass to raise.

    Raises
    ------
    CrownsError
        An instance of `error` if `path` is empty or only blanks, e.g. ``no results file
        given; the path is empty ('')``; or if it is not a str, bytes or path-like object
        (found by the session-18 probe: ``open()`` takes an int as a file descriptor, so
        ``read_results(0)`` read standard input and ``read_results(True)`` read, then
        closed, standard output; None and floats gave a TypeError).
    """
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise error(f"the {what} path must be a str or path-like, got {path!r}")
    if not os.fsdecode(path).strip():
        raise error(f"no {what} given; the path is empty ({os.fsdecode(path)!r})")


def names_folder(path: str | os.PathLike[str]) -> bool:
    """Whether `path`, as written, can only name a folder: it ends in a path separator
    (``out/``), or its last part is ``.`` or ``..``.

    ``pathlib.Path`` drops a trailing separator (``Path("out/")`` is ``out``), so this is
    decided on the text the user gave.

    Parameters
    ----------
    path : str or path-like

    Returns
    -------
    bool
    """
    return os.path.basename(os.fsdecode(path)) in ("", ".", "..") or bool(
        os.altsep and os.fsdecode(path).endswith(os.altsep))


def _label(option: str, path: str | os.PathLike[str]) -> str:
    """The option and the path as the user wrote them: ``--out 'my dir/'`` for a CLI option
    (quoted as a shell would need it), ``out='r/'`` for an API argument."""
    name = os.fsdecode(path)
    if option.startswith("-"):
        return f"{option} {shlex.quote(name)}"
    if option.isidentifier():
        return f"{option}={name!r}"
    return f"{option} {name!r}"


def check_path_given(path: str | os.PathLike[str], option: str, *, kind: str = "file",
                     what: str = "") -> str | os.PathLike[str]:
    """Refuse an empty output path, or a file path that names a folder, naming the option
    it came from.

    An empty name would otherwise be skipped silently (``if args.csv:``), or mean the
    current folder (``Path("")`` is ``.``); a file name ending in ``/`` would fail only
    when the file is written, after all the work (``open``), or silently lose its slash
    (``Path``).  Every command and API call that writes to a path the user gives checks
    it here first.

    Parameters
    ----------
    path : str or path-like
        The path as given.
    option : str
        Where it came from, for the message: the CLI option (``"--out"``) or the API
        argument (``"out_dir"``).
    kind : str
        ``"file"`` or ``"folder"``: what `path` must name.
    what : str
        What the file is (``"results file"``), for the message when it is a folder.

    Returns
    -------
    str or path-like
        `path`, unchanged.

    Raises
    ------
    EmptyPathError
        If `path` is empty or only blanks, e.g. ``--out needs a file name; the path is
        empty ('')``.
    FolderPathError
        If `kind` is ``"file"`` and `path` is an existing folder (``--out adir is a
        folder; give a file name``) or names one (:func:`names_folder`: ``--csv new/
        names a folder; give a file name``).
    """
    if isinstance(path, (str, os.PathLike)):
        if not os.fsdecode(path).strip():
            raise EmptyPathError(f"{option} needs a {kind} name; the path is empty ({os.fsdecode(path)!r})")
        if kind == "file" and os.path.isdir(path):
            raise FolderPathError(f"{_label(option, path)} is a folder; give a file name"
                                  + (f" for the {what}" if what else ""))
        if kind == "file" and names_folder(path):
            raise FolderPathError(f"{_label(option, path)} names a folder; give a file name")
    return path


def _check_parent(p: Path, label: str) -> None:
    """The folder `p` lies in must exist (nothing creates it); name the part that is missing
    or is a file."""
    parent = p.parent
    if parent.is_dir():
        return
    for part in [*reversed(parent.parents), parent]:
        if part.is_dir():
            continue
        if part.exists():
            kind = "a file, not a folder" if part.is_file() else "not a folder"
            raise MissingFolderError(f"{label}: {part} is {kind}; choose another path")
        break
    raise MissingFolderError(f"{label}: the folder {parent} does not exist; create it first or choose another path")


def check_file_path(path: str | os.PathLike[str], option: str, *, what: str = "") -> Path:
    """The checks every output FILE goes through before any work: a path is given, it names
    a file (not a folder), and the folder it lies in exists.  An existing file passes (see
    :func:`check_writable` to refuse it; a results file is resumed).

    Parameters
    ----------
    path : str or path-like
        The path as given.
    option : str
        Where it came from, named in every message: the CLI option (``"--out"``) or the
        API argument (``"out"``).
    what : str
        What is written (``"results file"``), for the messages; empty: a file.

    Returns
    -------
    Path

    Raises
    ------
    EmptyPathError
        If `path` is empty or only blanks.
    FolderPathError
        If `path` ends in a path separator (or ``.``/``..``), or is an existing folder.
    MissingFolderError
        If the folder `path` lies in does not exist or is a file (the message names it).
    """
    check_path_given(path, option, what=what)
    p = Path(path)
    _check_parent(p, _label(option, path))
    return p


def check_folder_path(path: str | os.PathLike[str], option: str) -> Path:
    """The checks an output FOLDER goes through before any work (it is created later): a
    path is given, it is not a file, and the folder it lies in exists.

    Parameters
    ----------
    path : str or path-like
        The path as given.
    option : str
        Where it came from, named in every message (``"--out"``, ``"out_dir"``).

    Returns
    -------
    Path

    Raises
    ------
    EmptyPathError
        If `path` is empty or only blanks.
    OutputExistsError
        If `path` exists and is not a folder.
    MissingFolderError
        If the folder `path` lies in does not exist or is a file.
    """
    check_path_given(path, option, kind="folder")
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise OutputExistsError(f"{_label(option, path)} exists and is not a folder; give a folder name")
    _check_parent(p, _label(option, path))
    return p


def check_distinct(*outputs: tuple[str, str | os.PathLike[str] | None],
                   why: str = "one would overwrite the other") -> None:
    """Refuse two output options that name the same file, however spelled (``r.jsonl``,
    ``./r.jsonl``, an absolute path, a symbolic or hard link).

    Parameters
    ----------
    *outputs : (option, path) pairs
        Each output option and its path; a None path (option not given) is skipped.
    why : str
        What would go wrong, for the message.

    Raises
    ------
    SamePathError
        If two of the paths are the same file, e.g. ``--csv and --out name the same file
        (r.jsonl): ...; give them different names``.
    """
    given = [(option, path) for option, path in outputs if path is not None]
    for i, (first, a) in enumerate(given):
        for second, b in given[i + 1:]:
            try:
                same = Path(a).resolve() == Path(b).resolve()
                if not same and os.path.exists(a) and os.path.exists(b):
                    same = os.path.samefile(a, b)
            except (OSError, RuntimeError):  # a symbolic-link loop: not resolvable, refused when written
                same = False
            if same:
                raise SamePathError(f"{first} and {second} name the same file ({os.fsdecode(a)}): {why};"
                                    " give them different names")


def check_writable(path: str | os.PathLike[str], *, force: bool = False,
                   hint: str = "use --force to overwrite it", what: str = "", option: str = "the output path") -> Path:
    """Refuse to replace an existing file unless `force`.

    Parameters
    ----------
    path : path-like
        Where a command is about to write.
    force : bool
        The user asked to overwrite (``--force``, or ``overwrite=True`` in the API).
    hint : str
        How to ask for the overwrite, for the message (the CLI's ``--force`` by default).
    what : str
        What is written (``"game record"``...), for the messages; empty: a file.
    option : str
        The option or argument `path` came from (``"--csv"``), named when it is empty.

    Returns
    -------
    Path

    Raises
    ------
    EmptyPathError, FolderPathError, MissingFolderError
        As :func:`check_file_path` (all are OutputExistsError).
    OutputExistsError
        If `path` exists (as a file) and `force` is false; a CLI `option` is named with
        the path (``--csv out.csv already exists; use --force to overwrite it``).
    """
    p = check_file_path(path, option, what=what)
    if p.exists() and not force:
        # a CLI option is named with its path (`--csv /dev/null already exists`), as the
        # other path checks do, so the user knows which of several outputs is meant
        raise OutputExistsError(f"{_label(option, p) if option.startswith('-') else p} already exists; {hint}")
    return p


def check_replaceable(path: str | os.PathLike[str], option: str, what: str = "file", *, folder: bool = False,
                      why: str = "", hint: str = "choose a file name") -> None:
    """Refuse an output that is saved by replacing the file whole (a temporary file moved
    into place) when `path` exists and is not a regular file: the move would put a file in
    place of a device such as ``/dev/null`` or of a named pipe (``five-crowns play --save
    /dev/null --force`` run as root replaced the device node, session 21).  A symbolic
    link is judged by what it points to.

    The rule of every output option (docs/cli_errors.md, "Devices and named pipes"): an
    output replaced whole (``--save`` files, ``crowns report``'s reports, charts and
    index) or read back (results files, :func:`crowns_solver.montecarlo` refuses those
    itself) must be a regular file, even with ``--force``; an output written in place
    like a shell redirect (``--csv``) may be a device or a named pipe, with ``--force``
    as any existing path.

    Parameters
    ----------
    path : path-like
        The output.
    option : str
        The option or argument it came from, for the message; empty: the message names
        `path` alone (a file inside an output folder, such as a report).
    what : str
        What is saved (``"game record"``), for the message.
    folder : bool
        A folder in place of `path` passes too (a chart folder, replaced by a new one).
    why : str
        Why it must be a regular file, for the message; default: the `what` is saved by
        replacing the file whole.
    hint : str
        What to do instead, for the message.

    Raises
    ------
    OutputExistsError
        If `path` exists and is not a regular file (nor, with `folder`, a folder), even
        with ``--force``.
    """
    p = Path(os.path.realpath(path))
    if p.exists() and not p.is_file() and not (folder and p.is_dir()):
        label = _label(option, path) if option else os.fsdecode(path)
        raise OutputExistsError(f"{label} is not a regular file (a device or a pipe):"
                                f" {why or f'the {what} is saved by replacing the file whole'}; {hint}")


def write_error(exc: OSError, option: str, path: str | os.PathLike[str], what: str = "") -> OutputPathError:
    """The one-line error for an output that could not be written, naming the option and
    the file (an ``OSError`` raised while writing, e.g. "No space left on device", names
    no file: the command printed ``crowns: error: No space left on device``).

    Parameters
    ----------
    exc : OSError
        What writing raised.
    option : str
        The option or argument the path came from (``"--csv"``, ``"out"``).
    path : path-like
        The file that could not be written.
    what : str
        What was written (``"CSV"``), for the message; empty: "it".

    Returns
    -------
    OutputPathError
        To raise ``from None``: ``--csv /dev/full: cannot write the CSV: No space left on
        device``.
    """
    reason = exc.strerror or str(exc)
    return OutputPathError(f"{_label(option, path)}: cannot write {f'the {what}' if what else 'it'}: {reason}")


def write_csv(frame: object, path: str | os.PathLike[str], option: str = "--csv") -> None:
    """Write a table as CSV (``DataFrame.to_csv(path, index=False)``), a failure to write
    said in one line naming the file (:func:`write_error`).

    Parameters
    ----------
    frame : pandas.DataFrame
        The table.
    path : path-like
        The CSV file (checked before any work by :func:`check_run_outputs`).
    option : str
        The option it came from, for the message.

    Raises
    ------
    OutputPathError
        If the file cannot be written (a full disk, a folder without write permission...).
    """
    try:
        frame.to_csv(path, index=False)   # type: ignore[attr-defined]
    except OSError as exc:
        raise write_error(exc, option, path, "CSV") from None


def check_run_outputs(out: str | os.PathLike[str] | None, csv: str | os.PathLike[str] | None, *, force: bool,
                      out_option: str = "--out", csv_option: str = "--csv") -> None:
    """The two outputs of a command that plays many games (``simulate``, ``match``),
    checked before any game is played: the resumable results file `out` and the CSV
    table `csv`.

    Each is given and names a file in an existing folder (:func:`check_file_path`); they
    are not the same file, however spelled (:func:`check_distinct`: the CSV would
    replace the results file after the run, even without `force`); an existing `csv` is
    replaced only with `force` (an existing `out` is resumed).

    Parameters
    ----------
    out, csv : str or path-like or None
        The paths as given (None: option not given).
    force : bool
        The user asked to overwrite the CSV file (``--force``).
    out_option, csv_option : str
        The options they came from, for the messages.

    Raises
    ------
    EmptyPathError, FolderPathError, MissingFolderError, SamePathError, OutputExistsError
        As described above (all are OutputExistsError).
    """
    for option, path, what in ((out_option, out, "results file"), (csv_option, csv, "CSV table")):
        if path is not None:
            check_path_given(path, option, what=what)
    check_distinct((csv_option, csv), (out_option, out), why="the CSV table would replace the resumable results file")
    if out is not None:
        check_file_path(out, out_option, what="results file")
    if csv is not None:
        check_writable(csv, force=force, option=csv_option)


def resume_hint(out: str | os.PathLike[str] | None, option: str, unit: str = "games") -> str:
    """What to do after Ctrl-C stopped a simulation: how many `unit` (games, deals) the
    results file `out` keeps and that the same command resumes them; or, without a results
    file, that nothing was kept.  Printed by the simulation commands before their
    ``crowns: interrupted`` line.

    Parameters
    ----------
    out : str or path-like or None
        The results file given with `option` (None: not given).
    option : str
        The option naming it, e.g. ``"--out"``.
    unit : str, default "games"
        What one row of the results file is (``"deals"`` for duplicate runs).

    Returns
    -------
    str
        One line.
    """
    if out is None:
        return f"nothing was kept: give {option} FILE to keep finished {unit} and resume after an interruption"
    from .montecarlo import read_results

    try:
        df = read_results(out)
    except (OSError, ValueError):
        return f"{out} is not readable: start again with another {option}"
    done, total = len(df), df.attrs.get("games", len(df))
    return f"{done:,} of {total:,} {unit} are kept in {out}: run the same command again to resume"
