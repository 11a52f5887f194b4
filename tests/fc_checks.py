"""Checks on played Five Crowns games shared by the player tests."""

from __future__ import annotations

from typing import Any


def throw_backs(record: dict[str, Any]) -> list[tuple[int, int, dict[str, Any]]]:
    """(round, turn index, turn) of every turn in a game record (main and tiebreak rounds)
    that took the face-up card and discarded that same card (a copy of it counts: the
    hand ends as it began, a turn lost), last turns included."""
    out = []
    for rec in record["rounds"] + record.get("tiebreaks", []):
        for i, t in enumerate(rec["turns"]):
            if t["source"] == "discard" and t["card"] == t["discard"]:
                out.append((rec["round"], i, t))
    return out


def assert_no_throw_back(result: Any, what: object = None) -> None:
    """Every round of `result` (a GameResult) ended with someone going out, and no turn,
    ordinary or last, took a card only to throw it back."""
    for rr in result.rounds:
        assert rr.out is not None, (what, rr)
    assert throw_backs(result.record) == [], what


class Watching:
    """Mixin for a policy class: shows every view it decides on to ``self.look(view)``
    before the policy it is mixed into decides (``class Spy(Watching, GreedyPolicy)``)."""

    def look(self, view: Any) -> None:
        raise NotImplementedError

    def choose_draw(self, view: Any) -> str:
        self.look(view)
        return super().choose_draw(view)  # type: ignore[misc]

    def choose_discard(self, view: Any) -> int:
        self.look(view)
        return super().choose_discard(view)  # type: ignore[misc]
