"""Helpers shared by the Cross Kings studies (not a study: the registry skips ``_`` modules)."""

from __future__ import annotations

#: The rules every Cross Kings study plays by, as its report states them (RULES.md, Cross Kings).
RULES_SENTENCE = ("Cross Kings as in RULES.md: 36 cards (A-8 in four suits and four wild Kings) dealt"
                  " on a 6x6 grid, the 12 diagonal cells face down; reach \"any\"; runs and sets of n >= 3"
                  " score 2n - 3, minus 1 per King inside.")


def rules_text(players: str) -> str:
    """A Cross Kings report's "Rules, deck and players" paragraph: :data:`RULES_SENTENCE`,
    then `players` (who played, with what limits)."""
    return f"{RULES_SENTENCE}  {players}"
