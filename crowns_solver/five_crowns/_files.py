"""Where the Five Crowns API writes the user's files: never over an existing file unless
the caller says so (``overwrite=True``, as the CLI's ``--force``), never into a folder."""

from __future__ import annotations

import json
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

from .._checks import check_flag
from .._io import check_replaceable, check_writable
from ..errors import OutputExistsError

__all__ = ["check_output", "write_json"]


def check_output(path: Any, *, overwrite: bool, what: str = "file") -> Path:
    """The path an API call is about to write, checked.

    Parameters
    ----------
    path : str or path-like
        Where to write.
    overwrite : bool
        Whether an existing file may be replaced.
    what : str
        What is written, for messages (``"game record"``...).

    Returns
    -------
    Path

    Raises
    ------
    EmptyPathError, FolderPathError, MissingFolderError
        `path` is empty, is or names a folder (ends in ``/``), or lies in a folder that
        does not exist or is a file (all subclasses of OutputExistsError).
    OutputExistsError
        `path` is not a path, or exists and `overwrite` is false.
    """
    overwrite = check_flag("overwrite", overwrite, OutputExistsError)   # a NumPy bool too (session 22)
    if not isinstance(path, (str, os.PathLike)):
        raise OutputExistsError(f"the {what} path must be a str or path-like, got {path!r}")
    return check_writable(path, force=overwrite, hint="pass overwrite=True to replace it", what=what,
                          option=f"the {what} path")


def _umask() -> int:
    """The process umask (read by setting it and putting it back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_json(path: Any, data: Any, *, overwrite: bool, what: str = "file") -> None:
    """Write `data` as indented JSON to `path`, atomically: through a temporary file in
    the same folder that replaces `path` only once complete, so a crash or a full disk
    never leaves half a file (the game record's and the score keeper's ``save``).  A
    symbolic link is followed: the file it points to is replaced, and the link stays.

    Parameters
    ----------
    path : str or path-like
        Where to write (checked by :func:`check_output`).
    data : JSON-ready object
    overwrite : bool
        Whether an existing file may be replaced.
    what : str
        What is written, for messages.

    Raises
    ------
    OutputExistsError
        `path` exists and `overwrite` is false; or (subclasses, checked first) it is empty
        (EmptyPathError), is or names a folder, e.g. ends in ``/`` (FolderPathError), or
        its folder does not exist or is a file (MissingFolderError); or it exists and is
        not a regular file (a device such as ``/dev/null``, a named pipe), even with
        `overwrite`: the atomic replace would put a file in its place.
    OSError
        The file cannot be written; its ``filename`` is `path` (a full disk names no
        file otherwise).
    """
    target = check_output(path, overwrite=overwrite, what=what)
    if target.is_symlink():
        # write the file the link points to: replacing the link itself left that file as it
        # was and turned the link into a copy (found by the session-19 probe, a keeper
        # file --resume'd through a link into a synced folder)
        target = Path(os.path.realpath(target))
    # os.replace would put the record in its place: `--save /dev/null --force` run as root
    # replaced the device node with a regular file (session 21)
    check_replaceable(target, f"the {what} path", what)
    try:   # a replaced file keeps its mode; a new one gets the usual umask mode, like results files
        mode = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)
            f.write("\n")
        os.chmod(tmp, mode)   # mkstemp makes 0600
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        if exc.filename is not None:
            raise
        raise OSError(exc.errno, exc.strerror, os.fsdecode(path)) from None   # name the file
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
