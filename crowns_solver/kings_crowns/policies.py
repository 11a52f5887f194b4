"""Computer players for King's Crowns, all behind one interface (:class:`Policy`).

A policy sees only a :class:`~crowns_solver.kings_crowns.game.SeatView` (its own hand,
every stack, the discard top, pile and hand sizes) and a random generator; it returns
where to draw from and which card to play.  Write your own by subclassing
:class:`Policy`.  Built in (their logic is compiled, in ``ext/_kc_engine.pyx``, and reads
only the seat's view):

``random``
    A uniformly random draw source, then a uniformly random distinct legal play (every
    discard counts as one play).
``greedy``
    The builder: plays the highest crown it can; else covers a Sin on its own play stack
    (matching Forgiveness, else Holy Spirit); else Salvation; else a Gift of a new
    colour; else Time with God (or Holy Spirit) to unlock 15s and 20s; else discards the
    card it values least.  It never plays Sins (they are the first cards it discards).
    It takes the discard top only when it would play it at once.
``aggressive``
    The builder, but it plays a Sin on the leader (the opponent with most crown points
    whose play stack takes one) before building, unless a crown wins on the spot; it
    keeps Sins for later and takes a Sin from the discard pile when it has a victim.
``defensive``
    The builder, but it holds Forgiveness and Holy Spirit (discards them last, plays Holy
    Spirit only to cover a Sin, takes a discarded Holy Spirit); it never plays Sins.
``lookahead``
    Determinized Monte Carlo ("perfect information Monte Carlo", as in Ginsberg's GIB):
    for each candidate (draw source, or distinct legal play) it samples the hidden cards
    `samples` times from what the seat cannot see (the unseen cards dealt at random into
    the other hands, the draw pile and the discard pile under its top), applies the
    candidate and lets the rollout player play every seat for `horizon` turns, scoring
    the end as 1 for a win, 0 for a loss, else by the lead in crown points plus what each
    seat's stacks promise.  All candidates share the sampled deals and rollout streams
    (common random numbers).  It keeps the rollout player's own choice unless another
    candidate's paired advantage exceeds two standard errors.
"""

from __future__ import annotations

import numbers
import re

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._checks import is_choice
from .._native import load
from ..errors import IllegalMoveError, PolicyError, PolicySpecError
from .game import DrawSource, Play, SeatView

_core = load("_kc_engine")

__all__ = [
    "Policy",
    "BuiltinPolicy",
    "RandomPolicy",
    "GreedyPolicy",
    "AggressivePolicy",
    "DefensivePolicy",
    "LookaheadPolicy",
    "POLICY_NAMES",
    "get_policy",
]

POLICY_NAMES = ("random", "greedy", "aggressive", "defensive", "lookahead")
_SIMPLE = ("random", "greedy", "aggressive", "defensive")


class Policy:
    """A King's Crowns player.  Subclass it and override both methods.

    Policies must be picklable to run in worker processes (define them at module level).
    """

    #: Name used in results tables.
    name: str = "policy"

    def choose_draw(self, view: SeatView, rng: np.random.Generator) -> DrawSource:
        """Where to draw from: one of ``view.legal_draws()``.

        Parameters
        ----------
        view : SeatView
            What the seat to move sees (no hidden card).
        rng : numpy.random.Generator
            The only source of randomness a policy may use (a game replays from its seed).

        Returns
        -------
        {"draw", "discard"}
            The pile to draw from (RULES.md, King's Crowns, "A turn").
        """
        raise NotImplementedError

    def choose_play(self, view: SeatView, rng: np.random.Generator) -> Play:
        """What to play: one of ``view.legal_plays()`` (7 cards in hand, or fewer late in
        a game whose piles ran dry).

        Parameters
        ----------
        view : SeatView
            What the seat to move sees (no hidden card).
        rng : numpy.random.Generator
            The only source of randomness a policy may use (a game replays from its seed).

        Returns
        -------
        Play
            The card, its destination and (for a Sin) the target seat (RULES.md, King's
            Crowns, "Legal plays").
        """
        raise NotImplementedError

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


@dataclass(frozen=True, repr=False)
class BuiltinPolicy(Policy):
    """A compiled player (see the module docstring); `kind` is its name.

    Parameters
    ----------
    kind : str
        One of :data:`POLICY_NAMES`.

    Raises
    ------
    PolicySpecError
        If `kind` is not one of them (a PolicyError and a RulesError).
    """

    kind: str

    def __post_init__(self) -> None:
        # a str first: a NumPy array was kept, an empty one raised NumPy's "truth value of
        # an empty array is ambiguous" (session 24)
        if not is_choice(self.kind, POLICY_NAMES):
            raise PolicySpecError(f"unknown policy {self.kind!r} (policies: {', '.join(POLICY_NAMES)})")
        object.__setattr__(self, "kind", str.__str__(self.kind))   # a NumPy str_ as str

    @property
    def name(self) -> str:  # type: ignore[override]
        return self.kind

    @property
    def policy_id(self) -> int:
        return _core.POLICY_IDS[self.kind]

    @property
    def lookahead_params(self) -> tuple[int, int, int]:
        return (64, 20, _core.POLICY_IDS["aggressive"])

    def _choose(self, view: SeatView, rng: np.random.Generator) -> int:
        _check_view(view)
        return view._call_native(lambda d, sc, deck: _core.choose(self.policy_id, d, sc, deck, rng, self.lookahead_params),
                                 rng, needs_rng=True)

    def choose_draw(self, view: SeatView, rng: np.random.Generator) -> DrawSource:
        """The draw source this player picks in `view` (a draw-phase view).

        Parameters
        ----------
        view : SeatView
            What the seat to move sees (no hidden card).
        rng : numpy.random.Generator
            The only source of randomness a policy may use (a game replays from its seed).

        Returns
        -------
        {"draw", "discard"}
            The pile to draw from (RULES.md, King's Crowns, "A turn").

        Raises
        ------
        PositionError, CardError
            If `view` holds a field or card no game's view can (a SeatView made by hand).
        IllegalMoveError
            If `view` is not in the draw phase (:meth:`choose_play`: the play phase).
        PolicyError
            If `view` is not a SeatView or `rng` not a numpy Generator.
        """
        _check_phase(view, "draw")
        return ("draw", "discard")[self._choose(view, rng)]

    def choose_play(self, view: SeatView, rng: np.random.Generator) -> Play:
        """The play this player picks in `view` (a play-phase view).

        Parameters
        ----------
        view : SeatView
            What the seat to move sees (no hidden card).
        rng : numpy.random.Generator
            The only source of randomness a policy may use (a game replays from its seed).

        Returns
        -------
        Play
            One of ``view.legal_plays()`` (RULES.md, King's Crowns, "Legal plays").

        Raises
        ------
        PositionError, CardError, IllegalMoveError, PolicyError
            As :meth:`choose_draw` (IllegalMoveError: `view` is not in the play phase).
        """
        _check_phase(view, "play")
        return Play._from_action(self._choose(view, rng))


def _check_view(view: object) -> None:
    if not isinstance(view, SeatView):
        raise PolicyError(f"a policy decides from a SeatView, got {type(view).__name__}")


def _check_phase(view: SeatView, phase: str) -> None:
    """IllegalMoveError unless `view` is in `phase` (choose_draw on a play-phase view was
    an IndexError: session-19 Hypothesis tests)."""
    if isinstance(view, SeatView) and is_choice(view.phase, ("draw", "play")) and view.phase != phase:
        raise IllegalMoveError(f"choose_{phase} needs a view in the {phase} phase, got one in the {view.phase} phase")


def RandomPolicy() -> BuiltinPolicy:  # noqa: N802 - reads like a class
    """The random player (a uniformly random draw source and distinct legal play).

    Returns
    -------
    BuiltinPolicy
        ``BuiltinPolicy("random")``.
    """
    return BuiltinPolicy("random")


def GreedyPolicy() -> BuiltinPolicy:  # noqa: N802
    """The greedy builder.

    Returns
    -------
    BuiltinPolicy
        ``BuiltinPolicy("greedy")``.
    """
    return BuiltinPolicy("greedy")


def AggressivePolicy() -> BuiltinPolicy:  # noqa: N802
    """The builder that sins the leader first.

    Returns
    -------
    BuiltinPolicy
        ``BuiltinPolicy("aggressive")``.
    """
    return BuiltinPolicy("aggressive")


def DefensivePolicy() -> BuiltinPolicy:  # noqa: N802
    """The builder that holds Forgiveness and Holy Spirit.

    Returns
    -------
    BuiltinPolicy
        ``BuiltinPolicy("defensive")``.
    """
    return BuiltinPolicy("defensive")


@dataclass(frozen=True, repr=False)
class LookaheadPolicy(BuiltinPolicy):
    """The lookahead player: determinized Monte Carlo over the seat's view.

    Parameters
    ----------
    kind : str
        ``"lookahead"`` (the only value accepted).
    samples : int
        Deals sampled per decision (1..10000; default 64).
    horizon : int
        Turns (over all seats) rolled out after each candidate (default 20).
    rollout : str
        The player used in rollouts for every seat: random, greedy, aggressive
        (default) or defensive.

    Raises
    ------
    PolicySpecError
        If a parameter is out of range (a PolicyError and a RulesError).
    """

    kind: str = "lookahead"
    samples: int = 64
    horizon: int = 20
    rollout: str = "aggressive"

    def __post_init__(self) -> None:
        if not is_choice(self.kind, ("lookahead",)):
            raise PolicySpecError(f"LookaheadPolicy's kind is 'lookahead', got {self.kind!r}")
        object.__setattr__(self, "kind", "lookahead")
        for key, value, hi in (("samples", self.samples, 10_000), ("horizon", self.horizon, 100_000)):
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not 1 <= value <= hi:
                raise PolicySpecError(f"lookahead {key} must be a whole number 1..{hi}, got {value!r}")
            object.__setattr__(self, key, int(value))   # NumPy integers too
        if not is_choice(self.rollout, _SIMPLE):
            raise PolicySpecError(f"lookahead rollout must be one of {', '.join(_SIMPLE)}, got {self.rollout!r}")
        object.__setattr__(self, "rollout", str.__str__(self.rollout))

    @property
    def name(self) -> str:  # type: ignore[override]
        if (self.samples, self.horizon, self.rollout) == (64, 20, "aggressive"):
            return "lookahead"
        return f"lookahead:samples={self.samples},horizon={self.horizon},rollout={self.rollout}"

    @property
    def lookahead_params(self) -> tuple[int, int, int]:
        return (self.samples, self.horizon, _core.POLICY_IDS[self.rollout])

    def candidates(self, view: SeatView, rng: np.random.Generator) -> list[dict[str, Any]]:
        """The candidates it weighs in `view`, with their mean rollout value (0..1), the
        advantage over the rollout player's own choice and its standard error.

        Parameters
        ----------
        view : SeatView
            What the seat to move sees (no hidden card).
        rng : numpy.random.Generator
            The only source of randomness a policy may use (a game replays from its seed).

        Returns
        -------
        list of dict
            One per candidate: ``choice`` (a draw source or a :class:`Play`), ``value``
            (mean rollout value, 0..1), ``advantage`` (over the rollout player's choice),
            ``se`` (standard error of the advantage), ``default`` (whether it is the
            rollout player's own choice).
        """
        _check_view(view)
        rows = view._call_native(lambda d, sc, deck: _core.lookahead_table(d, sc, deck, rng, self.lookahead_params),
                                 rng, needs_rng=True)
        out = []
        for action, mean, adv, se, default in rows:
            choice: Any = ("draw", "discard")[action] if view.phase == "draw" else Play._from_action(action)
            out.append({"choice": choice, "value": mean, "advantage": adv, "se": se, "default": default})
        return out


def get_policy(spec: str | Policy) -> Policy:
    """A policy from its name, or a :class:`Policy` returned as is.

    Names: ``random``, ``greedy``, ``aggressive``, ``defensive``, ``lookahead``, and
    ``lookahead:samples=N,horizon=H,rollout=NAME`` (any subset of the options).

    Parameters
    ----------
    spec : str or Policy
        A name as above (case and surrounding spaces ignored), or a Policy.

    Returns
    -------
    Policy
        A :class:`BuiltinPolicy` or :class:`LookaheadPolicy`, or `spec` itself.

    Raises
    ------
    PolicySpecError
        If the name or an option is unknown or out of range, options are given to a
        policy other than lookahead, or the option list is empty or holds an empty item
        (``lookahead:``, ``lookahead:samples=2,,horizon=2``: accepted silently until
        session 23).  It is a PolicyError, as the other two games raise
        for an unknown player, and a RulesError, which this function raised until
        session 22.
    """
    if isinstance(spec, Policy):
        return spec
    if not isinstance(spec, str):
        raise PolicySpecError(f"a policy is a name or a Policy, got {spec!r}")
    name, colon, opts = spec.strip().lower().partition(":")
    if name in _SIMPLE:
        if colon:
            raise PolicySpecError(f"{name} takes no options, got {spec!r} (only lookahead does:"
                                  " lookahead:samples=N,horizon=H,rollout=NAME)")
        return BuiltinPolicy(name)
    if name != "lookahead":
        raise PolicySpecError(f"unknown policy {spec!r} (policies: {', '.join(POLICY_NAMES)})")
    kwargs: dict[str, Any] = {}
    # a colon opens an option list, and commas separate options: an empty list
    # ("lookahead:") or an empty item ("samples=2,,horizon=2", a trailing comma) is a typo,
    # refused naming the spec (until session 23 it was skipped silently)
    items = [o.strip() for o in opts.split(",")] if colon else []
    if colon and not any(items):
        raise PolicySpecError(f"no lookahead options after the colon in {spec!r}: give samples=N, horizon=H or"
                              " rollout=NAME, or write lookahead alone for the defaults")
    if "" in items:
        raise PolicySpecError(f"an empty lookahead option (two commas in a row, or a comma at either end) in"
                              f" {spec!r}: options are samples=N, horizon=H, rollout=NAME, separated by commas")
    for item in items:
        key, eq, value = item.partition("=")
        key, value = key.strip(), value.strip()
        if not eq or key not in ("samples", "horizon", "rollout"):
            raise PolicySpecError(f"unknown lookahead option {item!r} in {spec!r} (samples=, horizon=, rollout=)")
        if key in kwargs:  # samples=2,samples=3: say so rather than keep one silently
            raise PolicySpecError(f"lookahead option {key!r} given twice in {spec!r}")
        if key == "rollout":
            kwargs[key] = value
        else:
            # ASCII digits only: int() would also take other scripts' digits ('\u0663' is 3)
            if re.fullmatch(r"[+-]?[0-9]+", value) is None:
                raise PolicySpecError(f"lookahead {key} must be a whole number (digits 0-9), got {value!r}")
            kwargs[key] = int(value)
    return LookaheadPolicy(**kwargs)
