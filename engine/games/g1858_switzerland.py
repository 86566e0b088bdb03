"""1858 Switzerland: the rules its data cannot say, as hooks on top of 1858's.

Facts (numbers, order of application) agree with 18xx.games (g_1858_switzerland) so recorded
games replay exactly.  The variant's data is gamedata/1858_switzerland (an overlay on 1858).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ferrovia.games.g1858 import Rules1858
from ferrovia.rules.state import GameState

if TYPE_CHECKING:
    from ferrovia.rules.game import Game


class Rules1858Switzerland(Rules1858):
    NAME = "1858_switzerland"

    # -- revenue ----------------------------------------------------------------------------
    BONUS_ZONES: ClassVar[dict[str, tuple[tuple[str, ...], tuple[str, ...], str]]] = {
        "north-south": (("C4", "D3", "E2", "H1", "I2"), ("H15", "I16"), "B15"),
        "east-west": (("L5", "L7"), ("A14", "B7"), "L15"),
    }
    """Bonus -> (off-boards at one end, at the other, hex showing its value by phase)."""

    def route_bonus(
        self, game: Game, state: GameState, corp: str, train: str, stops: list[str]
    ) -> int:
        """A route joining the two ends of a bonus earns the value its bonus hex shows for the
        phase (map.yaml B15, L15), times the train's multiplier (5D: 2) like any stop; a
        wounded train's halving does not apply to it (18xx.games adds it after)."""
        from ferrovia.rules.operating import common

        visited = set(stops)
        colours = list(common.current_phase(game, state).tiles)
        total = 0
        for one, other, shown in self.BONUS_ZONES.values():
            if visited.intersection(one) and visited.intersection(other):
                board = game.definition.hexes[shown].tile
                total += sum(o.revenue.for_phase(colours) for o in board.offboards[:1])
        if total:
            typ, variant = common.face_def(game, state.trains[train].name)
            total *= int((variant or typ).multiplier)
        return total

    # -- mountain railways ------------------------------------------------------------------
    MOUNTAIN_RAILWAYS: ClassVar[dict[str, int]] = {"X28": 60, "X29": 90, "X30": 120}
    """Mountain railway tile -> its cost (instead of the hex's terrain). Its bonus to every
    later run of the company is the revenue printed on the tile (20/30/40, tiles.yaml)."""
    MOUNTAIN_TERRAIN = 120
    """Only white hexes of this terrain cost take a mountain railway."""

    def _mountain_hex(self, game: Game, state: GameState, coord: str) -> bool:
        from ferrovia.rules.operating import board

        old = board.placed(game, state, coord)
        return (
            old.preprinted
            and old.color == "white"
            and any(u.cost == self.MOUNTAIN_TERRAIN for u in old.tile.upgrades)
        )

    def extra_upgrade(self, game: Game, state: GameState, op: str, coord: str, tile: str) -> bool:
        """A public company that has none yet may lay a mountain railway on a white P120
        mountain hex, straight from white to the green tile."""
        if tile not in self.MOUNTAIN_RAILWAYS or op not in state.corporations:
            return False
        if state.corporations[op].data.get("mountain_railway"):
            return False
        return self._mountain_hex(game, state, coord)

    def tile_lay_cost(
        self, game: Game, state: GameState, op: str, coord: str, tile: str, cost: int
    ) -> int:
        """A mountain railway costs its own price, not the hex's terrain (the second-lay fee
        still applies)."""
        if tile not in self.MOUNTAIN_RAILWAYS or not self._mountain_hex(game, state, coord):
            return cost
        return cost - self.MOUNTAIN_TERRAIN + self.MOUNTAIN_RAILWAYS[tile]

    def after_lay_tile(self, game: Game, state: GameState, op: str, coord: str, tile: str) -> None:
        if tile in self.MOUNTAIN_RAILWAYS and op in state.corporations:
            state.corporations[op].data["mountain_railway"] = tile
            state.log.append(f"{op} builds a mountain railway in {coord}")

    def extra_revenue(
        self, game: Game, state: GameState, corp: str, routes: list[dict[str, Any]]
    ) -> int:
        """A company with a mountain railway adds its bonus to every run with a route."""
        tile = state.corporations[corp].data.get("mountain_railway") if routes else None
        if tile is None:
            return 0
        printed = game.definition.tiles[tile].tile.offboards
        return sum(o.revenue.for_phase(["gray"]) for o in printed[:1])

    # -- exchanging a private for a share ----------------------------------------------------
    GAUGE_HOMES: ClassVar[dict[str, dict[str, str]]] = {"H11": {"GB": "broad", "FOB": "metre"}}
    """Gotthard (H11) carries a broad line (GB's) and a metre one (FOB's): a company takes
    over one of them there only by reaching that private's own gauge of track."""

    def private_connected(self, game: Game, state: GameState, corp: str, sym: str) -> bool:
        c = state.corporations[corp]
        if c.closed or not c.floated:
            return False
        homes = set(game.definition.private(sym).home_hexes)
        if any(t.hex in homes for t in c.tokens):
            return True
        from ferrovia.rules.operating import routing

        broad, metre = routing._reaches(game, state, corp)
        for coord in homes:
            gauge = self.GAUGE_HOMES.get(coord, {}).get(sym)
            if gauge is None and coord in self.GAUGE_HOMES:
                continue  # another private's line: not a connection for this one
            nets = [broad] if gauge == "broad" else [metre] if gauge == "metre" else [broad, metre]
            if any(coord in r.run_hexes for r in nets):
                return True
        return False

    # -- private closure rounds -----------------------------------------------------------
    def train_event(self, game: Game, state: GameState, event: str) -> None:
        """``privates_close2`` (first 6E/5M): a second private closure round, for the blue
        privates, after this operating round. ``blue_privates_available`` only announces
        what phases.yaml ``private_batches`` already says."""
        if event == "privates_close2":
            state.data["private_closure_round"] = "next"


RULES = Rules1858Switzerland()
