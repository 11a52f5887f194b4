"""Helpers shared by the Cross Kings studies (not a study: the registry skips ``_`` modules)."""

from __future__ import annotations

#: The rules every Cross Kings study plays by, as its report states them (RULES.md, Cross Kings).
RULES_SENTENCE = ("Cross Kings as in RULES.md: 36 cards (A-8 in four suits and four wild Kings) dealt"
                  " on a 6x6 grid, the 12 diagonal cells face down; reach \"any\"; runs and sets of n >= 3"
                  " score 2n - 3, minus 1 per King inside.")


def rules_line(reach: str = "any") -> str:
    """The line a Cross Kings study's chart titles end with under the rules option reach
    "nearest" (``'\nRules: reach "nearest" ...'``), empty under the default reach "any":
    a chart of a variant report (``crowns report --reach nearest``) is read on its own too,
    and until session 23 nothing in it said the rules differed (as the Five Crowns charts
    do, ``_five_crowns_common.rules_line``)."""
    if reach == "any":
        return ""
    return f'\nRules: reach "{reach}" (only the nearest card in each direction can be taken)'


def rules_text(players: str, reach: str = "any") -> str:
    """A Cross Kings report's "Rules, deck and players" paragraph: :data:`RULES_SENTENCE`
    (with the rules option `reach` the study ran under), then `players` (who played, with
    what limits)."""
    sentence = RULES_SENTENCE if reach == "any" else RULES_SENTENCE.replace(
        'reach "any"', f'reach "{reach}" (rules option: only the nearest card in each direction can be taken)')
    return f"{sentence}  {players}"
