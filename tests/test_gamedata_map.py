"""The 1858 map as declared in gamedata/1858/map.yaml: facts a player can check on the board."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

import pytest
from conftest import GAMEDATA, shared_path
from ruamel.yaml import YAML

MAP = GAMEDATA / "1858" / "map.yaml"

# Flat layout, as in 18xx.games: edge -> (column step, row step) to the neighbour.
STEPS = {0: (0, 2), 1: (-1, 1), 2: (-1, -1), 3: (0, -2), 4: (1, -1), 5: (1, 1)}


@cache
def hexes() -> dict[str, dict[str, Any]]:
    with MAP.open(encoding="utf-8") as handle:
        data: dict[str, dict[str, Any]] = YAML(typ="safe").load(handle)["hexes"]
    return data


def names() -> dict[str, str]:
    return {c: h["name"] for c, h in hexes().items() if "name" in h}


def xy(coord: str) -> tuple[int, int]:
    match = re.fullmatch(r"([A-Z])(\d+)", coord)
    assert match, coord
    return ord(match.group(1)) - ord("A"), int(match.group(2))


def neighbour(coord: str, edge: int) -> str | None:
    x, y = xy(coord)
    dx, dy = STEPS[edge]
    by_xy = {xy(c): c for c in hexes()}
    return by_xy.get((x + dx, y + dy))


@cache
def _definition() -> Any:
    from ferrovia.data.definition import load_game

    return load_game(GAMEDATA / "1858")


def tile(coord: str) -> Any:
    """The hex's preprinted tile as the game loads it (a group's value filled in)."""
    return _definition().hexes[coord].tile


def test_127_hexes_on_one_flat_grid() -> None:
    assert len(hexes()) == 127
    # a flat grid: letter index + number has one parity over the whole map
    assert {sum(xy(c)) % 2 for c in hexes()} == {0}
    assert min(hexes(), key=xy) == "A12" and "P7" in hexes()


def test_52_names_with_spot_checks() -> None:
    found = names()
    assert len(found) == 52
    assert len(set(found.values())) == 52
    assert found["H11"] == "Madrid"
    assert found["O8"] == "Barcelona"
    assert found["A14"] == "Lisboa"
    assert found["B9"] == "Porto"
    assert found["M2"] == "France"
    assert found["N9"] == "Reus & Tarragona"
    assert found["G10"] == "Ávila"
    assert "I14" not in found  # preprinted yellow track, no place


def test_colours() -> None:
    by_colour: dict[str, set[str]] = {}
    for coord, entry in hexes().items():
        by_colour.setdefault(entry["color"], set()).add(coord)
    assert by_colour["red"] == {"K2", "L3", "M2", "N3", "O4", "P5"}  # France
    assert by_colour["blue"] == {"A16", "J1"}  # the two ports
    assert by_colour["yellow"] == {"H11", "H13", "I14", "L7"}
    assert by_colour["green"] == {"A14"}
    assert by_colour["gray"] == {"D1", "F1", "F21", "H21", "K20", "L17", "L19"}
    assert len(by_colour["white"]) == 107


def test_every_code_parses() -> None:
    notation = pytest.importorskip("ferrovia.notation")
    for coord in hexes():
        # strict: new data has none of the slips lenient mode forgives in 18xx.games codes
        assert notation.check(_definition().hexes[coord].code, strict=True) is None, coord


def test_france_pays_by_phase_colour_and_is_one_stop() -> None:
    france = ["K2", "L3", "M2", "N3", "O4", "P5"]
    for coord in france:
        offboard = tile(coord).offboards[0]
        assert offboard.revenue.as_dict() == {"yellow": 30, "green": 40, "brown": 50, "gray": 70}
        assert offboard.groups == ("France",)
        assert offboard.hide == (coord != "M2")  # the value is printed once, on M2
        # ... and said once in the data: no France hex code carries it
        assert "revenue" not in hexes()[coord]["code"]


def test_madrid_is_three_separate_cities_in_yellow() -> None:
    madrid = tile("H11")
    assert madrid.label == "M"
    assert [c.revenue.flat for c in madrid.cities] == [40, 40, 40]
    assert {c.groups for c in madrid.cities} == {("Madrid",)}
    # each city has its own track: no path joins two of them
    assert len(madrid.paths) == 4 and all(len(p.node_refs) == 1 for p in madrid.paths)


def test_preprinted_stops() -> None:
    assert [(c.revenue.flat, c.slots) for c in tile("A14").cities] == [(40, 2)]
    assert tile("A14").label == "L"
    assert [(c.revenue.flat, c.slots) for c in tile("F1").cities] == [(40, 2)]
    assert [t.revenue.flat for t in tile("L17").towns] == [10]
    assert tile("A16").offboards[0].revenue.flat == 30
    assert tile("J1").offboards[0].revenue.flat == 20
    # white hexes print no value: it comes from the tile laid
    for coord, entry in hexes().items():
        if entry["color"] == "white":
            assert all(s.revenue.flat == 0 for s in tile(coord).city_towns), coord


def test_terrain_costs() -> None:
    costs: dict[tuple[str, int], int] = {}
    for coord in hexes():
        for upgrade in tile(coord).upgrades:
            key = (upgrade.terrains[0], upgrade.cost)
            costs[key] = costs.get(key, 0) + 1
    assert costs == {
        ("water", 20): 28,
        ("mountain", 40): 12,
        ("mountain", 80): 10,
        ("mountain", 120): 3,
    }
    assert tile("N5").upgrades[0].cost == 120  # Pyrenees


def test_borders_agree_on_both_sides() -> None:
    """A province boundary or impassable side is declared by both hexes that share it."""
    for coord in hexes():
        for border in tile(coord).borders:
            if border.type is None:  # only drawn: on the closed red and gray hexes
                assert hexes()[coord]["color"] in {"red", "gray"}, coord
                continue
            other = neighbour(coord, border.edge)
            assert other is not None, (coord, border.edge)
            assert any(
                b.edge == (border.edge + 3) % 6 and b.type == border.type
                for b in tile(other).borders
            ), (coord, border.edge, other)


def test_track_only_leads_onto_the_map() -> None:
    for coord in hexes():
        parsed = tile(coord)
        for path in (*parsed.paths, *parsed.future_paths):
            for edge in path.edges:
                assert neighbour(coord, edge) is not None, (coord, edge)


# --- what the rulebook says about the board ------------------------------------------------


@cache
def rulebook() -> str:
    return shared_path("seeds", "1858-rulebook.txt").read_text(encoding="utf-8")


def test_rulebook_france_has_four_values_one_per_tile_colour() -> None:
    text = " ".join(rulebook().split())
    assert (
        "the lowest value in Phase 2, the second value in Phases 3 and 4, the third value in "
        "Phases 5 and 6, and the highest value in Phase 7" in text
    )
    # 18xx.games keys them by the newest tile colour of the phase: 2 yellow, 3-4 green,
    # 5-6 brown, 7 gray
    values = tile("M2").offboards[0].revenue.as_dict()
    assert list(values) == ["yellow", "green", "brown", "gray"]
    assert list(values.values()) == sorted(set(values.values()))


def test_rulebook_impassable_side_between_lisboa_and_setubal() -> None:
    assert "impassable hex-side shown by a thick blue line" in rulebook()
    impassable = {
        (c, str(b.edge))
        for c in hexes()
        for b in tile(c).borders
        if b.type is not None and b.type.value == "impassable"
    }
    assert impassable == {("A14", "5"), ("B15", "2")}
    assert neighbour("A14", 5) == "B15"


def test_rulebook_private_track_examples() -> None:
    text = rulebook()
    # "The C&S, laying a tile in F17, must lay a #8 tile pointing towards Seville and Cordoba."
    assert "C&S, laying a tile in F17, must lay a #8 tile" in text
    (curve,) = tile("F17").future_paths
    assert (curve.edges[1] - curve.edges[0]) % 6 in (2, 4)  # a gentle curve: tile 8's shape
    assert {names()[str(neighbour("F17", e))] for e in curve.edges} == {"Sevilla", "Córdoba"}
    # "The M&V, laying a tile in Valladolid (G8), must point one prong south towards G10"
    assert "Valladolid (G8), must point one prong south towards G10" in text
    (prong,) = tile("G8").future_paths
    assert prong.edges == (0,) and neighbour("G8", 0) == "G10"
    # "The M&S, laying in Salamanca (F9), may lay any appropriate tile in any orientation."
    assert "Salamanca (F9), may lay any appropriate tile in any orientation" in text
    assert tile("F9").future_paths == ()


def test_rulebook_porto_takes_the_brown_p_tile() -> None:
    assert "The brown P tile is reserved for Porto (B9)." in rulebook()
    future = {c: tile(c).future_label for c in hexes() if tile(c).future_label}
    assert list(future) == ["B9"]
    assert (future["B9"].label, future["B9"].color) == ("P", "brown")
    assert tile("B9").label == "Y"


def test_rulebook_labelled_cities() -> None:
    assert "if the map hex is also marked with a Y or B then so must the tile" in rulebook()
    labels = {c: tile(c).label for c in hexes() if tile(c).label}
    assert labels == {
        "A14": "L",
        "B9": "Y",
        "E18": "Y",
        "G20": "Y",
        "H11": "M",
        "L7": "Y",
        "L13": "Y",
        "O8": "B",
    }


def test_rulebook_preprinted_track() -> None:
    assert "hexes on which yellow and green track is printed" in rulebook()
    for coord in ("H11", "H13", "I14", "L7", "A14"):
        assert tile(coord).paths, coord
    assert all(not tile(c).paths for c, h in hexes().items() if h["color"] == "white")


def test_private_railway_marks_belong_to_their_home_hexes() -> None:
    """Each `1858/<icon>` on the map and each printed future line is a private's home hex."""
    privates_file = GAMEDATA / "1858" / "privates.yaml"
    if not privates_file.exists():
        pytest.skip("gamedata/1858/privates.yaml not written yet")
    with privates_file.open(encoding="utf-8") as handle:
        privates = YAML(typ="safe").load(handle)["privates"]
    homes = {p["icon"]: set(p["home_hexes"]) for p in privates if p.get("icon")}
    future = {c for p in privates for c in p["home_hexes"]}
    marked: dict[str, set[str]] = {}
    for coord in hexes():
        for icon in tile(coord).icons:
            if icon.image.startswith("1858/"):
                marked.setdefault(icon.image.removeprefix("1858/"), set()).add(coord)
        if tile(coord).future_paths:
            assert coord in future, coord
    assert set(marked) == set(homes)  # all 21 privates with a home (not H&G) are marked
    for icon, coords in marked.items():
        assert coords <= homes[icon], icon
    assert marked["MZ"] == {"I10", "J9", "K8", "L7"}  # Madrid-Zaragoza's line
