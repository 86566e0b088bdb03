"""``update_graph`` joins paths exactly as ``build_graph`` of the same map does.

A lay re-makes only the links of the re-laid hex and, of its neighbours, those across the
sides facing it (engine/board/graph.py); every other link is kept.  Checked on every lay of a real
1858 game: the links of each updated graph, named by (hex, path's place on its hex, edge),
are those of a graph built afresh from the same tiles.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import shared_path
from ferrovia.board.graph import TrackGraph, build_graph
from ferrovia.lib18xx.operating import routing
from ferrovia.play.replay import load_export, replay
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_graph_reach import REGION, tile_pool


def _named_links(g: TrackGraph) -> set[tuple[Any, ...]]:
    """The graph's links with ids replaced by (hex, place among the hex's paths)."""
    place = {pid: (h, i) for h, pids in g.hex_paths.items() for i, pid in enumerate(pids)}
    return {
        (*place[pid], edge, tuple(sorted(place[q] for q in joined)))
        for (pid, edge), joined in g.links.items()
    }


def test_every_updated_graph_of_a_game_has_the_links_of_a_fresh_build(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    updated: set[int] = set()
    update = routing.update_graph

    def recorded(graph: TrackGraph, changes: Any) -> TrackGraph:
        new = update(graph, changes)
        updated.add(id(new))  # (kept alive by ``seen`` below)
        return new

    monkeypatch.setattr(routing, "update_graph", recorded)
    # the tiles in place are read back from the game as the graph was made
    seen: list[tuple[TrackGraph, dict[str, Any]]] = []
    track_graph = routing._track_graph

    def built(game: Any, state: Any) -> TrackGraph:
        g = track_graph(game, state)
        tiles = {
            c: (routing._with_hex_borders(game, state, c), h.rotation)
            for c, h in state.hexes.items()
        }
        colors = {c: str(hd.color) for c, hd in game.definition.hexes.items()}
        seen.append((g, {"tiles": tiles, "colors": colors, "layout": game.definition.layout}))
        return g

    monkeypatch.setattr(routing, "_track_graph", built)
    res = replay(load_export(shared_path("fixtures", "18xx.games", "1858", "219682.json")))
    assert res.error is None
    checked = 0
    for g, how in seen:
        if id(g) not in updated:
            continue
        fresh = build_graph(how["tiles"], colors=how["colors"], layout=str(how["layout"]))
        assert _named_links(g) == _named_links(fresh)
        # a neighbour of a re-laid hex keeps its crossable sides unless that hex is closed
        assert g.neighbours == fresh.neighbours
        # its inert ids counted as the lays left them
        assert g.dead == (
            sum(s.kind == "none" for s in g.stops)
            + sum(p.track == "none" for p in g.paths)
            + g.key_names.count(("", ""))
        )
        checked += 1
    assert checked > 100


def test_updates_placing_the_same_tile_at_the_same_ids_share_its_fragment() -> None:
    """A re-laid hex's fragment is looked up like a fresh build's (hex, tile, rotation, ids):
    two updates making the same hex at the same ids share it (what is cached on a fragment is
    found again), and it is the fragment the hex's tile and ids make."""
    from ferrovia.board.graph import update_graph
    from ferrovia.board.graph.build import _fragment, _tile_template
    from ferrovia.notation import parse

    base = build_graph({"A1": (parse("city=revenue:20;path=a:0,b:_0"), 0), "A3": (parse(""), 0)})
    town = parse("town=revenue:10;path=a:3,b:_0")
    one = update_graph(base, {"A3": (town, 0)})
    two = update_graph(base, {"A3": (town, 0)})
    assert one.fragments["A3"] is two.fragments["A3"]
    frag = one.fragments["A3"]
    fresh = _fragment(
        "A3", _tile_template(town, 0), frag.stops[0].id, frag.paths[0].id, frag.key_off, 0
    )
    assert (fresh.stops, fresh.paths, fresh.key_names) == (frag.stops, frag.paths, frag.key_names)
    assert one.links == two.links == {(0, 0): (frag.paths[0].id,), (frag.paths[0].id, 3): (0,)}
    # another rotation is another fragment
    turned = update_graph(base, {"A3": (town, 1)})
    assert turned.fragments["A3"] is not frag


def test_a_neighbour_of_a_relaid_closed_hex_crosses_where_the_new_tile_points() -> None:
    """A closed (red, gray, blue) hex joins a neighbour only where its own track points, so
    re-laying one changes its neighbours' crossable sides (every other lay leaves them)."""
    from ferrovia.board.graph import update_graph
    from ferrovia.notation import parse

    tiles = {
        "A1": (parse("path=a:0,b:3"), 0),
        "A3": (parse("offboard=revenue:20;path=a:1,b:_0"), 0),
    }
    colors = {"A3": "red"}
    base = build_graph(tiles, colors=colors)
    assert 0 not in base.neighbours["A1"]
    pointing = (parse("offboard=revenue:20;path=a:3,b:_0"), 0)
    new = update_graph(base, {"A3": pointing})
    assert new.neighbours == build_graph({**tiles, "A3": pointing}, colors=colors).neighbours
    assert new.neighbours["A1"][0] == "A3"
    assert 0 not in base.neighbours["A1"]  # the old graph is left as it was


def test_the_signature_brought_up_to_date_from_the_edited_hexes_is_the_whole_maps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """routing._resigned reads again only the hexes assigned a tile or rotation since the last
    signature (state.edited_since); on every lay of a real game it gives what reading the
    whole map gives, the changed entries in map order included."""
    checked: list[int] = []
    resigned = routing._resigned

    def compared(state: Any, last: Any, places: Any, edited: Any, last_hash: int) -> Any:
        sig, changed, sig_hash = resigned(state, last, places, edited, last_hash)
        assert (sig, changed) == routing._signature(state, last)
        assert sig_hash == routing._sig_hash(sig)  # (the hash carried along is the map's)
        checked.append(len(changed))
        return sig, changed, sig_hash

    monkeypatch.setattr(routing, "_resigned", compared)
    res = replay(load_export(shared_path("fixtures", "18xx.games", "1858", "219682.json")))
    assert res.error is None
    assert len(checked) > 100 and max(checked) >= 1


def test_edited_since_names_the_hexes_assigned_since_and_forgets_old_edits() -> None:
    from ferrovia.lib18xx import state as state_module

    h = state_module.Hex(coord="B2", tile="B2-0")
    edits = state_module.map_edits
    assert state_module.edited_since(edits) == []
    h.rotation = 2
    h.tile = "57-1"
    assert state_module.edited_since(edits) == ["B2", "B2"]
    h.tokens = []  # not a map edit
    assert state_module.edited_since(edits) == ["B2", "B2"]
    for _ in range(state_module._EDITED_MAX + 1):
        h.rotation = 1
    assert state_module.edited_since(edits) is None  # too long ago: the caller reads all


def test_the_kept_station_spaces_are_the_maps_after_every_action_of_a_game() -> None:
    """routing.token_map keeps which hexes have city spaces until a Hex gains or loses them
    (state.token_edits): after every action of a real game (lays that add, keep and replace
    cities; stations placed) it holds every hex with city spaces, their lists as they are."""
    from ferrovia.lib18xx.actions import action_from_json
    from ferrovia.play.replay import filter_actions, game_for

    data = load_export(shared_path("fixtures", "18xx.games", "1858", "219682.json"))
    game, state = game_for(data)
    for action in (action_from_json(a) for a in filter_actions(list(data["actions"]))):
        game.apply(state, action)
        kept = routing.token_map(state)
        assert {c: t for c, t in kept.items() if t} == {
            c: h.tokens for c, h in state.hexes.items() if h.tokens
        }
        assert all(kept[c] is h.tokens for c, h in state.hexes.items() if h.tokens)
    # a hex given city spaces by assignment (a hand-built position) is seen at once
    empty = next(c for c, h in state.hexes.items() if not h.tokens)
    state.hexes[empty].tokens = [["X", None]]
    assert routing.token_map(state)[empty] == [["X", None]]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_an_updated_graph_passes_the_stops_a_fresh_build_passes(data: st.DataObject) -> None:
    """update_graph keeps each stop's passability without stations (worked out once, the
    walk's starting point, graph.walk_passable) for the stops it does not rewrite: after any
    run of lays on a random board (offboards, towns, cities of 0-2 slots coming and going),
    it is every stop's own, and the walk's passable stops under random stations are those
    of a fresh build of the same map (by signature).  Its count of inert ids is theirs."""
    from ferrovia.board.graph import passable_stops, update_graph
    from ferrovia.board.graph.stations import _stop_passable

    pool = st.sampled_from(tile_pool())
    coords = data.draw(st.lists(st.sampled_from(REGION), min_size=3, max_size=16, unique=True))
    tiles = {c: (data.draw(pool), data.draw(st.integers(0, 5))) for c in coords}
    g = build_graph(tiles)
    passable_stops(g, "X", {})  # worked out on the first graph: carried from then on
    owners = st.sampled_from(["X", "Y", None, None, ""])
    for _ in range(data.draw(st.integers(1, 6))):
        lays = {
            c: (data.draw(pool), data.draw(st.integers(0, 5)))
            for c in data.draw(st.lists(st.sampled_from(coords), min_size=1, max_size=3))
        }
        g = update_graph(g, lays)
        tiles.update(lays)
        assert g.walk_passable == [_stop_passable(s) for s in g.stops]
        # the inert entries counted as the lays left them (a fresh build is asked for when
        # there are many)
        assert g.dead == (
            sum(s.kind == "none" for s in g.stops)
            + sum(p.track == "none" for p in g.paths)
            + g.key_names.count(("", ""))
        )
        fresh = build_graph(tiles)
        tokens = {
            c: [[data.draw(owners) for _ in range(3)] for _ in fresh.hex_cities.get(c, ())]
            for c in coords
        }
        mine, theirs = passable_stops(g, "X", tokens), passable_stops(fresh, "X", tokens)
        assert {s.signature: mine[s.id] for s in g.stops if s.kind != "none"} == {
            s.signature: theirs[s.id] for s in fresh.stops
        }


def test_a_games_first_map_is_built_once_for_every_game_of_the_title(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A map far from the last one (a game's first) is built afresh and kept apart from the
    graphs the lays make (which come and go by the hundred): the next game of the title
    starts from that same graph, built by build_graph, even once those are all gone."""
    built: list[TrackGraph] = []
    build = routing.build_graph

    def counted(*args: Any, **kw: Any) -> TrackGraph:
        g = build(*args, **kw)
        built.append(g)
        return g

    monkeypatch.setattr(routing, "build_graph", counted)
    data = load_export(shared_path("fixtures", "18xx.games", "1858", "219682.json"))
    for cache in (routing._BUILT, routing._GRAPHS, routing._LAST):
        cache.clear()  # (nothing made by an earlier test to start from)
    assert replay(data).error is None
    first = list(built)
    assert first  # its first map at least
    built.clear()
    routing._GRAPHS.clear()  # (as a long game leaves it)
    seen: list[TrackGraph] = []
    track_graph = routing._track_graph

    def recorded(game: Any, state: Any) -> TrackGraph:
        g = track_graph(game, state)
        seen.append(g)
        return g

    monkeypatch.setattr(routing, "_track_graph", recorded)
    assert replay(data).error is None
    assert seen[0] is first[0]
    assert len(built) == len(first) - 1  # the rest: ids packed again within the game


def test_an_update_keeps_the_hexes_whose_one_path_connections_are_named_by_their_stops() -> None:
    """A hex whose tile has several stop-to-stop paths is named ``"<hex> n.m"`` in a
    connection (``TrackGraph.ambiguous``): a lay elsewhere keeps it so, a lay there decides
    afresh, as a fresh build of the new map does."""
    from ferrovia.board.graph import update_graph
    from ferrovia.notation import parse

    two_ways = parse("town=revenue:10;town=revenue:10;path=a:_0,b:_1;path=a:_0,b:_1")
    tiles = {"A1": (two_ways, 0), "A3": (parse(""), 0)}
    base = build_graph(tiles)
    assert base.ambiguous == {"A1"}
    laid = {"A3": (parse("town=revenue:10;path=a:3,b:_0"), 0)}
    assert update_graph(base, laid).ambiguous == build_graph({**tiles, **laid}).ambiguous
    plain = {"A1": (parse("town=revenue:10;path=a:0,b:_0"), 0)}
    assert update_graph(base, plain).ambiguous == build_graph({**tiles, **plain}).ambiguous
