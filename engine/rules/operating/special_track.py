"""A private's extra tile lay (``tile_lay`` ability, 1830's Champlain & St.Lawrence): while
the company owning it operates, it may lay one of the ability's tiles on one of its hexes,
besides its own lay and without connecting to its track; the company pays any terrain
(18xx.games ``step/special_track.rb``).  The action's entity is the private; the step never
blocks."""

from __future__ import annotations

import dataclasses
from typing import Any

from ferrovia.rules import abilities
from ferrovia.rules.actions import Action, LayTile
from ferrovia.rules.operating import board
from ferrovia.rules.operating.track import TrackStep


class SpecialTrackStep(TrackStep):
    NAME = "special_track"
    DESCRIPTION = "Lay track for a private"

    @classmethod
    def round_data(cls) -> dict[str, Any]:
        return {}

    def setup(self) -> None:
        pass

    def blocks(self) -> bool:
        return False

    def ability(self, sym: str) -> Any:
        s = self.state
        priv = s.privates.get(sym)
        if priv is None or priv.closed or priv.owner not in s.corporations:
            return None
        if s.round.kind != "operating" or s.round.data.get("current_operator") != priv.owner:
            return None
        used = s.data.get("ability_uses", {}).get(sym, 0)
        for ab in abilities.of(self.game, sym, "tile_lay"):
            if abilities.usable(self.game, s, sym, ab) and (ab.count is None or used < ab.count):
                return ab
        return None

    def actions(self, entity: str) -> list[str]:
        return ["lay_tile"] if self.ability(entity) is not None else []

    def process_lay_tile(self, action: Action) -> None:
        assert isinstance(action, LayTile)
        sym = action.entity
        ab = self.ability(sym)
        if ab is None:
            raise self.illegal(action, "private ability", f"{sym} cannot lay track now")
        if ab.hexes and action.hex not in ab.hexes:
            where = ", ".join(ab.hexes)
            raise self.illegal(action, "private ability", f"{sym} lays only on {where}")
        if ab.tiles and board.tile_name(action.tile) not in ab.tiles:
            which = ", ".join(ab.tiles)
            raise self.illegal(action, "private ability", f"{sym} lays only {which}")
        corp = self.state.privates[sym].owner
        lay = dataclasses.replace(action, entity=corp, entity_type="corporation")
        # the blocking of its own hex does not apply to the private's own lay
        cost, _ = self.check_lay(lay, special=True)
        self._pay(lay, corp, cost)
        had_paths = bool(board.placed(self.game, self.state, action.hex).tile.paths)
        board.lay(self.game, self.state, action.hex, action.tile, action.rotation)
        board.lift_tokens_for_choice(self.game, self.state, action.hex, had_paths)
        uses = self.state.data.setdefault("ability_uses", {})
        uses[sym] = int(uses.get(sym, 0)) + 1
        self.log(f"{corp} ({sym}) lays #{action.tile} rotation {action.rotation} on {action.hex}")

    def legal_actions(self, entity: str) -> list[Action]:
        return []
