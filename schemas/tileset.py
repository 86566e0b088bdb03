"""``gamedata/tilesets/<name>.yaml``: tile definitions shared by several games."""

from __future__ import annotations

from ferrovia.schemas.base import Color, Model


class TileDef(Model):
    """A tile's printed face."""

    color: Color
    code: str
    """Contents in tile notation."""


class TilesetFile(Model):
    """Tiles by name (``'57'``); a game's manifest picks and counts them."""

    tiles: dict[str, TileDef]
