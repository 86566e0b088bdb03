"""The tile manifest: every tile of a game with its number, colour and count, in colour rows."""

from __future__ import annotations

from ferrovia.render import geometry as g
from ferrovia.render.source import BoardSource, TileEntry
from ferrovia.render.svg import document, el
from ferrovia.render.tile_svg import FONT, HexExtras, draw_tile

COLOUR_ORDER = ["yellow", "green", "brown", "gray", "grey", "white", "red", "blue"]
PER_ROW = 10
CELL_W = 2 * g.RADIUS + 24
CELL_H = 2 * g.APOTHEM + 44
HEADING = 46.0


def _key(entry: TileEntry) -> tuple[int, str, int, str]:
    """Colour order, then plain numbers before lettered names, numerically (X2 before X10)."""
    rank = COLOUR_ORDER.index(entry.color) if entry.color in COLOUR_ORDER else len(COLOUR_ORDER)
    prefix = entry.name.rstrip("0123456789")
    digits = entry.name[len(prefix) :]
    return rank, prefix, int(digits) if digits else -1, entry.name


def count_text(entry: TileEntry) -> str:
    return "∞" if entry.count is None else str(entry.count)


def render_manifest(board: BoardSource, *, scale: float = 0.5) -> str:
    """All of ``board``'s tiles, grouped by colour, each captioned ``number ×count``."""
    entries = sorted(board.tiles, key=_key)
    rows: list[str] = []
    y = 0.0
    width = PER_ROW * CELL_W
    colour_groups: dict[str, list[TileEntry]] = {}
    for entry in entries:
        colour_groups.setdefault(entry.color, []).append(entry)
    for colour_name, group in colour_groups.items():
        total = sum(e.count or 0 for e in group)
        unlimited = any(e.count is None for e in group)
        limited = [e for e in group if e.count is not None]
        heading = f"{colour_name.capitalize()}: {len(group)} tiles"
        if limited:
            heading += f", {total} pieces of {len(limited)} limited"
        if unlimited:
            heading += f", {len(group) - len(limited)} unlimited"
        rows.append(
            el(
                "text",
                {
                    "x": 10,
                    "y": y + HEADING * 0.6,
                    "font_size": 26,
                    "font_weight": "bold",
                    "class": "group-heading",
                },
                text=heading,
            )
        )
        y += HEADING
        for i, entry in enumerate(group):
            col, row = i % PER_ROW, i // PER_ROW
            cx = col * CELL_W + CELL_W / 2
            cy = y + row * CELL_H + g.APOTHEM + 4
            tile = draw_tile(entry.tile, entry.color, 0, HexExtras(show_zero_revenue=False))
            caption = f"{entry.name}  ×{count_text(entry)}"
            rows.append(
                el(
                    "g",
                    {
                        "class": "manifest-tile",
                        "id": f"tile-{entry.name}",
                        "transform": f"translate({g.fmt(cx)} {g.fmt(cy)})",
                    },
                    [
                        tile,
                        el(
                            "text",
                            {
                                "class": "caption",
                                "x": 0,
                                "y": g.APOTHEM + 22,
                                "font_size": 20,
                                "text_anchor": "middle",
                            },
                            text=caption,
                        ),
                    ],
                )
            )
        y += ((len(group) + PER_ROW - 1) // PER_ROW) * CELL_H + 10
    height = max(y, 1.0)
    body = el("g", {"font_family": FONT}, rows)
    return document(
        width * scale,
        height * scale,
        (0, 0, width, height),
        [el("rect", {"width": width, "height": height, "fill": "white"}), body],
        title=f"{board.title} tile manifest",
    )
