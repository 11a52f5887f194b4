"""Five Crowns rules options (RULES.md, Five Crowns)."""

from __future__ import annotations

import numbers
from dataclasses import dataclass

from .._checks import check_flag
from ..errors import RulesError

__all__ = ["Rules", "TIES", "MAX_TIEBREAKS", "tiebreak_label"]

#: How equal lowest totals end a game (RULES.md, Five Crowns, "Deal and seats"): the
#: tied players share the win, or play 6-card tiebreak rounds.  The simulated games'
#: ``GameRules.ties``, the score keeper's ``ties`` and the commands' ``--ties``.
TIES: tuple[str, ...] = ("share", "tiebreak")
#: The most tiebreak rounds a game may be set to play (``max_tiebreaks``, 0 to this).
MAX_TIEBREAKS = 100


def tiebreak_label(k: int) -> str:
    """The label of a game's `k`-th tiebreak round (0-based): ``tb1``, ``tb2``...

    Used for tiebreak rounds wherever a round is labelled (the ``play``/``replay`` text
    and ``--json``, the score keeper); main rounds are labelled by their number 1..11.

    Parameters
    ----------
    k : int
        0 for the first tiebreak round of a game, 1 for the second...

    Returns
    -------
    str
        ``"tb"`` and ``k + 1``.
    """
    return f"tb{k + 1}"


@dataclass(frozen=True)
class Rules:
    """Options of the Five Crowns rules that change meld solving.

    Parameters
    ----------
    all_wild_melds : bool
        Whether a meld made only of wilds is allowed (RULES.md, Melds; default True).
        When False, a meld of wilds only is still legal if one of its cards is of the
        wild rank, standing as itself (a book of that rank).
    max_book_size : int or None
        Largest book shown (seeds/004 says 5).  It never changes the deadwood (RULES.md:
        a larger book splits into books of 3 to 5); :func:`best_melds` shows larger books
        split.  None (default) shows books of any size.  Must be at least 5: with 3 or 4
        some books (of 5, or of 7) cannot be split, so the cap would change the deadwood.
    sets : int
        116-card sets in play: 1 (up to 7 players, default) or 2 (up to 14 players).  A
        hand may hold at most ``2 * sets`` copies of a natural card and ``6 * sets``
        jokers; the advisor's unseen cards come from these sets.

    Raises
    ------
    RulesError
        If an option is outside the values above.
    """

    all_wild_melds: bool = True
    max_book_size: int | None = None
    sets: int = 1

    def __post_init__(self) -> None:
        # a NumPy bool is a flag too, kept as a bool (docs/decisions.md, flags; session 22)
        object.__setattr__(self, "all_wild_melds", check_flag("all_wild_melds", self.all_wild_melds, RulesError))
        m = self.max_book_size
        if m is not None and (isinstance(m, bool) or not isinstance(m, numbers.Integral) or m < 5):
            raise RulesError(
                f"max_book_size must be None or an integer >= 5, got {m!r} (with a smaller cap"
                " some books could not be split, so the cap would change the deadwood)",
                argument="max_book_size",
            )
        if m is not None:
            object.__setattr__(self, "max_book_size", int(m))
        # an integer, as GameRules checks it: 2.0 or True are not a number of sets
        if isinstance(self.sets, bool) or not isinstance(self.sets, numbers.Integral) or self.sets not in (1, 2):
            raise RulesError(f"sets must be the integer 1 or 2, got {self.sets!r}", argument="sets")
        object.__setattr__(self, "sets", int(self.sets))
