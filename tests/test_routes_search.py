"""The optimal route search is exact: on random small maps it matches a brute force.

The brute force enumerates every stop-to-stop sequence of chains, asks the given-route checker
(:func:`ferrovia.routes.value.route_revenue`, itself checked against every recorded 18xx.games run)
for
each one's legality and revenue, and tries every combination of routes for the trains.
"""

from __future__ import annotations

import itertools

from ferrovia.board.graph import TrackGraph, build_graph, chains_from
from ferrovia.errors import IllegalAction
from ferrovia.notation import parse
from ferrovia.routes.search import best_routes
from ferrovia.routes.value import Route, TrainSpec, route_revenue
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

HEXES = ["A1", "A3", "A5", "B2", "B4", "B6", "C1", "C3", "C5"]

# high-degree tiles, so random rotations still make networks worth searching
TILES = [
    "path=a:0,b:3;path=a:1,b:4;path=a:2,b:5",
    "path=a:0,b:3;path=a:1,b:4,track:narrow;path=a:2,b:5,track:dual",
    "junction;path=a:0,b:_0;path=a:1,b:_0;path=a:3,b:_0;path=a:4,b:_0;path=a:5,b:_0",
    "path=a:0,b:1;path=a:2,b:3;path=a:4,b:5",
    "town=revenue:10;path=a:0,b:_0;path=a:_0,b:3;path=a:1,b:_0,track:dual;path=a:4,b:_0",
    "town=revenue:20;town=revenue:10;path=a:0,b:_0;path=a:_0,b:2;path=a:3,b:_1;path=a:_1,b:5",
    "city=revenue:20;path=a:0,b:_0;path=a:1,b:_0;path=a:3,b:_0;path=a:4,b:_0",
    "city=revenue:30,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;"
    "path=a:4,b:_0;path=a:5,b:_0",
    "city=revenue:30;path=a:0,b:_0,track:narrow;path=a:_0,b:3,track:dual;path=a:1,b:_0,"
    "track:narrow;path=a:2,b:_0",
    "city=revenue:50;path=a:0,b:_0;path=a:2,b:_0;path=a:4,b:_0",
    "city=revenue:40;city=revenue:10;path=a:0,b:_0;path=a:_0,b:3;path=a:1,b:_1;path=a:_1,b:4",
    "offboard=revenue:yellow_40|green_60,groups:France;path=a:0,b:_0,track:dual;"
    "path=a:3,b:_0,track:dual;path=a:1,b:_0,track:dual",
    "town=revenue:10;path=a:0,b:_0,track:narrow;path=a:_0,b:3,track:narrow;path=a:1,b:_0,"
    "track:narrow",
]

TRAINS = [
    TrainSpec.hexes("2H", 2),
    TrainSpec.hexes("4H", 4),
    TrainSpec.hexes("4H", 4).wounded(),
    TrainSpec.stops("2M", large=(2, 2), small=(99, 99), gauge="metre"),
    TrainSpec.stops("3E", large=(3, 3), small=(99, 0)),
    TrainSpec.stops("2D", large=(2, 2), small=(99, 0), multiplier=2),
]


@st.composite
def scenarios(draw: st.DrawFn) -> tuple[TrackGraph, dict[str, list[list[str | None]]], list]:  # type: ignore[type-arg]
    hexes = {h: (parse(draw(st.sampled_from(TILES))), draw(st.integers(0, 5))) for h in HEXES}
    g = build_graph(hexes)
    tokens: dict[str, list[list[str | None]]] = {}
    cities = [s for s in g.stops if s.kind == "city"]
    for s in cities:
        slots: list[str | None] = [None] * s.slots
        owner = draw(st.sampled_from(["X", "X", "Y", None]))
        if owner is not None:
            slots[0] = owner
        tokens.setdefault(s.hex, [])
        tokens[s.hex].append(slots)
    picks = draw(st.lists(st.integers(0, len(TRAINS) - 1), min_size=1, max_size=3))
    trains = [(f"T-{i}", TRAINS[k]) for i, k in enumerate(picks)]
    return g, tokens, trains


def brute_force_routes(
    g: TrackGraph,
    train: TrainSpec,
    tokens: dict[str, list[list[str | None]]],
    max_chains: int = 7,
) -> list[tuple[int, frozenset[int]]]:
    out: dict[tuple[frozenset[int], frozenset[int]], int] = {}
    skip = train.skip_track
    chains = {s.id: list(chains_from(g, s.id, skip)) for s in g.stops}

    def walk(stops: list[int], used: list) -> None:  # type: ignore[type-arg]
        if len(used) >= 1:
            route = Route(tuple(stops), tuple(used))
            try:
                value, _ = route_revenue(
                    g, route, train, phase=("yellow",), company="X", tokens=tokens
                )
            except IllegalAction:
                value = 0
            if value > 0:
                out[(frozenset(stops), frozenset(p for c in used for p in c.paths))] = value
        if len(used) >= max_chains:
            return
        for c in chains[stops[-1]]:
            if c.b in stops or any(c.keys & u.keys for u in used):
                continue
            walk([*stops, c.b], [*used, c])

    for s in g.stops:
        walk([s.id], [])
    keyed = []
    for (_, paths), value in out.items():
        keys = frozenset(k for p in paths for k in g.paths[p].keys)
        keyed.append((value, keys))
    return keyed


def brute_force_best(
    g: TrackGraph,
    trains: list[tuple[str, TrainSpec]],
    tokens: dict[str, list[list[str | None]]],
    max_chains: int = 7,
) -> int:
    """The best total of every combination of brute-forced routes (or none) per train that
    shares no track."""
    per_train = [brute_force_routes(g, spec, tokens, max_chains) for _, spec in trains]
    best = 0
    for combo in itertools.product(*[[None, *routes] for routes in per_train]):
        chosen = [c for c in combo if c is not None]
        keys = [k for _, k in chosen]
        if any(a & b for a, b in itertools.combinations(keys, 2)):
            continue
        best = max(best, sum(v for v, _ in chosen))
    return best


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_best_routes_matches_brute_force(scenario) -> None:  # type: ignore[no-untyped-def]
    g, tokens, trains = scenario
    best = brute_force_best(g, trains, tokens)
    found = best_routes(g, trains, phase=("yellow",), company="X", tokens=tokens)
    assert found.total == best
    # and what it returns is a legal run worth that much
    keys = [r.route.keys for r in found.routes]
    assert not any(a & b for a, b in itertools.combinations(keys, 2))
    specs = dict(trains)
    for r in found.routes:
        value, _ = route_revenue(
            g, r.route, specs[r.train], phase=("yellow",), company="X", tokens=tokens
        )
        assert value == r.revenue


@st.composite
def one_station_scenarios(
    draw: st.DrawFn,
) -> tuple[TrackGraph, dict[str, list[list[str | None]]], list]:  # type: ignore[type-arg]
    """Modelled on the slowest real turn (1858_game_end_bank #979): the company has one
    station and two long trains, so both routes must share that station's track."""
    hexes = {h: (parse(draw(st.sampled_from(TILES))), draw(st.integers(0, 5))) for h in HEXES}
    g = build_graph(hexes)
    cities = [s for s in g.stops if s.kind == "city"]
    tokens: dict[str, list[list[str | None]]] = {}
    home = draw(st.integers(0, max(0, len(cities) - 1)))
    for i, s in enumerate(cities):
        slots: list[str | None] = [None] * s.slots
        if i == home:
            slots[0] = "X"
        elif draw(st.booleans()):
            slots[0] = "Y"
        tokens.setdefault(s.hex, [])
        tokens[s.hex].append(slots)
    long_trains = [TrainSpec.stops("3E", large=(3, 3), small=(99, 0)), TrainSpec.hexes("4H", 4)]
    a = draw(st.sampled_from(long_trains))
    b = draw(st.sampled_from([a, *long_trains]))
    return g, tokens, [("T-0", a), ("T-1", b)]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(one_station_scenarios())
def test_two_long_trains_sharing_one_station(scenario) -> None:  # type: ignore[no-untyped-def]
    test_best_routes_matches_brute_force.hypothesis.inner_test(scenario)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.one_of(scenarios(), one_station_scenarios()))
def test_the_pair_search_and_the_plain_walk_fallbacks_are_exact(scenario) -> None:  # type: ignore[no-untyped-def]
    """The two paths real games rarely take: two plain trains whose candidate lists pass the
    switch to the pair search, and E/D trains in a town mesh too big to list its ways (they
    walk routes one by one).  Both limits are lowered here so small maps take them."""
    from unittest.mock import patch

    from ferrovia.routes.search import cache, runsearch, sequences

    with (
        patch.object(runsearch, "_PAIR_AFTER", 3),
        patch.object(sequences, "_MAX_WAYS", 2),
        patch.object(cache, "_PAIR_AFTER", 3),
        patch.object(cache, "_MAX_WAYS", 2),
    ):
        test_best_routes_matches_brute_force.hypothesis.inner_test(scenario)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scenarios())
def test_the_search_does_not_depend_on_memory_addresses(
    scenario: tuple[TrackGraph, dict[str, list[list[str | None]]], list],  # type: ignore[type-arg]
) -> None:
    # A seeded game must be the same game in every process: which train runs which of two
    # equal routes may not follow id() (a memory address), so the search gives the same
    # routes with id() reversed.
    import builtins
    import contextlib
    import pkgutil
    from importlib import import_module
    from unittest import mock

    import ferrovia.routes.search as rs
    from ferrovia.routes.search import cache

    g, tokens, drawn = scenario
    # two kinds that can run the same short routes: the ties this is about
    trains = [("T-a", TRAINS[1]), ("T-b", TRAINS[0]), *drawn]

    def run() -> list[tuple[str, tuple[int, ...], tuple[object, ...]]]:
        cache._RECENT.clear()
        cache._MAPS.clear()
        cache._LINK_SETS.clear()
        out = best_routes(g, trains, phase=["yellow", "green"], company="X", tokens=tokens)
        return [(r.train, r.route.stops, tuple(r.route.chains)) for r in out.routes]

    plain = run()
    # (every module of the search package: each calls id() itself)
    modules = [import_module(f"{rs.__name__}.{m.name}") for m in pkgutil.iter_modules(rs.__path__)]
    with contextlib.ExitStack() as patched:
        for module in modules:
            patched.enter_context(
                mock.patch.object(module, "id", lambda o: -builtins.id(o), create=True)
            )
        reversed_ids = run()
    assert reversed_ids == plain
