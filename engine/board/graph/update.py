"""The graph after a lay (:func:`update_graph`): a new graph in which only the re-laid hexes
and their neighbours are worked out again, every other id kept."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ferrovia.board import hexmap
from ferrovia.board.graph.build import (
    _FRAGMENTS,
    _crossable_sides,
    _fragment,
    _hex_links,
    _side_links,
    _tile_template,
)
from ferrovia.board.graph.model import CLOSED_COLOURS, Stop, TrackGraph, TrackPath
from ferrovia.board.graph.stations import _stop_passable
from ferrovia.board.graph.walk import _hex_walk_sides
from ferrovia.notation.models import Revenue, Tile

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

    >>> from ferrovia.board.graph import build_graph
    >>> from ferrovia.notation import parse
    >>> g = build_graph({"A1": (parse("city=revenue:20;path=a:0,b:_0"), 0),
    ...                  "A3": (parse(""), 0)})
    >>> g2 = update_graph(g, {"A3": (parse("town=revenue:10;path=a:3,b:_0"), 0)})
    >>> [s.signature for s in g2.stops], g2.stops[0] is g.stops[0], g2.links[(0, 0)]
    (['A1-0', 'A3-0'], True, (1,))
    """
    g = _copy(graph)
    swapped = _swap_tiles(g, changes)
    _join_again(g, graph, swapped.touched, swapped.relaid)
    g.dead = swapped.dead
    _carry_walk_tables(g, graph, changes, swapped)
    return g


def _copy(graph: TrackGraph) -> TrackGraph:
    """A graph with the same map as ``graph`` and its own containers (the stops, paths and
    fragments in them are shared: they are never changed)."""
    return TrackGraph(
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
        ambiguous=graph.ambiguous,
        key_names=list(graph.key_names),
        colors=graph.colors,
        fragments=dict(graph.fragments),
        dead=graph.dead,
        junction_next=graph.junction_next,
    )


@dataclass
class _Swapped:
    """What :func:`_swap_tiles` changed."""

    #: the hexes with a new tile and their neighbours on the map
    touched: set[str] = field(default_factory=set)
    #: the hexes with a new tile (the rest of ``touched``: neighbours)
    relaid: set[str] = field(default_factory=set)
    #: the ids rewritten, so the walk's tables are worked out again on them alone (a whole
    #: pass over the graph on each lay was ~10% of a replay)
    stop_ids: set[int] = field(default_factory=set)
    path_ids: set[int] = field(default_factory=set)
    #: inert ids in the graph (counted from the ids each lay frees: no pass over the ids)
    dead: int = 0


def _swap_tiles(g: TrackGraph, changes: Mapping[str, tuple[Tile, int]]) -> _Swapped:
    """Each changed hex's old stops, paths, keys and junctions out of ``g`` and its new tile's
    in (links and crossable sides are left to :func:`_join_again`)."""
    ambiguous = set(g.ambiguous)
    out = _Swapped(dead=g.dead)
    for hex_id, (tile, rotation) in changes.items():
        old = g.fragments[hex_id]
        template = _tile_template(tile, rotation)
        if template is old.template:
            continue
        out.touched.add(hex_id)
        out.relaid.add(hex_id)
        out.touched.update(
            o for _, o in hexmap.neighbour_table(hex_id, g.layout) if o in g.fragments
        )
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
        out.dead += _freed(len(old.hex_stops), len(template.stops))
        out.dead += _freed(len(old.hex_paths), len(template.paths))
        out.dead += _freed(len(old_keys), len(template.key_whats))
        g.stop_paths.extend(() for _ in range(len(g.stop_paths), len(g.stops)))
        out.stop_ids.update(old.hex_stops, range(stop_off, stop_off + len(template.stops)))
        out.path_ids.update(old.hex_paths, range(path_off, path_off + len(template.paths)))
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
    return out


def _join_again(g: TrackGraph, graph: TrackGraph, touched: set[str], relaid: set[str]) -> None:
    """The crossable sides and links of the re-laid hexes and their neighbours in ``g``
    (``graph``: the graph it was copied from, holding the old paths' links)."""
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


def _carry_walk_tables(
    g: TrackGraph, graph: TrackGraph, changes: Mapping[str, Any], swapped: _Swapped
) -> None:
    """The walk's per-stop and per-path tables ``graph`` had worked out, brought up to date
    in ``g`` on the ids :func:`_swap_tiles` rewrote alone."""
    if graph.walk_passable is not None:
        # a stop's own passability changes only where its id was rewritten
        passable = list(graph.walk_passable)
        passable.extend(False for _ in range(len(passable), len(g.stops)))
        for sid in swapped.stop_ids:
            passable[sid] = _stop_passable(g.stops[sid])
        g.walk_passable = passable
    if graph.walk_sides is not None:
        sides = list(graph.walk_sides)
        sides.extend(() for _ in range(len(sides), len(g.paths)))
        for hex_id in changes:
            if hex_id in swapped.touched:
                for pid, entry in zip(g.hex_paths[hex_id], _hex_walk_sides(g, hex_id), strict=True):
                    sides[pid] = entry
        for pid in swapped.path_ids:  # (every other dead path has () already)
            if g.paths[pid].track == "none":
                sides[pid] = ()
        g.walk_sides = sides


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
