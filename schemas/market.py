"""``market.yaml``: stock market, bank, certificate limits, starting cash and station costs."""

from __future__ import annotations

from typing import Annotated, Literal

from ferrovia.schemas.base import (
    ListNotEmpty,
    Model,
    Money,
    Name,
    NotEmpty,
    PerPlayers,
    PositiveInt,
)
from pydantic import Field


class StockMarket(Model):
    """A one-row (linear) stock market, prices from left to right."""

    shape: Literal["linear"] = "linear"
    spaces: Annotated[tuple[Money, ...], NotEmpty, ListNotEmpty]
    par_values: tuple[Money, ...]
    """Spaces a company may be started at by buying its director's certificate."""
    closes_at: Money | None = None
    """A company whose price reaches this space closes."""


class Movement(Model):
    """Spaces the price marker moves (negative = left) on each occasion."""

    withheld: int
    """Earnings withheld, or zero earnings."""
    dividend_at_least_price: int
    """The dividend per share times ten is at least the current price."""
    director_sells: int
    """Once per turn in which the (outgoing) director sells shares."""
    others_sell: int
    no_train: int
    """The company has no train at the end of its turn and buys none."""
    issue: int = 0
    """The company issues treasury shares into the bank pool."""
    redeem: int = 0
    """The company buys back shares from the bank pool."""


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


class MarketFile(Model):
    """Everything about money and shares that is not a company's own."""

    stock_market: StockMarket
    movement: Movement
    bank: PerPlayers
    """Bank cash by player count."""
    certificate_limit: PerPlayers
    starting_cash: PerPlayers
    """Each player's starting cash by player count."""
    bank_pool_limit: int = Field(ge=0, le=100)
    """Most percent of a company that may be in the bank pool."""
    holding_limit: dict[int, int] = Field(default_factory=dict)
    """Most percent of one company a player may hold, by player count (absent: no limit)."""
    sell_buy_order: Literal["sell_buy", "sell_buy_sell", "any"]
    sell_after: Literal["operate", "first_stock_round", "any_time"]
    """Shares of a company may be sold only once it has operated (``operate``)."""
    must_sell_in_blocks: bool = False
    sold_out_increase: bool = False
    stations: StationCosts | None = None
    minimum_bid_increment: PositiveInt | None = None
    bids_in_multiples: bool = False
    """Every bid is a multiple of ``minimum_bid_increment``."""
    note: str | None = None
