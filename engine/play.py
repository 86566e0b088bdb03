"""A random player: plays a whole game with legal actions only, deterministically from a seed.

The game is set up like an 18xx.games table (players ``1..N``, ``settings.seed`` = the seed);
each turn the acting entity's concrete legal actions are listed (``Game.legal_actions``) and one
is drawn with Ferrovia's seeded generator (18xx.games' LCG, a separate stream from the game's
own).  Actions are weighted (``weight``) so that games progress.  The log written is a
Ferrovia action log (see docs/RULES.md), which ``ferrovia replay`` reads back.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ferrovia.errors import GameError, IllegalAction
from ferrovia.rules import rng
from ferrovia.rules.actions import Action, action_to_json
from ferrovia.rules.game import Game
from ferrovia.rules.state import GameState

LOG_FORMAT = "ferrovia-log/1"


@dataclass
class PlayResult:
    game: Game
    state: GameState
    log: dict[str, Any]
    seconds: float
    actions: list[dict[str, Any]] = field(default_factory=list)


def new_game(
    players: int, seed: int, optional_rules: tuple[str, ...] = (), game: str = "1858"
) -> tuple[Game, GameState]:
    from ferrovia.replay import game_for

    data = export_header(players, seed, optional_rules, game)
    return game_for(data)


def export_header(
    players: int, seed: int, optional_rules: tuple[str, ...] = (), game: str = "1858"
) -> dict[str, Any]:
    # A game directory (e.g. a variant being written) is named by its absolute path, which
    # replay's gamedata/<title> lookup accepts as it is.
    title = str(Path(game).resolve()) if (Path(game) / "game.yaml").is_file() else game
    return {
        "format": LOG_FORMAT,
        "title": title,
        "players": [{"id": i, "name": f"Player {i}"} for i in range(1, players + 1)],
        "settings": {"seed": seed, "optional_rules": list(optional_rules)},
        "actions": [],
    }


def weight(action: Action) -> int:
    """How much more likely than a pass an action is (tenths): the player prefers playing on,
    running its trains and buying, and rarely dumps shares."""
    if action.type == "pass":
        return 10
    if action.type == "run_routes":
        return 40 if getattr(action, "routes", ()) else 2
    if action.type == "sell_shares":
        return 4
    if action.type == "bid":
        return 5
    if action.type == "dividend":
        return {"payout": 40, "half": 10}.get(getattr(action, "kind_", ""), 2)
    return 30


def choose(x: int, actions: list[Action]) -> tuple[int, Action]:
    weights = [weight(a) for a in actions]
    x, r = rng.randint(x, sum(weights))
    for action, w in zip(actions, weights, strict=True):
        if r < w:
            return x, action
        r -= w
    return x, actions[-1]


def play(
    players: int,
    seed: int,
    optional_rules: tuple[str, ...] = (),
    max_actions: int = 20000,
    game_name: str = "1858",
) -> PlayResult:
    t0 = time.perf_counter()
    log = export_header(players, seed, optional_rules, game_name)
    game, state = new_game(players, seed, optional_rules, game_name)
    game.check = True
    x = rng.seed_value(seed * 7919 + 17)
    n = 0
    while not state.finished and n < max_actions:
        legal = game.legal_actions(state)
        if not legal:
            raise IllegalAction(
                f"no legal action for {game.current_entity(state)} "
                f"({state.round.kind} {state.turn}.{state.round.num})",
                rule="random play",
            )
        x, action = choose(x, legal)
        n += 1
        wire = action_to_json(action)
        wire["id"] = n
        from ferrovia.rules.actions import action_from_json

        try:
            game.apply(state, action_from_json(wire, game.action_types))
        except GameError as exc:
            raise IllegalAction(
                f"the random player's legal action was refused: {exc}",
                rule="legal_actions must be legal",
            ) from exc
        log["actions"].append(wire)
    return PlayResult(game, state, log, time.perf_counter() - t0, log["actions"])
