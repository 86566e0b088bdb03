"""``phases.yaml``: the phases, what starts each and what each allows."""

from __future__ import annotations

from typing import Annotated

from ferrovia.schemas.base import Color, ListNotEmpty, Model, Name, NotEmpty, PositiveInt


class Phase(Model):
    """One phase of the game."""

    name: Name
    on: tuple[Name, ...] = ()
    """Trains (types or variants) whose first purchase starts this phase; empty for the first."""
    tiles: Annotated[tuple[Color, ...], NotEmpty, ListNotEmpty]
    """Tile colours that may be laid."""
    train_limit: dict[Name, PositiveInt]
    """Train limit per share structure (keys of ``share_structures`` in companies.yaml)."""
    operating_rounds: PositiveInt
    """Operating rounds between stock rounds."""
    private_batches: tuple[PositiveInt, ...] = ()
    """Batches of privates (privates.yaml ``batch``) the bank may auction in this phase; at a
    private closure round the privates of these batches stay open."""
    status: tuple[Name, ...] = ()
    """Named states that rule hooks read (e.g. ``narrow_gauge``, ``green_privates``)."""
    description: str | None = None


class PhasesFile(Model):
    """Phases in order."""

    phases: Annotated[tuple[Phase, ...], NotEmpty, ListNotEmpty]
