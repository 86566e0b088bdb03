"""Bots play a whole game with legal actions only, deterministically from a seed.

The game is set up like an 18xx.games table (players ``1..N``, ``settings.seed`` = the seed);
each seat is played by a bot (:mod:`ferrovia.play.bots`; default ``random`` everywhere).  The bot
of the player acting now (a company's director, a private's owner) chooses one action; bots
draw from their own seeded streams, never the game's.  The log written is a Ferrovia action log
(see docs/RULES.md) naming the bots, which ``ferrovia replay`` reads back.  An observer (see
:mod:`ferrovia.play.simulate`) may watch every action as it is applied.
"""

from __future__ import annotations

import gc
import json
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from ferrovia.errors import FerroviaError, GameError, IllegalAction
from ferrovia.kernel.actions import Action, action_from_json, action_to_json
from ferrovia.lib18xx.game import Game18xx, as_18xx
from ferrovia.lib18xx.state import State18xx

LOG_FORMAT = "ferrovia-log/1"
FREEZE_EVERY = 50  # actions between two freezes of the collector's generations (see play)


@dataclass
class PlayResult:
    game: Game18xx
    state: State18xx
    log: dict[str, Any]
    seconds: float
    """Wall time of the whole run (setting up and playing)."""
    actions: list[dict[str, Any]] = field(default_factory=list)
    load_seconds: float = 0.0
    """Of which: loading the game definition and setting the table."""


def new_game(
    players: int, seed: int, optional_rules: tuple[str, ...] = (), game: str = "1858"
) -> tuple[Game18xx, State18xx]:
    from ferrovia.play.replay import game_for

    data = export_header(players, seed, optional_rules, game)
    return as_18xx(*game_for(data, game_source(game)[1]))


def game_source(game: str) -> tuple[str, Path | None]:
    """(title, directory) of ``--game``: a game directory gives its own name and itself (a
    bundled one only its name), a bundled game's name gives the name and None."""
    from ferrovia.paths import gamedata_root

    path = Path(game)
    if (path / "game.yaml").is_file():
        if path.resolve().parent == gamedata_root().resolve():
            return path.resolve().name, None
        return path.resolve().name, path
    return game, None


def export_header(
    players: int,
    seed: int,
    optional_rules: tuple[str, ...] = (),
    game: str = "1858",
    log: Path | None = None,
) -> dict[str, Any]:
    """The log's header.  The title is the game's name, never a path; a game directory of
    one's own is recorded as ``game_dir`` relative to the log's directory when it is inside
    it (so the two move together), else replay needs ``--game-dir``."""
    title, directory = game_source(game)
    header: dict[str, Any] = {"format": LOG_FORMAT, "title": title}
    if directory is not None and log is not None:
        rel = Path(os.path.relpath(directory.resolve(), log.resolve().parent))
        if ".." not in rel.parts:
            header["game_dir"] = rel.as_posix()
    header.update(
        {
            "players": [{"id": i, "name": f"Player {i}"} for i in range(1, players + 1)],
            "settings": {"seed": seed, "optional_rules": list(optional_rules)},
            "actions": [],
        }
    )
    return header


class Observer(Protocol):
    def __call__(self, game: Game18xx, state: State18xx, action: Action) -> None: ...


def acting_seat(game: Game18xx, state: State18xx, entity: str) -> str | None:
    """The player who decides for ``entity`` (itself, a company's director, a private's
    owner)."""
    if state.is_player(entity):
        return entity
    from ferrovia.lib18xx.operating.common import director_of

    return director_of(state, entity)


def play(
    players: int,
    seed: int,
    optional_rules: tuple[str, ...] = (),
    max_actions: int = 20000,
    game_name: str = "1858",
    bots: Sequence[str] | None = None,
    observer: Observer | None = None,
    log_path: Path | None = None,
) -> PlayResult:
    """A whole game (or ``max_actions`` of it) with one bot per seat (``bots``: names in seat
    order; default ``random`` everywhere)."""
    from ferrovia.play.bots.base import Turn, bot_class

    t0 = time.perf_counter()
    names = list(bots) if bots else ["random"] * players
    if len(names) != players:
        raise FerroviaError(f"{len(names)} bots for {players} players")
    log = export_header(players, seed, optional_rules, game_name, log_path)
    log["bots"] = {str(p["id"]): name for p, name in zip(log["players"], names, strict=True)}
    game, state = new_game(players, seed, optional_rules, game_name)
    loaded = time.perf_counter() - t0
    game.check = True
    seated = {
        str(p["id"]): bot_class(name)(str(p["id"]), seed)
        for p, name in zip(log["players"], names, strict=True)
    }
    first = next(iter(seated.values()))
    n = 0
    while not state.finished and n < max_actions:
        entity = game.current_entity(state)
        if entity is None:
            raise IllegalAction(
                f"nobody to act ({state.round.kind} {state.turn}.{state.round.num})",
                rule="bot play",
            )
        seat = acting_seat(game, state, entity)
        bot = seated.get(seat or "", first)  # an ownerless entity: the first seat decides
        turn = Turn(game, state, seat or bot.seat, entity, game.active_step(state))
        action = bot.choose(turn)
        n += 1
        wire = action_to_json(action)
        wire["id"] = n
        try:
            game.apply(state, action_from_json(wire, game.action_types))
        except GameError as exc:
            raise IllegalAction(
                f"the {bot.NAME} bot of seat {bot.seat} chose an illegal action "
                f"{json.dumps(wire)[:300]}: {exc}",
                rule="bots must play legal actions",
            ) from exc
        log["actions"].append(wire)
        if observer is not None:
            observer(game, state, action)
        if n % FREEZE_EVERY == 0:
            # A game keeps ever more long-lived objects (definition, track-graph caches), and
            # each full pass of the cyclic collector walks all of them: 100-220 ms in a late
            # game, landing in whatever call runs then.  What has lived this long is set aside
            # (gc.freeze), so a pass walks only what is newer; unfrozen when the game ends.
            gc.freeze()
    if n >= FREEZE_EVERY:
        gc.unfreeze()  # a finished game's own cycles may be collected again
    return PlayResult(game, state, log, time.perf_counter() - t0, log["actions"], loaded)
