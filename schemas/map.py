"""``map.yaml``: every hex of the board, keyed by coordinate."""

from __future__ import annotations

from typing import Annotated

from ferrovia.schemas.base import Color, MapNotEmpty, Model, Money, NotEmpty
from pydantic import Field


class Hex(Model):
    """One hex as printed on the board."""

    color: Color
    name: str | None = None
    """Location name (city, town or off-board area)."""
    code: str = ""
    """Preprinted contents in tile notation (towns, cities, track, terrain, borders, ...)."""


class RouteBonus(Model):
    """Extra revenue for a route that joins two groups of hexes (1858 Switzerland's
    north-south and east-west bonuses)."""

    one_end: Annotated[tuple[str, ...], NotEmpty]
    """Hexes at one end: the route visits one of them ..."""
    other_end: Annotated[tuple[str, ...], NotEmpty]
    """... and one of these."""
    value_hex: str
    """The off-board hex whose printed value for the phase is the bonus (times the train's
    multiplier; a wounded train's halving does not apply to it)."""


class MapFile(Model):
    """The board: one entry per hex, keyed by coordinate such as ``A14`` (its hex layout is
    game.yaml's ``layout``)."""

    hexes: Annotated[dict[str, Hex], NotEmpty, MapNotEmpty]
    route_bonuses: dict[str, RouteBonus] = Field(default_factory=dict)
    """Bonus name -> the route bonus."""
    group_revenues: dict[str, Money | dict[Color, Money]] = Field(default_factory=dict)
    """Off-board group -> its value, said once for all the group's hexes (1858's France: one
    value per phase colour on six hexes): an ``offboard`` whose code names the group
    (``groups:France``) and gives no ``revenue`` takes this one."""
