"""Loading and checking the compiled modules built from ``ext/*.pyx``.

Each compiled module carries ``SOURCE_HASH``, a hash of the Cython sources it was built
from (computed by ``setup.py``).  When the package runs from a source tree that still has
``ext/`` beside it (an editable install or an in-place build), :func:`check` recomputes
the hash and refuses a module built from older sources, with the command that fixes it.
"""

from __future__ import annotations

import hashlib
import importlib
from pathlib import Path
from types import ModuleType

#: The compiled modules, by name inside the ``crowns_solver`` package.
EXTENSIONS: tuple[str, ...] = ("_ck_score", "_ck_search", "_kc_engine", "_fc_melds", "_fc_game")

_PKG_DIR = Path(__file__).resolve().parent
_EXT_DIR = _PKG_DIR.parent / "ext"
_FIX = "run `pip install -e .` (or `python setup.py build_ext --inplace`) in the project folder"


def source_hash(pyx: Path) -> str:
    """The hash ``setup.py`` embeds: the .pyx plus every .pxd/.pxi in ``ext/``."""
    h = hashlib.sha256()
    for path in [pyx, *sorted(_EXT_DIR.glob("*.pxd")), *sorted(_EXT_DIR.glob("*.pxi"))]:
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def load(name: str) -> ModuleType:
    """Import the compiled module ``crowns_solver.<name>`` or explain how to build it.

    Raises
    ------
    ImportError
        If the module is missing, or stale with respect to ``ext/<name>.pyx``.
    """
    try:
        mod = importlib.import_module(f"crowns_solver.{name}")
    except ImportError as exc:
        raise ImportError(
            f"crowns_solver's compiled module {name} is missing (not built yet?): {_FIX}."
            f" ({exc})"
        ) from None
    pyx = _EXT_DIR / f"{name}.pyx"
    if pyx.is_file():
        built = getattr(mod, "SOURCE_HASH", None)
        if built != source_hash(pyx):
            raise ImportError(
                f"crowns_solver's compiled module {name} is stale: it was built from an"
                f" older ext/{name}.pyx; {_FIX}."
            )
    return mod


def check() -> None:
    """Load every compiled module (see :func:`load`); raise ImportError on the first problem."""
    for name in EXTENSIONS:
        load(name)
