"""The entry point: :func:`best_routes` sets up the chain sets and enumerators of one search,
runs :class:`~ferrovia.routes.search.runsearch._RunSearch` and returns plain routes.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from ferrovia.board.graph import Tokens, TrackGraph
from ferrovia.routes.search.budget import Work, _Budget
from ferrovia.routes.search.cache import (
    _LINK_SETS,
    _MAPS,
    _MAPS_SIZE,
    _RECENT,
    _RECENT_SIZE,
    _map_inputs,
    _MapWork,
    _trim,
)
from ferrovia.routes.search.chains import _chain_set, _ChainSet
from ferrovia.routes.search.enumerator import _Enumerator
from ferrovia.routes.search.records import BestRoutes
from ferrovia.routes.search.runsearch import _RunSearch
from ferrovia.routes.search.sequences import _LinkEnumerator
from ferrovia.routes.value import (
    DEFAULT_ROUTE_RULES,
    Route,
    RouteResult,
    RouteRules,
    TrainSpec,
    paying_stops,
)


def best_routes(
    graph: TrackGraph,
    trains: Sequence[tuple[str, TrainSpec]],
    *,
    phase: Sequence[str],
    company: str,
    tokens: Tokens,
    rules: RouteRules = DEFAULT_ROUTE_RULES,
    limit: int | None = None,
    budget: int | None = None,
) -> BestRoutes:
    """The company's highest-earning legal run (exact; algorithm in the module docstring).

    ``trains``: (train id, spec) of every train the company may run now.  ``limit``: for
    callers that need any good legal run quickly (random play): when proving the optimum
    would list more than ``limit`` candidate routes, the best run found so far (at least the
    greedy one) is returned with ``exact=False``.  ``budget``: units of work (:class:`Work`,
    "Budget" in the module docstring; :data:`PLAY_BUDGET` for play); when they run out, the
    best legal run found so far, ``exact=False``.  Without either the result is always exact.
    """
    with _collector_paused():
        return _best_routes(graph, trains, phase, company, tokens, rules, limit, budget)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """No cyclic garbage collection while the search runs: everything it makes is freed by
    reference counting, and a collection pass in the middle of it walks the whole game's heap
    for nothing -- in a late game one pass costs 30-100 ms, most of a slow search's time."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _best_routes(
    graph: TrackGraph,
    trains: Sequence[tuple[str, TrainSpec]],
    phase: Sequence[str],
    company: str,
    tokens: Tokens,
    rules: RouteRules,
    limit: int | None,
    budget: int | None = None,
) -> BestRoutes:
    chain_sets: dict[str, _ChainSet] = {}
    bits: dict[int, int] = {}
    for _, spec in trains:
        family = "metre" if spec.gauge in ("metre", "narrow") else "broad"
        if family not in chain_sets:
            chain_sets[family] = _chain_set(graph, company, tokens, family, bits)
    where = _map_inputs(graph, chain_sets, phase, company, tokens, rules)
    # (a budgeted result depends on its inputs and budget alone: remembered like any other)
    key = (where, tuple(trains), limit) if budget is None else (where, tuple(trains), limit, budget)
    known = _RECENT.get(key)
    if known is not None:
        _RECENT.move_to_end(key)
        return known
    budgeted = None if budget is None else Work(budget)
    work = _MAPS.get(where)
    if budgeted is not None:
        # a budgeted search reuses no work of earlier searches (and leaves none): it must
        # stop at the same point, with the same routes found, whatever ran before it
        work = _MapWork(chain_sets)
    elif work is None:
        work = _MAPS[where] = _MapWork(chain_sets)
        if len(_MAPS) > _MAPS_SIZE:
            _MAPS.popitem(last=False)
        # the same chains with another station somewhere (distances and bounds change) still
        # have the same ways through a town mesh, and the same answers about them
        for cs in chain_sets.values():
            track = (tuple(cs.chains), tuple(cs.masks))
            links = _LINK_SETS.get(track)
            if links is None:
                _LINK_SETS[track] = cs.links
                if len(_LINK_SETS) > _MAPS_SIZE:
                    _LINK_SETS.popitem(last=False)
            else:
                _LINK_SETS.move_to_end(track)
                cs.links = links
                _trim(links)
    else:
        _MAPS.move_to_end(where)
        # the same chains (so the same track numbering): every table, way and answer the
        # earlier searches worked out still holds
        chain_sets = work.chain_sets
        for cs in chain_sets.values():
            _trim(cs.links)
    enumerators: dict[TrainSpec, _Enumerator] = {}
    for _, spec in trains:
        if spec in enumerators:
            continue
        en = work.enumerators.get(spec)
        if en is None:
            family = "metre" if spec.gauge in ("metre", "narrow") else "broad"
            en = _Enumerator(
                graph,
                chain_sets[family],
                spec,
                phase=phase,
                company=company,
                tokens=tokens,
                rules=rules,
            )
            free = _LinkEnumerator.free_stops(en)
            if free is not None:
                try:
                    en = _LinkEnumerator(en, free)
                except _Budget:
                    pass  # a mesh too big to list its ways: the plain walk
            en.work = budgeted
            work.enumerators[spec] = en
        enumerators[spec] = en
    search = _RunSearch(graph, chain_sets, enumerators, limit, work.tops, budgeted)
    chosen, exact, considered = search.best(trains)
    if budgeted is not None and budgeted.ran_out:
        exact = False  # (a train's best route, or a bound, may have been cut short)
    results = []
    for tid, spec in trains:
        c = chosen.get(tid)
        if c is None:
            continue
        family = "metre" if spec.gauge in ("metre", "narrow") else "broad"
        route = Route(c.stops, tuple(chain_sets[family].chains[i] for i in c.chains))
        paying = paying_stops(graph, c.stops, spec, phase, company, tokens)
        results.append(RouteResult(tid, c.revenue, route, paying))
    best = BestRoutes(tuple(results), sum(r.revenue for r in results), considered, exact)
    _RECENT[key] = best
    if len(_RECENT) > _RECENT_SIZE:
        _RECENT.popitem(last=False)
    return best
