"""The 18xx library's part of the game state: public companies and their certificates,
privates (and the minors some of them are), trains, the map as it stands, the tile supply, the
stock market, the bank and the phase.

:class:`State18xx` extends the kernel's :class:`~ferrovia.kernel.state.GameState` (players,
round, random stream, log, result) with these fields, so the rules read them as plain
attributes (``state.corporations``); ``Rules18xx.STATE`` names it, and a title may subclass it
to add its own typed fields.

Entity references ("refs") are strings: a player's id (``"1169"``), a public company's symbol
(``"MZA"``), a private's symbol (``"B&M"``; a private railway that operates as a minor company
has the same symbol), ``"bank"``, ``"pool"`` (the bank pool, a share holder) or ``"depot"``
(a train holder).  Ids are unique across kinds (checked at setup).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ferrovia.kernel.state import GameState, Player

BANK = "bank"
POOL = "pool"
DEPOT = "depot"


@dataclass
class Share:
    """One share certificate; ``id`` is how 18xx.games names it (``"MZA_0"``, 0 = director's)."""

    corp: str
    index: int
    percent: int
    president: bool
    owner: str  # player id, the corporation's own symbol (its treasury) or POOL
    seq: int = 0  # arrival order at its holder (18xx.games keeps each holder's list in order)

    @property
    def id(self) -> str:
        return f"{self.corp}_{self.index}"


@dataclass
class Token:
    """A station marker of a public company: on the charter (``hex`` None) or on the map."""

    price: int
    hex: str | None = None
    city: int | None = None  # index of the city on the hex's current tile

    @property
    def used(self) -> bool:
        return self.hex is not None


@dataclass
class Player18xx(Player):
    """A player of an 18xx: cash and the privates they own."""

    companies: list[str] = field(default_factory=list)  # privates owned, in purchase order


@dataclass
class Corporation:
    """A public company (18xx.games: corporation)."""

    sym: str
    kind: str = "5-share"  # '5-share' or '10-share'
    cash: int = 0
    par_price: int | None = None
    market: list[int] | None = None  # [row, column] of its stock-market marker
    shares: list[Share] = field(default_factory=list)
    trains: list[str] = field(default_factory=list)  # train ids, in acquisition order
    tokens: list[Token] = field(default_factory=list)
    companies: list[str] = field(default_factory=list)  # privates it owns
    director: str | None = None  # player id of the director (18xx.games: owner/president)
    ipoed: bool = False
    floated: bool = False
    operated: bool = False
    closed: bool = False
    float_percent: int = 0  # companies.yaml float_percent, set when the company is made
    data: dict[str, Any] = field(default_factory=dict)  # rule-hook specific flags


@dataclass
class Private:
    """A private company; one whose privates.yaml entry says ``minor`` is also a minor
    railway that floats when bought and operates (``floated``, ``operated``, ``cash``,
    ``trains``)."""

    sym: str
    owner: str = BANK  # BANK, a player id or a corporation symbol
    closed: bool = False
    floated: bool = False  # a minor floats when a player buys it
    operated: bool = False
    cash: int = 0
    trains: list[str] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class Train:
    """One physical train; ``id`` as 18xx.games names it (``"2H-0"``)."""

    id: str
    name: str  # current variant in use, e.g. '2H' or '1M'
    owner: str = DEPOT  # DEPOT, a corporation/minor symbol, or POOL (discarded to the bank)
    variant: str | None = None  # chosen variant when bought (None: not yet chosen)
    operated: bool = False
    obsolete: bool = False  # wounded (trains.yaml obsolete_on and ``wounded`` rules)
    rusted: bool = False


@dataclass
class Hex:
    """What is on one map hex now."""

    coord: str
    tile: str  # tile instance id: '57-1', or '<coord>-0' for the preprinted tile
    rotation: int = 0
    tokens: list[list[str | None]] = field(default_factory=list)  # per city, per slot
    reservations: list[list[str | None]] = field(default_factory=list)  # per city, per slot

    def __setattr__(self, name: str, value: Any) -> None:
        # a changed tile or rotation changes the track graph: count it, so a cached graph
        # is known to be still right without comparing the whole map (routing.track_graph)
        if name in _MAP_FIELDS:
            global map_edits
            map_edits += 1
            _edited.append(self.coord)  # (set first by __init__)
            if len(_edited) > _EDITED_MAX:
                del _edited[: _EDITED_MAX // 2]
        elif name == "tokens":
            # the map's per-hex token lists change only so: counted, so routing.token_map's
            # map of them is known to be still right
            global token_lists
            token_lists += 1
            # (getattr, not self.__dict__: touching an object's __dict__ makes it a real dict,
            # and every attribute read of that Hex then takes CPython's slow path, ~2x)
            if bool(value) != bool(getattr(self, "tokens", None)):
                # which hexes have city spaces changes only so: counted, so the list of them
                # is known to be still right (routing.token_map)
                global token_edits
                token_edits += 1
        object.__setattr__(self, name, value)


_MAP_FIELDS = frozenset({"tile", "rotation"})

#: tile or rotation assignments to any :class:`Hex` so far (a map changes by no other way;
#: a restored snapshot brings new Hex objects and a new ``hexes`` dict)
map_edits = 0

#: ``tokens`` assignments to any :class:`Hex` so far that gave a hex city spaces or took
#: them away (the per-city lists are changed in place; a hex gains or loses them only by an
#: assignment, or in a restored snapshot, which brings a new ``hexes`` dict)
token_edits = 0

#: ``tokens`` assignments to any :class:`Hex` so far (each gives a hex new per-city lists;
#: the lists themselves are changed in place)
token_lists = 0

#: the hexes of the last assignments counted by ``map_edits`` (of any state's Hex), oldest
#: first: what the track graph's signature is brought up to date from
_edited: list[str] = []
_EDITED_MAX = 4096


def edited_since(edits: int) -> list[str] | None:
    """The coordinates of the Hex tile/rotation assignments made since ``map_edits`` was
    ``edits`` (those of any state: a superset of one state's), or None when that is too long
    ago to know."""
    n = map_edits - edits
    if n < 0 or n > len(_edited):
        return None
    return _edited[len(_edited) - n :] if n else []


@dataclass
class State18xx(GameState):
    """The state of an 18xx game.  ``to_json``/``from_json`` round-trip exactly."""

    players: list[Player18xx] = field(default_factory=list)  # seating/priority order
    corporations: dict[str, Corporation] = field(default_factory=dict)
    privates: dict[str, Private] = field(default_factory=dict)
    trains: dict[str, Train] = field(default_factory=dict)
    depot: list[str] = field(default_factory=list)  # train ids still for sale, in order
    hexes: dict[str, Hex] = field(default_factory=dict)
    tiles: dict[str, list[str]] = field(default_factory=dict)  # tile name -> free instance ids
    market: dict[str, list[str]] = field(default_factory=dict)  # "row,col" -> corps, arrival order
    bank_cash: int = 0
    bank_broken: bool = False
    phase: str = ""
    operating_rounds: int = 1  # ORs in the current set

    # -- lookups ---------------------------------------------------------------------------
    def player(self, ref: str) -> Player18xx:
        for p in self.players:
            if p.id == ref:
                return p
        raise KeyError(ref)

    def knows(self, ref: str) -> bool:
        return ref in self.corporations or ref in self.privates or self.is_player(ref)

    # -- money -----------------------------------------------------------------------------
    def cash_of(self, ref: str) -> int:
        if ref == BANK:
            return self.bank_cash
        if ref in self.corporations:
            return self.corporations[ref].cash
        if ref in self.privates:
            return self.privates[ref].cash
        return self.player(ref).cash

    def add_cash(self, ref: str, amount: int) -> None:
        if ref == BANK:
            if self.bank_cash + amount < 0:
                self.bank_broken = True  # the game-end trigger of most 18xx games
            self.bank_cash += amount
        elif ref in self.corporations:
            self.corporations[ref].cash += amount
        elif ref in self.privates:
            self.privates[ref].cash += amount
        else:
            self.player(ref).cash += amount

    def may_overdraw(self, ref: str) -> bool:
        """Only the bank may go below zero: it breaks."""
        return ref == BANK

    def total_cash(self) -> int:
        """Bank + players + companies: constant for a whole game (the ledger invariant)."""
        return (
            self.bank_cash
            + sum(p.cash for p in self.players)
            + sum(c.cash for c in self.corporations.values())
            + sum(m.cash for m in self.privates.values())
        )
