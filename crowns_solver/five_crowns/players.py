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
discards the card that leaves the least deadwood (RULES.md, Five Crowns, "Going out";
:func:`~crowns_solver.five_crowns.game.last_turn_discard`).  The built-in players other
than ``random`` never take the face-up card when the discard that follows, theirs or on
a last turn the engine's, would be that very card: such a turn changes nothing.
Randomness comes from ``view.rng`` (seeded from the game's seed).  Policies keep no state
between calls, so one object may play several seats and be sent to worker processes.

Built in (:data:`POLICIES`): ``random``, ``greedy``, ``advisor`` and ``tracker``.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from ..errors import PolicyError
from .cards import JOKER, card_value, rank_of, suit_of
from .game import SeatView, kept_deadwoods, last_turn_discard

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
        """``"draw"`` (top of the draw pile) or ``"discard"`` (top of the discard pile).

        Parameters
        ----------
        view : SeatView
            This seat's view in its draw phase (n cards in hand).

        Returns
        -------
        {"draw", "discard"}
            ``"draw"``: the top of the draw pile (blind); ``"discard"``: the face-up card.
        """
        ...

    def choose_discard(self, view: SeatView) -> int:
        """The card (code) to discard from the n + 1 cards in ``view.hand``.

        Parameters
        ----------
        view : SeatView
            This seat's view in its discard phase (n + 1 cards in ``view.hand``).

        Returns
        -------
        int
            The code of a card in ``view.hand``.
        """
        ...


def _is_wild(card: int, wild_rank: int) -> bool:
    return card == JOKER or card % 11 + 3 == wild_rank


# _VALUE[wild_rank][code]: points of a card left in hand (RULES.md card values)
_VALUE = [[card_value(c, w) if w >= 3 else 0 for c in range(56)] for w in range(14)]


def _least_deadwood_discard(view: SeatView) -> int:
    """The card whose discard leaves the least deadwood; ties: discard a natural card
    before a wild, then the higher-valued card, then the lower code."""
    return _least_deadwood_card(view.kept_deadwoods(), view.wild_rank)


def _last_turn_throws_back(hand: list[int], kept: list[int]) -> bool:
    """On a last turn, whether taking the face-up card (the last of `hand`, the n + 1
    cards after taking it, `kept` their kept deadwoods) leads the engine to discard that
    same card: then taking it cannot help (the hand ends as it is, and so would a blind
    draw whose card is discarded), so the players draw blind instead."""
    return last_turn_discard(hand, kept) == hand[-1]


def _final_turn_throws_back(view: SeatView) -> bool:
    """Draw phase of a last turn: whether taking the face-up card leads the engine to
    discard that same card (:func:`_last_turn_throws_back` on the hand after taking it)."""
    hand = [*view.hand, view.discard_top]
    return _last_turn_throws_back(hand, kept_deadwoods(hand, view.wild_rank, view.all_wild_melds))


def _least_deadwood_card(kept: dict[int, int], wild_rank: int) -> int:
    """Of the cards `kept` maps to the deadwood left by discarding them, the one to
    discard: the least deadwood; ties: a natural card before a wild, then the
    higher-valued card, then the lower code."""
    value = _VALUE[wild_rank]
    return min(kept, key=lambda c: (kept[c], value[c] >= 20, -value[c], c))


class RandomPolicy:
    """Uniformly random play: draw pile or discard pile with probability 1/2, a random
    discard; it goes out when it can (a random one of the discards that go out).

    A baseline for the others, not a player to learn from.
    """

    name = "random"

    def __repr__(self) -> str:
        return "RandomPolicy()"

    def choose_draw(self, view: SeatView) -> str:
        """Either source with probability 1/2 (drawn with ``view.rng``).

        Parameters
        ----------
        view : SeatView
            This seat's view in its draw phase (n cards in hand).

        Returns
        -------
        {"draw", "discard"}
            ``"draw"``: the top of the draw pile (blind); ``"discard"``: the face-up card.
        """
        return "discard" if view.rng.random() < 0.5 else "draw"

    def choose_discard(self, view: SeatView) -> int:
        """A uniformly random card (with ``view.rng``), one that goes out when any does.

        Parameters
        ----------
        view : SeatView
            This seat's view in its discard phase (n + 1 cards in ``view.hand``).

        Returns
        -------
        int
            The code of a card in ``view.hand``.
        """
        options = view.going_out_discards if view.can_go_out else view.hand
        return int(options[int(view.rng.integers(len(options)))])


class GreedyPolicy:
    """Least deadwood now.

    Takes the face-up card when holding it (and discarding the best card) leaves less
    deadwood than the hand has now, and a wild whenever it would keep it (its best
    discard after taking it is another card, so the deadwood does not rise); otherwise
    draws blind.  It never takes a card only to throw that card straight back: such a
    turn changes nothing, and two greedy players would hand an unwanted wild to each
    other until the turn cap (docs/five_crowns_game.md); on a last turn too, where the
    engine makes the discard (:func:`~crowns_solver.five_crowns.game.last_turn_discard`).
    Discards the card that leaves the least deadwood (ties: a natural card before a wild,
    then the higher-valued card).
    """

    name = "greedy"

    def __repr__(self) -> str:
        return "GreedyPolicy()"

    def choose_draw(self, view: SeatView) -> str:
        """The face-up card when it lowers the deadwood or is a wild worth keeping (see the class).

        Parameters
        ----------
        view : SeatView
            This seat's view in its draw phase (n cards in hand).

        Returns
        -------
        {"draw", "discard"}
            ``"draw"``: the top of the draw pile (blind); ``"discard"``: the face-up card.
        """
        top = view.discard_top
        wild = view.wild_rank
        hand = [*view.hand, top]
        kept = kept_deadwoods(hand, wild, view.all_wild_melds)
        if _is_wild(top, wild):
            take = _least_deadwood_card(dict(zip(hand, kept)), wild) != top
        else:
            take = min(kept) < view.deadwood
        if take and view.final_turn and _last_turn_throws_back(hand, kept):
            return "draw"
        return "discard" if take else "draw"

    def choose_discard(self, view: SeatView) -> int:
        """The card whose discard leaves the least deadwood (see the class).

        Parameters
        ----------
        view : SeatView
            This seat's view in its discard phase (n + 1 cards in ``view.hand``).

        Returns
        -------
        int
            The code of a card in ``view.hand``.
        """
        return _least_deadwood_discard(view)


class AdvisorPolicy:
    """The discard advisor's player (meld-solver issue, RULES.md "Which discard is best").

    Draw: takes the discard when it beats a blind draw by
    :func:`~crowns_solver.five_crowns.should_take_discard`'s one-turn comparison
    (``beats_draw``: its deadwood after the least-deadwood discard is less than the
    expected deadwood after a blind draw, exact over the cards a blind draw can bring
    (:meth:`~crowns_solver.five_crowns.game.SeatView.draw_pool`), so
    going out beats a draw that may not; a tie draws blind, so a hand already out, which
    any blind draw lets go out, draws blind), unless the discard that follows, its own (below) or on a last turn
    the engine's, would be that very card: such a turn changes nothing, and a blind draw
    does as well (docs/five_crowns_game.md, "The advisor's wasted turns").  Discard:
    the first choice of :func:`~crowns_solver.five_crowns.rank_discards` (goes out now;
    then the least expected deadwood after the next draw; then the best chance to go out
    then; then the least deadwood now; then the higher-valued card); going out, the
    going-out card that leaves the least deadwood (ties: a natural card before a wild,
    then the higher-valued card).  The next draw comes from ``view.draw_pool()``: the
    cards it has not seen (not in its hand, the discard pile or the cards others are
    known to hold); after a reshuffle, only those of the reshuffled pile (less its own
    blind draws since), since cards never seen are in other hands.
    """

    name = "advisor"

    def __repr__(self) -> str:
        return "AdvisorPolicy()"

    def choose_draw(self, view: SeatView) -> str:
        """The face-up card when it beats a blind draw and is not thrown straight back (see the class).

        Parameters
        ----------
        view : SeatView
            This seat's view in its draw phase (n cards in hand).

        Returns
        -------
        {"draw", "discard"}
            ``"draw"``: the top of the draw pile (blind); ``"discard"``: the face-up card.
        """
        figures = _take_figures(view)
        if not figures.beats_draw:
            return "draw"
        if (not view.final_turn and figures.take_deadwood > 0 and figures.unseen > 0
                and not _next_pool_differs(view)):
            # its discard will be rank_discards' first, never the card taken here: that
            # card's expected deadwood after the next draw is a blind draw's now, above
            # take_deadwood, which bounds the least-deadwood discard's (when the next
            # draw comes from the same pool as a blind draw now)
            return "discard"
        if view.final_turn:   # the engine discards the least deadwood: is it the card taken?
            return "draw" if _final_turn_throws_back(view) else "discard"
        return "draw" if self.choose_discard(view.after_taking_discard()) == view.discard_top else "discard"

    def choose_discard(self, view: SeatView) -> int:
        """The first choice of :func:`~crowns_solver.five_crowns.rank_discards` (see the class).

        Parameters
        ----------
        view : SeatView
            This seat's view in its discard phase (n + 1 cards in ``view.hand``).

        Returns
        -------
        int
            The code of a card in ``view.hand``.
        """
        if view.can_go_out or view.final_turn:
            return _least_deadwood_discard(view)
        return _advisor_order(view)[0][1]


def _take_figures(view: SeatView):
    """:func:`should_take_discard`'s figures for a seat's draw phase, without the discard
    after taking (``beats_draw`` is the one-turn comparison)."""
    from .advisor import _take_figures as figures
    from .rules import Rules

    # the draw phase's pool never holds the face-up card (it is on the discard pile)
    return figures(list(view.hand), view.discard_top, view.wild_rank,
                   Rules(all_wild_melds=view.all_wild_melds, sets=view.sets), view.draw_pool(), then=False)


def _next_pool_differs(view: SeatView) -> bool:
    """Draw phase: whether this seat's draw on its next turn comes from another pool than
    a blind draw now: one card left in the draw pile, which the next seat draws, so the
    discard pile is reshuffled before this seat draws again (SeatView.discard_joins_pool)."""
    return view.draw_size == 1 and len(view.seats) > 1


def _advisor_order(view: SeatView) -> list[tuple[float, int]]:
    """(expected deadwood after the next draw, card) for each distinct card in hand, in
    :func:`rank_discards` order (same compiled table, same ordering, without building a
    DataFrame for every decision).

    When the discard joins the next draw's pool (:attr:`SeatView.discard_joins_pool`),
    each candidate c's pool is ``draw_pool()`` plus c; drawing c back gives the hand as
    it is, whose least deadwood after a discard is the same for every candidate, so every
    candidate gains the same draw outcome and the order is that of ``draw_pool()``."""
    from .advisor import _ranked_rows
    from .melds import _core

    hand = list(view.hand)
    wild = view.wild_rank
    unseen = view.draw_pool()
    total = int(unseen.sum())
    table = _core.discard_table(hand, wild, view.all_wild_melds, unseen)
    rows = _ranked_rows(table, total, wild)
    if view.discard_joins_pool:
        back = min(row[1] for row in table)   # the hand as it is, after its best discard
        return [((row[3] + back) / (total + 1), int(row[0])) for row in rows]
    return [((row[3] / total) if total else float(row[1]), int(row[0])) for row in rows]


#: Estimated chance that a discard lets the next seat go out by taking it, by round size
#: n (cards dealt): the share of discards in 300 seeded 4-player advisor games (20178
#: discards) after which the next seat took the card and went out.
FEED_BASE = (0.0, 0.0, 0.0, 0.21, 0.069, 0.028, 0.10, 0.064, 0.046, 0.10, 0.096, 0.068, 0.114, 0.114)
#: Odds factors for public signs about the next seat (fitted on the same games): it holds a
#: card of this rank taken from the discard pile; one of this suit within two ranks; it
#: discarded this rank this round; it drew blind instead of taking this rank.
FEED_FACTORS = (("book", 7.7), ("run", 3.2), ("threw", 0.45), ("passed", 0.6))
#: The chance used for a wild (any player takes one).
FEED_WILD = 0.6


class TrackerPolicy:
    """Looks two draws ahead, and keeps track of what the next seat collects.

    Discard (when it cannot go out), for each distinct card c of the n + 1 held:

    1. One draw ahead, exactly, over the cards a blind draw can bring (as the advisor:
       ``view.draw_pool()``, the unseen cards or, after a reshuffle, what is left of the
       reshuffled pile):
       for every next card d, the least deadwood after drawing d and the best discard.
       The next draw is the better of a blind draw and the face-up card the previous seat
       throws (taken when it beats a blind draw's expectation; its distribution taken as
       that of the unseen cards), so ``e1`` = E[min(outcome of that card, expected blind
       outcome)], which rewards hands that many cards improve.
    2. ``feed(c)``: the estimated chance that the next seat goes out by taking c.  A base
       rate per round size (:data:`FEED_BASE`) times an odds factor for every public sign
       (:data:`FEED_FACTORS`): the next seat took a card of c's rank from the discard
       pile and still holds it (a book: x7.7), or one of c's suit within two ranks (a
       run: x3.2); it discarded a card of c's rank this round (x0.45); it drew blind
       rather than take a card of that rank (x0.6).  A wild: :data:`FEED_WILD`.
    3. The best `candidates` cards by ``first = e1 + feed_weight * feed(c)`` that are
       within `margin` points of the best are looked at two draws ahead, exactly: after
       the first draw the card leaving the least deadwood is discarded, then the second
       draw and the best discard; ``e2`` = expected deadwood after both, ``stay2`` = the
       chance of not having gone out by then.  They are ranked by ``(1 - lookahead) * e1
       + lookahead * e2 + out_weight * stay2 + feed_weight * feed(c)`` (ties: less
       deadwood kept, then the lower code).  With a single candidate within the margin
       it is the choice (the look-ahead rarely overturns a lead of a point).

    Going out, it discards, of the cards that go out, the one least likely to let the
    next seat go out on its last turn.

    Draw: like the advisor's one-turn comparison (takes the face-up card when its
    deadwood after the least-deadwood discard is less than a blind draw's expectation,
    so when it goes out and a blind draw may not; a hand already out draws blind:
    ``TakeAdvice.beats_draw``), except that it never takes the
    face-up card only to discard it that same turn: when the discard rule above, feed
    penalty included, or on a last turn the engine's least-deadwood discard, would throw
    back the card taken, it draws blind.  Such a turn changes nothing, and two trackers
    used to hand one card to each other until the 2000-turn cap
    (docs/five_crowns_game.md, "Tracker players and the turn cap").

    Parameters
    ----------
    feed_weight : float, default 10.0
        Points of expected deadwood worth a chance of 1 that the next seat goes out.
    lookahead : float, default 0.75
        Weight of the two-draw expectation against the one-draw one (0..1).
    out_weight : float, default 10.0
        Points per unit chance of not having gone out after two draws.
    candidates : int, default 2
        Cards looked at two draws ahead at most (0: one draw only).
    margin : float, default 1.0
        Only cards whose first score is within this many points of the best one are
        looked at two draws ahead.

    Raises
    ------
    PolicyError
        If a parameter is out of range.

    Notes
    -----
    The defaults were tuned in duplicate 2-against-2 matches against the advisor
    (docs/five_crowns_game.md).  The look-ahead uses only the seat's own hand, the cards
    it has seen (the discard pile, cards others are known to hold, the cards of a
    reshuffle and its own blind draws since) and the public history; the tests check
    that it never reads a hidden card.  The compiled game loop
    plays the same policy (``play_game(engine="compiled")``), decision for decision.
    """

    name = "tracker"

    def __init__(self, feed_weight: float = 10.0, lookahead: float = 0.75, out_weight: float = 10.0,
                 candidates: int = 2, margin: float = 1.0) -> None:
        def number(name: str, value: object, lo: float, hi: float) -> float:
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not lo <= value <= hi:
                raise PolicyError(f"TrackerPolicy {name} must be a number {lo:g}..{hi:g}, got {value!r}")
            return float(value)

        self.feed_weight = number("feed_weight", feed_weight, 0.0, 1e6)
        self.lookahead = number("lookahead", lookahead, 0.0, 1.0)
        self.out_weight = number("out_weight", out_weight, 0.0, 1e6)
        if isinstance(candidates, bool) or not isinstance(candidates, numbers.Integral) or not 0 <= candidates <= 14:
            raise PolicyError(f"TrackerPolicy candidates must be an integer 0..14, got {candidates!r}")
        self.candidates = int(candidates)   # NumPy integers too (session-18 probe)
        self.margin = number("margin", margin, 0.0, 1e9)
        self._memo: tuple[tuple, int] | None = None  # see choose_draw

    def __repr__(self) -> str:
        return (f"TrackerPolicy(feed_weight={self.feed_weight:g}, lookahead={self.lookahead:g},"
                f" out_weight={self.out_weight:g}, candidates={self.candidates}, margin={self.margin:g})")

    def _compiled_params(self) -> tuple[float, ...]:
        return (self.feed_weight, self.lookahead, self.out_weight, float(self.candidates), self.margin)

    def choose_draw(self, view: SeatView) -> str:
        """The advisor's comparison, never taking a card its discard rule would throw back.

        Parameters
        ----------
        view : SeatView
            This seat's view in its draw phase (n cards in hand).

        Returns
        -------
        {"draw", "discard"}
            ``"draw"``: the top of the draw pile (blind); ``"discard"``: the face-up card.
        """
        if not _take_figures(view).beats_draw:
            return "draw"
        if view.final_turn:  # the engine discards the least deadwood: is it the card taken?
            return "draw" if _final_turn_throws_back(view) else "discard"
        # never take the face-up card only to throw it back: with the feed penalty the
        # discard rule may prefer it to the card the advisor's draw rule meant to drop,
        # and two trackers then hand it to each other until the turn cap
        top = view.discard_top
        after = view.after_taking_discard()
        card = self.choose_discard(after)
        if card == top:
            return "draw"
        # the engine asks for the discard on this very position next: keep the answer
        self._memo = (self._position(after), card)
        return "discard"

    @staticmethod
    def _position(view: SeatView) -> tuple:
        """Everything :meth:`choose_discard` reads from a view (its choice is a function of
        this and the parameters), to recognise the position its draw rule just judged."""
        others = tuple((s, view.known_cards(s)) for s in view.seats if s != view.seat)
        return (view.seat, view.round, view.seats, view.cards_dealt, view.wild_rank, view.sets,
                view.all_wild_melds, view.hand, view.discard_pile, view.history, others, view.draw_size,
                view.reshuffled, view.drawn_since_reshuffle)

    def signs(self, view: SeatView, card: int) -> dict[str, bool]:
        """The public signs about the next seat for discarding natural `card` (see class doc).

        Parameters
        ----------
        view : SeatView
            This seat's view.
        card : int
            A natural card's code (not a joker).

        Returns
        -------
        dict of str to bool
            ``book``, ``run``, ``threw`` and ``passed``: whether each sign of
            :data:`FEED_FACTORS` holds for the next seat.
        """
        nxt = view.next_seat
        wild = view.wild_rank
        r, su = rank_of(card), suit_of(card)
        out = {"book": False, "run": False, "threw": False, "passed": False}
        for k in view.known_cards(nxt):
            if _is_wild(k, wild):
                continue
            if rank_of(k) == r:
                out["book"] = True
            elif suit_of(k) == su and abs(rank_of(k) - r) <= 2:
                out["run"] = True
        history = view.history
        for i, (s, source, _taken, thrown) in enumerate(history):
            if s != nxt:
                continue
            if not _is_wild(thrown, wild) and rank_of(thrown) == r:
                out["threw"] = True
            if source == "draw" and i > 0:
                left = history[i - 1][3]  # the face-up card it did not take
                if not _is_wild(left, wild) and rank_of(left) == r:
                    out["passed"] = True
        return out

    def feed(self, view: SeatView, card: int) -> float:
        """Estimated chance (0..1) that the next seat goes out by taking `card`.

        Parameters
        ----------
        view : SeatView
            This seat's view.
        card : int
            The card code this seat would discard.

        Returns
        -------
        float
            0 when this seat is the next seat too; :data:`FEED_WILD` for a wild;
            otherwise the base rate of :data:`FEED_BASE` for the round's size times the
            factor of each sign that holds (:meth:`signs`),
            at most 1.
        """
        if view.next_seat == view.seat:
            return 0.0
        if _is_wild(card, view.wild_rank):
            return FEED_WILD
        p = FEED_BASE[view.cards_dealt]
        signs = self.signs(view, card)
        for sign, factor in FEED_FACTORS:
            if signs[sign]:
                p = p * factor
        return p if p < 1.0 else 1.0

    def choose_discard(self, view: SeatView) -> int:
        """The card the two-draw look-ahead and the feed penalty rank first (see the class).

        Parameters
        ----------
        view : SeatView
            This seat's view in its discard phase (n + 1 cards in ``view.hand``).

        Returns
        -------
        int
            The code of a card in ``view.hand``.
        """
        memo = getattr(self, "_memo", None)
        if memo is not None:  # a one-entry cache, not state: the key is the whole position
            self._memo = None
            if memo[0] == self._position(view):
                return memo[1]
        wild = view.wild_rank
        value = _VALUE[wild]
        if view.can_go_out:
            return min(view.going_out_discards,
                       key=lambda c: (self.feed(view, c), value[c] >= 20, -value[c], c))
        from .game import _compiled

        hand = list(view.hand)
        pool = view.draw_pool()
        # one card left in the draw pile: each candidate's own discard joins the pool of
        # the next draw (SeatView.discard_joins_pool), so the pools differ by candidate
        joins = view.discard_joins_pool
        total = int(pool.sum()) + joins
        if total == 0:
            return _advisor_order(view)[0][1]
        game = _compiled()
        cards, kept, rows = game.discard_outcomes(hand, wild, view.all_wild_melds, pool)
        pools = [pool] * len(cards)
        if joins:
            # candidate c's pool is draw_pool(discard=c); drawing c back gives the hand as
            # it is: its least deadwood after the best discard, the same for every c
            pools = []
            for card in cards:
                pools.append(pool.copy())
                pools[-1][card] += 1
            rows = [list(row) for row in rows]
            for card, row in zip(cards, rows):
                row[card] = min(kept)
        e1, first, feed = [], [], []
        for card, row, unseen in zip(cards, rows, pools):
            dsum = sum(int(unseen[d]) * row[d] for d in range(56) if unseen[d] > 0)
            e1num = sum(int(unseen[d]) * min(row[d] * total, dsum) for d in range(56) if unseen[d] > 0)
            e1.append(e1num / (total * total))
            feed.append(self.feed(view, card))
            first.append(e1[-1] + self.feed_weight * feed[-1])
        ranked = sorted(range(len(cards)), key=lambda i: (first[i], kept[i], i))
        picked: list[int] = []
        if total >= 2 and (self.lookahead != 0 or self.out_weight != 0):
            for i in ranked[: self.candidates]:
                if picked and first[i] > first[picked[0]] + self.margin:
                    break
                picked.append(i)
        if len(picked) == 1:
            return cards[picked[0]]
        best, best_score = -1, 0.0
        for i in picked:
            e2num, s2num = game.two_step(hand, cards[i], wild, view.all_wild_melds, pools[i], rows[i], kept[i])
            base = (1.0 - self.lookahead) * e1[i] + self.feed_weight * feed[i]
            score = base + (self.lookahead * e2num + self.out_weight * s2num) / (total * (total - 1))
            if best < 0 or score < best_score or (score == best_score and kept[i] < kept[best]):
                best, best_score = i, score
        if best < 0:
            best = ranked[0]
        return cards[best]


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
    what it chooses, so it plays through the Python engine).

    Parameters
    ----------
    policy : object
        Any policy.

    Returns
    -------
    tuple of (int, tuple of float) or None
        The compiled engine's policy code and the policy's parameters as floats.
    """
    kind = _COMPILED.get(type(policy))
    if kind is None:
        return None
    from .game import _compiled

    params = getattr(policy, "_compiled_params", lambda: ())()
    return _compiled().POLICY_CODES[kind], tuple(float(x) for x in params)


_COMPILED: dict[type, str] = {RandomPolicy: "random", GreedyPolicy: "greedy", AdvisorPolicy: "advisor",
                              TrackerPolicy: "tracker"}


def get_policy(name: str | Policy) -> Policy:
    """A built-in policy by name (``"random"``, ``"greedy"``, ``"advisor"``, ``"tracker"``),
    or `name` itself when it is already a policy object.

    Parameters
    ----------
    name : str or Policy
        A name of :data:`POLICIES` (case and surrounding spaces ignored), or an object
        with ``choose_draw`` and ``choose_discard``.

    Returns
    -------
    Policy
        A new instance of the named policy with its default parameters, or `name`.

    Raises
    ------
    PolicyError
        Unknown name, a class instead of an instance (``GreedyPolicy``, not
        ``GreedyPolicy()``), or an object without ``choose_draw`` and ``choose_discard``.
    """
    if isinstance(name, str):
        try:
            return POLICIES[name.strip().lower()]()
        except KeyError:
            raise PolicyError(f"unknown policy {name!r} (known: {', '.join(POLICIES)})") from None
    if isinstance(name, type):   # its methods are callable too: it failed later with a TypeError (session 22)
        raise PolicyError(f"{name.__name__} is a policy class, not a policy: pass an instance, {name.__name__}()")
    if not (callable(getattr(name, "choose_draw", None)) and callable(getattr(name, "choose_discard", None))):
        raise PolicyError(f"not a policy: {name!r} (needs choose_draw and choose_discard)")
    return name
