"""The station a ``teleport`` private brings (18xx.games ``step/special_token.rb``; 1830's
Delaware & Hudson): right after its tile lay the company may put its next station marker in
the ability's hex, for nothing and unconnected, or decline.  The round waits for that choice;
the station is the company's one of the turn."""

from __future__ import annotations

from typing import Any

from ferrovia.kernel.actions import Action, Pass
from ferrovia.lib18xx import abilities, board
from ferrovia.lib18xx.actions import PlaceToken
from ferrovia.lib18xx.step import Step18xx


class SpecialTokenStep(Step18xx):
    NAME = "special_token"
    DESCRIPTION = "Place the private's station"

    @classmethod
    def round_data(cls) -> dict[str, Any]:
        return {"teleported": None}

    def skip(self) -> None:
        """Stays for the whole turn: it waits only once a teleport has happened."""

    def active_entities(self) -> list[str]:
        sym = self.rdata.get("teleported")
        return [sym] if sym else []

    def actions(self, entity: str) -> list[str]:
        return ["place_token", "pass"] if entity == self.rdata.get("teleported") else []

    def _hexes(self, sym: str) -> list[str]:
        return [h for ab in abilities.of(self.game, sym, "teleport") for h in ab.hexes]

    def process_place_token(self, action: Action) -> None:
        assert isinstance(action, PlaceToken)
        sym = action.entity
        corp = self.state.privates[sym].owner
        try:
            coord, city = board.city_from_id(self.game, self.state, action.city)
        except KeyError:
            raise self.illegal(action, "private ability", f"no city {action.city}") from None
        if coord not in self._hexes(sym):
            where = ", ".join(self._hexes(sym))
            raise self.illegal(action, "private ability", f"{sym}'s station goes on {where}")
        if any(corp in slots for slots in self.state.hexes[coord].tokens):
            raise self.illegal(action, "private ability", f"{corp} already has a station there")
        board.place_token(self.state, corp, coord, city, 0, f"{sym} station")
        self.rdata["tokened"] = True  # the company's station of the turn
        self.rdata["teleported"] = None
        self.log(f"{corp} ({sym}) places a token on {coord}")

    def process_pass(self, action: Action) -> None:
        self.rdata["teleported"] = None
        self.log(f"{action.entity} declines to place a station")

    def legal_actions(self, entity: str) -> list[Action]:
        out: list[Action] = [Pass(entity=entity, entity_type="company")]
        corp = self.state.privates[entity].owner
        for coord in self._hexes(entity):
            for city in range(len(self.state.hexes[coord].tokens)):
                if board.tokenable(self.state, coord, city, corp):
                    ref = board.city_id(self.game, self.state, coord, city)
                    out.append(PlaceToken(entity=entity, entity_type="company", city=ref))
        return out
