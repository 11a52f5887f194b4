"""Where the Five Crowns API writes the user's files: never over an existing file unless
the caller says so (``overwrite=True``, as the CLI's ``--force``), never into a folder."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .._io import check_writable
from ..errors import OutputExistsError

__all__ = ["check_output"]


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
    if not isinstance(overwrite, bool):
        raise OutputExistsError(f"overwrite must be True or False, got {overwrite!r}")
    if not isinstance(path, (str, os.PathLike)):
        raise OutputExistsError(f"the {what} path must be a str or path-like, got {path!r}")
    return check_writable(path, force=overwrite, hint="pass overwrite=True to replace it", what=what,
                          option=f"the {what} path")
