"""Five Crowns computer players (policies) behind one small interface.

A policy answers two questions, each given a :class:`~crowns_solver.five_crowns.game.SeatView`
(what that seat may see: its own hand, the discard pile, the public history, the sizes of
the other hands and of the draw pile; never a hidden card):

* ``choose_draw(view) -> "draw" | "discard"``: take the top of the draw pile or of the
  discard pile;
* ``choose_discard(view) -> card code``: which of the n + 1 cards to discard.  When the
  seat can go out (``view.can_go_out``), the discard must be one of
  ``view.going_out_discards``; the engine lays the rest down.

On a seat's last turn (after someone went out) only ``choose_draw`` is asked; the engine
discards the card that leaves the least deadwood (RULES.md, Five Crowns, "Going out").
Randomness comes from ``view.rng`` (seeded from the game's seed).  Policies keep no state
between calls, so one object may play several seats and be sent to worker processes.

Built in (:data:`POLICIES`): ``random``, ``greedy``, ``advisor`` and ``tracker``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from ..errors import PolicyError
from .cards import JOKER, card_value, rank_of, suit_of
from .game import SeatView, kept_deadwoods

__all__ = [
    "Policy",
    "RandomPolicy",
    "GreedyPolicy",
    "AdvisorPolicy",
    "TrackerPolicy",
    "POLICIES",
    "get_policy",
    "compiled_spec",
]


@runtime_checkable
class Policy(Protocol):
    """A computer player: chooses the draw source and the discard from a seat's view."""

    name: str

    def choose_draw(self, view: SeatView) -> str:
        """``"draw"`` (top of the draw pile) or ``"discard"`` (top of the discard pile)."""
        ...

    def choose_discard(self, view: SeatView) -> int:
        """The card (code) to discard from the n + 1 cards in ``view.hand``."""
        ...


def _is_wild(card: int, wild_rank: int) -> bool:
    return card == JOKER or card % 11 + 3 == wild_rank


# _VALUE[wild_rank][code]: points of a card left in hand (RULES.md card values)
_VALUE = [[card_value(c, w) if w >= 3 else 0 for c in range(56)] for w in range(14)]


def _least_deadwood_discard(view: SeatView) -> int:
    """The card whose discard leaves the least deadwood; ties: discard a natural card
    before a wild, then the higher-valued card, then the lower code."""
    kept = view.kept_deadwoods()
    wild = view.wild_rank
    value = _VALUE[wild]
    return min(kept, key=lambda c: (kept[c], value[c] >= 20, -value[c], c))


def _best_with(view: SeatView, card: int) -> int:
    """Least deadwood after taking `card` into the hand and discarding the best card."""
    return min(kept_deadwoods([*view.hand, card], view.wild_rank, view.all_wild_melds))


class RandomPolicy:
    """Uniformly random play: draw pile or discard pile with probability 1/2, a random
    discard; it goes out when it can (a random one of the discards that go out).

    A baseline for the others, not a player to learn from.
    """

    name = "random"

    def choose_draw(self, view: SeatView) -> str:
        return "discard" if view.rng.random() < 0.5 else "draw"

    def choose_discard(self, view: SeatView) -> int:
        options = view.going_out_discards if view.can_go_out else view.hand
        return int(options[int(view.rng.integers(len(options)))])


class GreedyPolicy:
    """Least deadwood now.

    Takes the discard when holding it (and discarding the best card) leaves less deadwood
    than the hand has now; otherwise draws blind.  Discards the card that leaves the least
    deadwood (ties: a natural card before a wild, then the higher-valued card).
    """

    name = "greedy"

    def choose_draw(self, view: SeatView) -> str:
        top = view.discard_top
        if _is_wild(top, view.wild_rank):
            return "discard"
        return "discard" if _best_with(view, top) < view.deadwood else "draw"

    def choose_discard(self, view: SeatView) -> int:
        return _least_deadwood_discard(view)


class AdvisorPolicy:
    """The discard advisor's player (meld-solver issue, RULES.md "Which discard is best").

    Draw: takes the discard when :func:`~crowns_solver.five_crowns.should_take_discard`
    says so (it goes out, or its deadwood after the best discard is at most the expected
    deadwood after a blind draw, exact over the cards this seat has not seen).  Discard:
    the first choice of :func:`~crowns_solver.five_crowns.rank_discards` (goes out now;
    then the least expected deadwood after the next draw; then the best chance to go out
    then; then the least deadwood now; then the higher-valued card).  The seen cards are
    the discard pile and the cards others are known to hold.
    """

    name = "advisor"

    def choose_draw(self, view: SeatView) -> str:
        from .advisor import should_take_discard
        from .rules import Rules

        seen = view.seen_cards()
        seen.remove(view.discard_top)  # should_take_discard counts the face-up card itself
        advice = should_take_discard(list(view.hand), view.discard_top, view.wild_rank, seen=seen,
                                     rules=Rules(all_wild_melds=view.all_wild_melds, sets=view.sets))
        return "discard" if advice.take else "draw"

    def choose_discard(self, view: SeatView) -> int:
        if view.can_go_out or view.final_turn:
            return _least_deadwood_discard(view)
        return _advisor_order(view)[0][1]


def _advisor_order(view: SeatView) -> list[tuple[float, int]]:
    """(expected deadwood after the next draw, card) for each distinct card in hand, in
    :func:`rank_discards` order (same compiled table, same ordering, without building a
    DataFrame for every decision)."""
    from fractions import Fraction

    from .advisor import unseen_counts
    from .melds import _core

    hand = list(view.hand)
    wild = view.wild_rank
    unseen = unseen_counts(hand, view.seen_cards(), view.sets)
    total = int(unseen.sum())
    rows = _core.discard_table(hand, wild, view.all_wild_melds, unseen)
    value = _VALUE[wild]

    def key(row):
        code, kept, n_out, dsum = row
        look = (Fraction(dsum, total), -Fraction(n_out, total)) if total else (0, 0)
        return (kept != 0, *look, kept, -value[code], code == JOKER, code)

    rows = sorted(rows, key=key)
    return [((row[3] / total) if total else float(row[1]), int(row[0])) for row in rows]


class TrackerPolicy:
    """The advisor plus a memory of what the next player collects.

    It watches the public history for the cards the next seat took from the discard pile
    (and still holds) and the cards it threw away, and estimates how much each candidate
    discard would help that seat: a wild helps anyone; a card of the rank of a card it
    took helps a book; a card of the same suit within two ranks of one it took helps a
    run; a rank it discarded itself is probably not wanted.  Among the advisor's
    candidates it discards the one with the least ``expected deadwood + feed_weight x
    help``, so it gives up a little of its own hand to stop feeding the next player.
    Draws like the advisor.

    Parameters
    ----------
    feed_weight : float, default 3.0
        Points of own expected deadwood worth one unit of help to the next player.
    """

    name = "tracker"

    def __init__(self, feed_weight: float = 3.0) -> None:
        if not feed_weight >= 0:
            raise PolicyError(f"feed_weight must be >= 0, got {feed_weight!r}")
        self.feed_weight = float(feed_weight)

    def choose_draw(self, view: SeatView) -> str:
        return AdvisorPolicy.choose_draw(self, view)  # type: ignore[arg-type]

    def feed(self, view: SeatView, card: int) -> float:
        """How much discarding `card` would help the next seat (0 = not at all)."""
        nxt = view.next_seat
        if nxt == view.seat:
            return 0.0
        wild = view.wild_rank
        if _is_wild(card, wild):
            return 3.0
        help_ = 0.0
        for k in view.known_cards(nxt):
            if _is_wild(k, wild):
                continue
            if rank_of(k) == rank_of(card):
                help_ += 1.0
            elif suit_of(k) == suit_of(card) and abs(rank_of(k) - rank_of(card)) <= 2:
                help_ += 1.0
        thrown = [d for s, _src, _taken, d in view.history if s == nxt]
        if any(not _is_wild(d, wild) and rank_of(d) == rank_of(card) for d in thrown):
            help_ -= 0.5
        return max(help_, 0.0)

    def choose_discard(self, view: SeatView) -> int:
        if view.can_go_out or view.final_turn:
            return _least_deadwood_discard(view)
        order = _advisor_order(view)
        return min(order, key=lambda ec: (ec[0] + self.feed_weight * self.feed(view, ec[1]), ec[1]))[1]


#: Built-in policies by name.
POLICIES: dict[str, Callable[[], Policy]] = {
    "random": RandomPolicy,
    "greedy": GreedyPolicy,
    "advisor": AdvisorPolicy,
    "tracker": TrackerPolicy,
}


def compiled_spec(policy: object) -> tuple[int, tuple[float, ...]] | None:
    """The compiled game loop's code and parameters for `policy`, or None when it has no
    compiled twin.

    Only instances of the built-in classes themselves qualify (a subclass may override
    what it chooses, so it plays through the Python engine)."""
    kind = _COMPILED.get(type(policy))
    if kind is None:
        return None
    from .game import _compiled

    params = getattr(policy, "_compiled_params", lambda: ())()
    return _compiled().POLICY_CODES[kind], tuple(float(x) for x in params)


_COMPILED: dict[type, str] = {RandomPolicy: "random", GreedyPolicy: "greedy", AdvisorPolicy: "advisor"}


def get_policy(name: str | Policy) -> Policy:
    """A built-in policy by name (``"random"``, ``"greedy"``, ``"advisor"``, ``"tracker"``),
    or `name` itself when it is already a policy object.

    Raises
    ------
    PolicyError
        Unknown name, or an object without ``choose_draw`` and ``choose_discard``.
    """
    if isinstance(name, str):
        try:
            return POLICIES[name.strip().lower()]()
        except KeyError:
            raise PolicyError(f"unknown policy {name!r} (known: {', '.join(POLICIES)})") from None
    if not (callable(getattr(name, "choose_draw", None)) and callable(getattr(name, "choose_discard", None))):
        raise PolicyError(f"not a policy: {name!r} (needs choose_draw and choose_discard)")
    return name
