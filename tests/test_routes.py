"""Route legality and revenue, one 1858 rule at a time, on small hand-built maps.

Maps are a column of hexes A1, A3, A5, ... (edge 0 of one faces edge 3 of the next) unless
said otherwise; tiles come from tile codes through the notation parser.
"""

from __future__ import annotations

import itertools

import pytest
from ferrovia.board.graph import TrackGraph, build_graph
from ferrovia.errors import IllegalAction
from ferrovia.notation import parse
from ferrovia.routes.search import best_routes
from ferrovia.routes.value import RouteSpec, TrainSpec, run_revenue, train_spec_from_data

YELLOW = ("yellow",)
GREEN = ("yellow", "green")


def city(revenue: int, *, track: str = "broad", slots: int = 1) -> str:
    t = "" if track == "broad" else f",track:{track}"
    return f"city=revenue:{revenue},slots:{slots};path=a:0,b:_0{t};path=a:3,b:_0{t}"


def town(revenue: int, *, track: str = "broad") -> str:
    t = "" if track == "broad" else f",track:{track}"
    return f"town=revenue:{revenue};path=a:0,b:_0{t};path=a:3,b:_0{t}"


def plain(track: str = "broad") -> str:
    t = "" if track == "broad" else f",track:{track}"
    return f"path=a:0,b:3{t}"


def column(*codes: str) -> TrackGraph:
    return build_graph({f"A{2 * i + 1}": (parse(c), 0) for i, c in enumerate(codes)})


def line(*hexes: str) -> RouteSpec:
    """A route along the column through the given hexes, one connection per neighbour pair."""
    return RouteSpec("T-0", tuple((a, b) for a, b in itertools.pairwise(hexes)))


def revenue(
    g: TrackGraph,
    train: TrainSpec,
    *routes: RouteSpec,
    tokens: dict[str, list[list[str | None]]] | None = None,
    phase: tuple[str, ...] = YELLOW,
) -> list[int]:
    specs = [RouteSpec(f"T-{i}", r.connections) for i, r in enumerate(routes)]
    res = run_revenue(
        g,
        specs,
        {s.train: train for s in specs},
        phase=phase,
        company="X",
        tokens=tokens if tokens is not None else {"A1": [["X"]]},
    )
    return [r.revenue for r in res.routes]


H2 = TrainSpec.hexes("2H", 2)
H4 = TrainSpec.hexes("4H", 4)
M2 = TrainSpec.stops("2M", large=(2, 2), small=(99, 99), gauge="metre")
E2 = TrainSpec.stops("2E", large=(2, 2), small=(99, 0))
D2 = TrainSpec.stops("2D", large=(2, 2), small=(99, 0), multiplier=2)


def test_h_trains_count_hex_sides_crossed_and_score_every_stop() -> None:
    g = column(city(20), plain(), city(30), town(10))
    assert revenue(g, H2, RouteSpec("", (("A1", "A3", "A5"),))) == [50]
    assert revenue(g, H4, RouteSpec("", (("A1", "A3", "A5"), ("A5", "A7")))) == [60]
    with pytest.raises(IllegalAction, match="3 is too many hex edges for 2H") as err:
        revenue(g, H2, RouteSpec("", (("A1", "A3", "A5"), ("A5", "A7"))))
    assert err.value.rule == "a train runs at most its distance"


def test_m_trains_count_large_stops_and_score_towns() -> None:
    m = "narrow"
    g = column(city(20, track=m), town(10, track=m), city(30, track=m), city(40, track=m))
    assert revenue(g, M2, line("A1", "A3", "A5")) == [60]
    with pytest.raises(IllegalAction, match="too many stops"):
        revenue(g, M2, line("A1", "A3", "A5", "A7"))


def test_e_trains_skip_towns_and_d_trains_double() -> None:
    g = column(city(20), town(10), town(10), city(30))
    route = line("A1", "A3", "A5", "A7")
    assert revenue(g, E2, route) == [50]
    assert revenue(g, D2, route) == [100]


def test_a_wounded_train_earns_half_rounded_down() -> None:
    g = column(city(20), city(25))
    assert revenue(g, H2, line("A1", "A3")) == [45]
    assert revenue(g, H2.wounded(), line("A1", "A3")) == [22]


def test_gauge_metre_trains_off_broad_track_others_off_metre_dual_is_both() -> None:
    g = column(city(20, track="dual"), city(30, track="dual"), city(10, track="narrow"))
    assert revenue(g, H2, line("A1", "A3")) == [50]
    assert revenue(g, M2, line("A1", "A3")) == [50]
    m3 = TrainSpec.stops("3M", large=(3, 3), small=(99, 99), gauge="metre")
    assert revenue(g, m3, line("A1", "A3", "A5")) == [60]
    with pytest.raises(IllegalAction, match="no broad track runs A3-A5"):
        revenue(g, H2, line("A1", "A3", "A5"))


def test_no_change_of_gauge_even_at_the_companys_own_station() -> None:
    # broad in from the north, metre out to the south of X's own city: 18xx.games keeps every
    # route on one gauge, so neither train can run through
    g = column(
        "city=revenue:20;path=a:0,b:_0",
        "city=revenue:20;path=a:3,b:_0;path=a:0,b:_0,track:narrow",
        city(30, track="narrow"),
    )
    tokens = {"A3": [["X"]]}
    assert revenue(g, H2, line("A1", "A3"), tokens=tokens) == [40]
    assert revenue(g, M2, line("A3", "A5"), tokens=tokens) == [50]
    with pytest.raises(IllegalAction):
        revenue(g, H2, line("A1", "A3", "A5"), tokens=tokens)
    with pytest.raises(IllegalAction):
        revenue(g, M2, line("A1", "A3", "A5"), tokens=tokens)


def test_routes_of_one_company_may_meet_at_a_city_but_not_share_track() -> None:
    g = column(city(20), city(30), city(40))
    assert revenue(g, H2, line("A1", "A3"), line("A3", "A5"), tokens={"A3": [["X"]]}) == [50, 70]
    with pytest.raises(IllegalAction, match="reuse track") as err:
        revenue(g, H2, line("A1", "A3"), line("A1", "A3", "A5"))
    assert err.value.rule is not None and "share track" in err.value.rule


def test_france_and_ports_end_a_route_and_france_pays_by_phase() -> None:
    france = "offboard=revenue:yellow_30|green_40|brown_50|gray_70,groups:France"
    g = column(city(20), f"{france};path=a:3,b:_0;path=a:0,b:_0", city(30))
    assert revenue(g, H2, line("A1", "A3")) == [50]
    assert revenue(g, H2, line("A1", "A3"), phase=GREEN) == [60]
    with pytest.raises(IllegalAction, match="passes through A3, an offboard"):
        revenue(g, H2, line("A1", "A3", "A5"))


def test_france_counts_once_per_route() -> None:
    france = "offboard=revenue:yellow_30|green_40|brown_50|gray_70,groups:France"
    g = column(f"{france};path=a:0,b:_0", city(20), f"{france};path=a:3,b:_0")
    with pytest.raises(IllegalAction, match="group France more than once"):
        revenue(g, H2, line("A1", "A3", "A5"), tokens={"A3": [["X"]]})


def test_a_city_full_of_other_companies_blocks_passing_not_ending() -> None:
    g = column(city(20), city(30), city(40, slots=2))
    full = {"A1": [["X"]], "A3": [["Y"]], "A5": [["Z", None]]}
    assert revenue(g, H2, line("A1", "A3"), tokens=full) == [50]
    with pytest.raises(IllegalAction, match="passes through A3, a city full") as err:
        revenue(g, H2, line("A1", "A3", "A5"), tokens=full)
    assert err.value.rule == "a route may not pass through a city filled by other companies"
    # a free slot, or the company's own token, lets a route through
    assert revenue(g, H2, line("A1", "A3", "A5"), tokens={**full, "A3": [[None]]}) == [90]
    assert revenue(g, H2, line("A1", "A3", "A5"), tokens={**full, "A3": [["X"]]}) == [90]


def test_a_route_needs_a_station_and_two_stops() -> None:
    g = column(city(20), city(30))
    with pytest.raises(IllegalAction, match="station marker of X"):
        revenue(g, H2, line("A1", "A3"), tokens={})
    with pytest.raises(IllegalAction, match="no broad track runs"):
        revenue(g, H2, RouteSpec("", (("A1", "A1"),)))


def test_connections_through_a_junction_name_its_hex_once() -> None:
    g = build_graph(
        {
            "A1": (parse(city(20)), 0),
            "A3": (parse("junction;path=a:3,b:_0;path=a:0,b:_0;path=a:5,b:_0"), 0),
            "A5": (parse(city(30)), 0),
            "B4": (parse("city=revenue:50;path=a:2,b:_0"), 0),
        }
    )
    assert revenue(g, H2, RouteSpec("", (("A1", "A3", "A5"),))) == [50]
    assert revenue(g, H2, RouteSpec("", (("A1", "A3", "B4"),))) == [70]


def test_recorded_nodes_choose_between_equal_connections() -> None:
    # two towns in A3 both on track from A1 to A5: the connections alone are ambiguous
    code = "town=revenue:10;town=revenue:20;path=a:3,b:_0;path=a:_0,b:0;path=a:4,b:_1;path=a:_1,b:5"
    g = build_graph(
        {"A1": (parse(city(20)), 0), "A3": (parse(code), 0), "A5": (parse(city(30)), 0)}
    )
    res = run_revenue(
        g,
        [RouteSpec("T", (("A1", "A3"),), nodes=("A1-0", "A3-0"))],
        {"T": H2},
        phase=YELLOW,
        company="X",
        tokens={"A1": [["X"]]},
    )
    assert [r.revenue for r in res.routes] == [30]


def test_train_specs_from_trains_yaml_shapes() -> None:
    assert train_spec_from_data("6H", {"hexes": 6}).distance == 6
    e = train_spec_from_data(
        "5D",
        {"large_stops": {"visit": 5, "pay": 5}, "small_stops": {"visit": 99, "pay": 0}},
        multiplier=2,
    )
    assert e == TrainSpec.stops("5D", large=(5, 5), small=(99, 0), multiplier=2)


def test_best_routes_picks_the_best_disjoint_pair() -> None:
    g = column(city(20), city(30), city(40), city(10))
    best = best_routes(
        g,
        [("2H-0", H2), ("2H-1", H2)],
        phase=YELLOW,
        company="X",
        tokens={"A3": [["X"]]},
    )
    # the best single route A1-A3-A5 (90) uses both sides of the only station, leaving the
    # other train nothing; A1-A3 (50) + A3-A5-A7 (80) = 130 is the best run
    assert best.total == 130
    assert sorted(r.revenue for r in best.routes) == [50, 80]
    assert sorted(r.describe(g) for r in best.routes) == ["A1-A3", "A3-A5-A7"]


def test_best_routes_with_a_limit_returns_a_legal_run_flagged_inexact() -> None:
    g = column(city(20), city(30), city(40), city(10))
    trains = [("2H-0", H2), ("2H-1", H2)]
    tokens: dict[str, list[list[str | None]]] = {"A3": [["X"]]}
    quick = best_routes(g, trains, phase=YELLOW, company="X", tokens=tokens, limit=0)
    assert not quick.exact
    # the greedy run from the best 2H route is 90 (it leaves the other none); two identical
    # trains also try greedy runs from their other good routes, which here finds
    # A1-A3 (50) + A3-A5-A7 (80)
    assert quick.total == 130
    assert sorted(r.revenue for r in quick.routes) == [50, 80]
    assert quick.total == sum(r.revenue for r in quick.routes)
    full = best_routes(g, trains, phase=YELLOW, company="X", tokens=tokens)
    assert full.exact and full.total == 130


def test_a_malformed_recorded_route_is_an_illegal_action_not_a_crash() -> None:
    with pytest.raises(IllegalAction, match="needs 'train'"):
        RouteSpec.from_action({"connections": [["A1", "A3"]]})
    with pytest.raises(IllegalAction, match="non-empty list"):
        RouteSpec.from_action({"train": "2H-0", "connections": [[]]})
    spec = RouteSpec.from_action(
        {"train": "2H-0", "connections": [["A1", "A3"]], "nodes": ["A1-0"], "revenue": 50}
    )
    assert spec == RouteSpec("2H-0", (("A1", "A3"),), ("A1-0",), 50)
