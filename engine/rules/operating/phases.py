"""Phases, wounding and rusting [1858 rules 9.10] as pure decisions over train records.

Buying the first train of a type can (a) start one or more phases, (b) wound every train whose
``obsolete_on`` names that type (18xx.games: obsolete), (c) rust every train whose ``rusts_on``
names it.  A train lying in the bank pool when its type becomes wounded is rusted straight away.
1858's 6H/3M have no ``rusts_on`` type: they rust when the Nth new grey train (7E/6M/5D) is bought
from the bank (N = 5, or 3 with two players); :func:`counts_as_grey` and the counter in the game
state decide that moment, and then they rust like any other train.

Train records here are small: ``(id, type, owner, obsolete, obsolete_on, rusts_on)``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class TrainFacts:
    """What rusting needs to know about one physical train."""

    id: str
    type: str  # the card's type (its broad face), e.g. '4H' even when run as a 2M
    in_pool: bool
    obsolete: bool
    obsolete_on: str | None
    rusts_on: str | None


@dataclass(frozen=True)
class RustOutcome:
    wounded: tuple[str, ...]
    rusted: tuple[str, ...]


def wound_and_rust(trains: Iterable[TrainFacts], bought_type: str) -> RustOutcome:
    """Which trains become wounded and which rust when a ``bought_type`` train is bought.

    >>> ts = [TrainFacts("2H-0", "2H", False, False, "6H", "6E"),
    ...       TrainFacts("2H-1", "2H", True, False, "6H", "6E"),
    ...       TrainFacts("4H-0", "4H", False, False, "6E", "7E")]
    >>> wound_and_rust(ts, "6H")
    RustOutcome(wounded=('2H-0', '2H-1'), rusted=('2H-1',))
    >>> wound_and_rust(ts, "6E").rusted
    ('2H-0', '2H-1')
    """
    trains = list(trains)
    wounded = tuple(t.id for t in trains if not t.obsolete and t.obsolete_on == bought_type)
    rusted = tuple(
        t.id
        for t in trains
        if t.rusts_on == bought_type or (t.obsolete_on == bought_type and t.in_pool)
    )
    return RustOutcome(wounded, rusted)


def phases_started(
    phase_order: Sequence[str],
    current: str,
    triggers: dict[str, Sequence[str]],
    bought: Iterable[str],
) -> list[str]:
    """Phases that start, in order, when a train named any of ``bought`` (its type and face)
    is bought: each next phase starts while one of its trigger names was bought.

    >>> order = ["2", "3", "4", "5"]
    >>> trig = {"3": ["4H", "2M"], "4": ["6H", "3M"], "5": ["5E", "4M"]}
    >>> phases_started(order, "2", trig, ["4H", "2M"])
    ['3']
    >>> phases_started(order, "3", trig, ["4H"])
    []
    """
    names = set(bought)
    started: list[str] = []
    index = phase_order.index(current)
    while index + 1 < len(phase_order):
        nxt = phase_order[index + 1]
        if not names.intersection(triggers.get(nxt, ())):
            break
        started.append(nxt)
        index += 1
    return started


def counts_as_grey(face: str, from_bank: bool, grey_faces: Iterable[str]) -> bool:
    """A purchase that advances the 6H/3M rust counter: a new grey train from the bank."""
    return from_bank and face in set(grey_faces)
