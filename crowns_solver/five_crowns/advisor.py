"""Five Crowns "which discard is best" and "take the discard or draw blind" (RULES.md, Five Crowns).

Both look one draw ahead, exactly: the next card from the draw pile is equally likely to
be any card not yet seen, i.e. the full set(s) minus the cards in hand minus the cards
the caller has seen (the discard pile, other players' pick-ups), as a multiset: two
copies of each natural card and six jokers per set.  Probabilities are exact
:class:`fractions.Fraction` values (floats beside them for display).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from .._checks import check_flag
from ..errors import DuplicateCardError, NoUnseenCardError, RulesError
from .cards import JOKER, NUM_CODES, card_name, card_value, check_wild_rank, copies_per_set, parse_card, parse_hand
from .melds import MAX_HAND, _core, _rules, check_round_size
from ._text import count, sets_hold
from .rules import Rules

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["rank_discards", "should_take_discard", "TakeAdvice", "unseen_counts", "DISCARD_COLUMNS"]

#: Columns of :func:`rank_discards`, in order.
DISCARD_COLUMNS = (
    "card", "copies", "value", "deadwood", "goes_out", "p_out_next", "expected_next",
    "p_out_next_float", "expected_next_float",
)


def unseen_counts(hand: list[int], seen: list[int], sets: int, *, extra: Iterable[int] = ()) -> np.ndarray:
    """Copies of each card code not yet seen: the full set(s) minus hand, seen and `extra`.

    Parameters
    ----------
    hand, seen : list of int
        Validated card codes.
    sets : int
        1 or 2 card sets.
    extra : iterable of int
        Further cards known not to be in the draw pile (e.g. the face-up discard).

    Returns
    -------
    numpy.ndarray of int64, shape (56,)
        Element ``c``: copies of card code ``c`` still unseen (RULES.md, Five Crowns,
        "Cards": 2 per set of each natural card, 6 jokers per set).

    Raises
    ------
    DuplicateCardError
        If a card is in the hand, seen and `extra` more often than the sets hold it; the
        message says how many of each.
    """
    held = Counter(hand)
    saw = Counter(seen)
    more = Counter(extra)
    out = np.zeros(NUM_CODES, dtype=np.int64)
    for code in range(NUM_CODES):
        limit = copies_per_set(code) * sets
        used = held[code] + saw[code] + more[code]
        if used > limit:
            parts = [f"{held[code]} in hand", f"{saw[code]} seen"] + ([f"{more[code]} face up"] if more[code] else [])
            raise DuplicateCardError(
                f"card {card_name(code)}: {', '.join(parts)}, but {sets_hold(sets)} only {limit}"
            )
        out[code] = limit - used
    return out


def _pool(codes: list[int], seen_codes: list[int], sets: int, draw_pile: list[int] | None, *,
          extra: Iterable[int] = ()) -> np.ndarray:
    """The cards the next blind draw comes from: :func:`unseen_counts`, each card capped
    at its copies in `draw_pile` when the caller knows what the draw pile can hold (after a
    reshuffle; see :meth:`~crowns_solver.five_crowns.game.SeatView.draw_pool`)."""
    unseen = unseen_counts(codes, seen_codes, sets, extra=extra)
    if draw_pile is not None:
        unseen = np.minimum(unseen, np.bincount(np.asarray(draw_pile, dtype=np.int64), minlength=NUM_CODES))
    return unseen


def _ranked_rows(rows: list[tuple[int, int, int, int]], total: int, wild_rank: int) -> list[tuple[int, int, int, int]]:
    """Rows (card, deadwood kept, draws that go out, sum of deadwood over the draws) of
    ``_core.discard_table``, best discard first, in :func:`rank_discards` order: goes out
    now; then the least expected deadwood after the next draw; then the most draws that
    go out; then the least deadwood kept; then the higher-valued card; a natural card
    before a joker; the lower code.  Every row shares the same `total` unseen cards, so
    the sums order as the expectations do; with no unseen card the look-ahead is skipped.
    Discards that go out tie on everything but the card: a natural card before a wild,
    then the higher value (the advisor player's going-out discard, ``players._least_deadwood_card``).

    The one ordering of the advisor's discards: :func:`rank_discards`, the discard
    :func:`should_take_discard` expects after taking, and the advisor player."""

    def key(row: tuple[int, int, int, int]) -> tuple:
        code, kept, n_out, dsum = row
        value = card_value(code, wild_rank)
        if kept == 0:
            # goes out: the score is 0 whatever is thrown, and the next player may take it
            # on the last turn, so a natural card before a wild (20 or 50: a card of the
            # wild rank or a joker), then the higher value, as the advisor player goes out
            return (False, 0, 0, 0, value >= 20, -value, code == JOKER, code)
        look = (dsum, -n_out) if total else (0, 0)
        return (True, *look, kept, False, -value, code == JOKER, code)

    return sorted(rows, key=key)


def _prepare(hand, wild_rank, rules, seen, round_number, extra_size, lo, draw_pile, hi=MAX_HAND):
    rules = _rules(rules)
    wild_rank = check_wild_rank(wild_rank)
    codes = parse_hand(hand, sets=rules.sets, size=(lo, hi), what="hand")
    if round_number is not None:
        check_round_size(len(codes), round_number, extra=(extra_size,), what="hand")
    seen_codes = parse_hand(seen, sets=rules.sets, what="seen")
    pile = None if draw_pile is None else parse_hand(draw_pile, sets=rules.sets, what="draw_pile")
    return rules, codes, seen_codes, pile, wild_rank


def rank_discards(hand: Iterable[str | int], wild_rank: int, *, seen: Iterable[str | int] = (),
                  rules: Rules | None = None, round: int | None = None,
                  draw_pile: Iterable[str | int] | None = None,
                  discard_reshuffled: bool = False, last_turn: bool = False) -> pd.DataFrame:
    """Rank the discards of a hand of n + 1 cards, best first, looking one draw ahead.

    For each distinct card of the hand (RULES.md, Five Crowns, "Which discard is best"):
    the deadwood of the n cards kept; whether discarding it goes out now; and, drawing
    the next card from the draw pile and then discarding as well as possible, the exact
    probability of going out then and the exact expected deadwood after that discard.

    Parameters
    ----------
    hand : iterable of str or int
        The n + 1 cards held after drawing (2 to 14).
    wild_rank : int or str
        This round's wild rank, 3..13, or as a player says it (``"K"``, ``"Kings"``,
        ``"5s"``: :func:`~crowns_solver.five_crowns.cards.check_wild_rank`).
    seen : iterable of str or int
        Cards known not to be in the draw pile besides the hand: the discard pile, cards
        other players took from it...  (a multiset).
    rules : Rules, optional
        ``all_wild_melds`` and ``sets`` apply (the unseen cards come from ``sets`` sets).
    round : int, optional
        If given (1..11), the hand must hold n + 1 = round + 3 cards.
    draw_pile : iterable of str or int, optional
        The cards the draw pile can hold, when you know them (a multiset): after the draw
        pile ran out and the discard pile under its top card was shuffled into a new one
        (RULES.md, Five Crowns, "Deal and seats"), the cards reshuffled, less the ones you
        drew from it since.  The next draw then comes from these cards only, each capped at
        its copies not in the hand or `seen` (so list the reshuffled cards here, not in
        `seen`).  Default: the draw pile may hold any card not seen.
    discard_reshuffled : bool, default False
        The draw pile holds one card and another player draws before your next turn:
        that player takes the last card, and the next blind draw reshuffles the discard
        pile under its top card, which then holds the card you discard now (RULES.md,
        Five Crowns, "Deal and seats"; assuming the other players draw from the draw
        pile).  Give the discard pile as it is now as `draw_pile`: each candidate's
        look-ahead then draws from those cards plus the candidate itself (drawing it back
        gives the hand as it is, so every candidate gains the same outcome and the order
        is that of `draw_pile` alone; the figures change).
    last_turn : bool, default False
        Your last turn, after another player went out (RULES.md, Five Crowns, "Going
        out"): no draw follows, you score the deadwood of the n cards kept, so the rows
        are ranked by that deadwood alone, as with no unseen card (look-ahead columns
        None / NaN, ``attrs["unseen"]`` 0; `seen` and `draw_pile` are checked but not
        used: ``crowns five-crowns discard --last-turn`` refuses ``--seen`` and
        ``--draw-pile``).  Without it the first row is the best outlook for the next
        draw, which can keep more deadwood than another discard.

    Returns
    -------
    pandas.DataFrame
        One row per distinct card, with columns

        - ``card`` (str), ``copies`` (how many the hand holds), ``value`` (its points);
        - ``deadwood`` (int): deadwood of the n cards kept;
        - ``goes_out`` (bool): that deadwood is 0, so this discard goes out now;
        - ``p_out_next`` (Fraction): probability that, after the next draw from the draw
          pile, some discard leaves deadwood 0;
        - ``expected_next`` (Fraction): expected deadwood after that draw and the best
          discard (0 when going out);
        - ``p_out_next_float``, ``expected_next_float``: the same as floats.

        Rows are sorted best first by: goes out now; then lower ``expected_next``; then
        higher ``p_out_next``; then lower ``deadwood``; then the higher-valued card (get
        rid of points); then card order (suits S H C D R, rank, joker last).  Among the
        discards that go out (you score 0 whichever you throw, and the next player may
        take it): a natural card before a wild (a card of the wild rank or a joker), then
        the higher value, then card order.  With no unseen card left the look-ahead
        columns are None / NaN and are skipped in the ordering.  ``df.attrs`` holds
        ``unseen`` (cards the next draw comes from; with `discard_reshuffled`, counting
        the candidate's own copy), ``wild_rank``, ``discard_reshuffled`` and
        ``last_turn``.

    Raises
    ------
    CardError
        If an item of `hand`, `seen` or `draw_pile` is not a card.
    DuplicateCardError
        If a card is held, or held and seen, more often than the sets hold it (or is in
        `draw_pile` more often than that).
    HandSizeError
        If the hand has fewer than 2 or more than 14 cards, or not n + 1 for `round`.
    WildRankError
        If `wild_rank` is not 3..13 (or `round` not 1..11).
    RulesError
        If `rules` is not a :class:`Rules`, `discard_reshuffled` or `last_turn` is not a
        bool, or `discard_reshuffled` is True without `draw_pile` or with `last_turn`.

    Notes
    -----
    Cost: for each candidate and each distinct unseen card, the least deadwood over the
    next discards, i.e. up to 14 x 56 x 14 meld searches for a 14-card hand, shared
    between candidates (discarding c then e leaves the same cards as e then c).
    """
    import pandas as pd

    discard_reshuffled = check_flag("discard_reshuffled", discard_reshuffled, RulesError)
    last_turn = _check_last_turn(last_turn)
    if discard_reshuffled and last_turn:
        raise RulesError("discard_reshuffled is about your next draw, and last_turn says no draw follows:"
                         " give one of them", argument=("discard_reshuffled", "last_turn"))
    if discard_reshuffled and draw_pile is None:
        raise RulesError("discard_reshuffled needs draw_pile: the discard pile now, which the discard joins"
                         " when it is reshuffled into the draw pile")
    rules, codes, seen_codes, pile, wild_rank = _prepare(hand, wild_rank, rules, seen, round, 1, 2, draw_pile)
    unseen = _pool(codes, seen_codes, rules.sets, pile)
    if last_turn:   # no draw follows: rank by the deadwood kept alone
        unseen = np.zeros_like(unseen)
    total = int(unseen.sum())
    table = _core.discard_table(codes, wild_rank, rules.all_wild_melds, unseen)
    if discard_reshuffled:
        # candidate c's pool is the pile plus c: drawing c back gives the hand as it is,
        # whose least deadwood after a discard is the same for every candidate
        back = min(kept for _, kept, _, _ in table)
        table = [(code, kept, n_out + (back == 0), dsum + back) for code, kept, n_out, dsum in table]
        total += 1
    rows = _ranked_rows(table, total, wild_rank)
    held = Counter(codes)
    records = []
    for code, kept, n_out, dsum in rows:
        p = Fraction(n_out, total) if total else None
        e = Fraction(dsum, total) if total else None
        records.append({  # already in rank order (_ranked_rows)
            "card": card_name(code),
            "copies": held[code],
            "value": card_value(code, wild_rank),
            "deadwood": int(kept),
            "goes_out": kept == 0,
            "p_out_next": p,
            "expected_next": e,
            "p_out_next_float": float(p) if p is not None else float("nan"),
            "expected_next_float": float(e) if e is not None else float("nan"),
            "_code": code,
        })

    for r in records:
        del r["_code"]
    df = pd.DataFrame.from_records(records, columns=list(DISCARD_COLUMNS))
    df.attrs["unseen"] = total
    df.attrs["wild_rank"] = wild_rank
    df.attrs["discard_reshuffled"] = discard_reshuffled
    df.attrs["last_turn"] = last_turn
    return df


def _check_last_turn(last_turn: object) -> bool:
    return check_flag("last_turn", last_turn, RulesError)   # a NumPy bool too (session 22)


@dataclass(frozen=True)
class TakeAdvice:
    """Whether to take the face-up discard or draw blind, with the figures behind it.

    Attributes
    ----------
    take : bool
        True to take the face-up card: taking it beats a blind draw (``beats_draw``) and
        the advisor would then keep it (``then_discard`` is another card).  A card whose
        best discard afterwards is that very card is never taken: taking it and throwing
        it back leaves the hand as it was, a turn lost, while a blind draw can do that
        too (discard the card drawn) or better.
    top_card : str
        The face-up card.
    take_deadwood : int
        Deadwood after taking it and making the least-deadwood discard.
    take_discard : str
        That discard (the least deadwood; ties: the higher-valued card, then card order).
    take_goes_out : bool
        Taking it goes out now (``take_deadwood == 0``).
    draw_p_out : Fraction
        Probability that a blind draw lets the hand go out.
    draw_expected : Fraction
        Expected deadwood after a blind draw and the best discard.
    unseen : int
        Cards a blind draw comes from (at least 1: :func:`should_take_discard` refuses a
        position with none).
    beats_draw : bool
        The one-turn comparison: taking it leaves less deadwood than a blind draw is
        expected to, exactly; so taking it goes out now while some blind draw would not.
        On a tie, draw blind (taking shows the table what you collect, and a blind draw is
        never worse than keeping the hand as it is): that includes a hand already out,
        where taking and a blind draw both go out for sure (``draw_p_out == 1``).
    then_discard : str
        The advisor player's discard after taking it: when taking goes out, its
        going-out discard (the least deadwood; ties: a natural card before a wild, then
        the higher-valued card); otherwise the discard :func:`rank_discards` ranks first
        for the n + 1 cards (looking one draw ahead); on a last turn
        (``last_turn=True``) ``take_discard``.  It may differ from ``take_discard``
        otherwise: the least deadwood now is not always the best outlook.
    """

    take: bool
    top_card: str
    take_deadwood: int
    take_discard: str
    take_goes_out: bool
    draw_p_out: Fraction
    draw_expected: Fraction
    unseen: int
    beats_draw: bool
    then_discard: str

    @property
    def throws_back(self) -> bool:
        """Taking the card would be a turn lost: the advisor's discard afterwards is the
        card taken (``then_discard == top_card``)."""
        return self.then_discard == self.top_card

    def __str__(self) -> str:
        take = (f"take {self.top_card}: discard {self.take_discard}, deadwood {self.take_deadwood}"
                + (" (goes out)" if self.take_goes_out else ""))
        if self.throws_back:
            take += f"; the best discard then is the {self.top_card} itself (a turn lost)"
        elif self.then_discard != self.take_discard and self.take_goes_out:
            # two discards go out: name the one the advisor throws first (no "discard X
            # ... discards Y" in one line, which read as a contradiction)
            take = (f"take {self.top_card}: deadwood 0 (goes out), discarding the {self.then_discard}"
                    f" (the advisor throws a natural card before a wild; discarding the"
                    f" {self.take_discard} goes out too)")
        elif self.then_discard != self.take_discard:
            take += f"; the best discard then, looking one draw ahead: {self.then_discard}"
        draw = (f"draw blind: goes out with probability {float(self.draw_p_out):.3f},"
                f" expected deadwood {float(self.draw_expected):.2f}")
        if self.take_goes_out and not self.beats_draw:
            draw += " (as surely as taking: a tie, and a tie draws blind)"
        return f"{'TAKE' if self.take else 'DRAW'}\n  {take}\n  {draw}"


def should_take_discard(hand: Iterable[str | int], top_card: str | int, wild_rank: int, *,
                        seen: Iterable[str | int] = (), rules: Rules | None = None,
                        round: int | None = None, draw_pile: Iterable[str | int] | None = None,
                        last_turn: bool = False) -> TakeAdvice:
    """Take the face-up discard or draw blind? Compares the outcome of this turn exactly.

    Parameters
    ----------
    hand : iterable of str or int
        The n cards held before drawing (1 to 13).
    top_card : str or int
        The face-up card on the discard pile.  It is counted as seen; do not list it in
        `seen` as well.
    wild_rank : int or str
        This round's wild rank, 3..13, or as a player says it (``"K"``, ``"Kings"``,
        ``"5s"``: :func:`~crowns_solver.five_crowns.cards.check_wild_rank`).
    seen : iterable of str or int
        Other cards known not to be in the draw pile (the rest of the discard pile...).
    rules : Rules, optional
        ``all_wild_melds`` and ``sets`` apply (the unseen cards come from ``sets`` sets).
    round : int, optional
        If given (1..11), the hand must hold n = round + 2 cards.
    draw_pile : iterable of str or int, optional
        The cards the draw pile can hold, when you know them, as for
        :func:`rank_discards` (after a reshuffle: the cards reshuffled less the ones you
        drew from it since; the face-up card is never in it).
    last_turn : bool, default False
        Your last turn, after another player went out: the discard after taking is then
        the least-deadwood one (``then_discard`` is ``take_discard``; RULES.md, Five
        Crowns, "Going out"), not :func:`rank_discards`' look-ahead choice.  The
        comparison with a blind draw is the same (it is about this turn).

    Returns
    -------
    TakeAdvice
        Take the card if the deadwood after taking it (and the least-deadwood discard)
        is less than the expected deadwood after a blind draw (and the best discard),
        exact over the unseen cards: going out now beats a blind draw that may not; on a
        tie draw blind, so a hand that a blind draw lets go out for sure (a hand already
        out) draws blind (``beats_draw``).  But never when the advisor's
        discard afterwards (``then_discard``: going out, its going-out discard, natural
        cards before wilds; else :func:`rank_discards`' first) is the card taken: that
        turn would change nothing (``throws_back``), so draw blind.

    Raises
    ------
    CardError, DuplicateCardError, HandSizeError, WildRankError, RulesError
        As :func:`rank_discards` (the face-up card counts towards the copies).
    NoUnseenCardError
        If the hand, the face-up card and `seen` hold every card of the set(s): no card
        is left for a blind draw, which cannot happen in a game (RULES.md, Five Crowns,
        "Deal and seats": a draw pile that runs out is refilled from the discard pile
        under its top card; cards reshuffled into it are not seen).

    Notes
    -----
    When taking beats a blind draw, the card taken is never the best discard afterwards:
    its expected deadwood after the next draw is a blind draw's now, above
    ``take_deadwood``, which bounds the least-deadwood discard's (the card drawn can
    always be thrown); going out, the hand without it has deadwood above 0, so it is not
    a going-out discard.  Throwing the card back (``throws_back``) only ever came with a
    hand that already had deadwood 0 (a dealt hand), which "goes out" with any card, a
    blind draw just as surely: once the advisor player took and threw back such a card
    in 70 of 2200 2-player rounds (61 going out, 9 on last turns), and until a later
    probe such hands still took a card they could keep (docs/five_crowns_game.md, "The
    advisor's wasted turns").  Both are now a tie, and draw blind.
    """
    last_turn = _check_last_turn(last_turn)
    # before drawing: 1 to 13 cards (an empty hand said 'expected 1 to 14', 14 'expected 1 to 13')
    rules, codes, seen_codes, pile, wild_rank = _prepare(hand, wild_rank, rules, seen, round, 0, 1, draw_pile, MAX_HAND - 1)
    top = parse_card(top_card)
    f = _take_figures(codes, top, wild_rank, rules, _pool(codes, seen_codes, rules.sets, pile, extra=[top]),
                      then=True, last_turn=last_turn)
    total = f.unseen
    if not total:
        # no card left for a blind draw: impossible at a table, since a draw pile that runs
        # out is refilled from the discard pile under its top card (RULES.md, Five Crowns,
        # "Deal and seats"), and those cards are not "seen" (known not to be in the pile)
        if pile is not None:
            raise NoUnseenCardError(
                f"no card left for a blind draw: every card of the draw pile given ({len(pile)})"
                f" is in the hand, is the face-up {card_name(top)} or is among the {len(seen_codes)}"
                " seen cards; list the cards reshuffled into the draw pile in draw_pile, not among the seen cards",
                argument="draw_pile",
            )
        raise NoUnseenCardError(
            f"no unseen card: the hand ({count(len(codes), 'card')}), the face-up {card_name(top)} and"
            f" {count(len(seen_codes), 'seen card')} hold all {116 * rules.sets} cards, so a blind draw"
            " has no card to come from; that never happens in a game (RULES.md: a draw pile that"
            " runs out is refilled from the discard pile under its top card), so do not count"
            " as seen cards that can be in the draw pile (after a reshuffle, give them as draw_pile)",
            argument="draw_pile",
        )
    p = Fraction(f.n_out, total)
    e = Fraction(f.dsum, total)
    return TakeAdvice(f.take, card_name(top), f.take_deadwood, card_name(f.take_discard), f.take_deadwood == 0,
                      p, e, total, f.beats_draw, card_name(f.then_discard))


class _Figures(NamedTuple):
    take: bool
    beats_draw: bool
    take_deadwood: int
    take_discard: int
    then_discard: int | None
    n_out: int
    dsum: int
    unseen: int


def _take_figures(codes: list[int], top: int, wild_rank: int, rules: Rules, unseen: np.ndarray, *,
                  then: bool, last_turn: bool = False) -> _Figures:
    """should_take_discard's figures for validated codes; `unseen` holds the copies of
    each card a blind draw can bring (the face-up card excluded).  With `then` false the
    advisor's discard after taking (a discard table of the n + 1 cards) is left out:
    ``take`` is then the one-turn comparison alone and ``then_discard`` None (the
    players judge a take by the discard they will make themselves).  With `last_turn` the
    discard after taking is the least-deadwood one (no draw follows)."""
    total = int(unseen.sum())
    after = codes + [top]
    best = None
    kept: dict[int, int] = {}
    for code in sorted(set(after), key=lambda c: (c == JOKER, c)):
        rest = list(after)
        rest.remove(code)
        dw = kept[code] = _core.deadwood_codes(rest, wild_rank, rules.all_wild_melds)
        k = (dw, -card_value(code, wild_rank))
        if best is None or k < best[0]:
            best = (k, code)
    (take_dw, _), discard = best
    if total:
        n_out, dsum = _core.outlook(codes, wild_rank, rules.all_wild_melds, unseen)
    else:
        n_out = dsum = 0
    # less deadwood than a blind draw is expected to leave; taking goes out (take_dw 0)
    # counts only while some blind draw would not (dsum > 0): when a blind draw goes out
    # for sure as well (a hand already out), it is a tie, and a tie draws blind.  With no
    # unseen card (only a player's view of an empty draw pile, before the discard pile is
    # reshuffled into it; should_take_discard refuses it) taking beats the unknown draw.
    beats = total == 0 or take_dw * total < dsum
    first = None
    if then and last_turn:
        first = discard
    elif then and take_dw == 0:
        # it goes out: the advisor player's going-out discard (the least deadwood; ties: a
        # natural card before a wild, then the higher-valued card, then card order)
        from .players import _least_deadwood_card

        first = _least_deadwood_card(kept, wild_rank)
    elif then:
        rows = _core.discard_table(after, wild_rank, rules.all_wild_melds, unseen)
        first = _ranked_rows(rows, total, wild_rank)[0][0]
    take = beats and first != top if then else beats
    return _Figures(take, beats, take_dw, discard, first, n_out, dsum, total)
