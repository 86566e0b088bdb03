"""The walk of 18xx.games, computed exactly in polynomial time (:class:`_Walk`): the hard walk,
the soft parts probed and bounded, and the bounds of what a walk can find from each of its
states (:func:`_walk_bounds`)."""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping

from ferrovia.board import hexmap
from ferrovia.board.graph.matching import _PartModel
from ferrovia.board.graph.model import TrackGraph, TrackPath, bit_positions
from ferrovia.board.graph.stations import Tokens, _Stations, blocks, passable_stops


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
