"""The bot interface: a program that plays one seat of a game.

A bot is asked for one action at a time.  It sees a :class:`Turn`: the game (immutable rules),
the state (read it, never change it), the seat it plays and the entity acting now (the player
itself, or a company or private railway it directs), and the legal actions, listed only when
the bot asks for them (``turn.legal``): some listings are costly and a bot may know what it
wants without them.  It returns one action; the driver applies it and a refused action stops
the game with the bot named.

A bot is chosen per seat by name.  Bundled: ``random`` and ``greedy``.  Others are found by
entry point (group ``ferrovia.bots``, name -> class) or by import path ``module:Class``.  A bot
class is built as ``cls(seat, seed)``; all its randomness must come from ``seed`` (no global
``random``) so that a game is the same for the same seeds.

>>> from ferrovia.play.bots.base import bot_class  # the installed module, however this is run
>>> bot_class("random").NAME, bot_class("greedy").NAME
('random', 'greedy')
>>> bot_class("ferrovia.play.bots.random_bot:RandomBot").NAME
'random'
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import TYPE_CHECKING, Any, ClassVar

from ferrovia.errors import FerroviaError
from ferrovia.kernel import rng

if TYPE_CHECKING:
    from ferrovia.kernel.actions import Action
    from ferrovia.kernel.step import Step
    from ferrovia.lib18xx.game import Game18xx
    from ferrovia.lib18xx.state import State18xx

ENTRY_POINT_GROUP = "ferrovia.bots"
BUNDLED: dict[str, str] = {
    "random": "ferrovia.play.bots.random_bot:RandomBot",
    "greedy": "ferrovia.play.bots.greedy:GreedyBot",
}


@dataclass
class Turn:
    """What a bot sees when asked to act."""

    game: Game18xx
    state: State18xx
    seat: str  # the player id the bot plays
    entity: str  # who acts now: the player, or a company / private railway it directs
    step: Step | None
    _legal: list[Action] | None = field(default=None, repr=False)

    @property
    def legal(self) -> list[Action]:
        """The acting entity's concrete legal actions (and its companies'), listed once."""
        if self._legal is None:
            self._legal = self.game.legal_actions(self.state)
        return self._legal

    @property
    def step_name(self) -> str:
        return self.step.NAME if self.step is not None else ""


class Bot:
    """Base class of bots: override :meth:`choose`."""

    NAME: ClassVar[str] = ""

    def __init__(self, seat: str, seed: int) -> None:
        self.seat = seat
        self.seed = seed
        # Ferrovia's own generator (a separate stream per seat, never the game's)
        self.rng = rng.seed_value(seed * 7919 + 17 + 104729 * _seat_number(seat))

    def randint(self, n: int) -> int:
        """A number in ``range(n)`` from the bot's own seeded stream."""
        self.rng, value = rng.randint(self.rng, n)
        return value

    def choose(self, turn: Turn) -> Action:
        raise NotImplementedError


def _seat_number(seat: str) -> int:
    return int(seat) if seat.isdigit() else sum(map(ord, seat))


def bot_class(name: str) -> type[Bot]:
    """The bot class a name stands for: bundled, entry point ``ferrovia.bots``, or
    ``module:Class``; an unknown name is a FerroviaError listing the known ones."""
    target = BUNDLED.get(name)
    if target is None:
        for ep in entry_points(group=ENTRY_POINT_GROUP):
            if ep.name == name:
                return _checked(name, ep.load())
    if target is None and ":" in name:
        target = name
    if target is None:
        raise FerroviaError(f"unknown bot {name!r} (known: {', '.join(known_bots())})")
    module, _, attr = target.partition(":")
    try:
        obj: Any = importlib.import_module(module)
        for part in attr.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError) as exc:
        raise FerroviaError(f"bot {name!r}: cannot import {target}: {exc}") from None
    return _checked(name, obj)


def _checked(name: str, obj: Any) -> type[Bot]:
    if not (isinstance(obj, type) and issubclass(obj, Bot)):
        raise FerroviaError(f"bot {name!r} is not a ferrovia.play.bots.base.Bot subclass")
    return obj


def known_bots() -> list[str]:
    """Bundled bots and those registered by entry point."""
    names = set(BUNDLED)
    names.update(ep.name for ep in entry_points(group=ENTRY_POINT_GROUP))
    return sorted(names)


def parse_bots(text: str | None, players: int) -> list[str]:
    """``"greedy,random"`` for ``players`` seats: one name per seat; a single name fills
    every seat.

    >>> parse_bots("greedy", 3), parse_bots(None, 2)
    (['greedy', 'greedy', 'greedy'], ['random', 'random'])
    """
    if not text:
        return ["random"] * players
    names = [n.strip() for n in text.split(",")]
    if any(not n for n in names):
        raise FerroviaError(f"--bots {text!r}: an empty bot name")
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise FerroviaError(f"--bots names {len(names)} bots for {players} players")
    return names
