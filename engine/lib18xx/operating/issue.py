"""Redeem and issue stock, the last thing a company may do in its turn.

Issue: treasury shares go to the bank pool at the current price (never past the pool limit),
and the price moves (market.yaml ``movement.issue``); not in the company's first operating
turn.  Redeem: buy back shares from the bank pool at the current price into the treasury
(``movement.redeem``).  One issue or one redemption (of any size) ends the step.
"""

from __future__ import annotations

from ferrovia.kernel.actions import Action, Pass
from ferrovia.kernel.ledger import transfer
from ferrovia.lib18xx import market
from ferrovia.lib18xx.actions import BuyShares, SellShares
from ferrovia.lib18xx.operating import common
from ferrovia.lib18xx.operating.trains import (
    bundle_percent,
    is_bundle_of,
    issuable_bundles,
    issue_shares,
)
from ferrovia.lib18xx.state import BANK, POOL, State18xx
from ferrovia.lib18xx.step import Step18xx
from ferrovia.lib18xx.stock.shares import move_share, share_percent


def redeemable_bundles(step: Step18xx, corp_sym: str) -> list[list[str]]:
    corp = step.state.corporations[corp_sym]
    price = market.share_price(step.game, corp)
    unit = share_percent(corp)
    pool = sorted(common.pool_shares(corp), key=lambda s: (s.president, s.percent))
    out: list[list[str]] = []
    bundle: list[str] = []
    cost = 0
    for sh in pool:
        bundle = [*bundle, sh.id]
        cost += sh.percent // unit * price
        if cost <= corp.cash:
            out.append(bundle)
    return out


def first_operating_turn(state: State18xx, corp_sym: str) -> bool:
    return int(state.corporations[corp_sym].data.get("operating_turns", 0)) <= 1


class IssueSharesStep(Step18xx):
    NAME = "issue_shares"
    DESCRIPTION = "Issue or Redeem Shares"

    def issuable(self, corp: str) -> list[list[str]]:
        if first_operating_turn(self.state, corp):
            return []
        return issuable_bundles(self.game, self.state, corp)

    def actions(self, entity: str) -> list[str]:
        if entity != self.current_entity() or not common.operating_company(self.state, entity):
            return []
        out = []
        if redeemable_bundles(self, entity):
            out.append("buy_shares")
        if self.issuable(entity):
            out.append("sell_shares")
        if out:
            out.append("pass")
        return out

    def process_sell_shares(self, action: Action) -> None:
        assert isinstance(action, SellShares)
        corp = self.state.corporations[action.entity]
        if not is_bundle_of(corp, action.shares, action.entity, self.issuable(action.entity)):
            raise self.illegal(
                action, "issue", f"{action.entity} may not issue {', '.join(action.shares)}"
            )
        total = sum(s.percent for s in corp.shares if s.id in set(action.shares))
        if action.percent and action.percent != total:  # a recorded percent must match
            raise self.illegal(
                action, "bundle", f"a bundle of {total}% cannot be issued as {action.percent}%"
            )
        issue_shares(self.game, self.state, action.entity, list(action.shares))
        self.pass_()

    def process_buy_shares(self, action: Action) -> None:
        assert isinstance(action, BuyShares)
        op = action.entity
        corp = self.state.corporations[op]
        if not is_bundle_of(corp, action.shares, POOL, redeemable_bundles(self, op)):
            raise self.illegal(action, "redeem", f"{op} may not redeem {', '.join(action.shares)}")
        price = market.share_price(self.game, corp)
        unit = share_percent(corp)
        by_id = {s.id: s for s in corp.shares}
        amount = sum(by_id[i].percent // unit for i in action.shares) * price
        transfer(self.state, op, BANK, amount, f"{op} redeems shares")
        for i in action.shares:
            move_share(self.state, by_id[i], op)
        self.log(f"{op} redeems {', '.join(action.shares)} for {amount}")
        market.move_price(self.game, self.state, corp, self.game.definition.market.movement.redeem)
        self.pass_()

    def legal_actions(self, entity: str) -> list[Action]:
        out: list[Action] = [Pass(entity=entity, entity_type="corporation")]
        corp = self.state.corporations[entity]
        for b in redeemable_bundles(self, entity):
            out.append(
                BuyShares(
                    entity=entity,
                    entity_type="corporation",
                    shares=tuple(b),
                    percent=bundle_percent(corp, b),
                )
            )
        for b in self.issuable(entity):
            out.append(
                SellShares(
                    entity=entity,
                    entity_type="corporation",
                    shares=tuple(b),
                    percent=bundle_percent(corp, b),
                )
            )
        return out
