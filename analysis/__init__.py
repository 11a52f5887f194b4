"""The studies behind ``crowns report`` (installed as ``crowns_solver.analysis``).

Each module ``<game>_<topic>.py`` here registers one or more studies with
:func:`~crowns_solver.analysis.base.study`; :func:`registry` finds them all.  See
:mod:`crowns_solver.analysis.base` for the result type and the table conventions, and
:mod:`crowns_solver.report` for how reports are written.
"""

from .base import Section, Study, StudyError, StudyResult, registry, study

__all__ = ["Section", "Study", "StudyError", "StudyResult", "registry", "study"]
