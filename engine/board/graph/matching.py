"""The matching pass of the walk: a soft part as a graph whose simple paths are its walks
(:class:`_PartModel`) and Edmonds' blossom search that settles whether one reaches a path
(:func:`_augmenting`)."""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from ferrovia.board.graph.model import bit_positions

if TYPE_CHECKING:
    from ferrovia.board.graph.walk import _Part, _Walk


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
