"""Seat order runs to the left; the elder hand is the first player to the dealer's left."""

from __future__ import annotations


def left_of(seats: list[str], player: str, among: list[str]) -> str:
    """The first player of `among` to the left of `player` (who need not be among them)."""
    start = seats.index(player)
    for step in range(1, len(seats) + 1):
        candidate = seats[(start + step) % len(seats)]
        if candidate in among:
            return candidate
    raise ValueError("nobody to the left")


def from_left_of(seats: list[str], dealer: str, among: list[str]) -> list[str]:
    """`among` in seat order starting at the dealer's left and ending with the dealer."""
    start = seats.index(dealer)
    ordered = [seats[(start + step) % len(seats)] for step in range(1, len(seats) + 1)]
    return [p for p in ordered if p in among]
