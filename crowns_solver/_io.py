"""Reading the user's files and guarding the user's files: shared by every command.

Two rules of the house live here: a file that is not UTF-8 text is a user error with a
one-line message (never a ``UnicodeDecodeError`` traceback), and an existing file is
never replaced unless the user asked for it (``--force``).
"""

from __future__ import annotations

import os
from pathlib import Path

from .errors import CrownsError, EmptyPathError, OutputExistsError

__all__ = ["MAX_TEXT_BYTES", "check_path_given", "check_writable", "decode_utf8", "read_text"]

#: Largest text input read (positions, records, decks are far smaller).
MAX_TEXT_BYTES = 64 * 2**20


def read_text(path: str | os.PathLike[str], error: type[CrownsError]) -> str:
    """The contents of a UTF-8 text file.

    Parameters
    ----------
    path : path-like
    error : type
        The CrownsError subclass to raise when the file is not UTF-8 text (e.g.
        ``RecordError`` for a game record).

    Returns
    -------
    str

    Raises
    ------
    CrownsError
        An instance of `error` if the file is not UTF-8 text (binary, other encoding),
        naming the file and the first bad byte's offset; if it is not a regular file (a
        folder, a device such as /dev/zero); or if it exceeds :data:`MAX_TEXT_BYTES`.
    OSError
        If the file cannot be read.
    """
    p = Path(path)
    if p.exists() and not p.is_file():
        raise error(f"{os.fspath(path)}: not a regular file")
    if p.exists() and p.stat().st_size > MAX_TEXT_BYTES:
        raise error(f"{os.fspath(path)}: {p.stat().st_size:,} bytes is too large for this input"
                    f" (at most {MAX_TEXT_BYTES:,})")
    text = decode_utf8(p.read_bytes(), f"{os.fspath(path)}: not a UTF-8 text file", error)
    return text.replace("\r\n", "\n").replace("\r", "\n")   # universal newlines, as a text file reads


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


def check_path_given(path: str | os.PathLike[str], option: str, *, kind: str = "file") -> str | os.PathLike[str]:
    """Refuse an empty output path, naming the option it came from.

    An empty name would otherwise be skipped silently (``if args.csv:``), or mean the
    current folder (``Path("")`` is ``.``).  Every command and API call that writes to a
    path the user gives checks it here first.

    Parameters
    ----------
    path : str or path-like
        The path as given.
    option : str
        Where it came from, for the message: the CLI option (``"--out"``) or the API
        argument (``"out_dir"``).
    kind : str
        ``"file"`` or ``"folder"``, for the message.

    Returns
    -------
    str or path-like
        `path`, unchanged.

    Raises
    ------
    EmptyPathError
        If `path` is empty or only blanks, e.g. ``--out needs a file name; the path is
        empty ('')``.
    """
    if isinstance(path, (str, os.PathLike)) and not os.fspath(path).strip():
        raise EmptyPathError(f"{option} needs a {kind} name; the path is empty ({os.fspath(path)!r})")
    return path


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
    EmptyPathError
        If `path` is empty (:func:`check_path_given`).
    OutputExistsError
        If `path` exists (as a file) and `force` is false, it is a folder, or its folder
        does not exist (it is not created).
    """
    check_path_given(path, option)
    p = Path(path)
    if p.is_dir():
        raise OutputExistsError(f"{p} is a folder; give a file name" + (f" for the {what}" if what else ""))
    if not p.parent.is_dir():
        raise OutputExistsError(f"{p.parent} does not exist (or is not a folder); create it first or choose another file")
    if p.exists() and not force:
        raise OutputExistsError(f"{p} already exists; {hint}")
    return p
