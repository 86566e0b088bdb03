"""The 1858 tile manifest, the standard tile set and the upgrade rules, as declared in YAML."""

from __future__ import annotations

import itertools
import re
from functools import cache
from typing import Any, ClassVar

import pytest
from conftest import GAMEDATA, shared_path
from ruamel.yaml import YAML

TILES = GAMEDATA / "1858" / "tiles.yaml"
TILESET = GAMEDATA / "tilesets" / "standard.yaml"
MAP = GAMEDATA / "1858" / "map.yaml"


def load(path: Any) -> Any:
    with path.open(encoding="utf-8") as handle:
        return YAML(typ="safe").load(handle)


@cache
def manifest() -> dict[str, dict[str, Any]]:
    data: dict[str, dict[str, Any]] = load(TILES)["tiles"]
    return data


@cache
def rules() -> dict[str, Any]:
    data: dict[str, Any] = load(TILES)
    return data


@cache
def tileset() -> dict[str, dict[str, Any]]:
    data: dict[str, dict[str, Any]] = load(TILESET)["tiles"]
    return data


def colour_and_code(name: str) -> tuple[str, str]:
    entry = manifest()[name]
    if "code" in entry:
        return entry["color"], entry["code"]
    return tileset()[name]["color"], tileset()[name]["code"]


def test_108_tile_types() -> None:
    assert len(manifest()) == 108
    own = {n for n, e in manifest().items() if "code" in e}
    assert own == {f"X{i}" for i in range(1, 21)} | {"84", "85", "86"}
    # every other tile comes from the tile set, which holds only tiles a bundled game uses
    assert set(manifest()) - own <= set(tileset())
    used: set[str] = set()
    for tiles_file in TILES.parent.parent.glob("*/tiles.yaml"):
        used |= {n for n, e in load(tiles_file)["tiles"].items() if e and "code" not in e}
    assert set(tileset()) <= used


def test_counts() -> None:
    counts = {name: entry["count"] for name, entry in manifest().items()}
    expected: dict[str, int | str] = {
        "14": 2,
        "15": 4,
        "80": 2,
        "82": 4,
        "87": 4,
        "89": 1,
        "204": 4,
        "619": 2,
    }
    expected |= {"673": 4, "X4": 2, "X7": 1, "X9": 4, "X13": 8, "X16": 1, "X19": 1}
    expected |= {"1": "unlimited", "9": "unlimited", "57": "unlimited", "201": "unlimited"}
    assert {name: counts[name] for name in expected} == expected
    assert sum(c for c in counts.values() if c != "unlimited") == 131
    unlimited = {n for n, c in counts.items() if c == "unlimited"}
    assert len(unlimited) == 28
    assert {colour_and_code(n)[0] for n in unlimited} == {"yellow"}  # only yellow is unlimited


def test_tile_set_codes() -> None:
    assert tileset()["57"] == {
        "color": "yellow",
        "code": "city=revenue:20;path=a:0,b:_0;path=a:_0,b:3",
    }
    assert tileset()["9"] == {"color": "yellow", "code": "path=a:0,b:3"}
    assert tileset()["112"]["color"] == "gray"
    assert tileset()["673"]["color"] == "brown"
    assert tileset()["204"]["color"] == "green"


def test_tile_set_matches_the_18xx_games_registry() -> None:
    registry = shared_path("corpus", "tile-registry.tsv")
    rows = [line.split("\t") for line in registry.read_text(encoding="utf-8").splitlines()[1:]]
    known = {name: (colour.lower(), code) for colour, name, code in rows}
    for name, entry in tileset().items():
        assert known[name] == (entry["color"], entry["code"]), name


def test_every_code_parses() -> None:
    notation = pytest.importorskip("ferrovia.notation")
    for name in manifest():
        assert notation.check(colour_and_code(name)[1], strict=True) is None, name


def test_own_tiles() -> None:
    notation = pytest.importorskip("ferrovia.notation")
    x19 = notation.parse(colour_and_code("X19")[1])
    assert colour_and_code("X19")[0] == "gray"
    assert [(c.revenue.flat, c.slots) for c in x19.cities] == [(100, 3)]
    assert x19.label == "M" and len({e for p in x19.paths for e in p.edges}) == 6
    x7 = notation.parse(colour_and_code("X7")[1])
    assert [c.revenue.flat for c in x7.cities] == [50, 50, 50]  # Madrid, still three cities
    for name in ("84", "85", "86", "X4"):
        parsed = notation.parse(colour_and_code(name)[1])
        assert parsed.junctions and {p.track.value for p in parsed.paths} == {"narrow"}, name


def test_brown_and_gray_track_is_dual_gauge() -> None:
    notation = pytest.importorskip("ferrovia.notation")
    for name in manifest():
        colour, code = colour_and_code(name)
        if colour in ("brown", "gray"):
            assert {p.track.value for p in notation.parse(code).paths} == {"dual"}, name


# --- upgrade rules ----------------------------------------------------------------------------


def test_upgrade_rules_declared() -> None:
    upgrades = rules()["upgrades"]
    assert upgrades["colors"] == ["yellow", "green", "brown", "gray"]
    assert upgrades["gauges_kept_by"] == {
        "broad": ["broad", "dual"],
        "metre": ["metre", "dual"],
        "dual": ["dual"],
    }
    assert "max_exits" not in upgrades  # rulebook only: 18xx.games does not enforce it
    assert upgrades["metre_gauge_from_phase"] == "3"
    lays = rules()["lays"]
    assert [lay["upgrade"] for lay in lays["corporation"]] == [True, True]
    assert [lay["upgrade"] for lay in lays["private"]] == [False, False]
    assert lays["corporation"][1] == {
        "upgrade": True,
        "cost": 20,
        "metre_cost": 10,
        "other_hex": True,
    }


class Oracle:
    """A small, independent reading of the declared upgrade rules (colour, label, stops, track),
    enough to list which tiles may follow which; the engine's own check lives in engine/."""

    GAUGE: ClassVar[dict[str, str]] = {"broad": "broad", "narrow": "metre", "dual": "dual"}

    def __init__(self) -> None:
        self.notation = pytest.importorskip("ferrovia.notation")
        self.upgrades = rules()["upgrades"]
        self.order = ["white", *self.upgrades["colors"]]

    def ends(self, tile: Any, path: Any) -> list[tuple[str, int]]:
        """A path's ends: ('edge', n) or ('city'|'town', -1); a junction stands for the edges
        of its other paths."""
        found: list[tuple[str, int]] = []
        for end in path.ends:
            if isinstance(end, self.notation.Edge):
                found.append(("edge", end.num))
                continue
            node = tile.node(end)
            if isinstance(node, self.notation.Junction):
                for other in tile.paths:
                    if other is not path and end in other.ends:
                        found += [("edge", e) for e in other.edges]
            else:
                found.append((node.kind, -1))
        return found

    def keeps(self, old: Any, new: Any, rotation: int) -> bool:
        def turned(end: tuple[str, int]) -> tuple[str, int]:
            return (end[0], (end[1] + rotation) % 6) if end[0] == "edge" else end

        for path in old.paths:
            kept_by = self.upgrades["gauges_kept_by"][self.GAUGE[path.track.value]]
            wanted = {turned(e) for e in self.ends(old, path)}
            if not any(
                self.GAUGE[p.track.value] in kept_by and wanted <= set(self.ends(new, p))
                for p in new.paths
            ):
                return False
        return True

    def allowed(self, old_colour: str, old: Any, new_colour: str, new: Any) -> bool:
        if self.order.index(new_colour) != self.order.index(old_colour) + 1:
            return False
        label = old.label
        if old.future_label is not None and old.future_label.color == new_colour:
            label = old.future_label.label
        if new.label != label or len(new.towns) != len(old.towns):
            return False
        if len(new.cities) != len(old.cities) and not (label and old.cities and new.cities):
            return False
        return any(self.keeps(old, new, r) for r in range(6))

    def successors(self, colour: str, code: str) -> set[str]:
        old = self.notation.parse(code)
        return {name for name in manifest() if self.allowed(colour, old, *self._tile(name))}

    def _tile(self, name: str) -> tuple[str, Any]:
        colour, code = colour_and_code(name)
        return colour, self.notation.parse(code)


def names(text: str) -> set[str]:
    """'80-86 X4' -> {'80', ..., '86', 'X4'}."""
    found: set[str] = set()
    for item in text.split():
        match = re.fullmatch(r"(X?)(\d+)-X?(\d+)", item)
        if match:
            prefix, low, high = match.groups()
            found |= {f"{prefix}{i}" for i in range(int(low), int(high) + 1)}
        else:
            found.add(item)
    return found


def follow(oracle: Oracle, start: set[str]) -> set[str]:
    return set().union(*(oracle.successors(*colour_and_code(n)) for n in start))


@pytest.mark.parametrize(
    ("kind", "yellow", "green", "brown", "gray"),
    [
        ("plain track", "7-9 77-79", "80-86 X4 710-715", "106-108", "112"),
        ("small city", "3 4 58 72-74", "87-89 204 680-691 700-703 X5 X6", "X13", ""),
        ("two small cities", "1 2 55 56 69 71 630 631", "", "", ""),
        ("city", "5 6 57 75 76", "14 15 619 660-671 704-707", "673 X9 X10", ""),
        ("Y city", "201 202 621", "207 208 622", "X11 X12", ""),
        ("B city", "X1-X3", "X8", "X17", "X20"),
    ],
)
def test_upgrade_families(kind: str, yellow: str, green: str, brown: str, gray: str) -> None:
    """The families the tiles.yaml comment lists follow from the declared rules."""
    oracle = Oracle()
    stages = [names(yellow), names(green), names(brown), names(gray)]
    for before, after in itertools.pairwise(stages):
        assert follow(oracle, before) == after, kind


def test_labelled_hexes_upgrade_paths() -> None:
    oracle = Oracle()
    hexes = load(MAP)["hexes"]

    def on(coord: str) -> set[str]:
        return oracle.successors(hexes[coord]["color"], hexes[coord]["code"])

    assert on("O8") == {"X1", "X2", "X3"}  # Barcelona
    assert on("B9") == {"201", "202", "621"}  # Porto
    assert on("B5") == {"5", "6", "57", "75", "76"}  # Vigo, a plain city
    assert on("N9") == {"1", "2", "55", "56", "69", "71", "630", "631"}  # two small cities
    assert on("H11") == {"X7"}  # Madrid
    assert oracle.successors(*colour_and_code("X7")) == {"X15"}
    assert oracle.successors(*colour_and_code("X15")) == {"X19"}
    assert on("A14") == {"X14"}  # Lisboa
    assert oracle.successors(*colour_and_code("X14")) == {"X18"}
    assert on("L7") == {"207", "208", "622"}  # Zaragoza, preprinted yellow Y
    # Porto's brown tile is the P tile, which only Porto can take; Y tiles never reach gray
    porto_green = "city=revenue:40,slots:2;path=a:0,b:_0;path=a:1,b:_0;path=a:2,b:_0;"
    porto_green += "path=a:3,b:_0;label=Y;future_label=label:P,color:brown"
    assert oracle.successors("green", porto_green) == {"X16"}


# --- what the rulebook says about tiles --------------------------------------------------------


@cache
def rulebook() -> str:
    return shared_path("seeds", "1858-rulebook.txt").read_text(encoding="utf-8")


def test_rulebook_city_values_range_from_10_to_100() -> None:
    notation = pytest.importorskip("ferrovia.notation")
    assert "ranges from P10 to P100" in rulebook()
    values = {
        stop.revenue.flat
        for name in manifest()
        for stop in notation.parse(colour_and_code(name)[1]).city_towns
    }
    assert min(values) == 10 and max(values) == 100


def test_rulebook_p_tile_is_one_brown_tile() -> None:
    assert "The brown P tile is reserved for Porto (B9)." in rulebook()
    p_tiles = [n for n in manifest() if re.search(r"label=P\b", colour_and_code(n)[1])]
    assert p_tiles == ["X16"] and colour_and_code("X16")[0] == "brown"
    assert manifest()["X16"]["count"] == 1


def test_rulebook_track_laying_costs() -> None:
    text = rulebook()
    assert "For an additional fee of P20" in text
    assert "entirely metre-gauge then the additional fee is only P10" in text
    assert "Terrain costs are halved when placing metre-gauge track" in text
    assert "Private Companies may not upgrade track" in text
    assert "Metre-gauge track is not available until Phase 3" in text
    assert "the one with the most exits which are legal must be laid" in text
    second = rules()["lays"]["corporation"][1]
    assert (second["cost"], second["metre_cost"]) == (20, 10)
    assert rules()["upgrades"]["terrain"] == {"metre_only": "half", "private_home_hexes": "free"}
    assert not any(lay["upgrade"] for lay in rules()["lays"]["private"])
    assert rules()["upgrades"]["metre_gauge_from_phase"] == "3"
