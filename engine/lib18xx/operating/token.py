"""Place a station marker: one a turn, in a free city space the company's network reaches, at
the price the game's ``station_cost`` hook names (the usual one: the marker's printed price).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ferrovia.kernel.actions import Action, Pass
from ferrovia.kernel.ledger import transfer
from ferrovia.lib18xx import board
from ferrovia.lib18xx.actions import PlaceToken
from ferrovia.lib18xx.operating import common, routing
from ferrovia.lib18xx.state import BANK
from ferrovia.lib18xx.step import Step18xx

if TYPE_CHECKING:
    pass


class TokenStep(Step18xx):
    """Place one station marker on a free city space the company's network reaches."""

    NAME = "token"
    DESCRIPTION = "Place a Token"

    @classmethod
    def round_data(cls) -> dict[str, Any]:
        return {"tokened": False}

    def setup(self) -> None:
        self.rdata["tokened"] = False

    def actions(self, entity: str) -> list[str]:
        if entity != self.current_entity() or not common.operating_company(self.state, entity):
            return []
        if self.rdata.get("tokened"):
            return []
        corp = self.state.corporations[entity]
        if not any(not t.used for t in corp.tokens):
            return []
        if not self.game.rules.TOKEN_PASS_WITHOUT_ROOM and len(self.legal_actions(entity)) < 2:
            return []  # the usual rule: only when a reached city has room it can pay for
        return ["place_token", "pass"]

    def process_place_token(self, action: Action) -> None:
        assert isinstance(action, PlaceToken)
        game, state, op = self.game, self.state, action.entity
        corp = state.corporations[op]
        try:
            coord, ci = board.city_from_id(game, state, action.city)
        except KeyError as exc:  # its message, not str(exc), which would quote it
            why = str(exc.args[0]) if exc.args else action.city
            raise self.illegal(action, "station markers", why) from None
        h = state.hexes[coord]
        slots = h.tokens[ci]
        if any(op in s for s in h.tokens):
            raise self.illegal(action, "station markers", f"{op} already has a station on {coord}")
        if not routing.reaches_city(game, state, op, coord, ci):
            raise self.illegal(
                action, "station markers", f"{action.city} is not on a route of {op}"
            )
        res = h.reservations[ci] if ci < len(h.reservations) else []
        slot = board.token_slot(state, slots, list(res), op)
        if slot is None:
            raise self.illegal(
                action, "station markers", f"no free space in {action.city} for {op}"
            )
        cost = game.rules.station_cost(game, state, op, coord)
        if action.cost is not None and action.cost != cost:
            raise self.illegal(
                action,
                "station cost",
                f"a station on {coord} costs {op} {cost}, not {action.cost}",
            )
        if corp.cash < cost:
            raise self.illegal(action, "station cost", f"{op} has {corp.cash}, needs {cost}")
        token = next(t for t in corp.tokens if not t.used)
        transfer(state, op, BANK, cost, f"station on {coord}")
        token.hex, token.city, token.price = coord, ci, cost
        # again on the real reservations now that the action stands (it may swap two holds)
        board.token_slot(state, slots, res, op)
        slots[slot] = op
        self.rdata["tokened"] = True
        self.log(f"{op} places a token on {coord} for {game.definition.format_money(cost)}")
        self.pass_()

    def legal_actions(self, entity: str) -> list[Action]:
        """``pass`` and a station in every reached city with a space the company can pay."""
        game, state = self.game, self.state
        out: list[Action] = [Pass(entity=entity, entity_type="corporation")]
        corp = state.corporations[entity]
        graph = routing.track_graph(game, state)
        for coord in sorted(routing.reached_hexes(game, state, entity)):
            h = state.hexes.get(coord)
            if h is None or any(entity in s for s in h.tokens):
                continue
            for ci, slots in enumerate(h.tokens):
                res = h.reservations[ci] if ci < len(h.reservations) else []
                if graph.city(coord, ci) is None or not routing.reaches_city(
                    game, state, entity, coord, ci
                ):
                    continue
                if board.token_slot(state, slots, list(res), entity) is None:
                    continue
                cost = game.rules.station_cost(game, state, entity, coord)
                if cost <= corp.cash:
                    out.append(
                        PlaceToken(
                            entity=entity,
                            entity_type="corporation",
                            city=board.city_id(game, state, coord, ci),
                            cost=cost,
                        )
                    )
        return out
