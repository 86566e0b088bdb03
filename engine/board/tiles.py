"""Tile geometry on parsed tiles: rotation, exits, track segments and upgrade checks.

One implementation for the validator, the rules engine, route search and the renderer.  A
rotation ``r`` (0-5) turns a tile ``r`` sixths clockwise: edge ``e`` goes to ``(e + r) % 6``.
Nodes keep their index (``NodeRef(i)`` is the i-th entry of :attr:`Tile.nodes`) whatever the
rotation, so a node is identified stably by that index.

Upgrade semantics follow 18xx.games:

* :func:`upgrades_to` is the colour / track / label / city-town test that picks candidate
  tiles for a hex (rotation-free: track must fit at *some* rotation);
* :func:`upgrade_rotations` lists the rotations at which a candidate may be laid: every old
  path is kept by some new path, new cities/towns do not swallow old ones, and each old city
  of a multi-city tile maps to one new city;
* "kept" compares path ends: an edge keeps an edge of the same number, a node keeps a node of
  the same kind (a town marked ``to_city`` may become a city, a halt any town); a path ending
  at a junction has as ends the far ends of the junction's other paths.  Gauge must fit too:
  see :func:`reference_gauge_fits`; pass ``gauge_fits`` to change it (e.g. a game that lets
  track of any gauge be replaced).

Game-specific decisions (e.g. 1858's cheaper metre-gauge lays) stay out of here; helpers
such as :func:`added_track_gauges` give rules hooks what they need to decide.

API: ``rotate(tile, r) -> Tile``; ``exits(tile, rotation=0) -> tuple[int, ...]``;
``segments(tile, rotation=0) -> tuple[Segment(a, b, gauge, lanes), ...]``;
``city_town_edges(tile, rotation=0) -> {node index: [edges]}``; ``node_exits(tile, i, r)``;
``path_ends``/``path_kept``/``paths_maintained(old, old_rot, new, new_rot)``;
``new_track(old, old_rot, new, new_rot) -> paths``; ``track_gauges(tile)``,
``added_track_gauges(old, new)``; ``upgrade_rotations(old, old_rotation, new, *, gauge_fits,
exit_allowed) -> list[int]``; ``rotation_is_legal(...)``; ``upgrades_to(old, old_colour, new,
new_colour, *, old_rotation, colour_order, special, ignore_city_count, gauge_fits,
future_label) -> bool`` and its parts ``upgrades_to_correct_colour/label/city_town``,
``paths_are_subset``; ``future_label_after_lay``; gauge rules ``reference_gauge_fits``,
``any_gauge_fits``; ``COLOUR_ORDER``.  Results are cached (tiles are immutable).

>>> from ferrovia.notation import parse
>>> seven, eighteen = parse("path=a:0,b:1"), parse("path=a:0,b:3;path=a:1,b:2")
>>> exits(seven, 2)
(2, 3)
>>> upgrade_rotations(parse("city=revenue:20;path=a:0,b:_0;path=a:_0,b:3"), 0,
...                   parse("city=revenue:30,slots:2;path=a:0,b:_0;path=a:1,b:_0;"
...                         "path=a:3,b:_0;path=a:4,b:_0"))
[0, 2, 3, 5]
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import lru_cache
from typing import NamedTuple

from ferrovia.notation.models import (
    Border,
    City,
    Edge,
    Endpoint,
    FutureLabel,
    Gauge,
    Halt,
    Icon,
    Junction,
    Node,
    NodeRef,
    Part,
    Partition,
    Path,
    Stub,
    Tile,
    Town,
    Upgrade,
    Vertex,
)

ALL_ROTATIONS: tuple[int, ...] = (0, 1, 2, 3, 4, 5)

#: The tile colour progression 18xx.games uses unless a game says otherwise.
COLOUR_ORDER: tuple[str, ...] = ("white", "yellow", "green", "brown", "gray")

#: Decides whether old track of one gauge is kept by new track of another.
GaugeFits = Callable[[Gauge, Gauge], bool]


def reference_gauge_fits(old: Gauge, new: Gauge) -> bool:
    """18xx.games: broad is kept by broad or dual, narrow by narrow or dual, dual by dual only.

    >>> reference_gauge_fits(Gauge.NARROW, Gauge.DUAL)
    True
    >>> reference_gauge_fits(Gauge.DUAL, Gauge.BROAD)
    False
    """
    if old is Gauge.BROAD:
        return new is Gauge.BROAD or new is Gauge.DUAL
    if old is Gauge.NARROW:
        return new is Gauge.NARROW or new is Gauge.DUAL
    if old is Gauge.DUAL:
        return new is Gauge.DUAL
    return False  # thin (and future) track is kept by nothing, as in 18xx.games


def any_gauge_fits(old: Gauge, new: Gauge) -> bool:
    """Gauge ignored (18xx.games ``ignore_gauge_compare``)."""
    return True


# ----------------------------------------------------------------------------- rotation
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _rotate_loc(loc: str | None, r: int) -> str | None:
    if loc is None or not _NUMBER.fullmatch(loc):
        return loc
    value = (float(loc) + r) % 6
    return str(int(value)) if value == int(value) else format(value, "g")


def _rotate_end(end: Endpoint, r: int) -> Endpoint:
    return Edge((end.num + r) % 6) if isinstance(end, Edge) else end


def _rotate_edge_end(end: Edge, r: int) -> Edge:
    return Edge((end.num + r) % 6)


def _rotate_part(part: Part, r: int) -> Part:
    if isinstance(part, Path):
        return replace(part, a=_rotate_end(part.a, r), b=_rotate_end(part.b, r))
    if isinstance(part, Border | Stub):
        return replace(part, edge=(part.edge + r) % 6)
    if isinstance(part, Partition):
        return replace(
            part,
            a=Vertex((part.a.num + r) % 6, part.a.sign),
            b=Vertex((part.b.num + r) % 6, part.b.sign),
        )
    if isinstance(part, City | Town | Icon | Upgrade) and part.loc is not None:
        return replace(part, loc=_rotate_loc(part.loc, r))
    return part


@lru_cache(maxsize=4096)
def rotate(tile: Tile, r: int) -> Tile:
    """The tile turned ``r`` sixths clockwise: path, border and stub edges, partition vertices
    and numeric ``loc`` positions move; nodes keep their indices.

    >>> from ferrovia.notation import parse, format_tile
    >>> format_tile(rotate(parse("city=revenue:20;path=a:0,b:_0;border=edge:5"), 2))
    'city=revenue:20;path=a:2,b:_0;border=edge:1'
    """
    r %= 6
    if r == 0:
        return tile
    return Tile(tuple(_rotate_part(p, r) for p in tile.parts))


# ----------------------------------------------------------------------------- track
@lru_cache(maxsize=8192)
def exits(tile: Tile, rotation: int = 0) -> tuple[int, ...]:
    """The edges the tile's track leaves by, sorted, at ``rotation``."""
    return tuple(sorted({(e + rotation) % 6 for p in tile.paths for e in p.edges}))


class Segment(NamedTuple):
    """One track path: its two ends (``Edge`` or ``NodeRef``), gauge and parallel lane count."""

    a: Endpoint
    b: Endpoint
    gauge: Gauge
    lanes: int = 1


@lru_cache(maxsize=8192)
def segments(tile: Tile, rotation: int = 0) -> tuple[Segment, ...]:
    """The tile's track (not future track) at ``rotation``, one segment per path.

    >>> from ferrovia.notation import parse
    >>> segments(parse("city=revenue:20;path=a:0,b:_0,track:narrow"), 1)
    (Segment(a=Edge(num=1), b=NodeRef(index=0), gauge=<Gauge.NARROW: 'narrow'>, lanes=1),)
    """
    return tuple(
        Segment(_rotate_end(p.a, rotation), _rotate_end(p.b, rotation), p.track, p.lanes or 1)
        for p in tile.paths
    )


def track_gauges(tile: Tile) -> tuple[Gauge, ...]:
    """Gauge of every track path, a path of N lanes counting N times (18xx.games counts so)."""
    return tuple(p.track for p in tile.paths for _ in range(p.lanes or 1))


def added_track_gauges(old: Tile, new: Tile) -> tuple[Gauge, ...]:
    """Gauges of ``new``'s track left after striking one path of each of ``old``'s gauges.

    What a rules hook needs to ask "does this lay only add metre (narrow) gauge track?".

    >>> from ferrovia.notation import parse
    >>> added_track_gauges(parse("path=a:0,b:3"), parse("path=a:0,b:3;path=a:1,b:4,track:narrow"))
    (<Gauge.NARROW: 'narrow'>,)
    """
    remaining = list(track_gauges(new))
    for gauge in track_gauges(old):
        if gauge in remaining:
            remaining.remove(gauge)
    return tuple(remaining)


def node_exits(tile: Tile, index: int, rotation: int = 0) -> tuple[int, ...]:
    """Edges reached by the paths of node ``index`` (with repeats, in path order)."""
    ref = NodeRef(index)
    return tuple(
        (e + rotation) % 6
        for p in tile.paths
        if p.a == ref or p.b == ref
        for _ in range(p.lanes or 1)
        for e in p.edges
    )


def city_town_edges(tile: Tile, rotation: int = 0) -> dict[int, list[int]]:
    """For each city or town that has track to an edge: node index -> those edges.

    Keys come in the order their first path appears; a path of N lanes counts N times.
    """
    out: dict[int, list[int]] = {}
    nodes = tile.nodes
    for p in tile.paths:
        ct: int | None = None
        for end in (p.a, p.b):  # a city end wins over a town end; the later city wins
            if isinstance(end, NodeRef) and isinstance(nodes[end.index], City):
                ct = end.index
        if ct is None:
            for end in (p.a, p.b):
                if isinstance(end, NodeRef) and isinstance(nodes[end.index], Town):
                    ct = end.index
        if ct is None or not p.edges:
            continue
        edges = out.setdefault(ct, [])
        for _ in range(p.lanes or 1):
            edges.extend((e + rotation) % 6 for e in p.edges)
    return out


@lru_cache(maxsize=8192)
def _city_town_exits(tile: Tile, rotation: int) -> tuple[tuple[int, ...], ...]:
    """The edge lists of :func:`city_town_edges`, in its order: the rotation test asks for the
    old tile's at every rotation of every candidate (a third of a first replay's upgrade
    checks went to re-deriving them)."""
    return tuple(tuple(edges) for edges in city_town_edges(tile, rotation).values())


# ----------------------------------------------------------------------------- path keeping
End = Edge | Node


def path_ends(tile: Tile, path: Path, rotation: int = 0) -> tuple[End, ...]:
    """A path's ends: edges (rotated) and nodes, a junction replaced by the far ends of its
    other paths."""
    out: list[End] = []
    for end in (path.a, path.b):
        if isinstance(end, Edge):
            out.append(_rotate_edge_end(end, rotation))
            continue
        node = tile.nodes[end.index]
        if not isinstance(node, Junction):
            out.append(node)
            continue
        for other in tile.paths:
            if other is path or end not in (other.a, other.b):
                continue
            for far in (other.a, other.b):
                if isinstance(far, Edge):
                    out.append(_rotate_edge_end(far, rotation))
                elif not isinstance(tile.nodes[far.index], Junction):
                    out.append(tile.nodes[far.index])
    return tuple(out)


def _end_kept(old: End, new: End) -> bool:
    if isinstance(old, Edge):
        return isinstance(new, Edge) and old.num == new.num
    if isinstance(new, Edge):
        return False
    if isinstance(old, Halt) and isinstance(new, Town):
        return True
    if isinstance(old, Town) and old.to_city and isinstance(new, City):
        return True
    return type(old) is type(new)


def path_kept(
    old_tile: Tile,
    old_path: Path,
    old_rotation: int,
    new_tile: Tile,
    new_path: Path,
    new_rotation: int,
    *,
    gauge_fits: GaugeFits = reference_gauge_fits,
) -> bool:
    """Whether ``new_path`` keeps ``old_path``: every old end has a matching new end, and the
    gauge fits."""
    return _summary_kept(
        _end_summary(old_tile, old_path, old_rotation),
        old_path,
        _end_summary(new_tile, new_path, new_rotation),
        new_path,
        gauge_fits,
    )


#: a path's ends at a rotation as the keeping test reads them: its edges, and its other ends
EndSummary = tuple[frozenset[int], tuple[End, ...]]


@lru_cache(maxsize=8192)
def _end_summaries(tile: Tile, rotation: int) -> tuple[EndSummary, ...]:
    """:func:`path_ends` of each track path of ``tile`` at ``rotation``, in path order, split
    into edge numbers and other ends: the upgrade checks compare every old path with every new
    one at each rotation, so a process's first lays re-derived the same ends tens of times
    (7,800 path_ends calls in a first replay of 1858_game_end_bank, 60 after)."""
    return tuple(_end_summary(tile, p, rotation) for p in tile.paths)


def _end_summary(tile: Tile, path: Path, rotation: int) -> EndSummary:
    ends = path_ends(tile, path, rotation)
    edges = frozenset(e.num for e in ends if isinstance(e, Edge))
    return edges, tuple(e for e in ends if not isinstance(e, Edge))


def _summary_kept(
    old: EndSummary, old_path: Path, new: EndSummary, new_path: Path, gauge_fits: GaugeFits
) -> bool:
    """Whether the new path keeps the old one, on their end summaries: an old edge is kept
    only by the same new edge (:func:`_end_kept`), any other old end by some new end that is
    not an edge; and the gauge fits."""
    return (
        old[0] <= new[0]
        and all(any(_end_kept(o, n) for n in new[1]) for o in old[1])
        and gauge_fits(old_path.track, new_path.track)
    )


@lru_cache(maxsize=8192)  # a pure question of two immutable tiles, asked at every lay check
def paths_maintained(
    old: Tile,
    old_rotation: int,
    new: Tile,
    new_rotation: int,
    *,
    gauge_fits: GaugeFits = reference_gauge_fits,
) -> bool:
    """Every track path of ``old`` is kept by some path of ``new`` at these rotations."""
    # an old edge the new tile does not reach cannot be kept by any new path: most rotations
    # fail here, without comparing every pair of paths (same answer)
    if not set(exits(old, old_rotation)) <= set(exits(new, new_rotation)):
        return False
    new_ends = list(zip(new.paths, _end_summaries(new, new_rotation), strict=True))
    return all(
        any(_summary_kept(oe, op, ne, np, gauge_fits) for np, ne in new_ends)
        for op, oe in zip(old.paths, _end_summaries(old, old_rotation), strict=True)
    )


def new_track(
    old: Tile,
    old_rotation: int,
    new: Tile,
    new_rotation: int,
    *,
    gauge_fits: GaugeFits = reference_gauge_fits,
) -> tuple[Path, ...]:
    """Paths of ``new`` (as written, unrotated) that no path of ``old`` already covers: the
    track a lay adds, as tile-lay rules ("must use new track") and gauge discounts see it.

    >>> from ferrovia.notation import parse
    >>> len(new_track(parse("path=a:0,b:3"), 0, parse("path=a:0,b:3;path=a:1,b:4"), 0))
    1
    """
    # callers tell the paths by identity: the cache holds their places in ``new``, not them
    return tuple(
        new.paths[i] for i in _new_track_at(old, old_rotation, new, new_rotation, gauge_fits)
    )


@lru_cache(maxsize=8192)
def _new_track_at(
    old: Tile, old_rotation: int, new: Tile, new_rotation: int, gauge_fits: GaugeFits
) -> tuple[int, ...]:
    old_ends = list(zip(old.paths, _end_summaries(old, old_rotation), strict=True))
    return tuple(
        i
        for i, (np, ne) in enumerate(zip(new.paths, _end_summaries(new, new_rotation), strict=True))
        if not any(_summary_kept(ne, np, oe, op, gauge_fits) for op, oe in old_ends)
    )


def paths_are_subset(
    old: Tile,
    old_rotation: int,
    new: Tile,
    *,
    gauge_fits: GaugeFits = reference_gauge_fits,
) -> bool:
    """Whether ``new`` keeps all of ``old``'s track at *some* rotation.

    Junction to junction (Lawson to Lawson) compares exits only, as 18xx.games does.
    """
    if old.junctions and any(
        isinstance(new.nodes[i], Junction) for p in new.paths for i in p.node_refs
    ):
        old_exits = set(exits(old, old_rotation))
        new_exits = exits(new)
        return any(old_exits <= {(e + r) % 6 for e in new_exits} for r in ALL_ROTATIONS)
    return any(
        paths_maintained(old, old_rotation, new, r, gauge_fits=gauge_fits) for r in ALL_ROTATIONS
    )


# ----------------------------------------------------------------------------- rotations
def _city_map(old: Tile, old_rotation: int, new: Tile, new_rotation: int) -> dict[int, int | None]:
    """Old city index -> the new city its tokens would move to (18xx.games rule)."""
    old_cities = [i for i, n in enumerate(old.nodes) if isinstance(n, City)]
    new_cities = [i for i, n in enumerate(new.nodes) if isinstance(n, City)]
    old_exits = {i: set(node_exits(old, i, old_rotation)) for i in old_cities}
    new_exits = {i: set(node_exits(new, i, new_rotation)) for i in new_cities}
    mapping: dict[int, int | None] = {}
    if not any(old_exits.values()) and len(old_cities) == len(new_cities):
        mapping = dict(zip(old_cities, new_cities, strict=True))
    else:
        for oc in old_cities:
            mapping[oc] = next(
                (nc for nc in new_cities if old_exits[oc] and old_exits[oc] <= new_exits[nc]),
                None,
            )
    used = [nc for nc in mapping.values() if nc is not None]
    for pos, oc in enumerate(old_cities):
        if mapping.get(oc) is not None:
            continue
        choice: int | None = new_cities[pos] if pos < len(new_cities) else None
        if choice is None or choice in used:
            choice = next((nc for nc in new_cities if nc not in used), None)
        mapping[oc] = choice
        if choice is not None:
            used.append(choice)
    return mapping


def _city_sizes_kept(old: Tile, old_rotation: int, new: Tile, new_rotation: int) -> bool:
    if len({c.slots for c in old.cities}) <= 1:
        return True
    for oc, nc in _city_map(old, old_rotation, new, new_rotation).items():
        old_city, new_city = old.nodes[oc], None if nc is None else new.nodes[nc]
        assert isinstance(old_city, City)
        if not isinstance(new_city, City) or new_city.slots < old_city.slots:
            return False
    return True


def rotation_is_legal(
    old: Tile,
    old_rotation: int,
    new: Tile,
    rotation: int,
    *,
    gauge_fits: GaugeFits = reference_gauge_fits,
    exit_allowed: Callable[[int], bool] | None = None,
) -> bool:
    """The tile-level part of 18xx.games' legal-rotation test (the caller checks that the
    operator can reach a new exit)."""
    if exit_allowed is not None and not all(exit_allowed(e) for e in exits(new, rotation)):
        return False
    if not paths_maintained(old, old_rotation, new, rotation, gauge_fits=gauge_fits):
        return False
    old_cte = _city_town_exits(old, old_rotation)
    new_cte = _city_town_exits(new, rotation)
    added = max(0, len(new_cte) - len(old_cte))
    fresh = sum(1 for nct in new_cte if all(not set(nct) & set(oct) for oct in old_cte))
    if fresh > added:
        return False
    if len(new.cities) > 1 and len(old.cities) > 1:
        for oct in old_cte:
            whole = len(set(oct)) == len(oct)
            holders = sum(1 for nct in new_cte if whole and set(oct) <= set(nct))
            if holders != 1:
                return False
    return _city_sizes_kept(old, old_rotation, new, rotation)


def upgrade_rotations(
    old: Tile,
    old_rotation: int,
    new: Tile,
    *,
    gauge_fits: GaugeFits = reference_gauge_fits,
    exit_allowed: Callable[[int], bool] | None = None,
) -> list[int]:
    """Rotations of ``new`` that may replace ``old`` (laid at ``old_rotation``): all old track
    kept, no old city or town swallowed.  ``exit_allowed(edge)`` may forbid edges (e.g. off
    the map).

    >>> from ferrovia.notation import parse
    >>> upgrade_rotations(parse("path=a:0,b:1"), 0, parse("path=a:0,b:3;path=a:1,b:2"))
    [5]
    """
    # Turning both tiles alike changes nothing: worked out (and cached) for the old tile
    # unturned, then turned with it.
    turn = old_rotation % 6
    legal = sorted((r + turn) % 6 for r in _legal_rotations(old, 0, new, gauge_fits))
    if exit_allowed is None:
        return list(legal)
    return [r for r in legal if all(exit_allowed(e) for e in exits(new, r))]


@lru_cache(maxsize=8192)
def _legal_rotations(
    old: Tile, old_rotation: int, new: Tile, gauge_fits: GaugeFits
) -> tuple[int, ...]:
    return tuple(
        r
        for r in ALL_ROTATIONS
        if rotation_is_legal(old, old_rotation, new, r, gauge_fits=gauge_fits)
    )


# ----------------------------------------------------------------------------- upgrades_to
def upgrades_to_correct_colour(
    old_colour: str, new_colour: str, colour_order: Sequence[str] = COLOUR_ORDER
) -> bool:
    """The new colour is the one after the old in ``colour_order``."""
    if old_colour not in colour_order or new_colour not in colour_order:
        return False
    return colour_order.index(new_colour) == colour_order.index(old_colour) + 1


def future_label_after_lay(
    hex_future_label: FutureLabel | None, new: Tile, new_colour: str
) -> FutureLabel | None:
    """The future label a hex carries once ``new`` is laid on it.

    18xx.games moves a hex's future label onto each new tile until a tile of the label's
    colour is laid; then the new tile's own future label (if any) takes over.
    """
    if hex_future_label is not None and hex_future_label.color != new_colour:
        return hex_future_label
    return new.future_label


def upgrades_to_correct_label(
    old: Tile, new: Tile, new_colour: str, *, future_label: FutureLabel | None = None
) -> bool:
    """Labels match; a future label counts instead when ``new`` is its colour.

    ``future_label`` is the one the hex carries (see :func:`future_label_after_lay`); by
    default the old tile's own.
    """
    future = future_label or old.future_label
    if future is not None and future.color == new_colour:
        return future.label == (new.label if new.label is not None else None)
    return old.label == new.label


def upgrades_to_correct_city_town(
    old: Tile,
    old_colour: str,
    old_rotation: int,
    new: Tile,
    *,
    ignore_city_count: bool = False,
) -> bool:
    """Town count kept; city count kept unless ``old`` is labelled (or ``ignore_city_count``);
    a multi-city tile's cities keep their edges; a labelled city tile keeps a city; a blank
    ``OO`` hex takes only tiles with as many cities."""
    if len(old.towns) != len(new.towns):
        return False
    labelled = old.label is not None
    if not labelled and len(old.cities) != len(new.cities) and not ignore_city_count:
        return False
    if len(old.cities) > 1 and len(new.cities) > 1:
        old_cte = list(city_town_edges(old, old_rotation).values())
        new_cte = list(city_town_edges(new).values())
        if not any(
            all(any(all((e + r) % 6 in nct for e in oct) for nct in new_cte) for oct in old_cte)
            for r in ALL_ROTATIONS
        ):
            return False
    if labelled and old.cities and not new.cities:
        return False
    return not (old_colour == "white" and old.label == "OO" and len(old.cities) != len(new.cities))


def upgrades_to(
    old: Tile,
    old_colour: str,
    new: Tile,
    new_colour: str,
    *,
    old_rotation: int = 0,
    colour_order: Sequence[str] = COLOUR_ORDER,
    special: bool = False,
    ignore_city_count: bool = False,
    gauge_fits: GaugeFits = reference_gauge_fits,
    future_label: FutureLabel | None = None,
) -> bool:
    """Whether ``new`` is a candidate upgrade for ``old`` (18xx.games' generic rule): next
    colour, all old track kept at some rotation, and (unless ``special``, a private's ability)
    label and city/town counts.  ``future_label`` is the hex's (it outlives the tile that
    brought it; see :func:`future_label_after_lay`).  Then :func:`upgrade_rotations` says
    how it may be turned.

    >>> from ferrovia.notation import parse
    >>> upgrades_to(parse("path=a:0,b:1"), "yellow", parse("path=a:0,b:3;path=a:1,b:2"), "green")
    True
    """
    if not upgrades_to_correct_colour(old_colour, new_colour, colour_order):
        return False
    if not paths_are_subset(old, old_rotation, new, gauge_fits=gauge_fits):
        return False
    if special:
        return True
    if not upgrades_to_correct_label(old, new, new_colour, future_label=future_label):
        return False
    return upgrades_to_correct_city_town(
        old, old_colour, old_rotation, new, ignore_city_count=ignore_city_count
    )
