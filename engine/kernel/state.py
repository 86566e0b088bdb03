"""The mutable state of one game: plain data that serialises to JSON and back exactly.

Everything that changes during a game lives here and nowhere else: the definition never changes
and is not part of the state.  Entities refer to each other by id strings, never by object
reference, so the state is a tree and ``to_json``/``from_json`` are exact inverses (tested).

The kernel's part is what every game has: the players (seating order), the current round, the
seeded random stream, the log and the result.  A rules library or a title adds its own typed
part by subclassing :class:`GameState` (a dataclass: its new fields serialise with the rest)
and naming the class in its rules (``Rules.STATE``); the 18xx library's companies, trains,
market and map are such a part (``ferrovia.lib18xx.state.State18xx``), and a title may subclass
that in turn.  Subclassing keeps every field a plain attribute of the one state object, which
the rules read millions of times in a replay.

A subclass that holds money of other entities than players (companies, a bank) extends
:meth:`GameState.cash_of` and :meth:`GameState.add_cash`, which the ledger
(:mod:`ferrovia.kernel.ledger`) moves money through, and :meth:`GameState.knows`, which the
interpreter checks each action's entity against.

>>> s = GameState(players=[Player("1", "Ana", cash=5)])
>>> GameState.loads(s.dumps()) == s
True
"""

from __future__ import annotations

import dataclasses
import json
import pickle
import types
import typing
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

S = TypeVar("S", bound="GameState")


@dataclass
class Player:
    """A seat at the table.  A rules library whose players hold more (an 18xx player's
    privates) subclasses it and types its state's ``players`` with the subclass."""

    id: str
    name: str
    cash: int = 0


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

    kind: str  # a round kind the rules name (Rules.ROUNDS), e.g. 'stock' or 'operating'
    num: int = 1
    entities: list[str] = field(default_factory=list)
    entity_index: int = 0
    steps: list[StepState] = field(default_factory=list)
    passed: list[str] = field(default_factory=list)  # entities that passed this round
    data: dict[str, Any] = field(default_factory=dict)  # round-level state shared by steps


@dataclass
class GameState:
    """The kernel's state.  ``to_json``/``from_json`` round-trip exactly (of the class they
    are called on: a subclass's fields included)."""

    # a Sequence here so that a subclass may type it with its own Player subclass; a subclass
    # that reorders or appends players types it as a list of them
    players: Sequence[Player] = field(default_factory=list)  # seating/priority order
    turn: int = 1  # the game's turn, counted by the rules' next_round (Rules.MAX_TURNS)
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

    def knows(self, ref: str) -> bool:
        """Whether ``ref`` names an entity of this game that may act (here: a player)."""
        return self.is_player(ref)

    # -- money (through ferrovia.kernel.ledger) ----------------------------------------------
    def cash_of(self, ref: str) -> int:
        return self.player(ref).cash

    def add_cash(self, ref: str, amount: int) -> None:
        """Change ``ref``'s cash by ``amount`` (the ledger's one write; it checks first)."""
        self.player(ref).cash += amount

    def may_overdraw(self, ref: str) -> bool:
        """Whether ``ref`` may pay more than it has (default: nobody may)."""
        return False

    def total_cash(self) -> int:
        """All the money in the game: constant for a whole game (the ledger's invariant)."""
        return sum(p.cash for p in self.players)

    # -- serialisation ---------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def dumps(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True)

    @classmethod
    def from_json(cls: type[S], data: dict[str, Any]) -> S:
        state: S = _decode(cls, data)
        return state

    @classmethod
    def loads(cls: type[S], text: str) -> S:
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
    if origin is list or origin is Sequence:
        return [_decode(args[0], v) for v in value]
    if origin is dict:
        return {k: _decode(args[1], v) for k, v in value.items()}
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in args if a is not type(None)]
        return _decode(inner[0], value) if len(inner) == 1 else value
    return value
