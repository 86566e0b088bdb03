"""What the renderer needs from a game definition, as plain data.

:func:`load_board` reads a game directory through :func:`ferrovia.data.definition.load_game` (the
validated definition, one source of truth). When the data does not validate, it says so on
stderr and draws what the YAML files hold anyway (a map with a broken trains file is still
worth seeing; a broken map file is still an error naming file, line and column). Everything
here is the renderer's own view: hexes with parsed tiles, tile manifest entries, private
railway markers, company colours and the market's prices.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ferrovia.errors import DataError
from ferrovia.notation import models as m


@dataclass(frozen=True)
class MapHex:
    coord: str
    color: str
    tile: m.Tile
    name: str | None = None


@dataclass(frozen=True)
class TileEntry:
    name: str
    color: str
    count: int | None  # None: unlimited
    tile: m.Tile


@dataclass(frozen=True)
class PrivateMark:
    symbol: str
    home_hexes: tuple[str, ...]
    icon: str | None
    reservations: tuple[tuple[str, int, int], ...]  # (hex, city index, slot)
    color: str | None = None


@dataclass(frozen=True)
class BoardSource:
    """A game's board as the renderer sees it."""

    title: str
    layout: str
    hexes: tuple[MapHex, ...]
    tiles: tuple[TileEntry, ...] = ()
    privates: tuple[PrivateMark, ...] = ()
    icon_prefix: str = ""
    company_colors: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    company_names: Mapping[str, str] = field(default_factory=dict)
    """Company symbol -> its name (companies.yaml), the tooltip of its marker."""
    market_spaces: tuple[int, ...] = ()
    currency: str = "P%d"  # game.yaml ``currency``: how money is written
    credits: str = ""
    """game.yaml's subtitle, designer, publisher, implementer and rules URL, in one line (the
    map's SVG description)."""

    @property
    def icon_names(self) -> dict[str, str]:
        """Icon image (``1858/BM``) -> private symbol (``B&M``)."""
        out: dict[str, str] = {}
        for p in self.privates:
            if p.icon:
                out[f"{self.icon_prefix}{p.icon}"] = p.symbol
        return out


def board_from_definition(defn: Any) -> BoardSource:
    """The renderer's view of a validated :class:`ferrovia.data.definition.GameDefinition`."""
    hexes = tuple(MapHex(h.coord, h.color, h.tile, h.name) for h in defn.hexes.values())
    tiles = tuple(TileEntry(t.name, t.color, t.count, t.tile) for t in defn.tiles.values())
    privates = tuple(
        PrivateMark(
            symbol=p.symbol,
            home_hexes=tuple(p.home_hexes),
            icon=p.icon,
            reservations=tuple((r.hex, r.city, r.slot) for r in p.reservations),
            color=p.color,
        )
        for p in defn.privates
    )
    colors = {c.symbol: (c.color, c.text_color) for c in defn.corporations}
    return BoardSource(
        title=str(defn.title or defn.name),
        layout=str(defn.layout),
        hexes=hexes,
        tiles=tiles,
        privates=privates,
        icon_prefix=f"{defn.path.name}/",
        company_colors=colors,
        company_names={c.symbol: c.name for c in defn.corporations},
        market_spaces=tuple(defn.market.stock_market.spaces),
        currency=str(defn.currency),
        credits=credits(defn.game),
    )


def credits(game: Any) -> str:
    """game.yaml's credits in one line.

    >>> from types import SimpleNamespace as NS
    >>> credits(NS(title="1858", subtitle="The Railways of Iberia", designer="Ian D Wilson",
    ...            publisher=None, implementer=None, rules_url=None))
    '1858: The Railways of Iberia. Designer: Ian D Wilson.'
    """
    title = str(game.title)
    subtitle = game.subtitle
    parts = [f"{title}: {subtitle}" if subtitle and subtitle not in title else title]
    for label, value in (
        ("Designer", game.designer),
        ("Publisher", game.publisher),
        ("Implemented by", game.implementer),
        ("Rules", game.rules_url),
    ):
        if value:
            parts.append(f"{label}: {value}")
    return ". ".join(parts) + "."


def load_board(game_dir: Path | str) -> BoardSource:
    """Read ``game_dir`` (``gamedata/1858``, or a variant that extends it) into a
    :class:`BoardSource`, through the validated definition.

    Raises :class:`ferrovia.errors.DataErrors` (every error, each at its file, line and
    column) when the game does not validate, and :class:`ferrovia.errors.DataError` when
    ``game_dir`` is not a game directory.
    """
    root = Path(game_dir)
    if not (root / "game.yaml").is_file():
        raise DataError(str(root / "game.yaml"), 1, 1, "file not found (is this a game directory?)")
    from ferrovia.data.definition import load_game

    return board_from_definition(load_game(root))
