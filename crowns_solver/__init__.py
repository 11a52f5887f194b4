"""crowns_solver: solvers and Monte Carlo studies for Cross Kings, Five Crowns and King's Crowns.

Subpackages: :mod:`crowns_solver.cross_kings`, :mod:`crowns_solver.five_crowns`,
:mod:`crowns_solver.kings_crowns`.  The ``crowns`` command is :mod:`crowns_solver.cli`.
"""

from importlib.metadata import PackageNotFoundError as _PackageNotFoundError
from importlib.metadata import version as _version

from . import _native
from .errors import CrownsError

try:
    __version__ = _version("crowns-solver")
except _PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0+unknown"

_native.check()

__all__ = ["CrownsError", "__version__"]
