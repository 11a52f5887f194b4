"""Small text helpers shared by the Five Crowns modules' messages and output (the shared
:func:`crowns_solver._text.count` and :func:`~crowns_solver._text.sets_hold`, kept
importable here)."""

from __future__ import annotations

from crowns_solver._text import count, sets_hold

__all__ = ["count", "sets_hold"]
