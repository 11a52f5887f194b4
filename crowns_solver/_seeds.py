"""One seed rule for every game (internal; docs/decisions.md, "One seed rule for every game").

Every entry point that plays or deals a game (Five Crowns ``play_game``, King's Crowns
``Game``, Cross Kings ``Deal.random`` / ``Position.random``) takes a seed the same way:

* a whole number >= 0: ``numpy.random.SeedSequence(seed)``;
* a ``numpy.random.SeedSequence``: used by its ``entropy``, ``spawn_key`` and
  ``pool_size`` only.  The object is never spawned from, so the same SeedSequence always
  gives the same game (Five Crowns spawned the deck and seat streams from the caller's
  object, so a second game from it was another game);
* a ``numpy.random.Generator``: the randomness is drawn from it (it advances).  A game
  that records its seed records a 128-bit whole number drawn from the generator, and
  plays from that number, so the record replays the game (a King's Crowns game kept the
  generator itself as its seed, which had moved on);
* None: fresh entropy from the operating system; a game records the 128-bit number drawn.

What a game records (:func:`replayable_seed`) is therefore a whole number or a
SeedSequence, and passing it back as the seed plays the same game.
"""

from __future__ import annotations

import numbers
from typing import Any, TypeAlias

import numpy as np

from .errors import CrownsError

#: What every game entry point takes as its seed.
Seed: TypeAlias = "int | np.random.SeedSequence | np.random.Generator | None"
#: What a game records: a whole number or a SeedSequence (both replay it).
RecordedSeed: TypeAlias = "int | np.random.SeedSequence"


def check_seed(seed: Any, error: type[CrownsError], what: str = "seed") -> Seed:
    """`seed` if it is a seed, as an int when it is a whole number (NumPy's too).

    Parameters
    ----------
    seed : object
        What was given.
    error : type of CrownsError
        What to raise (the game's own class: RulesError, PositionError...).
    what : str
        The argument's name, for the message (and the error's ``arguments``).

    Returns
    -------
    int, numpy.random.SeedSequence, numpy.random.Generator or None
        `seed`, a whole number as a plain int.

    Raises
    ------
    CrownsError
        An instance of `error`: ``seed must be a whole number >= 0, got -1`` for a
        negative number, and naming the four kinds of seed for anything else (a bool, a
        float, text...).
    """
    if seed is None or isinstance(seed, (np.random.SeedSequence, np.random.Generator)):
        return seed
    if isinstance(seed, numbers.Integral) and not isinstance(seed, bool):
        if seed < 0:
            raise error(f"{what} must be a whole number >= 0, got {seed!r}", argument=what)
        return int(seed)
    raise error(f"{what} must be a whole number >= 0, a numpy SeedSequence or Generator, or None,"
                f" got {seed!r}", argument=what)


def replayable_seed(seed: Any, error: type[CrownsError], what: str = "seed") -> RecordedSeed:
    """The seed a game records for `seed`: one that plays the same game again.

    Parameters
    ----------
    seed : int, SeedSequence, Generator or None
        The seed given (checked by :func:`check_seed`).
    error : type of CrownsError
        What to raise for a bad seed.
    what : str
        The argument's name, for the message.

    Returns
    -------
    int or numpy.random.SeedSequence
        A whole number as an int; a SeedSequence itself (never spawned from: see
        :func:`seed_sequence`); for a Generator, a 128-bit number drawn from it (two
        64-bit draws); for None, 128 bits of fresh entropy from the operating system.

    Raises
    ------
    CrownsError
        As :func:`check_seed`.
    """
    seed = check_seed(seed, error, what)
    if seed is None:
        return int(np.random.SeedSequence().entropy)  # type: ignore[arg-type]
    if isinstance(seed, np.random.Generator):
        hi, lo = (int(v) for v in seed.integers(0, 2**64, size=2, dtype=np.uint64))
        return hi << 64 | lo
    return seed


def seed_sequence(seed: RecordedSeed) -> np.random.SeedSequence:
    """A fresh SeedSequence for a recorded seed, safe to spawn from.

    Parameters
    ----------
    seed : int or numpy.random.SeedSequence
        What :func:`replayable_seed` returned.

    Returns
    -------
    numpy.random.SeedSequence
        ``SeedSequence(seed)``, or a copy of `seed` (same entropy, spawn key and pool
        size, no child spawned yet): spawning from it leaves the caller's object alone,
        so it seeds the same game each time it is given.
    """
    if isinstance(seed, np.random.SeedSequence):
        return np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key, pool_size=seed.pool_size)
    return np.random.SeedSequence(seed)


def seed_to_json(seed: RecordedSeed | None) -> Any:
    """A recorded seed as JSON: the number, or ``{"entropy": ..., "spawn_key": [...]}``
    for a SeedSequence (and ``"pool_size"`` when it is not NumPy's default 4).

    Parameters
    ----------
    seed : int, numpy.random.SeedSequence or None
        The recorded seed (None: a record without one).

    Returns
    -------
    int, dict or None
        JSON-ready; :func:`seed_from_json` reads it back.
    """
    if not isinstance(seed, np.random.SeedSequence):
        return seed
    entropy = seed.entropy
    out: dict[str, Any] = {
        "entropy": [int(v) for v in entropy] if isinstance(entropy, (list, tuple, np.ndarray)) else int(entropy),
        "spawn_key": [int(k) for k in seed.spawn_key],
    }
    if seed.pool_size != 4:
        out["pool_size"] = int(seed.pool_size)
    return out


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def seed_from_json(value: Any, error: type[CrownsError], where: str = "record: ") -> RecordedSeed | None:
    """Read a seed written by :func:`seed_to_json`.

    Parameters
    ----------
    value : object
        The JSON value: a whole number >= 0, a mapping with ``entropy`` (a whole number or
        a non-empty list of them) and ``spawn_key`` (a list of whole numbers, may be empty)
        and optionally ``pool_size`` (a whole number >= 4), or null.
    error : type of CrownsError
        What to raise.
    where : str
        The start of the message (the file or record).

    Returns
    -------
    int, numpy.random.SeedSequence or None

    Raises
    ------
    CrownsError
        An instance of `error` naming the field at fault.
    """
    if value is None or _whole(value):
        return value
    shape = ("a whole number >= 0, {\"entropy\": ..., \"spawn_key\": [...]} (a numpy SeedSequence's)"
             " or null")
    if not isinstance(value, dict):
        raise error(f"{where}'seed' must be {shape}, got {value!r}")
    extra = sorted(set(value) - {"entropy", "spawn_key", "pool_size"})
    if extra:
        raise error(f"{where}'seed' has an unknown field {extra[0]!r} (a SeedSequence's are entropy, spawn_key"
                    " and pool_size)")
    entropy, spawn_key = value.get("entropy"), value.get("spawn_key", [])
    if not (_whole(entropy) or (isinstance(entropy, list) and entropy and all(_whole(v) for v in entropy))):
        raise error(f"{where}'seed': entropy must be a whole number >= 0 or a list of them, got {entropy!r}")
    if not (isinstance(spawn_key, list) and all(_whole(k) for k in spawn_key)):
        raise error(f"{where}'seed': spawn_key must be a list of whole numbers >= 0, got {spawn_key!r}")
    pool_size = value.get("pool_size", 4)
    if not (_whole(pool_size) and 4 <= pool_size <= 1024):
        raise error(f"{where}'seed': pool_size must be a whole number 4..1024, got {pool_size!r}")
    return np.random.SeedSequence(entropy, spawn_key=tuple(spawn_key), pool_size=pool_size)


def seed_text(seed: RecordedSeed | None) -> str:
    """A recorded seed for messages: ``5``, or ``SeedSequence(9, spawn_key=(1, 0))``.

    Parameters
    ----------
    seed : int, numpy.random.SeedSequence or None

    Returns
    -------
    str
    """
    if not isinstance(seed, np.random.SeedSequence):
        return str(seed)
    data = seed_to_json(seed)
    key = ", ".join(map(str, data["spawn_key"])) + ("," if len(data["spawn_key"]) == 1 else "")
    pool = f", pool_size={data['pool_size']}" if "pool_size" in data else ""
    return f"SeedSequence({data['entropy']}, spawn_key=({key}){pool})"
