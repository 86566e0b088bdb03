"""``privates.yaml``: the private railways (in 1858 also minors that lay track)."""

from __future__ import annotations

from typing import Annotated, Literal

from ferrovia.schemas.base import Gauge, ListNotEmpty, Model, Money, Name, NotEmpty, PositiveInt
from pydantic import Field, model_validator


class CityRef(Model):
    """A city on a hex: ``city`` is the index of the city on the tile (0 for the first)."""

    hex: Name
    city: int = Field(default=0, ge=0)


class Reservation(CityRef):
    """A city space held for the private (its later public company's home station)."""

    slot: int = Field(default=0, ge=0)
    """Which space of a multi-space city."""
    name: str | None = None
    """The city's name, for people reading the file."""


class TrainDiscount(Model):
    """A share off the face value of trains its owner buys from the bank."""

    percent: int = Field(gt=0, le=100)
    """Taken off the price, rounded down to whole money (10: a 500 train costs 450)."""
    trains: tuple[Name, ...] = ()
    """The faces it applies to (empty: every train)."""


AbilityType = Literal[
    "blocks_hexes", "tile_lay", "teleport", "exchange", "shares", "close", "no_buy"
]


class Ability(Model):
    """One special ability of a private, with 18xx.games' ability names (see 1830's
    privates.yaml for what each means)."""

    type: AbilityType
    owner_type: Literal["player", "corporation"] | None = None
    """It works only while the private's owner is of this kind."""
    hexes: tuple[Name, ...] = ()
    tiles: tuple[Name, ...] = ()
    when: str | None = None
    """When it may be used or happens (``any``, ``owning_corp_or_turn``, ``bought_train``)."""
    count: PositiveInt | None = None
    """How many times it may be used (absent: unlimited, or once for a lay)."""
    corporations: tuple[Name, ...] = ()
    """``exchange``: the companies whose shares it may be swapped for."""
    from_: tuple[Literal["ipo", "market"], ...] = Field(default=(), alias="from")
    """``exchange``: where the share comes from (``market`` = the bank pool)."""
    shares: tuple[Name, ...] = ()
    """``shares``: certificate ids (``PRR_1``; ``_0`` is the president's)."""
    corporation: Name | None = None
    """``close``: the company whose first train purchase closes it."""


class Private(Model):
    """One private company: a private railway, or (``kind: works``) an industry that public
    companies buy."""

    number: PositiveInt
    """Printed number (P1, P2, ...); also the order in which player-owned privates operate."""
    symbol: Name
    name: Name
    batch: Literal[1, 2, 3] | None = None
    """1: auctioned from the start (yellow); 2: from phase 3 (green); 3: a third batch (1858
    Switzerland's blue privates; which phases offer which batch is a rule hook).  Every private
    railway has one; a works has none."""
    face_value: Money
    minimum_bid: Money
    """Lowest opening bid (face value less the auction discount)."""
    income: dict[Name, Money]
    """Income by phase name; applies from that phase on (``{'2': 23, '3': 35}``)."""
    home_hexes: tuple[Name, ...] = ()
    """Hexes of the private's own railway (empty for a private without one)."""
    home_gauges: dict[Name, Gauge] = Field(default_factory=dict)
    """Home hex -> the gauge of this private's own line there, where two privates' lines
    share a hex: a company takes the private over there only by reaching that gauge of
    track, and the hex is no connection to the other private."""
    reservations: tuple[Reservation, ...] = ()
    can_start: Literal["any", "none"] | tuple[Name, ...] = "none"
    """Which public companies it can start (``any``, ``none`` or a list of symbols)."""
    start_cities: tuple[CityRef, ...] = ()
    """Where a company it starts puts its home station (each one of its reservations)."""
    exchange_for_share: bool = False
    """Can be exchanged for a share of a public company connected to a home hex."""
    minor: bool = False
    """Operates as a minor company that lays track."""
    blocks_hexes: tuple[Name, ...] = ()
    """Home hexes where nobody else may lay track while it is open."""
    icon: str | None = None
    """Its map icon (``icon=image:1858/<icon>`` in map.yaml), removed when it closes."""
    color: Literal["yellow", "green", "blue"] | None = None
    description: str | None = None
    kind: Literal["railway", "works"] = "railway"
    """``railway``: a private railway (auctioned to players, exchanged, closed as the rules
    say).  ``works``: an industry that is never auctioned nor closed: once the phase has
    ``works_status`` a public company may buy one from the bank at face value in its
    buy-trains step (one each); it pays its income to its owner at the start of each operating
    round (1858 India's locomotive works)."""
    works_status: Name | None = None
    """The phase status from which a works may be bought."""
    train_discount: TrainDiscount | None = None
    """What its owner saves on trains bought from the bank."""

    @model_validator(mode="after")
    def _batch_for_railways(self) -> Private:
        if self.kind == "railway" and self.batch is None:
            raise ValueError("a private railway needs a 'batch' (1, 2 or 3)")
        if self.kind == "works" and self.works_status is None:
            raise ValueError("a works needs 'works_status' (the phase status to buy it from)")
        return self

    abilities: tuple[Ability, ...] = ()
    """Its special abilities (1830 style); 1858's are the fields above."""


class TwoPlayerUnavailable(Model):
    """How many privates of each batch are drawn at setup to be unbuyable with 2 players."""

    batch_1: int = Field(default=0, ge=0)
    batch_2: int = Field(default=0, ge=0)


class PrivatesFile(Model):
    """The privates, in number order."""

    privates: Annotated[tuple[Private, ...], NotEmpty, ListNotEmpty]
    two_player_unavailable: TwoPlayerUnavailable | None = None
