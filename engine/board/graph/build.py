"""Building a track graph from what is on each hex (:func:`build_graph`): what a tile in one
rotation adds (a template), placed at a hex's ids (a fragment), and the links across the sides
of neighbouring hexes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ferrovia.board import hexmap
from ferrovia.board.graph.model import (
    CLOSED_COLOURS,
    Stop,
    TrackGraph,
    TrackPath,
    ruby_part_indices,
)
from ferrovia.notation.models import (
    City,
    Edge,
    Junction,
    Lane,
    NodeRef,
    Offboard,
    Path,
    Revenue,
    Tile,
    Town,
)


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
