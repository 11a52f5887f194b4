"""``crowns five-crowns deadwood | discard | take``: meld solving and discard advice."""

from __future__ import annotations

import argparse
import contextlib
from collections.abc import Iterator

from ..cli import add_json_flag, print_json
from ..errors import WildRankError
from ._text import count

WILD_NAMES = {3: "3s", 4: "4s", 5: "5s", 6: "6s", 7: "7s", 8: "8s", 9: "9s", 10: "10s",
              11: "Jacks", 12: "Queens", 13: "Kings"}


def _cards(items: list[str]) -> list[str]:
    """The cards of the command-line arguments (commas or spaces may separate cards inside
    one argument).  An argument holding no card at all (``""``, ``" "``, ``","``) is a
    CardError naming it: the shell passed it on purpose, so it is never silently dropped."""
    from ..errors import CardError

    out = []
    for item in items:
        cards = item.replace(",", " ").split()
        if not cards:
            raise CardError(f"not a Five Crowns card: {item!r} (an empty argument)")
        out.extend(cards)
    return out


def _setup(args: argparse.Namespace):
    """(cards, seen, draw pile or None, wild rank, round or None, rules) from the common
    options; `args` is only read (the draw pile is returned, not stored on it)."""
    from .cards import wild_rank_for_round
    from .rules import Rules

    if args.round is None and args.wild is None:
        raise WildRankError("give the round (--round 1..11) or the wild rank (--wild 3..13)")
    wild = wild_rank_for_round(args.round) if args.round is not None else None
    if args.wild is not None:
        wild = _wild_arg(args.wild)
    if args.max_book_size is not None and args.max_book_size < 5:
        # in the command's words: not Rules' "None or an integer >= 5" (an option has no None)
        from ..errors import RulesError

        raise RulesError(f"--max-book-size must be a whole number >= 5, got {args.max_book_size} (with a smaller"
                         " cap some books could not be split, so the cap would change the deadwood)")
    rules = Rules(all_wild_melds=not args.no_all_wild_melds, max_book_size=args.max_book_size, sets=args.sets)
    seen = _option_cards(getattr(args, "seen", None) or [], "--seen", rules.sets)
    pile = getattr(args, "draw_pile", None)
    if pile is not None:
        pile = _option_cards(pile, "--draw-pile", rules.sets)
    return _cards(args.cards), seen, pile, wild, args.round, rules


def _option_cards(items: list[str], option: str, sets: int) -> list[str]:
    """The cards of `option` (``--seen``, ``--draw-pile``), checked here so that a bad card
    or too many copies of one is refused naming the option as typed (the API's messages
    say ``seen`` / ``draw_pile``, or nothing for a card that is not one)."""
    from ..errors import CardError
    from .cards import parse_hand

    try:
        cards = _cards(items)
        parse_hand(cards, sets=sets, what=option)
    except CardError as exc:
        if str(exc).startswith(f"{option}: "):
            raise
        raise type(exc)(f"{option}: {exc}") from None
    return cards


def _wild_arg(text: str) -> int:
    """``--wild``, read by the API's own parser (:func:`~crowns_solver.five_crowns.cards.check_wild_rank`:
    3..13, ``5s``, T/J/Q/K, Jacks, Queens, Kings), so the command and the API take the same
    spellings; text that is no rank is refused naming the option."""
    from .cards import check_wild_rank

    try:
        return check_wild_rank(text)
    except WildRankError as exc:
        if str(exc).startswith("wild rank must be 3..13 (3s"):   # a number out of range: its own words,
            raise WildRankError(str(exc).replace("wild rank", "--wild", 1)) from None   # naming the option
        raise WildRankError(f"--wild must be a rank 3..13 (or J, Q, K), got {text!r}") from None


def _names(cards: list[str]) -> list[str]:
    """The cards as the library names them (``TH`` -> ``10H``, ``joker`` -> ``JK``), so the
    heading and ``--json`` match the other fields (they echoed the text typed, upper-cased:
    ``TH`` beside ``10H``); called once the cards are checked."""
    from .cards import card_name, parse_card

    return [card_name(parse_card(c)) for c in cards]


def _heading(cards: list[str], wild: int, round_number: int | None, rules=None) -> str:
    where = f"round {round_number} ({count(round_number + 2, 'card')}), " if round_number is not None else ""
    return f"{where}{WILD_NAMES[wild]} wild: {' '.join(_names(cards))}{_rules_note(rules)}"


def _rules_note(rules) -> str:
    """The rules options that differ from RULES.md's defaults, for the heading: the
    answer depends on them (``JK JK JK`` has deadwood 0, or 150 without melds of wilds
    only), and until session 20 neither the text nor ``--json`` said they were used."""
    if rules is None:
        return ""
    notes = [f"{rules.sets} sets"] if rules.sets != 1 else []
    if not rules.all_wild_melds:
        notes.append("no melds of wilds only")
    if rules.max_book_size is not None:
        notes.append(f"books of more than {rules.max_book_size} shown split")
    return f" ({', '.join(notes)})" if notes else ""


def _rules_json(rules) -> dict:
    """The ``rules`` field of ``--json``: every option of :class:`Rules`, as used."""
    return {"rules": {"all_wild_melds": rules.all_wild_melds, "max_book_size": rules.max_book_size,
                      "sets": rules.sets}}


def _arrangement_dict(arr) -> dict:
    return {
        "deadwood": arr.deadwood,
        "melds": [{"kind": m.kind, "cards": list(m.cards), "stands_for": list(m.stands_for)} for m in arr.melds],
        "left": list(arr.left),
    }


def cmd_deadwood(args: argparse.Namespace) -> int:
    from .cards import hand_value
    from .melds import best_melds

    cards, _, _, wild, rnd, rules = _setup(args)
    arr = best_melds(cards, wild, rules=rules, round=rnd)
    if args.json:
        d = {"cards": _names(cards), "wild_rank": wild, "round": rnd,
             "hand_value": hand_value(cards, wild), **_rules_json(rules)}
        d.update(_arrangement_dict(arr))
        print_json(d)
        return 0
    print(_heading(cards, wild, rnd, rules))
    print(arr)
    return 0


def cmd_discard(args: argparse.Namespace) -> int:
    from .advisor import rank_discards

    cards, seen, pile, wild, rnd, rules = _setup(args)
    if args.discard_reshuffled and pile is None:
        from ..errors import RulesError

        raise RulesError("--discard-reshuffled needs --draw-pile: the discard pile now, which your discard joins"
                         " when it is reshuffled into the draw pile")
    if args.last_turn and (seen or pile is not None) and not args.discard_reshuffled:   # that one: the API says
        # they describe the next draw, and none follows: they were silently ignored (session 23)
        from ..errors import RulesError

        given = " and ".join(o for o, v in (("--seen", seen), ("--draw-pile", pile)) if v is not None and v != [])
        raise RulesError(f"--last-turn ranks the discards by the deadwood you keep, with no draw after it, so"
                         f" {given} (the cards of the next draw) cannot change it: leave"
                         f" {'them' if ' and ' in given else 'it'} out, or leave out --last-turn")
    with _short_hand_hint(cards, seen, pile, rnd, extra=1):
        df = rank_discards(cards, wild, seen=seen, rules=rules, round=rnd, draw_pile=pile,
                           discard_reshuffled=args.discard_reshuffled, last_turn=args.last_turn)
    unseen = df.attrs["unseen"]
    if args.json:
        print_json({
            "cards": _names(cards), "seen": _names(seen), "wild_rank": wild,
            "round": rnd, "unseen": unseen, **_rules_json(rules), **_pile_json(pile),
            **({"discard_reshuffled": True} if args.discard_reshuffled else {}),
            **({"last_turn": True} if args.last_turn else {}),
            "discards": [
                {"card": r.card, "copies": r.copies, "value": r.value, "deadwood": r.deadwood,
                 "goes_out": bool(r.goes_out), "p_out_next": r.p_out_next, "expected_next": r.expected_next,
                 "p_out_next_float": None if r.p_out_next is None else r.p_out_next_float,
                 "expected_next_float": None if r.expected_next is None else r.expected_next_float}
                for r in df.itertuples(index=False)
            ],
        })
        return 0
    print(_heading(cards, wild, rnd, rules))
    if args.last_turn:
        print(f"{count(len(cards), 'card')} held; last turn: no draw follows, you score the deadwood you keep")
    elif pile is None:
        print(f"{count(len(cards), 'card')} held, {len(seen)} seen, {count(unseen, 'unseen card')} for the next draw")
    elif args.discard_reshuffled:
        if len(pile) == 1:
            can, them = f"it {'can' if unseen - 1 else 'cannot'}", "it"
        else:
            can, them = f"{unseen - 1} of them can", "them"
        print(f"{count(len(cards), 'card')} held, {len(seen)} seen, {count(len(pile), 'card')} in the discard pile"
              f" given, {can} be the next draw, and so can your discard (reshuffled with {them})")
    else:
        print(f"{count(len(cards), 'card')} held, {len(seen)} seen, {_pile_text(pile, unseen)}")
    print(f"{'':>3} {'discard':<8}{'deadwood':>9} {'out now':>8} {'P(out next)':>12} {'E[deadwood next]':>17}")
    for i, r in enumerate(df.itertuples(index=False), 1):
        p = "-" if r.p_out_next is None else f"{r.p_out_next_float:.3f}"
        e = "-" if r.expected_next is None else f"{r.expected_next_float:.2f}"
        card = r.card + (f" x{r.copies}" if r.copies > 1 else "")
        print(f"{i:>3} {card:<8}{r.deadwood:>9} {'yes' if r.goes_out else 'no':>8} {p:>12} {e:>17}")
    if args.last_turn:
        print("best first: lower deadwood (last turn; at 0 a natural card before a wild), then higher card value")
    else:
        print("best first: goes out now (a natural card before a wild), then lower E[deadwood next],"
              " higher P(out next), lower deadwood, higher card value")
    return 0


def cmd_take(args: argparse.Namespace) -> int:
    from .advisor import should_take_discard

    cards, seen, pile, wild, rnd, rules = _setup(args)
    with _short_hand_hint(cards, seen, pile, rnd, extra=0):
        adv = should_take_discard(cards, args.top, wild, seen=seen, rules=rules, round=rnd, draw_pile=pile,
                                  last_turn=args.last_turn)
    if args.json:
        print_json({
            "cards": _names(cards), "top_card": adv.top_card, "seen": _names(seen),
            **_pile_json(pile),
            "wild_rank": wild, "round": rnd, **_rules_json(rules), "take": adv.take, "take_deadwood": adv.take_deadwood,
            "take_discard": adv.take_discard, "take_goes_out": adv.take_goes_out,
            "draw_p_out": adv.draw_p_out, "draw_expected": adv.draw_expected, "unseen": adv.unseen,
            "beats_draw": adv.beats_draw, "then_discard": adv.then_discard, "throws_back": adv.throws_back,
            **({"last_turn": True} if args.last_turn else {}),
        })
        return 0
    print(_heading(cards, wild, rnd, rules) + f"; face up: {adv.top_card}")
    if pile is not None:
        print(_pile_text(pile, adv.unseen))
    if args.last_turn:
        print("last turn: after this draw you discard the card that leaves the least deadwood, and score it")
    print(adv)
    return 0


@contextlib.contextmanager
def _short_hand_hint(cards: list[str], seen: list[str], pile: list[str] | None, round_number: int | None,
                     *, extra: int) -> Iterator[None]:
    """Add a hint to the HandSizeError of a hand too short for its round when ``--seen`` or
    ``--draw-pile`` took cards: an option taking a list takes every card after it, so
    ``discard --round 3 7H 8H --seen 9H 10H 5S 4S`` left a hand of 2 cards and said only
    that it was too short (session 23).  `extra` is the command's cards beyond the round's
    n (1 for ``discard``, 0 for ``take``)."""
    from ..errors import HandSizeError
    from .cards import wild_rank_for_round

    try:
        yield
    except HandSizeError as exc:
        if round_number is None or len(cards) >= wild_rank_for_round(round_number) + extra:
            raise
        took = [f"{option} took {' '.join(given)}" for option, given in (("--seen", seen), ("--draw-pile", pile))
                if given]
        if not took:
            raise
        raise HandSizeError(f"{exc} ({'; '.join(took)}: if some are the hand's, give them before"
                            f" {'these options' if len(took) > 1 else took[0].split()[0]})") from None


def _pile_text(pile: list[str], pool: int) -> str:
    """'7 cards in the draw pile given, 7 of them can be the next draw'; for one card
    '1 card in the draw pile given, it can (cannot) be the next draw'."""
    if len(pile) == 1:
        return f"1 card in the draw pile given, it {'can' if pool else 'cannot'} be the next draw"
    return f"{count(len(pile), 'card')} in the draw pile given, {pool} of them can be the next draw"


def _pile_json(pile: list[str] | None) -> dict:
    """The ``draw_pile`` field of ``--json`` output, when ``--draw-pile`` was given."""
    return {} if pile is None else {"draw_pile": _names(pile)}


def _common(p: argparse.ArgumentParser, *, seen: bool) -> None:
    p.add_argument("cards", nargs="+", metavar="CARD", help="cards such as 10R QH JK (T for 10 also read)")
    p.add_argument("--round", type=int, metavar="R", help="round 1..11: n = R + 2 cards, R + 2 wild")
    p.add_argument("--wild", metavar="RANK", help="wild rank 3..13 (or J, Q, K): overrides the round's")
    p.add_argument("--no-all-wild-melds", action="store_true",
                   help="forbid melds made only of wilds (rules option all_wild_melds=false)")
    p.add_argument("--max-book-size", type=int, metavar="N", help="show books of more than N cards split (N >= 5)")
    p.add_argument("--sets", type=int, default=1, choices=(1, 2), help="116-card sets in play (default 1)")
    if seen:
        # action="extend": a repeated --seen/--draw-pile adds its cards (with "store" the
        # last one silently replaced the cards of the first, and the advice was wrong)
        p.add_argument("--seen", nargs="+", action="extend", metavar="CARD", default=[],
                       help="cards known not to be in the draw pile (discard pile, other players' pick-ups);"
                            " may be repeated")
        p.add_argument("--draw-pile", nargs="+", action="extend", metavar="CARD",
                       help="after the draw pile ran out: the cards shuffled into the new one, less those you"
                            " drew from it since; the next draw comes only from these (do not list them in --seen); may be"
                            " repeated")
    add_json_flag(p)


#: The meld commands: name, short help, description, handler, whether it looks one draw
#: ahead (then it takes --seen and --draw-pile).
_COMMANDS = (
    ("deadwood", "least deadwood of a hand and one best arrangement into melds",
     "Least deadwood of a hand (RULES.md, Five Crowns) and one arrangement into books and runs reaching it.",
     cmd_deadwood, False),
    ("discard", "rank the discards of an n+1-card hand, one draw ahead",
     "For a hand of n + 1 cards (just drawn): each discard's deadwood, whether it goes out, and the exact"
     " chance to go out and expected deadwood after the next blind draw.",
     cmd_discard, True),
    ("take", "take the face-up discard or draw blind?",
     "For a hand of n cards before drawing: compare taking the face-up card with drawing blind (exact over"
     " the unseen cards, or the --draw-pile cards after a reshuffle); never take a card whose best discard"
     " afterwards is that card.",
     cmd_take, True),
)


def register(commands: argparse._SubParsersAction) -> None:
    """Declare ``deadwood``, ``discard`` and ``take``."""
    for name, short, description, handler, ahead in _COMMANDS:
        p = commands.add_parser(name, help=short, description=description)
        _common(p, seen=ahead)
        if name == "take":
            p.add_argument("--top", required=True, metavar="CARD", help="the face-up card on the discard pile")
        if name == "discard":
            p.add_argument("--discard-reshuffled", action="store_true",
                           help="the draw pile holds one card and another player draws before you: your next"
                                " draw comes from the discard pile reshuffled with your discard in it; give"
                                " the discard pile as --draw-pile")
        if name in ("discard", "take"):
            p.add_argument("--last-turn", action="store_true",
                           help="your last turn, after another player went out: no draw follows, so "
                                + ("rank the discards by the deadwood kept" if name == "discard" else
                                   "the discard after taking is the least-deadwood one"))
        p.set_defaults(handler=handler)
