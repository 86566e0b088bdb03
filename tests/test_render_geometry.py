"""Hex geometry: where hexes, edges and track curves are (exact positions)."""

from __future__ import annotations

import math

import pytest
from ferrovia.render import geometry as g


def test_flat_map_positions_letters_are_columns_numbers_rows() -> None:
    # one column is 1.5 radii right, one row half a hex height down (doubled coordinates)
    assert g.hex_position("A1") == (0.0, 0.0)
    assert g.hex_position("B2") == (150.0, 86.6)
    assert g.hex_position("A14") == (0.0, 1125.83)
    assert g.hex_position("P7") == (2250.0, 519.62)


def test_coordinates_parse_and_reject_garbage() -> None:
    assert g.parse_coordinate("O8") == (14, 7)
    assert g.parse_coordinate("AA3") == (26, 2)
    assert g.column_letter(15) == "P"
    with pytest.raises(ValueError, match="not a hex coordinate"):
        g.parse_coordinate("8O")


def test_edges_count_clockwise_from_the_bottom() -> None:
    assert g.edge_point(0) == (0.0, 86.6)
    assert g.edge_point(1) == (-75.0, 43.3)
    assert g.edge_point(3) == (0.0, -86.6)
    assert g.edge_point(4) == (75.0, -43.3)
    # the bottom side runs between the two lower corners
    assert g.edge_segment(0) == ((50.0, 86.6), (-50.0, 86.6))
    assert g.edge_segment(3) == ((-50.0, -86.6), (50.0, -86.6))


@pytest.mark.parametrize(
    ("other", "radius"),
    [(1, 50.0), (5, 50.0), (2, 150.0), (4, 150.0), (3, None)],
)
def test_track_curves_sharp_gentle_straight(other: int, radius: float | None) -> None:
    begin = g.edge_point(0)
    arc = g.tangent_arc(begin, g.towards_centre(begin), g.edge_point(other))
    if radius is None:
        assert arc is None
    else:
        assert arc is not None
        assert arc.radius == pytest.approx(radius, abs=0.05)


def test_sharp_curve_is_centred_on_the_corner_between_its_edges() -> None:
    begin = g.edge_point(0)
    arc = g.tangent_arc(begin, g.towards_centre(begin), g.edge_point(1))
    assert arc is not None
    assert arc.centre == pytest.approx((-50.0, 86.6), abs=0.05)
    # every sampled point is on the circle
    for x, y in g.sample(begin, g.edge_point(1), arc):
        assert math.hypot(x + 50.0, y - 86.6) == pytest.approx(50.0, abs=0.05)


def test_town_on_a_gentle_curve_sits_mid_arc() -> None:
    begin = g.edge_point(0)
    mid, _ = g.arc_midpoint(begin, g.towards_centre(begin), g.edge_point(2))
    # half way along the 150-radius arc centred on the far corner region
    arc = g.tangent_arc(begin, g.towards_centre(begin), g.edge_point(2))
    assert arc is not None
    assert math.dist(mid, arc.centre) == pytest.approx(arc.radius, abs=0.05)
    assert math.dist(mid, begin) == pytest.approx(math.dist(mid, g.edge_point(2)), abs=0.05)
