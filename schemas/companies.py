"""``companies.yaml``: the public companies (corporations) and their share structures."""

from __future__ import annotations

from typing import Annotated, Literal

from ferrovia.schemas.base import ListNotEmpty, Model, Money, Name, NotEmpty, PositiveInt
from pydantic import Field, model_validator

HtmlColor = Field(pattern=r"^#[0-9a-fA-F]{6}$|^[a-z]+$")


class ShareStructure(Model):
    """A company's certificates: the director's first, each as a percentage."""

    shares: Annotated[tuple[PositiveInt, ...], NotEmpty, ListNotEmpty]

    @model_validator(mode="after")
    def _whole(self) -> ShareStructure:
        total = sum(self.shares)
        if total != 100:
            raise ValueError(f"shares add up to {total} %, not 100 %")
        return self


class Conversion(Model):
    """Companies of one structure become another (e.g. 5-share to 10-share)."""

    from_structure: Name = Field(alias="from")
    to: Name
    on_event: Name
    """Train event that triggers the conversion (see trains.yaml)."""
    float_percent: int | None = Field(default=None, ge=0, le=100)
    """Percent sold at which a converted (or newly started, converted) company floats; empty:
    its old float percent in the new structure's shares (1858: 40 % of 5 shares -> 20 %)."""


class Home(Model):
    """A company's home station: a hex and the index of the city on it (0 = the first)."""

    hex: Name
    city: int | None = Field(default=None, ge=0)
    """Which city of a hex with several (absent: the director chooses when it is placed)."""


class Corporation(Model):
    """One public company."""

    symbol: Name
    name: Name
    color: str = HtmlColor
    text_color: str = HtmlColor
    structure: Name
    """Share structure the company starts with (a key of ``share_structures``)."""
    float_percent: int = Field(ge=0, le=100)
    station_markers: PositiveInt
    """Number of station markers; the first is the home station."""
    station_costs: tuple[Money, ...] = ()
    """Price of each station marker, the home station first (empty: the game's station
    rules price them, as 1858's provinces do)."""
    home: Home | None = None
    """Where its home station goes (empty: the rules decide, as 1858's privates do)."""

    @model_validator(mode="after")
    def _costs(self) -> Corporation:
        if self.station_costs and len(self.station_costs) != self.station_markers:
            raise ValueError(
                f"{len(self.station_costs)} station_costs for {self.station_markers} markers"
            )
        return self


class CompaniesFile(Model):
    """Share structures, capitalisation and the list of public companies."""

    capitalization: Literal["full", "incremental"]
    """``incremental``: the treasury receives money as each share is sold."""
    always_market_price: bool = False
    """Treasury shares sell at the current market price, not at par."""
    share_structures: dict[Name, ShareStructure]
    conversion: Conversion | None = None
    corporations: tuple[Corporation, ...]
