"""King's Crowns cards and their names (RULES.md, King's Crowns).

There are 28 kinds of card.  Each has a code 0..27 (used by the compiled engine) and a
name (used everywhere else):

====================  ========================================  =======
code                  name                                      stack
====================  ========================================  =======
0                     ``salvation``                             play
1..3                  ``sin-orange``, ``sin-maroon``,           opponent's play
                      ``sin-purple``
4..6                  ``forgiveness-orange`` ... ``-purple``    play
7                     ``time-with-god``                         play
8                     ``holy-spirit``                           play
9..11                 ``gift-red``, ``gift-blue``, ``gift-green`` gifts
12..27                ``crown-<colour>-<value>``: colour         crowns
                      black, red, blue, green; value 5..20
====================  ========================================  =======

Crown code = ``12 + 4 * colour + value // 5 - 1`` (colours in the order black, red, blue,
green).  Names are read case-insensitively, with spaces or underscores in place of
hyphens (``"Crown green 10"``, ``"holy_spirit"``).
"""

from __future__ import annotations

import numbers
import re
from typing import TypeAlias

from ..errors import CardError

__all__ = [
    "Card",
    "NUM_KINDS",
    "SIN_COLOURS",
    "GIFT_COLOURS",
    "CROWN_COLOURS",
    "CROWN_VALUES",
    "CARD_NAMES",
    "SALVATION",
    "TIME_WITH_GOD",
    "HOLY_SPIRIT",
    "sin",
    "forgiveness",
    "gift",
    "crown",
    "parse_card",
    "card_name",
    "kind_of",
    "crown_value",
    "crown_colour",
    "colour_of",
]

#: A card as its name, e.g. ``"crown-green-10"``.
Card: TypeAlias = str

NUM_KINDS = 28
SIN_COLOURS = ("orange", "maroon", "purple")
GIFT_COLOURS = ("red", "blue", "green")
CROWN_COLOURS = ("black", "red", "blue", "green")
CROWN_VALUES = (5, 10, 15, 20)

SALVATION = 0
TIME_WITH_GOD = 7
HOLY_SPIRIT = 8


def _index(choices: tuple, item: object, what: str) -> int:
    """Position of `item` in `choices`; CardError naming `item` and the choices if absent
    (``sin("pink")`` gave tuple.index's plain ValueError: session-19 docstring audit)."""
    if isinstance(item, bool) or item not in choices:
        raise CardError(f"{what} is one of {', '.join(map(str, choices))}, got {item!r}")
    return choices.index(item)


def sin(colour: str) -> int:
    """Code of the Sin of `colour` (orange, maroon or purple).

    Parameters
    ----------
    colour : str
        ``"orange"``, ``"maroon"`` or ``"purple"`` (exact lower-case text).

    Returns
    -------
    int
        The card's code 0..27 (RULES.md, King's Crowns; :data:`CARD_NAMES` names it).

    Raises
    ------
    CardError
        If `colour` is not one of these (the message names it and the colours).
    """
    return 1 + _index(SIN_COLOURS, colour, "a Sin's colour")


def forgiveness(colour: str) -> int:
    """Code of the Forgiveness of `colour` (orange, maroon or purple).

    Parameters
    ----------
    colour : str
        ``"orange"``, ``"maroon"`` or ``"purple"`` (exact lower-case text).

    Returns
    -------
    int
        The card's code 0..27 (RULES.md, King's Crowns; :data:`CARD_NAMES` names it).

    Raises
    ------
    CardError
        If `colour` is not one of these (the message names it and the colours).
    """
    return 4 + _index(SIN_COLOURS, colour, "a Forgiveness's colour")


def gift(colour: str) -> int:
    """Code of the Gift of `colour` (red, blue or green).

    Parameters
    ----------
    colour : str
        ``"red"``, ``"blue"`` or ``"green"`` (exact lower-case text).

    Returns
    -------
    int
        The card's code 0..27 (RULES.md, King's Crowns; :data:`CARD_NAMES` names it).

    Raises
    ------
    CardError
        If `colour` is not one of these (the message names it and the colours).
    """
    return 9 + _index(GIFT_COLOURS, colour, "a Gift's colour")


def crown(colour: str, value: int) -> int:
    """Code of the Crown of `colour` (black, red, blue, green) and `value` (5, 10, 15, 20).

    Parameters
    ----------
    colour : str
        ``"black"``, ``"red"``, ``"blue"`` or ``"green"`` (exact lower-case text).
    value : int
        The crown points, 5, 10, 15 or 20.

    Returns
    -------
    int
        The card's code 0..27 (RULES.md, King's Crowns; :data:`CARD_NAMES` names it).

    Raises
    ------
    CardError
        If `colour` or `value` is not one of these (the message names it and the choices).
    """
    return 12 + 4 * _index(CROWN_COLOURS, colour, "a Crown's colour") + _index(CROWN_VALUES, value, "a Crown's value")


def _names() -> tuple[str, ...]:
    names = ["salvation"]
    names += [f"sin-{c}" for c in SIN_COLOURS]
    names += [f"forgiveness-{c}" for c in SIN_COLOURS]
    names += ["time-with-god", "holy-spirit"]
    names += [f"gift-{c}" for c in GIFT_COLOURS]
    names += [f"crown-{c}-{v}" for c in CROWN_COLOURS for v in CROWN_VALUES]
    return tuple(names)


#: Name of every card kind, indexed by code.
CARD_NAMES: tuple[str, ...] = _names()
_CODE = {name: i for i, name in enumerate(CARD_NAMES)}
_SEP = re.compile(r"[\s_\-]+")


def _explain_unknown(text: str, norm: str) -> str:
    parts = norm.split("-")
    kinds = {"sin": SIN_COLOURS, "forgiveness": SIN_COLOURS, "gift": GIFT_COLOURS, "crown": CROWN_COLOURS}
    if parts[0] in kinds and len(parts) >= 2 and parts[1] not in kinds[parts[0]]:
        return (f"unknown colour {parts[1]!r} in card {text!r}"
                f" ({parts[0]} colours: {', '.join(kinds[parts[0]])})")
    if parts[0] == "crown" and len(parts) == 3 and parts[2] not in {str(v) for v in CROWN_VALUES}:
        return f"unknown crown value {parts[2]!r} in card {text!r} (values: 5, 10, 15, 20)"
    return (f"not a King's Crowns card: {text!r} (cards: salvation, sin-COLOUR, forgiveness-COLOUR,"
            " time-with-god, holy-spirit, gift-COLOUR, crown-COLOUR-VALUE)")


def parse_card(card: str | int) -> int:
    """Code 0..27 of a King's Crowns card (the cards of RULES.md, King's Crowns, "Deck").

    Parameters
    ----------
    card : str or int
        A card name (``"crown-green-10"``, ``"Crown Green 10"``, ``"holy_spirit"``; case
        ignored, spaces, underscores and hyphens interchangeable) or a code 0..27.

    Returns
    -------
    int
        The card's code (see the module docstring).

    Raises
    ------
    CardError
        If `card` is not a card of the game; the message names it (and the unknown
        colour or value, when that is what is wrong).
    """
    if isinstance(card, bool):
        raise CardError(f"not a King's Crowns card: {card!r}")
    if isinstance(card, numbers.Integral):   # NumPy integers too
        if 0 <= card < NUM_KINDS:
            return int(card)
        raise CardError(f"not a King's Crowns card code: {card!r} (codes are 0..27)")
    if not isinstance(card, str):
        raise CardError(f"not a King's Crowns card: {card!r}")
    code = _CODE.get(card)   # a name as the library writes it: no normalising needed
    if code is not None:
        return code
    norm = _SEP.sub("-", card.strip().lower()).strip("-")
    code = _CODE.get(norm)
    if code is None:
        raise CardError(_explain_unknown(card, norm))
    return code


def card_name(code: int) -> Card:
    """Name of card `code` (0..27).

    Parameters
    ----------
    code : int
        A card code 0..27 (an int or a NumPy integer).

    Returns
    -------
    str
        The card's name, e.g. ``"crown-green-10"``.

    Raises
    ------
    CardError
        If `code` is not a whole number 0..27.
    """
    if isinstance(code, bool) or not isinstance(code, numbers.Integral) or not 0 <= code < len(CARD_NAMES):
        raise CardError(f"not a King's Crowns card code: {code!r} (0..{len(CARD_NAMES) - 1})")
    return CARD_NAMES[code]


def kind_of(card: str | int) -> str:
    """Kind of a card: ``salvation``, ``sin``, ``forgiveness``, ``time-with-god``,
    ``holy-spirit``, ``gift`` or ``crown``.

    Parameters
    ----------
    card : str or int
        A card name or code (:func:`parse_card`).

    Returns
    -------
    str
        One of the seven kinds above.

    Raises
    ------
    CardError
        If `card` is not a card of the game.
    """
    code = parse_card(card)
    if code == SALVATION:
        return "salvation"
    if code <= 3:
        return "sin"
    if code <= 6:
        return "forgiveness"
    if code == TIME_WITH_GOD:
        return "time-with-god"
    if code == HOLY_SPIRIT:
        return "holy-spirit"
    if code <= 11:
        return "gift"
    return "crown"


def crown_value(card: str | int) -> int:
    """Crown points of a card: 5, 10, 15 or 20 for a Crown, 0 for any other card.

    Parameters
    ----------
    card : str or int
        A card name or code (:func:`parse_card`).

    Returns
    -------
    int
        Crown points (RULES.md, King's Crowns).

    Raises
    ------
    CardError
        If `card` is not a card of the game.
    """
    code = parse_card(card)
    return 0 if code < 12 else 5 * ((code - 12) % 4 + 1)


def crown_colour(card: str | int) -> str | None:
    """Colour of a Crown (black, red, blue, green), None for any other card.

    Parameters
    ----------
    card : str or int
        A card name or code (:func:`parse_card`).

    Returns
    -------
    str or None
        ``"black"``, ``"red"``, ``"blue"`` or ``"green"``; None for a card that is not a Crown.

    Raises
    ------
    CardError
        If `card` is not a card of the game.
    """
    code = parse_card(card)
    return None if code < 12 else CROWN_COLOURS[(code - 12) // 4]


def colour_of(card: str | int) -> str | None:
    """Colour of a Sin, Forgiveness, Gift or Crown; None for the colourless cards.

    Parameters
    ----------
    card : str or int
        A card name or code (:func:`parse_card`).

    Returns
    -------
    str or None
        The colour word of the card's name; None for Salvation, Time with God and the
        Holy Spirit.

    Raises
    ------
    CardError
        If `card` is not a card of the game.
    """
    code = parse_card(card)
    if 1 <= code <= 6:
        return SIN_COLOURS[(code - 1) % 3]
    if 9 <= code <= 11:
        return GIFT_COLOURS[code - 9]
    return crown_colour(code)
