"""Ending the game and final scores.

The game ends at the end of the operating round in which the bank breaks; if it breaks during a
stock round, at the end of the next operating round.  (In 18xx.games the private closure round
counts as an operating round for this test.)  A player's wealth is cash, plus each share
certificate at the current stock price (a director's certificate counts its two shares), plus
privates still held at face value.  Company treasuries and trains count for nothing.

>>> final_score(100, [(80, 2), (80, 1), (120, 1)], [110])
570
"""

from __future__ import annotations

from collections.abc import Iterable

# Round kinds after whose end a broken bank ends the game (18xx.games: :current_or).
ENDING_ROUND_KINDS = frozenset({"operating", "closure"})


def final_score(
    cash: int, certificates: Iterable[tuple[int, int]], private_face_values: Iterable[int]
) -> int:
    """``certificates``: (share price, shares the certificate represents) of each one held."""
    return cash + sum(p * n for p, n in certificates) + sum(private_face_values)


def ends_after_round(bank_broken: bool, round_kind: str) -> bool:
    """Whether the game ends when a round of ``round_kind`` finishes.

    >>> ends_after_round(True, "operating"), ends_after_round(True, "stock")
    (True, False)
    >>> ends_after_round(False, "operating")
    False
    """
    return bank_broken and round_kind in ENDING_ROUND_KINDS
