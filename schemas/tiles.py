"""``tiles.yaml``: the game's tile manifest, its own tiles and its upgrade rules."""

from __future__ import annotations

from typing import Literal

from ferrovia.schemas.base import (
    TILE_COLORS,
    Color,
    Count,
    Gauge,
    Model,
    Money,
    Name,
    PositiveInt,
)
from pydantic import Field, model_validator


class SpecialLay(Model):
    """A tile laid straight on a white hex of one terrain cost, skipping yellow, for its own
    price instead of the terrain (1858 Switzerland's mountain railways; who may lay it and
    what it earns are the game's rule hooks)."""

    cost: Money
    """Paid instead of the hex's terrain cost (the turn's lay fee still applies)."""
    on_terrain: Money
    """Only on a white hex whose printed terrain costs this much."""


class ManifestEntry(Model):
    """How many of a tile the game has; an own tile (not in the tile set) gives colour and code."""

    count: Count
    """Number of copies, or ``unlimited``."""
    color: Color | None = None
    code: str | None = None
    upgrades_to: tuple[str, ...] | None = None
    """Explicit list of tiles this one may be upgraded to (otherwise the generic rules decide)."""
    special_lay: SpecialLay | None = None

    @model_validator(mode="after")
    def _color_with_code(self) -> ManifestEntry:
        if (self.color is None) != (self.code is None):
            raise ValueError("an own tile needs both 'color' and 'code'")
        return self


class TerrainRules(Model):
    """Terrain cost (``upgrade=cost:..`` on a hex) in special cases."""

    metre_only: Literal["full", "half"] = "full"
    """A lay whose new track is all metre gauge."""
    private_home_hexes: Literal["paid", "free"] = "paid"
    """A private railway laying in its own home hexes."""


class GaugeConversions(Model):
    """A laid tile may be replaced by one of its own colour, label, stops and number of track
    sections, with every section where it was and the gauge of some sections changed, all the
    same way (broad to metre or metre to broad).  Read by 1858 India's rules
    (engine/games/g1858/india.py)."""

    plain_track: tuple[PositiveInt, ...] = (1,)
    """How many sections may change on a tile with neither a city nor a town."""
    with_stops: tuple[PositiveInt, ...] = (1, 2)
    """How many sections may change on a tile with a city or a town."""


class UpgradeRules(Model):
    """Generic upgrade rules the validator and the rules engine read."""

    colors: tuple[Color, ...] = TILE_COLORS
    """Each upgrade moves exactly one step along this order."""
    gauges_kept_by: dict[Gauge, tuple[Gauge, ...]] | None = None
    """An old path of the key's gauge is kept by a new path of one of the listed gauges
    (absent: broad by broad or dual, metre by metre or dual, dual by dual)."""
    same_label: bool = True
    """A labelled tile/hex may only be upgraded to a tile with the same label."""
    future_labels: bool = True
    """A hex's ``future_label`` replaces its label for tiles of that colour."""
    same_stops: bool = True
    """Cities upgrade to cities, towns to towns, keeping their number (unless listed)."""
    labelled_cities_change_count: bool = False
    """A labelled hex may change its number of cities (never to none)."""
    must_use: Literal["any", "new_track", "new_track_or_revenue"] = "new_track_or_revenue"
    """What of the lay must be on the operator's network: ``any`` (the tile need only join
    it), ``new_track`` (some of the new track) or ``new_track_or_revenue`` (new track, or a
    city or town on it whose value changes)."""
    metre_gauge_from_phase: Name | None = None
    """Tiles with metre-gauge track are available from this phase."""
    # unvalidated default (same value): a validated one builds the validator at import
    terrain: TerrainRules = TerrainRules.model_construct()
    gauge_conversions: GaugeConversions | None = None
    """Gauge conversions are allowed (absent: never)."""
    hexes: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    """Hex-specific upgrade lists: coordinate -> tiles that may be laid there."""


class TileLay(Model):
    """One tile operation of an operating turn."""

    upgrade: bool = True
    """Whether it may be an upgrade (otherwise only a yellow tile on an empty hex)."""
    cost: Money = 0
    metre_cost: Money | None = None
    """Cost instead when the turn's new track is all metre gauge."""
    other_hex: bool = False
    """Must be in a different hex from the turn's earlier lays."""


class TilesFile(Model):
    """Tile manifest keyed by tile name, plus upgrade rules and tile lays per turn."""

    tiles: dict[str, ManifestEntry]
    # unvalidated default (same value): a validated one builds the validator at import
    upgrades: UpgradeRules = UpgradeRules.model_construct()
    lays: dict[Name, tuple[TileLay, ...]] = Field(default_factory=dict)
    """Tile operations per operating turn, by kind of operator (``corporation``, ``private``)."""
