"""``map.yaml``: every hex of the board, keyed by coordinate."""

from __future__ import annotations

from typing import Annotated

from ferrovia.schemas.base import Color, MapNotEmpty, Model, NotEmpty


class Hex(Model):
    """One hex as printed on the board."""

    color: Color
    name: str | None = None
    """Location name (city, town or off-board area)."""
    code: str = ""
    """Preprinted contents in tile notation (towns, cities, track, terrain, borders, ...)."""


class MapFile(Model):
    """The board: one entry per hex, keyed by coordinate such as ``A14`` (its hex layout is
    game.yaml's ``layout``)."""

    hexes: Annotated[dict[str, Hex], NotEmpty, MapNotEmpty]
