"""Hex geometry shared by every drawing: hex corners, edge points, map positions, track arcs.

Conventions (the ones 18xx boards and 18xx.games use, so data written for one draws right here):

* A hex is drawn in its own frame: centre at (0, 0), SVG axes (x right, y *down*), corner
  radius :data:`RADIUS` = 100 and centre-to-edge distance :data:`APOTHEM` ≈ 86.6.
* Flat-topped hexes number their edges clockwise from the bottom: 0 bottom, 1 lower left,
  2 upper left, 3 top, 4 upper right, 5 lower right. A fractional edge (``loc:2.5``) is the
  corner between two edges. Pointy-topped hexes are the flat drawing turned by 30°.
* On a flat map the letters are columns and the numbers rows, in "doubled" coordinates: one
  column step is 1.5 radii to the right, one row step half a hex height down, so neighbours
  differ by two rows in the same column or by one row in the next column (A1, A3, B2, ...).

>>> edge_point(0)
(0.0, 86.6)
>>> parse_coordinate("B11")
(1, 10)
>>> hex_position("B11", "flat")
(150.0, 866.03)
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

RADIUS = 100.0
APOTHEM = RADIUS * math.sqrt(3) / 2
#: Where track meets a hex side, a little inside the true apothem so strokes join neighbours.
EDGE_DISTANCE = 86.6

Point = tuple[float, float]

_COORD = re.compile(r"^([A-Za-z]+)(-?\d+)$")


def _r(value: float) -> float:
    """Round for output: two decimals keep files small and exact enough at any zoom."""
    result = round(value, 2)
    return 0.0 if result == 0 else result


def rotate(point: Point, degrees: float) -> Point:
    """Turn a point about the hex centre, clockwise on screen for positive degrees."""
    theta = math.radians(degrees)
    x, y = point
    return (
        x * math.cos(theta) - y * math.sin(theta),
        x * math.sin(theta) + y * math.cos(theta),
    )


def edge_point(edge: float, distance: float = EDGE_DISTANCE) -> Point:
    """The point ``distance`` from the centre towards edge (or corner, if fractional) ``edge``.

    >>> edge_point(3)
    (0.0, -86.6)
    >>> edge_point(1, 50)
    (-43.3, 25.0)
    """
    theta = math.radians(edge * 60.0)
    return (_r(-math.sin(theta) * distance), _r(math.cos(theta) * distance))


def corners(scale: float = 1.0) -> list[Point]:
    """The six corners of a flat hex, starting at the right-hand corner, clockwise."""
    return [
        (
            _r(RADIUS * scale * math.cos(math.radians(a))),
            _r(RADIUS * scale * math.sin(math.radians(a))),
        )
        for a in range(0, 360, 60)
    ]


def edge_segment(edge: int, scale: float = 1.0) -> tuple[Point, Point]:
    """The two corners bounding side ``edge`` (0 = bottom, clockwise)."""
    pts = corners(scale)
    # corner k sits at 60k degrees; the bottom side (edge 0) runs from corner 1 to corner 2.
    return pts[(edge + 1) % 6], pts[(edge + 2) % 6]


def points_attr(points: list[Point]) -> str:
    """A polygon ``points`` attribute."""
    return " ".join(f"{fmt(x)},{fmt(y)}" for x, y in points)


def fmt(value: float) -> str:
    """A compact number for SVG attributes (no trailing zeros)."""
    text = f"{_r(value):.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


_LETTERS = [chr(c) for c in range(ord("A"), ord("Z") + 1)]
_LETTERS += ["A" + c for c in _LETTERS]


def column_letter(index: int) -> str:
    """The letter(s) naming column ``index`` (0 = A, 26 = AA)."""
    return _LETTERS[index] if 0 <= index < len(_LETTERS) else str(index + 1)


def parse_coordinate(coord: str) -> tuple[int, int]:
    """``"B11"`` -> (column 1, row 10): zero-based letter index and number minus one.

    Raises ``ValueError`` for anything that is not letters followed by a number.
    """
    match = _COORD.match(coord.strip())
    if not match:
        raise ValueError(f"not a hex coordinate: {coord!r}")
    letters, number = match.groups()
    letters = letters.upper()
    if letters in _LETTERS:
        col = _LETTERS.index(letters)
    else:  # longer names: bijective base 26
        col = 0
        for ch in letters:
            col = col * 26 + (ord(ch) - ord("A") + 1)
        col -= 1
    return col, int(number) - 1


def hex_position(coord: str, layout: str = "flat") -> Point:
    """Centre of hex ``coord`` on the board (before the board's margin is applied)."""
    col, row = parse_coordinate(coord)
    if layout == "pointy":
        # pointy maps: numbers are columns in doubled steps, letters rows (18xx.games convention)
        return (_r(APOTHEM * row), _r(1.5 * RADIUS * col))
    return (_r(1.5 * RADIUS * col), _r(APOTHEM * row))


@dataclass(frozen=True)
class Arc:
    """A circular arc for an SVG ``A`` command (and its centre, for sampling points on it)."""

    radius: float
    sweep: int  # SVG sweep flag: 1 = clockwise on screen
    centre: Point


def tangent_arc(begin: Point, direction: Point, end: Point) -> Arc | None:
    """The arc leaving ``begin`` heading along ``direction`` that reaches ``end``.

    Track enters a hex perpendicular to its side, heading for the centre; this gives the one
    circle that does so and passes through the end point, or ``None`` when the end lies
    straight ahead (draw a line).

    >>> tangent_arc((0, 86.6), (0, -1), (-75.0, 43.3)).radius  # sharp curve to the next side
    50.0
    >>> tangent_arc((0, 86.6), (0, -1), (0, -86.6)) is None  # straight across
    True
    """
    bx, by = begin
    dx, dy = direction
    norm = math.hypot(dx, dy)
    if norm == 0:
        return None
    dx, dy = dx / norm, dy / norm
    vx, vy = end[0] - bx, end[1] - by
    # signed distance of the end from the line of travel (positive: clockwise on screen)
    side = dx * vy - dy * vx
    if abs(side) < 1e-3 * max(1.0, math.hypot(vx, vy)):
        return None
    radius = (vx * vx + vy * vy) / (2 * abs(side))
    sweep = 1 if side > 0 else 0
    # the centre lies perpendicular to the direction of travel, on the end's side
    nx, ny = (-dy, dx) if sweep == 1 else (dy, -dx)
    return Arc(radius=_r(radius), sweep=sweep, centre=(bx + nx * radius, by + ny * radius))


def towards_centre(point: Point) -> Point:
    """Unit vector from ``point`` to the hex centre."""
    x, y = point
    norm = math.hypot(x, y) or 1.0
    return (-x / norm, -y / norm)


def _arc_angles(arc: Arc, begin: Point, end: Point) -> tuple[float, float]:
    cx, cy = arc.centre
    a0 = math.atan2(begin[1] - cy, begin[0] - cx)
    a1 = math.atan2(end[1] - cy, end[0] - cx)
    delta = a1 - a0
    delta = delta % (2 * math.pi) if arc.sweep == 1 else -((-delta) % (2 * math.pi))
    return a0, delta


def sample(begin: Point, end: Point, arc: Arc | None, step: float = 8.0) -> list[Point]:
    """Points every ``step`` units along a line or arc, both ends included."""
    if arc is None:
        length = math.hypot(end[0] - begin[0], end[1] - begin[1])
        n = max(1, int(length / step))
        return [
            (begin[0] + (end[0] - begin[0]) * i / n, begin[1] + (end[1] - begin[1]) * i / n)
            for i in range(n + 1)
        ]
    a0, delta = _arc_angles(arc, begin, end)
    n = max(1, int(abs(delta) * arc.radius / step))
    cx, cy = arc.centre
    return [
        (
            cx + arc.radius * math.cos(a0 + delta * i / n),
            cy + arc.radius * math.sin(a0 + delta * i / n),
        )
        for i in range(n + 1)
    ]


def arc_midpoint(begin: Point, direction: Point, end: Point) -> tuple[Point, Point]:
    """Middle of the track from ``begin`` (heading ``direction``) to ``end``, and its heading.

    Towns on a curve sit there; a bar town is drawn across the heading.

    >>> mid, heading = arc_midpoint((0, 86.6), (0, -1), (0, -86.6))
    >>> mid, heading
    ((0.0, 0.0), (0.0, -173.2))
    """
    arc = tangent_arc(begin, direction, end)
    if arc is None:
        mid = (_r((begin[0] + end[0]) / 2), _r((begin[1] + end[1]) / 2))
        return mid, (_r(end[0] - begin[0]), _r(end[1] - begin[1]))
    a0, delta = _arc_angles(arc, begin, end)
    am = a0 + delta / 2
    cx, cy = arc.centre
    mid = (_r(cx + arc.radius * math.cos(am)), _r(cy + arc.radius * math.sin(am)))
    sign = 1 if delta > 0 else -1
    heading = (-math.sin(am) * sign, math.cos(am) * sign)
    return mid, heading
