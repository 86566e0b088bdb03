"""Every tile the notation accepts can be drawn; the drawing shows what the tile model says."""

from __future__ import annotations

import csv
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator

import pytest
from conftest import shared_path
from ferrovia.notation import models as m
from ferrovia.notation import parse
from ferrovia.render.tile_svg import (
    REVENUE_RADIUS,
    HexExtras,
    Token,
    draw_tile,
    layout_tile,
    tile_svg,
)

NS = "{http://www.w3.org/2000/svg}"


def _registry() -> Iterator[tuple[str, str, str]]:
    path = shared_path("corpus", "tile-registry.tsv")
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.reader(fh, delimiter="\t")
        header = next(reader)
        assert header == ["color", "name", "code"]
        for row in reader:
            yield row[0].lower(), row[1], row[2] if len(row) > 2 else ""


def _classes(root: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in root.iter() if cls in (e.get("class") or "").split()]


def test_every_registry_tile_draws_as_well_formed_svg_with_its_parts() -> None:
    count = 0
    for colour, name, code in _registry():
        tile = parse(code)
        for rotation in (0, 1):
            root = ET.fromstring(tile_svg(tile, colour, rotation, HexExtras(name=f"Tile {name}")))
            assert root.tag == f"{NS}svg", name
            slots = sum(max(c.slots, 1) for c in tile.cities)
            assert len(_classes(root, "slot")) == slots, name
            towns = [t for t in tile.towns if t.style is not m.TownStyle.HIDDEN]
            assert len(_classes(root, "town")) == len(towns), name
            drawn = len(_classes(root, "track"))
            expected = sum(p.lanes or 1 for p in (*tile.paths, *tile.future_paths))
            assert drawn == expected, name
            for label in tile.labels:
                assert label.text in [e.text for e in _classes(root, "label")], name
        count += 1
    assert count == 479


def test_no_text_covers_a_revenue_circle_on_any_registry_tile() -> None:
    for _colour, name, code in _registry():
        tile = parse(code)
        for rotation in range(6):
            layout = layout_tile(tile, rotation, HexExtras(name="Santiago & Orense"))
            revenues = [i for i in layout.items if i.kind == "revenue"]
            others = [i for i in layout.items if i.kind != "revenue"]
            for rev in revenues:
                for item in others:
                    hit = item.box.hits_circle(rev.box.cx, rev.box.cy, REVENUE_RADIUS)
                    assert not hit, (name, rotation, item.kind, item.text)


def _track_ends(svg: str) -> list[tuple[float, float]]:
    ends = []
    for d in re.findall(r'class="track broad" d="([^"]+)"', svg):
        nums = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", d)]
        ends.append((nums[0], nums[1]))
        ends.append((nums[-2], nums[-1]))
    return ends


def test_rotation_turns_track_clockwise_in_sixty_degree_steps() -> None:
    tile = parse("path=a:0,b:3")  # straight, bottom to top
    assert sorted(_track_ends(draw_tile(tile, "yellow", 0))) == [(0.0, -86.6), (0.0, 86.6)]
    # one step clockwise: lower-left to upper-right
    assert sorted(_track_ends(draw_tile(tile, "yellow", 1))) == [(-75.0, 43.3), (75.0, -43.3)]


def test_sharp_and_gentle_curves_are_arcs_of_the_right_radius() -> None:
    assert " A 50 50 0 0 " in draw_tile(parse("path=a:0,b:1"), "yellow")
    assert " A 149.99 149.99 0 0 " in draw_tile(parse("path=a:0,b:2"), "yellow")
    assert " L 0 -86.6" in draw_tile(parse("path=a:0,b:3"), "yellow")


def test_gauges_are_drawn_as_the_rulebook_shows_them() -> None:
    broad = draw_tile(parse("path=a:0,b:3"), "yellow")
    metre = draw_tile(parse("path=a:0,b:3,track:narrow"), "yellow")
    dual = draw_tile(parse("path=a:0,b:3,track:dual"), "yellow")
    future = draw_tile(parse("path=a:0,b:3,track:future"), "white")
    assert 'class="track broad"' in broad and "dasharray" not in broad
    # metre gauge: alternate black and white
    assert 'class="track narrow"' in metre and 'stroke="white"' in metre and "dasharray" in metre
    # dual gauge: a white line bordered with black
    assert 'class="track dual"' in dual and 'stroke="white"' in dual and "dasharray" not in dual
    assert 'class="track future"' in future and "stroke-dasharray" in future


def test_city_slots_show_tokens_and_reservations() -> None:
    tile = parse("city=revenue:40,slots:2;path=a:0,b:_0;label=L")
    extras = HexExtras(
        name="Lisboa",
        tokens={0: [Token("TBF", "#0a3d91")]},
        reserved={0: [None, "L&C"]},
    )
    root = ET.fromstring(tile_svg(tile, "green", 0, extras))
    assert [e.text for e in _classes(root, "token-label")] == ["TBF"]
    assert [e.text for e in _classes(root, "reserved")] == ["L&C"]
    assert [e.text for e in _classes(root, "name")] == ["Lisboa"]


def test_terrain_cost_has_its_symbol() -> None:
    mountain = ET.fromstring(tile_svg(parse("upgrade=cost:80,terrain:mountain"), "white"))
    water = ET.fromstring(tile_svg(parse("upgrade=cost:20,terrain:water"), "white"))
    assert len(_classes(mountain, "mountain")) == 1
    assert len(_classes(water, "water")) == 1
    assert "80" in ET.tostring(mountain, encoding="unicode")


def test_phase_revenues_on_an_offboard_are_coloured_boxes() -> None:
    tile = parse("offboard=revenue:yellow_30|green_40|brown_50|gray_70;path=a:0,b:_0,track:dual")
    root = ET.fromstring(tile_svg(tile, "red"))
    (group,) = _classes(root, "phase-revenue")
    assert [t.text for t in group.iter(f"{NS}text")] == ["30", "40", "50", "70"]
    assert [r.get("fill") for r in group.iter(f"{NS}rect")] == [
        "#fde900",
        "#71bf44",
        "#cb7745",
        "#bcbdc0",
    ]


@pytest.mark.parametrize(
    ("code", "kind", "width"),
    [
        ("border=edge:2,type:province", "province", "7"),
        ("border=edge:2,type:impassable", "impassable", "12"),
    ],
)
def test_borders_province_dashed_orange_impassable_thick_blue(
    code: str, kind: str, width: str
) -> None:
    root = ET.fromstring(tile_svg(parse(code), "white"))
    (line,) = _classes(root, kind)
    assert line.get("stroke-width") == width
    assert (line.get("stroke-dasharray") is not None) == (kind == "province")


def test_every_corpus_code_draws_well_formed() -> None:
    """All 5,770 codes of the 18xx.games corpus, each in one of the six rotations."""
    path = shared_path("corpus", "tile-codes.txt")
    count = 0
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        tile = parse(line)
        root = ET.fromstring(tile_svg(tile, "white", i % 6, HexExtras(name="Ávila & Co")))
        assert len(_classes(root, "slot")) == sum(max(c.slots, 1) for c in tile.cities), line
        count += 1
    assert count == 5770
