"""Place a station marker [1858 rules 9.4]: the province cost rule.

The cost depends only on the new marker's distance, in provinces, from the company's nearest
existing marker (irrespective of track): P40 per provincial boundary crossed, but at least P20
(the price when the company already has a marker in that province).

>>> station_cost([2, 1, 3])
40
>>> station_cost([0])
20
>>> station_cost([])
20
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

PER_BOUNDARY = 40
MINIMUM = 20


def station_cost(
    boundaries_to_existing: Iterable[int],
    *,
    per_boundary: int = PER_BOUNDARY,
    minimum: int = MINIMUM,
) -> int:
    """Cost from the province distances to each existing marker (nearest one counts)."""
    nearest = min(boundaries_to_existing, default=0)
    return max(minimum, per_boundary * nearest)


def province_distance(table: Mapping[str, Mapping[str, int]], hex_a: str, hex_b: str) -> int:
    """Boundaries crossed between two city hexes, from the game's distance table."""
    try:
        return table[hex_a][hex_b]
    except KeyError:
        raise KeyError(f"no province distance between {hex_a} and {hex_b}") from None
