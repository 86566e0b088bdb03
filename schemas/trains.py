"""``trains.yaml``: train types, their gauge variants, counts and rusting."""

from __future__ import annotations

from typing import Annotated

from ferrovia.schemas.base import (
    Count,
    Gauge,
    ListNotEmpty,
    Model,
    Money,
    Name,
    NotEmpty,
    PlayerCount,
    PositiveInt,
)
from pydantic import Field, model_validator


class StopLimit(Model):
    """How many stops of one kind a route may touch (``visit``) and how many score (``pay``).

    99 means "no limit" (as in 18xx.games).
    """

    visit: int = Field(ge=0)
    pay: int = Field(ge=0)


class Distance(Model):
    """How far a train runs: ``{hexes: N}``, ``{stops: N}`` or ``{large_stops: ..., small_stops:
    ...}``.

    ``hexes`` counts hex edges crossed (H trains; every stop on the way scores). Large stops are
    cities and off-boards (ports, France), small stops are towns.
    """

    hexes: PositiveInt | None = None
    stops: PositiveInt | None = None
    """N stops of any kind (cities, towns, off-boards), each scoring; 999: no limit (an
    1830 D)."""
    large_stops: StopLimit | None = None
    small_stops: StopLimit | None = None

    def given(self) -> dict[str, int | StopLimit]:
        """The measures given, by name: ``model_dump(exclude_none=True)`` with the stop limits
        as models, read without building a serializer (~10 ms at a process's first use)."""
        measures = {name: getattr(self, name) for name in type(self).model_fields}
        return {name: value for name, value in measures.items() if value is not None}

    @model_validator(mode="after")
    def _one_measure(self) -> Distance:
        given = [self.hexes is not None, self.stops is not None, self.large_stops is not None]
        if sum(given) != 1:
            raise ValueError("give one of 'hexes', 'stops' or 'large_stops' (with 'small_stops')")
        if self.stops is not None and self.small_stops is not None:
            raise ValueError("'small_stops' goes with 'large_stops', not with 'stops'")
        if self.hexes is not None and self.small_stops is not None:
            raise ValueError("'small_stops' goes with 'large_stops', not with 'hexes'")
        return self


class Variant(Model):
    """An alternative face of a train card (e.g. the metre-gauge 2M of a 4H)."""

    name: Name
    price: Money
    distance: Distance
    gauge: Gauge
    multiplier: PositiveInt = 1


class RustAfterPurchases(Model):
    """Rusting on the Nth purchase (from the bank) of a new train with one of some faces."""

    nth_purchase: PositiveInt | dict[PlayerCount, PositiveInt]
    """N, or N per player count."""
    of: Annotated[tuple[Name, ...], NotEmpty, ListNotEmpty]
    """Train faces (types or variants) whose purchases are counted."""


class Car(Model):
    """A car that runs attached to one of its company's trains, never on its own (1858 India's
    Pullman).  A company holds at most one; it is not a train for the trainless rules (emergency
    money, the price drop of a company without a train), is never discarded and is not sold
    between companies."""

    attaches_to: Gauge = "broad"
    """The gauge of the trains it can be attached to."""
    per_large_stop: Money
    """Added to its host's run for each city or off-board the host visits, multiplied as the
    host's revenue is (a double train doubles it, a wounded host earns it divided by the
    wounded revenue divisor)."""


class Train(Model):
    """One train type."""

    name: Name
    price: Money
    distance: Distance
    gauge: Gauge
    multiplier: PositiveInt = 1
    """Revenue multiplier (2 for a D train that doubles)."""
    count: Count | dict[PlayerCount, Count]
    """How many exist, or a count per player count."""
    obsolete_on: Name | RustAfterPurchases | None = None
    """Train (type or variant) whose first purchase makes this type obsolete (wounded), or a
    count of purchases (1858 Switzerland: 6H/3M on the 2nd 6E/5M/5D)."""
    rusts_on: Name | RustAfterPurchases | None = None
    """Train type whose first purchase rusts this type, or a count of purchases."""
    available_on: Name | None = None
    """Phase from which this type can be bought (otherwise: when the previous type is sold out)."""
    events: tuple[Name, ...] = ()
    """Events triggered by the first purchase of this type (rule hooks read their names)."""
    variants: tuple[Variant, ...] = ()
    counts_for_train_limit: bool = True
    """False: owning one does not use up room under the company's train limit, and a company
    at its limit may still buy one."""
    car: Car | None = None
    """It is a car that runs attached to another train (see :class:`Car`)."""
    trade_in: dict[Name, Money] = Field(default_factory=dict)
    """Train type -> discount: a company may buy this type for its price less the discount by
    handing in one train of that type (1830's diesel exchange)."""


class WoundedRules(Model):
    """How wounded (obsolete) trains behave."""

    revenue_divisor: PositiveInt = 2
    """A wounded train's run pays this fraction (rounded down)."""
    counts_for_train_limit: bool = True
    may_be_bought: bool = True
    """From the bank pool or from another company."""
    may_be_discarded: bool = True
    removed_from_bank_pool: bool = True
    """A card in the bank pool when its type becomes wounded is removed from play."""


class CompanySales(Model):
    """Trains a company buys from another company rather than from the bank."""

    min_price: PositiveInt = 1
    """The least the buyer may pay (the most is its treasury)."""


class TrainsFile(Model):
    """Train types in the order they are sold."""

    trains: Annotated[tuple[Train, ...], NotEmpty, ListNotEmpty]
    # defaults made unvalidated (same values): a validated one builds the validator at import
    wounded: WoundedRules = WoundedRules.model_construct()
    between_companies: CompanySales = CompanySales.model_construct()
