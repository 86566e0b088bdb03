"""`ferrovia render GAME_DIR`: the 1858 map as an SVG players recognise."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from conftest import GAMEDATA
from ferrovia.cli import main
from ferrovia.render.map_svg import render_map
from ferrovia.render.source import load_board

NS = "{http://www.w3.org/2000/svg}"
G1858 = GAMEDATA / "1858"


@pytest.fixture(scope="module")
def map_svg() -> str:
    return render_map(load_board(G1858))


@pytest.fixture(scope="module")
def root(map_svg: str) -> ET.Element:
    return ET.fromstring(map_svg)


def _by_class(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def _cell(root: ET.Element, coord: str) -> ET.Element:
    (cell,) = [e for e in root.iter(f"{NS}g") if e.get("id") == f"hex-{coord}"]
    return cell


def test_every_hex_is_drawn_once_at_its_flat_layout_position(root: ET.Element) -> None:
    cells = _by_class(root, "hex-cell")
    assert len(cells) == 127
    assert _cell(root, "A14").get("transform") == "translate(0 1125.83)"
    assert _cell(root, "O8").get("transform") == "translate(2100 606.22)"
    assert _cell(root, "M2").get("transform") == "translate(1800 86.6)"


def test_hex_colours_follow_the_map(root: ET.Element) -> None:
    def fill(coord: str) -> str | None:
        (poly,) = [e for e in _cell(root, coord).iter(f"{NS}polygon") if e.get("class") == "hex"]
        return poly.get("fill")

    assert fill("B3") == "#EAE0C8"  # white
    assert fill("L7") == "#fde900"  # yellow Zaragoza
    assert fill("A14") == "#71bf44"  # green Lisboa
    assert fill("M2") == "#ec232a"  # red France
    assert fill("A16") == "#35A7FF"  # blue sea (Lisboa port)
    assert fill("D1") == "#bcbdc0"  # gray


def test_all_52_location_names_and_the_axis_labels(root: ET.Element) -> None:
    names = {e.text for e in _by_class(root, "name")}
    assert len(names) == 52
    assert {"Lisboa", "Madrid", "Barcelona", "Santiago & Orense", "France"} <= names
    (axis,) = _by_class(root, "axis")
    labels = [t.text for t in axis.iter(f"{NS}text")]
    # letters on the top and bottom margins, numbers left and right
    assert labels.count("A") == 2 and labels.count("P") == 2
    assert labels.count("1") == 2 and labels.count("21") == 2


def test_province_borders_and_impassable_sides(root: ET.Element) -> None:
    borders = [b for h in load_board(G1858).hexes for b in h.tile.borders]
    expected_province = sum(1 for b in borders if b.type == "province")
    expected_impassable = sum(1 for b in borders if b.type == "impassable")
    assert len(_by_class(root, "province")) == expected_province
    assert len(_by_class(root, "impassable")) == expected_impassable
    assert expected_province > 50 and expected_impassable >= 2


def test_cities_slots_revenues_and_labels(root: ET.Element) -> None:
    lisboa = _cell(root, "A14")
    assert len(_by_class(lisboa, "slot")) == 2
    assert [e.text for e in _by_class(lisboa, "label")] == ["L"]
    madrid = _cell(root, "H11")
    assert len(_by_class(madrid, "slot")) == 3  # three one-slot cities
    # the three Madrid cities pay the same: one revenue circle
    assert [t.text for r in _by_class(madrid, "revenue") for t in r.iter(f"{NS}text")] == ["40"]
    france = _cell(root, "M2")
    (boxes,) = _by_class(france, "phase-revenue")
    assert [t.text for t in boxes.iter(f"{NS}text")] == ["30", "40", "50", "70"]


def test_terrain_and_future_private_track(root: ET.Element) -> None:
    o6 = _cell(root, "O6")  # 80 mountain
    assert len(_by_class(o6, "mountain")) == 1
    assert "80" in ET.tostring(o6, encoding="unicode")
    assert len(_by_class(_cell(root, "C8"), "water")) == 1
    assert len(_by_class(_cell(root, "K8"), "future")) == 1


def test_private_homes_carry_their_symbols(root: ET.Element) -> None:
    # Barcelona: reserved for B&M in its city slot
    assert [e.text for e in _by_class(_cell(root, "O8"), "reserved")] == ["B&M"]
    # Reus & Tarragona (towns, no slot): a marker with the private's symbol
    markers = [t.text for m in _by_class(_cell(root, "N9"), "marker") for t in m.iter(f"{NS}text")]
    assert markers == ["R&T"]


def test_cli_writes_the_map_and_reports_bad_directories(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "map.svg"
    assert main(["render", str(G1858), "-o", str(out)]) == 0
    ET.parse(out)
    assert main(["render", str(tmp_path / "nope")]) == 2  # a path that is not there (#13)
    err = capsys.readouterr().err
    assert f"{tmp_path / 'nope'}: no such directory" in err and "Traceback" not in err
    (tmp_path / "nomap").mkdir()
    (tmp_path / "nomap" / "game.yaml").write_text("name: x\n", encoding="utf-8")
    assert main(["render", str(tmp_path / "nomap")]) == 1  # a game without its map
    err = capsys.readouterr().err
    assert "map.yaml" in err and "Traceback" not in err


def test_every_private_home_hex_shows_the_private_symbol(root: ET.Element) -> None:
    board = load_board(G1858)
    homes = [(p.symbol, h) for p in board.privates for h in p.home_hexes]
    assert len(homes) >= 20
    for symbol, coord in homes:
        cell = _cell(root, coord)
        shown: set[str] = set()
        for e in _by_class(cell, "reserved"):
            shown.update((e.text or "").split("/"))
        for marker in _by_class(cell, "marker"):
            shown.update(t.text or "" for t in marker.iter(f"{NS}text"))
        assert symbol in shown, (symbol, coord, shown)


def _copy_game(tmp_path: Path) -> Path:
    import shutil

    game = tmp_path / "1858"
    shutil.copytree(G1858, game)
    shutil.copytree(GAMEDATA / "tilesets", tmp_path / "tilesets")
    return game


def test_a_bad_map_code_is_reported_with_its_position(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    game = _copy_game(tmp_path)
    text = (game / "map.yaml").read_text(encoding="utf-8")
    (game / "map.yaml").write_text(
        text.replace("border=type:province,edge:4'", "border=type:province,edge:9'", 1),
        encoding="utf-8",
    )
    assert main(["render", str(game), "-o", str(tmp_path / "m.svg")]) == 1
    err = capsys.readouterr().err
    assert "map.yaml:" in err and "expected an edge 0-5, got '9'" in err
    assert "Traceback" not in err


def test_data_that_does_not_validate_is_not_drawn(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """render reads the validated definition only (no raw-YAML drawing of a game that would not
    play): an error in any file is reported at its line and column, and nothing is written."""
    game = _copy_game(tmp_path)
    with (game / "trains.yaml").open("a", encoding="utf-8") as fh:
        fh.write("\nnot_a_key: 1\n")
    line = (game / "trains.yaml").read_text(encoding="utf-8").count("\n")
    out = tmp_path / "m.svg"
    assert main(["render", str(game), "-o", str(out)]) == 1
    assert f"trains.yaml:{line}:1: error: unknown key 'not_a_key'" in capsys.readouterr().err
    assert not out.exists()
