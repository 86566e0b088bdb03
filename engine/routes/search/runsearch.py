"""The best run of a company's trains (:class:`_RunSearch`): each train's best route, the
greedy run, the bounds, the candidate lists, then their combination.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence

from ferrovia.board.graph import TrackGraph
from ferrovia.routes.search.budget import Work, _Budget, _OutOfWork
from ferrovia.routes.search.chains import _ChainSet, _exits
from ferrovia.routes.search.clashes import _Meet
from ferrovia.routes.search.combine import _combine
from ferrovia.routes.search.enumerator import _Enumerator
from ferrovia.routes.search.records import _Candidate, _realise
from ferrovia.routes.search.sequences import _START_LIST, _LinkEnumerator
from ferrovia.routes.value import TrainSpec


class _RunSearch:
    """The best run of any subset of one company's trains (the steps in the module
    docstring), sharing every train's enumerator and best routes between subsets: with three
    or more trains, the optimum of the others bounds what one train's route must earn."""

    def __init__(
        self,
        graph: TrackGraph,
        chain_sets: Mapping[str, _ChainSet],
        enumerators: Mapping[TrainSpec, _Enumerator],
        limit: int | None,
        tops: dict[TrainSpec, list[_Candidate]] | None = None,
        work: Work | None = None,
    ) -> None:
        self.graph, self.chain_sets, self.enumerators, self.limit = (
            graph,
            chain_sets,
            enumerators,
            limit,
        )
        self.work = work  # the search's budget (None: exact)
        self.kind = {spec: i for i, spec in enumerate(enumerators)}
        #: each train's best route (shared by the searches over the same map)
        self.tops: dict[TrainSpec, list[_Candidate]] = {} if tops is None else tops
        #: every route worth at least a floor, best first (:meth:`_twin_starts`), by train
        self.good: dict[TrainSpec, tuple[int, list[_Candidate]]] = {}
        #: two identical trains: the routes listed by the walk of their best route
        #: (:meth:`_LinkEnumerator.run`'s ``also``), by train
        self.also: dict[TrainSpec, tuple[int, list[_Candidate] | None] | None] = {}
        #: exact searches: (train, avoided track) -> (threshold, its best route there)
        self.besides: dict[tuple[TrainSpec, int], tuple[int, list[_Candidate]]] = {}
        #: kinds -> (best run as routes in kind order, exact)
        self.solved: dict[tuple[int, ...], tuple[list[tuple[TrainSpec, _Candidate]], bool]] = {}

    def top(self, spec: TrainSpec) -> list[_Candidate]:
        """The train's best route (a list of one; empty if it has none)."""
        if spec not in self.tops:
            self.tops[spec] = self.enumerators[spec].run(1, best_only=True)
        return self.tops[spec]

    def _beside(self, spec: TrainSpec, avoid: int, threshold: int) -> list[_Candidate]:
        """The train's best route on none of ``avoid`` if worth ``threshold`` (a list of one,
        else empty).  An exact search remembers it: the first twin start is the best route,
        whose partner the greedy run has just looked for (:meth:`_twin_starts`); the best
        route avoiding some track is one route whatever the threshold it is looked for at,
        the first one of its revenue in the walk's order."""
        en = self.enumerators[spec]
        if self.work is not None:
            return en.run(threshold, best_only=True, avoid=avoid)
        known = self.besides.get((spec, avoid))
        if known is not None:
            least, found = known
            if found:
                return found if found[0].revenue >= threshold else []
            if threshold >= least:
                return []  # (none worth ``least``)
        found = en.run(threshold, best_only=True, avoid=avoid)
        self.besides[(spec, avoid)] = (threshold, found)
        return found

    def optimum(
        self, trains: Sequence[tuple[str, TrainSpec]]
    ) -> tuple[list[tuple[TrainSpec, _Candidate]], bool]:
        """(the routes of the best run, exact) of a subset of the trains, remembered by their
        kinds."""
        key = tuple(sorted(self.kind[spec] for _, spec in trains))
        if key not in self.solved:
            chosen, exact, _ = self.best(trains)
            spec_of = dict(trains)
            self.solved[key] = ([(spec_of[tid], c) for tid, c in chosen.items()], exact)
        return self.solved[key]

    @staticmethod
    def _assign(
        trains: Sequence[tuple[str, TrainSpec]], routes: Sequence[tuple[TrainSpec, _Candidate]]
    ) -> dict[str, _Candidate]:
        """A remembered run (routes of trains of these kinds) given to these trains."""
        free = list(trains)
        out: dict[str, _Candidate] = {}
        for spec, c in routes:
            i = next(i for i, (_, s) in enumerate(free) if s == spec)
            out[free.pop(i)[0]] = c
        return out

    def _greedy(
        self, trains: Sequence[tuple[str, TrainSpec]], kinds: list[TrainSpec]
    ) -> tuple[int, dict[str, _Candidate]]:
        """The best greedy run: each train its best route on track the others left, every
        order of the train kinds (at most 3 kinds run in 1858).  (Starting the first train
        from each of its 4-12 best routes lifted #979's 650 to 690 of 710, but cost more than
        it saved.)"""
        orders = itertools.permutations(kinds) if len(kinds) <= 3 else [tuple(kinds)]
        lower = 0
        greedy: dict[str, _Candidate] = {}
        work = self.work
        for kind_order in orders:
            if work is not None and work.ran_out and greedy:
                break  # out of work: the best greedy run so far
            rank = {spec: i for i, spec in enumerate(kind_order)}
            order = sorted(trains, key=lambda t: rank[t[1]])
            first_tid, first_spec = order[0]
            firsts: list[_Candidate | None] = list(self.top(first_spec)) or [None]
            for start in firsts:
                used = 0
                total = 0
                picks: dict[str, _Candidate] = {}
                if start is not None:
                    total, used, picks = start.revenue, start.mask, {first_tid: start}
                for k, (tid, spec) in enumerate(order[1:]):
                    if work is not None and work.exhausted:
                        work.grant(len(order) - 1 - k)  # each train left a share of the reserve
                    found = self._beside(spec, used, 1) if used else self.top(spec)
                    if found:
                        total += found[0].revenue
                        used |= found[0].mask
                        picks[tid] = found[0]
                if total > lower or not greedy:
                    lower, greedy = total, picks
        return lower, greedy

    def _twin_starts(
        self, trains: Sequence[tuple[str, TrainSpec]], lower: int, greedy: dict[str, _Candidate]
    ) -> tuple[int, dict[str, _Candidate]]:
        """Two identical trains: a better greedy run from a few of the best routes.  The best
        route often takes the track the second-best pair needs (7E+7E at random 1858 p6 seed
        7 #1717: 440 + 300 of an optimum 850), and the list the combination needs grows
        fast as ``lower`` falls (>= 311: 3,860 routes).  The starts are the routes within an
        eighth of the way from the best down to that list's threshold (at least 10 below
        it), at most ``_STARTS`` of them, none if more than ``_START_LIST``: on 12 slow
        7E+7E and 5E+5E searches of random 1858 p6 seeds 7 and 20, 5.2 s -> 3.4 s (a
        quarter: 3.9 s; a sixteenth, 4 starts: 4.6 s)."""
        (t1, spec), (t2, _) = trains
        en = self.enumerators[spec]
        top = self.top(spec)[0].revenue if self.top(spec) else 0
        low = lower + 1 - top  # the threshold of the list the combination would need
        if low >= top:
            return lower, greedy
        floor = top - max(10, (top - low) // _START_PART)
        listed = self.also.get(spec)
        # (the least revenue a route can have at or above the floor: 1858's are tens)
        least = -(-floor // en.step) * en.step if isinstance(en, _LinkEnumerator) else floor
        if listed is not None and listed[1] is None and least <= listed[0]:
            return lower, greedy  # (more than _START_LIST routes are worth the floor)
        if listed is not None and listed[1] is not None and least >= listed[0]:
            # (listed with the best route: every sequence worth at least ``listed[0]``, in the
            # walk's order, as :meth:`_LinkEnumerator.run` lists them)
            starts = [c for c in listed[1] if c.revenue >= floor]
            if len(starts) > _START_LIST:
                return lower, greedy
        else:
            try:
                starts = en.run(floor, limit=_START_LIST)
            except (_Budget, _OutOfWork):
                return lower, greedy
        starts.sort(key=lambda c: -c.revenue)
        self.good[spec] = (floor, starts)
        for r in starts[:_STARTS]:
            if r.revenue + top <= lower:
                break
            plain = _realise(r, r.witness) if r.links is not None else r
            found = self._beside(spec, plain.mask, lower + 1 - r.revenue)
            if found and r.revenue + found[0].revenue > lower:
                lower = r.revenue + found[0].revenue
                greedy = {t1: plain, t2: found[0]}
        return lower, greedy

    def best(
        self, trains: Sequence[tuple[str, TrainSpec]]
    ) -> tuple[dict[str, _Candidate], bool, int]:
        """(train id -> its route, exact, candidates considered)."""
        enumerators, limit = self.enumerators, self.limit
        if len(trains) == 2 and self.work is None:
            spec = trains[0][1]
            en = enumerators[spec]
            if trains[1][1] == spec and spec not in self.tops and isinstance(en, _LinkEnumerator):
                # the twin starts' list (:meth:`_twin_starts`) is walked with the best route:
                # the walk for the best route mostly proves that nothing beats it, and that
                # list's walk proved it again
                self.tops[spec] = en.run(1, best_only=True, also=_also_floor)
                self.also[spec] = en.also_found
        single = {spec: (self.top(spec)[0].revenue if self.top(spec) else 0) for _, spec in trains}
        # 2. a lower bound: greedily, each train its best route on track the others left,
        # from each of the first train's best routes; every order of the distinct train
        # kinds is tried (at most 3 kinds run in 1858).  The best route plus the best beside
        # it is often well below the optimum (#979: 650 of 710), and the lists grow as it
        # falls.
        kinds = list(dict.fromkeys(spec for _, spec in trains))
        sum_single = sum(single[spec] for _, spec in trains)
        lower = 0
        greedy: dict[str, _Candidate] = {}
        lower, greedy = self._greedy(trains, kinds)
        if self.work is not None and self.work.ran_out:
            return greedy, False, 0  # the budget ran out: the best greedy run found
        if lower >= sum_single:
            return greedy, True, 0  # every train earns its best: nothing can beat it
        if len(trains) == 2 and len(kinds) == 1:
            lower, greedy = self._twin_starts(trains, lower, greedy)
        # what the other trains can add at most, with one train of each kind left out: the
        # exact optimum of the others when there are two or more of them, else their best
        rest: dict[TrainSpec, int] = {}
        for spec in kinds:
            others = list(trains)
            left_out = others.pop(next(i for i, t in enumerate(others) if t[1] == spec))
            most = sum(single[s] for _, s in others)
            if len(others) > 1:
                routes, exact_others = self.optimum(others)
                total = sum(c.revenue for _, c in routes)
                if exact_others:
                    most = min(most, total)
                # and the others' best run plus this train's best route beside it is a run
                used = 0
                for _, c in routes:
                    used |= c.mask
                found = self._beside(spec, used, 1)
                if found and total + found[0].revenue > lower:
                    lower = total + found[0].revenue
                    greedy = self._assign(others, routes)
                    greedy[left_out[0]] = found[0]
            rest[spec] = most
        if self.work is not None and self.work.ran_out:
            return greedy, False, 0  # (the bounds above may be cut short)
        # 3. every route that can be part of a run worth at least `lower`
        by_spec: dict[TrainSpec, list[_Candidate]] = {}
        # two trains: the list-and-combine search (5-6) while the lists stay short (usually
        # fastest), else the pair search (7); both exact
        pair = len(trains) == 2 and not any(
            isinstance(enumerators[spec], _LinkEnumerator) for spec in kinds
        )
        cap = limit if not pair else min(limit, _PAIR_AFTER) if limit is not None else _PAIR_AFTER
        meet = _Meet(_exits(self.graph, self.chain_sets.values()))
        try:
            for spec in kinds:
                # no route below this can be part of a run worth more than `lower` (routes
                # worth exactly this only tie the incumbent: 7E+7E at random 1858 p6 seed 20
                # #1219 listed 3186 routes for >= 380, ... for >= 381)
                threshold = max(1, lower + 1 - rest[spec])
                left = None if cap is None else cap - sum(len(v) for v in by_spec.values())
                en = enumerators[spec]
                good = self.good.get(spec) if len(trains) == 2 and len(kinds) == 1 else None
                if good is not None and isinstance(en, _LinkEnumerator):
                    cands = en.run(
                        threshold,
                        limit=left,
                        partners=[(c.revenue, c.core) for c in good[1]],
                        floor=good[0],
                        target=lower + 1,
                    )
                else:
                    cands = en.run(threshold, limit=left)
                cands.sort(key=lambda c: -c.revenue)
                by_spec[spec] = cands

            def bound(tids: Sequence[str]) -> int | None:
                """The exact optimum of these trains, when there are several (else None)."""
                if len(tids) < 2:
                    return None
                sub = [t for t in trains if t[0] in tids]
                routes, exact_sub = self.optimum(sub)
                return sum(c.revenue for _, c in routes) if exact_sub else None

            chosen = _combine(
                [(tid, by_spec[spec]) for tid, spec in trains],
                lower,
                greedy,
                meet,
                bound,
                self.work,
            )
            exact = self.work is None or not self.work.ran_out
            return chosen, exact, sum(len(v) for v in by_spec.values())
        except _OutOfWork as stop:
            # the budget ran out listing: the best run of the routes listed so far (with the
            # reserve), at worst the greedy run -- they are legal, and often the optimum's
            if stop.partial is None or self.work is None:
                return greedy, False, 0
            by_spec[spec] = sorted(stop.partial, key=lambda c: -c.revenue)
            for other in kinds:
                by_spec.setdefault(other, list(self.top(other)))
            self.work.grant(1)
            chosen = _combine(
                [(tid, by_spec[s]) for tid, s in trains],
                lower,
                greedy,
                meet,
                None,
                self.work,
            )
            return chosen, False, sum(len(v) for v in by_spec.values())
        except _Budget:
            if pair and (limit is None or limit > _PAIR_AFTER):
                try:
                    chosen, considered = _pair_search(
                        trains, enumerators, single, lower, greedy, limit
                    )
                    return chosen, True, considered
                except (_Budget, _OutOfWork):
                    pass
            return greedy, False, 0


#: two trains: candidates listed before switching to the pair search (the combination of two
#: plain lists is fast: 1858_india p6 seed 2 #1537, 3M+4M, 20,499 candidates combined in
#: 0.1 s, where the pair search ran 8,280 single-train searches for 5.2 s)
_PAIR_AFTER = 200000
_STARTS = 8  # two identical trains: greedy runs from at most this many good routes,
_START_PART = 8  # ... those in the top eighth of the way down to the list's threshold,
_ALSO_PART = 20  # ... listed with the best route from its revenue less a twentieth down


def _also_floor(best: int) -> int:
    """The least a route is listed at beside the best route's walk for the twin starts
    (:meth:`_RunSearch.best`): at or below their floor, in steps of the revenues, unless the
    greedy run's partner earns under about three fifths of the best route, a little less
    with the steps (#979: 440 + 210, floor 412, listed >= 418: both >= 420 in tens; random
    1858 p6 seed 7 #1640: 450 + 390, floor 440, listed >= 428)."""
    return best - max(10, best // _ALSO_PART)


def _pair_search(
    trains: Sequence[tuple[str, TrainSpec]],
    enumerators: Mapping[TrainSpec, _Enumerator],
    single: Mapping[TrainSpec, int],
    lower: int,
    greedy: dict[str, _Candidate],
    limit: int | None,
) -> tuple[dict[str, _Candidate], int]:
    """The best run of two trains: for each route r1 of the first (best first), the second
    train's best route on the track r1 leaves (a single-train search with threshold "beats
    the best run found").  Identical trains: only pairs with rev(r1) >= rev(r2), so r1 needs
    at least half the best total.  Stops once rev(r1) + the second train's single best (or
    2 rev(r1) for identical trains) cannot beat the best run found."""
    (t1, s1), (t2, s2) = trains
    if s1 != s2 and single[s2] > single[s1]:
        (t1, s1), (t2, s2) = (t2, s2), (t1, s1)
    same = s1 == s2
    en1, en2 = enumerators[s1], enumerators[s2]
    best, chosen = lower, dict(greedy)
    floor = (lower + 2) // 2 if same else max(1, lower + 1 - single[s2])
    cands = en1.run(floor, limit=limit)
    cands.sort(key=lambda c: -c.revenue)
    for c in cands:
        cap = min(c.revenue, single[s2]) if same else single[s2]
        if c.revenue + cap <= best:
            break
        found = en2.run(best - c.revenue + 1, best_only=True, avoid=c.mask)
        if found and c.revenue + found[0].revenue > best:
            best = c.revenue + found[0].revenue
            chosen = {t1: c, t2: found[0]}
    return chosen, len(cands)
