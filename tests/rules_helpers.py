"""Helpers for hand-written rule scenarios: a table of N players and terse actions."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from ferrovia.data.definition import GameDefinition, load_game
from ferrovia.games import get_rules
from ferrovia.lib18xx.actions import action_from_json
from ferrovia.lib18xx.game import Game18xx
from ferrovia.lib18xx.state import State18xx
from ferrovia.paths import gamedata_root


@lru_cache(maxsize=1)
def definition() -> GameDefinition:
    return load_game(gamedata_root() / "1858")


class Table:
    """``Table(4)``: players '1'..'4' (Player 1 has priority), seed 1."""

    def __init__(self, players: int = 4, seed: int = 1, options: tuple[str, ...] = ()) -> None:
        defn = definition()
        self.game = Game18xx(defn, get_rules(defn.rules), players, options)
        self.state: State18xx = self.game.new_state(
            [(str(i), f"Player {i}") for i in range(1, players + 1)], seed
        )
        self.n = 0

    def wire(self, entity: str, kind: str, /, **fields: Any) -> dict[str, Any]:
        s = self.state
        if s.is_player(entity):
            et = "player"
        elif entity in s.corporations:
            et = "corporation"
        else:
            et = fields.pop("entity_type", "minor")
        self.n += 1
        return {"type": kind, "entity": entity, "entity_type": et, "id": self.n, **fields}

    def act(self, entity: str, kind: str, /, **fields: Any) -> None:
        self.game.apply(self.state, action_from_json(self.wire(entity, kind, **fields)))

    def cash(self, ref: str) -> int:
        return self.state.cash_of(ref)

    @property
    def acting(self) -> str | None:
        return self.game.current_entity(self.state)

    def pass_until(self, predicate: Any, limit: int = 200) -> None:
        """Everyone passes until ``predicate(state)`` holds."""
        for _ in range(limit):
            if predicate(self.state):
                return
            ent = self.acting
            assert ent is not None
            self.act(ent, "pass")
        raise AssertionError("predicate never held")
