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
