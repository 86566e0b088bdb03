"""The mutable state of one game: plain data that serialises to JSON and back exactly.

Everything that changes during a game lives here and nowhere else: the definition (map, trains,
market...) never changes and is not part of the state.  Entities refer to each other by id
strings, never by object reference, so the state is a tree and ``to_json``/``from_json`` are
exact inverses (tested).

Entity references ("refs") are strings: a player's id (``"1169"``), a public company's symbol
(``"MZA"``), a private's symbol (``"B&M"``; in 1858 the private railway is also a minor company
with the same symbol), ``"bank"``, ``"pool"`` (the bank pool, a share holder) or ``"depot"``
(a train holder).  Ids are unique across kinds (checked at setup).
"""

from __future__ import annotations

import dataclasses
import json
import pickle
import types
import typing
from dataclasses import dataclass, field
from typing import Any

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
class Player:
    id: str
    name: str
    cash: int = 0
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
    """A private company; in 1858 also a minor railway that operates (lays track)."""

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
    obsolete: bool = False  # 1858: wounded trains run at half revenue
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
class StepState:
    """The per-round state of one step (its Python class is stateless)."""

    name: str
    passed: bool = False
    acted: bool = False
    data: dict[str, Any] = field(default_factory=dict)


@dataclass
class RoundState:
    """The current round: which kind, its entities in order, whose turn, its steps."""

    kind: str  # 'stock', 'operating', 'closure' ... (a key of ferrovia.kernel.rounds.ROUNDS)
    num: int = 1
    entities: list[str] = field(default_factory=list)
    entity_index: int = 0
    steps: list[StepState] = field(default_factory=list)
    passed: list[str] = field(default_factory=list)  # entities that passed this round
    data: dict[str, Any] = field(default_factory=dict)  # round-level state shared by steps


@dataclass
class GameState:
    """The whole mutable state.  ``to_json``/``from_json`` round-trip exactly."""

    players: list[Player] = field(default_factory=list)  # current seating/priority order
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
    turn: int = 1
    operating_rounds: int = 1  # ORs in the current set
    round: RoundState = field(default_factory=lambda: RoundState(kind="none"))
    rng: int = 0
    actions: int = 0  # actions applied so far
    last_action_id: int = 0
    finished: bool = False
    game_end_reason: str | None = None
    data: dict[str, Any] = field(default_factory=dict)  # rule-hook specific game-wide flags
    log: list[str] = field(default_factory=list)

    # -- lookups ---------------------------------------------------------------------------
    def player(self, ref: str) -> Player:
        for p in self.players:
            if p.id == ref:
                return p
        raise KeyError(ref)

    def is_player(self, ref: str) -> bool:
        return any(p.id == ref for p in self.players)

    def cash_of(self, ref: str) -> int:
        if ref == BANK:
            return self.bank_cash
        if ref in self.corporations:
            return self.corporations[ref].cash
        if ref in self.privates:
            return self.privates[ref].cash
        return self.player(ref).cash

    def total_cash(self) -> int:
        """Bank + players + companies: constant for a whole game (the ledger invariant)."""
        return (
            self.bank_cash
            + sum(p.cash for p in self.players)
            + sum(c.cash for c in self.corporations.values())
            + sum(m.cash for m in self.privates.values())
        )

    # -- serialisation ---------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def dumps(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        state: GameState = _decode(cls, data)
        return state

    @classmethod
    def loads(cls, text: str) -> GameState:
        return cls.from_json(json.loads(text))

    # -- transactions ----------------------------------------------------------------------
    def snapshot(self) -> bytes:
        """A cheap exact copy (pickle) to roll back to if an action fails half-way."""
        return pickle.dumps(self.__dict__, protocol=pickle.HIGHEST_PROTOCOL)

    def restore(self, snap: bytes) -> None:
        """Back to the snapshot.  The state object stays the same; the objects inside it are
        new ones, so references kept to its players, companies... must be looked up again."""
        self.__dict__.clear()
        self.__dict__.update(pickle.loads(snap))


_HINTS: dict[type, dict[str, Any]] = {}


def _decode(tp: Any, value: Any) -> Any:
    """Rebuild a value of (annotated) type ``tp`` from its JSON form."""
    if value is None:
        return None
    if dataclasses.is_dataclass(tp) and isinstance(tp, type):
        hints = _HINTS.get(tp)
        if hints is None:
            hints = typing.get_type_hints(tp)
            _HINTS[tp] = hints
        return tp(**{f.name: _decode(hints[f.name], value[f.name]) for f in dataclasses.fields(tp)})
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin is list:
        return [_decode(args[0], v) for v in value]
    if origin is dict:
        return {k: _decode(args[1], v) for k, v in value.items()}
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        return _decode(inner[0], value) if len(inner) == 1 else value
    return value
