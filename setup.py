"""Declares the compiled extension modules; all metadata lives in pyproject.toml.

Every ``ext/<name>.pyx`` becomes the module ``crowns_solver.<name>``.  Each module is
compiled with the macro ``CROWNS_SOURCE_HASH`` set to a hash of its Cython sources, so
``import crowns_solver`` can tell a stale in-tree build from a fresh one.

Set ``CROWNS_DEBUG=1`` to build with bounds checks and assertions on.
"""
import hashlib
import os
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).parent
EXT = HERE / "ext"
DEBUG = os.environ.get("CROWNS_DEBUG", "") not in ("", "0")


def source_hash(pyx: Path) -> str:
    """Hash of a module's .pyx plus every shared .pxd/.pxi in ext/ (see crowns_solver._native)."""
    h = hashlib.sha256()
    for path in [pyx, *sorted(EXT.glob("*.pxd")), *sorted(EXT.glob("*.pxi"))]:
        h.update(path.name.encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def extensions() -> list[Extension]:
    mods = []
    for pyx in sorted(EXT.glob("*.pyx")):
        mods.append(
            Extension(
                f"crowns_solver.{pyx.stem}",
                [str(pyx.relative_to(HERE))],
                define_macros=[("CROWNS_SOURCE_HASH", f'"{source_hash(pyx)}"')],
                extra_compile_args=["-O3"] + ([] if DEBUG else ["-DNDEBUG"]),
            )
        )
    return mods


directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "embedsignature": True,
}

setup(ext_modules=cythonize(extensions(), compiler_directives=directives, include_path=[str(EXT)]))
