"""Lay or upgrade track [1858 rules 9.3]: what one tile operation costs.

A company may do one or two tile operations per turn (two different hexes); the second one costs
an extra P20.  Terrain (the hex's printed cost) is paid on the first tile laid there and halved
when the only new track is metre gauge; a private railway pays no terrain in its home hexes.
Like 18xx.games, the second-operation fee drops by P10 when the new track of *either* of the
turn's two operations is entirely metre gauge.

>>> tile_lay_cost(lay_index=0, terrain=60, new_gauges={"narrow"}, turn_gauges=[{"narrow"}])
30
>>> tile_lay_cost(lay_index=1, terrain=0, new_gauges={"broad"}, turn_gauges=[{"narrow"}, {"broad"}])
10
>>> tile_lay_cost(lay_index=1, terrain=40, new_gauges={"broad"}, turn_gauges=[{"broad"}, {"broad"}])
60
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence, Set

METRE = "narrow"  # 18xx.games' name for metre gauge, used in tile codes
SECOND_LAY_FEE = 20
METRE_SECOND_LAY_DISCOUNT = 10


def new_track_gauges(old_tracks: Iterable[str], new_tracks: Iterable[str]) -> frozenset[str]:
    """Gauges of the track a lay adds: the new tile's paths minus those it keeps (as a
    multiset of path gauges, the way an upgrade preserves old track).

    >>> sorted(new_track_gauges(["broad"], ["broad", "narrow", "narrow"]))
    ['narrow']
    >>> sorted(new_track_gauges([], ["dual"]))
    ['dual']
    """
    remaining = Counter(new_tracks)
    remaining.subtract(Counter(old_tracks))
    return frozenset(g for g, n in remaining.items() if n > 0)


def only_metre(gauges: Set[str]) -> bool:
    return set(gauges) == {METRE}


def terrain_cost(terrain: int, new_gauges: Set[str], *, home_of_private: bool = False) -> int:
    """Terrain paid for a lay: halved (rounding the discount down) for metre-only track.

    >>> terrain_cost(45, {"narrow"}), terrain_cost(40, {"dual"})
    (23, 40)
    >>> terrain_cost(40, {"broad"}, home_of_private=True)
    0
    """
    if home_of_private or terrain <= 0:
        return 0
    return terrain - terrain // 2 if only_metre(new_gauges) else terrain


def tile_lay_cost(
    *,
    lay_index: int,
    terrain: int,
    new_gauges: Set[str],
    turn_gauges: Sequence[Set[str]],
    home_of_private: bool = False,
    second_lay_fee: int = SECOND_LAY_FEE,
    metre_discount: int = METRE_SECOND_LAY_DISCOUNT,
) -> int:
    """Total cost of the ``lay_index``-th (0-based) tile operation of the turn.

    ``turn_gauges`` lists the new-track gauges of every operation this turn *including* this one.
    """
    cost = terrain_cost(terrain, new_gauges, home_of_private=home_of_private)
    if lay_index == 0:
        return cost
    cost += second_lay_fee
    if any(only_metre(g) for g in turn_gauges):
        cost -= metre_discount
    return cost
