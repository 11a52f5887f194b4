"""Exceptions raised for bad input anywhere in crowns_solver.

Every exception a user can trigger with bad input derives from :class:`CrownsError`,
which is a :class:`ValueError` (:class:`EngineBusyError`, a misuse of one engine from two
threads, is a :class:`RuntimeError` too).  Messages name the offending item (the card text, the
cell, the move digit, the file entry...), so the ``crowns`` command can print them as a
single line and exit with status 2.
"""

from __future__ import annotations

__all__ = [
    "CrownsError",
    "CardError",
    "DuplicateCardError",
    "HandSizeError",
    "PositionError",
    "IllegalMoveError",
    "SaveStringError",
    "RulesError",
    "DeckError",
    "WildRankError",
    "RunnerError",
    "ResultsFileError",
    "PlayerNameError",
    "ScoreEntryError",
    "RecordError",
    "PolicyError",
    "PolicySpecError",
    "SolverOptionError",
    "UnknownCardError",
    "StudyError",
    "OutputExistsError",
    "HiddenCardError",
    "OutputPathError",
    "EmptyPathError",
    "FolderPathError",
    "MissingFolderError",
    "SamePathError",
    "NoUnseenCardError",
    "EngineBusyError",
]


class CrownsError(ValueError):
    """Base class of every input error raised by crowns_solver.

    Parameters
    ----------
    *args
        The message, as for :class:`ValueError`.
    argument : str or tuple of str, optional
        The argument(s) at fault, where the message names them as the API spells them
        (``"tt_mb must be ..."``, ``"tt_mb=0.5 MB ..."``).  Set by the check that raises.

    Attributes
    ----------
    arguments : tuple of str
        The arguments at fault (empty when the error is not about an argument's value).
        The ``crowns`` command rewrites each in the message to the option that set it
        (``tt_mb`` -> ``--tt-mb``, ``tt_mb=0.5`` -> ``--tt-mb 0.5``; see
        :func:`crowns_solver.cli.name_options`), so a check lives once, in the API, and
        its message still names the option as typed.
    """

    def __init__(self, *args: object, argument: str | tuple[str, ...] | None = None) -> None:
        super().__init__(*args)
        self.arguments: tuple[str, ...] = (argument,) if isinstance(argument, str) else tuple(argument or ())


class CardError(CrownsError):
    """A card's text is not a card of the game (e.g. ``'9S'`` in Cross Kings)."""


class DuplicateCardError(CrownsError):
    """A card appears more often than the deck holds it."""


class HandSizeError(CrownsError):
    """A hand has the wrong number of cards for what was asked."""


class PositionError(CrownsError):
    """A position or deal is impossible (not 6x6, cards missing, marker on a bad cell...)."""


class IllegalMoveError(CrownsError):
    """A move is not legal in the position it was tried on."""


class SaveStringError(CrownsError):
    """A crosskings.net save string is malformed (bad cell, bad move digit...)."""


class RulesError(CrownsError):
    """A rules option has a value outside what the rules allow."""


class DeckError(CrownsError):
    """A deck description (mapping or file) is invalid."""


class WildRankError(RulesError):
    """A Five Crowns wild rank outside 3..13, or a round outside 1..11."""


class RunnerError(CrownsError):
    """A Monte Carlo run was asked for with bad arguments (games, seed, chunk size...)."""


class ResultsFileError(RunnerError):
    """A results file is damaged, or belongs to a different run than the one resumed."""


class PlayerNameError(CrownsError):
    """A player name is empty, repeated, or there are too few or too many players."""


class ScoreEntryError(CrownsError):
    """A score entry is not points (a whole number >= 0) or the cards left in a hand."""


class RecordError(CrownsError):
    """A saved game record or score-keeper file is malformed or inconsistent."""


class PolicyError(CrownsError):
    """A computer player (policy) is unknown, or chose an action that is not legal."""


class PolicySpecError(PolicyError, RulesError):
    """A King's Crowns policy is unknown, its options are bad, or the policies given are
    not one name or Policy per seat (``kings_crowns.get_policy("foo")``).

    A :class:`PolicyError`, as an unknown Five Crowns policy or Cross Kings player is;
    also a :class:`RulesError`, which King's Crowns raised for these until session 22,
    so code catching that still catches it.
    """


class SolverOptionError(CrownsError):
    """A solver option is invalid (mode, objective, table size, time limit...)."""


class UnknownCardError(PositionError):
    """The open value was asked of a position whose face-down cards are not all known."""


class StudyError(CrownsError):
    """A study name is unknown or registered twice, or a study returned inconsistent tables."""


class OutputExistsError(CrownsError):
    """An output file already exists and the user did not ask to overwrite it (``--force``)."""


class HiddenCardError(CrownsError):
    """A player's view was asked for a card that seat cannot see (a face-down card)."""


class OutputPathError(CrownsError):
    """An output path is empty, or its folder cannot be created there."""


class EmptyPathError(OutputPathError, OutputExistsError, RunnerError):
    """An output path option or argument is empty (``--out ""``, ``path=""``...): refused
    everywhere by one check (``crowns_solver._io.check_path_given``), which names the option.

    It derives from each class these refusals used to raise (OutputPathError for report
    folders, OutputExistsError for Five Crowns files, RunnerError for results files), so
    code that catches those still catches it.
    """


class FolderPathError(OutputPathError, OutputExistsError, RunnerError):
    """A path given for a file names a folder: it ends in a path separator (``--csv out/``),
    its last part is ``.`` or ``..``, or it is an existing folder.

    Refused before any work by ``crowns_solver._io.check_file_path``, naming the option.
    Like :class:`EmptyPathError`, it derives from each class these refusals raised before.
    """


class MissingFolderError(OutputPathError, OutputExistsError, RunnerError):
    """The folder an output path lies in does not exist, or is a file (``--out notes.txt/r.jsonl``).

    Nothing creates missing folders: the message says which part is missing or is a file.
    """


class SamePathError(OutputExistsError):
    """Two output options of one command name the same file (``--out r.jsonl --csv ./r.jsonl``):
    one would overwrite the other."""


class NoUnseenCardError(CrownsError):
    """Five Crowns take-or-draw advice asked with every card accounted for (hand, face-up
    card and seen cards hold the whole set(s)): no card is left for a blind draw, which the
    rules never allow (a draw pile that runs out is refilled from the discard pile under
    its top card; RULES.md, Five Crowns, "Deal and seats")."""


class EngineBusyError(CrownsError, RuntimeError):
    """A compiled engine was called from one thread while another thread was inside it.

    The compiled engines (the Cross Kings search engine behind ``solve`` and the players,
    the King's Crowns game engine behind :class:`~crowns_solver.kings_crowns.Game`) keep
    mutable state (tables, search stacks, counters, the game) and release the GIL while
    they work, so two threads inside one engine would corrupt each other's results or
    memory.  The second call is refused at once, before it touches anything; the first
    goes on undisturbed.  Use one engine (one ``Game``) per thread, or worker processes
    (``workers=``) for parallel work.  It is a :class:`RuntimeError` as well as a
    :class:`CrownsError`: the engine's state, not an argument, is at fault.
    """
