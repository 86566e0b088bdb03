"""``game.yaml``: what the game is and which files and rule hooks make it up."""

from __future__ import annotations

from pathlib import PurePosixPath, PureWindowsPath
from typing import Annotated, Literal

from ferrovia.schemas.base import Model, Money, Name, PlayerCount
from pydantic import AfterValidator, Field, model_validator


class Players(Model):
    """How many may play."""

    min: PlayerCount
    max: PlayerCount

    @model_validator(mode="after")
    def _ordered(self) -> Players:
        if self.min > self.max:
            raise ValueError(f"min ({self.min}) is more than max ({self.max})")
        return self


def inside_problem(value: str) -> str | None:
    """Why ``value`` is not a file name inside the game directory (None: it is one).

    >>> inside_problem("../../etc/passwd")
    "'../../etc/passwd' leaves the game directory; name a file inside it"
    """
    if not value or "\0" in value:
        return "expected a file name inside the game directory"
    if PurePosixPath(value).is_absolute() or PureWindowsPath(value).is_absolute():
        return f"{value!r} is an absolute path; name a file inside the game directory"
    if ".." in value.replace("\\", "/").split("/"):
        return f"{value!r} leaves the game directory; name a file inside it"
    return None


def _inside(value: str) -> str:
    """A data file stays inside its game directory: no absolute path, no ``..``."""
    problem = inside_problem(value)
    if problem is not None:
        raise ValueError(problem)
    return value


InsideName = Annotated[str, AfterValidator(_inside)]


class Files(Model):
    """Override the file name of a part of the game (relative to the game directory, and
    inside it: a game's data never comes from elsewhere)."""

    map: InsideName = "map.yaml"
    tiles: InsideName = "tiles.yaml"
    privates: InsideName = "privates.yaml"
    companies: InsideName = "companies.yaml"
    trains: InsideName = "trains.yaml"
    phases: InsideName = "phases.yaml"
    market: InsideName = "market.yaml"
    options: InsideName = "options.yaml"


class GameEnd(Model):
    """When the game ends."""

    bank_broken: Literal["immediate", "current_round", "current_or", "full_or"] = "full_or"
    """When the game ends once the bank has run out: ``immediate`` (at once),
    ``current_round`` (at the end of the round in progress), ``current_or`` (at the end of the
    operating round in progress, or, if it broke in a stock round, of the next one) or
    ``full_or`` (at the end of the set of operating rounds)."""


class HexTokens(Model):
    """One kind of token printed on map hexes that public companies collect, for a fee, after
    laying track in their operating turn (1858 India's mine, oil and port tokens): the hex must
    hold track and be on the company's network."""

    cost: Money
    from_status: Name | None = None
    """The phase status from which this kind may be collected (none: from the start)."""
    bonus_hex: Name
    """The map hex whose off-board value (by phase) each collected token adds to every run."""
    hexes: tuple[Name, ...]
    """The hexes printed with one."""


class GameFile(Model):
    """The game's identity: title, designer, player range, layout and the parts it uses."""

    extends: str | None = None
    """A variant's base game: a directory name (next to this one, else under ``gamedata/``) or
    a relative path; each file here is merged onto the base's (see engine/data/overlay.py)."""
    name: Name
    """Short identifier, e.g. ``'1858'``."""
    title: Name
    """Full title shown to players."""
    subtitle: str | None = None
    designer: str | None = None
    publisher: str | None = None
    implementer: str | None = None
    """Who implemented the reference version the data was checked against."""
    rules_url: str | None = None
    players: Players
    layout: Literal["flat", "pointy"] = "flat"
    """Hex orientation; on a flat map letters are columns and numbers rows."""
    currency: str = Field(default="%d", pattern=r"%d")
    """Money format, e.g. ``'P%d'``."""
    tileset: Name
    """Name of a file in ``gamedata/tilesets/`` (without ``.yaml``)."""
    rules: Name
    """Name of the rule-hook set in ``engine/games/``."""
    # defaults made unvalidated (same values): a validated one builds the validator at import
    end: GameEnd = GameEnd.model_construct()
    files: Files = Files.model_construct()
    hex_tokens: dict[Name, HexTokens] = Field(default_factory=dict)
    """Kinds of collectable hex tokens by name (read by the game's rule hooks)."""
    rule_sections: dict[str, str] = Field(default_factory=dict)
    """Where a rule the engine names stands in this game's rulebook: ``{train limit: '9.8'}``
    makes an illegal action against it name the rule ``9.8 train limit``."""
