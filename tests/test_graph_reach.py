"""Reach (:func:`ferrovia.board.graph.reachable`) finds exactly what the plain 18xx.games walk
finds.

The walk itself is kept as the slow oracle in ``reach_oracle.py``; fast reach must agree with
it on every random board (real tiles of 1858, preprinted hexes included, any rotation, tokens
of three companies) and on the boards of a real game as it went.
"""

from __future__ import annotations

import functools
from typing import Any
from unittest import mock

import pytest
from conftest import shared_path
from ferrovia.board import hexmap
from ferrovia.board.graph import (
    WALK_STATS,
    Reach,
    TrackGraph,
    blocks,
    build_graph,
    passable_stops,
    reach_bound,
    reach_by_matching,
    reachable,
    reached_edges,
    reaches_stop,
    runs_into,
)
from ferrovia.board.graph.matching import _augmenting
from ferrovia.data.definition import load_game
from ferrovia.notation import parse
from ferrovia.notation.models import City, Edge, NodeRef, Tile, Town
from ferrovia.paths import gamedata_root
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reach_oracle import walk_reachable

# a 7 x 7 patch of a flat map: every coordinate whose letter and number differ in parity
REGION = [f"{letter}{n}" for i, letter in enumerate("ABCDEFG") for n in range(1, 14) if (i + n) % 2]

#: switches (two paths leaving by one side) and a terminal offboard, besides the game's tiles
EXTRA_CODES = (
    "path=a:0,b:2;path=a:0,b:4",
    "path=a:0,b:3;path=a:0,b:2;path=a:3,b:5",
    "path=a:0,b:3,track:dual;path=a:0,b:1,track:narrow",
    "offboard=revenue:30;path=a:0,b:_0,terminal:1;path=a:1,b:_0,terminal:1",
    "city=revenue:20;city=revenue:20;path=a:0,b:_0;path=a:3,b:_0;path=a:1,b:_1;path=a:3,b:_1",
)


@functools.cache
def tile_pool() -> tuple[Tile, ...]:
    defn = load_game(gamedata_root() / "1858")
    tiles = {t.tile for t in defn.tiles.values()}
    tiles |= {h.tile for h in defn.hexes.values() if h.tile is not None}
    tiles |= {parse(c) for c in EXTRA_CODES}
    return tuple(sorted(tiles, key=str))


@functools.cache
def switch_pool() -> tuple[Tile, ...]:
    """Tiles with a converging side (where the walk turns exhaustive), and busy ones."""
    out = []
    for t in tile_pool():
        exits = [e for p in t.paths for e in (p.a, p.b) if isinstance(e, Edge)]
        if len(exits) != len({e.num for e in exits}) or len(exits) >= 4:
            out.append(t)
    return tuple(out)


@st.composite
def boards(draw: Any) -> tuple[TrackGraph, dict[str, list[list[str | None]]], dict[str, Any]]:
    pool = st.one_of(st.sampled_from(tile_pool()), st.sampled_from(switch_pool()))
    coords = draw(st.lists(st.sampled_from(REGION), min_size=4, max_size=len(REGION), unique=True))
    tiles = {c: (draw(pool), draw(st.integers(0, 5))) for c in coords}
    colours = {c: draw(st.sampled_from(["white", "white", "white", "red", "gray"])) for c in coords}
    g = build_graph(tiles, colors=colours)
    tokens: dict[str, list[list[str | None]]] = {}
    owners = st.sampled_from(["X", "X", "Y", "Z", None, None])
    for c, (tile, _) in tiles.items():
        cities = [p for p in tile.parts if isinstance(p, City)]
        if cities:
            tokens[c] = [[draw(owners) for _ in range(city.slots)] for city in cities]
    if tokens:  # the company has a station somewhere
        tokens[draw(st.sampled_from(sorted(tokens)))][0][0] = "X"
    kw: dict[str, Any] = {"gauge": draw(st.sampled_from(["broad", "metre", None]))}
    if draw(st.booleans()):
        home = draw(st.sampled_from(coords))
        kw["home_hexes"] = [home]
        kw["home_cities"] = {home: [draw(st.integers(0, 1))]}
    return g, tokens, kw


#: tiles with converging sides (two paths leaving by one edge), through a stop and a junction
#: too: on a board full of them nearly every walk has soft parts
SWITCH_CODES = (
    "path=a:0,b:2;path=a:0,b:4",
    "path=a:0,b:3;path=a:0,b:2;path=a:3,b:5",
    "path=a:0,b:3;path=a:0,b:2;path=a:0,b:4",
    "path=a:0,b:3;path=a:0,b:1;path=a:3,b:4",
    "path=a:0,b:2;path=a:0,b:3;path=a:1,b:3;path=a:1,b:4",
    "city=revenue:20;path=a:0,b:_0;path=a:3,b:_0;path=a:0,b:2",
    "town=revenue:10;path=a:0,b:_0;path=a:2,b:_0;path=a:0,b:3",
    "junction;path=a:0,b:_0;path=a:2,b:_0;path=a:4,b:_0;path=a:0,b:3",
)


@st.composite
def switch_boards(
    draw: Any,
) -> tuple[TrackGraph, dict[str, list[list[str | None]]], dict[str, Any]]:
    """Nearly all of the region covered, mostly with switch tiles, one gauge family."""
    switches = tuple(parse(c) for c in SWITCH_CODES)
    pool = st.one_of(
        st.sampled_from(switches), st.sampled_from(switches), st.sampled_from(switch_pool())
    )
    coords = draw(
        st.lists(
            st.sampled_from(REGION), min_size=len(REGION) - 6, max_size=len(REGION), unique=True
        )
    )
    tiles = {c: (draw(pool), draw(st.integers(0, 5))) for c in coords}
    g = build_graph(tiles)
    tokens: dict[str, list[list[str | None]]] = {}
    owners = st.sampled_from(["X", "Y", None, None])
    for c, (tile, _) in tiles.items():
        cities = [p for p in tile.parts if isinstance(p, City)]
        if cities:
            tokens[c] = [[draw(owners) for _ in range(city.slots)] for city in cities]
    if tokens:
        tokens[draw(st.sampled_from(sorted(tokens)))][0][0] = "X"
    return g, tokens, {"gauge": draw(st.sampled_from(["broad", "broad", "metre"]))}


def same_as_walk(g: TrackGraph, company: str, tokens: Any, **kw: Any) -> Reach:
    fast = reachable(g, company, tokens=tokens, **kw)
    assert fast == walk_reachable(g, company, tokens=tokens, **kw)
    return fast


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_reach_finds_what_the_walk_finds_on_random_boards(
    board: tuple[TrackGraph, dict[str, list[list[str | None]]], dict[str, Any]],
) -> None:
    g, tokens, kw = board
    same_as_walk(g, "X", tokens, **kw)


def switch_ring() -> TrackGraph:
    """Switch tiles in a ring around a city of six exits at C3."""
    ring = {
        c: (parse("path=a:0,b:3;path=a:0,b:2;path=a:3,b:5;path=a:1,b:4"), r)
        for r, c in enumerate(["B2", "B4", "C5", "D4", "D2", "C1", "A3", "A5"])
    }
    ring["C3"] = (parse("city=revenue:20;" + ";".join(f"path=a:{e},b:_0" for e in range(6))), 0)
    return build_graph(ring)


def test_reach_past_switches_finds_what_the_walk_finds() -> None:
    """A ring of switch tiles around a token: every way round is a soft part of the walk."""
    r = same_as_walk(switch_ring(), "X", {"C3": [["X"]]}, gauge="broad")
    assert set(r.hexes) >= {"B2", "B4", "C5", "D4", "D2", "C1"}
    assert all(hexmap.xy(h) for h in r.hexes)


def test_reach_finds_what_the_walk_finds_along_a_real_game() -> None:
    """Every company's and private's reach, both gauges, every 40 actions of a whole game."""
    from ferrovia.lib18xx.actions import action_from_json
    from ferrovia.lib18xx.operating import routing
    from ferrovia.play.replay import filter_actions, game_for, load_export

    data = load_export(shared_path("fixtures", "18xx.games", "1858", "1858_game_end_bank.json"))
    game, state = game_for(data)
    actions = [action_from_json(a) for a in filter_actions(list(data["actions"]))]
    checked = 0
    for i, action in enumerate(actions):
        game.apply(state, action)
        if i % 40 and i != len(actions) - 1:
            continue
        g = routing.track_graph(game, state)
        tokens = {c: h.tokens for c, h in state.hexes.items()}
        companies = sorted({t for h in state.hexes.values() for c in h.tokens for t in c if t})
        for company in companies + sorted(state.privates):
            home: tuple[str, ...] = ()
            home_cities: dict[str, list[int]] = {}
            if company in state.privates:
                private = game.definition.private(company)
                home = tuple(private.home_hexes)
                for res in private.reservations:
                    home_cities.setdefault(res.hex, []).append(res.city)
            for gauge in ("broad", "metre"):
                same_as_walk(
                    g, company, tokens, gauge=gauge, home_hexes=home, home_cities=home_cities
                )
                checked += 1
    assert checked > 500


def same_edges_as_reach(
    g: TrackGraph,
    company: str,
    tokens: Any,
    coords: Any,
    withins: Any = (None,),
    **kw: Any,
) -> None:
    """The walk stopped once a hex's edges are all found (:func:`reached_edges`, what a lay
    check asks) gives that hex's edges of the whole reach, for each of ``coords``; asked
    only about some edges (each of ``withins``), those of them."""
    whole = reachable(g, company, tokens=tokens, **kw).hexes
    for coord in coords:
        for within in withins:
            want = whole.get(coord, frozenset())
            if within is not None:
                want &= within
            got = reached_edges(g, company, coord, tokens=tokens, within=within, **kw)
            assert got == want, (coord, within)
            # stopped at the first edge found: a part of the answer, empty only when it is
            first = reached_edges(g, company, coord, tokens=tokens, within=within, first=True, **kw)
            assert first <= want and bool(first) == bool(want), (coord, within, first)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(boards(), switch_boards()),
    st.lists(st.frozensets(st.integers(0, 5)), max_size=3),
)
def test_the_edges_of_one_hex_are_those_of_the_whole_reach_on_random_boards(
    board: tuple[TrackGraph, dict[str, list[list[str | None]]], dict[str, Any]],
    withins: list[frozenset[int]],
) -> None:
    g, tokens, kw = board
    same_edges_as_reach(g, "X", tokens, REGION, [None, *withins], **kw)


def test_the_edges_of_a_laid_hex_are_those_of_the_whole_reach_along_a_real_game() -> None:
    """Before every lay of a whole game, the layer's reached edges of the hex, both gauges,
    as the lay check asks them (the walk stopped early) and from the whole reach."""
    from ferrovia.board import tiles
    from ferrovia.lib18xx import board
    from ferrovia.lib18xx.actions import LayTile, action_from_json
    from ferrovia.lib18xx.operating import routing
    from ferrovia.play.replay import filter_actions, game_for, load_export

    data = load_export(shared_path("fixtures", "18xx.games", "1858", "219682.json"))
    game, state = game_for(data)
    checked = 0
    for action in (action_from_json(a) for a in filter_actions(list(data["actions"]))):
        if isinstance(action, LayTile):
            g = routing.track_graph(game, state)
            tokens, home, home_cities = routing._reach_args(game, state, action.entity)
            for gauge in ("broad", "metre"):
                same_edges_as_reach(
                    g,
                    action.entity,
                    tokens,
                    [action.hex],
                    [None, *(frozenset({e}) for e in range(6)), frozenset({1, 4})],
                    gauge=gauge,
                    home_hexes=home,
                    home_cities=home_cities,
                )
                # what the lay check asks: the reached edges among the new tile's exits
                tile, _ = board.tile_def(game, action.tile)
                exits = set(tiles.exits(tile, action.rotation))
                asked = routing.reached_edges_by_gauge(game, state, action.entity, action.hex)
                whole = routing.reached_edges_by_gauge(game, state, action.entity, action.hex)
                assert asked.within(gauge, exits) == whole[gauge] & exits
                part = routing.reached_edges_by_gauge(game, state, action.entity, action.hex)
                some = part.within(gauge, exits, first=True)
                assert some <= whole[gauge] & exits and bool(some) == bool(whole[gauge] & exits)
                # and the same once a whole reach is kept for the map (asked of it, no walk)
                routing._reaches(game, state, action.entity)
                again = routing.reached_edges_by_gauge(game, state, action.entity, action.hex)
                assert again.within(gauge, exits) == whole[gauge] & exits
                checked += 1
        game.apply(state, action)
    assert checked > 200


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.one_of(boards(), switch_boards()),
    st.lists(st.frozensets(st.sampled_from(REGION), max_size=4), max_size=4),
)
def test_a_stop_or_hexes_looked_for_are_found_as_the_whole_reach_finds_them(
    board: tuple[TrackGraph, dict[str, list[list[str | None]]], dict[str, Any]],
    hex_sets: list[frozenset[str]],
) -> None:
    """The walks stopped at the first find that settles a question (a city for a station,
    hexes a company's trains may run into) answer it as the whole reach does."""
    g, tokens, kw = board
    whole = reachable(g, "X", tokens=tokens, **kw)
    for stop in range(len(g.stops)):
        assert reaches_stop(g, "X", stop, tokens=tokens, **kw) == (stop in whole.stops), stop
    for wanted in hex_sets:
        got = runs_into(g, "X", wanted, tokens=tokens, **kw)
        assert got == bool(wanted & whole.run_hexes), wanted


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards(), st.sampled_from(["X", "Y", "Z", None]))
def test_the_stops_a_walk_may_pass_are_those_that_do_not_block(
    board: tuple[TrackGraph, dict[str, list[list[str | None]]], dict[str, Any]],
    company: str | None,
) -> None:
    g, tokens, _ = board
    assert passable_stops(g, company, tokens) == [not blocks(s, company, tokens) for s in g.stops]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards(), st.data())
def test_stations_changed_in_place_are_seen_by_the_next_walk(
    board: tuple[TrackGraph, dict[str, list[list[str | None]]], dict[str, Any]],
    data: st.DataObject,
) -> None:
    """What a walk reads from the map's stations (where the company starts, which cities
    block it) is kept per company between walks; the game changes its station lists in
    place, so after each change the walk must see it: passable stops are those that do not
    block, and the reach is the plain walk's."""
    g, tokens, kw = board
    if not tokens:
        return
    owners = st.sampled_from(["X", "Y", "Z", None, ""])
    for _ in range(data.draw(st.integers(1, 5))):
        slots = tokens[data.draw(st.sampled_from(sorted(tokens)))]
        city = slots[data.draw(st.integers(0, len(slots) - 1))]
        if city:
            city[data.draw(st.integers(0, len(city) - 1))] = data.draw(owners)
        for company in ("X", "Y"):
            assert passable_stops(g, company, tokens) == [
                not blocks(s, company, tokens) for s in g.stops
            ]
        same_as_walk(g, "X", tokens, **kw)


@pytest.mark.parametrize("gauge", ["broad", "metre", None])
def test_reach_of_a_company_with_no_station_is_empty(gauge: str | None) -> None:
    g = build_graph({"A1": (parse("city=revenue:20;path=a:0,b:_0"), 0)})
    r = same_as_walk(g, "X", {"A1": [[None]]}, gauge=gauge)
    assert not r.hexes and not r.paths


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_the_polynomial_bound_holds_every_path_the_walk_finds(
    board: tuple[TrackGraph, dict[str, list[list[str | None]]], dict[str, Any]],
) -> None:
    """The tightened upper bound (which decides whether the exhaustive pass 3 is needed) is
    sound: no path the plain walk finds is left out of it."""
    g, tokens, kw = board
    assert walk_reachable(g, "X", tokens=tokens, **kw).paths <= reach_bound(
        g, "X", tokens=tokens, **kw
    )


def test_dense_late_game_boards_need_no_exhaustive_pass() -> None:
    """The last boards of the real games (the densest), every company and private, both
    gauges: reach equals the walk, and the polynomial passes settle it all (pass 3 never
    runs), so the reach of these boards is computed in polynomial time."""
    from ferrovia.lib18xx.operating import routing
    from ferrovia.play.replay import load_export, replay

    checked = exhaustive = 0
    for name in ("1858_game_end_bank.json", "219682.json"):
        res = replay(load_export(shared_path("fixtures", "18xx.games", "1858", name)))
        game, state = res.game, res.state
        g = routing.track_graph(game, state)
        tokens = {c: h.tokens for c, h in state.hexes.items()}
        companies = sorted({t for h in state.hexes.values() for c in h.tokens for t in c if t})
        before = dict(WALK_STATS)
        for company in companies:
            for gauge in ("broad", "metre"):
                same_as_walk(g, company, tokens, gauge=gauge)
                checked += 1
        assert WALK_STATS["reaches"] - before["reaches"] == 2 * len(companies)
        exhaustive += WALK_STATS["exhaustive"] - before["exhaustive"]
    assert checked >= 20
    assert exhaustive == 0


def by_matching_same_as_walk(g: TrackGraph, company: str, tokens: Any, **kw: Any) -> None:
    """The matching pass alone (every soft part settled by it, no probe, no bound) finds what
    the walk finds; the board is in the class the reduction is proven for."""
    m = reach_by_matching(g, company, tokens=tokens, **kw)
    assert m is not None
    assert m == walk_reachable(g, company, tokens=tokens, **kw)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(switch_boards())
def test_the_matching_pass_finds_what_the_walk_finds_on_switch_boards(
    board: tuple[TrackGraph, dict[str, list[list[str | None]]], dict[str, Any]],
) -> None:
    g, tokens, kw = board
    by_matching_same_as_walk(g, "X", tokens, **kw)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_the_matching_pass_finds_what_the_walk_finds_on_random_boards(
    board: tuple[TrackGraph, dict[str, list[list[str | None]]], dict[str, Any]],
) -> None:
    g, tokens, kw = board
    if kw["gauge"] is None:  # both gauges at one side: outside the class (see the next test)
        kw["gauge"] = "broad"
    by_matching_same_as_walk(g, "X", tokens, **kw)


def test_the_matching_pass_settles_the_switch_ring_and_the_dense_late_game_boards() -> None:
    by_matching_same_as_walk(switch_ring(), "X", {"C3": [["X"]]}, gauge="broad")

    from ferrovia.lib18xx.operating import routing
    from ferrovia.play.replay import load_export, replay

    res = replay(load_export(shared_path("fixtures", "18xx.games", "1858", "219682.json")))
    g = routing.track_graph(res.game, res.state)
    tokens = {c: h.tokens for c, h in res.state.hexes.items()}
    for company in sorted({t for h in res.state.hexes.values() for c in h.tokens for t in c if t}):
        for gauge in ("broad", "metre"):
            by_matching_same_as_walk(g, company, tokens, gauge=gauge)


def test_a_side_joining_only_some_paths_across_is_outside_the_class() -> None:
    """Any-gauge reach past a switch (C5: the walk turns soft) to a side where a town's dual
    and metre paths meet a broad one: the broad one joins only the dual, so a move across that
    side is not 'from any path to any path across' and the matching reduction does not hold
    there (reach, which then walks such a part in full, still finds what the walk finds)."""
    tiles = {
        "C3": (parse("city=revenue:20;path=a:0,b:_0"), 0),
        "C5": (parse("path=a:3,b:0;path=a:1,b:0"), 0),
        "C7": (
            parse(
                "town=revenue:10;path=a:3,b:_0,track:dual;path=a:_0,b:0,track:dual;"
                "path=a:_0,b:0,track:narrow"
            ),
            0,
        ),
        "C9": (parse("path=a:3,b:0"), 0),
    }
    g = build_graph(tiles)
    assert reach_by_matching(g, "X", tokens={"C3": [["X"]]}, gauge=None) is None
    by_gauge = reach_by_matching(g, "X", tokens={"C3": [["X"]]}, gauge="broad")
    assert by_gauge is not None and {"C7", "C9"} <= by_gauge.run_hexes
    assert "C9" in same_as_walk(g, "X", {"C3": [["X"]]}, gauge=None).run_hexes


def _perfect_matching(n: int, edges: set[tuple[int, int]], free: frozenset[int]) -> bool:
    if not free:
        return True
    v = min(free)
    return any(
        _perfect_matching(n, edges, free - {v, w})
        for w in free
        if w != v and ((v, w) in edges or (w, v) in edges)
    )


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 4).flatmap(lambda k: st.tuples(st.just(2 * k + 2), st.randoms())))
def test_the_blossom_search_finds_an_augmenting_path_when_a_perfect_matching_exists(
    case: tuple[int, Any],
) -> None:
    """Vertices 2.. are matched in pairs, 0 and 1 are exposed: an augmenting path leaves 0
    exactly when the graph has a perfect matching (odd cycles included, where a search that
    does not shrink blossoms goes wrong)."""
    n, rnd = case
    edges = {(a, b) for a in range(n) for b in range(a + 1, n) if rnd.random() < 0.35}
    order = list(range(2, n))
    rnd.shuffle(order)
    mate = [-1] * n
    for a, b in zip(order[::2], order[1::2], strict=True):
        edges.add((a, b))
        mate[a], mate[b] = b, a
    adj: list[list[int]] = [[] for _ in range(n)]
    for a, b in edges:
        adj[a].append(b)
        adj[b].append(a)
    assert _augmenting(adj, mate, 0) == _perfect_matching(n, edges, frozenset(range(n)))


@pytest.mark.parametrize("game", ["1830", "1858", "1858_india", "1858_switzerland"])
def test_every_tile_of_the_games_keeps_reach_in_the_class_of_the_matching_pass(game: str) -> None:
    """What makes the matching pass hold on legal data (see graph.walk._Walk), checked on every
    tile and preprinted hex: no lane specs (every path at a hex side then joins every path of
    the walk's gauge family across it) and no terminal or ``ignore`` path ending at a city or
    town (the walk goes through those both ways).  So the exhaustive fallback is never needed
    for a broad or metre reach of these games."""
    defn = load_game(gamedata_root() / game)
    tiles = [t.tile for t in defn.tiles.values()]
    tiles += [h.tile for h in defn.hexes.values() if h.tile is not None]
    for tile in tiles:
        for path in tile.paths + tile.future_paths:
            assert not (path.lanes or path.a_lane or path.b_lane), tile
            if path.terminal or path.ignore:
                for end in (path.a, path.b):
                    if isinstance(end, NodeRef):
                        assert not isinstance(tile.node(end), (City, Town)), tile


def _bound_searching_every_path(g: TrackGraph, company: str, tokens: Any, **kw: Any) -> Any:
    """:func:`reach_bound` with no path settled by the first search's ways: one whole search
    with its sides closed for every path in doubt, not stopped once the path is reached (how
    the bound was first computed)."""
    from ferrovia.board.graph.walk import _Walk

    whole = _Walk.most

    def most(
        self: Any, starts: Any, shut: int = 0, closed: Any = (), target: int = -1, **kw: Any
    ) -> int:
        bits: int = whole(self, starts, shut, closed, **kw)
        return bits if target < 0 else bits & (1 << target)

    with (
        mock.patch("ferrovia.board.graph.walk._clear_way", lambda *a: False),
        mock.patch.object(_Walk, "most", most),
    ):
        return reach_bound(g, company, tokens=tokens, **kw)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_paths_settled_by_the_first_search_s_ways_change_no_bound(
    board: tuple[TrackGraph, dict[str, list[list[str | None]]], dict[str, Any]],
) -> None:
    """A path the unconstrained search reached by a way that leaves by none of its sides is
    reached with them closed, and a search with them closed may stop once it reaches the path:
    neither changes a bound."""
    g, tokens, kw = board
    assert reach_bound(g, "X", tokens=tokens, **kw) == _bound_searching_every_path(
        g, "X", tokens, **kw
    )


def test_the_first_search_s_ways_settle_paths_of_real_boards_as_their_own_searches_do() -> None:
    """On the last boards of a real game, every company and gauge: the same bound either
    way, and the ways do settle paths (the shortcut is exercised, not idle)."""
    from ferrovia.board.graph import walk as graph_walk
    from ferrovia.lib18xx.operating import routing
    from ferrovia.play.replay import load_export, replay

    res = replay(load_export(shared_path("fixtures", "18xx.games", "1858", "219682.json")))
    g = routing.track_graph(res.game, res.state)
    tokens = {c: h.tokens for c, h in res.state.hexes.items()}
    companies = sorted({t for h in res.state.hexes.values() for c in h.tokens for t in c if t})
    settled = 0
    real = graph_walk._clear_way

    def counting(*a: Any) -> bool:
        nonlocal settled
        ok = real(*a)
        settled += ok
        return ok

    for company in companies:
        for gauge in ("broad", "metre"):
            with mock.patch("ferrovia.board.graph.walk._clear_way", counting):
                fast = reach_bound(g, company, tokens=tokens, gauge=gauge)
            assert fast == _bound_searching_every_path(g, company, tokens, gauge=gauge)
    assert settled > 0
