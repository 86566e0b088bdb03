"""The link search of E and D trains (towns passed for free) is exact.

Its two parts are checked apart and together: choosing one way per link so that everything
fits (:func:`ferrovia.routes.search._solve`, with its propagation) against trying every choice,
and the
best run of trains that pass town meshes against the brute force of
``tests/test_routes_search.py``.
"""

from __future__ import annotations

import itertools
from collections import Counter

from ferrovia.board.graph import TrackGraph, build_graph
from ferrovia.notation import parse
from ferrovia.routes import search as rs
from ferrovia.routes.search import best_routes, cache, combine, csp, nogoods, sequences
from ferrovia.routes.search.chains import _chain_set
from ferrovia.routes.search.clashes import _clash_sets, _clashing, _columns
from ferrovia.routes.search.combine import _combine
from ferrovia.routes.search.csp import (
    _choose,
    _choose_route,
    _fit_beside,
    _propagate,
    _propagate_one,
    _solve,
)
from ferrovia.routes.search.enumerator import _Enumerator
from ferrovia.routes.search.nogoods import _Nogoods
from ferrovia.routes.search.records import _Candidate, _Option
from ferrovia.routes.search.sequences import _LinkEnumerator
from ferrovia.routes.value import DEFAULT_ROUTE_RULES, TrainSpec
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from tests.test_routes_search import HEXES, brute_force_best

Groups = list[tuple[int, tuple[_Option, ...]]]


def option(track: int, stops: int) -> _Option:
    return _Option(track, stops, (), (), -1, track | stops << 16)


@st.composite
def questions(draw: st.DrawFn) -> tuple[Groups, int]:
    """Links of up to three routes, each a few ways over 10 track keys and 5 towns."""
    groups: Groups = []
    for _ in range(draw(st.integers(1, 6))):
        slot = draw(st.integers(0, 2))
        ways = draw(
            st.lists(
                st.tuples(st.integers(1, (1 << 10) - 1), st.integers(0, (1 << 5) - 1)),
                min_size=1,
                max_size=5,
            )
        )
        groups.append((slot, tuple(option(t, s) for t, s in ways)))
    return groups, draw(st.integers(0, (1 << 10) - 1)) & draw(st.integers(0, (1 << 10) - 1))


def fits(groups: Groups, choice: tuple[_Option, ...], used: int) -> bool:
    """No track twice (nor over ``used``), no town twice within one route."""
    for _, a in zip(groups, choice, strict=True):
        if a.track & used:
            return False
    for (i, (slot_a, _)), (j, (slot_b, _)) in itertools.combinations(enumerate(groups), 2):
        a, b = choice[i], choice[j]
        if a.track & b.track or (slot_a == slot_b and a.stops & b.stops):
            return False
    return True


@settings(max_examples=400, deadline=None)
@given(questions())
def test_ways_are_chosen_exactly_and_propagation_keeps_every_answer(question) -> None:  # type: ignore[no-untyped-def]
    groups, used = question
    answers = [c for c in itertools.product(*(opts for _, opts in groups)) if fits(groups, c, used)]
    found = _solve(groups, used)
    assert (found is not None) == bool(answers)
    if found is not None:
        assert len(found) == len(groups)
        assert all(o in opts for o, (_, opts) in zip(found, groups, strict=True))
        assert fits(groups, tuple(found), used)
    kept = _propagate(groups, used)
    if answers:
        assert kept is not None
        for answer in answers:  # propagation only drops ways no answer uses
            assert all(o in d for o, d in zip(answer, kept, strict=True))


@st.composite
def route_questions(draw: st.DrawFn) -> list[tuple[_Option, ...]]:
    """The links of one route, each up to 8 ways over 8 track keys and 4 towns (crowded, so
    that the greedy pass often fails and the backtracking runs)."""
    return [draw(drawn_link(8)) for _ in range(draw(st.integers(1, 6)))]


def drawn_link(most: int) -> st.SearchStrategy[tuple[_Option, ...]]:
    """One link: 1 to ``most`` ways, each over some of 8 track keys and 4 towns."""
    return st.lists(
        st.tuples(st.integers(1, (1 << 8) - 1), st.integers(0, (1 << 4) - 1)),
        min_size=1,
        max_size=most,
    ).map(lambda ways: tuple(option(t, s) for t, s in ways))


@settings(max_examples=400, deadline=None)
@given(route_questions())
def test_one_routes_choice_is_the_general_ones(links) -> None:  # type: ignore[no-untyped-def]
    """:func:`_choose_route` (track and towns as one mask, failures keyed by one int)
    returns the very choice :func:`_choose` returns for one route -- the listing's
    realisation, and so what a budgeted search is charged, depends on it -- and, with
    :func:`_propagate_one` from a fixpoint (``cut``), the same domains as propagating every
    link afresh."""
    n = len(links)
    found = _choose_route(links)
    assert found == _choose([0] * n, [list(x) for x in links], 0)
    event("fits" if found is not None else "cannot fit")
    if n < 2:
        return
    whole = _propagate_one(list(links))
    # the links but the last propagated, then the last one added to that fixpoint
    cores: list[int] = []
    done = _propagate_one(list(links[:-1]), out_cores=cores)
    assume(done is not None)
    assert done is not None
    cut = [0] * n
    for i in range(n - 1):
        for j, c in enumerate(cores):
            if j != i:
                cut[i] |= c
    last_core = -1
    for o in links[-1]:
        last_core &= o.both
    unions = [-1] * n
    added = _propagate_one([*done, links[-1]], [*cores, last_core], unions, None, cut)
    if whole is None:
        assert added is None
    else:
        assert added is not None
        assert [list(d) for d in added] == [list(d) for d in whole]


def test_a_failed_branch_does_not_refute_one_whose_links_kept_more_ways() -> None:
    # taking track 1 for the third link leaves the first two only way 2 each (a failure);
    # taking 4 leaves them 1 and 2, which fit: the backtracking must not reuse the failure
    a = (option(1, 0), option(1, 0), option(2, 0))
    groups: Groups = [(0, a), (0, a), (0, (option(1, 0), option(4, 0)))]
    found = _solve(groups, 0)
    assert found is not None
    assert fits(groups, tuple(found), 0)


# town meshes: towns with three and four exits, double towns, and a few cities
MESH_TILES = [
    "town=revenue:10;path=a:0,b:_0;path=a:_0,b:3;path=a:1,b:_0;path=a:4,b:_0",
    "town=revenue:20;path=a:0,b:_0;path=a:2,b:_0;path=a:4,b:_0",
    "town=revenue:10;town=revenue:10;path=a:0,b:_0;path=a:_0,b:2;path=a:3,b:_1;path=a:_1,b:5",
    "path=a:0,b:3;path=a:1,b:4;path=a:2,b:5",
    "city=revenue:30,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0;"
    "path=a:4,b:_0;path=a:5,b:_0",
    "city=revenue:50;path=a:0,b:_0;path=a:2,b:_0;path=a:4,b:_0",
    "offboard=revenue:yellow_40|green_60,groups:France;path=a:0,b:_0;path=a:3,b:_0",
]
MESH_TRAINS = [
    TrainSpec.stops("2E", large=(2, 2), small=(99, 0)),
    TrainSpec.stops("3E", large=(3, 3), small=(99, 0)),
    TrainSpec.stops("2D", large=(2, 2), small=(99, 0), multiplier=2),
]


def _stations(
    draw: st.DrawFn, g: TrackGraph, holders: list[str | None]
) -> dict[str, list[list[str | None]]]:
    """Station spaces of every city of ``g``, the first slot held by one of ``holders``
    (drawn; None leaves it free), the others free."""
    tokens: dict[str, list[list[str | None]]] = {}
    for s in g.stops:
        if s.kind == "city":
            slots: list[str | None] = [None] * s.slots
            slots[0] = draw(st.sampled_from(holders))
            tokens.setdefault(s.hex, []).append(slots)
    return tokens


@st.composite
def meshes(draw: st.DrawFn) -> tuple[TrackGraph, dict[str, list[list[str | None]]], list]:  # type: ignore[type-arg]
    weights = [3, 3, 2, 1, 2, 1, 1]
    pool = [t for t, w in zip(MESH_TILES, weights, strict=True) for _ in range(w)]
    hexes = {h: (parse(draw(st.sampled_from(pool))), draw(st.integers(0, 5))) for h in HEXES}
    g = build_graph(hexes)
    tokens = _stations(draw, g, ["X", "X", "Y", None])
    # mostly two trains: their routes compete for the ways through the mesh
    n = draw(st.sampled_from([1, 2, 2, 2]))
    picks = draw(st.lists(st.sampled_from(MESH_TRAINS), min_size=n, max_size=n))
    return g, tokens, [(f"T-{i}", spec) for i, spec in enumerate(picks)]


def _link_lists(g, tokens, spec):  # type: ignore[no-untyped-def]
    """The chain set, the plain enumerator and the free stops of ``spec`` from X's tokens on
    a mesh whose stops the link lists can take (else the example is not one to test)."""
    cs = _chain_set(g, "X", tokens, "broad", {})
    base = _Enumerator(
        g, cs, spec, phase=("yellow",), company="X", tokens=tokens, rules=DEFAULT_ROUTE_RULES
    )
    free = _LinkEnumerator.free_stops(base)
    assume(free is not None)
    assert free is not None
    return cs, base, free


def _search_equals_brute_force(g, tokens, trains):  # type: ignore[no-untyped-def]
    """The search's best run on a mesh where the link search really runs (the company reaches
    a town for free): worth the brute force's optimum, its routes on disjoint track."""
    cs = _chain_set(g, "X", tokens, "broad", {})
    en = _Enumerator(
        g,
        cs,
        trains[0][1],
        phase=("yellow",),
        company="X",
        tokens=tokens,
        rules=DEFAULT_ROUTE_RULES,
    )
    assume(_LinkEnumerator.free_stops(en) is not None)
    best = brute_force_best(g, trains, tokens, max_chains=12)
    found = best_routes(g, trains, phase=("yellow",), company="X", tokens=tokens)
    assert found.total == best
    keys = [r.route.keys for r in found.routes]
    assert not any(a & b for a, b in itertools.combinations(keys, 2))
    return found


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(meshes())
def test_trains_through_town_meshes_match_brute_force(scenario) -> None:  # type: ignore[no-untyped-def]
    g, tokens, trains = scenario
    found = _search_equals_brute_force(g, tokens, trains)
    towns = sum(g.stops[s].kind == "town" for r in found.routes for s in r.route.stops)
    event(f"{len(found.routes)} routes, {'passing towns' if towns else 'no towns'}")


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(meshes(), st.sampled_from(MESH_TRAINS[:2]))
def test_identical_trains_through_town_meshes_match_brute_force(scenario, spec) -> None:  # type: ignore[no-untyped-def]
    """Two identical trains list a sequence that needs a partner among the good routes
    (:meth:`_RunSearch._twin_starts`' list) only if one of them avoids its core: that cut must
    keep the optimum."""
    g, tokens, _ = scenario
    _search_equals_brute_force(g, tokens, [("T-0", spec), ("T-1", spec)])


@settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(meshes(), st.sampled_from(MESH_TRAINS), st.data())
def test_the_partner_cut_keeps_every_sequence_with_a_partner(scenario, spec, data) -> None:  # type: ignore[no-untyped-def]
    """A list cut by ``partners`` (every sequence worth at least ``floor``) keeps each
    sequence that has a partner worth ``target`` minus it whose core avoids its core, and
    adds none."""
    g, tokens, _ = scenario
    _, base, free = _link_lists(g, tokens, spec)
    full = _LinkEnumerator(base, free).run(1)
    assume(len(full) > 1)
    revenues = sorted({c.revenue for c in full})
    floor = data.draw(st.sampled_from(revenues))
    # (cuts happen when a partner must earn at least the floor: target - bound >= floor)
    target = data.draw(st.integers(floor + revenues[0], floor + revenues[-1] + 10))
    en = _LinkEnumerator(base, free)
    good = sorted(en.run(floor), key=lambda c: -c.revenue)
    cut = en.run(1, partners=[(c.revenue, c.core) for c in good], floor=floor, target=target)
    key = lambda c: (c.stops, c.revenue, c.core)  # noqa: E731
    kept = Counter(map(key, cut))
    assert not kept - Counter(map(key, full))
    for c in full:
        if any(p.revenue >= target - c.revenue and not p.core & c.core for p in good):
            assert kept[key(c)], c
    event("cut some" if len(cut) < len(full) else "cut none")


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(meshes(), st.sampled_from(MESH_TRAINS), st.sampled_from(MESH_TRAINS), st.data())
def test_searches_sharing_an_earlier_searchs_work_find_what_a_fresh_one_finds(  # type: ignore[no-untyped-def]
    scenario, a, b, data
) -> None:
    """A search over the map of an earlier one reuses its work (:class:`_MapWork`: enumerators,
    best routes, links with their answers), and one over the same chains with another
    station reuses its links: each finds the run a search with every cache empty finds."""
    g, tokens, _ = scenario
    # another company fills a city without X's station: often the same chains, but a stop
    # that now blocks X (the work of the first map must not be taken for the second)
    other = {h: [list(slots) for slots in cities] for h, cities in tokens.items()}
    open_cities = [(h, i) for h, cs in other.items() for i, c in enumerate(cs) if "X" not in c]
    if open_cities:
        h, i = data.draw(st.sampled_from(open_cities))
        other[h][i] = ["Y"] * len(other[h][i])
    # ... or takes a free slot where one stays free: nothing X's search reads changes
    roomy = {h: [list(slots) for slots in cities] for h, cities in tokens.items()}
    free_slots = [
        (h, i, c.index(None))
        for h, cs in roomy.items()
        for i, c in enumerate(cs)
        if c.count(None) > 1
    ]
    if free_slots:
        h, i, j = data.draw(st.sampled_from(free_slots))
        roomy[h][i][j] = "Y"
    # ... and a later phase: the same chains, other values (France pays 60)
    runs = [
        (tokens, ("yellow",), [("T-0", a)]),
        (tokens, ("yellow",), [("T-0", a), ("T-1", b)]),
        (roomy, ("yellow",), [("T-0", a), ("T-1", b)]),
        (other, ("yellow",), [("T-0", b), ("T-1", b)]),
        (tokens, ("green",), [("T-0", b), ("T-1", b)]),
        (tokens, ("yellow",), [("T-0", b), ("T-1", a)]),
    ]

    def search(toks, phase, trains):  # type: ignore[no-untyped-def]
        cache._RECENT.clear()  # (a repeat would not search at all)
        return best_routes(g, trains, phase=phase, company="X", tokens=toks)

    cache._MAPS.clear()
    cache._LINK_SETS.clear()
    warm = [search(*run) for run in runs]
    shared = len(cache._MAPS) < len(runs) or len(cache._LINK_SETS) < len(runs)
    for run, found in zip(runs, warm, strict=True):
        cache._MAPS.clear()
        cache._LINK_SETS.clear()
        fresh = search(*run)
        assert found.total == fresh.total
        keys = [r.route.keys for r in found.routes]
        assert not any(x & y for x, y in itertools.combinations(keys, 2))
    event("work shared" if shared else "nothing shared")


def test_identical_trains_may_run_one_sequence_by_two_ways() -> None:
    """Two routes with the same stops are two routes when their ways differ: identical
    trains may both take one sequence, and the combination gives each its own ways."""
    a = _Option(0b001, 0, (0,), (), 0, 0b001)
    b = _Option(0b010, 0, (1,), (), 0, 0b010)
    both = _Option(0b011, 0, (2,), (), 0, 0b011)  # the first way found, in the way of both
    seq = _Candidate((0, 1), (2,), both.track, 50, links=((both, a, b),), witness=(both,))
    runs = [seq]
    chosen = _combine([("T-0", runs), ("T-1", runs)], 0, {})
    assert sorted(c.chains for c in chosen.values()) == [(0,), (1,)]
    assert sum(c.revenue for c in chosen.values()) == 100


def test_a_taken_sequence_clashes_by_its_core_as_propagated(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A sequence's core as listed is what every way of each link uses on its own; its ways
    propagated together can use more (here the second link's first way runs over the first
    link's track, so the second link runs by its other way): a route over that track cannot
    run beside it, one beside every way of it can."""
    one = _Option(0b0001, 0, (0,), (), 0, 0b0001)
    over = _Option(0b1001, 0, (1,), (), 1, 0b1001)  # over the first link's track
    other = _Option(0b0110, 0, (2,), (), 1, 0b0110)
    seq = _Candidate(
        (0, 1, 2),
        (0, 2),
        0b0111,
        50,
        links=((one,), (over, other)),
        witness=(one, other),
        core=0b0001,  # as listed: the second link's two ways share no track
    )
    on_core = _Candidate((5, 6), (7,), 0b0100, 40)  # only over the propagated core
    beside = _Candidate((7, 8), (8,), 0b1000, 20)  # over a way the sequence never runs by
    runs = [seq, on_core, beside]
    asked: list[object] = []
    solve = csp._solve
    for module in (combine, nogoods):  # (the modules that ask joint questions)
        monkeypatch.setattr(module, "_solve", lambda *a: asked.append(a) or solve(*a))
    chosen = _combine([("T-0", runs), ("T-1", runs)], 0, {})
    assert sorted(c.revenue for c in chosen.values()) == [20, 50]
    assert not asked  # the route over the propagated core was refuted without a question


def test_a_route_over_every_way_of_a_taken_link_is_refuted_without_a_question(
    monkeypatch,
) -> None:  # type: ignore[no-untyped-def]
    """A route whose track meets every way of a link of the sequence taken cannot run beside
    it, though it avoids the sequence's core: refuted before any joint question."""
    left = _Option(0b0001, 0, (0,), (), 0, 0b0001)
    right = _Option(0b0010, 0, (1,), (), 0, 0b0010)
    only = _Option(0b1000, 0, (2,), (), 1, 0b1000)  # (so the sequence cannot run twice)
    seq = _Candidate(
        (0, 1, 2),
        (0, 2),
        0b1001,
        50,
        links=((left, right), (only,)),
        witness=(left, only),
        core=0b1000,
    )
    across = _Candidate((5, 6), (7,), 0b0011, 40)  # over both ways
    beside = _Candidate((7, 8), (8,), 0b0100, 20)
    runs = [seq, across, beside]
    asked: list[object] = []
    solve = csp._solve
    for module in (combine, nogoods):  # (the modules that ask joint questions)
        monkeypatch.setattr(module, "_solve", lambda *a: asked.append(a) or solve(*a))
    chosen = _combine([("T-0", runs), ("T-1", runs)], 0, {})
    assert sorted(c.revenue for c in chosen.values()) == [20, 50]
    assert not asked


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, (1 << 200) - 1) | st.integers(0, 40), max_size=30))
def test_columns_transpose_the_rows(rows) -> None:  # type: ignore[no-untyped-def]
    """:func:`_columns` (the index's sets, transposed as text) sets bit k of a bit's set
    exactly when row k has the bit."""
    expected: dict[int, int] = {}
    for k, m in enumerate(rows):
        for b in range(m.bit_length()):
            if m >> b & 1:
                expected[1 << b] = expected.get(1 << b, 0) | 1 << k
    assert _columns(rows) == expected


link_ways = st.lists(
    st.tuples(st.integers(1, (1 << 10) - 1), st.integers(0, (1 << 4) - 1)).map(
        lambda ts: option(*ts)
    ),
    min_size=1,
    max_size=14,
)


@settings(max_examples=300, deadline=None)
@given(link_ways, link_ways, link_ways)
def test_a_link_beside_two_others_fits_as_trying_every_choice(xs, ys, zs) -> None:  # type: ignore[no-untyped-def]
    """:func:`_fit_beside`: a way of ``xs`` (one route) clear of the track of a way of ``ys``
    and one of ``zs`` (another route, so those two share neither track nor towns) -- or None
    when the scan would be too long for it."""
    found = _fit_beside(xs, ys, zs)
    every = any(
        not o.track & p.track and not o.track & q.track and not p.both & q.both
        for o in xs
        for p in ys
        for q in zs
    )
    if found is None:
        event("left to the CSP")
    else:
        assert found == every
        event("fits" if found else "cannot fit")


def assert_reasons_impossible(nogoods: _Nogoods) -> None:
    """Every reason ``nogoods`` learnt is a pair or trio of links no choice of ways fits."""
    ways = nogoods.ways
    for x, mask in nogoods.pair.items():
        for y in range(len(ways)):
            if mask >> y & 1:
                assert _solve([(0, ways[x]), (1, ways[y])]) is None
    for x, masks in nogoods.triple.items():
        for m in masks:
            y, z = (i for i in range(len(ways)) if m >> i & 1)
            assert _solve([(0, ways[x]), (1, ways[y]), (1, ways[z])]) is None


@st.composite
def route_pairs(draw: st.DrawFn) -> list[tuple[tuple[tuple[_Option, ...], ...], ...]]:
    """Pairs of routes drawn from one pool of links (as in a combination, where the same links
    recur in many candidates), each link a few ways over 8 track keys and 4 towns."""
    pool = [draw(drawn_link(3)) for _ in range(draw(st.integers(2, 7)))]
    route = st.lists(st.sampled_from(pool), min_size=1, max_size=3, unique_by=id).map(tuple)
    return draw(st.lists(st.tuples(route, route), min_size=1, max_size=12))


@settings(max_examples=300, deadline=None)
@given(route_pairs())
def test_learnt_reasons_only_refute_pairs_that_cannot_fit(pairs) -> None:  # type: ignore[no-untyped-def]
    """What :class:`_Nogoods` learns from one failed pair refutes later pairs exactly: never
    one that has a choice of ways, and each reason it keeps is itself impossible.  The
    routes' witnesses (one way of running each) only skip questions that fit: the reasons
    are those learnt without them (every way said to cross every witness way)."""
    nogoods = _Nogoods()
    blind = _Nogoods()
    for n, (one, other) in enumerate(pairs):
        # (a listed route runs on its own: its witness is one way of running it)
        seen_a, seen_b = (_solve([(0, opts) for opts in r]) for r in (one, other))
        if seen_a is None or seen_b is None:
            continue
        groups = [(0, opts) for opts in one] + [(1, opts) for opts in other]
        answers = [c for c in itertools.product(*(o for _, o in groups)) if fits(groups, c, 0)]
        a = nogoods.links(2 * n, one)
        b = nogoods.links(2 * n + 1, other)
        blind_a, blind_b = blind.links(2 * n, one), blind.links(2 * n + 1, other)
        if nogoods.refutes(a, b):
            assert not answers
            event("refuted by a learnt reason")
        elif not answers:
            nogoods.learn(a, b, [o.track for o in seen_a], [o.track for o in seen_b])
            blind.learn(blind_a, blind_b, [-1] * len(one), [-1] * len(other))
            assert (nogoods.pair, nogoods.triple) == (blind.pair, blind.triple)
    assert_reasons_impossible(nogoods)


@settings(max_examples=300, deadline=None)
@given(route_pairs())
def test_nogoods_fit_answers_as_trying_every_choice(pairs) -> None:  # type: ignore[no-untyped-def]
    """The shortcuts of ``_Nogoods._fit`` (unions apart, cores crossing, a way clear of two
    links) answer as trying every choice does, for a link beside one or two of another route
    -- two that route can run together, as the links of a listed route always can."""
    nogoods = _Nogoods()
    for n, (one, other) in enumerate(pairs):
        nogoods.links(2 * n, one)
        nogoods.links(2 * n + 1, other)
    ways = nogoods.ways
    for x, y in itertools.product(range(len(ways)), repeat=2):
        groups = [(0, ways[x]), (1, ways[y])]
        every = any(fits(groups, c, 0) for c in itertools.product(ways[x], ways[y]))
        assert nogoods._fit(x, y) == every
        for z in range(len(ways)):
            if z == y or _solve([(1, ways[y]), (1, ways[z])]) is None:
                continue
            groups = [(0, ways[x]), (1, ways[y]), (1, ways[z])]
            every = any(fits(groups, c, 0) for c in itertools.product(*(w for _, w in groups)))
            assert nogoods._fit(x, y, z) == every
            event("fits" if every else "cannot fit")


@settings(max_examples=300, deadline=None)
@given(route_pairs())
def test_reasons_seen_in_the_cores_alone_are_exact(pairs) -> None:  # type: ignore[no-untyped-def]
    """``_Nogoods.quick`` says two routes cannot fit only when no choice of ways fits, and
    keeps a reason that refutes them (and, by the learnt reasons test, only impossible ones);
    a link of one every way of which runs over another's core is always seen."""
    nogoods = _Nogoods()
    for n, (one, other) in enumerate(pairs):
        groups = [(0, opts) for opts in one] + [(1, opts) for opts in other]
        answers = [c for c in itertools.product(*(o for _, o in groups)) if fits(groups, c, 0)]
        a = nogoods.links(2 * n, one)
        b = nogoods.links(2 * n + 1, other)
        pinned = any(
            all(o.track & nogoods.core[y] for o in nogoods.ways[x])
            for p, q in ((a, b), (b, a))
            for x in p[1]
            for y in q[1]
        )
        if nogoods.quick(a, b):
            assert not answers
            assert nogoods.refutes(a, b)
            event("a reason in the cores")
        else:
            assert not pinned
    assert_reasons_impossible(nogoods)


routes_masks = st.tuples(
    st.booleans(),  # a sequence (its core is read) or a plain route (its track)
    st.integers(0, (1 << 12) - 1),  # core or track
    st.integers(0, (1 << 6) - 1),  # touch
    st.integers(0, (1 << 6) - 1),  # through
    st.integers(0, (1 << 6) - 1),  # hit
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(routes_masks, min_size=1, max_size=40),
    routes_masks,
    st.integers(0, 63),
    st.integers(0, 63),
)
def test_clash_sets_answer_as_the_pair_tests(cands, taken, few, three) -> None:  # type: ignore[no-untyped-def]
    """The candidates ``_clashing`` marks against a taken route are exactly those the two
    cheap pair tests of the combination refute: cores crossing, or the pigeonhole at stops
    (a hit stop touched, a touched stop hit, both passing through a stop of three exits)."""

    def made(seq: bool, track: int) -> _Candidate:
        if seq:
            return _Candidate((), (), 0, 1, links=(), core=track)
        return _Candidate((), (), track, 1)

    lst = [made(seq, track) for seq, track, *_ in cands]
    meets = {id(c): tuple(m[2:]) for c, m in zip(lst, cands, strict=True)}
    # hits only at stops of one or two exits (``few``), as :class:`_Meet` makes them
    meets = {k: (t, th, h & few & ~three) for k, (t, th, h) in meets.items()}
    sets = _clash_sets(lst, lambda c: meets[id(c)], few & ~three, three)  # type: ignore[arg-type]
    _, t_core, t_touch, t_through, t_hit = taken
    t_hit &= few & ~three
    found = _clashing(sets, t_core, (t_touch, t_through, t_hit), three)
    # (the part of a core is remembered: asked again, with other stops, the same answer)
    assert _clashing(sets, t_core, (0, 0, 0), 0) == _clashing(sets, t_core, (0, 0, 0), 0)
    assert found == _clashing(sets, t_core, (t_touch, t_through, t_hit), three)
    for k, (_, core, touch, through, hit) in enumerate(cands):
        hit &= few & ~three
        refuted = bool(
            core & t_core or hit & t_touch or touch & t_hit or through & t_through & three
        )
        assert bool(found >> k & 1) == refuted
        event("refuted" if refuted else "kept")
    assert found >> len(cands) == 0


@st.composite
def wide_meshes(draw: st.DrawFn) -> tuple[TrackGraph, dict[str, list[list[str | None]]]]:
    """A wider town mesh with more cities than :func:`meshes` (no brute force runs on it),
    so that long trains' sequences have several links."""
    weights = [3, 2, 2, 1, 3, 2, 1]
    pool = [t for t, w in zip(MESH_TILES, weights, strict=True) for _ in range(w)]
    hexes = [f"{r}{c + (i % 2)}" for i, r in enumerate("ABCD") for c in (1, 3, 5, 7)]
    tiles = {h: (parse(draw(st.sampled_from(pool))), draw(st.integers(0, 5))) for h in hexes}
    g = build_graph(tiles)
    return g, _stations(draw, g, ["X", "Y", None, None])


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    wide_meshes(),
    st.sampled_from([TrainSpec.stops(f"{n}E", large=(n, n), small=(99, 0)) for n in (3, 4, 6)]),
    st.data(),
)
def test_a_list_does_not_depend_on_what_earlier_runs_remembered(scenario, spec, data) -> None:  # type: ignore[no-untyped-def]
    """The runs of one search share what they learnt about links (solved sequences, and
    sequences refuted by a cheap proof): a list after other runs -- the best route, lists
    at other thresholds -- is the list a fresh enumerator gives."""
    g, tokens = scenario
    cs, base, free = _link_lists(g, tokens, spec)
    threshold = data.draw(st.integers(1, 60))
    # (a sequence's ways and core depend on how it was solved: propagated or not)
    key = lambda c: (c.stops, c.revenue)  # noqa: E731
    fresh = Counter(map(key, _LinkEnumerator(base, free).run(threshold)))
    cs.links.clear()  # (links and what was learnt about them are kept per chain set)
    warm = _LinkEnumerator(base, free)
    warm.run(1, best_only=True)
    for t in data.draw(st.lists(st.integers(1, 60), max_size=3)):
        warm.run(t)
    assert Counter(map(key, warm.run(threshold))) == fresh
    event("warm" if any(warm.memo.values()) else "nothing remembered")


@settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    wide_meshes(),
    st.sampled_from(
        [TrainSpec.stops(f"{n}E", large=(n, n), small=(99, 0)) for n in (2, 3, 4, 6)]
        + [TrainSpec.stops("4D", large=(4, 4), small=(99, 0), multiplier=2)]
    ),
    st.data(),
)
def test_the_exact_walk_lists_what_the_walk_from_both_ends_lists(scenario, spec, data) -> None:  # type: ignore[no-untyped-def]
    """An exact search walks each sequence once, from its first stop in the roots' order,
    growing one end and then the other; a budgeted one walks it from both ends and keeps it
    from its lower end.  Both find the same best revenue and list the same sequences.  (The
    twins' partner cut may keep other extra sequences: its bound differs; what it must keep
    is checked above.)"""
    g, tokens = scenario
    cs, base, free = _link_lists(g, tokens, spec)
    key = lambda c: (c.stops, c.revenue)  # noqa: E731

    def walks() -> tuple[_LinkEnumerator, _LinkEnumerator]:
        cs.links.clear()  # (each cold: nothing learnt by the other)
        once = _LinkEnumerator(base, free)
        cs.links.clear()
        both = _LinkEnumerator(base, free)
        both.work = rs.Work(1 << 40)  # (never runs out: the full walk of a budgeted search)
        return once, both

    once, both = walks()
    best = [[c.revenue for c in en.run(1, best_only=True)] for en in (once, both)]
    assert best[0] == best[1]
    threshold = data.draw(st.integers(1, 60))
    listed = [Counter(map(key, en.run(threshold))) for en in (once, both)]
    assert listed[0] == listed[1]
    event("listed some" if listed[0] else "listed none")


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(
    wide_meshes(),
    st.sampled_from([TrainSpec.stops(f"{n}E", large=(n, n), small=(99, 0)) for n in (3, 4, 6)]),
    st.integers(0, 40),
    st.sampled_from([2, 5, 60]),
)
def test_the_best_routes_walk_lists_what_a_list_at_its_floor_lists(
    scenario, spec, below, many
) -> None:  # type: ignore[no-untyped-def]
    """An exact best-route walk that also lists every sequence worth at least ``also`` of
    the best so far (two identical trains' starts, :meth:`_RunSearch.best`) finds the best
    route a plain best-route walk finds (the same route, ways and all: the greedy run starts
    from it), and lists what a list at ``also`` of that route lists, in the same order, as
    the same candidates -- or a revenue more than ``_START_LIST`` sequences earn."""
    g, tokens = scenario
    cs, base, free = _link_lists(g, tokens, spec)
    also = lambda v: v - below  # noqa: E731
    cs.links.clear()
    walk = _LinkEnumerator(base, free)
    # (a few: the walk stops listing sooner)
    saved, sequences._START_LIST = sequences._START_LIST, many
    try:
        best = walk.run(1, best_only=True, also=also)
    finally:
        sequences._START_LIST = saved
    cs.links.clear()
    plain = _LinkEnumerator(base, free).run(1, best_only=True)
    assert best == plain
    if not best:
        return
    assert walk.also_found is not None
    least, found = walk.also_found
    cs.links.clear()
    listed = _LinkEnumerator(base, free).run(least)
    if found is None:
        assert len(listed) > many
        event("too many listed")
        return
    assert (least, found) == (also(best[0].revenue), listed)
    event(f"{len(listed)} listed")
