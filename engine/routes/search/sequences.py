"""Routes of a train that passes towns for free (E and D trains), walked as *sequences* of
paying stops joined by *links* (:class:`_LinkEnumerator`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from operator import add as _add
from typing import Any

from ferrovia.routes.search.budget import _Budget, _OutOfWork
from ferrovia.routes.search.chains import _ChainSet, _Links
from ferrovia.routes.search.csp import _fit_three, _greedy_route, _propagate_one, _search_route
from ferrovia.routes.search.enumerator import _bound, _Enumerator
from ferrovia.routes.search.records import _Candidate, _Option, _realise

_NO_PAIR = (0, 0)  # (:meth:`_LinkEnumerator.run`'s ``pairs``: a link not asked about yet)
_REFUTED = (None, None)  # (its ``solutions``: a set of links with no realisation)
#: what :meth:`_LinkEnumerator.run` reads of a link: (core track, core towns, core both,
#: union both, its bit)
_LinkInfo = tuple[int, int, int, int, int]
_NO_INFO: _LinkInfo = (0, 0, 0, 0, 0)  # (a link with no way left)


class _LinkEnumerator(_Enumerator):
    """Routes of a train that passes some stops for free -- towns for an E or D train: no
    revenue, no distance, no station -- enumerated as *sequences* of the other stops.

    Between two stops a town mesh offers dozens of ways (1858_game_end_bank #979: 2,996 for 53
    pairs of stops), and every combination is a different route of the same revenue: the plain
    walk listed 71,906 routes there for 221 sequences.  Here a step goes from stop to stop by a
    *link*, the set of its ways (:class:`_Option`), and a sequence is kept while some choice of
    one way per link is legal (:func:`_solve`: track-disjoint, no town twice); the sequence
    carries all its ways, so the combination of trains can pick ways that fit together.

    Every cut of the plain walk applies (free stops cost no distance, pay nothing and hold no
    station; an exact search grows both ends of a sequence, and its bounds read both); a
    route ending at a free stop is only ever needed with two stops (see
    :class:`_Enumerator`), a *stub*: one sequence per stop, its ways the chains to free stops.
    """

    @staticmethod
    def free_stops(en: _Enumerator) -> list[bool] | None:
        """Which stops ``en``'s train passes for free, or None if it cannot use this search."""
        if en.exact or en.hex_sides or en.values is None or en.has_special:
            return None
        stops = en.stops
        free = [False] * len(stops)
        cost: dict[int, int] = {}
        for s in en.cs.adjacency:
            st = stops[s]
            row = en.row_of[s]
            if (
                en.values[s] == 0
                and not en.token[s]
                and not en.blocked[s]
                and not st.groups
                and row >= 0
                and row != en.prune_row
            ):
                free[s] = True
                cost[row] = cost.get(row, 0) + st.visit_cost
        # a row of free stops must never bind (an E train's 99 towns)
        if not any(free) or any(en.row_limit[r] < c for r, c in cost.items()):
            return None
        return free

    def __init__(self, base: _Enumerator, free: list[bool]) -> None:
        # share everything the plain walk computed (tables, bounds, token distances)
        for name in base.__dict__:
            setattr(self, name, getattr(base, name))
        self.free = free
        cs = self.cs
        vals = self.vals
        shared = cs.links.get(tuple(free))
        if shared is None:
            shared = cs.links[tuple(free)] = self._links(cs, free)
        # trains passing the same stops for free (a 5E and a 7E) share their links, and so
        # every answer about them: which ways fit is a question of track, not of the train
        self.links: dict[tuple[int, int], tuple[_Option, ...]] = shared[0]
        self.stubs: dict[int, tuple[_Option, ...]] = shared[1]
        self.shift: int = shared[2]
        self.memo: dict[int, tuple[dict[Any, Any], ...]] = shared[3]
        adj: dict[int, list[int]] = {}
        for x, y in self.links:
            adj.setdefault(x, []).append(y)
            adj.setdefault(y, []).append(x)
        self.link_adj = {x: sorted(ys, key=lambda y: -vals[y]) for x, ys in adj.items()}
        self.size = sum(len(v) for v in self.links.values())
        self.walks = self._walks()
        #: the roots of exact walks, best first: a sequence is walked from its first stop in
        #: this order, through stops after it only
        self.roots = sorted(self.link_adj, key=lambda s: -vals[s])
        self.rank = {s: i for i, s in enumerate(self.roots)}
        #: per (first neighbour, root): the most the root's other end can add per units left
        #: (:meth:`_walks`, its first step to a stop above that neighbour and after the root)
        self.arm_rows: dict[tuple[int, int], list[int]] = {}
        self.places = {(x, y): i for x, ys in self.link_adj.items() for i, y in enumerate(ys)}
        #: per link, the track every way uses and the track some way uses: a run avoiding
        #: track knows most links' ways left without a scan (#979's partner searches); set
        #: out by the first such run (a search of one train never avoids track)
        self.link_track: dict[tuple[int, int], tuple[int, int]] = {}
        #: what a run reads per stop, and the paying stops in reach of two stops
        #: (:meth:`run`'s ``reach_both``): the same for every run, kept between them (#979's
        #: nine partner searches worked them out again, a third of their walks)
        self.per_stop: tuple[list[Any], ...] | None = None
        #: per tail, its neighbours by link with their rows of the path bound (:meth:`run`)
        self.steps: dict[int, list[tuple[Any, ...]]] | None = None
        self.in_reach2: dict[
            tuple[int, int, int], tuple[list[tuple[int, int, bool]], list[Any]]
        ] = {}
        self.in_reach: dict[tuple[int, int], tuple[list[tuple[int, int]], ...]] = {}
        #: (id of a link's ways, the taken track and towns they can meet) -> the first way
        #: that fits there (None: none); the links as listed only, which live as long as
        #: the enumerator (:meth:`run`)
        self.fits: dict[tuple[int, int], _Option | None] = {}
        #: what the latest :meth:`run` with ``also`` listed beside the best route
        self.also_found: tuple[int, list[_Candidate] | None] | None = None
        #: every sequence's revenue is a multiple of this (1858: 10)
        self.step = 1
        if self.divisor == 1:
            self.step = math.gcd(*(v for v in self.vals if v > 0)) or 1

    def _walks(self) -> dict[tuple[int, int], list[int]] | None:
        """Per (previous stop, tail) -- previous -1 at a route's first stop -- and per distance
        units left, the most the stops a route can still add are worth if it only had to go
        from link to link and not straight back (stops may repeat: an upper bound).  Beside the
        bound of the best stops in reach, it knows that a route is a path: a tail whose
        neighbours are poor cannot collect the rich stops far away with few units left.  None
        when some stop costs no unit (its walks would be unbounded)."""
        if self.prune_row < 0:
            return None
        units = self.prune_limit = self.row_limit[self.prune_row]
        adj, vals, unit = self.link_adj, self.vals, self.unit_of
        if any(unit[x] <= 0 for x in adj):
            return None
        keys = [(x, y) for x, ys in adj.items() for y in ys] + [(-1, x) for x in adj]
        walks = {key: [0] * (units + 1) for key in keys}
        # per (previous, tail) -- but at a blocking tail, where a route ends --: its row, and
        # each next stop's (units, value, row); every row is read at fewer units left
        kind_ok, blocked = self.kind_ok, self.blocked
        rows = [
            (
                walks[(x, y)],
                [(unit[z], vals[z], walks[(y, z)]) for z in adj[y] if z != x and kind_ok[z]],
            )
            for x, y in keys
            if x < 0 or not blocked[y]
        ]
        for j in range(1, units + 1):
            for row, nexts in rows:
                top = 0
                for u, v, after in nexts:
                    if u <= j:
                        v += after[j - u]
                        if v > top:
                            top = v
                row[j] = top
        return walks

    @staticmethod
    def _links(cs: _ChainSet, free: list[bool]) -> _Links:
        """(links, stubs, shift, memo) of a chain set for trains passing ``free`` stops."""
        links: dict[tuple[int, int], list[_Option]] = {}
        stubs: dict[int, list[_Option]] = {}
        # the ways of one route are only ever compared with each other by ``both``
        shift = max((m.bit_length() for m in cs.masks), default=0)
        masks = cs.masks
        # per stop, its chains as (other stop, track, the track that can clash --
        # none when no other chain shares a key: a way can then only meet the chain by
        # stepping back onto a stop already on it --, the other stop's bit if it is
        # passed for free, else 0, and the chain and the stop as tuples to add to a way's);
        # a loop never starts a way
        once = twice = 0
        for m in masks:
            twice |= once & m
            once |= m
        adjacency = cs.adjacency
        # per free stop, the highest stop not passed for free next to its component of free
        # stops: a walk from x into a component whose highest is not above x makes no link
        # (each link is made from its lower end), so it is not walked
        top: dict[int, int] = {}
        for f in adjacency:
            if free[f] and f not in top:
                comp, todo, high = [f], [f], -1
                top[f] = -1
                while todo:
                    for _, o in adjacency[todo.pop()]:
                        if free[o]:
                            if o not in top:
                                top[o] = -1
                                comp.append(o)
                                todo.append(o)
                        elif o > high:
                            high = o
                for g in comp:
                    top[g] = high
        out = {
            s: [
                (
                    o,
                    masks[ci],
                    masks[ci] if masks[ci] & twice else 0,
                    1 << o if free[o] else 0,
                    (ci,),
                    (o,),
                    top.get(o, -1),
                )
                for ci, o in adj
                if o != s
            ]
            for s, adj in adjacency.items()
        }
        count = 0

        def walk(
            x: int,
            at: int,
            track: int,
            passed: int,
            chain_path: tuple[int, ...],
            inner: tuple[int, ...],
        ) -> None:
            nonlocal count
            for o, m, clash, bit, by, to, high in out[at]:
                if (clash and clash & track) or o == x:
                    continue
                if bit:
                    if not passed & bit and high > x:
                        walk(x, o, track | m, passed | bit, chain_path + by, inner + to)
                elif x < o:  # each link once; the other direction is the same ways
                    m |= track
                    links.setdefault((x, o), []).append(
                        _Option(m, passed, chain_path + by, inner, x, m | passed << shift)
                    )
                    count += 1
                    if count > _MAX_WAYS:
                        raise _Budget

        for x, steps in out.items():
            if free[x]:
                continue
            # (the first step, on no track yet: a chain to a free stop is also a stub)
            for o, m, _, bit, by, to, high in steps:
                if bit:
                    stubs.setdefault(x, []).append(_Option(m, bit, by, to, -1, m | bit << shift))
                    if high > x:
                        walk(x, o, m, bit, by, to)
                elif x < o:
                    links.setdefault((x, o), []).append(_Option(m, 0, by, (), x, m))
                    count += 1
                    if count > _MAX_WAYS:
                        raise _Budget
        walk = None  # type: ignore[assignment]  # (a reference cycle: freed now)
        # fewest keys first: a short way leaves the most for the other links and trains
        sorted_links = {
            k: tuple(sorted(v, key=lambda o: o.track.bit_count())) for k, v in links.items()
        }
        #: avoided track -> (ways per link, link cores, links that fit together, solved
        #: sequences), shared by the runs of one search
        memo: dict[int, tuple[dict[Any, Any], ...]] = {}
        return sorted_links, {k: tuple(v) for k, v in stubs.items()}, shift, memo

    def run(
        self,
        threshold: int,
        *,
        best_only: bool = False,
        avoid: int = 0,
        limit: int | None = None,
        partners: Sequence[tuple[int, int]] = (),
        floor: int = 0,
        target: int = 0,
        also: Callable[[int], int] | None = None,
    ) -> list[_Candidate]:
        """As :meth:`_Enumerator.run`, but listing sequences (``links`` set); ``best_only``
        returns the best one realised as a plain route.

        ``partners`` (revenue, core track), best first: every route worth at least
        ``floor`` (two identical trains; a run must be worth ``target``).  A sequence whose
        bound ``b`` leaves ``target - b >= floor`` to its partner is then entered only if one
        of them worth ``target - b`` avoids its core: the other route of such a run is in the
        list, and its track avoids all the track this one must use.

        ``also`` (exact ``best_only`` only): the same walk also lists every sequence worth at
        least ``also(v)``, ``v`` the best found so far (a non-decreasing function, at most
        ``v``), kept in :attr:`also_found` as ``(also(best), sequences in the walk's order)``,
        or ``(v, None)`` when more than ``_START_LIST`` sequences were found worth ``v``: the
        list a twin start needs next, without a second walk over the best route's tree
        (:meth:`_RunSearch.best`)."""
        stops = self.stops
        blocked, token, to_token, inf = self.blocked, self.token, self.to_token, self.inf
        vals = self.vals
        row_of, row_limit, kind_ok = self.row_of, self.row_limit, self.kind_ok
        prune_row = self.prune_row
        if self.per_stop is None:
            self.per_stop = (
                [s.groups for s in stops],
                [vals[i] == 0 and not token[i] for i in range(len(stops))],
                [st.visit_cost for st in stops],
                list(self.unit_of),
            )
        groups, dull, cost, unit = self.per_stop
        divisor = self.divisor
        near = self.near
        end_only = self.end_only
        shift = self.shift
        prune_limit = row_limit[prune_row] if prune_row >= 0 else 0
        all_links = self.links
        walks = self.walks
        # per tail, its neighbours by link with their rows of the path bound and everything
        # the walk reads of them (one lookup, unpacked at once)
        steps = self.steps
        if steps is None:
            steps = self.steps = {
                x: [
                    (
                        y,
                        walks[(x, y)] if walks is not None else None,
                        row_of[y],
                        cost[y],
                        kind_ok[y],
                        groups[y],
                        token[y],
                        to_token[y],
                        unit[y],
                        vals[y],
                    )
                    for y in ys
                ]
                for x, ys in self.link_adj.items()
            }
        # per (stop, distance units left): its paying stops in reach (:meth:`near`) -- those
        # a route can pass, those it can only end at, the uncounted ones -- as (value, stop),
        # best first
        in_reach = self.in_reach
        # per avoided track, kept between runs (the greedy and list runs walk the same tree)
        ways, infos, pairs, solutions, trios, trio_fits = self.memo.setdefault(
            avoid, ({}, {}, {}, {}, {}, {})
        )
        link_track = self.link_track
        if avoid and not link_track:
            for xy, opts in all_links.items():
                common, some = -1, 0
                for o in opts:
                    common &= o.track
                    some |= o.track
                link_track[xy] = (common, some)
        fits = self.fits

        def options(x: int, y: int) -> tuple[_Option, ...]:
            if x > y:
                x, y = y, x
            found = ways.get((x, y))
            if found is None:
                found = all_links[(x, y)]
                if avoid:
                    common, some = link_track[(x, y)]
                    if common & avoid:
                        found = ()  # (every way runs over the avoided track)
                    elif some & avoid:
                        found = tuple([o for o in found if not o.track & avoid])
                ways[(x, y)] = found
            return found

        if avoid and self.work is None:
            # an exact search does not look at a link whose ways all run over the avoided
            # track (a budgeted one keeps the steps its work was charged for): #979's
            # partner searches found 636 of 881 such links after bounding the sequence
            steps = {x: [t for t in ts if options(x, t[0])] for x, ts in steps.items()}

        out: list[_Candidate] = []
        best: list[_Candidate] = []
        route: list[int] = []
        link_opts: list[tuple[_Option, ...]] = []
        link_infos: list[_LinkInfo] = []  # (theirs: :func:`link_info`)
        # per step (tail * n_stops + stop): its link's ways and :func:`link_info` (this run's)
        link_at: dict[int, tuple[tuple[_Option, ...], _LinkInfo]] = {}
        n_stops = len(stops)
        witness: list[_Option] = []
        on_route = bytearray(len(stops))
        group_used: set[str] = set()
        counts = [0] * max(1, len(row_limit))
        need = max(threshold, 1) * divisor

        place = self.places
        best_key: list[tuple[int, ...]] = []
        # (``also``: list the good sequences on the best route's walk; exact searches only)
        collect = also is not None and best_only and self.work is None
        too_many = 0  # (more than ``_START_LIST`` sequences were worth this much)

        def old_order(c: _Candidate) -> tuple[int, ...]:
            """Where the walk from both ends finds ``c``: by first stop in ``roots``, then
            each next stop by its place among the neighbours (stubs after the walk)."""
            stops = c.stops
            if len(stops) == 1:
                return (1 << 30,)
            return (
                self.rank[stops[0]],
                *map(place.__getitem__, itertools.pairwise(stops)),
            )

        def record(raw: int) -> None:
            nonlocal need, collect, too_many
            value = raw // divisor
            if value <= 0 or raw < need:
                return
            mask = 0
            chains: list[int] = []
            core = 0
            # (kept from its lower end: the walk of exact searches may hold it the other way)
            flip = route[0] > route[-1]
            stops_kept = route[::-1] if flip else route
            ways_kept = witness[::-1] if flip else witness
            links_kept = link_opts[::-1] if flip else link_opts
            for o in ways_kept:
                mask |= o.track
                chains.extend(o.chains)
            # the ways as propagated when this sequence was solved: the rest can never be run
            # with the others, and dropping them makes every later question smaller
            narrowed = prefix[-1] if prefix and (not best_only or collect) else None
            settled = False
            if narrowed is not None and len(narrowed) == len(link_opts):
                settled = True
                links = tuple(map(tuple, narrowed[::-1] if flip else narrowed))
                known = prefix_cores[-1]
                if known is not None:
                    # (their cores as propagated, track and towns: the track is below ``shift``)
                    for common in known:
                        core |= common
                    core &= (1 << shift) - 1
                else:
                    for opts in links:
                        common = -1
                        for o in opts:
                            common &= o.track
                        core |= common
            else:
                # (the links as listed: their cores are known; #979: 133,533 ways were
                # scanned here for 1,170 sequences, three in four of them not narrowed)
                links = tuple(links_kept)
                for li in link_infos:
                    core |= li[0]
            c = _Candidate(
                tuple(stops_kept),
                tuple(chains),
                mask,
                value,
                links,
                tuple(ways_kept),
                core,
                settled,
            )
            if best_only:
                if once:
                    if collect:
                        # (every sequence the walk passes is worth at least ``also`` of the
                        # best so far: listed, and the list cut to the need as it rises)
                        out.append(c)
                        if best and value < best[0].revenue:
                            return
                    # of routes of the best revenue, the first the walk from both ends finds
                    # (the same best route, so the same greedy run and thresholds)
                    key = old_order(c)
                    if best and best[0].revenue == value and best_key[0] <= key:
                        return
                    best_key[:] = [key]
                    best[:] = [_realise(c, ways_kept)]
                    if collect:
                        assert also is not None
                        need = also(value) * divisor
                        if len(out) > _START_LIST:
                            out[:] = [x for x in out if x.revenue * divisor >= need]
                            if len(out) > _START_LIST:
                                # (too many good routes for twin starts: the best route alone)
                                collect = False
                                out.clear()
                                too_many = need // divisor
                                need = value * divisor
                    else:
                        need = value * divisor
                    return
                best[:] = [_realise(c, ways_kept)]
                need = (value + 1) * divisor
                return
            out.append(c)
            if limit is not None and len(out) > limit:
                raise _Budget

        def link_info(opts: tuple[_Option, ...]) -> _LinkInfo:
            """What the walk reads of a link (its ways ``opts``), worked out once: the
            track, towns, and both in one mask, that every way uses; the track and towns
            (one mask) some way uses; the link's bit (a set of links is an int: the memo's
            keys, pairs, trios)."""
            found = infos.get(id(opts))
            if found is None:
                t = s = b = -1
                u = 0
                for o in opts:
                    t &= o.track
                    s &= o.stops
                    ob = o.both
                    b &= ob
                    u |= ob
                found = infos[id(opts)] = (t, s, b, u, 1 << len(infos))
            return found

        def clashes(opts: tuple[_Option, ...], li: _LinkInfo, others: int) -> bool:
            """Some link of the sequence (``link_opts``, bits ``others``) and no way of it
            can run beside a way of link ``opts`` (:func:`link_info` ``li``) in one route.
            ``pairs``: per link bit, [links asked about, those that clash], as bits."""
            bit = li[4]
            known = pairs.get(bit)
            if known is None:
                known = pairs[bit] = [0, 0]
            if known[1] & others:
                return True
            todo = others & ~known[0]
            if todo:
                for x, xi in zip(link_opts, link_infos, strict=True):
                    if xi[4] & todo and not compatible(x, xi, opts, li):
                        return True
            return False

        def compatible(
            a: tuple[_Option, ...], ai: _LinkInfo, b: tuple[_Option, ...], bi: _LinkInfo
        ) -> bool:
            """Some way of link a and some way of link b fit in one route (recorded in
            ``pairs`` both ways)."""
            # (cores crossing: never; nothing of one anywhere on the other: always)
            cb = bi[2]
            ub = bi[3]
            if ai[2] & cb:
                found = False
            elif not ai[3] & ub:
                found = True
            else:
                # (a way of a that misses b's union fits any way of b; one that meets b's
                # core fits none)
                theirs = link_boths(b)
                found = False
                for xb in link_boths(a):
                    if not xb & ub:
                        found = True
                        break
                    if xb & cb:
                        continue
                    for y in theirs:
                        if not xb & y:
                            found = True
                            break
                    if found:
                        break
            abit, bbit = ai[4], bi[4]
            for p, q in ((abit, bbit), (bbit, abit)):
                known = pairs.get(p)
                if known is None:
                    known = pairs[p] = [0, 0]
                known[0] |= q
                if not found:
                    known[1] |= q
            return found

        boths: dict[int, list[int]] = {}  # id of a link's ways -> their ``both`` masks

        def link_boths(opts: tuple[_Option, ...]) -> list[int]:
            found = boths.get(id(opts))
            if found is None:
                found = boths[id(opts)] = [o.both for o in opts]
            return found

        def learn_trio(opts: tuple[_Option, ...], li: _LinkInfo, failed: int) -> bool:
            """After the sequence failed with link ``opts``: two links of it that cannot run
            with ``opts`` in one route, if there are such (pairs were ruled out already);
            kept for every later sequence (most failures have such a small reason).  Whether
            one was found.  ``failed``: the sequence's links (bits): three of them are the
            question just answered, and a trio asked before as a sequence has its answer in
            ``solutions``."""
            # (some way of one crosses some way of the other exactly when their unions meet)
            mine = li[3]
            near = [(x, xi) for x, xi in zip(link_opts, link_infos, strict=True) if mine & xi[3]]
            xb = li[4]
            for i, (y, yi) in enumerate(near):
                yb = yi[4]
                for z, zi in near[i + 1 :]:
                    zb = zi[4]
                    key = xb | yb | zb
                    ok = trio_fits.get(key)
                    if ok is None:
                        # (the trio was asked as a sequence: a question of three links that
                        # failed was asked again here; #979: 26 of 314 trios, #940 21 of 59)
                        if key == failed:
                            ok = trio_fits[key] = False
                        elif key in solutions:
                            ok = trio_fits[key] = solutions[key][0] is not None
                    if ok is None:
                        # a way of one link clear of the other two's unions: the question is
                        # theirs, and each two links fit (#979: 96 of the 314 trios asked)
                        uy, uz = yi[3], zi[3]
                        for w, wc, m in (
                            (opts, li[2], uy | uz),
                            (y, yi[2], mine | uz),
                            (z, zi[2], mine | uy),
                        ):
                            if wc & m:
                                continue  # (every way of it meets the other two)
                            for b in link_boths(w):
                                if not b & m:
                                    ok = trio_fits[key] = True
                                    break
                            if ok:
                                break
                    if ok is None:
                        # (:func:`_solve` of the three, with the cores and unions known)
                        trio = (opts, y, z)
                        doms = _propagate_one(list(trio), [li[2], yi[2], zi[2]], [mine, uy, uz])
                        ok = trio_fits[key] = doms is not None and (
                            _greedy_route(doms) is not None or _fit_three(*doms)
                        )
                    if not ok:
                        for a, bc in ((xb, yb | zb), (yb, xb | zb), (zb, xb | yb)):
                            trios.setdefault(a, []).append(bc)
                        return True
            return False

        def fixpoint_cut(cores: list[int]) -> list[int]:
            """What each domain of a fixpoint with ``cores`` was cut by (the others' cores),
            and nothing yet for one link added after them."""
            n = len(cores)
            out = [0] * (n + 1)
            acc = 0
            for i in range(n - 1, -1, -1):
                out[i] = acc
                acc |= cores[i]
            acc = 0
            for i in range(n):
                out[i] |= acc
                acc |= cores[i]
            return out

        # per depth, the links so far with their ways propagated (None: not needed yet)
        prefix: list[list[Sequence[_Option]] | None] = [[]]
        link_set = [0]  # per depth, the bits of the links so far (:func:`link_bit`)
        prefix_cores: list[list[int] | None] = [[]]  # their cores (None: not known yet)
        # where the entries of ``prefix`` in the walk's present order begin (an exact search
        # turns its route round once: the entries below are of the other order)
        bases = [0]
        work = self.work
        # exact searches walk each sequence once (from its root: its first stop in
        # ``roots``); a budgeted one keeps the walk its work was charged for
        once = work is None
        # per (stop, root, units left): the paying stops in reach of either, best first, as
        # (value, stop, a stop a route can only end at), and the free ones (value, stop)
        in_reach2 = self.in_reach2

        def reach_both(
            x: int, y: int, left: int
        ) -> tuple[list[tuple[int, int, bool]], list[tuple[int, int]]]:
            """The paying stops within ``left`` units of ``x`` or ``y`` (``in_reach2``)."""
            counted: dict[int, int] = {}
            free_in: dict[int, int] = {}
            for s in (x, y) if x != y else (x,):
                c_counted, c_free = near(s)
                if left > 0:
                    for v, d, st in c_counted:
                        if d <= left:
                            counted[st] = v
                for v, d, st in c_free:
                    if d <= left:
                        free_in[st] = v
            found = in_reach2[(x, y, left)] = (
                sorted(
                    ((v, st, end_only[st]) for st, v in counted.items()),
                    key=lambda e: -e[0],
                ),
                [(v, st) for st, v in free_in.items()],
            )
            return found

        def both_top(
            top: int,
            both: tuple[list[tuple[int, int, bool]], list[tuple[int, int]]],
            units: int,
            skip: int,
        ) -> int:
            """``top`` plus the best ``units`` paying stops of ``both`` (:func:`reach_both`)
            off the route and other than ``skip``, at most two of them stops a route can only
            end at (one at each end), plus the uncounted ones: the two-ended bound."""
            taken = ends = 0
            for v, st, e in both[0]:
                if st == skip or on_route[st]:
                    continue
                if e:
                    if ends >= 2:
                        continue
                    ends += 1
                top += v
                taken += 1
                if taken >= units:
                    break
            for v, st in both[1]:
                if st != skip and not on_route[st]:
                    top += v
            return top

        arm_rows = self.arm_rows
        rank = self.rank
        link_adj = self.link_adj

        def arm_row(a1: int, root: int) -> list[int]:
            """Per units left, the most the root's other end can add: its first step to a
            stop after the root and of higher id than ``a1``, then :meth:`_walks`."""
            assert walks is not None
            row = [0] * (prune_limit + 1)
            after = rank[root]
            for b in link_adj[root]:
                u = unit[b]
                if b <= a1 or rank[b] <= after or not kind_ok[b]:
                    continue
                w = walks[(root, b)]
                v = vals[b]
                for j in range(u, prune_limit + 1):
                    if v + w[j - u] > row[j]:
                        row[j] = v + w[j - u]
            arm_rows[(a1, root)] = row
            return row

        def extend(
            raw: int,
            has_token: bool,
            track: int,
            passed: int,
            core_t: int,
            core_s: int,
            phase: int = 0,
            above: int = -1,
        ) -> None:
            """A node of the walk: ``phase`` 0 the walk of a budgeted search (from each end,
            kept from the lower one); exact searches walk each sequence once from its root
            ``route[0]`` (its first stop in :attr:`roots`): phase 1 grows one end, phase 2
            the other end after the route was turned round (its first step to a stop above
            ``above``; -1 after it)."""
            nonlocal witness
            if work is not None:
                work.charge()  # a node of the walk
            tail = route[-1]
            n = len(route)
            first = route[0]
            if phase == 0:
                if (
                    n > 1
                    and has_token
                    and first < tail
                    and (n == 2 or not (dull[tail] or dull[first]))
                ):
                    record(raw)
                if n > 1 and (blocked[tail] or dull[first]):
                    return
                if n == 1:  # (a longer sequence was bounded before it was entered)
                    counted, free_vals = near(tail)
                    k = prune_limit - counts[prune_row] if prune_row >= 0 else inf
                    if _bound(raw, counted, free_vals, k, k, on_route, end_only) < need:
                        return
                    if walks is not None and raw + walks[(-1, tail)][k] < need:
                        return
                grow = True
            else:
                if (
                    n > 1
                    and above < 0
                    and has_token
                    and (n == 2 or not (dull[tail] or dull[first]))
                ):
                    record(raw)
                if phase == 2:
                    if blocked[tail] or dull[first]:
                        return
                    grow = True
                else:
                    # (a dull root, or tail, may still end up inside the sequence)
                    grow = n == 1 or not blocked[tail]
                    root = route[0]
                    # the other end's walks: from the root, not back to its first neighbour
                    # (none when the root blocks: it can only be an end)
                    root_open = not blocked[root]
                    root_token = to_token[root] if root_open else inf
                    if n == 1:
                        # the root and the best stops left in its reach (two ends may grow)
                        k = prune_limit - counts[prune_row] if prune_row >= 0 else inf
                        both = in_reach2.get((root, root, k))
                        if both is None:
                            both = reach_both(root, root, k)
                        if both_top(raw, both, k, -1) < need:
                            return
            if (
                phase == 1
                and n > 1
                and root_open
                and not dull[tail]
                and (
                    walks is None
                    or raw
                    + (arm_rows.get((route[1], root)) or arm_row(route[1], root))[
                        prune_limit - counts[prune_row]
                    ]
                    >= need
                )
            ):
                # the other end: the route turned round, grown from the root; its first step
                # goes above the root's first neighbour (each sequence through the root once)
                route.reverse()
                link_opts.reverse()
                link_infos.reverse()
                witness.reverse()
                done = prefix[-1]
                prefix.append(None if done is None else done[::-1])
                done_cores = prefix_cores[-1]
                prefix_cores.append(None if done_cores is None else done_cores[::-1])
                bases.append(len(prefix) - 1)
                extend(raw, has_token, track, passed, core_t, core_s, 2, route[-2])
                bases.pop()
                prefix.pop()
                prefix_cores.pop()
                route.reverse()
                link_opts.reverse()
                link_infos.reverse()
                witness.reverse()
            taken_both = track | passed << shift
            core_both = core_t | core_s << shift
            # (the units left at this node: a step to ``other`` leaves this less its unit)
            units = prune_limit - counts[prune_row] if prune_row >= 0 else inf
            at = tail * n_stops  # (``link_at``'s keys from this tail)
            for other, walk_row, row, c, ok, g, tk, tt, u, worth in (
                steps.get(tail, ()) if grow else ()
            ):
                if work is not None:
                    work.charge()  # a step looked at
                if on_route[other] or other <= above:
                    continue
                if row_limit:
                    if not ok:
                        continue
                    if row >= 0 and counts[row] + c > row_limit[row]:
                        continue
                if g and not group_used.isdisjoint(g):
                    continue
                # (without a binding row: no unit, and inf left)
                left = units - u
                tok = has_token or tk
                if not tok:
                    if phase == 1 and root_token < tt:
                        tt = root_token  # (the station may be reached from the root's side)
                    if tt >= inf or left < tt:
                        continue
                # the longer sequence's bound, before its ways are looked at or solved (7E at
                # random 1858 p6 seed 20 #1060: most CSPs were for sequences it cuts at once)
                path_top = inf  # (the path bound, when there are walks)
                if walk_row is not None:
                    if phase == 1 and root_open:
                        # both ends may still grow: the best split of the units left
                        a1 = route[1] if n > 1 else other
                        root_row = arm_rows.get((a1, root))
                        if root_row is None:
                            root_row = arm_row(a1, root)
                        path_top = (
                            raw + worth + max(map(_add, walk_row[: left + 1], root_row[left::-1]))
                        )
                    else:
                        path_top = raw + worth + walk_row[left]
                    if path_top < need:
                        continue
                if phase == 1:
                    # :func:`_bound` over the stops in reach of either end, at most two of
                    # them stops a route can only end at
                    both = in_reach2.get((other, root, left) if root_open else (other, other, left))
                    if both is None:
                        both = reach_both(other, root if root_open else other, left)
                    top = both_top(raw + worth, both, left, other)
                else:
                    # :func:`_bound` (the tail's paying stops within the units left, best first,
                    # cut to that distance once per tail and units)
                    within = in_reach.get((other, left))
                    if within is None:
                        c_counted, c_free = near(other)
                        counted_in = (
                            [(v, st) for v, d, st in c_counted if d <= left] if left > 0 else []
                        )
                        within = in_reach[(other, left)] = (
                            [(v, st) for v, st in counted_in if not end_only[st]],
                            [(v, st) for v, st in counted_in if end_only[st]],
                            [(v, st) for v, d, st in c_free if d <= left],
                        )
                    # at most one stop a route can only end at: the best one left, taken where
                    # its value falls among the others (the sum of the best ``left`` values)
                    end_v = 0
                    for v, st in within[1]:
                        if st != other and not on_route[st]:
                            end_v = v
                            break
                    top = raw + worth
                    taken = 0
                    for v, st in within[0]:
                        if st == other or on_route[st]:
                            continue
                        if end_v > v:
                            top += end_v
                            end_v = 0
                            taken += 1
                            if taken >= left:
                                break
                        top += v
                        taken += 1
                        if taken >= left:
                            break
                    else:
                        if end_v and taken < left:
                            top += end_v
                    for v, st in within[2]:
                        if st != other and not on_route[st]:
                            top += v
                if top < need:
                    continue
                # (the link's ways and what is read of them, by one int-keyed lookup)
                got = link_at.get(at + other)
                if got is None:
                    found = options(tail, other)
                    got = link_at[at + other] = (found, link_info(found) if found else _NO_INFO)
                opts, li = got
                if not opts:
                    continue
                # (the lesser of the two bounds: an exact search's partner cut bites sooner;
                # a budgeted one keeps the cut its work was charged for)
                rest = target - (top if not once or top < path_top else path_top) // divisor
                if partners and rest >= floor:
                    if not _has_partner(partners, rest, core_t | li[0]):
                        continue  # (the partners all earn too little or clash)
                # extend the current realisation if one way fits; else re-solve the whole
                # sequence (earlier links may have to run another way)
                # (none when the track every way uses is taken)
                way = None
                if not li[2] & taken_both:
                    if avoid:
                        for o in opts:
                            if not o.both & taken_both:
                                way = o
                                break
                    else:
                        # (the first way that fits reads only the taken track and towns that
                        # some way of the link uses: remembered by those, #979 2,608 scans of
                        # 30 ways on average for 818 answers; random 1858 p6 seed 7 #1720
                        # 21,845 for 497)
                        fit_key = (id(opts), taken_both & li[3])
                        if fit_key in fits:
                            way = fits[fit_key]
                        else:
                            for o in opts:
                                if not o.both & taken_both:
                                    way = o
                                    break
                            fits[fit_key] = way
                saved = None
                narrowed: list[Sequence[_Option]] | None = None
                narrowed_cores: list[int] | None = None  # (their cores, when worked out)
                if way is None and li[2] & core_both:
                    # every way crosses track or a town the sequence must use: refuted
                    # before any lookup (#979's list: 1,398 of the 4,440 links whose way
                    # did not fit the realisation)
                    continue
                if way is None:
                    # a sequence's ways fit or not whatever order its links come in: the
                    # answer, or its refutation by a cheap proof, is looked up first (7E+7E
                    # at random 1858 p6 seed 20 #1219: the list of 1,753 sequences asked
                    # the cheap proofs 18,542 times, scanning 480,531 ways)
                    # (the set of links as an int: one bit per link)
                    lbit = li[4]
                    others = link_set[-1]
                    skey = others | lbit
                    known = solutions.get(skey)
                    if known is None:
                        # cheap proofs first: the link cannot run beside one of the links
                        # already taken, or three of its links (or, in an exact search, a
                        # set of them) were found unable to run in one route, or every way
                        # hits track (or a town) the sequence must use; the pairs known to
                        # clash before the trios, and the pairs not yet asked after them
                        # (each pair is asked once, so a sequence a trio refutes may spare
                        # the scans of its ways) -- loops, not generators: #979 asks 1,534
                        refuted = pairs.get(lbit, _NO_PAIR)[1] & others
                        if not refuted:
                            for bc in trios.get(lbit, ()):
                                if bc & others == bc:
                                    refuted = 1
                                    break
                            else:
                                if clashes(opts, li, others):
                                    refuted = 1
                                else:
                                    refuted = 1
                                    for o in opts:
                                        if not o.both & core_both:
                                            refuted = 0
                                            break
                        if refuted:
                            known = solutions[skey] = _REFUTED
                    if known is not None:
                        # remembered by link (the same links may have come in another order)
                        by_link, narrowed_by = known
                        order = [*link_opts, opts]
                        solved = None if by_link is None else [by_link[id(x)] for x in order]
                        narrowed = (
                            None if narrowed_by is None else [narrowed_by[id(x)] for x in order]
                        )
                    else:
                        if work is not None:  # a joint question: the ways it looks at
                            work.charge(len(opts) + sum(map(len, link_opts)))
                        # (an exact search first looks for a trio to blame, which then
                        # spares the propagation and the backtracking: most failed questions
                        # have one, and the answer is the same; a budgeted one keeps the
                        # order its work was charged for)
                        blamed = asked = False
                        solved = None
                        if once and prefix[-1] is None:
                            asked = True
                            blamed = learn_trio(opts, li, 0)
                        if not blamed:
                            # the links so far, propagated once per prefix (siblings share it),
                            # with their cores there; the new link is then propagated against
                            # them, scanning only the links whose ways can meet a core
                            # (unions of the links as listed hold those of their ways left)
                            unions = [xi[3] for xi in link_infos]
                            done_cores = prefix_cores[-1]
                            if prefix[-1] is None:
                                done_cores = prefix_cores[-1] = []
                                # the nearest ancestor in this order whose links were propagated
                                # (the root's: none of them): only the links after it are added
                                # to its fixpoint (#979: 153 prefixes propagated from scratch)
                                up: list[Sequence[_Option]] | None = []
                                up_cores: list[int] | None = []
                                for j in range(len(prefix) - 2, bases[-1] - 1, -1):
                                    if prefix[j] is not None and prefix_cores[j] is not None:
                                        up, up_cores = prefix[j], prefix_cores[j]
                                        break
                                assert up is not None and up_cores is not None
                                m = len(up)
                                cut = fixpoint_cut(up_cores)
                                if m < len(link_opts) - 1:
                                    cut.extend([0] * (len(link_opts) - 1 - m))
                                prefix[-1] = _propagate_one(
                                    [*up, *link_opts[m:]],
                                    [*up_cores, *[xi[2] for xi in link_infos[m:]]],
                                    unions,
                                    done_cores,
                                    cut,
                                )
                            done = prefix[-1]
                            assert done is not None  # the prefix has a realisation
                            if done_cores is None:
                                done_cores = prefix_cores[-1] = []
                                for d in done:
                                    common = -1
                                    for o in d:
                                        common &= o.both
                                    done_cores.append(common)
                            unions.append(li[3])
                            narrowed_cores = []
                            narrowed = _propagate_one(
                                [*done, opts],
                                [*done_cores, li[2]],
                                unions,
                                narrowed_cores,
                                fixpoint_cut(done_cores),
                            )
                            solved = None if narrowed is None else _greedy_route(narrowed)
                            if solved is None and narrowed is not None:
                                if once and not asked:
                                    asked = True
                                    blamed = learn_trio(opts, li, 0)
                                if not blamed:
                                    solved = _search_route(narrowed)
                        order = [*link_opts, opts]
                        if (
                            solved is None
                            and not blamed
                            and (asked or not learn_trio(opts, li, skey))
                            and once
                        ):
                            # no trio to blame: the set of links itself is the reason,
                            # refuting every sequence that holds them all (exact searches:
                            # a budgeted one is charged for the questions it asks)
                            m = skey
                            while m:
                                b = m & -m
                                trios.setdefault(b, []).append(skey ^ b)
                                m ^= b
                        solutions[skey] = (
                            None
                            if solved is None
                            else {id(x): w for x, w in zip(order, solved, strict=True)},
                            None
                            if narrowed is None
                            else {id(x): d for x, d in zip(order, narrowed, strict=True)},
                        )
                    if solved is None:
                        continue
                    saved = witness
                    witness = solved[:-1]
                    way = solved[-1]
                    new_track = new_passed = 0
                    for o in witness:
                        new_track |= o.track
                        new_passed |= o.stops
                else:
                    new_track, new_passed = track, passed
                prefix.append(narrowed)
                prefix_cores.append(narrowed_cores if narrowed is not None else None)
                route.append(other)
                link_opts.append(opts)
                link_set.append(link_set[-1] | li[4])
                link_infos.append(li)
                witness.append(way)
                on_route[other] = 1
                if g:
                    group_used.update(g)
                if row >= 0:
                    counts[row] += c
                lt, ls = li[0], li[1]
                extend(
                    raw + worth,
                    tok,
                    new_track | way.track,
                    new_passed | way.stops,
                    core_t | lt,
                    core_s | ls,
                    phase,
                )
                prefix.pop()
                prefix_cores.pop()
                if row >= 0:
                    counts[row] -= c
                if g:
                    group_used.difference_update(g)
                on_route[other] = 0
                witness.pop()
                link_opts.pop()
                link_infos.pop()
                link_set.pop()
                route.pop()
                if saved is not None:
                    witness = saved
                    # the earlier links keep their old ways, which fit the shorter sequence

        try:
            for start in self.roots:
                row = row_of[start]
                if row_limit:
                    if not kind_ok[start]:
                        continue
                    if row >= 0 and cost[start] > row_limit[row]:
                        continue
                if to_token[start] >= inf:
                    continue
                route.append(start)
                on_route[start] = 1
                group_used.update(groups[start])
                if row >= 0:
                    counts[row] += cost[start]
                extend(vals[start], token[start], 0, 0, 0, 0, 1 if once else 0)
                if row >= 0:
                    counts[row] -= cost[start]
                group_used.difference_update(groups[start])
                if not once:
                    on_route[start] = 0
                # (else the root stays out of later walks: a sequence is walked from its
                # first stop in this order, the best one)
                route.pop()
            on_route[:] = bytes(len(on_route))
        except _OutOfWork as stop:
            if not best_only:
                stop.partial = out
                raise
            # the budget ran out: the best route found so far (a legal one), if any
            route.clear()
            link_opts.clear()
            link_infos.clear()
            witness.clear()
        # stubs: a stop with the company's station and one chain to a free stop
        for x, stub in self.stubs.items():
            if not token[x] or vals[x] < need:
                continue
            opts = stub
            if avoid:
                # (kept in the memo: ``link_info`` remembers a tuple by its id, which a freed
                # tuple would hand on to the next one)
                found = ways.get((x, -1))
                if found is None:
                    found = ways[(x, -1)] = tuple(o for o in stub if not o.track & avoid)
                opts = found
            if not opts:
                continue
            route[:] = [x]
            link_opts[:] = [opts]
            link_infos[:] = [link_info(opts)]
            witness[:] = [opts[0]]
            record(vals[x])
            route.clear()
            link_opts.clear()
            link_infos.clear()
            witness.clear()
        extend = None  # type: ignore[assignment]  # (a reference cycle: freed now)
        if once and len(out) > 1:
            out.sort(key=old_order)
        if also is not None:
            self.also_found = None
            if collect and best:
                least = also(best[0].revenue)
                self.also_found = (least, [c for c in out if c.revenue >= least])
            elif too_many:
                self.also_found = (too_many, None)
        return best if best_only else out


def _has_partner(partners: Sequence[tuple[int, int]], least: int, track: int) -> bool:
    """Whether a route of ``partners`` ((revenue, core track), best first) earns at least
    ``least`` and runs on none of ``track``."""
    for revenue, core in partners:
        if revenue < least:
            return False
        if not core & track:
            return True
    return False


_START_LIST = 60  # ... and none when more routes than this are that good


_MAX_WAYS = 50000  # ways between stops beyond which the plain walk is used instead
