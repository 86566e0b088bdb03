"""A private's tile lay (18xx.games ``step/special_track.rb``); the action's entity is the
private, owned by the operating company, which pays any terrain.  The step never blocks.

- ``tile_lay`` (1830's Champlain & St.Lawrence): while the company operates, one of the
  ability's tiles on one of its hexes, besides its own lay and without connecting to its track.
- ``teleport`` (1830's Delaware & Hudson): once, during the company's track step, one of the
  ability's tiles on its hex, unconnected, as the company's lay of the turn; then the company
  may put a station there for nothing (:mod:`ferrovia.lib18xx.operating.special_token`).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ferrovia.errors import IllegalAction
from ferrovia.kernel.actions import Action
from ferrovia.lib18xx import abilities, board
from ferrovia.lib18xx.actions import LayTile
from ferrovia.lib18xx.operating.track import TrackStep


class SpecialTrackStep(TrackStep):
    NAME = "special_track"
    DESCRIPTION = "Lay track for a private"

    @classmethod
    def round_data(cls) -> dict[str, Any]:
        return {"teleported": None}

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
        track = self._track_step()
        for ab in abilities.of(self.game, sym, "teleport"):
            if abilities.usable(self.game, s, sym, ab) and not used and track is not None:
                return ab
        return None

    def _track_step(self) -> TrackStep | None:
        """The company's own track step while it is the one the round waits on with no tile
        laid yet (a teleport is that step's lay)."""
        step = self.game.active_step(self.state)
        if not isinstance(step, TrackStep) or isinstance(step, SpecialTrackStep):
            return None
        return step if int(self.rdata["num_laid_track"]) == 0 else None

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
        track = self._track_step() if ab.type == "teleport" else None
        self._pay(lay, corp, cost)
        had_paths = bool(board.placed(self.game, self.state, action.hex).tile.paths)
        board.lay(self.game, self.state, action.hex, action.tile, action.rotation)
        board.lift_tokens_for_choice(self.game, self.state, action.hex, had_paths)
        uses = self.state.data.setdefault("ability_uses", {})
        uses[sym] = int(uses.get(sym, 0)) + 1
        self.log(f"{corp} ({sym}) lays #{action.tile} rotation {action.rotation} on {action.hex}")
        if track is not None:  # the company's lay of the turn; its station may follow
            track.rdata["num_laid_track"] = 1
            track.rdata["laid_hexes"].append(action.hex)
            track.pass_()
            if any(not t.used for t in self.state.corporations[corp].tokens):
                self.rdata["teleported"] = sym

    def legal_actions(self, entity: str) -> list[Action]:
        """Every lay of the ability's tiles on its hexes the rules allow (first free copy)."""
        ab = self.ability(entity)
        if ab is None:
            return []
        out: list[Action] = []
        for coord in ab.hexes:
            for name in ab.tiles:
                free = self.state.tiles.get(name) or []
                corp = self.state.privates[entity].owner
                for rotation in range(6) if free else ():
                    lay = LayTile(
                        entity=entity,
                        entity_type="company",
                        hex=coord,
                        tile=free[0],
                        rotation=rotation,
                    )
                    try:
                        self.check_lay(
                            dataclasses.replace(lay, entity=corp, entity_type="corporation"),
                            special=True,
                        )
                    except IllegalAction:
                        continue
                    out.append(lay)
        return out
