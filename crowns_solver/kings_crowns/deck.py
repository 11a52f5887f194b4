"""King's Crowns decks: how many of each card (RULES.md, King's Crowns, "Deck").

A deck is a mapping from card name to count.  The default deck (118 cards, an explicit
assumption documented in RULES.md) ships with the package as
``crowns_solver/data/kings_crowns_deck.toml``; any other deck can be given as a mapping or
read from a TOML or JSON file of the same shape::

    name = "more sins"          # optional
    [deck]                      # optional: the counts may also be at the top level
    salvation = 12
    sin-orange = 9
    crown-black-20 = 2
    ...

Cards not named count 0.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from .._io import check_input_given, check_numbers, json_int, read_text, too_long_number
from ..errors import CardError, DeckError
from .cards import CARD_NAMES, NUM_KINDS, parse_card

__all__ = ["Deck", "DEFAULT_DECK", "default_deck", "load_deck", "MAX_DECK_CARDS", "min_cards", "deck_facts", "FACT_KEYS"]

#: Largest deck the engine accepts (bounds the memory of every table it allocates).
MAX_DECK_CARDS = 10_000
HAND_SIZE = 6
#: The default deck's name; another deck may not take it (see :func:`_differs_from_default`).
DEFAULT_NAME = "default"
#: The default deck's counts, once it is read (a deck named "default" must have them).
_DEFAULT_COUNTS: tuple[int, ...] | None = None


def _differs_from_default(counts: tuple[int, ...]) -> str:
    """The counts that differ from the default deck's, e.g. ``"salvation 11 (12 in the
    default)"``; empty when they are the default's (or before the default deck is read)."""
    if _DEFAULT_COUNTS is None:
        return ""
    return ", ".join(f"{CARD_NAMES[code]} {n} ({d} in the default)"
                     for code, (n, d) in enumerate(zip(counts, _DEFAULT_COUNTS)) if n != d)


def min_cards(players: int) -> int:
    """Cards needed to start a game: 6 for each player and one turned up.

    Parameters
    ----------
    players : int
        Number of players (not checked; 2..5 in a game).

    Returns
    -------
    int
        ``6 * players + 1`` (RULES.md, King's Crowns: deal 6 cards each, turn one up).
    """
    return HAND_SIZE * players + 1


@dataclass(frozen=True)
class Deck:
    """How many copies of each card a deck holds (RULES.md, King's Crowns, "Deck").

    Attributes
    ----------
    counts : tuple of int, length 28
        Copies of each card kind, indexed by card code
        (:mod:`crowns_solver.kings_crowns.cards`).
    name : str
        A label for reports (``"default"`` for the deck shipped with the package; no other
        deck may take that name).

    Raises
    ------
    DeckError
        From the constructor, if `counts` is not 28 whole numbers >= 0, the deck holds
        more than :data:`MAX_DECK_CARDS` cards, `name` is not a non-empty line of printable
        text (no newline or other control character), or `name` is
        ``"default"`` and the counts are not the default deck's (the message lists the
        counts that differ).
    """

    counts: tuple[int, ...]
    name: str = "custom"

    def __post_init__(self) -> None:
        if isinstance(self.counts, (str, bytes, Mapping)) or not isinstance(self.counts, Iterable):
            # a number or None raised a TypeError (session-18 probe); a mapping has from_mapping
            raise DeckError(f"a deck gives {NUM_KINDS} counts (one per card kind, or use Deck.from_mapping),"
                            f" got {self.counts!r}")
        counts = tuple(self.counts)
        if len(counts) != NUM_KINDS:
            raise DeckError(f"a deck gives {NUM_KINDS} counts (one per card kind), got {len(counts)}")
        for code, n in enumerate(counts):
            _check_count(CARD_NAMES[code], n)
        total = sum(counts)
        if total > MAX_DECK_CARDS:
            raise DeckError(f"deck has {total} cards, more than the {MAX_DECK_CARDS} supported")
        object.__setattr__(self, "counts", tuple(int(n) for n in counts))
        if not isinstance(self.name, str):
            # reports print it and rules compare it: None or a list was taken (session-18 probe),
            # as load_deck already refuses a file's non-string name
            raise DeckError(f"a deck's name must be a string, got {self.name!r}")
        from .._checks import control_char

        bad = control_char(self.name)
        if not self.name.strip() or bad is not None:
            # every table and report prints it: a newline split simulate's header line and
            # the report's rules row, an empty one printed "deck  (19 cards)" (probe 19)
            raise DeckError(f"a deck's name must be a non-empty line of printable text (tables and reports show it),"
                            f" got {self.name!r}" + (f" (it holds {bad})" if bad else ""))
        differ = _differs_from_default(self.counts) if self.name == DEFAULT_NAME else None
        if differ:
            raise DeckError(f"the name {DEFAULT_NAME!r} is the default deck's name, but these counts differ from it:"
                            f" {differ}; give the variant its own name")

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, Any], name: str = "custom", *, source: str = "deck") -> Deck:
        """A deck from ``{card name: count}`` (cards not named count 0).

        Parameters
        ----------
        mapping : mapping of str to int
            Card name (:func:`~crowns_solver.kings_crowns.parse_card`) -> copies.
        name : str
            The deck's label in reports.
        source : str
            Where the mapping came from (a file name), for the error messages.

        Returns
        -------
        Deck
            The deck.

        Raises
        ------
        DeckError
            If a key is not a card (unknown kind, colour or value), a card is named twice
            (e.g. ``"sin-orange"`` and ``"Sin orange"``), or a count is not a whole
            number >= 0; the message names the entry and `source`.
        """
        if not isinstance(mapping, Mapping):
            raise DeckError(f"{source}: a deck is a mapping of card name to count, got {type(mapping).__name__}")
        counts = [0] * NUM_KINDS
        seen: dict[int, str] = {}
        for key, n in mapping.items():
            try:
                code = parse_card(str(key))
            except CardError as exc:
                raise DeckError(f"{source}: entry {key!r}: {exc}") from None
            if code in seen:
                raise DeckError(f"{source}: entry {key!r} names the same card as {seen[code]!r}")
            seen[code] = str(key)
            _check_count(str(key), n, source)
            counts[code] = int(n)
        try:
            return cls(tuple(counts), name)
        except DeckError as exc:  # too many cards in all: name the file too (probe 19)
            raise DeckError(str(exc) if source == "deck" else f"{source}: {exc}") from None

    @property
    def size(self) -> int:
        """Number of cards in the deck."""
        return sum(self.counts)

    @property
    def digest(self) -> str:
        """A short fingerprint of the counts: 8 hexadecimal digits of the SHA-256 of their
        canonical text (``name=count`` lines of every card with a count above 0, sorted by
        card name), the same on every run, platform and Python version.  The deck's name is
        not part of it.  ``crowns report --deck`` records it with the card count, so two
        decks of the same name but other counts are other rules (session 24).

        Returns
        -------
        str
            E.g. ``"3f2a9c1e"``; equal counts give equal digests.
        """
        import hashlib

        text = "\n".join(f"{name}={n}" for name, n in sorted(self.to_dict().items()))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]

    def to_dict(self) -> dict[str, int]:
        """``{card name: count}`` for every card with a count above 0, in code order.

        Returns
        -------
        dict of str to int
            The counts (:meth:`from_mapping` reads them back).
        """
        return {CARD_NAMES[i]: n for i, n in enumerate(self.counts) if n}

    def count(self, card: str | int) -> int:
        """Copies of `card` in the deck.

        Parameters
        ----------
        card : str or int
            A card name or code.

        Returns
        -------
        int
            The count, 0 when the deck has none.

        Raises
        ------
        CardError
            If `card` is not a card of the game.
        """
        return self.counts[parse_card(card)]

    def crown_points(self) -> int:
        """Total crown points in the deck.

        Returns
        -------
        int
            The sum of the Crowns' values (5 to 20 points each) over every copy.
        """
        return sum(n * 5 * ((i - 12) % 4 + 1) for i, n in enumerate(self.counts) if i >= 12)

    def _gift_for(self, colour: str) -> bool:
        """Whether a Crown of `colour` can have its Gift: black needs none, a coloured
        one the deck's Gift of that colour (RULES.md, King's Crowns, "Legal plays")."""
        return colour == "black" or self.count(f"gift-{colour}") > 0

    def _high_crowns_playable(self) -> bool:
        """Whether a Crown of 15 or 20 can be played: it needs Time with God or Holy
        Spirit on top of the play stack (Salvation and Forgiveness take only 5 and 10)."""
        from .cards import HOLY_SPIRIT, TIME_WITH_GOD

        return self.counts[TIME_WITH_GOD] + self.counts[HOLY_SPIRIT] > 0

    def unplayable_crowns(self) -> list[str]:
        """Why some of the deck's Crowns can never be played, one reason per line of cards.

        RULES.md, King's Crowns, "Legal plays": a coloured Crown needs the player's Gift of
        its colour, and a Crown of 15 or 20 needs Time with God or Holy Spirit on top of
        the play stack (Salvation and Forgiveness take only 5 and 10).  A deck without
        those cards holds Crowns that no seat can ever play.

        Returns
        -------
        list of str
            E.g. ``"crown-red-* need a gift-red"`` or ``"crowns of 15 and 20 need a
            time-with-god or holy-spirit"``, only for Crowns the deck holds; empty when
            every Crown can be played.
        """
        from .cards import CROWN_COLOURS, crown

        out = []
        for colour in CROWN_COLOURS:
            held = any(self.counts[crown(colour, v)] for v in (5, 10, 15, 20))
            if held and not self._gift_for(colour):
                out.append(f"crown-{colour}-* need a gift-{colour}")
        high = any(self.counts[crown(c, v)] for c in CROWN_COLOURS for v in (15, 20))
        if high and not self._high_crowns_playable():
            out.append("crowns of 15 and 20 need a time-with-god or holy-spirit")
        return out

    def playable_crown_points(self) -> int:
        """Crown points of the Crowns that can ever be played with this deck's cards.

        Returns
        -------
        int
            :meth:`crown_points` less the Crowns :meth:`unplayable_crowns` names: a
            coloured Crown counts only if the deck holds a Gift of its colour, a 15 or 20
            only if it holds a Time with God or a Holy Spirit (RULES.md, King's Crowns,
            "Legal plays").  Every game needs a Salvation as well (:meth:`Rules.check`).
        """
        from .cards import CROWN_COLOURS, crown

        high = self._high_crowns_playable()
        return sum(v * self.counts[crown(colour, v)] for colour in CROWN_COLOURS if self._gift_for(colour)
                   for v in (5, 10, 15, 20) if v <= 10 or high)

    def check_players(self, players: int) -> None:
        """Raise DeckError if the deck cannot deal a game for `players` players.

        Parameters
        ----------
        players : int
            Number of players, 2..5.

        Raises
        ------
        DeckError
            If the deck has fewer than ``6 * players + 1`` cards (6 each and one turned up).
        RulesError
            If `players` is not a whole number 2..5 (a string or None raised a TypeError:
            session-18 probe).
        """
        from .rules import check_players

        check_players(players)
        need = min_cards(players)
        if self.size < need:
            raise DeckError(
                f"deck {self.name!r} has {self.size} cards, too few to deal: {players} players"
                f" need at least {need} (6 each and one turned up)"
            )


def _check_count(key: str, n: Any, source: str = "deck") -> None:
    import numbers

    if isinstance(n, bool) or not isinstance(n, numbers.Integral):
        raise DeckError(f"{source}: count of {key!r} must be a whole number >= 0, got {n!r}")
    if n < 0:
        raise DeckError(f"{source}: count of {key!r} is {n}: counts must be whole numbers >= 0")
    if n > MAX_DECK_CARDS:
        raise DeckError(f"{source}: count of {key!r} is {n}, more than the {MAX_DECK_CARDS} cards a deck may hold")


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise DeckError(f"entry {k!r} appears twice")
        out[k] = v
    return out


#: What ``kings-crowns deck --json`` writes beside ``name`` and ``deck``: values derived
#: from the counts (:func:`deck_facts`), read back and checked by :func:`parse_deck_text`.
FACT_KEYS = ("cards", "crown_points", "playable_crown_points", "unplayable_crowns", "playable_players",
             "rules_target_players", "has_salvation")


def deck_facts(deck: Deck) -> dict[str, Any]:
    """The facts ``kings-crowns deck --json`` states about a deck, derived from its counts.

    Parameters
    ----------
    deck : Deck
        The deck.

    Returns
    -------
    dict
        The keys of :data:`FACT_KEYS`: ``cards`` (the deck's size), ``crown_points`` (of
        all its Crowns), ``playable_crown_points`` (of the Crowns its cards let a seat play:
        a coloured Crown needs its Gift, a 15 or 20 Time with God or Holy Spirit; RULES.md,
        King's Crowns), ``unplayable_crowns`` (why the others cannot be played),
        ``playable_players`` (the table sizes 2..5 it deals and can be won at: it needs
        ``6 * players + 1`` cards and a Salvation), ``rules_target_players`` (those whose
        rules' target is at most the playable crown points) and ``has_salvation``.
    """
    from .rules import Rules

    winnable = deck.count("salvation") > 0
    playable = [p for p in range(2, 6) if deck.size >= min_cards(p)] if winnable else []
    usable = deck.playable_crown_points()
    return {"cards": deck.size, "crown_points": deck.crown_points(), "playable_crown_points": usable,
            "unplayable_crowns": deck.unplayable_crowns(), "playable_players": playable,
            "rules_target_players": [p for p in playable if Rules().target_for(p) <= usable],
            "has_salvation": winnable}


def parse_deck_text(text: str, fmt: str, source: str = "deck") -> Deck:
    """A deck from the text of a TOML (`fmt` ``"toml"``) or JSON (``"json"``) deck file.

    Raises
    ------
    DeckError
        If the text is not valid TOML/JSON or not a valid deck (see
        :meth:`Deck.from_mapping`); the message names `source` and the entry.
    """
    try:
        if fmt == "toml":
            data = tomllib.loads(text)
        elif fmt == "json":
            data = json.loads(text, object_pairs_hook=_no_duplicate_keys, parse_int=json_int)
        else:
            raise DeckError(f"{source}: unknown deck file format {fmt!r} (toml or json)")
    except DeckError as exc:
        raise DeckError(f"{source}: {exc}") from None
    except (tomllib.TOMLDecodeError, json.JSONDecodeError) as exc:
        raise DeckError(f"{source}: not a valid {fmt.upper()} file: {exc}") from None
    except RecursionError:   # '[[[[...' nested 900 deep in TOML, 3,000 in JSON: a traceback (session-19 probe)
        raise DeckError(f"{source}: not a deck file: the {fmt.upper()} is nested too deeply") from None
    except ValueError as exc:   # a number too long for int() (TOML)
        message = too_long_number(text, exc)
        if message is None:
            raise
        raise DeckError(f"{source}: {message}") from None
    check_numbers(data, DeckError, f"{source}: ")
    if not isinstance(data, dict):
        raise DeckError(f"{source}: a deck file holds a table of card counts")
    name = data.get("name", Path(source).stem)
    if not isinstance(name, str):
        raise DeckError(f"{source}: entry 'name' must be a string, got {name!r}")
    facts = {}
    if "deck" in data:
        # what `kings-crowns deck --json` writes beside the counts is read back too, and
        # checked against them (session 24: its own output was refused as a deck file)
        facts = {k: data[k] for k in FACT_KEYS if k in data}
        extra = set(data) - {"deck", "name", "description", *FACT_KEYS}
        if extra:
            raise DeckError(f"{source}: unexpected entry {sorted(extra)[0]!r} beside [deck] (a deck file holds"
                            f" name, description and deck, and may hold what kings-crowns deck --json writes"
                            f" beside them: {', '.join(FACT_KEYS)})")
        counts = data["deck"]
        if not isinstance(counts, dict):
            raise DeckError(f"{source}: entry 'deck' must be a table of card counts")
    else:
        counts = {k: v for k, v in data.items() if k not in ("name", "description")}
    # every entry is checked (Deck.from_mapping) before the name: a malformed count of a
    # deck named "default" is said as such, not as counts that differ from the default's
    deck = Deck.from_mapping(counts, "custom", source=source)
    if name == DEFAULT_NAME:
        # a copy of the default deck's file keeps its name: refuse it unless the counts are
        # the default's, or every table and report calls the variant "default" (probe 19)
        differ = _differs_from_default(deck.counts)
        if differ:
            where = "entry 'name' is" if "name" in data else "its file name makes its name"
            raise DeckError(f"{source}: {where} {DEFAULT_NAME!r}, the default deck's name, but these counts differ"
                            f" from it: {differ}; give the variant its own name (name = \"...\" in the file)")
    try:
        deck = Deck(deck.counts, name)
    except DeckError as exc:  # the name (a control character...): name the file too
        raise DeckError(str(exc) if source == "deck" else f"{source}: {exc}") from None
    if facts:
        derived = deck_facts(deck)
        for key, value in facts.items():
            if value != derived[key] or type(value) is not type(derived[key]):
                raise DeckError(f"{source}: entry {key!r} is {json.dumps(value)[:60]}, but the deck's counts make it"
                                f" {json.dumps(derived[key])} (it is derived from them: correct it or leave it out)")
    return deck


def load_deck(path: str | Path) -> Deck:
    """Read a deck from a TOML or JSON file.

    The format follows the suffix (``.toml``, ``.json``); with any other suffix (or
    none) a text that is a JSON object (starts with ``{``) is read as JSON, any other as
    TOML.  Counts may be at the top level or in a ``[deck]`` table; an
    optional ``name`` labels the deck in reports (default: the file name).

    Parameters
    ----------
    path : str or Path
        The deck file.

    Returns
    -------
    Deck
        The deck, named by the file's ``name`` entry or the file name.

    Raises
    ------
    DeckError
        If the file is not valid TOML/JSON, or an entry is an unknown card (kind, colour
        or value), a count is negative or not a whole number, or the deck is larger than
        :data:`MAX_DECK_CARDS`, or the deck is named ``"default"`` (by its ``name`` entry,
        or by its file name when it has none: a copy of the default deck's file) but its
        counts are not the default deck's; the message names the file and the entry.  (A deck too
        small to deal is refused when a game is set up: that depends on the players.)
        Also if `path` is empty (it would name the current folder) or not a str or
        path-like (an int would be read as a file descriptor).
    OSError
        If the file cannot be read.
    """
    check_input_given(path, "deck file", DeckError)  # before Path(): an int would be a file descriptor
    path = Path(os.fsdecode(path))
    text = read_text(path, DeckError)
    suffix = path.suffix.lower()
    if suffix in (".toml", ".json"):
        fmt = suffix[1:]
    else:
        # any other suffix (or none): JSON when the text is a JSON object (never valid
        # TOML), else TOML.  Until session 20 TOML was tried and any DeckError fell back to
        # JSON, so a TOML deck in a file named "default" (or any suffix-less file) whose
        # count was malformed, or whose counts differed from the default deck's, was
        # refused as "not a valid JSON file: Expecting value", not for its entry
        fmt = "json" if text.lstrip().startswith("{") else "toml"
    return parse_deck_text(text, fmt, str(path))


@lru_cache(maxsize=1)
def default_deck() -> Deck:
    """The default deck of RULES.md (118 cards), read from the package's data file."""
    text = resources.files("crowns_solver").joinpath("data/kings_crowns_deck.toml").read_text(encoding="utf-8")
    return parse_deck_text(text, "toml", "kings_crowns_deck.toml")


DEFAULT_DECK: Deck = default_deck()
_DEFAULT_COUNTS = DEFAULT_DECK.counts
