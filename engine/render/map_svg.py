"""The board: every hex in its place, coordinate labels on the margins, borders on top.

:func:`render_map` draws a :class:`~ferrovia.render.source.BoardSource` as it is printed, or,
given a :class:`MapState`, as a game has left it (laid tiles in their rotations and station
markers in city slots); the game-state view and the HTML viewer reuse it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ferrovia.notation import models as m
from ferrovia.render import geometry as g
from ferrovia.render.source import BoardSource, MapHex
from ferrovia.render.svg import document, el
from ferrovia.render.tile_svg import FONT, HexExtras, Token, border_svg, draw_tile

MARGIN = 44.0  # room for the coordinate labels around the hexes
LABEL_SIZE = 26.0


@dataclass(frozen=True)
class LaidTile:
    """A tile on a hex during a game: its tile, colour, rotation and (optional) number."""

    tile: m.Tile
    color: str
    rotation: int = 0
    name: str | None = None


@dataclass(frozen=True)
class MapState:
    """What a game has changed on the board.

    ``tiles``: hex -> the tile now there. ``tokens``: hex -> {city index: [token per slot]}.
    ``removed_markers``: private symbols no longer shown (the private has closed).
    ``highlight``: hexes to outline (e.g. the hex the current action touched).
    ``reserved``: hex -> {city index: [private symbol or None per slot]} as the game has them
    now (reservations follow upgrades); None: the privates' printed reservations.
    """

    tiles: Mapping[str, LaidTile] = field(default_factory=dict)
    tokens: Mapping[str, Mapping[int, Sequence[Token | None]]] = field(default_factory=dict)
    removed_markers: frozenset[str] = frozenset()
    highlight: frozenset[str] = frozenset()
    reserved: Mapping[str, Mapping[int, Sequence[str | None]]] | None = None


@dataclass(frozen=True)
class Frame:
    """Where the board lies in SVG user units."""

    min_x: float
    min_y: float
    width: float
    height: float


def board_frame(hexes: Sequence[MapHex], layout: str) -> Frame:
    xs = [g.hex_position(h.coord, layout)[0] for h in hexes] or [0.0]
    ys = [g.hex_position(h.coord, layout)[1] for h in hexes] or [0.0]
    half_w = g.RADIUS if layout != "pointy" else g.APOTHEM
    half_h = g.APOTHEM if layout != "pointy" else g.RADIUS
    min_x = min(xs) - half_w - MARGIN
    min_y = min(ys) - half_h - MARGIN
    return Frame(
        min_x,
        min_y,
        max(xs) - min(xs) + 2 * (half_w + MARGIN),
        max(ys) - min(ys) + 2 * (half_h + MARGIN),
    )


def _axis_labels(hexes: Sequence[MapHex], layout: str, frame: Frame) -> str:
    """Letters and numbers on the margins, each level with its hexes.  A flat map's letters
    name columns (top and bottom) and its numbers rows (left and right); on a pointy map the
    letters name rows (left and right) and the numbers columns (top and bottom)."""
    pointy = layout == "pointy"
    across: dict[str, float] = {}  # label -> x, drawn above and below the board
    down: dict[str, float] = {}  # label -> y, drawn left and right of the board
    for h in hexes:
        col, row = g.parse_coordinate(h.coord)
        x, y = g.hex_position(h.coord, layout)
        letter, number = g.column_letter(col), str(row + 1)
        if pointy:
            across[number], down[letter] = x, y
        else:
            across[letter], down[number] = x, y
    parts: list[str] = []
    top = frame.min_y + MARGIN / 2
    bottom = frame.min_y + frame.height - MARGIN / 2
    left = frame.min_x + MARGIN / 2
    right = frame.min_x + frame.width - MARGIN / 2
    attrs: dict[str, str | float | None] = {
        "font_size": LABEL_SIZE,
        "text_anchor": "middle",
        "dominant_baseline": "central",
    }
    for label, x in sorted(across.items(), key=lambda kv: kv[1]):
        for y in (top, bottom):
            parts.append(el("text", {"x": x, "y": y, **attrs}, text=label))
    for label, y in sorted(down.items(), key=lambda kv: kv[1]):
        for x in (left, right):
            parts.append(el("text", {"x": x, "y": y, **attrs}, text=label))
    return el("g", {"class": "axis", "fill": "#333", "font_family": FONT}, parts)


def hex_extras(
    board: BoardSource, hex_: MapHex, state: MapState | None, *, icon_names: Mapping[str, str]
) -> HexExtras:
    markers: list[str] = []
    reserved: dict[int, list[str | None]] = {}
    removed = state.removed_markers if state else frozenset()
    icon_symbols = {icon_names.get(i.image) for i in hex_.tile.icons}
    for p in board.privates:
        if p.symbol in removed:
            continue
        if hex_.coord in p.home_hexes and p.symbol not in icon_symbols:
            markers.append(p.symbol)
        for where, city, slot in p.reservations:
            if where == hex_.coord:
                slots = reserved.setdefault(city, [])
                slots.extend([None] * (slot + 1 - len(slots)))
                if slots[slot] is None:
                    slots[slot] = p.symbol
                else:
                    slots[slot] = f"{slots[slot]}/{p.symbol}"
    names = {k: v for k, v in icon_names.items() if v not in removed}
    tokens = state.tokens.get(hex_.coord, {}) if state else {}
    tooltip = f"{hex_.coord} ({hex_.name})" if hex_.name else hex_.coord
    laid = state.tiles.get(hex_.coord) if state else None
    if laid is not None:
        tooltip += f": tile {laid.name or '?'}, rotation {laid.rotation}"
    stations = [t.symbol for row in tokens.values() for t in row if t is not None]
    if stations:
        tooltip += f"; stations {', '.join(stations)}"
    shown: Mapping[int, Sequence[str | None]] = reserved
    if state is not None and state.reserved is not None:
        now = state.reserved.get(hex_.coord, {})
        shown = {
            city: [s if s and s not in removed else None for s in slots]
            for city, slots in now.items()
        }
    return HexExtras(
        name=hex_.name,
        tokens=tokens,
        reserved=shown,
        markers=markers,
        icon_names=names,
        tooltip=tooltip,
    )


def _hide_removed_icons(
    tile: m.Tile, icon_names: Mapping[str, str], removed: frozenset[str]
) -> m.Tile:
    if not removed:
        return tile
    parts = tuple(
        p for p in tile.parts if not (isinstance(p, m.Icon) and icon_names.get(p.image) in removed)
    )
    return tile if len(parts) == len(tile.parts) else m.Tile(parts)


def render_map_body(board: BoardSource, state: MapState | None = None) -> tuple[Frame, str]:
    """The board's SVG content (no document wrapper) and its frame."""
    layout = board.layout
    frame = board_frame(board.hexes, layout)
    icon_names = board.icon_names
    removed = state.removed_markers if state else frozenset()
    hex_parts: list[str] = []
    border_parts: list[str] = []
    highlight_parts: list[str] = []
    pointy = layout == "pointy"
    for hex_ in board.hexes:
        x, y = g.hex_position(hex_.coord, layout)
        laid = state.tiles.get(hex_.coord) if state else None
        tile, colour, rotation = hex_.tile, hex_.color, 0
        if laid is not None:
            tile, colour, rotation = laid.tile, laid.color, laid.rotation
            # a laid tile keeps the hex's printed terrain, borders and private icons
            keep = tuple(p for p in hex_.tile.parts if isinstance(p, m.Border | m.Icon))
            tile = m.Tile(tile.parts + keep)
        tile = _hide_removed_icons(tile, icon_names, removed)
        extras = hex_extras(board, hex_, state, icon_names=icon_names)
        transform = f"translate({g.fmt(x)} {g.fmt(y)})" + (" rotate(30)" if pointy else "")
        body = draw_tile(tile, colour, rotation, extras, borders=False)
        hex_parts.append(
            el(
                "g",
                {"id": f"hex-{hex_.coord}", "class": "hex-cell", "transform": transform},
                [body],
            )
        )
        borders = border_svg(tile, rotation if laid is None else 0)
        if laid is not None:
            # borders belong to the hex, not the laid tile: draw the printed ones unrotated
            borders = border_svg(hex_.tile, 0)
        if borders:
            border_parts.append(el("g", {"transform": transform}, [borders]))
        if state and hex_.coord in state.highlight:
            highlight_parts.append(
                el(
                    "polygon",
                    {
                        "class": "highlight",
                        "transform": transform,
                        "points": g.points_attr(g.corners(0.95)),
                        "fill": "none",
                        "stroke": "#d0006f",
                        "stroke_width": 7,
                        "stroke_dasharray": "14 8",
                    },
                )
            )
    body = "".join(
        [
            el("g", {"class": "hexes"}, hex_parts),
            el("g", {"class": "borders"}, border_parts),
            el("g", {"class": "highlights"}, highlight_parts),
            _axis_labels(board.hexes, layout, frame),
        ]
    )
    return frame, body


def render_map(
    board: BoardSource,
    state: MapState | None = None,
    *,
    scale: float = 0.5,
    title: str | None = None,
) -> str:
    """The board as a standalone SVG document (``scale`` 0.5: a hex is 100 px across)."""
    frame, body = render_map_body(board, state)
    return document(
        frame.width * scale,
        frame.height * scale,
        (frame.min_x, frame.min_y, frame.width, frame.height),
        [
            el(
                "rect",
                {
                    "x": frame.min_x,
                    "y": frame.min_y,
                    "width": frame.width,
                    "height": frame.height,
                    "fill": "white",
                },
            ),
            body,
        ],
        title=title or f"{board.title} map",
        desc=board.credits or None,
    )
