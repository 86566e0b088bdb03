"""The track graph's data: stops, track paths and the graph of a whole map that joins them
(see the package's docstring for the vocabulary)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ferrovia.notation.models import Path, Revenue, Tile

if TYPE_CHECKING:
    from ferrovia.board.graph.build import _Fragment


#: hex colours that are closed except where their own track points (18xx.games default)
CLOSED_COLOURS = frozenset({"blue", "gray", "red"})


@dataclass(frozen=True, slots=True)
class Stop:
    """A city, town or offboard on the map."""

    id: int
    hex: str
    index: int  # 18xx.games part index in the tile code
    kind: str  # 'city' | 'town' | 'offboard'
    revenue: Revenue
    groups: tuple[str, ...]
    visit_cost: int
    slots: int
    city_number: int | None  # position among the tile's cities (station tokens)

    @property
    def signature(self) -> str:
        """``"<hex>-<part index>"``, as in a ``run_routes`` action's ``nodes``."""
        return f"{self.hex}-{self.index}"


@dataclass(frozen=True, slots=True)
class TrackPath:
    """One track segment in place on a hex."""

    id: int
    hex: str
    exits: tuple[int, ...]  # edge numbers after rotation
    lanes: tuple[tuple[int, int], ...]  # (width, index) per exit, parallel to ``exits``
    stops: tuple[int, ...]  # stop ids at its ends
    junction: int  # junction id, -1 for none
    track: str  # 'broad' | 'narrow' | 'dual' | ...
    terminal: bool
    ignore: bool
    keys: tuple[int, ...]  # track-reuse keys: one per exit side, one for a stop-to-stop path


@dataclass
class TrackGraph:
    """Stops and paths of a whole map and how the paths join (immutable once built)."""

    layout: str
    stops: list[Stop] = field(default_factory=list)
    paths: list[TrackPath] = field(default_factory=list)
    stop_paths: list[tuple[int, ...]] = field(default_factory=list)
    hex_paths: dict[str, tuple[int, ...]] = field(default_factory=dict)
    hex_stops: dict[str, tuple[int, ...]] = field(default_factory=dict)
    hex_cities: dict[str, tuple[int, ...]] = field(default_factory=dict)
    by_signature: dict[str, int] = field(default_factory=dict)
    #: (path id, exit edge) -> paths of the neighbour entered through that side
    links: dict[tuple[int, int], tuple[int, ...]] = field(default_factory=dict)
    junction_paths: dict[int, tuple[int, ...]] = field(default_factory=dict)
    #: hex -> {edge: neighbour} for the sides track may cross
    neighbours: dict[str, dict[int, str]] = field(default_factory=dict)
    #: hexes whose tile has more than one stop-to-stop path (18xx.games names such a one-path
    #: connection ``"<hex> <n>.<m>"``)
    ambiguous: frozenset[str] = frozenset()
    key_names: list[tuple[str, str]] = field(default_factory=list)
    #: printed hex colours (what :func:`update_graph` needs to join a re-laid hex again)
    colors: Mapping[str, str] = field(default_factory=dict, repr=False, compare=False)
    #: hex -> its stops, paths and keys as placed (:func:`update_graph` swaps one hex's)
    fragments: dict[str, _Fragment] = field(default_factory=dict, repr=False, compare=False)
    #: ids of stops, paths and keys left inert by :func:`update_graph` (see there)
    dead: int = 0
    junction_next: int = 0  # the next free junction id
    #: (skip, blocked stops) -> the walk's bounds (:func:`_walk_bounds`), worked out when
    #: first needed
    walk_bounds: dict[tuple[str | None, frozenset[int]], tuple[list[int], list[int]]] = field(
        default_factory=dict, repr=False, compare=False
    )
    #: per path, its (hex, edge, lane) sides and whether each is converging (worked out when
    #: first walked)
    walk_sides: list[tuple[tuple[tuple[str, int, int], bool], ...]] | None = field(
        default=None, repr=False, compare=False
    )
    #: per gauge skip, the paths a walk may enter (bitset, worked out when first needed)
    walk_open: dict[str | None, int] = field(default_factory=dict, repr=False, compare=False)
    #: per stop, whether a company's walk may pass it where no station stands
    #: (:func:`_passable_base`; worked out when first needed, kept by :func:`update_graph`)
    walk_passable: list[bool] | None = field(default=None, repr=False, compare=False)

    def stop(self, signature: str) -> Stop:
        """The stop named ``"<hex>-<part index>"``; ``KeyError`` if there is none."""
        return self.stops[self.by_signature[signature]]

    def city(self, hex_id: str, city_number: int) -> Stop | None:
        cities = self.hex_cities.get(hex_id, ())
        return self.stops[cities[city_number]] if 0 <= city_number < len(cities) else None


def ruby_part_indices(tile: Tile) -> list[int]:
    """18xx.games index of each part of ``tile`` (a ``lanes:N`` path expands to N parts)."""
    out: list[int] = []
    i = 0
    for part in tile.parts:
        out.append(i)
        i += part.lanes if isinstance(part, Path) and part.lanes else 1
    return out


def bit_positions(bits: int) -> Iterator[int]:
    """The set bits of ``bits`` (>= 0), lowest first, as positions.

    >>> list(bit_positions(0b10110))
    [1, 2, 4]
    """
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low
