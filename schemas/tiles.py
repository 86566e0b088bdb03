"""``tiles.yaml``: the game's tile manifest, its own tiles and its upgrade rules."""

from __future__ import annotations

from pydantic import Field, model_validator

from schemas.base import TILE_COLORS, Color, Count, Model


class ManifestEntry(Model):
    """How many of a tile the game has; an own tile (not in the tile set) gives colour and code."""

    count: Count
    """Number of copies, or ``unlimited``."""
    color: Color | None = None
    code: str | None = None
    upgrades_to: tuple[str, ...] | None = None
    """Explicit list of tiles this one may be upgraded to (otherwise the generic rules decide)."""

    @model_validator(mode="after")
    def _color_with_code(self) -> ManifestEntry:
        if (self.color is None) != (self.code is None):
            raise ValueError("an own tile needs both 'color' and 'code'")
        return self


class UpgradeRules(Model):
    """Generic upgrade rules the validator and the rules engine read."""

    colors: tuple[Color, ...] = TILE_COLORS
    """Each upgrade moves exactly one step along this order."""
    preserve_track: bool = True
    """The new tile must contain every path of the old one (in the laid rotation)."""
    same_label: bool = True
    """A labelled tile/hex may only be upgraded to a tile with the same label."""
    same_stops: bool = True
    """Cities upgrade to cities, towns to towns, keeping their number (unless listed)."""
    hexes: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    """Hex-specific upgrade lists: coordinate -> tiles that may be laid there."""


class TilesFile(Model):
    """Tile manifest keyed by tile name, plus upgrade rules."""

    tiles: dict[str, ManifestEntry]
    upgrades: UpgradeRules = UpgradeRules()
