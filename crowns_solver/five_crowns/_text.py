"""Small text helpers shared by the Five Crowns modules' messages and output (the shared
:func:`crowns_solver._text.count`, kept importable here)."""

from __future__ import annotations

from crowns_solver._text import count

__all__ = ["count"]
