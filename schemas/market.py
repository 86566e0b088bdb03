"""``market.yaml``: stock market, bank, certificate limits, starting cash and station costs."""

from __future__ import annotations

from typing import Annotated, Literal

from ferrovia.schemas.base import (
    Model,
    Money,
    Name,
    PerPlayers,
    PositiveInt,
)
from pydantic import Field, model_validator

GridCell = Annotated[str, Field(pattern=r"^([0-9]+[pyobc]*)?$")] | Money
"""A 2-D market cell: its price and zone letters (``'100p'``, ``'60y'``, ``67``); ``''`` = no
space.  Letters: ``p`` par, ``y`` yellow (not counted toward the certificate limit), ``o``
orange (also above the holding limit), ``b`` brown (also several bought per turn), ``c`` the
company closes."""

Direction = Literal["right", "left", "up", "down"]


class StockMarket(Model):
    """The stock market: one row (``linear``, prices from left to right) or a grid of rows."""

    shape: Literal["linear", "grid"] = "linear"
    spaces: tuple[Money, ...] = ()
    """``linear``: the prices from left to right."""
    par_values: tuple[Money, ...] = ()
    """``linear``: spaces a company may be started at by buying its director's certificate
    (a grid marks its par spaces with ``p``)."""
    rows: tuple[tuple[GridCell, ...], ...] = ()
    """``grid``: the rows from the top, each cell a :data:`GridCell`."""
    closes_at: Money | None = None
    """A company whose price reaches this space closes."""

    @model_validator(mode="after")
    def _shape(self) -> StockMarket:
        if self.shape == "linear" and not self.spaces:
            raise ValueError("a linear market needs 'spaces'")
        if self.shape == "grid":
            if not self.rows or not any(str(c) for c in self.rows[0]):
                raise ValueError("a grid market needs 'rows' (a first row with spaces)")
            if self.spaces:
                raise ValueError("a grid market gives 'rows', not 'spaces'")
            if not any("p" in str(c) for row in self.rows for c in row):
                raise ValueError("a grid market needs at least one par space (a 'p' cell)")
        return self


class GridMovement(Model):
    """How a price moves on a grid market, as directions (``right`` at a row's end goes up,
    ``left`` at its start goes down, as 18xx.games moves 2-D markers)."""

    paid: tuple[Direction, ...] = ("right",)
    """A dividend is paid."""
    withheld: tuple[Direction, ...] = ("left",)
    """Earnings are withheld, or are zero."""
    per_share_sold: tuple[Direction, ...] = ("down",)
    """Each share sold to the bank pool."""
    sold_out: tuple[Direction, ...] = ("up",)
    """At the end of a stock round, for a company with no share in the IPO or the pool."""


class Movement(Model):
    """Spaces the price marker moves (negative = left, positive = right) on each occasion."""

    withheld: int
    """Earnings withheld, or earnings too small to pay anything per share."""
    paid: int = 0
    """A dividend is paid but the per-share test below is not met."""
    dividend_at_least_price: int
    """A dividend whose per-share amount times ``dividend_times`` is at least the price."""
    dividend_times: PositiveInt
    """The per-share dividend is multiplied by this before the comparison with the price
    (1858: ten, even for a 5-share company)."""
    director_sells: int
    """Once per sale by the (outgoing) director."""
    others_sell: int
    """Once per sale by a player who is not the director."""
    no_train: int
    """The company has no train at the end of its turn and buys none."""
    issue: int = 0
    """The company issues treasury shares into the bank pool."""
    redeem: int = 0
    """The company buys back shares from the bank pool."""
    sold_out: int = 0
    """At the end of a stock round, for each started company with every share held by
    players."""


class StationCosts(Model):
    """Station marker cost: ``max(minimum, per_border × fewest province borders crossed)``.

    The borders crossed are counted from each of the company's existing stations.
    """

    minimum: Money
    per_border: Money
    provinces: dict[Name, tuple[Name, ...]]
    """Province name -> its city hexes (those stations may be placed in)."""
    borders_between: dict[Name, dict[Name, int]]
    """Province -> province -> number of province borders crossed between them."""
    home_revenue_times: int = Field(default=0, ge=0)
    """A company started by buying its director's certificate pays this many times its home
    city's revenue for its home station (1858: 2; one started from a private pays nothing)."""


class MarketFile(Model):
    """Everything about money and shares that is not a company's own."""

    stock_market: StockMarket
    movement: Movement | None = None
    """How a linear market's prices move (required for a linear market)."""
    grid_movement: GridMovement | None = None
    """How a grid market's prices move (required for a grid market)."""
    bank: PerPlayers
    """Bank cash by player count."""
    certificate_limit: PerPlayers
    starting_cash: PerPlayers
    """Each player's starting cash by player count."""
    bank_pool_limit: int = Field(ge=0, le=100)
    """Most percent of a company that may be in the bank pool."""
    holding_limit: dict[int, int] = Field(default_factory=dict)
    """Most percent of one company a player may hold, by player count (absent: no limit)."""
    sell_buy_order: Literal["sell_buy", "sell_buy_sell"]
    """``sell_buy``: once a player has bought in a turn, they sell no more that turn;
    ``sell_buy_sell``: they may sell after buying too."""
    sell_after: Literal["operate", "first_stock_round", "any_time"]
    """When a company's shares may be sold: once it has operated (``operate``), from the
    second stock round on (``first_stock_round``), or whenever (``any_time``)."""
    must_sell_in_blocks: bool = False
    """A player sells the shares of one company they sell in a turn all at once (one sale per
    company per turn)."""
    stations: StationCosts | None = None
    """Station marker costs; without them station markers cost nothing."""
    minimum_bid_increment: PositiveInt = 1
    """A bid on a private is at least this much above the one before."""
    bids_in_multiples: bool = False
    """Every bid is a multiple of ``minimum_bid_increment``."""

    @model_validator(mode="after")
    def _movement(self) -> MarketFile:
        if self.stock_market.shape == "linear" and self.movement is None:
            raise ValueError("a linear market needs 'movement'")
        if self.stock_market.shape == "grid" and self.grid_movement is None:
            raise ValueError("a grid market needs 'grid_movement'")
        return self
