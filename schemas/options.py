"""``options.yaml``: optional rules a table may choose."""

from __future__ import annotations

from typing import Annotated

from ferrovia.schemas.base import ListNotEmpty, Model, Money, Name, NotEmpty, PlayerCount
from pydantic import Field


class Packet(Model):
    """A bundle of privates one player receives for a fixed price (quick start)."""

    privates: Annotated[tuple[Name, ...], NotEmpty, ListNotEmpty]
    cost: Money


class Option(Model):
    """One optional rule."""

    id: Name
    name: Name
    description: str
    players: tuple[PlayerCount, ...] = ()
    """Player counts it may be used with (empty: any)."""
    excludes: tuple[Name, ...] = ()
    """Options that cannot be used together with this one."""
    packets: dict[PlayerCount, tuple[Packet, ...]] = Field(default_factory=dict)
    """Quick-start packets by player count."""


class OptionsFile(Model):
    """The optional rules."""

    options: tuple[Option, ...] = ()
