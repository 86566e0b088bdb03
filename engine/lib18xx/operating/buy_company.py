"""A company buys a private from a player (18xx.games ``step/buy_company.rb``).

While the phase says ``can_buy_companies``, the operating company may buy any player-owned
private (not one with ``no_buy``) for between half its face value (rounded up) and twice it.
Two steps: ``buy_company`` may be taken at any point of the turn (it never blocks), and
``buy_company_end`` waits at the end of the turn for a purchase or a pass.
"""

from __future__ import annotations

from typing import Any

from ferrovia.kernel.actions import Action, Pass
from ferrovia.kernel.ledger import transfer
from ferrovia.lib18xx import abilities
from ferrovia.lib18xx.actions import BuyCompany
from ferrovia.lib18xx.step import Step18xx


def price_range(face_value: int) -> tuple[int, int]:
    """Lowest and highest price a company may pay for a private of this face value.

    >>> price_range(45)
    (23, 90)
    """
    return -(-face_value // 2), face_value * 2


class BuyCompanyStep(Step18xx):
    NAME = "buy_company"
    DESCRIPTION = "Buy Companies"
    BLOCKS = False

    def blocks(self) -> bool:
        return self.BLOCKS

    def purchasable(self, corp: str) -> list[str]:
        g, s = self.game, self.state
        return [
            m.sym
            for m in s.privates.values()
            if not m.closed and s.is_player(m.owner) and not abilities.has(g, m.sym, "no_buy")
        ]

    def can_buy(self, entity: str) -> bool:
        s = self.state
        if entity != self.current_entity() or entity not in s.corporations:
            return False
        if "can_buy_companies" not in self.game.definition.phase(s.phase).status:
            return False
        privs = self.purchasable(entity)
        cash = s.corporations[entity].cash
        return (
            bool(privs)
            and min(price_range(self.game.definition.private(p).face_value)[0] for p in privs)
            <= cash
        )

    def actions(self, entity: str) -> list[str]:
        if not self.can_buy(entity):
            return []
        return ["buy_company", "pass"] if self.BLOCKS else ["buy_company"]

    def process_buy_company(self, action: Action) -> None:
        assert isinstance(action, BuyCompany)
        s, corp, sym = self.state, action.entity, action.company
        if sym not in self.purchasable(corp):
            raise self.illegal(action, "buy company", f"{sym} cannot be bought")
        low, high = price_range(self.game.definition.private(sym).face_value)
        if not low <= action.price <= high:
            raise self.illegal(action, "buy company", f"the price must be {low} to {high}")
        if action.price > s.corporations[corp].cash:
            raise self.illegal(
                action, "buy company", f"{corp} has only {s.corporations[corp].cash}"
            )
        owner = s.privates[sym].owner
        transfer(s, corp, owner, action.price, f"{corp} buys {sym}")
        s.player(owner).companies.remove(sym)
        s.corporations[corp].companies.append(sym)
        s.privates[sym].owner = corp
        self.log(f"{corp} buys {sym} from {owner} for {action.price}")

    def legal_actions(self, entity: str) -> list[Action]:
        out: list[Action] = []
        if not self.can_buy(entity):
            return out
        cash = self.state.corporations[entity].cash
        for sym in self.purchasable(entity):
            low, high = price_range(self.game.definition.private(sym).face_value)
            for price in {low, min(high, cash)}:
                if low <= price <= cash:
                    out.append(
                        BuyCompany(
                            entity=entity, entity_type="corporation", company=sym, price=price
                        )
                    )
        if self.BLOCKS:
            out.append(Pass(entity=entity, entity_type="corporation"))
        return out


class BuyCompanyEndStep(BuyCompanyStep):
    """At the end of its turn a company may still buy a private; one that owns a private with
    an ability it may still use now (``when`` given, uses left) waits for a pass too
    (18xx.games offers ``pass`` while the company has such an ability)."""

    NAME = "buy_company_end"
    BLOCKS = True

    def actions(self, entity: str) -> list[str]:
        acts = super().actions(entity)
        if acts or entity != self.current_entity() or entity not in self.state.corporations:
            return acts
        uses = self.state.data.get("ability_uses", {})
        for sym in self.state.corporations[entity].companies:
            for ab in self.game.definition.private(sym).abilities:
                if ab.when is None or ab.type != "tile_lay":
                    continue
                if abilities.usable(self.game, self.state, sym, ab) and (
                    ab.count is None or uses.get(sym, 0) < ab.count
                ):
                    return ["pass"]
        return []

    def legal_actions(self, entity: str) -> list[Action]:
        out = super().legal_actions(entity)
        if not out and self.actions(entity) == ["pass"]:
            out.append(Pass(entity=entity, entity_type="corporation"))
        return out

    @classmethod
    def round_data(cls) -> dict[str, Any]:
        return {}
