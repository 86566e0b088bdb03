"""1858 Switzerland: the rules its data cannot say, as hooks on top of 1858's.

Facts (numbers, order of application) agree with 18xx.games (g_1858_switzerland) so recorded
games replay exactly.  The variant's data is gamedata/1858_switzerland (an overlay on 1858).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ferrovia.games.g1858 import Rules1858
from ferrovia.lib18xx.state import State18xx

if TYPE_CHECKING:
    from ferrovia.lib18xx.game import Game18xx


class Rules1858Switzerland(Rules1858):
    NAME = "1858_switzerland"

    # -- revenue ----------------------------------------------------------------------------
    def route_bonus(
        self, game: Game18xx, state: State18xx, corp: str, train: str, stops: list[str]
    ) -> int:
        """A route joining the two ends of a map.yaml ``route_bonuses`` entry earns the value
        its ``value_hex`` shows for the phase (B15, L15), times the train's multiplier (5D: 2)
        like any stop; a wounded train's halving does not apply to it (18xx.games adds it
        after)."""
        from ferrovia.lib18xx.operating import common

        visited = set(stops)
        colours = list(common.current_phase(game, state).tiles)
        total = 0
        for bonus in game.definition.route_bonuses.values():
            if visited.intersection(bonus.one_end) and visited.intersection(bonus.other_end):
                board = game.definition.hexes[bonus.value_hex].tile
                total += sum(o.revenue.for_phase(colours) for o in board.offboards[:1])
        if total:
            typ, variant = common.face_def(game, state.trains[train].name)
            total *= int((variant or typ).multiplier)
        return total

    # -- mountain railways ------------------------------------------------------------------
    def _mountain_lay(self, game: Game18xx, state: State18xx, coord: str, tile: str) -> Any:
        """The tile's tiles.yaml ``special_lay`` if it may go on ``coord`` (a white hex of
        its terrain cost), else None."""
        from ferrovia.lib18xx import board

        td = game.definition.tiles.get(tile)
        special = td.special_lay if td is not None else None
        if special is None:
            return None
        old = board.placed(game, state, coord)
        if not (old.preprinted and old.color == "white"):
            return None
        if not any(u.cost == special.on_terrain for u in old.tile.upgrades):
            return None
        return special

    def extra_upgrade(
        self, game: Game18xx, state: State18xx, op: str, coord: str, tile: str
    ) -> bool:
        """A public company that has none yet may lay a mountain railway on a white P120
        mountain hex, straight from white to the green tile."""
        if op not in state.corporations or state.corporations[op].data.get("mountain_railway"):
            return False
        return self._mountain_lay(game, state, coord, tile) is not None

    def tile_lay_cost(
        self, game: Game18xx, state: State18xx, op: str, coord: str, tile: str, cost: int
    ) -> int:
        """A mountain railway costs its own price, not the hex's terrain (the second-lay fee
        still applies)."""
        special = self._mountain_lay(game, state, coord, tile)
        if special is None:
            return cost
        return cost - special.on_terrain + special.cost

    def after_lay_tile(
        self, game: Game18xx, state: State18xx, op: str, coord: str, tile: str
    ) -> None:
        td = game.definition.tiles.get(tile)
        if td is not None and td.special_lay is not None and op in state.corporations:
            state.corporations[op].data["mountain_railway"] = tile
            state.log.append(f"{op} builds a mountain railway in {coord}")

    def extra_revenue(
        self, game: Game18xx, state: State18xx, corp: str, routes: list[dict[str, Any]]
    ) -> int:
        """A company with a mountain railway adds its bonus to every run with a route."""
        tile = state.corporations[corp].data.get("mountain_railway") if routes else None
        if tile is None:
            return 0
        printed = game.definition.tiles[tile].tile.offboards
        return sum(o.revenue.for_phase(["gray"]) for o in printed[:1])

    # -- exchanging a private for a share ----------------------------------------------------
    def private_connected(self, game: Game18xx, state: State18xx, corp: str, sym: str) -> bool:
        c = state.corporations[corp]
        if c.closed or not c.floated:
            return False
        homes = set(game.definition.private(sym).home_hexes)
        if any(t.hex in homes for t in c.tokens):
            return True
        from ferrovia.lib18xx.operating import routing

        broad, metre = routing._reaches(game, state, corp)
        own = game.definition.private(sym).home_gauges
        shared = {c for p in game.definition.privates if p.symbol != sym for c in p.home_gauges}
        for coord in homes:
            gauge = own.get(coord)
            if gauge is None and coord in shared:
                continue  # another private's line (privates.yaml home_gauges): not this one's
            nets = [broad] if gauge == "broad" else [metre] if gauge == "metre" else [broad, metre]
            if any(coord in r.run_hexes for r in nets):
                return True
        return False

    # -- private closure rounds -----------------------------------------------------------
    def train_event(self, game: Game18xx, state: State18xx, event: str) -> None:
        """``privates_close2`` (first 6E/5M): a second private closure round, for the blue
        privates, after this operating round. ``blue_privates_available`` only announces
        what phases.yaml ``private_batches`` already says."""
        if event == "privates_close2":
            state.data["private_closure_round"] = "next"
        else:
            super().train_event(game, state, event)


RULES = Rules1858Switzerland()
