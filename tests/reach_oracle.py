"""The slow oracle for :func:`ferrovia.board.graph.reachable`: the plain depth-first walk of
18xx.games,
kept verbatim from before reach learned to skip what cannot add anything.  It enumerates every
walk below a converging side, so it is exponential on dense networks: tests only."""

from __future__ import annotations

import sys
from collections.abc import Collection, Mapping

from ferrovia.board import hexmap
from ferrovia.board.graph import (
    Reach,
    Tokens,
    TrackGraph,
    TrackPath,
    blocks,
    gauge_skip,
    home_starts,
)


def walk_reachable(
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
    >>> r = walk_reachable(g, "X", tokens={"A1": [["X"]]}, gauge="broad")
    >>> dict(r.hexes)
    {'A1': frozenset({0}), 'A3': frozenset({0, 3}), 'A5': frozenset({3})}
    """
    skip = gauge_skip(gauge)
    hexes: dict[str, set[int]] = {}
    seen_stops: set[int] = set()
    seen_paths: set[int] = set()

    def mark_all_sides(h: str) -> None:
        hexes.setdefault(h, set()).update(graph.neighbours.get(h, {}))

    start_stops: list[int] = []
    for h, per_city in tokens.items():
        for number, slots in enumerate(per_city):
            if company in slots:
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
    # walked before the path's far sides.
    start_nodes: list[tuple[int, int]] = [(0, s) for s in start_stops]
    start_nodes += [(1, pid) for pid in start_paths]  # plain home track: the path is the node
    converging: dict[tuple[str, int], bool] = {}
    for h, pids in graph.hex_paths.items():
        count: dict[int, int] = {}
        for pid in pids:
            for e in graph.paths[pid].exits:
                count[e] = count.get(e, 0) + 1
        for e, n in count.items():
            converging[(h, e)] = n > 1
    paths = graph.paths

    def record(p: TrackPath) -> None:
        if p.id in seen_paths:
            return
        seen_paths.add(p.id)
        for e in p.exits:
            hexes.setdefault(p.hex, set()).add(e)
            other = graph.neighbours[p.hex].get(e)
            if other is not None:
                hexes.setdefault(other, set()).add(hexmap.invert(e))
        seen_stops.update(p.stops)

    def walk_from(start: tuple[int, int]) -> None:
        nodes_seen: set[tuple[int, int]] = set(start_nodes)
        nodes_seen.discard(start)
        paths_seen: set[int] = set()
        on_way: dict[tuple[str, int, int], int] = {}
        junction_uses: dict[int, int] = {}

        def walk_node(node: tuple[int, int], soft: bool) -> None:
            if node in nodes_seen:
                return
            nodes_seen.add(node)
            kind, ident = node
            here = [ident] if kind == 1 else list(graph.stop_paths[ident])
            for pid in here:
                p = paths[pid]
                if p.track == skip or p.ignore:
                    continue
                walk_path(p, None, -1, soft, node, soft)
            if soft:
                nodes_seen.discard(node)

        def walk_path(
            p: TrackPath,
            entered: int | None,
            jskip: int,
            soft: bool,
            origin: tuple[int, int],
            origin_soft: bool,
        ) -> None:
            if p.id in paths_seen or p.track == skip:
                return
            j = p.junction
            if j >= 0 and (junction_uses.get(j, 0) > 1 or p.terminal):
                return
            sides = [(p.hex, e, lane[1]) for e, lane in zip(p.exits, p.lanes, strict=True)]
            if any(on_way.get(side, 0) for side in sides):
                return
            paths_seen.add(p.id)
            if j >= 0:
                junction_uses[j] = junction_uses.get(j, 0) + 1
            record(p)
            if not p.terminal:
                for s in p.stops:
                    if (0, s) != origin and not blocks(graph.stops[s], company, tokens):
                        walk_node((0, s), origin_soft or soft)
            if j >= 0 and j != jskip:
                for q in graph.junction_paths[j]:
                    walk_path(paths[q], None, j, soft, origin, origin_soft)
            for e, side in zip(p.exits, sides, strict=True):
                if e == entered:
                    continue
                across = graph.links.get((p.id, e))
                if not across:
                    continue
                on_way[side] = on_way.get(side, 0) + 1
                turn = soft or converging.get((p.hex, e), False)
                for q in across:
                    walk_path(paths[q], hexmap.invert(e), -1, turn, origin, origin_soft)
                on_way[side] -= 1
            if soft:
                paths_seen.discard(p.id)
            if j >= 0:
                junction_uses[j] -= 1

        walk_node(start, False)

    # the walk recurses once per path on its way (pure-Python frames: a higher limit is safe)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))
    try:
        for start in start_nodes:
            walk_from(start)
    finally:
        sys.setrecursionlimit(limit)

    return Reach(
        hexes={h: frozenset(es) for h, es in hexes.items()},
        stops=frozenset(seen_stops),
        paths=frozenset(seen_paths),
        signatures=frozenset(graph.stops[s].signature for s in seen_stops),
        run_hexes=frozenset(graph.paths[p].hex for p in seen_paths),
    )
