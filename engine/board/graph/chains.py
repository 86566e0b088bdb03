"""Chains: runs of track from one stop to another with no stop between (:func:`chains_from`),
the unit a ``run_routes`` connection names by its hexes."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass

from ferrovia.board.graph.model import TrackGraph
from ferrovia.board.graph.walk import _walk_sides


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
