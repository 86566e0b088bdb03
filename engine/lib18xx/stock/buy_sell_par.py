"""The usual 18xx stock-round turn (1830's and most of its family's): sell, buy one
certificate (or start a company at a par space), sell again; pass.

Rules, from the market data and 18xx.games' generic step (``step/buy_sell_par_shares.rb``):

- A player may not buy a company's shares after selling some of them in the same round.
- Selling needs a later round than the first stock round (``sell_after: first_stock_round``),
  room in the bank pool (``bank_pool_limit``) and, for the president's certificate, another
  player holding at least as much.  Each share sold moves the price as ``grid_movement``
  says (``per_share_sold``).
- One certificate per turn, except that shares priced in the brown zone may be bought several
  at a time from the pool (and from the IPO with the ``multiple_brown_from_ipo`` option), all
  of one company and not after starting a company.
- The certificate limit (shares in the yellow, orange and brown zones are exempt) and the
  holding limit (not in the orange and brown zones); a player over a limit must sell.
- A new company starts at any par space the player can pay twice.
- Players may buy privates from each other while the phase says
  ``can_buy_companies_from_other_players`` and the hook set allows it.
- The round ends when everyone passes in a row; at its end each floated company with every
  share in players' hands moves up (``sold_out``).
"""

from __future__ import annotations

from typing import Any

from ferrovia.kernel.actions import Action, Pass
from ferrovia.kernel.ledger import transfer
from ferrovia.lib18xx import abilities, market
from ferrovia.lib18xx.actions import BuyCompany, BuyShares, Par, SellShares
from ferrovia.lib18xx.state import POOL, Corporation
from ferrovia.lib18xx.step import Step18xx
from ferrovia.lib18xx.stock import shares as sh
from ferrovia.lib18xx.stock.par import start_company
from ferrovia.lib18xx.stock.waterfall import par_cell, par_cells

PURCHASES = ("buy_shares", "par", "buy_company")


class BuySellParShares(Step18xx):
    NAME = "buy_sell_par_shares"
    DESCRIPTION = "Sell/Buy/Sell Shares"

    @classmethod
    def round_data(cls) -> dict[str, Any]:
        return {"players_sold": {}, "current_actions": [], "bought_from_ipo": False}

    def setup(self) -> None:
        sold = self.rdata.setdefault("players_sold", {})
        for corps in sold.values():
            for corp in corps:
                corps[corp] = "prev"
        self.rdata["current_actions"] = []
        self.rdata["bought_from_ipo"] = False

    # -- what the turn holds so far ----------------------------------------------------------
    def bought(self) -> bool:
        return any(a[0] in PURCHASES for a in self.rdata["current_actions"])

    def sold_corp(self, player: str, corp: str) -> bool:
        return corp in self.rdata["players_sold"].get(player, {})

    # -- buying ------------------------------------------------------------------------------
    def can_buy_multiple(self, corp: Corporation, owner: str) -> bool:
        if "multiple_brown_from_ipo" not in self.game.optional_rules:
            if owner != POOL or self.rdata["bought_from_ipo"]:
                return False
        cell = market.current_cell(self.game, self.state, corp.sym)
        acts = self.rdata["current_actions"]
        return (
            cell is not None
            and cell.buy_multiple
            and not any(a[0] == "par" for a in acts)
            and not any(a[0] == "buy_shares" and a[1] != corp.sym for a in acts)
        )

    def can_buy(self, player: str, bundle: sh.Bundle) -> bool:
        corp = self.state.corporations[bundle.corp]
        owner = bundle.owner
        if owner == player or self.state.is_player(owner) or not corp.ipoed:
            return False
        if owner == corp.sym and bundle.presidents_share is not None:
            return False
        return (
            self.state.player(player).cash >= sh.bundle_price(self.game, self.state, bundle)
            and not self.sold_corp(player, corp.sym)
            and (not self.bought() or self.can_buy_multiple(corp, owner))
            and sh.can_gain(self.game, self.state, player, bundle)
        )

    def buyable_singles(self, player: str) -> list[sh.Bundle]:
        out: list[sh.Bundle] = []
        for corp in self.state.corporations.values():
            if corp.closed or not corp.ipoed:
                continue
            for owner in (corp.sym, POOL):
                certs = [s for s in corp.shares if s.owner == owner and not s.president]
                if certs:
                    cert = min(certs, key=lambda s: (s.percent, s.seq, s.index))
                    bundle = sh.Bundle(corp.sym, [cert], cert.percent)
                    if self.can_buy(player, bundle):
                        out.append(bundle)
        return out

    def can_par(self, player: str) -> bool:
        if self.bought():
            return False
        cash = self.state.player(player).cash
        cheapest = min((p for _, _, p in par_cells(self.game)), default=0)
        return any(
            not c.ipoed and not c.closed and self._may_hold_new(player) and cash >= cheapest * 2
            for c in self.state.corporations.values()
        )

    def _may_hold_new(self, player: str) -> bool:
        return sh.num_certs(self.game, self.state, player) < self.game.cert_limit

    # -- selling -----------------------------------------------------------------------------
    def sale_timing(self) -> bool:
        rule = str(self.game.definition.market.sell_after)
        if rule == "first_stock_round":
            return self.state.turn > 1
        return True

    def can_sell(self, player: str, bundle: sh.Bundle) -> bool:
        corp = self.state.corporations[bundle.corp]
        if bundle.owner != player or not self.sale_timing():
            return False
        if str(self.game.definition.market.sell_after) == "operate" and not corp.operated:
            return False
        if self.game.definition.market.must_sell_in_blocks:
            if self.rdata["players_sold"].get(player, {}).get(corp.sym) == "now":
                return False
        return sh.fits_in_pool(self.game, self.state, bundle) and sh.can_dump(
            self.state, player, bundle
        )

    def sellable(self, player: str) -> list[sh.Bundle]:
        out: list[sh.Bundle] = []
        for corp in self.state.corporations.values():
            if corp.closed:
                continue
            out.extend(
                b for b in sh.bundles_for(self.state, corp, player) if self.can_sell(player, b)
            )
        return out

    def must_sell(self, player: str) -> bool:
        if not self.sellable(player):
            return False
        if sh.num_certs(self.game, self.state, player) > self.game.cert_limit:
            return True
        limit = self.game.holding_limit
        if limit is None:
            return False  # market.yaml gives no holding limit for this player count
        for corp in self.state.corporations.values():
            cell = market.current_cell(self.game, self.state, corp.sym)
            if cell is not None and cell.above_holding_limit:
                continue
            if sh.percent_of(corp, player) > limit and any(
                b.corp == corp.sym for b in self.sellable(player)
            ):
                return True
        return False

    # -- privates between players -------------------------------------------------------------
    def purchasable_companies(self, player: str) -> list[str]:
        g, s = self.game, self.state
        if self.bought() or s.player(player).cash <= 0:
            return []
        status = g.definition.phase(s.phase).status
        if "can_buy_companies_from_other_players" not in status:
            return []
        if not g.rules.players_may_trade_privates(g, s):
            return []
        return [
            m.sym
            for m in s.privates.values()
            if not m.closed
            and s.is_player(m.owner)
            and m.owner != player
            and not abilities.has(g, m.sym, "no_buy")
        ]

    # -- the interface -----------------------------------------------------------------------
    def actions(self, entity: str) -> list[str]:
        if entity != self.current_entity() or not self.state.is_player(entity):
            return []
        if self.must_sell(entity):
            return ["sell_shares"]
        out: list[str] = []
        if self.buyable_singles(entity):
            out.append("buy_shares")
        if self.can_par(entity):
            out.append("par")
        if self.purchasable_companies(entity):
            out.append("buy_company")
        if self.sellable(entity):
            out.append("sell_shares")
        if out:
            out.append("pass")
        return out

    def _track(self, action: Action, corp: str) -> None:
        self.rdata["current_actions"].append([action.type, corp])
        self.rdata["last_to_act"] = action.entity

    def process_buy_shares(self, action: Action) -> None:
        assert isinstance(action, BuyShares)
        try:
            bundle = sh.check_bundle(self.state, action.shares, action.percent)
        except Exception as exc:
            raise self.illegal(action, "buy shares", str(exc)) from None
        if not self.can_buy(action.entity, bundle):
            raise self.illegal(action, "buy shares", f"{action.entity} cannot buy {action.shares}")
        corp = self.state.corporations[bundle.corp]
        if bundle.owner == corp.sym:
            self.rdata["bought_from_ipo"] = True
        sh.buy_shares(self.game, self.state, action.entity, bundle)
        self._track(action, corp.sym)

    def process_sell_shares(self, action: Action) -> None:
        assert isinstance(action, SellShares)
        try:
            bundle = sh.check_bundle(self.state, action.shares, action.percent)
        except Exception as exc:
            raise self.illegal(action, "sell shares", str(exc)) from None
        if not self.can_sell(action.entity, bundle):
            raise self.illegal(
                action, "sell shares", f"{action.entity} cannot sell {action.shares}"
            )
        corp = self.state.corporations[bundle.corp]
        self.rdata["players_sold"].setdefault(action.entity, {})[corp.sym] = "now"
        sell_and_move(self.game, self.state, bundle)
        self._track(action, corp.sym)

    def process_par(self, action: Action) -> None:
        assert isinstance(action, Par)
        corp = self.state.corporations.get(action.corporation)
        pos = par_cell(self.game, action.share_price)
        if corp is None or corp.ipoed or pos is None or self.bought():
            raise self.illegal(action, "par", f"{action.corporation} cannot be started now")
        price = market.price_at(self.game, pos)
        pres = next(s for s in corp.shares if s.president)
        if self.state.player(action.entity).cash < price * pres.percent // sh.share_percent(corp):
            raise self.illegal(action, "par", f"{action.entity} cannot pay for {corp.sym}")
        start_company(self.game, self.state, action.entity, corp.sym, pos, pay=True)
        self._track(action, corp.sym)

    def process_buy_company(self, action: Action) -> None:
        assert isinstance(action, BuyCompany)
        sym = action.company
        if sym not in self.purchasable_companies(action.entity):
            raise self.illegal(action, "buy company", f"{sym} cannot be bought now")
        owner = self.state.privates[sym].owner
        if action.price < 1 or action.price > self.state.player(action.entity).cash:
            raise self.illegal(action, "buy company", f"bad price {action.price}")
        held = abilities.shares_held_by_players(self.game, self.state, sym)
        if held:
            why = f"its {', '.join(held)} is with a player"
            raise self.illegal(action, "buy company", f"{sym} cannot change hands: {why}")
        transfer(self.state, action.entity, owner, action.price, f"buys {sym}")
        self.state.player(owner).companies.remove(sym)
        self.state.player(action.entity).companies.append(sym)
        self.state.privates[sym].owner = action.entity
        abilities.regrant_shares(self.game, self.state, action.entity, sym)
        self.rdata["current_actions"].append([action.type, sym])

    def process_pass(self, action: Action) -> None:
        self._end_turn(action.entity)

    def skip(self) -> None:
        ent = self.current_entity()
        if ent is None:
            self.pass_()
        else:
            self._end_turn(ent)

    def _end_turn(self, player: str) -> None:
        """A turn with actions un-passes its player; one without passes them (18xx.games)."""
        self.pass_()
        passed = self.round.passed
        if self.rdata["current_actions"]:
            if player in passed:
                passed.remove(player)
        elif player not in passed:
            passed.append(player)

    def legal_actions(self, entity: str) -> list[Action]:
        acts = self.actions(entity)
        out: list[Action] = []
        if "sell_shares" in acts:
            for b in self.sellable(entity):
                out.append(
                    SellShares(
                        entity=entity, shares=tuple(s.id for s in b.shares), percent=b.percent
                    )
                )
        if acts == ["sell_shares"]:
            return out
        for b in self.buyable_singles(entity) if "buy_shares" in acts else []:
            out.append(BuyShares(entity=entity, shares=(b.shares[0].id,), percent=b.percent))
        if "par" in acts:
            cash = self.state.player(entity).cash
            for corp in self.state.corporations.values():
                if corp.ipoed or corp.closed:
                    continue
                for r, c, price in par_cells(self.game):
                    if price * 2 <= cash:
                        out.append(
                            Par(entity=entity, corporation=corp.sym, share_price=f"{price},{r},{c}")
                        )
        if "pass" in acts:
            out.append(Pass(entity=entity))
        return out


def sell_and_move(game: Any, state: Any, bundle: sh.Bundle) -> None:
    """Sell a bundle to the pool and move the price once per share sold (2-D market)."""
    corp = state.corporations[bundle.corp]
    sh.sell_shares(game, state, bundle)
    gm = game.definition.market.grid_movement
    if gm is None:
        return
    unit = min(s.percent for s in corp.shares)
    for _ in range(bundle.percent // unit):
        for direction in gm.per_share_sold:
            market.move(game, state, corp.sym, direction)


def sold_out_moves(game: Any, state: Any) -> None:
    """End of a stock round: each floated company whose shares are all in players' hands
    moves as ``grid_movement.sold_out`` says, in operating order (18xx.games ``finish_round``)."""
    gm = game.definition.market.grid_movement
    if gm is None or not gm.sold_out:
        return
    corps = [c for c in state.corporations.values() if c.floated and not c.closed]
    for corp in game.sorted_by_price(state, corps):
        if corp.market is None:
            continue
        held = sum(s.percent for s in corp.shares if state.is_player(s.owner))
        if held == 100:
            for direction in gm.sold_out:
                market.move(game, state, corp.sym, direction)
