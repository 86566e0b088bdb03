"""A company's home station placed when it starts (18xx.games home token timing 'float')."""

from __future__ import annotations

from typing import Any

from ferrovia.kernel.actions import Action, Pass
from ferrovia.kernel.step import Step
from ferrovia.lib18xx import board
from ferrovia.lib18xx.actions import PlaceToken
from ferrovia.lib18xx.step import Step18xx


class HomeToken(Step18xx):
    """A company that just started places its home station (18xx.games home token timing
    'float'): the round waits for its director."""

    NAME = "home_token"

    @classmethod
    def round_data(cls) -> dict[str, Any]:
        return {"pending_tokens": []}

    def pending(self) -> dict[str, Any] | None:
        pend = self.rdata.get("pending_tokens") or []
        return pend[0] if pend else None

    @property
    def active(self) -> bool:
        return self.pending() is not None

    def current_entity(self) -> str | None:
        p = self.pending()
        return p["entity"] if p else None

    def active_entities(self) -> list[str]:
        p = self.pending()
        if not p:
            return []
        d = self.state.corporations[p["entity"]].director
        return [d] if d else [p["entity"]]

    def actions(self, entity: str) -> list[str]:
        p = self.pending()
        if not p or entity != p["entity"]:
            return []
        placed = any(t.hex for t in self.state.corporations[entity].tokens)
        return ["place_token"] if not placed else ["place_token", "pass"]

    def _allowed(self, p: dict[str, Any]) -> list[tuple[str, int]]:
        corp = p["entity"]
        if p.get("cities") is not None:
            cands = [(c[0], c[1]) for c in p["cities"]]
        else:
            cands = [(hx, i) for hx in p["hexes"] for i in range(len(self.state.hexes[hx].tokens))]
        return [(hx, i) for hx, i in cands if board.tokenable(self.state, hx, i, corp)]

    def process_place_token(self, action: PlaceToken) -> None:
        p = self.pending()
        assert p is not None
        corp = p["entity"]
        coord, city = board.resolve_city(self.game, self.state, action.city)
        if (coord, city) not in self._allowed(p):
            raise self.illegal(action, "home station", f"{corp} cannot start in {coord}")
        price = self.game.rules.home_token_cost(self.game, self.state, corp, coord, city)
        board.place_token(self.state, corp, coord, city, price, "home station")
        self.rdata["pending_tokens"].pop(0)
        self.game.rules.after_home_token(self.game, self.state, corp, coord, city)

    def process_pass(self, action: Action) -> None:
        self.rdata["pending_tokens"].pop(0)

    def legal_actions(self, entity: str) -> list[Action]:
        p = self.pending()
        if not p or entity != p["entity"]:
            return []
        out: list[Action] = []
        for hx, i in self._allowed(p):
            price = self.game.rules.home_token_cost(self.game, self.state, entity, hx, i)
            if price <= self.state.corporations[entity].cash:
                out.append(
                    PlaceToken(
                        entity=entity,
                        entity_type="corporation",
                        city=board.city_ref(self.game, self.state, hx, i),
                    )
                )
        if "pass" in self.actions(entity):
            out.append(Pass(entity=entity, entity_type="corporation"))
        return out


def queue_home_token(
    step: Step, corp: str, hexes: list[str], cities: list[list[Any]] | None
) -> None:
    pend = step.rdata.setdefault("pending_tokens", [])
    if any(p["entity"] == corp for p in pend):
        return
    pend.append({"entity": corp, "hexes": hexes, "cities": cities})
