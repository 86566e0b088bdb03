"""Routes of one train, walked stop to stop (:class:`_Enumerator`): all routes above a
threshold, or the best one, with the distance, token and revenue bounds that cut the walk.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence
from typing import Any

from ferrovia.board.graph import Tokens, TrackGraph, blocks, tokened_by
from ferrovia.errors import IllegalAction
from ferrovia.routes.search.budget import Work, _Budget, _OutOfWork
from ferrovia.routes.search.chains import _ChainSet
from ferrovia.routes.search.records import _Candidate
from ferrovia.routes.value import Route, RouteRules, TrainSpec, route_revenue, stop_value


def _simple_values(graph: TrackGraph, train: TrainSpec, phase: Sequence[str]) -> list[int] | None:
    """Per-stop value when every visited stop of its kind pays (H, M, E, D trains), else None."""
    if isinstance(train.distance, int):
        return [stop_value(s, train, phase) for s in graph.stops]
    rows = train.distance
    if any(a.kinds & b.kinds for a, b in itertools.combinations(rows, 2)):
        return None
    if any(r.pay not in (0,) and r.visit > r.pay for r in rows):
        return None
    values = []
    for s in graph.stops:
        row = next((r for r in rows if s.kind in r.kinds), None)
        values.append(stop_value(s, train, phase) if row is not None and row.pay > 0 else 0)
    return values


def _bound(
    raw: int,
    counted: Sequence[tuple[int, int, int]],
    free: Sequence[tuple[int, int, int]],
    k: int,
    room: int,
    on_route: bytearray,
    end_only: Sequence[bool],
) -> int:
    """The most a route worth ``raw`` so far could end up worth: the best unvisited stops
    within ``k`` distance units (``counted``, at most ``room`` of them and at most one a route
    can only end at; ``free``, any number), each list (value, distance, stop), best first."""
    top = raw
    if room > 0:
        taken = 0
        last_end = False
        for v, d, st in counted:
            if d <= k and not on_route[st]:
                if end_only[st]:
                    if last_end:
                        continue
                    last_end = True
                top += v
                taken += 1
                if taken >= room:
                    break
    for v, d, st in free:
        if d <= k and not on_route[st]:
            top += v
    return top


class _Enumerator:
    """Routes of one train over one chain set: all of them above a threshold, or the best.

    Depth-first from every stop, extending at the tail only; a route is kept in the direction
    where its first stop id is below its last.  Cuts: the distance limit, group once, a route
    that can no longer reach a company token, and -- with simple per-stop values -- an upper
    bound (value so far + the best values the remaining distance could still add) below the
    threshold.
    """

    #: the budget of the search this enumerator serves (None: no budget, exact)
    work: Work | None = None

    def __init__(
        self,
        graph: TrackGraph,
        cs: _ChainSet,
        train: TrainSpec,
        *,
        phase: Sequence[str],
        company: str,
        tokens: Tokens,
        rules: RouteRules,
    ) -> None:
        import heapq

        self.graph, self.cs, self.train = graph, cs, train
        self.phase, self.company, self.tokens, self.rules = phase, company, tokens, rules
        # the stops as they are now: an enumerator outlives its search (:class:`_MapWork`),
        # and every table below is indexed by stop id up to this many
        self.stops = stops = tuple(graph.stops)
        n = len(stops)
        self.blocked = [blocks(s, company, tokens) for s in stops]
        self.token = [tokened_by(s, company, tokens) for s in stops]
        self.values = _simple_values(graph, train, phase)
        dist = train.distance
        self.hex_sides = isinstance(dist, int) and rules.int_distance_counts_hex_sides
        self.limit_sides = dist if isinstance(dist, int) else 0
        self.shared_rows = not isinstance(dist, int) and any(
            a.kinds & b.kinds for a, b in itertools.combinations(dist, 2)
        )
        self.row_of = [-1] * n
        self.row_limit: list[int] = []
        self.kind_ok = [True] * n
        if isinstance(dist, int) and not self.hex_sides:
            self.row_limit = [dist]
            self.row_of = [0] * n
        elif not isinstance(dist, int) and not self.shared_rows:
            self.row_limit = [r.visit for r in dist]
            for st in stops:
                r = next((i for i, row in enumerate(dist) if st.kind in row.kinds), -1)
                self.row_of[st.id] = r
                self.kind_ok[st.id] = r >= 0
        binding = [i for i, lim in enumerate(self.row_limit) if lim < 99]
        self.prune_row = binding[0] if len(binding) == 1 else -1
        self.divisor = rules.wounded_divisor if train.obsolete and rules.wounded_divisor > 1 else 1
        self.exact = self.values is None or self.shared_rows
        #: :meth:`unit` of every stop, read by the tables below without a call per stop
        self.unit_of = unit_of = tuple(self.unit(i) for i in range(n))
        # fewest distance units from each stop to a company token (ignores used track)
        self.inf = inf = 1 << 30
        to_token = [inf] * n
        heap = [(0, s) for s in range(n) if self.token[s]]
        for _, s in heap:
            to_token[s] = 0
        heapq.heapify(heap)
        while heap:
            d, s = heapq.heappop(heap)
            if d > to_token[s] or (self.blocked[s] and not self.token[s]):
                continue
            step = unit_of[s]
            for ci, o in cs.adjacency.get(s, ()):
                nd = d + (cs.chains[ci].edges if self.hex_sides else step)
                if nd < to_token[o]:
                    to_token[o] = nd
                    heapq.heappush(heap, (nd, o))
        self.to_token = to_token
        self.vals = self.values or [0] * n
        self.zero_side_chains = sum(1 for c in cs.chains if c.edges == 0)
        units = (self.hex_sides, unit_of)
        self._dist: dict[int, Any] = cs.tables.setdefault(("dist", units), {})
        self._dist_steps: dict[int, list[tuple[int, int]]] | None = None  # (:meth:`distances`)
        self._table: dict[int, Any] = cs.tables.setdefault(("near", units, tuple(self.vals)), {})
        self._free: dict[int, Any] = cs.tables.setdefault(("free", units, tuple(self.vals)), {})
        # neighbours best first, so good routes are found early and the bound bites sooner
        vals = self.vals
        self.adjacency = {
            st: sorted(adj, key=lambda e: -vals[e[1]]) for st, adj in cs.adjacency.items()
        }
        self.has_special = any(cs.special)
        # stops a route can only end at: blocking ones, and those with one way out (a route
        # has two ends, so the bound counts at most one of them beyond its first stop)
        firsts: dict[int, set[int]] = {}
        for c in cs.chains:
            firsts.setdefault(c.a, set()).add(c.paths[0])
            firsts.setdefault(c.b, set()).add(c.paths[-1])
        self.end_only = [self.blocked[s] or len(firsts.get(s, ())) <= 1 for s in range(n)]

    def distances(self, source: int) -> dict[int, int]:
        """Fewest distance units from ``source`` to each stop (through non-blocking stops)."""
        import heapq

        found = self._dist.get(source)
        if found is not None:
            return found
        steps = self._dist_steps
        if steps is None:
            # per stop, (units to the next stop, next stop); a route passes no blocking stop
            chains, unit_of, hex_sides = self.cs.chains, self.unit_of, self.hex_sides
            steps = self._dist_steps = {
                st: [(chains[ci].edges if hex_sides else unit_of[o], o) for ci, o in adj]
                for st, adj in self.cs.adjacency.items()
            }
        blocked, inf = self.blocked, self.inf
        pop, push = heapq.heappop, heapq.heappush
        dist = {source: 0}
        get = dist.get
        heap = [(0, source)]
        while heap:
            d, st = pop(heap)
            if d > dist[st] or (st != source and blocked[st]):
                continue
            for w, o in steps.get(st, ()):
                w += d
                if w < get(o, inf):
                    dist[o] = w
                    push(heap, (w, o))
        self._dist[source] = dist
        return dist

    def near(self, tail: int) -> tuple[list[tuple[int, int, int]], list[tuple[int, int, int]]]:
        """Paying stops reachable from ``tail``, best first, as (value, distance, stop): those
        the distance counts, and the others (towns an M train scores)."""
        found = self._table.get(tail)
        if found is not None:
            return found
        dist = self.distances(tail)
        vals, hex_sides, unit_of = self.vals, self.hex_sides, self.unit_of
        counted: list[tuple[int, int, int]] = []
        free: list[tuple[int, int, int]] = []
        for st, d in dist.items():
            if st == tail or vals[st] <= 0:
                continue
            if hex_sides or unit_of[st] > 0:
                counted.append((vals[st], d, st))
            else:
                free.append((vals[st], d, st))
        counted.sort(reverse=True)
        free.sort(reverse=True)
        self._table[tail] = (counted, free)
        return counted, free

    def free_sums(self, tail: int) -> tuple[list[int], list[int], dict[int, int]]:
        """The free paying stops of :meth:`near` by distance: (distances ascending, sums of
        the values of the first i, stop -> distance)."""
        found = self._free.get(tail)
        if found is not None:
            return found
        by_d = sorted((d, v) for v, d, _ in self.near(tail)[1])
        sums = [0]
        for _, v in by_d:
            sums.append(sums[-1] + v)
        dmap = {st: d for _, d, st in self.near(tail)[1]}
        found = self._free[tail] = ([d for d, _ in by_d], sums, dmap)
        return found

    def unit(self, stop: int) -> int:
        """What visiting ``stop`` costs of the one binding distance limit (0: nothing)."""
        if self.hex_sides or self.prune_row < 0 or self.row_of[stop] != self.prune_row:
            return 0
        return self.stops[stop].visit_cost

    def run(
        self,
        threshold: int,
        *,
        best_only: bool = False,
        avoid: int = 0,
        limit: int | None = None,
    ) -> list[_Candidate]:
        """Routes with revenue >= ``threshold`` not using track ``avoid`` (``best_only``: the
        single best one, threshold rising as better routes are found); more than ``limit``
        routes raise :class:`_Budget`."""
        graph, cs = self.graph, self.cs
        stops = self.stops
        adjacency, chains, masks = self.adjacency, cs.chains, cs.masks
        blocked, token, to_token, inf = self.blocked, self.token, self.to_token, self.inf
        values = self.values
        row_of, row_limit, kind_ok = self.row_of, self.row_limit, self.kind_ok
        hex_sides, limit_sides, prune_row = self.hex_sides, self.limit_sides, self.prune_row
        groups = [s.groups for s in stops]
        use_bound = not self.exact
        # stops worth nothing to this train and holding no station of the company
        dull = [
            bool(values is not None and not self.exact and values[i] == 0 and not token[i])
            for i in range(len(stops))
        ]
        divisor = self.divisor
        out: dict[tuple[frozenset[int], frozenset[int]], _Candidate] = {}
        route: list[int] = []
        used_chains: list[int] = []
        on_route = bytearray(len(stops))
        group_used: set[str] = set()
        counts = [0] * max(1, len(row_limit))
        state = {"need": max(threshold, 1) * divisor}

        def record(mask: int, raw: int) -> None:
            if self.exact or (self.has_special and any(cs.special[c] for c in used_chains)):
                r = Route(tuple(route), tuple(chains[c] for c in used_chains))
                try:
                    value, _ = route_revenue(
                        graph,
                        r,
                        self.train,
                        phase=self.phase,
                        company=self.company,
                        tokens=self.tokens,
                        rules=self.rules,
                    )
                except IllegalAction:
                    return
                raw = value * divisor
            else:
                value = raw // divisor
            if value <= 0 or raw < state["need"]:
                return
            key = (frozenset(used_chains), frozenset(route))
            if key in out:
                return
            out[key] = _Candidate(tuple(route), tuple(used_chains), mask, value)
            if limit is not None and len(out) > limit:
                raise _Budget
            if best_only:
                out.clear()
                out[key] = _Candidate(tuple(route), tuple(used_chains), mask, value)
                state["need"] = (value + 1) * divisor

        # per stop, its neighbours with everything the walk looks at (fewer lookups)
        cost = [st.visit_cost for st in stops]
        step_vals = values or [0] * len(stops)
        unit = list(self.unit_of)
        links = {
            tail: [
                (
                    ci,
                    other,
                    masks[ci],
                    chains[ci].edges,
                    row_of[other],
                    cost[other],
                    step_vals[other],
                    groups[other],
                )
                for ci, other in adj
            ]
            for tail, adj in adjacency.items()
        }
        near = self.near
        free_sums = self.free_sums
        # what each stop adds to the free part of the bound (see :meth:`near`)
        free_val = [0 if hex_sides or unit[i] else step_vals[i] for i in range(len(stops))]
        end_only = self.end_only
        hex_counted = hex_sides
        room_extra = self.zero_side_chains if hex_sides else 0
        prune_limit = row_limit[prune_row] if prune_row >= 0 else 0
        work = self.work

        def extend(mask: int, raw: int, has_token: bool, sides: int, fsum: int) -> None:
            if work is not None:
                work.charge()  # a node of the walk
            tail = route[-1]
            n = len(route)
            # an end that scores nothing only lengthens a route (same revenue, more track):
            # such a route is kept only when it has two stops and cannot be shortened
            if (
                n > 1
                and has_token
                and route[0] < tail
                and (n == 2 or not (dull[tail] or dull[route[0]]))
            ):
                record(mask, raw)
            if n > 1 and (blocked[tail] or dull[route[0]]):
                return
            need = state["need"]
            if use_bound:
                # the best unvisited paying stops still reachable within the distance left
                counted, free = near(tail)
                if hex_counted:
                    k = limit_sides - sides
                    room = k + room_extra
                elif prune_row >= 0:
                    k = room = prune_limit - counts[prune_row]
                else:
                    k = room = inf
                if free:
                    # every unvisited free stop in reach (towns an M train scores), summed by
                    # distance once per tail: a metre town mesh has dozens (1858_india 5M:
                    # half the search's time went to adding them up stop by stop)
                    ds, sums, dmap = free_sums(tail)
                    if not ds or ds[-1] <= k:
                        # all in reach: the visited ones are those on the route (``fsum``)
                        extra = sums[-1] - fsum + free_val[tail]
                    else:
                        extra = sums[bisect.bisect_right(ds, k)]
                        if work is not None:  # (a look at every stop of the route)
                            work.charge(len(route) // 6)
                        for st in route:
                            d = dmap.get(st)
                            if d is not None and d <= k:
                                extra -= step_vals[st]
                    top = _bound(raw + extra, counted, (), k, room, on_route, end_only)
                else:
                    top = _bound(raw, counted, (), k, room, on_route, end_only)
                if top < need:
                    return
            for ci, other, cmask, edges, row, ocost, oval, g in links.get(tail, ()):
                if on_route[other] or cmask & mask:
                    continue
                if hex_sides:
                    if sides + edges > limit_sides:
                        continue
                elif row_limit:
                    if not kind_ok[other]:
                        continue
                    if row >= 0 and counts[row] + ocost > row_limit[row]:
                        continue
                if g and not group_used.isdisjoint(g):
                    continue
                tok = has_token or token[other]
                if not tok:
                    tt = to_token[other]
                    if tt >= inf:
                        continue
                    if hex_sides:
                        if sides + edges + tt > limit_sides:
                            continue
                    elif prune_row >= 0:
                        if prune_limit - counts[prune_row] - unit[other] < tt:
                            continue
                route.append(other)
                used_chains.append(ci)
                on_route[other] = 1
                if g:
                    group_used.update(g)
                if row >= 0:
                    counts[row] += ocost
                extend(mask | cmask, raw + oval, tok, sides + edges, fsum + free_val[other])
                if row >= 0:
                    counts[row] -= ocost
                if g:
                    group_used.difference_update(g)
                on_route[other] = 0
                used_chains.pop()
                route.pop()

        vals = values or [0] * len(stops)
        try:
            for start in sorted(adjacency, key=lambda s: -vals[s]):
                row = row_of[start]
                if row_limit and not hex_sides:
                    if not kind_ok[start]:
                        continue
                    if row >= 0 and stops[start].visit_cost > row_limit[row]:
                        continue
                if to_token[start] >= inf:
                    continue
                route.append(start)
                on_route[start] = 1
                group_used.update(groups[start])
                if row >= 0:
                    counts[row] += stops[start].visit_cost
                extend(avoid, vals[start], token[start], 0, free_val[start])
                if row >= 0:
                    counts[row] -= stops[start].visit_cost
                group_used.difference_update(groups[start])
                on_route[start] = 0
                route.pop()
        except _OutOfWork as stop:
            if not best_only:
                for cand in out.values():
                    cand.mask &= ~avoid
                stop.partial = list(out.values())
                raise
            # the budget ran out: the best route found so far (a legal one), if any
        # the avoided track is not part of the routes' own masks
        for cand in out.values():
            cand.mask &= ~avoid
        # a recursive closure is a reference cycle: freed now, not by the collector
        extend = None  # type: ignore[assignment]
        return list(out.values())
