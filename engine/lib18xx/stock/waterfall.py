"""The waterfall auction of privates (1830 and most of its family) and the par choice a
private's president's certificate asks for.

The privates are offered cheapest first.  On their turn players buy the cheapest at its price,
bid on a dearer one (at least the minimum increment above its highest bid) or pass.  Whenever
the cheapest has been bought the next one is settled: one bid buys it at that bid; several
start an auction among their bidders (the lowest bidder acts next: raise or drop out).  If
everyone passes in a row and nothing was bought, the cheapest's price falls by 5 (at 0 the next
player must take it); if something was bought, the privates pay their income as if an
operating round had passed.  Facts as 18xx.games (``step/waterfall_auction.rb``,
``step/company_pending_par.rb``).

Round data: ``bids`` (private -> [[player, price], ...] in bid order), ``auctioning``,
``auction_passed`` (players who passed in a row), ``discount`` (private -> amount),
``companies_pending_par`` (privates whose president's certificate waits for a par price).
"""

from __future__ import annotations

from typing import Any

from ferrovia.kernel.actions import Action, Pass
from ferrovia.kernel.ledger import transfer
from ferrovia.lib18xx import market
from ferrovia.lib18xx.actions import Bid, Par
from ferrovia.lib18xx.state import BANK
from ferrovia.lib18xx.step import Step18xx


class WaterfallAuction(Step18xx):
    NAME = "waterfall_auction"
    DESCRIPTION = "Bid on Companies"

    @classmethod
    def round_data(cls) -> dict[str, Any]:
        return {
            "bids": {},
            "auctioning": None,
            "auction_passed": [],
            "discount": {},
            "companies_pending_par": [],
        }

    # -- what is on offer --------------------------------------------------------------------
    def companies(self) -> list[str]:
        """Unsold privates, cheapest first (18xx.games sorts by value, stably)."""
        privs = [p for p in self.game.privates if self.state.privates[p.symbol].owner == BANK]
        privs = [p for p in privs if not self.state.privates[p.symbol].closed]
        return [p.symbol for p in sorted(privs, key=lambda p: p.face_value)]

    def bids(self, sym: str) -> list[list[Any]]:
        out: list[list[Any]] = self.rdata["bids"].setdefault(sym, [])
        return out

    def price_of(self, sym: str) -> int:
        return self.game.definition.private(sym).minimum_bid - int(
            self.rdata["discount"].get(sym, 0)
        )

    def auction_bidders(self) -> list[list[Any]] | None:
        sym = self.rdata.get("auctioning")
        if sym is None:
            return None
        bids = self.bids(sym)
        return bids if len(bids) > 1 else None

    def min_bid(self, sym: str) -> int:
        companies = self.companies()
        if self.auction_bidders() is None and companies and sym == companies[0]:
            return self.price_of(sym)
        bids = self.bids(sym)
        high = max((b[1] for b in bids), default=self.price_of(sym))
        return int(high) + self.game.definition.market.minimum_bid_increment

    def committed(self, player: str) -> int:
        return sum(b[1] for bids in self.rdata["bids"].values() for b in bids if b[0] == player)

    def max_bid(self, player: str, sym: str) -> int:
        own = next((b[1] for b in self.bids(sym) if b[0] == player), 0)
        return int(self.state.player(player).cash - self.committed(player) + own)

    # -- whose turn --------------------------------------------------------------------------
    def active_entities(self) -> list[str]:
        bids = self.auction_bidders()
        if bids is not None:
            return [min(bids, key=lambda b: b[1])[0]]
        return super().active_entities()

    def actions(self, entity: str) -> list[str]:
        if not self.companies():
            return []
        return ["bid", "pass"] if entity in self.active_entities() else []

    # -- actions -----------------------------------------------------------------------------
    def process_bid(self, action: Action) -> None:
        assert isinstance(action, Bid)
        player, sym = action.entity, action.company
        if sym not in self.companies():
            raise self.illegal(action, "auction", f"{sym} is not for sale")
        self._unpass(player)
        if self.auction_bidders() is not None:
            if sym != self.rdata["auctioning"]:
                raise self.illegal(action, "auction", f"{self.rdata['auctioning']} is up")
            self._add_bid(action)
            return
        if sym == self.companies()[0]:
            # the cheapest is bought outright at the price bid (at least its price)
            price = self.price_of(sym)
            if action.price < price:
                raise self.illegal(action, "auction", f"{sym} costs {price}")
            if action.price > self.max_bid(player, sym):
                raise self.illegal(action, "auction", f"{player} cannot pay {action.price}")
            self.rdata["last_to_act"] = player
            self._buy(player, sym, action.price)
            self._resolve()
        else:
            self._add_bid(action)
        self.round_next_entity()

    def process_pass(self, action: Action) -> None:
        player = action.entity
        if self.auction_bidders() is not None:
            sym = self.rdata["auctioning"]
            self.rdata["bids"][sym] = [b for b in self.bids(sym) if b[0] != player]
            self.log(f"{player} passes on {sym}")
            self._resolve()
            return
        self.log(f"{player} passes bidding")
        passed = self.rdata["auction_passed"]
        if player not in passed:
            passed.append(player)
        if all(p.id in passed for p in self.state.players):
            self._all_passed()
        self.round_next_entity()

    # -- mechanics ---------------------------------------------------------------------------
    def round_next_entity(self) -> None:
        rs = self.round
        rs.entity_index = (rs.entity_index + 1) % len(rs.entities)

    def _unpass(self, player: str) -> None:
        passed = self.rdata["auction_passed"]
        if player in passed:
            passed.remove(player)

    def _add_bid(self, action: Bid) -> None:
        sym, player = action.company, action.entity
        low = self.min_bid(sym)
        if action.price < low:
            raise self.illegal(action, "auction", f"the minimum bid for {sym} is {low}")
        high = self.max_bid(player, sym)
        if action.price > high:
            raise self.illegal(action, "auction", f"{player} can bid at most {high}")
        bids = [b for b in self.bids(sym) if b[0] != player]
        bids.append([player, action.price])
        self.rdata["bids"][sym] = bids
        bidders = self.rdata.setdefault("bidders", {}).setdefault(sym, [])
        if player not in bidders:
            bidders.append(player)
        self.log(f"{player} bids {action.price} for {sym}")

    def _buy(self, player: str, sym: str, price: int) -> None:
        available = self.max_bid(player, sym)
        if available < price:
            raise ValueError(f"{player} has {available} available, not {price}")
        if price > 0:
            transfer(self.state, player, BANK, price, f"buys {sym}")
        self.state.privates[sym].owner = player
        self.state.player(player).companies.append(sym)
        self.log(f"{player} buys {sym} for {price}")
        self.game.rules.after_buy_company(self.game, self.state, player, sym, price)

    def _resolve(self) -> None:
        while self.companies():
            sym = self.companies()[0]
            fresh = sym != self.rdata.get("auctioning")
            self.rdata["auctioning"] = None
            bids = self.bids(sym)
            if len(bids) == 1:
                player, price = bids[0]
                del self.rdata["bids"][sym]
                self._buy(player, sym, int(price))
                continue
            if len(bids) > 1:
                self.rdata["auctioning"] = sym
                if fresh:
                    self.log(f"{sym} goes up for auction")
            break

    def _all_passed(self) -> None:
        companies = self.companies()
        cheapest = sorted(self.game.privates, key=lambda p: p.face_value)[0].symbol
        if cheapest in companies:
            self.rdata["discount"][cheapest] = int(self.rdata["discount"].get(cheapest, 0)) + 5
            if self.price_of(cheapest) <= 0:
                self.round_next_entity()
                rs = self.round
                self._buy(rs.entities[rs.entity_index], cheapest, 0)
                self._resolve()
        else:
            self.game.rules.payout_companies(self.game, self.state)
        self.rdata["auction_passed"] = []

    def legal_actions(self, entity: str) -> list[Action]:
        out: list[Action] = [Pass(entity=entity)]
        companies = self.companies()
        up = self.rdata.get("auctioning") if self.auction_bidders() is not None else None
        for sym in [up] if up else companies:
            low, high = self.min_bid(sym), self.max_bid(entity, sym)
            if low <= high:
                out.append(Bid(entity=entity, company=sym, price=low))
        return out


class CompanyPendingPar(Step18xx):
    """A private that came with a president's certificate waits for its owner to choose the
    company's par price (any par space)."""

    NAME = "company_pending_par"
    DESCRIPTION = "Choose Corporation Par Value"

    @classmethod
    def round_data(cls) -> dict[str, Any]:
        return {"companies_pending_par": []}

    def pending(self) -> list[list[str]]:
        out: list[list[str]] = self.rdata.setdefault("companies_pending_par", [])
        return out

    @property
    def active(self) -> bool:
        return bool(self.pending())

    def active_entities(self) -> list[str]:
        pend = self.pending()
        return [self.state.privates[pend[0][0]].owner] if pend else []

    def actions(self, entity: str) -> list[str]:
        return ["par"] if entity in self.active_entities() else []

    def process_par(self, action: Action) -> None:
        assert isinstance(action, Par)
        sym, corp = self.pending()[0]
        if action.corporation != corp:
            raise self.illegal(action, "par", f"{sym} asks for the par price of {corp}")
        cell = par_cell(self.game, action.share_price)
        if cell is None:
            raise self.illegal(action, "par", f"{action.share_price} is not a par space")
        from ferrovia.lib18xx.stock.par import start_company

        start_company(self.game, self.state, action.entity, corp, cell, pay=False)
        self.pending().pop(0)

    def legal_actions(self, entity: str) -> list[Action]:
        pend = self.pending()
        if not pend:
            return []
        return [
            Par(entity=entity, corporation=pend[0][1], share_price=f"{price},{r},{c}")
            for r, c, price in par_cells(self.game)
        ]


def par_cells(game: Any) -> list[tuple[int, int, int]]:
    """(row, column, price) of every par space, dearest first (18xx.games' order)."""
    out = [
        (r, c, cell.price)
        for r, row in enumerate(game.market_grid)
        for c, cell in enumerate(row)
        if cell is not None and cell.par
    ]
    return sorted(out, key=lambda t: (t[2], t[1], t[0]), reverse=True)


def par_cell(game: Any, share_price: str) -> list[int] | None:
    """The market position a ``par`` action's ``"price,row,col"`` names, if a par space."""
    try:
        price, row, col = (int(x) for x in share_price.split(","))
    except ValueError:
        return None
    cell = market.cell(game, [row, col])
    if cell is None or not cell.par or cell.price != price:
        return None
    return [row, col]


__all__ = ["CompanyPendingPar", "WaterfallAuction", "market", "par_cell", "par_cells"]
