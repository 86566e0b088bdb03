"""The track graph of a map: stops, track paths and how they join; connectivity per gauge.

Built from what is on each hex (a parsed :class:`~ferrovia.notation.models.Tile` and its rotation)
and nothing else, so it does not depend on the game state's classes::

    graph = build_graph({"G18": (tile, 0), "G20": (tile57, 1), ...}, colors={"M2": "red"})
    reach = reachable(graph, "MZA", tokens=state_tokens, gauge="broad")
    reach.hexes["G20"]        # edges of G20 the company's track reaches (tile-lay legality)
    "G20-0" in reach.nodes    # a stop the company can reach (token legality)

Vocabulary (as 18xx.games uses it, facts from its engine):

- A **stop** (graph node) is a city, town or offboard; its id is ``"<hex>-<n>"`` where ``n`` is
  the part's index in the tile code counting every part from 0 (a ``lanes:N`` path counts N
  times) -- the same id 18xx.games writes in a ``run_routes`` action's ``nodes``.
  ``Stop.city_number`` is the city's place among the tile's cities, the index the game state
  uses for station tokens.
- A **path** is one track segment of a tile between two ends (edges, stops or a junction),
  rotated into place.  Paths of two hexes join across a shared side when both have an exit
  there, the lanes line up and the gauges fit (broad meets broad or dual, metre meets metre or
  dual, dual meets anything).  ``track:future`` paths are not track and are left out.
- Hexes join only where the map has both; a red, gray or blue hex is a neighbour only of hexes
  its own track points at, and an ``impassable`` border closes a side.
- A **chain** is a run of paths from one stop to another with no stop between (see
  :func:`chains_from`): the unit a ``run_routes`` connection names by its hexes.

Connectivity (:func:`reachable`) walks from the company's station tokens (and, for a private
railway, its home hexes) along track of one gauge family -- ``"broad"`` (broad + dual),
``"metre"`` (metre + dual) or ``None`` (any) -- passing through a stop unless it blocks the
company: an offboard always blocks, a city blocks when every slot holds another company's token.
A blocked stop is still *reached* (its track counts), the walk just does not go through it.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import sys
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ferrovia.board import hexmap
from ferrovia.notation.models import (
    City,
    Edge,
    Gauge,
    Junction,
    Lane,
    NodeRef,
    Offboard,
    Path,
    Revenue,
    Tile,
    Town,
)

#: hex colours that are closed except where their own track points (18xx.games default)
CLOSED_COLOURS = frozenset({"blue", "gray", "red"})

# gauge family -> the track kind a walk of that family skips
_SKIP = {"broad": Gauge.NARROW.value, "metre": Gauge.BROAD.value, "narrow": Gauge.BROAD.value}


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


def _lane_specs(path: Path) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """(a lane, b lane) for each physical path ``path`` stands for (18xx.games make_lanes)."""
    if path.lanes:
        n = path.lanes
        both_edges = isinstance(path.a, Edge) and isinstance(path.b, Edge)
        return [((n, i), (n, n - i - 1) if both_edges else (n, i)) for i in range(n)]

    def spec(lane: Lane | None) -> tuple[int, int]:
        return (lane.width, lane.index) if lane else (1, 0)

    return [(spec(path.a_lane), spec(path.b_lane))]


def _lane_match(l0: tuple[int, int], l1: tuple[int, int]) -> bool:
    """Facing exits on adjacent hexes line up (18xx.games lane rule)."""
    if l0[0] == l1[0]:
        return l1[1] == l0[0] - l0[1] - 1
    (wa, ia), (wb, ib) = sorted([l0, l1])
    return ia + (wb - wa) // 2 == wb - ib - 1


def _tracks_match(a: str, b: str) -> bool:
    if a == "broad":
        return b in ("broad", "dual")
    if a == "narrow":
        return b in ("narrow", "dual")
    return True  # dual (and anything else) meets any gauge


@dataclass(frozen=True, slots=True)
class _TileTemplate:
    """What a tile in one rotation contributes to a graph, with ids local to the tile (the part
    of :func:`build_graph` that does not depend on the hex or the rest of the map)."""

    #: (part index, kind, revenue, groups, visit_cost, slots, city number) per stop
    stops: tuple[tuple[int, str, Revenue, tuple[str, ...], int, int, int | None], ...]
    #: (exits, lanes, local stops, local junction or -1, track, terminal, ignore, local keys)
    paths: tuple[
        tuple[
            tuple[int, ...],
            tuple[tuple[int, int], ...],
            tuple[int, ...],
            int,
            str,
            bool,
            bool,
            tuple[int, ...],
        ],
        ...,
    ]
    #: reuse-key names in creation order; an int is the local id of a stop-to-stop path
    #: (whose key is named after its id in the whole graph)
    key_whats: tuple[str | int, ...]
    junctions: int
    borders: frozenset[int]
    exits: frozenset[int]
    ambiguous: bool
    #: per edge 0-5, (local path, lane, track) for each exit of a path by that edge: all
    #: that decides what joins across that side (:func:`_side_links`)
    sides: tuple[tuple[tuple[int, tuple[int, int], str], ...], ...]


_TEMPLATES: dict[tuple[Tile, int], _TileTemplate] = {}


def _tile_template(tile: Tile, rotation: int) -> _TileTemplate:
    """The template of ``tile`` turned by ``rotation`` (cached: a game lays few distinct tiles)."""
    cache_key = (tile, rotation)
    hit = _TEMPLATES.get(cache_key)
    if hit is not None:
        return hit
    indices = ruby_part_indices(tile)
    part_pos = {id(p): i for i, p in enumerate(tile.parts)}
    node_ids: dict[int, int] = {}  # id(node part) -> local stop id
    junction_ids: dict[int, int] = {}
    stops: list[tuple[int, str, Revenue, tuple[str, ...], int, int, int | None]] = []
    cities = 0
    for node in tile.nodes:
        if isinstance(node, Junction):
            junction_ids[id(node)] = len(junction_ids)
            continue
        number: int | None
        if isinstance(node, City):
            kind, slots, number = "city", node.slots, cities
            cities += 1
        elif isinstance(node, Town):
            kind, slots, number = "town", 0, None
        elif isinstance(node, Offboard):
            kind, slots, number = "offboard", 0, None
        else:  # pragma: no cover - every node kind is listed above
            continue
        node_ids[id(node)] = len(stops)
        stops.append(
            (
                indices[part_pos[id(node)]],
                kind,
                node.revenue,
                node.groups,
                node.visit_cost,
                slots,
                number,
            )
        )
    borders = frozenset(
        (b.edge + rotation) % 6
        for b in tile.borders
        if b.type is not None and b.type.value == "impassable"
    )
    key_ids: dict[str, int] = {}
    key_whats: list[str | int] = []
    paths: list[Any] = []
    all_exits: set[int] = set()
    stop_to_stop = 0
    for path in tile.paths:
        for a_lane, b_lane in _lane_specs(path):
            exits: list[int] = []
            lanes: list[tuple[int, int]] = []
            ends: list[int] = []
            junction = -1
            for end, lane in ((path.a, a_lane), (path.b, b_lane)):
                if isinstance(end, Edge):
                    exits.append((end.num + rotation) % 6)
                    lanes.append(lane)
                elif isinstance(end, NodeRef):
                    part = tile.node(end)
                    if isinstance(part, Junction):
                        junction = junction_ids[id(part)]
                    else:
                        ends.append(node_ids[id(part)])
            keys: list[int] = []
            for e, lane in zip(exits, lanes, strict=True):
                what = f"{e}.{lane[1]}"
                if what not in key_ids:
                    key_ids[what] = len(key_whats)
                    key_whats.append(what)
                keys.append(key_ids[what])
            if len(ends) > 1:
                stop_to_stop += 1
                keys.append(len(key_whats))
                key_whats.append(len(paths))
            paths.append(
                (
                    tuple(exits),
                    tuple(lanes),
                    tuple(ends),
                    junction,
                    path.track.value,
                    path.terminal is not None,
                    path.ignore,
                    tuple(keys),
                )
            )
            all_exits.update(exits)
    template = _TileTemplate(
        stops=tuple(stops),
        paths=tuple(paths),
        key_whats=tuple(key_whats),
        junctions=len(junction_ids),
        borders=borders,
        exits=frozenset(all_exits),
        ambiguous=stop_to_stop > 1,
        sides=tuple(
            tuple(
                (i, lane, p[4])
                for i, p in enumerate(paths)
                for e, lane in zip(p[0], p[1], strict=True)
                if e == edge
            )
            for edge in range(6)
        ),
    )
    if len(_TEMPLATES) > 4096:
        _TEMPLATES.clear()
    _TEMPLATES[cache_key] = template
    return template


@dataclass(frozen=True, slots=True, eq=False)  # compared and hashed by identity
class _Fragment:
    """One hex's stops, paths and reuse keys with their ids in a whole graph (given where the
    hex's ids start), ready to be appended."""

    template: _TileTemplate
    key_off: int
    stops: tuple[Stop, ...]
    paths: tuple[TrackPath, ...]
    key_names: tuple[tuple[str, str], ...]
    by_signature: dict[str, int]
    stop_paths: tuple[tuple[int, ...], ...]
    junction_paths: dict[int, tuple[int, ...]]
    hex_stops: tuple[int, ...]
    hex_cities: tuple[int, ...]
    hex_paths: tuple[int, ...]


#: (hex, tile, rotation, stop, path, key and junction id offsets) -> fragment.  The same hex
#: with the same ids recurs in every graph built until a lay before it changes its offsets.
_FRAGMENTS: dict[tuple[str, Tile, int, int, int, int, int], _Fragment] = {}


def _fragment(
    hex_id: str, t: _TileTemplate, stop_off: int, path_off: int, key_off: int, j_off: int
) -> _Fragment:
    hexmap.xy(hex_id)  # validates the coordinate
    stops = tuple(
        Stop(
            id=stop_off + local,
            hex=hex_id,
            index=index,
            kind=kind,
            revenue=revenue,
            groups=groups,
            visit_cost=visit_cost,
            slots=slots,
            city_number=number,
        )
        for local, (index, kind, revenue, groups, visit_cost, slots, number) in enumerate(t.stops)
    )
    stop_paths: list[list[int]] = [[] for _ in stops]
    junction_paths: dict[int, list[int]] = {j_off + j: [] for j in range(t.junctions)}
    paths = []
    for local, (exits, lanes, ends, junction, track, terminal, ignore, keys) in enumerate(t.paths):
        pid = path_off + local
        paths.append(
            TrackPath(
                id=pid,
                hex=hex_id,
                exits=exits,
                lanes=lanes,
                stops=tuple(stop_off + s for s in ends),
                junction=junction + j_off if junction >= 0 else -1,
                track=track,
                terminal=terminal,
                ignore=ignore,
                keys=tuple(key_off + k for k in keys),
            )
        )
        for s in ends:
            stop_paths[s].append(pid)
        if junction >= 0:
            junction_paths[junction + j_off].append(pid)
    return _Fragment(
        template=t,
        key_off=key_off,
        stops=stops,
        paths=tuple(paths),
        key_names=tuple(
            (hex_id, what if isinstance(what, str) else f"p{path_off + what}")
            for what in t.key_whats
        ),
        by_signature={s.signature: s.id for s in stops},
        stop_paths=tuple(tuple(ps) for ps in stop_paths),
        junction_paths={j: tuple(ps) for j, ps in junction_paths.items()},
        hex_stops=tuple(s.id for s in stops),
        hex_cities=tuple(s.id for s in stops if s.kind == "city"),
        hex_paths=tuple(p.id for p in paths),
    )


#: (fragment, its crossable sides' (edge, fragment across)) -> its paths' links
_LINKS: dict[
    tuple[_Fragment, tuple[tuple[int, _Fragment], ...]],
    tuple[tuple[tuple[int, int], tuple[int, ...]], ...],
] = {}


def _hex_links(
    frag: _Fragment, sides: Mapping[int, str], fragments: Mapping[str, _Fragment]
) -> tuple[tuple[tuple[int, int], tuple[int, ...]], ...]:
    """((path id, exit edge), paths across that side it joins) for one hex's paths."""
    own = frag.hex_paths
    out = []
    for edge, other in sides.items():
        across = fragments[other]
        theirs = across.hex_paths
        for i, js in _side_links(frag.template, edge, across.template):
            out.append(((own[i], edge), tuple([theirs[j] for j in js])))
    return tuple(out)


#: (one side's exits, the facing side's exits; :attr:`_TileTemplate.sides`) -> the links
#: across that side in local path indices.  Keyed by what the two sides hold, not by the two
#: tiles: a game meets thousands of (tile, rotation) pairs on a side but few kinds of side
#: (a key by template pairs missed on ~80% of a replay's calls and was cleared every 16k).
_SIDE_LINKS: dict[
    tuple[
        tuple[tuple[int, tuple[int, int], str], ...],
        tuple[tuple[int, tuple[int, int], str], ...],
    ],
    tuple[tuple[int, tuple[int, ...]], ...],
] = {}


def _side_links(
    t: _TileTemplate, edge: int, other: _TileTemplate
) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """(local path of ``t`` leaving by ``edge``, local paths of ``other`` it joins across
    that side): what joins depends on the two sides' exits alone (lanes and gauges)."""
    mine = t.sides[edge]
    if not mine:
        return ()
    theirs = other.sides[(edge + 3) % 6]
    if not theirs:
        return ()
    key = (mine, theirs)
    hit = _SIDE_LINKS.get(key)
    if hit is not None:
        return hit
    out = []
    for i, lane, track in mine:
        joined: list[int] = []
        for j, ql, qtrack in theirs:
            # a path of ``other`` joins once however many of its exits face this side
            if j not in joined and _lane_match(lane, ql) and _tracks_match(track, qtrack):
                joined.append(j)
        if joined:
            out.append((i, tuple(joined)))
    found = tuple(out)
    if len(_SIDE_LINKS) > 16384:
        _SIDE_LINKS.clear()
    _SIDE_LINKS[key] = found
    return found


def build_graph(
    hex_tiles: Mapping[str, tuple[Tile, int]],
    *,
    colors: Mapping[str, str] | None = None,
    layout: str = "flat",
) -> TrackGraph:
    """The track graph of the map ``hex_tiles`` (coordinate -> (tile, rotation)).

    ``colors`` gives each hex's printed colour; red, gray and blue hexes only join hexes their
    track points at (missing entries count as white).  Ids are given in the order of
    ``hex_tiles`` (stops, paths and reuse keys of one hex are consecutive).  What a tile adds
    is worked out once per (tile, rotation) and reused: a game rebuilds its graph after every
    lay, and most of the map is the same tiles again.

    >>> from ferrovia.notation import parse
    >>> g = build_graph({"A1": (parse("city=revenue:20;path=a:0,b:_0"), 0),
    ...                  "A3": (parse("town=revenue:10;path=a:3,b:_0"), 0)})
    >>> [s.signature for s in g.stops], g.neighbours["A1"]
    (['A1-0', 'A3-0'], {0: 'A3'})
    """
    colors = colors or {}
    g = TrackGraph(layout=layout)
    g_stops = g.stops
    g_paths = g.paths
    key_names = g.key_names
    by_signature = g.by_signature
    junction_members: dict[int, tuple[int, ...]] = {}
    ambiguous: set[str] = set()
    stop_paths: list[tuple[int, ...]] = []
    junction_count = 0
    fragments: dict[str, _Fragment] = {}

    for hex_id, (tile, rotation) in hex_tiles.items():
        stop_off = len(g_stops)
        path_off = len(g_paths)
        key_off = len(key_names)
        frag_key = (hex_id, tile, rotation, stop_off, path_off, key_off, junction_count)
        frag = _FRAGMENTS.get(frag_key)
        if frag is None:
            frag = _fragment(hex_id, _tile_template(tile, rotation), *frag_key[3:])
            if len(_FRAGMENTS) > 16384:
                _FRAGMENTS.clear()
            _FRAGMENTS[frag_key] = frag
        fragments[hex_id] = frag
        g_stops.extend(frag.stops)
        g_paths.extend(frag.paths)
        key_names.extend(frag.key_names)
        by_signature.update(frag.by_signature)
        stop_paths.extend(frag.stop_paths)
        junction_members.update(frag.junction_paths)
        junction_count += len(frag.junction_paths)
        g.hex_stops[hex_id] = frag.hex_stops
        g.hex_cities[hex_id] = frag.hex_cities
        g.hex_paths[hex_id] = frag.hex_paths
        if frag.template.ambiguous:
            ambiguous.add(hex_id)

    g.stop_paths = stop_paths
    g.junction_paths = junction_members
    g.ambiguous = frozenset(ambiguous)
    g.colors = colors
    g.fragments = fragments
    g.junction_next = junction_count
    for hex_id in hex_tiles:
        g.neighbours[hex_id] = _crossable_sides(g, hex_id)
    for hex_id in fragments:
        g.links.update(_links_of(g, hex_id))
    return g


def _crossable_sides(g: TrackGraph, hex_id: str) -> dict[int, str]:
    """Edge -> neighbour for the sides of ``hex_id`` track may cross: both hexes on the map,
    no impassable border, and a closed (red, gray, blue) neighbour's own track pointing back."""
    sides: dict[int, str] = {}
    frags = g.fragments
    own_borders = frags[hex_id].template.borders
    for edge, other in hexmap.neighbour_table(hex_id, g.layout):
        across = frags.get(other)
        if across is None or edge in own_borders:
            continue
        if g.colors.get(other, "white") in CLOSED_COLOURS and (
            (edge + 3) % 6 not in across.template.exits
        ):
            continue
        sides[edge] = other
    return sides


def _links_of(g: TrackGraph, hex_id: str) -> tuple[tuple[tuple[int, int], tuple[int, ...]], ...]:
    """The links of one hex's paths, from its fragment and those across its sides (cached:
    the same hex with the same neighbours recurs in graph after graph)."""
    frag = g.fragments[hex_id]
    if not frag.paths:
        return ()
    sides = g.neighbours[hex_id]
    link_key = (frag, tuple((e, g.fragments[o]) for e, o in sides.items()))
    hex_links = _LINKS.get(link_key)
    if hex_links is None:
        hex_links = _hex_links(frag, sides, g.fragments)
        if len(_LINKS) > 16384:
            _LINKS.clear()
        _LINKS[link_key] = hex_links
    return hex_links


_DEAD_STOP = Stop(  # copied with its own id where it stands
    id=-1,
    hex="",
    index=-1,
    kind="none",
    revenue=Revenue(flat=0),
    groups=(),
    visit_cost=0,
    slots=0,
    city_number=None,
)
_DEAD_PATH = TrackPath(  # copied with its own id where it stands
    id=-1,
    hex="",
    exits=(),
    lanes=(),
    stops=(),
    junction=-1,
    track="none",
    terminal=False,
    ignore=True,
    keys=(),
)


#: id -> the inert stop (path) with that id: the same frozen object serves every graph
_DEAD_STOPS: dict[int, Stop] = {}
_DEAD_PATHS: dict[int, TrackPath] = {}


def _dead(made: dict[int, Any], dead: Any, i: int) -> Any:
    """``dead`` with the id ``i`` (made once per id: ``dataclasses.replace`` is slow)."""
    hit = made.get(i)
    if hit is None:
        hit = made[i] = dataclasses.replace(dead, id=i)
    return hit


def update_graph(graph: TrackGraph, changes: Mapping[str, tuple[Tile, int]]) -> TrackGraph:
    """The graph of ``graph``'s map with the hexes in ``changes`` holding new (tile, rotation):
    a new graph, ``graph`` itself is left as it was (caches keyed by a graph stay right).

    Stable ids: every stop, path and reuse key of a hex not in ``changes`` keeps its id, so
    only what a lay touches is worked out again -- the changed hexes' own stops and paths and
    the links and crossable sides of them and their neighbours.  A changed hex takes its new
    stops (paths, keys) in its old ids when they fit, else in new ids at the end; ids no
    longer used stay in the lists as inert entries (kind ``"none"``, no track, no exits:
    nothing walks, routes or pays through them; ``dead`` counts them).  The result answers
    every question as ``build_graph`` of the new map does, with other id numbers.

    >>> from ferrovia.notation import parse
    >>> g = build_graph({"A1": (parse("city=revenue:20;path=a:0,b:_0"), 0),
    ...                  "A3": (parse(""), 0)})
    >>> g2 = update_graph(g, {"A3": (parse("town=revenue:10;path=a:3,b:_0"), 0)})
    >>> [s.signature for s in g2.stops], g2.stops[0] is g.stops[0], g2.links[(0, 0)]
    (['A1-0', 'A3-0'], True, (1,))
    """
    g = TrackGraph(
        layout=graph.layout,
        stops=list(graph.stops),
        paths=list(graph.paths),
        stop_paths=list(graph.stop_paths),
        hex_paths=dict(graph.hex_paths),
        hex_stops=dict(graph.hex_stops),
        hex_cities=dict(graph.hex_cities),
        by_signature=dict(graph.by_signature),
        links=dict(graph.links),
        junction_paths=dict(graph.junction_paths),
        neighbours=dict(graph.neighbours),
        key_names=list(graph.key_names),
        colors=graph.colors,
        fragments=dict(graph.fragments),
        dead=graph.dead,
        junction_next=graph.junction_next,
    )
    ambiguous = set(graph.ambiguous)
    touched: set[str] = set()
    relaid: set[str] = set()  # the hexes with a new tile (the rest of touched: neighbours)
    # the ids rewritten, so the walk's tables are worked out again on them alone (a whole
    # pass over the graph on each lay was ~10% of a replay)
    stop_ids: set[int] = set()
    path_ids: set[int] = set()
    dead = graph.dead  # (counted from the ids each lay frees: no pass over the ids either)
    for hex_id, (tile, rotation) in changes.items():
        old = g.fragments[hex_id]
        template = _tile_template(tile, rotation)
        if template is old.template:
            continue
        touched.add(hex_id)
        relaid.add(hex_id)
        touched.update(o for _, o in hexmap.neighbour_table(hex_id, g.layout) if o in g.fragments)
        # the hex's old stops, paths, keys and junctions go
        for pid in old.hex_paths:
            g.paths[pid] = _dead(_DEAD_PATHS, _DEAD_PATH, pid)
        for sid in old.hex_stops:
            g.stops[sid] = _dead(_DEAD_STOPS, _DEAD_STOP, sid)
            g.stop_paths[sid] = ()
        for sig in old.by_signature:
            del g.by_signature[sig]
        for j in old.junction_paths:
            del g.junction_paths[j]
        old_keys = range(old.key_off, old.key_off + len(old.key_names))
        for k in old_keys:
            g.key_names[k] = ("", "")
        # the new ones: in the old ids when they fit, else at the end
        stop_off = _place(g.stops, old.hex_stops, len(template.stops), _DEAD_STOP)
        path_off = _place(g.paths, old.hex_paths, len(template.paths), _DEAD_PATH)
        # (entries past the new ones in a reused range keep their dead copies from above)
        key_off = _place(g.key_names, old_keys, len(template.key_whats), ("", ""))
        # the old ids left inert: those past the new entries when these fit, else all of them
        dead += _freed(len(old.hex_stops), len(template.stops))
        dead += _freed(len(old.hex_paths), len(template.paths))
        dead += _freed(len(old_keys), len(template.key_whats))
        g.stop_paths.extend(() for _ in range(len(g.stop_paths), len(g.stops)))
        stop_ids.update(old.hex_stops, range(stop_off, stop_off + len(template.stops)))
        path_ids.update(old.hex_paths, range(path_off, path_off + len(template.paths)))
        # the same fragment object as any graph placing this tile at these ids (built or
        # updated): what is cached on fragments (links, a connection's chains) is then found
        # again, as it is for the hexes a fresh build places
        frag_key = (hex_id, tile, rotation, stop_off, path_off, key_off, g.junction_next)
        frag = _FRAGMENTS.get(frag_key)
        if frag is None or frag.template is not template:
            frag = _fragment(hex_id, template, *frag_key[3:])
            if len(_FRAGMENTS) > 16384:
                _FRAGMENTS.clear()
            _FRAGMENTS[frag_key] = frag
        g.junction_next += template.junctions
        g.fragments[hex_id] = frag
        g.stops[stop_off : stop_off + len(frag.stops)] = frag.stops
        g.paths[path_off : path_off + len(frag.paths)] = frag.paths
        g.key_names[key_off : key_off + len(frag.key_names)] = frag.key_names
        g.stop_paths[stop_off : stop_off + len(frag.stops)] = frag.stop_paths
        g.by_signature.update(frag.by_signature)
        g.junction_paths.update(frag.junction_paths)
        g.hex_stops[hex_id] = frag.hex_stops
        g.hex_cities[hex_id] = frag.hex_cities
        g.hex_paths[hex_id] = frag.hex_paths
        if template.ambiguous:
            ambiguous.add(hex_id)
        else:
            ambiguous.discard(hex_id)
    g.ambiguous = frozenset(ambiguous)
    # A neighbour's side facing a re-laid hex is crossable as before unless that hex is of a
    # closed colour (where it depends on the tile's exits): its own borders and every other
    # side are unchanged, so it keeps the same (never mutated) dict.
    closed_relaid = any(g.colors.get(h, "white") in CLOSED_COLOURS for h in relaid)
    for hex_id in touched:
        if hex_id in relaid or closed_relaid:
            g.neighbours[hex_id] = _crossable_sides(g, hex_id)
    # A re-laid hex's links all go and come again; a neighbour keeps its paths and ids, and
    # its links across every side not facing a re-laid hex (the same tiles and ids on both
    # sides): only those across a facing side are made again.
    links = g.links
    for hex_id in touched:
        if hex_id in relaid:
            for pid in graph.hex_paths.get(hex_id, ()):
                for e in graph.paths[pid].exits:
                    links.pop((pid, e), None)
            frag = g.fragments[hex_id]
            if frag.paths:
                # (not through _links_of's cache: the fragment across a side may be new)
                links.update(_hex_links(frag, g.neighbours[hex_id], g.fragments))
            continue
        # a neighbour keeps its fragment: its paths leaving by a side facing a re-laid hex
        # (the template's sides) lose their old links and take those to the new tile
        frag = g.fragments[hex_id]
        if not frag.paths:
            continue
        own = frag.hex_paths
        exits_by_side = frag.template.sides
        crossed = g.neighbours[hex_id]
        for e, other in hexmap.neighbour_table(hex_id, g.layout):
            if other not in relaid or not exits_by_side[e]:
                continue
            for i, _, _ in exits_by_side[e]:
                links.pop((own[i], e), None)
            if e in crossed:
                across = g.fragments[crossed[e]]
                theirs = across.hex_paths
                for i, js in _side_links(frag.template, e, across.template):
                    links[(own[i], e)] = tuple([theirs[j] for j in js])
    g.dead = dead
    if graph.walk_passable is not None:
        # a stop's own passability changes only where its id was rewritten
        passable = list(graph.walk_passable)
        passable.extend(False for _ in range(len(passable), len(g.stops)))
        for sid in stop_ids:
            passable[sid] = _stop_passable(g.stops[sid])
        g.walk_passable = passable
    if graph.walk_sides is not None:
        sides = list(graph.walk_sides)
        sides.extend(() for _ in range(len(sides), len(g.paths)))
        for hex_id in changes:
            if hex_id in touched:
                for pid, entry in zip(g.hex_paths[hex_id], _hex_walk_sides(g, hex_id), strict=True):
                    sides[pid] = entry
        for pid in path_ids:  # (every other dead path has () already)
            if g.paths[pid].track == "none":
                sides[pid] = ()
        g.walk_sides = sides
    return g


def _freed(old: int, n: int) -> int:
    """How many of a hex's ``old`` ids :func:`_place` leaves inert when ``n`` new entries
    come: those past them when they fit in the old ids, else every one."""
    return old - n if n <= old else old


def _place(items: list[Any], old: Sequence[int], n: int, dead: Any) -> int:
    """Where ``n`` new entries go: the old ids ``old`` (consecutive) when they are enough,
    else the end of ``items`` (grown by ``n`` placeholders, overwritten by the caller)."""
    if n <= len(old):
        return old[0] if n else 0
    start = len(items)
    items.extend(dead for _ in range(n))
    return start


# ----------------------------------------------------------------------------- blocking
Tokens = Mapping[str, Sequence[Sequence[str | None]]]
"""Station tokens on the map: hex -> per city (tile city order) -> per slot, company or None."""


def city_tokens(tokens: Tokens, stop: Stop) -> list[str]:
    """Companies with a station token in the city ``stop``."""
    if stop.city_number is None:
        return []
    per_city = tokens.get(stop.hex, ())
    if stop.city_number >= len(per_city):
        return []
    return [t for t in per_city[stop.city_number] if t]


def blocks(stop: Stop, company: str | None, tokens: Tokens) -> bool:
    """Whether a route or a walk of ``company`` may not pass *through* ``stop``."""
    if stop.kind == "offboard":
        return True
    if stop.kind != "city" or company is None:
        return False
    held = city_tokens(tokens, stop)
    return company not in held and len(held) >= stop.slots


def _stop_passable(s: Stop) -> bool:
    """``not blocks(s, company, {})`` for a company: with no station there, a city blocks only
    when it has no slot, an offboard always."""
    return s.kind != "offboard" and (s.kind != "city" or s.slots > 0)


def _passable_base(graph: TrackGraph) -> list[bool]:
    """:func:`_stop_passable` of every stop, by id (kept on the graph: a walk copies it)."""
    base = graph.walk_passable
    if base is None:
        base = graph.walk_passable = [_stop_passable(s) for s in graph.stops]
    return base


#: (hex, city number) of each of a company's stations, in the map's order; and the cities with
#: markers, (hex, city number, markers there; -1 where one is the company's own)
_Stations = tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int, int], ...]]

#: company -> (a copy of the map's stations then, :func:`_stations` of them)
_STATIONS: dict[str, tuple[dict[str, list[list[str | None]]], _Stations]] = {}


def _stations(company: str, tokens: Tokens) -> _Stations:
    """Where ``company`` has stations and which cities hold markers (see :data:`_Stations`),
    read from the map's stations ``tokens``.  Kept per company with a copy of what it was read
    from, compared whole on each use: the stations change far less often than walks are
    asked for (the lists are the game state's own, changed in place, hence the copy)."""
    hit = _STATIONS.get(company)
    if hit is not None and hit[0] == tokens:
        return hit[1]
    own: list[tuple[str, int]] = []
    marked: list[tuple[str, int, int]] = []
    for h, per_city in tokens.items():
        for n, slots in enumerate(per_city):
            if company in slots:
                own.append((h, n))
            if company and company in slots:
                marked.append((h, n, -1))
                continue
            # the markers there (no list made)
            held = len(slots) - slots.count(None) - slots.count("")
            if held:
                marked.append((h, n, held))
    found = (tuple(own), tuple(marked))
    if len(_STATIONS) > 64:
        _STATIONS.clear()
    _STATIONS[company] = ({h: list(map(list, per_city)) for h, per_city in tokens.items()}, found)
    return found


def passable_stops(
    graph: TrackGraph, company: str | None, tokens: Tokens, stations: _Stations | None = None
) -> list[bool]:
    """``not blocks(stop, company, tokens)`` for every stop of ``graph``, by id: a city looked
    at only where its hex holds station tokens (a walk asks this for the whole map, and
    most of it holds none).

    >>> from ferrovia.notation import parse
    >>> g = build_graph({"A1": (parse("city=revenue:20;path=a:0,b:_0"), 0),
    ...                  "A3": (parse("city=revenue:20;path=a:3,b:_0"), 0)})
    >>> passable_stops(g, "X", {"A1": [["Y"]]}), passable_stops(g, "Y", {"A1": [["Y"]]})
    ([False, True], [True, True])
    """
    stops = graph.stops
    if company is None:
        return [s.kind != "offboard" for s in stops]
    out = list(_passable_base(graph))
    hex_cities = graph.hex_cities
    # (city_tokens and blocks, inline: per city with markers, per walk.)  A hex's cities are
    # in city-number order, so the n-th is city number n
    if stations is None:
        stations = _stations(company, tokens)
    for h, n, held in stations[1]:
        cities = hex_cities.get(h)
        if cities is not None and n < len(cities):
            sid = cities[n]
            out[sid] = held < 0 or held < stops[sid].slots
    return out


def tokened_by(stop: Stop, company: str, tokens: Tokens) -> bool:
    return company in city_tokens(tokens, stop)


# ----------------------------------------------------------------------------- connectivity
@dataclass(frozen=True)
class Reach:
    """What one company can reach along one gauge family.

    ``hexes``: hex -> the edges of it the company's track reaches (it may lay track there);
    ``stops``: stop ids reached (it may token there if a slot is free); ``paths``: path ids;
    ``run_hexes``: hexes holding reached track (where its trains can run).
    """

    hexes: Mapping[str, frozenset[int]]
    stops: frozenset[int]
    paths: frozenset[int]
    signatures: frozenset[str]
    run_hexes: frozenset[str]


def gauge_skip(gauge: str | None) -> str | None:
    """The track kind a walk of gauge family ``gauge`` may not use."""
    if gauge is None:
        return None
    try:
        return _SKIP[gauge]
    except KeyError:
        raise ValueError(f"unknown gauge family {gauge!r} (broad, metre or None)") from None


def home_starts(
    graph: TrackGraph, home_hexes: Collection[str], home_cities: Mapping[str, Collection[int]]
) -> tuple[list[int], list[int]]:
    """Start stops and start paths of a company that starts from home hexes (companies.yaml
    ``home_hexes``: 1858's private railways), not from station markers.

    A home hex with no city or town starts from each of its track paths; one with several
    cities from those reserved for the private (``home_cities``); otherwise from its stops.
    """
    stops: list[int] = []
    paths: list[int] = []
    for h in home_hexes:
        here = graph.hex_stops.get(h, ())
        city_towns = [s for s in here if graph.stops[s].kind in ("city", "town")]
        if not city_towns:
            paths.extend(graph.hex_paths.get(h, ()))
        elif len(graph.hex_cities.get(h, ())) > 1:
            wanted = home_cities.get(h, ())
            stops.extend(c for i, c in enumerate(graph.hex_cities[h]) if i in wanted)
        else:
            stops.extend(city_towns)
    return stops, paths


def _hex_walk_sides(
    graph: TrackGraph, hex_id: str
) -> list[tuple[tuple[tuple[str, int, int], bool], ...]]:
    """:func:`_walk_sides` of one hex's paths (in ``hex_paths`` order)."""
    pids = graph.hex_paths.get(hex_id, ())
    count: dict[int, int] = {}
    for pid in pids:
        for e in graph.paths[pid].exits:
            count[e] = count.get(e, 0) + 1
    return [
        tuple(
            ((hex_id, e, lane[1]), count[e] > 1)
            for e, lane in zip(graph.paths[pid].exits, graph.paths[pid].lanes, strict=True)
        )
        for pid in pids
    ]


def _walk_sides(graph: TrackGraph) -> list[tuple[tuple[tuple[str, int, int], bool], ...]]:
    """Per path, each exit's (hex, edge, lane index) and whether two or more of the hex's
    paths leave by that edge (a converging side)."""
    if graph.walk_sides is not None:
        return graph.walk_sides
    sides: list[tuple[tuple[tuple[str, int, int], bool], ...]] = [() for _ in graph.paths]
    for h in graph.hex_paths:
        for pid, entry in zip(graph.hex_paths[h], _hex_walk_sides(graph, h), strict=True):
            sides[pid] = entry
    graph.walk_sides = sides
    return sides


def _walk_bounds(
    graph: TrackGraph, company: str | None, tokens: Tokens, skip: str | None
) -> tuple[list[int], list[int]]:
    """An upper bound of what the walk can find from each of its states.

    A state is a path and the side it was entered by (``state_base[path]``: entered from a stop
    or a junction; ``+ 1 + i``: by its ``i``-th exit).  ``bound[state]`` is the bitset of the
    paths reachable from it by the walk's moves -- on through a stop that does not block, a
    junction, or a far side into the paths it joins -- with none of its one-use rules (path,
    stop, side, junction), so it holds every path any walk from that state can find.  Strongly
    connected states share one bound (Tarjan's algorithm, iterative: boards are deep).
    """
    passable = [not blocks(s, company, tokens) for s in graph.stops]
    cache_key = (skip, frozenset(i for i, ok in enumerate(passable) if not ok))
    hit = graph.walk_bounds.get(cache_key)
    if hit is not None:
        return hit
    paths = graph.paths
    state_base: list[int] = []
    n = 0
    for p in paths:
        state_base.append(n)
        n += 1 + len(p.exits)

    def enterable(p: TrackPath) -> bool:
        return p.track != skip and not (p.junction >= 0 and p.terminal)

    # successors per state
    succ: list[list[int]] = [[] for _ in range(n)]
    for p in paths:
        if not enterable(p):
            continue
        common: list[int] = []
        if not p.terminal:
            for s in p.stops:
                if passable[s]:
                    for q in graph.stop_paths[s]:
                        qp = paths[q]
                        if qp.track != skip and not qp.ignore and enterable(qp):
                            common.append(state_base[q])
        if p.junction >= 0:
            common.extend(
                state_base[q] for q in graph.junction_paths[p.junction] if enterable(paths[q])
            )
        far: list[list[int]] = []
        for e in p.exits:
            out: list[int] = []
            for q in graph.links.get((p.id, e), ()):
                qp = paths[q]
                if enterable(qp):
                    out.append(state_base[q] + 1 + qp.exits.index(hexmap.invert(e)))
            far.append(out)
        base = state_base[p.id]
        for k in range(1 + len(p.exits)):
            nxt = list(common)
            for i, out in enumerate(far):
                if k != 1 + i:
                    nxt.extend(out)
            succ[base + k] = nxt
    own = [0] * n
    for p in paths:
        if enterable(p):
            for k in range(1 + len(p.exits)):
                own[state_base[p.id] + k] = 1 << p.id

    # Tarjan: components come out sinks first, so each one's successors are done before it
    bound = [0] * n
    index = [-1] * n
    low = [0] * n
    on_stack = [False] * n
    stack: list[int] = []
    counter = 0
    for root in range(n):
        if index[root] >= 0:
            continue
        work: list[tuple[int, int]] = [(root, 0)]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack[root] = True
        while work:
            v, i = work[-1]
            nexts = succ[v]
            if i < len(nexts):
                work[-1] = (v, i + 1)
                w = nexts[i]
                if index[w] < 0:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on_stack[w] = True
                    work.append((w, 0))
                elif on_stack[w] and index[w] < low[v]:
                    low[v] = index[w]
                continue
            work.pop()
            if work:
                u = work[-1][0]
                if low[v] < low[u]:
                    low[u] = low[v]
            if low[v] == index[v]:
                members = []
                while True:
                    w = stack.pop()
                    on_stack[w] = False
                    members.append(w)
                    if w == v:
                        break
                bits = 0
                for w in members:
                    bits |= own[w]
                    for x in succ[w]:
                        bits |= bound[x]  # a member's own bound is 0 until set below
                for w in members:
                    bound[w] = bits
    if len(graph.walk_bounds) > 64:
        graph.walk_bounds.clear()
    graph.walk_bounds[cache_key] = (state_base, bound)
    return state_base, bound


_Context = tuple[set[int], set[tuple[int, int]], dict[tuple[str, int, int], int], dict[int, int]]
#: a soft part: (paths across, side entered by, origin, origin soft, the walk's state there)
_Part = tuple[tuple[int, ...], int, tuple[int, int], bool, _Context]


def _clear_way(
    state: int, parents: dict[int, tuple[int, object]], closed: Collection[object]
) -> bool:
    """Whether the way :meth:`_Walk.most` first reached ``state`` by leaves by no side of
    ``closed`` (``parents`` as :meth:`_Walk._relaxed` fills it)."""
    while True:
        state, side = parents[state]
        if state < 0:
            return True
        if side is not None and side in closed:
            return False


class _Walk:
    """The 18xx.games walk, computed in three passes that find exactly what it finds, in time
    polynomial in the size of the network.

    Past a side where two or more of a tile's paths meet (a converging side) the walk forgets,
    on its way back, what it saw beyond it, so from there on it tries every way on: exponential
    on a dense network.  Such a *soft* part changes nothing but the set of paths found (every
    mark it makes is undone on the way back), so

    1. the *hard* walk runs first as it is, each soft part left out but noted with the walk's
       state where it starts (paths and stops seen, sides on the way, junctions in use);
    2. if what the soft parts can reach at most (:meth:`part_bound`, each from where it
       starts) holds a path not found, each soft part is *probed*: walked once keeping what
       it saw, a quick pass whose every find is a walk the full soft part tries too; if that
       leaves a gap, the bound is tightened (:meth:`most`, :meth:`tighten`);
    3. only if a path is still in doubt: the matching pass (:meth:`solve_part`) settles, for
       each such path, whether the soft part finds it.

    **Why pass 3 is polynomial.**  A soft part finds a path ``q`` iff some sequence of moves
    from its start obeys the walk's rules and ends entering ``q`` (everything is undone on the
    way back, so the walk tries every such sequence).  Take track paths as the *edges* of a
    graph whose *vertices* are stops, junctions and hex sides (a side: the (hex, edge, lane)
    pair that links join; the walk marks the side on the way, not the path).  Then:

    - a move goes *through* a vertex from one edge to another: through a stop from any of its
      paths to any other (if it does not block and no path there is ``terminal``/``ignore``),
      through a junction likewise, across a side from a path on one hex to a path on the other;
    - the walk goes through each vertex at most once: a stop is seen, a junction in use twice;
      a side crossed one way is on the way, so no path on the hex it was left from may be
      entered again and a path on the other hex can no longer cross back;
    - so the moves of a soft part are exactly the *simple paths* of that graph that obey, at
      each vertex, its allowed pairs of edges -- a stop's or junction's any two edges, a side's
      any edge of one hex with any edge of the other (checked: every path there joins every
      path across, which holds for one gauge family on tiles without lanes of mixed widths);
    - ``q`` is found iff some such path goes through one end of ``q`` into it without having
      gone through its far end first (unless that is a stop: entering a path to a seen stop is
      allowed).  If the far end was gone through -- a side crossed into ``q``'s hex, or a
      junction -- the walk could have turned into ``q`` right there instead, reaching ``q``
      from the other end with this one still fresh: so asking both directions, each with the
      far end left out of the graph, is exact.

    Where each vertex's allowed pairs are "any two edges of different parts" (complete
    multipartite; Szeider 2003, *Finding paths in graphs avoiding forbidden transitions*), a
    simple path under them is a perfect matching of a gadget graph: per vertex one node per
    part, all joined, plus (parts - 2) nodes joined to every part node -- perfectly matched
    inside when the vertex is unused, or leaving exactly two part nodes of different parts to
    the path's two edges; a start node and a target node at the ends.  The matching where
    every vertex is unused leaves only those two exposed, so a perfect matching exists iff one
    augmenting path joins them: one Edmonds blossom search (:func:`_augmenting`), O(V E) on a
    graph of O(P + L) nodes, per path in doubt and direction.  A part outside that class
    (:class:`_PartModel` returns None) is walked in full instead, counted in
    ``WALK_STATS["exhaustive"]`` -- a case no board of one gauge family reaches.

    What it costs (P paths, L links, S starts; every find is a real walk, so found is a lower
    bound of the answer throughout):

    - pass 1 enters each path at most once per start: O(S (P + L));
    - pass 2 walks each soft part once: O(parts (P + L)), parts <= S P; the bounds are
      searches over (path, side entered by) states, O(P + L) each, :meth:`tighten` at most
      O(P^2 (P + L));
    - pass 3: O(P (P + L)^2) per soft part at worst.

    Measured: pass 3 ran for none of the reaches of the 1858 fixture replays (the bounds
    settle them all); tests/test_graph_reach.py checks the matching pass alone (every soft
    part settled by it, :func:`reach_by_matching`) against the plain walk on boards full of
    switches and on real late-game boards.
    """

    def __init__(
        self,
        graph: TrackGraph,
        company: str | None,
        tokens: Tokens,
        skip: str | None,
        hexes: dict[str, set[int]],
        seen_stops: set[int],
        seen_paths: set[int],
        stations: _Stations | None = None,
    ) -> None:
        self.graph = graph
        self.company = company
        self.tokens = tokens
        self.skip = skip
        self.hexes = hexes
        self.seen_stops = seen_stops
        self.seen_paths = seen_paths
        self.found = 0  # bitset of seen_paths
        self.sides = _walk_sides(graph)
        self.passable = passable_stops(graph, company, tokens, stations)
        self.bounds: tuple[list[int], list[int]] | None = None
        # the walk's state
        self.paths_seen: set[int] = set()
        self.nodes_seen: set[tuple[int, int]] = set()
        self.on_way: dict[tuple[str, int, int], int] = {}
        self.junction_uses: dict[int, int] = {}
        self.probing = False
        self.prune = False
        #: soft parts left out by the hard walk: (paths across, side entered by, origin,
        #: origin soft, the walk's state there)
        self.soft_parts: list[_Part] = []
        self.targets = 0  # pass 3: what the soft part being walked may still find
        self.start_nodes: list[tuple[int, int]] = []
        self.matching = 0  # 1 when pass 3 ran (counted in WALK_STATS)
        #: :func:`reached_edges`: the hex asked about, its edges the hard walk has marked so
        #: far and every edge any walk could mark; the walk stops once they are equal
        self.watch: str | None = None
        self.watch_got: set[int] = set()
        self.watch_most: set[int] = set()
        self.watch_hexes: frozenset[str] = frozenset()  # the hex and its neighbours
        self.watch_first = False  # :func:`reached_edges` ``first``: stop at the first edge
        #: :func:`reaches_stop` / :func:`runs_into`: the stop looked for (-1: any path on
        #: ``watch_hexes``); the walk stops at the first find that settles it
        self.look_for = -1
        self.watch_pruned = False  # :meth:`unreachable_edges` asked (once per walk)
        self.exhaustive = 0  # 1 when a part of it was walked in full (counted in WALK_STATS)

    def walk_starts(self, start_nodes: list[tuple[int, int]]) -> None:
        """Pass 1: the hard walk from each start in turn, each with a fresh way behind it."""
        self.start_nodes = start_nodes
        for start in start_nodes:
            self.paths_seen = set()
            self.nodes_seen = set(start_nodes)
            self.nodes_seen.discard(start)
            self.on_way = {}
            self.junction_uses = {}
            self.walk_node(start, False)

    def run(self, start_nodes: list[tuple[int, int]]) -> None:
        self.walk_starts(start_nodes)
        # only the hard walk's finds are sure to stay (the soft parts' probes are not)
        self.watch, self.watch_hexes = None, frozenset()
        if self.soft_parts:
            # what the soft parts can find at most: each searched from where it starts, what
            # the hard walk had seen by then left out (a smaller search than :meth:`most`)
            most = 0
            for part in self.soft_parts:
                most |= self.part_bound(part)
            if most & ~self.found:
                self.walk_soft_parts(most | self.found)
        self.finish()

    def run_matching(self, start_nodes: list[tuple[int, int]]) -> bool:
        """Pass 1, then every path each soft part can reach at most asked of the matching
        pass (:meth:`solve_part`); False when a part is outside its class."""
        self.walk_starts(start_nodes)
        for part in self.soft_parts:
            got = self.solve_part(part, self.part_bound(part))
            if got is None:
                return False
            self.add_found(got)
        self.finish()
        return True

    def add_found(self, bits: int) -> None:
        for q in bit_positions(bits & ~self.found):
            self.seen_paths.add(q)
        self.found |= bits

    def most(
        self,
        start_nodes: list[tuple[int, int]],
        shut: int = 0,
        closed: Collection[tuple[str, int, int]] = (),
        target: int = -1,
        parents: dict[int, tuple[int, object]] | None = None,
    ) -> int:
        """Every path the walk could find at most (bitset): those reachable from the starts by
        its moves -- on through a stop that does not block, a junction, a far side other than
        the one a path was entered by -- with none of its one-use rules; never entering a
        path of ``shut`` (bitset) nor leaving by a side in ``closed``.  A depth-first search
        over (path, side entered by) states: linear in the size of the graph.  A state is the
        int ``8 * path + (0 if entered from a stop or junction else 1 + edge)``; a stop or a
        junction, once gone through, is not gone through again (it leads to the same states).
        ``target`` >= 0: only whether that path is reached (its bit, or 0), the search
        stopping as soon as it is.  ``parents``: filled with how each state was first reached
        (see :meth:`_relaxed`)."""
        paths = self.graph.paths
        stop_paths = self.graph.stop_paths
        open_ = self._open() & ~shut
        todo: list[int] = []
        for kind, ident in start_nodes:
            here = [ident] if kind == 1 else stop_paths[ident]
            todo.extend(8 * q for q in here if not paths[q].ignore and (open_ >> q) & 1)
        if parents is not None:
            for state in todo:
                parents[state] = (-1, None)
        return self._relaxed(todo, open_, set(), closed, target, parents)

    def _relaxed(
        self,
        todo: list[int],
        open_: int,
        stops_done: set[int],
        closed: Collection[tuple[str, int, int]] = (),
        target: int = -1,
        parents: dict[int, tuple[int, object]] | None = None,
    ) -> int:
        """The paths (bitset) reachable from the states ``todo`` by the walk's moves with none
        of its one-use rules, entering only paths of ``open_`` (bitset), going through no stop
        of ``stops_done`` (it is filled) and leaving by no side of ``closed``.  States are ints
        (see :meth:`most`); ``todo`` is used up.  ``target`` >= 0: the bit of that path if it
        is reachable, else 0 -- every state pushed is popped, so the path is reachable exactly
        when a state of it is pushed, and the search stops there (:meth:`tighten` asks this of
        each path in doubt).  ``parents``: for each state pushed, (the state it was reached
        from, the side that move left by, or None through a stop or junction)."""
        graph = self.graph
        paths = graph.paths
        passable = self.passable
        links = graph.links
        stop_paths = graph.stop_paths
        junction_paths = graph.junction_paths
        sides = self.sides
        seen = set(todo)
        if target >= 0:
            if any(state >> 3 == target for state in todo):
                return 1 << target
            hit, far = 8 * target, 8 * target + 7  # (the states of the target path)
        else:
            hit = far = -1
        junctions_done: set[int] = set()
        found: set[int] = set()
        push = todo.append
        while todo:
            state = todo.pop()
            pid = state >> 3
            came = (state & 7) - 1
            found.add(pid)
            p = paths[pid]
            if p.stops and not p.terminal:
                for st in p.stops:
                    if passable[st] and st not in stops_done:
                        stops_done.add(st)
                        for q in stop_paths[st]:
                            if (open_ >> q) & 1 and not paths[q].ignore and 8 * q not in seen:
                                if 8 * q == hit:
                                    return 1 << target
                                seen.add(8 * q)
                                push(8 * q)
                                if parents is not None:
                                    parents[8 * q] = (state, None)
            j = p.junction
            if j >= 0 and j not in junctions_done:
                junctions_done.add(j)
                for q in junction_paths[j]:
                    if (open_ >> q) & 1 and 8 * q not in seen:
                        if 8 * q == hit:
                            return 1 << target
                        seen.add(8 * q)
                        push(8 * q)
                        if parents is not None:
                            parents[8 * q] = (state, None)
            for i, e in enumerate(p.exits):
                if e == came or (closed and sides[pid][i][0] in closed):
                    continue
                across = links.get((pid, e))
                if across:
                    code = 1 + (e + 3) % 6
                    for q in across:
                        nxt = 8 * q + code
                        if nxt not in seen and (open_ >> q) & 1:
                            if hit <= nxt <= far:
                                return 1 << target
                            seen.add(nxt)
                            push(nxt)
                            if parents is not None:
                                parents[nxt] = (state, sides[pid][i][0])
        if target >= 0:
            return 0
        bits = 0
        for pid in found:
            bits |= 1 << pid
        return bits

    def _open(self) -> int:
        """The paths a walk of this gauge may enter (bitset, kept per graph)."""
        graph = self.graph
        skip = self.skip
        bits = graph.walk_open.get(skip)
        if bits is None:
            bits = 0
            for q in graph.paths:
                if q.track != skip and not (q.junction >= 0 and q.terminal):
                    bits |= 1 << q.id
            graph.walk_open[skip] = bits
        return bits

    def tighten(self, start_nodes: list[tuple[int, int]]) -> int:
        """:meth:`most` from the starts, without the paths the walk can never enter because one of
        their own sides is on its way whenever it could: a path ``q`` is entered only with
        none of its sides on the way, i.e. at the end of a sequence of moves from a start
        that never leaves a hex by one of ``q``'s sides (the walk's stack is such a
        sequence, its sides on the way are the sides that sequence leaves by).  So if ``q``
        is not in :meth:`most` with those sides closed, the walk never finds it, nor what
        lies only behind it.  Repeated until nothing more is shut: each round shuts a path
        or stops, one search per path left in doubt -- polynomial.  Each round's search
        without closed sides keeps how each state was first reached: a path whose way there
        never leaves by one of its own sides is reached with them closed too, and needs no
        search of its own (1858 p2 seed 19 after action 676, a station listing: 166
        searches, 72 ms)."""
        shut = 0
        parents: dict[int, tuple[int, object]] = {}
        most = self.most(start_nodes, parents=parents)
        while True:
            gap = most & ~self.found
            out = 0
            states: dict[int, list[int]] = {}
            for state in parents:
                states.setdefault(state >> 3, []).append(state)
            while gap:
                low = gap & -gap
                q = low.bit_length() - 1
                gap ^= low
                closed = {side for side, _ in self.sides[q]}
                if any(_clear_way(state, parents, closed) for state in states.get(q, ())):
                    continue
                if not self.most(start_nodes, shut, closed, q):
                    out |= low
            if not out:
                return most
            shut |= out
            parents = {}
            most = self.most(start_nodes, shut, parents=parents)

    def walk_soft_parts(self, most: int) -> None:
        """Passes 2 and 3 (``most``: what the walk could find at most, :meth:`most`)."""
        self.probing = True
        for part in self.soft_parts:
            if most & ~self.found:
                self.walk_soft(part, copy=True)
        self.probing = False
        if most & ~self.found:  # both are upper bounds: so is what they share
            most &= self.tighten(self.start_nodes)
        if not most & ~self.found:
            return  # everything that can be found is: no soft part has more to give
        # pass 3: what each soft part could find at most and is not found yet, settled by
        # matchings; a part outside the class that is proven for is walked in full
        self.matching = 1
        for part in self.soft_parts:
            bound = self.part_bound(part) & most
            if not bound & ~self.found:
                continue
            got = self.solve_part(part, bound & ~self.found)
            if got is not None:
                self.add_found(got)
                continue
            self.exhaustive = 1
            if self.bounds is None:
                self.bounds = _walk_bounds(self.graph, self.company, self.tokens, self.skip)
            self.prune = True
            self.targets = bound
            self.walk_soft(part, copy=False)
            self.prune = False

    def part_bound(self, part: _Part) -> int:
        """The paths a soft part can reach at most (bitset): those reachable by the walk's
        moves from where it starts, leaving out what stays shut all through it -- paths
        already seen or with a side on the way, stops already passed, junctions in full
        use."""
        across, entered, origin, _, (_, ns, _, _) = part
        open_ = self._part_open(part)
        code = 0 if entered is None else 1 + entered
        todo = [8 * q + code for q in across if (open_ >> q) & 1]
        stops_done = {ident for kind, ident in ns if kind == 0}
        if origin[0] == 0:
            stops_done.add(origin[1])
        return self._relaxed(todo, open_, stops_done)

    def _part_open(self, part: _Part) -> int:
        """The paths a soft part may ever enter (bitset): not those seen before it, nor those
        with a side on the way or at a junction in full use then (shut all through it)."""
        _, _, _, _, (ps, _, ow, ju) = part
        graph = self.graph
        shut = 0
        for q in ps:
            shut |= 1 << q
        marked = {side for side, n in ow.items() if n}
        for h in {side[0] for side in marked}:
            for q in graph.hex_paths.get(h, ()):
                if any(side in marked for side, _ in self.sides[q]):
                    shut |= 1 << q
        for j, uses in ju.items():
            if uses > 1:
                for q in graph.junction_paths.get(j, ()):
                    shut |= 1 << q
        return self._open() & ~shut

    def solve_part(self, part: _Part, targets: int) -> int | None:
        """Which of ``targets`` (bitset) a soft part finds, in polynomial time: one augmenting
        path search of a matching per target and direction (see :class:`_Walk`, pass 3).
        None when the board is outside the class the reduction is proven for (a side whose
        paths do not all join all those across, a stop a walk may go through with a terminal
        or ``ignore`` path, a path without two ends)."""
        model = _PartModel.of(self, part)
        if model is None:
            return None
        out = 0
        for q in bit_positions(targets & model.edges):
            if q in model.first:
                out |= 1 << q  # entered as the part starts
                continue
            ends = model.ends[q]
            for u, v in ((ends[0], ends[1]), (ends[1], ends[0])):
                if model.reaches(q, u, v):
                    out |= 1 << q
                    break
        return out

    def walk_soft(
        self,
        part: _Part,
        *,
        copy: bool,
    ) -> None:
        across, entered, origin, origin_soft, (ps, ns, ow, ju) = part
        if copy:  # a probe keeps what it saw: not in the noted state, which pass 3 reuses
            ps, ns = set(ps), set(ns)
        self.paths_seen, self.nodes_seen = ps, ns
        self.on_way, self.junction_uses = dict(ow), dict(ju)
        paths = self.graph.paths
        for q in across:
            self.walk_path(paths[q], entered, -1, True, origin, origin_soft)

    def watched(self, p: TrackPath) -> None:
        """Note the edges of the watched hex the newly found path ``p`` marks (as
        :meth:`finish` marks them); :class:`_AllFound` once no walk could mark more."""
        h = self.watch
        if h is None:  # a stop or a path on some hexes is looked for
            if self.look_for < 0 or self.look_for in p.stops:
                raise _AllFound
            return
        got = self.watch_got
        had = len(got)
        if p.hex == h:
            got.update(p.exits)
        else:
            neighbours = self.graph.neighbours[p.hex]
            for e in p.exits:
                if neighbours.get(e) == h:
                    got.add((e + 3) % 6)  # hexmap.invert
        if got >= self.watch_most or (self.watch_first and got & self.watch_most):
            raise _AllFound
        if len(got) > had and not self.watch_pruned:
            # the first edge found: the rest are often ones no path from a start leads to
            # (track of another network next door); once those are ruled out, the walk may
            # stop as soon as the others are found
            self.watch_pruned = True
            self.watch_most -= self.unreachable_edges(self.watch_most - got)
            if got >= self.watch_most:
                raise _AllFound

    def unreachable_edges(self, missing: set[int]) -> set[int]:
        """The edges of ``missing`` (of the watched hex) no path the walk can find marks: each
        path that could mark one has no way back to a start -- a search backwards over the
        walk's moves with none of its rules (into a path from one that joins it across a
        side, through a junction, through a stop that does not block) ends without touching
        a start, having seen at most :data:`_PRUNE_BUDGET` paths in all (else the edge is
        kept: this only saves walking)."""
        graph = self.graph
        paths = graph.paths
        skip = self.skip
        h = self.watch
        assert h is not None
        # the paths that could mark each edge (as :func:`_watch_most` finds them)
        marks: dict[int, list[int]] = {}
        for pid in graph.hex_paths.get(h, ()):
            p = paths[pid]
            if p.track != skip:
                for e in p.exits:
                    if e in missing:
                        marks.setdefault(e, []).append(pid)
        for edge, other in hexmap.neighbour_table(h, graph.layout):
            back = (edge + 3) % 6
            if edge in missing and graph.neighbours.get(other, {}).get(back) == h:
                for pid in graph.hex_paths.get(other, ()):
                    p = paths[pid]
                    if p.track != skip and back in p.exits:
                        marks.setdefault(edge, []).append(pid)
        start_stops = {ident for kind, ident in self.start_nodes if kind == 0}
        start_paths = {ident for kind, ident in self.start_nodes if kind == 1}
        passable = self.passable
        links = graph.links
        hex_paths = graph.hex_paths
        layout = graph.layout
        dead: set[int] = set()  # closed backward searches that touched no start
        budget = _PRUNE_BUDGET
        out: set[int] = set()
        for edge, candidates in marks.items():
            for q in candidates:
                if q in dead:
                    continue
                seen = {q}
                todo = [q]
                live = False
                while todo and not live:
                    r = paths[todo.pop()]
                    budget -= 1
                    if budget < 0 or r.id in start_paths:
                        live = True
                        break
                    before: list[int] = []
                    for st in r.stops:
                        if st in start_stops:
                            live = True
                        elif passable[st]:
                            before.extend(graph.stop_paths[st])
                    if r.junction >= 0:
                        before.extend(graph.junction_paths[r.junction])
                    # (by its exits, not the six sides: most paths have two)
                    across = _edge_neighbours(r.hex, layout)
                    rid = r.id
                    for x in r.exits:
                        there = across.get(x)
                        if there is not None:
                            e = (x + 3) % 6
                            for t in hex_paths.get(there, ()):
                                if rid in links.get((t, e), ()):
                                    before.append(t)
                    for t in before:
                        if t not in seen and paths[t].track != skip:
                            seen.add(t)
                            todo.append(t)
                if live:
                    break  # this edge may be marked
                dead |= seen
            else:
                out.add(edge)
            if budget < 0:
                break
        return out

    def finish(self) -> None:
        """The hexes' edges and the stops of the paths found."""
        hexes = self.hexes
        graph = self.graph
        paths = graph.paths
        all_neighbours = graph.neighbours
        seen_stops = self.seen_stops
        for pid in self.seen_paths:  # (hoisted lookups: this ran ~5% of a replay)
            p = paths[pid]
            exits = p.exits
            if exits:
                h = p.hex
                own = hexes.get(h)
                if own is None:
                    own = hexes[h] = set()
                own.update(exits)
                neighbours = all_neighbours[h]
                for e in exits:
                    other = neighbours.get(e)
                    if other is not None:
                        hexes.setdefault(other, set()).add((e + 3) % 6)  # hexmap.invert
            if p.stops:
                seen_stops.update(p.stops)

    def walk_node(self, node: tuple[int, int], soft: bool) -> None:
        nodes_seen = self.nodes_seen
        if node in nodes_seen:
            return
        nodes_seen.add(node)
        kind, ident = node
        paths = self.graph.paths
        here = (ident,) if kind == 1 else self.graph.stop_paths[ident]
        paths_seen = self.paths_seen  # (the same set all through this node's walk)
        for pid in here:
            p = paths[pid]
            if p.track == self.skip or p.ignore or pid in paths_seen:
                continue
            self.walk_path(p, None, -1, soft, node, soft)
        if soft and not self.probing:
            nodes_seen.discard(node)

    def walk_path(
        self,
        p: TrackPath,
        entered: int | None,
        jskip: int,
        soft: bool,
        origin: tuple[int, int],
        origin_soft: bool,
    ) -> None:
        paths_seen = self.paths_seen
        if p.id in paths_seen or p.track == self.skip:
            return
        if self.prune:
            assert self.bounds is not None
            base, bound = self.bounds
            state = base[p.id] + (0 if entered is None else 1 + p.exits.index(entered))
            if not bound[state] & self.targets & ~self.found:
                return  # nothing new can be found from here
        j = p.junction
        junction_uses = self.junction_uses
        if j >= 0 and (junction_uses.get(j, 0) > 1 or p.terminal):
            return
        on_way = self.on_way
        sides = self.sides[p.id]
        for side, _ in sides:
            if on_way.get(side, 0):
                return
        pid = p.id
        paths_seen.add(pid)
        if j >= 0:
            junction_uses[j] = junction_uses.get(j, 0) + 1
        if pid not in self.seen_paths:
            self.seen_paths.add(pid)
            self.found |= 1 << pid
            if p.hex in self.watch_hexes:  # (its paths alone can mark the hex's edges)
                self.watched(p)
        graph = self.graph
        if not p.terminal and p.stops:
            passable = self.passable
            for s in p.stops:
                # (walk_node's first test, without the call: most stops are seen already)
                if passable[s]:
                    node = (0, s)
                    if node != origin and node not in self.nodes_seen:
                        self.walk_node(node, origin_soft or soft)
        paths = graph.paths
        if j >= 0 and j != jskip:
            for q in graph.junction_paths[j]:
                if q not in paths_seen:  # (walk_path's first test, without the call)
                    self.walk_path(paths[q], None, j, soft, origin, origin_soft)
        links = graph.links
        for side, converging in sides:
            e = side[1]  # the exit's edge (the sides are the exits', in order: no zip)
            if e == entered:
                continue
            across = links.get((pid, e))
            if not across:
                continue
            back = (e + 3) % 6  # hexmap.invert
            on_way[side] = on_way.get(side, 0) + 1
            if soft:
                for q in across:
                    if q not in paths_seen:
                        self.walk_path(paths[q], back, -1, True, origin, origin_soft)
            elif converging:
                # a soft part: noted, walked after the hard walk (it changes nothing else)
                context = (set(paths_seen), set(self.nodes_seen), dict(on_way), dict(junction_uses))
                self.soft_parts.append((across, back, origin, origin_soft, context))
            else:
                for q in across:
                    if q not in paths_seen:
                        self.walk_path(paths[q], back, -1, False, origin, origin_soft)
            on_way[side] -= 1
        if soft and not self.probing:
            paths_seen.discard(p.id)
        if j >= 0:
            junction_uses[j] -= 1


#: paths the backward searches of :meth:`_Walk.unreachable_edges` may look at, per walk
_PRUNE_BUDGET = 40


@functools.lru_cache(maxsize=8192)
def _edge_neighbours(hex_id: str, layout: str) -> Mapping[int, str]:
    """``hexmap.neighbours`` kept (never changed: a shared answer)."""
    return hexmap.neighbours(hex_id, layout)


class _AllFound(Exception):
    """The watched hex's edges are all found (:meth:`_Walk.watched`): the walk may stop."""


_Vertex = tuple[Any, ...]  # ("stop", id) | ("junction", id) | ("side", key, key) | ("end", ...)


class _PartModel:
    """A soft part as a graph whose walks are the soft part's walks (see :class:`_Walk`):
    track paths are its edges; stops, junctions and hex sides its vertices."""

    def __init__(self) -> None:
        self.edges = 0  # bitset: the paths the part may enter
        self.ends: dict[int, tuple[_Vertex, _Vertex]] = {}
        #: vertex a walk may go through -> its parts: a move goes from an edge of one part to
        #: an edge of another (a stop's and a junction's edges are one part each; a side's
        #: paths are two parts, one per hex)
        self.parts: dict[_Vertex, dict[Any, list[int]]] = {}
        self.first: dict[int, _Vertex] = {}  # the part's first paths -> their far end
        #: per path, the part of each end it belongs to (see ``parts``)
        self.keys: dict[int, tuple[Any, Any]] = {}

    @classmethod
    def of(cls, walk: _Walk, part: _Part) -> _PartModel | None:
        across, entered, origin, _, (_, ns, _, ju) = part
        graph = walk.graph
        paths = graph.paths
        sides = walk.sides
        edges = walk.part_bound(part)  # no walk of the part leaves these paths
        model = cls()
        model.edges = edges
        ids = list(bit_positions(edges))
        # each path's two ends; a side is a vertex shared by every path with that (hex,
        # edge, lane) -- the walk marks the side, not the path -- and those across it
        partner: dict[Any, Any] = {}

        def across_key(key: Any) -> Any:
            """The (hex, edge, lane) across ``key``: None if no path there joins one, False if
            paths there join two (not one crossing point)."""
            if key not in partner:
                far: set[Any] = set()
                for r in graph.hex_paths.get(key[0], ()):
                    for x, (side, _) in zip(paths[r].exits, sides[r], strict=True):
                        if side == key:
                            for t in graph.links.get((r, x), ()):
                                far.update(
                                    s
                                    for y, (s, _) in zip(paths[t].exits, sides[t], strict=True)
                                    if y == (x + 3) % 6
                                )
                partner[key] = far.pop() if len(far) == 1 else (None if not far else False)
            return partner[key]

        for q in ids:
            p = paths[q]
            ends: list[_Vertex] = []
            keys: list[Any] = []
            for side, _ in sides[q]:
                other = across_key(side)
                if other is False or (other is not None and across_key(other) != side):
                    return None
                if other is None:
                    ends.append(("end", side))  # no path across joins it: leads nowhere
                else:
                    ends.append(("side", min(side, other), max(side, other)))
                keys.append(side)
            for st in p.stops:
                ends.append(("stop", st))
                keys.append(q)
            if p.junction >= 0:
                ends.append(("junction", p.junction))
                keys.append(q)
            if len(ends) != 2:
                return None
            model.ends[q] = (ends[0], ends[1])
            model.keys[q] = (keys[0], keys[1])
        # the vertices a walk may go through, and their parts
        passed_stops = {ident for kind, ident in ns if kind == 0}
        if origin[0] == 0:
            passed_stops.add(origin[1])
        for q in ids:
            for v, key in zip(model.ends[q], model.keys[q], strict=True):
                kind = v[0]
                if kind == "end":
                    continue
                if kind == "stop":
                    st = v[1]
                    if not walk.passable[st] or st in passed_stops:
                        continue
                    if paths[q].terminal or paths[q].ignore:
                        return None  # a one-way move through a stop
                elif kind == "junction" and ju.get(v[1], 0):
                    continue
                edges_of = model.parts.setdefault(v, {}).setdefault(key, [])
                if q not in edges_of:
                    edges_of.append(q)
        for v, parts in list(model.parts.items()):
            if v[0] == "stop" or v[0] == "junction":
                if any(model.ends[q][0] == model.ends[q][1] for es in parts.values() for q in es):
                    return None  # a path from a stop or junction back to it
            elif len(parts) == 2:
                # a move across a side goes from any of its paths on one hex to any on the other
                (ka, qa), (kb, qb) = parts.items()
                for key, mine, theirs in ((ka, qa, qb), (kb, qb, qa)):
                    for q in mine:
                        e = paths[q].exits[[side for side, _ in sides[q]].index(key)]
                        joined = {r for r in graph.links.get((q, e), ()) if (edges >> r) & 1}
                        if joined != set(theirs):
                            return None
            if len(parts) < 2:
                del model.parts[v]  # nothing goes through it
        # the first paths: those across the side crossed as the part starts
        for q in across:
            if (edges >> q) & 1:
                p = paths[q]
                at = [i for i, e in enumerate(p.exits) if e == entered]
                # (a path with both ends on that side leads nowhere beyond it)
                model.first[q] = model.ends[q][1 - at[0]] if len(at) == 1 else ("end", q, -1)
        return model

    def reaches(self, target: int, u: _Vertex, v: _Vertex) -> bool:
        """Whether a walk of the part goes through ``u`` into ``target``, not having gone
        through its far end ``v`` (a side or junction; a stop may have been passed): whether
        the graph below has a perfect matching, i.e. an augmenting path from the start to the
        target over the matching where every vertex is unused."""
        if u not in self.parts:
            return False
        skip = v if v != u and v[0] != "stop" else None
        adj: list[list[int]] = []
        mate: list[int] = []

        def new() -> int:
            adj.append([])
            mate.append(-1)
            return len(adj) - 1

        def join(a: int, b: int) -> None:
            adj[a].append(b)
            adj[b].append(a)

        port: dict[tuple[_Vertex, Any], int] = {}
        for w, parts in self.parts.items():
            if w == skip:
                continue
            ports = [new() for _ in parts]
            for key, x in zip(parts, ports, strict=True):
                port[(w, key)] = x
            for pa, pb in itertools.combinations(ports, 2):
                join(pa, pb)
            for i in range(len(ports) - 2):  # absorbers: all but two ports of an unused vertex
                y = new()
                for x in ports:
                    join(x, y)
                mate[y], mate[ports[i]] = ports[i], y
            mate[ports[-1]], mate[ports[-2]] = ports[-2], ports[-1]
        start, goal = new(), new()
        keys = self.keys
        for q, (end_a, end_b) in self.ends.items():
            if q == target:
                continue
            if q in self.first:
                far = self.first[q]
                there = port.get((far, keys[q][1 if end_b == far else 0]))
                if there is not None:
                    join(start, there)
                continue
            at_a = port.get((end_a, keys[q][0]))
            at_b = port.get((end_b, keys[q][1]))
            if at_a is not None and at_b is not None and end_a != end_b:
                join(at_a, at_b)
        at_u = port.get((u, keys[target][0 if self.ends[target][0] == u else 1]))
        if at_u is None:
            return False
        join(goal, at_u)
        return _augmenting(adj, mate, start)


def _augmenting(adj: list[list[int]], mate: list[int], root: int) -> bool:
    """Whether an augmenting path over the matching ``mate`` leaves the exposed vertex
    ``root`` (Edmonds' blossom search: an odd cycle of the alternating tree is shrunk to its
    base, so the search is right on any graph, not only bipartite ones)."""
    n = len(adj)
    parent = [-1] * n
    base = list(range(n))
    used = [False] * n
    used[root] = True
    queue = [root]

    def lca(a: int, b: int) -> int:
        on_path = [False] * n
        while True:
            a = base[a]
            on_path[a] = True
            if mate[a] < 0:
                break
            a = parent[mate[a]]
        while True:
            b = base[b]
            if on_path[b]:
                return b
            b = parent[mate[b]]

    def mark(v: int, b: int, child: int, blossom: list[bool]) -> None:
        while base[v] != b:
            blossom[base[v]] = blossom[base[mate[v]]] = True
            parent[v] = child
            child = mate[v]
            v = parent[mate[v]]

    head = 0
    while head < len(queue):
        v = queue[head]
        head += 1
        for to in adj[v]:
            if base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] >= 0 and parent[mate[to]] >= 0):
                cur = lca(v, to)
                blossom = [False] * n
                mark(v, cur, to, blossom)
                mark(to, cur, v, blossom)
                for i in range(n):
                    if blossom[base[i]]:
                        base[i] = cur
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] < 0:
                parent[to] = v
                if mate[to] < 0:
                    return True
                used[mate[to]] = True
                queue.append(mate[to])
    return False


#: reaches worked out; how many needed pass 3 settled by matchings (polynomial); how many a
#: part outside the class that reduction is proven for sent to the exhaustive walk
WALK_STATS = {"reaches": 0, "matching": 0, "exhaustive": 0}


def reach_bound(
    graph: TrackGraph,
    company: str,
    *,
    tokens: Tokens,
    gauge: str | None,
    home_hexes: Collection[str] = (),
    home_cities: Mapping[str, Collection[int]] | None = None,
) -> frozenset[int]:
    """The polynomial upper bound of the paths :func:`reachable` finds (:meth:`_Walk.tighten`
    from nothing found), for tests: every path the walk finds is in it."""
    out = _reach(graph, company, tokens, gauge, home_hexes, home_cities, mode="bound")
    assert isinstance(out, frozenset)
    return out


def reach_by_matching(
    graph: TrackGraph,
    company: str,
    *,
    tokens: Tokens,
    gauge: str | None,
    home_hexes: Collection[str] = (),
    home_cities: Mapping[str, Collection[int]] | None = None,
) -> Reach | None:
    """:func:`reachable` with every soft part settled by the matching pass alone (no probe, no
    bound: :meth:`_Walk.run_matching`), for tests of that pass; None when a soft part is outside
    the class it is proven for."""
    out = _reach(graph, company, tokens, gauge, home_hexes, home_cities, mode="matching")
    assert out is None or isinstance(out, Reach)
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


def reachable(
    graph: TrackGraph,
    company: str,
    *,
    tokens: Tokens,
    gauge: str | None,
    home_hexes: Collection[str] = (),
    home_cities: Mapping[str, Collection[int]] | None = None,
) -> Reach:
    """Where ``company`` can reach from its tokens (and home hexes) on ``gauge`` track.

    ``gauge``: ``"broad"`` (broad and dual track), ``"metre"`` (metre and dual) or ``None``.
    ``home_hexes``/``home_cities``: a private railway's home hexes and, for a home hex with
    several cities, the city numbers reserved for it.

    >>> from ferrovia.notation import parse
    >>> g = build_graph({"A1": (parse("city=revenue:20;path=a:0,b:_0"), 0),
    ...                  "A3": (parse("path=a:3,b:0"), 0), "A5": (parse(""), 0)})
    >>> r = reachable(g, "X", tokens={"A1": [["X"]]}, gauge="broad")
    >>> dict(r.hexes)
    {'A1': frozenset({0}), 'A3': frozenset({0, 3}), 'A5': frozenset({3})}
    """
    out = _reach(graph, company, tokens, gauge, home_hexes, home_cities, mode="walk")
    assert isinstance(out, Reach)
    return out


def reached_edges(
    graph: TrackGraph,
    company: str,
    coord: str,
    *,
    tokens: Tokens,
    gauge: str | None,
    home_hexes: Collection[str] = (),
    home_cities: Mapping[str, Collection[int]] | None = None,
    within: Collection[int] | None = None,
    first: bool = False,
) -> frozenset[int]:
    """``reachable(...).hexes.get(coord, frozenset())``, the walk stopped as soon as every edge
    of ``coord`` that any path could mark is found (a lay check asks about one hex only; the
    walk only adds paths, so what it has found then is its final answer for ``coord``).
    ``within``: only those edges are asked about (the answer is cut to them), so the walk
    stops once they are found -- a lay check needs only the new tile's exits.
    ``first``: the walk stops at the first of those edges found (every find is a real one),
    so the answer is a part of the whole one, empty only when that is: a lay on a hex
    without track asks only whether one of the new exits is reached.

    >>> from ferrovia.notation import parse
    >>> g = build_graph({"A1": (parse("city=revenue:20;path=a:0,b:_0"), 0),
    ...                  "A3": (parse("path=a:3,b:0"), 0), "A5": (parse(""), 0)})
    >>> sorted(reached_edges(g, "X", "A5", tokens={"A1": [["X"]]}, gauge="broad"))
    [3]
    """
    out = _reach(
        graph,
        company,
        tokens,
        gauge,
        home_hexes,
        home_cities,
        mode="walk",
        watch=coord,
        within=None if within is None else frozenset(within),
        first=first,
    )
    assert isinstance(out, frozenset)
    return out


def reaches_stop(
    graph: TrackGraph,
    company: str,
    stop: int,
    *,
    tokens: Tokens,
    gauge: str | None,
    home_hexes: Collection[str] = (),
    home_cities: Mapping[str, Collection[int]] | None = None,
) -> bool:
    """``stop in reachable(...).stops``, the walk stopped at the first path found that ends at
    ``stop`` (a station's legality asks about one city).

    >>> from ferrovia.notation import parse
    >>> g = build_graph({"A1": (parse("city=revenue:20;path=a:0,b:_0"), 0),
    ...                  "A3": (parse("town=revenue:10;path=a:3,b:_0"), 0)})
    >>> reaches_stop(g, "X", 1, tokens={"A1": [["X"]]}, gauge="broad")
    True
    """
    out = _reach(graph, company, tokens, gauge, home_hexes, home_cities, mode="walk", look_for=stop)
    assert isinstance(out, bool)
    return out


def runs_into(
    graph: TrackGraph,
    company: str,
    hexes: Collection[str],
    *,
    tokens: Tokens,
    gauge: str | None,
    home_hexes: Collection[str] = (),
    home_cities: Mapping[str, Collection[int]] | None = None,
) -> bool:
    """Whether ``reachable(...).run_hexes`` holds one of ``hexes``, the walk stopped at the
    first path found on one of them.

    >>> from ferrovia.notation import parse
    >>> g = build_graph({"A1": (parse("city=revenue:20;path=a:0,b:_0"), 0),
    ...                  "A3": (parse("town=revenue:10;path=a:3,b:_0"), 0)})
    >>> runs_into(g, "X", ["A3"], tokens={"A1": [["X"]]}, gauge="broad")
    True
    """
    wanted = frozenset(hexes)
    if not wanted:
        return False
    out = _reach(
        graph, company, tokens, gauge, home_hexes, home_cities, mode="walk", look_for=wanted
    )
    assert isinstance(out, bool)
    return out


def _node_hex(graph: TrackGraph, node: tuple[int, int]) -> str:
    """The hex of a walk's start: a stop, or a path (kind 1)."""
    kind, ident = node
    return graph.paths[ident].hex if kind == 1 else graph.stops[ident].hex


def _distance(a: str, b: str) -> int:
    """Steps from hex ``a`` to hex ``b`` (in both layouts a step changes the letter by one
    and the number by one, or the number by two: :data:`hexmap.DIRECTIONS`)."""
    (ax, ay), (bx, by) = hexmap.xy(a), hexmap.xy(b)
    dx, dy = abs(ax - bx), abs(ay - by)
    return dx + max(0, (dy - dx) // 2)


def _cut(edges: Collection[int], within: frozenset[int] | None) -> frozenset[int]:
    return frozenset(edges) if within is None else within.intersection(edges)


def _watch_most(graph: TrackGraph, coord: str, skip: str | None) -> set[int]:
    """Every edge of ``coord`` a found path could mark (:meth:`_Walk.finish`): its own paths'
    exits and the facing sides of its neighbours' paths that lead into it.  Those only track
    cut off from every start could mark are dropped during the walk
    (:meth:`_Walk.unreachable_edges`, a small backward search) rather than by a forward
    bound from the starts (:meth:`_Walk.most`), which costs about a walk itself."""
    most: set[int] = set()
    paths = graph.paths
    for pid in graph.hex_paths.get(coord, ()):
        if paths[pid].track != skip:
            most.update(paths[pid].exits)
    for edge, other in hexmap.neighbour_table(coord, graph.layout):
        back = (edge + 3) % 6  # (hexmap.invert) the one side of ``other`` facing ``coord``
        neighbours = graph.neighbours.get(other)
        if not neighbours or neighbours.get(back) != coord:
            continue
        for pid in graph.hex_paths.get(other, ()):
            p = paths[pid]
            if p.track != skip and back in p.exits:
                most.add(edge)
                break
    return most


def _reach(
    graph: TrackGraph,
    company: str,
    tokens: Tokens,
    gauge: str | None,
    home_hexes: Collection[str],
    home_cities: Mapping[str, Collection[int]] | None,
    *,
    mode: str,
    watch: str | None = None,
    within: frozenset[int] | None = None,
    look_for: int | frozenset[str] | None = None,
    first: bool = False,
) -> Reach | frozenset[int] | bool | None:
    skip = gauge_skip(gauge)
    hexes: dict[str, set[int]] = {}
    seen_stops: set[int] = set()
    seen_paths: set[int] = set()

    def mark_all_sides(h: str) -> None:
        hexes.setdefault(h, set()).update(graph.neighbours.get(h, {}))

    start_stops: list[int] = []
    # (read once here and handed to the walk: each read compares the whole map's stations)
    stations = _stations(company, tokens)
    for h, number in stations[0]:
        stop = graph.city(h, number)
        if stop is not None:
            start_stops.append(stop.id)
            seen_stops.add(stop.id)
            mark_all_sides(h)
    extra_stops, start_paths = home_starts(graph, home_hexes, home_cities or {})
    for h in home_hexes:
        mark_all_sides(h)
    for s in extra_stops:
        seen_stops.add(s)
    start_stops.extend(extra_stops)

    # The walk of 18xx.games, whose order decides what a company reaches (its graph is
    # rebuilt from each station on its own): depth first from one start at a time, the other
    # starts treated as already seen; a path walked once per start (again only after crossing
    # a side where two or more paths of the tile meet), never entered while one of its sides
    # is on the way behind, never left by the side it was entered by; a stop's next paths
    # walked before the path's far sides.  See :class:`_Walk` for how it is kept fast.
    start_nodes: list[tuple[int, int]] = [(0, s) for s in start_stops]
    start_nodes += [(1, pid) for pid in start_paths]  # plain home track: the path is the node
    if watch is not None:
        got = set(hexes.get(watch, ()))
        most = _watch_most(graph, watch, skip) | got
        if within is not None:
            most &= within
        if got >= most or (first and got & most):  # known before any walk (a start's hex...)
            return _cut(got, within)
    if isinstance(look_for, int) and look_for in seen_stops:
        return True  # a start
    walk = _Walk(graph, company, tokens, skip, hexes, seen_stops, seen_paths, stations)
    if watch is not None:
        walk.watch, walk.watch_got, walk.watch_most = watch, got, most
        walk.watch_first = first
        walk.watch_hexes = frozenset(
            [watch, *(other for _, other in hexmap.neighbour_table(watch, graph.layout))]
        )
        # each start's hard walk is its own (what one finds does not change how another
        # goes), so the starts nearest the hex go first: the walk stops once its edges are
        # found, and what is found in the end does not depend on the order
        start_nodes.sort(key=lambda node: _distance(_node_hex(graph, node), watch))
    if isinstance(look_for, int):  # a stop: found once a path to it is
        walk.look_for = look_for
        walk.watch_hexes = frozenset([graph.stops[look_for].hex])
    elif look_for is not None:  # hexes: found once a path on one of them is
        walk.watch_hexes = look_for
    if look_for is not None:  # (the nearest starts first, as for a watched hex)
        targets = walk.watch_hexes
        start_nodes.sort(
            key=lambda node: min(_distance(_node_hex(graph, node), h) for h in targets)
        )
    if mode == "bound":
        return frozenset(bit_positions(walk.tighten(start_nodes)))
    # the walk recurses once per path on its way (pure-Python frames: a higher limit is safe)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))
    try:
        if mode == "matching":
            if not walk.run_matching(start_nodes):
                return None
        else:
            walk.run(start_nodes)
    except _AllFound:
        if look_for is not None:
            return True
        return _cut(walk.watch_got, within)
    finally:
        sys.setrecursionlimit(limit)
    if watch is not None:
        return _cut(hexes.get(watch, ()), within)
    if isinstance(look_for, int):
        return look_for in seen_stops
    if look_for is not None:
        return any(graph.paths[q].hex in look_for for q in seen_paths)
    WALK_STATS["reaches"] += 1
    WALK_STATS["matching"] += walk.matching
    WALK_STATS["exhaustive"] += walk.exhaustive

    return Reach(
        hexes={h: frozenset(es) for h, es in hexes.items()},
        stops=frozenset(seen_stops),
        paths=frozenset(seen_paths),
        signatures=frozenset(graph.stops[s].signature for s in seen_stops),
        run_hexes=frozenset(graph.paths[p].hex for p in seen_paths),
    )


# ----------------------------------------------------------------------------- chains
@dataclass(frozen=True, slots=True)
class Chain:
    """Track from stop ``a`` to stop ``b`` with no stop between, as an ordered run of paths."""

    a: int
    b: int
    paths: tuple[int, ...]
    hexes: tuple[str, ...]  # the connection's hex list as 18xx.games writes it
    edges: int  # hex sides crossed
    keys: frozenset[int]  # track-reuse keys
    terminal_inside: bool  # a terminal path other than the first or last
    first_terminal: bool
    last_terminal: bool
    tracks: frozenset[str]


def _chain_hexes(graph: TrackGraph, paths: Sequence[int]) -> tuple[str, ...]:
    """The hex list 18xx.games writes for the connection ``paths`` (its chain id)."""
    if len(paths) == 1 and graph.paths[paths[0]].hex in graph.ambiguous:
        p = graph.paths[paths[0]]
        if len(p.stops) > 1:
            i, j = sorted(graph.stops[s].index for s in p.stops)
            return (f"{p.hex} {i}.{j}",)
    out: list[str] = []
    seen_junctions: set[int] = set()
    for pid in paths:
        p = graph.paths[pid]
        if p.junction < 0 or p.junction not in seen_junctions:
            out.append(p.hex)
        if p.junction >= 0:
            seen_junctions.add(p.junction)
    return tuple(out)


def make_chain(graph: TrackGraph, a: int, b: int, paths: Sequence[int]) -> Chain:
    graph_paths = graph.paths
    ps = [graph_paths[p] for p in paths]
    # (one loop for the keys, the sides crossed, the tracks and a terminal inside: the
    # generators each field took cost more than the walk that found the chain)
    keys: set[int] = set()
    tracks: set[str] = set()
    edges = 0
    terminal_inside = False
    last = len(ps) - 1
    prev_hex: str | None = None
    for i, p in enumerate(ps):
        keys.update(p.keys)
        tracks.add(p.track)
        if i and p.hex != prev_hex:
            edges += 1
        prev_hex = p.hex
        if p.terminal and 0 < i < last:
            terminal_inside = True
    return Chain(
        a,
        b,
        tuple(paths),
        _chain_hexes(graph, paths),
        edges,
        frozenset(keys),
        terminal_inside,
        ps[0].terminal,
        ps[-1].terminal,
        frozenset(tracks),
    )


def chains_from(
    graph: TrackGraph,
    start: int,
    skip: str | None,
    *,
    prefix: Sequence[str] | None = None,
    known: Collection[frozenset[int]] = (),
    known_ends: Collection[int] = (),
) -> Iterator[Chain]:
    """Every chain leaving stop ``start`` on track other than ``skip``.

    ``known``/``known_ends``: a chain to a stop in ``known_ends`` whose set of paths is in
    ``known`` is left out (a caller that walks every stop meets most chains from both ends,
    and building one is most of the walk's cost).

    The walk never uses a path twice nor leaves a hex twice by the same side and lane, and
    passes a junction at most once (in and out).  With ``prefix`` only chains whose hex list
    is exactly ``prefix`` are produced (and the walk is pruned by it).  (Found all at once,
    in the walk's order: a recursive generator cost a generator per path visited, and every
    caller takes them all.)
    """
    paths = graph.paths
    target = tuple(prefix) if prefix is not None else None
    out: list[Chain] = []
    if target is not None and len(target) == 1 and " " in target[0]:
        # "<hex> n.m": one stop-to-stop path of a tile with several of them
        h = target[0].split()[0]
        for pid in graph.stop_paths[start]:
            p = paths[pid]
            if p.hex == h and len(p.stops) > 1 and p.track != skip:
                for other in p.stops:
                    if other != start:
                        c = make_chain(graph, start, other, [pid])
                        if c.hexes == target:
                            out.append(c)
        return iter(out)

    stack: list[int] = []
    on_stack: set[int] = set()
    used_sides: set[tuple[str, int, int]] = set()
    hex_list: list[str] = []
    junction_uses: dict[int, int] = {}
    links_of = graph.links

    # each exit's (hex, edge, lane) as the reach walk keys its sides: made once per graph
    sides_of = _walk_sides(graph)

    def visit(pid: int, came_by: int | None, via_junction: bool) -> None:
        p = paths[pid]
        if pid in on_stack or p.track == skip:
            return
        if p.junction >= 0:
            if junction_uses.get(p.junction, 0) > 1 or p.terminal:
                return
        # the hex list of the connection so far (a junction's second path adds nothing)
        adds_hex = p.junction < 0 or junction_uses.get(p.junction, 0) == 0
        if adds_hex and target is not None:
            # (before the sides: the hexes named rule out most paths)
            n = len(hex_list)
            if n >= len(target) or target[n] != p.hex:
                return
        sides = sides_of[pid]
        for side, _ in sides:
            if side in used_sides:
                return
        if adds_hex:
            hex_list.append(p.hex)
        stack.append(pid)
        on_stack.add(pid)
        if p.junction >= 0:
            junction_uses[p.junction] = junction_uses.get(p.junction, 0) + 1
        try:
            for s in p.stops:
                if s != start and (target is None or len(hex_list) == len(target)):
                    if s in known_ends and frozenset(stack) in known:
                        continue
                    c = make_chain(graph, start, s, stack)
                    if target is None or c.hexes == target:
                        out.append(c)
            # (whether a stop other than the start ends it, without a generator)
            ends_here = p.stops.count(start) < len(p.stops)
            if not ends_here:
                if p.junction >= 0 and not via_junction:
                    for q in graph.junction_paths[p.junction]:
                        if q != pid:
                            visit(q, None, True)
                for side, _ in sides:
                    e = side[1]  # the exit's edge (the sides are the exits', in order)
                    if e == came_by:
                        continue
                    links = links_of.get((pid, e))
                    if not links:
                        continue
                    used_sides.add(side)
                    back = (e + 3) % 6  # hexmap.invert
                    for q in links:
                        visit(q, back, False)
                    used_sides.discard(side)
        finally:
            stack.pop()
            on_stack.discard(pid)
            if p.junction >= 0:
                junction_uses[p.junction] -= 1
            if adds_hex:
                hex_list.pop()

    for pid in graph.stop_paths[start]:
        visit(pid, None, False)
    return iter(out)
