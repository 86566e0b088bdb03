"""Typed, immutable models of a parsed tile code.

Every part of a code becomes one frozen, slotted dataclass; a :class:`Tile` is the tuple of its
parts in code order (order matters: ``_N`` node references count nodes in that order, and the
renderer draws parts in it) plus read-only views.  Fields hold *effective* values: a key left
out of the code gets the default the 18xx.games decoder would give it (``slots`` 1,
``visit_cost`` 1, a town's ``route`` mandatory, a halt's optional, ...), so two codes that mean
the same tile compare equal and the formatter can leave defaults out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, TypeAlias


class Gauge(StrEnum):
    """Track gauge of a path (``track:``); ``broad`` unless said otherwise.

    ``future`` marks track printed for a later phase: it is not part of the tile's track.
    """

    BROAD = "broad"
    NARROW = "narrow"
    DUAL = "dual"
    FUTURE = "future"
    THIN = "thin"


class Route(StrEnum):
    """Whether a train route must, may, or must not count a revenue centre."""

    MANDATORY = "mandatory"
    OPTIONAL = "optional"
    NEVER = "never"


class TownStyle(StrEnum):
    DOT = "dot"
    RECT = "rect"
    HIDDEN = "hidden"


class BorderType(StrEnum):
    IMPASSABLE = "impassable"
    WATER = "water"
    MOUNTAIN = "mountain"
    PROVINCE = "province"
    DIVIDER = "divider"
    OFFBOARD = "offboard"


class PartitionType(StrEnum):
    DIVIDER = "divider"
    PROVINCE = "province"
    WATER = "water"


class Restrict(StrEnum):
    INNER = "inner"
    OUTER = "outer"


#: Terrain names the 18xx.games data uses in ``upgrade=terrain:`` lists.
KNOWN_TERRAINS: frozenset[str] = frozenset(
    {
        "mountain",
        "water",
        "river",
        "lake",
        "hill",
        "forest",
        "desert",
        "swamp",
        "wall",
        "mine",
        "cow_skull",
    }
)


# ----------------------------------------------------------------------------- endpoints
@dataclass(frozen=True, slots=True)
class Edge:
    """A hex edge 0-5 (0 is the bottom edge, counting clockwise)."""

    num: int

    def rotated(self, r: int) -> Edge:
        return Edge((self.num + r) % 6)

    def __str__(self) -> str:
        return str(self.num)


@dataclass(frozen=True, slots=True)
class NodeRef:
    """``_N``: the N-th node of the tile (see :attr:`Tile.nodes`), 0-based."""

    index: int

    def __str__(self) -> str:
        return f"_{self.index}"


Endpoint: TypeAlias = Edge | NodeRef


@dataclass(frozen=True, slots=True)
class Lane:
    """A lane spec ``W.I``: lane ``index`` of ``width`` parallel lanes at one path end."""

    width: int
    index: int

    def __str__(self) -> str:
        return f"{self.width}.{self.index}"


@dataclass(frozen=True, slots=True)
class Vertex:
    """A partition end: hex vertex 0-5 and a drawing nudge ``-1``/``0``/``+1`` (no game effect)."""

    num: int
    sign: int = 0

    def __str__(self) -> str:
        return f"{self.num}{'-' if self.sign < 0 else '+' if self.sign > 0 else ''}"


# ----------------------------------------------------------------------------- revenue
@dataclass(frozen=True, slots=True)
class Revenue:
    """A revenue: ``flat`` for every phase, or per-phase values keyed by phase colour.

    Phase keys are colours as written (``yellow``, ``diesel``, ``#FFFFFF``...), in code order.

    >>> Revenue.of(20).for_phase(["yellow", "green"])
    20
    >>> r = Revenue.of({"yellow": 20, "brown": 40})
    >>> r.for_phase(["yellow", "green"]), r.for_phase(["yellow", "green", "brown"]), r.max
    (20, 40, 40)
    """

    flat: int | None = None
    phases: tuple[tuple[str, int], ...] = ()

    def __post_init__(self) -> None:
        if (self.flat is None) == (not self.phases):
            raise ValueError("a Revenue is either flat or per phase (give exactly one)")

    @staticmethod
    def of(value: int | Mapping[str, int]) -> Revenue:
        if isinstance(value, int):
            return Revenue(flat=value)
        return Revenue(phases=tuple(value.items()))

    @property
    def is_phased(self) -> bool:
        return self.flat is None

    def as_dict(self) -> dict[str, int]:
        return dict(self.phases)

    @property
    def max(self) -> int:
        if self.flat is not None:
            return self.flat
        return max(v for _, v in self.phases)

    def for_phase(self, tile_colours: Sequence[str]) -> int:
        """Revenue when the phase allows ``tile_colours`` (in order): the latest listed wins."""
        if self.flat is not None:
            return self.flat
        values = dict(self.phases)
        for colour in reversed(tile_colours):
            if colour in values:
                return values[colour]
        return 0

    def __str__(self) -> str:
        if self.flat is not None:
            return str(self.flat)
        return "|".join(f"{c}_{v}" for c, v in self.phases)


ZERO = Revenue(flat=0)
Extra: TypeAlias = tuple[tuple[str, str], ...]


# ----------------------------------------------------------------------------- parts
@dataclass(frozen=True, slots=True, kw_only=True)
class Part:
    """Base of every part.

    ``extra`` keeps keys that real 18xx.games data writes but its decoder ignores (e.g. a
    city's ``pos``); they are accepted only in lenient mode and only where real data has them,
    and are kept so formatting loses nothing.
    """

    extra: Extra = ()

    #: the part type as written in a code (``city``, ``future_label``...)
    KIND = ""

    @property
    def kind(self) -> str:
        return self.KIND


@dataclass(frozen=True, slots=True, kw_only=True)
class Path(Part):
    """Track between two endpoints (edges or nodes).

    ``lanes`` N makes N parallel tracks; ``a_lane``/``b_lane`` place one track in a lane.
    ``terminal`` (1 or 2, the drawing style) ends routes at the node.
    """

    a: Endpoint
    b: Endpoint
    terminal: int | None = None
    lanes: int | None = None
    a_lane: Lane | None = None
    b_lane: Lane | None = None
    track: Gauge = Gauge.BROAD
    ignore: bool = False
    KIND = "path"

    @property
    def ends(self) -> tuple[Endpoint, Endpoint]:
        return (self.a, self.b)

    @property
    def edges(self) -> tuple[int, ...]:
        return tuple(e.num for e in (self.a, self.b) if isinstance(e, Edge))

    @property
    def node_refs(self) -> tuple[int, ...]:
        return tuple(e.index for e in (self.a, self.b) if isinstance(e, NodeRef))


@dataclass(frozen=True, slots=True, kw_only=True)
class Node(Part):
    """A part paths can end at (``_N`` counts these)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RevenueCentre(Node):
    revenue: Revenue = ZERO
    groups: tuple[str, ...] = ()
    hide: bool = False
    visit_cost: int = 1
    route: Route = Route.MANDATORY
    format: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class City(RevenueCentre):
    loc: str | None = None
    slots: int = 1
    boom: bool = False
    outline: bool = False
    KIND = "city"


@dataclass(frozen=True, slots=True, kw_only=True)
class Pass(City):
    """A mountain pass: a city-like node (a :class:`City` subclass, as in 18xx.games)."""

    route: Route = Route.NEVER
    color: str = "gray"
    size: int = 1
    KIND = "pass"


@dataclass(frozen=True, slots=True, kw_only=True)
class Town(RevenueCentre):
    loc: str | None = None
    boom: bool = False
    style: TownStyle | None = None
    to_city: bool = False
    KIND = "town"


@dataclass(frozen=True, slots=True, kw_only=True)
class Halt(Town):
    """A halt: a town-like stop (a :class:`Town` subclass), optional on routes by default."""

    symbol: str | None = None
    route: Route = Route.OPTIONAL
    KIND = "halt"


@dataclass(frozen=True, slots=True, kw_only=True)
class Offboard(RevenueCentre):
    """An off-board revenue location (its ``loc`` is ignored by 18xx.games: kept in ``extra``)."""

    rows: int = 1
    KIND = "offboard"


@dataclass(frozen=True, slots=True, kw_only=True)
class Junction(Node):
    """A Lawson-style junction: paths meet at the centre without a stop."""

    KIND = "junction"


@dataclass(frozen=True, slots=True, kw_only=True)
class Label(Part):
    text: str = ""
    KIND = "label"


@dataclass(frozen=True, slots=True, kw_only=True)
class Upgrade(Part):
    """The cost of laying a tile here (terrain)."""

    cost: int = 0
    terrains: tuple[str, ...] = ()
    size: int | None = None
    loc: str | None = None
    KIND = "upgrade"


@dataclass(frozen=True, slots=True, kw_only=True)
class Border(Part):
    edge: int
    type: BorderType | None = None
    cost: int | None = None
    color: str | None = None
    KIND = "border"


@dataclass(frozen=True, slots=True, kw_only=True)
class Icon(Part):
    image: str
    name: str | None = None
    sticky: bool = False
    blocks_lay: bool = False
    large: bool = False
    loc: str | None = None
    KIND = "icon"


@dataclass(frozen=True, slots=True, kw_only=True)
class Stub(Part):
    """A short track stub at an edge (a hint of where track will go)."""

    edge: int
    KIND = "stub"


@dataclass(frozen=True, slots=True, kw_only=True)
class Partition(Part):
    a: Vertex
    b: Vertex
    type: PartitionType | None = None
    restrict: Restrict | None = None
    length: float | None = None
    KIND = "partition"


@dataclass(frozen=True, slots=True, kw_only=True)
class Frame(Part):
    color: str
    color2: str | None = None
    KIND = "frame"


@dataclass(frozen=True, slots=True, kw_only=True)
class Stripes(Part):
    color: str
    KIND = "stripes"


@dataclass(frozen=True, slots=True, kw_only=True)
class FutureLabel(Part):
    label: str | None = None
    color: str | None = None
    KIND = "future_label"


_VIEW_OF_CLASS: dict[type, str] = {
    City: "cities",
    Town: "towns",
    Offboard: "offboards",
    Junction: "junctions",
    Label: "labels",
    Upgrade: "upgrades",
    Border: "borders",
    Icon: "icons",
    Stub: "stubs",
    Partition: "partitions",
}

PART_CLASSES: dict[str, type[Part]] = {
    cls.KIND: cls
    for cls in (
        Path,
        City,
        Town,
        Halt,
        Pass,
        Offboard,
        Junction,
        Label,
        Upgrade,
        Border,
        Icon,
        Stub,
        Partition,
        Frame,
        Stripes,
        FutureLabel,
    )
}


# ----------------------------------------------------------------------------- tile
def _of(parts: Iterable[Part], cls: type[Part]) -> tuple[Any, ...]:
    return tuple(p for p in parts if isinstance(p, cls))


@dataclass(frozen=True, slots=True)
class Tile:
    """A parsed tile code: its parts in code order, with read-only views.

    Views follow 18xx.games: ``cities`` includes passes, ``towns`` includes halts, ``paths`` is
    the tile's track (``track:future`` paths are in ``future_paths`` instead).  ``nodes`` lists
    every part a ``_N`` reference can name, in code order: cities, passes, towns, halts,
    offboards and junctions.

    >>> from ferrovia.notation import parse
    >>> t = parse("city=revenue:20;path=a:0,b:_0;label=Y")
    >>> t.cities[0].revenue.flat, t.paths[0].a, t.paths[0].b, t.label
    (20, Edge(num=0), NodeRef(index=0), 'Y')
    """

    parts: tuple[Part, ...] = ()
    nodes: tuple[Node, ...] = field(init=False, repr=False, compare=False)
    paths: tuple[Path, ...] = field(init=False, repr=False, compare=False)
    future_paths: tuple[Path, ...] = field(init=False, repr=False, compare=False)
    cities: tuple[City, ...] = field(init=False, repr=False, compare=False)
    towns: tuple[Town, ...] = field(init=False, repr=False, compare=False)
    offboards: tuple[Offboard, ...] = field(init=False, repr=False, compare=False)
    junctions: tuple[Junction, ...] = field(init=False, repr=False, compare=False)
    labels: tuple[Label, ...] = field(init=False, repr=False, compare=False)
    upgrades: tuple[Upgrade, ...] = field(init=False, repr=False, compare=False)
    borders: tuple[Border, ...] = field(init=False, repr=False, compare=False)
    icons: tuple[Icon, ...] = field(init=False, repr=False, compare=False)
    stubs: tuple[Stub, ...] = field(init=False, repr=False, compare=False)
    partitions: tuple[Partition, ...] = field(init=False, repr=False, compare=False)
    _hash: int | None = field(init=False, repr=False, compare=False, default=None)

    def __hash__(self) -> int:
        # tiles key caches everywhere (rotation, exits, upgrades): hash the parts once
        h = self._hash
        if h is None:
            h = hash(self.parts)
            object.__setattr__(self, "_hash", h)
        return h

    def __reduce__(self) -> tuple[type[Tile], tuple[tuple[Part, ...]]]:
        # rebuild from the parts: the cached hash and views must not cross processes
        return (Tile, (self.parts,))

    def __post_init__(self) -> None:
        # one pass over the parts, filing each under every view it belongs to
        views: dict[str, list[Part]] = {name: [] for name in _VIEW_OF_CLASS.values()}
        views.update(nodes=[], paths=[], future_paths=[])
        for part in self.parts:
            cls = type(part)
            if cls is Path:
                views["future_paths" if part.track is Gauge.FUTURE else "paths"].append(part)  # type: ignore[attr-defined]
                continue
            for base in cls.__mro__:
                view = _VIEW_OF_CLASS.get(base)
                if view is not None:
                    views[view].append(part)
            if isinstance(part, Node):
                views["nodes"].append(part)
        for name, found in views.items():
            object.__setattr__(self, name, tuple(found))

    # --- single-valued views (the last one written wins, as in 18xx.games)
    @property
    def label(self) -> str | None:
        """The tile's label text (the last label part), or None."""
        return self.labels[-1].text if self.labels else None

    @property
    def frame(self) -> Frame | None:
        found: tuple[Frame, ...] = _of(self.parts, Frame)
        return found[-1] if found else None

    @property
    def stripes(self) -> Stripes | None:
        found: tuple[Stripes, ...] = _of(self.parts, Stripes)
        return found[-1] if found else None

    @property
    def future_label(self) -> FutureLabel | None:
        found: tuple[FutureLabel, ...] = _of(self.parts, FutureLabel)
        return found[-1] if found else None

    @property
    def halts(self) -> tuple[Halt, ...]:
        return _of(self.parts, Halt)

    @property
    def passes(self) -> tuple[Pass, ...]:
        return _of(self.parts, Pass)

    @property
    def city_towns(self) -> tuple[RevenueCentre, ...]:
        """Cities and towns (with passes and halts), in code order."""
        return tuple(p for p in self.parts if isinstance(p, City | Town))

    @property
    def terrains(self) -> tuple[str, ...]:
        seen: dict[str, None] = {}
        for u in self.upgrades:
            for t in u.terrains:
                seen.setdefault(t)
        return tuple(seen)

    def node(self, ref: NodeRef | int) -> Node:
        """The node a ``_N`` reference names."""
        return self.nodes[ref.index if isinstance(ref, NodeRef) else ref]

    def node_index(self, node: Node) -> int:
        """Position of ``node`` (by identity) in :attr:`nodes`."""
        for i, n in enumerate(self.nodes):
            if n is node:
                return i
        raise ValueError("node is not a part of this tile")

    def __str__(self) -> str:
        from ferrovia.notation.formatter import format_tile

        return format_tile(self)
