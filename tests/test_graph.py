"""Track graph and connectivity on small hand-built maps (tiles from tile codes)."""

from __future__ import annotations

import pytest
from ferrovia.board import hexmap
from ferrovia.board.graph import TrackGraph, build_graph, chains_from, reachable, ruby_part_indices
from ferrovia.notation import parse


def graph(
    codes: dict[str, str],
    rotations: dict[str, int] | None = None,
    colors: dict[str, str] | None = None,
) -> TrackGraph:
    rot = rotations or {}
    return build_graph({h: (parse(c), rot.get(h, 0)) for h, c in codes.items()}, colors=colors)


CITY = "city=revenue:20;path=a:0,b:_0;path=a:3,b:_0"
STRAIGHT = "path=a:0,b:3"


def test_flat_neighbours_follow_18xx_games_directions() -> None:
    assert hexmap.neighbours("G18") == {
        0: "G20",
        1: "F19",
        2: "F17",
        3: "G16",
        4: "H17",
        5: "H19",
    }
    assert hexmap.edge_towards("G20", "G18") == 3
    assert hexmap.edge_towards("G20", "G16") is None
    with pytest.raises(ValueError, match="not a hex coordinate"):
        hexmap.xy("18G")


def test_stop_ids_count_every_part_as_18xx_games_does() -> None:
    tile = parse("upgrade=cost:40;path=a:0,b:1,lanes:2;town=revenue:10;city=revenue:20")
    assert ruby_part_indices(tile) == [0, 1, 3, 4]
    g = graph({"A1": "label=Y;city=revenue:20;city=revenue:30;path=a:0,b:_1"})
    assert [s.signature for s in g.stops] == ["A1-1", "A1-2"]
    assert [s.city_number for s in g.stops] == [0, 1]


def test_rotation_turns_exits_clockwise() -> None:
    g = graph({"A1": "path=a:0,b:1", "B2": "path=a:0,b:3"}, {"A1": 4})
    assert g.paths[0].exits == (4, 5)
    # A1's rotated exit 5 faces B2's edge 2, which B2 does not have: no join
    assert (0, 5) not in g.links


def test_paths_join_only_where_both_hexes_have_an_exit_and_gauges_fit() -> None:
    g = graph(
        {
            "A1": "city=revenue:20;path=a:0,b:_0",
            "A3": "path=a:3,b:0,track:narrow",
            "A5": "path=a:3,b:0,track:dual",
            "A7": "path=a:3,b:0,track:narrow",
        }
    )
    # broad A1 does not join metre A3; metre A3 joins dual A5, dual A5 joins metre A7
    assert (0, 0) not in g.links
    assert g.links[(1, 0)] == (2,)
    assert g.links[(2, 0)] == (3,)


def test_closed_hexes_join_only_where_their_own_track_points() -> None:
    codes = {
        "A1": "path=a:0,b:5",
        "A3": "offboard=revenue:30;path=a:3,b:_0",
        "B2": "offboard=revenue:30;path=a:0,b:_0",
    }
    g = graph(codes, colors={"A3": "red", "B2": "red"})
    assert g.neighbours["A1"] == {0: "A3"}  # B2's track points away from A1


def test_impassable_border_closes_a_side() -> None:
    g = graph({"A1": "path=a:0,b:3;border=edge:0,type:impassable", "A3": STRAIGHT})
    assert 0 not in g.neighbours["A1"]
    assert g.neighbours["A3"] == {3: "A1"}


def test_reachable_from_a_token_marks_hexes_edges_and_stops() -> None:
    g = graph({"A1": CITY, "A3": STRAIGHT, "A5": CITY, "A7": STRAIGHT})
    r = reachable(g, "X", tokens={"A1": [["X"]]}, gauge="broad")
    assert dict(r.hexes) == {
        "A1": frozenset({0, 3}),
        "A3": frozenset({0, 3}),
        "A5": frozenset({0, 3}),
        "A7": frozenset({0, 3}),
    }
    assert r.signatures == {"A1-0", "A5-0"}
    assert r.run_hexes == {"A1", "A3", "A5", "A7"}


def test_a_full_city_of_other_companies_stops_the_walk_but_is_reached() -> None:
    g = graph({"A1": CITY, "A3": CITY, "A5": CITY})
    tokens = {"A1": [["X"]], "A3": [["Y"]]}
    r = reachable(g, "X", tokens=tokens, gauge="broad")
    assert r.signatures == {"A1-0", "A3-0"}  # A3 reached, A5 behind it is not
    assert "A5" not in r.run_hexes
    # a free slot lets the walk through
    r2 = reachable(g, "X", tokens={"A1": [["X"]], "A3": [[None]]}, gauge="broad")
    assert "A5-0" in r2.signatures


def test_an_offboard_is_never_passed_through() -> None:
    g = graph(
        {
            "A1": CITY,
            "A3": "offboard=revenue:30;path=a:3,b:_0;path=a:0,b:_0",
            "A5": CITY,
        }
    )
    r = reachable(g, "X", tokens={"A1": [["X"]]}, gauge=None)
    assert r.signatures == {"A1-0", "A3-0"}


def test_reach_per_gauge_family() -> None:
    g = graph(
        {
            "A1": "city=revenue:20;path=a:0,b:_0;path=a:5,b:_0,track:narrow",
            "A3": "path=a:3,b:0",
            "B2": "path=a:2,b:5,track:narrow",
        }
    )
    broad = reachable(g, "X", tokens={"A1": [["X"]]}, gauge="broad")
    metre = reachable(g, "X", tokens={"A1": [["X"]]}, gauge="metre")
    assert "A3" in broad.run_hexes and "B2" not in broad.run_hexes
    assert "B2" in metre.run_hexes and "A3" not in metre.run_hexes
    with pytest.raises(ValueError, match="unknown gauge"):
        reachable(g, "X", tokens={}, gauge="wide")


def test_private_home_hexes_start_the_walk() -> None:
    g = graph({"A1": STRAIGHT, "A3": STRAIGHT, "A5": CITY, "C1": ""})
    r = reachable(g, "P", tokens={}, gauge="broad", home_hexes=["A1"])
    assert "A5-0" in r.signatures
    assert r.hexes["A1"] >= {0}
    # an empty home hex: every side of it may take track
    r2 = reachable(g, "P", tokens={}, gauge="broad", home_hexes=["C1"])
    assert r2.hexes["C1"] == frozenset(g.neighbours["C1"])


def test_chains_run_stop_to_stop_and_name_hexes_like_18xx_games() -> None:
    g = graph(
        {
            "A1": "city=revenue:20;path=a:0,b:_0",
            "A3": "junction;path=a:3,b:_0;path=a:0,b:_0;path=a:5,b:_0",
            "A5": "town=revenue:10;path=a:3,b:_0",
            "B4": "city=revenue:20;path=a:2,b:_0",
        }
    )
    start = g.by_signature["A1-0"]
    found = {tuple(c.hexes): g.stops[c.b].signature for c in chains_from(g, start, "narrow")}
    # the junction's hex is named once
    assert found == {("A1", "A3", "A5"): "A5-0", ("A1", "A3", "B4"): "B4-0"}


def test_two_stop_to_stop_paths_in_one_hex_are_named_by_node_numbers() -> None:
    g = graph(
        {"C4": "town=revenue:10;town=revenue:10;city=revenue:20;path=a:_0,b:_1;path=a:_1,b:_2"}
    )
    t0 = g.by_signature["C4-0"]
    (chain,) = chains_from(g, t0, None)
    assert chain.hexes == ("C4 0.1",)
    assert list(chains_from(g, t0, None, prefix=["C4 0.1"])) == [chain]


def test_a_walk_never_leaves_a_path_by_the_side_it_entered() -> None:
    """18xx.games walks track depth first: a path entered across a side is never left by it.
    The company reaches B4 by its 1-0 path and runs on into B6; B6's track leads back to B4
    only across the side it came in by, so B4's 0-5 path (and C5 behind it) is not reached.
    (A flood fill over joined paths reached side 5; found by replaying Ferrovia's random games
    in the 18xx.games engine, which rejected a lay there.)"""
    g = build_graph(
        {
            "A5": (parse("city=revenue:20;path=a:4,b:_0"), 0),
            "B4": (parse("path=a:0,b:1;path=a:0,b:5"), 0),
            "B6": (parse("path=a:3,b:0"), 0),
            "C5": (parse("path=a:2,b:5"), 0),
        }
    )
    r = reachable(g, "X", tokens={"A5": [["X"]]}, gauge="broad")
    assert r.hexes["B4"] == {0, 1}
    assert r.hexes["B6"] == {0, 3}
    assert "C5" not in r.hexes


def _joined_by_tiles(t: object, edge: int, other: object) -> list[tuple[int, tuple[int, ...]]]:
    """The links across ``edge`` worked out from the two tiles' whole path lists (the join
    ``_side_links`` makes from the sides' exits alone, cached by side)."""
    from ferrovia.board.graph.build import _lane_match, _tracks_match

    out = []
    for i, (exits, lanes, _, _, track, *_rest) in enumerate(t.paths):  # type: ignore[attr-defined]
        for e, lane in zip(exits, lanes, strict=True):
            if e != edge:
                continue
            joined = [
                j
                for j, q in enumerate(other.paths)  # type: ignore[attr-defined]
                if any(
                    qe == (edge + 3) % 6 and _lane_match(lane, ql) and _tracks_match(track, q[4])
                    for qe, ql in zip(q[0], q[1], strict=True)
                )
            ]
            if joined:
                out.append((i, tuple(joined)))
    return out


def test_side_links_cached_by_side_are_those_of_the_two_tiles() -> None:
    from ferrovia.board.graph.build import _side_links, _tile_template

    codes = [
        CITY,
        STRAIGHT,
        "path=a:0,b:1,lanes:2",
        "path=a:3,b:4,lanes:2",
        "path=a:0,b:3,track:narrow;path=a:1,b:4,track:dual",
        "path=a:3,b:0,track:broad;path=a:4,b:1,track:narrow",
        "town=revenue:10;path=a:0,b:_0;path=a:3,b:_0;path=a:1,b:_0",
        "junction;path=a:0,b:_0;path=a:3,b:_0;path=a:4,b:_0",
        "",
    ]
    templates = [_tile_template(parse(c), r) for c in codes for r in range(6)]
    for _ in range(2):  # cold, then from the cache
        for t in templates:
            for other in templates:
                for edge in range(6):
                    assert list(_side_links(t, edge, other)) == _joined_by_tiles(t, edge, other)
