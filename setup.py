"""Declares the compiled extension modules; all metadata lives in pyproject.toml.

Every ``ext/<name>.pyx`` becomes the module ``crowns_solver.<name>``.  Each module is
compiled with the macro ``CROWNS_SOURCE_HASH`` set to a hash of its Cython sources, so
``import crowns_solver`` can tell a stale in-tree build from a fresh one.

Set ``CROWNS_DEBUG=1`` to build with bounds checks and assertions on.
"""
import importlib.util
import os
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).parent
EXT = HERE / "ext"
DEBUG = os.environ.get("CROWNS_DEBUG", "") not in ("", "0")


def _load_native():
    """crowns_solver/_native.py as a standalone module (the package cannot be imported
    before its extensions are built); it defines the source hash the import check uses."""
    spec = importlib.util.spec_from_file_location("_crowns_native", HERE / "crowns_solver" / "_native.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


source_hash = _load_native().source_hash


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
