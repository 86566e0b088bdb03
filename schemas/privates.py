"""``privates.yaml``: the private railways (in 1858 also minors that lay track)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from schemas.base import Model, Money, Name, PositiveInt


class CityRef(Model):
    """A city on a hex: ``city`` is the index of the city on the tile (0 for the first)."""

    hex: Name
    city: int = Field(default=0, ge=0)


class Reservation(CityRef):
    """A city slot held for the private (its later public company's home station)."""

    shared_with: tuple[Name, ...] = ()
    """Other privates reserving the same slot (the first to use it takes it)."""


class Private(Model):
    """One private railway."""

    number: PositiveInt
    """Printed number (P1, P2, ...); also the order in which player-owned privates operate."""
    symbol: Name
    name: Name
    batch: Literal[1, 2]
    """1: auctioned from the start (yellow); 2: from phase 3 (green)."""
    face_value: Money
    minimum_bid: Money
    """Face value less the discount allowed in the auction."""
    income: dict[Name, Money]
    """Income by phase name; applies from that phase on (``{'2': 23, '3': 35}``)."""
    home_hexes: tuple[Name, ...] = ()
    """Hexes the private's own track links (empty for a private without a railway)."""
    reservations: tuple[Reservation, ...] = ()
    can_start: Literal["any", "none"] | tuple[Name, ...] = "none"
    """Which public companies it can be exchanged for (``any``, ``none`` or a list)."""
    description: str | None = None


class PrivatesFile(Model):
    """The privates, in number order."""

    privates: tuple[Private, ...]
