"""Iberian Rails' own file kinds: ``board``, ``railroads``, ``payouts``, ``characters`` and
``setup`` (``gamedata/iberian_rails/<kind>.yaml``), as strict pydantic models.

Every model forbids unknown keys and is frozen (:class:`ferrovia.schemas.base.Model`). The
cross-file checks (a start hex names a railroad, a selection names characters, the payout
table has a column for every railroad...) are :mod:`ferrovia.games.iberian_rails.validate`'s.
Keyed collections are mappings (railroads and characters by id, hexes by coordinate), so an
overlay (``extends: iberian_rails``) changes one entry by naming it.

``sample:`` in a file (or on a character) says which of its facts are this project's sample
rather than the printed game's: ``ferrovia validate`` prints it with the counts.

>>> Character.model_validate({"name": "Hotelier", "track": {1: 10, 2: 20}}).track[2]
20
"""

from __future__ import annotations

import itertools
from typing import Annotated, Literal

from ferrovia.schemas.base import MapNotEmpty, Model, Money, Name, NotEmpty, PositiveInt
from pydantic import Field, model_validator

HtmlColor = Field(pattern=r"^#[0-9a-fA-F]{6}$|^[a-z]+$")

Sample = Annotated[str | None, Field(default=None, min_length=1)]
"""What in this file is the project's sample and not the printed game's (absent: nothing)."""

HexKind = Literal["plain", "city", "tourism"]


class Players(Model):
    """How many may play."""

    min: Annotated[int, Field(ge=1, le=12)]
    max: Annotated[int, Field(ge=1, le=12)]


class TitleFile(Model):
    """``game.yaml``: what the game is, and the rules that play it."""

    extends: str | None = None
    """A variant's base game (``iberian_rails``): each file here is merged onto the base's."""
    name: Name
    title: Name
    designer: str | None = None
    publisher: str | None = None
    rules_url: str | None = None
    players: Players
    currency: str = Field(default="%d", pattern=r"%d")
    """Money format, e.g. ``'%d pesetas'``."""
    rules: Name
    """The rules that play it (``iberian_rails``)."""
    rule_sections: dict[str, str] = Field(default_factory=dict)
    """Where a rule the engine names stands in the rulebook: ``{occupation fee: 'Build
    Track(s)'}`` makes an illegal action against it name the rule so."""


class BoardHex(Model):
    """One hex of the board: a non-city hex (``plain``, where a hotel may stand), a normal city
    or a tourism city (the gold ones: the hotel bonus counts them)."""

    kind: HexKind = "plain"
    name: str | None = None
    """The place's name (cities; shown on the board)."""
    start: Name | None = None
    """The railroad (a key of railroads.yaml) whose first track stands here at setup."""


class BoardFile(Model):
    """``board.yaml``: the map, hex by hex. Two hexes are neighbours when their coordinates
    are (18xx.games' doubled coordinates, see :mod:`ferrovia.board.hexmap`)."""

    sample: Sample = None
    layout: Literal["flat", "pointy"] = "flat"
    """Hex orientation; on a flat map letters are columns and numbers rows."""
    hexes: Annotated[dict[Name, BoardHex], NotEmpty, MapNotEmpty]
    """Coordinate (``'G8'``) -> the hex. A coordinate not listed is not on the board."""


class Railroad(Model):
    """One railroad company. The order of railroads.yaml is the order they act in each round
    and the order of the opening auctions."""

    name: Name
    color: str = HtmlColor
    """How its tracks, cube and shares are drawn (a CSS colour name or ``#rrggbb``)."""
    payout_column: PositiveInt
    """The column of the payout table its cube stands in (1 = the first)."""
    shares: PositiveInt
    """Shares it has, all in its share reserve at the start."""
    tracks: PositiveInt
    """Track pieces in its colour, the one on its start hex included."""


class RailroadsFile(Model):
    """``railroads.yaml``: the six railroad companies, in colour order."""

    sample: Sample = None
    railroads: Annotated[dict[Name, Railroad], NotEmpty, MapNotEmpty]
    """Id (``yellow``) -> the railroad, in the order they act."""


class PayoutsFile(Model):
    """``payouts.yaml``: what one share pays, by how many cities its railroad connects (the
    row) and the railroad's column."""

    sample: Sample = None
    rows: Annotated[
        tuple[tuple[Money, ...], ...], NotEmpty, Field(json_schema_extra={"minItems": 1})
    ]
    """Row ``k`` (the first is 1) is the value of a share of a railroad connected to ``k``
    cities, one value per column; a railroad connected to more cities than there are rows pays
    the last row."""

    @model_validator(mode="after")
    def _rectangular(self) -> PayoutsFile:
        widths = {len(row) for row in self.rows}
        if len(widths) > 1:
            raise ValueError(f"every row needs as many values; found {sorted(widths)}")
        if 0 in widths:
            raise ValueError("a row needs at least one value")
        return self


Auction = Literal["open", "closed"]
Payee = Literal["ceo", "company", "bank"]


class Effects(Model):
    """A character's special effects, each named and read by the engine. Player effects
    happen after the draft, in character-row order; company effects whenever the holder, as
    CEO, acts for a railroad."""

    build_hotel: PositiveInt | None = None
    """Player: hotels the holder may build this round, each on a non-city hex with no hotel."""
    income: Money = 0
    """Player: the bank pays the holder this much after the draft."""
    levy: Money = 0
    """Player: every other player pays the holder this much (or all they have) after the
    draft."""
    free_share: bool = False
    """Player: the holder may take one share of any railroad's reserve without paying."""
    free_share_spends_marker: bool = False
    """With ``free_share``: only by handing in the holder's Don Quixote marker (once a game)."""
    no_occupation_fee: bool = False
    """Company: the railroad builds on occupied hexes without paying the occupation fee."""
    treasury_bonus: Money = 0
    """Company: the bank pays this much into each railroad the holder directs, as its turn
    begins."""


class Character(Model):
    """One character card: what a railroad whose CEO holds it may do this round, and what the
    holder gets."""

    name: Name
    sample: Sample = None
    track: dict[PositiveInt, Money] = Field(default_factory=dict)
    """Build schedule: number of tracks -> their total price, paid to the bank (``{1: 10, 2:
    20}``). Empty: a railroad whose CEO holds this card cannot build."""
    auctions: tuple[Auction, ...] = ()
    """The auctions a railroad whose CEO holds this card may hold."""
    closed_auction_payee: Payee = "ceo"
    """Who receives a closed auction's price: the CEO (the rulebook's rule), the railroad, or
    the bank. A winner who would pay themself pays the bank."""
    effects: Effects = Effects.model_construct()

    @model_validator(mode="after")
    def _schedule(self) -> Character:
        counts = sorted(self.track)
        if counts and counts != list(range(1, len(counts) + 1)):
            raise ValueError(f"track counts must run 1, 2, ... without a gap; found {counts}")
        prices = [self.track[n] for n in counts]
        if any(b < a for a, b in itertools.pairwise(prices)):
            raise ValueError(f"more tracks cannot cost less: {prices}")
        if len(set(self.auctions)) != len(self.auctions):
            raise ValueError("an auction kind named twice")
        return self


class CharactersFile(Model):
    """``characters.yaml``: every character card."""

    sample: Sample = None
    characters: Annotated[dict[Name, Character], NotEmpty, MapNotEmpty]
    """Id (``hotelier``) -> the card."""


class Selection(Model):
    """Which characters a game of one player count uses."""

    groups: Annotated[tuple[int, ...], NotEmpty]
    """How many characters are drawn from each group (setup.yaml ``character_groups``)."""
    replace: dict[Name, Name] = Field(default_factory=dict)
    """Character -> the one used in its place at this player count."""


class EndRules(Model):
    """When the game ends (after the round in which one of these becomes true)."""

    companies_sold_out: PositiveInt
    """This many railroads with no share left in their reserve."""
    cities_connected: PositiveInt
    """A railroad connected to this many cities."""
    payout_multiplier: PositiveInt
    """Each share a player holds then pays this many times its value."""


class SetupFile(Model):
    """``setup.yaml``: the tables of the rulebook's setup and the fixed numbers of its rules."""

    sample: Sample = None
    starting_cash: Annotated[dict[Annotated[int, Field(ge=1, le=12)], Money], NotEmpty]
    """Each player's pesetas, by number of players (which also says how many may play)."""
    hotels_per_player: Money
    character_groups: Annotated[tuple[tuple[Name, ...], ...], NotEmpty]
    """The groups of the selection table, each a list of character ids."""
    selection: Annotated[dict[Annotated[int, Field(ge=1, le=12)], Selection], NotEmpty]
    """By number of players: how many characters of each group, and replacements."""
    first_chooser: Name
    """The railroad whose CEO chooses a character first in the first round."""
    marker_character: Name | None = None
    """When this character is in the game, each player has a marker (Don Quixote's)."""
    occupation_fee: Money
    """Paid by a railroad to the one already on a hex it builds on."""
    tracks_per_hex: PositiveInt
    """Most tracks on one hex (each of a different railroad)."""
    hotel_bonus: Money
    """Paid by the bank to a hotel's owner per tourism city of the railroad building there."""
    end: EndRules
