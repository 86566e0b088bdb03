"""18xx.games' random numbers, reproduced exactly so seeded games deal the same.

18xx.games keeps one integer (``seed % m``) and each draw replaces it with
``(a * x + c) % m`` and returns the new value.  ``sort_by { rand }`` draws once per element, in
order, and sorts by the draws.  The generator lives in the game state (``state.rng``), so saving
and loading a game keeps the sequence.

>>> r = seed_value(103)
>>> r, r2 = draw(r)
>>> r2 == (1103515245 * 103 + 12345) % 2**31 == r
True
>>> shuffled(5, ["a", "b", "c"])[1] in (["a", "b", "c"], ["a", "c", "b"], ["b", "a", "c"],
...     ["b", "c", "a"], ["c", "a", "b"], ["c", "b", "a"])
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

RAND_A = 1103515245
RAND_C = 12345
RAND_M = 2**31

T = TypeVar("T")


def seed_value(seed: int) -> int:
    """The generator state right after seeding."""
    return seed % RAND_M


def draw(x: int) -> tuple[int, int]:
    """One draw: returns (new state, value drawn); the value *is* the new state."""
    x = (RAND_A * x + RAND_C) % RAND_M
    return x, x


def shuffled(x: int, items: Sequence[T]) -> tuple[int, list[T]]:
    """Ruby's ``items.sort_by { rand }``: returns (new state, reordered items)."""
    keyed: list[tuple[int, int, T]] = []
    for i, item in enumerate(items):
        x, value = draw(x)
        keyed.append((value, i, item))
    keyed.sort(key=lambda k: (k[0], k[1]))
    return x, [k[2] for k in keyed]


def randint(x: int, n: int) -> tuple[int, int]:
    """A number in ``range(n)`` (for Ferrovia's own random player, not 18xx.games)."""
    x, value = draw(x)
    return x, (value >> 7) % n
