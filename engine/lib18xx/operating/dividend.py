"""Distribute earnings: pay out, pay half or withhold, and the market move.

Pure arithmetic; the step that applies it to a game lives in
:mod:`ferrovia.lib18xx.operating.steps`.

Full payout divides the earnings by the number of shares (5 or 10), rounds down and pays that
per share; the remainder goes to the company.  Half payout halves the earnings first (rounding
down) and the *whole* remainder goes to the company.  Shares in the company's treasury pay the
company, shares in the bank pool pay nobody.

>>> split_earnings(105, 10, "payout")
Payout(per_share=10, retained=5)
>>> split_earnings(105, 10, "half")
Payout(per_share=5, retained=55)
>>> split_earnings(105, 5, "withhold")
Payout(per_share=0, retained=105)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ferrovia.kernel.actions import Action
from ferrovia.kernel.ledger import transfer
from ferrovia.lib18xx import market
from ferrovia.lib18xx.actions import Dividend as DividendAction
from ferrovia.lib18xx.operating import common
from ferrovia.lib18xx.state import BANK, POOL
from ferrovia.lib18xx.step import Step18xx
from ferrovia.lib18xx.stock.shares import share_percent

if TYPE_CHECKING:
    from ferrovia.schemas.market import Movement

KINDS = ("payout", "half", "withhold")


@dataclass(frozen=True)
class Payout:
    """What one dividend decision pays: per share to holders, and what the company keeps."""

    per_share: int
    retained: int


def split_earnings(revenue: int, total_shares: int, kind: str) -> Payout:
    """Split ``revenue`` between the holders of ``total_shares`` shares and the company."""
    if kind not in KINDS:
        raise ValueError(f"unknown dividend kind {kind!r} (expected one of {', '.join(KINDS)})")
    if kind == "withhold":
        return Payout(0, revenue)
    distributable = revenue if kind == "payout" else revenue // 2
    per_share = distributable // total_shares
    return Payout(per_share, revenue - per_share * total_shares)


def market_steps(per_share: int, share_price: int, movement: Movement) -> int:
    """Stock-price move after the dividend (market.yaml ``movement``).

    Nothing paid (withheld, or earnings too small to pay a peseta a share) moves
    ``withheld``; ``dividend_times`` times the dividend per share reaching the share price
    moves ``dividend_at_least_price`` (in 1858 ten times, even for a 5-share company); any
    other dividend moves ``paid``.

    >>> from ferrovia.schemas.market import Movement
    >>> rules = Movement(withheld=-1, dividend_at_least_price=1, dividend_times=10,
    ...                  director_sells=-1, others_sell=0, no_train=-1)
    >>> market_steps(0, 100, rules), market_steps(9, 100, rules), market_steps(10, 100, rules)
    (-1, 0, 1)
    """
    if per_share <= 0:
        return movement.withheld
    if per_share * movement.dividend_times >= share_price:
        return movement.dividend_at_least_price
    return movement.paid


def holder_payments(per_share: int, holdings: Mapping[str, int], *, pool: str) -> dict[str, int]:
    """Cash each holder receives: ``holdings`` maps holder -> number of shares held (a
    director's certificate counts as two).  The bank pool's shares pay nobody.

    >>> holder_payments(7, {"1": 4, "MZA": 1, "pool": 2}, pool="pool")
    {'1': 28, 'MZA': 7}
    """
    return {h: n * per_share for h, n in holdings.items() if h != pool and n and per_share}


# -- the step -----------------------------------------------------------------------------------


class DividendStep(Step18xx):
    NAME = "dividend"
    DESCRIPTION = "Pay or Withhold Dividends"

    def total_revenue(self, corp: str) -> int:
        routes = self.rdata.get("routes") or []
        return (
            sum(int(r["revenue"]) for r in routes)
            + self.game.rules.company_private_revenue(self.game, self.state, corp)
            + self.game.rules.extra_revenue(self.game, self.state, corp, routes)
        )

    def actions(self, entity: str) -> list[str]:
        if entity != self.current_entity() or not common.operating_company(self.state, entity):
            return []
        return ["dividend"] if self.total_revenue(entity) > 0 else []

    def skip(self) -> None:
        ent = self.current_entity()
        if ent is not None and common.operating_company(self.state, ent):
            self.distribute(ent, "withhold")  # zero earnings: the price still moves left
        else:
            self.pass_()

    def process_dividend(self, action: Action) -> None:
        assert isinstance(action, DividendAction)
        if action.kind_ not in self.game.rules.DIVIDEND_KINDS:
            raise self.illegal(
                action, "distribute earnings", f"unknown dividend kind {action.kind_!r}"
            )
        self.distribute(action.entity, action.kind_)

    def distribute(self, op: str, kind: str) -> None:
        game, state = self.game, self.state
        corp = state.corporations[op]
        revenue = self.total_revenue(op)
        corp.data["operating_turns"] = int(corp.data.get("operating_turns", 0)) + 1
        corp.operated = True
        for tid in corp.trains:
            state.trains[tid].operated = True
        self.rdata["routes"] = []
        from ferrovia.lib18xx.stock.shares import full_capitalization

        if full_capitalization(game):
            self._distribute_full(op, kind, revenue)
            return
        split = split_earnings(revenue, common.total_shares(game, corp), kind)
        if split.retained:
            transfer(state, BANK, op, split.retained, f"{op} keeps earnings")
        if split.per_share:
            pays = holder_payments(split.per_share, common.holdings(game, corp), pool=POOL)
            for holder in [p.id for p in state.players] + [op]:
                if holder in pays:
                    transfer(state, BANK, holder, pays[holder], f"{op} dividend")
        price = market.share_price(game, corp)
        self.log(
            f"{op} earns {revenue}: {kind}, {split.per_share} per share, keeps {split.retained}"
        )
        market.move_price(
            game, state, corp, market_steps(split.per_share, price, game.definition.market.movement)
        )
        game.rules.after_dividend(game, state, op)
        self.pass_()

    def _distribute_full(self, op: str, kind: str, revenue: int) -> None:
        """A fully capitalised company (18xx.games' usual rule): a payout gives each holder
        its shares' part of the earnings, rounded up; bank-pool shares pay the company and
        IPO shares nobody; the price moves as ``grid_movement`` says."""
        from ferrovia.lib18xx import market

        game, state = self.game, self.state
        corp = state.corporations[op]
        if kind == "withhold" or revenue <= 0:
            if revenue > 0:
                transfer(state, BANK, op, revenue, f"{op} withholds")
            self.log(f"{op} withholds {revenue}" if revenue else f"{op} does not run")
            paid = False
        else:
            total = common.total_shares(game, corp)
            unit = share_percent(corp)
            counts = common.holdings(game, corp)
            for holder in [p.id for p in state.players] + [POOL]:
                n = counts.get(holder, 0)
                amount = -(-(n * revenue) // total) if n else 0
                if amount:
                    transfer(state, BANK, op if holder == POOL else holder, amount, f"{op} pays")
            self.log(f"{op} pays out {revenue} ({revenue / total:g} per {unit} % share)")
            paid = True
        gm = game.definition.market.grid_movement
        if gm is not None:
            for direction in gm.paid if paid else gm.withheld:
                market.move(game, state, op, direction)
        game.rules.after_dividend(game, state, op)
        self.pass_()

    def legal_actions(self, entity: str) -> list[Action]:
        return [
            DividendAction(entity=entity, entity_type="corporation", kind_=k)
            for k in self.game.rules.DIVIDEND_KINDS
        ]
