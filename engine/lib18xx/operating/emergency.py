"""A company that must buy a train and cannot pay for one: its president's emergency money,
and bankruptcy (18xx.games ``step/buy_train.rb`` with ``emergency_money.rb``, and
``step/bankrupt.rb``; the usual rules, 1830's).

- A trainless company must buy a train while the bank has one.  If its treasury cannot pay
  for the cheapest, the president adds the difference and may sell shares to raise it: only as
  many as are needed (a bundle one share smaller must fall short), none that would pass the
  presidency of the company buying the train, and within the usual sale rules (bank-pool
  room, a president's certificate only to someone who can take it over).
- If even that cannot pay for a train the company declares ``bankrupt``: its president sells
  every share they can (largest bundle first, company by company in operating order), their
  remaining cash goes to the bank, and they are bankrupt (which ends the game where the
  title's ``game_end_check`` hook says a bankruptcy does).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ferrovia.kernel.actions import Action
from ferrovia.kernel.ledger import transfer
from ferrovia.lib18xx.actions import Bankrupt, BuyTrain, SellShares
from ferrovia.lib18xx.operating import common
from ferrovia.lib18xx.operating.trains import (
    BuyTrainStep,
    bank_train_prices,
    depot_offer,
    min_depot_price,
)
from ferrovia.lib18xx.state import BANK, State18xx
from ferrovia.lib18xx.step import Step18xx
from ferrovia.lib18xx.stock import shares as sh

if TYPE_CHECKING:
    from ferrovia.lib18xx.game import Game18xx


def must_buy(game: Game18xx, state: State18xx, corp: str) -> bool:
    """The company has no train, the bank has one for sale, and it has a route for one (two
    stops from one of its stations: 18xx.games ``route_train_purchase``)."""
    from ferrovia.lib18xx.operating import routing

    c = state.corporations.get(corp)
    if c is None or common.engines(game, state, corp) or not depot_offer(game, state):
        return False
    return routing.has_route(game, state, corp)


def needs_president(game: Game18xx, state: State18xx, corp: str) -> bool:
    return must_buy(game, state, corp) and state.corporations[corp].cash < min_depot_price(
        game, state
    )


def can_sell(game: Game18xx, state: State18xx, player: str, corp: str, bundle: sh.Bundle) -> bool:
    """Whether the president of ``corp`` may sell ``bundle`` for its train now."""
    c = state.corporations[bundle.corp]
    if bundle.owner != player or c.market is None:
        return False
    if not sh.can_dump(state, player, bundle) or not sh.fits_in_pool(game, state, bundle):
        return False
    if bundle.corp == corp and c.director == player:
        others = [p for q, p in sh.player_holders(state, c).items() if q != player]
        if sh.percent_of(c, player) - bundle.percent < max(others, default=0):
            return False  # it would pass the presidency of the company buying the train
    price = sh.bundle_price(game, state, bundle)
    smallest = min(
        sh.bundle_price(game, state, sh.Bundle(bundle.corp, [s], s.percent)) for s in bundle.shares
    )
    short = min_depot_price(game, state) - state.cash_of(player) - state.corporations[corp].cash
    return price - smallest < short


def sellable(game: Game18xx, state: State18xx, player: str, corp: str) -> list[sh.Bundle]:
    out: list[sh.Bundle] = []
    corps = [c for c in state.corporations.values() if not c.closed]
    for c in game.sorted_by_price(state, corps):
        out.extend(
            b for b in sh.bundles_for(state, c, player) if can_sell(game, state, player, corp, b)
        )
    return out


def reorder(game: Game18xx, state: State18xx) -> None:
    """Companies yet to operate this round go in their new price order (18xx.games
    ``recalculate_order`` after a sale)."""
    from ferrovia.lib18xx.rounds import OperatingRound

    rnd = game.round(state)
    if isinstance(rnd, OperatingRound):
        rnd.recalculate_order()


class EmergencyBuyTrainStep(BuyTrainStep):
    """:class:`BuyTrainStep` with the usual must-buy rule and the president's emergency
    money."""

    def _president_turn(self, entity: str) -> str | None:
        op = self.current_entity()
        if op is None or op not in self.state.corporations:
            return None
        if self.state.corporations[op].director != entity:
            return None
        return op if needs_president(self.game, self.state, op) else None

    def actions(self, entity: str) -> list[str]:
        op = self._president_turn(entity)
        if op is not None:
            return ["sell_shares"]
        acts = super().actions(entity)
        if entity == self.current_entity() and must_buy(self.game, self.state, entity):
            return ["buy_train"]  # no pass: the train must be bought
        return acts

    def can_buy(self, corp: str) -> bool:
        if needs_president(self.game, self.state, corp):
            return True
        return super().can_buy(corp)

    def process_buy_train(self, action: Action) -> None:
        assert isinstance(action, BuyTrain)
        corp = self.state.corporations[action.entity]
        if action.price > corp.cash and not must_buy(self.game, self.state, action.entity):
            raise self.illegal(
                action,
                "emergency money",
                f"{action.entity} has {corp.cash}: its president helps only when it must buy",
            )
        super().process_buy_train(action)

    def process_pass(self, action: Action) -> None:
        if must_buy(self.game, self.state, action.entity):
            raise self.illegal(action, "must buy a train", f"{action.entity} must buy a train")
        super().process_pass(action)

    def process_sell_shares(self, action: Action) -> None:
        assert isinstance(action, SellShares)
        op = self._president_turn(action.entity)
        if op is None:
            super().process_sell_shares(action)
            return
        try:
            bundle = sh.check_bundle(self.state, action.shares, action.percent)
        except Exception as exc:
            raise self.illegal(action, "emergency money", str(exc)) from None
        if not can_sell(self.game, self.state, action.entity, op, bundle):
            raise self.illegal(
                action, "emergency money", f"{action.entity} may not sell {action.shares} now"
            )
        from ferrovia.lib18xx.stock.buy_sell_par import sell_and_move

        sell_and_move(self.game, self.state, bundle)
        reorder(self.game, self.state)

    def legal_actions(self, entity: str) -> list[Action]:
        op = self._president_turn(entity)
        if op is not None:
            return [
                SellShares(entity=entity, shares=tuple(s.id for s in b.shares), percent=b.percent)
                for b in sellable(self.game, self.state, entity, op)
            ]
        if not needs_president(self.game, self.state, entity):
            out = super().legal_actions(entity)
            if must_buy(self.game, self.state, entity):
                return [a for a in out if isinstance(a, BuyTrain)]
            cash = self.state.corporations[entity].cash
            return [a for a in out if not isinstance(a, BuyTrain) or a.price <= cash]
        g, s = self.game, self.state
        corp = s.corporations[entity]
        president = corp.director
        offer = depot_offer(g, s)
        cheapest = min(offer, key=lambda t: min(bank_train_prices(g, s, t, entity).values()))
        face, price = min(bank_train_prices(g, s, cheapest, entity).items(), key=lambda kv: kv[1])
        if president is not None and corp.cash + s.cash_of(president) >= price:
            return [
                BuyTrain(
                    entity=entity,
                    entity_type="corporation",
                    train=cheapest,
                    price=price,
                    variant=face,
                )
            ]
        if president is None:
            return []
        return [  # the president raises money (or, with nothing left to sell, goes bankrupt)
            SellShares(entity=president, shares=tuple(x.id for x in b.shares), percent=b.percent)
            for b in sellable(g, s, president, entity)
        ]


class BankruptStep(Step18xx):
    NAME = "bankrupt"
    DESCRIPTION = "Bankrupt"

    def blocks(self) -> bool:
        return False

    def actions(self, entity: str) -> list[str]:
        if entity != self.current_entity() or entity not in self.state.corporations:
            return []
        return ["bankrupt"] if needs_president(self.game, self.state, entity) else []

    def process_bankrupt(self, action: Action) -> None:
        game, state, corp = self.game, self.state, action.entity
        player = state.corporations[corp].director
        if player is None:
            raise self.illegal(action, "bankruptcy", f"{corp} has no president")
        best: dict[str, int] = {}  # the most each company's shares can raise
        for b in sellable(game, state, player, corp):
            best[b.corp] = max(best.get(b.corp, 0), sh.bundle_price(game, state, b))
        total = state.cash_of(player) + state.corporations[corp].cash + sum(best.values())
        if total >= min_depot_price(game, state):
            raise self.illegal(action, "bankruptcy", f"{player} can still raise {total}")
        from ferrovia.lib18xx.stock.buy_sell_par import sell_and_move

        self.log(f"-- {player} goes bankrupt and sells remaining shares --")
        corps = [c for c in state.corporations.values() if not c.closed]
        for c in game.sorted_by_price(state, corps):
            while True:
                bundles = [b for b in sellable(game, state, player, corp) if b.corp == c.sym]
                if not bundles:
                    break
                sell_and_move(
                    game, state, max(bundles, key=lambda b: sh.bundle_price(game, state, b))
                )
        reorder(game, state)
        if state.cash_of(player) > 0:
            transfer(state, player, BANK, state.cash_of(player), f"{player} is bankrupt")
        state.data.setdefault("bankrupt_players", []).append(player)

    def legal_actions(self, entity: str) -> list[Any]:
        g, s = self.game, self.state
        president = s.corporations[entity].director
        if president is None or not needs_president(g, s, entity):
            return []
        if s.cash_of(president) + s.corporations[entity].cash >= min_depot_price(g, s):
            return []
        if sellable(g, s, president, entity):
            return []
        return [Bankrupt(entity=entity, entity_type="corporation")]
