"""Hex-map geometry: coordinates, neighbours and edge directions.

Coordinates are written as 18xx.games writes them: a column letter (``A``..``Z``, ``AA``..``AZ``)
and a row number, e.g. ``"G18"``.  In the *flat* layout (flat-topped hexes, 1858's) the letter
is the x of a "doubled" coordinate system and the number is y + 1; two hexes in one column are
two rows apart, so every hex has a neighbour at::

    edge 0: ( 0, +2)  below              edge 3: ( 0, -2)  above
    edge 1: (-1, +1)  lower left         edge 4: (+1, -1)  upper right
    edge 2: (-1, -1)  upper left         edge 5: (+1, +1)  lower right

Edge ``e`` of one hex faces edge ``(e + 3) % 6`` of its neighbour.  The pointy layout is here
for completeness (edge 0 is then the lower-left side).

>>> neighbour("G18", 0), neighbour("G18", 4), edge_towards("G18", "H17")
('G20', 'H17', 4)
>>> invert(1)
4
"""

from __future__ import annotations

import re
from functools import lru_cache

LETTERS: tuple[str, ...] = tuple(chr(c) for c in range(ord("A"), ord("Z") + 1)) + tuple(
    "A" + chr(c) for c in range(ord("A"), ord("Z") + 1)
)
_LETTER_INDEX = {s: i for i, s in enumerate(LETTERS)}

#: (dx, dy) in doubled coordinates -> edge number, per layout
DIRECTIONS: dict[str, dict[tuple[int, int], int]] = {
    "flat": {(0, 2): 0, (-1, 1): 1, (-1, -1): 2, (0, -2): 3, (1, -1): 4, (1, 1): 5},
    "pointy": {(-1, 1): 0, (-2, 0): 1, (-1, -1): 2, (1, -1): 3, (2, 0): 4, (1, 1): 5},
}
_OFFSETS: dict[str, dict[int, tuple[int, int]]] = {
    layout: {edge: xy for xy, edge in dirs.items()} for layout, dirs in DIRECTIONS.items()
}

_COORD = re.compile(r"^([A-Z]{1,2})(\d+)$")


def invert(edge: int) -> int:
    """The edge of the neighbour that faces ``edge``."""
    return (edge + 3) % 6


@lru_cache(maxsize=4096)
def xy(coord: str) -> tuple[int, int]:
    """Doubled (x, y) of a coordinate; ``ValueError`` for something that is not one."""
    m = _COORD.match(coord)
    if not m or m.group(1) not in _LETTER_INDEX:
        raise ValueError(f"not a hex coordinate: {coord!r} (expected e.g. 'G18')")
    return _LETTER_INDEX[m.group(1)], int(m.group(2)) - 1


def coord(x: int, y: int) -> str:
    """The coordinate at doubled (x, y)."""
    if not 0 <= x < len(LETTERS) or y < 0:
        raise ValueError(f"no coordinate for ({x}, {y})")
    return f"{LETTERS[x]}{y + 1}"


def neighbour(hex_id: str, edge: int, layout: str = "flat") -> str | None:
    """The coordinate across ``edge`` of ``hex_id`` (whether or not the map has that hex).

    On a pointy map the number is the doubled column and the letter the row (18xx.games'
    pointy axes, as engine/render draws them): ``neighbour("D3", 4, "pointy") == "D5"``.
    """
    x, y = xy(hex_id)
    if layout == "pointy":
        x, y = y, x
    dx, dy = _OFFSETS[layout][edge % 6]
    nx, ny = x + dx, y + dy
    if layout == "pointy":
        nx, ny = ny, nx
    if nx < 0 or ny < 0 or nx >= len(LETTERS):
        return None
    return coord(nx, ny)


@lru_cache(maxsize=8192)
def neighbour_table(hex_id: str, layout: str = "flat") -> tuple[tuple[int, str], ...]:
    """(edge, neighbouring coordinate) for the six edges, off-alphabet ones left out (cached:
    graph building asks for every hex of the map after every lay).

    >>> neighbour_table("A1")
    ((0, 'A3'), (5, 'B2'))
    """
    out = []
    for edge in range(6):
        n = neighbour(hex_id, edge, layout)
        if n is not None:
            out.append((edge, n))
    return tuple(out)


def neighbours(hex_id: str, layout: str = "flat") -> dict[int, str]:
    """Edge -> neighbouring coordinate, for the six edges (off-alphabet ones left out)."""
    return dict(neighbour_table(hex_id, layout))


def edge_towards(a: str, b: str, layout: str = "flat") -> int | None:
    """The edge of ``a`` that faces ``b``, or None when they are not adjacent."""
    ax, ay = xy(a)
    bx, by = xy(b)
    if layout == "pointy":
        return DIRECTIONS[layout].get((by - ay, bx - ax))
    return DIRECTIONS[layout].get((bx - ax, by - ay))
