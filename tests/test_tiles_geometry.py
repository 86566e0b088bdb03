"""Tile geometry: rotation, exits, segments and the 18xx.games upgrade rules."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import GAMEDATA, SHARED
from ferrovia.board.tiles import (
    Segment,
    added_track_gauges,
    any_gauge_fits,
    city_town_edges,
    exits,
    future_label_after_lay,
    new_track,
    path_ends,
    paths_are_subset,
    rotate,
    segments,
    upgrade_rotations,
    upgrades_to,
)
from ferrovia.notation import Edge, Gauge, NodeRef, format_tile, parse
from ruamel.yaml import YAML

# Codes of the 18xx.games shared tile registry (colour noted), written here so the test is
# self-contained.
T = {
    "3": "town=revenue:10;path=a:0,b:_0;path=a:_0,b:1",  # yellow
    "7": "path=a:0,b:1",  # yellow
    "8": "path=a:0,b:2",  # yellow
    "9": "path=a:0,b:3",  # yellow
    "57": "city=revenue:20;path=a:0,b:_0;path=a:_0,b:3",  # yellow
    "14": "city=revenue:30,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:3,b:_0;path=a:4,b:_0",
    "15": "city=revenue:30,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;path=a:3,b:_0",
    "18": "path=a:0,b:3;path=a:1,b:2",  # green
    "26": "path=a:0,b:3;path=a:0,b:5",  # green
    "80": "junction;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0",  # green (Lawson)
    "63": "city=revenue:40,slots:2;" + ";".join(f"path=a:{e},b:_0" for e in range(6)),  # brown
    "84n": "path=a:0,b:1,track:narrow;path=a:1,b:2,track:narrow;path=a:0,b:2,track:narrow",
}
TILES = {name: parse(code) for name, code in T.items()}


# ----------------------------------------------------------------------------- rotation
def test_rotate_moves_edges_borders_stubs_partitions_and_locs() -> None:
    tile = parse(
        "city=revenue:20,loc:2.5;town=revenue:10,loc:center;path=a:0,b:_0;path=a:4,b:_1;"
        "border=edge:5,type:water;stub=edge:3;partition=a:0+,b:3,type:water;"
        "icon=image:port,loc:5"
    )
    assert format_tile(rotate(tile, 2)) == (
        "city=revenue:20,loc:4.5;town=revenue:10,loc:center;path=a:2,b:_0;path=a:0,b:_1;"
        "border=edge:1,type:water;stub=edge:5;partition=a:2+,b:5,type:water;"
        "icon=image:port,loc:1"
    )
    assert rotate(tile, 0) is tile and rotate(tile, 6) is tile
    assert rotate(rotate(tile, 4), 2) == tile


@pytest.mark.parametrize(("r", "expected"), [(0, (0, 3)), (1, (1, 4)), (4, (1, 4)), (5, (2, 5))])
def test_exits(r: int, expected: tuple[int, ...]) -> None:
    assert exits(TILES["57"], r) == expected


def test_exits_ignore_future_track_and_count_each_edge_once() -> None:
    assert exits(parse("path=a:0,b:3;path=a:0,b:2;path=a:1,b:4,track:future")) == (0, 2, 3)


def test_segments_name_nodes_stably() -> None:
    tile = parse("town=revenue:10;city=revenue:20;path=a:0,b:_1;path=a:_0,b:3,track:narrow,lanes:2")
    assert segments(tile, 3) == (
        Segment(Edge(3), NodeRef(1), Gauge.BROAD, 1),
        Segment(NodeRef(0), Edge(0), Gauge.NARROW, 2),
    )


def test_city_town_edges() -> None:
    tile = parse("city=revenue:20;city=revenue:20;path=a:0,b:_0;path=a:3,b:_1;path=a:_1,b:4")
    assert city_town_edges(tile, 1) == {0: [1], 1: [4, 5]}


def test_junction_path_ends_are_the_far_ends_of_the_other_paths() -> None:
    tile = TILES["80"]
    assert path_ends(tile, tile.paths[0]) == (Edge(0), Edge(1), Edge(2))


# ----------------------------------------------------------------------------- rotations
@pytest.mark.parametrize(
    ("old", "old_rotation", "new", "expected"),
    [
        ("7", 0, "18", [5]),  # the curve 0-1 is 18's inner curve only when turned to 5
        ("7", 2, "18", [1]),
        ("9", 0, "18", [0, 3]),
        ("8", 0, "26", []),  # 26 (0-3, 0-5) has no gentle curve
        ("57", 0, "14", [0, 2, 3, 5]),
        ("57", 1, "14", [0, 1, 3, 4]),
        ("57", 0, "15", [0, 3]),
        ("14", 0, "63", [0, 1, 2, 3, 4, 5]),
        ("9", 0, "57", []),  # plain track cannot become city track
        ("7", 0, "80", [0, 5]),  # a Lawson junction keeps the curve through its centre
    ],
)
def test_upgrade_rotations(old: str, old_rotation: int, new: str, expected: list[int]) -> None:
    assert upgrade_rotations(TILES[old], old_rotation, TILES[new]) == expected


def test_multi_city_upgrade_keeps_each_old_city_on_one_new_city() -> None:
    yellow_oo = parse("city=revenue:20;city=revenue:20;path=a:0,b:_0;path=a:3,b:_1;label=OO")
    green_oo = parse(
        "city=revenue:40;city=revenue:40;path=a:0,b:_0;path=a:1,b:_0;path=a:3,b:_1;"
        "path=a:4,b:_1;label=OO"
    )
    assert upgrade_rotations(yellow_oo, 0, green_oo) == [0, 2, 3, 5]
    # an old city with track to edges 0 and 1 must keep both on one new city
    old = parse(
        "city=revenue:20;city=revenue:20;path=a:0,b:_0;path=a:1,b:_0;path=a:3,b:_1;label=OO"
    )
    split = parse(
        "city=revenue:40;city=revenue:40;path=a:0,b:_0;path=a:3,b:_0;path=a:1,b:_1;"
        "path=a:4,b:_1;label=OO"
    )
    assert upgrade_rotations(old, 0, split) == []
    assert upgrade_rotations(old, 0, green_oo) == [0, 3]


def test_new_city_may_not_swallow_track_of_a_blank_city_hex() -> None:
    blank_city = parse("city=revenue:0")
    assert upgrade_rotations(blank_city, 0, TILES["57"]) == [0, 1, 2, 3, 4, 5]


def test_exit_allowed_forbids_edges() -> None:
    assert upgrade_rotations(TILES["57"], 0, TILES["14"], exit_allowed=lambda e: e != 5) == [0, 3]


def test_gauge_must_fit_unless_told_otherwise() -> None:
    broad, dual, narrow = (parse(f"path=a:0,b:3{t}") for t in ("", ",track:dual", ",track:narrow"))
    assert upgrade_rotations(broad, 0, dual) == [0, 3]
    assert upgrade_rotations(broad, 0, narrow) == []
    assert upgrade_rotations(dual, 0, broad) == []
    assert upgrade_rotations(narrow, 0, dual) == [0, 3]
    assert upgrade_rotations(broad, 0, narrow, gauge_fits=any_gauge_fits) == [0, 3]
    assert upgrade_rotations(parse("path=a:0,b:1,track:narrow"), 0, TILES["84n"]) == [0, 5]


def test_added_track_gauges() -> None:
    assert added_track_gauges(TILES["7"], TILES["84n"]) == (Gauge.NARROW,) * 3
    assert added_track_gauges(parse("path=a:0,b:1,track:narrow"), TILES["84n"]) == (
        Gauge.NARROW,
        Gauge.NARROW,
    )
    assert added_track_gauges(TILES["9"], TILES["18"]) == (Gauge.BROAD,)


# ----------------------------------------------------------------------------- upgrades_to
@pytest.mark.parametrize(
    ("old", "old_colour", "new", "new_colour", "ok"),
    [
        ("7", "yellow", "18", "green", True),
        ("9", "yellow", "18", "green", True),
        ("8", "yellow", "18", "green", False),  # no 0-2 gentle curve anywhere on 18
        ("7", "yellow", "8", "yellow", False),  # same colour
        ("57", "yellow", "63", "brown", False),  # colours are not skipped
        ("57", "yellow", "14", "green", True),
        ("57", "yellow", "15", "green", True),
        ("3", "yellow", "14", "green", False),  # a town does not become a city
        ("7", "yellow", "80", "green", True),
    ],
)
def test_upgrades_to(old: str, old_colour: str, new: str, new_colour: str, ok: bool) -> None:
    assert upgrades_to(TILES[old], old_colour, TILES[new], new_colour) is ok


def test_upgrades_to_labels_and_future_labels() -> None:
    y_city = parse("city=revenue:30;path=a:0,b:_0;path=a:_0,b:3;label=Y")
    green_y = parse("city=revenue:40,slots:2;path=a:0,b:_0;path=a:3,b:_0;label=Y")
    assert upgrades_to(y_city, "yellow", green_y, "green")
    assert not upgrades_to(y_city, "yellow", TILES["15"], "green")
    assert not upgrades_to(TILES["57"], "yellow", green_y, "green")
    sticker = parse("city=revenue:20;path=a:0,b:_0;path=a:_0,b:3;future_label=label:Y,color:green")
    assert upgrades_to(sticker, "yellow", green_y, "green")
    assert not upgrades_to(sticker, "yellow", TILES["15"], "green")


def test_labelled_city_may_change_city_count_but_not_lose_all_cities() -> None:
    oo = parse("city=revenue:30;city=revenue:30;path=a:0,b:_0;path=a:3,b:_1;label=OO")
    one = parse("city=revenue:60,slots:2;path=a:0,b:_0;path=a:3,b:_0;label=OO")
    none = parse("path=a:0,b:3;label=OO")
    assert upgrades_to(oo, "green", one, "brown")
    assert not upgrades_to(oo, "green", none, "brown")
    assert not upgrades_to(parse("city=revenue:0;city=revenue:0;label=OO"), "white", one, "yellow")


def test_special_ability_skips_label_and_city_checks_but_not_track() -> None:
    y_city = parse("city=revenue:30;path=a:0,b:_0;path=a:_0,b:3;label=Y")
    assert not upgrades_to(y_city, "yellow", TILES["14"], "green")
    assert upgrades_to(y_city, "yellow", TILES["14"], "green", special=True)
    assert not upgrades_to(TILES["3"], "yellow", TILES["14"], "green", special=True)


def test_lawson_to_lawson_compares_exits() -> None:
    yellow_lawson = parse("junction;path=a:0,b:_0;path=a:1,b:_0")
    assert paths_are_subset(yellow_lawson, 0, TILES["80"])
    assert upgrades_to(yellow_lawson, "yellow", TILES["80"], "green")
    assert upgrade_rotations(yellow_lawson, 0, TILES["80"]) == [0, 5]


def test_custom_colour_order() -> None:
    order = ("white", "yellow", "green", "greenbrown", "brown")
    assert not upgrades_to(TILES["14"], "green", TILES["63"], "brown", colour_order=order)
    assert upgrades_to(TILES["14"], "greenbrown", TILES["63"], "brown", colour_order=order)


def test_future_label_stays_with_the_hex_until_its_colour() -> None:
    porto = parse("city=revenue:0;label=Y;future_label=label:P,color:brown")
    label = porto.future_label
    green_y = parse("city=revenue:40,slots:2;path=a:0,b:_0;path=a:3,b:_0;label=Y")
    brown_p = parse("city=revenue:50,slots:2;path=a:0,b:_0;path=a:3,b:_0;label=P")
    brown_y = parse("city=revenue:50,slots:2;path=a:0,b:_0;path=a:3,b:_0;label=Y")
    after_green = future_label_after_lay(label, green_y, "green")
    assert after_green == label and green_y.future_label is None
    assert upgrades_to(green_y, "green", brown_p, "brown", future_label=after_green)
    assert not upgrades_to(green_y, "green", brown_y, "brown", future_label=after_green)
    assert future_label_after_lay(after_green, brown_p, "brown") is None


# ----------------------------------------------------------------------------- real games
def _live_actions(actions: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The actions left after undo/redo, as 18xx.games replays them."""
    kept: list[dict[str, Any] | None] = [None] * len(actions)
    undone: list[list[tuple[dict[str, Any], int]]] = []
    for index, action in enumerate(actions):
        kind = action["type"]
        if kind == "undo":
            target = action.get("action_id")
            if target is not None:
                start = 0 if target == 0 else [a["id"] for a in actions].index(target) + 1
            else:
                live = [i for i, a in enumerate(kept) if a and a["type"] != "message"]
                start = live[-1] if live else 0
            batch = [(a, i) for i, a in enumerate(kept[start:index], start) if a]
            batch = [(a, i) for a, i in batch if a["type"] != "message"]
            for _, i in batch:
                kept[i] = None
            undone.append(batch)
        elif kind == "redo":
            for a, i in undone.pop():
                kept[i] = a
        else:
            if kind != "message":
                undone.clear()
            kept[index] = action
    return [a for a in kept if a]


def test_every_tile_lay_of_recorded_1858_games_is_legal_here() -> None:
    """Each tile 18xx.games let a player lay is a candidate and at a rotation we allow."""
    games = sorted((SHARED / "fixtures" / "18xx.games" / "1858").glob("*.json"))
    games += sorted((SHARED / "fixtures" / "reference-random").glob("*.json"))
    try:
        yaml = YAML(typ="safe")
        standard = yaml.load((GAMEDATA / "tilesets" / "standard.yaml").read_text())["tiles"]
        own = yaml.load((GAMEDATA / "1858" / "tiles.yaml").read_text())["tiles"]
        map_doc = yaml.load((GAMEDATA / "1858" / "map.yaml").read_text())
        hexes = map_doc["hexes"]
        from ferrovia.data.validate import with_group_revenue

        for v in hexes.values():  # France's value is said once (map.yaml group_revenues)
            v["code"] = with_group_revenue(v.get("code", ""), map_doc.get("group_revenues", {}))[0]
        defs = {str(k): (v["color"], parse(v["code"])) for k, v in standard.items()}
        defs |= {str(k): (v["color"], parse(v["code"])) for k, v in own.items() if "code" in v}
    except (OSError, KeyError, TypeError) as exc:
        pytest.skip(f"needs the 1858 map and tiles in gamedata ({exc!r})")
    if not games:
        pytest.skip("needs ../shared/fixtures (recorded 1858 games)")
    lays = 0
    for game in games:
        data = json.loads(game.read_text(encoding="utf-8"))
        if data.get("title", "1858") != "1858":
            continue
        board = {
            h: (v.get("color", "white"), parse(v.get("code", "")), 0) for h, v in hexes.items()
        }
        future = {h: tile.future_label for h, (_, tile, _) in board.items()}
        for action in _live_actions(data["actions"]):
            if action["type"] != "lay_tile":
                continue
            hex_ = action["hex"]
            colour, new = defs[action["tile"].rsplit("-", 1)[0]]
            old_colour, old, old_rotation = board[hex_]
            where = f"{game.name} action {action['id']} {hex_} {action['tile']}"
            assert upgrades_to(
                old, old_colour, new, colour, old_rotation=old_rotation, future_label=future[hex_]
            ), where
            assert action["rotation"] in upgrade_rotations(old, old_rotation, new), where
            board[hex_] = (colour, new, action["rotation"])
            future[hex_] = future_label_after_lay(future[hex_], new, colour)
            lays += 1
    assert lays > 2000


def test_new_track_is_what_no_old_path_covers() -> None:
    old = TILES["57"]
    assert new_track(old, 0, TILES["14"], 0) == (TILES["14"].paths[1], TILES["14"].paths[3])
    assert new_track(old, 1, TILES["14"], 1) == (TILES["14"].paths[1], TILES["14"].paths[3])
    assert new_track(old, 0, old, 0) == ()
    dual = parse("city=revenue:20;path=a:0,b:_0,track:dual;path=a:_0,b:3,track:dual")
    assert len(new_track(old, 0, dual, 0)) == 2  # dual gauge over broad is new track
