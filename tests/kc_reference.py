"""Independent King's Crowns legal-play reference, written from RULES.md only.

Works on card names and a SeatView-like description; used to check the compiled
engine's legal plays along many random games.
"""

from __future__ import annotations

SINS = {"sin-orange", "sin-maroon", "sin-purple"}


def crown_allowed(card: str, top: str | None, gifts: set[str]) -> bool:
    """RULES.md: Crown onto own crown stack when the play stack's top is Salvation or
    Forgiveness (5 and 10 only) or Time with God or Holy Spirit (any value), never a Sin;
    black always, a coloured Crown needs the Gift of its colour."""
    _, colour, value = card.split("-")
    if top is None or top in SINS:
        return False
    if top == "salvation" or top.startswith("forgiveness-"):
        if int(value) not in (5, 10):
            return False
    elif top not in ("time-with-god", "holy-spirit"):
        return False
    return colour == "black" or f"gift-{colour}" in gifts


def legal_plays(seat: int, hand: list[str], play_stacks: list[list[str]], gift_stacks: list[list[str]]) -> set[tuple[str, str, int | None]]:
    """Every (card, destination, seat or None) the rules allow for `seat`."""
    out: set[tuple[str, str, int | None]] = set()
    own = play_stacks[seat]
    top = own[-1] if own else None
    saved = bool(own)
    gifts = set(gift_stacks[seat])
    for card in set(hand):
        out.add((card, "discard", None))
        if card == "salvation" and not saved:
            out.add((card, "play", None))
        elif card in SINS:
            for q, stack in enumerate(play_stacks):
                if q != seat and stack and stack[-1] not in SINS:
                    out.add((card, "play", q))
        elif card.startswith("forgiveness-"):
            if top == "sin-" + card.split("-", 1)[1]:
                out.add((card, "play", None))
        elif card == "time-with-god":
            if saved and top not in SINS:
                out.add((card, "play", None))
        elif card == "holy-spirit":
            if saved:
                out.add((card, "play", None))
        elif card.startswith("gift-"):
            if saved and card not in gifts:
                out.add((card, "gifts", None))
        elif card.startswith("crown-"):
            if crown_allowed(card, top, gifts):
                out.add((card, "crowns", None))
    return out


from crowns_solver.kings_crowns import Policy  # noqa: E402


class FirstLegal(Policy):
    """A custom player: always the draw pile, then the last legal play listed (crowns and
    builds come after discards).  Module level, so worker processes can unpickle it."""

    name = "first-legal"

    def choose_draw(self, view, rng):
        return "draw"

    def choose_play(self, view, rng):
        return view.legal_plays()[-1]
