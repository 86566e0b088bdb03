"""What a company reaches on one gauge family (:func:`reachable`) and the narrower questions a
lay or a station asks (:func:`reached_edges`, :func:`reaches_stop`, :func:`runs_into`), each
stopping the walk once it is answered."""

from __future__ import annotations

import sys
from collections.abc import Collection, Mapping
from dataclasses import dataclass

from ferrovia.board import hexmap
from ferrovia.board.graph.model import TrackGraph, bit_positions
from ferrovia.board.graph.stations import Tokens, _stations
from ferrovia.board.graph.walk import _AllFound, _Walk
from ferrovia.notation.models import Gauge

# gauge family -> the track kind a walk of that family skips
_SKIP = {"broad": Gauge.NARROW.value, "metre": Gauge.BROAD.value, "narrow": Gauge.BROAD.value}


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

    >>> from ferrovia.board.graph import build_graph
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

    >>> from ferrovia.board.graph import build_graph
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

    >>> from ferrovia.board.graph import build_graph
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

    >>> from ferrovia.board.graph import build_graph
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
