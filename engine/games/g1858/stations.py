"""1858's stations: where a private's company may put its home (``start_cities``), and the
cost of a new station [§9.4], by provinces, not by the printed price.

A new station marker costs market.yaml ``stations.per_border`` for each provincial boundary
between it and the company's nearest existing marker (irrespective of track), but at least
``stations.minimum`` (1858: P40 and P20).

>>> station_cost([2, 1, 3], per_boundary=40, minimum=20)
40
>>> station_cost([0], per_boundary=40, minimum=20)
20
>>> station_cost([], per_boundary=40, minimum=20)
20
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ferrovia.lib18xx import board
from ferrovia.lib18xx.state import State18xx

if TYPE_CHECKING:
    from ferrovia.lib18xx.game import Game18xx


def station_cost(boundaries_to_existing: Iterable[int], *, per_boundary: int, minimum: int) -> int:
    """Cost from the province distances to each existing marker (nearest one counts)."""
    nearest = min(boundaries_to_existing, default=0)
    return max(minimum, per_boundary * nearest)


def province_of(stations: Any, coord: str) -> str | None:
    for name, hexes in stations.provinces.items():
        if coord in hexes:
            return str(name)
    return None


def province_station_cost(game: Game18xx, state: State18xx, corp: str, coord: str) -> int | None:
    """The cost of a new station of ``corp`` on ``coord`` by the province rule (None: the
    game's data has no provinces)."""
    stations = game.definition.market.stations
    if stations is None:
        return None
    target = province_of(stations, coord)
    distances = []
    for other in board.station_hexes(state, corp):
        src = province_of(stations, other)
        if src is None or target is None:
            continue
        distances.append(0 if src == target else int(stations.borders_between[src][target]))
    return station_cost(distances, per_boundary=stations.per_border, minimum=stations.minimum)


def start_cities(game: Game18xx, sym: str) -> set[str]:
    """privates.yaml ``start_cities``: the hexes where a company started with the private may
    put its home station, on a space still reserved for it (by hex: an upgrade that merges a
    hex's cities moves the reservation to another city number)."""
    return {c.hex for c in game.definition.private(sym).start_cities}
